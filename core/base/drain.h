/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/base/drain.h — waiting for a queue from inside the core (xop.c), for
 * work whose last step is a write on the queue from host memory that the
 * core fills first: the fallback's result (check/fallback.c, kernels'
 * kernel_check.c) and a staged cross-backend copy (base/queue.c).
 *
 * Why not a host function followed by the write: a backend may read a
 * write's source at the call rather than when its queue gets there (CUDA
 * copies pageable memory into a staging buffer at once; backend.h says so),
 * so a write enqueued behind the host function that fills its source sends
 * what the memory held before. The core waits for the queue, fills the
 * memory itself, then enqueues the write. */
#ifndef ACCEL_CORE_BASE_DRAIN_H
#define ACCEL_CORE_BASE_DRAIN_H

#include "base/objects.h" /* accel_queue, accel__xop */

/* Wait, q->lock held, until every item enqueued on q so far has run. A
 * failure the backend reports (an earlier op's sticky error) is kept for q's
 * next finish, message and all, and returned so the caller skips its own
 * work, as a queue skips work after a fault. */
accel_status accel__queue_drain_locked(accel_queue *q, const char *fn);

/* Keep x (whose host function is never run) on q until q's next finish:
 * for host memory that a transfer already enqueued on q still reads (its
 * payload or bounce). q->lock held; q owns x from here. */
void accel__queue_hold_locked(accel_queue *q, accel__xop *x);

#endif /* ACCEL_CORE_BASE_DRAIN_H */
