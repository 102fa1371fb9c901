/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/transfer2d.c — 2-D strided transfers, as cudaMemcpy2D: height rows of
 * width bytes, rows pitch bytes apart on each side. Validated here as a
 * whole (so nothing is enqueued for a bad rectangle), then carried out as
 * one transfer when both sides are contiguous and otherwise one transfer
 * per row through the queue's ordinary write/read/copy path (so tracing,
 * verify mode and cross-backend copies apply unchanged). A backend entry
 * for a single strided copy can replace the row loop later. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/handle.h"
#include "base/objects.h"
#include "base/status.h"

/* Bytes from the first to one past the last byte of the rectangle, in *out;
 * false on overflow. */
static bool span_of(size_t pitch, size_t width, size_t height, size_t *out)
{
    if (height == 0 || width == 0) {
        *out = 0;
        return true;
    }
    size_t rows = height - 1;
    if (pitch != 0 && rows > (SIZE_MAX - width) / pitch)
        return false;
    *out = rows * pitch + width;
    return true;
}

static accel_status check_side(const char *fn, const char *side, const accel_buffer *buf,
                               size_t offset, size_t pitch, size_t width, size_t height,
                               size_t *out_span)
{
    if (height > 1 && pitch < width)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: %s pitch %zu is smaller than the row width %zu bytes", fn, side,
                           pitch, width);
    size_t span = 0;
    if (!span_of(pitch, width, height, &span))
        return accel__fail(ACCEL_ERROR_OUT_OF_RANGE, "%s: %s: %zu rows of pitch %zu bytes overflow",
                           fn, side, height, pitch);
    if (buf && (offset > buf->bytes || span > buf->bytes - offset))
        return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                           "%s: %s rectangle [%zu, %zu + %zu) exceeds the buffer of %zu bytes", fn,
                           side, offset, offset, span, buf->bytes);
    *out_span = span;
    return ACCEL_SUCCESS;
}

/* A 2-D write (to_device: host to buf) or read (buf to host): rows of width
 * bytes, pitch apart in buf from offset and host_pitch apart at host (only
 * read when to_device); one transfer where the rows are contiguous. */
static accel_status transfer_2d(const char *fn, bool to_device, accel_queue *q, accel_buffer *buf,
                                size_t offset, size_t pitch, void *host, size_t host_pitch,
                                size_t width, size_t height)
{
    const char *bname = to_device ? "dst" : "src", *hname = to_device ? "src" : "dst";
    ACCEL__CALL(call);
    accel_queue *qo = NULL;
    accel_buffer *bo = NULL;
    const accel__arg args[2] = {{q, ACCEL__T_QUEUE, "q", &qo, NULL},
                                {buf, ACCEL__T_BUFFER, bname, &bo, NULL}};
    accel_status st = accel__call_enter(&call, fn, 2, args);
    if (st != ACCEL_SUCCESS)
        return st;
    size_t span = 0;
    if ((st = check_side(fn, bname, bo, offset, pitch, width, height, &span)) ||
        (st = check_side(fn, hname, NULL, 0, host_pitch, width, height, &span)))
        return st;
    if (!host && span > 0)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, hname);
    if (span == 0)
        return ACCEL_SUCCESS;
    bool whole = height == 1 || (pitch == width && host_pitch == width);
    size_t rows = whole ? 1 : height, bytes = whole ? width * height : width;
    for (size_t r = 0; r < rows; r++) {
        size_t at = offset + r * pitch;
        char *h = (char *)host + r * host_pitch;
        st = to_device ? accel_queue_write(q, buf, at, h, bytes)
                       : accel_queue_read(q, buf, at, h, bytes);
        if (st != ACCEL_SUCCESS)
            return st;
    }
    return ACCEL_SUCCESS;
}

accel_status accel_queue_write_2d(accel_queue *q, accel_buffer *dst, size_t dst_offset,
                                  size_t dst_pitch, const void *src, size_t src_pitch, size_t width,
                                  size_t height)
{
    return transfer_2d("accel_queue_write_2d", true, q, dst, dst_offset, dst_pitch, (void *)src,
                       src_pitch, width, height);
}

accel_status accel_queue_read_2d(accel_queue *q, accel_buffer *src, size_t src_offset,
                                 size_t src_pitch, void *dst, size_t dst_pitch, size_t width,
                                 size_t height)
{
    return transfer_2d("accel_queue_read_2d", false, q, src, src_offset, src_pitch, dst, dst_pitch,
                       width, height);
}

accel_status accel_queue_copy_2d(accel_queue *q, accel_buffer *src, size_t src_offset,
                                 size_t src_pitch, accel_buffer *dst, size_t dst_offset,
                                 size_t dst_pitch, size_t width, size_t height)
{
    static const char fn[] = "accel_queue_copy_2d";
    ACCEL__CALL(call);
    accel_queue *qo = NULL;
    accel_buffer *so = NULL, *dso = NULL;
    const accel__arg args[3] = {{q, ACCEL__T_QUEUE, "q", &qo, NULL},
                                {src, ACCEL__T_BUFFER, "src", &so, NULL},
                                {dst, ACCEL__T_BUFFER, "dst", &dso, NULL}};
    accel_status st = accel__call_enter(&call, fn, 3, args);
    if (st != ACCEL_SUCCESS)
        return st;
    size_t src_span = 0, dst_span = 0;
    if ((st = check_side(fn, "src", so, src_offset, src_pitch, width, height, &src_span)) ||
        (st = check_side(fn, "dst", dso, dst_offset, dst_pitch, width, height, &dst_span)))
        return st;
    if (src_span == 0)
        return ACCEL_SUCCESS;
    /* Rows are copied one after another, so in one buffer even rows that do
     * not overlap each other could be overwritten before they are read:
     * the two rectangles' spans must be apart. */
    if (accel__bytes_meet(so, src_offset, src_offset + src_span, dso, dst_offset,
                          dst_offset + dst_span, NULL))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: src bytes [%zu, %zu) and dst bytes [%zu, %zu) of one buffer "
                           "overlap",
                           fn, src_offset, src_offset + src_span, dst_offset,
                           dst_offset + dst_span);
    if (height == 1 || (src_pitch == width && dst_pitch == width))
        return accel_queue_copy(q, src, src_offset, dst, dst_offset, width * height);
    for (size_t r = 0; r < height; r++) {
        st = accel_queue_copy(q, src, src_offset + r * src_pitch, dst, dst_offset + r * dst_pitch,
                              width);
        if (st != ACCEL_SUCCESS)
            return st;
    }
    return ACCEL_SUCCESS;
}
