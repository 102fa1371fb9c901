/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* sort.cl — ACCEL_OP_SORT and ACCEL_OP_ARGSORT on OpenCL: a bitonic sort
 * (Batcher 1968) of (key, index) pairs in global memory, one launch per
 * compare-exchange step (sort.c runs the network). program.c builds it
 * after kernels.cl (ACCEL_RANGE).
 *
 * The order is backend.h's, the CPU backend's std::stable_sort and the CUDA
 * backend's radix sort (backends/cuda/kernels_sort.cu, whose key mapping
 * this is): every element becomes an unsigned key whose unsigned order is
 * the documented one (signed integers with the sign bit flipped; floats
 * with NaN -> all ones, after +inf, -0 -> +0, then the sign flip), inverted
 * for a descending sort. A bitonic network is not stable by itself; sorting
 * the pairs (key, index in the line) makes every pair distinct, so the
 * result is the stable order in both directions (equal keys by index). Each
 * line (l = o*k + i, element j at x[(o*n + j)*k + i]) is padded to P, a
 * power of two, with pairs (all ones, j >= n) that sort after every real
 * one; lines sit P apart in the scratch, so a block of the network never
 * crosses a line. The sorted line is gathered from x by index, so -0/+0 and
 * NaN payloads keep their bits. */

/* kind: 0 unsigned or bool, 1 signed, 2 IEEE f32/f64, 3 f16, 4 bf16; u
 * holds the element's `bits` bits. */
inline ulong sort_key(ulong u, uint bits, int kind, int desc)
{
    const ulong sign = 1ul << (bits - 1), all = bits == 64 ? ~0ul : (1ul << bits) - 1;
    ulong key = u;
    if (kind == 1) {
        key = u ^ sign;
    } else if (kind >= 2) {
        const ulong mag = u & ~sign;
        const ulong inf = kind == 3 ? 0x7c00ul
                          : kind == 4 ? 0x7f80ul
                          : bits == 32 ? 0x7f800000ul
                                       : 0x7ff0000000000000ul;
        if (mag > inf)
            key = all; /* every NaN equal, after +inf */
        else if (mag == 0)
            key = sign; /* -0 == +0 */
        else
            key = (u & sign) ? (~u & all) : (u | sign);
    }
    return desc ? key ^ all : key;
}

/* The line and position of pair t: line t / P, position t % P; the
 * element's place in the m x n x k block. */
#define SORT_POS(l, j, n, k) (((l) / (k) * (n) + (j)) * (k) + (l) % (k))

#define SORT_KEYS_KERNEL(UT, BITS)                                                                 \
    __kernel void sort_keys_u##BITS(__global const UT *x, ulong ox, __global ulong *keys,          \
                                    __global uint *idx, ulong n, ulong k, ulong p, ulong total,    \
                                    int kind, int desc)                                            \
    {                                                                                              \
        ACCEL_RANGE(total, first, step, end)                                                       \
        for (ulong t = first; t < end; t += step) {                                                \
            const ulong l = t / p, j = t % p;                                                      \
            keys[t] = j < n ? sort_key(x[ox + SORT_POS(l, j, n, k)], BITS, kind, desc) : ~0ul;     \
            idx[t] = (uint)j;                                                                      \
        }                                                                                          \
    }

/* The sorted elements: out's line l, position j, is x's element idx. */
#define SORT_OUT_KERNEL(UT, BITS)                                                                  \
    __kernel void sort_out_u##BITS(__global const UT *x, ulong ox, __global UT *out, ulong oo,     \
                                   __global const uint *idx, ulong n, ulong k, ulong p,            \
                                   ulong total)                                                    \
    {                                                                                              \
        ACCEL_RANGE(total, first, step, end)                                                       \
        for (ulong t = first; t < end; t += step) {                                                \
            const ulong l = t / n, j = t % n;                                                      \
            out[oo + SORT_POS(l, j, n, k)] = x[ox + SORT_POS(l, idx[l * p + j], n, k)];            \
        }                                                                                          \
    }

SORT_KEYS_KERNEL(uchar, 8)
SORT_KEYS_KERNEL(ushort, 16)
SORT_KEYS_KERNEL(uint, 32)
SORT_KEYS_KERNEL(ulong, 64)
SORT_OUT_KERNEL(uchar, 8)
SORT_OUT_KERNEL(ushort, 16)
SORT_OUT_KERNEL(uint, 32)
SORT_OUT_KERNEL(ulong, 64)

/* argsort: out (int64) at line l, position j is the index idx. */
__kernel void sort_index(__global long *out, ulong oo, __global const uint *idx, ulong n, ulong k,
                         ulong p, ulong total)
{
    ACCEL_RANGE(total, first, step, end)
    for (ulong t = first; t < end; t += step) {
        const ulong l = t / n, j = t % n;
        out[oo + SORT_POS(l, j, n, k)] = (long)idx[l * p + j];
    }
}

/* One step of the network: the pairs (i, i + j) with i & j == 0, ascending
 * where i & dir == 0 (dir: the size of the bitonic blocks being merged, or
 * 0 for the last merge of a line, ascending everywhere). */
__kernel void sort_step(__global ulong *keys, __global uint *idx, ulong pairs, ulong j, ulong dir)
{
    ACCEL_RANGE(pairs, first, step, end)
    for (ulong t = first; t < end; t += step) {
        const ulong i = t / j * 2 * j + t % j, q = i + j;
        const ulong ka = keys[i], kb = keys[q];
        const uint ia = idx[i], ib = idx[q];
        const int greater = ka > kb || (ka == kb && ia > ib);
        if (greater == ((i & dir) == 0)) {
            keys[i] = kb;
            keys[q] = ka;
            idx[i] = ib;
            idx[q] = ia;
        }
    }
}
