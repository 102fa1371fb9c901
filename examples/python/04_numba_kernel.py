# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Tutorial section 4 (Numba): a kernel where each thread adds one element,
256 threads per block and enough blocks to cover the array. Numba's
@cuda.jit function is written here as the CUDA C it compiles to, an
accel.RawKernel: compiled at run time for the device that runs it (NVRTC on
a GPU, the CPU twin on the CPU) and launched with the tutorial's grid and
block. The result is checked against NumPy and against the same kernel on
the CPU device."""
import numpy as np

import accel as cp
from _common import check, setup

# @cuda.jit
# def vector_add(a, b, c):
#     i = cuda.grid(1)
#     if i < a.size:
#         c[i] = a[i] + b[i]
vector_add = cp.RawKernel(r"""
__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;  /* cuda.grid(1) */
    if (i < n)
        c[i] = a[i] + b[i];
}
""", "vector_add")

args, dev = setup(__doc__, n=(1_000_000, 100_000))
threads_per_block = 256
blocks_per_grid = (args.n + threads_per_block - 1) // threads_per_block
print(f"n = {args.n}: {blocks_per_grid} blocks of {threads_per_block} threads")
a = np.arange(args.n, dtype=np.float32)
b = np.arange(args.n, dtype=np.float32) * 2


def run(device):
    with cp.Device(device):
        d_a, d_b = cp.asarray(a), cp.asarray(b)
        d_c = cp.empty(args.n, dtype=np.float32)
        vector_add((blocks_per_grid,), (threads_per_block,), (d_a, d_b, d_c, args.n))
        return d_c.get()


out = run(dev)
print(out[:10])
ref = run("cpu")
check(np.array_equal(out, a + b), f"vector_add on {dev.name} == NumPy (exact)")
check(np.array_equal(out, ref), f"vector_add on {dev.name} == the same kernel on cpu")
