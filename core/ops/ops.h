/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/ops/ops.h — the public op calls' named forms, for the shorter calls built on them (ops.c,
 * rng.c). Not installed. */
#ifndef ACCEL_CORE_OPS_OPS_H
#define ACCEL_CORE_OPS_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/objects.h"

/* ops.c: accel_gemm with fn naming the public call in messages (the
 * shorter forms built on it, e.g. accel_matmul_sub). */
accel_status accel__gemm_named(const char *fn, accel_queue *q, const accel_gemm_desc *d);
/* accel_random_uniform / accel_random_normal (normal) named fn (rng.c). */
accel_status accel__random_named(const char *fn, accel_queue *q, bool normal, accel_dtype dtype,
                                 uint64_t seed, uint64_t rng_offset, double mean, double stddev,
                                 accel_slice out);

/* accel_cumsum_segments named fn, only where q's backend runs
 * ACCEL_OP_CUMSUM for this geometry: ACCEL_ERROR_UNSUPPORTED (no message,
 * no fallback) otherwise, so that the caller runs its generated kernel
 * (core/arrays/stats.c). */
accel_status accel__cumsum_native(const char *fn, accel_queue *q, accel_dtype dtype,
                                  accel_dtype out_dtype, size_t outer, size_t n, size_t inner,
                                  accel_slice x, accel_slice out);

#endif /* ACCEL_CORE_OPS_OPS_H */
