/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_fuse.c — fusion of a graph's elementwise runs at instantiate
 * (core/graphs/fuse.c) and verify mode's check of fused kernels against the
 * unfused op list (core/kernels/fused_check.c): a chain becomes one kernel and
 * matches a plain double loop; dead temporaries are elided, live ones
 * written; a dtype change, a reduction or the option end or stop fusion;
 * rebinding scalars and buffers of fused ops; 1000 random chains checked by
 * verify with no false alarm; a planted fault caught and named; the trace
 * names each fused launch. */
#define _XOPEN_SOURCE 700
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/verify.h"
#include "test_util.h"

TestSuite(fuse, .timeout = 300);

static accel_device *cpu_of(accel_runtime *rt)
{
    accel_device *d;
    tu_ok(accel_device_get_by_name(rt, "cpu", &d));
    return d;
}

static accel_slice whole(accel_buffer *b, size_t n)
{
    accel_slice s = {b, 0, n};
    return s;
}

static const char *fused_of(accel_graph *g, size_t node)
{
    accel_graph_node_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    tu_ok(accel_graph_node_info_get(g, node, &info));
    return info.fused;
}

static void upload(accel_queue *q, accel_buffer *b, const double *v, size_t n, accel_dtype dt)
{
    if (dt == ACCEL_F64) { /* blocking: v may be gone once we return */
        tu_ok(accel_queue_write(q, b, 0, v, n * 8));
        tu_ok(accel_queue_finish(q));
        return;
    }
    float *f = malloc(n * 4);
    cr_assert(f);
    for (size_t i = 0; i < n; i++)
        f[i] = (float)v[i];
    tu_ok(accel_queue_write(q, b, 0, f, n * 4));
    tu_ok(accel_queue_finish(q));
    free(f);
}

static void download(accel_queue *q, accel_buffer *b, double *v, size_t n, accel_dtype dt)
{
    if (dt == ACCEL_F64) {
        tu_ok(accel_queue_read(q, b, 0, v, n * 8));
        tu_ok(accel_queue_finish(q));
        return;
    }
    float *f = malloc(n * 4);
    cr_assert(f);
    tu_ok(accel_queue_read(q, b, 0, f, n * 4));
    tu_ok(accel_queue_finish(q));
    for (size_t i = 0; i < n; i++)
        v[i] = f[i];
    free(f);
}

#define N 1000

/* out = exp(a * b + c) * 0.5 with two temporaries; t1 also feeds a SUM when
 * `keep` (then it is live and must be written). */
static accel_graph *record_chain(accel_queue *q, accel_device *dev, accel_buffer *a,
                                 accel_buffer *b, accel_buffer *c, accel_buffer *out,
                                 accel_buffer *sum, accel_buffer **t1_out)
{
    accel_buffer *t1, *t2;
    tu_ok(accel_queue_begin_capture(q));
    tu_ok(accel_buffer_create(dev, N * 4, &t1));
    tu_ok(accel_buffer_create(dev, N * 4, &t2));
    tu_ok(accel_mul(q, ACCEL_F32, whole(a, N), whole(b, N), whole(t1, N)));
    tu_ok(accel_add(q, ACCEL_F32, whole(t1, N), whole(c, N), whole(t2, N)));
    tu_ok(accel_exp(q, ACCEL_F32, whole(t2, N), whole(t2, N)));
    tu_ok(accel_scale(q, ACCEL_F32, 0.5, whole(t2, N), whole(out, N)));
    if (sum)
        tu_ok(accel_sum(q, ACCEL_F32, whole(t1, N), whole(sum, 1)));
    accel_graph *g;
    tu_ok(accel_queue_end_capture(q, &g));
    if (t1_out)
        *t1_out = t1;
    return g;
}

static void inputs(accel_queue *q, accel_buffer *a, accel_buffer *b, accel_buffer *c, double *ha,
                   double *hb, double *hc)
{
    tu_rng r = tu_rng_make(7);
    for (size_t i = 0; i < N; i++) {
        ha[i] = tu_rng_range(&r, -1.0, 1.0);
        hb[i] = tu_rng_range(&r, -1.0, 1.0);
        hc[i] = tu_rng_range(&r, -1.0, 1.0);
    }
    upload(q, a, ha, N, ACCEL_F32);
    upload(q, b, hb, N, ACCEL_F32);
    upload(q, c, hc, N, ACCEL_F32);
}

