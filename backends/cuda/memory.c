/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* memory.c — device buffers through a per-device caching allocator, and
 * pinned host memory.
 *
 * cudaMalloc and cudaFree are slow (cudaFree synchronizes the device), so freed
 * blocks go to size-class free lists and serve later requests of their class.
 * Reuse at once is safe because accel_buffer_release requires that no queued
 * work still uses the buffer (accel.h). On out-of-memory the cache is given
 * back to the driver and the allocation retried once, the second time at the
 * exact size instead of the class size (the default memory pool of the ops'
 * cudaMallocAsync scratch is trimmed then too). `caching_allocator = false`
 * in [backend.cuda] makes every free a cudaFree (and leaves that pool
 * giving memory back at each synchronization). Stats are logged at
 * shutdown. */
#include <stdlib.h>

#include "cuda_internal.h"

/* Requests above this are refused without asking the driver (1 PiB). */
#define MAX_ALLOC_BYTES ((size_t)1 << 50)
#define MIN_BLOCK 512u

static size_t class_size(unsigned idx)
{
    return (size_t)(4u + (idx & 3u)) << ((idx >> 2) + 7u);
}

static unsigned floor_log2(size_t v)
{
    unsigned e = 0;
    while (v >>= 1)
        ++e;
    return e;
}

/* Smallest class whose size is >= bytes (bytes <= MAX_ALLOC_BYTES). */
static unsigned class_ceil(size_t bytes)
{
    if (bytes <= MIN_BLOCK)
        return 0;
    size_t b = bytes - 1;
    unsigned e = floor_log2(b);                    /* >= 9 */
    unsigned top = (unsigned)(b >> (e - 2u)) + 1u; /* 5..8: size top << (e-2) >= bytes */
    if (top == 8u)
        return 4u * (e - 8u);
    return 4u * (e - 9u) + (top - 4u);
}

/* Largest class whose size is <= bytes (bytes >= MIN_BLOCK). */
static unsigned class_floor(size_t bytes)
{
    unsigned e = floor_log2(bytes);
    unsigned top = (unsigned)(bytes >> (e - 2u)); /* 4..7 */
    return 4u * (e - 9u) + (top - 4u);
}

void accel_cuda__alloc_init(cuda_allocator *a, int caching)
{
    pthread_mutex_init(&a->lock, NULL);
    a->caching = caching;
}

/* Detach every cached block under the lock; the caller cudaFrees them. */
static cuda_block *take_cache(cuda_allocator *a)
{
    cuda_block *all = NULL;
    pthread_mutex_lock(&a->lock);
    for (unsigned i = 0; i < ACCEL_CUDA_NUM_CLASSES; ++i) {
        while (a->free_list[i]) {
            cuda_block *b = a->free_list[i];
            a->free_list[i] = b->next;
            b->next = all;
            all = b;
        }
    }
    a->cached = 0;
    pthread_mutex_unlock(&a->lock);
    return all;
}

void accel_cuda__alloc_flush(cuda_allocator *a)
{
    cuda_block *b = take_cache(a);
    while (b) {
        cuda_block *next = b->next;
        /* cudaFree synchronizes the device first; cached blocks are unused. */
        (void)cudaFree(b->ptr);
        free(b);
        b = next;
    }
    /* and the ops' scratch that the current device's default pool keeps
     * (plugin.c sets it to keep all): what no queued free still holds */
    int dev = 0;
    cudaMemPool_t pool;
    if (cudaGetDevice(&dev) == cudaSuccess &&
        cudaDeviceGetDefaultMemPool(&pool, dev) == cudaSuccess)
        (void)cudaMemPoolTrimTo(pool, 0);
    (void)cudaGetLastError();
}

static void account_alloc(cuda_allocator *a, size_t size)
{
    a->in_use += size;
    if (a->in_use > a->peak_in_use)
        a->peak_in_use = a->in_use;
    if (a->in_use + a->cached > a->peak_reserved)
        a->peak_reserved = a->in_use + a->cached;
}

