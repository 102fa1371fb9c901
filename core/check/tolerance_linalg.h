/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/check/tolerance_linalg.h — the backward-error checks of LINALG ops
 * (tolerance_linalg.c), used by the tolerance model (tolerance.c). Not
 * installed. */
#ifndef ACCEL_CORE_CHECK_TOLERANCE_LINALG_H
#define ACCEL_CORE_CHECK_TOLERANCE_LINALG_H

#include <stdbool.h>
#include <stddef.h>

#include "accel/accel.h"

struct accel_tolerance_op;

/* One backward-error check of a LINALG op's problem:
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

#endif /* ACCEL_CORE_CHECK_TOLERANCE_LINALG_H */
