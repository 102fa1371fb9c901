#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Run `accel bench` and the same workloads through CuPy (and PyTorch for
GEMM) in one run, on the same kind of data, and print accel / peer per row.

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
  against the build's libaccel and called through ctypes), by CuPy's cp.add
  and, where the accel Python package imports, by accel.add; the order
  alternates between rounds. The target is accel (C) / CuPy <= 0.5.
- GEMM f64 (--gemm-n, default 10000): per round, accel_gemm on CuPy's own
  arrays (accel_buffer_wrap, no copy) and the direct routes on the same
  arrays: cp.matmul, cublasDgemm and cublasGemmEx (CuPy's cuBLAS bindings),
  each --gemm-reps back to back between CUDA events, in a rotating order.
  The target is accel / best direct route >= 0.98, from the medians.
The peer of each op is what a CuPy user would write for it (an
ElementwiseKernel for axpby, cp.dot for dot, cp.matmul for GEMM). Rows a peer
cannot run (CuPy has no bfloat16, TF32 needs a global switch) use PyTorch where
it is installed, and say so; rows no peer runs are printed as "n/a".
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
            "exp": lambda: cp.exp(a, out=c),
            "sin": lambda: cp.sin(a, out=c),
            "cos": lambda: cp.cos(a, out=c),
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
            times = []
            for i in range(max(reps, 50) + 5):
                t0 = time.perf_counter()
                fn()
                stream.synchronize()
                if i >= 5:
                    times.append((time.perf_counter() - t0) * 1e3)
        return statistics.median(times)

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


def small_op_rounds(helper: AccelHelper, cp, device: str, rounds: int, iters: int) -> dict:
    """Host us per 1-element add: accel (C), CuPy and accel.add, interleaved rounds."""
    a = cp.ones(1, cp.float32)
    c = cp.empty(1, cp.float32)

    def cupy_us() -> float:
        cp.cuda.Device().synchronize()
        t0 = time.perf_counter()
        for _ in range(iters):
            cp.add(a, a, out=c)
        t1 = time.perf_counter()
        cp.cuda.Device().synchronize()
        return (t1 - t0) / iters * 1e6

    timers = {"accel_c": lambda: helper.small_op_us(iters), "cupy": cupy_us}
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
    except Exception as exc:  # the C and CuPy rows stand without it
        print(f"peers: accel Python package not used: {exc}", file=sys.stderr)
    for fn in timers.values():  # warm-up
        fn()
    res = {k: [] for k in timers}
    names = list(timers)
    for r in range(rounds):
        for k in (names if r % 2 == 0 else names[::-1]):
            res[k].append(timers[k]())
    res["ratio_c"] = [x / y for x, y in zip(res["accel_c"], res["cupy"])]
    if "accel_py" in res:
        res["ratio_py"] = [x / y for x, y in zip(res["accel_py"], res["cupy"])]
    return res


def gemm_rounds(helper: AccelHelper, cp, n: int, rounds: int, reps: int) -> dict:
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
    if "cupy" not in peers:
        return out
    try:
        helper = AccelHelper(a.accel, a.device)
    except Exception as exc:
        print(f"peers: interleaved rounds skipped: {exc}", file=sys.stderr)
        return out
    cp = peers["cupy"].cp
    try:
        so = small_op_rounds(helper, cp, a.device, a.rounds, a.iters)
        out["small_op"] = so
        print(f"\nsmall-op host time, us per 1-element add, {a.rounds} interleaved rounds of "
              f"{a.iters}, median (min..max):")
        print(f"  accel (C)        {spread(so['accel_c'])}")
        if "accel_py" in so:
            print(f"  accel.add (Py)   {spread(so['accel_py'])}")
        print(f"  cupy cp.add      {spread(so['cupy'])}")
        ok = statistics.median(so["ratio_c"]) <= 0.5
        print(f"  {'PASS' if ok else 'MISS'} accel (C) / cupy, per round: {spread(so['ratio_c'])}"
              f" (target <= 0.5)")
        if "ratio_py" in so:
            print(f"  accel.add (Py) / cupy, per round: {spread(so['ratio_py'])}")
        if a.gemm_n:
            g = gemm_rounds(helper, cp, a.gemm_n, a.rounds, a.gemm_reps)
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
                  f"{med['cp.matmul'] / med['accel']:.3f}")
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
    """Yield (row, peer name, peer ms) for each accel row a peer can run."""
    for row in dev["results"]:
        op, dt, n = row["op"], row["dtype"], row["n"]
        ms, who = None, None
        if op == "gemm":
            if "cupy" in peers and dt in ("f32", "f64", "f16"):
                ms, who = peers["cupy"].gemm(dt, n, reps), "cupy"
            elif "torch" in peers:
                ms, who = peers["torch"].gemm(dt, n, reps), "torch"
        elif "cupy" in peers and dt == "f32":
            ms, who = peers["cupy"].elementwise(op, n, reps), "cupy"
        yield row, who, ms
        if op == "gemm" and "torch" in peers and who != "torch":
            yield row, "torch", peers["torch"].gemm(dt, n, reps)


