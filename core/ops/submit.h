/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/submit.h — the one op path and the hooks below it. Not installed.
 *
 *   public op (ops.c)       validate arguments, build one accel_op_desc
 *     -> accel__submit      count -> supported, else fallback -> verify-before
 *                           -> execute (the trace span wraps only this)
 *                           -> verify-after; a failed execute -> fallback
 *     -> op_execute         the backend (trusts its arguments)
 *
 * The hooks (report.c, fallback.c, verify.c: core/hooks.h; trace.c:
 * internal.h) are called by accel__submit only and call only lower rooms:
 * the op table (optable.c), status, handles, the host-work engine (xop.c)
 * and staging (staging.c). None of them calls another hook or back into
 * submit.c. */
#ifndef ACCEL_CORE_SUBMIT_H
#define ACCEL_CORE_SUBMIT_H

#include "base/objects.h"

/* ------------------------------------------------------------ submit.c */

/* Flags of accel__submit. */
enum {
    /* Validated, but there is no work (zero elements): support is checked,
     * the op is counted and may fall back, but nothing is enqueued. */
    ACCEL__SUBMIT_EMPTY = 1u << 0,
    /* Only where the queue's backend runs it: when op_supported says no,
     * return ACCEL_ERROR_UNSUPPORTED at once, with no fallback and no
     * message (the caller has another way: the array layer's generated
     * kernel where a backend lacks ACCEL_OP_CUMSUM). */
    ACCEL__SUBMIT_NATIVE = 1u << 1
};

/* Submit one validated op on q: the only way an op reaches a backend.
 *
 * d must be complete and validated by the caller: d->op is a row of the op
 * table (accel__op(d->op) != NULL); d->name is the public function's name
 * for messages; operands [0, num_operands) are live buffers of q's device
 * with in-range element offsets and counts in d->dtype; the output is the
 * last operand, and the op table's reads_output says whether its old
 * contents are an input. Nothing else of d is read here; the hooks read what
 * the op table says the op has (ranges, shapes, scalars), so a new op kind,
 * such as a user kernel launch, passes through by adding its table row: the
 * hooks stage its operands by their ranges (fallback, verify) and skip what
 * its row does not allow (a kind without a tolerance rule is never checked).
 * d is copied where it must outlive the call; the caller may free it on
 * return.
 *
 * Steps: (1) count the op when the placement report counts (report.c);
 * (2) ask the backend's op_supported; no: the fallback hook may run it
 * elsewhere (fallback.c), else ACCEL_ERROR_UNSUPPORTED naming the op, dtype
 * and device; (3) ACCEL__SUBMIT_EMPTY ends here with success; (4) under
 * q->lock: verify-before (snapshots of the operands, verify.c), op_execute
 * between the trace's two events (trace.c), verify-after; (5) an execute
 * failure goes to the fallback hook too (on_error = fallback and out of
 * device memory), else it is returned with the backend's message.
 *
 * Cost when neither verify, report nor trace is on: one relaxed load and
 * branch for the policy, op_supported, the queue lock, one relaxed load and
 * branch for the trace, op_execute. Thread-safe (q->lock orders the plugin
 * calls on q). */
accel_status accel__submit(accel_queue *q, const accel_op_desc *d, unsigned flags);

#endif /* ACCEL_CORE_SUBMIT_H */
