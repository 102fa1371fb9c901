/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/arrays/manipulate.c — the Array API's manipulation functions that
 * move elements: concat, stack, roll, repeat, tile, reshape with a copy, and
 * moveaxis (a view). Each is views of the output (slices, axes split into
 * two with a stride-0 side for the input) filled by the generated copy
 * kernel (accel_array_astype), so every backend runs them with no code of
 * its own and verify mode checks them exactly. Everything is checked before
 * the first copy is enqueued, so a refused call leaves out untouched. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrays/arrays_internal.h"
#include "base/status.h"

#define MAX_COUNT 1024

accel_status accel_array_moveaxis(const accel_array *x, uint32_t count, const int32_t *src,
                                  const int32_t *dst, accel_array *out)
{
    static const char fn[] = "accel_array_moveaxis";
    accel_status st = accel__array_check(fn, "x", x, NULL);
    if (st != ACCEL_SUCCESS)
        return st;
    if ((count && (!src || !dst)) || !out)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                           !out   ? "out"
                           : !src ? "src"
                                  : "dst");
    if (count > x->ndim)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: count %u exceeds x's %u axes", fn,
                           count, x->ndim);
    int32_t order[ACCEL_ARRAY_MAX_NDIM];
    uint64_t used_src = 0, used_dst = 0;
    for (uint32_t i = 0; i < count; i++) {
        int s = accel__array_axis(src[i], x->ndim), d = accel__array_axis(dst[i], x->ndim);
        if (s < 0 || d < 0 || (used_src >> s & 1u) || (used_dst >> d & 1u))
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: %s[%u] = %d is %s (x has %u axes)", fn,
                               s < 0 || (used_src >> s & 1u) ? "src" : "dst", i,
                               s < 0 || (used_src >> s & 1u) ? src[i] : dst[i],
                               s < 0 || d < 0 ? "out of range" : "repeated", x->ndim);
        used_src |= 1ull << s;
        used_dst |= 1ull << d;
        order[d] = s;
    }
    for (uint32_t d = 0, s = 0; d < x->ndim; d++) {
        if (used_dst >> d & 1u)
            continue;
        while (used_src >> s & 1u)
            s++;
        order[d] = (int32_t)s++;
    }
    return accel_array_permute_dims(x, order, out);
}

/* ---------------------------------------------------------------- checks */

/* The views of a call: each valid on q's device; no input meets out. */
static accel_status check_views(const char *fn, accel_queue *q, size_t n,
                                const accel_array *const *xs, const accel_array *out)
{
    if (!xs || !out)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, !out ? "out" : "xs");
    accel_runtime *rt;
    accel__extent ext[2];
    accel_status st = ACCEL_SUCCESS;
    for (size_t i = 0; st == ACCEL_SUCCESS && i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, n == 1 ? "x" : "xs[%zu]", i);
        const accel_array *a[2] = {out, xs[i]};
        const char *names[2] = {"out", name};
        st = accel__array_io(fn, q, 2, a, names, ext, &rt, false);
    }
    return st;
}

static accel_status want_dtype(const char *fn, const accel_array *out, accel_dtype dt)
{
    if (out->dtype == dt)
        return ACCEL_SUCCESS;
    return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: out is %s but the result is %s", fn,
                       accel_dtype_name(out->dtype), accel_dtype_name(dt));
}

/* a viewed as one axis of its row-major elements, or UNSUPPORTED. */
static accel_status flat(const char *fn, const char *name, const accel_array *a, accel_array *out)
{
    int64_t n = 1;
    for (uint32_t d = 0; d < a->ndim; d++)
        n *= a->shape[d];
    if (accel_array_reshape(a, 1, &n, out) == ACCEL_SUCCESS)
        return ACCEL_SUCCESS;
    return accel__fail(ACCEL_ERROR_UNSUPPORTED,
                       "%s: %s's strides cannot be viewed flat; copy it into a contiguous array "
                       "first (accel_array_reshape_copy)",
                       fn, name);
}

/* out's elements [start, start + len) along axis. */
static accel_array part(const accel_array *a, uint32_t axis, int64_t start, int64_t len)
{
    accel_array t = *a;
    t.shape[axis] = len;
    if (len > 0)
        t.offset = (uint64_t)((int64_t)a->offset +
                              start * a->strides[axis] * (int64_t)accel_dtype_size(a->dtype));
    return t;
}

static accel_status copy(accel_queue *q, const accel_array *x, const accel_array *out)
{
    for (uint32_t d = 0; d < out->ndim; d++)
        if (out->shape[d] == 0)
            return ACCEL_SUCCESS;
    return accel_array_astype(q, x, out);
}

/* ------------------------------------------------------- concat, stack */

