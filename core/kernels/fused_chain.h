/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/kernels/fused_chain.h — a fused elementwise kernel as a chain of op
 * table steps (graphs/fuse.c builds them) and verify mode's check of one
 * against the unfused op list (fused_check.c, which reads only the op
 * table). Not installed. */
#ifndef ACCEL_CORE_KERNELS_FUSED_CHAIN_H
#define ACCEL_CORE_KERNELS_FUSED_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "accel/backend.h"

/* Limits of one fused kernel. */
#define ACCEL__FMAX_STEPS 64
#define ACCEL__FMAX_VALUES 160

/* One op of a fused chain, on values (SSA: every loaded range and every
 * op result is a new value). */
typedef struct accel__fstep {
    uint32_t op;      /* accel_op_code */
    uint32_t node;    /* the recorded node it came from */
    uint32_t nin;     /* value inputs: BINARY a, b; UNARY, SCALE, COPY x; AXPBY x, y */
    uint32_t in[2];   /* value ids */
    uint32_t nscalar; /* FILL value; SCALE alpha; AXPBY alpha, beta */
    uint32_t sarg[2]; /* the kernel argument holding each scalar */
    uint32_t out;     /* value id of the result */
} accel__fstep;

/* A fused chain as verify replays it: the steps, which kernel input array
 * each loaded value comes from, and which value each output array stores. */
typedef struct accel__fchain {
    uint32_t dtype; /* ACCEL_F32 or ACCEL_F64: the dtype of every step */
    uint32_t nsteps, nvalues, nstores;
    accel__fstep steps[ACCEL__FMAX_STEPS];
    int16_t load_arg[ACCEL__FMAX_VALUES]; /* value -> kernel input argument, or -1 */
    uint32_t store_arg[32], store_value[32];
    char ops[512]; /* "nodes 3-5 (accel_add, accel_mul, accel_exp)", for messages */
} accel__fchain;

/* fused_check.c: compare a fused kernel's outputs (post[arg], as the device
 * wrote them) with the unfused op list run on the host from the kernel's
 * inputs (pre[arg]) and scalar arguments (args), each op rounded to the
 * chain's dtype, within the chain's composed bound (accel/graph.h). Returns
 * true when every element meets it; else false with `what` saying which
 * output, element, values and bound, and naming the ops fused. *checked
 * and *skipped count elements compared and elements whose bound is
 * unbounded (a division by a value that may be 0, log near 0, overflow). */
bool accel__fchain_check(const accel__fchain *c, const accel_kernel_arg_desc *args,
                         void *const *pre, void *const *post, size_t n, char *what, size_t cap,
                         size_t *checked, size_t *skipped);

#endif /* ACCEL_CORE_KERNELS_FUSED_CHAIN_H */
