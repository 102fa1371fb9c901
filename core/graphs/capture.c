/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/capture.c — recording a queue into a graph: begin and end capture,
 * and the hooks the op, transfer, event and buffer paths call once their
 * arguments are validated (core/capture.h). The hooks append deep copies to
 * the open capture's graph; they call only lower rooms (status, handles). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/handle.h"
#include "base/objects.h"
#include "base/status.h"
#include "graphs/capture.h"
#include "graphs/graph_life.h"
#include "kernels/kernels.h"
#include "ops/submit.h"

/* One open capture. The thread that began it ends it; buffers it creates on
 * the device meanwhile are the graph's temporaries. Appends (from any thread
 * enqueuing on q) and the end take q->lock. */
typedef struct accel__capture {
    accel_queue *q;
    pthread_t owner;
    accel_graph *g;
    accel_status failed; /* the first append that could not be recorded */
    char msg[256];
    /* Dropped by another thread (its queue was released): the owner's
     * thread-local pointer still names it; the owner frees it. */
    bool dead;
} accel__capture;

static _Thread_local accel__capture *tl_capture;

/* q->lock held: the open capture of q, or NULL. */
static accel__capture *capture_locked(accel_queue *q)
{
    return atomic_load_explicit(&q->capture, memory_order_relaxed);
}

/* Lock q and return its capture; NULL (q unlocked again) when q is not
 * capturing. */
static accel__capture *capture_lock(accel_queue *q)
{
    pthread_mutex_lock(&q->lock);
    accel__capture *c = capture_locked(q);
    if (!c)
        pthread_mutex_unlock(&q->lock);
    return c;
}

/* A zeroed node of kind, named for messages. */
static void node_init(accel__gnode *n, accel_graph_node_kind kind, const char *name)
{
    memset(n, 0, sizeof *n);
    n->be.struct_size = sizeof n->be;
    n->be.kind = kind;
    n->name = name;
}

/* Record node on c, or remember why not (returned by the end). */
static accel_status append_locked(accel__capture *c, const accel__gnode *node, const char *fn)
{
    if (c->failed != ACCEL_SUCCESS)
        return accel__fail(c->failed, "%s: the capture already failed: %s", fn, c->msg);
    if (!accel__graph_append(c->g, node)) {
        c->failed = ACCEL_ERROR_OUT_OF_HOST_MEMORY;
        snprintf(c->msg, sizeof c->msg, "%s: out of host memory recording node %zu", fn, c->g->n);
        return accel__fail(c->failed, "%s", c->msg);
    }
    return ACCEL_SUCCESS;
}

/* The core buffer behind plugin buffer be (rt->buffers, under rt->lock). */
static accel_buffer *buffer_of(accel_runtime *rt, const accel_be_buffer *be)
{
    accel_buffer *found = NULL;
    pthread_mutex_lock(&rt->lock);
    for (accel_buffer *b = rt->buffers; b; b = b->next)
        if (b->be == be) {
            found = b;
            break;
        }
    pthread_mutex_unlock(&rt->lock);
    return found;
}

static void node_set_buf(accel__gnode *n, uint32_t i, accel_buffer *b)
{
    n->buf[i] = b;
    n->buf_handle[i] = b ? b->handle : NULL;
}

accel_status accel_queue_begin_capture(accel_queue *q)
{
    static const char fn[] = "accel_queue_begin_capture";
    ACCEL__CALL(call);
    ACCEL__TRY(accel__enter(&call, fn, q, ACCEL__T_QUEUE, "q", &q));
    if (tl_capture && tl_capture->dead) {
        free(tl_capture);
        tl_capture = NULL;
    }
    if (tl_capture)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: this thread is already capturing a queue of %s (nested captures "
                           "are not supported; end that one first)",
                           fn, tl_capture->q->dev->name);
    accel__capture *c = calloc(1, sizeof *c);
    accel_graph *g = c ? accel__graph_new(q->dev) : NULL;
    if (!g) {
        free(c);
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    }
    c->q = q;
    c->g = g;
    c->owner = pthread_self();
    pthread_mutex_lock(&q->lock);
    if (capture_locked(q)) {
        pthread_mutex_unlock(&q->lock);
        accel__graph_free(g);
        free(c);
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: q is already capturing (begun by another thread)", fn);
    }
    atomic_store_explicit(&q->capture, c, memory_order_relaxed);
    pthread_mutex_unlock(&q->lock);
    tl_capture = c;
    return ACCEL_SUCCESS;
}

