#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Checks `accel run` against NumPy, and its handling of bad input.

usage: numpy_check.py ACCEL_BINARY TMPDIR [--seed N] [--device NAME] [--quick]
                      [--keep] [--jobs N]

NumPy writes random inputs (seeded; the seed is printed and can be given back
with --seed or $ACCEL_TEST_SEED), `accel run` computes, and each result is
compared with an independent reference with these tolerances:

- add, subtract, multiply, divide, sqrt must be correctly rounded (IEEE 754).
  f32: the result must equal float32(float64 op of the float32 inputs) exactly;
  rounding twice is innocuous because 53 >= 2*24 + 2 (Figueroa, "When is
  double rounding innocuous?", SIGNUM 1995). f64: the reference is exact
  rational arithmetic (fractions.Fraction) rounded once to float64 for
  + - * /, and for sqrt an exact check that r is the float64 nearest to
  sqrt(x) (x lies between the squares of the midpoints around r).
- negative, abs, relu, maximum, minimum, max, min: exact (NaN where NumPy
  gives NaN). maximum, minimum, max and min follow IEEE 754-2019
  maximum/minimum (section 9.6), -0 < +0: maximum(-0, +0) = +0 and
  minimum(-0, +0) = -0 in either order. NumPy is order-dependent there
  (np.maximum(0.0, -0.0) is -0.0), so their references are computed here
  (ieee_maximum, ieee_minimum) and the sign of zero is compared too.
- exp, log: within 2 ulp, tanh: within 3 ulp (ulp of the result's dtype) of
  np.longdouble results, which carry 11 more bits than float64. tanh gets one
  more because glibc's tanh, which the CPU backend uses, is listed at 2 ulp
  and measured 2.0012 ulp at x = -0.23220181536475337 (exact tanh
  -0.2281166368464366268, glibc -0.22811663684643657).
- sin, cos: within 2 ulp of np.longdouble results. expit (and its other
  name, sigmoid): within 3 ulp of 1 / (1 + exp(-x)) in long double, the
  bound docs/checking.md gives the CUDA backend's float64 sigmoid
  (e^x / (1 + e^x) from CUDA's 1-ulp exp and two roundings): the H100
  measured 2.2 ulp at x = -2.71 (seed 1570469844, 2026-12-06).
- sum: |r - s| <= 2*n*eps*sum|x|, dot: |r - s| <= 2*n*eps*sum|x*y|, with s the
  exact sum (math.fsum / Fraction) (Higham, "Accuracy and Stability of
  Numerical Algorithms", 2002, 3.1 and 4.2).
- matmul: |C - R|ij <= 2*k*eps*(|A||B|)ij with R computed in np.longdouble
  (Higham 3.5). eps is the dtype's machine epsilon (2^-23 or 2^-52).
- transpose: a pure data move, bit for bit np.ascontiguousarray(x.T).

Bad-input cases (wrong shapes, dtypes, int64, big-endian, Fortran order,
truncated, missing and garbage files, usage errors) must exit with 1 or 2 and a
message on stderr, never a signal or a sanitizer report, and must leave the
output file untouched (not created, or an existing one unchanged).

Up to --jobs `accel` programs run at once (default min(8, CPU count); each
start of one can cost half a second of GPU set-up), each case with files of its
own. The inputs are made and the results checked in one thread, in a fixed
order, so a seed gives the same inputs and the same report whatever --jobs is.

Prints every failure with its case, then "N passed, M failed"; exits 1 when
anything failed.
"""

import argparse
import concurrent.futures
import glob
import itertools
import math
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
from fractions import Fraction
from functools import partial

import numpy as np

PASSED = 0
FAILED = 0
FAILURES = []


def ok(name):
    global PASSED
    PASSED += 1
    print(f"ok   {name}")


def fail(name, why):
    global FAILED
    FAILED += 1
    FAILURES.append(name)
    print(f"FAIL {name}: {why}")


class Runner:
    """Starts `accel` runs on a pool of worker threads. Files are named (path)
    and runs started (start) by the main thread, which also checks every
    result, in the order the runs were started."""

    def __init__(self, accel, workdir, device, jobs):
        self.accel = accel
        self.workdir = workdir
        self.device = device
        self.count = 0
        self.count_lock = threading.Lock()
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)

    def path(self, stem):
        with self.count_lock:
            self.count += 1
            count = self.count
        return os.path.join(self.workdir, f"{count:04d}_{stem}.npy")

    def command(self, args, device=True):
        cmd = [self.accel] + args
        if device and self.device and args and args[0] == "run":
            # Before a "--": everything after it is an operand.
            at = args.index("--") + 1 if "--" in args else len(cmd)
            cmd[at:at] = ["--device", self.device]
        return cmd

    def start(self, args, device=True, timeout=300):
        """A future of run's result, run on a worker."""
        return self.pool.submit(run_command, self.command(args, device), timeout)

    def run(self, args, device=True, timeout=300):
        return self.start(args, device, timeout).result()

    def close(self):
        self.pool.shutdown(wait=True, cancel_futures=True)


def run_command(cmd, timeout):
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=timeout)
    return p.returncode, p.stdout, p.stderr, cmd


def drain(pending):
    """Checks each (future, check) of pending, in the order given (the order the
    runs were started, not the order they end): check(rc, stdout, stderr, cmd)."""
    for future, check in pending:
        check(*future.result())


def crashed(rc, err):
    return rc < 0 or "Sanitizer" in err or "runtime error:" in err or "Segmentation" in err


# ---------------------------------------------------------------- references

def ulp(x, dtype):
    """Spacing of dtype at |x| (for a longdouble x, at its value rounded to dtype)."""
    return np.spacing(np.abs(np.asarray(x, dtype=np.longdouble)).astype(dtype)).astype(np.longdouble)


def exact_binary(op, a, b, dtype):
    if dtype == np.float32:
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        r = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply,
             "divide": np.divide}[op](a64, b64)
        return r.astype(np.float32)
    f = {"add": lambda x, y: x + y, "subtract": lambda x, y: x - y,
         "multiply": lambda x, y: x * y, "divide": lambda x, y: x / y}[op]
    out = np.empty(a.shape, dtype=np.float64)
    flat_a, flat_b, flat_o = a.ravel(), b.ravel(), out.reshape(-1)
    for i in range(flat_a.size):
        x, y = float(flat_a[i]), float(flat_b[i])
        if not (math.isfinite(x) and math.isfinite(y)):
            # Infinities and NaN are IEEE special cases, not a rounding question.
            flat_o[i] = f(np.float64(x), np.float64(y))
            continue
        # float(Fraction) is correctly rounded (int true division is).
        flat_o[i] = float(f(Fraction(x), Fraction(y)))
    return out


def sqrt_is_correctly_rounded(r, x):
    """True when r (float64) is the float64 nearest to sqrt(x), exactly."""
    if x == 0:
        return r == 0
    if not (r > 0 and math.isfinite(r)):
        return False
    lo = (Fraction(r) + Fraction(math.nextafter(r, 0))) / 2
    hi = (Fraction(r) + Fraction(math.nextafter(r, math.inf))) / 2
    fx = Fraction(x)
    return lo * lo <= fx <= hi * hi


def compare_exact(got, ref):
    if got.shape != ref.shape:
        return f"shape {got.shape}, expected {ref.shape}"
    same = (got == ref) | (np.isnan(got) & np.isnan(ref))
    if not np.all(same):
        i = np.flatnonzero(~same.ravel())[0]
        return (f"{np.count_nonzero(~same)} of {got.size} elements differ; first at flat index {i}: "
                f"got {got.ravel()[i]!r}, expected {ref.ravel()[i]!r}")
    return None


def compare_exact_signed(got, ref):
    """compare_exact, and zeros must have the reference's sign."""
    why = compare_exact(got, ref)
    if why is not None:
        return why
    differ = (got == 0) & (np.signbit(got) != np.signbit(ref))
    if np.any(differ):
        i = np.flatnonzero(differ.ravel())[0]
        return (f"{np.count_nonzero(differ)} of {got.size} zeros have the wrong sign; first at flat "
                f"index {i}: got {got.ravel()[i]!r}, expected {ref.ravel()[i]!r}")
    return None


def ieee_maximum(a, b):
    """IEEE 754-2019 maximum: NaN-propagating, and -0 < +0 in either order."""
    r = np.maximum(a, b)  # right except for the sign of max(+0, -0)
    both_zero = (a == 0) & (b == 0)
    zero = np.where(np.signbit(a) & np.signbit(b), -0.0, 0.0).astype(r.dtype)
    return np.where(both_zero, zero, r)


def ieee_minimum(a, b):
    """IEEE 754-2019 minimum: NaN-propagating, and -0 < +0 in either order."""
    r = np.minimum(a, b)
    both_zero = (a == 0) & (b == 0)
    zero = np.where(np.signbit(a) | np.signbit(b), -0.0, 0.0).astype(r.dtype)
    return np.where(both_zero, zero, r)


def ieee_reduce(op, a):
    """max or min (op) over all of a by IEEE 754-2019 (NaN if any element is)."""
    flat = a.ravel()
    if np.any(np.isnan(flat)):
        return np.asarray(np.nan, dtype=a.dtype)
    r = np.max(flat) if op == "max" else np.min(flat)
    if r == 0:
        # Only the sign of a zero result depends on the rule: max is +0 if any
        # zero is +0, min is -0 if any zero is -0.
        zeros = flat[flat == 0]
        negative = np.all(np.signbit(zeros)) if op == "max" else np.any(np.signbit(zeros))
        r = -0.0 if negative else 0.0
    return np.asarray(r, dtype=a.dtype)


def compare_tol(got, ref, tol, what):
    got_l = got.astype(np.longdouble)
    err = np.abs(got_l - ref)
    bad = ~(err <= tol)
    if got.shape != ref.shape:
        return f"shape {got.shape}, expected {ref.shape}"
    if np.any(bad):
        i = np.flatnonzero(bad.ravel())[0]
        return (f"{np.count_nonzero(bad)} of {got.size} elements beyond {what}; first at flat index "
                f"{i}: got {got.ravel()[i]!r}, reference {float(ref.ravel()[i])!r}, "
                f"error {float(err.ravel()[i]):.3g} > {float(tol.ravel()[i]):.3g}")
    return None


# ---------------------------------------------------------------- inputs

def rand(rng, shape, dtype, lo=-10.0, hi=10.0):
    return rng.uniform(lo, hi, size=shape).astype(dtype)


def inputs_for(op, rng, shape, dtype):
    if op in ("sqrt", "log"):
        # Positive, spanning magnitudes.
        x = np.exp(rng.uniform(-20, 20, size=shape)).astype(dtype)
        return [x]
    if op == "exp":
        lim = 60.0 if dtype == np.float32 else 500.0
        return [rand(rng, shape, dtype, -lim, lim)]
    if op == "tanh":
        return [rand(rng, shape, dtype, -12, 12)]
    if op == "divide":
        a = rand(rng, shape, dtype, -1e3, 1e3)
        b = rand(rng, shape, dtype, 0.5, 100) * np.where(rng.random(shape) < 0.5, -1, 1).astype(dtype)
        return [a, b.astype(dtype)]
    if op in BINARY:
        # Mixed magnitudes make additions round.
        a = (rand(rng, shape, dtype) * np.exp2(rng.integers(-8, 8, size=shape))).astype(dtype)
        b = (rand(rng, shape, dtype) * np.exp2(rng.integers(-8, 8, size=shape))).astype(dtype)
        return [a, b]
    if op == "dot":
        return [rand(rng, shape, dtype, -1, 1), rand(rng, shape, dtype, -1, 1)]
    return [rand(rng, shape, dtype, -100, 100)]


# Accepted error of the transcendental ops, in ulp of the result (see above).
ULP_BOUND = {"exp": 2, "log": 2, "tanh": 3, "sin": 2, "cos": 2, "expit": 3, "sigmoid": 3}

BINARY = ("add", "subtract", "multiply", "divide", "maximum", "minimum")
UNARY = ("negative", "abs", "sqrt", "exp", "log", "tanh", "relu", "sin", "cos", "expit", "sigmoid")
REDUCE = ("sum", "max", "min")


def reference_check(op, ins, got, dtype):
    """None when got is right, else why not."""
    eps = np.finfo(dtype).eps
    a = ins[0]
    if op in ("add", "subtract", "multiply", "divide"):
        return compare_exact(got, exact_binary(op, ins[0], ins[1], dtype))
    if op == "maximum":
        return compare_exact_signed(got, ieee_maximum(ins[0], ins[1]))
    if op == "minimum":
        return compare_exact_signed(got, ieee_minimum(ins[0], ins[1]))
    if op == "negative":
        return compare_exact(got, np.negative(a))
    if op == "abs":
        return compare_exact(got, np.abs(a))
    if op == "relu":
        return compare_exact(got, np.where(np.isnan(a), a, np.maximum(a, 0)).astype(dtype))
    if op == "sqrt":
        if dtype == np.float32:
            return compare_exact(got, np.sqrt(a.astype(np.float64)).astype(np.float32))
        if got.shape != a.shape:
            return f"shape {got.shape}, expected {a.shape}"
        for i, (r, x) in enumerate(zip(got.ravel(), a.ravel())):
            if not sqrt_is_correctly_rounded(float(r), float(x)):
                return f"sqrt({x!r}) = {r!r} is not correctly rounded (flat index {i})"
        return None
    if op in ("expit", "sigmoid"):
        # SciPy's expit, 1 / (1 + e^-x), in long double.
        ref = 1 / (1 + np.exp(-a.astype(np.longdouble)))
        n_ulp = ULP_BOUND[op]
        return compare_tol(got, ref, n_ulp * ulp(ref, dtype), f"{n_ulp} ulp")
    if op in ("exp", "log", "tanh", "sin", "cos"):
        ref = getattr(np, op)(a.astype(np.longdouble))
        n_ulp = ULP_BOUND[op]
        return compare_tol(got, ref, n_ulp * ulp(ref, dtype), f"{n_ulp} ulp")
    if op == "sum":
        s = math.fsum(float(v) for v in a.ravel())
        tol = 2 * max(a.size, 1) * eps * math.fsum(abs(float(v)) for v in a.ravel())
        return compare_tol(got, np.asarray(s, dtype=np.longdouble), np.asarray(tol, dtype=np.longdouble),
                           "2*n*eps*sum|x|")
    if op == "max":
        return compare_exact_signed(got, ieee_reduce("max", a))
    if op == "min":
        return compare_exact_signed(got, ieee_reduce("min", a))
    if op == "dot":
        x, y = ins
        prods = [Fraction(float(p)) * Fraction(float(q)) for p, q in zip(x.ravel(), y.ravel())]
        s = float(sum(prods, Fraction(0)))
        tol = 2 * max(x.size, 1) * eps * float(sum(abs(v) for v in prods))
        return compare_tol(got, np.asarray(s, dtype=np.longdouble), np.asarray(tol, dtype=np.longdouble),
                           "2*n*eps*sum|x*y|")
    if op == "matmul":
        A, B = ins
        ref = np.matmul(A.astype(np.longdouble), B.astype(np.longdouble))
        bound = np.matmul(np.abs(A).astype(np.longdouble), np.abs(B).astype(np.longdouble))
        k = A.shape[-1]
        tol = 2 * max(k, 1) * eps * bound
        return compare_tol(got, ref, tol, "2*k*eps*(|A||B|)ij")
    if op == "transpose":
        ref = np.ascontiguousarray(a.T)
        why = compare_exact(got, ref)
        if why is None and got.tobytes() != ref.tobytes():
            why = "equal values but different bits (sign of zero or NaN payload)"
        return why
    return f"no reference for {op}"


# ---------------------------------------------------------------- cases

def start_op(r, op, ins, dtype, label):
    """Saves the inputs and starts `accel run OP`; returns (future, check)."""
    paths = []
    for j, x in enumerate(ins):
        p = r.path(f"{op}_in{j}")
        np.save(p, x)
        paths.append(p)
    out = r.path(f"{op}_out")
    name = f"{op} {np.dtype(dtype).name} {label}"
    return r.start(["run", op] + paths + ["-o", out]), partial(check_op, name, op, ins, dtype, out)


def check_op(name, op, ins, dtype, out, rc, _, err, cmd):
    if crashed(rc, err) or rc != 0:
        fail(name, f"exit {rc}: {err.strip()}  [{' '.join(cmd)}]")
        return
    if "ran on" not in err:
        fail(name, f"stderr does not say where the op ran: {err.strip()!r}")
        return
    try:
        got = np.load(out)
    except Exception as e:  # noqa: BLE001 - any load failure is a test failure
        fail(name, f"cannot load the output: {e}")
        return
    if got.dtype != np.dtype(dtype):
        fail(name, f"output dtype {got.dtype}, expected {np.dtype(dtype)}")
        return
    why = reference_check(op, ins, got, dtype)
    if why:
        fail(name, f"{why}  [{' '.join(cmd)}]")
    else:
        ok(name)


def random_op_cases(rng, dtype, quick):
    """(op, inputs, label) of the elementwise ops, reductions and dot on random inputs."""
    shapes = [(), (1,), (2,), (1009,), (7, 13), (2, 3, 5), (0,)]
    if not quick:
        shapes.append((100003,))
    for op in BINARY + UNARY:
        for shape in shapes:
            yield op, inputs_for(op, rng, shape, dtype), f"shape {shape}"
    for op in REDUCE:
        for shape in shapes:
            if op != "sum" and 0 in shape:
                continue  # no identity: an error case below
            yield op, inputs_for(op, rng, shape, dtype), f"shape {shape}"
    for n in (1, 2, 17, 1009, 0) + (() if quick else (100003,)):
        yield "dot", inputs_for("dot", rng, (n,), dtype), f"n={n}"


def layout_op_cases(rng, dtype, quick):
    """(op, inputs, label) of matmul and transpose on random inputs."""
    mm = [((1, 1), (1, 1)), ((7, 13), (13, 5)), ((64, 64), (64, 64)), ((1, 1009), (1009, 1)),
          ((33, 1), (1, 17)), ((3, 0), (0, 4)), ((0, 3), (3, 4)),
          ((4, 7, 9), (4, 9, 5)), ((1, 2, 2), (1, 2, 2)), ((3, 17, 31), (3, 31, 19)),
          ((0, 2, 3), (0, 3, 4))]
    if not quick:
        mm.append(((2, 127, 131), (2, 131, 137)))
    for sa, sb in mm:
        A = rand(rng, sa, dtype, -1, 1)
        B = rand(rng, sb, dtype, -1, 1)
        yield "matmul", [A, B], f"{sa} @ {sb}"
    tr = [(1, 1), (1, 7), (7, 1), (0, 5), (5, 0), (31, 33), (32, 32), (33, 31), (1000, 3),
          (129, 257)]
    if not quick:
        tr.append((1031, 517))
    for shape in tr:
        x = rand(rng, shape, dtype)
        if x.size >= 3:
            x.ravel()[:3] = [np.nan, -0.0, -np.inf]
        yield "transpose", [x], f"shape {shape}"


def special_op_cases(dtype):
    """(op, inputs, label) where the definition matters (NaN propagation, signed zero, inf)."""
    sv = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 3.5], dtype=dtype)
    sw = np.array([1.0, np.nan, 2.0, -0.0, 0.0, np.inf, -np.inf, 3.5], dtype=dtype)
    for op in ("maximum", "minimum", "add", "multiply"):
        yield op, [sv, sw], "special values"
    for op in ("maximum", "minimum"):
        yield op, [sw, sv], "special values, operands swapped"
    for op in ("negative", "abs", "relu", "max", "min"):
        yield op, [sv], "special values"
    # Signed zeros in reductions: IEEE 754-2019 says max [-0, +0] = +0 and
    # min = -0 whatever the order (np.max / np.min depend on it).
    for k, zeros in enumerate(([-0.0, 0.0], [0.0, -0.0], [-0.0] * 1000 + [0.0] + [-0.0] * 8,
                               [0.0] * 1000 + [-0.0] + [0.0] * 8, [-0.0, -0.0], [0.0, 0.0])):
        z = np.array(zeros, dtype=dtype)
        for op in ("max", "min"):
            yield op, [z], f"signed zeros case {k} (n={z.size})"


