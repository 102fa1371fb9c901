# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Kernels users write, from Python, with CuPy's classes and call conventions:
:class:`ElementwiseKernel`, :class:`ReductionKernel`, :class:`RawKernel` and
:class:`RawModule`, over accel/kernel.h. The same kernel runs on every device:
CUDA compiles it with NVRTC, the CPU with a C compiler (raw CUDA C source runs
there as its CPU twin). Each device compiles at a kernel's first launch there,
and the code is cached in memory and on disk.

Types in parameter lists: float32 (float), float64 (double), float16 (half),
bfloat16, int32 (int), int64, uint8; or a placeholder such as ``T`` that takes
the dtype of the arrays passed for it (one compiled kernel per set of dtypes,
as CuPy). In the body a placeholder names the element's C type (float for the
16-bit floats, whose arithmetic is in float).

Errors: a malformed parameter list or an unknown type is InvalidArgumentError
at construction; code that does not compile is :class:`accel.CompileError`
(``.line``: the line of your text, ``.log``: the compiler's messages) at the
first launch on a device (or at ``compile()``); wrong arguments (count, shape,
dtype, device, a grid or block past CUDA's limits) raise before anything is
enqueued. Launches are asynchronous, on the current stream
(``with accel.Stream():``), like every op.
"""
from __future__ import annotations

import ctypes
import math
import numbers
import re
import threading
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _lib as L
from . import _namespace as ns
from ._array import _CODES, Array, _alloc, _prepare, contiguous
from ._core import Device, Stream, get_device, runtime
from ._lib import check, error

# Parameter type names that libaccel knows, and their dtypes.
_TYPES = {"float32": np.float32, "float": np.float32, "float64": np.float64,
          "double": np.float64, "float16": np.float16, "half": np.float16,
          "int32": np.int32, "int": np.int32, "int64": np.int64, "uint8": np.uint8}
_KNOWN = set(_TYPES) | {"bfloat16"}
# What a placeholder stands for in the body: the element's arithmetic type.
_CTYPE = {np.dtype(np.float32): "float", np.dtype(np.float64): "double",
          np.dtype(np.float16): "float", np.dtype(np.int32): "int",
          np.dtype(np.int64): "long long", np.dtype(np.uint8): "unsigned char"}
_NAME = {np.dtype(np.float32): "float32", np.dtype(np.float64): "float64",
         np.dtype(np.float16): "float16", np.dtype(np.int32): "int32",
         np.dtype(np.int64): "int64", np.dtype(np.uint8): "uint8"}
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")


class _Param:
    __slots__ = ("type", "name", "output")

    def __init__(self, type_: str, name: str, output: bool):
        self.type, self.name, self.output = type_, name, output


def _parse(cls: str, params: str, output: bool) -> List[_Param]:
    if not isinstance(params, str):
        raise TypeError(f"accel.{cls}: parameter lists are strings such as \"float32 x, T y\"")
    out: List[_Param] = []
    if not params.strip():
        return out
    for item in params.split(","):
        words = item.split()
        if len(words) == 3 and words[0] == "raw":
            raise error("ACCEL_ERROR_UNSUPPORTED",
                        f"accel.{cls}: \"{item.strip()}\": raw parameters (indexed by the body) "
                        "are not supported; use a RawKernel")
        if len(words) != 2 or not _IDENT.match(words[0]) or not _IDENT.match(words[1]):
            raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                        f"accel.{cls}: \"{item.strip()}\" in \"{params}\" is not \"TYPE NAME\" "
                        "(e.g. \"float32 x\" or \"T x\")")
        if words[0] not in _KNOWN and _is_numpy_dtype_name(words[0]):
            raise error("ACCEL_ERROR_UNSUPPORTED",
                        f"accel.{cls}: \"{item.strip()}\": {words[0]} is a NumPy dtype accel "
                        "kernels do not support (float32, float64, float16, bfloat16, int32, "
                        "int64, uint8); a placeholder type needs a name that is not a dtype")
        out.append(_Param(words[0], words[1], output))
    return out


def _is_numpy_dtype_name(name: str) -> bool:
    """Whether NumPy names a dtype so (int8, complex64, bool, ...), which CuPy
    would take as that dtype rather than as a placeholder. One-letter names
    (T, U, S: NumPy's type codes too) stay placeholders, as in CuPy."""
    if len(name) < 2:
        return False
    try:
        np.dtype(name)
    except TypeError:
        return False
    return True


def _scalar_arg(v: Any, cls: str, what: str) -> L.KernelArg:
    a = L.KernelArg()
    a.kind = L.KARG_SCALAR
    if isinstance(v, (bool, np.bool_)):
        a.dtype, a.i = L.I64, int(v)
    elif isinstance(v, np.integer) and np.dtype(type(v)) not in (np.int32, np.int64, np.uint8):
        return _scalar_arg(int(v), cls, what)  # by value: the C call checks it fits the param
    elif isinstance(v, np.generic) and np.dtype(type(v)) in _CODES:
        dt = np.dtype(type(v))
        a.dtype = _CODES[dt]
        if dt.kind == "f":
            a.f = float(v)
        else:
            a.i = int(v)
    elif isinstance(v, numbers.Integral):
        iv = int(v)
        if not -(1 << 63) <= iv < (1 << 63):
            raise error("ACCEL_ERROR_OUT_OF_RANGE",
                        f"accel.{cls}: {_what(what)}: {iv} does not fit in 64 bits")
        a.dtype, a.i = L.I64, iv
    elif isinstance(v, numbers.Real):
        a.dtype, a.f = L.F64, float(v)
    elif isinstance(v, np.ndarray):
        raise error("ACCEL_ERROR_DEVICE_MISMATCH",
                    f"accel.{cls}: {_what(what)} is a NumPy array (copy it to the device with "
                    "accel.asarray first)")
    else:
        raise TypeError(f"accel.{cls}: {_what(what)}: an accel.Array or a number, not "
                        f"{type(v).__name__}")
    return a


def _what(what: Any) -> str:
    """An argument's name for a message: a name, or its index in args."""
    return f"args[{what}]" if isinstance(what, int) else what


def _array_arg(x: Array, cls: str) -> L.KernelArg:
    """x as a kernel argument (made once per array: its slice never
    changes; _blk refuses a released one first)."""
    x._blk(cls)
    try:
        return x._karg
    except AttributeError:
        pass
    if x._st is not None:
        raise error("ACCEL_ERROR_UNSUPPORTED",
                    f"accel.{cls}: a strided view (shape {x.shape}, strides {x.strides}) as a "
                    "kernel argument; pass a C-contiguous array (x.copy())")
    a = L.KernelArg()
    a.kind = L.KARG_ARRAY
    a.dtype = x._code
    a.slice = x._slice
    x._karg = a
    return a


def _scalar_dtype(v: Any) -> np.dtype:
    """The dtype a placeholder takes from a scalar alone (as CuPy: a Python
    int is int64, a float float64, a NumPy scalar its own)."""
    if isinstance(v, np.generic):
        return np.dtype(type(v))
    if isinstance(v, (bool, numbers.Integral)):
        return np.dtype(np.int64)
    if isinstance(v, numbers.Real):
        return np.dtype(np.float64)
    return np.asarray(v).dtype  # complex, objects: refused by the caller


class _Compiled:
    """accel kernels of one Python kernel, one per set of placeholder dtypes,
    for the runtime they were made in."""

    def __init__(self) -> None:
        self.rt: Any = None
        self.handles: Dict[Any, int] = {}
        self.lock = threading.Lock()

    def get(self, key: Any, make) -> int:
        rt = runtime()
        h = self.handles.get(key) if self.rt is rt else None
        if h is not None:
            return h
        with self.lock:
            if self.rt is not rt:  # a new runtime (after accel.shutdown): start again
                self.rt, self.handles = rt, {}
            h = self.handles.get(key)
            if h is None:
                out = ctypes.c_void_p()
                check(make(rt.handle, ctypes.byref(out)))
                h = self.handles[key] = out.value
            return h

    def release(self) -> None:
        rt, handles = self.rt, self.handles
        self.rt, self.handles = None, {}
        if rt is not None and rt.alive:
            for h in handles.values():
                L.kernel_release(h)


def _options(cls: str, options: Sequence[str]) -> Optional[bytes]:
    if isinstance(options, str):
        options = (options,)
    opts = [str(o) for o in options]
    for o in opts:
        if not o or any(c.isspace() for c in o):
            raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                        f"accel.{cls}: option {o!r} (one NVRTC option a string, no spaces)")
    return " ".join(opts).encode() if opts else None


def _kopts(cuda: Optional[bytes]) -> L.KernelOptions:
    o = L.KernelOptions()
    L.kernel_options_init(ctypes.byref(o))
    o.cuda_options = cuda
    return o


class _TypedKernel:
    """What ElementwiseKernel and ReductionKernel share: parameters with
    placeholder types, one accel kernel per set of dtypes, and the launch."""

    _cls = "kernel"

    def __init__(self, in_params: str, out_params: str, name: str, options: Sequence[str],
                 preamble: str):
        cls = self._cls
        if preamble:
            raise error("ACCEL_ERROR_UNSUPPORTED",
                        f"accel.{cls}: preamble (code outside the body) is not supported; write "
                        "it in the body, or use a RawKernel")
        if not isinstance(name, str) or not _IDENT.match(name):
            raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                        f"accel.{cls}: name {name!r} is not a C identifier")
        self.name = name
        self.in_params = _parse(cls, in_params, False)
        self.out_params = _parse(cls, out_params, True)
        self.nin, self.nout = len(self.in_params), len(self.out_params)
        self.nargs = self.nin + self.nout
        params = self.in_params + self.out_params
        self.placeholders = sorted({p.type for p in params if p.type not in _KNOWN})
        self._cuda = _options(cls, options)
        self._compiled = _Compiled()
        # Fail early on a malformed kernel: create it once now when no
        # placeholder needs a dtype (libaccel checks names, types, the body's
        # declarations; the compile itself waits for a device).
        if not self.placeholders:
            self._handle({})

    def __del__(self) -> None:
        try:
            self._compiled.release()
        except Exception:
            pass

    def _subst(self, text: Optional[str], types: Dict[str, np.dtype], ctype: bool) \
            -> Optional[str]:
        if text is None or not self.placeholders:
            return text
        for t in self.placeholders:
            dt = types[t]
            text = re.sub(rf"\b{re.escape(t)}\b", _CTYPE[dt] if ctype else _NAME[dt], text)
        return text

    def _plist(self, params: List[_Param], types: Dict[str, np.dtype]) -> bytes:
        return ", ".join(f"{_NAME[types[p.type]] if p.type in types else p.type} {p.name}"
                         for p in params).encode()

    def _handle(self, types: Dict[str, np.dtype]) -> int:
        key = tuple(types[t] for t in self.placeholders)
        return self._compiled.get(key, lambda rt, out: self._create(rt, types, out))

    def _create(self, rt: int, types: Dict[str, np.dtype], out: Any) -> int:
        raise NotImplementedError

    def _bind(self, args: Sequence[Any], nout_given: int) -> Dict[str, np.dtype]:
        cls, types = self._cls, {}
        params = self.in_params + self.out_params[:nout_given]
        # Arrays first (they decide), then scalars for what is left.
        for p, a in zip(params, args):
            if p.type in _KNOWN or not isinstance(a, Array):
                continue
            got = types.setdefault(p.type, a._dtype)
            if got != a._dtype:
                raise error("ACCEL_ERROR_DTYPE_MISMATCH",
                            f"accel.{cls} {self.name}: {p.type} is {got} (from an earlier "
                            f"argument) but {p.name} is {a._dtype}")
        for p, a in zip(params, args):
            if p.type not in _KNOWN and not isinstance(a, Array) and p.type not in types:
                types[p.type] = _scalar_dtype(a)
        for t in self.placeholders:
            if t not in types:
                raise TypeError(f"accel.{cls} {self.name}: cannot tell the dtype of {t} from "
                                "the arguments (pass the outputs, or an input of that type)")
            if types[t] not in _CTYPE:
                raise error("ACCEL_ERROR_DTYPE_MISMATCH",
                            f"accel.{cls} {self.name}: {t} would be {types[t]}, which kernels "
                            "do not take")
        return types

    def _common_shape(self, ins: List[Any], kind: str, note: str) -> Optional[Tuple[int, ...]]:
        """The shape every array input shares (None when all are scalars).
        Raises ShapeMismatchError naming the first input whose shape differs
        from an earlier one's."""
        shape = None
        for a, p in zip(ins, self.in_params):
            if isinstance(a, Array):
                if shape is None:
                    shape = a._shape
                elif a._shape != shape:
                    raise error("ACCEL_ERROR_SHAPE_MISMATCH",
                                f"{kind} {self.name}: {p.name} has shape {a._shape}, an earlier "
                                f"input {shape}{note}")
        return shape

    def _split(self, args: Tuple[Any, ...], out: Any) -> Tuple[List[Any], List[Any]]:
        cls = self._cls
        if out is not None:
            if len(args) != self.nin:
                raise TypeError(f"accel.{cls} {self.name}: {self.nin} inputs with out=, got "
                                f"{len(args)}")
            outs = list(out) if isinstance(out, (tuple, list)) else [out]
            args = tuple(args) + tuple(outs)
        if len(args) not in (self.nin, self.nargs):
            raise TypeError(f"accel.{cls} {self.name}: takes {self.nin} inputs (and optionally "
                            f"{self.nout} outputs), got {len(args)} arguments")
        ins, outs = list(args[:self.nin]), list(args[self.nin:])
        for o, p in zip(outs, self.out_params):
            if not isinstance(o, Array):
                raise TypeError(f"accel.{cls} {self.name}: output {p.name} must be an "
                                f"accel.Array, not {type(o).__name__}")
        return ins, outs

    def _launch(self, h: int, dev: Device, kargs: List[L.KernelArg], arrays: List[Array],
                stream: Optional[Stream]) -> None:
        # The blocks are held until the launch returned (see Array.release).
        held = [a._blk(self._cls) for a in arrays]  # noqa: F841
        if stream is None:
            s = _prepare(dev, *arrays)
        else:
            if not isinstance(stream, Stream):
                raise TypeError(f"accel.{self._cls} {self.name}: stream must be an "
                                f"accel.Stream, not {type(stream).__name__}")
            if stream.device is not dev:
                raise error("ACCEL_ERROR_DEVICE_MISMATCH",
                            f"accel.{self._cls} {self.name}: the stream is on "
                            f"{stream.device.name}, the arrays on {dev.name}")
            s = stream
            for a in arrays:
                b = a._block
                if b.stream is not s:
                    s._join_from(b.stream)
                    b.stream = s
        qh = s._h()
        arr = (L.KernelArg * len(kargs))(*kargs)
        code = L.kernel_launch(qh, h, len(kargs), arr)
        if code:
            raise L.failed(code)

    def _device(self, arrays: List[Array], stream: Optional[Stream]) -> Device:
        if not arrays:
            return stream.device if isinstance(stream, Stream) else get_device(None)
        dev = arrays[0].device
        for a in arrays:
            a._blk(self._cls)
            if a.device is not dev:
                raise error("ACCEL_ERROR_DEVICE_MISMATCH",
                            f"accel.{self._cls} {self.name}: arrays on {dev.name} and "
                            f"{a.device.name} (move one with accel.asarray(x, device=...))")
        return dev

    def compile(self, device: Union[str, int, Device, None] = None, **dtypes: Any) -> None:
        """Compile now for `device` (default: the current device), inputs
        all arrays, placeholders given as keywords (``T=np.float32``), instead
        of at the first launch. Raises CompileError (``.line``, ``.log``),
        UnsupportedError (a device that has no compiler)."""
        types = {t: np.dtype(dtypes[t]) for t in self.placeholders if t in dtypes}
        missing = [t for t in self.placeholders if t not in types]
        if missing:
            raise TypeError(f"accel.{self._cls}.compile: give the dtype of {', '.join(missing)}")
        dev = get_device(device)
        check(L.kernel_build(self._handle(types), dev._handle, 0))


class ElementwiseKernel(_TypedKernel):
    """A kernel over elements, as cupy.ElementwiseKernel.

    ``ElementwiseKernel("float32 x, float32 y, float32 a", "float32 z",
    "z = a * x + y", "saxpy")`` makes a kernel; ``k(x, y, 2.0)`` returns a new
    ``z``, ``k(x, y, 2.0, z)`` (or ``out=z``) writes into `z`.

    in_params: "TYPE name, ..." (may be ""); out_params: at least one;
    operation: C statements for one element, seeing each parameter as one
    element, ``i`` (the index) and ``n`` (the count). Inputs: accel arrays of
    shapes that broadcast (NumPy's rule; strided and broadcast inputs are
    copied C-contiguous first) and one device, or Python/NumPy scalars.
    Outputs are made with the broadcast shape (``size=`` when every input is
    a scalar) unless passed; an output may be an input (in place).
    Enqueued on `stream` (an accel.Stream of the arrays' device), else the
    current stream. Returns the output (a tuple for several; None with
    no_return=True).
    Raises ShapeMismatchError, DtypeMismatchError (an array whose dtype is
    not its parameter's, or placeholders bound to two dtypes),
    DeviceMismatchError, CompileError (at the first launch on a device),
    TypeError (argument count), ReleasedError."""

    _cls = "ElementwiseKernel"

    def __init__(self, in_params: str, out_params: str, operation: str, name: str = "kernel",
                 reduce_dims: bool = True, preamble: str = "", no_return: bool = False,
                 return_tuple: bool = False, loop_prep: str = "", after_loop: str = "",
                 options: Sequence[str] = ()):
        if loop_prep or after_loop:
            raise error("ACCEL_ERROR_UNSUPPORTED",
                        "accel.ElementwiseKernel: loop_prep and after_loop are not supported")
        if not isinstance(operation, str):
            raise TypeError("accel.ElementwiseKernel: operation must be a string of C code")
        self.operation = operation
        self.no_return = no_return
        self.return_tuple = return_tuple
        super().__init__(in_params, out_params, name, options, preamble)
        if not self.out_params:
            raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                        f"accel.ElementwiseKernel {name}: out_params needs at least one output")

    def _broadcast(self, ins: List[Any], outs: List[Any]) -> List[Any]:
        """The array inputs broadcast to one shape (the outputs' when given)
        as C-contiguous arrays (accel_array_copy of the broadcast view)."""
        shapes = [a.shape for a in ins + outs if isinstance(a, Array)]
        try:
            shape = np.broadcast_shapes(*shapes) if shapes else None
        except ValueError:
            raise error("ACCEL_ERROR_SHAPE_MISMATCH",
                        f"accel.ElementwiseKernel {self.name}: shapes {shapes} do not "
                        "broadcast") from None
        return [a if not isinstance(a, Array) or (a._shape == shape and a._st is None)
                else contiguous(ns.broadcast_to(a, shape)) for a in ins]

    def _create(self, rt: int, types: Dict[str, np.dtype], out: Any) -> int:
        o = _kopts(self._cuda)
        return L.kernel_elementwise_create(
            rt, self.name.encode(), self._plist(self.in_params, types),
            self._plist(self.out_params, types),
            self._subst(self.operation, types, True).encode(), ctypes.byref(o), out)

    def __call__(self, *args: Any, out: Any = None, size: Optional[int] = None,
                 stream: Optional[Stream] = None) -> Any:
        ins, outs = self._split(args, out)
        ins = self._broadcast(ins, outs)
        in_arrays = [a for a in ins if isinstance(a, Array)]
        shape = self._common_shape(ins, "accel.ElementwiseKernel", "")
        for o, p in zip(outs, self.out_params):
            if shape is None:
                shape = o._shape
            elif o._shape != shape:
                raise error("ACCEL_ERROR_SHAPE_MISMATCH",
                            f"accel.ElementwiseKernel {self.name}: output {p.name} has shape "
                            f"{o._shape}, the inputs {shape}")
        if size is not None:
            if isinstance(size, (bool, np.bool_)) or not isinstance(size, numbers.Integral):
                raise TypeError(f"accel.ElementwiseKernel {self.name}: size= is a number of "
                                f"elements (an int), not {type(size).__name__}")
            size = int(size)
            if size < 0:
                raise ValueError(f"accel.ElementwiseKernel {self.name}: size={size} is negative")
            if shape is not None and math.prod(shape) != size:
                raise error("ACCEL_ERROR_SHAPE_MISMATCH",
                            f"accel.ElementwiseKernel {self.name}: size={size} but the arrays "
                            f"have {math.prod(shape)} elements")
            if shape is None:
                shape = (int(size),)
        if shape is None:
            raise TypeError(f"accel.ElementwiseKernel {self.name}: every argument is a scalar; "
                            "give size= (the number of elements)")
        types = self._bind(ins + outs, len(outs))
        dev = self._device(in_arrays + outs, stream)
        if not outs:
            for p in self.out_params:
                dt = np.dtype(_TYPES[p.type] if p.type in _TYPES else types.get(p.type))
                if p.type == "bfloat16":
                    raise error("ACCEL_ERROR_DTYPE_MISMATCH",
                                f"accel.ElementwiseKernel {self.name}: a bfloat16 output must "
                                "be passed (NumPy has no bfloat16)")
                outs.append(_alloc(shape, dt, dev))
        h = self._handle(types)
        kargs = [(_array_arg(a, self._cls) if isinstance(a, Array) else
                  _scalar_arg(a, self._cls, p.name)) for a, p in zip(ins, self.in_params)]
        kargs += [_array_arg(o, self._cls) for o in outs]
        self._launch(h, dev, kargs, in_arrays + outs, stream)
        if self.no_return:
            return None
        if len(outs) == 1 and not self.return_tuple:
            return outs[0]
        return tuple(outs)


