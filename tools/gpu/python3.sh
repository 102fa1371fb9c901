#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# Mid-way H200 figures of the Python package: python/bench/overhead.py on cuda:0 (small op,
# x + y end to end, 1 GiB pinned and 256 MiB pageable transfers against C in the same process)
# and on this host's CPU device (the same Python on the same host), then the GPU interop tests.
# Run from the repository root after build-gpu is built (COMMON brief); under 60 s.
set -u
B=${B:-build-gpu}
PY=${PY:-python3}
if [ -f .gpu/libs.tar.xz ]; then  # the libraries packed for the GPU machine, as tools/gpu_checks.sh
  mkdir -p /tmp/libs && tar xJf .gpu/libs.tar.xz -C /tmp/libs && rm -f /tmp/libs/libaccel.so*
  export LD_LIBRARY_PATH=/tmp/libs:${LD_LIBRARY_PATH:-}
fi
export PYTHONPATH=$PWD/python ACCEL_LIBRARY=$PWD/$B/lib/libaccel.so
lscpu 2>/dev/null | grep -E 'Model name|^CPU\(s\)|MHz' | head -4
echo "== overhead.py, cuda:0"
timeout 25 $PY -u python/bench/overhead.py --device cuda:0 2>&1 | tail -34
echo "== overhead.py, cuda:0, through ctypes (ACCEL_PYTHON_FAST=0)"
ACCEL_PYTHON_FAST=0 timeout 15 $PY -u python/bench/overhead.py --device cuda:0 --no-transfers 2>&1 | tail -14
echo "== overhead.py, cpu (same host)"
timeout 10 $PY -u python/bench/overhead.py --device cpu --iters 10000 --no-transfers 2>&1 | tail -14
echo "== GPU interop tests"
timeout 10 $PY -m pytest -q -p no:cacheprovider python/tests/test_gpu_interop.py python/tests/test_zero_copy.py python/tests/test_streams.py 2>&1 | tail -4
