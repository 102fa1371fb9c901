#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# fuzz/run.sh — build the libFuzzer harnesses with clang and run each for a set
# time, all in parallel.
#   fuzz/run.sh [SECONDS] [BUILD_DIR]      default: 600 s, build-fuzz
# The committed seeds (fuzz/corpus/X, X in ini, npy, repro, kernel) and
# regression inputs (fuzz/regression/X) are read, new inputs go to
# BUILD_DIR/corpus-X, logs to BUILD_DIR/fuzz-X.log and crashes to
# BUILD_DIR/crashes-X/. A crash found is a bug: minimize it
# (./fuzz_X -minimize_crash=1 FILE), fix it, and copy the input into
# fuzz/regression/X/ so it is replayed from then on (by ctest; kernel's by
# every run of this script).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-600}
build=${2:-build-fuzz}
cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DACCEL_FUZZ=ON -DACCEL_CUDA=OFF \
  -DACCEL_BUILD_TESTS=OFF -DACCEL_BUILD_EXAMPLES=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" --target fuzz_ini fuzz_npy fuzz_repro fuzz_kernel -j2 >/dev/null
pids=()
for h in ini npy repro kernel; do
  mkdir -p "$build/corpus-$h" "$build/crashes-$h"
  extra=()
  [ "$h" = ini ] && extra=(-dict=fuzz/ini.dict)
  "$build/bin/fuzz_$h" "${extra[@]}" -max_total_time="$secs" -print_final_stats=1 \
    -max_len=4096 -timeout=10 -artifact_prefix="$build/crashes-$h/" \
    "$build/corpus-$h" "fuzz/corpus/$h" "fuzz/regression/$h" >"$build/fuzz-$h.log" 2>&1 &
  pids+=($!)
done
status=0
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || status=1
done
for h in ini npy repro kernel; do
  echo "== fuzz_$h: $(grep -E '^#[0-9]+.*(DONE|pulse|NEW|REDUCE)' "$build/fuzz-$h.log" | tail -1)"
  grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "$build/fuzz-$h.log" || true
  ls "$build/crashes-$h" | sed 's/^/   crash: /'
done
exit $status