class ReductionKernel(_TypedKernel):
    """A reduction, as cupy.ReductionKernel.

    ``ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0",
    "l2norm")``: map_expr is applied to each element (of the inputs, ``i``
    the index), reduce_expr combines two values ``a`` and ``b`` starting from
    `identity`, post_map_expr turns the total ``a`` into the output ("a",
    "sqrt(a)" or CuPy's "y = sqrt(a)"). ``k(x)`` reduces every element into a
    0-d array; ``k(x, axis=-1)`` the last axis (output shape ``x.shape[:-1]``;
    ``keepdims=True`` keeps it as 1). The order is fixed and the same on
    every device (kernel.h), so results are the same run to run. Inputs: one
    shape (or scalars); the output (out= or a last argument) has the
    reduced shape. Raises UnsupportedError (another axis), ShapeMismatchError,
    DtypeMismatchError, DeviceMismatchError, CompileError, ReleasedError."""

    _cls = "ReductionKernel"

    def __init__(self, in_params: str, out_params: str, map_expr: str, reduce_expr: str,
                 post_map_expr: str, identity: Optional[str], name: str = "reduce_kernel",
                 reduce_type: Optional[str] = None, reduce_dims: bool = True,
                 preamble: str = "", options: Sequence[str] = ()):
        for what, v in (("map_expr", map_expr), ("reduce_expr", reduce_expr),
                        ("post_map_expr", post_map_expr)):
            if v is not None and not isinstance(v, str):
                raise TypeError(f"accel.ReductionKernel: {what} must be a string")
        if identity is None:
            raise error("ACCEL_ERROR_UNSUPPORTED",
                        "accel.ReductionKernel: an identity is needed (accel folds every lane "
                        "from it)")
        self.map_expr, self.reduce_expr = map_expr, reduce_expr
        self.post_map_expr, self.identity = post_map_expr or "a", str(identity)
        self.reduce_type = reduce_type
        super().__init__(in_params, out_params, name, options, preamble)
        if self.nout != 1:
            raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                        f"accel.ReductionKernel {name}: out_params needs exactly one output")
        if reduce_type is not None:
            op = self.out_params[0].type
            if reduce_type != op:
                raise error("ACCEL_ERROR_UNSUPPORTED",
                            f"accel.ReductionKernel {name}: reduce_type {reduce_type} (accel "
                            f"reduces in the output's type, {op})")

    def _create(self, rt: int, types: Dict[str, np.dtype], out: Any) -> int:
        o = _kopts(self._cuda)
        return L.kernel_reduction_create(
            rt, self.name.encode(), self._plist(self.in_params, types),
            self._plist(self.out_params, types),
            self._subst(self.map_expr, types, True).encode(),
            self._subst(self.reduce_expr, types, True).encode(),
            self._subst(self.identity, types, True).encode(),
            self._subst(self.post_map_expr, types, True).encode(), ctypes.byref(o), out)

    def __call__(self, *args: Any, out: Optional[Array] = None, axis: Any = None,
                 keepdims: bool = False, stream: Optional[Stream] = None) -> Array:
        ins, outs = self._split(args, out)
        ins = [contiguous(a) if isinstance(a, Array) else a for a in ins]
        in_arrays = [a for a in ins if isinstance(a, Array)]
        shape = self._common_shape(ins, "accel.ReductionKernel", "")
        if shape is None:
            raise TypeError(f"accel.ReductionKernel {self.name}: at least one input must be an "
                            "accel.Array")
        nd = len(shape)
        axes = axis if isinstance(axis, tuple) else (() if axis is None else (axis,))
        axes = tuple(sorted({int(x) + nd if int(x) < 0 else int(x) for x in axes}))
        if any(not 0 <= x < nd for x in axes):
            raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                        f"accel.ReductionKernel {self.name}: axis {axis} for a {nd}-d input")
        if axis is None or axes == tuple(range(nd)):
            rshape = ()
            kshape = (1,) * nd
        elif axes == (nd - 1,):
            rshape = shape[:-1]
            kshape = shape[:-1] + (1,)
        else:
            raise error("ACCEL_ERROR_UNSUPPORTED",
                        f"accel.ReductionKernel {self.name}: axis {axis} (accel reduces all "
                        "elements or the last axis)")
        oshape = kshape if keepdims else rshape
        types = self._bind(ins + outs, len(outs))
        dev = self._device(in_arrays + outs, stream)
        if outs:
            o = outs[0]
            if o._shape != oshape and o._size != math.prod(rshape):
                raise error("ACCEL_ERROR_SHAPE_MISMATCH",
                            f"accel.ReductionKernel {self.name}: out has shape {o._shape}, the "
                            f"reduction {oshape}")
        else:
            p = self.out_params[0]
            dt = np.dtype(_TYPES[p.type] if p.type in _TYPES else types.get(p.type))
            o = _alloc(oshape, dt, dev)
        if o._size == 0:  # no rows (a (0, n) input along its last axis): nothing to reduce
            return o
        h = self._handle(types)
        kargs = [(_array_arg(a, self._cls) if isinstance(a, Array) else
                  _scalar_arg(a, self._cls, p.name)) for a, p in zip(ins, self.in_params)]
        kargs.append(_array_arg(o, self._cls))
        self._launch(h, dev, kargs, in_arrays + [o], stream)
        return o


