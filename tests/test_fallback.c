/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_fallback.c — per-op fallback (core/check/fallback.c) from buffers of
 * a backend that behaves like a GPU (tests/plugins/gpulike_plugin.c: memory
 * behind its own transfers, queues that run later, writes that copy their
 * source at the call): every op kind it lacks runs on cpu:0, and the result
 * read back on the same queue is compared with a plain double loop, with the
 * elements around each output (leading-dimension gaps, guards) unchanged.
 * GEMM with every transpose and beta 0/1 (C NaN-filled when beta = 0), the
 * elementwise, reduction, random, transpose and copy ops, user kernels, and
 * the order of fallback results against the queue's own later work.
 *
 * The same tests run against cuda:0 as the ctest fallback_cuda (GPU machine):
 * ACCEL_TEST_FALLBACK_DEVICE=cuda, with tests/plugins/refuse_dlopen.c
 * preloaded so that cuBLAS and NVRTC cannot be loaded. GEMM, user kernels and
 * the generated array kernels then fall back from device-resident buffers;
 * the CUDA backend's own kernels run natively, checked all the same. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/kernel.h"
#include "test_util.h"

typedef struct fenv {
    accel_runtime *rt;
    accel_queue *q;   /* on fdev() */
    accel_queue *cpu; /* on cpu:0 */
} fenv;

/* The device whose missing ops fall back: gpulike:0, or cuda:0 when
 * ACCEL_TEST_FALLBACK_DEVICE=cuda (skipped where no CUDA device is). */
static const char *fdev(void)
{
    const char *d = getenv("ACCEL_TEST_FALLBACK_DEVICE");
    return d && strcmp(d, "cuda") == 0 ? "cuda:0" : "gpulike:0";
}

static fenv fenv_open(void)
{
    fenv e = {0};
    const char *cache = tu_fmt("%s/cache", tu_tmpdir());
    setenv("ACCEL_KERNEL_CACHE", cache, 1);
    tu_log_capture();
    if (strcmp(fdev(), "cuda:0") == 0)
        tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = cuda, cpu\nfallback = cpu\nreport = true\n"
                                 "[backend.cuda]\nlibrary = %s\n[backend.cpu]\nlibrary = %s\n",
                                 TU_CUDA_PLUGIN, TU_CPU_PLUGIN),
                          &e.rt, NULL));
    else
        tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = gpulike, cpu\nfallback = cpu\nreport = true\n"
                                 "[backend.gpulike]\nlibrary = %s\ndelay_us = 200\n"
                                 "[backend.cpu]\nlibrary = %s\n",
                                 TU_TEST_PLUGIN("gpulike"), TU_CPU_PLUGIN),
                          &e.rt, NULL));
    accel_device *g = NULL, *c = NULL;
    if (accel_device_get_by_name(e.rt, fdev(), &g) != ACCEL_SUCCESS) {
        accel_runtime_close(e.rt);
        /* Also on stderr: ctest marks the suite skipped on this line. */
        fprintf(stderr, "no CUDA device, GPU test skipped\n");
        cr_skip_test("no CUDA device, GPU test skipped");
    }
    tu_ok(accel_device_get_by_name(e.rt, "cpu:0", &c));
    tu_ok(accel_queue_create(g, &e.q));
    tu_ok(accel_queue_create(c, &e.cpu));
    return e;
}

static void fenv_close(fenv *e)
{
    accel_queue_release(e->q);
    accel_queue_release(e->cpu);
    accel_runtime_close(e->rt);
}

/* A buffer on q's device holding n elements of dt from v (as doubles). */
static accel_buffer *put(accel_queue *q, accel_dtype dt, const double *v, size_t n)
{
    size_t es = accel_dtype_size(dt);
    unsigned char *bytes = malloc(n * es + 1);
    cr_assert(bytes);
    for (size_t i = 0; i < n; i++) {
        if (dt == ACCEL_F32) {
            float f = (float)v[i];
            memcpy(bytes + i * 4, &f, 4);
        } else {
            memcpy(bytes + i * 8, &v[i], 8);
        }
    }
    accel_buffer *b = NULL;
    tu_ok(accel_buffer_create(accel_queue_device(q), n * es, &b));
    tu_ok(accel_queue_write_blocking(q, b, 0, bytes, n * es));
    free(bytes);
    return b;
}

