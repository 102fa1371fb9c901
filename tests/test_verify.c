/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_verify.c — cross-checking: the tolerance model
 * (core/check/tolerance.c), verify mode (core/check/verify.c) catching each bug of the
 * faulty test plugin, the CPU checked against itself raising no alarm over
 * 1000 random ops, replay of a recorded mismatch, the fallback policy
 * (core/check/fallback.c) with its placement report (core/check/report.c), and the
 * load-time self-test (core/runtime/selftest.c). */
#define _XOPEN_SOURCE 700
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "accel/verify.h"
#include "test_util.h"

/* ------------------------------------------------------------ tolerance */

/* An op of the table with its operand count, each operand of n elements. */
static accel_tolerance_op elementwise(accel_op_code op, accel_dtype dt, size_t n)
{
    accel_tolerance_op d;
    accel_tolerance_op_init(&d);
    d.op = op;
    d.dtype = dt;
    d.num_operands = accel_op_info(op)->num_operands;
    for (uint32_t i = 0; i < d.num_operands; i++)
        d.counts[i] = n;
    return d;
}

Test(verify, tolerance_elementwise_ulps_and_specials)
{
    accel_tolerance_op d = elementwise(ACCEL_OP_ADD, ACCEL_F32, 1);
    float one = 1.0f, next1 = nextafterf(1.0f, 2.0f), next2 = nextafterf(next1, 2.0f);
    accel_compare_result r;
    memset(&r, 0, sizeof r);
    r.struct_size = sizeof r;
    tu_ok(accel_tolerance_compare(&d, NULL, &next1, &one, &r)); /* 1 ulp: within */
    cr_assert_eq(r.bad, 0u);
    cr_assert(accel_tolerance_compare(&d, NULL, &next2, &one, &r) == ACCEL_ERROR_MISMATCH,
              "2 ulp passed the 1-ulp rule");
    cr_assert_eq(r.first_bad, 0u);
    cr_assert(r.bound > 0 && r.error > r.bound);
    /* exp: 4 ulp allowed. */
    accel_tolerance_op e = elementwise(ACCEL_OP_EXP, ACCEL_F32, 1);
    tu_ok(accel_tolerance_compare(&e, NULL, &next2, &one, NULL));
    /* NaN meets NaN; Inf meets the same Inf only. */
    float nan = NAN, inf = INFINITY, ninf = -INFINITY;
    tu_ok(accel_tolerance_compare(&d, NULL, &nan, &nan, NULL));
    tu_ok(accel_tolerance_compare(&d, NULL, &inf, &inf, NULL));
    cr_assert(accel_tolerance_compare(&d, NULL, &inf, &ninf, NULL) == ACCEL_ERROR_MISMATCH);
    cr_assert(accel_tolerance_compare(&d, NULL, &one, &nan, NULL) == ACCEL_ERROR_MISMATCH);
    cr_assert(accel_tolerance_compare(&d, NULL, &nan, &one, NULL) == ACCEL_ERROR_MISMATCH);
    cr_assert(accel_tolerance_compare(&d, NULL, &inf, &one, NULL) == ACCEL_ERROR_MISMATCH);
}

Test(verify, tolerance_reports_the_worst_element)
{
    /* exp, 4 ulp: element 1 is 1 ulp off, element 3 is 3 ulp off (the worst
     * within the bound), the rest exact. */
    float ref[5] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f}, got[5];
    memcpy(got, ref, sizeof got);
    got[1] = nextafterf(2.0f, 3.0f);
    got[3] = nextafterf(nextafterf(nextafterf(4.0f, 5.0f), 5.0f), 5.0f);
    accel_tolerance_op d = elementwise(ACCEL_OP_EXP, ACCEL_F32, 5);
    accel_compare_result r;
    memset(&r, 0, sizeof r);
    r.struct_size = sizeof r;
    tu_ok(accel_tolerance_compare(&d, NULL, ref, ref, &r));
    cr_assert_eq(r.worst_index, SIZE_MAX, "identical results have no worst element");
    cr_assert(r.worst_ratio == 0 && r.worst_error == 0 && r.worst_bound == 0);
    tu_ok(accel_tolerance_compare(&d, NULL, got, ref, &r));
    cr_assert_eq(r.worst_index, 3u);
    cr_assert_eq(r.worst_error, (double)got[3] - 4.0);
    cr_assert_eq(r.worst_bound, 4.0 * 0x1p-21, "4 ulp of 4.0f");
    cr_assert_eq(r.worst_ratio, r.worst_error / r.worst_bound);
    /* A bad element is the worst whatever its place; element 0 off by 5
     * ulp is past the bound, element 3 stays within it. */
    got[0] = 1.0f + 5 * 0x1p-23f;
    cr_assert(accel_tolerance_compare(&d, NULL, got, ref, &r) == ACCEL_ERROR_MISMATCH);
    cr_assert_eq(r.worst_index, 0u);
    cr_assert_eq(r.first_bad, 0u);
    cr_assert(r.worst_error > r.worst_bound && r.worst_error / r.worst_bound == 1.25);
    /* NaN against a number: an infinite ratio, reported there. */
    got[0] = 1.0f, got[4] = NAN;
    cr_assert(accel_tolerance_compare(&d, NULL, got, ref, &r) == ACCEL_ERROR_MISMATCH);
    cr_assert_eq(r.worst_index, 4u);
    cr_assert(isinf(r.worst_error));
}

