/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/arrays/reduce.c — reductions over any set of axes (accel_array_reduce):
 * one row per reduction (accumulator, identity, fold step, final value), a
 * raw kernel generated per (reduction, dtypes, kept and reduced axes after
 * merging) with one thread per output element folding its elements in a
 * fixed row-major order, so every backend computes the same bits. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrays/arrays_internal.h"
#include "base/objects.h"
#include "base/sbuf.h"
#include "base/status.h"
#include "kernels/kernels.h"

static const char *const reduce_names[ACCEL_ARRAY_REDUCE_LIMIT_] = {
#define ACCEL_X_RNAME(E, V, NAME) [V] = NAME,
    ACCEL_ARRAY_REDUCE_LIST(ACCEL_X_RNAME)
#undef ACCEL_X_RNAME
};

const char *accel_array_reduce_name(accel_array_reduce_fn fn)
{
    return (unsigned)fn < ACCEL_ARRAY_REDUCE_LIMIT_ && reduce_names[fn] ? reduce_names[fn]
                                                                        : "unknown";
}

/* One reduction kernel. */
typedef struct rspec {
    accel_array_reduce_fn fn;
    accel_dtype xt, yt;
    uint32_t nk, nr; /* kept and reduced axes after merging */
} rspec;

static bool is_float(accel_dtype dt)
{
    return accel_dtype_kind_of(dt) == ACCEL_DTYPE_KIND_FLOAT;
}

/* The accumulator's C type: double for floats; for integers the 64-bit
 * wrapping type of sum and prod, the input's own type for min/max/arg. */
static const char *acc_type(const rspec *s)
{
    if (s->fn == ACCEL_ARRAY_REDUCE_ANY || s->fn == ACCEL_ARRAY_REDUCE_ALL)
        return "int";
    if (is_float(s->xt))
        return "double";
    if (s->fn == ACCEL_ARRAY_REDUCE_SUM || s->fn == ACCEL_ARRAY_REDUCE_PROD)
        return "unsigned long long";
    return accel__array_ctype(s->xt);
}

/* The fold of element a into accel_acc (accel_best: arg index). */
static void fold(accel__sbuf *b, const rspec *s)
{
    bool f = is_float(s->xt);
    switch (s->fn) {
    case ACCEL_ARRAY_REDUCE_SUM:
    case ACCEL_ARRAY_REDUCE_MEAN:
        accel__sbuf_put(b, "      accel_acc = accel_acc + %sa;\n", f ? "" : "(unsigned long long)");
        break;
    case ACCEL_ARRAY_REDUCE_PROD:
        accel__sbuf_put(b, "      accel_acc = accel_acc * %sa;\n", f ? "" : "(unsigned long long)");
        break;
    case ACCEL_ARRAY_REDUCE_MIN:
    case ACCEL_ARRAY_REDUCE_MAX: {
        bool mx = s->fn == ACCEL_ARRAY_REDUCE_MAX;
        if (f)
            accel__sbuf_put(b, "      accel_acc = accel_%s(accel_acc, a);\n", mx ? "max" : "min");
        else
            accel__sbuf_put(b, "      if (a %s accel_acc) accel_acc = a;\n", mx ? ">" : "<");
        break;
    }
    case ACCEL_ARRAY_REDUCE_ANY:
        accel__sbuf_put(b, "      accel_acc = accel_acc || a != 0;\n");
        break;
    case ACCEL_ARRAY_REDUCE_ALL:
        accel__sbuf_put(b, "      accel_acc = accel_acc && a != 0;\n");
        break;
    case ACCEL_ARRAY_REDUCE_ARGMIN:
    case ACCEL_ARRAY_REDUCE_ARGMAX: {
        const char *op = s->fn == ACCEL_ARRAY_REDUCE_ARGMAX ? ">" : "<";
        if (f) /* the first NaN wins, then the first extreme */
            accel__sbuf_put(
                b,
                "      if (accel_acc == accel_acc && (a != a || a %s accel_acc)) { accel_acc = a; "
                "accel_best = accel_j; }\n",
                op);
        else
            accel__sbuf_put(
                b, "      if (a %s accel_acc) { accel_acc = a; accel_best = accel_j; }\n", op);
        break;
    }
    case ACCEL_ARRAY_REDUCE_INVALID:
    case ACCEL_ARRAY_REDUCE_LIMIT_:
        break;
    }
}

