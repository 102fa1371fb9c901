/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* cublas_loader.cu — resolves cuBLAS at run time (see cublas_loader.h).
 * Host code only; it is a .cu file so that the function-pointer types can be
 * checked against cuBLAS's own declarations with decltype. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include <type_traits>

#include "cublas_loader.h"
#include "dl_open.h"

#define ACCEL_STR2(x) #x
#define ACCEL_STR(x) ACCEL_STR2(x)
#define CUBLAS_SONAME "libcublas.so." ACCEL_STR(CUBLAS_VER_MAJOR)

static_assert(std::is_same<decltype(&cublasCreate_v2), accel_cublas_create_fn>::value,
              "cublasCreate");
static_assert(std::is_same<decltype(&cublasDestroy_v2), accel_cublas_destroy_fn>::value,
              "cublasDestroy");
static_assert(std::is_same<decltype(&cublasSetStream_v2), accel_cublas_set_stream_fn>::value,
              "cublasSetStream");
static_assert(std::is_same<decltype(&cublasGetStatusName), accel_cublas_status_name_fn>::value,
              "cublasGetStatusName");
static_assert(std::is_same<decltype(&cublasGemmEx_64), accel_cublas_gemm_ex_64_fn>::value,
              "cublasGemmEx_64");
static_assert(std::is_same<decltype(&cublasGemmStridedBatchedEx_64),
                           accel_cublas_gemm_strided_batched_ex_64_fn>::value,
              "cublasGemmStridedBatchedEx_64");

template <typename F>
static bool resolve(void *lib, const char *name, F *out, accel_cublas_api *api)
{
    return accel_cuda__dl_sym(lib, CUBLAS_SONAME, name, out, api->error, sizeof api->error);
}

extern "C" void accel_cuda__cublas_load(accel_cublas_api *api)
{
    memset(api, 0, sizeof *api);
    void *lib = accel_cuda__dl_open(CUBLAS_SONAME, api->error, sizeof api->error);
    if (!lib)
        return;
    if (resolve(lib, "cublasCreate_v2", &api->create, api) &&
        resolve(lib, "cublasDestroy_v2", &api->destroy, api) &&
        resolve(lib, "cublasSetStream_v2", &api->set_stream, api) &&
        resolve(lib, "cublasGetStatusName", &api->status_name, api) &&
        resolve(lib, "cublasGemmEx_64", &api->gemm_ex_64, api) &&
        resolve(lib, "cublasGemmStridedBatchedEx_64", &api->gemm_strided_batched_ex_64, api)) {
        api->loaded = 1;
        return;
    }
    /* Deliberately not dlclose'd on success either: unloading cuBLAS while
     * the process runs gains nothing and upsets leak checkers. */
    dlclose(lib);
}