Test(verify, tolerance_sum_and_gemm_bounds)
{
    /* sum of n = 1000 values of magnitude 1: bound 2*n*eps*sum|x| = 2e3*2^-52*1e3. */
    enum { N = 1000 };
    static double x[N];
    for (int i = 0; i < N; i++)
        x[i] = (i % 2) ? 1.0 : -1.0;
    accel_tolerance_op d = elementwise(ACCEL_OP_SUM, ACCEL_F64, N);
    d.counts[1] = 1;
    const void *in[4] = {x, NULL, NULL, NULL};
    double exact = 0.0, close = 1e-10, far = 1e-9;
    double bound = 2.0 * N * 0x1p-52 * N; /* 4.4e-10 */
    cr_assert(close < bound && far > bound);
    tu_ok(accel_tolerance_compare(&d, in, &close, &exact, NULL));
    cr_assert(accel_tolerance_compare(&d, in, &far, &exact, NULL) == ACCEL_ERROR_MISMATCH);

    /* GEMM 1x1, k = 2, ldc = 2: the gap element of C must not change. */
    double A[2] = {1, 1}, B[2] = {1, 1}, C_old[2] = {0, 7}, got[2] = {2, 7}, ref[2] = {2, 7};
    accel_tolerance_op_init(&d);
    d.op = ACCEL_OP_GEMM;
    d.dtype = ACCEL_F64;
    d.num_operands = 3;
    d.m = 1, d.n = 1, d.k = 2, d.lda = 2, d.ldb = 1, d.ldc = 2, d.batch_count = 1;
    d.counts[0] = 2, d.counts[1] = 2, d.counts[2] = 1;
    d.scalars[0] = 1;
    const void *gin[4] = {A, B, C_old, NULL};
    tu_ok(accel_tolerance_compare(&d, gin, got, ref, NULL));
    /* k = 2: bound is 2*(k+2)*eps*2 = 16 eps; 1e-15 is ~4.5 eps, 1e-14 ~45. */
    got[0] = 2 + 1e-15;
    tu_ok(accel_tolerance_compare(&d, gin, got, ref, NULL));
    got[0] = 2 + 1e-14;
    cr_assert(accel_tolerance_compare(&d, gin, got, ref, NULL) == ACCEL_ERROR_MISMATCH);
}

/* A fused and an unfused axpby disagree by a whole rounding error where the
 * sum cancels: alpha*x - fl(alpha*x) is 0 unfused and the exact error fused.
 * Bounded by ulps of the terms, no element alarms; a real error still does. */
Test(verify, tolerance_axpby_bounds_the_terms_not_the_result)
{
    enum { N = 1000 };
    static float x[N], y[N], fused[N], unfused[N];
    uint64_t seed = 0x5eed1234u;
    cr_log_info("seed %llu", (unsigned long long)seed);
    const double alpha = 3.0;
    size_t nonzero = 0;
    for (int i = 0; i < N; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        x[i] = (float)((double)(seed >> 11) * 0x1p-53 * 200.0 - 100.0);
        y[i] = -(float)(alpha * x[i]);                    /* -fl(alpha*x) */
        unfused[i] = (float)(alpha * x[i]) + y[i];        /* fl(fl(a*x) + y) = 0 */
        fused[i] = (float)fma(alpha, x[i], (double)y[i]); /* the rounding error */
        nonzero += fused[i] != 0.0f;
    }
    cr_assert(nonzero > N / 2, "only %zu of %d fused results carry a rounding error", nonzero, N);
    accel_tolerance_op d = elementwise(ACCEL_OP_AXPBY, ACCEL_F32, N);
    d.scalars[0] = alpha;
    d.scalars[1] = 1.0;
    const void *in[4] = {x, y, NULL, NULL};
    accel_compare_result r;
    memset(&r, 0, sizeof r);
    r.struct_size = sizeof r;
    tu_ok(accel_tolerance_compare(&d, in, fused, unfused, &r));
    cr_assert_eq(r.bad, 0u);
    tu_ok(accel_tolerance_compare(&d, in, unfused, fused, &r));
    /* 8 ulp of the terms is past the 4-ulp bound. */
    fused[7] = unfused[7] + 8.0f * 2.0f * fabsf(y[7]) * 0x1p-23f;
    cr_assert(accel_tolerance_compare(&d, in, fused, unfused, &r) == ACCEL_ERROR_MISMATCH);
    cr_assert_eq(r.first_bad, 7u);
    cr_assert_str_eq(r.rule, "4 ulp of |alpha*x| + |beta*y|");
}

/* The descriptor's sizes are checked against the operand counts before
 * anything is read (a GEMM bigger than its operands read out of bounds). */
