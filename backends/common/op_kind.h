/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* op_kind.h — the kind of an op code (accel_op_kind), from the plugin ABI's
 * own ACCEL_OP_LIST (accel/types.h, through accel/backend.h), header-only
 * like dtype.h so that a backend in C, C++ or CUDA needs no switch of its
 * own. Optional: a backend written against accel/backend.h alone may keep
 * its own. */
#ifndef ACCEL_BACKEND_COMMON_OP_KIND_H
#define ACCEL_BACKEND_COMMON_OP_KIND_H

#include <stdint.h>

#include "accel/backend.h"

/* The ACCEL_OP_KIND_* of op, 0 for a code the ABI does not list (as
 * ACCEL_OP_KERNEL, which has no row). */
static inline int accel_backend_op_kind(uint32_t op)
{
    switch (op) {
#define ACCEL_X_OP_KIND(E, V, NAME, KIND, ...)                                                     \
    case V:                                                                                        \
        return ACCEL_OP_KIND_##KIND;
        ACCEL_OP_LIST(ACCEL_X_OP_KIND)
#undef ACCEL_X_OP_KIND
    default:
        return 0;
    }
}

#endif /* ACCEL_BACKEND_COMMON_OP_KIND_H */
