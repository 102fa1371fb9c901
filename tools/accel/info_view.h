/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* info_view.h — what the text and JSON views of `accel info` share (info.c,
 * info_json.c): the facts gathered once, the environment variables the
 * program reads, and the dtype list (info_view.c). */
#ifndef ACCEL_CLI_INFO_VIEW_H
#define ACCEL_CLI_INFO_VIEW_H

#include <stdio.h>

#include "cli.h"

/* One backend candidate when no runtime could be opened: only what the error
 * message of accel_runtime_open names (its name and reason). */
typedef struct info_candidate {
    char name[64];
    char reason[1024];
} info_candidate;

#define INFO_MAX_CANDIDATES 32

/* What `accel info` found: the runtime, or why there is none. */
typedef struct info_view {
    const char *config_arg; /* --config, or NULL */
    accel_runtime *rt;      /* NULL when the runtime did not open */
    accel_status open_status;
    char open_error[4096];  /* accel_last_error() of the failed open */
    char config_path[4096]; /* from the runtime, or from the failed open's message */
    info_candidate candidates[INFO_MAX_CANDIDATES]; /* when rt is NULL */
    size_t candidate_count;
    accel_device *only; /* --device: show this device only */
} info_view;

/* Names of the environment variables the library and the program read, in
 * the order of `accel --help`. */
extern const char *const info_env_vars[];

/* The dtypes of a mask as "f32 f64 ..." into buf. */
const char *info_dtypes(uint32_t mask, char *buf, size_t cap);

#endif /* ACCEL_CLI_INFO_VIEW_H */
