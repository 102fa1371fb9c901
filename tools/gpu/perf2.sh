#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# Mid-way H200 figures for the perf2 branch (run from the repository root on the GPU machine,
# after build-gpu is built with -DACCEL_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release).
# About 60 s: correctness of the changed CUDA kernels (rng, philox, ops, batch tests against the
# CPU), the bench rows (elementwise and random vs copy, dispatch), the batched sum of 100M floats
# under a 64 MiB cap, and the overlap example with 2 queues, 4 queues and the helper's choice.
set -u
B=${B:-build-gpu}
if [ -f .gpu/libs.tar.xz ]; then
    mkdir -p /tmp/libs && tar xJf .gpu/libs.tar.xz -C /tmp/libs && rm -f /tmp/libs/libaccel.so*
    export LD_LIBRARY_PATH=/tmp/libs:${LD_LIBRARY_PATH:-}
fi
echo "== ctest rng philox ops batch (cuda devices included)"
timeout 25 ctest --test-dir $B -R '^(rng|philox|ops|batch)$' --output-on-failure 2>&1 | tail -8
echo "== bench (3 repeats)"
timeout 50 $B/bin/accel bench --device cuda:0 --no-progress --repeats 3 2>&1 |
    grep -E "copy |add loop|bare launch|host->device|2\^28|dispatch|PASS|MISS" | head -60
echo "== batched 100M floats, 64 MiB cap"
timeout 20 $B/bin/batched --device cuda:0 --n 100000000 --mem-cap 64M 2>&1
echo "== overlap 2^27, 16 chunks, 2 queues"
timeout 10 $B/bin/overlap --device cuda:0 --n 134217728 --chunks 16 --queues 2 2>&1 | tail -7
echo "== overlap 10M, default (16 chunks, 4 queues)"
timeout 10 $B/bin/overlap --device cuda:0 2>&1 | tail -7
echo "== overlap 10M, 2 queues"
timeout 10 $B/bin/overlap --device cuda:0 --queues 2 2>&1 | tail -7
echo "== small-op host time: CuPy (bench/peers.py's measure) against accel's dispatch row above"
timeout 20 python3 -c "import sys; sys.path.insert(0, 'bench'); import peers; print('cupy us per cp.add of 1 element: %.3f' % peers.CupyPeer().dispatch_us())" 2>&1 | tail -2
