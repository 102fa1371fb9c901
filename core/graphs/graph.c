/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/graph.c — recorded graphs (accel/graph.h): instantiation on the
 * backend's graph entries, launch (natively, or the core's replay of every
 * node through the one op path and the transfer calls), rebinding of
 * buffers, scalars and host pointers, release. The graph as data is
 * graph_record.c's; capture is capture.c's. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/handle.h"
#include "base/loader.h"
#include "base/objects.h"
#include "base/optable.h"
#include "base/status.h"
#include "base/struct_size.h"
#include "base/trace.h"
#include "check/hooks.h"
#include "graphs/fuse.h"
#include "graphs/graph_life.h"
#include "graphs/graph_record.h"
#include "kernels/kernels.h"
#include "ops/submit.h"

/* g->ubuf: the distinct buffers of g's nodes. */
static accel_status collect_buffers_locked(accel_graph *g, const char *fn)
{
    size_t cap = 0;
    for (size_t i = 0; i < g->n; i++)
        cap += g->nodes[i].nbuf;
    accel_buffer **ub = malloc((cap ? cap : 1) * sizeof *ub);
    const void **uh = malloc((cap ? cap : 1) * sizeof *uh);
    if (!ub || !uh) {
        free(ub);
        free(uh);
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    }
    size_t nu = 0;
    for (size_t i = 0; i < g->n; i++)
        for (uint32_t b = 0; b < g->nodes[i].nbuf; b++) {
            if (!g->nodes[i].buf[b])
                continue; /* a kernel's scalar argument */
            size_t k = 0;
            while (k < nu && (ub[k] != g->nodes[i].buf[b] || uh[k] != g->nodes[i].buf_handle[b]))
                k++;
            if (k == nu) {
                ub[nu] = g->nodes[i].buf[b];
                uh[nu++] = g->nodes[i].buf_handle[b];
            }
        }
    free(g->ubuf);
    free((void *)g->uhandle);
    g->ubuf = ub;
    g->uhandle = uh;
    g->nubuf = nu;
    return ACCEL_SUCCESS;
}

/* ------------------------------------------------------ instantiation */

/* Wait until no launch of g may still run (before its backend graph or its
 * temporaries go away). */
static void wait_launches(accel_graph *g, const char *fn)
{
    if (!g->launched)
        return;
    if (accel__queues_mark_and_wait(g->dev->rt, fn) != ACCEL_SUCCESS)
        accel__log(ACCEL_LOG_WARN, "%s", accel_last_error());
    g->launched = false;
}

static void destroy_be_locked(accel_graph *g, const char *fn)
{
    if (!g->be)
        return;
    wait_launches(g, fn);
    const accel__backend *be = g->dev->be;
    be->vt->graph_destroy(be->ctx, g->be);
    g->be = NULL;
}

/* Exec entry e as the backend sees it. */
static accel_graph_node_desc exec_desc(const accel_graph *g, size_t e)
{
    const accel__gexec *x = &g->exec[e];
    if (!x->f)
        return g->nodes[x->first].be;
    accel_graph_node_desc d;
    accel__struct_init(&d, sizeof d);
    d.kind = ACCEL_GRAPH_NODE_OP;
    d.op = *accel__fused_desc(x->f);
    return d;
}

/* Whether the backend's entries may run g's plan: every entry is an op it
 * supports or a transfer or copy within g's device. */
static bool backend_can_run(const accel_graph *g)
{
    const accel__backend *be = g->dev->be;
    const accel_backend *vt = be->vt;
    if (!vt->graph_instantiate || !vt->graph_launch || !vt->graph_destroy || g->n == 0)
        return false;
    for (size_t e = 0; e < g->nexec; e++) {
        if (g->exec[e].f) {
            if (vt->op_supported(be->ctx, g->dev->index, accel__fused_desc(g->exec[e].f)) !=
                ACCEL_SUCCESS)
                return false;
            continue;
        }
        const accel__gnode *n = &g->nodes[g->exec[e].first];
        switch ((accel_graph_node_kind)n->be.kind) {
        case ACCEL_GRAPH_NODE_OP:
            if (vt->op_supported(be->ctx, g->dev->index, &n->be.op) != ACCEL_SUCCESS)
                return false;
            break;
        case ACCEL_GRAPH_NODE_WRITE:
        case ACCEL_GRAPH_NODE_READ:
        case ACCEL_GRAPH_NODE_COPY:
            break;
        case ACCEL_GRAPH_NODE_EVENT_RECORD:
            return false;
        }
        for (uint32_t b = 0; b < n->nbuf; b++)
            if (n->buf[b] && n->buf[b]->dev != g->dev)
                return false;
    }
    return true;
}

/* The refusal of a call that found buffer buf of g released: the first
 * node that uses it is named. */
static accel_status released_fail(const accel_graph *g, const accel_buffer *buf, const char *fn)
{
    for (size_t i = 0; i < g->n; i++)
        for (uint32_t b = 0; b < g->nodes[i].nbuf; b++)
            if (g->nodes[i].buf[b] == buf)
                return accel__fail(ACCEL_ERROR_INVALID_HANDLE,
                                   "%s: node %zu (%s): buffer %u was released; rebind it with "
                                   "accel_graph_set_buffer",
                                   fn, i, g->nodes[i].name, b);
    return accel__fail(ACCEL_ERROR_INVALID_HANDLE, "%s: a buffer of g was released", fn);
}

