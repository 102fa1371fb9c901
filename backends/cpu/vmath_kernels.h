/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* vmath_kernels.h — the loop templates of the vectorised transcendental
 * functions, written once for every vector width: the SSE2 loops of
 * vmath.c and the AVX2 loops of vmath_avx2.c (compiled with -mavx2 -mfma)
 * expand them. Not a header of either file: both include it. */
#ifndef ACCEL_CPU_VMATH_KERNELS_H
#define ACCEL_CPU_VMATH_KERNELS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "cpu.h"

/* SLEEF's sin and cos u10 hold their bound for |x| <= 1e28 (f32) and
 * 1e299 (f64) only (beyond: "an arbitrary value within [-1, 1]"); lanes
 * beyond are recomputed with glibc (f32 rounded once from double). */
#define ACCEL_CPU_VMATH_TRIG_MAX_F32 1e28f
#define ACCEL_CPU_VMATH_TRIG_MAX_F64 1e299
static inline int accel_cpu__vmath_trig(uint32_t op)
{
    return op == ACCEL_OP_SIN || op == ACCEL_OP_COS;
}
static inline float accel_cpu__vmath_libm_f32(uint32_t op, float x)
{
    return (float)(op == ACCEL_OP_SIN ? sin((double)x) : cos((double)x));
}
static inline double accel_cpu__vmath_libm_f64(uint32_t op, double x)
{
    return op == ACCEL_OP_SIN ? sin(x) : cos(x);
}

/* Float tanh: glibc's libmvec function of the tier's width where the build
 * found libmvec (ACCEL_CPU_HAVE_MVEC; glibc >= 2.35 on x86-64), MVEC its
 * x86-64 vector-ABI name, declared by the tier's file; else SLEEF's u10.
 * On the 2-core EPYC VM (glibc 2.36) one thread ran tanh of 2^24 float32
 * in 7.6 ms with the 16-float one against SLEEF's 25.1 (8-float: 18.5 and
 * 44.5). Its error, measured on every one of the 2^32 float32 inputs
 * against glibc's double tanh: 1.374 ulp for the 16-float function (at
 * 0x1.014e06p-1), 1.027 for the 8- and 4-float ones (at 0x1.0daba4p+1);
 * glibc documents no bound of its own for these, so docs/checking.md
 * states 1.5 ulp and test_ops checks it on a sweep. */
#if ACCEL_CPU_HAVE_MVEC
#define ACCEL_CPU_VMATH_TANHF(S, ISA, MVEC) MVEC
#else
#define ACCEL_CPU_VMATH_TANHF(S, ISA, MVEC) Sleef_tanh##S##_u10##ISA
#endif

// clang-format off
/* NAME(op): SLEEF's u10 function of op for vector suffix S ("f4", "d2",
 * "f8", "d4") and ISA ("" for SLEEF's own dispatcher, "avx2"), but TANH for
 * tanh (ACCEL_CPU_VMATH_TANHF for float, SLEEF's for double). */
#define ACCEL_CPU_VMATH_PICK(NAME, FN_T, S, ISA, TANH)                          \
    static FN_T NAME(uint32_t op)                                               \
    {                                                                           \
        switch (op) {                                                           \
        case ACCEL_OP_EXP: return Sleef_exp##S##_u10##ISA;                      \
        case ACCEL_OP_LOG: return Sleef_log##S##_u10##ISA;                      \
        case ACCEL_OP_TANH: return TANH;                                        \
        case ACCEL_OP_SIN: return Sleef_sin##S##_u10##ISA;                      \
        default: return Sleef_cos##S##_u10##ISA;                                \
        }                                                                       \
    }

/* run_SUF(op, f, a, o, n): o[i] = f(a[i]) over [0, n), W lanes of type T
 * (vector V) a step, the tail through the same f on a padded copy, and
 * lanes past SLEEF's trig range (HUGE(x) says whether any) through LIBM. */
#define ACCEL_CPU_VMATH_RUN(SUF, T, V, W, FN_T, LOAD, STORE, ABS, HUGE, LIMIT, LIBM) \
    static inline void step_##SUF(uint32_t op, FN_T f, const T *a, T *o)       \
    {                                                                           \
        const V x = LOAD(a);                                                    \
        STORE(o, f(x));                                                         \
        if (!accel_cpu__vmath_trig(op) || !HUGE(x))                             \
            return;                                                             \
        T xs[W];                                                                \
        STORE(xs, x);                                                           \
        for (int j = 0; j < W; ++j)                                             \
            if (ABS(xs[j]) > LIMIT)                                             \
                o[j] = LIBM(op, xs[j]);                                         \
    }                                                                           \
    static void run_##SUF(uint32_t op, FN_T f, const T *a, T *o, size_t n)      \
    {                                                                           \
        size_t i = 0;                                                           \
        for (; i + W <= n; i += W)                                              \
            step_##SUF(op, f, a + i, o + i);                                    \
        if (i < n) {                                                            \
            T t[W] = {0};                                                       \
            memcpy(t, a + i, (n - i) * sizeof *t);                              \
            step_##SUF(op, f, t, t);                                            \
            memcpy(o + i, t, (n - i) * sizeof *t);                              \
        }                                                                       \
    }
/* A vector tier of vmath.c: accel_cpu__vmath_f32_<ISA> and _f64_<ISA> over
 * SLEEF's u10 functions of suffixes SF (WF floats, vector VF) and SD (WD
 * doubles, VD), loaded and stored with the intrinsics of prefix P, and
 * float tanh through TANHF; the file defines huge_<SF> and huge_<SD> first. */
#define ACCEL_CPU_VMATH_TIER(ISA, SF, VF, WF, SD, VD, WD, P, TANHF)             \
    typedef VF (*vmath_##SF)(VF);                                               \
    typedef VD (*vmath_##SD)(VD);                                               \
    ACCEL_CPU_VMATH_PICK(pick_##SF, vmath_##SF, SF, ISA, TANHF)                 \
    ACCEL_CPU_VMATH_PICK(pick_##SD, vmath_##SD, SD, ISA, Sleef_tanh##SD##_u10##ISA) \
    ACCEL_CPU_VMATH_RUN(SF, float, VF, WF, vmath_##SF, P##_loadu_ps,            \
                        P##_storeu_ps, fabsf, huge_##SF,                        \
                        ACCEL_CPU_VMATH_TRIG_MAX_F32, accel_cpu__vmath_libm_f32) \
    ACCEL_CPU_VMATH_RUN(SD, double, VD, WD, vmath_##SD, P##_loadu_pd,           \
                        P##_storeu_pd, fabs, huge_##SD,                         \
                        ACCEL_CPU_VMATH_TRIG_MAX_F64, accel_cpu__vmath_libm_f64) \
    void accel_cpu__vmath_f32_##ISA(uint32_t op, const float *a, float *o,      \
                                    size_t n)                                   \
    {                                                                           \
        run_##SF(op, pick_##SF(op), a, o, n);                                   \
    }                                                                           \
    void accel_cpu__vmath_f64_##ISA(uint32_t op, const double *a, double *o,    \
                                    size_t n)                                   \
    {                                                                           \
        run_##SD(op, pick_##SD(op), a, o, n);                                   \
    }
// clang-format on

#endif
