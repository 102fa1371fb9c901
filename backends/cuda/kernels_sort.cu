// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The accel authors
// kernels_sort.cu — ACCEL_OP_SORT through CUB's radix sorts
// (cub::DeviceRadixSort for one line, cub::DeviceSegmentedRadixSort for
// several; stable in both directions), in backend.h's order, bit-identical
// to the CPU backend's std::stable_sort:
// - every key becomes an unsigned key of its width whose unsigned order is
//   the documented one: signed integers with the sign bit flipped; floats
//   with NaN -> all ones (after +inf), -0 -> +0, then the usual flip (sign
//   set: all bits inverted; clear: the sign bit set);
// - the keys are gathered line by line (line l = o*k + i, element j at
//   x[(o*n + j)*k + i]), so the sorted segments are contiguous;
// - bool and integers sort keys only and map back (equal keys are equal
//   bits); floats sort (key, index in line) pairs and gather the original
//   elements, so -0/+0 and NaN payloads keep their bits and their order.
// Scratch is stream-ordered (cudaMallocAsync / cudaFreeAsync on the queue's
// stream; CUB's temporary storage through accel_cuda::with_cub_temp).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>

#include "accel/types.h"
#include "kernel_common.cuh"

namespace
{

// kind: 0 unsigned or bool, 1 signed, 2 IEEE float (f32, f64), 3 f16, 4 bf16.
template <typename U> __device__ U to_key(U u, int kind)
{
    const U sign = (U)((U)1 << (sizeof(U) * 8 - 1));
    if (kind == 0)
        return u;
    if (kind == 1)
        return (U)(u ^ sign);
    U mag = (U)(u & (U)~sign);
    U inf = kind == 3        ? (U)0x7c00u
            : kind == 4      ? (U)0x7f80u
            : sizeof(U) == 4 ? (U)0x7f800000u
                             : (U)0x7ff0000000000000ull;
    if (mag > inf)
        return (U) ~(U)0; // NaN: after everything
    if (mag == 0)
        u = 0; // -0 == +0
    return (u & sign) ? (U)~u : (U)(u | sign);
}

template <typename U> __device__ U from_key(U key, int kind)
{
    const U sign = (U)((U)1 << (sizeof(U) * 8 - 1));
    return kind == 1 ? (U)(key ^ sign) : key; // keys-only path: integers
}

__device__ size_t block_pos(size_t l, size_t j, size_t n, size_t k)
{
    size_t o = l / k, i = l % k;
    return (o * n + j) * k + i;
}

template <typename U>
__global__ void gather_keys(const U *x, U *keys, uint32_t *idx, size_t n, size_t k, size_t total,
                            int kind)
{
    for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < total;
         t += (size_t)gridDim.x * blockDim.x) {
        size_t l = t / n, j = t % n;
        keys[t] = to_key<U>(x[block_pos(l, j, n, k)], kind);
        if (idx)
            idx[t] = (uint32_t)j;
    }
}

// argsort: the sorted line indices, in x's block layout.
__global__ void scatter_indices(const uint32_t *idx, int64_t *out, size_t n, size_t k, size_t total)
{
    for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < total;
         t += (size_t)gridDim.x * blockDim.x)
        out[block_pos(t / n, t % n, n, k)] = (int64_t)idx[t];
}

template <typename U>
__global__ void scatter_back(const U *x, const U *keys, const uint32_t *idx, U *out, size_t n,
                             size_t k, size_t total, int kind)
{
    for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < total;
         t += (size_t)gridDim.x * blockDim.x) {
        size_t l = t / n, j = t % n;
        out[block_pos(l, j, n, k)] =
            idx ? x[block_pos(l, idx[t], n, k)] : from_key<U>(keys[t], kind);
    }
}

__global__ void line_offsets(int *off, size_t lines, size_t n)
{
    for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t <= lines;
         t += (size_t)gridDim.x * blockDim.x)
        off[t] = (int)(t * n);
}

