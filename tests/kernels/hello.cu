/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
// printf from a kernel: every thread says who it is.
__global__ void hello(int tag)
{
    printf("block %d thread %d tag %d\n", blockIdx.x, threadIdx.x, tag);
}
