#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# ctest python_interpreter_at_test_time: tests/accel_python.sh falls back to
# python3 on PATH when the configured interpreter is not there, and
# $ACCEL_PYTHON at test time wins over both (a stand-in interpreter that
# prints a marker, so the check holds whatever Pythons the machine has).
# Usage: accel_python_check.sh PATH/TO/accel_python.sh
set -u
wrapper=$1
env -u ACCEL_PYTHON sh "$wrapper" /nonexistent/python3 -c 'import sys' || {
    echo "FAIL: no fallback to python3 on PATH" >&2
    exit 1
}
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
printf '#!/bin/sh\necho from-ACCEL_PYTHON "$@"\n' >"$d/py"
chmod +x "$d/py"
got=$(ACCEL_PYTHON="$d/py" sh "$wrapper" /nonexistent/python3 -c x)
[ "$got" = "from-ACCEL_PYTHON -c x" ] || {
    echo "FAIL: \$ACCEL_PYTHON did not win: '$got'" >&2
    exit 1
}
echo "accel_python.sh: fallback and ACCEL_PYTHON both work"
