/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/kernel_cache.h — the compiled-code cache of user kernels
 * (kernel_cache.c): generated source in, a backend program out, through the
 * memory and disk caches. It knows nothing of kernel objects (kernel.c
 * calls it; it calls only the backends and the status layer). Not
 * installed. */
#ifndef ACCEL_CORE_KERNEL_CACHE_H
#define ACCEL_CORE_KERNEL_CACHE_H

#include "base/objects.h"

/* Bytes of compiler log kept for a failed build's message. */
#define ACCEL__KLOG_MAX 16384

/* A program for dev from source through the memory and disk caches
 * (compiling on a miss). name labels messages; language is ACCEL_PROGRAM_*;
 * options are the user's extra compiler options or NULL. On
 * ACCEL_ERROR_COMPILE the message holds the compiler's log. The runtime
 * keeps every program until it closes, so work enqueued before
 * accel_kernel_release still finds its code. Thread-safe. */
accel_status accel__kcache_build(accel_runtime *rt, accel_device *dev, const char *name,
                                 uint32_t language, const char *source, const char *entry,
                                 const char *options, accel_be_program **out);

/* The cache's counters over the runtime's life (accel_kernel_cache_stats
 * of accel/kernel.h is filled from them). Resolves the disk folder if no
 * build did yet. ACCEL_ERROR_OUT_OF_HOST_MEMORY when the cache cannot be
 * made (no message set). */
typedef struct accel__kcache_counters {
    bool disk_enabled;
    uint64_t memory_hits, disk_hits, misses, rebuilt, failures;
    double compile_ms, load_ms;
    char dir[1024];
    char disabled_reason[256];
} accel__kcache_counters;
accel_status accel__kcache_counters_get(accel_runtime *rt, accel__kcache_counters *out);

/* The host services' cache_get and cache_put (accel/backend.h) for the
 * plugin named backend: its own compiled code, in the disk folder of the
 * user kernel cache under a key of the plugin's n fields (at most
 * ACCEL_HOST_CACHE_KEY_MAX),
 * SHA-256'd with the ABI version and the backend's name. owner is the
 * accel_runtime (runtime.c hands these to the loader). get: the payload,
 * malloc'ed, or ACCEL_ERROR_NOT_FOUND (no entry, a bad one, no disk cache);
 * put: ACCEL_ERROR_NOT_FOUND when there is no disk cache (a failed write
 * is logged, as for user kernels). No message set. Thread-safe. */
accel_status accel__kcache_plugin_get(void *owner, const char *backend, const char *const *key,
                                      size_t n, void **out, size_t *out_size);
accel_status accel__kcache_plugin_put(void *owner, const char *backend, const char *const *key,
                                      size_t n, const void *data, size_t size);

/* At accel_runtime_close, after every kernel is gone: release every
 * program and the cache. */
void accel__kcache_close(accel_runtime *rt);

#endif /* ACCEL_CORE_KERNEL_CACHE_H */
