# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Tutorial section 4 (Numba): a kernel where each thread adds one element,
256 threads per block and enough blocks to cover the array. The tutorial's
program with one change, its import: `from accel import cuda` for `from
numba import cuda`. @cuda.jit translates the Python function to CUDA C at
its first launch, compiled for the device that runs it (NVRTC on a GPU, the
CPU twin on the CPU). The result is checked against NumPy and against the
same kernel on the CPU device."""
import numpy as np

import accel
from _common import check, setup

# ---- the tutorial's program (section 4); only this import differs ----
from accel import cuda  # was: from numba import cuda


@cuda.jit
def vector_add(a, b, c):
    i = cuda.grid(1)
    if i < a.size:
        c[i] = a[i] + b[i]


def tutorial(n):
    a = np.ones(n, dtype=np.float32)
    b = np.ones(n, dtype=np.float32)
    c = np.zeros(n, dtype=np.float32)

    d_a = cuda.to_device(a)
    d_b = cuda.to_device(b)
    d_c = cuda.to_device(c)

    threads_per_block = 256
    blocks_per_grid = (n + threads_per_block - 1) // threads_per_block
    vector_add[blocks_per_grid, threads_per_block](d_a, d_b, d_c)

    c = d_c.copy_to_host()
    print(c)
    return c
# ---- end of the tutorial's program ----


args, dev = setup(__doc__, n=(1_000_000, 100_000))
print(f"n = {args.n}: {(args.n + 255) // 256} blocks of 256 threads")
with accel.Device(dev):
    out = tutorial(args.n)
check(np.array_equal(out, np.ones(args.n, np.float32) * 2), f"vector_add on {dev.name} == NumPy")

# The same kernel on other data, against NumPy and against the CPU device.
rng = np.random.default_rng(4)
x = rng.standard_normal(args.n).astype(np.float32)
y = rng.standard_normal(args.n).astype(np.float32)


def run(device):
    with accel.Device(device):
        d_c = cuda.device_array_like(x)
        vector_add[(args.n + 255) // 256, 256](cuda.to_device(x), cuda.to_device(y), d_c)
        return d_c.copy_to_host()


got = run(dev)
check(np.array_equal(got, x + y), f"vector_add of random data on {dev.name} == NumPy (exact)")
check(np.array_equal(got, run("cpu")), f"vector_add on {dev.name} == the same kernel on cpu")
