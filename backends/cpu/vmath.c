/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* vmath.c — exp, log, tanh, sin and cos on f32 and f64 through SLEEF's
 * vectorised functions (Debian: libsleef-dev), in place of scalar libm in a
 * loop.
 *
 * Accuracy: the u10 family, whose error bound SLEEF documents as 1.0 ulp
 * over the whole domain for each of these ten functions (SLEEF reference,
 * "Math library": Sleef_expf_u10 ... Sleef_cosd_u10, the vector versions
 * share the scalar bounds), with C99 Annex F special values (NaN in, NaN out;
 * exp overflow +Inf; log(0) -Inf, log(x < 0) NaN). docs/checking.md states
 * the CPU's bound as 1 ulp from the exact value.
 *
 * Where the CPU has AVX2 and FMA the 8-float / 4-double functions run
 * (vmath_avx2.c, built with -mavx2 -mfma); else the 4-float / 2-double SSE2
 * ones, which SLEEF's dispatcher sends to its SSE4.1 code where present. The
 * tail of a range goes through the same vector function on a padded copy, so
 * every element of one run gets the same function, however the range is
 * split among threads. */
#include <stdbool.h>
#include <string.h>

#include <emmintrin.h>
#include <sleef.h>

#include "cpu.h"
#include "vmath.h"

typedef __m128 (*vmath_f4)(__m128);
typedef __m128d (*vmath_d2)(__m128d);

static bool vmath_avx2(void)
{
    static int have = -1; /* benign race: every thread computes the same value */
    if (have < 0)
        have = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return have != 0;
}

bool accel_cpu__vmath_handles(uint32_t op)
{
    return op == ACCEL_OP_EXP || op == ACCEL_OP_LOG || op == ACCEL_OP_TANH || op == ACCEL_OP_SIN ||
           op == ACCEL_OP_COS;
}

static vmath_f4 pick_f4(uint32_t op)
{
    switch (op) {
    case ACCEL_OP_EXP:
        return Sleef_expf4_u10;
    case ACCEL_OP_LOG:
        return Sleef_logf4_u10;
    case ACCEL_OP_TANH:
        return Sleef_tanhf4_u10;
    case ACCEL_OP_SIN:
        return Sleef_sinf4_u10;
    default:
        return Sleef_cosf4_u10;
    }
}

static vmath_d2 pick_d2(uint32_t op)
{
    switch (op) {
    case ACCEL_OP_EXP:
        return Sleef_expd2_u10;
    case ACCEL_OP_LOG:
        return Sleef_logd2_u10;
    case ACCEL_OP_TANH:
        return Sleef_tanhd2_u10;
    case ACCEL_OP_SIN:
        return Sleef_sind2_u10;
    default:
        return Sleef_cosd2_u10;
    }
}

void accel_cpu__vmath_f32(uint32_t op, const float *a, float *o, size_t n)
{
    if (vmath_avx2()) {
        accel_cpu__vmath_f32_avx2(op, a, o, n);
        return;
    }
    vmath_f4 f = pick_f4(op);
    size_t i = 0;
    for (; i + 4 <= n; i += 4)
        _mm_storeu_ps(o + i, f(_mm_loadu_ps(a + i)));
    if (i < n) {
        float t[4] = {0};
        memcpy(t, a + i, (n - i) * sizeof *t);
        _mm_storeu_ps(t, f(_mm_loadu_ps(t)));
        memcpy(o + i, t, (n - i) * sizeof *t);
    }
}

void accel_cpu__vmath_f64(uint32_t op, const double *a, double *o, size_t n)
{
    if (vmath_avx2()) {
        accel_cpu__vmath_f64_avx2(op, a, o, n);
        return;
    }
    vmath_d2 f = pick_d2(op);
    size_t i = 0;
    for (; i + 2 <= n; i += 2)
        _mm_storeu_pd(o + i, f(_mm_loadu_pd(a + i)));
    if (i < n) {
        double t[2] = {0};
        memcpy(t, a + i, (n - i) * sizeof *t);
        _mm_storeu_pd(t, f(_mm_loadu_pd(t)));
        memcpy(o + i, t, (n - i) * sizeof *t);
    }
}
