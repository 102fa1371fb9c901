#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# fuse4 mid-way H200 figures (under 90 s): the fused 8-op chain and a*b+c over
# 2^28 f32 against a device copy of the same bytes and the unfused replay (7
# interleaved rounds), the raw kernels of the same chain, the 100-add replay
# against the raw CUDA graph (7 interleaved rounds), ncu's instruction and
# DRAM figures of the generated kernel and the raw one over 2^24, accel
# bench's graph rows, and the GPU tests of the generated elementwise code.
# Run from the repository root after build-gpu is built.
set -u
B=${B:-build-gpu}/bin
if [ -f .gpu/libs.tar.xz ]; then
    mkdir -p /tmp/libs && tar xJf .gpu/libs.tar.xz -C /tmp/libs &&
        export LD_LIBRARY_PATH=/tmp/libs:${LD_LIBRARY_PATH:-}
    rm -f /tmp/libs/libaccel.so* 2>/dev/null
fi
echo "== graph_bench cuda:0, chains over 2^28 (targets: 8-op chain copy bound / fused >= 0.95, unfused / fused >= 6)"
timeout 25 "$B/graph_bench" --device cuda:0 --n 1024 --ops 100 --reps 300 \
    --chain-n 268435456 --chain-reps 10 2>&1
echo "rc=$?"
echo "== graph_raw_cuda --accel cuda:0 --chain-n 2^28 (100 adds: accel / raw <= 1.05; raw chain layouts)"
timeout 25 "$B/graph_raw_cuda" --n 1024 --ops 100 --reps 300 --accel cuda:0 \
    --chain-n 268435456 2>&1 | tail -18
echo "rc=$?"
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M=smsp__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,gpu__time_duration.sum,launch__grid_size
if [ -x "$NCU" ]; then
    echo "== ncu over 2^24: accel's fused 8-op chain, then graph_raw_cuda's chain_kernel<1>, <2>, <4>"
    { timeout 25 "$NCU" --metrics $M -k regex:accel_ew_fused_mul_add_tanh --launch-count 1 \
        "$B/graph_bench" --device cuda:0 --n 1024 --ops 2 --reps 2 --chain-n 16777216 --chain-reps 1
      timeout 20 "$NCU" --metrics $M -k regex:chain_kernel --launch-count 3 \
        "$B/graph_raw_cuda" --reps 2 --chain-n 16777216; } 2>&1 | grep -v '^==PROF==' |
        grep -E 'accel_ew|chain_kernel|inst_executed|dram__|registers|duration|grid_size'
fi
echo "== accel bench --quick, the graph rows (replay: median of 7 interleaved rounds, target <= 110 us)"
timeout 60 "$B/accel" bench --device cuda:0 --quick --no-progress 2>&1 | grep -E 'graph|chain|a\*b'
for t in test_graph_cuda test_kernel_cuda test_graph test_fuse test_kernel; do
    echo "== $t"
    timeout 30 "$B/$t" 2>&1 | tail -3
done
