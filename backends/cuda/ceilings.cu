/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* ceilings.cu — the CUDA backend's measure_ceilings entry: what the GPU does
 * when driven directly, without accel's queues and ops, as the yard stick of
 * `accel bench`. Everything runs on a private stream and is timed with CUDA
 * events (medians of `repeats` runs after one warm-up), except the blocking
 * pageable copies and launches, timed on the host clock.
 * - copy: cudaMemcpyAsync device to device, bytes read plus written;
 * - loop: a plain float4 c = a + b kernel (one float4 per thread);
 * - read: a plain float4 sum kernel (bytes read);
 * - GEMM: cublasGemmEx_64 on n x n x n, f32 (CUBLAS_COMPUTE_32F), TF32
 *   (CUBLAS_COMPUTE_32F_FAST_TF32), f16/bf16 (f32 compute), f64: the same
 *   calls the backend makes (same handle setup: default math mode, workspace
 *   and pointer mode, a non-blocking stream, alpha 1, beta 0), made here
 *   directly, on inputs with full-precision random mantissas like those
 *   accel bench feeds its GEMMs (see unit_value);
 * - launch: host time of an empty kernel launch (batches of 200, then a sync);
 * - transfers: cudaMemcpyAsync from/to cudaMallocHost memory, and plain
 *   blocking cudaMemcpy from/to malloc memory;
 * - graph: host time of cudaGraphLaunch + cudaStreamSynchronize of a stream-
 *   captured CUDA graph of 100 dependent plain 1024-element f32 add kernels,
 *   the raw-CUDA form of accel bench's 100-add replay. Its buffers are set by
 *   copies, not kernels, and it launches nothing on the stream outside the
 *   graph: on the H200 (driver 580), once a process has launched about five
 *   kernels on a second stream, every graph's dependent nodes there take
 *   about 0.17 us longer for the rest of the process (raw and accel alike:
 *   bench/RESULTS.md, round 5), and this measurement must not be what flips
 *   that state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <algorithm>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "ceilings.h"
#include "cuda_internal.h"

namespace
{

constexpr uint64_t kDefaultCopyBytes = (uint64_t)1 << 30;
constexpr uint64_t kDefaultGemmN = 8192;
constexpr uint64_t kDefaultTransferBytes = (uint64_t)256 << 20;
constexpr unsigned kDefaultRepeats = 5;
constexpr unsigned kMaxRepeats = 64;
constexpr int kLaunchBatch = 200;
constexpr int kGraphNodes = 100;
constexpr int kGraphN = 1024;

__global__ void empty_kernel()
{
}

__global__ void add_kernel(const float4 *__restrict__ a, const float4 *__restrict__ b,
                           float4 *__restrict__ c, size_t n4)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4) {
        float4 x = a[i], y = b[i];
        c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}

__global__ void add_in_place_kernel(float *__restrict__ x, const float *__restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += y[i];
}

__global__ void read_kernel(const float4 *__restrict__ x, size_t n4, float *out)
{
    float s = 0.0f;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4;
         i += (size_t)gridDim.x * blockDim.x) {
        float4 v = x[i];
        s += (v.x + v.y) + (v.z + v.w);
    }
    for (int o = 16; o > 0; o >>= 1)
        s += __shfl_down_sync(0xffffffffu, s, o);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(out, s);
}

/* splitmix64's finalizer: 64 well-mixed bits from an index. */
__device__ __forceinline__ uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Uniform in [0, 1) with every mantissa bit of T random, as accel's
 * random_uniform makes them (24 bits for f32, 53 for f64; f16 and bf16 round
 * a 24-bit float). The bits matter, not only that inputs are not all zeros:
 * a GEMM's power draw, and so the clock it holds under the board's power
 * limit, grows with how many bits toggle in the multipliers. This kernel
 * used to make 16-bit values; with them the H200 bench put accel's f64 GEMM
 * (the identical cuBLAS call on full-precision data) at 0.90 of this
 * ceiling, f32 at 0.99 and f16/bf16 at 1.03. */
template <typename T> __device__ __forceinline__ T unit_value(uint64_t h)
{
    return T((float)(h >> 40) * 0x1p-24f);
}
template <> __device__ __forceinline__ double unit_value<double>(uint64_t h)
{
    return (double)(h >> 11) * 0x1p-53;
}

template <typename T> __global__ void init_kernel(T *x, size_t n, uint32_t salt)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        x[i] = unit_value<T>(mix64(((uint64_t)salt << 48) ^ (uint64_t)i));
}

