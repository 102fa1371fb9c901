/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/arrays/stats.c — the statistics that are more than one fold: var and
 * std (two passes over the reduced elements) and cumulative_sum (a running
 * sum along one axis), as rows of loop kernels (loop.c): one thread per
 * kept element walks its reduced elements in row-major order, so every
 * backend computes the same bits. The one exception: a cumulative_sum of
 * row-major views runs as the backend's ACCEL_OP_CUMSUM where it has one
 * (cumsum_native; CUB's scan on CUDA), float64 sums in its own order. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "accel/backend.h"

#include "arrays/arrays_internal.h"
#include "base/status.h"
#include "ops/ops.h"

/* The two-pass algorithm (Chan, Golub and LeVeque, "Algorithms for
 * computing the sample variance: analysis and recommendations", The
 * American Statistician 37(3), 1983, eq. 1.2a; Higham, Accuracy and
 * Stability of Numerical Algorithms, 2nd ed., section 1.9): the mean, then
 * the sum of squared deviations from it, in float64. k0: std (sqrt). */
static const accel__lrow row_var = {
    .name = "var",
    .narr = 2,
    .written = 1,
    .nf = 1,
    .ni = 1,
    .serial = 1,
    .pre = "    double accel_s = 0, accel_q = 0;",
    .body = "      accel_s += (double)accel_ld1(accel_o1);",
    .mid = "    const double accel_mu = accel_s / (double)accel_m;",
    .body2 = "      { const double accel_d = (double)accel_ld1(accel_o1) - accel_mu; "
             "accel_q += accel_d * accel_d; }",
    .post =
        "    { const double accel_zero = 0.0, accel_dof = (double)accel_m - accel_f0;\n"
        "      double accel_v = accel_dof > 0 ? accel_q / accel_dof : accel_zero / accel_zero;\n"
        "      if (accel_k0) accel_v = sqrt(accel_v);\n"
        "      accel_st0(accel_p0, accel_v); }"};

/* The real running sum or product: accel_acc (accel_acc_t: float64, or
 * uint64 for integers, wrapping, never undefined) starts at INIT, stored
 * first with include_initial (k0; k1: out's stride along the axis then),
 * and takes each element with OP. */
#define CUMULATIVE_ROW(NAME, INIT, OP)                                                             \
    {                                                                                              \
        .name = NAME, .narr = 2, .written = 1, .ni = 2, .serial = 1,                               \
        .pre = "    accel_acc_t accel_acc = " INIT ";\n"                                           \
               "    if (accel_k0) accel_st0(accel_p0, accel_acc);",                                \
        .body = "      accel_acc " OP " (accel_acc_t)accel_ld1(accel_o1);\n"                       \
                "      accel_st0(accel_o0 + accel_k1, accel_acc);"                                 \
    }
static const accel__lrow row_cumsum = CUMULATIVE_ROW("cumulative_sum", "0", "+=");
static const accel__lrow row_cumprod = CUMULATIVE_ROW("cumulative_prod", "1", "*=");

/* A long line in chunks (cumulative_split): a work item per chunk of k0
 * elements (the last P axis, its coordinate read) folds the chunk's
 * elements below the line's length k1 in order into its total, array 0
 * (float64, or uint64 for integers: accel_acc_t of that dtype). */
#define CHUNK_TOTAL_ROW(NAME, INIT, OP)                                                            \
    {                                                                                              \
        .name = NAME, .narr = 2, .written = 1, .ni = 2, .serial = 1, .pcoords = 1,                 \
        .pre = "    accel_acc_t accel_acc = " INIT ";\n"                                           \
               "    const long long accel_at = accel_cp[accel_NP - 1] * accel_k0;",                \
        .body = "      if (accel_at + accel_j < accel_k1) accel_acc " OP                           \
                " (accel_acc_t)accel_ld1(accel_o1);",                                              \
        .post = "    accel_st0(accel_p0, accel_acc);"                                              \
    }
static const accel__lrow row_cumsum_total = CHUNK_TOTAL_ROW("cumulative_sum_total", "0", "+=");
static const accel__lrow row_cumprod_total = CHUNK_TOTAL_ROW("cumulative_prod_total", "1", "*=");

/* Then each chunk's running fold from array 2, the fold of the chunks
 * before it (its INIT for the first): CUMULATIVE_ROW's body below the
 * line's length k3 (k2: the chunk's length; k0, k1 as there, the initial
 * value stored by the first chunk alone). */
#define CHUNK_RUN_ROW(NAME, OP)                                                                    \
    {                                                                                              \
        .name = NAME, .narr = 3, .written = 1, .ni = 4, .serial = 1, .pcoords = 1,                 \
        .pre = "    accel_acc_t accel_acc = (accel_acc_t)accel_ld2(accel_p2);\n"                   \
               "    const long long accel_at = accel_cp[accel_NP - 1] * accel_k2;\n"               \
               "    if (accel_k0 && accel_at == 0) accel_st0(accel_p0, accel_acc);",               \
        .body = "      if (accel_at + accel_j < accel_k3) {\n"                                     \
                "        accel_acc " OP " (accel_acc_t)accel_ld1(accel_o1);\n"                     \
                "        accel_st0(accel_o0 + accel_k1, accel_acc); }"                             \
    }
static const accel__lrow row_cumsum_run = CHUNK_RUN_ROW("cumulative_sum_run", "+=");
static const accel__lrow row_cumprod_run = CHUNK_RUN_ROW("cumulative_prod_run", "*=");

/* The same into a complex out: both parts summed in float64. */
static const accel__lrow row_cumsum_complex = {
    .name = "cumulative_sum_c",
    .narr = 2,
    .written = 1,
    .ni = 2,
    .serial = 1,
    .complex_ok = 1,
    .pre = "    double accel_sr = 0, accel_si = 0;\n"
           "    if (accel_k0) accel_stc0(accel_p0, accel_sr, accel_si);",
    .body = "      accel_sr += (double)accel_re1(accel_o1);\n"
            "      accel_si += (double)accel_im1(accel_o1);\n"
            "      accel_stc0(accel_o0 + accel_k1, accel_sr, accel_si);"};

/* The running product into a complex out: (ac - bd) + (ad + bc)i in
 * float64. */
static const accel__lrow row_cumprod_complex = {
    .name = "cumulative_prod_c",
    .narr = 2,
    .written = 1,
    .ni = 2,
    .serial = 1,
    .complex_ok = 1,
    .pre = "    double accel_sr = 1, accel_si = 0;\n"
           "    if (accel_k0) accel_stc0(accel_p0, accel_sr, accel_si);",
    .body = "      { const double accel_xr = (double)accel_re1(accel_o1), "
            "accel_xi = (double)accel_im1(accel_o1);\n"
            "        const double accel_t = accel_sr * accel_xr - accel_si * accel_xi;\n"
            "        accel_si = accel_sr * accel_xi + accel_si * accel_xr;\n"
            "        accel_sr = accel_t; }\n"
            "      accel_stc0(accel_o0 + accel_k1, accel_sr, accel_si);"};

static const char *const out_x[2] = {"out", "x"};

static accel_status var_std(const char *fn, accel_queue *q, const accel_array *x,
                            uint64_t axes_mask, double correction, int keepdims, bool sd,
                            const accel_array *out)
{
    accel__lcall c;
    accel_runtime *rt;
    accel_status st = accel__lcall_io(&c, fn, &row_var, q, out, x, NULL, out_x, &rt);
    if (st != ACCEL_SUCCESS)
        return st;
    if ((st = accel__array_axes_mask(fn, x, axes_mask)) != ACCEL_SUCCESS)
        return st;
    if (accel_dtype_kind_of(x->dtype) != ACCEL_DTYPE_KIND_FLOAT || out->dtype != x->dtype)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: x is %s and out %s (one float dtype)",
                           fn, accel_dtype_name(x->dtype), accel_dtype_name(out->dtype));
    if (!(correction >= 0) || correction != correction)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: correction %g (>= 0)", fn,
                           correction);
    st = accel__reduce_shape(fn, x, out, axes_mask, keepdims);
    if (st != ACCEL_SUCCESS)
        return st;
    for (uint32_t d = 0, od = 0; d < x->ndim; d++) {
        bool red = axes_mask >> d & 1u;
        int64_t os = !red || keepdims ? out->strides[od++] : 0;
        if (red) {
            c.ssize[c.ns] = x->shape[d];
            c.sst[0][c.ns] = 0;
            c.sst[1][c.ns++] = x->strides[d];
        } else {
            c.psize[c.np] = x->shape[d];
            c.pst[0][c.np] = os;
            c.pst[1][c.np++] = x->strides[d];
        }
    }
    c.f[0] = correction;
    c.k[0] = sd;
    return accel__loop_run(q, rt, &c);
}

