/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* small_op.c — the C side of python/bench/overhead.py, built by it as a
 * shared library and called through ctypes in the same process, on the same
 * runtime, queue and buffers as the Python side (one ctypes call per loop, so
 * ctypes costs nothing per op here):
 *   - small_op_add_loop: ITERS accel_add of N elements in a loop, then one
 *     finish: the host seconds of the loop (enqueue) and of loop + finish;
 *   - small_op_write / small_op_read: one blocking write / read of BYTES
 *     between host memory and a buffer, in seconds.
 * Each returns the first failing status (the message is accel_last_error). */
#define _POSIX_C_SOURCE 199309L
#include <time.h>

#include "accel/accel.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/** ITERS times out = a + b (dtype, each slice N elements), enqueued on q in a
 *  loop, then accel_queue_finish. *enqueue_s: seconds of the loop alone;
 *  *total_s: the loop and the finish. Returns the first failing status. */
accel_status small_op_add_loop(accel_queue *q, accel_dtype dtype, accel_slice a, accel_slice b,
                               accel_slice out, size_t iters, double *enqueue_s, double *total_s)
{
    accel_status st = accel_queue_finish(q);
    if (st != ACCEL_SUCCESS)
        return st;
    double t0 = now();
    for (size_t i = 0; i < iters; ++i) {
        st = accel_add(q, dtype, a, b, out);
        if (st != ACCEL_SUCCESS)
            return st;
    }
    double t1 = now();
    st = accel_queue_finish(q);
    double t2 = now();
    *enqueue_s = t1 - t0;
    *total_s = t2 - t0;
    return st;
}

/** One accel_queue_write_blocking of BYTES from host into buf at byte 0;
 *  *seconds: its host time. */
accel_status small_op_write(accel_queue *q, accel_buffer *buf, const void *host, size_t bytes,
                            double *seconds)
{
    double t0 = now();
    accel_status st = accel_queue_write_blocking(q, buf, 0, host, bytes);
    *seconds = now() - t0;
    return st;
}

/** One accel_queue_read_blocking of BYTES from buf at byte 0 into host;
 *  *seconds: its host time. */
accel_status small_op_read(accel_queue *q, accel_buffer *buf, void *host, size_t bytes,
                           double *seconds)
{
    double t0 = now();
    accel_status st = accel_queue_read_blocking(q, buf, 0, host, bytes);
    *seconds = now() - t0;
    return st;
}
