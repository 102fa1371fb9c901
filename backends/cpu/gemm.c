/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* gemm.c — C = alpha*op(A)*op(B) + beta*C, row-major, strided batched, through
 * OpenBLAS's cblas_sgemm/cblas_dgemm (CblasRowMajor), one call per batch,
 * always the OpenBLAS the plugin bound itself (blas.c), after checking that
 * the process can still map OpenBLAS's work space.
 *
 * - m or n == 0: nothing to do. k == 0 or alpha == 0: C = beta*C computed here
 *   (A and B are not read, as BLAS), with beta == 0 writing zeros so NaN in C
 *   is not propagated. OpenBLAS itself also zeroes C for beta == 0.
 * - f16/bf16: A and B are widened to packed f32 copies (exact), C too when
 *   beta != 0, sgemm computes in f32, and C is rounded back to nearest-even. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "half.h"

static inline float half_to_f32(uint32_t dtype, uint16_t h)
{
    return dtype == ACCEL_F16 ? accel_cpu_f16_to_f32(h) : accel_cpu_bf16_to_f32(h);
}

static inline uint16_t f32_to_half(uint32_t dtype, float f)
{
    return dtype == ACCEL_F16 ? accel_cpu_f32_to_f16(f) : accel_cpu_f32_to_bf16(f);
}

/* C = beta*C for one m x n matrix (beta == 0: zeros, C not read). */
static void scale_c(const accel_cpu_op *op, void *c)
{
    const size_t m = op->m, n = op->n, ldc = op->ldc;
    const double beta = op->scalars[1];
    if (beta == 1.0)
        return;
    for (size_t i = 0; i < m; ++i) {
        switch (op->dtype) {
        case ACCEL_F32: {
            float *row = (float *)c + i * ldc;
            const float b = (float)beta;
            for (size_t j = 0; j < n; ++j)
                row[j] = beta == 0.0 ? 0.0f : b * row[j];
            break;
        }
        case ACCEL_F64: {
            double *row = (double *)c + i * ldc;
            for (size_t j = 0; j < n; ++j)
                row[j] = beta == 0.0 ? 0.0 : beta * row[j];
            break;
        }
        default: {
            uint16_t *row = (uint16_t *)c + i * ldc;
            const float b = (float)beta;
            for (size_t j = 0; j < n; ++j)
                row[j] =
                    beta == 0.0 ? 0 : f32_to_half(op->dtype, b * half_to_f32(op->dtype, row[j]));
            break;
        }
        }
    }
}

/* rows x cols of half matrix src (leading dimension ld) into packed f32. */
static void widen(uint32_t dtype, const uint16_t *src, size_t ld, size_t rows, size_t cols,
                  float *dst, int nt)
{
#pragma omp parallel for num_threads(nt) schedule(static) if (rows * cols >= (1u << 16))
    for (size_t i = 0; i < rows; ++i)
        for (size_t j = 0; j < cols; ++j)
            dst[i * cols + j] = half_to_f32(dtype, src[i * ld + j]);
}

static void narrow(uint32_t dtype, const float *src, size_t rows, size_t cols, uint16_t *dst,
                   size_t ld, int nt)
{
#pragma omp parallel for num_threads(nt) schedule(static) if (rows * cols >= (1u << 16))
    for (size_t i = 0; i < rows; ++i)
        for (size_t j = 0; j < cols; ++j)
            dst[i * ld + j] = f32_to_half(dtype, src[i * cols + j]);
}

