/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/arrays/create.c — the Array API's creation functions on the device:
 * full (zeros, ones), arange, linspace, eye, tril, triu as rows of loop
 * kernels (loop.c), and meshgrid as views. Each row is the whole of its
 * function's math; every backend compiles it from here. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "arrays/arrays_internal.h"
#include "base/status.h"

/* Float outputs compute in double and round once on store; integer ones in
 * 64-bit integers, wrapping. */
static const accel__lrow row_full = {
    .name = "full",
    .narr = 1,
    .written = 1,
    .nf = 1,
    .ni = 1,
    .body = "#if accel_FLOAT0\n    accel_st0(accel_o0, accel_f0);\n#else\n"
            "    accel_st0(accel_o0, accel_k0);\n#endif"};
static const accel__lrow row_arange = {
    .name = "arange",
    .narr = 1,
    .written = 1,
    .nf = 2,
    .ni = 2,
    .body = "#if accel_FLOAT0\n    accel_st0(accel_o0, accel_f0 + (double)accel_i * accel_f1);\n"
            "#else\n    accel_st0(accel_o0, (unsigned long long)accel_k0 + "
            "(unsigned long long)accel_i * (unsigned long long)accel_k1);\n#endif"};
/* NumPy's linspace: start + i * step, the endpoint stored exactly. */
static const accel__lrow row_linspace = {
    .name = "linspace",
    .narr = 1,
    .written = 1,
    .nf = 3,
    .ni = 1,
    .body = "    accel_st0(accel_o0, accel_i == accel_k0 ? accel_f2 : accel_f0 + (double)accel_i * "
            "accel_f1);"};
static const accel__lrow row_eye = {
    .name = "eye",
    .narr = 1,
    .written = 1,
    .ni = 1,
    .pcoords = 1,
    .body =
        "    accel_st0(accel_o0, accel_cp[accel_NP - 1] - accel_cp[accel_NP - 2] == accel_k0);"};
static const accel__lrow row_tril = {
    .name = "tril",
    .narr = 2,
    .written = 1,
    .ni = 1,
    .pcoords = 1,
    .body =
        "    accel_A0[accel_o0] = accel_cp[accel_NP - 1] - accel_cp[accel_NP - 2] <= accel_k0 ? "
        "accel_A1[accel_o1] : (accel_E0)0;"};
static const accel__lrow row_triu = {
    .name = "triu",
    .narr = 2,
    .written = 1,
    .ni = 1,
    .pcoords = 1,
    .body =
        "    accel_A0[accel_o0] = accel_cp[accel_NP - 1] - accel_cp[accel_NP - 2] >= accel_k0 ? "
        "accel_A1[accel_o1] : (accel_E0)0;"};

/* A call of a row over out's axes (and x's, the same shape). */
static accel_status run(const char *fn, const accel__lrow *row, accel_queue *q,
                        const accel_array *out, const accel_array *x, const double *f,
                        const int64_t *k)
{
    accel__lcall c = {.fn = fn, .row = row, .a = {out, x}};
    static const char *const names[2] = {"out", "x"};
    accel_runtime *rt;
    accel_status st = accel__array_io(fn, q, row->narr, c.a, names, c.ext, &rt, true);
    if (st != ACCEL_SUCCESS)
        return st;
    if (x && x->dtype != out->dtype)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: out is %s but x %s", fn,
                           accel_dtype_name(out->dtype), accel_dtype_name(x->dtype));
    if (x && (st = accel__array_shape_is(fn, "out", out, x->ndim, x->shape)) != ACCEL_SUCCESS)
        return st;
    if (row->pcoords && out->ndim < 2)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: out has %u axes; at least 2", fn,
                           out->ndim);
    c.np = out->ndim;
    c.protect = row->pcoords ? 2 : 0;
    for (uint32_t d = 0; d < out->ndim; d++) {
        c.psize[d] = out->shape[d];
        c.pst[0][d] = out->strides[d];
        c.pst[1][d] = x ? x->strides[d] : 0;
    }
    memcpy(c.f, f, sizeof c.f);
    memcpy(c.k, k, sizeof c.k);
    return accel__loop_run(q, rt, &c);
}

