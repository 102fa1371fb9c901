#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# H200 checks of the kernels3 round (run from the repository root on the GPU machine after
# build-gpu is built with CUDA on; B=DIR names another build; under 60 s): the CUDA user-kernel
# tests (the launch now goes through cuLaunchKernel with a cached CUfunction), and kernel_bench's
# launch row three times (median of 9 interleaved rounds of user kernel vs accel_axpby, spread).
set -u
B=${B:-build-gpu}
echo "== test_kernel_cuda"
timeout 25 "$B"/bin/test_kernel_cuda --jobs 1 2>&1 | tail -8
for r in 1 2 3; do
    echo "== kernel_bench --device cuda:0 --quick --n 1048576, run $r (launch rows)"
    timeout 11 "$B"/bin/kernel_bench --device cuda:0 --quick --n 1048576 2>&1 |
        sed -n '/^launches/,/spread/p;/result check/p'
done
