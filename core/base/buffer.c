/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/buffer.c — device buffers and pinned host memory: creation through
 * the backend, registration as live handles, the runtime's lists (so that
 * closing the runtime frees what callers left), release (which, as cudaFree,
 * first waits for queued work that may still use the buffer, and before that
 * for other threads' calls that resolved the buffer and are enqueueing work
 * on it: core/handle.c's pins). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/handle.h"
#include "base/objects.h"
#include "base/status.h"

accel_status accel_buffer_create(accel_device *dev, size_t bytes, accel_buffer **out_buffer)
{
    static const char fn[] = "accel_buffer_create";
    ACCEL__CALL(call);
    if (out_buffer)
        *out_buffer = NULL;
    ACCEL__TRY(
        accel__enter_out(&call, fn, dev, ACCEL__T_DEVICE, "dev", &dev, out_buffer, "out_buffer"));
    const accel_backend *vt = dev->be->vt;
    accel__clear_error();
    accel_be_buffer *be = NULL;
    int32_t rc = vt->buffer_alloc(dev->be->ctx, dev->index, bytes, &be);
    if (rc != ACCEL_SUCCESS)
        return accel__fail_relay((accel_status)rc, "%s: %zu bytes on %s", fn, bytes, dev->name);
    accel_status st = accel__buffer_adopt(dev, be, bytes, NULL, NULL, false, fn, out_buffer);
    if (st == ACCEL_SUCCESS) {
        accel__type type;
        accel__gate *gate;
        dev->rt->capture->buffer_created(dev, accel__handle_peek(*out_buffer, &type, &gate));
    }
    return st;
}

accel_status accel__buffer_adopt(accel_device *dev, accel_be_buffer *be, size_t bytes,
                                 accel_release_fn release, void *user, bool wrapped, const char *fn,
                                 accel_buffer **out_buffer)
{
    const accel_backend *vt = dev->be->vt;
    accel_buffer *buf = calloc(1, sizeof *buf);
    if (!buf ||
        accel__handle_new(ACCEL__T_BUFFER, buf, dev->rt->gate, &buf->handle) != ACCEL_SUCCESS) {
        vt->buffer_free(dev->be->ctx, be);
        free(buf);
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    }
    buf->be = be;
    buf->dev = dev;
    buf->bytes = bytes;
    buf->release_fn = release;
    buf->release_user = user;
    atomic_init(&buf->enqueued, false);
    buf->host_ptr = vt->buffer_host_ptr ? vt->buffer_host_ptr(dev->be->ctx, buf->be) : NULL;
    /* as accel_buffer_native_pointer gives it: the backend's, else the host's */
    buf->base = vt->buffer_native_ptr ? (uintptr_t)vt->buffer_native_ptr(dev->be->ctx, buf->be)
                                      : (uintptr_t)buf->host_ptr;
    buf->wrapped = wrapped;
    ACCEL__RT_LIST(PUSH, dev->rt, buffers, buf);
    *out_buffer = buf->handle;
    return ACCEL_SUCCESS;
}

void accel__buffer_destroy(accel_buffer *buf)
{
    accel__handle_free(buf->handle);
    buf->dev->be->vt->buffer_free(buf->dev->be->ctx, buf->be);
    if (buf->release_fn)
        buf->release_fn(buf->release_user);
    free(buf);
}

/* drained: the caller has finished every queue the buffer was used on, so
 * no queue of the runtime need be waited for (accel__buffer_release_drained). */
static void buffer_release(accel_buffer *buf, bool drained)
{
    static const char fn[] = "accel_buffer_release";
    ACCEL__CALL(call);
    if (!buf)
        return;
    if (accel__enter(&call, fn, buf, ACCEL__T_BUFFER, "buf", &buf) != ACCEL_SUCCESS) {
        accel__log(ACCEL_LOG_WARN, "%s", accel_last_error());
        return;
    }
    /* A graph's temporary is released with its graph (accel/graph.h). */
    if (atomic_load(&buf->graph_temp)) {
        accel__log(ACCEL_LOG_DEBUG, "%s: buf is a temporary of a graph; the graph releases it", fn);
        return;
    }
    /* A callback inside a call of this thread that uses the buffer: the
     * drain below would wait for that call, which waits for us. */
    if (accel__call_pinned_by_outer(&call, buf->handle)) {
        accel__set_error("%s: buf (%p) is in use by a call of this thread that is still under "
                         "way (released from a callback inside it); it is not released",
                         fn, (void *)buf->handle);
        accel__log(ACCEL_LOG_WARN, "%s", accel_last_error());
        return;
    }
    /* The handle dies first, so that no call can resolve the buffer any
     * more; of two threads releasing it at once, one kills it. */
    if (!accel__handle_kill(buf->handle)) {
        accel__set_error("%s: buf (%p) was released by another thread at the same time", fn,
                         (void *)buf->handle);
        accel__log(ACCEL_LOG_WARN, "%s", accel_last_error());
        return;
    }
    /* Calls that resolved it before it died (other threads' ops, transfers,
     * launches) finish their enqueue or fail first: after the drain, every
     * use of the buffer is on a queue, which the wait below covers. This
     * call's own pin goes first. */
    accel__call_unpin(&call);
    accel__handle_drain(buf->handle);
    accel_runtime *rt = buf->dev->rt;
    /* As cudaFree: queued work that may still use the buffer finishes first.
     * Any live queue may (copies and fallbacks cross devices), so every one
     * is waited for up to its current end, without taking its sticky error.
     * A buffer never given to an op or transfer is freed at once. */
    if (!drained && atomic_load_explicit(&buf->enqueued, memory_order_relaxed) &&
        accel__queues_mark_and_wait(rt, fn) != ACCEL_SUCCESS) {
        /* Freeing now could pull the memory from under running work: keep
         * it on the runtime's list, freed by accel_runtime_close after the
         * queues have drained. */
        accel__log(ACCEL_LOG_WARN,
                   "%s; the buffer (%zu bytes on %s) is freed at accel_runtime_close instead",
                   accel_last_error(), buf->bytes, buf->dev->name);
        return;
    }
    ACCEL__RT_LIST(REMOVE, rt, buffers, buf);
    accel__buffer_destroy(buf);
}

void accel_buffer_release(accel_buffer *buf)
{
    buffer_release(buf, false);
}

void accel__buffer_release_drained(accel_buffer *buf)
{
    buffer_release(buf, true);
}

size_t accel_buffer_size(const accel_buffer *buf)
{
    ACCEL__ENTER_GETTER("accel_buffer_size", buf, ACCEL__T_BUFFER, 0);
    return buf->bytes;
}

accel_device *accel_buffer_device(const accel_buffer *buf)
{
    ACCEL__ENTER_GETTER("accel_buffer_device", buf, ACCEL__T_BUFFER, NULL);
    return buf->dev->handle;
}

/* ------------------------------------------------------- pinned host memory */

accel_status accel_host_alloc(accel_device *dev, size_t bytes, void **out_ptr)
{
    static const char fn[] = "accel_host_alloc";
    ACCEL__CALL(call);
    if (out_ptr)
        *out_ptr = NULL;
    void *mem;
    ACCEL__TRY(
        accel__enter_new(&call, fn, &dev, out_ptr, "out_ptr", sizeof(accel__host_block), &mem));
    accel__host_block *hb = mem;
    const accel_backend *vt = dev->be->vt;
    hb->dev = dev;
    if (vt->host_alloc && vt->host_free) {
        accel__clear_error();
        int32_t rc = vt->host_alloc(dev->be->ctx, bytes, &hb->ptr);
        if (rc != ACCEL_SUCCESS || !hb->ptr) {
            free(hb);
            return accel__fail_relay(rc != ACCEL_SUCCESS ? (accel_status)rc
                                                         : ACCEL_ERROR_OUT_OF_HOST_MEMORY,
                                     "%s: %zu bytes for %s", fn, bytes, dev->name);
        }
        hb->from_backend = true;
    } else {
        /* aligned_alloc wants a multiple of the alignment; 0 bytes still
         * gives a unique pointer. */
        size_t rounded = bytes ? bytes : 1;
        if (rounded > SIZE_MAX - 63) {
            free(hb);
            return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: %zu bytes is too large", fn,
                               bytes);
        }
        rounded = (rounded + 63) & ~(size_t)63;
        hb->ptr = aligned_alloc(64, rounded);
        if (!hb->ptr) {
            free(hb);
            return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: %zu bytes: out of host memory",
                               fn, bytes);
        }
    }
    if (accel__handle_add(hb->ptr, ACCEL__T_HOST_MEMORY, hb) != ACCEL_SUCCESS) {
        accel__host_block_destroy(hb);
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    }
    ACCEL__RT_LIST(PUSH, dev->rt, host_blocks, hb);
    *out_ptr = hb->ptr;
    return ACCEL_SUCCESS;
}

void accel__host_block_destroy(accel__host_block *hb)
{
    accel__handle_remove(hb->ptr);
    if (hb->from_backend)
        hb->dev->be->vt->host_free(hb->dev->be->ctx, hb->ptr);
    else
        free(hb->ptr);
    free(hb);
}

void accel_host_free(accel_device *dev, void *ptr)
{
    if (!ptr)
        return;
    void *value = NULL;
    if (accel__handle_type(ptr, &value) != ACCEL__T_HOST_MEMORY) {
        accel__set_error("accel_host_free: ptr (%p) is not memory from accel_host_alloc, or was "
                         "freed already",
                         ptr);
        accel__log(ACCEL_LOG_WARN, "%s", accel_last_error());
        return;
    }
    accel__host_block *hb = value;
    if (dev != hb->dev->handle)
        accel__log(ACCEL_LOG_DEBUG,
                   "accel_host_free: ptr was allocated for %s; freeing it through that device",
                   hb->dev->name);
    ACCEL__RT_LIST(REMOVE, hb->dev->rt, host_blocks, hb);
    accel__host_block_destroy(hb);
}
