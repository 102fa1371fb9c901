#!/usr/bin/env bash
# Installs the build tree into a temporary prefix, moves the prefix (the tree
# must be relocatable), checks the layout and SONAME, runs the installed
# `accel info` and an example, then builds the outside project against the
# installed package twice: with find_package(accel CONFIG) and with pkg-config.
#
#   usage: check_install.sh BUILD_DIR SOURCE_DIR WORK_DIR [C_FLAGS [EXE_LINKER_FLAGS]]
#
# C_FLAGS and EXE_LINKER_FLAGS are the flags BUILD_DIR was built with
# (CMAKE_C_FLAGS, CMAKE_EXE_LINKER_FLAGS); the outside project is built with
# them too. A sanitized libaccel (preset debug-asan) works only in a program
# that links the sanitizer runtime first, so the outside program must be
# sanitized as well, as any user's program of such a build would be.
set -euo pipefail
build=$1 src=$2 work=$3
cflags=${4:-} ldflags=${5:-}
rm -rf "$work"
mkdir -p "$work"
unset ACCEL_CONFIG ACCEL_BACKEND

cmake --install "$build" --prefix "$work/staged" >"$work/install.log"
mv "$work/staged" "$work/prefix"   # relocated: nothing may point at staged/
p=$work/prefix

fail() { echo "check_install: FAIL: $*" >&2; exit 1; }
for f in include/accel/accel.h include/accel/types.h lib/libaccel.so lib/libaccel.so.0 \
         lib/libaccel.so.0.1.0 lib/accel/plugins.ini lib/accel/libaccel_cpu.so bin/accel \
         bin/vector_add bin/matmul lib/cmake/accel/accelConfig.cmake \
         lib/cmake/accel/accelConfigVersion.cmake lib/cmake/accel/accelTargets.cmake \
         lib/pkgconfig/accel.pc share/accel/examples/common.h; do
  [ -e "$p/$f" ] || fail "$f is not installed"
done
soname=$(objdump -p "$p/lib/libaccel.so.0.1.0" | awk '/SONAME/ {print $2}')
[ "$soname" = libaccel.so.0 ] || fail "SONAME is '$soname', expected libaccel.so.0"
echo "check_install: layout and SONAME $soname ok"

# The installed program finds the installed plugins.ini and the CPU backend.
"$p/bin/accel" info >"$work/info.txt" || fail "installed accel info failed: $(cat "$work/info.txt")"
grep -q "$p/lib/accel/plugins.ini" "$work/info.txt" || fail "accel info does not use $p/lib/accel/plugins.ini"
"$p/bin/vector_add" --device cpu

# find_package(accel CONFIG) in an outside project.
cmake -S "$src/tests/install/outside" -B "$work/outside-build" -DCMAKE_PREFIX_PATH="$p" \
      -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS="$cflags" -DCMAKE_EXE_LINKER_FLAGS="$ldflags" \
      >"$work/outside-configure.log" ||
  { cat "$work/outside-configure.log"; fail "the outside project does not configure"; }
cmake --build "$work/outside-build" >"$work/outside-build.log" ||
  { cat "$work/outside-build.log"; fail "the outside project does not build"; }
"$work/outside-build/outside"

# pkg-config.
export PKG_CONFIG_PATH="$p/lib/pkgconfig"
[ "$(pkg-config --modversion accel)" = "$(sed -n 's/^Version: //p' "$p/lib/pkgconfig/accel.pc")" ]
# shellcheck disable=SC2086 # the flags are lists of words
cc -std=c11 -Wall -Werror $cflags "$src/tests/install/outside/main.c" -o "$work/outside-pc" \
   $(pkg-config --cflags --libs accel) -Wl,-rpath,"$(pkg-config --variable=libdir accel)" $ldflags
"$work/outside-pc"
echo "check_install: PASS"
