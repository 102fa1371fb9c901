/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
// 3-D grid of 3-D blocks over an nx x ny x nz volume: every cell records
// its flat index computed from both index triples.
__global__ void grid3d(int *out, int nx, int ny, int nz)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < nx && y < ny && z < nz) {
        int block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
        int thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
        out[(z * ny + y) * nx + x] = block * 1000 + thread;
    }
}
