/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/fallback.c — running an op on the fallback device when its own device
 * cannot: the backend does not support the op or dtype, or (on_error =
 * fallback) op_execute failed with ACCEL_ERROR_OUT_OF_DEVICE_MEMORY.
 *
 * In the queue's order, blocking the caller: reads of the operands into host
 * memory on the op's queue, which then drains; the op on the fallback device
 * (through its private staging queue, so it must be another backend); a
 * write of the output on the op's queue. Not a host function before the
 * write: base/drain.h says why. An earlier failure on the queue skips the op
 * and stays for the queue's next finish.
 * Every fallback is warned about once per op kind (accel__submit counts it
 * in the placement report). strict = true or fallback = none: no fallback. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/verify.h"

#include "base/drain.h"
#include "base/handle.h"
#include "base/objects.h"
#include "base/optable.h"
#include "base/staging.h"
#include "base/status.h"
#include "base/xop.h"
#include "check/hooks.h"
#include "check/policy.h"

typedef struct fbjob {
    accel_device *to;
    accel_op_desc d;
    size_t esize; /* the output's element size */
    void *host[4];
} fbjob;

static void fbjob_free(fbjob *j)
{
    if (!j)
        return;
    for (int i = 0; i < 4; i++)
        free(j->host[i]);
    free(j);
}

static void fb_release(accel__xop *x)
{
    fbjob_free(x->payload);
    x->payload = NULL;
}

/* Read d's operands on q into j->host and wait for them; q->lock held.
 * ACCEL_SUCCESS with *skip set: an earlier item of q failed (kept for q's
 * next finish), so the op is skipped as the queue would skip it. */
static accel_status fb_read_locked(accel_queue *q, const accel_op_desc *d, fbjob *j,
                                   uint64_t *moved, bool *skip)
{
    const accel_backend *vt = q->dev->be->vt;
    void *ctx = q->dev->be->ctx;
    uint32_t out = d->num_operands - 1;
    int32_t rc = ACCEL_SUCCESS;
    accel__clear_error();
    for (uint32_t i = 0; i < d->num_operands && rc == ACCEL_SUCCESS; i++) {
        size_t es = accel__operand_esize(d, i), bytes = d->operands[i].count * es;
        if (!bytes || (i == out && !accel__desc_reads_output(d)))
            continue;
        rc = vt->queue_read(ctx, q->be, d->operands[i].buffer, d->operands[i].offset * es,
                            j->host[i], bytes);
        *moved += bytes;
    }
    if (rc != ACCEL_SUCCESS) {
        accel_status st = accel__fail_relay((accel_status)rc,
                                            "%s: reading the operands for the fallback", d->name);
        accel__queue_drain_locked(q, d->name); /* the reads enqueued may still run */
        return st;
    }
    *skip = accel__queue_drain_locked(q, d->name) != ACCEL_SUCCESS;
    return ACCEL_SUCCESS;
}

/* Run the fallback of d now, in q's order: the operands are read on q, q
 * drains, the op runs on `to` (through its staging queue) and the output is
 * written on q from memory q keeps until its next finish. Blocking: see
 * base/drain.h for why the write cannot wait in the queue behind a host
 * function. *out_bytes gets the bytes moved. */
