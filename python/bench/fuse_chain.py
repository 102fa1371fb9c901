# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""accel.fuse against the same function unfused: an 8-op elementwise chain
of two arrays (float32, 2**20 elements by default) on one device, timed in
--reps interleaved rounds (unfused, fused, NumPy on the host for scale; the
median and the best round of each), after a warm-up call that records the
graph and builds its kernel. Checks that the two accel results agree within
the chain's rounding.

    python python/bench/fuse_chain.py [--device cpu] [--n 1048576] [--reps 20]
"""
import argparse
import time

import numpy as np

import accel as cp


def chain(x, y):
    t = x * y
    t = t + x
    t = t - y
    t = t * t
    t = t / (y + x)
    t = t - x
    t = t * y
    return t + y


def once(f, *args):
    t0 = time.perf_counter()
    r = f(*args)
    cp.synchronize()
    return time.perf_counter() - t0, r


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", default=None)
    p.add_argument("--n", type=int, default=1 << 20)
    p.add_argument("--reps", type=int, default=20)
    a = p.parse_args()
    rng = np.random.default_rng(1)
    hx = rng.uniform(1, 2, a.n).astype(np.float32)
    hy = rng.uniform(1, 2, a.n).astype(np.float32)
    with cp.get_device(a.device):
        x, y = cp.asarray(hx, dtype=np.float32), cp.asarray(hy, dtype=np.float32)
        fused = cp.fuse(chain)
        fused(x, y)  # records the graph and builds the fused kernel
        cp.synchronize()
        t = {"unfused": [], "fused": [], "numpy": []}
        for _ in range(a.reps):
            dt, r_unf = once(chain, x, y)
            t["unfused"].append(dt)
            dt, r_fus = once(fused, x, y)
            t["fused"].append(dt)
            t["numpy"].append(once(chain, hx, hy)[0])
    np.testing.assert_allclose(r_fus.get(), r_unf.get(), rtol=1e-5, atol=1e-5)
    med = {k: float(np.median(v)) for k, v in t.items()}
    print(f"device {x.device.name}, n = {a.n} float32, 8 ops, {a.reps} rounds: median (best)")
    for k in t:
        print(f"{k:8s} {med[k] * 1e3:9.3f} ms ({min(t[k]) * 1e3:.3f})")
    print(f"unfused / fused (medians): {med['unfused'] / med['fused']:.2f}x; stats {fused.stats}")


if __name__ == "__main__":
    main()
