/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* vmath_avx512.c — the AVX-512 third of vmath.c: SLEEF's 16-float and
 * 8-double u10 functions (1.0 ulp, the same bound as the narrower ones).
 * Built with -mavx512f; vmath.c calls it only on a CPU that has it. On the
 * 2-core EPYC VM (Zen 4) one thread ran 2^24 float32 log in 9.6 ms against
 * 19.7 with the 8-float functions, cos 11.8 against 20.0, tanh 24.6
 * against 36.9 (docs/performance.md). */
#include <math.h>
#include <string.h>

#include <immintrin.h>
#include <sleef.h>

#include "cpu.h"
#include "vmath_avx2.h"
#include "vmath_kernels.h"

static inline int huge_f16(__m512 x)
{
    return _mm512_cmp_ps_mask(_mm512_abs_ps(x), _mm512_set1_ps(ACCEL_CPU_VMATH_TRIG_MAX_F32),
                              _CMP_GT_OQ) != 0;
}

static inline int huge_d8(__m512d x)
{
    return _mm512_cmp_pd_mask(_mm512_abs_pd(x), _mm512_set1_pd(ACCEL_CPU_VMATH_TRIG_MAX_F64),
                              _CMP_GT_OQ) != 0;
}

#if ACCEL_CPU_HAVE_MVEC
__m512 _ZGVeN16v_tanhf(__m512); /* glibc libmvec, AVX-512 */
#endif
ACCEL_CPU_VMATH_TIER(avx512f, f16, __m512, 16, d8, __m512d, 8, _mm512,
                     ACCEL_CPU_VMATH_TANHF(f16, avx512f, _ZGVeN16v_tanhf))
