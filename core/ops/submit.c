/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/submit.c — the one op path: every validated op descriptor goes
 * through accel__submit (core/submit.h), which calls the hooks (report,
 * fallback, verify, trace) in a fixed order around the backend's op_execute. */
#include "ops/submit.h"
#include "graphs/capture.h"
#include "check/hooks.h"

static accel_status fallback_or_fail(accel_queue *q, const accel_op_desc *d, bool empty,
                                     accel_status st)
{
    accel__fallback_outcome fb;
    /* User kernels have per-argument dtypes and several outputs; their
     * fallback and verify stage arguments, not operands (kernel_check.c). */
    st = d->op == ACCEL_OP_KERNEL ? accel__kernel_fallback_try(q, d, empty, st, &fb)
                                  : accel__fallback_try(q, d, empty, st, &fb);
    if (st != ACCEL_SUCCESS)
        return st;
    accel__report_fallback(q->dev->rt, q->dev, d->op, fb.to, fb.bytes, fb.reason);
    accel__clear_error();
    return ACCEL_SUCCESS;
}

/* op_execute, between the trace's two events when the runtime traces. */
static int32_t execute_locked(accel_queue *q, const accel_op_desc *d)
{
    accel_device *dev = q->dev;
    size_t span = ACCEL__NO_SPAN;
    if (ACCEL__TRACING()) {
        uint64_t bytes, flops, n;
        accel__op_cost(d, &bytes, &flops, &n);
        span = accel__trace_begin_locked(q, d->name, "op", d->dtype, bytes, flops, n);
    }
    accel__clear_error();
    int32_t rc = dev->be->vt->op_execute(dev->be->ctx, q->be, d);
    if (span != ACCEL__NO_SPAN)
        accel__trace_end_locked(q, span, rc);
    return rc;
}

accel_status accel__submit(accel_queue *q, const accel_op_desc *d, unsigned flags)
{
    accel_device *dev = q->dev;
    const accel_backend *vt = dev->be->vt;
    bool empty = (flags & ACCEL__SUBMIT_EMPTY) != 0;
    accel_status cst;
    /* A capturing queue records the validated op instead (capture.c). */
    if (__builtin_expect(accel__capturing(q), 0) && accel__capture_op(q, d, flags, &cst))
        return cst;
    /* Verify mode or per-op counting; off, one predictable branch. */
    bool checked =
        __builtin_expect(atomic_load_explicit(&dev->rt->checked, memory_order_relaxed), 0);
    if (checked && dev->rt->policy->report)
        accel__report_count(dev->rt, dev, d->op);
    /* The plugin may say why (the CUDA backend names a missing cuBLAS):
     * relayed after the core's sentence. */
    accel__clear_error();
    if (vt->op_supported(dev->be->ctx, dev->index, d) != ACCEL_SUCCESS)
        return fallback_or_fail(
            q, d, empty,
            accel__fail_relay(ACCEL_ERROR_UNSUPPORTED,
                              "%s: the %s backend does not support %s on %s for %s", d->name,
                              dev->be->name, accel_op_name((accel_op_code)d->op),
                              accel_dtype_name((accel_dtype)d->dtype), dev->name));
    if (empty)
        return ACCEL_SUCCESS;
    bool kernel = d->op == ACCEL_OP_KERNEL;
    accel__vjob *vj = checked && !kernel ? accel__verify_prepare(q, d) : NULL;
    accel__kvjob *kj = checked && kernel ? accel__kernel_verify_prepare(q, d) : NULL;
    pthread_mutex_lock(&q->lock);
    if (vj)
        accel__verify_before_locked(q, vj);
    if (kj)
        accel__kernel_verify_before_locked(q, kj);
    int32_t rc = execute_locked(q, d);
    accel_status st = ACCEL_SUCCESS;
    if (rc != ACCEL_SUCCESS)
        st = accel__fail_relay((accel_status)rc, "%s", d->name);
    if (vj)
        accel__verify_after_locked(q, vj, rc);
    if (kj)
        accel__kernel_verify_after_locked(q, kj, rc);
    pthread_mutex_unlock(&q->lock);
    if (rc != ACCEL_SUCCESS)
        return fallback_or_fail(q, d, empty, st);
    return ACCEL_SUCCESS;
}
