/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/check/tolerance.h — the tolerance model's view of a dispatched descriptor (tolerance.c). Not
 * installed. */
#ifndef ACCEL_CORE_CHECK_TOLERANCE_H
#define ACCEL_CORE_CHECK_TOLERANCE_H

#include "accel/accel.h"

#include "base/optable.h"

/* tolerance.c: the tolerance model's view of a dispatched descriptor
 * (accel_tolerance_compare of accel/verify.h takes public types). */
struct accel_tolerance_op;
accel_status accel__tolerance_op_from_desc(const accel_op_desc *d, struct accel_tolerance_op *t);

/* tolerance_linalg.c: one backward-error check of a LINALG op's problem:
 * got within bound of ref, reported at element index of the output. */
typedef struct accel__linalg_check {
    size_t index;
    double got, ref, bound;
} accel__linalg_check;
/* Check j (0, 1, ...) of problem t into *c; false past the last (or when
 * the problem is not checked: A not finite, an input missing). */
bool accel__linalg_check_at(const struct accel_tolerance_op *d, const void *const in[4],
                            const void *got, const void *exp, size_t t, size_t j,
                            accel__linalg_check *c);
/* The operand counts of a LINALG op against its shape (check_shapes). */
accel_status accel__linalg_shapes(const char *fn, const struct accel_tolerance_op *d);

#endif /* ACCEL_CORE_CHECK_TOLERANCE_H */
