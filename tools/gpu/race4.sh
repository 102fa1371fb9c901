#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# H200 checks of the race4 round (run from the repository root on the GPU machine after
# build-gpu is built with CUDA on; B=DIR names another build; about 45 s at most): calls on a
# buffer racing its release on every device, cuda:0 included (stress_concurrency's phase "calls
# raced N buffer releases": each call enqueued before the free or refused), the release tests of
# test_buffer (faulty test backend and cpu:0), and the dispatch row of accel bench on cuda:0 and
# on cpu:0, whose calls now pin their buffers (one fence per call), three runs each.
set -u
B=${B:-build-gpu}
# The libraries packed for the GPU machine (pack-libs.sh), as tools/gpu_checks.sh sets them up.
if [ -f .gpu/libs.tar.xz ]; then
    mkdir -p /tmp/libs && tar xJf .gpu/libs.tar.xz -C /tmp/libs && rm -f /tmp/libs/libaccel.so*
    export LD_LIBRARY_PATH=/tmp/libs:${LD_LIBRARY_PATH:-}
fi
echo "== stress_concurrency (every device)"
timeout 20 "$B"/bin/stress_concurrency 2>&1 | tail -6
echo "== test_buffer"
timeout 10 "$B"/bin/test_buffer --jobs 1 2>&1 | tail -3
for dev in cuda:0 cpu:0; do
    for r in 1 2 3; do
        echo "== accel bench --device $dev --quick, run $r (dispatch rows)"
        timeout 6 "$B"/bin/accel bench --device "$dev" --quick --no-progress 2>&1 |
            grep -E 'dispatch|bare call'
    done
done
