/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* nvtx.c — NVTX 3 ranges (header-only, shipped with the CUDA toolkit) around
 * every op and transfer the CUDA backend enqueues, in an "accel" domain, so
 * that Nsight Systems shows which accel call launched which kernels. The
 * range covers the host-side enqueue; Nsight links it to the kernels and
 * copies it launched. The plugin table points at these wrappers. */
#include <pthread.h>
#include <stdbool.h>

#include <nvtx3/nvToolsExt.h>

#include "ceilings.h"
#include "cuda_internal.h"

static nvtxDomainHandle_t domain;
static pthread_once_t domain_once = PTHREAD_ONCE_INIT;

static void domain_create(void)
{
    domain = nvtxDomainCreateA("accel");
}

/* True when a tool (Nsight) is attached. NVTX 3 loads its injection library
 * during the first NVTX call, which is the domain creation here; without
 * one every NVTX entry is a null function pointer and the domain is NULL.
 * The wrappers then call straight through: range_push builds no attributes. */
static bool tool_attached(void)
{
    pthread_once(&domain_once, domain_create);
    return domain != NULL;
}

/* Opens a range named name with payload count where a tool is attached;
 * true when it did (range_pop closes it). */
static bool range_push(const char *name, uint64_t count)
{
    if (!tool_attached())
        return false;
    nvtxEventAttributes_t a = {0};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = name;
    a.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
    a.payload.ullValue = count;
    nvtxDomainRangePushEx(domain, &a);
    return true;
}

static void range_pop(bool pushed)
{
    if (pushed)
        nvtxDomainRangePop(domain);
}

int32_t accel_cuda__op_execute_nvtx(void *ctx, accel_be_queue *q, const accel_op_desc *desc)
{
    bool pushed = range_push(desc->name ? desc->name : "accel op",
                             desc->op == ACCEL_OP_GEMM ? (uint64_t)desc->m * desc->n * desc->k
                                                       : (uint64_t)desc->operands[0].count);
    int32_t rc = accel_cuda__op_execute(ctx, q, desc);
    range_pop(pushed);
    return rc;
}

int32_t accel_cuda__queue_write_nvtx(void *ctx, accel_be_queue *q, accel_be_buffer *dst,
                                     size_t dst_offset, const void *src, size_t bytes)
{
    bool pushed = range_push("accel_queue_write", bytes);
    int32_t rc = accel_cuda__queue_write(ctx, q, dst, dst_offset, src, bytes);
    range_pop(pushed);
    return rc;
}

int32_t accel_cuda__queue_read_nvtx(void *ctx, accel_be_queue *q, accel_be_buffer *src,
                                    size_t src_offset, void *dst, size_t bytes)
{
    bool pushed = range_push("accel_queue_read", bytes);
    int32_t rc = accel_cuda__queue_read(ctx, q, src, src_offset, dst, bytes);
    range_pop(pushed);
    return rc;
}

int32_t accel_cuda__queue_copy_nvtx(void *ctx, accel_be_queue *q, accel_be_buffer *src,
                                    size_t src_offset, accel_be_buffer *dst, size_t dst_offset,
                                    size_t bytes)
{
    bool pushed = range_push("accel_queue_copy", bytes);
    int32_t rc = accel_cuda__queue_copy(ctx, q, src, src_offset, dst, dst_offset, bytes);
    range_pop(pushed);
    return rc;
}
