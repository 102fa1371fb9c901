#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
#
# Installs the build tree into a temporary prefix under umask 002, moves the
# prefix (the tree must be relocatable), checks the layout, the SONAME and the
# file modes, runs the installed `accel info` and an example, then builds the
# outside project against the installed package: with find_package(accel
# CONFIG) (also with COMPONENTS, present and missing; mpi as accel::mpi where
# MPI was found) and with pkg-config (accel, and accel-mpi).
#
#   usage: check_install.sh BUILD_DIR SOURCE_DIR WORK_DIR [C_FLAGS [EXE_LINKER_FLAGS [LIBDIR]]]
#
# C_FLAGS and EXE_LINKER_FLAGS are the flags BUILD_DIR was built with
# (CMAKE_C_FLAGS, CMAKE_EXE_LINKER_FLAGS); the outside project is built with
# them too. A sanitized libaccel (preset debug-asan) works only in a program
# that links the sanitizer runtime first, so the outside program must be
# sanitized as well, as any user's program of such a build would be.
# LIBDIR is BUILD_DIR's CMAKE_INSTALL_LIBDIR (default lib).
set -euo pipefail
build=$1 src=$2 work=$3
cflags=${4:-} ldflags=${5:-} libdir=${6:-lib}
rm -rf "$work"
mkdir -p "$work"
unset ACCEL_CONFIG ACCEL_BACKEND

# The modes of installed files must not follow the umask.
(umask 002 && cmake --install "$build" --prefix "$work/staged" >"$work/install.log")
mv "$work/staged" "$work/prefix" # relocated: nothing may point at staged/
p=$work/prefix

fail() {
  echo "check_install: FAIL: $*" >&2
  exit 1
}
L=$libdir
for f in include/accel/accel.h include/accel/types.h $L/libaccel.so $L/libaccel.so.0 \
  $L/libaccel.so.0.1.0 $L/accel/plugins.ini $L/accel/libaccel_cpu.so bin/accel \
  libexec/accel/examples/vector_add libexec/accel/examples/matmul \
  $L/cmake/accel/accelConfig.cmake $L/cmake/accel/accelConfigVersion.cmake \
  $L/cmake/accel/accelTargets.cmake $L/pkgconfig/accel.pc share/accel/examples/common.h \
  share/accel/examples/vector_add.c; do
  [ -e "$p/$f" ] || fail "$f is not installed"
done
# Programs in bin/ are accel's own; the examples' generic names stay out of it.
others=$(find "$p/bin" -mindepth 1 ! -name accel)
[ -z "$others" ] || fail "bin/ holds more than accel: $others"
# No copyright/changelog of the Debian packages in a plain install.
[ ! -e "$p/share/doc" ] || fail "a plain install has share/doc: $(find "$p/share/doc")"
soname=$(objdump -p "$p/$L/libaccel.so.0.1.0" | awk '/SONAME/ {print $2}')
[ "$soname" = libaccel.so.0 ] || fail "SONAME is '$soname', expected libaccel.so.0"
echo "check_install: layout ($L) and SONAME $soname ok"

