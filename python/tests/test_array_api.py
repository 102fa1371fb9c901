# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""accel as the Array API 2023.12 namespace (also importable as accel.array_api) against NumPy: promotion
cells, broadcasting, views that share memory, reductions over axis tuples,
in-place operators and the errors for bad shapes, dtypes and axes."""
import math

import numpy as np
import pytest

import accel
import accel.array_api as xp

NAMES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
         "float32", "float64", "complex64", "complex128")


def test_namespace_attributes():
    assert xp.__array_api_version__ == "2023.12"
    for n in NAMES:
        assert getattr(xp, n) == np.dtype(n)
    x = xp.asarray([1, 2])
    assert x.__array_namespace__() is xp
    info = xp.__array_namespace_info__()
    assert info.default_dtypes()["real floating"] == xp.float64
    assert set(info.dtypes()) == set(NAMES)
    assert set(info.dtypes(kind="integral")) == {n for n in NAMES if "int" in n}
    assert x.device in info.devices()


@pytest.mark.parametrize("a,b", [("int8", "uint8"), ("int16", "uint32"), ("uint8", "uint16"),
                                 ("int32", "int64"), ("float32", "float64"), ("bool", "int8"),
                                 ("int8", "float32"), ("uint32", "int64")])
def test_promotion_cells_match_numpy(a, b):
    """result_type is the C library's table; these cells are NumPy 2's too."""
    want = np.result_type(np.dtype(a), np.dtype(b))
    assert xp.result_type(getattr(xp, a), getattr(xp, b)) == want
    x = xp.asarray(np.array([3, 1], dtype=a))
    y = xp.asarray(np.array([2, 5], dtype=b))
    z = x + y
    assert z.dtype == want
    np.testing.assert_array_equal(np.asarray(z), np.array([3, 1], a) + np.array([2, 5], b))


def test_scalar_promotion_keeps_the_array_dtype():
    x = xp.asarray([1, 2, 3], dtype=xp.int8)
    assert (x + 3).dtype == xp.int8
    f = xp.asarray([1.5], dtype=xp.float32)
    assert (f * 2).dtype == xp.float32 and (2.5 - f).dtype == xp.float32
    np.testing.assert_array_equal(np.asarray(2.5 - f), np.float32(2.5) - np.float32([1.5]))
    with pytest.raises(OverflowError, match="does not fit int8"):
        x + 1000


def test_can_cast_and_isdtype():
    assert xp.can_cast(xp.int8, xp.int16) and not xp.can_cast(xp.int16, xp.int8)
    assert not xp.can_cast(xp.float64, xp.float32)
    assert xp.isdtype(xp.uint8, "unsigned integer") and not xp.isdtype(xp.uint8, "signed integer")
    assert xp.isdtype(xp.float32, ("bool", "real floating"))
    with pytest.raises(ValueError, match="unknown kind"):
        xp.isdtype(xp.int8, "integer")


def test_broadcasting_against_numpy():
    a = np.arange(6, dtype=np.float64).reshape(2, 1, 3)
    b = np.arange(4, dtype=np.float64).reshape(4, 1)
    got = xp.asarray(a) * xp.asarray(b) - 1.0
    np.testing.assert_array_equal(np.asarray(got), a * b - 1.0)
    with pytest.raises(ValueError):
        xp.asarray(np.zeros((2, 3))) + xp.asarray(np.zeros((4,)))


def test_getitem_views_share_memory():
    h = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    x = xp.asarray(h)
    for key in [(1,), (slice(None), slice(None, None, -2)), (Ellipsis, 1), (None, 0, slice(1, 3)),
                (slice(None, None, -1), 2, slice(None, None, 3)), (-1, -1, -1)]:
        np.testing.assert_array_equal(np.asarray(x[key]), h[key])
    v = x[:, 1, ::-1]
    v[...] = 7  # writes through the view into x
    h[:, 1, ::-1] = 7
    np.testing.assert_array_equal(np.asarray(x), h)
    with pytest.raises(IndexError, match="out of bounds"):
        x[2]
    with pytest.raises(IndexError):
        x[0, 0, 0, 0]


@pytest.mark.parametrize("shape", [(1000,), (7, 6), (0,), (5, 0, 2)])
def test_first_axis_slices_and_ints_match_numpy_and_share_memory(shape):
    # x[a:b] and x[i] of a C-contiguous array take the Python fast path
    # (_namespace._first_axis_view); views of views, of strided views and
    # out-of-range keys go on as before.
    h = np.arange(math.prod(shape), dtype=np.float32).reshape(shape)
    x = xp.asarray(h)
    n = shape[0]
    keys = [slice(1, 3), slice(-5, None), slice(None, -2), slice(n - 2, n + 9), slice(4, 1),
            slice(None), slice(-n - 7, 2), slice(0, n, 1), 0, -1, n - 1]
    for key in keys:
        if isinstance(key, int) and not -n <= key < n:
            continue
        v = x[key]
        np.testing.assert_array_equal(np.asarray(v), h[key])
        assert v.shape == h[key].shape
    if n > 3:
        np.testing.assert_array_equal(np.asarray(x[1:][2:3]), h[1:][2:3])
        np.testing.assert_array_equal(np.asarray(x[::2][1:2]), h[::2][1:2])
        x[1:3] = -1.0  # writes through the view
        h[1:3] = -1.0
        np.testing.assert_array_equal(np.asarray(x), h)
    with pytest.raises(IndexError, match="out of bounds"):
        x[n]
    with pytest.raises(IndexError, match="out of bounds"):
        x[-n - 1]
    with pytest.raises(TypeError):
        x[1.5:2]


def test_reductions_with_axis_tuples():
    rng = np.random.default_rng(3)
    h = rng.standard_normal((3, 4, 5))
    x = xp.asarray(h)
    for axis in [None, 0, (0, 2), (-1,), (1, 2)]:
        for keepdims in (False, True):
            np.testing.assert_allclose(np.asarray(xp.sum(x, axis=axis, keepdims=keepdims)),
                                       np.sum(h, axis=axis, keepdims=keepdims), rtol=1e-12)
            np.testing.assert_array_equal(np.asarray(xp.max(x, axis=axis, keepdims=keepdims)),
                                          np.max(h, axis=axis, keepdims=keepdims))
    np.testing.assert_allclose(np.asarray(xp.var(x, axis=(0, 1), correction=1)),
                               np.var(h, axis=(0, 1), ddof=1), rtol=1e-12)
    i = xp.asarray(np.array([[1, 2], [3, 4]], dtype=np.int8))
    assert xp.sum(i).dtype == xp.int64 and int(xp.sum(i)) == 10
    assert int(xp.argmax(x)) == int(np.argmax(h))
    with pytest.raises(ValueError, match="repeated axis"):
        xp.sum(x, axis=(0, -3))
    with pytest.raises(IndexError, match="out of range"):
        xp.sum(x, axis=3)


def test_inplace_operators():
    h = np.array([[1, 2], [3, 4]], dtype=np.int32)
    x = xp.asarray(h)
    y = x
    x += xp.asarray(np.array([10, 20], dtype=np.int32))
    x *= 2
    x >>= 1
    h = ((h + np.array([10, 20])) * 2) >> 1
    assert y is x
    np.testing.assert_array_equal(np.asarray(x), h)
    f = xp.asarray([1.0, 2.0])
    f /= 4
    np.testing.assert_array_equal(np.asarray(f), [0.25, 0.5])
    with pytest.raises(TypeError, match="in-place divide"):
        x /= 2  # int32 / int is float64, not int32
    with pytest.raises(TypeError, match="in-place add"):
        x += xp.ones((2, 2), dtype=xp.int64)


def test_elementwise_functions_against_numpy():
    h = np.linspace(0.1, 0.9, 7, dtype=np.float32)
    x = xp.asarray(h)
    for name in ("exp", "log", "sqrt", "sin", "atanh", "floor", "round", "sign", "square"):
        np.testing.assert_allclose(np.asarray(getattr(xp, name)(x)),
                                   getattr(np, name.replace("atanh", "arctanh"))(h), rtol=1e-6)
    np.testing.assert_array_equal(np.asarray(xp.signbit(xp.asarray([-0.0, 0.0, -1.0]))),
                                  [True, False, True])
    np.testing.assert_array_equal(np.asarray(xp.clip(x, 0.3, None)), np.clip(h, 0.3, None))
    # exp of integers computes in float64 (as NumPy's and CuPy's of int64)
    np.testing.assert_allclose(np.asarray(xp.exp(xp.asarray([1, 2]))), np.exp([1.0, 2.0]),
                               rtol=1e-15)


def test_manipulation_and_matmul():
    a = np.arange(6, dtype=np.int64).reshape(2, 3)
    b = np.arange(12, dtype=np.int64).reshape(3, 4)
    x, y = xp.asarray(a), xp.asarray(b)
    np.testing.assert_array_equal(np.asarray(x @ y), a @ b)
    np.testing.assert_array_equal(np.asarray(xp.concat([x, x], axis=1)),
                                  np.concatenate([a, a], 1))
    np.testing.assert_array_equal(np.asarray(xp.stack([x, x], axis=-1)), np.stack([a, a], -1))
    np.testing.assert_array_equal(np.asarray(xp.reshape(x.T, (3, 2))), a.T.reshape(3, 2))
    assert x.mT.shape == (3, 2) and x.T.strides == (8, 24)
    with pytest.raises(ValueError, match="do not align"):
        x @ x
    np.testing.assert_array_equal(np.asarray(xp.roll(x, 2, axis=1)), np.roll(a, 2, axis=1))
    np.testing.assert_array_equal(np.asarray(xp.repeat(x, 2, axis=0)), np.repeat(a, 2, axis=0))
    np.testing.assert_array_equal(np.asarray(xp.tile(x, (2, 1, 2))), np.tile(a, (2, 1, 2)))
    np.testing.assert_array_equal(np.asarray(xp.sort(x, axis=1, descending=True)),
                                  -np.sort(-a, axis=1))


@pytest.mark.parametrize("shape,axis", [((5,), None), ((3, 4), 0), ((3, 4), 1),
                                        ((2, 3, 4), None), ((2, 3, 4), -1), ((0, 3), 0)])
def test_repeat_with_an_array_of_counts(shape, axis):
    rng = np.random.default_rng(7)
    a = rng.integers(-50, 50, shape).astype(np.float32)
    n = a.size if axis is None else a.shape[axis]
    for counts in (rng.integers(0, 4, n), np.array([3]), np.zeros(n, np.int64)):
        got = xp.repeat(xp.asarray(a), xp.asarray(counts), axis=axis)
        np.testing.assert_array_equal(np.asarray(got), np.repeat(a, counts, axis=axis))


def test_take_and_repeat_of_complex():
    a = (np.arange(6) + 1j * np.arange(6)[::-1]).astype(np.complex64).reshape(2, 3)
    for axis in (0, 1):
        counts = np.array([1, 0, 2][:a.shape[axis]])
        got = np.asarray(xp.repeat(xp.asarray(a), xp.asarray(counts), axis=axis))
        assert got.dtype == np.complex64
        np.testing.assert_array_equal(got, np.repeat(a, counts, axis=axis))
        got = np.asarray(xp.take(xp.asarray(a), xp.asarray(np.array([1, 0, 1])), axis=axis))
        np.testing.assert_array_equal(got, np.take(a, [1, 0, 1], axis=axis))


def test_stack_bad_input_names_stack():
    with pytest.raises(ValueError, match="accel.stack: needs at least one array"):
        xp.stack([])
    with pytest.raises(TypeError, match="accel.stack: every element"):
        xp.stack([xp.asarray([1.0]), np.ones(1)])
    deep = xp.reshape(xp.asarray([1.0]), (1,) * 32)
    with pytest.raises(ValueError, match="accel.stack: the result would have 33 dimensions"):
        xp.stack([deep, deep])


def test_linalg_error_names_the_public_call():
    with pytest.raises(np.linalg.LinAlgError, match="^accel_array_linalg_solve: problem 0"):
        xp.linalg.solve(xp.asarray(np.zeros((2, 2))), xp.asarray(np.ones(2)))


@pytest.mark.parametrize("shape,reps", [
    ((3,), (2,)), ((2, 3), (2, 1, 2)), ((2, 3), (0, 2)), ((), (3, 2)), ((2, 3), ()),
    ((1,) * 32, (2,)),                                   # 32-d: every repeat by concat
    ((2,) + (1,) * 31, (1,) * 30 + (3, 2)),
    ((2, 2, 2) + (1,) * 27, (2, 3, 2) + (1,) * 26 + (2,)),  # 30-d: one concat, then a view
])
def test_tile_matches_numpy(shape, reps):
    a = np.random.default_rng(5).integers(0, 9, shape).astype(np.float32)
    got = np.asarray(xp.tile(xp.asarray(a), reps))
    ref = np.tile(a, reps)
    assert got.shape == ref.shape
    np.testing.assert_array_equal(got, ref)


def test_sizes_past_int64_are_errors_not_wrapped():
    x = xp.asarray(np.arange(3.0))
    big = 2 ** 64  # ctypes would store it as 0
    for call in (lambda: xp.reshape(x, (big,)), lambda: xp.zeros((big,)),
                 lambda: xp.broadcast_to(x, (big, 3)), lambda: xp.repeat(x, big),
                 lambda: xp.tile(x, (2 ** 62, 4)),
                 lambda: xp.repeat(x, xp.asarray(np.array([2 ** 63, 1, 1], np.uint64))),
                 lambda: xp.repeat(x, xp.asarray([2 ** 62, 2 ** 62, 1]))):
        with pytest.raises(xp.OutOfRangeError, match="int64"):
            call()
    a = np.arange(6.0).reshape(2, 3)
    big = 2 ** 64 + 1  # wrapped, it read k = 1
    np.testing.assert_array_equal(np.asarray(xp.tril(xp.asarray(a), k=big)), np.tril(a, k=9))
    np.testing.assert_array_equal(np.asarray(xp.triu(xp.asarray(a), k=big)), np.triu(a, k=9))
    np.testing.assert_array_equal(np.asarray(xp.tril(xp.asarray(a), k=-big)), np.tril(a, k=-9))
    with pytest.raises(IndexError, match="permute_dims: axis"):  # wrapped, it read (1, 0)
        xp.permute_dims(xp.asarray(a), (big, 0))



@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_tril_triu_of_complex_arrays(dtype):
    # the C functions take real dtypes: a complex array goes part by part
    h = (np.arange(24.0).reshape(2, 3, 4) + 1j * np.arange(24.0)[::-1].reshape(2, 3, 4))
    h = h.astype(dtype)
    x = xp.asarray(h)
    for k in (-1, 0, 2):
        np.testing.assert_array_equal(np.asarray(xp.tril(x, k=k)), np.tril(h, k=k))
        np.testing.assert_array_equal(np.asarray(xp.triu(x[..., ::2], k=k)),
                                      np.triu(h[..., ::2], k=k))

def test_repeat_with_bad_counts():
    x = xp.asarray(np.arange(5))
    with pytest.raises(ValueError, match="count in repeats is < 0"):
        xp.repeat(x, xp.asarray([1, -1, 1, 1, 1]))
    with pytest.raises(TypeError, match="repeats must be integers"):
        xp.repeat(x, xp.asarray([1.0] * 5))
    with pytest.raises(ValueError, match=r"repeats of shape \(2,\)"):
        xp.repeat(x, xp.asarray([1, 2]))


def test_bad_dtype_message():
    assert xp is accel
    with pytest.raises(TypeError, match="'U3'.*is not one accel has"):
        xp.zeros((2,), dtype="U3")
    c = xp.asarray([1 + 2j, 3.5j])  # complex arrays are stored and read back ...
    assert c.dtype == xp.complex128
    np.testing.assert_array_equal(np.asarray(c), [1 + 2j, 3.5j])
    np.testing.assert_array_equal(np.asarray(c + c), [2 + 4j, 7j])
    np.testing.assert_allclose(np.asarray(xp.exp(c)), np.exp([1 + 2j, 3.5j]), rtol=1e-15)
    with pytest.raises(accel.DtypeMismatchError, match="does not define it for complex"):
        xp.floor(c)  # ... the functions the standard defines for real numbers only refuse it
    # views and copies move complex elements as float pairs on the device
    np.testing.assert_array_equal(np.asarray(c[::-1]), [3.5j, 1 + 2j])
    np.testing.assert_array_equal(np.asarray(xp.conj(c[::-1])), [-3.5j, 1 - 2j])
    np.testing.assert_array_equal(np.asarray(xp.imag(c)), [2.0, 3.5])
    assert xp.real(c).dtype == xp.float64
    assert isinstance(accel.ShapeMismatchError("ACCEL_ERROR_SHAPE_MISMATCH", "m"), ValueError)


def test_masks_and_integer_arrays_on_the_device(rng):
    h = rng.standard_normal((6, 5))
    x = xp.asarray(h)
    m = h > 0.2
    np.testing.assert_array_equal(np.asarray(x[x > 0.2]), h[m])
    np.testing.assert_array_equal(np.asarray(x[xp.asarray(m[:, 0])]), h[m[:, 0]])
    idx = np.array([4, 0, -1, 2])
    np.testing.assert_array_equal(np.asarray(x[xp.asarray(idx)]), h[idx])
    np.testing.assert_array_equal(np.asarray(xp.take(x, xp.asarray(idx), axis=1)),
                                  np.take(h, idx, axis=1))
    x[x < 0] = 0.0
    h[h < 0] = 0.0
    np.testing.assert_array_equal(np.asarray(x), h)
    x[xp.asarray([1, 3])] = -7.0
    h[[1, 3]] = -7.0
    np.testing.assert_array_equal(np.asarray(x), h)
    with pytest.raises(IndexError):
        x[xp.asarray([6])]
    c = xp.zeros(3, dtype=xp.complex64)
    c[xp.asarray([True, False, True])] = 1 + 2j
    np.testing.assert_array_equal(np.asarray(c), [1 + 2j, 0, 1 + 2j])
    np.testing.assert_array_equal(np.asarray(xp.astype(xp.asarray([1, 0]), xp.complex128)),
                                  [1 + 0j, 0j])


def test_sorting_searching_and_statistics_against_numpy(rng):
    h = rng.standard_normal((7, 9))
    x = xp.asarray(h)
    np.testing.assert_array_equal(np.asarray(xp.sort(x, axis=0)), np.sort(h, axis=0))
    np.testing.assert_array_equal(np.asarray(xp.argsort(x, axis=1)),
                                  np.argsort(h, axis=1, kind="stable"))
    z = np.where(h > 0.5, h, 0.0)
    for got, want in zip(xp.nonzero(xp.asarray(z)), np.nonzero(z)):
        np.testing.assert_array_equal(np.asarray(got), want)
    np.testing.assert_allclose(np.asarray(xp.cumulative_sum(x, axis=1)), np.cumsum(h, axis=1),
                               rtol=1e-13)
    np.testing.assert_allclose(np.asarray(x.std(axis=0, ddof=1)), h.std(axis=0, ddof=1),
                               rtol=1e-13)
    np.testing.assert_allclose(np.asarray(xp.var(x, axis=(0, 1), correction=1)),
                               h.var(ddof=1), rtol=1e-13)
    np.testing.assert_array_equal(np.asarray(x.argmax(axis=1)), h.argmax(axis=1))
    np.testing.assert_array_equal(np.asarray(xp.triu(x, k=1)), np.triu(h, k=1))


def test_strided_views_read_write_and_feed_kernels(rng):
    h = rng.standard_normal((4, 6)).astype(np.float32)
    x = xp.asarray(h)
    v = x[:, ::-2]                     # a strided view of x's buffer
    assert v.strides == (24, -8)
    np.testing.assert_array_equal(v.get(), h[:, ::-2])
    v.set(np.zeros((4, 3), np.float32))
    h[:, ::-2] = 0
    np.testing.assert_array_equal(x.get(), h)
    sq = accel.ElementwiseKernel("T a", "T b", "b = a * a", "sq_view")
    np.testing.assert_array_equal(sq(x.T).get(), (h.T * h.T))   # copied C-contiguous first
    np.testing.assert_array_equal((x.T + 1).get(), h.T + 1)     # off the fast path
    np.testing.assert_allclose((x.T @ x).get(), h.T @ h, rtol=1e-5, atol=1e-5)


def test_complex_arithmetic_from_the_parts():
    a = np.array([1 + 2j, np.nan + 0j, 3 - 1j, -0.5j], np.complex64)
    b = np.array([2 - 1j, 1j, 3 - 1j, 4], np.complex128)
    x, y = xp.asarray(a), xp.asarray(b)
    for fn in ("isnan", "isinf", "isfinite", "abs", "negative", "sign", "square"):
        got = getattr(xp, fn)(x)
        want = getattr(np, fn)(a)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)
    for fn in ("equal", "not_equal", "add", "subtract", "multiply", "divide"):
        got = getattr(xp, fn)(x, y)
        want = getattr(np, fn)(a, b)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)


def test_any_all_of_complex_arrays():
    a = np.array([[0, 1j, 0], [0, 0, 2]], np.complex128)
    x = xp.asarray(a)
    for axis in (None, 0, 1):
        np.testing.assert_array_equal(np.asarray(xp.any(x, axis=axis)), np.any(a, axis=axis))
        np.testing.assert_array_equal(np.asarray(xp.all(x, axis=axis)), np.all(a, axis=axis))


def test_complex_sums_and_joins_and_narrow_cumulative_sums():
    a = np.array([[1 + 1j, 2], [3j, -1]], np.complex64)
    x = xp.asarray(a)
    for axis in (None, 0, 1):
        np.testing.assert_allclose(np.asarray(xp.sum(x, axis=axis)), a.sum(axis=axis), rtol=1e-6)
    b = a.astype(np.complex128)
    np.testing.assert_array_equal(np.asarray(xp.concat([x, xp.asarray(b)])),
                                  np.concatenate([a, b]))
    h = np.array([200, 100, 7], np.uint16)
    np.testing.assert_array_equal(np.asarray(xp.cumulative_sum(xp.asarray(h), dtype=xp.uint8)),
                                  np.cumsum(h, dtype=np.uint8))


def test_broadcast_views_are_read_only_through_every_view():
    # broadcast_to's result repeats elements: read-only as NumPy's, and so is
    # every view of it (a row, an element, a diagonal, unstack's parts); each
    # of these wrote the source array through a view without a zero stride.
    base = xp.zeros(3)
    b = xp.broadcast_to(base, (4, 3))
    writes = [lambda: b.__setitem__(0, 1.0), lambda: b.__setitem__((0, 1), -7.0),
              lambda: xp.linalg.diagonal(b).__setitem__(Ellipsis, 7.0),
              lambda: xp.unstack(b)[2].__setitem__(Ellipsis, 9.0),
              lambda: b[1].__iadd__(1.0), lambda: b[0].fill(3.0),
              lambda: b[0].set(np.ones(3)), lambda: b[0].sort(),
              lambda: b.__setitem__(b > -1, 5.0),
              lambda: xp.add(xp.ones(3), xp.ones(3), out=b[0])]
    for w in writes:
        with pytest.raises(ValueError, match="read-only view"):
            w()
    np.testing.assert_array_equal(base.get(), np.zeros(3))
    if b.device.kind == "cpu":  # NumPy sees the memory itself read-only
        assert not np.asarray(b).flags.writeable
    else:  # a host copy of a GPU array: NumPy's own, writable, not aliasing
        h = np.asarray(b)
        h[0] = 4.0
        np.testing.assert_array_equal(base.get(), np.zeros(3))
    c = b.copy()  # a copy is writable
    c[0] = 1.0
    np.testing.assert_array_equal(c.get()[0], np.ones(3))
    same = xp.broadcast_to(base, (3,))  # no repeated element: writable
    same[0] = 2.0
    assert base.get()[0] == 2.0


def test_bool_add_and_multiply_are_bool_as_numpy():
    # mask1 + mask2 is logical or and mask1 * mask2 logical and in NumPy and
    # CuPy; accel gave float64 (2.0 where both were True)
    a = np.array([True, False, True, False])
    b = np.array([True, True, False, False])
    for f in ("add", "multiply"):
        got = getattr(accel, f)(accel.asarray(a), accel.asarray(b))
        want = getattr(np, f)(a, b)
        assert got.dtype == want.dtype == np.bool_
        np.testing.assert_array_equal(got.get(), want)
    np.testing.assert_array_equal((accel.asarray(a) + accel.asarray(b)).get(), a + b)


def test_bool_subtract_and_negative_raise_as_numpy():
    # NumPy and CuPy refuse them; accel computed float64 on 0 and 1
    t = accel.asarray(np.array([True, False]))
    for call in (lambda: t - t, lambda: -t, lambda: accel.subtract(t, t),
                 lambda: accel.negative(t)):
        with pytest.raises(TypeError, match="not defined for bool"):
            call()
    with pytest.raises(TypeError):
        np.subtract(np.array([True]), np.array([True]))
    np.testing.assert_array_equal((t - 1).get(), np.array([True, False]) - 1)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_reductions_match_numpy(dtype):
    rng = np.random.default_rng(12)
    a = (rng.standard_normal((3, 4, 5)) + 1j * rng.standard_normal((3, 4, 5))).astype(dtype)
    a[0, 0, 0] = 0
    a[1, :, 2] = 0
    x = xp.asarray(a)
    tol = 1e-5 if dtype == np.complex64 else 1e-12
    for axis in (None, 0, (0, 2), -1):
        for keep in (False, True):
            for f in ("sum", "prod", "mean", "any", "all"):
                got = getattr(xp, f)(x, axis=axis, keepdims=keep)
                want = getattr(np, f)(a, axis=axis, keepdims=keep)
                assert got.dtype == want.dtype and got.shape == want.shape, (f, axis)
                np.testing.assert_allclose(np.asarray(got), want, rtol=tol)
    np.testing.assert_allclose(np.asarray(xp.sum(x[:, ::-1, ::2], axis=1)),
                               a[:, ::-1, ::2].sum(axis=1), rtol=tol)
    with pytest.raises(TypeError, match="does not take"):
        xp.max(x)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("shape,axis", [((7,), -1), ((4, 6), 0), ((4, 6), 1), ((2, 3, 5), 1)])
def test_complex_sort_and_argsort_in_numpys_order(dtype, shape, axis):
    rng = np.random.default_rng(13)
    a = (rng.integers(-2, 3, shape) + 1j * rng.integers(-2, 3, shape)).astype(dtype)
    a.flat[1], a.flat[3], a.flat[4] = complex(np.nan, 1), complex(1, np.nan), complex(np.nan, 0)
    got = xp.sort(xp.asarray(a), axis=axis)
    assert got.dtype == dtype
    np.testing.assert_array_equal(np.asarray(got), np.sort(a, axis=axis, kind="stable"))
    np.testing.assert_array_equal(np.asarray(xp.argsort(xp.asarray(a), axis=axis)),
                                  np.argsort(a, axis=axis, kind="stable"))
    with pytest.raises(NotImplementedError, match="descending"):
        xp.sort(xp.asarray(a), descending=True)


def test_reductions_over_many_interleaved_axes():
    # 8 reduced axes between 7 kept ones do not fit one C kernel's
    # parameters: the package reduces a copy with the reduced axes last.
    h = np.random.default_rng(5).integers(0, 9, (2,) * 15).astype(np.int32)
    axes = tuple(range(0, 15, 2))
    x = xp.asarray(h)
    np.testing.assert_array_equal(np.asarray(xp.sum(x, axis=axes)), h.sum(axis=axes))
    np.testing.assert_array_equal(np.asarray(xp.max(x, axis=axes, keepdims=True)),
                                  h.max(axis=axes, keepdims=True))
    f = h.astype(np.float64)
    np.testing.assert_allclose(np.asarray(xp.mean(xp.asarray(f), axis=axes)), f.mean(axis=axes))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_row_reductions_of_many_long_rows_match_numpy(dtype):
    # 70001 rows of 203 (at least 65536 outputs: one kernel, no chunks; on a
    # GPU each row in runs of 8 from 16-byte loads, several runs in flight)
    # and 5 rows of 200003 (chunked: interleaved runs), each row starting at
    # a different alignment; an extreme planted late in some rows, and ties.
    rng = np.random.default_rng(11)
    for shape in ((70001, 203), (5, 200003)):
        h = rng.integers(-50, 50, shape).astype(dtype)
        h[::7, -3] = 99
        h[1::7, shape[1] // 2] = -99
        x = xp.asarray(h)
        for fn in ("sum", "max", "min", "argmax", "argmin"):
            got = np.asarray(getattr(xp, fn)(x, axis=1))
            want = getattr(np, fn)(h, axis=1)  # int sums: int64, as the standard's
            np.testing.assert_array_equal(got, want, err_msg=f"{fn} {shape}")
            assert got.dtype == want.dtype, (fn, shape)
        # and each row from its second element (rows now start off 16 bytes)
        np.testing.assert_array_equal(np.asarray(xp.argmax(x[:, 1:], axis=1)),
                                      h[:, 1:].argmax(axis=1))
        np.testing.assert_array_equal(np.asarray(xp.sum(x[:, 1:], axis=1)),
                                      h[:, 1:].sum(axis=1))


def test_cumulative_dtype_casts_x_first():
    # A fresh-clone tester's cases: dtype= cast the result, not x
    # (cumulative_sum([0.5] * 4, dtype=int32) gave [0 1 1 2]).
    a = np.array([0.5, 0.5, 0.5, 0.5])
    np.testing.assert_array_equal(xp.cumulative_sum(xp.asarray(a), dtype=xp.int32).get(),
                                  np.cumsum(a.astype(np.int32)))
    d = np.array([1.5, 1.5, 1.5])
    np.testing.assert_array_equal(xp.cumulative_prod(xp.asarray(d), dtype=xp.int64).get(),
                                  np.cumprod(d, dtype=np.int64))
    c = np.array([1, -1, 0], np.int64)
    got = xp.cumulative_sum(xp.asarray(c), dtype=xp.bool).get()
    assert got.dtype == np.bool_ and got.tolist() == np.cumsum(c, dtype=bool).tolist()
    got = xp.cumulative_prod(xp.asarray(c), dtype=xp.bool, include_initial=True).get()
    assert got.tolist() == [True, True, True, False]
    b = np.array([False, True, False, True, False])   # bool with dtype=bool: NumPy's or / and
    got = xp.cumulative_sum(xp.asarray(b), dtype=xp.bool).get()
    assert got.dtype == np.bool_ and got.tolist() == np.cumsum(b, dtype=bool).tolist()
    got = xp.cumulative_prod(xp.asarray(b), dtype=xp.bool, include_initial=True).get()
    assert got.tolist() == [True] + np.cumprod(b, dtype=bool).tolist()
    got = accel.cumsum(xp.asarray(b), dtype=bool).get()
    assert got.tolist() == np.cumsum(b, dtype=bool).tolist()
    e = np.array([300, 300, 7], np.int64)   # int64 -> int8 wraps per element, then sums
    np.testing.assert_array_equal(xp.cumulative_sum(xp.asarray(e), dtype=xp.int8).get(),
                                  np.cumsum(e, dtype=np.int8))


def test_sort_checks_kind_and_descending():
    # a fresh-clone tester's cases: kind='bogus' was accepted silently and
    # descending='yes' failed as int('yes')
    x = xp.asarray([3.0, 1.0, 2.0])
    with pytest.raises(ValueError, match="kind 'bogus'"):
        accel.sort(x, kind="bogus")
    with pytest.raises(TypeError, match="descending must be a bool"):
        accel.argsort(x, descending="yes")
    assert accel.sort(x, kind="mergesort", descending=np.True_).get().tolist() == [3.0, 2.0, 1.0]
    assert accel.argsort(x, kind="stable", descending=0).get().tolist() == [1, 2, 0]


def test_mask_assignment_broadcasts_values_or_raises_as_numpy():
    # x[mask] = values: values broadcast to (count,) + the other axes, as
    # NumPy's; a count that does not fit raises (3 values for 9 selected
    # elements were written into the first 3; 30 were cut to 9).
    a = np.arange(20, dtype=np.int32).reshape(4, 5)
    rows = np.array([True, False, True, False])
    for mask, v in ((a > 10, np.array([7], np.int32)), (a > 10, np.array(7, np.int32)),
                    (a > 10, np.arange(9, dtype=np.int32) + 100),
                    (rows, np.arange(5, dtype=np.int32)),
                    (rows, np.arange(10, dtype=np.int32).reshape(2, 5)),
                    (a > 100, np.zeros(0, np.int32))):
        x = accel.asarray(a)
        x[accel.asarray(mask)] = accel.asarray(v)
        want = a.copy()
        want[mask] = v
        np.testing.assert_array_equal(x.get(), want, err_msg=f"{v.shape}")
    for v in (np.arange(3, dtype=np.int32), np.arange(30, dtype=np.int32)):
        x = accel.asarray(a)
        with pytest.raises(ValueError, match="mask selects"):
            x[x > 10] = accel.asarray(v)
        np.testing.assert_array_equal(x.get(), a)


def test_int64_and_uint64_compare_exactly():
    # NumPy 2 compares int64 with uint64 exactly; in their promoted float64
    # 2**63 - 1 and 2**63 were equal (a helper's find).
    u = np.array([0, 1, 5, 2**63 - 1, 2**63, 2**63 + 1, 2**64 - 1, 7], np.uint64)
    i = np.array([-2**63, -1, 5, 2**63 - 1, 2**63 - 1, 2**63 - 1, -1, 8], np.int64)
    for name in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal"):
        for x, y in ((u, i), (i, u), (i[:, None], u[None, :])):
            got = getattr(accel, name)(accel.asarray(x), accel.asarray(y)).get()
            np.testing.assert_array_equal(got, getattr(np, name)(x, y), err_msg=name)
    assert bool((accel.asarray(u) == accel.asarray(i)).get()[4]) is False


def test_an_int_array_compared_with_an_int_out_of_its_range():
    # NumPy 2: int8_array == 200 is all False (and < all True), in either
    # order; an arithmetic op with that int still raises OverflowError.
    import operator as op
    for dt in (np.int8, np.uint8, np.int16, np.uint32, np.int64, np.uint64):
        info = np.iinfo(dt)
        h = np.array([info.min, 0, info.max], dt)
        a = accel.asarray(h)
        for v in (info.max + 1, info.min - 1, 10**30, -10**30):
            for f in (op.eq, op.ne, op.lt, op.le, op.gt, op.ge):
                np.testing.assert_array_equal(f(a, v).get(), f(h, v), err_msg=f"{dt} {v} {f}")
                np.testing.assert_array_equal(f(v, a).get(), f(v, h), err_msg=f"{dt} {v} {f}")
    with pytest.raises(OverflowError):
        accel.asarray(np.array([1], np.int8)) + 200
