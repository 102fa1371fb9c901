# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Tutorial section 4 (Numba): a kernel where each thread adds one element,
256 threads per block and enough blocks to cover the array. In accel the
elementwise add is a built-in op that runs that kernel on the device (one
thread per element on CUDA, vectorized loops on the CPU); the grid is the
backend's business. The result is cross-checked against the CPU device."""
import numpy as np

import accel as cp
from _common import check, setup

args, dev = setup(__doc__, n=(1_000_000, 100_000))
threads_per_block = 256
blocks_per_grid = (args.n + threads_per_block - 1) // threads_per_block
print(f"n = {args.n}: {blocks_per_grid} blocks of {threads_per_block} threads")
a = np.arange(args.n, dtype=np.float32)
b = np.arange(args.n, dtype=np.float32) * 2
with dev:
    c = cp.add(cp.asarray(a), cp.asarray(b))
    out = c.get()
print(out[:10])
ref = cp.add(cp.asarray(a, device="cpu"), cp.asarray(b, device="cpu")).get()
check(np.array_equal(out, ref) and np.array_equal(out, a + b),
      f"{dev.name} == cpu == NumPy (exact)")