def op_cases(r, rng, quick):
    pending = []
    for dtype in (np.float32, np.float64):
        cases = itertools.chain(random_op_cases(rng, dtype, quick),
                                layout_op_cases(rng, dtype, quick), special_op_cases(dtype))
        for op, ins, label in cases:
            pending.append(start_op(r, op, ins, dtype, label))
    drain(pending)


def bad_inputs(d, rng):
    """Writes the bad-input cases' files into d; returns their paths by name."""
    f = {name: os.path.join(d, name + ".npy") for name in (
        "good_f32", "good2_f32", "vec5_f32", "good_f64", "int64", "bigendian", "fortran",
        "truncated", "garbage", "empty", "half", "does_not_exist")}
    np.save(f["good_f32"], rng.random((3, 4)).astype(np.float32))
    np.save(f["good2_f32"], rng.random((3, 4)).astype(np.float32))
    np.save(f["vec5_f32"], rng.random(5).astype(np.float32))
    np.save(f["good_f64"], rng.random((3, 4)))
    np.save(f["int64"], np.arange(12).reshape(3, 4))
    np.save(f["bigendian"], np.arange(12, dtype=">f4").reshape(3, 4))
    np.save(f["fortran"], np.asfortranarray(rng.random((3, 4)).astype(np.float32)))
    with open(f["good_f32"], "rb") as src:
        raw = src.read()
    with open(f["truncated"], "wb") as dst:
        dst.write(raw[:-7])
    with open(f["garbage"], "wb") as dst:
        dst.write(bytes(rng.integers(0, 256, 300, dtype=np.uint8)))
    np.save(f["empty"], np.zeros(0, dtype=np.float32))
    np.save(f["half"], np.ones((3, 4), dtype=np.float16))
    f["no_such_dir_out"] = os.path.join(d, "no_such_dir", "out.npy")
    return f


