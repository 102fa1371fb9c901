/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/check/repro.h — the repro file of a verify-mode mismatch (repro.c).
 * Not installed. */
#ifndef ACCEL_CORE_CHECK_REPRO_H
#define ACCEL_CORE_CHECK_REPRO_H

#include <stddef.h>
#include <stdint.h>

#include "accel/backend.h"

/* One verify-mode mismatch, as its repro file records it. */
typedef struct accel__repro {
    const char *dir;                /* the folder; made when missing */
    const char *device, *reference; /* the names of the two devices */
    const accel_op_desc *d;
    uint64_t verify_seed;
    const void *const *inputs; /* each operand before the op (the output's old contents last) */
    size_t lo, hi;             /* guard elements before and after the output range */
    /* lo + hi elements each (those before the range, then those after):
     * before the op, and after it on the device. */
    const void *guard_before, *guard_after;
    const void *got, *expected; /* the output range from the device and the reference */
    const char *what;           /* the mismatch as it was logged */
} accel__repro;

/* Write r as DIR/accel-repro-PID-N-OP.npz (accel/verify.h lists its members),
 * through a temporary file renamed into place. path_out gets the path, or ""
 * when nothing was written (the reason is logged as a warning). */
void accel__repro_write(const accel__repro *r, uint64_t n, char *path_out, size_t cap);

#endif /* ACCEL_CORE_CHECK_REPRO_H */
