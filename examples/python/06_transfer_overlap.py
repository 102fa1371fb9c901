# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Tutorial section 6 (data transfer): fewer, larger transfers, and
asynchronous copies on streams overlapping with compute. N floats x and y:
copy in, add, copy out; first on the default stream, then in CHUNKS pieces
over STREAMS streams, where each chunk's copy in (accel.asarray inside
``with stream:``, asynchronous through page-locked staging), add and copy
out (get(stream=s)) run on its own stream while the other streams' chunks
copy or compute. Each way runs REPS times, alternating; the medians are
printed, and the check fails (exit 1) when the overlapped run is not faster.
On the CPU device copies and compute share the same cores: nothing overlaps,
so there the speed check is not made (the results still are)."""
import statistics
import time

import numpy as np

import accel as cp
from _common import check, setup

args, dev = setup(__doc__, n=(10_000_000, 1_000_000), chunks=(16, 8), streams=(4, 4),
                  reps=(5, 3))
rng = np.random.default_rng(6)
x = rng.random(args.n, dtype=np.float32)
y = rng.random(args.n, dtype=np.float32)
want = x + y
serial = np.empty_like(x)
out = np.empty_like(x)
streams = [cp.Stream(dev) for _ in range(args.streams)]
step = (args.n + args.chunks - 1) // args.chunks


def run_serial():
    gx, gy = cp.asarray(x), cp.asarray(y)
    (gx + gy).get(out=serial)


def run_overlapped():
    parts = []
    for i, start in enumerate(range(0, args.n, step)):
        s = streams[i % len(streams)]
        with s:
            px = cp.asarray(x[start:start + step])
            py = cp.asarray(y[start:start + step])
            parts.append((start, s, px + py))
    for start, s, pz in parts:
        pz.get(stream=s, out=out[start:start + pz.size])


times = {"serial": [], "overlapped": []}
with dev:
    run_serial()  # warm-up: device memory, the streams' page-locked staging
    run_overlapped()
    for r in range(args.reps):
        order = [("serial", run_serial), ("overlapped", run_overlapped)]
        for name, fn in (order if r % 2 == 0 else order[::-1]):
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)

t_serial = statistics.median(times["serial"])
t_overlap = statistics.median(times["overlapped"])
print(f"serial:     {t_serial * 1e3:8.2f} ms (median of {args.reps})")
print(f"overlapped: {t_overlap * 1e3:8.2f} ms over {args.streams} streams, {args.chunks} chunks "
      f"(serial / overlapped {t_serial / t_overlap:.2f})")
check(np.array_equal(serial, want) and np.array_equal(out, want), "both results equal x + y")
if dev.backend == "cpu":
    print("check: overlapped faster than serial: not made on the CPU (no copy engine: copies "
          "and compute share the cores)")
else:
    check(t_overlap < t_serial, "overlapped faster than serial")
