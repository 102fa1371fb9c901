/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* run_shape.c — NumPy's shape rules for the ops of `accel run` (without
 * broadcasting) and the op descriptor the --verify comparison reads. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "run_ops.h"
#include "run_shape.h"

/* "(3, 4)" into buf. */
static const char *shape_str(const accel_npy_array *a, char *buf, size_t cap)
{
    size_t len = (size_t)snprintf(buf, cap, "(");
    for (uint32_t d = 0; d < a->ndim && len < cap; d++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%zu", d ? ", " : "", a->shape[d]);
    if (len < cap)
        snprintf(buf + len, cap - len, "%s)", a->ndim == 1 ? "," : "");
    return buf;
}

static bool same_shape(const accel_npy_array *a, const accel_npy_array *b)
{
    if (a->ndim != b->ndim)
        return false;
    for (uint32_t d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d])
            return false;
    return true;
}

/* "accel run: OP: WHAT, got S0 (P0) and S1 (P1)". */
static bool shape_error(const run_job *j, const char *what)
{
    char s0[200], s1[200];
    fprintf(stderr, "accel run: %s: %s, got %s (%s)", j->op->name, what,
            shape_str(&j->in[0], s0, sizeof s0), j->paths[0]);
    if (j->nin == 2)
        fprintf(stderr, " and %s (%s)", shape_str(&j->in[1], s1, sizeof s1), j->paths[1]);
    fprintf(stderr, "\n");
    return false;
}

static bool matmul_shape(run_job *j)
{
    const accel_npy_array *in = j->in;
    uint32_t nd = in[0].ndim;
    bool ok = nd == in[1].ndim && (nd == 2 || nd == 3);
    if (ok && nd == 3)
        ok = in[0].shape[0] == in[1].shape[0];
    if (ok)
        ok = in[0].shape[nd - 1] == in[1].shape[nd - 2];
    if (!ok)
        return shape_error(j, "needs (m,k) @ (k,n) or (b,m,k) @ (b,k,n)");
    j->out_ndim = nd;
    if (nd == 3)
        j->out_shape[0] = in[0].shape[0];
    j->out_shape[nd - 2] = in[0].shape[nd - 2];
    j->out_shape[nd - 1] = in[1].shape[nd - 1];
    return true;
}

static bool shape_by_kind(run_job *j)
{
    const accel_npy_array *in = j->in;
    switch (j->op->kind) {
    case RUN_BINARY:
        if (!same_shape(&in[0], &in[1]))
            return shape_error(j, "the shapes differ (accel does not broadcast)");
        /* fall through */
    case RUN_UNARY:
        j->out_ndim = in[0].ndim;
        memcpy(j->out_shape, in[0].shape, sizeof in[0].shape);
        return true;
    case RUN_DOT:
        if (in[0].ndim != 1 || in[1].ndim != 1 || in[0].shape[0] != in[1].shape[0])
            return shape_error(j, "needs two 1-D arrays of equal length");
        /* fall through */
    case RUN_REDUCE:
        j->out_ndim = 0;
        return true;
    case RUN_MATMUL:
        return matmul_shape(j);
    case RUN_TRANSPOSE:
        if (in[0].ndim != 2)
            return shape_error(j, "needs a 2-D array");
        j->out_ndim = 2;
        j->out_shape[0] = in[0].shape[1];
        j->out_shape[1] = in[0].shape[0];
        return true;
    }
    return false;
}

bool run_output_shape(run_job *j)
{
    if (!shape_by_kind(j))
        return false;
    size_t esize = accel_dtype_size(j->dt), count = 1;
    for (uint32_t d = 0; d < j->out_ndim; d++) {
        if (j->out_shape[d] && count > SIZE_MAX / esize / j->out_shape[d]) {
            fprintf(stderr, "accel run: %s: the output's size overflows\n", j->op->name);
            return false;
        }
        count *= j->out_shape[d];
    }
    j->out_count = count;
    return true;
}

static void describe_matmul(const run_job *j, accel_tolerance_op *d)
{
    uint32_t nd = j->in[0].ndim;
    d->batch_count = nd == 3 ? j->in[0].shape[0] : 1;
    d->m = j->in[0].shape[nd - 2];
    d->k = j->in[0].shape[nd - 1];
    d->n = j->in[1].shape[nd - 1];
    d->lda = d->k;
    d->ldb = d->n;
    d->ldc = d->n;
    d->stride_a = d->m * d->k;
    d->stride_b = d->k * d->n;
    d->stride_c = d->m * d->n;
    d->scalars[0] = 1.0; /* alpha; beta = 0 */
}

accel_tolerance_op run_describe(const run_job *j)
{
    accel_tolerance_op d;
    accel_tolerance_op_init(&d);
    d.op = j->op->code;
    d.dtype = j->dt;
    for (int i = 0; i < j->nin; i++)
        d.counts[i] = j->in[i].count;
    d.counts[j->nin] = j->out_count;
    d.num_operands = (uint32_t)j->nin + 1;
    if (j->op->kind == RUN_MATMUL) {
        describe_matmul(j, &d);
    } else if (j->op->kind == RUN_TRANSPOSE) {
        d.m = j->in[0].shape[0];
        d.n = j->in[0].shape[1];
        d.lda = d.n;
        d.ldc = d.m;
    }
    return d;
}
