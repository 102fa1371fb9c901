// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The accel authors
// kernels_scan.cu — ACCEL_OP_CUMSUM through CUB's single-pass scan
// (cub::DeviceScan, decoupled look-back: Merrill and Garland, NVIDIA
// NVR-2016-002): one line (m == 1) as InclusiveScan, several contiguous lines
// (k == 1) as InclusiveScanByKey with the line index as the key, computed
// from the position (no key array). The lines of an m x n x 1 block are
// contiguous; other geometries are the core's generated kernel.
// - float32 sums in double (the scan op's result type, so CUB's
//   accumulator), each sum rounded once on store; float64 sums in double;
// - integers sum as the unsigned type of their width (wrapping, the same
//   bits as any order of two's complement sums), or with
//   ACCEL_OP_FLAG_SCAN_WIDE as uint64 into a 64-bit out (int32 into int64,
//   bool into int64, float32 into float64).
// Scratch is stream-ordered (accel_cuda::with_cub_temp, kernel_common.cuh).
#include <cstddef>
#include <cstdint>

#include <cub/device/device_scan.cuh>
#include <cub/device/dispatch/dispatch_scan.cuh>
#include <cuda/std/functional>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "accel/types.h"
#include "kernel_common.cuh"

namespace
{

// a + b in Acc: ::cuda::std::plus<Acc>, so CUB's accumulator is Acc
// (double for float32 read as it is: each sum rounded once on store; for
// an unsigned Acc it wraps, never undefined). CUB picks its tuned policy
// only for its own operators: a functor of ours of the same meaning got the
// generic one (7 items a thread for a double accumulator).
template <typename Acc> using add = ::cuda::std::plus<Acc>;

struct line_of {
    size_t n;
    __host__ __device__ size_t operator()(size_t i) const
    {
        return i / n;
    }
};

// out = the running sums of m contiguous lines of n elements at in,
// accumulated in Acc.
template <typename Acc, typename In, typename Out>
cudaError_t scan_lines(cudaStream_t s, In in, Out *out, size_t m, size_t n)
{
    const size_t total = m * n;
    auto keys = thrust::make_transform_iterator(thrust::counting_iterator<size_t>(0), line_of{n});
    return accel_cuda::with_cub_temp(s, [&](void *tmp, size_t &bytes) {
        if (m == 1)
            return cub::DeviceScan::InclusiveScan(tmp, bytes, in, out, add<Acc>{}, total, s);
        return cub::DeviceScan::InclusiveScanByKey(tmp, bytes, keys, in, out, add<Acc>{}, total,
                                                   ::cuda::std::equal_to<>{}, s);
    });
}

#if CUB_VERSION >= 300000
// One line of float32 summed in double, into float32. In a standalone CUB
// benchmark of this very dispatch on an H200 (docs/performance.md), CUB's
// own policy for a double accumulator (224 threads x 12 items on sm_90) ran
// 2^28 elements in 1.034 ms and 128 threads x 16 items in 0.838 ms
// (PyTorch's float-accumulated cumsum: 0.876), beside 128x24, 192x24,
// 256x16, 256x20 and 384x12. The delay constructor is CUB's sm_90 tuning
// for double. The items are given as they are (not scaled by the
// accumulator's size, as CUB's nominal 4-byte figures would be).
struct f32_in_f64_items {
    static constexpr int ITEMS_PER_THREAD = 16;
    static constexpr int BLOCK_THREADS = 128;
};
struct f32_in_f64_hub {
    using items = f32_in_f64_items;
    struct MaxPolicy : cub::ChainedPolicy<500, MaxPolicy, MaxPolicy> {
        using ScanPolicyT =
            cub::AgentScanPolicy<items::BLOCK_THREADS, items::ITEMS_PER_THREAD, double,
                                 cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::LOAD_DEFAULT,
                                 cub::BLOCK_STORE_WARP_TRANSPOSE, cub::BLOCK_SCAN_WARP_SCANS, items,
                                 cub::detail::fixed_delay_constructor_t<576, 1215>>;
    };
};

cudaError_t scan_f32_line(cudaStream_t s, const float *in, float *out, size_t n)
{
    if (n > UINT32_MAX)
        return scan_lines<double>(s, in, out, 1, n);
    using dispatch = cub::DispatchScan<const float *, float *, add<double>, cub::NullType, uint32_t,
                                       double, cub::ForceInclusive::No, f32_in_f64_hub>;
    return accel_cuda::with_cub_temp(s, [&](void *tmp, size_t &bytes) {
        return dispatch::Dispatch(tmp, bytes, in, out, add<double>{}, cub::NullType{}, (uint32_t)n,
                                  s);
    });
}
#else
cudaError_t scan_f32_line(cudaStream_t s, const float *in, float *out, size_t n)
{
    return scan_lines<double>(s, in, out, 1, n);
}
#endif

template <typename U>
cudaError_t scan_bits(cudaStream_t s, const void *x, void *out, size_t m, size_t n)
{
    return scan_lines<U>(s, static_cast<const U *>(x), static_cast<U *>(out), m, n);
}

// x as T into the 64-bit out of its kind (ACCEL_OP_FLAG_SCAN_WIDE): every
// integer and bool sums in uint64 (a signed T sign-extends), stored as the
// bits of int64 or uint64.
template <typename T>
cudaError_t scan_wide(cudaStream_t s, const void *x, void *out, size_t m, size_t n)
{
    return scan_lines<uint64_t>(s, static_cast<const T *>(x), static_cast<uint64_t *>(out), m, n);
}

// An integer x of type T: wide, uint64 sums into the 64-bit out; else sums
// in T's unsigned type into x's dtype.
template <typename T>
cudaError_t scan_int(cudaStream_t s, int wide, const void *x, void *out, size_t m, size_t n)
{
    using U = typename ::cuda::std::make_unsigned<T>::type;
    return wide ? scan_wide<T>(s, x, out, m, n) : scan_bits<U>(s, x, out, m, n);
}

} // namespace

