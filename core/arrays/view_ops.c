/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/arrays/view_ops.c — views made from views by changing numbers only:
 * slice, permute_dims, expand_dims, squeeze, broadcast_to, flip, reshape.
 * Each checks its input, builds the result in a local and copies it out
 * only on success (out may be the input). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "arrays/arrays_internal.h"
#include "base/status.h"

/* Normalise Python's slice.indices: start/stop clamped, negative from the end. */
static int64_t slice_len(int64_t n, int64_t *start, int64_t stop, int64_t step)
{
    int64_t lo = step > 0 ? 0 : -1, hi = step > 0 ? n : n - 1;
    int64_t s = *start, e = stop;
    s = s < 0 ? (s < -n ? lo : s + n) : (s > hi ? hi : s);
    e = e < 0 ? (e < -n ? lo : e + n) : (e > hi ? hi : e);
    *start = s;
    if (step > 0)
        return e > s ? (e - s - 1) / step + 1 : 0;
    return s > e ? (s - e - 1) / (-step) + 1 : 0;
}

/* The view of a valid x sliced by start, stop, step (x->ndim entries each)
 * into *out; fn names the public call in messages. */
static accel_status slice_view(const char *fn, const accel_array *x, const int64_t *start,
                               const int64_t *stop, const int64_t *step, accel_array *out)
{
    accel_array t = *x;
    int64_t es = (int64_t)accel_dtype_size(x->dtype), move = 0;
    bool empty = false;
    for (uint32_t i = 0; i < x->ndim; i++) {
        if (step[i] == 0 || step[i] == INT64_MIN)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: step[%u] = %lld", fn, i,
                               (long long)step[i]);
        int64_t s = start[i];
        int64_t n = slice_len(x->shape[i], &s, stop[i], step[i]);
        t.shape[i] = n;
        if (__builtin_mul_overflow(x->strides[i], step[i], &t.strides[i])) {
            if (n > 1)
                return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                                   "%s: stride %lld x step[%u] = %lld overflows int64", fn,
                                   (long long)x->strides[i], i, (long long)step[i]);
            t.strides[i] = 0; /* one element: the stride is never used */
        }
        if (n == 0)
            empty = true;
        else
            move += s * x->strides[i];
    }
    if (!empty)
        t.offset = (uint64_t)((int64_t)x->offset + move * es);
    *out = t;
    return ACCEL_SUCCESS;
}

accel_status accel_array_slice(const accel_array *x, const int64_t *start, const int64_t *stop,
                               const int64_t *step, accel_array *out)
{
    static const char fn[] = "accel_array_slice";
    accel_status st = accel__array_check(fn, "x", x, NULL);
    if (st != ACCEL_SUCCESS)
        return st;
    if (x->ndim && (!start || !stop || !step))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                           !start  ? "start"
                           : !stop ? "stop"
                                   : "step");
    if (!out)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
    return slice_view(fn, x, start, stop, step, out);
}

accel_status accel__array_axes_mask(const char *fn, const accel_array *x, uint64_t mask)
{
    if (x->ndim < 64 && mask >> x->ndim)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: axes_mask 0x%llx names axes past the %u of x", fn,
                           (unsigned long long)mask, x->ndim);
    return ACCEL_SUCCESS;
}

int accel__array_axis(int64_t axis, uint32_t ndim)
{
    if (axis < -(int64_t)ndim || axis >= (int64_t)ndim)
        return -1;
    return (int)(axis < 0 ? axis + ndim : axis);
}

accel_status accel_array_permute_dims(const accel_array *x, const int32_t *axes, accel_array *out)
{
    static const char fn[] = "accel_array_permute_dims";
    accel_status st = accel__array_check(fn, "x", x, NULL);
    if (st != ACCEL_SUCCESS)
        return st;
    if ((x->ndim && !axes) || !out)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                           !out ? "out" : "axes");
    accel_array t = *x;
    uint64_t seen = 0;
    for (uint32_t i = 0; i < x->ndim; i++) {
        int a = accel__array_axis(axes[i], x->ndim);
        if (a < 0 || (seen >> a & 1u))
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: axes[%u] = %d is %s (x has %u dimensions)", fn, i, axes[i],
                               a < 0 ? "out of range" : "repeated", x->ndim);
        seen |= 1ull << a;
        t.shape[i] = x->shape[a];
        t.strides[i] = x->strides[a];
    }
    *out = t;
    return ACCEL_SUCCESS;
}

/* The arguments of a view of x with no other pointer: x valid, out not NULL. */
static accel_status one_args(const char *fn, const accel_array *x, const accel_array *out)
{
    accel_status st = accel__array_check(fn, "x", x, NULL);
    if (st == ACCEL_SUCCESS && !out)
        st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
    return st;
}

