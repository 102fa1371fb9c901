/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* kernels_random.cu — uniform and normal fills from Philox4x32-10 with the
 * mapping of accel.h (backends/common/philox.h is the one implementation of
 * the generator, shared with the CPU backend).
 *
 * Each thread takes one Philox counter at a time (grid-stride; two for the
 * f32 normal fill) and writes the 4 (f32) or 2 (f64) stream elements each
 * yields, so the generator runs once per counter and every word of it is
 * used. When the output is 16-byte
 * aligned relative to the stream offset, the counters whose elements all fall
 * inside the range (all but at most the two at the ends) go out as one
 * 16-byte store each, indexed by a 32-bit counter number from the first of
 * them; the two end counters are written element by element by a one-warp
 * kernel launched after the vector launches (random_ends_kernel).
 * Otherwise every counter is written element by element.
 *
 * Uniform numbers use only integer operations and exact conversions:
 * bit-identical with every backend. Normal numbers: f32 is single-precision
 * Box-Muller (accel.h), with philox.h's -2 ln u1 from the integer draw
 * (within 2.19 ulp, no special cases), sqrt.approx (MUFU.SQRT) and __sincosf
 * on the formula's angle in (0, 2pi]; over every one of the 2^24 draws, on the
 * H200 (bench/ew_probe.cu), r is within 1.73e-7 relative and cos, sin within
 * 7.1e-7 absolute, against glibc's logf, sqrtf and sincosf on the CPU;
 * f64 is Box-Muller in double with CUDA's log, sqrt and sincos (1-2 ulp
 * each). Neither is bit-identical with the CPU; both stay inside the op
 * table's normal rule, 4 ulp + 64 eps stddev (core/check/tolerance.c). The f32
 * normal fill is bound by instruction issue, not by its writes: its vector
 * kernel takes two counters per step, and the standard normal its own
 * instance (94 and 92 instructions per counter on sm_90, 125 two rounds
 * before). */
#include "../common/philox.h"
#include "cuda_internal.h"
#include "kernel_common.cuh"

