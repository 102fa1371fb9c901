#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# The Python of the NumPy and pytest ctests, chosen when the test runs, not
# when CMake configured the build, so a build tree copied to another machine
# (the GPU machine) runs them: $ACCEL_PYTHON from the environment when set,
# else the interpreter configured (-DACCEL_PYTHON, passed as the first
# argument) when it exists there, else python3 on PATH.
# Usage: accel_python.sh CONFIGURED_PYTHON ARGS...
configured=$1
shift
if [ -n "$ACCEL_PYTHON" ]; then
    exec "$ACCEL_PYTHON" "$@"
fi
if [ -x "$configured" ]; then
    exec "$configured" "$@"
fi
if command -v python3 >/dev/null 2>&1; then
    exec python3 "$@"
fi
echo "accel tests: no Python: $configured (-DACCEL_PYTHON) is not here, ACCEL_PYTHON is unset" \
     "and there is no python3 on PATH" >&2
exit 1
