/* run_ops.c — the ops of `accel run` under NumPy's names: name, shape rule
 * and the accel op each one is. */
#include <stdio.h>
#include <string.h>

#include "run.h"

static const run_op ops[] = {
    {"add", RUN_BINARY, ACCEL_OP_ADD},
    {"subtract", RUN_BINARY, ACCEL_OP_SUB},
    {"multiply", RUN_BINARY, ACCEL_OP_MUL},
    {"divide", RUN_BINARY, ACCEL_OP_DIV},
    {"maximum", RUN_BINARY, ACCEL_OP_MAX},
    {"minimum", RUN_BINARY, ACCEL_OP_MIN},
    {"negative", RUN_UNARY, ACCEL_OP_NEG},
    {"abs", RUN_UNARY, ACCEL_OP_ABS},
    {"sqrt", RUN_UNARY, ACCEL_OP_SQRT},
    {"exp", RUN_UNARY, ACCEL_OP_EXP},
    {"log", RUN_UNARY, ACCEL_OP_LOG},
    {"tanh", RUN_UNARY, ACCEL_OP_TANH},
    {"relu", RUN_UNARY, ACCEL_OP_RELU},
    {"sum", RUN_REDUCE, ACCEL_OP_SUM},
    {"max", RUN_REDUCE, ACCEL_OP_REDUCE_MAX},
    {"min", RUN_REDUCE, ACCEL_OP_REDUCE_MIN},
    {"dot", RUN_DOT, ACCEL_OP_DOT},
    {"matmul", RUN_MATMUL, ACCEL_OP_GEMM},
    {"transpose", RUN_TRANSPOSE, ACCEL_OP_TRANSPOSE},
};
#define OP_COUNT (sizeof ops / sizeof ops[0])

const run_op *run_op_find(const char *name)
{
    for (size_t i = 0; i < OP_COUNT; i++)
        if (strcmp(ops[i].name, name) == 0)
            return &ops[i];
    return NULL;
}

/* Names of the ops of kind (every op when all) into buf. */
static const char *names_into(char *buf, size_t cap, bool all, run_kind kind)
{
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < OP_COUNT && n < cap; i++)
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
