/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* reduce.c — sum, dot, reduce_max and reduce_min on OpenCL: the launch
 * geometry and the vector split of reduce.cl's two passes, the CUDA
 * backend's design (backends/cuda/kernels_reduce.cu): a grid sized from n
 * and the device's compute units alone, 16-byte vector loads through the
 * aligned body, one partial per work-group into the queue's scratch, then
 * one work-group over the partials (for sums, the last group of the same
 * launch). */
#include "opencl.h"

/* The vector split of n elements at element offsets ox (and oy for dot):
 * head scalars up to the first 16-byte boundary, then nvec vectors of
 * 16 / es elements. Buffers start aligned (CL_DEVICE_MEM_BASE_ADDR_ALIGN
 * is at least 128 bytes by the OpenCL 1.2 spec, §4.2); a dot whose two
 * operands sit at different misalignments gets no vectors. */
typedef struct ocl_split {
    cl_ulong head, nvec;
} ocl_split;

static ocl_split split_for(cl_ulong n, size_t es, cl_ulong ox, const cl_ulong *oy)
{
    const cl_ulong w = 16 / es, mis = ox % w;
    ocl_split s = {(w - mis) % w, 0};
    if ((oy && *oy % w != mis) || s.head >= n) {
        s.head = n;
        return s;
    }
    s.nvec = (n - s.head) / w;
    return s;
}

/* Work-groups of pass 1: one per ACCEL_WG work items (vectors or scalars,
 * whichever are more), at most 8 per compute unit (what a GPU holds
 * resident at 256 work-items each; more would run as a second, mostly idle
 * wave) and at most 4096. Depends on n and the device only, so the order of
 * the additions, and the result's bits, are the same every run. */
static size_t groups_for(const ocl_device *d, ocl_split s, cl_ulong n, size_t es)
{
    const cl_ulong ns = n - s.nvec * (16 / es), items = s.nvec > ns ? s.nvec : ns;
    cl_ulong g = (items + d->wg - 1) / d->wg,
             cap = (cl_ulong)(d->compute_units ? d->compute_units : 1) * 8;
    if (cap > 4096)
        cap = 4096;
    return (size_t)(g < 1 ? 1 : g < cap ? g : cap);
}

/* q's scratch buffer of at least `bytes` (in-order: earlier users are done
 * with it by the time the next op runs). */
