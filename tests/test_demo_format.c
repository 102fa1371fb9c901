/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_demo_format.c — how `accel demo` shows times and rates
 * (tools/accel/demo_format.c): a backend whose events report 0 elapsed, or
 * a NaN or infinite time, gives n/a, never "inf GB/s", a huge rate or
 * "-nan"; real times and rates are printed as numbers; a time against
 * another says "faster" or "slower", never a bare ratio below 1. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "demo_format.h"
#include "demo_types.h"

Test(demo_format, zero_and_non_finite_times_are_na)
{
    const double bad[] = {0.0, -0.0, -3.0, NAN, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char t[32], r[32];
        demo_format_ms(bad[i], t, sizeof t);
        cr_expect_str_eq(t, "n/a", "time %g shows as '%s'", bad[i], t);
        double rate = demo_rate(12e6, bad[i], 1e-9);
        cr_expect(isnan(rate), "rate over %g ms is %g, not NaN", bad[i], rate);
        demo_format_rate(rate, "GB/s", r, sizeof r);
        cr_expect_str_eq(r, "n/a", "rate over %g ms shows as '%s'", bad[i], r);
    }
}

Test(demo_format, not_timed_and_no_rate_are_dashes)
{
    char t[32], r[32];
    demo_format_ms(DEMO_NOT_TIMED, t, sizeof t);
    cr_expect_str_eq(t, "-");
    demo_format_rate(0, "", r, sizeof r);
    cr_expect_str_eq(r, "-");
}

Test(demo_format, real_values_are_numbers)
{
    char t[32], r[32];
    demo_format_ms(0.25, t, sizeof t);
    cr_expect_str_eq(t, "0.250 ms");
    demo_format_ms(12.34, t, sizeof t);
    cr_expect_str_eq(t, "12.3 ms");
    demo_format_ms(12345.0, t, sizeof t);
    cr_expect_str_eq(t, "12.3 s");
    /* 12e6 bytes in 2 ms: 6e9 bytes per second, 6 GB/s (independent: 12e6 / 2e-3 / 1e9). */
    double rate = demo_rate(12e6, 2.0, 1e-9);
    cr_expect(fabs(rate - 12e6 / 2e-3 / 1e9) < 1e-12, "rate %g", rate);
    demo_format_rate(rate, "GB/s", r, sizeof r);
    cr_expect_str_eq(r, "6.00 GB/s");
    /* 2 n^3 FLOPs for n = 1000 in 4 ms: 0.5 TFLOP/s. */
    demo_format_rate(demo_rate(2e9, 4.0, 1e-12), "TFLOP/s", r, sizeof r);
    cr_expect_str_eq(r, "0.50 TFLOP/s");
}

Test(demo_format, speed_against_a_base_says_faster_or_slower)
{
    /* (ms, base_ms, text): base / ms = 1.25 and 1 / 0.84 = 1.19 (to 2 places). */
    static const struct {
        double ms, base;
        const char *want;
    } cases[] = {
        {1.76, 2.2, "1.25 times faster than serial (2.2 ms)"},
        {1.5, 1.26, "1.19 times slower than serial (1.3 ms)"},
        {0.4, 10.0, "25.00 times faster than serial (10.0 ms)"},
        {25.0, 1.0, "25.00 times slower than serial (1.0 ms)"},
        {1.2, 1.203, "as fast as serial (1.2 ms)"},
        {0.0, 1.0, "n/a vs serial"},
        {1.0, NAN, "n/a vs serial"},
        {INFINITY, 1.0, "n/a vs serial"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char b[80];
        demo_format_speed(cases[i].ms, cases[i].base, "serial", b, sizeof b);
        cr_expect_str_eq(b, cases[i].want, "%g ms vs %g ms", cases[i].ms, cases[i].base);
    }
}
