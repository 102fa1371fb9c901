# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""The Array API standard 2023.12 namespace over accel's C array layer
(accel/array.h), on accel.Array, with CuPy's signatures where they accept
more (dtype and device by position, out=, NumPy's promotion where the
standard has no rule). ``accel`` itself is this namespace (__init__.py).

    import accel as xp
    x = xp.asarray([[1, 2, 3], [4, 5, 6]], dtype=xp.int16)
    y = xp.sum(x[:, ::2], axis=(0,), keepdims=True)   # a view, then a C reduction

Indexing with integers, slices (any step), None and Ellipsis gives views
sharing the buffer; boolean masks and integer arrays gather on the device.
Every computation is a C call on the array's device (accel_array_unary,
_binary, _clip, _where, _astype, _copy, _reduce, _take, _mask_gather, _sort,
_matmul, ...); promotion is the C library's (accel_result_type,
accel_result_type_scalar) where the standard defines it. Host memory is used
only to bring data in (asarray of host data, arange, linspace, eye) and out
(``get()``, ``__array__``, ``float(x)``, ...). Functions of the standard that
the C layer has no op for yet raise NotImplementedError naming them;
searchsorted and the set functions are in _sets.py, the extensions in
linalg.py and fft.py. docs/python.md lists what is there and what differs
from the standard.
"""
from __future__ import annotations

import builtins as _b
import ctypes
import math
import numbers
import operator
from typing import Any, Callable, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from . import _aa_lib as C
from . import _lib as L
from ._array import (Array, _alloc, _c_strides, _prepare, _scalar_fits, _shape_of, _view,
                     _writable, contiguous, fill)
from ._array import _dtype_of as _dtype
from ._array import asarray as _host_asarray
from ._array import _upload as _host_upload
from . import _core
from ._core import Device, get_device

__array_api_version__ = "2023.12"

# The dtypes are NumPy dtype objects (np.dtype), so that x.dtype == accel.float32
# and dictionaries keyed by them work as the standard's tests use them; they
# serve as dtype= everywhere (CuPy's cp.float32 is NumPy's scalar type).
bool = np.dtype(np.bool_)  # noqa: A001 (the standard's name)
int8, int16, int32, int64 = (np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))
uint8, uint16, uint32, uint64 = (np.dtype(t) for t in (np.uint8, np.uint16, np.uint32,
                                                       np.uint64))
float16, float32, float64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
# Stored, copied and read back; no C function computes on them yet.
complex64, complex128 = np.dtype(np.complex64), np.dtype(np.complex128)

e, pi, inf, nan = math.e, math.pi, math.inf, math.nan
newaxis = None

def _check(code: int) -> None:
    if code:
        raise L.failed(code)


def _q(*arrays: Array) -> int:
    """The current stream of the arrays' device, ordered after the earlier
    work on each array's buffer (as every op of the package)."""
    return _prepare(arrays[0].device, *arrays)._h()


# ------------------------------------------------------- Array's standard side
def _array_namespace(self: Array, *, api_version: Optional[str] = None) -> Any:
    """The namespace of the array: ``accel`` (the Array API 2023.12's)."""
    if api_version not in (None, "2023.12", "2022.12", "2021.12"):
        raise ValueError(f"accel: api_version {api_version!r} is not supported (2023.12)")
    import accel
    return accel


def _to_device(self: Array, device: Any, /, *, stream: Any = None) -> Array:
    """The array on `device`: itself when it is there, else a copy
    (accel_queue_copy)."""
    return asarray(self, device=device)


def _setitem(self: Array, key: Any, value: Any) -> None:
    """x[key] = value on the device: a view's elements (ints, slices, None,
    Ellipsis) from value broadcast and converted (accel_array_copy,
    _astype), or the elements of a boolean mask (accel_array_mask_scatter)
    or of an integer index array along axis 0 (accel_array_scatter)."""
    _writable(self, "__setitem__")
    _scalar_fits(value, self.dtype, "__setitem__")
    k = _array_key(self, key)
    if k is None:
        dst = _getitem(self, key)
        copyto(dst, _drop_leading_ones(value, dst.ndim))
        return
    vals = astype(_as_operand(value, self, "__setitem__"), self.dtype, copy=False)
    if self.size == 0:
        return
    if k.dtype != bool:  # the selection: k's axes, then self's past axis 0
        vals = _drop_leading_ones(vals, k.ndim + self.ndim - 1)
    elif k.ndim:  # the selected elements' one axis, then self's past the mask's
        vals = _drop_leading_ones(vals, 1 + self.ndim - k.ndim)
    # x[idx] = x[0], x[perm] = x: the C scatters refuse values or indices in
    # x's own buffer (no in-place form), so those are copied first, as NumPy
    vals = _copy_of(vals) if _shares(vals, self) else vals
    k = _copy_of(k) if _shares(k, self) else k
    if k.dtype == bool and k.ndim == 0:
        if k:
            copyto(self, vals if vals.ndim <= self.ndim else squeeze(vals, axis=0))
        return
    if k.dtype == bool:
        if k.shape != self.shape[:k.ndim]:
            raise IndexError(f"accel: boolean index of shape {k.shape} for an array of shape "
                             f"{self.shape}")
        if vals.ndim:
            # NumPy's rule: values broadcast to (count,) + the other axes (the
            # C call writes the first count it is given and keeps the rest)
            count = int(sum(astype(k, int64)))
            want = (count,) + self.shape[k.ndim:]
            try:
                vals = broadcast_to(vals, want)
            except ValueError:
                raise L.error("ACCEL_ERROR_SHAPE_MISMATCH",
                              f"accel: boolean index assignment: values of shape {vals.shape} "
                              f"do not broadcast to {want}, what the mask selects") \
                    from None
        _check(C.mask_scatter(_q(self, k, vals), self._cv(), k._cv(), vals._cv()))
        return
    n = self.shape[0] if self.ndim else 0
    if k.dtype.kind not in "iu" or (k.size and (int(max(k)) >= n or int(min(k)) < -n)):
        raise IndexError(f"accel: index array {k.dtype} out of range for axis 0 of size {n}")
    _check(C.scatter(_q(self, k, vals), self._cv(), k._cv(), 0, vals._cv()))


def _drop_leading_ones(value: Any, ndim: int) -> Any:
    """value without the leading size-1 axes past ndim, as NumPy drops them
    from an assigned value (z[...] = ones((1, 3)), x[[0, 1]] = ones((1, 2)))."""
    extra = getattr(value, "ndim", 0) - ndim
    if extra > 0 and _b.all(d == 1 for d in value.shape[:extra]):
        return value[(0,) * extra]
    return value


def _shares(a: Array, b: Array) -> _b.bool:
    return a._block is b._block


def copyto(dst: Array, src: Any) -> None:
    """dst[...] = src on the device (NumPy's copyto): src (an array or a
    Python scalar) broadcast to dst's shape and converted to dst's dtype
    (accel_array_copy, accel_array_astype). Raises ShapeMismatchError
    (a ValueError) when src does not broadcast to dst, ValueError or
    OverflowError for a scalar an integer dst cannot hold (NaN, an
    infinity, an integer out of range)."""
    _writable(dst, "copyto")
    _scalar_fits(src, dst.dtype, "copyto")
    s = _as_operand(src, dst, "copyto")
    if s.dtype != dst.dtype:
        s = _broadcast_view(s, dst.shape)
        _apart(C.astype, _copy_of(s) if _shares(s, dst) else s, dst)
        return
    if _shares(s, dst):
        s = _copy_of(s)
    _copy_into(s, dst)


def _view_method(self: Array, dtype: Any = None) -> Array:
    """x.view(dtype): the same bytes read as another dtype, sharing the
    buffer (NumPy's): of the same item size any view; of another, the last
    axis must be contiguous and its bytes (and the offset and the other
    strides) whole items of the new dtype. Raises ValueError otherwise."""
    if dtype is None:
        return _view(self, self.shape, self._offset, self._st)
    dt = _dtype(dtype, "view")
    old, new = self.dtype.itemsize, dt.itemsize
    st = self._st if self._st is not None else _c_strides(self.shape)
    if old == new:
        return _view(self, self.shape, self._offset, st, dt)
    scaled = [v * old for v in (self._offset, *st[:-1])] if self.ndim else []
    if (self.ndim == 0 or (st[-1] != 1 and self.shape[-1] != 1)
            or (self.shape[-1] * old) % new or _b.any(v % new for v in scaled)):
        raise ValueError(f"accel: view of {self.dtype} {self.shape} as {dt}: the last axis must "
                         "be contiguous and hold whole items of the new dtype")
    shape = self.shape[:-1] + (self.shape[-1] * old // new,)
    return _view(self, shape, scaled[0] // new, tuple(v // new for v in scaled[1:]) + (1,), dt)


def _fill_method(self: Array, value: Any) -> None:
    """x.fill(value): every element set to value (NumPy's and CuPy's method)."""
    fill(self, value)


def _attach() -> None:
    """The standard's side of accel.Array: namespace, device moves, item
    assignment, operators (plain, reflected, in-place), comparisons; the
    fast +, -, *, / replace four of these in _ufunc.py."""
    Array.__array_namespace__ = _array_namespace  # type: ignore[attr-defined]
    Array.to_device = _to_device  # type: ignore[attr-defined]
    Array.__getitem__ = lambda s, k: _getitem(s, k)  # type: ignore[attr-defined]
    Array.__setitem__ = _setitem  # type: ignore[attr-defined]
    Array.__pos__ = lambda s: positive(s)  # type: ignore[attr-defined]
    Array.__invert__ = lambda s: bitwise_invert(s)  # type: ignore[attr-defined]
    Array.__matmul__ = lambda s, o: matmul(s, o)  # type: ignore[attr-defined]
    Array.__rmatmul__ = lambda s, o: matmul(o, s)  # type: ignore[attr-defined]
    ops = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
           "floordiv": "floor_divide", "mod": "remainder", "pow": "pow",
           "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
           "lshift": "bitwise_left_shift", "rshift": "bitwise_right_shift"}
    for op, fn in ops.items():
        setattr(Array, f"__{op}__", lambda s, o, fn=fn: _binary(fn, s, o))
        setattr(Array, f"__r{op}__", lambda s, o, fn=fn: _binary(fn, o, s))
        setattr(Array, f"__i{op}__", lambda s, o, fn=fn: _inplace(s, o, fn))
    cmp = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal",
           "gt": "greater", "ge": "greater_equal"}
    for op, fn in cmp.items():
        setattr(Array, f"__{op}__", lambda s, o, fn=fn: _compare(fn, s, o))
    Array.__imatmul__ = lambda s, o: _inplace(s, o, "matmul")  # type: ignore[attr-defined]
    # divmod(x, y), NumPy's: (x // y, x % y)
    Array.__divmod__ = lambda s, o: (_binary("floor_divide", s, o),  # type: ignore[attr-defined]
                                     _binary("remainder", s, o))
    Array.__rdivmod__ = lambda s, o: (_binary("floor_divide", o, s),  # type: ignore[attr-defined]
                                      _binary("remainder", o, s))


def _compare(fn: str, x: Array, o: Any) -> Any:
    if not isinstance(o, (Array, _b.bool, int, float, complex, np.generic, np.ndarray)):
        return NotImplemented
    return _binary(fn, x, o)


def _inplace(x: Array, other: Any, name: str) -> Array:
    r = matmul(x, other) if name == "matmul" else _binary(name, x, other)
    if r.shape != x.shape:
        raise ValueError(f"accel: in-place {name} gives shape {r.shape}, x is {x.shape}")
    if r.dtype != x.dtype and not can_cast(r.dtype, x.dtype) and not (
            x.dtype.kind == r.dtype.kind or (x.dtype.kind, r.dtype.kind) == ("f", "c")):
        raise TypeError(f"accel: in-place {name} would give {r.dtype}, x is {x.dtype}")
    copyto(x, r)
    return x


# ------------------------------------------------------------- making arrays
def _new(shape: Sequence[int], dtype: np.dtype, device: Device) -> Array:
    """A fresh C-contiguous array (contents undefined)."""
    return _alloc(tuple(shape), dtype, device)


