/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* tests/plugins/abi1/backend_v1.h — a frozen copy of accel/backend.h as it was
 * at plugin ABI 1, for the test plugin that proves the core still loads ABI 1
 * plugins (tests/plugins/mock_plugin.c built with MOCK_ABI1). Never edit it:
 * it stands for plugins built against the old header. Original text follows.
 *
 * accel/backend.h — the plugin ABI: what a backend shared object exports and
 * what the core hands it. Standalone (only accel/types.h, which itself includes
 * only <stddef.h> and <stdint.h>); plugins never link against the core.
 *
 * A plugin exports exactly one symbol, ACCEL_BACKEND_ENTRY_SYMBOL, a function
 * returning a pointer to a static const accel_backend. The core checks
 * abi_version and struct_size before touching anything else.
 *
 * Contract:
 * - The core validates every handle, range, dtype and shape before it calls a
 *   plugin, so a plugin may trust its arguments (offsets and counts are in
 *   range, operands live on the queue's device unless a function says otherwise).
 * - Status values are accel_status codes (accel/types.h). A plugin explains a
 *   failure with host->set_error() on the calling thread before returning it.
 * - Queues are in-order and asynchronous: queue_* and op_execute enqueue and
 *   return. An error found while running enqueued work is kept on the queue
 *   (the first one, with the op's name) and returned, then cleared, by the next
 *   synchronizing call on that queue (queue_finish, event_synchronize of a later
 *   event); work enqueued after the failure and before that call is skipped.
 * - Thread safety: the core may call any function from any thread, also
 *   concurrently on different queues; it never calls two functions on the same
 *   queue concurrently.
 */
#ifndef ACCEL_BACKEND_H
#define ACCEL_BACKEND_H

#include "abi1/types_v1.h" /* the frozen copy (was accel/types.h) */

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped on any incompatible change of accel_backend, accel_host_services or
 * accel_op_desc. Appending fields (struct_size grows) is compatible. */
#define ACCEL_BACKEND_ABI_VERSION 1u

#define ACCEL_BACKEND_ENTRY_SYMBOL "accel_backend_entry"

/* Log levels, lowest first. */
typedef enum accel_log_level {
    ACCEL_LOG_DEBUG = 0,
    ACCEL_LOG_INFO = 1,
    ACCEL_LOG_WARN = 2,
    ACCEL_LOG_ERROR = 3,
    ACCEL_LOG_OFF = 4
} accel_log_level;

/* Plugin-defined objects; the core only passes the pointers back. */
typedef struct accel_be_buffer accel_be_buffer;
typedef struct accel_be_queue accel_be_queue;
typedef struct accel_be_event accel_be_event;

/* Services the core gives a plugin at init. Valid until shutdown returns. */
typedef struct accel_host_services {
    uint32_t struct_size;
    uint32_t abi_version;
    void *host_ctx; /* pass back as the first argument of config_get */
    /* Logs through the runtime's log callback and level, prefixed with the
     * backend's name. printf-style. */
    void (*log)(int level, const char *fmt, ...);
    /* Sets the calling thread's accel_last_error() message. printf-style. */
    void (*set_error)(const char *fmt, ...);
    /* Value of KEY in this backend's own [backend.NAME] section of
     * plugins.ini, or NULL when absent. The string lives until shutdown. */
    const char *(*config_get)(void *host_ctx, const char *key);
    void *reserved[8];
} accel_host_services;

/* One operand: a plugin buffer, and a range in elements of the op's dtype. */
typedef struct accel_op_operand {
    accel_be_buffer *buffer;
    size_t offset; /* elements from the start of the buffer */
    size_t count;  /* elements */
} accel_op_operand;

/* One op, described as plain data so new ops do not change the ABI.
 * Operand order per op:
 *   FILL, RANDOM_*:              [0] out
 *   COPY, SCALE, unary ops:      [0] x, [1] out
 *   binary elementwise:          [0] a, [1] b, [2] out
 *   AXPBY:                       [0] x, [1] y (y is read and written)
 *   SUM, REDUCE_MAX/MIN:         [0] x, [1] out (count 1)
 *   DOT:                         [0] x, [1] y, [2] out (count 1)
 *   GEMM:                        [0] A, [1] B, [2] C (ranges cover every batch)
 *   TRANSPOSE:                   [0] x, [1] out (ranges cover the stored
 *                                matrices; they never overlap)
 * Elementwise counts are equal (checked by the core). Outputs of elementwise
 * ops either equal an input's range exactly or do not overlap it at all. */
typedef struct accel_op_desc {
    uint32_t struct_size;
    uint32_t op;    /* accel_op_code */
    uint32_t dtype; /* accel_dtype */
    uint32_t flags; /* ACCEL_OP_FLAG_* */
    const char *name; /* the public function's name, for messages ("accel_add") */
    uint32_t num_operands;
    uint32_t reserved0;
    accel_op_operand operands[4];
    double scalars[4]; /* FILL: value; SCALE: alpha; AXPBY: alpha, beta;
                          GEMM: alpha, beta; RANDOM_NORMAL: mean, stddev */
    uint64_t seed;       /* RANDOM_*: Philox key */
    uint64_t rng_offset; /* RANDOM_*: index of out[0] in the seed's stream */
    /* GEMM, row-major: op(A) is m x k, op(B) is k x n, C is m x n. */
    uint32_t trans_a, trans_b; /* 0: as stored, 1: transposed */
    size_t m, n, k;
    size_t lda, ldb, ldc;      /* elements between consecutive rows as stored */
    /* TRANSPOSE, row-major: x is m x n with leading dimension lda (>= n),
     * out = x^T is n x m with leading dimension ldc (>= m); m, n > 0. */
    size_t batch_count;        /* >= 1 */
    size_t stride_a, stride_b, stride_c; /* elements between batch matrices */
    uint64_t reserved[8];
} accel_op_desc;

/* GEMM may use TF32 tensor cores (changes results; only when asked). */
#define ACCEL_OP_FLAG_ALLOW_TF32 (1u << 0)

typedef void (*accel_host_fn)(void *user);

/* The plugin's table. Required entries are marked; optional ones may be NULL
 * and the comment says what the core does then. */
typedef struct accel_backend {
    uint32_t abi_version; /* ACCEL_BACKEND_ABI_VERSION */
    uint32_t struct_size; /* sizeof(accel_backend) */
    const char *name;        /* short lower-case name used in device names ("cuda") */
    const char *description; /* one line for `accel info` */

    /* Required. Probe and initialize. Returns ACCEL_ERROR_UNAVAILABLE (with a
     * message through host->set_error) when there is no driver or device;
     * the core records the reason and goes on with other backends. */
    int32_t (*init)(const accel_host_services *host, void **out_ctx);
    /* Required. Release everything; queues and buffers were released before. */
    void (*shutdown)(void *ctx);

    /* Required. Devices are numbered 0..device_count-1 and never change. */
    uint32_t (*device_count)(void *ctx);
    int32_t (*device_properties)(void *ctx, uint32_t device, accel_device_properties *out);

    /* Required. Device memory; bytes may be 0 (out is then still a valid buffer).
     * The core calls buffer_free only once no enqueued work uses the buffer
     * (accel_buffer_release first waits for every queue). */
    int32_t (*buffer_alloc)(void *ctx, uint32_t device, size_t bytes, accel_be_buffer **out);
    void (*buffer_free)(void *ctx, accel_be_buffer *buf);
    /* Optional. Host address of the buffer's first byte when the buffer is
     * host memory, else NULL. NULL entry: never host-accessible. */
    void *(*buffer_host_ptr)(void *ctx, accel_be_buffer *buf);

    /* Optional. Page-locked host memory for fast async transfers.
     * NULL entries: the core uses 64-byte-aligned plain memory. */
    int32_t (*host_alloc)(void *ctx, size_t bytes, void **out);
    void (*host_free)(void *ctx, void *ptr);

    /* Required. In-order asynchronous queues. queue_destroy waits for all
     * work first. queue_finish waits and returns the queue's sticky error. */
    int32_t (*queue_create)(void *ctx, uint32_t device, accel_be_queue **out);
    void (*queue_destroy)(void *ctx, accel_be_queue *q);
    int32_t (*queue_finish)(void *ctx, accel_be_queue *q);

    /* Required. Transfers, bytes and byte offsets. src/dst host memory must
     * stay valid until the queue has passed the transfer. */
    int32_t (*queue_write)(void *ctx, accel_be_queue *q, accel_be_buffer *dst, size_t dst_offset,
                           const void *src, size_t bytes);
    int32_t (*queue_read)(void *ctx, accel_be_queue *q, accel_be_buffer *src, size_t src_offset,
                          void *dst, size_t bytes);
    /* Required. Buffer to buffer on this backend; src and dst may be on
     * different devices of this backend (q is on one of them). */
    int32_t (*queue_copy)(void *ctx, accel_be_queue *q, accel_be_buffer *src, size_t src_offset,
                          accel_be_buffer *dst, size_t dst_offset, size_t bytes);
    /* Required. Run fn(user) on a host thread once all earlier work on q is
     * done; later work waits for it to return. fn must not call into this
     * backend; the core uses it for cross-backend waits and staging. */
    int32_t (*queue_host_fn)(void *ctx, accel_be_queue *q, accel_host_fn fn, void *user);

    /* Required. Events: a marker in a queue. event_record replaces an earlier
     * recording. elapsed: milliseconds between two recorded, completed events
     * of the same device. */
    int32_t (*event_create)(void *ctx, uint32_t device, accel_be_event **out);
    void (*event_destroy)(void *ctx, accel_be_event *ev);
    int32_t (*event_record)(void *ctx, accel_be_event *ev, accel_be_queue *q);
    /* Same-backend wait (devices may differ). */
    int32_t (*queue_wait_event)(void *ctx, accel_be_queue *q, accel_be_event *ev);
    /* Blocks until the event's work is done; returns the sticky error of the
     * recording queue when the work before the event failed. */
    int32_t (*event_synchronize)(void *ctx, accel_be_event *ev);
    /* Non-blocking: *out_done = 1 when the event's work is done, else 0.
     * An event never recorded counts as done. */
    int32_t (*event_query)(void *ctx, accel_be_event *ev, int *out_done);
    int32_t (*event_elapsed_ms)(void *ctx, accel_be_event *start, accel_be_event *end, double *out_ms);

    /* Required. ACCEL_SUCCESS when op_execute would accept desc on device,
     * ACCEL_ERROR_UNSUPPORTED otherwise (unknown op codes included). Must not
     * enqueue anything. */
    int32_t (*op_supported)(void *ctx, uint32_t device, const accel_op_desc *desc);
    /* Required. Enqueue desc on q. desc and its fields may be freed by the
     * caller as soon as this returns. */
    int32_t (*op_execute)(void *ctx, accel_be_queue *q, const accel_op_desc *desc);

    /* Optional (added in ABI 1 in what was reserved[0]: same offset, same
     * struct size, so older plugins, whose reserved slots are NULL, still
     * load). Measure the device's ceilings with the vendor's own calls, not
     * with this plugin's ops: fill the fields of *out it can (struct_size set
     * by the core; leave the rest 0). opt is complete (defaults resolved by
     * the plugin where a field is 0). Uses the device exclusively for a
     * while; the core never calls it concurrently with other work it knows
     * of. NULL: accel_device_measure_ceilings returns ACCEL_ERROR_UNSUPPORTED. */
    int32_t (*measure_ceilings)(void *ctx, uint32_t device, const accel_ceilings_options *opt,
                                accel_ceilings *out);

    void *reserved[15];
} accel_backend;

typedef const accel_backend *(*accel_backend_entry_fn)(void);

#if defined(_WIN32)
#define ACCEL_PLUGIN_EXPORT __declspec(dllexport)
#else
#define ACCEL_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
}
#endif
#endif /* ACCEL_BACKEND_H */
