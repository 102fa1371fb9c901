/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/hooks.h — the hooks below the op path (core/submit.h): the placement
 * report, the fallback and verify mode, as accel__submit calls them. They
 * call only lower rooms (the op table, status, handles, xop.c, staging.c),
 * never each other or submit.c. Not installed. */
#ifndef ACCEL_CORE_HOOKS_H
#define ACCEL_CORE_HOOKS_H

#include "base/objects.h"
#include "base/xop.h"
#include "check/policy.h"
#include "check/repro.h"
#include "check/verify_job.h"

/* ------------------------------------------------------------ report.c */

/* Count one op of this code on dev (when the report counts). */
void accel__report_count(accel_runtime *rt, const accel_device *dev, uint32_t op);
/* Count one fallback of op from dev to `to`, bytes moved, and its reason. */
void accel__report_fallback(accel_runtime *rt, const accel_device *dev, uint32_t op,
                            accel_device *to, uint64_t bytes, const char *reason);

/* Count one launch on dev of the fused kernel `kernel` running the recorded
 * ops `ops` (nops of them; core/fuse.c's names), when the report counts. */
void accel__report_fused(accel_runtime *rt, const accel_device *dev, const char *kernel,
                         const char *ops, uint32_t nops);

/* ------------------------------------------------------------ fallback.c */

/* What a fallback did, for the report. */
typedef struct accel__fallback_outcome {
    accel_device *to; /* where the op ran */
    uint64_t bytes;   /* bytes moved through host memory */
    char reason[512]; /* why it fell back: the failure's message */
} accel__fallback_outcome;

/* st is ACCEL_ERROR_UNSUPPORTED (op_supported said no) or op_execute's
 * status, with its message as the thread's last error. When the policy
 * allows it (a fallback device of another backend that supports d, and st
 * unsupported or, with on_error = fallback, out of device memory), enqueue d
 * on q to run there (nothing for an empty op), warn once per op kind, fill
 * *out and return ACCEL_SUCCESS. Otherwise return st with its message. */
accel_status accel__fallback_try(accel_queue *q, const accel_op_desc *d, bool empty,
                                 accel_status st, accel__fallback_outcome *out);

/* ------------------------------------------------------------ hooks.c */

/* The hooks of one kind of work, as accel__submit calls them: chosen once
 * per op from rt->op_hooks[d->op] (filled at accel_runtime_open), so submit
 * has no branch on the kind. A kind whose work is described differently (a
 * user kernel's arguments, an array op's views) brings its own table from
 * its own area; the hooks never call each other or back into submit. Same
 * contracts as accel__fallback_try and the accel__verify_* hooks above; the
 * verify job is the kind's own, opaque to submit. */
typedef struct accel__op_hooks {
    accel_status (*fallback_try)(accel_queue *q, const accel_op_desc *d, bool empty,
                                 accel_status st, accel__fallback_outcome *out);
    void *(*verify_prepare)(accel_queue *q, const accel_op_desc *d);
    void (*verify_before_locked)(accel_queue *q, void *job);
    void (*verify_after_locked)(accel_queue *q, void *job, int32_t rc);
} accel__op_hooks;

/* The built-in ops' hooks (fallback.c, verify.c), for every op table row. */
extern const accel__op_hooks accel__op_hooks_builtin;
/* Fill rt->op_hooks: the built-in hooks for every op code; the runtime then
 * installs other kinds' tables over their codes. */
void accel__op_hooks_init(accel_runtime *rt);

#endif /* ACCEL_CORE_HOOKS_H */
