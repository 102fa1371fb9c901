/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* run_shape.h — one `accel run` job on NumPy arrays: its output shape and
 * its description for the tolerance model (run_shape.c). */
#ifndef ACCEL_CLI_RUN_SHAPE_H
#define ACCEL_CLI_RUN_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "accel/npy.h"
#include "accel/verify.h"
#include "run_ops.h"

/* One op on NumPy arrays: what run.c loaded and what the op gives. */
typedef struct run_job {
    const run_op *op;
    accel_dtype dt;
    accel_npy_array in[2];
    int nin;
    const char *paths[2];
    uint32_t out_ndim;
    size_t out_shape[ACCEL_NPY_MAX_DIMS];
    size_t out_count;
} run_job;

/* The output's shape into j->out_ndim/out_shape/out_count, or an error
 * message on stderr and false (run_shape.c). */
bool run_output_shape(run_job *j);

/* The op as run_exec.c runs it, for accel_tolerance_compare (which reads
 * the op, dtype, operand counts, shapes and scalars), and its GEMM shape. */
accel_tolerance_op run_describe(const run_job *j);

#endif /* ACCEL_CLI_RUN_SHAPE_H */
