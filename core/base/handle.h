/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/base/handle.h — the handle registry, runtime gates and public calls in flight (handle.c).
 * Not installed. */
#ifndef ACCEL_CORE_BASE_HANDLE_H
#define ACCEL_CORE_BASE_HANDLE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "accel/accel.h"

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

/* A set of such pins that this thread holds while it works (a graph's
 * buffers while it instantiates, updates or launches), made known to
 * accel__call_pinned_by_outer: a release from a callback inside the work
 * (a log callback) is then refused instead of waiting for this thread.
 * Push after pinning, pop before unpinning, in LIFO order. */
typedef struct accel__pinset {
    accel__hslot **pins;
    size_t n;
    struct accel__pinset *outer;
} accel__pinset;
void accel__pinset_push(accel__pinset *p);
void accel__pinset_pop(accel__pinset *p);

/* The most pinned handles one call resolves (a user kernel's parameters,
 * ACCEL__KMAX_PARAMS of kernels.h, its queue and the kernel). */
#define ACCEL__CALL_PINS 36

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
 * thread's hazard record, or this thread holds it in a pin set
 * (accel__pinset_push): releasing it there would wait for itself. */
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
/* The opening of a getter, a public call that returns a value rather than
 * a status: ACCEL__CALL(call), then accel__enter of its one handle
 * parameter h (named in messages as spelled); on a bad handle the error is
 * set and the getter returns fallback. */
#define ACCEL__ENTER_GETTER(fn, h, type, fallback)                                                 \
    ACCEL__CALL(call);                                                                             \
    do {                                                                                           \
        if (accel__enter(&call, fn, h, type, #h, &h) != ACCEL_SUCCESS)                             \
            return fallback;                                                                       \
    } while (0)
/* accel__enter, then the call's out pointer out (named out_name) checked:
 * ACCEL_ERROR_INVALID_ARGUMENT "fn: out_name is NULL" where it is NULL. */
accel_status accel__enter_out(accel__call *c, const char *fn, const void *handle, accel__type type,
                              const char *name, void *out_obj, const void *out,
                              const char *out_name);
/* The opening of a call that makes an object on a device: accel__enter_out
 * for dev (named "dev") and out (out_name), then *out_obj a zeroed block
 * of size bytes (ACCEL_ERROR_OUT_OF_HOST_MEMORY when none; the caller owns
 * it). */
accel_status accel__enter_new(accel__call *c, const char *fn, void *dev_inout, const void *out,
                              const char *out_name, size_t size, void **out_obj);
/* The opening of a call that fills a versioned struct out (struct_size.c):
 * accel__enter, then accel__struct_out_size of out (named "out"; its first
 * version v1 bytes, ours ours): *out_bytes the most that may be written. */
accel_status accel__enter_struct_out(accel__call *c, const char *fn, const void *handle,
                                     accel__type type, const char *name, void *out_obj,
                                     const void *out, size_t v1, size_t ours, size_t *out_bytes);
/* accel__call_enter with two handles (a gives the call's runtime). */
accel_status accel__enter2(accel__call *c, const char *fn, const void *a, accel__type ta,
                           const char *na, void *out_a, const void *b, accel__type tb,
                           const char *nb, void *out_b);
/* The start of a release (which returns nothing): accel__enter, its
 * failure logged as a warning, then accel__handle_retire (retire.h) of the
 * handle. false where the release must stop there. */
bool accel__release_begin(accel__call *c, const char *fn, const void *handle, accel__type type,
                          const char *name, void *out_obj);
/* The opening of a release: NULL is a no-op; ACCEL__CALL(call), then
 * accel__release_begin of the handle parameter h (named in messages as
 * spelled); the release returns where that says it must stop. */
#define ACCEL__ENTER_RELEASE(fn, h, type)                                                          \
    ACCEL__CALL(call);                                                                             \
    do {                                                                                           \
        if (!(h) || !accel__release_begin(&call, fn, h, type, #h, &h))                             \
            return;                                                                                \
    } while (0)
const char *accel__type_name(accel__type type);

#endif /* ACCEL_CORE_BASE_HANDLE_H */