/* The views of a join (xs flattened or expanded as the call needs) and
 * out's checks; the axis they join along into *axis_out. */
static accel_status join_views(const char *fn, size_t n, const accel_array *const *xs, int32_t axis,
                               bool stack, accel_array *v, uint32_t *axis_out,
                               const accel_array *out)
{
    accel_status st;
    bool none = axis == ACCEL_ARRAY_AXIS_NONE && !stack;
    uint32_t nd = none ? 1 : xs[0]->ndim + (stack ? 1 : 0);
    int a = none ? 0 : accel__array_axis(axis, nd);
    if (a < 0)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: axis %d is out of range for %u axes",
                           fn, axis, nd);
    accel_dtype dt = xs[0]->dtype;
    int64_t shape[ACCEL_ARRAY_MAX_NDIM], total = 0;
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "xs[%zu]", i);
        v[i] = *xs[i];
        st = none    ? flat(fn, name, xs[i], &v[i])
             : stack ? accel_array_expand_dims(xs[i], a, &v[i])
                     : ACCEL_SUCCESS;
        if (st != ACCEL_SUCCESS)
            return st;
        accel_result_type(dt, xs[i]->dtype, &dt);
        bool fits = v[i].ndim == nd;
        for (uint32_t d = 0; fits && d < nd; d++)
            fits = (int)d == a || v[i].shape[d] == v[0].shape[d];
        if (!fits) {
            char s1[512], s2[512];
            return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH, "%s: %s has shape %s, xs[0] %s", fn,
                               name, accel__shape_str(xs[i]->ndim, xs[i]->shape, s1, sizeof s1),
                               accel__shape_str(xs[0]->ndim, xs[0]->shape, s2, sizeof s2));
        }
        total += v[i].shape[a];
    }
    memcpy(shape, v[0].shape, nd * sizeof *shape);
    shape[a] = total;
    st = want_dtype(fn, out, dt);
    if (st == ACCEL_SUCCESS)
        st = accel__array_shape_is(fn, "out", out, nd, shape);
    *axis_out = (uint32_t)a;
    return st;
}

/* Joins xs (each of out's ndim axes when stacked: expanded at axis). */
static accel_status join(const char *fn, accel_queue *q, size_t n, const accel_array *const *xs,
                         int32_t axis, bool stack, const accel_array *out)
{
    if (n == 0 || n > MAX_COUNT)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: count %zu is not in [1, %d]", fn, n,
                           MAX_COUNT);
    accel_status st = check_views(fn, q, n, xs, out);
    if (st != ACCEL_SUCCESS)
        return st;
    accel_array *v = malloc(n * sizeof *v);
    if (!v)
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    uint32_t a = 0;
    st = join_views(fn, n, xs, axis, stack, v, &a, out);
    for (size_t i = 0, at = 0; st == ACCEL_SUCCESS && i < n; i++) {
        accel_array o = part(out, a, (int64_t)at, v[i].shape[a]);
        at += (size_t)v[i].shape[a];
        st = copy(q, &v[i], &o);
    }
    free(v);
    return st;
}

accel_status accel_array_concat(accel_queue *q, size_t count, const accel_array *const *xs,
                                int32_t axis, const accel_array *out)
{
    return join("accel_array_concat", q, count, xs, axis, false, out);
}

accel_status accel_array_stack(accel_queue *q, size_t count, const accel_array *const *xs,
                               int32_t axis, const accel_array *out)
{
    return join("accel_array_stack", q, count, xs, axis, true, out);
}

/* ------------------------------------------------------------------ roll */

/* The 2^k copies of a roll over k axes: piece by piece, each axis's part
 * [0, n - s) of x goes to [s, n) of out and [n - s, n) to [0, s). */
static accel_status roll_pieces(accel_queue *q, const accel_array *x, const accel_array *out,
                                const int64_t *sh)
{
    uint32_t axes[ACCEL_ARRAY_MAX_NDIM], k = 0;
    for (uint32_t d = 0; d < x->ndim; d++)
        if (sh[d])
            axes[k++] = d;
    accel_status st = ACCEL_SUCCESS;
    for (uint64_t m = 0; st == ACCEL_SUCCESS && m < (1ull << k); m++) {
        accel_array xv = *x, ov = *out;
        for (uint32_t j = 0; j < k; j++) {
            uint32_t d = axes[j];
            int64_t n = x->shape[d], s = sh[d];
            bool tail = m >> j & 1u;
            xv = part(&xv, d, tail ? n - s : 0, tail ? s : n - s);
            ov = part(&ov, d, tail ? 0 : s, tail ? s : n - s);
        }
        st = copy(q, &xv, &ov);
    }
    return st;
}

