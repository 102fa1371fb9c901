/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
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

#include "ops/optable.h"

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
    ACCEL__T_HOST_MEMORY = 6,
    ACCEL__T_RNG = 7,
    ACCEL__T_KERNEL = 8,
    ACCEL__T_GRAPH = 9,
    ACCEL__T_COMM = 10 /* a device communicator (collective.c) */
} accel__type;

/* Pinned host blocks (ACCEL__T_HOST_MEMORY), keyed by their address. */
accel_status accel__handle_add(const void *p, accel__type type, void *value);
void accel__handle_remove(const void *p);
/* The tag of p (ACCEL__T_NONE when p is not registered); *out_value gets the
 * value registered with it when out_value is not NULL. Never dereferences p. */
accel__type accel__handle_type(const void *p, void **out_value);

/* A runtime's gate: the count of public calls in flight on it, its closing
 * flag and the fork generation it was opened in. Gates are never freed
 * while the library is loaded (a stale caller may still touch one), only
 * reused. */
typedef struct accel__gate {
    atomic_long calls;
    atomic_bool closing;
    unsigned fork_generation;
    uint64_t serial; /* runtime #N in messages, 1 for the first opened */
    struct accel__gate *free_next, *all_next;
} accel__gate;
accel__gate *accel__gate_new(void);
void accel__gate_retire(accel__gate *g);
/* Block until no call counts against g (accel_runtime_close, after it has
 * set g->closing and killed the runtime's handles). */
void accel__gate_close_wait(accel__gate *g);
/* Bumped in a forked child (pthread_atfork). */
extern atomic_uint accel__fork_generation;

/* Object handles (runtime, device, buffer, queue, event): values that name
 * a slot and its generation, never the object's address. new registers
 * obj, free kills the handle (idempotent: a dead handle stays dead), peek
 * gives the live object and its type and gate, or NULL. Never dereference
 * a public handle: resolve it with accel__call_enter. */
accel_status accel__handle_new(accel__type type, void *obj, accel__gate *gate, void *out_handle);
void accel__handle_free(const void *handle);
void *accel__handle_peek(const void *handle, accel__type *out_type, accel__gate **out_gate);
/* Release of a buffer while other threads' calls may be resolving it, in
 * two steps (accel_buffer_release): kill makes the handle dead at once and
 * returns true for the one caller that killed it (false: it was dead
 * already); drain, called once after a kill that returned true, waits until
 * every call that pinned the handle before it died has left (so its work is
 * enqueued or refused), then lets the slot be reused. The pins are those of
 * accel__call_enter and accel__call_resolve (buffer handles only). */
bool accel__handle_kill(const void *handle);
void accel__handle_drain(const void *handle);

/* A handle's slot as a pin names it (handle.c). */
typedef struct accel__hslot accel__hslot;
/* Pin the buffer obj behind handle outside a call's arguments (a graph
 * launch's recorded buffers): its slot, or NULL when handle is not (any
 * more) a live buffer handle of obj. Unpin each pin once; NULL is a no-op. */
accel__hslot *accel__handle_pin(const void *handle, const void *obj);
void accel__handle_unpin(accel__hslot *pin);

/* The most buffer handles one call resolves (a user kernel's parameters,
 * ACCEL__KMAX_PARAMS of kernel_internal.h). */
#define ACCEL__CALL_PINS 32

/* One public call in flight. Declare it with ACCEL__CALL(c) at the top of a
 * public function: leaving the function (any return) ends the call. Each
 * buffer handle the call resolved is pinned until then: accel_buffer_release
 * waits for the pins, so a buffer a call has resolved is not freed before
 * the call's work is enqueued. A pin is an entry of the calling thread's
 * hazard record (hz->slot[hz_base, hz_base + nhz), handle.c), or, when that
 * is full, a raised count of the buffer's slot (pins[0, npins)). Only gate,
 * npins and nhz are initialized: nothing past them is read. */
