/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_philox.c — backends/common/philox.h: Philox4x32-10 against the
 * known-answer vectors of Random123 (kat_vectors, philox4x32_10), and the
 * uniform/open mappings against the formulas written in accel.h
 * (accel_random_uniform, accel_random_normal), evaluated here by hand. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>

#include "philox.h"
#include "test_util.h"

static void expect_words(accel_philox_words got, uint32_t w0, uint32_t w1, uint32_t w2, uint32_t w3)
{
    cr_assert(got.w[0] == w0 && got.w[1] == w1 && got.w[2] == w2 && got.w[3] == w3,
              "got %08x %08x %08x %08x, expected %08x %08x %08x %08x", got.w[0], got.w[1], got.w[2],
              got.w[3], w0, w1, w2, w3);
}

Test(philox, kat_zero_counter_zero_key)
{
    expect_words(accel_philox4x32_10(0, 0, 0, 0, 0, 0), 0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu,
                 0x9b00dbd8u);
}

Test(philox, kat_all_ones)
{
    const uint32_t f = 0xffffffffu;
    expect_words(accel_philox4x32_10(f, f, f, f, f, f), 0x408f276du, 0x41c83b0eu, 0xa20bc7c6u,
                 0x6d5451fdu);
}

Test(philox, kat_pi_digits)
{
    expect_words(accel_philox4x32_10(0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u,
                                     0xa4093822u, 0x299f31d0u),
                 0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u);
}

/* The block of counter c, seed s is philox((lo32 c, hi32 c, 0, 0), (lo32 s, hi32 s)). */
Test(philox, block_splits_counter_and_seed_into_words)
{
    uint64_t c = 0x0123456789abcdefull, s = 0xfedcba9876543210ull;
    accel_philox_words a = accel_philox_block(c, s);
    accel_philox_words b =
        accel_philox4x32_10(0x89abcdefu, 0x01234567u, 0, 0, 0x76543210u, 0xfedcba98u);
    expect_words(a, b.w[0], b.w[1], b.w[2], b.w[3]);
    /* Zero counter and key is the first KAT vector. */
    expect_words(accel_philox_block(0, 0), 0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u);
}

/* f32 element e is (w[e % 4] >> 8) * 2^-24 of block e / 4. Values from the
 * first KAT block, computed by hand: 0x6627e8d5 >> 8 = 0x6627e8, etc. */
Test(philox, uniform_f32_known_values)
{
    const uint32_t w[4] = {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u};
    for (uint64_t e = 0; e < 4; ++e) {
        double expect = (double)(w[e] >> 8) / 16777216.0;
        float got = accel_philox_uniform_f32(0, e);
        cr_assert((double)got == expect, "e=%llu: got %.9g expected %.9g", (unsigned long long)e,
                  (double)got, expect);
        float open = accel_philox_open_f32(0, e);
        cr_assert((double)open == (double)((w[e] >> 8) + 1) / 16777216.0, "open e=%llu",
                  (unsigned long long)e);
    }
    cr_assert((double)accel_philox_uniform_f32(0, 0) == (double)0x6627e8 / 16777216.0);
}

/* f64 element e is ((w[2j] << 32 | w[2j+1]) >> 11) * 2^-53, j = e % 2, of block e / 2. */
Test(philox, uniform_f64_known_values)
{
    uint64_t hi = ((uint64_t)0x6627e8d5u << 32 | 0xe169c58du) >> 11;
    uint64_t lo = ((uint64_t)0xbc57ac4cu << 32 | 0x9b00dbd8u) >> 11;
    cr_assert(accel_philox_uniform_f64(0, 0) == ldexp((double)hi, -53));
    cr_assert(accel_philox_uniform_f64(0, 1) == ldexp((double)lo, -53));
    cr_assert(accel_philox_open_f64(0, 0) == ldexp((double)(hi + 1), -53));
    cr_assert(accel_philox_open_f64(0, 1) == ldexp((double)(lo + 1), -53));
}

/* Across many counters and seeds the mapping follows the formula, stays in
 * [0,1) (open variant in (0,1]), and element e of block e/4 is used. */
Test(philox, mapping_matches_formula_over_many_elements)
{
    tu_rng r = tu_rng_make(1);
    for (int t = 0; t < 20000; ++t) {
        uint64_t seed = tu_rng_next(&r);
        uint64_t e = tu_rng_next(&r) >> (t % 64);
        accel_philox_words b4 = accel_philox4x32_10((uint32_t)(e / 4), (uint32_t)((e / 4) >> 32), 0,
                                                    0, (uint32_t)seed, (uint32_t)(seed >> 32));
        float f = accel_philox_uniform_f32(seed, e);
        cr_assert((double)f == (double)(b4.w[e % 4] >> 8) * 0x1p-24, "f32 seed=%llu e=%llu",
                  (unsigned long long)seed, (unsigned long long)e);
        cr_assert(f >= 0.0f && f < 1.0f);
        float fo = accel_philox_open_f32(seed, e);
        cr_assert(fo > 0.0f && fo <= 1.0f);

        accel_philox_words b2 = accel_philox4x32_10((uint32_t)(e / 2), (uint32_t)((e / 2) >> 32), 0,
                                                    0, (uint32_t)seed, (uint32_t)(seed >> 32));
        uint64_t j = e % 2;
        uint64_t bits = (((uint64_t)b2.w[2 * j] << 32) | b2.w[2 * j + 1]) >> 11;
        double d = accel_philox_uniform_f64(seed, e);
        cr_assert(d == (double)bits * 0x1p-53, "f64 seed=%llu e=%llu", (unsigned long long)seed,
                  (unsigned long long)e);
        cr_assert(d >= 0.0 && d < 1.0);
        double dopen = accel_philox_open_f64(seed, e);
        cr_assert(dopen == (double)(bits + 1) * 0x1p-53);
    }
}

/* accel_philox_neg2log_f32 on every one of its 2^24 draws d (u1 = d * 2^-24),
 * against -2 ln u1 in double: within 2.2 ulp (philox.h's bound; the largest
 * error is logged), and 0 exactly for u1 = 1. */
Test(philox, neg2log_f32_is_within_its_bound_on_every_open_draw)
{
    double worst = 0;
    uint32_t worst_d = 0;
    for (uint32_t d = 1; d <= (1u << 24); ++d) {
        float l = accel_philox_neg2log_f32(d);
        if (d == (1u << 24)) {
            cr_assert(l == 0.0f, "-2 ln 1 = %.9g", l);
            continue;
        }
        double ref = -2.0 * log((double)d * 0x1p-24); /* u1 is exact in double */
        double e = fabs((double)l - ref) / (double)tu_ulp(ACCEL_F32, ref);
        if (e > worst)
            worst = e, worst_d = d;
    }
    cr_log_info("accel_philox_neg2log_f32: worst %.3f ulp at u1 = %u * 2^-24", worst, worst_d);
    cr_assert(worst < 2.2, "accel_philox_neg2log_f32: %.3f ulp at u1 = %u * 2^-24", worst, worst_d);
}
