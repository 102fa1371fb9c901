/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* broken_plugins.c — one source for the loader's rejection cases. CMake builds
 * it once per TEST_PLUGIN_VARIANT into a separate MODULE library; each variant
 * breaks the plugin contract in exactly one way, so a loader test can check
 * that the core records that reason and still loads the other backends. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "accel/backend.h"

#define VARIANT_NOT_A_PLUGIN 1 /* no entry symbol at all */
#define VARIANT_WRONG_ABI 2    /* abi_version 999 */
#define VARIANT_INIT_FAIL 3    /* init returns UNAVAILABLE with its own message */
#define VARIANT_ZERO_DEVICES 4 /* init succeeds, device_count is 0 */
#define VARIANT_NULL_ENTRY 5   /* the entry symbol returns NULL */
#define VARIANT_SMALL_STRUCT 6 /* struct_size smaller than the ABI's struct */

#ifndef TEST_PLUGIN_VARIANT
#error "define TEST_PLUGIN_VARIANT"
#endif

#if TEST_PLUGIN_VARIANT == VARIANT_NOT_A_PLUGIN

/* A shared object with a public symbol, but not the one accel looks for. */
ACCEL_PLUGIN_EXPORT int accel_test_not_a_plugin_marker(void);
ACCEL_PLUGIN_EXPORT int accel_test_not_a_plugin_marker(void)
{
    return 42;
}

#else

/* Text the init-fail variant sets; tests/test_loader.c looks for it verbatim. */
#define INIT_FAIL_MESSAGE "broken_init: the frobnicator driver is missing (test plugin)"

static int32_t bp_init(const accel_host_services *host, void **out_ctx)
{
    *out_ctx = NULL;
#if TEST_PLUGIN_VARIANT == VARIANT_INIT_FAIL
    host->set_error(host->host_ctx, "%s", INIT_FAIL_MESSAGE);
    return ACCEL_ERROR_UNAVAILABLE;
#else
    (void)host;
    return ACCEL_SUCCESS;
#endif
}

static void bp_shutdown(void *ctx)
{
    (void)ctx;
}

static uint32_t bp_device_count(void *ctx)
{
    (void)ctx;
    return 0;
}

/* Every other entry fails: the core must never call them for a backend with
 * no devices or one it rejected. */