def _derived(x: Array, v: C.View, dtype: Optional[np.dtype] = None) -> Array:
    """A view of x's buffer described by the C descriptor v."""
    dt = x.dtype if dtype is None else dtype
    nd = v.ndim
    return _view(x, tuple(v.shape[:nd]), v.offset // dt.itemsize, tuple(v.strides[:nd]), dt)


def _upload(h: np.ndarray, dtype: np.dtype, device: Device) -> Array:
    return _host_upload(np.asarray(h, dtype=dtype, order="C"), device)


def _device(device: Any, *like: Any) -> Device:
    if device is not None:
        return get_device(device)
    for x in like:
        if isinstance(x, Array):
            return x.device
    return get_device(None)


def _default_dtype(obj: Any) -> np.dtype:
    """The dtype asarray gives Python data: bool, int64 or float64."""
    flat = np.asarray(obj, dtype=object).ravel()
    # 0-d NumPy arrays in a list ([np.array(1.0), np.array(2.0)]) are their
    # scalars, as for NumPy (they raised TypeError)
    flat = np.array([v[()] if isinstance(v, np.ndarray) and v.ndim == 0 else v for v in flat],
                    dtype=object)
    kinds = {type(v) for v in flat}
    if _b.any(issubclass(k, np.ndarray) for k in kinds):
        raise ValueError("accel.asarray: the nested arrays have different shapes (an "
                         "inhomogeneous shape), which no array has")
    if _b.any(issubclass(k, (list, tuple)) for k in kinds):
        raise ValueError("accel.asarray: the nested sequences have different lengths (an "
                         "inhomogeneous shape), which no array has")
    for k in kinds:
        if not issubclass(k, (_b.bool, int, float, complex, np.bool_, np.number)):
            raise TypeError(f"accel.asarray: {k.__name__} data has no array dtype (accel arrays "
                            "hold bools, integers, floats and complex numbers)")
    if _b.any(issubclass(k, np.generic) and not issubclass(k, (float, complex)) and
              k is not np.bool_ for k in kinds):
        return np.asarray(obj).dtype  # NumPy scalars (np.float32(1.5)): NumPy's dtype
    if _b.any(issubclass(k, complex) for k in kinds):
        return complex128
    if not flat.size or _b.any(issubclass(k, float) for k in kinds):
        return float64
    if _b.all(issubclass(k, (np.bool_,)) or k is _b.bool for k in kinds):
        return bool
    big = [int(v) for v in flat if isinstance(v, int) and v > 2 ** 63 - 1]
    if big and _b.all(0 <= int(v) < 2 ** 64 for v in flat):
        return uint64  # NumPy's dtype of [2**64 - 1]
    return int64


def asarray(obj: Any, dtype: Any = None, device: Any = None, copy: Any = None) -> Array:
    """An array from an accel Array, a NumPy array (its dtype; float128
    becomes float64), anything with ``__array__`` or ``__dlpack__``, a
    Python scalar or nested sequences (bool, int64, float64 or complex128 as
    the standard says, unless `dtype` says otherwise; an int that does not
    fit the dtype raises OverflowError). Host data is copied to `device`
    (default: an accel array's own, else the current device). copy: True
    always copies, False never (ValueError for host data, which must be
    copied), None when needed. As cupy.asarray, `dtype` and `device` may be
    given by position. Raises TypeError for a dtype accel lacks."""
    dt = None if dtype is None else _dtype(dtype, "asarray")
    if isinstance(obj, Array):
        r = obj if dt is None or dt == obj.dtype else astype(obj, dt)
        r = _host_asarray(r, None, _device(device, obj))
        if r is not obj and copy is False:
            raise ValueError("accel.asarray: copy=False, but a copy is needed (dtype or device)")
        return _copy_of(obj) if copy and r is obj else r
    if copy is False:
        raise ValueError("accel.asarray: copy=False, but host data must be copied to the device")
    if isinstance(obj, (bytes, str)):
        raise TypeError(f"accel.asarray: {type(obj).__name__} data has no array dtype (a "
                        "memoryview of bytes gives uint8)")
    if isinstance(obj, (list, tuple)) and _holds_arrays(obj):
        obj = _host_values(obj)  # [x.mean(), x.std()]: CuPy's array of device values
    if isinstance(obj, np.ndarray) or hasattr(obj, "__array__") or isinstance(
            obj, (memoryview, bytearray)):
        h = np.asarray(obj)
        if not h.dtype.isnative:  # big-endian data: its values, in this machine's order
            h = h.astype(h.dtype.newbyteorder("="))
        if h.dtype.kind == "f" and h.dtype.itemsize > 8:
            h = h.astype(float64)
        if dt is None:
            dt = _dtype(h.dtype, "asarray")
    else:
        if dt is None:
            dt = _default_dtype(obj)
        if dt.kind in "iu":
            _int_range(obj, dt)
        # integers straight into dt (NumPy's conversion: through float64,
        # 2**64 - 1 would round, and NaN would become any integer)
        h = np.asarray(obj, dtype=dt) if dt.kind in "iu" else np.asarray(obj)
    return _upload(h.astype(dt) if h.dtype != dt else h, dt, _device(device))


array = asarray


def _holds_arrays(obj: Any) -> _b.bool:
    """A (nested) list or tuple with an accel Array in it."""
    return _b.any(isinstance(v, Array) or (isinstance(v, (list, tuple)) and _holds_arrays(v))
                  for v in obj)


def _host_values(obj: Any) -> np.ndarray:
    """A nested sequence of accel Arrays and scalars as one NumPy array:
    each Array read to the host, the whole promoted by NumPy's rules."""
    def host(v: Any) -> Any:
        if isinstance(v, Array):
            return v.get()
        if isinstance(v, (list, tuple)):
            return [host(w) for w in v]
        return v
    return np.asarray(host(obj))


def _int_range(obj: Any, dt: np.dtype) -> None:
    info = np.iinfo(dt)
    for v in np.asarray(obj, dtype=object).ravel():
        if isinstance(v, int) and not info.min <= v <= info.max:
            raise OverflowError(f"accel.asarray: {v} does not fit {dt}")


def _scalar_array(value: Any, dtype: np.dtype, device: Device) -> Array:
    """A 0-d array of value in dtype, filled on the device (complex values
    are copied from the host)."""
    if dtype.kind in "iu" and not isinstance(value, (_b.bool, np.bool_)):
        info = np.iinfo(dtype)
        if not info.min <= int(value) <= info.max:
            raise OverflowError(f"accel: the Python scalar {value} does not fit {dtype}")
    if dtype.kind == "c" or isinstance(value, complex):
        return _upload(np.asarray(value, dtype=dtype), dtype, device)
    if dtype.kind in "iub" and isinstance(value, float):
        value = int(value) if math.isfinite(value) else 0
    return fill(_new((), dtype, device), value)


def empty(shape: Any, dtype: Any = None, device: Any = None) -> Array:
    """A new C-contiguous array of `shape` on `device` (default: the current
    device), contents undefined; dtype default float64."""
    return _new(_shape(shape, "empty"), _dtype(dtype or float64, "empty"), _device(device))


def full(shape: Any, fill_value: Any, dtype: Any = None, device: Any = None) -> Array:
    """A new array with every element fill_value (dtype default: bool, int64,
    float64 or complex128 from the value), filled on the device by one
    call (Array.fill's conversion: a float into an integer dtype
    truncated, into bool nonzero, as NumPy; OverflowError past an integer
    dtype's range or for an infinity, ValueError for NaN, TypeError for a
    complex value and a real dtype, where NumPy wraps or casts)."""
    if dtype is None:  # an array's or NumPy scalar's dtype, as NumPy's full
        dtype = fill_value.dtype if isinstance(fill_value, (Array, np.generic, np.ndarray)) and \
            fill_value.ndim == 0 and fill_value.dtype in C.CODES else _default_dtype(fill_value)
    if isinstance(fill_value, Array):
        fill_value = fill_value.item()
    dt = _dtype(dtype, "full")
    dev = _device(device)
    out = _new(_shape(shape, "full"), dt, dev)
    # One fill, not a 0-d array copied out (two ops: zeros(1024) took 14
    # us on the CPU, and full(n, 0.5, dtype=bool) gave False)
    return fill(out, fill_value)


def zeros(shape: Any, dtype: Any = None, device: Any = None) -> Array:
    """A new array of zeros (dtype default float64)."""
    return full(shape, 0, dtype=dtype or float64, device=device)


def ones(shape: Any, dtype: Any = None, device: Any = None) -> Array:
    """A new array of ones (dtype default float64)."""
    return full(shape, 1, dtype=dtype or float64, device=device)


def empty_like(x: Array, /, dtype: Any = None, device: Any = None) -> Array:
    """A new array of x's shape (and dtype, device unless given)."""
    return empty(x.shape, dtype=dtype or x.dtype, device=device or x.device)


def zeros_like(x: Array, /, dtype: Any = None, device: Any = None) -> Array:
    """Zeros of x's shape (and dtype, device unless given)."""
    return zeros(x.shape, dtype=dtype or x.dtype, device=device or x.device)


def ones_like(x: Array, /, dtype: Any = None, device: Any = None) -> Array:
    """Ones of x's shape (and dtype, device unless given)."""
    return ones(x.shape, dtype=dtype or x.dtype, device=device or x.device)


def full_like(x: Array, /, fill_value: Any, dtype: Any = None, device: Any = None) -> Array:
    """fill_value in x's shape (and dtype, device unless given)."""
    return full(x.shape, fill_value, dtype=dtype or x.dtype, device=device or x.device)


def _arange_on_device(dt: np.dtype, bounds: Tuple[Any, ...]) -> _b.bool:
    """Whether accel_array_arange makes NumPy's values for these bounds:
    an integer dtype with integral bounds within 2**53 (exact in the double
    arguments), or float64 with finite ones; a nonzero step, and for float64
    one much larger than start's ulp: NumPy's values are start + i delta,
    delta = (start + step) - start, its count from step, and where the two
    differ (arange(1e16, 1e16 + 5, 1.0): delta 0, 1e16 four times) the C
    call's count from delta would not be NumPy's: those go to the host."""
    def fits(v: Any) -> _b.bool:
        if isinstance(v, (_b.bool, np.bool_)) or not isinstance(
                v, (int, float, np.integer, np.floating)) or not math.isfinite(v):
            return False
        return dt == float64 or (float(v) == int(v) and _b.abs(v) < 2 ** 53)
    if not ((dt.kind in "iu" or dt == float64) and bounds[2] != 0 and _b.all(map(fits, bounds))):
        return False
    start, step = float(bounds[0]), float(bounds[2])
    return dt != float64 or _b.abs(((start + step) - start) - step) <= 1e-9 * _b.abs(step)


def _inexact(v: Any) -> str:
    """"f" or "c" when the scalar v (a Python or NumPy scalar, a 0-d
    array) is a real or complex float, else "": what picks arange's dtype
    (np.float32(0.25) is no Python float, so an isinstance test gave int64)."""
    if isinstance(v, (_b.bool, int)):
        return ""
    if isinstance(v, (float, complex)):
        return "f" if isinstance(v, float) else "c"
    k = (v.dtype if isinstance(v, Array) else np.asarray(v).dtype).kind
    return k if k in "fc" else ""


def _arange_fits(bounds: Tuple[Any, Any, Any], dt: np.dtype) -> None:
    """OverflowError unless arange's first and last values fit the integer
    dtype dt (NumPy refuses only a start past it and wraps the later values:
    arange(-3, 3, dtype=uint8) would give 253 254 255 0 1 2). int64 needs no
    check: bounds past it fail on their own."""
    start, stop, step = bounds
    if _b.all(isinstance(v, (int, np.integer)) for v in bounds):
        r = range(int(start), int(stop), int(step)) if step else range(0)
        ends = (r[0], r[-1]) if r else ()
    else:  # float bounds: NumPy's count, values start + i step truncated
        n = _b.max(0, math.ceil((float(stop) - float(start)) / float(step))) if step else 0
        ends = (int(float(start)), int(float(start) + (n - 1) * float(step))) if n else ()
    info = np.iinfo(dt)
    if ends and not (info.min <= _b.min(ends) and _b.max(ends) <= info.max):
        raise OverflowError(f"accel.arange: the values {ends[0]} .. {ends[1]} do not fit {dt}")


def arange(start: Any, /, stop: Any = None, step: Any = 1, dtype: Any = None,
           device: Any = None) -> Array:
    """As the standard's (and NumPy's) arange: int64 for int bounds, float64
    when any is a float, unless dtype says otherwise. int64 and float64
    (and the other integers) are made on the device (accel_array_arange:
    no host copy of the values, NumPy's values bit for bit) where the bounds
    are finite and, for integers, within 2**53; other dtypes (float32, whose
    NumPy values are float32 arithmetic) on the host and copied."""
    kinds = [_inexact(v) for v in (start, stop, step)]
    if "c" in kinds:
        raise TypeError("accel.arange: complex bounds (NumPy's complex arange) are not supported")
    if dtype is None:
        dtype = float64 if "f" in kinds else int64
    dt = _dtype(dtype, "arange")
    if stop is None:
        start, stop = 0, start
    bounds = (start, stop, step)
    if dt.kind in "iu" and dt != int64:
        _arange_fits(bounds, dt)
    if not _arange_on_device(dt, bounds):
        return _upload(np.arange(start, stop, step, dtype=dt), dt, _device(device))
    n = _b.max(0, math.ceil((stop - start) / step)) if dt.kind == "f" else len(
        range(int(start), int(stop), int(step)))
    out = _new((n,), dt, _device(device))
    # NumPy's values are start + i * (the second value - the first), its
    # count from step: a stop half a delta past the last value gives C the
    # same count whatever delta's rounding.
    delta = (float(start) + float(step)) - float(start) if dt.kind == "f" else float(step)
    if n:
        _check(C.arange(_q(out), float(start), float(start) + (n - 0.5) * delta, delta,
                        out._cv()))
    return out


def linspace(start: Any, stop: Any, /, num: int = 50, endpoint: _b.bool = True,
             retstep: _b.bool = False, dtype: Any = None, *, device: Any = None) -> Any:
    """As the standard's linspace (its arguments by keyword) and NumPy's and
    CuPy's (num, endpoint, retstep by position too: linspace(0, 1, 5, False)
    had taken False for dtype and kept the endpoint); num defaults to 50.
    With retstep, (the array, the step). Made on the host, then copied."""
    if dtype is None:  # NumPy's: float64 from Python numbers, float32 from a float32 scalar
        dtype = np.result_type(*(v.dtype if isinstance(v, Array) else v for v in (start, stop)),
                               float(num))
    dt = _dtype(dtype, "linspace")
    h, step = np.linspace(start, stop, num, endpoint=endpoint, dtype=dt, retstep=True)
    r = _upload(h, dt, _device(device))
    return (r, step) if retstep else r


def eye(n_rows: int, n_cols: Optional[int] = None, /, k: int = 0, dtype: Any = None,
        device: Any = None) -> Array:
    """As the standard's eye (made on the host, then copied)."""
    dt = _dtype(dtype or float64, "eye")
    return _upload(np.eye(n_rows, n_cols, k=k, dtype=dt), dt, _device(device))


def _shape(shape: Any, fn: str) -> Tuple[int, ...]:
    return _shape_of(shape, f"accel.{fn}")


def from_dlpack(x: Any, /, *, device: Any = None, copy: Any = None) -> Array:
    raise NotImplementedError("accel.from_dlpack is not there yet (accel.from_dlpack "
                              "gives accel.Array)")


# ------------------------------------------------------------------ dtypes
def result_type(*arrays_and_dtypes: Any) -> np.dtype:
    """The promoted dtype of arrays and dtypes, folded pairwise through the
    C library's accel_result_type."""
    if not arrays_and_dtypes:
        raise ValueError("accel.result_type: at least one array or dtype")
    dts = [a.dtype if isinstance(a, Array) else _dtype(a, "result_type")
           for a in arrays_and_dtypes]
    r = dts[0]
    for d in dts[1:]:
        r = _promote(r, d)
    return r


def _promote(a: np.dtype, b: np.dtype, strict: _b.bool = False) -> np.dtype:
    """The standard's promotion of a and b (accel_result_type); where it has
    none (mixed kinds: int32 with float32, int64 with uint64), NumPy's
    (np.result_type), as a CuPy user expects, unless strict."""
    for d in (a, b):
        if d not in C.CODES:
            raise L.error("ACCEL_ERROR_DTYPE_MISMATCH",
                          f"accel: {d} arrays are stored and copied only (no function computes "
                          "on them)")
    out = ctypes.c_int()
    code = C.result_type(C.CODES[a], C.CODES[b], ctypes.byref(out))
    if code and not strict:
        r = np.result_type(a, b)
        if r in C.CODES:
            return r
    if code:
        raise TypeError(L.failed(code).message)
    if out.value not in C.DTYPES:
        raise TypeError(f"accel: {a} and {b} promote to a dtype the namespace "
                        "lacks")
    return C.DTYPES[out.value]


def _scalar_kind(value: Any) -> int:
    if isinstance(value, (_b.bool, np.bool_)):
        return C.KIND_BOOL
    if isinstance(value, int):
        return C.KIND_INT
    if isinstance(value, float):
        return C.KIND_FLOAT
    if isinstance(value, complex):
        return C.KIND_COMPLEX
    raise TypeError(f"accel: operand of type {type(value).__name__} is neither an "
                    "array nor a Python scalar")


def _promote_scalar(a: np.dtype, value: Any) -> np.dtype:
    if a not in C.CODES:
        # float16/bfloat16 (stored and copied only): the value as float64, which a
        # store converts (astype) and every function refuses beside them (_promote)
        return float64
    out = ctypes.c_int()
    _check(C.result_type_scalar(C.CODES[a], _scalar_kind(value), ctypes.byref(out)))
    if out.value not in C.DTYPES:
        raise TypeError(f"accel: {a} with a {type(value).__name__} scalar gives a "
                        "dtype accel.array_api does not have")
    return C.DTYPES[out.value]


def can_cast(from_: Any, to: Any, /) -> _b.bool:
    """True when from_ promotes to `to` (accel_result_type)."""
    f = from_.dtype if isinstance(from_, Array) else _dtype(from_, "can_cast")
    t = _dtype(to, "can_cast")
    if f == t:
        return True
    try:
        return _promote(f, t, strict=True) == t
    except TypeError:
        return False


def isdtype(dtype: Any, kind: Any) -> _b.bool:
    """The standard's isdtype, by the C library's kinds (accel_dtype_kind_of)."""
    dt = _dtype(dtype, "isdtype")
    if isinstance(kind, tuple):
        return _b.any(isdtype(dt, k) for k in kind)
    if not isinstance(kind, str):
        return dt == _dtype(kind, "isdtype")
    k = C.dtype_kind_of(C.CODES[dt])
    kinds = {"bool": (C.KIND_BOOL,), "signed integer": (C.KIND_INT,),
             "unsigned integer": (C.KIND_UINT,), "integral": (C.KIND_INT, C.KIND_UINT),
             "real floating": (C.KIND_FLOAT,), "complex floating": (C.KIND_COMPLEX,),
             "numeric": (C.KIND_INT, C.KIND_UINT, C.KIND_FLOAT, C.KIND_COMPLEX)}
    if kind not in kinds:
        raise ValueError(f"accel.isdtype: unknown kind {kind!r} (one of "
                         f"{', '.join(kinds)})")
    return k in kinds[kind]


class _Finfo:
    """finfo's answer: Python floats and ints, as the standard asks."""

    def __init__(self, dt: np.dtype):
        f = np.finfo(dt)
        self.bits, self.dtype = int(f.bits), float32 if f.dtype == float32 else float64
        self.eps, self.max, self.min = float(f.eps), float(f.max), float(f.min)
        self.smallest_normal = float(f.smallest_normal)

    def __repr__(self) -> str:
        return f"finfo(dtype={self.dtype}, bits={self.bits}, eps={self.eps})"


def finfo(type: Any, /) -> _Finfo:
    """Machine limits of a float or complex dtype (bits, eps, max, min,
    smallest_normal: Python numbers; dtype: the real dtype)."""
    return _Finfo(type.dtype if isinstance(type, Array) else _dtype(type, "finfo"))


def iinfo(type: Any, /) -> Any:
    """Machine limits of an integer dtype (NumPy's iinfo: bits, max, min, dtype)."""
    return np.iinfo(type.dtype if isinstance(type, Array) else _dtype(type, "iinfo"))


def astype(x: Array, dtype: Any, /, *, copy: _b.bool = True, device: Any = None) -> Array:
    """x converted to dtype on its device (accel_array_astype; a real x to
    a complex dtype gets imaginary parts 0, a complex x to bool x != 0, as
    NumPy's). Raises UnsupportedError from complex to another real dtype."""
    dt = _dtype(dtype, "astype")
    if device is not None:
        x = x.to_device(device)
    if dt == x._dtype:
        return _copy_of(x) if copy else x
    if dt == bool and x._dtype.kind == "c":
        return not_equal(x, 0)
    out = _new(x.shape, dt, x.device)
    if out.size == 0:
        return out
    _check(C.astype(_q(x, out), x._cv(), out._cv()))
    return out


class _Info:
    """What __array_namespace_info__() returns."""

    def capabilities(self) -> dict:
        return {"boolean indexing": True, "data-dependent shapes": True,
                "max dimensions": C.MAX_NDIM}

    def default_device(self) -> Device:
        return get_device(None)

    def devices(self) -> list:
        from ._core import devices
        return devices()

    def default_dtypes(self, *, device: Any = None) -> dict:
        return {"real floating": float64, "complex floating": complex128, "integral": int64,
                "indexing": int64}

    def dtypes(self, *, device: Any = None, kind: Any = None) -> dict:
        names = {"bool": bool, "int8": int8, "int16": int16, "int32": int32, "int64": int64,
                 "uint8": uint8, "uint16": uint16, "uint32": uint32, "uint64": uint64,
                 "float32": float32, "float64": float64, "complex64": complex64,
                 "complex128": complex128}
        return {n: d for n, d in names.items() if kind is None or isdtype(d, kind)}


def __array_namespace_info__() -> _Info:
    return _Info()


# ------------------------------------------------------------- elementwise
def _as_operand(x: Any, like: Array, fn: str) -> Array:
    """x as an array next to `like`: a Python scalar takes the dtype the
    standard gives it with like's dtype (accel_result_type_scalar); a NumPy
    scalar keeps its own dtype, np.float64 and np.complex128 too although
    they subclass float and complex (NumPy 2's NEP 50: float32 array *
    np.float64(2) is float64)."""
    if isinstance(x, Array):
        return x
    if isinstance(x, np.ndarray):
        raise L.error("ACCEL_ERROR_DEVICE_MISMATCH",
                      f"accel.{fn}: a NumPy array mixed with an accel array (copy it with "
                      "accel.asarray first)")
    if isinstance(x, np.generic):
        return _scalar_array(x.item(), _dtype(x.dtype, fn), like.device)
    return _scalar_array(x, _promote_scalar(like._dtype, x), like.device)


def _wide_operand(x: Any, like: Array, fn: str) -> Array:
    """_as_operand, but a Python int out of like's integer dtype's range as
    int64 (uint64 past it), for the functions whose answer does not live in
    like's dtype (clip, searchsorted; divide's as float64): NumPy 2 computes
    uint8 / -1 and searchsorted(uint8, 300) where uint8 + 300 raises."""
    if isinstance(x, int) and not isinstance(x, (_b.bool, np.bool_)) and like._dtype.kind in "iu":
        info = np.iinfo(like._dtype)
        if not info.min <= x <= info.max:
            dt = float64 if fn == "divide" else int64 if x < 2**63 else uint64
            return _scalar_array(float(x) if dt == float64 else x, dt, like.device)
    return _as_operand(x, like, fn)


def _result_dtype(fn: str, *dts: np.dtype) -> np.dtype:
    code, arity, res = C.FUNCTIONS[fn]
    if res == C.RESULT_BOOL:
        return bool
    r = dts[0]
    for d in dts[1:]:
        r = _promote(r, d)
    if res == C.RESULT_REAL and r.kind == "c":   # abs: complex64 -> float32
        return float32 if r == complex64 else float64
    return r


def _bshape(*xs: Array, fn: str = "broadcast_shapes") -> Tuple[int, ...]:
    """The broadcast shape of the arrays (accel_broadcast_shapes), or
    ShapeMismatchError naming fn and the shapes. Arrays of one shape
    broadcast to it without the C call (4 us of a 17 us x == y)."""
    s0 = xs[0]._shape if xs else ()
    if xs and _b.all(x._shape == s0 for x in xs):
        for x in xs:  # a released array still raises, as through the C call
            x._blk(fn)
        return s0
    views = [x._cv() for x in xs]
    arr = (C.V * len(xs))(*(ctypes.pointer(v) for v in views))
    nd = ctypes.c_uint32()
    shp = (ctypes.c_int64 * C.MAX_NDIM)()
    code = C.broadcast_shapes(len(xs), arr, ctypes.byref(nd), shp)
    if code:
        e = L.failed(code)
        raise L.error(e.status, f"accel.{fn}: shapes {', '.join(str(x.shape) for x in xs)} do "
                      f"not broadcast ({e.message})")
    return tuple(shp[i] for i in range(nd.value))


# Functions whose bool result NumPy and CuPy give as bool (not float64).
_BOOL_SAME = {"maximum": "logical_or", "minimum": "logical_and", "abs": None, "floor": None,
              "ceil": None, "trunc": None}


def _floats(fn: str, *xs: Array) -> Tuple[Array, ...]:
    """The operands of a function that computes in floats only (divide,
    exp, sin, ...) as float64 when they are integers or bools (NumPy's
    and CuPy's result; the standard leaves it to the library)."""
    kinds = C.KINDS[fn]
    dt = xs[0].dtype if len(xs) == 1 else _result_dtype(fn, *(x.dtype for x in xs))
    if dt.kind == "b" and fn in ("subtract", "negative", "positive", "sign"):
        # NumPy and CuPy refuse these (not float64 arithmetic on 0 and 1)
        raise TypeError(f"accel.{fn}: not defined for bool (use logical_xor or logical_not, "
                        "or astype to a number first)")
    if dt.kind == "b" and fn in ("floor_divide", "remainder", "pow", "fmod"):
        return tuple(astype(x, int8) for x in xs)  # NumPy's and CuPy's int8 results
    k = C.dtype_kind_of(C.CODES[dt]) if dt in C.CODES else 0
    if k and not kinds & (1 << k) and kinds & (1 << C.KIND_FLOAT) and dt.kind in "biu":
        return tuple(astype(x, float64) for x in xs)
    return xs


_COMPARISONS = ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal")


def _compare_out_of_range(fn: str, x1: Any, x2: Any) -> Optional[Array]:
    """An integer array compared with a Python int its dtype cannot hold
    (int8_array == 200): every element compares the same way, and NumPy 2
    gives that answer (an arithmetic op raises OverflowError instead). The
    result, filled on the device; None for any other call."""
    arr, v, flip = (x1, x2, False) if isinstance(x1, Array) else (x2, x1, True)
    if (fn not in _COMPARISONS or v.__class__ is not int or not isinstance(arr, Array)
            or arr.dtype.kind not in "iu"):
        return None
    info = np.iinfo(arr.dtype)
    if info.min <= v <= info.max:
        return None
    below = (v > info.max) != flip  # x1 < x2 for every element
    r = {"equal": False, "not_equal": True, "less": below, "less_equal": below,
         "greater": not below, "greater_equal": not below}[fn]
    return full(arr.shape, r, dtype=bool, device=arr.device)


def _writes_into(out: Any, shape: tuple, dt: Any, device: Any) -> _b.bool:
    """Whether an op's result may be written straight into out: a writable
    accel.Array of the result's shape, dtype and device. Any other out gets
    the result through a temporary (the callers' copyto converts, or
    raises: a read-only view, another shape)."""
    return out.__class__ is Array and out.shape == shape and out._dtype == dt and \
        out.device == device and not getattr(out, "_ro", False)


def _result_of(call: Callable[[Array], int], shape: tuple, dt: Any, device: Any,
               out: Any) -> Array:
    """call(r) (a C array function writing r) into out itself where
    _writes_into allows and the core does not refuse out as partly over an
    input in the same memory; else into a new array, which is returned."""
    if out is not None and _writes_into(out, shape, dt, device):
        code = call(out)
        if not code:
            return out
        if not L.alias_refused(code):
            raise L.failed(code)
    r = _new(shape, dt, device)
    _check(call(r))
    return r


def _binary(fn: str, x1: Any, x2: Any, out: Any = None) -> Array:
    """fn of x1 and x2 (broadcast, promoted) in a new array, or in out
    itself where _writes_into allows and out is not partly over an input in
    the same memory (the core refuses that; a temporary then): the caller
    copies a result that is not out into out."""
    if not isinstance(x1, Array) and not isinstance(x2, Array):
        raise TypeError(f"accel.{fn}: needs at least one array")
    r = _compare_out_of_range(fn, x1, x2)
    if r is not None:
        return r
    if not isinstance(x1, Array):
        x1 = (_wide_operand if fn == "divide" else _as_operand)(x1, x2, fn)
    elif not isinstance(x2, Array):
        x2 = (_wide_operand if fn == "divide" else _as_operand)(x2, x1, fn)
    if x1.device != x2.device:
        for x in (x1, x2):  # an array of a closed runtime: that, not the devices
            if not x.device._rt.alive:
                raise _core.released_error(x.device._rt, f"accel.{fn}: the array's runtime "
                                           "was closed (accel.shutdown()); make it again")
        raise L.error("ACCEL_ERROR_DEVICE_MISMATCH",
                      f"accel.{fn}: arrays on {x1.device.name} and {x2.device.name}")
    shape = _bshape(x1, x2, fn=fn)
    if x1.dtype.kind == x2.dtype.kind == "b" and fn in _BOOL_SAME:
        return _binary(_BOOL_SAME[fn], x1, x2, out)  # max of bools is or (NumPy's bool result)
    x1, x2 = _floats(fn, x1, x2)
    return _result_of(lambda r: C.binary(_q(x1, x2, r), C.FUNCTIONS[fn][0], x1._cv(), x2._cv(),
                                         r._cv()),
                      shape, _result_dtype(fn, x1._dtype, x2._dtype), x1.device, out)


def _unary(fn: str, x: Array, out: Any = None) -> Array:
    """fn of x in a new array, or in out itself as _binary says."""
    _need_array(fn, x)
    if x.dtype.kind == "b" and fn in _BOOL_SAME:
        return astype(x, bool, copy=True)  # NumPy's: a bool is its own abs, floor, ...
    (x,) = _floats(fn, x)
    return _result_of(lambda r: C.unary(_q(x, r), C.FUNCTIONS[fn][0], x._cv(), r._cv()),
                      x.shape, _result_dtype(fn, x._dtype), x.device, out)


def _complex_of(re: Array, im: Array) -> Array:
    """The complex array re + im*j (re and im of one float dtype and shape)."""
    dt = complex64 if re.dtype == float32 else complex128
    out = _new(re.shape, dt, re.device)
    copyto(_pairs(out, 0), re)
    copyto(_pairs(out, 1), im)
    return out


def _elementwise() -> dict:
    fns = {}
    for name, (code, arity, res) in C.FUNCTIONS.items():
        # out= casts as NumPy's ufuncs do: within a kind (same_kind)
        if arity == 1 and name != "astype":
            f = (lambda n: lambda x, /, out=None: _out(_unary(n, x, out), out, n, True))(name)
        elif arity == 2:
            f = (lambda n: lambda x1, x2, /, out=None: _out(_binary(n, x1, x2, out), out, n,
                                                             True))(name)
        else:
            continue
        f.__name__ = name
        f.__doc__ = (f"The standard's {name}, elementwise on the device (accel_array_fn "
                     f"{code}); out= as CuPy's.")
        fns[name] = f
    return fns


globals().update(_elementwise())
_round_half_even = round  # noqa: F821 (the table's row, made above)


def round(x: Array, /, decimals: int = 0, out: Any = None) -> Array:  # noqa: A001
    """Rounded half to even (the table's round), at `decimals` places as
    NumPy's and CuPy's round: round(x * 10**d) / 10**d (so NumPy's last-bit
    results); integers with decimals >= 0 as they are, with decimals < 0
    rounded to tens, hundreds, ... in their dtype."""
    decimals = operator.index(decimals)
    if decimals == 0 or (x.dtype.kind in "biu" and decimals >= 0):
        r = _round_half_even(x)
    else:
        if _b.abs(decimals) > 400:
            raise ValueError(f"accel.round: decimals {decimals} (at most 400 either way)")
        f = 10.0 ** _b.abs(decimals)
        r = (divide(_round_half_even(multiply(x, f)), f) if decimals > 0
             else multiply(_round_half_even(divide(x, f)), f))
        if x.dtype.kind in "iu":
            r = astype(r, x.dtype)
    return _out(r, out, "round")


def signbit(x: Array, /) -> Array:
    """True where x's sign bit is set: copysign(1, x) < 0 on the device."""
    if x.dtype.kind != "f":
        return less(x, 0)
    return less(copysign(ones_like(x), x), 0)


def _in_range(b: Array, dt: np.dtype, lower: _b.bool) -> Array:
    """Bound b in dtype dt. A 0-d integer bound past an integer dt's range
    (_wide_operand) on the side it does not clip (a lower bound below the
    range, an upper one above) is held to the range, clipping nothing;
    OverflowError on the other side, as NumPy's (clip(uint8, 300, None))."""
    if b.ndim == 0 and b.dtype != dt and dt.kind in "iu" and b.dtype.kind in "iu":
        info, v = np.iinfo(dt), int(b)
        if (v > info.max and lower) or (v < info.min and not lower):
            raise OverflowError(f"accel.clip: the bound {v} does not fit {dt}")
        if not info.min <= v <= info.max:
            return _scalar_array(_b.min(_b.max(v, int(info.min)), int(info.max)), dt, b.device)
    return astype(b, dt, copy=False)


def clip(x: Array, /, min: Any = None, max: Any = None, out: Any = None) -> Array:
    """x clamped to [min, max] elementwise in x's dtype (either bound may be
    None; x and the bounds broadcast together, as NumPy's; a NaN stays NaN;
    min > max gives max), on the device (accel_array_clip). CuPy's clip(a, a_min, a_max,
    out) by position."""
    if min is None and max is None:
        return _out(_copy_of(x), out, "clip")
    lo = _wide_operand(min, x, "clip") if min is not None else None
    hi = _wide_operand(max, x, "clip") if max is not None else None
    lo = _in_range(lo, x.dtype, True) if lo is not None else None
    hi = _in_range(hi, x.dtype, False) if hi is not None else None
    if lo is None:
        r = minimum(x, hi)
    elif hi is None:
        r = maximum(x, lo)
    else:
        r = _new(_bshape(x, lo, hi), x.dtype, x.device)
        _check(C.clip(_q(x, lo, hi, r), x._cv(), lo._cv(), hi._cv(), r._cv()))
    return _out(r, out, "clip")


def where(condition: Array, x1: Any = None, x2: Any = None, /) -> Any:
    """condition ? x1 : x2 elementwise, broadcast, promoted
    (accel_array_where); condition of any dtype (nonzero is true). With
    condition alone, NumPy's nonzero(condition)."""
    if x1 is None and x2 is None:
        return nonzero(condition)
    if not isinstance(condition, Array):
        raise TypeError("accel.where: condition must be an accel.Array")
    if condition.dtype != bool:
        condition = astype(condition, bool)
    if not isinstance(x1, Array):
        x1 = _as_operand(x1, x2 if isinstance(x2, Array) else condition, "where")
    if not isinstance(x2, Array):
        x2 = _as_operand(x2, x1, "where")
    out = _new(_bshape(condition, x1, x2), _promote(x1.dtype, x2.dtype), x1.device)
    c1, c2 = astype(x1, out.dtype, copy=False), astype(x2, out.dtype, copy=False)
    _check(C.where(_q(condition, c1, c2, out), condition._cv(), c1._cv(), c2._cv(), out._cv()))
    return out


def _copy_of(x: Array) -> Array:
    out = _new(x.shape, x.dtype, x.device)
    _copy_into(x, out)
    return out


def _copy_into(src: Array, dst: Array) -> None:
    """dst[...] = src (same dtype, src broadcast) by accel_array_copy."""
    if dst.size == 0:
        return
    _apart(C.copy, src, dst)


def _apart(call: Callable[..., int], src: Array, dst: Array) -> None:
    """call(queue, src, dst) (C.copy, C.astype); where the core refuses src
    partly over dst through another buffer of the same memory (from_dlpack),
    once more from a copy of src: NumPy's answer."""
    code = call(_q(src, dst), src._cv(), dst._cv())
    if code and L.alias_refused(code):
        src = _copy_of(src)
        code = call(_q(src, dst), src._cv(), dst._cv())
    _check(code)


def _broadcast_view(x: Array, shape: Tuple[int, ...]) -> Array:
    return x if x.shape == shape else broadcast_to(x, shape)


def _pairs(x: Array, part: Optional[int] = None) -> Array:
    """A complex array's elements as float views: shape + (2,) (part None),
    or its real (0) or imaginary (1) parts, sharing its buffer."""
    f = float32 if x._dtype == complex64 else float64
    t = x._cv(pairs=True)
    if part is not None:   # drop the pair axis: the part's elements
        t.ndim -= 1
    if part is not None and x.size:   # an empty array's parts stay at its offset
        t.offset += part * f.itemsize
    return _derived(x, t, f)


def _parts(fn: str, x: Array) -> Tuple[Array, Array]:
    if x._dtype.kind != "c":
        raise TypeError(f"accel.{fn}: x must be complex, not {x._dtype}")
    return _pairs(x, 0), _pairs(x, 1)


def real(x: Array, /) -> Array:
    """The real parts of a complex array (a copy, float32 or float64); of a
    real array a copy of it (NumPy's and CuPy's real)."""
    if isinstance(x, Array) and x.dtype.kind in "biuf":
        return _copy_of(x)
    return _copy_of(_parts("real", x)[0])


def imag(x: Array, /) -> Array:
    """The imaginary parts of a complex array (a copy); of a real array
    zeros of its dtype (NumPy's and CuPy's imag)."""
    if isinstance(x, Array) and x.dtype.kind in "biuf":
        return zeros_like(x)
    return _copy_of(_parts("imag", x)[1])


def conj(x: Array, /, out: Any = None) -> Array:
    """The complex conjugate (accel_array_unary ACCEL_ARRAY_CONJ); of a real
    array, a copy of it (the standard takes any numeric dtype). out= as
    CuPy's."""
    return _out(_unary("conj", x), out, "conj", True)


# ---------------------------------------------------------------- indexing
def _array_key(x: Array, key: Any) -> Any:
    """An index array of key (alone, or alone in a tuple) as an accel array
    on x's device (lists and NumPy arrays copied there), else None."""
    k = key[0] if isinstance(key, tuple) and len(key) == 1 else key
    if isinstance(k, (list, np.ndarray)):
        k = asarray(k, device=x.device)
    if isinstance(k, Array) and (k.ndim or k.dtype == bool):
        return k
    return None


def _mask_key(x: Array, key: Any) -> Optional[Array]:
    k = _array_key(x, key)
    return k if k is not None and k.dtype == bool else None


def _fancy_get(x: Array, k: Array) -> Array:
    """x[k] for a boolean mask (accel_array_mask_gather; waits for the
    count) or an integer array along axis 0 (accel_array_take)."""
    if k.dtype != bool:
        if k.dtype.kind not in "iu":
            raise IndexError(f"accel: arrays used as indices must be integer or bool, not "
                             f"{k.dtype}")
        if x.ndim == 0:
            raise IndexError("accel: an integer array index into a 0-d array")
        return take(x, k, axis=0)
    if k.ndim == 0:   # x[True]: x with a new axis of 1; x[False]: of 0
        return _copy_of(expand_dims(x, axis=0)) if k else _new((0,) + x.shape, x.dtype,
                                                               x.device)
    if k.shape != x.shape[:k.ndim]:
        raise IndexError(f"accel: boolean index of shape {k.shape} for an array of shape "
                         f"{x.shape}")
    n = int(sum(k))
    out = _new((n,) + x.shape[k.ndim:], x.dtype, x.device)
    if out.size:
        _check(C.mask_gather(_q(x, k, out), x._cv(), k._cv(), out._cv()))
    return out


def _norm_key(key: Any, ndim: int) -> list:
    if not isinstance(key, tuple):
        key = (key,)
    for k in key:
        if isinstance(k, (list, np.ndarray)) or (isinstance(k, Array) and k.ndim):
            raise IndexError("accel: an index array must be the only index (x[mask], x[idx]); "
                             "combine it with slices through accel.take")
        if isinstance(k, (_b.bool, np.bool_)):
            raise NotImplementedError("accel: boolean scalar indices are not there "
                                      "yet")
    if _b.sum(k is Ellipsis for k in key) > 1:
        raise IndexError("accel: an index can have only one ellipsis")
    used = _b.sum(k is not None and k is not Ellipsis for k in key)
    if used > ndim:
        raise IndexError(f"accel: {used} indices for a {ndim}-d array")
    if Ellipsis in [k for k in key if not isinstance(k, Array)]:
        i = [j for j, k in enumerate(key) if k is Ellipsis][0]
        key = key[:i] + (slice(None),) * (ndim - used) + key[i + 1:]
    else:
        key = key + (slice(None),) * (ndim - used)
    return list(key)


def _first_axis_view(x: Array, key: Any) -> Optional[Array]:
    """x[a:b] (step 1) or x[i] (a Python int in range) of a C-contiguous
    array: the view along the first axis, computed here (no C call, as
    CuPy's own fast path); None for any other key. The chunk loops of the
    tutorial's section 6 slice this way: about 12 us a slice through the C
    descriptors on the 2-core VM, a tenth of that here."""
    t = key.__class__
    if x._st is not None or not x._shape or (t is not slice and t is not int):
        return None
    n, rest = x._shape[0], x._shape[1:]
    inner = math.prod(rest)
    if t is int:
        i = key + n if key < 0 else key
        return _view(x, rest, x._offset + i * inner) if 0 <= i < n else None
    if key.step is not None and key.step != 1:
        return None
    start, stop, _ = key.indices(n)
    m = stop - start if stop > start else 0
    return _view(x, (m,) + rest, x._offset + start * inner)


def _getitem(x: Array, key: Any) -> Array:
    """x[key] for ints, slices (any step), None and Ellipsis: a view
    (accel_array_slice, accel_array_squeeze, accel_array_expand_dims); a
    boolean mask or an integer array alone gathers into a new array."""
    v = _first_axis_view(x, key)
    if v is not None:
        return v
    k = _array_key(x, key)
    if k is not None:
        return _fancy_get(x, k)
    keys = _norm_key(key, x.ndim)
    nd = x.ndim
    start = (ctypes.c_int64 * _b.max(nd, 1))()
    stop = (ctypes.c_int64 * _b.max(nd, 1))()
    step = (ctypes.c_int64 * _b.max(nd, 1))()
    drop, news, axis, pos = 0, [], 0, 0
    for k in keys:
        if k is None:
            news.append(pos)
            pos += 1
            continue
        n = x.shape[axis]
        if isinstance(k, slice):
            s = 1 if k.step is None else operator.index(k.step)
            if s == 0:
                raise ValueError("accel: slice step 0")
            start[axis] = C.I64_MIN if k.start is None else _clamp(operator.index(k.start))
            stop[axis] = C.I64_MAX if k.stop is None else _clamp(operator.index(k.stop))
            if k.start is None and s < 0:
                start[axis] = C.I64_MAX
            if k.stop is None and s < 0:
                stop[axis] = C.I64_MIN
            step[axis] = _clamp(s)  # a step past the axis takes one element, never wraps
            pos += 1
        else:
            i = operator.index(k)
            if not -n <= i < n:
                raise L.error("ACCEL_ERROR_OUT_OF_RANGE", f"accel: index {i} is out of bounds "
                              f"for axis {axis} of size {n}")
            i = i + n if i < 0 else i
            start[axis], stop[axis], step[axis] = i, i + 1, 1
            drop |= 1 << axis
        axis += 1
    v = C.View()
    _check(C.array_slice(x._cv(), start, stop, step, v))
    if drop:
        _check(C.squeeze(v, drop, v))
    for p in news:
        _check(C.expand_dims(v, p, v))
    return _derived(x, v)


def _clamp(i: int) -> int:
    return _b.max(C.I64_MIN + 1, _b.min(C.I64_MAX - 1, i))


# ------------------------------------------------------------ manipulation
def _axis(axis: int, ndim: int, fn: str) -> int:
    if isinstance(axis, (_b.bool, np.bool_)):  # NumPy's TypeError, not axis 1
        raise TypeError(f"accel.{fn}: axis must be an integer, not {type(axis).__name__}")
    a = operator.index(axis)
    if not -ndim <= a < ndim:
        raise IndexError(f"accel.{fn}: axis {a} is out of range for {ndim}-d")
    return a % ndim if ndim else 0


def _need_array(fn: str, x: Any) -> None:
    """TypeError naming fn unless x is an accel array (the unary functions',
    reductions' and sorts' first check: a NumPy array or a list would
    otherwise meet an attribute read as an AttributeError)."""
    if not isinstance(x, Array):
        raise TypeError(f"accel.{fn}: x must be an array, not {type(x).__name__} "
                        f"(accel.asarray makes one)")


def _axes_mask(axis: Any, ndim: int, fn: str) -> Tuple[int, Tuple[int, ...]]:
    if axis is None:
        axes = tuple(range(ndim))
    else:
        t = axis if isinstance(axis, tuple) else (axis,)
        axes = tuple(_axis(a, ndim, fn) for a in t)
        if len(set(axes)) != len(axes):
            raise ValueError(f"accel.{fn}: repeated axis in {axis}")
    return _b.sum(1 << a for a in axes), axes


def permute_dims(x: Array, /, axes: Tuple[int, ...]) -> Array:
    """A view with axes permuted (accel_array_permute_dims)."""
    if len(axes) != x.ndim:
        raise ValueError(f"accel.permute_dims: {len(axes)} axes for {x.ndim}-d x")
    axes = tuple(_axis(a, x.ndim, "permute_dims") for a in axes)  # in range before ctypes
    v = C.View()
    ax = (ctypes.c_int32 * _b.max(x.ndim, 1))(*axes)
    _check(C.permute_dims(x._cv(), ax, v))
    return _derived(x, v)


def matrix_transpose(x: Array, /) -> Array:
    """The last two axes swapped: a view."""
    if x.ndim < 2:
        raise ValueError(f"accel.matrix_transpose: x is {x.ndim}-d, needs >= 2")
    return permute_dims(x, tuple(range(x.ndim - 2)) + (x.ndim - 1, x.ndim - 2))


def expand_dims(x: Array, /, axis: Any = 0) -> Array:
    """x with a new size-1 axis at axis (the standard's), or at each of a
    tuple of axes of the result (NumPy's: expand_dims(x, (0, 2)))."""
    if isinstance(axis, (tuple, list)):
        nd = x.ndim + len(axis)
        at = sorted(_axis(a, nd, "expand_dims") for a in axis)
        if len(set(at)) != len(at):
            raise ValueError(f"accel.expand_dims: repeated axis in {axis}")
        for a in at:
            x = expand_dims(x, a)
        return x
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, _b.bool):
        raise TypeError(f"accel.expand_dims: axis must be an int or a tuple of ints, not "
                        f"{type(axis).__name__}")
    v = C.View()
    if not -x.ndim - 1 <= axis <= x.ndim:
        raise IndexError(f"accel.expand_dims: axis {axis} for {x.ndim}-d x")
    _check(C.expand_dims(x._cv(), axis, v))
    return _derived(x, v)


