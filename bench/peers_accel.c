/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* peers_accel.c — accel's side of bench/peers.py's interleaved rounds, in the
 * same process as the peer: peers.py compiles this file into a shared object
 * against the build's libaccel and calls it through ctypes, so that accel's
 * C-level enqueue and a peer's Python call are timed round by round on the
 * same machine state, and accel's GEMM runs on the peer's own arrays.
 *
 *   pa_open(device)         runtime, device and one queue; 0 or an accel status
 *   pa_small_op_us(iters)   host microseconds per accel_add of 1 f32 element,
 *                           `iters` enqueued in a loop (the queue is finished
 *                           before and after; only the loop is timed); < 0 on
 *                           failure
 *   pa_gemm_wrap(a, b, c, n, dtype)
 *                           wrap three n x n device arrays someone else
 *                           allocated (accel_buffer_wrap, no copy) for
 *                           pa_gemm_ms; dtype 0 f32, 1 f64
 *   pa_gemm_ms(reps)        event-timed milliseconds per C = A B on the
 *                           wrapped arrays, `reps` back to back; < 0 on failure
 *   pa_error()              accel_last_error() of the last failure
 *   pa_close()              everything released
 *
 * The caller orders its own work on the wrapped arrays with accel's queue
 * (it synchronizes its device before pa_gemm_ms, which finishes accel's
 * queue before it returns). */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "accel/accel.h"

static accel_runtime *rt;
static accel_device *dev;
static accel_queue *q;
static accel_event *e0, *e1;
static accel_buffer *x, *y, *z;
static accel_gemm_desc gd;
static char err[512];

static int fail(accel_status st)
{
    snprintf(err, sizeof err, "%s: %s", accel_status_name(st), accel_last_error());
    return (int)st;
}

const char *pa_error(void)
{
    return err;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void release_gemm(void)
{
    accel_buffer_release(gd.a);
    accel_buffer_release(gd.b);
    accel_buffer_release(gd.c);
    memset(&gd, 0, sizeof gd);
}

void pa_close(void)
{
    release_gemm();
    accel_buffer_release(x);
    accel_buffer_release(y);
    accel_buffer_release(z);
    accel_event_release(e0);
    accel_event_release(e1);
    accel_queue_release(q);
    accel_runtime_close(rt);
    x = y = z = NULL;
    e0 = e1 = NULL;
    q = NULL;
    dev = NULL;
    rt = NULL;
}

int pa_open(const char *device)
{
    accel_status st = accel_runtime_open(NULL, &rt);
    if (st == ACCEL_SUCCESS)
        st = accel_device_get_by_name(rt, device, &dev);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_create(dev, &q);
    if (st == ACCEL_SUCCESS)
        st = accel_event_create(dev, &e0);
    if (st == ACCEL_SUCCESS)
        st = accel_event_create(dev, &e1);
    accel_buffer **bufs[3] = {&x, &y, &z};
    for (int i = 0; i < 3 && st == ACCEL_SUCCESS; i++)
        st = accel_buffer_create(dev, sizeof(float), bufs[i]);
    if (st == ACCEL_SUCCESS)
        st = accel_fill(q, ACCEL_F32, 1.0, accel_slice_of(x, 0, 1));
    if (st == ACCEL_SUCCESS)
        st = accel_fill(q, ACCEL_F32, 2.0, accel_slice_of(y, 0, 1));
    if (st == ACCEL_SUCCESS)
        st = accel_queue_finish(q);
    if (st != ACCEL_SUCCESS) {
        int rc = fail(st);
        pa_close();
        return rc;
    }
    return 0;
}

double pa_small_op_us(int iters)
{
    if (!q || iters < 1)
        return -1;
    accel_slice sx = accel_slice_of(x, 0, 1), sy = accel_slice_of(y, 0, 1),
                sz = accel_slice_of(z, 0, 1);
    accel_status st = accel_queue_finish(q);
    double t0 = now_s();
    for (int i = 0; i < iters && st == ACCEL_SUCCESS; i++)
        st = accel_add(q, ACCEL_F32, sx, sy, sz);
    double t1 = now_s();
    accel_status fst = accel_queue_finish(q);
    if (st != ACCEL_SUCCESS || fst != ACCEL_SUCCESS)
        return -(double)fail(st != ACCEL_SUCCESS ? st : fst) - 1.0;
    return (t1 - t0) / iters * 1e6;
}

int pa_gemm_wrap(void *a, void *b, void *c, size_t n, int dtype)
{
    if (!q)
        return (int)ACCEL_ERROR_INVALID_HANDLE;
    release_gemm();
    accel_gemm_desc_init(&gd);
    gd.dtype = dtype == 1 ? ACCEL_F64 : ACCEL_F32;
    size_t bytes = n * n * (dtype == 1 ? sizeof(double) : sizeof(float));
    gd.m = gd.n = gd.k = n;
    gd.lda = gd.ldb = gd.ldc = n;
    gd.beta = 0;
    accel_status st = accel_buffer_wrap(dev, a, bytes, NULL, NULL, &gd.a);
    if (st == ACCEL_SUCCESS)
        st = accel_buffer_wrap(dev, b, bytes, NULL, NULL, &gd.b);
    if (st == ACCEL_SUCCESS)
        st = accel_buffer_wrap(dev, c, bytes, NULL, NULL, &gd.c);
    if (st != ACCEL_SUCCESS) {
        int rc = fail(st);
        release_gemm();
        return rc;
    }
    return 0;
}

double pa_gemm_ms(int reps)
{
    if (!q || !gd.a || reps < 1)
        return -1;
    accel_status st = accel_event_record(e0, q);
    for (int i = 0; i < reps && st == ACCEL_SUCCESS; i++)
        st = accel_gemm(q, &gd);
    if (st == ACCEL_SUCCESS)
        st = accel_event_record(e1, q);
    if (st == ACCEL_SUCCESS)
        st = accel_event_synchronize(e1);
    double dms = 0;
    if (st == ACCEL_SUCCESS)
        st = accel_event_elapsed_ms(e0, e1, &dms);
    if (st != ACCEL_SUCCESS)
        return -(double)fail(st) - 1.0;
    return dms / reps;
}