accel_status accel_array_var(accel_queue *q, const accel_array *x, uint64_t axes_mask,
                             double correction, int keepdims, const accel_array *out)
{
    return var_std("accel_array_var", q, x, axes_mask, correction, keepdims, false, out);
}

accel_status accel_array_std(accel_queue *q, const accel_array *x, uint64_t axes_mask,
                             double correction, int keepdims, const accel_array *out)
{
    return var_std("accel_array_std", q, x, axes_mask, correction, keepdims, true, out);
}

/* A line longer than this, in fewer lines than SCAN_LINES, folds in
 * chunks (cumulative_split); a chunk holds at least SCAN_CHUNK elements. */
#define SCAN_LINES 32768
#define SCAN_CHUNK 256
#define SCAN_ITEMS 65536 /* the chunks a split aims at: a GPU's threads */

/* The real cumulative fold c (the plain row's call: P the lines, S the
 * axis a of x) in chunks, so that a long line is not one work item's
 * serial walk (a cumulative_sum of 2^28 float32 took 19 s on an H100 as
 * one GPU thread). Three steps, each the same generated code on every
 * backend, so the same bits everywhere: each chunk's total into T; the
 * running fold of T with include_initial (this function again while T's
 * lines are long), the fold of the chunks before each chunk; each chunk's
 * running fold from there into out. Every element's value is its chunk's
 * offset then its chunk's elements in order; within float64 (uint64 for
 * integers, wrapping) as the plain row. */