static bool from_first(accel_array_reduce_fn fn)
{
    return fn == ACCEL_ARRAY_REDUCE_MIN || fn == ACCEL_ARRAY_REDUCE_MAX ||
           fn == ACCEL_ARRAY_REDUCE_ARGMIN || fn == ACCEL_ARRAY_REDUCE_ARGMAX;
}

/* The element at offset E of x as the accumulator's value. */
static void load(accel__sbuf *b, const rspec *s, const char *e)
{
    bool truth = s->fn == ACCEL_ARRAY_REDUCE_ANY || s->fn == ACCEL_ARRAY_REDUCE_ALL;
    if (truth && (s->xt == ACCEL_F16 || s->xt == ACCEL_BF16))
        accel__sbuf_put(b, "(%s(accel_x[%s]) != 0)",
                        s->xt == ACCEL_F16 ? "accel_h2f" : "accel_bf2f", e);
    else if (truth)
        accel__sbuf_put(b, "(accel_x[%s] != 0)", e);
    else if (s->xt == ACCEL_F16 || s->xt == ACCEL_BF16)
        accel__sbuf_put(b, "(double)%s(accel_x[%s])",
                        s->xt == ACCEL_F16 ? "accel_h2f" : "accel_bf2f", e);
    else
        accel__sbuf_put(b, "(%s)accel_x[%s]", acc_type(s), e);
}

/* accel_e = offset of reduced element accel_j (row-major over the reduced axes). */
static void reduced_offset(accel__sbuf *b, const rspec *s)
{
    accel__sbuf_put(b, "      long long accel_q = accel_j, accel_e = accel_ox;\n");
    for (uint32_t d = s->nr; d-- > 1;)
        accel__sbuf_put(
            b, "      accel_e += (accel_q %% accel_rs%u) * accel_rx%u; accel_q /= accel_rs%u;\n", d,
            d, d);
    if (s->nr)
        accel__sbuf_put(b, "      accel_e += accel_q * accel_rx0;\n");
}

static void store(accel__sbuf *b, const rspec *s)
{
    const char *v = s->fn == ACCEL_ARRAY_REDUCE_MEAN ? "accel_acc / (double)accel_m"
                    : s->fn == ACCEL_ARRAY_REDUCE_ARGMIN || s->fn == ACCEL_ARRAY_REDUCE_ARGMAX
                        ? "accel_best"
                        : "accel_acc";
    if (s->yt == ACCEL_F16 || s->yt == ACCEL_BF16)
        accel__sbuf_put(b, "    accel_y[accel_oy] = %s((float)(%s));\n",
                        s->yt == ACCEL_F16 ? "accel_f2h" : "accel_f2bf", v);
    else if (s->yt == ACCEL_BOOL)
        accel__sbuf_put(b, "    accel_y[accel_oy] = (unsigned char)((%s) != 0);\n", v);
    else
        accel__sbuf_put(b, "    accel_y[accel_oy] = (%s)(%s);\n", accel__array_ctype(s->yt), v);
}

static void entry_of(const rspec *s, char *entry)
{
    snprintf(entry, ACCEL__ANAME_MAX, "array_%s_%s_%s_k%ur%u", accel_array_reduce_name(s->fn),
             accel_dtype_name(s->xt), accel_dtype_name(s->yt), s->nk, s->nr);
}

