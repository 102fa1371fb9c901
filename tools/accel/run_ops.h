/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* run_ops.h — the op names `accel run` takes, NumPy's, and what each is
 * (run_ops.c). */
#ifndef ACCEL_CLI_RUN_OPS_H
#define ACCEL_CLI_RUN_OPS_H

#include <stdbool.h>

#include "accel/accel.h"

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

#endif /* ACCEL_CLI_RUN_OPS_H */
