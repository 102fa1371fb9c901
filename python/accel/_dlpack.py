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
from ._array import Array, _native_ptr, _root, _wrap
from ._core import _Block, _stream_for, get_device, runtime
from ._lib import check, error

KDL_CPU, KDL_CUDA, KDL_CUDA_HOST = 1, 2, 3
KDL_FLOAT = 2


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
    code = _create(ptr, dev_type, dev_id, KDL_FLOAT, bits, a.ndim, shape, ver, id(a),
                   ctypes.byref(out))
    if code:
        # Nothing owns the reference taken above: give it back.
        ctypes.pythonapi.Py_DecRef.argtypes = [ctypes.py_object]
        ctypes.pythonapi.Py_DecRef(a)
        check(code)
    _root(a)._exported = True
    try:
        return _api.PyCapsule_New(out.value, _NAMES[ver],
                                  ctypes.cast(_destructor[ver], ctypes.c_void_p))
    except BaseException:
        _free[ver](out.value)
        raise


def from_dlpack(x: Any, device: Any = None) -> Array:
    """An accel Array viewing the memory of `x` without a copy: anything
    with ``__dlpack__`` (a NumPy array on the CPU; a CuPy array or PyTorch
    tensor on CUDA) or a DLPack capsule. Writes through either side are seen
    by the other. The producer's memory stays alive until the accel array
    (and its views) are gone: its deleter then runs. C-contiguous float32,
    float64 or float16 data only; the accel device is the CPU device for host
    memory and cuda:N for CUDA device N. Raises UnsupportedError (other
    device types, strides, dtypes, or a backend that cannot wrap memory),
    AccelError from accel_buffer_wrap."""
    if _managed_release[0] is None or L.buffer_wrap is None:
        raise _unsupported("from_dlpack")
    rt = runtime()
    if hasattr(x, "__dlpack__"):
        dev_type, dev_id = x.__dlpack_device__()
        kw = {}
        if int(dev_type) == KDL_CUDA:
            acc_dev = get_device(device if device is not None else f"cuda:{dev_id}")
            sp = _stream_for(acc_dev).ptr
            kw["stream"] = sp if sp else 1
        try:
            capsule = x.__dlpack__(max_version=(1, 0), **kw)
        except TypeError:  # a producer of DLPack before 1.0
            capsule = x.__dlpack__(**kw)
    else:
        capsule = x
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
    ndim = t.ndim
    shape = tuple(int(t.shape[i]) for i in range(ndim))
    if t.dtype.code != KDL_FLOAT or t.dtype.lanes != 1 or t.dtype.bits not in (16, 32, 64):
        raise error("ACCEL_ERROR_UNSUPPORTED",
                    f"accel.from_dlpack: DLPack dtype code {t.dtype.code}, {t.dtype.bits} bits, "
                    f"{t.dtype.lanes} lanes (accel takes float16/32/64)")
    dt = np.dtype(f"f{t.dtype.bits // 8}")
    if t.strides:
        want, ok = 1, True
        for i in reversed(range(ndim)):
            if shape[i] != 1 and int(t.strides[i]) != want:
                ok = False
            want *= shape[i]
        if not ok:
            raise error("ACCEL_ERROR_UNSUPPORTED",
                        "accel.from_dlpack: strided (non C-contiguous) data; copy it first")
    kind = int(t.device.device_type)
    if kind in (KDL_CPU, KDL_CUDA_HOST):
        acc_dev = get_device(device) if device is not None else next(
            (d for d in rt.devices if d.host_accessible), None)
        if acc_dev is None or not acc_dev.host_accessible:
            raise error("ACCEL_ERROR_UNSUPPORTED",
                        "accel.from_dlpack: host memory needs a host-accessible accel device "
                        "(the CPU backend)")
    elif kind == KDL_CUDA:
        acc_dev = get_device(device if device is not None else f"cuda:{t.device.device_id}")
        if acc_dev.backend != "cuda":
            raise error("ACCEL_ERROR_DEVICE_MISMATCH",
                        f"accel.from_dlpack: CUDA memory and device {acc_dev.name}")
    else:
        raise error("ACCEL_ERROR_UNSUPPORTED",
                    f"accel.from_dlpack: DLPack device type {kind} (accel takes CPU and CUDA)")
    n = 1
    for s_ in shape:
        n *= s_
    nbytes = n * dt.itemsize
    data = (t.data or 0) + int(t.byte_offset)
    if data % dt.itemsize:
        raise error("ACCEL_ERROR_UNSUPPORTED",
                    f"accel.from_dlpack: data at {data:#x} is not aligned to {dt.itemsize} bytes")
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
    libaccel). `dl_device` other than the array's and `copy=True` are
    refused (UnsupportedError)."""
    if copy:
        raise error("ACCEL_ERROR_UNSUPPORTED", "accel.Array.__dlpack__: copy=True")
    if dl_device is not None and tuple(dl_device) != device_of(self):
        raise error("ACCEL_ERROR_UNSUPPORTED",
                    f"accel.Array.__dlpack__: dl_device {tuple(dl_device)}")
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
