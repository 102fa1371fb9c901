/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* gemm.c — GEMM through CLBlast (Nugteren, "CLBlast: A Tuned OpenCL BLAS
 * Library", IWOCL 2018): row-major xGEMM with element offsets, f32 and f64,
 * f16 where the device has cl_khr_fp16; batches through its strided-batched
 * entries. bf16 is not in CLBlast: op_supported says so and the core falls
 * back. k == 0 (C = beta*C, which CLBlast refuses) runs scale2d of
 * kernels.cl. */
#include <math.h>
#include <string.h>

#include "opencl.h"

enum { ROW_MAJOR = 101, NO_TRANS = 111, TRANS = 112 }; /* CLBlastLayout, CLBlastTranspose */

/* binary16 bits of v, rounded to nearest even (IEEE 754). */
static cl_half to_half(double v)
{
    float f = (float)v;
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u, mag = x & 0x7fffffffu;
    if (mag >= 0x7f800000u) /* Inf, NaN */
        return (cl_half)(sign | 0x7c00u | (mag > 0x7f800000u ? 0x200u : 0u));
    if (mag >= 0x477ff000u) /* rounds past 65504 */
        return (cl_half)(sign | 0x7c00u);
    if (mag < 0x38800000u) { /* subnormal half: round mag * 2^24 */
        float a;
        memcpy(&a, &mag, 4);
        return (cl_half)(sign | (uint32_t)lrintf(a * 0x1p24f));
    }
    uint32_t h = ((mag - 0x38000000u) >> 13), rest = mag & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
        ++h;
    return (cl_half)(sign | h);
}

int32_t ocl__gemm_supported(ocl_ctx *c, const ocl_device *d, const accel_op_desc *o)
{
    if (o->k == 0) /* scale2d: f32 and f64 */
        return o->dtype == ACCEL_F32 || (o->dtype == ACCEL_F64 && d->fp64)
                   ? ACCEL_SUCCESS
                   : ACCEL_ERROR_UNSUPPORTED;
    switch (o->dtype) {
    case ACCEL_F32:
        return c->blas.sgemm ? ACCEL_SUCCESS : ACCEL_ERROR_UNSUPPORTED;
    case ACCEL_F64:
        return c->blas.dgemm && d->fp64 ? ACCEL_SUCCESS : ACCEL_ERROR_UNSUPPORTED;
    case ACCEL_F16:
        return c->blas.hgemm && d->fp16 ? ACCEL_SUCCESS : ACCEL_ERROR_UNSUPPORTED;
    default:
        return ACCEL_ERROR_UNSUPPORTED;
    }
}

static int32_t gemm_k0(ocl_ctx *c, accel_be_queue *q, const accel_op_desc *o, const char *name)
{
    ocl_device *d = &c->dev[q->device];
    int32_t rc = ocl__program_ensure(c, d);
    if (rc != ACCEL_SUCCESS)
        return rc;
    const int f64 = o->dtype == ACCEL_F64;
    cl_ulong oc = o->operands[2].offset, ldc = o->ldc, stride = o->stride_c, m = o->m, n = o->n;
    cl_ulong batch = o->batch_count ? o->batch_count : 1;
    float b32 = (float)o->scalars[1];
    double b64 = o->scalars[1];
    ocl_arg a[] = {{sizeof(cl_mem), &o->operands[2].buffer->mem},
                   {8, &oc},
                   {8, &ldc},
                   {8, &stride},
                   {8, &m},
                   {8, &n},
                   {8, &batch},
                   {f64 ? sizeof b64 : sizeof b32, f64 ? (const void *)&b64 : (const void *)&b32}};
    size_t total = (size_t)(m * n * batch), global = total < 65536 ? total : 65536;
    global = (global + 63) / 64 * 64;
    return ocl__launch(c, q, d->fixed[f64 ? OCL_K_SCALE2D_F64 : OCL_K_SCALE2D_F32], a, 8, 1,
                       &global, NULL, name);
}

/* One CLBlast call (batch_count matrices) of o's dtype; CLBlast's status. */
static int call_blas(ocl_ctx *c, accel_be_queue *q, const accel_op_desc *o, cl_event *ev)
{
    const ocl_blas *b = &c->blas;
    int ta = o->trans_a ? TRANS : NO_TRANS, tb = o->trans_b ? TRANS : NO_TRANS;
    cl_mem A = o->operands[0].buffer->mem, B = o->operands[1].buffer->mem;
    cl_mem C = o->operands[2].buffer->mem;
    size_t oa = o->operands[0].offset, ob = o->operands[1].offset, oc = o->operands[2].offset;
    size_t batch = o->batch_count ? o->batch_count : 1;
    double al = o->scalars[0], be = o->scalars[1];
#define OCL_GEMM_CALL(FN, BFN, AL, BE)                                                             \
    (batch > 1 && BFN                                                                              \
         ? BFN(ROW_MAJOR, ta, tb, o->m, o->n, o->k, AL, A, oa, o->lda, o->stride_a, B, ob, o->ldb, \
               o->stride_b, BE, C, oc, o->ldc, o->stride_c, batch, &q->q, ev)                      \
         : FN(ROW_MAJOR, ta, tb, o->m, o->n, o->k, AL, A, oa, o->lda, B, ob, o->ldb, BE, C, oc,    \
              o->ldc, &q->q, ev))
    switch (o->dtype) {
    case ACCEL_F32:
        return OCL_GEMM_CALL(b->sgemm, b->sgemm_batched, (float)al, (float)be);
    case ACCEL_F64:
        return OCL_GEMM_CALL(b->dgemm, b->dgemm_batched, al, be);
    default:
        return OCL_GEMM_CALL(b->hgemm, b->hgemm_batched, to_half(al), to_half(be));
    }
#undef OCL_GEMM_CALL
}

int32_t ocl__gemm(ocl_ctx *c, accel_be_queue *q, const accel_op_desc *desc)
{
    const char *name = desc->name ? desc->name : "accel_gemm";
    if (desc->m == 0 || desc->n == 0)
        return ACCEL_SUCCESS;
    if (desc->k == 0)
        return gemm_k0(c, q, desc, name);
    const ocl_blas *b = &c->blas;
    int batched = (desc->dtype == ACCEL_F32   ? b->sgemm_batched != NULL
                   : desc->dtype == ACCEL_F64 ? b->dgemm_batched != NULL
                                              : b->hgemm_batched != NULL);
    size_t batch = desc->batch_count ? desc->batch_count : 1;
    accel_op_desc o = *desc;
    /* Without the strided-batched entry, one call per matrix. */
    size_t calls = batched ? 1 : batch;
    size_t es = ocl__dtype_size(desc->dtype);
    (void)es;
    for (size_t i = 0; i < calls; ++i) {
        if (!batched) {
            o.batch_count = 1;
            o.operands[0].offset = desc->operands[0].offset + i * desc->stride_a;
            o.operands[1].offset = desc->operands[1].offset + i * desc->stride_b;
            o.operands[2].offset = desc->operands[2].offset + i * desc->stride_c;
        }
        cl_event ev = NULL;
        int st = call_blas(c, q, &o, &ev);
        if (st != 0)
            return ocl__fail(
                c, st == -1 || st == -4 || st == -5 ? ocl__status_of(st) : ACCEL_ERROR_DEVICE,
                "%s: CLBlast's GEMM failed with status %d (%s)", name, st,
                st > -1024 ? ocl__error_name(st) : "a CLBlast error; clblast.h");
        if (ev)
            ocl__queue_track(c, q, ev, name);
    }
    return ACCEL_SUCCESS;
}
