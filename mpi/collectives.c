/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* mpi/collectives.c — the public collectives: argument checks, check mode's
 * agreement across ranks, and dispatch of one call to its transport (a host
 * function running MPI, the staged copies around it, or the backend's own
 * collective entries), queued or blocking (accel/mpi.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "try.h" /* ACCEL__TRY */

/* ------------------------------------------------------------ arguments */

/* A slice on the communicator's device and inside its buffer. */
static accel_status check_slice(const char *fn, const char *name, accel_slice s,
                                const accel_comm *comm, size_t esize)
{
    if (!s.buffer)
        return accel_error_set(ACCEL_ERROR_INVALID_HANDLE, "%s: %s.buffer is NULL", fn, name);
    accel_device *dev = accel_buffer_device(s.buffer);
    if (!dev)
        return accel_error_set(ACCEL_ERROR_INVALID_HANDLE, "%s: %s.buffer is not a live buffer", fn,
                               name);
    if (dev != comm->dev)
        return accel_error_set(ACCEL_ERROR_DEVICE_MISMATCH,
                               "%s: %s.buffer is on %s, the communicator's device is %s", fn, name,
                               accel_device_name(dev), accel_device_name(comm->dev));
    size_t elems = accel_buffer_size(s.buffer) / esize;
    if (s.offset > elems || s.count > elems - s.offset)
        return accel_error_set(ACCEL_ERROR_OUT_OF_RANGE,
                               "%s: %s [%zu, %zu + %zu) is past its buffer of %zu elements", fn,
                               name, s.offset, s.offset, s.count, elems);
    if (s.count > (size_t)INT32_MAX)
        return accel_error_set(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: %s.count %zu exceeds MPI's int count (%d)", fn, name, s.count,
                               INT32_MAX);
    return ACCEL_SUCCESS;
}

/* Same buffer and element ranges that share at least one element. */
static bool overlap(accel_slice a, accel_slice b)
{
    return a.buffer == b.buffer && a.count && b.count && a.offset < b.offset + b.count &&
           b.offset < a.offset + a.count;
}

static bool same(accel_slice a, accel_slice b)
{
    return a.buffer == b.buffer && a.offset == b.offset && a.count == b.count;
}

static accel_status check_common(accel_mpi__call *c, accel_queue *q, bool reduces)
{
    const char *fn = c->fn;
    if (!accel_mpi__comm_valid(c->comm))
        return accel_error_set(ACCEL_ERROR_INVALID_HANDLE, "%s: comm is %s", fn,
                               c->comm ? "not a live communicator" : "NULL");
    accel_device *qdev = accel_queue_device(q);
    if (!qdev)
        return accel_error_set(ACCEL_ERROR_INVALID_HANDLE, "%s: q is %s", fn,
                               q ? "not a live queue" : "NULL");
    if (qdev != c->comm->dev)
        return accel_error_set(ACCEL_ERROR_DEVICE_MISMATCH,
                               "%s: q is on %s, the communicator's device is %s", fn,
                               accel_device_name(qdev), accel_device_name(c->comm->dev));
    if (accel_mpi__datatype(c->dtype) == MPI_DATATYPE_NULL)
        return accel_error_set(
            ACCEL_ERROR_DTYPE_MISMATCH,
            "%s: dtype %s (%d) is not supported; collectives take f32, f64, i32, i64 and u8", fn,
            accel_dtype_name(c->dtype), (int)c->dtype);
    if (reduces && accel_mpi__op(c->op) == MPI_OP_NULL)
        return accel_error_set(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: op %d is not ACCEL_OP_SUM, ACCEL_OP_REDUCE_MAX or "
                               "ACCEL_OP_REDUCE_MIN",
                               fn, (int)c->op);
    c->esize = accel_dtype_size(c->dtype);
    return ACCEL_SUCCESS;
}

/* Check mode: every rank compares (kind, count, dtype, op, root) through one
 * MPI_Allreduce(MAX) of the values and their negations (max and min at
 * once) on the private check communicator. */
static accel_status agree(const accel_mpi__call *c, size_t count)
{
    const accel_comm *comm = c->comm;
    int64_t v[10] = {c->kind, (int64_t)count, c->dtype, c->op, c->root};
    for (int i = 0; i < 5; ++i)
        v[5 + i] = -v[i];
    int64_t r[10];
    int rc = MPI_Allreduce(v, r, 10, MPI_INT64_T, MPI_MAX, comm->check);
    if (rc != MPI_SUCCESS) {
        char msg[MPI_MAX_ERROR_STRING + 64];
        accel_mpi__mpi_message(rc, "check: MPI_Allreduce", msg, sizeof msg);
        return accel_error_set(ACCEL_ERROR_COMMUNICATION, "%s: %s", c->fn, msg);
    }
    static const char *const what[5] = {"collective", "count", "dtype", "op", "root"};
    for (int i = 0; i < 5; ++i) {
        if (r[i] != -r[5 + i])
            return accel_error_set(ACCEL_ERROR_SHAPE_MISMATCH,
                                   "%s: the ranks disagree on the %s: rank %d has %lld, the ranks "
                                   "range over [%lld, %lld] (check mode)",
                                   c->fn, what[i], comm->rank, (long long)v[i],
                                   (long long)-r[5 + i], (long long)r[i]);
    }
    return ACCEL_SUCCESS;
}

/* --------------------------------------------------------------- staging */

static accel_status pool_take(accel_comm *comm, size_t bytes, accel_mpi__block **out)
{
    pthread_mutex_lock(&comm->pool_lock);
    accel_mpi__block **link = &comm->pool;
    while (*link && (*link)->bytes < bytes)
        link = &(*link)->next;
    accel_mpi__block *b = *link;
    if (b)
        *link = b->next;
    pthread_mutex_unlock(&comm->pool_lock);
    if (!b) {
        b = calloc(1, sizeof *b);
        if (!b)
            return accel_error_set(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
        b->bytes = bytes;
        accel_status st = accel_host_alloc(comm->dev, bytes ? bytes : 1, &b->ptr);
        if (st != ACCEL_SUCCESS) {
            free(b);
            return st;
        }
    }
    *out = b;
    return ACCEL_SUCCESS;
}

static void pool_put(accel_comm *comm, accel_mpi__block *b)
{
    pthread_mutex_lock(&comm->pool_lock);
    b->next = comm->pool;
    comm->pool = b;
    pthread_mutex_unlock(&comm->pool_lock);
}

/* What a call reads from and writes to its device on this rank. */
static bool reads_send(const accel_mpi__call *c)
{
    if (c->kind == ACCEL_MPI__RECV)
        return false;
    if (c->kind == ACCEL_MPI__BROADCAST)
        return c->comm->rank == c->root;
    return true;
}

static bool writes_recv(const accel_mpi__call *c)
{
    switch (c->kind) {
    case ACCEL_MPI__SEND:
        return false;
    case ACCEL_MPI__REDUCE:
        return c->comm->rank == c->root;
    case ACCEL_MPI__BROADCAST:
        return c->comm->rank != c->root;
    case ACCEL_MPI__ALLREDUCE:
    case ACCEL_MPI__ALLGATHER:
    case ACCEL_MPI__REDUCE_SCATTER:
    case ACCEL_MPI__RECV:
        break;
    }
    return true;
}

/* ------------------------------------------------------------- transports */

static accel_status host_task(void *user, char *msg, size_t cap)
{
    accel_mpi__call *c = user;
    accel_comm *comm = c->comm;
    accel_status st = accel_mpi__run_host(c, msg, cap);
    if (!c->block) {
        free(c);
        atomic_fetch_sub(&comm->pending, 1);
    }
    return st;
}

/* Staged: after the write-back, the bounce memory goes back to the pool. */
static accel_status staged_done(void *user, char *msg, size_t cap)
{
    (void)msg;
    (void)cap;
    accel_mpi__call *c = user;
    accel_comm *comm = c->comm;
    pool_put(comm, c->block);
    free(c);
    atomic_fetch_sub(&comm->pending, 1);
    return ACCEL_SUCCESS;
}

/* Blocking mode: earlier work first, then the call on this thread. An
 * earlier failure is returned after the call, which still runs so that the
 * ranks stay in step. */
static accel_status run_blocking_host(accel_mpi__call *c, accel_queue *q)
{
    accel_status prior = accel_queue_finish(q);
    char prior_msg[512];
    snprintf(prior_msg, sizeof prior_msg, "%s", accel_last_error());
    char msg[768] = "";
    accel_status st = accel_mpi__run_host(c, msg, sizeof msg);
    if (prior != ACCEL_SUCCESS)
        return accel_error_set(prior, "%s: earlier work on the queue failed: %s", c->fn, prior_msg);
    if (st != ACCEL_SUCCESS)
        return accel_error_set(st, "%s: %s", c->fn, msg);
    return ACCEL_SUCCESS;
}

static accel_status dispatch_host(accel_mpi__call *c, accel_queue *q)
{
    size_t es = c->esize;
    if (c->send.buffer)
        c->send_host = (char *)accel_buffer_host_pointer(c->send.buffer) + c->send.offset * es;
    if (c->recv.buffer)
        c->recv_host = (char *)accel_buffer_host_pointer(c->recv.buffer) + c->recv.offset * es;
    if (c->comm->blocking)
        return run_blocking_host(c, q);
    accel_mpi__call *h = malloc(sizeof *h);
    if (!h)
        return accel_error_set(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", c->fn);
    *h = *c;
    atomic_fetch_add(&c->comm->pending, 1);
    accel_status st = accel_queue_host_fn(q, c->fn, host_task, h);
    if (st != ACCEL_SUCCESS) {
        atomic_fetch_sub(&c->comm->pending, 1);
        free(h);
    }
    return st;
}

static accel_status dispatch_staged(accel_mpi__call *c, accel_queue *q)
{
    size_t es = c->esize;
    size_t sbytes = c->send.count * es, rbytes = c->recv.count * es;
    bool rd = reads_send(c), wr = writes_recv(c);
    bool gather_in_place = c->in_place && c->kind == ACCEL_MPI__ALLGATHER;
    /* In place (and broadcast) use one range of the bounce memory; MPI's
     * in-place allgather reads this rank's block inside all of recv. */
    size_t bytes = gather_in_place                                  ? rbytes
                   : c->in_place || c->kind == ACCEL_MPI__BROADCAST ? sbytes
                                                                    : sbytes + rbytes;
    accel_slice from = gather_in_place ? c->recv : c->send;
    size_t from_bytes = gather_in_place ? rbytes : sbytes;
    accel_mpi__block *b = NULL;
    accel_status st = pool_take(c->comm, bytes, &b);
    if (st != ACCEL_SUCCESS)
        return accel_error_set(st, "%s: pinned bounce memory of %zu bytes: %s", c->fn, bytes,
                               accel_last_error());
    c->send_host = c->recv_host = b->ptr;
    if (gather_in_place)
        c->send_host = (char *)b->ptr + (size_t)c->comm->rank * sbytes;
    else if (bytes == sbytes + rbytes)
        c->recv_host = (char *)b->ptr + sbytes;
    if (c->comm->blocking) {
        accel_status prior = accel_queue_finish(q);
        char prior_msg[512];
        snprintf(prior_msg, sizeof prior_msg, "%s", accel_last_error());
        char msg[768] = "";
        if (rd && from_bytes)
            st = accel_queue_read_blocking(q, from.buffer, from.offset * es, b->ptr, from_bytes);
        if (st != ACCEL_SUCCESS)
            snprintf(msg, sizeof msg, "staging read: %s", accel_last_error());
        /* The call runs even then, so that the ranks stay in step. */
        accel_status cst = accel_mpi__run_host(c, st == ACCEL_SUCCESS ? msg : prior_msg,
                                               st == ACCEL_SUCCESS ? sizeof msg : 0);
        if (st == ACCEL_SUCCESS && cst != ACCEL_SUCCESS)
            st = cst;
        if (st == ACCEL_SUCCESS && wr && rbytes) {
            st = accel_queue_write_blocking(q, c->recv.buffer, c->recv.offset * es, c->recv_host,
                                            rbytes);
            if (st != ACCEL_SUCCESS)
                snprintf(msg, sizeof msg, "staging write: %s", accel_last_error());
        }
        pool_put(c->comm, b);
        if (prior != ACCEL_SUCCESS)
            return accel_error_set(prior, "%s: earlier work on the queue failed: %s", c->fn,
                                   prior_msg);
        if (st != ACCEL_SUCCESS)
            return accel_error_set(st, "%s: %s", c->fn, msg);
        return ACCEL_SUCCESS;
    }
    accel_mpi__call *h = malloc(sizeof *h);
    if (!h) {
        pool_put(c->comm, b);
        return accel_error_set(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", c->fn);
    }
    *h = *c;
    h->block = b;
    atomic_fetch_add(&c->comm->pending, 1);
    if (rd && from_bytes)
        st = accel_queue_read(q, from.buffer, from.offset * es, b->ptr, from_bytes);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_host_fn(q, c->fn, host_task, h);
    if (st == ACCEL_SUCCESS && wr && rbytes)
        st = accel_queue_write(q, c->recv.buffer, c->recv.offset * es, h->recv_host, rbytes);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_host_fn(q, c->fn, staged_done, h);
    if (st != ACCEL_SUCCESS) {
        /* Whatever was enqueued may still run and read h: drain first. */
        char msg[512];
        snprintf(msg, sizeof msg, "%s", accel_last_error());
        (void)accel_queue_finish(q);
        atomic_fetch_sub(&c->comm->pending, 1);
        pool_put(c->comm, b);
        free(h);
        return accel_error_set(st, "%s: staging: %s", c->fn, msg);
    }
    return ACCEL_SUCCESS;
}

static accel_status enqueue_device(accel_mpi__call *c, accel_queue *q);

/* Verify mode on the device transport: synchronous. The input is read to
 * page-locked memory before the collective and the result after it, then
 * checked on the host as the other transports do. Every rank reaches the
 * check whatever failed before it, so that none waits alone. */
static accel_status verify_device(accel_mpi__call *c, accel_queue *q)
{
    size_t es = c->esize, bytes = c->send.count * es;
    accel_mpi__block *b = NULL;
    accel_status st = pool_take(c->comm, 2 * bytes, &b);
    char msg[768] = "";
    if (st != ACCEL_SUCCESS)
        return accel_error_set(st, "%s: verify: pinned memory of %zu bytes: %s", c->fn, 2 * bytes,
                               accel_last_error());
    if (bytes)
        st = accel_queue_read_blocking(q, c->send.buffer, c->send.offset * es, b->ptr, bytes);
    if (st == ACCEL_SUCCESS)
        st = enqueue_device(c, q);
    if (st == ACCEL_SUCCESS && bytes)
        st = accel_queue_read_blocking(q, c->recv.buffer, c->recv.offset * es,
                                       (char *)b->ptr + bytes, bytes);
    if (st != ACCEL_SUCCESS)
        snprintf(msg, sizeof msg, "%s", accel_last_error());
    c->recv_host = (char *)b->ptr + bytes;
    pthread_mutex_lock(&c->comm->lock);
    accel_mpi__watchdog_begin(c);
    char vmsg[768] = "";
    accel_status vst = accel_mpi__verify_allreduce(c, b->ptr, vmsg, sizeof vmsg);
    accel_mpi__watchdog_end(c);
    pthread_mutex_unlock(&c->comm->lock);
    pool_put(c->comm, b);
    if (st != ACCEL_SUCCESS)
        return accel_error_set(st, "%s", msg);
    if (vst != ACCEL_SUCCESS)
        return accel_error_set(vst, "%s: %s", c->fn, vmsg);
    return ACCEL_SUCCESS;
}

static accel_status dispatch_device(accel_mpi__call *c, accel_queue *q)
{
    if (c->comm->verify && c->kind == ACCEL_MPI__ALLREDUCE)
        return verify_device(c, q);
    return enqueue_device(c, q);
}

static accel_status enqueue_device(accel_mpi__call *c, accel_queue *q)
{
    accel_collective_desc d;
    accel_collective_desc_init(&d);
    static const accel_collective_kind kinds[] = {
        [ACCEL_MPI__ALLREDUCE] = ACCEL_COLLECTIVE_ALLREDUCE,
        [ACCEL_MPI__REDUCE] = ACCEL_COLLECTIVE_REDUCE,
        [ACCEL_MPI__BROADCAST] = ACCEL_COLLECTIVE_BROADCAST,
        [ACCEL_MPI__ALLGATHER] = ACCEL_COLLECTIVE_ALLGATHER,
        [ACCEL_MPI__REDUCE_SCATTER] = ACCEL_COLLECTIVE_REDUCE_SCATTER,
        [ACCEL_MPI__SEND] = ACCEL_COLLECTIVE_SEND,
        [ACCEL_MPI__RECV] = ACCEL_COLLECTIVE_RECV,
    };
    d.kind = kinds[c->kind];
    d.name = c->fn;
    d.dtype = c->dtype;
    d.op = c->op;
    d.root = c->root;
    d.send = c->send;
    d.recv = c->recv;
    return accel_device_comm_enqueue(c->comm->dcomm, q, &d);
}

/* Checks done: check mode, then the transport. */
static accel_status submit(accel_mpi__call *c, accel_queue *q, size_t agreed_count)
{
    if (c->comm->check_counts && c->kind != ACCEL_MPI__SEND && c->kind != ACCEL_MPI__RECV) {
        accel_status st = agree(c, agreed_count);
        if (st != ACCEL_SUCCESS)
            return st;
    }
    switch (c->comm->transport) {
    case ACCEL_MPI__HOST:
        return dispatch_host(c, q);
    case ACCEL_MPI__STAGED:
        return dispatch_staged(c, q);
    case ACCEL_MPI__NCCL:
        return dispatch_device(c, q);
    }
    return accel_error_set(ACCEL_ERROR_INTERNAL, "%s: unknown transport", c->fn);
}

static accel_mpi__call call_of(accel_mpi__kind kind, const char *fn, accel_comm *comm,
                               accel_dtype dtype, accel_op_code op, int root)
{
    accel_mpi__call c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.fn = fn;
    c.comm = comm;
    c.dtype = dtype;
    c.op = op;
    c.root = root;
    return c;
}

static accel_status check_root(const accel_mpi__call *c, const char *what)
{
    if (c->root < 0 || c->root >= c->comm->size ||
        (c->kind >= ACCEL_MPI__SEND && c->root == c->comm->rank))
        return accel_error_set(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s %d is not a rank of 0..%d%s",
                               c->fn, what, c->root, c->comm->size - 1,
                               c->kind >= ACCEL_MPI__SEND ? " other than this rank" : "");
    return ACCEL_SUCCESS;
}

/* -------------------------------------------------------------- the calls */

accel_status accel_comm_allreduce(accel_comm *comm, accel_queue *q, accel_dtype dtype,
                                  accel_op_code op, accel_slice send, accel_slice recv)
{
    accel_mpi__call c = call_of(ACCEL_MPI__ALLREDUCE, "accel_comm_allreduce", comm, dtype, op, 0);
    ACCEL__TRY(check_common(&c, q, true));
    ACCEL__TRY(check_slice(c.fn, "send", send, comm, c.esize));
    ACCEL__TRY(check_slice(c.fn, "recv", recv, comm, c.esize));
    if (send.count != recv.count)
        return accel_error_set(ACCEL_ERROR_SHAPE_MISMATCH, "%s: send.count %zu != recv.count %zu",
                               c.fn, send.count, recv.count);
    c.in_place = same(send, recv);
    if (!c.in_place && overlap(send, recv))
        return accel_error_set(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: send and recv overlap without being the same range", c.fn);
    c.send = send;
    c.recv = recv;
    return submit(&c, q, send.count);
}

accel_status accel_comm_reduce(accel_comm *comm, accel_queue *q, accel_dtype dtype,
                               accel_op_code op, int root, accel_slice send, accel_slice recv)
{
    accel_mpi__call c = call_of(ACCEL_MPI__REDUCE, "accel_comm_reduce", comm, dtype, op, root);
    ACCEL__TRY(check_common(&c, q, true));
    ACCEL__TRY(check_root(&c, "root"));
    ACCEL__TRY(check_slice(c.fn, "send", send, comm, c.esize));
    bool is_root = comm->rank == root;
    if (is_root || recv.buffer)
        ACCEL__TRY(check_slice(c.fn, "recv", recv, comm, c.esize));
    if (send.count != recv.count)
        return accel_error_set(ACCEL_ERROR_SHAPE_MISMATCH, "%s: send.count %zu != recv.count %zu",
                               c.fn, send.count, recv.count);
    if (is_root) {
        c.in_place = same(send, recv);
        if (!c.in_place && overlap(send, recv))
            return accel_error_set(ACCEL_ERROR_INVALID_ARGUMENT,
                                   "%s: send and recv overlap without being the same range", c.fn);
        c.recv = recv;
    }
    c.send = send;
    return submit(&c, q, send.count);
}

accel_status accel_comm_broadcast(accel_comm *comm, accel_queue *q, accel_dtype dtype, int root,
                                  accel_slice buf)
{
    accel_mpi__call c =
        call_of(ACCEL_MPI__BROADCAST, "accel_comm_broadcast", comm, dtype, ACCEL_OP_INVALID, root);
    ACCEL__TRY(check_common(&c, q, false));
    ACCEL__TRY(check_root(&c, "root"));
    ACCEL__TRY(check_slice(c.fn, "buf", buf, comm, c.esize));
    c.send = c.recv = buf;
    return submit(&c, q, buf.count);
}

accel_status accel_comm_allgather(accel_comm *comm, accel_queue *q, accel_dtype dtype,
                                  accel_slice send, accel_slice recv)
{
    accel_mpi__call c =
        call_of(ACCEL_MPI__ALLGATHER, "accel_comm_allgather", comm, dtype, ACCEL_OP_INVALID, 0);
    ACCEL__TRY(check_common(&c, q, false));
    ACCEL__TRY(check_slice(c.fn, "send", send, comm, c.esize));
    ACCEL__TRY(check_slice(c.fn, "recv", recv, comm, c.esize));
    if (recv.count / (size_t)comm->size != send.count || recv.count % (size_t)comm->size)
        return accel_error_set(ACCEL_ERROR_SHAPE_MISMATCH,
                               "%s: recv.count %zu != %d ranks * send.count %zu", c.fn, recv.count,
                               comm->size, send.count);
    accel_slice own = {recv.buffer, recv.offset + (size_t)comm->rank * send.count, send.count};
    c.in_place = send.count && same(send, own);
    if (!c.in_place && overlap(send, recv))
        return accel_error_set(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: send overlaps recv other than as this rank's block", c.fn);
    c.send = send;
    c.recv = recv;
    return submit(&c, q, send.count);
}

accel_status accel_comm_reduce_scatter(accel_comm *comm, accel_queue *q, accel_dtype dtype,
                                       accel_op_code op, accel_slice send, accel_slice recv)
{
    accel_mpi__call c =
        call_of(ACCEL_MPI__REDUCE_SCATTER, "accel_comm_reduce_scatter", comm, dtype, op, 0);
    ACCEL__TRY(check_common(&c, q, true));
    ACCEL__TRY(check_slice(c.fn, "send", send, comm, c.esize));
    ACCEL__TRY(check_slice(c.fn, "recv", recv, comm, c.esize));
    if (send.count / (size_t)comm->size != recv.count || send.count % (size_t)comm->size)
        return accel_error_set(ACCEL_ERROR_SHAPE_MISMATCH,
                               "%s: send.count %zu != %d ranks * recv.count %zu", c.fn, send.count,
                               comm->size, recv.count);
    if (overlap(send, recv))
        return accel_error_set(ACCEL_ERROR_INVALID_ARGUMENT, "%s: send and recv overlap", c.fn);
    c.send = send;
    c.recv = recv;
    return submit(&c, q, recv.count);
}

accel_status accel_comm_send(accel_comm *comm, accel_queue *q, accel_dtype dtype, int peer,
                             accel_slice buf)
{
    accel_mpi__call c =
        call_of(ACCEL_MPI__SEND, "accel_comm_send", comm, dtype, ACCEL_OP_INVALID, peer);
    ACCEL__TRY(check_common(&c, q, false));
    ACCEL__TRY(check_root(&c, "peer"));
    ACCEL__TRY(check_slice(c.fn, "buf", buf, comm, c.esize));
    c.send = buf;
    return submit(&c, q, buf.count);
}

accel_status accel_comm_recv(accel_comm *comm, accel_queue *q, accel_dtype dtype, int peer,
                             accel_slice buf)
{
    accel_mpi__call c =
        call_of(ACCEL_MPI__RECV, "accel_comm_recv", comm, dtype, ACCEL_OP_INVALID, peer);
    ACCEL__TRY(check_common(&c, q, false));
    ACCEL__TRY(check_root(&c, "peer"));
    ACCEL__TRY(check_slice(c.fn, "buf", buf, comm, c.esize));
    c.recv = buf;
    return submit(&c, q, buf.count);
}
