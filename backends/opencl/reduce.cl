/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* reduce.cl — sum, dot, max and min into one output element, the CUDA
 * backend's design (backends/cuda/kernels_reduce.cu) in OpenCL C 1.2.
 * program.c builds it after kernels.cl (ACCEL_RANGE, ACCEL_WG, ACCEL_FP64).
 *
 * Pass 1 runs a fixed number of work-groups (reduce.c: a few per compute
 * unit, from n and the device alone, never from timing). Each work-item
 * folds its share of the 16-byte aligned body with vector loads (float4,
 * double2: what lets a GPU keep enough bytes in flight to reach its memory
 * bandwidth) and its share of the unaligned head and tail with scalar loads,
 * in index order; the work-group adds its ACCEL_WG values by a fixed tree
 * and writes one partial. For max and min, pass 2 (one work-group)
 * folds the partials the same way and writes the result in the op's dtype;
 * sums and dots do it in the same launch, in the group that finishes last
 * (sum1). When pass 1 has one work-group it writes the result itself. Same input, same device: the same
 * bits every run.
 *
 * Sums and dots accumulate in double where the device has fp64 (f32 and f64
 * alike; a product of two f32 is exact in double), else in float. Error
 * (Higham 2002, §4.2, recursive summation of n/P terms per work-item and a
 * pairwise tree above, P the work-items of pass 1): within
 * (n/P + log2 P + log2 G) u_acc sum|x_i| plus the final rounding to the
 * dtype, inside the op table's SUM bound 2 n eps sum|x_i|. max and min are
 * exact and independent of the order. */

#ifdef ACCEL_FP64
#define ACC_f32 double
#else
#define ACC_f32 float
#endif
#define ACC_f64 double

/* The element j of the vector split: [0, head) scalars, then nvec vectors
 * of W, then scalars to n. Scalar number e in [0, n - nvec*W) is element
 * e < head ? e : e + nvec*W. */
#define SCALAR_INDEX(e, head, nvec, W) ((e) < (head) ? (e) : (e) + (nvec) * (W))

/* The fixed tree over s[0..ACCEL_WG); the value ends in s[0]. */
#define SUM_TREE(s, lid)                                                                           \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    for (uint h = ACCEL_WG / 2; h > 0; h >>= 1) {                                                  \
        if ((lid) < h)                                                                             \
            s[lid] += s[(lid) + h];                                                                \
        barrier(CLK_LOCAL_MEM_FENCE);                                                              \
    }

/* Fold the vector v (W = 4 or 2) into acc in component order; with u, the
 * products v*u (exact in double for f32). */
#define FOLD4(A, acc, v)                                                                           \
    acc += (A)(v).x;                                                                               \
    acc += (A)(v).y;                                                                               \
    acc += (A)(v).z;                                                                               \
    acc += (A)(v).w;
#define FOLD2(A, acc, v)                                                                           \
    acc += (A)(v).x;                                                                               \
    acc += (A)(v).y;
#define FOLD_DOT4(A, acc, v, u)                                                                    \
    acc += (A)(v).x * (A)(u).x;                                                                    \
    acc += (A)(v).y * (A)(u).y;                                                                    \
    acc += (A)(v).z * (A)(u).z;                                                                    \
    acc += (A)(v).w * (A)(u).w;
#define FOLD_DOT2(A, acc, v, u)                                                                    \
    acc += (A)(v).x * (A)(u).x;                                                                    \
    acc += (A)(v).y * (A)(u).y;

/* The fold of `groups` partials by one work-group into out[oo]: each
 * work-item adds partials lid, lid + ACCEL_WG, ... in order, then the fixed
 * tree. part is read volatile: the other groups wrote it. */
#define FOLD_PARTS(A, T, part, groups, s, lid, out, oo)                                            \
    {                                                                                              \
        A acc = 0;                                                                                 \
        for (ulong g = lid; g < (groups); g += ACCEL_WG)                                           \
            acc += ((volatile __global A *)(part))[g];                                             \
        s[lid] = acc;                                                                              \
        SUM_TREE(s, lid)                                                                           \
        if (lid == 0)                                                                              \
            out[oo] = (T)s[0];                                                                     \
    }

