/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* demo_format.c — how `accel demo` shows times and rates: what a backend's
 * events report is shown as it is, or as n/a when it cannot be a time. */
#include <math.h>
#include <stdio.h>

#include "demo_format.h"
#include "demo_types.h"

double demo_rate(double amount, double ms, double scale)
{
    if (!(ms > 0) || !isfinite(ms))
        return NAN;
    return amount / (ms * 1e-3) * scale;
}

void demo_format_ms(double ms, char *buf, size_t cap)
{
    if (ms == DEMO_NOT_TIMED)
        snprintf(buf, cap, "-");
    else if (!(ms > 0) || !isfinite(ms))
        snprintf(buf, cap, "n/a");
    else if (ms < 1)
        snprintf(buf, cap, "%.3f ms", ms);
    else if (ms < 10000)
        snprintf(buf, cap, "%.1f ms", ms);
    else
        snprintf(buf, cap, "%.1f s", ms / 1000);
}

void demo_format_speed(double ms, double base_ms, const char *what, char *buf, size_t cap)
{
    char base[32];
    demo_format_ms(base_ms, base, sizeof base);
    double ratio = demo_rate(base_ms, ms, 1.0) * 1e-3; /* base_ms / ms */
    if (!(base_ms > 0) || !isfinite(base_ms) || !(ratio > 0) || !isfinite(ratio))
        snprintf(buf, cap, "n/a vs %s", what);
    else if (ratio < 1.005 && ratio > 1 / 1.005)
        snprintf(buf, cap, "as fast as %s (%s)", what, base);
    else
        snprintf(buf, cap, "%.2f times %s than %s (%s)", ratio >= 1 ? ratio : 1 / ratio,
                 ratio >= 1 ? "faster" : "slower", what, base);
}

void demo_format_rate(double rate, const char *unit, char *buf, size_t cap)
{
    if (!unit || !unit[0])
        snprintf(buf, cap, "-");
    else if (!(rate > 0) || !isfinite(rate))
        snprintf(buf, cap, "n/a");
    else
        snprintf(buf, cap, "%.2f %s", rate, unit);
}