/* Pin every buffer g uses (g->ubuf): accel_buffer_release waits for the
 * pins, so none is freed while the caller reads it (an instantiation's plan
 * and the backend's graph; a launch until its work is enqueued). A launch
 * also marks each enqueued (its work may use it from now on, whichever way
 * it runs). *ps gets the pins, made known to this thread's releases
 * (accel__pinset_push: a log callback that releases one of them is refused
 * rather than waiting for this thread), to drop with unpin_set. A pin
 * proves the buffer alive; a buffer released meanwhile: released_fail. */
static accel_status pin_all_locked(const accel_graph *g, const char *fn, bool enqueue,
                                   accel__pinset *ps)
{
    *ps = (accel__pinset){NULL, 0, NULL};
    if (!g->nubuf)
        return ACCEL_SUCCESS;
    accel__hslot **pins = malloc(g->nubuf * sizeof *pins);
    if (!pins)
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    for (size_t k = 0; k < g->nubuf; k++) {
        pins[k] = accel__handle_pin(g->uhandle[k], g->ubuf[k]);
        if (!pins[k]) {
            const accel_buffer *dead = g->ubuf[k];
            while (k--)
                accel__handle_unpin(pins[k]);
            free(pins);
            return released_fail(g, dead, fn);
        }
    }
    for (size_t k = 0; enqueue && k < g->nubuf; k++)
        accel__buffer_mark_enqueued(g->ubuf[k]);
    *ps = (accel__pinset){pins, g->nubuf, NULL};
    accel__pinset_push(ps);
    return ACCEL_SUCCESS;
}

/* Pins of every buffer that nodes [first, first + count) use, one a use,
 * into *ps (as pin_all_locked's); false when one was released since (or
 * out of host memory). */
static bool pin_uses_locked(const accel_graph *g, size_t first, size_t count, accel__pinset *ps)
{
    size_t cap = 0, k = 0;
    for (size_t i = first; i < first + count; i++)
        cap += g->nodes[i].nbuf;
    *ps = (accel__pinset){NULL, 0, NULL};
    accel__hslot **pins = malloc((cap ? cap : 1) * sizeof *pins);
    if (!pins)
        return false;
    for (size_t i = first; i < first + count; i++)
        for (uint32_t b = 0; b < g->nodes[i].nbuf; b++) {
            const accel__gnode *n = &g->nodes[i];
            if (!n->buf[b])
                continue; /* a kernel's scalar argument */
            if (!(pins[k] = accel__handle_pin(n->buf_handle[b], n->buf[b]))) {
                while (k--)
                    accel__handle_unpin(pins[k]);
                free(pins);
                return false;
            }
            k++;
        }
    *ps = (accel__pinset){pins, k, NULL};
    accel__pinset_push(ps);
    return true;
}

/* Drop the pins of pin_all_locked or pin_uses_locked (none: no-op). */
static void unpin_set(accel__pinset *ps)
{
    if (!ps->pins)
        return;
    accel__pinset_pop(ps);
    for (size_t k = 0; k < ps->n; k++)
        accel__handle_unpin(ps->pins[k]);
    free(ps->pins);
    ps->pins = NULL;
}

/* The backend's graph of g's plan (buffers pinned by the caller); a
 * refusal is not an error: the core replays what the backend cannot. */
static accel_status instantiate_be_locked(accel_graph *g, const char *fn)
{
    accel_graph_node_desc *descs = malloc(g->nexec * sizeof *descs);
    if (!descs)
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    for (size_t e = 0; e < g->nexec; e++)
        descs[e] = exec_desc(g, e);
    const accel__backend *be = g->dev->be;
    accel__clear_error();
    int32_t rc = be->vt->graph_instantiate(be->ctx, g->dev->index, descs, g->nexec, &g->be);
    free(descs);
    if (rc != ACCEL_SUCCESS) {
        accel__log(ACCEL_LOG_DEBUG,
                   "%s: %s refused the graph of %zu nodes (%s); replaying it "
                   "op by op",
                   fn, g->dev->name, g->nexec, accel_last_error());
        accel__clear_error();
        g->be = NULL;
    }
    return ACCEL_SUCCESS;
}

static accel_status instantiate_locked(accel_graph *g, uint32_t flags, const char *fn)
{
    destroy_be_locked(g, fn);
    /* Fused kernels of the old plan may still run in queued launches. */
    wait_launches(g, fn);
    g->flags = flags; /* also for a refresh after this one fails */
    accel_status st = collect_buffers_locked(g, fn);
    /* The plan and the backend's graph read every buffer g uses: pinned, so
     * that another thread's release cannot free one meanwhile (ASan, a
     * release racing accel_graph_instantiate); a released one is refused
     * here, and g stays uninstantiated until it is rebound and g
     * instantiated again (found by fuzz/fuzz_graph). */
    accel__pinset pins = {NULL, 0, NULL};
    if (st == ACCEL_SUCCESS)
        st = pin_all_locked(g, fn, false, &pins);
    if (st == ACCEL_SUCCESS)
        st = accel__fuse_plan(g, flags, fn);
    if (st != ACCEL_SUCCESS) {
        unpin_set(&pins);
        g->instantiated = false;
        return st;
    }
    g->instantiated = true;
    g->be_stale = false;
    g->plan_stale = false;
    if (!(flags & ACCEL_GRAPH_CORE_REPLAY) && backend_can_run(g))
        st = instantiate_be_locked(g, fn);
    unpin_set(&pins);
    return st;
}

