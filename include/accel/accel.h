/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* accel/accel.h — the public API of accel, a plugin-based multi-backend compute
 * runtime: devices, buffers, queues, events and ops (elementwise, reductions,
 * GEMM, random numbers, copies) on whatever backends plugins.ini loads.
 *
 * Conventions
 * - Every call that can fail returns accel_status; outputs come last, named
 *   out_*. On failure accel_last_error() names the function, argument and cause.
 * - Sizes: buffer sizes and transfer offsets are in bytes; op ranges
 *   (accel_slice) are in elements of the op's dtype. Matrices are row-major.
 * - Ownership: the runtime owns devices; buffers, queues, events and pinned
 *   host memory are the caller's and are released with their release call.
 *   Releasing NULL is a no-op. Closing the runtime drains every queue and
 *   releases everything still alive; handles are invalid afterwards.
 * - Asynchrony: ops and transfers enqueue on a queue and return at once. Work on
 *   one queue runs in order; across queues order only through events. An error
 *   found while running enqueued work is kept on its queue, named after the op,
 *   and returned (then cleared) by the next synchronizing call on that queue
 *   (accel_queue_finish, a blocking transfer, accel_event_synchronize of an
 *   event recorded after it); work enqueued in between is skipped.
 * - Thread safety: every function may be called from any thread. One queue may
 *   be used from several threads; the order of ops enqueued concurrently on the
 *   same queue is then whatever order the calls took. A buffer, queue, event,
 *   kernel, graph or device communicator may be released while other threads
 *   call functions on it: a call already under way finishes (or fails) before
 *   the release frees anything (so the release may wait for it: a finish, a
 *   synchronize, a launch), and a call that starts after the release gets
 *   ACCEL_ERROR_INVALID_HANDLE. Releasing an object from a callback inside
 *   a call that uses it is refused (logged), not a deadlock.
 * - Versioned structs (struct_size first; options, descriptors and records):
 *   fields are only appended. A struct_size below the struct's first
 *   version is ACCEL_ERROR_INVALID_ARGUMENT and nothing else of the struct
 *   is read or written. Passed in, the first min(struct_size, the library's
 *   size) bytes are read and missing fields keep their _init values; filled
 *   out, at most that many bytes are written and struct_size is set to the
 *   number written, so a caller built against an older, smaller struct is
 *   never overrun. Set struct_size (or call the _init function) before
 *   every call that fills a struct.
 * - Handles are opaque values, not addresses: a released handle (or one of
 *   a closed runtime) stays ACCEL_ERROR_INVALID_HANDLE however memory is
 *   reused, and a handle value is never given out twice. The handles of
 *   one call must come from one runtime (else ACCEL_ERROR_DEVICE_MISMATCH,
 *   naming both runtimes as #N, in the order they were opened).
 * - fork: a runtime is unusable in a forked child (its queue threads and
 *   device contexts stay in the parent); every call with its handles there
 *   returns ACCEL_ERROR_UNAVAILABLE. Open a new runtime in the child.
 * - Aliasing: an elementwise output may be exactly the range of an input
 *   (in-place) or not overlap it at all; partial overlap is
 *   ACCEL_ERROR_INVALID_ARGUMENT. A reduction, GEMM or transpose output must
 *   not overlap any input. Ranges of two buffers overlap where one buffer
 *   wraps the other's memory (accel_buffer_wrap: their native addresses
 *   decide); accel's own allocations never share memory.
 */
#ifndef ACCEL_ACCEL_H
#define ACCEL_ACCEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "accel/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACCEL_VERSION_MAJOR 0
#define ACCEL_VERSION_MINOR 1
#define ACCEL_VERSION_PATCH 0
#define ACCEL_VERSION_STRING "0.1.0" /* as python/accel/_version.py: CMake checks */

/* Exported from libaccel; everything else in the library is hidden. */
#if defined(_WIN32)
#define ACCEL_API __declspec(dllimport)
#else
#define ACCEL_API __attribute__((visibility("default")))
#endif

typedef struct accel_runtime accel_runtime; /* the caller's; accel_runtime_close */
typedef struct accel_device accel_device;   /* the runtime's; never released */
typedef struct accel_buffer accel_buffer;   /* the caller's; accel_buffer_release */
typedef struct accel_queue accel_queue;     /* the caller's; accel_queue_release */
typedef struct accel_event accel_event;     /* the caller's; accel_event_release */

/* ---------------------------------------------------------------- status */

/** One sentence describing a status ("out of device memory"). Never NULL;
 *  unknown values give "unknown status". Thread-safe. */
ACCEL_API const char *accel_status_string(accel_status status);

/** The enum name of a status ("ACCEL_ERROR_OUT_OF_DEVICE_MEMORY"). Never NULL. */
ACCEL_API const char *accel_status_name(accel_status status);

/** The calling thread's message for the last failed call, naming the function,
 *  the argument and the cause ("accel_gemm: k=7 but A has 6 columns"). "" when
 *  no call on this thread has failed. The string stays valid until the next
 *  accel call on this thread. */
ACCEL_API const char *accel_last_error(void);

/** Set the calling thread's accel_last_error() message (printf-style) and
 *  return status, for libraries built on accel (libaccel_mpi) whose public
 *  functions follow accel's error convention ("accel_comm_allreduce: ...").
 *  Thread-safe. A NULL fmt sets a message that says so. */