/* one_args, and axes_mask names no axis past x's last. */
static accel_status mask_args(const char *fn, const accel_array *x, uint64_t axes_mask,
                              const accel_array *out)
{
    accel_status st = one_args(fn, x, out);
    return st == ACCEL_SUCCESS ? accel__array_axes_mask(fn, x, axes_mask) : st;
}

accel_status accel_array_expand_dims(const accel_array *x, int32_t axis, accel_array *out)
{
    static const char fn[] = "accel_array_expand_dims";
    accel_status st = one_args(fn, x, out);
    if (st != ACCEL_SUCCESS)
        return st;
    if (x->ndim == ACCEL_ARRAY_MAX_NDIM)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: x has %d dimensions already", fn,
                           ACCEL_ARRAY_MAX_NDIM);
    int a = accel__array_axis(axis, x->ndim + 1);
    if (a < 0)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: axis %d is out of range [%d, %u] for %u dimensions", fn, axis,
                           -(int)x->ndim - 1, x->ndim, x->ndim);
    accel_array t = *x;
    t.ndim = x->ndim + 1;
    for (uint32_t i = 0, j = 0; i < t.ndim; i++) {
        if ((int)i == a) {
            t.shape[i] = 1;
            t.strides[i] = 0;
            continue;
        }
        t.shape[i] = x->shape[j];
        t.strides[i] = x->strides[j++];
    }
    *out = t;
    return ACCEL_SUCCESS;
}

accel_status accel_array_squeeze(const accel_array *x, uint64_t axes_mask, accel_array *out)
{
    static const char fn[] = "accel_array_squeeze";
    accel_status st = mask_args(fn, x, axes_mask, out);
    if (st != ACCEL_SUCCESS)
        return st;
    accel_array t = *x;
    uint32_t j = 0;
    for (uint32_t i = 0; i < x->ndim; i++) {
        if (axes_mask >> i & 1u) {
            if (x->shape[i] != 1)
                return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: axis %u has size %lld, not 1",
                                   fn, i, (long long)x->shape[i]);
            continue;
        }
        t.shape[j] = x->shape[i];
        t.strides[j++] = x->strides[i];
    }
    t.ndim = j;
    *out = t;
    return ACCEL_SUCCESS;
}

accel_status accel_array_broadcast_to(const accel_array *x, uint32_t ndim, const int64_t *shape,
                                      accel_array *out)
{
    static const char fn[] = "accel_array_broadcast_to";
    accel_status st = accel__array_check(fn, "x", x, NULL);
    if (st != ACCEL_SUCCESS)
        return st;
    if ((ndim && !shape) || !out)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                           !out ? "out" : "shape");
    if (ndim > ACCEL_ARRAY_MAX_NDIM || ndim < x->ndim)
        return accel__fail(
            ACCEL_ERROR_INVALID_ARGUMENT, "%s: ndim %u is %s (x has %u dimensions; at most %d)", fn,
            ndim, ndim < x->ndim ? "below x's" : "too large", x->ndim, ACCEL_ARRAY_MAX_NDIM);
    accel_array t = *x;
    t.ndim = ndim;
    for (uint32_t d = 0; d < ndim; d++) {
        int64_t n = shape[d];
        if (n < 0)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: shape[%u] = %lld is negative", fn,
                               d, (long long)n);
        bool have = d >= ndim - x->ndim;
        uint32_t k = have ? d - (ndim - x->ndim) : 0;
        if (have && x->shape[k] == n) {
            t.shape[d] = n;
            t.strides[d] = x->strides[k];
        } else if (!have || x->shape[k] == 1) {
            t.shape[d] = n;
            t.strides[d] = 0;
        } else {
            char s1[512], s2[512];
            return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                               "%s: x of shape %s does not broadcast to %s (axis %u: %lld)", fn,
                               accel__shape_str(x->ndim, x->shape, s1, sizeof s1),
                               accel__shape_str(ndim, shape, s2, sizeof s2), d, (long long)n);
        }
    }
    /* a valid view, or none (an element count past int64: OUT_OF_RANGE,
     * as accel_array_init says for the same shape) */
    st = accel__array_check(fn, "out", &t, NULL);
    if (st == ACCEL_SUCCESS)
        *out = t;
    return st;
}

accel_status accel_array_flip(const accel_array *x, uint64_t axes_mask, accel_array *out)
{
    static const char fn[] = "accel_array_flip";
    accel_status st = mask_args(fn, x, axes_mask, out);
    if (st != ACCEL_SUCCESS)
        return st;
    /* x[::-1] on the axes of the mask, x[:] on the others */
    int64_t start[ACCEL_ARRAY_MAX_NDIM], stop[ACCEL_ARRAY_MAX_NDIM], step[ACCEL_ARRAY_MAX_NDIM];
    for (uint32_t i = 0; i < x->ndim; i++) {
        bool back = axes_mask >> i & 1u;
        start[i] = back ? INT64_MAX : 0;
        stop[i] = back ? INT64_MIN : INT64_MAX;
        step[i] = back ? -1 : 1;
    }
    return slice_view(fn, x, start, stop, step, out);
}

