# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""accel.array_api: the Python Array API standard 2023.12 namespace over
accel's C array layer (accel/array.h).

    import accel.array_api as xp
    x = xp.asarray([[1, 2, 3], [4, 5, 6]], dtype=xp.int16)
    y = xp.sum(x[:, ::2], axis=(0,), keepdims=True)   # a view, then a C reduction

Arrays are strided views (accel_array) of one device buffer; indexing with
integers, slices (any step), None and Ellipsis gives views sharing that
buffer. Every computation is a C call on the array's device (accel_array_unary,
_binary, _clip, _where, _astype, _copy, _reduce); promotion is the C
library's (accel_result_type, accel_result_type_scalar). Host memory is used
only to bring data in (asarray of host data, arange, linspace, eye) and out
(``__array__``, ``to_numpy``, ``float(x)``, ...). Functions of the standard
that the C layer has no op for yet raise NotImplementedError naming them.
docs/python.md lists what is there and what differs from the standard.
"""
from __future__ import annotations

import builtins as _b
import ctypes
import math
import operator
from typing import Any, Optional, Sequence, Tuple

import numpy as np

from . import _aa_lib as C
from . import _lib as L
from ._core import Device, _stream_for, get_device

__array_api_version__ = "2023.12"

bool = np.dtype(np.bool_)  # noqa: A001 (the standard's name)
int8, int16, int32, int64 = (np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))
uint8, uint16, uint32, uint64 = (np.dtype(t) for t in (np.uint8, np.uint16, np.uint32,
                                                       np.uint64))
float32, float64 = np.dtype(np.float32), np.dtype(np.float64)
# Stored, copied and read back; no C function computes on them yet.
complex64, complex128 = np.dtype(np.complex64), np.dtype(np.complex128)

e, pi, inf, nan = math.e, math.pi, math.inf, math.nan
newaxis = None

def _dtype(dtype: Any, fn: str) -> np.dtype:
    """A dtype of the namespace, or TypeError naming fn."""
    try:
        dt = np.dtype(dtype)
    except TypeError:
        dt = None
    if dt not in C.CODES:
        raise TypeError(f"accel.array_api.{fn}: dtype {dtype!r} is not one accel.array_api has "
                        "(bool, int8..int64, uint8..uint64, float32, float64, complex64, "
                        "complex128)")
    return dt


def _check(code: int) -> None:
    if code:
        raise L.failed(code)


class _Storage:
    """One pool block owned by the arrays that view it."""
    __slots__ = ("block", "device")

    def __init__(self, device: Device, nbytes: int):
        self.device = device
        self.block = device._rt.pool.malloc(device, _b.max(nbytes, 1), _stream_for(device))

    def __del__(self) -> None:
        b = self.block
        if b is not None:
            try:
                b.pool.free(b)
            except Exception:
                pass


def _queue(dev: Device) -> int:
    return _stream_for(dev)._h()


class Array:
    """An N-d array of the Array API standard: a strided view (accel_array)
    of a device buffer. Made by the namespace's functions, not directly."""
    __slots__ = ("_st", "_v", "_dtype", "__weakref__")

    # -------------------------------------------------------- attributes
    @property
    def dtype(self) -> np.dtype:
        return self._dtype

    @property
    def device(self) -> Device:
        return self._st.device

    @property
    def ndim(self) -> int:
        return self._v.ndim

    @property
    def shape(self) -> Tuple[int, ...]:
        v = self._v
        return tuple(v.shape[i] for i in range(v.ndim))

    @property
    def strides(self) -> Tuple[int, ...]:
        """Strides in bytes (NumPy's convention; the C view keeps elements)."""
        v, isz = self._v, self._dtype.itemsize
        return tuple(v.strides[i] * isz for i in range(v.ndim))

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def T(self) -> "Array":
        if self.ndim != 2:
            raise ValueError(f"accel.array_api: x.T needs a 2-D array, not {self.ndim}-D (use "
                             "permute_dims or matrix_transpose)")
        return permute_dims(self, (1, 0))

    @property
    def mT(self) -> "Array":
        return matrix_transpose(self)

    def __array_namespace__(self, *, api_version: Optional[str] = None) -> Any:
        if api_version not in (None, "2023.12", "2022.12", "2021.12"):
            raise ValueError(f"accel.array_api: api_version {api_version!r} is not supported "
                             "(2023.12)")
        import accel.array_api as ns
        return ns

    def to_device(self, device: Any, /, *, stream: Any = None) -> "Array":
        """The array on `device`: itself when it is there, else a copy
        through host memory."""
        dev = get_device(device)
        if dev == self.device:
            return self
        return asarray(self.to_numpy(), device=dev)

    # ---------------------------------------------------------- host I/O
    def _contiguous(self) -> bool:
        v, acc = self._v, 1
        for i in reversed(range(v.ndim)):
            if v.shape[i] != 1 and v.strides[i] != acc:
                return False
            acc *= v.shape[i]
        return True

    def to_numpy(self) -> np.ndarray:
        """A NumPy copy (waits for the work before it)."""
        src = self if self._contiguous() else _copy_of(self)
        out = np.empty(self.shape, self._dtype)
        if out.size:
            dev = self.device
            s = _stream_for(dev)
            _check(L.queue_read_blocking(s._h(), src._st.block.handle, src._v.offset,
                                         out.ctypes.data, out.nbytes))
        return out

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        a = self.to_numpy()
        return a if dtype is None else a.astype(dtype, copy=False)

    def __repr__(self) -> str:
        return f"Array({self.to_numpy()!r}, device='{self.device.name}')"

    def _scalar(self, fn: str) -> Any:
        if self.size != 1:
            raise TypeError(f"accel.array_api: {fn}() of an array of shape {self.shape}: "
                            "only one-element arrays convert")
        return self.to_numpy().reshape(()).item()

    def __bool__(self) -> bool:
        return _b.bool(self._scalar("bool"))

    def __int__(self) -> int:
        if self._dtype.kind == "f":
            v = self._scalar("int")
            if math.isnan(v) or math.isinf(v):
                raise (ValueError if math.isnan(v) else OverflowError)(
                    f"accel.array_api: int() of {v}")
        return int(self._scalar("int"))

    def __float__(self) -> float:
        return float(self._scalar("float"))

    def __complex__(self) -> complex:
        return complex(self._scalar("complex"))

    def __index__(self) -> int:
        if self._dtype.kind not in "iu" or self.ndim:
            raise TypeError(f"accel.array_api: __index__ needs a 0-d integer array, not "
                            f"{self.ndim}-d {self._dtype}")
        return int(self._scalar("index"))

    def __len__(self) -> int:
        if not self.ndim:
            raise TypeError("len() of a 0-d array")
        return self._v.shape[0]

    def __dlpack__(self, **kw: Any) -> Any:
        raise NotImplementedError("accel.array_api: Array.__dlpack__ is not there yet (use "
                                  "accel.asarray and its DLPack export)")

    def __dlpack_device__(self) -> Tuple[int, int]:
        return (1, 0) if self.device.name.startswith("cpu") else (2, self.device.index)

    # -------------------------------------------------------- operators
    def __getitem__(self, key: Any) -> "Array":
        return _getitem(self, key)

    def __setitem__(self, key: Any, value: Any) -> None:
        dst = _getitem(self, key)
        src = _as_operand(value, dst, "__setitem__")
        if src._dtype != dst._dtype:
            src = astype(src, dst._dtype)
        elif src._st is dst._st:
            src = _copy_of(src)
        _copy_into(src, dst)

    def _inplace(self, other: Any, name: str) -> "Array":
        r = _binary(name, self, other)
        if r._dtype != self._dtype or r.shape != self.shape:
            raise TypeError(f"accel.array_api: in-place {name} would give {r._dtype} "
                            f"{r.shape}, but x is {self._dtype} {self.shape}")
        _check(C.copy(_queue(self.device), r._v, self._v))
        return self

    def __pos__(self) -> "Array":
        return positive(self)

    def __neg__(self) -> "Array":
        return negative(self)

    def __abs__(self) -> "Array":
        return abs(self)

    def __invert__(self) -> "Array":
        return bitwise_invert(self)

    def __matmul__(self, other: Any) -> "Array":
        return matmul(self, other)

    def __rmatmul__(self, other: Any) -> "Array":
        return matmul(other, self)

    def __imatmul__(self, other: Any) -> "Array":
        r = matmul(self, other)
        if r.shape != self.shape or r.dtype != self.dtype:
            raise ValueError(f"accel.array_api: in-place matmul gives {r.shape}, x is "
                             f"{self.shape}")
        _check(C.copy(_queue(self.device), r._v, self._v))
        return self


