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
The peer of each op is what a CuPy user would write for it (an
ElementwiseKernel for axpby, cp.dot for dot, cp.matmul for GEMM). Rows a peer
cannot run (CuPy has no bfloat16, TF32 needs a global switch) use PyTorch where
it is installed, and say so; rows no peer runs are printed as "n/a".
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time


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
        fn = fns.get(op)
        return None if fn is None else median_ms(cp, fn, reps)

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
        if dev.get("cupy_dispatch_us") and dev.get("accel_dispatch_us"):
            a, c = dev["accel_dispatch_us"], dev["cupy_dispatch_us"]
            print(f"  small-op host time: accel {a:.3f} us, cupy {c:.3f} us, "
                  f"accel/cupy {a / c:.3f} (target <= 0.5)", file=f)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--accel", default="build/bin/accel", help="the accel program")
    ap.add_argument("--device", default="cuda:0")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--accel-json", help="use this accel bench JSON instead of running it")
    ap.add_argument("--json", help="write accel's rows, the peers' rows and the ratios here")
    ap.add_argument("--reps", type=int, default=9)
    a = ap.parse_args(argv)
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
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"accel": accel_json, "comparison": cmp}, fh, indent=1)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("CUPY_TF32", "0")
    sys.exit(main())
