/* core/internal.h — declarations shared by the files of the core runtime:
 * the objects behind the public handles, the handle registry, the last-error
 * and log helpers, the configuration and the loader. Not installed. */
#ifndef ACCEL_CORE_INTERNAL_H
#define ACCEL_CORE_INTERNAL_H

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "accel/accel.h"
#include "accel/backend.h"

#if defined(__GNUC__)
#define ACCEL__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define ACCEL__PRINTF(f, a)
#endif

/* ------------------------------------------------------------ status.c */

/* Set the calling thread's accel_last_error() message. Messages begin with
 * the public function's name ("accel_add: ..."). */
void accel__set_error(const char *fmt, ...) ACCEL__PRINTF(1, 2);
void accel__set_errorv(const char *fmt, va_list ap) ACCEL__PRINTF(1, 0);
/* accel__set_error, then return status: `return accel__fail(ST, "...")`. */
accel_status accel__fail(accel_status status, const char *fmt, ...) ACCEL__PRINTF(2, 3);
void accel__clear_error(void);
/* Like accel__fail, then append ": " and the message a plugin has just set
 * (or the status's sentence when it set none). A plugin message that already
 * begins with the same "name:" as fmt's result is not repeated. */
accel_status accel__fail_relay(accel_status status, const char *fmt, ...) ACCEL__PRINTF(2, 3);

int accel__log_level(void);
void accel__log(int level, const char *fmt, ...) ACCEL__PRINTF(2, 3);
/* prefix (may be NULL) goes before the message, "cpu: ...". */
void accel__logv(int level, const char *prefix, const char *fmt, va_list ap) ACCEL__PRINTF(3, 0);

/* ------------------------------------------------------------ optable.c */

#include "optable.h"

/* tolerance.c: the tolerance model's view of a dispatched descriptor
 * (accel_tolerance_compare of accel/verify.h takes public types). */
struct accel_tolerance_op;
accel_status accel__tolerance_op_from_desc(const accel_op_desc *d, struct accel_tolerance_op *t);

/* ------------------------------------------------------------ handle.c */

/* Type tags of the handle registry. 0 means "not a live handle". */
typedef enum accel__type {
    ACCEL__T_NONE = 0,
    ACCEL__T_RUNTIME = 1,
    ACCEL__T_DEVICE = 2,
    ACCEL__T_BUFFER = 3,
    ACCEL__T_QUEUE = 4,
    ACCEL__T_EVENT = 5,
    ACCEL__T_HOST_MEMORY = 6
} accel__type;

accel_status accel__handle_add(const void *p, accel__type type, void *value);
void accel__handle_remove(const void *p);
/* The tag of p (ACCEL__T_NONE when p is not registered); *out_value gets the
 * value registered with it when out_value is not NULL. Never dereferences p. */
accel__type accel__handle_type(const void *p, void **out_value);
/* The tags of n pointers under one lock (the per-op path). */
void accel__handle_types(size_t n, const void *const *ptrs, accel__type *out_types);
/* ACCEL_SUCCESS when p is a live handle of `type`, else
 * ACCEL_ERROR_INVALID_HANDLE with "fn: arg is NULL / is not a live buffer ...". */
accel_status accel__handle_check(const void *p, accel__type type, const char *fn, const char *arg);
const char *accel__type_name(accel__type type);

/* ------------------------------------------------------------ config.c */

typedef struct accel__kv {
    char *key;
    char *value;
    int line;
} accel__kv;

typedef struct accel__kvlist {
    accel__kv *items;
    size_t count, cap;
} accel__kvlist;

/* One [backend.NAME] section. */
typedef struct accel__section {
    char *name;         /* NAME */
    int line;           /* line of the section header */
    char *library;      /* as written */
    char *path;         /* library resolved against the config's folder */
    accel__kvlist keys; /* every key of the section, library included */
    bool allow_insecure; /* [runtime] allow_insecure (security.c) */
} accel__section;

typedef struct accel__config {
    char *path;            /* absolute path of the file */
    char *dir;             /* its folder */
    accel__kvlist runtime; /* every [runtime] key */
    char **order;
    size_t order_count;
    bool order_set;
    bool strict;
    accel__section *sections; /* in file order */
    size_t section_count, section_cap;
} accel__config;

