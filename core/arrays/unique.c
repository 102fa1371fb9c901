/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/arrays/unique.c — the Array API's set functions (unique_values,
 * unique_counts, unique_inverse, unique_all), composed from the array
 * functions every backend already has, so no backend code: x copied flat,
 * a stable argsort, a take into sorted order, an adjacent difference
 * (not_equal) marking where each group starts, a cumulative_sum numbering
 * the groups, and mask gathers and a scatter for the outputs. NaNs differ
 * from everything (not_equal), so each is its own group. The number of
 * groups is data-dependent: the caller gives outputs of any length and
 * gets the count in a device scalar. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "arrays/arrays_internal.h"
#include "base/status.h"

enum { VALUES, INDICES, INVERSE, COUNTS, COUNT, NOUT }; /* the outputs */
static const char *const out_names[NOUT] = {"values", "indices", "inverse_indices", "counts",
                                            "out_count"};

/* The temporaries of one call: device buffers released (each waiting for
 * the work that uses it) when the call ends. */
typedef struct temps {
    accel_device *dev;
    accel_buffer *b[12];
    uint32_t n;
} temps;

static accel_status temp(temps *t, accel_dtype dt, int64_t n, accel_array *a)
{
    accel_buffer *b = NULL;
    size_t bytes;
    if (__builtin_mul_overflow((size_t)(n ? n : 1), accel_dtype_size(dt), &bytes))
        return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                           "accel_array_unique_all: a temporary of %lld elements (x's count) "
                           "overflows the address space",
                           (long long)n);
    accel_status st = accel_buffer_create(t->dev, bytes, &b);
    if (st != ACCEL_SUCCESS)
        return st;
    t->b[t->n++] = b;
    return accel_array_init(a, b, dt, 1, &n);
}

/* a[lo:hi] of a 1-D view (a view, no work). */
static accel_array part(const accel_array *a, int64_t lo, int64_t hi)
{
    accel_array p = *a;
    p.offset += (uint64_t)(lo * a->strides[0]) * accel_dtype_size(a->dtype);
    p.shape[0] = hi - lo;
    return p;
}

/* Outputs' dtypes and shapes; each present one checked against the others
 * and x for overlap. */
static accel_status check_outputs(const char *fn, accel_queue *q, const accel_array *x,
                                  const accel_array *const *o)
{
    for (int k = 0; k < NOUT; k++) {
        if (!o[k])
            continue;
        const accel_array *a[NOUT + 1] = {o[k], x};
        const char *names[NOUT + 1] = {out_names[k], "x"};
        uint32_t na = 2;
        for (int j = 0; j < NOUT; j++)
            if (o[j] && j != k)
                a[na] = o[j], names[na++] = out_names[j];
        accel__extent ext[NOUT + 1];
        accel_runtime *rt;
        accel_status st = accel__array_io(fn, q, na, a, names, ext, &rt, false);
        if (st != ACCEL_SUCCESS)
            return st;
        accel_dtype want = k == VALUES ? x->dtype : ACCEL_I64;
        if (o[k]->dtype != want)
            return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: %s is %s but must be %s", fn,
                               out_names[k], accel_dtype_name(o[k]->dtype), accel_dtype_name(want));
        bool ok = k == INVERSE ? true
                  : k == COUNT ? ext[0].count == 1 && o[k]->ndim <= 1
                               : o[k]->ndim == 1;
        if (!ok)
            return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH, "%s: %s must be %s", fn, out_names[k],
                               k == COUNT ? "0-d (or one element)" : "1-D");
    }
    if (!o[INVERSE])
        return ACCEL_SUCCESS;
    accel_status st = accel__array_shape_is(fn, "inverse_indices", o[INVERSE], x->ndim, x->shape);
    accel_array flat;
    int64_t n = 1;
    for (uint32_t d = 0; d < x->ndim; d++)
        n *= x->shape[d];
    if (st == ACCEL_SUCCESS && accel_array_reshape(o[INVERSE], 1, &n, &flat) != ACCEL_SUCCESS)
        st = accel__fail(ACCEL_ERROR_UNSUPPORTED,
                         "%s: inverse_indices cannot be viewed flat; give a row-major "
                         "contiguous array",
                         fn);
    return st;
}

