#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Run `accel bench` and the same workloads through CuPy and PyTorch in one
run, on the same kind of data, and print per row the faster peer and accel's
ratio to it.

    bench/peers.py --accel build/bin/accel --device cuda:0 [--quick]
                   [--json out.json] [--accel-json existing.json]

For every row of accel's JSON (op, dtype, n) the peer runs the same work on
the same data kind: uniform random values in [0, 1) at full precision of the
dtype (accel fills with Philox uniforms; the peer with its own uniforms; the
distribution is what GEMM power draw depends on, not the generator). Times
are CUDA-event medians after one warm-up, the same rule accel bench uses.

Rate convention is accel bench's: elementwise and reductions count bytes read
plus written, GEMM counts 2*n^3 FLOPs. A ratio above 1 means accel is faster.

Two comparisons are measured in interleaved rounds in this one process
(--rounds, default 7; medians with the spread), because a ratio of figures
taken seconds apart measures the machine's drift as much as the code (the
small-op ratio moved from 0.40 to 0.68 between two runs that way):

- small-op host time: per round, the host time per 1-element add enqueued in
  a loop of --iters by accel from C (bench/peers_accel.c, compiled here
  against the build's libaccel and called through ctypes), by CuPy's cp.add,
  by torch.add and, where the accel Python package imports, by accel.add; the
  order alternates between rounds. Targets: accel (C) / CuPy <= 0.5,
  accel (C) / PyTorch <= 0.7.
- GEMM f64 (--gemm-n, default 10000): per round, accel_gemm on CuPy's own
  arrays (accel_buffer_wrap, no copy) and the direct routes on the same
  arrays: cp.matmul, cublasDgemm and cublasGemmEx (CuPy's cuBLAS bindings)
  and torch.matmul (the same memory through DLPack), each --gemm-reps back to
  back between CUDA events, in a rotating order.
  The target is accel / best direct route >= 0.98, from the medians.
The peers are CuPy and PyTorch (CUDA builds), each where it imports; a
missing one is said on stderr and its column reads n/a, and with neither the
script still prints accel's rows and its own small-op rounds. Each peer runs
every row it can, as its users write it: CuPy an ElementwiseKernel for axpby,
cp.dot, cp.matmul, cupy.fuse for the fused chains, stream capture for the
graph rows; PyTorch torch.* with out= (axpby as two in-place ops: torch has
no one-kernel form), torch.compile for the fused chains (n/a where it cannot
compile), torch.cuda.graph for the graph rows. Per row the table gives each
peer's ms, the faster peer and accel's ratio to it (targets of issue 32:
>= 1.0, GEMM >= 0.99; small-op host time accel (C) / CuPy <= 0.5 and
/ PyTorch <= 0.7).
"""
from __future__ import annotations

import argparse
import ctypes
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# accel bench's graph rows (tools/accel/bench_graph.c) that CupyPeer runs too.
CHAIN_OPS = ("chain8 unfused", "chain8 fused", "a*b+c unfused", "a*b+c fused")
GRAPH_OPS = ("graph100 eager", "graph100 replay", "graph100 fused")


def _chain8(x):
    """accel bench's 8-op chain: sigmoid(relu(2 tanh(x*x + x) - x) * x) (CuPy
    ufuncs, so cupy.fuse can compile it; eagerly one kernel per op)."""
    import cupy as cp  # noqa: PLC0415 (optional dependency)

    t = cp.maximum(2 * cp.tanh(x * x + x) - x, 0) * x
    return 1 / (1 + cp.exp(-t))


def _abc(a, b, c):
    return a * b + c


def median_ms(cp, fn, reps: int) -> float:
    """CUDA-event median of `reps` timed runs of fn() after one warm-up."""
    fn()
    cp.cuda.Device().synchronize()
    s, e = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for _ in range(reps):
        s.record()
        fn()
        e.record()
        e.synchronize()
        times.append(cp.cuda.get_elapsed_time(s, e))
    return statistics.median(times)


def torch_median_ms(torch, fn, reps: int) -> float:
    fn()
    torch.cuda.synchronize()
    s = torch.cuda.Event(enable_timing=True)
    e = torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(reps):
        s.record()
        fn()
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e))
    return statistics.median(times)


def host_median_ms(fn, sync, reps: int) -> float:
    """Host-clock median ms of fn() then sync(), end to end, over
    max(reps, 50) runs after 5 warm-ups (the graph rows' rule)."""
    times = []
    for i in range(max(reps, 50) + 5):
        t0 = time.perf_counter()
        fn()
        sync()
        if i >= 5:
            times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


class CupyPeer:
    name = "cupy"

    def __init__(self):
        import cupy as cp  # noqa: PLC0415 (optional dependency)

        self.cp = cp
        self.version = cp.__version__
        self.axpby = cp.ElementwiseKernel("float32 x, float32 a, float32 b", "float32 y",
                                          "y = a * x + b * y", "accel_peer_axpby")

    def elementwise(self, op: str, n: int, reps: int) -> float | None:
        cp = self.cp
        rng = cp.random.default_rng(1)
        a = rng.random(n, dtype=cp.float32)
        b = rng.random(n, dtype=cp.float32)
        c = cp.empty(n, dtype=cp.float32)
        fns = {
            "add": lambda: cp.add(a, b, out=c),
            "mul": lambda: cp.multiply(a, b, out=c),
            "relu": lambda: cp.maximum(a, 0, out=c),
            **{f: (lambda f=f: getattr(cp, f)(a, out=c)) for f in ("exp", "sin", "cos")},
            "axpby": lambda: self.axpby(a, cp.float32(0.5), cp.float32(0.5), c),
            "copy": lambda: cp.copyto(c, a),
            "sum": lambda: cp.sum(a),
            "max": lambda: cp.max(a),
            "dot": lambda: cp.dot(a, b),
            "random_uniform": lambda: rng.random(n, dtype=cp.float32, out=c),
            # a fresh array from CuPy's memory pool each call (no out= here)
            "random_normal": lambda: rng.standard_normal(n, dtype=cp.float32),
        }
        if op in CHAIN_OPS:
            return self.chain(op, a, b, rng.random(n, dtype=cp.float32), c, reps)
        if op in GRAPH_OPS:
            return self.graph100(op, n, reps)
        fn = fns.get(op)
        return None if fn is None else median_ms(cp, fn, reps)

    def chain(self, op: str, x, b, c3, out, reps: int) -> float:
        """accel bench's chains as a CuPy user writes them: one call per op
        (a temporary each), or the same formula under cupy.fuse (one kernel).
        chain8: sigmoid(relu(2 tanh(x*x + x) - x) * x); a*b+c."""
        cp = self.cp

        if op.startswith("a*b+c"):
            fused = cp.fuse(_abc)
            fn = (lambda: fused(x, b, c3)) if op.endswith(" fused") \
                else (lambda: cp.add(cp.multiply(x, b), c3, out=out))
        else:
            fused = cp.fuse(_chain8)
            fn = (lambda: fused(x)) if op.endswith(" fused") else (lambda: _chain8(x))
        return median_ms(cp, fn, reps)

    def graph100(self, op: str, n: int, reps: int) -> float | None:
        """100 dependent n-element adds, end to end (enqueue + synchronize) by
        the host clock as accel bench times them: eagerly (100 cp.add calls on
        a stream), or captured once into a CUDA graph (CuPy's stream capture)
        and replayed. CuPy has no fused form of the 100 adds: None."""
        cp = self.cp
        if op.endswith("fused"):
            return None
        x = cp.zeros(n, cp.float32)
        one = cp.ones(n, cp.float32)
        stream = cp.cuda.Stream(non_blocking=True)
        with stream:
            def adds():
                for _ in range(100):
                    cp.add(x, one, out=x)
            if op.endswith("replay"):
                stream.begin_capture()
                adds()
                graph = stream.end_capture()
                fn = (lambda: graph.launch(stream))
            else:
                fn = adds
            return host_median_ms(fn, stream.synchronize, reps)

    def gemm(self, dtype: str, n: int, reps: int) -> float | None:
        cp = self.cp
        dt = {"f32": cp.float32, "f64": cp.float64, "f16": cp.float16}.get(dtype)
        if dt is None:
            return None
        rng = cp.random.default_rng(2)
        gen = cp.float64 if dt == cp.float64 else cp.float32
        a = rng.random((n, n), dtype=gen).astype(dt)
        b = rng.random((n, n), dtype=gen).astype(dt)
        c = cp.empty((n, n), dtype=dt)
        return median_ms(cp, lambda: cp.matmul(a, b, out=c), reps)

    def dispatch_us(self) -> float:
        """Host time per cp.add of one element, queued without synchronizing."""
        cp = self.cp
        a = cp.ones(1, cp.float32)
        c = cp.empty(1, cp.float32)
        for _ in range(1000):
            cp.add(a, a, out=c)
        cp.cuda.Device().synchronize()
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            for _ in range(10000):
                cp.add(a, a, out=c)
            best = min(best, (time.perf_counter() - t0) / 10000 * 1e6)
            cp.cuda.Device().synchronize()
        return best


class TorchPeer:
    name = "torch"

    def __init__(self):
        import torch  # noqa: PLC0415

        if not torch.cuda.is_available():
            raise ImportError("torch without CUDA")
        self.torch = torch
        self.version = torch.__version__

    def elementwise(self, op: str, n: int, reps: int) -> float | None:
        """The row as a PyTorch user writes it, out= where torch has it."""
        torch = self.torch
        g = torch.Generator(device="cuda").manual_seed(1)
        a = torch.rand(n, generator=g, device="cuda")
        b = torch.rand(n, generator=g, device="cuda")
        c = torch.empty(n, device="cuda")
        fns = {
            "add": lambda: torch.add(a, b, out=c),
            "mul": lambda: torch.mul(a, b, out=c),
            "relu": lambda: torch.clamp_min(a, 0, out=c),
            **{f: (lambda f=f: getattr(torch, f)(a, out=c)) for f in ("exp", "sin", "cos")},
            # torch has no one-kernel axpby: two in-place ops, as its users write it
            "axpby": lambda: c.mul_(0.5).add_(a, alpha=0.5),
            "copy": lambda: c.copy_(a),
            "sum": lambda: torch.sum(a),
            "max": lambda: torch.max(a),
            "dot": lambda: torch.dot(a, b),
            "random_uniform": lambda: c.uniform_(generator=g),
            "random_normal": lambda: torch.randn(n, generator=g, device="cuda"),
        }
        if op in CHAIN_OPS:
            return self.chain(op, a, b, torch.rand(n, generator=g, device="cuda"), c, reps)
        if op in GRAPH_OPS:
            return self.graph100(op, n, reps)
        fn = fns.get(op)
        return None if fn is None else torch_median_ms(torch, fn, reps)

    def chain(self, op: str, x, b, c3, out, reps: int) -> float | None:
        """accel bench's chains: one torch call per op, or the same formula
        through torch.compile (one generated kernel; None where it cannot
        compile here, said on stderr)."""
        torch = self.torch

        def chain8(v):
            t = torch.clamp_min(2 * torch.tanh(v * v + v) - v, 0) * v
            return torch.sigmoid(t)

        if op.startswith("a*b+c"):
            eager = (lambda: torch.add(torch.mul(x, b), c3, out=out))
            body, args = _abc, (x, b, c3)
        else:
            eager = (lambda: chain8(x))
            body, args = chain8, (x,)
        if not op.endswith(" fused"):
            return torch_median_ms(torch, eager, reps)
        try:
            compiled = torch.compile(body, fullgraph=True)
            compiled(*args)
        except Exception as exc:  # no Triton or compiler here: the row stays CuPy's
            print(f"peers: torch.compile unavailable for {op}: {exc}", file=sys.stderr)
            return None
        return torch_median_ms(torch, lambda: compiled(*args), reps)

    def graph100(self, op: str, n: int, reps: int) -> float | None:
        """100 dependent n-element adds, end to end by the host clock (as
        CupyPeer.graph100): eagerly on a side stream, or captured once with
        torch.cuda.graph and replayed. No fused form: None."""
        torch = self.torch
        if op.endswith("fused"):
            return None
        x = torch.zeros(n, device="cuda")
        one = torch.ones(n, device="cuda")
        stream = torch.cuda.Stream()

        def adds():
            for _ in range(100):
                torch.add(x, one, out=x)

        fn = adds
        if op.endswith("replay"):
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.stream(stream):
                adds()  # warm-up on the side stream, as torch.cuda.graph's docs ask
            torch.cuda.synchronize()
            with torch.cuda.graph(graph, stream=stream):
                adds()
            fn = graph.replay
        with torch.cuda.stream(stream):
            return host_median_ms(fn, stream.synchronize, reps)

    def dispatch_us(self) -> float:
        """Host time per torch.add of one element, queued without synchronizing."""
        torch = self.torch
        a = torch.ones(1, device="cuda")
        c = torch.empty(1, device="cuda")
        for _ in range(1000):
            torch.add(a, a, out=c)
        torch.cuda.synchronize()
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            for _ in range(10000):
                torch.add(a, a, out=c)
            best = min(best, (time.perf_counter() - t0) / 10000 * 1e6)
            torch.cuda.synchronize()
        return best

    def gemm(self, dtype: str, n: int, reps: int) -> float | None:
        torch = self.torch
        dt = {"f32": torch.float32, "tf32": torch.float32, "f64": torch.float64,
              "f16": torch.float16, "bf16": torch.bfloat16}.get(dtype)
        if dt is None:
            return None
        torch.backends.cuda.matmul.allow_tf32 = dtype == "tf32"
        g = torch.Generator(device="cuda").manual_seed(3)
        gen = torch.float64 if dt == torch.float64 else torch.float32
        a = torch.rand((n, n), generator=g, device="cuda", dtype=gen).to(dt)
        b = torch.rand((n, n), generator=g, device="cuda", dtype=gen).to(dt)
        c = torch.empty((n, n), device="cuda", dtype=dt)
        try:
            return torch_median_ms(torch, lambda: torch.matmul(a, b, out=c), reps)
        finally:
            torch.backends.cuda.matmul.allow_tf32 = False


class AccelHelper:
    """bench/peers_accel.c, built against the libaccel next to the accel program."""

    def __init__(self, accel_exe: str, device: str):
        build = Path(accel_exe).resolve().parent.parent
        lib = build / "lib"
        out = Path(tempfile.mkdtemp(prefix="accel_peers_")) / "peers_accel.so"
        cc = os.environ.get("CC", "cc")
        subprocess.run([cc, "-O2", "-std=c11", "-shared", "-fPIC", f"-I{HERE.parent / 'include'}",
                        str(HERE / "peers_accel.c"), "-o", str(out), f"-L{lib}", "-laccel",
                        f"-Wl,-rpath,{lib}"], check=True)
        h = ctypes.CDLL(str(out))
        h.pa_open.argtypes = [ctypes.c_char_p]
        h.pa_small_op_us.restype = ctypes.c_double
        h.pa_small_op_us.argtypes = [ctypes.c_int]
        h.pa_gemm_wrap.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_size_t, ctypes.c_int]
        h.pa_gemm_ms.restype = ctypes.c_double
        h.pa_gemm_ms.argtypes = [ctypes.c_int]
        h.pa_error.restype = ctypes.c_char_p
        self.h, self.build = h, build
        if h.pa_open(device.encode()) != 0:
            raise RuntimeError(f"peers_accel: {h.pa_error().decode()}")

    def _check(self, v: float) -> float:
        if v < 0:
            raise RuntimeError(f"peers_accel: {self.h.pa_error().decode()}")
        return v

    def small_op_us(self, iters: int) -> float:
        return self._check(self.h.pa_small_op_us(iters))

    def gemm_wrap(self, a, b, c, n: int, f64: bool) -> None:
        if self.h.pa_gemm_wrap(a, b, c, n, 1 if f64 else 0) != 0:
            raise RuntimeError(f"peers_accel: {self.h.pa_error().decode()}")

    def gemm_ms(self, reps: int) -> float:
        return self._check(self.h.pa_gemm_ms(reps))

    def close(self) -> None:
        self.h.pa_close()


def spread(v: list[float]) -> str:
    return f"{statistics.median(v):.3f} ({min(v):.3f}..{max(v):.3f})"


def _peer_small_op(name: str, peer, iters: int):
    """A timer of host us per 1-element add by `peer` (cp.add or torch.add,
    out=), queued in a loop and then synchronized."""
    if name == "cupy":
        cp = peer.cp
        a, c = cp.ones(1, cp.float32), cp.empty(1, cp.float32)
        add, sync = cp.add, cp.cuda.Device().synchronize
    else:
        torch = peer.torch
        a, c = torch.ones(1, device="cuda"), torch.empty(1, device="cuda")
        add, sync = torch.add, torch.cuda.synchronize

    def us() -> float:
        sync()
        t0 = time.perf_counter()
        for _ in range(iters):
            add(a, a, out=c)
        t1 = time.perf_counter()
        sync()
        return (t1 - t0) / iters * 1e6
    return us


def small_op_rounds(helper: AccelHelper, peers: dict, device: str, rounds: int,
                    iters: int) -> dict:
    """Host us per 1-element add: accel (C), accel.add and each peer, interleaved rounds."""
    timers = {"accel_c": lambda: helper.small_op_us(iters)}
    for name, peer in peers.items():
        timers[name] = _peer_small_op(name, peer, iters)
    try:
        os.environ.setdefault("ACCEL_BUILD_DIR", str(helper.build))
        sys.path.insert(0, str(HERE.parent / "python"))
        import accel  # noqa: PLC0415 (optional: the Python package of this tree)
        import numpy as np  # noqa: PLC0415

        dev = accel.get_device(device)
        x = accel.ones(1, dtype=np.float32, device=dev)
        z = accel.empty(1, dtype=np.float32, device=dev)
        stream = accel.get_current_stream(dev)

        def py_us() -> float:
            stream.synchronize()
            t0 = time.perf_counter()
            for _ in range(iters):
                accel.add(x, x, out=z)
            t1 = time.perf_counter()
            stream.synchronize()
            return (t1 - t0) / iters * 1e6

        timers["accel_py"] = py_us
    except Exception as exc:  # the C and peer rows stand without it
        print(f"peers: accel Python package not used: {exc}", file=sys.stderr)
    for fn in timers.values():  # warm-up
        fn()
    res = {k: [] for k in timers}
    names = list(timers)
    for r in range(rounds):
        for k in (names if r % 2 == 0 else names[::-1]):
            res[k].append(timers[k]())
    for name in peers:
        res[f"ratio_c_{name}"] = [x / y for x, y in zip(res["accel_c"], res[name])]
        if "accel_py" in res:
            res[f"ratio_py_{name}"] = [x / y for x, y in zip(res["accel_py"], res[name])]
    return res


def gemm_rounds(helper: AccelHelper, cp, n: int, rounds: int, reps: int, torch_peer=None) -> dict:
    """ms per f64 n^3 GEMM: accel and the direct routes on the same arrays, interleaved."""
    import numpy as np  # noqa: PLC0415

    from cupy_backends.cuda.libs import cublas  # noqa: PLC0415

    rng = cp.random.default_rng(2)
    a = rng.random((n, n), dtype=cp.float64)  # 53 random mantissa bits, as accel's uniforms
    b = rng.random((n, n), dtype=cp.float64)
    c = cp.empty((n, n), dtype=cp.float64)
    cp.cuda.Device().synchronize()
    helper.gemm_wrap(a.data.ptr, b.data.ptr, c.data.ptr, n, True)
    handle = cp.cuda.device.get_cublas_handle()
    one, zero = np.array(1.0), np.array(0.0)
    r_64f = 1  # CUDA_R_64F
    compute_64f = getattr(cublas, "CUBLAS_COMPUTE_64F", 70)
    algo = getattr(cublas, "CUBLAS_GEMM_DEFAULT", -1)
    s, e = cp.cuda.Event(), cp.cuda.Event()

    def timed(fn) -> float:
        cublas.setStream(handle, cp.cuda.get_current_stream().ptr)
        cublas.setPointerMode(handle, 0)  # CUBLAS_POINTER_MODE_HOST: alpha, beta below
        s.record()
        for _ in range(reps):
            fn()
        e.record()
        e.synchronize()
        return cp.cuda.get_elapsed_time(s, e) / reps

    # Row-major C = A B is column-major C^T = B^T A^T: (B, A) to cuBLAS, as accel does.
    def dgemm():
        cublas.dgemm(handle, 0, 0, n, n, n, one.ctypes.data, b.data.ptr, n, a.data.ptr, n,
                     zero.ctypes.data, c.data.ptr, n)

    def gemm_ex():
        cublas.gemmEx(handle, 0, 0, n, n, n, one.ctypes.data, b.data.ptr, r_64f, n, a.data.ptr,
                      r_64f, n, zero.ctypes.data, c.data.ptr, r_64f, n, compute_64f, algo)

    def accel_ms() -> float:
        cp.cuda.Device().synchronize()  # CuPy's work on the arrays is done
        return helper.gemm_ms(reps)

    routes = {"accel": accel_ms, "cp.matmul": lambda: timed(lambda: cp.matmul(a, b, out=c)),
              "cublasDgemm": lambda: timed(dgemm), "cublasGemmEx": lambda: timed(gemm_ex)}
    if torch_peer is not None:  # torch.matmul on the same memory (DLPack, no copy)
        torch = torch_peer.torch
        ta, tb, tc = (torch.from_dlpack(v) for v in (a, b, c))

        def torch_ms() -> float:
            cp.cuda.Device().synchronize()
            ts, te = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            ts.record()
            for _ in range(reps):
                torch.matmul(ta, tb, out=tc)
            te.record()
            te.synchronize()
            return ts.elapsed_time(te) / reps
        routes["torch.matmul"] = torch_ms
    res = {k: [] for k in routes}
    for fn in routes.values():  # warm-up
        fn()
    names = list(routes)
    for r in range(rounds):
        for k in names[r % len(names):] + names[:r % len(names)]:
            res[k].append(routes[k]())
    # accel did the same work: its C against CuPy's product of a few rows.
    helper.gemm_ms(1)
    rows = min(n, 4)
    ref = cp.matmul(a[:rows], b)
    diff = float(cp.max(cp.abs(c[:rows] - ref)) / max(float(cp.max(cp.abs(ref))), 1e-300))
    res["check_rel_diff"] = diff
    cp.cuda.Device().synchronize()
    return res


def interleaved(a, peers: dict) -> dict:
    """The interleaved small-op and GEMM f64 rounds (see the module doc), printed."""
    out = {}
    try:
        helper = AccelHelper(a.accel, a.device)
    except Exception as exc:
        print(f"peers: interleaved rounds skipped: {exc}", file=sys.stderr)
        return out
    try:
        so = small_op_rounds(helper, peers, a.device, a.rounds, a.iters)
        out["small_op"] = so
        print(f"\nsmall-op host time, us per 1-element add, {a.rounds} interleaved rounds of "
              f"{a.iters}, median (min..max):")
        print(f"  accel (C)        {spread(so['accel_c'])}")
        if "accel_py" in so:
            print(f"  accel.add (Py)   {spread(so['accel_py'])}")
        for name, target in (("cupy", 0.5), ("torch", 0.7)):
            if name not in peers:
                print(f"  {name}: not available, no row")
                continue
            print(f"  {name + ' add':<17}{spread(so[name])}")
            ok = statistics.median(so[f"ratio_c_{name}"]) <= target
            print(f"  {'PASS' if ok else 'MISS'} accel (C) / {name}, per round: "
                  f"{spread(so[f'ratio_c_{name}'])} (target <= {target})")
            if f"ratio_py_{name}" in so:
                print(f"  accel.add (Py) / {name}, per round: {spread(so[f'ratio_py_{name}'])}")
        if a.gemm_n and "cupy" not in peers:
            print("\nGEMM f64 rounds: need CuPy (its cuBLAS bindings); skipped")
        elif a.gemm_n:
            cp = peers["cupy"].cp
            g = gemm_rounds(helper, cp, a.gemm_n, a.rounds, a.gemm_reps, peers.get("torch"))
            out["gemm_f64"] = g
            flops = 2.0 * a.gemm_n ** 3
            print(f"\nGEMM f64 {a.gemm_n}^3 on the same arrays (CuPy uniform [0, 1), 53-bit), "
                  f"{a.rounds} interleaved rounds of {a.gemm_reps}, ms median (min..max), "
                  f"TFLOP/s of the median:")
            diff = g.pop("check_rel_diff")
            med = {k: statistics.median(v) for k, v in g.items()}
            for k, v in g.items():
                print(f"  {k:<14}{spread(v)}  {flops / (med[k] * 1e-3) * 1e-12:7.2f}")
            direct = {k: m for k, m in med.items() if k.startswith("cublas")}
            best = min(direct, key=direct.get)
            ratio = direct[best] / med["accel"]
            print(f"  {'PASS' if ratio >= 0.98 else 'MISS'} accel / best direct ({best}) "
                  f"{ratio:.3f} (target >= 0.98); accel / cp.matmul "
                  f"{med['cp.matmul'] / med['accel']:.3f}"
                  + (f"; accel / torch.matmul {med['torch.matmul'] / med['accel']:.3f}"
                     if "torch.matmul" in med else ""))
            per_round = [min(g[k][i] for k in direct) / g["accel"][i] for i in range(a.rounds)]
            print(f"  accel / best direct, per round: {spread(per_round)}")
            print(f"  check: accel's C rows 0..3 against cp.matmul's, max relative difference "
                  f"{diff:.2e}: {'PASS' if diff <= 1e-12 else 'FAIL'}")
    except Exception as exc:
        print(f"peers: interleaved rounds failed: {exc}", file=sys.stderr)
    finally:
        helper.close()
    return out


def load_peers():
    peers = {}
    for cls in (CupyPeer, TorchPeer):
        try:
            peers[cls.name] = cls()
        except Exception as exc:  # a missing peer is reported, not fatal
            print(f"peers: {cls.name} not available: {exc}", file=sys.stderr)
    return peers


def peer_rows(dev: dict, peers: dict, reps: int):
    """Yield (row, {peer name: ms}) for each accel row, with every peer that
    can run it (None where a peer cannot)."""
    for row in dev["results"]:
        op, dt, n = row["op"], row["dtype"], row["n"]
        times = {}
        for name, peer in peers.items():
            try:
                if op == "gemm":
                    times[name] = peer.gemm(dt, n, reps)
                elif dt == "f32" and hasattr(peer, "elementwise"):
                    times[name] = peer.elementwise(op, n, reps)
            except Exception as exc:  # one failing peer row must not end the run
                print(f"peers: {name} failed on {op} {dt} {n}: {exc}", file=sys.stderr)
        yield row, {k: v for k, v in times.items() if v}


def compare(accel_json: dict, peers: dict, reps: int, device: str) -> dict:
    """Per row: each peer's ms, the faster peer and accel's ratio to it
    (peer ms / accel ms: above 1, accel is faster). GPU devices, and the one
    asked for (so a run without a GPU still lists accel's rows)."""
    out = {"peers": {k: v.version for k, v in peers.items()}, "devices": []}
    for dev in accel_json["devices"]:
        if dev.get("kind") != "gpu" and dev.get("device") != device:
            continue
        rows = []
        for row, times in peer_rows(dev, peers, reps):
            best = min(times, key=times.get) if times else None
            ms = times.get(best)
            r = {"op": row["op"], "dtype": row["dtype"], "n": row["n"],
                 "accel_ms": row["median_ms"], "peers_ms": times, "peer": best, "peer_ms": ms,
                 "ceiling_fraction": row.get("fraction")}
            r["accel_over_peer"] = (ms / row["median_ms"]) if ms and row["median_ms"] else None
            rows.append(r)
        entry = {"device": dev["device"], "rows": rows, "accel_dispatch_us": dev.get("dispatch_us")}
        for name, peer in peers.items():
            entry[f"{name}_dispatch_us"] = peer.dispatch_us()
        out["devices"].append(entry)
    return out


def _ms(v) -> str:
    return f"{v:.4f}" if v else "n/a"


def print_table(cmp: dict, f=sys.stdout):
    names = sorted(cmp["peers"])
    print(f"\npeers in the same run: {cmp['peers'] or 'none'} (ratio > 1: accel faster than "
          f"the faster peer)", file=f)
    for dev in cmp["devices"]:
        print(f"\n  {dev['device']}", file=f)
        print(f"  {'op':<16}{'dtype':<6}{'n':>12}{'accel ms':>12}"
              + "".join(f"{k + ' ms':>12}" for k in names)
              + f"{'faster':>8}{'accel/faster':>14}", file=f)
        for r in dev["rows"]:
            ratio = f"{r['accel_over_peer']:.3f}" if r["accel_over_peer"] else "n/a"
            print(f"  {r['op']:<16}{r['dtype']:<6}{r['n']:>12}{r['accel_ms']:>12.4f}"
                  + "".join(f"{_ms(r['peers_ms'].get(k)):>12}" for k in names)
                  + f"{r['peer'] or '-':>8}{ratio:>14}", file=f)
        for r in dev["rows"]:
            v = r["peers_ms"].get("cupy")
            if r["op"] == "a*b+c fused" and v:
                v = v / r["accel_ms"]
                print(f"  {'PASS' if v >= 1.25 else 'MISS'} a*b+c fused: cupy.fuse ms / accel ms "
                      f"{v:.3f} (target >= 1.25; n = {r['n']})", file=f)
        a = dev.get("accel_dispatch_us")
        for k in names:
            c = dev.get(f"{k}_dispatch_us")
            if a and c:
                print(f"  small-op host time: accel {a:.3f} us (accel bench), {k} {c:.3f} us "
                      f"(here, later), accel/{k} {a / c:.3f}; the targets' figures are the "
                      f"interleaved rounds' below", file=f)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--accel", default="build/bin/accel", help="the accel program")
    ap.add_argument("--device", default="cuda:0")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--accel-json", help="use this accel bench JSON instead of running it")
    ap.add_argument("--json", help="write accel's rows, the peers' rows and the ratios here")
    ap.add_argument("--reps", type=int, default=9)
    ap.add_argument("--rounds", type=int, default=7, help="interleaved rounds (0: none)")
    ap.add_argument("--iters", type=int, default=5000, help="small ops per round")
    ap.add_argument("--gemm-n", type=int, default=10000, help="GEMM f64 size (0: none)")
    ap.add_argument("--gemm-reps", type=int, default=3, help="GEMMs per route and round")
    ap.add_argument("--rounds-only", action="store_true",
                    help="only the interleaved rounds: no accel bench, no peer table")
    a = ap.parse_args(argv)
    if a.rounds_only:
        peers = load_peers()
        res = interleaved(a, peers) if a.rounds > 0 else {}
        if a.json:
            with open(a.json, "w") as fh:
                json.dump({"interleaved": res}, fh, indent=1)
        return 0 if res else 2
    if a.accel_json:
        with open(a.accel_json) as fh:
            accel_json = json.load(fh)
    else:
        tmp = a.json + ".accel.json" if a.json else "/tmp/accel-bench-peers.json"
        cmd = [a.accel, "bench", "--device", a.device, "--no-progress", "--json", tmp]
        if a.quick:
            cmd.append("--quick")
        rc = subprocess.call(cmd)
        if rc not in (0, 1):  # 1: some target missed; the numbers are still valid
            print(f"peers: {' '.join(cmd)} exited with {rc}", file=sys.stderr)
            return rc
        with open(tmp) as fh:
            accel_json = json.load(fh)
    peers = load_peers()
    if not peers:
        print("peers: neither CuPy nor PyTorch with CUDA is importable: accel's rows only, "
              "every peer column n/a", file=sys.stderr)
    cmp = compare(accel_json, peers, a.reps, a.device)
    print_table(cmp)
    rounds = interleaved(a, peers) if a.rounds > 0 else {}
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"accel": accel_json, "comparison": cmp, "interleaved": rounds}, fh,
                      indent=1)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("CUPY_TF32", "0")
    sys.exit(main())
