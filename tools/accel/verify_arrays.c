/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* verify_arrays.c — `accel verify`'s cases of the array layer's functions
 * on complex dtypes (accel/array.h): every row of the elementwise table that
 * takes complex64 and complex128 (accel_array_fn_info), on the device under
 * test and on the CPU reference from the same inputs (the special parts
 * +-0, +-1, +-inf, NaN in both parts, then seeded random ones), compared
 * part by part within the row's tolerance_ulp_complex ulps of the larger
 * part of the reference (the rule of verify mode, docs/arrays.md): NaN
 * meets NaN, an infinity the same infinity (its sign open beside a NaN);
 * and the loop rows that take complex views (cumulative_sum, take,
 * mask_gather), whose results must be the reference's values exactly. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/array.h"
#include "verify_suite.h"

#define VA_N 160 /* elements per case: the 10 x 10 special grid, then random */

static const double special[] = {0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 1e-30, INFINITY, -INFINITY, NAN};

/* Input k of a case as complex parts (double), from the case's seed. */
static void gen_parts(double *p, uint64_t seed, int k)
{
    for (size_t i = 0; i < VA_N; i++) {
        if (i < 100) {
            p[2 * i] = special[k ? i % 10 : i / 10];
            p[2 * i + 1] = special[k ? i / 10 : i % 10];
            continue;
        }
        for (int t = 0; t < 2; t++) {
            uint64_t u = verify_mix(seed ^ verify_mix(2 * i + (size_t)t + 1000u * (size_t)k));
            p[2 * i + (size_t)t] = ((double)(u >> 11) * 0x1p-53 - 0.5) * 8.0;
        }
    }
}

/* A device's result: the inputs uploaded, fn run, out read back. */
static accel_status run_on(accel_device *dev, accel_queue *q, accel_array_fn fn, accel_dtype dt,
                           accel_dtype odt, const double *const in[2], void *out)
{
    const accel_array_fn_properties *p = accel_array_fn_info(fn);
    size_t es = accel_dtype_size(dt), os = accel_dtype_size(odt);
    accel_buffer *b[3] = {NULL, NULL, NULL};
    accel_array a[3];
    int64_t n = VA_N;
    accel_status st = ACCEL_SUCCESS;
    for (uint32_t k = 0; k <= p->arity && st == ACCEL_SUCCESS; k++) {
        bool is_out = k == p->arity;
        st = accel_buffer_create(dev, VA_N * (is_out ? os : es), &b[k]);
        if (st == ACCEL_SUCCESS)
            st = accel_array_init(&a[k], b[k], is_out ? odt : dt, 1, &n);
        if (st == ACCEL_SUCCESS && !is_out) {
            float f[2 * VA_N];
            for (size_t i = 0; i < 2 * VA_N; i++)
                f[i] = (float)in[k][i];
            st = accel_queue_write_blocking(
                q, b[k], 0, dt == ACCEL_C64 ? (const void *)f : (const void *)in[k], VA_N * es);
        }
    }
    if (st == ACCEL_SUCCESS)
        st = p->arity == 1 ? accel_array_unary(q, fn, &a[0], &a[1])
                           : accel_array_binary(q, fn, &a[0], &a[1], &a[2]);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_read_blocking(q, b[p->arity], 0, out, VA_N * os);
    for (int k = 0; k < 3; k++)
        accel_buffer_release(b[k]);
    return st;
}

static double part(accel_dtype odt, const void *p, size_t i)
{
    return odt == ACCEL_F32 || odt == ACCEL_C64 ? (double)((const float *)p)[i]
           : odt == ACCEL_BOOL                  ? (double)((const unsigned char *)p)[i]
                                                : ((const double *)p)[i];
}