/* Events recorded in c no longer count as captured. */
static void release_events(accel__capture *c)
{
    for (size_t i = 0; i < c->g->n; i++)
        if (c->g->nodes[i].ev)
            atomic_store(&c->g->nodes[i].ev->captured, false);
}

/* Temporaries of a dropped capture become ordinary buffers again: the
 * caller still holds their handles and releases them. */
static void drop(accel__capture *c)
{
    release_events(c);
    for (size_t i = 0; i < c->g->ntemps; i++)
        atomic_store(&c->g->temps[i]->graph_temp, false);
    accel__graph_free(c->g);
    c->g = NULL;
    if (tl_capture == c) {
        tl_capture = NULL;
        free(c);
    } else {
        c->dead = true;
        c->q = NULL;
    }
}

accel_status accel_queue_end_capture(accel_queue *q, accel_graph **out_graph)
{
    static const char fn[] = "accel_queue_end_capture";
    ACCEL__CALL(call);
    if (out_graph)
        *out_graph = NULL;
    accel_status st =
        accel__enter_out(&call, fn, q, ACCEL__T_QUEUE, "q", &q, out_graph, "out_graph");
    if (st != ACCEL_SUCCESS)
        return st;
    pthread_mutex_lock(&q->lock);
    accel__capture *c = capture_locked(q);
    if (!c) {
        pthread_mutex_unlock(&q->lock);
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: q is not capturing (no accel_queue_begin_capture)", fn);
    }
    if (!pthread_equal(c->owner, pthread_self())) {
        pthread_mutex_unlock(&q->lock);
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: the capture of q was begun by another thread, which must end it",
                           fn);
    }
    atomic_store_explicit(&q->capture, NULL, memory_order_relaxed);
    pthread_mutex_unlock(&q->lock);
    tl_capture = NULL;
    if (c->failed != ACCEL_SUCCESS) {
        st = accel__fail(c->failed, "%s: the capture was dropped: %s", fn, c->msg);
        drop(c);
        return st;
    }
    release_events(c);
    accel_graph *g = c->g;
    free(c);
    st = accel__graph_publish(g, fn, out_graph);
    if (st == ACCEL_SUCCESS)
        st = accel__graph_instantiate_new(g, fn);
    if (st != ACCEL_SUCCESS && *out_graph) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", accel_last_error());
        accel_graph_release(*out_graph);
        *out_graph = NULL;
        accel__set_error("%s", msg);
    }
    return st;
}

/* A user kernel launch: its launch descriptor lives only for the call, so
 * the node keeps a deep copy (the kernel retained) and the buffers of its
 * array arguments. */
static accel_status record_kernel_locked(accel__capture *c, accel_queue *q, const accel_op_desc *d)
{
    accel__klaunch *L = accel__klaunch_clone(d);
    if (!L) {
        c->failed = ACCEL_ERROR_OUT_OF_HOST_MEMORY;
        snprintf(c->msg, sizeof c->msg, "%s: out of host memory recording node %zu", d->name,
                 c->g->n);
        return accel__fail(c->failed, "%s", c->msg);
    }
    accel__gnode n;
    node_init(&n, ACCEL_GRAPH_NODE_OP, d->name);
    n.be.op = *d;
    n.be.op.kernel = &L->be;
    n.klaunch = L;
    n.nbuf = L->be.num_args;
    for (uint32_t i = 0; i < L->be.num_args && i < ACCEL__GNODE_BUFS; i++) {
        if (L->args[i].kind != ACCEL_KARG_ARRAY)
            continue;
        accel_buffer *b = buffer_of(q->dev->rt, L->args[i].buffer);
        if (!b) {
            accel__klaunch_free(L);
            return accel__fail(ACCEL_ERROR_INTERNAL,
                               "%s: argument %u is not a live buffer while capturing", d->name, i);
        }
        node_set_buf(&n, i, b);
    }
    accel_status st = append_locked(c, &n, d->name);
    if (st != ACCEL_SUCCESS)
        accel__klaunch_free(L);
    return st;
}

