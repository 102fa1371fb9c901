/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* kernels_elementwise.cu — fill, binary and unary elementwise ops, scale,
 * axpby, and the beta*C update of a GEMM with k == 0.
 *
 * One kernel template serves them all (map_flat_kernel): one thread per
 * 16-byte vector (float4 / double2) of the aligned body of the range, and
 * one element per thread of the unaligned head and tail; no loop. Indices
 * are size_t past 64Ki elements, so ranges past 2^31 elements work.
 *
 * Accuracy (nvcc without --use_fast_math: IEEE division and square root):
 * add, sub, mul, div, sqrt, neg, abs, max, min, relu are exact or correctly
 * rounded; exp, log, tanh, sin, cos follow the CUDA Math API bounds (f32:
 * expf 2 ulp, logf 1 ulp, tanhf 2 ulp, sinf/cosf 2 ulp; f64: exp 1 ulp, log
 * 1 ulp, tanh 1 ulp, sin/cos 2 ulp; CUDA C++ Programming Guide,
 * "Mathematical Functions"); sigmoid f32 is computed in double and rounded
 * once, f64 as e^x / (1 + e^x) or 1 / (1 + e^-x) (about 3 ulp). axpby rounds exactly as the
 * CPU backend does (see AxpbyF). max and min are IEEE 754-2019
 * maximum/minimum: NaN-propagating, and -0 < +0 (kernel_common.cuh). */
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "../common/logistic.h"
#include "cuda_internal.h"
#include "kernel_common.cuh"

