/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
// 256-bin histogram: a private histogram per block in shared memory with
// atomicAdd, merged into the global one with atomicAdd.
__global__ void histogram(const unsigned char *data, int n, unsigned int *hist)
{
    __shared__ unsigned int local[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        atomicAdd(&hist[b], local[b]);
}
