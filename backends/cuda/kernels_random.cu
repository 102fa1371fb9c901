/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* kernels_random.cu — uniform and normal fills from Philox4x32-10 with the
 * mapping of accel.h (backends/common/philox.h is the one implementation of
 * the generator, shared with the CPU backend).
 *
 * Each thread takes one Philox counter at a time (grid-stride) and writes the
 * 4 (f32) or 2 (f64) stream elements it yields that fall inside the range, so
 * the generator runs once per counter and every word of it is used; inside
 * the range the elements go out as one 16-byte store. Uniform numbers use only integer
 * operations and exact conversions: bit-identical with every backend. Normal
 * numbers follow the CPU backend's Box-Muller step by step in double (f32
 * rounded once at the end) with CUDA's log, sqrt and sincos (1-2 ulp each,
 * glibc's are within 1 ulp), so f32 results almost always match the CPU
 * bit for bit and f64 results are within a few ulp, not bit-identical. */
#include "../common/philox.h"
#include "cuda_internal.h"
#include "kernel_common.cuh"

namespace accel_cuda
{
namespace
{

/* The CPU backend's formula, operation for operation, in double: theta =
 * 2*pi*u2 rounded, then sin/cos of it, so the two backends differ only by
 * their libm's last bits. */
__device__ __forceinline__ void box_muller(double u1, double u2, double mean, double stddev,
                                           double *z0, double *z1)
{
    const double two_pi = 6.283185307179586476925286766559;
    double r = sqrt(-2.0 * log(u1));
    double theta = __dmul_rn(two_pi, u2);
    double s, c;
    sincos(theta, &s, &c);
    *z0 = __dadd_rn(mean, __dmul_rn(__dmul_rn(stddev, r), c));
    *z1 = __dadd_rn(mean, __dmul_rn(__dmul_rn(stddev, r), s));
}

template <typename T> struct Draw;

template <> struct Draw<float> {
    static constexpr unsigned per = 4; /* stream elements per counter */
    static __device__ __forceinline__ void uniform(const accel_philox_words &r, float v[4])
    {
#pragma unroll
        for (int k = 0; k < 4; ++k)
            v[k] = (float)(r.w[k] >> 8) * 0x1p-24f;
    }
    static __device__ __forceinline__ void normal(const accel_philox_words &r, double mean,
                                                  double stddev, float v[4])
    {
#pragma unroll
        for (int p = 0; p < 2; ++p) {
            double u1 = (double)((r.w[2 * p] >> 8) + 1u) * 0x1p-24;
            double u2 = (double)((r.w[2 * p + 1] >> 8) + 1u) * 0x1p-24;
            double z0, z1;
            box_muller(u1, u2, mean, stddev, &z0, &z1);
            v[2 * p] = (float)z0;
            v[2 * p + 1] = (float)z1;
        }
    }
};

template <> struct Draw<double> {
    static constexpr unsigned per = 2;
    static __device__ __forceinline__ uint64_t bits53(const accel_philox_words &r, int j)
    {
        return (((uint64_t)r.w[2 * j] << 32) | r.w[2 * j + 1]) >> 11;
    }
    static __device__ __forceinline__ void uniform(const accel_philox_words &r, double v[2])
    {
        v[0] = (double)bits53(r, 0) * 0x1p-53;
        v[1] = (double)bits53(r, 1) * 0x1p-53;
    }
    static __device__ __forceinline__ void normal(const accel_philox_words &r, double mean,
                                                  double stddev, double v[2])
    {
        double u1 = (double)(bits53(r, 0) + 1u) * 0x1p-53;
        double u2 = (double)(bits53(r, 1) + 1u) * 0x1p-53;
        box_muller(u1, u2, mean, stddev, &v[0], &v[1]);
    }
};

/* out[i] = stream element offset + i, for i < n. Counters first..last cover
 * the range; the ends may be partial. Counters [full0, full1) yield P
 * elements that all fall inside the range; when `aligned`, those P elements
 * start on a 16-byte boundary of out and go out as one float4 / double2
 * store (a warp writes 512 contiguous bytes in one instruction instead of
 * four strided ones), without per-element range checks. The values are the
 * same either way: only the stores differ. */
template <typename T, bool NORMAL>
__global__ void __launch_bounds__(kThreads)
    random_kernel(uint64_t seed, uint64_t offset, size_t n, uint64_t first, uint64_t ncounters,
                  uint64_t full0, uint64_t full1, bool aligned, double mean, double stddev,
                  T *__restrict__ out)
{
    constexpr unsigned P = Draw<T>::per;
    using VT = typename Vec<T>::type;
    static_assert(sizeof(VT) == P * sizeof(T), "one counter's elements are one vector");
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; t < ncounters; t += stride) {
        const uint64_t c = first + t;
        accel_philox_words r = accel_philox_block(c, seed);
        union {
            VT v;
            T e[P];
        } v;
        if (NORMAL)
            Draw<T>::normal(r, mean, stddev, v.e);
        else
            Draw<T>::uniform(r, v.e);
        if (aligned && c >= full0 && c < full1) {
            *reinterpret_cast<VT *>(out + (c * P - offset)) = v.v;
            continue;
        }
#pragma unroll
        for (unsigned k = 0; k < P; ++k) {
            uint64_t e = c * P + k;
            if (e >= offset && e - offset < n)
                out[e - offset] = v.e[k];
        }
    }
}

template <typename T>
cudaError_t random_t(cudaStream_t stream, unsigned max_blocks, bool normal, uint64_t seed,
                     uint64_t offset, double mean, double stddev, void *out, size_t n)
{
    if (n == 0)
        return cudaSuccess;
    constexpr unsigned P = Draw<T>::per;
    uint64_t first = offset / P;
    uint64_t last = (offset + (uint64_t)(n - 1)) / P; /* the core keeps offset + n in range */
    uint64_t ncounters = last - first + 1;
    /* Full counters: c * P >= offset and c * P + P <= offset + n. */
    uint64_t full0 = (offset + P - 1) / P, full1 = (offset + (uint64_t)n) / P;
    if (full1 < full0)
        full1 = full0;
    /* Element c * P - offset of out starts a 16-byte vector for every c
     * exactly when out - offset elements is 16-byte aligned. */
    bool aligned = ((uintptr_t)out - (uintptr_t)(offset % P) * sizeof(T)) % 16u == 0;
    unsigned grid = grid_for(ncounters, max_blocks);
    T *o = static_cast<T *>(out);
    if (normal)
        random_kernel<T, true><<<grid, kThreads, 0, stream>>>(
            seed, offset, n, first, ncounters, full0, full1, aligned, mean, stddev, o);
    else
        random_kernel<T, false><<<grid, kThreads, 0, stream>>>(seed, offset, n, first, ncounters,
                                                               full0, full1, aligned, 0.0, 1.0, o);
    return cudaGetLastError();
}

} // namespace
} // namespace accel_cuda

extern "C" cudaError_t accel_cuda__launch_random(cudaStream_t stream, uint32_t max_blocks,
                                                 uint32_t op, uint32_t dtype, uint64_t seed,
                                                 uint64_t offset, double mean, double stddev,
                                                 void *out, size_t n)
{
    bool normal = op == ACCEL_OP_RANDOM_NORMAL;
    if (!normal && op != ACCEL_OP_RANDOM_UNIFORM)
        return cudaErrorNotSupported;
    if (dtype == ACCEL_F32)
        return accel_cuda::random_t<float>(stream, max_blocks, normal, seed, offset, mean, stddev,
                                           out, n);
    if (dtype == ACCEL_F64)
        return accel_cuda::random_t<double>(stream, max_blocks, normal, seed, offset, mean, stddev,
                                            out, n);
    return cudaErrorNotSupported;
}