namespace accel_cuda
{
namespace
{

__device__ __forceinline__ float m_sqrt(float x)
{
    return sqrtf(x);
}
__device__ __forceinline__ double m_sqrt(double x)
{
    return sqrt(x);
}
__device__ __forceinline__ float m_exp(float x)
{
    return expf(x);
}
__device__ __forceinline__ double m_exp(double x)
{
    return exp(x);
}
__device__ __forceinline__ float m_log(float x)
{
    return logf(x);
}
__device__ __forceinline__ double m_log(double x)
{
    return log(x);
}
__device__ __forceinline__ float m_tanh(float x)
{
    return tanhf(x);
}
__device__ __forceinline__ double m_tanh(double x)
{
    return tanh(x);
}
__device__ __forceinline__ float m_sin(float x)
{
    return sinf(x);
}
__device__ __forceinline__ double m_sin(double x)
{
    return sin(x);
}
__device__ __forceinline__ float m_cos(float x)
{
    return cosf(x);
}
__device__ __forceinline__ double m_cos(double x)
{
    return cos(x);
}
/* The logistic function (common/logistic.h); f32 in double and rounded
 * once, as the CPU backend. */
__device__ __forceinline__ double m_sigmoid(double x)
{
    return accel_logistic(x);
}
__device__ __forceinline__ float m_sigmoid(float x)
{
    return (float)m_sigmoid((double)x);
}
__device__ __forceinline__ float m_abs(float x)
{
    return fabsf(x);
}
__device__ __forceinline__ double m_abs(double x)
{
    return fabs(x);
}

/* Functors take (a, b); unary ones and fill ignore what they do not use. */
struct AddF {
    template <class T> __device__ T operator()(T a, T b) const
    {
        return a + b;
    }
};
struct SubF {
    template <class T> __device__ T operator()(T a, T b) const
    {
        return a - b;
    }
};
struct MulF {
    template <class T> __device__ T operator()(T a, T b) const
    {
        return a * b;
    }
};
struct DivF {
    template <class T> __device__ T operator()(T a, T b) const
    {
        return a / b;
    }
};
struct MaxF {
    template <class T> __device__ T operator()(T a, T b) const
    {
        return nan_max(a, b);
    }
};
struct MinF {
    template <class T> __device__ T operator()(T a, T b) const
    {
        return nan_min(a, b);
    }
};
struct NegF {
    template <class T> __device__ T operator()(T a, T) const
    {
        return -a;
    }
};
/* A unary op whose element function is one m_* call (kernel_common.cuh):
 * out = f(a); the second operand is unused. */
#define ACCEL_UNARY_FN(Name, fn)                                                                   \
    struct Name {                                                                                  \
        template <class T> __device__ T operator()(T a, T) const                                   \
        {                                                                                          \
            return fn(a);                                                                          \
        }                                                                                          \
    }
ACCEL_UNARY_FN(AbsF, m_abs);
ACCEL_UNARY_FN(SqrtF, m_sqrt);
ACCEL_UNARY_FN(ExpF, m_exp);
ACCEL_UNARY_FN(LogF, m_log);
ACCEL_UNARY_FN(TanhF, m_tanh);
ACCEL_UNARY_FN(SinF, m_sin);
ACCEL_UNARY_FN(CosF, m_cos);
ACCEL_UNARY_FN(SigmoidF, m_sigmoid);
struct ReluF {
    template <class T> __device__ T operator()(T a, T) const
    {
        return (a > T(0) || a != a) ? a : T(0); /* NaN stays NaN */
    }
};
template <class T> struct ScaleF {
    T alpha;
    __device__ T operator()(T a, T) const
    {
        return alpha * a;
    }
};
/* As the CPU backend, bit for bit: f32 in double (both products exact, one
 * rounding to double, one to float), f64 without fused multiply-add. */
template <class T> struct AxpbyF;
template <> struct AxpbyF<float> {
    float alpha, beta;
    __device__ float operator()(float x, float y) const
    {
        return (float)__dadd_rn(__dmul_rn(alpha, x), __dmul_rn(beta, y));
    }
};
template <> struct AxpbyF<double> {
    double alpha, beta;
    __device__ double operator()(double x, double y) const
    {
        return __dadd_rn(__dmul_rn(alpha, x), __dmul_rn(beta, y));
    }
};
template <class T> struct FillF {
    T value;
    __device__ T operator()(T, T) const
    {
        return value;
    }
};

/* ------------------------------------------------ flat: one thread per item */

/* out[i] = f(a[i], b[i]) for NIN inputs (0: fill, 1: unary, 2: binary),
 * one thread per 16-byte vector and no loop: thread i does vector i of the
 * aligned body, and thread i < the scalar count also does scalar element i
 * (head, then tail). An output may be exactly an input (in place): each
 * element is read and then written by the same thread, so no __restrict__.
 * Index is the type of the thread index: unsigned for small ranges (fewer
 * registers), size_t beyond.
 *
 * Why flat, at every size (measured on the H200 and the H100):
 * - Small ranges (at most kSmallMax elements, one wave): the op takes a few
 *   microseconds and its cost is the kernel's latency: a grid-stride loop's
 *   4-deep unroll and bookkeeping (64 registers) cost about 0.3 us a node
 *   in a graph of 100 1024-element adds (130.7 us against a raw CUDA
 *   graph's 99.6 us; flat, about 22 registers, 0.99 of the raw graph).
 * - Large ranges (bench/ew_probe.cu, 2^28 f32, interleaved rounds): relu
 *   and exp at 1.02 of cudaMemcpyAsync on the H200 where a resident
 *   grid-stride loop with 4-deep unroll reached 0.95 (a 4-deep flat kernel
 *   0.98, a loop over block chunks 0.92), a float4 fill 1.09 against 1.03;
 *   add (in place, as axpby) 1.033 of copy on the H100 against the
 *   grid-stride loop's 0.990 (2 and 4 vectors per thread 1.030), which let
 *   PyTorch's add run 4% faster than accel's: blocks that finish make room
 *   for the next ones in address order. */
constexpr size_t kSmallMax = 65536;

/* Blocks of map_flat_kernel at most (gridDim.x is below 2^31). */
constexpr size_t kMaxFlatBlocks = 0x7fffffff;

template <typename T, int NIN, typename F, typename Index>
__global__ void __launch_bounds__(kThreads)
    map_flat_kernel(F f, Split s, const T *a, const T *b, T *out)
{
    using VT = typename Vec<T>::type;
    constexpr int W = Vec<T>::width;
    using U = VecElems<T>;
    const Index i = (Index)blockIdx.x * (Index)kThreads + (Index)threadIdx.x;
    if (i < (Index)s.nvec) {
        U ua, ub, uo;
        if (NIN >= 1)
            ua.v = reinterpret_cast<const VT *>(a + s.head)[i];
        if (NIN >= 2)
            ub.v = reinterpret_cast<const VT *>(b + s.head)[i];
#pragma unroll
        for (int k = 0; k < W; ++k)
            uo.e[k] = f(NIN >= 1 ? ua.e[k] : T(0), NIN >= 2 ? ub.e[k] : T(0));
        reinterpret_cast<VT *>(out + s.head)[i] = uo.v;
    }
    if (i < (Index)scalar_total<T>(s)) {
        const Index j = (Index)scalar_index<T>(s, i);
        out[j] = f(NIN >= 1 ? a[j] : T(0), NIN >= 2 ? b[j] : T(0));
    }
}

template <typename T, int NIN, typename Index, typename F>
cudaError_t launch_flat(cudaStream_t stream, F f, const Split &s, size_t blocks, const void *a,
                        const void *b, void *out)
{
    return launch<map_flat_kernel<T, NIN, F, Index>>(
        map_flat_kernel<T, NIN, F, Index>, (unsigned)blocks, stream, f, s,
        static_cast<const T *>(a), static_cast<const T *>(b), static_cast<T *>(out));
}

/* ------------------------------------------------ any range */

template <typename T, int NIN, typename F>
cudaError_t launch_map(cudaStream_t stream, unsigned max_blocks, F f, const void *a, const void *b,
                       void *out, size_t n)
{
    if (n == 0)
        return cudaSuccess;
    Split s = make_split<T>(n, out, NIN >= 1 ? a : nullptr, NIN >= 2 ? b : nullptr);
    size_t ns = scalar_total<T>(s);
    size_t flat = ((s.nvec > ns ? s.nvec : ns) + kThreads - 1) / kThreads;
    if (n <= kSmallMax && flat <= max_blocks)
        return launch_flat<T, NIN, unsigned>(stream, f, s, flat, a, b, out);
    if (flat > kMaxFlatBlocks) /* past 2^39 vectors: more than any GPU holds */
        return cudaErrorInvalidValue;
    return launch_flat<T, NIN, size_t>(stream, f, s, flat, a, b, out);
}

template <typename T>
cudaError_t binary_t(cudaStream_t s, unsigned mb, uint32_t op, const void *a, const void *b,
                     void *out, size_t n)
{
    switch (op) {
    case ACCEL_OP_ADD:
        return launch_map<T, 2>(s, mb, AddF{}, a, b, out, n);
    case ACCEL_OP_SUB:
        return launch_map<T, 2>(s, mb, SubF{}, a, b, out, n);
    case ACCEL_OP_MUL:
        return launch_map<T, 2>(s, mb, MulF{}, a, b, out, n);
    case ACCEL_OP_DIV:
        return launch_map<T, 2>(s, mb, DivF{}, a, b, out, n);
    case ACCEL_OP_MAX:
        return launch_map<T, 2>(s, mb, MaxF{}, a, b, out, n);
    case ACCEL_OP_MIN:
        return launch_map<T, 2>(s, mb, MinF{}, a, b, out, n);
    default:
        return cudaErrorNotSupported;
    }
}

template <typename T>
cudaError_t unary_t(cudaStream_t s, unsigned mb, uint32_t op, const void *x, void *out, size_t n)
{
    switch (op) {
    case ACCEL_OP_NEG:
        return launch_map<T, 1>(s, mb, NegF{}, x, nullptr, out, n);
    case ACCEL_OP_ABS:
        return launch_map<T, 1>(s, mb, AbsF{}, x, nullptr, out, n);
    case ACCEL_OP_SQRT:
        return launch_map<T, 1>(s, mb, SqrtF{}, x, nullptr, out, n);
    case ACCEL_OP_EXP:
        return launch_map<T, 1>(s, mb, ExpF{}, x, nullptr, out, n);
    case ACCEL_OP_LOG:
        return launch_map<T, 1>(s, mb, LogF{}, x, nullptr, out, n);
    case ACCEL_OP_TANH:
        return launch_map<T, 1>(s, mb, TanhF{}, x, nullptr, out, n);
    case ACCEL_OP_RELU:
        return launch_map<T, 1>(s, mb, ReluF{}, x, nullptr, out, n);
    case ACCEL_OP_SIN:
        return launch_map<T, 1>(s, mb, SinF{}, x, nullptr, out, n);
    case ACCEL_OP_COS:
        return launch_map<T, 1>(s, mb, CosF{}, x, nullptr, out, n);
    case ACCEL_OP_SIGMOID:
        return launch_map<T, 1>(s, mb, SigmoidF{}, x, nullptr, out, n);
    default:
        return cudaErrorNotSupported;
    }
}

/* ------------------------------------------------ GEMM with k == 0 */

__device__ __forceinline__ float to_f(float v)
{
    return v;
}
__device__ __forceinline__ float to_f(__half v)
{
    return __half2float(v);
}
__device__ __forceinline__ float to_f(__nv_bfloat16 v)
{
    return __bfloat162float(v);
}
template <class T> __device__ __forceinline__ T from_f(float v);
template <> __device__ __forceinline__ float from_f<float>(float v)
{
    return v;
}
template <> __device__ __forceinline__ __half from_f<__half>(float v)
{
    return __float2half_rn(v);
}
template <> __device__ __forceinline__ __nv_bfloat16 from_f<__nv_bfloat16>(float v)
{
    return __float2bfloat16_rn(v);
}

/* C = beta*C over batch x m x n elements; beta == 0 writes zeros without
 * reading C (BLAS rule: NaN in C is not propagated). f64 uses double. */
template <typename T, typename S>
__global__ void __launch_bounds__(kThreads)
    scale_matrix_kernel(T *c, size_t batch, size_t m, size_t n, size_t ldc, size_t stride_c, S beta)
{
    const size_t total = batch * m * n;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += stride) {
        size_t j = idx % n, r = idx / n;
        size_t i = r % m, bt = r / m;
        T *p = c + bt * stride_c + i * ldc + j;
        if (beta == S(0))
            *p = from_f<T>(0.0f);
        else
            *p = from_f<T>(beta * to_f(*p));
    }
}
template <typename T>
__global__ void __launch_bounds__(kThreads)
    scale_matrix_kernel_f64(T *c, size_t batch, size_t m, size_t n, size_t ldc, size_t stride_c,
                            double beta)
{
    const size_t total = batch * m * n;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x; idx < total; idx += stride) {
        size_t j = idx % n, r = idx / n;
        size_t i = r % m, bt = r / m;
        T *p = c + bt * stride_c + i * ldc + j;
        *p = beta == 0.0 ? 0.0 : beta * *p;
    }
}

