#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
#
# The Debian packages on this machine, as a user gets them (run by .ci/run,
# as root): installs DEB_DIR/*.deb with dpkg -i (apt-get -f install then
# fetches what they depend on, when something is missing), checks what got
# installed, runs /usr/bin/accel info and info --json, reads `man accel` and
# the page of every subcommand, loads the bash completion, builds
# tests/install/outside against the installed packages with pkg-config and
# with find_package(accel CONFIG) (accel, and accel-mpi / COMPONENTS cpu mpi
# with libaccel_mpi's packages), then purges the packages so the machine is
# left as it was (checked: the same installed packages as before). The
# packages are purged also when a check fails. These are the "done when"
# checks of the packaging work: each is required, none is skipped.
#
#   usage: check_debs.sh SOURCE_DIR DEB_DIR WORK_DIR
set -euo pipefail
src=$(cd "$1" && pwd) debs=$(cd "$2" && pwd) work=$3
export DEBIAN_FRONTEND=noninteractive
unset ACCEL_CONFIG ACCEL_BACKEND

fail() {
  echo "check_debs: FAIL: $*" >&2
  exit 1
}
[ "$(id -u)" -eq 0 ] || fail "run as root (it installs packages)"
mapfile -t files < <(find "$debs" -maxdepth 1 -name '*.deb' | sort)
[ ${#files[@]} -gt 0 ] || fail "no .deb files in $debs"
mapfile -t pkgs < <(for f in "${files[@]}"; do dpkg-deb -f "$f" Package; done)
for p in "${pkgs[@]}"; do
  ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' ||
    fail "$p is installed already; remove it first (dpkg --purge $p)"
done
rm -rf "$work"
mkdir -p "$work"
# The tools of the checks first, so that they do not count as changes.
apt-get install -y -qq --no-install-recommends pkg-config cmake gcc man-db python3 >/dev/null
installed() { dpkg-query -W -f='${db:Status-Abbrev} ${Package}:${Architecture} ${Version}\n' | sort; }
installed >"$work/before.txt"

# Our packages, and any that apt-get installed for them.
extra=()
purge() {
  echo "check_debs: purging ${pkgs[*]} ${extra[*]}"
  dpkg --purge "${pkgs[@]}" "${extra[@]}" >"$work/purge.log" 2>&1 || { cat "$work/purge.log"; return 1; }
}
trap 'purge || true' EXIT

# dpkg itself, as the packages' users and other package managers' scripts
# call it. --path-include keeps the man pages on minimal images whose dpkg
# configuration excludes /usr/share/man (Debian's docker images do).
echo "check_debs: installing ${files[*]##*/} with dpkg -i"
if ! dpkg --path-include='/usr/share/man/*' -i "${files[@]}" >"$work/install.log" 2>&1; then
  grep -q 'dependency problems' "$work/install.log" ||
    { cat "$work/install.log"; fail "dpkg -i of the packages failed"; }
  echo "check_debs: dpkg -i left dependencies to fetch; apt-get -f install fetches them"
  apt-get install -f -y -qq --no-install-recommends >>"$work/install.log" 2>&1 ||
    { cat "$work/install.log"; fail "apt-get -f install after dpkg -i failed"; }
fi
mapfile -t extra < <(comm -13 <(awk '{print $2}' "$work/before.txt" | sed 's/:.*//' | sort) \
  <(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' | awk '$1 == "ii" {print $2}' | sort) |
  grep -vxF -f <(printf '%s\n' "${pkgs[@]}") || true)
[ ${#extra[@]} -eq 0 ] || echo "check_debs: apt-get also installed ${extra[*]}"
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}\n' "$p" | grep -q 'ok installed' || fail "$p is not installed"
done
# Installed files of the packages keep their modes: no group- or
# world-writable file or folder.
for p in "${pkgs[@]}"; do
  while IFS= read -r f; do
    [ -e "$f" ] && [ ! -L "$f" ] || continue
    [ -z "$(find "$f" -maxdepth 0 -perm /022)" ] || fail "$p: $f is $(stat -c %a "$f")"
  done < <(dpkg -L "$p")
done
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
plugindir=/usr/lib/$multiarch/accel
[ -f "$plugindir/libaccel_cpu.so" ] || fail "no $plugindir/libaccel_cpu.so"

# The program, from /usr/bin, with the installed configuration.
[ "$(command -v accel)" = /usr/bin/accel ] || fail "accel on PATH is $(command -v accel), not /usr/bin/accel"
accel info | tee "$work/info.txt"
grep -q "$plugindir/plugins.ini" "$work/info.txt" || fail "accel info does not use $plugindir/plugins.ini"
accel info --json >"$work/info.json" || fail "accel info --json failed"
/usr/bin/python3 - "$work/info.json" "$plugindir" <<'PY' || fail "accel info --json: $(head -c 2000 "$work/info.json")"
import json, sys
d = json.load(open(sys.argv[1]))
paths = [b.get("path", "") for b in d["backends"]]
assert d["config"].startswith(sys.argv[2] + "/"), d["config"]
assert any(p.startswith(sys.argv[2] + "/") for p in paths), paths
assert any(str(dev.get("kind")).lower() == "cpu" for dev in d["devices"]), d["devices"]
PY
echo "check_debs: accel info --json is JSON naming $plugindir ($(wc -c <"$work/info.json") bytes)"

# The man pages: accel.1 and one per subcommand, each read by man(1).
mapfile -t pages < <(dpkg -L accel-tools | grep -E '/man1/accel(-[a-z-]+)?\.1\.gz$' | sort)
[ ${#pages[@]} -gt 1 ] || fail "accel-tools has no man pages: $(dpkg -L accel-tools | grep man)"
for page in "${pages[@]}"; do
  [ -e "$page" ] || fail "$page is in accel-tools but not on disk"
  name=$(basename "$page" .1.gz)
  MANPAGER=cat MANWIDTH=80 man "$name" >"$work/man-$name.txt" 2>"$work/man.err" ||
    { cat "$work/man.err"; fail "man $name failed"; }
  grep -q "$name" "$work/man-$name.txt" || fail "man $name printed no page of $name"
done
grep -q "^NAME" "$work/man-accel.txt" || fail "man accel has no NAME section"
echo "check_debs: man works for ${#pages[@]} pages (${pages[*]##*/})"

# The bash completion: it loads and defines a completion for accel.
comp=/usr/share/bash-completion/completions/accel
dpkg -L accel-tools | grep -qxF "$comp" || fail "accel-tools has no $comp"
bash -c "source $comp && complete -p accel" >"$work/complete.txt" 2>&1 ||
  { cat "$work/complete.txt"; fail "$comp does not load or completes nothing for accel"; }
echo "check_debs: bash completion ok ($(cat "$work/complete.txt"))"

# An outside program against the installed packages: pkg-config ...
# shellcheck disable=SC2046 # the flags are lists of words
cc -std=c11 -Wall -Werror "$src/tests/install/outside/main.c" -o "$work/outside-pc" \
  $(pkg-config --cflags --libs accel)
"$work/outside-pc"
# ... and find_package(accel CONFIG), from the default prefix /usr.
cmake -S "$src/tests/install/outside" -B "$work/outside-cmake" -DACCEL_COMPONENTS=cpu \
  >"$work/outside-configure.log" 2>&1 || { cat "$work/outside-configure.log"; fail "configure"; }
grep -q "accel 0.1.0 from /usr/lib/$multiarch/cmake/accel" "$work/outside-configure.log" ||
  fail "find_package did not find /usr/lib/$multiarch/cmake/accel: $(cat "$work/outside-configure.log")"
cmake --build "$work/outside-cmake" >"$work/outside-build.log" 2>&1 ||
  { cat "$work/outside-build.log"; fail "build"; }
"$work/outside-cmake/outside"
# libaccel_mpi (libaccel-mpi0 and libaccel-mpi-dev, built where MPI was
# found, as in CI): find_package(accel COMPONENTS cpu mpi) links accel::mpi,
# pkg-config accel-mpi gives the same; and libaccel-dev alone brings no
# broken mpi.h or libaccel_mpi.so link.
if printf '%s\n' "${pkgs[@]}" | grep -qx libaccel-mpi-dev; then
  printf '%s\n' "${pkgs[@]}" | grep -qx libaccel-mpi0 || fail "libaccel-mpi-dev without libaccel-mpi0"
  ! dpkg -L libaccel-dev | grep -E '/(mpi\.h|libaccel_mpi\.so)$' ||
    fail "libaccel-dev ships libaccel_mpi's files (they are libaccel-mpi-dev's)"
  dpkg-deb -f "$debs"/libaccel-mpi-dev_*.deb Depends | grep -q 'libaccel-mpi0 (= ' ||
    fail "libaccel-mpi-dev does not depend on libaccel-mpi0"
  cmake -S "$src/tests/install/outside" -B "$work/outside-mpi" -DACCEL_COMPONENTS="cpu;mpi" \
    >"$work/outside-mpi.log" 2>&1 || { cat "$work/outside-mpi.log"; fail "COMPONENTS cpu mpi"; }
  grep -q "accel_mpi_FOUND=TRUE (/usr/lib/$multiarch/libaccel_mpi.so)" "$work/outside-mpi.log" ||
    { cat "$work/outside-mpi.log"; fail "accel_mpi_FOUND is not TRUE with /usr/lib/$multiarch/libaccel_mpi.so"; }
  cmake --build "$work/outside-mpi" >"$work/outside-mpi-build.log" 2>&1 ||
    { cat "$work/outside-mpi-build.log"; fail "build with accel::mpi"; }
  "$work/outside-mpi/outside_mpi"
  # shellcheck disable=SC2046 # the flags are lists of words
  cc -std=c11 -Wall -Werror "$src/tests/install/outside/mpi_main.c" -o "$work/outside-mpi-pc" \
    $(pkg-config --cflags --libs accel-mpi)
  "$work/outside-mpi-pc"
  echo "check_debs: find_package(accel COMPONENTS cpu mpi) and pkg-config accel-mpi build and run"
else
  fail "no libaccel-mpi-dev among the packages (build them where MPI is found: libopenmpi-dev)"
fi
# Without libaccel0-cuda, COMPONENTS cuda fails and says why.
if [ ! -e "$plugindir/libaccel_cuda.so" ]; then
  if cmake -S "$src/tests/install/outside" -B "$work/outside-cuda" -DACCEL_COMPONENTS=cuda \
    >"$work/outside-cuda.log" 2>&1; then
    fail "find_package(accel COMPONENTS cuda) succeeded without libaccel0-cuda"
  fi
  grep -q "component cuda: $plugindir/libaccel_cuda.so is not installed" "$work/outside-cuda.log" ||
    { cat "$work/outside-cuda.log"; fail "no clear message for the missing cuda component"; }
  echo "check_debs: find_package(accel COMPONENTS cuda) fails clearly without libaccel0-cuda"
else
  cmake -S "$src/tests/install/outside" -B "$work/outside-cuda" -DACCEL_COMPONENTS="cpu;cuda" \
    >"$work/outside-cuda.log" 2>&1 || { cat "$work/outside-cuda.log"; fail "COMPONENTS cuda not found"; }
  grep -q "accel_cuda_FOUND=TRUE" "$work/outside-cuda.log" || fail "accel_cuda_FOUND is not TRUE"
  echo "check_debs: find_package(accel COMPONENTS cuda) finds libaccel0-cuda's plugin"
fi

trap - EXIT
purge
installed >"$work/after.txt"
diff "$work/before.txt" "$work/after.txt" >"$work/diff.txt" ||
  { cat "$work/diff.txt"; fail "the installed packages differ from before"; }
echo "check_debs: PASS (${pkgs[*]} installed, used, purged)"