int32_t accel_cuda__alloc(const accel_cuda_ctx *ctx, cuda_device *dev, size_t bytes,
                          cuda_block **out)
{
    cuda_allocator *a = &dev->alloc;
    *out = NULL;
    if (bytes > MAX_ALLOC_BYTES) {
        ctx->host->set_error(ctx->host->host_ctx, "buffer of %zu bytes is larger than any device",
                             bytes);
        return ACCEL_ERROR_OUT_OF_DEVICE_MEMORY;
    }
    unsigned cls = class_ceil(bytes);
    size_t size = a->caching ? class_size(cls) : bytes;

    if (a->caching) {
        pthread_mutex_lock(&a->lock);
        cuda_block *b = a->free_list[cls];
        if (b) {
            a->free_list[cls] = b->next;
            a->cached -= b->size;
            a->hits++;
            account_alloc(a, b->size);
            pthread_mutex_unlock(&a->lock);
            b->next = NULL;
            *out = b;
            return ACCEL_SUCCESS;
        }
        pthread_mutex_unlock(&a->lock);
    }

    cuda_block *b = calloc(1, sizeof *b);
    if (!b) {
        ctx->host->set_error(ctx->host->host_ctx, "out of host memory for a buffer record");
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    cudaError_t err = cudaMalloc(&b->ptr, size);
    if (err == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        pthread_mutex_lock(&a->lock);
        a->flushes++;
        pthread_mutex_unlock(&a->lock);
        accel_cuda__alloc_flush(a);
        /* Retry at the exact size (512-byte granules): near the limit the
         * class's up-to-25% slack may be what does not fit. */
        size = (bytes + MIN_BLOCK - 1) / MIN_BLOCK * MIN_BLOCK;
        if (size < MIN_BLOCK)
            size = MIN_BLOCK;
        if (!a->caching)
            size = bytes;
        err = cudaMalloc(&b->ptr, size);
    }
    if (err != cudaSuccess) {
        free(b);
        size_t free_b = 0, total_b = 0;
        (void)cudaGetLastError();
        (void)cudaMemGetInfo(&free_b, &total_b);
        int32_t st = accel_cuda__fail(ctx, err, "cudaMalloc");
        ctx->host->set_error(ctx->host->host_ctx,
                             "cudaMalloc of %zu bytes on cuda device %d: %s: %s (%zu of %zu bytes "
                             "free after emptying the cache)",
                             size, dev->ordinal, cudaGetErrorName(err), cudaGetErrorString(err),
                             free_b, total_b);
        (void)cudaGetLastError();
        return st;
    }
    b->size = size;
    pthread_mutex_lock(&a->lock);
    a->mallocs++;
    account_alloc(a, size);
    pthread_mutex_unlock(&a->lock);
    *out = b;
    return ACCEL_SUCCESS;
}

void accel_cuda__release(const accel_cuda_ctx *ctx, cuda_device *dev, cuda_block *b)
{
    cuda_allocator *a = &dev->alloc;
    pthread_mutex_lock(&a->lock);
    a->in_use -= b->size;
    if (a->caching && b->size >= MIN_BLOCK) {
        unsigned cls = class_floor(b->size);
        b->next = a->free_list[cls];
        a->free_list[cls] = b;
        a->cached += b->size;
        pthread_mutex_unlock(&a->lock);
        return;
    }
    pthread_mutex_unlock(&a->lock);
    if (accel_cuda__set_device(ctx, (uint32_t)(dev - ctx->devices)) == ACCEL_SUCCESS)
        (void)cudaFree(b->ptr);
    (void)cudaGetLastError();
    free(b);
}

static double mib(uint64_t b)
{
    return (double)b / (1024.0 * 1024.0);
}

void accel_cuda__alloc_destroy(const accel_cuda_ctx *ctx, cuda_device *dev)
{
    cuda_allocator *a = &dev->alloc;
    ctx->host->log(ctx->host->host_ctx, ACCEL_LOG_INFO,
                   "cuda device %d allocator (%s): peak in use %.1f MiB, peak reserved %.1f MiB, "
                   "cached at exit %.1f MiB, in use at exit %.1f MiB, %llu cudaMalloc calls, "
                   "%llu cache hits, %llu cache flushes on out-of-memory",
                   dev->ordinal, a->caching ? "caching" : "not caching", mib(a->peak_in_use),
                   mib(a->peak_reserved), mib(a->cached), mib(a->in_use),
                   (unsigned long long)a->mallocs, (unsigned long long)a->hits,
                   (unsigned long long)a->flushes);
    if (cudaSetDevice(dev->ordinal) == cudaSuccess)
        accel_cuda__alloc_flush(a);
    (void)cudaGetLastError();
    pthread_mutex_destroy(&a->lock);
}

/* -------------------------------------------------------------- buffers */

/* A new buffer record of bytes on device; NULL (message set) when out of
 * host memory. */
static accel_be_buffer *buffer_record(accel_cuda_ctx *ctx, uint32_t device, size_t bytes)
{
    accel_be_buffer *buf = calloc(1, sizeof *buf);
    if (!buf) {
        ctx->host->set_error(ctx->host->host_ctx, "out of host memory for a buffer record");
        return NULL;
    }
    buf->device = device;
    buf->bytes = bytes;
    return buf;
}

int32_t accel_cuda__buffer_alloc(void *vctx, uint32_t device, size_t bytes, accel_be_buffer **out)
{
    accel_cuda_ctx *ctx = vctx;
    *out = NULL;
    accel_be_buffer *buf = buffer_record(ctx, device, bytes);
    if (!buf)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    if (bytes > 0) {
        int32_t st = accel_cuda__set_device(ctx, device);
        if (st == ACCEL_SUCCESS)
            st = accel_cuda__alloc(ctx, &ctx->devices[device], bytes, &buf->block);
        if (st != ACCEL_SUCCESS) {
            free(buf);
            return st;
        }
    }
    *out = buf;
    return ACCEL_SUCCESS;
}

void accel_cuda__buffer_free(void *vctx, accel_be_buffer *buf)
{
    accel_cuda_ctx *ctx = vctx;
    if (!buf)
        return;
    if (buf->block)
        accel_cuda__release(ctx, &ctx->devices[buf->device], buf->block);
    free(buf);
}

/* Zero-copy: device memory from elsewhere (CuPy, PyTorch) as a buffer, and
 * the native pointer and stream for handing accel's out. */
int32_t accel_cuda__buffer_wrap(void *vctx, uint32_t device, void *ptr, size_t bytes,
                                accel_be_buffer **out)
{
    accel_cuda_ctx *ctx = vctx;
    *out = NULL;
    if (bytes > 0) {
        struct cudaPointerAttributes attr;
        cudaError_t err = cudaPointerGetAttributes(&attr, ptr);
        if (err != cudaSuccess ||
            (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged)) {
            (void)cudaGetLastError();
            ctx->host->set_error(ctx->host->host_ctx, "%p is not CUDA device memory (%s)", ptr,
                                 err != cudaSuccess ? cudaGetErrorString(err) : "host memory");
            return ACCEL_ERROR_INVALID_ARGUMENT;
        }
        if (attr.device != ctx->devices[device].ordinal) {
            ctx->host->set_error(ctx->host->host_ctx,
                                 "%p is memory of CUDA device %d, not of device %d", ptr,
                                 attr.device, ctx->devices[device].ordinal);
            return ACCEL_ERROR_DEVICE_MISMATCH;
        }
    }
    accel_be_buffer *buf = buffer_record(ctx, device, bytes);
    if (!buf)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    buf->wrapped = ptr;
    *out = buf;
    return ACCEL_SUCCESS;
}

void *accel_cuda__buffer_native_ptr(void *ctx, accel_be_buffer *buf)
{
    (void)ctx;
    return accel_cuda__buffer_ptr(buf);
}

void *accel_cuda__queue_native(void *ctx, accel_be_queue *q)
{
    (void)ctx;
    return (void *)q->stream;
}

/* ---------------------------------------------------------- pinned host */

int32_t accel_cuda__host_alloc(void *vctx, size_t bytes, void **out)
{
    accel_cuda_ctx *ctx = vctx;
    *out = NULL;
    /* Portable: pinned for every device, not only the current one. */
    cudaError_t err = cudaHostAlloc(out, bytes ? bytes : 1, cudaHostAllocPortable);
    if (err != cudaSuccess) {
        *out = NULL;
        (void)accel_cuda__fail(ctx, err, "cudaHostAlloc");
        ctx->host->set_error(ctx->host->host_ctx, "cudaHostAlloc of %zu bytes: %s", bytes,
                             cudaGetErrorString(err));
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    return ACCEL_SUCCESS;
}

void accel_cuda__host_free(void *vctx, void *ptr)
{
    (void)vctx;
    if (ptr)
        (void)cudaFreeHost(ptr);
    (void)cudaGetLastError();
}

int32_t accel_cuda__host_register(void *vctx, void *ptr, size_t bytes)
{
    accel_cuda_ctx *ctx = vctx;
    /* Portable: pinned for every device, as cudaHostAllocPortable above. */
    cudaError_t err = cudaHostRegister(ptr, bytes, cudaHostRegisterPortable);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        ctx->host->set_error(ctx->host->host_ctx, "cudaHostRegister of %zu bytes at %p: %s", bytes,
                             ptr, cudaGetErrorString(err));
        return err == cudaErrorMemoryAllocation ? ACCEL_ERROR_OUT_OF_HOST_MEMORY
                                                : ACCEL_ERROR_DEVICE;
    }
    return ACCEL_SUCCESS;
}

int32_t accel_cuda__host_unregister(void *vctx, void *ptr)
{
    accel_cuda_ctx *ctx = vctx;
    cudaError_t err = cudaHostUnregister(ptr);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        ctx->host->set_error(ctx->host->host_ctx, "cudaHostUnregister of %p: %s", ptr,
                             cudaGetErrorString(err));
        return ACCEL_ERROR_DEVICE;
    }
    return ACCEL_SUCCESS;
}