def _operators() -> None:
    """Array's arithmetic, comparison and bitwise operators (plain,
    reflected, in-place) from the C functions of the same meaning."""
    ops = {"add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
           "floordiv": "floor_divide", "mod": "remainder", "pow": "pow",
           "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
           "lshift": "bitwise_left_shift", "rshift": "bitwise_right_shift"}
    for op, fn in ops.items():
        setattr(Array, f"__{op}__", lambda s, o, fn=fn: _binary(fn, s, o))
        setattr(Array, f"__r{op}__", lambda s, o, fn=fn: _binary(fn, o, s))
        setattr(Array, f"__i{op}__", lambda s, o, fn=fn: s._inplace(o, fn))
    cmp = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal",
           "gt": "greater", "ge": "greater_equal"}
    for op, fn in cmp.items():
        setattr(Array, f"__{op}__", lambda s, o, fn=fn: _binary(fn, s, o))
    Array.__hash__ = None  # type: ignore[assignment]


_operators()


# ------------------------------------------------------------- making arrays
def _new(shape: Sequence[int], dtype: np.dtype, device: Device) -> Array:
    """A fresh contiguous array (contents undefined)."""
    shape = tuple(shape)
    a = Array.__new__(Array)
    a._st = _Storage(device, math.prod(shape) * dtype.itemsize)
    a._dtype = dtype
    a._v = C.View()
    dims = (ctypes.c_int64 * _b.max(len(shape), 1))(*shape)
    _check(C.array_init(a._v, a._st.block.handle, C.CODES[dtype], len(shape), dims))
    return a


def _derived(x: Array, v: C.View) -> Array:
    """A view of x's storage described by v."""
    a = Array.__new__(Array)
    a._st, a._v, a._dtype = x._st, v, x._dtype
    return a


