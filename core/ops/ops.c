/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/ops.c — argument validation of every op of accel.h.
 *
 * Each op checks, in this order: the queue handle, the dtype, each operand
 * (handle, device, range: offset + count within the buffer, overflow-safe),
 * element counts, aliasing, op-specific rules; then it fills an
 * accel_op_desc on the stack and hands it to accel__submit (submit.c), the
 * one path to the backend. Nothing is allocated per op. Zero-element ops are
 * validated the same way and then succeed without reaching op_execute,
 * except reductions and GEMM with k == 0, which still write their output. */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/handle.h"
#include "base/objects.h"
#include "base/optable.h"
#include "base/status.h"
#include "base/struct_size.h"
#include "ops/ops.h"
#include "ops/submit.h"

/* ------------------------------------------------------------ validation */

static accel_status check_queue(const char *fn, accel__call *call, accel_queue **q)
{
    return accel__enter(call, fn, *q, ACCEL__T_QUEUE, "q", q);
}

/* True when op is a row of the op table of this kind and operand count. */
static bool op_of_kind(accel_op_code op, accel_op_kind kind, uint32_t operands)
{
    const accel_op_properties *p = accel__op((uint32_t)op);
    return p && p->kind == kind && p->num_operands == operands;
}

/* The dtypes an op takes are its op table row's (f32 and f64 for most; GEMM,
 * copy and transpose also f16 and bf16 where the backend supports them). A
 * dtype of the enum that the row lacks is named, with the op and the dtypes
 * it takes; only a value outside the enum is "not a known dtype". */
static accel_status check_dtype(const char *fn, accel_dtype dtype, accel_op_code op)
{
    const accel_op_properties *p = accel__op((uint32_t)op);
    if (dtype <= ACCEL_DTYPE_INVALID || dtype >= ACCEL_DTYPE_COUNT_)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: dtype %d is not a known dtype", fn,
                           (int)dtype);
    if (p && (p->dtypes & (1u << dtype)))
        return ACCEL_SUCCESS;
    char taken[64] = "";
    size_t len = 0;
    for (int d = ACCEL_DTYPE_INVALID + 1; p && d < ACCEL_DTYPE_COUNT_; d++)
        if (p->dtypes & (1u << d))
            len += (size_t)snprintf(taken + len, sizeof taken - len, "%s%s", len ? " " : "",
                                    accel_dtype_name((accel_dtype)d));
    return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH,
                       "%s: %s is not supported by this op (%s); supported: %s", fn,
                       accel_dtype_name(dtype), p ? p->name : "unknown op", len ? taken : "none");
}

/* log2 of the element size: ranges are checked against bytes >> shift. */
static unsigned dtype_shift(accel_dtype dtype)
{
    size_t es = accel_dtype_size(dtype);
    return es == 16 ? 4u : es == 8 ? 3u : es == 4 ? 2u : es == 2 ? 1u : 0u;
}

/* The queue and every operand buffer: live handles of one runtime,
 * resolved in place to their objects (*q and bufs[i]), on the queue's
 * device. The call counts as in flight from here (call). */
static accel_status check_handles(const char *fn, accel__call *call, accel_queue **q, size_t n,
                                  accel_buffer **bufs, const char *const *names)
{
    accel__arg args[4];
    args[0] = (accel__arg){*q, ACCEL__T_QUEUE, "q", q, NULL};
    for (size_t i = 0; i < n; i++)
        args[i + 1] = (accel__arg){bufs[i], ACCEL__T_BUFFER, names[i], &bufs[i], ".buffer"};
    ACCEL__TRY(accel__call_enter(call, fn, n + 1, args));
    for (size_t i = 0; i < n; i++) {
        if (bufs[i]->dev != (*q)->dev)
            return accel__fail(ACCEL_ERROR_DEVICE_MISMATCH, "%s: %s is on %s but q is on %s", fn,
                               names[i], bufs[i]->dev->name, (*q)->dev->name);
    }
    /* accel_buffer_release waits for the queues only for marked buffers. An
     * op that fails a later check marks them needlessly, which is harmless. */
    for (size_t i = 0; i < n; i++)
        accel__buffer_mark_enqueued(bufs[i]);
    return ACCEL_SUCCESS;
}

/* offset + count within the buffer, overflow-safe; fills the descriptor's
 * operand. The handle was checked before. */
static accel_status check_range(const char *fn, const char *arg, accel_dtype dtype, accel_slice s,
                                accel_op_operand *out)
{
    size_t n = s.buffer->bytes >> dtype_shift(dtype);
    if (s.offset > n || s.count > n - s.offset) {
        if (s.count > SIZE_MAX - s.offset)
            return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                               "%s: %s range offset %zu + count %zu overflows (buffer of %zu %s "
                               "elements)",
                               fn, arg, s.offset, s.count, n, accel_dtype_name(dtype));
        return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                           "%s: %s range [%zu, %zu) exceeds buffer of %zu %s elements", fn, arg,
                           s.offset, s.offset + s.count, n, accel_dtype_name(dtype));
    }
    out->buffer = s.buffer->be;
    out->offset = s.offset;
    out->count = s.count;
    return ACCEL_SUCCESS;
}

static accel_status check_count(const char *fn, const char *arg, accel_slice s, const char *ref_arg,
                                size_t ref_count)
{
    if (s.count != ref_count)
        return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH, "%s: %s has %zu elements but %s has %zu", fn,
                           arg, s.count, ref_arg, ref_count);
    return ACCEL_SUCCESS;
}

/* Ranges of elements of es bytes (their buffers resolved to objects by
 * check_handles; inside the buffers, so no overflow) meet: in one buffer,
 * or in two over the same memory (accel__bytes_meet); *same: one start
 * address and one count. */
static bool overlap(accel_slice x, accel_slice y, size_t es, bool *same)
{
    *same = false;
    if (!x.count || !y.count ||
        !accel__bytes_meet(x.buffer, x.offset * es, (x.offset + x.count) * es, y.buffer,
                           y.offset * es, (y.offset + y.count) * es, same))
        return false;
    *same = *same && x.count == y.count;
    return true;
}

/* How an output may lie against an input of the same memory: an
 * elementwise output apart from it or exactly on its range (in place), a
 * reduction's output apart from it. */
typedef enum { APART, APART_OR_SAME } range_rule;

