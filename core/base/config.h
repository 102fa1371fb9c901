/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/base/config.h — plugins.ini and the ACCEL_* environment, typed and validated (config.c). Not
 * installed. */
#ifndef ACCEL_CORE_BASE_CONFIG_H
#define ACCEL_CORE_BASE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "accel/accel.h"

/* The value parsers (common/value.h, shared with libaccel_mpi and the
 * `accel` program so that every setting reads its words one way). */
#include "value.h"

typedef struct accel__kv {
    char *key;
    char *value;
    int line;
} accel__kv;

typedef struct accel__kvlist {
    accel__kv *items;
    size_t count, cap;
} accel__kvlist;

/* One [backend.NAME] section. */
typedef struct accel__section {
    char *name;         /* NAME */
    int line;           /* line of the section header */
    char *library;      /* as written */
    char *written;      /* library joined to the config's folder, links kept
                           (security.c checks every component of it) */
    char *path;         /* the same, resolved (realpath) when it exists */
    accel__kvlist keys; /* every key of the section, library included */
} accel__section;

/* The [runtime] keys, one row each: enum suffix, key. The settings below
 * hold their typed values; line[] says where each was set. */
#define ACCEL__RUNTIME_KEYS(X)                                                                     \
    X(ORDER, "order")                                                                              \
    X(STRICT, "strict")                                                                            \
    X(ALLOW_INSECURE, "allow_insecure")                                                            \
    X(VERIFY, "verify")                                                                            \
    X(VERIFY_SAMPLE, "verify_sample")                                                              \
    X(VERIFY_REPRO_DIR, "verify_repro_dir")                                                        \
    X(VERIFY_GUARD, "verify_guard")                                                                \
    X(ON_MISMATCH, "on_mismatch")                                                                  \
    X(ON_ERROR, "on_error")                                                                        \
    X(FALLBACK, "fallback")                                                                        \
    X(SELFTEST, "selftest")                                                                        \
    X(REPORT, "report")                                                                            \
    X(KERNEL_CACHE, "kernel_cache")

typedef enum accel__key {
#define ACCEL__X_KEY(name, text) ACCEL__KEY_##name,
    ACCEL__RUNTIME_KEYS(ACCEL__X_KEY)
#undef ACCEL__X_KEY
        ACCEL__KEY_COUNT
} accel__key;

/* Where a setting came from: a line of the file (> 0), the environment
 * (ACCEL__FROM_ENV) or the built-in default (0). */
#define ACCEL__FROM_ENV (-1)

/* The settings of one runtime: every [runtime] key and every ACCEL_*
 * variable the core reads (ACCEL_LOG excepted: the log level belongs to the
 * process, status.c reads it with accel__parse_log_level), typed and
 * validated by accel__config_load before any plugin is opened. Precedence:
 * an argument (accel_runtime_open's path, accel_verify_configure, ...) over
 * the environment over the file over the default. An environment variable
 * that is set but empty counts as unset. */
typedef struct accel__config {
    char *path; /* absolute path of the file */
    char *dir;  /* its folder */
    /* order (the file), with ACCEL_BACKEND's name put first when set */
    char **order;
    size_t order_count;
    bool order_set;
    char *backend_first; /* ACCEL_BACKEND, else NULL; names a section */
    bool strict;
    /* allow_insecure: plugins that fail the trust check load anyway;
     * ACCEL_ALLOW_INSECURE when set, else the file's key. */
    bool allow_insecure;
    bool env_allow_insecure; /* ACCEL_ALLOW_INSECURE: also the config file itself */
    /* verify mode: the reference device (ACCEL_VERIFY over verify), NULL off */
    char *verify;
    double verify_sample;   /* 0..1, default 1 */
    uint32_t verify_guard;  /* 0..4096, default 4 */
    char *verify_repro_dir; /* absolute, NULL: none */
    bool verify_fail;       /* on_mismatch = fail */
    /* fallback: the device name, NULL for none (default "cpu"; strict = true
     * means none) */
    char *fallback;
    bool fallback_on_oom; /* on_error = fallback (default) */
    bool selftest;        /* default true */
    bool report;          /* ACCEL_REPORT over report, default false */
    char *trace_path;     /* ACCEL_TRACE, else NULL */
    /* user kernels' disk cache (kernel_cache.c): ACCEL_KERNEL_CACHE over
     * kernel_cache; a folder (relative ones joined to the config's folder)
     * or an off word as written; NULL: the default folder */
    char *kernel_cache;
    int line[ACCEL__KEY_COUNT]; /* where each key was set (see ACCEL__FROM_ENV) */
    accel__section *sections;   /* in file order */
    size_t section_count, section_cap;
} accel__config;

/* Find, read and validate the configuration: config_path, else
 * $ACCEL_CONFIG, else <folder of libaccel.so>/accel/plugins.ini; then the
 * environment. Errors carry "fn: file:line: ..." (or the variable's name). */
accel_status accel__config_load(const char *config_path, const char *fn, accel__config **out);
void accel__config_free(accel__config *cfg);
const accel__section *accel__config_section(const accel__config *cfg, const char *name);
const char *accel__kvlist_get(const accel__kvlist *list, const char *key);
/* "path:line: key = " or "ACCEL_VAR=" for messages about a setting's value,
 * written to buf (cap bytes); returns buf. */
const char *accel__config_where(const accel__config *cfg, accel__key key, char *buf, size_t cap);

#endif /* ACCEL_CORE_BASE_CONFIG_H */
