/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/queue.c — queues, transfers (write, read, copy, blocking variants)
 * and work that crosses backends.
 *
 * Copies between backends (q is on the device of src or of dst):
 * - the other side is host memory (buffer_host_ptr non-NULL) and q is on the
 *   non-host side: a plain queue_write/queue_read on q from/to that memory;
 * - the other side is not reachable from q's backend: a host function on q
 *   (queue_host_fn) does the transfer through the other backend's private
 *   staging queue and waits for it, so q's order is kept;
 * - neither side is host memory: through a host bounce buffer, one step on q
 *   and one in a host function (q on src); with q on dst, q drains and the
 *   bounce buffer is filled before q's write is enqueued (base/drain.h).
 * Earlier work on the other device must be ordered by an event (accel.h).
 * An error inside a host function is reported by the next accel_queue_finish
 * of q (the plugin cannot make it sticky for us); later work on q still runs.
 * The host functions are the host-work engine's (xop.c); the staged side is
 * staging.c's.
 *
 * Cross-backend waits (event.c) are host functions that poll the event's
 * backend with event_query. event_synchronize would also wait, but it returns
 * and clears the recording queue's sticky error, which belongs to whoever
 * synchronizes that queue. accel_buffer_release waits the same way, on an
 * event recorded at the end of every live queue (queue_marks.c). */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/drain.h"
#include "base/handle.h"
#include "base/objects.h"
#include "base/staging.h"
#include "base/status.h"
#include "base/trace.h"
#include "base/xop.h"

/* ------------------------------------------------------- staged copies */

/* The other device's side of a cross-backend copy, in a host function on q:
 * one blocking transfer on that device's staging queue. */
typedef struct staged_copy {
    accel_device *other;
    bool to_device; /* host -> buffer of other, else buffer of other -> host */
    accel_be_buffer *buf;
    size_t offset;
    void *host;
    size_t bytes;
} staged_copy;

static void staged_copy_run(accel__xop *x)
{
    staged_copy *c = x->payload;
    accel_status st =
        accel__staging_transfer(c->other, c->to_device, c->buf, c->offset, c->host, c->bytes);
    if (st != ACCEL_SUCCESS) {
        x->status = st;
        snprintf(x->message, sizeof x->message, "%s: staged %s of %zu bytes on %s failed: %s",
                 x->fn, c->to_device ? "write" : "read", c->bytes, c->other->name,
                 *accel_last_error() ? accel_last_error() : accel_status_string(st));
    }
}

/* A caller's host function (accel_queue_host_fn): its failure is the
 * xop's, so the next finish returns it. */
static void xop_user_fn(accel__xop *x)
{
    char msg[sizeof x->message - 64];
    msg[0] = '\0';
    accel_status st = x->user_fn(x->payload, msg, sizeof msg);
    if (st != ACCEL_SUCCESS) {
        x->status = st;
        snprintf(x->message, sizeof x->message, "%s: %s", x->fn,
                 msg[0] ? msg : accel_status_string(st));
    }
}

accel_status accel_queue_host_fn(accel_queue *q, const char *name, accel_queue_fn fn, void *user)
{
    static const char fname[] = "accel_queue_host_fn";
    ACCEL__CALL(call);
    ACCEL__TRY(accel__enter(&call, fname, q, ACCEL__T_QUEUE, "q", &q));
    if (!fn || !name)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fname,
                           fn ? "name" : "fn");
    accel__xop *x = accel__xop_new(name, 0);
    if (!x)
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fname);
    x->run = xop_user_fn;
    x->user_fn = fn;
    x->payload = user;
    return accel__queue_enqueue_xop(q, x);
}

/* ---------------------------------------------------------------- queues */

