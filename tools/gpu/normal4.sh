#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# Mid-way H200 figures for the normal4 branch (run from the repository root on the GPU machine,
# after build-gpu is built with -DACCEL_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release).
# About 60 s: the random-number tests, the probe's f32 normal rows (bench/ew_probe.cu: the
# backend's shape and leaner forms of the same formula, 2 or 4 counters per thread, software
# pipelining, Philox and Box-Muller alone; 9 interleaved rounds with the spread; then the
# exhaustive accuracy of r and cos/sin on this GPU and whole outputs against the formula),
# `accel bench`'s random and copy rows, and ncu's scheduler and pipe view of four probe kernels.
set -u
B=${B:-build-gpu}
if [ -f .gpu/libs.tar.xz ]; then
    mkdir -p /tmp/libs && tar xJf .gpu/libs.tar.xz -C /tmp/libs && rm -f /tmp/libs/libaccel.so*
    export LD_LIBRARY_PATH=/tmp/libs:${LD_LIBRARY_PATH:-}
fi
echo "== tests: rng, philox, cuda/random*"
timeout 20 $B/bin/test_rng --verbose 2>&1 | grep -E "KS D|worst|Synthesis|assert|fail" | head -20
timeout 10 $B/bin/test_philox 2>&1 | tail -1
timeout 30 $B/bin/test_cuda --verbose --filter 'cuda/random*' 2>&1 |
    grep -E "normal: largest|Synthesis|assert|fail|skipped" | head -10
echo "== probe: f32 normal rows (2^28, 9 rounds) and accuracy"
timeout 30 $B/bin/ew_probe --log2n 28 --rounds 9 --only "normal|uniform: new loop, __umulhi (backend)" 2>&1 |
    tail -50
echo "== bench (3 repeats): copy and random rows"
timeout 35 $B/bin/accel bench --device cuda:0 --no-progress --repeats 3 2>&1 |
    grep -E "^\s+copy |random" | head -20
if command -v ncu > /dev/null; then
    echo "== ncu (2^24): previous backend's bits, lean sqrt.approx + fma, pipelined, Philox alone"
    timeout 25 ncu --section SpeedOfLight --section Occupancy --section SchedulerStats \
        --section WarpStateStats --section ComputeWorkloadAnalysis --kernel-name-base mangled \
        -k "regex:normal_leanILi0ELi0ELi1ELi8E|normal_leanILi1ELi1ELi1ELi8E|normal_pipeILi1ELi1ELi8E|philox_only" \
        --launch-count 4 $B/bin/ew_probe --log2n 24 --rounds 1 --check 0 \
        --only "lean (previous backend's bits: fold|lean + sqrt.approx + fma|pipelined sqrt.approx + fma|Philox only" 2>&1 |
        grep -E "normal_|philox_only|Duration|SM Frequency|Elapsed Cycles|DRAM Throughput|Compute \(SM\)|Achieved Occ|Registers Per|Issued Warp|No Eligible|Eligible Warps|Warp Cycles Per Issued|highest-utilized|pipeline|stalled|Executed Ipc A" |
        sed -E 's/^ +/  /' | cut -c1-200 | head -90
    echo "== ncu metrics (2^24): pipes and stall reasons, same four kernels"
    M=sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active
    M=$M,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
    M=$M,sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_active
    M=$M,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active
    M=$M,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active
    M=$M,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active
    M=$M,sm__pipe_xu_cycles_active.avg.pct_of_peak_sustained_active
    M=$M,smsp__issue_active.avg.pct_of_peak_sustained_active
    for r in math_pipe_throttle wait short_scoreboard not_selected long_scoreboard dispatch_stall; do
        M=$M,smsp__warp_issue_stalled_${r}_per_warp_active.pct
    done
    timeout 20 ncu --metrics $M --kernel-name-base mangled \
        -k "regex:normal_leanILi0ELi0ELi1ELi8E|normal_leanILi1ELi1ELi1ELi8E|normal_pipeILi1ELi1ELi8E|philox_only" \
        --launch-count 4 $B/bin/ew_probe --log2n 24 --rounds 1 --check 0 \
        --only "lean (previous backend's bits: fold|lean + sqrt.approx + fma|pipelined sqrt.approx + fma|Philox only" 2>&1 |
        grep -E "normal_|philox_only|pct|ERROR" | sed -E 's/^ +/  /' | cut -c1-200 | head -80
fi
