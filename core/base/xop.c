/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/xop.c — the host-work engine: work a queue runs in a host function
 * (queue_host_fn) because it calls into another backend or must wait for one:
 * cross-backend copies and waits (queue.c, event.c), fallback and verify
 * mode. The queue keeps its xops in a list; finished ones without an error
 * are reaped at the next enqueue, the rest at the queue's next finish, which
 * reports the oldest error (the plugin cannot make it sticky for us). */
#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/backoff.h"
#include "base/drain.h"
#include "base/objects.h"
#include "base/status.h"
#include "base/xop.h"

/* The inline payload starts at the first max_align_t boundary after the xop. */
#define XOP_PAYLOAD_OFFSET                                                                         \
    ((sizeof(accel__xop) + alignof(max_align_t) - 1) / alignof(max_align_t) * alignof(max_align_t))

accel__xop *accel__xop_new(const char *fn, size_t payload_bytes)
{
    if (payload_bytes > SIZE_MAX - XOP_PAYLOAD_OFFSET)
        return NULL;
    accel__xop *x = calloc(1, payload_bytes ? XOP_PAYLOAD_OFFSET + payload_bytes : sizeof *x);
    if (!x)
        return NULL;
    x->fn = fn;
    atomic_init(&x->done, 0);
    x->status = ACCEL_SUCCESS;
    if (payload_bytes)
        x->payload = (char *)x + XOP_PAYLOAD_OFFSET;
    return x;
}

/* Release job through release, which takes an xop, where no xop holds it. */
static void release_bare(void (*release)(accel__xop *), void *job)
{
    accel__xop tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.payload = job;
    release(&tmp);
}

accel__xop *accel__xop_owning(const char *fn, void *job, void (*release)(accel__xop *))
{
    accel__xop *x = job ? accel__xop_new(fn, 0) : NULL;
    if (!x) {
        if (job)
            release_bare(release, job);
        accel__set_error("%s: out of host memory", fn);
        return NULL;
    }
    x->payload = job;
    x->release = release;
    return x;
}

void accel__xop_nothing(accel__xop *xop)
{
    (void)xop;
}

void accel__xop_finish_now(accel__xop *xop)
{
    void (*finish)(accel__xop *) = xop->finish;
    xop->finish = NULL;
    finish(xop);
    if (xop->release)
        xop->release(xop);
    xop->keep = false;
}

void accel__xop_free(accel__xop *x)
{
    if (!x)
        return;
    if (x->release)
        x->release(x);
    free(x->bounce);
    free(x);
}

accel_status accel__queue_enqueue_check_locked(accel_queue *q, const char *fn, void *job,
                                               void (*check)(accel__xop *),
                                               void (*release)(accel__xop *), bool deferred)
{
    accel__xop *x = accel__xop_new(fn, 0);
    accel_status st = x ? ACCEL_SUCCESS : ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    if (x) {
        x->payload = job;
        x->release = release;
        x->keep = true;
        x->finish = check;
        x->run = deferred ? accel__xop_nothing : accel__xop_finish_now;
        st = accel__queue_enqueue_xop_locked(q, x);
    }
    if (st == ACCEL_SUCCESS)
        return st;
    q->dev->be->vt->queue_finish(q->dev->be->ctx, q->be);
    if (x)
        accel__xop_free(x);
    else
        release_bare(release, job);
    return st;
}

void accel__be_event_wait(const accel_backend *vt, void *ctx, accel_be_event *ev)
{
    long sleep_ns = 2000;
    for (unsigned spin = 0;; spin++) {
        int done = 0;
        int32_t rc = vt->event_query(ctx, ev, &done);
        if (rc != ACCEL_SUCCESS || done)
            return; /* a failure belongs to the recording queue, not to us */
        accel__backoff(spin, &sleep_ns, 500000);
    }
}

static void xop_run(void *user)
{
    accel__xop *x = user;
    x->run(x);
    atomic_store(&x->done, 1);
}

/* Free finished xops that hold nothing the queue still needs and carry no
 * error (errors wait for the next finish). */
static void reap_done_locked(accel_queue *q)
{
    accel__xop **link = &q->xops;
    while (*link) {
        accel__xop *x = *link;
        if (atomic_load(&x->done) && x->status == ACCEL_SUCCESS && !x->bounce && !x->keep &&
            !x->finish) {
            *link = x->next;
            accel__xop_free(x);
        } else {
            link = &x->next;
        }
    }
}

accel_status accel__xops_collect_locked(accel_queue *q, char *msg, size_t cap)
{
    accel_status st = ACCEL_SUCCESS;
    /* Deferred work (verify.c) runs now that the queue has drained. */
    for (accel__xop *x = q->xops; x; x = x->next) {
        if (x->finish && atomic_load(&x->done))
            x->finish(x);
    }
    /* The list is newest first; the oldest error is the one to report. */
    for (accel__xop *x = q->xops; x; x = x->next) {
        if (atomic_load(&x->done) && x->status != ACCEL_SUCCESS) {
            st = x->status;
            snprintf(msg, cap, "%s", x->message);
        }
    }
    while (q->xops) {
        accel__xop *x = q->xops;
        q->xops = x->next;
        accel__xop_free(x);
    }
    return st;
}

accel_status accel__queue_enqueue_xop_locked(accel_queue *q, accel__xop *x)
{
    reap_done_locked(q);
    accel__clear_error();
    int32_t rc = q->dev->be->vt->queue_host_fn(q->dev->be->ctx, q->be, xop_run, x);
    if (rc != ACCEL_SUCCESS)
        return accel__fail_relay((accel_status)rc, "%s: enqueueing a host function on %s", x->fn,
                                 q->dev->name);
    x->next = q->xops;
    q->xops = x;
    return ACCEL_SUCCESS;
}

accel_status accel__queue_enqueue_xop(accel_queue *q, accel__xop *x)
{
    pthread_mutex_lock(&q->lock);
    accel_status st = accel__queue_enqueue_xop_locked(q, x);
    pthread_mutex_unlock(&q->lock);
    if (st != ACCEL_SUCCESS)
        accel__xop_free(x);
    return st;
}

accel_status accel__queue_drain_locked(accel_queue *q, const char *fn)
{
    accel__clear_error();
    int32_t rc = q->dev->be->vt->queue_finish(q->dev->be->ctx, q->be);
    if (rc == ACCEL_SUCCESS)
        return ACCEL_SUCCESS;
    /* queue_finish returned (and cleared) the sticky error: keep it. */
    accel__xop *x = accel__xop_new(fn, 0);
    if (x) {
        x->status = (accel_status)rc;
        snprintf(x->message, sizeof x->message, "%s",
                 *accel_last_error() ? accel_last_error() : accel_status_string(x->status));
        accel__queue_hold_locked(q, x);
    }
    return (accel_status)rc;
}

void accel__queue_hold_locked(accel_queue *q, accel__xop *x)
{
    x->keep = true;
    atomic_store(&x->done, 1);
    x->next = q->xops;
    q->xops = x;
}
