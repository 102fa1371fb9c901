/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* kernels.cl — the OpenCL backend's kernels that are not one expression per
 * element: Philox random numbers, transpose and GEMM's k = 0 case (the
 * reductions are reduce.cl, which follows it). OpenCL C 1.2. program.c
 * builds it after a prelude (ACCEL_WG, the fp64 switch ACCEL_FP64, the
 * integer typedefs and backends/common/philox.h) and before the elementwise
 * kernels it generates from the op table.
 *
 * Every kernel takes element offsets (ulong) rather than sub-buffers (whose
 * origins must be aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN) and loops over
 * its range, so any global size works: on GPUs with the global size as
 * stride (neighbouring work-items read neighbouring elements), on CPU
 * devices (ACCEL_CONTIG, set by program.c) in one contiguous chunk per
 * work-item, since a CPU runtime such as PoCL runs each work-item's loop to
 * its end before the next one starts and a strided walk would stream
 * memory once per work-item. */
#define ACCEL_RANGE(n, first, step, end)                                                           \
    ulong first, step, end;                                                                        \
    if (ACCEL_CONTIG) {                                                                            \
        const ulong per_ = ((n) + get_global_size(0) - 1) / get_global_size(0);                    \
        first = get_global_id(0) * per_;                                                           \
        end = min((ulong)(n), first + per_);                                                       \
        step = 1;                                                                                  \
    } else {                                                                                       \
        first = get_global_id(0);                                                                  \
        step = get_global_size(0);                                                                 \
        end = (n);                                                                                 \
    }

/* ---------------------------------------------------------------- random
 * accel.h's mapping of the Philox4x32-10 stream (philox.h, compiled here
 * unchanged): one work-item per Philox block (4 f32 or 2 f64 elements),
 * writing the elements of its block that fall in [off, off + n). Uniform
 * is bit-identical with every backend. Normal f32 takes -2 ln u1 from
 * philox.h's accel_philox_neg2log_f32 (the CUDA backend's steps) and
 * OpenCL's sqrt, sin and cos; normal f64 OpenCL's double log, sqrt, sin and
 * cos: within the op table's normal bound of the CPU backend. */
__kernel void uniform_f32(__global float *out, ulong oo, ulong n, ulong seed, ulong off)
{
    const ulong c0 = off >> 2, items = ((off + n - 1) >> 2) - c0 + 1;
    ACCEL_RANGE(items, first, step, end)
    for (ulong c = c0 + first; c < c0 + end; c += step) {
        accel_philox_words w = accel_philox_block(c, seed);
        for (uint j = 0; j < 4; ++j) {
            ulong e = c * 4 + j;
            if (e >= off && e - off < n)
                out[oo + e - off] = (float)(w.w[j] >> 8) * 0x1p-24f;
        }
    }
}

#define TWO_PI_F 6.28318530717958647692f
__kernel void normal_f32(__global float *out, ulong oo, ulong n, ulong seed, ulong off,
                         float mean, float sd)
{
    const ulong c0 = off >> 2, items = ((off + n - 1) >> 2) - c0 + 1;
    ACCEL_RANGE(items, first, step, end)
    for (ulong c = c0 + first; c < c0 + end; c += step) {
        accel_philox_words w = accel_philox_block(c, seed);
        for (uint j = 0; j < 4; j += 2) {
            float r = sqrt(accel_philox_neg2log_f32((w.w[j] >> 8) + 1u));
            float theta = TWO_PI_F * ((float)((w.w[j + 1] >> 8) + 1u) * 0x1p-24f);
            float sr = sd * r;
            ulong e = c * 4 + j;
            if (e >= off && e - off < n)
                out[oo + e - off] = fma(sr, cos(theta), mean);
            if (e + 1 >= off && e + 1 - off < n)
                out[oo + e + 1 - off] = fma(sr, sin(theta), mean);
        }
    }
}

#ifdef ACCEL_FP64
__kernel void uniform_f64(__global double *out, ulong oo, ulong n, ulong seed, ulong off)
{
    const ulong c0 = off >> 1, items = ((off + n - 1) >> 1) - c0 + 1;
    ACCEL_RANGE(items, first, step, end)
    for (ulong c = c0 + first; c < c0 + end; c += step) {
        accel_philox_words w = accel_philox_block(c, seed);
        for (uint j = 0; j < 2; ++j) {
            ulong e = c * 2 + j;
            ulong bits = (((ulong)w.w[2 * j] << 32) | w.w[2 * j + 1]) >> 11;
            if (e >= off && e - off < n)
                out[oo + e - off] = (double)bits * 0x1p-53;
        }
    }
}

