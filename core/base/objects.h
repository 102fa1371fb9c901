/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/base/objects.h — the objects behind the public handles (device, buffer, queue, event,
 * runtime) and their lifetimes (device.c, buffer.c, queue.c, event.c, event_life.c,
 * host_register.c); whether two buffers share memory (alias.c). Not installed. */
#ifndef ACCEL_CORE_BASE_OBJECTS_H
#define ACCEL_CORE_BASE_OBJECTS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "accel/accel.h"
#include "accel/backend.h"

#include "base/handle.h"
#include "base/plugin.h"

typedef struct accel__xop accel__xop; /* host work on a queue (xop.c) */

struct accel_device {
    accel_device *handle; /* the value callers hold (handle.c) */
    accel_runtime *rt;
    accel__backend *be;
    uint32_t index;                /* among its backend's devices */
    uint32_t global_index;         /* among the runtime's devices */
    char name[64];                 /* "cuda:1" */
    accel_device_properties props; /* as read at load */
    bool host_accessible;
    /* A private queue for cross-backend staging done from host functions of
     * another backend's queue; created on first use. */
    pthread_mutex_t staging_lock;
    accel_be_queue *staging;
    /* Queues, events and pinned room of the last batch run (batch.c),
     * taken by one run at a time (atomic exchange); NULL when none. */
    struct accel__batch_keep *batch_keep;
    /* The kernel dialect the backend takes here (accel__kernel_language,
     * kernels/kernel.c): 0 until first asked, then ACCEL_PROGRAM_*. */
    _Atomic uint32_t kernel_language;
};

struct accel_buffer {
    accel_buffer *handle;
    accel_device *dev;
    accel_be_buffer *be;
    size_t bytes;
    void *host_ptr; /* buffer_host_ptr, or NULL */
    /* The native address of the first byte (buffer_native_ptr; 0 where the
     * backend gives none) and whether the memory is someone else's
     * (accel_buffer_wrap): such a buffer may share memory with another
     * buffer of its device (accel__buffers_alias). */
    uintptr_t base;
    bool wrapped;
    /* Wrapped memory (accel_buffer_wrap): called once the buffer is freed. */
    accel_release_fn release_fn;
    void *release_user;
    /* Set (never cleared) when the buffer is passed to an op, transfer or
     * copy: accel_buffer_release waits for the queues only then. */
    atomic_bool enqueued;
    /* A temporary of a graph (core/capture.h): the graph releases it. */
    atomic_bool graph_temp;
    accel_buffer *prev, *next;
};

/* Register a plugin buffer `be` of dev (an object, not a handle) as a new
 * live accel_buffer (handle, the runtime's list) with the owner's release
 * callback (NULL for accel's own memory); wrapped: the memory was
 * allocated elsewhere (accel_buffer_wrap). *out_buffer gets the public
 * handle. On failure be is freed and release is not called. fn names the
 * public call. */
accel_status accel__buffer_adopt(accel_device *dev, accel_be_buffer *be, size_t bytes,
                                 accel_release_fn release, void *user, bool wrapped, const char *fn,
                                 accel_buffer **out_buffer);

/* What decides whether two buffers share memory, as values: the buffer
 * (for identity only), its device, native address and whether it wraps
 * memory allocated elsewhere; and its size in bytes. */
typedef struct accel__memory {
    const void *id;
    const void *dev;
    uintptr_t base;
    bool wrapped;
    size_t bytes;
} accel__memory;

/* The memory of a buffer given by its public handle, read inside an entered
 * call (so a release in another thread cannot free it meanwhile); false,
 * *out zeroed, for a handle that is not a live buffer's. */
bool accel__memory_of_handle(const accel_buffer *handle, accel__memory *out);

/* Whether memories a and b may hold some of the same bytes, and then
 * *shift, the byte distance from a's first byte to b's: byte q of b is
 * byte q + *shift of a. One buffer: true, 0. Two buffers of one device of
 * which one wraps memory allocated elsewhere (accel_buffer_wrap: from_dlpack
 * of an accel array's own memory, two wraps of one tensor) share memory
 * where their native addresses say so; accel's own allocations never share
 * (an OpenCL buffer's native pointer is a cl_mem, not an address). Every
 * overlap check of an output against an input goes through this. */
bool accel__memory_alias(const accel__memory *a, const accel__memory *b, int64_t *shift);

/* accel__memory_alias of two buffer objects (NULL: false), for checks
 * inside a call that has entered them. */
bool accel__buffers_alias(const accel_buffer *a, const accel_buffer *b, int64_t *shift);

/* Whether bytes [alo, ahi) of memory a and [blo, bhi) of memory b (both
 * ranges non-empty) are some of the same memory; *same (NULL: not asked)
 * whether they then start at one address. */
bool accel__memory_meet(const accel__memory *a, uint64_t alo, uint64_t ahi, const accel__memory *b,
                        uint64_t blo, uint64_t bhi, bool *same);

/* accel__memory_meet of buffers a and b (objects, as accel__buffers_alias
 * takes them). */
