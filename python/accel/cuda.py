# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""``accel.cuda``: one module for the names CuPy keeps in ``cupy.cuda`` and
Numba in ``numba.cuda``, so that both kinds of program port by changing the
import (``import accel as cp`` gives ``cp.cuda``; ``from accel import cuda``
replaces ``from numba import cuda``). Everything runs on every accel device:
a GPU when there is one, the CPU otherwise.

CuPy's names: :class:`Device`, :class:`Stream`, :class:`Event`,
:func:`get_elapsed_time`, ``runtime.getDeviceCount()``, :func:`is_available`.

Numba's names: :func:`jit` (kernels written in Python, see below),
:func:`to_device`, :func:`device_array`, :func:`device_array_like`,
``Array.copy_to_host()``, :func:`synchronize`, :func:`stream`,
:func:`event`, and inside kernels ``threadIdx/blockIdx/blockDim/gridDim``,
``grid``, ``gridsize``, ``syncthreads``, ``shared.array``, ``local.array``,
``atomic.add``/``atomic.sub``.

Kernels written in Python::

    from accel import cuda

    @cuda.jit
    def vector_add(a, b, c):
        i = cuda.grid(1)
        if i < a.size:
            c[i] = a[i] + b[i]

    vector_add[blocks, threads](d_a, d_b, d_c)

At the first launch with a set of argument types (each array's dtype and
number of dimensions; each scalar's type: a Python int is int64, a float
float64, NumPy scalars their own) the function's Python source is
translated to accel's raw-kernel CUDA C (accel/_jit_translate.py says
which Python it takes) and built as an :class:`accel.RawKernel`: NVRTC on a
GPU, the CPU twin on the CPU, cached in memory and on disk, checked by
verify mode. Arithmetic follows NumPy's promotion (float32 with a Python
float computes in float64, as Numba; uint8 wraps as NumPy's uint8), float
``//`` and ``%`` are Python's and NumPy's (from fmod: ``7.0 // 0.1`` is
69.0), ``a or b`` / ``a and b`` of numbers give an operand as Python does,
and a ``for`` loop's variable behaves as Python's (assigning it in the body
does not change the iterations; after the loop it holds the last value).
Integer ``//`` and ``%`` by zero give 0 (CUDA C would give an undefined
value) and ``INT64_MIN // -1`` wraps as NumPy's; a ``range`` whose step is
0 when the kernel runs has no iterations (Python raises ValueError; a
kernel cannot). A negative index counts from the
end only when it is a constant (a negative index held in a variable reads
outside the array, as CUDA C would; ``@cuda.jit(debug=True)`` reports it).
Shared memory, ``syncthreads`` and atomics compile to their CUDA forms and
run on the CPU twin too (docs/kernels-twin.md).

