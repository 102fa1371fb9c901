/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* bench_row.h — the rows of `accel bench`: adding and filling one, and the
 * ceiling it is compared with (bench_row.c). */
#ifndef ACCEL_CLI_BENCH_ROW_H
#define ACCEL_CLI_BENCH_ROW_H

#include <stdint.h>

#include "bench_types.h"

/* The ceiling a BENCH_C_* id names, in the row's unit; 0 when
 * unmeasured. */
double bench_ceiling_value(const bench_device *d, int id);

/* A new zeroed row of d, or NULL when out of host memory. */
bench_row *bench_add_row(bench_device *d);

/* Fill row r of d: rate from the median, fraction of ceiling `id`. */
void bench_fill_row(bench_row *r, const bench_device *d, const char *op, const char *dtype,
                    uint64_t n, double med, double mn, double bytes, double flops, int id,
                    const char *ceiling_name);

#endif /* ACCEL_CLI_BENCH_ROW_H */