def bad_case_table(d, f):
    """(name, argv after the binary, expected exit code); OUT stands for the output."""
    good, good2, vec5, missing = f["good_f32"], f["good2_f32"], f["vec5_f32"], f["does_not_exist"]
    return [
        ("no arguments", [], 2),
        ("unknown command", ["frobnicate"], 2),
        ("unknown global option", ["--frob"], 2),
        ("run without op", ["run"], 2),
        ("unknown op", ["run", "cosh", good, "-o", "OUT"], 2),
        ("too few inputs", ["run", "add", good, "-o", "OUT"], 2),
        ("too many inputs", ["run", "sqrt", good, good2, "-o", "OUT"], 2),
        ("far too many arguments", ["run", "add", good, good2, good, good2, "-o", "OUT"], 2),
        ("missing -o", ["run", "add", good, good2], 2),
        ("-o without value", ["run", "add", good, good2, "-o"], 2),
        ("--device without value", ["run", "add", good, good2, "-o", "OUT", "--device"], 2),
        ("unknown option", ["run", "add", good, good2, "-o", "OUT", "--fast"], 2),
        ("info with extra argument", ["info", "extra"], 2),
        ("shape mismatch", ["run", "add", good, vec5, "-o", "OUT"], 1),
        ("matmul inner mismatch", ["run", "matmul", good, good2, "-o", "OUT"], 1),
        ("matmul 1-D", ["run", "matmul", vec5, vec5, "-o", "OUT"], 1),
        ("dot of 2-D", ["run", "dot", good, good2, "-o", "OUT"], 1),
        ("transpose of 1-D", ["run", "transpose", vec5, "-o", "OUT"], 1),
        ("transpose of two inputs", ["run", "transpose", good, good2, "-o", "OUT"], 2),
        ("dtype mismatch", ["run", "add", good, f["good_f64"], "-o", "OUT"], 1),
        ("int64 input", ["run", "sqrt", f["int64"], "-o", "OUT"], 1),
        ("float16 input", ["run", "sqrt", f["half"], "-o", "OUT"], 1),
        ("big-endian input", ["run", "negative", f["bigendian"], "-o", "OUT"], 1),
        ("fortran-order input", ["run", "negative", f["fortran"], "-o", "OUT"], 1),
        ("truncated input", ["run", "negative", f["truncated"], "-o", "OUT"], 1),
        ("garbage input", ["run", "negative", f["garbage"], "-o", "OUT"], 1),
        ("missing input", ["run", "negative", missing, "-o", "OUT"], 1),
        ("directory as input", ["run", "negative", d, "-o", "OUT"], 1),
        ("max of empty", ["run", "max", f["empty"], "-o", "OUT"], 1),
        # An unknown device is a usage error in every subcommand (exit 2).
        ("unknown device", ["run", "add", good, good2, "-o", "OUT", "--device", "tpu:7"], 2),
        ("missing config", ["run", "add", good, good2, "-o", "OUT", "--config", missing], 1),
        ("output in missing folder", ["run", "add", good, good2, "-o", f["no_such_dir_out"]], 1),
        ("empty --config", ["run", "add", good, good2, "-o", "OUT", "--config", ""], 2),
        ("empty --device", ["run", "add", good, good2, "-o", "OUT", "--device", ""], 2),
        ("-o given twice", ["run", "add", good, good2, "-o", "OUT", "-o", "OUT"], 2),
        ("--device given twice", ["run", "add", good, good2, "-o", "OUT", "--device", "cpu",
                                  "--device=cpu"], 2),
        ("directory as config", ["run", "add", good, good2, "-o", "OUT", "--config", d], 1),
    ]