ACCEL_API accel_status accel_error_set(accel_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/** Library version "MAJOR.MINOR.PATCH" (ACCEL_VERSION_STRING of the build). */
ACCEL_API const char *accel_version(void);

typedef void (*accel_log_fn)(int level, const char *message, void *user);

/** Route log lines (level is accel_log_level of accel/types.h: 0 debug,
 *  1 info, 2 warn, 3 error) to fn instead of stderr; fn NULL restores stderr.
 *  fn may be called from any thread, also from queue workers. */
ACCEL_API void accel_set_log_callback(accel_log_fn fn, void *user);

/** Lowest level that is logged. Default: $ACCEL_LOG (debug|info|warn|error|off),
 *  else warn. */
ACCEL_API void accel_set_log_level(int level);

/** Log a line through the runtime's log callback and level
 *  (accel_set_log_callback, $ACCEL_LOG); level as accel_log_level of
 *  accel/types.h. printf-style. Thread-safe. A NULL fmt logs a line that
 *  says so. */
ACCEL_API void accel_log_write(int level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* --------------------------------------------------------------- runtime */

/** Load the backends that a plugins.ini names, in its order.
 *  config_path: the file; NULL means $ACCEL_CONFIG, else the plugins.ini
 *  installed or built next to the library (never the current directory).
 *  $ACCEL_BACKEND=NAME puts that backend first and makes its failure an error.
 *  Succeeds when at least one device loaded (backends that fail are recorded;
 *  see accel_runtime_backend_count), unless [runtime] strict = true and a
 *  backend in order failed.
 *  Errors: ACCEL_ERROR_CONFIG (malformed file: file:line and cause in
 *  accel_last_error), ACCEL_ERROR_NOT_FOUND (no config file),
 *  ACCEL_ERROR_UNAVAILABLE (no backend loaded), ACCEL_ERROR_PLUGIN_LOAD (strict
 *  or ACCEL_BACKEND and the named backend failed), ACCEL_ERROR_OUT_OF_HOST_MEMORY. */
ACCEL_API accel_status accel_runtime_open(const char *config_path, accel_runtime **out_runtime);

/** Drain every queue, release every object still alive, shut backends down and
 *  unload them in the reverse of their load order. NULL is a no-op.
 *  Other threads may still be calling into rt: every handle of rt dies
 *  first, so calls that start from then on return
 *  ACCEL_ERROR_INVALID_HANDLE, and close waits until the calls already in
 *  flight have returned before it frees anything (as libuv refuses to close
 *  a loop with active handles). A second close, concurrent or later, is a
 *  logged no-op. */
ACCEL_API void accel_runtime_close(accel_runtime *rt);

/** The config file the runtime read (absolute path). */
ACCEL_API const char *accel_runtime_config_path(const accel_runtime *rt);

/* What happened to one backend candidate of the configuration. */
typedef struct accel_backend_info {
    uint32_t struct_size;
    const char *name;        /* section name, "cuda" for [backend.cuda] */
    const char *path;        /* resolved library path */
    const char *description; /* the plugin's own line, "" if not loaded */
    bool loaded;             /* true: its devices are available */
    accel_status status;     /* why not, when !loaded */
    const char *reason;      /* human-readable reason incl. dlerror() text, "" when loaded */
    uint32_t abi_version;    /* the plugin's ABI version, 0 when unknown */
    uint32_t device_count;
} accel_backend_info;

/** Number of backend candidates (configured order, then any others). */
ACCEL_API uint32_t accel_runtime_backend_count(const accel_runtime *rt);

/** Copy candidate `index`'s record; strings live as long as the runtime.
 *  Set out_info->struct_size = sizeof(accel_backend_info) first: at most that
 *  many bytes are written (a caller built against an older, smaller struct
 *  gets the fields it knows; one built against a newer, larger one gets its
 *  extra fields zeroed), and out_info->struct_size then says how many bytes
 *  this library filled. Errors: ACCEL_ERROR_INVALID_HANDLE,
 *  ACCEL_ERROR_OUT_OF_RANGE, ACCEL_ERROR_INVALID_ARGUMENT (out_info NULL, or
 *  its struct_size smaller than the first version of the struct). */
ACCEL_API accel_status accel_runtime_backend_info(const accel_runtime *rt, uint32_t index,
                                                  accel_backend_info *out_info);

/* --------------------------------------------------------------- devices */

/** Number of devices over all loaded backends. */
ACCEL_API uint32_t accel_device_count(const accel_runtime *rt);

/** Device `index` (0..count-1) in configured backend order.
 *  Errors: ACCEL_ERROR_INVALID_HANDLE, ACCEL_ERROR_NOT_FOUND. */
ACCEL_API accel_status accel_device_get(accel_runtime *rt, uint32_t index,
                                        accel_device **out_device);

/** Device by name as in PyTorch: "cpu", "cuda" (= "cuda:0"), "cuda:1", or
 *  "default". Errors: ACCEL_ERROR_NOT_FOUND (message lists known devices),
 *  ACCEL_ERROR_INVALID_ARGUMENT (malformed name; the message lists them too). */
ACCEL_API accel_status accel_device_get_by_name(accel_runtime *rt, const char *name,
                                                accel_device **out_device);

/** The first device of the first backend in configured order that loaded. */
ACCEL_API accel_status accel_device_default(accel_runtime *rt, accel_device **out_device);

/** Fill *out (set out->struct_size first, or use accel_device_properties_init);
 *  memory_free is read now. Errors: ACCEL_ERROR_INVALID_HANDLE,
 *  ACCEL_ERROR_INVALID_ARGUMENT (out NULL, struct_size below the first
 *  version's). For the CPU device, driver_version and runtime_version name
 *  the BLAS the backend bound itself (e.g. "openblas-pthread" and
 *  "OpenBLAS 0.3.21"; the log's info line gives the file). */
ACCEL_API accel_status accel_device_properties_get(const accel_device *dev,
                                                   accel_device_properties *out);

/** Zero *p and set its struct_size. */
ACCEL_API void accel_device_properties_init(accel_device_properties *p);

/** "cuda:0", "cpu:0": the canonical name, valid as long as the runtime. */
ACCEL_API const char *accel_device_name(const accel_device *dev);

/** Zero *opt, set struct_size and what = ACCEL_CEILING_ALL (sizes 0: the
 *  backend's defaults). */
ACCEL_API void accel_ceilings_options_init(accel_ceilings_options *opt);

/** Measure dev's ceilings with the vendor's own calls (memcpy and OpenBLAS on
 *  the CPU; cudaMemcpy, a plain kernel and cuBLAS on CUDA), never through
 *  accel's ops, so that accel's speed can be reported as a fraction of them
 *  (`accel bench`). opt may be NULL (defaults). Takes from milliseconds to
 *  seconds; other work on the device distorts the result. opt->what picks
 *  the groups (ACCEL_CEILING_*; 0 means all of them): copy, GEMM, bare
 *  launch, transfers, and the vendor's raw graph of 100 dependent adds
 *  (graph_us; CUDA only). Fields the backend cannot or does not measure stay
 *  0. Errors: ACCEL_ERROR_INVALID_HANDLE, ACCEL_ERROR_INVALID_ARGUMENT (out
 *  NULL, a struct_size too small, bits of opt->what that name no ceiling,
 *  opt->gemm_n above 2^20),
 *  ACCEL_ERROR_UNSUPPORTED (the backend has no measure_ceilings entry),
 *  ACCEL_ERROR_OUT_OF_DEVICE_MEMORY, ACCEL_ERROR_DEVICE. Thread-safe, but
 *  measure one device at a time. On CUDA the device buffers it measures
 *  with (up to 3 of each size asked: 3 x copy_bytes, 3 x 8 gemm_n^2 bytes,
 *  1 x transfer_bytes) stay in accel's buffer cache afterwards, as released
 *  buffers do: later buffers reuse them, and the cache goes back to the
 *  driver on out-of-memory and when the runtime closes. */
ACCEL_API accel_status accel_device_measure_ceilings(accel_device *dev,
                                                     const accel_ceilings_options *opt,
                                                     accel_ceilings *out);

/* --------------------------------------------------------------- buffers */

/** Allocate `bytes` of memory on dev (bytes may be 0). Contents are undefined.
 *  Errors: ACCEL_ERROR_INVALID_HANDLE, ACCEL_ERROR_OUT_OF_DEVICE_MEMORY,
 *  ACCEL_ERROR_OUT_OF_HOST_MEMORY. */
ACCEL_API accel_status accel_buffer_create(accel_device *dev, size_t bytes,
                                           accel_buffer **out_buffer);

/** Free the buffer, first waiting (as cudaFree) until work already enqueued
 *  that may use it is done: when the buffer was ever passed to an op,
 *  transfer or copy, an event is recorded at the current end of every live
 *  queue of the runtime and waited for (a short spin, then sleeps). The
 *  queues' sticky errors are left for their next synchronizing call. Cost: a
 *  buffer never enqueued is freed at once; otherwise one event per live queue
 *  and as long as the longest queue takes to reach its current end (it does
 *  not wait for work enqueued after this call starts). The handle is invalid
 *  as soon as the call starts. Another thread's call on the buffer meanwhile
 *  (an op, transfer, copy, kernel launch, collective) either had resolved the
 *  buffer before, and then this call first waits until that call has
 *  enqueued its work (or failed) and the queue wait covers it, or fails with
 *  ACCEL_ERROR_INVALID_HANDLE; the memory is never used after it is freed.
 *  Of two threads releasing one buffer at once, one frees it and the other
 *  logs a warning; a release from a callback (accel_set_log_callback) inside
 *  a call of the same thread that uses the buffer is refused with a warning.
 *  (Its cost to those calls: one fence per call that resolves buffers.)
 *  Should the events fail (out of memory) the memory is instead freed by
 *  accel_runtime_close and a warning is logged. NULL is a no-op. */
ACCEL_API void accel_buffer_release(accel_buffer *buf);

/** Size in bytes (0 for an invalid handle). */
ACCEL_API size_t accel_buffer_size(const accel_buffer *buf);

/** Device that holds the buffer (NULL for an invalid handle). */
ACCEL_API accel_device *accel_buffer_device(const accel_buffer *buf);

/** Page-locked host memory for fast asynchronous transfers to dev's backend
 *  (plain 64-byte-aligned memory where the backend has none).
 *  Errors: ACCEL_ERROR_INVALID_HANDLE, ACCEL_ERROR_OUT_OF_HOST_MEMORY. */
ACCEL_API accel_status accel_host_alloc(accel_device *dev, size_t bytes, void **out_ptr);

/** Free memory from accel_host_alloc; NULL is a no-op. */
ACCEL_API void accel_host_free(accel_device *dev, void *ptr);

/* ---------------------------------------------------------------- queues */

/** An in-order asynchronous queue (a CUDA stream; a worker thread on the CPU).
 *  Errors: ACCEL_ERROR_INVALID_HANDLE, ACCEL_ERROR_OUT_OF_HOST_MEMORY,
 *  ACCEL_ERROR_DEVICE. */
ACCEL_API accel_status accel_queue_create(accel_device *dev, accel_queue **out_queue);

/** Wait for the queue's work, then free it; NULL is a no-op. */
ACCEL_API void accel_queue_release(accel_queue *q);

/** Block until all work enqueued so far is done. Returns the queue's sticky
 *  error (then cleared) when some of it failed. */
ACCEL_API accel_status accel_queue_finish(accel_queue *q);

/** The device q runs on (owned by the runtime); NULL for a NULL or released
 *  queue. Thread-safe. */
ACCEL_API accel_device *accel_queue_device(const accel_queue *q);

/** Enqueue a copy of `bytes` from host memory src into dst at byte dst_offset.
 *  src must stay valid and unchanged until the queue has passed the write (a
 *  later finish or event). Errors: ACCEL_ERROR_INVALID_HANDLE,
 *  ACCEL_ERROR_INVALID_ARGUMENT (src NULL with bytes > 0), ACCEL_ERROR_OUT_OF_RANGE,
 *  ACCEL_ERROR_DEVICE_MISMATCH (dst not on q's device). */
ACCEL_API accel_status accel_queue_write(accel_queue *q, accel_buffer *dst, size_t dst_offset,
                                         const void *src, size_t bytes);

/** Enqueue a copy of `bytes` from src at byte src_offset into host memory dst,
 *  which must stay valid until the queue has passed the read. Errors as write. */
ACCEL_API accel_status accel_queue_read(accel_queue *q, accel_buffer *src, size_t src_offset,
                                        void *dst, size_t bytes);

/** accel_queue_write, then wait for it (and all earlier work on q). */
ACCEL_API accel_status accel_queue_write_blocking(accel_queue *q, accel_buffer *dst,
                                                  size_t dst_offset, const void *src, size_t bytes);

/** accel_queue_read, then wait for it (and all earlier work on q). */
ACCEL_API accel_status accel_queue_read_blocking(accel_queue *q, accel_buffer *src,
                                                 size_t src_offset, void *dst, size_t bytes);

/** Enqueue a copy of `bytes` between buffers, also between devices and
 *  backends (q must be on the device of src or of dst; the other device's
 *  earlier work must be ordered by an event). Ranges must not overlap.
 *  Errors: ACCEL_ERROR_INVALID_HANDLE, ACCEL_ERROR_OUT_OF_RANGE,
 *  ACCEL_ERROR_DEVICE_MISMATCH, ACCEL_ERROR_INVALID_ARGUMENT (overlap). */
ACCEL_API accel_status accel_queue_copy(accel_queue *q, accel_buffer *src, size_t src_offset,
                                        accel_buffer *dst, size_t dst_offset, size_t bytes);

/* A host function for accel_queue_host_fn: returns ACCEL_SUCCESS, or a status
 * with a NUL-terminated message of at most message_size bytes in message. */
typedef accel_status (*accel_queue_fn)(void *user, char *message, size_t message_size);

/** Enqueue fn(user, ...) on q. When this call succeeds, fn runs exactly once
 *  on a host thread of q's backend (the CPU queue's worker, or the thread
 *  waiting in accel_queue_finish of q while the worker is idle; a
 *  cudaLaunchHostFunc callback on CUDA) once all earlier work on q is done,
 *  also when an earlier op failed, and later work on q waits until it
 *  returns. A failure it returns is reported by the next accel_queue_finish
 *  of q as "name: message" (work enqueued after it still runs). fn must not
 *  call into q's backend (CUDA forbids CUDA calls in host callbacks) nor wait
 *  for q; name must stay valid until that finish (a string literal). Used by
 *  libaccel_mpi to run MPI in a queue's order. Errors:
 *  ACCEL_ERROR_INVALID_HANDLE, ACCEL_ERROR_INVALID_ARGUMENT (fn or name
 *  NULL), ACCEL_ERROR_OUT_OF_HOST_MEMORY, ACCEL_ERROR_DEVICE. Thread-safe. */
ACCEL_API accel_status accel_queue_host_fn(accel_queue *q, const char *name, accel_queue_fn fn,
                                           void *user);

/* ---------------------------------------------------------------- events */

/** An event of dev, for marking points in dev's queues.
 *  Errors: ACCEL_ERROR_INVALID_HANDLE, ACCEL_ERROR_OUT_OF_HOST_MEMORY, ACCEL_ERROR_DEVICE. */
ACCEL_API accel_status accel_event_create(accel_device *dev, accel_event **out_event);

/** Free an event; NULL is a no-op. */
ACCEL_API void accel_event_release(accel_event *ev);

/** Mark the current end of q (q must be on the event's device).
 *  The latest record wins, as with cudaEventRecord: recording ev again
 *  replaces its earlier record, and later waits, queries, synchronizes and
 *  elapsed times refer to the new one only. On the same queue that loses
 *  nothing (the new mark follows the old). On another queue while the
 *  earlier record is still pending, the first queue's work is no longer
 *  covered by waits on ev; the call still succeeds (as CUDA) but logs a
 *  warning. To wait for several queues, use one event per queue:
 *  accel_queue_wait_queues. Errors: ACCEL_ERROR_INVALID_HANDLE,
 *  ACCEL_ERROR_DEVICE_MISMATCH (q on another device or runtime). */
ACCEL_API accel_status accel_event_record(accel_event *ev, accel_queue *q);

/** Work enqueued on q after this call starts only once every queue in
 *  queues[0..n) has done the work enqueued on it before this call: one
 *  fresh event is recorded at the end of each (never one event on several
 *  queues, see accel_event_record) and q waits for all of them. The queues
 *  may be on any device and backend of q's runtime; q itself may be in the
 *  list (a no-op for it); n may be 0. The events are released at once (the
 *  pending waits keep what they need). Non-blocking; to wait on the host,
 *  call accel_queue_finish on each queue. Errors: ACCEL_ERROR_INVALID_HANDLE
 *  (q or an entry NULL, released or not a queue; nothing is enqueued),
 *  ACCEL_ERROR_DEVICE_MISMATCH (an entry of another runtime),
 *  ACCEL_ERROR_INVALID_ARGUMENT (queues NULL with n > 0),
 *  ACCEL_ERROR_OUT_OF_HOST_MEMORY, ACCEL_ERROR_DEVICE (recording failed;
 *  the queues before it are already waited for). Thread-safe. */
ACCEL_API accel_status accel_queue_wait_queues(accel_queue *q, accel_queue *const *queues,
                                               size_t n);

/** Work enqueued on q after this call starts only once ev's work is done.
 *  ev may belong to another device or backend. */
ACCEL_API accel_status accel_queue_wait_event(accel_queue *q, accel_event *ev);

/** Block until ev's work is done; returns the recording queue's sticky error. */
ACCEL_API accel_status accel_event_synchronize(accel_event *ev);

/** Non-blocking: *out_done = true once ev's work is done. */
ACCEL_API accel_status accel_event_query(accel_event *ev, bool *out_done);

/** Milliseconds of device time between two completed events recorded on the
 *  same device. Errors: ACCEL_ERROR_DEVICE_MISMATCH, ACCEL_ERROR_INVALID_ARGUMENT
 *  (not recorded or not complete). */
ACCEL_API accel_status accel_event_elapsed_ms(accel_event *start, accel_event *end, double *out_ms);

/* ------------------------------------------------------------------- ops */

/* A range of a buffer in elements of the op's dtype: elements
 * [offset, offset + count) of buffer viewed as an array of that dtype. */
typedef struct accel_slice {
    accel_buffer *buffer;
    size_t offset; /* elements */
    size_t count;  /* elements */
} accel_slice;

/** The slice {buf, offset, count}. */
static inline accel_slice accel_slice_of(accel_buffer *buf, size_t offset, size_t count)
{
    accel_slice s = {buf, offset, count};
    return s;
}

/** Size in bytes of one element of dtype (ACCEL_DTYPE_LIST's SIZE); 0 for an
 *  unknown dtype. */
ACCEL_API size_t accel_dtype_size(accel_dtype dtype);

/** dtype's short name from ACCEL_DTYPE_LIST ("f32", "i64", "bool", "c128",
 *  ...); "invalid" for an unknown dtype. */
ACCEL_API const char *accel_dtype_name(accel_dtype dtype);

/** dtype's kind (bool, signed or unsigned integer, float, complex);
 *  ACCEL_DTYPE_KIND_INVALID for an unknown dtype. */
ACCEL_API accel_dtype_kind accel_dtype_kind_of(accel_dtype dtype);

/* One row of the op table (ACCEL_OP_LIST in accel/types.h, where each column
 * is explained): what accel knows about an op. */
typedef struct accel_op_properties {
    uint32_t struct_size;
    accel_op_code op;
    const char *name; /* "add", "reduce_max" (accel_op_name) */
    accel_op_kind kind;
    uint32_t num_operands; /* of accel_op_desc; the output is the last */
    uint32_t reads_output; /* 1: the output's old contents are read */
    uint32_t dtypes;       /* bit (1u << accel_dtype) per dtype it takes */
    accel_tolerance_rule tolerance;
    double tolerance_n; /* ulps, or the constant c of a sum or GEMM bound */
    accel_cost_model cost;
    uint32_t cost_reads, cost_writes, cost_flops; /* per element (accel_cost_model) */
    const char *numpy;                            /* `accel run` names, '|'-separated; NULL: none */
    const char *expr_f32; /* C expression of one element; NULL if not elementwise */
    const char *expr_f64;
} accel_op_properties;

/** The op table's row for op: name, kind, operand count, whether the output
 *  is read, dtypes, tolerance rule, cost model and, for elementwise ops, the
 *  C expression of one element (f32 and f64), as listed in ACCEL_OP_LIST
 *  (accel/types.h). The row is static: valid for the life of the process,
 *  never freed, no runtime needed. Returns NULL for a code that is no op
 *  (ACCEL_OP_INVALID included). Thread-safe. */
ACCEL_API const accel_op_properties *accel_op_info(accel_op_code op);

/** Short lower-case name of an op code, the op table's name column ("add",
 *  "reduce_max", "gemm"); "unknown" for a code that is no op. Thread-safe. */
ACCEL_API const char *accel_op_name(accel_op_code op);

/* Every op below enqueues on q and returns. All operands must be on q's device.
 * Common errors: ACCEL_ERROR_INVALID_HANDLE (NULL/released queue or buffer),
 * ACCEL_ERROR_DTYPE_MISMATCH (unknown dtype or one the op does not take),
 * ACCEL_ERROR_OUT_OF_RANGE (offset+count past the buffer, overflow included),
 * ACCEL_ERROR_SHAPE_MISMATCH (counts differ), ACCEL_ERROR_DEVICE_MISMATCH,
 * ACCEL_ERROR_INVALID_ARGUMENT (partial aliasing), ACCEL_ERROR_UNSUPPORTED
 * (the backend lacks the op). Elementwise ops on f32/f64 are correctly rounded
 * (0.5 ulp) except exp, log, tanh, sin, cos and sigmoid, which are within the
 * backend's documented ulp bound (CPU: glibc libm, exp and log <= 2 ulp, tanh <= 3 ulp as tested;
 * glibc's f64 tanh is 2.0 ulp off at x = -0.23220181536475337; see docs/checking.md). */

/** out[i] = value (converted to dtype). */
ACCEL_API accel_status accel_fill(accel_queue *q, accel_dtype dtype, double value, accel_slice out);

/** out[i] = x[i] on one device (use accel_queue_copy between devices). */
ACCEL_API accel_status accel_copy(accel_queue *q, accel_dtype dtype, accel_slice x,
                                  accel_slice out);

/** Generic binary elementwise op: op is one of kind ACCEL_OP_KIND_BINARY
 *  (accel_op_info); any other op is ACCEL_ERROR_INVALID_ARGUMENT. */
ACCEL_API accel_status accel_binary(accel_queue *q, accel_op_code op, accel_dtype dtype,
                                    accel_slice a, accel_slice b, accel_slice out);
/** out = a + b */
ACCEL_API accel_status accel_add(accel_queue *q, accel_dtype dtype, accel_slice a, accel_slice b,
                                 accel_slice out);
/** out = a - b */
ACCEL_API accel_status accel_sub(accel_queue *q, accel_dtype dtype, accel_slice a, accel_slice b,
                                 accel_slice out);
/** out = a * b */
ACCEL_API accel_status accel_mul(accel_queue *q, accel_dtype dtype, accel_slice a, accel_slice b,
                                 accel_slice out);
/** out = a / b (IEEE: x/0 is ±Inf, 0/0 is NaN) */
ACCEL_API accel_status accel_div(accel_queue *q, accel_dtype dtype, accel_slice a, accel_slice b,
                                 accel_slice out);
/** out = maximum(a, b): IEEE 754-2019 maximum (§9.6). NaN if either is NaN
 *  (as numpy.maximum), and -0 < +0: maximum(-0, +0) = maximum(+0, -0) = +0.
 *  (NumPy is order-dependent there: np.maximum(0.0, -0.0) is -0.0.) */
ACCEL_API accel_status accel_max(accel_queue *q, accel_dtype dtype, accel_slice a, accel_slice b,
                                 accel_slice out);
/** out = minimum(a, b): IEEE 754-2019 minimum (§9.6). NaN if either is NaN
 *  (as numpy.minimum), and -0 < +0: minimum(-0, +0) = minimum(+0, -0) = -0. */
ACCEL_API accel_status accel_min(accel_queue *q, accel_dtype dtype, accel_slice a, accel_slice b,
                                 accel_slice out);

/** y = alpha*x + beta*y (BLAS axpby), computed literally for every alpha and
 *  beta: alpha = 0 still reads x, so 0*NaN = NaN and 0*Inf = NaN reach y
 *  (unlike BLAS's beta = 0 shortcut of GEMM, which does not read C); beta = 0
 *  likewise keeps a NaN or Inf of y. To overwrite y use accel_scale or
 *  accel_copy. Errors as the other x -> out ops. */
ACCEL_API accel_status accel_axpby(accel_queue *q, accel_dtype dtype, double alpha, accel_slice x,
                                   double beta, accel_slice y);
/** out = alpha*x, computed literally: alpha = 0 gives 0*x, so NaN for a NaN
 *  or infinite x and -0 for a negative x (use accel_fill for zeros). */
ACCEL_API accel_status accel_scale(accel_queue *q, accel_dtype dtype, double alpha, accel_slice x,
                                   accel_slice out);

/** Generic unary elementwise op: op is one of kind ACCEL_OP_KIND_UNARY
 *  (accel_op_info); any other op is ACCEL_ERROR_INVALID_ARGUMENT. */
ACCEL_API accel_status accel_unary(accel_queue *q, accel_op_code op, accel_dtype dtype,
                                   accel_slice x, accel_slice out);
/** out = -x (sign flip, exact; -0 for +0). x.count == out.count elements of dtype (f32, f64);
 * errors as accel_unary. */
ACCEL_API accel_status accel_neg(accel_queue *q, accel_dtype dtype, accel_slice x, accel_slice out);
/** out = |x| (exact; NaN stays NaN). x.count == out.count elements of dtype (f32, f64); errors as
 * accel_unary. */
ACCEL_API accel_status accel_abs(accel_queue *q, accel_dtype dtype, accel_slice x, accel_slice out);
/** out = sqrt(x), correctly rounded; NaN for x < 0, -0 for -0. x.count == out.count elements of
 * dtype (f32, f64); errors as accel_unary. */
ACCEL_API accel_status accel_sqrt(accel_queue *q, accel_dtype dtype, accel_slice x,
                                  accel_slice out);
/** out = e^x, within the backend's ulp bound (see above); +Inf on overflow, +0 on underflow.
 * x.count == out.count elements of dtype (f32, f64); errors as accel_unary. */
ACCEL_API accel_status accel_exp(accel_queue *q, accel_dtype dtype, accel_slice x, accel_slice out);
/** out = ln x, within the backend's ulp bound; -Inf for +-0, NaN for x < 0. x.count == out.count
 * elements of dtype (f32, f64); errors as accel_unary. */
ACCEL_API accel_status accel_log(accel_queue *q, accel_dtype dtype, accel_slice x, accel_slice out);
/** out = tanh x, within the backend's ulp bound; +-1 for large |x|. x.count == out.count elements
 * of dtype (f32, f64); errors as accel_unary. */
ACCEL_API accel_status accel_tanh(accel_queue *q, accel_dtype dtype, accel_slice x,
                                  accel_slice out);
/** out = max(x, 0) with x > 0 ? x : +0; NaN stays NaN. x.count == out.count elements of dtype (f32,
 * f64); errors as accel_unary. */
ACCEL_API accel_status accel_relu(accel_queue *q, accel_dtype dtype, accel_slice x,
                                  accel_slice out);
/** out = sin x (x in radians), within the backend's ulp bound (CPU: glibc sin,
 *  f32 rounded once from double; CUDA: sinf 2 ulp, sin 2 ulp, CUDA Math API);
 *  NaN for +-Inf and NaN, -0 for -0. x.count == out.count elements of dtype
 *  (f32, f64); errors as accel_unary. Tolerance between backends: 4 ulp. */
ACCEL_API accel_status accel_sin(accel_queue *q, accel_dtype dtype, accel_slice x, accel_slice out);
/** out = cos x (x in radians), within the backend's ulp bound (CPU: glibc cos,
 *  f32 rounded once from double; CUDA: cosf 2 ulp, cos 2 ulp); NaN for +-Inf
 *  and NaN, 1 for +-0. x.count == out.count elements of dtype (f32, f64);
 *  errors as accel_unary. Tolerance between backends: 4 ulp. */
ACCEL_API accel_status accel_cos(accel_queue *q, accel_dtype dtype, accel_slice x, accel_slice out);
/** out = 1 / (1 + e^-x), the logistic sigmoid (SciPy's expit; `accel run`
 *  takes expit and sigmoid): in (0, 1), 0 for -Inf (and below about -104 in
 *  f32, -745 in f64, where e^x underflows), 1 for +Inf and large x, NaN for
 *  NaN. Evaluated without overflow as e^x / (1 + e^x) for x < 0. CPU: f32 in
 *  double, f64 in long double where it has 64 bits, each rounded once (within
 *  about 0.5 ulp); CUDA: f32 in double, f64 within 3 ulp. x.count ==
 *  out.count elements of dtype (f32, f64); errors as accel_unary. Tolerance
 *  between backends: 4 ulp. */
ACCEL_API accel_status accel_sigmoid(accel_queue *q, accel_dtype dtype, accel_slice x,
                                     accel_slice out);

/** out.count must be 1. op is ACCEL_OP_SUM, ACCEL_OP_REDUCE_MAX or
 *  ACCEL_OP_REDUCE_MIN. The sum of 0 elements is 0; max/min of 0 elements is
 *  ACCEL_ERROR_INVALID_ARGUMENT (no identity, as NumPy). Max and min are NaN
 *  when any element is NaN and otherwise follow IEEE 754-2019 maximum/minimum
 *  (§9.6), -0 < +0: the max of [-0, +0] is +0 and the min is -0, in any order
 *  (np.max's result there depends on the order). Sums are accumulated
 *  in a fixed order (pairwise/blocked), error <= c*n*eps*sum|x| (Higham 2002,
 *  "Accuracy and Stability of Numerical Algorithms", 4.2), same result every run. */
ACCEL_API accel_status accel_reduce(accel_queue *q, accel_op_code op, accel_dtype dtype,
                                    accel_slice x, accel_slice out);
/** out[0] = sum of x (accel_reduce with ACCEL_OP_SUM; same errors and bound). */
ACCEL_API accel_status accel_sum(accel_queue *q, accel_dtype dtype, accel_slice x, accel_slice out);
/** out[0] = max of x (accel_reduce with ACCEL_OP_REDUCE_MAX; exact). */
ACCEL_API accel_status accel_reduce_max(accel_queue *q, accel_dtype dtype, accel_slice x,
                                        accel_slice out);
/** out[0] = min of x (accel_reduce with ACCEL_OP_REDUCE_MIN; exact). */
ACCEL_API accel_status accel_reduce_min(accel_queue *q, accel_dtype dtype, accel_slice x,
                                        accel_slice out);

/** out[0] = sum_i x[i]*y[i]; x and y counts equal, out.count 1. */
ACCEL_API accel_status accel_dot(accel_queue *q, accel_dtype dtype, accel_slice x, accel_slice y,
                                 accel_slice out);

typedef enum accel_transpose { ACCEL_NO_TRANS = 0, ACCEL_TRANS = 1 } accel_transpose;

/* C = alpha*op(A)*op(B) + beta*C, row-major, for batch_count matrices spaced
 * stride_* elements apart. op(A) is m x k: A is stored m x k (lda >= k) or,
 * transposed, k x m (lda >= m). op(B) is k x n: B stored k x n (ldb >= n) or
 * n x k (ldb >= k). C is m x n (ldc >= n). Offsets, leading dimensions and
 * strides are in elements. beta == 0 means C is not read (NaN in C is not
 * propagated), as BLAS. */
typedef struct accel_gemm_desc {
    uint32_t struct_size;
    accel_dtype dtype; /* f32, f64; f16/bf16 where the backend supports them */
    accel_transpose trans_a, trans_b;
    size_t m, n, k;
    double alpha, beta;
    accel_buffer *a;
    size_t a_offset, lda;
    accel_buffer *b;
    size_t b_offset, ldb;
    accel_buffer *c;
    size_t c_offset, ldc;
    size_t batch_count;                  /* 1 for a single GEMM */
    size_t stride_a, stride_b, stride_c; /* elements; ignored when batch_count == 1 */
    bool allow_tf32;                     /* f32 only: may use TF32 tensor cores (lower precision) */
} accel_gemm_desc;

/** Zero *d, set struct_size, alpha = 1, batch_count = 1. */
ACCEL_API void accel_gemm_desc_init(accel_gemm_desc *d);

/** Enqueue the GEMM d describes. d->struct_size is checked before any other
 *  field is read (see "Versioned structs" above). Besides the common errors:
 *  ACCEL_ERROR_INVALID_ARGUMENT (ld smaller than the row length, m/n/k
 *  overflow, C overlapping A or B, batch strides making C matrices overlap),
 *  ACCEL_ERROR_OUT_OF_RANGE (a matrix of some batch past its buffer: the
 *  message names the matrix, the batch and the sizes). m, n or k may be 0
 *  (k == 0: C = beta*C). */
ACCEL_API accel_status accel_gemm(accel_queue *q, const accel_gemm_desc *d);

/** C[m x n] = A[m x k] * B[k x n], all contiguous from offset 0. */
ACCEL_API accel_status accel_matmul(accel_queue *q, accel_dtype dtype, size_t m, size_t n, size_t k,
                                    accel_buffer *a, accel_buffer *b, accel_buffer *c);

/** out = x^T: the row-major rows x cols matrix x, starting at element
 *  x_offset of buffer x with ldx elements between its rows (ldx >= cols),
 *  written as the row-major cols x rows matrix out, starting at element
 *  out_offset of buffer out with ldo elements between its rows (ldo >= rows):
 *  out[j*ldo + i] = x[i*ldx + j]. Offsets and leading dimensions are in
 *  elements of dtype; elements between rows (the ld padding) are neither read
 *  nor written. A pure data move (bit patterns, NaN payloads included, are
 *  kept), so dtype may be f32, f64, f16 or bf16. rows or cols 0: nothing is
 *  read or written (the leading dimensions are still checked).
 *  Errors besides the common ones: ACCEL_ERROR_INVALID_ARGUMENT (ldx < cols,
 *  ldo < rows, or out's elements [out_offset, out_offset + (cols-1)*ldo + rows)
 *  overlapping x's [x_offset, x_offset + (rows-1)*ldx + cols) in the same
 *  buffer: there is no in-place transpose), ACCEL_ERROR_OUT_OF_RANGE (either
 *  matrix past the end of its buffer, overflow included). Named _2d because
 *  accel_transpose is GEMM's enum. */
ACCEL_API accel_status accel_transpose_2d(accel_queue *q, accel_dtype dtype, size_t rows,
                                          size_t cols, accel_buffer *x, size_t x_offset, size_t ldx,
                                          accel_buffer *out, size_t out_offset, size_t ldo);

/** out = x with every line along the middle axis of the row-major
 *  outer x n x inner block sorted: the op ACCEL_OP_SORT (accel/backend.h
 *  states its order). Stable; descending != 0 sorts descending, equal keys
 *  still in their original order. Floats order as NumPy's sort: -0 and +0
 *  are equal, NaNs go last (first when descending) in their original
 *  order. dtype: any real dtype (bool, integers, floats). x and out hold
 *  outer*n*inner elements; out may be x exactly (in place) but must not
 *  overlap it otherwise. Exact: verify mode compares bit for bit.
 *  Errors besides the common ones: ACCEL_ERROR_SHAPE_MISMATCH (the product
 *  is not x's count, or out's count differs), ACCEL_ERROR_INVALID_ARGUMENT
 *  (partial overlap), ACCEL_ERROR_DTYPE_MISMATCH (complex),
 *  ACCEL_ERROR_UNSUPPORTED (a backend without sort for this dtype, when
 *  the policy allows no fallback). accel_array_sort (accel/array.h)
 *  takes views and an axis. */
ACCEL_API accel_status accel_sort_segments(accel_queue *q, accel_dtype dtype, size_t outer,
                                           size_t n, size_t inner, int descending, accel_slice x,
                                           accel_slice out);

/** out = the indices (int64, 0 to n-1 within each line) that sort x's
 *  lines as accel_sort_segments does: the op ACCEL_OP_ARGSORT. Stable in
 *  both directions (equal keys: ascending index). out is a range of
 *  outer*n*inner int64 elements (offset and count in int64 elements) that
 *  must not overlap x's bytes. Errors as accel_sort_segments, plus
 *  ACCEL_ERROR_INVALID_ARGUMENT for any overlap of out and x. */
ACCEL_API accel_status accel_argsort_segments(accel_queue *q, accel_dtype dtype, size_t outer,
                                              size_t n, size_t inner, int descending, accel_slice x,
                                              accel_slice out);

/** out = the running sums (inclusive scan) of every line along the middle
 *  axis of the row-major outer x n x inner block x: the op ACCEL_OP_CUMSUM
 *  (accel/backend.h). Element j of a line is the sum of its elements 0..j:
 *  floats summed in float64 in an order the backend chooses (CUDA: CUB's
 *  DeviceScan, Merrill and Garland, "Single-pass Parallel Prefix Scan with
 *  Decoupled Look-back", NVIDIA NVR-2016-002) and rounded once to
 *  out_dtype; integers wrap in two's complement (the same bits on every
 *  backend). dtype: f32, f64, an integer dtype or bool; out_dtype: dtype
 *  (not for bool), or the 64-bit dtype of its kind: float64 for floats,
 *  int64 for signed integers and bool, uint64 for unsigned integers (the
 *  Array API's default dtype of cumulative_sum). x and out hold
 *  outer*n*inner elements of their dtypes and must not overlap. Verify
 *  mode compares with ACCEL_TOLERANCE_PREFIX (accel/verify.h). Errors
 *  besides the common ones: ACCEL_ERROR_SHAPE_MISMATCH (the product is not
 *  x's count, or out's count differs), ACCEL_ERROR_INVALID_ARGUMENT
 *  (overlap), ACCEL_ERROR_DTYPE_MISMATCH (another dtype or out_dtype),
 *  ACCEL_ERROR_UNSUPPORTED (a backend without this geometry, when the
 *  policy allows no fallback: CUDA takes inner == 1).
 *  accel_array_cumulative_sum (accel/array.h) takes views, an axis and
 *  include_initial. */
ACCEL_API accel_status accel_cumsum_segments(accel_queue *q, accel_dtype dtype,
                                             accel_dtype out_dtype, size_t outer, size_t n,
                                             size_t inner, accel_slice x, accel_slice out);

/** One batched LAPACK op on column-major matrices: op is ACCEL_OP_CHOLESKY,
 *  _SOLVE, _SLOGDET, _QR, _EIGH or _SVD (kind ACCEL_OP_KIND_LINALG), dtype
 *  f32, f64, c64 or c128 (complex: LAPACK's c/z routines; the block's
 *  real results as complex values of imaginary part 0); batch problems of
 *  m x n (k: B's columns for solve, Q's for qr, U's for svd; else
 *  ignored). a holds batch*m*n elements (matrix t at t*m*n, column-major),
 *  b (solve only; ignored otherwise) batch*n*k, out the op's output block
 *  (accel_linalg_layout_of in accel/backend.h gives its regions and size;
 *  backend.h's accel_op_desc states what each holds).
 *  flags: ACCEL_OP_FLAG_LINALG_VECTORS for eigh and svd (vectors too),
 *  else 0. CPU: LAPACK as OpenBLAS ships it (potrf, getrf/getrs, geqrf/
 *  orgqr, syevd, gesvd; c/z: ungqr, heevd); CUDA: cuSOLVER's (f32 and f64
 *  only: complex falls back to the CPU, or fails as unsupported). Verify
 *  mode checks the result by its backward error (accel/verify.h), not
 *  element by element.
 *  The array functions (accel_array_linalg_*, accel/array.h) take
 *  row-major views and are what most callers want.
 *  Errors (before anything is enqueued) besides the common ones:
 *  ACCEL_ERROR_INVALID_ARGUMENT (not a linalg op, a k the op does not take,
 *  unknown flags, out overlapping a or b), ACCEL_ERROR_SHAPE_MISMATCH
 *  (m != n where the op needs a square matrix, svd with m < n, counts that
 *  do not match the shape), ACCEL_ERROR_OUT_OF_RANGE (sizes overflow).
 *  Asynchronously, from the next synchronizing call: ACCEL_ERROR_LINALG
 *  (a singular A for solve, an A not positive definite for cholesky, no
 *  convergence for eigh or svd; the message names the problem and LAPACK's
 *  info) and ACCEL_ERROR_UNSUPPORTED (sizes past a backend's 32-bit
 *  LAPACK, or OpenCL, which has none, without fallback). */
ACCEL_API accel_status accel_linalg_batched(accel_queue *q, accel_op_code op, accel_dtype dtype,
                                            size_t batch, size_t m, size_t n, size_t k,
                                            uint32_t flags, accel_slice a, accel_slice b,
                                            accel_slice out);
/** The discrete Fourier transform of every line along the middle axis of
 *  the row-major outer x len x inner block x into out: the ops
 *  ACCEL_OP_FFT (complex to complex; inverse != 0 takes the + sign),
 *  ACCEL_OP_RFFT (real to the first n/2 + 1 complex outputs) and
 *  ACCEL_OP_IRFFT (n/2 + 1 complex inputs, Hermitian-extended, to n reals;
 *  the imaginary parts of x_0 and, for even n, x_{n/2} are ignored), as
 *  accel/backend.h states them: out_j = scale * sum_t x_t exp(-+2 pi i j t
 *  / n), t, j in 0..n-1. dtype: ACCEL_C64 or ACCEL_C128 (the precision;
 *  RFFT's x and IRFFT's out are f32 or f64 ranges, offsets and counts in
 *  those elements). len is n, or n/2 + 1 on the complex side of RFFT and
 *  IRFFT. x and out must not overlap; x is not changed. The CPU backend
 *  runs kissfft (its C++ template in double or float), CUDA cuFFT;
 *  results agree within ACCEL_TOLERANCE_FFT (accel/verify.h). Errors
 *  besides the common ones: ACCEL_ERROR_INVALID_ARGUMENT (op not one of
 *  the three, n, outer or inner 0, scale not finite, overlap),
 *  ACCEL_ERROR_SHAPE_MISMATCH (counts), ACCEL_ERROR_DTYPE_MISMATCH (not
 *  complex), ACCEL_ERROR_UNSUPPORTED (a backend without FFT, e.g. OpenCL,
 *  when the policy allows no fallback). accel_array_fft and its siblings
 *  (accel/array.h) take views and an axis. */
ACCEL_API accel_status accel_fft_segments(accel_queue *q, accel_op_code op, accel_dtype dtype,
                                          size_t outer, size_t n, size_t inner, int inverse,
                                          double scale, accel_slice x, accel_slice out);

/** Uniform [0,1) numbers: out[i] is element (rng_offset + i) of the
 *  Philox4x32-10 stream keyed by seed (Salmon et al., "Parallel random numbers:
 *  as easy as 1, 2, 3", SC 2011), so the same (seed, offset) gives the same
 *  numbers on every backend and filling in pieces equals filling at once.
 *  Mapping (bit-exact on every backend), with philox(c, seed) taking the
 *  counter words (lo32(c), hi32(c), 0, 0) and key (lo32(seed), hi32(seed)) and
 *  giving words w[0..3]:
 *  f32: element e is (w[e % 4] >> 8) * 2^-24 of philox(e / 4, seed).
 *  f64: element e is ((w[2j] << 32 | w[2j+1]) >> 11) * 2^-53 of
 *       philox(e / 2, seed), j = e % 2.
 *  Errors: the common ones; dtype must be f32 or f64. */
ACCEL_API accel_status accel_random_uniform(accel_queue *q, accel_dtype dtype, uint64_t seed,
                                            uint64_t rng_offset, accel_slice out);

/** Normal N(mean, stddev^2) numbers by Box-Muller on the same stream: pair
 *  p = e / 2 draws u1, u2 as the uniform mapping of stream elements 2p, 2p+1
 *  but in (0,1] (f32: ((w >> 8) + 1) * 2^-24; f64 likewise with 53 bits);
 *  r = sqrt(-2 ln u1), out[2p] = mean + stddev*r*cos(2 pi u2), out[2p+1] =
 *  mean + stddev*r*sin(2 pi u2). f32 is computed in single precision, one
 *  rounding per step: r = sqrtf(-2 * logf(u1)), theta = fl(2pi_f * u2), then
 *  fmaf(fl(stddev_f * r), cos(theta), mean_f) (one fused multiply-add) with
 *  mean_f, stddev_f the arguments rounded to f32; f64 in double, with
 *  fl(mean + fl(fl(stddev * r) * cos(theta))). Not bit-identical
 *  across backends (their logf and sin/cos differ in the last bits): any two
 *  agree within 4 ulp + 64 eps stddev (the op table's normal rule, eps the
 *  dtype's epsilon). Errors as accel_random_uniform, and
 *  ACCEL_ERROR_INVALID_ARGUMENT for stddev < 0, non-finite mean/stddev, or
 *  (f32) a mean or stddev beyond float32's range (|x| > FLT_MAX). */
ACCEL_API accel_status accel_random_normal(accel_queue *q, accel_dtype dtype, uint64_t seed,
                                           uint64_t rng_offset, double mean, double stddev,
                                           accel_slice out);

/* -------------------------------------------------- shorter forms */

/** Create a buffer of `bytes` on q's device holding a copy of the host memory
 *  src, in one call: accel_buffer_create, then accel_queue_write_blocking on q
 *  (so src may be reused as soon as this returns; earlier work on q is waited
 *  for too). The buffer is the caller's (accel_buffer_release). bytes may be 0
 *  (src may then be NULL). Errors: ACCEL_ERROR_INVALID_HANDLE (q),
 *  ACCEL_ERROR_INVALID_ARGUMENT (out_buffer NULL, src NULL with bytes > 0),
 *  ACCEL_ERROR_OUT_OF_DEVICE_MEMORY, ACCEL_ERROR_OUT_OF_HOST_MEMORY, and q's
 *  sticky error from earlier work (the buffer is then released again).
 *  Thread-safe. */
ACCEL_API accel_status accel_buffer_create_from_host(accel_queue *q, const void *src, size_t bytes,
                                                     accel_buffer **out_buffer);

/* A row-major matrix inside a buffer: rows x cols elements of the op's dtype
 * starting at element `offset`, with `ld` elements (the leading dimension,
 * ld >= cols) between the starts of consecutive rows. A sub-matrix of a
 * larger row-major matrix M (leading dimension ldm) starting at row r0,
 * column c0 is {buf, r0*ldm + c0, rows, cols, ldm}. */
typedef struct accel_matrix {
    accel_buffer *buffer;
    size_t offset; /* elements */
    size_t rows, cols;
    size_t ld; /* elements between rows */
} accel_matrix;

/** The matrix view {buf, offset, rows, cols, ld}. */
static inline accel_matrix accel_matrix_of(accel_buffer *buf, size_t offset, size_t rows,
                                           size_t cols, size_t ld)
{
    accel_matrix m = {buf, offset, rows, cols, ld};
    return m;
}

/** C = A * B on matrix views (sub-matrices, padded rows): A is m x k, B k x n,
 *  C m x n, with m, n and k read from the views. accel_gemm with alpha 1,
 *  beta 0 (C is not read) and no transposes; elements of C's buffer between
 *  its rows are not touched. Errors: ACCEL_ERROR_SHAPE_MISMATCH (a.cols !=
 *  b.rows, or C is not a.rows x b.cols), and accel_gemm's (ld < cols is
 *  ACCEL_ERROR_INVALID_ARGUMENT, a view past its buffer
 *  ACCEL_ERROR_OUT_OF_RANGE, C overlapping A or B ACCEL_ERROR_INVALID_ARGUMENT).
 *  Error bound as accel_gemm. */
ACCEL_API accel_status accel_matmul_sub(accel_queue *q, accel_dtype dtype, accel_matrix a,
                                        accel_matrix b, accel_matrix c);

/** 2-D strided transfer from host to buffer, as cudaMemcpy2D: `height` rows of
 *  `width` bytes; row r is read from src + r*src_pitch and written at byte
 *  dst_offset + r*dst_pitch of dst. Pitches are in bytes and must be >= width
 *  when height > 1; the rectangle [dst_offset, dst_offset + (height-1)*dst_pitch
 *  + width) must lie inside dst. Enqueues and returns, as accel_queue_write
 *  (src must stay valid until q has passed it). The rectangle is checked as a
 *  whole before anything is enqueued; then it is one transfer when both sides
 *  are contiguous (pitch == width) and otherwise one transfer per row (a
 *  first version: each row pays one transfer's fixed cost). width or height 0:
 *  nothing is done. Errors: ACCEL_ERROR_INVALID_HANDLE, ACCEL_ERROR_INVALID_ARGUMENT
 *  (pitch < width, src NULL), ACCEL_ERROR_OUT_OF_RANGE (past dst, overflow
 *  included), ACCEL_ERROR_DEVICE_MISMATCH (dst not on q's device). */
ACCEL_API accel_status accel_queue_write_2d(accel_queue *q, accel_buffer *dst, size_t dst_offset,
                                            size_t dst_pitch, const void *src, size_t src_pitch,
                                            size_t width, size_t height);

/** 2-D strided transfer from buffer to host: row r is read at byte
 *  src_offset + r*src_pitch of src and written to dst + r*dst_pitch. Printing
 *  C[:10, :10] of a row-major n x n f32 matrix is
 *  accel_queue_read_2d(q, c, 0, n*4, host, 10*4, 10*4, 10) and a finish.
 *  Otherwise as accel_queue_write_2d (the rectangle must lie inside src). */
ACCEL_API accel_status accel_queue_read_2d(accel_queue *q, accel_buffer *src, size_t src_offset,
                                           size_t src_pitch, void *dst, size_t dst_pitch,
                                           size_t width, size_t height);

/** 2-D strided copy between buffers (also across devices, as
 *  accel_queue_copy): row r goes from byte src_offset + r*src_pitch of src to
 *  byte dst_offset + r*dst_pitch of dst. In one buffer the two rectangles'
 *  spans must not overlap (ACCEL_ERROR_INVALID_ARGUMENT). Otherwise as
 *  accel_queue_write_2d. */
ACCEL_API accel_status accel_queue_copy_2d(accel_queue *q, accel_buffer *src, size_t src_offset,
                                           size_t src_pitch, accel_buffer *dst, size_t dst_offset,
                                           size_t dst_pitch, size_t width, size_t height);

/* ------------------------------------------------------ random streams */

typedef struct accel_rng accel_rng; /* the caller's; accel_rng_release */

/** A random stream keyed by seed, at position 0: each fill through it
 *  (accel_rng_uniform, accel_rng_normal) takes the next unused part of the
 *  Philox4x32-10 stream of accel_random_uniform, so successive fills differ
 *  and the same seed gives the same sequence of fills on every backend. Not
 *  tied to a runtime or device. Errors: ACCEL_ERROR_INVALID_ARGUMENT (out_rng
 *  NULL), ACCEL_ERROR_OUT_OF_HOST_MEMORY. */
ACCEL_API accel_status accel_rng_create(uint64_t seed, accel_rng **out_rng);

/** Free the stream; NULL is a no-op. Fills already enqueued are unaffected. */
ACCEL_API void accel_rng_release(accel_rng *rng);

/** The stream's seed and position (Philox blocks of 128 bits used so far: a
 *  fill of n f32 elements uses ceil(n/4) blocks, of n f64 ceil(n/2); either
 *  out pointer may be NULL). Errors: ACCEL_ERROR_INVALID_HANDLE. Thread-safe. */
ACCEL_API accel_status accel_rng_get(const accel_rng *rng, uint64_t *out_seed,
                                     uint64_t *out_position);

/** Set the position (see accel_rng_get): seeking back to a saved position
 *  repeats the fills made from there. Errors: ACCEL_ERROR_INVALID_HANDLE. */
ACCEL_API accel_status accel_rng_seek(accel_rng *rng, uint64_t position);

/** Uniform [0,1) numbers from the stream's next blocks: exactly
 *  accel_random_uniform(q, dtype, seed, position*k, out) with k = 4 for f32
 *  and 2 for f64, after which the position advances by ceil(out.count/k)
 *  (only when the fill was enqueued). Blocks are never shared between fills,
 *  so fills of different dtypes do not reuse each other's bits. Errors:
 *  ACCEL_ERROR_INVALID_HANDLE (rng), ACCEL_ERROR_DTYPE_MISMATCH (not f32/f64),
 *  ACCEL_ERROR_OUT_OF_RANGE (the stream's 2^64 elements run out), and those of
 *  accel_random_uniform. Thread-safe: concurrent fills through one stream get
 *  disjoint blocks in the order they took the stream's lock. */
ACCEL_API accel_status accel_rng_uniform(accel_queue *q, accel_rng *rng, accel_dtype dtype,
                                         accel_slice out);

/** Normal N(mean, stddev^2) numbers from the stream's next blocks:
 *  accel_random_normal at element offset position*k, then the position
 *  advances as in accel_rng_uniform. Errors as accel_rng_uniform, and
 *  accel_random_normal's (stddev < 0, non-finite mean or stddev). */
ACCEL_API accel_status accel_rng_normal(accel_queue *q, accel_rng *rng, accel_dtype dtype,
                                        double mean, double stddev, accel_slice out);

/* ------------------------------------------------- zero-copy exchange */

/** Called once with `user` when a wrapped buffer is freed (the owner frees
 *  its memory then). May run on any thread: the releasing one, or the one
 *  closing the runtime. */
typedef void (*accel_release_fn)(void *user);

/** The host address of the buffer's first byte when its device keeps buffers
 *  in host memory (the CPU backend: accel_device_properties.host_accessible),
 *  else NULL (also for an invalid handle). The host may read or write there
 *  only while no queued work uses the buffer (finish the queues first), or
 *  inside a host function (accel_queue_host_fn) of the queue that orders
 *  that work. Since the address escapes the runtime, accel_buffer_release of
 *  buf then waits for the queues as for a buffer passed to an op.
 *  Thread-safe. */
ACCEL_API void *accel_buffer_host_pointer(const accel_buffer *buf);

/** The buffer's native address, for handing it to another library without a
 *  copy: the CUDA device pointer on CUDA, the host address on the CPU. The
 *  buffer keeps owning the memory. Errors: ACCEL_ERROR_INVALID_HANDLE,
 *  ACCEL_ERROR_INVALID_ARGUMENT (out_ptr NULL), ACCEL_ERROR_UNSUPPORTED (the
 *  backend exposes none). Thread-safe. */
ACCEL_API accel_status accel_buffer_native_pointer(const accel_buffer *buf, void **out_ptr);

/** The queue's native stream (the cudaStream_t of a CUDA queue), for
 *  ordering another library's work with accel's; *out_stream is NULL when
 *  the backend has none (the CPU). The queue keeps owning it. Errors:
 *  ACCEL_ERROR_INVALID_HANDLE, ACCEL_ERROR_INVALID_ARGUMENT (out NULL). */
ACCEL_API accel_status accel_queue_native_stream(const accel_queue *q, void **out_stream);

/** A buffer of dev over `bytes` of memory that someone else allocated, at
 *  native_ptr (CUDA: device memory of dev, e.g. from CuPy or PyTorch; the
 *  CPU: host memory aligned for the dtypes used), without a copy. The memory
 *  stays the owner's: accel never frees it; once the buffer is released (or
 *  the runtime closes), after queued work on it is done, release(user) is
 *  called (release may be NULL). The caller keeps the memory valid until
 *  then. Errors: ACCEL_ERROR_INVALID_HANDLE (dev),
 *  ACCEL_ERROR_INVALID_ARGUMENT (out_buffer NULL, native_ptr NULL with bytes
 *  > 0), ACCEL_ERROR_UNSUPPORTED (the backend cannot wrap memory),
 *  ACCEL_ERROR_OUT_OF_HOST_MEMORY. On failure release is not called. */
ACCEL_API accel_status accel_buffer_wrap(accel_device *dev, void *native_ptr, size_t bytes,
                                         accel_release_fn release, void *user,
                                         accel_buffer **out_buffer);

#ifdef __cplusplus
}
#endif
/* Streaming host data through a device in chunks; registered host memory. */
#include "accel/batch.h"
/* Recording a queue once and replaying it: graphs. */
#include "accel/graph.h"

#endif /* ACCEL_ACCEL_H */