static accel_status check_ranges(const char *fn, const char *out_arg, accel_slice out,
                                 const char *in_arg, accel_slice in, range_rule rule, size_t es)
{
    bool same;
    if (!overlap(out, in, es, &same) || (rule == APART_OR_SAME && same))
        return ACCEL_SUCCESS;
    return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                       "%s: %s range [%zu, %zu) %s %s range [%zu, %zu) of the same memory%s", fn,
                       out_arg, out.offset, out.offset + out.count,
                       rule == APART_OR_SAME ? "partially overlaps" : "overlaps", in_arg, in.offset,
                       in.offset + in.count,
                       rule == APART_OR_SAME ? " (in-place needs identical ranges)" : "");
}

/* -------------------------------------------------------------- dispatch */

static void desc_init(accel_op_desc *d, const char *fn, accel_op_code op, accel_dtype dtype)
{
    memset(d, 0, sizeof *d);
    d->struct_size = sizeof *d;
    d->op = (uint32_t)op;
    d->dtype = (uint32_t)dtype;
    d->name = fn;
}

static accel_status op_dispatch(accel_queue *q, const accel_op_desc *d, bool empty)
{
    return accel__submit(q, d, empty ? ACCEL__SUBMIT_EMPTY : 0);
}

/* --------------------------------------------------------- elementwise */

/* The checks shared by the two-input ops (binary elementwise, dot): handles,
 * dtype, the three ranges (filling d's operands), and equal input counts.
 * names are the public argument names of (input 0, input 1, output). */
static accel_status check_two_inputs(const char *fn, accel__call *call, accel_queue **q,
                                     accel_dtype dtype, const char *const names[3], accel_slice *x,
                                     accel_slice *y, accel_slice *out, accel_op_desc *d)
{
    accel_buffer *bufs[] = {x->buffer, y->buffer, out->buffer};
    accel_status st = check_handles(fn, call, q, 3, bufs, names);
    x->buffer = bufs[0]; /* the objects, for the overlap checks after */
    y->buffer = bufs[1];
    out->buffer = bufs[2];
    if (st == ACCEL_SUCCESS)
        st = check_dtype(fn, dtype, (accel_op_code)d->op);
    if (st == ACCEL_SUCCESS)
        st = check_range(fn, names[0], dtype, *x, &d->operands[0]);
    if (st == ACCEL_SUCCESS)
        st = check_range(fn, names[1], dtype, *y, &d->operands[1]);
    if (st == ACCEL_SUCCESS)
        st = check_range(fn, names[2], dtype, *out, &d->operands[2]);
    if (st == ACCEL_SUCCESS)
        st = check_count(fn, names[1], *y, names[0], x->count);
    d->num_operands = 3;
    return st;
}

static accel_status binary_op(const char *fn, accel_queue *q, accel_op_code op, accel_dtype dtype,
                              accel_slice a, accel_slice b, accel_slice out)
{
    ACCEL__CALL(call);
    accel_op_desc d;
    desc_init(&d, fn, op, dtype);
    static const char *const names[] = {"a", "b", "out"};
    accel_status st = check_two_inputs(fn, &call, &q, dtype, names, &a, &b, &out, &d);
    if (st == ACCEL_SUCCESS)
        st = check_count(fn, "out", out, "a", a.count);
    if (st == ACCEL_SUCCESS)
        st = check_ranges(fn, "out", out, "a", a, APART_OR_SAME, accel_dtype_size(dtype));
    if (st == ACCEL_SUCCESS)
        st = check_ranges(fn, "out", out, "b", b, APART_OR_SAME, accel_dtype_size(dtype));
    if (st != ACCEL_SUCCESS)
        return st;
    return op_dispatch(q, &d, a.count == 0);
}

/* The refusal of accel_binary, accel_unary and accel_reduce for an op of
 * another kind: a bad queue is named first, as every call does. */
static accel_status not_of_kind(const char *fn, accel_queue *q, accel_op_code op, const char *what)
{
    ACCEL__CALL(call);
    accel_status st = check_queue(fn, &call, &q);
    if (st != ACCEL_SUCCESS)
        return st;
    return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: op %d (%s) is not %s", fn, (int)op,
                       accel_op_name(op), what);
}

accel_status accel_binary(accel_queue *q, accel_op_code op, accel_dtype dtype, accel_slice a,
                          accel_slice b, accel_slice out)
{
    static const char fn[] = "accel_binary";
    if (!op_of_kind(op, ACCEL_OP_KIND_BINARY, 3))
        return not_of_kind(fn, q, op, "a binary elementwise op");
    return binary_op(fn, q, op, dtype, a, b, out);
}

/* The checks of every x -> out op: the handles, d's dtype for its op, and
 * both ranges into d's operands 0 and 1. out_name names out in messages. */
static accel_status check_x_out(const char *fn, accel__call *call, accel_queue **q,
                                accel_op_desc *d, accel_slice *x, const char *out_name,
                                accel_slice *out)
{
    const accel_dtype dtype = (accel_dtype)d->dtype;
    accel_buffer *bufs[] = {x->buffer, out->buffer};
    const char *const names[] = {"x", out_name};
    accel_status st = check_handles(fn, call, q, 2, bufs, names);
    x->buffer = bufs[0];
    out->buffer = bufs[1];
    if (st == ACCEL_SUCCESS)
        st = check_dtype(fn, dtype, (accel_op_code)d->op);
    if (st == ACCEL_SUCCESS)
        st = check_range(fn, "x", dtype, *x, &d->operands[0]);
    if (st == ACCEL_SUCCESS)
        st = check_range(fn, out_name, dtype, *out, &d->operands[1]);
    return st;
}

/* x -> out ops: unary, scale, copy, and axpby (whose "out" is y, read and
 * written). out_name names the second operand in messages. */
static accel_status x_out_op(const char *fn, accel_queue *q, accel_op_code op, accel_dtype dtype,
                             const char *out_name, double alpha, double beta, accel_slice x,
                             accel_slice out)
{
    ACCEL__CALL(call);
    accel_op_desc d;
    desc_init(&d, fn, op, dtype);
    accel_status st = check_x_out(fn, &call, &q, &d, &x, out_name, &out);
    if (st == ACCEL_SUCCESS)
        st = check_count(fn, out_name, out, "x", x.count);
    if (st == ACCEL_SUCCESS)
        st = check_ranges(fn, out_name, out, "x", x, APART_OR_SAME, accel_dtype_size(dtype));
    if (st != ACCEL_SUCCESS)
        return st;
    d.num_operands = 2;
    d.scalars[0] = alpha;
    d.scalars[1] = beta;
    return op_dispatch(q, &d, x.count == 0);
}

