# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""The per-op fast path: the elementwise functions of libaccel's op table
(accel_op_info) under their NumPy names (add, subtract, multiply, divide,
maximum, minimum, negative, absolute, sqrt, exp, log, tanh, sin, cos,
expit, relu), and Array's +, -, *, / and unary -, abs() through them.

Two C-contiguous float32/float64 arrays of one shape, dtype and device go
straight to accel_binary/accel_unary (through the _accel_fast extension
where it loaded, else ctypes): one Python call and one C call; where the
extension loaded, a new result's common case is made in C
(_accel_fast.new_result, and Array's operators as its method descriptors:
accel_fast.c), and the rest comes here. Where the extension loaded, two
C-contiguous integer or complex arrays of one shape, dtype and device also
go from C straight to the op's array function (accel_array_binary/unary,
for the dtypes whose result is their own: _c_array_fns). Everything else
(broadcasting, promotion, strided views, the other dtypes) is the
namespace's function of the same name (_namespace.py, the C array layer).
"""
from __future__ import annotations

import ctypes
from typing import Any, Callable, Optional, Tuple, Union

import numpy as np

from . import _lib as L
from . import _namespace as ns
from ._array import (Array, _alloc, _join, _new_array, _op_failed, _released, _released_stream,
                     contiguous, fill)
from ._core import _BLOCK_SERIALS, Device, Stream, _Block, _current_set, _tls
from ._lib import error

Scalar = Union[int, float]
_OPS = L.op_table()
_c_binary = L.binary_raw
_c_unary = L.unary_raw
_f_binary = L.fast.binary if L.fast is not None else None
_f_unary = L.fast.unary if L.fast is not None else None


def _load_new_result() -> Optional[Callable[..., Any]]:
    """_accel_fast.new_result, set up with Array's and _Block's types, or
    None without the extension: the common case of a result made in C (the
    first branch of _binary_op's and _unary_op's paths; accel_fast.c)."""
    if L.fast is None or not hasattr(L.fast, "init_arrays"):
        return None
    try:
        L.fast.init_arrays(Array, _Block, _current_set, _BLOCK_SERIALS)
    except TypeError:  # a field renamed without accel_fast.c: the Python path alone
        return None
    return L.fast.new_result


_f_new = _load_new_result()
# _accel_fast.into: the out= branch's common case in C (set up by init_arrays,
# as _f_new; None where the extension predates it)
_f_into = getattr(L.fast, "into", None) if _f_new is not None else None
_EXACT_INT = 1 << 53


def _scalar_operands(a: Any, b: Any) -> Tuple[Any, Any]:
    """A float array and a Python float (or an int a float holds exactly):
    the scalar as a filled array of the other's shape and dtype, which is
    the standard's promotion for them. (None, None) for anything else."""
    if a.__class__ is Array:
        arr, v = a, b
    elif b.__class__ is Array:
        arr, v = b, a
    else:
        return None, None
    t = v.__class__
    if arr._code > 2 or arr._st is not None or not (
            t is float or (t is int and -_EXACT_INT <= v <= _EXACT_INT)):
        return None, None
    full = fill(_alloc(arr._shape, arr._dtype, arr.device), v)
    return (arr, full) if arr is a else (full, arr)


def _cur_stream(dev: Device) -> Stream:
    # The current stream of dev while a ``with Stream()`` is open somewhere.
    cur = _tls.streams
    s = cur.get(dev._handle) if cur else None
    return s if s is not None else (dev._null or dev.null_stream)


def _pool_block(dev: Device, nbytes: int, s: Stream) -> Any:
    """The per-op path's result block: the newest free block of its size
    when stream `s` used it last (a list pop), else the pool's search
    (MemoryPool.malloc: none of this size yet, another stream's block on
    top, or one taken by another thread meanwhile)."""
    lst = dev._free.get(nbytes)
    if lst:
        try:
            if lst[-1].stream is s:
                bo = lst.pop()
                bo.serial = next(_BLOCK_SERIALS)  # handed out again (accel.fuse)
                return bo
        except IndexError:
            pass
    return dev._rt.pool.malloc(dev, nbytes, s)


