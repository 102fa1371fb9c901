/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* bench_time.c — how `accel bench` times: event pairs around batches of
 * enqueues (median and minimum of repeats after a warm-up), the host clock
 * where the device's events cannot see the work, and the progress bar. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_time.h"
#include "bench_types.h"

double bench_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* One batch of `inner` calls between e0 and e1, in ms per call. */
static accel_status time_batch(accel_queue *q, accel_event *e0, accel_event *e1, unsigned inner,
                               bench_enqueue_fn fn, void *user, double *out_ms)
{
    accel_status st = accel_event_record(e0, q);
    for (unsigned i = 0; i < inner && st == ACCEL_SUCCESS; i++)
        st = fn(q, user);
    if (st == ACCEL_SUCCESS)
        st = accel_event_record(e1, q);
    if (st == ACCEL_SUCCESS)
        st = accel_event_synchronize(e1);
    double ms = 0;
    if (st == ACCEL_SUCCESS)
        st = accel_event_elapsed_ms(e0, e1, &ms);
    *out_ms = ms / inner;
    return st;
}

void bench_spread(const double *v, size_t n, double *med, double *mn, double *mx)
{
    double s[64];
    n = n > 64 ? 64 : n;
    *mn = *mx = n ? v[0] : 0;
    for (size_t i = 0; i < n; i++) {
        s[i] = v[i];
        *mn = v[i] < *mn ? v[i] : *mn;
        *mx = v[i] > *mx ? v[i] : *mx;
    }
    *med = n ? bench_median(s, n) : 0;
}

accel_status bench_time_events(accel_queue *q, accel_event *e0, accel_event *e1, unsigned reps,
                               unsigned inner, bench_enqueue_fn fn, void *user, double *out_median,
                               double *out_min)
{
    double t[64], ms;
    if (reps > 64)
        reps = 64;
    for (unsigned r = 0; r <= reps; r++) {
        accel_status st = time_batch(q, e0, e1, inner, fn, user, &ms);
        if (st != ACCEL_SUCCESS)
            return st;
        if (r > 0) /* run 0 is the warm-up */
            t[r - 1] = ms;
    }
    double med, mn, mx;
    bench_spread(t, reps, &med, &mn, &mx);
    /* A backend whose events keep no clock (the plugin template's
     * event_elapsed_ms gives 0) cannot be timed this way: say so rather
     * than print rates of 0 ms. */
    if (!(mx > 0)) {
        fprintf(stderr,
                "accel bench: every timed run measured %g ms between the device's two "
                "events: its events keep no clock, so its ops cannot be timed\n",
                mx);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    *out_median = med;
    *out_min = mn;
    return ACCEL_SUCCESS;
}

void bench_progress(bench *b, const char *what)
{
    b->step++;
    if (!b->progress)
        return;
    const int width = 30;
    int filled = b->steps ? (int)((double)b->step * width / (double)b->steps) : width;
    if (filled > width)
        filled = width;
    fprintf(stderr, "\r\033[K[");
    for (int i = 0; i < width; i++)
        fputc(i < filled ? '#' : '.', stderr);
    fprintf(stderr, "] %zu/%zu %s %s", b->step, b->steps, b->label, what);
    fflush(stderr);
}

void bench_progress_clear(bench *b)
{
    if (b->progress) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
    }
}

const char *bench_pow2_label(uint64_t n, char *buf, size_t cap)
{
    if (n && (n & (n - 1)) == 0) {
        int e = 0;
        while ((1ull << e) < n)
            e++;
        snprintf(buf, cap, "2^%d", e);
    } else {
        snprintf(buf, cap, "%llu", (unsigned long long)n);
    }
    return buf;
}