/* Relative 1e-5 (f32: a few ulps through four ops). */
static void expect_chain(const double *got, const double *ha, const double *hb, const double *hc,
                         double scale)
{
    for (size_t i = 0; i < N; i++) {
        double ref = exp(ha[i] * hb[i] + hc[i]) * scale;
        cr_assert(fabs(got[i] - ref) <= 1e-5 * fabs(ref), "element %zu: got %.9g, expected %.9g", i,
                  got[i], ref);
    }
}

Test(fuse, a_chain_becomes_one_kernel_and_matches_a_double_loop)
{
    accel_runtime *rt = tu_open_default();
    accel_device *dev = cpu_of(rt);
    accel_queue *q;
    tu_ok(accel_queue_create(dev, &q));
    accel_buffer *a, *b, *c, *out, *out2;
    tu_ok(accel_buffer_create(dev, N * 4, &a));
    tu_ok(accel_buffer_create(dev, N * 4, &b));
    tu_ok(accel_buffer_create(dev, N * 4, &c));
    tu_ok(accel_buffer_create(dev, N * 4, &out));
    tu_ok(accel_buffer_create(dev, N * 4, &out2));
    double *ha = malloc(N * 8), *hb = malloc(N * 8), *hc = malloc(N * 8), *got = malloc(N * 8),
           *unf = malloc(N * 8);
    cr_assert(ha && hb && hc && got && unf);
    inputs(q, a, b, c, ha, hb, hc);
    accel_graph *g = record_chain(q, dev, a, b, c, out, NULL, NULL);
    cr_assert_eq(accel_graph_node_count(g), 4);
    cr_assert_eq(accel_graph_temporary_count(g), 2);
    tu_ok(accel_graph_instantiate(g, NULL));
    const char *k = fused_of(g, 0);
    cr_assert(k && strcmp(k, "fused_mul_add_exp_scale") == 0, "fused into %s", k ? k : "(none)");
    for (size_t i = 1; i < 4; i++)
        cr_assert(fused_of(g, i) == k, "node %zu is in another kernel", i);
    tu_ok(accel_graph_launch(g, q));
    download(q, out, got, N, ACCEL_F32);
    expect_chain(got, ha, hb, hc, 0.5);

    /* The same graph unfused: each op as recorded; agrees with the fused
     * result within the ops' tolerance. */
    accel_graph_options opt;
    accel_graph_options_init(&opt);
    opt.flags = ACCEL_GRAPH_NO_FUSION;
    tu_ok(accel_graph_instantiate(g, &opt));
    for (size_t i = 0; i < 4; i++)
        cr_assert_null(fused_of(g, i));
    tu_ok(accel_graph_set_buffer(g, out, out2));
    tu_ok(accel_graph_launch(g, q));
    download(q, out2, unf, N, ACCEL_F32);
    for (size_t i = 0; i < N; i++)
        cr_assert(fabs(unf[i] - got[i]) <= 8 * tu_ulp(ACCEL_F32, got[i]),
                  "element %zu: unfused %.9g fused %.9g", i, unf[i], got[i]);
    accel_graph_release(g);
    accel_buffer_release(a);
    accel_buffer_release(b);
    accel_buffer_release(c);
    accel_buffer_release(out);
    accel_buffer_release(out2);
    accel_queue_release(q);
    accel_runtime_close(rt);
    free(ha), free(hb), free(hc), free(got), free(unf);
}

