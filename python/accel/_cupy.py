# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""CuPy's names that need no new C: get_array_module, and isclose,
allclose, clip and where written as accel user kernels
(ElementwiseKernel/ReductionKernel), so they run on every device and verify
mode checks them.

Where accel differs from CuPy on purpose, until the array layer lands:
operands are arrays of one shape or Python scalars (no broadcasting
between arrays of different shapes: ShapeMismatchError), and there is no
bool dtype, so :func:`isclose` gives uint8 0/1 and :func:`where` takes any
array as the condition (non-zero is true)."""
from __future__ import annotations

from types import ModuleType
from typing import Any, Optional, Union

import numpy as np

from ._array import Array
from ._kernel import ElementwiseKernel, ReductionKernel
from ._lib import error

Scalar = Union[int, float]

_isclose = ElementwiseKernel(
    "T a, T b, float64 rtol, float64 atol, int32 equal_nan", "uint8 z",
    "double x = (double)a, y = (double)b;"
    " if (x == y) z = 1;"
    " else if (x != x || y != y) z = (unsigned char)(equal_nan && x != x && y != y);"
    " else if (x - x != 0 || y - y != 0) z = 0;"  # an infinity unequal to the other
    " else z = fabs(x - y) <= atol + rtol * fabs(y);",
    "accel_isclose")
_all: Optional[ReductionKernel] = None  # made at first use: making it opens the runtime
_clip = ElementwiseKernel("T x, T lo, T hi", "T z",
                          "z = x < lo ? lo : (x > hi ? hi : x)", "accel_clip")
_clip_lo = ElementwiseKernel("T x, T lo", "T z", "z = x < lo ? lo : x", "accel_clip_lo")
_clip_hi = ElementwiseKernel("T x, T hi", "T z", "z = x > hi ? hi : x", "accel_clip_hi")
_where = ElementwiseKernel("C c, T x, T y", "T z", "z = c ? x : y", "accel_where")


def get_array_module(*args: Any) -> ModuleType:
    """accel when any argument is an accel Array, else numpy (as
    cupy.get_array_module), for code that serves both."""
    import accel
    for a in args:
        if isinstance(a, Array):
            return accel
    return np


def _array_of(fn: str, *xs: Any) -> Array:
    for x in xs:
        if isinstance(x, Array):
            return x
    raise TypeError(f"accel.{fn}: at least one operand must be an accel.Array")


def isclose(a: Union[Array, Scalar], b: Union[Array, Scalar], rtol: float = 1e-05,
            atol: float = 1e-08, equal_nan: bool = False) -> Array:
    """Elementwise ``|a - b| <= atol + rtol * |b|`` (NumPy's isclose, in
    float64; infinities are close only to themselves, NaN to NaN only with
    equal_nan), as a uint8 array of 1 (close) and 0: accel has no bool
    dtype yet. a and b: arrays of one shape and dtype, or one a Python
    scalar. Raises ShapeMismatchError, DtypeMismatchError."""
    x = _array_of("isclose", a, b)
    if not isinstance(a, Array):
        a = x.dtype.type(a)
    if not isinstance(b, Array):
        b = x.dtype.type(b)
    return _isclose(a, b, float(rtol), float(atol), int(bool(equal_nan)))


def allclose(a: Union[Array, Scalar], b: Union[Array, Scalar], rtol: float = 1e-05,
             atol: float = 1e-08, equal_nan: bool = False) -> bool:
    """True when every element of a and b is close (:func:`isclose`); waits
    for the result. An empty array is all close."""
    c = isclose(a, b, rtol, atol, equal_nan)
    if c.size == 0:
        return True
    global _all
    if _all is None:
        _all = ReductionKernel("uint8 x", "int32 y", "(int)x", "min(a, b)", "a", "1",
                               "accel_all")
    return bool(int(_all(c).get()))


def clip(a: Array, a_min: Optional[Union[Array, Scalar]], a_max: Optional[Union[Array, Scalar]],
         out: Optional[Array] = None) -> Array:
    """a limited to [a_min, a_max] elementwise (NumPy's clip: a NaN stays
    NaN; a_min > a_max gives a_max). a_min, a_max: scalars or arrays of a's
    shape and dtype; one may be None. Raises InvalidArgumentError when both
    are None, ShapeMismatchError, DtypeMismatchError."""
    if not isinstance(a, Array):
        raise TypeError(f"accel.clip: a is an accel.Array, not {type(a).__name__}")
    lo = a_min if a_min is None or isinstance(a_min, Array) else a.dtype.type(a_min)
    hi = a_max if a_max is None or isinstance(a_max, Array) else a.dtype.type(a_max)
    if lo is None and hi is None:
        raise error("ACCEL_ERROR_INVALID_ARGUMENT", "accel.clip: a_min and a_max are both None")
    if lo is None:
        return _clip_hi(a, hi, out) if out is not None else _clip_hi(a, hi)
    if hi is None:
        return _clip_lo(a, lo, out) if out is not None else _clip_lo(a, lo)
    return _clip(a, lo, hi, out) if out is not None else _clip(a, lo, hi)


def where(condition: Array, x: Any = None, y: Any = None) -> Array:
    """x where condition is non-zero, else y, elementwise (condition: an
    array of any kernel dtype, accel's stand-in for bool; x, y: arrays of
    its shape and one dtype, or Python scalars). where(condition) alone
    (NumPy's nonzero) needs the array layer: UnsupportedError."""
    if x is None or y is None:
        raise error("ACCEL_ERROR_UNSUPPORTED",
                    "accel.where: the one-argument form (nonzero) is not supported yet")
    if not isinstance(condition, Array):
        raise TypeError("accel.where: condition is an accel.Array")
    ref = x if isinstance(x, Array) else y if isinstance(y, Array) else None
    if ref is None:
        raise TypeError("accel.where: x or y must be an accel.Array (give the result's dtype)")
    if not isinstance(x, Array):
        x = ref.dtype.type(x)
    if not isinstance(y, Array):
        y = ref.dtype.type(y)
    return _where(condition, x, y)