/* n elements of dt from b, read on q as the caller of an op would. */
static void get(accel_queue *q, accel_buffer *b, accel_dtype dt, size_t n, double *v)
{
    size_t es = accel_dtype_size(dt);
    unsigned char *bytes = malloc(n * es + 1);
    cr_assert(bytes);
    tu_ok(accel_queue_read_blocking(q, b, 0, bytes, n * es));
    for (size_t i = 0; i < n; i++) {
        if (dt == ACCEL_F32) {
            float f;
            memcpy(&f, bytes + i * 4, 4);
            v[i] = f;
        } else {
            memcpy(&v[i], bytes + i * 8, 8);
        }
    }
    free(bytes);
}

static void small_ints(double *v, size_t n, uint64_t salt)
{
    tu_rng r = tu_rng_make(salt);
    for (size_t i = 0; i < n; i++)
        v[i] = (double)((int)(tu_rng_next(&r) % 9) - 4);
}

/* ------------------------------------------------------------ GEMM */

typedef struct gcase {
    accel_dtype dt;
    int ta, tb;
    double alpha, beta;
} gcase;

/* The expected C buffer: every C element of every batch from a double
 * loop; every other element keeps c0 (the gaps of ldc and between batches). */
static void gemm_reference(const accel_gemm_desc *d, const double *A, const double *B,
                           const double *c0, double *want, size_t c_len)
{
    memcpy(want, c0, c_len * sizeof *want);
    for (size_t t = 0; t < d->batch_count; t++)
        for (size_t i = 0; i < d->m; i++)
            for (size_t j = 0; j < d->n; j++) {
                double s = 0;
                for (size_t p = 0; p < d->k; p++) {
                    size_t ai = d->trans_a ? p * d->lda + i : i * d->lda + p;
                    size_t bi = d->trans_b ? j * d->ldb + p : p * d->ldb + j;
                    s += A[d->a_offset + t * d->stride_a + ai] *
                         B[d->b_offset + t * d->stride_b + bi];
                }
                size_t ci = d->c_offset + t * d->stride_c + i * d->ldc + j;
                want[ci] = d->alpha * s + (d->beta != 0 ? d->beta * c0[ci] : 0);
            }
}

static void gemm_case(fenv *e, const gcase *g)
{
    accel_gemm_desc d;
    accel_gemm_desc_init(&d);
    d.dtype = g->dt, d.trans_a = g->ta ? ACCEL_TRANS : ACCEL_NO_TRANS;
    d.trans_b = g->tb ? ACCEL_TRANS : ACCEL_NO_TRANS;
    d.m = 5, d.n = 4, d.k = 3, d.alpha = g->alpha, d.beta = g->beta;
    d.lda = (g->ta ? d.m : d.k) + 2, d.ldb = (g->tb ? d.k : d.n) + 1, d.ldc = d.n + 3;
    d.a_offset = 2, d.b_offset = 1, d.c_offset = 3, d.batch_count = 2;
    d.stride_a = (g->ta ? d.k : d.m) * d.lda + 1;
    d.stride_b = (g->tb ? d.n : d.k) * d.ldb + 2;
    d.stride_c = d.m * d.ldc + 2;
    size_t na = d.a_offset + 2 * d.stride_a, nb = d.b_offset + 2 * d.stride_b;
    size_t nc = d.c_offset + 2 * d.stride_c + 2;
    double *A = malloc(na * 8), *B = malloc(nb * 8), *C0 = malloc(nc * 8), *want = malloc(nc * 8),
           *got = malloc(nc * 8);
    cr_assert(A && B && C0 && want && got);
    small_ints(A, na, 1), small_ints(B, nb, 2), small_ints(C0, nc, 3);
    if (g->beta == 0) /* beta = 0: C must not be read (NaN would show) */
        for (size_t i = 0; i < nc; i++)
            C0[i] = NAN;
    gemm_reference(&d, A, B, C0, want, nc);
    d.a = put(e->q, g->dt, A, na), d.b = put(e->q, g->dt, B, nb), d.c = put(e->q, g->dt, C0, nc);
    tu_ok(accel_gemm(e->q, &d));
    get(e->q, d.c, g->dt, nc, got);
    for (size_t i = 0; i < nc; i++)
        cr_assert(tu_same(got[i], want[i]),
                  "%s ta=%d tb=%d beta=%g: C element %zu is %g, expected %g",
                  accel_dtype_name(g->dt), g->ta, g->tb, g->beta, i, got[i], want[i]);
    accel_buffer_release(d.a), accel_buffer_release(d.b), accel_buffer_release(d.c);
    free(A), free(B), free(C0), free(want), free(got);
}