typedef struct accel__call {
    accel__gate *gate;
    uint32_t npins;
    uint32_t nhz;
    uint32_t hz_base;
    struct accel__hzrec *hz;
    accel__hslot *pins[ACCEL__CALL_PINS];
} accel__call;
void accel__call_leave(accel__call *c);
/* Drop the call's pins early, keeping the call entered: for a call that
 * goes on to wait for a queue once its work is enqueued (the blocking
 * transfers), so that a release of the buffer does not wait for that. The
 * resolved buffer objects must not be used after this. */
void accel__call_unpin(accel__call *c);
/* Whether a call of this thread that c is nested in (a callback inside it:
 * a log callback, a release callback) has handle's buffer pinned in the
 * thread's hazard record: releasing it there would wait for itself. */
bool accel__call_pinned_by_outer(const accel__call *c, const void *handle);
#define ACCEL__CALL(c)                                                                             \
    __attribute__((cleanup(accel__call_leave))) accel__call c;                                     \
    c.gate = NULL;                                                                                 \
    c.npins = 0;                                                                                   \
    c.nhz = 0

/* One handle argument: the caller's value, the type it must have, its name
 * in messages ("q", "a.buffer") and where the object pointer goes (the
 * address of a pointer variable, written with memcpy). */
typedef struct accel__arg {
    const void *handle;
    accel__type type;
    const char *name;
    void *out;
    const char *suffix; /* after name in messages (".buffer"), or NULL */
} accel__arg;
/* Resolve n handles (args[0] gives the call's runtime; every other one must
 * belong to the same runtime) and enter the call, pinning each buffer.
 * Errors: ACCEL_ERROR_INVALID_HANDLE (NULL, released, never created, wrong
 * type, runtime being closed, a buffer released by another thread while
 * this call resolved it), ACCEL_ERROR_DEVICE_MISMATCH (another runtime),
 * ACCEL_ERROR_UNAVAILABLE (runtime of the parent after fork),
 * ACCEL_ERROR_INTERNAL (more than ACCEL__CALL_PINS buffers), each with
 * "fn: name ..." in the message. */
accel_status accel__call_enter(accel__call *c, const char *fn, size_t n, const accel__arg *args);
/* One more handle of an entered call c: live, of its type, of c's runtime
 * (first_name names the call's first handle in the message); a buffer is
 * pinned for c. The call stays entered whatever this returns. */
accel_status accel__call_resolve(accel__call *c, const char *fn, const char *first_name,
                                 const accel__arg *a);
/* accel__call_enter with one handle. */
accel_status accel__enter(accel__call *c, const char *fn, const void *handle, accel__type type,
                          const char *name, void *out_obj);
const char *accel__type_name(accel__type type);

/* ------------------------------------------------------- struct_size.c */

/* The size of a versioned struct's first version: up to the end of its last
 * field as first published (fields are only ever appended). */
#define ACCEL__SIZE_UPTO(type, last) (offsetof(type, last) + sizeof(((type *)0)->last))
#define ACCEL__GEMM_DESC_SIZE_V1 ACCEL__SIZE_UPTO(accel_gemm_desc, allow_tf32)
#define ACCEL__DEVICE_PROPERTIES_SIZE_V1 ACCEL__SIZE_UPTO(accel_device_properties, reserved)
#define ACCEL__CEILINGS_OPTIONS_SIZE_V1 ACCEL__SIZE_UPTO(accel_ceilings_options, reserved)
#define ACCEL__CEILINGS_SIZE_V1 ACCEL__SIZE_UPTO(accel_ceilings, reserved)
#define ACCEL__VERIFY_OPTIONS_SIZE_V1 ACCEL__SIZE_UPTO(accel_verify_options, guard_elements)
#define ACCEL__VERIFY_STATS_SIZE_V1 ACCEL__SIZE_UPTO(accel_verify_stats, repro_files)
#define ACCEL__REPORT_ROW_SIZE_V1 ACCEL__SIZE_UPTO(accel_report_row, reason)

/* In: refuse struct_size < v1 (ACCEL_ERROR_INVALID_ARGUMENT, "fn:
 * arg->struct_size ..."), else copy the caller's first min(struct_size,
 * ours) bytes over *local (which holds the _init defaults) and set local's
 * struct_size to ours. Reads nothing of *in but struct_size before that. */