accel_status accel__graph_instantiate_new(accel_graph *g, const char *fn)
{
    pthread_mutex_lock(&g->lock);
    accel_status st = instantiate_locked(g, 0, fn);
    pthread_mutex_unlock(&g->lock);
    return st;
}

void accel_graph_options_init(accel_graph_options *opt)
{
    accel__struct_init(opt, sizeof *opt);
}

accel_status accel_graph_instantiate(accel_graph *g, const accel_graph_options *opt)
{
    static const char fn[] = "accel_graph_instantiate";
    ACCEL__CALL(call);
    ACCEL__TRY(accel__enter(&call, fn, g, ACCEL__T_GRAPH, "g", &g));
    uint32_t flags = 0;
    if (opt) {
        if (opt->struct_size < offsetof(accel_graph_options, flags) + sizeof opt->flags)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: opt->struct_size is %u (use accel_graph_options_init)", fn,
                               opt->struct_size);
        const uint32_t known =
            ACCEL_GRAPH_CORE_REPLAY | ACCEL_GRAPH_NO_FUSION | ACCEL_GRAPH_TEST_FAULT;
        if (opt->flags & ~known)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: unknown flags 0x%x", fn,
                               opt->flags & ~known);
        flags = opt->flags;
    }
    pthread_mutex_lock(&g->lock);
    accel_status st = instantiate_locked(g, flags, fn);
    pthread_mutex_unlock(&g->lock);
    return st;
}

/* ------------------------------------------------------------- launch */

/* Replay of a node that is no op: a transfer as the eager call enqueues it
 * once checked (the node was checked when recorded or rebound, and launch
 * has pinned its buffers), or an event record. */
static accel_status replay_move(accel_queue *q, const accel__gnode *n)
{
    const accel_graph_node_desc *d = &n->be;
    switch ((accel_graph_node_kind)d->kind) {
    case ACCEL_GRAPH_NODE_OP: /* submitted by replay_locked */
        break;
    case ACCEL_GRAPH_NODE_WRITE:
        return accel__queue_transfer("accel_queue_write", q, true, n->buf[0], d->dst_offset,
                                     d->host_src, NULL, d->bytes);
    case ACCEL_GRAPH_NODE_READ:
        return accel__queue_transfer("accel_queue_read", q, false, n->buf[0], d->src_offset, NULL,
                                     d->host_dst, d->bytes);
    case ACCEL_GRAPH_NODE_COPY:
        return accel__queue_copy_enqueue("accel_queue_copy", q, n->buf[0], d->src_offset, n->buf[1],
                                         d->dst_offset, d->bytes);
    case ACCEL_GRAPH_NODE_EVENT_RECORD: {
        /* The graph holds the event, whose handle the caller may have
         * released: recorded on the backend directly. */
        const accel__backend *be = q->dev->be;
        pthread_mutex_lock(&q->lock);
        accel__clear_error();
        int32_t rc = be->vt->event_record(be->ctx, n->ev->be, q->be);
        pthread_mutex_unlock(&q->lock);
        if (rc != ACCEL_SUCCESS)
            return accel__fail_relay((accel_status)rc, "accel_event_record");
        break;
    }
    }
    return ACCEL_SUCCESS;
}

/* The core's replay: each node as the eager call would enqueue it; an op
 * node and a fused kernel both through the one submit path. */
static accel_status replay_locked(accel_graph *g, accel_queue *q, const char *fn)
{
    for (size_t e = 0; e < g->nexec; e++) {
        const accel__gexec *x = &g->exec[e];
        size_t i = x->first;
        const accel__gnode *n = &g->nodes[i];
        const accel_op_desc *op = n->be.kind == ACCEL_GRAPH_NODE_OP ? &n->be.op : NULL;
        const char *kname = NULL, *kops = NULL;
        if (x->f) { /* one fused kernel for nodes i .. i + count - 1 */
            op = accel__fused_desc(x->f);
            kname = accel__fused_name(x->f);
            kops = accel__fused_ops(x->f);
        }
        accel_status st = op ? accel__submit(q, op, 0) : replay_move(q, n);
        if (st != ACCEL_SUCCESS && x->f)
            return accel__fail(st, "%s: nodes %zu-%zu (fused): %s", fn, i, i + x->count - 1,
                               accel_last_error());
        if (st != ACCEL_SUCCESS)
            return accel__fail(st, "%s: node %zu: %s", fn, i, accel_last_error());
        if (kname)
            accel__report_fused(q->dev->rt, q->dev, kname, kops, (uint32_t)x->count);
    }
    return ACCEL_SUCCESS;
}

/* Verify mode, the placement report and the trace see every op: while any is
 * on, the core replays. */