Test(fuse, a_temporary_used_outside_the_run_is_written)
{
    accel_runtime *rt = tu_open_default();
    accel_device *dev = cpu_of(rt);
    accel_queue *q;
    tu_ok(accel_queue_create(dev, &q));
    accel_buffer *a, *b, *c, *out, *sum;
    tu_ok(accel_buffer_create(dev, N * 4, &a));
    tu_ok(accel_buffer_create(dev, N * 4, &b));
    tu_ok(accel_buffer_create(dev, N * 4, &c));
    tu_ok(accel_buffer_create(dev, N * 4, &out));
    tu_ok(accel_buffer_create(dev, 4, &sum));
    double *ha = malloc(N * 8), *hb = malloc(N * 8), *hc = malloc(N * 8), *got = malloc(N * 8);
    cr_assert(ha && hb && hc && got);
    inputs(q, a, b, c, ha, hb, hc);
    accel_graph *g = record_chain(q, dev, a, b, c, out, sum, NULL);
    tu_ok(accel_graph_instantiate(g, NULL));
    cr_assert_not_null(fused_of(g, 0));
    cr_assert_null(fused_of(g, 4), "the SUM is not elementwise");
    /* Poison the temporaries' old contents by a first launch, then launch
     * again: the SUM must see this launch's a*b. */
    tu_ok(accel_graph_launch(g, q));
    tu_ok(accel_graph_launch(g, q));
    double s;
    download(q, sum, &s, 1, ACCEL_F32);
    double ref = 0, mag = 0;
    for (size_t i = 0; i < N; i++) {
        ref += ha[i] * hb[i];
        mag += fabs(ha[i] * hb[i]);
    }
    cr_assert(fabs(s - ref) <= 1e-5 * mag, "sum %.9g, expected %.9g", s, ref);
    download(q, out, got, N, ACCEL_F32);
    expect_chain(got, ha, hb, hc, 0.5);
    accel_graph_release(g);
    accel_runtime_close(rt);
    free(ha), free(hb), free(hc), free(got);
}

Test(fuse, a_dtype_change_ends_the_run_and_single_ops_stay_unfused)
{
    accel_runtime *rt = tu_open_default();
    accel_device *dev = cpu_of(rt);
    accel_queue *q;
    tu_ok(accel_queue_create(dev, &q));
    accel_buffer *x4, *y4, *x8, *y8;
    tu_ok(accel_buffer_create(dev, N * 4, &x4));
    tu_ok(accel_buffer_create(dev, N * 4, &y4));
    tu_ok(accel_buffer_create(dev, N * 8, &x8));
    tu_ok(accel_buffer_create(dev, N * 8, &y8));
    tu_ok(accel_queue_begin_capture(q));
    tu_ok(accel_fill(q, ACCEL_F32, 1.5, whole(x4, N)));          /* 0: f32 run */
    tu_ok(accel_sqrt(q, ACCEL_F32, whole(x4, N), whole(y4, N))); /* 1 */
    tu_ok(accel_fill(q, ACCEL_F64, 2.0, whole(x8, N)));          /* 2: f64 run */
    tu_ok(accel_neg(q, ACCEL_F64, whole(x8, N), whole(y8, N)));  /* 3 */
    tu_ok(accel_neg(q, ACCEL_F32, whole(y4, N), whole(x4, N)));  /* 4: alone */
    accel_graph *g;
    tu_ok(accel_queue_end_capture(q, &g));
    tu_ok(accel_graph_instantiate(g, NULL));
    const char *k32 = fused_of(g, 0), *k64 = fused_of(g, 2);
    cr_assert(k32 && k64 && k32 != k64);
    cr_assert_eq(fused_of(g, 1), k32);
    cr_assert_eq(fused_of(g, 3), k64);
    cr_assert_null(fused_of(g, 4));
    tu_ok(accel_graph_launch(g, q));
    double v4[N], v8[N];
    download(q, x4, v4, N, ACCEL_F32);
    download(q, y8, v8, N, ACCEL_F64);
    for (size_t i = 0; i < N; i++) {
        cr_assert_eq(v4[i], -(double)sqrtf(1.5f), "element %zu: %.9g", i, v4[i]);
        cr_assert_eq(v8[i], -2.0);
    }
    accel_graph_release(g);
    accel_runtime_close(rt);
}

