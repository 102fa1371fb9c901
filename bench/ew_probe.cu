/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* ew_probe.cu — kernel shapes for the streaming ops side by side on one GPU
 * (built only with the CUDA backend; a program, not a test): write-only
 * (cudaMemsetAsync, a float4 fill with plain and streaming stores), one-in
 * one-out (relu and exp f32 as the CUDA backend's map kernel does them, and
 * variants: unroll depth, grid size, streaming loads and stores, __expf with
 * a correction), and Philox fills (uniform with 64-bit products or __umulhi,
 * the old and new loop shapes; f32 normal in the previous backend's form and
 * leaner forms of the same formula, with one, two or four counters per
 * thread and step or software-pipelined, and Philox and Box-Muller alone).
 * Each row is the median of --rounds interleaved rounds (min..max), as GB/s
 * of bytes read plus written and as a fraction of cudaMemcpyAsync device to
 * device in the same run (for write-only rows: bytes written over the copy
 * rate, as `accel bench` counts random fills). Results are checked against a
 * host loop on a sample.
 *
 * The f32 normal rows come with the exhaustive accuracy of their parts on
 * the GPU and a check of whole outputs against accel.h's formula (--check 0
 * skips them); --only keeps the rows whose names contain one of its
 * '|'-separated parts (and the copy row).
 *
 * --accel 1 times the library's own fills instead (accel_random_normal,
 * _uniform, accel_copy through accel events, as `accel bench` does, and
 * batched), beside the probe's degree-6 standard kernel launched into the
 * same accel buffer on the same queue's stream, to tell kernel time from host
 * time inside the bench's rows and the library's kernel from the probe's.
 * x + y.T rows (S x S float32, S = 2^(log2n / 2)) time the tile shapes of
 * the array layer's transposed-operand walk. The degree-6 standard row also
 * runs in more and smaller blocks (grid x1 to x32 of what is resident,
 * 256/128/64 threads).
 *
 *   ew_probe [--log2n 28] [--rounds 7] [--device 0] [--only A|B..] [--check 1]
 *            [--accel 0] */
#include <accel/accel.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "../backends/common/philox.h"

namespace
{

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x,                        \
                         cudaGetErrorString(e_));                                                  \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

constexpr int kT = 256;

/* ------------------------------------------------------------ write-only */

template <bool CS> __global__ void __launch_bounds__(kT) fill_kernel(float4 *o, size_t nv, float v)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < nv; i += stride) {
        float4 x = make_float4(v, v, v, v);
        if (CS)
            __stcs(o + i, x);
        else
            o[i] = x;
    }
}

/* ------------------------------------------------------------ one in, one out */

struct Relu {
    __device__ float operator()(float a) const
    {
        return (a > 0.0f || a != a) ? a : 0.0f;
    }
};
struct Exp {
    __device__ float operator()(float a) const
    {
        return expf(a);
    }
};

/* LOAD: 0 plain, 1 __ldg, 2 __ldcs; STORE: 0 plain, 1 __stcs. */
template <int LOAD> __device__ __forceinline__ float4 ld(const float4 *p)
{
    if (LOAD == 1)
        return __ldg(p);
    if (LOAD == 2)
        return __ldcs(p);
    return *p;
}
template <int STORE> __device__ __forceinline__ void st(float4 *p, float4 v)
{
    if (STORE == 1)
        __stcs(p, v);
    else
        *p = v;
}

template <class F> __device__ __forceinline__ float4 apply(F f, float4 v)
{
    return make_float4(f(v.x), f(v.y), f(v.z), f(v.w));
}

/* The backend's shape: grid-stride, U vector loads in flight per thread. */
template <class F, int U, int LOAD, int STORE>
__global__ void __launch_bounds__(kT) map_gs(F f, const float4 *a, float4 *o, size_t nv)
{
    const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i0 = tid; i0 < nv; i0 += stride * U) {
        float4 v[U];
#pragma unroll
        for (int u = 0; u < U; ++u)
            if (i0 + u * stride < nv)
                v[u] = ld<LOAD>(a + i0 + u * stride);
#pragma unroll
        for (int u = 0; u < U; ++u)
            if (i0 + u * stride < nv)
                st<STORE>(o + i0 + u * stride, apply(f, v[u]));
    }
}

/* Grid-stride over block chunks: each step a block takes U*kT consecutive
 * vectors (thread t: t, t + kT, ...), so the grid moves through memory as one
 * front instead of U fronts a stride apart. */
template <class F, int U>
__global__ void __launch_bounds__(kT) map_gsc(F f, const float4 *a, float4 *o, size_t nv)
{
    const size_t chunk = (size_t)U * kT;
    for (size_t c0 = (size_t)blockIdx.x * chunk + threadIdx.x; c0 < nv;
         c0 += (size_t)gridDim.x * chunk) {
        float4 v[U];
#pragma unroll
        for (int u = 0; u < U; ++u)
            if (c0 + u * kT < nv)
                v[u] = a[c0 + u * kT];
#pragma unroll
        for (int u = 0; u < U; ++u)
            if (c0 + u * kT < nv)
                o[c0 + u * kT] = apply(f, v[u]);
    }
}

/* One block per U*kT vectors, no loop: the grid covers the work. */
template <class F, int U, int LOAD, int STORE>
__global__ void __launch_bounds__(kT) map_flat(F f, const float4 *a, float4 *o, size_t nv)
{
    const size_t base = (size_t)blockIdx.x * (kT * U) + threadIdx.x;
    float4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u)
        if (base + u * kT < nv)
            v[u] = ld<LOAD>(a + base + u * kT);
#pragma unroll
    for (int u = 0; u < U; ++u)
        if (base + u * kT < nv)
            st<STORE>(o + base + u * kT, apply(f, v[u]));
}

/* Flat, each thread U consecutive vectors (16*U contiguous bytes). */
template <class F, int U>
__global__ void __launch_bounds__(kT) map_contig(F f, const float4 *a, float4 *o, size_t nv)
{
    const size_t base = ((size_t)blockIdx.x * kT + threadIdx.x) * U;
    float4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u)
        if (base + u < nv)
            v[u] = a[base + u];
#pragma unroll
    for (int u = 0; u < U; ++u)
        if (base + u < nv)
            o[base + u] = apply(f, v[u]);
}

/* add, two inputs: the grid-stride loop of map_kernel (FLAT 0) and flat
 * shapes with FLAT vectors per thread, a block's FLAT x kT vectors in one
 * chunk, thread t doing t, t + kT, ... (run in place on the second input,
 * as axpby: read a and o, write o). */
template <int FLAT>
__global__ void __launch_bounds__(kT)
    add_kernel(const float4 *a, const float4 *b, float4 *o, size_t nv)
{
    const size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (FLAT) {
        const size_t base = (size_t)blockIdx.x * kT * FLAT + threadIdx.x;
        float4 x[FLAT ? FLAT : 1], y[FLAT ? FLAT : 1];
#pragma unroll
        for (int u = 0; u < FLAT; ++u)
            if (base + u * kT < nv) {
                x[u] = a[base + u * kT];
                y[u] = b[base + u * kT];
            }
#pragma unroll
        for (int u = 0; u < FLAT; ++u)
            if (base + u * kT < nv)
                o[base + u * kT] =
                    make_float4(x[u].x + y[u].x, x[u].y + y[u].y, x[u].z + y[u].z, x[u].w + y[u].w);
        return;
    }
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i0 = tid; i0 < nv; i0 += stride * 4) {
        float4 x[4], y[4];
#pragma unroll
        for (int u = 0; u < 4; ++u)
            if (i0 + u * stride < nv) {
                x[u] = a[i0 + u * stride];
                y[u] = b[i0 + u * stride];
            }
#pragma unroll
        for (int u = 0; u < 4; ++u)
            if (i0 + u * stride < nv)
                o[i0 + u * stride] =
                    make_float4(x[u].x + y[u].x, x[u].y + y[u].y, x[u].z + y[u].z, x[u].w + y[u].w);
    }
}

/* add in the generated walk's shape for a contiguous line: grid-stride,
 * one 16-byte run per thread and step (the array layer's runs of 4). */
