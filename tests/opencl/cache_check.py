# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""The OpenCL op program goes through the core's compiled-code cache (the host
services' cache_get and cache_put): a first process builds it and leaves one
entry in an empty cache folder, a second loads it from there, a third finds
the entry corrupted, says so and builds again. Every run's f32 add on
opencl:0 must equal NumPy's. PoCL's own cache (POCL_CACHE_DIR) is emptied
before each run, so the second run's speed is accel's cache alone.

usage: cache_check.py ACCEL CONFIG WORKDIR"""
import glob
import os
import shutil
import subprocess
import sys
import time

import numpy as np

LOADED = "op program loaded from the kernel cache"
CORRUPT = "a corrupt or stale entry is rebuilt"


def fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path, mode=0o700)


def run(accel, config, work, label):
    """One process: accel run add on opencl:0; its log and wall time."""
    a = np.arange(1, 1002, dtype=np.float32) / 7
    b = np.linspace(-3, 3, 1001, dtype=np.float32)
    pa, pb, po = (os.path.join(work, f"cache_{n}.npy") for n in "abo")
    np.save(pa, a)
    np.save(pb, b)
    fresh(os.path.join(work, "pocl_cache"))
    env = dict(os.environ, ACCEL_KERNEL_CACHE=os.path.join(work, "op_cache"), ACCEL_LOG="info",
               POCL_CACHE_DIR=os.path.join(work, "pocl_cache"))
    t0 = time.monotonic()
    p = subprocess.run([accel, "run", "add", pa, pb, "-o", po, "--device", "opencl:0",
                        "--config", config], capture_output=True, text=True, env=env,
                       check=False)
    dt = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit(f"{label}: accel run add failed ({p.returncode}): {p.stderr}")
    got = np.load(po)
    if "ran on opencl:0" not in p.stderr:
        sys.exit(f"{label}: the add did not run on opencl:0: {p.stderr}")
    if got.dtype != np.float32 or not np.array_equal(got, a + b):
        sys.exit(f"{label}: the result differs from NumPy's a + b")
    print(f"{label}: {dt:.2f} s, equal to NumPy")
    return p.stderr


def entries(work):
    return sorted(glob.glob(os.path.join(work, "op_cache", "*.akc")))


def main():
    accel, config, work = sys.argv[1:4]
    fresh(os.path.join(work, "op_cache"))
    log = run(accel, config, work, "first run (empty cache: builds)")
    if LOADED in log:
        sys.exit(f"first run: loaded from an empty cache?\n{log}")
    first = entries(work)
    if len(first) != 1:
        sys.exit(f"first run: expected one cache entry, found {first}\n{log}")
    log = run(accel, config, work, "second run (loads)")
    if LOADED not in log:
        sys.exit(f"second run: expected '{LOADED}' in:\n{log}")
    if entries(work) != first:
        sys.exit(f"second run: the entries changed: {entries(work)}")
    with open(first[0], "r+b") as f:  # flip the last byte of the payload
        f.seek(-1, os.SEEK_END)
        last = f.read(1)
        f.seek(-1, os.SEEK_END)
        f.write(bytes([last[0] ^ 0xFF]))
    log = run(accel, config, work, "third run (corrupt entry: builds again)")
    if CORRUPT not in log or LOADED in log:
        sys.exit(f"third run: expected '{CORRUPT}' and a build in:\n{log}")
    log = run(accel, config, work, "fourth run (the rewritten entry loads)")
    if LOADED not in log:
        sys.exit(f"fourth run: expected '{LOADED}' in:\n{log}")


main()