/* v as out's integer value: truncated, saturated, NaN 0 (accel_array_astype's rule). */
static int64_t to_integer(accel_dtype dt, double v)
{
    int bits = 8 * (int)accel_dtype_size(dt);
    if (v != v || dt == ACCEL_BOOL)
        return dt == ACCEL_BOOL && v != 0;
    if (accel_dtype_kind_of(dt) == ACCEL_DTYPE_KIND_UINT) {
        double hi = ldexp(1.0, bits);
        return v <= -1.0 ? 0
               : v >= hi ? (int64_t)(bits == 64 ? ~0ull : (1ull << bits) - 1)
                         : (int64_t)(uint64_t)v;
    }
    double hi = ldexp(1.0, bits - 1);
    return v < -hi   ? (int64_t)(-hi)
           : v >= hi ? (bits == 64 ? INT64_MAX : (int64_t)hi - 1)
                     : (int64_t)v;
}

accel_status accel_array_full(accel_queue *q, const accel_array *out, double value)
{
    const double f[4] = {value};
    const int64_t k[4] = {out ? to_integer(out->dtype, value) : 0};
    return run("accel_array_full", &row_full, q, out, NULL, f, k);
}

accel_status accel_array_full_i64(accel_queue *q, const accel_array *out, int64_t value)
{
    const double f[4] = {(double)value};
    const int64_t k[4] = {value};
    return run("accel_array_full_i64", &row_full, q, out, NULL, f, k);
}

accel_status accel_array_full_u64(accel_queue *q, const accel_array *out, uint64_t value)
{
    const double f[4] = {(double)value};
    const int64_t k[4] = {(int64_t)value};
    return run("accel_array_full_u64", &row_full, q, out, NULL, f, k);
}

/* ceil((stop - start) / step), at least 0; -1: not finite or too long. */
static int64_t arange_length(double start, double stop, double step)
{
    double n = ceil((stop - start) / step);
    if (!(n == n) || fabs(n) > 0x1p62)
        return -1;
    return n > 0 ? (int64_t)n : 0;
}

accel_status accel_array_arange(accel_queue *q, double start, double stop, double step,
                                const accel_array *out)
{
    static const char fn[] = "accel_array_arange";
    if (out && out->ndim != 1)
        return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH, "%s: out has %u axes; arange's is 1-D", fn,
                           out->ndim);
    if (step == 0 || !isfinite(step) || !isfinite(start) || !isfinite(stop))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: start %g, stop %g, step %g (finite, step != 0)", fn, start, stop,
                           step);
    int64_t n = arange_length(start, stop, step);
    if (n < 0)
        return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                           "%s: [%g, %g) by %g has more than 2^62 elements (or the length "
                           "overflows a double)",
                           fn, start, stop, step);
    if (out && out->shape[0] != n)
        return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                           "%s: out has %lld elements; [%g, %g) by %g has %lld", fn,
                           (long long)out->shape[0], start, stop, step, (long long)n);
    bool integral =
        start == floor(start) && step == floor(step) && fabs(start) < 0x1p63 && fabs(step) < 0x1p63;
    if (out && accel_dtype_kind_of(out->dtype) != ACCEL_DTYPE_KIND_FLOAT && !integral)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: out is %s but start %g or step %g is not an integer within "
                           "int64's range",
                           fn, accel_dtype_name(out->dtype), start, step);
    const double f[4] = {start, step};
    const int64_t k[4] = {integral ? (int64_t)start : 0, integral ? (int64_t)step : 0};
    return run(fn, &row_arange, q, out, NULL, f, k);
}

