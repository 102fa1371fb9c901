#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# graphs2 mid-way H200 figures: graph replay (unfused, fused), host launch
# cost, the fused 8-op chain and a*b+c over 2^28 f32, the raw CUDA graph
# baseline and graph_solver (under 60 s). Run from the repository root after build-gpu is built.
set -u
B=build-gpu/bin
echo "== graph_bench cuda:0 (100 adds, 1024 elements; chains over 2^28)"
timeout 25 "$B/graph_bench" --device cuda:0 --n 1024 --ops 100 --reps 500 \
    --chain-n 268435456 --chain-reps 5 2>&1
echo "rc=$?"
echo "== graph_raw_cuda (the raw CUDA graph of the same 100 adds; accel's replay target <= 1.05x)"
timeout 10 "$B/graph_raw_cuda" --n 1024 --ops 100 --reps 500 2>&1
echo "== graph_bench cuda:0 --core"
timeout 8 "$B/graph_bench" --device cuda:0 --n 1024 --ops 100 --reps 200 --core 2>&1
echo "rc=$?"
echo "== graph_solver cuda:0"
timeout 15 "$B/graph_solver" --device cuda:0 2>&1 | tail -6
