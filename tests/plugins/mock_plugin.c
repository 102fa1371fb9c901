/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* mock_plugin.c — a minimal, correct but limited backend for tests: host-memory
 * buffers that are not host-accessible to the core, queues that run each item
 * at enqueue time (a legal in-order queue), and only FILL and COPY on f32/f64.
 * It exists to test what the core does around a backend: device mismatch
 * between backends, cross-backend copies and event waits, UNSUPPORTED ops,
 * config keys passed through host services, and sticky asynchronous errors:
 * a FILL with value 13.0 "fails on the device" after op_execute has returned
 * success, as a faulting GPU kernel would. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* MOCK_ABI1 (the accel_test_abi1 build): the same backend built against
 * the frozen ABI 1 header, whose log and set_error take no context. */
#ifdef MOCK_ABI1
#include "abi1/backend_v1.h"
#define MOCK_ERROR(host, ...) (host)->set_error(__VA_ARGS__)
#define MOCK_LOG(host, ...) (host)->log(__VA_ARGS__)
#else
#include "accel/backend.h"
#define MOCK_ERROR(host, ...) (host)->set_error((host)->host_ctx, __VA_ARGS__)
#define MOCK_LOG(host, ...) (host)->log((host)->host_ctx, __VA_ARGS__)
#endif

/* The fill value that makes the enqueued work fail; tests use the same value. */
#define MOCK_FAULT_VALUE 13.0

/* MOCK_WRONG_VALUES (the accel_test_wrong_values build): claims every op and
 * writes wrong numbers (fills are off by one, other ops write 42 into their
 * output), the backend a load-time self-test must refuse. */
#ifdef MOCK_WRONG_VALUES
#define MOCK_VALUE_SKEW 1.0
#else
#define MOCK_VALUE_SKEW 0.0
#endif

typedef struct mock_ctx {
    const accel_host_services *host;
    uint32_t devices;
    char device_name[128];
} mock_ctx;

struct accel_be_buffer {
    uint32_t device;
    size_t bytes;
    unsigned char *data;
};

struct accel_be_queue {
    uint32_t device;
    int32_t sticky; /* first failure since the last synchronizing call */
    char sticky_message[256];
};

struct accel_be_event {
    uint32_t device;
    accel_be_queue *queue; /* recording queue, NULL when never recorded */
    double stamp_ms;
};

/* When ACCEL_TEST_OPENED_LOG names a file, loading this plugin appends
 * "opened" to it: the tests that a bad setting fails before any plugin is
 * opened read it. */
