/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/fallback.c — running an op on the fallback device when its own device
 * cannot: the backend does not support the op or dtype, or (on_error =
 * fallback) op_execute failed with ACCEL_ERROR_OUT_OF_DEVICE_MEMORY.
 *
 * In the queue's order: reads of the operands into host memory on the op's
 * queue, a host function that runs the op on the fallback device (through
 * its private staging queue, so it must be another backend) and reads the
 * output back to host memory, then a write of the output on the op's queue.
 * An error of the host function is reported by the queue's next finish.
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
    size_t esize;
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

static void fb_run(accel__xop *x)
{
    fbjob *j = x->payload;
    accel_status st = accel__staging_run_op(j->to, &j->d, j->host, accel__desc_reads_output(&j->d),
                                            j->host[j->d.num_operands - 1]);
    if (st != ACCEL_SUCCESS) {
        x->status = st;
        snprintf(x->message, sizeof x->message,
                 "%s: running it on the fallback device %s failed: %s", j->d.name, j->to->name,
                 *accel_last_error() ? accel_last_error() : accel_status_string(st));
    }
}

/* Enqueue the fallback of d on q; *out_bytes gets the bytes moved. */
static accel_status fb_enqueue(accel_queue *q, const accel_op_desc *d, accel_device *to,
                               uint64_t *out_bytes)
{
    const accel_backend *vt = q->dev->be->vt;
    void *ctx = q->dev->be->ctx;
    accel_status st = accel__staging_ensure(to, d->name);
    if (st != ACCEL_SUCCESS)
        return st;
    fbjob *j = calloc(1, sizeof *j);
    if (!j)
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", d->name);
    j->to = to;
    j->d = *d;
    j->esize = accel__desc_esize(d);
    uint32_t out = d->num_operands - 1;
    uint64_t moved = 0;
    for (uint32_t i = 0; i < d->num_operands; i++) {
        j->host[i] = calloc(d->operands[i].count + 1, j->esize);
        if (!j->host[i]) {
            fbjob_free(j);
            return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY,
                               "%s: out of host memory for the fallback's copies", d->name);
        }
    }
    accel__xop *x = accel__xop_new(d->name, 0);
    if (!x) {
        fbjob_free(j);
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", d->name);
    }
    x->payload = j;
    x->run = fb_run;
    x->release = fb_release;
    x->keep = true; /* the write after the host function reads j->host[out] */

    pthread_mutex_lock(&q->lock);
    int32_t rc = ACCEL_SUCCESS;
    accel__clear_error();
    for (uint32_t i = 0; i < d->num_operands && rc == ACCEL_SUCCESS; i++) {
        size_t bytes = d->operands[i].count * j->esize;
        if (!bytes || (i == out && !accel__desc_reads_output(d)))
            continue;
        rc = vt->queue_read(ctx, q->be, d->operands[i].buffer, d->operands[i].offset * j->esize,
                            j->host[i], bytes);
        moved += bytes;
    }
    if (rc != ACCEL_SUCCESS) {
        st = accel__fail_relay((accel_status)rc, "%s: reading the operands for the fallback",
                               d->name);
        vt->queue_finish(ctx, q->be);
        pthread_mutex_unlock(&q->lock);
        accel__xop_free(x);
        return st;
    }
    st = accel__queue_enqueue_xop_locked(q, x);
    if (st != ACCEL_SUCCESS) {
        vt->queue_finish(ctx, q->be);
        pthread_mutex_unlock(&q->lock);
        accel__xop_free(x);
        return st;
    }
    size_t bytes = d->operands[out].count * j->esize;
    if (bytes) {
        accel__clear_error();
        rc = vt->queue_write(ctx, q->be, d->operands[out].buffer,
                             d->operands[out].offset * j->esize, j->host[out], bytes);
        moved += bytes;
        if (rc != ACCEL_SUCCESS)
            st = accel__fail_relay((accel_status)rc, "%s: writing the fallback's result", d->name);
    }
    pthread_mutex_unlock(&q->lock);
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
        accel_status fst = fb_enqueue(q, d, to, &out->bytes);
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
