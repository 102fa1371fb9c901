#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# Mid-way H200 figures of user kernels (run from the repository root on the GPU machine, after
# build-gpu is built with CUDA on): the CUDA user-kernel tests (vector and element paths, every
# dtype, against the CPU twin), then kernel_bench with the cold-build phases and the elementwise
# bandwidth against device copy.
set -u
B=${B:-build-gpu}
echo "== test_kernel_cuda"
timeout 120 "$B"/bin/test_kernel_cuda --jobs 1 2>&1 | tail -15
echo "== kernel_bench --device cuda:0"
timeout 120 "$B"/bin/kernel_bench --device cuda:0 2>&1
echo "== kernel_bench --device cuda:0 --n 268435457 (odd n: the tail path)"
timeout 60 "$B"/bin/kernel_bench --device cuda:0 --n 268435457 2>&1 | sed -n '/throughput/,$p'
