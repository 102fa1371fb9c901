#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Checks `accel run --verify --time` from NumPy: NumPy writes inputs, accel
computes (also on the CPU, for --verify) and times the op, NumPy checks the
result against its float64 result and the report lines on stderr.

usage: verify_time_check.py ACCEL_BINARY TMPDIR [--device NAME] [--seed N]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("accel")
    ap.add_argument("tmpdir")
    ap.add_argument("--device", default=None)
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    print(f"verify_time_check: seed {seed} (rerun with --seed {seed})")
    rng = np.random.default_rng(seed)
    os.makedirs(args.tmpdir, exist_ok=True)
    d = tempfile.mkdtemp(prefix="verify_", dir=args.tmpdir)
    a = rng.random((130, 70)).astype(np.float32)
    b = rng.random((70, 90)).astype(np.float32)
    x = rng.standard_normal(100003)
    cases = [  # op, inputs, float64 reference, tolerance on the result, words in the verify line
        ("matmul", [a, b], a.astype(np.float64) @ b, 4 * 72 * 2**-24 * (np.abs(a) @ np.abs(b)), "Higham 2002 3.5"),
        ("sum", [x], np.sum(x), 4 * x.size * 2**-53 * np.sum(np.abs(x)), "Higham 2002 4.2"),
        ("tanh", [x], np.tanh(x), 8 * np.spacing(np.abs(np.tanh(x))), "ulp"),
        ("multiply", [x, x[::-1].copy()], x * x[::-1], 0.0, "exact"),
    ]
    failed = 0
    for op, ins, ref, tol, rule in cases:
        paths = []
        for i, arr in enumerate(ins):
            paths.append(os.path.join(d, f"{op}_{i}.npy"))
            np.save(paths[-1], arr)
        out = os.path.join(d, f"{op}_out.npy")
        cmd = [args.accel, "run", op, *paths, "-o", out, "--verify", "--time"]
        if args.device:
            cmd += ["--device", args.device]
        p = subprocess.run(cmd, capture_output=True, text=True)
        why = None
        if p.returncode != 0:
            why = f"exit {p.returncode}: {p.stderr.strip()}"
        elif not re.search(rf"accel: {op} took [0-9.]+ ms on \S+", p.stderr):
            why = f"no time line in {p.stderr!r}"
        elif not re.search(r"accel: verify: .*(PASS)$", p.stderr, re.M) or rule not in p.stderr:
            why = f"no passing verify line naming '{rule}' in {p.stderr!r}"
        else:
            got = np.load(out).astype(np.float64)
            err = np.abs(got - ref)
            if not np.all(err <= tol):
                why = f"largest error {err.max():.3g} exceeds the NumPy tolerance"
        print(f"{'FAIL' if why else 'ok  '} run {op} --verify --time" + (f": {why}" if why else ""))
        failed += why is not None
    # Usage: --verify takes no value; an unknown flag is still an error.
    p = subprocess.run([args.accel, "run", "sum", paths[0], "-o", out, "--verify=yes"],
                       capture_output=True, text=True)
    if p.returncode != 2:
        print(f"FAIL --verify=yes: exit {p.returncode}, expected 2")
        failed += 1
    print(f"{len(cases) + 1 - failed} passed, {failed} failed (seed {seed})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