// The sort proper: keys (and idx when pairs) from `a` into `b`, CUB's temp
// storage allocated on the stream. lines > 1 needs total <= INT_MAX
// (checked by op_supported).
template <typename U>
cudaError_t cub_sort(cudaStream_t s, U *ka, U *kb, uint32_t *ia, uint32_t *ib, const int *off,
                     size_t total, size_t lines, bool desc)
{
    return accel_cuda::with_cub_temp(s, [&](void *tmp, size_t &bytes) {
        if (lines == 1 && ia)
            return desc ? cub::DeviceRadixSort::SortPairsDescending(tmp, bytes, ka, kb, ia, ib,
                                                                    total, 0, sizeof(U) * 8, s)
                        : cub::DeviceRadixSort::SortPairs(tmp, bytes, ka, kb, ia, ib, total, 0,
                                                          sizeof(U) * 8, s);
        if (lines == 1)
            return desc ? cub::DeviceRadixSort::SortKeysDescending(tmp, bytes, ka, kb, total, 0,
                                                                   sizeof(U) * 8, s)
                        : cub::DeviceRadixSort::SortKeys(tmp, bytes, ka, kb, total, 0,
                                                         sizeof(U) * 8, s);
        if (ia)
            return desc ? cub::DeviceSegmentedRadixSort::SortPairsDescending(
                              tmp, bytes, ka, kb, ia, ib, (int)total, (int)lines, off, off + 1, 0,
                              sizeof(U) * 8, s)
                        : cub::DeviceSegmentedRadixSort::SortPairs(tmp, bytes, ka, kb, ia, ib,
                                                                   (int)total, (int)lines, off,
                                                                   off + 1, 0, sizeof(U) * 8, s);
        return desc
                   ? cub::DeviceSegmentedRadixSort::SortKeysDescending(tmp, bytes, ka, kb,
                                                                       (int)total, (int)lines, off,
                                                                       off + 1, 0, sizeof(U) * 8, s)
                   : cub::DeviceSegmentedRadixSort::SortKeys(tmp, bytes, ka, kb, (int)total,
                                                             (int)lines, off, off + 1, 0,
                                                             sizeof(U) * 8, s);
    });
}

// arg: outv is argsort's int64 indices (always pairs; x is only read).
template <typename U>
cudaError_t sort_width(cudaStream_t s, uint32_t blocks, const void *xv, void *outv, size_t m,
                       size_t n, size_t k, bool desc, int kind, bool arg)
{
    const U *x = static_cast<const U *>(xv);
    U *out = static_cast<U *>(outv);
    size_t total = m * n * k, lines = m * k;
    bool pairs = kind >= 2 || arg;
    // One allocation: keys a, keys b, then (pairs) idx a, idx b, then offsets.
    size_t kbytes = total * sizeof(U), ibytes = pairs ? total * sizeof(uint32_t) : 0;
    size_t obytes = lines > 1 ? (lines + 1) * sizeof(int) : 0;
    size_t kpad = (kbytes + 255) / 256 * 256, ipad = (ibytes + 255) / 256 * 256;
    char *mem = nullptr;
    cudaError_t err = cudaMallocAsync((void **)&mem, 2 * kpad + 2 * ipad + obytes, s);
    if (err != cudaSuccess)
        return err;
    U *ka = (U *)mem, *kb = (U *)(mem + kpad);
    uint32_t *ia = pairs ? (uint32_t *)(mem + 2 * kpad) : nullptr;
    uint32_t *ib = pairs ? (uint32_t *)(mem + 2 * kpad + ipad) : nullptr;
    int *off = lines > 1 ? (int *)(mem + 2 * kpad + 2 * ipad) : nullptr;
    gather_keys<U><<<blocks, 256, 0, s>>>(x, ka, ia, n, k, total, kind);
    if (off)
        line_offsets<<<blocks, 256, 0, s>>>(off, lines, n);
    err = cudaGetLastError();
    if (err == cudaSuccess)
        err = cub_sort<U>(s, ka, kb, ia, ib, off, total, lines, desc);
    if (err == cudaSuccess && arg) {
        scatter_indices<<<blocks, 256, 0, s>>>(ib, static_cast<int64_t *>(outv), n, k, total);
        err = cudaGetLastError();
    } else if (err == cudaSuccess) {
        // In place (x == out) reads x while writing out: only the keys-only
        // path, which never reads x here, may run so; pairs read x[src], so
        // they gather from a copy of x's block first.
        const U *src = x;
        if (pairs && (const void *)x == (const void *)out) {
            err = cudaMemcpyAsync(ka, x, kbytes, cudaMemcpyDeviceToDevice, s);
            src = ka;
        }
        if (err == cudaSuccess) {
            scatter_back<U><<<blocks, 256, 0, s>>>(src, kb, ib, out, n, k, total, kind);
            err = cudaGetLastError();
        }
    }
    cudaError_t e2 = cudaFreeAsync(mem, s);
    return err != cudaSuccess ? err : e2;
}