Test(fallback, gemm_every_transpose_and_beta_from_device_buffers)
{
    fenv e = fenv_open();
    int n = 0;
    for (int dt = 0; dt < 2; dt++)
        for (int ta = 0; ta < 2; ta++)
            for (int tb = 0; tb < 2; tb++)
                for (int b = 0; b < 2; b++, n++) {
                    gcase g = {dt ? ACCEL_F64 : ACCEL_F32, ta, tb, b ? -2.0 : 1.0, b ? 1.0 : 0.0};
                    gemm_case(&e, &g);
                }
    cr_assert_eq(n, 16);
    cr_assert(tu_log_contains(ACCEL_LOG_WARN, tu_fmt("runs on cpu:0 instead of %s", fdev())), "%s",
              tu_log_text());
    fenv_close(&e);
}

/* The case: 8x8 f32 of small integers, accel_matmul, read back with
 * accel_queue_read_blocking on the same queue. */
Test(fallback, matmul_8x8_reads_back_the_product)
{
    fenv e = fenv_open();
    double a[64], b[64], c[64], want[64];
    small_ints(a, 64, 4), small_ints(b, 64, 5);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            want[i * 8 + j] = 0;
            for (int p = 0; p < 8; p++)
                want[i * 8 + j] += a[i * 8 + p] * b[p * 8 + j];
        }
    accel_buffer *A = put(e.q, ACCEL_F32, a, 64), *B = put(e.q, ACCEL_F32, b, 64), *C = NULL;
    tu_ok(accel_buffer_create(accel_queue_device(e.q), 64 * 4, &C));
    tu_ok(accel_matmul(e.q, ACCEL_F32, 8, 8, 8, A, B, C));
    get(e.q, C, ACCEL_F32, 64, c);
    for (int i = 0; i < 64; i++)
        cr_assert_eq(c[i], want[i], "C[%d] = %g, expected %g", i, c[i], want[i]);
    accel_buffer_release(A), accel_buffer_release(B), accel_buffer_release(C);
    fenv_close(&e);
}

/* ------------------------------------------------------------ elementwise */

#define N 37
#define OFF 5 /* outputs are views at OFF of a buffer of N + 2*OFF */

static double ref_unary(accel_op_code op, double x)
{
    switch (op) {
    case ACCEL_OP_NEG:
        return -x;
    case ACCEL_OP_ABS:
        return fabs(x);
    case ACCEL_OP_SQRT:
        return sqrt(x);
    case ACCEL_OP_EXP:
        return exp(x);
    case ACCEL_OP_LOG:
        return log(x);
    case ACCEL_OP_TANH:
        return tanh(x);
    case ACCEL_OP_RELU:
        return x > 0 ? x : 0;
    case ACCEL_OP_SIN:
        return sin(x);
    case ACCEL_OP_COS:
        return cos(x);
    default:
        return 1 / (1 + exp(-x)); /* SIGMOID */
    }
}

static double ref_binary(accel_op_code op, double a, double b)
{
    switch (op) {
    case ACCEL_OP_ADD:
        return a + b;
    case ACCEL_OP_SUB:
        return a - b;
    case ACCEL_OP_MUL:
        return a * b;
    case ACCEL_OP_DIV:
        return a / b;
    case ACCEL_OP_MAX:
        return a > b ? a : b;
    default:
        return a < b ? a : b; /* MIN */
    }
}

/* The output buffer after an op: want[] inside [OFF, OFF + N), the old
 * contents (99) around it; ulps of dt allowed inside. */
