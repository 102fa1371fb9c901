# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""CuPy programs written as CuPy users write them (CuPy's documentation and
common questions: vector add, broadcasting, axis reductions, masks, the
kernel classes, streams, dtypes, the memory pool, fuse, random), ported by
changing the import to `import accel as cp`. Each runs in its own
interpreter, from a folder outside the tree, on the default device, and
checks its own results against NumPy; it prints "ok" last."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

import accel

HERE = Path(__file__).resolve().parent / "cupy_programs"
PROGRAMS = sorted(p.name for p in HERE.glob("p[0-9]*.py"))
# Programs that do not run yet, each with what is missing: strict, so a
# program that starts passing fails here until it is taken off the list.
NOT_YET = {
}


def test_every_program_is_collected():
    assert len(PROGRAMS) >= 16, PROGRAMS


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=NOT_YET[n])) if n in NOT_YET else n
    for n in PROGRAMS])
def test_cupy_program(name, tmp_path):
    env = dict(os.environ)
    pkg = str(Path(accel.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = pkg + os.pathsep + env.get("PYTHONPATH", "")
    env["ACCEL_LIBRARY"] = str(Path(accel.LIBRARY_PATH).resolve())  # the library this suite loaded
    r = subprocess.run([sys.executable, str(HERE / name)], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=240)
    out = r.stdout + r.stderr
    assert r.returncode == 0, f"{name} exited {r.returncode}:\n{out[-3000:]}"
    assert r.stdout.strip().splitlines()[-1] == "ok", out[-3000:]
