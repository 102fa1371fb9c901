# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Errors: each is an accel.AccelError carrying accel's status name and a
message that names the function and the cause; subclasses are also the
matching Python exceptions."""
import numpy as np
import pytest

import accel


def test_shape_mismatch():
    with pytest.raises(accel.ShapeMismatchError) as e:
        accel.add(accel.ones(3), accel.ones(4))
    err = e.value
    assert isinstance(err, accel.AccelError) and isinstance(err, ValueError)
    assert err.status == "ACCEL_ERROR_SHAPE_MISMATCH" and err.code == 5
    assert "accel.add" in err.message and "(3,)" in err.message and "(4,)" in err.message
    with pytest.raises(accel.ShapeMismatchError):
        accel.ones((2, 3)) + accel.ones((3, 2))  # same size, other shape
    with pytest.raises(accel.ShapeMismatchError) as e:
        accel.ones((2, 3)) @ accel.ones((2, 3))
    assert "inner dimensions" in e.value.message


def test_dtype_mismatch():
    # Mixed dtypes promote (the standard's table): float32 * float64 is float64.
    r = accel.ones(3, dtype=np.float32) * accel.ones(3, dtype=np.float64)
    assert r.dtype == np.float64 and r.get().tolist() == [1.0, 1.0, 1.0]
    with pytest.raises(accel.DtypeMismatchError) as e:
        accel.zeros(3, dtype="U2")              # a dtype accel has not
    assert isinstance(e.value, TypeError)
    assert e.value.status == "ACCEL_ERROR_DTYPE_MISMATCH"
    with pytest.raises(accel.DtypeMismatchError) as e:
        accel.bitwise_and(accel.ones(3), accel.ones(3))   # a function of integers only
    assert e.value.status == "ACCEL_ERROR_DTYPE_MISMATCH"
    with pytest.raises(accel.DtypeMismatchError):
        accel.random.rand(3, dtype=np.float16)


def test_error_from_the_c_core_carries_last_error():
    # bitwise functions on floats are refused by libaccel itself
    # (accel_array_binary), and its message reaches Python whole.
    h = accel.asarray(np.ones(4, np.float32))
    with pytest.raises(accel.AccelError) as e:
        accel.bitwise_and(h, h)
    assert e.value.status == "ACCEL_ERROR_DTYPE_MISMATCH"
    assert e.value.message.startswith("accel_array_binary: bitwise_and takes bool")


def test_numpy_operand_is_a_clear_error():
    with pytest.raises(accel.DeviceMismatchError) as e:
        accel.ones(3) + np.ones(3)
    assert "asarray" in e.value.message


def test_out_of_memory_is_an_accel_error():
    with pytest.raises(accel.AccelError) as e:
        accel.empty(1 << 60, dtype=np.float32)
    assert e.value.status in ("ACCEL_ERROR_OUT_OF_DEVICE_MEMORY", "ACCEL_ERROR_OUT_OF_HOST_MEMORY",
                              "ACCEL_ERROR_OUT_OF_RANGE", "ACCEL_ERROR_INVALID_ARGUMENT")


def test_invalid_random_arguments():
    with pytest.raises(accel.InvalidArgumentError) as e:
        accel.random.normal(0.0, -1.0, size=4)
    assert e.value.status == "ACCEL_ERROR_INVALID_ARGUMENT" and "stddev" in e.value.message
    with pytest.raises(accel.InvalidArgumentError):
        accel.random.RandomState(-1)


def test_help_says_shapes_dtypes_and_errors():
    doc = accel.add.__doc__
    for word in ("shape", "float32", "float64", "ShapeMismatchError", "DtypeMismatchError",
                 "ReleasedError"):
        assert word in doc
    assert "ulp" in accel.exp.__doc__
    assert "Higham" in accel.sum.__doc__ and "Higham" in accel.matmul.__doc__


def test_released_stream_and_event():
    s = accel.Stream()
    s.release()
    with pytest.raises(accel.ReleasedError):
        s.synchronize()
    with pytest.raises(accel.ReleasedError):
        with s:
            pass
    ev = accel.Event()
    ev.release()
    with pytest.raises(accel.ReleasedError):
        ev.record()


def test_scalar_into_an_integer_array_is_checked_as_numpy():
    """x[k] = NaN into an integer array: ValueError; an infinity or a
    Python integer out of range: OverflowError (NumPy's rules; they were
    stored silently as 0 and INT_MAX); x left as it was."""
    import numpy as np
    z = accel.asarray(np.array([1, 2, 3], dtype=np.int32))
    ref = np.array([1, 2, 3], dtype=np.int32)
    for v, err in ((float("nan"), ValueError), (float("inf"), OverflowError),
                   (np.float64("-inf"), OverflowError)):
        with pytest.raises(err):
            ref[0] = v
        with pytest.raises(err, match="cannot convert"):
            z[0] = v
        with pytest.raises(err):
            z[:] = v
    with pytest.raises(OverflowError):
        ref[1] = 2 ** 40
    with pytest.raises(OverflowError, match="out of bounds"):
        z[1] = 2 ** 40
    assert np.array_equal(np.asarray(z), ref)
    z[2] = 2.9
    ref[2] = 2.9
    assert np.array_equal(np.asarray(z), ref)


def test_float16_with_a_python_scalar():
    """float16 arrays are stored and copied (and compared) only: x + 1.0 is
    a clear DTYPE_MISMATCH (it was a bare KeyError), x > 1.4 is NumPy's,
    x[k] = 1.1 stores NumPy's float16 of the value."""
    import numpy as np
    x = accel.zeros(3, dtype=accel.float16)
    for f in (lambda: x + 1.0, lambda: x * 2, lambda: accel.maximum(x, 1)):
        with pytest.raises(accel.DtypeMismatchError, match="stored and copied only"):
            f()
    h = np.array([1.5, -2, 65504], np.float16)
    assert np.array_equal(np.asarray(accel.asarray(h) > 1.4), h > 1.4)
    x[0] = 1.1
    x[2] = 7
    ref = np.zeros(3, np.float16)
    ref[0], ref[2] = 1.1, 7
    assert np.array_equal(np.asarray(x), ref)