/* Find and parse the configuration: config_path, else $ACCEL_CONFIG, else
 * <folder of libaccel.so>/accel/plugins.ini. Errors carry "fn: file:line: ...". */
accel_status accel__config_load(const char *config_path, const char *fn, accel__config **out);
void accel__config_free(accel__config *cfg);
const accel__section *accel__config_section(const accel__config *cfg, const char *name);
const char *accel__config_runtime_get(const accel__config *cfg, const char *key);
const char *accel__kvlist_get(const accel__kvlist *list, const char *key);

/* ------------------------------------------------------------ loader.c */

/* One backend candidate: what the configuration asked for and what loading
 * it gave. */
typedef struct accel__backend {
    char *name; /* section name */
    char *path; /* resolved library path */
    const accel__section *section;
    bool in_order; /* named in [runtime] order (or by ACCEL_BACKEND) */
    bool loaded;
    accel_status status; /* why not loaded */
    char reason[768];
    char description[256];
    uint32_t abi_version;
    uint32_t device_count;
    void *dl;
    const accel_backend *vt;
    void *ctx;
    int log_slot;
    accel_host_services host;
    uint32_t first_device; /* index of its device 0 in the runtime's list */
} accel__backend;

/* Try to load be->path; records the outcome in *be. Returns ACCEL_SUCCESS when
 * the backend loaded, else the reason's status (also in be->status). */
accel_status accel__loader_open(accel__backend *be);
/* Shut a loaded backend down and unload it. */
void accel__loader_close(accel__backend *be);

/* ------------------------------------------------------------ security.c */

/* After parsing: read [runtime] allow_insecure (into every section) and
 * refuse a config file that another user could write (ACCEL_ERROR_CONFIG). */
accel_status accel__security_check_config(accel__config *cfg, const char *fn);
/* True when the plugin at path must not be loaded because another user could
 * write it or its folder (and neither allow_insecure nor
 * ACCEL_ALLOW_INSECURE=1 says otherwise); the reason goes to reason. */
bool accel__security_plugin_refused(const char *path, const accel__section *sec, char *reason,
                                    size_t cap);

/* ------------------------------------------------------------ objects */

typedef struct accel__xop accel__xop; /* host work on a queue (xop.c) */

struct accel_device {
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
};

struct accel_buffer {
    accel_device *dev;
    accel_be_buffer *be;
    size_t bytes;
    void *host_ptr; /* buffer_host_ptr, or NULL */
    /* Set (never cleared) when the buffer is passed to an op, transfer or
     * copy: accel_buffer_release waits for the queues only then. */
    atomic_bool enqueued;
    accel_buffer *prev, *next;
};

/* Mark buf as used by queued work (before the work is enqueued). Const
 * because the validation paths hold const pointers; only the flag changes. */
static inline void accel__buffer_mark_enqueued(const accel_buffer *buf)
{
    accel_buffer *b = (accel_buffer *)buf;
    if (!atomic_load_explicit(&b->enqueued, memory_order_relaxed))
        atomic_store_explicit(&b->enqueued, true, memory_order_relaxed);
}

struct accel_queue {
    accel_device *dev;
    accel_be_queue *be;
    /* Serializes plugin calls on this queue (the ABI promises plugins that
     * the core never calls two functions on one queue concurrently). */
    pthread_mutex_t lock;
    accel__xop *xops; /* pending cross-backend work, owned by the queue */
    accel_queue *prev, *next;
};

struct accel_event {
    accel_device *dev;
    accel_be_event *be;
    atomic_int refs; /* the caller's, plus one per pending cross-backend wait */
    accel_event *prev, *next;
};

typedef struct accel__host_block {
    void *ptr;
    accel_device *dev;
    bool from_backend; /* host_alloc of the backend, else aligned_alloc */
    struct accel__host_block *prev, *next;
} accel__host_block;