static accel_status unary_op(const char *fn, accel_queue *q, accel_op_code op, accel_dtype dtype,
                             double alpha, accel_slice x, accel_slice out)
{
    return x_out_op(fn, q, op, dtype, "out", alpha, 0.0, x, out);
}

accel_status accel_unary(accel_queue *q, accel_op_code op, accel_dtype dtype, accel_slice x,
                         accel_slice out)
{
    static const char fn[] = "accel_unary";
    if (!op_of_kind(op, ACCEL_OP_KIND_UNARY, 2))
        return not_of_kind(fn, q, op, "a unary elementwise op");
    return unary_op(fn, q, op, dtype, 0.0, x, out);
}

/* accel_add, accel_neg, ...: one public function per BINARY and UNARY row of
 * the op table (their signatures are uniform; the declarations and their
 * docstrings are in accel.h). Rows of other kinds have hand-written ones. */
#define WRAP_BINARY(name, code)                                                                    \
    accel_status accel_##name(accel_queue *q, accel_dtype dtype, accel_slice a, accel_slice b,     \
                              accel_slice out)                                                     \
    {                                                                                              \
        return binary_op("accel_" #name, q, code, dtype, a, b, out);                               \
    }
#define WRAP_UNARY(name, code)                                                                     \
    accel_status accel_##name(accel_queue *q, accel_dtype dtype, accel_slice x, accel_slice out)   \
    {                                                                                              \
        return unary_op("accel_" #name, q, code, dtype, 0.0, x, out);                              \
    }
#define WRAP_NONE(name, code)
#define WRAP_FILL WRAP_NONE
#define WRAP_COPY WRAP_NONE
#define WRAP_AXPBY WRAP_NONE
#define WRAP_REDUCTION WRAP_NONE
#define WRAP_GEMM WRAP_NONE
#define WRAP_RANDOM WRAP_NONE
#define WRAP_TRANSPOSE WRAP_NONE
#define WRAP_SORT WRAP_NONE
#define WRAP_LINALG WRAP_NONE
#define WRAP_FFT WRAP_NONE
#define WRAP_SCAN WRAP_NONE
#define ACCEL_X_WRAP(E, V, NAME, KIND, ...) WRAP_##KIND(NAME, ACCEL_OP_##E)
ACCEL_OP_LIST(ACCEL_X_WRAP)
#undef ACCEL_X_WRAP

accel_status accel_scale(accel_queue *q, accel_dtype dtype, double alpha, accel_slice x,
                         accel_slice out)
{
    return unary_op("accel_scale", q, ACCEL_OP_SCALE, dtype, alpha, x, out);
}

accel_status accel_copy(accel_queue *q, accel_dtype dtype, accel_slice x, accel_slice out)
{
    return unary_op("accel_copy", q, ACCEL_OP_COPY, dtype, 0.0, x, out);
}

accel_status accel_axpby(accel_queue *q, accel_dtype dtype, double alpha, accel_slice x,
                         double beta, accel_slice y)
{
    return x_out_op("accel_axpby", q, ACCEL_OP_AXPBY, dtype, "y", alpha, beta, x, y);
}

/* The opening of an op whose only operand is its output (fill, random):
 * d for op on dtype, then the checks: q and out's buffer (out->buffer
 * becomes the object), the dtype for op, and out's range into
 * d->operands[0]. */
static accel_status check_output_only(const char *fn, accel__call *call, accel_queue **q,
                                      accel_op_code op, accel_dtype dtype, accel_slice *out,
                                      accel_op_desc *d)
{
    desc_init(d, fn, op, dtype);
    accel_buffer *bufs[] = {out->buffer};
    static const char *const names[] = {"out"};
    accel_status st = check_handles(fn, call, q, 1, bufs, names);
    out->buffer = bufs[0];
    if (st == ACCEL_SUCCESS)
        st = check_dtype(fn, (accel_dtype)d->dtype, (accel_op_code)d->op);
    if (st == ACCEL_SUCCESS)
        st = check_range(fn, "out", (accel_dtype)d->dtype, *out, &d->operands[0]);
    return st;
}

accel_status accel_fill(accel_queue *q, accel_dtype dtype, double value, accel_slice out)
{
    static const char fn[] = "accel_fill";
    accel_op_desc d;
    ACCEL__CALL(call);
    accel_status st = check_output_only(fn, &call, &q, ACCEL_OP_FILL, dtype, &out, &d);
    if (st != ACCEL_SUCCESS)
        return st;
    d.num_operands = 1;
    d.scalars[0] = value;
    return op_dispatch(q, &d, out.count == 0);
}

/* ------------------------------------------------------------- reductions */

static accel_status reduce_op(const char *fn, accel_queue *q, accel_op_code op, accel_dtype dtype,
                              accel_slice x, accel_slice out)
{
    accel_op_desc d;
    desc_init(&d, fn, op, dtype);
    ACCEL__CALL(call);
    accel_status st = check_x_out(fn, &call, &q, &d, &x, "out", &out);
    if (st != ACCEL_SUCCESS)
        return st;
    if (out.count != 1)
        return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                           "%s: out has %zu elements but a reduction writes exactly 1", fn,
                           out.count);
    st = check_ranges(fn, "out", out, "x", x, APART, accel_dtype_size(dtype));
    if (st != ACCEL_SUCCESS)
        return st;
    if (x.count == 0 && op != ACCEL_OP_SUM)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: x has 0 elements and %s has no identity (as NumPy)", fn,
                           accel_op_name(op));
    d.num_operands = 2;
    return op_dispatch(q, &d, false);
}

accel_status accel_reduce(accel_queue *q, accel_op_code op, accel_dtype dtype, accel_slice x,
                          accel_slice out)
{
    static const char fn[] = "accel_reduce";
    if (!op_of_kind(op, ACCEL_OP_KIND_REDUCTION, 2))
        return not_of_kind(fn, q, op,
                           "a one-input reduction (ACCEL_OP_SUM, ACCEL_OP_REDUCE_MAX, "
                           "ACCEL_OP_REDUCE_MIN)");
    return reduce_op(fn, q, op, dtype, x, out);
}

accel_status accel_sum(accel_queue *q, accel_dtype dtype, accel_slice x, accel_slice out)
{
    return reduce_op("accel_sum", q, ACCEL_OP_SUM, dtype, x, out);
}

accel_status accel_reduce_max(accel_queue *q, accel_dtype dtype, accel_slice x, accel_slice out)
{
    return reduce_op("accel_reduce_max", q, ACCEL_OP_REDUCE_MAX, dtype, x, out);
}

