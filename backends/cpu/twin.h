/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* twin.h — the CPU backend's runtime for the C twins of raw CUDA kernels
 * (twin.c): what a launch hands the generated entry (backend.h's
 * accel_twin). */
#ifndef ACCEL_CPU_TWIN_H
#define ACCEL_CPU_TWIN_H

#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "accel/backend.h"

typedef struct accel_cpu_print accel_cpu_print;

/* One raw launch's twin state; tw is what the entry receives. */
typedef struct accel_cpu_twin {
    accel_twin tw;
    const char *name; /* "kernel NAME" */
    const void *arg_base[32];
    size_t arg_bytes[32];
    const char *arg_name[32];
    pthread_mutex_t lock; /* prints and the fault message */
    accel_cpu_print *prints;
    size_t nprints, cap;
    char fault[1024]; /* the twin's own fault, first one */
    atomic_int faulted;
} accel_cpu_twin;

/* Fill T for a launch of kernel `name`: flags ACCEL_TWIN_*, shared_bytes of
 * dynamic shared memory. Arguments' bounds are set by the caller. */
void accel_cpu__twin_init(accel_cpu_twin *T, const char *name, uint32_t flags, size_t shared_bytes);
/* After the launch: the prints in block order to stdout, state freed. */
void accel_cpu__twin_finish(accel_cpu_twin *T);

#endif /* ACCEL_CPU_TWIN_H */