bool accel__capture_op(accel_queue *q, const accel_op_desc *d, unsigned flags, accel_status *out_st)
{
    accel__capture *c = capture_lock(q);
    if (!c)
        return false;
    /* An op of no elements records nothing (eager: nothing is enqueued). */
    accel_status st = ACCEL_SUCCESS;
    if (d->op == ACCEL_OP_KERNEL && !(flags & ACCEL__SUBMIT_EMPTY)) {
        st = record_kernel_locked(c, q, d);
    } else if (!(flags & ACCEL__SUBMIT_EMPTY)) {
        accel__gnode n;
        node_init(&n, ACCEL_GRAPH_NODE_OP, d->name);
        n.be.op = *d;
        n.nbuf = d->num_operands;
        for (uint32_t i = 0; i < d->num_operands && i < 4; i++) {
            accel_buffer *b = buffer_of(q->dev->rt, d->operands[i].buffer);
            node_set_buf(&n, i, b);
            if (!b) {
                st = accel__fail(ACCEL_ERROR_INTERNAL,
                                 "%s: operand %u is not a live buffer while capturing", d->name, i);
                break;
            }
        }
        if (st == ACCEL_SUCCESS)
            st = append_locked(c, &n, d->name);
    }
    pthread_mutex_unlock(&q->lock);
    *out_st = st;
    return true;
}

bool accel__capture_transfer(accel_queue *q, bool to_device, accel_buffer *buf, size_t offset,
                             const void *src, void *dst, size_t bytes, accel_status *out_st)
{
    accel__capture *c = capture_lock(q);
    if (!c)
        return false;
    accel__gnode n;
    node_init(&n, to_device ? ACCEL_GRAPH_NODE_WRITE : ACCEL_GRAPH_NODE_READ,
              to_device ? "accel_queue_write" : "accel_queue_read");
    n.be.bytes = bytes;
    if (to_device) {
        n.be.dst = buf->be;
        n.be.dst_offset = offset;
        n.be.host_src = src;
    } else {
        n.be.src = buf->be;
        n.be.src_offset = offset;
        n.be.host_dst = dst;
    }
    n.nbuf = 1;
    node_set_buf(&n, 0, buf);
    *out_st = append_locked(c, &n, n.name);
    pthread_mutex_unlock(&q->lock);
    return true;
}

bool accel__capture_copy(accel_queue *q, accel_buffer *src, size_t src_offset, accel_buffer *dst,
                         size_t dst_offset, size_t bytes, accel_status *out_st)
{
    accel__capture *c = capture_lock(q);
    if (!c)
        return false;
    accel__gnode n;
    node_init(&n, ACCEL_GRAPH_NODE_COPY, "accel_queue_copy");
    n.be.src = src->be;
    n.be.src_offset = src_offset;
    n.be.dst = dst->be;
    n.be.dst_offset = dst_offset;
    n.be.bytes = bytes;
    n.nbuf = 2;
    node_set_buf(&n, 0, src);
    node_set_buf(&n, 1, dst);
    *out_st = append_locked(c, &n, n.name);
    pthread_mutex_unlock(&q->lock);
    return true;
}

bool accel__capture_event_record(accel_queue *q, accel_event *ev, accel_status *out_st)
{
    accel__capture *c = capture_lock(q);
    if (!c)
        return false;
    accel__gnode n;
    node_init(&n, ACCEL_GRAPH_NODE_EVENT_RECORD, "accel_event_record");
    n.ev = ev;
    atomic_fetch_add(&ev->refs, 1);
    accel_status st = append_locked(c, &n, n.name);
    if (st == ACCEL_SUCCESS)
        atomic_store(&ev->captured, true);
    else
        atomic_fetch_sub(&ev->refs, 1); /* the caller's reference remains */
    pthread_mutex_unlock(&q->lock);
    *out_st = st;
    return true;
}