Test(verify, tolerance_checks_counts_against_shapes)
{
    double buf[64] = {0}, out[64] = {0};
    const void *in[4] = {buf, buf, buf, NULL};
    accel_tolerance_op g;
    accel_tolerance_op_init(&g);
    g.op = ACCEL_OP_GEMM;
    g.dtype = ACCEL_F64;
    g.num_operands = 3;
    g.m = 4, g.n = 4, g.k = 4, g.lda = 4, g.ldb = 4, g.ldc = 4;
    g.counts[0] = g.counts[1] = g.counts[2] = 16;
    g.scalars[0] = 1;
    tu_ok(accel_tolerance_compare(&g, in, out, out, NULL));
    g.counts[0] = 2; /* A is 4 x 4 */
    cr_assert_eq(accel_tolerance_compare(&g, in, out, out, NULL), ACCEL_ERROR_SHAPE_MISMATCH);
    cr_assert(strstr(accel_last_error(), "A needs 16 elements") != NULL, "%s", accel_last_error());
    g.counts[0] = 16;
    g.k = 1u << 20; /* the product reads a million columns of A */
    cr_assert_eq(accel_tolerance_compare(&g, in, out, out, NULL), ACCEL_ERROR_INVALID_ARGUMENT,
                 "lda below k must be refused: %s", accel_last_error());
    g.k = 4, g.lda = 1u << 20;
    cr_assert_eq(accel_tolerance_compare(&g, in, out, out, NULL), ACCEL_ERROR_SHAPE_MISMATCH);
    g.lda = 4, g.batch_count = 2, g.stride_c = 16;
    cr_assert_eq(accel_tolerance_compare(&g, in, out, out, NULL), ACCEL_ERROR_SHAPE_MISMATCH);
    g.batch_count = 1, g.ldc = 0;
    cr_assert_eq(accel_tolerance_compare(&g, in, out, out, NULL), ACCEL_ERROR_INVALID_ARGUMENT);
    g.ldc = 4;
    g.trans_a = ACCEL_TRANS, g.m = 5; /* A stored 4 x 5 */
    cr_assert_eq(accel_tolerance_compare(&g, in, out, out, NULL), ACCEL_ERROR_INVALID_ARGUMENT);

    accel_tolerance_op t;
    accel_tolerance_op_init(&t);
    t.op = ACCEL_OP_TRANSPOSE, t.dtype = ACCEL_F64, t.num_operands = 2;
    t.m = 3, t.n = 5, t.lda = 5, t.ldc = 3, t.counts[0] = 15, t.counts[1] = 15;
    tu_ok(accel_tolerance_compare(&t, in, out, out, NULL));
    t.counts[0] = 14;
    cr_assert_eq(accel_tolerance_compare(&t, in, out, out, NULL), ACCEL_ERROR_SHAPE_MISMATCH);
    t.counts[0] = 15, t.counts[1] = 14;
    cr_assert_eq(accel_tolerance_compare(&t, in, out, out, NULL), ACCEL_ERROR_SHAPE_MISMATCH);

    accel_tolerance_op e = elementwise(ACCEL_OP_ADD, ACCEL_F64, 8);
    e.counts[1] = 4;
    cr_assert_eq(accel_tolerance_compare(&e, in, out, out, NULL), ACCEL_ERROR_SHAPE_MISMATCH);
    e = elementwise(ACCEL_OP_DOT, ACCEL_F64, 8);
    e.counts[2] = 1;
    tu_ok(accel_tolerance_compare(&e, in, out, out, NULL));
    e.counts[1] = 9;
    cr_assert_eq(accel_tolerance_compare(&e, in, out, out, NULL), ACCEL_ERROR_SHAPE_MISMATCH);
    e = elementwise(ACCEL_OP_SUM, ACCEL_F64, 8);
    cr_assert_eq(accel_tolerance_compare(&e, in, out, out, NULL), ACCEL_ERROR_SHAPE_MISMATCH,
                 "a sum writes 1 element, not 8");
    e = elementwise(ACCEL_OP_EXP, ACCEL_F64, 8);
    e.num_operands = 3;
    cr_assert_eq(accel_tolerance_compare(&e, in, out, out, NULL), ACCEL_ERROR_INVALID_ARGUMENT);
    e = elementwise(ACCEL_OP_EXP, ACCEL_F64, 8);
    e.struct_size = 0;
    cr_assert_eq(accel_tolerance_compare(&e, in, out, out, NULL), ACCEL_ERROR_INVALID_ARGUMENT);
    e = elementwise(ACCEL_OP_EXP, ACCEL_F64, 8);
    e.op = (accel_op_code)3;
    cr_assert_eq(accel_tolerance_compare(&e, in, out, out, NULL), ACCEL_ERROR_INVALID_ARGUMENT);
}

/* ------------------------------------------------------------ faulty plugin */

static accel_runtime *open_faulty(const char *fault, const char *extra)
{
    accel_runtime *rt = NULL;
    accel_status s = tu_open_ini(
        tu_fmt("[runtime]\norder = faulty, cpu\nselftest = false\nverify = cpu\n"
               "on_mismatch = fail\n%s"
               "[backend.faulty]\nlibrary = %s\nfault = %s\n[backend.cpu]\nlibrary = %s\n",
               extra ? extra : "", TU_TEST_PLUGIN("faulty"), fault, TU_CPU_PLUGIN),
        &rt, NULL);
    cr_assert(s == ACCEL_SUCCESS, "open with fault = %s: %s", fault, accel_last_error());
    return rt;
}

static accel_device *dev_named(accel_runtime *rt, const char *name)
{
    accel_device *d = NULL;
    tu_ok(accel_device_get_by_name(rt, name, &d));
    return d;
}

static void values(double *v, size_t n, uint64_t salt)
{
    tu_rng r = tu_rng_make(salt);
    for (size_t i = 0; i < n; i++)
        v[i] = tu_round(ACCEL_F32, tu_rng_range(&r, -4, 4));
}

static void expect_caught(accel_runtime *rt, accel_queue *q, const char *what)
{
    accel_status s = accel_queue_finish(q);
    cr_assert(s == ACCEL_ERROR_MISMATCH, "%s: finish gave %s, expected ACCEL_ERROR_MISMATCH (%s)",
              what, accel_status_name(s), accel_last_error());
    cr_assert(strstr(accel_last_error(), "verify") != NULL, "%s: %s", what, accel_last_error());
    accel_verify_stats st;
    st.struct_size = sizeof st;
    tu_ok(accel_verify_stats_get(rt, &st));
    cr_assert(st.mismatches >= 1 && st.checked >= 1, "%s: checked %llu, mismatches %llu", what,
              (unsigned long long)st.checked, (unsigned long long)st.mismatches);
    cr_log_info("%s caught: %s", what, accel_last_error());
}