def _partly(o: int, i: int, n: int) -> bool:
    """Whether the n-element ranges at element offsets o and i of one block
    overlap without being the same range (what the C call refuses)."""
    return o != i and o < i + n and i < o + n


def _binary_op(op: int, fn: str, slow: Callable[..., Array]) -> Callable[..., Array]:
    """The whole per-op path of binary op `op` as one function, so that ``z
    = x + y`` is one Python call and one C call (accel_binary, through
    _accel_fast where it is, else ctypes; the extension's new_result and
    into do this function's common case, a new result or out=, in C): every check
    compares cached fields, the output's block comes off the device's free
    list (MemoryPool) and its slice is the block's own, and the stream
    lookup is a flag test unless a ``with Stream()`` is open. Anything
    unusual (a pool miss, another stream's buffers) leaves for a helper;
    anything but two C-contiguous float32/float64 arrays of one shape, dtype
    and device (or one and a Python float or small int) is `slow`'s: the C
    array layer's broadcasting, promoting function of the namespace
    (python/bench/overhead.py measures this path)."""

    def f(x1: Union[Array, Scalar], x2: Union[Array, Scalar], out: Optional[Array] = None) \
            -> Array:
        if out is None and _f_new is not None:
            r = _f_new(op, x1, x2)  # the common case in C, else None
        elif _f_into is not None:
            r = _f_into(op, x1, x2, out)  # out='s common case in C (keep in step: into)
        else:
            r = None
        if r is not None:
            if r.__class__ is int:
                if L.alias_refused(r):
                    return slow(x1, x2, out)
                raise _op_failed(r, fn, x1)
            return r
        a, b = x1, x2
        if a.__class__ is not Array or b.__class__ is not Array:
            a, b = _scalar_operands(a, b)
            if a is None:
                return slow(x1, x2, out)
        ba = a._block
        bb = b._block
        if ba is None or bb is None:
            raise _released(fn)
        shape = a._shape
        dt = a._dtype
        dev = a.device
        if (b._shape != shape or b._dtype is not dt or b.device is not dev or a._code > 2
                or a._st is not None or b._st is not None):
            return slow(a, b, out)
        s = _cur_stream(dev) if _current_set[0] else (dev._null or dev.null_stream)
        qh = s._handle
        if qh is None:
            raise _released_stream(fn, dev)
        if out is None:
            n = a._size
            nb = a._nb
            bo = _pool_block(dev, nb, s)
            out = _new_array(Array)
            out._ro = False
            out._cvc = None
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
            out._st = None
            out.device = dev
        else:
            if out.__class__ is Array and out._block is None:
                raise _released(fn)  # before any work (the namespace's path computes first)
            if (out.__class__ is not Array or out._shape != shape or out._dtype is not dt
                    or out.device is not dev or out._block is None or out._st is not None
                    or out._ro
                    # out partly over an operand (x[1:] += x[:-1]): NumPy's answer, through
                    # a temporary (the C call refuses a partial overlap)
                    or (out._block is ba and _partly(out._offset, a._offset, a._size))
                    or (out._block is bb and _partly(out._offset, b._offset, b._size))):
                return slow(a, b, out)
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
            if L.alias_refused(code):
                return slow(a, b, out)
            raise _op_failed(code, fn, a)
        return out

    f._accel_op = op  # type: ignore[attr-defined]
    return f


def _unary_op(op: int, fn: str, slow: Callable[..., Array]) -> Callable[..., Array]:
    """The per-op path of unary op `op` (as _binary_op; accel_unary)."""

    def f(x: Array, out: Optional[Array] = None) -> Array:
        if out is None and _f_new is not None:
            r = _f_new(op, x)
        elif _f_into is not None:
            r = _f_into(op, x, out)
        else:
            r = None
        if r is not None:
            if r.__class__ is int:
                if L.alias_refused(r):
                    return slow(x, out)
                raise _op_failed(r, fn, x)
            return r
        if x.__class__ is not Array or x._code > 2 or x._st is not None:
            return slow(x, out)
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
            bo = _pool_block(dev, nb, s)
            out = _new_array(Array)
            out._ro = False
            out._cvc = None
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
            out._st = None
            out.device = dev
        else:
            if out.__class__ is Array and out._block is None:
                raise _released(fn)
            if (out.__class__ is not Array or out._shape != x._shape
                    or out._dtype is not x._dtype or out.device is not dev
                    or out._block is None or out._st is not None
                    or out._ro
                    or (out._block is bx and _partly(out._offset, x._offset, x._size))):
                return slow(x, out)
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
            if L.alias_refused(code):
                return slow(x, out)
            raise _op_failed(code, fn, x)
        return out

    f._accel_op = op  # type: ignore[attr-defined]
    return f


