/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* gpulike_plugin.c — a test backend that behaves like a GPU where it matters
 * to the core's staging and ordering: its memory is reachable only through
 * its own transfers (buffer_host_ptr is NULL), every queue runs its work
 * later on its own thread (after `delay_us` microseconds per item, default
 * 100), a write takes its copy of the source at the call (as CUDA does for
 * pageable memory), a read fills its destination only when the queue gets
 * there (as CUDA does for page-locked memory), and host functions run on the
 * queue's thread in order. It runs FILL on f32/f64 and COPY on f64 only, and declares
 * everything else unsupported (GEMM too), so every other op takes the
 * fallback path. Tests: tests/test_fallback.c. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "accel/backend.h"

#define GL_ERROR(c, ...) (c)->host->set_error((c)->host->host_ctx, __VA_ARGS__)

typedef struct gl_ctx {
    const accel_host_services *host;
    long delay_us;
} gl_ctx;

struct accel_be_buffer {
    uint32_t device;
    size_t bytes;
    unsigned char *data;
};

struct accel_be_event {
    uint32_t device;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    uint64_t recorded; /* generation of the latest record */
    uint64_t reached;  /* generation the queue has passed */
    double stamp_ms;
};

typedef enum gl_kind { GL_WRITE, GL_READ, GL_COPY, GL_OP, GL_HOST_FN, GL_RECORD, GL_WAIT } gl_kind;

typedef struct gl_item {
    struct gl_item *next;
    gl_kind kind;
    accel_be_buffer *buf, *buf2;
    size_t off, off2, bytes;
    void *host;       /* WRITE: the copy taken at the call; READ: the caller's memory */
    accel_op_desc op; /* OP */
    accel_host_fn fn; /* HOST_FN */
    void *user;
    accel_be_event *ev; /* RECORD, WAIT */
    uint64_t gen;
} gl_item;

struct accel_be_queue {
    gl_ctx *ctx;
    uint32_t device;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond; /* work arrived, work done, or stop */
    gl_item *head, *tail;
    int busy, stop;
    int32_t sticky;
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void gl_sleep_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    if (us > 0)
        nanosleep(&ts, NULL);
}

static void run_op(const accel_op_desc *d)
{
    size_t esize = d->dtype == ACCEL_F32 ? 4 : 8;
    if (d->op == ACCEL_OP_FILL) {
        const accel_op_operand *o = &d->operands[0];
        float f = (float)d->scalars[0];
        double v = d->scalars[0];
        for (size_t i = 0; i < o->count; ++i)
            memcpy(o->buffer->data + (o->offset + i) * esize,
                   d->dtype == ACCEL_F32 ? (void *)&f : (void *)&v, esize);
        return;
    }
    const accel_op_operand *x = &d->operands[0], *o = &d->operands[1];
    memmove(o->buffer->data + o->offset * esize, x->buffer->data + x->offset * esize,
            x->count * esize);
}

static void run_item(gl_item *it)
{
    accel_be_event *ev = it->ev;
    switch (it->kind) {
    case GL_WRITE:
        memcpy(it->buf->data + it->off, it->host, it->bytes);
        free(it->host);
        break;
    case GL_READ:
        memcpy(it->host, it->buf->data + it->off, it->bytes);
        break;
    case GL_COPY:
        memmove(it->buf2->data + it->off2, it->buf->data + it->off, it->bytes);
        break;
    case GL_OP:
        run_op(&it->op);
        break;
    case GL_HOST_FN:
        it->fn(it->user);
        break;
    case GL_RECORD:
        pthread_mutex_lock(&ev->lock);
        ev->stamp_ms = now_ms();
        if (it->gen > ev->reached)
            ev->reached = it->gen;
        pthread_cond_broadcast(&ev->cond);
        pthread_mutex_unlock(&ev->lock);
        break;
    case GL_WAIT:
        pthread_mutex_lock(&ev->lock);
        while (ev->reached < it->gen)
            pthread_cond_wait(&ev->cond, &ev->lock);
        pthread_mutex_unlock(&ev->lock);
        break;
    }
}

