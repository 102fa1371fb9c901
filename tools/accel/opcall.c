/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* opcall.c — one op, described as an accel_op_desc (accel/backend.h) as
 * plain data, enqueued through the public API: shared by `accel verify` and
 * `accel replay` so both run ops exactly as an application would. Which
 * public call runs an op follows from its kind in the op table. */
#include <stdbool.h>
#include <string.h>

#include "accel/verify.h"
#include "cli.h"

accel_status cli_op_enqueue(accel_queue *q, const accel_op_desc *d, accel_buffer *const bufs[4])
{
    accel_dtype dt = (accel_dtype)d->dtype;
    accel_op_code op = (accel_op_code)d->op;
    const accel_op_properties *p = accel_op_info(op);
    if (!p)
        return ACCEL_ERROR_INVALID_ARGUMENT;
    accel_slice s[4];
    for (uint32_t i = 0; i < 4; i++)
        s[i] = accel_slice_of(i < d->num_operands ? bufs[i] : NULL, d->operands[i].offset,
                              d->operands[i].count);
    switch (p->kind) {
    case ACCEL_OP_KIND_FILL:
        return accel_fill(q, dt, d->scalars[0], s[0]);
    case ACCEL_OP_KIND_COPY:
        return accel_copy(q, dt, s[0], s[1]);
    case ACCEL_OP_KIND_BINARY:
        return accel_binary(q, op, dt, s[0], s[1], s[2]);
    case ACCEL_OP_KIND_UNARY:
        return accel_unary(q, op, dt, s[0], s[1]);
    case ACCEL_OP_KIND_AXPBY:
        if (op == ACCEL_OP_SCALE)
            return accel_scale(q, dt, d->scalars[0], s[0], s[1]);
        return accel_axpby(q, dt, d->scalars[0], s[0], d->scalars[1], s[1]);
    case ACCEL_OP_KIND_REDUCTION:
        if (p->num_operands == 3)
            return accel_dot(q, dt, s[0], s[1], s[2]);
        return accel_reduce(q, op, dt, s[0], s[1]);
    case ACCEL_OP_KIND_RANDOM:
        if (op == ACCEL_OP_RANDOM_NORMAL)
            return accel_random_normal(q, dt, d->seed, d->rng_offset, d->scalars[0], d->scalars[1],
                                       s[0]);
        return accel_random_uniform(q, dt, d->seed, d->rng_offset, s[0]);
    case ACCEL_OP_KIND_TRANSPOSE:
        return accel_transpose_2d(q, dt, d->m, d->n, bufs[0], d->operands[0].offset, d->lda,
                                  bufs[1], d->operands[1].offset, d->ldc);
    case ACCEL_OP_KIND_GEMM: {
        accel_gemm_desc g;
        accel_gemm_desc_init(&g);
        g.dtype = dt;
        g.trans_a = d->trans_a ? ACCEL_TRANS : ACCEL_NO_TRANS;
        g.trans_b = d->trans_b ? ACCEL_TRANS : ACCEL_NO_TRANS;
        g.m = d->m, g.n = d->n, g.k = d->k;
        g.alpha = d->scalars[0], g.beta = d->scalars[1];
        g.a = bufs[0], g.a_offset = d->operands[0].offset, g.lda = d->lda;
        g.b = bufs[1], g.b_offset = d->operands[1].offset, g.ldb = d->ldb;
        g.c = bufs[2], g.c_offset = d->operands[2].offset, g.ldc = d->ldc;
        g.batch_count = d->batch_count;
        g.stride_a = d->stride_a, g.stride_b = d->stride_b, g.stride_c = d->stride_c;
        g.allow_tf32 = (d->flags & ACCEL_OP_FLAG_ALLOW_TF32) != 0;
        return accel_gemm(q, &g);
    }
    case ACCEL_OP_KIND_SORT:
        return (op == ACCEL_OP_ARGSORT ? accel_argsort_segments : accel_sort_segments)(
            q, dt, d->m, d->n, d->k, (d->flags & ACCEL_OP_FLAG_SORT_DESCENDING) != 0, s[0], s[1]);
    case ACCEL_OP_KIND_LINALG: {
        bool solve = op == ACCEL_OP_SOLVE;
        return accel_linalg_batched(q, op, dt, d->batch_count, d->m, d->n, d->k, d->flags, s[0],
                                    solve ? s[1] : accel_slice_of(NULL, 0, 0), s[solve ? 2 : 1]);
    }
    case ACCEL_OP_KIND_FFT:
        return accel_fft_segments(q, op, dt, d->m, d->n, d->k,
                                  (d->flags & ACCEL_OP_FLAG_FFT_INVERSE) != 0, d->scalars[0], s[0],
                                  s[1]);
    case ACCEL_OP_KIND_SCAN:
        return accel_cumsum_segments(q, dt, (accel_dtype)accel_scan_out_dtype(dt, d->flags), d->m,
                                     d->n, d->k, s[0], s[1]);
    }
    return ACCEL_ERROR_INVALID_ARGUMENT;
}

const accel_tolerance_op *cli_tolerance_op(const accel_op_desc *d, accel_tolerance_op *t)
{
    accel_tolerance_op_init(t);
    t->op = (accel_op_code)d->op;
    t->dtype = (accel_dtype)d->dtype;
    t->num_operands = d->num_operands <= 4 ? d->num_operands : 4;
    for (uint32_t i = 0; i < t->num_operands; i++)
        t->counts[i] = d->operands[i].count;
    memcpy(t->scalars, d->scalars, sizeof t->scalars);
    t->allow_tf32 = (d->flags & ACCEL_OP_FLAG_ALLOW_TF32) != 0;
    t->trans_a = d->trans_a ? ACCEL_TRANS : ACCEL_NO_TRANS;
    t->trans_b = d->trans_b ? ACCEL_TRANS : ACCEL_NO_TRANS;
    t->m = d->m, t->n = d->n, t->k = d->k;
    t->lda = d->lda, t->ldb = d->ldb, t->ldc = d->ldc;
    t->batch_count = d->batch_count ? d->batch_count : 1;
    t->stride_a = d->stride_a, t->stride_b = d->stride_b, t->stride_c = d->stride_c;
    t->flags = d->flags;
    return t;
}
