# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""DLPack exchange without copies: Array.__dlpack__ (export) and
accel.from_dlpack (import), for NumPy on the CPU and CuPy or PyTorch on CUDA.

The capsule's destructor and the managed tensor's deleter are C functions in
libaccel (core/io/dlpack.c), not ctypes callbacks: they may run from any thread
at any time, also during interpreter shutdown. An exported tensor holds a
reference to its Array (dropped by the deleter, under the GIL), so the buffer
stays while the consumer uses it; an imported one is wrapped as an accel
buffer (accel_buffer_wrap) whose release calls the producer's deleter.
"""
from __future__ import annotations

import ctypes
from typing import Any, Optional, Tuple

import numpy as np

from . import _lib as L
from ._array import _CODES, Array, _exported, _native_ptr, _wrap
from ._array import empty as _empty
from ._core import _Block, _stream_for, get_device, runtime
from ._lib import check, error

KDL_CPU, KDL_CUDA, KDL_CUDA_HOST = 1, 2, 3
KDL_FLOAT = 2
# DLDataTypeCode by NumPy's dtype kind (kDLInt, kDLUInt, kDLFloat, kDLComplex,
# kDLBool), and back.
_KDL_OF_KIND = {"i": 0, "u": 1, "f": 2, "c": 5, "b": 6}
_KIND_OF_KDL = {v: k for k, v in _KDL_OF_KIND.items()}


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("version", DLPackVersion), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p), ("flags", ctypes.c_uint64),
                ("dl_tensor", DLTensor)]


_api = ctypes.pythonapi
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_SetName.restype = ctypes.c_int
_api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_IsValid.restype = ctypes.c_int
_api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.Py_IncRef.argtypes = [ctypes.py_object]
_api.Py_IncRef.restype = None

_create = getattr(L.lib, "accel_dlpack_tensor_create", None)
if _create is not None:
    _create.restype = ctypes.c_int
    _create.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32, ctypes.c_uint8,
                        ctypes.c_uint8, ctypes.c_int32, ctypes.POINTER(ctypes.c_int64),
                        ctypes.c_uint32, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]
_free = {}
for _v, _name in ((0, "accel_dlpack_tensor_free"), (1, "accel_dlpack_tensor_versioned_free")):
    _f = getattr(L.lib, _name, None)
    if _f is not None:
        _f.restype = None
        _f.argtypes = [ctypes.c_void_p]
        _free[_v] = _f
_destructor = {0: getattr(L.lib, "accel_dlpack_capsule_destructor", None),
               1: getattr(L.lib, "accel_dlpack_capsule_destructor_versioned", None)}
_managed_release = {0: getattr(L.lib, "accel_dlpack_managed_release", None),
                    1: getattr(L.lib, "accel_dlpack_managed_versioned_release", None)}
# Capsule names: PyCapsule keeps the pointer, not a copy, so these bytes
# objects must live as long as any capsule (module constants do).
_NAMES = {0: b"dltensor", 1: b"dltensor_versioned"}
_USED = {0: b"used_dltensor", 1: b"used_dltensor_versioned"}


def _unsupported(fn: str) -> L.AccelError:
    return error("ACCEL_ERROR_UNSUPPORTED",
                 f"accel.{fn}: this libaccel has no DLPack support (rebuild it)")


def device_of(a: Array) -> Tuple[int, int]:
    """DLPack's (device_type, device_id) of an array."""
    d = a.device
    if d.backend == "cuda":
        return (KDL_CUDA, _backend_index(d))
    if d.host_accessible:
        return (KDL_CPU, 0)
    raise error("ACCEL_ERROR_UNSUPPORTED",
                f"accel.__dlpack_device__: {d.name} has no DLPack device type")


def _backend_index(d: Any) -> int:
    name = d.name
    return int(name.split(":", 1)[1]) if ":" in name else 0