def _upload(h: np.ndarray, dtype: np.dtype, device: Device) -> Array:
    h = np.asarray(h, dtype=dtype, order="C")
    a = _new(h.shape, dtype, device)
    if h.nbytes:
        _check(L.queue_write_blocking(_queue(device), a._st.block.handle, 0, h.ctypes.data,
                                      h.nbytes))
    return a


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
    kinds = {type(v) for v in flat}
    if _b.any(issubclass(k, complex) for k in kinds):
        return complex128
    if not flat.size or _b.any(issubclass(k, float) for k in kinds):
        return float64
    if _b.all(issubclass(k, (np.bool_,)) or k is _b.bool for k in kinds):
        return bool
    return int64


def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None, copy: Any = None) -> Array:
    """An array from an Array, a NumPy array, a Python scalar or nested
    sequences. Python data takes bool, int64 or float64 unless `dtype`
    says otherwise; host data is copied to `device` (default: the current
    device). copy=False for host data raises ValueError (it must be copied)."""
    dt = None if dtype is None else _dtype(dtype, "asarray")
    if isinstance(obj, Array):
        r = obj if dt is None or dt == obj._dtype else astype(obj, dt)
        if device is not None:
            r = r.to_device(device)
        if copy and r is obj:
            r = _copy_of(obj)
        return r
    if copy is False:
        raise ValueError("accel.array_api.asarray: copy=False, but host data must be copied "
                         "to the device")
    if isinstance(obj, np.ndarray) or hasattr(obj, "__array__"):
        h = np.asarray(obj)
        if dt is None:
            dt = _dtype(h.dtype, "asarray")
    else:
        if dt is None:
            dt = _default_dtype(obj)
        if dt.kind in "iu":
            _int_range(obj, dt)
        h = np.asarray(obj)
    return _upload(h.astype(dt) if h.dtype != dt else h, dt, _device(device))


def _int_range(obj: Any, dt: np.dtype) -> None:
    info = np.iinfo(dt)
    for v in np.asarray(obj, dtype=object).ravel():
        if isinstance(v, int) and not info.min <= v <= info.max:
            raise OverflowError(f"accel.array_api.asarray: {v} does not fit {dt}")


def _scalar_array(value: Any, dtype: np.dtype, device: Device) -> Array:
    if dtype.kind in "iu" and not isinstance(value, (_b.bool, np.bool_)):
        info = np.iinfo(dtype)
        if not info.min <= int(value) <= info.max:
            raise OverflowError(f"accel.array_api: the Python scalar {value} does not fit "
                                f"{dtype}")
    return _upload(np.asarray(value, dtype=dtype), dtype, device)


def empty(shape: Any, *, dtype: Any = None, device: Any = None) -> Array:
    """A new array, contents undefined (default dtype float64)."""
    return _new(_shape(shape, "empty"), _dtype(dtype or float64, "empty"), _device(device))


def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Array:
    """A new array with every element fill_value: one element copied to the
    device, broadcast by accel_array_copy."""
    if dtype is None:
        dtype = _default_dtype(fill_value)
    dt = _dtype(dtype, "full")
    dev = _device(device)
    out = _new(_shape(shape, "full"), dt, dev)
    if out.size:
        _copy_into(_scalar_array(fill_value, dt, dev), out)
    return out


def zeros(shape: Any, *, dtype: Any = None, device: Any = None) -> Array:
    return full(shape, 0, dtype=dtype or float64, device=device)


def ones(shape: Any, *, dtype: Any = None, device: Any = None) -> Array:
    return full(shape, 1, dtype=dtype or float64, device=device)


def empty_like(x: Array, /, *, dtype: Any = None, device: Any = None) -> Array:
    return empty(x.shape, dtype=dtype or x.dtype, device=device or x.device)


def zeros_like(x: Array, /, *, dtype: Any = None, device: Any = None) -> Array:
    return zeros(x.shape, dtype=dtype or x.dtype, device=device or x.device)


def ones_like(x: Array, /, *, dtype: Any = None, device: Any = None) -> Array:
    return ones(x.shape, dtype=dtype or x.dtype, device=device or x.device)


def full_like(x: Array, /, fill_value: Any, *, dtype: Any = None, device: Any = None) -> Array:
    return full(x.shape, fill_value, dtype=dtype or x.dtype, device=device or x.device)


def arange(start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None,
           device: Any = None) -> Array:
    """As the standard's arange; the values are made on the host and copied
    (no C creation op yet)."""
    if dtype is None:
        dtype = float64 if _b.any(isinstance(v, float) for v in (start, stop, step)) else int64
    dt = _dtype(dtype, "arange")
    if stop is None:
        start, stop = 0, start
    h = np.arange(start, stop, step, dtype=dt)
    return _upload(h, dt, _device(device))


def linspace(start: Any, stop: Any, /, num: int, *, dtype: Any = None, device: Any = None,
             endpoint: _b.bool = True) -> Array:
    """As the standard's linspace (made on the host, then copied)."""
    dt = _dtype(dtype or float64, "linspace")
    return _upload(np.linspace(start, stop, num, endpoint=endpoint, dtype=dt), dt,
                   _device(device))


