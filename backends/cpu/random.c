/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* random.c — uniform and normal fills from the Philox4x32-10 stream of
 * backends/common/philox.h, with the mapping of accel.h: out[i] is stream
 * element rng_offset + i. Uniform is bit-identical with every backend that
 * uses the same header. Normal is Box-Muller on pairs p = e / 2 (elements 2p
 * and 2p+1, open interval (0,1]): out[2p] = mean + stddev*r*cos(2 pi u2),
 * out[2p+1] = mean + stddev*r*sin(2 pi u2), r = sqrt(-2 ln u1); f32 in
 * single precision (accel.h gives the steps), f64 in double, with glibc
 * libm, so an odd offset or count simply takes the sine or cosine half of
 * its pair. Work is split over fixed output blocks; every element depends
 * only on (seed, e). */
#include <math.h>

#include "common/philox.h"
#include "cpu.h"

#define TWO_PI 6.283185307179586476925286766559
#define TWO_PI_F 6.28318530717958647692f

static void uniform_f32(float *out, size_t lo, size_t hi, uint64_t seed, uint64_t off)
{
    size_t i = lo;
    while (i < hi) {
        uint64_t e = off + i;
        accel_philox_words w = accel_philox_block(e >> 2, seed);
        for (uint32_t j = (uint32_t)(e & 3u); j < 4 && i < hi; ++j, ++i)
            out[i] = (float)(w.w[j] >> 8) * 0x1p-24f;
    }
}

static void uniform_f64(double *out, size_t lo, size_t hi, uint64_t seed, uint64_t off)
{
    size_t i = lo;
    while (i < hi) {
        uint64_t e = off + i;
        accel_philox_words w = accel_philox_block(e >> 1, seed);
        for (uint32_t j = (uint32_t)(e & 1u); j < 2 && i < hi; ++j, ++i) {
            uint64_t bits = (((uint64_t)w.w[2 * j] << 32) | w.w[2 * j + 1]) >> 11;
            out[i] = (double)bits * 0x1p-53;
        }
    }
}

/* f64: the two (0,1] draws of pair p (elements 2p, 2p+1: one Philox block). */
static inline void pair_draws_f64(uint64_t seed, uint64_t p, double *u1, double *u2)
{
    accel_philox_words w = accel_philox_block(p, seed);
    uint64_t b1 = (((uint64_t)w.w[0] << 32) | w.w[1]) >> 11;
    uint64_t b2 = (((uint64_t)w.w[2] << 32) | w.w[3]) >> 11;
    *u1 = (double)(b1 + 1u) * 0x1p-53;
    *u2 = (double)(b2 + 1u) * 0x1p-53;
}

static void normal_f64(const accel_cpu_op *op, size_t lo, size_t hi)
{
    const double mean = op->scalars[0], sd = op->scalars[1];
    double *o = op->ptr[0];
    size_t i = lo;
    while (i < hi) {
        uint64_t e = op->rng_offset + i;
        double u1, u2;
        pair_draws_f64(op->seed, e >> 1, &u1, &u2);
        double r = sqrt(-2.0 * log(u1));
        double theta = TWO_PI * u2;
        double s, c;
        /* Even e is the cosine half; its sine partner follows when in range. */
        int first = (int)(e & 1u), last = (first == 0 && hi - i >= 2) ? 1 : first;
        if (first != last)
            sincos(theta, &s, &c);
        else if (first)
            s = sin(theta), c = 0.0;
        else
            c = cos(theta), s = 0.0;
        for (int half = first; half <= last; ++half, ++i)
            o[i] = mean + sd * r * (half ? s : c);
    }
}

/* f32: accel.h's single-precision formula, each step one float operation
 * (built with -ffp-contract=off: nothing fused but the one fmaf the formula
 * names), glibc's logf and sincosf. */
static void normal_f32(const accel_cpu_op *op, size_t lo, size_t hi)
{
    const float mean = (float)op->scalars[0], sd = (float)op->scalars[1];
    float *o = op->ptr[0];
    size_t i = lo;
    while (i < hi) {
        uint64_t e = op->rng_offset + i;
        /* Elements 2p and 2p+1 share one Philox block. */
        accel_philox_words w = accel_philox_block(e >> 2, op->seed);
        uint32_t j = (uint32_t)(e & 2u);
        float u1 = (float)((w.w[j] >> 8) + 1u) * 0x1p-24f;
        float u2 = (float)((w.w[j + 1] >> 8) + 1u) * 0x1p-24f;
        float r = sqrtf(-2.0f * logf(u1));
        float theta = TWO_PI_F * u2;
        float s, c;
        sincosf(theta, &s, &c);
        float sr = sd * r;
        for (int half = (int)(e & 1u); half <= 1 && i < hi; ++half, ++i)
            o[i] = fmaf(sr, half ? s : c, mean);
    }
}

static void random_block(const accel_cpu_op *op, size_t lo, size_t hi)
{
    if (op->op == ACCEL_OP_RANDOM_NORMAL && op->dtype == ACCEL_F32)
        normal_f32(op, lo, hi);
    else if (op->op == ACCEL_OP_RANDOM_NORMAL)
        normal_f64(op, lo, hi);
    else if (op->dtype == ACCEL_F32)
        uniform_f32(op->ptr[0], lo, hi, op->seed, op->rng_offset);
    else
        uniform_f64(op->ptr[0], lo, hi, op->seed, op->rng_offset);
}

void accel_cpu__random(const accel_cpu_op *op, int nt)
{
    const size_t n = op->count[0];
    const size_t nb = (n + ACCEL_CPU_EW_BLOCK - 1) / ACCEL_CPU_EW_BLOCK;
    ACCEL_CPU_FOR_BLOCKS(b, nb, size_t lo = b * ACCEL_CPU_EW_BLOCK;
                         size_t hi = n - lo < ACCEL_CPU_EW_BLOCK ? n : lo + ACCEL_CPU_EW_BLOCK;
                         random_block(op, lo, hi));
}