def to_dlpack(a: Array, stream: Optional[int] = None, max_version: Any = None) -> Any:
    """A DLPack capsule viewing `a` (see Array.__dlpack__): "dltensor_versioned"
    (DLPack 1.0, writable) when the consumer's max_version allows 1.x, else
    "dltensor"."""
    ver = 1 if max_version is not None and tuple(max_version)[0] >= 1 else 0
    if _create is None or _destructor[ver] is None:
        raise _unsupported("Array.__dlpack__")
    dev_type, dev_id = device_of(a)
    if stream is not None and (dev_type != KDL_CUDA or isinstance(stream, bool)
                               or not isinstance(stream, int)):
        # The standard: None for CPU memory; CUDA takes an int (-1 none, 1
        # legacy, 2 per-thread, else a cudaStream_t). NumPy raises alike.
        raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                    f"accel.Array.__dlpack__: stream={stream!r}: "
                    + ("memory of the host takes stream=None" if dev_type != KDL_CUDA
                       else "a CUDA stream is an int"))
    if a._st is not None:
        raise error("ACCEL_ERROR_UNSUPPORTED",
                    f"accel.Array.__dlpack__: a strided view (strides {a.strides}); export "
                    "a C-contiguous copy (x.copy())")
    ptr = _native_ptr(a, "Array.__dlpack__")
    b = a._block
    # The consumer reads on its own stream (or the host): the work queued
    # on the array so far must be done first, unless it is the same stream.
    s = b.stream
    if dev_type != KDL_CUDA or stream is None or stream != s.ptr:
        s.synchronize()
    shape = (ctypes.c_int64 * max(a.ndim, 1))(*a.shape)
    out = ctypes.c_void_p()
    bits = a.dtype.itemsize * 8
    _api.Py_IncRef(a)
    code = _create(ptr, dev_type, dev_id, _KDL_OF_KIND[a.dtype.kind], bits, a.ndim, shape, ver,
                   id(a),
                   ctypes.byref(out))
    if code:
        # Nothing owns the reference taken above: give it back.
        ctypes.pythonapi.Py_DecRef.argtypes = [ctypes.py_object]
        ctypes.pythonapi.Py_DecRef(a)
        check(code)
    _exported(a, b)
    try:
        return _api.PyCapsule_New(out.value, _NAMES[ver],
                                  ctypes.cast(_destructor[ver], ctypes.c_void_p))
    except BaseException:
        _free[ver](out.value)
        raise


# DLPack 1.0's flags (DLManagedTensorVersioned.flags).
FLAG_READ_ONLY = 1 << 0
# The largest end address accepted for imported data: no user-space or UVA
# address reaches 2^63, so a sum beyond it is a corrupt tensor (a negative
# size or offset read as unsigned), never memory to use.
_ADDRESS_LIMIT = 1 << 63


def _field_error(field: str, value: Any, why: str) -> L.AccelError:
    return error("ACCEL_ERROR_INVALID_ARGUMENT",
                 f"accel.from_dlpack: the tensor's {field} is {value}: {why}")


