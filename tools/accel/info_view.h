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

#define INFO_MAX_DEVICES 64

/* Collectives on one device: the transport accel_comm_create would pick. */
typedef struct info_comm_device {
    char name[64];
    bool gpu;              /* not host memory */
    bool nccl;             /* its backend runs NCCL (accel_device_comm_supported) */
    char nccl_version[32]; /* "2.21.5"; empty when unknown */
    /* "mpi", "nccl" or "mpi-staged" (accel_comm_transport's names); NULL
     * without libaccel_mpi */
    const char *transport;
    char reason[600]; /* why this transport (NCCL's absence, host memory) */
} info_comm_device;

/* Collectives between processes (info_collectives.c). */
typedef struct info_collectives {
    bool mpi_built;        /* libaccel_mpi is next to libaccel */
    char mpi_path[4096];   /* where it is, or would be */
    char mpi_library[128]; /* MPI_Get_library_version's first line */
    char mpi_version[16];  /* the MPI standard's, "3.1" */
    char mpi_error[512];   /* why the versions are unknown */
    char nccl_reason[600]; /* no device is a GPU: why (from the cuda backend) */
    info_comm_device devices[INFO_MAX_DEVICES]; /* every device of the runtime */
    size_t device_count, gpu_count;
} info_collectives;

/* Fill *c for rt (NULL: only libaccel_mpi). Loads libaccel_mpi to read the
 * MPI version (no MPI_Init). */
void info_collectives_gather(accel_runtime *rt, info_collectives *c);

/* Names of the environment variables the library and the program read, in
 * the order of `accel --help`. */
extern const char *const info_env_vars[];

/* The dtypes of a mask as "f32 f64 ..." into buf. */
const char *info_dtypes(uint32_t mask, char *buf, size_t cap);

/* The compiler that builds user kernels on dev, short ("cc /usr/bin/gcc-12",
 * "tcc /usr/lib/.../accel-tcc", "nvrtc 13.0 sm_90": accel_kernel_compiler_get
 * without the cache key's size, time and flags), or "none (REASON)". */
const char *info_kernel_compiler(accel_device *dev, char *buf, size_t cap);

#endif /* ACCEL_CLI_INFO_VIEW_H */