__global__ void __launch_bounds__(kT) add_walk(const float4 *a, const float4 *b, float4 *o, int nv)
{
    const int step = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nv; i += step) {
        const float4 x = a[i], y = b[i];
        o[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}

/* out = x + y.T for S x S float32 (x, y, out row-major), in tiles of TW x
 * TW per block of 256 threads (warp w: rows w, w + 8, ...; lane: the
 * column, and column + 32 for TW 64), y's tile staged through shared
 * memory (rows padded to TW + 1: no bank conflicts), as the array layer's
 * generated tile walk (core/arrays/codegen.c, tile_walk) does. PRE: x's
 * elements loaded into registers before the barrier (their loads in flight
 * with y's); else after it, as generated. Tiles grid-stride from the
 * block's index. */
template <int TW, bool PRE, bool STCS>
__global__ void __launch_bounds__(kT) tadd(const float *__restrict__ x, const float *__restrict__ y,
                                           float *__restrict__ o, int S, int tn, int ntiles)
{
    __shared__ float m[TW * (TW + 1)];
    constexpr int H = TW / 32, R = TW * TW / kT;
    const int wp = threadIdx.x / 32, ln = threadIdx.x % 32;
    for (int t = blockIdx.x; t < ntiles; t += gridDim.x) {
        const int r0 = (t / tn) * TW, c0 = (t % tn) * TW;
        float xv[R];
#pragma unroll
        for (int k = 0; k < R; ++k) {
            const int row = wp + 8 * (k / H), col = ln + 32 * (k % H);
            /* y's element (c0 + row, r0 + col) is out's (r0 + col, c0 + row) */
            m[row * (TW + 1) + col] = y[(c0 + row) * S + r0 + col];
            if (PRE)
                xv[k] = x[(r0 + row) * S + c0 + col];
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < R; ++k) {
            const int row = wp + 8 * (k / H), col = ln + 32 * (k % H);
            const int at = (r0 + row) * S + c0 + col;
            const float v = (PRE ? xv[k] : x[at]) + m[col * (TW + 1) + row];
            if (STCS)
                __stcs(o + at, v);
            else
                o[at] = v;
        }
        __syncthreads();
    }
}

/* ------------------------------------------------------------ Philox fills */

/* The generator with 64-bit products (nvcc adds a zero to each high word). */
__device__ __forceinline__ accel_philox_words philox_wide(uint64_t c, uint64_t seed)
{
    uint32_t c0 = (uint32_t)c, c1 = (uint32_t)(c >> 32), c2 = 0, c3 = 0;
    uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
    for (int round = 0; round < 10; ++round) {
        if (round > 0) {
            k0 += ACCEL_PHILOX_W0;
            k1 += ACCEL_PHILOX_W1;
        }
        uint64_t p0 = (uint64_t)ACCEL_PHILOX_M0 * c0;
        uint64_t p1 = (uint64_t)ACCEL_PHILOX_M1 * c2;
        uint32_t hi0 = (uint32_t)(p0 >> 32), lo0 = (uint32_t)p0;
        uint32_t hi1 = (uint32_t)(p1 >> 32), lo1 = (uint32_t)p1;
        uint32_t n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
        c0 = n0;
        c1 = lo1;
        c2 = n2;
        c3 = lo0;
    }
    accel_philox_words r = {{c0, c1, c2, c3}};
    return r;
}

template <bool WIDE> __device__ __forceinline__ float4 uniform4(uint64_t c, uint64_t seed)
{
    accel_philox_words r = WIDE ? philox_wide(c, seed) : accel_philox_block(c, seed);
    return make_float4((float)(r.w[0] >> 8) * 0x1p-24f, (float)(r.w[1] >> 8) * 0x1p-24f,
                       (float)(r.w[2] >> 8) * 0x1p-24f, (float)(r.w[3] >> 8) * 0x1p-24f);
}

/* Old loop: 64-bit counter index, range checks per counter. */
template <bool WIDE>
__global__ void __launch_bounds__(kT) uni_old(uint64_t seed, uint64_t ncnt, float4 *o)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; t < ncnt; t += stride) {
        float4 v = uniform4<WIDE>(t, seed);
        if (t < ncnt) /* the old kernel's range check, kept for its cost */
            o[t] = v;
    }
}

/* New loop: 32-bit index from the first full counter. */
template <bool WIDE, int STORE>
__global__ void __launch_bounds__(kT) uni_new(uint64_t seed, uint64_t c0, uint32_t ncnt, float4 *o)
{
    const uint32_t stride = gridDim.x * blockDim.x;
    for (uint32_t t = blockIdx.x * blockDim.x + threadIdx.x; t < ncnt; t += stride)
        st<STORE>(o + t, uniform4<WIDE>(c0 + t, seed));
}

/* -2 ln u1 by philox.h's steps with Q of degree DEG: 6 is philox.h's own
 * (round 5); 8 the degree of rounds 3 and 4 (0.90 ulp at worst), which the
 * older rows below keep; 7 a candidate of round 5 (1.03 ulp). Degrees 7 and
 * 6 were fitted toward minimax error in ulps of -2 ln u1, then each float
 * coefficient nudged to lower the largest error over all 2^24 draws (the
 * same bits on every backend, so measured on the CPU). */
template <int DEG> __device__ __forceinline__ float neg2log_deg(uint32_t d)
{
    if constexpr (DEG == 6) {
        return accel_philox_neg2log_f32(d);
    } else {
        float x = (float)d;
        int32_t b = __float_as_int(x);
        int32_t k = (int32_t)(((uint32_t)b - (0x3f2aaaabu + (24u << 23))) & 0xff800000u);
        float g = 2.0f - __int_as_float(b - (int32_t)(23u << 23) - k);
        /* Q's coefficients c_i times (-1/2)^(i+1), as in philox.h. */
        float q;
        if constexpr (DEG == 7) {
            q = 0.149590507f * 0x1p-8f;
            q = fmaf(q, g, -0.153541476f * -0x1p-7f);
            q = fmaf(q, g, 0.137608707f * 0x1p-6f);
            q = fmaf(q, g, -0.164294675f * -0x1p-5f);
            q = fmaf(q, g, 0.200303331f * 0x1p-4f);
            q = fmaf(q, g, -0.250063002f * -0x1p-3f);
            q = fmaf(q, g, 0.333326876f * 0x1p-2f);
            q = fmaf(q, g, -0.499999851f * -0x1p-1f);
        } else {
            q = -0.12948833405971527f * -0x1p-9f;
            q = fmaf(q, g, 0.14004762470722198f * 0x1p-8f);
            q = fmaf(q, g, -0.12167185544967651f * -0x1p-7f);
            q = fmaf(q, g, 0.14001159369945526f * 0x1p-6f);
            q = fmaf(q, g, -0.16682302951812744f * -0x1p-5f);
            q = fmaf(q, g, 0.20010747015476227f * 0x1p-4f);
            q = fmaf(q, g, -0.24999716877937317f * -0x1p-3f);
            q = fmaf(q, g, 0.3333320915699005f * 0x1p-2f);
            q = fmaf(q, g, -0.5f * -0x1p-1f);
        }
        float r = fmaf(g * g, q, g);
        return fmaf((float)k, -2.0f * 0.693147182464599609375f * 0x1p-23f, r);
    }
}

/* f32 normal from the draws d = (w >> 8) + 1: VAR 0 as the backend before
 * its lean form (philox.h's -2 ln, rsqrt.approx, __sincosf on the shifted
 * angle); 3 the same with CUDA's logf; 1 with logf, sqrtf and sincosf; 2
 * with __logf (not accurate enough near u1 = 1: a speed bound only). */
template <int VAR>
__device__ __forceinline__ void bm(uint32_t d1, uint32_t d2, float *z0, float *z1)
{
    const float two_pi = 6.28318530717958647692f, pi = 3.14159265358979323846f;
    const float u1 = (float)d1 * 0x1p-24f, u2 = (float)d2 * 0x1p-24f;
    float l = VAR == 0   ? neg2log_deg<8>(d1)
              : VAR == 2 ? __fmul_rn(-2.0f, __logf(u1))
                         : __fmul_rn(-2.0f, logf(u1)),
          r;
    if (VAR == 1) {
        r = sqrtf(l);
    } else {
        float q;
        asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(q) : "f"(l));
        r = l > 0.0f ? __fmul_rn(l, q) : 0.0f;
    }
    float theta = __fmul_rn(two_pi, u2), s, c;
    if (VAR == 1) {
        sincosf(theta, &s, &c);
    } else {
        __sincosf(__fsub_rn(theta, pi), &s, &c);
        s = -s;
        c = -c;
    }
    *z0 = r * c;
    *z1 = r * s;
}

template <int VAR>
__global__ void __launch_bounds__(kT) normal_new(uint64_t seed, uint32_t ncnt, float4 *o)
{
    const uint32_t stride = gridDim.x * blockDim.x;
    for (uint32_t t = blockIdx.x * blockDim.x + threadIdx.x; t < ncnt; t += stride) {
        accel_philox_words r = accel_philox_block(t, seed);
        float v[4];
#pragma unroll
        for (int p = 0; p < 2; ++p)
            bm<VAR>((r.w[2 * p] >> 8) + 1u, (r.w[2 * p + 1] >> 8) + 1u, &v[2 * p], &v[2 * p + 1]);
        o[t] = make_float4(v[0], v[1], v[2], v[3]);
    }
}

/* VAR 0 with mean and stddev (MS 1), or two counters per
 * thread and step (ILP 2). */
template <int MS, int ILP>
__global__ void __launch_bounds__(kT)
    normal_ms(uint64_t seed, uint32_t ncnt, float mean, float sd, float4 *o)
{
    const uint32_t stride = gridDim.x * blockDim.x;
    for (uint32_t t0 = blockIdx.x * blockDim.x + threadIdx.x; t0 < ncnt; t0 += stride * ILP) {
#pragma unroll
        for (int k = 0; k < ILP; ++k) {
            uint32_t t = t0 + k * stride;
            if (t >= ncnt)
                break;
            accel_philox_words r = accel_philox_block(t, seed);
            float v[4];
#pragma unroll
            for (int p = 0; p < 2; ++p) {
                bm<0>((r.w[2 * p] >> 8) + 1u, (r.w[2 * p + 1] >> 8) + 1u, &v[2 * p], &v[2 * p + 1]);
                if (MS) {
                    v[2 * p] = __fadd_rn(mean, __fmul_rn(sd, v[2 * p]));
                    v[2 * p + 1] = __fadd_rn(mean, __fmul_rn(sd, v[2 * p + 1]));
                }
            }
            o[t] = make_float4(v[0], v[1], v[2], v[3]);
        }
    }
}