/* Call c over chunks: P gains the chunk axis last (p chunks, its
 * coordinate read), S becomes a chunk's l elements; array k is a scratch
 * array of per values a line, row-major over the lines, one a chunk. */
static void over_chunks(accel__lcall *c, uint32_t k, int64_t per, int64_t p, int64_t l)
{
    for (uint32_t d = c->np; d-- > 0; per *= c->psize[d])
        c->pst[k][d] = per;
    for (uint32_t i = 0; i < c->row->narr; i++)
        c->pst[i][c->np] = i == k ? 1 : l * c->sst[i][0];
    c->psize[c->np++] = p;
    c->protect = 1;
    c->ssize[0] = l;
    c->sst[k][0] = 0;
}

static accel_status cumulative_split(const char *fn, bool prod, accel_queue *q, accel_runtime *rt,
                                     const accel__lcall *plain, const accel_array *out,
                                     int64_t lines, int64_t m)
{
    int64_t p = (SCAN_ITEMS + lines - 1) / lines, most = m / SCAN_CHUNK;
    p = p < most ? p : most;
    int64_t l = (m + p - 1) / p;
    p = (m + l - 1) / l;
    accel_dtype tdt =
        accel_dtype_kind_of(out->dtype) == ACCEL_DTYPE_KIND_FLOAT ? ACCEL_F64 : ACCEL_U64;
    accel_buffer *tmp[2] = {NULL, NULL};
    accel_array t, tex;
    const int64_t ts[2] = {lines, p}, xs[2] = {lines, p + 1};
    accel_device *dev = accel_queue_device(q);
    accel_status st = accel_buffer_create(dev, (size_t)(lines * p) * 8, &tmp[0]);
    if (st == ACCEL_SUCCESS)
        st = accel_buffer_create(dev, (size_t)(lines * (p + 1)) * 8, &tmp[1]);
    if (st == ACCEL_SUCCESS)
        st = accel_array_init(&t, tmp[0], tdt, 2, ts);
    if (st == ACCEL_SUCCESS)
        st = accel_array_init(&tex, tmp[1], tdt, 2, xs);
    /* the totals: T, x */
    accel__lcall c = *plain;
    c.row = prod ? &row_cumprod_total : &row_cumsum_total;
    c.a[0] = &t;
    over_chunks(&c, 0, p, p, l);
    c.k[0] = l, c.k[1] = m;
    if (st == ACCEL_SUCCESS &&
        (st = accel__array_io(fn, q, 2, c.a, out_x, c.ext, &rt, false)) == ACCEL_SUCCESS)
        st = accel__loop_run(q, rt, &c);
    if (st == ACCEL_SUCCESS)
        st = (prod ? accel_array_cumulative_prod : accel_array_cumulative_sum)(q, &t, 1, 1, &tex);
    /* the runs: out, x, the chunks' offsets */
    accel__lcall r = *plain;
    r.row = prod ? &row_cumprod_run : &row_cumsum_run;
    r.a[2] = &tex;
    over_chunks(&r, 2, p + 1, p, l);
    r.k[2] = l, r.k[3] = m;
    static const char *const names[3] = {"out", "x", "offsets"};
    if (st == ACCEL_SUCCESS &&
        (st = accel__array_io(fn, q, 3, r.a, names, r.ext, &rt, false)) == ACCEL_SUCCESS)
        st = accel__loop_run(q, rt, &r);
    accel__array_temps_done(q, tmp, 2, st);
    return st;
}

