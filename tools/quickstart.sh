#!/usr/bin/env bash
# Quick start on a fresh Debian machine: install what is missing, build accel
# (with the CUDA backend when nvcc is found), then show what this machine has
# (`accel info`) and run a first real job on the default device.
#
#   usage: tools/quickstart.sh [BUILD_DIR]      (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}

pkgs=(build-essential cmake pkg-config libopenblas-dev libinih-dev libcriterion-dev python3-numpy
  libopenmpi-dev openmpi-bin)
missing=()
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

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DACCEL_WERROR=ON
cmake --build "$build" -j"$(nproc)"

echo; echo "== accel info"; "$build/bin/accel" info
echo; echo "== first job: vector_add on the default device"; "$build/bin/vector_add"
if [ -x "$build/bin/accel" ] && "$build/bin/accel" --help 2>&1 | grep -q '^ *demo'; then
  echo; echo "== accel demo --quick"; "$build/bin/accel" demo --quick
fi