__attribute__((constructor)) static void mock_record_opened(void)
{
    const char *log = getenv("ACCEL_TEST_OPENED_LOG");
    FILE *f = log && *log ? fopen(log, "a") : NULL;
    if (f) {
        fputs("opened\n", f);
        fclose(f);
    }
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

#ifndef MOCK_ABI1
/* cache_probe = WORD: the host services' compiled-code cache at init: a hit
 * logs its payload, a miss stores "payload of WORD" and logs put's status;
 * a key with a NULL field and one of too many fields log their refusals
 * (test_loader.c reads the log). */
static void mock_cache_probe(const accel_host_services *host, const char *word)
{
    if (!ACCEL_HOST_HAS(host, cache_get) || !ACCEL_HOST_HAS(host, cache_put)) {
        MOCK_LOG(host, ACCEL_LOG_INFO, "mock cache: the host has no cache entries");
        return;
    }
    const char *key[] = {"mock probe", word};
    void *data = NULL;
    size_t size = 0;
    int32_t st = host->cache_get(host->host_ctx, key, 2, &data, &size);
    if (st == ACCEL_SUCCESS) {
        MOCK_LOG(host, ACCEL_LOG_INFO, "mock cache hit: %.*s", (int)size, (const char *)data);
        host->cache_free(host->host_ctx, data);
    } else {
        char payload[160];
        int n = snprintf(payload, sizeof payload, "payload of %s", word);
        st = host->cache_put(host->host_ctx, key, 2, payload, (size_t)n);
        MOCK_LOG(host, ACCEL_LOG_INFO, "mock cache miss, put %d", (int)st);
    }
    const char *bad[ACCEL_HOST_CACHE_KEY_MAX + 1] = {"mock probe", NULL};
    st = host->cache_get(host->host_ctx, bad, 2, &data, &size);
    for (unsigned i = 0; i <= ACCEL_HOST_CACHE_KEY_MAX; i++)
        bad[i] = "f";
    int32_t st_long = host->cache_put(host->host_ctx, bad, ACCEL_HOST_CACHE_KEY_MAX + 1, "x", 1);
    MOCK_LOG(host, ACCEL_LOG_INFO, "mock cache bad key %d, long key %d", (int)st, (int)st_long);
}
#endif

static int32_t mock_init(const accel_host_services *host, void **out_ctx)
{
    mock_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        MOCK_ERROR(host, "mock: out of host memory");
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    c->host = host;
    c->devices = 1;
    const char *n = host->config_get(host->host_ctx, "devices");
    if (n)
        c->devices = (uint32_t)strtoul(n, NULL, 10);
    const char *name = host->config_get(host->host_ctx, "device_name");
    snprintf(c->device_name, sizeof c->device_name, "%s", name ? name : "Mock device");
#ifndef MOCK_ABI1
    const char *probe = host->config_get(host->host_ctx, "cache_probe");
    if (probe)
        mock_cache_probe(host, probe);
#endif
    MOCK_LOG(host, ACCEL_LOG_INFO, "mock ready (ABI %u), %u device(s)",
             (unsigned)ACCEL_BACKEND_ABI_VERSION, (unsigned)c->devices);
    *out_ctx = c;
    return ACCEL_SUCCESS;
}

static void mock_shutdown(void *ctx)
{
    free(ctx);
}

static uint32_t mock_device_count(void *ctx)
{
    return ((mock_ctx *)ctx)->devices;
}

static int32_t mock_device_properties(void *ctx, uint32_t device, accel_device_properties *out)
{
    mock_ctx *c = ctx;
    out->kind = ACCEL_DEVICE_OTHER;
    snprintf(out->name, sizeof out->name, "%s", c->device_name);
    snprintf(out->backend, sizeof out->backend, "mock");
    out->index = device;
    out->compute_units = 1;
    out->memory_total = 1u << 30;
    out->memory_free = 1u << 30;
    out->dtypes = (1u << ACCEL_F32) | (1u << ACCEL_F64);
    out->host_accessible = 0;
    return ACCEL_SUCCESS;
}

static int32_t mock_buffer_alloc(void *ctx, uint32_t device, size_t bytes, accel_be_buffer **out)
{
    mock_ctx *c = ctx;
    accel_be_buffer *b = calloc(1, sizeof *b);
    if (b)
        b->data = malloc(bytes ? bytes : 1);
    if (!b || !b->data) {
        if (b)
            free(b);
        MOCK_ERROR(c->host, "mock: cannot allocate %zu bytes", bytes);
        return ACCEL_ERROR_OUT_OF_DEVICE_MEMORY;
    }
    b->device = device;
    b->bytes = bytes;
    *out = b;
    return ACCEL_SUCCESS;
}

static void mock_buffer_free(void *ctx, accel_be_buffer *buf)
{
    (void)ctx;
    if (buf) {
        free(buf->data);
        free(buf);
    }
}

static int32_t mock_queue_create(void *ctx, uint32_t device, accel_be_queue **out)
{
    (void)ctx;
    accel_be_queue *q = calloc(1, sizeof *q);
    if (!q)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    q->device = device;
    *out = q;
    return ACCEL_SUCCESS;
}

static void mock_queue_destroy(void *ctx, accel_be_queue *q)
{
    (void)ctx;
    free(q);
}

/* Return and clear the sticky error, explaining it on the calling thread. */
static int32_t take_sticky(mock_ctx *c, accel_be_queue *q)
{
    int32_t s = q->sticky;
    if (s != ACCEL_SUCCESS) {
        MOCK_ERROR(c->host, "%s", q->sticky_message);
        q->sticky = ACCEL_SUCCESS;
        q->sticky_message[0] = '\0';
    }
    return s;
}

static int32_t mock_queue_finish(void *ctx, accel_be_queue *q)
{
    return take_sticky(ctx, q);
}

static int32_t mock_queue_write(void *ctx, accel_be_queue *q, accel_be_buffer *dst, size_t off,
                                const void *src, size_t bytes)
{
    (void)ctx;
    if (q->sticky == ACCEL_SUCCESS && bytes)
        memcpy(dst->data + off, src, bytes);
    return ACCEL_SUCCESS;
}

static int32_t mock_queue_read(void *ctx, accel_be_queue *q, accel_be_buffer *src, size_t off,
                               void *dst, size_t bytes)
{
    (void)ctx;
    if (q->sticky == ACCEL_SUCCESS && bytes)
        memcpy(dst, src->data + off, bytes);
    return ACCEL_SUCCESS;
}

static int32_t mock_queue_copy(void *ctx, accel_be_queue *q, accel_be_buffer *src, size_t so,
                               accel_be_buffer *dst, size_t dof, size_t bytes)
{
    (void)ctx;
    if (q->sticky == ACCEL_SUCCESS && bytes)
        memmove(dst->data + dof, src->data + so, bytes);
    return ACCEL_SUCCESS;
}

static int32_t mock_queue_host_fn(void *ctx, accel_be_queue *q, accel_host_fn fn, void *user)
{
    (void)ctx, (void)q;
    /* Earlier work is already done: this queue runs everything at enqueue. */
    fn(user);
    return ACCEL_SUCCESS;
}

static int32_t mock_event_create(void *ctx, uint32_t device, accel_be_event **out)
{
    (void)ctx;
    accel_be_event *e = calloc(1, sizeof *e);
    if (!e)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    e->device = device;
    *out = e;
    return ACCEL_SUCCESS;
}

static void mock_event_destroy(void *ctx, accel_be_event *ev)
{
    (void)ctx;
    free(ev);
}

static int32_t mock_event_record(void *ctx, accel_be_event *ev, accel_be_queue *q)
{
    (void)ctx;
    ev->queue = q;
    ev->stamp_ms = now_ms();
    return ACCEL_SUCCESS;
}

static int32_t mock_queue_wait_event(void *ctx, accel_be_queue *q, accel_be_event *ev)
{
    (void)ctx, (void)q, (void)ev;
    return ACCEL_SUCCESS;
}

static int32_t mock_event_synchronize(void *ctx, accel_be_event *ev)
{
    return ev->queue ? take_sticky(ctx, ev->queue) : ACCEL_SUCCESS;
}

static int32_t mock_event_query(void *ctx, accel_be_event *ev, int *out_done)
{
    (void)ctx, (void)ev;
    *out_done = 1;
    return ACCEL_SUCCESS;
}

static int32_t mock_event_elapsed_ms(void *ctx, accel_be_event *a, accel_be_event *b, double *out)
{
    mock_ctx *c = ctx;
    if (!a->queue || !b->queue) {
        MOCK_ERROR(c->host, "mock: event not recorded");
        return ACCEL_ERROR_INVALID_ARGUMENT;
    }
    *out = b->stamp_ms - a->stamp_ms;
    return ACCEL_SUCCESS;
}

static int32_t mock_op_supported(void *ctx, uint32_t device, const accel_op_desc *desc)
{
    (void)ctx, (void)device;
#ifdef MOCK_WRONG_VALUES
    if (desc->dtype == ACCEL_F32 || desc->dtype == ACCEL_F64)
        return ACCEL_SUCCESS;
#endif
    if ((desc->op == ACCEL_OP_FILL || desc->op == ACCEL_OP_COPY) &&
        (desc->dtype == ACCEL_F32 || desc->dtype == ACCEL_F64))
        return ACCEL_SUCCESS;
    return ACCEL_ERROR_UNSUPPORTED;
}

static int32_t mock_op_execute(void *ctx, accel_be_queue *q, const accel_op_desc *desc)
{
    mock_ctx *c = ctx;
    if (mock_op_supported(ctx, q->device, desc) != ACCEL_SUCCESS) {
        MOCK_ERROR(c->host, "%s: mock backend does not support op %u", desc->name,
                   (unsigned)desc->op);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    if (q->sticky != ACCEL_SUCCESS)
        return ACCEL_SUCCESS; /* skipped: an earlier item failed */
    size_t esize = desc->dtype == ACCEL_F32 ? 4 : 8;
    if (desc->op == ACCEL_OP_FILL) {
        if (desc->scalars[0] == MOCK_FAULT_VALUE) {
            q->sticky = ACCEL_ERROR_DEVICE;
            snprintf(q->sticky_message, sizeof q->sticky_message,
                     "%s: mock device fault (injected by the test plugin)", desc->name);
            return ACCEL_SUCCESS;
        }
        const accel_op_operand *o = &desc->operands[0];
        for (size_t i = 0; i < o->count; ++i) {
            unsigned char *p = o->buffer->data + (o->offset + i) * esize;
            if (desc->dtype == ACCEL_F32) {
                float v = (float)(desc->scalars[0] + MOCK_VALUE_SKEW);
                memcpy(p, &v, 4);
            } else {
                double v = desc->scalars[0] + MOCK_VALUE_SKEW;
                memcpy(p, &v, 8);
            }
        }
#ifdef MOCK_WRONG_VALUES
    } else if (desc->op != ACCEL_OP_COPY) {
        const accel_op_operand *o = &desc->operands[desc->num_operands - 1];
        for (size_t i = 0; i < o->count; ++i) {
            unsigned char *p = o->buffer->data + (o->offset + i) * esize;
            float f = 42.0f;
            double d = 42.0;
            memcpy(p, desc->dtype == ACCEL_F32 ? (void *)&f : (void *)&d, esize);
        }
#endif
    } else {
        const accel_op_operand *x = &desc->operands[0], *o = &desc->operands[1];
        memmove(o->buffer->data + o->offset * esize, x->buffer->data + x->offset * esize,
                x->count * esize);
    }
    return ACCEL_SUCCESS;
}

static const accel_backend mock_table = {
    .abi_version = ACCEL_BACKEND_ABI_VERSION,
    .struct_size = (uint32_t)sizeof(accel_backend),
    .name = "mock",
    .description = "accel test backend: host memory, FILL and COPY only, fault injection",
    .init = mock_init,
    .shutdown = mock_shutdown,
    .device_count = mock_device_count,
    .device_properties = mock_device_properties,
    .buffer_alloc = mock_buffer_alloc,
    .buffer_free = mock_buffer_free,
    .buffer_host_ptr = NULL,
    .host_alloc = NULL,
    .host_free = NULL,
    .queue_create = mock_queue_create,
    .queue_destroy = mock_queue_destroy,
    .queue_finish = mock_queue_finish,
    .queue_write = mock_queue_write,
    .queue_read = mock_queue_read,
    .queue_copy = mock_queue_copy,
    .queue_host_fn = mock_queue_host_fn,
    .event_create = mock_event_create,
    .event_destroy = mock_event_destroy,
    .event_record = mock_event_record,
    .queue_wait_event = mock_queue_wait_event,
    .event_synchronize = mock_event_synchronize,
    .event_query = mock_event_query,
    .event_elapsed_ms = mock_event_elapsed_ms,
    .op_supported = mock_op_supported,
    .op_execute = mock_op_execute,
};

ACCEL_PLUGIN_EXPORT const accel_backend *accel_backend_entry(void);
ACCEL_PLUGIN_EXPORT const accel_backend *accel_backend_entry(void)
{
    return &mock_table;
}