/* counts: for each group start i, (the end of its group) - i, gathered at
 * the starts. ends[g] = one past group g's last position, from the mask of
 * group ends (the start mask shifted by one, the last position an end). */
static accel_status group_counts(accel_queue *q, temps *t, const accel_array *start,
                                 const accel_array *gid, int64_t n, const accel_array *counts)
{
    accel_array end, pos, ends, at;
    accel_status st = temp(t, ACCEL_BOOL, n, &end);
    if (st == ACCEL_SUCCESS)
        st = temp(t, ACCEL_I64, n + 1, &pos);
    if (st == ACCEL_SUCCESS)
        st = temp(t, ACCEL_I64, n, &ends);
    if (st == ACCEL_SUCCESS)
        st = temp(t, ACCEL_I64, n, &at);
    if (st != ACCEL_SUCCESS)
        return st;
    accel_array e_head = part(&end, 0, n - 1), e_last = part(&end, n - 1, n);
    accel_array s_tail = part(start, 1, n), pos0 = part(&pos, 0, n), pos1 = part(&pos, 1, n + 1);
    st = accel_array_copy(q, &s_tail, &e_head);
    if (st == ACCEL_SUCCESS)
        st = accel_array_full(q, &e_last, 1.0);
    if (st == ACCEL_SUCCESS)
        st = accel_array_arange(q, 0, (double)(n + 1), 1, &pos);
    if (st == ACCEL_SUCCESS)
        st = accel_array_full(q, &ends, 0.0);
    if (st == ACCEL_SUCCESS)
        st = accel_array_mask_gather(q, &pos1, &end, &ends);
    if (st == ACCEL_SUCCESS)
        st = accel_array_take(q, &ends, gid, 0, &at);
    if (st == ACCEL_SUCCESS)
        st = accel_array_binary(q, ACCEL_ARRAY_SUBTRACT, &at, &pos0, &at);
    if (st == ACCEL_SUCCESS)
        st = accel_array_mask_gather(q, &at, start, counts);
    return st;
}

/* The group number of each sorted position (cumulative_sum of the start
 * mask, minus one) and, through the sort's permutation, of each element
 * of x (inverse_indices, viewed flat). */
static accel_status group_ids(accel_queue *q, temps *t, const accel_array *start,
                              const accel_array *perm, int64_t n, const accel_array *inverse,
                              accel_array *gid)
{
    accel_array one = {0};
    accel_status st = temp(t, ACCEL_I64, n, gid);
    if (st == ACCEL_SUCCESS)
        st = temp(t, ACCEL_I64, 1, &one);
    if (st == ACCEL_SUCCESS)
        st = accel_array_cumulative_sum(q, start, 0, 0, gid);
    if (st == ACCEL_SUCCESS)
        st = accel_array_full(q, &one, 1.0);
    accel_array ones = one;
    ones.strides[0] = 0, ones.shape[0] = n;
    if (st == ACCEL_SUCCESS)
        st = accel_array_binary(q, ACCEL_ARRAY_SUBTRACT, gid, &ones, gid);
    if (st != ACCEL_SUCCESS || !inverse)
        return st;
    accel_array flat; /* check_outputs made sure it is a view */
    st = accel_array_reshape(inverse, 1, &n, &flat);
    return st == ACCEL_SUCCESS ? accel_array_scatter(q, &flat, perm, 0, gid) : st;
}