# Launch dimensions already converted, by their Python value: a loop that
# launches with the same grid and block converts them once.
_DIMS_CACHE: dict = {}


def _dims(v: Any, what: str) -> Any:
    try:
        return _DIMS_CACHE[v]
    except (KeyError, TypeError):
        pass
    d = _dims_of(v, what)
    if len(_DIMS_CACHE) < 1024 and (isinstance(v, int) or (
            isinstance(v, tuple) and all(type(x) is int for x in v))):
        _DIMS_CACHE[v] = d  # the C call only reads it
    return d


def _dims_of(v: Any, what: str) -> Any:
    if isinstance(v, numbers.Integral):
        t = (int(v),)
    else:
        try:
            items = tuple(v)
        except TypeError:
            items = None
        # a float (1.5) was truncated by int(): refused, as CuPy refuses it
        if items is None or not all(isinstance(x, numbers.Integral) for x in items):
            raise TypeError(f"accel.RawKernel: {what} is an int or a tuple of up to 3 ints, "
                            f"not {v!r}")
        t = tuple(int(x) for x in items)
    if not 1 <= len(t) <= 3:
        raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                    f"accel.RawKernel: {what} {t} has {len(t)} dimensions (1 to 3)")
    if any(x < 1 or x > 0xffffffff for x in t):
        raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                    f"accel.RawKernel: {what} {t}: each dimension is 1 to 2**32 - 1 (the "
                    "launch's own limits, smaller, are checked by the device)")
    return (ctypes.c_uint32 * 3)(*(t + (1,) * (3 - len(t))))


