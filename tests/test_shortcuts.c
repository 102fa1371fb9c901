/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_shortcuts.c — the one-call forms (core/ops/shortcuts.c): a buffer from
 * host data, and matmul on sub-matrices given as (offset, rows, cols, ld)
 * views, against a double-precision loop within accel's GEMM bound
 * 2*(k+2)*eps*(|A||B|)_ij, with C's elements outside the view unchanged. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "test_util.h"

static accel_runtime *rt;
static accel_queue *q;
static accel_device *dev;

static void setup(void)
{
    rt = tu_open_default();
    tu_ok(accel_device_get_by_name(rt, "cpu", &dev));
    tu_ok(accel_queue_create(dev, &q));
}

static void teardown(void)
{
    accel_runtime_close(rt);
}

TestSuite(shortcuts, .init = setup, .fini = teardown);

Test(shortcuts, buffer_from_host_data)
{
    float h[37];
    for (int i = 0; i < 37; ++i)
        h[i] = (float)i * 0.5f - 3.0f;
    accel_buffer *b = NULL;
    tu_ok(accel_buffer_create_from_host(q, h, sizeof h, &b));
    cr_assert_eq(accel_buffer_size(b), sizeof h);
    cr_assert_eq(accel_buffer_device(b), dev);
    float back[37];
    tu_ok(accel_queue_read_blocking(q, b, 0, back, sizeof back));
    cr_assert(memcmp(h, back, sizeof h) == 0);
    accel_buffer_release(b);
    accel_buffer *e = NULL;
    tu_ok(accel_buffer_create_from_host(q, NULL, 0, &e));
    cr_assert_eq(accel_buffer_size(e), 0);
    accel_buffer_release(e);
    tu_assert_status(accel_buffer_create_from_host(q, NULL, 4, &e), ACCEL_ERROR_INVALID_ARGUMENT,
                     "NULL src");
    cr_assert_null(e);
    tu_assert_status(accel_buffer_create_from_host(NULL, h, 4, &e), ACCEL_ERROR_INVALID_HANDLE,
                     "NULL queue");
}

Test(shortcuts, matmul_on_sub_matrices)
{
    /* A: rows 1..5, cols 2..8 of a 7 x 11 matrix; B: rows 0..6, cols 1..4 of
     * 7 x 6; C: rows 2..6, cols 3..6 of 8 x 9 (everything else untouched). */
    enum { AR = 7, AC = 11, BR = 7, BC = 6, CR = 8, CC = 9, M = 5, K = 7, N = 4 };
    for (int d = 0; d < 2; ++d) {
        accel_dtype dt = d ? ACCEL_F64 : ACCEL_F32;
        tu_rng r = tu_rng_make(0x5ab + (uint64_t)d);
        double a[AR * AC], b[BR * BC], c[CR * CC], got[CR * CC];
        for (int i = 0; i < AR * AC; ++i)
            a[i] = tu_round(dt, tu_rng_range(&r, -2, 2));
        for (int i = 0; i < BR * BC; ++i)
            b[i] = tu_round(dt, tu_rng_range(&r, -2, 2));
        for (int i = 0; i < CR * CC; ++i)
            c[i] = TU_SENTINEL;
        tu_dbuf A = tu_upload(q, dt, a, AR * AC), B = tu_upload(q, dt, b, BR * BC),
                Cb = tu_upload(q, dt, c, CR * CC);
        accel_matrix va = accel_matrix_of(A.buf, A.guard + 1 * AC + 2, M, K, AC);
        accel_matrix vb = accel_matrix_of(B.buf, B.guard + 0 * BC + 1, K, N, BC);
        accel_matrix vc = accel_matrix_of(Cb.buf, Cb.guard + 2 * CC + 3, M, N, CC);
        tu_ok(accel_matmul_sub(q, dt, va, vb, vc));
        tu_download(q, &Cb, got);
        tu_check_guards(q, &Cb, "C");
        double eps = 2 * tu_unit_roundoff(dt);
        for (int i = 0; i < CR; ++i)
            for (int j = 0; j < CC; ++j) {
                double g = got[i * CC + j];
                if (i < 2 || i >= 2 + M || j < 3 || j >= 3 + N) {
                    cr_assert(g == TU_SENTINEL, "C[%d][%d] outside the view changed", i, j);
                    continue;
                }
                double exact = 0, mag = 0;
                for (int k = 0; k < K; ++k) {
                    double x = a[(1 + i - 2) * AC + 2 + k], y = b[k * BC + 1 + j - 3];
                    exact += x * y;
                    mag += fabs(x * y);
                }
                cr_assert(fabs(g - exact) <= 2 * (K + 2) * eps * mag, "%s C[%d][%d] = %g, want %g",
                          accel_dtype_name(dt), i, j, g, exact);
            }
        tu_release(&A);
        tu_release(&B);
        tu_release(&Cb);
    }
}

Test(shortcuts, matmul_sub_bad_shapes)
{
    tu_dbuf b = tu_upload(q, ACCEL_F32, NULL, 64);
    accel_matrix a = accel_matrix_of(b.buf, 0, 2, 3, 3), m = accel_matrix_of(b.buf, 0, 4, 2, 2);
    accel_matrix c = accel_matrix_of(b.buf, 40, 2, 2, 2);
    tu_assert_status(accel_matmul_sub(q, ACCEL_F32, a, m, c), ACCEL_ERROR_SHAPE_MISMATCH,
                     "inner dimensions");
    cr_assert(strstr(accel_last_error(), "accel_matmul_sub") != NULL, "%s", accel_last_error());
    accel_matrix bad_ld = accel_matrix_of(b.buf, 0, 3, 2, 1);
    tu_assert_status(accel_matmul_sub(q, ACCEL_F32, a, bad_ld, c), ACCEL_ERROR_INVALID_ARGUMENT,
                     "ld < cols");
    accel_matrix past = accel_matrix_of(b.buf, 67, 2, 2, 2); /* ends at 71 of 70 */
    accel_matrix bk = accel_matrix_of(b.buf, 10, 3, 2, 2);
    tu_assert_status(accel_matmul_sub(q, ACCEL_F32, a, bk, past), ACCEL_ERROR_OUT_OF_RANGE,
                     "C past the buffer");
    tu_release(&b);
}
