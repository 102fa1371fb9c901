/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* kernels_reduce.cu — sum, max, min and dot into one output element, in two
 * deterministic passes.
 *
 * Pass 1 runs a grid whose size depends only on n and the device (SM count),
 * never on timing. Each thread folds its grid-stride share (16-byte vector
 * loads through the aligned body, scalars for head and tail) in index order;
 * the block combines its threads with warp shuffles and then its warps through
 * shared memory, always in the same tree; one partial per block goes to
 * queue-private scratch. Pass 2, one block, folds the partials in the same
 * fixed way and writes the result in the op's dtype on the device (no host
 * round trip). Same input, same device: same bits, every run.
 *
 * Sums and dots accumulate in double for both f32 and f64 (a product of two
 * f32 is exact in double). Error: f32 results are within 0.5 ulp (the final
 * rounding) plus (n/P + log2 P) * 2^-53 * sum|x_i| (resp. |x_i*y_i|), P the
 * number of threads; f64 results within (n/P + log2 P) * 2^-53 * sum|x_i|
 * (Higham, "Accuracy and Stability of Numerical Algorithms", 2002, 4.2,
 * recursive summation of n/P terms per thread and pairwise tree above).
 * max/min propagate NaN as numpy.max/min, are exact, and follow IEEE 754-2019
 * maximum/minimum (§9.6) for signed zeros: max of [-0, +0] is +0, min is -0,
 * whatever the order (nan_max/nan_min of kernel_common.cuh). */
#include "cuda_internal.h"
#include "kernel_common.cuh"

namespace accel_cuda
{
namespace
{

enum Mode { kSum = 0, kMax = 1, kMin = 2, kDot = 3 };

template <int MODE> __device__ __forceinline__ double identity()
{
    if (MODE == kMax)
        return -__longlong_as_double(0x7ff0000000000000LL); /* -inf */
    if (MODE == kMin)
        return __longlong_as_double(0x7ff0000000000000LL); /* +inf */
    return 0.0;
}

template <int MODE> __device__ __forceinline__ double combine(double a, double b)
{
    if (MODE == kMax)
        return nan_max(a, b);
    if (MODE == kMin)
        return nan_min(a, b);
    return a + b;
}

/* Fold one element (and its partner for dot) into acc. */
template <int MODE, typename T> __device__ __forceinline__ double fold(double acc, T x, T y)
{
    if (MODE == kDot)
        return fma((double)x, (double)y, acc);
    return combine<MODE>(acc, (double)x);
}

/* The same tree every time: shuffles inside each warp, then warp 0 over the
 * warps' results. The value is valid in thread 0. */
template <int MODE> __device__ double block_reduce(double v)
{
    __shared__ double warp_vals[kThreads / 32];
    const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        v = combine<MODE>(v, __shfl_down_sync(0xffffffffu, v, off));
    if (lane == 0)
        warp_vals[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < blockDim.x / 32u ? warp_vals[lane] : identity<MODE>();
#pragma unroll
        for (int off = 16; off > 0; off >>= 1)
            v = combine<MODE>(v, __shfl_down_sync(0xffffffffu, v, off));
    }
    return v;
}

template <typename T, int MODE>
__global__ void __launch_bounds__(kThreads)
    reduce_pass1(Split s, const T *__restrict__ x, const T *__restrict__ y,
                 double *__restrict__ partials)
{
    using VT = typename Vec<T>::type;
    constexpr int W = Vec<T>::width;
    using U = VecElems<T>;
    const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    double acc = identity<MODE>();

    const VT *vx = reinterpret_cast<const VT *>(x + s.head);
    const VT *vy = MODE == kDot ? reinterpret_cast<const VT *>(y + s.head) : nullptr;
    for (size_t i = tid; i < s.nvec; i += stride) {
        U ux, uy;
        ux.v = vx[i];
        if (MODE == kDot)
            uy.v = vy[i];
#pragma unroll
        for (int k = 0; k < W; ++k)
            acc = fold<MODE>(acc, ux.e[k], MODE == kDot ? uy.e[k] : T(0));
    }
    const size_t ns = scalar_total<T>(s);
    for (size_t e = tid; e < ns; e += stride) {
        size_t j = scalar_index<T>(s, e);
        acc = fold<MODE>(acc, x[j], MODE == kDot ? y[j] : T(0));
    }
    acc = block_reduce<MODE>(acc);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = acc;
}

/* One block: fold nparts partials, write out[0] in T. */
template <typename T, int MODE>
__global__ void __launch_bounds__(kThreads)
    reduce_pass2(const double *__restrict__ partials, unsigned nparts, T *__restrict__ out)
{
    double acc = identity<MODE>();
    for (unsigned i = threadIdx.x; i < nparts; i += blockDim.x)
        acc = combine<MODE>(acc, partials[i]);
    acc = block_reduce<MODE>(acc);
    if (threadIdx.x == 0) {
        /* max/min of nothing has no identity (the core rejects it); NaN. */
        if (nparts == 0 && (MODE == kMax || MODE == kMin))
            acc = __longlong_as_double(0x7ff8000000000000LL);
        out[0] = (T)acc;
    }
}

template <typename T, int MODE>
cudaError_t reduce_t(cudaStream_t stream, unsigned max_blocks, const void *x, const void *y,
                     size_t n, double *partials, void *out)
{
    unsigned grid = 0;
    if (n > 0) {
        Split s = make_split<T>(n, x, MODE == kDot ? y : nullptr);
        size_t ns = scalar_total<T>(s);
        grid = grid_for(s.nvec > ns ? s.nvec : ns, max_blocks);
        reduce_pass1<T, MODE><<<grid, kThreads, 0, stream>>>(s, static_cast<const T *>(x),
                                                             static_cast<const T *>(y), partials);
        cudaError_t err = cudaGetLastError();
        if (err != cudaSuccess)
            return err;
    }
    reduce_pass2<T, MODE><<<1, kThreads, 0, stream>>>(partials, grid, static_cast<T *>(out));
    return cudaGetLastError();
}

template <typename T>
cudaError_t reduce_dispatch(cudaStream_t stream, unsigned max_blocks, uint32_t op, const void *x,
                            const void *y, size_t n, double *partials, void *out)
{
    switch (op) {
    case ACCEL_OP_SUM:
        return reduce_t<T, kSum>(stream, max_blocks, x, y, n, partials, out);
    case ACCEL_OP_REDUCE_MAX:
        return reduce_t<T, kMax>(stream, max_blocks, x, y, n, partials, out);
    case ACCEL_OP_REDUCE_MIN:
        return reduce_t<T, kMin>(stream, max_blocks, x, y, n, partials, out);
    case ACCEL_OP_DOT:
        return reduce_t<T, kDot>(stream, max_blocks, x, y, n, partials, out);
    default:
        return cudaErrorNotSupported;
    }
}

} // namespace
} // namespace accel_cuda

extern "C" cudaError_t accel_cuda__launch_reduce(cudaStream_t stream, uint32_t max_blocks,
                                                 uint32_t op, uint32_t dtype, const void *x,
                                                 const void *y, size_t n, double *partials,
                                                 void *out)
{
    if (dtype == ACCEL_F32)
        return accel_cuda::reduce_dispatch<float>(stream, max_blocks, op, x, y, n, partials, out);
    if (dtype == ACCEL_F64)
        return accel_cuda::reduce_dispatch<double>(stream, max_blocks, op, x, y, n, partials, out);
    return cudaErrorNotSupported;
}
