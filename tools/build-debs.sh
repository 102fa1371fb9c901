#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
#
# Builds the Debian packages (cmake/accelCPack.cmake) from this source tree:
# a release build for /usr with Debian's multiarch libdir, Debian's compiler
# and linker flags (dpkg-buildflags: hardening, -g, then stripped), no RPATH,
# then `cpack -G DEB`, then lintian when it is installed.
#
#   usage: tools/build-debs.sh [BUILD_DIR [OUT_DIR]]   (default: build-deb, BUILD_DIR/debs)
#
#   ACCEL_CUDA=AUTO|ON|OFF   the CUDA backend and its package (default AUTO:
#                            when nvcc is found, /usr/local/cuda/bin included)
#   SOURCE_DATE_EPOCH        timestamps in the packages (default: the last
#                            commit's time, when this is a git checkout)
#
# Needs cmake, a C compiler, dpkg-dev (dpkg-shlibdeps, dpkg-buildflags) and
# file, which CPack uses to find the ELF files for dpkg-shlibdeps.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build-deb}
out=${2:-$build/debs}

for tool in cmake cpack dpkg-shlibdeps dpkg-buildflags dpkg-architecture file; do
  command -v "$tool" >/dev/null ||
    { echo "build-debs: $tool is missing (apt-get install cmake dpkg-dev file)" >&2; exit 1; }
done
if [ -z "${SOURCE_DATE_EPOCH:-}" ] && git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
  SOURCE_DATE_EPOCH=$(git -C "$src" log -1 --format=%ct)
  export SOURCE_DATE_EPOCH
fi
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=$PATH:/usr/local/cuda/bin
fi

# Debian's flags, as debhelper would pass them (CMake reads no CPPFLAGS).
export DEB_BUILD_MAINT_OPTIONS=${DEB_BUILD_MAINT_OPTIONS:-hardening=+all}
cflags="$(dpkg-buildflags --get CPPFLAGS) $(dpkg-buildflags --get CFLAGS)"
ldflags=$(dpkg-buildflags --get LDFLAGS)

cmake -S "$src" -B "$build" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_FLAGS="$cflags" \
  -DCMAKE_EXE_LINKER_FLAGS="$ldflags" \
  -DCMAKE_SHARED_LINKER_FLAGS="$ldflags" \
  -DCMAKE_MODULE_LINKER_FLAGS="$ldflags" \
  -DCMAKE_INSTALL_PREFIX=/usr \
  -DACCEL_RELOCATABLE=OFF \
  -DACCEL_WERROR=ON \
  -DACCEL_BUILD_TESTS=OFF \
  -DACCEL_CUDA="${ACCEL_CUDA:-AUTO}"
libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:[A-Z]*=//p' "$build/CMakeCache.txt")
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
[ "$libdir" = "lib/$multiarch" ] ||
  { echo "build-debs: libdir is '$libdir', expected Debian's lib/$multiarch" >&2; exit 1; }
cmake --build "$build" -j"$(nproc)"

rm -rf "$build/_CPack_Packages"
(cd "$build" && cpack -G DEB)
mkdir -p "$out"
mv "$build"/*.deb "$out"/
echo "build-debs: packages in $out:"
ls -l "$out"/*.deb

# lintian, when installed: any error fails. Two warnings are expected:
# initial-upload-closes-no-bugs (the changelog of packages built outside the
# Debian archive closes no ITP bug) and maintscript-calls-ldconfig (CPack
# always writes a postinst and postrm that run ldconfig for a library in
# /usr/lib; redundant with the ldconfig trigger we ship, harmless).
if command -v lintian >/dev/null; then
  lintian --tag-display-limit 0 --fail-on error \
    --suppress-tags initial-upload-closes-no-bugs,maintscript-calls-ldconfig "$out"/*.deb
else
  echo "build-debs: lintian is not installed; the packages were not checked"
fi
