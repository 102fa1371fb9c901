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

#endif /* ACCEL_CORE_CHECK_TOLERANCE_H */
