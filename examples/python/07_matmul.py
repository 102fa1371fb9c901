# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Tutorial section 7: the product of two N x N single-precision random
matrices with cp.dot (10000 x 10000 on a GPU), timed, in TFLOP/s, with
sampled rows checked against the CPU within accel's GEMM bound."""
import time

import numpy as np

import accel as cp
from _common import check, setup

args, dev = setup(__doc__, n=(0, 256), rows=(8, 4))
n = args.n or (10000 if dev.kind == "gpu" else 1024)
with dev:
    rs = cp.random.RandomState(7)
    a = rs.rand(n, n, dtype=np.float32)
    b = rs.rand(n, n, dtype=np.float32)
    cp.dot(a, b).get()                  # warm-up
    start, end = cp.Event(), cp.Event()
    start.record()
    c = cp.dot(a, b)
    end.record()
    end.synchronize()
ms = cp.get_elapsed_time(start, end)
print(f"{n} x {n} f32 matmul: {ms:.2f} ms, {2 * n ** 3 / ms / 1e9:.3f} TFLOP/s")
print(c[:3, :3])
ah, bh = a.get().astype(np.float64), b.get().astype(np.float64)
rows = np.linspace(0, n - 1, args.rows).astype(int)
got = c.get()[rows].astype(np.float64)
exact = ah[rows] @ bh
bound = 2 * (n + 2) * np.finfo(np.float32).eps * (np.abs(ah[rows]) @ np.abs(bh))
check(bool(np.all(np.abs(got - exact) <= bound)),
      f"{len(rows)} sampled rows within 2*(k+2)*eps*(|A||B|)ij")