accel_status accel_reduce_min(accel_queue *q, accel_dtype dtype, accel_slice x, accel_slice out)
{
    return reduce_op("accel_reduce_min", q, ACCEL_OP_REDUCE_MIN, dtype, x, out);
}

accel_status accel_dot(accel_queue *q, accel_dtype dtype, accel_slice x, accel_slice y,
                       accel_slice out)
{
    static const char fn[] = "accel_dot";
    ACCEL__CALL(call);
    accel_op_desc d;
    desc_init(&d, fn, ACCEL_OP_DOT, dtype);
    static const char *const names[] = {"x", "y", "out"};
    accel_status st = check_two_inputs(fn, &call, &q, dtype, names, &x, &y, &out, &d);
    if (st != ACCEL_SUCCESS)
        return st;
    if (out.count != 1)
        return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                           "%s: out has %zu elements but dot writes exactly 1", fn, out.count);
    st = check_ranges(fn, "out", out, "x", x, APART, accel_dtype_size(dtype));
    if (st == ACCEL_SUCCESS)
        st = check_ranges(fn, "out", out, "y", y, APART, accel_dtype_size(dtype));
    if (st != ACCEL_SUCCESS)
        return st;
    return op_dispatch(q, &d, false);
}

/* ----------------------------------------------------------------- random */

static accel_status random_op(const char *fn, accel_queue *q, accel_op_code op, accel_dtype dtype,
                              uint64_t seed, uint64_t rng_offset, double mean, double stddev,
                              accel_slice out)
{
    accel_op_desc d;
    ACCEL__CALL(call);
    accel_status st = check_output_only(fn, &call, &q, op, dtype, &out, &d);
    if (st != ACCEL_SUCCESS)
        return st;
    if (out.count > 0 && rng_offset > UINT64_MAX - (out.count - 1))
        return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                           "%s: rng_offset %llu + %zu elements runs past the end of the stream "
                           "(2^64 elements)",
                           fn, (unsigned long long)rng_offset, out.count);
    if (op == ACCEL_OP_RANDOM_NORMAL) {
        if (!isfinite(mean))
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: mean = %g is not finite", fn,
                               mean);
        if (!isfinite(stddev) || stddev < 0)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: stddev = %g must be finite and >= 0", fn, stddev);
        /* f32 fills use mean and stddev rounded to f32: one past FLT_MAX
         * would round to infinity and fill every element with inf or nan. */
        if (dtype == ACCEL_F32 && (fabs(mean) > FLT_MAX || stddev > FLT_MAX))
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: mean = %g, stddev = %g: a float32 fill needs both within "
                               "float32's range (|x| <= %g)",
                               fn, mean, stddev, (double)FLT_MAX);
    }
    d.num_operands = 1;
    d.seed = seed;
    d.rng_offset = rng_offset;
    d.scalars[0] = mean;
    d.scalars[1] = stddev;
    return op_dispatch(q, &d, out.count == 0);
}

accel_status accel_random_uniform(accel_queue *q, accel_dtype dtype, uint64_t seed,
                                  uint64_t rng_offset, accel_slice out)
{
    return random_op("accel_random_uniform", q, ACCEL_OP_RANDOM_UNIFORM, dtype, seed, rng_offset,
                     0.0, 0.0, out);
}

accel_status accel_random_normal(accel_queue *q, accel_dtype dtype, uint64_t seed,
                                 uint64_t rng_offset, double mean, double stddev, accel_slice out)
{
    return random_op("accel_random_normal", q, ACCEL_OP_RANDOM_NORMAL, dtype, seed, rng_offset,
                     mean, stddev, out);
}

accel_status accel__random_named(const char *fn, accel_queue *q, bool normal, accel_dtype dtype,
                                 uint64_t seed, uint64_t rng_offset, double mean, double stddev,
                                 accel_slice out)
{
    return random_op(fn, q, normal ? ACCEL_OP_RANDOM_NORMAL : ACCEL_OP_RANDOM_UNIFORM, dtype, seed,
                     rng_offset, mean, stddev, out);
}

/* ------------------------------------------------------------------- GEMM */

void accel_gemm_desc_init(accel_gemm_desc *d)
{
    if (!accel__struct_init(d, sizeof *d))
        return;
    d->dtype = ACCEL_F32;
    d->alpha = 1.0;
    d->batch_count = 1;
}

/* One stored matrix of a (batched) GEMM. */
typedef struct gemm_matrix {
    const char *name; /* "A" */
    const char *ld_name;
    accel_buffer *buf;
    size_t rows, cols, ld, offset, stride;
    size_t span; /* elements from offset to one past the last element of the
                    last batch; 0 when the matrix is empty */
    size_t es;   /* bytes of an element (gemm_check_matrix) */
} gemm_matrix;

static accel_status gemm_check_matrix(const char *fn, accel_dtype dtype, size_t batch,
                                      gemm_matrix *x)
{
    x->es = accel_dtype_size(dtype);
    if (x->ld < x->cols)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: %s=%zu but %s has %zu columns as stored (%s >= %zu needed)", fn,
                           x->ld_name, x->ld, x->name, x->cols, x->ld_name, x->cols);
    x->span = 0;
    if (x->rows == 0 || x->cols == 0 || batch == 0)
        return ACCEL_SUCCESS;
    size_t n = x->buf->bytes >> dtype_shift(dtype);
    const char *dn = accel_dtype_name(dtype);
    /* Extent of one matrix: (rows-1)*ld + cols elements. */
    size_t one;
    if (__builtin_mul_overflow(x->rows - 1, x->ld, &one) ||
        __builtin_add_overflow(one, x->cols, &one))
        return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                           "%s: %s of %zu rows with %s=%zu overflows the address space", fn,
                           x->name, x->rows, x->ld_name, x->ld);
    if (x->offset > n || one > n - x->offset)
        return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                           "%s: %s of batch 0 needs elements [%zu, %zu%s) but its buffer holds "
                           "%zu %s elements",
                           fn, x->name, x->offset,
                           one > SIZE_MAX - x->offset ? SIZE_MAX : x->offset + one,
                           one > SIZE_MAX - x->offset ? " (overflow)" : "", n, dn);
    /* Batch b starts at offset + b*stride; the first that does not fit is
     * (n - offset - one) / stride + 1, computed without overflow. */
    size_t stride = batch > 1 ? x->stride : 0;
    if (stride > 0) {
        size_t room = n - x->offset - one;
        size_t first_bad = room / stride + 1;
        if (first_bad < batch) {
            size_t start, end;
            if (__builtin_mul_overflow(first_bad, stride, &start) ||
                __builtin_add_overflow(start, x->offset, &start) ||
                __builtin_add_overflow(start, one, &end))
                return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                                   "%s: %s of batch %zu (of %zu) starts past the address space "
                                   "(stride %zu); its buffer holds %zu %s elements",
                                   fn, x->name, first_bad, batch, stride, n, dn);
            return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                               "%s: %s of batch %zu (of %zu) needs elements [%zu, %zu) but its "
                               "buffer holds %zu %s elements",
                               fn, x->name, first_bad, batch, start, end, n, dn);
        }
    }
    x->span = (batch - 1) * stride + one;
    return ACCEL_SUCCESS;
}