Test(verify, catches_one_element_off)
{
    accel_runtime *rt = open_faulty("element", NULL);
    accel_queue *q;
    tu_ok(accel_queue_create(dev_named(rt, "faulty"), &q));
    double a[100], b[100];
    values(a, 100, 1), values(b, 100, 2);
    tu_dbuf A = tu_upload(q, ACCEL_F32, a, 100), B = tu_upload(q, ACCEL_F32, b, 100),
            C = tu_upload(q, ACCEL_F32, NULL, 100);
    tu_ok(accel_add(q, ACCEL_F32, tu_slice(&A), tu_slice(&B), tu_slice(&C)));
    expect_caught(rt, q, "one element off");
    cr_assert(strstr(accel_last_error(), "element 50") != NULL, "%s", accel_last_error());
    tu_release(&A), tu_release(&B), tu_release(&C);
    accel_runtime_close(rt);
}

Test(verify, catches_a_write_past_the_range)
{
    accel_runtime *rt = open_faulty("range", NULL);
    accel_queue *q;
    tu_ok(accel_queue_create(dev_named(rt, "faulty"), &q));
    double a[64], b[64];
    values(a, 64, 3), values(b, 64, 4);
    tu_dbuf A = tu_upload(q, ACCEL_F32, a, 64), B = tu_upload(q, ACCEL_F32, b, 64),
            C = tu_upload(q, ACCEL_F32, NULL, 64);
    tu_ok(accel_mul(q, ACCEL_F32, tu_slice(&A), tu_slice(&B), tu_slice(&C)));
    expect_caught(rt, q, "off-by-one range");
    cr_assert(strstr(accel_last_error(), "outside its output range") != NULL, "%s",
              accel_last_error());
    tu_release(&A), tu_release(&B), tu_release(&C);
    accel_runtime_close(rt);
}

Test(verify, catches_a_wrong_transpose)
{
    accel_runtime *rt = open_faulty("transpose", NULL);
    accel_queue *q;
    tu_ok(accel_queue_create(dev_named(rt, "faulty"), &q));
    enum { M = 4, N = 3, K = 5 };
    double a[K * M], b[K * N];
    values(a, K * M, 5), values(b, K * N, 6);
    tu_dbuf A = tu_upload(q, ACCEL_F64, a, K * M), B = tu_upload(q, ACCEL_F64, b, K * N),
            C = tu_upload(q, ACCEL_F64, NULL, M * N);
    accel_gemm_desc g;
    accel_gemm_desc_init(&g);
    g.dtype = ACCEL_F64;
    g.trans_a = ACCEL_TRANS;
    g.m = M, g.n = N, g.k = K;
    g.a = A.buf, g.a_offset = TU_GUARD, g.lda = M;
    g.b = B.buf, g.b_offset = TU_GUARD, g.ldb = N;
    g.c = C.buf, g.c_offset = TU_GUARD, g.ldc = N;
    tu_ok(accel_gemm(q, &g));
    expect_caught(rt, q, "wrong transpose");
    /* The same GEMM without a transpose is right on this plugin. */
    g.trans_a = ACCEL_NO_TRANS;
    g.lda = K;
    tu_ok(accel_gemm(q, &g));
    tu_ok(accel_queue_finish(q));
    tu_release(&A), tu_release(&B), tu_release(&C);
    accel_runtime_close(rt);
}

Test(verify, catches_a_read_of_stale_data)
{
    accel_runtime *rt = open_faulty("stale", NULL);
    accel_queue *q;
    tu_ok(accel_queue_create(dev_named(rt, "faulty"), &q));
    tu_dbuf A = tu_upload(q, ACCEL_F32, NULL, 32), B = tu_upload(q, ACCEL_F32, NULL, 32),
            C = tu_upload(q, ACCEL_F32, NULL, 32);
    /* New inputs written without a synchronizing call: the plugin's cache
     * still holds the sentinels. */
    float a[32], b[32];
    for (int i = 0; i < 32; i++)
        a[i] = (float)i, b[i] = 0.5f * (float)i;
    tu_ok(accel_queue_write(q, A.buf, TU_GUARD * 4, a, sizeof a));
    tu_ok(accel_queue_write(q, B.buf, TU_GUARD * 4, b, sizeof b));
    tu_ok(accel_add(q, ACCEL_F32, tu_slice(&A), tu_slice(&B), tu_slice(&C)));
    expect_caught(rt, q, "stale read");
    tu_release(&A), tu_release(&B), tu_release(&C);
    accel_runtime_close(rt);
}

Test(verify, catches_an_output_left_unwritten)
{
    accel_runtime *rt = open_faulty("unwritten", NULL);
    accel_queue *q;
    tu_ok(accel_queue_create(dev_named(rt, "faulty"), &q));
    double a[16], b[16];
    values(a, 16, 7), values(b, 16, 8);
    tu_dbuf A = tu_upload(q, ACCEL_F32, a, 16), B = tu_upload(q, ACCEL_F32, b, 16),
            C = tu_upload(q, ACCEL_F32, NULL, 16);
    tu_ok(accel_mul(q, ACCEL_F32, tu_slice(&A), tu_slice(&B), tu_slice(&C)));
    expect_caught(rt, q, "unwritten output");
    tu_release(&A), tu_release(&B), tu_release(&C);
    accel_runtime_close(rt);
}

