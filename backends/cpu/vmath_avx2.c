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
#include "vmath.h"

typedef __m256 (*vmath_f8)(__m256);
typedef __m256d (*vmath_d4)(__m256d);

static vmath_f8 pick_f8(uint32_t op)
{
    switch (op) {
    case ACCEL_OP_EXP:
        return Sleef_expf8_u10avx2;
    case ACCEL_OP_LOG:
        return Sleef_logf8_u10avx2;
    case ACCEL_OP_TANH:
        return Sleef_tanhf8_u10avx2;
    case ACCEL_OP_SIN:
        return Sleef_sinf8_u10avx2;
    default:
        return Sleef_cosf8_u10avx2;
    }
}

static vmath_d4 pick_d4(uint32_t op)
{
    switch (op) {
    case ACCEL_OP_EXP:
        return Sleef_expd4_u10avx2;
    case ACCEL_OP_LOG:
        return Sleef_logd4_u10avx2;
    case ACCEL_OP_TANH:
        return Sleef_tanhd4_u10avx2;
    case ACCEL_OP_SIN:
        return Sleef_sind4_u10avx2;
    default:
        return Sleef_cosd4_u10avx2;
    }
}

/* o[0..8) = f(a[0..8)), lanes past SLEEF's trig range through libm. */
static inline void step_f8(uint32_t op, vmath_f8 f, const float *a, float *o)
{
    const __m256 x = _mm256_loadu_ps(a);
    _mm256_storeu_ps(o, f(x));
    if (!accel_cpu__vmath_trig(op))
        return;
    const __m256 ax = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x);
    if (_mm256_movemask_ps(
            _mm256_cmp_ps(ax, _mm256_set1_ps(ACCEL_CPU_VMATH_TRIG_MAX_F32), _CMP_GT_OQ))) {
        float xs[8];
        _mm256_storeu_ps(xs, x);
        for (int j = 0; j < 8; ++j)
            if (fabsf(xs[j]) > ACCEL_CPU_VMATH_TRIG_MAX_F32)
                o[j] = accel_cpu__vmath_libm_f32(op, xs[j]);
    }
}

static inline void step_d4(uint32_t op, vmath_d4 f, const double *a, double *o)
{
    const __m256d x = _mm256_loadu_pd(a);
    _mm256_storeu_pd(o, f(x));
    if (!accel_cpu__vmath_trig(op))
        return;
    const __m256d ax = _mm256_andnot_pd(_mm256_set1_pd(-0.0), x);
    if (_mm256_movemask_pd(
            _mm256_cmp_pd(ax, _mm256_set1_pd(ACCEL_CPU_VMATH_TRIG_MAX_F64), _CMP_GT_OQ))) {
        double xs[4];
        _mm256_storeu_pd(xs, x);
        for (int j = 0; j < 4; ++j)
            if (fabs(xs[j]) > ACCEL_CPU_VMATH_TRIG_MAX_F64)
                o[j] = accel_cpu__vmath_libm_f64(op, xs[j]);
    }
}

void accel_cpu__vmath_f32_avx2(uint32_t op, const float *a, float *o, size_t n)
{
    vmath_f8 f = pick_f8(op);
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        step_f8(op, f, a + i, o + i);
    if (i < n) {
        float t[8] = {0};
        memcpy(t, a + i, (n - i) * sizeof *t);
        step_f8(op, f, t, t);
        memcpy(o + i, t, (n - i) * sizeof *t);
    }
}

void accel_cpu__vmath_f64_avx2(uint32_t op, const double *a, double *o, size_t n)
{
    vmath_d4 f = pick_d4(op);
    size_t i = 0;
    for (; i + 4 <= n; i += 4)
        step_d4(op, f, a + i, o + i);
    if (i < n) {
        double t[4] = {0};
        memcpy(t, a + i, (n - i) * sizeof *t);
        step_d4(op, f, t, t);
        memcpy(o + i, t, (n - i) * sizeof *t);
    }
}