// ---- one contiguous line (m*k == 1, not argsort): CUB's own keys
//
// CUB sorts x's native keys straight into out: no gathered copy of the
// keys, no pairs, no scatter (sort of 2^28 float32 keys: 21.3 ms as pairs
// on the H100, CuPy's keys-only 7.2 ms). CUB orders -0 == +0 and keeps
// their input order, as documented here; integers and bool are then done.
// It orders NaNs by their bits, though (a negative-signed NaN before
// -inf, payloads apart), where every NaN goes last (first descending) in
// input order. The fix-up runs on the device, without a host wait, and
// costs a few microseconds when x holds no NaN: the NaNs CUB put at each
// end are counted by a binary search of out (nan_ends), and only when
// there are any are x's NaNs selected in input order (nan_chunks,
// nan_offsets, nan_select: every block a contiguous chunk), the non-NaN run
// moved (through scratch) when a negative-signed NaN put it out of place,
// and the NaNs written where they belong. (A count and CUB's
// DeviceSelect::If over the whole of x, as before, read it twice more:
// 1.1 ms of the 8.4 for 2^28 float32 on the H100.)

// A float's bits in CUB's radix order (sign set: every bit inverted; else
// the sign bit set): negative-signed NaNs below -inf, the others above +inf.
template <typename T> struct float_bits;
template <> struct float_bits<float> {
    typedef uint32_t U;
    static constexpr U inf = 0x7f800000u;
};
template <> struct float_bits<double> {
    typedef unsigned long long U;
    static constexpr U inf = 0x7ff0000000000000ull;
};

template <typename T> __device__ typename float_bits<T>::U radix_order(T v)
{
    typedef typename float_bits<T>::U U;
    const U sign = (U)1 << (sizeof(U) * 8 - 1);
    U u;
    memcpy(&u, &v, sizeof u);
    return (u & sign) ? (U)~u : (U)(u | sign);
}

// The first i in [0, n) where below(out[i]) is false, for a predicate true
// on a prefix of out (n when true throughout).
template <typename T, typename P> __device__ size_t partition_point(const T *out, size_t n, P below)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (below(out[mid]))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// cnt[0] = the NaNs of sorted out with the sign bit set, cnt[1] = the
// others (at out's two ends); one thread.
template <typename T>
__global__ void nan_ends(const T *out, size_t n, unsigned long long *cnt, bool desc)
{
    typedef typename float_bits<T>::U U;
    const U sign = (U)1 << (sizeof(U) * 8 - 1);
    const U ninf = (U) ~(float_bits<T>::inf | sign), pinf = float_bits<T>::inf | sign;
    size_t neg, pos;
    if (!desc) {
        neg = partition_point(out, n, [=](T v) { return radix_order<T>(v) < ninf; });
        pos = n - partition_point(out, n, [=](T v) { return radix_order<T>(v) <= pinf; });
    } else {
        pos = partition_point(out, n, [=](T v) { return radix_order<T>(v) > pinf; });
        neg = n - partition_point(out, n, [=](T v) { return radix_order<T>(v) >= ninf; });
    }
    cnt[0] = neg;
    cnt[1] = pos;
}

