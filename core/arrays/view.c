/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/arrays/view.c — the array view: init, validation (inside its buffer,
 * no overflow), broadcasting, and the metadata-only views (slice, permute,
 * expand, squeeze, broadcast_to, flip, reshape). Nothing here touches a
 * device: a view is a struct of numbers. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "arrays/arrays_internal.h"
#include "base/objects.h"
#include "base/status.h"
#include "base/struct_size.h"

/* "(2, 3, 4)" into buf. */
const char *accel__shape_str(uint32_t ndim, const int64_t *shape, char *buf, size_t cap)
{
    size_t n = (size_t)snprintf(buf, cap, "(");
    for (uint32_t i = 0; i < ndim && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%lld", i ? ", " : "", (long long)shape[i]);
    if (n < cap)
        snprintf(buf + n, cap - n, ndim == 1 ? ",)" : ")");
    return buf;
}

accel_status accel__array_shape_is(const char *fn, const char *name, const accel_array *a,
                                   uint32_t nd, const int64_t *shape)
{
    bool same = a->ndim == nd;
    for (uint32_t d = 0; same && d < nd; d++)
        same = a->shape[d] == shape[d];
    if (same)
        return ACCEL_SUCCESS;
    char s1[512], s2[512];
    return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH, "%s: %s has shape %s but the call needs %s", fn,
                       name, accel__shape_str(a->ndim, a->shape, s1, sizeof s1),
                       accel__shape_str(nd, shape, s2, sizeof s2));
}

accel_status accel_array_init(accel_array *a, accel_buffer *buf, accel_dtype dtype, uint32_t ndim,
                              const int64_t *shape)
{
    static const char fn[] = "accel_array_init";
    if (!a)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: a is NULL", fn);
    if (accel_dtype_size(dtype) == 0)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: dtype %d is unknown", fn, (int)dtype);
    if (ndim > ACCEL_ARRAY_MAX_NDIM)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: ndim %u exceeds %d", fn, ndim,
                           ACCEL_ARRAY_MAX_NDIM);
    if (ndim && !shape)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: shape is NULL with ndim %u", fn,
                           ndim);
    accel_array t;
    accel__struct_init(&t, sizeof t);
    t.dtype = dtype;
    t.buffer = buf;
    t.ndim = ndim;
    int64_t stride = 1;
    for (uint32_t i = ndim; i-- > 0;) {
        if (shape[i] < 0)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: shape[%u] = %lld is negative", fn,
                               i, (long long)shape[i]);
        t.shape[i] = shape[i];
        t.strides[i] = stride;
        if (shape[i] > 1 && __builtin_mul_overflow(stride, shape[i], &stride))
            return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                               "%s: the element count of shape overflows int64 at axis %u", fn, i);
    }
    *a = t;
    return ACCEL_SUCCESS;
}

accel_status accel__array_out_check(const char *fn, const char *name, const accel_array *a)
{
    for (uint32_t d = 0; d < a->ndim; d++)
        if (a->shape[d] > 1 && a->strides[d] == 0)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: %s has stride 0 on axis %u of extent %lld: a view that is "
                               "written must not name one element twice (a broadcast view is "
                               "read-only)",
                               fn, name, d, (long long)a->shape[d]);
    return ACCEL_SUCCESS;
}

accel_kernel_arg accel__extent_arg(accel_buffer *b, accel_dtype dt, const accel__extent *e)
{
    size_t n = e->count ? (size_t)(e->hi - e->lo + 1) : 0;
    accel_kernel_arg k = accel_karg_array(accel_slice_of(b, e->count ? (size_t)e->lo : 0, n));
    k.dtype = dt;
    return k;
}

accel_status accel__array_check(const char *fn, const char *name, const accel_array *a,
                                accel__extent *out)
{
    if (!a)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, name);
    if (a->struct_size < sizeof *a)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: %s: struct_size %u is below %zu (use accel_array_init)", fn, name,
                           a->struct_size, sizeof *a);
    size_t es = accel_dtype_size(a->dtype);
    if (es == 0)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: %s: dtype %d is unknown", fn, name,
                           (int)a->dtype);
    if (a->ndim > ACCEL_ARRAY_MAX_NDIM)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s: ndim %u exceeds %d", fn, name,
                           a->ndim, ACCEL_ARRAY_MAX_NDIM);
    accel__memory mem; /* one entered read: size and what aliasing needs */
    if (!accel__memory_of_handle(a->buffer, &mem))
        return accel__fail(ACCEL_ERROR_INVALID_HANDLE,
                           "%s: %s.buffer is NULL, released or not a buffer", fn, name);
    size_t bytes = mem.bytes;
    if (a->offset % es != 0)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: %s: offset %llu bytes is not a multiple of the %s size %zu", fn,
                           name, (unsigned long long)a->offset, accel_dtype_name(a->dtype), es);
    int64_t count = 1, lo = 0, hi = 0;
    for (uint32_t i = 0; i < a->ndim; i++)
        if (a->shape[i] < 0)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s: shape[%u] = %lld is negative",
                               fn, name, i, (long long)a->shape[i]);
    for (uint32_t i = 0; i < a->ndim && count; i++)
        if (__builtin_mul_overflow(count, a->shape[i], &count))
            return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                               "%s: %s: the element count overflows int64 at axis %u", fn, name, i);
    /* No elements: the strides are never used. */
    for (uint32_t i = 0; i < a->ndim && count; i++) {
        int64_t n = a->shape[i], s = a->strides[i], span;
        if (__builtin_mul_overflow(s, n - 1, &span) ||
            __builtin_add_overflow(span < 0 ? lo : hi, span, span < 0 ? &lo : &hi))
            return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                               "%s: %s: shape x strides overflows int64 at axis %u (shape %lld, "
                               "stride %lld)",
                               fn, name, i, (long long)n, (long long)s);
    }
    int64_t base = (int64_t)(a->offset / es), nbuf = (int64_t)(bytes / es);
    if (a->offset > bytes)
        return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                           "%s: %s: offset %llu bytes is past the buffer's %zu bytes", fn, name,
                           (unsigned long long)a->offset, bytes);
    /* lo <= 0 <= hi, 0 <= base <= nbuf: compared without forming base + hi,
     * which overflows for a stride near 2^63 (found by a helper: such a view
     * passed) */
    if (count > 0 && (lo < -base || hi >= nbuf - base))
        return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                           "%s: %s: elements reach [%lld, %lld] (in %s elements of the buffer) "
                           "but the buffer holds %lld",
                           fn, name, (long long)((uint64_t)base + (uint64_t)lo),
                           (long long)((uint64_t)base + (uint64_t)hi), accel_dtype_name(a->dtype),
                           (long long)nbuf);
    if (out) {
        out->count = count;
        out->base = base;
        out->lo = base + lo;
        out->hi = base + hi;
        out->mem = mem;
    }
    return ACCEL_SUCCESS;
}