Test(verify, correct_plugin_and_warn_mode_raise_no_error)
{
    /* fault = none: every supported op agrees with the CPU. */
    accel_runtime *rt = open_faulty("none", NULL);
    accel_queue *q;
    tu_ok(accel_queue_create(dev_named(rt, "faulty"), &q));
    double a[300], b[300];
    values(a, 300, 9), values(b, 300, 10);
    tu_dbuf A = tu_upload(q, ACCEL_F64, a, 300), B = tu_upload(q, ACCEL_F64, b, 300),
            C = tu_upload(q, ACCEL_F64, NULL, 300), S = tu_upload(q, ACCEL_F64, NULL, 1);
    tu_ok(accel_add(q, ACCEL_F64, tu_slice(&A), tu_slice(&B), tu_slice(&C)));
    tu_ok(accel_mul(q, ACCEL_F64, tu_slice(&A), tu_slice(&B), tu_slice(&A))); /* in place */
    tu_ok(accel_sum(q, ACCEL_F64, tu_slice(&C), tu_slice(&S)));
    tu_ok(accel_fill(q, ACCEL_F64, 1.25, tu_slice(&B)));
    tu_ok(accel_matmul(q, ACCEL_F64, 10, 10, 3, A.buf, C.buf, B.buf));
    tu_ok(accel_queue_finish(q));
    accel_verify_stats st;
    st.struct_size = sizeof st;
    tu_ok(accel_verify_stats_get(rt, &st));
    cr_assert_eq(st.mismatches, 0u);
    cr_assert_eq(st.checked, 5u, "checked %llu", (unsigned long long)st.checked);
    tu_release(&A), tu_release(&B), tu_release(&C), tu_release(&S);
    accel_runtime_close(rt);

    /* on_mismatch = warn: the bug is logged and counted, the queue succeeds. */
    tu_log_capture();
    rt = open_faulty("element", "on_mismatch = warn\n");
    tu_ok(accel_queue_create(dev_named(rt, "faulty"), &q));
    A = tu_upload(q, ACCEL_F32, a, 8), B = tu_upload(q, ACCEL_F32, b, 8);
    tu_ok(accel_add(q, ACCEL_F32, tu_slice(&A), tu_slice(&B), tu_slice(&B)));
    tu_ok(accel_queue_finish(q));
    cr_assert(tu_log_contains(ACCEL_LOG_WARN, "disagrees with cpu:0"), "%s", tu_log_text());
    tu_ok(accel_verify_stats_get(rt, &st));
    cr_assert_eq(st.mismatches, 1u);
    tu_release(&A), tu_release(&B);
    accel_runtime_close(rt);
}

/* ------------------------------------------------------------ CPU vs itself */

Test(verify, a_thousand_random_cpu_ops_checked_against_the_cpu_raise_no_alarm, .timeout = 240)
{
    accel_runtime *rt = tu_open_default();
    accel_device *cpu = dev_named(rt, "cpu");
    tu_verify_against_cpu(rt);
    accel_queue *q;
    tu_ok(accel_queue_create(cpu, &q));
    enum { NMAX = 300 };
    tu_rng r = tu_rng_make(0x1000);
    accel_dtype dts[2] = {ACCEL_F32, ACCEL_F64};
    tu_dbuf x[2], y[2], z[2], s[2];
    for (int t = 0; t < 2; t++) {
        double v[NMAX];
        for (int i = 0; i < NMAX; i++)
            v[i] = tu_rng_range(&r, 0.1, 3.0) * (i % 3 ? 1 : -1);
        x[t] = tu_upload(q, dts[t], v, NMAX);
        for (int i = 0; i < NMAX; i++)
            v[i] = tu_rng_range(&r, 0.5, 2.0);
        y[t] = tu_upload(q, dts[t], v, NMAX);
        z[t] = tu_upload(q, dts[t], NULL, NMAX);
        s[t] = tu_upload(q, dts[t], NULL, 1);
    }
    static const accel_op_code bin[] = {ACCEL_OP_ADD, ACCEL_OP_SUB, ACCEL_OP_MUL,
                                        ACCEL_OP_DIV, ACCEL_OP_MAX, ACCEL_OP_MIN};
    static const accel_op_code un[] = {ACCEL_OP_NEG, ACCEL_OP_ABS,  ACCEL_OP_SQRT, ACCEL_OP_EXP,
                                       ACCEL_OP_LOG, ACCEL_OP_TANH, ACCEL_OP_RELU};
    unsigned issued = 0;
    for (int i = 0; i < 1000; i++) {
        int t = (int)(tu_rng_next(&r) % 2);
        accel_dtype dt = dts[t];
        size_t n = (size_t)(tu_rng_next(&r) % NMAX) + 1;
        accel_slice X = accel_slice_of(x[t].buf, TU_GUARD, n),
                    Y = accel_slice_of(y[t].buf, TU_GUARD, n),
                    Z = accel_slice_of(z[t].buf, TU_GUARD, n), S = tu_slice(&s[t]);
        unsigned kind = (unsigned)(tu_rng_next(&r) % 10);
        switch (kind) {
        case 0:
        case 1:
        case 2:
            tu_ok(accel_binary(q, bin[tu_rng_next(&r) % 6], dt, X, Y, Z));
            break;
        case 3:
        case 4:
            tu_ok(accel_unary(q, un[tu_rng_next(&r) % 7], dt, X, Z));
            break;
        case 5:
            tu_ok(accel_reduce(q, (accel_op_code)(ACCEL_OP_SUM + tu_rng_next(&r) % 3), dt, X, S));
            break;
        case 6:
            tu_ok(accel_dot(q, dt, X, Y, S));
            break;
        case 7:
            tu_ok(accel_scale(q, dt, -1.5, Y, Z));
            break;
        case 8: {
            size_t m = 1 + tu_rng_next(&r) % 12, k = 1 + tu_rng_next(&r) % 12,
                   nn = 1 + tu_rng_next(&r) % 12;
            tu_ok(accel_matmul(q, dt, m, nn, k, x[t].buf, y[t].buf, z[t].buf));
            break;
        }
        default:
            tu_ok(accel_random_normal(q, dt, 42, (uint64_t)i, 0.0, 1.0, Z));
            break;
        }
        issued++;
        if (i % 100 == 99)
            tu_ok(accel_queue_finish(q));
    }
    tu_ok(accel_queue_finish(q));
    accel_verify_stats st;
    st.struct_size = sizeof st;
    tu_ok(accel_verify_stats_get(rt, &st));
    cr_log_info("seed %llu: %llu ops checked, %llu skipped, %llu mismatches",
                (unsigned long long)tu_seed(), (unsigned long long)st.checked,
                (unsigned long long)st.skipped, (unsigned long long)st.mismatches);
    cr_assert_eq(st.mismatches, 0u);
    cr_assert_eq(st.checked + st.skipped, issued);
    cr_assert_eq(st.checked, issued, "%llu skipped", (unsigned long long)st.skipped);
    for (int t = 0; t < 2; t++)
        tu_release(&x[t]), tu_release(&y[t]), tu_release(&z[t]), tu_release(&s[t]);
    accel_runtime_close(rt);
}