__global__ void probe_kernel()
{
}

} // namespace
} // namespace accel_cuda

using namespace accel_cuda;

extern "C" cudaError_t accel_cuda__launch_fill(cudaStream_t stream, uint32_t max_blocks,
                                               uint32_t dtype, void *out, size_t n, double value)
{
    if (dtype == ACCEL_F32)
        return launch_map<float, 0>(stream, max_blocks, FillF<float>{(float)value}, nullptr,
                                    nullptr, out, n);
    if (dtype == ACCEL_F64)
        return launch_map<double, 0>(stream, max_blocks, FillF<double>{value}, nullptr, nullptr,
                                     out, n);
    return cudaErrorNotSupported;
}

extern "C" cudaError_t accel_cuda__launch_binary(cudaStream_t stream, uint32_t max_blocks,
                                                 uint32_t op, uint32_t dtype, const void *a,
                                                 const void *b, void *out, size_t n)
{
    if (dtype == ACCEL_F32)
        return binary_t<float>(stream, max_blocks, op, a, b, out, n);
    if (dtype == ACCEL_F64)
        return binary_t<double>(stream, max_blocks, op, a, b, out, n);
    return cudaErrorNotSupported;
}

extern "C" cudaError_t accel_cuda__launch_unary(cudaStream_t stream, uint32_t max_blocks,
                                                uint32_t op, uint32_t dtype, const void *x,
                                                void *out, size_t n)
{
    if (dtype == ACCEL_F32)
        return unary_t<float>(stream, max_blocks, op, x, out, n);
    if (dtype == ACCEL_F64)
        return unary_t<double>(stream, max_blocks, op, x, out, n);
    return cudaErrorNotSupported;
}

