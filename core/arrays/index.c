/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/arrays/index.c — indexing with arrays: take, take_along_axis and
 * scatter through integer index arrays (one thread per element), nonzero
 * and boolean-mask gather and scatter (a serial walk of the mask in
 * row-major order, one thread per element of the trailing axes), as rows
 * of loop kernels (loop.c). Out-of-range indices follow JAX's documented
 * rule ("JAX - The Sharp Bits", out-of-bounds indexing): a gather clamps
 * the index into the axis, a scatter drops the update; there is no trap on
 * any device. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "arrays/arrays_internal.h"
#include "base/status.h"

/* The index of accel_A2 at accel_o2 with a negative one counted from the end (k0). */
#define INDEX                                                                                      \
    "    long long accel_ix = (long long)accel_A2[accel_o2];\n"                                    \
    "    if (accel_ix < 0) accel_ix += accel_k0;\n"
/* A row of one integer index per element (array 2, read by INDEX), then
 * BODY with it; k0 the axis' size, k1 the stride along it. */
#define INDEX_ROW(NAME, BODY)                                                                      \
    {                                                                                              \
        .name = NAME, .narr = 3, .written = 1, .ni = 2, .complex_ok = 1, .body = INDEX BODY        \
    }
/* arrays: 0 out, 1 x, 2 indices; k1 x's stride along the axis. */
static const accel__lrow row_take =
    INDEX_ROW("take", "    accel_ix = accel_ix < 0 ? 0 : accel_ix >= accel_k0 ? accel_k0 - 1 : "
                      "accel_ix;\n"
                      "    accel_A0[accel_o0] = accel_A1[accel_o1 + accel_ix * accel_k1];");
/* arrays: 0 x (written), 1 values, 2 indices; k1 x's stride along the axis. */
static const accel__lrow row_scatter =
    INDEX_ROW("scatter", "    if (accel_ix >= 0 && accel_ix < accel_k0)\n"
                         "      accel_A0[accel_o0 + accel_ix * accel_k1] = accel_A1[accel_o1];");
/* arrays: 0 out (int64 (ndim, count)), 1 x; k0 count, k1 and k2 out's strides. */
static const accel__lrow row_nonzero = {
    .name = "nonzero",
    .narr = 2,
    .written = 1,
    .ni = 3,
    .serial = 1,
    .scoords = 1,
    .pre = "    long long accel_cnt = 0;",
    .body = "      if (accel_ld1(accel_o1) != 0) {\n"
            "        if (accel_cnt < accel_k0)\n"
            "          for (int accel_d = 0; accel_d < accel_NS; accel_d++)\n"
            "            accel_A0[accel_p0 + accel_d * accel_k1 + accel_cnt * accel_k2] = "
            "accel_cs[accel_d];\n"
            "        accel_cnt++;\n      }"};
/* A walk of the mask (array 2) storing STORE for each of the first k0
 * selected elements, accel_cnt counting them. */
#define MASK_ROW(NAME, STORE)                                                                      \
    {                                                                                              \
        .name = NAME, .narr = 3, .written = 1, .ni = 2, .serial = 1, .complex_ok = 1,              \
        .pre = "    long long accel_cnt = 0;",                                                     \
        .body = "      if (accel_A2[accel_o2]) {\n        if (accel_cnt < accel_k0) " STORE        \
                "\n        accel_cnt++;\n      }"                                                  \
    }
/* arrays: 0 out, 1 x, 2 mask; k1 out's stride along its first axis. */
static const accel__lrow row_mask_gather =
    MASK_ROW("mask_gather", "accel_A0[accel_o0 + accel_cnt * accel_k1] = accel_A1[accel_o1];");
/* arrays: 0 x (written), 1 values, 2 mask; k1 values' first stride. */
static const accel__lrow row_mask_scatter =
    MASK_ROW("mask_scatter", "accel_A0[accel_o0] = accel_A1[accel_o1 + accel_cnt * accel_k1];");

static bool is_int(accel_dtype dt)
{
    accel_dtype_kind k = accel_dtype_kind_of(dt);
    return k == ACCEL_DTYPE_KIND_INT || k == ACCEL_DTYPE_KIND_UINT;
}