def eye(n_rows: int, n_cols: Optional[int] = None, /, *, k: int = 0, dtype: Any = None,
        device: Any = None) -> Array:
    """As the standard's eye (made on the host, then copied)."""
    dt = _dtype(dtype or float64, "eye")
    return _upload(np.eye(n_rows, n_cols, k=k, dtype=dt), dt, _device(device))


def _shape(shape: Any, fn: str) -> Tuple[int, ...]:
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, _b.bool):
        shape = (shape,)
    t = tuple(operator.index(s) for s in shape)
    if _b.any(s < 0 for s in t):
        raise ValueError(f"accel.array_api.{fn}: negative dimension in shape {t}")
    return t


def from_dlpack(x: Any, /, *, device: Any = None, copy: Any = None) -> Array:
    raise NotImplementedError("accel.array_api.from_dlpack is not there yet (accel.from_dlpack "
                              "gives accel.Array)")


# ------------------------------------------------------------------ dtypes
def result_type(*arrays_and_dtypes: Any) -> np.dtype:
    """The promoted dtype of arrays and dtypes, folded pairwise through the
    C library's accel_result_type."""
    if not arrays_and_dtypes:
        raise ValueError("accel.array_api.result_type: at least one array or dtype")
    dts = [a.dtype if isinstance(a, Array) else _dtype(a, "result_type")
           for a in arrays_and_dtypes]
    r = dts[0]
    for d in dts[1:]:
        r = _promote(r, d)
    return r