/* f32 normal, lean forms (same formula): the angle as one product of the
 * integer draw, fl(2pi_f * 2^-24 * d) == fl(2pi_f * u2) (a power-of-two
 * scale of the same real); -2 ln u1 by philox.h from the draw. SQ: 0 sqrt
 * as the backend (L * rsqrt(L), 0 for L = 0), 1 sqrt.approx (MUFU.SQRT),
 * 2 L * rsqrt(max(L, 2^-126)); SQ + 4: __sincosf on theta itself, in
 * (0, 2pi], instead of theta - pi (one subtraction fewer, a larger input to
 * MUFU's scaling). FMA: 0 mean + fl(sr * -c) as the backend, 1 one fma. */
template <int SQ> __device__ __forceinline__ float sqrt_of(float l)
{
    float q;
    if (SQ == 1) {
        asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(q) : "f"(l));
        return q;
    }
    if (SQ == 2) {
        asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(q) : "f"(fmaxf(l, 0x1p-126f)));
        return __fmul_rn(l, q);
    }
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(q) : "f"(l));
    return l > 0.0f ? __fmul_rn(l, q) : 0.0f;
}

/* r and (cos, sin) of one pair from its two words. */
template <int SQ>
__device__ __forceinline__ void lean_parts(uint32_t w1, uint32_t w2, float *r, float *c, float *s)
{
    const float two_pi = 6.28318530717958647692f, pi = 3.14159265358979323846f;
    *r = sqrt_of<SQ & 3>(neg2log_deg<8>((w1 >> 8) + 1u));
    float theta = __fmul_rn((float)((w2 >> 8) + 1u), two_pi * 0x1p-24f);
    float sn, cs;
    if (SQ & 4) {
        __sincosf(theta, &sn, &cs);
        *c = cs;
        *s = sn;
        return;
    }
    __sincosf(__fsub_rn(theta, pi), &sn, &cs);
    *c = -cs;
    *s = -sn;
}

template <int SQ, int FMA>
__device__ __forceinline__ void bm_lean(uint32_t w1, uint32_t w2, float mean, float sd, float *z0,
                                        float *z1)
{
    float r, c, s;
    lean_parts<SQ>(w1, w2, &r, &c, &s);
    float sr = __fmul_rn(sd, r);
    *z0 = FMA ? __fmaf_rn(sr, c, mean) : __fadd_rn(mean, __fmul_rn(sr, c));
    *z1 = FMA ? __fmaf_rn(sr, s, mean) : __fadd_rn(mean, __fmul_rn(sr, s));
}

/* One counter's four normals. */
template <int SQ, int FMA>
__device__ __forceinline__ float4 normal4(uint32_t t, const accel_philox_keys &ks, float mean,
                                          float sd)
{
    accel_philox_words r = accel_philox4x32_10_keyed(t, 0u, 0u, 0u, &ks);
    float v[4];
    bm_lean<SQ, FMA>(r.w[0], r.w[1], mean, sd, &v[0], &v[1]);
    bm_lean<SQ, FMA>(r.w[2], r.w[3], mean, sd, &v[2], &v[3]);
    return make_float4(v[0], v[1], v[2], v[3]);
}

/* ILP counters per thread and step: counters t0 + k * stride, k < ILP, all
 * drawn before any is stored. MINB: __launch_bounds__ minimum blocks. The
 * key schedule is a parameter, as in the backend. */
template <int SQ, int FMA, int ILP, int MINB>
__global__ void __launch_bounds__(kT, MINB)
    normal_lean(accel_philox_keys ks, uint32_t ncnt, float mean, float sd, float4 *o)
{
    const uint32_t stride = gridDim.x * blockDim.x;
    uint32_t t0 = blockIdx.x * blockDim.x + threadIdx.x;
    if constexpr (ILP > 1)
        for (; t0 + (ILP - 1) * stride < ncnt; t0 += stride * ILP) {
            float4 v[ILP];
#pragma unroll
            for (int k = 0; k < ILP; ++k)
                v[k] = normal4<SQ, FMA>(t0 + k * stride, ks, mean, sd);
#pragma unroll
            for (int k = 0; k < ILP; ++k)
                o[t0 + k * stride] = v[k];
        }
    for (; t0 < ncnt; t0 += stride)
        o[t0] = normal4<SQ, FMA>(t0, ks, mean, sd);
}

/* Software-pipelined: the Philox block of the thread's next counter is
 * computed beside the Box-Muller steps of this one (no dependence between
 * them), so each warp's instruction stream mixes the integer multiplies with
 * the float and MUFU work instead of alternating phases. */
template <int SQ, int FMA>
__device__ __forceinline__ float4 bm4(const accel_philox_words &r, float mean, float sd)
{
    float v[4];
    bm_lean<SQ, FMA>(r.w[0], r.w[1], mean, sd, &v[0], &v[1]);
    bm_lean<SQ, FMA>(r.w[2], r.w[3], mean, sd, &v[2], &v[3]);
    return make_float4(v[0], v[1], v[2], v[3]);
}

template <int SQ, int FMA, int MINB>
__global__ void __launch_bounds__(kT, MINB)
    normal_pipe(accel_philox_keys ks, uint32_t ncnt, float mean, float sd, float4 *o)
{
    const uint32_t stride = gridDim.x * blockDim.x;
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= ncnt)
        return;
    accel_philox_words cur = accel_philox4x32_10_keyed(t, 0u, 0u, 0u, &ks);
    for (;;) {
        const uint32_t tn = t + stride;
        const bool more = tn < ncnt; /* ncnt < 2^31: no wrap */
        accel_philox_words nxt = accel_philox4x32_10_keyed(more ? tn : t, 0u, 0u, 0u, &ks);
        o[t] = bm4<SQ, FMA>(cur, mean, sd);
        if (!more)
            break;
        cur = nxt;
        t = tn;
    }
}

/* Parts in isolation, compute-bound: Philox alone (4 counters per store,
 * words xor-ed), Box-Muller alone (words from one multiply each). */
__global__ void __launch_bounds__(kT) philox_only(uint64_t seed, uint32_t nst, float4 *o)
{
    const uint32_t stride = gridDim.x * blockDim.x;
    for (uint32_t t = blockIdx.x * blockDim.x + threadIdx.x; t < nst; t += stride) {
        uint32_t x[4] = {0, 0, 0, 0};
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            accel_philox_words r = accel_philox_block(4u * t + k, seed);
#pragma unroll
            for (int j = 0; j < 4; ++j)
                x[j] ^= r.w[j];
        }
        o[t] = make_float4(__uint_as_float(x[0]), __uint_as_float(x[1]), __uint_as_float(x[2]),
                           __uint_as_float(x[3]));
    }
}

template <int SQ, int FMA>
__global__ void __launch_bounds__(kT)
    bm_only(uint32_t key, uint32_t ncnt, float mean, float sd, float4 *o)
{
    const uint32_t stride = gridDim.x * blockDim.x;
    for (uint32_t t = blockIdx.x * blockDim.x + threadIdx.x; t < ncnt; t += stride) {
        uint32_t w[4];
#pragma unroll
        for (int j = 0; j < 4; ++j)
            w[j] = (4u * t + j) * ACCEL_PHILOX_M0 + key;
        float v[4];
        bm_lean<SQ, FMA>(w[0], w[1], mean, sd, &v[0], &v[1]);
        bm_lean<SQ, FMA>(w[2], w[3], mean, sd, &v[2], &v[3]);
        o[t] = make_float4(v[0], v[1], v[2], v[3]);
    }
}

/* The backend's Box-Muller step (backends/cuda/kernels_random.cu) with the
 * logarithm LOG. */
template <int LOG>
__device__ __forceinline__ void bm5(uint32_t w1, uint32_t w2, float mean, float sd, float *z0,
                                    float *z1)
{
    float r;
    asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(neg2log_deg<LOG>((w1 >> 8) + 1u)));
    float s, c;
    __sincosf(__fmul_rn((float)((w2 >> 8) + 1u), 6.28318530717958647692f * 0x1p-24f), &s, &c);
    float sr = sd * r;
    *z0 = __fmaf_rn(sr, c, mean);
    *z1 = __fmaf_rn(sr, s, mean);
}

template <int LOG>
__device__ __forceinline__ float4 normal5_4(uint32_t c0, uint32_t c_hi, const accel_philox_keys &ks,
                                            float mean, float sd)
{
    accel_philox_words r = accel_philox4x32_10_keyed(c0, c_hi, 0u, 0u, &ks);
    float4 v;
    bm5<LOG>(r.w[0], r.w[1], mean, sd, &v.x, &v.y);
    bm5<LOG>(r.w[2], r.w[3], mean, sd, &v.z, &v.w);
    return v;
}

/* A plain 16-byte store at global address a, as the backend's. */
__device__ __forceinline__ void st_global(uint64_t a, float4 v)
{
    asm volatile("st.global.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(a), "f"(v.x), "f"(v.y), "f"(v.z),
                 "f"(v.w)
                 : "memory");
}

/* The backend's vector loop, U counters per thread and step, for counters
 * lo0 + t (t < nfull) of high word c_hi. LOOP 0: the index t runs (round 4's
 * backend: lo0 + t formed per counter); 1: the counter's low word itself runs
 * and the store address is base + 16 c (round 5). STD: mean +0, stddev 1 as
 * constants (the standard-normal instance). MINB: __launch_bounds__'s
 * minimum blocks (8: at most 32 registers). */
