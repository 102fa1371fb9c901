# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""searchsorted and the set functions of the Array API 2023.12 namespace
(unique_all, unique_counts, unique_inverse, unique_values), and NumPy's and
CuPy's ``unique`` composed from them, over the C array layer
(accel_array_searchsorted, accel_array_unique_all: accel/array.h). Part of
the namespace ``accel`` (__init__.py imports them).

The number of distinct values depends on the data, so the unique functions
wait for the C call (it is blocking) and read that count back from the
device; the results are views of the first count elements of outputs sized
for every element of x."""
from __future__ import annotations

from typing import Any, NamedTuple, Optional

from . import _aa_lib as C
from ._array import Array, fill
from ._namespace import (_wide_operand, _check, _complex_argsort, _new, _promote, _q, argsort,
                         astype, concat, cumulative_sum, int64, isnan, minimum, not_equal,
                         reshape, take)
from ._namespace import max as _max
from ._namespace import min as _min
from ._namespace import sum as _sum


class UniqueAllResult(NamedTuple):
    values: Any
    indices: Any
    inverse_indices: Any
    counts: Any


class UniqueCountsResult(NamedTuple):
    values: Any
    counts: Any


class UniqueInverseResult(NamedTuple):
    values: Any
    inverse_indices: Any


def searchsorted(x1: Array, x2: Any, /, *, side: str = "left",
                 sorter: Optional[Array] = None) -> Array:
    """For each element v of x2, the index into the sorted 1-D x1 at which v
    would be inserted to keep it sorted: side 'left' the first i with
    x1[i] >= v, 'right' the first with x1[i] > v (accel_array_searchsorted:
    one binary search per element on the device; NaNs sort last). sorter:
    int indices with x1[sorter] sorted (argsort's). x2: an array or a Python
    scalar; x1 and x2 promote to one dtype (NumPy's rule across kinds).
    Returns int64 of x2's shape. Raises ValueError (x1 not 1-D, a bad side
    or sorter length), TypeError (non-arrays, a sorter not of integers),
    UnsupportedError (complex); ValueError for a sorter index outside
    [0, len(x1)) (it waits for the sorter to read its min and max). Indices
    into an unsorted x1 are
    unspecified (never a fault)."""
    if not isinstance(x1, Array):
        raise TypeError(f"accel.searchsorted: x1 must be an accel array, not {type(x1).__name__}")
    if x1.ndim != 1:
        raise ValueError(f"accel.searchsorted: x1 is {x1.ndim}-d (it must be 1-D)")
    if side not in ("left", "right"):
        raise ValueError(f"accel.searchsorted: side {side!r} is not 'left' or 'right'")
    v = x2 if isinstance(x2, Array) else _wide_operand(x2, x1, "searchsorted")
    dt = _promote(x1.dtype, v.dtype)
    a, v = astype(x1, dt, copy=False), astype(v, dt, copy=False)
    if sorter is not None:
        if not isinstance(sorter, Array) or sorter.dtype.kind not in "iu":
            raise TypeError("accel.searchsorted: sorter must be an accel array of integers")
        if sorter.shape != a.shape:
            raise ValueError(f"accel.searchsorted: sorter {sorter.shape} is not x1's shape "
                             f"{a.shape}")
        # NumPy's check (the C call clamps, which answers nothing useful);
        # it reads two values back, so it waits for the sorter
        if sorter.size and (int(_min(sorter)) < 0 or int(_max(sorter)) >= sorter.size):
            raise ValueError("accel.searchsorted: a sorter index is out of range "
                             f"[0, {sorter.size})")
    out = _new(v.shape, int64, a.device)
    if out.size and a.size == 0:
        fill(out, 0)  # every value goes before an empty x1
    elif out.size:
        s = sorter._cv() if sorter is not None else None
        ops = (a, v, out) if sorter is None else (a, v, sorter, out)
        _check(C.searchsorted(_q(*ops), a._cv(), v._cv(), int(side == "right"), s, out._cv()))
    return out


def _unique(x: Array, fn: str, indices: bool, inverse: bool, counts: bool) -> tuple:
    """(values, indices, inverse_indices, counts) of x, those not asked None
    (accel_array_unique_all)."""
    if not isinstance(x, Array):
        raise TypeError(f"accel.{fn}: x must be an accel array, not {type(x).__name__}")
    if x.dtype.kind == "c":
        return _unique_complex(x, fn, inverse, counts)
    n, dev = x.size, x.device
    vals = _new((n,), x.dtype, dev)
    idx = _new((n,), int64, dev) if indices else None
    inv = _new(x.shape, int64, dev) if inverse else None
    cnt = _new((n,), int64, dev) if counts else None
    u = 0
    if n:
        count = _new((), int64, dev)
        outs = [o for o in (vals, idx, inv, cnt, count) if o is not None]
        _check(C.unique_all(_q(x, *outs), x._cv(), vals._cv(),
                            *(o._cv() if o is not None else None for o in (idx, inv, cnt)),
                            count._cv()))
        u = int(count)
    return (vals[:u], idx[:u] if indices else None, inv, cnt[:u] if counts else None)


def _unique_complex(x: Array, fn: str, inverse: bool, counts: bool) -> tuple:
    """_unique of a complex x: its elements ranked in NumPy's complex order
    (lexicographic (real, imag), then R + NaN j, NaN + R j, NaN + NaN j
    last: _complex_argsort), equal neighbours one rank (NaNs each
    their own, as the standard says), and the int64 ranks through
    accel_array_unique_all; the values are x at the first indices."""
    flat = reshape(x, (-1,))
    order = _complex_argsort(flat, 0, fn)
    s = take(flat, order)
    rank = astype(not_equal(s[1:], s[:-1]), int64)
    rank = cumulative_sum(rank, include_initial=True)
    key = reshape(take(rank, argsort(order, stable=True)), x.shape)
    _, idx, inv, cnt = _unique(key, fn, True, inverse, counts)
    return (take(flat, idx), idx, inv, cnt)


def unique_all(x: Array, /) -> UniqueAllResult:
    """UniqueAllResult(values, indices, inverse_indices, counts) of x (any
    shape, read flattened): the distinct values ascending (NaNs last, each
    NaN distinct, as the standard says; -0 and +0 one value; complex values
    in lexicographic (real, imag) order, each one with a NaN part distinct),
    the flat index of each one's first occurrence, each element's position
    in values (int64, x's shape: values[inverse_indices] == x) and the
    count of each. Raises TypeError (not an array)."""
    return UniqueAllResult(*_unique(x, "unique_all", True, True, True))


def unique_counts(x: Array, /) -> UniqueCountsResult:
    """UniqueCountsResult(values, counts): unique_all's two fields."""
    v, _, _, c = _unique(x, "unique_counts", False, False, True)
    return UniqueCountsResult(v, c)


def unique_inverse(x: Array, /) -> UniqueInverseResult:
    """UniqueInverseResult(values, inverse_indices): unique_all's two fields."""
    v, _, i, _ = _unique(x, "unique_inverse", False, True, False)
    return UniqueInverseResult(v, i)


def unique_values(x: Array, /) -> Array:
    """The distinct values of x, ascending (unique_all's first field)."""
    return _unique(x, "unique_values", False, False, False)[0]


def _merge_nans(r: list, x: Array) -> list:
    """NumPy's equal_nan=True: the NaN groups (last in values) as one."""
    vals = r[0]
    if x.dtype.kind not in "fc" or not vals.size:  # NaN classes sort last (complex too)
        return r
    k = int(_sum(astype(isnan(vals), int64)))
    if k < 2:
        return r
    j = vals.size - k
    vals, idx, inv, cnt = r
    if cnt is not None:
        cnt = concat([cnt[:j], reshape(_sum(cnt[j:]), (1,))])
    return [vals[:j + 1], idx[:j + 1] if idx is not None else None,
            minimum(inv, j) if inv is not None else None, cnt]


def unique(ar: Array, return_index: bool = False, return_inverse: bool = False,
           return_counts: bool = False, axis: Optional[int] = None, *,
           equal_nan: bool = True) -> Any:
    """NumPy's and CuPy's unique of the flattened ar: the sorted distinct
    values, and with the flags the first indices, the inverse (int64 of
    ar's shape, as NumPy 2; CuPy gives it flattened) and the counts, as a
    tuple in that order. equal_nan=True (the default) makes all NaNs one
    value, as NumPy (a complex value with a NaN part is a NaN); False keeps
    each distinct (the standard's unique_*).
    Raises NotImplementedError for an axis (only the flattened array)."""
    if axis is not None:
        raise NotImplementedError("accel.unique: axis= is not there (the C layer uniques the "
                                  "flattened array)")
    r = list(_unique(ar, "unique", return_index, return_inverse, return_counts))
    if equal_nan:
        r = _merge_nans(r, ar)
    if not (return_index or return_inverse or return_counts):
        return r[0]
    flags = (True, return_index, return_inverse, return_counts)
    return tuple(v for v, f in zip(r, flags) if f)