/* Element i of got within the bound of exp's (parts per element: w). */
static double ulps_off(accel_dtype odt, const void *got, const void *exp, size_t i, int w)
{
    double g[2] = {0, 0}, x[2] = {0, 0}, big = 0, worst = 0;
    for (int k = 0; k < w; k++) {
        g[k] = part(odt, got, (size_t)w * i + (size_t)k);
        x[k] = part(odt, exp, (size_t)w * i + (size_t)k);
        if (isfinite(x[k]) && fabs(x[k]) > big)
            big = fabs(x[k]);
    }
    bool single = odt == ACCEL_F32 || odt == ACCEL_C64;
    int e = big > 0 ? ilogb(big) : (single ? -126 : -1022);
    double ulp = ldexp(1.0, (e < (single ? -126 : -1022) ? (single ? -126 : -1022) : e) -
                                (single ? 23 : 52));
    for (int k = 0; k < w; k++) {
        bool open = w == 2 && isnan(x[1 - k]) && isinf(g[k]) && isinf(x[k]);
        if (isnan(g[k]) || isnan(x[k]) || isinf(g[k]) || isinf(x[k])) {
            if (!(isnan(g[k]) && isnan(x[k])) && g[k] != x[k] && !open)
                return INFINITY;
        } else if (odt == ACCEL_BOOL ? g[k] != x[k] : fabs(g[k] - x[k]) / ulp > worst) {
            worst = odt == ACCEL_BOOL ? INFINITY : fabs(g[k] - x[k]) / ulp;
        }
    }
    return worst;
}

/* The comparison of a case's n elements (w parts each) within tol ulps (0:
 * the same values, NaN meeting NaN) and its tally; st: the runs' status. */
static void judge(verify_run *vr, const char *name, accel_dtype dt, accel_dtype odt,
                  accel_status st, const void *got, const void *exp, size_t n, int w, unsigned tol)
{
    verify_tally *t = verify_tally_named(vr, name, dt);
    if (st != ACCEL_SUCCESS) {
        printf("%s %s: %s: %s\n", name, accel_dtype_name(dt),
               st == ACCEL_ERROR_UNSUPPORTED ? "unsupported" : "FAIL", accel_last_error());
        if (t && st == ACCEL_ERROR_UNSUPPORTED)
            t->unsupported++;
        else if (t)
            t->fail++;
        return;
    }
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        double u = ulps_off(odt, got, exp, i, w);
        if (u > tol && bad++ == 0)
            printf("%s %s: FAIL: element %zu: got (%.17g, %.17g), expected (%.17g, %.17g): %g "
                   "ulps of the larger part > %u (seed %llu)\n",
                   name, accel_dtype_name(dt), i, part(odt, got, (size_t)w * i),
                   w == 2 ? part(odt, got, 2 * i + 1) : 0.0, part(odt, exp, (size_t)w * i),
                   w == 2 ? part(odt, exp, 2 * i + 1) : 0.0, u, tol, (unsigned long long)vr->seed);
        else if (u <= tol && tol && u / tol > vr->worst)
            vr->worst = u / tol;
    }
    if (vr->verbose)
        printf("%s %s: %zu elements, %zu bad\n", name, accel_dtype_name(dt), n, bad);
    if (t && bad)
        t->fail++;
    else if (t)
        t->pass++;
}

/* One function and dtype: both devices, then the comparison. */
static void one_fn(verify_run *vr, accel_array_fn fn, accel_dtype dt)
{
    const accel_array_fn_properties *p = accel_array_fn_info(fn);
    accel_dtype odt = p->result == ACCEL_ARRAY_RESULT_BOOL ? ACCEL_BOOL
                      : p->result == ACCEL_ARRAY_RESULT_REAL
                          ? (dt == ACCEL_C64 ? ACCEL_F32 : ACCEL_F64)
                          : dt;
    static double in0[2 * VA_N], in1[2 * VA_N];
    uint64_t seed = verify_mix(vr->seed ^ verify_mix(++vr->case_no));
    gen_parts(in0, seed, 0);
    gen_parts(in1, seed, 1);
    const double *const in[2] = {in0, in1};
    static unsigned char got[16 * VA_N], exp[16 * VA_N];
    accel_status st = run_on(vr->ref, vr->rq, fn, dt, odt, in, exp);
    if (st == ACCEL_SUCCESS)
        st = run_on(vr->dev, vr->q, fn, dt, odt, in, got);
    judge(vr, p->name, dt, odt, st, got, exp, VA_N, odt == dt ? 2 : 1, p->tolerance_ulp_complex);
}

/* The loop rows that take complex views (core/arrays/loop.c): a running
 * sum (float64 per part, rounded once per store: the same bits on every
 * backend), a take reversing x, a mask gather of every third element. */
