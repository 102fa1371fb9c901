# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""accel.linalg: norms (NumPy's and CuPy's ``linalg.norm``, the Array API
linalg extension's ``vector_norm`` and ``matrix_norm``) and the products of
the extension that compose from accel's array functions: matmul,
matrix_transpose, vecdot, outer, diagonal, trace, matrix_power, tensordot,
cross. Everything runs on the
array's device as elementwise ops and reductions of the C array layer
(accel/array.h: absolute, multiply, pow, sqrt, sum, max, min); nothing goes
through host memory.

The factorizations (solve, inv, qr, svd, eigh, cholesky, det) are LAPACK's
work and not here; so matrix norms that need singular values (ord 2, -2,
'nuc') raise NotImplementedError naming svd.
"""
from __future__ import annotations

import math
import numbers
from typing import Any, Tuple, Union


from . import array_api as xp
from ._array import _view

Axis = Union[None, int, Tuple[int, ...]]

_INF = math.inf


# ----------------------------------------------------------- array types

def _array(x: Any, fn: str) -> Any:
    """x, checked to be an accel.Array (TypeError otherwise)."""
    if not isinstance(x, xp.Array):
        raise TypeError(f"accel.linalg.{fn}: x is an accel array, not {type(x).__name__}")
    return x


# ----------------------------------------------------------------- norms

def _floating(x: Any) -> Any:
    """Integer and bool arrays as float64 (as NumPy's norm)."""
    return x if x.dtype.kind == "f" else xp.astype(x, xp.float64)


def _axes(axis: Axis, ndim: int, fn: str) -> Tuple[int, ...]:
    """Normalized, distinct axes; AxisError-like ValueError out of range."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, numbers.Integral):
        ax: Tuple[Any, ...] = (axis,)
    else:
        try:
            ax = tuple(axis)
        except TypeError:
            raise TypeError(f"accel.linalg.{fn}: axis {axis!r} is not an integer or a tuple "
                            "of integers") from None
    out = []
    for a in ax:
        if not isinstance(a, numbers.Integral) or isinstance(a, bool):
            raise TypeError(f"accel.linalg.{fn}: axis {a!r} is not an integer")
        if not -ndim <= a < ndim:
            raise ValueError(f"accel.linalg.{fn}: axis {a} is out of range for {ndim}-d x")
        out.append(int(a) % ndim)
    if len(set(out)) != len(out):
        raise ValueError(f"accel.linalg.{fn}: repeated axis in {axis}")
    return tuple(out)


def _vector(x: Any, ord: Any, axes: Tuple[int, ...], keepdims: bool, fn: str) -> Any:
    """The vector norm of x over axes (already floating)."""
    if isinstance(ord, str) or isinstance(ord, bool) or not isinstance(ord, numbers.Real):
        raise ValueError(f"accel.linalg.{fn}: invalid norm order {ord!r} for vectors")
    kw = {"axis": axes, "keepdims": keepdims}
    if ord == 0:
        nz = xp.astype(xp.not_equal(x, 0), x.dtype)
        return xp.sum(nz, **kw)
    if ord == _INF:
        return xp.max(xp.abs(x), **kw)
    if ord == -_INF:
        return xp.min(xp.abs(x), **kw)
    if ord == 1:
        return xp.sum(xp.abs(x), **kw)
    if ord == 2:
        return xp.sqrt(xp.sum(xp.multiply(x, x), **kw))
    p = float(ord)
    s = xp.sum(xp.pow(xp.abs(x), p), **kw)
    return xp.pow(s, 1.0 / p)


def _matrix(x: Any, ord: Any, axes: Tuple[int, int], keepdims: bool, fn: str) -> Any:
    """The matrix norm of x over axes (row, col) (already floating)."""
    r, c = axes
    if ord in ("fro", None):
        res = xp.sqrt(xp.sum(xp.multiply(x, x), axis=axes))
    elif ord in (1, -1, _INF, -_INF) and not isinstance(ord, bool):
        red = xp.max if ord > 0 else xp.min
        # 1: the largest column sum (sum over rows); inf: the largest row sum.
        s_ax, m_ax = (r, c) if abs(ord) == 1 else (c, r)
        sums = xp.sum(xp.abs(x), axis=s_ax)
        res = red(sums, axis=m_ax - 1 if m_ax > s_ax else m_ax)
    elif ord in (2, -2, "nuc") and not isinstance(ord, bool):
        raise NotImplementedError(f"accel.linalg.{fn}: ord={ord!r} needs the singular values "
                                  "(svd), which accel.linalg does not have yet")
    else:
        raise ValueError(f"accel.linalg.{fn}: invalid norm order {ord!r} for matrices")
    if keepdims:
        res = xp.expand_dims(xp.expand_dims(res, axis=min(axes)), axis=max(axes))
    return res


def norm(x: Any, ord: Any = None, axis: Axis = None, keepdims: bool = False) -> Any:
    """The norm of x as numpy.linalg.norm and cupy.linalg.norm define it, on
    the device.

    x: an accel array (accel.Array or accel.array_api.Array), float32 or
    float64 (integer and bool arrays are first made float64, as NumPy).
    axis None: with ord None the 2-norm of x flattened, any ndim; with an
    ord, x must be 1-d (vector norm) or 2-d (matrix norm). An int axis: vector
    norms along it; a pair of axes: matrix norms over them.
    Vector ord: None or 2 (sqrt of the sum of squares), 1 (sum of |x|), inf
    (max |x|), -inf (min |x|), 0 (count of non-zeros), any other p
    (sum(|x|**p) ** (1/p)). Matrix ord: None or 'fro' (Frobenius), 1 / -1
    (max / min column sum of |x|), inf / -inf (max / min row sum).
    keepdims: keep the reduced axes with size 1.
    Returns a 0-d or reduced array of x's float dtype (accel.Array for an
    accel.Array); read it with float(). Accuracy: the sums are the C
    reduction's (docs/arrays.md gives its bound); no scaling against
    overflow (as NumPy's ord=None).
    Raises ValueError (an invalid ord for vectors or matrices, a bad axis,
    ord with axis None on a 3-d or larger x), TypeError (not an accel array),
    NotImplementedError (matrix ord 2, -2, 'nuc': they need svd)."""
    a = _array(x, "norm")
    a = _floating(a)
    if axis is None:
        if ord is None:
            axes = tuple(range(a.ndim))
            r = _vector(a, 2, axes, keepdims, "norm")
            return r
        if a.ndim not in (1, 2):
            raise ValueError(f"accel.linalg.norm: x is {a.ndim}-d; with ord and no axis it "
                             "must be 1-d or 2-d")
        axis = tuple(range(a.ndim))
    axes = _axes(axis, a.ndim, "norm")
    if len(axes) == 1:
        r = _vector(a, 2 if ord is None else ord, axes, keepdims, "norm")
    elif len(axes) == 2:
        r = _matrix(a, ord, (axes[0], axes[1]), keepdims, "norm")
    else:
        raise ValueError(f"accel.linalg.norm: axis {axis} names {len(axes)} axes (1 or 2)")
    return r


def vector_norm(x: Any, /, *, axis: Axis = None, keepdims: bool = False,
                ord: Union[int, float] = 2) -> Any:
    """The Array API's vector_norm: the `ord` norm of x over `axis` (None:
    all axes, as one vector; an int or a tuple of axes), on the device.
    ord: 1, 2, inf, -inf, 0 or any other real p (see :func:`norm`).
    Returns x's float dtype; integer x is made float64 first. Raises
    ValueError for a string ord or a bad axis, TypeError for a non-array."""
    a = _array(x, "vector_norm")
    a = _floating(a)
    return _vector(a, ord, _axes(axis, a.ndim, "vector_norm"), keepdims, "vector_norm")


def matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:
    """The Array API's matrix_norm over the last two axes of x (ndim >= 2),
    batched over the others, on the device. ord: 'fro', 1, -1, inf, -inf (see
    :func:`norm`); 2, -2 and 'nuc' raise NotImplementedError (svd). Raises
    ValueError for x of fewer than 2 dimensions or another ord."""
    a = _array(x, "matrix_norm")
    if a.ndim < 2:
        raise ValueError(f"accel.linalg.matrix_norm: x is {a.ndim}-d (at least 2-d)")
    a = _floating(a)
    return _matrix(a, ord, (a.ndim - 2, a.ndim - 1), keepdims, "matrix_norm")


# ------------------------------------------------------------- products

def _both(fn: str, x1: Any, x2: Any) -> Tuple[Any, Any]:
    return _array(x1, fn), _array(x2, fn)


def matmul(x1: Any, x2: Any, /) -> Any:
    """The matrix product x1 @ x2 (accel.array_api.matmul: broadcast over
    the leading axes)."""
    a, b = _both("matmul", x1, x2)
    return xp.matmul(a, b)


def matrix_transpose(x: Any, /) -> Any:
    """The last two axes of x swapped (x.ndim >= 2): a view, as a namespace
    array (accel.array_api.matrix_transpose)."""
    return xp.matrix_transpose(_array(x, "matrix_transpose"))


def vecdot(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    """The dot product of x1 and x2 over `axis`, broadcast over the others."""
    a, b = _both("vecdot", x1, x2)
    return xp.vecdot(a, b, axis=axis)


def outer(x1: Any, x2: Any, /) -> Any:
    """The outer product of the 1-d arrays x1 (n) and x2 (m): n x m, the
    broadcast product x1[:, None] * x2[None, :]. Raises ValueError when
    either is not 1-d."""
    a, b = _both("outer", x1, x2)
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError(f"accel.linalg.outer: x1 is {a.ndim}-d and x2 {b.ndim}-d (1-d "
                         "each)")
    return xp.multiply(a[:, None], b[None, :])


def trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> Any:
    """The sum of diagonal `offset` of the last two axes of x (ndim >= 2),
    batched over the others: the diagonal is a strided view of x's buffer
    (stride: a row plus a column), summed on the device (integers in int64,
    as the namespace's sum). Raises ValueError for fewer than 2 axes."""
    a = _array(x, "trace")
    return xp.sum(diagonal(a, offset=offset), axis=-1, dtype=dtype)


def diagonal(x: Any, /, *, offset: int = 0) -> Any:
    """Diagonal `offset` (> 0 above the main one, < 0 below) of the last two
    axes of x (ndim >= 2): a view of x's buffer, shape x.shape[:-2] + (k,),
    as a namespace array. Raises ValueError for fewer than 2 axes."""
    a = _array(x, "diagonal")
    if a.ndim < 2:
        raise ValueError(f"accel.linalg.diagonal: x is {a.ndim}-d (at least 2-d)")
    n, m = a.shape[-2], a.shape[-1]
    k = max(0, min(n, m - offset) if offset >= 0 else min(n + offset, m))
    isz = a.dtype.itemsize
    st = [s // isz for s in a.strides]  # element strides
    sr, sc = st[-2], st[-1]
    start = a._offset + ((offset * sc if offset >= 0 else -offset * sr) if k else 0)
    return _view(a, a.shape[:-2] + (k,), start, st[:-2] + [sr + sc])


def tensordot(x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
    """The tensor contraction of x1 and x2 over `axes` (an int n: the last n
    axes of x1 with the first n of x2; or two sequences of axes, paired),
    as numpy.tensordot: the contracted axes moved together, each array
    reshaped to a matrix, one matmul, the free axes of x1 then of x2.
    Raises ValueError when paired axes differ in size, an axis is out of
    range or n is negative or too large."""
    a, b = _both("tensordot", x1, x2)
    if isinstance(axes, numbers.Integral) and not isinstance(axes, bool):
        if not 0 <= axes <= min(a.ndim, b.ndim):
            raise ValueError(f"accel.linalg.tensordot: axes={axes} for {a.ndim}-d and "
                             f"{b.ndim}-d arrays")
        ax_a, ax_b = tuple(range(a.ndim - axes, a.ndim)), tuple(range(axes))
    else:
        pa, pb = axes
        ax_a = _axes(pa, a.ndim, "tensordot")
        ax_b = _axes(pb, b.ndim, "tensordot")
    if len(ax_a) != len(ax_b) or any(a.shape[i] != b.shape[j] for i, j in zip(ax_a, ax_b)):
        raise ValueError(f"accel.linalg.tensordot: axes {ax_a} of shape {a.shape} and {ax_b} "
                         f"of shape {b.shape} do not pair up")
    free_a = [i for i in range(a.ndim) if i not in ax_a]
    free_b = [j for j in range(b.ndim) if j not in ax_b]
    k = math.prod(a.shape[i] for i in ax_a)
    am = xp.reshape(xp.permute_dims(a, tuple(free_a) + ax_a), (-1, k) if free_a else (1, k))
    bm = xp.reshape(xp.permute_dims(b, ax_b + tuple(free_b)), (k, -1) if free_b else (k, 1))
    out = [a.shape[i] for i in free_a] + [b.shape[j] for j in free_b]
    return xp.reshape(xp.matmul(am, bm), tuple(out))


def cross(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    """The cross product of 3-vectors along `axis` of x1 and x2, broadcast
    over the other axes (the Array API's linalg.cross): components from
    views, products and differences on the device. Raises ValueError when
    axis does not have size 3 in both."""
    a, b = _both("cross", x1, x2)
    if not (-a.ndim <= axis < a.ndim and -b.ndim <= axis < b.ndim) or \
            a.shape[axis] != 3 or b.shape[axis] != 3:
        raise ValueError(f"accel.linalg.cross: axis {axis} must have size 3 in both "
                         f"(shapes {a.shape} and {b.shape})")
    a, b = xp.moveaxis(a, axis, -1), xp.moveaxis(b, axis, -1)
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    c = xp.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
    return xp.moveaxis(c, -1, axis)


def matrix_power(x: Any, n: int, /) -> Any:
    """x (..., m, m) to the integer power n >= 0 by repeated squaring (about
    2 log2(n) matmuls); n = 0 gives the identity, broadcast. Raises
    ValueError for a non-square x, TypeError for a non-integer n,
    NotImplementedError for n < 0 (it needs inv)."""
    a = _array(x, "matrix_power")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"accel.linalg.matrix_power: x of shape {a.shape} is not square")
    if not isinstance(n, numbers.Integral) or isinstance(n, bool):
        raise TypeError(f"accel.linalg.matrix_power: n = {n!r} is not an integer")
    if n < 0:
        raise NotImplementedError("accel.linalg.matrix_power: n < 0 needs inv, which "
                                  "accel.linalg does not have yet")
    result = xp.broadcast_to(xp.eye(a.shape[-1], dtype=a.dtype, device=a.device), a.shape)
    result = xp.multiply(result, 1)  # a fresh array, not a view of eye
    base = a
    while n:
        if n & 1:
            result = xp.matmul(result, base)
        n >>= 1
        if n:
            base = xp.matmul(base, base)
    return result


__all__ = ["norm", "vector_norm", "matrix_norm", "matmul", "matrix_transpose", "vecdot",
           "outer", "trace", "diagonal", "matrix_power", "tensordot", "cross"]