def squeeze(x: Array, /, axis: Any = None) -> Array:
    """x without the size-1 axes named (the standard's), or without all of
    its size-1 axes when axis is None (NumPy's and CuPy's default)."""
    if axis is None:
        axis = tuple(i for i, n in enumerate(x.shape) if n == 1)
    mask, axes = _axes_mask(axis, x.ndim, "squeeze")
    if _b.any(x.shape[a] != 1 for a in axes):
        raise ValueError(f"accel.squeeze: axis {axis} of x {x.shape} is not size 1")
    v = C.View()
    _check(C.squeeze(x._cv(), mask, v))
    return _derived(x, v)


def flip(x: Array, /, *, axis: Any = None) -> Array:
    mask, _ = _axes_mask(axis, x.ndim, "flip")
    v = C.View()
    _check(C.flip(x._cv(), mask, v))
    return _derived(x, v)


def broadcast_to(x: Array, /, shape: Tuple[int, ...]) -> Array:
    shape = _shape(shape, "broadcast_to")
    v = C.View()
    dims = (ctypes.c_int64 * _b.max(len(shape), 1))(*shape)
    _check(C.broadcast_to(x._cv(), len(shape), dims, v))
    r = _derived(x, v)
    if _b.any(st == 0 and n > 1 for st, n in zip(r.strides, r.shape)):
        r._ro = True  # its elements repeat: read-only, as NumPy's broadcast_to
    return r