static bool core_replay_now(const accel_runtime *rt)
{
    return atomic_load_explicit(&((accel_runtime *)rt)->checked, memory_order_relaxed) ||
           ACCEL__TRACING();
}

/* g->lock held, g has temporaries: q waits (on the device) for the end of
 * g's latest launch when that was on another queue. */
static accel_status after_last_launch_locked(accel_graph *g, accel_queue *q, const char *fn)
{
    const accel__backend *be = g->dev->be;
    if (!g->tail) {
        accel__clear_error();
        int32_t rc = be->vt->event_create(be->ctx, g->dev->index, &g->tail);
        if (rc != ACCEL_SUCCESS) {
            g->tail = NULL;
            return accel__fail_relay((accel_status)rc, "%s: an event for g's temporaries", fn);
        }
        return ACCEL_SUCCESS;
    }
    if (!g->tail_q || g->tail_q == q->handle)
        return ACCEL_SUCCESS;
    pthread_mutex_lock(&q->lock);
    accel__clear_error();
    int32_t rc = be->vt->queue_wait_event(be->ctx, q->be, g->tail);
    pthread_mutex_unlock(&q->lock);
    return rc == ACCEL_SUCCESS
               ? ACCEL_SUCCESS
               : accel__fail_relay((accel_status)rc, "%s: waiting for g's last launch", fn);
}

/* g->lock held, a launch of g with temporaries just enqueued on q: its end. */
static accel_status mark_launch_end_locked(accel_graph *g, accel_queue *q, const char *fn)
{
    const accel__backend *be = g->dev->be;
    pthread_mutex_lock(&q->lock);
    accel__clear_error();
    int32_t rc = be->vt->event_record(be->ctx, g->tail, q->be);
    pthread_mutex_unlock(&q->lock);
    g->tail_q = rc == ACCEL_SUCCESS ? q->handle : NULL;
    return rc == ACCEL_SUCCESS
               ? ACCEL_SUCCESS
               : accel__fail_relay((accel_status)rc, "%s: marking the launch's end", fn);
}

accel_status accel_graph_launch(accel_graph *g, accel_queue *q)
{
    static const char fn[] = "accel_graph_launch";
    ACCEL__CALL(call);
    accel_status st =
        accel__enter2(&call, fn, g, ACCEL__T_GRAPH, "g", &g, q, ACCEL__T_QUEUE, "q", &q);
    if (st != ACCEL_SUCCESS)
        return st;
    if (q->dev != g->dev)
        return accel__fail(ACCEL_ERROR_DEVICE_MISMATCH, "%s: g was recorded on %s but q is on %s",
                           fn, g->dev->name, q->dev->name);
    if (accel__capturing(q))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: q is capturing (launching a graph inside a capture is not "
                           "supported)",
                           fn);
    pthread_mutex_lock(&g->lock);
    /* Launch only replays: instantiation happens at the end of the capture,
     * in accel_graph_instantiate and in the rebinding calls. A graph left
     * stale by a failed update is refused, never rebuilt here. */
    if (!g->instantiated || g->be_stale || g->plan_stale || !g->ubuf)
        st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                         "%s: g is not instantiated (its last instantiation or update failed: "
                         "call accel_graph_instantiate)",
                         fn);
    /* Pinning proves every buffer alive; a released one: check_alive_locked's
     * message, from pin_all_locked. */
    accel__pinset pins = {NULL, 0, NULL};
    if (st == ACCEL_SUCCESS)
        st = pin_all_locked(g, fn, true, &pins);
    if (st == ACCEL_SUCCESS && g->ntemps)
        st = after_last_launch_locked(g, q, fn);
    if (st == ACCEL_SUCCESS) {
        g->launched = true;
        if (g->be && !core_replay_now(g->dev->rt)) {
            const accel__backend *be = g->dev->be;
            pthread_mutex_lock(&q->lock);
            accel__clear_error();
            int32_t rc = be->vt->graph_launch(be->ctx, q->be, g->be);
            pthread_mutex_unlock(&q->lock);
            if (rc != ACCEL_SUCCESS)
                st = accel__fail_relay((accel_status)rc, "%s", fn);
        } else {
            st = replay_locked(g, q, fn);
        }
    }
    if (st == ACCEL_SUCCESS && g->ntemps)
        st = mark_launch_end_locked(g, q, fn);
    unpin_set(&pins);
    pthread_mutex_unlock(&g->lock);
    return st;
}

/* ---------------------------------------------------------- rebinding */

/* Pass recorded node i's new contents to the backend's graph; a refusal
 * rebuilds it at the next launch. A buffer of a fused kernel changed
 * (buffer_changed): plan again at the next launch (the ranges may now
 * overlap differently). */
static void update_be_locked(accel_graph *g, size_t i, bool buffer_changed)
{
    if (!g->exec_of)
        return;
    size_t e = g->exec_of[i];
    if (g->exec[e].f && buffer_changed) {
        g->plan_stale = true;
        return;
    }
    if (!g->be || g->be_stale)
        return;
    /* The backend resolves every buffer of the exec's nodes (a fused
     * kernel's: all of its run's): pinned meanwhile. One released (its
     * backend buffer freed): rebuilt once all are bound (found by ASan:
     * graph/rebind_one_by_one_after_every_buffer_was_released, and
     * accel_graph_set_scalar on a fused node). */
    accel__pinset pins;
    if (!pin_uses_locked(g, g->exec[e].first, g->exec[e].count, &pins)) {
        g->be_stale = true;
        return;
    }
    const accel__backend *be = g->dev->be;
    accel_graph_node_desc d = exec_desc(g, e);
    accel__clear_error();
    if (!be->vt->graph_update || be->vt->graph_update(be->ctx, g->be, e, &d) != ACCEL_SUCCESS) {
        accel__clear_error();
        g->be_stale = true;
    }
    unpin_set(&pins);
}