class RawKernel:
    """A __global__ function of CUDA C source, as cupy.RawKernel:
    ``k = RawKernel(code, "vector_add"); k((blocks,), (threads,), (a, b, c,
    n))``. ``extern "C"`` is added around the source (as PyCUDA does). On a
    GPU it runs with NVRTC; on the CPU as its twin (the same source compiled
    as C, every block and thread in order; shared memory, __syncthreads,
    warp intrinsics and atomics are UnsupportedError there, naming the
    construct).

    Call ``k(grid, block, args)``: grid and block are ints or tuples of up
    to 3 (CUDA's limits on every device: block x*y*z <= 1024, ...); args a
    tuple: accel arrays for pointer parameters (the dtype checked against
    the pointee type when it is one of float, double, int, long long,
    int64_t, unsigned char, uint8_t), numbers for the others (converted to
    the parameter's type; a float for an integer parameter is refused). The
    arrays must share one device, which runs the kernel (the current device
    when there is none). Raises InvalidArgumentError (argument count, a
    scalar for a pointer, the grid), DtypeMismatchError,
    DeviceMismatchError, CompileError (``.line``), UnsupportedError,
    ReleasedError."""

    def __init__(self, code: str, name: str, options: Sequence[str] = (),
                 backend: str = "nvrtc", translate_cucomplex: bool = False,
                 enable_cooperative_groups: bool = False, jitify: bool = False):
        if not isinstance(code, str) or not isinstance(name, str):
            raise TypeError("accel.RawKernel: code and name are strings")
        if enable_cooperative_groups or jitify or translate_cucomplex:
            raise error("ACCEL_ERROR_UNSUPPORTED",
                        "accel.RawKernel: cooperative groups, jitify and cuComplex translation "
                        "are not supported")
        self.code, self.name = code, name
        self.options = tuple(options) if not isinstance(options, str) else (options,)
        self._cuda = _options("RawKernel", options)
        self._compiled = _Compiled()
        self._handle()  # libaccel finds the entry and its parameters now

    def __del__(self) -> None:
        try:
            self._compiled.release()
        except Exception:
            pass

    def _handle(self) -> int:
        def make(rt: int, out: Any) -> int:
            o = _kopts(self._cuda)
            return L.kernel_raw_create(rt, self.code.encode(), self.name.encode(),
                                       ctypes.byref(o), out)
        return self._compiled.get(None, make)

    def compile(self, device: Union[str, int, Device, None] = None) -> None:
        """Compile now for `device` (default: the current device) instead of
        at the first launch. Raises CompileError (``.line``, ``.log``),
        UnsupportedError (the CPU twin cannot run a construct)."""
        check(L.kernel_build(self._handle(), get_device(device)._handle, 0))

    def __call__(self, grid: Any, block: Any, args: Sequence[Any], *,
                 shared_mem: int = 0, debug: bool = False) -> None:
        """Launch with `grid` x `block` threads. shared_mem: bytes of dynamic
        shared memory per block (the ``extern __shared__`` array, at most
        49152). debug=True: a debug launch on the CPU twin (also for a GPU's
        arrays) with every indexing of a pointer parameter or shared array
        checked; an out-of-bounds access or a shared-memory race raises
        AccelError (status ACCEL_ERROR_KERNEL_FAULT) at the next synchronization, naming the kernel,
        block, thread, line, argument and index."""
        if not isinstance(shared_mem, int) or isinstance(shared_mem, bool) or shared_mem < 0:
            raise TypeError(f"accel.RawKernel {self.name}: shared_mem is a byte count >= 0")
        if not isinstance(args, (tuple, list)):
            raise TypeError(f"accel.RawKernel {self.name}: args is a tuple (a, b, n), not "
                            f"{type(args).__name__}")
        g, b = _dims(grid, "grid"), _dims(block, "block")
        arrays = [a for a in args if isinstance(a, Array)]
        dev = arrays[0].device if arrays else get_device(None)
        for a in arrays:
            a._blk("RawKernel")
            if a.device is not dev:
                raise error("ACCEL_ERROR_DEVICE_MISMATCH",
                            f"accel.RawKernel {self.name}: arrays on {dev.name} and "
                            f"{a.device.name}")
        h = self._handle()
        kargs = [(_array_arg(a, "RawKernel") if isinstance(a, Array) else
                  _scalar_arg(a, "RawKernel", i)) for i, a in enumerate(args)]
        s = _prepare(dev, *arrays)
        arr = (L.KernelArg * max(len(kargs), 1))(*kargs)
        if shared_mem or debug:
            o = L.KernelLaunchOptions()
            L.kernel_launch_options_init(ctypes.byref(o))
            o.shared_bytes, o.debug = shared_mem, 1 if debug else 0
            code = L.kernel_launch_grid_ex(s._h(), h, g, b, ctypes.byref(o), len(kargs), arr)
        else:
            code = L.kernel_launch_grid(s._h(), h, g, b, len(kargs), arr)
        if code:
            raise L.failed(code)


