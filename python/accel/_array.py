# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""accel.Array (also accel.ndarray): the one array type of ``accel``, its
memory, views and transfers.

An Array is a strided view (shape, element strides, element offset; C order
when ``_st`` is None) of one accel buffer on one device, of any dtype of the
namespace (bool, int8..int64, uint8..uint64, float16/32/64, complex64/128).
The array that made the buffer owns it: the buffer goes back to the memory
pool when the last array (and view) using it is gone, and is freed at once by
``release()`` (a view's ``release()`` drops only that view). Work enqueues on
the current stream of the arrays' device and returns at once; ``get()``,
``float()``, printing and ``Stream.synchronize()`` wait.

The functions and operators on arrays live in _namespace.py (the Array API
standard's, over the C array layer) and _ufunc.py (the per-op fast path);
this module names no function of either.
"""
from __future__ import annotations

import builtins as _b
import ctypes
import math
import operator
import threading
import weakref
from typing import Any, Dict, Iterator, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core
from . import _lib as L
from . import _aa_lib as C
from . import _staging
from ._core import Device, Stream, _join, _stream_for, get_device, runtime
from ._lib import ReleasedError, check, error

float16 = np.float16
float32 = np.float32
float64 = np.float64
int32 = np.int32
int64 = np.int64
uint8 = np.uint8

# accel_dtype codes (accel/types.h's ACCEL_DTYPE_LIST) of the dtypes arrays
# take: the C array layer's (_aa_lib.CODES) and float16.
_CODES = dict(C.CODES)
# accel_array descriptors of each (shape, dtype code, strides) made so far,
# without buffer or offset: Array._cv copies one (cleared at 4096 layouts).
_CV_LAYOUTS: Dict[Any, Any] = {}
_CODES[np.dtype(np.float16)] = L.F16

ShapeLike = Union[int, Sequence[int]]
Scalar = Union[int, float]


def _dtype_of(dtype: Any, fn: str) -> np.dtype:
    try:
        dt = np.dtype(dtype)
    except TypeError:
        dt = None
    if dt not in _CODES:
        raise error("ACCEL_ERROR_DTYPE_MISMATCH",
                    f"accel.{fn}: dtype {dtype!r} is not one accel has (bool, int8..int64, "
                    "uint8..uint64, float16, float32, float64, complex64, complex128)")
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
    if any(s > C.I64_MAX for s in t):  # ctypes would wrap it silently
        raise error("ACCEL_ERROR_OUT_OF_RANGE", f"{fn}: a dimension in {arg} {t} exceeds int64")
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
    # _st: the element strides of a view that is not C-contiguous (None for
    # one that is: the per-op fast path and the kernels take only those).
    # _ro: True for a read-only view (broadcast_to's, and every view of one,
    # as NumPy's): writes raise through _writable. Every constructor sets it
    # (False): reading an unset slot raises AttributeError inside getattr,
    # 0.2 us of a 1.3 us add(out=) on the CPU device.
    # _karg: the array as a kernel argument, made at its first launch
    # (_kernel.py _array_arg); _cvc: its accel_array descriptor, made at its
    # first array-layer call (_cv; None until then: every constructor sets
    # it, as _ro, accel_fast.c's result_array included).
    __slots__ = ("_block", "_base", "_views", "_exported", "_kept", "_shape", "_dtype", "_code",
                 "_offset", "_size", "_nb", "_slice", "_st", "_ro", "_karg", "_cvc", "device",
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
        """Strides in bytes (NumPy's convention)."""
        if self._st is not None:
            return tuple(x * self._dtype.itemsize for x in self._st)
        st, acc = [], self._dtype.itemsize
        for s in reversed(self._shape):
            st.append(acc)
            acc *= _b.max(s, 1)
        return tuple(reversed(st))

    def _cv(self, pairs: bool = False) -> C.View:
        """The C array layer's descriptor of this array (accel_array: byte
        offset, element strides), made once (its buffer, shape and strides
        never change; _blk refuses a released array first) and only read by
        the C calls, which take it as const; with `pairs`, a new one of a
        complex array as its (real, imag) floats, shape + (2,), which the
        copies take. Making it (an accel_array_init call and a ctypes array)
        had been 1.5 us of a 1024-element accel.sum's 9 us; a new array's
        is a copy of its layout's (_CV_LAYOUTS), where accel_array_init and
        the field stores took 2.3 us."""
        b = self._blk("Array")
        if not pairs and self._cvc is not None:
            return self._cvc
        key = (self._shape, self._code, self._st)
        t = _CV_LAYOUTS.get(key)
        if t is None:
            t = C.View()
            nd = len(self._shape)
            dims = (ctypes.c_int64 * _b.max(nd, 1))(*self._shape)
            check(C.array_init(t, b.handle, self._code, nd, dims))
            if self._st is not None:
                for i, x in enumerate(self._st):
                    t.strides[i] = x
            if len(_CV_LAYOUTS) >= 4096:
                _CV_LAYOUTS.clear()
            _CV_LAYOUTS[key] = t
        v = C.View.from_buffer_copy(t)
        v.buffer = b.handle
        v.offset = self._offset * self._dtype.itemsize
        nd = len(self._shape)
        if pairs and self._dtype.kind == "c":
            v.dtype = L.F32 if self._dtype.itemsize == 8 else L.F64
            for i in range(nd):
                v.strides[i] *= 2
            v.shape[nd], v.strides[nd], v.ndim = 2, 1, nd + 1
        else:
            self._cvc = v
        return v

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
            r = self._base
            if r is not None:  # a view: only this view goes
                self._block = None
                vs = getattr(r, "_views", None)
                if vs is not None:
                    vs.pop(id(self), None)
                return
            # The views first: a thread that reads this array as released
            # then reads every view of it as released too.
            vs = getattr(self, "_views", None)
            for v in list(vs.values()) if vs is not None else ():
                v._block = None
            self._block = None
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

    def __iter__(self) -> Iterator["Array"]:
        """x[0], x[1], ... along the first axis (NumPy's); TypeError for a
        0-d array (Python's fallback through __getitem__ gave nothing)."""
        if not self._shape:
            raise TypeError("iteration over a 0-d accel array")
        return (self[i] for i in range(self._shape[0]))

    def __repr__(self) -> str:
        if self.released:
            return f"<accel.Array released, shape={self._shape}, dtype={self._dtype}>"
        # NumPy's repr (the dtype named where NumPy names it: not for
        # float64, int64 or bool, nor an empty float64), with the device.
        r = np.array_repr(self.get())
        return f"{r[:-1]}, device='{self.device.name}')"

    def __str__(self) -> str:
        if self.released:
            return repr(self)
        return str(self.get())

    # --------------------------------------------------------- transfers
    def get(self, stream: Optional[Stream] = None, out: Optional[np.ndarray] = None,
            blocking: bool = True) -> np.ndarray:
        """Copy to a new NumPy array (or into `out`, C-contiguous, same shape
        and dtype) and return it, after the work on `stream` (default: the
        current stream) before it. With ``blocking=False`` (CuPy's keyword)
        the copy is only enqueued on the stream: `out` holds the data once
        the stream has passed it (stream.synchronize()); into page-locked
        `out` (accel.empty_pinned) it is a DMA that overlaps other streams'
        work. Raises ReleasedError for a released array and the AccelError
        of queued work that failed (with blocking=False: at the stream's
        next synchronizing call)."""
        _check_get_args(self, stream, out, blocking)
        if self._st is not None:
            return contiguous(self).get(stream, out, blocking)
        b = self._blk("Array.get")
        s = stream if stream is not None else _stream_for(self.device)
        if b.stream is not s:
            s._join_from(b.stream)
            b.stream = s
        if out is None:
            out = np.empty(self._shape, self._dtype)
        if self._size:
            isz = self._dtype.itemsize
            h = b.handle
            if h is None:  # released by another thread since _blk
                raise _released("Array.get")
            if blocking:
                check(L.queue_read_blocking(s._h(), h, self._offset * isz,
                                            out.ctypes.data, self._size * isz))
            else:
                check(L.queue_read(s._h(), h, self._offset * isz, out.ctypes.data,
                                   self._size * isz))
                _staging.keep_until_passed(s, b, out)
        return out

    def set(self, arr: Any, stream: Optional[Stream] = None) -> None:
        """Copy host data (anything np.asarray takes, of this shape) into the
        array. Without `stream`: on the current stream, waiting until it is
        written. With `stream` (as CuPy's ``set(arr, stream=s)``):
        asynchronous on that stream, staged through page-locked memory
        (accel/_staging.py): returns once the data are in the staging block,
        so `arr` may be changed at once, and the device write overlaps other
        streams' work; page-locked `arr` (accel.empty_pinned) is read in
        place by the stream's DMA, so leave it unchanged until the stream
        has passed the write. Raises ShapeMismatchError, DtypeMismatchError (a
        TypeError) for data of another kind (floats into an integer array:
        NumPy's same_kind rule); a failed asynchronous write is raised by the
        stream's next synchronizing call."""
        _writable(self, "Array.set")
        b = self._blk("Array.set")
        src = np.asarray(arr)
        if not np.can_cast(src.dtype, self._dtype, "same_kind"):
            # float data into an int array truncated silently (CuPy raises
            # for any other dtype; a conversion within a kind stays allowed)
            raise error("ACCEL_ERROR_DTYPE_MISMATCH",
                        f"accel.Array.set: {src.dtype} data into a {self._dtype} array would "
                        "change its kind (convert it first: astype)")
        if self._st is not None:  # a strided view: written through a contiguous copy
            t = asarray(np.broadcast_to(np.asarray(src, dtype=self._dtype), self._shape),
                        dtype=self._dtype, device=self.device)
            copy(t, out=self)
            return
        a = np.asarray(src, dtype=self._dtype, order="C")
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

    def item(self) -> Any:
        """The value of a one-element array as a Python scalar of its kind
        (bool, int, float or complex, as NumPy's item). Raises
        ShapeMismatchError (a ValueError) for another size."""
        if self._size != 1:
            raise error("ACCEL_ERROR_SHAPE_MISMATCH",
                        f"accel.Array.item: the array has {self._size} elements, not 1")
        return self.get().reshape(()).item()

    def _scalar(self, fn: str) -> Any:
        if self._size != 1:
            raise TypeError(f"accel: {fn}() of an array of shape {self._shape}: only "
                            "one-element arrays convert to Python scalars")
        return self.item()

    def __float__(self) -> float:
        return float(self._scalar("float"))

    def __int__(self) -> int:
        v = self._scalar("int")
        if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
            raise (ValueError if math.isnan(v) else OverflowError)(f"accel: int() of {v}")
        return int(v)

    def __complex__(self) -> complex:
        return complex(self._scalar("complex"))

    def __bool__(self) -> bool:
        if self._size != 1:  # NumPy's ValueError (`except ValueError` code catches it)
            raise ValueError(f"accel: the truth value of an array of shape {self._shape} is "
                             "ambiguous: use any() or all()")
        return bool(self._scalar("bool"))

    def __index__(self) -> int:
        if self._dtype.kind not in "iu" or self._shape:
            raise TypeError(f"accel: __index__ needs a 0-d integer array, not "
                            f"{len(self._shape)}-d {self._dtype}")
        return int(self._scalar("index"))

    def tolist(self) -> Any:
        return self.get().tolist()

    # ------------------------------------------------------------- views
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

    # NumPy defers to the reflected operators instead of running its ufunc
    # on an accel array (np.ones(3) + x raises, as x + np.ones(3)).
    __array_ufunc__ = None
    # The comparisons (set by _namespace.py) give arrays; arrays stay
    # hashable by identity.
    __hash__ = object.__hash__

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
                "data": ((base or 0) + self._offset * self._dtype.itemsize,
                         _b.bool(self._ro) or 0 in (self._st or ())),
                "strides": None if self._st is None else self.strides, "version": 3}

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
                "strides": None if self._st is None else self.strides, "version": 3,
                "stream": sp if sp else 1}

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
    a._ro = False
    a._cvc = None
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
    a._st = None
    a.device = device
    return a


def _check_get_args(a: "Array", stream: Any, out: Any, blocking: Any) -> None:
    """Array.get's arguments, each refused with what is wrong: TypeError (a
    stream that is not a Stream, out not a NumPy array, blocking not a
    bool), DtypeMismatchError (out's dtype), ShapeMismatchError (out's
    shape), ValueError (out not C-contiguous or read-only)."""
    if stream is not None and not isinstance(stream, Stream):
        raise TypeError(f"accel.Array.get: stream is an accel Stream, not "
                        f"{type(stream).__name__}")
    if not isinstance(blocking, (bool, np.bool_)):
        raise TypeError(f"accel.Array.get: blocking is a bool, not {type(blocking).__name__}")
    if out is None:
        return
    if not isinstance(out, np.ndarray):
        raise TypeError(f"accel.Array.get: out is a NumPy array, not {type(out).__name__}")
    if out.dtype != a._dtype:
        raise error("ACCEL_ERROR_DTYPE_MISMATCH",
                    f"accel.Array.get: out is {out.dtype}, want {a._dtype}")
    if out.shape != a._shape:
        raise error("ACCEL_ERROR_SHAPE_MISMATCH",
                    f"accel.Array.get: out has shape {out.shape}, want {a._shape}")
    if not out.flags.c_contiguous:
        raise ValueError("accel.Array.get: out is not C-contiguous")
    if not out.flags.writeable:
        raise ValueError("accel.Array.get: out is read-only")


def _c_strides(shape: Tuple[int, ...]) -> Tuple[int, ...]:
    st, acc = [], 1
    for s in reversed(shape):
        st.append(acc)
        acc *= s
    return tuple(reversed(st))


def _view(base: Array, shape: Tuple[int, ...], offset: int, strides: Any = None,
          dtype: Optional[np.dtype] = None) -> Array:
    """A view of base's buffer: `shape`, element `offset`, element `strides`
    (None: C order), `dtype` (default base's; complex parts as floats).
    The owner keeps it in its views, so its release() reaches it."""
    a = Array.__new__(Array)
    a._ro = False
    a._cvc = None
    a._block = None  # until taken below: __del__ reads it when that raises
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
    dt = base._dtype if dtype is None else dtype
    a._dtype = dt
    a._code = _CODES[dt]
    a._offset = offset
    n = math.prod(shape)
    a._size = n
    a._nb = (n * dt.itemsize + 255) & -256
    a._slice = L.Slice(b.handle, offset, n)
    if strides is not None:
        strides = tuple(strides)
        cs = _c_strides(shape)
        if strides == cs or n <= 1 or _b.all(st == c or d == 1 for st, c, d in
                                             zip(strides, cs, shape)):
            strides = None
    a._st = strides
    if base._ro:
        a._ro = True  # a view of a read-only view is read-only (NumPy's rule)
    a.device = base.device
    return a


def _writable(a: Any, fn: str) -> None:
    """Raise InvalidArgumentError (a ValueError, as NumPy's "assignment
    destination is read-only") when a is a read-only view."""
    if getattr(a, "_ro", False):
        raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                    f"accel.{fn}: the destination is a read-only view (of broadcast_to: its "
                    "elements repeat); write into a copy (x.copy())")


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
    a._ro = False
    a._cvc = None
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
    a._st = None
    a.device = dev
    return a