bool accel__bytes_meet(const accel_buffer *a, uint64_t alo, uint64_t ahi, const accel_buffer *b,
                       uint64_t blo, uint64_t bhi, bool *same);

/* Mark buf as used by queued work (before the work is enqueued). Const
 * because the validation paths hold const pointers; only the flag changes. */
static inline void accel__buffer_mark_enqueued(const accel_buffer *buf)
{
    accel_buffer *b = (accel_buffer *)buf;
    if (!atomic_load_explicit(&b->enqueued, memory_order_relaxed))
        atomic_store_explicit(&b->enqueued, true, memory_order_relaxed);
}

struct accel_queue {
    accel_queue *handle;
    accel_device *dev;
    accel_be_queue *be;
    /* Serializes plugin calls on this queue (the ABI promises plugins that
     * the core never calls two functions on one queue concurrently). */
    pthread_mutex_t lock;
    accel__xop *xops; /* pending cross-backend work, owned by the queue */
    /* Non-NULL while q records a graph (core/capture.h); read relaxed on
     * every op, changed under lock. */
    _Atomic(struct accel__capture *) capture;
    /* The array functions' scratch on this queue (arrays/scratch.c): a
     * buffer kept from call to call (stream order makes its reuse safe),
     * held under scratch_lock from a function's first launch that uses it
     * to its last; released with the queue. scratch is the buffer's
     * handle. */
    pthread_mutex_t scratch_lock;
    accel_buffer *scratch;
    size_t scratch_bytes;
    accel_queue *prev, *next;
};

struct accel_event {
    accel_event *handle;
    accel_device *dev;
    accel_be_event *be;
    /* Handle of the queue of the latest record (NULL: never recorded); a
     * value only compared, never resolved (the queue may be gone). */
    _Atomic(accel_queue *) recorded_on;
    atomic_int refs;      /* the caller's, plus one per pending cross-backend wait */
    atomic_bool captured; /* recorded in a capture still open (core/capture.h) */
    accel_event *prev, *next;
};

typedef struct accel__host_block {
    void *ptr;
    accel_device *dev;
    bool from_backend; /* host_alloc of the backend, else aligned_alloc */
    struct accel__host_block *prev, *next;
} accel__host_block;

/* What a capturing queue does instead of running work. The graphs area
 * (graphs/capture.c) fills this table and accel_runtime_open installs it as
 * rt->capture, so base/ and ops/ call the capture without depending on
 * graphs/. Each entry's contract is its function's in graphs/capture.h. */
typedef struct accel__capture_hooks {
    bool (*op)(accel_queue *q, const accel_op_desc *d, unsigned flags, accel_status *out_st);
    bool (*transfer)(accel_queue *q, bool to_device, accel_buffer *buf, size_t offset,
                     const void *src, void *dst, size_t bytes, accel_status *out_st);
    bool (*copy)(accel_queue *q, accel_buffer *src, size_t src_offset, accel_buffer *dst,
                 size_t dst_offset, size_t bytes, accel_status *out_st);
    bool (*event_record)(accel_queue *q, accel_event *ev, accel_status *out_st);
    bool (*wait_event)(accel_queue *q, accel_event *ev, const char *fn, accel_status *out_st);
    accel_status (*refuse_sync)(const accel_queue *q, const char *fn);
    accel_status (*refuse_event_sync)(const accel_event *ev, const char *fn);
    void (*buffer_created)(accel_device *dev, accel_buffer *buf);
    bool (*adopt_buffer)(accel_queue *q, accel_buffer *buf);
    void (*queue_destroyed)(accel_queue *q);
} accel__capture_hooks;

struct accel_runtime {
    accel_runtime *handle;
    accel__gate *gate; /* calls in flight, closing, fork generation */
    accel__config *cfg;
    accel__backend *backends; /* candidates, in load order */
    uint32_t backend_count;
    accel_device *devices;
    uint32_t device_count;
    accel_device *default_device;
    pthread_mutex_t lock; /* guards the object lists */
    /* Queue lifetimes: accel_queue_release holds it shared while it unlinks
     * and destroys a queue; accel__queues_mark_and_wait holds it exclusively
     * while it records an event on every live queue (never while waiting).
     * Order: queue_life, then a queue's lock, then lock. */
    pthread_rwlock_t queue_life;
    accel_buffer *buffers;
    accel_queue *queues;
    accel_event *events;
    accel__host_block *host_blocks;
    struct accel__host_reg *host_regs; /* accel_host_register ranges (host_register.c) */
    struct accel__trace *trace;        /* ACCEL_TRACE state, NULL when not tracing (trace.c) */
    /* Verify mode, fallback and the placement report (verify.c, fallback.c,
     * report.c). checked: ops take the checked branch of accel__submit
     * (verify or per-op counting on); read once per op with a relaxed load. */
    struct accel__policy *policy;
    atomic_bool checked;
    /* User kernels: compiled-code cache and programs kept until close
     * (kernel_cache.c). */
    struct accel__kcache *kcache;
    struct accel_kernel *kernels;        /* live user kernels (kernel.c), under lock */
    struct accel_graph *graphs;          /* live graphs (graph.c), under lock */
    struct accel_device_comm *comms;     /* live device communicators (collective.c), under lock */
    struct accel__acache *arrays;        /* generated array kernels (arrays/cache.c) */
    const accel__capture_hooks *capture; /* set at open, never NULL after */
    /* Each op code's verify and fallback hooks (check/hooks.h), set at open:
     * accel__submit looks its table up once, with no branch on the kind. */
    const struct accel__op_hooks *op_hooks[ACCEL_OP_CODE_LIMIT];
};