accel_status accel_array_validate(const accel_array *a, const char *name)
{
    return accel__array_check("accel_array_validate", name ? name : "a", a, NULL);
}

accel_status accel__broadcast(const char *fn, size_t count, const accel_array *const *arrays,
                              const char *const *names, uint32_t *out_ndim, int64_t *out_shape)
{
    uint32_t nd = 0;
    for (size_t i = 0; i < count; i++)
        nd = arrays[i]->ndim > nd ? arrays[i]->ndim : nd;
    int64_t shape[ACCEL_ARRAY_MAX_NDIM];
    for (uint32_t d = 0; d < nd; d++)
        shape[d] = 1;
    for (size_t i = 0; i < count; i++) {
        const accel_array *a = arrays[i];
        for (uint32_t k = 0; k < a->ndim; k++) {
            uint32_t d = nd - a->ndim + k;
            int64_t n = a->shape[k];
            if (n == shape[d] || n == 1)
                continue;
            if (shape[d] == 1) {
                shape[d] = n;
                continue;
            }
            char s1[512], s2[512];
            return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                               "%s: %s of shape %s does not broadcast with shape %s: axis %d "
                               "has %lld against %lld",
                               fn, names[i], accel__shape_str(a->ndim, a->shape, s1, sizeof s1),
                               accel__shape_str(nd, shape, s2, sizeof s2), (int)d - (int)nd,
                               (long long)n, (long long)shape[d]);
        }
    }
    *out_ndim = nd;
    memcpy(out_shape, shape, nd * sizeof *shape);
    return ACCEL_SUCCESS;
}

accel_status accel_broadcast_shapes(size_t count, const accel_array *const *arrays,
                                    uint32_t *out_ndim, int64_t *out_shape)
{
    static const char fn[] = "accel_broadcast_shapes";
    if (count && !arrays)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: arrays is NULL", fn);
    if (!out_ndim || !out_shape)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                           !out_ndim ? "out_ndim" : "out_shape");
    if (count > 64)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: count %zu exceeds 64", fn, count);
    char names[64][16];
    const char *np[64];
    for (size_t i = 0; i < count; i++) {
        snprintf(names[i], sizeof names[i], "arrays[%zu]", i);
        np[i] = names[i];
        accel_status st = accel__array_check(fn, np[i], arrays[i], NULL);
        if (st != ACCEL_SUCCESS)
            return st;
    }
    return accel__broadcast(fn, count, arrays, np, out_ndim, out_shape);
}

void accel__array_around_axis(const accel_array *a, uint32_t axis, size_t *outer, size_t *inner)
{
    *outer = 1, *inner = 1;
    for (uint32_t d = 0; d < a->ndim; d++)
        if (d != axis)
            *(d < axis ? outer : inner) *= (size_t)a->shape[d];
}

bool accel__views_meet(const accel_array *x, const accel__extent *ex, const accel_array *o,
                       const accel__extent *eo, bool *same)
{
    int64_t sh = 0; /* o's byte q is x's byte q + sh */
    *same = false;
    if (!ex->count || !eo->count)
        return false;
    /* the buffers' memory as accel__array_check read it (values: a buffer
     * released by another thread since is refused by the launch) */
    if (x->buffer != o->buffer && !accel__memory_alias(&ex->mem, &eo->mem, &sh))
        return false;
    int64_t es = (int64_t)accel_dtype_size(x->dtype), eso = (int64_t)accel_dtype_size(o->dtype);
    *same = (int64_t)x->offset == (int64_t)o->offset + sh;
    return ex->lo * es < (eo->hi + 1) * eso + sh && eo->lo * eso + sh < (ex->hi + 1) * es;
}

bool accel__array_row_major(const accel_array *a)
{
    int64_t want = 1;
    for (uint32_t d = a->ndim; d-- > 0;) {
        if (a->shape[d] != 1 && a->strides[d] != want)
            return false;
        want *= a->shape[d];
    }
    return true;
}
