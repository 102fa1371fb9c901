/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/optable.h — the op table as the core reads it (optable.c): a row
 * by op code, the element size and output rules of a descriptor, the cost
 * model. Not installed; includes only the public headers. */
#ifndef ACCEL_CORE_OPTABLE_H
#define ACCEL_CORE_OPTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "accel/accel.h"
#include "accel/backend.h"

/* The op table's rows, indexed by op code (rows of unused codes are zero). */
extern const accel_op_properties accel__op_table[ACCEL_OP_CODE_LIMIT];

/* The row of op, or NULL when op is no op code. One compare and one load. */
static inline const accel_op_properties *accel__op(uint32_t op)
{
    return op < ACCEL_OP_CODE_LIMIT && accel__op_table[op].name ? &accel__op_table[op] : NULL;
}

/* Element size of d's dtype, and whether d reads its output's old contents. */
static inline size_t accel__desc_esize(const accel_op_desc *d)
{
    return accel_dtype_size((accel_dtype)d->dtype);
}
/* Element size of d's operand i (accel_op_operand_dtype, backend.h). */
static inline size_t accel__operand_esize(const accel_op_desc *d, uint32_t i)
{
    return accel_dtype_size((accel_dtype)accel_op_operand_dtype(d, i));
}
static inline bool accel__desc_reads_output(const accel_op_desc *d)
{
    const accel_op_properties *p = accel__op(d->op);
    return p && p->reads_output;
}

/* The op table's cost model of d: bytes read plus written, flops, and the
 * element count the trace shows as n. */
void accel__op_cost(const accel_op_desc *d, uint64_t *bytes, uint64_t *flops, uint64_t *n);

#endif /* ACCEL_CORE_OPTABLE_H */