Test(fuse, rebinding_a_scalar_and_a_buffer_of_fused_ops)
{
    accel_runtime *rt = tu_open_default();
    accel_device *dev = cpu_of(rt);
    accel_queue *q;
    tu_ok(accel_queue_create(dev, &q));
    accel_buffer *a, *b, *c, *out, *a2;
    tu_ok(accel_buffer_create(dev, N * 4, &a));
    tu_ok(accel_buffer_create(dev, N * 4, &a2));
    tu_ok(accel_buffer_create(dev, N * 4, &b));
    tu_ok(accel_buffer_create(dev, N * 4, &c));
    tu_ok(accel_buffer_create(dev, N * 4, &out));
    double *ha = malloc(N * 8), *hb = malloc(N * 8), *hc = malloc(N * 8), *got = malloc(N * 8);
    cr_assert(ha && hb && hc && got);
    inputs(q, a, b, c, ha, hb, hc);
    accel_graph *g = record_chain(q, dev, a, b, c, out, NULL, NULL);
    tu_ok(accel_graph_launch(g, q));
    cr_assert_not_null(fused_of(g, 3));
    tu_ok(accel_graph_set_scalar(g, 3, 0, 0.25)); /* the SCALE's alpha */
    tu_ok(accel_graph_launch(g, q));
    download(q, out, got, N, ACCEL_F32);
    expect_chain(got, ha, hb, hc, 0.25);
    /* A new input buffer: a2 = -a. */
    for (size_t i = 0; i < N; i++)
        ha[i] = -ha[i];
    upload(q, a2, ha, N, ACCEL_F32);
    tu_ok(accel_graph_set_buffer(g, a, a2));
    tu_ok(accel_graph_launch(g, q));
    download(q, out, got, N, ACCEL_F32);
    expect_chain(got, ha, hb, hc, 0.25);
    cr_assert_not_null(fused_of(g, 0), "still fused after the rebinding");
    accel_graph_release(g);
    accel_runtime_close(rt);
    free(ha), free(hb), free(hc), free(got);
}

/* ------------------------------------------------------------ verify */

static accel_runtime *open_verified(void)
{
    accel_runtime *rt = tu_open_default();
    tu_verify_against_cpu(rt);
    return rt;
}

static void enqueue_op(accel_queue *q, accel_op_code op, accel_dtype dt, double alpha, double beta,
                       accel_slice x, accel_slice y, accel_slice out)
{
    accel_status st = ACCEL_ERROR_INTERNAL;
    switch (op) {
    case ACCEL_OP_ADD:
        st = accel_add(q, dt, x, y, out);
        break;
    case ACCEL_OP_SUB:
        st = accel_sub(q, dt, x, y, out);
        break;
    case ACCEL_OP_MUL:
        st = accel_mul(q, dt, x, y, out);
        break;
    case ACCEL_OP_DIV:
        st = accel_div(q, dt, x, y, out);
        break;
    case ACCEL_OP_MAX:
        st = accel_max(q, dt, x, y, out);
        break;
    case ACCEL_OP_MIN:
        st = accel_min(q, dt, x, y, out);
        break;
    case ACCEL_OP_NEG:
        st = accel_neg(q, dt, x, out);
        break;
    case ACCEL_OP_ABS:
        st = accel_abs(q, dt, x, out);
        break;
    case ACCEL_OP_SQRT:
        st = accel_sqrt(q, dt, x, out);
        break;
    case ACCEL_OP_EXP:
        st = accel_exp(q, dt, x, out);
        break;
    case ACCEL_OP_LOG:
        st = accel_log(q, dt, x, out);
        break;
    case ACCEL_OP_TANH:
        st = accel_tanh(q, dt, x, out);
        break;
    case ACCEL_OP_RELU:
        st = accel_relu(q, dt, x, out);
        break;
    case ACCEL_OP_SIN:
        st = accel_sin(q, dt, x, out);
        break;
    case ACCEL_OP_COS:
        st = accel_cos(q, dt, x, out);
        break;
    case ACCEL_OP_SIGMOID:
        st = accel_sigmoid(q, dt, x, out);
        break;
    case ACCEL_OP_SCALE:
        st = accel_scale(q, dt, alpha, x, out);
        break;
    case ACCEL_OP_AXPBY:
        st = accel_copy(q, dt, y, out);
        if (st == ACCEL_SUCCESS)
            st = accel_axpby(q, dt, alpha, x, beta, out);
        break;
    default:
        cr_assert_fail("op %d not in the list", (int)op);
    }
    cr_assert(st == ACCEL_SUCCESS, "%s: %s", accel_op_name(op), accel_last_error());
}

static const accel_op_code chain_ops[] = {
    ACCEL_OP_ADD,  ACCEL_OP_SUB, ACCEL_OP_MUL,  ACCEL_OP_DIV,     ACCEL_OP_MAX,   ACCEL_OP_MIN,
    ACCEL_OP_NEG,  ACCEL_OP_ABS, ACCEL_OP_SQRT, ACCEL_OP_EXP,     ACCEL_OP_LOG,   ACCEL_OP_TANH,
    ACCEL_OP_RELU, ACCEL_OP_SIN, ACCEL_OP_COS,  ACCEL_OP_SIGMOID, ACCEL_OP_SCALE, ACCEL_OP_AXPBY};