/* cumulative_sum as one ACCEL_OP_CUMSUM op where the queue's backend runs
 * it (CUDA: CUB's single-pass scan, one read and one write of x, where the
 * generated walk reads x twice, each thread alone in its chunk): x and out
 * row-major, out of x's dtype or the 64-bit one of its kind (int32 into
 * int64, bool into int64, float32 into float64; accel__lcall_io has
 * checked both views, offsets whole elements, and refused any overlap);
 * with include_initial a single line only, its leading 0 stored after.
 * *done: it ran (or failed). */
static accel_status cumsum_native(const char *fn, accel_queue *q, const accel_array *x, int a,
                                  int include_initial, const accel_array *out, bool *done)
{
    *done = false;
    size_t outer, inner, n = (size_t)x->shape[a], es = accel_dtype_size(x->dtype),
                         oes = accel_dtype_size(out->dtype);
    accel__array_around_axis(x, (uint32_t)a, &outer, &inner);
    size_t count = outer * n * inner, xo = (size_t)x->offset / es,
           oo = (size_t)out->offset / oes + (include_initial ? 1 : 0);
    bool dtypes = (ACCEL_DTYPES_SCAN >> x->dtype & 1u) && out->dtype != ACCEL_BOOL &&
                  (out->dtype == x->dtype ||
                   out->dtype == accel_scan_out_dtype(x->dtype, ACCEL_OP_FLAG_SCAN_WIDE));
    if (!dtypes || count == 0 || !accel__array_row_major(x) || !accel__array_row_major(out) ||
        (include_initial && outer * inner != 1))
        return ACCEL_SUCCESS;
    accel_status st = accel__cumsum_native(fn, q, x->dtype, out->dtype, outer, n, inner,
                                           accel_slice_of(x->buffer, xo, count),
                                           accel_slice_of(out->buffer, oo, count));
    if (st == ACCEL_ERROR_UNSUPPORTED) /* not on this backend: the generated walk */
        return ACCEL_SUCCESS;
    *done = true;
    if (st == ACCEL_SUCCESS && include_initial) {
        accel_array first = *out;
        first.ndim = 1, first.shape[0] = 1, first.strides[0] = 1;
        st = accel_array_full(q, &first, 0.0);
    }
    return st;
}

