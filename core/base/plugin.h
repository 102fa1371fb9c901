/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/base/plugin.h — the record of one backend plugin, loaded or not
 * (accel__backend), as the loader (loader.c) fills it and every object on
 * a device (objects.h) reaches it. Not installed. */
#ifndef ACCEL_CORE_BASE_PLUGIN_H
#define ACCEL_CORE_BASE_PLUGIN_H

#include <stdbool.h>
#include <stdint.h>

#include "accel/backend.h"

#include "base/config.h"

/* accel_host_services as ABI 1 had it: log and set_error without host_ctx
 * (accel/backend.h, ABI history). Same size and layout otherwise. */
typedef struct accel__host_services_v1 {
    uint32_t struct_size;
    uint32_t abi_version;
    void *host_ctx;
    void (*log)(int level, const char *fmt, ...);
    void (*set_error)(const char *fmt, ...);
    const char *(*config_get)(void *host_ctx, const char *key);
    void *reserved[8];
} accel__host_services_v1;

/* The core's cache of plugins' own compiled code, as the host services hand
 * it on (accel_host_services' cache_get and cache_put). runtime.c sets it to
 * the kernel cache's (kernels/kernel_cache.h); NULL get: every get misses and
 * put stores nothing. */
typedef struct accel__plugin_cache {
    void *owner;
    accel_status (*get)(void *owner, const char *backend, const char *const *key, size_t n,
                        void **out, size_t *out_size);
    accel_status (*put)(void *owner, const char *backend, const char *const *key, size_t n,
                        const void *data, size_t size);
} accel__plugin_cache;

/* One backend candidate: what the configuration asked for and what loading
 * it gave. */
typedef struct accel__backend {
    char *name; /* section name */
    char *path; /* resolved library path */
    const accel__section *section;
    bool in_order;             /* named in [runtime] order (or by ACCEL_BACKEND) */
    bool allow_insecure;       /* load even when the trust check fails (security.c) */
    accel__plugin_cache cache; /* what the host services' cache entries use */
    bool loaded;
    accel_status status; /* why not loaded */
    char reason[768];
    char description[256];
    uint32_t abi_version;
    uint32_t device_count;
    void *dl;
    const accel_backend *vt; /* &table once loaded */
    /* The plugin's table, copied into a zeroed full-size one: entries past a
     * smaller (older) plugin's struct_size read as NULL. */
    accel_backend table;
    void *ctx;
    /* what the plugin's init got: the host services of its ABI version */
    union {
        accel_host_services v2;
        accel__host_services_v1 v1;
    } host;
    const void *abi1_base; /* ABI 1 plugins: load address, to name their log lines */
    uint32_t first_device; /* index of its device 0 in the runtime's list */
} accel__backend;

#endif /* ACCEL_CORE_BASE_PLUGIN_H */
