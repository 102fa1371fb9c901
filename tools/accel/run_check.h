/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* run_check.h — `accel run --verify`: the job again on the CPU, compared
 * by the core's tolerance model (run_check.c). */
#ifndef ACCEL_CLI_RUN_CHECK_H
#define ACCEL_CLI_RUN_CHECK_H

#include <stdbool.h>

#include "accel/accel.h"
#include "run_shape.h"

/* --verify: the same op on the CPU device, compared with result by the
 * core's tolerance model; prints the verdict on stderr, true on PASS
 * (run_check.c). */
bool run_verify_on_cpu(accel_runtime *rt, accel_device *dev, const run_job *j, const void *result);

#endif /* ACCEL_CLI_RUN_CHECK_H */
