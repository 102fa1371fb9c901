# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""NumPy's routines composed on the device (accel/_routines.py) against NumPy
on the same data: math, selection, shape, sets, statistics and signals, and
their refusals."""
import numpy as np
import pytest

import accel as cp


def eq(got, want, tol=1e-12):
    g = got.get() if hasattr(got, "get") else np.asarray(got)
    assert g.shape == np.shape(want)
    np.testing.assert_allclose(g, want, rtol=tol, atol=tol)


@pytest.fixture
def data(rng):
    return rng.standard_normal(50), rng.standard_normal(7)


def test_math(data):
    x, _ = data
    dx = cp.asarray(x)
    eq(cp.fix(dx * 3), np.fix(x * 3))
    f = cp.fix(cp.asarray([3, -4]))
    assert f.dtype == np.fix(np.array([3, -4])).dtype and f.get().tolist() == [3, -4]
    eq(cp.sinc(dx), np.sinc(x))
    eq(cp.sinc(cp.asarray([0.0, 1.0, -2.5])), np.sinc([0.0, 1.0, -2.5]))
    q, r = cp.divmod(dx * 5, 1.5)
    eq(q, np.floor_divide(x * 5, 1.5))
    eq(r, np.remainder(x * 5, 1.5))
    v = np.array([-3.5, 2.25, np.inf, -np.inf, -0.0, -3.0, np.nan])
    frac, whole = cp.modf(cp.asarray(v))
    nf, nw = np.modf(v)
    np.testing.assert_array_equal(frac.get(), nf)
    np.testing.assert_array_equal(np.signbit(frac.get()), np.signbit(nf))
    np.testing.assert_array_equal(whole.get(), nw)
    xn = x.copy()
    xn[::5] = np.nan
    eq(cp.nanprod(cp.asarray(xn[:10])), np.nanprod(xn[:10]))
    eq(cp.nancumsum(cp.asarray(xn)), np.nancumsum(xn))


def test_selection(data, rng):
    x, _ = data
    dx = cp.asarray(x)
    c1, c2 = x > 0, x < -1
    eq(cp.select([cp.asarray(c1), cp.asarray(c2)], [dx, dx * 2], 7),
       np.select([c1, c2], [x, x * 2], 7))
    m = rng.standard_normal((4, 5))
    eq(cp.compress(cp.asarray([True, False, True]), cp.asarray(m), axis=0),
       np.compress([True, False, True], m, axis=0))
    eq(cp.compress(cp.asarray([0, 1, 1]), cp.asarray(m)), np.compress([0, 1, 1], m))
    eq(cp.extract(cp.asarray(m > 0), cp.asarray(m)), np.extract(m > 0, m))
    bins = np.array([-1.0, 0.0, 0.5, 2.0])
    for right in (False, True):
        eq(cp.digitize(dx, cp.asarray(bins), right), np.digitize(x, bins, right))
        eq(cp.digitize(dx, cp.asarray(bins[::-1]), right), np.digitize(x, bins[::-1], right))
    with pytest.raises(ValueError, match="monotonically"):
        cp.digitize(dx, cp.asarray([0.0, 2.0, 1.0]))
    with pytest.raises(ValueError, match="same length"):
        cp.select([cp.asarray(c1)], [dx, dx])
    with pytest.raises(TypeError, match="bool"):
        cp.select([dx], [dx])
    with pytest.raises(IndexError, match="past the axis"):
        cp.compress(cp.asarray([False] * 5 + [True]), cp.asarray(m), axis=0)


def test_shape(rng):
    t = rng.standard_normal((3, 4, 5))
    m = rng.standard_normal((4, 5))
    eq(cp.diagonal(cp.asarray(t), 1, 1, 2), np.diagonal(t, 1, 1, 2))
    eq(cp.diagonal(cp.asarray(m), -1), np.diagonal(m, -1))
    for a, b in zip(cp.hsplit(cp.asarray(m.T), 2), np.hsplit(m.T, 2)):
        eq(a, b)
    for a, b in zip(cp.vsplit(cp.asarray(m), [1, 3]), np.vsplit(m, [1, 3])):
        eq(a, b)
    a, b = rng.standard_normal((2, 3)), rng.standard_normal((4, 2))
    eq(cp.kron(cp.asarray(a), cp.asarray(b)), np.kron(a, b))
    eq(cp.kron(cp.asarray([1, 2]), cp.asarray(b)), np.kron([1, 2], b))
    eq(cp.kron(cp.asarray(t), cp.asarray(a)), np.kron(t, a))
    with pytest.raises(ValueError):
        cp.vsplit(cp.asarray([1.0, 2.0]), 2)
    with pytest.raises(ValueError):
        cp.diagonal(cp.asarray([1.0, 2.0]))


def test_sets(rng):
    i1, i2 = rng.integers(0, 20, 30), rng.integers(10, 30, 25)
    a, b = cp.asarray(i1), cp.asarray(i2)
    eq(cp.union1d(a, b), np.union1d(i1, i2))
    eq(cp.intersect1d(a, b), np.intersect1d(i1, i2))
    eq(cp.setdiff1d(a, b), np.setdiff1d(i1, i2))
    eq(cp.in1d(a, b), np.isin(i1, i2))
    eq(cp.intersect1d(cp.asarray([1]), cp.asarray([2])), np.intersect1d([1], [2]))
    for au in (False, True):
        x1, x2 = (np.unique(i1), np.unique(i2)[::-1].copy()) if au else (i1, i2)
        got = cp.intersect1d(cp.asarray(x1), cp.asarray(x2), assume_unique=au,
                             return_indices=True)
        want = np.intersect1d(x1, x2, assume_unique=au, return_indices=True)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.get(), w)
    got = cp.intersect1d(cp.asarray([1.0]), cp.zeros(0), return_indices=True)
    assert [g.size for g in got] == [0, 0, 0]


def test_cov_corrcoef(data, rng):
    x, y = data
    dx, dy = cp.asarray(x), cp.asarray(y)
    m = rng.standard_normal((3, 40))
    eq(cp.cov(cp.asarray(m)), np.cov(m))
    eq(cp.cov(cp.asarray(m.T), rowvar=False), np.cov(m.T, rowvar=False))
    eq(cp.cov(dx), np.cov(x))
    eq(cp.cov(dx[:7], dy), np.cov(x[:7], y))
    eq(cp.cov(cp.asarray(m), bias=True), np.cov(m, bias=True))
    eq(cp.cov(cp.asarray(m), ddof=2), np.cov(m, ddof=2))
    ints = rng.integers(0, 9, 20)
    c = cp.cov(cp.asarray(ints))
    assert c.dtype == np.float64
    eq(c, np.cov(ints))
    eq(cp.corrcoef(cp.asarray(m)), np.corrcoef(m))
    eq(cp.corrcoef(dx[:7], dy), np.corrcoef(x[:7], y))
    z = rng.standard_normal((2, 9)) + 1j * rng.standard_normal((2, 9))
    eq(cp.cov(cp.asarray(z)), np.cov(z))


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_convolve_correlate(mode, data, rng):
    x, y = data
    dx, dy = cp.asarray(x), cp.asarray(y)
    eq(cp.convolve(dx, dy, mode), np.convolve(x, y, mode))
    eq(cp.convolve(dy, dx, mode), np.convolve(y, x, mode))
    eq(cp.correlate(dx, dy, mode), np.correlate(x, y, mode))
    eq(cp.correlate(dy, dx, mode), np.correlate(y, x, mode))
    z = rng.standard_normal(6) + 1j * rng.standard_normal(6)
    w = rng.standard_normal(3) + 1j * rng.standard_normal(3)
    eq(cp.correlate(cp.asarray(z), cp.asarray(w), mode), np.correlate(z, w, mode))
    eq(cp.correlate(cp.asarray(w), cp.asarray(z), mode), np.correlate(w, z, mode))
    eq(cp.convolve(cp.asarray([1, 2, 3]), cp.asarray([0, 1, 0.5]), mode),
       np.convolve([1, 2, 3], [0, 1, 0.5], mode))


def test_convolve_refusals():
    with pytest.raises(ValueError, match="mode"):
        cp.convolve(cp.asarray([1.0]), cp.asarray([1.0]), "bogus")
    with pytest.raises(ValueError, match="empty"):
        cp.convolve(cp.asarray([1.0]), cp.zeros(0))
    with pytest.raises(ValueError, match="1-D"):
        cp.correlate(cp.zeros((2, 2)), cp.asarray([1.0]))


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.complex128, np.int8, np.int32,
                                np.uint16, np.int64, np.bool_])
def test_cumprod_and_cumulative_prod_are_numpys(dt, rng):
    # accel_array_cumulative_prod: float64 accumulation (float32 within a few
    # ulp of NumPy's float32 one), integers in int64/uint64, wrapping.
    if np.dtype(dt).kind == "c":
        x = (rng.standard_normal((4, 6)) + 1j * rng.standard_normal((4, 6))).astype(dt)
    elif np.dtype(dt).kind == "f":
        x = rng.uniform(0.5, 1.5, (4, 6)).astype(dt)
    else:
        x = rng.integers(0, 4, (4, 6)).astype(dt)
    d = cp.asarray(x)
    tol = 1e-5 if dt == np.float32 else 1e-13
    for axis in (None, 0, 1, -1):
        got, want = cp.cumprod(d, axis=axis), np.cumprod(x, axis=axis)
        assert got.dtype == want.dtype
        if np.dtype(dt).kind in "fc":
            np.testing.assert_allclose(got.get(), want, rtol=tol)
        else:
            np.testing.assert_array_equal(got.get(), want)
    r = cp.cumulative_prod(d, axis=1, include_initial=True)
    assert r.shape == (4, 7)
    np.testing.assert_allclose(r.get()[:, 0], 1)
    big = cp.cumprod(cp.asarray(np.full(40, 3, np.int64)))  # wraps modulo 2^64 as NumPy's
    np.testing.assert_array_equal(big.get(), np.cumprod(np.full(40, 3, np.int64)))
    with pytest.raises(ValueError, match="axis"):
        cp.cumulative_prod(cp.zeros((2, 2)))


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric", "wrap"])
def test_pad_is_numpys(mode, rng):
    x = rng.standard_normal((3, 4))
    for pw in (2, (1, 3), ((0, 2), (3, 1)), ((7, 9), (0, 0))):
        np.testing.assert_array_equal(cp.pad(cp.asarray(x), pw, mode).get(), np.pad(x, pw, mode))
    if mode == "constant":
        np.testing.assert_array_equal(cp.pad(cp.asarray(x), 1, constant_values=7.5).get(),
                                      np.pad(x, 1, constant_values=7.5))
        np.testing.assert_array_equal(
            cp.pad(cp.asarray(x), 1, constant_values=((1, 2), (3, 4))).get(),
            np.pad(x, 1, constant_values=((1, 2), (3, 4))))
    else:
        with pytest.raises(ValueError, match="empty axis"):
            cp.pad(cp.zeros((0, 2)), 1, mode)
    with pytest.raises(ValueError, match="negative"):
        cp.pad(cp.asarray(x), -1, mode)


def test_pad_constant_per_axis_and_side(rng):
    x = rng.integers(-5, 5, (3, 4, 2)).astype(np.int32)
    for pw, cv in [(1, (7, 9)), ((1, 2), ((1, 2), (3, 4), (5, 6))), (((0, 2), (1, 0), (2, 1)), 8),
                   (2, ((1, 2),))]:
        np.testing.assert_array_equal(
            cp.pad(cp.asarray(x), pw, constant_values=cv).get(),
            np.pad(x, pw, constant_values=cv))
    with pytest.raises(ValueError, match="constant_values"):
        cp.pad(cp.asarray(x), 1, constant_values=((1, 2, 3),))


def test_lexsort_nd_along_any_axis(rng):
    a = rng.integers(0, 3, (4, 5, 6)); b = rng.integers(0, 3, (4, 5, 6))
    for axis in (-1, 0, 1):
        np.testing.assert_array_equal(
            cp.lexsort([cp.asarray(a), cp.asarray(b)], axis=axis).get(),
            np.lexsort([a, b], axis=axis))
    np.testing.assert_array_equal(cp.lexsort(cp.asarray(np.stack([a, b])), axis=1).get(),
                                  np.lexsort(np.stack([a, b]), axis=1))
    np.testing.assert_array_equal(
        cp.lexsort([cp.asarray(a), cp.asarray(b)], axis=np.int64(0)).get(),
        np.lexsort([a, b], axis=np.int64(0)))
    with pytest.raises(np.exceptions.AxisError):
        cp.lexsort([cp.asarray(a)], axis=3)
    with pytest.raises(TypeError, match="integer"):
        cp.lexsort([cp.asarray(a)], axis=None)
    with pytest.raises(TypeError, match="integer"):
        cp.lexsort([cp.asarray(a)], axis=1.0)
    with pytest.raises(ValueError):
        cp.lexsort([cp.asarray(a), cp.asarray(b[0])])
    want = int(np.lexsort(np.array([3, 1, 2])))  # three 0-d keys: 0
    for keys in (cp.asarray([3, 1, 2]), np.array([3, 1, 2]), [3, 1, 2]):
        assert int(cp.lexsort(keys)) == want


def test_lexsort_is_numpys(rng):
    a, b, c = rng.integers(0, 3, 40), rng.integers(0, 3, 40), rng.standard_normal(40)
    np.testing.assert_array_equal(cp.lexsort([cp.asarray(c), cp.asarray(b), cp.asarray(a)]).get(),
                                  np.lexsort([c, b, a]))
    np.testing.assert_array_equal(cp.lexsort(cp.asarray(np.stack([b, a]))).get(),
                                  np.lexsort(np.stack([b, a])))
    with pytest.raises(ValueError, match="same shape"):
        cp.lexsort([cp.asarray(a), cp.asarray(b[:5])])


@pytest.mark.parametrize("m,n,k", [(8, 3, None), (8, 3, 2), (3, 8, None), (5, 5, 2)])
def test_lstsq_is_numpys(m, n, k, rng):
    a = rng.standard_normal((m, n))
    b = rng.standard_normal(m) if k is None else rng.standard_normal((m, k))
    x, r, rank, s = cp.linalg.lstsq(cp.asarray(a), cp.asarray(b))
    nx, nr, nrank, ns_ = np.linalg.lstsq(a, b, rcond=None)
    eq(x, nx)
    eq(r, nr)
    assert rank == nrank
    eq(s, ns_)
    d = a.copy()
    d[:, -1] = d[:, 0]  # rank-deficient: the minimum-norm solution, no residuals
    x, r, rank, _ = cp.linalg.lstsq(cp.asarray(d), cp.asarray(b))
    nx, nr, nrank, _ = np.linalg.lstsq(d, b, rcond=None)
    eq(x, nx, tol=1e-10)
    assert rank == nrank and r.shape == nr.shape
    with pytest.raises(ValueError):
        cp.linalg.lstsq(cp.asarray(a), cp.asarray(np.zeros(m + 1)))


def test_random_exponential_has_its_mean_and_refuses_bad_scales():
    e = cp.random.exponential(2.0, 400000).get()
    assert e.min() >= 0 and np.isfinite(e).all()
    assert abs(e.mean() - 2.0) < 0.02 and abs(e.std() - 2.0) < 0.03  # about 6 standard errors
    g = cp.random.default_rng(5).exponential(0.5, (3, 2), dtype=np.float32)
    assert g.shape == (3, 2) and g.dtype == np.float32
    with pytest.raises(ValueError, match="scale"):
        cp.random.exponential(-1.0, 3)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64, np.int32, np.uint8])
def test_add_at_adds_repeated_indices_each_time_as_numpy(dt, rng):
    a = np.zeros(10, dt)
    idx = rng.integers(0, 10, 60)
    b = rng.integers(1, 4, 60).astype(dt)
    da = cp.asarray(a)
    cp.add.at(da, cp.asarray(idx), cp.asarray(b))
    np.add.at(a, idx, b)
    np.testing.assert_array_equal(da.get(), a)
    m = np.arange(12.0).reshape(4, 3)
    dm = cp.asarray(m)
    np.add.at(m, [1, 3, 1], np.ones((3, 3)))
    cp.add.at(dm, cp.asarray([1, 3, 1]), cp.ones((3, 3)))
    np.testing.assert_array_equal(dm.get(), m)
    v, dv = np.zeros(5), cp.zeros(5)
    np.add.at(v, slice(1, 4), 2.0)
    cp.add.at(dv, slice(1, 4), 2.0)
    np.testing.assert_array_equal(dv.get(), v)
    cp.add.at(dv, cp.asarray(np.zeros(0, np.int64)), 1.0)  # nothing selected: unchanged
    np.testing.assert_array_equal(dv.get(), v)
    with pytest.raises(IndexError):
        cp.add.at(dv, cp.asarray([9]), 1.0)
    with pytest.raises(TypeError):
        cp.add.at(np.zeros(3), [0], 1.0)


def test_the_break_testers_cases_are_numpys():
    # Each found wrong by a tester of this stop (silently wrong before).
    b = np.arange(300 * 300.0).reshape(300, 300)
    x = cp.asarray(b)
    assert float(cp.sum(cp.linalg.diagonal(x, offset=np.int16(-200)))) == np.trace(b, -200)
    assert float(cp.trace(x, np.int8(50))) == np.trace(b, 50)
    for xs, bins in [(np.array([-50, 0, 50], np.int8), np.array([-100, 100], np.int8)),
                     (np.array([5], np.uint8), np.array([10, 4, 0], np.uint8)),
                     (np.array([1, 2, 3], np.uint32), np.array([3, 2, 1], np.uint32)),
                     (np.array([0.5, 2.0, np.nan]), np.array([0.0, 1.0, np.nan]))]:
        np.testing.assert_array_equal(cp.digitize(cp.asarray(xs), cp.asarray(bins)).get(),
                                      np.digitize(xs, bins))
    for a, v in [([1.0, 2], [1.0, 2, 3]), ([1.0, 2, 3, 4], [1.0, 2, 3, 4, 5])]:
        for mode in ("full", "same", "valid"):
            eq(cp.correlate(cp.asarray(a), cp.asarray(v), mode), np.correlate(a, v, mode))
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(cp.convolve(cp.asarray([np.inf, 1.0]),
                                                  cp.asarray([0.0, 1.0])).get(),
                                      np.convolve([np.inf, 1.0], [0.0, 1.0]))
        eq(cp.cov(cp.asarray([1, 2, 3]), cp.asarray([0.5, 0.1, 0.7])),
           np.cov([1, 2, 3], [0.5, 0.1, 0.7]))
        z = np.array([0.5j, 0.1, 0.7])
        eq(cp.cov(cp.asarray([1.0, 2, 3]), cp.asarray(z)), np.cov([1.0, 2, 3], z))
        got = cp.cov(cp.asarray([[1.0, 2, 4]]), rowvar=False).get()
        assert got.shape == (3, 3) and np.isnan(got).all()
    x, _, rank, _ = cp.linalg.lstsq(cp.asarray([[1.0, 2], [2, 4], [3, 6]]),
                                    cp.asarray([1.0, 2, 3]), rcond=-1)
    eq(x, [0.2, 0.4])
    assert rank == 1
    res = cp.linalg.lstsq(cp.zeros((3, 0)), cp.asarray([1.0, 2, 3]))[1]
    eq(res, [14.0])
    with pytest.raises(accel_dtype_error()):
        cp.fmod(cp.asarray([1.7, -1.7]), 2.5, out=cp.zeros(2, dtype=cp.int64))
    f = cp.fmod(cp.asarray([True, False]), cp.asarray([False, False]))
    with np.errstate(divide="ignore"):
        want = np.fmod(np.array([True, False]), np.array([False, False]))
    assert f.dtype == want.dtype and f.get().tolist() == want.tolist()
    with pytest.raises(ValueError, match="longer than"):
        cp.pad(cp.asarray([0.0, 1, 2]), (2**63 - 1, 2**63 - 1))
    with pytest.raises(TypeError, match="integral"):
        cp.pad(cp.asarray([0.0, 1]), 1.5)
    eq(cp.union1d(cp.asarray([np.nan, 1.0]), cp.asarray([np.nan])), [1.0, np.nan])
    with pytest.raises(ValueError, match="1-d"):
        cp.compress(cp.asarray([[True], [False]]), cp.asarray([1.0, 2]), axis=0)
    s = cp.select([cp.asarray([True, False])], [cp.asarray(np.array([1, 2], np.int8))], 3)
    assert s.dtype == np.int8


def accel_dtype_error():
    return cp.DtypeMismatchError
