/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* ops.c — which ops this backend runs (op_supported), and enqueueing them
 * (op_execute): kernels from the .cu files, copies as cudaMemcpyAsync, GEMM
 * through cuBLAS.
 *
 * GEMM: accel's matrices are row-major, cuBLAS's column-major. A row-major
 * r x c matrix with leading dimension ld is the column-major c x r matrix
 * (its transpose) with the same ld, so C = op(A) op(B) is computed as
 * C^T = op(B)^T op(A)^T: cuBLAS gets (op_b, op_a, n, m, k, B, ldb, A, lda, C,
 * ldc). The 64-bit cublasGemmEx_64 / cublasGemmStridedBatchedEx_64 take
 * every size. f16 and bf16 accumulate in f32 (CUBLAS_COMPUTE_32F, f32
 * alpha/beta). f32 uses TF32 tensor cores (CUBLAS_COMPUTE_32F_FAST_TF32) only
 * with ACCEL_OP_FLAG_ALLOW_TF32 or `tf32 = true` in plugins.ini; otherwise
 * CUBLAS_COMPUTE_32F, which keeps full f32 products. One cuBLAS handle per
 * queue, bound to its stream (handles are not shared between threads; the
 * core never uses one queue from two threads at once). */
#include <stdint.h>
#include <string.h>

#include <cublas_v2.h>

#include "../common/op_kind.h"
#include "cuda_internal.h"

/* Kinds from the op table (accel/types.h): every BINARY and UNARY row goes
 * to the elementwise kernels, which list them. */
static int is_binary(uint32_t op)
{
    return accel_backend_op_kind(op) == ACCEL_OP_KIND_BINARY;
}

static int is_unary(uint32_t op)
{
    return accel_backend_op_kind(op) == ACCEL_OP_KIND_UNARY;
}

/* SORT through CUB (kernels_sort.cu): every real dtype; line indices are
 * 32-bit and CUB's segmented sorts count items in int. */