#define RN 64 /* elements of each random chain */

/* A random chain of 2..8 ops on inputs a, b (values in [-2, 2]) through
 * temporaries into out; the op count is returned. */
static size_t record_random(tu_rng *r, accel_queue *q, accel_device *dev, accel_dtype dt,
                            accel_buffer *a, accel_buffer *b, accel_buffer *out, accel_graph **g)
{
    size_t es = dt == ACCEL_F64 ? 8 : 4;
    size_t steps = 2 + (size_t)tu_rng_range(r, 0, 6.999);
    accel_buffer *pool[16] = {a, b};
    size_t np = 2;
    tu_ok(accel_queue_begin_capture(q));
    for (size_t s = 0; s < steps; s++) {
        accel_op_code op =
            chain_ops[(size_t)tu_rng_range(r, 0, sizeof chain_ops / sizeof *chain_ops - 0.001)];
        accel_buffer *x = pool[(size_t)tu_rng_range(r, 0, np - 0.001)];
        accel_buffer *y = pool[(size_t)tu_rng_range(r, 0, np - 0.001)];
        accel_buffer *o = out;
        if (s + 1 < steps)
            tu_ok(accel_buffer_create(dev, RN * es, &o));
        double alpha = tu_rng_range(r, -2, 2), beta = tu_rng_range(r, -2, 2);
        enqueue_op(q, op, dt, alpha, beta, whole(x, RN), whole(y, RN), whole(o, RN));
        pool[np++] = o;
    }
    tu_ok(accel_queue_end_capture(q, g));
    return steps;
}

Test(fuse, verify_finds_no_false_alarm_in_a_thousand_random_chains)
{
    accel_runtime *rt = open_verified();
    accel_device *dev = cpu_of(rt);
    accel_queue *q;
    tu_ok(accel_queue_create(dev, &q));
    tu_rng r = tu_rng_make(0xF05E);
    cr_log_info("seed 0xF05E");
    accel_dtype dts[2] = {ACCEL_F32, ACCEL_F64};
    accel_buffer *a[2], *b[2], *out[2];
    for (int t = 0; t < 2; t++) {
        size_t es = dts[t] == ACCEL_F64 ? 8 : 4;
        tu_ok(accel_buffer_create(dev, RN * es, &a[t]));
        tu_ok(accel_buffer_create(dev, RN * es, &b[t]));
        tu_ok(accel_buffer_create(dev, RN * es, &out[t]));
        double v[RN];
        for (size_t i = 0; i < RN; i++)
            v[i] = tu_rng_range(&r, -2, 2);
        upload(q, a[t], v, RN, dts[t]);
        for (size_t i = 0; i < RN; i++)
            v[i] = tu_rng_range(&r, -2, 2);
        upload(q, b[t], v, RN, dts[t]);
    }
    tu_ok(accel_queue_finish(q));
    accel_verify_stats s0;
    memset(&s0, 0, sizeof s0);
    s0.struct_size = sizeof s0;
    tu_ok(accel_verify_stats_get(rt, &s0));
    size_t fused = 0;
    for (int c = 0; c < 1000; c++) {
        int t = c & 1;
        accel_graph *g;
        record_random(&r, q, dev, dts[t], a[t], b[t], out[t], &g);
        tu_ok(accel_graph_instantiate(g, NULL));
        fused += fused_of(g, 0) != NULL;
        tu_ok(accel_graph_launch(g, q));
        accel_status st = accel_queue_finish(q);
        cr_assert(st == ACCEL_SUCCESS, "chain %d: %s", c, accel_last_error());
        accel_graph_release(g);
    }
    accel_verify_stats s1;
    memset(&s1, 0, sizeof s1);
    s1.struct_size = sizeof s1;
    tu_ok(accel_verify_stats_get(rt, &s1));
    cr_assert_eq(s1.mismatches, s0.mismatches, "false alarms: %llu",
                 (unsigned long long)(s1.mismatches - s0.mismatches));
    cr_assert(fused >= 900, "only %zu of 1000 chains were fused", fused);
    /* Every fused launch was compared, or skipped for an unbounded chain
     * (e.g. log of a value that may be 0) on every element. */
    unsigned long long seen = (s1.checked - s0.checked) + (s1.skipped - s0.skipped);
    cr_assert(seen >= fused, "checked or skipped %llu for %zu fused chains", seen, fused);
    cr_assert(s1.checked - s0.checked >= fused * 9 / 10, "checked only %llu",
              (unsigned long long)(s1.checked - s0.checked));
    accel_runtime_close(rt);
}

