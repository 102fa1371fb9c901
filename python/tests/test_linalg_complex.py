# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""accel.linalg on complex64 and complex128 (LAPACK's c/z routines through
accel_array_linalg_*) against numpy.linalg on the same data: values,
result dtypes (eigenvalues, singular values and logabsdet real; factors,
det and slogdet's sign complex), batches, and errors.

Tolerances: the inputs are well conditioned (n I added), so values agree
with NumPy's LAPACK to RTOL (a small multiple of n * eps * cond for the
dtype); factors that LAPACK defines only up to a unit complex factor per
column (eigenvectors, singular vectors) are checked through what defines
them (A V = V diag(w), U diag(S) Vh = A, V^H V = I) and Q, R, L against
NumPy's directly (their phases are fixed by LAPACK's conventions)."""
import numpy as np
import pytest

import accel as cp

SEED = 2827
CPLX = [np.complex64, np.complex128]
REAL = {np.complex64: np.float32, np.complex128: np.float64}
RTOL = {np.complex64: 5e-4, np.complex128: 1e-11}


def _data(shape, dtype, seed=SEED):
    print(f"seed {seed}")
    g = np.random.default_rng(seed)
    return (g.standard_normal(shape) + 1j * g.standard_normal(shape)).astype(dtype)


def _square(shape, dtype, seed=SEED):
    n = shape[-1]
    return (_data(shape, np.complex128, seed) + n * np.eye(n)).astype(dtype)


def _hpd(shape, dtype, seed=SEED):
    a = _data(shape, np.complex128, seed)
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + shape[-1] * np.eye(shape[-1])).astype(dtype)


def _h(x):
    """The conjugate transpose of the matrices of x."""
    return np.conj(np.swapaxes(x, -1, -2))


def _close(got, want, dtype, scale=1.0):
    g = got.get() if isinstance(got, cp.Array) else np.asarray(got)
    assert g.dtype == dtype and g.shape == np.shape(want), (g.dtype, g.shape, np.shape(want))
    tol = RTOL[dtype if dtype in RTOL else {np.float32: np.complex64,
                                              np.float64: np.complex128}[dtype]] * scale
    np.testing.assert_allclose(g, want, rtol=tol, atol=tol * max(1.0, np.abs(want).max(
        initial=0.0)))


@pytest.mark.parametrize("dtype", CPLX)
def test_cholesky_inv_solve_det_slogdet_match_numpy(dtype):
    h = _hpd((2, 3, 5, 5), dtype)
    x = cp.asarray(h)
    ref = np.linalg.cholesky(h.astype(np.complex128))
    _close(cp.linalg.cholesky(x), ref, dtype, 10)
    _close(cp.linalg.cholesky(x, upper=True), _h(ref), dtype, 10)
    g = _square((2, 3, 5, 5), dtype, SEED + 1)
    y = cp.asarray(g)
    _close(cp.linalg.inv(y), np.linalg.inv(g.astype(np.complex128)), dtype, 10)
    b = _data((2, 3, 5, 2), dtype, SEED + 2)
    _close(cp.linalg.solve(y, cp.asarray(b)), np.linalg.solve(g.astype(np.complex128), b),
           dtype, 10)
    d = np.linalg.det(g.astype(np.complex128))
    _close(cp.linalg.det(y), d, dtype, 10)
    sign, logabs = cp.linalg.slogdet(y)
    ws, wl = np.linalg.slogdet(g.astype(np.complex128))
    _close(sign, ws, dtype, 10)
    _close(logabs, wl, REAL[dtype], 10)
    np.testing.assert_allclose(np.abs(sign.get()), 1, rtol=RTOL[dtype])


@pytest.mark.parametrize("dtype", CPLX)
def test_eigh_eigvalsh_real_values_unitary_vectors(dtype):
    h = _hpd((3, 6, 6), dtype)
    w, v = cp.linalg.eigh(cp.asarray(h))
    ref = np.linalg.eigvalsh(h.astype(np.complex128))
    scale = float(np.abs(ref).max())
    _close(w, ref, REAL[dtype], scale)
    _close(cp.linalg.eigvalsh(cp.asarray(h)), ref, REAL[dtype], scale)
    vv, ww = v.get(), w.get().astype(np.complex128)
    assert vv.dtype == dtype
    np.testing.assert_allclose(h @ vv, vv * ww[..., None, :], atol=RTOL[dtype] * scale * 10)
    np.testing.assert_allclose(_h(vv) @ vv, np.broadcast_to(np.eye(6), vv.shape),
                               atol=RTOL[dtype] * 10)


@pytest.mark.parametrize("dtype", CPLX)
@pytest.mark.parametrize("shape", [(2, 5, 3), (2, 3, 5), (4, 4)])
@pytest.mark.parametrize("full", [False, True])
def test_svd_svdvals_pinv_rank_norms(dtype, shape, full):
    a = _data(shape, dtype, SEED + 3)
    u, s, vh = cp.linalg.svd(cp.asarray(a), full_matrices=full)
    ref = np.linalg.svd(a.astype(np.complex128), compute_uv=False)
    _close(s, ref, REAL[dtype], 10)
    _close(cp.linalg.svdvals(cp.asarray(a)), ref, REAL[dtype], 10)
    k = min(shape[-2:])
    uu, vv = u.get(), vh.get()
    assert uu.dtype == dtype and vv.dtype == dtype
    assert uu.shape[-1] == (shape[-2] if full else k) and vv.shape[-2] == (shape[-1] if full
                                                                           else k)
    rec = (uu[..., :, :k] * s.get()[..., None, :]) @ vv[..., :k, :]
    np.testing.assert_allclose(rec, a, atol=RTOL[dtype] * 10 * np.abs(a).max())
    np.testing.assert_allclose(_h(uu) @ uu, np.broadcast_to(np.eye(uu.shape[-1]), uu.shape[:-2]
                                                            + (uu.shape[-1],) * 2),
                               atol=RTOL[dtype] * 10)
    np.testing.assert_allclose(vv @ _h(vv), np.broadcast_to(np.eye(vv.shape[-2]), vv.shape[:-2]
                                                            + (vv.shape[-2],) * 2),
                               atol=RTOL[dtype] * 10)
    _close(cp.linalg.pinv(cp.asarray(a)), np.linalg.pinv(a.astype(np.complex128)), dtype, 100)
    np.testing.assert_array_equal(cp.linalg.matrix_rank(cp.asarray(a)).get(),
                                  np.linalg.matrix_rank(a))
    for ord in (2, -2, "nuc", "fro"):
        _close(cp.linalg.matrix_norm(cp.asarray(a), ord=ord),
               np.linalg.norm(a.astype(np.complex128), ord=ord, axis=(-2, -1)), REAL[dtype], 10)


@pytest.mark.parametrize("dtype", CPLX)
@pytest.mark.parametrize("shape", [(2, 5, 3), (3, 5), (4, 4)])
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr_matches_numpy(dtype, shape, mode):
    a = _data(shape, dtype, SEED + 4)
    q, r = cp.linalg.qr(cp.asarray(a), mode=mode)
    wq, wr = np.linalg.qr(a.astype(np.complex128), mode=mode)
    # the same Householder convention as NumPy's LAPACK: Q and R themselves
    _close(r, wr, dtype, 10)
    qq = q.get()
    np.testing.assert_allclose(qq @ r.get(), a, atol=RTOL[dtype] * 10 * np.abs(a).max())
    np.testing.assert_allclose(_h(qq) @ qq, np.broadcast_to(np.eye(qq.shape[-1]), qq.shape[:-2]
                                                            + (qq.shape[-1],) * 2),
                               atol=RTOL[dtype] * 10)
    _close(q[..., :, :min(shape[-2:])], wq[..., :, :min(shape[-2:])], dtype, 10)


def test_trace_and_mixed_real_complex_solve():
    a = _square((4, 4), np.complex128, SEED + 5)
    np.testing.assert_allclose(cp.linalg.trace(cp.asarray(a)).get(), np.trace(a), rtol=1e-14)
    b = np.random.default_rng(SEED + 6).standard_normal(4)
    got = cp.linalg.solve(cp.asarray(a), cp.asarray(b))
    _close(got, np.linalg.solve(a, b), np.complex128, 10)


def test_errors_name_the_problem():
    h = _hpd((3, 3, 3), np.complex128)
    h[1] = -h[1]  # Hermitian, negative definite
    with pytest.raises(cp.LinAlgError, match="problem 1.*positive definite"):
        cp.linalg.cholesky(cp.asarray(h))
    v = np.array([1, 1j, 1 - 1j])
    s = np.stack([np.eye(3, dtype=np.complex64), np.outer(v, np.conj(v)).astype(np.complex64)])
    with pytest.raises(cp.LinAlgError, match="problem 1.*singular"):
        cp.linalg.inv(cp.asarray(s))
    sign, logabs = cp.linalg.slogdet(cp.asarray(s))
    assert sign.get()[1] == 0 and logabs.get()[1] == -np.inf and logabs.dtype == cp.float32
    with pytest.raises(TypeError):
        cp.linalg.eigh(cp.asarray(np.eye(2, dtype=np.float16)))
