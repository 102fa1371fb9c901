/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* ops.c — which ops the OpenCL backend takes (op_supported) and how each
 * kind of the op table runs (op_execute): copies as clEnqueueCopyBuffer,
 * elementwise ops as the kernels generated from the table, reductions
 * (reduce.c), sorts (sort.c), random numbers, transpose, and GEMM through CLBlast (gemm.c). */
#include <stdio.h>
#include <string.h>

#include "../common/op_kind.h"
#include "opencl.h"

#define OCL_X_DTYPES(E, V, NAME, KIND, OPS, READS, DTYPES, ...)                                    \
    case ACCEL_OP_##E:                                                                             \
        return DTYPES;
static uint32_t op_dtypes(uint32_t op)
{
    switch (op) {
        ACCEL_OP_LIST(OCL_X_DTYPES)
    }
    return 0;
}
#undef OCL_X_DTYPES

/* A copy of desc at this ABI's size (a core built against an older header
 * passes a shorter one). */
static accel_op_desc full_desc(const accel_op_desc *desc)
{
    accel_op_desc d;
    memset(&d, 0, sizeof d);
    size_t n = desc->struct_size && desc->struct_size < sizeof d ? desc->struct_size : sizeof d;
    memcpy(&d, desc, n);
    return d;
}

int32_t ocl__op_supported(void *vctx, uint32_t device, const accel_op_desc *desc)
{
    ocl_ctx *c = vctx;
    const ocl_device *d = &c->dev[device];
    accel_op_desc o = full_desc(desc);
    if (o.op == ACCEL_OP_KERNEL)
        return ocl__kernel_supported(c, device, &o);
    int kind = accel_backend_op_kind(o.op);
    /* No LAPACK, FFT or scan op yet (ACCEL_OP_KIND_LINALG, _FFT, _SCAN):
     * the core falls back where allowed (the array layer's cumulative_sum
     * runs its generated kernel here instead). */
    if (kind == 0 || kind == ACCEL_OP_KIND_LINALG || kind == ACCEL_OP_KIND_FFT ||
        kind == ACCEL_OP_KIND_SCAN || o.dtype >= 32 || !(op_dtypes(o.op) >> o.dtype & 1u))
        return ACCEL_ERROR_UNSUPPORTED;
    if (kind == ACCEL_OP_KIND_GEMM)
        return ocl__gemm_supported(c, d, &o);
    if (kind == ACCEL_OP_KIND_SORT) /* bits only: f64 too without fp64 */
        return ocl__sort_supported(d, &o);
    /* Copies and transposes move bits; the rest compute in the dtype. */
    if (o.dtype == ACCEL_F64 && !d->fp64 && kind != ACCEL_OP_KIND_COPY &&
        kind != ACCEL_OP_KIND_TRANSPOSE)
        return ACCEL_ERROR_UNSUPPORTED;
    return ACCEL_SUCCESS;
}

/* Work-items for a grid-strided loop over `items`: enough to fill the
 * device, a multiple of 256. */
static size_t global_for(const ocl_device *d, size_t items)
{
    size_t cap = (size_t)(d->compute_units ? d->compute_units : 1) * 2048;
    size_t g = items < cap ? items : cap;
    return (g + 255) / 256 * 256;
}

#define ARG(v)                                                                                     \
    {                                                                                              \
        sizeof(v), &(v)                                                                            \
    }

static int32_t run_copy(ocl_ctx *c, accel_be_queue *q, const accel_op_desc *o)
{
    size_t es = ocl__dtype_size(o->dtype);
    return ocl__queue_copy(c, q, o->operands[0].buffer, o->operands[0].offset * es,
                           o->operands[1].buffer, o->operands[1].offset * es,
                           o->operands[0].count * es);
}

static int32_t run_elementwise(ocl_ctx *c, accel_be_queue *q, const accel_op_desc *o,
                               const char *name)
{
    ocl_device *d = &c->dev[q->device];
    const int f64 = o->dtype == ACCEL_F64;
    const uint32_t op_code = o->op;
    cl_ulong n = o->operands[0].count;
    if (n == 0)
        return ACCEL_SUCCESS;
    cl_mem m[3];
    cl_ulong off[3];
    for (int i = 0; i < 3; ++i) {
        const accel_op_operand *p =
            i < (int)o->num_operands && o->operands[i].buffer ? &o->operands[i] : &o->operands[0];
        m[i] = p->buffer->mem;
        off[i] = p->offset;
    }
    float s32[2] = {(float)o->scalars[0], (float)o->scalars[1]};
    double s64[2] = {o->scalars[0], o->scalars[1]};
    size_t ss = f64 ? sizeof(double) : sizeof(float);
    const void *s0 = f64 ? (const void *)&s64[0] : (const void *)&s32[0];
    const void *s1 = f64 ? (const void *)&s64[1] : (const void *)&s32[1];
    /* One element per work-item, in launches of at most 2^30 (global sizes
     * past 2^32 are not portable). */
    const cl_ulong piece = (cl_ulong)1 << 30;
    for (cl_ulong done = 0; done < n; done += piece) {
        cl_ulong cnt = n - done < piece ? n - done : piece;
        cl_ulong at[3] = {off[0] + done, off[1] + done, off[2] + done};
        ocl_arg args[] = {ARG(m[0]),  ARG(at[0]), ARG(m[1]), ARG(at[1]), ARG(m[2]),
                          ARG(at[2]), ARG(cnt),   {ss, s0},  {ss, s1}};
        size_t global = (size_t)(cnt + 255) / 256 * 256;
        int32_t rc = ocl__launch(c, q, d->ew[op_code][f64], args, 9, 1, &global, NULL, name);
        if (rc != ACCEL_SUCCESS)
            return rc;
    }
    return ACCEL_SUCCESS;
}