def compare(accel_json: dict, peers: dict, reps: int) -> dict:
    out = {"peers": {k: v.version for k, v in peers.items()}, "devices": []}
    for dev in accel_json["devices"]:
        if dev.get("kind") != "gpu":
            continue
        rows = []
        for row, who, ms in peer_rows(dev, peers, reps):
            r = {"op": row["op"], "dtype": row["dtype"], "n": row["n"],
                 "accel_ms": row["median_ms"], "peer": who, "peer_ms": ms,
                 "ceiling_fraction": row.get("fraction")}
            r["accel_over_peer"] = (ms / row["median_ms"]) if ms and row["median_ms"] else None
            rows.append(r)
        entry = {"device": dev["device"], "rows": rows, "accel_dispatch_us": dev.get("dispatch_us")}
        if "cupy" in peers:
            entry["cupy_dispatch_us"] = peers["cupy"].dispatch_us()
        out["devices"].append(entry)
    return out


def print_table(cmp: dict, f=sys.stdout):
    print(f"\npeers in the same run: {cmp['peers']} (ratio > 1: accel faster)", file=f)
    for dev in cmp["devices"]:
        print(f"\n  {dev['device']}", file=f)
        print(f"  {'op':<15}{'dtype':<6}{'n':>12}{'accel ms':>12}{'peer':>7}{'peer ms':>12}"
              f"{'accel/peer':>12}", file=f)
        for r in dev["rows"]:
            pm = f"{r['peer_ms']:.4f}" if r["peer_ms"] else "n/a"
            ratio = f"{r['accel_over_peer']:.3f}" if r["accel_over_peer"] else "n/a"
            print(f"  {r['op']:<15}{r['dtype']:<6}{r['n']:>12}{r['accel_ms']:>12.4f}"
                  f"{r['peer'] or '-':>7}{pm:>12}{ratio:>12}", file=f)
        for r in dev["rows"]:
            if r["op"] == "a*b+c fused" and r["peer"] == "cupy" and r["accel_over_peer"]:
                v = r["accel_over_peer"]
                print(f"  {'PASS' if v >= 1.25 else 'MISS'} a*b+c fused: cupy.fuse ms / accel ms "
                      f"{v:.3f} (target >= 1.25; n = {r['n']})", file=f)
        if dev.get("cupy_dispatch_us") and dev.get("accel_dispatch_us"):
            a, c = dev["accel_dispatch_us"], dev["cupy_dispatch_us"]
            print(f"  small-op host time: accel {a:.3f} us (accel bench), cupy {c:.3f} us "
                  f"(here, later), accel/cupy {a / c:.3f}; the target's figure is the "
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
        print("peers: neither CuPy nor PyTorch with CUDA is importable; nothing to compare",
              file=sys.stderr)
        return 2
    cmp = compare(accel_json, peers, a.reps)
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