// Block b's chunk of x: [b*per, min(n, (b+1)*per)).
__device__ size_t chunk_end(size_t b, size_t per, size_t n)
{
    size_t e = (b + 1) * per;
    return e < n ? e : n;
}

// The NaNs of a 256-thread block's tile, counted; each thread's NaN
// position among them in *before (a block-wide exclusive count).
__device__ int tile_nans(bool nan, int *before)
{
    __shared__ int warp_sums[8];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    unsigned ball = __ballot_sync(0xffffffffu, nan);
    if (lane == 0)
        warp_sums[warp] = __popc(ball);
    __syncthreads();
    int base = 0, total = 0;
    for (unsigned w = 0; w < 8; w++) {
        base += w < warp ? warp_sums[w] : 0;
        total += warp_sums[w];
    }
    __syncthreads(); // warp_sums reused by the next tile
    *before = base + __popc(ball & ((1u << lane) - 1u));
    return total;
}

// part[b] = the NaNs of block b's chunk of x; nothing when out holds none.
template <typename T>
__global__ void nan_chunks(const T *x, size_t n, size_t per, const unsigned long long *cnt,
                           unsigned long long *part)
{
    if (cnt[0] + cnt[1] == 0)
        return;
    unsigned long long c = 0;
    for (size_t a = blockIdx.x * per, e = chunk_end(blockIdx.x, per, n); a < e; a += blockDim.x) {
        size_t t = a + threadIdx.x;
        int before;
        c += (unsigned long long)tile_nans(t < e && x[t] != x[t], &before);
    }
    if (threadIdx.x == 0)
        part[blockIdx.x] = c;
}

// part[] made exclusive running sums (one thread; only with NaNs).
__global__ void nan_offsets(unsigned long long *part, unsigned blocks,
                            const unsigned long long *cnt)
{
    if (cnt[0] + cnt[1] == 0)
        return;
    unsigned long long run = 0;
    for (unsigned b = 0; b < blocks; b++) {
        unsigned long long c = part[b];
        part[b] = run;
        run += c;
    }
}

// x's NaNs into nans in input order, each block from its offset.
template <typename T>
__global__ void nan_select(const T *x, size_t n, size_t per, const unsigned long long *cnt,
                           const unsigned long long *part, T *nans)
{
    if (cnt[0] + cnt[1] == 0)
        return;
    unsigned long long at = part[blockIdx.x];
    for (size_t a = blockIdx.x * per, e = chunk_end(blockIdx.x, per, n); a < e; a += blockDim.x) {
        size_t t = a + threadIdx.x;
        T v = t < e ? x[t] : T(0);
        int before;
        int k = tile_nans(v != v, &before);
        if (v != v)
            nans[at + before] = v;
        at += k;
    }
}

// Where CUB's output has its non-NaN run (cur) and where it belongs (want).
struct nan_runs {
    size_t nan, keep, cur, want;
};

__device__ nan_runs runs_of(const unsigned long long *cnt, size_t n, bool desc)
{
    nan_runs r;
    r.nan = (size_t)(cnt[0] + cnt[1]);
    r.keep = n - r.nan;
    r.cur = (size_t)(desc ? cnt[1] : cnt[0]); // the NaNs CUB put in front
    r.want = desc ? r.nan : 0;
    return r;
}

