# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""CuPy's (and NumPy's) names that the standard lacks and that compose from
the namespace's functions on the device: get_array_module, isclose,
allclose, and the joining, splitting, diagonal, difference, counting and
cleaning functions a CuPy program reaches for (concatenate, hstack, vstack,
split, array_split, copy, ascontiguousarray, asfortranarray, array_equal, identity, diag,
trace, outer, diff, count_nonzero, argwhere, nan_to_num, nansum, around,
logspace, argpartition, cross, median, quantile, percentile, einsum, bincount,
histogram). Each
follows NumPy's signature and result."""
from __future__ import annotations

from types import ModuleType
import builtins as _b
import operator
from typing import Any, Optional, Sequence, Union

import numpy as np

from . import _namespace as ns
from ._array import Array
from ._lib import error

Scalar = Union[int, float]


def get_array_module(*args: Any) -> ModuleType:
    """accel when any argument is an accel Array, else numpy (as
    cupy.get_array_module), for code that serves both."""
    import accel
    for a in args:
        if isinstance(a, Array):
            return accel
    return np


def isclose(a: Union[Array, Scalar], b: Union[Array, Scalar], rtol: float = 1e-05,
            atol: float = 1e-08, equal_nan: bool = False) -> Array:
    """Elementwise ``|a - b| <= atol + rtol * |b|`` (NumPy's isclose) as a
    bool array, computed on the device in the operands' promoted float
    dtype (integers as float64): equal values (infinities too) are close,
    NaN only to NaN with equal_nan. a and b broadcast; one may be a Python
    scalar. Raises TypeError when neither is an accel array, ValueError
    for shapes that do not broadcast."""
    x = a if isinstance(a, Array) else b
    if not isinstance(x, Array):
        raise TypeError("accel.isclose: at least one operand must be an accel.Array")
    fa = a if isinstance(a, Array) else ns.asarray(a, device=x.device)
    fb = b if isinstance(b, Array) else ns.asarray(b, device=x.device)
    dt = ns.result_type(fa, fb)
    if dt.kind not in "fc":
        dt = ns.float64
    fa, fb = ns.astype(fa, dt, copy=False), ns.astype(fb, dt, copy=False)
    close = ns.less_equal(ns.abs(ns.subtract(fa, fb)),
                          ns.add(ns.multiply(ns.abs(fb), float(rtol)), float(atol)))
    finite = ns.logical_and(ns.isfinite(fa), ns.isfinite(fb))
    r = ns.logical_or(ns.equal(fa, fb), ns.logical_and(close, finite))
    if equal_nan:
        r = ns.logical_or(r, ns.logical_and(ns.isnan(fa), ns.isnan(fb)))
    return r


def allclose(a: Union[Array, Scalar], b: Union[Array, Scalar], rtol: float = 1e-05,
             atol: float = 1e-08, equal_nan: bool = False) -> bool:
    """True when every element of a and b is close (:func:`isclose`); waits
    for the result. An empty array is all close."""
    return bool(ns.all(isclose(a, b, rtol, atol, equal_nan)))


def _arr(x: Any, fn: str) -> Array:
    if isinstance(x, Array):
        return x
    if isinstance(x, (list, tuple, int, float, complex, np.ndarray, np.generic)):
        return ns.asarray(x)
    raise TypeError(f"accel.{fn}: an accel array or array-like, not {type(x).__name__}")


def copyto(dst: Array, src: Any, casting: str = "same_kind", where: Any = True) -> None:
    """dst[...] = src, broadcast, as NumPy's and CuPy's copyto: src converted
    to dst's dtype where `casting` allows ("no", "equiv", "safe",
    "same_kind", "unsafe"; NumPy's rules, a Python scalar by its value as
    NumPy 2), else DtypeMismatchError (a TypeError); `where` (a bool array
    or scalar, broadcast) picks the elements written. Raises
    ShapeMismatchError when src does not broadcast to dst."""
    if not isinstance(dst, Array):
        raise TypeError(f"accel.copyto: dst is an accel array, not {type(dst).__name__}")
    if casting not in ("no", "equiv", "safe", "same_kind", "unsafe"):
        raise ValueError(f"accel.copyto: casting {casting!r} is none of 'no', 'equiv', 'safe', "
                         "'same_kind', 'unsafe'")
    if not isinstance(src, Array) and np.ndim(src):
        src = ns.asarray(src, device=dst.device)  # an array-like: NumPy's dtype for it
    if isinstance(src, Array):
        ok = np.can_cast(src.dtype, dst.dtype, casting)
    else:
        try:  # NumPy decides for a scalar (NEP 50's value rules)
            np.copyto(np.empty(0, dst.dtype), src, casting=casting)
            ok = True
        except TypeError:
            ok = False
    if not ok:
        from_dt = src.dtype if isinstance(src, Array) else type(src).__name__
        raise error("ACCEL_ERROR_DTYPE_MISMATCH",
                    f"accel.copyto: cannot cast {from_dt} to {dst.dtype} under casting="
                    f"{casting!r} (NumPy's rule; pass casting='unsafe' to convert anyway)")
    if where is True or where is None:  # NumPy's default, CuPy's
        ns.copyto(dst, src)
        return
    w = _arr(where, "copyto")
    if w.dtype != np.bool_:
        raise TypeError(f"accel.copyto: where is a bool array, not {w.dtype}")
    s = src if isinstance(src, Array) else ns.asarray(src, device=dst.device)
    ns.copyto(dst, ns.where(w, ns.astype(s, dst.dtype) if s.dtype != dst.dtype else s, dst))


def concatenate(arrays: Sequence[Any], axis: Optional[int] = 0, out: Any = None,
                dtype: Any = None) -> Array:
    """NumPy's concatenate: the arrays joined along axis (None: flattened
    first), converted to dtype when given (concat)."""
    r = ns.concat([_arr(a, "concatenate") for a in arrays], axis=axis)
    if dtype is not None:
        r = ns.astype(r, dtype, copy=False)
    if out is not None:
        ns.copyto(out, r)
        return out
    return r