enum { VA_CUMSUM, VA_TAKE, VA_MASK, VA_LOOPS };
static const char *const loop_names[VA_LOOPS] = {"cumulative_sum", "take", "mask_gather"};

static accel_status loop_run(accel_queue *q, int kind, const accel_array *x, const accel_array *k,
                             const accel_array *o)
{
    if (kind == VA_CUMSUM)
        return accel_array_cumulative_sum(q, x, 0, 0, o);
    return kind == VA_TAKE ? accel_array_take(q, x, k, 0, o) : accel_array_mask_gather(q, x, k, o);
}

/* A loop row's result on one device: x uploaded, the row run, its `count`
 * elements read back into out. */
static accel_status loop_on(accel_device *dev, accel_queue *q, int kind, accel_dtype dt,
                            const double *in, void *out, int64_t count)
{
    size_t es = accel_dtype_size(dt);
    int64_t n = VA_N, idx[VA_N];
    unsigned char m[VA_N];
    float f[2 * VA_N];
    for (size_t i = 0; i < VA_N; i++) {
        idx[i] = VA_N - 1 - (int64_t)i;
        m[i] = i % 3 == 0;
        f[2 * i] = (float)in[2 * i], f[2 * i + 1] = (float)in[2 * i + 1];
    }
    bool take = kind == VA_TAKE;
    accel_buffer *b[3] = {NULL, NULL, NULL};
    accel_array x, o, k;
    accel_status st = ACCEL_SUCCESS;
    for (int i = 0; i < 3 && st == ACCEL_SUCCESS; i++)
        st = accel_buffer_create(dev, i < 2 ? VA_N * es : sizeof idx, &b[i]);
    if (st == ACCEL_SUCCESS)
        st = accel_array_init(&x, b[0], dt, 1, &n);
    if (st == ACCEL_SUCCESS)
        st = accel_array_init(&o, b[1], dt, 1, &count);
    if (st == ACCEL_SUCCESS)
        st = accel_array_init(&k, b[2], take ? ACCEL_I64 : ACCEL_BOOL, 1, &n);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_write_blocking(q, b[0], 0, dt == ACCEL_C64 ? (const void *)f : in,
                                        VA_N * es);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_write_blocking(q, b[2], 0, take ? (const void *)idx : (const void *)m,
                                        take ? sizeof idx : sizeof m);
    if (st == ACCEL_SUCCESS)
        st = loop_run(q, kind, &x, &k, &o);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_read_blocking(q, b[1], 0, out, (size_t)count * es);
    for (int i = 0; i < 3; i++)
        accel_buffer_release(b[i]);
    return st;
}

static void one_loop(verify_run *vr, int kind, accel_dtype dt)
{
    static double in[2 * VA_N];
    gen_parts(in, verify_mix(vr->seed ^ verify_mix(++vr->case_no)), 0);
    int64_t count = kind == VA_MASK ? (VA_N + 2) / 3 : VA_N;
    static unsigned char got[16 * VA_N], exp[16 * VA_N];
    accel_status st = loop_on(vr->ref, vr->rq, kind, dt, in, exp, count);
    if (st == ACCEL_SUCCESS)
        st = loop_on(vr->dev, vr->q, kind, dt, in, got, count);
    judge(vr, loop_names[kind], dt, dt, st, got, exp, (size_t)count, 2, 0);
}

void verify_arrays(verify_run *vr)
{
    static const accel_dtype cdt[] = {ACCEL_C64, ACCEL_C128};
    for (int f = 1; f < ACCEL_ARRAY_FN_LIMIT_; f++) {
        const accel_array_fn_properties *p = accel_array_fn_info((accel_array_fn)f);
        if (!p || p->arity > 2 || f == ACCEL_ARRAY_ASTYPE ||
            !((p->kinds >> ACCEL_DTYPE_KIND_COMPLEX) & 1u))
            continue;
        for (size_t d = 0; d < 2; d++)
            one_fn(vr, (accel_array_fn)f, cdt[d]);
    }
    for (int kind = 0; kind < VA_LOOPS; kind++)
        for (size_t d = 0; d < 2; d++)
            one_loop(vr, kind, cdt[d]);
}
