/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_transfer2d.c — 2-D strided transfers (core/ops/transfer2d.c): a
 * sub-rectangle written, read and copied with pitches on both sides equals a
 * plain host loop, bytes between rows and around the rectangle are not
 * touched, contiguous rectangles take the one-transfer path, and bad
 * rectangles are refused before anything is enqueued. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "test_util.h"

static accel_runtime *rt;
static accel_queue *q;
static accel_device *dev;

static void setup(void)
{
    rt = tu_open_default();
    tu_ok(accel_device_get_by_name(rt, "cpu", &dev));
    tu_ok(accel_queue_create(dev, &q));
}

static void teardown(void)
{
    accel_runtime_close(rt);
}

TestSuite(transfer2d, .init = setup, .fini = teardown);

enum { R = 9, C = 13, BYTES = R * C };

static accel_buffer *pattern_buffer(unsigned char base)
{
    unsigned char h[BYTES];
    for (int i = 0; i < BYTES; ++i)
        h[i] = (unsigned char)(base + i);
    accel_buffer *b = NULL;
    tu_ok(accel_buffer_create_from_host(q, h, BYTES, &b));
    return b;
}

Test(transfer2d, write_read_copy_sub_rectangles)
{
    /* rows 2..6, bytes 3..10 of a 9 x 13 byte matrix */
    const size_t r0 = 2, c0 = 3, h = 5, w = 8;
    unsigned char src[5][20], back[5][11], dev_bytes[BYTES], want[BYTES];
    for (size_t r = 0; r < h; ++r)
        for (size_t c = 0; c < 20; ++c)
            src[r][c] = (unsigned char)(200 + r * 7 + c);
    accel_buffer *b = pattern_buffer(0);
    tu_ok(accel_queue_write_2d(q, b, r0 * C + c0, C, src, 20, w, h));
    tu_ok(accel_queue_read_blocking(q, b, 0, dev_bytes, BYTES));
    for (int i = 0; i < BYTES; ++i)
        want[i] = (unsigned char)i;
    for (size_t r = 0; r < h; ++r)
        memcpy(want + (r0 + r) * C + c0, src[r], w);
    cr_assert(memcmp(dev_bytes, want, BYTES) == 0, "write_2d: wrong bytes or rows overrun");

    memset(back, 0xEE, sizeof back);
    tu_ok(accel_queue_read_2d(q, b, r0 * C + c0, C, back, 11, w, h));
    tu_ok(accel_queue_finish(q));
    for (size_t r = 0; r < h; ++r) {
        cr_assert(memcmp(back[r], src[r], w) == 0, "read_2d row %zu", r);
        for (size_t c = w; c < 11; ++c)
            cr_assert_eq(back[r][c], 0xEE, "read_2d wrote the pitch padding");
    }

    accel_buffer *d = pattern_buffer(100);
    tu_ok(accel_queue_copy_2d(q, b, r0 * C + c0, C, d, 1, C, w, h));
    tu_ok(accel_queue_read_blocking(q, d, 0, dev_bytes, BYTES));
    for (int i = 0; i < BYTES; ++i)
        want[i] = (unsigned char)(100 + i);
    for (size_t r = 0; r < h; ++r)
        memcpy(want + 1 + r * C, src[r], w);
    cr_assert(memcmp(dev_bytes, want, BYTES) == 0, "copy_2d");

    /* contiguous on both sides: one transfer of the whole block */
    unsigned char all[BYTES];
    tu_ok(accel_queue_read_2d(q, d, 0, C, all, C, C, R));
    tu_ok(accel_queue_finish(q));
    cr_assert(memcmp(all, want, BYTES) == 0);
    accel_buffer_release(b);
    accel_buffer_release(d);
}

Test(transfer2d, bad_rectangles_are_refused)
{
    unsigned char host[BYTES * 2];
    accel_buffer *b = pattern_buffer(0);
    tu_assert_status(accel_queue_read_2d(q, b, 0, 4, host, 8, 8, 2), ACCEL_ERROR_INVALID_ARGUMENT,
                     "src pitch < width");
    tu_assert_status(accel_queue_write_2d(q, b, 0, C, host, 4, 8, 2), ACCEL_ERROR_INVALID_ARGUMENT,
                     "src pitch < width");
    tu_assert_status(accel_queue_read_2d(q, b, 5 * C, C, host, C, C, 5), ACCEL_ERROR_OUT_OF_RANGE,
                     "past the end");
    cr_assert(strstr(accel_last_error(), "accel_queue_read_2d") != NULL, "%s", accel_last_error());
    tu_assert_status(accel_queue_read_2d(q, b, 0, SIZE_MAX / 2, host, C, 1, 4),
                     ACCEL_ERROR_OUT_OF_RANGE, "pitch overflow");
    tu_assert_status(accel_queue_write_2d(q, b, 0, C, NULL, C, 4, 2), ACCEL_ERROR_INVALID_ARGUMENT,
                     "NULL src");
    tu_assert_status(accel_queue_copy_2d(q, b, 0, C, b, 2, C, 4, 3), ACCEL_ERROR_INVALID_ARGUMENT,
                     "overlap in one buffer");
    tu_assert_status(accel_queue_copy_2d(q, b, 0, C, NULL, 2, C, 4, 3), ACCEL_ERROR_INVALID_HANDLE,
                     "NULL dst");
    /* nothing to do */
    tu_ok(accel_queue_read_2d(q, b, 0, 0, NULL, 0, 0, 0));
    tu_ok(accel_queue_copy_2d(q, b, 0, C, b, 0, C, 0, 3));
    /* the buffer is unchanged by all of the above */
    tu_ok(accel_queue_read_blocking(q, b, 0, host, BYTES));
    for (int i = 0; i < BYTES; ++i)
        cr_assert_eq(host[i], (unsigned char)i);
    accel_buffer_release(b);
}