struct accel_runtime {
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
    struct accel__trace *trace; /* ACCEL_TRACE state, NULL when not tracing (trace.c) */
    /* Verify mode, fallback and the placement report (verify.c, fallback.c,
     * report.c). checked: ops take the checked branch of accel__submit
     * (verify or per-op counting on); read once per op with a relaxed load. */
    struct accel__policy *policy;
    atomic_bool checked;
};

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

/* device.c */
accel_status accel__devices_build(accel_runtime *rt);
void accel__devices_free(accel_runtime *rt);
/* Create the device's staging queue if it has none yet. Users lock
 * dev->staging_lock around their calls on it. */
accel_status accel__staging_ensure(accel_device *dev, const char *fn);

/* buffer.c, queue.c, event.c: teardown at accel_runtime_close. */
void accel__buffer_destroy(accel_buffer *buf);
void accel__host_block_destroy(accel__host_block *hb);
void accel__queue_destroy(accel_queue *q);
void accel__event_unref(accel_event *ev);
void accel__event_destroy(accel_event *ev);

/* ------------------------------------------------------------ xop.c */

/* Host work on a queue (the host-work engine): a host function enqueued on a
 * queue of one backend that may call into another (cross-backend copies and
 * waits, fallback, verify mode). The queue owns the xop until its next finish
 * or its destruction, whichever comes first; skipped work (after a sticky
 * error) is freed there too. */
struct accel__xop {
    accel__xop *next;
    const char *fn;
    atomic_int done;
    accel_status status; /* written by run before done; reported by the next finish */
    char message[512];
    /* run: in the host function. finish (may be NULL): at q's next finish or
     * destruction, on the caller's thread, for work that must not run inside
     * a host function. release (may be NULL): frees what payload holds. */
    void (*run)(accel__xop *x);
    void (*finish)(accel__xop *x);
    void (*release)(accel__xop *x);
    void *payload; /* the caller's, or the inline space of accel__xop_new */
    void *bounce;  /* owned host memory, freed with the xop; kept until q's next finish */
    bool keep;     /* not reaped before q's next finish (payload memory q still reads) */
    accel_queue_fn user_fn; /* accel_queue_host_fn: user_fn(payload, ...) in run */
};

/* A new xop for fn with payload_bytes of zeroed, aligned inline payload
 * (x->payload points at it; 0: none). NULL when out of host memory. */
accel__xop *accel__xop_new(const char *fn, size_t payload_bytes);
void accel__xop_free(accel__xop *xop);
/* Enqueue xop's host function on q; q->lock must be held. On success q owns
 * xop; on failure the caller frees it with accel__xop_free. */
accel_status accel__queue_enqueue_xop_locked(accel_queue *q, accel__xop *xop);
/* After q drained (q->lock held): run the deferred finishes, free every xop
 * and return the oldest error one of them met (its message into msg). */
accel_status accel__xops_collect_locked(accel_queue *q, char *msg, size_t cap);

/* Block until the backend event ev is done, polling event_query (a short
 * spin, then sleeps backing off to 0.5 ms). Unlike event_synchronize it
 * leaves the recording queue's sticky error alone; a failing query ends the
 * wait (the failure belongs to the recording queue). */
void accel__be_event_wait(const accel_backend *vt, void *ctx, accel_be_event *ev);

/* ------------------------------------------------------------ staging.c */

/* Run d on dev's private staging queue, blocking, on host copies of its
 * operands: host[i] holds operand i's count elements. Inputs (and, when
 * write_output, the output's old contents) go to fresh buffers of dev, the op
 * runs, and the output comes back into out_host. Takes dev->staging_lock
 * (accel__staging_ensure must have succeeded). Called from host functions of
 * other backends' queues (fallback, verify mode). Returns the first failure
 * with its message as the thread's last error. */
accel_status accel__staging_run_op(accel_device *dev, const accel_op_desc *d,
                                   void *const host[4], bool write_output, void *out_host);
/* Blocking transfer on dev's staging queue: host -> buf (to_device) or buf
 * -> host, bytes at byte offset. Same locking and errors as above. */
accel_status accel__staging_transfer(accel_device *dev, bool to_device, accel_be_buffer *buf,
                                     size_t offset, void *host, size_t bytes);

