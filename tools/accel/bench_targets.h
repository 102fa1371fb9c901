/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* bench_targets.h — the speed targets and notes of `accel bench`
 * (bench_targets.c). */
#ifndef ACCEL_CLI_BENCH_TARGETS_H
#define ACCEL_CLI_BENCH_TARGETS_H

#include <stdbool.h>

#include "bench_types.h"

/* The targets of d from its rows and dispatch time (bench_targets.c). */
void bench_check_targets(bench_device *d);
/* One more target of d (measured >= target, or <= when overhead). */
void bench_add_target(bench_device *d, const char *name, double measured, double target,
                      bool overhead, const char *detail);
/* One more note of d: a measured figure without a target. */
void bench_add_note(bench_device *d, const char *name, double measured, const char *detail);

#endif /* ACCEL_CLI_BENCH_TARGETS_H */