/* ------------------------------------------------------------ replay */

Test(verify, replay_reproduces_a_recorded_mismatch)
{
    const char *dir = tu_tmpdir();
    const char *repro_dir = tu_fmt("%s/repro", dir);
    accel_runtime *rt = open_faulty("element", tu_fmt("verify_repro_dir = %s\n", repro_dir));
    const char *ini = tu_realpath(accel_runtime_config_path(rt));
    accel_queue *q;
    tu_ok(accel_queue_create(dev_named(rt, "faulty"), &q));
    double a[40], b[40];
    values(a, 40, 11), values(b, 40, 12);
    tu_dbuf A = tu_upload(q, ACCEL_F32, a, 40), B = tu_upload(q, ACCEL_F32, b, 40),
            C = tu_upload(q, ACCEL_F32, NULL, 40);
    tu_ok(accel_add(q, ACCEL_F32, tu_slice(&A), tu_slice(&B), tu_slice(&C)));
    cr_assert(accel_queue_finish(q) == ACCEL_ERROR_MISMATCH);
    tu_release(&A), tu_release(&B), tu_release(&C);
    accel_runtime_close(rt);

    DIR *d = opendir(repro_dir);
    cr_assert(d != NULL, "no repro folder %s", repro_dir);
    const char *file = NULL;
    for (struct dirent *e; (e = readdir(d));)
        if (strstr(e->d_name, "accel-repro-"))
            file = tu_fmt("%s/%s", repro_dir, e->d_name);
    closedir(d);
    cr_assert(file, "no repro file in %s", repro_dir);

    /* The faulty plugin's add is still wrong: replay reproduces it bit for
     * bit and exits 1. */
    const char *cmd =
        tu_fmt("'%s/bin/accel' replay '%s' --config '%s' 2>&1", ACCEL_TEST_BUILD_DIR, file, ini);
    FILE *p = popen(cmd, "r");
    cr_assert(p != NULL);
    char out[4096];
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int status = pclose(p);
    cr_log_info("%s\n%s", cmd, out);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 1, "exit %d: %s", status, out);
    cr_assert(strstr(out, "reproduces the recorded one bit for bit"), "%s", out);
    cr_assert(strstr(out, "mismatch reproduced: element 20"), "%s", out);

    /* On the CPU the same op agrees: not reproduced, exit 0. */
    cmd = tu_fmt("'%s/bin/accel' replay '%s' --config '%s' --device cpu 2>&1", ACCEL_TEST_BUILD_DIR,
                 file, ini);
    p = popen(cmd, "r");
    n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    status = pclose(p);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "exit %d: %s", status, out);
    cr_assert(strstr(out, "not reproduced"), "%s", out);
}

/* The one repro file (.npz) in dir. */
static const char *only_repro_file(const char *dir)
{
    DIR *d = opendir(dir);
    cr_assert(d != NULL, "no repro folder %s", dir);
    const char *file = NULL;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (strncmp(e->d_name, "accel-repro-", 12) == 0) {
            file = tu_fmt("%s/%s", dir, e->d_name);
            n++;
        }
    }
    closedir(d);
    cr_assert(n == 1, "%d repro files in %s", n, dir);
    cr_assert(strlen(file) > 4 && strcmp(file + strlen(file) - 4, ".npz") == 0, "%s", file);
    return file;
}

/* `accel replay FILE --config INI EXTRA`: its exit code, its output in out. */
static int replay(const char *file, const char *ini, const char *extra, char *out, size_t cap)
{
    const char *cmd = tu_fmt("'%s/bin/accel' replay '%s' --config '%s' %s 2>&1",
                             ACCEL_TEST_BUILD_DIR, file, ini, extra);
    FILE *p = popen(cmd, "r");
    cr_assert(p != NULL);
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = '\0';
    int status = pclose(p);
    cr_log_info("%s\n%s", cmd, out);
    cr_assert(WIFEXITED(status), "%s: status %d", cmd, status);
    return WEXITSTATUS(status);
}