def _checked_layout(t: DLTensor, itemsize: int) -> Tuple[Tuple[int, ...], int, int]:
    """(shape, data address, bytes) of DLTensor `t` after checking every
    field a producer controls: ndim 0..32, a shape array with no negative
    entry, strides of C order (those of a size-1 axis, or of a tensor of
    no elements, unused), and a byte offset and size whose end stays below
    2^63. InvalidArgumentError (a
    ValueError) naming the field; UnsupportedError for strides that are
    sound but not C-contiguous."""
    ndim = int(t.ndim)
    if not 0 <= ndim <= 32:
        raise _field_error("ndim", ndim, "accel takes 0 to 32 dimensions")
    if ndim and not t.shape:
        raise _field_error("shape", "NULL", f"ndim is {ndim}")
    shape = tuple(int(t.shape[i]) for i in range(ndim))
    n = 1
    for i, s_ in enumerate(shape):
        if s_ < 0:
            raise _field_error(f"shape[{i}]", s_, "a negative dimension")
        n *= s_
    nbytes = n * itemsize
    if nbytes >= _ADDRESS_LIMIT:
        raise _field_error("shape", shape, f"{nbytes} bytes do not fit in memory")
    if ndim and t.strides and n:
        # No elements: the strides are never used (NumPy exports 0 for them).
        # An axis of size 1: its stride is never used either. Every other
        # stride must be C order's; a negative one is refused by name.
        want, contiguous = 1, True
        for i in reversed(range(ndim)):
            st = int(t.strides[i])
            if shape[i] == 1:
                continue
            if st < 0:
                raise _field_error(f"strides[{i}]", st, "a negative stride (accel arrays run "
                                   "forwards; copy the data first)")
            if st * (shape[i] - 1) * itemsize >= _ADDRESS_LIMIT:
                raise _field_error(f"strides[{i}]", st, "its elements pass the end of any "
                                   "address space")
            if st != want:
                contiguous = False
            want *= shape[i]
        if not contiguous:
            raise error("ACCEL_ERROR_UNSUPPORTED",
                        "accel.from_dlpack: strided (non C-contiguous) data; copy it first")
    off = int(t.byte_offset)
    data = int(t.data or 0)
    if off >= _ADDRESS_LIMIT or data + off + nbytes >= _ADDRESS_LIMIT:
        raise _field_error("byte_offset", off, f"data {data:#x} + byte_offset + {nbytes} bytes "
                           "passes the end of any address space")
    if nbytes and not data:
        raise _field_error("data", "NULL", f"for {nbytes} bytes")
    return shape, data + off, nbytes


def _device_for(t: DLTensor, rt: Any, device: Any) -> Any:
    """The accel device for the memory of DLTensor `t` (`device` when given)."""
    kind = int(t.device.device_type)
    if kind in (KDL_CPU, KDL_CUDA_HOST):
        acc_dev = get_device(device) if device is not None else next(
            (d for d in rt.devices if d.host_accessible), None)
        if acc_dev is None or not acc_dev.host_accessible:
            raise error("ACCEL_ERROR_UNSUPPORTED",
                        "accel.from_dlpack: host memory needs a host-accessible accel device "
                        "(the CPU backend)")
        return acc_dev
    if kind == KDL_CUDA:
        acc_dev = get_device(device if device is not None else f"cuda:{t.device.device_id}")
        if acc_dev.backend != "cuda":
            raise error("ACCEL_ERROR_DEVICE_MISMATCH",
                        f"accel.from_dlpack: CUDA memory and device {acc_dev.name}")
        return acc_dev
    raise error("ACCEL_ERROR_UNSUPPORTED",
                f"accel.from_dlpack: DLPack device type {kind} (accel takes CPU and CUDA)")


def _copy_of(acc_dev: Any, data: int, nbytes: int, shape: Tuple[int, ...], dt: np.dtype) -> Array:
    """A new accel array holding a copy of `nbytes` at `data` (memory of
    acc_dev that accel must not write): the memory is wrapped with no
    release callback, copied on the device's current stream, and the wrap
    released once the copy is done (accel_buffer_release waits for it)."""
    out = _empty(shape, dt, acc_dev)
    if not nbytes:
        return out
    h = ctypes.c_void_p()
    check(L.buffer_wrap(acc_dev._handle, data, nbytes, None, None, ctypes.byref(h)))
    try:
        s = _stream_for(acc_dev)
        b = out._block
        if b.stream is not s:
            s._join_from(b.stream)
            b.stream = s
        check(L.queue_copy(s._h(), h.value, 0, b.handle, 0, nbytes))
        s.synchronize()
    finally:
        L.buffer_release(h.value)
    return out