def broadcast_arrays(*arrays: Array) -> list:
    shape = _bshape(*arrays)
    return [broadcast_to(a, shape) for a in arrays]


def reshape(x: Array, /, shape: Tuple[int, ...], *, copy: Optional[_b.bool] = None) -> Array:
    """x with another shape: a view when x's strides allow
    (accel_array_reshape), else (unless copy=False) a contiguous copy
    reshaped."""
    shape = tuple(map(operator.index, shape))
    if shape and not (C.I64_MIN <= _b.min(shape) and _b.max(shape) <= C.I64_MAX):
        # ctypes would wrap it
        raise L.error("ACCEL_ERROR_OUT_OF_RANGE", f"accel.reshape: shape {shape} has a "
                      "dimension outside int64")
    dims = (ctypes.c_int64 * _b.max(len(shape), 1))(*shape)
    v = C.View()
    src = _copy_of(x) if copy else x
    code = C.reshape(src._cv(), len(shape), dims, v)
    if code and L.status_name(code).decode() == "ACCEL_ERROR_UNSUPPORTED" and copy is None:
        src = _copy_of(x)
        code = C.reshape(src._cv(), len(shape), dims, v)
    _check(code)
    return _derived(src, v)


def moveaxis(x: Array, source: Any, destination: Any, /) -> Array:
    s = source if isinstance(source, tuple) else (source,)
    d = destination if isinstance(destination, tuple) else (destination,)
    s = [_axis(a, x.ndim, "moveaxis") for a in s]
    d = [_axis(a, x.ndim, "moveaxis") for a in d]
    if len(s) != len(d):
        raise ValueError("accel.moveaxis: source and destination differ in length")
    order = [a for a in range(x.ndim) if a not in s]
    for dst, src in sorted(zip(d, s)):
        order.insert(dst, src)
    return permute_dims(x, tuple(order))


