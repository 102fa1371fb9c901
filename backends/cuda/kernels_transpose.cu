/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* kernels_transpose.cu — out = x^T for a row-major rows x cols matrix with
 * leading dimensions ldx (x) and ldo (out).
 *
 * The classic shared-memory tiling (Harris, "An Efficient Matrix Transpose in
 * CUDA C/C++", NVIDIA Developer Blog, 2013): a block of 32 x 8 threads moves
 * one 32 x 32 tile at a time. Each warp reads 32 consecutive elements of a row
 * of x and writes 32 consecutive elements of a row of out, so both sides are
 * coalesced; the tile is turned around in shared memory, padded to 33 columns
 * so that a warp reading a tile column hits 32 different banks (for 4-byte
 * elements; 8-byte ones fall into two conflict-free half-warp wavefronts;
 * 2-byte ones, two per word, meet at most one 2-way conflict).
 *
 * Blocks walk the tiles with a grid-stride loop over a 1-D grid sized from
 * the SM count, so matrices of any shape fit (no 65535 limit on grid y) and
 * all indices are size_t. A pure data move: f16 and bf16 travel as unsigned
 * short, f32 and f64 as themselves (loads and stores never change bits). */
#include "cuda_internal.h"
#include "kernel_common.cuh"

namespace accel_cuda
{
namespace
{

constexpr unsigned kTile = 32;
constexpr unsigned kTileRows = 8; /* threads per tile column: 32 x 8 = 256 */
static_assert(kTile * kTileRows == kThreads, "max_blocks is sized for kThreads per block");

template <typename T>
__global__ void __launch_bounds__(kTile *kTileRows)
    transpose_kernel(const T *__restrict__ x, size_t ldx, T *__restrict__ out, size_t ldo,
                     size_t rows, size_t cols, size_t tiles_c, size_t tiles)
{
    __shared__ T tile[kTile][kTile + 1];
    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    for (size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
        const size_t r0 = t / tiles_c * kTile, c0 = t % tiles_c * kTile;
        /* Rows r0 + ty + k of x, column c0 + tx: all loads issued first. */
        const size_t c = c0 + tx;
        if (c < cols) {
#pragma unroll
            for (unsigned k = 0; k < kTile; k += kTileRows)
                if (r0 + ty + k < rows)
                    tile[ty + k][tx] = x[(r0 + ty + k) * ldx + c];
        }
        __syncthreads();
        /* Rows c0 + ty + k of out (columns of x), column r0 + tx. */
        const size_t r = r0 + tx;
        if (r < rows) {
#pragma unroll
            for (unsigned k = 0; k < kTile; k += kTileRows)
                if (c0 + ty + k < cols)
                    out[(c0 + ty + k) * ldo + r] = tile[tx][ty + k];
        }
        /* The next tile overwrites this one. */
        __syncthreads();
    }
}

template <typename T>
cudaError_t launch(cudaStream_t stream, uint32_t max_blocks, const void *x, size_t ldx, void *out,
                   size_t ldo, size_t rows, size_t cols)
{
    const size_t tiles_c = (cols + kTile - 1) / kTile;
    const size_t tiles = (rows + kTile - 1) / kTile * tiles_c;
    const unsigned grid = tiles < max_blocks ? (unsigned)tiles : (max_blocks ? max_blocks : 1u);
    transpose_kernel<T><<<grid, dim3(kTile, kTileRows), 0, stream>>>(
        static_cast<const T *>(x), ldx, static_cast<T *>(out), ldo, rows, cols, tiles_c, tiles);
    return cudaGetLastError();
}

} // namespace
} // namespace accel_cuda

using namespace accel_cuda;

extern "C" cudaError_t accel_cuda__launch_transpose(cudaStream_t stream, uint32_t max_blocks,
                                                    uint32_t dtype, const void *x, size_t ldx,
                                                    void *out, size_t ldo, size_t rows, size_t cols)
{
    if (rows == 0 || cols == 0)
        return cudaSuccess;
    switch (dtype) {
    case ACCEL_F32:
        return launch<float>(stream, max_blocks, x, ldx, out, ldo, rows, cols);
    case ACCEL_F64:
        return launch<double>(stream, max_blocks, x, ldx, out, ldo, rows, cols);
    case ACCEL_F16:
    case ACCEL_BF16:
        return launch<unsigned short>(stream, max_blocks, x, ldx, out, ldo, rows, cols);
    default:
        return cudaErrorNotSupported;
    }
}