static bool gemm_overlap(const gemm_matrix *x, const gemm_matrix *y)
{
    return x->span && y->span &&
           accel__bytes_meet(x->buf, x->offset * x->es, (x->offset + x->span) * x->es, y->buf,
                             y->offset * y->es, (y->offset + y->span) * y->es, NULL);
}

/* The shapes of A, B and C (their buffers in bufs) against g: overflow,
 * each matrix inside its buffer, no batch of C over another, C over
 * neither input. */
static accel_status gemm_check_shapes(const char *fn, const accel_gemm_desc *g,
                                      accel_buffer *const *bufs, gemm_matrix *A, gemm_matrix *B,
                                      gemm_matrix *C)
{
    size_t m = g->m, n = g->n, k = g->k, prod;
    if (__builtin_mul_overflow(m, k, &prod) || __builtin_mul_overflow(k, n, &prod) ||
        __builtin_mul_overflow(m, n, &prod))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: m=%zu, n=%zu, k=%zu: a matrix's element count overflows", fn, m, n,
                           k);
    size_t batch = g->batch_count;
    *A = (gemm_matrix){
        "A",         "lda", bufs[0], g->trans_a ? k : m, g->trans_a ? m : k, g->lda, g->a_offset,
        g->stride_a, 0,     0};
    *B = (gemm_matrix){
        "B",         "ldb", bufs[1], g->trans_b ? n : k, g->trans_b ? k : n, g->ldb, g->b_offset,
        g->stride_b, 0,     0};
    *C = (gemm_matrix){"C", "ldc", bufs[2], m, n, g->ldc, g->c_offset, g->stride_c, 0, 0};
    accel_status st = gemm_check_matrix(fn, g->dtype, batch, A);
    if (st == ACCEL_SUCCESS)
        st = gemm_check_matrix(fn, g->dtype, batch, B);
    if (st == ACCEL_SUCCESS)
        st = gemm_check_matrix(fn, g->dtype, batch, C);
    if (st != ACCEL_SUCCESS)
        return st;
    if (batch > 1 && m > 0 && n > 0 && g->stride_c < (m - 1) * g->ldc + n)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: stride_c=%zu is less than one C matrix's extent of %zu elements, "
                           "so the C matrices of different batches overlap",
                           fn, g->stride_c, (m - 1) * g->ldc + n);
    if (gemm_overlap(C, A) || gemm_overlap(C, B))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: C elements [%zu, %zu) overlap %s elements [%zu, %zu) of the same "
                           "buffer",
                           fn, C->offset, C->offset + C->span, gemm_overlap(C, A) ? "A" : "B",
                           gemm_overlap(C, A) ? A->offset : B->offset,
                           gemm_overlap(C, A) ? A->offset + A->span : B->offset + B->span);
    return ACCEL_SUCCESS;
}

/* The backend descriptor of the checked call g. */
static void gemm_desc_of(const char *fn, const accel_gemm_desc *g, accel_buffer *const *bufs,
                         const gemm_matrix *A, const gemm_matrix *B, const gemm_matrix *C,
                         accel_op_desc *d)
{
    desc_init(d, fn, ACCEL_OP_GEMM, g->dtype);
    d->num_operands = 3;
    d->operands[0] = (accel_op_operand){bufs[0]->be, A->offset, A->span};
    d->operands[1] = (accel_op_operand){bufs[1]->be, B->offset, B->span};
    d->operands[2] = (accel_op_operand){bufs[2]->be, C->offset, C->span};
    d->scalars[0] = g->alpha;
    d->scalars[1] = g->beta;
    d->trans_a = (uint32_t)g->trans_a;
    d->trans_b = (uint32_t)g->trans_b;
    d->m = g->m;
    d->n = g->n;
    d->k = g->k;
    /* BLAS wants ld >= max(1, columns); an empty matrix's ld is otherwise
     * meaningless. */
    d->lda = g->lda ? g->lda : 1;
    d->ldb = g->ldb ? g->ldb : 1;
    d->ldc = g->ldc ? g->ldc : 1;
    d->batch_count = g->batch_count ? g->batch_count : 1;
    d->stride_a = g->batch_count > 1 ? g->stride_a : 0;
    d->stride_b = g->batch_count > 1 ? g->stride_b : 0;
    d->stride_c = g->batch_count > 1 ? g->stride_c : 0;
    if (g->allow_tf32 && g->dtype == ACCEL_F32)
        d->flags |= ACCEL_OP_FLAG_ALLOW_TF32;
}

static accel_status gemm_impl(const char *fn, accel_queue *q, const accel_gemm_desc *g)
{
    ACCEL__CALL(call);
    if (!g) {
        accel_status st = check_queue(fn, &call, &q);
        if (st != ACCEL_SUCCESS)
            return st;
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: d is NULL", fn);
    }
    /* struct_size before any other field: an older caller's descriptor is
     * read up to its size, the rest keeps accel_gemm_desc_init's values. */
    accel_gemm_desc gd;
    accel_gemm_desc_init(&gd);
    accel_status st = accel__struct_in(fn, "d", g, ACCEL__GEMM_DESC_SIZE_V1, sizeof gd, &gd);
    if (st != ACCEL_SUCCESS)
        return st;
    g = &gd;
    accel_buffer *bufs[] = {g->a, g->b, g->c};
    static const char *const names[] = {"A", "B", "C"};
    st = check_handles(fn, &call, &q, 3, bufs, names);
    if (st != ACCEL_SUCCESS)
        return st;
    st = check_dtype(fn, g->dtype, ACCEL_OP_GEMM);
    if (st != ACCEL_SUCCESS)
        return st;
    if ((unsigned)g->trans_a > 1 || (unsigned)g->trans_b > 1)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: trans_a=%d, trans_b=%d: each must be ACCEL_NO_TRANS or ACCEL_TRANS",
                           fn, (int)g->trans_a, (int)g->trans_b);

    gemm_matrix A, B, C;
    st = gemm_check_shapes(fn, g, bufs, &A, &B, &C);
    if (st != ACCEL_SUCCESS)
        return st;
    accel_op_desc d;
    gemm_desc_of(fn, g, bufs, &A, &B, &C, &d);
    size_t m = g->m, n = g->n, batch = g->batch_count;
    /* k == 0 still scales C by beta. */
    return op_dispatch(q, &d, m == 0 || n == 0 || batch == 0);
}

