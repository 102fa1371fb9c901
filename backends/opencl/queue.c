/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* queue.c — in-order OpenCL command queues with profiling, transfers, host
 * functions (a marker's completion callback releases a user event that
 * later commands wait for) and events (markers, timed by their profiling
 * counters).
 *
 * Errors: an enqueue that OpenCL refuses returns its status at once. A
 * command that fails while running leaves a negative execution status on
 * its event; each queue keeps its last command's event, so the next
 * synchronizing call (queue_finish, event_synchronize) returns
 * ACCEL_ERROR_DEVICE naming the op, and the process goes on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opencl.h"

void ocl__queue_track(ocl_ctx *c, accel_be_queue *q, cl_event ev, const char *name)
{
    if (q->last)
        c->cl.clReleaseEvent(q->last);
    q->last = ev;
    snprintf(q->last_name, sizeof q->last_name, "%s", name ? name : "?");
}

int32_t ocl__queue_create(void *vctx, uint32_t device, accel_be_queue **out)
{
    ocl_ctx *c = vctx;
    ocl_device *d = &c->dev[device];
    accel_be_queue *q = calloc(1, sizeof *q);
    if (!q)
        return ocl__fail(c, ACCEL_ERROR_OUT_OF_HOST_MEMORY, "opencl: out of host memory");
    cl_int err = CL_SUCCESS;
    q->q = c->cl.clCreateCommandQueue(d->context, d->id, CL_QUEUE_PROFILING_ENABLE, &err);
    if (!q->q) {
        free(q);
        return ocl__fail(c, ocl__status_of(err), "opencl: clCreateCommandQueue on %s failed (%s)",
                         d->name, ocl__error_name(err));
    }
    q->device = device;
    *out = q;
    return ACCEL_SUCCESS;
}

/* The execution status of ev as an accel status (0 while it runs). */
static int32_t event_status(ocl_ctx *c, cl_event ev, const char *name)
{
    cl_int st = CL_COMPLETE;
    cl_int err = c->cl.clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    if (err != CL_SUCCESS)
        return ocl__fail(c, ACCEL_ERROR_DEVICE, "%s: cannot read the command's status (%s)", name,
                         ocl__error_name(err));
    if (st < 0)
        return ocl__fail(c, ACCEL_ERROR_DEVICE,
                         "%s: the OpenCL command failed while running (%s, %d): the device "
                         "may be lost",
                         name, ocl__error_name(st), (int)st);
    return ACCEL_SUCCESS;
}

int32_t ocl__queue_finish(void *vctx, accel_be_queue *q)
{
    ocl_ctx *c = vctx;
    cl_int err = c->cl.clFinish(q->q);
    int32_t rc = ACCEL_SUCCESS;
    if (q->last) {
        rc = event_status(c, q->last, q->last_name);
        ocl__queue_track(c, q, NULL, "");
    }
    if (rc == ACCEL_SUCCESS && err != CL_SUCCESS)
        rc =
            ocl__fail(c, ocl__status_of(err), "opencl: clFinish failed (%s)", ocl__error_name(err));
    return rc;
}

void ocl__queue_destroy(void *vctx, accel_be_queue *q)
{
    ocl_ctx *c = vctx;
    if (!q)
        return;
    c->cl.clFinish(q->q);
    ocl__queue_track(c, q, NULL, "");
    if (q->scratch)
        c->cl.clReleaseMemObject(q->scratch);
    if (q->done)
        c->cl.clReleaseMemObject(q->done);
    c->cl.clReleaseCommandQueue(q->q);
    free(q);
}

int32_t ocl__queue_write(void *vctx, accel_be_queue *q, accel_be_buffer *dst, size_t off,
                         const void *src, size_t bytes)
{
    ocl_ctx *c = vctx;
    if (bytes == 0)
        return ACCEL_SUCCESS;
    cl_event ev = NULL;
    cl_int err =
        c->cl.clEnqueueWriteBuffer(q->q, dst->mem, CL_FALSE, off, bytes, src, 0, NULL, &ev);
    if (err != CL_SUCCESS)
        return ocl__fail(c, ocl__status_of(err), "opencl: writing %zu bytes failed (%s)", bytes,
                         ocl__error_name(err));
    ocl__queue_track(c, q, ev, "write");
    return ACCEL_SUCCESS;
}

int32_t ocl__queue_read(void *vctx, accel_be_queue *q, accel_be_buffer *src, size_t off, void *dst,
                        size_t bytes)
{
    ocl_ctx *c = vctx;
    if (bytes == 0)
        return ACCEL_SUCCESS;
    cl_event ev = NULL;
    cl_int err = c->cl.clEnqueueReadBuffer(q->q, src->mem, CL_FALSE, off, bytes, dst, 0, NULL, &ev);
    if (err != CL_SUCCESS)
        return ocl__fail(c, ocl__status_of(err), "opencl: reading %zu bytes failed (%s)", bytes,
                         ocl__error_name(err));
    ocl__queue_track(c, q, ev, "read");
    return ACCEL_SUCCESS;
}

