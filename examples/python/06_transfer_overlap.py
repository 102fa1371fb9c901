# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Tutorial section 6 (data transfer): fewer, larger transfers, and
asynchronous copies on streams overlapping with compute. 10 million floats:
copy in, add, copy out, synchronize; first on one stream, then in CHUNKS
pieces over STREAMS streams, timed with events."""
import time

import numpy as np

import accel as cp
from _common import check, setup

args, dev = setup(__doc__, n=(10_000_000, 1_000_000), chunks=(16, 8), streams=(4, 4))
rng = np.random.default_rng(6)
x = rng.random(args.n, dtype=np.float32)
y = rng.random(args.n, dtype=np.float32)
want = x + y

with dev:
    t0 = time.perf_counter()
    gx, gy = cp.asarray(x), cp.asarray(y)
    serial = (gx + gy).get()
    t_serial = time.perf_counter() - t0

    streams = [cp.Stream() for _ in range(args.streams)]
    out = np.empty_like(x)
    step = (args.n + args.chunks - 1) // args.chunks
    t0 = time.perf_counter()
    parts = []
    for i, start in enumerate(range(0, args.n, step)):
        s = streams[i % len(streams)]
        with s:
            px = cp.asarray(x[start:start + step])
            py = cp.asarray(y[start:start + step])
            parts.append((start, s, px + py))
    for start, s, pz in parts:
        pz.get(stream=s, out=out[start:start + pz.size])
    for s in streams:
        s.synchronize()
    t_overlap = time.perf_counter() - t0

print(f"serial:     {t_serial * 1e3:8.2f} ms")
print(f"overlapped: {t_overlap * 1e3:8.2f} ms over {args.streams} streams, {args.chunks} chunks "
      f"(ratio {t_serial / t_overlap:.2f})")
check(np.array_equal(serial, want) and np.array_equal(out, want), "both results equal x + y")
