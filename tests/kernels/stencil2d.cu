/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
// 5-point Laplacian on a 2-D grid through a shared tile with a halo of one
// cell: each thread loads its cell, edge threads the halo, then reads its
// four neighbours from shared memory. Cells outside the grid count as 0.
#define BX 16
#define BY 16

__global__ void stencil2d(const float *in, float *out, int nx, int ny)
{
    __shared__ float tile[BY + 2][BX + 2];
    int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
    int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
    tile[ty][tx] = (x < nx && y < ny) ? in[y * nx + x] : 0.0f;
    if (threadIdx.x == 0)
        tile[ty][0] = (x > 0 && x - 1 < nx && y < ny) ? in[y * nx + x - 1] : 0.0f;
    if (threadIdx.x == BX - 1)
        tile[ty][BX + 1] = (x + 1 < nx && y < ny) ? in[y * nx + x + 1] : 0.0f;
    if (threadIdx.y == 0)
        tile[0][tx] = (y > 0 && y - 1 < ny && x < nx) ? in[(y - 1) * nx + x] : 0.0f;
    if (threadIdx.y == BY - 1)
        tile[BY + 1][tx] = (y + 1 < ny && x < nx) ? in[(y + 1) * nx + x] : 0.0f;
    __syncthreads();
    if (x < nx && y < ny)
        out[y * nx + x] = tile[ty][tx - 1] + tile[ty][tx + 1] + tile[ty - 1][tx] +
                          tile[ty + 1][tx] - 4.0f * tile[ty][tx];
}