Test(fuse, verify_catches_a_planted_fault_and_names_the_fused_ops)
{
    accel_runtime *rt = open_verified();
    accel_device *dev = cpu_of(rt);
    accel_queue *q;
    tu_ok(accel_queue_create(dev, &q));
    accel_buffer *a, *b, *c, *out;
    tu_ok(accel_buffer_create(dev, N * 4, &a));
    tu_ok(accel_buffer_create(dev, N * 4, &b));
    tu_ok(accel_buffer_create(dev, N * 4, &c));
    tu_ok(accel_buffer_create(dev, N * 4, &out));
    double *ha = malloc(N * 8), *hb = malloc(N * 8), *hc = malloc(N * 8);
    cr_assert(ha && hb && hc);
    inputs(q, a, b, c, ha, hb, hc);
    accel_graph *g = record_chain(q, dev, a, b, c, out, NULL, NULL);
    /* Clean first: no alarm. */
    tu_ok(accel_graph_launch(g, q));
    tu_ok(accel_queue_finish(q));
    accel_graph_options opt;
    accel_graph_options_init(&opt);
    opt.flags = ACCEL_GRAPH_TEST_FAULT;
    tu_ok(accel_graph_instantiate(g, &opt));
    tu_ok(accel_graph_launch(g, q));
    accel_status st = accel_queue_finish(q);
    cr_assert_eq(st, ACCEL_ERROR_MISMATCH, "got %s: %s", accel_status_name(st), accel_last_error());
    const char *msg = accel_last_error();
    cr_assert(strstr(msg, "fused_mul_add_exp_scale") && strstr(msg, "accel_mul") &&
                  strstr(msg, "accel_exp") && strstr(msg, "element 500"),
              "message: %s", msg);
    accel_graph_release(g);
    accel_runtime_close(rt);
    free(ha), free(hb), free(hc);
}

/* Every device (the CPU here; CUDA devices where present): the chain fused
 * agrees with the same graph unfused and with a double loop, and 200
 * random chains pass verify mode (the host reference of the unfused ops). */
Test(fuse, fused_chains_on_every_device_agree_and_pass_verify)
{
    accel_runtime *rt = open_verified();
    uint32_t nd = accel_device_count(rt);
    cr_assert(nd >= 1);
    for (uint32_t di = 0; di < nd; di++) {
        accel_device *dev;
        tu_ok(accel_device_get(rt, di, &dev));
        cr_log_info("device %s", accel_device_name(dev));
        accel_queue *q;
        tu_ok(accel_queue_create(dev, &q));
        accel_buffer *a, *b, *c, *out;
        tu_ok(accel_buffer_create(dev, N * 4, &a));
        tu_ok(accel_buffer_create(dev, N * 4, &b));
        tu_ok(accel_buffer_create(dev, N * 4, &c));
        tu_ok(accel_buffer_create(dev, N * 4, &out));
        double *ha = malloc(N * 8), *hb = malloc(N * 8), *hc = malloc(N * 8), *got = malloc(N * 8);
        cr_assert(ha && hb && hc && got);
        inputs(q, a, b, c, ha, hb, hc);
        accel_graph *g = record_chain(q, dev, a, b, c, out, NULL, NULL);
        tu_ok(accel_graph_instantiate(g, NULL));
        cr_assert_not_null(fused_of(g, 0), "%s: not fused", accel_device_name(dev));
        tu_ok(accel_graph_launch(g, q));
        accel_status st = accel_queue_finish(q);
        cr_assert(st == ACCEL_SUCCESS, "%s: %s", accel_device_name(dev), accel_last_error());
        download(q, out, got, N, ACCEL_F32);
        expect_chain(got, ha, hb, hc, 0.5);
        accel_graph_release(g);
        tu_rng r = tu_rng_make(0xD1 + di);
        for (int k = 0; k < 200; k++) {
            accel_dtype dt = k & 1 ? ACCEL_F64 : ACCEL_F32;
            size_t es = dt == ACCEL_F64 ? 8 : 4;
            accel_buffer *x, *y, *o;
            tu_ok(accel_buffer_create(dev, RN * es, &x));
            tu_ok(accel_buffer_create(dev, RN * es, &y));
            tu_ok(accel_buffer_create(dev, RN * es, &o));
            double v[RN];
            for (size_t i = 0; i < RN; i++)
                v[i] = tu_rng_range(&r, -2, 2);
            upload(q, x, v, RN, dt);
            for (size_t i = 0; i < RN; i++)
                v[i] = tu_rng_range(&r, -2, 2);
            upload(q, y, v, RN, dt);
            record_random(&r, q, dev, dt, x, y, o, &g);
            tu_ok(accel_graph_launch(g, q));
            st = accel_queue_finish(q);
            cr_assert(st == ACCEL_SUCCESS, "%s: chain %d: %s", accel_device_name(dev), k,
                      accel_last_error());
            accel_graph_release(g);
            accel_buffer_release(x);
            accel_buffer_release(y);
            accel_buffer_release(o);
        }
        accel_buffer_release(a);
        accel_buffer_release(b);
        accel_buffer_release(c);
        accel_buffer_release(out);
        accel_queue_release(q);
        free(ha), free(hb), free(hc), free(got);
    }
    accel_verify_stats s;
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    tu_ok(accel_verify_stats_get(rt, &s));
    cr_assert_eq(s.mismatches, 0, "false alarms: %llu", (unsigned long long)s.mismatches);
    accel_runtime_close(rt);
}