accel_status accel__struct_in(const char *fn, const char *arg, const void *in, size_t v1,
                              size_t ours, void *local);
/* Out: refuse struct_size < v1; else *out_bytes = min(struct_size, ours),
 * the most that may be written (accel__struct_out_write, which also sets
 * the written struct_size to that). */
/* Both refuse a NULL struct (ACCEL_ERROR_INVALID_ARGUMENT, "fn: arg is NULL"). */
accel_status accel__struct_out_size(const char *fn, const char *arg, const void *out, size_t v1,
                                    size_t ours, size_t *out_bytes);
void accel__struct_out_write(void *out, const void *ours, size_t bytes);

/* ------------------------------------------------------------ file.c */

/* Open path (open(2) flags, e.g. O_RDONLY or O_WRONLY | O_CREAT | O_TRUNC,
 * O_NOFOLLOW where a symbolic link must be refused; O_CREAT creates with mode
 * 0666 & ~umask) and make sure it is a regular file, without blocking: it is
 * opened with O_NONBLOCK | O_CLOEXEC | O_NOCTTY, examined with fstat, and
 * O_NONBLOCK is cleared again before *out_fd is handed back. max_bytes > 0
 * also refuses a file larger than that (a file may still grow while it is
 * read: readers cap what they read too). Errors, with "fn: path ..." as the
 * message and *out_fd = -1: ACCEL_ERROR_NOT_FOUND (no such file),
 * ACCEL_ERROR_INVALID_ARGUMENT (a directory, FIFO, device or socket, a
 * symbolic link under O_NOFOLLOW, too large), ACCEL_ERROR_IO (any other
 * open or fstat failure). */
accel_status accel__open_regular(const char *path, int flags, uint64_t max_bytes, const char *fn,
                                 int *out_fd);

/* ------------------------------------------------------------ npy.c */

/* Bytes of the largest .npy preamble accel__npy_preamble writes. */
#define ACCEL__NPY_PREAMBLE_MAX 512
/* The preamble of a format 1.0 .npy file (magic, version, header length and
 * the header dict, padded so that the data starts at a multiple of 64
 * bytes, as numpy.lib.format writes it) for an array of dtype (f32, f64 or
 * f16) and ndim <= ACCEL_NPY_MAX_DIMS dimensions `shape`, into out. Returns
 * its length in bytes, 0 for another dtype or too many dimensions. The
 * shape is not checked (accel_npy_save checks it first). */
size_t accel__npy_preamble(accel_dtype dtype, uint32_t ndim, const size_t *shape,
                           unsigned char out[ACCEL__NPY_PREAMBLE_MAX]);

/* ------------------------------------------------------------ value.c */

/* The value parsers (common/value.h, shared with libaccel_mpi and the
 * `accel` program so that every setting reads its words one way). */
#include "value.h"

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
    char *written;      /* library joined to the config's folder, links kept
                           (security.c checks every component of it) */
    char *path;         /* the same, resolved (realpath) when it exists */
    accel__kvlist keys; /* every key of the section, library included */
} accel__section;

/* The [runtime] keys, one row each: enum suffix, key. The settings below
 * hold their typed values; line[] says where each was set. */
#define ACCEL__RUNTIME_KEYS(X)                                                                     \
    X(ORDER, "order")                                                                              \
    X(STRICT, "strict")                                                                            \
    X(ALLOW_INSECURE, "allow_insecure")                                                            \
    X(VERIFY, "verify")                                                                            \
    X(VERIFY_SAMPLE, "verify_sample")                                                              \
    X(VERIFY_REPRO_DIR, "verify_repro_dir")                                                        \
    X(VERIFY_GUARD, "verify_guard")                                                                \
    X(ON_MISMATCH, "on_mismatch")                                                                  \
    X(ON_ERROR, "on_error")                                                                        \
    X(FALLBACK, "fallback")                                                                        \
    X(SELFTEST, "selftest")                                                                        \
    X(REPORT, "report")                                                                            \
    X(KERNEL_CACHE, "kernel_cache")                                                                \
    X(KERNEL_DEBUG, "kernel_debug")

