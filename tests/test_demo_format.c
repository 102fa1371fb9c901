/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_demo_format.c — how `accel demo` shows times and rates
 * (tools/accel/demo_format.c): a backend whose events report 0 elapsed, or
 * a NaN or infinite time, gives n/a, never "inf GB/s", a huge rate or
 * "-nan"; real times and rates are printed as numbers. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "demo.h"

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
