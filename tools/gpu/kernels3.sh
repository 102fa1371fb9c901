#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# H200 checks of the kernels3 round (run from the repository root on the GPU machine after
# build-gpu is built with CUDA on; B=DIR names another build; about 60 s at most): the CUDA
# user-kernel tests (launches through cuLaunchKernel with a cached CUfunction; multi-block
# reductions bit-equal to the CPU and run to run), kernel_bench's launch row twice (median of 9
# interleaved rounds of user kernel vs accel_axpby, with the spread), and one full-size run for
# the elementwise and reduction rows (2^28 f32).
set -u
B=${B:-build-gpu}
echo "== test_kernel_cuda"
timeout 22 "$B"/bin/test_kernel_cuda --jobs 1 2>&1 | tail -8
for r in 1 2; do
    echo "== kernel_bench --device cuda:0 --quick --n 1048576, run $r (launch rows)"
    timeout 10 "$B"/bin/kernel_bench --device cuda:0 --quick --n 1048576 2>&1 |
        sed -n '/^launches/,/spread/p;/result check/p'
done
echo "== kernel_bench --device cuda:0 --quick (2^28 f32: throughput and reduction rows)"
timeout 16 "$B"/bin/kernel_bench --device cuda:0 --quick 2>&1 | sed -n '/^throughput/,$p'
