# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""accel.Array (also accel.ndarray) and the functions on arrays.

An Array is a C-order (row-major) block of float32 or float64 elements (float16
for matmul, transpose and copies; int32, int64 and uint8 for copies and user
kernels, accel.ElementwiseKernel and the others) in one accel buffer on one device. It owns
its buffer: the buffer goes back to the memory pool when the last array (and
view) using it is gone, and is freed at once by ``release()`` (a view's
``release()`` drops only that view). Ops enqueue on the current stream
of the arrays' device and return at once; ``get()``, ``float()``, printing and
``Stream.synchronize()`` wait. Names and signatures follow CuPy/NumPy where
accel has the operation; there is no broadcasting except of Python scalars,
and no type promotion (both operands must have one dtype).
"""
from __future__ import annotations

import builtins as _b
import ctypes
import math
import numbers
import operator
import threading
import weakref
from typing import Any, Callable, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core
from . import _lib as L
from . import _staging
from ._core import Device, Stream, _current_set, _stream_for, _tls, get_device, runtime
from ._lib import ReleasedError, check, error

float16 = np.float16
float32 = np.float32
float64 = np.float64
int32 = np.int32
int64 = np.int64
uint8 = np.uint8

_CODES = {np.dtype(np.float32): L.F32, np.dtype(np.float64): L.F64, np.dtype(np.float16): L.F16,
          np.dtype(np.int32): L.I32, np.dtype(np.int64): L.I64, np.dtype(np.uint8): L.U8}
# Stored and copied, read by user kernels (accel.ElementwiseKernel, ...); the
# built-in ops refuse them (DtypeMismatchError from libaccel).
_STORAGE_ONLY = frozenset((np.dtype(np.float16), np.dtype(np.int32), np.dtype(np.int64),
                           np.dtype(np.uint8)))
_DEFAULT = np.dtype(np.float64)

# The op table of libaccel (accel_op_info): codes and elementwise functions
# come from the library, so an op added to its table appears here too.
_OPS = L.op_table()
_MUL, _SUM, _RMAX, _RMIN = (_OPS[n][0] for n in ("mul", "sum", "reduce_max", "reduce_min"))

ShapeLike = Union[int, Sequence[int]]
Scalar = Union[int, float]


def _dtype_of(dtype: Any, fn: str) -> np.dtype:
    dt = np.dtype(dtype)
    if dt not in _CODES:
        raise error("ACCEL_ERROR_DTYPE_MISMATCH",
                    f"accel.{fn}: dtype {dt} is not one accel has (float32, float64; float16 "
                    "for matmul, transpose and copies; int32, int64, uint8 for copies and "
                    "user kernels)")
    return dt


def _index(value: Any, what: str) -> int:
    """`value` as a Python int, taken as NumPy takes a size or a seed: an int or
    a NumPy integer (anything with __index__). TypeError naming `what` for a
    float (even 2.0), a bool, a string or None, which int() would round or
    take silently."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{what} must be an integer, not a bool ({value!r})")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an integer, not {type(value).__name__} "
                        f"({value!r})") from None


def _shape_of(shape: ShapeLike, fn: str = "accel", arg: str = "shape") -> Tuple[int, ...]:
    """A shape (an integer or a sequence of them) as a tuple of ints; TypeError
    for anything else, ValueError (InvalidArgumentError) for a negative one.
    Messages name the function `fn` and its argument `arg`."""
    single = hasattr(shape, "__index__") and np.ndim(shape) == 0
    if single or isinstance(shape, (bool, np.bool_)):
        t = (_index(shape, f"{fn}: {arg}"),)
    elif isinstance(shape, (str, bytes)) or not hasattr(shape, "__iter__"):
        raise TypeError(f"{fn}: {arg} must be an integer or a sequence of integers, not "
                        f"{type(shape).__name__} ({shape!r})")
    else:
        t = tuple(_index(s, f"{fn}: {arg} entry") for s in shape)
    if any(s < 0 for s in t):
        raise error("ACCEL_ERROR_INVALID_ARGUMENT", f"{fn}: negative dimension in {arg} {t}")
    return t


# Serializes release() of arrays, so that two threads releasing one array
# (or an array and its view) free its buffer once.
_release_lock = threading.Lock()


def _root(a: "Array") -> "Array":
    """The array that owns a's block: a itself, or the array a is a view of."""
    r = a._base
    return a if r is None else r


def _renew_release_lock() -> None:
    # In a forked child: another thread of the parent may have held it.
    global _release_lock
    _release_lock = threading.Lock()


_core._fork_hooks.append(_renew_release_lock)


def _released(fn: str, rt: Any = None) -> ReleasedError:
    # `rt`: the array's runtime, when the caller has it (ForkedError there).
    return _core.released_error(rt, f"accel.{fn}: the array was released (Array.release() or "
                                "accel.shutdown()) and cannot be used")


