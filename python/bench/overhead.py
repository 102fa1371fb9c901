#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""The Python package's costs against the same work from C, in one process.

    python/bench/overhead.py [--device NAME] [--n 1024] [--iters 20000] [--rounds 7]
                             [--pinned-bytes 1073741824] [--pageable-bytes 268435456]
                             [--no-transfers]
    python/bench/overhead.py --cpu-vs-numpy [--big-n 16777216] [--matmul-n 1024]

The C side is python/bench/small_op.c, compiled here (cc) into a shared
library and called through ctypes once per loop, on the same runtime, queue
and buffers as the Python side. Every variant runs once per round, the
variants in a rotated order each round, ROUNDS rounds after a warm-up; each
line is the median over the rounds with the spread (min..max).

1. Small op: N float32 elements added ITERS times in a loop, then one
   synchronize; host microseconds per op of the loop (enqueue) and of the
   loop with the synchronize (end to end), for
     C accel_add        the C loop (small_op.c);
     python-call        a Python call with three attribute reads (no C):
                        how fast this host runs the interpreter;
     ctypes-noop        accel_version() through ctypes: one bare ctypes call;
     ctypes-binary      accel_binary through ctypes with prepared slices: the
                        C op plus the call accel.add makes without _accel_fast;
     fast-binary        the same through the _accel_fast extension (where it
                        was built): the call accel.add makes with it;
     accel.add(out=z)   the package's whole path into an existing array;
     z = x + y          a new array each time (from the memory pool).
   Targets: accel.add - C <= 2 us (the Python overhead per small op), and
   on the H200 z = x + y end to end <= 6 us per op (CuPy: 9.2 us there).
2. Transfers: accel.asarray(h) and Array.get(out=h2) of PINNED_BYTES from
   page-locked host memory (accel.empty_pinned) against one
   accel_queue_write_blocking / read_blocking of the same bytes from C
   (target >= 0.95 of the C rate), and of PAGEABLE_BYTES from NumPy memory
   (the ratio, no target).