Test(verify, replay_reproduces_a_write_past_the_range)
{
    /* The faulty mul also writes the element after its output range: the
     * repro file keeps the guard elements, so replay sees the write again. */
    const char *repro_dir = tu_fmt("%s/repro", tu_tmpdir());
    accel_runtime *rt = open_faulty("range", tu_fmt("verify_repro_dir = %s\n", repro_dir));
    const char *ini = tu_realpath(accel_runtime_config_path(rt));
    accel_queue *q;
    tu_ok(accel_queue_create(dev_named(rt, "faulty"), &q));
    double a[64], b[64];
    values(a, 64, 21), values(b, 64, 22);
    tu_dbuf A = tu_upload(q, ACCEL_F32, a, 64), B = tu_upload(q, ACCEL_F32, b, 64),
            C = tu_upload(q, ACCEL_F32, NULL, 64);
    tu_ok(accel_mul(q, ACCEL_F32, tu_slice(&A), tu_slice(&B), tu_slice(&C)));
    cr_assert(accel_queue_finish(q) == ACCEL_ERROR_MISMATCH);
    tu_release(&A), tu_release(&B), tu_release(&C);
    accel_runtime_close(rt);

    const char *file = only_repro_file(repro_dir);
    char out[4096];
    cr_assert_eq(replay(file, ini, "", out, sizeof out), 1, "%s", out);
    /* The output buffer has TU_GUARD elements each side, fewer than verify_guard. */
    cr_assert(strstr(out, tu_fmt("reproduces the recorded one bit for bit (64 elements, %d guard "
                                 "elements)",
                                 2 * TU_GUARD)),
              "%s", out);
    cr_assert(strstr(out, "wrote outside its output range: element 64 of the range changed"), "%s",
              out);
    /* The CPU keeps to its range and agrees. */
    cr_assert_eq(replay(file, ini, "--device cpu", out, sizeof out), 0, "%s", out);
    cr_assert(strstr(out, "mismatch not reproduced"), "%s", out);
}

/* ------------------------------------------------------------ fallback */

Test(verify, unsupported_op_falls_back_to_the_cpu_and_is_reported)
{
    tu_log_capture();
    accel_runtime *rt = NULL;
    tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = mock, cpu\nreport = true\n"
                             "[backend.mock]\nlibrary = %s\n[backend.cpu]\nlibrary = %s\n",
                             TU_TEST_PLUGIN("mock"), TU_CPU_PLUGIN),
                      &rt, NULL));
    accel_queue *q;
    tu_ok(accel_queue_create(dev_named(rt, "mock"), &q));
    double a[50], b[50], c[50];
    values(a, 50, 13), values(b, 50, 14);
    tu_dbuf A = tu_upload(q, ACCEL_F64, a, 50), B = tu_upload(q, ACCEL_F64, b, 50),
            C = tu_upload(q, ACCEL_F64, NULL, 50);
    /* The mock has FILL and COPY only: add and the in-place mul run on cpu:0. */
    tu_ok(accel_add(q, ACCEL_F64, tu_slice(&A), tu_slice(&B), tu_slice(&C)));
    tu_ok(accel_mul(q, ACCEL_F64, tu_slice(&C), tu_slice(&A), tu_slice(&C)));
    tu_ok(accel_add(q, ACCEL_F64, tu_slice(&A), tu_slice(&B), tu_slice(&B)));
    tu_ok(accel_fill(q, ACCEL_F64, 3.0, tu_slice(&A)));
    tu_download(q, &C, c);
    for (int i = 0; i < 50; i++)
        cr_assert(c[i] == (a[i] + b[i]) * a[i], "element %d: %g vs %g", i, c[i],
                  (a[i] + b[i]) * a[i]);
    tu_check_guards(q, &C, "C after fallbacks");
    cr_assert(tu_log_contains(ACCEL_LOG_WARN, "runs on cpu:0 instead of mock:0"), "%s",
              tu_log_text());

    accel_report_row rows[8];
    rows[0].struct_size = sizeof rows[0];
    size_t n = 0;
    tu_ok(accel_report(rt, rows, 8, &n));
    bool seen_add = false, seen_fill = false;
    for (size_t i = 0; i < n && i < 8; i++) {
        if (rows[i].op == ACCEL_OP_ADD) {
            seen_add = true;
            cr_assert_str_eq(rows[i].device, "mock:0");
            cr_assert_eq(rows[i].ops, 2u);
            cr_assert_eq(rows[i].fallbacks, 2u);
            cr_assert_str_eq(rows[i].fallback_device, "cpu:0");
            cr_assert(rows[i].bytes_moved == 2 * 3 * 50 * 8, "%llu",
                      (unsigned long long)rows[i].bytes_moved);
            cr_assert(strstr(rows[i].reason, "does not support") != NULL, "%s", rows[i].reason);
        }
        if (rows[i].op == ACCEL_OP_FILL) {
            seen_fill = true;
            cr_assert_eq(rows[i].fallbacks, 0u);
        }
    }
    cr_assert(seen_add && seen_fill, "%zu rows", n);
    char text[2048];
    size_t len = 0;
    tu_ok(accel_report_format(rt, text, sizeof text, &len));
    cr_assert(strstr(text, "placement report") && strstr(text, "add"), "%s", text);
    cr_assert_eq(len, strlen(text), "the whole text fits: its length");
    /* A short buffer: the text's first cap - 1 characters and a NUL, the
     * whole text's length; cap 0 only measures. */
    char cut[24];
    memset(cut, 'x', sizeof cut);
    size_t cut_len = 0;
    tu_ok(accel_report_format(rt, cut, sizeof cut, &cut_len));
    cr_assert_eq(cut_len, len);
    cr_assert_eq(strlen(cut), sizeof cut - 1);
    cr_assert(strncmp(cut, text, sizeof cut - 1) == 0, "%s", cut);
    size_t need = 0;
    tu_ok(accel_report_format(rt, NULL, 0, &need));
    cr_assert_eq(need, len);
    tu_release(&A), tu_release(&B), tu_release(&C);
    accel_runtime_close(rt);

    /* strict = true forbids the fallback: the op is an error again. */
    tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = mock, cpu\nstrict = true\n"
                             "[backend.mock]\nlibrary = %s\n[backend.cpu]\nlibrary = %s\n",
                             TU_TEST_PLUGIN("mock"), TU_CPU_PLUGIN),
                      &rt, NULL));
    tu_ok(accel_queue_create(dev_named(rt, "mock"), &q));
    A = tu_upload(q, ACCEL_F64, a, 4);
    tu_assert_status(accel_add(q, ACCEL_F64, tu_slice(&A), tu_slice(&A), tu_slice(&A)),
                     ACCEL_ERROR_UNSUPPORTED, "strict add on mock");
    tu_release(&A);
    accel_runtime_close(rt);
}