/* The new shape with a -1 resolved; false (message set) when it cannot be. */
static accel_status reshape_target(const char *fn, int64_t count, uint32_t ndim,
                                   const int64_t *shape, int64_t *out)
{
    int64_t known = 1;
    int infer = -1;
    for (uint32_t i = 0; i < ndim; i++) {
        out[i] = shape[i];
        if (shape[i] == -1 && infer < 0) {
            infer = (int)i;
            continue;
        }
        if (shape[i] < 0)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: shape[%u] = %lld (sizes are >= 0, one may be -1)", fn, i,
                               (long long)shape[i]);
        if (__builtin_mul_overflow(known, shape[i], &known))
            return accel__fail(ACCEL_ERROR_OUT_OF_RANGE, "%s: the product of shape overflows", fn);
    }
    if (infer >= 0) {
        if (known == 0 || count % known != 0)
            return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                               "%s: cannot infer shape[%d]: %lld elements over %lld", fn, infer,
                               (long long)count, (long long)known);
        out[infer] = count / known;
        known = count;
    }
    if (known != count)
        return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH, "%s: x has %lld elements but shape has %lld",
                           fn, (long long)count, (long long)known);
    return ACCEL_SUCCESS;
}

/* NumPy's _attempt_nocopy_reshape (numpy/_core/src/multiarray/shape.c), C
 * order: groups of old and new axes with equal products; an old group must
 * be contiguous within itself. false: a copy is needed. */
static bool reshape_strides(const accel_array *x, uint32_t nnd, const int64_t *nshape,
                            int64_t *nstrides)
{
    int64_t od[ACCEL_ARRAY_MAX_NDIM], os[ACCEL_ARRAY_MAX_NDIM];
    uint32_t ond = 0;
    for (uint32_t i = 0; i < x->ndim; i++)
        if (x->shape[i] != 1) {
            od[ond] = x->shape[i];
            os[ond++] = x->strides[i];
        }
    uint32_t oi = 0, oj = 1, ni = 0, nj = 1;
    while (ni < nnd && oi < ond) {
        int64_t np = nshape[ni], op = od[oi];
        while (np != op) {
            if (np < op)
                np *= nshape[nj++];
            else
                op *= od[oj++];
        }
        for (uint32_t ok = oi; ok + 1 < oj; ok++)
            if (os[ok] != od[ok + 1] * os[ok + 1])
                return false;
        nstrides[nj - 1] = os[oj - 1];
        for (uint32_t nk = nj - 1; nk > ni; nk--)
            nstrides[nk - 1] = nstrides[nk] * nshape[nk];
        ni = nj++;
        oi = oj++;
    }
    for (uint32_t i = ni; i < nnd; i++)
        nstrides[i] = 0; /* trailing size-1 axes */
    return true;
}

accel_status accel_array_reshape(const accel_array *x, uint32_t ndim, const int64_t *shape,
                                 accel_array *out)
{
    static const char fn[] = "accel_array_reshape";
    accel__extent e;
    accel_status st = accel__array_check(fn, "x", x, &e);
    if (st != ACCEL_SUCCESS)
        return st;
    if ((ndim && !shape) || !out)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                           !out ? "out" : "shape");
    if (ndim > ACCEL_ARRAY_MAX_NDIM)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: ndim %u exceeds %d", fn, ndim,
                           ACCEL_ARRAY_MAX_NDIM);
    accel_array t = *x;
    t.ndim = ndim;
    st = reshape_target(fn, e.count, ndim, shape, t.shape);
    if (st != ACCEL_SUCCESS)
        return st;
    if (e.count == 0 || !reshape_strides(x, ndim, t.shape, t.strides)) {
        if (e.count != 0) {
            char s1[512], s2[512];
            return accel__fail(ACCEL_ERROR_UNSUPPORTED,
                               "%s: x of shape %s and its strides cannot be viewed as %s; copy "
                               "it first (accel_array_copy into a contiguous array)",
                               fn, accel__shape_str(x->ndim, x->shape, s1, sizeof s1),
                               accel__shape_str(ndim, t.shape, s2, sizeof s2));
        }
        int64_t stride = 1; /* no elements: any strides do */
        for (uint32_t i = ndim; i-- > 0;) {
            t.strides[i] = stride;
            if (__builtin_mul_overflow(stride, t.shape[i] > 1 ? t.shape[i] : 1, &stride))
                stride = 0;
        }
    }
    *out = t;
    return ACCEL_SUCCESS;
}