double now_s()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double median(double *v, unsigned n)
{
    std::sort(v, v + n);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Everything one measurement holds, released by cleanup(). */
struct Bench {
    const accel_cuda_ctx *ctx;
    cuda_device *dev;
    cudaStream_t stream = nullptr;
    cudaEvent_t e0 = nullptr, e1 = nullptr;
    void *d[3] = {nullptr, nullptr, nullptr};
    cuda_block *blk[3] = {nullptr, nullptr, nullptr};
    void *host_pinned = nullptr, *host_pageable = nullptr;
    cublasHandle_t blas = nullptr;
    unsigned reps = kDefaultRepeats;
    const char *what = "";
    cudaError_t err = cudaSuccess;
    int32_t alloc_status = ACCEL_SUCCESS; /* the allocator's, with its message */

    bool ok(cudaError_t e, const char *w);
    template <typename F> double time_events(F fn, const char *w);
    template <typename F> double time_host(F fn);
    void cleanup();
    void release_buffers();
    bool alloc(size_t bytes, int count);
};

/* The first error is kept, with what failed; true when e is success. */
bool Bench::ok(cudaError_t e, const char *w)
{
    if (e != cudaSuccess && err == cudaSuccess) {
        err = e;
        what = w;
    }
    return e == cudaSuccess;
}

/* Median milliseconds of fn() between two events, after one warm-up. */
template <typename F> double Bench::time_events(F fn, const char *w)
{
    double t[kMaxRepeats];
    for (unsigned r = 0; r <= reps; ++r) {
        if (!ok(cudaEventRecord(e0, stream), "cudaEventRecord"))
            return 0.0;
        if (!fn())
            return 0.0;
        if (!ok(cudaEventRecord(e1, stream), "cudaEventRecord") || !ok(cudaEventSynchronize(e1), w))
            return 0.0;
        float ms = 0.0f;
        if (!ok(cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime"))
            return 0.0;
        if (r > 0)
            t[r - 1] = ms;
    }
    return median(t, reps);
}

/* Median host seconds of fn(), which blocks, after one warm-up. */
template <typename F> double Bench::time_host(F fn)
{
    double t[kMaxRepeats];
    for (unsigned r = 0; r <= reps; ++r) {
        double t0 = now_s();
        if (!fn())
            return 0.0;
        if (r > 0)
            t[r - 1] = now_s() - t0;
    }
    return median(t, reps);
}

void Bench::cleanup()
{
    if (blas)
        (void)ctx->blas.destroy(blas);
    release_buffers();
    if (host_pinned)
        (void)cudaFreeHost(host_pinned);
    free(host_pageable);
    if (e0)
        (void)cudaEventDestroy(e0);
    if (e1)
        (void)cudaEventDestroy(e1);
    if (stream)
        (void)cudaStreamDestroy(stream);
    blas = nullptr;
    host_pinned = host_pageable = nullptr;
}

/* The device buffers (up to 3) come from and go back to the device's
 * caching allocator (memory.c), as accel's own buffers do, so that
 * measuring frees no device memory (with caching_allocator = false every
 * release is a cudaFree, as for user buffers): on the H200 (driver 580) a cudaFree of 3 GiB
 * left DRAM about 10% slower for the next 6 ms, and an add timed right
 * after the copy ceiling read 0.89 of copy where it reads 0.98
 * (bench/RESULTS.md, round 6). Nothing queued may still use a block
 * that goes back, so the stream is drained first, error or not, and so
 * is the legacy stream that the blocking pageable cudaMemcpy calls use
 * (one from pageable memory may return before its DMA lands). */
void Bench::release_buffers()
{
    if (blk[0] || blk[1] || blk[2]) {
        if (stream)
            (void)cudaStreamSynchronize(stream);
        (void)cudaStreamSynchronize(cudaStreamLegacy);
    }
    for (int i = 0; i < 3; ++i) {
        if (blk[i])
            accel_cuda__release(ctx, dev, blk[i]);
        blk[i] = nullptr;
        d[i] = nullptr;
    }
}

/* count device buffers of bytes each, the previous ones released first. */
bool Bench::alloc(size_t bytes, int count)
{
    release_buffers();
    for (int i = 0; i < count; ++i) {
        int32_t st = accel_cuda__alloc(ctx, dev, bytes, &blk[i]);
        if (st != ACCEL_SUCCESS) {
            blk[i] = nullptr;
            if (err == cudaSuccess) { /* stops the later groups */
                err = cudaErrorMemoryAllocation;
                alloc_status = st;
            }
            return false;
        }
        d[i] = blk[i]->ptr;
    }
    return true;
}

unsigned grid_for(size_t n, unsigned threads)
{
    size_t g = (n + threads - 1) / threads;
    return (unsigned)std::min<size_t>(std::max<size_t>(g, 1), 0x7fffffffu);
}

void measure_copy(Bench &b, size_t bytes, accel_ceilings *out)
{
    bytes &= ~(size_t)15;
    if (!b.alloc(bytes, 3))
        return;
    const size_t n = bytes / sizeof(float), n4 = n / 4;
    init_kernel<float><<<b.dev->max_blocks, 256, 0, b.stream>>>((float *)b.d[0], n, 1);
    init_kernel<float><<<b.dev->max_blocks, 256, 0, b.stream>>>((float *)b.d[1], n, 2);
    if (!b.ok(cudaGetLastError(), "init kernel"))
        return;
    double ms = b.time_events(
        [&] {
            return b.ok(cudaMemcpyAsync(b.d[2], b.d[0], bytes, cudaMemcpyDeviceToDevice, b.stream),
                        "cudaMemcpyAsync (device to device)");
        },
        "copy");
    if (ms > 0)
        out->copy_gbs = 2.0 * (double)bytes / (ms * 1e-3) * 1e-9;
    ms = b.time_events(
        [&] {
            add_kernel<<<grid_for(n4, 256), 256, 0, b.stream>>>(
                (const float4 *)b.d[0], (const float4 *)b.d[1], (float4 *)b.d[2], n4);
            return b.ok(cudaGetLastError(), "float4 add kernel");
        },
        "float4 add kernel");
    if (ms > 0)
        out->loop_gbs = 3.0 * (double)bytes / (ms * 1e-3) * 1e-9;
    ms = b.time_events(
        [&] {
            read_kernel<<<b.dev->sm_count * 8, 512, 0, b.stream>>>((const float4 *)b.d[0], n4,
                                                                   (float *)b.d[2]);
            return b.ok(cudaGetLastError(), "float4 sum kernel");
        },
        "float4 sum kernel");
    if (ms > 0)
        out->read_gbs = (double)bytes / (ms * 1e-3) * 1e-9;
    out->copy_bytes = bytes;
    snprintf(out->copy_method, sizeof out->copy_method, "cudaMemcpyAsync device to device");
}

void measure_gemm(Bench &b, size_t n, accel_ceilings *out)
{
    if (!b.ctx->blas.loaded)
        return;
    if (!b.alloc(n * n * sizeof(double), 3))
        return;
    cublasStatus_t s = b.ctx->blas.create(&b.blas);
    if (s == CUBLAS_STATUS_SUCCESS)
        s = b.ctx->blas.set_stream(b.blas, b.stream);
    if (s != CUBLAS_STATUS_SUCCESS) {
        b.ctx->host->log(b.ctx->host->host_ctx, ACCEL_LOG_WARN, "ceilings: cuBLAS handle: %s",
                         b.ctx->blas.status_name(s));
        return;
    }
    struct Case {
        uint32_t dtype;
        int tf32;
        cudaDataType_t type;
        cublasComputeType_t compute;
    };
    const Case cases[] = {
        {ACCEL_F32, 0, CUDA_R_32F, CUBLAS_COMPUTE_32F},
        {ACCEL_F32, 1, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32},
        {ACCEL_F16, 0, CUDA_R_16F, CUBLAS_COMPUTE_32F},
        {ACCEL_BF16, 0, CUDA_R_16BF, CUBLAS_COMPUTE_32F},
        {ACCEL_F64, 0, CUDA_R_64F, CUBLAS_COMPUTE_64F},
    };
    const double flops = 2.0 * (double)n * (double)n * (double)n;
    const int64_t ld = (int64_t)n;
    const float one_f = 1.0f, zero_f = 0.0f;
    const double one_d = 1.0, zero_d = 0.0;
    for (const Case &c : cases) {
        const unsigned g = b.dev->max_blocks;
        for (int i = 0; i < 3; ++i) {
            switch (c.dtype) {
            case ACCEL_F32:
                init_kernel<float><<<g, 256, 0, b.stream>>>((float *)b.d[i], n * n, 3u + i);
                break;
            case ACCEL_F64:
                init_kernel<double><<<g, 256, 0, b.stream>>>((double *)b.d[i], n * n, 3u + i);
                break;
            case ACCEL_F16:
                init_kernel<__half><<<g, 256, 0, b.stream>>>((__half *)b.d[i], n * n, 3u + i);
                break;
            default:
                init_kernel<__nv_bfloat16>
                    <<<g, 256, 0, b.stream>>>((__nv_bfloat16 *)b.d[i], n * n, 3u + i);
                break;
            }
        }
        if (!b.ok(cudaGetLastError(), "init kernel"))
            return;
        const void *alpha = c.dtype == ACCEL_F64 ? (const void *)&one_d : (const void *)&one_f;
        const void *beta = c.dtype == ACCEL_F64 ? (const void *)&zero_d : (const void *)&zero_f;
        cublasStatus_t gs = CUBLAS_STATUS_SUCCESS;
        double ms = b.time_events(
            [&] {
                gs = b.ctx->blas.gemm_ex_64(b.blas, CUBLAS_OP_N, CUBLAS_OP_N, ld, ld, ld, alpha,
                                            b.d[0], c.type, ld, b.d[1], c.type, ld, beta, b.d[2],
                                            c.type, ld, c.compute, CUBLAS_GEMM_DEFAULT);
                return gs == CUBLAS_STATUS_SUCCESS;
            },
            "cublasGemmEx");
        if (gs != CUBLAS_STATUS_SUCCESS) {
            b.ctx->host->log(b.ctx->host->host_ctx, ACCEL_LOG_WARN,
                             "ceilings: cublasGemmEx (dtype %u%s): %s", c.dtype,
                             c.tf32 ? ", TF32" : "", b.ctx->blas.status_name(gs));
            continue;
        }
        if (ms <= 0)
            return;
        double tflops = flops / (ms * 1e-3) * 1e-12;
        if (c.tf32)
            out->gemm_tf32_tflops = tflops;
        else
            out->gemm_tflops[c.dtype] = tflops;
    }
    out->gemm_n = n;
    snprintf(out->gemm_method, sizeof out->gemm_method, "cuBLAS cublasGemmEx_64");
}

void measure_launch(Bench &b, accel_ceilings *out)
{
    double t[kMaxRepeats];
    const unsigned reps = std::max(b.reps, 9u) < kMaxRepeats ? std::max(b.reps, 9u) : kMaxRepeats;
    for (unsigned r = 0; r <= reps; ++r) {
        double t0 = now_s();
        for (int i = 0; i < kLaunchBatch; ++i)
            empty_kernel<<<1, 1, 0, b.stream>>>();
        double t1 = now_s();
        if (!b.ok(cudaGetLastError(), "empty kernel") ||
            !b.ok(cudaStreamSynchronize(b.stream), "empty kernel"))
            return;
        if (r > 0)
            t[r - 1] = (t1 - t0) / kLaunchBatch;
    }
    out->launch_us = median(t, reps) * 1e6;
}

void measure_graph(Bench &b, accel_ceilings *out)
{
    const size_t bytes = kGraphN * sizeof(float);
    if (!b.alloc(bytes, 2))
        return;
    static const float zeros[kGraphN] = {0.0f};
    /* On the private stream (copies, not kernels: see the file's comment),
     * so that they are ordered before the graph and drained before release. */
    if (!b.ok(cudaMemcpyAsync(b.d[0], zeros, bytes, cudaMemcpyHostToDevice, b.stream),
              "cudaMemcpyAsync") ||
        !b.ok(cudaMemcpyAsync(b.d[1], zeros, bytes, cudaMemcpyHostToDevice, b.stream),
              "cudaMemcpyAsync") ||
        !b.ok(cudaStreamBeginCapture(b.stream, cudaStreamCaptureModeThreadLocal),
              "cudaStreamBeginCapture"))
        return;
    for (int i = 0; i < kGraphNodes; ++i)
        add_in_place_kernel<<<(kGraphN + 255) / 256, 256, 0, b.stream>>>(
            (float *)b.d[0], (const float *)b.d[1], kGraphN);
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    bool captured = b.ok(cudaGetLastError(), "add kernel (captured)");
    captured = b.ok(cudaStreamEndCapture(b.stream, &graph), "cudaStreamEndCapture") && captured;
    if (captured && b.ok(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate")) {
        double s = b.time_host([&] {
            return b.ok(cudaGraphLaunch(exec, b.stream), "cudaGraphLaunch") &&
                   b.ok(cudaStreamSynchronize(b.stream), "graph of adds");
        });
        if (s > 0)
            out->graph_us = s * 1e6;
    }
    if (exec)
        (void)cudaGraphExecDestroy(exec);
    if (graph)
        (void)cudaGraphDestroy(graph);
}

void measure_transfers(Bench &b, size_t bytes, accel_ceilings *out)
{
    if (!b.alloc(bytes, 1))
        return;
    if (!b.ok(cudaMallocHost(&b.host_pinned, bytes), "cudaMallocHost"))
        return;
    b.host_pageable = malloc(bytes);
    if (!b.host_pageable) {
        b.ok(cudaErrorMemoryAllocation, "malloc (pageable host memory)");
        return;
    }
    /* Touch every page first: a copy should not time page faults. */
    memset(b.host_pinned, 1, bytes);
    memset(b.host_pageable, 1, bytes);
    const double gb = (double)bytes * 1e-9;
    double ms = b.time_events(
        [&] {
            return b.ok(
                cudaMemcpyAsync(b.d[0], b.host_pinned, bytes, cudaMemcpyHostToDevice, b.stream),
                "cudaMemcpyAsync (pinned to device)");
        },
        "pinned copy");
    if (ms > 0)
        out->h2d_pinned_gbs = gb / (ms * 1e-3);
    ms = b.time_events(
        [&] {
            return b.ok(
                cudaMemcpyAsync(b.host_pinned, b.d[0], bytes, cudaMemcpyDeviceToHost, b.stream),
                "cudaMemcpyAsync (device to pinned)");
        },
        "pinned copy");
    if (ms > 0)
        out->d2h_pinned_gbs = gb / (ms * 1e-3);
    double s = b.time_host([&] {
        return b.ok(cudaMemcpy(b.d[0], b.host_pageable, bytes, cudaMemcpyHostToDevice),
                    "cudaMemcpy (pageable to device)");
    });
    if (s > 0)
        out->h2d_pageable_gbs = gb / s;
    s = b.time_host([&] {
        return b.ok(cudaMemcpy(b.host_pageable, b.d[0], bytes, cudaMemcpyDeviceToHost),
                    "cudaMemcpy (device to pageable)");
    });
    if (s > 0)
        out->d2h_pageable_gbs = gb / s;
    out->transfer_bytes = bytes;
}

} // namespace

extern "C" int32_t accel_cuda__measure_ceilings(void *vctx, uint32_t device,
                                                const accel_ceilings_options *opt,
                                                accel_ceilings *out)
{
    const accel_cuda_ctx *ctx = (const accel_cuda_ctx *)vctx;
    int32_t st = accel_cuda__set_device(ctx, device);
    if (st != ACCEL_SUCCESS)
        return st;
    Bench b;
    b.ctx = ctx;
    b.dev = &ctx->devices[device];
    b.reps = opt->repeats ? std::min(opt->repeats, kMaxRepeats) : kDefaultRepeats;
    const uint64_t copy_bytes =
        std::max<uint64_t>(opt->copy_bytes ? opt->copy_bytes : kDefaultCopyBytes, 4096);
    const uint64_t gemm_n = opt->gemm_n ? opt->gemm_n : kDefaultGemmN;
    const uint64_t transfer_bytes =
        std::max<uint64_t>(opt->transfer_bytes ? opt->transfer_bytes : kDefaultTransferBytes, 4096);

    if (b.ok(cudaStreamCreateWithFlags(&b.stream, cudaStreamNonBlocking), "cudaStreamCreate") &&
        b.ok(cudaEventCreate(&b.e0), "cudaEventCreate") &&
        b.ok(cudaEventCreate(&b.e1), "cudaEventCreate")) {
        if (opt->what & ACCEL_CEILING_COPY)
            measure_copy(b, (size_t)copy_bytes, out);
        if (b.err == cudaSuccess && (opt->what & ACCEL_CEILING_GEMM))
            measure_gemm(b, (size_t)gemm_n, out);
        if (b.err == cudaSuccess && (opt->what & ACCEL_CEILING_LAUNCH))
            measure_launch(b, out);
        if (b.err == cudaSuccess && (opt->what & ACCEL_CEILING_TRANSFER))
            measure_transfers(b, (size_t)transfer_bytes, out);
        if (b.err == cudaSuccess && (opt->what & ACCEL_CEILING_GRAPH))
            measure_graph(b, out);
    }
    if (b.err == cudaSuccess)
        (void)cudaStreamSynchronize(b.stream);
    b.cleanup();
    if (b.alloc_status != ACCEL_SUCCESS)
        return b.alloc_status;
    if (b.err != cudaSuccess) {
        char what[96];
        snprintf(what, sizeof what, "ceilings: %s", b.what);
        return accel_cuda__fail(ctx, b.err, what);
    }
    return ACCEL_SUCCESS;
}
