/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* philox.h — Philox4x32-10 counter-based generator and accel's mapping from
 * stream elements to uniform and normal numbers, header-only so that every
 * backend (C and CUDA) produces the same bits for the same (seed, offset).
 * Algorithm: Salmon, Moraes, Dror, Shaw, "Parallel random numbers: as easy as
 * 1, 2, 3", SC 2011 (Random123). The mapping is specified in accel.h at
 * accel_random_uniform / accel_random_normal. */
#ifndef ACCEL_PHILOX_H
#define ACCEL_PHILOX_H

#include <stdint.h>
#if !defined(__CUDA_ARCH__)
#include <math.h>
#include <string.h>
#endif

#if defined(__CUDACC__)
#define ACCEL_PHILOX_FN static __host__ __device__ __forceinline__
#else
#define ACCEL_PHILOX_FN static inline
#endif

#define ACCEL_PHILOX_M0 0xD2511F53u
#define ACCEL_PHILOX_M1 0xCD9E8D57u
#define ACCEL_PHILOX_W0 0x9E3779B9u
#define ACCEL_PHILOX_W1 0xBB67AE85u

typedef struct accel_philox_words {
    uint32_t w[4];
} accel_philox_words;

/* The key of each of the 10 rounds: k[r] = (k0 + r W0, k1 + r W1) mod 2^32.
 * A kernel computes it once and takes it as a parameter, so the rounds read
 * their keys from the parameter bank instead of holding or recomputing 20
 * words per thread. */
typedef struct accel_philox_keys {
    uint32_t k[10][2];
} accel_philox_keys;

ACCEL_PHILOX_FN accel_philox_keys accel_philox_schedule(uint32_t k0, uint32_t k1)
{
    accel_philox_keys ks;
    for (int round = 0; round < 10; ++round) {
        ks.k[round][0] = k0 + (uint32_t)round * ACCEL_PHILOX_W0;
        ks.k[round][1] = k1 + (uint32_t)round * ACCEL_PHILOX_W1;
    }
    return ks;
}

/* Philox4x32 with 10 rounds on counter (c0..c3) under the key schedule ks. */
ACCEL_PHILOX_FN accel_philox_words accel_philox4x32_10_keyed(uint32_t c0, uint32_t c1, uint32_t c2,
                                                             uint32_t c3,
                                                             const accel_philox_keys *ks)
{
    for (int round = 0; round < 10; ++round) {
#if defined(__CUDA_ARCH__)
        /* The same products as below; written as 64-bit products, nvcc adds
         * a zero to each high word after its IMAD.WIDE (sm_90, CUDA 13: 19
         * of the 82 instructions per counter of a uniform fill). */
        uint32_t hi0 = __umulhi(ACCEL_PHILOX_M0, c0), lo0 = ACCEL_PHILOX_M0 * c0;
        uint32_t hi1 = __umulhi(ACCEL_PHILOX_M1, c2), lo1 = ACCEL_PHILOX_M1 * c2;
#else
        uint64_t p0 = (uint64_t)ACCEL_PHILOX_M0 * c0;
        uint64_t p1 = (uint64_t)ACCEL_PHILOX_M1 * c2;
        uint32_t hi0 = (uint32_t)(p0 >> 32), lo0 = (uint32_t)p0;
        uint32_t hi1 = (uint32_t)(p1 >> 32), lo1 = (uint32_t)p1;
#endif
        uint32_t n0 = hi1 ^ c1 ^ ks->k[round][0];
        uint32_t n2 = hi0 ^ c3 ^ ks->k[round][1];
        c0 = n0;
        c1 = lo1;
        c2 = n2;
        c3 = lo0;
    }
    accel_philox_words r = {{c0, c1, c2, c3}};
    return r;
}

/* Philox4x32 with 10 rounds on counter (c0..c3) and key (k0, k1). */
ACCEL_PHILOX_FN accel_philox_words accel_philox4x32_10(uint32_t c0, uint32_t c1, uint32_t c2,
                                                       uint32_t c3, uint32_t k0, uint32_t k1)
{
    accel_philox_keys ks = accel_philox_schedule(k0, k1);
    return accel_philox4x32_10_keyed(c0, c1, c2, c3, &ks);
}

/* The four words for 64-bit counter c under a 64-bit seed. */
ACCEL_PHILOX_FN accel_philox_words accel_philox_block(uint64_t c, uint64_t seed)
{
    return accel_philox4x32_10((uint32_t)c, (uint32_t)(c >> 32), 0u, 0u, (uint32_t)seed,
                               (uint32_t)(seed >> 32));
}

/* Stream element e as f32 in [0,1): 24 bits, exact in binary32. */
ACCEL_PHILOX_FN float accel_philox_uniform_f32(uint64_t seed, uint64_t e)
{
    accel_philox_words r = accel_philox_block(e >> 2, seed);
    return (float)(r.w[e & 3u] >> 8) * 0x1p-24f;
}

