/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* cublas_loader.h — the few cuBLAS entry points the backend uses, as
 * function pointers filled by dlopen at init. cuBLAS is loaded only once a
 * GPU has been found: the plugin itself then loads (and reports "no driver")
 * on machines without cuBLAS, and test runs without a GPU never map cuBLAS,
 * whose static initializers allocate memory that leak checkers report when
 * it is unloaded again. cublas_loader.cu checks these types against
 * cublas_v2.h at compile time. */
#ifndef ACCEL_CUDA_CUBLAS_LOADER_H
#define ACCEL_CUDA_CUBLAS_LOADER_H

#include <stdint.h>

#include <cublas_v2.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef cublasStatus_t (*accel_cublas_create_fn)(cublasHandle_t *handle);
typedef cublasStatus_t (*accel_cublas_destroy_fn)(cublasHandle_t handle);
typedef cublasStatus_t (*accel_cublas_set_stream_fn)(cublasHandle_t handle, cudaStream_t stream);
typedef const char *(*accel_cublas_status_name_fn)(cublasStatus_t status);
typedef cublasStatus_t (*accel_cublas_gemm_ex_64_fn)(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int64_t m, int64_t n,
    int64_t k, const void *alpha, const void *A, cudaDataType Atype, int64_t lda, const void *B,
    cudaDataType Btype, int64_t ldb, const void *beta, void *C, cudaDataType Ctype, int64_t ldc,
    cublasComputeType_t computeType, cublasGemmAlgo_t algo);
typedef cublasStatus_t (*accel_cublas_gemm_strided_batched_ex_64_fn)(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int64_t m, int64_t n,
    int64_t k, const void *alpha, const void *A, cudaDataType Atype, int64_t lda,
    long long int strideA, const void *B, cudaDataType Btype, int64_t ldb, long long int strideB,
    const void *beta, void *C, cudaDataType Ctype, int64_t ldc, long long int strideC,
    int64_t batchCount, cublasComputeType_t computeType, cublasGemmAlgo_t algo);

typedef struct accel_cublas_api {
    int loaded;
    char error[256]; /* why not, when !loaded */
    accel_cublas_create_fn create;
    accel_cublas_destroy_fn destroy;
    accel_cublas_set_stream_fn set_stream;
    accel_cublas_status_name_fn status_name;
    accel_cublas_gemm_ex_64_fn gemm_ex_64;
    accel_cublas_gemm_strided_batched_ex_64_fn gemm_strided_batched_ex_64;
} accel_cublas_api;

/* Fill *api from libcublas.so.<CUBLAS_VER_MAJOR> (the calling plugin's
 * RUNPATH, then the loader's search path, then the toolkit directory it was
 * built against). The library stays loaded until the process exits. */
void accel_cuda__cublas_load(accel_cublas_api *api);

#ifdef __cplusplus
}
#endif
#endif /* ACCEL_CUDA_CUBLAS_LOADER_H */