static int32_t gemm_half(const accel_cpu_op *op, int nt, char *msg, size_t msg_size)
{
    const size_t m = op->m, n = op->n, k = op->k;
    const size_t rows_a = op->trans_a ? k : m, cols_a = op->trans_a ? m : k;
    const size_t rows_b = op->trans_b ? n : k, cols_b = op->trans_b ? k : n;
    const float alpha = (float)op->scalars[0], beta = (float)op->scalars[1];
    size_t na = 0, nb = 0, nc = 0, total = 0, bytes = 0;
    const int overflow =
        __builtin_mul_overflow(rows_a, cols_a, &na) ||
        __builtin_mul_overflow(rows_b, cols_b, &nb) || __builtin_mul_overflow(m, n, &nc) ||
        __builtin_add_overflow(na, nb, &total) || __builtin_add_overflow(total, nc, &total) ||
        __builtin_mul_overflow(total, sizeof(float), &bytes);
    float *work = overflow ? NULL : malloc(bytes);
    if (!work) {
        snprintf(msg, msg_size, "%s: out of host memory for the f32 staging of A, B and C (%s)",
                 op->name, overflow ? "size overflows" : "malloc failed");
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    float *af = work, *bf = work + na, *cf = work + na + nb;
    for (size_t bi = 0; bi < op->batch_count; ++bi) {
        const uint16_t *a = (const uint16_t *)op->ptr[0] + bi * op->stride_a;
        const uint16_t *b = (const uint16_t *)op->ptr[1] + bi * op->stride_b;
        uint16_t *c = (uint16_t *)op->ptr[2] + bi * op->stride_c;
        widen(op->dtype, a, op->lda, rows_a, cols_a, af, nt);
        widen(op->dtype, b, op->ldb, rows_b, cols_b, bf, nt);
        if (op->scalars[1] != 0.0)
            widen(op->dtype, c, op->ldc, m, n, cf, nt);
        else
            memset(cf, 0, nc * sizeof *cf);
        accel_cpu__blas()->sgemm(ACCEL_CPU_CBLAS_ROW_MAJOR,
                                 op->trans_a ? ACCEL_CPU_CBLAS_TRANS : ACCEL_CPU_CBLAS_NO_TRANS,
                                 op->trans_b ? ACCEL_CPU_CBLAS_TRANS : ACCEL_CPU_CBLAS_NO_TRANS,
                                 (int)m, (int)n, (int)k, alpha, af, (int)cols_a, bf, (int)cols_b,
                                 beta, cf, (int)n);
        narrow(op->dtype, cf, m, n, c, op->ldc, nt);
    }
    free(work);
    return ACCEL_SUCCESS;
}

int32_t accel_cpu__gemm(const accel_cpu_op *op, int nt, char *msg, size_t msg_size)
{
    const size_t m = op->m, n = op->n, k = op->k;
    if (m == 0 || n == 0)
        return ACCEL_SUCCESS;
    const size_t esize = accel_backend_dtype_size(op->dtype);
    if (k == 0 || op->scalars[0] == 0.0) {
        for (size_t bi = 0; bi < op->batch_count; ++bi)
            scale_c(op, (char *)op->ptr[2] + bi * op->stride_c * esize);
        return ACCEL_SUCCESS;
    }
    const accel_cpu_blas *blas = accel_cpu__blas();
    if (!blas->ok) {
        snprintf(msg, msg_size, "%s: the cpu backend has no BLAS: %s", op->name, blas->error);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    int32_t st = accel_cpu__blas_headroom(op->name, msg, msg_size);
    if (st != ACCEL_SUCCESS)
        return st;
    const int ta = op->trans_a ? ACCEL_CPU_CBLAS_TRANS : ACCEL_CPU_CBLAS_NO_TRANS;
    const int tb = op->trans_b ? ACCEL_CPU_CBLAS_TRANS : ACCEL_CPU_CBLAS_NO_TRANS;
    const int row_major = ACCEL_CPU_CBLAS_ROW_MAJOR;
    switch (op->dtype) {
    case ACCEL_F32:
        for (size_t bi = 0; bi < op->batch_count; ++bi)
            blas->sgemm(row_major, ta, tb, (int)m, (int)n, (int)k, (float)op->scalars[0],
                        (const float *)op->ptr[0] + bi * op->stride_a, (int)op->lda,
                        (const float *)op->ptr[1] + bi * op->stride_b, (int)op->ldb,
                        (float)op->scalars[1], (float *)op->ptr[2] + bi * op->stride_c,
                        (int)op->ldc);
        return ACCEL_SUCCESS;
    case ACCEL_F64:
        for (size_t bi = 0; bi < op->batch_count; ++bi)
            blas->dgemm(row_major, ta, tb, (int)m, (int)n, (int)k, op->scalars[0],
                        (const double *)op->ptr[0] + bi * op->stride_a, (int)op->lda,
                        (const double *)op->ptr[1] + bi * op->stride_b, (int)op->ldb,
                        op->scalars[1], (double *)op->ptr[2] + bi * op->stride_c, (int)op->ldc);
        return ACCEL_SUCCESS;
    default:
        return gemm_half(op, nt, msg, msg_size);
    }
}
