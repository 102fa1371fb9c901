/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/base/queue_marks.c — waiting for every live queue of a runtime up to
 * its current end (accel__queues_mark_and_wait): what accel_buffer_release
 * and a graph's release do before freeing memory that queued work may
 * still use. Apart from queue.c, which releases a queue's scratch buffer
 * through buffer.c, so that the two files do not call each other. */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include "base/objects.h"
#include "base/status.h"
#include "base/xop.h"

/* One queue's mark for accel__queues_mark_and_wait. The device outlives the
 * queue, so the wait needs nothing of the queue itself. */
typedef struct queue_mark {
    accel_queue *q;
    accel_device *dev;
    accel_be_event *ev;
    bool recorded;
} queue_mark;

accel_status accel__queues_mark_and_wait(accel_runtime *rt, const char *fn)
{
    accel_status st = ACCEL_SUCCESS;
    /* Exclusive: no queue is unlinked or destroyed while it is marked. */
    pthread_rwlock_wrlock(&rt->queue_life);
    pthread_mutex_lock(&rt->lock);
    size_t n = 0;
    for (accel_queue *q = rt->queues; q; q = q->next)
        n++;
    queue_mark *marks = n ? calloc(n, sizeof *marks) : NULL;
    if (marks) {
        size_t i = 0;
        for (accel_queue *q = rt->queues; q; q = q->next, i++) {
            marks[i].q = q;
            marks[i].dev = q->dev;
        }
    }
    pthread_mutex_unlock(&rt->lock);
    if (n && !marks) {
        pthread_rwlock_unlock(&rt->queue_life);
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY,
                           "%s: out of host memory marking %zu queues", fn, n);
    }
    for (size_t i = 0; i < n && st == ACCEL_SUCCESS; i++) {
        accel_queue *q = marks[i].q;
        const accel_backend *vt = q->dev->be->vt;
        void *ctx = q->dev->be->ctx;
        accel__clear_error();
        int32_t rc = vt->event_create(ctx, q->dev->index, &marks[i].ev);
        if (rc != ACCEL_SUCCESS) {
            marks[i].ev = NULL;
            st = accel__fail_relay((accel_status)rc, "%s: creating an event on %s", fn,
                                   q->dev->name);
            break;
        }
        pthread_mutex_lock(&q->lock);
        accel__clear_error();
        rc = vt->event_record(ctx, marks[i].ev, q->be);
        pthread_mutex_unlock(&q->lock);
        if (rc != ACCEL_SUCCESS)
            st = accel__fail_relay((accel_status)rc, "%s: recording an event on a queue of %s", fn,
                                   q->dev->name);
        else
            marks[i].recorded = true;
    }
    pthread_rwlock_unlock(&rt->queue_life);
    /* No lock held: queues may be used, created and released meanwhile. */
    for (size_t i = 0; i < n; i++) {
        if (!marks[i].ev)
            continue;
        const accel_backend *vt = marks[i].dev->be->vt;
        void *ctx = marks[i].dev->be->ctx;
        if (marks[i].recorded)
            accel__be_event_wait(vt, ctx, marks[i].ev);
        vt->event_destroy(ctx, marks[i].ev);
    }
    free(marks);
    return st;
}
