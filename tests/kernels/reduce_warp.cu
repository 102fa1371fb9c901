/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
// Warp-shuffle reduction: each warp sums its values with __shfl_down_sync,
// lane 0 of every warp stores the warp's sum in shared memory, and the
// first warp reduces those (the "Faster Parallel Reductions on Kepler" way).
__inline__ __device__ float warpReduceSum(float val)
{
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}

__inline__ __device__ float blockReduceSum(float val)
{
    static __shared__ float shared[32];
    int lane = threadIdx.x % warpSize;
    int wid = threadIdx.x / warpSize;
    val = warpReduceSum(val);
    if (lane == 0)
        shared[wid] = val;
    __syncthreads();
    val = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : 0;
    if (wid == 0)
        val = warpReduceSum(val);
    return val;
}

__global__ void reduce_warp(const float *in, float *out, int n)
{
    float sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += in[i];
    sum = blockReduceSum(sum);
    if (threadIdx.x == 0)
        out[blockIdx.x] = sum;
}
