/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* vmath.h — the CPU backend's vectorised transcendental functions (vmath.c,
 * SLEEF u10: within 1.0 ulp of the exact value). Built where SLEEF is found
 * on x86-64 (ACCEL_CPU_HAVE_SLEEF); elementwise.c uses libm otherwise. */
#ifndef ACCEL_CPU_VMATH_H
#define ACCEL_CPU_VMATH_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu.h"

/* True for the ops vmath computes: exp, log, tanh, sin, cos. */
bool accel_cpu__vmath_handles(uint32_t op);

/* o[i] = f(a[i]) for i in [0, n), f the op (one that vmath handles). o may
 * equal a (in place); otherwise the ranges must not overlap. */
void accel_cpu__vmath_f32(uint32_t op, const float *a, float *o, size_t n);
void accel_cpu__vmath_f64(uint32_t op, const double *a, double *o, size_t n);

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

/* The AVX2 + FMA versions (vmath_avx2.c); call only where the CPU has both. */
void accel_cpu__vmath_f32_avx2(uint32_t op, const float *a, float *o, size_t n);
void accel_cpu__vmath_f64_avx2(uint32_t op, const double *a, double *o, size_t n);

#endif