Errors: a construct outside the subset is UnsupportedError (also a
NotImplementedError), a type error such as a float index or a global that
is not a number constant is DtypeMismatchError (also a TypeError), both
naming the file, the line and the construct (``.filename``, ``.line``); a
launch with more than 1024 threads per block (or a grid or block past
CUDA's limits) is InvalidArgumentError (a ValueError); a wrong argument
count is TypeError. ``@cuda.jit(debug=True)`` makes each launch a debug
launch on the CPU twin (as RawKernel's debug=True): an out-of-bounds index
raises AccelError (ACCEL_ERROR_KERNEL_FAULT) from the launch, naming the
kernel, block, thread, argument, index and the Python line.
"""
from __future__ import annotations

import numbers
import re
import threading
from types import SimpleNamespace
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import ctypes

import numpy as np

from . import _lib as L
from ._array import Array, _CODES, _alloc, asarray
from ._core import (Device, Event, Stream, _stream_for, devices, get_current_stream, get_device,
                    get_elapsed_time)
from ._jit_translate import (ARRAY_DTYPES, ArrayType, Translator, atomic, blockDim, blockIdx,
                             gridDim, grid, gridsize, local, parse_function, scalar_type_of,
                             shared, syncthreads, threadIdx)
from ._kernel import RawKernel
from ._lib import AccelError, error

__all__ = ["Device", "Stream", "Event", "get_elapsed_time", "runtime", "is_available", "jit",
           "to_device", "device_array", "device_array_like", "synchronize", "stream", "event",
           "threadIdx", "blockIdx", "blockDim", "gridDim", "grid", "gridsize", "syncthreads",
           "shared", "local", "atomic", "Dispatcher", "get_current_device"]

# -------------------------------------------------------------- CuPy's names


def _get_device_count() -> int:
    """The number of accel devices (every backend's, the CPU's too)."""
    return len(devices())


runtime = SimpleNamespace(getDeviceCount=_get_device_count)
runtime.__doc__ = "cupy.cuda.runtime's getDeviceCount(): the number of accel devices."


def is_available() -> bool:
    """True when a GPU device loaded (cupy.cuda.is_available and
    numba.cuda.is_available). accel runs these programs on the CPU too, so
    code that checks this before using the module can skip the check."""
    return any(getattr(d, "kind", "") == "gpu" for d in devices())


# ------------------------------------------------------------- Numba's names


def get_current_device() -> Device:
    """The current accel device (numba.cuda.get_current_device)."""
    return get_device(None)


def synchronize() -> None:
    """Wait for the current stream of the current device (numba.cuda.synchronize)."""
    get_current_stream().synchronize()


def stream() -> Stream:
    """A new stream on the current device (numba.cuda.stream())."""
    return Stream()


def event(timing: bool = True) -> Event:
    """A new event on the current device (numba.cuda.event())."""
    return Event()


def _host_dtype(a: np.ndarray, fn: str) -> np.dtype:
    if a.dtype.name not in ARRAY_DTYPES and a.dtype != np.float16:
        raise error("ACCEL_ERROR_DTYPE_MISMATCH",
                    f"accel.cuda.{fn}: dtype {a.dtype} (accel arrays for kernels are "
                    f"{', '.join(ARRAY_DTYPES)})")
    return a.dtype


def to_device(obj: Any, stream: Union[Stream, int, None] = 0, copy: bool = True,
              to: Optional[Array] = None) -> Array:
    """A device copy of the NumPy array (or anything np.asarray takes) `obj`,
    keeping its shape and dtype (numba.cuda.to_device; integer arrays stay
    integers, unlike accel.asarray). With `to`, copies into that array
    instead. Raises DtypeMismatchError for dtypes accel lacks (bool,
    complex, int8, ...)."""
    if isinstance(obj, Array):
        return obj if to is None else _copy_into(to, obj.get())
    h = np.asarray(obj, order="C")  # ascontiguousarray made a 0-d array (1,)
    dt = _host_dtype(h, "to_device")
    if to is not None:
        return _copy_into(to, h)
    s = stream if isinstance(stream, Stream) else None
    with (s or _nullctx()):
        return asarray(h, dtype=dt)


class _nullctx:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        return None


def _copy_into(to: Array, h: Any) -> Array:
    """h into `to` of its dtype (Numba's to_device(..., to=) raises on
    another dtype; Array.set converted it, truncating floats silently)."""
    if np.dtype(h.dtype) != to.dtype:
        raise error("ACCEL_ERROR_DTYPE_MISMATCH",
                    f"accel.cuda.to_device: the data is {np.dtype(h.dtype)} but `to` is "
                    f"{to.dtype} (convert it first: astype)")
    to.set(h)
    return to


def device_array(shape: Any, dtype: Any = np.float64, strides: Any = None, order: str = "C",
                 stream: Union[Stream, int, None] = 0) -> Array:
    """An uninitialised array of `shape` and `dtype` on the current device
    (numba.cuda.device_array; default dtype float64 as Numba). C order only."""
    if order != "C" or strides is not None:
        raise error("ACCEL_ERROR_UNSUPPORTED",
                    "accel.cuda.device_array: C order only (no strides=, order='F')")
    shp = (int(shape),) if isinstance(shape, numbers.Integral) else tuple(int(s) for s in shape)
    if any(s < 0 for s in shp):
        raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                    f"accel.cuda.device_array: negative dimension in {shp}")
    dt = np.dtype(dtype)
    if dt not in _CODES:
        raise error("ACCEL_ERROR_DTYPE_MISMATCH",
                    f"accel.cuda.device_array: dtype {dt} (one of {', '.join(ARRAY_DTYPES)})")
    return _alloc(shp, dt, get_device(None))


def device_array_like(ary: Any, stream: Union[Stream, int, None] = 0) -> Array:
    """An uninitialised device array of the shape and dtype of `ary` (a NumPy
    or accel array)."""
    return device_array(ary.shape, ary.dtype)


# ------------------------------------------------------------------- jit

# CUDA's limits, checked on every device (accel/kernel.h).
_MAX_BLOCK = (1024, 1024, 64)
_MAX_GRID = ((1 << 31) - 1, 65535, 65535)
_LINE_REF = re.compile(r"(?:line |:)(\d+)")
_NOSLICE = L.Slice()
_GEN_NAME = re.compile(r"\b(argument|shared array) v_(\w+)")


def _dim3(v: Any, what: str, name: str) -> Tuple[int, int, int]:
    if isinstance(v, numbers.Integral) and not isinstance(v, bool):
        t: Tuple[int, ...] = (int(v),)
    elif isinstance(v, (tuple, list)) and all(isinstance(x, numbers.Integral) for x in v):
        t = tuple(int(x) for x in v)
    else:
        raise TypeError(f"accel.cuda.jit {name}: {what} is an int or a tuple of 1 to 3 ints, "
                        f"not {v!r}")
    if not 1 <= len(t) <= 3:
        raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                    f"accel.cuda.jit {name}: {what} {t} has {len(t)} dimensions (1 to 3)")
    t3 = t + (1,) * (3 - len(t))
    if what == "threads" and t3[0] * t3[1] * t3[2] > 1024:
        raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                    f"accel.cuda.jit {name}: {t3[0] * t3[1] * t3[2]} threads per block "
                    f"({t}); at most 1024")
    lim = _MAX_BLOCK if what == "threads" else _MAX_GRID
    for k, (x, m) in enumerate(zip(t3, lim)):
        if not 1 <= x <= m:
            raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                        f"accel.cuda.jit {name}: {what} {t}: dimension {'xyz'[k]} is {x}, "
                        f"outside 1..{m}")
    return (t3[0], t3[1], t3[2])


class _Spec:
    """One translation: its RawKernel and how to pass the arguments."""

    __slots__ = ("kernel", "raw", "arrays", "extras", "ctype")

    def __init__(self, kernel: Any, raw: RawKernel, arrays: List[bool]):
        self.kernel, self.raw, self.arrays = kernel, raw, arrays
        self.extras = kernel.extras
        self.ctype = L.KernelArg * max(len(arrays) + len(kernel.extras), 1)


class _Launch:
    """``kernel[blocks, threads]`` (or ``[blocks, threads, stream]``): call it
    with the kernel's arguments."""

    __slots__ = ("d", "g", "b", "stream")
    d: "Dispatcher"
    g: Any  # uint32[3] of the grid, as ctypes passes it
    b: Any  # uint32[3] of the block
    stream: Optional[Stream]

    def __call__(self, *args: Any) -> None:
        self.d._launch(self, args)


class Dispatcher:
    """A Python function made a kernel by :func:`jit`: ``k[blocks,
    threads](args)`` (also ``k[blocks, threads, stream]``). blocks and
    threads are ints or tuples of up to 3; ``stream`` an accel Stream (0 or
    None: the current stream). Arguments: accel arrays (float32, float64,
    int32, int64, uint8; all on one device, which runs the kernel), NumPy
    arrays (copied to the device and back after the launch, which then
    waits, as Numba), and numbers. Launches are asynchronous like every op.
    ``inspect_source(*args)`` returns the CUDA C made for such arguments."""

    def __init__(self, fn: Callable[..., Any], options: Sequence[str] = (), debug: bool = False):
        if not callable(fn) or not hasattr(fn, "__code__"):
            raise TypeError(f"accel.cuda.jit: {fn!r} is not a Python function")
        self.py_func = fn
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        self._options = tuple(options)
        self._debug = bool(debug)
        self._nparams = fn.__code__.co_argcount
        self._parsed: Any = None
        self._specs: Dict[Any, _Spec] = {}
        self._configs: Dict[Any, _Launch] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<accel.cuda.jit kernel {self.__name__}>"

    def __call__(self, *args: Any) -> None:
        raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                    f"accel.cuda.jit {self.__name__}: launch it with a configuration, "
                    f"{self.__name__}[blocks, threads](...)")

    def __getitem__(self, cfg: Any) -> _Launch:
        try:
            return self._configs[cfg]
        except (KeyError, TypeError):
            pass
        if not isinstance(cfg, tuple) or not 2 <= len(cfg) <= 4:
            raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                        f"accel.cuda.jit {self.__name__}: the launch configuration is "
                        "[blocks, threads] or [blocks, threads, stream(, shared bytes)], "
                        f"not [{cfg!r}]")
        lc = _Launch()
        lc.d = self
        g = _dim3(cfg[0], "blocks", self.__name__)
        b = _dim3(cfg[1], "threads", self.__name__)
        lc.g, lc.b = (ctypes.c_uint32 * 3)(*g), (ctypes.c_uint32 * 3)(*b)
        s = cfg[2] if len(cfg) > 2 else None
        if s is not None and s != 0 and not isinstance(s, Stream):
            raise TypeError(f"accel.cuda.jit {self.__name__}: stream is an accel Stream (or "
                            f"0), not {type(s).__name__}")
        lc.stream = s if isinstance(s, Stream) else None
        if len(cfg) > 3 and cfg[3]:
            raise error("ACCEL_ERROR_UNSUPPORTED",
                        f"accel.cuda.jit {self.__name__}: dynamic shared memory ({cfg[3]} "
                        "bytes); use cuda.shared.array with a constant shape")
        try:
            if len(self._configs) < 64:
                self._configs[cfg] = lc
        except TypeError:  # unhashable (lists): not cached
            pass
        return lc

    def _launch(self, lc: _Launch, args: Tuple[Any, ...]) -> None:
        if len(args) != self._nparams:
            raise TypeError(f"accel.cuda.jit {self.__name__}: {self._nparams} arguments "
                            f"expected, {len(args)} given")
        key = []
        dev = None
        for a in args:
            if a.__class__ is Array:
                key.append(a._code * 64 + len(a._shape))
                if dev is None:
                    dev = a.device
                elif a.device is not dev:
                    raise error("ACCEL_ERROR_DEVICE_MISMATCH",
                                f"accel.cuda.jit {self.__name__}: arrays on {dev.name} and "
                                f"{a.device.name}")
            elif isinstance(a, np.ndarray):
                return self._launch_host(lc, args)
            else:
                key.append(a.__class__)
        spec = self._specs.get(tuple(key))
        if spec is None:
            spec = self._specialize(tuple(key), args)
        if dev is None:
            dev = lc.stream.device if lc.stream is not None else get_device(None)
        s = lc.stream if lc.stream is not None else _stream_for(dev)
        if s.device is not dev:
            raise error("ACCEL_ERROR_DEVICE_MISMATCH",
                        f"accel.cuda.jit {self.__name__}: a stream of {s.device.name} for "
                        f"arrays on {dev.name}")
        items: List[Any] = []
        for a, is_array in zip(args, spec.arrays):
            if is_array:
                b = a._block
                if b is None:
                    a._blk(f"cuda.jit {self.__name__}")
                if a._st is not None:
                    raise error("ACCEL_ERROR_UNSUPPORTED",
                                f"accel.cuda.jit {self.__name__}: a strided view (shape "
                                f"{a.shape}) as an argument; pass a C-contiguous array")
                if b.stream is not s:
                    s._join_from(b.stream)
                    b.stream = s
                items.append((1, a._code, a._slice, 0.0, 0))
            else:
                items.append(_scalar(a, self.__name__))
        for ai, kind, k in spec.extras:
            a = args[ai]
            items.append((2, 6, _NOSLICE, 0.0, a._size if kind == "n" else a._shape[k]
                          if kind == "d" else _elem_stride(a, k)))
        kargs = spec.ctype(*items)
        if self._debug:
            o = L.KernelLaunchOptions()
            L.kernel_launch_options_init(ctypes.byref(o))
            o.debug = 1
            code = L.kernel_launch_grid_ex(s._h(), spec.raw._handle(), lc.g, lc.b,
                                           ctypes.byref(o), len(items), kargs)
            if not code:
                # A debug launch waits for its kernel, so that a fault is
                # raised here, with the Python names, not at a later sync.
                try:
                    s.synchronize()
                except AccelError as e:
                    raise self._located(e, spec) from None
        else:
            code = L.kernel_launch_grid(s._h(), spec.raw._handle(), lc.g, lc.b, len(items),
                                        kargs)
        if code:
            raise self._located(L.failed(code), spec)

    def _specialize(self, key: Any, args: Sequence[Any]) -> _Spec:
        with self._lock:
            spec = self._specs.get(key)
            if spec is not None:
                return spec
            types = [_argtype(a, i, self.__name__) for i, a in enumerate(args)]
            if self._parsed is None:
                self._parsed = parse_function(self.py_func)
            kernel = Translator(self.py_func, self._parsed, types).translate()
            raw = RawKernel(kernel.source, kernel.entry, self._options)
            spec = _Spec(kernel, raw, [isinstance(t, ArrayType) for t in types])
            self._specs[key] = spec
            return spec

    def _located(self, e: AccelError, spec: _Spec) -> AccelError:
        """e with the Python line of the generated line its message names
        (and, for a debug launch's fault, the Python names of the argument
        or shared array rather than the generated ones)."""
        msg = _GEN_NAME.sub(r"\1 \2", e.message)
        for m in _LINE_REF.finditer(msg):
            py = spec.kernel.lines.get(int(m.group(1)))
            if py is not None:
                fn = self._parsed[1]
                return type(e)(e.status, f"{msg} [at {fn}:{py}, accel.cuda.jit "
                                         f"{self.__name__}]")
        return e if msg == e.message else type(e)(e.status, msg)

    def _launch_host(self, lc: _Launch, args: Tuple[Any, ...]) -> None:
        """A launch with NumPy arrays among the arguments: each is copied to
        the device and back (when writable) after the kernel, as Numba."""
        dev = next((a.device for a in args if isinstance(a, Array)),
                   lc.stream.device if lc.stream is not None else get_device(None))
        moved = []
        dargs = []
        for a in args:
            if isinstance(a, np.ndarray):
                with dev:
                    d = to_device(a)
                moved.append((a, d))
                dargs.append(d)
            else:
                dargs.append(a)
        self._launch(lc, tuple(dargs))
        for h, d in moved:
            if h.flags.writeable:
                if h.flags.c_contiguous:
                    d.get(lc.stream, h)
                else:
                    h[...] = d.get(lc.stream)

    def inspect_source(self, *args: Any) -> str:
        """The CUDA C that accel makes of this kernel for arguments like
        `args` (arrays or numbers, as a launch takes them)."""
        types = [_argtype(to_device(a) if isinstance(a, np.ndarray) else a, i, self.__name__)
                 for i, a in enumerate(args)]
        if len(types) != self._nparams:
            raise TypeError(f"accel.cuda.jit {self.__name__}: {self._nparams} arguments "
                            f"expected, {len(types)} given")
        if self._parsed is None:
            self._parsed = parse_function(self.py_func)
        return Translator(self.py_func, self._parsed, types).translate().source