extern "C" cudaError_t accel_cuda__launch_scale(cudaStream_t stream, uint32_t max_blocks,
                                                uint32_t dtype, double alpha, const void *x,
                                                void *out, size_t n)
{
    if (dtype == ACCEL_F32)
        return launch_map<float, 1>(stream, max_blocks, ScaleF<float>{(float)alpha}, x, nullptr,
                                    out, n);
    if (dtype == ACCEL_F64)
        return launch_map<double, 1>(stream, max_blocks, ScaleF<double>{alpha}, x, nullptr, out, n);
    return cudaErrorNotSupported;
}

extern "C" cudaError_t accel_cuda__launch_axpby(cudaStream_t stream, uint32_t max_blocks,
                                                uint32_t dtype, double alpha, const void *x,
                                                double beta, void *y, size_t n)
{
    if (dtype == ACCEL_F32)
        return launch_map<float, 2>(stream, max_blocks, AxpbyF<float>{(float)alpha, (float)beta}, x,
                                    y, y, n);
    if (dtype == ACCEL_F64)
        return launch_map<double, 2>(stream, max_blocks, AxpbyF<double>{alpha, beta}, x, y, y, n);
    return cudaErrorNotSupported;
}

extern "C" cudaError_t accel_cuda__launch_scale_matrix(cudaStream_t stream, uint32_t max_blocks,
                                                       uint32_t dtype, void *c, size_t batch,
                                                       size_t m, size_t n, size_t ldc,
                                                       size_t stride_c, double beta)
{
    size_t total = batch * m * n;
    if (total == 0)
        return cudaSuccess;
    unsigned grid = grid_for(total, max_blocks);
    switch (dtype) {
    case ACCEL_F32:
        scale_matrix_kernel<float, float><<<grid, kThreads, 0, stream>>>(
            static_cast<float *>(c), batch, m, n, ldc, stride_c, (float)beta);
        break;
    case ACCEL_F64:
        scale_matrix_kernel_f64<double><<<grid, kThreads, 0, stream>>>(
            static_cast<double *>(c), batch, m, n, ldc, stride_c, beta);
        break;
    case ACCEL_F16:
        scale_matrix_kernel<__half, float><<<grid, kThreads, 0, stream>>>(
            static_cast<__half *>(c), batch, m, n, ldc, stride_c, (float)beta);
        break;
    case ACCEL_BF16:
        scale_matrix_kernel<__nv_bfloat16, float><<<grid, kThreads, 0, stream>>>(
            static_cast<__nv_bfloat16 *>(c), batch, m, n, ldc, stride_c, (float)beta);
        break;
    default:
        return cudaErrorNotSupported;
    }
    return cudaGetLastError();
}

extern "C" cudaError_t accel_cuda__probe_kernels(void)
{
    cudaFuncAttributes attr;
    return cudaFuncGetAttributes(&attr, probe_kernel);
}
