/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* vmath.c — exp, log, tanh, sin and cos on f32 and f64 through SLEEF's
 * vectorised functions (Debian: libsleef-dev), in place of scalar libm in a
 * loop.
 *
 * Accuracy: the u10 family, whose error bound SLEEF documents as 1.0 ulp
 * for each of these ten functions (SLEEF reference,
 * "Math library": Sleef_expf_u10 ... Sleef_cosd_u10, the vector versions
 * share the scalar bounds), with C99 Annex F special values (NaN in, NaN out;
 * exp overflow +Inf; log(0) -Inf, log(x < 0) NaN). sin and cos keep the
 * bound for |x| <= 1e28 (f32) and 1e299 (f64) only: lanes beyond go through
 * glibc (vmath.h). docs/checking.md states the CPU's bound as 1 ulp from
 * the exact value. Float32 tanh is glibc libmvec's where the build found
 * it: 3 to 4 times faster, within 1.5 ulp (vmath_kernels.h).
 *
 * Where the CPU has AVX-512F the 16-float / 8-double functions run
 * (vmath_avx512.c, built with -mavx512f); where it has AVX2 and FMA the
 * 8-float / 4-double ones (vmath_avx2.c, built with -mavx2 -mfma); else the
 * 4-float / 2-double SSE2
 * ones, which SLEEF's dispatcher sends to its SSE4.1 code where present. The
 * tail of a range goes through the same vector function on a padded copy, so
 * every element of one run gets the same function, however the range is
 * split among threads. */
#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <emmintrin.h>
#include <sleef.h>

#include "cpu.h"
#include "vmath.h"
#include "vmath_avx2.h"
#include "vmath_kernels.h"

typedef __m128 (*vmath_f4)(__m128);
typedef __m128d (*vmath_d2)(__m128d);

/* The widest tier to use: 3 AVX-512, 2 AVX2, 1 SSE2; ACCEL_CPU_VMATH=avx2
 * or sse2 caps it (so that the tests reach the narrower tiers on a CPU
 * that has the wider ones; docs/config.md). Read once. */
static int vmath_cap(void)
{
    static _Atomic int cap = 0;
    int c = atomic_load_explicit(&cap, memory_order_relaxed);
    if (c == 0) {
        const char *e = getenv("ACCEL_CPU_VMATH");
        c = e && strcmp(e, "sse2") == 0 ? 1 : e && strcmp(e, "avx2") == 0 ? 2 : 3;
        atomic_store_explicit(&cap, c, memory_order_relaxed);
    }
    return c;
}

/* Once per block of elements: cheap (libgcc reads CPUID at load time). */
static bool vmath_avx2(void)
{
    return vmath_cap() >= 2 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

static bool vmath_avx512(void)
{
    return vmath_cap() >= 3 && __builtin_cpu_supports("avx512f");
}

bool accel_cpu__vmath_handles(uint32_t op)
{
    return op == ACCEL_OP_EXP || op == ACCEL_OP_LOG || op == ACCEL_OP_TANH || op == ACCEL_OP_SIN ||
           op == ACCEL_OP_COS;
}

#if ACCEL_CPU_HAVE_MVEC
__m128 _ZGVbN4v_tanhf(__m128); /* glibc libmvec, SSE4 (SSE2 entry) */
#endif
ACCEL_CPU_VMATH_PICK(pick_f4, vmath_f4, f4, , ACCEL_CPU_VMATH_TANHF(f4, , _ZGVbN4v_tanhf))
ACCEL_CPU_VMATH_PICK(pick_d2, vmath_d2, d2, , Sleef_tanhd2_u10)

static inline int huge_f4(__m128 x)
{
    const __m128 ax = _mm_andnot_ps(_mm_set1_ps(-0.0f), x);
    return _mm_movemask_ps(_mm_cmpgt_ps(ax, _mm_set1_ps(ACCEL_CPU_VMATH_TRIG_MAX_F32)));
}

static inline int huge_d2(__m128d x)
{
    const __m128d ax = _mm_andnot_pd(_mm_set1_pd(-0.0), x);
    return _mm_movemask_pd(_mm_cmpgt_pd(ax, _mm_set1_pd(ACCEL_CPU_VMATH_TRIG_MAX_F64)));
}

ACCEL_CPU_VMATH_RUN(f4, float, __m128, 4, vmath_f4, _mm_loadu_ps, _mm_storeu_ps, fabsf, huge_f4,
                    ACCEL_CPU_VMATH_TRIG_MAX_F32, accel_cpu__vmath_libm_f32)
ACCEL_CPU_VMATH_RUN(d2, double, __m128d, 2, vmath_d2, _mm_loadu_pd, _mm_storeu_pd, fabs, huge_d2,
                    ACCEL_CPU_VMATH_TRIG_MAX_F64, accel_cpu__vmath_libm_f64)

void accel_cpu__vmath_f32(uint32_t op, const float *a, float *o, size_t n)
{
    if (vmath_avx512())
        accel_cpu__vmath_f32_avx512f(op, a, o, n);
    else if (vmath_avx2())
        accel_cpu__vmath_f32_avx2(op, a, o, n);
    else
        run_f4(op, pick_f4(op), a, o, n);
}

void accel_cpu__vmath_f64(uint32_t op, const double *a, double *o, size_t n)
{
    if (vmath_avx512())
        accel_cpu__vmath_f64_avx512f(op, a, o, n);
    else if (vmath_avx2())
        accel_cpu__vmath_f64_avx2(op, a, o, n);
    else
        run_d2(op, pick_d2(op), a, o, n);
}
