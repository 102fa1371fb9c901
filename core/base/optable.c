/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/optable.c — the op table (ACCEL_OP_LIST of accel/types.h) as data, and
 * the dtype facts (size, name, epsilon). The lowest room of the op path:
 * everything that decides something per op or per dtype reads it here and
 * calls nothing above status.c. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "accel/verify.h"

#include "base/optable.h"

/* Every op code is a slot below ACCEL_OP_CODE_LIMIT (the report and the
 * warn-once flags are indexed by it); a duplicate VALUE is a compile error
 * (-Woverride-init of the designated initializers below). */
#define ACCEL_X_CHECK(E, V, ...)                                                                   \
    _Static_assert((V) > 0 && (V) < ACCEL_OP_CODE_LIMIT, "op code of " #E " out of range");
ACCEL_OP_LIST(ACCEL_X_CHECK)
#undef ACCEL_X_CHECK

#define ACCEL_X_ROW(E, V, NAME, KIND, OPS, READS, DTYPES, TOL, TOLN, COST, RD, WR, FL, NP, F32,    \
                    F64)                                                                           \
    [V] = {sizeof(accel_op_properties),                                                            \
           ACCEL_OP_##E,                                                                           \
           #NAME,                                                                                  \
           ACCEL_OP_KIND_##KIND,                                                                   \
           OPS,                                                                                    \
           READS,                                                                                  \
           DTYPES,                                                                                 \
           ACCEL_TOLERANCE_##TOL,                                                                  \
           TOLN,                                                                                   \
           ACCEL_COST_##COST,                                                                      \
           RD,                                                                                     \
           WR,                                                                                     \
           FL,                                                                                     \
           NP,                                                                                     \
           F32,                                                                                    \
           F64},
const accel_op_properties accel__op_table[ACCEL_OP_CODE_LIMIT] = {ACCEL_OP_LIST(ACCEL_X_ROW)};
#undef ACCEL_X_ROW

const accel_op_properties *accel_op_info(accel_op_code op)
{
    return accel__op((uint32_t)op);
}

const char *accel_op_name(accel_op_code op)
{
    const accel_op_properties *p = accel__op((uint32_t)op);
    if (op == ACCEL_OP_KERNEL)
        return "kernel";
    return p ? p->name : "unknown";
}

#define ACCEL_X_DTYPE_CHECK(E, V, NAME, SIZE, KIND)                                                \
    _Static_assert((V) > 0 && (V) < ACCEL_DTYPE_COUNT_ && (V) < 32, "dtype " #E " out of range");
ACCEL_DTYPE_LIST(ACCEL_X_DTYPE_CHECK)
#undef ACCEL_X_DTYPE_CHECK

/* ACCEL_DTYPE_LIST as data, indexed by the dtype's value. */
static const struct {
    const char *name;
    uint8_t size, kind;
} dtype_table[ACCEL_DTYPE_COUNT_] = {
#define ACCEL_X_DTYPE_ROW(E, V, NAME, SIZE, KIND) [V] = {NAME, SIZE, ACCEL_DTYPE_KIND_##KIND},
    ACCEL_DTYPE_LIST(ACCEL_X_DTYPE_ROW)
#undef ACCEL_X_DTYPE_ROW
};

static bool dtype_known(accel_dtype dtype)
{
    return (unsigned)dtype < ACCEL_DTYPE_COUNT_ && dtype_table[dtype].size != 0;
}

size_t accel_dtype_size(accel_dtype dtype)
{
    return dtype_known(dtype) ? dtype_table[dtype].size : 0;
}

const char *accel_dtype_name(accel_dtype dtype)
{
    return dtype_known(dtype) ? dtype_table[dtype].name : "invalid";
}

accel_dtype_kind accel_dtype_kind_of(accel_dtype dtype)
{
    return dtype_known(dtype) ? (accel_dtype_kind)dtype_table[dtype].kind
                              : ACCEL_DTYPE_KIND_INVALID;
}

double accel_dtype_epsilon(accel_dtype dtype)
{
    /* complex: of each part; integers and bool: 0 (exact) */
    static const double eps[ACCEL_DTYPE_COUNT_] = {
        [ACCEL_F32] = 0x1p-23,  [ACCEL_C64] = 0x1p-23, [ACCEL_F64] = 0x1p-52,
        [ACCEL_C128] = 0x1p-52, [ACCEL_F16] = 0x1p-10, [ACCEL_BF16] = 0x1p-7};
    return dtype_known(dtype) ? eps[dtype] : 0.0;
}

void accel__op_cost(const accel_op_desc *d, uint64_t *bytes, uint64_t *flops, uint64_t *n)
{
    const accel_op_properties *p = accel__op(d->op);
    if (d->op == ACCEL_OP_KERNEL && d->kernel) {
        /* A user kernel: every array argument once; flops unknown. */
        const accel_kernel_launch_desc *k = d->kernel;
        uint64_t b = 0;
        for (uint32_t i = 0; i < k->num_args; i++)
            if (k->args[i].kind == ACCEL_KARG_ARRAY)
                b += k->args[i].count * accel_dtype_size((accel_dtype)k->args[i].dtype);
        *bytes = b;
        *flops = 0;
        *n = k->kind == ACCEL_KERNEL_RAW ? k->n : k->n * k->rows;
        return;
    }
    uint64_t es = accel_dtype_size((accel_dtype)d->dtype);
    uint64_t c = d->operands[0].count;
    uint64_t moved = 0, fl = 0;
    switch (p ? p->cost : ACCEL_COST_ELEMENTWISE) {
    case ACCEL_COST_ELEMENTWISE:
        moved = p ? (uint64_t)(p->cost_reads + p->cost_writes) * c : 0;
        fl = p ? p->cost_flops * c : 0;
        break;
    case ACCEL_COST_REDUCTION:
        moved = p->cost_reads * c + p->cost_writes;
        fl = p->cost_flops * c;
        break;
    case ACCEL_COST_GEMM: {
        uint64_t b = d->batch_count ? d->batch_count : 1;
        uint64_t m = d->m, nn = d->n, k = d->k;
        moved = b * (m * k + k * nn + (d->scalars[1] != 0.0 ? m * nn : 0)) + b * m * nn;
        fl = p->cost_flops * b * m * nn * k;
        c = b * m * nn;
        break;
    }
    case ACCEL_COST_LINALG: {
        uint64_t b = d->batch_count ? d->batch_count : 1, mn = d->m < d->n ? d->m : d->n;
        for (uint32_t i = 0; i < d->num_operands && i < 4; i++)
            moved += d->operands[i].count;
        fl = p->cost_flops * b * d->m * d->n * mn / 3;
        c = b * d->m * d->n;
        break;
    }
    }
    *bytes = moved * es;
    *flops = fl;
    *n = c;
}
