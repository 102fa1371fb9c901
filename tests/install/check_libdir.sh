#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
#
# The install check (check_install.sh) for another libdir, such as Debian's
# multiarch lib/x86_64-linux-gnu: configures and builds a second tree of the
# same sources with CMAKE_INSTALL_LIBDIR=LIBDIR (no tests, no CUDA: the
# libdir concerns the install rules, the pkg-config and CMake files), then
# runs check_install.sh on it.
#
#   usage: check_libdir.sh SOURCE_DIR WORK_DIR LIBDIR C_COMPILER BUILD_TYPE C_FLAGS LINKER_FLAGS
#
# C_FLAGS and LINKER_FLAGS are the first tree's (CMAKE_C_FLAGS and
# CMAKE_EXE_LINKER_FLAGS, used for executables, shared libraries and modules).
set -euo pipefail
src=$1 work=$2 libdir=$3 cc=$4 build_type=$5 cflags=${6:-} ldflags=${7:-}
mkdir -p "$work"
tree=$work/build
# Configure once; later runs only rebuild what changed.
if [ ! -f "$tree/CMakeCache.txt" ]; then
  cmake -S "$src" -B "$tree" -DCMAKE_INSTALL_LIBDIR="$libdir" -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_BUILD_TYPE="$build_type" -DACCEL_BUILD_TESTS=OFF -DACCEL_CUDA=OFF -DACCEL_WERROR=ON \
    -DCMAKE_C_FLAGS="$cflags" -DCMAKE_EXE_LINKER_FLAGS="$ldflags" \
    -DCMAKE_SHARED_LINKER_FLAGS="$ldflags" -DCMAKE_MODULE_LINKER_FLAGS="$ldflags" \
    >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; exit 1; }
fi
cmake --build "$tree" -j"$(nproc)" >"$work/build.log" 2>&1 || { tail -50 "$work/build.log"; exit 1; }
exec "$(dirname "$0")/check_install.sh" "$tree" "$src" "$work/check" "$cflags" "$ldflags" "$libdir"
