/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* dl_open.h — opening a CUDA toolkit library at run time (cuBLAS by
 * cublas_loader.cu, NCCL by nccl.c): by soname, then from the toolkit the
 * plugin was built against, and resolving its symbols with a message that
 * names what is missing. */
#ifndef ACCEL_CUDA_DL_OPEN_H
#define ACCEL_CUDA_DL_OPEN_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* dlopen(soname, RTLD_NOW | RTLD_LOCAL) through the loader's search path,
 * else from ACCEL_CUDA_TOOLKIT_LIBDIR; NULL with "cannot load SONAME: WHY"
 * in err (cap bytes). */
void *accel_cuda__dl_open(const char *soname, char *err, size_t cap);

/* Symbol name of lib (opened as soname) into the function pointer at out;
 * false with "SONAME: symbol NAME missing" in err (cap bytes). */
bool accel_cuda__dl_sym(void *lib, const char *soname, const char *name, void *out, char *err,
                        size_t cap);

#ifdef __cplusplus
}
#endif
#endif /* ACCEL_CUDA_DL_OPEN_H */
