#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""`accel run array` (tools/accel/run_array.c) against NumPy:

- elementwise functions with broadcasting and promotion across dtypes
  (float32 with float64, int16 with float32, bool conditions, complex64),
  unary, binary and three-input (where, clip), the bool and real results;
- reductions over all axes, one axis, a negative axis with --keepdims,
  of integers (int64 sums), floats and complex;
- --verify runs in verify mode and says so;
- .npy files of every dtype are read and written (bool, int8..uint64,
  float16..float64, complex64, complex128);
- bad input: an unknown function, the wrong number of files, --axis on an
  elementwise function (exit 2); a function that does not take a dtype,
  an axis past the input (exit 1, naming them); no output file is written.

usage: array_check.py ACCEL WORK_DIR"""
import os
import subprocess
import sys

import numpy as np

FAILURES = []


def check(name, cond, detail=""):
    print(("ok    " if cond else "FAIL  ") + name + ("" if cond else ": " + detail))
    if not cond:
        FAILURES.append(name)


def run(accel, args):
    e = {k: v for k, v in os.environ.items()
         if k not in ("ACCEL_CONFIG", "ACCEL_BACKEND", "ACCEL_VERIFY", "ACCEL_REPORT")}
    p = subprocess.run([accel, "run", "array", *args], capture_output=True, text=True,
                       timeout=120, env=e)
    if "ERROR: AddressSanitizer" in p.stderr or "runtime error:" in p.stderr:
        check("no sanitizer report from " + " ".join(args)[:200], False, p.stderr[-2000:])
    return p.returncode, p.stderr


def main():
    accel, work = map(os.path.abspath, sys.argv[1:3])
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(21)
    data = {
        "f32c": rng.standard_normal((3, 1)).astype(np.float32),
        "f64r": rng.standard_normal((1, 4)),
        "i16": rng.integers(-50, 50, (3, 4)).astype(np.int16),
        "u8": rng.integers(0, 255, (3, 4)).astype(np.uint8),
        "b": rng.integers(0, 2, (3, 4)).astype(bool),
        "c64": (rng.standard_normal((2, 3)) + 1j * rng.standard_normal((2, 3))).astype(np.complex64),
        "c128": rng.standard_normal((2, 3)) + 1j * rng.standard_normal((2, 3)),
        "f16": rng.standard_normal(5).astype(np.float16),
        "i8": rng.integers(-100, 100, 6).astype(np.int8),
        "u64": rng.integers(0, 2**63, 6, dtype=np.uint64),
        "e": np.zeros((0, 3), np.float32),  # a .npy of no data bytes
    }
    path = {}
    for k, v in data.items():
        path[k] = os.path.join(work, k + ".npy")
        np.save(path[k], v)
    out = os.path.join(work, "out.npy")
    d = data
    cases = [
        (["hypot", "f32c", "f64r"], np.hypot(d["f32c"], d["f64r"])),
        (["add", "i16", "f32c"], d["i16"] + d["f32c"]),
        (["multiply", "u8", "i16"], d["u8"].astype(np.int16) * d["i16"]),
        (["exp", "c64"], np.exp(d["c64"])),
        (["abs", "c128"], np.abs(d["c128"])),
        (["less", "i16", "f64r"], d["i16"] < d["f64r"]),
        (["where", "b", "i16", "f32c"], np.where(d["b"], d["i16"], d["f32c"])),
        (["clip", "i16", "u8", "i16"], np.clip(d["i16"], d["u8"].astype(np.int16), d["i16"])),
        (["negative", "i8"], -d["i8"]),
        (["sqrt", "f16"], np.sqrt(d["f16"])),
        (["bitwise_and", "u64", "u64"], d["u64"] & d["u64"]),
        (["sum", "i16"], d["i16"].sum(dtype=np.int64)),
        (["sum", "i16", "--axis", "0"], d["i16"].sum(axis=0, dtype=np.int64)),
        (["mean", "c64", "--axis", "-1", "--keepdims"], d["c64"].mean(axis=-1, keepdims=True)),
        (["prod", "c128", "--axis", "0"], d["c128"].prod(axis=0)),
        (["argmax", "u8", "--axis", "1"], d["u8"].argmax(axis=1)),
        (["all", "b", "--axis", "0", "--axis", "1"], d["b"].all()),
        (["sum", "e"], d["e"].sum()),
        (["prod", "e"], d["e"].prod()),
        (["any", "e"], d["e"].any()),
        (["all", "e"], d["e"].all()),
        (["sum", "e", "--axis", "0"], d["e"].sum(axis=0)),
        (["add", "e", "e"], d["e"] + d["e"]),
    ]
    for args, want in cases:
        argv = [args[0]] + [path.get(a, a) for a in args[1:]] + ["-o", out]
        if os.path.exists(out):
            os.remove(out)
        rc, err = run(accel, argv)
        if rc != 0:
            check(" ".join(args), False, err)
            continue
        got = np.load(out)
        want = np.asarray(want)
        same = got.dtype == want.dtype and got.shape == want.shape
        close = same and np.allclose(got, want, rtol=2e-3 if want.dtype == np.float16 else 1e-5,
                                     equal_nan=True)
        check(" ".join(args), close, f"{got.dtype}{got.shape} vs {want.dtype}{want.shape}")
        check(" ".join(args) + " names the device", "ran on" in err, err)
    rc, err = run(accel, ["exp", path["c128"], "-o", out, "--verify"])
    check("--verify", rc == 0 and "verify mode" in err, err)
    bad = [
        (["nosuch", path["i16"]], 2, "unknown function"),
        (["add", path["i16"]], 2, "takes 2 input files"),
        (["exp", path["i16"], "--axis", "0"], 2, "for reductions"),
        (["max", path["c64"]], 1, "does not take c64"),
        (["bitwise_and", path["f32c"], path["f32c"]], 1, "bitwise_and takes"),
        (["sum", path["i16"], "--axis", "5"], 1, "--axis 5"),
        (["sum", path["i16"], "--axis", "0", "--axis", "-2"], 1, "repeats axis 0"),
        (["sum", path["i16"], "--axis", " 1"], 2, "is not an axis"),
        (["max", path["e"]], 1, "no identity"),
    ]
    for args, code, text in bad:
        if os.path.exists(out):
            os.remove(out)
        rc, err = run(accel, args + ["-o", out])
        check("bad: " + " ".join(os.path.basename(a) for a in args),
              rc == code and text in err and not os.path.exists(out), f"rc {rc}: {err}")
    print("%d failure(s)" % len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
