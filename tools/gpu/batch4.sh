#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# Mid-way H200 figures for the batch4 branch (run from the repository root on the GPU machine,
# after build-gpu is built with -DACCEL_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release).
# About 85 s: the batched 100M-float sum under a 64 MiB cap, each process a first call and warm
# calls (median, min..max, phase breakdown), with its ceilings (pinned DMA, host memcpy on 1..cores
# threads, the same chunks' pageable accel_queue_write alone); with [backend.cuda] copy_threads =
# 4, 8, 12, 16 and the default, with fixed chunk sizes, and the default again at the end; then the
# batch tests and the overlap example; before them a staging experiment with the CUDA runtime
# alone (piece and ring sizes, threads, memcpy or non-temporal stores: tools/gpu/batch4_staging.c).
set -u
B=${B:-build-gpu}
if [ -f .gpu/libs.tar.xz ]; then
    mkdir -p /tmp/libs && tar xJf .gpu/libs.tar.xz -C /tmp/libs && rm -f /tmp/libs/libaccel.so*
    export LD_LIBRARY_PATH=/tmp/libs:${LD_LIBRARY_PATH:-}
fi
echo "== host: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
BAT="$B/bin/batched --device cuda:0 --n 100000000 --mem-cap 64M"
echo "== batched 100M floats, 64 MiB cap (default copy threads), 7 warm calls"
timeout 25 $BAT --repeat 7 2>&1 | grep -v "^one shot"
# A plugins.ini of the build with copy_threads = N under [backend.cuda] (absolute library paths).
ini() {
    local dir
    dir=$(cd $B/lib/accel && pwd)
    sed -e "s|^library = \(lib[^ ]*\)|library = $dir/\1|" \
        -e "s|^\[backend.cuda\]|[backend.cuda]\ncopy_threads = $1|" $dir/plugins.ini > /tmp/batch4-$1.ini
    echo /tmp/batch4-$1.ini
}
keep='^pageable|^registered|first call|warm calls|phases|FAIL|rror'
for t in 4 8 12 16; do
    echo "== batched, copy_threads = $t, 5 warm calls"
    ACCEL_CONFIG=$(ini $t) timeout 20 $BAT --repeat 5 2>&1 | grep -E "$keep"
done
for c in 2097152 4194304 7000000 8388608; do
    echo "== batched, --chunk $c floats, 2 queues, 5 warm calls"
    timeout 20 $BAT --chunk $c --queues 2 --repeat 5 2>&1 | grep -E "$keep"
done
echo "== batched, --chunk 4194304 floats, 3 queues, 5 warm calls"
timeout 20 $BAT --chunk 4194304 --queues 3 --repeat 5 2>&1 | grep -E "$keep"
echo "== batched default again (repeat of the first, for the spread between processes)"
timeout 20 $BAT --repeat 7 2>&1 | grep -E "$keep|^host memcpy"
echo "== staging experiment (tools/gpu/batch4_staging.c: CUDA runtime directly, no accel)"
gcc -O2 -o /tmp/batch4-staging tools/gpu/batch4_staging.c -I/usr/local/cuda/include \
    -L/usr/local/cuda/lib64 -lcudart -lpthread && timeout 30 /tmp/batch4-staging
echo "== ctest batch, cuda (pageable transfers through the new ring copy), examples"
timeout 60 ctest --test-dir $B -R '^batch$|^cuda$|^ops$|example_batched|example_overlap' --output-on-failure 2>&1 | tail -12
echo "== overlap 2^27, 16 chunks, 2 queues; overlap 10M default (both also through accel_batch_run)"
timeout 15 $B/bin/overlap --device cuda:0 --n 134217728 --chunks 16 --queues 2 2>&1 | tail -4
timeout 15 $B/bin/overlap --device cuda:0 2>&1 | tail -4
