/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* ops.c — which ops the CPU backend takes (op_supported), how an accel_op_desc
 * becomes a resolved accel_cpu_op on a queue (op_execute), and the dispatch
 * that runs it on the queue's worker (accel_cpu__op_run). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "common/op_kind.h"
#include "cpu.h"

/* Operands each op reads or writes (the order of accel_op_desc) and the
 * dtypes it takes: the op table's columns (accel/types.h). 0 operands: not
 * an op. Every op of the table runs here. */
/* An op's operand count and dtype mask, from the op table's row. */
typedef struct op_facts {
    uint32_t operands, dtypes;
} op_facts;

#define ACCEL_X_FACTS(E, V, NAME, KIND, OPS, READS, DTYPES, ...)                                   \
    case ACCEL_OP_##E:                                                                             \
        return (op_facts){OPS, DTYPES};
static op_facts facts_of(uint32_t op)
{
    switch (op) {
        ACCEL_OP_LIST(ACCEL_X_FACTS)
    }
    return (op_facts){0, 0};
}
#undef ACCEL_X_FACTS

static int supported(uint32_t op, uint32_t dtype)
{
    op_facts f = facts_of(op);
    return f.operands != 0 && dtype < 32 && (f.dtypes >> dtype & 1u);
}

static const char *dtype_name(uint32_t dtype)
{
    switch (dtype) {
#define ACCEL_X_DTYPE_NAME(E, V, NAME, SIZE, KIND)                                                 \
    case V:                                                                                        \
        return NAME;
        ACCEL_DTYPE_LIST(ACCEL_X_DTYPE_NAME)
#undef ACCEL_X_DTYPE_NAME
    default:
        return "invalid";
    }
}

int32_t accel_cpu__op_supported(void *ctx, uint32_t device, const accel_op_desc *desc)
{
    (void)ctx;
    (void)device;
    if (desc->op == ACCEL_OP_KERNEL)
        return desc->kernel && desc->kernel->program ? ACCEL_SUCCESS : ACCEL_ERROR_UNSUPPORTED;
    return supported(desc->op, desc->dtype) ? ACCEL_SUCCESS : ACCEL_ERROR_UNSUPPORTED;
}

/* An elementwise op, a copy, a reduction or a running sum of at most one
 * block (one thread's work, a few microseconds): run on the caller's thread when its
 * queue is idle (accel_cpu__queue_run_inline), so that a small op from
 * Python costs no hand-off to the worker thread (a 1024-element sum had
 * spent most of its 10 us in the futex wake-up and context switches). */
static int small_op(const accel_cpu_op *op)
{
    if (op->count[0] > ACCEL_CPU_EW_BLOCK)
        return 0;
    switch (op->op) {
    case ACCEL_OP_COPY:
    case ACCEL_OP_CUMSUM:
    case ACCEL_OP_SUM:
    case ACCEL_OP_REDUCE_MAX:
    case ACCEL_OP_REDUCE_MIN:
    case ACCEL_OP_DOT:
    case ACCEL_OP_FILL:
    case ACCEL_OP_ADD:
    case ACCEL_OP_SUB:
    case ACCEL_OP_MUL:
    case ACCEL_OP_DIV:
    case ACCEL_OP_MAX:
    case ACCEL_OP_MIN:
    case ACCEL_OP_AXPBY:
    case ACCEL_OP_SCALE:
    case ACCEL_OP_NEG:
    case ACCEL_OP_ABS:
    case ACCEL_OP_SQRT:
    case ACCEL_OP_RELU:
        return 1;
    default:
        return 0;
    }
}

/* The worker's call of an op task (accel_cpu_work.run). */
static int32_t op_work(accel_cpu_work *w, int threads, char *msg, size_t msg_size)
{
    return accel_cpu__op_run(&w->u.op, threads, msg, msg_size);
}

