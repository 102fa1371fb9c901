/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* cuda_internal.h — what the CUDA backend's files share: the plugin's objects
 * (context, device, buffer, queue, event), status helpers, the caching
 * allocator and the kernel launchers of the .cu files. C-compatible: the host
 * glue is C11, the kernels are CUDA C++ behind extern "C" launchers. */
#ifndef ACCEL_CUDA_INTERNAL_H
#define ACCEL_CUDA_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "../common/dtype.h"
#include "accel/backend.h"
#include "cublas_loader.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ allocator */

/* Size classes: 512 B, then four per power of two (512, 640, 768, 896,
 * 1024, 1280, ...), so a block wastes at most 25% and any cached block of a
 * class serves any request of that class. */
#define ACCEL_CUDA_NUM_CLASSES 224

typedef struct cuda_block {
    struct cuda_block *next; /* free-list link while cached */
    void *ptr;
    size_t size; /* bytes actually allocated (>= the class size of its list) */
} cuda_block;

typedef struct cuda_allocator {
    pthread_mutex_t lock;
    int caching;
    cuda_block *free_list[ACCEL_CUDA_NUM_CLASSES];
    uint64_t in_use;        /* bytes of live buffers (block sizes) */
    uint64_t cached;        /* bytes in the free lists */
    uint64_t peak_in_use;   /* high-water mark of in_use */
    uint64_t peak_reserved; /* high-water mark of in_use + cached */
    uint64_t mallocs, hits, flushes;
} cuda_allocator;

/* -------------------------------------------------------------- objects */

typedef struct cuda_device {
    int ordinal; /* CUDA device number */
    uint32_t sm_count;
    uint32_t max_blocks; /* grid size cap for grid-stride kernels */
    uint32_t compute_capability;
    int tf32; /* plugins.ini: GEMM f32 may use TF32 on this device */
    char name[128];
    cuda_allocator alloc;
} cuda_device;

typedef struct accel_cuda_ctx {
    const accel_host_services *host;
    uint32_t device_count;
    cuda_device *devices;
    char driver_version[32];
    char runtime_version[32];
    accel_cublas_api blas; /* loaded at init; GEMM is unsupported without it */
    /* Host copy threads of staged transfers (hostcopy.c), made on first use. */
    pthread_mutex_t copy_pool_lock;
    struct accel_cuda_copy_pool *copy_pool;
    int copy_pool_tried;
    unsigned copy_threads; /* [backend.cuda] copy_threads; 0: from the cores */
    /* Staging rings of released queues (hostcopy.c), under copy_pool_lock. */
    struct accel_cuda_spare_ring *spare_rings;
    unsigned spare_count;
} accel_cuda_ctx;

struct accel_be_buffer {
    uint32_t device;
    size_t bytes;      /* requested */
    cuda_block *block; /* NULL for a 0-byte or a wrapped buffer */
    void *wrapped;     /* buffer_wrap: someone else's device memory, never freed here */
};

/* 16 x 4 MiB: a piece's DMA starts as soon as its host copy is done (about
 * 75 us on the link), while the copy threads go on with the next pieces;
 * the host copy of a piece (tens of microseconds on several threads) still
 * dwarfs the CUDA calls around it. */
#define ACCEL_CUDA_STAGING_CHUNKS 16
#define ACCEL_CUDA_STAGING_CHUNK_BYTES ((size_t)4 << 20)
/* Pageable transfers up to this size go straight to cudaMemcpyAsync (the
 * driver stages them itself); larger ones use the queue's pinned ring. */
#define ACCEL_CUDA_DIRECT_PAGEABLE_BYTES ((size_t)64 << 10)
#define ACCEL_CUDA_OP_NAME_MAX 64

struct accel_be_queue {
    uint32_t device;
    cudaStream_t stream;
    void *blas;       /* cublasHandle_t, created on the first GEMM */
    void *fft;        /* cuFFT plans of this stream (cufft.cu), made on the first FFT */
    double *partials; /* reduction scratch: max_blocks doubles, queue-private */
    /* Pinned staging ring for pageable transfers, allocated on first use. */
    void *chunk[ACCEL_CUDA_STAGING_CHUNKS];
    cudaEvent_t chunk_done[ACCEL_CUDA_STAGING_CHUNKS];
    int staging_ready;
    unsigned next_chunk;
    char last_op[ACCEL_CUDA_OP_NAME_MAX]; /* name of the last op enqueued */
};

struct accel_be_event {
    uint32_t device;
    cudaEvent_t event;
    char last_op[ACCEL_CUDA_OP_NAME_MAX]; /* recording queue's last op then */
};

/* ------------------------------------------------ statuses (status.c) */

/* Map a CUDA error to a status, report it through host->set_error as
 * "WHAT: cudaErrorName: description", and clear CUDA's last-error state so a
 * non-sticky failure (out of memory) does not resurface in a later call. */
