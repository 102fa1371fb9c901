/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* status.c — what every file of the CUDA backend shares below the plugin's
 * entry point: CUDA errors as accel statuses with their messages, the guard
 * that makes the queue's device current, and the bounded copy of an op's
 * name. plugin.c, memory.c, queue.c and the rest call these; this file calls
 * none of them, so no two rooms of the backend depend on each other. */
#include <string.h>

#include "cuda_internal.h"

/* ------------------------------------------------------------- statuses */

int32_t accel_cuda__fail(const accel_cuda_ctx *ctx, cudaError_t err, const char *what)
{
    int32_t status;
    switch (err) {
    case cudaErrorMemoryAllocation:
        status = ACCEL_ERROR_OUT_OF_DEVICE_MEMORY;
        break;
    case cudaErrorNotSupported:
        status = ACCEL_ERROR_UNSUPPORTED;
        break;
    default:
        status = ACCEL_ERROR_DEVICE;
        break;
    }
    ctx->host->set_error(ctx->host->host_ctx, "%s: %s: %s", what, cudaGetErrorName(err),
                         cudaGetErrorString(err));
    /* Clears non-sticky errors; a sticky one (a kernel fault) stays anyway. */
    (void)cudaGetLastError();
    return status;
}

int32_t accel_cuda__fail_async(const accel_cuda_ctx *ctx, cudaError_t err, const char *what,
                               const char *last_op)
{
    ctx->host->set_error(
        ctx->host->host_ctx, "%s: queued work failed: %s: %s (last op enqueued: %s)", what,
        cudaGetErrorName(err), cudaGetErrorString(err), last_op && last_op[0] ? last_op : "none");
    (void)cudaGetLastError();
    return ACCEL_ERROR_DEVICE;
}

/* Every entry point calls this, so it is on the path of every enqueue.
 * cudaGetDevice reads the calling thread's current device (what the
 * application or another library may have changed since our last call, so
 * no cache of our own is kept) and is much cheaper than cudaSetDevice, which
 * rebinds the primary context even when it is already current. A thread with
 * no context yet reports device 0, and CUDA binds device 0's primary context
 * on its first call, which is what cudaSetDevice(0) would do. (An
 * application that made its own driver-API context current on the same
 * device keeps it, as with PyTorch's device guard; accel's streams belong to
 * the primary context, so CUDA would then refuse the launch, not misplace it.) */
int32_t accel_cuda__set_device(const accel_cuda_ctx *ctx, uint32_t device)
{
    const int ordinal = ctx->devices[device].ordinal;
    int current = -1;
    cudaError_t err = cudaGetDevice(&current);
    if (err == cudaSuccess && current == ordinal)
        return ACCEL_SUCCESS;
    if (err != cudaSuccess) /* not left for a later cudaGetLastError to find */
        (void)cudaGetLastError();
    err = cudaSetDevice(ordinal);
    return err == cudaSuccess ? ACCEL_SUCCESS : accel_cuda__fail(ctx, err, "cudaSetDevice");
}

/* On every enqueue too: a bounded copy, not snprintf. dst and name never
 * overlap (distinct objects' fields). */
void accel_cuda__set_name(char dst[ACCEL_CUDA_OP_NAME_MAX], const char *name)
{
    if (!name)
        name = "(unnamed op)";
    const char *nul = memchr(name, '\0', ACCEL_CUDA_OP_NAME_MAX - 1);
    size_t len = nul ? (size_t)(nul - name) : ACCEL_CUDA_OP_NAME_MAX - 1;
    memcpy(dst, name, len);
    dst[len] = '\0';
}
