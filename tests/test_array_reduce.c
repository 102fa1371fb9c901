/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_array_reduce.c — accel_array_reduce: every reduction x every dtype
 * it takes x sets of axes (none, one, two, all; keepdims or not) on a
 * contiguous and on a transposed, reversed view, against a plain C loop
 * (floats in double in the documented row-major order, so sums compare
 * exactly, and also within the SUM bound of a long double sum; integers
 * wrapping in uint64); empty reductions; bad input with out untouched.
 *
 * No test here sets Criterion's .timeout: two such tests running at once
 * (Criterion's -j, the default) leaked 48 bytes inside libcriterion under
 * LeakSanitizer, which failed the debug-asan run. ctest's TIMEOUT (300 s,
 * tests/CMakeLists.txt) bounds a hang instead. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#define _DEFAULT_SOURCE         /* usleep */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

#include "test_array_common.h"

#include "accel/graph.h"

/* cuda, opencl (with ACCEL_TEST_ARRAY_OPENCL=1) and cpu (tcc). */
static accel_runtime *open_rt(void)
{
    return array_runtime(NULL, NULL);
}

/* cpu:0 of rt and a new queue on it (the caller releases the queue). */
static env cpu_env(accel_runtime *rt)
{
    env e;
    tu_ok(accel_device_get_by_name(rt, "cpu:0", &e.dev));
    tu_ok(accel_queue_create(e.dev, &e.q));
    return e;
}

static accel_dtype result_of(accel_array_reduce_fn fn, accel_dtype dt)
{
    switch (fn) {
    case ACCEL_ARRAY_REDUCE_SUM:
    case ACCEL_ARRAY_REDUCE_PROD:
        return is_float(dt) ? dt : kind(dt) == ACCEL_DTYPE_KIND_UINT ? ACCEL_U64 : ACCEL_I64;
    case ACCEL_ARRAY_REDUCE_MEAN:
        return is_float(dt) ? dt : ACCEL_DTYPE_INVALID;
    case ACCEL_ARRAY_REDUCE_ANY:
    case ACCEL_ARRAY_REDUCE_ALL:
        return ACCEL_BOOL;
    case ACCEL_ARRAY_REDUCE_ARGMIN:
    case ACCEL_ARRAY_REDUCE_ARGMAX:
        return ACCEL_I64;
    default:
        return dt;
    }
}

/* The reference of fn over vals[m] (already in reduced row-major order). */
static val reduce_ref(accel_array_reduce_fn fn, accel_dtype dt, const val *v, int64_t m)
{
    val r = {0};
    bool f = is_float(dt), sg = kind(dt) == ACCEL_DTYPE_KIND_INT;
    switch (fn) {
    case ACCEL_ARRAY_REDUCE_SUM:
    case ACCEL_ARRAY_REDUCE_MEAN:
    case ACCEL_ARRAY_REDUCE_PROD: {
        bool prod = fn == ACCEL_ARRAY_REDUCE_PROD;
        double acc = prod ? 1.0 : 0.0;
        uint64_t u = prod ? 1 : 0;
        for (int64_t j = 0; j < m; j++) {
            acc = prod ? acc * v[j].f : acc + v[j].f;
            u = prod ? u * v[j].u : u + v[j].u;
        }
        if (fn == ACCEL_ARRAY_REDUCE_MEAN)
            acc /= (double)m;
        if (f)
            r.f = dt == ACCEL_F64 ? acc : round_to(dt, (double)(float)acc);
        else
            r.u = u;
        return r;
    }
    case ACCEL_ARRAY_REDUCE_ANY:
    case ACCEL_ARRAY_REDUCE_ALL: {
        bool any = fn == ACCEL_ARRAY_REDUCE_ANY, acc = !any;
        for (int64_t j = 0; j < m; j++) {
            bool t = f ? v[j].f != 0 : v[j].u != 0;
            acc = any ? acc || t : acc && t;
        }
        r.i = acc;
        return r;
    }
    default:
        break;
    }
    bool mx = fn == ACCEL_ARRAY_REDUCE_MAX || fn == ACCEL_ARRAY_REDUCE_ARGMAX;
    int64_t best = 0;
    for (int64_t j = 1; j < m; j++) {
        const val a = v[j], b = v[best];
        bool better;
        if (f)
            better = !isnan(b.f) && (isnan(a.f) || (mx ? a.f > b.f : a.f < b.f));
        else if (sg)
            better = mx ? a.i > b.i : a.i < b.i;
        else
            better = mx ? a.u > b.u : a.u < b.u;
        if (better)
            best = j;
    }
    if (fn == ACCEL_ARRAY_REDUCE_ARGMIN || fn == ACCEL_ARRAY_REDUCE_ARGMAX) {
        r.i = best;
        return r;
    }
    /* min/max of floats: IEEE maximum/minimum (-0 < +0) */
    r = v[best];
    if (f && !isnan(r.f))
        for (int64_t j = 0; j < m; j++)
            if (v[j].f == r.f && (mx ? !signbit(v[j].f) : signbit(v[j].f)))
                r = v[j];
    return r;
}