def hstack(tup: Sequence[Any]) -> Array:
    """Joined along axis 1 (axis 0 for 1-D arrays), as NumPy's hstack."""
    arrs = [ns.reshape(a, (1,)) if a.ndim == 0 else a for a in (_arr(t, "hstack") for t in tup)]
    return ns.concat(arrs, axis=0 if arrs and arrs[0].ndim == 1 else 1)


def vstack(tup: Sequence[Any]) -> Array:
    """Joined along axis 0, 1-D arrays as rows (NumPy's vstack)."""
    arrs = [_arr(t, "vstack") for t in tup]
    return ns.concat([ns.reshape(a, (1, -1)) if a.ndim < 2 else a for a in arrs], axis=0)


def array_split(ary: Array, indices_or_sections: Any, axis: int = 0) -> list:
    """Views of ary split along axis at the given indices, or into that
    many near-equal parts (the first ones one longer), as NumPy's."""
    a = _arr(ary, "array_split")
    ax = ns._axis(axis, a.ndim, "array_split")
    n = a.shape[ax]
    if isinstance(indices_or_sections, (int, np.integer)):
        k = operator.index(indices_or_sections)
        if not 0 < k <= _MAX_PARTS:
            raise ValueError(f"accel.array_split: {k} sections (1 to {_MAX_PARTS})")
        q, r = divmod(n, k)
        cuts = [i * q + _b.min(i, r) for i in range(1, k)]
    else:
        cuts = [operator.index(i) for i in indices_or_sections]
    bounds = [0] + cuts + [n]
    head = (slice(None),) * ax
    # Python's slicing of each [lo:hi], as NumPy (negative cuts count from the end)
    return [a[head + (slice(lo, hi),)] for lo, hi in zip(bounds, bounds[1:])]


_MAX_PARTS = 1 << 24  # more sections than this would be a list nobody can hold


def split(ary: Array, indices_or_sections: Any, axis: int = 0) -> list:
    """array_split, but a number of sections must divide the axis (NumPy's
    ValueError otherwise)."""
    a = _arr(ary, "split")
    if isinstance(indices_or_sections, (int, np.integer)):
        n = a.shape[ns._axis(axis, a.ndim, "split")]
        if indices_or_sections <= 0 or n % indices_or_sections:
            raise ValueError(f"accel.split: array split does not result in an equal division "
                             f"({n} into {indices_or_sections})")
    return array_split(a, indices_or_sections, axis)


def copy(a: Any, order: str = "C") -> Array:
    """A C-contiguous copy of a on its device."""
    return ns.asarray(_arr(a, "copy"), copy=True)


def ascontiguousarray(a: Any, dtype: Any = None) -> Array:
    """a itself when C-contiguous (and of dtype), else a contiguous copy."""
    x = _arr(a, "ascontiguousarray")
    if dtype is not None:
        x = ns.astype(x, dtype, copy=False)
    if x.ndim == 0:  # NumPy's: at least 1-d
        return ns.reshape(x, (1,))
    return x if x._st is None else ns.asarray(x, copy=True)


def asfortranarray(a: Any, dtype: Any = None) -> Array:
    """A copy of a in column-major (Fortran) order: the transpose of a
    C-contiguous copy of a's transpose (its values and shape a's)."""
    x = _arr(a, "asfortranarray")
    if dtype is not None:
        x = ns.astype(x, dtype, copy=False)
    return ns.permute_dims(ns.asarray(ns.permute_dims(x, tuple(range(x.ndim))[::-1]), copy=True),
                           tuple(range(x.ndim))[::-1])


def array_equal(a1: Any, a2: Any, equal_nan: bool = False) -> bool:
    """True when a1 and a2 have one shape and equal elements (NaNs equal
    with equal_nan); waits for the answer."""
    x, y = _arr(a1, "array_equal"), _arr(a2, "array_equal")
    if x.shape != y.shape:
        return False
    eq = ns.equal(x, y)
    if equal_nan:
        eq = ns.logical_or(eq, ns.logical_and(ns.isnan(x), ns.isnan(y)))
    return bool(ns.all(eq))


def identity(n: int, dtype: Any = None) -> Array:
    """The n x n identity matrix (eye)."""
    return ns.eye(n, dtype=dtype)


def diag(v: Any, k: int = 0) -> Array:
    """A 2-D v's diagonal k (a view), or the square matrix with the 1-D v on
    diagonal k (NumPy's diag)."""
    from . import linalg
    x = _arr(v, "diag")
    if x.ndim == 2:
        return linalg.diagonal(x, offset=k)
    if x.ndim != 1:
        raise ValueError(f"accel.diag: v is {x.ndim}-d (1-d or 2-d)")
    n = x.shape[0] + _b.abs(k)
    m = ns.zeros((n, n), dtype=x.dtype, device=x.device)
    ns.copyto(linalg.diagonal(m, offset=k), x)
    return m


def trace(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None) -> Array:
    """The sum of diagonal offset of axes axis1 and axis2 (NumPy's trace)."""
    from . import linalg
    x = ns.moveaxis(_arr(a, "trace"), (axis1, axis2), (-2, -1))
    return linalg.trace(x, offset=offset, dtype=dtype)


def outer(a: Any, b: Any) -> Array:
    """The outer product of the flattened a and b: a broadcast multiply."""
    x, y = ns.reshape(_arr(a, "outer"), (-1,)), ns.reshape(_arr(b, "outer"), (-1,))
    return ns.multiply(x[:, None], y[None, :])


