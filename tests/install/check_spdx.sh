#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
#
# tools/spdx.sh on sample files of every kind in WORK_DIR (never on the
# source tree): --check lists exactly the source files without a header and
# exits 1; the fix adds the header in each language's comments, after "#!" and
# Python encoding lines, keeps modes, leaves data and build trees alone; the
# files still compile or run; a second run changes nothing. Then the same in a
# git work tree (untracked files included, ignored ones not), and --check on
# the packaging files of SOURCE_DIR, which carry the header.
#
#   usage: check_spdx.sh SOURCE_DIR WORK_DIR
set -euo pipefail
# The expected lists below are in C collation (CMakeLists.txt before a.c); a
# UTF-8 locale sorts them case-blind (the GPU machine's did).
export LC_ALL=C
src=$1 work=$2
spdx=$src/tools/spdx.sh
rm -rf "$work"
mkdir -p "$work/t"
# WORK_DIR may lie inside a git checkout (the build tree): git must not look
# above it, so the sample tree is searched as plain folders.
export GIT_CEILING_DIRECTORIES=$work
cd "$work/t"

fail() {
  echo "check_spdx: FAIL: $*" >&2
  exit 1
}

mkdir -p sub fuzz/corpus/ini build
printf 'int main(void) { return 0; }\n' >a.c
printf '#ifndef B_H\n#define B_H\nint b(void);\n#endif\n' >sub/b.h
printf '__global__ void k(void) {}\n' >k.cu
printf 'message(STATUS "cmake ran")\n' >CMakeLists.txt
printf 'set(X 1)\n' >m.cmake
printf 'set(Y @Y@)\n' >sub/c.cmake.in
printf '#!/bin/sh\necho shell ran\n' >s.sh
chmod 750 s.sh
printf '#!/usr/bin/env bash\necho bash ran\n' >run
chmod 755 run
printf '#!/usr/bin/python3\n# -*- coding: utf-8 -*-\nprint("python ran")\n' >p.py
printf '"""The docstring."""\nimport sys\n' >q.py
printf '[runtime]\norder = cpu\n' >c.ini
printf '# Copyright 1999 Someone Else\necho kept\n' >other.sh
printf '/* SPDX-License-Identifier: MIT */\nint already;\n' >already.c
printf 'data\n' >notes.txt
printf '{"a": 1}\n' >x.json
printf '[runtime]\n' >fuzz/corpus/ini/seed.ini
printf 'int generated;\n' >build/gen.c
want="CMakeLists.txt
a.c
c.ini
k.cu
m.cmake
other.sh
p.py
q.py
run
s.sh
sub/b.h
sub/c.cmake.in"

rc=0
got=$("$spdx" --check . 2>"$work/check.err") || rc=$?
[ $rc -eq 1 ] || fail "--check exited with $rc, expected 1"
[ "$(sort <<<"$got")" = "$want" ] || fail "--check listed:
$got
expected:
$want"
grep -q '12 file(s) lack' "$work/check.err" || fail "--check summary: $(cat "$work/check.err")"
sha_before=$(sha256sum notes.txt x.json fuzz/corpus/ini/seed.ini build/gen.c already.c)

"$spdx" . >"$work/fix.log"
[ "$(wc -l <"$work/fix.log")" -eq 12 ] || fail "the fix reported $(wc -l <"$work/fix.log") files, expected 12"
"$spdx" --check . || fail "--check after the fix still lists files"
[ "$(sha256sum notes.txt x.json fuzz/corpus/ini/seed.ini build/gen.c already.c)" = "$sha_before" ] ||
  fail "data, build trees or a file with a header were changed"

expect_head() { # expect_head FILE LINE...
  local f=$1 n=0 line
  shift
  for line in "$@"; do
    n=$((n + 1))
    [ "$(sed -n "${n}p" "$f")" = "$line" ] || fail "$f line $n is '$(sed -n "${n}p" "$f")', expected '$line'"
  done
}
id="SPDX-License-Identifier: Apache-2.0" cr="Copyright 2026 The accel authors"
expect_head a.c "/* $id */" "/* $cr */" 'int main(void) { return 0; }'
expect_head sub/b.h "/* $id */" "/* $cr */" '#ifndef B_H'
expect_head k.cu "/* $id */" "/* $cr */"
expect_head CMakeLists.txt "# $id" "# $cr" 'message(STATUS "cmake ran")'
expect_head sub/c.cmake.in "# $id" "# $cr"
expect_head s.sh '#!/bin/sh' "# $id" "# $cr" 'echo shell ran'
expect_head run '#!/usr/bin/env bash' "# $id" "# $cr"
expect_head p.py '#!/usr/bin/python3' '# -*- coding: utf-8 -*-' "# $id" "# $cr" 'print("python ran")'
expect_head c.ini "; $id" "; $cr" '[runtime]'
expect_head other.sh "# $id" '# Copyright 1999 Someone Else' 'echo kept'
[ "$(stat -c %a s.sh)" = 750 ] || fail "s.sh mode $(stat -c %a s.sh), expected 750 (kept)"

# The files still work.
cc -std=c11 -Wall -Werror -c a.c -o "$work/a.o"
cc -std=c11 -Wall -Werror -fsyntax-only -x c sub/b.h
[ "$(cmake -P CMakeLists.txt 2>&1)" = "-- cmake ran" ] || fail "CMakeLists.txt no longer runs"
[ "$(./s.sh)" = "shell ran" ] || fail "s.sh no longer runs"
[ "$(./run)" = "bash ran" ] || fail "run no longer runs"
[ "$(/usr/bin/python3 p.py)" = "python ran" ] || fail "p.py no longer runs"
[ "$(/usr/bin/python3 -c 'import ast, sys; print(ast.get_docstring(ast.parse(open("q.py").read())))')" = \
  "The docstring." ] || fail "q.py lost its module docstring"

# Idempotent: a second run changes nothing.
sums=$(find . -type f -exec sha256sum {} + | sort)
"$spdx" . >"$work/fix2.log"
[ ! -s "$work/fix2.log" ] || fail "a second run changed: $(cat "$work/fix2.log")"
[ "$(find . -type f -exec sha256sum {} + | sort)" = "$sums" ] || fail "a second run changed files"

# In a git work tree: tracked and untracked files, not ignored ones.
mkdir -p "$work/g"
cd "$work/g"
git init -q .
printf 'int tracked;\n' >tracked.c
printf 'int untracked;\n' >untracked.c
printf 'int ignored;\n' >ignored.c
printf 'ignored.c\n' >.gitignore
git add tracked.c .gitignore
rc=0
got=$("$spdx" --check . 2>/dev/null) || rc=$?
[ $rc -eq 1 ] || fail "--check in git exited with $rc, expected 1"
[ "$(sort <<<"$got")" = "tracked.c
untracked.c" ] || fail "--check in git listed: $got"

# The packaging files carry the header.
"$spdx" --check "$src/tools/spdx.sh" "$src/tools/build-debs.sh" "$src/tests/install" "$src/cmake" ||
  fail "packaging files lack the header"
echo "check_spdx: PASS"
