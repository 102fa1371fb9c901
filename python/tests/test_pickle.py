# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""pickle of accel arrays and devices (issue 31, item 3): an array pickles
as its NumPy data and device name and comes back equal (NumPy is the
reference); streams and events refuse with a TypeError naming what to do."""
import pickle

import numpy as np
import pytest

import accel


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32, np.uint8])
def test_array_round_trip_keeps_values_dtype_shape_and_device(dtype):
    h = (np.arange(24) % 7).astype(dtype).reshape(2, 3, 4)
    a = accel.asarray(h, dtype=dtype)
    b = pickle.loads(pickle.dumps(a))
    assert isinstance(b, accel.Array) and b is not a
    assert b.dtype == np.dtype(dtype) and b.shape == (2, 3, 4) and b.device == a.device
    np.testing.assert_array_equal(b.get(), h)
    assert b.data_ptr != a.data_ptr                 # a copy, not a second owner


def test_a_view_pickles_only_its_elements():
    a = accel.arange(10.0)
    b = pickle.loads(pickle.dumps(a[3:6], protocol=pickle.HIGHEST_PROTOCOL))
    assert b.shape == (3,)
    np.testing.assert_array_equal(b.get(), [3.0, 4.0, 5.0])


def test_unknown_device_name_opens_on_the_current_device():
    from accel._array import _unpickle
    b = _unpickle(np.arange(3.0), "nosuch:7")
    assert b.device == accel.get_device()
    np.testing.assert_array_equal(b.get(), np.arange(3.0))


def test_released_array_does_not_pickle():
    a = accel.ones(3)
    a.release()
    with pytest.raises(accel.ReleasedError):
        pickle.dumps(a)


def test_device_pickles_by_name_and_streams_and_events_refuse():
    d = accel.get_device("cpu")
    assert pickle.loads(pickle.dumps(d)) == d
    with pytest.raises(TypeError, match="accel.Stream cannot be pickled"):
        pickle.dumps(accel.Stream())
    with pytest.raises(TypeError, match="accel.Event cannot be pickled"):
        pickle.dumps(accel.Event())