// The non-NaN run out of out into tmp, when it is out of place.
template <typename T>
__global__ void nan_fix_out(const T *out, T *tmp, size_t n, const unsigned long long *cnt,
                            bool desc)
{
    nan_runs r = runs_of(cnt, n, desc);
    if (r.cur == r.want)
        return;
    for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < r.keep;
         t += (size_t)gridDim.x * blockDim.x)
        tmp[t] = out[r.cur + t];
}

// The non-NaN run back from tmp (when moved) and x's NaNs in input order.
template <typename T>
__global__ void nan_fix_in(T *out, const T *tmp, const T *nans, size_t n,
                           const unsigned long long *cnt, bool desc)
{
    nan_runs r = runs_of(cnt, n, desc);
    size_t moved = r.cur == r.want ? 0 : r.keep, todo = moved > r.nan ? moved : r.nan;
    size_t nan_at = desc ? 0 : r.keep;
    for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < todo;
         t += (size_t)gridDim.x * blockDim.x) {
        if (t < moved)
            out[r.want + t] = tmp[t];
        if (t < r.nan)
            out[nan_at + t] = nans[t];
    }
}

// The NaN fix-up of a float line CUB sorted from src into out (see above);
// mem: 2 * tb + 256 + 8 * blocks bytes of scratch.
template <typename T>
cudaError_t nan_fixup(cudaStream_t s, uint32_t blocks, const T *src, T *out, size_t n, bool desc,
                      char *mem, size_t tb)
{
    T *nans = (T *)mem, *moved = (T *)(mem + tb);
    unsigned long long *cnt = (unsigned long long *)(mem + 2 * tb);
    unsigned long long *part = cnt + 32;
    size_t per = (n + blocks - 1) / blocks;
    nan_ends<T><<<1, 1, 0, s>>>(out, n, cnt, desc);
    nan_chunks<T><<<blocks, 256, 0, s>>>(src, n, per, cnt, part);
    nan_offsets<<<1, 1, 0, s>>>(part, blocks, cnt);
    nan_select<T><<<blocks, 256, 0, s>>>(src, n, per, cnt, part, nans);
    nan_fix_out<T><<<blocks, 256, 0, s>>>(out, moved, n, cnt, desc);
    nan_fix_in<T><<<blocks, 256, 0, s>>>(out, moved, nans, n, cnt, desc);
    return cudaGetLastError();
}

template <typename T>
cudaError_t line_sort(cudaStream_t s, uint32_t blocks, const T *x, T *out, size_t n, bool desc)
{
    const bool fl = std::is_floating_point<T>::value; // float, double
    size_t tb = (n * sizeof(T) + 255) / 256 * 256;
    // scratch: x's copy when in place, then (floats) NaNs, moved run, the
    // NaN counts (256 bytes) and the per-block NaN counts (8 a block)
    size_t copy = (const void *)x == (const void *)out ? tb : 0;
    size_t fix = fl ? 2 * tb + 256 + 8 * (size_t)blocks : 0;
    char *mem = nullptr;
    cudaError_t err = cudaSuccess;
    if (copy + fix && (err = cudaMallocAsync((void **)&mem, copy + fix, s)) != cudaSuccess)
        return err;
    const T *src = x;
    if (copy) {
        err = cudaMemcpyAsync(mem, x, n * sizeof(T), cudaMemcpyDeviceToDevice, s);
        src = (const T *)mem;
    }
    if (err == cudaSuccess)
        err = accel_cuda::with_cub_temp(s, [&](void *tmp, size_t &bytes) {
            return desc ? cub::DeviceRadixSort::SortKeysDescending(tmp, bytes, src, out, n, 0,
                                                                   sizeof(T) * 8, s)
                        : cub::DeviceRadixSort::SortKeys(tmp, bytes, src, out, n, 0, sizeof(T) * 8,
                                                         s);
        });
    if constexpr (std::is_floating_point<T>::value)
        if (err == cudaSuccess)
            err = nan_fixup<T>(s, blocks, src, out, n, desc, mem + copy, tb);
    if (mem) {
        cudaError_t e2 = cudaFreeAsync(mem, s);
        err = err == cudaSuccess ? e2 : err;
    }
    return err;
}