def _elem_stride(a: Array, k: int) -> int:
    st = a.strides
    return st[k] // a.itemsize


def _scalar(v: Any, name: str) -> Any:
    from ._kernel import _scalar_arg
    return _scalar_arg(v, f"cuda.jit {name}", "a scalar argument")


def _argtype(a: Any, i: int, name: str) -> Any:
    if isinstance(a, Array):
        if a.dtype.name not in ARRAY_DTYPES:
            raise error("ACCEL_ERROR_DTYPE_MISMATCH",
                        f"accel.cuda.jit {name}: argument {i} is a {a.dtype} array (kernels "
                        f"take {', '.join(ARRAY_DTYPES)})")
        return ArrayType(a.dtype.name, a.ndim, "C")
    t = scalar_type_of(a)
    if t is None:
        raise TypeError(f"accel.cuda.jit {name}: argument {i} is {type(a).__name__}; kernels "
                        "take accel arrays, NumPy arrays and numbers")
    return t


def jit(func_or_sig: Any = None, device: bool = False, debug: bool = False,
        fastmath: bool = False, lineinfo: bool = False, cache: bool = False,
        opt: bool = True, **options: Any) -> Any:
    """Make a Python function a kernel (numba.cuda.jit): ``@cuda.jit`` or
    ``@cuda.jit(fastmath=True)``. A signature (``@cuda.jit("void(float32[:])")``)
    is accepted and not used: types come from each launch's arguments.
    fastmath adds NVRTC's --use_fast_math. debug=True makes every launch a
    debug launch, as ``RawKernel(...)(..., debug=True)``: the kernel runs on
    the CPU twin (also for a GPU's arrays) with every array index checked, and
    the launch waits for it; an out-of-bounds access (or a shared-memory race)
    raises AccelError (status ACCEL_ERROR_KERNEL_FAULT) from the launch, naming
    the kernel, block, thread, argument (its Python name), index, the line of
    the generated CUDA C and the Python file and line. Returns a
    :class:`Dispatcher`.
    Raises UnsupportedError for device functions (``device=True``)."""
    if device:
        raise error("ACCEL_ERROR_UNSUPPORTED",
                    "accel.cuda.jit: device functions (device=True) are not supported; "
                    "write the code in the kernel")
    if options:
        raise TypeError(f"accel.cuda.jit: unknown options {sorted(options)}")
    opts = ("--use_fast_math",) if fastmath else ()
    if callable(func_or_sig):
        return Dispatcher(func_or_sig, opts, debug)
    return lambda fn: Dispatcher(fn, opts, debug)