typedef enum accel__key {
#define ACCEL__X_KEY(name, text) ACCEL__KEY_##name,
    ACCEL__RUNTIME_KEYS(ACCEL__X_KEY)
#undef ACCEL__X_KEY
        ACCEL__KEY_COUNT
} accel__key;

/* Where a setting came from: a line of the file (> 0), the environment
 * (ACCEL__FROM_ENV) or the built-in default (0). */
#define ACCEL__FROM_ENV (-1)

/* The settings of one runtime: every [runtime] key and every ACCEL_*
 * variable the core reads (ACCEL_LOG excepted: the log level belongs to the
 * process, status.c reads it with accel__parse_log_level), typed and
 * validated by accel__config_load before any plugin is opened. Precedence:
 * an argument (accel_runtime_open's path, accel_verify_configure, ...) over
 * the environment over the file over the default. An environment variable
 * that is set but empty counts as unset. */
typedef struct accel__config {
    char *path; /* absolute path of the file */
    char *dir;  /* its folder */
    /* order (the file), with ACCEL_BACKEND's name put first when set */
    char **order;
    size_t order_count;
    bool order_set;
    char *backend_first; /* ACCEL_BACKEND, else NULL; names a section */
    bool strict;
    /* allow_insecure: plugins that fail the trust check load anyway;
     * ACCEL_ALLOW_INSECURE when set, else the file's key. */
    bool allow_insecure;
    bool env_allow_insecure; /* ACCEL_ALLOW_INSECURE: also the config file itself */
    /* verify mode: the reference device (ACCEL_VERIFY over verify), NULL off */
    char *verify;
    double verify_sample;   /* 0..1, default 1 */
    uint32_t verify_guard;  /* 0..4096, default 4 */
    char *verify_repro_dir; /* absolute, NULL: none */
    bool verify_fail;       /* on_mismatch = fail */
    /* fallback: the device name, NULL for none (default "cpu"; strict = true
     * means none) */
    char *fallback;
    bool fallback_on_oom; /* on_error = fallback (default) */
    bool selftest;        /* default true */
    bool report;          /* ACCEL_REPORT over report, default false */
    char *trace_path;     /* ACCEL_TRACE, else NULL */
    /* user kernels' disk cache (kernel_cache.c): ACCEL_KERNEL_CACHE over
     * kernel_cache; a folder (relative ones joined to the config's folder)
     * or an off word as written; NULL: the default folder */
    char *kernel_cache;
    bool kernel_debug; /* ACCEL_KERNEL_DEBUG over kernel_debug: raw launches checked on the twin */
    int line[ACCEL__KEY_COUNT]; /* where each key was set (see ACCEL__FROM_ENV) */
    accel__section *sections;   /* in file order */
    size_t section_count, section_cap;
} accel__config;

/* Find, read and validate the configuration: config_path, else
 * $ACCEL_CONFIG, else <folder of libaccel.so>/accel/plugins.ini; then the
 * environment. Errors carry "fn: file:line: ..." (or the variable's name). */
accel_status accel__config_load(const char *config_path, const char *fn, accel__config **out);
void accel__config_free(accel__config *cfg);
const accel__section *accel__config_section(const accel__config *cfg, const char *name);
const char *accel__kvlist_get(const accel__kvlist *list, const char *key);
/* "path:line: key = " or "ACCEL_VAR=" for messages about a setting's value,
 * written to buf (cap bytes); returns buf. */
const char *accel__config_where(const accel__config *cfg, accel__key key, char *buf, size_t cap);

/* ------------------------------------------------------------ loader.c */

/* accel_host_services as ABI 1 had it: log and set_error without host_ctx
 * (accel/backend.h, ABI history). Same size and layout otherwise. */
typedef struct accel__host_services_v1 {
    uint32_t struct_size;
    uint32_t abi_version;
    void *host_ctx;
    void (*log)(int level, const char *fmt, ...);
    void (*set_error)(const char *fmt, ...);
    const char *(*config_get)(void *host_ctx, const char *key);
    void *reserved[8];
} accel__host_services_v1;