static int32_t scratch(ocl_ctx *c, accel_be_queue *q, size_t bytes)
{
    if (q->scratch_bytes >= bytes)
        return ACCEL_SUCCESS;
    cl_int err = CL_SUCCESS;
    cl_mem m =
        c->cl.clCreateBuffer(c->dev[q->device].context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (!m)
        return ocl__fail(c, ocl__status_of(err), "opencl: no scratch memory for a reduction (%s)",
                         ocl__error_name(err));
    if (q->scratch)
        c->cl.clReleaseMemObject(q->scratch); /* OpenCL keeps it while queued work uses it */
    q->scratch = m;
    q->scratch_bytes = bytes;
    return ACCEL_SUCCESS;
}

/* q's count of finished work-groups for sum1 (one uint, 0 between sums:
 * the last group of each sum sets it back). */
static int32_t done_counter(ocl_ctx *c, accel_be_queue *q)
{
    if (q->done)
        return ACCEL_SUCCESS;
    cl_uint zero = 0;
    cl_int err = CL_SUCCESS;
    q->done =
        c->cl.clCreateBuffer(c->dev[q->device].context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                             sizeof zero, &zero, &err);
    return q->done ? ACCEL_SUCCESS
                   : ocl__fail(c, ocl__status_of(err), "opencl: no memory for a reduction (%s)",
                               ocl__error_name(err));
}

/* sum and dot: one launch of sum1, partials in double (or float without
 * fp64), the last group to finish folds them into out; n == 0 runs one
 * group over nothing (0). One launch, not two: NVIDIA's OpenCL spends
 * about 15 us on a second, dependent launch (docs/opencl.md). */
static int32_t run_sum(ocl_ctx *c, accel_be_queue *q, const accel_op_desc *o, const char *name)
{
    ocl_device *d = &c->dev[q->device];
    const int f64 = o->dtype == ACCEL_F64;
    const size_t es = f64 ? 8 : 4, acc = d->fp64 ? 8 : 4;
    cl_int dot = o->op == ACCEL_OP_DOT;
    const accel_op_operand *x = &o->operands[0], *y = dot ? &o->operands[1] : &o->operands[0];
    const accel_op_operand *out = &o->operands[dot ? 2 : 1];
    cl_ulong n = x->count, ox = x->offset, oy = y->offset, oo = out->offset;
    ocl_split s = split_for(n, es, ox, dot ? &oy : NULL);
    cl_ulong groups = n ? groups_for(d, s, n, es) : 1;
    size_t local = d->wg, global = (size_t)groups * local;
    int32_t rc = scratch(c, q, (size_t)groups * acc);
    if (rc == ACCEL_SUCCESS)
        rc = done_counter(c, q);
    if (rc != ACCEL_SUCCESS)
        return rc;
    ocl_arg a[] = {OCL_ARG(x->buffer->mem),
                   OCL_ARG(ox),
                   OCL_ARG(y->buffer->mem),
                   OCL_ARG(oy),
                   OCL_ARG(n),
                   OCL_ARG(s.head),
                   OCL_ARG(s.nvec),
                   OCL_ARG(dot),
                   OCL_ARG(q->scratch),
                   OCL_ARG(out->buffer->mem),
                   OCL_ARG(oo),
                   OCL_ARG(q->done)};
    return ocl__launch(c, q, d->fixed[f64 ? OCL_K_SUM1_F64 : OCL_K_SUM1_F32], a, 12, 1, &global,
                       &local, name);
}

/* reduce_max and reduce_min: pass 1 into the partials and their first NaN
 * indices, pass 2 into out. */
static int32_t run_extreme(ocl_ctx *c, accel_be_queue *q, const accel_op_desc *o, const char *name)
{
    ocl_device *d = &c->dev[q->device];
    const int f64 = o->dtype == ACCEL_F64;
    const accel_op_operand *x = &o->operands[0], *out = &o->operands[1];
    if (x->count == 0)
        return ocl__fail(c, ACCEL_ERROR_INVALID_ARGUMENT,
                         "%s: the reduction of 0 elements has no identity", name);
    cl_ulong n = x->count, ox = x->offset, oo = out->offset;
    cl_int is_max = o->op == ACCEL_OP_REDUCE_MAX;
    size_t es = f64 ? 8 : 4;
    ocl_split s = split_for(n, es, ox, NULL);
    size_t groups = groups_for(d, s, n, es), local = d->wg, global = groups * local;
    /* The scratch holds the partials, then (from ulong nan_off) their
     * first NaN indices. */
    cl_ulong g = groups, nan_off = (groups * es + 7) / 8;
    int32_t rc = scratch(c, q, (size_t)(nan_off + g) * 8);
    if (rc != ACCEL_SUCCESS)
        return rc;
    ocl_arg a1[] = {OCL_ARG(x->buffer->mem), OCL_ARG(ox),         OCL_ARG(n),
                    OCL_ARG(s.head),         OCL_ARG(s.nvec),     OCL_ARG(is_max),
                    OCL_ARG(q->scratch),     OCL_ARG(q->scratch), OCL_ARG(nan_off)};
    rc = ocl__launch(c, q, d->fixed[f64 ? OCL_K_EXT1_F64 : OCL_K_EXT1_F32], a1, 9, 1, &global,
                     &local, name);
    if (rc != ACCEL_SUCCESS)
        return rc;
    ocl_arg a2[] = {OCL_ARG(q->scratch), OCL_ARG(q->scratch),       OCL_ARG(nan_off),
                    OCL_ARG(g),          OCL_ARG(is_max),           OCL_ARG(x->buffer->mem),
                    OCL_ARG(ox),         OCL_ARG(out->buffer->mem), OCL_ARG(oo)};
    return ocl__launch(c, q, d->fixed[f64 ? OCL_K_EXT2_F64 : OCL_K_EXT2_F32], a2, 9, 1, &local,
                       &local, name);
}

int32_t ocl__reduce(ocl_ctx *c, accel_be_queue *q, const accel_op_desc *o, const char *name)
{
    if (o->op == ACCEL_OP_SUM || o->op == ACCEL_OP_DOT)
        return run_sum(c, q, o, name);
    return run_extreme(c, q, o, name);
}