def _promote(a: np.dtype, b: np.dtype) -> np.dtype:
    out = ctypes.c_int()
    code = C.result_type(C.CODES[a], C.CODES[b], ctypes.byref(out))
    if code:
        raise TypeError(L.failed(code).message)
    if out.value not in C.DTYPES:
        raise TypeError(f"accel.array_api: {a} and {b} promote to a dtype the namespace "
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
    raise TypeError(f"accel.array_api: operand of type {type(value).__name__} is neither an "
                    "array nor a Python scalar")


def _promote_scalar(a: np.dtype, value: Any) -> np.dtype:
    out = ctypes.c_int()
    _check(C.result_type_scalar(C.CODES[a], _scalar_kind(value), ctypes.byref(out)))
    if out.value not in C.DTYPES:
        raise TypeError(f"accel.array_api: {a} with a {type(value).__name__} scalar gives a "
                        "dtype accel.array_api does not have")
    return C.DTYPES[out.value]


def can_cast(from_: Any, to: Any, /) -> _b.bool:
    """True when from_ promotes to `to` (accel_result_type)."""
    f = from_.dtype if isinstance(from_, Array) else _dtype(from_, "can_cast")
    t = _dtype(to, "can_cast")
    if f == t:
        return True
    try:
        return _promote(f, t) == t
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
        raise ValueError(f"accel.array_api.isdtype: unknown kind {kind!r} (one of "
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
    """x converted to dtype on its device (accel_array_astype)."""
    dt = _dtype(dtype, "astype")
    if device is not None:
        x = x.to_device(device)
    if dt == x._dtype:
        return _copy_of(x) if copy else x
    out = _new(x.shape, dt, x.device)
    _check(C.astype(_queue(x.device), x._v, out._v))
    return out


class _Info:
    """What __array_namespace_info__() returns."""

    def capabilities(self) -> dict:
        return {"boolean indexing": False, "data-dependent shapes": False,
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
    standard gives it with like's dtype (accel_result_type_scalar)."""
    if isinstance(x, Array):
        return x
    return _scalar_array(x, _promote_scalar(like._dtype, x), like.device)


def _result_dtype(fn: str, *dts: np.dtype) -> np.dtype:
    code, arity, res = C.FUNCTIONS[fn]
    if res == C.RESULT_BOOL:
        return bool
    r = dts[0]
    for d in dts[1:]:
        r = _promote(r, d)
    return r


def _bshape(*xs: Array) -> Tuple[int, ...]:
    arr = (C.V * len(xs))(*(ctypes.pointer(x._v) for x in xs))
    nd = ctypes.c_uint32()
    shp = (ctypes.c_int64 * C.MAX_NDIM)()
    _check(C.broadcast_shapes(len(xs), arr, ctypes.byref(nd), shp))
    return tuple(shp[i] for i in range(nd.value))


def _binary(fn: str, x1: Any, x2: Any) -> Array:
    if not isinstance(x1, Array) and not isinstance(x2, Array):
        raise TypeError(f"accel.array_api.{fn}: needs at least one array")
    if not isinstance(x1, Array):
        x1 = _as_operand(x1, x2, fn)
    elif not isinstance(x2, Array):
        x2 = _as_operand(x2, x1, fn)
    if x1.device != x2.device:
        raise ValueError(f"accel.array_api.{fn}: arrays on {x1.device.name} and "
                         f"{x2.device.name}")
    out = _new(_bshape(x1, x2), _result_dtype(fn, x1._dtype, x2._dtype), x1.device)
    _check(C.binary(_queue(x1.device), C.FUNCTIONS[fn][0], x1._v, x2._v, out._v))
    return out


def _unary(fn: str, x: Array) -> Array:
    if not isinstance(x, Array):
        raise TypeError(f"accel.array_api.{fn}: x must be an array, not {type(x).__name__}")
    out = _new(x.shape, _result_dtype(fn, x._dtype), x.device)
    _check(C.unary(_queue(x.device), C.FUNCTIONS[fn][0], x._v, out._v))
    return out


def _elementwise() -> dict:
    fns = {}
    for name, (code, arity, res) in C.FUNCTIONS.items():
        if arity == 1 and name != "astype":
            f = (lambda n: lambda x, /: _unary(n, x))(name)
        elif arity == 2:
            f = (lambda n: lambda x1, x2, /: _binary(n, x1, x2))(name)
        else:
            continue
        f.__name__ = name
        f.__doc__ = f"The standard's {name}, elementwise on the device (accel_array_fn {code})."
        fns[name] = f
    return fns


globals().update(_elementwise())


def signbit(x: Array, /) -> Array:
    """True where x's sign bit is set: copysign(1, x) < 0 on the device."""
    if x.dtype.kind != "f":
        return less(x, 0)
    return less(copysign(ones_like(x), x), 0)


def clip(x: Array, /, min: Any = None, max: Any = None) -> Array:
    """x clamped to [min, max] (either may be None) in x's dtype."""
    if min is None and max is None:
        return _copy_of(x)
    lo = _as_operand(min, x, "clip") if min is not None else None
    hi = _as_operand(max, x, "clip") if max is not None else None
    lo = astype(lo, x.dtype, copy=False) if lo is not None else None
    hi = astype(hi, x.dtype, copy=False) if hi is not None else None
    if lo is None:
        r = minimum(x, hi)
    elif hi is None:
        r = maximum(x, lo)
    else:
        r = _new(_bshape(x, lo, hi), x.dtype, x.device)
        _check(C.clip(_queue(x.device), x._v, lo._v, hi._v, r._v))
    if r.shape != x.shape:
        raise ValueError(f"accel.array_api.clip: bounds broadcast x {x.shape} to {r.shape}")
    return r


def where(condition: Array, x1: Any, x2: Any, /) -> Array:
    """condition ? x1 : x2 elementwise (accel_array_where)."""
    if not isinstance(x1, Array):
        x1 = _as_operand(x1, x2 if isinstance(x2, Array) else condition, "where")
    if not isinstance(x2, Array):
        x2 = _as_operand(x2, x1, "where")
    out = _new(_bshape(condition, x1, x2), _promote(x1.dtype, x2.dtype), x1.device)
    _check(C.where(_queue(x1.device), condition._v, x1._v, x2._v, out._v))
    return out


def _copy_of(x: Array) -> Array:
    out = _new(x.shape, x.dtype, x.device)
    _copy_into(x, out)
    return out


def _copy_into(src: Array, dst: Array) -> None:
    """dst[...] = src (same dtype, src broadcast) by accel_array_copy; a
    complex array moves as its (real, imag) float pairs."""
    if src._dtype.kind == "c":
        src = _broadcast_view(src, dst.shape)
        src, dst = _pairs(src), _pairs(dst)
    _check(C.copy(_queue(dst.device), src._v, dst._v))


def _broadcast_view(x: Array, shape: Tuple[int, ...]) -> Array:
    return x if x.shape == shape else broadcast_to(x, shape)


def _pairs(x: Array, part: Optional[int] = None) -> Array:
    """A complex array's elements as float views: shape + (2,) (part None),
    or its real (0) or imaginary (1) parts, sharing its buffer."""
    f = float32 if x._dtype == complex64 else float64
    v, t = x._v, C.View()
    ctypes.pointer(t)[0] = v
    t.dtype = C.CODES[f]
    for i in range(v.ndim):
        t.strides[i] = v.strides[i] * 2
    if part is None:
        t.shape[v.ndim], t.strides[v.ndim], t.ndim = 2, 1, v.ndim + 1
    else:
        t.offset = v.offset + part * f.itemsize
    a = _derived(x, t)
    a._dtype = f
    return a


def _parts(fn: str, x: Array) -> Tuple[Array, Array]:
    if x._dtype.kind != "c":
        raise TypeError(f"accel.array_api.{fn}: x must be complex, not {x._dtype}")
    return _pairs(x, 0), _pairs(x, 1)


def real(x: Array, /) -> Array:
    """The real parts of a complex array (a copy, float32 or float64)."""
    return _copy_of(_parts("real", x)[0])


def imag(x: Array, /) -> Array:
    """The imaginary parts of a complex array (a copy)."""
    return _copy_of(_parts("imag", x)[1])


def conj(x: Array, /) -> Array:
    """The complex conjugate: the real parts copied, the imaginary negated."""
    re, im = _parts("conj", x)
    out = empty_like(x)
    ore, oim = _pairs(out, 0), _pairs(out, 1)
    _check(C.copy(_queue(x.device), re._v, ore._v))
    _check(C.unary(_queue(x.device), C.FUNCTIONS["negative"][0], im._v, oim._v))
    return out


# ---------------------------------------------------------------- indexing
def _norm_key(key: Any, ndim: int) -> list:
    if not isinstance(key, tuple):
        key = (key,)
    for k in key:
        if isinstance(k, Array) or isinstance(k, (list, np.ndarray)):
            raise NotImplementedError("accel.array_api: indexing with arrays (integer or "
                                      "boolean) is not there yet")
        if isinstance(k, (_b.bool, np.bool_)):
            raise NotImplementedError("accel.array_api: boolean scalar indices are not there "
                                      "yet")
    if _b.sum(k is Ellipsis for k in key) > 1:
        raise IndexError("accel.array_api: an index can have only one ellipsis")
    used = _b.sum(k is not None and k is not Ellipsis for k in key)
    if used > ndim:
        raise IndexError(f"accel.array_api: {used} indices for a {ndim}-d array")
    if Ellipsis in [k for k in key if not isinstance(k, Array)]:
        i = [j for j, k in enumerate(key) if k is Ellipsis][0]
        key = key[:i] + (slice(None),) * (ndim - used) + key[i + 1:]
    else:
        key = key + (slice(None),) * (ndim - used)
    return list(key)


def _getitem(x: Array, key: Any) -> Array:
    """x[key] for ints, slices (any step), None and Ellipsis: a view
    (accel_array_slice, accel_array_squeeze, accel_array_expand_dims)."""
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
        n = x._v.shape[axis]
        if isinstance(k, slice):
            s = 1 if k.step is None else operator.index(k.step)
            if s == 0:
                raise ValueError("accel.array_api: slice step 0")
            start[axis] = C.I64_MIN if k.start is None else _clamp(operator.index(k.start))
            stop[axis] = C.I64_MAX if k.stop is None else _clamp(operator.index(k.stop))
            if k.start is None and s < 0:
                start[axis] = C.I64_MAX
            if k.stop is None and s < 0:
                stop[axis] = C.I64_MIN
            step[axis] = s
            pos += 1
        else:
            i = operator.index(k)
            if not -n <= i < n:
                raise IndexError(f"accel.array_api: index {i} is out of bounds for axis "
                                 f"{axis} of size {n}")
            i = i + n if i < 0 else i
            start[axis], stop[axis], step[axis] = i, i + 1, 1
            drop |= 1 << axis
        axis += 1
    v = C.View()
    _check(C.array_slice(x._v, start, stop, step, v))
    if drop:
        _check(C.squeeze(v, drop, v))
    for p in news:
        _check(C.expand_dims(v, p, v))
    return _derived(x, v)


def _clamp(i: int) -> int:
    return _b.max(C.I64_MIN + 1, _b.min(C.I64_MAX - 1, i))


# ------------------------------------------------------------ manipulation
def _axis(axis: int, ndim: int, fn: str) -> int:
    a = operator.index(axis)
    if not -ndim <= a < ndim:
        raise IndexError(f"accel.array_api.{fn}: axis {a} is out of range for {ndim}-d")
    return a % ndim if ndim else 0


def _axes_mask(axis: Any, ndim: int, fn: str) -> Tuple[int, Tuple[int, ...]]:
    if axis is None:
        axes = tuple(range(ndim))
    else:
        t = axis if isinstance(axis, tuple) else (axis,)
        axes = tuple(_axis(a, ndim, fn) for a in t)
        if len(set(axes)) != len(axes):
            raise ValueError(f"accel.array_api.{fn}: repeated axis in {axis}")
    return _b.sum(1 << a for a in axes), axes


def permute_dims(x: Array, /, axes: Tuple[int, ...]) -> Array:
    """A view with axes permuted (accel_array_permute_dims)."""
    if len(axes) != x.ndim:
        raise ValueError(f"accel.array_api.permute_dims: {len(axes)} axes for {x.ndim}-d x")
    v = C.View()
    ax = (ctypes.c_int32 * _b.max(x.ndim, 1))(*axes)
    _check(C.permute_dims(x._v, ax, v))
    return _derived(x, v)


def matrix_transpose(x: Array, /) -> Array:
    """The last two axes swapped: a view."""
    if x.ndim < 2:
        raise ValueError(f"accel.array_api.matrix_transpose: x is {x.ndim}-d, needs >= 2")
    return permute_dims(x, tuple(range(x.ndim - 2)) + (x.ndim - 1, x.ndim - 2))


def expand_dims(x: Array, /, axis: int = 0) -> Array:
    v = C.View()
    if not -x.ndim - 1 <= axis <= x.ndim:
        raise IndexError(f"accel.array_api.expand_dims: axis {axis} for {x.ndim}-d x")
    _check(C.expand_dims(x._v, axis, v))
    return _derived(x, v)


def squeeze(x: Array, /, axis: Any) -> Array:
    mask, axes = _axes_mask(axis, x.ndim, "squeeze")
    if _b.any(x.shape[a] != 1 for a in axes):
        raise ValueError(f"accel.array_api.squeeze: axis {axis} of x {x.shape} is not size 1")
    v = C.View()
    _check(C.squeeze(x._v, mask, v))
    return _derived(x, v)


def flip(x: Array, /, *, axis: Any = None) -> Array:
    mask, _ = _axes_mask(axis, x.ndim, "flip")
    v = C.View()
    _check(C.flip(x._v, mask, v))
    return _derived(x, v)


def broadcast_to(x: Array, /, shape: Tuple[int, ...]) -> Array:
    shape = _shape(shape, "broadcast_to")
    v = C.View()
    dims = (ctypes.c_int64 * _b.max(len(shape), 1))(*shape)
    _check(C.broadcast_to(x._v, len(shape), dims, v))
    return _derived(x, v)


def broadcast_arrays(*arrays: Array) -> list:
    shape = _bshape(*arrays)
    return [broadcast_to(a, shape) for a in arrays]


def reshape(x: Array, /, shape: Tuple[int, ...], *, copy: Optional[_b.bool] = None) -> Array:
    """x with another shape: a view when x's strides allow
    (accel_array_reshape), else (unless copy=False) a contiguous copy
    reshaped."""
    shape = tuple(operator.index(s) for s in shape)
    dims = (ctypes.c_int64 * _b.max(len(shape), 1))(*shape)
    v = C.View()
    src = _copy_of(x) if copy else x
    code = C.reshape(src._v, len(shape), dims, v)
    if code and L.status_name(code).decode() == "ACCEL_ERROR_UNSUPPORTED" and copy is None:
        src = _copy_of(x)
        code = C.reshape(src._v, len(shape), dims, v)
    _check(code)
    return _derived(src, v)


def moveaxis(x: Array, source: Any, destination: Any, /) -> Array:
    s = source if isinstance(source, tuple) else (source,)
    d = destination if isinstance(destination, tuple) else (destination,)
    s = [_axis(a, x.ndim, "moveaxis") for a in s]
    d = [_axis(a, x.ndim, "moveaxis") for a in d]
    if len(s) != len(d):
        raise ValueError("accel.array_api.moveaxis: source and destination differ in length")
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
            raise ValueError(f"accel.array_api.concat: shapes {[t.shape for t in arrays]} "
                             f"differ off axis {ax}")
    shape = list(arrays[0].shape)
    shape[ax] = _b.sum(a.shape[ax] for a in arrays)
    out = _new(shape, dt, arrays[0].device)
    at = 0
    for a in arrays:
        n = a.shape[ax]
        dst = out[(slice(None),) * ax + (slice(at, at + n),)]
        if a.dtype == dt:
            _copy_into(a, dst)
        else:
            _check(C.astype(_queue(out.device), a._v, dst._v))
        at += n
    return out


def stack(arrays: Sequence[Array], /, *, axis: int = 0) -> Array:
    arrays = list(arrays)
    nd = arrays[0].ndim + 1
    if not -nd <= axis < nd:
        raise IndexError(f"accel.array_api.stack: axis {axis} for {nd}-d result")
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
        raise ValueError("accel.array_api.roll: shift and axis differ in length")
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


def repeat(x: Array, repeats: Any, /, *, axis: Optional[int] = None) -> Array:
    """Each element repeated `repeats` (an int) times along axis: a
    broadcast view copied. Array-valued repeats are not there yet."""
    if isinstance(repeats, Array):
        raise NotImplementedError("accel.array_api.repeat: array repeats are not there yet")
    r = operator.index(repeats)
    if r < 0:
        raise ValueError(f"accel.array_api.repeat: repeats {r} < 0")
    if axis is None:
        x, axis = reshape(x, (-1,)), 0
    ax = _axis(axis, x.ndim, "repeat")
    e = expand_dims(x, axis=ax + 1)
    shape = x.shape[:ax + 1] + (r,) + x.shape[ax + 1:]
    out = x.shape[:ax] + (x.shape[ax] * r,) + x.shape[ax + 1:]
    return reshape(_copy_of(broadcast_to(e, shape)), out)


def tile(x: Array, repetitions: Tuple[int, ...], /) -> Array:
    """x repeated along each axis: a broadcast view copied, reshaped."""
    reps = tuple(operator.index(r) for r in repetitions)
    nd = _b.max(len(reps), x.ndim)
    reps = (1,) * (nd - len(reps)) + reps
    shp = (1,) * (nd - x.ndim) + x.shape
    inter = tuple(v for pair in zip(reps, shp) for v in pair)
    v = reshape(x, tuple(v for s_ in shp for v in (1, s_)))
    return reshape(_copy_of(broadcast_to(v, inter)), tuple(r * s_ for r, s_ in zip(reps, shp)))


def meshgrid(*arrays: Array, indexing: str = "xy") -> list:
    if indexing not in ("xy", "ij"):
        raise ValueError(f"accel.array_api.meshgrid: indexing {indexing!r} (xy or ij)")
    n = len(arrays)
    shape = [a.size for a in arrays]
    if indexing == "xy" and n >= 2:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, a in enumerate(arrays):
        j = (1 - i if i < 2 else i) if indexing == "xy" and n >= 2 else i
        s = [1] * n
        s[j] = a.size
        out.append(_copy_of(broadcast_to(reshape(a, tuple(s)), tuple(shape))))
    return out


# --------------------------------------------------------------- reductions
def _reduce(name: str, x: Array, axis: Any, keepdims: _b.bool, dtype: np.dtype) -> Array:
    mask, axes = _axes_mask(axis, x.ndim, name)
    shape = tuple(1 if i in axes else n for i, n in enumerate(x.shape) if keepdims or i not in axes)
    out = _new(shape, dtype, x.device)
    _check(C.reduce(_queue(x.device), C.REDUCTIONS[name], x._v, mask, int(keepdims), out._v))
    return out


def _sum_dtype(x: Array, dtype: Any) -> Tuple[Array, np.dtype]:
    """The input (cast when dtype asks for a float) and the C result dtype."""
    if dtype is not None:
        dt = _dtype(dtype, "sum")
        if dt.kind == "f" and x.dtype != dt:
            x = astype(x, dt)
    k = x.dtype.kind
    return x, (x.dtype if k == "f" else uint64 if k == "u" else int64)


def sum(x: Array, /, *, axis: Any = None, dtype: Any = None, keepdims: _b.bool = False) -> Array:
    """Sum over axis (int, tuple or None) on the device (accel_array_reduce)."""
    x2, cd = _sum_dtype(x, dtype)
    r = _reduce("sum", x2, axis, keepdims, cd)
    return r if dtype is None or _dtype(dtype, "sum") == cd else astype(r, dtype)


def prod(x: Array, /, *, axis: Any = None, dtype: Any = None,
         keepdims: _b.bool = False) -> Array:
    x2, cd = _sum_dtype(x, dtype)
    r = _reduce("prod", x2, axis, keepdims, cd)
    return r if dtype is None or _dtype(dtype, "prod") == cd else astype(r, dtype)


def max(x: Array, /, *, axis: Any = None, keepdims: _b.bool = False) -> Array:
    return _reduce("max", x, axis, keepdims, x.dtype)


def min(x: Array, /, *, axis: Any = None, keepdims: _b.bool = False) -> Array:
    return _reduce("min", x, axis, keepdims, x.dtype)


def mean(x: Array, /, *, axis: Any = None, keepdims: _b.bool = False) -> Array:
    return _reduce("mean", x, axis, keepdims, x.dtype)


def any(x: Array, /, *, axis: Any = None, keepdims: _b.bool = False) -> Array:
    return _reduce("any", x, axis, keepdims, bool)


def all(x: Array, /, *, axis: Any = None, keepdims: _b.bool = False) -> Array:
    return _reduce("all", x, axis, keepdims, bool)


def argmax(x: Array, /, *, axis: Optional[int] = None, keepdims: _b.bool = False) -> Array:
    return _reduce("argmax", x, axis, keepdims, int64)


def argmin(x: Array, /, *, axis: Optional[int] = None, keepdims: _b.bool = False) -> Array:
    return _reduce("argmin", x, axis, keepdims, int64)


def var(x: Array, /, *, axis: Any = None, correction: Any = 0.0,
        keepdims: _b.bool = False) -> Array:
    """Variance: mean, subtract, square and sum on the device."""
    _, axes = _axes_mask(axis, x.ndim, "var")
    n = math.prod(x.shape[a] for a in axes)
    d = subtract(x, mean(x, axis=axis, keepdims=True))
    s = sum(multiply(d, d), axis=axis, keepdims=keepdims)
    return divide(s, float(n - correction)) if n - correction > 0 else multiply(s, nan)


def std(x: Array, /, *, axis: Any = None, correction: Any = 0.0,
        keepdims: _b.bool = False) -> Array:
    return sqrt(var(x, axis=axis, correction=correction, keepdims=keepdims))


# --------------------------------------------------------- linear algebra
def matmul(x1: Array, x2: Array, /) -> Array:
    """Matrix product, composed on the device: sum over k of the broadcast
    product x1[..., :, :, None] * x2[..., None, :, :] (memory m*k*n per
    batch; the C matmul takes float32/float64 2-D only)."""
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("accel.array_api.matmul: 0-d operands are not allowed")
    a = x1 if x1.ndim > 1 else expand_dims(x1, axis=0)
    b = x2 if x2.ndim > 1 else expand_dims(x2, axis=-1)
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(f"accel.array_api.matmul: shapes {x1.shape} and {x2.shape} do not "
                         "align")
    r = sum(multiply(expand_dims(a, axis=-1), expand_dims(b, axis=-3)), axis=-2,
            dtype=result_type(x1, x2))
    if x1.ndim == 1:
        r = squeeze(r, axis=-2)
    if x2.ndim == 1:
        r = squeeze(r, axis=-1)
    return r


def vecdot(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """Dot product over axis (multiply, then sum on the device)."""
    p = multiply(x1, x2)
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError(f"accel.array_api.vecdot: axis {axis} sizes differ")
    return sum(p, axis=axis, dtype=p.dtype)


def tensordot(x1: Array, x2: Array, /, *, axes: Any = 2) -> Array:
    raise NotImplementedError("accel.array_api.tensordot is not there yet")


def _missing(name: str) -> Any:
    def f(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"accel.array_api.{name} is not there yet: the C array "
                                  "layer has no op for it")
    f.__name__ = name
    return f


for _n in ("argsort", "sort", "nonzero", "searchsorted", "unique_all", "unique_counts",
           "unique_inverse", "unique_values", "cumulative_sum", "take", "tril", "triu"):
    globals()[_n] = _missing(_n)

__all__ = [n for n in dir() if not n.startswith("_") and n not in (
    "annotations", "ctypes", "math", "np", "operator", "Any", "Optional", "Sequence", "Tuple",
    "C", "L", "Device", "get_device")]
