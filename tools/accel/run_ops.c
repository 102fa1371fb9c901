/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* run_ops.c — the ops of `accel run` under NumPy's (or SciPy's) names: every
 * row of the op table (accel/types.h) whose NUMPY column names it, with each
 * '|'-separated alias, and the shape rule its kind gives. */
#include <stdio.h>
#include <string.h>

#include "run_ops.h"

/* The op table's NumPy names and codes. */
#define ACCEL_X_NUMPY(E, V, NAME, KIND, OPS, READS, DTYPES, TOL, TOLN, COST, RD, WR, FL, NP, ...)  \
    {NP, ACCEL_OP_##E},
static const struct {
    const char *names;
    accel_op_code code;
} numpy_rows[] = {ACCEL_OP_LIST(ACCEL_X_NUMPY)};
#undef ACCEL_X_NUMPY
#define ROW_COUNT (sizeof numpy_rows / sizeof numpy_rows[0])

/* How `accel run` shapes an op of the table; false for kinds it does not run. */
static bool kind_of(accel_op_code code, run_kind *out)
{
    const accel_op_properties *p = accel_op_info(code);
    if (!p)
        return false;
    switch (p->kind) {
    case ACCEL_OP_KIND_BINARY:
        *out = RUN_BINARY;
        return true;
    case ACCEL_OP_KIND_UNARY:
        *out = RUN_UNARY;
        return true;
    case ACCEL_OP_KIND_REDUCTION:
        *out = p->num_operands == 3 ? RUN_DOT : RUN_REDUCE;
        return true;
    case ACCEL_OP_KIND_GEMM:
        *out = RUN_MATMUL;
        return true;
    case ACCEL_OP_KIND_TRANSPOSE:
        *out = RUN_TRANSPOSE;
        return true;
    case ACCEL_OP_KIND_FILL:
    case ACCEL_OP_KIND_COPY:
    case ACCEL_OP_KIND_AXPBY:
    case ACCEL_OP_KIND_RANDOM:
    case ACCEL_OP_KIND_SORT:
    case ACCEL_OP_KIND_LINALG:
    case ACCEL_OP_KIND_FFT:
    case ACCEL_OP_KIND_SCAN:
        break;
    }
    return false;
}

#define MAX_OPS 128

static run_op ops[MAX_OPS];
static size_t op_count;
static char name_pool[2048];

/* One entry per name, from the op table, on first use. */
static void build(void)
{
    size_t used = 0;
    for (size_t i = 0; i < ROW_COUNT; i++) {
        run_kind kind;
        if (!numpy_rows[i].names || !kind_of(numpy_rows[i].code, &kind))
            continue;
        for (const char *n = numpy_rows[i].names; *n && op_count < MAX_OPS;) {
            size_t len = strcspn(n, "|");
            if (used + len + 1 > sizeof name_pool)
                return;
            memcpy(name_pool + used, n, len);
            name_pool[used + len] = '\0';
            ops[op_count++] = (run_op){name_pool + used, kind, numpy_rows[i].code};
            used += len + 1;
            n += len + (n[len] == '|');
        }
    }
}

static void ensure_built(void)
{
    if (!op_count)
        build();
}

const run_op *run_op_find(const char *name)
{
    ensure_built();
    for (size_t i = 0; i < op_count; i++)
        if (strcmp(ops[i].name, name) == 0)
            return &ops[i];
    return NULL;
}

/* Names of the ops of kind (every op when all) into buf. */
static const char *names_into(char *buf, size_t cap, bool all, run_kind kind)
{
    size_t n = 0;
    ensure_built();
    buf[0] = '\0';
    for (size_t i = 0; i < op_count && n < cap; i++)
        if (all || ops[i].kind == kind)
            n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? " " : "", ops[i].name);
    return buf;
}

const char *run_op_names(void)
{
    static char names[1024];
    return names_into(names, sizeof names, true, RUN_BINARY);
}

const char *run_op_names_of(run_kind kind)
{
    static char names[6][512];
    return names_into(names[kind], sizeof names[kind], false, kind);
}

int run_op_arity(const run_op *op)
{
    return (op->kind == RUN_UNARY || op->kind == RUN_REDUCE || op->kind == RUN_TRANSPOSE) ? 1 : 2;
}