static void signature(accel__sbuf *b, const rspec *s, const char *entry)
{
    accel__sbuf_put(b,
                    "__global__ void %s(const void *accel_p0, void *accel_p1, long long accel_b0, "
                    "long long accel_b1, long long accel_n, long long accel_m",
                    entry);
    for (uint32_t d = 1; d < s->nk; d++)
        accel__sbuf_put(b, ", long long accel_ks%u", d);
    for (uint32_t d = 0; d < s->nk; d++)
        accel__sbuf_put(b, ", long long accel_kx%u, long long accel_ko%u", d, d);
    for (uint32_t d = 1; d < s->nr; d++)
        accel__sbuf_put(b, ", long long accel_rs%u", d);
    for (uint32_t d = 0; d < s->nr; d++)
        accel__sbuf_put(b, ", long long accel_rx%u", d);
    accel__sbuf_put(b, ") {\n");
}

static bool is_complex(accel_dtype dt)
{
    return accel_dtype_kind_of(dt) == ACCEL_DTYPE_KIND_COMPLEX;
}

/* The kernel up to the fold: x and y, the grid-stride loop over output
 * elements and the kept axes' offsets accel_ox, accel_oy. */
static void head(accel__sbuf *b, const rspec *s, const char *entry)
{
    if (s->xt == ACCEL_F16 || s->xt == ACCEL_BF16 || s->yt == ACCEL_F16 || s->yt == ACCEL_BF16)
        accel__sbuf_put(b, "%s", accel__kernel_prelude_16bit());
    accel__sbuf_put(b, "%s", accel__array_helpers);
    signature(b, s, entry);
    const char *xc = accel__array_ptr_ctype(s->xt), *yc = accel__array_ptr_ctype(s->yt);
    accel__sbuf_put(b,
                    "  const %s *const accel_x = (const %s *)accel_p0 + %saccel_b0;\n"
                    "  %s *const accel_y = (%s *)accel_p1 + %saccel_b1;\n"
                    "  const long long accel_step = (long long)gridDim.x * blockDim.x;\n"
                    "  for (long long accel_i = (long long)blockIdx.x * blockDim.x + threadIdx.x; "
                    "accel_i < accel_n; accel_i += accel_step) {\n"
                    "    long long accel_r = accel_i, accel_ox = 0, accel_oy = 0;\n",
                    xc, xc, is_complex(s->xt) ? "2 * " : "", yc, yc,
                    is_complex(s->yt) ? "2 * " : "");
    for (uint32_t d = s->nk; d-- > 1;)
        accel__sbuf_put(
            b,
            "    { const long long accel_c = accel_r %% accel_ks%u; accel_r /= accel_ks%u; "
            "accel_ox += accel_c * accel_kx%u; accel_oy += accel_c * accel_ko%u; }\n",
            d, d, d, d);
    if (s->nk)
        accel__sbuf_put(b,
                        "    accel_ox += accel_r * accel_kx0; accel_oy += accel_r * accel_ko0;\n");
}

/* A complex x: sum, prod and mean fold (re, im) in double (prod: the
 * schoolbook product, as NumPy's); any and all test re != 0 || im != 0. */
static void complex_body(accel__sbuf *b, const rspec *s)
{
    bool prod = s->fn == ACCEL_ARRAY_REDUCE_PROD, all = s->fn == ACCEL_ARRAY_REDUCE_ALL;
    bool truth = all || s->fn == ACCEL_ARRAY_REDUCE_ANY;
    accel__sbuf_put(b, "    double accel_re = %s, accel_im = 0;\n", prod || all ? "1" : "0");
    accel__sbuf_put(b, "    for (long long accel_j = 0; accel_j < accel_m; accel_j++) {\n");
    reduced_offset(b, s);
    accel__sbuf_put(b, "      const double ar = (double)accel_x[2 * accel_e], "
                       "ai = (double)accel_x[2 * accel_e + 1];\n");
    if (truth)
        accel__sbuf_put(b, "      accel_re = accel_re %s (ar != 0 || ai != 0);\n",
                        all ? "&&" : "||");
    else if (prod)
        accel__sbuf_put(b, "      { const double t = accel_re * ar - accel_im * ai; "
                           "accel_im = accel_re * ai + accel_im * ar; accel_re = t; }\n");
    else
        accel__sbuf_put(b, "      accel_re += ar; accel_im += ai;\n");
    accel__sbuf_put(b, "    }\n");
    if (truth) {
        accel__sbuf_put(b, "    accel_y[accel_oy] = (unsigned char)(accel_re != 0);\n");
        return;
    }
    if (s->fn == ACCEL_ARRAY_REDUCE_MEAN)
        accel__sbuf_put(b, "    accel_re /= (double)accel_m; accel_im /= (double)accel_m;\n");
    const char *t = accel__array_ptr_ctype(s->yt);
    accel__sbuf_put(b,
                    "    accel_y[2 * accel_oy] = (%s)accel_re; "
                    "accel_y[2 * accel_oy + 1] = (%s)accel_im;\n",
                    t, t);
}