accel_status accel_queue_create(accel_device *dev, accel_queue **out_queue)
{
    static const char fn[] = "accel_queue_create";
    if (out_queue)
        *out_queue = NULL;
    ACCEL__CALL(call);
    void *mem;
    ACCEL__TRY(
        accel__enter_new(&call, fn, &dev, out_queue, "out_queue", sizeof(accel_queue), &mem));
    accel_queue *q = mem;
    accel__clear_error();
    int32_t rc = dev->be->vt->queue_create(dev->be->ctx, dev->index, &q->be);
    if (rc != ACCEL_SUCCESS) {
        free(q);
        return accel__fail_relay((accel_status)rc, "%s: on %s", fn, dev->name);
    }
    q->dev = dev;
    pthread_mutex_init(&q->lock, NULL);
    pthread_mutex_init(&q->scratch_lock, NULL);
    if (accel__handle_new(ACCEL__T_QUEUE, q, dev->rt->gate, &q->handle) != ACCEL_SUCCESS) {
        dev->be->vt->queue_destroy(dev->be->ctx, q->be);
        pthread_mutex_destroy(&q->lock);
        pthread_mutex_destroy(&q->scratch_lock);
        free(q);
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    }
    ACCEL__RT_LIST(PUSH, dev->rt, queues, q);
    *out_queue = q->handle;
    return ACCEL_SUCCESS;
}

accel_status accel__staging_ensure(accel_device *dev, const char *fn)
{
    accel_status st = ACCEL_SUCCESS;
    pthread_mutex_lock(&dev->staging_lock);
    if (!dev->staging) {
        accel__clear_error();
        int32_t rc = dev->be->vt->queue_create(dev->be->ctx, dev->index, &dev->staging);
        if (rc != ACCEL_SUCCESS) {
            dev->staging = NULL;
            st = accel__fail_relay((accel_status)rc, "%s: creating a staging queue on %s", fn,
                                   dev->name);
        }
    }
    pthread_mutex_unlock(&dev->staging_lock);
    return st;
}

void accel__queue_destroy(accel_queue *q)
{
    accel__handle_free(q->handle);
    q->dev->rt->capture->queue_destroyed(q);
    const accel_backend *vt = q->dev->be->vt;
    pthread_mutex_lock(&q->lock);
    /* Drain first so that an error nobody asked for is at least logged. */
    accel__clear_error();
    int32_t rc = vt->queue_finish(q->dev->be->ctx, q->be);
    if (rc != ACCEL_SUCCESS)
        accel__log(ACCEL_LOG_WARN, "a queue of %s was released with an unreported error: %s",
                   q->dev->name,
                   *accel_last_error() ? accel_last_error() : accel_status_string(rc));
    vt->queue_destroy(q->dev->be->ctx, q->be);
    char msg[512];
    if (accel__xops_collect_locked(q, msg, sizeof msg) != ACCEL_SUCCESS)
        accel__log(ACCEL_LOG_WARN, "a queue of %s was released with an unreported error: %s",
                   q->dev->name, msg);
    pthread_mutex_unlock(&q->lock);
    pthread_mutex_destroy(&q->lock);
    pthread_mutex_destroy(&q->scratch_lock);
    free(q);
}

void accel_queue_release(accel_queue *q)
{
    /* Calls of other threads that resolved q (ops, transfers, finishes)
     * return first; later ones see the handle dead. */
    ACCEL__ENTER_RELEASE("accel_queue_release", q, ACCEL__T_QUEUE);
    /* Shared: accel__queues_mark_and_wait may be recording on q right now. */
    accel_runtime *rt = q->dev->rt;
    accel_buffer *scratch = q->scratch; /* only q's work used it */
    pthread_rwlock_rdlock(&rt->queue_life);
    ACCEL__RT_LIST(REMOVE, rt, queues, q);
    accel__queue_destroy(q); /* drains q first */
    pthread_rwlock_unlock(&rt->queue_life);
    if (scratch)
        accel__buffer_release_drained(scratch);
}

accel_device *accel_queue_device(const accel_queue *q)
{
    ACCEL__ENTER_GETTER("accel_queue_device", q, ACCEL__T_QUEUE, NULL);
    return q->dev->handle;
}

