/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/fuse.h — fusion of a graph's elementwise chains at instantiate
 * (fuse.c) and the verify-mode check of a fused kernel against the unfused
 * op list (fuse_check.c). Not installed.
 *
 * Data flows one way: graph.c plans its recorded list through fuse.c, which
 * builds kernels through the kernel room (kernel_internal.h); kernel_check.c
 * (verify mode) calls accel__fchain_check, which reads only the op table. */
#ifndef ACCEL_CORE_FUSE_H
#define ACCEL_CORE_FUSE_H

#include "base/internal.h"

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

/* fuse_check.c: compare a fused kernel's outputs (post[arg], as the device
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

/* fuse.c: a graph's launch plan. Each exec entry is recorded node `first`
 * (f NULL, count 1) or the fused kernel f of nodes [first, first + count). */
typedef struct accel__fused accel__fused;
typedef struct accel__gexec {
    size_t first, count;
    accel__fused *f;
} accel__gexec;

struct accel_graph;
/* (Re)build g's plan (g->exec, g->nexec, g->exec_of) for instantiate
 * flags: fusion unless ACCEL_GRAPH_NO_FUSION. Kernels of the previous plan
 * with the same text are reused. g->lock held. A run whose kernel cannot be
 * built stays unfused (logged); only out of host memory fails. */
accel_status accel__fuse_plan(struct accel_graph *g, uint32_t flags, const char *fn);
/* Free g's plan; release_kernels false while the runtime closes (it frees
 * the kernels itself). */
void accel__fuse_plan_free(struct accel_graph *g, bool release_kernels);
/* The fused kernel's launch as an op (ACCEL_OP_KERNEL), and its name. */
const accel_op_desc *accel__fused_desc(const accel__fused *f);
const char *accel__fused_name(const accel__fused *f);
/* The recorded nodes and ops it runs: "nodes 0-1 (accel_mul, accel_add)". */
const char *accel__fused_ops(const accel__fused *f);
/* Rebinding: scalar `index` of recorded node `node` is now value; false when
 * f holds no such scalar. */
bool accel__fused_set_scalar(accel__fused *f, size_t node, uint32_t index, double value);

#endif /* ACCEL_CORE_FUSE_H */
