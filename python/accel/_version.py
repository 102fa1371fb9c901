# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""The one place accel's version is written: CMakeLists.txt reads it (libaccel's
accel_version(), the CMake and pkg-config packages, the Debian packages), so
does python/pyproject.toml (the wheel) and accel.__version__. ctest
version_agree (tests/version_check.py) checks that they all agree. Keep this
file one plain assignment: CMake reads it with a regular expression."""
__version__ = "0.1.0"