static accel_status finish_named(accel_queue *q, const char *fn)
{
    char msg[512];
    accel_status cst = q->dev->rt->capture->refuse_sync(q, fn);
    if (cst != ACCEL_SUCCESS)
        return cst;
    pthread_mutex_lock(&q->lock);
    accel__clear_error();
    int32_t rc = q->dev->be->vt->queue_finish(q->dev->be->ctx, q->be);
    accel_status xst = ACCEL_SUCCESS;
    if (q->xops)
        xst = accel__xops_collect_locked(q, msg, sizeof msg);
    pthread_mutex_unlock(&q->lock);
    if (rc != ACCEL_SUCCESS)
        return accel__fail_relay((accel_status)rc, "%s", fn);
    if (xst != ACCEL_SUCCESS)
        return accel__fail(xst, "%s: %s", fn, msg);
    return ACCEL_SUCCESS;
}

accel_status accel_queue_finish(accel_queue *q)
{
    static const char fn[] = "accel_queue_finish";
    ACCEL__CALL(call);
    ACCEL__TRY(accel__enter(&call, fn, q, ACCEL__T_QUEUE, "q", &q));
    return finish_named(q, fn);
}

/* ------------------------------------------------------------- transfers */

static accel_status check_byte_range(const char *fn, const char *arg, const accel_buffer *buf,
                                     size_t offset, size_t bytes)
{
    if (offset > buf->bytes || bytes > buf->bytes - offset) {
        if (bytes > SIZE_MAX - offset)
            return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                               "%s: %s byte offset %zu + %zu bytes overflows (buffer of %zu "
                               "bytes)",
                               fn, arg, offset, bytes, buf->bytes);
        return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                           "%s: %s byte range [%zu, %zu) exceeds buffer of %zu bytes", fn, arg,
                           offset, offset + bytes, buf->bytes);
    }
    return ACCEL_SUCCESS;
}

/* Handles, device, host pointer and range of a write (to_device) or read. */
static accel_status check_transfer(const char *fn, accel__call *call, accel_queue **qp,
                                   accel_buffer **bufp, const char *buf_arg, size_t offset,
                                   const void *host, const char *host_arg, size_t bytes)
{
    const accel__arg args[] = {{*qp, ACCEL__T_QUEUE, "q", qp, NULL},
                               {*bufp, ACCEL__T_BUFFER, buf_arg, bufp, NULL}};
    ACCEL__TRY(accel__call_enter(call, fn, 2, args));
    accel_queue *q = *qp;
    accel_buffer *buf = *bufp;
    if (buf->dev != q->dev)
        return accel__fail(ACCEL_ERROR_DEVICE_MISMATCH, "%s: %s is on %s but q is on %s", fn,
                           buf_arg, buf->dev->name, q->dev->name);
    if (!host && bytes > 0)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s is NULL with bytes = %zu", fn,
                           host_arg, bytes);
    accel_status st = check_byte_range(fn, buf_arg, buf, offset, bytes);
    if (st == ACCEL_SUCCESS)
        accel__buffer_mark_enqueued(buf);
    return st;
}

/* The trace's span name of a transfer (the name of the plain call, also for
 * the blocking variants). */
static const char *fn_trace_name(bool to_device)
{
    return to_device ? "accel_queue_write" : "accel_queue_read";
}

accel_status accel__queue_transfer(const char *fn, accel_queue *q, bool to_device,
                                   accel_buffer *buf, size_t offset, const void *src_host,
                                   void *dst_host, size_t bytes)
{
    const accel_backend *vt = q->dev->be->vt;
    void *ctx = q->dev->be->ctx;
    pthread_mutex_lock(&q->lock);
    size_t span = ACCEL__TRACING() ? accel__trace_begin_locked(q, fn_trace_name(to_device),
                                                               "transfer", 0, bytes, 0, bytes)
                                   : ACCEL__NO_SPAN;
    accel__clear_error();
    int32_t rc = to_device ? vt->queue_write(ctx, q->be, buf->be, offset, src_host, bytes)
                           : vt->queue_read(ctx, q->be, buf->be, offset, dst_host, bytes);
    if (span != ACCEL__NO_SPAN)
        accel__trace_end_locked(q, span, rc);
    pthread_mutex_unlock(&q->lock);
    if (rc != ACCEL_SUCCESS)
        return accel__fail_relay((accel_status)rc, "%s", fn);
    return ACCEL_SUCCESS;
}