/* One backend candidate: what the configuration asked for and what loading
 * it gave. */
typedef struct accel__backend {
    char *name; /* section name */
    char *path; /* resolved library path */
    const accel__section *section;
    bool in_order;       /* named in [runtime] order (or by ACCEL_BACKEND) */
    bool allow_insecure; /* load even when the trust check fails (security.c) */
    bool loaded;
    accel_status status; /* why not loaded */
    char reason[768];
    char description[256];
    uint32_t abi_version;
    uint32_t device_count;
    void *dl;
    const accel_backend *vt; /* &table once loaded */
    /* The plugin's table, copied into a zeroed full-size one: entries past a
     * smaller (older) plugin's struct_size read as NULL. */
    accel_backend table;
    void *ctx;
    /* what the plugin's init got: the host services of its ABI version */
    union {
        accel_host_services v2;
        accel__host_services_v1 v1;
    } host;
    const void *abi1_base; /* ABI 1 plugins: load address, to name their log lines */
    uint32_t first_device; /* index of its device 0 in the runtime's list */
} accel__backend;

/* Try to load be->path; records the outcome in *be. Returns ACCEL_SUCCESS when
 * the backend loaded, else the reason's status (also in be->status). */
accel_status accel__loader_open(accel__backend *be);
/* Shut a loaded backend down and unload it. */
void accel__loader_close(accel__backend *be);

/* ------------------------------------------------------------ security.c */

/* After parsing: refuse the config file read from fd (opened as written,
 * resolved to cfg->path) when another user could change it or its path
 * (ACCEL_ERROR_CONFIG), unless ACCEL_ALLOW_INSECURE says otherwise. */
accel_status accel__security_check_config(const accel__config *cfg, int fd, const char *written,
                                          const char *fn);
/* Open the plugin at path for loading. False: *out_fd is the open regular
 * file to load (dlopen through /proc/self/fd), trusted or allowed by
 * allow_insecure (with a warning). True: refused, *out_fd = -1 and the
 * reason in reason (cap bytes): another user could change the file or a
 * folder or link on its path, or it is not a regular file. */
bool accel__security_open_plugin(const char *path, bool allow_insecure, int *out_fd, char *reason,
                                 size_t cap);

/* ------------------------------------------------------------ objects */

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
};