/* Everything after the checks, for n >= 1 elements of x. */
static accel_status unique_run(accel_queue *q, temps *t, const accel_array *x, int64_t n,
                               const accel_array *const *o)
{
    accel_array flat, perm, sorted, start, gid;
    accel_status st = temp(t, x->dtype, n, &flat);
    if (st == ACCEL_SUCCESS)
        st = temp(t, ACCEL_I64, n, &perm);
    if (st == ACCEL_SUCCESS)
        st = temp(t, x->dtype, n, &sorted);
    if (st == ACCEL_SUCCESS)
        st = temp(t, ACCEL_BOOL, n, &start);
    accel_array fshape = flat; /* flat's elements with x's shape, to copy x in */
    if (st == ACCEL_SUCCESS)
        st = accel_array_init(&fshape, flat.buffer, x->dtype, x->ndim, x->shape);
    if (st == ACCEL_SUCCESS)
        st = accel_array_copy(q, x, &fshape);
    if (st == ACCEL_SUCCESS)
        st = accel_array_argsort(q, &flat, 0, 0, &perm);
    if (st == ACCEL_SUCCESS)
        st = accel_array_take(q, &flat, &perm, 0, &sorted);
    accel_array s0 = part(&start, 0, 1), s1 = part(&start, 1, n);
    accel_array hi = part(&sorted, 1, n), lo = part(&sorted, 0, n - 1);
    if (st == ACCEL_SUCCESS)
        st = accel_array_full(q, &s0, 1.0);
    if (st == ACCEL_SUCCESS)
        st = accel_array_binary(q, ACCEL_ARRAY_NOT_EQUAL, &hi, &lo, &s1);
    if (st == ACCEL_SUCCESS && o[VALUES])
        st = accel_array_mask_gather(q, &sorted, &start, o[VALUES]);
    if (st == ACCEL_SUCCESS && o[INDICES])
        st = accel_array_mask_gather(q, &perm, &start, o[INDICES]);
    if (st == ACCEL_SUCCESS && o[COUNT])
        st = accel_array_reduce(q, ACCEL_ARRAY_REDUCE_SUM, &start, 1u, 0, o[COUNT]);
    if (st == ACCEL_SUCCESS && (o[INVERSE] || o[COUNTS]))
        st = group_ids(q, t, &start, &perm, n, o[INVERSE], &gid);
    if (st == ACCEL_SUCCESS && o[COUNTS])
        st = group_counts(q, t, &start, &gid, n, o[COUNTS]);
    return st;
}

static accel_status unique(const char *fn, accel_queue *q, const accel_array *x,
                           const accel_array *values, const accel_array *indices,
                           const accel_array *inverse_indices, const accel_array *counts,
                           const accel_array *out_count)
{
    const accel_array *o[NOUT] = {values, indices, inverse_indices, counts, out_count};
    accel__extent ext;
    accel_runtime *rt;
    accel_status st = accel__array_views(fn, q, 1, &x, (const char *const[]){"x"}, &ext, &rt);
    if (st == ACCEL_SUCCESS)
        st = check_outputs(fn, q, x, o);
    if (st != ACCEL_SUCCESS)
        return st;
    accel_array cnt = {0}; /* a 1-element 1-D out_count reduces as a 0-d one */
    if (out_count && (st = accel_array_init(&cnt, out_count->buffer, ACCEL_I64, 0, NULL)) != 0)
        return st;
    cnt.offset = out_count ? out_count->offset : 0;
    o[COUNT] = out_count ? &cnt : NULL;
    if (ext.count == 0)
        return out_count ? accel_array_full(q, &cnt, 0.0) : ACCEL_SUCCESS;
    temps t = {accel_queue_device(q), {NULL}, 0};
    st = unique_run(q, &t, x, ext.count, o);
    accel__array_temps_done(q, t.b, t.n, st);
    return st;
}

accel_status accel_array_unique_all(accel_queue *q, const accel_array *x, const accel_array *values,
                                    const accel_array *indices, const accel_array *inverse_indices,
                                    const accel_array *counts, const accel_array *out_count)
{
    return unique("accel_array_unique_all", q, x, values, indices, inverse_indices, counts,
                  out_count);
}

accel_status accel_array_unique_values(accel_queue *q, const accel_array *x,
                                       const accel_array *values, const accel_array *out_count)
{
    return unique("accel_array_unique_values", q, x, values, NULL, NULL, NULL, out_count);
}

accel_status accel_array_unique_counts(accel_queue *q, const accel_array *x,
                                       const accel_array *values, const accel_array *counts,
                                       const accel_array *out_count)
{
    return unique("accel_array_unique_counts", q, x, values, NULL, NULL, counts, out_count);
}

accel_status accel_array_unique_inverse(accel_queue *q, const accel_array *x,
                                        const accel_array *values,
                                        const accel_array *inverse_indices,
                                        const accel_array *out_count)
{
    return unique("accel_array_unique_inverse", q, x, values, NULL, inverse_indices, NULL,
                  out_count);
}