/* A host <-> buffer transfer: to_device writes src_host into buf, else
 * reads buf into dst_host (the other host pointer is unused). Validation,
 * the trace hook and the error relay are shared. */
static accel_status do_transfer(const char *fn, accel__call *call, accel_queue **qp, bool to_device,
                                accel_buffer *buf, size_t offset, const void *src_host,
                                void *dst_host, size_t bytes)
{
    accel_status st =
        to_device ? check_transfer(fn, call, qp, &buf, "dst", offset, src_host, "src", bytes)
                  : check_transfer(fn, call, qp, &buf, "src", offset, dst_host, "dst", bytes);
    accel_queue *q = *qp;
    if (st != ACCEL_SUCCESS || bytes == 0)
        return st;
    if (__builtin_expect(accel__capturing(q), 0)) {
        /* Blocking variants would wait for work that is only recorded. */
        if (strstr(fn, "_blocking"))
            return q->dev->rt->capture->refuse_sync(q, fn);
        if (q->dev->rt->capture->transfer(q, to_device, buf, offset, src_host, dst_host, bytes,
                                          &st))
            return st;
    }
    return accel__queue_transfer(fn, q, to_device, buf, offset, src_host, dst_host, bytes);
}

static accel_status do_write(const char *fn, accel__call *call, accel_queue **qp, accel_buffer *dst,
                             size_t dst_offset, const void *src, size_t bytes)
{
    return do_transfer(fn, call, qp, true, dst, dst_offset, src, NULL, bytes);
}

static accel_status do_read(const char *fn, accel__call *call, accel_queue **qp, accel_buffer *src,
                            size_t src_offset, void *dst, size_t bytes)
{
    return do_transfer(fn, call, qp, false, src, src_offset, NULL, dst, bytes);
}

accel_status accel_queue_write(accel_queue *q, accel_buffer *dst, size_t dst_offset,
                               const void *src, size_t bytes)
{
    ACCEL__CALL(call);
    return do_write("accel_queue_write", &call, &q, dst, dst_offset, src, bytes);
}

accel_status accel_queue_read(accel_queue *q, accel_buffer *src, size_t src_offset, void *dst,
                              size_t bytes)
{
    ACCEL__CALL(call);
    return do_read("accel_queue_read", &call, &q, src, src_offset, dst, bytes);
}

/* The end of a blocking transfer (st, its enqueue's status): q finished,
 * the buffer unpinned first (enqueued, its release need not wait for our
 * finish). */
static accel_status finish_blocking(accel__call *call, accel_queue *q, const char *fn,
                                    accel_status st)
{
    if (st != ACCEL_SUCCESS)
        return st;
    accel__call_unpin(call);
    return finish_named(q, fn);
}

accel_status accel_queue_write_blocking(accel_queue *q, accel_buffer *dst, size_t dst_offset,
                                        const void *src, size_t bytes)
{
    static const char fn[] = "accel_queue_write_blocking";
    ACCEL__CALL(call);
    accel_status st = do_write(fn, &call, &q, dst, dst_offset, src, bytes);
    return finish_blocking(&call, q, fn, st);
}

accel_status accel_queue_read_blocking(accel_queue *q, accel_buffer *src, size_t src_offset,
                                       void *dst, size_t bytes)
{
    static const char fn[] = "accel_queue_read_blocking";
    ACCEL__CALL(call);
    accel_status st = do_read(fn, &call, &q, src, src_offset, dst, bytes);
    return finish_blocking(&call, q, fn, st);
}

