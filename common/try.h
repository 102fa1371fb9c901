/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* try.h — ACCEL__TRY, the early return of a failed accel_status, shared by
 * the runtime (core/), libaccel_mpi and the `accel` program. Built into each
 * privately; not public API. */
#ifndef ACCEL_COMMON_TRY_H
#define ACCEL_COMMON_TRY_H

/* Evaluate expr (an accel_status) and return it from the calling function
 * unless it is ACCEL_SUCCESS (IREE's IREE_RETURN_IF_ERROR). */
#define ACCEL__TRY(expr)                                                                           \
    do {                                                                                           \
        accel_status accel__try_st = (expr);                                                       \
        if (accel__try_st != ACCEL_SUCCESS)                                                        \
            return accel__try_st;                                                                  \
    } while (0)

#endif /* ACCEL_COMMON_TRY_H */