// The dtypes line_sort takes (CUB's native keys), or false.
bool line_sort_of(cudaStream_t s, uint32_t blocks, uint32_t dtype, const void *x, void *out,
                  size_t n, bool desc, cudaError_t *err)
{
#define LS(T) *err = line_sort<T>(s, blocks, (const T *)x, (T *)out, n, desc)
    switch (dtype) {
    case ACCEL_BOOL:
    case ACCEL_U8:
        LS(uint8_t);
        return true;
    case ACCEL_I8:
        LS(int8_t);
        return true;
    case ACCEL_U16:
        LS(uint16_t);
        return true;
    case ACCEL_I16:
        LS(int16_t);
        return true;
    case ACCEL_U32:
        LS(uint32_t);
        return true;
    case ACCEL_I32:
        LS(int32_t);
        return true;
    case ACCEL_U64:
        LS(uint64_t);
        return true;
    case ACCEL_I64:
        LS(int64_t);
        return true;
    case ACCEL_F32:
        LS(float);
        return true;
    case ACCEL_F64:
        LS(double);
        return true;
    default:
        return false;
    }
#undef LS
}

} // namespace

// Sort x's m x n x k block along the middle axis into out (x == out
// allowed), or (arg) write the int64 indices that sort it. m*n*k >= 1;
// n < 2^32; m*k > 1 needs m*n*k <= INT_MAX.
extern "C" cudaError_t accel_cuda__launch_sort(cudaStream_t stream, uint32_t max_blocks,
                                               uint32_t dtype, const void *x, void *out, size_t m,
                                               size_t n, size_t k, int descending, int arg)
{
    size_t total = m * n * k;
    uint32_t blocks = (uint32_t)((total + 255) / 256);
    if (blocks > max_blocks)
        blocks = max_blocks;
    if (blocks == 0)
        blocks = 1;
    bool d = descending != 0, a = arg != 0;
    cudaError_t err;
    if (!a && m * k == 1 && line_sort_of(stream, blocks, dtype, x, out, n, d, &err))
        return err;
    switch (dtype) {
    case ACCEL_BOOL:
    case ACCEL_U8:
        return sort_width<uint8_t>(stream, blocks, x, out, m, n, k, d, 0, a);
    case ACCEL_I8:
        return sort_width<uint8_t>(stream, blocks, x, out, m, n, k, d, 1, a);
    case ACCEL_U16:
        return sort_width<uint16_t>(stream, blocks, x, out, m, n, k, d, 0, a);
    case ACCEL_I16:
        return sort_width<uint16_t>(stream, blocks, x, out, m, n, k, d, 1, a);
    case ACCEL_F16:
        return sort_width<uint16_t>(stream, blocks, x, out, m, n, k, d, 3, a);
    case ACCEL_BF16:
        return sort_width<uint16_t>(stream, blocks, x, out, m, n, k, d, 4, a);
    case ACCEL_U32:
        return sort_width<uint32_t>(stream, blocks, x, out, m, n, k, d, 0, a);
    case ACCEL_I32:
        return sort_width<uint32_t>(stream, blocks, x, out, m, n, k, d, 1, a);
    case ACCEL_F32:
        return sort_width<uint32_t>(stream, blocks, x, out, m, n, k, d, 2, a);
    case ACCEL_U64:
        return sort_width<uint64_t>(stream, blocks, x, out, m, n, k, d, 0, a);
    case ACCEL_I64:
        return sort_width<uint64_t>(stream, blocks, x, out, m, n, k, d, 1, a);
    case ACCEL_F64:
        return sort_width<uint64_t>(stream, blocks, x, out, m, n, k, d, 2, a);
    default:
        return cudaErrorInvalidValue;
    }
}
