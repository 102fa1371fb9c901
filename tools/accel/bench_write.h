/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* bench_write.h — the outputs of `accel bench`: the text table
 * (bench_table.c), JSON (bench_json.c), CSV (bench_csv.c) and the SVG chart
 * (bench_svg.c). */
#ifndef ACCEL_CLI_BENCH_WRITE_H
#define ACCEL_CLI_BENCH_WRITE_H

#include <stddef.h>
#include <stdio.h>

#include "bench_types.h"

/* The text table of d. */
void bench_print_device(FILE *f, const bench_device *d);

/* Returns 0, or an errno value. */
int bench_write_json(const char *path, const bench *b, const bench_meta *m);
int bench_write_csv(const char *path, const bench *b);

/* Draw the fraction of ceiling of every charted row, per device, with target
 * marks. Returns 0, or an errno value. */
int bench_write_svg(const char *path, const bench_device *devs, size_t count, const char *title);

#endif /* ACCEL_CLI_BENCH_WRITE_H */