/* cumulative_sum and cumulative_prod: the real row or, where x or out is
 * complex, the complex one, along axis; a real sum as one op where the
 * backend has it (cumsum_native); a real fold of few long lines in chunks
 * (cumulative_split). */
static accel_status cumulative(const char *fn, const accel__lrow *real, const accel__lrow *cx,
                               accel_queue *q, const accel_array *x, int32_t axis,
                               int include_initial, const accel_array *out)
{
    accel__lcall c;
    accel_runtime *rt;
    bool cplx = (x && accel_dtype_kind_of(x->dtype) == ACCEL_DTYPE_KIND_COMPLEX) ||
                (out && accel_dtype_kind_of(out->dtype) == ACCEL_DTYPE_KIND_COMPLEX);
    accel_status st = accel__lcall_io(&c, fn, cplx ? cx : real, q, out, x, NULL, out_x, &rt);
    if (st != ACCEL_SUCCESS)
        return st;
    int a = axis == ACCEL_ARRAY_AXIS_NONE && x->ndim == 1 ? 0 : accel__array_axis(axis, x->ndim);
    if (a < 0)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: axis %d is out of range for x's %u axes (required unless x is "
                           "1-D)",
                           fn, axis, x->ndim);
    accel_dtype rt_dt;
    accel_result_type(x->dtype, out->dtype, &rt_dt);
    if (rt_dt != out->dtype || out->dtype == ACCEL_BOOL)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH,
                           "%s: out is %s, which x (%s) does not promote to (numeric, at least "
                           "x's kind and width)",
                           fn, accel_dtype_name(out->dtype), accel_dtype_name(x->dtype));
    int64_t shape[ACCEL_ARRAY_MAX_NDIM];
    memcpy(shape, x->shape, x->ndim * sizeof *shape);
    shape[a] += include_initial ? 1 : 0;
    st = accel__array_shape_is(fn, "out", out, x->ndim, shape);
    if (st != ACCEL_SUCCESS)
        return st;
    for (uint32_t d = 0; d < x->ndim; d++) {
        if ((int)d == a)
            continue;
        c.psize[c.np] = x->shape[d];
        c.pst[0][c.np] = out->strides[d];
        c.pst[1][c.np++] = x->strides[d];
    }
    c.ns = 1;
    c.ssize[0] = x->shape[a];
    c.sst[0][0] = out->strides[a];
    c.sst[1][0] = x->strides[a];
    c.k[0] = include_initial != 0;
    c.k[1] = include_initial ? out->strides[a] : 0;
    int64_t lines = 1;
    for (uint32_t d = 0; d < x->ndim; d++)
        lines *= (int)d == a ? 1 : x->shape[d];
    if (!cplx && real == &row_cumsum) {
        bool done;
        st = cumsum_native(fn, q, x, a, include_initial, out, &done);
        if (done)
            return st;
    }
    if (!cplx && lines > 0 && lines < SCAN_LINES && x->shape[a] >= 2 * SCAN_CHUNK)
        return cumulative_split(fn, real == &row_cumprod, q, rt, &c, out, lines, x->shape[a]);
    return accel__loop_run(q, rt, &c);
}

accel_status accel_array_cumulative_sum(accel_queue *q, const accel_array *x, int32_t axis,
                                        int include_initial, const accel_array *out)
{
    return cumulative("accel_array_cumulative_sum", &row_cumsum, &row_cumsum_complex, q, x, axis,
                      include_initial, out);
}

accel_status accel_array_cumulative_prod(accel_queue *q, const accel_array *x, int32_t axis,
                                         int include_initial, const accel_array *out)
{
    return cumulative("accel_array_cumulative_prod", &row_cumprod, &row_cumprod_complex, q, x, axis,
                      include_initial, out);
}
