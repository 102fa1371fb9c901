# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""The elementwise functions on complex64 and complex128 (the C table's
complex column, through accel_array_unary/binary/where/astype) against
NumPy: random values on contiguous, reversed and broadcast views, each part
within a bound of ulps of the larger part of NumPy's value (the C suite's
rule, tests/test_array_complex.c), and the Array API's special cases."""
import math

import numpy as np
import pytest

import accel as xp

UNARY = ["negative", "positive", "square", "sign", "abs", "conj", "isnan", "isinf",
         "isfinite", "exp", "expm1", "log", "log1p", "log2", "log10", "sqrt", "sin", "cos",
         "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
         "round"]
BINARY = ["add", "subtract", "multiply", "divide", "pow", "equal", "not_equal"]
NP_NAMES = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh",
            "acosh": "arccosh", "atanh": "arctanh", "pow": "power"}
ULPS = 32  # the trigonometric rows' bound; pow's 128 is for far larger |x2 log x1| than here


def _log1p(z):
    """log(1 + z) keeping a small z's digits, in long double: NumPy's
    complex log1p is log(hypot(1 + x, y)), which loses them."""
    x, y = z.real.astype(np.longdouble), z.imag.astype(np.longdouble)
    r = 0.5 * np.log1p(x * (2 + x) + y * y) + 1j * np.arctan2(y, 1 + x)
    return r.astype(z.dtype)


def _np(fn):
    if fn == "sign":   # NumPy 2's sign of a complex is z/|z| (the standard's)
        return np.sign
    if fn == "log1p":
        return _log1p
    return getattr(np, NP_NAMES.get(fn, fn))