bool accel__capture_wait_event(accel_queue *q, accel_event *ev, const char *fn,
                               accel_status *out_st)
{
    pthread_mutex_lock(&q->lock);
    accel__capture *c = capture_locked(q);
    bool captured = atomic_load(&ev->captured);
    if (!c) {
        pthread_mutex_unlock(&q->lock);
        if (!captured)
            return false;
        *out_st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                              "%s: ev was recorded in a capture that is still open; a queue "
                              "outside it cannot wait for it (end the capture and launch the "
                              "graph first)",
                              fn);
        return true;
    }
    bool mine = false;
    for (size_t i = 0; i < c->g->n && !mine; i++)
        mine = c->g->nodes[i].ev == ev;
    pthread_mutex_unlock(&q->lock);
    /* One in-order queue: an event recorded earlier in the capture is
     * already behind us. */
    *out_st = mine ? ACCEL_SUCCESS
                   : accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                                 "%s: q is capturing and ev was not recorded in its capture "
                                 "(a graph cannot wait for work outside it)",
                                 fn);
    return true;
}

accel_status accel__capture_refuse_sync(const accel_queue *q, const char *fn)
{
    if (!accel__capturing(q))
        return ACCEL_SUCCESS;
    return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                       "%s: q is capturing; its work is recorded, not run, so it cannot be "
                       "waited for (end the capture first)",
                       fn);
}

accel_status accel__capture_refuse_event_sync(const accel_event *ev, const char *fn)
{
    if (!atomic_load(&((accel_event *)ev)->captured))
        return ACCEL_SUCCESS;
    return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                       "%s: ev was recorded in a capture that is still open; it completes only "
                       "when a launch of the graph runs",
                       fn);
}

void accel__capture_buffer_created(accel_device *dev, accel_buffer *buf)
{
    accel__capture *c = tl_capture;
    if (!c || c->dead || c->q->dev != dev)
        return;
    pthread_mutex_lock(&c->q->lock);
    if (c->failed == ACCEL_SUCCESS) {
        if (accel__graph_add_temp(c->g, buf)) {
            atomic_store(&buf->graph_temp, true);
        } else {
            c->failed = ACCEL_ERROR_OUT_OF_HOST_MEMORY;
            snprintf(c->msg, sizeof c->msg,
                     "accel_buffer_create: out of host memory recording a temporary");
        }
    }
    pthread_mutex_unlock(&c->q->lock);
}

bool accel__capture_adopt_buffer(accel_queue *q, accel_buffer *buf)
{
    bool adopted = false;
    pthread_mutex_lock(&q->lock);
    accel__capture *c = capture_locked(q);
    if (c && !c->dead && c->failed == ACCEL_SUCCESS && buf->dev == q->dev &&
        !atomic_load(&buf->graph_temp)) {
        adopted = accel__graph_add_temp(c->g, buf);
        if (adopted)
            atomic_store(&buf->graph_temp, true);
    }
    pthread_mutex_unlock(&q->lock);
    return adopted;
}

void accel__capture_queue_destroyed(accel_queue *q)
{
    accel__capture *c = atomic_exchange(&q->capture, NULL);
    if (!c)
        return;
    accel__log(ACCEL_LOG_WARN,
               "a queue of %s was released while capturing; the capture (%zu "
               "nodes) is dropped",
               q->dev->name, c->g->n);
    drop(c);
}

const accel__capture_hooks accel__graph_capture_hooks = {
    .op = accel__capture_op,
    .transfer = accel__capture_transfer,
    .copy = accel__capture_copy,
    .event_record = accel__capture_event_record,
    .wait_event = accel__capture_wait_event,
    .refuse_sync = accel__capture_refuse_sync,
    .refuse_event_sync = accel__capture_refuse_event_sync,
    .buffer_created = accel__capture_buffer_created,
    .adopt_buffer = accel__capture_adopt_buffer,
    .queue_destroyed = accel__capture_queue_destroyed,
};
