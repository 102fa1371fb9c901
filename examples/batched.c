/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* batched — the tutorial's "split large data sets into batches so the GPU does
 * not run out of memory": a data set on the host larger than the device memory
 * the program may use (--mem-cap; every buffer is counted against it and a
 * buffer above it is refused) goes through the device in batches. Each batch
 * gives its sum and sum of squares (accel_sum, accel_dot), accumulated on the
 * host in double. The result must equal the one-shot result — the whole array
 * at once on the CPU device — within the documented bound of sum and dot:
 * each is within 2 n u sum|x_i| of the exact value (u = 2^-24; tests/test_ops.c,
 * Higham 2002, 4.2), so the two differ by at most 4 n u sum|x_i|.
 *
 *   usage: batched [--device NAME] [--n 50000000] [--mem-cap 64M]
 */
#include "common.h"

#include <math.h>

/* Device memory the program has taken, against the cap. */
static size_t in_use, cap;

static accel_status capped_buffer(accel_device *dev, size_t bytes, accel_buffer **out)
{
    if (bytes > cap - in_use) {
        fprintf(stderr, "batched: a buffer of %zu bytes would exceed --mem-cap %zu (%zu in use)\n",
                bytes, cap, in_use);
        return ACCEL_ERROR_OUT_OF_DEVICE_MEMORY;
    }
    accel_status st = accel_buffer_create(dev, bytes, out);
    if (st == ACCEL_SUCCESS)
        in_use += bytes;
    return st;
}

/* sum and sum of squares of x[0..n) on dev in one go; no cap (the reference). */
static accel_status one_shot(accel_device *dev, const float *x, size_t n, double out[2])
{
    accel_queue *q = NULL;
    accel_buffer *b = NULL, *r = NULL;
    float res[2];
    accel_status st = accel_queue_create(dev, &q);
    if (st == ACCEL_SUCCESS)
        st = accel_buffer_create(dev, n * sizeof(float), &b);
    if (st == ACCEL_SUCCESS)
        st = accel_buffer_create(dev, sizeof res, &r);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_write(q, b, 0, x, n * sizeof(float));
    if (st == ACCEL_SUCCESS)
        st = accel_sum(q, ACCEL_F32, accel_slice_of(b, 0, n), accel_slice_of(r, 0, 1));
    if (st == ACCEL_SUCCESS)
        st = accel_dot(q, ACCEL_F32, accel_slice_of(b, 0, n), accel_slice_of(b, 0, n),
                       accel_slice_of(r, 1, 1));
    if (st == ACCEL_SUCCESS)
        st = accel_queue_read_blocking(q, r, 0, res, sizeof res);
    out[0] = res[0];
    out[1] = res[1];
    accel_queue_release(q);
    accel_buffer_release(b);
    accel_buffer_release(r);
    return st;
}

int main(int argc, char **argv)
{
    int rc = 1;
    ex_opt opts[] = {{"n", "N", "elements of the data set (default 50000000)", NULL},
                     {"mem-cap", "BYTES", "device memory the program may use (default 64M)", NULL},
                     {NULL, NULL, NULL, NULL}};
    ex_parse(argc, argv, "[--device NAME] [--n N] [--mem-cap BYTES]", opts, 0);
    size_t n = ex_opt_size(opts, "n", 50000000);
    cap = ex_opt_size(opts, "mem-cap", 64u << 20);
    accel_runtime *rt = NULL;
    accel_device *dev = NULL, *cpu = NULL;
    accel_queue *q = NULL;
    accel_buffer *batch = NULL, *res = NULL;
    float *x = malloc(n * sizeof *x + 1);
    if (!x) {
        fprintf(stderr, "batched: out of host memory for %zu floats\n", n);
        return 1;
    }
    /* The data set: made on the host, as data read from a file would be. */
    double abs_sum = 0, sq_sum = 0;
    for (size_t i = 0; i < n; i++) {
        x[i] = (float)sin(0.001 * (double)i) + 0.25f;
        abs_sum += fabs(x[i]);
        sq_sum += (double)x[i] * x[i];
    }

    CHECK(ex_open(&rt, &dev));
    CHECK(accel_device_get_by_name(rt, "cpu", &cpu));
    CHECK(accel_queue_create(dev, &q));

    /* The largest batch that fits the cap next to the 2-float result. */
    CHECK(capped_buffer(dev, 2 * sizeof(float), &res));
    size_t per_batch = (cap - in_use) / sizeof(float);
    if (per_batch == 0) {
        fprintf(stderr, "batched: --mem-cap %zu leaves no room for a batch\n", cap);
        goto done;
    }
    if (per_batch > n)
        per_batch = n;
    CHECK(capped_buffer(dev, (per_batch ? per_batch : 1) * sizeof(float), &batch));
    size_t batches = n ? (n + per_batch - 1) / per_batch : 0;
    printf("data set %zu floats (%.1f MiB), memory cap %.1f MiB: %zu batches of <= %zu\n", n,
           n * 4.0 / 1048576, cap / 1048576.0, batches, per_batch);

    double t0 = ex_now_ms(), sum = 0, sumsq = 0;
    for (size_t off = 0; off < n; off += per_batch) {
        size_t m = n - off < per_batch ? n - off : per_batch;
        float r[2];
        CHECK(accel_queue_write(q, batch, 0, x + off, m * sizeof(float)));
        CHECK(accel_sum(q, ACCEL_F32, accel_slice_of(batch, 0, m), accel_slice_of(res, 0, 1)));
        CHECK(accel_dot(q, ACCEL_F32, accel_slice_of(batch, 0, m), accel_slice_of(batch, 0, m),
                        accel_slice_of(res, 1, 1)));
        /* Blocking: the next batch overwrites the buffer (overlap.c shows how
         * to keep copies and compute in flight together). */
        CHECK(accel_queue_read_blocking(q, res, 0, r, sizeof r));
        sum += r[0];
        sumsq += r[1];
    }
    double ms = ex_now_ms() - t0;
    printf("batched on %s: sum %.9g, sum of squares %.9g in %.1f ms (%.2f GB/s incl. copies)\n",
           accel_device_name(dev), sum, sumsq, ms, ex_gbps(n * 4.0, ms));

    double ref[2];
    CHECK(one_shot(cpu, x, n, ref));
    double tol_sum = 4.0 * n * 0x1p-24 * abs_sum, tol_sq = 4.0 * n * 0x1p-24 * sq_sum;
    int ok = fabs(sum - ref[0]) <= tol_sum && fabs(sumsq - ref[1]) <= tol_sq;
    printf("one shot on cpu: sum %.9g, sum of squares %.9g\n", ref[0], ref[1]);
    printf("check: |diff| %.3g (bound %.3g), %.3g (bound %.3g): %s\n", fabs(sum - ref[0]), tol_sum,
           fabs(sumsq - ref[1]), tol_sq, ok ? "PASS" : "FAIL");
    rc = !ok;

done:
    accel_queue_release(q);
    accel_buffer_release(batch);
    accel_buffer_release(res);
    accel_runtime_close(rt);
    free(x);
    return rc;
}
