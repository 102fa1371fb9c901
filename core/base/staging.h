/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/base/staging.h — running an op or a transfer on a device's private staging queue
 * (staging.c). Not installed. */
#ifndef ACCEL_CORE_BASE_STAGING_H
#define ACCEL_CORE_BASE_STAGING_H

#include <stdbool.h>

#include "base/objects.h"

/* Run d on dev's private staging queue, blocking, on host copies of its
 * operands: host[i] holds operand i's count elements. Inputs (and, when
 * write_output, the output's old contents) go to fresh buffers of dev, the op
 * runs, and the output comes back into out_host. Takes dev->staging_lock
 * (accel__staging_ensure must have succeeded). Called from host functions of
 * other backends' queues (fallback, verify mode). Returns the first failure
 * with its message as the thread's last error. */
accel_status accel__staging_run_op(accel_device *dev, const accel_op_desc *d, void *const host[4],
                                   bool write_output, void *out_host);
/* Blocking transfer on dev's staging queue: host -> buf (to_device) or buf
 * -> host, bytes at byte offset. Same locking and errors as above. */
accel_status accel__staging_transfer(accel_device *dev, bool to_device, accel_be_buffer *buf,
                                     size_t offset, void *host, size_t bytes);

#endif /* ACCEL_CORE_BASE_STAGING_H */
