#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Host time of one user-kernel launch from Python: the tutorial's
vector_add as accel.RawKernel (CUDA C, CuPy's class) and as an
``@accel.cuda.jit`` Python function (Numba's form), on the same arrays; with
CuPy's RawKernel and Numba's @cuda.jit on the same source where they are
installed.

    python/bench/launch.py [--device NAME] [--n 1024] [--iters 20000] [--rounds 7]

Each variant launches ITERS times in a loop, then synchronizes; the host
microseconds per launch of the loop, the variants in a rotated order each
round, ROUNDS rounds after a warm-up (which also compiles), median (min..max).
Target (issue 28): a @cuda.jit launch costs at most 2 us more than a
RawKernel launch."""
import argparse
import statistics
import time

import numpy as np

import accel
from accel import cuda

SRC = r"""
__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
"""


@cuda.jit
def vector_add(a, b, c):
    i = cuda.grid(1)
    if i < a.size:
        c[i] = a[i] + b[i]


def variants(dev, n):
    """name -> (launch function, synchronize, check)."""
    rng = np.random.default_rng(1)
    x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    a, b, c = accel.asarray(x), accel.asarray(y), accel.zeros(n, dtype=np.float32)
    blocks = (n + 255) // 256
    raw = accel.RawKernel(SRC, "vector_add")
    jit = vector_add[blocks, 256]
    sync = dev.synchronize
    out = {"accel RawKernel": (lambda: raw((blocks,), (256,), (a, b, c, np.int32(n))), sync,
                               lambda: c.get()),
           "accel @cuda.jit": (lambda: jit(a, b, c), sync, lambda: c.get())}
    try:
        import cupy as cp
        ca, cb, cc = cp.asarray(x), cp.asarray(y), cp.zeros(n, dtype=cp.float32)
        ck = cp.RawKernel('extern "C" ' + SRC.strip(), "vector_add")
        csync = cp.cuda.Device().synchronize
        out["cupy RawKernel"] = (lambda: ck((blocks,), (256,), (ca, cb, cc, np.int32(n))), csync,
                                 lambda: cc.get())
        try:
            from numba import cuda as ncuda
            nk = ncuda.jit(vector_add.py_func)[blocks, 256]
            out["numba @cuda.jit"] = (lambda: nk(ca, cb, cc), csync, lambda: cc.get())
        except Exception as e:  # Numba missing or unable to run here
            print(f"(numba @cuda.jit not measured: {type(e).__name__}: {e})")
    except Exception as e:
        print(f"(cupy not measured: {type(e).__name__}: {e})")
    return out, x + y


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--device", default=None)
    ap.add_argument("--n", type=int, default=1024)
    ap.add_argument("--iters", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    dev = accel.get_device(args.device)
    with dev:
        vs, want = variants(dev, args.n)
        print(f"device {dev.name} ({dev.description}); {args.n} floats, {args.iters} launches a "
              f"round, {args.rounds} rounds")
        for name, (fn, sync, result) in list(vs.items()):  # warm-up, compile, check
            try:
                fn()
                sync()
            except Exception as e:
                if name.startswith("accel"):
                    raise
                print(f"({name} not measured: {type(e).__name__}: {e})")
                del vs[name]
                continue
            ok = np.array_equal(result(), want)
            print(f"check: {name} == NumPy: {'PASS' if ok else 'FAIL'}")
        names = list(vs)
        times = {k: [] for k in names}
        for r in range(args.rounds):
            for name in names[r % len(names):] + names[:r % len(names)]:
                fn, sync, _ = vs[name]
                sync()
                t0 = time.perf_counter()
                for _ in range(args.iters):
                    fn()
                sync()
                times[name].append((time.perf_counter() - t0) / args.iters * 1e6)
    med = {}
    for name, t in times.items():
        med[name] = statistics.median(t)
        print(f"  {name:18s} {med[name]:7.3f} us  ({min(t):.3f}..{max(t):.3f})")
    d = med["accel @cuda.jit"] - med["accel RawKernel"]
    print(f"  @cuda.jit - RawKernel: {d:.3f} us per launch (target <= 2 us: "
          f"{'PASS' if d <= 2 else 'MISS'})")
    if "cupy RawKernel" in med:
        r = med["accel RawKernel"] / med["cupy RawKernel"]
        print(f"  accel RawKernel / cupy RawKernel: {r:.3f}")
    if "numba @cuda.jit" in med:
        print(f"  accel @cuda.jit / numba @cuda.jit: "
              f"{med['accel @cuda.jit'] / med['numba @cuda.jit']:.3f}")


if __name__ == "__main__":
    main()
