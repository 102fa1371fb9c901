/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* vmath_avx2.c — the AVX2 + FMA half of vmath.c: SLEEF's 8-float and
 * 4-double u10 functions (1.0 ulp). Built with -mavx2 -mfma; vmath.c calls
 * it only on a CPU that has both. */
#include <math.h>
#include <string.h>

#include <immintrin.h>
#include <sleef.h>

#include "cpu.h"
#include "vmath_avx2.h"
#include "vmath_kernels.h"

typedef __m256 (*vmath_f8)(__m256);
typedef __m256d (*vmath_d4)(__m256d);

ACCEL_CPU_VMATH_PICK(pick_f8, vmath_f8, f8, avx2)
ACCEL_CPU_VMATH_PICK(pick_d4, vmath_d4, d4, avx2)

static inline int huge_f8(__m256 x)
{
    const __m256 ax = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x);
    return _mm256_movemask_ps(
        _mm256_cmp_ps(ax, _mm256_set1_ps(ACCEL_CPU_VMATH_TRIG_MAX_F32), _CMP_GT_OQ));
}

static inline int huge_d4(__m256d x)
{
    const __m256d ax = _mm256_andnot_pd(_mm256_set1_pd(-0.0), x);
    return _mm256_movemask_pd(
        _mm256_cmp_pd(ax, _mm256_set1_pd(ACCEL_CPU_VMATH_TRIG_MAX_F64), _CMP_GT_OQ));
}

ACCEL_CPU_VMATH_RUN(f8, float, __m256, 8, vmath_f8, _mm256_loadu_ps, _mm256_storeu_ps, fabsf,
                    huge_f8, ACCEL_CPU_VMATH_TRIG_MAX_F32, accel_cpu__vmath_libm_f32)
ACCEL_CPU_VMATH_RUN(d4, double, __m256d, 4, vmath_d4, _mm256_loadu_pd, _mm256_storeu_pd, fabs,
                    huge_d4, ACCEL_CPU_VMATH_TRIG_MAX_F64, accel_cpu__vmath_libm_f64)

void accel_cpu__vmath_f32_avx2(uint32_t op, const float *a, float *o, size_t n)
{
    run_f8(op, pick_f8(op), a, o, n);
}

void accel_cpu__vmath_f64_avx2(uint32_t op, const double *a, double *o, size_t n)
{
    run_d4(op, pick_d4(op), a, o, n);
}
