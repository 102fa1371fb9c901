/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* demo_types.h — what a step of `accel demo` gets and what it reports to the
 * command (demo.c), which runs the steps, shows progress and prints the table. */
#ifndef ACCEL_CLI_DEMO_TYPES_H
#define ACCEL_CLI_DEMO_TYPES_H

#include <stdbool.h>
#include <stddef.h>

#include "accel/accel.h"

typedef enum demo_size { DEMO_SMALL = 0, DEMO_MEDIUM = 1, DEMO_LARGE = 2 } demo_size;

/* What every step gets: the device under test and the CPU device that checks it. */
typedef struct demo_ctx {
    accel_runtime *rt;
    accel_device *dev, *cpu;
    accel_queue *q, *qc;  /* on dev, on cpu */
    accel_event *t0, *t1; /* on dev, for timing */
    demo_size size;
} demo_ctx;

/* One row of the table. */
typedef struct demo_result {
    char label[48];   /* "multiply (10M)" */
    double ms;        /* device time of the measured part; DEMO_NOT_TIMED: none */
    double rate;      /* in `unit`; <= 0: none */
    const char *unit; /* "GB/s", "TFLOP/s" */
    bool pass;
    char note[1280]; /* what was compared, or the error (the last column: not cut) */
} demo_result;

typedef struct demo_step {
    const char *name;
    /* Fills r (label, times, pass, note). A non-success status is a runtime
     * error: the row fails with accel_last_error() as its note. */
    accel_status (*run)(demo_ctx *c, demo_result *r);
} demo_step;

/* demo_result.ms of a step that times nothing. */
#define DEMO_NOT_TIMED (-1.0)

#endif /* ACCEL_CLI_DEMO_TYPES_H */