/* A real x: the accumulator from the identity (or the first element),
 * each element folded in row-major order of the reduced axes, stored. */
static void real_body(accel__sbuf *b, const rspec *s)
{
    const char *ident =
        s->fn == ACCEL_ARRAY_REDUCE_PROD || s->fn == ACCEL_ARRAY_REDUCE_ALL ? "1" : "0";
    bool first = from_first(s->fn);
    accel__sbuf_put(
        b, "    %s accel_acc = %s;\n    long long accel_best = 0;\n    (void)accel_best;\n",
        acc_type(s), first ? "0" : ident);
    if (first) {
        accel__sbuf_put(b, "    { const long long accel_j = 0;\n");
        reduced_offset(b, s);
        accel__sbuf_put(b, "      accel_acc = ");
        load(b, s, "accel_e");
        accel__sbuf_put(b, "; }\n");
    }
    accel__sbuf_put(b, "    for (long long accel_j = %d; accel_j < accel_m; accel_j++) {\n",
                    first ? 1 : 0);
    reduced_offset(b, s);
    accel__sbuf_put(b, "      const %s a = ", acc_type(s));
    load(b, s, "accel_e");
    accel__sbuf_put(b, ";\n");
    fold(b, s);
    accel__sbuf_put(b, "    }\n");
    store(b, s);
}

static char *reduce_source(const void *ctx)
{
    const rspec *s = ctx;
    char entry[ACCEL__ANAME_MAX];
    entry_of(s, entry);
    accel__sbuf b = {NULL, 0, 0, false};
    head(&b, s, entry);
    if (is_complex(s->xt))
        complex_body(&b, s);
    else
        real_body(&b, s);
    accel__sbuf_put(&b, "  }\n}\n");
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* The result dtype of fn on x's dtype, or INVALID when fn does not take it. */
static accel_dtype result_dtype(accel_array_reduce_fn fn, accel_dtype xt)
{
    accel_dtype_kind k = accel_dtype_kind_of(xt);
    switch (fn) {
    case ACCEL_ARRAY_REDUCE_SUM:
    case ACCEL_ARRAY_REDUCE_PROD:
        return k == ACCEL_DTYPE_KIND_FLOAT || k == ACCEL_DTYPE_KIND_COMPLEX ? xt
               : k == ACCEL_DTYPE_KIND_UINT                                 ? ACCEL_U64
                                                                            : ACCEL_I64;
    case ACCEL_ARRAY_REDUCE_MEAN:
        return k == ACCEL_DTYPE_KIND_FLOAT || k == ACCEL_DTYPE_KIND_COMPLEX ? xt
                                                                            : ACCEL_DTYPE_INVALID;
    case ACCEL_ARRAY_REDUCE_MIN:
    case ACCEL_ARRAY_REDUCE_MAX: /* complex numbers are not ordered (the standard) */
        return k == ACCEL_DTYPE_KIND_COMPLEX ? ACCEL_DTYPE_INVALID : xt;
    case ACCEL_ARRAY_REDUCE_ANY:
    case ACCEL_ARRAY_REDUCE_ALL:
        return ACCEL_BOOL;
    case ACCEL_ARRAY_REDUCE_ARGMIN:
    case ACCEL_ARRAY_REDUCE_ARGMAX:
        return k == ACCEL_DTYPE_KIND_COMPLEX ? ACCEL_DTYPE_INVALID : ACCEL_I64;
    case ACCEL_ARRAY_REDUCE_INVALID:
    case ACCEL_ARRAY_REDUCE_LIMIT_:
        break;
    }
    return ACCEL_DTYPE_INVALID;
}

accel_status accel_array_reduce_dtype(accel_array_reduce_fn fn, accel_dtype x, accel_dtype *out)
{
    static const char name[] = "accel_array_reduce_dtype";
    if (!out)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: out is NULL", name);
    if ((unsigned)fn >= ACCEL_ARRAY_REDUCE_LIMIT_ || !reduce_names[fn])
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: fn %d is unknown", name, (int)fn);
    accel_dtype rt = accel_dtype_kind_of(x) == ACCEL_DTYPE_KIND_INVALID ? ACCEL_DTYPE_INVALID
                                                                        : result_dtype(fn, x);
    if (rt == ACCEL_DTYPE_INVALID)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: %s does not take %s", name,
                           reduce_names[fn], accel_dtype_name(x));
    *out = rt;
    return ACCEL_SUCCESS;
}