static void check_out(fenv *e, accel_buffer *out, accel_dtype dt, const double *want, double ulps,
                      const char *what)
{
    double got[N + 2 * OFF];
    get(e->q, out, dt, N + 2 * OFF, got);
    for (size_t i = 0; i < N + 2 * OFF; i++) {
        bool inside = i >= OFF && i < OFF + N;
        if (!inside) {
            cr_assert_eq(got[i], 99.0, "%s: element %zu outside the output changed to %g", what, i,
                         got[i]);
            continue;
        }
        double w = tu_round(dt, want[i - OFF]);
        cr_assert(tu_ulp_diff(dt, got[i], w) <= ulps, "%s %s: element %zu is %.17g, expected %.17g",
                  what, accel_dtype_name(dt), i - OFF, got[i], w);
    }
}

static accel_buffer *out_buffer(fenv *e, accel_dtype dt)
{
    double v[N + 2 * OFF];
    for (size_t i = 0; i < N + 2 * OFF; i++)
        v[i] = 99.0;
    return put(e->q, dt, v, N + 2 * OFF);
}

Test(fallback, elementwise_ops_from_device_buffers)
{
    fenv e = fenv_open();
    static const accel_op_code unary[] = {
        ACCEL_OP_NEG,  ACCEL_OP_ABS,  ACCEL_OP_SQRT, ACCEL_OP_EXP, ACCEL_OP_LOG,
        ACCEL_OP_TANH, ACCEL_OP_RELU, ACCEL_OP_SIN,  ACCEL_OP_COS, ACCEL_OP_SIGMOID};
    static const accel_op_code binary[] = {ACCEL_OP_ADD, ACCEL_OP_SUB, ACCEL_OP_MUL,
                                           ACCEL_OP_DIV, ACCEL_OP_MAX, ACCEL_OP_MIN};
    for (int t = 0; t < 2; t++) {
        accel_dtype dt = t ? ACCEL_F64 : ACCEL_F32;
        double x[N], y[N], want[N];
        tu_rng r = tu_rng_make(10 + (uint64_t)t);
        for (int i = 0; i < N; i++) {
            x[i] = tu_round(dt, tu_rng_range(&r, 0.25, 3.0));
            y[i] = tu_round(dt, tu_rng_range(&r, -3.0, -0.25));
        }
        accel_buffer *X = put(e.q, dt, x, N), *Y = put(e.q, dt, y, N);
        accel_slice sx = accel_slice_of(X, 0, N), sy = accel_slice_of(Y, 0, N);
        for (size_t u = 0; u < sizeof unary / sizeof *unary; u++) {
            accel_buffer *O = out_buffer(&e, dt);
            tu_ok(accel_unary(e.q, unary[u], dt, sx, accel_slice_of(O, OFF, N)));
            for (int i = 0; i < N; i++)
                want[i] = ref_unary(unary[u], x[i]);
            check_out(&e, O, dt, want, 4, accel_op_name(unary[u]));
            accel_buffer_release(O);
        }
        for (size_t b = 0; b < sizeof binary / sizeof *binary; b++) {
            accel_buffer *O = out_buffer(&e, dt);
            tu_ok(accel_binary(e.q, binary[b], dt, sx, sy, accel_slice_of(O, OFF, N)));
            for (int i = 0; i < N; i++)
                want[i] = ref_binary(binary[b], x[i], y[i]);
            check_out(&e, O, dt, want, 1, accel_op_name(binary[b]));
            accel_buffer_release(O);
        }
        /* scale, and axpby, which reads its output */
        accel_buffer *O = out_buffer(&e, dt);
        tu_ok(accel_scale(e.q, dt, 3.0, sx, accel_slice_of(O, OFF, N)));
        for (int i = 0; i < N; i++)
            want[i] = 3.0 * x[i];
        check_out(&e, O, dt, want, 1, "scale");
        tu_ok(accel_axpby(e.q, dt, 2.0, sx, -1.0, accel_slice_of(O, OFF, N)));
        for (int i = 0; i < N; i++)
            want[i] = 2.0 * x[i] - tu_round(dt, 3.0 * x[i]);
        check_out(&e, O, dt, want, 2, "axpby");
        accel_buffer_release(O), accel_buffer_release(X), accel_buffer_release(Y);
    }
    fenv_close(&e);
}

