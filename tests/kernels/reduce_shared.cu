/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
// Block reduction: each block sums blockDim.x elements in shared memory,
// halving the active threads after each __syncthreads (Harris, "Optimizing
// Parallel Reduction in CUDA", kernel 3: sequential addressing).
__global__ void reduce_shared(const float *in, float *out, int n)
{
    __shared__ float sdata[256];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}
