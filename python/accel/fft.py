# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""accel.fft: the Array API 2023.12 fft extension (also the namespace's
``fft`` attribute: ``x.__array_namespace__().fft``), with NumPy's and
CuPy's signatures (n=, axis=, s=, axes=, norm=).

- One C call each (accel/array.h): fft, ifft, rfft, irfft (accel_array_fft,
  _ifft, _rfft, _irfft: kissfft on the CPU, cuFFT on CUDA), fftn, ifftn
  (accel_array_fftn, _ifftn), fftfreq, rfftfreq.
- Composed of those: rfftn (rfft on the last axis, fftn on the others),
  irfftn (ifftn, then irfft on the last axis), hfft (irfft of the
  conjugate) and ihfft (the conjugate of rfft), as NumPy composes them;
  fftshift and ifftshift (roll).

Dtypes: complex64 and complex128 keep their precision (NumPy 2's rule),
real input to fft/ifft/fftn/ifftn is made complex of its precision
(float16 as complex64; integers and bool as complex128); rfft takes
float32 and float64 (float16 as float32, integers and bool as float64) and
gives complex64 or complex128; irfft gives the float of the input's
precision. norm: 'backward' (default: the inverse scaled by 1/n),
'ortho' (both by 1/sqrt(n)), 'forward' (the forward by 1/n).
Accuracy: relative L2 error O(eps log2 n) per line (verify mode's
ACCEL_TOLERANCE_FFT, docs/checking.md). Work stays on the device.
Errors: ValueError (n < 1, a bad norm, s and axes of different lengths,
a repeated axis, 0-d x), IndexError (an axis out of range),
DtypeMismatchError (TypeError) for complex input to rfft/ihfft.
"""
from __future__ import annotations

import operator
from typing import Any, Optional, Sequence, Tuple

import numpy as np

from . import _aa_lib as C
from . import _lib as L
from . import array_api as xp
from ._array import Array
from ._namespace import _axis, _check, _device, _new, _q

_SWAP = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def _array(x: Any, fn: str) -> Array:
    if not isinstance(x, Array):
        raise TypeError(f"accel.fft.{fn}: x must be an accel array, not {type(x).__name__}")
    if x.ndim == 0:
        raise ValueError(f"accel.fft.{fn}: x is 0-d (it needs at least one axis)")
    return x


def _complex(x: Any, fn: str) -> Array:
    """x as complex64 or complex128 (real floats keep their precision)."""
    a = _array(x, fn)
    if a.dtype.kind == "c":
        return a
    if a.dtype in (xp.float16, xp.float32):
        return xp.astype(a, xp.complex64)
    return xp.astype(a, xp.complex128)


def _real(x: Any, fn: str) -> Array:
    """x as float32 or float64; DtypeMismatchError for complex x."""
    a = _array(x, fn)
    if a.dtype.kind == "c":
        raise L.error("ACCEL_ERROR_DTYPE_MISMATCH",
                      f"accel.fft.{fn}: x is {a.dtype}; it takes real arrays")
    if a.dtype == xp.float16:
        return xp.astype(a, xp.float32)
    if a.dtype.kind in "biu":
        return xp.astype(a, xp.float64)
    return a


def _norm(norm: Optional[str], fn: str) -> int:
    code = C.FFT_NORMS.get("backward" if norm is None else norm) if isinstance(
        norm, (str, type(None))) else None
    if code is None:
        raise ValueError(f"accel.fft.{fn}: norm {norm!r} is not 'backward', 'ortho' or "
                         "'forward'")
    return code


def _length(n: Any, fn: str, default: int) -> int:
    """The transform length: n (an integer >= 1) or, for None, default."""
    v = default if n is None else operator.index(n)
    if v < 1:
        raise ValueError(f"accel.fft.{fn}: invalid number of data points ({v}); it must be "
                         "at least 1")
    return v


def _one(cfn: Any, fn: str, a: Array, n: int, axis: int, norm: Any, out_len: int,
         out_dtype: Any) -> Array:
    """One C transform of a along axis with length n into a fresh array with
    out_len along the axis."""
    ax = _axis(axis, a.ndim, f"fft.{fn}")
    shape = a.shape[:ax] + (out_len,) + a.shape[ax + 1:]
    out = _new(shape, out_dtype, a.device)
    if out.size:
        _check(cfn(_q(a, out), a._cv(), n, ax, _norm(norm, fn), out._cv()))
    return out


def fft(x: Array, /, *, n: Optional[int] = None, axis: int = -1,
        norm: str = "backward") -> Array:
    """The 1-D discrete Fourier transform along `axis`: out_j = sum_t x_t
    exp(-2 pi i j t / n), the line cut or zero-padded to n (default: its
    length). Returns x's complex dtype, n along the axis."""
    a = _complex(x, "fft")
    ln = _length(n, "fft", a.shape[_axis(axis, a.ndim, "fft.fft")])
    return _one(C.fft, "fft", a, ln, axis, norm, ln, a.dtype)


def ifft(x: Array, /, *, n: Optional[int] = None, axis: int = -1,
         norm: str = "backward") -> Array:
    """The inverse of fft (exp(+2 pi i j t / n), by default scaled by 1/n)."""
    a = _complex(x, "ifft")
    ln = _length(n, "ifft", a.shape[_axis(axis, a.ndim, "fft.ifft")])
    return _one(C.ifft, "ifft", a, ln, axis, norm, ln, a.dtype)


def rfft(x: Array, /, *, n: Optional[int] = None, axis: int = -1,
         norm: str = "backward") -> Array:
    """The fft of a real x along `axis`: its n // 2 + 1 non-negative
    frequencies (complex64 for float32, complex128 for float64)."""
    return _rfft(x, n, axis, norm, "rfft")


def _rfft(x: Any, n: Optional[int], axis: int, norm: Any, fn: str) -> Array:
    """rfft, its errors naming fn (rfft, or ihfft that calls it)."""
    a = _real(x, fn)
    ln = _length(n, fn, a.shape[_axis(axis, a.ndim, f"fft.{fn}")])
    cdt = xp.complex64 if a.dtype == xp.float32 else xp.complex128
    return _one(C.rfft, fn, a, ln, axis, norm, ln // 2 + 1, cdt)


def irfft(x: Array, /, *, n: Optional[int] = None, axis: int = -1,
          norm: str = "backward") -> Array:
    """The inverse of rfft: n real outputs (default 2 * (m - 1) for m
    inputs along the axis) from the n // 2 + 1 first frequencies (x cut or
    zero-padded to them), as the real fft of a Hermitian-symmetric line
    (the imaginary parts of the zero and, for even n, the n/2 frequency are
    ignored, as NumPy's)."""
    return _irfft(x, n, axis, norm, "irfft")


def _irfft(x: Any, n: Optional[int], axis: int, norm: Any, fn: str) -> Array:
    """irfft, its errors naming fn (irfft, or hfft that calls it)."""
    a = _complex(x, fn)
    ln = _length(n, fn, 2 * (a.shape[_axis(axis, a.ndim, f"fft.{fn}")] - 1))
    rdt = xp.float32 if a.dtype == xp.complex64 else xp.float64
    return _one(C.irfft, fn, a, ln, axis, norm, ln, rdt)


def _cook(a: Array, s: Optional[Sequence[int]], axes: Optional[Sequence[int]],
          fn: str) -> Tuple[list, list]:
    """NumPy's reading of s and axes: axes default all axes (with s: the last
    len(s)); s default the lengths of those axes; s[i] == -1 the whole axis."""
    if axes is None:
        if s is not None and len(s) > a.ndim:
            raise ValueError(f"accel.fft.{fn}: s {tuple(s)} names {len(s)} axes; x has "
                             f"{a.ndim}")
        axes = range(a.ndim) if s is None else range(a.ndim - len(s), a.ndim)
    ax = [_axis(v, a.ndim, f"fft.{fn}") for v in axes]
    if len(set(ax)) != len(ax):
        raise ValueError(f"accel.fft.{fn}: repeated axis in {tuple(axes)}")
    if s is None:
        return [a.shape[v] for v in ax], ax
    if len(s) != len(ax):
        raise ValueError(f"accel.fft.{fn}: s {tuple(s)} and axes {tuple(axes)} differ in "
                         "length")
    return [a.shape[v] if operator.index(n) == -1 else _length(n, fn, 0)
            for n, v in zip(s, ax)], ax


def _nd(cfn: Any, fn: str, a: Array, s: list, ax: list, norm: Any) -> Array:
    """One n-D C transform (accel_array_fftn or _ifftn) of complex a."""
    if not ax:
        return xp.astype(a, a.dtype, copy=True)
    for n in s:
        _length(n, fn, 0)
    shape = list(a.shape)
    for n, v in zip(s, ax):
        shape[v] = n
    out = _new(tuple(shape), a.dtype, a.device)
    if out.size:
        sv = (C.i64 * len(s))(*s)
        av = (C.c_i32 * len(ax))(*ax)
        _check(cfn(_q(a, out), a._cv(), len(ax), sv, av, _norm(norm, fn), out._cv()))
    return out


def fftn(x: Array, /, *, s: Optional[Sequence[int]] = None,
         axes: Optional[Sequence[int]] = None, norm: str = "backward") -> Array:
    """The n-D fft over `axes` (default all; with s, the last len(s)), each
    cut or zero-padded to s[i] (default, or -1: its length); the norm
    applies to the whole (backward: nothing on the forward transform)."""
    a = _complex(x, "fftn")
    s2, ax = _cook(a, s, axes, "fftn")
    return _nd(C.fftn, "fftn", a, s2, ax, norm)


def ifftn(x: Array, /, *, s: Optional[Sequence[int]] = None,
          axes: Optional[Sequence[int]] = None, norm: str = "backward") -> Array:
    """The inverse of fftn (by default scaled by 1 / prod(s))."""
    a = _complex(x, "ifftn")
    s2, ax = _cook(a, s, axes, "ifftn")
    return _nd(C.ifftn, "ifftn", a, s2, ax, norm)


def rfftn(x: Array, /, *, s: Optional[Sequence[int]] = None,
          axes: Optional[Sequence[int]] = None, norm: str = "backward") -> Array:
    """The n-D fft of a real x: rfft over the last of `axes` (s[-1] // 2 +
    1 outputs), then fftn over the others."""
    a = _real(x, "rfftn")
    s2, ax = _cook(a, s, axes, "rfftn")
    if not ax:
        return _complex(a, "rfftn")
    r = rfft(a, n=s2[-1], axis=ax[-1], norm=norm)
    return _nd(C.fftn, "rfftn", r, s2[:-1], ax[:-1], norm) if len(ax) > 1 else r


def irfftn(x: Array, /, *, s: Optional[Sequence[int]] = None,
           axes: Optional[Sequence[int]] = None, norm: str = "backward") -> Array:
    """The inverse of rfftn: ifftn over all of `axes` but the last, then
    irfft over the last with s[-1] outputs (default 2 * (m - 1))."""
    a = _complex(x, "irfftn")
    s2, ax = _cook(a, s, axes, "irfftn")
    if not ax:
        return xp.real(a)
    if s is None or operator.index(s[-1]) == -1:
        s2[-1] = 2 * (a.shape[ax[-1]] - 1)
    c = _nd(C.ifftn, "irfftn", a, s2[:-1], ax[:-1], norm) if len(ax) > 1 else a
    return irfft(c, n=s2[-1], axis=ax[-1], norm=norm)


def fft2(x: Array, /, *, s: Optional[Sequence[int]] = None, axes: Sequence[int] = (-2, -1),
         norm: str = "backward") -> Array:
    """fftn over two axes (NumPy's and CuPy's fft2)."""
    return fftn(x, s=s, axes=axes, norm=norm)


def ifft2(x: Array, /, *, s: Optional[Sequence[int]] = None, axes: Sequence[int] = (-2, -1),
          norm: str = "backward") -> Array:
    """ifftn over two axes (NumPy's and CuPy's ifft2)."""
    return ifftn(x, s=s, axes=axes, norm=norm)


def rfft2(x: Array, /, *, s: Optional[Sequence[int]] = None, axes: Sequence[int] = (-2, -1),
          norm: str = "backward") -> Array:
    """rfftn over two axes (NumPy's and CuPy's rfft2)."""
    return rfftn(x, s=s, axes=axes, norm=norm)


def irfft2(x: Array, /, *, s: Optional[Sequence[int]] = None, axes: Sequence[int] = (-2, -1),
           norm: str = "backward") -> Array:
    """irfftn over two axes (NumPy's and CuPy's irfft2)."""
    return irfftn(x, s=s, axes=axes, norm=norm)


def hfft(x: Array, /, *, n: Optional[int] = None, axis: int = -1,
         norm: str = "backward") -> Array:
    """The fft of a Hermitian-symmetric line given by its first half: the
    real n outputs (default 2 * (m - 1)), irfft of conj(x) with the norm's
    direction swapped (NumPy's)."""
    a = _complex(x, "hfft")
    norm = "backward" if norm is None else norm
    _norm(norm, "hfft")
    return _irfft(xp.conj(a), n, axis, _SWAP[norm], "hfft")


def ihfft(x: Array, /, *, n: Optional[int] = None, axis: int = -1,
          norm: str = "backward") -> Array:
    """The inverse of hfft for a real x: conj(rfft(x)) with the norm's
    direction swapped (NumPy's); n // 2 + 1 complex outputs."""
    a = _real(x, "ihfft")
    norm = "backward" if norm is None else norm
    _norm(norm, "ihfft")
    return xp.conj(_rfft(a, n, axis, _SWAP[norm], "ihfft"))


def _freq(cfn: Any, fn: str, n: Any, d: float, count: int, device: Any, dtype: Any) -> Array:
    dt = xp.float64 if dtype is None else np.dtype(dtype)
    if dt not in (xp.float32, xp.float64):
        raise L.error("ACCEL_ERROR_DTYPE_MISMATCH",
                      f"accel.fft.{fn}: dtype {dt} (float32 or float64)")
    out = _new((count,), dt, _device(device))
    _check(cfn(_q(out), n, float(d), out._cv()))
    return out


def fftfreq(n: int, /, *, d: float = 1.0, device: Any = None, dtype: Any = None) -> Array:
    """The sample frequencies of an n-point fft with sample spacing d:
    [0, 1, ..., (n - 1) // 2, -(n // 2), ..., -1] / (d * n), float64 (or
    dtype: float32) on `device`. Raises ValueError for n < 1 or d zero or
    not finite."""
    n = _length(n, "fftfreq", 0)
    return _freq(C.fftfreq, "fftfreq", n, d, n, device, dtype)


def rfftfreq(n: int, /, *, d: float = 1.0, device: Any = None, dtype: Any = None) -> Array:
    """The n // 2 + 1 non-negative sample frequencies of rfft: [0, 1, ...,
    n // 2] / (d * n), as fftfreq."""
    n = _length(n, "rfftfreq", 0)
    return _freq(C.rfftfreq, "rfftfreq", n, d, n // 2 + 1, device, dtype)


def _shift(x: Array, axes: Any, sign: int, fn: str) -> Array:
    if not isinstance(x, Array):
        raise TypeError(f"accel.fft.{fn}: x must be an accel array, not {type(x).__name__}")
    if axes is None:
        axes = tuple(range(x.ndim))
    elif not isinstance(axes, (tuple, list)):
        axes = (axes,)
    ax = tuple(_axis(a, x.ndim, f"fft.{fn}") for a in axes)
    if not ax:
        return xp.astype(x, x.dtype, copy=True)
    shift = tuple(sign * (x.shape[a] // 2) for a in ax)
    return xp.roll(x, shift, axis=ax)


def fftshift(x: Array, /, *, axes: Any = None) -> Array:
    """x rolled so that the zero frequency is in the middle: by n // 2
    along each of `axes` (default all), on the device."""
    return _shift(x, axes, 1, "fftshift")


def ifftshift(x: Array, /, *, axes: Any = None) -> Array:
    """The inverse of fftshift: rolled by -(n // 2) along each of `axes`."""
    return _shift(x, axes, -1, "ifftshift")


__all__ = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft",
           "fftfreq", "rfftfreq", "fftshift", "ifftshift"]
