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

#if ACCEL_CPU_HAVE_MVEC
__m256 _ZGVdN8v_tanhf(__m256); /* glibc libmvec, AVX2 */
#endif
ACCEL_CPU_VMATH_TIER(avx2, f8, __m256, 8, d4, __m256d, 4, _mm256,
                     ACCEL_CPU_VMATH_TANHF(f8, avx2, _ZGVdN8v_tanhf))