#define TWO_PI 6.283185307179586476925286766559
__kernel void normal_f64(__global double *out, ulong oo, ulong n, ulong seed, ulong off,
                         double mean, double sd)
{
    /* One work-item per pair p (elements 2p, 2p+1: one Philox block). */
    const ulong p0 = off >> 1, items = ((off + n - 1) >> 1) - p0 + 1;
    ACCEL_RANGE(items, first, step, end)
    for (ulong p = p0 + first; p < p0 + end; p += step) {
        accel_philox_words w = accel_philox_block(p, seed);
        ulong b1 = (((ulong)w.w[0] << 32) | w.w[1]) >> 11;
        ulong b2 = (((ulong)w.w[2] << 32) | w.w[3]) >> 11;
        double u1 = (double)(b1 + 1) * 0x1p-53, u2 = (double)(b2 + 1) * 0x1p-53;
        double r = sqrt(-2.0 * log(u1));
        double theta = TWO_PI * u2;
        ulong e = 2 * p;
        if (e >= off && e - off < n)
            out[oo + e - off] = mean + sd * r * cos(theta);
        if (e + 1 >= off && e + 1 - off < n)
            out[oo + e + 1 - off] = mean + sd * r * sin(theta);
    }
}
#endif

/* ------------------------------------------------------------- transpose
 * out[j*ldo + i] = x[i*ldx + j] on unsigned integers of the element's
 * width, so every bit pattern (NaN payloads) is kept. 16 x 16 tiles through
 * local memory: reads along x's rows and writes along out's rows are both
 * contiguous. Launched with local size (16, 16). */
#define TR_TILE 16
#define TRANSPOSE_KERNEL(UT, SUF)                                                                  \
    __kernel __attribute__((reqd_work_group_size(TR_TILE, TR_TILE, 1))) void transpose_##SUF(     \
        __global const UT *x, ulong ox, ulong ldx, __global UT *o, ulong oo, ulong ldo,            \
        ulong rows, ulong cols)                                                                    \
    {                                                                                              \
        __local UT t[TR_TILE][TR_TILE + 1];                                                        \
        const uint lx = get_local_id(0), ly = get_local_id(1);                                     \
        const ulong tiles_c = (cols + TR_TILE - 1) / TR_TILE;                                      \
        const ulong tiles = (rows + TR_TILE - 1) / TR_TILE * tiles_c;                              \
        for (ulong tile = get_group_id(0); tile < tiles; tile += get_num_groups(0)) {              \
            const ulong r0 = tile / tiles_c * TR_TILE, c0 = tile % tiles_c * TR_TILE;              \
            if (r0 + ly < rows && c0 + lx < cols)                                                  \
                t[ly][lx] = x[ox + (r0 + ly) * ldx + c0 + lx];                                     \
            barrier(CLK_LOCAL_MEM_FENCE);                                                          \
            if (c0 + ly < cols && r0 + lx < rows)                                                  \
                o[oo + (c0 + ly) * ldo + r0 + lx] = t[lx][ly];                                     \
            barrier(CLK_LOCAL_MEM_FENCE);                                                          \
        }                                                                                          \
    }
TRANSPOSE_KERNEL(ushort, u16)
TRANSPOSE_KERNEL(uint, u32)
TRANSPOSE_KERNEL(ulong, u64)

/* ---------------------------------------------------- GEMM with k = 0
 * C = beta*C on the m x n matrices of every batch (beta == 0: C is not
 * read, as BLAS), which CLBlast refuses to take. */
#define SCALE2D_KERNEL(T, SUF)                                                                     \
    __kernel void scale2d_##SUF(__global T *c, ulong oc, ulong ldc, ulong stride, ulong m,        \
                                ulong n, ulong batch, T beta)                                      \
    {                                                                                              \
        const ulong total = m * n * batch;                                                         \
        ACCEL_RANGE(total, first, step, end)                                                       \
        for (ulong i = first; i < end; i += step) {                                                \
            ulong b = i / (m * n), r = i % (m * n) / n, col = i % n;                               \
            __global T *p = c + oc + b * stride + r * ldc + col;                                   \
            *p = beta == 0 ? (T)0 : beta * *p;                                                     \
        }                                                                                          \
    }
SCALE2D_KERNEL(float, f32)
#ifdef ACCEL_FP64
SCALE2D_KERNEL(double, f64)
#endif