/* Bytes of node n's use of its buffer b must fit in `bytes`. */
static bool use_fits(const accel__gnode *n, uint32_t b, size_t bytes)
{
    const accel_graph_node_desc *d = &n->be;
    if (n->klaunch) {
        const accel_kernel_arg_desc *a = &n->klaunch->args[b];
        size_t es = accel__kesize(a->dtype);
        return es && a->offset <= bytes / es && a->count <= bytes / es - a->offset;
    }
    switch ((accel_graph_node_kind)d->kind) {
    case ACCEL_GRAPH_NODE_OP: {
        size_t es = accel__operand_esize(&d->op, b);
        const accel_op_operand *o = &d->op.operands[b];
        return o->offset <= bytes / es && o->count <= bytes / es - o->offset;
    }
    case ACCEL_GRAPH_NODE_WRITE:
        return d->dst_offset <= bytes && d->bytes <= bytes - d->dst_offset;
    case ACCEL_GRAPH_NODE_READ:
        return d->src_offset <= bytes && d->bytes <= bytes - d->src_offset;
    case ACCEL_GRAPH_NODE_COPY:
        return b == 0 ? d->src_offset <= bytes && d->bytes <= bytes - d->src_offset
                      : d->dst_offset <= bytes && d->bytes <= bytes - d->dst_offset;
    case ACCEL_GRAPH_NODE_EVENT_RECORD:
        break;
    }
    return false;
}

/* The bytes [*start, *start + *len) of node n's use b of its buffer (the
 * span use_fits checks). */
static void use_span(const accel__gnode *n, uint32_t b, size_t *start, size_t *len)
{
    const accel_graph_node_desc *d = &n->be;
    *start = *len = 0;
    if (n->klaunch) {
        const accel_kernel_arg_desc *a = &n->klaunch->args[b];
        size_t es = accel__kesize(a->dtype);
        *start = a->offset * es;
        *len = a->count * es;
        return;
    }
    switch ((accel_graph_node_kind)d->kind) {
    case ACCEL_GRAPH_NODE_OP: {
        size_t es = accel__operand_esize(&d->op, b);
        *start = d->op.operands[b].offset * es;
        *len = d->op.operands[b].count * es;
        return;
    }
    case ACCEL_GRAPH_NODE_WRITE:
        *start = d->dst_offset;
        *len = d->bytes;
        return;
    case ACCEL_GRAPH_NODE_READ:
        *start = d->src_offset;
        *len = d->bytes;
        return;
    case ACCEL_GRAPH_NODE_COPY:
        *start = b == 0 ? d->src_offset : d->dst_offset;
        *len = d->bytes;
        return;
    case ACCEL_GRAPH_NODE_EVENT_RECORD:
        return;
    }
}

/* Whether rebinding old_buf to new_buf would make two uses of node n that
 * were on different buffers overlap (one of them old_buf's, the other
 * new_buf's already): the aliasing the recorded (validated) op did not
 * have, which its call would have refused or which would change what it
 * computes. Uses that already shared a buffer keep their relation. The
 * other uses' buffers are read through their handles (entered): one
 * released since the recording is freed, and its object may be new_buf's
 * now (the CI's failure); it overlaps nothing, and the launch refuses it
 * until it is rebound too. */
static bool rebind_aliases(const accel__gnode *n, const void *old_buf, const accel_buffer *nb)
{
    accel__memory mnew;
    if (!accel__memory_of_handle(nb->handle, &mnew))
        return false;
    for (uint32_t b2 = 0; b2 < n->nbuf; b2++) {
        accel__memory m2;
        if (!n->buf_handle[b2] || n->buf_handle[b2] == old_buf ||
            !accel__memory_of_handle(n->buf_handle[b2], &m2) || m2.id != n->buf[b2])
            continue;
        size_t s2, l2;
        use_span(n, b2, &s2, &l2);
        for (uint32_t b1 = 0; b1 < n->nbuf && l2; b1++) {
            size_t s1, l1;
            if (n->buf_handle[b1] != old_buf)
                continue;
            use_span(n, b1, &s1, &l1);
            if (l1 && accel__memory_meet(&mnew, s1, s1 + l1, &m2, s2, s2 + l2, NULL))
                return true;
        }
    }
    return false;
}

