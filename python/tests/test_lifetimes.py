# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Lifetimes across accel.shutdown() and at interpreter exit, each in a fresh
interpreter so the suite's own runtime is not closed. Device-agnostic: arrays
are made on the default device (cuda:0 on a GPU machine), and the parts that
NumPy imports without a copy (np.from_dlpack, np.asarray views) on the CPU
device explicitly, since NumPy takes only host memory."""
import os
import subprocess
import sys
import textwrap


def run(code):
    env = dict(os.environ)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                          capture_output=True, text=True, timeout=120)


def test_arrays_of_a_closed_runtime_raise_and_a_new_runtime_opens():
    r = run("""
        import numpy as np, accel
        a = accel.ones(8)
        s = accel.Stream()
        h = np.arange(4.0)
        w = accel.from_dlpack(h)        # wrapped NumPy memory, released at close
        accel.shutdown()
        for use in (lambda: a + a, lambda: a.get(), lambda: s.synchronize()):
            try:
                use()
            except accel.ReleasedError as e:
                assert e.status == "ACCEL_ERROR_INVALID_HANDLE", e
            else:
                raise SystemExit("used an array of a closed runtime")
        assert h[3] == 3.0              # NumPy's memory survived accel's close
        b = accel.asarray([1.0, 2.0])  # a new runtime
        print(float(b.sum()))
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "3.0"


def test_exit_with_live_arrays_streams_and_exports_is_clean():
    r = run("""
        import numpy as np, accel
        a = accel.random.rand(1000)     # on the default device (a GPU where there is one)
        with accel.Stream():
            b = accel.exp(a)
        m = np.asarray(a)               # a copy from a GPU, a view on the CPU
        # NumPy imports only host memory: the zero-copy exports are made on the CPU.
        c = accel.random.rand(1000, device="cpu")
        with accel.Device("cpu"), accel.Stream():
            d = accel.exp(c)
        n = np.from_dlpack(d)           # NumPy holds accel memory at exit
        k = np.asarray(c)
        w = accel.from_dlpack(np.ones(16))
        ev = accel.Event(); ev.record()
        print("ok")
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"
    assert "Traceback" not in r.stderr and "warn" not in r.stderr.lower(), r.stderr
