/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* vmath_avx2.h — the AVX2 + FMA loops of vmath_avx2.c and the AVX-512 ones
 * of vmath_avx512.c, which vmath.c calls where the CPU has them. */
#ifndef ACCEL_CPU_VMATH_AVX2_H
#define ACCEL_CPU_VMATH_AVX2_H

#include <stddef.h>
#include <stdint.h>

/* Call only where the CPU has AVX2 and FMA. */
void accel_cpu__vmath_f32_avx2(uint32_t op, const float *a, float *o, size_t n);
void accel_cpu__vmath_f64_avx2(uint32_t op, const double *a, double *o, size_t n);
/* Call only where the CPU has AVX-512F. */
void accel_cpu__vmath_f32_avx512f(uint32_t op, const float *a, float *o, size_t n);
void accel_cpu__vmath_f64_avx512f(uint32_t op, const double *a, double *o, size_t n);

#endif
