/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* bench_time.h — timing, medians and progress of `accel bench`
 * (bench_time.c). */
#ifndef ACCEL_CLI_BENCH_TIME_H
#define ACCEL_CLI_BENCH_TIME_H

#include <stddef.h>
#include <stdint.h>

#include "accel/accel.h"
#include "bench_types.h"

double bench_now_us(void);

/* Median of v (sorts v). */
double bench_median(double *v, size_t n);

/* Median, min and max of v[0, n), n <= 64 (v is left as it is). */
void bench_spread(const double *v, size_t n, double *med, double *mn, double *mx);

typedef accel_status (*bench_enqueue_fn)(accel_queue *q, void *user);

/* Median and minimum milliseconds of one enqueue_fn, each timed run being
 * `inner` calls between two events, after one untimed warm-up batch. */
accel_status bench_time_events(accel_queue *q, accel_event *e0, accel_event *e1, unsigned reps,
                               unsigned inner, bench_enqueue_fn fn, void *user, double *out_median,
                               double *out_min);

/* One progress step: a bar on stderr when b->progress. */
void bench_progress(bench *b, const char *what);
void bench_progress_clear(bench *b);

/* "2^20" for powers of two, else the number. */
const char *bench_pow2_label(uint64_t n, char *buf, size_t cap);

#endif /* ACCEL_CLI_BENCH_TIME_H */
