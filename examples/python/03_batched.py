# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Tutorial section 3 (data parallelism): vectorized operations, careful
memory use, and a data set larger than the device may hold, processed in
batches: the sum and the sum of squares of N host floats, BATCH at a time,
each batch copied in, reduced on the device and its buffers reused."""
import math

import numpy as np

import accel as cp
from _common import check, setup

args, dev = setup(__doc__, n=(100_000_000, 2_000_000), batch=(16_000_000, 250_000))
host = np.random.default_rng(3).random(args.n, dtype=np.float32)
total, squares = 0.0, 0.0
with dev:
    for start in range(0, args.n, args.batch):
        chunk = cp.asarray(host[start:start + args.batch])
        total += float(cp.sum(chunk))          # accumulated in double on the host
        squares += float(cp.dot(chunk, chunk))
        chunk.release()                        # give the memory back before the next batch
print(f"{args.n} floats in batches of {args.batch}: sum {total:.6f}, sum of squares "
      f"{squares:.6f}")
exact = math.fsum(host.astype(np.float64))
bound = 4 * args.n * np.finfo(np.float32).eps / 2 * float(np.abs(host).sum(dtype=np.float64))
check(abs(total - exact) <= bound, f"batched sum within 4*n*u*sum|x| of the exact sum "
      f"(error {abs(total - exact):.3g}, bound {bound:.3g})")
