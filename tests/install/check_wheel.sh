#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
#
# The binary wheel as a user gets it (issue 33): tools/build-wheel.sh packs
# BUILD_DIR, the wheel is installed with `pip install --no-index` into a fresh
# virtual environment, and the tutorial's section 2 program
# (examples/python/02_vector_add.py) runs from a folder outside the source
# tree, with no ACCEL_* variable, no PYTHONPATH and no LD_LIBRARY_PATH, so
# libaccel, its plugins and their libraries can only come from the wheel.
# Also checked: the wheel's name, version, tag, licence and py.typed; that
# every library in it resolves inside the installed package or the system's
# base libraries (never the build tree); a GEMM on the wheel's own OpenBLAS
# (not the system's, which this machine has too) and a user kernel.
#
# NumPy, the wheel's one dependency, comes offline from PYTHON's environment:
# the fresh venv sees that one package through a .pth file naming a folder
# that links only numpy (and its .dist-info and numpy.libs), so pip's
# dependency check finds it installed and nothing else leaks in.
#
#   usage: check_wheel.sh SOURCE_DIR BUILD_DIR WORK_DIR PYTHON VERSION
set -euo pipefail
src=$1 build=$2 work=$3 py=$4 version=$5
rm -rf "$work"
mkdir -p "$work/outside"
work=$(cd "$work" && pwd) build=$(cd "$build" && pwd)

whl=$(ACCEL_WHEEL_ZIP_LEVEL=0 PYTHON=$py "$src/tools/build-wheel.sh" "$work/dist" "$build" | tail -n 1)
echo "wheel: $whl ($(du -k "$whl" | cut -f1) KiB)"
case "$(basename "$whl")" in
  accel_runtime-"$version"-cp38-abi3-manylinux_*_x86_64.whl) ;;
  *) echo "FAIL: wheel name $(basename "$whl") is not accel_runtime-$version-cp38-abi3-manylinux_*" >&2
     exit 1 ;;
esac
"$py" - "$whl" "$version" <<'EOF'
import sys, zipfile
whl, version = sys.argv[1:3]
names = zipfile.ZipFile(whl).namelist()
meta = zipfile.ZipFile(whl).read(f"accel_runtime-{version}.dist-info/METADATA").decode()
need = ["accel/__init__.py", "accel/py.typed", "accel/_lib/libaccel.so.0",
        "accel/_lib/accel/plugins.ini", "accel/_lib/accel/libaccel_cpu.so",
        "accel/_lib/accel/libopenblas.so.0", f"accel_runtime-{version}.dist-info/LICENSE"]
missing = [n for n in need if n not in names]
assert not missing, ("missing from the wheel", missing, names)
assert any(n.startswith("accel_runtime.libs/libgomp") for n in names), ("no bundled libgomp", names)
for line in ("Name: accel-runtime", f"Version: {version}", "License: Apache-2.0",
             "Requires-Dist: numpy>=1.22"):
    assert line in meta.splitlines(), (line, meta[:600])
print("wheel contents: OK (%d files)" % len(names))
EOF

# The fresh environment, with NumPy alone linked in from PYTHON's.
"$py" -m venv "$work/venv"
"$py" - "$work/numpy-only" <<'EOF'
import os, sys, importlib.metadata as md
dest = sys.argv[1]
os.makedirs(dest)
dist = md.distribution("numpy")
site = str(dist.locate_file(""))
for name in ("numpy", "numpy.libs", dist._path.name):
    if os.path.exists(os.path.join(site, name)):
        os.symlink(os.path.join(site, name), os.path.join(dest, name))
EOF
purelib=$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
echo "$work/numpy-only" >"$purelib/numpy_only.pth"
"$work/venv/bin/python" -m pip install -q --no-index --disable-pip-version-check "$whl"

cp "$src/examples/python/02_vector_add.py" "$src/examples/python/_common.py" "$work/outside/"
cat >"$work/outside/where.py" <<'EOF'
import os, sys
import numpy as np
import accel
pkg = os.path.dirname(accel.__file__)
assert accel.LIBRARY_PATH.startswith(pkg + "/_lib/"), accel.LIBRARY_PATH
assert accel._lib.FAST_PATH and accel._lib.FAST_PATH.startswith(pkg), accel._lib.FAST_PATH
cpu = [b for b in accel.info().backends if b["name"] == "cpu"][0]
assert cpu["loaded"] and cpu["path"].startswith(pkg + "/_lib/accel/"), cpu
r = np.random.default_rng(3)
a, b = r.random((64, 48)), r.random((48, 32))
c = (accel.asarray(a, device="cpu") @ accel.asarray(b, device="cpu")).get()
assert np.allclose(c, a @ b, rtol=1e-12, atol=1e-12), abs(c - a @ b).max()
# The GEMM ran on the wheel's OpenBLAS, not the system's (/proc/self/maps).
maps = {line.split()[-1] for line in open("/proc/self/maps") if "libopenblas" in line}
assert maps and all(m.startswith(pkg + "/_lib/accel/") for m in maps), maps
k = accel.ElementwiseKernel("T x", "T y", "y = x * x + 1", "sq1")
y = k(accel.asarray(a[0], device="cpu")).get()
assert np.array_equal(y, a[0] * a[0] + 1), y
print("accel", accel.__version__, "from", accel.LIBRARY_PATH, "cpu plugin", cpu["path"])
EOF
clean_env=(env -i HOME="$work" PATH=/usr/bin:/bin LANG=C.UTF-8)
cd "$work/outside"
out=$("${clean_env[@]}" "$work/venv/bin/python" 02_vector_add.py --device cpu)
echo "$out"
# the tutorial's integers stay int64 (as NumPy and CuPy)
grep -q '^\[ 7  9 11 13 15\]$' <<<"$out" || { echo "FAIL: no [ 7  9 11 13 15]" >&2; exit 1; }
"${clean_env[@]}" "$work/venv/bin/python" where.py
v=$("${clean_env[@]}" "$work/venv/bin/python" -c 'import accel; print(accel.__version__)')
[ "$v" = "$version" ] || { echo "FAIL: installed accel.__version__ $v, not $version" >&2; exit 1; }

# Every ELF file of the installed package resolves its libraries in the
# package or the system; none from the build tree.
site=$(dirname "$("${clean_env[@]}" "$work/venv/bin/python" -c 'import accel; print(accel.__file__)')")
site=$(dirname "$site")
bad=0
while IFS= read -r f; do
  deps=$("${clean_env[@]}" ldd "$f" 2>&1 || true)
  # Resolved paths in the build tree, other than this test's own folder
  # (ctest puts WORK_DIR inside the build tree).
  leak=$(awk '$2 == "=>" {print $3}' <<<"$deps" | grep -F "$build/" | grep -vF "$work/" || true)
  if grep -q "not found" <<<"$deps" || [ -n "$leak" ]; then
    echo "FAIL: $f: $deps" >&2
    bad=1
  fi
done < <(find "$site/accel" "$site/accel_runtime.libs" -type f \( -name '*.so*' -o -name accel-tcc \))
[ $bad -eq 0 ]
echo "check_wheel: PASS"