/* Stream element e as f64 in [0,1): 53 bits, exact in binary64. */
ACCEL_PHILOX_FN double accel_philox_uniform_f64(uint64_t seed, uint64_t e)
{
    accel_philox_words r = accel_philox_block(e >> 1, seed);
    uint32_t j = (uint32_t)(e & 1u) * 2u;
    uint64_t bits = (((uint64_t)r.w[j] << 32) | r.w[j + 1]) >> 11;
    return (double)bits * 0x1p-53;
}

/* The same draws mapped to (0,1], for logarithms in Box-Muller. */
ACCEL_PHILOX_FN float accel_philox_open_f32(uint64_t seed, uint64_t e)
{
    accel_philox_words r = accel_philox_block(e >> 2, seed);
    return (float)((r.w[e & 3u] >> 8) + 1u) * 0x1p-24f;
}

ACCEL_PHILOX_FN double accel_philox_open_f64(uint64_t seed, uint64_t e)
{
    accel_philox_words r = accel_philox_block(e >> 1, seed);
    uint32_t j = (uint32_t)(e & 1u) * 2u;
    uint64_t bits = (((uint64_t)r.w[j] << 32) | r.w[j + 1]) >> 11;
    return (double)(bits + 1u) * 0x1p-53;
}

/* Box-Muller's L = -2 ln(u1) for the open f32 draw u1 = d * 2^-24, d =
 * (w >> 8) + 1 in [1, 2^24]: u1 = 2^k * m with m in [2/3, 4/3), ln u1 =
 * k ln 2 + log1p(f), f = m - 1, log1p(f) = f + f^2 Q(f), Q of degree 6
 * fitted for this header (weighted least squares refined by Lawson's
 * iteration toward minimax error in ulps of -2 ln u1 on [-1/3, 1/3], then
 * each float coefficient moved ulp by ulp while that lowered the largest
 * error over all 2^24 draws; degree 8 reached 0.90 ulp with two fused
 * multiply-adds more, which the GPU's normal fill, bound by instruction
 * issue, pays for every pair of outputs). Every
 * step is evaluated times -2 (Horner on g = -2f = 2 - 2m, exact, with Q's
 * coefficients times powers of -1/2; scaling by a power of two commutes with
 * rounding), and u1's bits are those of (float)d less 24 << 23, folded into
 * the integer steps, which give 2m at once: no multiply by -2 or by 2^-24.
 * Each step is one correctly rounded float operation or fmaf, so every
 * backend that uses it gets the same bits; within 2.19 ulp of -2 ln u1 for
 * each of the 2^24 draws, and 0 for d = 2^24 (tests/test_philox.c checks
 * them all). No special cases (zero, subnormals, infinity, NaN): 15
 * instructions on a GPU (sm_90, the conversion of d included) against 26
 * for CUDA's logf with the conversion and the multiply. d outside
 * [1, 2^24]: not a logarithm. */
ACCEL_PHILOX_FN float accel_philox_neg2log_f32(uint32_t d)
{
    float x = (float)d; /* exact: d <= 2^24 */
#if defined(__CUDA_ARCH__)
    int32_t b = __float_as_int(x);
#else
    int32_t b;
    memcpy(&b, &x, sizeof b);
#endif
    /* k * 2^23 for u1 = x * 2^-24: the exponent that puts the mantissa in
     * [2/3, 4/3) (0x3f2aaaab: the bits of 2/3 rounded up). */
    int32_t k = (int32_t)(((uint32_t)b - (0x3f2aaaabu + (24u << 23))) & 0xff800000u);
    int32_t mb = b - (int32_t)(23u << 23) - k; /* 2m: one exponent step less off */
    float m2;
#if defined(__CUDA_ARCH__)
    m2 = __int_as_float(mb);
#else
    memcpy(&m2, &mb, sizeof m2);
#endif
    float g = 2.0f - m2; /* -2 (m - 1), exact (Sterbenz: 2m in [4/3, 8/3)) */
    /* Q's coefficients c_i (c_0 .. c_6) times (-1/2)^(i+1). */
    float q = -0.163865328f * -0x1p-7f;
    q = fmaf(q, g, 0.171925589f * 0x1p-6f);
    q = fmaf(q, g, -0.161839962f * -0x1p-5f);
    q = fmaf(q, g, 0.197844028f * 0x1p-4f);
    q = fmaf(q, g, -0.250248104f * -0x1p-3f);
    q = fmaf(q, g, 0.33338064f * 0x1p-2f);
    q = fmaf(q, g, -0.49999547f * -0x1p-1f);
    /* -2 log1p(f) = g + g^2 (-Q(f) / 2). */
    float r = fmaf(g * g, q, g);
    /* (float)k is exact (a multiple of 2^23 below 2^28); -2 ln2_f * 2^-23 too. */
    return fmaf((float)k, -2.0f * 0.693147182464599609375f * 0x1p-23f, r);
}

#endif /* ACCEL_PHILOX_H */
