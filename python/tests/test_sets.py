# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""searchsorted and the set functions (unique_all, unique_counts,
unique_inverse, unique_values, and NumPy's/CuPy's unique) over the C array
layer, against NumPy on the same data: values exactly (they are exact),
dtypes, shapes, NaNs and the errors."""
import numpy as np
import pytest

import accel as cp

SEED = 1409
DTYPES = [np.int8, np.uint16, np.int32, np.int64, np.uint64, np.float32, np.float64, np.bool_]


def _ints(shape, dtype, seed=SEED):
    print(f"seed {seed}")
    r = np.random.default_rng(seed)
    if dtype == np.bool_:
        return r.integers(0, 2, shape).astype(bool)
    return r.integers(0, 9, shape).astype(dtype)


def _eq(got, want):
    g = got.get()
    assert g.dtype == np.asarray(want).dtype and g.shape == np.shape(want)
    np.testing.assert_array_equal(g, want)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_matches_numpy(dtype, side):
    a = np.sort(_ints(20, dtype))
    v = _ints((3, 5), dtype, SEED + 1)
    _eq(cp.searchsorted(cp.asarray(a), cp.asarray(v), side=side), np.searchsorted(a, v, side))
    _eq(cp.searchsorted(cp.asarray(a), cp.asarray(v[0, 0]), side=side),
        np.searchsorted(a, v[0, 0], side))  # 0-d x2
    u = _ints(20, dtype, SEED + 2)
    order = np.argsort(u, kind="stable")
    _eq(cp.searchsorted(cp.asarray(u), cp.asarray(v), side=side, sorter=cp.asarray(order)),
        np.searchsorted(u, v, side, sorter=order))


def test_searchsorted_nans_scalars_and_promotion():
    a = np.array([-np.inf, -1.0, 0.0, 0.0, 2.5, np.inf, np.nan, np.nan])
    v = np.array([np.nan, np.inf, -0.0, 3.0, -5.0])
    for side in ("left", "right"):
        _eq(cp.searchsorted(cp.asarray(a), cp.asarray(v), side=side),
            np.searchsorted(a, v, side))
    x = cp.asarray(np.array([1, 3, 5, 7]))
    _eq(cp.searchsorted(x, 4), np.searchsorted([1, 3, 5, 7], 4))
    _eq(cp.searchsorted(x, cp.asarray([2.5, 7.0])), np.searchsorted([1, 3, 5, 7], [2.5, 7.0]))
    _eq(cp.searchsorted(cp.asarray(np.zeros(0)), cp.asarray([1.0, 2.0])), np.array([0, 0]))


@pytest.mark.parametrize("call, exc", [
    (lambda x: cp.searchsorted(cp.reshape(x, (2, 2)), x), ValueError),
    (lambda x: cp.searchsorted(x, x, side="middle"), ValueError),
    (lambda x: cp.searchsorted(x, x, sorter=cp.asarray([0.0, 1, 2, 3])), TypeError),
    (lambda x: cp.searchsorted(x, x, sorter=cp.asarray([0, 1])), ValueError),
    (lambda x: cp.searchsorted(np.arange(4), x), TypeError),
])
def test_searchsorted_bad_input(call, exc):
    with pytest.raises(exc):
        call(cp.asarray(np.arange(4.0)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_unique_all_matches_numpy(dtype):
    h = _ints((4, 7), dtype)
    x = cp.asarray(h)
    r = cp.unique_all(x)
    w = np.unique_all(h)
    for f in ("values", "indices", "inverse_indices", "counts"):
        _eq(getattr(r, f), getattr(w, f))
    # NumPy's unique_values need not sort (2.3+ hashes); its unique does
    wv, wi, wc = np.unique(h, return_inverse=True, return_counts=True)
    _eq(cp.unique_values(x), wv)
    rc = cp.unique_counts(x)
    _eq(rc.values, wv)
    _eq(rc.counts, wc)
    ri = cp.unique_inverse(x)
    _eq(ri.values, wv)
    _eq(ri.inverse_indices, wi)
    assert type(r).__name__ == "UniqueAllResult"


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("shape", [(0,), (1,), (6, 9)])
def test_unique_all_of_complex_matches_numpy(dtype, shape):
    rng = np.random.default_rng(11)
    h = (rng.integers(-2, 3, shape) + 1j * rng.integers(-2, 3, shape)).astype(dtype)
    if h.size > 3:
        h.flat[1] = complex(-0.0, h.flat[4].imag)  # -0 and +0 real parts: one value
        h.flat[4] = complex(0.0, h.flat[4].imag)
    r = cp.unique_all(cp.asarray(h))
    w = np.unique_all(h)
    for f in ("values", "indices", "inverse_indices", "counts"):
        _eq(getattr(r, f), getattr(w, f))
    assert r.values.dtype == dtype


def test_unique_of_complex_nans_are_distinct():
    # NumPy's complex order: R + R j, R + NaN j, NaN + R j, NaN + NaN j
    h = np.array([complex(np.nan, 0), complex(1, np.nan), 2 + 0j, complex(np.nan, np.nan),
                  complex(1, np.nan), 2 + 0j, complex(0, np.nan)])
    r = cp.unique_all(cp.asarray(h))
    v = r.values.get()
    assert v.size == 6 and v[0] == 2
    np.testing.assert_array_equal(v.real[1:4], [0, 1, 1])
    assert np.isnan(v.imag[1:4]).all() and np.isnan(v.real[4:]).all()
    assert v.imag[4] == 0 and np.isnan(v.imag[5])
    _eq(r.counts, np.array([2, 1, 1, 1, 1, 1]))
    _eq(r.indices, np.array([2, 6, 1, 4, 0, 3]))


def test_unique_nans_are_distinct_and_zeros_one():
    h = np.array([np.nan, 1.0, -0.0, np.nan, 0.0, 1.0, np.inf])
    x = cp.asarray(h)
    r = cp.unique_all(x)
    v = r.values.get()
    assert v.size == 5 and np.isnan(v[-2:]).all()  # two NaNs, one zero
    np.testing.assert_array_equal(v[:3], [0.0, 1.0, np.inf])
    assert np.signbit(v[0])  # the zero group keeps its first occurrence: -0.0
    _eq(r.indices, np.array([2, 1, 6, 0, 3]))
    _eq(r.counts, np.array([2, 2, 1, 1, 1]))
    np.testing.assert_array_equal(v[r.inverse_indices.get()], h)
    # NumPy's unique makes the NaNs one value (equal_nan=True)
    vals, idx, inv, cnt = cp.unique(x, return_index=True, return_inverse=True,
                                    return_counts=True)
    wv, wi, wn, wc = np.unique(h, return_index=True, return_inverse=True, return_counts=True)
    for g, w in ((vals, wv), (idx, wi), (inv, wn), (cnt, wc)):
        _eq(g, w)
    _eq(cp.unique(x, equal_nan=False), np.unique(h, equal_nan=False))


def test_unique_cupy_flags_shapes_and_empty():
    h = _ints((3, 4), np.int32)
    x = cp.asarray(h)
    _eq(cp.unique(x), np.unique(h))
    g, c = cp.unique(x, return_counts=True)
    w, wc = np.unique(h, return_counts=True)
    _eq(g, w)
    _eq(c, wc)
    e = cp.asarray(np.zeros((0, 3), np.float32))
    r = cp.unique_all(e)
    assert r.values.shape == (0,) and r.values.dtype == np.float32
    assert r.inverse_indices.shape == (0, 3)
    z = cp.unique_all(cp.asarray(np.float64(2.0)))  # 0-d
    _eq(z.values, np.array([2.0]))
    assert z.inverse_indices.shape == ()
    with pytest.raises(NotImplementedError, match="axis"):
        cp.unique(x, axis=0)
    with pytest.raises(TypeError):
        cp.unique_values(h)