def diff(a: Any, n: int = 1, axis: int = -1, prepend: Any = None, append: Any = None) -> Array:
    """The n-th difference along axis: out[i] = a[i + 1] - a[i], n times
    (bool arrays: not_equal, as NumPy); prepend and append (a scalar or an
    array, broadcast to a's shape with that axis 1 long where it lacks the
    axis, as NumPy's) are joined to a along axis first."""
    x = _arr(a, "diff")
    n = operator.index(n)
    if n < 0:
        raise ValueError(f"accel.diff: order n={n} must be non-negative")
    if x.ndim == 0:
        raise ValueError("accel.diff: needs at least one dimension")
    ax = ns._axis(axis, x.ndim, "diff")
    if n == 0:  # NumPy's: a itself, before prepend and append
        return x
    def edge(v: Any) -> list:  # prepend or append as a list of at most one array
        if v is None:
            return []
        v = v if isinstance(v, Array) else ns.asarray(v, device=x.device)
        return [ns.broadcast_to(v, x.shape[:ax] + (1,) + x.shape[ax + 1:]) if v.ndim == 0 else v]
    if prepend is not None or append is not None:
        x = ns.concat(edge(prepend) + [x] + edge(append), axis=ax)
    head = (slice(None),) * ax
    if n >= x.shape[ax]:  # nothing is left: the empty result without n steps
        n = x.shape[ax]
    for _ in range(n):
        hi, lo = x[head + (slice(1, None),)], x[head + (slice(None, -1),)]
        x = ns.not_equal(hi, lo) if x.dtype == np.bool_ else ns.subtract(hi, lo)
    return x


def count_nonzero(a: Any, axis: Any = None, *, keepdims: Any = False) -> Any:
    """The number of nonzero elements (over axis): int64 array or a Python
    int for the whole array without keepdims, as NumPy."""
    r = ns.sum(ns.astype(ns.not_equal(_arr(a, "count_nonzero"), 0), np.int64), axis=axis,
               keepdims=keepdims)
    return int(r) if axis is None and not keepdims else r


def argwhere(a: Any) -> Array:
    """The indices of the nonzero elements, one row each: (N, ndim) int64."""
    x = _arr(a, "argwhere")
    if x.ndim == 0:
        x = ns.reshape(x, (1,))[:int(bool(x))]
        return ns.zeros((x.shape[0], 0), dtype=np.int64, device=x.device)
    return ns.stack(list(ns.nonzero(x)), axis=-1)


def nan_to_num(x: Any, copy: bool = True, nan: float = 0.0, posinf: Optional[float] = None,
               neginf: Optional[float] = None) -> Array:
    """NaN to nan, +inf to posinf (default the dtype's max), -inf to neginf
    (its lowest), as NumPy; integers unchanged."""
    a = _arr(x, "nan_to_num")
    if a.dtype.kind not in "fc":
        return ns.asarray(a, copy=True) if copy else a
    if a.dtype.kind == "c":
        re = nan_to_num(ns.real(a), True, nan, posinf, neginf)
        im = nan_to_num(ns.imag(a), True, nan, posinf, neginf)
        return ns.add(re, ns.multiply(im, 1j))
    fi = np.finfo(a.dtype)
    hi = fi.max if posinf is None else posinf
    lo = fi.min if neginf is None else neginf
    r = ns.where(ns.isnan(a), nan, a)
    r = ns.where(ns.logical_and(ns.isinf(r), ns.greater(r, 0)), hi, r)
    return ns.where(ns.logical_and(ns.isinf(r), ns.less(r, 0)), lo, r)


def nansum(a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
           keepdims: bool = False) -> Array:
    """The sum with NaNs counted as zero (NumPy's arguments, out and
    keepdims by position too)."""
    x = _arr(a, "nansum")
    if x.dtype.kind in "fc":
        x = ns.where(ns.isnan(x), 0, x)
    return ns._out(ns.sum(x, axis=axis, dtype=dtype, keepdims=keepdims), out, "nansum")


def around(a: Any, decimals: int = 0, out: Any = None) -> Array:
    """NumPy's around: the namespace's round with decimals."""
    return ns.round(_arr(a, "around"), decimals, out)


round_ = around


def logspace(start: float, stop: float, num: int = 50, endpoint: bool = True,
             base: float = 10.0, dtype: Any = None) -> Array:
    """base ** linspace(start, stop, num), as NumPy's logspace."""
    e = ns.linspace(start, stop, num, endpoint=endpoint, dtype=np.float64)
    r = ns.pow(ns.asarray(float(base), device=e.device), e)
    return r if dtype is None else ns.astype(r, dtype)


def argpartition(a: Any, kth: Any, axis: Optional[int] = -1) -> Array:
    """Indices that partition a around kth: a full stable argsort (a valid
    partition for every kth, as CuPy's argpartition may return)."""
    x = _arr(a, "argpartition")
    if axis is None:
        x, axis = ns.reshape(x, (-1,)), -1
    if x.ndim == 0:
        x = ns.reshape(x, (1,))
    ax = ns._axis(axis, x.ndim, "argpartition")
    n = x.shape[ax]
    for k in np.atleast_1d(kth):
        k = operator.index(k)  # TypeError for a float, as NumPy
        if not -n <= k < n:
            raise ValueError(f"accel.argpartition: kth {k} is out of bounds for size {n}")
    return ns.argsort(x, axis=ax, stable=True)


def cross(a: Any, b: Any, axis: int = -1) -> Array:
    """The cross product of 3-vectors along axis (the standard's
    linalg.cross, under NumPy's name)."""
    from . import linalg
    return linalg.cross(_arr(a, "cross"), _arr(b, "cross"), axis=axis)


