/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* cuda_prelude.cl — put before a raw kernel in the CUDA-C dialect that
 * translate.c turned into OpenCL C: CUDA's names spelled in OpenCL C 1.2.
 * translate.c does what a macro cannot (pointer address spaces, kernel
 * parameters, extern __shared__, long long); this does the rest. */
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
/* No contraction of a * b + c into an fma, as the CUDA backend's NVRTC
 * (--fmad=false) and the CPU twin: the array layer's loop kernels promise
 * the same bits on every backend (var's sum of squares). */
#pragma OPENCL FP_CONTRACT OFF
#define __CUDACC__ 1
#define __global__ __kernel
#define __device__
#define __host__
#define __forceinline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ restrict
#define __shared__ __local
#define __constant__ __constant
#define __align__(n) __attribute__((aligned(n)))
/* __launch_bounds__(...) is removed by translate.c: OpenCL C has no variadic
   macros (NVIDIA's compiler refuses them; PoCL's clang took them). */
#define __ldg(p) (*(p))
#define make_float2(x, y) ((float2)((x), (y)))
#define make_float4(x, y, z, w) ((float4)((x), (y), (z), (w)))
#define make_int2(x, y) ((int2)((x), (y)))
#define make_int4(x, y, z, w) ((int4)((x), (y), (z), (w)))
#define make_uint2(x, y) ((uint2)((x), (y)))
#define make_uint4(x, y, z, w) ((uint4)((x), (y), (z), (w)))
#define threadIdx ((uint3)((uint)get_local_id(0), (uint)get_local_id(1), (uint)get_local_id(2)))
#define blockIdx ((uint3)((uint)get_group_id(0), (uint)get_group_id(1), (uint)get_group_id(2)))
#define blockDim ((uint3)((uint)get_local_size(0), (uint)get_local_size(1), (uint)get_local_size(2)))
#define gridDim ((uint3)((uint)get_num_groups(0), (uint)get_num_groups(1), (uint)get_num_groups(2)))
#define __syncthreads() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#define __threadfence() mem_fence(CLK_GLOBAL_MEM_FENCE)
#define __threadfence_block() mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#define __int_as_float(v) as_float((int)(v))
#define __float_as_int(v) as_int((float)(v))
#define __uint_as_float(v) as_float((uint)(v))
#define __float_as_uint(v) as_uint((float)(v))
#define __longlong_as_double(v) as_double((long)(v))
#define __double_as_longlong(v) as_long((double)(v))
/* The f-suffixed libm names: OpenCL C overloads the plain ones. */
#define ACCEL_F1(n, x) ((float)n((float)(x)))
#define sqrtf(x) ACCEL_F1(sqrt, x)
#define expf(x) ACCEL_F1(exp, x)
#define logf(x) ACCEL_F1(log, x)
#define log2f(x) ACCEL_F1(log2, x)
#define log10f(x) ACCEL_F1(log10, x)
#define exp2f(x) ACCEL_F1(exp2, x)
#define expm1f(x) ACCEL_F1(expm1, x)
#define log1pf(x) ACCEL_F1(log1p, x)
#define sinf(x) ACCEL_F1(sin, x)
#define cosf(x) ACCEL_F1(cos, x)
#define tanf(x) ACCEL_F1(tan, x)
#define asinf(x) ACCEL_F1(asin, x)
#define acosf(x) ACCEL_F1(acos, x)
#define atanf(x) ACCEL_F1(atan, x)
#define sinhf(x) ACCEL_F1(sinh, x)
#define coshf(x) ACCEL_F1(cosh, x)
#define tanhf(x) ACCEL_F1(tanh, x)
#define asinhf(x) ACCEL_F1(asinh, x)
#define acoshf(x) ACCEL_F1(acosh, x)
#define atanhf(x) ACCEL_F1(atanh, x)
#define fabsf(x) ACCEL_F1(fabs, x)
#define floorf(x) ACCEL_F1(floor, x)
#define ceilf(x) ACCEL_F1(ceil, x)
#define roundf(x) ACCEL_F1(round, x)
#define truncf(x) ACCEL_F1(trunc, x)
#define rintf(x) ACCEL_F1(rint, x)
#define cbrtf(x) ACCEL_F1(cbrt, x)
#define erff(x) ACCEL_F1(erf, x)
#define erfcf(x) ACCEL_F1(erfc, x)
#define ACCEL_F2(n, x, y) ((float)n((float)(x), (float)(y)))
#define atan2f(x, y) ACCEL_F2(atan2, x, y)
#define powf(x, y) ACCEL_F2(pow, x, y)
#define fmodf(x, y) ACCEL_F2(fmod, x, y)
#define fminf(x, y) ACCEL_F2(fmin, x, y)
#define fmaxf(x, y) ACCEL_F2(fmax, x, y)
#define hypotf(x, y) ACCEL_F2(hypot, x, y)
#define copysignf(x, y) ACCEL_F2(copysign, x, y)
#define nextafterf(x, y) ACCEL_F2(nextafter, x, y)
#define fmaf(x, y, z) ((float)fma((float)(x), (float)(y), (float)(z)))
/* Atomics: OpenCL 1.2's 32-bit built-ins for int and unsigned, and
 * compare-and-swap loops on the bits for float (as CUDA's atomicAdd on
 * float returns the old value). */
