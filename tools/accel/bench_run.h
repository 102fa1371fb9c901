/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* bench_run.h — measuring one device for `accel bench` (bench_run.c). */
#ifndef ACCEL_CLI_BENCH_RUN_H
#define ACCEL_CLI_BENCH_RUN_H

#include "accel/accel.h"
#include "bench_types.h"

/* Everything for device d on dev by plan p: on a GPU the 100 adds first,
 * ceilings, elementwise ops, GEMM, dispatch, graphs, transfers, ceilings
 * again, target rounds, targets (bench_run.c). */
accel_status bench_one(bench *b, bench_device *d, accel_device *dev, const bench_plan *p);

#endif /* ACCEL_CLI_BENCH_RUN_H */