Test(verify, plugin_template_falls_back_for_what_it_lacks)
{
    accel_runtime *rt = NULL;
    tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = template, cpu\n"
                             "[backend.template]\nlibrary = %s\n[backend.cpu]\nlibrary = %s\n",
                             TU_TEST_PLUGIN("template"), TU_CPU_PLUGIN),
                      &rt, NULL));
    cr_assert(tu_backend_info(rt, "template").loaded, "%s", tu_backend_info(rt, "template").reason);
    accel_queue *q;
    tu_ok(accel_queue_create(dev_named(rt, "template"), &q));
    double a[20], c[20];
    values(a, 20, 15);
    tu_dbuf A = tu_upload(q, ACCEL_F32, a, 20), C = tu_upload(q, ACCEL_F32, NULL, 20);
    tu_ok(accel_add(q, ACCEL_F32, tu_slice(&A), tu_slice(&A), tu_slice(&C))); /* its own */
    tu_ok(accel_exp(q, ACCEL_F32, tu_slice(&C), tu_slice(&C)));               /* on the CPU */
    tu_download(q, &C, c);
    for (int i = 0; i < 20; i++)
        cr_assert(tu_ulp_diff(ACCEL_F32, c[i], expl(2.0L * a[i])) <= 3.0, "element %d", i);
    tu_release(&A), tu_release(&C);
    accel_runtime_close(rt);
}

/* ------------------------------------------------------------ self-test */

Test(verify, faulty_plugin_fails_the_load_time_self_test)
{
    accel_runtime *rt = NULL;
    tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = faulty, cpu\n"
                             "[backend.faulty]\nlibrary = %s\nfault = element\n"
                             "[backend.cpu]\nlibrary = %s\n",
                             TU_TEST_PLUGIN("faulty"), TU_CPU_PLUGIN),
                      &rt, NULL));
    accel_backend_info bi = tu_backend_info(rt, "faulty");
    cr_assert(!bi.loaded);
    cr_assert(bi.status == ACCEL_ERROR_MISMATCH, "%s", accel_status_name(bi.status));
    cr_assert(strstr(bi.reason, "self-test failed: add (f32, 37 elements): element 18"), "%s",
              bi.reason);
    accel_device *d;
    cr_assert(accel_device_get_by_name(rt, "faulty", &d) == ACCEL_ERROR_NOT_FOUND);
    accel_runtime_close(rt);
    /* The transpose bug is caught by the self-test's GEMM with A transposed;
     * fault = none passes. */
    tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = faulty, cpu\n"
                             "[backend.faulty]\nlibrary = %s\nfault = transpose\n"
                             "[backend.cpu]\nlibrary = %s\n",
                             TU_TEST_PLUGIN("faulty"), TU_CPU_PLUGIN),
                      &rt, NULL));
    bi = tu_backend_info(rt, "faulty");
    cr_assert(!bi.loaded && strstr(bi.reason, "GEMM"), "%s", bi.reason);
    accel_runtime_close(rt);
    tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = faulty, cpu\n"
                             "[backend.faulty]\nlibrary = %s\nfault = none\n"
                             "[backend.cpu]\nlibrary = %s\n",
                             TU_TEST_PLUGIN("faulty"), TU_CPU_PLUGIN),
                      &rt, NULL));
    cr_assert(tu_backend_info(rt, "faulty").loaded, "%s", tu_backend_info(rt, "faulty").reason);
    accel_runtime_close(rt);
}

Test(verify, bad_policy_keys_are_config_errors)
{
    accel_runtime *rt = NULL;
    const char *bad[] = {"verify_sample = 1.5\n", "on_mismatch = explode\n", "on_error = retry\n",
                         "verify = tpu\n", "report = maybe\n"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        accel_status s =
            tu_open_ini(tu_fmt("[runtime]\norder = cpu\n%s[backend.cpu]\nlibrary = %s\n", bad[i],
                               TU_CPU_PLUGIN),
                        &rt, NULL);
        cr_assert(s == ACCEL_ERROR_CONFIG && rt == NULL, "%s: %s", bad[i], accel_status_name(s));
        cr_assert(strstr(accel_last_error(), ":3:") != NULL, "%s", accel_last_error());
    }
}