// m lines of n elements of dtype (contiguous: the op's k == 1) into out of
// accel_scan_out_dtype(dtype, wide ? ACCEL_OP_FLAG_SCAN_WIDE : 0); nonzero m, n.
extern "C" cudaError_t accel_cuda__launch_scan(cudaStream_t stream, uint32_t dtype, int wide,
                                               const void *x, void *out, size_t m, size_t n)
{
    switch (dtype) {
    case ACCEL_F32:
        if (wide)
            return scan_lines<double>(stream, static_cast<const float *>(x),
                                      static_cast<double *>(out), m, n);
        if (m == 1)
            return scan_f32_line(stream, static_cast<const float *>(x), static_cast<float *>(out),
                                 n);
        return scan_lines<double>(stream, static_cast<const float *>(x), static_cast<float *>(out),
                                  m, n);
    case ACCEL_F64:
        return scan_lines<double>(stream, static_cast<const double *>(x),
                                  static_cast<double *>(out), m, n);
    case ACCEL_I8:
        return scan_int<int8_t>(stream, wide, x, out, m, n);
    case ACCEL_U8:
    case ACCEL_BOOL: /* wide only (op_supported) */
        return scan_int<uint8_t>(stream, wide, x, out, m, n);
    case ACCEL_I16:
        return scan_int<int16_t>(stream, wide, x, out, m, n);
    case ACCEL_U16:
        return scan_int<uint16_t>(stream, wide, x, out, m, n);
    case ACCEL_I32:
        return scan_int<int32_t>(stream, wide, x, out, m, n);
    case ACCEL_U32:
        return scan_int<uint32_t>(stream, wide, x, out, m, n);
    case ACCEL_I64:
    case ACCEL_U64: /* 64-bit already: wide or not, the same sums */
        return scan_bits<uint64_t>(stream, x, out, m, n);
    default:
        return cudaErrorInvalidValue;
    }
}
