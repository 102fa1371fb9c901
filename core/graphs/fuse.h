/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/graphs/fuse.h — fusion of a graph's elementwise chains at
 * instantiate (fuse.c). Not installed.
 *
 * Data flows one way: graph.c plans its recorded list through fuse.c, which
 * describes each chain (kernels/fused_chain.h) and builds its kernel through
 * the kernels area (kernels.h); verify mode checks a fused kernel
 * there (kernel_check.c -> fused_check.c), never calling back up here. */
#ifndef ACCEL_CORE_FUSE_H
#define ACCEL_CORE_FUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "accel/backend.h"

#include "kernels/fused_chain.h"

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
