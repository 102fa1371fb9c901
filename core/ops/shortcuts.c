/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/shortcuts.c — one-call forms of what otherwise takes several calls: a
 * buffer made from host data, and a matrix product on sub-matrices described
 * by (buffer, offset, rows, cols, leading dimension) views. Each is built on
 * the public calls it replaces, so validation and errors are theirs. */
#include <stddef.h>
#include <string.h>

#include "base/handle.h"
#include "base/objects.h"
#include "base/status.h"
#include "ops/ops.h"

accel_status accel_buffer_create_from_host(accel_queue *q, const void *src, size_t bytes,
                                           accel_buffer **out_buffer)
{
    static const char fn[] = "accel_buffer_create_from_host";
    ACCEL__CALL(call);
    if (out_buffer)
        *out_buffer = NULL;
    accel_queue *qo = NULL;
    ACCEL__TRY(accel__enter_out(&call, fn, q, ACCEL__T_QUEUE, "q", &qo, out_buffer, "out_buffer"));
    if (!src && bytes > 0)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: src is NULL with %zu bytes", fn,
                           bytes);
    accel_buffer *buf = NULL;
    accel_status st = accel_buffer_create(qo->dev->handle, bytes, &buf);
    if (st != ACCEL_SUCCESS)
        return st;
    if (bytes > 0) {
        st = accel_queue_write_blocking(q, buf, 0, src, bytes);
        if (st != ACCEL_SUCCESS) {
            accel_buffer_release(buf);
            return st;
        }
    }
    *out_buffer = buf;
    return ACCEL_SUCCESS;
}

accel_status accel_matmul_sub(accel_queue *q, accel_dtype dtype, accel_matrix a, accel_matrix b,
                              accel_matrix c)
{
    static const char fn[] = "accel_matmul_sub";
    if (a.cols != b.rows || c.rows != a.rows || c.cols != b.cols)
        return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                           "%s: A is %zu x %zu, B is %zu x %zu, C is %zu x %zu (want A m x k, "
                           "B k x n, C m x n)",
                           fn, a.rows, a.cols, b.rows, b.cols, c.rows, c.cols);
    accel_gemm_desc d;
    accel_gemm_desc_init(&d);
    d.dtype = dtype;
    d.m = a.rows;
    d.n = b.cols;
    d.k = a.cols;
    d.alpha = 1.0;
    d.beta = 0.0;
    d.a = a.buffer;
    d.a_offset = a.offset;
    d.lda = a.ld;
    d.b = b.buffer;
    d.b_offset = b.offset;
    d.ldb = b.ld;
    d.c = c.buffer;
    d.c_offset = c.offset;
    d.ldc = c.ld;
    return accel__gemm_named(fn, q, &d);
}
