/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
// Reverse each block's slice through dynamic shared memory sized at launch
// (extern __shared__, the launch's shared_bytes).
__global__ void dynamic_shared(float *d, int n)
{
    extern __shared__ float s[];
    int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    int tr = blockDim.x - t - 1;
    if (base + t < n)
        s[t] = d[base + t];
    __syncthreads();
    if (base + tr < n && base + t < n)
        d[base + t] = s[tr];
}