def concat(arrays: Sequence[Array], /, *, axis: Optional[int] = 0) -> Array:
    """The arrays joined along axis (None: flattened first), by copies into
    slices of the result on the device."""
    arrays = list(arrays)
    if axis is None:
        arrays = [reshape(a, (-1,)) for a in arrays]
        axis = 0
    dt = result_type(*arrays)
    nd = arrays[0].ndim
    ax = _axis(axis, nd, "concat")
    for a in arrays:
        if a.ndim != nd or _b.any(a.shape[i] != arrays[0].shape[i] for i in range(nd) if i != ax):
            raise ValueError(f"accel.concat: shapes {[t.shape for t in arrays]} "
                             f"differ off axis {ax}")
    shape = list(arrays[0].shape)
    shape[ax] = _b.sum(a.shape[ax] for a in arrays)
    out = _new(shape, dt, arrays[0].device)
    at = 0
    for a in arrays:
        n = a.shape[ax]
        dst = out[(slice(None),) * ax + (slice(at, at + n),)]
        copyto(dst, a)
        at += n
    return out


def stack(arrays: Sequence[Array], /, *, axis: int = 0) -> Array:
    """The arrays (one shape) joined along a new axis of the result."""
    arrays = list(arrays)
    if not arrays:
        raise ValueError("accel.stack: needs at least one array")
    if not _b.all(isinstance(a, Array) for a in arrays):
        raise TypeError("accel.stack: every element of arrays must be an accel array")
    nd = arrays[0].ndim + 1
    if nd > C.MAX_NDIM:
        raise ValueError(f"accel.stack: the result would have {nd} dimensions (at most "
                         f"{C.MAX_NDIM})")
    if not -nd <= axis < nd:
        raise IndexError(f"accel.stack: axis {axis} for {nd}-d result")
    return concat([expand_dims(a, axis=axis) for a in arrays], axis=axis)


def unstack(x: Array, /, *, axis: int = 0) -> tuple:
    ax = _axis(axis, x.ndim, "unstack")
    return tuple(x[(slice(None),) * ax + (i,)] for i in range(x.shape[ax]))


def roll(x: Array, /, shift: Any, *, axis: Any = None) -> Array:
    """x's elements shifted along axis (None: the flattened array), as two
    copies of slices on the device."""
    if axis is None:
        return reshape(roll(reshape(x, (-1,)), shift, axis=0), x.shape)
    shifts = shift if isinstance(shift, tuple) else (shift,)
    axes = axis if isinstance(axis, tuple) else (axis,)
    if len(shifts) != len(axes):
        raise ValueError("accel.roll: shift and axis differ in length")
    out = x
    for sh, a in zip(shifts, axes):
        ax = _axis(a, x.ndim, "roll")
        n = x.shape[ax]
        k = operator.index(sh) % n if n else 0
        src, out = out, empty_like(out)
        pre = (slice(None),) * ax
        _copy_into(src[pre + (slice(n - k, None),)], out[pre + (slice(None, k),)])
        _copy_into(src[pre + (slice(None, n - k),)], out[pre + (slice(k, None),)])
    return out if out is not x else _copy_of(x)


def _as_array_like(x: Any, fn: str) -> Array:
    """x, or an accel array of a list, tuple, NumPy array or scalar (NumPy's
    array_like arguments)."""
    if isinstance(x, Array):
        return x
    if isinstance(x, (list, tuple, np.ndarray, np.generic, int, float, complex)):
        return asarray(x)
    raise TypeError(f"accel.{fn}: an accel array or array-like, not {type(x).__name__}")


