/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* demo_format.h — the figures of the `accel demo` table as text: rates,
 * times and speed-ups (demo_format.c). */
#ifndef ACCEL_CLI_DEMO_FORMAT_H
#define ACCEL_CLI_DEMO_FORMAT_H

#include <stddef.h>

#include "demo_types.h"

/* amount per second times scale (bytes and 1e-9 for GB/s, FLOPs and 1e-12 for
 * TFLOP/s) over ms milliseconds; NaN when ms is 0, negative or not finite (a
 * backend whose events report 0 elapsed), which the table shows as n/a
 * (demo_format.c). */
double demo_rate(double amount, double ms, double scale);

/* "0.123 ms", "12.3 ms", "12.3 s"; "-" for DEMO_NOT_TIMED; "n/a" when ms is
 * 0, negative or not finite. */
void demo_format_ms(double ms, char *buf, size_t cap);

/* "12.34 GB/s"; "-" when unit is empty (the step has no rate); "n/a" when
 * rate is not a finite positive number. */
void demo_format_rate(double rate, const char *unit, char *buf, size_t cap);

/* A time ms against a time base_ms of the same work done another way (what),
 * worded so that no one reads a ratio below 1 as a gain: "1.25 times faster
 * than serial (2.2 ms)", "1.19 times slower than serial (1.2 ms)", "as fast
 * as serial (1.2 ms)" within 0.5%; "n/a vs serial" when either is no time. */
void demo_format_speed(double ms, double base_ms, const char *what, char *buf, size_t cap);

#endif /* ACCEL_CLI_DEMO_FORMAT_H */