/* Record a backend event at the current end of every live queue of rt and
 * wait until all of them are done, without taking any queue's sticky error
 * (accel_buffer_release; queue.c). Locks are not held while waiting. Errors
 * (the events could not be created or recorded): the status with a message
 * naming fn; queues that were marked are still waited for. */
accel_status accel__queues_mark_and_wait(accel_runtime *rt, const char *fn);

/* ------------------------------------------------------------ trace.c */

/* Number of open runtimes that trace (ACCEL_TRACE=FILE). The op and transfer
 * paths test it once (a relaxed load and a predictable branch) and only then
 * take the traced path. */
extern atomic_int accel__tracing;
#define ACCEL__TRACING()                                                                           \
    __builtin_expect(atomic_load_explicit(&accel__tracing, memory_order_relaxed) != 0, 0)

/* At the end of accel_runtime_open: start tracing when $ACCEL_TRACE names a
 * file. At accel_runtime_close, after the queues drained and before the
 * backends unload: write the Chrome trace-event JSON and free the state. */
void accel__trace_open(accel_runtime *rt);
void accel__trace_close(accel_runtime *rt);
/* A span around one plugin call on q (q->lock held): begin records the
 * start event and returns the span's index, or ACCEL__NO_SPAN when q's
 * runtime does not trace or anything is missing; end records the end event
 * after the call returned rc (a failed call's span is dropped). cat is "op"
 * or "transfer"; bytes, flops and n go to the span's arguments. */
#define ACCEL__NO_SPAN SIZE_MAX
size_t accel__trace_begin_locked(accel_queue *q, const char *name, const char *cat,
                                 uint32_t dtype, uint64_t bytes, uint64_t flops, uint64_t n);
void accel__trace_end_locked(accel_queue *q, size_t span, int32_t rc);
/* -------------------------------------- verify.c, fallback.c, report.c */

#define ACCEL__OP_SLOTS ACCEL_OP_CODE_LIMIT /* op codes are counted per kind in slots */

/* One op kind on one device in the placement report. */
typedef struct accel__report_cell {
    atomic_uint_fast64_t ops, fallbacks, bytes;
    atomic_int reason_set; /* 0 none, 1 being written, 2 written */
    char reason[192];
    accel_device *fallback_device;
} accel__report_cell;

typedef struct accel__policy {
    /* verify mode */
    accel_device *verify_ref; /* NULL: off */
    double verify_sample;
    uint64_t verify_seed;
    bool verify_fail, verify_self;
    uint32_t verify_guard;
    char *verify_repro_dir;
    atomic_uint_fast64_t tick; /* ops seen, for sampling */
    atomic_uint_fast64_t checked, mismatches, skipped, repro_files;
    /* fallback */
    accel_device *fallback; /* NULL: none */
    bool fallback_on_oom;
    atomic_int warned[ACCEL__OP_SLOTS]; /* warn once per op kind */
    /* report */
    bool report, report_at_close;
    accel__report_cell *cells; /* [ACCEL__OP_SLOTS * device_count] */
} accel__policy;

/* After the devices are built: read the [runtime] policy keys and the
 * environment (ACCEL_VERIFY, ACCEL_REPORT). Errors carry "fn: file:line". */
accel_status accel__policy_open(accel_runtime *rt, const char *fn);
/* At close, after the queues drained: print the report if asked, free. */
void accel__policy_close(accel_runtime *rt);

/* rt->checked follows the policy: ops take the checked branch of
 * accel__submit while verify mode or per-op counting is on. */
static inline void accel__policy_update_checked(accel_runtime *rt)
{
    const accel__policy *p = rt->policy;
    atomic_store_explicit(&rt->checked, p && (p->verify_ref || p->report), memory_order_relaxed);
}

/* The op path (accel__submit) and its hooks: core/submit.h. */

/* ------------------------------------------------------------ selftest.c */

/* Right after the backends loaded (unless [runtime] selftest = false): on
 * each one's device 0 a write/read round trip, one elementwise op and one
 * small GEMM, compared with plain loops. A backend that fails is shut down
 * and marked not loaded with the reason. */
void accel__selftest_all(accel_runtime *rt);

#endif /* ACCEL_CORE_INTERNAL_H */
