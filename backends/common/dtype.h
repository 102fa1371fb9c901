/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* dtype.h — the bytes of one element of a dtype code, from the plugin ABI's
 * own ACCEL_DTYPE_LIST (accel/types.h, through accel/backend.h), header-only
 * so that a backend in C, C++ or CUDA needs no table of its own. Optional,
 * like philox.h: a backend written against accel/backend.h alone may keep
 * its own. */
#ifndef ACCEL_BACKEND_COMMON_DTYPE_H
#define ACCEL_BACKEND_COMMON_DTYPE_H

#include <stddef.h>
#include <stdint.h>

#include "accel/backend.h"

/* Bytes of one element of dtype, 0 for a code the ABI does not list. */
static inline size_t accel_backend_dtype_size(uint32_t dtype)
{
    switch (dtype) {
#define ACCEL_X_DTYPE_SIZE(E, V, NAME, SIZE, KIND)                                                 \
    case V:                                                                                        \
        return SIZE;
        ACCEL_DTYPE_LIST(ACCEL_X_DTYPE_SIZE)
#undef ACCEL_X_DTYPE_SIZE
    default:
        return 0;
    }
}

#endif /* ACCEL_BACKEND_COMMON_DTYPE_H */
