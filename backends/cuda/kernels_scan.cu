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
//   bits as any order of two's complement sums).
// Scratch is stream-ordered (accel_cuda::with_cub_temp, kernel_common.cuh).
#include <cstddef>
#include <cstdint>

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "accel/types.h"
#include "kernel_common.cuh"

namespace
{

// a + b in Acc: CUB's accumulator is this op's result type (double for
// float32 read as it is, so each sum is rounded once on store); for an
// unsigned Acc it wraps, never undefined.
template <typename Acc> struct add {
    template <typename A, typename B> __host__ __device__ Acc operator()(A a, B b) const
    {
        return (Acc)((Acc)a + (Acc)b);
    }
};

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

template <typename U>
cudaError_t scan_bits(cudaStream_t s, const void *x, void *out, size_t m, size_t n)
{
    return scan_lines<U>(s, static_cast<const U *>(x), static_cast<U *>(out), m, n);
}

} // namespace

// m lines of n elements of dtype (contiguous: the op's k == 1); nonzero m, n.
extern "C" cudaError_t accel_cuda__launch_scan(cudaStream_t stream, uint32_t dtype, const void *x,
                                               void *out, size_t m, size_t n)
{
    switch (dtype) {
    case ACCEL_F32:
        return scan_lines<double>(stream, static_cast<const float *>(x), static_cast<float *>(out),
                                  m, n);
    case ACCEL_F64:
        return scan_lines<double>(stream, static_cast<const double *>(x),
                                  static_cast<double *>(out), m, n);
    case ACCEL_I8:
    case ACCEL_U8:
        return scan_bits<uint8_t>(stream, x, out, m, n);
    case ACCEL_I16:
    case ACCEL_U16:
        return scan_bits<uint16_t>(stream, x, out, m, n);
    case ACCEL_I32:
    case ACCEL_U32:
        return scan_bits<uint32_t>(stream, x, out, m, n);
    case ACCEL_I64:
    case ACCEL_U64:
        return scan_bits<uint64_t>(stream, x, out, m, n);
    default:
        return cudaErrorInvalidValue;
    }
}