Test(fallback, reductions_from_device_buffers)
{
    fenv e = fenv_open();
    double x[N], y[N];
    small_ints(x, N, 20), small_ints(y, N, 21);
    double sum = 0, dot = 0, mx = x[0], mn = x[0];
    for (int i = 0; i < N; i++) {
        sum += x[i], dot += x[i] * y[i];
        mx = x[i] > mx ? x[i] : mx, mn = x[i] < mn ? x[i] : mn;
    }
    for (int t = 0; t < 2; t++) {
        accel_dtype dt = t ? ACCEL_F64 : ACCEL_F32;
        accel_buffer *X = put(e.q, dt, x, N), *Y = put(e.q, dt, y, N), *O = out_buffer(&e, dt);
        accel_slice sx = accel_slice_of(X, 0, N), o = accel_slice_of(O, OFF + 1, 1);
        double got[N + 2 * OFF];
        const double want[4] = {sum, mx, mn, dot};
        for (int k = 0; k < 4; k++) {
            if (k < 3)
                tu_ok(accel_reduce(e.q,
                                   k == 0   ? ACCEL_OP_SUM
                                   : k == 1 ? ACCEL_OP_REDUCE_MAX
                                            : ACCEL_OP_REDUCE_MIN,
                                   dt, sx, o));
            else
                tu_ok(accel_dot(e.q, dt, sx, accel_slice_of(Y, 0, N), o));
            get(e.q, O, dt, N + 2 * OFF, got);
            for (int i = 0; i < N + 2 * OFF; i++)
                cr_assert_eq(got[i], i == OFF + 1 ? want[k] : 99.0, "reduction %d, element %d: %g",
                             k, i, got[i]);
        }
        accel_buffer_release(X), accel_buffer_release(Y), accel_buffer_release(O);
    }
    fenv_close(&e);
}

/* Random numbers: the same bits as the CPU's own op for the same (seed,
 * offset), each uniform in [0, 1). */
Test(fallback, random_from_device_buffers)
{
    fenv e = fenv_open();
    for (int t = 0; t < 2; t++) {
        accel_dtype dt = t ? ACCEL_F64 : ACCEL_F32;
        accel_buffer *O = out_buffer(&e, dt);
        double init[N];
        for (int i = 0; i < N; i++)
            init[i] = 99.0;
        accel_buffer *R = put(e.cpu, dt, init, N);
        double want[N], got[N + 2 * OFF];
        for (int normal = 0; normal < 2; normal++) {
            accel_slice so = accel_slice_of(O, OFF, N), sr = accel_slice_of(R, 0, N);
            if (normal) {
                tu_ok(accel_random_normal(e.q, dt, 77, 5, 1.0, 2.0, so));
                tu_ok(accel_random_normal(e.cpu, dt, 77, 5, 1.0, 2.0, sr));
            } else {
                tu_ok(accel_random_uniform(e.q, dt, 77, 5, so));
                tu_ok(accel_random_uniform(e.cpu, dt, 77, 5, sr));
            }
            get(e.cpu, R, dt, N, want);
            get(e.q, O, dt, N + 2 * OFF, got);
            for (int i = 0; i < N + 2 * OFF; i++) {
                bool inside = i >= OFF && i < OFF + N;
                cr_assert(tu_same(got[i], inside ? want[i - OFF] : 99.0), "normal=%d %d: %g",
                          normal, i, got[i]);
                if (inside && !normal)
                    cr_assert(got[i] >= 0 && got[i] < 1, "uniform %d: %g", i, got[i]);
            }
        }
        accel_buffer_release(O), accel_buffer_release(R);
    }
    fenv_close(&e);
}

