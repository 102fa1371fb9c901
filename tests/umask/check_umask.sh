#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# A new user's first command under umask 002 (the default on many
# distributions): configure and build the runtime, the CPU backend and the
# `accel` program from a fresh build folder, check the modes the build laid
# down, run the built `accel info`, then install into a prefix (still under
# umask 002), check the modes there and run the installed `accel info`.
# Nothing the build or the install writes may be group- or world-writable:
# the core refuses such plugins and plugins.ini (core/base/security.c).
#
#   usage: check_umask.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$1 work=$2
umask 002
rm -rf "$work"
mkdir -p "$work"
chmod 0755 "$work"
unset ACCEL_CONFIG ACCEL_BACKEND ACCEL_ALLOW_INSECURE
fail() { echo "check_umask: FAIL: $*" >&2; exit 1; }

# No group or other write bit on any of the named files or folders.
check_modes() {
  for f in "$@"; do
    [ -e "$f" ] || fail "$f does not exist"
    mode=$(stat -c %a "$f")
    [ $((0$mode & 022)) -eq 0 ] || fail "$f has mode $mode under umask 002"
  done
  echo "check_umask: modes ok: $*"
}

b=$work/build
cmake -S "$src" -B "$b" -DACCEL_CUDA=OFF -DACCEL_OPENCL=OFF -DACCEL_MPI=OFF -DACCEL_BUILD_TESTS=OFF -DACCEL_BUILD_EXAMPLES=OFF \
      -DACCEL_FUZZ=OFF >"$work/configure.log" || { cat "$work/configure.log"; fail "configure"; }
cmake --build "$b" -j2 --target accel accel_cpu accel_cli >"$work/build.log" ||
  { cat "$work/build.log"; fail "build"; }
check_modes "$b/lib" "$b/lib/accel" "$b/lib/accel/plugins.ini" "$b/lib/accel/libaccel_cpu.so"
"$b/bin/accel" info >"$work/info.txt" 2>&1 || fail "the built accel info failed: $(cat "$work/info.txt")"
grep -q "cpu" "$work/info.txt" || fail "the built accel info lists no cpu backend"

p=$work/prefix
cmake --install "$b" --prefix "$p" >"$work/install.log" || { cat "$work/install.log"; fail "install"; }
check_modes "$p" "$p/lib" "$p/lib/accel" "$p/lib/accel/plugins.ini" "$p/lib/accel/libaccel_cpu.so" \
            "$p/bin/accel" "$p/include/accel" "$p/include/accel/accel.h"
"$p/bin/accel" info >"$work/info-installed.txt" 2>&1 ||
  fail "the installed accel info failed: $(cat "$work/info-installed.txt")"
grep -q "$p/lib/accel/plugins.ini" "$work/info-installed.txt" ||
  fail "the installed accel info does not read $p/lib/accel/plugins.ini"
echo "check_umask: PASS"