accel_status accel_gemm(accel_queue *q, const accel_gemm_desc *d)
{
    return gemm_impl("accel_gemm", q, d);
}

accel_status accel__gemm_named(const char *fn, accel_queue *q, const accel_gemm_desc *d)
{
    return gemm_impl(fn, q, d);
}

accel_status accel_matmul(accel_queue *q, accel_dtype dtype, size_t m, size_t n, size_t k,
                          accel_buffer *a, accel_buffer *b, accel_buffer *c)
{
    accel_gemm_desc g;
    accel_gemm_desc_init(&g);
    g.dtype = dtype;
    g.m = m;
    g.n = n;
    g.k = k;
    g.a = a;
    g.lda = k;
    g.b = b;
    g.ldb = n;
    g.c = c;
    g.ldc = n;
    return gemm_impl("accel_matmul", q, &g);
}

/* -------------------------------------------------------------- transpose */

accel_status accel_transpose_2d(accel_queue *q, accel_dtype dtype, size_t rows, size_t cols,
                                accel_buffer *x, size_t x_offset, size_t ldx, accel_buffer *out,
                                size_t out_offset, size_t ldo)
{
    static const char fn[] = "accel_transpose_2d";
    ACCEL__CALL(call);
    accel_buffer *bufs[] = {x, out};
    static const char *const names[] = {"x", "out"};
    accel_status st = check_handles(fn, &call, &q, 2, bufs, names);
    x = bufs[0];
    out = bufs[1];
    if (st == ACCEL_SUCCESS)
        st = check_dtype(fn, dtype, ACCEL_OP_TRANSPOSE);
    if (st != ACCEL_SUCCESS)
        return st;
    /* The stored extents are GEMM's single-matrix ones: out is cols x rows. */
    gemm_matrix X = {"x", "ldx", x, rows, cols, ldx, x_offset, 0, 0, 0};
    gemm_matrix O = {"out", "ldo", out, cols, rows, ldo, out_offset, 0, 0, 0};
    st = gemm_check_matrix(fn, dtype, 1, &X);
    if (st == ACCEL_SUCCESS)
        st = gemm_check_matrix(fn, dtype, 1, &O);
    if (st != ACCEL_SUCCESS)
        return st;
    if (gemm_overlap(&O, &X))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: out elements [%zu, %zu) overlap x elements [%zu, %zu) of the same "
                           "buffer (there is no in-place transpose)",
                           fn, O.offset, O.offset + O.span, X.offset, X.offset + X.span);

    accel_op_desc d;
    desc_init(&d, fn, ACCEL_OP_TRANSPOSE, dtype);
    d.num_operands = 2;
    d.operands[0] = (accel_op_operand){x->be, X.offset, X.span};
    d.operands[1] = (accel_op_operand){out->be, O.offset, O.span};
    d.m = rows;
    d.n = cols;
    d.lda = ldx;
    d.ldc = ldo;
    d.batch_count = 1;
    return op_dispatch(q, &d, rows == 0 || cols == 0);
}

/* The queue and the buffers of a two-operand op (x, out), resolved in
 * place as check_handles does. */
static accel_status check_x_out_handles(const char *fn, accel__call *call, accel_queue **q,
                                        accel_slice *x, accel_slice *out)
{
    accel_buffer *bufs[] = {x->buffer, out->buffer};
    static const char *const names[] = {"x", "out"};
    accel_status st = check_handles(fn, call, q, 2, bufs, names);
    x->buffer = bufs[0];
    out->buffer = bufs[1];
    return st;
}

/* x's and out's bytes (elements of xes and oes bytes) do not meet. */
static accel_status check_bytes_apart(const char *fn, accel_slice x, size_t xes, accel_slice out,
                                      size_t oes)
{
    size_t xs = x.offset * xes, xe = xs + x.count * xes, os = out.offset * oes,
           oe = os + out.count * oes;
    if (x.count && out.count && accel__bytes_meet(x.buffer, xs, xe, out.buffer, os, oe, NULL))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: out's bytes [%zu, %zu) overlap x's [%zu, %zu) in one memory", fn,
                           os, oe, xs, xe);
    return ACCEL_SUCCESS;
}

/* x and out of a segments op (sort, argsort, cumsum; out int64 for
 * argsort): ranges, counts, and no overlap other than exactly (sort in
 * place); argsort's and cumsum's out may not overlap x at all. */
static accel_status segments_operands(const char *fn, accel_dtype dtype, accel_slice x,
                                      accel_slice out, accel_op_desc *d)
{
    accel_dtype ot = (accel_dtype)accel_op_operand_dtype(d, 1);
    accel_status st = check_dtype(fn, dtype, (accel_op_code)d->op);
    if (st == ACCEL_SUCCESS && d->op == ACCEL_OP_CUMSUM && ot == ACCEL_BOOL)
        st = accel__fail(ACCEL_ERROR_DTYPE_MISMATCH,
                         "%s: out_dtype bool: bool's running sums are int64", fn);
    if (st == ACCEL_SUCCESS)
        st = check_range(fn, "x", dtype, x, &d->operands[0]);
    if (st == ACCEL_SUCCESS)
        st = check_range(fn, "out", ot, out, &d->operands[1]);
    if (st == ACCEL_SUCCESS)
        st = check_count(fn, "out", out, "x", x.count);
    if (st == ACCEL_SUCCESS && d->op == ACCEL_OP_SORT)
        st = check_ranges(fn, "out", out, "x", x, APART_OR_SAME, accel_dtype_size(dtype));
    else if (st == ACCEL_SUCCESS)
        st = check_bytes_apart(fn, x, accel_dtype_size(dtype), out, accel_dtype_size(ot));
    return st;
}

/* One op over the m*k lines of an outer x n x inner block (sort, argsort,
 * cumsum); submit_flags as accel__submit's. */