class Array:
    """An n-dimensional array in one accel buffer on one device (C order).

    Attributes: ``device`` (accel.Device), ``dtype`` (NumPy dtype),
    ``shape``, ``ndim``, ``size`` (elements), ``nbytes``, ``itemsize``.
    Made by :func:`asarray`, :func:`empty`, :func:`zeros`, ops and
    ``accel.random``; not constructed directly."""

    # Ownership: _block is the pool block while the array is usable (None once
    # released). An array made by an op or asarray owns it (_base None) and
    # gives it back to the pool when it is garbage (then no thread can hold
    # it), or frees it (accel_buffer_release) at release(); a view (_base:
    # the owner) keeps the owner alive, so the block outlives every view. The
    # owner knows its views (_views, id -> view, a WeakValueDictionary made
    # with the first: keyed by id, as arrays do not compare) so its
    # release() reaches them all; _exported and _kept (a released block that an
    # export still sees) are set only when used.
    # _nb: the pool size of an array of this shape and dtype (bytes rounded
    # up to 256), kept because reading dtype.itemsize costs more than the
    # rest of the size arithmetic.
    __slots__ = ("_block", "_base", "_views", "_exported", "_kept", "_shape", "_dtype", "_code",
                 "_offset", "_size", "_nb", "_slice", "device",
                 "__weakref__")

    # ------------------------------------------------------------ basics
    @property
    def shape(self) -> Tuple[int, ...]:
        return self._shape

    @property
    def dtype(self) -> np.dtype:
        return self._dtype

    @property
    def ndim(self) -> int:
        return len(self._shape)

    @property
    def size(self) -> int:
        return self._size

    @property
    def itemsize(self) -> int:
        return self._dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self._size * self._dtype.itemsize

    @property
    def strides(self) -> Tuple[int, ...]:
        st, acc = [], self._dtype.itemsize
        for s in reversed(self._shape):
            st.append(acc)
            acc *= _b.max(s, 1)
        return tuple(reversed(st))

    @property
    def released(self) -> bool:
        """True once release() was called (or the runtime closed)."""
        return self._block is None or not self.device._rt.alive

    def _blk(self, fn: str) -> Any:
        b = self._block
        if b is None or not self.device._rt.alive:
            raise _released(fn, self.device._rt)
        return b

    def release(self) -> None:
        """Free the buffer now instead of when the array is garbage.

        On an array that owns its buffer (one made by an op, asarray, empty,
        ...): the buffer is released (accel_buffer_release, which lets work
        already enqueued on it finish first) and the array and every view of
        it are unusable afterwards. On a view (``x[1:3]``, ``x.reshape``):
        only that view becomes unusable; the array it views and its other
        views keep the data. Any later use of a released array, from any
        thread, raises accel.ReleasedError (status ACCEL_ERROR_INVALID_HANDLE).
        A released buffer never goes back to the memory pool, so an op of
        another thread that still holds it gets ReleasedError, never another
        array's data. Memory that NumPy, CuPy or PyTorch still see through a
        zero-copy export stays until they drop it. Releasing twice is a
        no-op."""
        with _release_lock:
            b = self._block
            if b is None:
                return
            self._block = None
            r = self._base
            if r is not None:  # a view: only this view goes
                vs = getattr(r, "_views", None)
                if vs is not None:
                    vs.pop(id(self), None)
                return
            vs = getattr(self, "_views", None)
            for v in list(vs.values()) if vs is not None else ():
                v._block = None
            # Never back to the pool: accel_buffer_release when the last
            # reference to the block goes, which is here unless an op of
            # another thread holds it right now (then when that op returns,
            # its work enqueued) or an export still sees it (_kept: when
            # this array is garbage).
            b.dead = True
            if getattr(self, "_exported", False):
                self._kept = b

    def __del__(self) -> None:
        b = self._block
        if self._base is not None:
            return  # a view: its owner outlives it and gives the block back
        if b is not None:
            # MemoryPool.free's common case inlined: the block back on its
            # free list while the pool is within its limit (a closed
            # runtime's pool is not; a wrapped block has no list).
            lst = b.home
            if lst is not None and b.pool._fast:
                lst.append(b)
                return
        else:
            return  # released: a _kept block goes with this object (_Block.__del__)
        try:  # no module globals here: they may be gone at interpreter exit
            b.pool.free(b)
        except Exception:
            pass

    def __len__(self) -> int:
        if not self._shape:
            raise TypeError("len() of a 0-d accel array")
        return self._shape[0]

    def __repr__(self) -> str:
        if self.released:
            return f"<accel.Array released, shape={self._shape}, dtype={self._dtype}>"
        body = np.array2string(self.get(), separator=", ", prefix="array(")
        return f"array({body}, device='{self.device.name}')"

    def __str__(self) -> str:
        if self.released:
            return repr(self)
        return str(self.get())

    # --------------------------------------------------------- transfers
    def get(self, stream: Optional[Stream] = None, out: Optional[np.ndarray] = None) -> np.ndarray:
        """Copy to a new NumPy array (or into `out`, C-contiguous, same shape
        and dtype) and return it, after the work on `stream` (default: the
        current stream) before it. Raises ReleasedError for a released
        array and the AccelError of queued work that failed."""
        b = self._blk("Array.get")
        s = stream if stream is not None else _stream_for(self.device)
        if b.stream is not s:
            s._join_from(b.stream)
            b.stream = s
        if out is None:
            out = np.empty(self._shape, self._dtype)
        elif (out.shape != self._shape or out.dtype != self._dtype
              or not out.flags.c_contiguous or not out.flags.writeable):
            raise error("ACCEL_ERROR_SHAPE_MISMATCH",
                        f"accel.Array.get: out is {out.shape} {out.dtype}, want a writable "
                        f"C-contiguous {self._shape} {self._dtype}")
        if self._size:
            isz = self._dtype.itemsize
            h = b.handle
            if h is None:  # released by another thread since _blk
                raise _released("Array.get")
            check(L.queue_read_blocking(s._h(), h, self._offset * isz,
                                        out.ctypes.data, self._size * isz))
        return out

    def set(self, arr: Any, stream: Optional[Stream] = None) -> None:
        """Copy host data (anything np.asarray takes, of this shape) into the
        array. Without `stream`: on the current stream, waiting until it is
        written. With `stream` (as CuPy's ``set(arr, stream=s)``):
        asynchronous on that stream, staged through page-locked memory
        (accel/_staging.py): returns once the data are in the staging block,
        so `arr` may be changed at once, and the device write overlaps other
        streams' work. Raises ShapeMismatchError; a failed asynchronous write
        is raised by the stream's next synchronizing call."""
        b = self._blk("Array.set")
        a = np.asarray(arr, dtype=self._dtype, order="C")
        if a.shape != self._shape and a.size == 1 == self._size:
            a = a.reshape(self._shape)  # a scalar into a one-element array
        if a.shape != self._shape:
            raise error("ACCEL_ERROR_SHAPE_MISMATCH",
                        f"accel.Array.set: data of shape {a.shape} into an array of shape "
                        f"{self._shape}")
        s = stream if stream is not None else _stream_for(self.device)
        if b.stream is not s:
            s._join_from(b.stream)
            b.stream = s
        if self._size:
            isz = self._dtype.itemsize
            h = b.handle
            if h is None:
                raise _released("Array.set")
            if stream is not None:
                _staging.write_async(s, h, self._offset * isz, a)
            else:
                check(L.queue_write_blocking(s._h(), h, self._offset * isz, a.ctypes.data,
                                             a.nbytes))

    def copy_to_host(self, ary: Optional[np.ndarray] = None, stream: Any = 0) -> np.ndarray:
        """Numba's name for :meth:`get`: a NumPy copy (into `ary`, a writable
        C-contiguous array of this shape and dtype, when given), after the
        work on `stream` (an accel Stream; 0: the current stream)."""
        return self.get(stream if isinstance(stream, Stream) else None, ary)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        a = self.get()
        return a if dtype is None else a.astype(dtype, copy=False)

    def item(self) -> float:
        """The value of a one-element array as a Python float."""
        if self._size != 1:
            raise error("ACCEL_ERROR_SHAPE_MISMATCH",
                        f"accel.Array.item: the array has {self._size} elements, not 1")
        return float(self.get().reshape(()))

    def __float__(self) -> float:
        return self.item()

    def __int__(self) -> int:
        return int(self.item())

    def __bool__(self) -> bool:
        return bool(self.item())

    def tolist(self) -> Any:
        return self.get().tolist()

    # ------------------------------------------------------------- views
    def reshape(self, *shape: Any) -> "Array":
        """A view with another shape of the same size (one -1 allowed)."""
        self._blk("Array.reshape")
        if len(shape) == 1 and not isinstance(shape[0], numbers.Integral):
            shape = tuple(shape[0])
        shape = tuple(int(s) for s in shape)
        if shape.count(-1) == 1:
            known = math.prod(s for s in shape if s != -1)
            if known == 0 or self._size % known:
                raise error("ACCEL_ERROR_SHAPE_MISMATCH",
                            f"accel.reshape: cannot reshape {self._shape} into {shape}")
            shape = tuple(self._size // known if s == -1 else s for s in shape)
        if math.prod(shape) != self._size or any(s < 0 for s in shape):
            raise error("ACCEL_ERROR_SHAPE_MISMATCH",
                        f"accel.reshape: cannot reshape {self._shape} ({self._size} elements) "
                        f"into {shape}")
        return _view(self, shape, self._offset)

    def ravel(self) -> "Array":
        """A 1-D view."""
        return self.reshape(self._size)

    def flatten(self) -> "Array":
        """A 1-D copy."""
        return self.copy().reshape(self._size)

    def copy(self) -> "Array":
        """A copy on the same device (accel_copy)."""
        return copy(self)

    def __copy__(self) -> "Array":
        """copy.copy(x): a copy of the data on the same device (as NumPy
        and CuPy), never a second owner of x's buffer."""
        return copy(self)

    def __deepcopy__(self, memo: Any) -> "Array":
        return copy(self)

    def __reduce__(self) -> Tuple[Any, ...]:
        """pickle: the data as a NumPy array (a copy to the host, so a view
        pickles only its own elements) and the device's name. Unpickling
        makes a new array on the device of that name when the unpickling
        process has one, else on its current device (a "cuda:0" array
        pickled on a GPU machine opens on the CPU elsewhere). Raises
        ReleasedError for a released array."""
        return (_unpickle, (self.get(), self.device.name))

    def astype(self, dtype: Any, copy: bool = True) -> "Array":
        """The array in another dtype. accel has no on-device conversion: the
        data goes through host memory (get, NumPy's astype, asarray)."""
        dt = _dtype_of(dtype, "astype")
        if dt == self._dtype:
            return self.copy() if copy else self
        return asarray(self.get().astype(dt), dtype=dt, device=self.device)

    @property
    def T(self) -> "Array":
        """The transpose: a copy for 2-D arrays (accel_transpose_2d), self
        for 0-d and 1-D ones."""
        return transpose(self)

    def transpose(self) -> "Array":
        return transpose(self)

    def __getitem__(self, key: Any) -> "Array":
        held = self._blk("Array.__getitem__")  # held until return: see Array.release
        if not isinstance(key, tuple):
            key = (key,)
        shape = self._shape
        # x[i], x[a:b]: views on the first axis.
        if len(key) == 1 and shape:
            k = key[0]
            row = math.prod(shape[1:])
            if isinstance(k, numbers.Integral):
                i = int(k)
                if i < 0:
                    i += shape[0]
                if not 0 <= i < shape[0]:
                    raise error("ACCEL_ERROR_OUT_OF_RANGE",
                                f"accel.Array: index {k} out of range for axis 0 of size "
                                f"{shape[0]}")
                return _view(self, shape[1:], self._offset + i * row)
            if isinstance(k, slice):
                start, stop, step = k.indices(shape[0])
                if step == 1:
                    n = _b.max(stop - start, 0)
                    return _view(self, (n,) + shape[1:], self._offset + start * row)
            if k is Ellipsis:
                return self
        # x[r0:r1, c0:c1] of a 2-D array: one strided copy on the device.
        if (len(key) == 2 and len(shape) == 2 and all(isinstance(k, slice) for k in key)):
            r0, r1, rs = key[0].indices(shape[0])
            c0, c1, cs = key[1].indices(shape[1])
            if rs == 1 and cs == 1:
                rows, cols = _b.max(r1 - r0, 0), _b.max(c1 - c0, 0)
                out = empty((rows, cols), self._dtype, device=self.device)
                if rows and cols:
                    isz = self._dtype.itemsize
                    s = _prepare(self.device, self, out)
                    check(L.queue_copy_2d(s._h(), self._block.handle,
                                          (self._offset + r0 * shape[1] + c0) * isz,
                                          shape[1] * isz, out._block.handle, 0, cols * isz,
                                          cols * isz, rows))
                return out
        # Anything else goes through host memory.
        return asarray(np.asarray(self.get()[key], order="C"), dtype=self._dtype,
                       device=self.device)

    def __setitem__(self, key: Any, value: Any) -> None:
        self._blk("Array.__setitem__")
        whole = key is Ellipsis or (isinstance(key, slice) and key == slice(None))
        if whole and isinstance(value, numbers.Real):
            fill(self, float(value))
            return
        if whole and isinstance(value, Array):
            _binary_shape_check("__setitem__", self, value)
            copy(value, out=self)
            return
        if isinstance(value, Array):
            value = value.get()
        host = self.get()
        host[key] = value
        self.set(host)

    # ------------------------------------------------------- operators
    # x + y, x - y, x * y, x / y, -x and abs(x) are accel.add, ... themselves
    # (set below the op functions): one Python call per op.
    def __radd__(self, o: Any) -> "Array":
        return add(o, self)

    def __rsub__(self, o: Any) -> "Array":
        return subtract(o, self)

    def __rmul__(self, o: Any) -> "Array":
        return multiply(o, self)

    def __rtruediv__(self, o: Any) -> "Array":
        return divide(o, self)

    # NumPy defers to these reflected methods instead of running its ufunc on
    # an accel array (np.ones(3) + x raises DeviceMismatchError, as x + np.ones(3)).
    __array_ufunc__ = None

    # accel has no bool dtype, so no elementwise comparison: refuse it rather
    # than fall back to Python's identity compare. Arrays stay hashable by id.
    __hash__ = object.__hash__

    def _compare(self, o: Any, op: str) -> Any:
        if isinstance(o, (Array, numbers.Number, np.ndarray, np.generic)):
            raise TypeError(f"accel.Array: the comparison x {op} y is not supported (accel has "
                            "no bool dtype; compare on the host, e.g. x.get() " + op + " y)")
        return NotImplemented

    def __eq__(self, o: Any) -> Any:  # type: ignore[override]
        return self._compare(o, "==")

    def __ne__(self, o: Any) -> Any:  # type: ignore[override]
        return self._compare(o, "!=")

    def __lt__(self, o: Any) -> Any:
        return self._compare(o, "<")

    def __le__(self, o: Any) -> Any:
        return self._compare(o, "<=")

    def __gt__(self, o: Any) -> Any:
        return self._compare(o, ">")

    def __ge__(self, o: Any) -> Any:
        return self._compare(o, ">=")

    def __iadd__(self, o: Any) -> "Array":
        return add(self, o, self)

    def __isub__(self, o: Any) -> "Array":
        return subtract(self, o, self)

    def __imul__(self, o: Any) -> "Array":
        return multiply(self, o, self)

    def __itruediv__(self, o: Any) -> "Array":
        return divide(self, o, self)

    def __pos__(self) -> "Array":
        return self

    def __matmul__(self, o: Any) -> "Array":
        return matmul(self, o)

    def __rmatmul__(self, o: Any) -> "Array":
        return matmul(o, self)

    # ------------------------------------------------------ reductions
    def sum(self, axis: Optional[int] = None, keepdims: bool = False) -> "Array":
        return sum(self, axis=axis, keepdims=keepdims)

    def max(self, axis: Optional[int] = None) -> "Array":
        return max(self, axis=axis)

    def min(self, axis: Optional[int] = None) -> "Array":
        return min(self, axis=axis)

    def mean(self, axis: Optional[int] = None) -> "Array":
        return mean(self, axis=axis)

    def dot(self, b: "Array") -> "Array":
        return dot(self, b)

    # ------------------------------------------------------- zero-copy
    @property
    def data_ptr(self) -> int:
        """The native address of the first element: a host address for
        host-accessible devices (the CPU), a device pointer on CUDA. Raises
        UnsupportedError where the backend exposes none."""
        return _native_ptr(self, "Array.data_ptr")

    @property
    def __array_interface__(self) -> dict:
        """NumPy's array interface (v3) for arrays on host-accessible devices
        (the CPU backend): ``np.asarray(x)`` then views the buffer without a
        copy. The array's stream is synchronized first. Absent (an
        AttributeError) on other devices."""
        if not self.device.host_accessible or L.buffer_host_pointer is None:
            raise AttributeError("__array_interface__: the array is not in host memory "
                                 f"({self.device.name}); use .get()")
        b = self._blk("Array.__array_interface__")
        b.stream.synchronize()
        base = L.buffer_host_pointer(b.handle)
        _exported(self, b)
        return {"shape": self._shape, "typestr": self._dtype.str,
                "data": ((base or 0) + self._offset * self._dtype.itemsize, False),
                "strides": None, "version": 3}

    @property
    def __cuda_array_interface__(self) -> dict:
        """The CUDA array interface, version 3, for arrays on CUDA devices:
        data pointer, shape, typestr, no strides (C order), and ``stream``,
        the native stream of the array's current stream, on which the consumer
        must order its work (CuPy and Numba do). Absent (an AttributeError)
        on other devices."""
        if self.device.backend != "cuda":
            raise AttributeError("__cuda_array_interface__: the array is not on a CUDA device "
                                 f"({self.device.name})")
        ptr = _native_ptr(self, "Array.__cuda_array_interface__")
        _exported(self, self._block)
        s = _stream_for(self.device)
        b = self._block
        if b.stream is not s:
            s._join_from(b.stream)
            b.stream = s
        sp = s.ptr
        return {"shape": self._shape, "typestr": self._dtype.str, "data": (ptr, False),
                "strides": None, "version": 3, "stream": sp if sp else 1}

    # __dlpack__ and __dlpack_device__ (the DLPack protocol) are installed on
    # Array by _dlpack.py, which depends on this module and not the reverse.

ndarray = Array


def _exported(a: Array, b: Any) -> None:
    """Note that another library may now see the memory of a's block `b`:
    release() then keeps the block while `a` lives, and the runtime's close
    waits for the block (_Runtime.close)."""
    _root(a)._exported = True
    b.rt.exports.add(b)


def _native_ptr(a: Array, fn: str) -> int:
    b = a._blk(fn)
    base = None
    if L.buffer_native_pointer is not None:
        p = ctypes.c_void_p()
        code = L.buffer_native_pointer(b.handle, ctypes.byref(p))
        if code == 0:
            base = p.value or 0
        elif code != 9:
            check(code)
    if base is None and L.buffer_host_pointer is not None and a.device.host_accessible:
        base = L.buffer_host_pointer(b.handle) or 0
    if base is None:
        raise error("ACCEL_ERROR_UNSUPPORTED",
                    f"accel.{fn}: the {a.device.backend} backend exposes no native pointer")
    return base + a._offset * a._dtype.itemsize


def _unpickle(data: np.ndarray, device_name: str) -> Array:
    """An array of `data` on the device named `device_name`, else on the
    current device (the other half of Array.__reduce__)."""
    rt = runtime()
    dev = next((d for d in rt.devices if d.name == device_name), None)
    return asarray(data, dtype=data.dtype, device=dev)


def _wrap(block: Any, shape: Tuple[int, ...], dt: np.dtype, device: Device) -> Array:
    a = Array.__new__(Array)
    a._block = block
    a._base = None
    a._shape = shape
    a._dtype = dt
    a._code = _CODES[dt]
    a._offset = 0
    n = 1
    for s in shape:
        n *= s
    a._size = n
    a._nb = (n * a._dtype.itemsize + 255) & -256
    a._slice = L.Slice(block.handle, 0, n)
    a.device = device
    return a


def _view(base: Array, shape: Tuple[int, ...], offset: int) -> Array:
    a = Array.__new__(Array)
    root = _root(base)
    a._base = root
    # Under release()'s lock, so that a view made while another thread
    # releases the owner is either reached by that release or not made.
    with _release_lock:
        b = base._block
        if b is None:
            raise _released("Array view")
        a._block = b
        vs = getattr(root, "_views", None)
        if vs is None:
            vs = root._views = weakref.WeakValueDictionary()
        vs[id(a)] = a
    a._shape = shape
    a._dtype = base._dtype
    a._code = base._code
    a._offset = offset
    n = math.prod(shape)
    a._size = n
    a._nb = (n * a._dtype.itemsize + 255) & -256
    a._slice = L.Slice(b.handle, offset, n)
    a.device = base.device
    return a


_new_array = object.__new__


def _prepare(dev: Device, *arrays: Array) -> Stream:
    """The stream for work on `arrays` (the current stream of dev), having
    ordered it after the earlier work on each array's buffer."""
    s = _stream_for(dev)
    for a in arrays:
        b = a._block
        if b is None:  # released by another thread since the caller's check
            raise _released("op")
        if b.stream is not s:
            s._join_from(b.stream)
            b.stream = s
    return s


def _alloc(shape: Tuple[int, ...], dt: np.dtype, dev: Device, s: Optional[Stream] = None,
           code: int = 0, n: int = -1) -> Array:
    # n: the element count of shape when the caller knows it.
    if n < 0:
        n = math.prod(shape)
    rt = dev._rt
    if not rt.alive:
        raise _released_stream("alloc", dev)
    b = rt.pool.malloc(dev, n * dt.itemsize, s if s is not None else _stream_for(dev))
    a = _new_array(Array)
    a._block = b
    a._base = None
    a._shape = shape
    a._dtype = dt
    a._code = code or _CODES[dt]
    a._offset = 0
    a._size = n
    a._nb = (n * a._dtype.itemsize + 255) & -256
    # A reused block usually serves arrays of one size: keep its slice.
    if b.slice_n == n:
        sl = b.slice
    else:
        sl = b.slice = L.Slice(b.handle, 0, n)
        b.slice_n = n
    a._slice = sl
    a.device = dev
    return a


# --------------------------------------------------------------- creation

def empty(shape: ShapeLike, dtype: Any = float64,
          device: Union[str, int, Device, None] = None) -> Array:
    """A new array of `shape` and `dtype` (float32, float64, float16; int32,
    int64, uint8 for user kernels) on
    `device` (default: the current device), contents undefined. Raises
    DtypeMismatchError for other dtypes, AccelError
    ACCEL_ERROR_OUT_OF_DEVICE_MEMORY when it does not fit."""
    return _alloc(_shape_of(shape, "accel.empty"), _dtype_of(dtype, "empty"), get_device(device))


def full(shape: ShapeLike, fill_value: float, dtype: Any = float64,
         device: Union[str, int, Device, None] = None) -> Array:
    """A new array with every element `fill_value` (accel_fill; float16 and
    the integer dtypes through host memory)."""
    dt = _dtype_of(dtype, "full")
    if dt in _STORAGE_ONLY:
        return asarray(np.full(_shape_of(shape, "accel.full"), fill_value, dt), dtype=dt,
                       device=device)
    a = empty(shape, dt, device)
    fill(a, fill_value)
    return a


def zeros(shape: ShapeLike, dtype: Any = float64,
          device: Union[str, int, Device, None] = None) -> Array:
    """A new array of zeros."""
    return full(shape, 0.0, dtype, device)


def ones(shape: ShapeLike, dtype: Any = float64,
         device: Union[str, int, Device, None] = None) -> Array:
    """A new array of ones."""
    return full(shape, 1.0, dtype, device)


def empty_like(a: Array, dtype: Any = None) -> Array:
    return empty(a.shape, dtype or a.dtype, a.device)


def zeros_like(a: Array, dtype: Any = None) -> Array:
    return zeros(a.shape, dtype or a.dtype, a.device)


def ones_like(a: Array, dtype: Any = None) -> Array:
    return ones(a.shape, dtype or a.dtype, a.device)


def full_like(a: Array, fill_value: float, dtype: Any = None) -> Array:
    return full(a.shape, fill_value, dtype or a.dtype, a.device)


def arange(start: float, stop: Optional[float] = None, step: float = 1, dtype: Any = None,
           device: Union[str, int, Device, None] = None) -> Array:
    """As numpy.arange (made on the host, then copied to the device)."""
    h = np.arange(start, stop, step) if stop is not None else np.arange(start)
    return asarray(h, dtype=dtype, device=device)


def linspace(start: float, stop: float, num: int = 50, dtype: Any = None,
             device: Union[str, int, Device, None] = None) -> Array:
    """As numpy.linspace (made on the host, then copied to the device)."""
    return asarray(np.linspace(start, stop, num), dtype=dtype, device=device)


def asarray(a: Any, dtype: Any = None, device: Union[str, int, Device, None] = None) -> Array:
    """An accel array with the data of `a` (a NumPy array, anything
    np.asarray takes, or an accel Array) on `device` (default: the current
    device). Host data is copied once (a blocking write on the current
    stream), so `a` may be changed afterwards. accel computes in float32
    and float64: float16 stays float16, other floats keep their dtype when
    accel has it, and integer or bool data becomes float64 (as
    ``np.asarray(a, dtype=float)``) unless `dtype` says otherwise
    (``dtype=np.int32``, ``np.int64`` or ``np.uint8`` keeps integers, for user
    kernels; the built-in ops compute in floats only). An accel
    Array already on `device` with that dtype is returned as is; on another
    device it is copied there (accel_queue_copy). Inside ``with
    accel.Stream():`` the write of host data is asynchronous on that stream
    (as CuPy's asarray on its current stream), staged through page-locked
    memory so that `a` may still be changed at once (see Array.set); on the
    default stream it is the blocking write above, which the backend spreads
    over its copy threads. Raises DtypeMismatchError for complex or other
    dtypes."""
    dev = get_device(device)
    if isinstance(a, Array):
        held = a._blk("asarray")  # held until return: see Array.release
        dt = a._dtype if dtype is None else _dtype_of(dtype, "asarray")
        if a.device == dev and dt == a._dtype:
            return a
        if dt != a._dtype:
            return asarray(a.get().astype(dt), dtype=dt, device=dev)
        out = _alloc(a._shape, dt, dev)
        # On a's stream, after the earlier users of both buffers (an event
        # orders the destination's device; accel_queue_copy crosses devices).
        s = _prepare(a.device, a, out)
        if out._size:
            isz = dt.itemsize
            check(L.queue_copy(s._h(), a._block.handle, a._offset * isz,
                               out._block.handle, 0, out._size * isz))
        return out
    if dtype is not None:
        dt = _dtype_of(dtype, "asarray")
        h = np.asarray(a, dtype=dt, order="C")  # keeps 0-d data 0-d
    else:
        h = np.asarray(a)
        if h.dtype.kind in "biu":
            h = h.astype(_DEFAULT)
        elif h.dtype not in _CODES:
            if h.dtype.kind == "f" and h.dtype.itemsize > 8:
                h = h.astype(_DEFAULT)
            else:
                raise error("ACCEL_ERROR_DTYPE_MISMATCH",
                            f"accel.asarray: dtype {h.dtype} is not one accel has (float32, "
                            "float64, float16; integers and bools become float64)")
        h = np.asarray(h, order="C")
    out = _alloc(h.shape, h.dtype, dev)
    if out._size:
        s = _prepare(dev, out)
        if s is not (dev._null or dev.null_stream):  # inside ``with stream:``
            _staging.write_async(s, out._block.handle, 0, h)
        else:
            check(L.queue_write_blocking(s._h(), out._block.handle, 0, h.ctypes.data, h.nbytes))
    return out


array = asarray


def asnumpy(a: Any, stream: Optional[Stream] = None) -> np.ndarray:
    """A NumPy array with the data of `a` (Array.get for accel arrays,
    np.asarray otherwise)."""
    if isinstance(a, Array):
        return a.get(stream)
    return np.asarray(a)


# -------------------------------------------------------------------- ops

def _binary_shape_check(fn: str, a: Array, b: Array) -> None:
    if a._shape != b._shape:
        raise error("ACCEL_ERROR_SHAPE_MISMATCH",
                    f"accel.{fn}: shapes {a._shape} and {b._shape} differ (accel broadcasts "
                    "only Python scalars)")
    if a._dtype != b._dtype:
        raise error("ACCEL_ERROR_DTYPE_MISMATCH",
                    f"accel.{fn}: dtypes {a._dtype} and {b._dtype} differ (accel does not "
                    "promote; use astype)")
    if a.device is not b.device:
        raise error("ACCEL_ERROR_DEVICE_MISMATCH",
                    f"accel.{fn}: operands on {a.device.name} and {b.device.name} (move one "
                    "with accel.asarray(x, device=...))")


def _operand(x: Any, like: Array, fn: str) -> Array:
    if isinstance(x, Array):
        return x
    if isinstance(x, numbers.Real):
        return full_like(like, float(x))
    if isinstance(x, np.ndarray):
        raise error("ACCEL_ERROR_DEVICE_MISMATCH",
                    f"accel.{fn}: a NumPy array mixed with an accel array (copy it with "
                    "accel.asarray first)")
    raise TypeError(f"accel.{fn}: unsupported operand {type(x).__name__}")


def _check_out(fn: str, out: Array, like: Array) -> None:
    if not isinstance(out, Array):
        raise TypeError(f"accel.{fn}: out must be an accel.Array")
    out._blk(fn)
    _binary_shape_check(fn, like, out)


def _op_failed(code: int, fn: str, a: Array) -> Exception:
    """The exception for status `code` of op `fn` on `a`: for an integer
    array the C library's "dtype N is not a known dtype" becomes a message
    naming the dtype and the op."""
    if code == L.STATUS["ACCEL_ERROR_DTYPE_MISMATCH"] and a._dtype.kind in "iu":
        c = L.last_error().decode(errors="replace").split(":", 1)[0] or "libaccel"
        return error("ACCEL_ERROR_DTYPE_MISMATCH",
                     f"accel.{fn}: {a._dtype} is not supported by accel.{fn} (the built-in ops "
                     "compute in float32 and float64; int32, int64 and uint8 arrays are for "
                     f"copies and user kernels, accel.ElementwiseKernel and the others; "
                     f"refused by {c})")
    return L.failed(code)


def _op_check(code: int, fn: str, a: Array) -> None:
    if code:
        raise _op_failed(code, fn, a)


def _released_stream(fn: str, dev: Any = None) -> ReleasedError:
    # `dev`: the device of the op, when the caller has it (ForkedError there).
    return _core.released_error(dev._rt if dev is not None else None,
                                f"accel.{fn}: the current stream was released, or the runtime "
                                "closed")


# The per-op C calls: through the _accel_fast extension where it loaded
# (Python ints in, no ctypes), else through ctypes (slices by value).
_c_binary = L.binary_raw
_c_unary = L.unary_raw
_f_binary = L.fast.binary if L.fast is not None else None
_f_unary = L.fast.unary if L.fast is not None else None


def _join(s: Stream, *blocks: Any) -> None:
    # Order s after the earlier work on each block's buffer (another stream's).
    for blk in blocks:
        if blk.stream is not s:
            s._join_from(blk.stream)
            blk.stream = s


def _operands(fn: str, a: Any, b: Any) -> Tuple[Array, Array]:
    # A binary op's operands when one is not an Array (a scalar is made into
    # a filled array like the other).
    if not isinstance(a, Array):
        if not isinstance(b, Array):
            raise TypeError(f"accel.{fn}: at least one operand must be an accel.Array")
        return _operand(a, b, fn), b
    if not isinstance(b, Array):
        return a, _operand(b, a, fn)
    return a, b


def _cur_stream(dev: Device) -> Stream:
    # The current stream of dev while a ``with Stream()`` is open somewhere.
    cur = _tls.streams
    s = cur.get(dev._handle) if cur else None
    return s if s is not None else (dev._null or dev.null_stream)


def _new_block(dev: Device, nbytes: int, s: Stream) -> Any:
    # The per-op path's pool miss: a cached block taken by another thread
    # meanwhile, or none of this size yet.
    return dev._rt.pool.malloc(dev, nbytes, s)


def _binary_op(op: int, fn: str) -> Callable[..., Array]:
    """The whole per-op path of binary op `op` as one function, so that ``z
    = x + y`` is one Python call and one C call (accel_binary, through
    _accel_fast where it is, else ctypes): every check
    compares cached fields, the output's block comes off the device's free
    list (MemoryPool) and its slice is the block's own, and the stream
    lookup is a flag test unless a ``with Stream()`` is open. Anything
    unusual (scalars, mismatches, a pool miss, another stream's buffers)
    leaves for a helper (python/bench/overhead.py measures this path)."""

    def f(x1: Union[Array, Scalar], x2: Union[Array, Scalar], out: Optional[Array] = None) \
            -> Array:
        a, b = x1, x2
        if a.__class__ is not Array or b.__class__ is not Array:
            a, b = _operands(fn, a, b)
        ba = a._block
        bb = b._block
        if ba is None or bb is None:
            raise _released(fn)
        shape = a._shape
        dt = a._dtype
        dev = a.device
        if b._shape != shape or b._dtype is not dt or b.device is not dev:
            _binary_shape_check(fn, a, b)
        s = _cur_stream(dev) if _current_set[0] else (dev._null or dev.null_stream)
        qh = s._handle
        if qh is None:
            raise _released_stream(fn, dev)
        if out is None:
            n = a._size
            nb = a._nb
            lst = dev._free.get(nb)
            if lst:
                try:
                    bo = lst.pop()
                except IndexError:
                    bo = _new_block(dev, nb, s)
            else:
                bo = _new_block(dev, nb, s)
            out = _new_array(Array)
            out._block = bo
            out._base = None
            out._shape = shape
            out._dtype = dt
            out._code = a._code
            out._offset = 0
            out._size = n
            out._nb = nb
            if bo.slice_n == n:
                sl = bo.slice
            else:
                sl = bo.slice = L.Slice(bo.handle, 0, n)
                bo.slice_n = n
            out._slice = sl
            out.device = dev
        else:
            if (out.__class__ is not Array or out._shape != shape or out._dtype is not dt
                    or out.device is not dev or out._block is None):
                _check_out(fn, out, a)
            bo = out._block
        if ba.stream is not s or bb.stream is not s or bo.stream is not s:
            _join(s, ba, bb, bo)
        if _f_binary is not None:
            # One count for the three: the shapes were checked equal above.
            try:
                code = _f_binary(qh, op, a._code, a._size, ba.handle, a._offset, bb.handle,
                                 b._offset, bo.handle, out._offset)
            except TypeError:
                # A handle became None: another thread released an operand.
                if ba.handle is None or bb.handle is None or bo.handle is None:
                    raise _released(fn) from None
                raise
        else:
            code = _c_binary(s._cq, op, a._code, a._slice, b._slice, out._slice)
        if code:
            raise _op_failed(code, fn, a)
        return out

    return f


def _unary_op(op: int, fn: str) -> Callable[..., Array]:
    """The per-op path of unary op `op` (as _binary_op; accel_unary)."""

    def f(x: Array, out: Optional[Array] = None) -> Array:
        if x.__class__ is not Array:
            raise TypeError(f"accel.{fn}: x must be an accel.Array (got {type(x).__name__})")
        bx = x._block
        if bx is None:
            raise _released(fn)
        dev = x.device
        s = _cur_stream(dev) if _current_set[0] else (dev._null or dev.null_stream)
        qh = s._handle
        if qh is None:
            raise _released_stream(fn, dev)
        if out is None:
            n = x._size
            dt = x._dtype
            nb = x._nb
            lst = dev._free.get(nb)
            if lst:
                try:
                    bo = lst.pop()
                except IndexError:
                    bo = _new_block(dev, nb, s)
            else:
                bo = _new_block(dev, nb, s)
            out = _new_array(Array)
            out._block = bo
            out._base = None
            out._shape = x._shape
            out._dtype = dt
            out._code = x._code
            out._offset = 0
            out._size = n
            out._nb = nb
            if bo.slice_n == n:
                sl = bo.slice
            else:
                sl = bo.slice = L.Slice(bo.handle, 0, n)
                bo.slice_n = n
            out._slice = sl
            out.device = dev
        else:
            if (out.__class__ is not Array or out._shape != x._shape
                    or out._dtype is not x._dtype or out.device is not dev
                    or out._block is None):
                _check_out(fn, out, x)
            bo = out._block
        if bx.stream is not s or bo.stream is not s:
            _join(s, bx, bo)
        if _f_unary is not None:
            try:
                code = _f_unary(qh, op, x._code, x._size, bx.handle, x._offset, bo.handle,
                                out._offset)
            except TypeError:
                if bx.handle is None or bo.handle is None:
                    raise _released(fn) from None
                raise
        else:
            code = _c_unary(s._cq, op, x._code, x._slice, out._slice)
        if code:
            raise _op_failed(code, fn, x)
        return out

    return f


_BIN_DOC = """{what}, elementwise (accel_{c}).

x1, x2: accel arrays of one shape, dtype (float32 or float64) and device,
or one of them a Python scalar (made into a filled array first). out: an
array of that shape and dtype to write into (may be x1 or x2: in place).
Returns the result array (out when given); enqueued on the current stream.
{acc}
Raises ShapeMismatchError (ACCEL_ERROR_SHAPE_MISMATCH: shapes differ; no
broadcasting except scalars), DtypeMismatchError (ACCEL_ERROR_DTYPE_MISMATCH:
dtypes differ, or float16), DeviceMismatchError, ReleasedError (a released
array). Each is an accel.AccelError with .status and .message."""

_UN_DOC = """{what}, elementwise (accel_{c}).

x: an accel array, float32 or float64. out: an array of the same shape and
dtype to write into (may be x). Returns the result; enqueued on the current
stream. {acc}
Raises DtypeMismatchError (float16), ShapeMismatchError (out's shape),
ReleasedError (a released array); each an accel.AccelError with .status."""

_EXACT = "Correctly rounded: the same result as NumPy, bit for bit."
_ULP = ("Within the backend's documented bound (CPU: glibc, exp/log <= 2 ulp, tanh <= 3 "
        "ulp; CUDA: the CUDA Math API's bounds); backends agree within 4 ulp.")


def _mk_binary(op: int, name: str, c: str, what: str, acc: str = _EXACT):
    f = _binary_op(op, name)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = _BIN_DOC.format(what=what, c=c, acc=acc)
    return f


def _mk_unary(op: int, name: str, c: str, what: str, acc: str = _EXACT):
    f = _unary_op(op, name)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = _UN_DOC.format(what=what, c=c, acc=acc)
    return f


# What each elementwise op computes and how accurately, for its docstring;
# an op of the table without a line here gets its C expression and the
# table's tolerance instead.
_MAXMIN = ("Exact (IEEE 754-2019 maximum/minimum); as NumPy except for a -0/+0 pair, where "
           "NumPy's result depends on the operand order and accel's does not.")
_WHAT = {
    "add": ("x1 + x2", _EXACT), "sub": ("x1 - x2", _EXACT), "mul": ("x1 * x2", _EXACT),
    "div": ("x1 / x2 (IEEE: x/0 is +-Inf, 0/0 NaN)", _EXACT),
    "max": ("maximum(x1, x2): NaN if either is NaN (as numpy.maximum), -0 < +0", _MAXMIN),
    "min": ("minimum(x1, x2): NaN if either is NaN (as numpy.minimum), -0 < +0", _MAXMIN),
    "neg": ("-x", _EXACT), "abs": ("|x|", _EXACT), "sqrt": ("sqrt(x) (NaN for x < 0)", _EXACT),
    "exp": ("e**x", _ULP), "log": ("ln(x) (-Inf at 0, NaN for x < 0)", _ULP),
    "tanh": ("tanh(x)", _ULP), "relu": ("max(x, 0) (NaN stays NaN)", _EXACT),
    "sin": ("sin(x)", _ULP), "cos": ("cos(x)", _ULP),
    "sigmoid": ("the logistic function 1 / (1 + e**-x) (scipy.special.expit)", _ULP),
}
# Python names beside the table's NumPy names (NumPy's own aliases).
_ALIASES = {"abs": ("absolute",), "div": ("true_divide",), "sigmoid": ("expit",)}


def _elementwise_from_table() -> dict:
    """Every binary and unary op of the table as a function, under each of
    its NumPy names (and _ALIASES)."""
    made = {}
    for c, (code, kind, numpy_names, expr) in _OPS.items():
        if kind not in (L.OP_KIND_BINARY, L.OP_KIND_UNARY) or not numpy_names:
            continue
        what, acc = _WHAT.get(c, (expr, "Within the op table's tolerance (accel_op_info)."))
        mk = _mk_binary if kind == L.OP_KIND_BINARY else _mk_unary
        f = mk(code, numpy_names[0], c, what, acc)
        for n in numpy_names + _ALIASES.get(c, ()):
            made[n] = f
    return made


ELEMENTWISE = _elementwise_from_table()
globals().update(ELEMENTWISE)
# The ones this module's operators use, by name.
add, subtract, multiply, divide = (ELEMENTWISE[n] for n in ("add", "subtract", "multiply", "divide"))
negative, absolute = ELEMENTWISE["negative"], ELEMENTWISE["absolute"]

Array.__add__ = add  # type: ignore[assignment]
Array.__sub__ = subtract  # type: ignore[assignment]
Array.__mul__ = multiply  # type: ignore[assignment]
Array.__truediv__ = divide  # type: ignore[assignment]
Array.__neg__ = negative  # type: ignore[assignment]
Array.__abs__ = absolute  # type: ignore[assignment]


_square = _binary_op(_MUL, "square")


def square(x: Array, out: Optional[Array] = None) -> Array:
    """x * x, elementwise (accel_mul; correctly rounded)."""
    return _square(x, x, out)


def fill(a: Array, value: float) -> Array:
    """Set every element of `a` to `value` (converted to a's dtype;
    accel_fill). Returns a."""
    held = a._blk("fill")  # held until return: see Array.release
    s = _prepare(a.device, a)
    _op_check(L.fill(s._handle, a._code, float(value), a._slice), "fill", a)
    return a


def copy(a: Array, out: Optional[Array] = None) -> Array:
    """A copy of `a` on its device (accel_copy; float16 too)."""
    if not isinstance(a, Array):
        return asarray(a)
    held = a._blk("copy")  # held until return: see Array.release
    if out is None:
        out = _alloc(a._shape, a._dtype, a.device)
    else:
        _check_out("copy", out, a)
    s = _prepare(a.device, a, out)
    check(L.copy(s._handle, a._code, a._slice, out._slice))
    return out


def axpby(alpha: float, x: Array, beta: float, y: Array) -> Array:
    """y = alpha*x + beta*y in place (accel_axpby; each product and the sum
    rounded once, or fused). Returns y."""
    _binary_shape_check("axpby", x, y)
    held = x._blk("axpby"), y._blk("axpby")  # held until return: see Array.release
    s = _prepare(x.device, x, y)
    _op_check(L.axpby(s._handle, x._code, float(alpha), x._slice, float(beta), y._slice),
              "axpby", x)
    return y


def _reduce(op: int, fn: str, a: Array) -> Array:
    if not isinstance(a, Array):
        raise TypeError(f"accel.{fn}: a must be an accel.Array")
    held = a._blk(fn)  # held until return: see Array.release
    out = _alloc((), a._dtype, a.device)
    s = _prepare(a.device, a, out)
    code = L.reduce(s._handle, op, a._code, a._slice, out._slice)
    if code:
        raise _op_failed(code, fn, a)
    return out


def sum(a: Array, axis: Optional[int] = None, dtype: Any = None, out: Any = None,
        keepdims: bool = False) -> Array:
    """The sum of the elements of `a` (float32/float64) as a 0-d array
    (accel_sum), or over `axis` of a 2-D array (the first or last axis of
    any array, through a product with a vector of ones: GEMM's bound).
    Accumulated in a fixed order: |error| <= 2*n*eps*sum|x| against another
    backend (Higham 2002, 4.2), the same result every run. The sum of 0
    elements is 0. Raises DtypeMismatchError, ReleasedError,
    UnsupportedError (another axis)."""
    if axis is None:
        r = _reduce(_SUM, "sum", a)
        return r.reshape((1,) * a.ndim) if keepdims else r
    nd = a.ndim
    ax = axis + nd if axis < 0 else axis
    if nd == 0 or not 0 <= ax < nd:
        raise error("ACCEL_ERROR_INVALID_ARGUMENT", f"accel.sum: axis {axis} for a {nd}-d array")
    if ax == nd - 1:
        m = a.reshape(-1, a.shape[-1]) if a.size else a.reshape(math.prod(a.shape[:-1]), a.shape[-1])
        r = matmul(m, ones(a.shape[-1], a.dtype, a.device)).reshape(a.shape[:-1])
    elif ax == 0:
        m = a.reshape(a.shape[0], math.prod(a.shape[1:]))
        r = matmul(ones(a.shape[0], a.dtype, a.device), m).reshape(a.shape[1:])
    else:
        raise error("ACCEL_ERROR_UNSUPPORTED",
                    f"accel.sum: axis {axis} of a {nd}-d array (accel sums all elements, the "
                    "first axis or the last axis)")
    if keepdims:
        shp = list(a.shape)
        shp[ax] = 1
        r = r.reshape(tuple(shp))
    return r


def _no_axis(fn: str, axis: Optional[int]) -> None:
    if axis is not None:
        raise error("ACCEL_ERROR_UNSUPPORTED",
                    f"accel.{fn}: axis={axis} is not supported (accel reduces all elements)")


def max(a: Array, axis: Optional[int] = None) -> Array:
    """The largest element of `a` as a 0-d array (accel_reduce_max, exact):
    NaN if any element is NaN, -0 < +0. Raises InvalidArgumentError for an
    empty array (no identity, as NumPy), UnsupportedError for an axis."""
    _no_axis("max", axis)
    return _reduce(_RMAX, "max", a)


def min(a: Array, axis: Optional[int] = None) -> Array:
    """The smallest element of `a` as a 0-d array (accel_reduce_min, exact):
    NaN if any element is NaN, -0 < +0. Raises InvalidArgumentError for an
    empty array, UnsupportedError for an axis."""
    _no_axis("min", axis)
    return _reduce(_RMIN, "min", a)


amax = max
amin = min


def mean(a: Array, axis: Optional[int] = None) -> Array:
    """sum(a, axis) / n, n the elements summed (accel_sum then accel_scale)."""
    r = sum(a, axis=axis)
    n = a.size if axis is None else a.shape[axis]
    out = _alloc(r.shape, r.dtype, r.device)
    s = _prepare(r.device, r, out)
    _op_check(L.scale(s._handle, r._code, 1.0 / n if n else math.nan, r._slice, out._slice),
              "mean", r)
    return out


def dot(a: Array, b: Array, out: Any = None) -> Array:
    """The dot product of two 1-D arrays of one length as a 0-d array
    (accel_dot: |error| <= 2*n*eps*sum|a_i b_i| against another backend),
    or :func:`matmul` for 2-D operands (as numpy.dot). Raises
    ShapeMismatchError, DtypeMismatchError, DeviceMismatchError,
    ReleasedError."""
    if isinstance(a, Array) and isinstance(b, Array) and a.ndim == 1 and b.ndim == 1:
        _binary_shape_check("dot", a, b)
        held = a._blk("dot"), b._blk("dot")  # held until return: see Array.release
        r = _alloc((), a._dtype, a.device)
        s = _prepare(a.device, a, b, r)
        _op_check(L.dot(s._handle, a._code, a._slice, b._slice, r._slice), "dot", a)
        return r
    return matmul(a, b)


vdot = dot
inner = dot


def matmul(a: Array, b: Array, out: Optional[Array] = None) -> Array:
    """The matrix product a @ b (accel_gemm, cuBLAS on CUDA, OpenBLAS on the
    CPU): (m, k) @ (k, n) -> (m, n); a 1-D operand is a row (left) or column
    (right) vector as in NumPy; 1-D @ 1-D is :func:`dot`; (..., m, k) @
    (..., k, n) with equal leading dimensions is a batched product (no
    broadcasting). float32, float64, float16 where the backend has it.
    |error_ij| <= 2*(k+2)*eps*(|A||B|)_ij against another backend (Higham
    2002, 3.5). Raises ShapeMismatchError (inner dimensions, batch shapes),
    DtypeMismatchError, DeviceMismatchError, ReleasedError."""
    if not isinstance(a, Array) or not isinstance(b, Array):
        raise TypeError("accel.matmul: both operands must be accel arrays")
    held = a._blk("matmul"), b._blk("matmul")  # held until return: see Array.release
    if a.ndim == 0 or b.ndim == 0:
        raise error("ACCEL_ERROR_SHAPE_MISMATCH", "accel.matmul: 0-d operands (use *)")
    if a.ndim == 1 and b.ndim == 1:
        return dot(a, b)
    if a._dtype != b._dtype:
        raise error("ACCEL_ERROR_DTYPE_MISMATCH",
                    f"accel.matmul: dtypes {a._dtype} and {b._dtype} differ")
    if a.device != b.device:
        raise error("ACCEL_ERROR_DEVICE_MISMATCH",
                    f"accel.matmul: operands on {a.device.name} and {b.device.name}")
    ash = (1,) + a._shape if a.ndim == 1 else a._shape
    bsh = b._shape + (1,) if b.ndim == 1 else b._shape
    m, k = ash[-2], ash[-1]
    k2, n = bsh[-2], bsh[-1]
    batch_a, batch_b = ash[:-2], bsh[:-2]
    if k != k2 or (batch_a and batch_b and batch_a != batch_b):
        raise error("ACCEL_ERROR_SHAPE_MISMATCH",
                    f"accel.matmul: shapes {a._shape} and {b._shape} do not agree (inner "
                    f"dimensions {k} and {k2})")
    batch = batch_a or batch_b
    shape = batch + (m, n)
    if a.ndim == 1:
        shape = shape[:-2] + (n,)
    if b.ndim == 1:
        shape = shape[:-1]
    if out is None:
        out = _alloc(shape, a._dtype, a.device)
    else:
        held_out = out._blk("matmul")  # held until return: see Array.release
        if out._shape != shape or out._dtype != a._dtype:
            raise error("ACCEL_ERROR_SHAPE_MISMATCH",
                        f"accel.matmul: out is {out._shape} {out._dtype}, want {shape} "
                        f"{a._dtype}")
    nb = math.prod(batch) if batch else 1
    if batch_a != batch_b and nb > 1:
        raise error("ACCEL_ERROR_UNSUPPORTED",
                    "accel.matmul: a batch on one side only (no broadcasting); give both "
                    "operands the batch dimensions")
    s = _prepare(a.device, a, b, out)
    d = L.GemmDesc()
    L.gemm_desc_init(ctypes.byref(d))
    d.dtype = a._code
    d.m, d.n, d.k = m, n, k
    d.alpha, d.beta = 1.0, 0.0
    d.a, d.a_offset, d.lda = a._block.handle, a._offset, k
    d.b, d.b_offset, d.ldb = b._block.handle, b._offset, n
    d.c, d.c_offset, d.ldc = out._block.handle, out._offset, n
    d.batch_count = nb
    d.stride_a, d.stride_b, d.stride_c = m * k, k * n, m * n
    _op_check(L.gemm(s._handle, ctypes.byref(d)), "matmul", a)
    return out


def transpose(a: Array) -> Array:
    """The transpose of a 2-D array as a new C-order array
    (accel_transpose_2d, exact); 0-d and 1-D arrays are returned as they are.
    Raises UnsupportedError for more dimensions."""
    held = a._blk("transpose")  # held until return: see Array.release
    if a.ndim < 2:
        return a
    if a.ndim != 2:
        raise error("ACCEL_ERROR_UNSUPPORTED",
                    f"accel.transpose: {a.ndim}-d arrays (accel transposes 2-D ones)")
    r, c = a._shape
    out = _alloc((c, r), a._dtype, a.device)
    if a._size:
        s = _prepare(a.device, a, out)
        _op_check(L.transpose_2d(s._handle, a._code, r, c, a._block.handle, a._offset, c,
                             out._block.handle, 0, r), "transpose", a)
    return out
