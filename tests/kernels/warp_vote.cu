/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
// Warp votes and barrier counts: per warp the ballot of odd values, whether
// any or all are negative, a butterfly (xor) sum and an up-shuffle; per
// block __syncthreads_count/_and/_or of the odd values.
__global__ void warp_vote(const int *x, unsigned *ballot, int *anyall, int *xsum, int *up,
                          int *counts)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = x[i];
    unsigned b = __ballot_sync(0xffffffffu, v & 1);
    int any = __any_sync(0xffffffffu, v < 0), all = __all_sync(0xffffffffu, v < 0);
    int s = v;
    for (int m = 16; m > 0; m >>= 1)
        s += __shfl_xor_sync(0xffffffffu, s, m);
    up[i] = __shfl_up_sync(0xffffffffu, v, 3);
    xsum[i] = s;
    if ((threadIdx.x & 31) == 0) {
        ballot[i / 32] = b;
        anyall[i / 32] = any * 2 + all;
    }
    int c = __syncthreads_count(v & 1);
    int a = __syncthreads_and(v & 1);
    int o = __syncthreads_or(v & 1);
    if (threadIdx.x == 0) {
        counts[3 * blockIdx.x] = c;
        counts[3 * blockIdx.x + 1] = a;
        counts[3 * blockIdx.x + 2] = o;
    }
}
