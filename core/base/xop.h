/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/base/xop.h — the host-work engine: host functions on a queue that may call into another
 * backend (xop.c). Not installed. */
#ifndef ACCEL_CORE_BASE_XOP_H
#define ACCEL_CORE_BASE_XOP_H

#include <stdatomic.h>
#include <stdbool.h>

#include "base/objects.h"

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
/* A new xop for fn that owns job (x->payload; release(x) frees it with the
 * xop). NULL where job is NULL or host memory ran out, with job released
 * and "fn: out of host memory" set. */
accel__xop *accel__xop_owning(const char *fn, void *job, void (*release)(accel__xop *));
void accel__xop_free(accel__xop *xop);
/* A run that does nothing: for an xop whose work is all in its finish (a
 * check that calls the queue's own backend, which a host function may not). */
void accel__xop_nothing(accel__xop *xop);
/* A run for a check whose work is its finish, where the host function may
 * do it: the finish now, then the payload released at once (so that long
 * runs without a queue finish do not keep it), and nothing left for the
 * queue's finish (the xop can be reaped). */
void accel__xop_finish_now(accel__xop *xop);
/* q->lock held: enqueue a check of job on q (verify mode's and the kernel
 * checks' host functions): check(x) runs in the host function, or, where
 * deferred (the host function may not call its own queue's backend), at
 * q's next finish; release(x) frees x->payload. On failure (out of host
 * memory, enqueue refused) q is waited for, since it may still read into
 * job, job is released and the error returned. */
accel_status accel__queue_enqueue_check_locked(accel_queue *q, const char *fn, void *job,
                                               void (*check)(accel__xop *),
                                               void (*release)(accel__xop *), bool deferred);
/* Enqueue xop's host function on q; q->lock must be held. On success q owns
 * xop; on failure the caller frees it with accel__xop_free. */
accel_status accel__queue_enqueue_xop_locked(accel_queue *q, accel__xop *xop);
/* The same with q->lock taken here; on failure xop is freed here too. */
accel_status accel__queue_enqueue_xop(accel_queue *q, accel__xop *xop);
/* After q drained (q->lock held): run the deferred finishes, free every xop
 * and return the oldest error one of them met (its message into msg). */
accel_status accel__xops_collect_locked(accel_queue *q, char *msg, size_t cap);

/* Block until the backend event ev is done, polling event_query (a short
 * spin, then sleeps backing off to 0.5 ms). Unlike event_synchronize it
 * leaves the recording queue's sticky error alone; a failing query ends the
 * wait (the failure belongs to the recording queue). */
void accel__be_event_wait(const accel_backend *vt, void *ctx, accel_be_event *ev);

#endif /* ACCEL_CORE_BASE_XOP_H */