/* Buffers of two platforms (two contexts): through host memory, after q's
 * earlier work, on the calling thread. */
static int32_t copy_across(ocl_ctx *c, accel_be_queue *q, accel_be_buffer *src, size_t src_off,
                           accel_be_buffer *dst, size_t dst_off, size_t bytes)
{
    int32_t rc = ocl__queue_finish(c, q);
    if (rc != ACCEL_SUCCESS)
        return rc;
    void *tmp = malloc(bytes);
    if (!tmp)
        return ocl__fail(c, ACCEL_ERROR_OUT_OF_HOST_MEMORY,
                         "opencl: no host memory to stage a copy of %zu bytes", bytes);
    accel_be_queue *sq = NULL;
    rc = ocl__queue_create(c, src->device, &sq);
    if (rc == ACCEL_SUCCESS) {
        cl_int err =
            c->cl.clEnqueueReadBuffer(sq->q, src->mem, CL_TRUE, src_off, bytes, tmp, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = c->cl.clEnqueueWriteBuffer(q->q, dst->mem, CL_TRUE, dst_off, bytes, tmp, 0, NULL,
                                             NULL);
        if (err != CL_SUCCESS)
            rc = ocl__fail(c, ocl__status_of(err), "opencl: a copy between platforms failed (%s)",
                           ocl__error_name(err));
        ocl__queue_destroy(c, sq);
    }
    free(tmp);
    return rc;
}

int32_t ocl__queue_copy(void *vctx, accel_be_queue *q, accel_be_buffer *src, size_t src_off,
                        accel_be_buffer *dst, size_t dst_off, size_t bytes)
{
    ocl_ctx *c = vctx;
    if (bytes == 0 || (src == dst && src_off == dst_off))
        return ACCEL_SUCCESS;
    if (c->dev[src->device].context != c->dev[dst->device].context)
        return copy_across(c, q, src, src_off, dst, dst_off, bytes);
    cl_event ev = NULL;
    cl_int err =
        c->cl.clEnqueueCopyBuffer(q->q, src->mem, dst->mem, src_off, dst_off, bytes, 0, NULL, &ev);
    if (err != CL_SUCCESS)
        return ocl__fail(c, ocl__status_of(err), "opencl: copying %zu bytes failed (%s)", bytes,
                         ocl__error_name(err));
    ocl__queue_track(c, q, ev, "copy");
    return ACCEL_SUCCESS;
}

typedef struct host_call {
    accel_host_fn fn;
    void *user;
    cl_event gate; /* the user event later commands wait for */
    ocl_ctx *c;
} host_call;

static void CL_CALLBACK host_call_run(cl_event ev, cl_int status, void *p)
{
    (void)ev;
    (void)status;
    host_call *h = p;
    /* Run even after a failure: the core's host functions release what
     * they hold (staging), and the failure stays on the queue's last event. */
    h->fn(h->user);
    h->c->cl.clSetUserEventStatus(h->gate, CL_COMPLETE);
    h->c->cl.clReleaseEvent(h->gate);
    free(h);
}

int32_t ocl__queue_host_fn(void *vctx, accel_be_queue *q, accel_host_fn fn, void *user)
{
    ocl_ctx *c = vctx;
    host_call *h = calloc(1, sizeof *h);
    if (!h)
        return ocl__fail(c, ACCEL_ERROR_OUT_OF_HOST_MEMORY, "opencl: out of host memory");
    cl_int err = CL_SUCCESS;
    h->fn = fn;
    h->user = user;
    h->c = c;
    h->gate = c->cl.clCreateUserEvent(c->dev[q->device].context, &err);
    cl_event marker = NULL;
    if (h->gate)
        err = c->cl.clEnqueueMarkerWithWaitList(q->q, 0, NULL, &marker);
    if (err != CL_SUCCESS) {
        if (h->gate)
            c->cl.clReleaseEvent(h->gate);
        free(h);
        return ocl__fail(c, ocl__status_of(err), "opencl: cannot enqueue a host function (%s)",
                         ocl__error_name(err));
    }
    /* Later commands wait for the gate, which the callback opens. */
    cl_event barrier = NULL;
    err = c->cl.clEnqueueBarrierWithWaitList(q->q, 1, &h->gate, &barrier);
    if (err == CL_SUCCESS)
        err = c->cl.clSetEventCallback(marker, CL_COMPLETE, host_call_run, h);
    if (err != CL_SUCCESS) {
        /* Nothing will call fn: open the gate and report. */
        c->cl.clSetUserEventStatus(h->gate, CL_COMPLETE);
        c->cl.clReleaseEvent(h->gate);
        c->cl.clReleaseEvent(marker);
        if (barrier)
            c->cl.clReleaseEvent(barrier);
        free(h);
        return ocl__fail(c, ocl__status_of(err), "opencl: cannot enqueue a host function (%s)",
                         ocl__error_name(err));
    }
    c->cl.clReleaseEvent(marker);
    ocl__queue_track(c, q, barrier, "host function");
    /* The marker must reach the device for its callback to fire. */
    c->cl.clFlush(q->q);
    return ACCEL_SUCCESS;
}

int32_t ocl__event_create(void *vctx, uint32_t device, accel_be_event **out)
{
    ocl_ctx *c = vctx;
    accel_be_event *e = calloc(1, sizeof *e);
    if (!e)
        return ocl__fail(c, ACCEL_ERROR_OUT_OF_HOST_MEMORY, "opencl: out of host memory");
    e->device = device;
    *out = e;
    return ACCEL_SUCCESS;
}

void ocl__event_destroy(void *vctx, accel_be_event *e)
{
    ocl_ctx *c = vctx;
    if (!e)
        return;
    if (e->ev)
        c->cl.clReleaseEvent(e->ev);
    free(e);
}

int32_t ocl__event_record(void *vctx, accel_be_event *e, accel_be_queue *q)
{
    ocl_ctx *c = vctx;
    cl_event m = NULL;
    cl_int err = c->cl.clEnqueueMarkerWithWaitList(q->q, 0, NULL, &m);
    if (err != CL_SUCCESS)
        return ocl__fail(c, ocl__status_of(err), "opencl: cannot record an event (%s)",
                         ocl__error_name(err));
    if (e->ev)
        c->cl.clReleaseEvent(e->ev);
    e->ev = m;
    e->device = q->device;
    /* The last command's op names a failure seen through this event. */
    snprintf(e->name, sizeof e->name, "%s", q->last ? q->last_name : "event");
    c->cl.clFlush(q->q);
    return ACCEL_SUCCESS;
}

int32_t ocl__queue_wait_event(void *vctx, accel_be_queue *q, accel_be_event *e)
{
    ocl_ctx *c = vctx;
    if (!e->ev)
        return ACCEL_SUCCESS;
    if (c->dev[e->device].context != c->dev[q->device].context) {
        /* Another platform's event cannot enter this queue: wait here. */
        cl_int err = c->cl.clWaitForEvents(1, &e->ev);
        return err == CL_SUCCESS ? ACCEL_SUCCESS
                                 : ocl__fail(c, ACCEL_ERROR_DEVICE, "opencl: waiting failed (%s)",
                                             ocl__error_name(err));
    }
    cl_event b = NULL;
    cl_int err = c->cl.clEnqueueBarrierWithWaitList(q->q, 1, &e->ev, &b);
    if (err != CL_SUCCESS)
        return ocl__fail(c, ocl__status_of(err), "opencl: cannot wait for an event (%s)",
                         ocl__error_name(err));
    ocl__queue_track(c, q, b, "wait");
    return ACCEL_SUCCESS;
}

int32_t ocl__event_synchronize(void *vctx, accel_be_event *e)
{
    ocl_ctx *c = vctx;
    if (!e->ev)
        return ACCEL_SUCCESS;
    c->cl.clWaitForEvents(1, &e->ev);
    return event_status(c, e->ev, e->name);
}

int32_t ocl__event_query(void *vctx, accel_be_event *e, int *out_done)
{
    ocl_ctx *c = vctx;
    *out_done = 1;
    if (!e->ev)
        return ACCEL_SUCCESS;
    cl_int st = CL_COMPLETE;
    cl_int err =
        c->cl.clGetEventInfo(e->ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    if (err != CL_SUCCESS)
        return ocl__fail(c, ACCEL_ERROR_DEVICE, "opencl: event query failed (%s)",
                         ocl__error_name(err));
    /* A failed command is done too; synchronize reports it. */
    *out_done = st == CL_COMPLETE || st < 0;
    return ACCEL_SUCCESS;
}

int32_t ocl__event_elapsed_ms(void *vctx, accel_be_event *a, accel_be_event *b, double *out_ms)
{
    ocl_ctx *c = vctx;
    if (!a->ev || !b->ev)
        return ocl__fail(c, ACCEL_ERROR_INVALID_ARGUMENT,
                         "accel_event_elapsed_ms: an event was never recorded");
    cl_ulong ta = 0, tb = 0;
    cl_int err =
        c->cl.clGetEventProfilingInfo(a->ev, CL_PROFILING_COMMAND_END, sizeof ta, &ta, NULL);
    if (err == CL_SUCCESS)
        err = c->cl.clGetEventProfilingInfo(b->ev, CL_PROFILING_COMMAND_END, sizeof tb, &tb, NULL);
    if (err != CL_SUCCESS)
        return ocl__fail(c,
                         err == CL_PROFILING_INFO_NOT_AVAILABLE ? ACCEL_ERROR_INVALID_ARGUMENT
                                                                : ACCEL_ERROR_DEVICE,
                         "accel_event_elapsed_ms: no timing (%s): both events must be recorded "
                         "and complete",
                         ocl__error_name(err));
    /* Nanoseconds of the device clock. */
    *out_ms = ((double)tb - (double)ta) * 1e-6;
    return ACCEL_SUCCESS;
}
