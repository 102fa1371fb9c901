/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/arrays/search.c — searchsorted (the Array API 2023.12's): one thread
 * per element of x2 runs a binary search over the sorted x1, directly or
 * through a sorter's indices, as a row of loop kernels (loop.c), so every
 * backend computes the same indices. The order is accel_array_sort's:
 * NaNs after +inf, -0 == +0. */
#include <stdbool.h>
#include <stdint.h>

#include "arrays/arrays_internal.h"
#include "base/status.h"

/* The binary search over n = k0 elements of x1 (array 2, stride k1),
 * reading the i-th through LOOKUP, comparing in T (double holds every
 * value of the dtypes up to 32 bits exactly; 64-bit integers compare as
 * themselves); k3: side right. "e before v" is e < v in the sort order
 * (NaN last) for side left, !(v < e) for right. */
#define SEARCH(T, LOOKUP)                                                                          \
    "    const " T " accel_v = (" T ")accel_ld1(accel_o1);\n"                                      \
    "    long long accel_lo = 0, accel_hi = accel_k0;\n"                                           \
    "    while (accel_lo < accel_hi) {\n"                                                          \
    "      const long long accel_mid = accel_lo + (accel_hi - accel_lo) / 2;\n"                    \
    "      " LOOKUP "\n"                                                                           \
    "      const " T " accel_e = (" T ")accel_ld2(accel_o2 + accel_at * accel_k1);\n"              \
    "      const int accel_before = accel_k3\n"                                                    \
    "        ? !(accel_v < accel_e || (accel_e != accel_e && accel_v == accel_v))\n"               \
    "        : (accel_e < accel_v || (accel_v != accel_v && accel_e == accel_e));\n"               \
    "      if (accel_before) accel_lo = accel_mid + 1; else accel_hi = accel_mid;\n"               \
    "    }\n"                                                                                      \
    "    accel_st0(accel_o0, accel_lo);"

#define DIRECT "const long long accel_at = accel_mid;"
/* A sorter index out of range is clamped into x1 (the gather rule of index.c). */
#define SORTED                                                                                     \
    "long long accel_at = (long long)accel_A3[accel_o3 + accel_mid * accel_k2];\n"                 \
    "      if (accel_at < 0) accel_at += accel_k0;\n"                                              \
    "      accel_at = accel_at < 0 ? 0 : accel_at >= accel_k0 ? accel_k0 - 1 : accel_at;"

/* arrays: 0 out (int64), 1 x2, 2 x1, 3 sorter (the second column); k0
 * x1's length, k1 its stride, k2 the sorter's, k3 side right. Rows by
 * compare type: double, long long, unsigned long long. */
#define SEARCH_ROW(T, N, NARR, LOOKUP)                                                             \
    {                                                                                              \
        .name = N, .narr = NARR, .written = 1, .ni = 4, .body = SEARCH(T, LOOKUP)                  \
    }
static const accel__lrow search_rows[3][2] = {
    {SEARCH_ROW("double", "searchsorted", 3, DIRECT),
     SEARCH_ROW("double", "searchsorted_sorter", 4, SORTED)},
    {SEARCH_ROW("long long", "searchsorted", 3, DIRECT),
     SEARCH_ROW("long long", "searchsorted_sorter", 4, SORTED)},
    {SEARCH_ROW("unsigned long long", "searchsorted", 3, DIRECT),
     SEARCH_ROW("unsigned long long", "searchsorted_sorter", 4, SORTED)}};

static accel_status search_dtypes(const char *fn, const accel_array *x1, const accel_array *x2,
                                  const accel_array *sorter, const accel_array *out)
{
    accel_dtype_kind sk = sorter ? accel_dtype_kind_of(sorter->dtype) : ACCEL_DTYPE_KIND_INT;
    if (x1->dtype != x2->dtype)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH,
                           "%s: x1 is %s but x2 %s (one dtype; accel_array_astype one first)", fn,
                           accel_dtype_name(x1->dtype), accel_dtype_name(x2->dtype));
    if (out->dtype != ACCEL_I64)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: out is %s; searchsorted writes int64",
                           fn, accel_dtype_name(out->dtype));
    if (sk != ACCEL_DTYPE_KIND_INT && sk != ACCEL_DTYPE_KIND_UINT)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: sorter is %s (an integer dtype)", fn,
                           accel_dtype_name(sorter->dtype));
    return ACCEL_SUCCESS;
}

accel_status accel_array_searchsorted(accel_queue *q, const accel_array *x1, const accel_array *x2,
                                      int side_right, const accel_array *sorter,
                                      const accel_array *out)
{
    static const char fn[] = "accel_array_searchsorted";
    accel__lcall c = {.fn = fn, .a = {out, x2, x1, sorter}};
    static const char *const names[4] = {"out", "x2", "x1", "sorter"};
    accel_runtime *rt;
    accel_status st = accel__array_io(fn, q, sorter ? 4 : 3, c.a, names, c.ext, &rt, false);
    if (st == ACCEL_SUCCESS && x1->ndim != 1)
        st = accel__fail(ACCEL_ERROR_SHAPE_MISMATCH, "%s: x1 has %u dimensions; it must be 1-D", fn,
                         x1->ndim);
    if (st == ACCEL_SUCCESS && sorter)
        st = accel__array_shape_is(fn, "sorter", sorter, 1, x1->shape);
    if (st == ACCEL_SUCCESS)
        st = search_dtypes(fn, x1, x2, sorter, out);
    if (st == ACCEL_SUCCESS)
        st = accel__array_shape_is(fn, "out", out, x2->ndim, x2->shape);
    if (st != ACCEL_SUCCESS)
        return st;
    if (x1->shape[0] == 0) /* nothing to search: every insertion point is 0 */
        return accel_array_full_i64(q, out, 0);
    int ct = x1->dtype == ACCEL_I64 ? 1 : x1->dtype == ACCEL_U64 ? 2 : 0;
    c.row = &search_rows[ct][sorter != NULL];
    c.np = x2->ndim;
    for (uint32_t d = 0; d < x2->ndim; d++) {
        c.psize[d] = x2->shape[d];
        c.pst[0][d] = out->strides[d];
        c.pst[1][d] = x2->strides[d];
    }
    c.k[0] = x1->shape[0];
    c.k[1] = x1->strides[0];
    c.k[2] = sorter ? sorter->strides[0] : 0;
    c.k[3] = side_right != 0;
    return accel__loop_run(q, rt, &c);
}