int32_t accel_cpu__op_execute(void *vctx, accel_be_queue *q, const accel_op_desc *desc)
{
    if (desc->op == ACCEL_OP_KERNEL) {
        if (desc->struct_size >= sizeof(accel_op_desc))
            return accel_cpu__kernel_enqueue(vctx, q, desc);
        /* A core built against an older ABI minor passes a shorter descriptor. */
        accel_op_desc d;
        memset(&d, 0, sizeof d);
        memcpy(&d, desc, desc->struct_size ? desc->struct_size : sizeof d);
        return accel_cpu__kernel_enqueue(vctx, q, &d);
    }
    accel_cpu_work w;
    w.run = op_work;
    w.discard = NULL;
    int32_t rc = accel_cpu__op_resolve(vctx, desc, &w.u.op);
    if (rc != ACCEL_SUCCESS)
        return rc;
    if (small_op(&w.u.op) && accel_cpu__queue_run_inline(q, &w))
        return ACCEL_SUCCESS;
    return accel_cpu__queue_enqueue_work(q, &w);
}

/* op, the resolved form of d (whose name is name): pointers to the
 * operands' first elements and the descriptor's sizes. */
static void fill_op(accel_cpu_op *op, const accel_op_desc *d, const char *name)
{
    memset(op, 0, sizeof *op);
    op->op = d->op;
    op->dtype = d->dtype;
    /* Not snprintf: this is on every enqueue. */
    for (size_t i = 0; i + 1 < sizeof op->name && name[i]; ++i)
        op->name[i] = name[i];
    uint32_t nops = facts_of(d->op).operands;
    for (uint32_t i = 0; i < nops; ++i) {
        const accel_op_operand *o = &d->operands[i];
        size_t es = accel_backend_dtype_size(accel_op_operand_dtype(d, i));
        op->ptr[i] = o->buffer ? (char *)o->buffer->data + o->offset * es : NULL;
        op->count[i] = o->count;
    }
    memcpy(op->scalars, d->scalars, sizeof op->scalars);
    op->seed = d->seed;
    op->rng_offset = d->rng_offset;
    op->trans_a = d->trans_a;
    op->trans_b = d->trans_b;
    op->flags = d->flags;
    op->m = d->m;
    op->n = d->n;
    op->k = d->k;
    op->lda = d->lda;
    op->ldb = d->ldb;
    op->ldc = d->ldc;
    op->batch_count = d->batch_count ? d->batch_count : 1;
    op->stride_a = d->stride_a;
    op->stride_b = d->stride_b;
    op->stride_c = d->stride_c;
}

/* Refuse what this backend cannot run (32-bit BLAS and LAPACK sizes) or what
 * has no value (the max or min of nothing, a negative stddev). */