def _into(fn: str, r: Array, out: Optional[Array], inplace: bool = False) -> Array:
    """r, or r written into out: converted to out's dtype within a kind
    (NumPy's out= with casting="same_kind"); in place (out an operand: x +=
    y) only when r has out's dtype, as the standard says."""
    if out is None or r is out:
        return r
    if out.__class__ is not Array:
        raise TypeError(f"accel.{fn}: out must be an accel.Array, not {type(out).__name__}")
    if out.shape != r.shape:
        raise error("ACCEL_ERROR_SHAPE_MISMATCH",
                    f"accel.{fn}: out has shape {out.shape}, the result {r.shape}")
    if (r.dtype != out.dtype and inplace) or not np.can_cast(r.dtype, out.dtype, "same_kind"):
        raise error("ACCEL_ERROR_DTYPE_MISMATCH",
                    f"accel: in-place {fn} (or out=) gives {r.dtype}, but out is {out.dtype}")
    ns.copyto(out, r)
    return out


def _strict_in_place(a: Any, b: Any, out: Optional[Array]) -> bool:
    """out is an operand and the other one is not a NumPy scalar: then the
    result must have out's dtype (the standard). `x += np.float64(2)` on a
    float32 x converts, as NumPy does (NumPy scalars keep their dtype in the
    promotion, NEP 50, but NumPy casts them into x within a kind)."""
    if out is None or (out is not a and out is not b):
        return False
    return not isinstance(b if out is a else a, np.generic)


def _table_fn(name: str, arity: int) -> bool:
    """Whether the namespace's name is accel_array_fn's elementwise function
    of that arity (which then writes into a fitting out= itself)."""
    f = ns.C.FUNCTIONS.get(name)
    return f is not None and f[1] == arity and name != "astype"


def _slow_binary(name: str, fn: str) -> Callable[..., Array]:
    """The array functions' path of a binary op: out= of the result's
    dtype, shape and device written directly (add int32 2^28 into out= had
    taken a temporary and a copy, 1.6x the time on an H200), else through
    a temporary converted into out (_into)."""
    g = getattr(ns, name)
    if _table_fn(name, 2):
        return lambda a, b, out=None: _into(fn, ns._binary(name, a, b, out), out,
                                            _strict_in_place(a, b, out))
    return lambda a, b, out=None: _into(fn, g(a, b), out, _strict_in_place(a, b, out))


def _slow_unary(name: str, fn: str) -> Callable[..., Array]:
    g = getattr(ns, name)
    if _table_fn(name, 1):
        return lambda x, out=None: _into(fn, ns._unary(name, x, out), out)
    return lambda x, out=None: _into(fn, g(x), out)


def _contiguous_unary(fn: str, f: Callable[..., Array]) -> Callable[..., Array]:
    """The slow path of an op only the op table has (relu, expit): a
    strided float view copied contiguous first."""
    def slow(x: Any, out: Optional[Array] = None) -> Array:
        if x.__class__ is not Array:
            raise TypeError(f"accel.{fn}: x must be an accel.Array (got {type(x).__name__})")
        if x._code > 2:
            raise error("ACCEL_ERROR_DTYPE_MISMATCH",
                        f"accel.{fn}: {x.dtype} arrays (accel.{fn} takes float32, float64)")
        xc = contiguous(x)
        if out is None or (xc is not x and out._st is None):
            return f(xc, out)  # a fresh copy cannot overlap out
        # x itself (the fast path sent it here: out partly over it, or over
        # it through another buffer) or a strided out (o[::2], which it
        # dropped): into a temporary, then copied; f(x, out) again looped
        return _into(fn, f(xc), out)
    return slow