/* dims of take's result: x's before axis, the indices', x's after. */
static accel_status take_dims(const char *fn, const accel_array *x, const accel_array *ix,
                              int32_t axis, uint32_t *a_out, uint32_t *nd, int64_t *shape)
{
    int a = accel__array_axis(axis, x->ndim);
    if (a < 0)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: axis %d is out of range for %u axes",
                           fn, axis, x->ndim);
    if (!is_int(ix->dtype))
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: indices are %s (an integer dtype)", fn,
                           accel_dtype_name(ix->dtype));
    if (x->ndim - 1 + ix->ndim > ACCEL_ARRAY_MAX_NDIM)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: the result has more than %d axes", fn,
                           ACCEL_ARRAY_MAX_NDIM);
    *nd = 0;
    for (int d = 0; d < a; d++)
        shape[(*nd)++] = x->shape[d];
    for (uint32_t d = 0; d < ix->ndim; d++)
        shape[(*nd)++] = ix->shape[d];
    for (uint32_t d = (uint32_t)a + 1; d < x->ndim; d++)
        shape[(*nd)++] = x->shape[d];
    *a_out = (uint32_t)a;
    return ACCEL_SUCCESS;
}

/* The P space of take over r (its result, or the values of a scatter)
 * with x's strides (0 on the indices' axes) and the indices'. */
static void take_space(accel__lcall *c, const accel_array *x, const accel_array *ix,
                       const accel_array *r, uint32_t a, uint32_t xk, uint32_t rk)
{
    c->np = r->ndim;
    for (uint32_t d = 0; d < r->ndim; d++) {
        bool in_ix = d >= a && d < a + ix->ndim;
        uint32_t xd = d < a ? d : d - ix->ndim + 1;
        c->psize[d] = r->shape[d];
        c->pst[rk][d] = r->strides[d];
        c->pst[xk][d] = in_ix ? 0 : x->strides[xd];
        c->pst[2][d] = in_ix ? ix->strides[d - a] : 0;
    }
    c->k[0] = x->shape[a];
    c->k[1] = x->strides[a];
}

static const char *const take_names[3] = {"out", "x", "indices"};

/* Run a take (c set up, k0 and k1 x's size and stride along axis a), but
 * refuse an empty axis a where the result has elements to take. */
static accel_status take_run(const char *fn, accel_queue *q, accel_runtime *rt, accel__lcall *c,
                             const accel_array *x, uint32_t a)
{
    if (x->shape[a] == 0 && c->ext[0].count)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: x's axis %u has no elements to take from", fn, a);
    return accel__loop_run(q, rt, c);
}

accel_status accel_array_take(accel_queue *q, const accel_array *x, const accel_array *indices,
                              int32_t axis, const accel_array *out)
{
    static const char fn[] = "accel_array_take";
    accel__lcall c;
    accel_runtime *rt;
    accel_status st = accel__lcall_io(&c, fn, &row_take, q, out, x, indices, take_names, &rt);
    if (st != ACCEL_SUCCESS)
        return st;
    accel_array xf = *x;
    if (axis == ACCEL_ARRAY_AXIS_NONE) {
        int64_t n = c.ext[1].count;
        if (accel_array_reshape(x, 1, &n, &xf) != ACCEL_SUCCESS)
            return accel__fail(ACCEL_ERROR_UNSUPPORTED,
                               "%s: x's strides cannot be viewed flat; copy it first", fn);
        axis = 0;
    }
    uint32_t a, nd;
    int64_t shape[ACCEL_ARRAY_MAX_NDIM];
    st = take_dims(fn, &xf, indices, axis, &a, &nd, shape);
    if (st == ACCEL_SUCCESS && out->dtype != x->dtype)
        st = accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: out is %s but x %s", fn,
                         accel_dtype_name(out->dtype), accel_dtype_name(x->dtype));
    if (st == ACCEL_SUCCESS)
        st = accel__array_shape_is(fn, "out", out, nd, shape);
    if (st != ACCEL_SUCCESS)
        return st;
    take_space(&c, &xf, indices, out, a, 1, 0);
    return take_run(fn, q, rt, &c, &xf, a);
}