/* sum1: sum (dot = 0) and dot (dot = 1; y is read) in one launch. x + ox +
 * head and y + oy + head are 16-byte aligned (reduce.c). Each group writes
 * its partial to part[group] and counts itself done in *done; the group
 * that counts last folds all partials into out[oo] (FOLD_PARTS) and sets
 * *done back to 0 for the queue's next sum (the CUDA threadFenceReduction
 * pattern: the fence orders each partial before its count). One group
 * writes out itself. Which group ends last changes nothing in the result:
 * the fold's order is fixed. */
#define SUM1_KERNEL(T, V, W, SUF)                                                                  \
    __kernel __attribute__((reqd_work_group_size(ACCEL_WG, 1, 1))) void sum1_##SUF(                \
        __global const T *x, ulong ox, __global const T *y, ulong oy, ulong n, ulong head,         \
        ulong nvec, int dot, __global ACC_##SUF *part, __global T *out, ulong oo,                  \
        __global volatile uint *done)                                                              \
    {                                                                                              \
        __local ACC_##SUF s[ACCEL_WG];                                                             \
        __local int last;                                                                          \
        const uint lid = get_local_id(0);                                                          \
        ACC_##SUF acc = 0;                                                                         \
        __global const V *vx = (__global const V *)(x + ox + head);                                \
        __global const V *vy = (__global const V *)(y + oy + head);                                \
        ACCEL_RANGE(nvec, vf, vs, ve)                                                              \
        if (dot) {                                                                                 \
            for (ulong i = vf; i < ve; i += vs) {                                                  \
                V a = vx[i], b = vy[i];                                                            \
                FOLD_DOT##W(ACC_##SUF, acc, a, b)                                                  \
            }                                                                                      \
        } else {                                                                                   \
            for (ulong i = vf; i < ve; i += vs) {                                                  \
                V a = vx[i];                                                                       \
                FOLD##W(ACC_##SUF, acc, a)                                                         \
            }                                                                                      \
        }                                                                                          \
        const ulong ns = n - nvec * W;                                                             \
        ACCEL_RANGE(ns, sf, ss, se)                                                                \
        for (ulong e = sf; e < se; e += ss) {                                                      \
            const ulong j = SCALAR_INDEX(e, head, nvec, W);                                        \
            acc += dot ? (ACC_##SUF)x[ox + j] * (ACC_##SUF)y[oy + j] : (ACC_##SUF)x[ox + j];       \
        }                                                                                          \
        s[lid] = acc;                                                                              \
        SUM_TREE(s, lid)                                                                           \
        const uint groups = get_num_groups(0);                                                     \
        if (groups == 1) {                                                                         \
            if (lid == 0)                                                                          \
                out[oo] = (T)s[0];                                                                 \
            return;                                                                                \
        }                                                                                          \
        if (lid == 0) {                                                                            \
            ((volatile __global ACC_##SUF *)part)[get_group_id(0)] = s[0];                         \
            mem_fence(CLK_GLOBAL_MEM_FENCE);                                                       \
            last = atomic_inc(done) == groups - 1;                                                 \
        }                                                                                          \
        barrier(CLK_LOCAL_MEM_FENCE);                                                              \
        if (!last)                                                                                 \
            return;                                                                                \
        mem_fence(CLK_GLOBAL_MEM_FENCE);                                                           \
        FOLD_PARTS(ACC_##SUF, T, part, groups, s, lid, out, oo)                                    \
        if (lid == 0)                                                                              \
            *done = 0;                                                                             \
    }

/* max and min: IEEE 754-2019 maximum/minimum (§9.6) as the CPU backend:
 * -0 < +0 (equal values are combined by AND of their bits for max, OR for
 * min) and any NaN makes the result the first NaN in index order. Pass 1
 * gives each group's extreme of the non-NaN values and its smallest NaN
 * index; pass 2 (one group) folds them and writes x[first NaN] or the
 * extreme. Both folds are exact, so the order does not matter. */
#define EXT_STEP(T, SUF, UT, AS_U, AS_T)                                                           \
    inline T ext_step_##SUF(T v, T m, int is_max)                                                  \
    {                                                                                              \
        UT e = is_max ? (AS_U(v) & AS_U(m)) : (AS_U(v) | AS_U(m));                                 \
        if (v == m)                                                                                \
            return AS_T(e);                                                                        \
        if (v != v)                                                                                \
            return m;                                                                              \
        return is_max ? (v > m ? v : m) : (v < m ? v : m);                                         \
    }

#define EXT_FOLD(T, SUF)                                                                           \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                  \
    for (uint h = ACCEL_WG / 2; h > 0; h >>= 1) {                                                  \
        if (lid < h) {                                                                             \
            s[lid] = ext_step_##SUF(s[lid + h], s[lid], is_max);                                   \
            nan[lid] = min(nan[lid], nan[lid + h]);                                                \
        }                                                                                          \
        barrier(CLK_LOCAL_MEM_FENCE);                                                              \
    }

/* The start of ext1 and ext2: the group's values and first NaN indices,
 * and the work-item's extreme m (the identity) and first NaN index. */
#define EXT_BEGIN(T)                                                                               \
    __local T s[ACCEL_WG];                                                                         \
    __local ulong nan[ACCEL_WG];                                                                   \
    const uint lid = get_local_id(0);                                                              \
    T m = is_max ? -INFINITY : INFINITY;                                                           \
    ulong first = ULONG_MAX;

/* One element v at index i into the extreme m and the first NaN index. */
#define EXT_ONE(T, SUF, v, i)                                                                      \
    {                                                                                              \
        const T v_ = (v);                                                                          \
        if (v_ != v_)                                                                              \
            first = min(first, (ulong)(i));                                                        \
        m = ext_step_##SUF(v_, m, is_max);                                                         \
    }

#define EXT_KERNELS(T, V, W, SUF, UT, AS_U, AS_T)                                                  \
    EXT_STEP(T, SUF, UT, AS_U, AS_T)                                                               \
    __kernel __attribute__((reqd_work_group_size(ACCEL_WG, 1, 1))) void ext1_##SUF(                \
        __global const T *x, ulong ox, ulong n, ulong head, ulong nvec, int is_max,                \
        __global T *part, __global ulong *part_nan, ulong nan_off)                                 \
    {                                                                                              \
        EXT_BEGIN(T)                                                                               \
        __global const V *vx = (__global const V *)(x + ox + head);                                \
        ACCEL_RANGE(nvec, vf, vs, ve)                                                              \
        for (ulong i = vf; i < ve; i += vs) {                                                      \
            const V v = vx[i];                                                                     \
            const T *e = (const T *)&v;                                                            \
            for (uint k = 0; k < W; ++k)                                                           \
                EXT_ONE(T, SUF, e[k], head + i * W + k)                                            \
        }                                                                                          \
        const ulong ns = n - nvec * W;                                                             \
        ACCEL_RANGE(ns, sf, ss, se)                                                                \
        for (ulong e = sf; e < se; e += ss) {                                                      \
            const ulong j = SCALAR_INDEX(e, head, nvec, W);                                        \
            EXT_ONE(T, SUF, x[ox + j], j)                                                          \
        }                                                                                          \
        s[lid] = m;                                                                                \
        nan[lid] = first;                                                                          \
        EXT_FOLD(T, SUF)                                                                           \
        if (lid == 0) {                                                                            \
            part[get_group_id(0)] = s[0];                                                          \
            part_nan[nan_off + get_group_id(0)] = nan[0];                                          \
        }                                                                                          \
    }                                                                                              \
    __kernel __attribute__((reqd_work_group_size(ACCEL_WG, 1, 1))) void ext2_##SUF(                \
        __global const T *part, __global const ulong *part_nan, ulong nan_off, ulong groups,       \
        int is_max, __global const T *x, ulong ox, __global T *out, ulong oo)                      \
    {                                                                                              \
        EXT_BEGIN(T)                                                                               \
        for (ulong g = lid; g < groups; g += ACCEL_WG) {                                           \
            m = ext_step_##SUF(part[g], m, is_max);                                                \
            first = min(first, part_nan[nan_off + g]);                                             \
        }                                                                                          \
        s[lid] = m;                                                                                \
        nan[lid] = first;                                                                          \
        EXT_FOLD(T, SUF)                                                                           \
        if (lid == 0)                                                                              \
            out[oo] = nan[0] != ULONG_MAX ? x[ox + nan[0]] : s[0];                                 \
    }

SUM1_KERNEL(float, float4, 4, f32)
EXT_KERNELS(float, float4, 4, f32, uint, as_uint, as_float)
#ifdef ACCEL_FP64
SUM1_KERNEL(double, double2, 2, f64)
EXT_KERNELS(double, double2, 2, f64, ulong, as_ulong, as_double)
#endif