/* The bounce case with q on dst: q drains, the staged read fills the bounce
 * buffer now, then q writes it, the xop keeping the buffer until q's next
 * finish. Blocking, not a host function before the write: base/drain.h. */
static accel_status bounce_in_locked(const char *fn, accel_queue *q, accel__xop *x,
                                     accel_be_buffer *dst, size_t dst_offset)
{
    staged_copy *c = x->payload;
    if (accel__queue_drain_locked(q, fn) != ACCEL_SUCCESS) {
        accel__xop_free(x); /* an earlier item failed: skipped, as q would */
        return ACCEL_SUCCESS;
    }
    staged_copy_run(x);
    if (x->status != ACCEL_SUCCESS) {
        accel_status st = accel__fail(x->status, "%s", x->message);
        accel__xop_free(x);
        return st;
    }
    accel__clear_error();
    int32_t rc =
        q->dev->be->vt->queue_write(q->dev->be->ctx, q->be, dst, dst_offset, c->host, c->bytes);
    accel__queue_hold_locked(q, x);
    return rc == ACCEL_SUCCESS ? ACCEL_SUCCESS : accel__fail_relay((accel_status)rc, "%s", fn);
}

/* A copy between backends; see the file comment. q->lock is held. */
static accel_status cross_copy_locked(const char *fn, accel_queue *q, accel_buffer *src,
                                      size_t src_offset, accel_buffer *dst, size_t dst_offset,
                                      size_t bytes)
{
    const accel_backend *vt = q->dev->be->vt;
    void *ctx = q->dev->be->ctx;
    bool q_on_src = q->dev == src->dev;
    char *src_host = src->host_ptr ? (char *)src->host_ptr + src_offset : NULL;
    char *dst_host = dst->host_ptr ? (char *)dst->host_ptr + dst_offset : NULL;
    int32_t rc;

    if (src_host && !q_on_src) {
        accel__clear_error();
        rc = vt->queue_write(ctx, q->be, dst->be, dst_offset, src_host, bytes);
        return rc == ACCEL_SUCCESS ? ACCEL_SUCCESS : accel__fail_relay((accel_status)rc, "%s", fn);
    }
    if (dst_host && q_on_src) {
        accel__clear_error();
        rc = vt->queue_read(ctx, q->be, src->be, src_offset, dst_host, bytes);
        return rc == ACCEL_SUCCESS ? ACCEL_SUCCESS : accel__fail_relay((accel_status)rc, "%s", fn);
    }

    /* The other device's side runs in a host function on q. */
    accel_device *other = q_on_src ? dst->dev : src->dev;
    accel_status st = accel__staging_ensure(other, fn);
    if (st != ACCEL_SUCCESS)
        return st;
    accel__xop *x = accel__xop_new(fn, sizeof(staged_copy));
    if (!x)
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    x->run = staged_copy_run;
    staged_copy *c = x->payload;
    c->other = other;
    c->to_device = q_on_src;
    c->bytes = bytes;
    if (q_on_src) {
        c->buf = dst->be;
        c->offset = dst_offset;
        c->host = src_host;
    } else {
        c->buf = src->be;
        c->offset = src_offset;
        c->host = dst_host;
    }
    bool bounce = c->host == NULL;
    if (bounce) {
        x->bounce = malloc(bytes);
        if (!x->bounce) {
            accel__xop_free(x);
            return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY,
                               "%s: out of host memory for a %zu-byte staging buffer", fn, bytes);
        }
        c->host = x->bounce;
    }
    if (bounce && q_on_src) {
        /* q's own side first: src -> bounce, then the host function writes on. */
        accel__clear_error();
        rc = vt->queue_read(ctx, q->be, src->be, src_offset, x->bounce, bytes);
        if (rc != ACCEL_SUCCESS) {
            accel__xop_free(x);
            return accel__fail_relay((accel_status)rc, "%s", fn);
        }
    }
    if (bounce && !q_on_src)
        return bounce_in_locked(fn, q, x, dst->be, dst_offset);
    st = accel__queue_enqueue_xop_locked(q, x);
    if (st != ACCEL_SUCCESS) {
        /* An already enqueued read into the bounce buffer may still run:
         * let the queue drain before freeing it. */
        if (bounce && q_on_src)
            vt->queue_finish(ctx, q->be);
        accel__xop_free(x);
        return st;
    }
    return ACCEL_SUCCESS;
}

