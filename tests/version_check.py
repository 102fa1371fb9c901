#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""One version everywhere: CMake's project() version (read from
python/accel/_version.py, the one place it is written) must equal libaccel's
accel_version() (C), accel.__version__ (Python, as imported), the version
python/pyproject.toml resolves to (its dynamic attr, read without importing,
as setuptools does), and the Debian packages' upstream version (CPack's
configuration of this build).

usage: version_check.py PROJECT_VERSION SOURCE_DIR CPACK_CONFIG
(with PYTHONPATH and ACCEL_LIBRARY set to this build, as ctest does)"""
import ast
import ctypes
import os
import re
import sys
import tomllib


def pyproject_version(src):
    with open(os.path.join(src, "python", "pyproject.toml"), "rb") as f:
        meta = tomllib.load(f)
    if "version" in meta["project"]:
        return meta["project"]["version"]
    attr = meta["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    module, name = attr.rsplit(".", 1)
    path = os.path.join(src, "python", *module.split(".")) + ".py"
    if not os.path.isfile(path):
        path = os.path.join(src, "python", *module.split("."), "__init__.py")
    for node in ast.parse(open(path).read()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise SystemExit("version_check: %s has no %s" % (path, name))


def main():
    project, src, cpack = sys.argv[1:4]
    import accel
    lib = ctypes.CDLL(os.environ["ACCEL_LIBRARY"])
    lib.accel_version.restype = ctypes.c_char_p
    text = open(cpack).read()
    deb = re.search(r'set\(CPACK_PACKAGE_VERSION "([^"]+)"\)', text)
    got = {
        "C accel_version()": lib.accel_version().decode(),
        "Python accel.__version__": accel.__version__,
        "python/pyproject.toml": pyproject_version(src),
        "Debian packages (CPACK_PACKAGE_VERSION)": deb.group(1) if deb else None,
    }
    bad = {k: v for k, v in got.items() if v != project}
    for k, v in got.items():
        print("%-42s %s" % (k, v))
    if bad:
        raise SystemExit("version_check: FAIL: CMake's project version is %s, but %r" % (project, bad))
    print("version_check: PASS (all %s)" % project)


main()
