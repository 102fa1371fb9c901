# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""ctest python_array_api: the Array API standard's conformance suite
(data-apis/array-api-tests, third-party, read-only) against the namespace
``accel`` itself (ARRAY_API_TESTS_MODULE=accel).

Usage: array_api_check.py SUITE_DIR XFAILS_FILE MAX_EXAMPLES TEST_FILE...

Copies the suite to a temporary folder (pytest and hypothesis write next to
it), writes the xfails list in the suite's format (one test id a line; ours
carries a '# reason' after each id, and an 'off-cpu:' line applies only where
the default device is not the host, as a GPU), and runs the listed test files with a
derandomized hypothesis without shrinking
(array_api_noshrink.py). Fails (exit status of pytest) when a test that is not
listed fails: a test listed as passing that starts failing. Prints pytest's
summary line per run.
"""
import os
import shutil
import subprocess
import sys
import tempfile


OFF_CPU = "off-cpu:"


def xfail_ids(path: str, off_cpu: bool) -> list:
    """The test ids of our xfails file: each line 'ID  # reason', or
    'off-cpu: ID  # reason' for a test that fails only where accel's
    default device keeps its arrays off the host (off_cpu)."""
    ids = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line.startswith(OFF_CPU):
                line = line[len(OFF_CPU):].strip() if off_cpu else ""
            if line:
                ids.append(line)
    return ids


def default_device_off_cpu() -> bool:
    """Whether accel's default device keeps arrays off the host: its DLPack
    device type is not kDLCPU (1). Asked in a child, as the suite will be."""
    code = "import accel; print(accel.asarray([0.0]).__dlpack_device__()[0])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=300)
    return out.stdout.split()[-1] != "1"


def main() -> int:
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    suite, xfails, examples, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    with tempfile.TemporaryDirectory(prefix="accel_array_api_") as tmp:
        copy = os.path.join(tmp, "suite")
        shutil.copytree(suite, copy)
        for root, dirs, names in os.walk(copy):
            for n in dirs + names:
                os.chmod(os.path.join(root, n), 0o755 if n in dirs else 0o644)
        os.chmod(copy, 0o755)
        clean = os.path.join(tmp, "xfails.txt")
        with open(clean, "w", encoding="utf-8") as f:
            off_cpu = default_device_off_cpu()
            print(f"default device off the host: {off_cpu}", flush=True)
            f.write("".join(i + "\n" for i in xfail_ids(xfails, off_cpu)))
        here = os.path.dirname(os.path.abspath(__file__))  # array_api_noshrink.py
        path = os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p)
        env = dict(os.environ, ARRAY_API_TESTS_MODULE="accel",
                   ARRAY_API_TESTS_VERSION="2023.12", PYTHONPATH=path)
        cmd = [sys.executable, "-m", "pytest", "-q", "-rX", "-p", "no:cacheprovider", "-p",
               "array_api_noshrink", f"--max-examples={examples}",
               "--hypothesis-disable-deadline", "--hypothesis-derandomize",
               f"--xfails-file={clean}"] + [f"array_api_tests/{t}" for t in files]
        print(" ".join(cmd), flush=True)
        return subprocess.call(cmd, cwd=copy, env=env)


if __name__ == "__main__":
    sys.exit(main())
