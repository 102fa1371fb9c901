/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* logistic.h — the logistic function (ACCEL_OP_SIGMOID) as the CPU and CUDA
 * backends evaluate it in double, header-only for host C and CUDA device
 * code alike, so that both round the same expression. Optional, like
 * philox.h: a backend may evaluate the op table's expression instead. */
#ifndef ACCEL_BACKEND_COMMON_LOGISTIC_H
#define ACCEL_BACKEND_COMMON_LOGISTIC_H

#if !defined(__CUDA_ARCH__)
#include <math.h>
#endif

#if defined(__CUDACC__)
#define ACCEL_LOGISTIC_FN static __host__ __device__ __forceinline__
#else
#define ACCEL_LOGISTIC_FN static inline
#endif

/* 1 / (1 + e^-x) without overflow: e^x / (1 + e^x) for x < 0, so that exp
 * only ever sees a non-positive argument. */
ACCEL_LOGISTIC_FN double accel_logistic(double x)
{
    if (x < 0) {
        double e = exp(x);
        return e / (1.0 + e);
    }
    return 1.0 / (1.0 + exp(-x));
}

#endif /* ACCEL_BACKEND_COMMON_LOGISTIC_H */
