/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* template_backend.c — a minimal accel backend in plain C to copy from.
 *
 * Device memory is host memory, and a queue runs each item when it is
 * enqueued (a legal in-order queue: everything is done before the call
 * returns). It implements FILL, ADD, MUL and SUM on f32 and f64 and declares
 * every other op unsupported, so the core runs those on its fallback device
 * (the CPU by default). Replace the bodies with your device's calls; keep the
 * contract of accel/backend.h: the core checks every argument first, a queue
 * keeps its first asynchronous error until the next synchronizing call, and a
 * failure is explained with host->set_error(host->host_ctx, ...) before it is
 * returned. Every host callback takes host->host_ctx first (plugin ABI 2).
 *
 * Check it with `accel verify --plugin libaccel_template.so`. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/backend.h"

typedef struct tpl_ctx {
    const accel_host_services *host; /* log, set_error, config_get */
} tpl_ctx;

struct accel_be_buffer {
    size_t bytes;
    unsigned char *data;
};

struct accel_be_queue {
    int unused; /* a real device keeps its stream and sticky error here */
};

struct accel_be_event {
    int unused;
};

/* ------------------------------------------------------------ lifetime */

static int32_t tpl_init(const accel_host_services *host, void **out_ctx)
{
    tpl_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        host->set_error(host->host_ctx, "template: out of host memory");
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    c->host = host;
    *out_ctx = c;
    return ACCEL_SUCCESS;
}

static void tpl_shutdown(void *ctx)
{
    free(ctx);
}

static uint32_t tpl_device_count(void *ctx)
{
    (void)ctx;
    return 1;
}

static int32_t tpl_device_properties(void *ctx, uint32_t device, accel_device_properties *out)
{
    (void)ctx;
    out->kind = ACCEL_DEVICE_OTHER;
    snprintf(out->name, sizeof out->name, "Template device");
    snprintf(out->backend, sizeof out->backend, "template");
    out->index = device;
    out->compute_units = 1;
    out->memory_total = out->memory_free = (uint64_t)1 << 30;
    out->dtypes = (1u << ACCEL_F32) | (1u << ACCEL_F64);
    return ACCEL_SUCCESS;
}

/* ------------------------------------------------------------ memory */

static int32_t tpl_buffer_alloc(void *ctx, uint32_t device, size_t bytes, accel_be_buffer **out)
{
    tpl_ctx *c = ctx;
    (void)device;
    accel_be_buffer *b = calloc(1, sizeof *b);
    if (b)
        b->data = malloc(bytes ? bytes : 1);
    if (!b || !b->data) {
        free(b);
        c->host->set_error(c->host->host_ctx, "template: cannot allocate %zu bytes", bytes);
        return ACCEL_ERROR_OUT_OF_DEVICE_MEMORY;
    }
    b->bytes = bytes;
    *out = b;
    return ACCEL_SUCCESS;
}

static void tpl_buffer_free(void *ctx, accel_be_buffer *b)
{
    (void)ctx;
    free(b->data);
    free(b);
}

/* ------------------------------------------------------------ queues */

static int32_t tpl_queue_create(void *ctx, uint32_t device, accel_be_queue **out)
{
    (void)ctx, (void)device;
    *out = calloc(1, sizeof **out);
    return *out ? ACCEL_SUCCESS : ACCEL_ERROR_OUT_OF_HOST_MEMORY;
}

static void tpl_queue_destroy(void *ctx, accel_be_queue *q)
{
    (void)ctx;
    free(q);
}

static int32_t tpl_queue_finish(void *ctx, accel_be_queue *q)
{
    (void)ctx, (void)q;
    return ACCEL_SUCCESS; /* everything ran at enqueue */
}

static int32_t tpl_queue_write(void *ctx, accel_be_queue *q, accel_be_buffer *dst, size_t off,
                               const void *src, size_t bytes)
{
    (void)ctx, (void)q;
    memcpy(dst->data + off, src, bytes);
    return ACCEL_SUCCESS;
}