def _sorted_along(a: Any, axis: Any, fn: str) -> tuple:
    """(a sorted along axis as the last axis, the other axes' shape, the
    keepdims shape, whether any element along axis is NaN)."""
    x = _arr(a, fn)
    if axis is None:
        x, kshape = ns.reshape(x, (-1,)), (1,) * x.ndim
    elif isinstance(axis, (tuple, list)):  # NumPy's: the axes taken together, as one
        _, axes = ns._axes_mask(tuple(axis), x.ndim, fn)
        kshape = tuple(1 if i in axes else n for i, n in enumerate(x.shape))
        x, nk = ns._axes_last(x, axes)
        x = ns.reshape(x, x.shape[:nk] + (-1,))
    else:
        ax = ns._axis(axis, x.ndim, fn)
        kshape = x.shape[:ax] + (1,) + x.shape[ax + 1:]
        x = ns.moveaxis(x, ax, -1)
    if x.dtype.kind in "biu":
        x = ns.astype(x, np.float64)
    if x.shape[-1] == 0:
        raise ValueError(f"accel.{fn}: the axis is empty")
    nan = ns.any(ns.isnan(x), axis=-1)
    return ns.sort(x, axis=-1), x.shape[:-1], kshape, nan


def _at(s: Array, i: int) -> Array:
    return s[(Ellipsis, i)]


def quantile(a: Any, q: Any, axis: Any = None, out: Any = None,
             overwrite_input: bool = False, method: str = "linear",
             keepdims: bool = False) -> Array:
    """The q-th quantiles (q in [0, 1], a scalar or 1-D) of a along axis
    (None: all), NumPy's default "linear" method and its interpolation
    (a + (b - a) t, or b - (b - a)(1 - t) for t >= 0.5): a sort along the
    axis and two takes. q's axis comes first in the result; a NaN along the
    axis gives NaN, as NumPy. Integers compute in float64."""
    if method != "linear":
        raise NotImplementedError(f"accel.quantile: method {method!r} (only 'linear')")
    qs = np.asarray(q, dtype=np.float64)
    if qs.ndim > 1 or np.any((qs < 0) | (qs > 1)) or np.any(np.isnan(qs)):
        raise ValueError(f"accel.quantile: q {q!r} must be a scalar or 1-D, within [0, 1]")
    s, rest, kshape, nan = _sorted_along(a, axis, "quantile")
    n = s.shape[-1]
    outs = []
    for qv in np.atleast_1d(qs).tolist():
        pos = qv * (n - 1)
        lo = int(np.floor(pos))
        hi = _b.min(lo + 1, n - 1)
        t = pos - lo
        va, vb = _at(s, lo), _at(s, hi)
        d = ns.subtract(vb, va)
        v = (ns.subtract(vb, ns.multiply(d, 1.0 - t)) if t >= 0.5
             else ns.add(va, ns.multiply(d, t)))
        v = ns.where(nan, float("nan"), v)
        outs.append(ns.reshape(v, kshape) if keepdims else v)
    r = outs[0] if qs.ndim == 0 else ns.stack(outs, axis=0)
    if out is not None:
        ns.copyto(out, r)
        return out
    return r


def percentile(a: Any, q: Any, axis: Any = None, out: Any = None,
               overwrite_input: bool = False, method: str = "linear",
               keepdims: bool = False) -> Array:
    """quantile with q in percent ([0, 100])."""
    qs = np.asarray(q, dtype=np.float64)
    if np.any((qs < 0) | (qs > 100)):
        raise ValueError(f"accel.percentile: q {q!r} must be within [0, 100]")
    return quantile(a, qs / 100.0, axis, out, overwrite_input, method, keepdims)


