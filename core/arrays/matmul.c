/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/arrays/matmul.c — the Array API's matmul on views
 * (accel_array_matmul): the last two axes are matrices, the leading ones
 * broadcast as batch axes. Each matrix operand must be a GEMM operand as it
 * stands (unit stride along one of its two axes, so it is a row-major
 * matrix or a transposed one with a leading dimension), out row-major
 * contiguous; the last batch axis becomes one strided-batched accel_gemm,
 * the others a loop of such calls (each through the op path: fallback,
 * verify with the GEMM bound, trace). */
#include <stdbool.h>
#include <stdint.h>

#include "arrays/arrays_internal.h"
#include "base/status.h"

/* One matrix operand as GEMM takes it. */
typedef struct gmat {
    accel_transpose trans;
    size_t ld;
} gmat;

/* The rows x cols matrix of a's last two axes as a GEMM operand: row-major
 * (column stride 1) or transposed (row stride 1); false when neither. */
static bool as_gemm(const accel_array *a, size_t rows, size_t cols, gmat *g)
{
    int64_t rs = a->strides[a->ndim - 2], cs = a->strides[a->ndim - 1];
    if ((cols <= 1 || cs == 1) && (rows <= 1 || rs >= (int64_t)cols)) {
        g->trans = ACCEL_NO_TRANS;
        g->ld = rows <= 1 ? (cols ? cols : 1) : (size_t)rs;
        return true;
    }
    if ((rows <= 1 || rs == 1) && (cols <= 1 || cs >= (int64_t)rows)) {
        g->trans = ACCEL_TRANS;
        g->ld = cols <= 1 ? (rows ? rows : 1) : (size_t)cs;
        return true;
    }
    return false;
}

/* Batch stride of a along batch axis d of nb (0 where a broadcasts). */
static int64_t batch_stride(const accel_array *a, uint32_t nb, uint32_t d)
{
    uint32_t lead = nb - (a->ndim - 2); /* batch axes a lacks */
    if (d < lead || a->shape[d - lead] == 1)
        return 0;
    return a->strides[d - lead];
}

typedef struct mcall {
    const accel_array *x1, *x2, *out;
    uint32_t nb; /* batch axes (out's minus 2) */
    size_t m, n, k;
    gmat g1, g2;
} mcall;

static accel_status check(const char *fn, mcall *c)
{
    const accel_array *a[3] = {c->x1, c->x2, c->out};
    static const char *const names[3] = {"x1", "x2", "out"};
    accel__extent ext[3];
    accel_status st = ACCEL_SUCCESS;
    for (int i = 0; i < 3 && st == ACCEL_SUCCESS; i++) {
        st = accel__array_check(fn, names[i], a[i], &ext[i]);
        if (st == ACCEL_SUCCESS && i == 2)
            st = accel__array_out_check(fn, names[i], a[i]);
        if (st == ACCEL_SUCCESS && a[i]->ndim < 2)
            st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                             "%s: %s has %u dimensions; matmul here takes matrices (add an axis "
                             "of size 1 with accel_array_expand_dims for a vector)",
                             fn, names[i], a[i]->ndim);
        if (st == ACCEL_SUCCESS && a[i]->dtype != c->x1->dtype)
            st = accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: %s is %s but x1 is %s", fn, names[i],
                             accel_dtype_name(a[i]->dtype), accel_dtype_name(c->x1->dtype));
    }
    if (st != ACCEL_SUCCESS)
        return st;
    /* out apart from both inputs, whole arrays: each batch's GEMM checks
     * only its own matrices, and one batch's output may lie over another
     * batch's input */
    bool at_one;
    for (int i = 0; i < 2; i++)
        if (accel__views_meet(a[i], &ext[i], c->out, &ext[2], &at_one))
            return accel__fail(
                ACCEL_ERROR_INVALID_ARGUMENT,
                "%s: out overlaps %s in the same memory (matmul has no in-place form)", fn,
                names[i]);
    c->m = (size_t)c->x1->shape[c->x1->ndim - 2], c->k = (size_t)c->x1->shape[c->x1->ndim - 1];
    c->n = (size_t)c->x2->shape[c->x2->ndim - 1];
    if ((size_t)c->x2->shape[c->x2->ndim - 2] != c->k)
        return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                           "%s: x1 has %zu columns but x2 has %lld rows", fn, c->k,
                           (long long)c->x2->shape[c->x2->ndim - 2]);
    /* batch shapes: x1's and x2's broadcast to out's */
    c->nb = c->out->ndim - 2;
    accel_array b1 = *c->x1, b2 = *c->x2;
    b1.ndim -= 2, b2.ndim -= 2;
    int64_t want[ACCEL_ARRAY_MAX_NDIM];
    uint32_t nd;
    const accel_array *bs[2] = {&b1, &b2};
    static const char *const bnames[2] = {"x1", "x2"};
    st = accel__broadcast(fn, 2, bs, bnames, &nd, want);
    if (st != ACCEL_SUCCESS)
        return st;
    bool same = nd == c->nb && (size_t)c->out->shape[c->nb] == c->m &&
                (size_t)c->out->shape[c->nb + 1] == c->n;
    for (uint32_t d = 0; same && d < nd; d++)
        same = want[d] == c->out->shape[d];
    if (!same)
        return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                           "%s: out's shape is not the batch shape of x1 and x2 followed by "
                           "(%zu, %zu)",
                           fn, c->m, c->n);
    if (!accel__array_row_major(c->out))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: out must be row-major contiguous",
                           fn);
    if (!as_gemm(c->x1, c->m, c->k, &c->g1) || !as_gemm(c->x2, c->k, c->n, &c->g2))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: %s is not a GEMM operand: each matrix needs unit stride along "
                           "one axis and, along the other, a stride of at least the first "
                           "axis's length (BLAS's leading dimension; a broadcast matrix, stride "
                           "0, has none): copy the view with accel_array_copy first",
                           fn, !as_gemm(c->x1, c->m, c->k, &c->g1) ? "x1" : "x2");
    return ACCEL_SUCCESS;
}

