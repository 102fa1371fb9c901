/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* half.h — IEEE binary16 and bfloat16 conversions to and from binary32, with
 * round-to-nearest-even, NaN kept NaN (quieted) and overflow to infinity. Used
 * by GEMM on f16/bf16, which computes in f32. */
#ifndef ACCEL_CPU_HALF_H
#define ACCEL_CPU_HALF_H

#include <stdint.h>
#include <string.h>

static inline uint32_t accel_cpu_f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float accel_cpu_f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline float accel_cpu_bf16_to_f32(uint16_t h)
{
    return accel_cpu_f32_from_bits((uint32_t)h << 16);
}

static inline uint16_t accel_cpu_f32_to_bf16(float f)
{
    uint32_t u = accel_cpu_f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x0040u); /* quiet NaN, sign and top payload kept */
    u += 0x7fffu + ((u >> 16) & 1u);            /* nearest, ties to even; carries to Inf */
    return (uint16_t)(u >> 16);
}

static inline float accel_cpu_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    if (exp == 0x1f)
        return accel_cpu_f32_from_bits(sign | 0x7f800000u | (man << 13));
    if (exp == 0) {
        /* zero or subnormal: man * 2^-24, exact in binary32 */
        float v = (float)man * 0x1p-24f;
        return accel_cpu_f32_from_bits(sign | accel_cpu_f32_bits(v));
    }
    return accel_cpu_f32_from_bits(sign | ((exp + 112u) << 23) | (man << 13));
}

static inline uint16_t accel_cpu_f32_to_f16(float f)
{
    uint32_t u = accel_cpu_f32_bits(f);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    uint32_t a = u & 0x7fffffffu;
    if (a > 0x7f800000u)
        return (uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x3ffu)); /* quiet NaN */
    if (a >= 0x477ff000u)                                         /* >= 65520: rounds to Inf */
        return (uint16_t)(sign | 0x7c00u);
    if (a >= 0x38800000u) { /* normal in f16 (>= 2^-14): rebias, round at bit 13 */
        uint32_t r = a - 0x38000000u;
        r += 0xfffu + ((r >> 13) & 1u);
        return (uint16_t)(sign | (r >> 13));
    }
    /* Subnormal or zero: adding 0.5f (whose ulp is 2^-24, f16's subnormal
     * step) rounds |f| to a multiple of 2^-24 by the FPU's nearest-even; the
     * low bits are then the f16 mantissa (1024 becomes the smallest normal). */
    float v = accel_cpu_f32_from_bits(a) + 0.5f;
    return (uint16_t)(sign | (accel_cpu_f32_bits(v) - 0x3f000000u));
}

#endif /* ACCEL_CPU_HALF_H */