def contiguous(a: Array) -> Array:
    """a itself when it is C-contiguous, else a C-contiguous copy on its
    device (accel_array_copy)."""
    if a._st is None:
        return a
    out = _alloc(a._shape, a._dtype, a.device)
    if a._size:
        s = _prepare(a.device, a, out)
        check(C.copy(s._h(), a._cv(True), out._cv(True)))
    return out


# --------------------------------------------------------------- creation

def empty(shape: ShapeLike, dtype: Any = float64,
          device: Union[str, int, Device, None] = None) -> Array:
    """A new C-contiguous array of `shape` and `dtype` on `device` (default:
    the current device), contents undefined. Raises DtypeMismatchError for a
    dtype accel lacks, AccelError ACCEL_ERROR_OUT_OF_DEVICE_MEMORY when it
    does not fit."""
    return _alloc(_shape_of(shape, "accel.empty"), _dtype_of(dtype, "empty"), get_device(device))


def full(shape: ShapeLike, fill_value: Any, dtype: Any = float64,
         device: Union[str, int, Device, None] = None) -> Array:
    """A new array with every element `fill_value` (see :func:`fill`)."""
    return fill(empty(shape, dtype, device), fill_value)


def _upload(h: np.ndarray, dev: Device) -> Array:
    """A new array on dev with the data of the C-contiguous host array h."""
    out = _alloc(h.shape, h.dtype, dev)
    if out._size:
        s = _prepare(dev, out)
        if s is not (dev._null or dev.null_stream):  # inside ``with stream:``
            _staging.write_async(s, out._block.handle, 0, h)
        else:
            check(L.queue_write_blocking(s._h(), out._block.handle, 0, h.ctypes.data, h.nbytes))
    return out