static void *queue_thread(void *arg)
{
    accel_be_queue *q = arg;
    pthread_mutex_lock(&q->lock);
    for (;;) {
        while (!q->head && !q->stop)
            pthread_cond_wait(&q->cond, &q->lock);
        if (!q->head)
            break;
        gl_item *it = q->head;
        q->head = it->next;
        if (!q->head)
            q->tail = NULL;
        q->busy = 1;
        pthread_mutex_unlock(&q->lock);
        gl_sleep_us(q->ctx->delay_us);
        run_item(it);
        free(it);
        pthread_mutex_lock(&q->lock);
        q->busy = 0;
        pthread_cond_broadcast(&q->cond);
    }
    pthread_mutex_unlock(&q->lock);
    return NULL;
}

static int32_t push(accel_be_queue *q, gl_item *it)
{
    it->next = NULL;
    pthread_mutex_lock(&q->lock);
    if (q->tail)
        q->tail->next = it;
    else
        q->head = it;
    q->tail = it;
    pthread_cond_broadcast(&q->cond);
    pthread_mutex_unlock(&q->lock);
    return ACCEL_SUCCESS;
}

static gl_item *item(gl_ctx *c, gl_kind kind)
{
    gl_item *it = calloc(1, sizeof *it);
    if (!it)
        GL_ERROR(c, "gpulike: out of host memory");
    else
        it->kind = kind;
    return it;
}

static int32_t gl_init(const accel_host_services *host, void **out_ctx)
{
    gl_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    c->host = host;
    const char *d = host->config_get(host->host_ctx, "delay_us");
    c->delay_us = d ? strtol(d, NULL, 10) : 100;
    *out_ctx = c;
    return ACCEL_SUCCESS;
}

static void gl_shutdown(void *ctx)
{
    free(ctx);
}

static uint32_t gl_device_count(void *ctx)
{
    (void)ctx;
    return 1;
}

static int32_t gl_device_properties(void *ctx, uint32_t device, accel_device_properties *out)
{
    (void)ctx;
    out->kind = ACCEL_DEVICE_OTHER;
    snprintf(out->name, sizeof out->name, "GPU-like test device");
    snprintf(out->backend, sizeof out->backend, "gpulike");
    out->index = device;
    out->compute_units = 1;
    out->memory_total = 1u << 30;
    out->memory_free = 1u << 30;
    out->dtypes = (1u << ACCEL_F32) | (1u << ACCEL_F64);
    out->host_accessible = 0;
    return ACCEL_SUCCESS;
}

static int32_t gl_buffer_alloc(void *ctx, uint32_t device, size_t bytes, accel_be_buffer **out)
{
    accel_be_buffer *b = calloc(1, sizeof *b);
    if (b)
        b->data = malloc(bytes ? bytes : 1);
    if (!b || !b->data) {
        free(b);
        GL_ERROR((gl_ctx *)ctx, "gpulike: cannot allocate %zu bytes", bytes);
        return ACCEL_ERROR_OUT_OF_DEVICE_MEMORY;
    }
    /* Fresh device memory holds old data, not zeros. */
    memset(b->data, 0x7f, bytes ? bytes : 1);
    b->device = device;
    b->bytes = bytes;
    *out = b;
    return ACCEL_SUCCESS;
}

static void gl_buffer_free(void *ctx, accel_be_buffer *buf)
{
    (void)ctx;
    if (buf) {
        free(buf->data);
        free(buf);
    }
}

static int32_t gl_queue_create(void *ctx, uint32_t device, accel_be_queue **out)
{
    accel_be_queue *q = calloc(1, sizeof *q);
    if (!q)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    q->ctx = ctx;
    q->device = device;
    pthread_mutex_init(&q->lock, NULL);
    pthread_cond_init(&q->cond, NULL);
    if (pthread_create(&q->thread, NULL, queue_thread, q) != 0) {
        pthread_cond_destroy(&q->cond);
        pthread_mutex_destroy(&q->lock);
        free(q);
        GL_ERROR((gl_ctx *)ctx, "gpulike: cannot start a queue thread");
        return ACCEL_ERROR_DEVICE;
    }
    *out = q;
    return ACCEL_SUCCESS;
}