static unsigned run_reduce(env *e, tu_rng *r, accel_array_reduce_fn fn, accel_dtype dt,
                           bool strided, uint64_t mask, int keepdims)
{
    unsigned char host[60 * 8];
    fill(r, dt, false, host, 60);
    accel_buffer *bx = upload(e, host, 60 * accel_dtype_size(dt));
    accel_array x = view_345(bx, dt, strided);
    int64_t oshape[3];
    uint32_t ond = 0;
    for (uint32_t d = 0; d < 3; d++)
        if (!(mask >> d & 1u) || keepdims)
            oshape[ond++] = mask >> d & 1u ? 1 : x.shape[d];
    accel_dtype rdt = result_of(fn, dt);
    unsigned char got[60 * 8];
    memset(got, 0xa5, sizeof got);
    accel_buffer *bo = upload(e, got, sizeof got);
    accel_array out;
    tu_ok(accel_array_init(&out, bo, rdt, ond, oshape));
    tu_assert_status(accel_array_reduce(e->q, fn, &x, mask, keepdims, &out), ACCEL_SUCCESS,
                     "%s %s mask %u", accel_array_reduce_name(fn), accel_dtype_name(dt),
                     (unsigned)mask);
    tu_ok(accel_queue_read_blocking(e->q, bo, 0, got, sizeof got));
    /* Walk out's elements (kept indices) and each one's reduced elements. */
    int64_t n = 1, m = 1;
    for (uint32_t d = 0; d < 3; d++)
        (void)((mask >> d & 1u) ? (m *= x.shape[d]) : (n *= x.shape[d]));
    unsigned checked = 0;
    for (int64_t i = 0; i < n; i++) {
        val vals[60];
        for (int64_t j = 0; j < m; j++) {
            int64_t idx[3], ri = i, rj = j;
            for (uint32_t d = 3; d-- > 0;) {
                if (mask >> d & 1u) {
                    idx[d] = rj % x.shape[d];
                    rj /= x.shape[d];
                } else {
                    idx[d] = ri % x.shape[d];
                    ri /= x.shape[d];
                }
            }
            int64_t el = (int64_t)(x.offset / accel_dtype_size(dt));
            for (uint32_t d = 0; d < 3; d++)
                el += idx[d] * x.strides[d];
            vals[j] = get(host, dt, (size_t)el);
        }
        val want = reduce_ref(fn, dt, vals, m), have = get(got, rdt, (size_t)i);
        bool ok = is_float(rdt) ? close_enough(rdt, have.f, want.f, 0) : have.u == want.u;
        cr_assert(ok,
                  "%s %s mask %u keepdims %d %s: out[%lld] = %.17g (0x%llx), want %.17g (0x%llx)",
                  accel_array_reduce_name(fn), accel_dtype_name(dt), (unsigned)mask, keepdims,
                  strided ? "strided" : "contiguous", (long long)i, have.f,
                  (unsigned long long)have.u, want.f, (unsigned long long)want.u);
        checked++;
    }
    /* past the output: untouched */
    size_t ob = (size_t)n * accel_dtype_size(rdt);
    for (size_t b = ob; b < sizeof got; b++)
        cr_assert_eq(got[b], 0xa5, "byte %zu past out written", b);
    accel_buffer_release(bx);
    accel_buffer_release(bo);
    return checked;
}

static void every_reduction(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    tu_rng r = tu_rng_make(30);
    static const uint64_t masks[] = {0, 1, 2, 4, 5, 6, 7};
    unsigned checked = 0;
    for (int f = 1; f < ACCEL_ARRAY_REDUCE_LIMIT_; f++) {
        if (strcmp(accel_array_reduce_name((accel_array_reduce_fn)f), "unknown") == 0)
            continue;
        for (size_t d = 0; d < NDT; d++) {
            accel_dtype dt = all_dtypes[d];
            if (result_of((accel_array_reduce_fn)f, dt) == ACCEL_DTYPE_INVALID)
                continue;
            for (size_t k = 0; k < sizeof masks / sizeof masks[0]; k++)
                checked += run_reduce(&e, &r, (accel_array_reduce_fn)f, dt, k % 2 == 1, masks[k],
                                      (int)(k % 3 == 0));
        }
    }
    cr_assert_gt(checked, 5000u, "elements checked: %u", checked);
}

Test(array_reduce, every_reduction_every_dtype)
{
    accel_runtime *rt = open_rt();
    tu_for_each_device(rt, every_reduction, NULL);
    accel_runtime_close(rt);
}

/* A float32 sum of 100003 elements against a long double sum, within the
 * SUM bound of tolerance.c (n * eps(f64) * sum|x|, then one f32 rounding). */
