/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/check/verify_job.h — verify mode's check of one op (verify.c), as
 * the hooks table (hooks.c) and the kernel checks (kernel_check.c) call it.
 * Not installed. */
#ifndef ACCEL_CORE_CHECK_VERIFY_JOB_H
#define ACCEL_CORE_CHECK_VERIFY_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "base/objects.h"
#include "check/policy.h"

typedef struct accel__vjob accel__vjob; /* one op's check in verify mode */

/* Before q->lock: a check of d on q, or NULL when d is not checked (verify
 * mode off, the op runs on the reference itself, sampling, the reference
 * lacks the op, out of memory; each counted as skipped where it applies). */
accel__vjob *accel__verify_prepare(accel_queue *q, const accel_op_desc *d);
/* q->lock held, before op_execute: enqueue the operand snapshots. */
void accel__verify_before_locked(accel_queue *q, accel__vjob *j);
/* q->lock held, after op_execute returned rc: enqueue the output snapshot
 * and the host function that compares (or drop the check when rc failed).
 * Leaves the thread's last error as op_execute left it. Takes j. */
void accel__verify_after_locked(accel_queue *q, accel__vjob *j, int32_t rc);
/* In a check's host function (x): a mismatch `what` found by it is counted in
 * p, logged as a warning (with its repro file's path when repro is not
 * empty), and, when fail is set (fail-on-mismatch mode), made x's status
 * (ACCEL_ERROR_MISMATCH) and message. An empty `what` is no mismatch: nothing
 * happens. Used by the op checks (verify.c) and the kernel checks
 * (kernel_check.c) alike. */
/* q->lock held, after the op ran: enqueue check of job (cancelled: counted
 * as skipped, and released unchecked by check itself), through
 * accel__queue_enqueue_check_locked; a job that could not be enqueued is
 * counted as skipped. Used by verify.c and kernel_check.c alike. */
void accel__verify_enqueue_locked(accel_queue *q, const char *fn, void *job,
                                  void (*check)(accel__xop *), void (*release)(accel__xop *),
                                  bool deferred, bool cancelled);
void accel__verify_report(accel__policy *p, accel__xop *x, bool fail, const char *what,
                          const char *repro);

#endif /* ACCEL_CORE_CHECK_VERIFY_JOB_H */