int32_t accel_cuda__fail(const accel_cuda_ctx *ctx, cudaError_t err, const char *what);
/* Same for a failure found while running queued work: ACCEL_ERROR_DEVICE
 * naming the last op enqueued before it. */
int32_t accel_cuda__fail_async(const accel_cuda_ctx *ctx, cudaError_t err, const char *what,
                               const char *last_op);
/* Make `device` current on the calling thread (threads may change). */
int32_t accel_cuda__set_device(const accel_cuda_ctx *ctx, uint32_t device);
void accel_cuda__set_name(char dst[ACCEL_CUDA_OP_NAME_MAX], const char *name);

/* ------------------------------------------------------------ allocator */

void accel_cuda__alloc_init(cuda_allocator *a, int caching);
/* Allocate on the current device; retries once after freeing the cache. */
int32_t accel_cuda__alloc(const accel_cuda_ctx *ctx, cuda_device *dev, size_t bytes,
                          cuda_block **out);
void accel_cuda__release(const accel_cuda_ctx *ctx, cuda_device *dev, cuda_block *b);
/* Free every cached block (device must be current). */
void accel_cuda__alloc_flush(cuda_allocator *a);
void accel_cuda__alloc_destroy(const accel_cuda_ctx *ctx, cuda_device *dev);

/* The backend's host copy threads (hostcopy.c, made by the first large
 * ring copy): shutdown joins them and frees the spare rings. */
void accel_cuda__host_copy_shutdown(accel_cuda_ctx *ctx);
/* [backend.cuda] copy_threads (NULL: not set): 0 or a count up to 16, else
 * ACCEL_ERROR_CONFIG with the reason. */
int32_t accel_cuda__host_copy_configure(accel_cuda_ctx *ctx, const char *value);
/* Threads a large staged copy is split over, the caller included. */
unsigned accel_cuda__host_copy_threads(const accel_cuda_ctx *ctx);
/* A transfer between pageable memory and the device through a ring of k
 * page-locked slots of `piece` bytes (k <= ACCEL_CUDA_STAGING_CHUNKS): the
 * backend's copy threads copy the pieces between host and the slots, in
 * order, and go on with the next piece while the DMAs of the earlier ones
 * run; ops start a slot's DMA and say whether it is done. Piece p (bytes
 * [p * piece, ...) of the transfer) uses slot (first + p) % k. To the
 * device (to_device): a slot is filled once its last DMA is done, its DMA
 * starts once it is full; returns once every piece's DMA is started. To the
 * host: a slot's DMA starts once its previous piece is copied out; returns
 * once every piece is in host memory. One transfer at a time uses the
 * threads; another meanwhile copies alone. Returns 0 or the first error of
 * ops (every copy thread is out of the transfer's memory by then). */
typedef struct accel_cuda_ring_ops {
    /* Start the DMA of bytes [off, off + len) of the transfer in `slot`:
     * 0, or an error status with its message set. */
    int32_t (*start)(void *user, unsigned slot, size_t off, size_t len);
    /* *out_done = 1 when slot's last DMA is done (or there was none), 0 when
     * not yet: 0, or an error status with its message set. */
    int32_t (*done)(void *user, unsigned slot, int *out_done);
} accel_cuda_ring_ops;
int32_t accel_cuda__ring_copy(accel_cuda_ctx *ctx, int to_device, void *host, size_t bytes,
                              void *const *slots, unsigned k, unsigned first, size_t piece,
                              const accel_cuda_ring_ops *ops, void *user);
/* Write one byte of every page of freshly allocated host memory, so that the
 * first timed copy into it does not take the page faults. */
void accel_cuda__host_touch(void *p, size_t bytes);
/* A released queue's staging ring kept for the next queue of its device
 * (ring_keep: 1 when kept, 0 when the caller must free it; ring_take: 1 when
 * q got one, its chunks' DMAs all done). At most 2 are kept (128 MiB of
 * page-locked memory); host_copy_shutdown frees them. */
int accel_cuda__ring_keep(accel_cuda_ctx *ctx, const struct accel_be_queue *q);
int accel_cuda__ring_take(accel_cuda_ctx *ctx, struct accel_be_queue *q);

/* ---------------------------------------------------------- entry points */

int32_t accel_cuda__buffer_alloc(void *ctx, uint32_t device, size_t bytes, accel_be_buffer **out);
void accel_cuda__buffer_free(void *ctx, accel_be_buffer *buf);
int32_t accel_cuda__buffer_wrap(void *ctx, uint32_t device, void *ptr, size_t bytes,
                                accel_be_buffer **out);
