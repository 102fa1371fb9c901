/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* queue.c — queues (non-blocking CUDA streams), host<->device transfers,
 * buffer copies (also peer-to-peer between GPUs), host callbacks and events.
 *
 * Errors: a CUDA call that fails while enqueueing is returned at once. A fault
 * of queued work (a kernel's illegal address, say) is reported by CUDA at the
 * next synchronizing call; queue_finish and event_synchronize return it as
 * ACCEL_ERROR_DEVICE naming the last op enqueued before it. A kernel fault
 * breaks the CUDA context for good (CUDA's rule), so later work fails too.
 *
 * Transfers: pinned host memory (accel_host_alloc, cudaHostRegister) goes
 * straight to cudaMemcpyAsync and is fully asynchronous. Pageable memory over
 * 64 KiB goes through a per-queue ring of 16 pinned 4 MiB pieces, copied by
 * the backend's copy threads (hostcopy.c: one core copies pageable memory
 * far slower than the DMA engines move it), which go on with the next
 * pieces while the DMAs of the earlier ones run.
 * This makes large pageable transfers synchronous with respect to the host
 * buffer, as CUDA's own are: a write returns once the source has been copied
 * into the ring (the source may be reused at once), a read returns once the
 * data is in the destination (and so waits for earlier work on the queue).
 * A released queue leaves its ring to the next queue of its device
 * (hostcopy.c keeps two), which then skips the page-locking. */
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

/* --------------------------------------------------------------- queues */

/* A zeroed host record of size bytes for a new queue or event (what) of
 * device, which is made current; NULL with *st and the message set. */
static void *record_new(accel_cuda_ctx *ctx, uint32_t device, size_t size, const char *what,
                        int32_t *st)
{
    *st = accel_cuda__set_device(ctx, device);
    if (*st != ACCEL_SUCCESS)
        return NULL;
    void *r = calloc(1, size);
    if (!r) {
        ctx->host->set_error(ctx->host->host_ctx, "out of host memory for %s", what);
        *st = ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    return r;
}

int32_t accel_cuda__queue_create(void *vctx, uint32_t device, accel_be_queue **out)
{
    accel_cuda_ctx *ctx = vctx;
    *out = NULL;
    int32_t st;
    accel_be_queue *q = record_new(ctx, device, sizeof *q, "a queue", &st);
    if (!q)
        return st;
    q->device = device;
    cudaError_t err = cudaStreamCreateWithFlags(&q->stream, cudaStreamNonBlocking);
    if (err != cudaSuccess) {
        free(q);
        return accel_cuda__fail(ctx, err, "cudaStreamCreateWithFlags");
    }
    err = cudaMalloc((void **)&q->partials, ctx->devices[device].max_blocks * sizeof(double));
    if (err != cudaSuccess) {
        st = accel_cuda__fail(ctx, err, "cudaMalloc (reduction scratch)");
        (void)cudaStreamDestroy(q->stream);
        (void)cudaGetLastError();
        free(q);
        return st;
    }
    accel_cuda__set_name(q->last_op, "none");
    *out = q;
    return ACCEL_SUCCESS;
}

void accel_cuda__queue_destroy(void *vctx, accel_be_queue *q)
{
    accel_cuda_ctx *ctx = vctx;
    if (!q)
        return;
    if (accel_cuda__set_device(ctx, q->device) == ACCEL_SUCCESS) {
        cudaError_t err = cudaStreamSynchronize(q->stream);
        if (err != cudaSuccess)
            ctx->host->log(ctx->host->host_ctx, ACCEL_LOG_WARN,
                           "queue released after failed work: %s (last op: %s)",
                           cudaGetErrorString(err), q->last_op);
        accel_cuda__blas_destroy(ctx, q);
        accel_cuda__fft_destroy(q);
        if (q->staging_ready && !accel_cuda__ring_keep(ctx, q)) {
            for (int i = 0; i < ACCEL_CUDA_STAGING_CHUNKS; ++i) {
                (void)cudaEventDestroy(q->chunk_done[i]);
                (void)cudaFreeHost(q->chunk[i]);
            }
        }
        (void)cudaFree(q->partials);
        (void)cudaStreamDestroy(q->stream);
    }
    (void)cudaGetLastError();
    free(q);
}

int32_t accel_cuda__queue_finish(void *vctx, accel_be_queue *q)
{
    accel_cuda_ctx *ctx = vctx;
    int32_t st = accel_cuda__set_device(ctx, q->device);
    if (st != ACCEL_SUCCESS)
        return st;
    cudaError_t err = cudaStreamSynchronize(q->stream);
    if (err != cudaSuccess)
        return accel_cuda__fail_async(ctx, err, "accel_queue_finish", q->last_op);
    return ACCEL_SUCCESS;
}

int32_t accel_cuda__queue_host_fn(void *vctx, accel_be_queue *q, accel_host_fn fn, void *user)
{
    accel_cuda_ctx *ctx = vctx;
    int32_t st = accel_cuda__set_device(ctx, q->device);
    if (st != ACCEL_SUCCESS)
        return st;
    cudaError_t err = cudaLaunchHostFunc(q->stream, fn, user);
    return err == cudaSuccess ? ACCEL_SUCCESS : accel_cuda__fail(ctx, err, "cudaLaunchHostFunc");
}

/* ------------------------------------------------------------ transfers */

/* True when [p, p+bytes) is page-locked or otherwise directly usable by DMA
 * (cudaHostAlloc, cudaHostRegister, managed memory). Both ends are checked so
 * a range running past a pinned block falls back to staging. */
static int is_pinned(const void *p, size_t bytes)
{
    const void *ends[2] = {p, (const char *)p + (bytes ? bytes - 1 : 0)};
    for (int i = 0; i < 2; ++i) {
        struct cudaPointerAttributes attr;
        if (cudaPointerGetAttributes(&attr, ends[i]) != cudaSuccess) {
            (void)cudaGetLastError();
            return 0;
        }
        if (attr.type != cudaMemoryTypeHost && attr.type != cudaMemoryTypeManaged)
            return 0;
    }
    return 1;
}

static int32_t ensure_staging(accel_cuda_ctx *ctx, accel_be_queue *q)
{
    if (q->staging_ready)
        return ACCEL_SUCCESS;
    if (accel_cuda__ring_take(ctx, q)) { /* a released queue's ring */
        q->staging_ready = 1;
        q->next_chunk = 0;
        return ACCEL_SUCCESS;
    }
    int i;
    cudaError_t err = cudaSuccess;
    for (i = 0; i < ACCEL_CUDA_STAGING_CHUNKS; ++i) {
        if ((err = cudaHostAlloc(&q->chunk[i], ACCEL_CUDA_STAGING_CHUNK_BYTES,
                                 cudaHostAllocPortable)) != cudaSuccess)
            break;
        accel_cuda__host_touch(q->chunk[i], ACCEL_CUDA_STAGING_CHUNK_BYTES);
        if ((err = cudaEventCreateWithFlags(&q->chunk_done[i], cudaEventDisableTiming)) !=
            cudaSuccess) {
            (void)cudaFreeHost(q->chunk[i]);
            break;
        }
    }
    if (err == cudaSuccess) {
        q->staging_ready = 1;
        q->next_chunk = 0;
        return ACCEL_SUCCESS;
    }
    int32_t st = accel_cuda__fail(ctx, err, "allocating the pinned staging ring");
    while (i-- > 0) {
        (void)cudaEventDestroy(q->chunk_done[i]);
        (void)cudaFreeHost(q->chunk[i]);
    }
    (void)cudaGetLastError();
    return st == ACCEL_ERROR_DEVICE ? st : ACCEL_ERROR_OUT_OF_HOST_MEMORY;
}

/* Pageable transfers through the queue's ring (hostcopy.c's ring copy):
 * a slot's DMA on the queue's stream, then its event. */
typedef struct staged {
    accel_cuda_ctx *ctx;
    accel_be_queue *q;
    char *dev; /* the device end of the transfer */
    int to_device;
} staged;

static int32_t staged_start(void *user, unsigned slot, size_t off, size_t len)
{
    staged *t = user;
    accel_be_queue *q = t->q;
    cudaError_t err =
        t->to_device
            ? cudaMemcpyAsync(t->dev + off, q->chunk[slot], len, cudaMemcpyHostToDevice, q->stream)
            : cudaMemcpyAsync(q->chunk[slot], t->dev + off, len, cudaMemcpyDeviceToHost, q->stream);
    if (err == cudaSuccess)
        err = cudaEventRecord(q->chunk_done[slot], q->stream);
    return err == cudaSuccess
               ? ACCEL_SUCCESS
               : accel_cuda__fail(t->ctx, err,
                                  t->to_device ? "accel_queue_write: cudaMemcpyAsync"
                                               : "accel_queue_read: cudaMemcpyAsync");
}

static int32_t staged_done(void *user, unsigned slot, int *out_done)
{
    staged *t = user;
    cudaError_t err = cudaEventQuery(t->q->chunk_done[slot]);
    *out_done = err == cudaSuccess;
    if (err == cudaSuccess || err == cudaErrorNotReady) {
        (void)cudaGetLastError();
        return ACCEL_SUCCESS;
    }
    return accel_cuda__fail_async(
        t->ctx, err, t->to_device ? "accel_queue_write" : "accel_queue_read", t->q->last_op);
}

/* Pageable host <-> device: the write returns once every byte is in the
 * ring (its DMAs queued), the read once every byte is in dst. */
static int32_t staged_copy(accel_cuda_ctx *ctx, accel_be_queue *q, char *dev, void *host,
                           size_t bytes, int to_device)
{
    int32_t st = ensure_staging(ctx, q);
    if (st != ACCEL_SUCCESS)
        return st;
    static const accel_cuda_ring_ops ops = {staged_start, staged_done};
    staged t = {ctx, q, dev, to_device};
    const size_t piece = ACCEL_CUDA_STAGING_CHUNK_BYTES;
    st = accel_cuda__ring_copy(ctx, to_device, host, bytes, q->chunk, ACCEL_CUDA_STAGING_CHUNKS,
                               q->next_chunk, piece, &ops, &t);
    q->next_chunk =
        (unsigned)((q->next_chunk + (bytes + piece - 1) / piece) % ACCEL_CUDA_STAGING_CHUNKS);
    return st;
}

int32_t accel_cuda__queue_write(void *vctx, accel_be_queue *q, accel_be_buffer *dst,
                                size_t dst_offset, const void *src, size_t bytes)
{
    accel_cuda_ctx *ctx = vctx;
    if (bytes == 0)
        return ACCEL_SUCCESS;
    int32_t st = accel_cuda__set_device(ctx, q->device);
    if (st != ACCEL_SUCCESS)
        return st;
    char *d = (char *)accel_cuda__buffer_ptr(dst) + dst_offset;
    if (bytes > ACCEL_CUDA_DIRECT_PAGEABLE_BYTES && !is_pinned(src, bytes))
        return staged_copy(ctx, q, d, (void *)src, bytes, 1);
    cudaError_t err = cudaMemcpyAsync(d, src, bytes, cudaMemcpyHostToDevice, q->stream);
    return err == cudaSuccess ? ACCEL_SUCCESS
                              : accel_cuda__fail(ctx, err, "accel_queue_write: cudaMemcpyAsync");
}

int32_t accel_cuda__queue_read(void *vctx, accel_be_queue *q, accel_be_buffer *src,
                               size_t src_offset, void *dst, size_t bytes)
{
    accel_cuda_ctx *ctx = vctx;
    if (bytes == 0)
        return ACCEL_SUCCESS;
    int32_t st = accel_cuda__set_device(ctx, q->device);
    if (st != ACCEL_SUCCESS)
        return st;
    const char *s = (const char *)accel_cuda__buffer_ptr(src) + src_offset;
    if (bytes > ACCEL_CUDA_DIRECT_PAGEABLE_BYTES && !is_pinned(dst, bytes))
        return staged_copy(ctx, q, (char *)s, dst, bytes, 0);
    cudaError_t err = cudaMemcpyAsync(dst, s, bytes, cudaMemcpyDeviceToHost, q->stream);
    return err == cudaSuccess ? ACCEL_SUCCESS
                              : accel_cuda__fail(ctx, err, "accel_queue_read: cudaMemcpyAsync");
}

int32_t accel_cuda__queue_copy(void *vctx, accel_be_queue *q, accel_be_buffer *src,
                               size_t src_offset, accel_be_buffer *dst, size_t dst_offset,
                               size_t bytes)
{
    accel_cuda_ctx *ctx = vctx;
    if (bytes == 0)
        return ACCEL_SUCCESS;
    int32_t st = accel_cuda__set_device(ctx, q->device);
    if (st != ACCEL_SUCCESS)
        return st;
    const char *s = (const char *)accel_cuda__buffer_ptr(src) + src_offset;
    char *d = (char *)accel_cuda__buffer_ptr(dst) + dst_offset;
    cudaError_t err;
    if (src->device == dst->device)
        err = cudaMemcpyAsync(d, s, bytes, cudaMemcpyDeviceToDevice, q->stream);
    else /* direct where peer access was enabled at init, else via the host */
        err = cudaMemcpyPeerAsync(d, ctx->devices[dst->device].ordinal, s,
                                  ctx->devices[src->device].ordinal, bytes, q->stream);
    return err == cudaSuccess ? ACCEL_SUCCESS
                              : accel_cuda__fail(ctx, err, "accel_queue_copy: cudaMemcpyAsync");
}

/* --------------------------------------------------------------- events */

int32_t accel_cuda__event_create(void *vctx, uint32_t device, accel_be_event **out)
{
    accel_cuda_ctx *ctx = vctx;
    *out = NULL;
    int32_t st;
    accel_be_event *ev = record_new(ctx, device, sizeof *ev, "an event", &st);
    if (!ev)
        return st;
    ev->device = device;
    /* Default flags keep timing on (accel_event_elapsed_ms). */
    cudaError_t err = cudaEventCreateWithFlags(&ev->event, cudaEventDefault);
    if (err != cudaSuccess) {
        free(ev);
        return accel_cuda__fail(ctx, err, "cudaEventCreate");
    }
    accel_cuda__set_name(ev->last_op, "none");
    *out = ev;
    return ACCEL_SUCCESS;
}

void accel_cuda__event_destroy(void *vctx, accel_be_event *ev)
{
    accel_cuda_ctx *ctx = vctx;
    if (!ev)
        return;
    /* cudaEventDestroy on a pending event is fine: resources go when done. */
    if (accel_cuda__set_device(ctx, ev->device) == ACCEL_SUCCESS)
        (void)cudaEventDestroy(ev->event);
    (void)cudaGetLastError();
    free(ev);
}

int32_t accel_cuda__event_record(void *vctx, accel_be_event *ev, accel_be_queue *q)
{
    accel_cuda_ctx *ctx = vctx;
    int32_t st = accel_cuda__set_device(ctx, q->device);
    if (st != ACCEL_SUCCESS)
        return st;
    cudaError_t err = cudaEventRecord(ev->event, q->stream);
    if (err != cudaSuccess)
        return accel_cuda__fail(ctx, err, "cudaEventRecord");
    accel_cuda__set_name(ev->last_op, q->last_op);
    return ACCEL_SUCCESS;
}

int32_t accel_cuda__queue_wait_event(void *vctx, accel_be_queue *q, accel_be_event *ev)
{
    accel_cuda_ctx *ctx = vctx;
    int32_t st = accel_cuda__set_device(ctx, q->device);
    if (st != ACCEL_SUCCESS)
        return st;
    /* Works across devices: the event may belong to another GPU. */
    cudaError_t err = cudaStreamWaitEvent(q->stream, ev->event, 0);
    return err == cudaSuccess ? ACCEL_SUCCESS : accel_cuda__fail(ctx, err, "cudaStreamWaitEvent");
}

int32_t accel_cuda__event_synchronize(void *vctx, accel_be_event *ev)
{
    accel_cuda_ctx *ctx = vctx;
    int32_t st = accel_cuda__set_device(ctx, ev->device);
    if (st != ACCEL_SUCCESS)
        return st;
    cudaError_t err = cudaEventSynchronize(ev->event);
    if (err != cudaSuccess)
        return accel_cuda__fail_async(ctx, err, "accel_event_synchronize", ev->last_op);
    return ACCEL_SUCCESS;
}

int32_t accel_cuda__event_query(void *vctx, accel_be_event *ev, int *out_done)
{
    accel_cuda_ctx *ctx = vctx;
    *out_done = 0;
    int32_t st = accel_cuda__set_device(ctx, ev->device);
    if (st != ACCEL_SUCCESS)
        return st;
    cudaError_t err = cudaEventQuery(ev->event);
    if (err == cudaSuccess) {
        *out_done = 1;
        return ACCEL_SUCCESS;
    }
    if (err == cudaErrorNotReady) {
        (void)cudaGetLastError();
        return ACCEL_SUCCESS;
    }
    return accel_cuda__fail_async(ctx, err, "accel_event_query", ev->last_op);
}

int32_t accel_cuda__event_elapsed_ms(void *vctx, accel_be_event *start, accel_be_event *end,
                                     double *out_ms)
{
    accel_cuda_ctx *ctx = vctx;
    *out_ms = 0.0;
    int32_t st = accel_cuda__set_device(ctx, start->device);
    if (st != ACCEL_SUCCESS)
        return st;
    float ms = 0.0f;
    cudaError_t err = cudaEventElapsedTime(&ms, start->event, end->event);
    if (err == cudaSuccess) {
        *out_ms = ms;
        return ACCEL_SUCCESS;
    }
    (void)cudaGetLastError();
    if (err == cudaErrorNotReady) {
        ctx->host->set_error(ctx->host->host_ctx,
                             "accel_event_elapsed_ms: an event has not completed yet");
        return ACCEL_ERROR_INVALID_ARGUMENT;
    }
    if (err == cudaErrorInvalidResourceHandle) {
        ctx->host->set_error(ctx->host->host_ctx,
                             "accel_event_elapsed_ms: an event was never recorded");
        return ACCEL_ERROR_INVALID_ARGUMENT;
    }
    return accel_cuda__fail(ctx, err, "cudaEventElapsedTime");
}
