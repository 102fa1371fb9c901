/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/staging.c — work on a device's private staging queue, done from a
 * host function of another backend's queue: one staged transfer (cross-backend
 * copies, queue.c) and one staged op on host copies of its operands (the
 * fallback device, fallback.c; the reference device, verify.c). Blocking:
 * each call finishes the staging queue before it returns. */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/objects.h"
#include "base/optable.h"
#include "base/staging.h"
#include "base/status.h"

accel_status accel__staging_transfer(accel_device *dev, bool to_device, accel_be_buffer *buf,
                                     size_t offset, void *host, size_t bytes)
{
    const accel_backend *vt = dev->be->vt;
    pthread_mutex_lock(&dev->staging_lock);
    accel__clear_error();
    int32_t rc = to_device ? vt->queue_write(dev->be->ctx, dev->staging, buf, offset, host, bytes)
                           : vt->queue_read(dev->be->ctx, dev->staging, buf, offset, host, bytes);
    if (rc == ACCEL_SUCCESS)
        rc = vt->queue_finish(dev->be->ctx, dev->staging);
    pthread_mutex_unlock(&dev->staging_lock);
    return (accel_status)rc;
}

accel_status accel__staging_run_op(accel_device *dev, const accel_op_desc *desc,
                                   void *const host[4], bool write_output, void *out_host)
{
    const accel_backend *vt = dev->be->vt;
    void *ctx = dev->be->ctx;
    accel_op_desc d = *desc;
    uint32_t out = d.num_operands - 1;
    accel_be_buffer *bufs[4] = {NULL, NULL, NULL, NULL};
    int32_t rc = ACCEL_SUCCESS;
    pthread_mutex_lock(&dev->staging_lock);
    accel__clear_error();
    for (uint32_t i = 0; i < d.num_operands && rc == ACCEL_SUCCESS; i++) {
        size_t bytes = d.operands[i].count * accel__operand_esize(&d, i);
        rc = vt->buffer_alloc(ctx, dev->index, bytes, &bufs[i]);
        if (rc == ACCEL_SUCCESS && bytes && (i < out || write_output))
            rc = vt->queue_write(ctx, dev->staging, bufs[i], 0, host[i], bytes);
        d.operands[i].buffer = bufs[i];
        d.operands[i].offset = 0;
    }
    if (rc == ACCEL_SUCCESS)
        rc = vt->op_execute(ctx, dev->staging, &d);
    if (rc == ACCEL_SUCCESS && d.operands[out].count)
        rc = vt->queue_read(ctx, dev->staging, bufs[out], 0, out_host,
                            d.operands[out].count * accel__operand_esize(&d, out));
    int32_t frc = vt->queue_finish(ctx, dev->staging);
    if (rc == ACCEL_SUCCESS)
        rc = frc;
    for (uint32_t i = 0; i < d.num_operands; i++)
        if (bufs[i])
            vt->buffer_free(ctx, bufs[i]);
    pthread_mutex_unlock(&dev->staging_lock);
    return (accel_status)rc;
}
