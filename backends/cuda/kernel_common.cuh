/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* kernel_common.cuh — helpers shared by the .cu files: 16-byte vector types,
 * the split of a range into a scalar head, an aligned vector body and a scalar
 * tail, grid sizing, the launch of the small ops, and IEEE 754-2019
 * maximum/minimum (NaN-propagating, -0 < +0). */
#ifndef ACCEL_CUDA_KERNEL_COMMON_CUH
#define ACCEL_CUDA_KERNEL_COMMON_CUH

#include <atomic>
#include <cstddef>
#include <cstdint>

#include <cuda.h> /* driver types only: cuLaunchKernel is reached through the runtime */
#include <cuda_runtime.h>

namespace accel_cuda
{

constexpr unsigned kThreads = 256;

/* 16-byte vectors: one ld.global.v4.f32 / v2.f64 per thread and step. */
template <typename T> struct Vec;
template <> struct Vec<float> {
    using type = float4;
    static constexpr int width = 4;
};
template <> struct Vec<double> {
    using type = double2;
    static constexpr int width = 2;
};
/* One vector loaded whole (v) and used element by element (e). */
template <typename T> union VecElems {
    typename Vec<T>::type v;
    T e[Vec<T>::width];
};

/* Elements [0, head) and [head + nvec*W, n) are done one by one; the vector
 * body in between is 16-byte aligned in every operand. Operands whose
 * addresses differ modulo 16 cannot share a body: then all is head. */
struct Split {
    size_t head;
    size_t nvec;
    size_t n;
};

template <typename T>
inline Split make_split(size_t n, const void *p0, const void *p1 = nullptr,
                        const void *p2 = nullptr)
{
    constexpr int W = Vec<T>::width;
    Split s;
    s.n = n;
    uintptr_t mis = (uintptr_t)p0 % 16u;
    bool same = (!p1 || (uintptr_t)p1 % 16u == mis) && (!p2 || (uintptr_t)p2 % 16u == mis) &&
                mis % sizeof(T) == 0;
    if (!same) {
        s.head = n;
        s.nvec = 0;
        return s;
    }
    size_t head = mis ? (16u - mis) / sizeof(T) : 0;
    if (head > n)
        head = n;
    s.head = head;
    s.nvec = (n - head) / W;
    return s;
}

/* Index of the e-th scalar element (head first, then tail). */
template <typename T> __device__ __forceinline__ size_t scalar_index(const Split &s, size_t e)
{
    return e < s.head ? e : s.head + s.nvec * Vec<T>::width + (e - s.head);
}

template <typename T> __host__ __device__ __forceinline__ size_t scalar_total(const Split &s)
{
    return s.n - s.nvec * Vec<T>::width;
}

/* Enough blocks to cover `work` items at one per thread, at most max_blocks. */
inline unsigned grid_for(size_t work, unsigned max_blocks)
{
    size_t b = (work + kThreads - 1) / kThreads;
    if (b > max_blocks)
        b = max_blocks;
    return b ? (unsigned)b : 1u;
}

/* A CUB device-wide call with its temporary storage: call(tmp, bytes) runs
 * once with tmp null to size it and once to do the work, the storage
 * allocated and freed on stream s between (stream-ordered: cudaMallocAsync,
 * cudaFreeAsync); the first error wins. */
template <typename Call> cudaError_t with_cub_temp(cudaStream_t s, Call call)
{
    void *tmp = nullptr;
    size_t bytes = 0;
    cudaError_t err = call(tmp, bytes);
    if (err == cudaSuccess)
        err = cudaMallocAsync(&tmp, bytes ? bytes : 1, s);
    if (err == cudaSuccess) {
        err = call(tmp, bytes);
        cudaError_t freed = cudaFreeAsync(tmp, s);
        if (err == cudaSuccess)
            err = freed;
    }
    return err;
}

/* ------------------------------------------------------------ launches */

/* cuLaunchKernel's type (unchanged since CUDA 4.0; asked for as of CUDA 12.0). */
typedef CUresult(CUDAAPI *driver_launch_fn)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                                            unsigned, unsigned, unsigned, CUstream, void **,
                                            void **);

/* The driver's cuLaunchKernel, found once through the runtime (no link to
 * libcuda); NULL when the driver does not offer it. */
inline driver_launch_fn driver_launch()
{
    static const driver_launch_fn fn = [] {
        void *p = nullptr;
        cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
        if (cudaGetDriverEntryPointByVersion("cuLaunchKernel", &p, 12000, cudaEnableDefault, &q) !=
                cudaSuccess ||
            q != cudaDriverEntryPointSuccess)
            p = nullptr;
        (void)cudaGetLastError();
        return reinterpret_cast<driver_launch_fn>(p);
    }();
    return fn;
}