def median(a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False,
           keepdims: bool = False) -> Array:
    """The median along axis (None: all; a tuple: those axes together, as
    NumPy's): the middle of the sorted values,
    the mean of the two middle ones for an even count; NaN where a NaN is
    along the axis, as NumPy."""
    s, rest, kshape, nan = _sorted_along(a, axis, "median")
    n = s.shape[-1]
    v = _at(s, n // 2)
    if n % 2 == 0:
        v = ns.mean(ns.stack([_at(s, n // 2 - 1), v], axis=-1), axis=-1)
    v = ns.where(nan, float("nan"), v)
    r = ns.reshape(v, kshape) if keepdims else v
    if out is not None:
        ns.copyto(out, r)
        return out
    return r


def _einsum_parse(subscripts: str, ops: Sequence[Array]) -> tuple:
    """(the input index strings, the output one) of an einsum spec, NumPy's
    implicit output (the indices seen once, sorted) when there is no '->'."""
    spec = subscripts.replace(" ", "")
    if "." in spec:
        raise NotImplementedError("accel.einsum: '...' (broadcast dimensions) is not there yet")
    lhs, arrow, out = spec.partition("->")
    ins = lhs.split(",")
    if len(ins) != len(ops):
        raise ValueError(f"accel.einsum: {len(ins)} operand subscripts for {len(ops)} operands")
    for s, a in zip(ins, ops):
        if not s.isalpha() and s:
            raise ValueError(f"accel.einsum: subscripts {s!r} must be letters")
        if len(s) != a.ndim:
            raise ValueError(f"accel.einsum: subscripts {s!r} for a {a.ndim}-d operand")
    if not arrow:
        seen = "".join(ins)
        out = "".join(sorted(c for c in set(seen) if seen.count(c) == 1))
    if len(set(out)) != len(out) or any(c not in "".join(ins) for c in out):
        raise ValueError(f"accel.einsum: output subscripts {out!r}")
    return ins, out


def _einsum_one(a: Array, s: str, keep: str) -> tuple:
    """a with repeated indices of s taken on their diagonal and the indices
    not in keep summed: (the array, its index string)."""
    from . import linalg
    while len(set(s)) != len(s):
        c = next(c for c in s if s.count(c) > 1)
        i, j = s.index(c), s.index(c, s.index(c) + 1)
        if a.shape[i] != a.shape[j]:
            raise ValueError(f"accel.einsum: index {c!r} repeated with sizes {a.shape[i]} and "
                             f"{a.shape[j]}")
        a = linalg.diagonal(ns.moveaxis(a, (i, j), (-2, -1)))
        s = "".join(x for k, x in enumerate(s) if k not in (i, j)) + c
    gone = tuple(k for k, c in enumerate(s) if c not in keep)
    if gone:
        a = ns.sum(a, axis=gone, dtype=a.dtype)
        s = "".join(c for c in s if c in keep)
    return a, s


def _einsum_pair(a: Array, sa: str, b: Array, sb: str, keep: str) -> tuple:
    """a and b contracted over their shared indices not in keep: batch
    (shared, kept), free and summed indices moved into place, one matmul."""
    batch = [c for c in sa if c in sb and c in keep]
    summed = [c for c in sa if c in sb and c not in keep]
    fa = [c for c in sa if c not in sb]
    fb = [c for c in sb if c not in sa]
    size = {c: n for s, x in ((sa, a), (sb, b)) for c, n in zip(s, x.shape)}
    for c in batch + summed:
        if a.shape[sa.index(c)] != b.shape[sb.index(c)]:
            raise ValueError(f"accel.einsum: index {c!r} has sizes {a.shape[sa.index(c)]} and "
                             f"{b.shape[sb.index(c)]}")
    pa = ns.permute_dims(a, tuple(sa.index(c) for c in batch + fa + summed))
    pb = ns.permute_dims(b, tuple(sb.index(c) for c in batch + summed + fb))
    nb = [size[c] for c in batch]
    m, k, n = (int(np.prod([size[c] for c in g], dtype=np.int64)) for g in (fa, summed, fb))
    r = ns.matmul(ns.reshape(pa, tuple(nb) + (m, k)), ns.reshape(pb, tuple(nb) + (k, n)))
    return ns.reshape(r, tuple(nb) + tuple(size[c] for c in fa + fb)), "".join(batch + fa + fb)


def einsum(subscripts: str, *operands: Any, dtype: Any = None) -> Array:
    """NumPy's einsum for explicit and implicit subscripts (no '...'):
    repeated indices of one operand take its diagonal, indices in no later
    operand nor the output are summed, each pair of operands contracts by
    one (batched) matmul (left to right), the result is permuted to the
    output's order. Raises ValueError for mismatched subscripts or sizes,
    NotImplementedError for '...'."""
    if not isinstance(subscripts, str):
        raise TypeError("accel.einsum: subscripts must be a string (the interleaved form "
                        "einsum(a, [0, 1], b, [1, 2]) is not there)")
    ops = [_arr(a, "einsum") for a in operands]
    if not ops:
        raise ValueError("accel.einsum: needs at least one operand")
    if dtype is not None:
        ops = [ns.astype(a, dtype) for a in ops]
    ins, out = _einsum_parse(subscripts, ops)
    later = [out + "".join(ins[i + 1:]) for i in range(len(ins))]
    a, s = _einsum_one(ops[0], ins[0], later[0])
    for i in range(1, len(ops)):
        b, sb = _einsum_one(ops[i], ins[i], later[i] + s)
        a, s = _einsum_pair(a, s, b, sb, later[i])
        a, s = _einsum_one(a, s, later[i])
    return ns.permute_dims(a, tuple(s.index(c) for c in out)) if s != out else a


def bincount(x: Any, weights: Any = None, minlength: int = 0) -> Array:
    """The count (or weight sum) of each value 0..max(x) of the 1-D
    non-negative integer x, at least minlength long, as NumPy's bincount:
    x sorted once, the bounds of each value's run by two searchsorted calls,
    weights summed by a cumulative sum between them (float64). Raises
    ValueError for a negative value, a non-1-D x or weights of another
    shape, TypeError for non-integers."""
    from ._sets import searchsorted
    a = _arr(x, "bincount")
    if a.ndim != 1:
        raise ValueError(f"accel.bincount: x is {a.ndim}-d (1-d)")
    if a.dtype.kind not in "biu":
        raise TypeError(f"accel.bincount: x must be integers, not {a.dtype}")
    if minlength < 0:
        raise ValueError(f"accel.bincount: minlength {minlength} < 0")
    a = ns.astype(a, np.int64)
    if a.size and int(ns.min(a)) < 0:
        raise ValueError("accel.bincount: x has a negative value")
    size = _b.max(int(ns.max(a)) + 1 if a.size else 0, operator.index(minlength))
    values = ns.arange(size, dtype=np.int64, device=a.device)
    order = ns.argsort(a, stable=True)
    s = ns.take(a, order)
    lo, hi = searchsorted(s, values, side="left"), searchsorted(s, values, side="right")
    if weights is None:
        return ns.subtract(hi, lo)
    w = ns.astype(_arr(weights, "bincount"), np.float64)
    if w.shape != a.shape:
        raise ValueError(f"accel.bincount: weights {w.shape} is not x's shape {a.shape}")
    if not a.size:
        return ns.zeros((size,), dtype=np.float64, device=a.device)
    run = _segmented_sum(s, ns.take(w, order))
    return ns.where(ns.greater(hi, lo), ns.take(run, ns.maximum(ns.subtract(hi, 1), 0)), 0.0)


def _segmented_sum(keys: Array, v: Array) -> Array:
    """The inclusive sum of v within each run of equal (sorted) keys: the
    Hillis-Steele doubling scan, log2(n) elementwise steps, each adding
    the element d back only when it is in the same run (so a NaN or an
    infinity stays in its run, and no difference of prefix sums cancels)."""
    n, d = v.shape[0], 1
    zero = ns.zeros((), dtype=v.dtype, device=v.device)  # v's dtype: integers stay exact
    while d < n:
        back = ns.where(ns.equal(keys[d:], keys[:-d]), v[:-d], zero)
        v = ns.concat([v[:d], ns.add(v[d:], back)])
        d *= 2
    return v


def histogram(a: Any, bins: Any = 10, range: Any = None, density: bool = False,
              weights: Any = None) -> tuple:
    """(counts, bin_edges) of the flattened a, as NumPy's histogram: bins
    an int (equal bins over range, default a's min and max) or the edges;
    each bin half-open but the last closed; values outside are not counted.
    Bin indices by searchsorted on the edges, counts by bincount."""
    from ._sets import searchsorted
    x = ns.reshape(_arr(a, "histogram"), (-1,))
    if isinstance(bins, (int, np.integer)):
        if bins < 1:
            raise ValueError(f"accel.histogram: bins {bins} must be at least 1")
        if range is not None and len(range) != 2:
            raise ValueError(f"accel.histogram: range {range!r} is not (min, max)")
        lo, hi = ((float(ns.min(x)), float(ns.max(x))) if range is None and x.size
                  else (0.0, 1.0) if range is None else (float(range[0]), float(range[1])))
        if not (np.isfinite(lo) and np.isfinite(hi)):
            raise ValueError(f"accel.histogram: the range ({lo}, {hi}) is not finite (NaN or "
                             "infinity in the data: pass range=)")
        if lo > hi:
            raise ValueError(f"accel.histogram: range ({lo}, {hi}): max must be larger than min")
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        edges = ns.linspace(lo, hi, int(bins) + 1, dtype=np.float64, device=x.device)
    else:
        edges = ns.astype(_arr(bins, "histogram"), np.float64)
        if edges.ndim != 1 or edges.size < 2:
            raise ValueError("accel.histogram: bins edges must be 1-D with at least 2 entries")
        if bool(ns.any(ns.less(edges[1:], edges[:-1]))):
            raise ValueError("accel.histogram: bins must increase monotonically")
    nb = edges.size - 1
    idx = ns.subtract(searchsorted(edges, ns.astype(x, np.float64), side="right"), 1)
    last = ns.equal(ns.astype(x, np.float64), edges[-1])
    idx = ns.where(last, nb - 1, idx)
    inside = ns.logical_and(ns.greater_equal(idx, 0), ns.less(idx, nb))
    w = None if weights is None else ns.reshape(_arr(weights, "histogram"), (-1,))
    sel = ns.where(inside, idx, nb)  # outside values counted in an extra bin, dropped
    counts = bincount(sel, weights=w, minlength=nb + 1)[:nb]
    if density:
        counts = ns.divide(ns.divide(counts, ns.sum(counts)), ns.subtract(edges[1:], edges[:-1]))
    return counts, edges


# NumPy's and CuPy's names for the standard's functions.
power, mod, conjugate = ns.pow, ns.remainder, ns.conj
arccos, arcsin, arctan, arctan2 = ns.acos, ns.asin, ns.atan, ns.atan2
arccosh, arcsinh, arctanh = ns.acosh, ns.asinh, ns.atanh
bool_ = np.bool_


def fmax(x1: Any, x2: Any, out: Any = None) -> Array:
    """The larger of x1 and x2 ignoring a NaN (NaN only where both are);
    out= as CuPy's."""
    a, b = _arr(x1, "fmax"), _arr(x2, "fmax")
    r = ns.where(ns.isnan(b), a, ns.where(ns.isnan(a), b, ns.maximum(a, b)))
    return ns._out(r, out, "fmax", True)


def fmin(x1: Any, x2: Any, out: Any = None) -> Array:
    """The smaller of x1 and x2 ignoring a NaN (NaN only where both are);
    out= as CuPy's."""
    a, b = _arr(x1, "fmin"), _arr(x2, "fmin")
    r = ns.where(ns.isnan(b), a, ns.where(ns.isnan(a), b, ns.minimum(a, b)))
    return ns._out(r, out, "fmin", True)


def exp2(x: Any, out: Any = None) -> Array:
    """2 ** x elementwise (integers as float64); out= as CuPy's."""
    a = _arr(x, "exp2")
    r = ns.pow(ns.asarray(2.0, dtype=a.dtype if a.dtype.kind in "fc" else None,
                          device=a.device), a)
    return ns._out(r, out, "exp2", True)


def angle(z: Any, deg: bool = False) -> Array:
    """The argument of each complex z (atan2 of its parts), in radians or
    degrees; a real z gives 0 or pi."""
    a = _arr(z, "angle")
    if a.dtype.kind != "c":
        a = _as_float(a)
        r = ns.atan2(ns.zeros_like(a), a)
    else:
        r = ns.atan2(ns.imag(a), ns.real(a))
    return ns.multiply(r, 180.0 / np.pi) if deg else r


def reciprocal(x: Any, out: Any = None) -> Array:
    """1 / x in x's dtype (integers: NumPy's truncation, 1 and -1 their own
    reciprocal, every other value 0); out= as CuPy's."""
    a = _arr(x, "reciprocal")
    if a.dtype.kind in "fc":
        r = ns.divide(ns.asarray(1, dtype=a.dtype, device=a.device), a)
    else:
        r = ns.where(ns.equal(ns.abs(a), 1), a, ns.zeros_like(a))
    return ns._out(r, out, "reciprocal", True)


def _nan_filled(a: Any, fn: str, fill: float) -> Array:
    x = _arr(a, fn)
    return ns.where(ns.isnan(x), fill, x) if x.dtype.kind in "fc" else x


def nanmax(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False) -> Array:
    """max ignoring NaNs (NaN where a slice is all NaN, as NumPy)."""
    x = _arr(a, "nanmax")
    r = ns.max(_nan_filled(x, "nanmax", -np.inf), axis=axis, keepdims=keepdims)
    return ns._out(_all_nan_is_nan(x, r, axis, keepdims), out, "nanmax")


def nanmin(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False) -> Array:
    """min ignoring NaNs (NaN where a slice is all NaN, as NumPy)."""
    x = _arr(a, "nanmin")
    r = ns.min(_nan_filled(x, "nanmin", np.inf), axis=axis, keepdims=keepdims)
    return ns._out(_all_nan_is_nan(x, r, axis, keepdims), out, "nanmin")


def _all_nan_is_nan(x: Array, r: Array, axis: Any, keepdims: bool) -> Array:
    if x.dtype.kind != "f":
        return r
    return ns.where(ns.all(ns.isnan(x), axis=axis, keepdims=keepdims), np.nan, r)


def nanmean(a: Any, axis: Any = None, dtype: Any = None, out: Any = None,
            keepdims: bool = False) -> Array:
    """The mean of the non-NaN elements (NaN where there are none);
    NumPy's arguments (dtype: the one summed in)."""
    x = _arr(a, "nanmean")
    if dtype is not None:  # NumPy's: the sum in dtype, not the result cast
        x = ns.astype(x, dtype, copy=False)
    if x.dtype.kind not in "fc":
        r = ns.mean(x, axis=axis, keepdims=keepdims)
    else:
        n = ns.sum(ns.astype(ns.logical_not(ns.isnan(x)), np.int64), axis=axis,
                   keepdims=keepdims)
        r = ns.divide(nansum(x, axis=axis, keepdims=keepdims), ns.astype(n, x.dtype))
    return ns._out(r, out, "nanmean")


def flatnonzero(a: Any) -> Array:
    """The flat indices of the nonzero elements (int64)."""
    return ns.nonzero(ns.reshape(_arr(a, "flatnonzero"), (-1,)))[0]


def iscomplexobj(x: Any) -> bool:
    """Whether x's dtype is complex."""
    return np.dtype(getattr(x, "dtype", np.asarray(x).dtype)).kind == "c"


def column_stack(tup: Sequence[Any]) -> Array:
    """1-D arrays as columns (2-D ones as they are), joined along axis 1."""
    arrs = [_arr(t, "column_stack") for t in tup]
    return ns.concat([ns.reshape(a, (-1, 1)) if a.ndim < 2 else a for a in arrs], axis=1)


def dstack(tup: Sequence[Any]) -> Array:
    """Joined along a third axis (1-D (n,) as (1, n, 1), 2-D as (m, n, 1))."""
    def as3(a: Array) -> Array:
        return (ns.reshape(a, (1, -1, 1)) if a.ndim <= 1
                else ns.reshape(a, a.shape + (1,)) if a.ndim == 2 else a)
    return ns.concat([as3(_arr(t, "dstack")) for t in tup], axis=2)


# ------------------------------------------------- more of NumPy's names

invert, left_shift, right_shift = ns.bitwise_invert, ns.bitwise_left_shift, ns.bitwise_right_shift
dtype = np.dtype
isscalar = np.isscalar


def _as_float(a: Array) -> Array:
    """a, or a as float64 when it holds integers or bools (NumPy's result
    for functions that compute in floats)."""
    return a if a.dtype.kind in "fc" else ns.astype(a, np.float64)


def fabs(x: Any, out: Any = None) -> Array:
    """|x| as a float (integers as float64, as NumPy's fabs); out= as
    CuPy's."""
    return ns._out(ns.abs(_as_float(_arr(x, "fabs"))), out, "fabs", True)


def deg2rad(x: Any, out: Any = None) -> Array:
    """Degrees to radians: x * (pi / 180) (integers as float64); out= as
    CuPy's."""
    r = ns.multiply(_as_float(_arr(x, "deg2rad")), np.pi / 180.0)
    return ns._out(r, out, "deg2rad", True)


def rad2deg(x: Any, out: Any = None) -> Array:
    """Radians to degrees: x * (180 / pi) (integers as float64); out= as
    CuPy's."""
    r = ns.multiply(_as_float(_arr(x, "rad2deg")), 180.0 / np.pi)
    return ns._out(r, out, "rad2deg", True)


radians, degrees = deg2rad, rad2deg


def _atleast(nd: int, arys: Sequence[Any], fn: str) -> Any:
    out = []
    for a in arys:
        x = _arr(a, fn)
        if x.ndim < nd:  # NumPy's placement: (n,) -> (1, n) -> (1, n, 1)
            if x.ndim == 0:
                shape: tuple = (1,) * nd
            elif x.ndim == 1:
                shape = (1,) + x.shape + ((1,) if nd == 3 else ())
            else:
                shape = x.shape + (1,)
            x = ns.reshape(x, shape)
        out.append(x)
    return out[0] if len(out) == 1 else out


def atleast_1d(*arys: Any) -> Any:
    """Each array with at least one axis (a 0-d one as (1,))."""
    return _atleast(1, arys, "atleast_1d")


def atleast_2d(*arys: Any) -> Any:
    """Each array with at least two axes ((n,) as (1, n))."""
    return _atleast(2, arys, "atleast_2d")


def atleast_3d(*arys: Any) -> Any:
    """Each array with at least three axes ((n,) as (1, n, 1), (m, n) as
    (m, n, 1))."""
    return _atleast(3, arys, "atleast_3d")


def fliplr(m: Any) -> Array:
    """m with axis 1 reversed (a view)."""
    return ns.flip(_arr(m, "fliplr"), axis=1)


def flipud(m: Any) -> Array:
    """m with axis 0 reversed (a view)."""
    return ns.flip(_arr(m, "flipud"), axis=0)


def rot90(m: Any, k: int = 1, axes: Sequence[int] = (0, 1)) -> Array:
    """m rotated by 90 degrees k times in the plane of axes, from the first
    axis towards the second (NumPy's rot90; a view)."""
    a = _arr(m, "rot90")
    if a.ndim < 2 or len(axes) != 2:
        raise ValueError(f"accel.rot90: needs two axes of an array of 2 or more ({a.ndim}-d)")
    for v in axes:
        if not -a.ndim <= operator.index(v) < a.ndim:
            raise IndexError(f"accel.rot90: axis {v} is out of range for {a.ndim} dimensions")
    a0, a1 = (operator.index(v) % a.ndim for v in axes)
    if a0 == a1:
        raise ValueError("accel.rot90: the two axes must differ")
    k = operator.index(k) % 4
    if k == 2:
        return ns.flip(ns.flip(a, axis=a0), axis=a1)
    perm = list(range(a.ndim))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return ns.permute_dims(ns.flip(a, axis=a1), tuple(perm))
    if k == 3:
        return ns.flip(ns.permute_dims(a, tuple(perm)), axis=a1)
    return a


def ndim(a: Any) -> int:
    """The number of axes of a."""
    return _arr(a, "ndim").ndim if not np.isscalar(a) else 0


def shape(a: Any) -> tuple:
    """The shape of a."""
    return _arr(a, "shape").shape if not np.isscalar(a) else ()


def rint(x: Any, out: Any = None) -> Array:
    """x rounded to the nearest integer, ties to even (the standard's
    round; out by position as NumPy's rint). Unlike NumPy's rint, an
    integer x keeps its dtype (NumPy gives a float)."""
    return ns.round(x, out=out)


def ptp(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False) -> Array:
    """max - min along axis ("peak to peak")."""
    x = _arr(a, "ptp")
    return ns._out(ns.subtract(ns.max(x, axis=axis, keepdims=keepdims),
                               ns.min(x, axis=axis, keepdims=keepdims)), out, "ptp")


def average(a: Any, axis: Any = None, weights: Any = None, returned: bool = False) -> Any:
    """The mean along axis, or the weighted mean sum(a * w) / sum(w) with
    weights of a's shape (or 1-D along one axis). returned=True also gives
    the sum of the weights."""
    x = _arr(a, "average")
    if weights is None:
        r = ns.mean(_as_float(x), axis=axis)
        n = ns.asarray(x.size // _b.max(r.size, 1), dtype=r.dtype, device=x.device)
        return (r, ns.broadcast_to(n, r.shape)) if returned else r
    w = _arr(weights, "average")
    if w.shape != x.shape:
        if axis is None or w.ndim != 1:
            raise TypeError("accel.average: weights of another shape than a need an axis and "
                            "must be 1-D")
        ax = operator.index(axis) % x.ndim
        w = ns.reshape(w, tuple(-1 if i == ax else 1 for i in range(x.ndim)))
        w = ns.broadcast_to(w, x.shape)
    ws = ns.sum(_as_float(w), axis=axis)
    r = ns.divide(ns.sum(ns.multiply(_as_float(x), w), axis=axis), ws)
    return (r, ws) if returned else r


def tri(N: int, M: Optional[int] = None, k: int = 0, dtype: Any = float) -> Array:
    """Ones at and below the k-th diagonal of an N x M array, zeros above."""
    return ns.tril(ns.ones((N, N if M is None else M), dtype=np.dtype(dtype)), k=k)


def _tri_indices(n: int, k: int, m: Optional[int], upper: bool) -> tuple:
    t = ns.ones((n, n if m is None else m), dtype=np.int8)
    return ns.nonzero(ns.triu(t, k=k) if upper else ns.tril(t, k=k))


def triu_indices(n: int, k: int = 0, m: Optional[int] = None) -> tuple:
    """The (row, column) index arrays of the upper triangle from diagonal k."""
    return _tri_indices(n, k, m, True)


def tril_indices(n: int, k: int = 0, m: Optional[int] = None) -> tuple:
    """The (row, column) index arrays of the lower triangle to diagonal k."""
    return _tri_indices(n, k, m, False)


def unravel_index(indices: Any, shape: Sequence[int]) -> tuple:
    """Flat (row-major) indices as a tuple of coordinate arrays; an index
    past the shape's size raises ValueError."""
    i = _arr(indices, "unravel_index")
    size = int(np.prod(shape))
    if i.size and (int(ns.min(i)) < 0 or int(ns.max(i)) >= size):
        raise ValueError(f"accel.unravel_index: an index is outside an array of {size} elements")
    out = []
    for n in reversed(tuple(shape)):
        out.append(ns.remainder(i, n))
        i = ns.floor_divide(i, n)
    return tuple(reversed(out))


def ravel_multi_index(multi_index: Sequence[Any], dims: Sequence[int]) -> Array:
    """Coordinate arrays as flat (row-major) indices; a coordinate outside
    its dimension raises ValueError (NumPy's mode='raise')."""
    coords = [_arr(c, "ravel_multi_index") for c in multi_index]
    if len(coords) != len(dims):
        raise ValueError("accel.ravel_multi_index: one coordinate array per dimension")
    flat = None
    for c, n in zip(coords, dims):
        if c.size and (int(ns.min(c)) < 0 or int(ns.max(c)) >= n):
            raise ValueError(f"accel.ravel_multi_index: a coordinate is outside 0..{n - 1}")
        c = ns.astype(c, np.int64)
        flat = c if flat is None else ns.add(ns.multiply(flat, n), c)
    return flat


def isin(element: Any, test_elements: Any, invert: bool = False) -> Array:
    """Whether each element is among test_elements (a sorted search on the
    device), or is not with invert=True."""
    from ._sets import searchsorted, unique_values
    e = _arr(element, "isin")
    t = unique_values(ns.reshape(_arr(test_elements, "isin"), (-1,)))
    if t.size == 0:
        r = ns.zeros(e.shape, dtype=bool, device=e.device)
        return ns.logical_not(r) if invert else r
    pos = searchsorted(t, ns.reshape(e, (-1,)))
    pos = ns.clip(pos, 0, t.size - 1)
    r = ns.reshape(ns.equal(ns.take(t, pos), ns.reshape(e, (-1,))), e.shape)
    return ns.logical_not(r) if invert else r
