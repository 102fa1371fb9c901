# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Where accel must behave as NumPy (and CuPy) do, or refuse clearly: negative
dimensions, 0-d arrays, the integer dtype names, comparisons, NumPy operands
on the left, and integer arrays given to float-only ops."""
import numpy as np
import pytest

import accel


@pytest.mark.parametrize("make", [lambda: accel.random.rand(-3),
                                  lambda: accel.random.rand(2, -3),
                                  lambda: accel.random.randn(-1),
                                  lambda: accel.empty_pinned(-1),
                                  lambda: accel.empty((2, -1))])
def test_negative_dimensions_raise_value_error(make):
    with pytest.raises(ValueError, match="negative dimension"):
        make()
    with pytest.raises(ValueError, match="negative dimension"):   # as NumPy
        np.empty(-1)


def test_random_shapes_from_arguments():
    assert accel.random.rand(2, 3).shape == (2, 3)
    assert accel.random.randn().shape == ()


def test_zero_d_arrays_keep_shape_and_value():
    for v in (3.0, np.float32(2.5), np.array(-1.5), 7):
        a = accel.asarray(v)
        n = np.asarray(v, dtype=float) if not hasattr(v, "dtype") else np.asarray(v)
        assert a.shape == () == n.shape and a.ndim == 0 and a.size == 1
        assert float(a) == float(n)
        assert a.get().shape == ()
    a = accel.asarray(3.0, dtype=np.float32)
    assert a.shape == () and a.dtype == np.float32
    assert float(a + a) == 6.0 and (a + a).shape == ()
    a.set(4.0)
    assert float(a) == 4.0
    one = accel.zeros(1)
    one.set(5.0)                       # a scalar still fills a one-element array
    assert one.get().tolist() == [5.0]
    m = accel.asarray(np.arange(6.0).reshape(2, 3))
    assert m[1, 2].shape == () and float(m[1, 2]) == 5.0


def test_integer_dtype_names():
    assert accel.int32 is np.int32 and accel.int64 is np.int64 and accel.uint8 is np.uint8
    for dt in (accel.int32, accel.int64, accel.uint8):
        a = accel.asarray([1, 2, 3], dtype=dt)
        assert a.dtype == dt and a.get().tolist() == [1, 2, 3]


@pytest.mark.parametrize("cmp", [lambda x, y: x == y, lambda x, y: x != y, lambda x, y: x < y,
                                 lambda x, y: x <= y, lambda x, y: x > y, lambda x, y: x >= y,
                                 lambda x, y: x == 1.0, lambda x, y: np.ones(3) == x])
def test_comparisons_raise_instead_of_an_identity_compare(cmp):
    x, y = accel.ones(3), accel.ones(3)
    with pytest.raises(TypeError, match="comparison"):
        cmp(x, y)


def test_arrays_stay_hashable_and_compare_to_other_objects_as_unequal():
    x = accel.ones(3)
    assert len({x, x}) == 1
    assert (x == None) is False and (x != "a") is True   # noqa: E711


@pytest.mark.parametrize("op", [lambda n, x: n + x, lambda n, x: n - x, lambda n, x: n * x,
                                lambda n, x: n / x, lambda n, x: x + n])
def test_numpy_array_with_accel_array_raises_device_mismatch(op):
    x = accel.ones(3)
    with pytest.raises(accel.DeviceMismatchError):
        op(np.ones(3), x)


def test_numpy_scalars_still_broadcast():
    x = accel.asarray([1.0, 2.0])
    assert (np.float64(2.0) * x).get().tolist() == [2.0, 4.0]
    assert (np.float32(1.0) + x).get().tolist() == [2.0, 3.0]


@pytest.mark.parametrize("dt", [np.int32, np.int64, np.uint8])
@pytest.mark.parametrize("fn,call", [("add", lambda i: i + i), ("negative", lambda i: -i),
                                     ("exp", lambda i: accel.exp(i)), ("sum", lambda i: i.sum()),
                                     ("max", lambda i: i.max()), ("dot", lambda i: i @ i),
                                     ("fill", lambda i: accel.fill(i, 1.0))])
def test_integer_arrays_in_float_ops_name_the_dtype_and_op(dt, fn, call):
    i = accel.asarray([1, 2, 3], dtype=dt)
    with pytest.raises(accel.DtypeMismatchError) as e:
        call(i)
    name = np.dtype(dt).name
    assert f"{name} is not supported by accel.{fn}" in e.value.message
    assert "not a known dtype" not in e.value.message
