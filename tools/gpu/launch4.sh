#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# H200 figures of the launch4 round (run from the repository root on the GPU machine after
# build-gpu is built with CUDA on; B=DIR names another build; about 80 s): where the host time of
# a user-kernel launch goes. launch_diag (bench/launch_diag.cu) in 5 separate processes, each
# timing in interleaved rounds raw cuLaunchKernel of the NVRTC cubin (kernelParams, packed
# `extra`), the built-in axpby kernel's own launch, accel_axpby and accel_kernel_launch; then 2
# more with address-space randomisation off (does the per-process level follow the layout?);
# then kernel_bench's launch row twice.
set -u
B=${B:-build-gpu}
[ -x "$B"/bin/launch_diag ] || cmake --build "$B" --target launch_diag -j 16 > /dev/null 2>&1
echo "== uptime"; uptime
for r in 1 2 3 4 5; do
    echo "== launch_diag, process $r"
    timeout 10 "$B"/bin/launch_diag --device cuda:0 --rounds 9 --reps 20000 --small 200 2>&1
done
for r in 1 2; do
    echo "== launch_diag, process $r with ASLR off (setarch -R)"
    timeout 10 setarch "$(uname -m)" -R "$B"/bin/launch_diag --device cuda:0 --rounds 9 \
        --reps 20000 --small 200 2>&1 | sed -n '1,/^ per-round/p;/e - d/p;/e - a/p;/d - c/p'
done
for r in 1 2; do
    echo "== kernel_bench --device cuda:0 --quick --n 1048576, run $r (launch rows)"
    timeout 10 "$B"/bin/kernel_bench --device cuda:0 --quick --n 1048576 2>&1 |
        sed -n '/^launches/,/spread/p;/result check/p'
done