static int32_t gl_queue_finish(void *ctx, accel_be_queue *q)
{
    (void)ctx;
    pthread_mutex_lock(&q->lock);
    while (q->head || q->busy)
        pthread_cond_wait(&q->cond, &q->lock);
    int32_t s = q->sticky;
    q->sticky = ACCEL_SUCCESS;
    pthread_mutex_unlock(&q->lock);
    return s;
}

static void gl_queue_destroy(void *ctx, accel_be_queue *q)
{
    gl_queue_finish(ctx, q);
    pthread_mutex_lock(&q->lock);
    q->stop = 1;
    pthread_cond_broadcast(&q->cond);
    pthread_mutex_unlock(&q->lock);
    pthread_join(q->thread, NULL);
    pthread_cond_destroy(&q->cond);
    pthread_mutex_destroy(&q->lock);
    free(q);
}

static int32_t gl_queue_write(void *ctx, accel_be_queue *q, accel_be_buffer *dst, size_t off,
                              const void *src, size_t bytes)
{
    if (!bytes)
        return ACCEL_SUCCESS;
    gl_item *it = item(ctx, GL_WRITE);
    if (it && !(it->host = malloc(bytes))) {
        free(it);
        it = NULL;
    }
    if (!it)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    /* The source is read now, as CUDA stages pageable memory at the call. */
    memcpy(it->host, src, bytes);
    it->buf = dst, it->off = off, it->bytes = bytes;
    return push(q, it);
}

static int32_t gl_queue_read(void *ctx, accel_be_queue *q, accel_be_buffer *src, size_t off,
                             void *dst, size_t bytes)
{
    if (!bytes)
        return ACCEL_SUCCESS;
    gl_item *it = item(ctx, GL_READ);
    if (!it)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    it->buf = src, it->off = off, it->host = dst, it->bytes = bytes;
    return push(q, it);
}

static int32_t gl_queue_copy(void *ctx, accel_be_queue *q, accel_be_buffer *src, size_t so,
                             accel_be_buffer *dst, size_t dof, size_t bytes)
{
    gl_item *it = bytes ? item(ctx, GL_COPY) : NULL;
    if (!bytes)
        return ACCEL_SUCCESS;
    if (!it)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    it->buf = src, it->off = so, it->buf2 = dst, it->off2 = dof, it->bytes = bytes;
    return push(q, it);
}

static int32_t gl_queue_host_fn(void *ctx, accel_be_queue *q, accel_host_fn fn, void *user)
{
    gl_item *it = item(ctx, GL_HOST_FN);
    if (!it)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    it->fn = fn, it->user = user;
    return push(q, it);
}

static int32_t gl_event_create(void *ctx, uint32_t device, accel_be_event **out)
{
    (void)ctx;
    accel_be_event *e = calloc(1, sizeof *e);
    if (!e)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    e->device = device;
    pthread_mutex_init(&e->lock, NULL);
    pthread_cond_init(&e->cond, NULL);
    *out = e;
    return ACCEL_SUCCESS;
}

static void gl_event_destroy(void *ctx, accel_be_event *ev)
{
    (void)ctx;
    pthread_cond_destroy(&ev->cond);
    pthread_mutex_destroy(&ev->lock);
    free(ev);
}

static int32_t gl_event_record(void *ctx, accel_be_event *ev, accel_be_queue *q)
{
    gl_item *it = item(ctx, GL_RECORD);
    if (!it)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    pthread_mutex_lock(&ev->lock);
    it->gen = ++ev->recorded;
    pthread_mutex_unlock(&ev->lock);
    it->ev = ev;
    return push(q, it);
}