accel_status accel_array_scatter(accel_queue *q, const accel_array *x, const accel_array *indices,
                                 int32_t axis, const accel_array *values)
{
    static const char fn[] = "accel_array_scatter";
    static const char *const names[3] = {"x", "values", "indices"};
    accel__lcall c;
    accel_runtime *rt;
    accel_status st = accel__lcall_io(&c, fn, &row_scatter, q, x, values, indices, names, &rt);
    if (st != ACCEL_SUCCESS)
        return st;
    uint32_t a, nd;
    int64_t shape[ACCEL_ARRAY_MAX_NDIM];
    st = take_dims(fn, x, indices, axis, &a, &nd, shape);
    if (st == ACCEL_SUCCESS && values->dtype != x->dtype)
        st = accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: values are %s but x %s", fn,
                         accel_dtype_name(values->dtype), accel_dtype_name(x->dtype));
    accel_array v = *values;
    if (st == ACCEL_SUCCESS && accel_array_broadcast_to(values, nd, shape, &v) != ACCEL_SUCCESS)
        st = accel__array_shape_is(fn, "values", values, nd, shape);
    if (st != ACCEL_SUCCESS)
        return st;
    take_space(&c, x, indices, &v, a, 0, 1);
    return accel__loop_run(q, rt, &c);
}

accel_status accel_array_take_along_axis(accel_queue *q, const accel_array *x,
                                         const accel_array *indices, int32_t axis,
                                         const accel_array *out)
{
    static const char fn[] = "accel_array_take_along_axis";
    accel__lcall c;
    accel_runtime *rt;
    accel_status st = accel__lcall_io(&c, fn, &row_take, q, out, x, indices, take_names, &rt);
    if (st != ACCEL_SUCCESS)
        return st;
    int a = accel__array_axis(axis, x->ndim);
    if (a < 0 || indices->ndim != x->ndim)
        return accel__fail(a < 0 ? ACCEL_ERROR_INVALID_ARGUMENT : ACCEL_ERROR_SHAPE_MISMATCH,
                           "%s: %s", fn,
                           a < 0 ? "axis is out of range" : "indices and x differ in ndim");
    if (!is_int(indices->dtype) || out->dtype != x->dtype)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: indices %s, x %s, out %s", fn,
                           accel_dtype_name(indices->dtype), accel_dtype_name(x->dtype),
                           accel_dtype_name(out->dtype));
    int64_t shape[ACCEL_ARRAY_MAX_NDIM];
    for (uint32_t d = 0; d < x->ndim; d++) {
        int64_t nx = (int)d == a ? 1 : x->shape[d], ni = indices->shape[d];
        if (nx != ni && nx != 1 && ni != 1)
            return accel__array_shape_is(fn, "indices", indices, x->ndim, x->shape);
        shape[d] = (int)d == a ? ni : nx == 1 ? ni : nx;
    }
    st = accel__array_shape_is(fn, "out", out, x->ndim, shape);
    if (st != ACCEL_SUCCESS)
        return st;
    c.np = x->ndim;
    for (uint32_t d = 0; d < x->ndim; d++) {
        c.psize[d] = shape[d];
        c.pst[0][d] = out->strides[d];
        c.pst[1][d] = (int)d == a || x->shape[d] == 1 ? 0 : x->strides[d];
        c.pst[2][d] = indices->shape[d] == 1 ? 0 : indices->strides[d];
    }
    c.k[0] = x->shape[a];
    c.k[1] = x->strides[a];
    return take_run(fn, q, rt, &c, x, (uint32_t)a);
}

accel_status accel_array_nonzero(accel_queue *q, const accel_array *x, const accel_array *out)
{
    static const char fn[] = "accel_array_nonzero";
    static const char *const names[2] = {"out", "x"};
    accel__lcall c;
    accel_runtime *rt;
    accel_status st = accel__lcall_io(&c, fn, &row_nonzero, q, out, x, NULL, names, &rt);
    if (st != ACCEL_SUCCESS)
        return st;
    if (x->ndim == 0 || out->dtype != ACCEL_I64)
        return accel__fail(x->ndim ? ACCEL_ERROR_DTYPE_MISMATCH : ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: %s", fn,
                           x->ndim ? "out must be int64" : "x is 0-d (the Array API refuses it)");
    if (out->ndim != 2 || out->shape[0] != x->ndim) {
        const int64_t want[2] = {x->ndim, out->ndim == 2 ? out->shape[1] : 0};
        return accel__array_shape_is(fn, "out", out, 2, want);
    }
    c.ns = x->ndim;
    for (uint32_t d = 0; d < x->ndim; d++) {
        c.ssize[d] = x->shape[d];
        c.sst[1][d] = x->strides[d];
    }
    c.k[0] = out->shape[1];
    c.k[1] = out->strides[0];
    c.k[2] = out->strides[1];
    return accel__loop_run(q, rt, &c);
}