Test(fallback, transpose_and_copy_from_device_buffers)
{
    fenv e = fenv_open();
    const size_t rows = 4, cols = 3, ldx = 5, ldo = 6, xo = 2, oo = 1;
    double x[2 + 4 * 5], o0[1 + 3 * 6 + 2], got[1 + 3 * 6 + 2];
    small_ints(x, 2 + 4 * 5, 30);
    for (size_t i = 0; i < 1 + 3 * 6 + 2; i++)
        o0[i] = 99.0;
    accel_buffer *X = put(e.q, ACCEL_F64, x, 2 + 4 * 5), *O = put(e.q, ACCEL_F64, o0, 21);
    tu_ok(accel_transpose_2d(e.q, ACCEL_F64, rows, cols, X, xo, ldx, O, oo, ldo));
    get(e.q, O, ACCEL_F64, 21, got);
    for (size_t i = 0; i < 21; i++) {
        double want = 99.0;
        size_t r = (i - oo) / ldo, c = (i - oo) % ldo;
        if (i >= oo && r < cols && c < rows)
            want = x[xo + c * ldx + r];
        cr_assert_eq(got[i], want, "transpose element %zu: %g, expected %g", i, got[i], want);
    }
    accel_buffer_release(X), accel_buffer_release(O);
    /* The gpulike backend copies f64 only: an f32 copy falls back. */
    double v[N], w[N + 2 * OFF];
    small_ints(v, N, 31);
    accel_buffer *V = put(e.q, ACCEL_F32, v, N), *W = out_buffer(&e, ACCEL_F32);
    tu_ok(accel_copy(e.q, ACCEL_F32, accel_slice_of(V, 0, N), accel_slice_of(W, OFF, N)));
    get(e.q, W, ACCEL_F32, N + 2 * OFF, w);
    for (int i = 0; i < N + 2 * OFF; i++)
        cr_assert_eq(w[i], i >= OFF && i < OFF + N ? v[i - OFF] : 99.0, "copy %d: %g", i, w[i]);
    accel_buffer_release(V), accel_buffer_release(W);
    fenv_close(&e);
}

/* Native and fallback ops interleaved with no finish between them: each
 * fallback sees the queue's earlier work and later work sees its result. */
Test(fallback, results_keep_the_queue_order)
{
    fenv e = fenv_open();
    accel_device *dev = accel_queue_device(e.q);
    accel_buffer *A, *C, *D;
    tu_ok(accel_buffer_create(dev, N * 8, &A));
    tu_ok(accel_buffer_create(dev, N * 8, &C));
    tu_ok(accel_buffer_create(dev, N * 8, &D));
    accel_slice a = accel_slice_of(A, 0, N), c = accel_slice_of(C, 0, N),
                d = accel_slice_of(D, 0, N);
    double host[N];
    for (int round = 0; round < 20; round++) {
        tu_ok(accel_fill(e.q, ACCEL_F64, round, a));     /* native */
        tu_ok(accel_add(e.q, ACCEL_F64, a, a, c));       /* fallback: 2r */
        tu_ok(accel_fill(e.q, ACCEL_F64, 3.0, a));       /* native, after the add read a */
        tu_ok(accel_mul(e.q, ACCEL_F64, c, a, c));       /* fallback: 6r */
        tu_ok(accel_copy(e.q, ACCEL_F64, c, d));         /* native, after the mul wrote c */
        tu_ok(accel_queue_read(e.q, D, 0, host, N * 8)); /* non-blocking */
        tu_ok(accel_queue_finish(e.q));
        for (int i = 0; i < N; i++)
            cr_assert_eq(host[i], 6.0 * round, "round %d element %d: %g", round, i, host[i]);
    }
    accel_buffer_release(A), accel_buffer_release(C), accel_buffer_release(D);
    fenv_close(&e);
}

Test(fallback, user_kernel_from_device_buffers)
{
    fenv e = fenv_open();
    accel_kernel *k = NULL;
    tu_ok(accel_kernel_elementwise_create(e.rt, "axpy3", "float64 x, float64 y", "float64 z",
                                          "z = 3 * x + y", NULL, &k));
    double x[N], y[N], z[N + 2 * OFF];
    small_ints(x, N, 40), small_ints(y, N, 41);
    accel_buffer *X = put(e.q, ACCEL_F64, x, N), *Y = put(e.q, ACCEL_F64, y, N),
                 *Z = out_buffer(&e, ACCEL_F64);
    accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(X, 0, N)),
                               accel_karg_array(accel_slice_of(Y, 0, N)),
                               accel_karg_array(accel_slice_of(Z, OFF, N))};
    tu_ok(accel_kernel_launch(e.q, k, 3, args));
    get(e.q, Z, ACCEL_F64, N + 2 * OFF, z);
    for (int i = 0; i < N + 2 * OFF; i++) {
        double want = i >= OFF && i < OFF + N ? 3 * x[i - OFF] + y[i - OFF] : 99.0;
        cr_assert_eq(z[i], want, "z[%d] = %g, expected %g", i, z[i], want);
    }
    accel_kernel_release(k);
    accel_buffer_release(X), accel_buffer_release(Y), accel_buffer_release(Z);
    fenv_close(&e);
}