SENTINEL = b"sentinel: must survive a failed run\n"


def check_bad(label, args, want, out, preexisting, rc, _, err, cmd):
    if crashed(rc, err):
        fail(label, f"crashed (exit {rc}): {err.strip()[-500:]}")
    elif rc != want:
        fail(label, f"exit {rc}, expected {want}; stderr: {err.strip()!r}  [{' '.join(cmd)}]")
    elif not err.strip():
        fail(label, "no message on stderr")
    elif "OUT" in args and preexisting and open(out, "rb").read() != SENTINEL:
        fail(label, "the existing output file was changed")
    elif "OUT" in args and not preexisting and os.path.exists(out):
        fail(label, "an output file was created")
    else:
        ok(label)


def bad_cases(r, rng):
    d = r.workdir
    pending = []
    for k, (name, args, want) in enumerate(bad_case_table(d, bad_inputs(d, rng))):
        for preexisting in (False, True):
            # An output of its own for each run (they run at once).
            out = os.path.join(d, f"bad_out_{k:02d}_{int(preexisting)}.npy")
            if os.path.exists(out):
                os.remove(out)
            if preexisting:
                with open(out, "wb") as f:
                    f.write(SENTINEL)
            argv = [out if a == "OUT" else a for a in args]
            label = f"bad input: {name}" + (" (existing output)" if preexisting else "")
            pending.append((r.start(argv, device=False),
                            partial(check_bad, label, args, want, out, preexisting)))
            if "OUT" not in args:
                break
    drain(pending)
    # Every run has ended (and no other has started): any temporary file is left behind.
    leftovers = glob.glob(os.path.join(d, "*.tmp.*"))
    if leftovers:
        fail("no temporary files left behind", ", ".join(leftovers))
    else:
        ok("no temporary files left behind")