static int32_t check_limits(accel_cpu_ctx *ctx, const accel_cpu_op *op, const char *name)
{
    /* LAPACK's ints (LP64), work sizes included. */
    if (accel_backend_op_kind(op->op) == ACCEL_OP_KIND_LINALG &&
        (op->m > INT_MAX / 64 || op->n > INT_MAX / 64 || op->k > INT_MAX / 64)) {
        ctx->host->set_error(ctx->host->host_ctx,
                             "%s: m, n and k must be at most %d on the cpu backend (32-bit LAPACK)",
                             name, INT_MAX / 64);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    switch (op->op) {
    case ACCEL_OP_REDUCE_MAX:
    case ACCEL_OP_REDUCE_MIN:
        if (op->count[0] == 0) {
            ctx->host->set_error(ctx->host->host_ctx,
                                 "%s: the %s of 0 elements is undefined (no identity)", name,
                                 op->op == ACCEL_OP_REDUCE_MAX ? "maximum" : "minimum");
            return ACCEL_ERROR_INVALID_ARGUMENT;
        }
        break;
    case ACCEL_OP_GEMM:
        /* OpenBLAS's cblas takes 32-bit ints (LP64 build). */
        if (op->m > INT_MAX || op->n > INT_MAX || op->k > INT_MAX || op->lda > INT_MAX ||
            op->ldb > INT_MAX || op->ldc > INT_MAX) {
            ctx->host->set_error(ctx->host->host_ctx,
                                 "%s: m, n, k and leading dimensions must be at most %d on the "
                                 "cpu backend (32-bit BLAS)",
                                 name, INT_MAX);
            return ACCEL_ERROR_UNSUPPORTED;
        }
        break;
    case ACCEL_OP_RANDOM_NORMAL:
        if (!(op->scalars[1] >= 0.0)) {
            ctx->host->set_error(ctx->host->host_ctx, "%s: stddev %g must be >= 0", name,
                                 op->scalars[1]);
            return ACCEL_ERROR_INVALID_ARGUMENT;
        }
        break;
    default:
        break;
    }
    return ACCEL_SUCCESS;
}

int32_t accel_cpu__op_resolve(void *vctx, const accel_op_desc *desc, accel_cpu_op *out)
{
    accel_cpu_ctx *ctx = vctx;
    /* A core built against an older ABI minor passes a shorter descriptor:
     * copied, zero past its end; a whole one is read in place (this runs on
     * every enqueue). */
    accel_op_desc local;
    const accel_op_desc *d = desc;
    if (desc->struct_size && desc->struct_size < sizeof local) {
        memset(&local, 0, sizeof local);
        memcpy(&local, desc, desc->struct_size);
        d = &local;
    }
    const char *name = d->name ? d->name : "accel op";
    if (d->op == ACCEL_OP_KERNEL) { /* launched by op_execute, never resolved ahead */
        ctx->host->set_error(ctx->host->host_ctx,
                             "%s: a user kernel launch cannot be resolved "
                             "ahead of its queue",
                             name);
        return ACCEL_ERROR_UNSUPPORTED;
    }

    if (!supported(d->op, d->dtype)) {
        ctx->host->set_error(ctx->host->host_ctx,
                             "%s: op %u on dtype %s is not supported by the cpu backend", name,
                             (unsigned)d->op, dtype_name(d->dtype));
        return ACCEL_ERROR_UNSUPPORTED;
    }
    fill_op(out, d, name);
    return check_limits(ctx, out, name);
}

int32_t accel_cpu__op_run(const accel_cpu_op *op, int threads, char *msg, size_t msg_size)
{
    /* op_supported took only table ops: the kind is one of the enum's */
    switch ((accel_op_kind)accel_backend_op_kind(op->op)) {
    case ACCEL_OP_KIND_COPY: {
        size_t bytes = op->count[0] * accel_backend_dtype_size(op->dtype);
        /* Equal ranges are allowed (a no-op); partial overlap is not. */
        if (bytes && op->ptr[0] != op->ptr[1])
            memcpy(op->ptr[1], op->ptr[0], bytes);
        return ACCEL_SUCCESS;
    }
    case ACCEL_OP_KIND_REDUCTION:
        return accel_cpu__reduce(op, threads, msg, msg_size);
    case ACCEL_OP_KIND_GEMM:
        return accel_cpu__gemm(op, threads, msg, msg_size);
    case ACCEL_OP_KIND_RANDOM:
        accel_cpu__random(op, threads);
        return ACCEL_SUCCESS;
    case ACCEL_OP_KIND_TRANSPOSE:
        accel_cpu__transpose(op, threads);
        return ACCEL_SUCCESS;
    case ACCEL_OP_KIND_SORT:
        return accel_cpu__sort(op, threads, msg, msg_size);
    case ACCEL_OP_KIND_LINALG:
        return accel_cpu__linalg(op, threads, msg, msg_size);
    case ACCEL_OP_KIND_FFT:
        return accel_cpu__fft(op, threads, msg, msg_size);
    case ACCEL_OP_KIND_SCAN:
        return accel_cpu__scan(op, threads, msg, msg_size);
    case ACCEL_OP_KIND_FILL:
    case ACCEL_OP_KIND_BINARY:
    case ACCEL_OP_KIND_UNARY:
    case ACCEL_OP_KIND_AXPBY:
        accel_cpu__elementwise(op, threads);
        return ACCEL_SUCCESS;
    }
    return ACCEL_ERROR_INTERNAL;
}
