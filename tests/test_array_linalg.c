/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_array_linalg.c — accel_array_matmul: broadcast batch axes (x1's
 * and x2's each broadcasting), a transposed operand (matrix_transpose
 * view), f64 and f32 and f16, against a plain double loop within GEMM's
 * bound (Higham 3.5: (k+2)*eps*sum|a||b| per element, times 2); every device
 * of the runtime; bad input with out untouched. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "test_array_common.h"

/* x1 (B1, 1, m, k) @ x2 (1, B2, k, n) -> (B1, B2, m, n); x2 stored as
 * (1, B2, n, k) and viewed transposed when t2. */
static void one_case(env *e, accel_dtype dt, bool t2)
{
    enum { B1 = 2, B2 = 3, M = 5, K = 7, N = 4 };
    size_t es = accel_dtype_size(dt);
    double a[B1 * M * K], b[B2 * K * N], want[B1 * B2 * M * N], mag[B1 * B2 * M * N];
    unsigned char ha[sizeof a], hb[sizeof b], got[sizeof want];
    tu_rng r = tu_rng_make(50);
    for (size_t i = 0; i < B1 * M * K; i++) {
        a[i] = round_to(dt, tu_rng_range(&r, -2, 2));
        put(ha, dt, i, (val){.f = a[i]});
    }
    for (size_t i = 0; i < B2 * K * N; i++) {
        b[i] = round_to(dt, tu_rng_range(&r, -2, 2));
        put(hb, dt, i, (val){.f = b[i]}); /* logical (p, kk, j) at i, or (p, j, kk) when t2 */
    }
    for (int p1 = 0; p1 < B1; p1++)
        for (int p2 = 0; p2 < B2; p2++)
            for (int i = 0; i < M; i++)
                for (int j = 0; j < N; j++) {
                    double s = 0, m = 0;
                    for (int kk = 0; kk < K; kk++) {
                        double bv = t2 ? b[(p2 * N + j) * K + kk] : b[(p2 * K + kk) * N + j];
                        s += a[(p1 * M + i) * K + kk] * bv;
                        m += fabs(a[(p1 * M + i) * K + kk] * bv);
                    }
                    size_t o = (size_t)((p1 * B2 + p2) * M + i) * N + (size_t)j;
                    want[o] = s, mag[o] = m;
                }
    accel_buffer *ba = upload(e, ha, B1 * M * K * es), *bb = upload(e, hb, B2 * K * N * es),
                 *bo = upload(e, NULL, B1 * B2 * M * N * es);
    accel_array x1, x2, out;
    const int64_t sa[] = {B1, 1, M, K}, sb[] = {1, B2, K, N}, sbt[] = {1, B2, N, K},
                  so[] = {B1, B2, M, N};
    tu_ok(accel_array_init(&x1, ba, dt, 4, sa));
    if (t2) {
        tu_ok(accel_array_init(&x2, bb, dt, 4, sbt));
        tu_ok(accel_array_matrix_transpose(&x2, &x2));
    } else {
        tu_ok(accel_array_init(&x2, bb, dt, 4, sb));
    }
    tu_ok(accel_array_init(&out, bo, dt, 4, so));
    tu_ok(accel_array_matmul(e->q, &x1, &x2, &out));
    tu_ok(accel_queue_read_blocking(e->q, bo, 0, got, B1 * B2 * M * N * es));
    double eps = dt == ACCEL_F64 ? 0x1p-52 : dt == ACCEL_F32 ? 0x1p-23 : 0x1p-10;
    for (size_t o = 0; o < (size_t)(B1 * B2 * M * N); o++) {
        double g = get(got, dt, o).f;
        double bound = 2.0 * (K + 2) * 0x1p-23 * mag[o] + eps * fabs(want[o]);
        if (dt == ACCEL_F64)
            bound = 2.0 * (K + 2) * eps * mag[o];
        cr_assert(fabs(g - want[o]) <= bound, "%s%s element %zu: %.17g want %.17g (bound %.3g)",
                  accel_dtype_name(dt), t2 ? " transposed" : "", o, g, want[o], bound);
    }
    accel_buffer_release(ba), accel_buffer_release(bb), accel_buffer_release(bo);
}

static void every_case(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    static const accel_dtype dts[] = {ACCEL_F64, ACCEL_F32, ACCEL_F16};
    for (size_t d = 0; d < 3; d++) {
        if (!tu_device_has_dtype(dev, dts[d]))
            continue;
        one_case(&e, dts[d], false);
        one_case(&e, dts[d], true);
    }
}

Test(array_linalg, matmul_broadcast_batches_and_transposed_operands)
{
    accel_runtime *rt = array_runtime(NULL, NULL);
    tu_for_each_device(rt, every_case, NULL);
    accel_runtime_close(rt);
}

