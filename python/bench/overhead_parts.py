#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Where the Python time of one small op goes, per layer, on one device.

    python/bench/overhead_parts.py [--device NAME] [--n 1024] [--iters 20000] [--runs 7]
                                   [--profile]

Host time per op (an N-element float32 add into an existing array, in a loop
of ITERS, then one synchronize), the median of RUNS runs with the spread
(min..max), for:

  python-call  a Python function call doing a few attribute reads (no C):
               how fast this host runs the interpreter;
  ctypes-noop  accel_status_name(0) through ctypes: the price of one ctypes
               call (argument conversion, GIL release and re-take);
  ctypes-add   accel_binary through ctypes with prepared slices and
               argtypes: the C op plus one ctypes call;
  ctypes-raw   the same without argtypes (what accel.add calls);
  accel.add    accel.add(x, y, out=z): the whole Python path;
  raw-2out     ctypes-raw writing two outputs in turn (as x + y's results
               alternate between two pool blocks);
  add-2out     accel.add into two outputs in turn;
  x + y        a new array from the memory pool each time.
raw-2out against ctypes-raw tells whether the C call costs more when its
output alternates; x + y against add-2out is then the pool's own cost.

Then C's own loop (python/bench/small_op.c, as overhead.py builds it) and the
differences: accel.add - C is the Python overhead; ctypes-raw - C is what
ctypes alone costs (with the C op's own cost when called between Python
code rather than in a tight C loop); accel.add - ctypes-raw is this
package's own Python.
Run it with --device cpu on the GPU machine too: a gap that is the same on
the CPU device of that host comes from the host, not from the device.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
import accel  # noqa: E402
from accel import _lib as L  # noqa: E402
import overhead  # noqa: E402


class _Obj:
    __slots__ = ("a", "b", "c")

    def __init__(self) -> None:
        self.a, self.b, self.c = 1, 2, 3


def _py_call(o: _Obj) -> int:
    return o.a + o.b + o.c


def timed(fn, iters: int, runs: int, sync) -> list:
    iters -= iters % 2
    out = []
    for rep in range(runs + 1):  # a warm-up, then RUNS runs
        sync()
        t0 = time.perf_counter()
        fn(iters)
        t1 = time.perf_counter()
        sync()
        if rep:
            out.append((t1 - t0) / iters * 1e6)
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--device", default=None)
    p.add_argument("--n", type=int, default=1024)
    p.add_argument("--iters", type=int, default=20000)
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--profile", action="store_true",
                   help="also print cProfile's top functions of the accel.add and x + y loops")
    args = p.parse_args()
    dev = accel.get_device(args.device)
    x = accel.ones(args.n, dtype=np.float32, device=dev)
    y = accel.full(args.n, 2.0, dtype=np.float32, device=dev)
    z = accel.empty(args.n, dtype=np.float32, device=dev)
    z2 = accel.empty(args.n, dtype=np.float32, device=dev)
    s = accel.get_current_stream(dev)
    qh = s._h()
    o = _Obj()
    binary, binary_raw, status_name = L.binary, L.binary_raw, L.status_name
    cq = s._cq
    sx, sy, sz, sz2 = x._slice, y._slice, z._slice, z2._slice
    add = accel.add

    def py_call(k: int) -> None:
        for _ in range(k):
            _py_call(o)

    def noop(k: int) -> None:
        for _ in range(k):
            status_name(0)

    def raw(k: int) -> None:
        for _ in range(k):
            binary(qh, 10, 1, sx, sy, sz)

    def raw_noargtypes(k: int) -> None:
        for _ in range(k):
            binary_raw(cq, 10, 1, sx, sy, sz)

    def raw_two(k: int) -> None:
        for _ in range(k // 2):
            binary_raw(cq, 10, 1, sx, sy, sz)
            binary_raw(cq, 10, 1, sx, sy, sz2)

    def full_two(k: int) -> None:
        for _ in range(k // 2):
            add(x, y, out=z)
            add(x, y, out=z2)

    def full(k: int) -> None:
        for _ in range(k):
            add(x, y, out=z)

    def alloc(k: int) -> None:
        for _ in range(k):
            x + y

    rows = [("python-call", py_call), ("ctypes-noop", noop), ("ctypes-add", raw),
            ("ctypes-raw", raw_noargtypes), ("accel.add", full), ("raw-2out", raw_two),
            ("add-2out", full_two), ("x + y", alloc)]
    res = {name: timed(fn, args.iters, args.runs, s.synchronize) for name, fn in rows}
    c_runs = []
    exe = overhead.build_c_side()
    for _ in range(3):
        c_runs.append(overhead.run_c(exe, dev.name, args.n, args.iters, 1 << 20, False)
                      ["enqueue_us"])
    res["C accel_add"] = c_runs
    print(f"device {dev.name} ({dev.description}); {args.n} f32, {args.iters} ops a run, "
          f"median of {args.runs} runs (min..max), host us per op")
    med = {}
    for name, v in res.items():
        med[name] = statistics.median(v)
        print(f"  {name:<12} {med[name]:8.3f}   ({min(v):.3f}..{max(v):.3f})")
    c = med["C accel_add"]
    print(f"  Python overhead (accel.add - C)       {med['accel.add'] - c:8.3f} us "
          f"(target <= 2)")
    print(f"  of which ctypes (ctypes-raw - C)      {med['ctypes-raw'] - c:8.3f} us")
    print(f"  of which accel's Python (add - raw)   {med['accel.add'] - med['ctypes-raw']:8.3f} us")
    if args.profile:
        import cProfile
        import pstats
        prof = cProfile.Profile()
        prof.enable()
        full(args.iters)
        alloc(args.iters)
        s.synchronize()
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(12)
    return 0


if __name__ == "__main__":
    sys.exit(main())
