#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
#
# Adds the licence header to every source file that lacks one:
#
#   SPDX-License-Identifier: Apache-2.0
#   Copyright 2026 The accel authors
#
# as comments of the file's language, at its top (after a "#!" line, and after
# a Python encoding line). A file counts as having the header when one of its
# first 20 lines holds "SPDX-License-Identifier:"; such files are left alone, so
# running the script twice changes nothing. File modes are kept.
#
#   usage: tools/spdx.sh [--check] [PATH...]
#
# PATH: files or folders (default: the whole repository). Inside a git work
# tree, the files git tracks or would track (not the ignored ones, so no build
# trees); elsewhere every file under PATH except build*/ and .git/.
# --check: change nothing; list the files that lack the header and exit with 1
# when there is any (0 when none).
#
# Source files: C (.c, .h), CUDA (.cu, .cuh), CMake (CMakeLists.txt, .cmake,
# .cmake.in), pkg-config templates (.pc.in), shell (.sh, or a "#!" line naming
# sh or bash), Python (.py, or a "#!" line naming python), INI (.ini), linker
# version scripts (.map) and sanitizer/valgrind suppression files (.supp).
# Fuzzing corpora and regression inputs (fuzz/corpus/, fuzz/regression/) are
# test data, byte for byte, and are skipped.
set -euo pipefail

spdx_id="SPDX-License-Identifier: Apache-2.0"
copyright="Copyright 2026 The accel authors"

check=0
if [ "${1:-}" = --check ]; then
  check=1
  shift
fi
case "${1:-}" in
  -h | --help)
    sed -n '5,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
    exit 0
    ;;
  -*)
    echo "spdx.sh: unknown option '$1' (usage: tools/spdx.sh [--check] [PATH...])" >&2
    exit 2
    ;;
esac
if [ $# -eq 0 ]; then
  cd "$(dirname "$0")/.."
  set -- .
fi

# The comment style of a file: c (/* */), hash (#), semi (;), or nothing when
# it is not a source file.
style_of() {
  local f=$1 base=${1##*/} first=""
  case "$f" in
    fuzz/corpus/* | */fuzz/corpus/* | fuzz/regression/* | */fuzz/regression/*) return 0 ;;
  esac
  case "$base" in
    *.c | *.h | *.cu | *.cuh | *.map) echo c ;;
    CMakeLists.txt | *.cmake | *.cmake.in | *.pc.in | *.sh | *.py | *.supp) echo hash ;;
    *.ini) echo semi ;;
    *.*) ;;
    *)
      IFS= read -r first <"$f" 2>/dev/null || true
      case "$first" in
        '#!'*python* | '#!'*/sh | '#!'*/sh' '* | '#!'*' sh' | '#!'*bash*) echo hash ;;
      esac
      ;;
  esac
}

has_header() {
  head -n 20 -- "$1" | grep -q 'SPDX-License-Identifier:'
}

# Writes the file with the header added, in place (cat into the file keeps its
# mode, owner and links).
add_header() {
  local f=$1 style=$2 tmp keep=0 line1="" line2=""
  case "$style" in
    c) set -- "/* $spdx_id */" "/* $copyright */" ;;
    hash) set -- "# $spdx_id" "# $copyright" ;;
    semi) set -- "; $spdx_id" "; $copyright" ;;
  esac
  # Lines that must stay first: "#!" (line 1), then a Python encoding
  # declaration (PEP 263: line 1 or 2).
  { IFS= read -r line1 || true; IFS= read -r line2 || true; } <"$f"
  case "$line1" in '#!'*) keep=1 ;; esac
  if [ "$style" = hash ]; then
    if [ $keep -eq 0 ] && [[ $line1 =~ ^#.*coding[:=] ]]; then
      keep=1
    elif [ $keep -eq 1 ] && [[ $line2 =~ ^#.*coding[:=] ]]; then
      keep=2
    fi
  fi
  tmp=$(mktemp)
  {
    if [ $keep -gt 0 ]; then head -n $keep -- "$f"; fi
    printf '%s\n' "$1"
    # Only the SPDX line when the file already names its copyright holder.
    head -n 20 -- "$f" | grep -q 'Copyright' || printf '%s\n' "$2"
    tail -n +$((keep + 1)) -- "$f"
  } >"$tmp"
  cat "$tmp" >"$f"
  rm -f "$tmp"
}

# NUL-separated paths of the files under each PATH, as paths from here.
list_files() {
  local p d rel
  for p in "$@"; do
    if [ -d "$p" ]; then d=$p rel=.; else d=$(dirname -- "$p") rel=$(basename -- "$p"); fi
    (
      cd -- "$d"
      if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git ls-files -z --cached --others --exclude-standard -- "$rel"
      else
        find "$rel" \( -name .git -o -name 'build*' \) -prune -o -type f -print0
      fi
    ) | while IFS= read -r -d '' f; do printf '%s/%s\0' "$d" "${f#./}"; done
  done
}

missing=0
while IFS= read -r -d '' f; do
  f=${f#./}
  [ -f "$f" ] && [ ! -L "$f" ] || continue
  style=$(style_of "$f")
  [ -n "$style" ] || continue
  has_header "$f" && continue
  missing=$((missing + 1))
  if [ $check -eq 1 ]; then
    printf '%s\n' "$f"
  else
    add_header "$f" "$style"
    printf 'spdx.sh: added the header to %s\n' "$f"
  fi
done < <(list_files "$@")

if [ $check -eq 1 ] && [ $missing -gt 0 ]; then
  echo "spdx.sh: $missing file(s) lack an SPDX-License-Identifier line (tools/spdx.sh adds it)" >&2
  exit 1
fi
exit 0