/* The axes of a reduction: kept (sizes, x strides, out strides) and reduced
 * (sizes, x strides), size-1 axes dropped, neighbours merged. */
typedef struct raxes {
    uint32_t nk, nr;
    int64_t ks[ACCEL_ARRAY_MAX_NDIM], kx[ACCEL_ARRAY_MAX_NDIM], ko[ACCEL_ARRAY_MAX_NDIM];
    int64_t rs[ACCEL_ARRAY_MAX_NDIM], rx[ACCEL_ARRAY_MAX_NDIM];
    int64_t n, m;
} raxes;

static void split_axes(const accel_array *x, const accel_array *out, uint64_t mask, int keepdims,
                       raxes *a)
{
    memset(a, 0, sizeof *a);
    a->n = a->m = 1;
    uint32_t od = 0;
    for (uint32_t d = 0; d < x->ndim; d++) {
        bool red = mask >> d & 1u;
        int64_t n = x->shape[d], ostride = 0;
        if (!red || keepdims)
            ostride = out->strides[od++];
        if (red)
            a->m *= n;
        else
            a->n *= n;
        if (n == 1)
            continue;
        if (red) {
            if (a->nr && a->rx[a->nr - 1] == x->strides[d] * n) {
                a->rs[a->nr - 1] *= n;
                a->rx[a->nr - 1] = x->strides[d];
                continue;
            }
            a->rs[a->nr] = n;
            a->rx[a->nr++] = x->strides[d];
            continue;
        }
        if (a->nk && a->kx[a->nk - 1] == x->strides[d] * n && a->ko[a->nk - 1] == ostride * n) {
            a->ks[a->nk - 1] *= n;
            a->kx[a->nk - 1] = x->strides[d];
            a->ko[a->nk - 1] = ostride;
            continue;
        }
        a->ks[a->nk] = n;
        a->kx[a->nk] = x->strides[d];
        a->ko[a->nk++] = ostride;
    }
}

accel_status accel__reduce_shape(const char *fn, const accel_array *x, const accel_array *out,
                                 uint64_t mask, int keepdims)
{
    int64_t shape[ACCEL_ARRAY_MAX_NDIM];
    uint32_t nd = 0;
    for (uint32_t d = 0; d < x->ndim; d++) {
        if (!(mask >> d & 1u))
            shape[nd++] = x->shape[d];
        else if (keepdims)
            shape[nd++] = 1;
    }
    return accel__array_shape_is(fn, "out", out, nd, shape);
}

