/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/base/struct_size.h — versioned public structs: reading and writing them by struct_size
 * (struct_size.c). Not installed. */
#ifndef ACCEL_CORE_BASE_STRUCT_SIZE_H
#define ACCEL_CORE_BASE_STRUCT_SIZE_H

#include <stdbool.h>
#include <stddef.h>

#include "accel/accel.h"

/* The size of a versioned struct's first version: up to the end of its last
 * field as first published (fields are only ever appended). */
#define ACCEL__SIZE_UPTO(type, last) (offsetof(type, last) + sizeof(((type *)0)->last))
#define ACCEL__GEMM_DESC_SIZE_V1 ACCEL__SIZE_UPTO(accel_gemm_desc, allow_tf32)
#define ACCEL__DEVICE_PROPERTIES_SIZE_V1 ACCEL__SIZE_UPTO(accel_device_properties, reserved)
#define ACCEL__CEILINGS_OPTIONS_SIZE_V1 ACCEL__SIZE_UPTO(accel_ceilings_options, reserved)
#define ACCEL__CEILINGS_SIZE_V1 ACCEL__SIZE_UPTO(accel_ceilings, reserved)
#define ACCEL__VERIFY_OPTIONS_SIZE_V1 ACCEL__SIZE_UPTO(accel_verify_options, guard_elements)
#define ACCEL__VERIFY_STATS_SIZE_V1 ACCEL__SIZE_UPTO(accel_verify_stats, repro_files)
#define ACCEL__REPORT_ROW_SIZE_V1 ACCEL__SIZE_UPTO(accel_report_row, reason)

/* An _init function's start: where s is not NULL, zero its bytes and set its
 * struct_size (the first uint32_t) to bytes; false where s is NULL. */
bool accel__struct_init(void *s, size_t bytes);
/* In: refuse struct_size < v1 (ACCEL_ERROR_INVALID_ARGUMENT, "fn:
 * arg->struct_size ..."), else copy the caller's first min(struct_size,
 * ours) bytes over *local (which holds the _init defaults) and set local's
 * struct_size to ours. Reads nothing of *in but struct_size before that. */
accel_status accel__struct_in(const char *fn, const char *arg, const void *in, size_t v1,
                              size_t ours, void *local);
/* Out: refuse struct_size < v1; else *out_bytes = min(struct_size, ours),
 * the most that may be written (accel__struct_out_write, which also sets
 * the written struct_size to that). */
/* Both refuse a NULL struct (ACCEL_ERROR_INVALID_ARGUMENT, "fn: arg is NULL"). */
accel_status accel__struct_out_size(const char *fn, const char *arg, const void *out, size_t v1,
                                    size_t ours, size_t *out_bytes);
void accel__struct_out_write(void *out, const void *ours, size_t bytes);

#endif /* ACCEL_CORE_BASE_STRUCT_SIZE_H */
