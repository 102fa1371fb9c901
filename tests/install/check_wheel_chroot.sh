#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
#
# The binary wheel on a fresh Debian 12 (issue 33's "done when"): debootstrap
# makes a minimal bookworm root (no compiler, no OpenBLAS, no accel), python3
# and python3-venv are installed in it, and in a fresh venv there `pip install
# --no-index` of the wheel (NumPy from a folder the host's pip downloaded it
# to: the chroot has no proxy certificates) then runs the tutorial's section 2
# program and a user kernel (no cc in the chroot: the wheel's accel-tcc).
# Needs root, debootstrap and the network (CI runs it: .ci/run); minutes.
#
#   usage: check_wheel_chroot.sh WHEEL WORK_DIR [PYTHON]   (PYTHON: the host's, for pip download)
set -euo pipefail
whl=$(realpath "$1") work=$2 py=${3:-python3}
src=$(cd "$(dirname "$0")/../.." && pwd)
root=$work/bookworm
mkdir -p "$work"
[ -d "$root/usr" ] || debootstrap --variant=minbase bookworm "$root" >"$work/debootstrap.log" 2>&1 ||
  { tail -20 "$work/debootstrap.log" >&2; exit 1; }
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
trap 'umount "$root/proc"' EXIT
cp /etc/resolv.conf "$root/etc/resolv.conf"
chroot "$root" sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
  --no-install-recommends python3 python3-venv' >"$work/chroot-apt.log" 2>&1 ||
  { tail -20 "$work/chroot-apt.log" >&2; exit 1; }
rm -rf "$root/root/t" "$root/root/venv"
mkdir -p "$root/root/t/wh"
pyver=$(chroot "$root" python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
"$py" -m pip download -q --disable-pip-version-check --only-binary=:all: --no-deps \
  --python-version "$pyver" --platform manylinux_2_28_x86_64 --platform manylinux2014_x86_64 \
  numpy -d "$root/root/t/wh"
cp "$whl" "$src/examples/python/02_vector_add.py" "$src/examples/python/_common.py" "$root/root/t/"
out=$(chroot "$root" env -i HOME=/root PATH=/usr/bin:/bin LANG=C.UTF-8 sh -ec '
  python3 -m venv /root/venv
  /root/venv/bin/pip install -q --disable-pip-version-check --no-index --find-links /root/t/wh \
    /root/t/*.whl
  cd /tmp
  /root/venv/bin/python /root/t/02_vector_add.py
  /root/venv/bin/python -c "
import shutil, numpy as np, accel
assert shutil.which(\"cc\") is None
k = accel.ElementwiseKernel(\"T x\", \"T y\", \"y = x * x + 1\", \"sq1\")
x = np.arange(5.0)
assert np.array_equal(k(accel.asarray(x)).get(), x * x + 1)
print(\"user kernel without cc: ok\")"')
echo "$out"
grep -q '^\[ 7\.  9\. 11\. 13\. 15\.\]$' <<<"$out" && grep -q "without cc: ok" <<<"$out"
echo "check_wheel_chroot: PASS (Debian $(cat "$root/etc/debian_version"))"
