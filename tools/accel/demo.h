/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* demo.h — the steps of `accel demo` (demo_steps.c) and what they report to the
 * command (demo.c), which runs them, shows progress and prints the table. */
#ifndef ACCEL_CLI_DEMO_H
#define ACCEL_CLI_DEMO_H

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

/* The user-kernel step (demo_kernel.c). */
accel_status demo_step_user_kernel(demo_ctx *c, demo_result *r);

#define DEMO_NOT_TIMED (-1.0)

/* amount per second times scale (bytes and 1e-9 for GB/s, FLOPs and 1e-12 for
 * TFLOP/s) over ms milliseconds; NaN when ms is 0, negative or not finite (a
 * backend whose events report 0 elapsed), which the table shows as n/a
 * (demo_format.c). */
double demo_rate(double amount, double ms, double scale);

/* "0.123 ms", "12.3 ms", "12.3 s"; "-" for DEMO_NOT_TIMED; "n/a" when ms is
 * 0, negative or not finite. */
void demo_format_ms(double ms, char *buf, size_t cap);

/* "12.34 GB/s"; "-" when unit is empty (the step has no rate); "n/a" when
 * rate is not a finite positive number. */
void demo_format_rate(double rate, const char *unit, char *buf, size_t cap);

/* A time ms against a time base_ms of the same work done another way (what),
 * worded so that no one reads a ratio below 1 as a gain: "1.25 times faster
 * than serial (2.2 ms)", "1.19 times slower than serial (1.2 ms)", "as fast
 * as serial (1.2 ms)" within 0.5%; "n/a vs serial" when either is no time. */
void demo_format_speed(double ms, double base_ms, const char *what, char *buf, size_t cap);

extern const demo_step demo_steps[];
extern const size_t demo_step_count;

#endif /* ACCEL_CLI_DEMO_H */
