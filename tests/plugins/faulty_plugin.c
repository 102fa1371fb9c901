/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* faulty_plugin.c — a deliberately faulty backend for the verify-mode tests.
 * Host-memory buffers, queues that run each item at enqueue time, and FILL,
 * COPY, ADD, MUL, SUM and GEMM on f32/f64, correct unless the [backend.NAME]
 * key `fault` picks one bug:
 *   element    ADD and MUL: element count/2 of the result is off by 0.5
 *   range      ADD and MUL: also write one element past the output range
 *   transpose  GEMM: trans_a is ignored (A is always read as stored)
 *   stale      ADD and MUL read their inputs from a device-side cache that is
 *              refreshed only at queue_finish (a missing cache invalidation)
 *   unwritten  MUL: returns success and leaves its output as it was
 * Verify mode must catch each of them; `accel verify` too.
 * Also for the release races of tests/test_buffer.c: `log_supported = true`
 * logs "faulty: op_supported NAME" (debug) from op_supported, which the core
 * calls between resolving an op's buffers and enqueueing it, so a log
 * callback can hold the call there; a freed buffer's memory is overwritten
 * first (0xa5 bytes), so work on a freed buffer gives wrong values even
 * without AddressSanitizer. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/backend.h"

enum { F_NONE, F_ELEMENT, F_RANGE, F_TRANSPOSE, F_STALE, F_UNWRITTEN };

typedef struct fctx {
    const accel_host_services *host;
    int fault;
    int log_supported;
    struct accel_be_buffer *buffers; /* for the stale cache refresh */
} fctx;

struct accel_be_buffer {
    size_t bytes;
    unsigned char *data, *cache;
    struct accel_be_buffer *prev, *next;
};

struct accel_be_queue {
    int unused;
};

struct accel_be_event {
    int unused;
};

static int32_t f_init(const accel_host_services *host, void **out)
{
    fctx *c = calloc(1, sizeof *c);
    if (!c)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    c->host = host;
    const char *f = host->config_get(host->host_ctx, "fault");
    static const char *const names[] = {"none",      "element", "range",
                                        "transpose", "stale",   "unwritten"};
    for (int i = 0; f && i < 6; i++)
        if (strcmp(f, names[i]) == 0)
            c->fault = i;
    const char *ls = host->config_get(host->host_ctx, "log_supported");
    c->log_supported = ls && strcmp(ls, "true") == 0;
    *out = c;
    return ACCEL_SUCCESS;
}

static void f_shutdown(void *ctx)
{
    free(ctx);
}

static uint32_t f_device_count(void *ctx)
{
    (void)ctx;
    return 1;
}

static int32_t f_props(void *ctx, uint32_t device, accel_device_properties *out)
{
    (void)ctx;
    out->kind = ACCEL_DEVICE_OTHER;
    snprintf(out->name, sizeof out->name, "Faulty test device");
    snprintf(out->backend, sizeof out->backend, "faulty");
    out->index = device;
    out->compute_units = 1;
    out->memory_total = out->memory_free = 1u << 30;
    out->dtypes = (1u << ACCEL_F32) | (1u << ACCEL_F64);
    return ACCEL_SUCCESS;
}

static int32_t f_alloc(void *ctx, uint32_t device, size_t bytes, accel_be_buffer **out)
{
    fctx *c = ctx;
    (void)device;
    accel_be_buffer *b = calloc(1, sizeof *b);
    if (b) {
        b->data = calloc(1, bytes ? bytes : 1);
        b->cache = calloc(1, bytes ? bytes : 1);
    }
    if (!b || !b->data || !b->cache) {
        if (b) {
            free(b->data);
            free(b->cache);
        }
        free(b);
        return ACCEL_ERROR_OUT_OF_DEVICE_MEMORY;
    }
    b->bytes = bytes;
    b->next = c->buffers;
    if (c->buffers)
        c->buffers->prev = b;
    c->buffers = b;
    *out = b;
    return ACCEL_SUCCESS;
}

static void f_free(void *ctx, accel_be_buffer *b)
{
    fctx *c = ctx;
    if (b->prev)
        b->prev->next = b->next;
    else
        c->buffers = b->next;
    if (b->next)
        b->next->prev = b->prev;
    memset(b->data, 0xa5, b->bytes);
    free(b->data);
    free(b->cache);
    free(b);
}

static int32_t f_queue_create(void *ctx, uint32_t device, accel_be_queue **out)
{
    (void)ctx, (void)device;
    *out = calloc(1, sizeof **out);
    return *out ? ACCEL_SUCCESS : ACCEL_ERROR_OUT_OF_HOST_MEMORY;
}

static void f_queue_destroy(void *ctx, accel_be_queue *q)
{
    (void)ctx;
    free(q);
}

