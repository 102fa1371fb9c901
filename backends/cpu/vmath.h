/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* vmath.h — the CPU backend's vectorised transcendental functions (vmath.c,
 * SLEEF u10: within 1.0 ulp of the exact value; float32 tanh libmvec's,
 * within 1.5). Built where SLEEF is found
 * on x86-64 (ACCEL_CPU_HAVE_SLEEF); elementwise.c uses libm otherwise. */
#ifndef ACCEL_CPU_VMATH_H
#define ACCEL_CPU_VMATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* True for the ops vmath computes: exp, log, tanh, sin, cos. */
bool accel_cpu__vmath_handles(uint32_t op);

/* o[i] = f(a[i]) for i in [0, n), f the op (one that vmath handles). o may
 * equal a (in place); otherwise the ranges must not overlap. */
void accel_cpu__vmath_f32(uint32_t op, const float *a, float *o, size_t n);
void accel_cpu__vmath_f64(uint32_t op, const double *a, double *o, size_t n);

#endif
