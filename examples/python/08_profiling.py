# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Tutorial section 8 (profiling and tuning): the walk-through's work on one
stream with an event between every two ops; prints each op's device time,
GB/s and GFLOP/s. An op far below the device's bandwidth is worth a look
(`accel bench` measures the ceilings; ACCEL_TRACE=trace.json writes a
Perfetto trace of the same run)."""
import numpy as np

import accel as cp
from _common import check, setup

args, dev = setup(__doc__, n=(10_000_000, 200_000), m=(4096, 128))
n, m = args.n, args.m
steps = []
with dev, cp.Stream() as s:
    rs = cp.random.RandomState(8)
    host = np.random.default_rng(8).random(n, dtype=np.float32)
    events = [s.record()]

    def step(name, fn, nbytes, flops=0):
        r = fn()
        events.append(s.record())
        steps.append((name, nbytes, flops))
        return r

    x = step("copy in", lambda: cp.asarray(host), 4 * n)
    y = step("random", lambda: rs.rand(n, dtype=np.float32), 4 * n)
    z = step("add", lambda: x + y, 12 * n, n)
    w = step("multiply", lambda: z * x, 12 * n, n)
    e = step("exp", lambda: cp.exp(y), 8 * n, n)
    t = step("sum", lambda: cp.sum(e), 4 * n, n)
    d = step("dot", lambda: cp.dot(w, x), 8 * n, 2 * n)
    a = step("random (m x m)", lambda: rs.rand(m, m, dtype=np.float32), 4 * m * m)
    g = step("matmul", lambda: a @ a, 12 * m * m, 2 * m ** 3)
    out = step("copy out", lambda: w.get(stream=s), 4 * n)
    events[-1].synchronize()

print(f"{'op':<16}{'ms':>10}{'GB/s':>10}{'GFLOP/s':>10}")
for i, (name, nbytes, flops) in enumerate(steps):
    ms = cp.get_elapsed_time(events[i], events[i + 1])
    sec = max(ms, 1e-6) / 1e3
    print(f"{name:<16}{ms:>10.3f}{nbytes / sec / 1e9:>10.2f}{flops / sec / 1e9:>10.2f}")
want = (host + y.get()) * host
check(np.array_equal(out, want), "copy out equals (x + y) * x from NumPy")
