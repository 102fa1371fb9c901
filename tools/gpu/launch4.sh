#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# H200 figures of the launch4 round (run from the repository root on the GPU machine after
# build-gpu is built with CUDA on; B=DIR names another build; about 60 s, 100 s at most): where the host time of
# a user-kernel launch goes, and why its level moves from process to process.
#  1. launch_diag (bench/launch_diag.cu) in 4 separate processes, each timing in interleaved
#     rounds raw cuLaunchKernel of the NVRTC cubin (kernelParams; a module's function; packed
#     `extra`; 3 more library loads of the same cubin), the built-in axpby kernel's own launch,
#     accel_axpby and accel_kernel_launch, in batches of 20000 and of 200 launches, plus device
#     time per kernel.
#  2. The same (forms a, c, d, e) with address-space randomisation off (setarch -R) and the
#     environment padded by 0, 1000, 2000, 3000 bytes, twice each: if the level follows the
#     stack's placement it repeats per padding and moves with it.
#  3. kernel_bench's launch row twice.
set -u
B=${B:-build-gpu}
# The libraries packed for the GPU machine (pack-libs.sh), as tools/gpu_checks.sh uses them.
if [ -f .gpu/libs.tar.xz ]; then
    mkdir -p /tmp/libs && tar xJf .gpu/libs.tar.xz -C /tmp/libs &&
        export LD_LIBRARY_PATH=/tmp/libs:${LD_LIBRARY_PATH:-}
    rm -f /tmp/libs/libaccel.so* 2> /dev/null
fi
[ -x "$B"/bin/launch_diag ] || cmake --build "$B" --target launch_diag -j 16 > /dev/null 2>&1
echo "== uptime"; uptime
for r in 1 2 3 4; do
    echo "== launch_diag, process $r"
    timeout 12 "$B"/bin/launch_diag --device cuda:0 --rounds 7 --reps 20000 --small 200 \
        --copies 3 2>&1
done
for pad in 0 1000 2000 3000; do
    for r in 1 2; do
        echo "== launch_diag --forms a,c,d,e, ASLR off, environment padded by $pad bytes, run $r"
        PAD=$(head -c "$pad" /dev/zero | tr '\0' x) timeout 5 setarch "$(uname -m)" -R \
            "$B"/bin/launch_diag --device cuda:0 --rounds 7 --reps 10000 --small 200 \
            --forms a,c,d,e --device-rows 0 2>&1 | sed -n '/^batches of 10000/,/^batches of 200/p'
    done
done
for r in 1 2; do
    echo "== kernel_bench --device cuda:0 --quick --n 1048576, run $r (launch rows)"
    timeout 10 "$B"/bin/kernel_bench --device cuda:0 --quick --n 1048576 2>&1 |
        sed -n '/^launches/,/spread/p;/result check/p'
done