def check_message(name, want, text, rc, _, err, cmd):
    if crashed(rc, err) or rc != want or text not in err:
        fail(name, f"exit {rc} (want {want}), stderr {err.strip()!r} lacks {text!r}")
    else:
        ok(name)


def message_cases(r, rng):
    """Messages of failures that must say the right thing, and outputs that
    are not regular files (accel_npy_save renames a temporary file over OUT)."""
    d = r.workdir
    good = os.path.join(d, "msg_good.npy")
    np.save(good, rng.random(4).astype(np.float32))
    checks = [
        # (name, argv, expected exit, text stderr must hold)
        ("--device gpu hints at cuda", ["run", "sum", good, "-o", os.path.join(d, "msg.npy"),
                                        "--device", "gpu"], 2, "GPUs are named cuda, cuda:N"),
        ("directory as config says so", ["run", "sum", good, "-o", os.path.join(d, "msg.npy"),
                                         "--config", d], 1, "is a directory"),
        ("replay of a missing file", ["replay", os.path.join(d, "no_such.repro")], 1,
         "accel replay: "),
        ("output is a directory", ["run", "sum", good, "-o", d], 1, "is not a regular file"),
    ]
    fifo = os.path.join(d, "msg_fifo.npy")
    if os.path.lexists(fifo):
        os.remove(fifo)
    os.mkfifo(fifo)
    checks.append(("output is a FIFO", ["run", "sum", good, "-o", fifo], 1,
                   "is not a regular file (it is a FIFO)"))
    drain([(r.start(args, device=False, timeout=60), partial(check_message, name, want, text))
           for name, args, want, text in checks])
    if not stat.S_ISFIFO(os.lstat(fifo).st_mode):
        fail("a FIFO output stays a FIFO", "it was replaced")
    else:
        ok("a FIFO output stays a FIFO")
    os.remove(fifo)