Test(array_reduce, float_sum_within_bound)
{
    accel_runtime *rt = open_rt();
    env e = cpu_env(rt);
    accel_queue *q = e.q;
    enum { N = 100003 };
    float *h = malloc(N * sizeof *h);
    tu_rng r = tu_rng_make(31);
    long double exact = 0, mag = 0;
    for (int i = 0; i < N; i++) {
        h[i] = (float)tu_rng_range(&r, -1.0, 1.0);
        exact += h[i];
        mag += fabsl((long double)h[i]);
    }
    accel_buffer *bx = upload(&e, h, N * sizeof *h), *bo = upload(&e, NULL, 4);
    const int64_t shape[] = {N};
    accel_array x, out;
    tu_ok(accel_array_init(&x, bx, ACCEL_F32, 1, shape));
    tu_ok(accel_array_init(&out, bo, ACCEL_F32, 0, NULL));
    tu_ok(accel_array_reduce(q, ACCEL_ARRAY_REDUCE_SUM, &x, 1u, 0, &out));
    float got;
    tu_ok(accel_queue_read_blocking(q, bo, 0, &got, 4));
    long double bound = (long double)N * 0x1p-53L * mag + fabsl(exact) * 0x1p-24L;
    cr_assert(fabsl((long double)got - exact) <= bound, "sum %.9g exact %.12Lg bound %.3Lg",
              (double)got, exact, bound);
    free(h);
    accel_buffer_release(bx);
    accel_buffer_release(bo);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

/* The documented fold order of a float sum (docs/arrays.md): a run of
 * values into 8 lanes (lane j % 8 over the whole groups of 8), the fixed
 * tree ((k0 + k1) + (k2 + k3)) + ((k4 + k5) + (k6 + k7)), then the tail in
 * order; in double. */
static double lanes8(const double *v, int64_t n)
{
    double k[8] = {0};
    int64_t j = 0;
    for (; j + 8 <= n; j += 8)
        for (int u = 0; u < 8; u++)
            k[u] += v[j + u];
    double acc = ((k[0] + k[1]) + (k[2] + k[3])) + ((k[4] + k[5]) + (k[6] + k[7]));
    for (; j < n; j++)
        acc += v[j];
    return acc;
}

/* An axis-0 sum of a 1001 x 67 float32 and float64 array of random values
 * (sums that round): 67 outputs of 1001 elements fold in 15 chunks of 67
 * rows (reduce.c's chunks() for a GPU's 131072 work items), each chunk's
 * rows by lanes8, then the 15 partials by lanes8. Bit for bit on every
 * walk: the CPU's tiles (four full tiles of 16 adjacent outputs, whose
 * lanes run outer in registers, and a partial one) and, in ctest
 * array_reduce_grid_walk, the GPU's form. */
Test(array_reduce, axis0_sum_folds_in_the_documented_order)
{
    accel_runtime *rt = open_rt();
    env e = cpu_env(rt);
    accel_queue *q = e.q;
    enum { R = 1001, C = 67, P = 15, L = 67 };
    double *h = malloc(R * C * sizeof *h), col[R], part[P];
    float *hf = malloc(R * C * sizeof *hf);
    tu_rng r = tu_rng_make(41);
    for (int i = 0; i < R * C; i++) {
        hf[i] = (float)tu_rng_range(&r, -1.0, 1.0);
        h[i] = tu_rng_range(&r, -1.0, 1.0);
    }
    for (int t = 0; t < 2; t++) {
        accel_dtype dt = t ? ACCEL_F64 : ACCEL_F32;
        accel_buffer *bx = upload(&e, t ? (void *)h : (void *)hf, R * C * accel_dtype_size(dt)),
                     *bo = upload(&e, NULL, C * 8);
        const int64_t shape[] = {R, C}, oshape[] = {C};
        accel_array x, out;
        tu_ok(accel_array_init(&x, bx, dt, 2, shape));
        tu_ok(accel_array_init(&out, bo, dt, 1, oshape));
        tu_ok(accel_array_reduce(q, ACCEL_ARRAY_REDUCE_SUM, &x, 1u, 0, &out));
        double got[C];
        float gotf[C];
        tu_ok(accel_queue_read_blocking(q, bo, 0, t ? (void *)got : (void *)gotf,
                                        C * accel_dtype_size(dt)));
        for (int o = 0; o < C; o++) {
            for (int i = 0; i < R; i++)
                col[i] = t ? h[i * C + o] : (double)hf[i * C + o];
            for (int c = 0; c < P; c++)
                part[c] = lanes8(col + c * L, c * L + L <= R ? L : R - c * L);
            double want = lanes8(part, P), have = t ? got[o] : (double)gotf[o];
            if (!t)
                want = (double)(float)want;
            cr_assert(have == want, "%s out[%d] = %.17g, the documented order gives %.17g",
                      accel_dtype_name(dt), o, have, want);
        }
        accel_buffer_release(bx);
        accel_buffer_release(bo);
    }
    free(h);
    free(hf);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

Test(array_reduce, empty_and_bad_input)
{
    accel_runtime *rt = open_rt();
    env e = cpu_env(rt);
    accel_queue *q = e.q;
    double host[16];
    for (int i = 0; i < 16; i++)
        host[i] = 7.0;
    accel_buffer *bx = upload(&e, host, sizeof host), *bo = upload(&e, host, sizeof host);
    const int64_t s03[] = {0, 3}, s3[] = {3}, s23[] = {2, 3}, s2[] = {2};
    accel_array x, out;
    /* sum over an empty axis: the identity; prod: 1; mean: NaN */
    tu_ok(accel_array_init(&x, bx, ACCEL_F64, 2, s03));
    tu_ok(accel_array_init(&out, bo, ACCEL_F64, 1, s3));
    tu_ok(accel_array_reduce(q, ACCEL_ARRAY_REDUCE_SUM, &x, 1u, 0, &out));
    double got[3];
    tu_ok(accel_queue_read_blocking(q, bo, 0, got, sizeof got));
    cr_assert(got[0] == 0 && got[1] == 0 && got[2] == 0);
    tu_ok(accel_array_reduce(q, ACCEL_ARRAY_REDUCE_MEAN, &x, 1u, 0, &out));
    tu_ok(accel_queue_read_blocking(q, bo, 0, got, sizeof got));
    cr_assert(isnan(got[0]) && isnan(got[2]));
    /* the same x over a buffer of no bytes (an empty .npy read by `accel run
     * array`): the kernel takes none of it (it asked for one element) */
    accel_buffer *b0;
    tu_ok(accel_buffer_create(e.dev, 0, &b0));
    {
        accel_array x0, o0;
        tu_ok(accel_array_init(&x0, b0, ACCEL_F64, 2, s03));
        tu_ok(accel_array_reduce(q, ACCEL_ARRAY_REDUCE_PROD, &x0, 1u, 0, &out));
        tu_ok(accel_queue_read_blocking(q, bo, 0, got, sizeof got));
        cr_assert(got[0] == 1 && got[1] == 1 && got[2] == 1, "prod over no bytes: %g", got[0]);
        tu_ok(accel_array_init(&o0, bo, ACCEL_F64, 0, NULL));
        tu_ok(accel_array_reduce(q, ACCEL_ARRAY_REDUCE_SUM, &x0, 3u, 0, &o0));
        tu_ok(accel_queue_read_blocking(q, bo, 0, got, sizeof got));
        cr_assert(got[0] == 0 && got[1] == 1, "sum of all over no bytes: %g", got[0]);
        accel_buffer_release(b0);
    }
    tu_assert_status(accel_array_reduce(q, ACCEL_ARRAY_REDUCE_MAX, &x, 1u, 0, &out),
                     ACCEL_ERROR_INVALID_ARGUMENT, "max of nothing");
    cr_assert(strstr(accel_last_error(), "no identity"), "%s", accel_last_error());
    tu_ok(accel_queue_write_blocking(q, bo, 0, host, sizeof host));
    tu_ok(accel_array_init(&x, bx, ACCEL_F64, 2, s23));
    tu_ok(accel_array_init(&out, bo, ACCEL_F64, 1, s2));
    tu_assert_status(accel_array_reduce(q, ACCEL_ARRAY_REDUCE_SUM, &x, 8u, 0, &out),
                     ACCEL_ERROR_INVALID_ARGUMENT, "axis 3");
    cr_assert(strstr(accel_last_error(), "axes_mask"), "%s", accel_last_error());
    tu_assert_status(accel_array_reduce(q, ACCEL_ARRAY_REDUCE_SUM, &x, 1u, 0, &out),
                     ACCEL_ERROR_SHAPE_MISMATCH, "out (2,) for (3,)");
    tu_assert_status(accel_array_reduce(q, ACCEL_ARRAY_REDUCE_SUM, &x, 2u, 1, &out),
                     ACCEL_ERROR_SHAPE_MISMATCH, "keepdims wants (2, 1)");
    accel_array oi = out;
    oi.dtype = ACCEL_I64;
    tu_assert_status(accel_array_reduce(q, ACCEL_ARRAY_REDUCE_SUM, &x, 2u, 0, &oi),
                     ACCEL_ERROR_DTYPE_MISMATCH, "sum of f64 is f64");
    accel_array xi = x;
    xi.dtype = ACCEL_I32;
    tu_assert_status(accel_array_reduce(q, ACCEL_ARRAY_REDUCE_MEAN, &xi, 2u, 0, &out),
                     ACCEL_ERROR_DTYPE_MISMATCH, "mean of ints");
    accel_array ox = out;
    ox.buffer = bx; /* out inside x */
    tu_assert_status(accel_array_reduce(q, ACCEL_ARRAY_REDUCE_SUM, &x, 2u, 0, &ox),
                     ACCEL_ERROR_INVALID_ARGUMENT, "overlap");
    tu_assert_status(accel_array_reduce(q, (accel_array_reduce_fn)12, &x, 2u, 0, &out),
                     ACCEL_ERROR_INVALID_ARGUMENT, "fn 12");
    accel_array bad = x;
    bad.shape[0] = 1000;
    tu_assert_status(accel_array_reduce(q, ACCEL_ARRAY_REDUCE_SUM, &bad, 2u, 0, &out),
                     ACCEL_ERROR_OUT_OF_RANGE, "past");
    double back[16];
    tu_ok(accel_queue_read_blocking(q, bo, 0, back, sizeof back));
    cr_assert(memcmp(back, host, sizeof back) == 0, "out changed by refused calls");
    accel_buffer_release(bx);
    accel_buffer_release(bo);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

/* complex64 and complex128: sum, prod, mean, any, all over one axis of a
 * (3, 4) array and over both, against a plain double-complex loop in the
 * kernel's order (row-major over the reduced axes, double accumulators,
 * the schoolbook product); min, max, argmin and argmax are refused (complex
 * numbers are not ordered). */
static void complex_case(env *e, accel_dtype dt)
{
    const bool single = dt == ACCEL_C64;
    double re[12], im[12];
    tu_rng r = tu_rng_make(dt == ACCEL_C64 ? 5 : 6);
    for (int i = 0; i < 12; i++) {
        re[i] = i == 5 ? 0 : tu_rng_range(&r, -2.0, 2.0);
        im[i] = i == 5 ? 0 : tu_rng_range(&r, -2.0, 2.0);
        if (single)
            re[i] = (float)re[i], im[i] = (float)im[i];
    }
    float hf[24];
    double hd[24];
    for (int i = 0; i < 12; i++)
        hf[2 * i] = (float)re[i], hf[2 * i + 1] = (float)im[i], hd[2 * i] = re[i],
               hd[2 * i + 1] = im[i];
    size_t es = single ? 8 : 16;
    accel_buffer *bx = upload(e, single ? (const void *)hf : (const void *)hd, 12 * es);
    accel_buffer *bo = upload(e, NULL, 4 * es);
    const int64_t s34[] = {3, 4}, s4[] = {4};
    accel_array x, out, ob;
    tu_ok(accel_array_init(&x, bx, dt, 2, s34));
    tu_ok(accel_array_init(&out, bo, dt, 1, s4));
    tu_ok(accel_array_init(&ob, bo, ACCEL_BOOL, 1, s4));
    const accel_array_reduce_fn fns[] = {ACCEL_ARRAY_REDUCE_SUM, ACCEL_ARRAY_REDUCE_PROD,
                                         ACCEL_ARRAY_REDUCE_MEAN, ACCEL_ARRAY_REDUCE_ANY,
                                         ACCEL_ARRAY_REDUCE_ALL};
    for (size_t f = 0; f < 5; f++) {
        bool truth = f >= 3;
        tu_ok(accel_array_reduce(e->q, fns[f], &x, 1u, 0, truth ? &ob : &out)); /* over axis 0 */
        double got[8];
        unsigned char gb[4];
        if (truth) {
            tu_ok(accel_queue_read_blocking(e->q, bo, 0, gb, 4));
        } else if (single) {
            float g[8];
            tu_ok(accel_queue_read_blocking(e->q, bo, 0, g, sizeof g));
            for (int i = 0; i < 8; i++)
                got[i] = g[i];
        } else {
            tu_ok(accel_queue_read_blocking(e->q, bo, 0, got, sizeof got));
        }
        for (int c = 0; c < 4; c++) {
            double ar = f == 1 ? 1 : 0, ai = 0;
            int any = 0, all = 1;
            for (int i = 0; i < 3; i++) {
                double br = re[4 * i + c], bi = im[4 * i + c];
                any |= br != 0 || bi != 0;
                all &= br != 0 || bi != 0;
                if (f == 1) {
                    double t = ar * br - ai * bi;
                    ai = ar * bi + ai * br, ar = t;
                } else {
                    ar += br, ai += bi;
                }
            }
            if (f == 2)
                ar /= 3, ai /= 3;
            if (truth) {
                cr_assert_eq(gb[c], f == 3 ? any : all, "%s col %d",
                             accel_array_reduce_name(fns[f]), c);
                continue;
            }
            double wr = single ? (float)ar : ar, wi = single ? (float)ai : ai;
            cr_assert(got[2 * c] == wr && got[2 * c + 1] == wi,
                      "%s %s col %d: (%.17g, %.17g) want (%.17g, %.17g)",
                      accel_array_reduce_name(fns[f]), accel_dtype_name(dt), c, got[2 * c],
                      got[2 * c + 1], wr, wi);
        }
    }
    const accel_array_reduce_fn ordered[] = {ACCEL_ARRAY_REDUCE_MIN, ACCEL_ARRAY_REDUCE_MAX,
                                             ACCEL_ARRAY_REDUCE_ARGMIN, ACCEL_ARRAY_REDUCE_ARGMAX};
    for (size_t f = 0; f < 4; f++) {
        tu_assert_status(accel_array_reduce(e->q, ordered[f], &x, 1u, 0, &out),
                         ACCEL_ERROR_DTYPE_MISMATCH, "not ordered");
        cr_assert(strstr(accel_last_error(), "does not take"), "%s", accel_last_error());
    }
    accel_buffer_release(bx);
    accel_buffer_release(bo);
}

Test(array_reduce, complex_sum_prod_mean_any_all)
{
    accel_runtime *rt = open_rt();
    env e = cpu_env(rt);
    accel_queue *q = e.q;
    complex_case(&e, ACCEL_C64);
    complex_case(&e, ACCEL_C128);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

/* ------------------------------------------------------------ chunked */

/* Reductions long enough to run in chunks (few outputs, many elements
 * each: x into partials, partials into out), on every device, against
 * reduce_ref's row-major fold. The values make the comparison exact in any
 * order: small integers (ties for min, max and the args), -1, 0 and 1 for
 * floats (sums exact in double, products free of overflow), two NaN (or
 * two 3s) among zeros (the first NaN, the first extreme, across chunks),
 * all ones (every element ties). */
typedef struct big_case {
    uint32_t nd;
    int64_t shape[3];
    uint64_t mask;
    int layout; /* 0 contiguous, 1 reversed (1-D), 2 the transpose of (shape[1], shape[0]) */
} big_case;

static const big_case big_cases[] = {
    {1, {200003}, 1, 0},     /* whole, contiguous: f32/f64 sum, max, min by the built-in op */
    {1, {200003}, 1, 1},     /* whole, reversed: two levels of partials */
    {2, {7, 30011}, 2, 0},   /* rows */
    {2, {30011, 7}, 1, 2},   /* a transposed view's columns */
    {2, {30011, 7}, 1, 0},   /* columns: work items output-fastest */
    {3, {3, 50, 700}, 5, 0}, /* axes 0 and 2: two reduced axes that do not merge */
};

enum { BIG_N = 210100 };

static void big_values(tu_rng *r, accel_dtype dt, int variant, void *host)
{
    size_t k1 = 1000 + tu_rng_next(r) % 100000, k2 = k1 + 1 + tu_rng_next(r) % 100000;
    for (size_t i = 0; i < BIG_N; i++) {
        val v = {0};
        bool f = is_float(dt) || kind(dt) == ACCEL_DTYPE_KIND_COMPLEX;
        if (variant == 0)
            v.i = dt == ACCEL_BOOL                    ? (int64_t)(tu_rng_next(r) & 1u)
                  : f                                 ? (int64_t)(tu_rng_next(r) % 3) - 1
                  : kind(dt) == ACCEL_DTYPE_KIND_UINT ? (int64_t)(tu_rng_next(r) % 5)
                                                      : (int64_t)(tu_rng_next(r) % 9) - 4;
        else if (variant == 1)
            v.i = i == k1 || i == k2 ? (dt == ACCEL_BOOL ? 1 : 3) : 0;
        else
            v.i = 1;
        if (f)
            v.f = variant == 1 && v.i ? NAN : (double)v.i;
        if (kind(dt) == ACCEL_DTYPE_KIND_COMPLEX) {
            double *p = (double *)host; /* written as parts of complex128, narrowed below */
            p[2 * i] = v.f, p[2 * i + 1] = variant == 0 ? (double)(tu_rng_next(r) % 3) - 1 : 0;
        } else {
            put(host, dt, i, v);
        }
    }
    if (dt == ACCEL_C64) /* in place: part k of complex64 is before part k of complex128 */
        for (size_t k = 0; k < 2 * (size_t)BIG_N; k++)
            ((float *)host)[k] = (float)((double *)host)[k];
}

/* out's axes: the case's one kept axis, or none. */
static uint32_t big_out_nd(const big_case *c)
{
    return c->nd - (uint32_t)__builtin_popcountll(c->mask);
}

static accel_array big_view(accel_buffer *b, accel_dtype dt, const big_case *c)
{
    accel_array x;
    tu_ok(accel_array_init(&x, b, dt, c->nd, c->shape));
    if (c->layout == 1) {
        x.strides[0] = -1;
        x.offset = (uint64_t)(c->shape[0] - 1) * accel_dtype_size(dt);
    } else if (c->layout == 2) {
        x.strides[0] = 1;
        x.strides[1] = c->shape[0];
    }
    return x;
}

/* x's elements as reduce_ref takes them, output by output: vals[i * m + j]
 * is reduced element j (row-major over the reduced axes) of output i. */
static void big_gather(const accel_array *x, const void *host, uint64_t mask, val *vals,
                       int64_t *n_out, int64_t *m_out)
{
    int64_t n = 1, m = 1;
    for (uint32_t d = 0; d < x->ndim; d++)
        (void)((mask >> d & 1u) ? (m *= x->shape[d]) : (n *= x->shape[d]));
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < m; j++) {
            int64_t idx[3], ri = i, rj = j;
            for (uint32_t d = x->ndim; d-- > 0;) {
                int64_t *q = (mask >> d & 1u) ? &rj : &ri;
                idx[d] = *q % x->shape[d];
                *q /= x->shape[d];
            }
            vals[i * m + j] = elem_at(x, host, idx);
        }
    *n_out = n, *m_out = m;
}

static void big_complex(env *e, const big_case *c, accel_buffer *bx, const void *host,
                        accel_dtype dt, val *re, val *im)
{
    accel_array x = big_view(bx, dt, c), xr = x; /* xr: the real parts as a float view */
    xr.dtype = dt == ACCEL_C64 ? ACCEL_F32 : ACCEL_F64;
    for (uint32_t d = 0; d < x.ndim; d++)
        xr.strides[d] *= 2;
    int64_t n, m;
    big_gather(&xr, host, c->mask, re, &n, &m);
    xr.offset += accel_dtype_size(xr.dtype);
    big_gather(&xr, host, c->mask, im, &n, &m);
    accel_buffer *bo = upload(e, NULL, (size_t)n * 16);
    const accel_array_reduce_fn fns[] = {ACCEL_ARRAY_REDUCE_SUM, ACCEL_ARRAY_REDUCE_MEAN,
                                         ACCEL_ARRAY_REDUCE_ANY, ACCEL_ARRAY_REDUCE_ALL};
    for (size_t f = 0; f < 4; f++) {
        bool truth = f >= 2;
        accel_array out;
        tu_ok(accel_array_init(&out, bo, truth ? ACCEL_BOOL : dt, big_out_nd(c), &n));
        tu_ok(accel_array_reduce(e->q, fns[f], &x, c->mask, 0, &out));
        double got[2 * 30011];
        unsigned char gb[30011];
        if (truth)
            tu_ok(accel_queue_read_blocking(e->q, bo, 0, gb, (size_t)n));
        else if (dt == ACCEL_C128)
            tu_ok(accel_queue_read_blocking(e->q, bo, 0, got, (size_t)n * 16));
        else {
            float g[2 * 30011];
            tu_ok(accel_queue_read_blocking(e->q, bo, 0, g, (size_t)n * 8));
            for (int64_t k = 0; k < 2 * n; k++)
                got[k] = g[k];
        }
        for (int64_t i = 0; i < n; i++) {
            double sr = 0, si = 0;
            bool any = false, all = true;
            for (int64_t j = 0; j < m; j++) {
                double a = re[i * m + j].f, b = im[i * m + j].f;
                sr += a, si += b, any |= a != 0 || b != 0, all &= a != 0 || b != 0;
            }
            if (truth) {
                cr_assert_eq(gb[i], f == 2 ? any : all, "%s %s out[%lld]",
                             accel_array_reduce_name(fns[f]), accel_dtype_name(dt), (long long)i);
                continue;
            }
            if (f == 1)
                sr /= (double)m, si /= (double)m;
            double wr = dt == ACCEL_C64 ? (float)sr : sr, wi = dt == ACCEL_C64 ? (float)si : si;
            cr_assert(got[2 * i] == wr && got[2 * i + 1] == wi,
                      "%s %s out[%lld]: (%.17g, %.17g) want (%.17g, %.17g)",
                      accel_array_reduce_name(fns[f]), accel_dtype_name(dt), (long long)i,
                      got[2 * i], got[2 * i + 1], wr, wi);
        }
    }
    accel_buffer_release(bo);
}

/* Every reduction of one case, dtype and variant; elements checked. */
static unsigned big_real(env *e, const big_case *c, accel_buffer *bx, const void *host,
                         accel_dtype dt, val *vals)
{
    accel_array x = big_view(bx, dt, c);
    int64_t n, m;
    big_gather(&x, host, c->mask, vals, &n, &m);
    accel_buffer *bo = upload(e, NULL, (size_t)n * 8 + 64);
    unsigned checked = 0;
    for (int f = 1; f < ACCEL_ARRAY_REDUCE_LIMIT_; f++) {
        accel_array_reduce_fn fn = (accel_array_reduce_fn)f;
        accel_dtype rdt = result_of(fn, dt);
        if (!strcmp(accel_array_reduce_name(fn), "unknown") || rdt == ACCEL_DTYPE_INVALID)
            continue;
        unsigned char got[30011 * 8 + 64];
        memset(got, 0xa5, sizeof got);
        tu_ok(accel_queue_write_blocking(e->q, bo, 0, got, (size_t)n * 8 + 64));
        accel_array out;
        tu_ok(accel_array_init(&out, bo, rdt, big_out_nd(c), &n));
        tu_assert_status(accel_array_reduce(e->q, fn, &x, c->mask, 0, &out), ACCEL_SUCCESS, "%s %s",
                         accel_array_reduce_name(fn), accel_dtype_name(dt));
        tu_ok(accel_queue_read_blocking(e->q, bo, 0, got, (size_t)n * 8 + 64));
        for (int64_t i = 0; i < n; i++) {
            val want = reduce_ref(fn, dt, vals + i * m, m), have = get(got, rdt, (size_t)i);
            /* a whole float mean may be the built-in sum times 1/m (array.h) */
            unsigned tol = fn == ACCEL_ARRAY_REDUCE_MEAN && n == 1 ? 2 : 0;
            bool ok = is_float(rdt) ? close_enough(rdt, have.f, want.f, tol) : have.u == want.u;
            cr_assert(ok, "%s %s, %lld outputs of %lld elements: out[%lld] = 0x%llx, want 0x%llx",
                      accel_array_reduce_name(fn), accel_dtype_name(dt), (long long)n, (long long)m,
                      (long long)i, (unsigned long long)have.u, (unsigned long long)want.u);
            checked++;
        }
        for (size_t b = (size_t)n * accel_dtype_size(rdt); b < (size_t)n * 8 + 64; b++)
            cr_assert_eq(got[b], 0xa5, "%s: byte %zu past out written", accel_array_reduce_name(fn),
                         b);
    }
    accel_buffer_release(bo);
    return checked;
}

static void every_chunked_reduction(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    static const accel_dtype dts[] = {ACCEL_BOOL, ACCEL_I8,  ACCEL_U16, ACCEL_I32, ACCEL_U64,
                                      ACCEL_F16,  ACCEL_F32, ACCEL_F64, ACCEL_C64, ACCEL_C128};
    void *host = malloc((size_t)BIG_N * 16);
    val *vals = malloc((size_t)BIG_N * sizeof *vals), *im = malloc((size_t)BIG_N * sizeof *im);
    tu_rng r = tu_rng_make(32);
    unsigned checked = 0;
    for (size_t t = 0; t < sizeof dts / sizeof dts[0]; t++) {
        if (!tu_device_has_dtype(dev, dts[t]))
            continue;
        for (int variant = 0; variant < 3; variant++) {
            big_values(&r, dts[t], variant, host);
            accel_buffer *bx = upload(&e, host, (size_t)BIG_N * accel_dtype_size(dts[t]));
            for (size_t k = 0; k < sizeof big_cases / sizeof big_cases[0]; k++) {
                if (kind(dts[t]) == ACCEL_DTYPE_KIND_COMPLEX)
                    big_complex(&e, &big_cases[k], bx, host, dts[t], vals, im);
                else
                    checked += big_real(&e, &big_cases[k], bx, host, dts[t], vals);
            }
            accel_buffer_release(bx);
        }
    }
    free(host);
    free(vals);
    free(im);
    cr_assert_gt(checked, 5000u, "elements checked: %u", checked);
}

Test(array_reduce, chunked_reductions_every_device)
{
    accel_runtime *rt = open_rt();
    tu_for_each_device(rt, every_chunked_reduction, NULL);
    accel_runtime_close(rt);
}

/* Verify mode checks each kernel of a chunked reduction (x into partials,
 * partials into partials, partials into out) against the CPU. */
Test(array_reduce, chunked_reductions_verified)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_verify_runtime(&dev, &q);
    env e = {dev, q};
    void *host = malloc((size_t)BIG_N * 8);
    val *vals = malloc((size_t)BIG_N * sizeof *vals);
    tu_rng r = tu_rng_make(33);
    big_values(&r, ACCEL_I32, 0, host);
    accel_buffer *bx = upload(&e, host, (size_t)BIG_N * 4);
    unsigned checked = big_real(&e, &big_cases[1], bx, host, ACCEL_I32, vals);
    cr_assert_eq(checked, 8u, "the 8 reductions of int32, one output each");
    /* 2 kernels each: x into one level of partials, those into out (a CPU
     * device's split of a fold whose order does not matter: 51 chunks of
     * 4120; a GPU's 128-element chunks make two levels) */
    assert_all_verified(rt, 8 * 2);
    free(host);
    free(vals);
    accel_buffer_release(bx);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

/* ------------------------------------------------------------ the scratch */

/* An int32 sum of M ones on q into a 0-d int64 out: chunked. */
enum { SCRATCH_M = 1 << 18 };

static accel_buffer *ones_i32(env *e, int32_t v)
{
    int32_t *h = malloc(SCRATCH_M * sizeof *h);
    for (int i = 0; i < SCRATCH_M; i++)
        h[i] = v;
    accel_buffer *b = upload(e, h, SCRATCH_M * sizeof *h);
    free(h);
    return b;
}

static void sum_view(accel_buffer *bx, accel_buffer *bo, accel_array *x, accel_array *o)
{
    const int64_t shape[] = {SCRATCH_M};
    tu_ok(accel_array_init(x, bx, ACCEL_I32, 1, shape));
    tu_ok(accel_array_init(o, bo, ACCEL_I64, 0, NULL));
}

/* A runtime (array_runtime: cpu:0 and a queue), SCRATCH_M int32 values v
 * in bx and an 8-byte bo, viewed as the sum's x and o (sum_view). */
typedef struct sum_setup {
    accel_runtime *rt;
    accel_device *dev;
    accel_queue *q;
    accel_buffer *bx, *bo;
    accel_array x, o;
} sum_setup;

static void sum_setup_open(sum_setup *f, int32_t v)
{
    f->rt = array_runtime(&f->dev, &f->q);
    env e = {f->dev, f->q};
    f->bx = ones_i32(&e, v);
    f->bo = upload(&e, NULL, 8);
    sum_view(f->bx, f->bo, &f->x, &f->o);
}

/* A captured chunked reduction launched on two queues in turn, rebound in
 * between: the launches share the graph's scratch temporary, so the second
 * waits for the first (accel_graph_launch). */
Test(array_reduce, captured_chain_launched_on_two_queues)
{
    accel_device *dev;
    accel_queue *q, *q2;
    accel_runtime *rt = array_runtime(&dev, &q);
    tu_ok(accel_queue_create(dev, &q2));
    env e = {dev, q};
    accel_buffer *x1 = ones_i32(&e, 1), *x2 = ones_i32(&e, 3);
    accel_buffer *o1 = upload(&e, NULL, 8), *o2 = upload(&e, NULL, 8);
    accel_array x, o;
    sum_view(x1, o1, &x, &o);
    accel_graph *g;
    tu_ok(accel_queue_begin_capture(q));
    tu_ok(accel_array_reduce(q, ACCEL_ARRAY_REDUCE_SUM, &x, 1u, 0, &o));
    tu_ok(accel_queue_end_capture(q, &g));
    cr_assert_eq(accel_graph_temporary_count(g), 1u, "the partials' scratch is the graph's");
    for (int it = 0; it < 20; it++) {
        tu_ok(accel_graph_launch(g, q));
        tu_ok(accel_graph_set_buffer(g, x1, x2));
        tu_ok(accel_graph_set_buffer(g, o1, o2));
        tu_ok(accel_graph_launch(g, q2));
        tu_ok(accel_queue_finish(q));
        tu_ok(accel_queue_finish(q2));
        int64_t r1, r2;
        tu_ok(accel_queue_read_blocking(q, o1, 0, &r1, 8));
        tu_ok(accel_queue_read_blocking(q, o2, 0, &r2, 8));
        cr_assert(r1 == SCRATCH_M && r2 == 3 * SCRATCH_M, "launch %d: %lld, %lld", it,
                  (long long)r1, (long long)r2);
        tu_ok(accel_graph_set_buffer(g, x2, x1));
        tu_ok(accel_graph_set_buffer(g, o2, o1));
    }
    accel_graph_release(g);
    accel_queue_release(q2);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

typedef struct capture_job {
    accel_queue *q;
    const accel_array *x, *o;
    accel_status st;
} capture_job;

static void *reduce_on(void *p)
{
    capture_job *j = p;
    j->st = accel_array_reduce(j->q, ACCEL_ARRAY_REDUCE_SUM, j->x, 1u, 0, j->o);
    return NULL;
}

/* A chunked reduction enqueued by another thread on a capturing queue is
 * recorded, its scratch kept by the graph (it was released at once). */
Test(array_reduce, chain_enqueued_by_another_thread_is_captured)
{
    sum_setup f;
    sum_setup_open(&f, 2);
    accel_graph *g;
    tu_ok(accel_queue_begin_capture(f.q));
    capture_job j = {f.q, &f.x, &f.o, ACCEL_ERROR_INTERNAL};
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, reduce_on, &j), 0);
    pthread_join(t, NULL);
    tu_ok(j.st);
    tu_ok(accel_queue_end_capture(f.q, &g));
    for (int it = 0; it < 3; it++) {
        int64_t zero = 0, r;
        tu_ok(accel_queue_write_blocking(f.q, f.bo, 0, &zero, 8));
        tu_ok(accel_graph_launch(g, f.q));
        tu_ok(accel_queue_read_blocking(f.q, f.bo, 0, &r, 8));
        cr_assert_eq(r, 2 * SCRATCH_M, "replay %d: %lld", it, (long long)r);
    }
    accel_graph_release(g);
    accel_queue_release(f.q);
    accel_runtime_close(f.rt);
}

static atomic_int reduce_returned;

/* A chunked sum on q while a host function on `held` (q itself, or a
 * second queue) waits until the sum's call has returned: the call waits
 * for no queue, so it returns, the host function ends and the sum is
 * right. */
static void reduce_beside_a_held_up_queue(bool same_queue)
{
    sum_setup f;
    sum_setup_open(&f, 1);
    accel_queue *q2;
    tu_ok(accel_queue_create(f.dev, &q2));
    accel_queue *held = same_queue ? f.q : q2;
    atomic_store(&reduce_returned, 0);
    tu_ok(accel_queue_host_fn(held, "hold_until_set", hold_until_set, &reduce_returned));
    tu_ok(accel_array_reduce(f.q, ACCEL_ARRAY_REDUCE_SUM, &f.x, 1u, 0, &f.o));
    atomic_store(&reduce_returned, 1);
    tu_ok(accel_queue_finish(held));
    int64_t r;
    tu_ok(accel_queue_read_blocking(f.q, f.bo, 0, &r, 8));
    cr_assert_eq(r, SCRATCH_M);
    accel_buffer_release(f.bx);
    accel_buffer_release(f.bo);
    accel_queue_release(q2);
    accel_queue_release(f.q);
    accel_runtime_close(f.rt);
}

/* Another queue, held up by a host function until the reduction has
 * returned, does not hold the reduction up. */
Test(array_reduce, chain_waits_for_its_queue_only)
{
    reduce_beside_a_held_up_queue(false);
}

/* Nor does its own queue: its partials are the queue's kept scratch
 * (arrays/scratch.c), so it neither allocates nor waits (it had waited for
 * its queue to free a scratch of its own, and failed after the host
 * function's 10 s). */
Test(array_reduce, chain_on_a_held_up_queue_returns_at_once)
{
    reduce_beside_a_held_up_queue(true);
}

typedef struct scratch_job {
    accel_device *dev;
    accel_queue *q;
    tu_rng r; /* made on the main thread: tu_seed logs through Criterion */
    unsigned bad;
    accel_status st;
    char msg[256];
} scratch_job;

/* 12 int32 sums and maxes of growing, random sizes on j->q, each against
 * a host loop: the queue's scratch grows under the work of another thread
 * that shares q. No Criterion assertion off the main thread: the first
 * failing call's status and message are kept. */
static void *scratch_worker(void *p)
{
    scratch_job *j = p;
    tu_rng r = j->r;
    for (int it = 0; it < 12 && j->st == ACCEL_SUCCESS; it++) {
        int64_t n = 5000 + (int64_t)(tu_rng_unit(&r) * (double)(40000 * (it + 1)));
        int32_t *h = malloc((size_t)n * sizeof *h);
        int64_t sum = 0;
        int32_t mx = INT32_MIN;
        for (int64_t i = 0; i < n; i++) {
            h[i] = (int32_t)(tu_rng_next(&r) % 2001) - 1000;
            sum += h[i];
            mx = h[i] > mx ? h[i] : mx;
        }
        accel_buffer *bx = NULL, *bo = NULL;
        const int64_t shape[] = {n};
        accel_array x, os, om;
        unsigned char got[16];
        accel_status st = accel_buffer_create(j->dev, (size_t)n * sizeof *h, &bx);
        if (st == ACCEL_SUCCESS)
            st = accel_buffer_create(j->dev, 16, &bo);
        if (st == ACCEL_SUCCESS)
            st = accel_queue_write_blocking(j->q, bx, 0, h, (size_t)n * sizeof *h);
        if (st == ACCEL_SUCCESS)
            st = accel_array_init(&x, bx, ACCEL_I32, 1, shape);
        if (st == ACCEL_SUCCESS)
            st = accel_array_init(&os, bo, ACCEL_I64, 0, NULL);
        if (st == ACCEL_SUCCESS)
            st = accel_array_init(&om, bo, ACCEL_I32, 0, NULL);
        om.offset = 8; /* bytes 8..11 of bo */
        if (st == ACCEL_SUCCESS)
            st = accel_array_reduce(j->q, ACCEL_ARRAY_REDUCE_SUM, &x, 1u, 0, &os);
        if (st == ACCEL_SUCCESS)
            st = accel_array_reduce(j->q, ACCEL_ARRAY_REDUCE_MAX, &x, 1u, 0, &om);
        if (st == ACCEL_SUCCESS)
            st = accel_queue_read_blocking(j->q, bo, 0, got, 16);
        if (st == ACCEL_SUCCESS) {
            int64_t gs;
            int32_t gm;
            memcpy(&gs, got, 8);
            memcpy(&gm, got + 8, 4);
            j->bad += (gs != sum) + (gm != mx);
        } else {
            j->st = st;
            snprintf(j->msg, sizeof j->msg, "%s", accel_last_error());
        }
        accel_buffer_release(bx);
        accel_buffer_release(bo);
        free(h);
    }
    return NULL;
}

/* Four threads, two on one queue and one on each of two others, reduce at
 * once; a queue is then released with its scratch, and the runtime closed
 * with another's still held (each freed once: ASan, Valgrind). */
static void scratch_threads(accel_device *dev, accel_queue *q0, void *user)
{
    (void)q0;
    (void)user;
    accel_queue *qs[3];
    for (int i = 0; i < 3; i++)
        tu_ok(accel_queue_create(dev, &qs[i]));
    scratch_job jobs[4] = {{dev, qs[0], tu_rng_make(41), 0, ACCEL_SUCCESS, ""},
                           {dev, qs[0], tu_rng_make(42), 0, ACCEL_SUCCESS, ""},
                           {dev, qs[1], tu_rng_make(43), 0, ACCEL_SUCCESS, ""},
                           {dev, qs[2], tu_rng_make(44), 0, ACCEL_SUCCESS, ""}};
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        cr_assert_eq(pthread_create(&t[i], NULL, scratch_worker, &jobs[i]), 0);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(jobs[i].st, ACCEL_SUCCESS, "%s, thread %d: %s", accel_device_name(dev), i,
                     jobs[i].msg);
        cr_assert_eq(jobs[i].bad, 0u, "%s, thread %d: %u of 24 results wrong",
                     accel_device_name(dev), i, jobs[i].bad);
    }
    accel_queue_release(qs[0]);
    accel_queue_release(qs[1]);
    (void)qs[2]; /* left to accel_runtime_close */
}

Test(array_reduce, scratch_shared_by_threads_and_queues)
{
    accel_runtime *rt = open_rt();
    tu_for_each_device(rt, scratch_threads, NULL);
    accel_runtime_close(rt);
}

typedef struct loop_job {
    accel_queue *q;
    const accel_array *x, *o;
    atomic_int *stop;
    atomic_uint done;
} loop_job;

/* Chunked sums on j->q until one fails (the runtime closed) or *stop. */
static void *reduce_loop(void *p)
{
    loop_job *j = p;
    while (!atomic_load(j->stop) &&
           accel_array_reduce(j->q, ACCEL_ARRAY_REDUCE_SUM, j->x, 1u, 0, j->o) == ACCEL_SUCCESS) {
        if ((atomic_fetch_add(&j->done, 1) + 1) % 4 == 0 &&
            accel_queue_finish(j->q) != ACCEL_SUCCESS)
            break; /* a few in flight at a time: close drains them */
    }
    return NULL;
}

/* accel_runtime_close while three threads reduce on one queue: close kills
 * the queue's handle while one thread holds the queue's scratch and others
 * wait for it; the holder unlocks it without the handle (it kept the lock
 * when the handle was dead, and close then waited for ever for the
 * waiters' calls: 3 to 4 hangs in 12 closes), so every call returns and
 * close does. */
Test(array_reduce, close_while_threads_reduce_on_one_queue)
{
    for (int round = 0; round < 8; round++) {
        sum_setup f; /* its buffers and queue left to accel_runtime_close */
        sum_setup_open(&f, 1);
        /* the kernels built first, so that the threads reduce at once */
        tu_ok(accel_array_reduce(f.q, ACCEL_ARRAY_REDUCE_SUM, &f.x, 1u, 0, &f.o));
        tu_ok(accel_queue_finish(f.q));
        atomic_int stop;
        atomic_init(&stop, 0);
        loop_job jobs[3] = {
            {f.q, &f.x, &f.o, &stop, 0}, {f.q, &f.x, &f.o, &stop, 0}, {f.q, &f.x, &f.o, &stop, 0}};
        pthread_t t[3];
        for (int i = 0; i < 3; i++)
            cr_assert_eq(pthread_create(&t[i], NULL, reduce_loop, &jobs[i]), 0);
        /* close once the threads are reducing (at most 10 s of waiting) */
        for (int w = 0; w < 10000 && atomic_load(&jobs[0].done) + atomic_load(&jobs[1].done) +
                                             atomic_load(&jobs[2].done) <
                                         12;
             w++)
            usleep(1000);
        accel_runtime_close(f.rt); /* returns: ctest's TIMEOUT is the check */
        for (int i = 0; i < 3; i++)
            pthread_join(t[i], NULL);
        cr_assert_geq(atomic_load(&jobs[0].done) + atomic_load(&jobs[1].done) +
                          atomic_load(&jobs[2].done),
                      12u, "round %d: the threads did not reduce", round);
    }
}
