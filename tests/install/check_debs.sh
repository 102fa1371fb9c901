#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
#
# The Debian packages on this machine, as a user gets them (run by .ci/run,
# as root): installs DEB_DIR/*.deb with apt-get (which fetches what they
# depend on), checks what got installed, runs /usr/bin/accel info (and info
# --json when the program has it), reads `man accel` when the package has a
# man page, builds tests/install/outside against the installed packages with
# pkg-config and with find_package(accel CONFIG), then purges the packages so
# the machine is left as it was (checked: the same installed packages as
# before). The packages are purged also when a check fails.
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
# The tools of the checks first (man-db when there is a man page to read), so
# that they do not count as changes.
need=(pkg-config cmake gcc)
for f in "${files[@]}"; do
  ! dpkg-deb -c "$f" | grep -qE '/man1/accel\.1(\.gz)?$' || need+=(man-db)
done
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
installed() { dpkg-query -W -f='${db:Status-Abbrev} ${Package}:${Architecture} ${Version}\n' | sort; }
installed >"$work/before.txt"

# Our packages, and any that apt-get installed for them.
extra=()
purge() {
  echo "check_debs: purging ${pkgs[*]} ${extra[*]}"
  dpkg --purge "${pkgs[@]}" "${extra[@]}" >"$work/purge.log" 2>&1 || { cat "$work/purge.log"; return 1; }
}
trap 'purge || true' EXIT

echo "check_debs: installing ${files[*]##*/}"
apt-get install -y -qq --no-install-recommends "${files[@]}" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; fail "apt-get install of the packages failed"; }
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
if accel info --help 2>&1 | grep -q -- --json; then
  accel info --json >"$work/info.json"
  /usr/bin/python3 -m json.tool "$work/info.json" >/dev/null || fail "accel info --json is not JSON"
  echo "check_debs: accel info --json is valid JSON ($(wc -c <"$work/info.json") bytes)"
fi

# The man page, when the package has one. Minimal Debian images drop
# /usr/share/man through dpkg's path-exclude; that is said, not hidden.
man_file=$(dpkg -L accel-tools | grep -E '/man1/accel\.1(\.gz)?$' || true)
if [ -n "$man_file" ]; then
  if [ ! -e "$man_file" ]; then
    echo "check_debs: NOTE: $man_file is in accel-tools but not on disk:" \
      "dpkg excludes it here ($(grep -rhs 'path-exclude.*man' /etc/dpkg/dpkg.cfg.d | head -1))"
  else
    MANPAGER=cat MANWIDTH=80 man accel >"$work/man.txt" 2>"$work/man.err" ||
      { cat "$work/man.err"; fail "man accel failed"; }
    grep -q accel "$work/man.txt" || fail "man accel printed no page"
    echo "check_debs: man accel ok ($(wc -l <"$work/man.txt") lines)"
  fi
else
  echo "check_debs: accel-tools has no man page"
fi

# The bash completion, when the package has one: it loads and defines a
# completion for accel.
comp=/usr/share/bash-completion/completions/accel
if dpkg -L accel-tools | grep -qxF "$comp"; then
  bash -c "source $comp && complete -p accel" >"$work/complete.txt" 2>&1 ||
    { cat "$work/complete.txt"; fail "$comp does not load or completes nothing for accel"; }
  echo "check_debs: bash completion ok ($(cat "$work/complete.txt"))"
fi

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
