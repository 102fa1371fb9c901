# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""CuPy's names that need no new C: cp.cuda (Device, Stream, Event,
get_elapsed_time, runtime.getDeviceCount), cp.get_array_module, the
integer parts of cp.random, isclose/allclose/clip/where; values against
NumPy and against the documented mapping from the uniform stream."""
import numpy as np
import pytest

import accel as cp


def test_get_array_module():
    assert cp.get_array_module(np.ones(2), cp.asarray([1.0])) is cp
    assert cp.get_array_module(np.ones(2), 3) is np


def test_cuda_module_serves_cupy_names():
    assert cp.cuda.runtime.getDeviceCount() == len(cp.devices())
    assert cp.cuda.is_available() == any(d.kind == "gpu" for d in cp.devices())
    dev = cp.cuda.Device(0)
    assert dev is cp.devices()[0]
    dev.synchronize()
    s = cp.cuda.Stream()
    start, end = cp.cuda.Event(), cp.cuda.Event()
    with s:
        start.record()
        x = cp.asarray(np.arange(100000.0))
        y = cp.sqrt(x)
        end.record()
    end.synchronize()
    assert cp.cuda.get_elapsed_time(start, end) >= 0.0
    assert np.array_equal(y.get(), np.sqrt(np.arange(100000.0)))
    assert cp.cuda.jit is not None and cp.cuda.grid is not None  # Numba's names too


def _uniform(seed, n, skip=0):
    # The float64 uniforms the generator hands the integer kernels.
    r = cp.random.RandomState(seed)
    if skip:
        r.random_sample(skip)
    return r.random_sample(n).get()


def test_randint_is_floor_of_the_uniform_stream():
    got = cp.random.RandomState(11).randint(-5, 17, size=(40, 25))
    u = _uniform(11, 1000)
    ref = (-5 + np.minimum(np.floor(u * 22), 21)).astype(np.int64).reshape(40, 25)
    assert got.dtype == np.int64 and np.array_equal(got.get(), ref)
    c = np.bincount(cp.random.RandomState(3).randint(4, size=40000, dtype=np.int32).get())
    assert len(c) == 4 and np.all(np.abs(c - 10000) < 4 * np.sqrt(10000 * 0.75))
    g = cp.random.default_rng(5)
    v = g.integers(1, 3, 1000, endpoint=True).get()
    assert set(v.tolist()) == {1, 2, 3}
    cp.random.seed(9)
    a = cp.random.randint(0, 100, 50).get()
    cp.random.seed(9)
    assert np.array_equal(cp.random.randint(0, 100, 50).get(), a)


def _fisher_yates(u):
    p = list(range(len(u)))
    for i in range(len(u) - 1, 0, -1):
        j = min(int(np.floor(u[i] * (i + 1))), i)
        p[i], p[j] = p[j], p[i]
    return np.array(p)


def test_permutation_and_shuffle():
    p = cp.random.RandomState(21).permutation(300)
    assert np.array_equal(p.get(), _fisher_yates(_uniform(21, 300)))
    x = np.arange(40.0).reshape(20, 2)
    px = cp.random.RandomState(4).permutation(cp.asarray(x)).get()
    assert np.array_equal(px, x[_fisher_yates(_uniform(4, 20))])
    d = cp.asarray(x)
    cp.random.RandomState(4).shuffle(d)
    assert np.array_equal(d.get(), px)
    # a strided view (every other row; a transposed one) is shuffled in
    # place through its strides, its other rows untouched (it was left as
    # it was: the shuffle went to a copy)
    big = np.arange(80.0).reshape(40, 2)
    e = cp.asarray(big)
    cp.random.RandomState(4).shuffle(e[::2])
    want = big.copy()
    want[::2] = big[::2][_fisher_yates(_uniform(4, 20))]
    assert np.array_equal(e.get(), want)
    t = cp.asarray(np.arange(6.0).reshape(2, 3)).T
    cp.random.RandomState(5).shuffle(t)
    assert np.array_equal(t.get(), np.arange(6.0).reshape(2, 3).T[_fisher_yates(_uniform(5, 3))])
    with pytest.raises(cp.AccelError, match="read-only view"):
        cp.random.RandomState(4).shuffle(cp.broadcast_to(cp.zeros(3), (4, 3)))


def test_choice():
    r = cp.random.RandomState(8)
    v = r.choice(cp.asarray(np.array([2.5, 7.5, 9.0])), size=(10, 10))
    assert v.shape == (10, 10) and set(v.get().ravel().tolist()) <= {2.5, 7.5, 9.0}
    w = cp.random.RandomState(8).choice(10, 6, replace=False).get()
    assert len(set(w.tolist())) == 6 and np.array_equal(w, _fisher_yates(_uniform(8, 10))[:6])
    p = np.array([0.0, 0.25, 0.0, 0.75])
    got = cp.random.RandomState(2).choice(4, 5000, p=p).get()
    u = _uniform(2, 5000)
    ref = np.searchsorted(np.cumsum(p), u * np.cumsum(p)[-1], side="right")
    assert np.array_equal(got, ref)
    assert not np.any(got == 0) and not np.any(got == 2)


def test_random_bad_input():
    r = cp.random.RandomState(1)
    with pytest.raises(ValueError, match="low >= high"):
        r.randint(5, 5)
    with pytest.raises(ValueError, match="does not fit"):
        r.randint(0, 300, dtype=np.uint8)
    with pytest.raises(TypeError):
        r.randint(0, 3, dtype=np.float32)
    with pytest.raises(ValueError, match="summing to 1"):
        r.choice(3, 2, p=[0.5, 0.6, 0.1])
    with pytest.raises(ValueError, match="without replacement"):
        r.choice(3, 5, replace=False)
    with pytest.raises(NotImplementedError):
        r.choice(3, 2, replace=False, p=[0.2, 0.3, 0.5])
    with pytest.raises(TypeError):
        r.shuffle(np.arange(3))


def test_isclose_allclose_against_numpy(rng):
    a = rng.standard_normal(500)
    b = a + rng.standard_normal(500) * 1e-6
    a[:4] = [np.nan, np.inf, -np.inf, 1.0]
    b[:4] = [np.nan, np.inf, np.inf, np.nan]
    for eq in (False, True):
        got = cp.isclose(cp.asarray(a), cp.asarray(b), rtol=1e-6, atol=1e-9, equal_nan=eq)
        assert got.dtype == np.bool_
        assert np.array_equal(got.get(), np.isclose(a, b, rtol=1e-6, atol=1e-9, equal_nan=eq))
    for rtol, atol in ((1e-3, 1e-5), (1e-9, 0.0), (1e-5, 1e-8)):
        assert cp.allclose(cp.asarray(a[4:]), cp.asarray(b[4:]), rtol, atol) is \
            bool(np.allclose(a[4:], b[4:], rtol, atol))
    assert cp.allclose(cp.asarray(a[4:]), cp.asarray(b[4:]), 1e-3, 1e-5) is True
    assert cp.allclose(cp.asarray(a[4:]), cp.asarray(b[4:]), 1e-9, 0.0) is False
    assert cp.allclose(cp.asarray(np.ones(3, np.float32)), 1.0) is True


def test_clip_and_where_against_numpy(rng):
    a = rng.standard_normal(300).astype(np.float32)
    a[5] = np.nan
    d = cp.asarray(a)
    assert np.array_equal(cp.clip(d, -0.5, 0.25).get(), np.clip(a, -0.5, 0.25), equal_nan=True)
    assert np.array_equal(cp.clip(d, None, 0.1).get(), np.clip(a, None, 0.1), equal_nan=True)
    lo = rng.standard_normal(300).astype(np.float32)
    assert np.array_equal(cp.clip(d, cp.asarray(lo), None).get(), np.clip(a, lo, None),
                          equal_nan=True)
    cond = (rng.random(300) < 0.5).astype(np.float32)
    b = rng.standard_normal(300).astype(np.float32)
    assert np.array_equal(cp.where(cp.asarray(cond), d, cp.asarray(b)).get(),
                          np.where(cond != 0, a, b), equal_nan=True)
    assert np.array_equal(cp.where(cp.asarray(cond), d, 0.0).get(),
                          np.where(cond != 0, a, np.float32(0)), equal_nan=True)
    # Both bounds None: a copy (the Array API standard's clip).
    assert np.array_equal(cp.clip(d, None, None).get(), a, equal_nan=True)
    with pytest.raises(ValueError):
        cp.clip(d, cp.asarray(lo[:10]), 1.0)
    (idx,) = cp.where(cp.asarray(cond))   # NumPy's one-argument form: nonzero
    assert np.array_equal(idx.get(), np.nonzero(cond)[0])


def _same(got, want):
    got = cp.asnumpy(got) if isinstance(got, cp.Array) else np.asarray(got)
    assert got.shape == np.shape(want) and got.dtype == np.asarray(want).dtype, (got, want)
    np.testing.assert_array_equal(got, want)


def _near(got, want, ulps=2):
    """Transcendental functions: within `ulps` of NumPy's value (NumPy's
    own acos, atan2, exp2 change in the last place between releases; 2.4
    rounds acos(0.5) one ulp below the correctly rounded pi/3)."""
    got = cp.asnumpy(got) if isinstance(got, cp.Array) else np.asarray(got)
    assert got.shape == np.shape(want) and got.dtype == np.asarray(want).dtype, (got, want)
    np.testing.assert_array_max_ulp(got, np.asarray(want), maxulp=ulps)


def test_joining_and_splitting_match_numpy():
    a, b = np.arange(6.0).reshape(2, 3), np.arange(6.0, 12.0).reshape(2, 3)
    x, y = cp.asarray(a), cp.asarray(b)
    _same(cp.concatenate([x, y]), np.concatenate([a, b]))
    _same(cp.concatenate([x, y], axis=1), np.concatenate([a, b], axis=1))
    _same(cp.concatenate([x, y], axis=None), np.concatenate([a, b], axis=None))
    _same(cp.hstack([x, y]), np.hstack([a, b]))
    _same(cp.vstack([x, y]), np.vstack([a, b]))
    _same(cp.hstack([x[0], y[1]]), np.hstack([a[0], b[1]]))
    _same(cp.vstack([x[0], y[1]]), np.vstack([a[0], b[1]]))
    v, h = cp.arange(10), np.arange(10)
    for sec in (3, [2, 5], [4, 2, 12]):
        got, want = cp.array_split(v, sec), np.array_split(h, sec)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
    for g, w in zip(cp.split(x, 3, axis=1), np.split(a, 3, axis=1)):
        _same(g, w)
    with pytest.raises(ValueError, match="equal division"):
        cp.split(v, 3)


def test_copies_and_comparisons():
    a = np.arange(12.0).reshape(3, 4)
    x = cp.asarray(a)
    c = cp.copy(x)
    c[0, 0] = 99.0
    assert float(x[0, 0]) == 0.0
    t = cp.ascontiguousarray(x.T)
    _same(t, np.ascontiguousarray(a.T))
    assert t.strides == np.ascontiguousarray(a.T).strides
    assert cp.ascontiguousarray(x) is x
    assert cp.array_equal(x, cp.asarray(a)) and not cp.array_equal(x, x[:2])
    n = cp.asarray([1.0, np.nan])
    assert not cp.array_equal(n, n) and cp.array_equal(n, n, equal_nan=True)


def test_matrix_helpers_match_numpy():
    v, m = np.arange(1.0, 4.0), np.arange(16.0).reshape(4, 4)
    for k in (0, 1, -2):
        _same(cp.diag(cp.asarray(v), k), np.diag(v, k))
        _same(cp.diag(cp.asarray(m), k), np.diag(m, k))
        _same(cp.trace(cp.asarray(m), k), np.trace(m, k))
    _same(cp.identity(3, dtype=cp.float32), np.identity(3, dtype=np.float32))
    _same(cp.outer(cp.asarray(v), cp.asarray(v[:2])), np.outer(v, v[:2]))
    p, q = np.array([[1.0, 2, 3], [0, 1, 0]]), np.array([[4.0, 5, 6], [0, 0, 1]])
    _same(cp.cross(cp.asarray(p), cp.asarray(q)), np.cross(p, q))


def test_differences_counts_and_cleaning_match_numpy():
    a = np.array([[1, 4, 9, 16], [0, 0, 5, 5]], dtype=np.int64)
    x = cp.asarray(a)
    for n, ax in ((1, -1), (2, -1), (1, 0), (0, 1)):
        _same(cp.diff(x, n=n, axis=ax), np.diff(a, n=n, axis=ax))
    bools = np.array([True, True, False, True])
    _same(cp.diff(cp.asarray(bools)), np.diff(bools))
    assert cp.count_nonzero(x) == np.count_nonzero(a) == 6
    _same(cp.count_nonzero(x, axis=1), np.count_nonzero(a, axis=1))
    _same(cp.argwhere(x), np.argwhere(a))
    f = np.array([np.nan, np.inf, -np.inf, 1.5], dtype=np.float32)
    _same(cp.nan_to_num(cp.asarray(f)), np.nan_to_num(f))
    _same(cp.nan_to_num(cp.asarray(f), nan=-1.0, posinf=7.0, neginf=-7.0),
          np.nan_to_num(f, nan=-1.0, posinf=7.0, neginf=-7.0))
    _same(cp.nansum(cp.asarray(f[[0, 3]])), np.nansum(f[[0, 3]]))
    r = np.array([1.25, 2.5, -0.125, 1234.5678])
    for d in (0, 1, 2, -2):
        _same(cp.around(cp.asarray(r), d), np.around(r, d))
    _same(cp.logspace(0, 3, 4), np.logspace(0, 3, 4))
    _same(cp.logspace(0, 3, 4, base=2.0), np.logspace(0, 3, 4, base=2.0))


def test_argpartition_partitions_and_fill_method():
    h = np.array([5.0, 1.0, 4.0, 2.0, 3.0])
    idx = cp.argpartition(cp.asarray(h), 2).get()
    assert sorted(idx) == list(range(5))
    assert all(h[idx[i]] <= h[idx[2]] for i in range(2)) and h[idx[2]] == 3.0
    with pytest.raises(ValueError, match="kth"):
        cp.argpartition(cp.asarray(h), 5)
    x = cp.zeros((2, 3))
    assert x.fill(2.5) is None  # NumPy's and CuPy's method returns None
    _same(x, np.full((2, 3), 2.5))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_median_quantile_percentile_match_numpy(dtype):
    rng = np.random.default_rng(3)
    for shape in ((7,), (4, 6), (3, 5, 2)):
        a = (rng.standard_normal(shape) * 10).astype(dtype)
        x = cp.asarray(a)
        for axis in [None] + list(range(a.ndim)):
            for keep in (False, True):
                got = cp.median(x, axis=axis, keepdims=keep).get()
                want = np.median(a, axis=axis, keepdims=keep)
                assert got.shape == np.shape(want)
                np.testing.assert_allclose(got, want, rtol=1e-6)
                for q in (0.0, 0.3, 0.5, 0.75, 1.0, [0.1, 0.9]):
                    got = cp.quantile(x, q, axis=axis, keepdims=keep).get()
                    want = np.quantile(a, q, axis=axis, keepdims=keep)
                    assert got.shape == np.shape(want)
                    np.testing.assert_allclose(got, want, rtol=1e-6)
        np.testing.assert_allclose(cp.percentile(x, [25, 50]).get(), np.percentile(a, [25, 50]),
                                   rtol=1e-6)


def test_median_nan_and_bad_quantiles():
    a = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]])
    np.testing.assert_array_equal(cp.median(cp.asarray(a), axis=1).get(), np.median(a, axis=1))
    with pytest.raises(ValueError, match="within"):
        cp.quantile(cp.asarray(a), 1.5)
    with pytest.raises(ValueError, match="within"):
        cp.percentile(cp.asarray(a), -1)
    with pytest.raises(ValueError, match="empty"):
        cp.median(cp.zeros((0,)))


def test_fft2_family_matches_numpy():
    rng = np.random.default_rng(4)
    a = rng.standard_normal((3, 4, 6))
    x = cp.asarray(a)
    np.testing.assert_allclose(cp.fft.fft2(x).get(), np.fft.fft2(a), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(cp.fft.ifft2(x).get(), np.fft.ifft2(a), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(cp.fft.rfft2(x).get(), np.fft.rfft2(a), rtol=1e-10, atol=1e-12)
    r = np.fft.rfft2(a)
    np.testing.assert_allclose(cp.fft.irfft2(cp.asarray(r), s=(4, 6)).get(),
                               np.fft.irfft2(r, s=(4, 6)), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(cp.fft.fft2(x, axes=(0, 2)).get(), np.fft.fft2(a, axes=(0, 2)),
                               rtol=1e-10, atol=1e-12)


EINSUM = [("ij,jk->ik", (3, 4), (4, 5)), ("ij,jk", (3, 4), (4, 5)), ("ij->ji", (3, 4)),
          ("ij->", (3, 4)), ("ii->", (4, 4)), ("ii->i", (4, 4)), ("ij,j->i", (3, 4), (4,)),
          ("i,i->", (4,), (4,)), ("i,j->ij", (4,), (3,)), ("bij,bjk->bik", (2, 3, 4), (2, 4, 5)),
          ("ij,jk,kl->il", (3, 4), (4, 5), (5, 2)), ("ijk->kji", (2, 3, 4)),
          ("bij,bjk->ik", (2, 3, 4), (2, 4, 5)), ("ij,ij->ij", (3, 4), (3, 4)),
          ("ij,kj->ik", (3, 4), (5, 4)), ("ij,jk->ik", (3, 0), (0, 2)), ("iij->j", (3, 3, 2))]


@pytest.mark.parametrize("spec", EINSUM, ids=[e[0] for e in EINSUM])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_einsum_matches_numpy(spec, dtype):
    rng = np.random.default_rng(8)
    ops = [(rng.standard_normal(shape) * 4).astype(dtype) for shape in spec[1:]]
    got = cp.einsum(spec[0], *[cp.asarray(o) for o in ops])
    want = np.einsum(spec[0], *ops)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got.get(), want, rtol=1e-5 if dtype == np.float32 else 1e-12)


def test_einsum_bad_input():
    a = cp.ones((2, 3))
    with pytest.raises(ValueError, match="2 operand subscripts for 1"):
        cp.einsum("ij,jk", a)
    with pytest.raises(ValueError, match="for a 2-d operand"):
        cp.einsum("ijk", a)
    with pytest.raises(ValueError, match="sizes 3 and 2"):
        cp.einsum("ij,jk", a, a)
    with pytest.raises(ValueError, match="output subscripts"):
        cp.einsum("ij->ik", a)
    with pytest.raises(NotImplementedError, match=r"'\.\.\.'"):
        cp.einsum("...i->i", a)


def test_bincount_matches_numpy():
    rng = np.random.default_rng(9)
    h = rng.integers(0, 12, 500)
    w = rng.standard_normal(500)
    _same(cp.bincount(cp.asarray(h)), np.bincount(h))
    _same(cp.bincount(cp.asarray(h), minlength=20), np.bincount(h, minlength=20))
    got = cp.bincount(cp.asarray(h), weights=cp.asarray(w)).get()
    np.testing.assert_allclose(got, np.bincount(h, weights=w), rtol=1e-12, atol=1e-12)
    _same(cp.bincount(cp.asarray(np.zeros(0, np.int64)), minlength=3),
          np.bincount(np.zeros(0, np.int64), minlength=3))
    with pytest.raises(ValueError, match="negative"):
        cp.bincount(cp.asarray([1, -1]))
    with pytest.raises(TypeError, match="integers"):
        cp.bincount(cp.asarray([1.0]))


@pytest.mark.parametrize("kw", [{}, {"bins": 7}, {"bins": 5, "range": (-1.0, 1.0)},
                                {"bins": [-3.0, -1.0, 0.0, 0.5, 3.0]}, {"density": True},
                                {"bins": 4, "weights": True}])
def test_histogram_matches_numpy(kw):
    rng = np.random.default_rng(10)
    h = np.concatenate([rng.standard_normal(1000), [1.0, -1.0, 0.5]])
    args = dict(kw)
    if args.pop("weights", None):
        args["weights"] = np.abs(h)
    got_c, got_e = cp.histogram(cp.asarray(h), **{k: (cp.asarray(v) if k == "weights" else v)
                                                  for k, v in args.items()})
    want_c, want_e = np.histogram(h, **args)
    np.testing.assert_allclose(got_e.get(), want_e, rtol=1e-15)
    np.testing.assert_allclose(got_c.get(), want_c, rtol=1e-12)


@pytest.mark.parametrize("dt", [np.int32, np.uint32, np.float64, np.int16, np.uint8, np.complex64])
def test_view_as_another_dtype_matches_numpy(dt):
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    x = cp.asarray(a)
    for hv, xv in ((a, x), (a[1:], x[1:]), (a[1:, 2:], x[1:, 2:]), (a[:, ::2], x[:, ::2])):
        try:
            want = hv.view(dt)
        except ValueError:
            with pytest.raises(ValueError, match="view of"):
                xv.view(dt)
            continue
        got = xv.view(dt)
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(got.get().view(np.uint8),
                                      np.ascontiguousarray(want).view(np.uint8))
    v = x.view(np.int32)
    v[0, 1] = 7  # shares x's buffer
    assert x[0, 1].get() == np.int32(7).view(np.float32)


def test_asfortranarray():
    a = np.arange(12.0).reshape(3, 4)
    f = cp.asfortranarray(cp.asarray(a))
    _same(f, np.asfortranarray(a))
    assert f.strides == np.asfortranarray(a).strides


def test_breaking_pass_silent_answers_now_numpys():
    # bincount weights: no prefix-sum cancellation, a NaN or inf stays in its bin
    for x, w in (([0, 1, 1], [1e16, 1.0, 1.0]), ([0, 1, 2], [np.nan, 1.0, 1.0]),
                 ([0, 1, 1], [np.inf, 1.0, 1.0])):
        _same(cp.bincount(cp.asarray(x), weights=cp.asarray(w)), np.bincount(x, weights=w))
    got, _ = cp.histogram(cp.asarray([0.0, 1e16, 1e16 + 2]), bins=2, weights=cp.asarray([1e16, 1.0, 1.0]))
    _same(got, np.histogram([0.0, 1e16, 1e16 + 2], bins=2, weights=[1e16, 1.0, 1.0])[0])
    # split at negative indices: Python's slicing, as NumPy
    for cuts in ([-2], [-1], [1, -1], [-5, 2]):
        for g, w in zip(cp.array_split(cp.arange(6.0), cuts), np.array_split(np.arange(6.0), cuts)):
            _same(g, w)
    # axes that do not exist
    a = cp.asarray(np.arange(20.0).reshape(4, 5))
    for call in (lambda: cp.median(a, axis=2), lambda: cp.median(a, axis=-3),
                 lambda: cp.quantile(a, 0.5, axis=5), lambda: cp.diff(a, axis=2),
                 lambda: cp.argpartition(a, 1, axis=2), lambda: cp.split(a, 2, axis=2)):
        with pytest.raises(IndexError, match="out of range"):
            call()
    # x.fill of a value an integer dtype cannot hold
    y = cp.zeros(3, dtype=cp.uint8)
    for v, exc in ((300, OverflowError), (-1, OverflowError), (float("nan"), ValueError)):
        with pytest.raises(exc):
            y.fill(v)
    _same(y, np.zeros(3, np.uint8))  # untouched
    z = cp.zeros((2, 3), dtype=cp.complex64)
    z.fill(1 + 2j)
    _same(z, np.full((2, 3), 1 + 2j, np.complex64))
    # a slice step past int64
    _same(cp.arange(5)[::2 ** 64 + 1], np.arange(5)[::5])
    _same(cp.arange(5)[::-(2 ** 64) - 1], np.arange(5)[::-5])
    # unique of complex merges its NaNs (equal_nan=True)
    h = np.array([complex(np.nan, 0), 2, complex(0, np.nan), 1, complex(np.nan, np.nan), 2])
    for g, w in zip(cp.unique(cp.asarray(h), return_index=True, return_inverse=True,
                              return_counts=True),
                    np.unique(h, return_index=True, return_inverse=True, return_counts=True)):
        _same(g, w)
    # histogram and einsum refuse what NumPy refuses
    with pytest.raises(ValueError, match="not finite"):
        cp.histogram(cp.asarray([1.0, np.nan]), bins=2)
    with pytest.raises(ValueError, match="monotonically"):
        cp.histogram(cp.asarray([0.5, 1.5]), bins=cp.asarray([0.0, 2.0, 1.0]))
    with pytest.raises(ValueError, match="repeated with sizes 2 and 3"):
        cp.einsum("ii->i", cp.ones((2, 3)))
    with pytest.raises(ValueError, match="sections"):
        cp.array_split(cp.arange(3.0), 2 ** 63)
    with pytest.raises(TypeError):
        cp.argpartition(a, 1.5)


def test_numpy_spellings_and_array_likes():
    a = np.array([1.0, np.nan, 3.0, -2.0])
    b = np.array([np.nan, np.nan, 1.0, 5.0])
    x, y = cp.asarray(a), cp.asarray(b)
    _same(cp.fmax(x, y), np.fmax(a, b))
    _same(cp.fmin(x, y), np.fmin(a, b))
    _same(cp.power(cp.asarray([2, 3]), 3), np.power([2, 3], 3))
    _near(cp.arccos(cp.asarray([0.5])), np.arccos([0.5]))
    _near(cp.arctan2(cp.asarray([1.0]), cp.asarray([2.0])), np.arctan2([1.0], [2.0]))
    _same(cp.mod(cp.asarray([-7, 7]), 3), np.mod([-7, 7], 3))
    zc = np.array([1 + 1j, -1, -2j])
    _near(cp.angle(cp.asarray(zc)), np.angle(zc))
    _same(cp.conjugate(cp.asarray(zc)), np.conjugate(zc))
    _near(cp.exp2(cp.asarray([0.0, 3.0])), np.exp2([0.0, 3.0]))
    _same(cp.reciprocal(cp.asarray([-1, 0, 1, 2])), np.array([-1, 0, 1, 0]))
    m = np.array([[1.0, np.nan], [np.nan, np.nan], [2.0, 4.0]])
    with np.errstate(all="ignore"), pytest.warns(RuntimeWarning):
        want = (np.nanmax(m, axis=1), np.nanmin(m, axis=1), np.nanmean(m, axis=1))
    for f, w in zip((cp.nanmax, cp.nanmin, cp.nanmean), want):
        _same(f(cp.asarray(m), axis=1), w)
    _same(cp.flatnonzero(cp.asarray([[0, 1], [2, 0]])), np.flatnonzero([[0, 1], [2, 0]]))
    _same(cp.column_stack([cp.asarray([1, 2]), cp.asarray([3, 4])]), np.column_stack([[1, 2], [3, 4]]))
    _same(cp.dstack([cp.asarray([1, 2]), cp.asarray([3, 4])]), np.dstack([[1, 2], [3, 4]]))
    assert cp.iscomplexobj(cp.asarray(zc)) and not cp.iscomplexobj(x) and cp.bool_ is np.bool_
    X = np.arange(6).reshape(2, 3)
    _same(cp.tile(cp.asarray(X), 2), np.tile(X, 2))
    _same(cp.tile([1, 2], (2,)), np.tile([1, 2], (2,)))
    _same(cp.repeat([1, 2], 2), np.repeat([1, 2], 2))
    _same(cp.repeat(cp.asarray(X), [1, 0, 2], axis=1), np.repeat(X, [1, 0, 2], axis=1))
    _same(cp.asarray(X).repeat(2), X.repeat(2))
    _same(cp.asarray([1.26, -3.45]).round(1), np.array([1.26, -3.45]).round(1))
    _same(cp.round(cp.asarray([1.25, 1234.5678]), decimals=-2), np.round([1.25, 1234.5678], -2))
    out = cp.zeros(3)
    cp.sign(cp.asarray([-2.0, 0.0, 3.0]), out=out)
    _same(out, np.sign([-2.0, 0.0, 3.0]))
    i = np.argsort(X * -1, axis=1)
    _same(cp.take_along_axis(cp.asarray(X), cp.asarray(i), axis=1), np.take_along_axis(X, i, axis=1))
    deep = cp.ones((2, 2) + (1,) * 30)
    assert cp.repeat(deep, 3, axis=0).shape == (6, 2) + (1,) * 30


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.bool_])
def test_real_and_imag_of_real_arrays_are_numpys(dtype):
    a = np.array([1, 0, 2]).astype(dtype)
    _same(cp.real(cp.asarray(a)), np.real(a))
    _same(cp.imag(cp.asarray(a)), np.imag(a))
    _same(cp.ascontiguousarray(cp.asarray(a[0])), np.ascontiguousarray(a[0]))


def test_numpy_scalars_keep_their_dtype_as_in_numpy_2():
    # NEP 50: np.float64 subclasses float but is not a weak Python scalar.
    h = np.ones(3, np.float32)
    for s in (np.float64(2), np.float32(2), np.int64(2), np.complex128(2)):
        got = cp.ones(3, dtype=cp.float32) * s
        assert got.dtype == (h * s).dtype, s
        np.testing.assert_array_equal(got.get(), h * s)
    assert (cp.ones(3, dtype=cp.float32) * 2.0).dtype == np.float32  # a Python float: weak
    # In place, NumPy casts a NumPy scalar into x within a kind.
    x, hx = cp.ones(3, dtype=cp.float32), np.ones(3, np.float32)
    x += np.float64(2)
    hx += np.float64(2)
    x /= np.float64(3)
    hx /= np.float64(3)
    assert x.dtype == hx.dtype
    np.testing.assert_array_equal(x.get(), hx)
    y = cp.ones(3, dtype=cp.int32)
    with pytest.raises(TypeError):
        y += np.float64(1.5)  # NumPy: UFuncTypeError (float into int is not within a kind)


def test_array_of_device_scalars_and_values():
    h = np.arange(5.0)
    x = cp.asarray(h)
    got = cp.array([x.mean(), x.std()])
    np.testing.assert_array_equal(got.get(), np.array([h.mean(), h.std()]))
    mixed = cp.array([[x[1], 7], [x[2], 8]])
    np.testing.assert_array_equal(mixed.get(), np.array([[1.0, 7], [2.0, 8]]))
    assert mixed.dtype == np.float64


def test_stream_null_is_the_default_stream():
    s = cp.cuda.Stream.null
    assert s is cp.get_device().null_stream
    s.synchronize()


def test_sum_with_a_dtype_converts_the_elements_first():
    for h, dt in ((np.full(300, 0.6), np.int64), (np.full(300, 1.5, np.float32), np.int8),
                  (np.full(3, 2.5), np.int64), (np.arange(5, dtype=np.int8), np.float32)):
        got = cp.sum(cp.asarray(h), dtype=dt)
        want = np.sum(h, dtype=dt)
        assert got.dtype == want.dtype and got.get() == want, (h.dtype, dt)
    got = cp.prod(cp.asarray(np.full(3, 2.5)), dtype=np.int64)
    assert got.get() == np.prod(np.full(3, 2.5), dtype=np.int64)


def test_more_numpy_names_against_numpy():
    rng = np.random.default_rng(7)
    h = rng.uniform(-4, 4, (3, 4, 5))
    x = cp.asarray(h)
    hi = rng.integers(-50, 50, (6, 7)).astype(np.int32)
    xi = cp.asarray(hi)
    for name in ("rint", "fabs", "deg2rad", "rad2deg", "radians", "degrees"):
        np.testing.assert_allclose(getattr(cp, name)(x).get(), getattr(np, name)(h),
                                   rtol=1e-15, err_msg=name)
    assert cp.fabs(xi).dtype == np.fabs(hi).dtype
    for name in ("invert",):
        np.testing.assert_array_equal(getattr(cp, name)(xi).get(), getattr(np, name)(hi))
    np.testing.assert_array_equal(cp.left_shift(xi, 2).get(), np.left_shift(hi, 2))
    np.testing.assert_array_equal(cp.right_shift(xi, 1).get(), np.right_shift(hi, 1))
    for f in ("fliplr", "flipud"):
        np.testing.assert_array_equal(getattr(cp, f)(x).get(), getattr(np, f)(h), err_msg=f)
    for k in range(-1, 6):
        for axes in ((0, 1), (1, 2), (2, 0)):
            np.testing.assert_array_equal(cp.rot90(x, k, axes).get(), np.rot90(h, k, axes))
    for a in (np.float64(3.0), np.arange(4.0), np.ones((2, 3))):
        for f in ("atleast_1d", "atleast_2d", "atleast_3d"):
            got, want = getattr(cp, f)(cp.asarray(a)), getattr(np, f)(a)
            assert got.shape == want.shape, (f, a.shape)
    assert cp.ndim(x) == 3 and cp.shape(x) == h.shape and cp.isscalar(3.0)
    np.testing.assert_allclose(cp.ptp(x, axis=1).get(), np.ptp(h, axis=1))
    w = rng.uniform(0.5, 2, 4)
    np.testing.assert_allclose(cp.average(x, axis=1, weights=cp.asarray(w)).get(),
                               np.average(h, axis=1, weights=w), rtol=1e-13)
    np.testing.assert_allclose(cp.average(x).get(), np.average(h), rtol=1e-13)
    np.testing.assert_array_equal(cp.tri(4, 5, 1).get(), np.tri(4, 5, 1))
    for f in ("triu_indices", "tril_indices"):
        for got, want in zip(getattr(cp, f)(5, 1, 6), getattr(np, f)(5, 1, 6)):
            np.testing.assert_array_equal(got.get(), want, err_msg=f)
    flat = rng.integers(0, 60, 20)
    for got, want in zip(cp.unravel_index(cp.asarray(flat), (3, 4, 5)),
                         np.unravel_index(flat, (3, 4, 5))):
        np.testing.assert_array_equal(got.get(), want)
    coords = np.unravel_index(flat, (3, 4, 5))
    np.testing.assert_array_equal(
        cp.ravel_multi_index([cp.asarray(c) for c in coords], (3, 4, 5)).get(), flat)
    with pytest.raises(ValueError):
        cp.unravel_index(cp.asarray([60]), (3, 4, 5))
    t = np.array([3, -7, 11, 3])
    np.testing.assert_array_equal(cp.isin(xi, cp.asarray(t)).get(), np.isin(hi, t))
    np.testing.assert_array_equal(cp.isin(xi, cp.asarray(t), invert=True).get(),
                                  np.isin(hi, t, invert=True))
    assert cp.dtype("float32") == np.float32


def test_inner_and_dot_follow_numpy_for_every_rank():
    rng = np.random.default_rng(11)
    for sa, sb in (((3, 3), (3, 3)), ((2, 3), (4, 3)), ((3,), (3,)), ((2, 3, 4), (5, 4)),
                   ((4,), (2, 3, 4)), ((), (3,))):
        a, b = rng.random(sa), rng.random(sb)
        got = cp.inner(cp.asarray(a), cp.asarray(b)).get()
        np.testing.assert_allclose(got, np.inner(a, b), rtol=1e-13, err_msg=f"{sa} {sb}")
    for sa, sb in (((2, 3, 4), (2, 4, 5)), ((2, 3, 4), (4,)), ((3, 4), (2, 4, 5)),
                   ((5,), (2, 5, 3)), ((3, 4), (4, 5)), ((4,), (4,)), ((), (2, 2))):
        a, b = rng.random(sa), rng.random(sb)
        got = cp.dot(cp.asarray(a), cp.asarray(b)).get()
        want = np.dot(a, b)
        assert got.shape == want.shape, (sa, sb)
        np.testing.assert_allclose(got, want, rtol=1e-13, err_msg=f"{sa} {sb}")
    with pytest.raises(ValueError):
        cp.inner(cp.ones((2, 3)), cp.ones((2, 4)))
    d = cp.asarray(rng.random((4, 3)))
    with pytest.raises(TypeError):  # NumPy: UFuncTypeError (float into int out)
        cp.matmul(d, d.T, out=cp.empty((4, 4), dtype=cp.int32))
    o = cp.empty((4, 4), dtype=cp.float32)
    cp.matmul(d, d.T, out=o)
    np.testing.assert_allclose(o.get(), (d.get() @ d.get().T).astype(np.float32), rtol=1e-6)


def test_sort_axis_none_and_kind():
    h = np.random.default_rng(12).random((3, 4, 5))
    x = cp.asarray(h)
    np.testing.assert_array_equal(cp.sort(x, axis=None).get(), np.sort(h, axis=None))
    np.testing.assert_array_equal(cp.argsort(x, axis=None).get(),
                                  np.argsort(h, axis=None, kind="stable"))
    np.testing.assert_array_equal(cp.sort(x, kind="quicksort").get(), np.sort(h))


def test_arange_matches_numpy_bit_for_bit():
    rng = np.random.default_rng(13)
    cases = [(5,), (2, 10), (10, 2, -3), (0.5, 3.2, 0.3), (0, 1, 0.1), (0, -5),
             (2 ** 60, 2 ** 60 + 3), (1, 2 ** 40, 2 ** 38)]
    for _ in range(50):
        a, s = float(rng.uniform(-5, 5)), float(rng.choice([0.1, 0.3, -0.2, 1e-3]))
        cases.append((a, a + s * int(rng.integers(0, 100)) + 0.3 * s, s))
    for c in cases:
        for dt in (None, np.float32, np.int16):
            if dt is np.int16 and any(isinstance(v, float) or abs(v) > 30000 for v in c):
                continue
            got, want = cp.arange(*c, dtype=dt).get(), np.arange(*c, dtype=dt)
            assert got.dtype == want.dtype and np.array_equal(got, want), (c, dt)
    with pytest.raises(ZeroDivisionError):
        cp.arange(0, 5, 0)


def test_a_ragged_list_is_refused_as_numpy_refuses_it():
    with pytest.raises(ValueError, match="inhomogeneous shape"):
        cp.asarray([[1, 2], [3]])
    with pytest.raises(ValueError):
        np.asarray([[1, 2], [3]])


def test_rot90_refuses_bad_axes_as_numpy():
    x = cp.ones((2, 3, 4))
    for axes in ((0, 3), (0, -4), (1, 1)):
        with pytest.raises((ValueError, IndexError)):
            cp.rot90(x, 1, axes)
        with pytest.raises((ValueError, IndexError)):
            np.rot90(np.ones((2, 3, 4)), 1, axes)
    with pytest.raises(ValueError):
        cp.rot90(cp.ones(3))


def test_matmul_out_is_written_directly_or_through_a_temporary():
    # out= of the result's dtype, shape and C order is GEMM's own output (no
    # copy); any other out (a strided view, another dtype, one of the inputs,
    # an alias of an input through from_dlpack) still gets NumPy's values.
    rng = np.random.default_rng(31)
    for sa, sb in (((5, 3), (3, 4)), ((3,), (3, 4)), ((5, 3), (3,)), ((2, 5, 3), (3, 4)),
                   ((2, 5, 3), (2, 3, 4))):
        a, b = rng.random(sa, dtype=np.float32), rng.random(sb, dtype=np.float32)
        want = a @ b
        o = cp.full(want.shape, np.nan, dtype=np.float32)
        assert cp.matmul(cp.asarray(a), cp.asarray(b), out=o) is o
        np.testing.assert_allclose(o.get(), want, rtol=1e-5, err_msg=f"{sa} {sb}")
    h = rng.random((4, 4))
    x = cp.asarray(h)
    cp.matmul(x, x, out=x)  # over both inputs
    np.testing.assert_allclose(x.get(), h @ h, rtol=1e-13)
    x = cp.asarray(h)
    cp.matmul(x, x, out=cp.from_dlpack(x))  # the same memory, another buffer
    np.testing.assert_allclose(x.get(), h @ h, rtol=1e-13)
    o = cp.zeros((4, 8))
    cp.matmul(cp.asarray(h), cp.asarray(h), out=o[:, ::2])
    np.testing.assert_allclose(o.get()[:, ::2], h @ h, rtol=1e-13)
    np.testing.assert_array_equal(o.get()[:, 1::2], 0)
    with pytest.raises(ValueError):
        cp.matmul(cp.asarray(h), cp.asarray(h), out=cp.empty((4, 5)))
    r = cp.broadcast_to(cp.zeros(4), (4, 4))  # read-only
    with pytest.raises(ValueError):
        cp.matmul(cp.asarray(h), cp.asarray(h), out=r)


def test_numpys_elementwise_names_take_out():
    # out= on every elementwise function (python.md): these NumPy spellings
    # raised TypeError on out=; a strided out gets NumPy's values.
    h = np.array([-2.5, -1.0, 0.0, 1.0, 2.0, 3.5])
    g = np.array([1.0, np.nan, 0.0, 5.0, np.nan, -1.0])
    for name, args in (("conj", (h,)), ("conjugate", (h,)), ("deg2rad", (h,)), ("radians", (h,)),
                       ("rad2deg", (h,)), ("degrees", (h,)), ("exp2", (h,)), ("fabs", (h,)),
                       ("reciprocal", (h[h != 0],)), ("fmax", (h, g)), ("fmin", (h, g))):
        n = args[0].size
        o = cp.zeros(2 * n)
        r = getattr(cp, name)(*[cp.asarray(a) for a in args], out=o[::2])
        want = np.zeros(2 * n)
        getattr(np, name)(*args, out=want[::2])
        np.testing.assert_allclose(o.get(), want, rtol=1e-15, err_msg=name)
        np.testing.assert_allclose(r.get(), want[::2], rtol=1e-15, err_msg=name)


def test_copyto_casting_and_where_as_numpy():
    # NumPy's and CuPy's copyto: casting="same_kind" by default (a float
    # array or a Python float into an int array raises; it truncated), any
    # rule by name, and where= picking the elements written.
    f = np.array([1.5, 2.5, -1.0, 3.0])
    for dst_dt, src, ok in ((np.int32, f, False), (np.int32, 1.5, False), (np.int32, 2, True),
                            (np.float32, f, True), (np.float64, np.arange(4, dtype=np.int64), True)):
        d = cp.zeros(4, dtype=dst_dt)
        s = cp.asarray(src) if isinstance(src, np.ndarray) else src
        want = np.zeros(4, dtype=dst_dt)
        if ok:
            cp.copyto(d, s)
            np.copyto(want, src)
            np.testing.assert_array_equal(d.get(), want)
        else:
            with pytest.raises(TypeError):
                np.copyto(want, src)
            with pytest.raises(TypeError, match="same_kind"):
                cp.copyto(d, s)
            np.testing.assert_array_equal(d.get(), want)
    d = cp.zeros(4, dtype=np.int32)
    cp.copyto(d, cp.asarray(f), casting="unsafe")
    np.testing.assert_array_equal(d.get(), f.astype(np.int32))
    with pytest.raises(TypeError):
        cp.copyto(cp.zeros(4, dtype=np.float32), cp.asarray(f), casting="safe")
    m = np.array([True, False, True, False])
    for src in (cp.asarray(np.arange(4.0)), 7.0, cp.asarray(np.array([9.0]))):
        d = cp.full(4, -1.0)
        cp.copyto(d, src, where=cp.asarray(m))
        want = np.full(4, -1.0)
        np.copyto(want, src.get() if isinstance(src, cp.ndarray) else src, where=m)
        np.testing.assert_array_equal(d.get(), want)
    with pytest.raises(ValueError):
        cp.copyto(d, 1.0, casting="bogus")


def test_copyto_from_array_likes_and_across_dtypes_over_the_same_memory():
    # A nested list or a 2-D NumPy array as src (the casting check broke on
    # them); a src of another dtype partly over dst, in one block or through
    # from_dlpack (the astype path refused it).
    d = cp.zeros((2, 3), dtype=np.int32)
    cp.copyto(d, [[1, 2, 3], [4, 5, 6]])
    np.testing.assert_array_equal(d.get(), [[1, 2, 3], [4, 5, 6]])
    with pytest.raises(TypeError):
        cp.copyto(d, [[1.5, 2, 3], [4, 5, 6]])
    cp.copyto(d, [7, 8, 9])
    np.testing.assert_array_equal(d.get(), [[7, 8, 9], [7, 8, 9]])
    h = np.arange(8, dtype=np.int64)
    x = cp.asarray(h)
    x[1:] = x.view(cp.float64)[:-1].astype(cp.int64, copy=False)
    w = h.copy()
    w[1:] = w.view(np.float64)[:-1].astype(np.int64, copy=False)
    np.testing.assert_array_equal(x.get(), w)
    hf = np.arange(8, dtype=np.float32)
    x = cp.asarray(hf)
    y = cp.from_dlpack(x)
    cp.copyto(y[1:], x.view(cp.int32)[:-1], casting="unsafe")
    w = hf.copy()
    np.copyto(w[1:], hf.view(np.int32)[:-1].copy(), casting="unsafe")
    np.testing.assert_array_equal(x.get(), w)


def test_numpy_interop_details():
    # A helper's finds: `v in x` of a 2-d array raised (Python compared
    # rows); f"{x:.2f}" raised; a list of 0-d NumPy arrays raised TypeError;
    # cuda.to_device made 0-d data (1,) and converted into `to=` of another
    # dtype silently (truncating floats).
    from accel import cuda
    a = cp.asarray(np.arange(12.0).reshape(3, 4))
    assert 5.0 in a and 13.0 not in a and 3 in cp.asarray(np.arange(5))
    assert f"{cp.asarray(3.14159):.2f}" == "3.14" and f"{cp.asarray(2)}" == "2"
    assert format(cp.asarray([1.0, 2.0])) == str(cp.asarray([1.0, 2.0]))
    np.testing.assert_array_equal(cp.asarray([np.array(1.0), np.array(2.0)]).get(), [1.0, 2.0])
    with pytest.raises(ValueError):
        cp.asarray([np.arange(2.0), np.arange(3.0)])
    assert cuda.to_device(np.array(3.0)).shape == () and cuda.to_device(3.0).shape == ()
    d = cuda.device_array((3, 4), dtype=np.int32)
    with pytest.raises(TypeError):
        cuda.to_device(np.arange(12.0).reshape(3, 4) * 1.5, to=d)
    cuda.to_device(np.arange(12, dtype=np.int32).reshape(3, 4), to=d)
    np.testing.assert_array_equal(d.get(), np.arange(12).reshape(3, 4))


def test_array_set_refuses_data_of_another_kind():
    # Floats into an int array truncated silently, complex into float lost
    # the imaginary part; a conversion within a kind stays (float64 data into
    # float32, a list of ints into int32).
    d = cp.zeros(3, dtype=np.int32)
    for bad in (np.array([1.5, 2.5, 3.5]), [1.5, 2.0, 3.0]):
        with pytest.raises(TypeError):
            d.set(bad)
    np.testing.assert_array_equal(d.get(), [0, 0, 0])
    with pytest.raises(TypeError):
        cp.zeros(2).set(np.array([1 + 2j, 3j]))
    d.set([4, 5, 6])
    np.testing.assert_array_equal(d.get(), [4, 5, 6])
    f = cp.zeros(3, dtype=np.float32)
    f.set(np.array([0.5, 1.5, 2.5]))
    np.testing.assert_array_equal(f.get(), [0.5, 1.5, 2.5])
    f[::2].set(np.array([7, 8]))
    np.testing.assert_array_equal(f.get(), [7.0, 1.5, 8.0])