static accel_status check_reduce(const char *fn, accel_array_reduce_fn f, const accel_array *x,
                                 uint64_t mask, int keepdims, const accel_array *out,
                                 const accel__extent *ext)
{
    accel_status st = accel__array_axes_mask(fn, x, mask);
    if (st != ACCEL_SUCCESS)
        return st;
    accel_dtype rt = result_dtype(f, x->dtype);
    if (rt == ACCEL_DTYPE_INVALID)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: %s does not take %s", fn,
                           accel_array_reduce_name(f), accel_dtype_name(x->dtype));
    if (out->dtype != rt)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: out is %s but %s of %s gives %s", fn,
                           accel_dtype_name(out->dtype), accel_array_reduce_name(f),
                           accel_dtype_name(x->dtype), accel_dtype_name(rt));
    st = accel__reduce_shape(fn, x, out, mask, keepdims);
    if (st != ACCEL_SUCCESS)
        return st;
    if (x->buffer == out->buffer && ext[0].count && ext[1].count) {
        size_t ex = accel_dtype_size(x->dtype), eo = accel_dtype_size(out->dtype);
        if ((uint64_t)ext[0].lo * ex < (uint64_t)(ext[1].hi + 1) * eo &&
            (uint64_t)ext[1].lo * eo < (uint64_t)(ext[0].hi + 1) * ex)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: out overlaps x", fn);
    }
    return ACCEL_SUCCESS;
}

accel_status accel_array_reduce(accel_queue *q, accel_array_reduce_fn fn, const accel_array *x,
                                uint64_t axes_mask, int keepdims, const accel_array *out)
{
    static const char name[] = "accel_array_reduce";
    if ((unsigned)fn >= ACCEL_ARRAY_REDUCE_LIMIT_ || !reduce_names[fn])
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: fn %d is unknown", name, (int)fn);
    const accel_array *arr[2] = {x, out};
    static const char *const names[2] = {"x", "out"};
    accel__extent ext[2];
    accel_runtime *rt;
    accel_status st = accel__array_views_any(name, q, 2, arr, names, ext, &rt);
    if (st == ACCEL_SUCCESS)
        st = accel__array_out_check(name, "out", out);
    if (st == ACCEL_SUCCESS)
        st = check_reduce(name, fn, x, axes_mask, keepdims, out, ext);
    if (st != ACCEL_SUCCESS)
        return st;
    raxes a;
    split_axes(x, out, axes_mask, keepdims, &a);
    if (a.n == 0)
        return ACCEL_SUCCESS;
    if (a.m == 0 && from_first(fn))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: %s of no elements (a reduced axis has size 0) has no identity",
                           name, reduce_names[fn]);
    if (3 * a.nk + 2 * a.nr > 28)
        return accel__fail(ACCEL_ERROR_UNSUPPORTED,
                           "%s: %u kept and %u reduced axes that do not merge exceed a kernel's "
                           "parameters (3k + 2r <= 28); copy x into a contiguous array first",
                           name, a.nk, a.nr);
    rspec s = {fn, x->dtype, out->dtype, a.nk, a.nr};
    char entry[ACCEL__ANAME_MAX];
    entry_of(&s, entry);
    accel_kernel *k;
    st = accel__array_kernel(rt, entry, reduce_source, &s, 1, &k);
    if (st != ACCEL_SUCCESS)
        return st;
    accel_kernel_arg args[32];
    uint32_t na = 0;
    args[na++] = accel__extent_arg(x->buffer, x->dtype, &ext[0]);
    args[na++] = accel__extent_arg(out->buffer, out->dtype, &ext[1]);
    args[na++] = accel_karg_i64(ext[0].base - ext[0].lo);
    args[na++] = accel_karg_i64(ext[1].base - ext[1].lo);
    args[na++] = accel_karg_i64(a.n);
    args[na++] = accel_karg_i64(a.m);
    for (uint32_t d = 1; d < a.nk; d++)
        args[na++] = accel_karg_i64(a.ks[d]);
    for (uint32_t d = 0; d < a.nk; d++) {
        args[na++] = accel_karg_i64(a.kx[d]);
        args[na++] = accel_karg_i64(a.ko[d]);
    }
    for (uint32_t d = 1; d < a.nr; d++)
        args[na++] = accel_karg_i64(a.rs[d]);
    for (uint32_t d = 0; d < a.nr; d++)
        args[na++] = accel_karg_i64(a.rx[d]);
    int64_t blocks = (a.n + 255) / 256;
    uint32_t grid[3] = {(uint32_t)(blocks < 65535 ? blocks : 65535), 1, 1};
    uint32_t block[3] = {256, 1, 1};
    return accel_kernel_launch_grid(q, k, grid, block, na, args);
}
