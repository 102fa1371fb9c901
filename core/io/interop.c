/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/interop.c — zero-copy exchange with other libraries: a buffer's host
 * or native address, a queue's native stream, and buffers over memory that
 * someone else allocated (with the owner's release callback). The backend
 * entries are optional; without them the answers fall back to the host
 * address or say "unsupported". */
#include <stddef.h>
#include <stdint.h>

#include "base/handle.h"
#include "base/loader.h"
#include "base/objects.h"
#include "base/status.h"

void *accel_buffer_host_pointer(const accel_buffer *buf)
{
    ACCEL__ENTER_GETTER("accel_buffer_host_pointer", buf, ACCEL__T_BUFFER, NULL);
    if (!buf->dev->host_accessible)
        return NULL;
    accel__buffer_mark_enqueued(buf); /* the caller may use it from queued work */
    return buf->host_ptr;
}

accel_status accel_buffer_native_pointer(const accel_buffer *buf, void **out_ptr)
{
    static const char fn[] = "accel_buffer_native_pointer";
    ACCEL__CALL(call);
    if (out_ptr)
        *out_ptr = NULL;
    ACCEL__TRY(accel__enter_out(&call, fn, buf, ACCEL__T_BUFFER, "buf", &buf, out_ptr, "out_ptr"));
    const accel__backend *be = buf->dev->be;
    if (be->vt->buffer_native_ptr) {
        *out_ptr = be->vt->buffer_native_ptr(be->ctx, buf->be);
        return ACCEL_SUCCESS;
    }
    if (buf->host_ptr) {
        *out_ptr = buf->host_ptr;
        return ACCEL_SUCCESS;
    }
    return accel__fail(ACCEL_ERROR_UNSUPPORTED,
                       "%s: the %s backend exposes no native pointer for its buffers", fn,
                       be->name);
}

accel_status accel_queue_native_stream(const accel_queue *q, void **out_stream)
{
    static const char fn[] = "accel_queue_native_stream";
    ACCEL__CALL(call);
    if (out_stream)
        *out_stream = NULL;
    ACCEL__TRY(accel__enter_out(&call, fn, q, ACCEL__T_QUEUE, "q", &q, out_stream, "out_stream"));
    const accel__backend *be = q->dev->be;
    if (be->vt->queue_native)
        *out_stream = be->vt->queue_native(be->ctx, q->be);
    return ACCEL_SUCCESS;
}

accel_status accel_buffer_wrap(accel_device *dev, void *native_ptr, size_t bytes,
                               accel_release_fn release, void *user, accel_buffer **out_buffer)
{
    static const char fn[] = "accel_buffer_wrap";
    ACCEL__CALL(call);
    if (out_buffer)
        *out_buffer = NULL;
    ACCEL__TRY(
        accel__enter_out(&call, fn, dev, ACCEL__T_DEVICE, "dev", &dev, out_buffer, "out_buffer"));
    if (!native_ptr && bytes > 0)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: native_ptr is NULL with %zu bytes",
                           fn, bytes);
    const accel__backend *be = dev->be;
    if (!be->vt->buffer_wrap)
        return accel__fail(ACCEL_ERROR_UNSUPPORTED,
                           "%s: the %s backend cannot wrap memory allocated elsewhere", fn,
                           be->name);
    accel__clear_error();
    accel_be_buffer *b = NULL;
    int32_t rc = be->vt->buffer_wrap(be->ctx, dev->index, native_ptr, bytes, &b);
    if (rc != ACCEL_SUCCESS)
        return accel__fail_relay((accel_status)rc, "%s: %zu bytes at %p on %s", fn, bytes,
                                 native_ptr, dev->name);
    return accel__buffer_adopt(dev, b, bytes, release, user, true, fn, out_buffer);
}
