/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/collective.c — collectives run by a backend itself (the comm_*
 * entries of the plugin table; NCCL in the CUDA plugin), for libraries such
 * as libaccel_mpi that exchange the ranks' ids themselves
 * (accel/collective.h; accel_error_set and accel_log_write, declared in
 * accel.h, live in status.c). */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "accel/collective.h"

#include "base/handle.h"
#include "base/objects.h"
#include "base/status.h"
#include "base/struct_size.h"
#include "comm/comm.h"

/* A communicator is a handle of the handle table (ACCEL__T_COMM), as every
 * object of a runtime: a released one stays detectably released, one of a
 * closed runtime too, and accel_runtime_close destroys those left alive. */
struct accel_device_comm {
    accel_device_comm *handle;
    accel_device *dev;
    accel_be_comm *be;
    struct accel_device_comm *prev, *next; /* rt->comms, under rt->lock */
};

void accel_collective_desc_init(accel_collective_desc *d)
{
    accel__struct_init(d, sizeof *d);
}

/* *dev (the caller's handle) resolved to its object, whose backend has all
 * four comm entries. */
static accel_status enter_device(accel__call *call, const char *fn, accel_device **dev)
{
    ACCEL__TRY(accel__enter(call, fn, *dev, ACCEL__T_DEVICE, "dev", dev));
    const accel_backend *vt = (*dev)->be->vt;
    if (!vt->comm_id || !vt->comm_create || !vt->comm_destroy || !vt->comm_execute)
        return accel__fail(ACCEL_ERROR_UNSUPPORTED,
                           "%s: the %s backend of %s runs no collectives itself", fn,
                           (*dev)->be->name, (*dev)->name);
    return ACCEL_SUCCESS;
}

/* The backend's comm_id of dev (an object) into out (NULL and 0: a probe). */
static accel_status backend_comm_id(const char *fn, accel_device *dev, void *out, size_t bytes)
{
    accel__clear_error();
    int32_t rc = dev->be->vt->comm_id(dev->be->ctx, dev->index, out, bytes);
    if (rc != ACCEL_SUCCESS)
        return accel__fail_relay((accel_status)rc, "%s: on %s", fn, dev->name);
    return ACCEL_SUCCESS;
}

accel_status accel_device_comm_supported(accel_device *dev)
{
    static const char fn[] = "accel_device_comm_supported";
    ACCEL__CALL(call);
    ACCEL__TRY(enter_device(&call, fn, &dev));
    return backend_comm_id(fn, dev, NULL, 0);
}

accel_status accel_device_comm_id(accel_device *dev, void *out_id, size_t id_bytes)
{
    static const char fn[] = "accel_device_comm_id";
    ACCEL__CALL(call);
    ACCEL__TRY(enter_device(&call, fn, &dev));
    if (!out_id || id_bytes < ACCEL_DEVICE_COMM_ID_BYTES)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: out_id is NULL or id_bytes %zu < ACCEL_DEVICE_COMM_ID_BYTES", fn,
                           id_bytes);
    return backend_comm_id(fn, dev, out_id, ACCEL_DEVICE_COMM_ID_BYTES);
}

accel_status accel_device_comm_create(accel_device *dev, const void *id, size_t id_bytes,
                                      int nranks, int rank, accel_device_comm **out_comm)
{
    static const char fn[] = "accel_device_comm_create";
    if (out_comm)
        *out_comm = NULL;
    ACCEL__CALL(call);
    ACCEL__TRY(enter_device(&call, fn, &dev));
    if (!id || id_bytes < ACCEL_DEVICE_COMM_ID_BYTES || !out_comm)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: id is NULL, id_bytes %zu too small or out_comm NULL", fn, id_bytes);
    if (nranks < 1 || rank < 0 || rank >= nranks)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: rank %d is not in 0..%d", fn, rank,
                           nranks - 1);
    accel_device_comm *c = calloc(1, sizeof *c);
    if (!c)
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    accel__clear_error();
    int32_t rc = dev->be->vt->comm_create(dev->be->ctx, dev->index, id, ACCEL_DEVICE_COMM_ID_BYTES,
                                          nranks, rank, &c->be);
    if (rc != ACCEL_SUCCESS) {
        free(c);
        return accel__fail_relay((accel_status)rc, "%s: rank %d of %d on %s", fn, rank, nranks,
                                 dev->name);
    }
    c->dev = dev;
    if (accel__handle_new(ACCEL__T_COMM, c, dev->rt->gate, &c->handle) != ACCEL_SUCCESS) {
        dev->be->vt->comm_destroy(dev->be->ctx, c->be);
        free(c);
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    }
    ACCEL__RT_LIST(PUSH, dev->rt, comms, c);
    *out_comm = c->handle;
    return ACCEL_SUCCESS;
}