def _moved(a: Array, dt: np.dtype, dev: Device) -> Array:
    """a in dtype dt (accel_array_astype on its device), then copied to dev
    (accel_queue_copy, on a's stream after the earlier users of both)."""
    if dt != a._dtype:
        out = _alloc(a._shape, dt, a.device)
        s = _prepare(a.device, a, out)
        check(C.astype(s._h(), a._cv(), out._cv()))
        a = out
    if a.device == dev:
        return a
    a = contiguous(a)
    out = _alloc(a._shape, dt, dev)
    s = _prepare(a.device, a, out)
    if out._size:
        isz = dt.itemsize
        check(L.queue_copy(s._h(), a._block.handle, a._offset * isz, out._block.handle, 0,
                           out._size * isz))
    return out


def asarray(a: Any, dtype: Any = None, device: Union[str, int, Device, None] = None) -> Array:
    """An accel array with the data of `a` (a NumPy array, anything
    np.asarray takes, or an accel Array) on `device` (default: the current
    device), in `dtype` (default: NumPy's for host data, as
    ``np.asarray(a)``; float128 becomes float64). Host data is copied once
    (a blocking write on the current stream), so `a` may be changed
    afterwards. An accel Array already on `device` with that dtype is
    returned as is; in another dtype it is converted on its device
    (accel_array_astype), on another device copied there
    (accel_queue_copy). Inside ``with accel.Stream():`` the write of host
    data is asynchronous on that stream (as CuPy's asarray on its current
    stream), staged through page-locked memory so that `a` may still be
    changed at once, or, where `a` is page-locked (accel.empty_pinned),
    read in place by the stream's DMA (see Array.set). Raises DtypeMismatchError for a dtype
    accel lacks (strings, objects, datetimes)."""
    dev = get_device(device)
    if isinstance(a, Array):
        held = a._blk("asarray")  # held until return: see Array.release
        dt = a._dtype if dtype is None else _dtype_of(dtype, "asarray")
        if a.device == dev and dt == a._dtype:
            return a
        return _moved(a, dt, dev)
    if dtype is not None:
        h = np.asarray(a, dtype=_dtype_of(dtype, "asarray"), order="C")  # keeps 0-d data 0-d
    else:
        h = np.asarray(a)
        if h.dtype.kind == "f" and h.dtype.itemsize > 8:
            h = h.astype(np.float64)
        _dtype_of(h.dtype, "asarray")
        h = np.asarray(h, order="C")
    return _upload(h, dev)


