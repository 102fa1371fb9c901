/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/arrays/arrays_internal.h — what the files of the array area share:
 * promotion (promote.c), views and their checks (view.c), the function
 * table and its source generator (table.c, codegen.c), and the launches
 * (elementwise.c, reduce.c). The area sits above the kernel machinery
 * (core/kernels) and calls it only through accel/kernel.h and
 * kernels/kernel_internal.h. Not installed. */
#ifndef ACCEL_CORE_ARRAYS_INTERNAL_H
#define ACCEL_CORE_ARRAYS_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "accel/array.h"
#include "base/internal.h"

/* What a valid view covers, in elements of its dtype from the buffer's
 * start: element (0, ..., 0) at base, every element in [lo, hi]. */
typedef struct accel__extent {
    int64_t count; /* elements of the view */
    int64_t base, lo, hi;
} accel__extent;

/* view.c: a's checks as accel_array_validate, messages "FN: NAME: ..."; out
 * (may be NULL) receives the extent. */
accel_status accel__array_check(const char *fn, const char *name, const accel_array *a,
                                accel__extent *out);
/* view.c: the broadcast shape of count valid arrays (names for messages);
 * ACCEL_ERROR_SHAPE_MISMATCH naming the first that does not fit. */
accel_status accel__broadcast(const char *fn, size_t count, const accel_array *const *arrays,
                              const char *const *names, uint32_t *out_ndim, int64_t *out_shape);
/* view.c: "(2, 3, 4)" into buf (cap bytes); returns buf. */
const char *accel__shape_str(uint32_t ndim, const int64_t *shape, char *buf, size_t cap);

#endif /* ACCEL_CORE_ARRAYS_INTERNAL_H */