static void comm_destroy(accel_device_comm *c)
{
    c->dev->be->vt->comm_destroy(c->dev->be->ctx, c->be);
    free(c);
}

void accel_device_comm_release(accel_device_comm *comm)
{
    /* Collectives of other threads that resolved comm return first. */
    ACCEL__ENTER_RELEASE("accel_device_comm_release", comm, ACCEL__T_COMM);
    ACCEL__RT_LIST(REMOVE, comm->dev->rt, comms, comm);
    comm_destroy(comm);
}

void accel__comms_kill_handles(accel_runtime *rt)
{
    for (accel_device_comm *c = rt->comms; c; c = c->next)
        accel__handle_free(c->handle);
}

void accel__comms_close(accel_runtime *rt)
{
    while (rt->comms) {
        accel_device_comm *c = rt->comms;
        ACCEL__LIST_REMOVE(rt->comms, c);
        comm_destroy(c);
    }
}

/* One range for the plugin; buf is the resolved buffer object, NULL for an
 * empty buffer-less range (which stays empty). */
static accel_status operand(const accel_device_comm *comm, const char *fn, const char *name,
                            accel_slice s, accel_buffer *buf, accel_op_operand *out)
{
    memset(out, 0, sizeof *out);
    if (!buf)
        return ACCEL_SUCCESS;
    s.buffer = buf;
    if (s.buffer->dev != comm->dev)
        return accel__fail(ACCEL_ERROR_DEVICE_MISMATCH, "%s: %s is on %s, the communicator on %s",
                           fn, name, s.buffer->dev->name, comm->dev->name);
    accel__buffer_mark_enqueued(s.buffer);
    out->buffer = s.buffer->be;
    out->offset = s.offset;
    out->count = s.count;
    return ACCEL_SUCCESS;
}

accel_status accel_device_comm_enqueue(accel_device_comm *comm, accel_queue *q,
                                       const accel_collective_desc *d)
{
    static const char fn[] = "accel_device_comm_enqueue";
    const char *name = d && d->struct_size >= sizeof *d && d->name ? d->name : fn;
    /* comm, q and the ranges' buffers (a buffer-less empty range needs
     * none), all of one runtime. */
    ACCEL__CALL(call);
    accel_buffer *send = NULL, *recv = NULL;
    accel__arg args[4] = {{comm, ACCEL__T_COMM, "comm", &comm, NULL},
                          {q, ACCEL__T_QUEUE, "q", &q, NULL}};
    size_t n = 2;
    if (!d || d->struct_size < sizeof *d) {
        accel_status st = accel__call_enter(&call, name, 1, args);
        if (st != ACCEL_SUCCESS)
            return st;
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: d is NULL or its struct_size too small", fn);
    }
    if (d->send.buffer || d->send.count)
        args[n++] = (accel__arg){d->send.buffer, ACCEL__T_BUFFER, "send", &send, ".buffer"};
    if (d->recv.buffer || d->recv.count)
        args[n++] = (accel__arg){d->recv.buffer, ACCEL__T_BUFFER, "recv", &recv, ".buffer"};
    ACCEL__TRY(accel__call_enter(&call, name, n, args));
    if (q->dev != comm->dev)
        return accel__fail(ACCEL_ERROR_DEVICE_MISMATCH, "%s: q is on %s, the communicator on %s",
                           name, q->dev->name, comm->dev->name);
    accel_be_collective bd;
    accel__struct_init(&bd, sizeof bd);
    bd.kind = (uint32_t)d->kind;
    bd.dtype = (uint32_t)d->dtype;
    bd.op = (uint32_t)d->op;
    bd.name = name;
    bd.root = d->root;
    accel_status st = operand(comm, name, "send", d->send, send, &bd.send);
    if (st == ACCEL_SUCCESS)
        st = operand(comm, name, "recv", d->recv, recv, &bd.recv);
    if (st != ACCEL_SUCCESS)
        return st;
    pthread_mutex_lock(&q->lock);
    accel__clear_error();
    int32_t rc = comm->dev->be->vt->comm_execute(comm->dev->be->ctx, q->be, comm->be, &bd);
    pthread_mutex_unlock(&q->lock);
    if (rc != ACCEL_SUCCESS)
        return accel__fail_relay((accel_status)rc, "%s", name);
    return ACCEL_SUCCESS;
}