/* The trace names each fused launch by its kernel, whose name lists the ops. */
Test(fuse, the_trace_names_the_fused_kernel_and_its_ops)
{
    const char *path = tu_fmt("%s/fuse_trace.json", tu_tmpdir());
    setenv("ACCEL_TRACE", path, 1);
    accel_runtime *rt = tu_open_default();
    unsetenv("ACCEL_TRACE");
    accel_device *dev = cpu_of(rt);
    accel_queue *q;
    tu_ok(accel_queue_create(dev, &q));
    accel_buffer *a, *b, *c, *out;
    tu_ok(accel_buffer_create(dev, N * 4, &a));
    tu_ok(accel_buffer_create(dev, N * 4, &b));
    tu_ok(accel_buffer_create(dev, N * 4, &c));
    tu_ok(accel_buffer_create(dev, N * 4, &out));
    accel_graph *g = record_chain(q, dev, a, b, c, out, NULL, NULL);
    tu_ok(accel_graph_launch(g, q));
    tu_ok(accel_queue_finish(q));
    accel_graph_release(g);
    accel_runtime_close(rt);
    FILE *f = fopen(path, "r");
    cr_assert(f, "no trace at %s", path);
    static char text[1 << 20];
    size_t len = fread(text, 1, sizeof text - 1, f);
    text[len] = '\0';
    fclose(f);
    /* Span names are cut at 39 characters: the kernel's name carries the ops. */
    cr_assert(strstr(text, "kernel fused_mul_add_exp_scale"),
              "the trace has no fused span: %.2000s", text);
}

/* The placement report lists each fused kernel with the ops it runs and its
 * launches (rows and text); unfused launches add no such row. */