static accel_status segments_op(const char *fn, accel_op_code op, accel_queue *q, accel_dtype dtype,
                                size_t outer, size_t n, size_t inner, uint32_t flags, accel_slice x,
                                accel_slice out, unsigned submit_flags)
{
    ACCEL__CALL(call);
    accel_op_desc d;
    desc_init(&d, fn, op, dtype);
    d.flags = flags;
    d.num_operands = 2;
    accel_status st = check_x_out_handles(fn, &call, &q, &x, &out);
    if (st == ACCEL_SUCCESS)
        st = segments_operands(fn, dtype, x, out, &d);
    if (st != ACCEL_SUCCESS)
        return st;
    size_t all;
    if (__builtin_mul_overflow(outer, n, &all) || __builtin_mul_overflow(all, inner, &all) ||
        all != x.count)
        return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                           "%s: outer %zu x n %zu x inner %zu is not x's %zu elements", fn, outer,
                           n, inner, x.count);
    d.m = outer, d.n = n, d.k = inner;
    d.batch_count = 1;
    return accel__submit(q, &d, submit_flags | (x.count == 0 ? ACCEL__SUBMIT_EMPTY : 0));
}

accel_status accel_sort_segments(accel_queue *q, accel_dtype dtype, size_t outer, size_t n,
                                 size_t inner, int descending, accel_slice x, accel_slice out)
{
    return segments_op("accel_sort_segments", ACCEL_OP_SORT, q, dtype, outer, n, inner,
                       descending ? ACCEL_OP_FLAG_SORT_DESCENDING : 0, x, out, 0);
}

accel_status accel_argsort_segments(accel_queue *q, accel_dtype dtype, size_t outer, size_t n,
                                    size_t inner, int descending, accel_slice x, accel_slice out)
{
    return segments_op("accel_argsort_segments", ACCEL_OP_ARGSORT, q, dtype, outer, n, inner,
                       descending ? ACCEL_OP_FLAG_SORT_DESCENDING : 0, x, out, 0);
}

/* CUMSUM's flags for out_dtype: none for dtype itself, SCAN_WIDE for the
 * 64-bit dtype of its kind; another out_dtype fails. */
static accel_status cumsum_flags(const char *fn, accel_dtype dtype, accel_dtype out_dtype,
                                 uint32_t *flags)
{
    *flags = out_dtype == dtype && dtype != ACCEL_BOOL ? 0u : ACCEL_OP_FLAG_SCAN_WIDE;
    if (out_dtype == (accel_dtype)accel_scan_out_dtype(dtype, *flags))
        return ACCEL_SUCCESS;
    return accel__fail(
        ACCEL_ERROR_DTYPE_MISMATCH,
        "%s: out_dtype %s for x's %s: x's dtype or %s (the 64-bit dtype of its "
        "kind)",
        fn, accel_dtype_name(out_dtype), accel_dtype_name(dtype),
        accel_dtype_name((accel_dtype)accel_scan_out_dtype(dtype, ACCEL_OP_FLAG_SCAN_WIDE)));
}

static accel_status cumsum_op(const char *fn, accel_queue *q, accel_dtype dtype,
                              accel_dtype out_dtype, size_t outer, size_t n, size_t inner,
                              accel_slice x, accel_slice out, unsigned submit_flags)
{
    uint32_t flags;
    /* x's dtype first, so that the message names what is wrong */
    accel_status st = check_dtype(fn, dtype, ACCEL_OP_CUMSUM);
    if (st == ACCEL_SUCCESS)
        st = cumsum_flags(fn, dtype, out_dtype, &flags);
    if (st != ACCEL_SUCCESS)
        return st;
    return segments_op(fn, ACCEL_OP_CUMSUM, q, dtype, outer, n, inner, flags, x, out, submit_flags);
}

accel_status accel_cumsum_segments(accel_queue *q, accel_dtype dtype, accel_dtype out_dtype,
                                   size_t outer, size_t n, size_t inner, accel_slice x,
                                   accel_slice out)
{
    return cumsum_op("accel_cumsum_segments", q, dtype, out_dtype, outer, n, inner, x, out, 0);
}

accel_status accel__cumsum_native(const char *fn, accel_queue *q, accel_dtype dtype,
                                  accel_dtype out_dtype, size_t outer, size_t n, size_t inner,
                                  accel_slice x, accel_slice out)
{
    return cumsum_op(fn, q, dtype, out_dtype, outer, n, inner, x, out, ACCEL__SUBMIT_NATIVE);
}

/* ---------------------------------------------------------------- linalg */

/* The shape rules of a LINALG op (backend.h): square where the op needs it,
 * SVD's m >= n, k among the values the op takes, flags it knows, and a
 * block size that cannot overflow (every region is at most s*s). */
static accel_status linalg_shape(const char *fn, accel_op_code op, size_t batch, size_t m, size_t n,
                                 size_t k, uint32_t flags)
{
    /* k counts only for the ops that take it (the others ignore it) */
    size_t used_k = op == ACCEL_OP_QR || op == ACCEL_OP_SVD || op == ACCEL_OP_SOLVE ? k : 0;
    size_t mn = m < n ? m : n, mx = m > n ? m : n, s = mx > used_k ? mx : used_k, all;
    if (op != ACCEL_OP_QR && op != ACCEL_OP_SVD && m != n)
        return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                           "%s: %s takes square matrices, not %zu x %zu", fn, accel_op_name(op), m,
                           n);
    if (op == ACCEL_OP_SVD && m < n)
        return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                           "%s: svd takes m >= n (%zu x %zu; factor the transpose)", fn, m, n);
    if ((op == ACCEL_OP_QR && k != mn && k != m) || (op == ACCEL_OP_SVD && k != n && k != m))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: k = %zu is not a width %s's Q or U takes for %zu x %zu", fn, k,
                           accel_op_name(op), m, n);
    uint32_t known = op == ACCEL_OP_EIGH || op == ACCEL_OP_SVD ? ACCEL_OP_FLAG_LINALG_VECTORS : 0;
    if (flags & ~known)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: flags 0x%x are not %s's", fn,
                           (unsigned)(flags & ~known), accel_op_name(op));
    if (s > SIZE_MAX - 2 || __builtin_mul_overflow(s + 2, s + 2, &all) ||
        __builtin_mul_overflow(all, 4, &all) || __builtin_mul_overflow(all, batch, &all))
        return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                           "%s: %zu problems of %zu x %zu (k %zu) overflow the address space", fn,
                           batch, m, n, k);
    return ACCEL_SUCCESS;
}

/* The operands' ranges against the shape: A batch*m*n, B batch*n*k, out
 * the layout's total; out apart from the inputs. */