accel_status accel_array_roll(accel_queue *q, const accel_array *x, uint32_t count,
                              const int64_t *shift, const int32_t *axes, const accel_array *out)
{
    static const char fn[] = "accel_array_roll";
    accel_status st = check_views(fn, q, 1, &x, out);
    if (st == ACCEL_SUCCESS && (!shift || (!axes && count != 1) || count > 64))
        st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s", fn,
                         !shift ? "shift is NULL"
                                : "count must be 1 with axes NULL, at most 64 otherwise");
    if (st == ACCEL_SUCCESS)
        st = want_dtype(fn, out, x->dtype);
    if (st == ACCEL_SUCCESS)
        st = accel__array_shape_is(fn, "out", out, x->ndim, x->shape);
    accel_array xv = *x, ov = *out;
    if (st == ACCEL_SUCCESS && !axes) {
        st = flat(fn, "x", x, &xv);
        if (st == ACCEL_SUCCESS)
            st = flat(fn, "out", out, &ov);
    }
    if (st != ACCEL_SUCCESS)
        return st;
    int64_t sh[ACCEL_ARRAY_MAX_NDIM] = {0};
    for (uint32_t i = 0; i < count; i++) {
        int d = axes ? accel__array_axis(axes[i], x->ndim) : 0;
        if (d < 0)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: axes[%u] = %d is out of range (x has %u axes)", fn, i, axes[i],
                               x->ndim);
        int64_t n = xv.shape[d];
        if (n > 0)
            sh[d] = ((sh[d] + shift[i] % n) % n + n) % n;
    }
    return roll_pieces(q, &xv, &ov, sh);
}

/* ---------------------------------------------------------------- repeat */

/* Axis a of v split in two: (v.shape[a], r) with strides (outer, inner). */
static bool split(accel_array *v, uint32_t a, int64_t n, int64_t r, int64_t outer, int64_t inner)
{
    if (v->ndim >= ACCEL_ARRAY_MAX_NDIM)
        return false;
    memmove(&v->shape[a + 1], &v->shape[a], (v->ndim - a) * sizeof v->shape[0]);
    memmove(&v->strides[a + 1], &v->strides[a], (v->ndim - a) * sizeof v->strides[0]);
    v->ndim++;
    v->shape[a] = n;
    v->shape[a + 1] = r;
    v->strides[a] = outer;
    v->strides[a + 1] = inner;
    return true;
}

static accel_status repeat_each(accel_queue *q, const accel_array *x, const int64_t *reps,
                                uint32_t a, const accel_array *out)
{
    accel_status st = ACCEL_SUCCESS;
    int64_t at = 0;
    for (int64_t i = 0; st == ACCEL_SUCCESS && i < x->shape[a]; i++) {
        accel_array xv = part(x, a, i, 1), ov = part(out, a, at, reps[i]);
        at += reps[i];
        st = copy(q, &xv, &ov); /* the size-1 axis broadcasts */
    }
    return st;
}

accel_status accel_array_repeat(accel_queue *q, const accel_array *x, size_t nrepeats,
                                const int64_t *repeats, int32_t axis, const accel_array *out)
{
    static const char fn[] = "accel_array_repeat";
    accel_status st = check_views(fn, q, 1, &x, out);
    if (st == ACCEL_SUCCESS && !repeats)
        st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: repeats is NULL", fn);
    if (st == ACCEL_SUCCESS)
        st = want_dtype(fn, out, x->dtype);
    bool none = axis == ACCEL_ARRAY_AXIS_NONE;
    accel_array xv = *x;
    if (st == ACCEL_SUCCESS && none)
        st = flat(fn, "x", x, &xv);
    if (st != ACCEL_SUCCESS)
        return st;
    int a = none ? 0 : accel__array_axis(axis, x->ndim);
    if (a < 0)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: axis %d is out of range for %u axes",
                           fn, axis, x->ndim);
    int64_t n = xv.shape[a], total = 0;
    if (nrepeats != 1 && nrepeats != (size_t)n)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: nrepeats %zu is neither 1 nor the axis' size %lld", fn, nrepeats,
                           (long long)n);
    for (size_t i = 0; i < nrepeats; i++) {
        if (repeats[i] < 0 || __builtin_add_overflow(total, repeats[i], &total))
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: repeats[%zu] = %lld", fn, i,
                               (long long)repeats[i]);
    }
    if (nrepeats == 1 && __builtin_mul_overflow(repeats[0], n, &total))
        return accel__fail(ACCEL_ERROR_OUT_OF_RANGE, "%s: the result's size overflows", fn);
    int64_t shape[ACCEL_ARRAY_MAX_NDIM];
    memcpy(shape, xv.shape, xv.ndim * sizeof *shape);
    shape[a] = total;
    st = accel__array_shape_is(fn, "out", out, xv.ndim, shape);
    accel_array ov = *out;
    if (st != ACCEL_SUCCESS || nrepeats != 1)
        return st != ACCEL_SUCCESS ? st : repeat_each(q, &xv, repeats, (uint32_t)a, &ov);
    int64_t os = out->strides[a], r = repeats[0];
    if (!split(&ov, (uint32_t)a, n, r, os * r, os) ||
        !split(&xv, (uint32_t)a, n, r, xv.strides[a], 0))
        return accel__fail(ACCEL_ERROR_UNSUPPORTED, "%s: x has %d axes already", fn,
                           ACCEL_ARRAY_MAX_NDIM);
    return copy(q, &xv, &ov);
}

