/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* sort.c — ACCEL_OP_SORT and ACCEL_OP_ARGSORT on OpenCL: sort.cl's keys,
 * the bitonic network over every line at once (log2 P (log2 P + 1) / 2
 * launches for lines padded to P), then the gather into out. Scratch is a
 * buffer of its own per op, released once enqueued (OpenCL frees it after
 * the commands that use it). */
#include "opencl.h"

/* The key kind of sort.cl's sort_key: 0 unsigned or bool, 1 signed, 2
 * f32/f64, 3 f16, 4 bf16; -1 for a dtype this file does not sort. */
static int key_kind(uint32_t dtype, size_t *out_size)
{
    static const struct {
        uint32_t dtype;
        size_t size;
        int kind;
    } kinds[] = {{ACCEL_F32, 4, 2}, {ACCEL_F64, 8, 2}, {ACCEL_F16, 2, 3}, {ACCEL_BF16, 2, 4},
                 {ACCEL_I32, 4, 1}, {ACCEL_I64, 8, 1}, {ACCEL_U8, 1, 0},  {ACCEL_BOOL, 1, 0},
                 {ACCEL_I8, 1, 1},  {ACCEL_I16, 2, 1}, {ACCEL_U16, 2, 0}, {ACCEL_U32, 4, 0},
                 {ACCEL_U64, 8, 0}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; ++i)
        if (kinds[i].dtype == dtype) {
            *out_size = kinds[i].size;
            return kinds[i].kind;
        }
    return -1;
}

/* The padded line length: the power of two >= n. */
static cl_ulong padded(size_t n)
{
    cl_ulong p = 1;
    while (p < n)
        p <<= 1;
    return p;
}

/* Whether out overlaps x (SORT may run in place: out == x), so that the
 * gather reads a copy of x. */
static int overlaps(const accel_op_desc *o)
{
    const accel_op_operand *x = &o->operands[0], *out = &o->operands[1];
    return o->op == ACCEL_OP_SORT && x->buffer == out->buffer &&
           x->offset < out->offset + out->count && out->offset < x->offset + x->count;
}

int32_t ocl__sort_supported(const ocl_device *d, const accel_op_desc *o)
{
    size_t es = 0;
    if (key_kind(o->dtype, &es) < 0 || o->n > 0x7fffffffu)
        return ACCEL_ERROR_UNSUPPORTED;
    /* Scratch past what one buffer holds: the core falls back. */
    cl_ulong p = padded(o->n);
    if (o->m * o->k > (cl_ulong)d->max_alloc / 8 / p)
        return ACCEL_ERROR_UNSUPPORTED;
    return ACCEL_SUCCESS;
}

/* Work-items for a loop over `items`: enough to fill the device. */
static size_t global_for(const ocl_device *d, cl_ulong items)
{
    cl_ulong cap = (cl_ulong)(d->compute_units ? d->compute_units : 1) * 2048;
    cl_ulong g = items < cap ? items : cap;
    return (size_t)((g + 255) / 256 * 256);
}

/* The bitonic network over `total` pairs in lines of p (Batcher's order:
 * blocks of 2, 4, ... p, each merged by steps of half its size down to 1). */
static int32_t run_network(ocl_ctx *c, accel_be_queue *q, cl_mem keys, cl_mem idx, cl_ulong p,
                           cl_ulong total, const char *name)
{
    ocl_device *d = &c->dev[q->device];
    cl_ulong pairs = total / 2;
    size_t global = global_for(d, pairs);
    for (cl_ulong blk = 2; blk <= p; blk <<= 1)
        for (cl_ulong j = blk >> 1; j > 0; j >>= 1) {
            /* The last merge (blk == p) is ascending in every line; below
             * it, bit blk of a pair's index picks the direction. */
            cl_ulong dir = blk == p ? 0 : blk;
            ocl_arg a[] = {OCL_ARG(keys), OCL_ARG(idx), OCL_ARG(pairs), OCL_ARG(j), OCL_ARG(dir)};
            int32_t rc = ocl__launch(c, q, d->fixed[OCL_K_SORT_STEP], a, 5, 1, &global, NULL, name);
            if (rc != ACCEL_SUCCESS)
                return rc;
        }
    return ACCEL_SUCCESS;
}

static cl_mem make(ocl_ctx *c, const ocl_device *d, size_t bytes, int32_t *rc)
{
    cl_int err = CL_SUCCESS;
    cl_mem m = c->cl.clCreateBuffer(d->context, CL_MEM_READ_WRITE, bytes ? bytes : 1, NULL, &err);
    if (!m)
        *rc = ocl__fail(c, ocl__status_of(err), "opencl: no scratch memory for a sort (%s)",
                        ocl__error_name(err));
    return m;
}