static int32_t bp_device_properties(void *ctx, uint32_t device, accel_device_properties *out)
{
    (void)ctx, (void)device, (void)out;
    return ACCEL_ERROR_INTERNAL;
}
static int32_t bp_buffer_alloc(void *ctx, uint32_t device, size_t bytes, accel_be_buffer **out)
{
    (void)ctx, (void)device, (void)bytes, (void)out;
    return ACCEL_ERROR_INTERNAL;
}
static void bp_buffer_free(void *ctx, accel_be_buffer *buf)
{
    (void)ctx, (void)buf;
}
static int32_t bp_queue_create(void *ctx, uint32_t device, accel_be_queue **out)
{
    (void)ctx, (void)device, (void)out;
    return ACCEL_ERROR_INTERNAL;
}
static void bp_queue_destroy(void *ctx, accel_be_queue *q)
{
    (void)ctx, (void)q;
}
static int32_t bp_queue_finish(void *ctx, accel_be_queue *q)
{
    (void)ctx, (void)q;
    return ACCEL_ERROR_INTERNAL;
}
static int32_t bp_queue_write(void *ctx, accel_be_queue *q, accel_be_buffer *dst, size_t off,
                              const void *src, size_t bytes)
{
    (void)ctx, (void)q, (void)dst, (void)off, (void)src, (void)bytes;
    return ACCEL_ERROR_INTERNAL;
}
static int32_t bp_queue_read(void *ctx, accel_be_queue *q, accel_be_buffer *src, size_t off,
                             void *dst, size_t bytes)
{
    (void)ctx, (void)q, (void)src, (void)off, (void)dst, (void)bytes;
    return ACCEL_ERROR_INTERNAL;
}
static int32_t bp_queue_copy(void *ctx, accel_be_queue *q, accel_be_buffer *src, size_t so,
                             accel_be_buffer *dst, size_t dof, size_t bytes)
{
    (void)ctx, (void)q, (void)src, (void)so, (void)dst, (void)dof, (void)bytes;
    return ACCEL_ERROR_INTERNAL;
}
static int32_t bp_queue_host_fn(void *ctx, accel_be_queue *q, accel_host_fn fn, void *user)
{
    (void)ctx, (void)q, (void)fn, (void)user;
    return ACCEL_ERROR_INTERNAL;
}
static int32_t bp_event_create(void *ctx, uint32_t device, accel_be_event **out)
{
    (void)ctx, (void)device, (void)out;
    return ACCEL_ERROR_INTERNAL;
}
static void bp_event_destroy(void *ctx, accel_be_event *ev)
{
    (void)ctx, (void)ev;
}
static int32_t bp_event_record(void *ctx, accel_be_event *ev, accel_be_queue *q)
{
    (void)ctx, (void)ev, (void)q;
    return ACCEL_ERROR_INTERNAL;
}
static int32_t bp_queue_wait_event(void *ctx, accel_be_queue *q, accel_be_event *ev)
{
    (void)ctx, (void)q, (void)ev;
    return ACCEL_ERROR_INTERNAL;
}
static int32_t bp_event_synchronize(void *ctx, accel_be_event *ev)
{
    (void)ctx, (void)ev;
    return ACCEL_ERROR_INTERNAL;
}
static int32_t bp_event_query(void *ctx, accel_be_event *ev, int *out_done)
{
    (void)ctx, (void)ev, (void)out_done;
    return ACCEL_ERROR_INTERNAL;
}
static int32_t bp_event_elapsed_ms(void *ctx, accel_be_event *a, accel_be_event *b, double *out)
{
    (void)ctx, (void)a, (void)b, (void)out;
    return ACCEL_ERROR_INTERNAL;
}
static int32_t bp_op_supported(void *ctx, uint32_t device, const accel_op_desc *desc)
{
    (void)ctx, (void)device, (void)desc;
    return ACCEL_ERROR_UNSUPPORTED;
}
static int32_t bp_op_execute(void *ctx, accel_be_queue *q, const accel_op_desc *desc)
{
    (void)ctx, (void)q, (void)desc;
    return ACCEL_ERROR_INTERNAL;
}

#if TEST_PLUGIN_VARIANT == VARIANT_WRONG_ABI
#define BP_ABI 999u
#else
#define BP_ABI ACCEL_BACKEND_ABI_VERSION
#endif

#if TEST_PLUGIN_VARIANT == VARIANT_SMALL_STRUCT
#define BP_SIZE ((uint32_t)offsetof(accel_backend, init))
#else
#define BP_SIZE ((uint32_t)sizeof(accel_backend))
#endif

static const accel_backend bp_table = {
    .abi_version = BP_ABI,
    .struct_size = BP_SIZE,
    .name = "broken",
    .description = "accel test plugin that the loader must reject",
    .init = bp_init,
    .shutdown = bp_shutdown,
    .device_count = bp_device_count,
    .device_properties = bp_device_properties,
    .buffer_alloc = bp_buffer_alloc,
    .buffer_free = bp_buffer_free,
    .queue_create = bp_queue_create,
    .queue_destroy = bp_queue_destroy,
    .queue_finish = bp_queue_finish,
    .queue_write = bp_queue_write,
    .queue_read = bp_queue_read,
    .queue_copy = bp_queue_copy,
    .queue_host_fn = bp_queue_host_fn,
    .event_create = bp_event_create,
    .event_destroy = bp_event_destroy,
    .event_record = bp_event_record,
    .queue_wait_event = bp_queue_wait_event,
    .event_synchronize = bp_event_synchronize,
    .event_query = bp_event_query,
    .event_elapsed_ms = bp_event_elapsed_ms,
    .op_supported = bp_op_supported,
    .op_execute = bp_op_execute,
};

ACCEL_PLUGIN_EXPORT const accel_backend *accel_backend_entry(void);
ACCEL_PLUGIN_EXPORT const accel_backend *accel_backend_entry(void)
{
#if TEST_PLUGIN_VARIANT == VARIANT_NULL_ENTRY
    const accel_backend *unused = &bp_table;
    (void)unused;
    return NULL;
#else
    return &bp_table;
#endif
}

#endif
