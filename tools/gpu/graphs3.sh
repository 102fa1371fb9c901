#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# graphs3 mid-way H200 figures (under 60 s): accel's unfused replay of 100
# dependent 1024-element adds against the raw CUDA graph in interleaved rounds,
# the backend graph's node count (graph_bench), the fused chains, the raw
# layouts of the fused 8-op chain, and the small-size kernel's shape under ncu.
# Run from the repository root after build-gpu is built.
set -u
B=${B:-build-gpu}/bin
if [ -f .gpu/libs.tar.xz ]; then
    mkdir -p /tmp/libs && tar xJf .gpu/libs.tar.xz -C /tmp/libs &&
        export LD_LIBRARY_PATH=/tmp/libs:${LD_LIBRARY_PATH:-}
    rm -f /tmp/libs/libaccel.so* 2>/dev/null
fi
echo "== graph_raw_cuda --accel cuda:0 (100 adds, 1024 elements; target accel / raw <= 1.05, accel <= 110 us)"
timeout 15 "$B/graph_raw_cuda" --n 1024 --ops 100 --reps 300 --accel cuda:0 2>&1
echo "rc=$?"
echo "== graph_bench cuda:0 (node count of the backend graph; chains over 2^28)"
timeout 20 "$B/graph_bench" --device cuda:0 --n 1024 --ops 100 --reps 300 \
    --chain-n 268435456 --chain-reps 7 2>&1
echo "rc=$?"
echo "== graph_raw_cuda --chain-n 2^28 (raw layouts of the fused 8-op chain)"
timeout 15 "$B/graph_raw_cuda" --n 1024 --ops 100 --reps 20 --chain-n 268435456 2>&1 | tail -9
echo "rc=$?"
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
if [ -x "$NCU" ]; then
    echo "== ncu: graph_bench's first kernels (small_map_kernel expected for 1024 elements)"
    timeout 25 "$NCU" --metrics gpu__time_duration.sum,launch__grid_size,launch__registers_per_thread \
        --launch-count 3 "$B/graph_bench" --device cuda:0 --n 1024 --ops 100 --reps 2 2>&1 |
        grep -v '^==PROF==' | grep -E 'kernel|duration|grid_size|registers' | head -12
fi
echo "== test_graph_cuda (node count by type; small and large elementwise paths against a host loop)"
timeout 40 "$B/test_graph_cuda" 2>&1 | tail -4