accel_status accel__queue_copy_enqueue(const char *fn, accel_queue *q, accel_buffer *src,
                                       size_t src_offset, accel_buffer *dst, size_t dst_offset,
                                       size_t bytes)
{
    accel_status st;
    pthread_mutex_lock(&q->lock);
    if (src->dev->be == dst->dev->be) {
        size_t span = ACCEL__TRACING() ? accel__trace_begin_locked(q, fn, "transfer", 0,
                                                                   2 * (uint64_t)bytes, 0, bytes)
                                       : ACCEL__NO_SPAN;
        accel__clear_error();
        int32_t rc = q->dev->be->vt->queue_copy(q->dev->be->ctx, q->be, src->be, src_offset,
                                                dst->be, dst_offset, bytes);
        if (span != ACCEL__NO_SPAN)
            accel__trace_end_locked(q, span, rc);
        st = rc == ACCEL_SUCCESS ? ACCEL_SUCCESS : accel__fail_relay((accel_status)rc, "%s", fn);
    } else {
        st = cross_copy_locked(fn, q, src, src_offset, dst, dst_offset, bytes);
    }
    pthread_mutex_unlock(&q->lock);
    return st;
}

accel_status accel_queue_copy(accel_queue *q, accel_buffer *src, size_t src_offset,
                              accel_buffer *dst, size_t dst_offset, size_t bytes)
{
    static const char fn[] = "accel_queue_copy";
    ACCEL__CALL(call);
    /* All three of one runtime: a buffer of another runtime could be freed
     * by its own runtime's close while the copy is queued here. */
    const accel__arg args[] = {{q, ACCEL__T_QUEUE, "q", &q, NULL},
                               {src, ACCEL__T_BUFFER, "src", &src, NULL},
                               {dst, ACCEL__T_BUFFER, "dst", &dst, NULL}};
    ACCEL__TRY(accel__call_enter(&call, fn, 3, args));
    if (q->dev != src->dev && q->dev != dst->dev)
        return accel__fail(ACCEL_ERROR_DEVICE_MISMATCH,
                           "%s: q is on %s but src is on %s and dst on %s (q must be on one of "
                           "them)",
                           fn, q->dev->name, src->dev->name, dst->dev->name);
    accel_status st = check_byte_range(fn, "src", src, src_offset, bytes);
    if (st == ACCEL_SUCCESS)
        st = check_byte_range(fn, "dst", dst, dst_offset, bytes);
    if (st != ACCEL_SUCCESS)
        return st;
    if (bytes > 0 && accel__bytes_meet(src, src_offset, src_offset + bytes, dst, dst_offset,
                                       dst_offset + bytes, NULL))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: src byte range [%zu, %zu) overlaps dst byte range [%zu, %zu) of "
                           "the same memory",
                           fn, src_offset, src_offset + bytes, dst_offset, dst_offset + bytes);
    if (bytes == 0)
        return ACCEL_SUCCESS;

    if (__builtin_expect(accel__capturing(q), 0) &&
        q->dev->rt->capture->copy(q, src, src_offset, dst, dst_offset, bytes, &st))
        return st;
    accel__buffer_mark_enqueued(src);
    accel__buffer_mark_enqueued(dst);
    return accel__queue_copy_enqueue(fn, q, src, src_offset, dst, dst_offset, bytes);
}
