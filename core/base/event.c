/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/event.c — events: create, record, wait (also across backends, via a
 * host function that polls the event's backend; see queue.c), synchronize,
 * query, elapsed time. An event is freed when the caller has released it and
 * no pending cross-backend wait still refers to it. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/handle.h"
#include "base/objects.h"
#include "base/status.h"
#include "base/xop.h"

accel_status accel_event_create(accel_device *dev, accel_event **out_event)
{
    static const char fn[] = "accel_event_create";
    if (out_event)
        *out_event = NULL;
    ACCEL__CALL(call);
    void *mem;
    ACCEL__TRY(
        accel__enter_new(&call, fn, &dev, out_event, "out_event", sizeof(accel_event), &mem));
    accel_event *ev = mem;
    accel__clear_error();
    int32_t rc = dev->be->vt->event_create(dev->be->ctx, dev->index, &ev->be);
    if (rc != ACCEL_SUCCESS) {
        free(ev);
        return accel__fail_relay((accel_status)rc, "%s: on %s", fn, dev->name);
    }
    ev->dev = dev;
    atomic_init(&ev->refs, 1);
    atomic_init(&ev->recorded_on, NULL);
    if (accel__handle_new(ACCEL__T_EVENT, ev, dev->rt->gate, &ev->handle) != ACCEL_SUCCESS) {
        dev->be->vt->event_destroy(dev->be->ctx, ev->be);
        free(ev);
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    }
    ACCEL__RT_LIST(PUSH, dev->rt, events, ev);
    *out_event = ev->handle;
    return ACCEL_SUCCESS;
}

void accel_event_release(accel_event *ev)
{
    /* The handle dies now even if a pending wait keeps the object; calls of
     * other threads that resolved it (a synchronize waiting) return first. */
    ACCEL__ENTER_RELEASE("accel_event_release", ev, ACCEL__T_EVENT);
    accel__event_unref(ev);
}

accel_status accel_event_record(accel_event *ev, accel_queue *q)
{
    static const char fn[] = "accel_event_record";
    ACCEL__CALL(call);
    accel_status st =
        accel__enter2(&call, fn, ev, ACCEL__T_EVENT, "ev", &ev, q, ACCEL__T_QUEUE, "q", &q);
    if (st != ACCEL_SUCCESS)
        return st;
    if (ev->dev != q->dev)
        return accel__fail(ACCEL_ERROR_DEVICE_MISMATCH, "%s: ev belongs to %s but q is on %s", fn,
                           ev->dev->name, q->dev->name);
    if (__builtin_expect(accel__capturing(q), 0) && q->dev->rt->capture->event_record(q, ev, &st))
        return st;
    const accel_backend *vt = q->dev->be->vt;
    void *ctx = q->dev->be->ctx;
    /* The latest record wins (as cudaEventRecord). Re-recording on another
     * queue while the earlier record is still pending drops that queue's
     * work from every later wait on ev: say so. */
    accel_queue *prev = atomic_exchange(&ev->recorded_on, q->handle);
    if (prev && prev != q->handle) {
        int done = 1;
        if (vt->event_query(ctx, ev->be, &done) == ACCEL_SUCCESS && !done)
            accel__log(ACCEL_LOG_WARN,
                       "%s: ev (on %s) is recorded on a second queue while its record on "
                       "another queue is still pending; the latest record wins, so waits on ev "
                       "no longer cover the first queue's work (use one event per queue, e.g. "
                       "accel_queue_wait_queues)",
                       fn, ev->dev->name);
    }
    pthread_mutex_lock(&q->lock);
    accel__clear_error();
    int32_t rc = vt->event_record(ctx, ev->be, q->be);
    pthread_mutex_unlock(&q->lock);
    if (rc != ACCEL_SUCCESS)
        return accel__fail_relay((accel_status)rc, "%s", fn);
    return ACCEL_SUCCESS;
}

/* A cross-backend wait, in a host function of the waiting queue: poll the
 * event's own backend. The xop holds a reference to the event. */
static void wait_run(accel__xop *x)
{
    accel_event *ev = x->payload;
    accel__be_event_wait(ev->dev->be->vt, ev->dev->be->ctx, ev->be);
}

static void wait_release(accel__xop *x)
{
    accel__event_unref(x->payload);
    x->payload = NULL;
}

/* x enqueued on q as a wait for ev, whose reference x takes over (released
 * with x, on a failure too). */
static accel_status enqueue_wait(accel_queue *q, accel__xop *x, accel_event *ev)
{
    x->payload = ev;
    x->run = wait_run;
    x->release = wait_release;
    return accel__queue_enqueue_xop(q, x);
}

/* q waits, in its backend, for bev (an event of that same backend). */
static accel_status backend_wait(const char *fn, accel_queue *q, accel_be_event *bev)
{
    pthread_mutex_lock(&q->lock);
    accel__clear_error();
    int32_t rc = q->dev->be->vt->queue_wait_event(q->dev->be->ctx, q->be, bev);
    pthread_mutex_unlock(&q->lock);
    if (rc != ACCEL_SUCCESS)
        return accel__fail_relay((accel_status)rc, "%s", fn);
    return ACCEL_SUCCESS;
}

/* Record a fresh event at the end of src and make q wait for it; the event
 * is released at once (pending waits keep what they need). */
static accel_status wait_one_queue(const char *fn, accel_queue *q, accel_queue *src)
{
    accel_device *dev = src->dev;
    const accel_backend *vt = dev->be->vt;
    accel__clear_error();
    accel_be_event *bev = NULL;
    int32_t rc = vt->event_create(dev->be->ctx, dev->index, &bev);
    if (rc != ACCEL_SUCCESS)
        return accel__fail_relay((accel_status)rc, "%s: creating an event on %s", fn, dev->name);
    pthread_mutex_lock(&src->lock);
    accel__clear_error();
    rc = vt->event_record(dev->be->ctx, bev, src->be);
    pthread_mutex_unlock(&src->lock);
    if (rc != ACCEL_SUCCESS) {
        vt->event_destroy(dev->be->ctx, bev);
        return accel__fail_relay((accel_status)rc, "%s: recording on a queue of %s", fn, dev->name);
    }
    if (dev->be == q->dev->be) {
        accel_status st = backend_wait(fn, q, bev);
        /* The backend keeps what a pending wait needs (backend.h). */
        vt->event_destroy(dev->be->ctx, bev);
        return st;
    }
    /* Another backend: a host function on q polls it, through an accel_event
     * that the pending wait holds the only reference to. */
    accel_event *ev = calloc(1, sizeof *ev);
    accel__xop *x = ev ? accel__xop_new(fn, 0) : NULL;
    if (!x) {
        free(ev);
        vt->event_destroy(dev->be->ctx, bev);
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    }
    ev->dev = dev;
    ev->be = bev;
    atomic_init(&ev->refs, 1);
    atomic_init(&ev->recorded_on, src->handle);
    ACCEL__RT_LIST(PUSH, dev->rt, events, ev);
    return enqueue_wait(q, x, ev); /* the wait's reference: the event dies with the xop */
}

accel_status accel_queue_wait_queues(accel_queue *q, accel_queue *const *queues, size_t n)
{
    static const char fn[] = "accel_queue_wait_queues";
    ACCEL__CALL(call);
    accel_status st = accel__enter(&call, fn, q, ACCEL__T_QUEUE, "q", &q);
    if (st != ACCEL_SUCCESS)
        return st;
    if (n > 0 && !queues)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: queues is NULL with n = %zu", fn, n);
    /* Every handle first, so that a bad one enqueues nothing. */
    for (size_t i = 0; i < n; i++) {
        char name[40];
        snprintf(name, sizeof name, "queues[%zu]", i);
        accel_queue *src = NULL;
        accel__arg a = {queues[i], ACCEL__T_QUEUE, name, &src, NULL};
        st = accel__call_resolve(&call, fn, "q", &a);
        if (st != ACCEL_SUCCESS)
            return st;
    }
    for (size_t i = 0; i < n; i++) {
        accel_queue *src = NULL;
        accel__arg a = {queues[i], ACCEL__T_QUEUE, "queues[i]", &src, NULL};
        st = accel__call_resolve(&call, fn, "q", &a);
        if (st == ACCEL_SUCCESS && src != q)
            st = wait_one_queue(fn, q, src);
        if (st != ACCEL_SUCCESS)
            return st;
    }
    return ACCEL_SUCCESS;
}

accel_status accel_queue_wait_event(accel_queue *q, accel_event *ev)
{
    static const char fn[] = "accel_queue_wait_event";
    ACCEL__CALL(call);
    accel_status st =
        accel__enter2(&call, fn, q, ACCEL__T_QUEUE, "q", &q, ev, ACCEL__T_EVENT, "ev", &ev);
    if (st != ACCEL_SUCCESS)
        return st;
    if (q->dev->rt->capture->wait_event(q, ev, fn, &st))
        return st;
    if (ev->dev->be == q->dev->be)
        return backend_wait(fn, q, ev->be);
    accel__xop *x = accel__xop_new(fn, 0);
    if (!x)
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    atomic_fetch_add(&ev->refs, 1);
    return enqueue_wait(q, x, ev);
}

accel_status accel_event_synchronize(accel_event *ev)
{
    static const char fn[] = "accel_event_synchronize";
    ACCEL__CALL(call);
    ACCEL__TRY(accel__enter(&call, fn, ev, ACCEL__T_EVENT, "ev", &ev));
    accel_status st = ev->dev->rt->capture->refuse_event_sync(ev, fn);
    if (st != ACCEL_SUCCESS)
        return st;
    accel__clear_error();
    int32_t rc = ev->dev->be->vt->event_synchronize(ev->dev->be->ctx, ev->be);
    if (rc != ACCEL_SUCCESS)
        return accel__fail_relay((accel_status)rc, "%s", fn);
    return ACCEL_SUCCESS;
}

accel_status accel_event_query(accel_event *ev, bool *out_done)
{
    static const char fn[] = "accel_event_query";
    ACCEL__CALL(call);
    ACCEL__TRY(accel__enter_out(&call, fn, ev, ACCEL__T_EVENT, "ev", &ev, out_done, "out_done"));
    int done = 0;
    accel__clear_error();
    int32_t rc = ev->dev->be->vt->event_query(ev->dev->be->ctx, ev->be, &done);
    if (rc != ACCEL_SUCCESS)
        return accel__fail_relay((accel_status)rc, "%s", fn);
    *out_done = done != 0;
    return ACCEL_SUCCESS;
}

accel_status accel_event_elapsed_ms(accel_event *start, accel_event *end, double *out_ms)
{
    static const char fn[] = "accel_event_elapsed_ms";
    ACCEL__CALL(call);
    ACCEL__TRY(accel__enter2(&call, fn, start, ACCEL__T_EVENT, "start", &start, end, ACCEL__T_EVENT,
                             "end", &end));
    if (!out_ms)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: out_ms is NULL", fn);
    if (start->dev != end->dev)
        return accel__fail(ACCEL_ERROR_DEVICE_MISMATCH, "%s: start is on %s but end is on %s", fn,
                           start->dev->name, end->dev->name);
    accel__clear_error();
    int32_t rc =
        start->dev->be->vt->event_elapsed_ms(start->dev->be->ctx, start->be, end->be, out_ms);
    if (rc != ACCEL_SUCCESS)
        return accel__fail_relay((accel_status)rc, "%s", fn);
    return ACCEL_SUCCESS;
}