static int32_t f_finish(void *ctx, accel_be_queue *q)
{
    fctx *c = ctx;
    (void)q;
    for (accel_be_buffer *b = c->buffers; b; b = b->next)
        memcpy(b->cache, b->data, b->bytes);
    return ACCEL_SUCCESS;
}

static int32_t f_write(void *ctx, accel_be_queue *q, accel_be_buffer *dst, size_t off,
                       const void *src, size_t bytes)
{
    (void)ctx, (void)q;
    memcpy(dst->data + off, src, bytes);
    return ACCEL_SUCCESS;
}

static int32_t f_read(void *ctx, accel_be_queue *q, accel_be_buffer *src, size_t off, void *dst,
                      size_t bytes)
{
    (void)ctx, (void)q;
    memcpy(dst, src->data + off, bytes);
    return ACCEL_SUCCESS;
}

static int32_t f_copy(void *ctx, accel_be_queue *q, accel_be_buffer *src, size_t so,
                      accel_be_buffer *dst, size_t dof, size_t bytes)
{
    (void)ctx, (void)q;
    memmove(dst->data + dof, src->data + so, bytes);
    memmove(dst->cache + dof, dst->data + dof, bytes);
    return ACCEL_SUCCESS;
}

static int32_t f_host_fn(void *ctx, accel_be_queue *q, accel_host_fn fn, void *user)
{
    (void)ctx, (void)q;
    fn(user);
    return ACCEL_SUCCESS;
}

static int32_t f_event_create(void *ctx, uint32_t device, accel_be_event **out)
{
    (void)ctx, (void)device;
    *out = calloc(1, sizeof **out);
    return *out ? ACCEL_SUCCESS : ACCEL_ERROR_OUT_OF_HOST_MEMORY;
}

static void f_event_destroy(void *ctx, accel_be_event *ev)
{
    (void)ctx;
    free(ev);
}

static int32_t f_event_record(void *ctx, accel_be_event *ev, accel_be_queue *q)
{
    (void)ctx, (void)ev, (void)q;
    return ACCEL_SUCCESS;
}

static int32_t f_wait(void *ctx, accel_be_queue *q, accel_be_event *ev)
{
    (void)ctx, (void)q, (void)ev;
    return ACCEL_SUCCESS;
}

static int32_t f_event_sync(void *ctx, accel_be_event *ev)
{
    (void)ctx, (void)ev;
    return ACCEL_SUCCESS;
}

static int32_t f_event_query(void *ctx, accel_be_event *ev, int *done)
{
    (void)ctx, (void)ev;
    *done = 1;
    return ACCEL_SUCCESS;
}

static int32_t f_elapsed(void *ctx, accel_be_event *a, accel_be_event *b, double *ms)
{
    (void)ctx, (void)a, (void)b;
    *ms = 0;
    return ACCEL_SUCCESS;
}

/* The op check without the log line (f_execute asks it too). */
static int32_t supported(const accel_op_desc *d)
{
    if (d->dtype != ACCEL_F32 && d->dtype != ACCEL_F64)
        return ACCEL_ERROR_UNSUPPORTED;
    switch (d->op) {
    case ACCEL_OP_FILL:
    case ACCEL_OP_COPY:
    case ACCEL_OP_ADD:
    case ACCEL_OP_MUL:
    case ACCEL_OP_SUM:
        return ACCEL_SUCCESS;
    case ACCEL_OP_GEMM:
        return d->flags ? ACCEL_ERROR_UNSUPPORTED : ACCEL_SUCCESS;
    default:
        return ACCEL_ERROR_UNSUPPORTED;
    }
}

static int32_t f_supported(void *ctx, uint32_t device, const accel_op_desc *d)
{
    fctx *c = ctx;
    (void)device;
    if (c->log_supported)
        c->host->log(c->host->host_ctx, ACCEL_LOG_DEBUG, "faulty: op_supported %s",
                     d->name ? d->name : "?");
    return supported(d);
}

static double ld(const accel_op_desc *d, const unsigned char *base, size_t i)
{
    if (d->dtype == ACCEL_F32) {
        float f;
        memcpy(&f, base + i * 4, 4);
        return f;
    }
    double v;
    memcpy(&v, base + i * 8, 8);
    return v;
}

static void st(const accel_op_desc *d, accel_be_buffer *b, size_t i, double v)
{
    size_t es = d->dtype == ACCEL_F32 ? 4 : 8;
    if (d->dtype == ACCEL_F32) {
        float f = (float)v;
        memcpy(b->data + i * es, &f, 4);
    } else {
        memcpy(b->data + i * es, &v, 8);
    }
    memcpy(b->cache + i * es, b->data + i * es, es);
}