struct accel_buffer {
    accel_buffer *handle;
    accel_device *dev;
    accel_be_buffer *be;
    size_t bytes;
    void *host_ptr; /* buffer_host_ptr, or NULL */
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
 * callback (NULL for accel's own memory); *out_buffer gets the public
 * handle. On failure be is freed and release is not called. fn names the
 * public call. */
accel_status accel__buffer_adopt(accel_device *dev, accel_be_buffer *be, size_t bytes,
                                 accel_release_fn release, void *user, const char *fn,
                                 accel_buffer **out_buffer);

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
    struct accel_kernel *kernels;    /* live user kernels (kernel.c), under lock */
    struct accel_graph *graphs;      /* live graphs (graph.c), under lock */
    struct accel_device_comm *comms; /* live device communicators (collective.c), under lock */
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

/* collective.c, for accel_runtime_close: kill the handles of the live
 * device communicators (lock held), then destroy them (before the backends
 * unload). */
void accel__comms_kill_handles(accel_runtime *rt);
void accel__comms_close(accel_runtime *rt);

/* ops.c: accel_gemm with fn naming the public call in messages (the
 * shorter forms built on it, e.g. accel_matmul_sub). */
accel_status accel__gemm_named(const char *fn, accel_queue *q, const accel_gemm_desc *d);
/* accel_random_uniform / accel_random_normal (normal) named fn (rng.c). */
accel_status accel__random_named(const char *fn, accel_queue *q, bool normal, accel_dtype dtype,
                                 uint64_t seed, uint64_t rng_offset, double mean, double stddev,
                                 accel_slice out);

/* device.c */
accel_status accel__devices_build(accel_runtime *rt);
/* accel_device_get_by_name on the runtime object; *out_device is the
 * device object (messages name accel_device_get_by_name). */
accel_status accel__device_find(accel_runtime *rt, const char *name, accel_device **out_device);
void accel__devices_free(accel_runtime *rt);
/* Create the device's staging queue if it has none yet. Users lock
 * dev->staging_lock around their calls on it. */
accel_status accel__staging_ensure(accel_device *dev, const char *fn);

/* host_register.c: one registered host range; undo every one left at close
 * (before the backends shut down). */
typedef struct accel__host_reg accel__host_reg;
void accel__host_regs_free(accel_runtime *rt);
/* True when [ptr, ptr + bytes) lies in one accel_host_register range, or
 * ptr starts an accel_host_alloc block: memory a transfer reads at the
 * pinned rate (host_register.c). Takes rt->lock. */
bool accel__host_range_locked(accel_runtime *rt, const void *ptr, size_t bytes);
/* What accel_batch_run keeps on a device between runs (batch.c): freed at
 * runtime close, after the queues and events it held died with the rest. */
void accel__batch_keep_free(accel_device *dev);

/* buffer.c, queue.c, event.c: teardown at accel_runtime_close. */
void accel__buffer_destroy(accel_buffer *buf);
/* accel_buffer_release(buf) (a handle) for a buffer whose queued uses are
 * all known to be done (the caller finished every queue it was used on):
 * without waiting for the runtime's other queues, which costs a marker on
 * each (tens of microseconds per buffer with a few dozen queues alive). */
void accel__buffer_release_drained(accel_buffer *buf);
void accel__host_block_destroy(accel__host_block *hb);
void accel__queue_destroy(accel_queue *q);
/* event_life.c: an event's last reference frees it. */
void accel__event_unref(accel_event *ev);
void accel__event_destroy(accel_event *ev);
/* graph.c, for accel_runtime_close: kill every graph handle (rt->lock
 * held), then, after the queues drained and before the buffers are freed,
 * free every graph. */
void accel__graphs_kill_handles(accel_runtime *rt);
void accel__graphs_close(accel_runtime *rt);

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
    void *payload;          /* the caller's, or the inline space of accel__xop_new */
    void *bounce;           /* owned host memory, freed with the xop; kept until q's next finish */
    bool keep;              /* not reaped before q's next finish (payload memory q still reads) */
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
accel_status accel__staging_run_op(accel_device *dev, const accel_op_desc *d, void *const host[4],
                                   bool write_output, void *out_host);
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
size_t accel__trace_begin_locked(accel_queue *q, const char *name, const char *cat, uint32_t dtype,
                                 uint64_t bytes, uint64_t flops, uint64_t n);
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

/* One fused kernel of a graph (core/fuse.c) on one device in the placement
 * report: its launches while reporting is on. A list that only grows (pushed
 * lock-free), freed at close. */
typedef struct accel__rfused {
    struct accel__rfused *next;
    const accel_device *dev;
    atomic_uint_fast64_t launches;
    uint32_t nops;   /* recorded ops it runs */
    char kernel[64]; /* "fused_mul_add" */
    char ops[512];   /* "nodes 0-1 (accel_mul, accel_add)" */
} accel__rfused;

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
    accel__report_cell *cells;      /* [ACCEL__OP_SLOTS * device_count] */
    _Atomic(accel__rfused *) fused; /* newest first */
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

/* ------------------------------------------------- kernel*.c (user kernels) */

/* At accel_runtime_close, after the queues drained and the graphs went:
 * drop the caller's reference of every kernel left, then release every
 * program and the cache (kernel.c). */
void accel__kernels_close(accel_runtime *rt);

/* ------------------------------------------------------------ selftest.c */

/* Right after the backends loaded (unless [runtime] selftest = false): on
 * each one's device 0 a write/read round trip, one elementwise op and one
 * small GEMM, compared with plain loops. A backend that fails is shut down
 * and marked not loaded with the reason. */
void accel__selftest_all(accel_runtime *rt);

#endif /* ACCEL_CORE_INTERNAL_H */
