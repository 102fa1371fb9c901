/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/base/trace.h — ACCEL_TRACE: spans around plugin calls, written as Chrome trace-event JSON
 * (trace.c). Not installed. */
#ifndef ACCEL_CORE_BASE_TRACE_H
#define ACCEL_CORE_BASE_TRACE_H

#include <stdatomic.h>
#include <stdint.h>

#include "base/objects.h"

/* Number of open runtimes that trace (ACCEL_TRACE=FILE). The op and transfer
 * paths test it once (a relaxed load and a predictable branch) and only then
 * take the traced path. */
extern atomic_int accel__tracing;
#define ACCEL__TRACING()                                                                           \
    __builtin_expect(atomic_load_explicit(&accel__tracing, memory_order_relaxed) != 0, 0)

/* At the end of accel_runtime_open: start tracing when $ACCEL_TRACE names a
 * file. At accel_runtime_close, after the queues drained and before the
 * backends unload: write the Chrome trace-event JSON and free the state. */
void accel__trace_open(accel_runtime *rt);
void accel__trace_close(accel_runtime *rt);
/* A span around one plugin call on q (q->lock held): begin records the
 * start event and returns the span's index, or ACCEL__NO_SPAN when q's
 * runtime does not trace or anything is missing; end records the end event
 * after the call returned rc (a failed call's span is dropped). cat is "op"
 * or "transfer"; bytes, flops and n go to the span's arguments. */
#define ACCEL__NO_SPAN SIZE_MAX
size_t accel__trace_begin_locked(accel_queue *q, const char *name, const char *cat, uint32_t dtype,
                                 uint64_t bytes, uint64_t flops, uint64_t n);
void accel__trace_end_locked(accel_queue *q, size_t span, int32_t rc);

#endif /* ACCEL_CORE_BASE_TRACE_H */