static int32_t f_execute(void *ctx, accel_be_queue *q, const accel_op_desc *d)
{
    fctx *c = ctx;
    (void)q;
    if (supported(d) != ACCEL_SUCCESS) {
        c->host->set_error(c->host->host_ctx, "%s: the faulty backend does not support op %u",
                           d->name, d->op);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    const accel_op_operand *o = d->operands;
    size_t es = d->dtype == ACCEL_F32 ? 4 : 8;
    switch (d->op) {
    case ACCEL_OP_FILL:
        for (size_t i = 0; i < o[0].count; i++)
            st(d, o[0].buffer, o[0].offset + i, d->scalars[0]);
        break;
    case ACCEL_OP_COPY:
        for (size_t i = 0; i < o[0].count; i++)
            st(d, o[1].buffer, o[1].offset + i, ld(d, o[0].buffer->data, o[0].offset + i));
        break;
    case ACCEL_OP_ADD:
    case ACCEL_OP_MUL: {
        if (d->op == ACCEL_OP_MUL && c->fault == F_UNWRITTEN)
            break;
        const unsigned char *a = c->fault == F_STALE ? o[0].buffer->cache : o[0].buffer->data;
        const unsigned char *b = c->fault == F_STALE ? o[1].buffer->cache : o[1].buffer->data;
        size_t n = o[2].count;
        /* Compute first: the output may be one of the inputs. */
        double *r = malloc((n + 1) * sizeof *r);
        if (!r)
            return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
        for (size_t i = 0; i < n; i++) {
            double x = ld(d, a, o[0].offset + i), y = ld(d, b, o[1].offset + i);
            r[i] = d->op == ACCEL_OP_ADD ? x + y : x * y;
            if (d->dtype == ACCEL_F32)
                r[i] = (float)r[i];
        }
        if (c->fault == F_ELEMENT && n)
            r[n / 2] += 0.5;
        for (size_t i = 0; i < n; i++)
            st(d, o[2].buffer, o[2].offset + i, r[i]);
        if (c->fault == F_RANGE && (o[2].offset + n + 1) * es <= o[2].buffer->bytes)
            st(d, o[2].buffer, o[2].offset + n, 42.0);
        free(r);
        break;
    }
    case ACCEL_OP_SUM: {
        double s = 0;
        for (size_t i = 0; i < o[0].count; i++)
            s += ld(d, o[0].buffer->data, o[0].offset + i);
        st(d, o[1].buffer, o[1].offset, s);
        break;
    }
    case ACCEL_OP_GEMM: {
        int ta = c->fault == F_TRANSPOSE ? 0 : (int)d->trans_a;
        for (size_t b = 0; b < d->batch_count; b++) {
            size_t ao = o[0].offset + b * d->stride_a, bo = o[1].offset + b * d->stride_b,
                   co = o[2].offset + b * d->stride_c;
            for (size_t i = 0; i < d->m; i++) {
                for (size_t j = 0; j < d->n; j++) {
                    double s = 0;
                    for (size_t l = 0; l < d->k; l++) {
                        size_t ia = ta ? ao + l * d->lda + i : ao + i * d->lda + l;
                        size_t ib = d->trans_b ? bo + j * d->ldb + l : bo + l * d->ldb + j;
                        s += ld(d, o[0].buffer->data, ia) * ld(d, o[1].buffer->data, ib);
                    }
                    size_t ic = co + i * d->ldc + j;
                    double cv =
                        d->scalars[1] != 0 ? d->scalars[1] * ld(d, o[2].buffer->data, ic) : 0;
                    st(d, o[2].buffer, ic, d->scalars[0] * s + cv);
                }
            }
        }
        break;
    }
    default:
        break;
    }
    return ACCEL_SUCCESS;
}

static const accel_backend faulty_table = {
    .abi_version = ACCEL_BACKEND_ABI_VERSION,
    .struct_size = (uint32_t)sizeof(accel_backend),
    .name = "faulty",
    .description = "accel test backend with one chosen bug (fault = element|range|transpose|"
                   "stale|unwritten)",
    .init = f_init,
    .shutdown = f_shutdown,
    .device_count = f_device_count,
    .device_properties = f_props,
    .buffer_alloc = f_alloc,
    .buffer_free = f_free,
    .queue_create = f_queue_create,
    .queue_destroy = f_queue_destroy,
    .queue_finish = f_finish,
    .queue_write = f_write,
    .queue_read = f_read,
    .queue_copy = f_copy,
    .queue_host_fn = f_host_fn,
    .event_create = f_event_create,
    .event_destroy = f_event_destroy,
    .event_record = f_event_record,
    .queue_wait_event = f_wait,
    .event_synchronize = f_event_sync,
    .event_query = f_event_query,
    .event_elapsed_ms = f_elapsed,
    .op_supported = f_supported,
    .op_execute = f_execute,
};

ACCEL_PLUGIN_EXPORT const accel_backend *accel_backend_entry(void);
ACCEL_PLUGIN_EXPORT const accel_backend *accel_backend_entry(void)
{
    return &faulty_table;
}