def asnumpy(a: Any, stream: Optional[Stream] = None) -> np.ndarray:
    """A NumPy array with the data of `a` (Array.get for accel arrays,
    np.asarray otherwise)."""
    if isinstance(a, Array):
        return a.get(stream)
    return np.asarray(a)


# -------------------------------------------------------------------- ops

def _binary_shape_check(fn: str, a: Array, b: Array) -> None:
    """ShapeMismatchError, DtypeMismatchError or DeviceMismatchError unless
    a and b have one shape, dtype and device (the ops without broadcasting)."""
    if a._shape != b._shape:
        raise error("ACCEL_ERROR_SHAPE_MISMATCH",
                    f"accel.{fn}: shapes {a._shape} and {b._shape} differ")
    if a._dtype != b._dtype:
        raise error("ACCEL_ERROR_DTYPE_MISMATCH",
                    f"accel.{fn}: dtypes {a._dtype} and {b._dtype} differ")
    if a.device is not b.device:
        raise error("ACCEL_ERROR_DEVICE_MISMATCH",
                    f"accel.{fn}: operands on {a.device.name} and {b.device.name} (move one "
                    "with accel.asarray(x, device=...))")


def _check_out(fn: str, out: Array, like: Array) -> None:
    if not isinstance(out, Array):
        raise TypeError(f"accel.{fn}: out must be an accel.Array")
    _writable(out, fn)
    out._blk(fn)
    _binary_shape_check(fn, like, out)


