# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""accel.linalg's factorizations and solvers (the Array API linalg
extension over accel_array_linalg_*: LAPACK on the CPU) against
numpy.linalg on the same data: values, dtypes, shapes, batches, strided
inputs, and the errors (singular -> LinAlgError, bad shapes -> ValueError,
float16 -> TypeError). Complex dtypes: test_linalg_complex.py.

Tolerances: the inputs are well conditioned (n I added), so the results
agree with NumPy's LAPACK to a small multiple of n * eps * cond; the
factors whose signs LAPACK leaves free (eigenvectors, singular vectors, Q)
are checked through what defines them (A V = V diag(w), U diag(S) Vh = A,
Q R = A, orthonormal columns)."""
import numpy as np
import pytest

import accel as cp

SEED = 1227
RTOL = {np.float32: 2e-4, np.float64: 1e-11}


def _data(shape, dtype=np.float64, seed=SEED):
    print(f"seed {seed}")
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _square(shape, dtype=np.float64, seed=SEED):
    """Well-conditioned square matrices: random plus n on the diagonal."""
    n = shape[-1]
    return (_data(shape, np.float64, seed) + n * np.eye(n)).astype(dtype)


def _spd(shape, dtype=np.float64, seed=SEED):
    a = _data(shape, np.float64, seed)
    return (a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])).astype(dtype)


def _np(x):
    return x.get() if isinstance(x, cp.Array) else np.asarray(x)


def _close(got, want, dtype, scale=1.0):
    g = _np(got)
    assert g.dtype == dtype and g.shape == np.shape(want)
    tol = RTOL[dtype] * scale
    np.testing.assert_allclose(g, want, rtol=tol, atol=tol * max(1.0, np.abs(want).max(
        initial=0.0)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cholesky_inv_det_slogdet_match_numpy(dtype):
    h = _spd((2, 3, 5, 5), dtype)
    x = cp.asarray(h)
    low = cp.linalg.cholesky(x)
    _close(low, np.linalg.cholesky(h), dtype)
    _close(cp.linalg.cholesky(x, upper=True), np.swapaxes(np.linalg.cholesky(h), -1, -2), dtype)
    g = _square((2, 3, 5, 5), dtype, SEED + 1)
    y = cp.asarray(g)
    _close(cp.linalg.inv(y), np.linalg.inv(g), dtype, 10)
    _close(cp.linalg.det(y), np.linalg.det(g), dtype, 10)
    sign, logabs = cp.linalg.slogdet(y)
    ws, wl = np.linalg.slogdet(g)
    np.testing.assert_array_equal(_np(sign), ws)
    _close(logabs, wl, dtype, 10)
    r = cp.linalg.slogdet(y)
    assert type(r).__name__ == "SlogdetResult" and r.sign is not None and r.logabsdet is not None


def test_strided_and_transposed_inputs():
    g = _square((6, 6))
    x = cp.asarray(g)
    _close(cp.linalg.inv(x.mT), np.linalg.inv(g.T), np.float64, 10)
    _close(cp.linalg.det(x[::2, ::2]), np.linalg.det(g[::2, ::2]), np.float64, 10)
    # a broadcast batch: one matrix seen three times (stride 0)
    b = cp.broadcast_to(x, (3, 6, 6))
    _close(cp.linalg.inv(b), np.linalg.inv(np.broadcast_to(g, (3, 6, 6))), np.float64, 10)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_solve_vectors_matrices_and_broadcast_batches(dtype):
    a = _square((4, 5, 5), dtype)
    A = cp.asarray(a)
    v = _data((5,), dtype, SEED + 2)
    got = cp.linalg.solve(A, cp.asarray(v))
    assert got.shape == (4, 5)
    _close(got, np.linalg.solve(a, v), dtype, 10)
    m = _data((2, 1, 5, 3), dtype, SEED + 3)  # batch (2, 1) broadcasts with (4,)
    got = cp.linalg.solve(A, cp.asarray(m))
    assert got.shape == (2, 4, 5, 3)
    _close(got, np.linalg.solve(a, m), dtype, 10)
    # integer operands promote to float64, as NumPy
    ia = np.array([[3, 1], [1, 2]])
    got = cp.linalg.solve(cp.asarray(ia), cp.asarray(np.array([9, 8])))
    _close(got, np.linalg.solve(ia, [9, 8]), np.float64)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_eigh_and_eigvalsh(dtype):
    h = _data((3, 6, 6), dtype)
    h = (h + np.swapaxes(h, -1, -2)) / 2
    x = cp.asarray(h)
    w, v = cp.linalg.eigh(x)
    _close(w, np.linalg.eigvalsh(h), dtype, 10)
    _close(cp.linalg.eigvalsh(x), np.linalg.eigvalsh(h), dtype, 10)
    V, W = _np(v), _np(w)
    _close(V @ (W[..., None] * np.swapaxes(V, -1, -2)), h, dtype, 20)  # A = V diag(w) V^T
    _close(np.swapaxes(V, -1, -2) @ V, np.broadcast_to(np.eye(6, dtype=dtype), (3, 6, 6)),
           dtype, 20)
    r = cp.linalg.eigh(x)
    assert r.eigenvalues.shape == (3, 6) and r.eigenvectors.shape == (3, 6, 6)


@pytest.mark.parametrize("shape", [(7, 4), (4, 7), (2, 5, 5)])
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr_reconstructs(shape, mode):
    h = _data(shape)
    q, r = cp.linalg.qr(cp.asarray(h), mode=mode)
    wq, wr = np.linalg.qr(h, mode=mode)
    assert q.shape == wq.shape and r.shape == wr.shape
    Q, R = _np(q), _np(r)
    _close(Q @ R, h, np.float64, 10)
    np.testing.assert_array_equal(np.triu(R), R)
    k = Q.shape[-1]
    _close(np.swapaxes(Q, -1, -2) @ Q, np.broadcast_to(np.eye(k), Q.shape[:-2] + (k, k)),
           np.float64, 10)
    _close(np.abs(R), np.abs(wr), np.float64, 10)  # unique up to the signs of R's rows
    _close(np.abs(_np(cp.linalg.qr(cp.asarray(h), mode="r"))), np.abs(np.linalg.qr(h, mode="r")),
           np.float64, 10)


@pytest.mark.parametrize("shape", [(7, 4), (4, 7), (3, 5, 5)])
@pytest.mark.parametrize("full", [True, False])
def test_svd_svdvals_rank_pinv(shape, full):
    h = _data(shape, seed=SEED + 4)
    x = cp.asarray(h)
    u, s, vh = cp.linalg.svd(x, full_matrices=full)
    wu, ws, wvh = np.linalg.svd(h, full_matrices=full)
    assert (u.shape, s.shape, vh.shape) == (wu.shape, ws.shape, wvh.shape)
    _close(s, ws, np.float64, 10)
    k = ws.shape[-1]
    U, S, Vh = _np(u), _np(s), _np(vh)
    _close(U[..., :k] @ (S[..., None] * Vh[..., :k, :]), h, np.float64, 10)
    _close(cp.linalg.svdvals(x), ws, np.float64, 10)
    _close(cp.linalg.svd(x, compute_uv=False), ws, np.float64, 10)
    _close(cp.linalg.pinv(x), np.linalg.pinv(h), np.float64, 100)
    # a rank-2 product: matrix_rank counts the values above max(m, n) eps s_max
    low = _data(shape[:-1] + (2,), seed=SEED + 5) @ _data(shape[:-2] + (2, shape[-1]),
                                                          seed=SEED + 6)
    got = cp.linalg.matrix_rank(cp.asarray(low))
    assert got.dtype == np.int64
    np.testing.assert_array_equal(_np(got), np.linalg.matrix_rank(low))
    np.testing.assert_array_equal(_np(cp.linalg.matrix_rank(x)), np.linalg.matrix_rank(h))


def test_empty_batches_and_matrices():
    e = cp.asarray(np.zeros((0, 3, 3)))
    assert cp.linalg.inv(e).shape == (0, 3, 3)
    assert cp.linalg.det(e).shape == (0,)
    z = cp.asarray(np.zeros((2, 0, 0)))
    np.testing.assert_array_equal(_np(cp.linalg.det(z)), [1.0, 1.0])


def test_singular_and_indefinite_raise_linalg_error():
    sing = cp.asarray(np.array([[[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [2.0, 4.0]]]))
    for call in (lambda: cp.linalg.inv(sing),
                 lambda: cp.linalg.solve(sing, cp.asarray([1.0, 1.0])),
                 lambda: cp.linalg.cholesky(cp.asarray([[1.0, 2.0], [2.0, 1.0]]))):
        with pytest.raises(np.linalg.LinAlgError) as ei:
            call()
        assert isinstance(ei.value, cp.LinAlgError) and isinstance(ei.value, cp.AccelError)
        assert ei.value.status == "ACCEL_ERROR_LINALG" and ei.value.code == 22
    with pytest.raises(cp.LinAlgError, match="1"):  # names the singular matrix of the batch
        cp.linalg.inv(sing)
    # a singular matrix is no error for det and slogdet
    np.testing.assert_array_equal(_np(cp.linalg.det(sing))[1], 0.0)
    sign, logabs = cp.linalg.slogdet(sing)
    assert _np(sign)[1] == 0 and _np(logabs)[1] == -np.inf


@pytest.mark.parametrize("call, exc", [
    (lambda: cp.linalg.inv(cp.asarray(np.ones((2, 3)))), ValueError),
    (lambda: cp.linalg.det(cp.asarray(np.ones(3))), ValueError),
    (lambda: cp.linalg.cholesky(cp.asarray(np.ones((3, 2)))), ValueError),
    (lambda: cp.linalg.solve(cp.asarray(np.eye(3)), cp.asarray(np.ones(4))), ValueError),
    (lambda: cp.linalg.solve(cp.asarray(np.eye(3)[None].repeat(2, 0)),
                             cp.asarray(np.ones((3, 3, 1)))), ValueError),
    (lambda: cp.linalg.qr(cp.asarray(np.eye(3)), mode="raw"), ValueError),
    (lambda: cp.linalg.svd(cp.asarray(np.eye(2, dtype=np.float16))), TypeError),
    (lambda: cp.linalg.eigh(np.eye(2)), TypeError),
])
def test_bad_input_raises(call, exc):
    with pytest.raises(exc):
        call()


def test_namespace_attribute_and_integer_input():
    x = cp.asarray(np.array([[2, 1], [1, 3]], dtype=np.int32))
    ns = x.__array_namespace__()
    assert ns.linalg is cp.linalg and ns.fft is cp.fft
    got = ns.linalg.inv(x)
    assert got.dtype == np.float64
    _close(got, np.linalg.inv(np.array([[2, 1], [1, 3]])), np.float64)


def test_status_table_matches_the_c_library():
    """_lib.STATUS names every status libaccel has (ACCEL_ERROR_LINALG, 22,
    included), with libaccel's numbers."""
    from accel import _lib as L
    names = {}
    for code in range(1, 64):
        name = L.status_name(code).decode()
        if name != "ACCEL_UNKNOWN_STATUS":
            names[name] = code
    assert names == L.STATUS
    assert type(L.failed(22)) is cp.LinAlgError


@pytest.mark.parametrize("fn", ["eigh", "eigvalsh", "svd", "svdvals"])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_iterative_methods_refuse_non_finite_input(fn, bad, capfd):
    """NaN or infinity in x: LinAlgError naming the matrix of the batch, as
    NumPy's svd, and nothing from LAPACK on stderr (its scaling step would
    print an "illegal value" line and leave NaN)."""
    a = _spd((3, 4, 4))
    a[1, 2, 1] = a[1, 1, 2] = bad
    x = cp.asarray(a)
    with pytest.raises(cp.LinAlgError, match="problem 1 .*NaN or infinity"):
        r = getattr(cp.linalg, fn)(x)
        if isinstance(r, tuple):
            r = r[0]
        _np(r)
    assert "illegal" not in capfd.readouterr().err
    good = getattr(cp.linalg, fn)(cp.asarray(a[:1]))  # the finite one alone still works
    want = getattr(np.linalg, fn)(a[:1])
    got, ref = (good[0], want[0]) if isinstance(want, tuple) else (good, want)
    if fn in ("eigvalsh", "svdvals"):
        np.testing.assert_allclose(_np(got), ref, rtol=1e-11, atol=1e-11)
