# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""NumPy's (and CuPy's) routines beyond the standard that compose from the
namespace's functions on the device, each with NumPy's signature and result:
math (fix, sinc, divmod, modf, nanprod, nancumsum), selection (select,
compress, extract, digitize, lexsort), shape (diagonal, hsplit, vsplit,
kron, pad), scatter (add_at: NumPy's add.at), sets (union1d, intersect1d,
setdiff1d, in1d) and statistics and signals (cov, corrcoef, convolve,
correlate). Functions of one element are rows of the C
table instead (fmod, gcd, lcm, heaviside, logaddexp2, cbrt)."""
from __future__ import annotations

import builtins as _b
import math
import operator
from typing import Any, Optional, Sequence

import numpy as np

from . import _namespace as ns
from ._array import Array, contiguous
from ._cupy import _arr, _as_float, _nan_filled, _segmented_sum, isin, split
from ._sets import searchsorted, unique


# ------------------------------------------------------------------ math
def fix(x: Any, out: Any = None) -> Array:
    """Rounded toward zero (NumPy 2's fix: integers keep their dtype)."""
    return ns._out(ns.trunc(_arr(x, "fix")), out, "fix", True)


def sinc(x: Any) -> Array:
    """sin(pi x) / (pi x), 1 at 0 (NumPy's sinc, the same formula: x = 0
    taken as 1e-20)."""
    a = _as_float(_arr(x, "sinc"))
    y = ns.multiply(ns.where(ns.equal(a, 0), ns.asarray(1e-20, dtype=a.dtype, device=a.device),
                             a), math.pi)
    return ns.divide(ns.sin(y), y)


def divmod(x1: Any, x2: Any) -> tuple:  # noqa: A001 (NumPy's name)
    """(floor_divide(x1, x2), remainder(x1, x2)) elementwise."""
    return ns.floor_divide(x1, x2), ns.remainder(x1, x2)


def modf(x: Any) -> tuple:
    """(fractional part, integral part), both with x's sign, as C's modf:
    modf(-3.5) = (-0.5, -3.0), modf(inf) = (0.0, inf)."""
    a = _as_float(_arr(x, "modf"))
    whole = ns.trunc(a)
    frac = ns.where(ns.isinf(a), ns.zeros_like(a), ns.subtract(a, whole))
    return ns.copysign(frac, a), whole


def nanprod(a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
            keepdims: bool = False) -> Array:
    """prod with NaNs taken as 1 (NumPy's arguments, out and keepdims by
    position too)."""
    return ns._out(ns.prod(_nan_filled(a, "nanprod", 1.0), axis=axis, dtype=dtype,
                           keepdims=keepdims), out, "nanprod")


def nancumsum(a: Any, axis: Optional[int] = None, dtype: Any = None) -> Array:
    """cumsum with NaNs taken as 0 (over the flattened a without axis)."""
    return ns.cumsum(_nan_filled(a, "nancumsum", 0.0), axis=axis, dtype=dtype)


# ------------------------------------------------------------- selection
def select(condlist: Sequence[Any], choicelist: Sequence[Any], default: Any = 0) -> Array:
    """Elementwise, the choice of the first true condition, else default
    (NumPy's select: one where per condition, from the last)."""
    if len(condlist) != len(choicelist):
        raise ValueError("accel.select: list of cases must be same length as list of conditions")
    if not condlist:
        raise ValueError("accel.select: select with an empty condition list is not possible")
    conds = [_arr(c, "select") for c in condlist]
    for c in conds:
        if c.dtype != np.bool_:
            raise TypeError(f"accel.select: a condition is {c.dtype}, not bool")
    choices = [_arr(c, "select") for c in choicelist]
    # NumPy 2's rule: a Python scalar default is weak (int8 choices stay int8)
    dt = np.result_type(*[c.dtype for c in choices],
                        default.dtype if isinstance(default, Array) else default)
    r = ns.astype(_arr(default, "select"), dt)
    for c, v in zip(reversed(conds), reversed(choices)):
        r = ns.where(c, ns.astype(v, dt, copy=False), r)
    return r


def compress(condition: Any, a: Any, axis: Optional[int] = None, out: Any = None) -> Array:
    """The slices of a (flattened without axis) where the 1-D condition is
    true (NumPy's compress: a condition shorter than the axis selects from
    its first elements; a true one past the end is IndexError)."""
    c = _arr(condition, "compress")
    if c.ndim != 1:
        raise ValueError("accel.compress: condition must be a 1-d array")
    x = _arr(a, "compress")
    if axis is None:
        x, ax = ns.reshape(x, (-1,)), 0
    else:
        ax = ns._axis(axis, x.ndim, "compress")
    (idx,) = ns.nonzero(ns.astype(c, np.bool_))
    if idx.size and int(ns.max(idx)) >= x.shape[ax]:
        raise IndexError(f"accel.compress: a true condition at {int(ns.max(idx))} is past the "
                         f"axis of length {x.shape[ax]}")
    return ns._out(ns.take(x, idx, axis=ax), out, "compress")


def extract(condition: Any, arr: Any) -> Array:
    """The elements of the flattened arr where the flattened condition is
    nonzero (NumPy's extract)."""
    c = ns.reshape(_arr(condition, "extract"), (-1,))
    x = ns.reshape(_arr(arr, "extract"), (-1,))
    (idx,) = ns.nonzero(c)
    return ns.take(x, idx)


def digitize(x: Any, bins: Any, right: bool = False) -> Array:
    """The index of the bin of each x in the monotonic 1-D bins (NumPy's
    digitize: searchsorted on the device, reversed for decreasing bins).
    Raises ValueError for bins that are not monotonic."""
    v, b = _arr(x, "digitize"), _arr(bins, "digitize")
    if b.ndim != 1:
        raise ValueError("accel.digitize: bins must be 1-dimensional")
    side = "left" if right else "right"
    if b.size < 2:
        return searchsorted(b, v, side=side)
    # Compared, not subtracted (integers would wrap); a NaN sorts last.
    lo, hi = b[:-1], b[1:]
    up, down = ns.greater_equal(hi, lo), ns.less_equal(hi, lo)
    if b.dtype.kind in "fc":
        up, down = ns.logical_or(up, ns.isnan(hi)), ns.logical_or(down, ns.isnan(lo))
    if bool(ns.all(up)):
        return searchsorted(b, v, side=side)
    if bool(ns.all(down)):
        return ns.subtract(b.size, searchsorted(ns.flip(b), v, side=side))
    raise ValueError("accel.digitize: bins must be monotonically increasing or decreasing")


def lexsort(keys: Any, axis: Any = -1) -> Array:
    """The int64 indices that sort along axis by the last key, then the one
    before, ... (NumPy's lexsort: a sequence of keys of one shape, or an
    array whose first axis holds them; 0-d keys give 0): one stable argsort
    per key, from the first to the last, each key taken in the order found
    so far. Raises TypeError (no keys, 0-d keys array, axis not an integer),
    ValueError (keys of different shapes), numpy.exceptions.AxisError (axis
    out of range)."""
    if isinstance(keys, Array):
        if keys.ndim == 0:
            raise TypeError("accel.lexsort: need sequence of keys with len > 0 in lexsort")
        ks = [keys[i] for i in range(keys.shape[0])]
    else:
        ks = [_arr(k, "lexsort") for k in keys]
    if not ks:
        raise TypeError("accel.lexsort: need sequence of keys with len > 0 in lexsort")
    if any(k.shape != ks[0].shape for k in ks):
        raise ValueError("accel.lexsort: all keys need to be the same shape")
    if isinstance(axis, bool):
        raise TypeError("accel.lexsort: axis must be an integer, not bool")
    try:
        ax = operator.index(axis)
    except TypeError:
        raise TypeError(f"accel.lexsort: axis must be an integer, not "
                        f"{type(axis).__name__}") from None
    nd = ks[0].ndim
    if nd == 0:
        return ns.asarray(0, dtype=np.int64, device=ks[0].device)
    if not -nd <= ax < nd:
        raise np.exceptions.AxisError(ax, nd, "accel.lexsort")
    idx = ns.argsort(ks[0], axis=ax, stable=True)
    for k in ks[1:]:
        order = ns.argsort(ns.take_along_axis(k, idx, axis=ax), axis=ax, stable=True)
        idx = ns.take_along_axis(idx, order, axis=ax)
    return idx


# ----------------------------------------------------------------- shape
def diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Array:
    """The diagonal offset of axes axis1 and axis2 as the last axis (NumPy's
    diagonal; a view)."""
    from . import linalg
    x = _arr(a, "diagonal")
    if x.ndim < 2:
        raise ValueError("accel.diagonal: diag requires an array of at least two dimensions")
    return linalg.diagonal(ns.moveaxis(x, (axis1, axis2), (-2, -1)), offset=offset)


def hsplit(ary: Any, indices_or_sections: Any) -> list:
    """split along axis 1 (axis 0 of a 1-D array), as NumPy's hsplit."""
    a = _arr(ary, "hsplit")
    if a.ndim == 0:
        raise ValueError("accel.hsplit: hsplit only works on arrays of 1 or more dimensions")
    return split(a, indices_or_sections, 1 if a.ndim > 1 else 0)


def vsplit(ary: Any, indices_or_sections: Any) -> list:
    """split along axis 0 of an array of at least 2 dimensions."""
    a = _arr(ary, "vsplit")
    if a.ndim < 2:
        raise ValueError("accel.vsplit: vsplit only works on arrays of 2 or more dimensions")
    return split(a, indices_or_sections, 0)


def kron(a: Any, b: Any) -> Array:
    """The Kronecker product: blocks a[i, j] * b (NumPy's kron, any
    dimensions: the shorter shape padded with leading 1s)."""
    x, y = _arr(a, "kron"), _arr(b, "kron")
    nd = _b.max(x.ndim, y.ndim)
    xs, ys = (1,) * (nd - x.ndim) + x.shape, (1,) * (nd - y.ndim) + y.shape
    xe = ns.reshape(x, tuple(d for s in xs for d in (s, 1)))
    ye = ns.reshape(y, tuple(d for s in ys for d in (1, s)))
    return ns.reshape(ns.multiply(xe, ye), tuple(p * q for p, q in zip(xs, ys)))


_PAD_MAX = 1 << 48  # elements along one axis: far past any memory


def _pad_constant(x: Array, w: np.ndarray, constant_values: Any) -> Array:
    """pad's constant mode: x in the middle of an array of the padded shape
    whose pads along axis i hold constant_values' (before, after) of axis i
    (a scalar, one pair, or a pair per axis), axis by axis as NumPy does, so
    a corner holds the later axis' value."""
    try:
        cv = np.broadcast_to(np.asarray(constant_values, dtype=object), (x.ndim, 2))
    except ValueError:
        raise ValueError(f"accel.pad: constant_values {constant_values!r} does not fit "
                         f"{x.ndim} axes (a scalar, (before, after), or one such pair per "
                         "axis)") from None
    shape = tuple(int(n + b + a) for n, (b, a) in zip(x.shape, w))
    out = ns.full(shape, cv[0][0] if x.ndim else 0, dtype=x.dtype, device=x.device)
    out[tuple(slice(int(b), int(b) + n) for n, (b, _) in zip(x.shape, w))] = x
    for ax, ((b, a), (vb, va)) in enumerate(zip(w, cv)):
        for lo, hi, v in ((0, int(b), vb), (shape[ax] - int(a), shape[ax], va)):
            if hi > lo:
                out[(slice(None),) * ax + (slice(lo, hi),)] = v
    return out


def pad(array: Any, pad_width: Any, mode: str = "constant", constant_values: Any = 0) -> Array:
    """NumPy's pad in modes constant, edge, reflect,
    symmetric and wrap. The source index of every output position along an
    axis is NumPy's own pad of arange(n) in that mode (a host array of ints),
    then one take per padded axis on the device; constant fills and copies
    the middle (constant_values: a scalar, (before, after), or a pair per
    axis). Raises ValueError (widths or constants that do not fit, an empty
    axis padded by edge, reflect, symmetric or wrap), NotImplementedError
    (other modes)."""
    x = _arr(array, "pad")
    pw = np.asarray(pad_width)
    if pw.dtype.kind not in "iu":
        raise TypeError(f"accel.pad: pad_width must be of integral type, not {pw.dtype}")
    try:
        w = np.broadcast_to(pw.astype(object), (x.ndim, 2))
    except ValueError:
        raise ValueError(f"accel.pad: pad_width {pad_width!r} does not fit {x.ndim} axes (an "
                         "int, (before, after), or one such pair per axis)") from None
    if (w < 0).any():
        raise ValueError("accel.pad: index can't contain negative values")
    if any(n + int(b) + int(a) > _PAD_MAX for n, (b, a) in zip(x.shape, w)):
        raise ValueError(f"accel.pad: pad_width {pad_width!r} makes an axis longer than "
                         f"{_PAD_MAX} elements")
    if mode == "constant":
        return _pad_constant(x, w, constant_values)
    if mode not in ("edge", "reflect", "symmetric", "wrap"):
        raise NotImplementedError(f"accel.pad: mode {mode!r} (constant, edge, reflect, "
                                  "symmetric or wrap)")
    r = x
    for ax, (b, a) in enumerate(w):
        if b == 0 and a == 0:
            continue
        if x.shape[ax] == 0:
            raise ValueError(f"accel.pad: can't extend empty axis {ax} using modes other than "
                             "'constant'")
        src = np.pad(np.arange(x.shape[ax]), (int(b), int(a)), mode=mode)
        r = ns.take(r, ns.asarray(src, device=x.device), axis=ax)
    return r


def add_at(a: Array, indices: Any, b: Any) -> None:
    """NumPy's ``add.at(a, indices, b)`` (CuPy's too): a[indices] += b in
    place, each repeated index adding again (unbuffered). indices: what
    a[indices] takes (ints, slices, an integer array or a mask). The target
    element of each selected position is read from the same indexing of an
    arange grid; the values are sorted by target, summed within runs in a's
    dtype (_segmented_sum, bincount's scan), and each run's sum added once.
    Raises what a[indices] raises, and ValueError for b that does not
    broadcast to a[indices]."""
    if not isinstance(a, Array):
        raise TypeError(f"accel.add.at: a must be an accel array, not {type(a).__name__}")
    grid = ns.reshape(ns.arange(a.size, dtype=np.int64, device=a.device), a.shape)
    where = grid[indices]
    t = ns.reshape(where, (-1,))
    if t.size == 0:
        return
    v = ns.astype(_arr(b, "add.at"), a.dtype, copy=False)
    v = ns.reshape(ns.broadcast_to(v, where.shape), (-1,))
    order = ns.argsort(t, stable=True)
    ts = ns.take(t, order)
    vs = _segmented_sum(ts, ns.take(v, order))
    last = ns.concat([ns.not_equal(ts[1:], ts[:-1]),
                      ns.ones((1,), dtype=np.bool_, device=a.device)])
    (ends,) = ns.nonzero(last)
    u, sums = ns.take(ts, ends), ns.take(vs, ends)
    c = contiguous(a)  # a copy where no flat view reaches a (a.T), stored back after
    flat = ns.reshape(c, (-1,), copy=False)
    flat[u] = ns.add(ns.take(flat, u), sums)
    if c is not a:
        a[...] = c


# ------------------------------------------------------------------ sets
def union1d(ar1: Any, ar2: Any) -> Array:
    """The sorted distinct values of both arrays, flattened."""
    x = ns.concat([ns.reshape(_arr(ar1, "union1d"), (-1,)),
                   ns.reshape(_arr(ar2, "union1d"), (-1,))])
    return unique(x) if x.size else x  # NumPy's unique: all NaNs one value


def intersect1d(ar1: Any, ar2: Any, assume_unique: bool = False,
                return_indices: bool = False) -> Any:
    """The sorted values in both arrays (NumPy's intersect1d, NaNs as one
    value); with return_indices also the indices of their first
    occurrences in the flattened ar1 and ar2 (int64), as NumPy's: the
    uniques' first indices carried through one stable sort of both."""
    a = ns.reshape(_arr(ar1, "intersect1d"), (-1,))
    b = ns.reshape(_arr(ar2, "intersect1d"), (-1,))
    ia = ns.arange(a.size, dtype=np.int64, device=a.device)
    ib = ns.arange(b.size, dtype=np.int64, device=b.device)
    if not assume_unique:
        if a.size:
            a, ia = unique(a, return_index=True)
        if b.size:
            b, ib = unique(b, return_index=True)
    both = ns.concat([a, b])
    order = ns.argsort(both, stable=True)
    aux = ns.take(both, order)
    if aux.size < 2:
        e = ns.zeros((0,), dtype=np.int64, device=aux.device)
        return (aux[:0], e, e) if return_indices else aux[:0]
    (idx,) = ns.nonzero(ns.equal(aux[1:], aux[:-1]))
    common = ns.take(aux, idx)
    if not return_indices:
        return common
    i1 = ns.take(ia, ns.take(order, idx))
    i2 = ns.take(ib, ns.subtract(ns.take(order, ns.add(idx, 1)), a.size))
    return common, i1, i2


def setdiff1d(ar1: Any, ar2: Any, assume_unique: bool = False) -> Array:
    """The sorted distinct values of ar1 not in ar2 (with assume_unique, ar1
    in its order; NumPy's unique: NaNs as one value)."""
    a = ns.reshape(_arr(ar1, "setdiff1d"), (-1,))
    if not assume_unique and a.size:
        a = unique(a)
    (idx,) = ns.nonzero(isin(a, ar2, invert=True))
    return ns.take(a, idx)


def in1d(ar1: Any, ar2: Any, assume_unique: bool = False, invert: bool = False) -> Array:
    """isin of the flattened ar1 (NumPy's and CuPy's older name);
    assume_unique is accepted and changes nothing (the search is the same)."""
    return ns.reshape(isin(ar1, ar2, invert=invert), (-1,))


# ----------------------------------------------------- statistics, signals
def cov(m: Any, y: Any = None, rowvar: bool = True, bias: bool = False,
        ddof: Optional[int] = None, dtype: Any = None) -> Array:
    """The covariance matrix of the variables (rows, or columns with
    rowvar=False) of m (and y): (X - mean) (X - mean)^H / (N - ddof), ddof
    1 (0 with bias), on the device (a GEMM); float64 for integer input."""
    x0 = _arr(m, "cov")
    if x0.ndim > 2:
        raise ValueError("accel.cov: m has more than 2 dimensions")
    yy = _arr(y, "cov") if y is not None else None
    # NumPy's: result_type(m, y, float64) unless dtype=; m's transpose
    # when rowvar is False and m is 2-D, y's when it has more than one row
    dt = np.dtype(dtype) if dtype is not None else np.result_type(
        x0.dtype, *([yy.dtype] if yy is not None else []), np.float64)
    x = ns.astype(ns.reshape(x0, (1, -1)) if x0.ndim < 2 else x0, dt)
    if not rowvar and x0.ndim != 1:
        x = ns.matrix_transpose(x)
    if yy is not None:
        yy = ns.astype(ns.reshape(yy, (1, -1)) if yy.ndim < 2 else yy, dt)
        if not rowvar and yy.shape[0] != 1:
            yy = ns.matrix_transpose(yy)
        x = ns.concat([x, yy], axis=0)
    n = x.shape[1]
    d = ddof if ddof is not None else (0 if bias else 1)
    xc = ns.subtract(x, ns.mean(x, axis=1, keepdims=True))
    xh = ns.conj(xc) if xc.dtype.kind == "c" else xc
    c = ns.divide(ns.matmul(xc, ns.matrix_transpose(xh)), _b.max(n - d, 0))
    return ns.reshape(c, ()) if c.shape == (1, 1) else c


def corrcoef(x: Any, y: Any = None, rowvar: bool = True, dtype: Any = None) -> Array:
    """Pearson correlation coefficients: cov / (std_i std_j), clipped to
    [-1, 1] for real input (NumPy's corrcoef)."""
    c = cov(x, y, rowvar=rowvar, dtype=dtype)
    if c.ndim == 0:
        return ns.divide(c, c)
    s = ns.sqrt(ns.real(diagonal(c)))
    c = ns.divide(ns.divide(c, s[:, None]), s[None, :])
    return c if c.dtype.kind == "c" else ns.clip(c, -1, 1)


def _conv_full(a: Array, v: Array) -> Array:
    """The full discrete convolution of 1-D a and v: one scaled add of a per
    element of the shorter v (its values read to the host)."""
    if a.size < v.size:
        a, v = v, a
    n, m = a.size, v.size
    dt = np.result_type(a.dtype, v.dtype)
    a = ns.astype(a, dt, copy=False)
    out = ns.zeros(n + m - 1, dtype=dt, device=a.device)
    for j, vj in enumerate(ns.astype(v, dt, copy=False).get().tolist()):
        out[j:j + n] = ns.add(out[j:j + n], ns.multiply(a, vj))  # 0 too: inf * 0 is NaN
    return out


def _conv_mode(full: Array, n: int, m: int, mode: str, fn: str) -> Array:
    if mode == "full":
        return full
    if mode == "same":
        k = _b.max(n, m)
        start = (_b.min(n, m) - 1) // 2
        return full[start:start + k]
    if mode == "valid":
        return full[_b.min(n, m) - 1:_b.max(n, m)]
    raise ValueError(f"accel.{fn}: mode {mode!r} (full, same or valid)")


def _conv_args(a: Any, v: Any, fn: str) -> tuple:
    """The two non-empty 1-D operands of convolve or correlate."""
    x, k = _arr(a, fn), _arr(v, fn)
    if x.ndim != 1 or k.ndim != 1:
        raise ValueError(f"accel.{fn}: object too deep for desired array (1-D only)")
    if x.size == 0 or k.size == 0:
        raise ValueError(f"accel.{fn}: {'v' if k.size == 0 else 'a'} cannot be empty")
    return x, k


def convolve(a: Any, v: Any, mode: str = "full") -> Array:
    """The discrete linear convolution of two 1-D arrays (NumPy's convolve:
    full, same or valid). Costs one device op per element of the shorter
    array: for long kernels use accel.fft."""
    x, k = _conv_args(a, v, "convolve")
    return _conv_mode(_conv_full(x, k), x.size, k.size, mode, "convolve")


def correlate(a: Any, v: Any, mode: str = "valid") -> Array:
    """The cross-correlation of two 1-D arrays, sum_n a[n + k] conj(v[n])
    (NumPy's correlate, mode valid by default): convolve(a, conj(v[::-1]),
    mode) when a is the longer, else the reversed conjugate of v's with a
    (which trims 'same' at NumPy's end)."""
    x, k = _conv_args(a, v, "correlate")
    if x.size < k.size:  # NumPy: the swapped pair's correlation, reversed and conjugated
        r = correlate(k, x, mode)
        return ns.flip(ns.conj(r) if r.dtype.kind == "c" else r)
    kr = ns.flip(k)
    if kr.dtype.kind == "c":
        kr = ns.conj(kr)
    return _conv_mode(_conv_full(x, kr), x.size, k.size, mode, "correlate")

