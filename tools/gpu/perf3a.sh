#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# Mid-way H200 figures for the perf3a branch (run from the repository root on the GPU machine,
# after build-gpu is built with -DACCEL_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release).
# About 100 s: the random-number tests against the CPU (single-precision normal, both store paths),
# the bench rows for relu, exp and the random fills, the kernel-shape probe (bench/ew_probe.cu:
# write-only ceilings, relu/exp and Philox variants, 7 interleaved rounds), and ncu's
# SpeedOfLight on the probe's f32 normal kernel.
set -u
B=${B:-build-gpu}
if [ -f .gpu/libs.tar.xz ]; then
    mkdir -p /tmp/libs && tar xJf .gpu/libs.tar.xz -C /tmp/libs && rm -f /tmp/libs/libaccel.so*
    export LD_LIBRARY_PATH=/tmp/libs:${LD_LIBRARY_PATH:-}
fi
echo "== tests: rng, philox, ops (every device), cuda/random*"
timeout 20 $B/bin/test_rng --verbose 2>&1 | grep -E "KS D|worst|Synthesis|assert|fail" | head -20
timeout 10 $B/bin/test_philox 2>&1 | tail -1
timeout 30 $B/bin/test_ops 2>&1 | tail -2
timeout 30 $B/bin/test_cuda --verbose --filter 'cuda/random*' 2>&1 | grep -E "normal: largest|Synthesis|assert|fail|skipped" | head -10
echo "== probe (2^28 f32, 7 rounds)"
timeout 25 $B/bin/ew_probe --log2n 28 --rounds 7 2>&1 | tail -60
echo "== bench (3 repeats), rows relu exp random copy"
timeout 45 $B/bin/accel bench --device cuda:0 --no-progress --repeats 3 2>&1 |
    grep -E "^\s+copy |relu|exp |random|PASS|MISS" | head -40
if command -v ncu > /dev/null; then
    echo "== ncu SpeedOfLight: the probe's f32 normal kernel (2^24 f32)"
    timeout 15 ncu --section SpeedOfLight --section Occupancy -k "regex:normal_new" --launch-count 1 \
        $B/bin/ew_probe --log2n 24 --rounds 1 2>&1 |
        grep -E "normal_new|Duration|DRAM Throughput|Compute \(SM\)|Achieved Occ|Registers Per" | head -8
fi