/* An earlier op's failure on the queue: the fallback skips the op and the
 * queue's next finish reports that failure (the mock's fill of 13 fails on
 * its "device" after op_execute returned). */
Test(fallback, an_earlier_failure_on_the_queue_is_reported_by_the_next_finish)
{
    accel_runtime *rt = NULL;
    tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = mock, cpu\nfallback = cpu\n"
                             "[backend.mock]\nlibrary = %s\n[backend.cpu]\nlibrary = %s\n",
                             TU_TEST_PLUGIN("mock"), TU_CPU_PLUGIN),
                      &rt, NULL));
    accel_device *m = NULL;
    accel_queue *q = NULL;
    tu_ok(accel_device_get_by_name(rt, "mock:0", &m));
    tu_ok(accel_queue_create(m, &q));
    double v[N];
    small_ints(v, N, 50);
    accel_buffer *A = put(q, ACCEL_F64, v, N);
    accel_slice a = accel_slice_of(A, 0, N);
    tu_ok(accel_fill(q, ACCEL_F64, TU_MOCK_FAULT_VALUE, a));
    tu_ok(accel_add(q, ACCEL_F64, a, a, a)); /* falls back; skipped */
    tu_assert_status(accel_queue_finish(q), ACCEL_ERROR_DEVICE, "finish after the fault");
    cr_assert(strstr(accel_last_error(), "mock device fault"), "%s", accel_last_error());
    /* Reported once; the queue works again. */
    tu_ok(accel_fill(q, ACCEL_F64, 2.0, a));
    tu_ok(accel_add(q, ACCEL_F64, a, a, a));
    double got[N];
    get(q, A, ACCEL_F64, N, got);
    for (int i = 0; i < N; i++)
        cr_assert_eq(got[i], 4.0, "element %d: %g", i, got[i]);
    accel_buffer_release(A);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

/* The same defect in a copy between two backends without host memory (a
 * host bounce buffer), with the queue on the destination: its write must
 * send what the staged read brought, not what the buffer held before. */
Test(fallback, staged_copy_into_device_memory_sends_the_data)
{
    accel_runtime *rt = NULL;
    tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = gpulike, mock, cpu\n"
                             "[backend.gpulike]\nlibrary = %s\n[backend.mock]\nlibrary = %s\n"
                             "[backend.cpu]\nlibrary = %s\n",
                             TU_TEST_PLUGIN("gpulike"), TU_TEST_PLUGIN("mock"), TU_CPU_PLUGIN),
                      &rt, NULL));
    accel_device *g = NULL, *m = NULL;
    accel_queue *qg = NULL, *qm = NULL;
    tu_ok(accel_device_get_by_name(rt, "gpulike:0", &g));
    tu_ok(accel_device_get_by_name(rt, "mock:0", &m));
    tu_ok(accel_queue_create(g, &qg));
    tu_ok(accel_queue_create(m, &qm));
    double v[N], got[N];
    small_ints(v, N, 51);
    accel_buffer *src = put(qm, ACCEL_F64, v, N), *dst = NULL;
    tu_ok(accel_buffer_create(g, N * 8, &dst));
    for (int round = 0; round < 5; round++) {
        tu_ok(accel_fill(qg, ACCEL_F64, -1.0, accel_slice_of(dst, 0, N)));
        tu_ok(accel_queue_copy(qg, src, 0, dst, 0, N * 8));
        get(qg, dst, ACCEL_F64, N, got);
        for (int i = 0; i < N; i++)
            cr_assert_eq(got[i], v[i], "round %d element %d: %g, expected %g", round, i, got[i],
                         v[i]);
    }
    accel_buffer_release(src), accel_buffer_release(dst);
    accel_queue_release(qg), accel_queue_release(qm);
    accel_runtime_close(rt);
}