/* ------------------------------------------------------------------ tile */

accel_status accel_array_tile(accel_queue *q, const accel_array *x, uint32_t nreps,
                              const int64_t *reps, const accel_array *out)
{
    static const char fn[] = "accel_array_tile";
    accel_status st = check_views(fn, q, 1, &x, out);
    if (st == ACCEL_SUCCESS && ((nreps && !reps) || nreps > ACCEL_ARRAY_MAX_NDIM))
        st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s", fn,
                         nreps > ACCEL_ARRAY_MAX_NDIM ? "more reps than ACCEL_ARRAY_MAX_NDIM"
                                                      : "reps is NULL");
    if (st == ACCEL_SUCCESS)
        st = want_dtype(fn, out, x->dtype);
    if (st != ACCEL_SUCCESS)
        return st;
    uint32_t nd = nreps > x->ndim ? nreps : x->ndim;
    accel_array xv = *x;
    xv.ndim = nd; /* x with leading size-1 axes */
    int64_t r[ACCEL_ARRAY_MAX_NDIM], shape[ACCEL_ARRAY_MAX_NDIM];
    for (uint32_t d = 0; d < nd; d++) {
        bool hx = d >= nd - x->ndim, hr = d >= nd - nreps;
        xv.shape[d] = hx ? x->shape[d - (nd - x->ndim)] : 1;
        xv.strides[d] = hx ? x->strides[d - (nd - x->ndim)] : 0;
        r[d] = hr ? reps[d - (nd - nreps)] : 1;
        if (r[d] < 0)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: reps[%u] = %lld is negative", fn,
                               d - (nd - nreps), (long long)r[d]);
        if (__builtin_mul_overflow(r[d], xv.shape[d], &shape[d]))
            return accel__fail(ACCEL_ERROR_OUT_OF_RANGE, "%s: the result's size overflows", fn);
    }
    st = accel__array_shape_is(fn, "out", out, nd, shape);
    if (st != ACCEL_SUCCESS)
        return st;
    accel_array ov = *out;
    for (uint32_t d = nd; d-- > 0;) { /* axis d as (r, n): out (n*s, s), x (0, sx) */
        if (r[d] == 1)
            continue;
        int64_t n = xv.shape[d], os = ov.strides[d];
        if (!split(&ov, d, r[d], n, n * os, os) || !split(&xv, d, r[d], n, 0, xv.strides[d]))
            return accel__fail(ACCEL_ERROR_UNSUPPORTED,
                               "%s: more than %d axes once each repeated axis is split", fn,
                               ACCEL_ARRAY_MAX_NDIM);
    }
    return copy(q, &xv, &ov);
}

/* --------------------------------------------------------- reshape copy */

accel_status accel_array_reshape_copy(accel_queue *q, const accel_array *x, const accel_array *out)
{
    static const char fn[] = "accel_array_reshape_copy";
    accel_status st = check_views(fn, q, 1, &x, out);
    if (st == ACCEL_SUCCESS)
        st = want_dtype(fn, out, x->dtype);
    if (st != ACCEL_SUCCESS)
        return st;
    int64_t nx = 1, no = 1;
    for (uint32_t d = 0; d < x->ndim; d++)
        nx *= x->shape[d];
    for (uint32_t d = 0; d < out->ndim; d++)
        no *= out->shape[d];
    if (nx != no)
        return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH, "%s: x has %lld elements, out %lld", fn,
                           (long long)nx, (long long)no);
    accel_array v;
    if (accel_array_reshape(out, x->ndim, x->shape, &v) == ACCEL_SUCCESS)
        return copy(q, x, &v);
    if (accel_array_reshape(x, out->ndim, out->shape, &v) == ACCEL_SUCCESS)
        return copy(q, &v, out);
    return accel__fail(ACCEL_ERROR_UNSUPPORTED,
                       "%s: neither x's nor out's strides view as the other's shape; make out "
                       "contiguous",
                       fn);
}
