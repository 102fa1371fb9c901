/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* ceilings.h — entries of the CUDA backend's plugin table that live in their
 * own files: measure_ceilings (ceilings.cu) and the NVTX-marked op and
 * transfer entries (nvtx.c). */
#ifndef ACCEL_CUDA_CEILINGS_H
#define ACCEL_CUDA_CEILINGS_H

#include "accel/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

int32_t accel_cuda__measure_ceilings(void *ctx, uint32_t device, const accel_ceilings_options *opt,
                                     accel_ceilings *out);

/* accel_cuda__op_execute, queue_write, queue_read and queue_copy inside an
 * NVTX range of the "accel" domain named after the op ("accel_add") or the
 * transfer, with the element or byte count as payload, for Nsight Systems.
 * Without a tool attached they call straight through (one pthread_once and
 * one branch). */
int32_t accel_cuda__op_execute_nvtx(void *ctx, accel_be_queue *q, const accel_op_desc *desc);
int32_t accel_cuda__queue_write_nvtx(void *ctx, accel_be_queue *q, accel_be_buffer *dst,
                                     size_t dst_offset, const void *src, size_t bytes);
int32_t accel_cuda__queue_read_nvtx(void *ctx, accel_be_queue *q, accel_be_buffer *src,
                                    size_t src_offset, void *dst, size_t bytes);
int32_t accel_cuda__queue_copy_nvtx(void *ctx, accel_be_queue *q, accel_be_buffer *src,
                                    size_t src_offset, accel_be_buffer *dst, size_t dst_offset,
                                    size_t bytes);

#ifdef __cplusplus
}
#endif
#endif /* ACCEL_CUDA_CEILINGS_H */
