#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# Mid-way H200 figures for the perf3b branch (run from the repository root on the GPU machine,
# after build-gpu is built with -DACCEL_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release).
# About 100 s: the batched 100M-float sum under a 64 MiB cap with its ceilings (pinned DMA, host
# memcpy on 1..cores threads), again with [backend.cuda] copy_threads = 4, 8, 12, 16 and with
# fixed chunk sizes; then bench/peers.py's interleaved rounds (small-op host time accel C / CuPy,
# GEMM f64 10000 accel / direct cuBLAS routes on the same arrays), with the batch tests and the
# overlap example (accel_batch_run's feeder thread).
set -u
B=${B:-build-gpu}
if [ -f .gpu/libs.tar.xz ]; then
    mkdir -p /tmp/libs && tar xJf .gpu/libs.tar.xz -C /tmp/libs && rm -f /tmp/libs/libaccel.so*
    export LD_LIBRARY_PATH=/tmp/libs:${LD_LIBRARY_PATH:-}
fi
echo "== host: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== batched 100M floats, 64 MiB cap (default copy threads)"
timeout 25 $B/bin/batched --device cuda:0 --n 100000000 --mem-cap 64M 2>&1 | grep -v "^check\|^one shot"
# A plugins.ini of the build with copy_threads = N under [backend.cuda] (absolute library paths).
ini() {
    local dir
    dir=$(cd $B/lib/accel && pwd)
    sed -e "s|^library = \(lib[^ ]*\)|library = $dir/\1|" \
        -e "s|^\[backend.cuda\]|[backend.cuda]\ncopy_threads = $1|" $dir/plugins.ini > /tmp/perf3b-$1.ini
    echo /tmp/perf3b-$1.ini
}
for t in 4 8 12 16; do
    echo "== batched, copy_threads = $t"
    ACCEL_CONFIG=$(ini $t) timeout 20 $B/bin/batched --device cuda:0 --n 100000000 --mem-cap 64M 2>&1 |
        grep -E "^pageable|^registered|FAIL|rror"
done
for c in 4194304 7000000; do
    echo "== batched, --chunk $c floats, 2 queues"
    timeout 20 $B/bin/batched --device cuda:0 --n 100000000 --mem-cap 64M --chunk $c --queues 2 2>&1 |
        grep -E "^pageable|^registered|FAIL|rror"
done
echo "== ctest batch (cuda devices included)"
timeout 30 ctest --test-dir $B -R '^batch$' --output-on-failure 2>&1 | tail -6
echo "== overlap 2^27, 16 chunks, 2 queues; overlap 10M default (both also through accel_batch_run)"
timeout 15 $B/bin/overlap --device cuda:0 --n 134217728 --chunks 16 --queues 2 2>&1 | tail -4
timeout 15 $B/bin/overlap --device cuda:0 2>&1 | tail -4
echo "== peers.py interleaved rounds (small-op, GEMM f64 10000)"
timeout 60 python3 bench/peers.py --rounds-only --accel $B/bin/accel --device cuda:0 2>&1 | tail -25
