/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
// Inclusive prefix sum of each block's 256 values (Hillis and Steele): at
// step d every element adds the one d places before it, read before a
// barrier and written after it.
__global__ void scan(const int *in, int *out, int n)
{
    __shared__ int temp[256];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    temp[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (int d = 1; d < blockDim.x; d *= 2) {
        int v = tid >= d ? temp[tid - d] : 0;
        __syncthreads();
        temp[tid] += v;
        __syncthreads();
    }
    if (i < n)
        out[i] = temp[tid];
}
