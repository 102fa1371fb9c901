/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/capture.h — the capture hooks (capture.c), filling the recorded
 * graph of graph_record.h. Not installed.
 *
 * The hook sits below validation: accel__submit (submit.c), the transfers and
 * copies (queue.c), event records and waits (event.c) and buffer creation
 * (buffer.c) call it once their arguments are checked; it appends a deep copy
 * to the capturing queue's graph (graph_record.c) and calls nothing above
 * it. graph.c, above all of these, replays a graph through accel__submit and
 * the public transfer calls. */
#ifndef ACCEL_CORE_CAPTURE_H
#define ACCEL_CORE_CAPTURE_H

#include "graphs/graph_record.h"

/* The hooks. Each returns true when q was capturing and the work was
 * recorded or refused (*out_st says which), false when q is not capturing
 * and the caller goes on as usual. Callers hold no lock. */
bool accel__capture_op(accel_queue *q, const accel_op_desc *d, unsigned flags,
                       accel_status *out_st);
bool accel__capture_transfer(accel_queue *q, bool to_device, accel_buffer *buf, size_t offset,
                             const void *src, void *dst, size_t bytes, accel_status *out_st);
bool accel__capture_copy(accel_queue *q, accel_buffer *src, size_t src_offset, accel_buffer *dst,
                         size_t dst_offset, size_t bytes, accel_status *out_st);
bool accel__capture_event_record(accel_queue *q, accel_event *ev, accel_status *out_st);
/* accel_queue_wait_event on a capturing q: an event recorded in the same
 * capture is already ordered (one in-order queue); any other is an error.
 * Also refuses a wait of an uncaptured queue on an event recorded in an open
 * capture (ev->captured). */
bool accel__capture_wait_event(accel_queue *q, accel_event *ev, const char *fn,
                               accel_status *out_st);
/* Synchronizing calls (finish, blocking transfers) on a capturing q: an
 * error naming fn; ACCEL_SUCCESS when q is not capturing. */
accel_status accel__capture_refuse_sync(const accel_queue *q, const char *fn);
/* accel_event_synchronize of an event recorded in an open capture. */
accel_status accel__capture_refuse_event_sync(const accel_event *ev, const char *fn);
/* accel_buffer_create: a buffer made by a capturing thread on its capture's
 * device becomes a temporary of the capture. */
void accel__capture_buffer_created(accel_device *dev, accel_buffer *buf);
/* buf (on q's device, made by any thread) becomes a temporary of q's open
 * capture, the graph's to free: true; false when q is not capturing or the
 * capture has failed (buf stays the caller's). */
bool accel__capture_adopt_buffer(accel_queue *q, accel_buffer *buf);
/* accel__queue_destroy: drop a capture never ended. */
void accel__capture_queue_destroyed(accel_queue *q);

/* These hooks as the table base/objects.h declares, for accel_runtime_open
 * to install as rt->capture. */
extern const accel__capture_hooks accel__graph_capture_hooks;

#endif /* ACCEL_CORE_CAPTURE_H */