# Modes: folders 0755, programs (bin/, libexec/) 0755, everything else 0644,
# shared libraries and plugins included (Debian policy 8.1: the dynamic linker
# does not need the execute bit).
bad=$(find "$p" -mindepth 1 -type d ! -perm 0755 -printf '%m %P\n')
[ -z "$bad" ] || fail "folders not 0755 under umask 002: $bad"
while IFS= read -r -d '' f; do
  case ${f#"$p"/} in
    bin/* | libexec/*) want=755 ;;
    *) want=644 ;;
  esac
  [ "$(stat -c %a "$f")" = $want ] || fail "$(stat -c %a "$f") ${f#"$p"/}, expected $want"
done < <(find "$p" -type f -print0)
echo "check_install: modes ok (folders and programs 0755, other files 0644)"

# The installed program finds the installed plugins.ini and the CPU backend.
"$p/bin/accel" info >"$work/info.txt" || fail "installed accel info failed: $(cat "$work/info.txt")"
grep -q "$p/$L/accel/plugins.ini" "$work/info.txt" ||
  fail "accel info does not use $p/$L/accel/plugins.ini: $(cat "$work/info.txt")"
"$p/libexec/accel/examples/vector_add" --device cpu

# find_package(accel CONFIG) in an outside project; COMPONENTS: a plugin that
# is installed is found, one that is not fails with a message naming it.
outside() { # outside NAME [cmake args...]
  local name=$1
  shift
  cmake -S "$src/tests/install/outside" -B "$work/$name" -DCMAKE_PREFIX_PATH="$p" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS="$cflags" -DCMAKE_EXE_LINKER_FLAGS="$ldflags" "$@" \
    >"$work/$name-configure.log" 2>&1
}
outside outside-build -DACCEL_COMPONENTS=cpu ||
  { cat "$work/outside-build-configure.log"; fail "the outside project does not configure"; }
cmake --build "$work/outside-build" >"$work/outside-build.log" ||
  { cat "$work/outside-build.log"; fail "the outside project does not build"; }
"$work/outside-build/outside"
if [ -e "$p/$L/accel/libaccel_cuda.so" ]; then
  outside outside-cuda -DACCEL_COMPONENTS="cpu;cuda" ||
    { cat "$work/outside-cuda-configure.log"; fail "COMPONENTS cuda not found although installed"; }
else
  if outside outside-cuda -DACCEL_COMPONENTS="cpu;cuda"; then
    fail "find_package(accel COMPONENTS cuda) succeeded without libaccel_cuda.so"
  fi
  grep -q "component cuda: $p/$L/accel/libaccel_cuda.so is not installed" \
    "$work/outside-cuda-configure.log" ||
    { cat "$work/outside-cuda-configure.log"; fail "no clear message for the missing cuda component"; }
  outside outside-optional -DACCEL_OPTIONAL_COMPONENTS=cuda ||
    { cat "$work/outside-optional-configure.log"; fail "OPTIONAL_COMPONENTS cuda made it fail"; }
  grep -q "accel_cuda_FOUND=FALSE" "$work/outside-optional-configure.log" ||
    { cat "$work/outside-optional-configure.log"; fail "accel_cuda_FOUND is not FALSE"; }
fi
# libaccel_mpi, where this build made it: a library in LIBDIR (not a plugin),
# found by COMPONENTS mpi as accel::mpi, and by pkg-config as accel-mpi (below).
mpi_built=$(find "$build" -maxdepth 2 -name 'libaccel_mpi.so*' -print -quit)
if [ -n "$mpi_built" ]; then
  for f in include/accel/mpi.h $L/libaccel_mpi.so $L/cmake/accel/accelMpiTargets.cmake \
    $L/pkgconfig/accel-mpi.pc; do
    [ -e "$p/$f" ] || fail "$f is not installed although this build made libaccel_mpi"
  done
  outside outside-mpi -DACCEL_COMPONENTS="cpu;mpi" ||
    { cat "$work/outside-mpi-configure.log"; fail "COMPONENTS cpu mpi not found although installed"; }
  grep -q "accel_mpi_FOUND=TRUE ($p/$L/libaccel_mpi.so)" "$work/outside-mpi-configure.log" ||
    { cat "$work/outside-mpi-configure.log"; fail "accel_mpi_FOUND is not TRUE with its library"; }
  cmake --build "$work/outside-mpi" >"$work/outside-mpi-build.log" ||
    { cat "$work/outside-mpi-build.log"; fail "the outside project with accel::mpi does not build"; }
  "$work/outside-mpi/outside_mpi"
else
  if outside outside-mpi -DACCEL_COMPONENTS="cpu;mpi"; then
    fail "find_package(accel COMPONENTS mpi) succeeded without libaccel_mpi"
  fi
  grep -q "component mpi: .*accelMpiTargets.cmake is not installed (.*libaccel-mpi-dev" \
    "$work/outside-mpi-configure.log" ||
    { cat "$work/outside-mpi-configure.log"; fail "no clear message for the missing mpi component"; }
fi
echo "check_install: find_package COMPONENTS ok"

# pkg-config: the paths it gives exist in the moved prefix, and a program
# builds and runs with them.
export PKG_CONFIG_PATH="$p/$L/pkgconfig"
[ "$(pkg-config --modversion accel)" = "$(sed -n 's/^Version: //p' "$p/$L/pkgconfig/accel.pc")" ]
[ -f "$(pkg-config --variable=includedir accel)/accel/accel.h" ] ||
  fail "pkg-config includedir $(pkg-config --variable=includedir accel) has no accel/accel.h"
[ -f "$(pkg-config --variable=libdir accel)/libaccel.so" ] ||
  fail "pkg-config libdir $(pkg-config --variable=libdir accel) has no libaccel.so"
[ -f "$(pkg-config --variable=plugindir accel)/plugins.ini" ] ||
  fail "pkg-config plugindir $(pkg-config --variable=plugindir accel) has no plugins.ini"
# shellcheck disable=SC2086 # the flags are lists of words
cc -std=c11 -Wall -Werror $cflags "$src/tests/install/outside/main.c" -o "$work/outside-pc" \
  $(pkg-config --cflags --libs accel) -Wl,-rpath,"$(pkg-config --variable=libdir accel)" $ldflags
"$work/outside-pc"
if [ -n "$mpi_built" ]; then
  [ "$(pkg-config --modversion accel-mpi)" = "$(pkg-config --modversion accel)" ] ||
    fail "accel-mpi.pc's version differs from accel.pc's"
  # shellcheck disable=SC2086,SC2046 # the flags are lists of words
  cc -std=c11 -Wall -Werror $cflags "$src/tests/install/outside/mpi_main.c" -o "$work/outside-mpi-pc" \
    $(pkg-config --cflags --libs accel-mpi) -Wl,-rpath,"$(pkg-config --variable=libdir accel-mpi)" \
    $ldflags
  "$work/outside-mpi-pc"
fi
echo "check_install: PASS ($L)"
