#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# Mid-way H200 figures for the normal5 branch (run from the repository root on the GPU machine,
# after build-gpu is built with -DACCEL_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release).
# Under 60 s, builds nothing: the random-number tests (the backend's vector loop now runs on the
# counter itself, same bits), the probe's round-5 f32 normal rows (bench/ew_probe.cu "r5": the
# round-4 backend, the counter loop, -2 ln u1 with Q of degree 7 or 6, standard and general
# instances, 2 or 4 counters, register caps; 9 interleaved rounds with the spread) with the
# exhaustive accuracy of r for each logarithm and whole outputs against the formula, the same rows
# once more in a second process, and `accel bench`'s copy and random rows.
set -u
B=${B:-build-gpu}
if [ -f .gpu/libs.tar.xz ]; then
    mkdir -p /tmp/libs && tar xJf .gpu/libs.tar.xz -C /tmp/libs && rm -f /tmp/libs/libaccel.so*
    export LD_LIBRARY_PATH=/tmp/libs:${LD_LIBRARY_PATH:-}
fi
ROWS="r5 |theta not shifted, 2 counters (backend)|uniform: new loop, __umulhi (backend)"
echo "== tests: rng, philox, cuda/random*"
timeout 20 $B/bin/test_rng --verbose 2>&1 | grep -E "KS D|worst|Synthesis|assert|fail" | head -20
timeout 10 $B/bin/test_philox 2>&1 | tail -1
timeout 20 $B/bin/test_cuda --verbose --filter 'cuda/random*' 2>&1 |
    grep -E "normal: largest|Synthesis|assert|fail|skipped" | head -10
echo "== probe: round-5 f32 normal rows (2^28, 9 rounds) and accuracy"
timeout 40 $B/bin/ew_probe --log2n 28 --rounds 9 --only "$ROWS" 2>&1 | tail -40
echo "== probe again (second process, no checks)"
timeout 10 $B/bin/ew_probe --log2n 28 --rounds 9 --check 0 --only "$ROWS" 2>&1 | tail -20
echo "== bench (3 repeats): copy and random rows"
timeout 25 $B/bin/accel bench --device cuda:0 --no-progress --repeats 3 2>&1 |
    grep -E "^\s+copy |random" | head -20
echo "== the library's fills, one call per event pair (as accel bench) and 4 back to back"
timeout 15 $B/bin/ew_probe --accel 1 --log2n 28 --rounds 9 2>&1 | tail -10