Test(array_linalg, matmul_bad_input)
{
    accel_runtime *rt = array_runtime(NULL, NULL);
    accel_device *dev;
    accel_queue *q;
    tu_ok(accel_device_get_by_name(rt, "cpu:0", &dev));
    tu_ok(accel_queue_create(dev, &q));
    env e = {dev, q};
    double host[64];
    for (int i = 0; i < 64; i++)
        host[i] = 3.0;
    accel_buffer *ba = upload(&e, host, sizeof host), *bo = upload(&e, host, sizeof host);
    accel_array a, b, o;
    const int64_t s23[] = {2, 3}, s34[] = {3, 4}, s24[] = {2, 4}, s44[] = {4, 4}, s3[] = {3};
    tu_ok(accel_array_init(&a, ba, ACCEL_F64, 2, s23));
    tu_ok(accel_array_init(&b, ba, ACCEL_F64, 2, s34));
    b.offset = 8 * 8;
    tu_ok(accel_array_init(&o, bo, ACCEL_F64, 2, s44));
    tu_assert_status(accel_array_matmul(q, &a, &b, &o), ACCEL_ERROR_SHAPE_MISMATCH, "out 4x4");
    tu_ok(accel_array_init(&o, bo, ACCEL_F64, 2, s24));
    accel_array bad = b;
    tu_ok(accel_array_init(&bad, ba, ACCEL_F64, 2, s23));
    tu_assert_status(accel_array_matmul(q, &a, &bad, &o), ACCEL_ERROR_SHAPE_MISMATCH, "k 3 vs 2");
    accel_array v;
    tu_ok(accel_array_init(&v, ba, ACCEL_F64, 1, s3));
    tu_assert_status(accel_array_matmul(q, &a, &v, &o), ACCEL_ERROR_INVALID_ARGUMENT, "1-D");
    accel_array bi = b;
    bi.dtype = ACCEL_F32;
    tu_assert_status(accel_array_matmul(q, &a, &bi, &o), ACCEL_ERROR_DTYPE_MISMATCH, "mixed");
    /* a broadcast row (strides (0, 1)): no leading dimension for GEMM; the
     * message names x1 and why (it said x1 lacked a unit stride) */
    accel_array brow = a;
    brow.strides[0] = 0;
    tu_assert_status(accel_array_matmul(q, &brow, &b, &o), ACCEL_ERROR_INVALID_ARGUMENT, "bcast");
    cr_assert(strstr(accel_last_error(), "x1 is not a GEMM operand") &&
                  strstr(accel_last_error(), "leading dimension"),
              "%s", accel_last_error());
    /* out over the inputs of another batch: a (2, 2, 2) x1 at doubles
     * [0, 8) and out at [4, 12) of one buffer (batch 0's output is batch 1's
     * input; each batch's own GEMM saw no overlap, and it computed wrong
     * values), and out over x2 */
    accel_array x3, i2, o3;
    const int64_t s222[] = {2, 2, 2};
    tu_ok(accel_array_init(&x3, ba, ACCEL_F64, 3, s222));
    tu_ok(accel_array_init(&i2, bo, ACCEL_F64, 3, s222));
    o3 = x3;
    o3.offset = 4 * 8;
    tu_assert_status(accel_array_matmul(q, &x3, &i2, &o3), ACCEL_ERROR_INVALID_ARGUMENT, "batches");
    cr_assert(strstr(accel_last_error(), "out overlaps x1"), "%s", accel_last_error());
    o3 = i2;
    o3.offset = 2 * 8;
    tu_assert_status(accel_array_matmul(q, &x3, &i2, &o3), ACCEL_ERROR_INVALID_ARGUMENT, "x2");
    accel_array ai, bi2, oi;
    tu_ok(accel_array_init(&ai, ba, ACCEL_I32, 2, s23));
    tu_ok(accel_array_init(&bi2, ba, ACCEL_I32, 2, s34));
    tu_ok(accel_array_init(&oi, bo, ACCEL_I32, 2, s24));
    tu_assert_status(accel_array_matmul(q, &ai, &bi2, &oi), ACCEL_ERROR_DTYPE_MISMATCH, "int32");
    accel_array ot; /* out transposed: not contiguous */
    const int64_t s42[] = {4, 2};
    tu_ok(accel_array_init(&ot, bo, ACCEL_F64, 2, s42));
    tu_ok(accel_array_matrix_transpose(&ot, &ot));
    tu_assert_status(accel_array_matmul(q, &a, &b, &ot), ACCEL_ERROR_INVALID_ARGUMENT,
                     "out strided");
    accel_array as = a; /* a matrix without a unit stride */
    as.strides[1] = 2, as.strides[0] = 6;
    tu_assert_status(accel_array_matmul(q, &as, &b, &o), ACCEL_ERROR_INVALID_ARGUMENT,
                     "no unit stride");
    accel_array ov = o; /* out over x1 */
    ov.buffer = ba;
    tu_assert_status(accel_array_matmul(q, &a, &b, &ov), ACCEL_ERROR_INVALID_ARGUMENT, "overlap");
    double back[64];
    tu_ok(accel_queue_read_blocking(q, bo, 0, back, sizeof back));
    cr_assert(memcmp(back, host, sizeof back) == 0, "out changed by refused calls");
    tu_ok(accel_queue_read_blocking(q, ba, 0, back, sizeof back));
    cr_assert(memcmp(back, host, sizeof back) == 0, "x changed by refused calls");
    accel_buffer_release(ba), accel_buffer_release(bo);
    accel_queue_release(q);
    accel_runtime_close(rt);
}
