# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""bench_ratio.py on made-up runs whose fractions are known by hand (beside
CUDA: add 0.900 PASS at the target's edge, sum 0.850 MISS, GEMM 0.800
stated, a row under 2^26 left out; the same without the OpenCL GEMM row:
named as missing, exit status 1; beside the CPU: every size, 2^24 and GEMM
1024 too), then on a real `accel bench --quick` run of opencl:0 beside
cpu:0, whose add, sum and GEMM rows must all be there.

usage: bench_ratio_check.py ACCEL CONFIG WORKDIR"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def row(op, n, rate):
    return {"op": op, "dtype": "f32", "n": n, "rate": rate,
            "unit": "TFLOP/s" if op == "gemm" else "GB/s"}


def ratio(path, *devices, status=0):
    p = subprocess.run([sys.executable, os.path.join(HERE, "bench_ratio.py"), path, *devices],
                       capture_output=True, text=True, check=False)
    if p.returncode != status:
        sys.exit(f"bench_ratio.py {path}: exit status {p.returncode}, expected {status}:\n"
                 f"{p.stdout}{p.stderr}")
    print(p.stdout)
    return p.stdout


def ratio_of(run, work, status=0):
    """bench_ratio.py's output on the made-up run (a dict)."""
    path = os.path.join(work, "ratio_made_up.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(run, f)
    return ratio(path, status=status)


def expect(out, *parts):
    """Some line of out holds every part, in order."""
    for line in out.splitlines():
        at = 0
        for part in parts:
            at = line.find(part, at)
            if at < 0:
                break
            at += len(part)
        else:
            return
    sys.exit(f"no line with {parts} in:\n{out}")


def made_up(work):
    run = {"quick": False, "devices": [
        {"device": "cuda:0", "model": "G", "results": [
            row("add", 1 << 24, 100.0), row("add", 1 << 26, 1000.0), row("sum", 1 << 28, 1000.0),
            row("gemm", 4096, 50.0)]},
        {"device": "opencl:0", "model": "G (NVIDIA CUDA)", "results": [
            row("add", 1 << 24, 10.0), row("add", 1 << 26, 900.0), row("sum", 1 << 28, 850.0),
            row("gemm", 4096, 40.0)]}]}
    out = ratio_of(run, work)
    expect(out, "add", "2^26", "900", "1000", "0.900", ">= 0.90 PASS")
    expect(out, "sum", "2^28", "850", "1000", "0.850", ">= 0.90 MISS")
    expect(out, "gemm", "4096", "40", "50", "0.800", "stated")
    expect(out, "1 of the add/sum rows below the 0.90 target")
    if "2^24" in out:
        sys.exit("the 2^24 row is under the 2^26 floor and must be left out")
    run["devices"][1]["results"].pop()  # no CLBlast: no OpenCL GEMM row
    out = ratio_of(run, work, status=1)
    expect(out, "gemm", "4096", "missing on opencl:0", "CLBlast")
    expect(out, "sum", "2^28", "0.850", "MISS")
    cpu = {"quick": False, "devices": [
        {"device": "opencl:0", "model": "P", "results": [
            row("add", 1 << 24, 30.0), row("sum", 1 << 24, 12.0), row("gemm", 1024, 0.3)]},
        {"device": "cpu:0", "model": "C", "results": [
            row("add", 1 << 24, 40.0), row("sum", 1 << 24, 16.0), row("gemm", 1024, 0.6)]}]}
    out = ratio_of(cpu, work)
    expect(out, "add", "2^24", "30", "40", "0.750", "ratio")
    expect(out, "sum", "2^24", "12", "16", "0.750", "ratio")
    expect(out, "gemm", "1024", "0.3", "0.6", "0.500", "stated")


def real(accel, config, work):
    path = os.path.join(work, "ratio_real.json")
    p = subprocess.run([accel, "bench", "--quick", "--no-progress", "--device", "opencl:0",
                        "--device", "cpu:0", "--json", path, "--config", config],
                       capture_output=True, text=True, check=False)
    if p.returncode != 0:
        sys.exit(f"accel bench failed ({p.returncode}):\n{p.stdout}{p.stderr}")
    with open(path, encoding="utf-8") as f:
        devs = {d["device"]: d for d in json.load(f)["devices"]}
    out = ratio(path, "opencl:0", "cpu:0")
    for op in ("add", "sum", "gemm"):
        rows = [(r["n"], r["rate"]) for r in devs["opencl:0"]["results"]
                if r["op"] == op and r["dtype"] == "f32"]
        base = {r["n"]: r["rate"] for r in devs["cpu:0"]["results"]
                if r["op"] == op and r["dtype"] == "f32"}
        if not rows:
            sys.exit(f"no {op} f32 row for opencl:0 in the run")
        for n, rate in rows:
            if n in base and base[n] > 0:
                expect(out, op, f"{rate / base[n]:8.3f}".strip())


def main():
    accel, config, work = sys.argv[1:4]
    made_up(work)
    real(accel, config, work)


main()