/* The spaces of a mask call: S the mask's axes (x's leading ones), P x's
 * trailing axes; arrays xk (x), rk (the compressed side: out or values). */
static accel_status mask_space(const char *fn, accel__lcall *c, const accel_array *x,
                               const accel_array *mask, const accel_array *r, const char *rname,
                               uint32_t xk, uint32_t rk)
{
    if (mask->dtype != ACCEL_BOOL || mask->ndim == 0 || mask->ndim > x->ndim ||
        memcmp(mask->shape, x->shape, mask->ndim * sizeof mask->shape[0]))
        return accel__fail(
            mask->dtype != ACCEL_BOOL ? ACCEL_ERROR_DTYPE_MISMATCH : ACCEL_ERROR_SHAPE_MISMATCH,
            "%s: mask must be bool with the shape of x's leading axes (1 to %u)", fn, x->ndim);
    uint32_t nt = x->ndim - mask->ndim;
    bool scalar = rk == 1 && r->ndim == 0; /* a 0-d value for every selected element */
    bool fits = scalar || (r->ndim == nt + 1 &&
                           !memcmp(r->shape + 1, x->shape + mask->ndim, nt * sizeof r->shape[0]));
    if (!fits) {
        int64_t want[ACCEL_ARRAY_MAX_NDIM + 1] = {r->ndim ? r->shape[0] : 0};
        memcpy(want + 1, x->shape + mask->ndim, nt * sizeof want[0]);
        return accel__array_shape_is(fn, rname, r, nt + 1, want);
    }
    if (r->dtype != x->dtype)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: %s is %s but x %s", fn, rname,
                           accel_dtype_name(r->dtype), accel_dtype_name(x->dtype));
    c->ns = mask->ndim;
    for (uint32_t d = 0; d < mask->ndim; d++) {
        c->ssize[d] = mask->shape[d];
        c->sst[xk][d] = x->strides[d];
        c->sst[2][d] = mask->strides[d];
    }
    c->np = nt;
    for (uint32_t d = 0; d < nt; d++) {
        c->psize[d] = x->shape[mask->ndim + d];
        c->pst[xk][d] = x->strides[mask->ndim + d];
        c->pst[rk][d] = scalar ? 0 : r->strides[1 + d];
    }
    c->k[0] = scalar ? INT64_MAX : r->shape[0];
    c->k[1] = scalar ? 0 : r->strides[0];
    return ACCEL_SUCCESS;
}

/* A mask gather (xk 1: a0 out, a1 x) or scatter (xk 0: a0 x, a1 values). */
static accel_status mask_run(const char *fn, const accel__lrow *row, accel_queue *q,
                             const accel_array *a0, const accel_array *a1, const accel_array *mask,
                             const char *const names[3], uint32_t xk)
{
    accel__lcall c;
    accel_runtime *rt;
    accel_status st = accel__lcall_io(&c, fn, row, q, a0, a1, mask, names, &rt);
    if (st == ACCEL_SUCCESS)
        st = mask_space(fn, &c, c.a[xk], mask, c.a[1 - xk], names[1 - xk], xk, 1 - xk);
    return st == ACCEL_SUCCESS ? accel__loop_run(q, rt, &c) : st;
}

accel_status accel_array_mask_gather(accel_queue *q, const accel_array *x, const accel_array *mask,
                                     const accel_array *out)
{
    static const char *const names[3] = {"out", "x", "mask"};
    return mask_run("accel_array_mask_gather", &row_mask_gather, q, out, x, mask, names, 1);
}

accel_status accel_array_mask_scatter(accel_queue *q, const accel_array *x, const accel_array *mask,
                                      const accel_array *values)
{
    static const char *const names[3] = {"x", "values", "mask"};
    return mask_run("accel_array_mask_scatter", &row_mask_scatter, q, x, values, mask, names, 0);
}