static int32_t tpl_queue_read(void *ctx, accel_be_queue *q, accel_be_buffer *src, size_t off,
                              void *dst, size_t bytes)
{
    (void)ctx, (void)q;
    memcpy(dst, src->data + off, bytes);
    return ACCEL_SUCCESS;
}

static int32_t tpl_queue_copy(void *ctx, accel_be_queue *q, accel_be_buffer *src, size_t src_off,
                              accel_be_buffer *dst, size_t dst_off, size_t bytes)
{
    (void)ctx, (void)q;
    memmove(dst->data + dst_off, src->data + src_off, bytes);
    return ACCEL_SUCCESS;
}

static int32_t tpl_queue_host_fn(void *ctx, accel_be_queue *q, accel_host_fn fn, void *user)
{
    (void)ctx, (void)q;
    fn(user); /* earlier work is done already */
    return ACCEL_SUCCESS;
}

/* ------------------------------------------------------------ events */

static int32_t tpl_event_create(void *ctx, uint32_t device, accel_be_event **out)
{
    (void)ctx, (void)device;
    *out = calloc(1, sizeof **out);
    return *out ? ACCEL_SUCCESS : ACCEL_ERROR_OUT_OF_HOST_MEMORY;
}

static void tpl_event_destroy(void *ctx, accel_be_event *ev)
{
    (void)ctx;
    free(ev);
}

static int32_t tpl_event_record(void *ctx, accel_be_event *ev, accel_be_queue *q)
{
    (void)ctx, (void)ev, (void)q;
    return ACCEL_SUCCESS;
}

static int32_t tpl_queue_wait_event(void *ctx, accel_be_queue *q, accel_be_event *ev)
{
    (void)ctx, (void)q, (void)ev;
    return ACCEL_SUCCESS;
}

static int32_t tpl_event_synchronize(void *ctx, accel_be_event *ev)
{
    (void)ctx, (void)ev;
    return ACCEL_SUCCESS;
}

static int32_t tpl_event_query(void *ctx, accel_be_event *ev, int *out_done)
{
    (void)ctx, (void)ev;
    *out_done = 1;
    return ACCEL_SUCCESS;
}

static int32_t tpl_event_elapsed_ms(void *ctx, accel_be_event *a, accel_be_event *b, double *ms)
{
    (void)ctx, (void)a, (void)b;
    *ms = 0.0; /* no device clock here */
    return ACCEL_SUCCESS;
}

/* ------------------------------------------------------------ ops */

static int32_t tpl_op_supported(void *ctx, uint32_t device, const accel_op_desc *d)
{
    (void)ctx, (void)device;
    if (d->dtype != ACCEL_F32 && d->dtype != ACCEL_F64)
        return ACCEL_ERROR_UNSUPPORTED;
    switch (d->op) {
    case ACCEL_OP_FILL:
    case ACCEL_OP_ADD:
    case ACCEL_OP_MUL:
    case ACCEL_OP_SUM:
        return ACCEL_SUCCESS;
    default:
        return ACCEL_ERROR_UNSUPPORTED; /* the core falls back to another device */
    }
}

/* Operand i, element e, as a float or double pointer. */
#define F32(d, i, e)                                                                               \
    ((float *)(void *)(d)->operands[i].buffer->data + (d)->operands[i].offset + (e))
#define F64(d, i, e)                                                                               \
    ((double *)(void *)(d)->operands[i].buffer->data + (d)->operands[i].offset + (e))

