/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/ops/batch.h — what the batching helper keeps per device (batch.c). Not installed. */
#ifndef ACCEL_CORE_OPS_BATCH_H
#define ACCEL_CORE_OPS_BATCH_H

#include "base/objects.h"

/* What accel_batch_run keeps on a device between runs (batch.c): freed at
 * runtime close, after the queues and events it held died with the rest. */
void accel__batch_keep_free(accel_device *dev);

#endif /* ACCEL_CORE_OPS_BATCH_H */