static void rebind(accel__gnode *n, uint32_t b, accel_buffer *nb)
{
    accel_graph_node_desc *d = &n->be;
    switch ((accel_graph_node_kind)d->kind) {
    case ACCEL_GRAPH_NODE_OP:
        if (n->klaunch)
            n->klaunch->args[b].buffer = nb->be;
        else
            d->op.operands[b].buffer = nb->be;
        break;
    case ACCEL_GRAPH_NODE_WRITE:
        d->dst = nb->be;
        break;
    case ACCEL_GRAPH_NODE_READ:
        d->src = nb->be;
        break;
    case ACCEL_GRAPH_NODE_COPY:
        if (b == 0)
            d->src = nb->be;
        else
            d->dst = nb->be;
        break;
    case ACCEL_GRAPH_NODE_EVENT_RECORD:
        break;
    }
    n->buf[b] = nb;
    n->buf_handle[b] = nb->handle;
}

/* The explicit update of the rebinding calls: a change the backend's graph
 * could not take (be_stale), one that moved a fused kernel's buffers
 * (plan_stale), or a graph whose last instantiation failed (a buffer
 * released then, now rebound) is instantiated again now, with the flags of
 * its last instantiation, so that launch only replays. g->lock held. */
static accel_status refresh_locked(accel_graph *g, const char *fn)
{
    if (g->instantiated && !g->be_stale && !g->plan_stale && g->ubuf)
        return ACCEL_SUCCESS;
    return instantiate_locked(g, g->flags, fn);
}

accel_status accel_graph_set_buffer(accel_graph *g, const void *old_buf, accel_buffer *new_buf)
{
    static const char fn[] = "accel_graph_set_buffer";
    ACCEL__CALL(call);
    accel_status st = accel__enter2(&call, fn, g, ACCEL__T_GRAPH, "g", &g, new_buf, ACCEL__T_BUFFER,
                                    "new_buf", &new_buf);
    if (st != ACCEL_SUCCESS)
        return st;
    if (new_buf->dev != g->dev)
        return accel__fail(ACCEL_ERROR_DEVICE_MISMATCH, "%s: new_buf is on %s but g on %s", fn,
                           new_buf->dev->name, g->dev->name);
    if (atomic_load(&new_buf->graph_temp))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: new_buf is a temporary of a graph and cannot be rebound to", fn);
    pthread_mutex_lock(&g->lock);
    for (size_t t = 0; t < g->ntemps; t++)
        if (g->temps[t]->handle == old_buf) {
            pthread_mutex_unlock(&g->lock);
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: old_buf is a temporary of g (the graph owns it)", fn);
        }
    size_t uses = 0;
    for (size_t i = 0; i < g->n && st == ACCEL_SUCCESS; i++)
        for (uint32_t b = 0; b < g->nodes[i].nbuf; b++) {
            if (g->nodes[i].buf_handle[b] != old_buf)
                continue;
            uses++;
            if (!use_fits(&g->nodes[i], b, new_buf->bytes)) {
                st = accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                                 "%s: node %zu (%s) uses a range of old_buf that lies outside "
                                 "new_buf (%zu bytes)",
                                 fn, i, g->nodes[i].name, new_buf->bytes);
                break;
            }
            if (rebind_aliases(&g->nodes[i], old_buf, new_buf)) {
                st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                                 "%s: node %zu (%s) also uses new_buf: its range of old_buf "
                                 "would overlap its range of new_buf, an aliasing the recorded "
                                 "op did not have (record the graph with it instead)",
                                 fn, i, g->nodes[i].name);
                break;
            }
        }
    if (st == ACCEL_SUCCESS && uses == 0)
        st = accel__fail(ACCEL_ERROR_NOT_FOUND, "%s: g does not use old_buf", fn);
    if (st == ACCEL_SUCCESS)
        for (size_t i = 0; i < g->n; i++) {
            bool changed = false;
            for (uint32_t b = 0; b < g->nodes[i].nbuf; b++)
                if (g->nodes[i].buf_handle[b] == old_buf) {
                    rebind(&g->nodes[i], b, new_buf);
                    changed = true;
                }
            if (changed)
                update_be_locked(g, i, true);
        }
    if (st == ACCEL_SUCCESS && collect_buffers_locked(g, fn) != ACCEL_SUCCESS) {
        /* Rebound but not collected: refresh_locked collects them again. */
        free(g->ubuf);
        free((void *)g->uhandle);
        g->ubuf = NULL;
        g->uhandle = NULL;
        g->nubuf = 0;
        accel__clear_error();
    }
    if (st == ACCEL_SUCCESS)
        st = refresh_locked(g, fn);
    pthread_mutex_unlock(&g->lock);
    return st;
}

/* Scalars an op takes (accel_op_desc.scalars[0, n)). */
static uint32_t scalar_count(uint32_t op)
{
    const accel_op_properties *p = accel__op(op);
    if (!p)
        return 0;
    switch (p->kind) {
    case ACCEL_OP_KIND_FILL:
        return 1;
    case ACCEL_OP_KIND_AXPBY:
        return op == ACCEL_OP_SCALE ? 1 : 2;
    case ACCEL_OP_KIND_GEMM:
        return 2;
    case ACCEL_OP_KIND_RANDOM:
        return op == ACCEL_OP_RANDOM_NORMAL ? 2 : 0;
    case ACCEL_OP_KIND_COPY:
    case ACCEL_OP_KIND_BINARY:
    case ACCEL_OP_KIND_UNARY:
    case ACCEL_OP_KIND_REDUCTION:
    case ACCEL_OP_KIND_TRANSPOSE:
    case ACCEL_OP_KIND_SORT:
    case ACCEL_OP_KIND_LINALG:
    case ACCEL_OP_KIND_FFT:
    case ACCEL_OP_KIND_SCAN:
        return 0;
    }
    return 0;
}