/* One strided-batched GEMM over the last batch axis (or one matrix) at
 * element offsets o1, o2, oo. */
static accel_status gemm_at(accel_queue *q, const mcall *c, int64_t o1, int64_t o2, int64_t oo)
{
    accel_gemm_desc g;
    accel_gemm_desc_init(&g);
    g.dtype = c->x1->dtype;
    g.trans_a = c->g1.trans, g.trans_b = c->g2.trans;
    g.m = c->m, g.n = c->n, g.k = c->k;
    g.a = c->x1->buffer, g.a_offset = (size_t)o1, g.lda = c->g1.ld;
    g.b = c->x2->buffer, g.b_offset = (size_t)o2, g.ldb = c->g2.ld;
    g.c = c->out->buffer, g.c_offset = (size_t)oo, g.ldc = c->n ? c->n : 1;
    g.beta = 0.0;
    if (c->nb > 0) {
        int64_t s1 = batch_stride(c->x1, c->nb, c->nb - 1);
        int64_t s2 = batch_stride(c->x2, c->nb, c->nb - 1);
        if (s1 < 0 || s2 < 0)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "accel_array_matmul: a reversed last batch axis (copy it first)");
        g.batch_count = (size_t)c->out->shape[c->nb - 1];
        g.stride_a = (size_t)s1, g.stride_b = (size_t)s2, g.stride_c = c->m * c->n;
    }
    return accel__fail_as(accel_gemm(q, &g), "accel_array_matmul");
}

accel_status accel_array_matmul(accel_queue *q, const accel_array *x1, const accel_array *x2,
                                const accel_array *out)
{
    static const char fn[] = "accel_array_matmul";
    mcall c = {x1, x2, out, 0, 0, 0, 0, {0}, {0}};
    accel_status st = check(fn, &c);
    if (st != ACCEL_SUCCESS)
        return st;
    size_t e1 = accel_dtype_size(x1->dtype);
    /* every batch index but the last axis's: one batched GEMM each */
    int64_t outer = 1;
    for (uint32_t d = 0; d + 1 < c.nb; d++)
        outer *= out->shape[d];
    if (c.nb > 0 && out->shape[c.nb - 1] == 0)
        outer = 0;
    for (int64_t b = 0; b < outer && st == ACCEL_SUCCESS; b++) {
        int64_t o1 = (int64_t)(x1->offset / e1), o2 = (int64_t)(x2->offset / e1), oo = 0, rest = b;
        for (uint32_t d = c.nb >= 1 ? c.nb - 1 : 0; d-- > 0;) {
            int64_t i = rest % out->shape[d];
            rest /= out->shape[d];
            o1 += i * batch_stride(x1, c.nb, d), o2 += i * batch_stride(x2, c.nb, d);
            oo += i * out->strides[d];
        }
        st = gemm_at(q, &c, o1, o2, (int64_t)(out->offset / e1) + oo);
    }
    return st;
}