static int32_t sort_supported(const accel_cuda_ctx *ctx, const accel_op_desc *d)
{
    size_t total = d->m * d->n * d->k;
    if (d->dtype >= 32 || !(ACCEL_DTYPES_REAL >> d->dtype & 1u))
        return ACCEL_ERROR_UNSUPPORTED;
    if (d->n > UINT32_MAX || (d->m * d->k > 1 && total > INT32_MAX)) {
        ctx->host->set_error(ctx->host->host_ctx,
                             "sort of %zu lines of %zu: past CUB's 32-bit sizes here", d->m * d->k,
                             d->n);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    return ACCEL_SUCCESS;
}

int32_t accel_cuda__op_supported(void *vctx, uint32_t device, const accel_op_desc *desc)
{
    const accel_cuda_ctx *ctx = vctx;
    (void)device;
    uint32_t op = desc->op, dt = desc->dtype;
    if (op == ACCEL_OP_KERNEL)
        return desc->kernel && desc->kernel->program ? ACCEL_SUCCESS : ACCEL_ERROR_UNSUPPORTED;
    int full = dt == ACCEL_F32 || dt == ACCEL_F64;
    int half = dt == ACCEL_F16 || dt == ACCEL_BF16;
    switch (op) {
    case ACCEL_OP_COPY:
    case ACCEL_OP_TRANSPOSE:
        return full || half ? ACCEL_SUCCESS : ACCEL_ERROR_UNSUPPORTED;
    case ACCEL_OP_GEMM:
        if ((full || half) && !ctx->blas.loaded) {
            /* Name what is missing (the core appends this to its message). */
            ctx->host->set_error(ctx->host->host_ctx, "GEMM needs cuBLAS, which is unavailable: %s",
                                 ctx->blas.error);
            return ACCEL_ERROR_UNSUPPORTED;
        }
        return full || half ? ACCEL_SUCCESS : ACCEL_ERROR_UNSUPPORTED;
    case ACCEL_OP_FILL:
    case ACCEL_OP_AXPBY:
    case ACCEL_OP_SCALE:
    case ACCEL_OP_SUM:
    case ACCEL_OP_REDUCE_MAX:
    case ACCEL_OP_REDUCE_MIN:
    case ACCEL_OP_DOT:
    case ACCEL_OP_RANDOM_UNIFORM:
    case ACCEL_OP_RANDOM_NORMAL:
        return full ? ACCEL_SUCCESS : ACCEL_ERROR_UNSUPPORTED;
    case ACCEL_OP_SORT:
    case ACCEL_OP_ARGSORT:
        return sort_supported(ctx, desc);
    case ACCEL_OP_CUMSUM: /* CUB's scans take contiguous lines: k == 1 */
        return dt < 32 && (ACCEL_DTYPES_SCAN >> dt & 1u) && desc->k == 1 &&
                       accel_scan_out_dtype(dt, desc->flags) != ACCEL_BOOL
                   ? ACCEL_SUCCESS
                   : ACCEL_ERROR_UNSUPPORTED;
    case ACCEL_OP_CHOLESKY:
    case ACCEL_OP_SOLVE:
    case ACCEL_OP_SLOGDET:
    case ACCEL_OP_QR:
    case ACCEL_OP_EIGH:
    case ACCEL_OP_SVD:
        return accel_cuda__linalg_supported(ctx, desc);
    case ACCEL_OP_FFT:
    case ACCEL_OP_RFFT:
    case ACCEL_OP_IRFFT:
        return accel_cuda__fft_supported(ctx, desc);
    default:
        return (is_binary(op) || is_unary(op)) && full ? ACCEL_SUCCESS : ACCEL_ERROR_UNSUPPORTED;
    }
}

/* Operand i's first element: its offset counts elements of its own dtype
 * (accel_op_operand_dtype: argsort's int64 out, cumsum's out, a real FFT's
 * real side). */
static void *operand_ptr(const accel_op_desc *d, unsigned i)
{
    const accel_op_operand *o = &d->operands[i];
    char *base = accel_cuda__buffer_ptr(o->buffer);
    return base ? base + o->offset * accel_backend_dtype_size(accel_op_operand_dtype(d, i)) : NULL;
}

/* ----------------------------------------------------------------- GEMM */

static int32_t blas_fail(const accel_cuda_ctx *ctx, cublasStatus_t s, const char *what,
                         const char *op_name)
{
    (void)cudaGetLastError();
    ctx->host->set_error(ctx->host->host_ctx, "%s: %s: %s", op_name, what,
                         ctx->blas.status_name(s));
    switch (s) {
    case CUBLAS_STATUS_ALLOC_FAILED:
        return ACCEL_ERROR_OUT_OF_DEVICE_MEMORY;
    case CUBLAS_STATUS_NOT_SUPPORTED:
    case CUBLAS_STATUS_ARCH_MISMATCH:
        return ACCEL_ERROR_UNSUPPORTED;
    default:
        return ACCEL_ERROR_DEVICE;
    }
}

void accel_cuda__blas_destroy(const accel_cuda_ctx *ctx, accel_be_queue *q)
{
    if (q->blas)
        (void)ctx->blas.destroy((cublasHandle_t)q->blas);
    q->blas = NULL;
}

/* The queue's handle, created on first use on the queue's device (current). */
static int32_t queue_blas(const accel_cuda_ctx *ctx, accel_be_queue *q, const char *op_name,
                          cublasHandle_t *out)
{
    if (!q->blas) {
        cublasHandle_t h = NULL;
        cublasStatus_t s = ctx->blas.create(&h);
        if (s != CUBLAS_STATUS_SUCCESS)
            return blas_fail(ctx, s, "cublasCreate", op_name);
        if ((s = ctx->blas.set_stream(h, q->stream)) != CUBLAS_STATUS_SUCCESS) {
            (void)ctx->blas.destroy(h);
            return blas_fail(ctx, s, "cublasSetStream", op_name);
        }
        q->blas = h;
    }
    *out = (cublasHandle_t)q->blas;
    return ACCEL_SUCCESS;
}

static size_t at_least_1(size_t v)
{
    return v ? v : 1;
}

static int32_t run_gemm(accel_cuda_ctx *ctx, accel_be_queue *q, const accel_op_desc *d,
                        const char *name)
{
    cuda_device *dev = &ctx->devices[q->device];
    if (d->m == 0 || d->n == 0 || d->batch_count == 0)
        return ACCEL_SUCCESS;
    void *a = operand_ptr(d, 0);
    void *b = operand_ptr(d, 1);
    void *c = operand_ptr(d, 2);
    if (d->k == 0) {
        /* C = beta*C without asking cuBLAS about empty operands. */
        cudaError_t err =
            accel_cuda__launch_scale_matrix(q->stream, dev->max_blocks, d->dtype, c, d->batch_count,
                                            d->m, d->n, d->ldc, d->stride_c, d->scalars[1]);
        return err == cudaSuccess ? ACCEL_SUCCESS : accel_cuda__fail(ctx, err, name);
    }
    if (d->m > INT64_MAX || d->n > INT64_MAX || d->k > INT64_MAX || d->lda > INT64_MAX ||
        d->ldb > INT64_MAX || d->ldc > INT64_MAX || d->stride_a > INT64_MAX ||
        d->stride_b > INT64_MAX || d->stride_c > INT64_MAX || d->batch_count > INT64_MAX) {
        ctx->host->set_error(ctx->host->host_ctx,
                             "%s: a GEMM dimension exceeds cuBLAS's 64-bit range", name);
        return ACCEL_ERROR_INVALID_ARGUMENT;
    }

    cublasHandle_t h = NULL;
    int32_t st = queue_blas(ctx, q, name, &h);
    if (st != ACCEL_SUCCESS)
        return st;

    cudaDataType_t type;
    cublasComputeType_t compute;
    float alpha_f = (float)d->scalars[0], beta_f = (float)d->scalars[1];
    double alpha_d = d->scalars[0], beta_d = d->scalars[1];
    const void *alpha = &alpha_f, *beta = &beta_f;
    switch (d->dtype) {
    case ACCEL_F32:
        type = CUDA_R_32F;
        compute = (d->flags & ACCEL_OP_FLAG_ALLOW_TF32) || dev->tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32
                                                                     : CUBLAS_COMPUTE_32F;
        break;
    case ACCEL_F64:
        type = CUDA_R_64F;
        compute = CUBLAS_COMPUTE_64F;
        alpha = &alpha_d;
        beta = &beta_d;
        break;
    case ACCEL_F16:
        type = CUDA_R_16F;
        compute = CUBLAS_COMPUTE_32F;
        break;
    case ACCEL_BF16:
        type = CUDA_R_16BF;
        compute = CUBLAS_COMPUTE_32F;
        break;
    default:
        ctx->host->set_error(ctx->host->host_ctx, "%s: dtype %u is not supported by GEMM", name,
                             d->dtype);
        return ACCEL_ERROR_UNSUPPORTED;
    }

    /* Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T. A
     * leading dimension of 0 is legal here when its row length is 0, but
     * not for cuBLAS; nothing is read then, so 1 will do. */
    cublasOperation_t op_b = d->trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasOperation_t op_a = d->trans_a ? CUBLAS_OP_T : CUBLAS_OP_N;
    int64_t m = (int64_t)d->n, n = (int64_t)d->m, k = (int64_t)d->k;
    int64_t ldb = (int64_t)at_least_1(d->ldb), lda = (int64_t)at_least_1(d->lda);
    int64_t ldc = (int64_t)at_least_1(d->ldc);
    cublasStatus_t s;
    if (d->batch_count == 1)
        s = ctx->blas.gemm_ex_64(h, op_b, op_a, m, n, k, alpha, b, type, ldb, a, type, lda, beta, c,
                                 type, ldc, compute, CUBLAS_GEMM_DEFAULT);
    else
        s = ctx->blas.gemm_strided_batched_ex_64(
            h, op_b, op_a, m, n, k, alpha, b, type, ldb, (long long)d->stride_b, a, type, lda,
            (long long)d->stride_a, beta, c, type, ldc, (long long)d->stride_c,
            (int64_t)d->batch_count, compute, CUBLAS_GEMM_DEFAULT);
    if (s != CUBLAS_STATUS_SUCCESS)
        return blas_fail(ctx, s,
                         d->batch_count == 1 ? "cublasGemmEx" : "cublasGemmStridedBatchedEx", name);
    return ACCEL_SUCCESS;
}

/* ------------------------------------------------------------- dispatch */

/* Enqueue one of the ops with a kernel of its own (kernels_*.cu) or a copy
 * on q's stream, with at most mb blocks. */
static cudaError_t launch_table_op(accel_be_queue *q, unsigned mb, const accel_op_desc *d)
{
    const size_t es = accel_backend_dtype_size(d->dtype);
    const uint32_t op = d->op, dt = d->dtype;
    const size_t n = d->operands[0].count;
    cudaError_t err = cudaSuccess;
    switch (op) {
    case ACCEL_OP_FILL:
        err = accel_cuda__launch_fill(q->stream, mb, dt, operand_ptr(d, 0), n, d->scalars[0]);
        break;
    case ACCEL_OP_COPY: {
        const void *x = operand_ptr(d, 0);
        void *out = operand_ptr(d, 1);
        if (n > 0 && x != out)
            err = cudaMemcpyAsync(out, x, n * es, cudaMemcpyDeviceToDevice, q->stream);
        break;
    }
    case ACCEL_OP_AXPBY:
        err = accel_cuda__launch_axpby(q->stream, mb, dt, d->scalars[0], operand_ptr(d, 0),
                                       d->scalars[1], operand_ptr(d, 1), n);
        break;
    case ACCEL_OP_SCALE:
        err = accel_cuda__launch_scale(q->stream, mb, dt, d->scalars[0], operand_ptr(d, 0),
                                       operand_ptr(d, 1), n);
        break;
    case ACCEL_OP_SUM:
    case ACCEL_OP_REDUCE_MAX:
    case ACCEL_OP_REDUCE_MIN:
        err = accel_cuda__launch_reduce(q->stream, mb, op, dt, operand_ptr(d, 0), NULL, n,
                                        q->partials, operand_ptr(d, 1));
        break;
    case ACCEL_OP_DOT:
        err = accel_cuda__launch_reduce(q->stream, mb, op, dt, operand_ptr(d, 0), operand_ptr(d, 1),
                                        n, q->partials, operand_ptr(d, 2));
        break;
    case ACCEL_OP_TRANSPOSE:
        err = accel_cuda__launch_transpose(q->stream, mb, dt, operand_ptr(d, 0), d->lda,
                                           operand_ptr(d, 1), d->ldc, d->m, d->n);
        break;
    case ACCEL_OP_SORT:
    case ACCEL_OP_ARGSORT: /* argsort's out: int64 indices */
        err = accel_cuda__launch_sort(q->stream, mb, dt, operand_ptr(d, 0), operand_ptr(d, 1), d->m,
                                      d->n, d->k, (d->flags & ACCEL_OP_FLAG_SORT_DESCENDING) != 0,
                                      op == ACCEL_OP_ARGSORT);
        break;
    case ACCEL_OP_CUMSUM:
        err = accel_cuda__launch_scan(q->stream, dt, (d->flags & ACCEL_OP_FLAG_SCAN_WIDE) != 0,
                                      operand_ptr(d, 0), operand_ptr(d, 1), d->m, d->n);
        break;
    case ACCEL_OP_RANDOM_UNIFORM:
    case ACCEL_OP_RANDOM_NORMAL:
        err = accel_cuda__launch_random(q->stream, mb, op, dt, d->seed, d->rng_offset,
                                        d->scalars[0], d->scalars[1], operand_ptr(d, 0), n);
        break;
    default:
        if (is_binary(op))
            err = accel_cuda__launch_binary(q->stream, mb, op, dt, operand_ptr(d, 0),
                                            operand_ptr(d, 1), operand_ptr(d, 2), n);
        else
            err = accel_cuda__launch_unary(q->stream, mb, op, dt, operand_ptr(d, 0),
                                           operand_ptr(d, 1), n);
        break;
    }
    return err;
}

int32_t accel_cuda__op_execute(void *vctx, accel_be_queue *q, const accel_op_desc *d)
{
    accel_cuda_ctx *ctx = vctx;
    const char *name = d->name ? d->name : "op";
    if (accel_cuda__op_supported(ctx, q->device, d) != ACCEL_SUCCESS) {
        ctx->host->set_error(ctx->host->host_ctx,
                             "%s: op %u with dtype %u is not supported by the CUDA backend", name,
                             d->op, d->dtype);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    if (d->op == ACCEL_OP_KERNEL)
        return accel_cuda__kernel_launch(ctx, q, d);
    int32_t st = accel_cuda__set_device(ctx, q->device);
    if (st != ACCEL_SUCCESS)
        return st;

    const cuda_device *dev = &ctx->devices[q->device];
    const uint32_t op = d->op;
    if (op == ACCEL_OP_GEMM) {
        st = run_gemm(ctx, q, d, name);
        accel_cuda__set_name(q->last_op, name);
        return st;
    }
    if (accel_backend_op_kind(op) == ACCEL_OP_KIND_LINALG) {
        st = accel_cuda__linalg(ctx, q, d, name);
        accel_cuda__set_name(q->last_op, name);
        return st;
    }
    if (accel_backend_op_kind(op) ==
        ACCEL_OP_KIND_FFT) { /* the real side is half the complex size */
        st = accel_cuda__fft(ctx, q, d, operand_ptr(d, 0), operand_ptr(d, 1), name);
        accel_cuda__set_name(q->last_op, name);
        return st;
    }

    cudaError_t err = launch_table_op(q, dev->max_blocks, d);
    /* q->last_op still names the op before this one: a launch can also fail
     * with the sticky fault of earlier work, so the message names it too. */
    if (err != cudaSuccess) {
        st = accel_cuda__fail(ctx, err, name);
        ctx->host->set_error(ctx->host->host_ctx,
                             "%s: %s: %s (previous op enqueued on this queue: %s)", name,
                             cudaGetErrorName(err), cudaGetErrorString(err), q->last_op);
    }
    accel_cuda__set_name(q->last_op, name);
    return st;
}
