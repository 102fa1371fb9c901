# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""accel.linalg: norm (vector and matrix orders, axis, keepdims),
vector_norm, matrix_norm and the composed products, against NumPy's
numpy.linalg on the same data; bad orders and axes raise."""
import math

import numpy as np
import pytest

import accel as cp
import accel.array_api as xp

SEED = 1205


def _data(shape, dtype=np.float64, seed=SEED):
    print(f"seed {seed}")
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _tol(dtype, n):
    # A sum of n terms: n ulps (Higham's bound, relative to the sum of |terms|).
    return 4 * n * np.finfo(dtype).eps


def _close(got, want, dtype, n):
    got = np.asarray(got.get() if isinstance(got, cp.Array) else got)
    np.testing.assert_allclose(got, want, rtol=_tol(dtype, n), atol=_tol(dtype, n))
    assert got.dtype == dtype


VECTOR_ORDS = [None, 1, 2, math.inf, -math.inf, 0, 3, 0.5, -1, -2.5]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("ord", VECTOR_ORDS)
def test_vector_norms_match_numpy(dtype, ord):
    h = _data(1000, dtype)
    h[::7] = 0  # zeros for ord 0 and the negative orders
    if ord is not None and ord < 0 and ord != -math.inf:
        h = h[h != 0]  # NumPy gives 0 with a zero: also checked below
    x = cp.asarray(h, dtype=dtype)
    _close(cp.linalg.norm(x, ord), np.linalg.norm(h, ord), dtype, h.size)


def test_negative_order_with_a_zero_is_zero():
    h = np.array([3.0, 0.0, 4.0])
    assert float(cp.linalg.norm(cp.asarray(h), -1)) == np.linalg.norm(h, -1) == 0.0


@pytest.mark.parametrize("ord", [None, "fro", 1, -1, math.inf, -math.inf])
def test_matrix_norms_match_numpy(ord):
    h = _data((7, 5))
    _close(cp.linalg.norm(cp.asarray(h), ord), np.linalg.norm(h, ord), np.float64, 35)


@pytest.mark.parametrize("axis", [0, 1, -1, (0, 1), (1, 0), (2, 0)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_axis_and_keepdims_match_numpy(axis, keepdims):
    h = _data((3, 4, 5))
    x = xp.asarray(h)
    ords = [None, 1, math.inf] if isinstance(axis, tuple) else [None, 2, 1, -math.inf, 0, 3]
    for ord in ords:
        want = np.linalg.norm(h, ord, axis, keepdims)
        got = cp.linalg.norm(x, ord, axis, keepdims)
        assert got.shape == want.shape, (ord, axis)
        _close(np.asarray(got), want, np.float64, 60)


def test_no_axis_and_no_ord_flattens_any_ndim():
    h = _data((2, 3, 4))
    assert abs(float(cp.linalg.norm(xp.asarray(h))) - np.linalg.norm(h)) < _tol(np.float64, 24)
    got = cp.linalg.norm(xp.asarray(h), keepdims=True)
    assert got.shape == (1, 1, 1)


def test_integer_arrays_are_float64_and_accel_arrays_stay_accel_arrays():
    got = cp.linalg.norm(xp.asarray(np.array([3, 4], dtype=np.int32)))
    assert got.dtype == np.float64 and float(got) == 5.0
    h = _data(100)
    r = cp.linalg.norm(cp.asarray(h))
    assert isinstance(r, cp.Array) and r.shape == ()
    assert abs(float(r) - np.linalg.norm(h)) < _tol(np.float64, 100)  # p13's check


def test_vector_norm_and_matrix_norm():
    h = _data((2, 3, 4))
    x = xp.asarray(h)
    for ord in (2, 1, math.inf, 0, 3):
        want = np.linalg.norm(h.reshape(-1), ord)
        _close(np.asarray(cp.linalg.vector_norm(x, ord=ord)), want, np.float64, 24)
    got = cp.linalg.vector_norm(x, axis=(0, 2), keepdims=True)
    want = np.sqrt((h * h).sum(axis=(0, 2), keepdims=True))
    _close(np.asarray(got), want, np.float64, 8)
    for ord in ("fro", 1, -1, math.inf, -math.inf):
        want = np.linalg.norm(h, ord, axis=(-2, -1))
        _close(np.asarray(cp.linalg.matrix_norm(x, ord=ord)), want, np.float64, 12)
    got = cp.linalg.matrix_norm(x, keepdims=True)
    assert got.shape == (2, 1, 1)
    for ord in (2, -2, "nuc"):  # from the singular values (svdvals)
        want = np.linalg.norm(h, ord, axis=(-2, -1))
        _close(np.asarray(cp.linalg.matrix_norm(x, ord=ord)), want, np.float64, 200)
        want = np.linalg.norm(h, ord, axis=(0, 2))
        _close(np.asarray(cp.linalg.norm(x, ord, axis=(0, 2))), want, np.float64, 200)


@pytest.mark.parametrize("call, exc", [
    (lambda x: cp.linalg.norm(x, "fro", axis=0), ValueError),
    (lambda x: cp.linalg.norm(x, 3), ValueError),  # 2-d: no matrix 3-norm
    (lambda x: cp.linalg.norm(x, "nuc", axis=(0, 1, 1)), ValueError),
    (lambda x: cp.linalg.norm(x, axis=2), ValueError),
    (lambda x: cp.linalg.norm(x, axis=(0, 0)), ValueError),
    (lambda x: cp.linalg.norm(x, axis=1.5), TypeError),
    (lambda x: cp.linalg.matrix_norm(x[0]), ValueError),
    (lambda x: cp.linalg.vector_norm(x, ord="fro"), ValueError),
    (lambda x: cp.linalg.norm(np.ones(3)), TypeError),
])
def test_bad_arguments_raise(call, exc):
    with pytest.raises(exc):
        call(xp.asarray(_data((3, 4))))


@pytest.mark.parametrize("axis", [1.5, 1.0, "0", object()])
def test_a_non_integer_axis_is_named(axis):
    # was TypeError("'float' object is not iterable") from tuple(axis)
    with pytest.raises(TypeError, match="accel.linalg.norm: axis"):
        cp.linalg.norm(xp.asarray(_data((3, 4))), axis=axis)


def test_ord_with_no_axis_on_3d_raises():
    with pytest.raises(ValueError, match="1-d or 2-d"):
        cp.linalg.norm(xp.asarray(_data((2, 2, 2))), 1)


def test_products_match_numpy():
    a, b = _data((4, 4)), _data((4, 4), seed=SEED + 1)
    v, w = _data(4, seed=SEED + 2), _data(6, seed=SEED + 3)
    A = xp.asarray(a)
    np.testing.assert_allclose(np.asarray(cp.linalg.matmul(A, xp.asarray(b))), a @ b,
                               rtol=1e-13, atol=1e-13)
    np.testing.assert_array_equal(np.asarray(cp.linalg.matrix_transpose(A)), a.T)
    np.testing.assert_allclose(np.asarray(cp.linalg.vecdot(A, xp.asarray(b))),
                               (a * b).sum(-1), rtol=1e-13, atol=1e-13)
    np.testing.assert_array_equal(cp.linalg.outer(cp.asarray(v), cp.asarray(w)).get(),
                                  np.outer(v, w))
    for k in (-5, -2, 0, 1, 3, 4):
        np.testing.assert_array_equal(np.asarray(cp.linalg.diagonal(A, offset=k)),
                                      np.diagonal(a, k))
        assert abs(float(cp.linalg.trace(A, offset=k)) - np.trace(a, k)) < 1e-13
    h3 = _data((2, 3, 3))
    np.testing.assert_allclose(np.asarray(cp.linalg.trace(xp.asarray(h3))),
                               np.trace(h3, axis1=-2, axis2=-1), rtol=1e-13)
    for n in (0, 1, 2, 5):
        np.testing.assert_allclose(np.asarray(cp.linalg.matrix_power(A, n)),
                                   np.linalg.matrix_power(a, n), rtol=1e-12, atol=1e-12)
    for n in (-1, -3):  # powers of inv(a)
        np.testing.assert_allclose(np.asarray(cp.linalg.matrix_power(A, n)),
                                   np.linalg.matrix_power(a, n), rtol=1e-9, atol=1e-9)
    with pytest.raises(ValueError):
        cp.linalg.outer(A, xp.asarray(v))


def test_tensordot_and_cross_match_numpy():
    a, b = _data((3, 4, 5)), _data((4, 5, 2), seed=SEED + 1)
    A, B = xp.asarray(a), xp.asarray(b)
    for axes in (2, 0, ([1, 2], [0, 1]), ([2], [1])):
        want = np.tensordot(a, b, axes)
        got = np.asarray(cp.linalg.tensordot(A, B, axes=axes))
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-13)
    with pytest.raises(ValueError):
        cp.linalg.tensordot(A, B, axes=([0], [0]))  # 3 and 4 do not pair
    with pytest.raises(ValueError):
        cp.linalg.tensordot(A, B, axes=4)
    c, d = _data((2, 3), seed=SEED + 2), _data((4, 1, 3), seed=SEED + 3)
    np.testing.assert_allclose(np.asarray(cp.linalg.cross(xp.asarray(c), xp.asarray(d))),
                               np.cross(c, d), rtol=1e-14, atol=1e-14)
    e, f = _data((3, 4), seed=SEED + 4), _data((3, 4), seed=SEED + 5)
    got = cp.linalg.cross(cp.asarray(e), cp.asarray(f), axis=0)
    assert isinstance(got, cp.Array)
    np.testing.assert_allclose(got.get(), np.cross(e, f, axis=0), rtol=1e-14, atol=1e-14)
    with pytest.raises(ValueError, match="size 3"):
        cp.linalg.cross(xp.asarray(e), xp.asarray(f))


def test_complex_norms_read_magnitudes():
    h = _data((3, 4)) + 1j * _data((3, 4), seed=SEED + 9)
    x = xp.asarray(h)
    for ord in (2, 1, math.inf, 3):
        _close(cp.linalg.vector_norm(x, ord=ord), np.linalg.norm(h.ravel(), ord), np.float64, 12)
    for ord in ("fro", 1, math.inf):
        _close(cp.linalg.matrix_norm(x, ord=ord), np.linalg.norm(h, ord), np.float64, 12)
    # the spectral orders take the singular values of x itself, not of |x|
    for ord in (2, -2, "nuc"):
        _close(cp.linalg.matrix_norm(x, ord=ord), np.linalg.norm(h, ord), np.float64, 12)
    # conj of a real array is a copy of it (the standard takes any numeric dtype)
    r = xp.asarray(np.array([1, 254], dtype=np.uint8))
    np.testing.assert_array_equal(xp.conj(r).get(), np.array([1, 254], dtype=np.uint8))


def test_tensordot_over_a_zero_length_axis_is_zeros():
    # contracting an axis of length 0 sums nothing: zeros of the free shape
    # (the reshape to (-1, 0) could not infer the -1 and raised)
    junk = cp.full((64,), 7.0)  # pool memory that held something else
    del junk
    got = cp.linalg.tensordot(cp.zeros((2, 0)), cp.zeros((0, 3)), axes=1)
    np.testing.assert_array_equal(got.get(), np.tensordot(np.zeros((2, 0)), np.zeros((0, 3)), 1))
    got = cp.linalg.tensordot(cp.ones((2, 0, 4)), cp.ones((0, 4, 3)), axes=([1, 2], [0, 1]))
    assert got.shape == (2, 3)
    np.testing.assert_array_equal(got.get(), np.zeros((2, 3)))


def test_max_type_norms_of_empty_inputs_are_zero():
    # NumPy 2: the max-type norms (vector inf, matrix 1, inf, 2) of an empty
    # input are 0 (the max of nothing non-negative); accel raised "an empty
    # reduction has no identity" from accel.max
    cases = [(np.zeros(0), lambda a: cp.linalg.norm(a, ord=cp.inf),
              lambda a: np.linalg.norm(a, ord=np.inf))]
    for ord in (1, np.inf, 2):
        cases.append((np.zeros((0, 3)), lambda a, o=ord: cp.linalg.matrix_norm(a, ord=o),
                      lambda a, o=ord: np.linalg.matrix_norm(a, ord=o)))
    cases.append((np.zeros((2, 0)), lambda a: cp.linalg.vector_norm(a, ord=cp.inf, axis=1,
                                                                    keepdims=True),
                  lambda a: np.linalg.vector_norm(a, ord=np.inf, axis=1, keepdims=True)))
    for h, ours, theirs in cases:
        got, want = ours(cp.asarray(h)).get(), theirs(h)
        assert got.shape == np.shape(want)
        np.testing.assert_array_equal(got, want)


def test_bad_fft_and_vecdot_arguments_are_named():
    # each raised a Python internal (IndexError, "unhashable type",
    # "repeated axis") instead of naming the argument
    x = cp.ones((2, 3))
    with pytest.raises(ValueError, match="axis 5 is not an axis of x1"):
        cp.linalg.vecdot(x, x, axis=5)
    with pytest.raises(ValueError, match="not an axis"):
        cp.vecdot(cp.asarray(1.0), cp.asarray(2.0))
    c = cp.ones((2, 3), dtype=cp.complex64)
    with pytest.raises(ValueError, match="norm \\[\\] is not"):
        cp.fft.fft(c, norm=[])
    with pytest.raises(ValueError, match="names 3 axes; x has 2"):
        cp.fft.fftn(c, s=(2, 3, 4))


def test_float16_norms_are_float16_as_numpy():
    # computed in float32 and given back as float16 (they failed inside the
    # C layer: "f16 is not supported by this op (mul)")
    h = (np.arange(12).reshape(3, 4) / 7).astype(np.float16)
    x = cp.asarray(h)
    for ours, theirs in ((lambda a: cp.linalg.norm(a), lambda a: np.linalg.norm(a)),
                         (lambda a: cp.linalg.vector_norm(a, ord=1),
                          lambda a: np.linalg.vector_norm(a, ord=1)),
                         (lambda a: cp.linalg.matrix_norm(a), lambda a: np.linalg.matrix_norm(a)),
                         (lambda a: cp.linalg.norm(a, axis=1, ord=np.inf),
                          lambda a: np.linalg.norm(a, axis=1, ord=np.inf))):
        got, want = ours(x), theirs(h)
        assert got.dtype == want.dtype == np.float16
        np.testing.assert_allclose(got.get().astype(np.float64), want.astype(np.float64),
                                   rtol=2e-3)


def test_hfft_and_ihfft_errors_name_themselves():
    # they named irfft and rfft, the functions they call
    with pytest.raises(ValueError, match="accel.fft.hfft: invalid number of data points"):
        cp.fft.hfft(cp.ones((4,), dtype=cp.complex128), n=-1)
    with pytest.raises(ValueError, match="accel.fft.ihfft: invalid number of data points"):
        cp.fft.ihfft(cp.ones((4,)), n=0)


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.complex128])
def test_det_and_slogdet_of_non_finite_matrices_are_numpys(dt):
    # A NaN pivot leaves det NaN (it read as an exact zero: det 0, slogdet
    # (0, -inf)); an infinite one gives +-inf (it gave NaN from inf/inf).
    cases = [[[1.0, np.nan], [3.0, 2.0]], [[np.nan, 1.0], [3.0, 2.0]],
             [[1.0, np.inf], [3.0, 2.0]], [[-np.inf, 0.0], [0.0, 2.0]], [[0.0, 0.0], [0.0, 1.0]]]
    for m in cases:
        a = np.array(m, dtype=dt)
        with np.errstate(all="ignore"):
            want_det = np.linalg.det(a)
            want_sign, want_log = np.linalg.slogdet(a)
        got_det = cp.linalg.det(cp.asarray(a)).get()
        sign, log = cp.linalg.slogdet(cp.asarray(a))
        np.testing.assert_array_equal(np.isnan(got_det), np.isnan(want_det), err_msg=str(m))
        if not np.isnan(want_det):
            assert got_det == want_det, (m, got_det, want_det)
        np.testing.assert_array_equal(log.get(), want_log, err_msg=str(m))
        if np.iscomplexobj(a) or not np.isnan(want_log):
            np.testing.assert_array_equal(np.isnan(sign.get()), np.isnan(want_sign))
        if not np.isnan(want_log) and not np.iscomplexobj(a):
            assert sign.get() == want_sign, (m, sign.get(), want_sign)


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.complex128])
def test_solve_and_inv_of_a_nan_matrix_are_all_nan(dt):
    # cuSOLVER's getrf drops a NaN (the LU of [[1, nan], [3, 2]] had none
    # on the H100: solve came back finite, a silent wrong answer), and
    # LAPACK's leaves some x finite; every x_i of A^-1 b depends on every
    # value of A, so each backend makes all of x NaN. NumPy's NaNs are a
    # subset of ours and its finite values are where ours are NaN.
    cases = [[[1.0, np.nan], [3.0, 2.0]], [[np.nan, 1.0], [3.0, 2.0]],
             [[1.0, 2.0], [np.nan, 4.0]], [[1.0, 2.0], [3.0, np.nan]]]
    for m in cases:
        a = np.array(m, dtype=dt)
        b = np.array([1.0, 2.0], dtype=dt)
        with np.errstate(all="ignore"):
            want_x, want_inv = np.linalg.solve(a, b), np.linalg.inv(a)
        assert np.isnan(want_x).any() and np.isnan(want_inv).any(), m
        x = cp.linalg.solve(cp.asarray(a), cp.asarray(b)).get()
        inv = cp.linalg.inv(cp.asarray(a)).get()
        assert x.dtype == want_x.dtype and inv.dtype == want_inv.dtype
        assert np.isnan(x).all() and np.isnan(inv).all(), (m, x, inv)
    # a matrix singular apart from its NaN raises as NumPy's does
    a = np.array([[0.0, np.nan], [0.0, 1.0]], dtype=dt)
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.solve(a, np.ones(2, dtype=dt))
    with pytest.raises(cp.linalg.LinAlgError):
        cp.linalg.solve(cp.asarray(a), cp.ones(2, dtype=dt))
    # a NaN in b alone is LAPACK's to carry (no rule of ours)
    a = np.array([[2.0, 0.0], [0.0, 4.0]], dtype=dt)
    b = np.array([np.nan, 8.0], dtype=dt)
    np.testing.assert_array_equal(cp.linalg.solve(cp.asarray(a), cp.asarray(b)).get(),
                                  np.linalg.solve(a, b))


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.complex128])
def test_cholesky_of_a_nan_in_the_read_triangle_raises(dt):
    # A NaN is no positive value. LAPACK's potrf carried on past one and
    # left some of L finite ([[nan, 1], [1, 3]] gave L[1, 1] = sqrt(3)),
    # cuSOLVER's raised; both backends now refuse it. A NaN in the triangle
    # that is not read (the upper) changes nothing, as in NumPy.
    for m in ([[np.nan, 1.0], [1.0, 3.0]], [[4.0, 1.0], [1.0, np.nan]],
              [[4.0, 1.0], [np.nan, 3.0]]):
        with pytest.raises(cp.linalg.LinAlgError, match="NaN"):
            cp.linalg.cholesky(cp.asarray(np.array(m, dtype=dt)))
    a = np.array([[4.0, np.nan], [1.0, 3.0]], dtype=dt)
    np.testing.assert_allclose(cp.linalg.cholesky(cp.asarray(a)).get(), np.linalg.cholesky(a),
                               rtol=1e-6)


def test_matrix_power_keeps_inf_and_nan_where_numpy_does():
    # The powers start from x itself, as NumPy's: I @ x put 0 * inf and
    # 0 * nan (NaN) into finite entries (a helper's find).
    for h in (np.array([[1.0, np.inf], [2.0, 3.0]]), np.array([[1.0, np.nan], [2.0, 3.0]]),
              np.random.default_rng(3).random((3, 4, 4))):
        for n in (0, 1, 2, 3, 5):
            with np.errstate(all="ignore"):
                want = np.linalg.matrix_power(h, n)
                got = cp.linalg.matrix_power(cp.asarray(h), n).get()
            np.testing.assert_allclose(got, want, rtol=1e-12, equal_nan=True,
                                       err_msg=f"n={n}")
    x = cp.asarray(np.eye(3))
    assert cp.linalg.matrix_power(x, 1) is not x