/* Scalar argument `index` of a recorded user kernel launch, converted to
 * its parameter's type; an integer must be whole and fit the type (as
 * accel_kernel_launch refuses a scalar that would wrap). */
static accel_status set_kernel_scalar_locked(accel_graph *g, size_t node, uint32_t index,
                                             double value, const char *fn)
{
    accel__klaunch *L = g->nodes[node].klaunch;
    if (L->k->library)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: node %zu (%s) is an array function's kernel: its scalar "
                           "arguments (element counts, offsets, strides) were checked against "
                           "its arrays when recorded and cannot be set (record the call again)",
                           fn, node, g->nodes[node].name);
    if (index >= L->be.num_args || L->args[index].kind != ACCEL_KARG_SCALAR)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: node %zu (%s): argument %u is not a scalar argument", fn, node,
                           g->nodes[node].name, index);
    accel_kernel_arg_desc *a = &L->args[index];
    bool integer = a->dtype == ACCEL_I32 || a->dtype == ACCEL_I64 || a->dtype == ACCEL_U8;
    if (integer && !(value == floor(value) && fabs(value) <= 9.007199254740992e15))
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH,
                           "%s: node %zu (%s): argument %u is %s but %g is not an integer", fn,
                           node, g->nodes[node].name, index,
                           accel_dtype_name((accel_dtype)a->dtype), value);
    double lo = a->dtype == ACCEL_I32 ? (double)INT32_MIN : 0.0;
    double hi = a->dtype == ACCEL_I32 ? (double)INT32_MAX : 255.0;
    if ((a->dtype == ACCEL_I32 || a->dtype == ACCEL_U8) && !(value >= lo && value <= hi))
        return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                           "%s: node %zu (%s): argument %u is %s but %.17g does not fit it "
                           "[%.0f, %.0f]",
                           fn, node, g->nodes[node].name, index,
                           accel_dtype_name((accel_dtype)a->dtype), value, lo, hi);
    accel__karg_set_scalar(a, (accel_dtype)a->dtype, value, (int64_t)value);
    update_be_locked(g, node, false);
    return ACCEL_SUCCESS;
}

accel_status accel_graph_set_scalar(accel_graph *g, size_t node, uint32_t index, double value)
{
    static const char fn[] = "accel_graph_set_scalar";
    ACCEL__CALL(call);
    accel_status st = accel__enter(&call, fn, g, ACCEL__T_GRAPH, "g", &g);
    if (st != ACCEL_SUCCESS)
        return st;
    pthread_mutex_lock(&g->lock);
    if (node >= g->n) {
        st = accel__fail(ACCEL_ERROR_OUT_OF_RANGE, "%s: node %zu but g has %zu nodes", fn, node,
                         g->n);
    } else if (g->nodes[node].klaunch) {
        st = set_kernel_scalar_locked(g, node, index, value, fn);
    } else {
        accel__gnode *n = &g->nodes[node];
        uint32_t have = n->be.kind == ACCEL_GRAPH_NODE_OP ? scalar_count(n->be.op.op) : 0;
        if (index >= have)
            st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                             "%s: node %zu (%s) has %u scalars; index %u is none of them", fn, node,
                             n->name, have, index);
        else if (n->be.op.op == ACCEL_OP_RANDOM_NORMAL && index == 1 && !(value >= 0.0))
            st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: stddev %g must be >= 0", fn, value);
        if (st == ACCEL_SUCCESS) {
            n->be.op.scalars[index] = value;
            if (g->exec_of && g->exec[g->exec_of[node]].f)
                accel__fused_set_scalar(g->exec[g->exec_of[node]].f, node, index, value);
            update_be_locked(g, node, false);
        }
    }
    if (st == ACCEL_SUCCESS)
        st = refresh_locked(g, fn);
    pthread_mutex_unlock(&g->lock);
    return st;
}

accel_status accel_graph_set_host(accel_graph *g, const void *old_ptr, void *new_ptr)
{
    static const char fn[] = "accel_graph_set_host";
    ACCEL__CALL(call);
    ACCEL__TRY(accel__enter_out(&call, fn, g, ACCEL__T_GRAPH, "g", &g, new_ptr, "new_ptr"));
    pthread_mutex_lock(&g->lock);
    size_t uses = 0;
    for (size_t i = 0; i < g->n; i++) {
        accel_graph_node_desc *d = &g->nodes[i].be;
        if (d->kind == ACCEL_GRAPH_NODE_WRITE && d->host_src == old_ptr)
            d->host_src = new_ptr;
        else if (d->kind == ACCEL_GRAPH_NODE_READ && d->host_dst == old_ptr)
            d->host_dst = new_ptr;
        else
            continue;
        uses++;
        update_be_locked(g, i, false);
    }
    accel_status st2 = uses ? refresh_locked(g, fn) : ACCEL_SUCCESS;
    pthread_mutex_unlock(&g->lock);
    if (st2 != ACCEL_SUCCESS)
        return st2;
    if (uses == 0)
        return accel__fail(ACCEL_ERROR_NOT_FOUND, "%s: no transfer of g uses old_ptr (%p)", fn,
                           old_ptr);
    return ACCEL_SUCCESS;
}

