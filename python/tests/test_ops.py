# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Every op against NumPy, with accel's stated tolerances:
- correctly rounded ops (add, subtract, multiply, divide, sqrt, negative,
  abs, relu, maximum, minimum): bit-identical to NumPy;
- exp, log, tanh: within 4 ulp of the correctly rounded value (computed in
  float64 for float32 inputs; NumPy float64 for float64 inputs, itself
  within 1 ulp, hence 5 there);
- sum, dot: |got - exact| <= 2*n*eps*sum|x| (Higham 2002, 4.2);
- matmul: |got - exact|_ij <= 2*(k+2)*eps*(|A||B|)_ij (Higham 2002, 3.5);
- max, min: exact."""
import math

import numpy as np
import pytest

import accel
from conftest import DTYPES, eps_of, ulp_distance

BINARY = [("add", np.add, lambda a, b: a + b), ("subtract", np.subtract, lambda a, b: a - b),
          ("multiply", np.multiply, lambda a, b: a * b),
          ("divide", np.divide, lambda a, b: a / b),
          ("maximum", np.maximum, None), ("minimum", np.minimum, None)]


def data(rng, n, dtype, positive=False):
    x = rng.standard_normal(n) * 3
    if positive:
        x = np.abs(x) + 1e-3
    return x.astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name,ref,operator", BINARY)
@pytest.mark.parametrize("n", [1, 5, 1000, 4099])
def test_binary_matches_numpy_exactly(rng, dtype, name, ref, operator, n):
    a, b = data(rng, n, dtype), data(rng, n, dtype)
    b[b == 0] = 1
    A, B = accel.asarray(a), accel.asarray(b)
    want = ref(a, b)
    got = getattr(accel, name)(A, B)
    assert got.dtype == dtype and got.shape == (n,)
    assert np.array_equal(got.get(), want)
    if operator is not None:
        assert np.array_equal(operator(A, B).get(), want)


@pytest.mark.parametrize("dtype", DTYPES)
def test_binary_special_values(dtype):
    a = np.array([np.nan, 1.0, np.inf, -np.inf, 0.0, 2.0], dtype)
    b = np.array([1.0, np.nan, 1.0, np.inf, 0.0, -0.0], dtype)
    A, B = accel.asarray(a), accel.asarray(b)
    with np.errstate(all="ignore"):
        for name in ("add", "subtract", "multiply", "divide", "maximum", "minimum"):
            got = getattr(accel, name)(A, B).get()
            want = getattr(np, name)(a, b)
            assert np.array_equal(got, want, equal_nan=True), name


@pytest.mark.parametrize("dtype", DTYPES)
def test_scalar_operands_and_in_place(rng, dtype):
    a = data(rng, 50, dtype)
    A = accel.asarray(a)
    assert np.array_equal((A + 2).get(), a + dtype(2))
    assert np.array_equal((2 - A).get(), dtype(2) - a)
    assert np.array_equal((A * 0.5).get(), a * dtype(0.5))
    assert np.array_equal((1 / A).get(), dtype(1) / a)
    assert np.array_equal((A / 3).get(), a / dtype(3))
    B = accel.asarray(a)
    B += A
    assert np.array_equal(B.get(), a + a)
    B *= 2
    assert np.array_equal(B.get(), (a + a) * dtype(2))
    out = accel.empty(50, dtype)
    assert accel.add(A, A, out=out) is out
    assert np.array_equal(out.get(), a + a)


@pytest.mark.parametrize("dtype", DTYPES)
def test_exact_unary_ops(rng, dtype):
    a = data(rng, 777, dtype)
    A = accel.asarray(a)
    assert np.array_equal((-A).get(), -a)
    assert np.array_equal(accel.negative(A).get(), -a)
    assert np.array_equal(abs(A).get(), np.abs(a))
    assert np.array_equal(accel.absolute(A).get(), np.abs(a))
    assert np.array_equal(accel.relu(A).get(), np.where(a > 0, a, dtype(0)))
    assert np.array_equal(accel.square(A).get(), a * a)
    p = np.abs(a)
    assert np.array_equal(accel.sqrt(accel.asarray(p)).get(), np.sqrt(p))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["exp", "log", "tanh", "sin", "cos", "sigmoid"])
def test_transcendental_within_ulp_bound(rng, dtype, name):
    a = data(rng, 3001, dtype, positive=(name == "log"))
    if name == "exp":
        a = np.clip(a, -80, 80).astype(dtype)
    got = getattr(accel, name)(accel.asarray(a)).get()
    ref = (lambda v: 1 / (1 + np.exp(-v))) if name == "sigmoid" else getattr(np, name)
    if dtype == np.float32:
        want = ref(a.astype(np.float64)).astype(np.float32)
        bound = 4
    else:
        # NumPy's float64 (within 1 ulp) or long double for sigmoid
        want = ref(a.astype(np.longdouble)).astype(np.float64) if name == "sigmoid" else ref(a)
        bound = 5
    d = ulp_distance(got, want)
    assert d.max() <= bound, f"{name}: {d.max()} ulp at x = {a[d.argmax()]!r}"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 17, 100003])
def test_sum_within_bound(rng, dtype, n):
    a = data(rng, n, dtype)
    got = float(accel.sum(accel.asarray(a)))
    exact = math.fsum(a.astype(np.float64))
    bound = 2 * n * eps_of(dtype) * float(np.abs(a.astype(np.float64)).sum())
    assert abs(got - exact) <= bound
    if n == 0:
        assert got == 0.0


@pytest.mark.parametrize("dtype", DTYPES)
def test_sum_over_axes_and_mean(rng, dtype):
    a = data(rng, 6 * 40, dtype).reshape(6, 40)
    A = accel.asarray(a)
    absa = np.abs(a.astype(np.float64))
    for axis, k in ((0, 6), (1, 40), (-1, 40)):
        got = A.sum(axis=axis).get()
        exact = a.astype(np.float64).sum(axis=axis)
        bound = 2 * (k + 2) * eps_of(dtype) * absa.sum(axis=axis)
        assert got.shape == exact.shape
        assert np.all(np.abs(got - exact) <= bound)
    assert A.sum(axis=1, keepdims=True).shape == (6, 1)
    m = float(A.mean())
    assert abs(m - a.astype(np.float64).mean()) <= 4 * a.size * eps_of(dtype) * absa.mean()
    h3 = data(rng, 24, dtype).reshape(2, 3, 4)   # a middle axis, a tuple of axes
    for axis in (1, (0, 2)):
        got = accel.asarray(h3).sum(axis=axis).get()
        exact = h3.astype(np.float64).sum(axis=axis)
        assert np.all(np.abs(got - exact) <= 2 * 8 * eps_of(dtype) *
                      np.abs(h3.astype(np.float64)).sum(axis=axis))


@pytest.mark.parametrize("dtype", DTYPES)
def test_max_min_exact(rng, dtype):
    a = data(rng, 1001, dtype)
    A = accel.asarray(a)
    assert float(accel.max(A)) == a.max() and float(A.max()) == a.max()
    assert float(accel.min(A)) == a.min() and float(accel.amin(A)) == a.min()
    n = a.copy()
    n[500] = np.nan
    assert math.isnan(float(accel.max(accel.asarray(n))))
    with pytest.raises(accel.InvalidArgumentError) as e:
        accel.max(accel.empty(0, dtype))
    assert e.value.status == "ACCEL_ERROR_INVALID_ARGUMENT"
    m = a[:1000].reshape(40, 25)
    assert np.array_equal(accel.asarray(m).max(axis=0).get(), m.max(axis=0))
    assert np.array_equal(accel.min(accel.asarray(m), axis=1).get(), m.min(axis=1))


@pytest.mark.parametrize("dtype", DTYPES)
def test_dot_within_bound(rng, dtype):
    n = 5000
    x, y = data(rng, n, dtype), data(rng, n, dtype)
    got = float(accel.dot(accel.asarray(x), accel.asarray(y)))
    p = x.astype(np.float64) * y.astype(np.float64)
    assert abs(got - math.fsum(p)) <= 2 * n * eps_of(dtype) * np.abs(p).sum()
    got2 = float(accel.asarray(x) @ accel.asarray(y))
    assert got2 == got


def gemm_check(got, a, b, dtype):
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    exact = a64 @ b64
    k = a.shape[-1]
    bound = 2 * (k + 2) * eps_of(dtype) * (np.abs(a64) @ np.abs(b64))
    assert got.shape == exact.shape
    assert np.all(np.abs(got - exact) <= bound)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("m,k,n", [(1, 1, 1), (5, 7, 3), (64, 33, 17), (128, 128, 128)])
def test_matmul_within_bound(rng, dtype, m, k, n):
    a = data(rng, m * k, dtype).reshape(m, k)
    b = data(rng, k * n, dtype).reshape(k, n)
    A, B = accel.asarray(a), accel.asarray(b)
    gemm_check((A @ B).get(), a, b, dtype)
    gemm_check(accel.matmul(A, B).get(), a, b, dtype)
    gemm_check(accel.dot(A, B).get(), a, b, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_matmul_vectors_batches_and_views(rng, dtype):
    a = data(rng, 4 * 6, dtype).reshape(4, 6)
    v = data(rng, 6, dtype)
    w = data(rng, 4, dtype)
    A = accel.asarray(a)
    gemm_check((A @ accel.asarray(v)).get()[:, None], a, v[:, None], dtype)
    gemm_check((accel.asarray(w) @ A).get()[None, :], w[None, :], a, dtype)
    x = data(rng, 3 * 4 * 5, dtype).reshape(3, 4, 5)
    y = data(rng, 3 * 5 * 2, dtype).reshape(3, 5, 2)
    got = (accel.asarray(x) @ accel.asarray(y)).get()
    for i in range(3):
        gemm_check(got[i], x[i], y[i], dtype)
    # a view at an offset (rows 1..3 of a bigger matrix)
    big = data(rng, 5 * 6, dtype).reshape(5, 6)
    gemm_check((accel.asarray(big)[1:4] @ accel.asarray(a.T.copy())).get(), big[1:4],
               a.T.copy(), dtype)


@pytest.mark.parametrize("dtype", DTYPES + [np.float16])
def test_transpose_and_copy_exact(rng, dtype):
    a = data(rng, 35, dtype).reshape(5, 7)
    A = accel.asarray(a)
    assert np.array_equal(A.T.get(), a.T)
    assert np.array_equal(accel.transpose(A).get(), a.T)
    c = A.copy()
    assert np.array_equal(c.get(), a)
    assert c._block is not A._block


def test_axpby_and_fill(rng):
    x, y = rng.random(100), rng.random(100)
    X, Y = accel.asarray(x), accel.asarray(y)
    accel.axpby(2.0, X, 3.0, Y)
    want = 2.0 * x + 3.0 * y
    assert np.all(ulp_distance(Y.get(), want) <= 2)
    accel.fill(Y, -1.5)
    assert np.array_equal(Y.get(), np.full(100, -1.5))


def test_float16_elementwise_of_one_array_computes_of_two_refuses():
    # One-argument functions compute float16 in float32 and round on store,
    # contiguous and strided alike (the contiguous case had been refused by
    # the per-op path's accel_unary); two arrays are refused by the
    # namespace's promotion.
    h = np.array([0.5, 1.5, -2.25, 3.0, -0.0, 7.0, 0.125, 2.0], np.float16)
    x = accel.asarray(h)
    for v, w in ((x, h), (x[::2], h[::2])):
        for name in ("negative", "abs", "exp", "sqrt", "floor"):
            with np.errstate(invalid="ignore"):
                want = getattr(np, "absolute" if name == "abs" else name)(w)
            got = getattr(accel, name)(v).get()
            assert got.dtype == np.float16
            np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64),
                                       rtol=1e-3, equal_nan=True, err_msg=name)
    with pytest.raises(accel.DtypeMismatchError) as e:
        accel.add(x, x)
    assert e.value.status == "ACCEL_ERROR_DTYPE_MISMATCH"
    assert "float16" in e.value.message


def test_float16_matmul(rng):
    a = rng.random((8, 8)).astype(np.float16)
    got = (accel.asarray(a) @ accel.asarray(a)).get()
    gemm_check(got.astype(np.float64), a.astype(np.float64), a.astype(np.float64), np.float16)


@pytest.mark.parametrize("step", [
    lambda v: v.__setitem__(slice(1, None), v[1:] + 0),           # plain copy, no overlap
    lambda v: v[1:].__iadd__(v[:-1]),                               # x[1:] += x[:-1]
    lambda v: v[:-1].__iadd__(v[1:]),
    lambda v: v[1:].__isub__(v[:-1]),
    lambda v: v[:5].__imul__(v[5:]),                                # same buffer, apart
    lambda v: v[2:].__itruediv__(v[:-2] + 1),
])
def test_in_place_ops_on_overlapping_views_match_numpy(step):
    h = np.arange(1.0, 11.0)
    x = accel.asarray(h)
    step(h)
    step(x)
    np.testing.assert_array_equal(x.get(), h)


def test_out_partly_over_the_input_matches_numpy():
    h = np.arange(1.0, 11.0)
    x = accel.asarray(h)
    np.negative(h[:-1], out=h[1:])
    accel.negative(x[:-1], out=x[1:])
    np.testing.assert_array_equal(x.get(), h)
    np.add(h[:-2], h[2:], out=h[1:-1])
    accel.add(x[:-2], x[2:], out=x[1:-1])
    np.testing.assert_array_equal(x.get(), h)


def test_table_only_unary_ops_on_strided_views_run_their_own_function():
    # relu and expit exist only in the op table: a strided view is copied
    # contiguous first, through each op's own path (every op's strided case
    # once ran the last such op's: relu(x[::2]) gave expit's values).
    h = np.array([-1.5, 0.25, 2.0, -3.0, 0.0, 4.5, -0.5, 1.0], dtype=np.float32)
    x = accel.asarray(h)[::2]
    v = h[::2]
    assert np.array_equal(accel.relu(x).get(), np.where(v > 0, v, np.float32(0)))
    want = (1.0 / (1.0 + np.exp(-v.astype(np.float64)))).astype(np.float32)
    for f in (accel.expit, accel.sigmoid):
        got = f(x).get()
        assert np.max(np.abs(got.astype(np.float64) - want)) <= 4 * np.spacing(want).max()
    i = accel.asarray(np.arange(4, dtype=np.int32))
    for name in ("relu", "expit"):
        with pytest.raises(accel.DtypeMismatchError, match=f"accel.{name}:"):
            getattr(accel, name)(i)


def test_relu_and_expit_write_a_strided_out():
    # relu and expit (op-table names only) with a strided or reversed out=
    # write there (the result went into a new array and out stayed as it was).
    h = np.array([-2.0, -1.0, 0.0, 1.0, 2.0, 3.0])
    for name, ref in (("relu", lambda v: np.maximum(v, 0.0)),
                      ("expit", lambda v: 1.0 / (1.0 + np.exp(-v)))):
        for sl in (slice(None, None, 2), slice(None, None, -2)):
            o = accel.zeros(12)
            r = getattr(accel, name)(accel.asarray(h), out=o[sl])
            want = np.zeros(12)
            want[sl] = ref(h)
            np.testing.assert_allclose(o.get(), want, rtol=1e-15, err_msg=f"{name} {sl}")
            np.testing.assert_allclose(r.get(), ref(h), rtol=1e-15)


def test_relu_and_expit_with_out_partly_over_the_input():
    # out= partly over x, in one array or through a second one over the same
    # memory (from_dlpack): NumPy's answer through a temporary (the slow
    # path called itself again: RecursionError).
    h = np.linspace(-2, 2, 8)
    for name, ref in (("relu", lambda v: np.maximum(v, 0.0)),
                      ("expit", lambda v: 1.0 / (1.0 + np.exp(-v)))):
        for alias in (False, True):
            x = accel.asarray(h)
            y = accel.from_dlpack(x) if alias else x
            getattr(accel, name)(x[:-1], out=y[1:])
            want = h.copy()
            want[1:] = ref(h[:-1])
            np.testing.assert_allclose(x.get(), want, rtol=1e-15, err_msg=f"{name} {alias}")