def _capsule_of(x: Any, device: Any) -> Any:
    # The DLPack capsule of x (x itself when it is one), on the consumer's
    # stream for CUDA producers.
    if not hasattr(x, "__dlpack__"):
        return x
    dev_type, dev_id = x.__dlpack_device__()
    kw = {}
    if int(dev_type) == KDL_CUDA:
        acc_dev = get_device(device if device is not None else f"cuda:{dev_id}")
        sp = _stream_for(acc_dev).ptr
        kw["stream"] = sp if sp else 1
    try:
        return x.__dlpack__(max_version=(1, 0), **kw)
    except TypeError:  # a producer of DLPack before 1.0
        return x.__dlpack__(**kw)


def from_dlpack(x: Any, /, *, device: Any = None, copy: Optional[bool] = None) -> Array:
    """An accel Array viewing the memory of `x` without a copy: anything
    with ``__dlpack__`` (a NumPy array on the CPU; a CuPy array or PyTorch
    tensor on CUDA) or a DLPack capsule. Writes through either side are seen
    by the other. The producer's memory stays alive until the accel array
    (and its views) are gone: its deleter then runs. C-contiguous data of
    a dtype accel has (bool, integers, floats, complex) only; the accel device is the CPU device for host
    memory and cuda:N for CUDA device N.

    A tensor marked read-only (DLPack 1.0's READ_ONLY flag: NumPy sets it
    for a read-only array, such as ``np.load(..., mmap_mode="r")`` or
    ``np.frombuffer(b"...")``) is copied instead, since every accel array is
    writable: the new array is accel's own and writes to it never reach the
    producer's memory. Every field of the tensor is checked before use:
    InvalidArgumentError (a ValueError) naming the field for a negative
    dimension, a negative stride or one beyond the tensor, a byte offset or
    size that passes the end of the address space, more than 32 dimensions.
    copy=True gives a copy on the device (the standard's from_dlpack).
    Raises UnsupportedError (other device types, non C-contiguous strides,
    dtypes, or a backend that cannot wrap memory), AccelError from
    accel_buffer_wrap."""
    if copy:
        return from_dlpack(x, device=device).copy()
    if _managed_release[0] is None or L.buffer_wrap is None:
        raise _unsupported("from_dlpack")
    rt = runtime()
    capsule = _capsule_of(x, device)
    ver = next((v for v, nm in _NAMES.items()
                if _managed_release[v] is not None and _api.PyCapsule_IsValid(capsule, nm)), None)
    if ver is None:
        raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                    "accel.from_dlpack: not a DLPack capsule (or it was consumed already)")
    mptr = _api.PyCapsule_GetPointer(capsule, _NAMES[ver])
    mt = (DLManagedTensorVersioned if ver else DLManagedTensor).from_address(mptr)
    if ver and mt.version.major != 1:
        raise error("ACCEL_ERROR_UNSUPPORTED",
                    f"accel.from_dlpack: DLPack {mt.version.major}.{mt.version.minor}")
    t = mt.dl_tensor
    kind = _KIND_OF_KDL.get(int(t.dtype.code))
    dt = None
    if kind is not None and t.dtype.lanes == 1 and t.dtype.bits % 8 == 0:
        try:
            dt = np.dtype(np.bool_) if kind == "b" else np.dtype(f"{kind}{t.dtype.bits // 8}")
        except TypeError:
            dt = None
    if dt not in _CODES or (kind == "b" and t.dtype.bits != 8):
        raise error("ACCEL_ERROR_UNSUPPORTED",
                    f"accel.from_dlpack: DLPack dtype code {t.dtype.code}, {t.dtype.bits} bits, "
                    f"{t.dtype.lanes} lanes (accel takes bool, integers, floats, complex)")
    shape, data, nbytes = _checked_layout(t, dt.itemsize)
    acc_dev = _device_for(t, rt, device)
    if data % dt.itemsize:
        raise error("ACCEL_ERROR_UNSUPPORTED",
                    f"accel.from_dlpack: data at {data:#x} is not aligned to {dt.itemsize} bytes")
    if ver and mt.flags & FLAG_READ_ONLY:
        # Not consumed: the capsule's destructor deletes the tensor.
        return _copy_of(acc_dev, data, nbytes, shape, dt)
    h = ctypes.c_void_p()
    check(L.buffer_wrap(acc_dev._handle, data, nbytes,
                        ctypes.cast(_managed_release[ver], ctypes.c_void_p), mptr,
                        ctypes.byref(h)))
    # accel owns the tensor now: the capsule must not delete it.
    _api.PyCapsule_SetName(capsule, _USED[ver])
    blk = _Block(h.value, acc_dev, nbytes, _stream_for(acc_dev))
    blk.owner = "dlpack"
    rt.pool._count(nbytes)
    return _wrap(blk, shape, dt, acc_dev)