/* --------------------------------------------------------------- info */

size_t accel_graph_node_count(const accel_graph *g)
{
    ACCEL__ENTER_GETTER("accel_graph_node_count", g, ACCEL__T_GRAPH, 0);
    return g->n;
}

size_t accel_graph_temporary_count(const accel_graph *g)
{
    ACCEL__ENTER_GETTER("accel_graph_temporary_count", g, ACCEL__T_GRAPH, 0);
    return g->ntemps;
}

accel_status accel_graph_node_info_get(const accel_graph *g, size_t node,
                                       accel_graph_node_info *out)
{
    static const char fn[] = "accel_graph_node_info_get";
    ACCEL__CALL(call);
    size_t out_bytes = 0; /* struct_size both ways (struct_size.c) */
    ACCEL__TRY(accel__enter_struct_out(&call, fn, g, ACCEL__T_GRAPH, "g", &g, out,
                                       ACCEL__SIZE_UPTO(accel_graph_node_info, bytes), sizeof *out,
                                       &out_bytes));
    if (node >= g->n)
        return accel__fail(ACCEL_ERROR_OUT_OF_RANGE, "%s: node %zu but g has %zu nodes", fn, node,
                           g->n);
    accel_graph_node_info info;
    memset(&info, 0, sizeof info);
    accel_graph *mg = (accel_graph *)g;
    pthread_mutex_lock(&mg->lock);
    const accel__gnode *n = &g->nodes[node];
    info.kind = n->be.kind;
    info.name = n->name;
    if (n->be.kind == ACCEL_GRAPH_NODE_OP) {
        info.op = n->be.op.op;
        info.dtype = n->be.op.dtype;
        info.bytes = n->be.op.num_operands ? n->be.op.operands[n->be.op.num_operands - 1].count : 0;
        if (n->klaunch)
            info.bytes = n->klaunch->be.n * n->klaunch->be.rows;
        if (g->exec_of && g->exec[g->exec_of[node]].f)
            info.fused = accel__fused_name(g->exec[g->exec_of[node]].f);
    } else {
        info.bytes = n->be.bytes;
    }
    pthread_mutex_unlock(&mg->lock);
    accel__struct_out_write(out, &info, out_bytes);
    return ACCEL_SUCCESS;
}

accel_status accel_graph_backend_replay(accel_graph *g, bool *out_backend)
{
    static const char fn[] = "accel_graph_backend_replay";
    ACCEL__CALL(call);
    accel_status st =
        accel__enter_out(&call, fn, g, ACCEL__T_GRAPH, "g", &g, out_backend, "out_backend");
    if (st != ACCEL_SUCCESS)
        return st;
    pthread_mutex_lock(&g->lock);
    *out_backend =
        g->instantiated && !g->be_stale && !g->plan_stale && g->be && !core_replay_now(g->dev->rt);
    pthread_mutex_unlock(&g->lock);
    return st;
}

/* ------------------------------------------------------------ release */

void accel_graph_release(accel_graph *g)
{
    static const char fn[] = "accel_graph_release";
    /* Calls of other threads that resolved g (launches, setters) return
     * first; later ones see the handle dead. */
    ACCEL__ENTER_RELEASE(fn, g, ACCEL__T_GRAPH);
    accel_runtime *rt = g->dev->rt;
    ACCEL__RT_LIST(REMOVE, rt, graphs, g);
    pthread_mutex_lock(&g->lock);
    /* The temporaries' handles die first, and calls of other threads that
     * resolved one finish enqueueing (as accel_buffer_release). They may
     * also have been used by eager work: wait for the queues whenever one
     * was enqueued. */
    for (size_t t = 0; t < g->ntemps; t++)
        if (accel__handle_kill(g->temps[t]->handle))
            accel__handle_drain(g->temps[t]->handle);
    for (size_t t = 0; t < g->ntemps; t++)
        if (atomic_load(&g->temps[t]->enqueued))
            g->launched = true;
    wait_launches(g, fn);
    destroy_be_locked(g, fn);
    accel__fuse_plan_free(g, true);
    for (size_t t = 0; t < g->ntemps; t++) {
        accel_buffer *buf = g->temps[t];
        ACCEL__RT_LIST(REMOVE, rt, buffers, buf);
        accel__buffer_destroy(buf);
    }
    g->ntemps = 0;
    pthread_mutex_unlock(&g->lock);
    accel__graph_free(g);
}

void accel__graphs_kill_handles(accel_runtime *rt)
{
    for (accel_graph *g = rt->graphs; g; g = g->next)
        accel__handle_free(g->handle);
}

void accel__graphs_close(accel_runtime *rt)
{
    while (rt->graphs) {
        accel_graph *g = rt->graphs;
        ACCEL__LIST_REMOVE(rt->graphs, g);
        if (g->be)
            g->dev->be->vt->graph_destroy(g->dev->be->ctx, g->be);
        accel__fuse_plan_free(g, false);
        /* Temporaries stay on rt->buffers, which close frees next. */
        g->ntemps = 0;
        accel__graph_free(g);
    }
}
