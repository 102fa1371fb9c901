/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/arrays/scratch.c — the temporaries of array functions (a chunked
 * reduction's partials, a staged FFT, unique's work arrays, linalg's
 * scratch) given up once the function has enqueued their last use on its
 * queue: kept by the queue's open capture, or freed when the queue reaches
 * that point (one event on it), never by accel_buffer_release's wait for
 * every queue of the runtime, which another queue's host function could
 * hold up for ever. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "arrays/arrays_internal.h"
#include "base/handle.h"
#include "base/objects.h"
#include "base/status.h"

/* While q records a graph (from any thread), buf becomes the graph's
 * temporary: true when it is one now. */
static bool kept_by_capture(accel_queue *q, accel_buffer *buf)
{
    ACCEL__CALL(call);
    accel_queue *qo;
    accel__type type;
    accel__gate *gate;
    accel_buffer *bo = accel__handle_peek(buf, &type, &gate);
    if (!bo || type != ACCEL__T_BUFFER ||
        accel__enter(&call, "accel_array", q, ACCEL__T_QUEUE, "q", &qo) != ACCEL_SUCCESS ||
        !accel__capturing(qo))
        return false;
    return atomic_load(&bo->graph_temp) || qo->dev->rt->capture->adopt_buffer(qo, bo);
}

/* Whether any of the n buffers was given to enqueued work. */
static bool any_enqueued(accel_buffer *const *bufs, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        accel__type type;
        accel__gate *gate;
        accel_buffer *bo = bufs[i] ? accel__handle_peek(bufs[i], &type, &gate) : NULL;
        if (bo && type == ACCEL__T_BUFFER && atomic_load(&bo->enqueued))
            return true;
    }
    return false;
}

void accel__array_temps_done(accel_queue *q, accel_buffer *const *bufs, uint32_t n, accel_status st)
{
    char msg[512];
    snprintf(msg, sizeof msg, "%s", accel_last_error());
    accel_buffer *left[ACCEL__ARRAY_TEMPS_MAX];
    uint32_t nl = 0;
    for (uint32_t i = 0; i < n && i < ACCEL__ARRAY_TEMPS_MAX; i++)
        if (bufs[i] && !kept_by_capture(q, bufs[i]))
            left[nl++] = bufs[i];
    bool reached = !any_enqueued(left, nl);
    if (!reached) {
        accel_event *ev = NULL;
        reached = accel_event_create(accel_queue_device(q), &ev) == ACCEL_SUCCESS &&
                  accel_event_record(ev, q) == ACCEL_SUCCESS &&
                  accel_event_synchronize(ev) == ACCEL_SUCCESS;
        accel_event_release(ev);
    }
    for (uint32_t i = 0; i < nl; i++) {
        if (reached)
            accel__buffer_release_drained(left[i]);
        else
            accel_buffer_release(left[i]); /* waits for every queue */
    }
    if (st != ACCEL_SUCCESS)
        accel__set_error("%s", msg);
}

/* Scratch sizes grow to a multiple of this, at least twice the last. */
#define SCRATCH_ROUND ((size_t)64 << 10)

accel_status accel__array_scratch_take(accel_queue *q, size_t bytes, accel_buffer **out,
                                       accel_queue **owner)
{
    ACCEL__CALL(call);
    accel_queue *qo;
    *out = NULL;
    *owner = NULL;
    ACCEL__TRY(accel__enter(&call, "accel_array", q, ACCEL__T_QUEUE, "q", &qo));
    accel_device *dev = accel_queue_device(q);
    if (accel__capturing(qo))
        return accel_buffer_create(dev, bytes, out);
    pthread_mutex_lock(&qo->scratch_lock);
    if (qo->scratch_bytes < bytes) {
        if (qo->scratch) /* q's earlier work may still use it */
            accel__array_temps_done(q, &qo->scratch, 1, ACCEL_SUCCESS);
        qo->scratch = NULL;
        qo->scratch_bytes = 0;
        size_t want = bytes > SIZE_MAX / 2 ? bytes : 2 * bytes;
        want = (want + SCRATCH_ROUND - 1) / SCRATCH_ROUND * SCRATCH_ROUND;
        accel_status st = accel_buffer_create(dev, want ? want : bytes, &qo->scratch);
        if (st != ACCEL_SUCCESS) {
            qo->scratch = NULL;
            pthread_mutex_unlock(&qo->scratch_lock);
            return st;
        }
        qo->scratch_bytes = want;
    }
    /* The caller's own call keeps q's object alive (accel_runtime_close
     * waits for calls in flight) until accel__array_scratch_done. */
    *out = qo->scratch;
    *owner = qo;
    return ACCEL_SUCCESS;
}

void accel__array_scratch_done(accel_queue *q, accel_buffer *buf, accel_queue *owner,
                               accel_status st)
{
    if (!owner) {
        accel__array_temps_done(q, &buf, 1, st);
        return;
    }
    char msg[512] = "";
    if (st != ACCEL_SUCCESS) /* kept across kept_by_capture's calls */
        snprintf(msg, sizeof msg, "%s", accel_last_error());
    /* a capture that another thread began since the take recorded launches
     * that use the scratch: the graph keeps it */
    if (kept_by_capture(q, buf)) {
        owner->scratch = NULL;
        owner->scratch_bytes = 0;
    }
    pthread_mutex_unlock(&owner->scratch_lock);
    if (st != ACCEL_SUCCESS)
        accel__set_error("%s", msg);
}