void *accel_cuda__buffer_native_ptr(void *ctx, accel_be_buffer *buf);
void *accel_cuda__queue_native(void *ctx, accel_be_queue *q);
int32_t accel_cuda__host_alloc(void *ctx, size_t bytes, void **out);
void accel_cuda__host_free(void *ctx, void *ptr);
int32_t accel_cuda__host_register(void *ctx, void *ptr, size_t bytes);
int32_t accel_cuda__host_unregister(void *ctx, void *ptr);

int32_t accel_cuda__queue_create(void *ctx, uint32_t device, accel_be_queue **out);
void accel_cuda__queue_destroy(void *ctx, accel_be_queue *q);
int32_t accel_cuda__queue_finish(void *ctx, accel_be_queue *q);
int32_t accel_cuda__queue_write(void *ctx, accel_be_queue *q, accel_be_buffer *dst,
                                size_t dst_offset, const void *src, size_t bytes);
int32_t accel_cuda__queue_read(void *ctx, accel_be_queue *q, accel_be_buffer *src,
                               size_t src_offset, void *dst, size_t bytes);
int32_t accel_cuda__queue_copy(void *ctx, accel_be_queue *q, accel_be_buffer *src,
                               size_t src_offset, accel_be_buffer *dst, size_t dst_offset,
                               size_t bytes);
int32_t accel_cuda__queue_host_fn(void *ctx, accel_be_queue *q, accel_host_fn fn, void *user);
int32_t accel_cuda__event_create(void *ctx, uint32_t device, accel_be_event **out);
void accel_cuda__event_destroy(void *ctx, accel_be_event *ev);
int32_t accel_cuda__event_record(void *ctx, accel_be_event *ev, accel_be_queue *q);
int32_t accel_cuda__queue_wait_event(void *ctx, accel_be_queue *q, accel_be_event *ev);
int32_t accel_cuda__event_synchronize(void *ctx, accel_be_event *ev);
int32_t accel_cuda__event_query(void *ctx, accel_be_event *ev, int *out_done);
int32_t accel_cuda__event_elapsed_ms(void *ctx, accel_be_event *start, accel_be_event *end,
                                     double *out_ms);

/* Collectives through NCCL, loaded on first use (nccl.c). */
int32_t accel_cuda__comm_id(void *ctx, uint32_t device, void *out_id, size_t id_bytes);
int32_t accel_cuda__comm_create(void *ctx, uint32_t device, const void *id, size_t id_bytes,
                                int32_t nranks, int32_t rank, accel_be_comm **out);
void accel_cuda__comm_destroy(void *ctx, accel_be_comm *comm);
int32_t accel_cuda__comm_execute(void *ctx, accel_be_queue *q, accel_be_comm *comm,
                                 const accel_be_collective *d);

int32_t accel_cuda__op_supported(void *ctx, uint32_t device, const accel_op_desc *desc);
int32_t accel_cuda__op_execute(void *ctx, accel_be_queue *q, const accel_op_desc *desc);
/* nvrtc.c: user kernels (program entries; ACCEL_OP_KERNEL launches). */
int32_t accel_cuda__program_identity(void *ctx, uint32_t device, uint32_t language, char *out,
                                     size_t size);
int32_t accel_cuda__program_build(void *ctx, uint32_t device, const accel_program_desc *d,
                                  accel_be_program **out, const void **out_binary,
                                  size_t *out_binary_size);
void accel_cuda__program_release(void *ctx, accel_be_program *p);
int32_t accel_cuda__kernel_launch(accel_cuda_ctx *ctx, accel_be_queue *q, const accel_op_desc *d);
/* graph.c: the graph entries (stream capture into a cudaGraph). */
int32_t accel_cuda__graph_instantiate(void *ctx, uint32_t device,
                                      const accel_graph_node_desc *nodes, size_t n,
                                      accel_be_graph **out);
int32_t accel_cuda__graph_launch(void *ctx, accel_be_queue *q, accel_be_graph *graph);
int32_t accel_cuda__graph_update(void *ctx, accel_be_graph *graph, size_t index,
                                 const accel_graph_node_desc *node);
void accel_cuda__graph_destroy(void *ctx, accel_be_graph *graph);
/* Destroy a queue's cuBLAS handle (ops.c owns cuBLAS). */
void accel_cuda__blas_destroy(const accel_cuda_ctx *ctx, accel_be_queue *q);

static inline void *accel_cuda__buffer_ptr(const accel_be_buffer *b)
{
    return b->block ? b->block->ptr : b->wrapped;
}

/* -------------------------------------------------------------- kernels */

/* Launchers in the .cu files. Each enqueues on `stream` (device current),
 * with at most max_blocks blocks, and returns the launch status. n == 0
 * launches nothing. dtype is ACCEL_F32 or ACCEL_F64. */
cudaError_t accel_cuda__launch_fill(cudaStream_t stream, uint32_t max_blocks, uint32_t dtype,
                                    void *out, size_t n, double value);
