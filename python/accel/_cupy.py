# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""CuPy's names that the standard lacks and that compose from the
namespace's functions: get_array_module, isclose, allclose."""
from __future__ import annotations

from types import ModuleType
from typing import Any, Union

import numpy as np

from . import _namespace as ns
from ._array import Array

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
