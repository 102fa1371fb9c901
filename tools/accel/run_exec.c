/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* run_exec.c — `accel run` on a device: inputs in, the op through the public
 * API, the result out, the device time between two events, and where the op
 * really ran (the placement report names a fallback). */
#include <stdio.h>
#include <string.h>

#include "accel/verify.h"
#include "cli.h"
#include "run_exec.h"
#include "run_ops.h"
#include "run_shape.h"

static accel_status enqueue_matmul(accel_queue *q, const run_job *j, accel_buffer *const *buf,
                                   accel_buffer *out_buf)
{
    accel_tolerance_op od = run_describe(j);
    if (od.batch_count == 0)
        return ACCEL_SUCCESS; /* nothing to compute; the output is empty */
    accel_gemm_desc d;
    accel_gemm_desc_init(&d);
    d.dtype = j->dt;
    d.m = od.m, d.n = od.n, d.k = od.k;
    d.alpha = 1.0;
    d.beta = 0.0;
    d.a = buf[0], d.lda = od.lda;
    d.b = buf[1], d.ldb = od.ldb;
    d.c = out_buf, d.ldc = od.ldc;
    d.batch_count = od.batch_count;
    d.stride_a = od.stride_a, d.stride_b = od.stride_b, d.stride_c = od.stride_c;
    return accel_gemm(q, &d);
}

static accel_status enqueue_op(accel_queue *q, const run_job *j, accel_buffer *const *buf,
                               accel_buffer *out_buf)
{
    const run_op *op = j->op;
    accel_slice a = accel_slice_of(buf[0], 0, j->in[0].count);
    accel_slice b = accel_slice_of(buf[1], 0, j->in[1].count);
    accel_slice out = accel_slice_of(out_buf, 0, j->out_count);
    switch (op->kind) {
    case RUN_BINARY:
        return accel_binary(q, op->code, j->dt, a, b, out);
    case RUN_UNARY:
        return accel_unary(q, op->code, j->dt, a, out);
    case RUN_REDUCE:
        return accel_reduce(q, op->code, j->dt, a, accel_slice_of(out_buf, 0, 1));
    case RUN_DOT:
        return accel_dot(q, j->dt, a, b, accel_slice_of(out_buf, 0, 1));
    case RUN_MATMUL:
        return enqueue_matmul(q, j, buf, out_buf);
    case RUN_TRANSPOSE: {
        size_t rows = j->in[0].shape[0], cols = j->in[0].shape[1];
        return accel_transpose_2d(q, j->dt, rows, cols, buf[0], 0, cols, out_buf, 0, rows);
    }
    }
    return ACCEL_ERROR_INTERNAL;
}

/* What one compute on one device holds. */
typedef struct run_state {
    accel_queue *q;
    accel_buffer *buf[2], *out_buf;
    accel_event *ev[2];
} run_state;

static accel_status setup(accel_device *dev, const run_job *j, bool timed, run_state *s,
                          const char **what)
{
    size_t esize = accel_dtype_size(j->dt);
    *what = "cannot create a queue";
    accel_status st = accel_queue_create(dev, &s->q);
    for (int i = 0; i < j->nin && st == ACCEL_SUCCESS; i++) {
        *what = "cannot copy an input to the device";
        st = accel_buffer_create(dev, j->in[i].count * esize, &s->buf[i]);
        if (st == ACCEL_SUCCESS)
            st = accel_queue_write(s->q, s->buf[i], 0, j->in[i].data, j->in[i].count * esize);
    }
    if (st == ACCEL_SUCCESS) {
        *what = "cannot allocate the output";
        st = accel_buffer_create(dev, j->out_count * esize, &s->out_buf);
    }
    for (int i = 0; i < 2 && timed && st == ACCEL_SUCCESS; i++) {
        *what = "cannot create an event for --time";
        st = accel_event_create(dev, &s->ev[i]);
    }
    return st;
}

/* The fallback of the op on dev, from the placement report (fallbacks are
 * counted whether the report is on or not). */
static void find_placement(accel_runtime *rt, accel_device *dev, const run_job *j, run_placement *w)
{
    w->asked = w->device = accel_device_name(dev);
    w->reason = "";
    w->fell_back = false;
    accel_report_row rows[64];
    size_t n = 0;
    for (size_t i = 0; i < 64; i++)
        rows[i] = (accel_report_row){.struct_size = sizeof rows[i]};
    if (accel_report(rt, rows, 64, &n) != ACCEL_SUCCESS)
        return;
    for (size_t i = 0; i < n && i < 64; i++) {
        const accel_report_row *r = &rows[i];
        if (r->op == j->op->code && strcmp(r->device, w->asked) == 0 && r->fallbacks > 0 &&
            r->fallback_device && r->fallback_device[0]) {
            w->device = r->fallback_device;
            w->reason = r->reason ? r->reason : "";
            w->fell_back = true;
        }
    }
}

accel_status run_compute(accel_runtime *rt, accel_device *dev, const run_job *j, void *result,
                         double *out_ms, run_placement *out_where)
{
    run_state s;
    memset(&s, 0, sizeof s);
    const char *what = "";
    accel_status st = setup(dev, j, out_ms != NULL, &s, &what);
    if (st == ACCEL_SUCCESS && out_ms)
        st = accel_event_record(s.ev[0], s.q);
    if (st == ACCEL_SUCCESS) {
        what = j->op->name;
        st = enqueue_op(s.q, j, s.buf, s.out_buf);
    }
    if (st == ACCEL_SUCCESS && out_ms)
        st = accel_event_record(s.ev[1], s.q);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_read_blocking(s.q, s.out_buf, 0, result,
                                       j->out_count * accel_dtype_size(j->dt));
    if (st == ACCEL_SUCCESS)
        st = accel_queue_finish(s.q);
    if (st == ACCEL_SUCCESS && out_ms)
        st = accel_event_elapsed_ms(s.ev[0], s.ev[1], out_ms);
    if (st != ACCEL_SUCCESS)
        cli_runtime_error("run", st, what);
    else if (out_where)
        find_placement(rt, dev, j, out_where);
    /* The queue first: releasing it waits for work that may still use the
     * buffers and the input arrays. */
    accel_queue_release(s.q);
    accel_event_release(s.ev[0]);
    accel_event_release(s.ev[1]);
    accel_buffer_release(s.out_buf);
    accel_buffer_release(s.buf[0]);
    accel_buffer_release(s.buf[1]);
    return st;
}
