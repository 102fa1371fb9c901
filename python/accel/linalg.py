# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""accel.linalg: the Array API 2023.12 linalg extension (also the
namespace's ``linalg`` attribute: ``x.__array_namespace__().linalg``) and
NumPy's and CuPy's ``linalg.norm``.

- Factorizations and solvers, each one synchronous C call
  (accel_array_linalg_*, accel/array.h: LAPACK from OpenBLAS on the CPU,
  cuSOLVER on CUDA): cholesky, solve, inv, det, slogdet, qr, eigh,
  eigvalsh, svd, svdvals; and composed from them: matrix_rank and pinv
  (svd), matrix_power with n < 0 (inv), matrix norms of ord 2, -2, 'nuc'
  (svdvals).
- Composed from accel's array functions on the device: norm, vector_norm,
  matrix_norm, matmul, matrix_transpose, vecdot, outer, diagonal, trace,
  matrix_power, tensordot, cross.

Dtypes: float32, float64, complex64 and complex128 (LAPACK's s, d, c, z
routines); integer and bool arrays are made float64 first (as NumPy);
float16 raises DtypeMismatchError (a TypeError) in the factorizations,
while the norms take it (computed in float32 and given back as float16).
For complex input the results the Array API calls real (eigenvalues,
singular values, logabsdet, norms) are of the real dtype of the same
precision (float32 for complex64, float64 for complex128); the others
(factors, det, slogdet's sign, of modulus 1) are complex, and ^H (the
conjugate transpose) replaces ^T in the identities below (x = L L^H,
Q^H Q = I, x = U diag(S) Vh with Vh = V^H). The CUDA backend has no complex
linalg yet: those calls fall back to the CPU where the policy allows, else
raise UnsupportedError. Values that defeat a method (a singular matrix for solve and
inv, one not positive definite for cholesky, no convergence) raise
accel.LinAlgError, which is also numpy.linalg.LinAlgError. Nothing goes
through host memory except the counts that matrix_rank returns.
"""
from __future__ import annotations

import math
import numbers
import operator
from typing import Any, NamedTuple, Tuple, Union

from . import _aa_lib as C
from . import _lib as L
from . import array_api as xp
from ._array import _view
from ._lib import LinAlgError  # numpy.linalg.LinAlgError's place
from ._namespace import _check, _new, _q

Axis = Union[None, int, Tuple[int, ...]]

_INF = math.inf


# ----------------------------------------------------------- array types

def _array(x: Any, fn: str) -> Any:
    """x, checked to be an accel.Array (TypeError otherwise)."""
    if not isinstance(x, xp.Array):
        raise TypeError(f"accel.linalg.{fn}: x must be an accel array, not {type(x).__name__}")
    return x


# ----------------------------------------------------------------- norms

def _floating(x: Any) -> Any:
    """Integer and bool arrays as float64 (as NumPy's norm); complex ones
    as their magnitudes (the norms read only |x|); float16 as float32 (the
    array functions compute no float16 products; _half gives the result
    back as float16, NumPy's dtype)."""
    if x.dtype.kind == "c":
        return xp.abs(x)
    if x.dtype == xp.float16:
        return xp.astype(x, xp.float32)
    return x if x.dtype.kind == "f" else xp.astype(x, xp.float64)


def _half(x: Any, r: Any) -> Any:
    """The norm r in float16 when x was float16 (computed in float32)."""
    return xp.astype(r, xp.float16) if x.dtype == xp.float16 else r


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


def _max_abs(v: Any, axis: Any, keepdims: bool = False) -> Any:
    """max over axis of v >= 0 (absolute values, sums of them, singular
    values), 0 where axis is empty (NumPy 2's norms: max with initial 0);
    xp.max refuses an empty reduction."""
    axes = (axis,) if isinstance(axis, int) else range(v.ndim) if axis is None else axis
    if any(v.shape[a] == 0 for a in axes):
        return xp.sum(v, axis=axis, keepdims=keepdims)  # zeros of the result's shape
    return xp.max(v, axis=axis, keepdims=keepdims)


def _vector(x: Any, ord: Any, axes: Tuple[int, ...], keepdims: bool, fn: str) -> Any:
    """The vector norm of x over axes (already floating)."""
    if isinstance(ord, str) or isinstance(ord, bool) or not isinstance(ord, numbers.Real):
        raise ValueError(f"accel.linalg.{fn}: invalid norm order {ord!r} for vectors")
    kw = {"axis": axes, "keepdims": keepdims}
    if ord == 0:
        nz = xp.astype(xp.not_equal(x, 0), x.dtype)
        return xp.sum(nz, **kw)
    if ord == _INF:
        return _max_abs(xp.abs(x), **kw)
    if ord == -_INF:
        return xp.min(xp.abs(x), **kw)
    if ord == 1:
        return xp.sum(xp.abs(x), **kw)
    if ord == 2:
        return xp.sqrt(xp.sum(xp.multiply(x, x), **kw))
    p = float(ord)
    s = xp.sum(xp.pow(xp.abs(x), p), **kw)
    return xp.pow(s, 1.0 / p)


def _matrix(x: Any, ord: Any, axes: Tuple[int, int], keepdims: bool, fn: str,
            orig: Any = None) -> Any:
    """The matrix norm of x over axes (row, col) (already floating: |x| of
    a complex input, which is `orig`)."""
    r, c = axes
    if ord in ("fro", None):
        res = xp.sqrt(xp.sum(xp.multiply(x, x), axis=axes))
    elif ord in (1, -1, _INF, -_INF) and not isinstance(ord, bool):
        red = _max_abs if ord > 0 else xp.min
        # 1: the largest column sum (sum over rows); inf: the largest row sum.
        s_ax, m_ax = (r, c) if abs(ord) == 1 else (c, r)
        sums = xp.sum(xp.abs(x), axis=s_ax)
        res = red(sums, axis=m_ax - 1 if m_ax > s_ax else m_ax)
    elif ord in (2, -2, "nuc") and not isinstance(ord, bool):
        # the singular values of x itself (complex: not those of |x|)
        s = svdvals(xp.moveaxis(x if orig is None else orig, (r, c), (-2, -1)))
        red = {2: _max_abs, -2: xp.min, "nuc": xp.sum}[ord]
        res = red(s, axis=-1)
    else:
        raise ValueError(f"accel.linalg.{fn}: invalid norm order {ord!r} for matrices")
    if keepdims:
        res = xp.expand_dims(xp.expand_dims(res, axis=min(axes)), axis=max(axes))
    return res


def norm(x: Any, ord: Any = None, axis: Axis = None, keepdims: bool = False) -> Any:
    """The norm of x as numpy.linalg.norm and cupy.linalg.norm define it, on
    the device.

    x: an accel array (accel.Array or accel.array_api.Array), float32 or
    float64 (integer and bool arrays are first made float64, as NumPy;
    complex ones are read as |x|, except for matrix ord 2, -2, 'nuc', which
    take the singular values of x itself).
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
    Matrix ord 2 / -2 (largest / smallest singular value) and 'nuc' (their
    sum) come from svdvals (LAPACK's gesvd).
    Raises ValueError (an invalid ord for vectors or matrices, a bad axis,
    ord with axis None on a 3-d or larger x), TypeError (not an accel array)."""
    a = _array(x, "norm")
    a = _floating(a)
    if axis is None:
        if ord is None:
            axes = tuple(range(a.ndim))
            r = _vector(a, 2, axes, keepdims, "norm")
            return _half(x, r)
        if a.ndim not in (1, 2):
            raise ValueError(f"accel.linalg.norm: x is {a.ndim}-d; with ord and no axis it "
                             "must be 1-d or 2-d")
        axis = tuple(range(a.ndim))
    axes = _axes(axis, a.ndim, "norm")
    if len(axes) == 1:
        r = _vector(a, 2 if ord is None else ord, axes, keepdims, "norm")
    elif len(axes) == 2:
        r = _matrix(a, ord, (axes[0], axes[1]), keepdims, "norm",
                    x if x.dtype.kind == "c" else None)
    else:
        raise ValueError(f"accel.linalg.norm: axis {axis} names {len(axes)} axes (1 or 2)")
    return _half(x, r)


def vector_norm(x: Any, /, *, axis: Axis = None, keepdims: bool = False,
                ord: Union[int, float] = 2) -> Any:
    """The Array API's vector_norm: the `ord` norm of x over `axis` (None:
    all axes, as one vector; an int or a tuple of axes), on the device.
    ord: 1, 2, inf, -inf, 0 or any other real p (see :func:`norm`).
    Returns x's float dtype; integer x is made float64 first. Raises
    ValueError for a string ord or a bad axis, TypeError for a non-array."""
    a = _array(x, "vector_norm")
    a = _floating(a)
    return _half(x, _vector(a, ord, _axes(axis, a.ndim, "vector_norm"), keepdims,
                            "vector_norm"))


def matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Any:
    """The Array API's matrix_norm over the last two axes of x (ndim >= 2),
    batched over the others, on the device. ord: 'fro', 1, -1, inf, -inf (see
    :func:`norm`), 2, -2, 'nuc' (from svdvals). Raises ValueError for x of
    fewer than 2 dimensions or another ord."""
    a = _array(x, "matrix_norm")
    if a.ndim < 2:
        raise ValueError(f"accel.linalg.matrix_norm: x is {a.ndim}-d (at least 2-d)")
    a = _floating(a)
    return _half(x, _matrix(a, ord, (a.ndim - 2, a.ndim - 1), keepdims, "matrix_norm",
                            x if x.dtype.kind == "c" else None))


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
    try:  # a Python int: a NumPy integer's own arithmetic would wrap
        offset = int(operator.index(offset))
    except TypeError:
        raise TypeError(f"accel.linalg.diagonal: offset {offset!r} is not an integer") from None
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
    # the free sizes by product, not -1 (which cannot be inferred when k is 0)
    ma = math.prod(a.shape[i] for i in free_a)
    nb = math.prod(b.shape[j] for j in free_b)
    am = xp.reshape(xp.permute_dims(a, tuple(free_a) + ax_a), (ma, k))
    bm = xp.reshape(xp.permute_dims(b, ax_b + tuple(free_b)), (k, nb))
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
    ValueError for a non-square x, TypeError for a non-integer n; n < 0 is
    the power -n of inv(x) (LinAlgError for a singular x)."""
    a = _array(x, "matrix_power")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"accel.linalg.matrix_power: x of shape {a.shape} is not square")
    if not isinstance(n, numbers.Integral) or isinstance(n, bool):
        raise TypeError(f"accel.linalg.matrix_power: n = {n!r} is not an integer")
    if n < 0:
        a, n = inv(a), -n
    if n == 0:
        result = xp.broadcast_to(xp.eye(a.shape[-1], dtype=a.dtype, device=a.device), a.shape)
        return xp.multiply(result, 1)  # a fresh array, not a view of eye
    # The first power taken is a's own (NumPy's order), never I @ a: 0 * inf
    # and 0 * nan there spread NaN over a finite entry (a helper's find).
    result, base = None, a
    while n:
        if n & 1:
            result = base if result is None else xp.matmul(result, base)
        n >>= 1
        if n:
            base = xp.matmul(base, base)
    return result if result is not a else xp.multiply(a, 1)


# -------------------------------------------------- factorizations (LAPACK)

class EighResult(NamedTuple):
    eigenvalues: Any
    eigenvectors: Any


class QRResult(NamedTuple):
    Q: Any
    R: Any


class SlogdetResult(NamedTuple):
    sign: Any
    logabsdet: Any


class SVDResult(NamedTuple):
    U: Any
    S: Any
    Vh: Any


def _lapack_dtype(a: Any, fn: str) -> Any:
    """a as float32, float64, complex64 or complex128: integers and bool as
    float64 (NumPy's rule); DtypeMismatchError (TypeError) for float16."""
    if a.dtype.kind in "biu":
        return xp.astype(a, xp.float64)
    if a.dtype not in (xp.float32, xp.float64, xp.complex64, xp.complex128):
        raise L.error("ACCEL_ERROR_DTYPE_MISMATCH",
                      f"accel.linalg.{fn}: x is {a.dtype}; accel's linalg takes float32, "
                      "float64, complex64 and complex128 (integer and bool arrays as float64)")
    return a


def _real(dt: Any) -> Any:
    """The real dtype of dt's precision (float32 for complex64, float64 for
    complex128; a real dt itself): eigenvalues', singular values' and
    logabsdet's dtype."""
    return xp.float32 if dt == xp.complex64 else xp.float64 if dt == xp.complex128 else dt


def _matrices(x: Any, fn: str, square: bool = True) -> Any:
    """x checked to be an accel array of matrices (ndim >= 2, square when
    asked: ShapeMismatchError, a ValueError) in a LAPACK dtype."""
    a = _array(x, fn)
    if a.ndim < 2:
        raise L.error("ACCEL_ERROR_SHAPE_MISMATCH",
                      f"accel.linalg.{fn}: x is {a.ndim}-d; it needs matrices (at least 2-d)")
    if square and a.shape[-1] != a.shape[-2]:
        raise L.error("ACCEL_ERROR_SHAPE_MISMATCH",
                      f"accel.linalg.{fn}: the matrices of x {a.shape} are not square")
    return _lapack_dtype(a, fn)


def _lapack(cfn: Any, a: Any, shapes: Tuple[Tuple[int, ...], ...], *args: Any,
            real: Tuple[int, ...] = ()) -> list:
    """Fresh outputs of a's dtype (those at the indices `real`: its real
    dtype) and the given shapes, filled by one C call cfn(q, a, *args,
    *outputs); returns the outputs."""
    outs = [_new(sh, _real(a.dtype) if i in real else a.dtype, a.device)
            for i, sh in enumerate(shapes)]
    _check(cfn(_q(a, *outs), a._cv(), *args, *(o._cv() for o in outs)))
    return outs


def cholesky(x: Any, /, *, upper: bool = False) -> Any:
    """The Cholesky factor of the symmetric (complex: Hermitian)
    positive-definite matrices of x (..., n, n): L lower triangular with x =
    L @ L.T (complex: L @ L^H), or with upper=True U = L.T (complex: L^H; x
    = U^H @ U); only x's lower triangle is read (LAPACK potrf). Returns x's
    shape and dtype. Raises LinAlgError for a matrix that is not positive
    definite or holds NaN in its lower triangle (NumPy's LAPACK carries on
    past a NaN; the message names the flat batch index), ShapeMismatchError
    (ValueError) for a non-square x, DtypeMismatchError (TypeError) for
    float16 x."""
    a = _matrices(x, "cholesky")
    return _lapack(C.linalg_cholesky, a, (a.shape,), int(bool(upper)))[0]


def inv(x: Any, /) -> Any:
    """The inverses of the square matrices of x (..., n, n), by LU with
    partial pivoting (getrf, getrs against the identity). Raises
    LinAlgError for a singular matrix (an exactly zero pivot),
    ShapeMismatchError (ValueError), DtypeMismatchError (TypeError)."""
    a = _matrices(x, "inv")
    return _lapack(C.linalg_inv, a, (a.shape,))[0]


def det(x: Any, /) -> Any:
    """The determinants of the square matrices of x (..., n, n): shape
    x.shape[:-2], x's dtype (complex for complex x); from LU (getrf). A singular matrix gives
    0 (no error); large ones may overflow to +-inf (use slogdet). Raises
    ShapeMismatchError (ValueError), DtypeMismatchError (TypeError)."""
    a = _matrices(x, "det")
    return _lapack(C.linalg_det, a, (a.shape[:-2],))[0]


def slogdet(x: Any, /) -> SlogdetResult:
    """SlogdetResult(sign, logabsdet) of the square matrices of x: det =
    sign * exp(logabsdet), each of shape x.shape[:-2]; sign of x's dtype
    (complex x: det / |det|, of modulus 1), logabsdet of its real dtype;
    from LU (getrf); a singular matrix gives sign 0, logabsdet -inf.
    Raises ShapeMismatchError (ValueError), DtypeMismatchError (TypeError)."""
    a = _matrices(x, "slogdet")
    sign, logabs = _lapack(C.linalg_slogdet, a, (a.shape[:-2], a.shape[:-2]), real=(1,))
    return SlogdetResult(sign, logabs)


def solve(x1: Any, x2: Any, /) -> Any:
    """X with x1 @ X == x2, by LU with partial pivoting (getrf, getrs).
    x1 (..., n, n); x2 a vector (n,) (result: x1.shape[:-1]) or matrices
    (..., n, k) whose batch axes broadcast with x1's (result: the broadcast
    batch + (n, k)), as the Array API 2023.12 and NumPy 2 read x2. A NaN
    anywhere in a matrix of x1 makes all of its X NaN (NumPy's LAPACK
    leaves some finite, though each depends on every value of x1). The
    dtypes promote (integers to float64, real with complex to complex).
    Raises LinAlgError for a singular x1, ShapeMismatchError (ValueError)
    for shapes that do not agree, DtypeMismatchError (TypeError) for
    float16."""
    a = _matrices(x1, "solve")
    b = _array(x2, "solve")
    if b.ndim == 0:
        raise L.error("ACCEL_ERROR_SHAPE_MISMATCH", "accel.linalg.solve: x2 is 0-d")
    dt = xp.result_type(a.dtype, b.dtype)
    a, b = _lapack_dtype(xp.astype(a, dt, copy=False), "solve"), \
        _lapack_dtype(xp.astype(b, dt, copy=False), "solve")
    n = a.shape[-1]
    if b.shape[-1 if b.ndim == 1 else -2] != n:
        raise L.error("ACCEL_ERROR_SHAPE_MISMATCH",
                      f"accel.linalg.solve: x1 {a.shape} and x2 {b.shape} do not agree")
    if b.ndim == 1:
        shape = a.shape[:-1]
    else:
        shape = _broadcast(a.shape[:-2], b.shape[:-2], "solve") + b.shape[-2:]
    out = _new(shape, a.dtype, a.device)
    _check(C.linalg_solve(_q(a, b, out), a._cv(), b._cv(), out._cv()))
    return out


def _broadcast(s1: Tuple[int, ...], s2: Tuple[int, ...], fn: str) -> Tuple[int, ...]:
    """The broadcast of two batch shapes (ShapeMismatchError if none)."""
    n = max(len(s1), len(s2))
    p1, p2 = (1,) * (n - len(s1)) + tuple(s1), (1,) * (n - len(s2)) + tuple(s2)
    if any(u != v and 1 not in (u, v) for u, v in zip(p1, p2)):
        raise L.error("ACCEL_ERROR_SHAPE_MISMATCH",
                      f"accel.linalg.{fn}: batch shapes {s1} and {s2} do not broadcast")
    return tuple(v if u == 1 else u for u, v in zip(p1, p2))


def qr(x: Any, /, *, mode: str = "reduced") -> Any:
    """QRResult(Q, R) with x = Q @ R, Q's columns orthonormal (complex:
    unitary, Q^H Q = I) and R upper triangular (Householder: geqrf, orgqr;
    complex: ungqr), for x (..., m, n), k = min(m,
    n): mode 'reduced' Q (..., m, k), R (..., k, n); 'complete' Q (..., m,
    m), R (..., m, n); 'r' (NumPy's and CuPy's) R alone, reduced. R's
    diagonal has LAPACK's signs (not made positive), as NumPy. Raises
    ValueError for another mode, DtypeMismatchError (TypeError)."""
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"accel.linalg.qr: mode {mode!r} is not 'reduced', 'complete' or 'r'")
    a = _matrices(x, "qr", square=False)
    m, n = a.shape[-2:]
    k = m if mode == "complete" else min(m, n)
    b = a.shape[:-2]
    q_out, r_out = _lapack(C.linalg_qr, a, (b + (m, k), b + (k, n)), int(mode == "complete"))
    return r_out if mode == "r" else QRResult(q_out, r_out)


def eigh(x: Any, /) -> EighResult:
    """EighResult(eigenvalues, eigenvectors) of the symmetric (complex:
    Hermitian) matrices of x (..., n, n): values (..., n) ascending, of x's
    real dtype, orthonormal (unitary) vectors in the columns of (..., n, n),
    x's dtype (syevd, heevd; only x's lower triangle is read, as NumPy's
    default UPLO='L'). Raises LinAlgError (no convergence),
    ShapeMismatchError (ValueError), DtypeMismatchError (TypeError)."""
    a = _matrices(x, "eigh")
    w, v = _lapack(C.linalg_eigh, a, (a.shape[:-1], a.shape), real=(0,))
    return EighResult(w, v)


def eigvalsh(x: Any, /) -> Any:
    """The eigenvalues (..., n), ascending, of the symmetric (Hermitian)
    matrices of x (as eigh, without the vectors; x's real dtype)."""
    a = _matrices(x, "eigvalsh")
    return _lapack(C.linalg_eigvalsh, a, (a.shape[:-1],), real=(0,))[0]


def svd(x: Any, /, full_matrices: bool = True, compute_uv: bool = True) -> Any:
    """SVDResult(U, S, Vh) with x = U @ (S[..., None] * Vh) (gesvd), for x
    (..., m, n), k = min(m, n): S (..., k) descending, x's real dtype (U and
    Vh x's dtype; complex: Vh = V^H); full_matrices True: U
    (..., m, m), Vh (..., n, n); False: U (..., m, k), Vh (..., k, n).
    compute_uv=False (NumPy's and CuPy's) returns S alone (svdvals). The
    signs of singular vectors are LAPACK's. Raises LinAlgError (no
    convergence), DtypeMismatchError (TypeError)."""
    if not compute_uv:
        return svdvals(x)
    a = _matrices(x, "svd", square=False)
    m, n = a.shape[-2:]
    k = min(m, n)
    b = a.shape[:-2]
    shapes = (b + ((m, m) if full_matrices else (m, k)), b + (k,),
              b + ((n, n) if full_matrices else (k, n)))
    u = _new(shapes[0], a.dtype, a.device)
    s = _new(shapes[1], _real(a.dtype), a.device)
    vh = _new(shapes[2], a.dtype, a.device)
    _check(C.linalg_svd(_q(a, u, s, vh), a._cv(), int(bool(full_matrices)), u._cv(), s._cv(),
                        vh._cv()))
    return SVDResult(u, s, vh)


def svdvals(x: Any, /) -> Any:
    """The singular values (..., min(m, n)), descending, of the matrices of
    x (..., m, n) (gesvd without vectors), of x's real dtype."""
    a = _matrices(x, "svdvals", square=False)
    return _lapack(C.linalg_svdvals, a, (a.shape[:-2] + (min(a.shape[-2:]),),), real=(0,))[0]


def _rtol(a: Any, rtol: Any) -> Any:
    """The Array API's default rtol, max(m, n) * eps of a's dtype, or rtol
    (a float, or an array broadcasting against the batch) as an array of
    shape batch + (1,)."""
    if rtol is None:
        return max(a.shape[-2:]) * float(xp.finfo(_real(a.dtype)).eps)
    if isinstance(rtol, xp.Array):
        return xp.expand_dims(xp.astype(rtol, _real(a.dtype)), axis=-1)
    return float(rtol)


def matrix_rank(x: Any, /, *, rtol: Any = None) -> Any:
    """The number of singular values of each matrix of x (..., m, n) above
    rtol times the largest (rtol default: max(m, n) * eps of x's dtype, the
    Array API's; a float or an array broadcasting against the batch):
    int64 of shape x.shape[:-2], on the device (from svdvals)."""
    a = _matrices(x, "matrix_rank", square=False)
    s = svdvals(a)
    if s.shape[-1] == 0:
        return xp.zeros(a.shape[:-2], dtype=xp.int64, device=a.device)
    tol = xp.multiply(xp.max(s, axis=-1, keepdims=True), _rtol(a, rtol))
    return xp.sum(xp.astype(xp.greater(s, tol), xp.int64), axis=-1)


def pinv(x: Any, /, *, rtol: Any = None) -> Any:
    """The Moore-Penrose pseudo-inverse (..., n, m) of the matrices of x
    (..., m, n), from the reduced svd: V diag(1/S) U^H (complex: conjugate
    transposes), singular values at most rtol times the largest (rtol as
    matrix_rank's) taken as zero. x's dtype."""
    a = _matrices(x, "pinv", square=False)
    m, n = a.shape[-2:]
    if min(m, n) == 0:
        return xp.zeros(a.shape[:-2] + (n, m), dtype=a.dtype, device=a.device)
    u, s, vh = svd(a, full_matrices=False)
    return _pinv_of_svd(u, s, vh, _rtol(a, rtol))[0]


def _pinv_of_svd(u: Any, s: Any, vh: Any, rtol: Any) -> tuple:
    """From the reduced SVD of a (..., m, n): the pseudo-inverse V
    diag(1/S) U^H (..., n, m) with singular values at most rtol times the
    largest taken as zero, and which ones were kept (bool, s's shape)."""
    keep = xp.greater(s, xp.multiply(xp.max(s, axis=-1, keepdims=True), rtol))
    s_inv = xp.where(keep, xp.divide(1.0, xp.where(keep, s, 1.0)), 0.0)
    if u.dtype.kind == "c":
        u, vh, s_inv = xp.conj(u), xp.conj(vh), xp.astype(s_inv, u.dtype)
    return xp.matmul(xp.matrix_transpose(vh),
                     xp.multiply(s_inv[..., None], xp.matrix_transpose(u))), keep


def lstsq(a: Any, b: Any, rcond: Any = None) -> tuple:
    """NumPy's lstsq: x minimizing ||b - a x||_2 for a (m, n) and b (m,) or
    (m, k), from the reduced SVD (x = pinv(a) b = V diag(1/s) U^H b,
    singular values at most rcond times the largest taken as zero; rcond
    default max(m, n) * eps, NumPy's; rcond < 0 machine eps, LAPACK's).
    Returns (x, residuals, rank, s): residuals the squared norms of b - a x
    per column when rank == n < m (of b when n == 0 < m), else an empty
    array, as NumPy; rank an int; s the singular values. Integers solve in
    float64. On the device (svd, matmul). Raises InvalidArgumentError (a not
    2-d), ShapeMismatchError (b's first axis not a's), LinAlgError (NaN or
    infinity in a, svd's)."""
    am = _matrices(a, "lstsq", square=False)
    if am.ndim != 2:
        raise L.error("ACCEL_ERROR_INVALID_ARGUMENT",
                      f"accel.linalg.lstsq: a is {am.ndim}-d (2-d, as NumPy)")
    bm = b if isinstance(b, xp.Array) else xp.asarray(b, device=am.device)
    vec = bm.ndim == 1
    b2 = xp.reshape(bm, (-1, 1)) if vec else bm
    m, n = am.shape
    if b2.ndim != 2 or b2.shape[0] != m:
        raise L.error("ACCEL_ERROR_SHAPE_MISMATCH",
                      f"accel.linalg.lstsq: b {bm.shape} for a {am.shape} (its first axis "
                      f"must be {m})")
    dt = xp.result_type(am.dtype, b2.dtype)
    dt = xp.float64 if dt.kind in "biu" else dt  # NumPy's: integers solve in float64
    am, b2 = xp.astype(am, dt), xp.astype(b2, dt)
    if min(m, n) == 0:
        x = xp.zeros((n, b2.shape[1]), dtype=dt, device=am.device)
        # NumPy: with n == 0 < m the residuals are the squared norms of b
        bb = xp.real(xp.multiply(xp.conj(b2), b2)) if dt.kind == "c" else xp.multiply(b2, b2)
        res = (xp.sum(bb, axis=0) if n == 0 and m > 0
               else xp.zeros((0,), dtype=_real(dt), device=am.device))
        return (x[:, 0] if vec else x, res, 0, xp.zeros((0,), dtype=_real(dt), device=am.device))
    u, s, vh = svd(am, full_matrices=False)
    eps = float(xp.finfo(_real(dt)).eps)
    rc = max(m, n) * eps if rcond is None else float(rcond)
    pinv_a, keep = _pinv_of_svd(u, s, vh, eps if rc < 0 else rc)  # LAPACK: rcond < 0 is eps
    rank = int(xp.sum(xp.astype(keep, xp.int64)))
    x = xp.matmul(pinv_a, b2)
    if rank == n and m > n:
        r = xp.subtract(b2, xp.matmul(am, x))
        r = xp.real(xp.multiply(xp.conj(r), r)) if dt.kind == "c" else xp.multiply(r, r)
        res = xp.sum(r, axis=0)
    else:
        res = xp.zeros((0,), dtype=_real(dt), device=am.device)
    return (x[:, 0] if vec else x), res, rank, s


__all__ = ["norm", "vector_norm", "matrix_norm", "matmul", "matrix_transpose", "vecdot",
           "outer", "trace", "diagonal", "matrix_power", "tensordot", "cross", "cholesky",
           "det", "eigh", "eigvalsh", "inv", "matrix_rank", "pinv", "qr", "slogdet", "solve",
           "svd", "svdvals", "lstsq", "EighResult", "QRResult", "SlogdetResult", "SVDResult",
           "LinAlgError"]