/* True while q records a graph (one relaxed load). */
static inline bool accel__capturing(const accel_queue *q)
{
    return atomic_load_explicit(&((accel_queue *)q)->capture, memory_order_relaxed) != NULL;
}

/* Doubly linked list helpers for the runtime's object lists. */
#define ACCEL__LIST_PUSH(head, obj)                                                                \
    do {                                                                                           \
        (obj)->prev = NULL;                                                                        \
        (obj)->next = (head);                                                                      \
        if (head)                                                                                  \
            (head)->prev = (obj);                                                                  \
        (head) = (obj);                                                                            \
    } while (0)
#define ACCEL__LIST_REMOVE(head, obj)                                                              \
    do {                                                                                           \
        if ((obj)->prev)                                                                           \
            (obj)->prev->next = (obj)->next;                                                       \
        else                                                                                       \
            (head) = (obj)->next;                                                                  \
        if ((obj)->next)                                                                           \
            (obj)->next->prev = (obj)->prev;                                                       \
        (obj)->prev = (obj)->next = NULL;                                                          \
    } while (0)
/* ACCEL__LIST_PUSH or ACCEL__LIST_REMOVE (op PUSH or REMOVE) of the runtime
 * rt's list rt->list, under rt->lock. */
#define ACCEL__RT_LIST(op, rt, list, obj)                                                          \
    do {                                                                                           \
        pthread_mutex_lock(&(rt)->lock);                                                           \
        ACCEL__LIST_##op((rt)->list, obj);                                                         \
        pthread_mutex_unlock(&(rt)->lock);                                                         \
    } while (0)

/* device.c */
accel_status accel__devices_build(accel_runtime *rt);
/* accel_device_get_by_name on the runtime object; *out_device is the
 * device object (messages name accel_device_get_by_name). */
accel_status accel__device_find(accel_runtime *rt, const char *name, accel_device **out_device);
void accel__devices_free(accel_runtime *rt);

/* host_register.c: one registered host range; undo every one left at close
 * (before the backends shut down). */
typedef struct accel__host_reg accel__host_reg;
void accel__host_regs_free(accel_runtime *rt);
/* True when [ptr, ptr + bytes) lies in one accel_host_register range, or
 * ptr starts an accel_host_alloc block: memory a transfer reads at the
 * pinned rate (host_register.c). Takes rt->lock. */
bool accel__host_range_locked(accel_runtime *rt, const void *ptr, size_t bytes);

/* buffer.c, queue.c, event.c: teardown at accel_runtime_close. */
void accel__buffer_destroy(accel_buffer *buf);
/* accel_buffer_release(buf) (a handle) for a buffer whose queued uses are
 * all known to be done (the caller finished every queue it was used on):
 * without waiting for the runtime's other queues, which costs a marker on
 * each (tens of microseconds per buffer with a few dozen queues alive). */
void accel__buffer_release_drained(accel_buffer *buf);
void accel__host_block_destroy(accel__host_block *hb);
void accel__queue_destroy(accel_queue *q);
/* queue.c: create the device's staging queue if it has none yet. Users
 * lock dev->staging_lock around their calls on it. */
accel_status accel__staging_ensure(accel_device *dev, const char *fn);
/* The enqueue of a transfer that is checked already (queue.c): the eager
 * calls after their validation, and a graph's replay of its recorded
 * nodes (checked when recorded or rebound). A write (to_device) of
 * src_host into buf at byte offset, or a read of buf into dst_host; bytes
 * > 0. Takes q->lock; a backend failure: its status, "fn: ..." relayed. */
accel_status accel__queue_transfer(const char *fn, accel_queue *q, bool to_device,
                                   accel_buffer *buf, size_t offset, const void *src_host,
                                   void *dst_host, size_t bytes);
/* The same for a copy of bytes (> 0) from src to dst (byte offsets), q on
 * the device of one of them; across backends through the staging path. */
accel_status accel__queue_copy_enqueue(const char *fn, accel_queue *q, accel_buffer *src,
                                       size_t src_offset, accel_buffer *dst, size_t dst_offset,
                                       size_t bytes);
/* event_life.c: an event's last reference frees it. */
void accel__event_unref(accel_event *ev);
void accel__event_destroy(accel_event *ev);

/* Record a backend event at the current end of every live queue of rt and
 * wait until all of them are done, without taking any queue's sticky error
 * (accel_buffer_release; queue.c). Locks are not held while waiting. Errors
 * (the events could not be created or recorded): the status with a message
 * naming fn; queues that were marked are still waited for. */
accel_status accel__queues_mark_and_wait(accel_runtime *rt, const char *fn);

#endif /* ACCEL_CORE_BASE_OBJECTS_H */
