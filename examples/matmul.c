/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* matmul — the tutorial's last step: a 10000 x 10000 single-precision random
 * matrix product (cp.dot). A and B are filled on the device (Philox), C = A B
 * is timed with events and reported in TFLOP/s (2 N^3 flops). Then a few
 * sampled rows of C are checked against the CPU device: the same random
 * numbers are generated there (bit-identical on every backend), so the CPU
 * computes the sampled rows of A times B on its own. Each device is within
 * 2 (k+2) u (|A||B|)_ij of the exact product (tests/test_ops.c, Higham 2002,
 * 3.5); the two may differ by twice that. A and B are >= 0 here, so
 * (|A||B|)_ij = (A B)_ij.
 *
 *   usage: matmul [--device NAME] [--n N] [--reps 3] [--rows 8]
 *          N defaults to 10000 on a GPU and 1024 on the CPU.
 */
#include "common.h"

#include <math.h>

int main(int argc, char **argv)
{
    int rc = 1;
    accel_runtime *rt = NULL;
    accel_device *dev = NULL, *cpu = NULL;
    accel_queue *q = NULL, *qc = NULL;
    accel_event *t0 = NULL, *t1 = NULL;
    accel_buffer *a = NULL, *b = NULL, *c = NULL, *ca = NULL, *cb = NULL, *cc = NULL;
    float *got = NULL, *ref = NULL;
    const uint64_t seed = 2024;
    ex_opt opts[] = {
        {"n", "N", "the n x n size, 1 to 65536 (default 10000 on a GPU, 1024 on CPU)", NULL, "300"},
        {"reps", "N", "timed repetitions (default 3)", NULL, "2"},
        {"rows", "N", "rows checked against the CPU (default 8)", NULL, "5"},
        {NULL, NULL, NULL, NULL, NULL}};
    ex_parse(argc, argv, "[--device NAME] [--quick] [--n N] [--reps N] [--rows N]", opts, 0);

    CHECK(ex_open(&rt, &dev));
    /* n <= 65536: an n x n f32 matrix is at most 16 GiB. */
    size_t n = ex_opt_count(opts, "n", ex_is_gpu(dev) ? 10000 : 1024, 1, 65536);
    size_t reps = ex_opt_count(opts, "reps", 3, 1, 1000000);
    size_t rows = ex_opt_count(opts, "rows", 8, 1, 65536);
    rows = rows > n ? n : rows;
    size_t nn = n * n, bytes = nn * sizeof(float);
    CHECK(accel_queue_create(dev, &q));
    CHECK(accel_event_create(dev, &t0));
    CHECK(accel_event_create(dev, &t1));
    CHECK(accel_buffer_create(dev, bytes, &a));
    CHECK(accel_buffer_create(dev, bytes, &b));
    CHECK(accel_buffer_create(dev, bytes, &c));
    /* A is stream elements [0, N^2), B is [N^2, 2 N^2). */
    CHECK(accel_random_uniform(q, ACCEL_F32, seed, 0, accel_slice_of(a, 0, nn)));
    CHECK(accel_random_uniform(q, ACCEL_F32, seed, nn, accel_slice_of(b, 0, nn)));
    CHECK(accel_matmul(q, ACCEL_F32, n, n, n, a, b, c)); /* warm-up (cuBLAS start-up) */

    double best = INFINITY, total = 0;
    for (size_t r = 0; r < reps; r++) {
        double ms;
        CHECK(accel_event_record(t0, q));
        CHECK(accel_matmul(q, ACCEL_F32, n, n, n, a, b, c));
        CHECK(accel_event_record(t1, q));
        CHECK(accel_event_synchronize(t1));
        CHECK(accel_event_elapsed_ms(t0, t1, &ms));
        best = ms < best ? ms : best;
        total += ms;
    }
    double flops = 2.0 * n * n * n;
    printf("C = A B, N = %zu, f32: best %.3f ms, mean %.3f ms over %zu runs: %.2f TFLOP/s\n", n,
           best, reps ? total / reps : 0.0, reps, flops / (best * 1e-3) / 1e12);

    /* The check: rows i_r = r (N-1) / (rows-1) of C, recomputed on the CPU. */
    CHECK(accel_device_get_by_name(rt, "cpu", &cpu));
    CHECK(accel_queue_create(cpu, &qc));
    CHECK(accel_buffer_create(cpu, rows * n * sizeof(float), &ca));
    CHECK(accel_buffer_create(cpu, bytes, &cb));
    CHECK(accel_buffer_create(cpu, rows * n * sizeof(float), &cc));
    got = malloc(rows * n * sizeof *got + 1);
    ref = malloc(rows * n * sizeof *ref + 1);
    if (!got || !ref)
        goto done;
    for (size_t r = 0; r < rows; r++) {
        size_t i = rows > 1 ? r * (n - 1) / (rows - 1) : 0;
        CHECK(accel_random_uniform(qc, ACCEL_F32, seed, i * n, accel_slice_of(ca, r * n, n)));
        CHECK(accel_queue_read(q, c, i * n * sizeof(float), got + r * n, n * sizeof(float)));
    }
    CHECK(accel_random_uniform(qc, ACCEL_F32, seed, nn, accel_slice_of(cb, 0, nn)));
    CHECK(accel_matmul(qc, ACCEL_F32, rows, n, n, ca, cb, cc));
    CHECK(accel_queue_read_blocking(qc, cc, 0, ref, rows * n * sizeof(float)));
    CHECK(accel_queue_finish(q));

    double worst = 0; /* largest |got - ref| / tolerance */
    for (size_t e = 0; e < rows * n; e++) {
        double tol = 4.0 * (n + 2) * 0x1p-24 * fabs(ref[e]);
        double ratio = fabs((double)got[e] - ref[e]) / (tol > 0 ? tol : 1e-30);
        worst = ratio > worst || isnan(ratio) ? ratio : worst;
    }
    rc = !(worst <= 1.0);
    printf("check: %zu sampled rows (%zu entries) against cpu: largest error %.3g of the "
           "tolerance 4 (k+2) u (|A||B|)_ij: %s\n",
           rows, rows * n, worst, rc ? "FAIL" : "PASS");

done:
    accel_queue_release(q);
    accel_queue_release(qc);
    accel_event_release(t0);
    accel_event_release(t1);
    accel_buffer_release(a);
    accel_buffer_release(b);
    accel_buffer_release(c);
    accel_buffer_release(ca);
    accel_buffer_release(cb);
    accel_buffer_release(cc);
    accel_runtime_close(rt);
    free(got);
    free(ref);
    return rc;
}