accel_status accel_array_linspace(accel_queue *q, double start, double stop, int endpoint,
                                  const accel_array *out)
{
    static const char fn[] = "accel_array_linspace";
    if (out && out->ndim != 1)
        return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH, "%s: out has %u axes; linspace's is 1-D", fn,
                           out->ndim);
    if (out && accel_dtype_kind_of(out->dtype) != ACCEL_DTYPE_KIND_FLOAT)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: out is %s; linspace gives floats", fn,
                           accel_dtype_name(out->dtype));
    int64_t num = out ? out->shape[0] : 0, div = endpoint ? num - 1 : num;
    const double f[4] = {start, div > 0 ? (stop - start) / (double)div : 0.0, stop};
    const int64_t k[4] = {endpoint && num > 1 ? num - 1 : -1};
    return run(fn, &row_linspace, q, out, NULL, f, k);
}

accel_status accel_array_eye(accel_queue *q, int64_t k, const accel_array *out)
{
    const double f[4] = {0};
    const int64_t kk[4] = {k};
    return run("accel_array_eye", &row_eye, q, out, NULL, f, kk);
}

accel_status accel_array_tril(accel_queue *q, const accel_array *x, int64_t k,
                              const accel_array *out)
{
    static const char fn[] = "accel_array_tril";
    if (!x)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: x is NULL", fn);
    const double f[4] = {0};
    const int64_t kk[4] = {k};
    return run(fn, &row_tril, q, out, x, f, kk);
}

accel_status accel_array_triu(accel_queue *q, const accel_array *x, int64_t k,
                              const accel_array *out)
{
    static const char fn[] = "accel_array_triu";
    if (!x)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: x is NULL", fn);
    const double f[4] = {0};
    const int64_t kk[4] = {k};
    return run(fn, &row_triu, q, out, x, f, kk);
}

accel_status accel_array_meshgrid(size_t count, const accel_array *const *xs, int indexing_xy,
                                  accel_array *outs)
{
    static const char fn[] = "accel_array_meshgrid";
    if (count > ACCEL_ARRAY_MAX_NDIM || (count && (!xs || !outs)))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s", fn,
                           count > ACCEL_ARRAY_MAX_NDIM ? "count exceeds ACCEL_ARRAY_MAX_NDIM"
                                                        : "xs or outs is NULL");
    int64_t shape[ACCEL_ARRAY_MAX_NDIM];
    for (size_t i = 0; i < count; i++) {
        char name[32];
        snprintf(name, sizeof name, "xs[%zu]", i);
        accel_status st = accel__array_check(fn, name, xs[i], NULL);
        if (st != ACCEL_SUCCESS)
            return st;
        if (xs[i]->ndim != 1 || xs[i]->dtype != xs[0]->dtype)
            return accel__fail(xs[i]->ndim != 1 ? ACCEL_ERROR_SHAPE_MISMATCH
                                                : ACCEL_ERROR_DTYPE_MISMATCH,
                               "%s: %s is %s with %u axes (1-D arrays of one dtype)", fn, name,
                               accel_dtype_name(xs[i]->dtype), xs[i]->ndim);
        shape[i] = xs[i]->shape[0];
    }
    int64_t total = 1; /* the grid's element count: refused past int64, as accel_array_init */
    for (size_t i = 0; i < count; i++)
        if (__builtin_mul_overflow(total, shape[i], &total))
            return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                               "%s: the grid's element count overflows int64 at xs[%zu]", fn, i);
    bool swap = indexing_xy && count >= 2; /* xy: the first two axes trade places */
    for (size_t i = 0; i < count; i++) {
        accel_array t = *xs[i];
        t.ndim = (uint32_t)count;
        for (size_t d = 0; d < count; d++) {
            size_t src = swap && d < 2 ? 1 - d : d;
            t.shape[d] = shape[src];
            t.strides[d] = src == i ? xs[i]->strides[0] : 0;
        }
        outs[i] = t;
    }
    return ACCEL_SUCCESS;
}
