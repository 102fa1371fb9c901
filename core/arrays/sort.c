/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/arrays/sort.c — sorting views along an axis (accel_array_sort): x is
 * copied into the contiguous out (accel_array_copy, the strided copy of
 * every view), then out is sorted in place by one ACCEL_OP_SORT op
 * (accel_sort_segments), which each backend runs with its library sort
 * (an LSD radix sort on the CPU, CUB on CUDA). Also matrix_transpose, a view. */
#include <stdbool.h>
#include <stdint.h>

#include "arrays/arrays_internal.h"
#include "base/status.h"

/* out's checks beyond accel_array_copy's: row-major contiguous, a real dtype,
 * an axis in range; outer, n, inner of the sorted axis. */
static accel_status sort_geometry(const char *fn, const accel_array *out, int32_t axis,
                                  size_t *outer, size_t *n, size_t *inner)
{
    accel_status st = accel__array_check(fn, "out", out, NULL);
    if (st != ACCEL_SUCCESS)
        return st;
    if (!accel__array_row_major(out))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: out must be row-major contiguous (the sort runs in place in it)",
                           fn);
    if (out->ndim == 0 || axis < -(int32_t)out->ndim || axis >= (int32_t)out->ndim)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: axis %d is out of range for %u dimensions", fn, (int)axis,
                           out->ndim);
    uint32_t ax = (uint32_t)(axis < 0 ? axis + (int32_t)out->ndim : axis);
    accel__array_around_axis(out, ax, outer, inner);
    *n = (size_t)out->shape[ax];
    return ACCEL_SUCCESS;
}

/* ACCEL_ERROR_DTYPE_MISMATCH where a (named name) holds complex numbers. */
static accel_status orderable(const char *fn, const char *name, const accel_array *a)
{
    if (accel_dtype_kind_of(a->dtype) != ACCEL_DTYPE_KIND_COMPLEX)
        return ACCEL_SUCCESS;
    return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH,
                       "%s: %s is %s: complex numbers have no order to sort by", fn, name,
                       accel_dtype_name(a->dtype));
}

accel_status accel_array_sort(accel_queue *q, const accel_array *x, int32_t axis, int descending,
                              const accel_array *out)
{
    static const char fn[] = "accel_array_sort";
    size_t outer = 0, n = 0, inner = 0;
    accel_status st = sort_geometry(fn, out, axis, &outer, &n, &inner);
    if (st == ACCEL_SUCCESS)
        st = orderable(fn, "out", out);
    if (st != ACCEL_SUCCESS)
        return st;
    /* x into out: shape, dtype, device and overlap checks are the copy's
     * (x == out exactly is an in-place sort and copies nothing). */
    st = accel_array_copy(q, x, out);
    if (st != ACCEL_SUCCESS)
        return accel__fail_as(st, fn);
    size_t es = accel_dtype_size(out->dtype);
    accel_slice s = accel_slice_of(out->buffer, (size_t)out->offset / es, outer * n * inner);
    return accel__fail_as(accel_sort_segments(q, out->dtype, outer, n, inner, descending, s, s),
                          fn);
}

accel_status accel_array_argsort(accel_queue *q, const accel_array *x, int32_t axis, int descending,
                                 const accel_array *out)
{
    static const char fn[] = "accel_array_argsort";
    size_t outer = 0, n = 0, inner = 0;
    accel_status st = sort_geometry(fn, out, axis, &outer, &n, &inner);
    if (st == ACCEL_SUCCESS && out->dtype != ACCEL_I64)
        st = accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: out is %s; argsort writes int64", fn,
                         accel_dtype_name(out->dtype));
    if (st == ACCEL_SUCCESS)
        st = accel__array_check(fn, "x", x, NULL);
    if (st == ACCEL_SUCCESS && !accel__array_row_major(x))
        st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                         "%s: x must be row-major contiguous (copy a strided view with "
                         "accel_array_copy first)",
                         fn);
    if (st == ACCEL_SUCCESS && x->ndim != out->ndim)
        st = accel__fail(ACCEL_ERROR_SHAPE_MISMATCH, "%s: x has %u dimensions, out %u", fn, x->ndim,
                         out->ndim);
    for (uint32_t d = 0; st == ACCEL_SUCCESS && d < x->ndim; d++)
        if (x->shape[d] != out->shape[d])
            st = accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                             "%s: out's axis %u has %lld elements, x's %lld", fn, d,
                             (long long)out->shape[d], (long long)x->shape[d]);
    if (st == ACCEL_SUCCESS)
        st = orderable(fn, "x", x);
    if (st != ACCEL_SUCCESS)
        return st;
    size_t es = accel_dtype_size(x->dtype), count = outer * n * inner;
    return accel_argsort_segments(q, x->dtype, outer, n, inner, descending,
                                  accel_slice_of(x->buffer, (size_t)x->offset / es, count),
                                  accel_slice_of(out->buffer, (size_t)out->offset / 8, count));
}

accel_status accel_array_matrix_transpose(const accel_array *x, accel_array *out)
{
    static const char fn[] = "accel_array_matrix_transpose";
    accel_status st = accel__array_check(fn, "x", x, NULL);
    if (st == ACCEL_SUCCESS && x->ndim < 2)
        st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                         "%s: x has %u dimensions; a matrix transpose needs at least 2", fn,
                         x->ndim);
    if (st == ACCEL_SUCCESS && !out)
        st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
    if (st != ACCEL_SUCCESS)
        return st;
    accel_array t = *x;
    uint32_t a = x->ndim - 2, b = x->ndim - 1;
    t.shape[a] = x->shape[b], t.shape[b] = x->shape[a];
    t.strides[a] = x->strides[b], t.strides[b] = x->strides[a];
    *out = t;
    return ACCEL_SUCCESS;
}