template <int LOG, int LOOP, bool STD, int U, int MINB>
__global__ void __launch_bounds__(kT, MINB)
    normal5_k(accel_philox_keys ks, uint32_t lo0, uint32_t c_hi, uint32_t nfull, float mean,
              float sd, float4 *__restrict__ body)
{
    if constexpr (STD) {
        mean = 0.0f;
        sd = 1.0f;
    }
    const uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t stride = gridDim.x * blockDim.x;
    asm("" : "+r"(stride));
    if constexpr (LOOP == 0) {
        uint32_t t = tid;
        for (; t + (U - 1) * stride < nfull; t += U * stride) {
            float4 v[U];
#pragma unroll
            for (int u = 0; u < U; ++u)
                v[u] = normal5_4<LOG>(lo0 + t + u * stride, c_hi, ks, mean, sd);
#pragma unroll
            for (int u = 0; u < U; ++u)
                body[t + u * stride] = v[u];
        }
        for (; t < nfull; t += stride)
            body[t] = normal5_4<LOG>(lo0 + t, c_hi, ks, mean, sd);
    } else {
        const uint64_t base = __cvta_generic_to_global(body) - (uint64_t)lo0 * sizeof(float4);
        auto at = [base](uint32_t c) { return base + (uint64_t)c * sizeof(float4); };
        const uint32_t top =
            nfull > (U - 1) * stride && (uint64_t)lo0 + nfull + stride <= (1ull << 32)
                ? lo0 + nfull - (U - 1) * stride
                : 0u;
        uint32_t c = lo0 + tid;
        for (; c < top; c += U * stride) {
            float4 v[U];
#pragma unroll
            for (int u = 0; u < U; ++u)
                v[u] = normal5_4<LOG>(c + u * stride, c_hi, ks, mean, sd);
#pragma unroll
            for (int u = 0; u < U; ++u)
                st_global(at(c + u * stride), v[u]);
        }
        for (; c - lo0 < nfull; c += stride)
            st_global(at(c), normal5_4<LOG>(c, c_hi, ks, mean, sd));
    }
}

/* r = sqrt.approx(-2 ln u1) for every draw by the logarithm LOG. */
template <int LOG> __global__ void r_all(float *r)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x; /* k < 2^24: draw k + 1 */
    float q;
    asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(q) : "f"(neg2log_deg<LOG>(k + 1u)));
    r[k] = q;
}

/* Exhaustive accuracy of the parts on this GPU: r for every u1 = k 2^-24
 * (k = 1 .. 2^24) and (cos, sin) for every u2, by the backend's path (SQ 0)
 * or a lean one. */
template <int SQ> __global__ void parts_all(float *r, float2 *cs)
{
    uint32_t k = blockIdx.x * blockDim.x + threadIdx.x; /* k < 2^24 */
    if (SQ == 3) { /* MUFU.LG2 (__log2f) of u1, for a log that would use it */
        r[k] = __log2f((float)(k + 1) * 0x1p-24f);
        return;
    }
    float rr, c, s;
    lean_parts<SQ>(k << 8, k << 8, &rr, &c, &s); /* draws (k + 1) 2^-24 */
    r[k] = rr;
    cs[k] = make_float2(c, s);
}

/* ------------------------------------------------------------ driver */

struct Row {
    std::string name;
    double bytes;    /* counted bytes (read + written) */
    bool write_only; /* ratio as bytes written over the copy rate */
    std::function<void()> run;
    std::vector<double> ms;
};

template <auto K> int resident()
{
    int b = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b, K, kT, 0));
    return b;
}

/* Whether name contains one of the '|'-separated parts of only. */
bool matches(const std::string &name, const char *only)
{
    std::string o(only);
    for (size_t b = 0;;) {
        size_t e = o.find('|', b);
        std::string part = o.substr(b, e == std::string::npos ? std::string::npos : e - b);
        if (!part.empty() && name.find(part) != std::string::npos)
            return true;
        if (e == std::string::npos)
            return false;
        b = e + 1;
    }
}

/* The exhaustive part errors of the f32 normal paths on this GPU (r against
 * sqrt(-2 ln u1) in double, relative; cos and sin against the double ones of
 * the formula's angle fl(2pi_f u2), absolute), then whole outputs of the lean
 * kernels against accel.h's formula (long double, every step exact but the
 * angle) under tests/test_rng.c's bound 1.2e-6 stddev r + 1 ulp. Uses the
 * buffers a (2^24 floats) and o (2^24 float2): --log2n 25 or more. */
