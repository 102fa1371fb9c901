# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""accel.fft (the Array API fft extension over accel_array_fft and friends:
kissfft on the CPU) against numpy.fft on the same data: values, dtypes
(complex64 stays complex64, as NumPy 2), shapes with n= and s= cutting and
padding, every norm, batched axes, and the errors.

Tolerance: an FFT's error is O(eps log2 n) relative to the L2 norm of the
line (Higham, 2nd ed., Thm 24.2; verify mode's ACCEL_TOLERANCE_FFT); here
50 eps times the largest magnitude."""
import numpy as np
import pytest

import accel as cp

SEED = 1301
CDT = {np.float32: np.complex64, np.float64: np.complex128}


def _real(shape, dtype=np.float64, seed=SEED):
    print(f"seed {seed}")
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _cplx(shape, dtype=np.complex128, seed=SEED):
    f = np.float32 if dtype == np.complex64 else np.float64
    return (_real(shape, f, seed) + 1j * _real(shape, f, seed + 1)).astype(dtype)


def _close(got, want, dtype):
    g = got.get()
    assert g.dtype == dtype, (g.dtype, dtype)
    assert g.shape == want.shape
    scale = max(1.0, float(np.abs(want).max(initial=0.0)))
    eps = np.finfo(np.float32 if dtype in (np.float32, np.complex64) else np.float64).eps
    np.testing.assert_allclose(g, want, rtol=0, atol=50 * eps * scale * np.log2(16 + g.size))


@pytest.mark.parametrize("cdt", [np.complex64, np.complex128])
@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
def test_fft_ifft_match_numpy(cdt, norm):
    h = _cplx((3, 10, 7), cdt)
    x = cp.asarray(h)
    for axis in (-1, 0, 1):
        for n in (None, 4, 13):
            _close(cp.fft.fft(x, n=n, axis=axis, norm=norm),
                   np.fft.fft(h, n=n, axis=axis, norm=norm), cdt)
            _close(cp.fft.ifft(x, n=n, axis=axis, norm=norm),
                   np.fft.ifft(h, n=n, axis=axis, norm=norm), cdt)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
def test_rfft_irfft_hfft_match_numpy(dtype, norm):
    h = _real((4, 9), dtype)
    x = cp.asarray(h)
    for axis in (0, -1):
        for n in (None, 6, 11):
            _close(cp.fft.rfft(x, n=n, axis=axis, norm=norm),
                   np.fft.rfft(h, n=n, axis=axis, norm=norm), CDT[dtype])
            _close(cp.fft.ihfft(x, n=n, axis=axis, norm=norm),
                   np.fft.ihfft(h, n=n, axis=axis, norm=norm), CDT[dtype])
    c = _cplx((4, 5), CDT[dtype])
    y = cp.asarray(c)
    for n in (None, 8, 9, 3):
        _close(cp.fft.irfft(y, n=n, norm=norm), np.fft.irfft(c, n=n, norm=norm), dtype)
        _close(cp.fft.hfft(y, n=n, norm=norm), np.fft.hfft(c, n=n, norm=norm), dtype)


@pytest.mark.parametrize("norm", ["backward", "ortho", "forward"])
def test_nd_transforms_match_numpy(norm):
    h = _cplx((4, 6, 5))
    x = cp.asarray(h)
    for s, axes in ((None, None), (None, (0, 2)), ((3, 8), None), ((5, -1), (2, 0)),
                    (None, (-1,))):
        kw = {"s": s, "axes": axes, "norm": norm}
        n_axes = axes if s is None or axes else tuple(range(-len(s), 0))
        want_s = None if s is None else [h.shape[a] if v == -1 else v for v, a in zip(s, n_axes)]
        nkw = {"s": want_s, "axes": n_axes, "norm": norm}
        _close(cp.fft.fftn(x, **kw), np.fft.fftn(h, **nkw), np.complex128)
        _close(cp.fft.ifftn(x, **kw), np.fft.ifftn(h, **nkw), np.complex128)
    r = _real((4, 6, 5))
    xr = cp.asarray(r)
    for s, axes in ((None, None), (None, (0, 1)), ((4, 6), (1, 2))):
        kw = {"s": s, "axes": axes, "norm": norm}
        _close(cp.fft.rfftn(xr, **kw), np.fft.rfftn(r, **kw), np.complex128)
        _close(cp.fft.irfftn(x, **kw), np.fft.irfftn(h, **kw), np.float64)


def test_real_and_integer_input_become_complex():
    h = _real(8, np.float32)
    got = cp.fft.fft(cp.asarray(h))
    _close(got, np.fft.fft(h).astype(np.complex64), np.complex64)
    i = np.arange(6)
    _close(cp.fft.fft(cp.asarray(i)), np.fft.fft(i), np.complex128)
    _close(cp.fft.rfft(cp.asarray(i)), np.fft.rfft(i), np.complex128)


def test_strided_input_and_roundtrip():
    h = _cplx((8, 12))
    x = cp.asarray(h)
    _close(cp.fft.fft(x[::2, ::-3], axis=0), np.fft.fft(h[::2, ::-3], axis=0), np.complex128)
    _close(cp.fft.fft(x.T), np.fft.fft(h.T), np.complex128)
    _close(cp.fft.ifft(cp.fft.fft(x)), h, np.complex128)


def test_freqs_and_shifts():
    for n in (1, 2, 7, 8):
        for d in (1.0, 0.25):
            np.testing.assert_array_equal(cp.fft.fftfreq(n, d=d).get(), np.fft.fftfreq(n, d))
            np.testing.assert_array_equal(cp.fft.rfftfreq(n, d=d).get(), np.fft.rfftfreq(n, d))
    f = cp.fft.fftfreq(5, dtype=cp.float32)
    assert f.dtype == np.float32
    np.testing.assert_allclose(f.get(), np.fft.fftfreq(5), rtol=1e-7)
    h = np.arange(30).reshape(5, 6)
    x = cp.asarray(h)
    for axes in (None, 0, (1,), (0, 1), -1):
        np.testing.assert_array_equal(cp.fft.fftshift(x, axes=axes).get(),
                                      np.fft.fftshift(h, axes=axes))
        np.testing.assert_array_equal(cp.fft.ifftshift(x, axes=axes).get(),
                                      np.fft.ifftshift(h, axes=axes))
    c = cp.asarray(_cplx(7))
    np.testing.assert_array_equal(cp.fft.ifftshift(cp.fft.fftshift(c)).get(), c.get())


@pytest.mark.parametrize("call, exc", [
    (lambda x: cp.fft.fft(x, n=0), ValueError),
    (lambda x: cp.fft.fft(x, norm="unitary"), ValueError),
    (lambda x: cp.fft.fft(x, axis=2), IndexError),
    (lambda x: cp.fft.fft(x[0, 0]), ValueError),  # 0-d
    (lambda x: cp.fft.rfft(x), TypeError),  # complex input to rfft
    (lambda x: cp.fft.fftn(x, s=(3,), axes=(0, 1)), ValueError),
    (lambda x: cp.fft.fftn(x, axes=(0, 0)), ValueError),
    (lambda x: cp.fft.irfft(x[:, :1]), ValueError),  # 2 * (1 - 1) points
    (lambda x: cp.fft.fftfreq(0), ValueError),
    (lambda x: cp.fft.fftfreq(4, d=0.0), ValueError),
    (lambda x: cp.fft.fft(np.ones(4)), TypeError),
])
def test_bad_input_raises(call, exc):
    with pytest.raises(exc):
        call(cp.asarray(_cplx((3, 4))))
