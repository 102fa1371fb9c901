/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* run.h — the pieces of `accel run` (run.c): the op-name table (run_ops.c),
 * shapes and descriptors (run_shape.c), running the op on a device
 * (run_exec.c) and the --verify check against the CPU (run_check.c). */
#ifndef ACCEL_CLI_RUN_H
#define ACCEL_CLI_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "accel/npy.h"
#include "accel/verify.h"
#include "cli.h"

typedef enum run_kind {
    RUN_BINARY,   /* two inputs of the same shape, output of that shape */
    RUN_UNARY,    /* one input, output of its shape */
    RUN_REDUCE,   /* one input of any shape, 0-d output */
    RUN_DOT,      /* two 1-D inputs of the same length, 0-d output */
    RUN_MATMUL,   /* (m,k)@(k,n) or (b,m,k)@(b,k,n) */
    RUN_TRANSPOSE /* one 2-D input (r,c), output (c,r) */
} run_kind;

typedef struct run_op {
    const char *name; /* NumPy's name */
    run_kind kind;
    accel_op_code code;
} run_op;

/* The op NumPy calls name, or NULL (run_ops.c). */
const run_op *run_op_find(const char *name);
/* Every op name, space-separated ("add subtract ..."). */
const char *run_op_names(void);
/* The names of the ops of one kind, space-separated. */
const char *run_op_names_of(run_kind kind);
/* Number of input files the op takes. */
int run_op_arity(const run_op *op);

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

/* --verify: the same op on the CPU device, compared with result by the
 * core's tolerance model; prints the verdict on stderr, true on PASS
 * (run_check.c). */
bool run_verify_on_cpu(accel_runtime *rt, accel_device *dev, const run_job *j, const void *result);

#endif /* ACCEL_CLI_RUN_H */