def _array_dlpack(self: Array, stream: Optional[int] = None, max_version: Any = None,
                  dl_device: Any = None, copy: Optional[bool] = None) -> Any:
    """A DLPack capsule viewing the array without a copy (CPU and CUDA
    devices): "dltensor_versioned" (DLPack 1.0, writable) when
    `max_version` allows it, else "dltensor". `stream` is the consumer's
    stream (CUDA: an int, 1 the legacy default, 2 per-thread); the work
    queued on the array is done before the consumer's (accel waits for
    it unless that is the array's own stream). The capsule keeps the
    buffer alive until the consumer's deleter runs (the deleter lives in
    libaccel). copy=True (or a strided view, unless copy=False: then
    BufferError) exports a C-contiguous copy. `dl_device` (1, 0), the CPU,
    for an array on a GPU exports a host copy (NumPy's capsule; with
    copy=False: BufferError), as the standard allows; any other device
    than the array's is refused (UnsupportedError)."""
    if dl_device is not None:
        try:
            dl_device = (int(dl_device[0]), int(dl_device[1]))
        except (TypeError, ValueError, IndexError):
            raise TypeError(f"accel.Array.__dlpack__: dl_device {dl_device!r} is not a "
                            "(device type, device id) pair of ints") from None
    if dl_device is not None and tuple(dl_device) != device_of(self):
        if tuple(dl_device) != (1, 0):
            raise error("ACCEL_ERROR_UNSUPPORTED",
                        f"accel.Array.__dlpack__: dl_device {tuple(dl_device)} (the array is on "
                        f"{device_of(self)}; only the CPU, (1, 0), takes a copy)")
        if copy is False:
            raise BufferError("accel.Array.__dlpack__: dl_device (1, 0) needs a copy of an array "
                              "on a GPU (copy=False)")
        host = np.ascontiguousarray(self.get())
        return host.__dlpack__() if max_version is None else host.__dlpack__(
            max_version=max_version)
    if self._st is not None and copy is False:
        raise BufferError("accel.Array.__dlpack__: a strided view cannot be exported "
                          "without a copy (copy=False)")
    if copy or self._st is not None:
        return to_dlpack(self.copy(), stream, max_version)
    return to_dlpack(self, stream, max_version)


def _array_dlpack_device(self: Array) -> Tuple[int, int]:
    """(device type, device id) of DLPack: (1, 0) on the CPU, (2, n) on
    CUDA device n."""
    return device_of(self)


# The DLPack protocol of Array lives here, beside the capsules it makes.
_array_dlpack.__name__ = _array_dlpack.__qualname__ = "__dlpack__"
_array_dlpack_device.__name__ = _array_dlpack_device.__qualname__ = "__dlpack_device__"
Array.__dlpack__ = _array_dlpack  # type: ignore[attr-defined]
Array.__dlpack_device__ = _array_dlpack_device  # type: ignore[attr-defined]

__all__ = ["from_dlpack", "to_dlpack", "device_of"]
