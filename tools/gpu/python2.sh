#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# Mid-way H200 figures of the Python package: where a small op's host time goes on cuda:0
# and on this host's CPU device (the same Python on the same host: a gap seen on both is the
# host's, not the device's), the user-kernel tests and the tutorial's kernel examples on the GPU.
# Run from the repository root after build-gpu is built (COMMON brief); under 60 s.
set -u
B=${B:-build-gpu}
PY=${PY:-python3}
if [ -f .gpu/libs.tar.xz ]; then  # the libraries packed for the GPU machine, as tools/gpu_checks.sh
  mkdir -p /tmp/libs && tar xJf .gpu/libs.tar.xz -C /tmp/libs && rm -f /tmp/libs/libaccel.so*
  export LD_LIBRARY_PATH=/tmp/libs:${LD_LIBRARY_PATH:-}
fi
export PYTHONPATH=$PWD/python ACCEL_LIBRARY=$PWD/$B/lib/libaccel.so
nvidia-smi -L 2>&1 | head -2
lscpu 2>/dev/null | grep -E 'Model name|^CPU\(s\)|MHz' | head -4
echo "== overhead by layer, cuda:0"
timeout 14 $PY python/bench/overhead_parts.py --device cuda:0 --iters 10000 --runs 5 --profile 2>&1 | head -40
echo "== overhead by layer, cpu (same host)"
timeout 10 $PY python/bench/overhead_parts.py --device cpu --iters 10000 --runs 5 2>&1 | tail -10
echo "== user kernels from Python (cpu and cuda:0)"
timeout 22 $PY -m pytest -q -p no:cacheprovider python/tests/test_kernels.py 2>&1 | tail -6
echo "== tutorial kernels"
for e in 04_numba_kernel 05_pycuda_multiply; do
  (cd examples/python && timeout 6 $PY $e.py --device cuda:0 2>&1 | tail -4)
done