cudaError_t accel_cuda__launch_binary(cudaStream_t stream, uint32_t max_blocks, uint32_t op,
                                      uint32_t dtype, const void *a, const void *b, void *out,
                                      size_t n);
cudaError_t accel_cuda__launch_unary(cudaStream_t stream, uint32_t max_blocks, uint32_t op,
                                     uint32_t dtype, const void *x, void *out, size_t n);
cudaError_t accel_cuda__launch_scale(cudaStream_t stream, uint32_t max_blocks, uint32_t dtype,
                                     double alpha, const void *x, void *out, size_t n);
cudaError_t accel_cuda__launch_axpby(cudaStream_t stream, uint32_t max_blocks, uint32_t dtype,
                                     double alpha, const void *x, double beta, void *y, size_t n);
/* SUM, REDUCE_MAX, REDUCE_MIN (y NULL) or DOT; writes one element to out.
 * partials: max_blocks doubles of queue-private device scratch. */
cudaError_t accel_cuda__launch_reduce(cudaStream_t stream, uint32_t max_blocks, uint32_t op,
                                      uint32_t dtype, const void *x, const void *y, size_t n,
                                      double *partials, void *out);
/* RANDOM_UNIFORM or RANDOM_NORMAL; out[i] is stream element offset + i. */
cudaError_t accel_cuda__launch_random(cudaStream_t stream, uint32_t max_blocks, uint32_t op,
                                      uint32_t dtype, uint64_t seed, uint64_t offset, double mean,
                                      double stddev, void *out, size_t n);
/* C[b][i][j] = beta == 0 ? 0 : beta*C[b][i][j] for GEMM with k == 0;
 * dtype may also be ACCEL_F16 or ACCEL_BF16. */
cudaError_t accel_cuda__launch_scale_matrix(cudaStream_t stream, uint32_t max_blocks,
                                            uint32_t dtype, void *c, size_t batch, size_t m,
                                            size_t n, size_t ldc, size_t stride_c, double beta);
/* out = x^T: x is rows x cols (leading dimension ldx), out cols x rows (ldo);
 * dtype may also be ACCEL_F16 or ACCEL_BF16 (moved as 2-byte words). */
cudaError_t accel_cuda__launch_transpose(cudaStream_t stream, uint32_t max_blocks, uint32_t dtype,
                                         const void *x, size_t ldx, void *out, size_t ldo,
                                         size_t rows, size_t cols);
/* ACCEL_OP_SORT and (arg != 0) ACCEL_OP_ARGSORT (kernels_sort.cu, CUB):
 * x's m x n x k block sorted along its middle axis into out (x == out
 * allowed), or the int64 indices that sort it; backend.h's order. */
cudaError_t accel_cuda__launch_sort(cudaStream_t stream, uint32_t max_blocks, uint32_t dtype,
                                    const void *x, void *out, size_t m, size_t n, size_t k,
                                    int descending, int arg);
/* kernels_scan.cu: ACCEL_OP_CUMSUM of m contiguous lines of n elements (the
 * op's k == 1) through CUB's DeviceScan; floats summed in double; wide:
 * ACCEL_OP_FLAG_SCAN_WIDE's 64-bit out. */
cudaError_t accel_cuda__launch_scan(cudaStream_t stream, uint32_t dtype, int wide, const void *x,
                                    void *out, size_t m, size_t n);
/* linalg.cu: the LINALG ops through cuSOLVER (opened on first use):
 * whether d can run here (f32/f64, cuSOLVER loaded), and d run on q (waits
 * for q's stream to read LAPACK's info; ACCEL_ERROR_LINALG naming the
 * problem when the values defeat the routine). */
int32_t accel_cuda__linalg_supported(const accel_cuda_ctx *ctx, const accel_op_desc *d);
int32_t accel_cuda__linalg(accel_cuda_ctx *ctx, accel_be_queue *q, const accel_op_desc *d,
                           const char *name);
/* ACCEL_OP_FFT, _RFFT, _IRFFT through cuFFT (cufft.cu, opened on first
 * use): supported when the dtype is complex and cuFFT loads; run x -> y on
 * q's stream (backend.h's geometry and scale); the queue's plans are
 * destroyed with it (accel_cuda__fft_destroy, after its stream is done). */
int32_t accel_cuda__fft_supported(const accel_cuda_ctx *ctx, const accel_op_desc *d);
int32_t accel_cuda__fft(const accel_cuda_ctx *ctx, accel_be_queue *q, const accel_op_desc *d,
                        const void *x, void *y, const char *name);
void accel_cuda__fft_destroy(accel_be_queue *q);
/* cudaSuccess when this build's kernels can run on the current device. */
cudaError_t accel_cuda__probe_kernels(void);

#ifdef __cplusplus
}
#endif
#endif /* ACCEL_CUDA_INTERNAL_H */
