# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""An f64 op asked of an OpenCL device without double precision runs on the
CPU fallback and gives NumPy's answer; an f32 op stays on the device.

usage: fallback_check.py ACCEL CONFIG WORKDIR"""
import os
import subprocess
import sys

import numpy as np


def run(accel, config, op, inputs, out):
    p = subprocess.run([accel, "run", op, *inputs, "-o", out, "--device", "opencl:0",
                        "--config", config], capture_output=True, text=True, check=False)
    if p.returncode != 0:
        sys.exit(f"accel run {op} failed ({p.returncode}): {p.stderr}")
    return p.stderr


def main():
    accel, config, work = sys.argv[1:4]
    rng = np.random.default_rng(29)
    print("seed 29")
    for dtype, where in ((np.float64, "ran on cpu:0"), (np.float32, "ran on opencl:0")):
        a, b = rng.standard_normal(1001).astype(dtype), rng.standard_normal(1001).astype(dtype)
        pa, pb, po = (os.path.join(work, f"fb_{n}_{dtype.__name__}.npy") for n in "abo")
        np.save(pa, a)
        np.save(pb, b)
        err = run(accel, config, "add", [pa, pb], po)
        got = np.load(po)
        if where not in err:
            sys.exit(f"{dtype.__name__}: expected '{where}' in: {err}")
        if got.dtype != dtype or not np.array_equal(got, a + b):
            sys.exit(f"{dtype.__name__}: result differs from NumPy's a + b")
        print(f"{dtype.__name__}: {where}, equal to NumPy")


main()
