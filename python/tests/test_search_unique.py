# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""accel.searchsorted and accel.unique_* (the Array API's) over the C array
layer's accel_array_searchsorted and accel_array_unique_all, against NumPy 2:
NaNs, -0.0, int64 extremes, empty arrays, a sorter, bad arguments."""
import numpy as np
import pytest

import accel as cp

SEED = 20261205


def test_searchsorted_matches_numpy_with_nans_and_a_sorter():
    print(f"seed {SEED}")
    rng = np.random.default_rng(SEED)
    x1 = np.sort(np.concatenate([rng.integers(-5, 5, 40).astype(np.float64),
                                 [np.inf, -np.inf, np.nan, np.nan]]))
    v = np.concatenate([rng.integers(-6, 6, 30).astype(np.float64),
                        [np.nan, np.inf, -np.inf, -0.0]]).reshape(2, 17)
    for side in ("left", "right"):
        got = cp.searchsorted(cp.asarray(x1), cp.asarray(v), side=side)
        assert got.dtype == np.int64 and got.shape == v.shape
        np.testing.assert_array_equal(got.get(), np.searchsorted(x1, v, side=side))
    perm = rng.permutation(x1.size)
    shuffled = x1[perm]
    sorter = np.argsort(shuffled, kind="stable")
    got = cp.searchsorted(cp.asarray(shuffled), cp.asarray(v), sorter=cp.asarray(sorter))
    np.testing.assert_array_equal(got.get(), np.searchsorted(shuffled, v, sorter=sorter))


def test_searchsorted_int64_extremes_and_empty():
    x1 = np.array([np.iinfo(np.int64).min, -1, 2**62, np.iinfo(np.int64).max - 1,
                   np.iinfo(np.int64).max])
    v = np.array([np.iinfo(np.int64).max, np.iinfo(np.int64).max - 1, np.iinfo(np.int64).min])
    for side in ("left", "right"):
        np.testing.assert_array_equal(
            cp.searchsorted(cp.asarray(x1), cp.asarray(v), side=side).get(),
            np.searchsorted(x1, v, side=side))
    empty = cp.asarray(np.zeros(0, np.int64))
    np.testing.assert_array_equal(cp.searchsorted(empty, cp.asarray(v)).get(), [0, 0, 0])
    assert cp.searchsorted(cp.asarray(x1), empty).shape == (0,)


def test_searchsorted_bad_arguments():
    x1 = cp.asarray(np.arange(4.0))
    with pytest.raises(ValueError, match="side"):
        cp.searchsorted(x1, x1, side="middle")
    with pytest.raises(ValueError, match="1-D"):
        cp.searchsorted(cp.asarray(np.zeros((2, 2))), x1)
    with pytest.raises(ValueError, match="sorter"):
        cp.searchsorted(x1, x1, sorter=cp.asarray(np.arange(3)))
    with pytest.raises(TypeError):
        cp.searchsorted(np.arange(4.0), x1)


def test_unique_functions_match_numpy_with_nans_and_signed_zeros():
    a = np.array([[3.0, np.nan, 1.0, 3.0], [np.nan, -0.0, 0.0, 1.0]])
    x = cp.asarray(a)
    # np.unique sorts (NumPy 2.3's unique_values may not); equal_nan=False:
    # every NaN its own value, as the standard
    rv, ri, rinv, rc = np.unique(a, return_index=True, return_inverse=True,
                                 return_counts=True, equal_nan=False)
    got = cp.unique_all(x)
    np.testing.assert_array_equal(got.values.get(), rv)
    np.testing.assert_array_equal(got.indices.get(), ri)
    np.testing.assert_array_equal(got.inverse_indices.get(), rinv.reshape(a.shape))
    np.testing.assert_array_equal(got.counts.get(), rc)
    assert got.inverse_indices.shape == a.shape
    np.testing.assert_array_equal(cp.unique_values(x).get(), rv)
    v, c = cp.unique_counts(x)
    np.testing.assert_array_equal(v.get(), rv)
    np.testing.assert_array_equal(c.get(), rc)
    v, inv = cp.unique_inverse(x)
    np.testing.assert_array_equal(v.get(), rv)
    np.testing.assert_array_equal(inv.get(), rinv.reshape(a.shape))
    np.testing.assert_array_equal(x.get(), a)  # input untouched


def test_unique_int64_extremes_and_empty():
    big = np.iinfo(np.int64).max
    a = np.array([big, big - 1, -big - 1, big, 2**53 + 1, 2**53], np.int64)
    rv, rc = np.unique(a, return_counts=True)
    np.testing.assert_array_equal(cp.unique_values(cp.asarray(a)).get(), rv)
    v, c = cp.unique_counts(cp.asarray(a))
    np.testing.assert_array_equal(v.get(), rv)
    np.testing.assert_array_equal(c.get(), rc)
    e = cp.unique_all(cp.asarray(np.zeros((0, 3))))
    assert e.values.shape == (0,) and e.inverse_indices.shape == (0, 3)


def test_a_sorter_index_out_of_range_is_refused_as_numpy():
    # the C call clamps such indices (an answer that means nothing); NumPy
    # raises "Sorter index out of range" when its search meets one, accel
    # for any (it checks the sorter's min and max first)
    x1 = cp.asarray(np.array([3.0, 1.0, 2.0]))
    v = cp.asarray(np.array([2.5]))
    for bad in ([-1, 1, 2], [2, 0, 3], [0, 1, 2**62]):
        with pytest.raises(ValueError, match="out of range"):
            cp.searchsorted(x1, v, sorter=cp.asarray(np.array(bad)))
    good = np.array([1, 2, 0])
    assert cp.searchsorted(x1, v, sorter=cp.asarray(good)).get().tolist() == \
        np.searchsorted(np.array([3.0, 1.0, 2.0]), [2.5], sorter=good).tolist()
