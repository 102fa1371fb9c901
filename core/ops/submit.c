/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/ops/submit.c — the one op path: every validated op descriptor goes
 * through accel__submit (ops/submit.h), which calls the hooks (report,
 * fallback, verify, trace) in a fixed order around the backend's op_execute:
 * the same steps for every kind of work, each kind's hooks from its table. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/objects.h"
#include "base/optable.h"
#include "base/status.h"
#include "base/trace.h"
#include "check/hooks.h"
#include "ops/submit.h"

static accel_status fallback_or_fail(accel_queue *q, const accel__op_hooks *h,
                                     const accel_op_desc *d, bool empty, accel_status st)
{
    accel__fallback_outcome fb;
    st = h->fallback_try(q, d, empty, st, &fb);
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
    /* This kind's verify and fallback hooks (check/hooks.h): one lookup. */
    const accel__op_hooks *h = dev->rt->op_hooks[d->op];
    bool empty = (flags & ACCEL__SUBMIT_EMPTY) != 0;
    accel_status cst;
    if ((flags & ACCEL__SUBMIT_NATIVE) &&
        vt->op_supported(dev->be->ctx, dev->index, d) != ACCEL_SUCCESS)
        return ACCEL_ERROR_UNSUPPORTED;
    /* A capturing queue records the validated op instead (rt->capture). */
    if (__builtin_expect(accel__capturing(q), 0) && dev->rt->capture->op(q, d, flags, &cst))
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
            q, h, d, empty,
            accel__fail_relay(ACCEL_ERROR_UNSUPPORTED,
                              "%s: the %s backend does not support %s on %s for %s", d->name,
                              dev->be->name, accel_op_name((accel_op_code)d->op),
                              accel_dtype_name((accel_dtype)d->dtype), dev->name));
    if (empty)
        return ACCEL_SUCCESS;
    void *job = checked ? h->verify_prepare(q, d) : NULL;
    pthread_mutex_lock(&q->lock);
    if (job)
        h->verify_before_locked(q, job);
    int32_t rc = execute_locked(q, d);
    accel_status st = ACCEL_SUCCESS;
    if (rc != ACCEL_SUCCESS)
        st = accel__fail_relay((accel_status)rc, "%s", d->name);
    if (job)
        h->verify_after_locked(q, job, rc);
    pthread_mutex_unlock(&q->lock);
    if (rc != ACCEL_SUCCESS)
        return fallback_or_fail(q, h, d, empty, st);
    return ACCEL_SUCCESS;
}
