/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* small_op.c — the C side of python/bench/overhead.py: the host time per
 * accel_add of N f32 elements enqueued in a loop (then one finish), and the
 * blocking write/read rate of BYTES from host memory (pinned with --pinned),
 * on one device. Prints "key value" lines for the Python script to parse.
 *   usage: small_op DEVICE N ITERS BYTES [--pinned] */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "accel/accel.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#define CHECK(call)                                                                                \
    do {                                                                                           \
        accel_status st_ = (call);                                                                 \
        if (st_ != ACCEL_SUCCESS) {                                                                \
            fprintf(stderr, "%s: %s\n", #call, accel_last_error());                                \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: small_op DEVICE N ITERS BYTES [--pinned]\n");
        return 2;
    }
    size_t n = strtoull(argv[2], NULL, 10), iters = strtoull(argv[3], NULL, 10);
    size_t bytes = strtoull(argv[4], NULL, 10);
    int pinned = argc > 5 && strcmp(argv[5], "--pinned") == 0;
    accel_runtime *rt;
    accel_device *dev;
    accel_queue *q;
    CHECK(accel_runtime_open(NULL, &rt));
    CHECK(accel_device_get_by_name(rt, argv[1], &dev));
    CHECK(accel_queue_create(dev, &q));
    accel_buffer *x, *y, *z;
    CHECK(accel_buffer_create(dev, n * 4, &x));
    CHECK(accel_buffer_create(dev, n * 4, &y));
    CHECK(accel_buffer_create(dev, n * 4, &z));
    accel_slice sx = accel_slice_of(x, 0, n), sy = accel_slice_of(y, 0, n),
                sz = accel_slice_of(z, 0, n);
    CHECK(accel_fill(q, ACCEL_F32, 1.0, sx));
    CHECK(accel_fill(q, ACCEL_F32, 2.0, sy));
    double best_enqueue = 1e30, best_loop = 1e30;
    for (int rep = 0; rep < 6; ++rep) { /* a warm-up, then the best of 5 */
        CHECK(accel_queue_finish(q));
        double t0 = now();
        for (size_t i = 0; i < iters; ++i)
            CHECK(accel_add(q, ACCEL_F32, sx, sy, sz));
        double t1 = now();
        CHECK(accel_queue_finish(q));
        double t2 = now();
        if (rep > 0) {
            best_enqueue = t1 - t0 < best_enqueue ? t1 - t0 : best_enqueue;
            best_loop = t2 - t0 < best_loop ? t2 - t0 : best_loop;
        }
    }
    printf("enqueue_us %.4f\n", best_enqueue / (double)iters * 1e6);
    printf("loop_us %.4f\n", best_loop / (double)iters * 1e6);
    void *host = NULL;
    if (pinned)
        CHECK(accel_host_alloc(dev, bytes, &host));
    else
        host = malloc(bytes);
    if (!host)
        return 1;
    memset(host, 1, bytes);
    accel_buffer *big;
    CHECK(accel_buffer_create(dev, bytes, &big));
    double best_w = 1e30, best_r = 1e30;
    for (int rep = 0; rep < 4; ++rep) {
        double t0 = now();
        CHECK(accel_queue_write_blocking(q, big, 0, host, bytes));
        double t1 = now();
        CHECK(accel_queue_read_blocking(q, big, 0, host, bytes));
        double t2 = now();
        if (rep > 0) { /* the first touches fresh pages */
            best_w = t1 - t0 < best_w ? t1 - t0 : best_w;
            best_r = t2 - t1 < best_r ? t2 - t1 : best_r;
        }
    }
    printf("write_gbs %.3f\nread_gbs %.3f\n", (double)bytes / best_w / 1e9,
           (double)bytes / best_r / 1e9);
    accel_runtime_close(rt);
    if (!pinned)
        free(host);
    return 0;
}