static int32_t run_random(ocl_ctx *c, accel_be_queue *q, const accel_op_desc *o, const char *name)
{
    ocl_device *d = &c->dev[q->device];
    const int f64 = o->dtype == ACCEL_F64, normal = o->op == ACCEL_OP_RANDOM_NORMAL;
    const accel_op_operand *out = &o->operands[0];
    if (out->count == 0)
        return ACCEL_SUCCESS;
    if (normal && !(o->scalars[1] >= 0.0))
        return ocl__fail(c, ACCEL_ERROR_INVALID_ARGUMENT, "%s: stddev %g must be >= 0", name,
                         o->scalars[1]);
    cl_ulong oo = out->offset, n = out->count, seed = o->seed, off = o->rng_offset;
    /* Work-items: one per Philox block (f32 uniform/normal: 4 elements,
     * f64 uniform: 2, f64 normal: one pair of 2). */
    size_t per = f64 ? 2 : 4;
    size_t items = (size_t)((off + n - 1) / per - off / per + 1);
    size_t global = global_for(d, items);
    float m32 = (float)o->scalars[0], s32 = (float)o->scalars[1];
    double m64 = o->scalars[0], s64 = o->scalars[1];
    ocl_arg a[7] = {ARG(out->buffer->mem), ARG(oo), ARG(n), ARG(seed), ARG(off)};
    unsigned na = 5;
    if (normal) {
        a[5] = f64 ? (ocl_arg)ARG(m64) : (ocl_arg)ARG(m32);
        a[6] = f64 ? (ocl_arg)ARG(s64) : (ocl_arg)ARG(s32);
        na = 7;
    }
    ocl_fixed_kernel k = normal ? (f64 ? OCL_K_NORMAL_F64 : OCL_K_NORMAL_F32)
                                : (f64 ? OCL_K_UNIFORM_F64 : OCL_K_UNIFORM_F32);
    return ocl__launch(c, q, d->fixed[k], a, na, 1, &global, NULL, name);
}

static int32_t run_transpose(ocl_ctx *c, accel_be_queue *q, const accel_op_desc *o,
                             const char *name)
{
    ocl_device *d = &c->dev[q->device];
    if (o->m == 0 || o->n == 0)
        return ACCEL_SUCCESS;
    size_t es = ocl__dtype_size(o->dtype);
    ocl_fixed_kernel k = es == 2   ? OCL_K_TRANSPOSE_U16
                         : es == 4 ? OCL_K_TRANSPOSE_U32
                                   : OCL_K_TRANSPOSE_U64;
    cl_ulong ox = o->operands[0].offset, oo = o->operands[1].offset, ldx = o->lda, ldo = o->ldc;
    cl_ulong rows = o->m, cols = o->n;
    size_t tiles = (size_t)((rows + 15) / 16 * ((cols + 15) / 16));
    size_t cap = (size_t)(d->compute_units ? d->compute_units : 1) * 64;
    size_t groups = tiles < cap ? tiles : cap;
    size_t local[2] = {16, 16}, global[2] = {groups * 16, 16};
    ocl_arg a[] = {ARG(o->operands[0].buffer->mem),
                   ARG(ox),
                   ARG(ldx),
                   ARG(o->operands[1].buffer->mem),
                   ARG(oo),
                   ARG(ldo),
                   ARG(rows),
                   ARG(cols)};
    return ocl__launch(c, q, d->fixed[k], a, 8, 2, global, local, name);
}

int32_t ocl__op_execute(void *vctx, accel_be_queue *q, const accel_op_desc *desc)
{
    ocl_ctx *c = vctx;
    accel_op_desc o = full_desc(desc);
    const char *name = o.name ? o.name : "accel op";
    if (o.op == ACCEL_OP_KERNEL)
        return ocl__kernel_launch(c, q, &o);
    int kind = accel_backend_op_kind(o.op);
    if (kind == ACCEL_OP_KIND_COPY)
        return run_copy(c, q, &o);
    if (kind == ACCEL_OP_KIND_GEMM)
        return ocl__gemm(c, q, &o);
    if (kind == 0 || kind == ACCEL_OP_KIND_LINALG || kind == ACCEL_OP_KIND_FFT ||
        kind == ACCEL_OP_KIND_SCAN)
        return ocl__fail(c, ACCEL_ERROR_UNSUPPORTED, "%s: op %u is not supported by opencl", name,
                         (unsigned)o.op);
    int32_t rc = ocl__program_ensure(c, &c->dev[q->device]);
    if (rc != ACCEL_SUCCESS)
        return rc;
    switch (kind) {
    case ACCEL_OP_KIND_REDUCTION:
        return ocl__reduce(c, q, &o, name);
    case ACCEL_OP_KIND_RANDOM:
        return run_random(c, q, &o, name);
    case ACCEL_OP_KIND_TRANSPOSE:
        return run_transpose(c, q, &o, name);
    case ACCEL_OP_KIND_SORT:
        return ocl__sort(c, q, &o, name);
    default:
        return run_elementwise(c, q, &o, name);
    }
}