def repeat(x: Array, repeats: Any, /, *, axis: Optional[int] = None) -> Array:
    """Each element repeated along axis (None: of the flattened x):
    repeats an int (every element that many times: a broadcast view
    copied) or a 1-D integer array of x.shape[axis] counts (or one count),
    on the device: element i lands where the cumulative sum of the counts
    says (cumulative_sum, searchsorted, take). Raises ValueError for a
    negative count or a repeats array of the wrong size, TypeError for a
    non-integer repeats array."""
    x = _as_array_like(x, "repeat")
    if isinstance(repeats, (list, tuple, np.ndarray)):
        repeats = asarray(np.asarray(repeats), device=x.device)
    if axis is None:
        x, axis = reshape(x, (-1,)), 0
    ax = _axis(axis, x.ndim, "repeat")
    if isinstance(repeats, Array):
        if repeats.dtype.kind not in "iu":
            raise TypeError(f"accel.repeat: repeats must be integers, not {repeats.dtype}")
        if repeats.ndim > 1 or repeats.size not in (1, x.shape[ax]):
            raise ValueError(f"accel.repeat: repeats of shape {repeats.shape} for axis {ax} "
                             f"of size {x.shape[ax]} (one count or one per element)")
        if repeats.size == 1:
            repeats = int(reshape(repeats, ()))
        else:
            return _repeat_counts(x, repeats, ax)
    r = operator.index(repeats)
    if r < 0:
        raise ValueError(f"accel.repeat: repeats {r} < 0")
    if r and x.size * r > C.I64_MAX:
        raise L.error("ACCEL_ERROR_OUT_OF_RANGE", f"accel.repeat: {x.size} elements repeated {r} "
                      "times is past int64")
    if x.ndim == C.MAX_NDIM:  # no room for the new axis: the counts path
        return _repeat_counts(x, full((x.shape[ax],), r, dtype=int64, device=x.device), ax)
    e = expand_dims(x, axis=ax + 1)
    shape = x.shape[:ax + 1] + (r,) + x.shape[ax + 1:]
    out = x.shape[:ax] + (x.shape[ax] * r,) + x.shape[ax + 1:]
    return reshape(_copy_of(broadcast_to(e, shape)), out)


def _repeat_counts(x: Array, counts: Array, ax: int) -> Array:
    """repeat with one count per element along ax (counts 1-D, its size x.shape[ax])."""
    if counts.size and int(min(counts)) < 0:
        raise ValueError("accel.repeat: a count in repeats is < 0")
    if counts.size and int(max(counts)) > C.I64_MAX // counts.size:  # the sum may wrap
        total = _b.sum(counts.get().tolist())
        if total > C.I64_MAX:
            raise L.error("ACCEL_ERROR_OUT_OF_RANGE", f"accel.repeat: the counts sum to {total}, "
                          "past int64")
    ends = cumulative_sum(astype(counts, int64))
    total = int(ends[-1]) if counts.size else 0
    pos = arange(total, dtype=int64, device=x.device)
    idx = _new(pos.shape, int64, x.device)  # searchsorted(ends, pos, side="right")
    if total:
        _check(C.searchsorted(_q(ends, pos, idx), ends._cv(), pos._cv(), 1, None, idx._cv()))
    return take(x, idx, axis=ax)


def tile(x: Array, repetitions: Tuple[int, ...], /) -> Array:
    """x repeated along each axis (NumPy's rule: the shorter of x.shape and
    repetitions padded with leading 1s): one broadcast view copied, with a
    new axis before each axis that repeats (a concat along that axis where
    the view would pass 32 dimensions). Raises ValueError for a negative
    repetition, OutOfRangeError for a result past int64 elements."""
    x = _as_array_like(x, "tile")
    if isinstance(repetitions, (int, np.integer)) and not isinstance(repetitions, _b.bool):
        repetitions = (repetitions,)
    reps = tuple(operator.index(r) for r in repetitions)
    if _b.any(r < 0 for r in reps):
        raise ValueError(f"accel.tile: a negative entry in repetitions {reps}")
    nd = _b.max(len(reps), x.ndim)
    reps = (1,) * (nd - len(reps)) + reps
    shp = (1,) * (nd - x.ndim) + x.shape
    out = tuple(r * s_ for r, s_ in zip(reps, shp))
    if math.prod(out) > C.I64_MAX:
        raise L.error("ACCEL_ERROR_OUT_OF_RANGE", f"accel.tile: the result {out} is past int64 "
                      "elements")
    if nd > C.MAX_NDIM:
        raise ValueError(f"accel.tile: repetitions {reps} for a {x.ndim}-d array make a "
                         f"{nd}-d result (at most {C.MAX_NDIM})")
    x = reshape(x, shp)
    rep_axes = [i for i, r in enumerate(reps) if r != 1]
    while rep_axes and nd + len(rep_axes) > C.MAX_NDIM:  # no room for one more axis each
        i = rep_axes.pop()
        x = concat([x] * reps[i], axis=i) if reps[i] else x[(slice(None),) * i + (slice(0, 0),)]
    inter = tuple(v for i, s_ in enumerate(shp) for v in ((reps[i],) if i in rep_axes else ())
                  + (x.shape[i],))
    v = reshape(x, tuple(v for i, s_ in enumerate(x.shape)
                         for v in ((1,) if i in rep_axes else ()) + (s_,)))
    return reshape(_copy_of(broadcast_to(v, inter)), out)