bool normal_accuracy(cudaStream_t s, float *a, float *o)
{
    const size_t n = (size_t)1 << 24;
    std::vector<float> r(n);
    std::vector<float2> cs(n);
    const float two_pi_f = 6.28318530717958647692f;
    bool ok = true;
    auto run_parts = [&](int sq) {
        float2 *d_cs = reinterpret_cast<float2 *>(o);
        if (sq == 0)
            parts_all<0><<<(unsigned)(n / kT), kT, 0, s>>>(a, d_cs);
        else if (sq == 1)
            parts_all<1><<<(unsigned)(n / kT), kT, 0, s>>>(a, d_cs);
        else if (sq == 2)
            parts_all<2><<<(unsigned)(n / kT), kT, 0, s>>>(a, d_cs);
        else
            parts_all<4><<<(unsigned)(n / kT), kT, 0, s>>>(a, d_cs);
        CK(cudaStreamSynchronize(s));
        CK(cudaMemcpy(r.data(), a, n * sizeof(float), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(cs.data(), d_cs, n * sizeof(float2), cudaMemcpyDeviceToHost));
    };
    const char *names[3] = {"L*rsqrt(L) (previous)", "sqrt.approx", "L*rsqrt(max(L,tiny))"};
    for (int sq : {0, 1, 2, 4}) {
        run_parts(sq);
        if (sq == 0 || sq == 4) {
            double cw = 0;
            for (size_t k = 0; k < n; ++k) {
                float th = two_pi_f * ((float)(k + 1) * 0x1p-24f);
                double ec = std::fabs((double)cs[k].x - std::cos((double)th));
                double es = std::fabs((double)cs[k].y - std::sin((double)th));
                cw = std::max(cw, std::max(ec, es));
            }
            std::printf("  check: normal cos/sin (__sincosf on %s) worst absolute error %.3g "
                        "(2^%.2f)\n",
                        sq == 0 ? "theta - pi, previous backend" : "theta, not shifted (backend)",
                        cw, std::log2(cw));
        }
        if (sq == 4)
            continue; /* r as for 0 */
        double rw = 0, u_at = 0, lw = 0, lu_at = 0;
        for (size_t k = 0; k < n; ++k) {
            double u = (double)(k + 1) * 0x1p-24;
            double ex = std::sqrt(-2.0 * std::log(u));
            if (ex == 0.0) {
                if (r[k] != 0.0f)
                    ok = false;
                continue;
            }
            double e = std::fabs((double)r[k] - ex) / ex;
            if (e > rw) {
                rw = e;
                u_at = u;
            }
            /* Weighted as it enters z: |dr| against r itself near u1 = 1. */
            if (u > 0.99 && e > lw) {
                lw = e;
                lu_at = u;
            }
        }
        std::printf("  check: normal r via %-22s worst relative error %.3g (1 - u1 = %.3g); "
                    "u1 > 0.99: %.3g (1 - u1 = %.3g)\n",
                    names[sq], rw, 1.0 - u_at, lw, 1.0 - lu_at);
    }
    /* MUFU.LG2: r = sqrt(-2 ln2 lg2(u1)) against the exact r, relative, by
     * the largest u1 it would serve. */
    parts_all<3><<<(unsigned)(n / kT), kT, 0, s>>>(a, reinterpret_cast<float2 *>(o));
    CK(cudaStreamSynchronize(s));
    CK(cudaMemcpy(r.data(), a, n * sizeof(float), cudaMemcpyDeviceToHost));
    {
        const double tops[6] = {0.5, 0.6, 0.7, 0.8, 0.9, 0.99};
        double rel[6] = {0, 0, 0, 0, 0, 0}, abs_hi = 0;
        for (size_t k = 0; k + 1 < n; ++k) {
            double u = (double)(k + 1) * 0x1p-24, lg = std::log2(u);
            if (u >= 0.5)
                abs_hi = std::max(abs_hi, std::fabs((double)r[k] - lg));
            double ex = std::sqrt(-2.0 * std::log(u));
            double rm = std::sqrt(std::max(0.0, -2.0 * 0.69314718055994530942 * (double)r[k]));
            double e = std::fabs(rm - ex) / ex;
            for (int j = 0; j < 6; ++j)
                if (u < tops[j])
                    rel[j] = std::max(rel[j], e);
        }
        std::printf("  check: MUFU.LG2 on u1 in [0.5, 1): worst absolute error %.3g (2^%.2f); r "
                    "from it, worst relative error for u1 below 0.5 %.3g, 0.6 %.3g, 0.7 %.3g, "
                    "0.8 %.3g, 0.9 %.3g, 0.99 %.3g\n",
                    abs_hi, std::log2(abs_hi), rel[0], rel[1], rel[2], rel[3], rel[4], rel[5]);
    }
    /* r by the logarithms of degree 7 and 6 (round 5's candidates). */
    for (int lg : {7, 6}) {
        if (lg == 7)
            r_all<7><<<(unsigned)(n / kT), kT, 0, s>>>(a);
        else
            r_all<6><<<(unsigned)(n / kT), kT, 0, s>>>(a);
        CK(cudaStreamSynchronize(s));
        CK(cudaMemcpy(r.data(), a, n * sizeof(float), cudaMemcpyDeviceToHost));
        double rw = 0, u_at = 0;
        for (size_t k = 0; k < n; ++k) {
            double u = (double)(k + 1) * 0x1p-24;
            double ex = std::sqrt(-2.0 * std::log(u));
            if (ex == 0.0) {
                if (r[k] != 0.0f)
                    ok = false;
                continue;
            }
            double e = std::fabs((double)r[k] - ex) / ex;
            if (e > rw) {
                rw = e;
                u_at = u;
            }
        }
        std::printf("  check: normal r via sqrt.approx, log degree %d  worst relative error %.3g "
                    "(1 - u1 = %.3g)\n",
                    lg, rw, 1.0 - u_at);
    }
    /* Whole outputs: 2^22 elements of each kernel, mean -1.5, stddev 2.5,
     * from counter c_hi 2^32 + lo0 on (round 5's: lo0 0, 12345, and 2^32 -
     * 2^20, whose range ends at 2^32: the loop that cannot wrap). */
    const uint64_t seed = 0x5eed5eedull;
    const accel_philox_keys ks = accel_philox_schedule((uint32_t)seed, (uint32_t)(seed >> 32));
    const float mean_f = -1.5f, sd_f = 2.5f;
    const uint32_t ncnt = 1u << 20;
    std::vector<float> got((size_t)ncnt * 4), got2((size_t)ncnt * 4);
    float4 *o4 = reinterpret_cast<float4 *>(o);
    struct Whole {
        const char *name;
        uint32_t lo0, c_hi;
        std::function<void(uint32_t, uint32_t, float, float)> run;
    };
    const unsigned gw = 1024;
    const Whole wholes[] = {
        {"round 4 backend (theta not shifted, 2 counters)", 0, 0,
         [&](uint32_t, uint32_t, float m, float d) {
             normal_lean<5, 1, 2, 8><<<gw, kT, 0, s>>>(ks, ncnt, m, d, o4);
         }},
        {"r5 counter loop, log 8 (lo0 12345, hi 1)", 12345u, 1u,
         [&](uint32_t l, uint32_t h, float m, float d) {
             normal5_k<8, 1, false, 2, 8><<<gw, kT, 0, s>>>(ks, l, h, ncnt, m, d, o4);
         }},
        {"r5 counter loop, log 7 (ends at 2^32)", 0u - ncnt, 0u,
         [&](uint32_t l, uint32_t h, float m, float d) {
             normal5_k<7, 1, false, 2, 8><<<gw, kT, 0, s>>>(ks, l, h, ncnt, m, d, o4);
         }},
        {"r5 counter loop, log 7", 0u, 0u,
         [&](uint32_t l, uint32_t h, float m, float d) {
             normal5_k<7, 1, false, 2, 8><<<gw, kT, 0, s>>>(ks, l, h, ncnt, m, d, o4);
         }},
        {"r5 counter loop, log 6", 0u, 0u,
         [&](uint32_t l, uint32_t h, float m, float d) {
             normal5_k<6, 1, false, 2, 8><<<gw, kT, 0, s>>>(ks, l, h, ncnt, m, d, o4);
         }},
    };
    for (const Whole &wv : wholes) {
        wv.run(wv.lo0, wv.c_hi, mean_f, sd_f);
        CK(cudaStreamSynchronize(s));
        CK(cudaMemcpy(got.data(), o, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
        const uint64_t c0 = ((uint64_t)wv.c_hi << 32) + wv.lo0;
        double wf = 0;
        size_t bad = 0;
        const size_t nchk = got.size();
        for (size_t i = 0; i < nchk; ++i) {
            accel_philox_words w = accel_philox_block(c0 + i / 4, seed);
            uint32_t j = (uint32_t)(i % 4) & ~1u;
            float u1 = (float)((w.w[j] >> 8) + 1u) * 0x1p-24f;
            float u2 = (float)((w.w[j + 1] >> 8) + 1u) * 0x1p-24f;
            float theta = two_pi_f * u2;
            long double rr = sqrtl(-2.0L * logl((long double)u1));
            long double t = (i % 2 == 0) ? cosl((long double)theta) : sinl((long double)theta);
            long double ref = (long double)mean_f + (long double)sd_f * rr * t;
            float rf = (float)ref;
            long double ulp =
                (long double)(std::nextafter(std::fabs(rf), INFINITY) - std::fabs(rf));
            long double tol = 1.2e-6L * sd_f * rr + ulp;
            long double d = fabsl((long double)got[i] - ref);
            if (!(d <= tol))
                ++bad;
            wf = std::max(wf, (double)(d / tol));
        }
        std::printf("  check: normal %-48s vs the formula: worst %.3f of the test's bound, "
                    "%zu of %zu over\n",
                    wv.name, wf, bad, nchk);
        if (bad)
            ok = false;
    }
    /* The standard instances against the general ones at mean 0, stddev 1: bit for bit. */
    using K5 = void (*)(accel_philox_keys, uint32_t, uint32_t, uint32_t, float, float, float4 *);
    const K5 pairs[3][2] = {{normal5_k<8, 1, false, 2, 8>, normal5_k<8, 1, true, 2, 8>},
                            {normal5_k<7, 1, false, 2, 8>, normal5_k<7, 1, true, 2, 8>},
                            {normal5_k<6, 1, false, 2, 8>, normal5_k<6, 1, true, 2, 8>}};
    for (int pi = 0; pi < 3; ++pi) {
        const int lg = 8 - pi;
        for (int std_ = 0; std_ < 2; ++std_) {
            pairs[pi][std_]<<<gw, kT, 0, s>>>(ks, 7u, 0u, ncnt, 0.f, 1.f, o4);
            CK(cudaStreamSynchronize(s));
            CK(cudaMemcpy((std_ ? got2 : got).data(), o, got.size() * sizeof(float),
                          cudaMemcpyDeviceToHost));
        }
        const bool same = std::memcmp(got.data(), got2.data(), got.size() * sizeof(float)) == 0;
        std::printf("  check: normal r5 log %d standard instance vs general at (0, 1): %s\n", lg,
                    same ? "bit for bit" : "DIFFERENT");
        ok = ok && same;
    }
    return ok;
}

/* The library's own fills on device cuda:<dev> (--accel 1), timed as `accel
 * bench` times them: accel events around one call (the bench's row at 2^28)
 * and around `batch` calls back to back (per call: what the GPU spends
 * without the gaps between calls), beside accel_copy of the same buffers, in
 * interleaved rounds. A gap between the two forms of a row is host time
 * inside the bench's event pair, not kernel time. */
bool aok(accel_status st, const char *what)
{
    if (st == ACCEL_SUCCESS)
        return true;
    std::fprintf(stderr, "%s: %s: %s\n", what, accel_status_name(st), accel_last_error());
    return false;
}

int accel_rows(int dev, int log2n, int rounds)
{
    const size_t n = (size_t)1 << log2n;
    const int batch = 4;
    accel_runtime *rt = nullptr;
    accel_device *d = nullptr;
    accel_queue *q = nullptr;
    accel_buffer *a = nullptr, *c = nullptr;
    accel_event *e0 = nullptr, *e1 = nullptr;
    std::string name = "cuda:" + std::to_string(dev);
    if (!aok(accel_runtime_open(nullptr, &rt), "accel_runtime_open"))
        return 1;
    int rc = 1;
    if (aok(accel_device_get_by_name(rt, name.c_str(), &d), name.c_str()) &&
        aok(accel_queue_create(d, &q), "accel_queue_create") &&
        aok(accel_buffer_create(d, n * 4, &a), "accel_buffer_create") &&
        aok(accel_buffer_create(d, n * 4, &c), "accel_buffer_create") &&
        aok(accel_event_create(d, &e0), "accel_event_create") &&
        aok(accel_event_create(d, &e1), "accel_event_create") &&
        aok(accel_fill(q, ACCEL_F32, 1.0, accel_slice_of(a, 0, n)), "accel_fill")) {
        accel_slice sa = accel_slice_of(a, 0, n), sc = accel_slice_of(c, 0, n);
        struct LibRow {
            const char *name;
            int kind; /* 0 copy, 1 standard normal, 2 normal (0.5, 2), 3 uniform, 4 probe kernel */
            int calls;
            std::vector<double> ms;
        };
        std::vector<LibRow> rows = {
            {"accel_copy, 1 call per event pair", 0, 1, {}},
            {"accel_random_normal (0, 1), 1 call (the bench's row)", 1, 1, {}},
            {"accel_random_normal (0, 1), 4 calls back to back", 1, batch, {}},
            {"accel_random_normal (0.5, 2), 1 call", 2, 1, {}},
            {"accel_random_normal (0.5, 2), 4 calls back to back", 2, batch, {}},
            {"accel_random_uniform, 1 call", 3, 1, {}},
            {"probe's r5 degree-6 standard kernel into the same buffer, 1 call", 4, 1, {}},
            {"probe's r5 degree-6 standard kernel into the same buffer, 4 calls", 4, batch, {}}};
        void *cptr = nullptr, *qs = nullptr;
        if (!aok(accel_buffer_native_pointer(c, &cptr), "accel_buffer_native_pointer") ||
            !aok(accel_queue_native_stream(q, &qs), "accel_queue_native_stream"))
            return 1;
        int sms = 0;
        CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        const unsigned g5 = (unsigned)(sms * resident<normal5_k<6, 1, true, 2, 8>>());
        const accel_philox_keys ks7 = accel_philox_schedule(7u, 0u);
        std::printf("accel buffer c at %p (offset in 2 MiB: %zu)\n", cptr,
                    (size_t)((uintptr_t)cptr % (2u << 20)));
        auto call = [&](int kind) {
            switch (kind) {
            case 0:
                return accel_copy(q, ACCEL_F32, sa, sc);
            case 1:
                return accel_random_normal(q, ACCEL_F32, 7, 0, 0.0, 1.0, sc);
            case 2:
                return accel_random_normal(q, ACCEL_F32, 7, 0, 0.5, 2.0, sc);
            case 3:
                return accel_random_uniform(q, ACCEL_F32, 7, 0, sc);
            default:
                normal5_k<6, 1, true, 2, 8><<<g5, kT, 0, (cudaStream_t)qs>>>(
                    ks7, 0u, 0u, (uint32_t)(n / 4), 0.0f, 1.0f, (float4 *)cptr);
                return cudaGetLastError() == cudaSuccess ? ACCEL_SUCCESS : ACCEL_ERROR_DEVICE;
            }
        };
        bool ok = true;
        for (int r = 0; r <= rounds && ok; ++r)
            for (auto &row : rows) {
                ok = aok(accel_event_record(e0, q), "accel_event_record");
                for (int k = 0; k < row.calls && ok; ++k)
                    ok = aok(call(row.kind), "fill");
                double ms = 0;
                ok = ok && aok(accel_event_record(e1, q), "accel_event_record") &&
                     aok(accel_event_synchronize(e1), "accel_event_synchronize") &&
                     aok(accel_event_elapsed_ms(e0, e1, &ms), "accel_event_elapsed_ms");
                if (r > 0) /* round 0 warms up */
                    row.ms.push_back(ms / row.calls);
            }
        if (ok) {
            auto med = [](std::vector<double> v) {
                std::sort(v.begin(), v.end());
                return v[v.size() / 2];
            };
            const double copy_ms = med(rows[0].ms), copy_rate = 2.0 * n * 4 / copy_ms;
            std::printf("accel library on %s, 2^%d f32, median of %d interleaved rounds (ms per "
                        "call; write-only rows as bytes written over accel_copy's rate)\n",
                        name.c_str(), log2n, rounds);
            for (auto &row : rows) {
                double m = med(row.ms), lo = *std::min_element(row.ms.begin(), row.ms.end()),
                       hi = *std::max_element(row.ms.begin(), row.ms.end());
                double b = row.kind == 0 ? 2.0 * n * 4 : (double)n * 4;
                std::printf("  %-62s %9.4f %6.3f (%.3f-%.3f)\n", row.name, m, b / m / copy_rate,
                            b / hi / copy_rate, b / lo / copy_rate);
            }
            rc = 0;
        }
    }
    accel_event_release(e0);
    accel_event_release(e1);
    accel_buffer_release(a);
    accel_buffer_release(c);
    accel_queue_release(q);
    accel_runtime_close(rt);
    return rc;
}

} // namespace

int main(int argc, char **argv)
{
    int log2n = 28, rounds = 7, dev = 0;
    const char *only = nullptr;
    bool check = true, lib = false;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--only"))
            only = argv[i + 1];
        else if (!std::strcmp(argv[i], "--check"))
            check = std::atoi(argv[i + 1]) != 0;
        else if (!std::strcmp(argv[i], "--log2n"))
            log2n = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--rounds"))
            rounds = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--device"))
            dev = std::atoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--accel"))
            lib = std::atoi(argv[i + 1]) != 0;
        else {
            std::fprintf(stderr,
                         "usage: ew_probe [--log2n 28] [--rounds 7] [--device 0] [--only A|B..] "
                         "[--check 1] [--accel 0]\n");
            return 2;
        }
    }
    if (log2n < 12 || log2n > 31 || rounds < 1) {
        std::fprintf(stderr, "ew_probe: --log2n 12..31, --rounds >= 1\n");
        return 2;
    }
    if (lib)
        return accel_rows(dev, log2n, rounds);
    CK(cudaSetDevice(dev));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, dev));
    const int sms = prop.multiProcessorCount;
    const size_t n = (size_t)1 << log2n, nv = n / 4, bytes = n * sizeof(float);
    float *a, *o;
    CK(cudaMalloc(&a, bytes));
    CK(cudaMalloc(&o, bytes));
    const float4 *a4 = reinterpret_cast<const float4 *>(a);
    float4 *o4 = reinterpret_cast<float4 *>(o);
    /* Inputs in [-4, 4): half of relu's outputs are zero, exp stays finite. */
    std::vector<float> h(n);
    for (size_t i = 0; i < n; ++i)
        h[i] = (float)((double)((i * 2654435761u) % 8192u) / 1024.0 - 4.0);
    CK(cudaMemcpy(a, h.data(), bytes, cudaMemcpyHostToDevice));
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    const uint64_t seed = 0x1234567890abcdefull;
    const accel_philox_keys ks = accel_philox_schedule((uint32_t)seed, (uint32_t)(seed >> 32));
    const unsigned big = (unsigned)((nv + kT - 1) / kT);
    auto gs_grid = [&](int res) { return (unsigned)std::min<size_t>((size_t)sms * res, big); };

    std::vector<Row> rows;
    float *tbuf[2] = {nullptr, nullptr}; /* x + y.T rows: y and out */
    int tside = 0;
    auto add = [&](std::string name, double b, bool wo, std::function<void()> fn) {
        if (only && !rows.empty() && !matches(name, only))
            return; /* the copy row (first) always runs */
        rows.push_back(Row{std::move(name), b, wo, std::move(fn), {}});
    };
    const double rw = 2.0 * (double)bytes, w = (double)bytes;
    add("copy: cudaMemcpyAsync d2d", rw, false,
        [&] { CK(cudaMemcpyAsync(o, a, bytes, cudaMemcpyDeviceToDevice, s)); });
    add("fill: cudaMemsetAsync", w, true, [&] { CK(cudaMemsetAsync(o, 0, bytes, s)); });
    {
        unsigned g = gs_grid(resident<fill_kernel<false>>());
        add("fill: float4 grid-stride, resident grid", w, true,
            [=] { fill_kernel<false><<<g, kT, 0, s>>>(o4, nv, 1.0f); });
        add("fill: float4 grid-stride, __stcs", w, true,
            [=] { fill_kernel<true><<<g, kT, 0, s>>>(o4, nv, 1.0f); });
        add("fill: float4 one per thread (big grid)", w, true,
            [=] { fill_kernel<false><<<big, kT, 0, s>>>(o4, nv, 1.0f); });
    }
