/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
// Bitonic sort of blockDim.x values (a power of two) inside one block
// (Batcher's network; each thread compares and exchanges one pair per step).
__global__ void bitonic(int *values)
{
    extern __shared__ int shared[];
    unsigned int tid = threadIdx.x;
    int *block = values + blockIdx.x * blockDim.x;
    shared[tid] = block[tid];
    __syncthreads();
    for (unsigned int k = 2; k <= blockDim.x; k *= 2) {
        for (unsigned int j = k / 2; j > 0; j /= 2) {
            unsigned int ixj = tid ^ j;
            if (ixj > tid) {
                bool up = (tid & k) == 0;
                int a = shared[tid], b = shared[ixj];
                if ((a > b) == up) {
                    shared[tid] = b;
                    shared[ixj] = a;
                }
            }
            __syncthreads();
        }
    }
    block[tid] = shared[tid];
}