static accel_status fb_run_now(accel_queue *q, const accel_op_desc *d, accel_device *to,
                               uint64_t *out_bytes)
{
    accel_status st = accel__staging_ensure(to, d->name);
    if (st != ACCEL_SUCCESS)
        return st;
    fbjob *j = calloc(1, sizeof *j);
    accel__xop *x = accel__xop_owning(d->name, j, fb_release);
    if (!x)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    j->to = to;
    j->d = *d;
    uint32_t out = d->num_operands - 1;
    j->esize = accel__operand_esize(d, out); /* the output's */
    for (uint32_t i = 0; i < d->num_operands; i++) {
        if (!(j->host[i] = calloc(d->operands[i].count + 1, accel__operand_esize(d, i)))) {
            accel__xop_free(x);
            return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY,
                               "%s: out of host memory for the fallback's copies", d->name);
        }
    }
    uint64_t moved = 0;
    bool skip = false;
    pthread_mutex_lock(&q->lock);
    st = fb_read_locked(q, d, j, &moved, &skip);
    if (st == ACCEL_SUCCESS && !skip) {
        st = accel__staging_run_op(to, &j->d, j->host, accel__desc_reads_output(d), j->host[out]);
        if (st != ACCEL_SUCCESS)
            st = accel__fail_relay(st, "%s: running it on the fallback device %s failed", d->name,
                                   to->name);
    }
    size_t bytes = d->operands[out].count * j->esize;
    if (st == ACCEL_SUCCESS && !skip && bytes) {
        accel__clear_error();
        int32_t rc =
            q->dev->be->vt->queue_write(q->dev->be->ctx, q->be, d->operands[out].buffer,
                                        d->operands[out].offset * j->esize, j->host[out], bytes);
        moved += bytes;
        if (rc != ACCEL_SUCCESS)
            st = accel__fail_relay((accel_status)rc, "%s: writing the fallback's result", d->name);
        accel__queue_hold_locked(q, x); /* the write may read j->host[out] later */
        x = NULL;
    }
    pthread_mutex_unlock(&q->lock);
    accel__xop_free(x);
    *out_bytes = moved;
    return st;
}

accel_status accel__fallback_try(accel_queue *q, const accel_op_desc *d, bool empty,
                                 accel_status st, accel__fallback_outcome *out)
{
    accel_device *dev = q->dev;
    accel__policy *p = dev->rt->policy;
    accel_device *to = p ? p->fallback : NULL;
    bool oom = st == ACCEL_ERROR_OUT_OF_DEVICE_MEMORY && p && p->fallback_on_oom;
    if (!to || to == dev || to->be == dev->be || (st != ACCEL_ERROR_UNSUPPORTED && !oom))
        return st;
    if (to->be->vt->op_supported(to->be->ctx, to->index, d) != ACCEL_SUCCESS)
        return st;
    snprintf(out->reason, sizeof out->reason, "%s", accel_last_error());
    out->to = to;
    out->bytes = 0;
    if (!empty) {
        accel_status fst = fb_run_now(q, d, to, &out->bytes);
        /* The op ran there and its values decided (a singular or not
         * positive-definite matrix): that is the op's answer, with where. */
        if (fst == ACCEL_ERROR_LINALG)
            return fst;
        if (fst != ACCEL_SUCCESS) {
            accel__log(ACCEL_LOG_WARN, "%s: the fallback to %s failed too: %s", d->name, to->name,
                       accel_last_error());
            return accel__fail(st, "%s", out->reason);
        }
    }
    uint32_t slot = d->op < ACCEL__OP_SLOTS ? d->op : 0;
    if (atomic_exchange(&p->warned[slot], 1) == 0)
        accel__log(ACCEL_LOG_WARN,
                   "%s (%s %s) runs on %s instead of %s: %s (warned once per op "
                   "kind; see the placement report)",
                   d->name, accel_op_name((accel_op_code)d->op),
                   accel_dtype_name((accel_dtype)d->dtype), to->name, dev->name, out->reason);
    return ACCEL_SUCCESS;
}

accel_status accel_fallback_configure(accel_runtime *rt, const char *device, bool on_oom)
{
    static const char fn[] = "accel_fallback_configure";
    ACCEL__CALL(call);
    accel_status st = accel__enter(&call, fn, rt, ACCEL__T_RUNTIME, "rt", &rt);
    if (st != ACCEL_SUCCESS)
        return st;
    accel_device *to = NULL;
    if (device && *device) {
        st = accel__device_find(rt, device, &to);
        if (st != ACCEL_SUCCESS)
            return accel__fail(st, "%s: device: %s", fn, accel_last_error());
    }
    rt->policy->fallback = to;
    rt->policy->fallback_on_oom = on_oom;
    return ACCEL_SUCCESS;
}
