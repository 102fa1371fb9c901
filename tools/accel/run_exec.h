/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* run_exec.h — running an `accel run` job on a device and where it ran
 * (run_exec.c). */
#ifndef ACCEL_CLI_RUN_EXEC_H
#define ACCEL_CLI_RUN_EXEC_H

#include <stdbool.h>

#include "accel/accel.h"
#include "run_shape.h"

/* Where the op ran: the device asked for, or the fallback device that ran it
 * instead (run_exec.c). */
typedef struct run_placement {
    const char *device; /* the device that ran the op */
    const char *asked;  /* the device asked for */
    const char *reason; /* why it fell back; "" when it did not */
    bool fell_back;
} run_placement;

/* Copy the inputs to dev, run the op there and read its out_count elements
 * into result. With out_ms, the op's device time between two events; with
 * out_where, where the op ran. Prints the error (naming the stage) and
 * returns its status on failure. */
accel_status run_compute(accel_runtime *rt, accel_device *dev, const run_job *j, void *result,
                         double *out_ms, run_placement *out_where);

#endif /* ACCEL_CLI_RUN_EXEC_H */