_DOC = """{what}, elementwise: NumPy's ``{name}`` ({via}).

float32 and float64 arrays of one shape take accel_{c} directly (float16
is refused there: DtypeMismatchError){others}. Operands: accel arrays (broadcast together, dtypes promoted by the Array
API standard's table, NumPy's where the standard has no rule) or Python
scalars. out: an array of the result's shape to write into (converted to
its dtype; may be an operand: in place). Returns the result (out when
given); enqueued on the current stream. {acc}
Raises ValueError (ShapeMismatchError: shapes that do not broadcast),
TypeError (DtypeMismatchError: a dtype the function does not take),
DeviceMismatchError, ReleasedError (a released array)."""

_EXACT = "Correctly rounded: the same result as NumPy, bit for bit."
_ULP = ("Within the backend's documented bound (CPU: glibc, exp/log <= 2 ulp, tanh <= 3 "
        "ulp; CUDA: the CUDA Math API's bounds); backends agree within 4 ulp.")
_MAXMIN = ("Exact (IEEE 754-2019 maximum/minimum); as NumPy except for a -0/+0 pair, where "
           "NumPy's result depends on the operand order and accel's does not.")
# What each elementwise op computes and how accurately, for its docstring;
# an op of the table without a line here gets its C expression and the
# table's tolerance instead.
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
# Python names beside the table's NumPy names (NumPy's own aliases), and
# the namespace's name of a table op where it differs.
_ALIASES = {"abs": ("absolute",), "div": ("true_divide",), "sigmoid": ("expit",)}
_NS_NAME = {"absolute": "abs"}


def _elementwise_from_table() -> dict:
    """Every binary and unary op of the table as a function, under each of
    its NumPy names (and _ALIASES)."""
    made = {}
    for c, (code, kind, numpy_names, expr) in _OPS.items():
        if kind not in (L.OP_KIND_BINARY, L.OP_KIND_UNARY) or not numpy_names:
            continue
        name = numpy_names[0]
        what, acc = _WHAT.get(c, (expr, "Within the op table's tolerance (accel_op_info)."))
        nsn = _NS_NAME.get(name, name)
        binary = kind == L.OP_KIND_BINARY
        if hasattr(ns, nsn):
            slow = (_slow_binary if binary else _slow_unary)(nsn, name)
            via = f"accel_{c}, else accel_array_fn {nsn}"
            others = ("; other dtypes the array layer's function (with _accel_fast, integer "
                      "and complex ones of one shape\nfrom C directly)")
            f = (_binary_op if binary else _unary_op)(code, name, slow)
        else:
            holder: list = []
            # holder bound now (a default): the loop rebinds the name, and a
            # closure over it sent every op's strided case to the last op's
            # path (relu(x[::2]) computed expit)
            f = _unary_op(code, name, lambda x, out=None, h=holder: h[0](x, out))
            holder.append(_contiguous_unary(name, f))
            via = f"accel_{c}; float32 and float64"
            others = "; other dtypes are refused (DtypeMismatchError)"
        f.__name__ = f.__qualname__ = name
        f.__doc__ = _DOC.format(what=what, name=name, via=via, acc=acc, c=c, others=others)
        for n in numpy_names + _ALIASES.get(c, ()):
            made[n] = f
    return made


ELEMENTWISE = _elementwise_from_table()
add, subtract, multiply, divide = (ELEMENTWISE[n] for n in ("add", "subtract", "multiply", "divide"))
negative, absolute = ELEMENTWISE["negative"], ELEMENTWISE["absolute"]

Array.__add__ = add  # type: ignore[assignment]
Array.__sub__ = subtract  # type: ignore[assignment]
Array.__mul__ = multiply  # type: ignore[assignment]
Array.__truediv__ = divide  # type: ignore[assignment]
Array.__neg__ = negative  # type: ignore[assignment]
Array.__abs__ = absolute  # type: ignore[assignment]