3. With --cpu-vs-numpy (on the CPU device): the same work through accel and
   NumPy in this one process, in interleaved rounds, accel / NumPy time
   (medians, spread of the per-round ratio):
     exp, log, tanh, sin, cos f32 of --big-n elements (2^24), into out=;
     add f32 (out=), sum f32 and matmul f32 (--matmul-n, 1024);
     per call at --n elements (1024): z = x + y and add(x, y, out=z), a
     loop of --iters/4 calls and then what makes the results usable (accel:
     the stream's synchronize; NumPy computes in the call), per call;
     the same for an int32 add(out=) and a float32 sum (no target).
   Targets (issue 32): transcendentals, add, sum, matmul <= 1.0; the small
   op <= 2.0. Inputs: exp, tanh, sin, cos uniform in [-10, 10), log in
   [0.01, 100), add/sum/matmul in [0, 1).
   Both OpenBLAS thread pools (NumPy's and accel's CPU backend's) spin
   2^20 cycles before they sleep: where OPENBLAS_THREAD_TIMEOUT is unset
   this script sets it to 20 before NumPy loads, the value accel's CPU
   backend gives its own (docs/config.md); with NumPy's default 2^28 its
   pool kept spinning about 0.1 s after each NumPy matmul, on the cores
   accel's next op needed.
"""
from __future__ import annotations

import argparse
import ctypes
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional

if "OPENBLAS_THREAD_TIMEOUT" not in os.environ and "GOTO_THREAD_TIMEOUT" not in os.environ:
    os.environ["OPENBLAS_THREAD_TIMEOUT"] = "20"  # before NumPy's OpenBLAS loads (docstring)
import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import accel  # noqa: E402
from accel import _lib as L  # noqa: E402


def build_c_side() -> ctypes.CDLL:
    """small_op.c compiled against this package's libaccel and loaded."""
    lib = Path(accel.LIBRARY_PATH).resolve()
    inc = HERE.parents[1] / "include"
    out = Path(tempfile.mkdtemp(prefix="accel_bench_")) / "libsmall_op.so"
    cc = os.environ.get("CC", "cc")
    subprocess.run([cc, "-O2", "-std=c11", "-shared", "-fPIC", f"-I{inc}",
                    str(HERE / "small_op.c"), "-o", str(out), f"-L{lib.parent}", "-laccel",
                    f"-Wl,-rpath,{lib.parent}"], check=True)
    c = ctypes.CDLL(str(out))
    dp = ctypes.POINTER(ctypes.c_double)
    c.small_op_add_loop.restype = ctypes.c_int
    c.small_op_add_loop.argtypes = [ctypes.c_void_p, ctypes.c_int, L.Slice, L.Slice, L.Slice,
                                    ctypes.c_size_t, dp, dp]
    for f in (c.small_op_write, c.small_op_read):
        f.restype = ctypes.c_int
        f.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, dp]
    return c


def spread(v: List[float]) -> str:
    return f"{statistics.median(v):8.3f}  ({min(v):.3f}..{max(v):.3f})"


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


class _Obj:
    __slots__ = ("a", "b", "c")

    def __init__(self) -> None:
        self.a, self.b, self.c = 1, 2, 3


def _py_call(o: _Obj) -> int:
    return o.a + o.b + o.c


def small_ops(c: ctypes.CDLL, dev: accel.Device, n: int, iters: int,
              rounds: int) -> Dict[str, Dict[str, List[float]]]:
    x = accel.ones(n, dtype=np.float32, device=dev)
    y = accel.full(n, 2.0, dtype=np.float32, device=dev)
    z = accel.empty(n, dtype=np.float32, device=dev)
    s = accel.get_current_stream(dev)
    sync = s.synchronize
    add, o = accel.add, _Obj()
    cq, sx, sy, sz = s._cq, x._slice, y._slice, z._slice
    binary = L.binary_raw
    noop = L.lib["accel_version"]  # no argtypes, int result: the bare cost of a call
    enq, tot = ctypes.c_double(), ctypes.c_double()

    def c_loop() -> tuple:
        L.check(c.small_op_add_loop(s._h(), 1, sx, sy, sz, iters, ctypes.byref(enq),
                                    ctypes.byref(tot)))
        return enq.value, tot.value

    def timed(body: Callable[[], None]) -> Callable[[], tuple]:
        def run() -> tuple:
            sync()
            t0 = time.perf_counter()
            body()
            t1 = time.perf_counter()
            sync()
            return t1 - t0, time.perf_counter() - t0
        return run

    def py_call() -> None:
        for _ in range(iters):
            _py_call(o)

    def ctypes_noop() -> None:
        for _ in range(iters):
            noop()

    def ctypes_binary() -> None:
        for _ in range(iters):
            binary(cq, 10, 1, sx, sy, sz)

    fast = L.fast.binary if L.fast is not None else None
    qh, hx, hy, hz = s._h(), x._block.handle, y._block.handle, z._block.handle

    def fast_binary() -> None:
        for _ in range(iters):
            fast(qh, 10, 1, n, hx, 0, hy, 0, hz, 0)

    def add_out() -> None:
        for _ in range(iters):
            add(x, y, out=z)

    def x_plus_y() -> None:
        for _ in range(iters):
            w = x + y  # noqa: F841 (the previous w goes back to the pool here)

    variants = [("C accel_add", c_loop), ("python-call", timed(py_call)),
                ("ctypes-noop", timed(ctypes_noop)), ("ctypes-binary", timed(ctypes_binary)),
                ("accel.add(out=z)", timed(add_out)), ("z = x + y", timed(x_plus_y))]
    if fast is not None:
        variants.insert(4, ("fast-binary", timed(fast_binary)))
    res: Dict[str, Dict[str, List[float]]] = {k: {"enqueue": [], "total": []} for k, _ in variants}
    for r in range(rounds + 1):  # a warm-up round, then ROUNDS
        k = r % len(variants)
        for name, fn in variants[k:] + variants[:k]:
            e, t = fn()
            if r:
                res[name]["enqueue"].append(e / iters * 1e6)
                res[name]["total"].append(t / iters * 1e6)
    w = x + y
    got = w.get()
    if not (np.all(got == 3.0) and np.all(z.get() == 3.0)):
        raise SystemExit("overhead.py: wrong sums (the adds did not compute 1 + 2)")
    return res


def transfers(c: ctypes.CDLL, dev: accel.Device, nbytes: int, pinned: bool,
              rounds: int) -> Dict[str, List[float]]:
    """GB/s per round of C write/read and Python asarray/get of nbytes."""
    n = nbytes // 4
    nbytes = n * 4
    if pinned:
        h = accel.empty_pinned(n, np.float32, device=dev)
        back = accel.empty_pinned(n, np.float32, device=dev)
    else:
        h = np.empty(n, np.float32)
        back = np.empty(n, np.float32)
    h[:] = 1.5
    h[-1] = 7.0
    back[:] = 0.0
    s = accel.get_current_stream(dev)
    cbuf = accel.empty(n, np.float32, device=dev)
    handle = cbuf._block.handle
    sec = ctypes.c_double()
    a = accel.asarray(h, device=dev)  # the pool block asarray reuses below
    a.release()
    res: Dict[str, List[float]] = {k: [] for k in ("C write", "asarray", "C read", "get")}

    def c_write() -> float:
        L.check(c.small_op_write(s._h(), handle, h.ctypes.data, nbytes, ctypes.byref(sec)))
        return sec.value

    def c_read() -> float:
        L.check(c.small_op_read(s._h(), handle, back.ctypes.data, nbytes, ctypes.byref(sec)))
        return sec.value

    arr: List[accel.Array] = []

    def py_write() -> float:
        t0 = time.perf_counter()
        arr.append(accel.asarray(h, device=dev))
        return time.perf_counter() - t0

    def py_read() -> float:
        t0 = time.perf_counter()
        arr[-1].get(out=back)
        return time.perf_counter() - t0

    variants = [("C write", c_write), ("asarray", py_write), ("C read", c_read),
                ("get", py_read)]
    for r in range(rounds + 1):
        s.synchronize()
        # A write before its read; C first in even rounds, Python first in odd ones.
        order = variants if r % 2 == 0 else [variants[i] for i in (1, 0, 3, 2)]
        for name, fn in order:
            t = fn()
            if r:
                res[name].append(nbytes / t / 1e9)
        if back[-1] != 7.0 or back[0] != 1.5:
            raise SystemExit("overhead.py: the data read back differ from those written")
        back[-1] = 0.0
        while arr:
            arr.pop().release()
    cbuf.release()
    return res


def _rounds(variants: Dict[str, Callable[[], float]], rounds: int) -> Dict[str, List[float]]:
    """Seconds of each variant per round, a warm-up round first, the order
    rotated each round."""
    names = list(variants)
    res: Dict[str, List[float]] = {k: [] for k in names}
    for r in range(rounds + 1):
        k = r % len(names)
        for name in names[k:] + names[:k]:
            t = variants[name]()
            if r:
                res[name].append(t)
    return res


def _ratio_line(what: str, acc: List[float], ref: List[float], unit: float, uname: str,
                target: Optional[float]) -> None:
    ratios = [a / b for a, b in zip(acc, ref)]
    r = statistics.median(acc) / statistics.median(ref)
    goal = f"target <= {target:.1f}: {verdict(r <= target)}" if target else "(no target)"
    print(f"   {what:22s} {statistics.median(acc) * unit:9.3f} {statistics.median(ref) * unit:9.3f}"
          f" {uname}  {r:6.3f}  ({min(ratios):.3f}..{max(ratios):.3f})  {goal}")


def cpu_vs_numpy(dev: accel.Device, big_n: int, mm_n: int, n: int, iters: int,
                 rounds: int) -> bool:
    """Section 3 (see the module docstring); True when every target is met."""
    rng = np.random.default_rng(32)
    wide = rng.uniform(-10, 10, big_n).astype(np.float32)
    pos = rng.uniform(0.01, 100, big_n).astype(np.float32)
    unit = rng.random(big_n, dtype=np.float32)
    hout = np.empty(big_n, np.float32)
    s = accel.get_current_stream(dev)
    sync = s.synchronize
    dw, dp, du = (accel.asarray(v, device=dev) for v in (wide, pos, unit))
    dout = accel.empty(big_n, dtype=np.float32, device=dev)

    def timed(fn: Callable[[], object], synced: bool) -> Callable[[], float]:
        def run() -> float:
            t0 = time.perf_counter()
            fn()
            if synced:
                sync()
            return time.perf_counter() - t0
        return run

    ok = True
    print(f"\n3. CPU against NumPy {np.__version__}, one process; accel / NumPy, median of "
          f"{rounds} interleaved rounds (spread of the per-round ratio)")
    print(f"   {'':22s} {'accel':>9s} {'NumPy':>9s}")
    big = [(f, dp if f == "log" else dw, pos if f == "log" else wide)
           for f in ("exp", "log", "tanh", "sin", "cos")]
    for f, dx, hx in big:
        af, nf = getattr(accel, f), getattr(np, f)
        res = _rounds({"a": timed(lambda: af(dx, out=dout), True),
                       "n": timed(lambda: nf(hx, out=hout), False)}, rounds)
        got = dout.get()
        nf(hx, out=hout)
        if not np.allclose(got, hout, rtol=4e-7, atol=0):
            raise SystemExit(f"overhead.py: accel.{f} differs from numpy.{f} beyond 3 ulp")
        _ratio_line(f"{f} f32 {big_n}", res["a"], res["n"], 1e3, "ms", 1.0)
        ok = ok and statistics.median(res["a"]) <= statistics.median(res["n"])
    a2 = accel.asarray(unit[::-1].copy(), device=dev)
    h2 = unit[::-1].copy()
    ma = rng.random((mm_n, mm_n), dtype=np.float32)
    mb = rng.random((mm_n, mm_n), dtype=np.float32)
    dma, dmb = accel.asarray(ma, device=dev), accel.asarray(mb, device=dev)
    dmc = accel.empty((mm_n, mm_n), dtype=np.float32, device=dev)
    hmc = np.empty((mm_n, mm_n), np.float32)
    for what, av, nv in (
            (f"add f32 {big_n}", lambda: accel.add(du, a2, out=dout),
             lambda: np.add(unit, h2, out=hout)),
            (f"sum f32 {big_n}", lambda: accel.sum(du).get(), lambda: np.sum(unit)),
            (f"matmul f32 {mm_n}", lambda: accel.matmul(dma, dmb, out=dmc),
             lambda: np.matmul(ma, mb, out=hmc))):
        res = _rounds({"a": timed(av, True), "n": timed(nv, False)}, rounds)
        _ratio_line(what, res["a"], res["n"], 1e3, "ms", 1.0)
        ok = ok and statistics.median(res["a"]) <= statistics.median(res["n"])
    x = accel.ones(n, dtype=np.float32, device=dev)
    y = accel.full(n, 2.0, dtype=np.float32, device=dev)
    z = accel.empty(n, dtype=np.float32, device=dev)
    hx, hy, hz = np.ones(n, np.float32), np.full(n, 2.0, np.float32), np.empty(n, np.float32)
    add, nadd = accel.add, np.add

    def loop(body: Callable[[], object], synced: bool) -> Callable[[], float]:
        def run() -> float:
            t0 = time.perf_counter()
            for _ in range(iters):
                body()
            if synced:
                sync()
            return (time.perf_counter() - t0) / iters
        return run

    for what, av, nv in ((f"z = x + y, n={n}", lambda: x + y, lambda: hx + hy),
                         (f"add(out=), n={n}", lambda: add(x, y, out=z),
                          lambda: nadd(hx, hy, out=hz))):
        res = _rounds({"a": loop(av, True), "n": loop(nv, False)}, rounds)
        _ratio_line(what, res["a"], res["n"], 1e6, "us", 2.0)
        ok = ok and statistics.median(res["a"]) <= 2 * statistics.median(res["n"])
    if not np.all(z.get() == 3.0):
        raise SystemExit("overhead.py: wrong sums (the adds did not compute 1 + 2)")
    # The array layer's small ops (no target): an int32 add (a generated
    # kernel) and a whole sum, per call
    xi = accel.arange(n, dtype=np.int32, device=dev)
    hi = np.arange(n, dtype=np.int32)
    zi, hzi = accel.empty(n, dtype=np.int32, device=dev), np.empty(n, np.int32)
    for what, av, nv in ((f"int32 add(out=), n={n}", lambda: add(xi, xi, out=zi),
                          lambda: nadd(hi, hi, out=hzi)),
                         (f"sum f32, n={n}", lambda: accel.sum(x), lambda: np.sum(hx))):
        res = _rounds({"a": loop(av, True), "n": loop(nv, False)}, rounds)
        _ratio_line(what, res["a"], res["n"], 1e6, "us", None)
    if not np.array_equal(zi.get(), 2 * hi) or float(accel.sum(x)) != n:
        raise SystemExit("overhead.py: wrong int32 sums or float sum")
    return ok


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--device", default=None)
    p.add_argument("--n", type=int, default=1024)
    p.add_argument("--iters", type=int, default=20000)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--pinned-bytes", type=int, default=1 << 30)
    p.add_argument("--pageable-bytes", type=int, default=256 << 20)
    p.add_argument("--no-transfers", action="store_true")
    p.add_argument("--cpu-vs-numpy", action="store_true",
                   help="only section 3: the CPU device against NumPy")
    p.add_argument("--big-n", type=int, default=1 << 24)
    p.add_argument("--matmul-n", type=int, default=1024)
    args = p.parse_args()
    if args.rounds < 1:
        p.error("--rounds must be >= 1")
    dev = accel.get_device(args.device)
    if args.cpu_vs_numpy:
        dev = accel.get_device(args.device or "cpu")
        print(f"device {dev.name} ({dev.description}); libaccel {accel.LIBRARY_PATH}")
        ok = cpu_vs_numpy(dev, args.big_n, args.matmul_n, args.n, args.iters // 4, args.rounds)
        return 0 if ok else 1
    c = build_c_side()
    print(f"device {dev.name} ({dev.description}); libaccel {accel.LIBRARY_PATH}")
    print(f"per-op C call: {'_accel_fast ' + L.FAST_PATH if L.fast else 'ctypes'}")
    print(f"python {sys.version.split()[0]}; load average "
          f"{' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    res = small_ops(c, dev, args.n, args.iters, args.rounds)
    med = {k: statistics.median(v["enqueue"]) for k, v in res.items()}
    print(f"\n1. small op: {args.n} f32 add x {args.iters} in a loop; us per op, median of "
          f"{args.rounds} interleaved rounds (min..max)")
    print(f"   {'':18s} {'enqueue':>8s}  {'':16s}  {'end to end':>10s}")
    for name, v in res.items():
        print(f"   {name:18s} {spread(v['enqueue'])}  {spread(v['total'])}")
    cc = med["C accel_add"]
    over = med["accel.add(out=z)"] - cc
    print(f"   Python overhead, accel.add - C:     {over:7.3f} us   (target <= 2 us: "
          f"{verdict(over <= 2.0)})")
    ffi = "fast-binary" if "fast-binary" in med else "ctypes-binary"
    print(f"     of which the call ({ffi} - C):          {med[ffi] - cc:7.3f} us")
    print(f"     of which the package (accel.add - {ffi}): "
          f"{med['accel.add(out=z)'] - med[ffi]:7.3f} us")
    print(f"   z = x + y over C:                   {med['z = x + y'] - cc:7.3f} us   (of which "
          f"the new array: {med['z = x + y'] - med['accel.add(out=z)']:.3f} us)")
    e2e = statistics.median(res["z = x + y"]["total"])
    if dev.backend == "cuda":
        print(f"   z = x + y end to end:               {e2e:7.3f} us   (H200 target <= 6 us: "
              f"{verdict(e2e <= 6.0)}; CuPy 9.2 us)")
    else:
        print(f"   z = x + y end to end:               {e2e:7.3f} us   (the <= 6 us target is "
              "the H200's)")
    if args.no_transfers:
        return 0
    for kind, nbytes, target in (("pinned", args.pinned_bytes, True),
                                 ("pageable", args.pageable_bytes, False)):
        rounds = max(5, min(args.rounds, 7))
        t = transfers(c, dev, nbytes, kind == "pinned", rounds)
        print(f"\n2. transfers of {nbytes / 2**20:.0f} MiB, {kind} host memory; GB/s, median of "
              f"{rounds} interleaved rounds (min..max)")
        for name, v in t.items():
            print(f"   {name:10s} {spread(v)}")
        for py, cname, what in (("asarray", "C write", "host -> device"),
                                ("get", "C read", "device -> host")):
            r = statistics.median(t[py]) / statistics.median(t[cname])
            tail = f"target >= 0.95: {verdict(r >= 0.95)}" if target else "no target"
            print(f"   {what}: {py} / C = {r:.3f}   ({tail})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
