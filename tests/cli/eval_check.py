#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""`accel run eval` (tools/accel/run_eval.c):

- an expression of 10000 characters (no fixed limit on its length) gives
  NumPy's values, and so do long input names;
- a .npy file of format 3.0 is read;
- a compile error's position counts in the text the user typed, for cc and
  for tcc, on one line and over several lines, and also when the kernel was
  built for a fallback device (the first device cannot build kernels);
- an EXPR that does not compile, or names a function or variable that is
  neither an input nor C's, is a command-line error (exit 2) naming it and
  what EXPR may use, for cc and tcc, and on a fallback device;
- ACCEL_CPU_KERNEL_COMPILER overrides [backend.cpu] kernel_compiler;
- a fallback run names the device that ran it, and --report prints the
  placement report;
- --help says plainly that EXPR is C run with the user's rights.

usage: eval_check.py ACCEL MOCK_PLUGIN CPU_PLUGIN WORK_DIR"""
import os
import re
import subprocess
import sys

import numpy as np

FAILURES = []


def check(name, cond, detail=""):
    print(("ok    " if cond else "FAIL  ") + name + ("" if cond else ": " + detail))
    if not cond:
        FAILURES.append(name)


def run(accel, args, env=None):
    e = dict(os.environ)
    for k in ("ACCEL_CONFIG", "ACCEL_BACKEND", "ACCEL_VERIFY", "ACCEL_REPORT", "ACCEL_TRACE"):
        e.pop(k, None)
    e.update(env or {})
    p = subprocess.run([accel, *args], capture_output=True, text=True, timeout=120, env=e)
    # Under the debug-asan preset a sanitizer report fails the check that ran it.
    if "ERROR: AddressSanitizer" in p.stderr or "ERROR: LeakSanitizer" in p.stderr or \
            "runtime error:" in p.stderr:
        check("no sanitizer report from accel " + " ".join(args)[:200], False, p.stderr[-2000:])
    return p.returncode, p.stdout, p.stderr


def main():
    accel, mock, cpu, work = map(os.path.abspath, sys.argv[1:5])
    os.makedirs(work, exist_ok=True)
    os.chmod(work, 0o755)
    x = np.linspace(-3.0, 5.0, 37)
    a = os.path.join(work, "a.npy")
    np.save(a, x)
    out = os.path.join(work, "o.npy")

    # 10000 characters: 2500 terms of "a*k+" with k cycling 1..9.
    terms = ["a*%d" % (1 + i % 9) for i in range(2500)]
    expr = "+".join(terms)
    expr += " " * (10000 - len(expr))
    rc, _, err = run(accel, ["run", "eval", expr, "a=" + a, "-o", out, "--device", "cpu"])
    ref = sum(x * (1 + i % 9) for i in range(2500))
    got = np.load(out) if rc == 0 else None
    check("a 10000-character expression (rtol 1e-12)",
          rc == 0 and got is not None and np.allclose(got, ref, rtol=1e-12, atol=0),
          "%d %s" % (rc, err[-500:]))
    rc, _, err = run(accel, ["run", "eval", "a*1.0" + " " * 5000, "a=" + a, "-o", out,
                             "--device", "cpu"])
    check("an expression padded with 5000 spaces", rc == 0 and np.array_equal(np.load(out), x),
          err[-500:])
    names = ["n%d%s" % (i, "n" * 60) for i in range(16)]  # 62 or 63 characters each
    rc, _, err = run(accel, ["run", "eval", "+".join(names), "-o", out, "--device", "cpu"] +
                     ["%s=%s" % (n, a) for n in names])
    ref16 = x.copy()
    for _ in range(15):
        ref16 = ref16 + x  # the kernel's order of additions: the same bits
    check("16 inputs of 63-character names", rc == 0 and np.array_equal(np.load(out), ref16),
          err[-500:])
    name = "n" * 200
    rc, _, err = run(accel, ["run", "eval", "2*%s - a" % name, "%s=%s" % (name, a), "a=" + a,
                             "-o", out, "--device", "cpu"])
    check("a 200-character input name: refused, naming the limit",
          rc == 2 and "is too long (at most 63 characters)" in err, err[-500:])

    # .npy format 3.0 (as NumPy writes for a UTF-8 header) is read.
    import struct
    head = "{'descr': '<f8', 'fortran_order': False, 'shape': (%d,), }" % len(x)
    head += " " * (63 - (12 + len(head)) % 64) + "\n"
    v3 = os.path.join(work, "v3.npy")
    with open(v3, "wb") as f:
        f.write(b"\x93NUMPY\x03\x00" + struct.pack("<I", len(head)) + head.encode() + x.tobytes())
    rc, _, err = run(accel, ["run", "eval", "a + 1", "a=" + v3, "-o", out, "--device", "cpu"])
    check(".npy format 3.0 input", rc == 0 and np.array_equal(np.load(out), x + 1), err[-500:])

    # Positions: (expr, cc's "line:col", tcc's line).
    cases = [("a + qq", "1:5", "1"), ("a +", "1:4", "1"), ("a +\nqq", "2:1", "2"),
             ("a +\n\n  qq", "3:3", "3"), ("a *\n  (2", None, "2"), ("qq", "1:1", "1")]
    ini = os.path.join(work, "mock.ini")
    with open(ini, "w") as f:
        f.write("[runtime]\norder = mock, cpu\n[backend.mock]\nlibrary = %s\n"
                "[backend.cpu]\nlibrary = %s\n" % (mock, cpu))
    os.chmod(ini, 0o644)
    for compiler in ("cc", "tcc"):
        for where in (["--device", "cpu"], ["--config", ini]):
            for text, cc_pos, tcc_line in cases:
                rc, _, err = run(accel, ["run", "eval", text, "a=" + a, "-o", out] + where,
                                 env={"ACCEL_CPU_KERNEL_COMPILER": compiler})
                first = re.search(r"expr:(\d+)(?::(\d+))?: error", err)
                if compiler == "cc" and cc_pos:
                    want = cc_pos
                    have = first and "%s:%s" % (first.group(1), first.group(2))
                else:
                    want = tcc_line  # tcc gives the line only
                    have = first and first.group(1)
                check("%s %s: %r is reported at expr:%s, exit 2" % (compiler, where[0], text,
                                                                     want),
                      rc == 2 and have == want, "%r: %s" % (have, err[-800:]))
            # An unknown function (cc takes it as implicitly declared; the
            # loader cannot find it) and an unknown variable: exit 2, named.
            for text, name in (("foo(a) + 1", "foo"), ("sqrtt(a)", "sqrtt"), ("a * qq", "qq")):
                rc, _, err = run(accel, ["run", "eval", text, "a=" + a, "-o", out] + where,
                                 env={"ACCEL_CPU_KERNEL_COMPILER": compiler})
                want = ("accel run eval: error: EXPR names '%s', which is neither an input (a) "
                        "nor a C function or constant; EXPR may use its inputs and C's math "
                        "functions (sqrt," % name)
                check("%s %s: %r: exit 2 naming %s" % (compiler, where[0], text, name),
                      rc == 2 and want in err and "/proc/self/fd" not in err and
                      "accel run eval --help" in err, err[-800:])

    # The environment over the file: ACCEL_CPU_KERNEL_COMPILER beats
    # [backend.cpu] kernel_compiler (the compile error names the compiler).
    cc_ini = os.path.join(work, "cc.ini")
    with open(cc_ini, "w") as f:
        f.write("[runtime]\norder = cpu\n[backend.cpu]\nlibrary = %s\nkernel_compiler = cc\n"
                % cpu)
    os.chmod(cc_ini, 0o644)
    for env, want in (({}, "(cc "), ({"ACCEL_CPU_KERNEL_COMPILER": "tcc"}, "(tcc "),
                      ({"ACCEL_CPU_KERNEL_COMPILER": ""}, "(cc ")):
        rc, _, err = run(accel, ["run", "eval", "qq", "a=" + a, "-o", out, "--config", cc_ini],
                         env=env)
        check("kernel_compiler = cc with %r compiles with %s" % (env, want.strip("( ")),
              rc == 2 and want in err, err[-600:])

    # Where it ran: the fallback device, named; --report prints the kernel row.
    rc, _, err = run(accel, ["run", "eval", "a*2", "a=" + a, "-o", out, "--config", ini,
                             "--report"])
    check("a fallback run names cpu:0 and why; --report lists the kernel",
          rc == 0 and np.array_equal(np.load(out), 2 * x) and
          "expression ran on cpu:0, the fallback of mock:0" in err and
          re.search(r"placement report:.*\n\s+kernel\s+mock:0\s+1\s+1\s+cpu:0", err, re.S),
          err)

    rc, out_text, _ = run(accel, ["run", "eval", "--help"])
    check("run eval --help says EXPR is unsandboxed C",
          rc == 0 and "untrusted" in out_text and "numexpr" in out_text, out_text)
    if FAILURES:
        print("%d check(s) failed: %s" % (len(FAILURES), "; ".join(FAILURES)))
        sys.exit(1)
    print("all checks passed")


if __name__ == "__main__":
    main()