namespace accel_cuda
{
namespace
{

/* f64: the CPU backend's formula, operation for operation: theta = 2*pi*u2
 * rounded, then sin/cos of it, so the two backends differ only by their
 * libm's last bits. */
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

/* f32: accel.h's single-precision formula from the draws d1, d2 = (w >> 8)
 * + 1 of u1 = d1 2^-24, u2 = d2 2^-24, as the CPU computes it but for the
 * approximations. L = -2 ln u1 by philox.h (from d1, within 2.19 ulp); r =
 * sqrt(L) by sqrt.approx (MUFU.SQRT; L is 0 or at least 2^-23, never
 * subnormal, so the flush-to-zero form loses nothing); theta = fl(2pi_f *
 * u2) formed as fl(2pi_f 2^-24 * d2), the same real product scaled by a
 * power of two, so the CPU's angle bit for bit; __sincosf of theta itself
 * (one subtraction fewer than moving it to [-pi, pi): 7.1e-7 against 4.9e-7
 * absolute at worst, measured); then fma(fl(stddev * r), cos, mean). */
__device__ __forceinline__ void box_muller(uint32_t d1, uint32_t d2, float mean, float stddev,
                                           float *z0, float *z1)
{
    const float two_pi_scaled = 6.28318530717958647692f * 0x1p-24f;
    float r;
    asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(accel_philox_neg2log_f32(d1)));
    float s, c;
    __sincosf(__fmul_rn((float)d2, two_pi_scaled), &s, &c);
    /* A plain product (its only use is an fma's factor: nothing to contract
     * it with), so that stddev 1 as a constant folds it away. */
    float sr = stddev * r;
    *z0 = __fmaf_rn(sr, c, mean);
    *z1 = __fmaf_rn(sr, s, mean);
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
    static __device__ __forceinline__ void normal(const accel_philox_words &r, float mean,
                                                  float stddev, float v[4])
    {
#pragma unroll
        for (int p = 0; p < 2; ++p)
            box_muller((r.w[2 * p] >> 8) + 1u, (r.w[2 * p + 1] >> 8) + 1u, mean, stddev, &v[2 * p],
                       &v[2 * p + 1]);
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

/* What a fill is: out[i] = stream element offset + i for i < n, as numbers of
 * dtype T (mean and stddev in T: the f32 formula is single precision). */
template <typename T> struct Fill {
    uint64_t seed, offset;
    size_t n;
    T mean, stddev;
    T *out;
};

/* The P elements of a counter from its Philox words, whichever kind of fill. */
template <typename T, bool NORMAL>
__device__ __forceinline__ void map(const Fill<T> &f, const accel_philox_words &r,
                                    T v[Draw<T>::per])
{
    if (NORMAL)
        Draw<T>::normal(r, f.mean, f.stddev, v);
    else
        Draw<T>::uniform(r, v);
}

/* The P elements of counter c. */
template <typename T, bool NORMAL>
__device__ __forceinline__ void draw(const Fill<T> &f, uint64_t c, T v[Draw<T>::per])
{
    map<T, NORMAL>(f, accel_philox_block(c, f.seed), v);
}

/* Counter c's elements that fall inside the range, one by one. */
template <typename T, bool NORMAL>
__device__ __forceinline__ void write_partial(const Fill<T> &f, uint64_t c)
{
    constexpr unsigned P = Draw<T>::per;
    T v[P];
    draw<T, NORMAL>(f, c, v);
#pragma unroll
    for (unsigned k = 0; k < P; ++k) {
        uint64_t e = c * P + k;
        if (e >= f.offset && e - f.offset < f.n)
            f.out[e - f.offset] = v[k];
    }
}

/* Counters first .. first + ncounters - 1, each element by element: any
 * alignment of out. */
template <typename T, bool NORMAL>
__global__ void __launch_bounds__(kThreads)
    random_scalar_kernel(Fill<T> f, uint64_t first, uint64_t ncounters)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; t < ncounters; t += stride)
        write_partial<T, NORMAL>(f, first + t);
}

/* Blocks per SM that the vector kernel's registers must allow: 8 (2048
 * threads, full occupancy, at most 32 registers) for f32, whose normal fill
 * is bound by instruction issue and needs every warp; f64 is left to ptxas. */
template <typename T> constexpr int kMinBlocks = sizeof(T) == 4 ? 8 : 1;

/* Counters per thread and loop step: 2 for the f32 normal fill (two
 * independent Philox and Box-Muller chains hide each other's latencies:
 * 0.837 of copy against 0.802 with one, H200, bench/ew_probe.cu), 1 for the
 * others (uniform is bound by the write bandwidth already). */
template <typename T, bool NORMAL>
constexpr int kCountersPerStep = NORMAL && sizeof(T) == 4 ? 2 : 1;

/* A plain 16-byte global store at the global address a (an integer: through
 * a pointer made from it nvcc emits a generic store). */
__device__ __forceinline__ void store_global(uint64_t a, float4 v)
{
    asm volatile("st.global.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(a), "f"(v.x), "f"(v.y), "f"(v.z),
                 "f"(v.w)
                 : "memory");
}
__device__ __forceinline__ void store_global(uint64_t a, double2 v)
{
    asm volatile("st.global.v2.f64 [%0], {%1, %2};" ::"l"(a), "d"(v.x), "d"(v.y) : "memory");
}

/* Counters c_hi * 2^32 + lo0 .. + nfull - 1 lie wholly inside the range and
 * their elements start at body, 16-byte aligned: one vector store each, with
 * the 32-bit low counter word as the loop's variable (the host cuts the range into
 * launches that neither pass 2^31 counters nor cross a multiple of 2^32, so
 * the high word is the same for the whole launch: 4 instructions fewer per
 * counter), and the key schedule ks of f.seed, read from the parameter bank
 * (no registers and no instructions for the keys). The partial counters at
 * the ends of the range are random_ends_kernel's: with them in this kernel
 * (threads 0 and 1 writing them after the loop), ptxas gave the loop of the
 * f32 normal fill, under its 32-register cap, a schedule that runs the two
 * counters' Philox chains one after the other instead of side by side: the
 * same 184 instructions, 3% slower on the H200 (bench/RESULTS.md, round 6). */
template <typename T, bool NORMAL, bool STANDARD>
__global__ void __launch_bounds__(kThreads, kMinBlocks<T>)
    random_vector_kernel(Fill<T> f, accel_philox_keys ks, uint32_t lo0, uint32_t c_hi,
                         uint32_t nfull, typename Vec<T>::type *__restrict__ body)
{
    if constexpr (STANDARD) { /* mean +0, stddev 1 as constants: fl(1 * r) = r folds away */
        f.mean = T(0);
        f.stddev = T(1);
    }
    constexpr unsigned P = Draw<T>::per;
    using VT = typename Vec<T>::type;
    static_assert(sizeof(VT) == P * sizeof(T), "one counter's elements are one vector");
    constexpr int U = kCountersPerStep<T, NORMAL>;
    union Out {
        VT v;
        T e[P];
    };
    const uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t stride = gridDim.x * blockDim.x;
    /* Held as a value: otherwise nvcc folds each t + u * stride into an IMAD
     * of gridDim and blockDim, on the FMA pipe that Philox's multiplies fill. */
    asm("" : "+r"(stride));
    /* The loop runs on the counter's low word c = lo0 + t itself, which
     * Philox takes as it is; its vector is at base + c (base = body - lo0 as
     * an integer): one multiply-add per store and no index beside the
     * counter. U counters c, c + stride, .. per step, all drawn before any is
     * stored, while c < top: the last of them below lo0 + nfull. c + U stride
     * must not wrap past 2^32 there: it does not when lo0 + nfull + stride <=
     * 2^32; a launch that ends nearer than that (a fill past 2^34 elements,
     * at a multiple of 2^32 counters) leaves it all to the loop after. */
    const uint64_t base = __cvta_generic_to_global(body) - (uint64_t)lo0 * sizeof(VT);
    auto at = [base](uint32_t c) { return base + (uint64_t)c * sizeof(VT); };
    const uint32_t top = nfull > (U - 1) * stride && (uint64_t)lo0 + nfull + stride <= (1ull << 32)
                             ? lo0 + nfull - (U - 1) * stride
                             : 0u;
    uint32_t c = lo0 + tid;
    for (; c < top; c += U * stride) {
        Out v[U];
#pragma unroll
        for (int u = 0; u < U; ++u)
            map<T, NORMAL>(f, accel_philox4x32_10_keyed(c + u * stride, c_hi, 0u, 0u, &ks), v[u].e);
#pragma unroll
        for (int u = 0; u < U; ++u)
            store_global(at(c + u * stride), v[u].v);
    }
    /* The counters left for this thread: fewer than U, or all of them when
     * the loop above could wrap (c - lo0 = t < nfull + stride < 2^32). */
    for (; c - lo0 < nfull; c += stride) {
        Out v;
        map<T, NORMAL>(f, accel_philox4x32_10_keyed(c, c_hi, 0u, 0u, &ks), v.e);
        store_global(at(c), v.v);
    }
}

/* The partial counters end0 and end1 (nends of them, at most 2) at the ends
 * of a vector fill's range, element by element: one warp. */
template <typename T, bool NORMAL>
__global__ void random_ends_kernel(Fill<T> f, uint64_t end0, uint64_t end1, uint32_t nends)
{
    if (threadIdx.x < nends)
        write_partial<T, NORMAL>(f, threadIdx.x == 0 ? end0 : end1);
}

/* Whether the vector kernel has a standard-normal instance: the f32 normal
 * fill, bound by instruction issue. */
template <typename T, bool NORMAL> constexpr bool kHasStandard = NORMAL && sizeof(T) == 4;

/* Counters per vector launch: a 32-bit index with room for the stride. */
constexpr uint64_t kMaxVectorCounters = 1ull << 31;

template <typename T, bool NORMAL>
cudaError_t random_fill(cudaStream_t stream, unsigned max_blocks, Fill<T> f)
{
    constexpr unsigned P = Draw<T>::per;
    using VT = typename Vec<T>::type;
    const uint64_t first = f.offset / P;
    const uint64_t last =
        (f.offset + (uint64_t)(f.n - 1)) / P; /* the core keeps offset + n in range */
    /* Full counters: c * P >= offset and c * P + P <= offset + n. */
    uint64_t full0 = (f.offset + P - 1) / P, full1 = (f.offset + (uint64_t)f.n) / P;
    if (full1 < full0)
        full1 = full0;
    /* Element c * P - offset of out starts a 16-byte vector for every c
     * exactly when out - offset elements is 16-byte aligned. */
    const bool aligned = ((uintptr_t)f.out - (uintptr_t)(f.offset % P) * sizeof(T)) % 16u == 0;
    if (!aligned || full1 == full0) {
        const uint64_t ncounters = last - first + 1;
        random_scalar_kernel<T, NORMAL>
            <<<grid_for(ncounters, max_blocks), kThreads, 0, stream>>>(f, first, ncounters);
        return cudaGetLastError();
    }
    /* At most one partial counter before the full ones and one after. */
    uint64_t ends[2] = {0, 0};
    uint32_t nends = 0;
    if (first < full0)
        ends[nends++] = first;
    if (last >= full1)
        ends[nends++] = last;
    const accel_philox_keys ks = accel_philox_schedule((uint32_t)f.seed, (uint32_t)(f.seed >> 32));
    /* The standard normal (mean +0, stddev 1 in T), the common case, takes
     * the kernel with those constants built in: the same bits, one multiply
     * fewer per pair. */
    const bool standard =
        kHasStandard<T, NORMAL> && f.stddev == T(1) && f.mean == T(0) && !signbit(f.mean);
    for (uint64_t c = full0; c < full1;) {
        uint64_t m = full1 - c < kMaxVectorCounters ? full1 - c : kMaxVectorCounters;
        const uint64_t to_wrap = (1ull << 32) - (c & 0xffffffffull); /* counters to the next 2^32 */
        if (m > to_wrap)
            m = to_wrap;
        VT *body = reinterpret_cast<VT *>(f.out + (c * P - f.offset));
        if (standard) {
            constexpr auto K = random_vector_kernel<T, NORMAL, kHasStandard<T, NORMAL>>;
            K<<<resident_grid<K>(m, max_blocks), kThreads, 0, stream>>>(
                f, ks, (uint32_t)c, (uint32_t)(c >> 32), (uint32_t)m, body);
        } else {
            constexpr auto K = random_vector_kernel<T, NORMAL, false>;
            K<<<resident_grid<K>(m, max_blocks), kThreads, 0, stream>>>(
                f, ks, (uint32_t)c, (uint32_t)(c >> 32), (uint32_t)m, body);
        }
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess)
            return e;
        c += m;
    }
    if (nends) {
        random_ends_kernel<T, NORMAL><<<1, 32, 0, stream>>>(f, ends[0], ends[1], nends);
        return cudaGetLastError();
    }
    return cudaSuccess;
}

template <typename T>
cudaError_t random_t(cudaStream_t stream, unsigned max_blocks, bool normal, uint64_t seed,
                     uint64_t offset, double mean, double stddev, void *out, size_t n)
{
    if (n == 0)
        return cudaSuccess;
    Fill<T> f = {seed, offset, n, (T)mean, (T)stddev, static_cast<T *>(out)};
    return normal ? random_fill<T, true>(stream, max_blocks, f)
                  : random_fill<T, false>(stream, max_blocks, f);
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