def _op_failed(code: int, fn: str, a: Array) -> Exception:
    """The exception for status `code` of op `fn` on `a`."""
    return L.failed(code)


def _op_check(code: int, fn: str, a: Array) -> None:
    if code:
        raise _op_failed(code, fn, a)


def _released_stream(fn: str, dev: Any = None) -> ReleasedError:
    # `dev`: the device of the op, when the caller has it (ForkedError there).
    return _core.released_error(dev._rt if dev is not None else None,
                                f"accel.{fn}: the current stream was released, or the runtime "
                                "closed")


def _scalar_fits(value: Any, dt: np.dtype, fn: str) -> None:
    """A Python or NumPy scalar stored into an integer dtype: NumPy's
    ValueError for NaN, OverflowError for an infinity or a Python integer
    out of the dtype's range (a float is truncated, as NumPy)."""
    if dt.kind not in "iu" or isinstance(value, (Array, bool, np.bool_)):
        return
    v = value.item() if isinstance(value, np.generic) else value
    if isinstance(v, float) and math.isnan(v):
        raise ValueError(f"accel.{fn}: cannot convert float NaN to {dt}")
    if isinstance(v, float) and math.isinf(v):
        raise OverflowError(f"accel.{fn}: cannot convert float {v} to {dt}")
    if isinstance(value, int):  # a NumPy integer casts (wraps) as in NumPy
        info = np.iinfo(dt)
        if not info.min <= v <= info.max:
            raise OverflowError(f"accel.{fn}: Python integer {v} out of bounds for {dt}")