def meshgrid(*arrays: Array, indexing: str = "xy", sparse: _b.bool = False,
             copy: _b.bool = True) -> list:
    """Coordinate arrays from 1-D arrays (the standard's; NumPy's sparse=
    gives each array shaped to broadcast, copy=False broadcast views)."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"accel.meshgrid: indexing {indexing!r} (xy or ij)")
    n = len(arrays)
    shape = [a.size for a in arrays]
    if indexing == "xy" and n >= 2:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, a in enumerate(arrays):
        j = (1 - i if i < 2 else i) if indexing == "xy" and n >= 2 else i
        s = [1] * n
        s[j] = a.size
        v = reshape(a, tuple(s))
        w = v if sparse else broadcast_to(v, tuple(shape))
        out.append(_copy_of(w) if copy else w)
    return out


# --------------------------------------------------------------- reductions
_IDENTITY = {"sum": 0, "prod": 1, "any": False, "all": True, "mean": math.nan}


def _axes_last(x: Array, axes: Sequence[int]) -> Tuple[Array, int]:
    """A view of x with the (normalised) axes moved last, in order, the
    others first in theirs, and how many others: over the moved axes the
    elements keep their row-major order (_reduce's fallback, median's tuple
    of axes)."""
    kept = [i for i in range(x.ndim) if i not in axes]
    return permute_dims(x, tuple(kept + sorted(axes))), len(kept)


def _reduce(name: str, x: Array, axis: Any, keepdims: _b.bool, dtype: np.dtype) -> Array:
    """accel_array_reduce over the axes; an empty reduction gives the
    identity (sum 0, prod 1, any False, all True, mean NaN) or, for those
    without one (max, min, argmax, argmin), raises ValueError."""
    if axis is None and not keepdims:  # the whole array (0.8 us less than parsing axes)
        axes: Tuple[int, ...] = tuple(range(len(x._shape)))
        mask, shape = (1 << len(axes)) - 1, ()
    else:
        mask, axes = _axes_mask(axis, x.ndim, name)
        shape = tuple(1 if i in axes else n for i, n in enumerate(x.shape)
                      if keepdims or i not in axes)
    if x.size == 0:
        if name not in _IDENTITY and math.prod(shape):
            raise L.error("ACCEL_ERROR_INVALID_ARGUMENT",
                          f"accel.{name}: an empty reduction has no identity")
        return full(shape, _IDENTITY.get(name, 0), dtype=dtype, device=x.device)
    out = _new(shape, dtype, x.device)
    try:
        _check(C.reduce(_q(x, out), C.REDUCTIONS[name], x._cv(), mask, int(keepdims),
                         out._cv()))
    except L.UnsupportedError:
        # Kept and reduced axes interleaved past a kernel's parameters (C's
        # 3k + 2r <= 28): the reduced axes moved last in a contiguous copy,
        # where each side merges into one axis. The same row-major order.
        xt, nk = _axes_last(x, axes)
        r = _reduce(name, _copy_of(xt), tuple(range(nk, x.ndim)), False, dtype)
        return reshape(r, shape) if keepdims else r
    return out


def _sum_dtype(x: Array, dtype: Any) -> Tuple[Array, np.dtype]:
    """The input, cast to dtype when one is given (the standard: the
    elements are converted before they are summed, so sum(0.6s, dtype=int64)
    adds zeros, as NumPy's), and the C result dtype."""
    if dtype is not None:
        dt = _dtype(dtype, "sum")
        if x.dtype != dt:
            x = astype(x, dt)
    k = x.dtype.kind
    return x, (x.dtype if k in "fc" else uint64 if k == "u" else int64)


def _out(r: Array, out: Optional[Array], fn: str, same_kind: _b.bool = False) -> Array:
    """r, or r copied into out (CuPy's out=: the result's shape; converted
    to out's dtype: any conversion, as NumPy's reductions, or with same_kind
    only within a kind, as NumPy's matmul and ufuncs: a float product into
    an integer out raises DtypeMismatchError instead of truncating)."""
    if out is None or r is out:
        return r
    if not isinstance(out, Array) or out.shape != r.shape:
        raise ValueError(f"accel.{fn}: out must be an accel.Array of shape {r.shape}")
    if same_kind and not np.can_cast(r.dtype, out.dtype, "same_kind"):
        raise L.error("ACCEL_ERROR_DTYPE_MISMATCH",
                      f"accel.{fn}: the result is {r.dtype}, which out ({out.dtype}) cannot "
                      "hold within its kind")
    copyto(out, r)
    return out


def sum(x: Array, /, axis: Any = None, dtype: Any = None, out: Any = None,
        keepdims: _b.bool = False) -> Array:
    """Sum over axis (an int, a tuple or None: all) on the device
    (accel_array_reduce). Floats accumulate in a fixed order, the same
    result every run; any order's error is within (n-1)*eps*sum|x| to first
    order (Higham 2002, 4.2). Integers sum in int64 (uint64 for unsigned),
    wrapping, as the standard says; dtype= converts. out= as CuPy's. The
    sum of no elements is 0. Raises IndexError (axis), ValueError
    (repeated axis)."""
    _need_array("sum", x)
    x2, cd = _sum_dtype(x, dtype)
    r = _reduce("sum", x2, axis, keepdims, cd)
    r = r if dtype is None or _dtype(dtype, "sum") == cd else astype(r, dtype)
    return _out(r, out, "sum")


def prod(x: Array, /, axis: Any = None, dtype: Any = None, out: Any = None,
         keepdims: _b.bool = False) -> Array:
    """Product over axis (as :func:`sum`)."""
    _need_array("prod", x)
    x2, cd = _sum_dtype(x, dtype)
    r = _reduce("prod", x2, axis, keepdims, cd)
    r = r if dtype is None or _dtype(dtype, "prod") == cd else astype(r, dtype)
    return _out(r, out, "prod")


def max(x: Array, /, axis: Any = None, out: Any = None, keepdims: _b.bool = False) -> Array:
    """The largest element over axis (NaN if any is NaN). Raises ValueError
    for an empty reduction (no identity, as NumPy)."""
    _need_array("max", x)
    return _out(_reduce("max", x, axis, keepdims, x.dtype), out, "max")


def min(x: Array, /, axis: Any = None, out: Any = None, keepdims: _b.bool = False) -> Array:
    """The smallest element over axis (as :func:`max`)."""
    _need_array("min", x)
    return _out(_reduce("min", x, axis, keepdims, x.dtype), out, "min")


amax, amin = max, min


def mean(x: Array, /, axis: Any = None, dtype: Any = None, out: Any = None,
         keepdims: _b.bool = False) -> Array:
    """The mean over axis, in x's dtype (floats; integers as float64, as
    NumPy's)."""
    _need_array("mean", x)
    if x.dtype.kind in "biu":
        x = astype(x, dtype or float64)
    elif dtype is not None:
        x = astype(x, dtype, copy=False)
    return _out(_reduce("mean", x, axis, keepdims, x.dtype), out, "mean")


def any(x: Array, /, axis: Any = None, out: Any = None, keepdims: _b.bool = False) -> Array:
    """True where any element over axis is nonzero (bool)."""
    _need_array("any", x)
    return _out(_reduce("any", x, axis, keepdims, bool), out, "any")


def all(x: Array, /, axis: Any = None, out: Any = None, keepdims: _b.bool = False) -> Array:
    """True where every element over axis is nonzero (bool)."""
    _need_array("all", x)
    return _out(_reduce("all", x, axis, keepdims, bool), out, "all")


def _complex_arg(fn: str, x: Array, axis: Optional[int], keepdims: _b.bool) -> Array:
    """NumPy's argmax/argmin of a complex x: the first element largest
    (smallest) in the order of the real parts, then the imaginary ones, or
    the first with a NaN part. Real parts' extreme, the candidates holding
    it, their imaginary extreme, then argmax of a bool array (its first
    True)."""
    if axis is None:
        r = _complex_arg(fn, reshape(x, (-1,)), 0, False)
        return reshape(r, (1,) * x.ndim) if keepdims else r
    ext, fill = (max, -math.inf) if fn == "argmax" else (min, math.inf)
    re, im = real(x), imag(x)
    cand = equal(re, ext(re, axis=axis, keepdims=True))
    best = logical_and(cand, equal(im, ext(where(cand, im, fill), axis=axis, keepdims=True)))
    nan = logical_or(isnan(re), isnan(im))
    return where(any(nan, axis=axis, keepdims=keepdims),
                 argmax(nan, axis=axis, keepdims=keepdims),
                 argmax(best, axis=axis, keepdims=keepdims))


def argmax(x: Array, /, axis: Optional[int] = None, out: Any = None,
           keepdims: _b.bool = False) -> Array:
    """The int64 index of the first largest element (over the flattened x
    when axis is None; complex: NumPy's order, real parts first)."""
    _need_array("argmax", x)
    if x.dtype.kind == "c":
        return _out(_complex_arg("argmax", x, axis, keepdims), out, "argmax")
    return _out(_reduce("argmax", x, axis, keepdims, int64), out, "argmax")


def argmin(x: Array, /, axis: Optional[int] = None, out: Any = None,
           keepdims: _b.bool = False) -> Array:
    """The int64 index of the first smallest element (complex: NumPy's
    order, real parts first)."""
    _need_array("argmin", x)
    if x.dtype.kind == "c":
        return _out(_complex_arg("argmin", x, axis, keepdims), out, "argmin")
    return _out(_reduce("argmin", x, axis, keepdims, int64), out, "argmin")


def _moment(fn: str, x: Array, axis: Any, correction: Any, ddof: Any,
            keepdims: _b.bool) -> Array:
    c = float(ddof if ddof is not None else correction)
    if x.dtype.kind in "biu":
        x = astype(x, float64)
    mask, axes = _axes_mask(axis, x.ndim, fn)
    shape = tuple(1 if i in axes else n for i, n in enumerate(x.shape)
                  if keepdims or i not in axes)
    if x.size == 0:   # no elements: N - correction <= 0
        return full(shape, nan, dtype=x.dtype, device=x.device)
    out = _new(shape, x.dtype, x.device)
    f = C.var if fn == "var" else C.std
    _check(f(_q(x, out), x._cv(), mask, c, int(keepdims), out._cv()))
    return out


def var(x: Array, /, axis: Any = None, dtype: Any = None, out: Any = None, ddof: Any = None,
        keepdims: _b.bool = False, *, correction: Any = 0.0) -> Array:
    """Variance over axis: sum((x - mean)^2) / (N - correction) (ddof=, as
    NumPy's, is the same), two-pass in float64 on the device
    (accel_array_var); NaN when N - correction <= 0."""
    r = _moment("var", x if dtype is None else astype(x, dtype), axis, correction, ddof,
                keepdims)
    return _out(r, out, "var")


def std(x: Array, /, axis: Any = None, dtype: Any = None, out: Any = None, ddof: Any = None,
        keepdims: _b.bool = False, *, correction: Any = 0.0) -> Array:
    """Standard deviation: the square root of :func:`var` (accel_array_std)."""
    r = _moment("std", x if dtype is None else astype(x, dtype), axis, correction, ddof,
                keepdims)
    return _out(r, out, "std")


def _cumulative(fn: str, x: Array, axis: Optional[int], dtype: Any,
                include_initial: _b.bool) -> Array:
    """cumulative_sum or cumulative_prod (fn) of x: the standard's rules."""
    _need_array(fn, x)
    if axis is None:
        if x.ndim != 1:
            raise ValueError(f"accel.{fn}: axis is needed for a {x.ndim}-d array")
        axis = 0
    ax = _axis(axis, x.ndim, fn)
    k = x.dtype.kind
    dt = _dtype(dtype, fn) if dtype is not None else (
        x.dtype if k in "fc" else uint64 if k == "u" else int64)
    shape = list(x.shape)
    shape[ax] += 1 if include_initial else 0
    if x.size == 0:   # nothing to combine: the initial values, if any
        return (zeros if fn == "cumulative_sum" else ones)(shape, dtype=dt, device=x.device)
    if dtype is not None and (dt != x.dtype or dt == bool):
        # The standard's and NumPy's order: x cast to dtype first, then
        # combined (0.5s summed as int32 are 0s; it ran in x's dtype and
        # converted the result, 0.5 + 0.5 -> 1). bool: the integer fold of
        # the truths, then nonzero (NumPy's logical or, and for prod and).
        xc = astype(x, dt)
        if dt == bool:
            return astype(_cumulative(fn, xc, ax, None, include_initial), bool)
        return _cumulative(fn, xc, ax, dt, include_initial)
    out = _new(shape, dt, x.device)
    _check(getattr(C, fn)(_q(x, out), x._cv(), ax, int(include_initial), out._cv()))
    return out


def cumulative_sum(x: Array, /, *, axis: Optional[int] = None, dtype: Any = None,
                   include_initial: _b.bool = False) -> Array:
    """The running sum along axis (None only for 1-D x), the standard's
    (accel_array_cumulative_sum); integers in int64 (uint64 unsigned)."""
    return _cumulative("cumulative_sum", x, axis, dtype, include_initial)


def cumulative_prod(x: Array, /, *, axis: Optional[int] = None, dtype: Any = None,
                    include_initial: _b.bool = False) -> Array:
    """The running product along axis (None only for 1-D x), the Array API
    2024.12's (accel_array_cumulative_prod: float64 accumulation; integers
    in int64, uint64 unsigned, wrapping)."""
    return _cumulative("cumulative_prod", x, axis, dtype, include_initial)


def cumsum(a: Array, axis: Optional[int] = None, dtype: Any = None, out: Any = None) -> Array:
    """NumPy's cumsum: the running sum along axis (None: the flattened a)."""
    _need_array("cumsum", a)
    if axis is None:
        a, axis = reshape(a, (-1,)), 0
    return _out(cumulative_sum(a, axis=axis, dtype=dtype), out, "cumsum")


def cumprod(a: Array, axis: Optional[int] = None, dtype: Any = None, out: Any = None) -> Array:
    """NumPy's cumprod: the running product along axis (None: the flattened
    a)."""
    if axis is None:
        a, axis = reshape(a, (-1,)), 0
    return _out(cumulative_prod(a, axis=axis, dtype=dtype), out, "cumprod")


# --------------------------------------------------------- linear algebra
def matmul(x1: Array, x2: Array, /, out: Any = None) -> Array:
    """The matrix product (the standard's matmul; 1-D operands as NumPy's).
    Floats go to GEMM (accel_array_matmul: cuBLAS, OpenBLAS; batch axes
    broadcast; GEMM's bound |error_ij| <= 2(k+2) eps (|A||B|)_ij, Higham
    3.5); integers are the broadcast product summed on the device. Raises
    ValueError (0-d operands, inner sizes that differ)."""
    if not isinstance(x1, Array) or not isinstance(x2, Array):
        raise TypeError("accel.matmul: both operands must be accel arrays")
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("accel.matmul: 0-d operands are not allowed")
    a = x1 if x1.ndim > 1 else expand_dims(x1, axis=0)
    b = x2 if x2.ndim > 1 else expand_dims(x2, axis=-1)
    if a.shape[-1] != b.shape[-2]:
        raise L.error("ACCEL_ERROR_SHAPE_MISMATCH",
                      f"accel.matmul: shapes {x1.shape} and {x2.shape} do not align (inner "
                      f"dimensions {a.shape[-1]} and {b.shape[-2]})")
    dt = x1.dtype if x1.dtype == x2.dtype else result_type(x1, x2)
    if dt.kind == "f" and a.size and b.size:
        a, b = contiguous(astype(a, dt, copy=False)), contiguous(astype(b, dt, copy=False))
        shape = _bshape(a[..., :1, :1], b[..., :1, :1])[:-2] + (a.shape[-2], b.shape[-1])
        final = shape[:-2] + shape[-2:-1] * (x1.ndim > 1) + shape[-1:] * (x2.ndim > 1)
        if _gemm_into(out, shape, final, dt, a, b):
            return out
        r = _new(shape, dt, a.device)
        _check(C.matmul(_q(a, b, r), a._cv(), b._cv(), r._cv()))
    else:
        r = sum(multiply(expand_dims(a, axis=-1), expand_dims(b, axis=-3)), axis=-2, dtype=dt)
    if x1.ndim == 1:
        r = squeeze(r, axis=-2)
    if x2.ndim == 1:
        r = squeeze(r, axis=-1)
    return _out(r, out, "matmul", same_kind=True)


def _gemm_into(out: Any, shape: Tuple[int, ...], final: Tuple[int, ...], dt: np.dtype,
               a: Array, b: Array) -> _b.bool:
    """GEMM a @ b straight into out (seen as `shape`) and True, when out is
    what the product would be copied into unchanged: an accel array of the
    result's dtype and `final` shape, C-contiguous, writable, on a's device,
    in a block of its own (not a's or b's). Else False, nothing done: matmul
    computes into a new array and copies (a 10000^2 float32 out= saved 400
    MB of copying; CPU 1024^2 see docs/performance.md). An out that the
    core finds over the same memory as a or b through another buffer
    (from_dlpack) is refused there with nothing written: False too."""
    if (not isinstance(out, Array) or out.dtype != dt or out.shape != final
            or out._st is not None or out._ro or out.device != a.device
            or _shares(out, a) or _shares(out, b)):
        return False
    r = out if final == shape else reshape(out, shape)
    code = C.matmul(_q(a, b, r), a._cv(), b._cv(), r._cv())
    if code and L.alias_refused(code):
        return False
    _check(code)
    return True


def dot(a: Array, b: Array, out: Any = None) -> Array:
    """NumPy's dot: a product for 0-d operands, the sum of products for 1-D
    ones, the matrix product for 2-D ones, and for N-D ones the sum over a's
    last axis and b's second-to-last (its last when b is 1-D): shape
    a.shape[:-1] + b.shape[:-2] + b.shape[-1:] (not matmul's batch rule)."""
    if a.ndim == 0 or b.ndim == 0:
        return _out(multiply(a, b), out, "dot", same_kind=True)
    if a.ndim <= 2 and b.ndim <= 2:
        return matmul(a, b, out)
    _check_inner(a, b, -1, -1 if b.ndim == 1 else -2, "dot")
    r = tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 1 if b.ndim == 1 else b.ndim - 2]))
    return _out(r, out, "dot", same_kind=True)


def _check_inner(a: Array, b: Array, ia: int, ib: int, fn: str) -> None:
    if a.shape[ia] != b.shape[ib]:
        raise L.error("ACCEL_ERROR_SHAPE_MISMATCH",
                      f"accel.{fn}: shapes {a.shape} and {b.shape} do not align (sizes "
                      f"{a.shape[ia]} and {b.shape[ib]})")


def vdot(a: Array, b: Array) -> Array:
    """NumPy's vdot: the dot product of the flattened operands (a
    conjugated when complex)."""
    a = reshape(a, (-1,))
    if a.dtype.kind == "c":
        a = conj(a)
    return dot(a, reshape(b, (-1,)))


def inner(a: Array, b: Array) -> Array:
    """NumPy's inner: the sum of products over the last axes of a and b,
    of shape a.shape[:-1] + b.shape[:-1] (a @ b.T for 2-D operands, the dot
    product for 1-D ones, a product for 0-d ones)."""
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)
    _check_inner(a, b, -1, -1, "inner")
    return tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 1]))