static accel_status linalg_operands(const char *fn, accel_op_desc *d, accel_slice a, accel_slice b,
                                    accel_slice out)
{
    bool solve = d->op == ACCEL_OP_SOLVE;
    accel_linalg_layout l = accel_linalg_layout_of(d->op, d->batch_count, d->m, d->n, d->k);
    accel_dtype dt = (accel_dtype)d->dtype;
    accel_status st = check_range(fn, "a", dt, a, &d->operands[0]);
    if (st == ACCEL_SUCCESS && solve)
        st = check_range(fn, "b", dt, b, &d->operands[1]);
    if (st == ACCEL_SUCCESS)
        st = check_range(fn, "out", dt, out, &d->operands[solve ? 2 : 1]);
    if (st == ACCEL_SUCCESS)
        st = check_count(fn, "a", a, "batch*m*n", d->batch_count * d->m * d->n);
    if (st == ACCEL_SUCCESS && solve)
        st = check_count(fn, "b", b, "batch*n*k", d->batch_count * d->n * d->k);
    if (st == ACCEL_SUCCESS)
        st = check_count(fn, "out", out, "the op's output block", l.total);
    if (st == ACCEL_SUCCESS)
        st = check_ranges(fn, "out", out, "a", a, APART, accel_dtype_size(dt));
    if (st == ACCEL_SUCCESS && solve)
        st = check_ranges(fn, "out", out, "b", b, APART, accel_dtype_size(dt));
    d->num_operands = solve ? 3 : 2;
    return st;
}

accel_status accel_linalg_batched(accel_queue *q, accel_op_code op, accel_dtype dtype, size_t batch,
                                  size_t m, size_t n, size_t k, uint32_t flags, accel_slice a,
                                  accel_slice b, accel_slice out)
{
    static const char fn[] = "accel_linalg_batched";
    ACCEL__CALL(call);
    if (!op_of_kind(op, ACCEL_OP_KIND_LINALG, op == ACCEL_OP_SOLVE ? 3 : 2)) {
        accel_status st = check_queue(fn, &call, &q);
        if (st != ACCEL_SUCCESS)
            return st;
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: op %d is not a linalg op (cholesky, solve, slogdet, qr, eigh, svd)",
                           fn, (int)op);
    }
    bool solve = op == ACCEL_OP_SOLVE;
    accel_op_desc d;
    desc_init(&d, fn, op, dtype);
    accel_buffer *bufs[] = {a.buffer, solve ? b.buffer : out.buffer, out.buffer};
    static const char *const names[] = {"a", "b", "out"};
    static const char *const names2[] = {"a", "out"};
    accel_status st = check_handles(fn, &call, &q, solve ? 3 : 2, bufs, solve ? names : names2);
    a.buffer = bufs[0];
    b.buffer = solve ? bufs[1] : NULL;
    out.buffer = bufs[solve ? 2 : 1];
    if (st == ACCEL_SUCCESS)
        st = check_dtype(fn, dtype, op);
    if (st == ACCEL_SUCCESS)
        st = linalg_shape(fn, op, batch, m, n, k, flags);
    d.m = m, d.n = n, d.k = op == ACCEL_OP_QR || op == ACCEL_OP_SVD || solve ? k : 0;
    d.batch_count = batch;
    d.flags = flags;
    if (st == ACCEL_SUCCESS)
        st = linalg_operands(fn, &d, a, b, out);
    if (st != ACCEL_SUCCESS)
        return st;
    d.batch_count = batch ? batch : 1; /* an empty op never reaches a backend */
    return op_dispatch(q, &d, batch == 0 || m == 0 || n == 0 || (solve && k == 0));
}

/* x and out of an FFT op: the complex dtype's precision, each range in its
 * own element type (the real side of RFFT and IRFFT in the real dtype),
 * counts outer x len x inner, and no overlap at all. */
static accel_status fft_operands(const char *fn, accel_op_desc *d, accel_slice x, accel_slice out)
{
    accel_dtype dt = (accel_dtype)d->dtype, real = dt == ACCEL_C128 ? ACCEL_F64 : ACCEL_F32;
    bool r2c = d->op == ACCEL_OP_RFFT, c2r = d->op == ACCEL_OP_IRFFT;
    size_t half = d->n / 2 + 1, lines, nx, no;
    accel_status st = check_dtype(fn, dt, (accel_op_code)d->op);
    if (st == ACCEL_SUCCESS)
        st = check_range(fn, "x", r2c ? real : dt, x, &d->operands[0]);
    if (st == ACCEL_SUCCESS)
        st = check_range(fn, "out", c2r ? real : dt, out, &d->operands[1]);
    if (st != ACCEL_SUCCESS)
        return st;
    if (__builtin_mul_overflow(d->m, d->k, &lines) ||
        __builtin_mul_overflow(lines, c2r ? half : d->n, &nx) ||
        __builtin_mul_overflow(lines, r2c ? half : d->n, &no) || nx != x.count || no != out.count)
        return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                           "%s: %zu x %zu x %zu lines need x of %zu and out of %zu elements, not "
                           "%zu and %zu",
                           fn, d->m, d->n, d->k, d->m * d->k * (c2r ? half : d->n),
                           d->m * d->k * (r2c ? half : d->n), x.count, out.count);
    return check_bytes_apart(fn, x, accel__operand_esize(d, 0), out, accel__operand_esize(d, 1));
}

accel_status accel_fft_segments(accel_queue *q, accel_op_code op, accel_dtype dtype, size_t outer,
                                size_t n, size_t inner, int inverse, double scale, accel_slice x,
                                accel_slice out)
{
    static const char fn[] = "accel_fft_segments";
    ACCEL__CALL(call);
    if (op != ACCEL_OP_FFT && op != ACCEL_OP_RFFT && op != ACCEL_OP_IRFFT)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: op %d is not FFT, RFFT or IRFFT", fn,
                           (int)op);
    accel_op_desc d;
    desc_init(&d, fn, op, dtype);
    accel_status st = check_x_out_handles(fn, &call, &q, &x, &out);
    if (st != ACCEL_SUCCESS)
        return st;
    if (n == 0 || outer == 0 || inner == 0 || !isfinite(scale))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: outer %zu, n %zu, inner %zu must be >= 1 and scale (%g) finite", fn,
                           outer, n, inner, scale);
    d.num_operands = 2;
    d.m = outer, d.n = n, d.k = inner;
    d.batch_count = 1;
    d.scalars[0] = scale;
    d.flags =
        (op == ACCEL_OP_FFT && inverse) || op == ACCEL_OP_IRFFT ? ACCEL_OP_FLAG_FFT_INVERSE : 0;
    st = fft_operands(fn, &d, x, out);
    return st == ACCEL_SUCCESS ? op_dispatch(q, &d, false) : st;
}