#define ACCEL_OVL __attribute__((overloadable, always_inline))
#define ACCEL_ATOMIC_INT(AS, T)                                                                    \
    ACCEL_OVL T atomicAdd(volatile AS T *p, T v) { return atomic_add(p, v); }                      \
    ACCEL_OVL T atomicSub(volatile AS T *p, T v) { return atomic_sub(p, v); }                      \
    ACCEL_OVL T atomicExch(volatile AS T *p, T v) { return atomic_xchg(p, v); }                    \
    ACCEL_OVL T atomicMin(volatile AS T *p, T v) { return atomic_min(p, v); }                      \
    ACCEL_OVL T atomicMax(volatile AS T *p, T v) { return atomic_max(p, v); }                      \
    ACCEL_OVL T atomicAnd(volatile AS T *p, T v) { return atomic_and(p, v); }                      \
    ACCEL_OVL T atomicOr(volatile AS T *p, T v) { return atomic_or(p, v); }                        \
    ACCEL_OVL T atomicXor(volatile AS T *p, T v) { return atomic_xor(p, v); }                      \
    ACCEL_OVL T atomicCAS(volatile AS T *p, T cmp, T v) { return atomic_cmpxchg(p, cmp, v); }
/* atomicAdd on a floating type F through compare-and-swap (CAS) on its bits
 * (an unsigned U of the same size; TO_U and TO_F reinterpret). */
#define ACCEL_FP_ADD(AS, F, U, TO_U, TO_F, CAS)                                                    \
    ACCEL_OVL F atomicAdd(volatile AS F *p, F v)                                                   \
    {                                                                                              \
        U old = TO_U(*p), seen;                                                                    \
        do {                                                                                       \
            seen = old;                                                                            \
            old = CAS((volatile AS U *)p, seen, TO_U(TO_F(seen) + v));                             \
        } while (old != seen);                                                                     \
        return TO_F(old);                                                                          \
    }
#define ACCEL_ATOMIC_FP(AS)                                                                        \
    ACCEL_FP_ADD(AS, float, uint, as_uint, as_float, atomic_cmpxchg)                               \
    ACCEL_OVL float atomicExch(volatile AS float *p, float v)                                      \
    {                                                                                              \
        return as_float(atomic_xchg((volatile AS uint *)p, as_uint(v)));                           \
    }                                                                                              \
    ACCEL_OVL uint atomicInc(volatile AS uint *p, uint lim)                                        \
    {                                                                                              \
        ACCEL_CAS_LOOP(p, seen >= lim ? 0u : seen + 1u);                                           \
    }                                                                                              \
    ACCEL_OVL uint atomicDec(volatile AS uint *p, uint lim)                                        \
    {                                                                                              \
        ACCEL_CAS_LOOP(p, (seen == 0u || seen > lim) ? lim : seen - 1u);                           \
    }
/* Replaces *p (a 32-bit unsigned) by NEW, an expression of its value
 * `seen`, atomically; returns the old value. */
#define ACCEL_CAS_LOOP(p, NEW)                                                                     \
    uint old = *(p), seen;                                                                         \
    do {                                                                                           \
        seen = old;                                                                                \
        old = atomic_cmpxchg((p), seen, (NEW));                                                    \
    } while (old != seen);                                                                         \
    return old
ACCEL_ATOMIC_INT(__global, int)
ACCEL_ATOMIC_INT(__global, uint)
ACCEL_ATOMIC_INT(__local, int)
ACCEL_ATOMIC_INT(__local, uint)
ACCEL_ATOMIC_FP(__global)
ACCEL_ATOMIC_FP(__local)
/* 64-bit atomics where the device has them (unsigned long long and long
 * long are ulong and long here): add, exchange, compare-and-swap, and
 * atomicAdd on double as a compare-and-swap loop. */
#ifdef cl_khr_int64_base_atomics
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define ACCEL_ATOMIC_64(AS, T)                                                                     \
    ACCEL_OVL T atomicAdd(volatile AS T *p, T v) { return atom_add(p, v); }                        \
    ACCEL_OVL T atomicExch(volatile AS T *p, T v) { return atom_xchg(p, v); }                      \
    ACCEL_OVL T atomicCAS(volatile AS T *p, T cmp, T v) { return atom_cmpxchg(p, cmp, v); }
ACCEL_ATOMIC_64(__global, ulong)
ACCEL_ATOMIC_64(__global, long)
ACCEL_ATOMIC_64(__local, ulong)
ACCEL_ATOMIC_64(__local, long)
#ifdef cl_khr_fp64
#define ACCEL_ATOMIC_F64(AS) ACCEL_FP_ADD(AS, double, ulong, as_ulong, as_double, atom_cmpxchg)
ACCEL_ATOMIC_F64(__global)
ACCEL_ATOMIC_F64(__local)
#endif
#endif
