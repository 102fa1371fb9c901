# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""accel.fuse against the same function unfused: an 8-op elementwise chain
of two arrays (float32, 2**20 elements by default) on one device, best of
--reps timed calls each (after a warm-up call that records the graph and
builds its kernel), and NumPy's same chain on the host for scale. Checks
that the two accel results agree within the chain's rounding.

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


def best(f, *args, reps):
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        r = f(*args)
        cp.synchronize()
        times.append(time.perf_counter() - t0)
    return min(times), r


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
        t_unf, r_unf = best(chain, x, y, reps=a.reps)
        t_fus, r_fus = best(fused, x, y, reps=a.reps)
    t_np, _ = best(chain, hx, hy, reps=a.reps)
    np.testing.assert_allclose(r_fus.get(), r_unf.get(), rtol=1e-5, atol=1e-5)
    dev = x.device.name
    print(f"device {dev}, n = {a.n} float32, 8 ops, best of {a.reps}")
    print(f"unfused   {t_unf * 1e3:8.3f} ms")
    print(f"fused     {t_fus * 1e3:8.3f} ms  ({t_unf / t_fus:.2f}x; stats {fused.stats})")
    print(f"numpy     {t_np * 1e3:8.3f} ms  (host)")


if __name__ == "__main__":
    main()