class RawModule:
    """CUDA C source with one or more __global__ functions, as
    cupy.RawModule (and PyCUDA's SourceModule): ``RawModule(code=src)
    .get_function("multiply_them")`` is a :class:`RawKernel`. Each function
    is checked when it is first asked for (InvalidArgumentError for a name
    the source does not define) and compiled at its first launch."""

    def __init__(self, code: Optional[str] = None, *, path: Optional[str] = None,
                 options: Sequence[str] = (), backend: str = "nvrtc",
                 translate_cucomplex: bool = False, enable_cooperative_groups: bool = False,
                 name_expressions: Optional[Sequence[str]] = None, jitify: bool = False):
        if (code is None) == (path is None):
            raise TypeError("accel.RawModule: give code= or path=, one of them")
        if path is not None:
            raise error("ACCEL_ERROR_UNSUPPORTED",
                        "accel.RawModule: path= (a cubin or PTX file); give the source as code=")
        if name_expressions:
            raise error("ACCEL_ERROR_UNSUPPORTED",
                        "accel.RawModule: name_expressions (C++ templates)")
        self.code = code
        self.options = options
        self._kernels: Dict[str, RawKernel] = {}
        self._extra = (translate_cucomplex, enable_cooperative_groups, jitify)

    def get_function(self, name: str) -> RawKernel:
        """The __global__ function `name` as a RawKernel."""
        k = self._kernels.get(name)
        if k is None:
            tc, cg, jit = self._extra
            k = self._kernels[name] = RawKernel(self.code, name, self.options,
                                                translate_cucomplex=tc,
                                                enable_cooperative_groups=cg, jitify=jit)
        return k


__all__ = ["ElementwiseKernel", "ReductionKernel", "RawKernel", "RawModule"]
