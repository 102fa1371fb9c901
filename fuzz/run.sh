#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# fuzz/run.sh — build the libFuzzer harnesses with clang and run each for a set
# time, all in parallel (or JOBS at a time).
#   fuzz/run.sh [-j JOBS] [SECONDS] [BUILD_DIR] [HARNESS ...]
# Defaults: every harness at once, 600 s each, build-fuzz, the harnesses
# ini npy repro kernel codegen graph. -j 1 runs them one after the other
# (a small shared machine); every run is niced.
# The committed seeds (fuzz/corpus/X) and regression inputs
# (fuzz/regression/X) are read, new inputs go to BUILD_DIR/corpus-X, logs to
# BUILD_DIR/fuzz-X.log and crashes to BUILD_DIR/crashes-X/. At the end one
# line per harness: "fuzz_X: execs N, crashes C, seconds S" (C counts the
# files libFuzzer wrote: crash-, leak-, timeout- and oom-), then the crash
# files. Exit status 1 when any harness found one.
# A crash found is a bug: minimize it (./fuzz_X -minimize_crash=1 FILE), fix
# it, and copy the input into fuzz/regression/X/ so it is replayed from then
# on (by ctest for ini, npy and repro; by every run of this script for all).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=0
if [ "${1:-}" = -j ]; then
  jobs=$2
  shift 2
fi
secs=${1:-600}
build=${2:-build-fuzz}
shift $(($# < 2 ? $# : 2))
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(ini npy repro kernel codegen graph)
[ "$jobs" -gt 0 ] || jobs=${#harnesses[@]}
cmake -S . -B "$build" -DCMAKE_C_COMPILER=clang -DACCEL_FUZZ=ON -DACCEL_CUDA=OFF \
  -DACCEL_OPENCL=OFF -DACCEL_BUILD_TESTS=OFF -DACCEL_BUILD_EXAMPLES=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
nice cmake --build "$build" --target "${harnesses[@]/#/fuzz_}" -j2 >/dev/null

run_one() {
  local h=$1 extra=() t0
  rm -rf "$build/crashes-$h"
  mkdir -p "$build/corpus-$h" "$build/crashes-$h"
  [ "$h" = ini ] && extra=(-dict=fuzz/ini.dict)
  t0=$(date +%s)
  nice "$build/bin/fuzz_$h" "${extra[@]}" -max_total_time="$secs" -print_final_stats=1 \
    -max_len=4096 -timeout=10 -rss_limit_mb=4096 -artifact_prefix="$build/crashes-$h/" \
    "$build/corpus-$h" "fuzz/corpus/$h" "fuzz/regression/$h" >"$build/fuzz-$h.log" 2>&1 || true
  echo $(($(date +%s) - t0)) >"$build/fuzz-$h.secs"
}

running=0
for h in "${harnesses[@]}"; do
  run_one "$h" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
done
wait
status=0
for h in "${harnesses[@]}"; do
  execs=$(grep -aE '^stat::number_of_executed_units' "$build/fuzz-$h.log" | awk '{print $2}')
  [ -n "$execs" ] || execs=$(grep -aoE '^#[0-9]+' "$build/fuzz-$h.log" | tail -1 | tr -d '#')
  crashes=$(find "$build/crashes-$h" -type f | wc -l)
  echo "fuzz_$h: execs ${execs:-0}, crashes $crashes, seconds $(cat "$build/fuzz-$h.secs")"
  [ "$crashes" -eq 0 ] || status=1
done
for h in "${harnesses[@]}"; do
  find "$build/crashes-$h" -type f | sed 's/^/   crash: /'
done
exit $status