constexpr int kMaxCachedDevices = 64;

/* Kernel K's driver function in the current device's primary context (a
 * CUfunction belongs to one context), looked up once per device; NULL when
 * the runtime has none or the device is past the cache. */
template <auto K> cudaFunction_t kernel_function()
{
    static std::atomic<cudaFunction_t> fns[kMaxCachedDevices];
    int dev = -1;
    if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= kMaxCachedDevices) {
        (void)cudaGetLastError();
        return nullptr;
    }
    cudaFunction_t f = fns[dev].load(std::memory_order_acquire);
    if (!f) {
        if (cudaGetFuncBySymbol(&f, reinterpret_cast<const void *>(K)) != cudaSuccess) {
            (void)cudaGetLastError();
            return nullptr;
        }
        fns[dev].store(f, std::memory_order_release);
    }
    return f;
}

/* Blocks of kThreads threads of kernel K that one SM holds at once (its
 * registers decide), looked up once; 8 when the runtime cannot say. A
 * grid-stride kernel gets at most this many blocks per SM: a grid larger
 * than what is resident runs its last blocks as a second, mostly idle wave,
 * since every block has the same share of the work. */
template <auto K> unsigned resident_blocks()
{
    static std::atomic<int> cached{0};
    int v = cached.load(std::memory_order_relaxed);
    if (v <= 0) {
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&v, K, kThreads, 0) != cudaSuccess ||
            v <= 0) {
            (void)cudaGetLastError();
            v = 8;
        }
        cached.store(v, std::memory_order_relaxed);
    }
    return (unsigned)v;
}

/* The grid of a grid-stride kernel K: enough blocks for `work` items at one
 * per thread, at most max_blocks (the device's SMs x 8, plugin.c) and at
 * most the blocks that are resident at once. */
template <auto K> unsigned resident_grid(size_t work, unsigned max_blocks)
{
    unsigned cap = max_blocks / 8u * resident_blocks<K>();
    return grid_for(work, cap && cap < max_blocks ? cap : max_blocks);
}

template <class T> struct same {
    using type = T;
};

/* K<<<grid, kThreads, 0, stream>>>(args...), for the small ops whose host
 * time is the launch: through cuLaunchKernel with K's function looked up
 * once, which skips the runtime's per-launch lookup of the function from its
 * host stub and the cudaGetLastError after it. When the driver entry point
 * or the function is missing, or the driver refuses the launch, the
 * runtime's launch runs instead, so that its error (sticky faults of earlier
 * work included) is the one reported. */
template <auto K, typename... P>
cudaError_t launch(void (*)(P...), unsigned grid, cudaStream_t stream,
                   typename same<P>::type... args)
{
    void *params[] = {static_cast<void *>(&args)...};
    driver_launch_fn drv = driver_launch();
    cudaFunction_t fn = drv ? kernel_function<K>() : nullptr;
    if (fn && drv(reinterpret_cast<CUfunction>(fn), grid, 1, 1, kThreads, 1, 1, 0,
                  reinterpret_cast<CUstream>(stream), params, nullptr) == CUDA_SUCCESS)
        return cudaSuccess;
    K<<<grid, kThreads, 0, stream>>>(args...);
    return cudaGetLastError();
}

/* Bitwise AND / OR of two values' bit patterns. */
__device__ __forceinline__ float bits_and(float a, float b)
{
    return __int_as_float(__float_as_int(a) & __float_as_int(b));
}
__device__ __forceinline__ double bits_and(double a, double b)
{
    return __longlong_as_double(__double_as_longlong(a) & __double_as_longlong(b));
}
__device__ __forceinline__ float bits_or(float a, float b)
{
    return __int_as_float(__float_as_int(a) | __float_as_int(b));
}
__device__ __forceinline__ double bits_or(double a, double b)
{
    return __longlong_as_double(__double_as_longlong(a) | __double_as_longlong(b));
}

/* IEEE 754-2019 maximum / minimum (§9.6): NaN when either operand is NaN
 * (a's when both are), and -0 < +0. Equal operands have equal bit patterns
 * unless they are zeros of opposite sign, where AND of the patterns gives +0
 * (max) and OR gives -0 (min), in either order. */
template <typename T> __device__ __forceinline__ T nan_max(T a, T b)
{
    return a == b ? bits_and(a, b) : (a > b || a != a) ? a : b;
}
template <typename T> __device__ __forceinline__ T nan_min(T a, T b)
{
    return a == b ? bits_or(a, b) : (a < b || a != a) ? a : b;
}

} // namespace accel_cuda

#endif