def _c_operators() -> None:
    """Where _accel_fast loaded: Array's +, -, *, /, unary - and abs() as
    its method descriptors (accel_fast.c: the common case in C, else the
    function above), and Array.__del__'s common case in C (else the Python
    __del__). Each saves the interpreter a frame per op."""
    if _f_new is None:
        return
    for k, name in enumerate(_PY_OPERATORS):
        f = _PY_OPERATORS[name]
        if name == "__del__":
            Array.__del__ = L.fast.finalizer(f)  # type: ignore[method-assign]
        else:
            others = 0 if name in ("__neg__", "__abs__") else 1
            setattr(Array, name,
                    L.fast.operator(k, f._accel_op, others, f))  # type: ignore[attr-defined]


# Array's operators and __del__ as Python functions (the tests put them back
# to try the Python path where the extension replaced them).
_PY_OPERATORS = {"__add__": add, "__sub__": subtract, "__mul__": multiply, "__truediv__": divide,
                 "__neg__": negative, "__abs__": absolute, "__del__": Array.__dict__["__del__"]}


def _kept_dtypes(name: str, arity: int) -> int:
    """The dtype codes (a bit each) whose arrays the namespace's function
    `name` computes in their own dtype with nothing before the C call: not
    bool (its rules), a kind the function takes (no conversion to float64:
    _namespace._floats) and a result of the operands' dtype
    (_namespace._result_dtype). 0 for a name that is no array function of
    that arity."""
    if not _table_fn(name, arity):
        return 0
    kinds, mask = ns.C.KINDS[name], 0
    for dt, code in ns.C.CODES.items():
        k = ns.C.dtype_kind_of(code)
        if dt.kind != "b" and kinds & (1 << k) and ns._result_dtype(name, *([dt] * arity)) == dt:
            mask |= 1 << code
    return mask


def _c_array_fns() -> None:
    """Where _accel_fast can (init_array_fns), the array function behind
    each op of the table and the dtypes it keeps (_kept_dtypes): new_result,
    into and Array's operators in C then take int, uint, float16 and complex
    operands of one shape too, calling accel_array_binary/unary (a
    1024-element int32 add from Python had gone through the namespace's
    Python, about 20 us a call on the 2-core VM)."""
    if _f_new is None or not hasattr(L.fast, "init_array_fns"):
        return
    table = []
    for c, (code, kind, numpy_names, _) in _OPS.items():
        if kind not in (L.OP_KIND_BINARY, L.OP_KIND_UNARY) or not numpy_names:
            continue
        name = _NS_NAME.get(numpy_names[0], numpy_names[0])
        mask = _kept_dtypes(name, 2 if kind == L.OP_KIND_BINARY else 1)
        if mask:
            table.append((code, ns.C.FUNCTIONS[name][0], mask))
    L.fast.init_array_fns(ctypes.cast(ns.C.binary, ctypes.c_void_p).value,
                          ctypes.cast(ns.C.unary, ctypes.c_void_p).value, table)


_c_array_fns()
_c_operators()
Array.__radd__ = lambda s, o: add(o, s)  # type: ignore[assignment]
Array.__rsub__ = lambda s, o: subtract(o, s)  # type: ignore[assignment]
Array.__rmul__ = lambda s, o: multiply(o, s)  # type: ignore[assignment]
Array.__rtruediv__ = lambda s, o: divide(o, s)  # type: ignore[assignment]
Array.__iadd__ = lambda s, o: add(s, o, s)  # type: ignore[assignment]
Array.__isub__ = lambda s, o: subtract(s, o, s)  # type: ignore[assignment]
Array.__imul__ = lambda s, o: multiply(s, o, s)  # type: ignore[assignment]
Array.__itruediv__ = lambda s, o: divide(s, o, s)  # type: ignore[assignment]


def square(x: Array, out: Optional[Array] = None) -> Array:
    """x * x, elementwise (accel_mul on the fast path; correctly rounded);
    a bool x gives int8, as NumPy's and CuPy's square."""
    if isinstance(x, Array) and x.dtype == np.bool_:
        x = ns.astype(x, np.int8)
    return multiply(x, x, out)
