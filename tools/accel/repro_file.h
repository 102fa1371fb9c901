/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* repro_file.h — a verify-mode repro file (.npz, written by core/check/repro.c; the
 * members are listed in accel/verify.h) as `accel replay` reads it
 * (repro_file.c) and runs it (replay.c). */
#ifndef ACCEL_TOOLS_REPRO_FILE_H
#define ACCEL_TOOLS_REPRO_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "accel/backend.h"

typedef struct repro {
    char device[128], reference[128]; /* where it ran, what it was checked against */
    accel_op_desc d;                  /* operand offsets as recorded; counts in elements */
    size_t esize;                     /* bytes of one element of d.dtype */
    size_t lo, hi;                    /* guard elements before and after the output range */
    /* Operand i's elements before the op (d.operands[i].count of them), the
     * output's as lo + count + hi elements with its guards. */
    void *data[4];
    void *device_out;    /* lo + count + hi elements: the output window after the op */
    void *reference_out; /* the same as the reference computed it */
    /* Bytes after the zip archive's end record, ignored (as np.load does). */
    size_t trailing_bytes;
} repro;

/* Read the .npz repro file at path into *r (zeroed first). false with the
 * reason in why (a file that is not a regular file, not a zip archive, a
 * truncated one, a CRC error, a member missing, twice, named as a path, of
 * the wrong dtype or size, an op description that is not valid, sizes past
 * this machine's memory, a repro file of the old text format, one that does
 * not start with a zip member, which np.load would not read as .npz
 * either). Bytes after the archive's end record are ignored as np.load
 * ignores them (r->trailing_bytes counts them). r is to be
 * freed with repro_free either way. */
bool repro_load(const char *path, repro *r, char *why, size_t cap);
void repro_free(repro *r);

#endif /* ACCEL_TOOLS_REPRO_FILE_H */