static int32_t gl_queue_wait_event(void *ctx, accel_be_queue *q, accel_be_event *ev)
{
    gl_item *it = item(ctx, GL_WAIT);
    if (!it)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    pthread_mutex_lock(&ev->lock);
    it->gen = ev->recorded;
    pthread_mutex_unlock(&ev->lock);
    it->ev = ev;
    return push(q, it);
}

static int32_t gl_event_synchronize(void *ctx, accel_be_event *ev)
{
    (void)ctx;
    pthread_mutex_lock(&ev->lock);
    while (ev->reached < ev->recorded)
        pthread_cond_wait(&ev->cond, &ev->lock);
    pthread_mutex_unlock(&ev->lock);
    return ACCEL_SUCCESS;
}

static int32_t gl_event_query(void *ctx, accel_be_event *ev, int *out_done)
{
    (void)ctx;
    pthread_mutex_lock(&ev->lock);
    *out_done = ev->reached >= ev->recorded;
    pthread_mutex_unlock(&ev->lock);
    return ACCEL_SUCCESS;
}

static int32_t gl_event_elapsed_ms(void *ctx, accel_be_event *a, accel_be_event *b, double *out)
{
    (void)ctx;
    pthread_mutex_lock(&a->lock);
    double ta = a->stamp_ms;
    pthread_mutex_unlock(&a->lock);
    pthread_mutex_lock(&b->lock);
    double tb = b->stamp_ms;
    pthread_mutex_unlock(&b->lock);
    *out = tb - ta;
    return ACCEL_SUCCESS;
}

static int32_t gl_op_supported(void *ctx, uint32_t device, const accel_op_desc *d)
{
    (void)ctx, (void)device;
    if (d->op == ACCEL_OP_FILL && (d->dtype == ACCEL_F32 || d->dtype == ACCEL_F64))
        return ACCEL_SUCCESS;
    if (d->op == ACCEL_OP_COPY && d->dtype == ACCEL_F64)
        return ACCEL_SUCCESS;
    return ACCEL_ERROR_UNSUPPORTED;
}

static int32_t gl_op_execute(void *ctx, accel_be_queue *q, const accel_op_desc *d)
{
    if (gl_op_supported(ctx, q->device, d) != ACCEL_SUCCESS) {
        GL_ERROR((gl_ctx *)ctx, "%s: the gpulike backend does not support op %u", d->name,
                 (unsigned)d->op);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    gl_item *it = item(ctx, GL_OP);
    if (!it)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    it->op = *d;
    it->op.name = NULL; /* the caller's string need not outlive the call */
    return push(q, it);
}

static const accel_backend gl_table = {
    .abi_version = ACCEL_BACKEND_ABI_VERSION,
    .struct_size = (uint32_t)sizeof(accel_backend),
    .name = "gpulike",
    .description = "accel test backend: device memory, deferred queues, FILL and f64 COPY only",
    .init = gl_init,
    .shutdown = gl_shutdown,
    .device_count = gl_device_count,
    .device_properties = gl_device_properties,
    .buffer_alloc = gl_buffer_alloc,
    .buffer_free = gl_buffer_free,
    .queue_create = gl_queue_create,
    .queue_destroy = gl_queue_destroy,
    .queue_finish = gl_queue_finish,
    .queue_write = gl_queue_write,
    .queue_read = gl_queue_read,
    .queue_copy = gl_queue_copy,
    .queue_host_fn = gl_queue_host_fn,
    .event_create = gl_event_create,
    .event_destroy = gl_event_destroy,
    .event_record = gl_event_record,
    .queue_wait_event = gl_queue_wait_event,
    .event_synchronize = gl_event_synchronize,
    .event_query = gl_event_query,
    .event_elapsed_ms = gl_event_elapsed_ms,
    .op_supported = gl_op_supported,
    .op_execute = gl_op_execute,
};

ACCEL_PLUGIN_EXPORT const accel_backend *accel_backend_entry(void);
ACCEL_PLUGIN_EXPORT const accel_backend *accel_backend_entry(void)
{
    return &gl_table;
}