def _close(got, want, dtype):
    """Every part within ULPS ulps of the larger part of want (NaN meets
    NaN, an infinity the same infinity)."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    if got.dtype == bool:
        np.testing.assert_array_equal(got, want)
        return
    part = np.float32 if dtype == np.complex64 else np.float64
    g = np.stack([got.real, got.imag]) if got.dtype.kind == "c" else got[None]
    w = np.stack([want.real, want.imag]) if want.dtype.kind == "c" else want[None]
    big = np.max(np.where(np.isfinite(w), np.abs(w), 0), axis=0)
    bound = ULPS * np.spacing(big.astype(part))
    with np.errstate(invalid="ignore"):
        ok = (np.isnan(g) & np.isnan(w)) | (g == w) | (np.abs(g - w) <= bound)
    bad = np.argwhere(~ok)
    assert bad.size == 0, f"{bad.shape[0]} parts off, first at {bad[0]}: got {g[tuple(bad[0])]}, " \
                          f"want {w[tuple(bad[0])]}"


def _values(rng, shape, dtype):
    scale = np.where(rng.random(shape) < 0.2, 1e-3, 1.0)
    v = (rng.uniform(-3, 3, shape) + 1j * rng.uniform(-3, 3, shape)) * scale
    return v.astype(dtype)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("fn", UNARY)
def test_unary_against_numpy(fn, dtype, rng):
    h = _values(rng, (6, 5), dtype)
    with np.errstate(all="ignore"):
        want = _np(fn)(h)
        want_rev = _np(fn)(h[::-1, ::2])
    if fn == "abs":
        assert getattr(xp, fn)(xp.asarray(h)).dtype == (
            xp.float32 if dtype == np.complex64 else xp.float64)
    _close(np.asarray(getattr(xp, fn)(xp.asarray(h))), want, dtype)
    _close(np.asarray(getattr(xp, fn)(xp.asarray(h)[::-1, ::2])), want_rev, dtype)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("fn", BINARY)
def test_binary_against_numpy(fn, dtype, rng):
    a, b = _values(rng, (4, 1, 3), dtype), _values(rng, (5, 3), dtype)
    if fn == "pow":   # |b log a| small: exp's error grows with it
        a, b = a * 0.5, b * 0.5
    with np.errstate(all="ignore"):
        want = _np(fn)(a, b)
    _close(np.asarray(getattr(xp, fn)(xp.asarray(a), xp.asarray(b))), want, dtype)


def test_mixed_real_and_complex_promote(rng):
    a = rng.standard_normal(7).astype(np.float32)
    b = _values(rng, (7,), np.complex64)
    r = xp.multiply(xp.asarray(a), xp.asarray(b))
    assert r.dtype == xp.complex64
    _close(np.asarray(r), a * b, np.complex64)
    r = xp.add(xp.asarray(a.astype(np.float64)), xp.asarray(b))
    assert r.dtype == xp.complex128
    _close(np.asarray(r), a.astype(np.float64) + b, np.complex128)
    _close(np.asarray(xp.asarray(b) / 2), b / np.float32(2), np.complex64)


def test_where_and_astype(rng):
    c = rng.random((3, 4)) < 0.5
    a, b = _values(rng, (3, 4), np.complex128), _values(rng, (4,), np.complex64)
    r = xp.where(xp.asarray(c), xp.asarray(a), xp.asarray(b))
    np.testing.assert_array_equal(np.asarray(r), np.where(c, a, b))
    np.testing.assert_array_equal(np.asarray(xp.astype(xp.asarray(a), xp.complex64)),
                                  a.astype(np.complex64))
    i = np.arange(-3, 4, dtype=np.int16)
    np.testing.assert_array_equal(np.asarray(xp.astype(xp.asarray(i), xp.complex64)),
                                  i.astype(np.complex64))
    with pytest.raises(xp.UnsupportedError, match="complex to a real dtype"):
        xp.astype(xp.asarray(a), xp.float64)


PI = math.pi
INF, NAN = math.inf, math.nan


@pytest.mark.parametrize("fn, z, want", [
    ("log", complex(-0.0, 0.0), complex(-INF, PI)),
    ("log", complex(-INF, INF), complex(INF, 3 * PI / 4)),
    ("exp", complex(-INF, INF), complex(0, 0)),
    ("exp", complex(INF, NAN), complex(INF, NAN)),
    ("sqrt", complex(-INF, 1.0), complex(0.0, INF)),
    ("acos", complex(0.0, NAN), complex(PI / 2, NAN)),
    ("acosh", complex(-INF, INF), complex(INF, 3 * PI / 4)),
    ("atanh", complex(1.0, 0.0), complex(INF, 0.0)),
    ("tanh", complex(INF, INF), complex(1.0, 0.0)),
    ("cosh", complex(0.0, INF), complex(NAN, 0.0)),
    ("expm1", complex(-INF, NAN), complex(-1.0, 0.0)),
    ("log1p", complex(-1.0, 0.0), complex(-INF, 0.0)),
    ("asinh", complex(INF, INF), complex(INF, PI / 4)),
])
@pytest.mark.parametrize("dtype", [xp.complex64, xp.complex128])
def test_special_cases(fn, z, want, dtype):
    got = complex(getattr(xp, fn)(xp.asarray([z], dtype=dtype))[0])
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        if math.isnan(w):
            assert math.isnan(g), (fn, z, got)
        else:
            assert g == pytest.approx(w, rel=1e-6), (fn, z, got)


def test_undefined_for_complex_is_refused():
    c = xp.asarray([1 + 1j])
    for fn in ("floor", "less", "maximum", "remainder", "atan2"):
        f = getattr(xp, fn)
        with pytest.raises(xp.DtypeMismatchError, match="c128"):
            f(c) if fn == "floor" else f(c, c)


EXTREME = {
    np.complex128: [5e-324j, 5e-324 + 5e-324j, 1e-310j, 1 + 5e-324j, 5e-324 + 1j, 1e-320 + 0j,
                    1e300 + 1e300j, 1e30 + 1j, -1e30 + 1j, 2e200 - 3e200j, -5e300 + 0j],
    np.complex64: [1e-45j, 1e-45 + 1e-45j, 1 + 1e-45j, 3e38 + 3e38j, -3e38 + 1j, 1e30 - 2e30j],
}


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("fn", ["sqrt", "log", "log2", "log10", "asin", "acos", "asinh", "acosh",
                                "sign"])
def test_subnormal_and_huge_parts_keep_their_digits(dtype, fn):
    # the unscaled forms gave 0 + inf i for sqrt(5e-324i), a log of a rounded
    # subnormal |z|, inf for |z| past FLT_MAX, NaN for acos(3e38 + 3e38i)
    z = np.array(EXTREME[dtype], dtype=dtype)
    np_fn = {"asin": np.arcsin, "acos": np.arccos, "asinh": np.arcsinh,
             "acosh": np.arccosh}.get(fn, getattr(np, fn))
    want = np_fn(z.astype(np.complex128)).astype(dtype)  # NumPy in double, rounded
    got = getattr(xp, fn)(xp.asarray(z)).get()
    eps = np.finfo(dtype).eps
    scale = np.maximum(np.abs(want.real), np.abs(want.imag))
    if fn == "sign":  # NumPy's sign of subnormal parts is off (1+1j); the exact value
        zs = z.astype(np.complex128)
        m = np.maximum(np.abs(zs.real), np.abs(zs.imag))
        zs = zs.real / m + 1j * (zs.imag / m)  # parts in [-1, 1], divided as reals
        want = (zs / np.abs(zs)).astype(dtype)
    err = np.maximum(np.abs(got.real - want.real), np.abs(got.imag - want.imag))
    assert np.all(np.isfinite(got)), (z, got)
    tiny = 2 * np.finfo(dtype).smallest_subnormal  # a subnormal result rounds to its grid
    assert np.all(err <= 8 * eps * scale + tiny), (fn, z, got, want)


def test_sign_with_infinite_parts_is_numpys():
    z = np.array([complex(np.inf, 0), complex(1, np.inf), complex(-np.inf, 2),
                  complex(2, -np.inf), complex(np.inf, np.inf), complex(np.nan, 1)])
    got = xp.sign(xp.asarray(z)).get()
    np.testing.assert_array_equal(got[:4], [1, 1j, -1, -1j])
    assert np.isnan(got[4].real) and np.isnan(got[5].imag)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_cumulative_sum_and_masks(dtype, rng):
    """cumulative_sum along each axis (include_initial too) within 4 ulps
    of NumPy's cumsum (accel sums in float64, NumPy in the dtype); x[mask],
    x[mask] = value and x[mask] = values, x[index array], bit for bit."""
    a = (rng.standard_normal((6, 7)) + 1j * rng.standard_normal((6, 7))).astype(dtype)
    x = xp.asarray(a)
    for axis in (0, 1):
        got = np.asarray(xp.cumulative_sum(x, axis=axis))
        want = np.cumsum(a.astype(np.complex128), axis=axis)
        tol = 4 * np.finfo(dtype).eps * np.maximum(np.abs(want.real), np.abs(want.imag))
        assert got.dtype == dtype
        assert np.all(np.abs(got.real - want.real) <= tol)
        assert np.all(np.abs(got.imag - want.imag) <= tol)
        first = np.asarray(xp.cumulative_sum(x, axis=axis, include_initial=True))
        assert np.all(np.take(first, [0], axis=axis) == 0)
        assert np.array_equal(np.delete(first, 0, axis=axis), got)
    m = a.real > 0
    assert np.array_equal(np.asarray(x[xp.asarray(m)]), a[m])
    assert np.array_equal(np.asarray(x[xp.asarray([5, 0, -1])]), a[[5, 0, -1]])
    b = a.copy()
    b[m] = 2 - 3j
    y = xp.asarray(a)
    y[xp.asarray(m)] = 2 - 3j
    assert np.array_equal(np.asarray(y), b)
    b[m] = a[m][::-1]
    y[xp.asarray(m)] = xp.asarray(a[m][::-1])
    assert np.array_equal(np.asarray(y), b)