static int32_t tpl_op_execute(void *ctx, accel_be_queue *q, const accel_op_desc *d)
{
    tpl_ctx *c = ctx;
    (void)q;
    if (tpl_op_supported(ctx, 0, d) != ACCEL_SUCCESS) {
        c->host->set_error(c->host->host_ctx, "%s: the template backend does not support op %u",
                           d->name, d->op);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    bool f32 = d->dtype == ACCEL_F32;
    size_t n = d->operands[0].count;
    switch (d->op) {
    case ACCEL_OP_FILL:
        for (size_t i = 0; i < n; i++) {
            if (f32)
                *F32(d, 0, i) = (float)d->scalars[0];
            else
                *F64(d, 0, i) = d->scalars[0];
        }
        break;
    case ACCEL_OP_ADD:
    case ACCEL_OP_MUL:
        /* In place is allowed: out is then exactly a's or b's range. */
        for (size_t i = 0; i < n; i++) {
            if (f32)
                *F32(d, 2, i) = d->op == ACCEL_OP_ADD ? *F32(d, 0, i) + *F32(d, 1, i)
                                                      : *F32(d, 0, i) * *F32(d, 1, i);
            else
                *F64(d, 2, i) = d->op == ACCEL_OP_ADD ? *F64(d, 0, i) + *F64(d, 1, i)
                                                      : *F64(d, 0, i) * *F64(d, 1, i);
        }
        break;
    case ACCEL_OP_SUM: {
        /* Pairwise-free plain loop in double: within accel's bound
         * 2*n*eps*sum|x| for f32 and f64 alike. */
        double s = 0;
        for (size_t i = 0; i < n; i++)
            s += f32 ? (double)*F32(d, 0, i) : *F64(d, 0, i);
        if (f32)
            *F32(d, 1, 0) = (float)s;
        else
            *F64(d, 1, 0) = s;
        break;
    }
    default:
        break;
    }
    return ACCEL_SUCCESS;
}

/* ------------------------------------------------------------ the table */

static const accel_backend template_table = {
    .abi_version = ACCEL_BACKEND_ABI_VERSION,
    .struct_size = (uint32_t)sizeof(accel_backend),
    .name = "template",
    .description = "accel plugin template: host memory, FILL/ADD/MUL/SUM on f32 and f64",
    .init = tpl_init,
    .shutdown = tpl_shutdown,
    .device_count = tpl_device_count,
    .device_properties = tpl_device_properties,
    .buffer_alloc = tpl_buffer_alloc,
    .buffer_free = tpl_buffer_free,
    .buffer_host_ptr = NULL, /* optional: NULL means not host-accessible to the core */
    .host_alloc = NULL,      /* optional: the core uses aligned malloc */
    .host_free = NULL,
    .queue_create = tpl_queue_create,
    .queue_destroy = tpl_queue_destroy,
    .queue_finish = tpl_queue_finish,
    .queue_write = tpl_queue_write,
    .queue_read = tpl_queue_read,
    .queue_copy = tpl_queue_copy,
    .queue_host_fn = tpl_queue_host_fn,
    .event_create = tpl_event_create,
    .event_destroy = tpl_event_destroy,
    .event_record = tpl_event_record,
    .queue_wait_event = tpl_queue_wait_event,
    .event_synchronize = tpl_event_synchronize,
    .event_query = tpl_event_query,
    .event_elapsed_ms = tpl_event_elapsed_ms,
    .op_supported = tpl_op_supported,
    .op_execute = tpl_op_execute,
    /* User kernels (accel/kernel.h) are optional: with program_identity,
     * program_build and program_release left NULL, a kernel launched on this
     * device is ACCEL_ERROR_UNSUPPORTED ("no program_build entry") and, with
     * fallback on, runs on the CPU instead. A backend with a compiler builds
     * the generated source of accel_program_desc (ACCEL_PROGRAM_C: a C11
     * translation unit with the entry conventions of backend.h) and takes
     * ACCEL_OP_KERNEL in op_supported/op_execute; backends/cpu/kernel.c is
     * a complete example. */
    .program_identity = NULL,
    .program_build = NULL,
    .program_release = NULL,
};

/* The one exported symbol. */
ACCEL_PLUGIN_EXPORT const accel_backend *accel_backend_entry(void);
ACCEL_PLUGIN_EXPORT const accel_backend *accel_backend_entry(void)
{
    return &template_table;
}