def test_asarray_iteration_and_axis_as_numpy():
    """asarray of data accel has no dtype for is a TypeError naming it (it
    was int()'s ValueError); [2**64 - 1] is uint64 with its value (it went
    through float64); NumPy scalars keep NumPy's dtype ([np.float32(1.5)]
    was int64 1); a memoryview is uint8; iterating a 0-d array and
    axis=True are TypeErrors, as in NumPy."""
    import numpy as np
    for bad in (["a", "b"], b"abc", None, (v for v in range(3))):
        with pytest.raises(TypeError, match="no array dtype"):
            accel.asarray(bad)
    for data in ([2 ** 64 - 1, 1], [np.float32(1.5)], [np.float32(1.5), 2.0], [True, False],
                 [[1, -2], [3, 4]], memoryview(b"abc"), bytearray(b"xy"),
                 np.arange(5, dtype=">f4"), np.array([1 + 2j], dtype=">c16")):
        got = accel.asarray(data).get()
        want = np.asarray(data) if not isinstance(data, list) or data[0] != 2 ** 64 - 1 else \
            np.array(data, dtype=np.uint64)
        want = want.astype(want.dtype.newbyteorder("="))  # big-endian: the values, native
        assert got.dtype == want.dtype and np.array_equal(got, want), (data, got)
    with pytest.raises(ValueError):  # NaN into an integer dtype: NumPy's error, not garbage
        np.asarray([float("nan")], dtype=np.int32)
    with pytest.raises(ValueError):
        accel.asarray([float("nan")], dtype=accel.int32)
    assert np.array_equal(accel.asarray([1.5, -2.7], dtype=accel.int32).get(),
                          np.asarray([1.5, -2.7], dtype=np.int32))
    with pytest.raises(TypeError):
        list(np.asarray(1.0))
    with pytest.raises(TypeError, match="0-d"):
        list(accel.asarray(1.0))
    assert [float(v) for v in accel.asarray([1.0, 2.0])] == [1.0, 2.0]
    with pytest.raises(TypeError):
        np.ones((2, 3)).sum(axis=True)
    with pytest.raises(TypeError, match="axis must be an integer"):
        accel.ones((2, 3)).sum(axis=True)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int32", "int64", "uint64", "float16",
                                   "float32", "float64", "complex64", "complex128"])
def test_full_converts_its_value_as_numpy(dtype):
    """full, zeros and ones against NumPy for values each dtype must
    convert: a float into bool is nonzero (full(n, 0.5, dtype=bool) had
    given False), into an integer truncated; NumPy scalars; shapes of 0, 1
    and 2 dimensions and an empty one."""
    import numpy as np
    dt = np.dtype(dtype)
    values = [0, 1, True, False, 0.5, -0.7, 2.5, np.float32(2.5), np.int16(-3), 7]
    if dt.kind == "c":
        values += [1 + 2j, np.complex64(-1j)]
    for v in values:
        if dt.kind == "u" and float(np.real(v)) < 0:
            continue              # NumPy refuses or wraps by version
        for shape in ((), (5,), (2, 3), (0, 4)):
            with np.errstate(invalid="ignore"):
                want = np.full(shape, v, dtype=dt)
            got = accel.full(shape, v, dtype=dt)
            assert got.dtype == dt and got.shape == want.shape
            np.testing.assert_array_equal(got.get(), want, err_msg=f"{v!r} {dtype}")
    np.testing.assert_array_equal(accel.zeros((3, 2), dtype=dt).get(), np.zeros((3, 2), dt))
    np.testing.assert_array_equal(accel.ones(4, dtype=dt).get(), np.ones(4, dt))


def test_fill_and_full_of_an_integer_array_as_numpy():
    """fill/full of an integer array with NaN: ValueError; an infinity:
    OverflowError (NumPy's exception types, checked against NumPy)."""
    import numpy as np
    for v in (float("nan"), float("inf"), -float("inf")):
        with pytest.raises(Exception) as want:
            np.zeros(3, np.int32).fill(v)
        with pytest.raises(want.type):
            accel.zeros(3, dtype=accel.int32).fill(v)
        with pytest.raises(want.type):
            accel.full(3, v, dtype=accel.int32)