def fill(a: Array, value: Any) -> Array:
    """Set every element of `a` (any view) to `value`, converted to a's
    dtype: accel_fill for a contiguous float32/float64 array, else
    accel_array_full_i64/_u64 (integers exactly, bool as value != 0) or
    accel_array_full (a float); a complex array part by part. Returns a.
    An integer array takes a value that fits it (a float is truncated, as
    NumPy): OverflowError for one past its range or an infinity, ValueError
    for NaN, TypeError for a complex value."""
    _writable(a, "fill")
    held = a._blk("fill")  # held until return: see Array.release
    v = value.item() if isinstance(value, np.generic) else value
    if a._dtype.kind == "c":
        return _fill_complex(a, complex(v))
    if isinstance(v, complex):
        raise TypeError(f"accel.fill: a complex value for a {a._dtype} array")
    if a._dtype.kind in "iu" and not isinstance(v, (bool, np.bool_)):
        _scalar_fits(v, a._dtype, "fill")  # NaN, an infinity
        v = int(v)
        _scalar_fits(v, a._dtype, "fill")  # the truncated value's range
    if not a._size:
        return a
    s = _prepare(a.device, a)
    if a._code <= 2 and a._st is None and isinstance(v, (int, float)) and not isinstance(
            v, bool) and -(1 << 53) <= v <= (1 << 53):
        # A float array: the op path's accel_fill (graphs fuse it).
        _op_check(L.fill(s._h(), a._code, float(v), a._slice), "fill", a)
        return a
    if isinstance(v, (bool, np.bool_)):
        v = int(v)
    if isinstance(v, int) and -(1 << 63) <= v < (1 << 63):
        code = C.full_i64(s._h(), a._cv(), v)
    elif isinstance(v, int) and 0 <= v < (1 << 64):
        code = C.full_u64(s._h(), a._cv(), v)
    else:
        code = C.full(s._h(), a._cv(), float(v))
    _op_check(code, "fill", a)
    return a


def _fill_complex(a: Array, v: complex) -> Array:
    """fill of a complex array: its real and imaginary parts (float views of
    the (re, im) pairs) each filled."""
    if not a._size:
        return a
    s = _prepare(a.device, a)
    for part, x in ((0, v.real), (1, v.imag)):
        cv = a._cv(pairs=True)
        cv.shape[cv.ndim - 1] = 1
        cv.offset += part * (a._dtype.itemsize // 2)
        _op_check(C.full(s._h(), cv, x), "fill", a)
    return a


def copy(a: Array, out: Optional[Array] = None) -> Array:
    """A C-contiguous copy of `a` on its device (accel_array_copy), or into
    `out` (a's shape and dtype)."""
    if not isinstance(a, Array):
        return asarray(a)
    held = a._blk("copy")  # held until return: see Array.release
    if out is None:
        out = _alloc(a._shape, a._dtype, a.device)
    else:
        _check_out("copy", out, a)
    if a._size:
        s = _prepare(a.device, a, out)
        check(C.copy(s._h(), a._cv(True), out._cv(True)))
    return out


def axpby(alpha: float, x: Array, beta: float, y: Array) -> Array:
    """y = alpha*x + beta*y in place (accel_axpby; each product and the sum
    rounded once, or fused). Returns y."""
    _binary_shape_check("axpby", x, y)
    if x._st is not None or y._st is not None:
        raise error("ACCEL_ERROR_UNSUPPORTED", "accel.axpby: strided views (copy them first)")
    held = x._blk("axpby"), y._blk("axpby")  # held until return: see Array.release
    s = _prepare(x.device, x, y)
    _op_check(L.axpby(s._h(), x._code, float(alpha), x._slice, float(beta), y._slice),
              "axpby", x)
    return y