#define MAPROWS(F, NAME)                                                                           \
    {                                                                                              \
        unsigned g4 = gs_grid(resident<map_gs<F, 4, 0, 0>>());                                     \
        add(NAME ": map_kernel shape (grid-stride, unroll 4, resident grid)", rw, false,           \
            [=] { map_gs<F, 4, 0, 0><<<g4, kT, 0, s>>>(F{}, a4, o4, nv); });                       \
        unsigned g1 = gs_grid(resident<map_gs<F, 1, 0, 0>>());                                     \
        add(NAME ": grid-stride, unroll 1", rw, false,                                             \
            [=] { map_gs<F, 1, 0, 0><<<g1, kT, 0, s>>>(F{}, a4, o4, nv); });                       \
        unsigned g8 = gs_grid(resident<map_gs<F, 8, 0, 0>>());                                     \
        add(NAME ": grid-stride, unroll 8", rw, false,                                             \
            [=] { map_gs<F, 8, 0, 0><<<g8, kT, 0, s>>>(F{}, a4, o4, nv); });                       \
        unsigned gc = gs_grid(resident<map_gs<F, 4, 2, 1>>());                                     \
        add(NAME ": grid-stride, unroll 4, __ldcs/__stcs", rw, false,                              \
            [=] { map_gs<F, 4, 2, 1><<<gc, kT, 0, s>>>(F{}, a4, o4, nv); });                       \
        unsigned gl = gs_grid(resident<map_gs<F, 4, 1, 0>>());                                     \
        add(NAME ": grid-stride, unroll 4, __ldg", rw, false,                                      \
            [=] { map_gs<F, 4, 1, 0><<<gl, kT, 0, s>>>(F{}, a4, o4, nv); });                       \
        unsigned gh = gs_grid(resident<map_gs<F, 4, 0, 0>>() / 2);                                 \
        add(NAME ": grid-stride, unroll 4, half the resident grid", rw, false,                     \
            [=] { map_gs<F, 4, 0, 0><<<gh, kT, 0, s>>>(F{}, a4, o4, nv); });                       \
        unsigned f1 = (unsigned)((nv + kT - 1) / kT);                                              \
        add(NAME ": flat, 1 vector per thread (map_flat_kernel)", rw, false,                       \
            [=] { map_flat<F, 1, 0, 0><<<f1, kT, 0, s>>>(F{}, a4, o4, nv); });                     \
        unsigned f4 = (unsigned)((nv + 4 * kT - 1) / (4 * kT));                                    \
        add(NAME ": flat, 4 vectors per thread", rw, false,                                        \
            [=] { map_flat<F, 4, 0, 0><<<f4, kT, 0, s>>>(F{}, a4, o4, nv); });                     \
        add(NAME ": flat, 4 vectors per thread, __ldcs/__stcs", rw, false,                         \
            [=] { map_flat<F, 4, 2, 1><<<f4, kT, 0, s>>>(F{}, a4, o4, nv); });                     \
        unsigned gk = gs_grid(resident<map_gsc<F, 4>>());                                          \
        add(NAME ": grid-stride over 4-vector block chunks, resident grid", rw, false,             \
            [=] { map_gsc<F, 4><<<gk, kT, 0, s>>>(F{}, a4, o4, nv); });                            \
        unsigned gk8 = gs_grid(resident<map_gsc<F, 8>>());                                         \
        add(NAME ": grid-stride over 8-vector block chunks, resident grid", rw, false,             \
            [=] { map_gsc<F, 8><<<gk8, kT, 0, s>>>(F{}, a4, o4, nv); });                           \
        unsigned gd = gs_grid(2 * resident<map_gs<F, 4, 0, 0>>());                                 \
        add(NAME ": grid-stride, unroll 4, twice the resident grid", rw, false,                    \
            [=] { map_gs<F, 4, 0, 0><<<gd, kT, 0, s>>>(F{}, a4, o4, nv); });                       \
        unsigned g2 = gs_grid(resident<map_gs<F, 2, 0, 0>>());                                     \
        add(NAME ": grid-stride, unroll 2", rw, false,                                             \
            [=] { map_gs<F, 2, 0, 0><<<g2, kT, 0, s>>>(F{}, a4, o4, nv); });                       \
        add(NAME ": flat, 2 consecutive vectors per thread", rw, false, [=] {                      \
            map_contig<F, 2>                                                                       \
                <<<(unsigned)((nv + 2 * kT - 1) / (2 * kT)), kT, 0, s>>>(F{}, a4, o4, nv);         \
        });                                                                                        \
    }
    {
        const double rw3 = 3.0 * (double)bytes;
        unsigned ga = gs_grid(resident<add_kernel<0>>());
        add("add: map_kernel shape (grid-stride, unroll 4, resident grid)", rw3, false,
            [=] { add_kernel<0><<<ga, kT, 0, s>>>(a4, o4, o4, nv); });
        add("add: flat, 1 vector per thread", rw3, false,
            [=] { add_kernel<1><<<big, kT, 0, s>>>(a4, o4, o4, nv); });
        const unsigned big2 = (unsigned)((nv + 2 * kT - 1) / (2 * kT)),
                       big4 = (unsigned)((nv + 4 * kT - 1) / (4 * kT));
        add("add: flat, 2 vectors per thread", rw3, false,
            [=] { add_kernel<2><<<big2, kT, 0, s>>>(a4, o4, o4, nv); });
        add("add: flat, 4 vectors per thread", rw3, false,
            [=] { add_kernel<4><<<big4, kT, 0, s>>>(a4, o4, o4, nv); });
        add("add: the generated walk's shape (grid-stride runs, 65535 blocks)", rw3, false, [=] {
            add_walk<<<(unsigned)std::min<size_t>(big, 65535), kT, 0, s>>>(a4, o4, o4, (int)nv);
        });
    }
    if (log2n % 2 == 0 && log2n <= 30) {
        /* x + y.T, S x S float32: 3 streams (x, y read, out written) */
        const int S = 1 << (log2n / 2);
        float *y, *t;
        CK(cudaMalloc(&y, bytes));
        CK(cudaMalloc(&t, bytes));
        CK(cudaMemcpy(y, a, bytes, cudaMemcpyDeviceToDevice));
        tbuf[0] = y;
        tbuf[1] = t;
        tside = S;
        const double rw3 = 3.0 * (double)bytes;
        const int n32 = (S / 32) * (S / 32), n64 = (S / 64) * (S / 64);
        const unsigned c32 = (unsigned)std::min(n32, 65535), c64 = (unsigned)std::min(n64, 65535);
        add("x + y.T: 32 x 32 tiles, x after the barrier, 65535 blocks (generated)", rw3, false,
            [=] { tadd<32, false, false><<<c32, kT, 0, s>>>(a, y, t, S, S / 32, n32); });
        add("x + y.T: 32 x 32 tiles, x after the barrier, a tile per block", rw3, false,
            [=] { tadd<32, false, false><<<n32, kT, 0, s>>>(a, y, t, S, S / 32, n32); });
        add("x + y.T: 32 x 32 tiles, x before the barrier, 65535 blocks", rw3, false,
            [=] { tadd<32, true, false><<<c32, kT, 0, s>>>(a, y, t, S, S / 32, n32); });
        add("x + y.T: 32 x 32 tiles, x before the barrier, a tile per block", rw3, false,
            [=] { tadd<32, true, false><<<n32, kT, 0, s>>>(a, y, t, S, S / 32, n32); });
        add("x + y.T: 32 x 32 tiles, x before, a tile per block, __stcs", rw3, false,
            [=] { tadd<32, true, true><<<n32, kT, 0, s>>>(a, y, t, S, S / 32, n32); });
        add("x + y.T: 64 x 64 tiles, x after the barrier, a tile per block", rw3, false,
            [=] { tadd<64, false, false><<<n64, kT, 0, s>>>(a, y, t, S, S / 64, n64); });
        add("x + y.T: 64 x 64 tiles, x before the barrier, a tile per block", rw3, false,
            [=] { tadd<64, true, false><<<n64, kT, 0, s>>>(a, y, t, S, S / 64, n64); });
        add("x + y.T: 64 x 64 tiles, x before the barrier, 65535 blocks", rw3, false,
            [=] { tadd<64, true, false><<<c64, kT, 0, s>>>(a, y, t, S, S / 64, n64); });
    }
    MAPROWS(Relu, "relu")
    MAPROWS(Exp, "exp")
    {
        const uint64_t ncnt = nv;
        unsigned go = (unsigned)std::min<size_t>((size_t)sms * 8, big);
        add("uniform: old loop, 64-bit products, SMs x 8 blocks", w, true,
            [=] { uni_old<true><<<go, kT, 0, s>>>(seed, ncnt, o4); });
        add("uniform: old loop, __umulhi", w, true,
            [=] { uni_old<false><<<go, kT, 0, s>>>(seed, ncnt, o4); });
        unsigned gn = gs_grid(resident<uni_new<false, 0>>());
        add("uniform: new loop, 64-bit products", w, true,
            [=] { uni_new<true, 0><<<gn, kT, 0, s>>>(seed, 0, (uint32_t)ncnt, o4); });
        add("uniform: new loop, __umulhi (backend)", w, true,
            [=] { uni_new<false, 0><<<gn, kT, 0, s>>>(seed, 0, (uint32_t)ncnt, o4); });
        add("uniform: new loop, __umulhi, __stcs", w, true,
            [=] { uni_new<false, 1><<<gn, kT, 0, s>>>(seed, 0, (uint32_t)ncnt, o4); });
        add("uniform: new loop, __umulhi, big grid", w, true,
            [=] { uni_new<false, 0><<<big, kT, 0, s>>>(seed, 0, (uint32_t)ncnt, o4); });
        unsigned g0 = gs_grid(resident<normal_new<0>>());
        add("normal f32: philox.h -2ln, rsqrt, __sincosf (no mean, stddev)", w, true,
            [=] { normal_new<0><<<g0, kT, 0, s>>>(seed, (uint32_t)ncnt, o4); });
        unsigned gm = gs_grid(resident<normal_ms<1, 1>>());
        add("normal f32: the same, mean + stddev * z", w, true,
            [=] { normal_ms<1, 1><<<gm, kT, 0, s>>>(seed, (uint32_t)ncnt, 0.5f, 2.0f, o4); });
        unsigned gi = gs_grid(resident<normal_ms<0, 2>>());
        add("normal f32: the same, two counters per thread and step", w, true,
            [=] { normal_ms<0, 2><<<gi, kT, 0, s>>>(seed, (uint32_t)ncnt, 0.0f, 1.0f, o4); });
        unsigned g3 = gs_grid(resident<normal_new<3>>());
        add("normal f32: logf, rsqrt, __sincosf", w, true,
            [=] { normal_new<3><<<g3, kT, 0, s>>>(seed, (uint32_t)ncnt, o4); });
        unsigned g1 = gs_grid(resident<normal_new<1>>());
        add("normal f32: sqrtf, sincosf", w, true,
            [=] { normal_new<1><<<g1, kT, 0, s>>>(seed, (uint32_t)ncnt, o4); });
        unsigned g2 = gs_grid(resident<normal_new<2>>());
        add("normal f32: __logf (speed bound only)", w, true,
            [=] { normal_new<2><<<g2, kT, 0, s>>>(seed, (uint32_t)ncnt, o4); });
#define LEAN(SQ, FMA, ILP, MINB, NAME)                                                             \
    {                                                                                              \
        unsigned gl = gs_grid(resident<normal_lean<SQ, FMA, ILP, MINB>>());                        \
        add("normal f32: lean " NAME, w, true, [=] {                                               \
            normal_lean<SQ, FMA, ILP, MINB><<<gl, kT, 0, s>>>(ks, (uint32_t)ncnt, 0.5f, 2.0f, o4); \
        });                                                                                        \
    }
        LEAN(0, 0, 1, 8, "(previous backend's bits: fold, -2ln in one pass)")
        LEAN(0, 0, 1, 1, "(previous backend's bits), no register cap")
        LEAN(0, 1, 1, 8, "+ fma mean")
        LEAN(2, 1, 1, 8, "+ fma, rsqrt(max)")
        LEAN(1, 0, 1, 8, "+ sqrt.approx")
        LEAN(1, 1, 1, 8, "+ sqrt.approx + fma")
        LEAN(1, 1, 1, 1, "+ sqrt.approx + fma, no register cap")
        LEAN(1, 1, 2, 8, "+ sqrt.approx + fma, 2 counters per thread")
        LEAN(1, 1, 2, 1, "+ sqrt.approx + fma, 2 counters, no register cap")
        LEAN(1, 1, 4, 1, "+ sqrt.approx + fma, 4 counters, no register cap")
        LEAN(0, 0, 2, 8, "(previous backend's bits), 2 counters per thread")
        LEAN(5, 1, 1, 8, "+ sqrt.approx + fma, theta not shifted")
        LEAN(5, 1, 2, 8, "+ sqrt.approx + fma, theta not shifted, 2 counters (backend)")
#define N5(LOG, LOOP, STD, U, MINB, NAME)                                                          \
    {                                                                                              \
        unsigned g5 = gs_grid(resident<normal5_k<LOG, LOOP, STD, U, MINB>>());                     \
        add("normal f32: r5 " NAME, w, true, [=] {                                                 \
            normal5_k<LOG, LOOP, STD, U, MINB>                                                     \
                <<<g5, kT, 0, s>>>(ks, 0u, 0u, (uint32_t)ncnt, 0.5f, 2.0f, o4);                    \
        });                                                                                        \
    }
        N5(8, 0, false, 2, 8, "round-4 backend, general")
        N5(8, 0, true, 2, 8, "round-4 backend, standard")
        N5(8, 1, false, 2, 8, "counter loop, general")
        N5(8, 1, true, 2, 8, "counter loop, standard")
        N5(7, 0, true, 2, 8, "log degree 7, standard")
        N5(7, 1, false, 2, 8, "counter loop + log degree 7, general")
        N5(7, 1, true, 2, 8, "counter loop + log degree 7, standard")
        N5(7, 1, true, 4, 8, "counter loop + log degree 7, standard, 4 counters")
        N5(7, 1, true, 2, 6, "counter loop + log degree 7, standard, <= 40 registers")
        N5(6, 1, false, 2, 8, "counter loop + log degree 6, general")
        N5(6, 1, true, 2, 8, "counter loop + log degree 6, standard")
        /* The same kernel in more, or smaller, blocks than are resident at
         * once: ncu put its achieved occupancy at 62% of the theoretical
         * 100% in one wave (warps that finish early leave their SM short). */
        for (unsigned th : {256u, 128u, 64u})
            for (unsigned mult : {1u, 2u, 4u, 8u, 32u}) {
                if (th == 256u && mult == 1u)
                    continue; /* the row above */
                const unsigned res = (unsigned)resident<normal5_k<6, 1, true, 2, 8>>() * (kT / th);
                const unsigned g =
                    (unsigned)std::min<size_t>((size_t)sms * res * mult, (nv + th - 1) / th);
                add("normal f32: r5 counter loop + log degree 6, standard, " + std::to_string(th) +
                        " threads, grid x" + std::to_string(mult),
                    w, true, [=] {
                        normal5_k<6, 1, true, 2, 8>
                            <<<g, th, 0, s>>>(ks, 0u, 0u, (uint32_t)ncnt, 0.5f, 2.0f, o4);
                    });
            }
#undef N5
#define PIPE(SQ, FMA, MINB, NAME)                                                                  \
    {                                                                                              \
        unsigned gp = gs_grid(resident<normal_pipe<SQ, FMA, MINB>>());                             \
        add("normal f32: pipelined " NAME, w, true, [=] {                                          \
            normal_pipe<SQ, FMA, MINB><<<gp, kT, 0, s>>>(ks, (uint32_t)ncnt, 0.5f, 2.0f, o4);      \
        });                                                                                        \
    }
        PIPE(0, 0, 8, "(previous backend's bits)")
        PIPE(1, 1, 8, "sqrt.approx + fma")
        PIPE(1, 1, 1, "sqrt.approx + fma, no register cap")
        PIPE(2, 1, 8, "rsqrt(max) + fma")
        PIPE(5, 1, 8, "sqrt.approx + fma, theta not shifted")
#undef PIPE
#undef LEAN
        {
            unsigned gp = gs_grid(resident<philox_only>());
            add("normal f32 part: Philox only, 4 counters per store (x4 counters)", w / 4.0, true,
                [=] { philox_only<<<gp, kT, 0, s>>>(seed, (uint32_t)(ncnt / 4), o4); });
            unsigned gb = gs_grid(resident<bm_only<1, 1>>());
            add("normal f32 part: Box-Muller only, lean sqrt.approx + fma", w, true,
                [=] { bm_only<1, 1><<<gb, kT, 0, s>>>(12345u, (uint32_t)ncnt, 0.5f, 2.0f, o4); });
            unsigned gb0 = gs_grid(resident<bm_only<0, 0>>());
            add("normal f32 part: Box-Muller only, backend's bits", w, true,
                [=] { bm_only<0, 0><<<gb0, kT, 0, s>>>(12345u, (uint32_t)ncnt, 0.5f, 2.0f, o4); });
        }
    }

    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (auto &r : rows) /* warm-up */
        r.run();
    CK(cudaStreamSynchronize(s));
    for (int k = 0; k < rounds; ++k)
        for (auto &r : rows) {
            CK(cudaEventRecord(e0, s));
            r.run();
            CK(cudaEventRecord(e1, s));
            CK(cudaEventSynchronize(e1));
            float ms = 0;
            CK(cudaEventElapsedTime(&ms, e0, e1));
            r.ms.push_back(ms);
        }
    CK(cudaGetLastError());
    auto med = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    const double copy_rate = rows[0].bytes / med(rows[0].ms) * 1e3; /* bytes per s */
    std::printf("output buffer at %p (offset in 2 MiB: %zu)\n", (void *)o,
                (size_t)((uintptr_t)o % (2u << 20)));
    std::printf("ew_probe: %s, %d SMs, 2^%d f32, median of %d interleaved rounds\n", prop.name, sms,
                log2n, rounds);
    std::printf("  %-62s %9s %11s %16s\n", "row", "ms", "GB/s", "of copy (spread)");
    for (auto &r : rows) {
        double m = med(r.ms), lo = *std::min_element(r.ms.begin(), r.ms.end()),
               hi = *std::max_element(r.ms.begin(), r.ms.end());
        double rate = r.bytes / m * 1e3;
        /* A write-only row's ratio is bytes written over the copy rate (read + written). */
        double frac = rate / copy_rate, flo = r.bytes / hi * 1e3 / copy_rate,
               fhi = r.bytes / lo * 1e3 / copy_rate;
        std::printf("  %-62s %9.4f %11.1f %6.3f (%.3f-%.3f)\n", r.name.c_str(), m, rate / 1e9, frac,
                    flo, fhi);
    }
    /* The last normal row ran last: a sample of it against the host formula is
     * pointless (approximate log); check the exp rows' output instead. */
    map_gs<Exp, 4, 0, 0><<<gs_grid(4), kT, 0, s>>>(Exp{}, a4, o4, nv);
    CK(cudaStreamSynchronize(s));
    std::vector<float> got(4096);
    CK(cudaMemcpy(got.data(), o, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
    double worst = 0;
    for (size_t i = 0; i < got.size(); ++i) {
        double ref = std::exp((double)h[i]);
        worst = std::max(worst, std::fabs(got[i] - ref) / ref);
    }
    std::printf("  check: exp sample worst relative error %.3g (%s)\n", worst,
                worst < 4e-7 ? "ok" : "WRONG");
    bool ok = worst < 4e-7;
    bool any_normal = false;
    for (auto &r : rows)
        any_normal = any_normal || r.name.find("normal f32") != std::string::npos;
    if (check && any_normal && log2n < 25)
        std::printf("  check: normal accuracy skipped (needs --log2n 25 or more)\n");
    else if (check && any_normal)
        ok = normal_accuracy(s, a, o) && ok;
    if (tside) { /* the x + y.T rows' out (each row writes the same) against the host */
        std::vector<float> row((size_t)tside);
        double bad = 0;
        for (int r = 0; r < tside; r += 997) {
            CK(cudaMemcpy(row.data(), tbuf[1] + (size_t)r * tside, row.size() * sizeof(float),
                          cudaMemcpyDeviceToHost));
            for (int c = 0; c < tside; ++c)
                bad += row[c] != h[(size_t)r * tside + c] + h[(size_t)c * tside + r];
        }
        std::printf("  check: x + y.T rows, %.0f wrong elements in a sample of rows (%s)\n", bad,
                    bad == 0 ? "ok" : "WRONG");
        ok = ok && bad == 0;
        CK(cudaFree(tbuf[0]));
        CK(cudaFree(tbuf[1]));
    }
    CK(cudaFree(a));
    CK(cudaFree(o));
    return ok ? 0 : 1;
}