def check_help(name, rc, out, err, cmd):
    if crashed(rc, err) or rc != 0 or not out.strip():
        fail(name, f"exit {rc}, stdout {out[:200]!r}, stderr {err[:200]!r}")
    else:
        ok(name)


def check_info(rc, out, err, cmd):
    if rc != 0 or "default device:" not in out or "devices (" not in out:
        fail("info", f"exit {rc}; stdout {out!r}; stderr {err!r}")
    else:
        ok("info")


def check_inplace(pa, a, b, rc, _, err, cmd):
    if rc != 0:
        fail("output over an input", f"exit {rc}: {err.strip()}")
    else:
        why = compare_exact(np.load(pa), (a.astype(np.float64) + b).astype(np.float32))
        fail("output over an input", why) if why else ok("output over an input")


def misc_cases(r, rng):
    pending = [(r.start(args, device=False), partial(check_help, " ".join(args)))
               for args in (["--help"], ["--version"], ["help", "run"], ["run", "--help"],
                            ["info", "--help"])]
    pending.append((r.start(["info"], device=False), check_info))
    # The output may be one of the inputs: temp file + rename.
    a = rng.random(1009).astype(np.float32)
    b = rng.random(1009).astype(np.float32)
    pa, pb = os.path.join(r.workdir, "inplace_a.npy"), os.path.join(r.workdir, "inplace_b.npy")
    np.save(pa, a)
    np.save(pb, b)
    pending.append((r.start(["run", "add", pa, pb, "-o", pa]), partial(check_inplace, pa, a, b)))
    drain(pending)
    # Options in any order, --output= form, -- before file names (after the run
    # above, which rewrote pa).
    out = os.path.join(r.workdir, "order_out.npy")
    rc, _, err, _ = r.run(["run", f"--output={out}", "multiply", "--", pa, pb])
    if rc != 0 or not os.path.exists(out):
        fail("options before operands", f"exit {rc}: {err.strip()}")
    else:
        ok("options before operands")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("accel", help="path of the accel program")
    ap.add_argument("tmpdir", help="folder for the .npy files (a fresh subfolder is made)")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--device", default=None, help="passed to every `accel run` (default: the default device)")
    ap.add_argument("--quick", action="store_true", help="skip the largest shapes")
    ap.add_argument("--keep", action="store_true", help="keep the files")
    ap.add_argument("--jobs", type=int, default=min(8, os.cpu_count() or 1),
                    help="accel runs at once (default: min(8, CPU count))")
    args = ap.parse_args()
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")

    seed = args.seed
    if seed is None:
        seed = int(os.environ.get("ACCEL_TEST_SEED", "0")) or int.from_bytes(os.urandom(4), "little")
    print(f"numpy_check: seed {seed} (rerun with --seed {seed}); numpy {np.__version__}")
    rng = np.random.default_rng(seed)

    accel = os.path.abspath(args.accel)
    if not os.access(accel, os.X_OK):
        print(f"numpy_check: {accel} is not an executable")
        return 1
    os.makedirs(args.tmpdir, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix="numpy_check_", dir=args.tmpdir)
    r = Runner(accel, workdir, args.device, args.jobs)
    try:
        misc_cases(r, rng)
        bad_cases(r, rng)
        message_cases(r, rng)
        op_cases(r, rng, args.quick)
    finally:
        r.close()
        if not args.keep and FAILED == 0:
            shutil.rmtree(workdir, ignore_errors=True)
    print(f"\n{PASSED} passed, {FAILED} failed (seed {seed})")
    if FAILED:
        print("failed: " + "; ".join(FAILURES))
        print(f"files kept in {workdir}")
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