Test(fuse, the_placement_report_names_the_fused_kernel_and_its_ops)
{
    accel_runtime *rt = tu_open_default();
    accel_device *dev = cpu_of(rt);
    accel_queue *q;
    tu_ok(accel_queue_create(dev, &q));
    accel_buffer *a, *b, *c, *out;
    tu_ok(accel_buffer_create(dev, N * 4, &a));
    tu_ok(accel_buffer_create(dev, N * 4, &b));
    tu_ok(accel_buffer_create(dev, N * 4, &c));
    tu_ok(accel_buffer_create(dev, N * 4, &out));
    double *ha = malloc(N * 8), *hb = malloc(N * 8), *hc = malloc(N * 8), *got = malloc(N * 8);
    cr_assert(ha && hb && hc && got);
    inputs(q, a, b, c, ha, hb, hc);
    accel_graph *g = record_chain(q, dev, a, b, c, out, NULL, NULL);
    tu_ok(accel_report_enable(rt, true));
    /* Unfused first: no fused row. */
    accel_graph_options opt;
    accel_graph_options_init(&opt);
    opt.flags = ACCEL_GRAPH_NO_FUSION;
    tu_ok(accel_graph_instantiate(g, &opt));
    tu_ok(accel_graph_launch(g, q));
    tu_ok(accel_queue_finish(q));
    accel_report_row rows[32];
    size_t n = 0;
    for (size_t i = 0; i < 32; i++)
        rows[i] = (accel_report_row){.struct_size = sizeof rows[i]};
    tu_ok(accel_report(rt, rows, 32, &n));
    cr_assert(n > 0 && n <= 32, "%zu rows", n);
    for (size_t i = 0; i < n; i++)
        cr_assert(rows[i].kernel && rows[i].kernel[0] == '\0' && rows[i].fused_count == 0,
                  "row %zu (%s) names a fused kernel before any fused launch", i,
                  accel_op_name(rows[i].op));
    /* Fused, launched three times. */
    tu_ok(accel_graph_instantiate(g, NULL));
    for (int r = 0; r < 3; r++)
        tu_ok(accel_graph_launch(g, q));
    download(q, out, got, N, ACCEL_F32);
    expect_chain(got, ha, hb, hc, 0.5);
    for (size_t i = 0; i < 32; i++)
        rows[i] = (accel_report_row){.struct_size = sizeof rows[i]};
    tu_ok(accel_report(rt, rows, 32, &n));
    cr_assert(n <= 32, "%zu rows", n);
    size_t found = 0;
    uint64_t kernel_ops = 0;
    for (size_t i = 0; i < n; i++) {
        const accel_report_row *r = &rows[i];
        if (r->op == ACCEL_OP_KERNEL && r->kernel[0] == '\0')
            kernel_ops = r->ops;
        if (!r->kernel[0])
            continue;
        found++;
        cr_assert_str_eq(r->kernel, "fused_mul_add_exp_scale");
        cr_assert_str_eq(r->device, accel_device_name(dev));
        cr_assert_eq(r->op, ACCEL_OP_KERNEL);
        cr_assert_eq(r->ops, 3, "launches %llu", (unsigned long long)r->ops);
        cr_assert_eq(r->fused_count, 4);
        cr_assert_str_eq(r->fused_ops, "nodes 0-3 (accel_mul, accel_add, accel_exp, accel_scale)");
    }
    cr_assert_eq(found, 1, "%zu fused rows", found);
    cr_assert_eq(kernel_ops, 3, "the kernel row counts %llu launches",
                 (unsigned long long)kernel_ops);
    /* A caller of the first row version gets the rows without the new fields. */
    struct {
        accel_report_row r;
    } old[32];
    memset(old, 0xab, sizeof old);
    size_t v1 = offsetof(accel_report_row, reason) + sizeof(const char *);
    size_t n1 = 0;
    old[0].r.struct_size = (uint32_t)v1;
    tu_ok(accel_report(rt, &old[0].r, 1, &n1));
    cr_assert_eq(n1, n);
    const unsigned char *tail = (const unsigned char *)&old[0].r + v1;
    for (size_t i = 0; i < sizeof(accel_report_row) - v1; i++)
        cr_assert_eq(tail[i], 0xab, "byte %zu past the first version was written", v1 + i);
    /* The text report. */
    size_t len = 0;
    tu_ok(accel_report_format(rt, NULL, 0, &len));
    char *text = malloc(len + 1);
    cr_assert(text);
    tu_ok(accel_report_format(rt, text, len + 1, NULL));
    cr_assert(strstr(text, "fused kernels of graphs"), "%s", text);
    const char *line = strstr(text, "fused_mul_add_exp_scale");
    cr_assert(line, "%s", text);
    const char *eol = strchr(line, '\n');
    cr_assert(eol);
    char row[1024];
    snprintf(row, sizeof row, "%.*s", (int)(eol - line), line);
    cr_assert(strstr(row, accel_device_name(dev)) && strstr(row, " 3 ") &&
                  strstr(row, "nodes 0-3 (accel_mul, accel_add, accel_exp, accel_scale)"),
              "fused row: %s", row);
    free(text);
    accel_graph_release(g);
    accel_buffer_release(a);
    accel_buffer_release(b);
    accel_buffer_release(c);
    accel_buffer_release(out);
    accel_queue_release(q);
    accel_runtime_close(rt);
    free(ha), free(hb), free(hc), free(got);
}