/* Keys, network, gather: the steps after the scratch exists. */
static int32_t sort_steps(ocl_ctx *c, accel_be_queue *q, const accel_op_desc *o, cl_mem keys,
                          cl_mem idx, cl_mem copy, const char *name)
{
    ocl_device *d = &c->dev[q->device];
    size_t es = 0;
    cl_int kind = key_kind(o->dtype, &es), desc = (o->flags & ACCEL_OP_FLAG_SORT_DESCENDING) != 0;
    const accel_op_operand *x = &o->operands[0], *out = &o->operands[1];
    const int w = es == 1 ? 0 : es == 2 ? 1 : es == 4 ? 2 : 3;
    cl_ulong n = o->n, k = o->k, p = padded(o->n), total = o->m * o->k * p, placed = x->count;
    cl_ulong ox = x->offset, oo = out->offset;
    cl_mem src = x->buffer->mem;
    size_t g1 = global_for(d, total), g2 = global_for(d, placed);
    int32_t rc = ACCEL_SUCCESS;
    if (copy) { /* in place: keys and gather from a copy of x */
        accel_be_buffer tmp = {copy, (size_t)placed * es, q->device};
        rc = ocl__queue_copy(c, q, x->buffer, ox * es, &tmp, 0, placed * es);
        if (rc != ACCEL_SUCCESS)
            return rc;
        src = copy;
        ox = 0;
    }
    ocl_arg ak[] = {OCL_ARG(src), OCL_ARG(ox), OCL_ARG(keys),  OCL_ARG(idx),  OCL_ARG(n),
                    OCL_ARG(k),   OCL_ARG(p),  OCL_ARG(total), OCL_ARG(kind), OCL_ARG(desc)};
    rc = ocl__launch(c, q, d->fixed[OCL_K_SORT_KEYS_U8 + w], ak, 10, 1, &g1, NULL, name);
    if (rc == ACCEL_SUCCESS)
        rc = run_network(c, q, keys, idx, p, total, name);
    if (rc != ACCEL_SUCCESS)
        return rc;
    if (o->op == ACCEL_OP_ARGSORT) {
        ocl_arg ai[] = {OCL_ARG(out->buffer->mem),
                        OCL_ARG(oo),
                        OCL_ARG(idx),
                        OCL_ARG(n),
                        OCL_ARG(k),
                        OCL_ARG(p),
                        OCL_ARG(placed)};
        return ocl__launch(c, q, d->fixed[OCL_K_SORT_INDEX], ai, 7, 1, &g2, NULL, name);
    }
    ocl_arg ao[] = {OCL_ARG(src), OCL_ARG(ox),  OCL_ARG(out->buffer->mem),
                    OCL_ARG(oo),  OCL_ARG(idx), OCL_ARG(n),
                    OCL_ARG(k),   OCL_ARG(p),   OCL_ARG(placed)};
    return ocl__launch(c, q, d->fixed[OCL_K_SORT_OUT_U8 + w], ao, 9, 1, &g2, NULL, name);
}

int32_t ocl__sort(ocl_ctx *c, accel_be_queue *q, const accel_op_desc *o, const char *name)
{
    ocl_device *d = &c->dev[q->device];
    size_t es = 0;
    if (o->m == 0 || o->n == 0 || o->k == 0 || key_kind(o->dtype, &es) < 0)
        return o->m && o->n && o->k
                   ? ocl__fail(c, ACCEL_ERROR_UNSUPPORTED, "%s: dtype %u is not sorted on opencl",
                               name, (unsigned)o->dtype)
                   : ACCEL_SUCCESS;
    size_t total = (size_t)(o->m * o->k * padded(o->n));
    int32_t rc = ACCEL_SUCCESS;
    cl_mem keys = make(c, d, total * 8, &rc), idx = keys ? make(c, d, total * 4, &rc) : NULL;
    cl_mem copy = idx && overlaps(o) ? make(c, d, o->operands[0].count * es, &rc) : NULL;
    if (rc == ACCEL_SUCCESS)
        rc = sort_steps(c, q, o, keys, idx, copy, name);
    /* Freed by OpenCL once the enqueued commands that use them are done. */
    if (keys)
        c->cl.clReleaseMemObject(keys);
    if (idx)
        c->cl.clReleaseMemObject(idx);
    if (copy)
        c->cl.clReleaseMemObject(copy);
    return rc;
}
