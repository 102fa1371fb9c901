# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""The errors of `import accel` when libaccel cannot be used (issue 31,
item 3): ACCEL_LIBRARY naming another library says it is not libaccel (not
that libaccel is old), and a library not found lists every folder searched
and the ways to get it."""
import os
import subprocess
import sys
from pathlib import Path

from accel import _lib as L


def libc_path():
    with open("/proc/self/maps") as f:
        for line in f:
            if "libc.so.6" in line or "/libc-" in line:
                return line.split()[-1]
    raise AssertionError("no libc in /proc/self/maps")


def import_with(env_extra):
    env = dict(os.environ, **env_extra)
    return subprocess.run([sys.executable, "-c", "import accel"], env=env, capture_output=True,
                          text=True, timeout=120)


def test_accel_library_naming_libc_says_it_is_not_libaccel():
    path = libc_path()
    r = import_with({"ACCEL_LIBRARY": path})
    assert r.returncode != 0
    last = r.stderr.strip().splitlines()[-1]
    assert f"{path} (ACCEL_LIBRARY) is not libaccel" in last, last
    assert "older" not in r.stderr


def test_accel_library_naming_no_file_says_so():
    r = import_with({"ACCEL_LIBRARY": "libc.so.6"})
    assert r.returncode != 0
    assert "ACCEL_LIBRARY='libc.so.6' is not a file" in r.stderr


def test_not_found_lists_every_folder_searched_and_the_ways_to_get_it():
    e = L._not_found("libaccel.so.0", "libaccel.so.0: cannot open shared object file")
    msg = str(e)
    for folder in L._candidates():
        assert f"\n  {folder}\n" in msg + "\n", (folder, msg)
    assert "system loader" in msg
    assert "Three ways to get it" in msg and "pip install accel-runtime" in msg
    assert "libaccel0" in msg and "ACCEL_LIBRARY" in msg
    # The wheel's bundled folder is searched first, before any build tree or
    # the system.
    assert L._candidates()[0] == Path(L.__file__).resolve().parent / "_lib"
    assert msg.startswith("accel: cannot load libaccel (libaccel.so.0): libaccel.so.0: cannot")