def vecdot(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """Dot product over axis (multiply, then sum on the device)."""
    for name, x in (("x1", x1), ("x2", x2)):
        if not isinstance(axis, int) or not -x.ndim <= axis < x.ndim:
            raise ValueError(f"accel.vecdot: axis {axis!r} is not an axis of {name} "
                             f"({x.ndim}-d)")
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError(f"accel.vecdot: axis {axis} sizes differ")
    p = multiply(conj(x1) if x1.dtype.kind == "c" else x1, x2)
    return sum(p, axis=axis, dtype=p.dtype)


def tensordot(x1: Array, x2: Array, /, *, axes: Any = 2) -> Array:
    """Sum of products over the given axes (the standard's tensordot), as a
    matmul of the operands reshaped."""
    if isinstance(axes, int):
        if axes < 0:
            raise ValueError(f"accel.tensordot: axes={axes} < 0")
        ax1 = list(range(x1.ndim - axes, x1.ndim))
        ax2 = list(range(axes))
    else:
        ax1 = [_axis(i, x1.ndim, "tensordot") for i in axes[0]]
        ax2 = [_axis(i, x2.ndim, "tensordot") for i in axes[1]]
    free1 = [i for i in range(x1.ndim) if i not in ax1]
    free2 = [i for i in range(x2.ndim) if i not in ax2]
    a = permute_dims(x1, tuple(free1 + ax1))
    b = permute_dims(x2, tuple(ax2 + free2))
    k = math.prod(x1.shape[i] for i in ax1)
    if k != math.prod(x2.shape[i] for i in ax2):
        raise ValueError("accel.tensordot: the contracted axes differ in size")
    m = math.prod(x1.shape[i] for i in free1)
    n = math.prod(x2.shape[i] for i in free2)
    r = matmul(reshape(a, (m, k)), reshape(b, (k, n)))
    return reshape(r, tuple(x1.shape[i] for i in free1) + tuple(x2.shape[i] for i in free2))


def transpose(a: Array, axes: Any = None) -> Array:
    """NumPy's transpose: a view with the axes reversed (or permuted as
    axes says)."""
    return permute_dims(a, tuple(reversed(range(a.ndim))) if axes is None else tuple(axes))


def swapaxes(a: Array, axis1: int, axis2: int) -> Array:
    """A view with two axes exchanged."""
    order = list(range(a.ndim))
    i, j = _axis(axis1, a.ndim, "swapaxes"), _axis(axis2, a.ndim, "swapaxes")
    order[i], order[j] = order[j], order[i]
    return permute_dims(a, tuple(order))


def ravel(a: Array) -> Array:
    """The flattened array: a view when a's strides allow, else a copy."""
    return reshape(a, (-1,))


# ----------------------------------------------------- sorting, searching
def _complex_argsort(x: Array, ax: int, fn: str) -> Array:
    """argsort of a complex x along ax in NumPy's complex order
    (lexicographic (real, imag); R + NaN j, NaN + R j, NaN + NaN j last):
    three stable argsorts, each key gathered through the order so far
    (take_along_axis)."""
    re, im = real(x), imag(x)
    cls = add(astype(isnan(im), int64), multiply(astype(isnan(re), int64), 2))
    order = argsort(im, axis=ax)
    for key in (re, cls):
        order = take_along_axis(order, argsort(take_along_axis(key, order, axis=ax), axis=ax),
                                axis=ax)
    return order


_SORT_KINDS = (None, "quicksort", "mergesort", "heapsort", "stable")


def _sort_args(fn: str, descending: Any, kind: Any) -> int:
    """descending as 0 or 1, after NumPy's check of kind (every accel
    sort is stable, so each kind gives the same result)."""
    if kind not in _SORT_KINDS:
        raise ValueError(f"accel.{fn}: kind {kind!r} is not one of 'quicksort', "
                         f"'mergesort', 'heapsort', 'stable'")
    if not isinstance(descending, (_b.bool, np.bool_, numbers.Integral)):
        raise TypeError(f"accel.{fn}: descending must be a bool, not "
                        f"{type(descending).__name__}")
    return int(_b.bool(descending))


def sort(x: Array, /, *, axis: Any = -1, descending: _b.bool = False,
         stable: _b.bool = True, kind: Any = None) -> Array:
    """x sorted along axis, stably (accel_array_sort: NaNs last); complex in
    NumPy's order (ascending only; through _complex_argsort). axis=None
    sorts the flattened array, as NumPy's; kind= (NumPy's) is accepted and
    changes nothing: every accel sort is stable."""
    _need_array("sort", x)
    descending = _sort_args("sort", descending, kind)
    if axis is None:
        x, axis = reshape(x, (-1,)), -1
    ax = _axis(axis, x.ndim, "sort")
    if x.dtype.kind == "c" and x.size:
        if descending:
            raise NotImplementedError("accel.sort: descending order of complex numbers")
        return take_along_axis(x, _complex_argsort(x, ax, "sort"), axis=ax)
    out = _new(x.shape, x.dtype, x.device)
    if out.size:
        _check(C.sort(_q(x, out), x._cv(), ax, int(descending), out._cv()))
    return out


def argsort(x: Array, /, *, axis: Any = -1, descending: _b.bool = False,
            stable: _b.bool = True, kind: Any = None) -> Array:
    """The int64 indices that sort x along axis, stably (accel_array_argsort;
    complex in NumPy's order, ascending only). axis=None gives the indices
    into the flattened array, as NumPy's; kind= is accepted and changes
    nothing (stable always)."""
    _need_array("argsort", x)
    descending = _sort_args("argsort", descending, kind)
    if axis is None:
        x, axis = reshape(x, (-1,)), -1
    ax = _axis(axis, x.ndim, "argsort")
    if x.dtype.kind == "c" and x.size:
        if descending:
            raise NotImplementedError("accel.argsort: descending order of complex numbers")
        return _complex_argsort(x, ax, "argsort")
    src = contiguous(x)
    out = _new(x.shape, int64, x.device)
    if out.size:
        _check(C.argsort(_q(src, out), src._cv(), ax, int(descending), out._cv()))
    return out


def nonzero(x: Array, /) -> tuple:
    """The indices of x's nonzero elements, one int64 array per axis
    (accel_array_nonzero; waits for the count)."""
    if x.ndim == 0:
        raise ValueError("accel.nonzero: a 0-d array (use x[None])")
    if x.dtype.kind == "c":
        x = not_equal(x, 0)  # either part nonzero
    n = int(sum(astype(x, bool)))
    out = _new((x.ndim, n), int64, x.device)
    if n:
        _check(C.nonzero(_q(x, out), x._cv(), out._cv()))
    return tuple(out[i] for i in range(x.ndim))


def take(x: Array, indices: Array, /, *, axis: Optional[int] = None) -> Array:
    """x's elements at indices along axis (None: of x flattened, as NumPy's
    and CuPy's take; the standard's for a 1-D x), on the device
    (accel_array_take). Raises IndexError for an index out of range (the
    C layer would clamp it)."""
    if axis is None:
        x = x if x.ndim == 1 else reshape(x, (-1,))
        axis = 0
    ax = _axis(axis, x.ndim, "take")
    idx = indices if isinstance(indices, Array) else asarray(indices, device=x.device)
    if idx.dtype.kind not in "iu":
        raise IndexError(f"accel.take: indices must be integers, not {idx.dtype}")
    n = x.shape[ax]
    if idx.size and (int(max(idx)) >= n or int(min(idx)) < -n):
        raise IndexError(f"accel.take: an index is out of range for axis {ax} of size {n}")
    out = _new(x.shape[:ax] + idx.shape + x.shape[ax + 1:], x.dtype, x.device)
    if out.size:  # a complex array moves as its (real, imag) float pairs
        xs, os_ = (_pairs(x), _pairs(out)) if x._dtype.kind == "c" else (x, out)
        _check(C.take(_q(x, idx, out), xs._cv(), idx._cv(), ax, os_._cv()))
    return out


def take_along_axis(x: Array, indices: Array, /, *, axis: int = -1) -> Array:
    """x's elements at indices along axis, per position of the other axes
    (NumPy's and the standard's take_along_axis; accel_array_take_along_axis):
    x and indices have one ndim and broadcast on the other axes. Raises
    IndexError for an index out of range."""
    if not isinstance(indices, Array) or indices.dtype.kind not in "iu":
        raise IndexError("accel.take_along_axis: indices must be an accel array of integers")
    if indices.ndim != x.ndim:
        raise ValueError(f"accel.take_along_axis: indices is {indices.ndim}-d, x {x.ndim}-d")
    ax = _axis(axis, x.ndim, "take_along_axis")
    n = x.shape[ax]
    if indices.size and (int(max(indices)) >= n or int(min(indices)) < -n):
        raise IndexError(f"accel.take_along_axis: an index is out of range for axis {ax} of "
                         f"size {n}")
    shape = []
    for d, (a, b) in enumerate(zip(x.shape, indices.shape)):
        if d != ax and a != b and 1 not in (a, b):
            raise ValueError(f"accel.take_along_axis: x {x.shape} and indices {indices.shape} "
                             f"do not broadcast on axis {d}")
        shape.append(b if d == ax else _b.max(a, b) if 0 not in (a, b) else 0)
    if x._dtype.kind == "c":  # part by part
        return _complex_of(take_along_axis(_pairs(x, 0), indices, axis=ax),
                           take_along_axis(_pairs(x, 1), indices, axis=ax))
    out = _new(tuple(shape), x.dtype, x.device)
    if out.size:
        _check(C.take_along_axis(_q(x, indices, out), x._cv(), indices._cv(), ax, out._cv()))
    return out


def _tri(fn: str, x: Array, k: int) -> Array:
    if x.ndim < 2:
        raise ValueError(f"accel.{fn}: x must have at least 2 dimensions")
    out = _new(x.shape, x.dtype, x.device)
    if out.size:
        f = C.tril if fn == "tril" else C.triu
        # a complex array part by part (the C function takes real dtypes)
        pairs = [(_pairs(x, p), _pairs(out, p)) for p in (0, 1)] if x._dtype.kind == "c" \
            else [(x, out)]
        for xs, os_ in pairs:
            # any |k| past the matrix is all or nothing: clamped, never wrapped by ctypes
            _check(f(_q(xs, os_), xs._cv(), _clamp(operator.index(k)), os_._cv()))
    return out


def tril(x: Array, /, *, k: int = 0) -> Array:
    """x on and below the k-th diagonal of the last two axes, zeros above."""
    return _tri("tril", x, k)


def triu(x: Array, /, *, k: int = 0) -> Array:
    """x on and above the k-th diagonal of the last two axes, zeros below."""
    return _tri("triu", x, k)


# ----------------------------------------------------------- Array methods
def _reshape_method(self: Array, *shape: Any, order: str = "C") -> Array:
    """x.reshape(2, 3) or x.reshape((2, 3)): a view when the strides allow,
    else a copy (NumPy's; C order only)."""
    if order != "C":
        raise ValueError("accel: reshape in C order only")
    if len(shape) == 1 and not isinstance(shape[0], (int, np.integer)):
        shape = tuple(shape[0])
    return reshape(self, shape)


def _methods() -> None:
    """CuPy's (NumPy's) array methods, each the namespace function."""
    A = Array
    A.reshape = _reshape_method  # type: ignore[attr-defined]
    A.ravel = lambda s: ravel(s)  # type: ignore[attr-defined]
    A.flatten = lambda s: _copy_of(ravel(s)) if _shares(ravel(s), s) else ravel(s)
    # `v in x` over every element (NumPy's; Python's fallback compared rows
    # and raised for 2-d), and f"{x:.2f}" through NumPy's formatting.
    A.__contains__ = lambda s, v: _b.bool(any(equal(s, v)))  # type: ignore[attr-defined]
    A.__format__ = lambda s, spec: str(s) if not spec else format(s.get(), spec)
    A.astype = lambda s, dtype, copy=True: astype(s, dtype, copy=copy)
    A.T = property(lambda s: transpose(s))  # type: ignore[attr-defined]
    A.mT = property(lambda s: matrix_transpose(s))  # type: ignore[attr-defined]
    A.transpose = lambda s, *axes: transpose(  # type: ignore[attr-defined]
        s, axes[0] if len(axes) == 1 and not isinstance(axes[0], int) else (axes or None))
    A.swapaxes = lambda s, a1, a2: swapaxes(s, a1, a2)  # type: ignore[attr-defined]
    A.squeeze = lambda s, axis=None: squeeze(s, axis)  # type: ignore[attr-defined]
    A.fill = _fill_method  # type: ignore[attr-defined]
    A.repeat = lambda s, repeats, axis=None: repeat(s, repeats, axis=axis)
    A.round = lambda s, decimals=0, out=None: round(s, decimals, out)
    A.view = _view_method  # type: ignore[attr-defined]
    A.dot = lambda s, b, out=None: dot(s, b, out)  # type: ignore[attr-defined]
    A.clip = lambda s, a_min=None, a_max=None: clip(s, a_min, a_max)
    A.cumsum = lambda s, axis=None, dtype=None: cumsum(s, axis, dtype)
    A.nonzero = lambda s: nonzero(s)  # type: ignore[attr-defined]
    A.take = lambda s, i, axis=None: take(s, i, axis=axis)
    for name, f in (("sum", sum), ("prod", prod), ("mean", mean), ("max", max), ("min", min),
                    ("any", any), ("all", all), ("argmax", argmax), ("argmin", argmin),
                    ("var", var), ("std", std)):
        setattr(A, name, (lambda f: lambda s, *a, **k: f(s, *a, **k))(f))
    # NumPy's x.sort(axis, kind) and x.argsort(axis, kind), with the
    # namespace's descending and stable (every accel sort is stable)
    def sort_method(s: Array, axis: int = -1, kind: Any = None, *,
                    descending: _b.bool = False, stable: _b.bool = True) -> None:
        """Sort this array in place along axis, stably (:func:`accel.sort`;
        NaNs last, first when descending); kind= is NumPy's, accepted and
        checked, every kind giving the stable result. Raises IndexError
        (axis), ValueError (kind), TypeError (descending not a bool)."""
        copyto(s, sort(s, axis=axis, kind=kind, descending=descending, stable=stable))

    def argsort_method(s: Array, axis: Any = -1, kind: Any = None, *,
                       descending: _b.bool = False, stable: _b.bool = True) -> Array:
        """The int64 indices that sort this array along axis, stably
        (:func:`accel.argsort`; ties in index order in both directions);
        kind= as in :meth:`sort`. Raises as :meth:`sort`."""
        return argsort(s, axis=axis, kind=kind, descending=descending, stable=stable)

    for name, f in (("sort", sort_method), ("argsort", argsort_method)):
        f.__name__, f.__qualname__ = name, f"Array.{name}"
        setattr(A, name, f)
    A.conj = lambda s: conj(s) if s.dtype.kind == "c" else s  # type: ignore[attr-defined]
    A.real = property(lambda s: real(s) if s.dtype.kind == "c" else s)
    A.imag = property(lambda s: imag(s) if s.dtype.kind == "c" else zeros_like(s))


_attach()
_methods()

__all__ = [n for n in dir() if not n.startswith("_") and n not in (
    "annotations", "ctypes", "math", "np", "operator", "Any", "Optional", "Sequence", "Tuple",
    "C", "L", "Device", "get_device", "contiguous", "fill")]
