# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""The translator behind ``@accel.cuda.jit``: a Python function (its AST,
from the ``ast`` module) to accel's raw-kernel dialect (CUDA C that NVRTC
compiles on a GPU and the CPU twin runs as C), specialised on the dtypes and
dimensions of the arguments of one launch.

The subset (as Numba's CUDA target takes it): local scalars whose types are
inferred (NumPy's promotion; a Python int is int64, a float float64), if /
elif / else, ``for`` over ``range(...)``, ``while``, ``break``/``continue``,
a bare ``return``, arithmetic (``/`` is true division, ``//`` and ``%``
follow Python's signs), comparisons (chained too), ``and``/``or``/``not``,
``x if c else y``, ``math.*`` functions and constants, ``abs``/``min``/
``max``/``int``/``float``/``bool`` and NumPy scalar types as casts, number
constants from globals, array indexing in 1 to 3 dimensions (``a[i, j]``; a
negative constant index counts from the end), ``a.size``, ``a.shape[k]``,
``a.ndim``, ``len(a)``, ``cuda.threadIdx/blockIdx/blockDim/gridDim``
(``.x/.y/.z``), ``cuda.grid(n)``, ``cuda.gridsize(n)``,
``cuda.syncthreads()``, ``cuda.shared.array``, ``cuda.local.array`` and
``cuda.atomic.add/sub``. Anything else raises UnsupportedError (a
NotImplementedError) or DtypeMismatchError (a TypeError) naming the file,
the line and the construct.

Arrays are passed as pointers; the extra scalar parameters a kernel reads
(an array's size, its shape, and for strided arrays its strides in
elements) follow the user's parameters, in the order the body first needs
them (``Kernel.extras``)."""
from __future__ import annotations

import ast
import builtins
import inspect
import math
import numbers
import textwrap
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ._lib import AccelError, error

# Scalar types of the subset and their C spellings.
CTYPE = {"bool": "int", "uint8": "unsigned char", "int32": "int", "int64": "long long",
         "float32": "float", "float64": "double"}
ARRAY_DTYPES = ("float32", "float64", "int32", "int64", "uint8")
_INTS = ("bool", "uint8", "int32", "int64")


@dataclass(frozen=True)
class ArrayType:
    """An array parameter (mem "global", layout "C" or "A") or a shared /
    local array of constant shape."""
    dtype: str
    ndim: int
    layout: str = "C"
    mem: str = "global"
    shape: Tuple[int, ...] = ()


# A value's type: a scalar's dtype name (str), an ArrayType, ("tuple",
# [(code, type), ...]) or ("py", object) for modules and functions. Any, as
# the translator tells them apart at run time.
Type = Any


class JitSyntaxError(AccelError):
    """Raised for a construct outside the subset (mixin of the Python
    exception that fits). ``filename`` and ``line`` locate it."""


def _fail(status: str, tr: "Translator", node: Optional[ast.AST], what: str) -> AccelError:
    line = tr.line_of(node)
    e = error(status, f"accel.cuda.jit {tr.name}: {tr.filename}:{line}: {what}")
    e.filename, e.line = tr.filename, line  # type: ignore[attr-defined]
    return e


def promote(a: str, b: str) -> str:
    """NumPy's promotion of two scalar types (bool with bool gives int64 in
    arithmetic, as Numba)."""
    if a == b == "bool":
        return "int64"
    return np.promote_types(a if a != "bool" else "?", b if b != "bool" else "?").name


def scalar_type_of(v: Any) -> Optional[str]:
    """The subset's type of a Python or NumPy number, or None."""
    if isinstance(v, (bool, np.bool_)):
        return "bool"
    if isinstance(v, np.generic):
        name = np.dtype(type(v)).name
        return name if name in CTYPE else None
    if isinstance(v, numbers.Integral):
        return "int64"
    if isinstance(v, numbers.Real):
        return "float64"
    return None


def literal(v: Any) -> Tuple[str, str]:
    """C text and type of a number constant."""
    t = scalar_type_of(v)
    if t == "bool":
        return ("1" if v else "0"), t
    if t in _INTS:
        iv = int(v)
        if not -(1 << 63) <= iv < (1 << 63):
            raise OverflowError(iv)
        return (f"({iv}LL)" if iv != -(1 << 63) else "(-9223372036854775807LL - 1)"), t
    fv = float(v)
    if math.isnan(fv):
        text = "(0.0 / 0.0)"
    elif math.isinf(fv):
        text = "(1.0 / 0.0)" if fv > 0 else "(-1.0 / 0.0)"
    else:
        text = repr(fv)
    if t == "float32":
        return f"((float){text})", t
    return f"({text})", "float64"


def cast(code: str, src: Type, dst: str) -> str:
    """code of type src as dst (bool: compared with 0)."""
    if src == dst:
        return code
    if dst == "bool":
        return f"(({code}) != 0)"
    return f"(({CTYPE[dst]})({code}))"


def _wrap(code: str, t: str) -> str:
    """code (C arithmetic, which widens uint8 to int) wrapped back to uint8
    as NumPy's uint8 arithmetic (255 + 1 is 0, 1 - 2 is 255)."""
    return f"((unsigned char)({code}))" if t == "uint8" else code


# Helper functions emitted on demand: name -> C text. Distinct names per type
# (extern "C" has no overloading on CUDA).
HELPERS = {
    # b == -1 apart: INT64_MIN / -1 traps (NumPy wraps to INT64_MIN, remainder 0)
    "accel_floordiv_ll": "__device__ long long accel_floordiv_ll(long long a, long long b)\n"
                         "{\n  if (b == 0) return 0;\n"
                         "  if (b == -1) return (long long)(0ULL - (unsigned long long)a);\n"
                         "  long long q = a / b;\n"
                         "  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;\n  return q;\n}\n",
    "accel_mod_ll": "__device__ long long accel_mod_ll(long long a, long long b)\n"
                    "{\n  if (b == 0 || b == -1) return 0;\n  long long r = a % b;\n"
                    "  if (r != 0 && ((r < 0) != (b < 0))) r += b;\n  return r;\n}\n",
    # Python's and NumPy's float floor division (npy_divmod): from fmod, so
    # that a // b and a % b agree (7.0 // 0.1 is 69.0, not floor(70.0))
    "accel_floordiv_d": "__device__ double accel_floordiv_d(double a, double b)\n"
                        "{\n  if (b == 0) return a / b;\n  double m = fmod(a, b);\n"
                        "  double d = (a - m) / b;\n"
                        "  if (m != 0 && ((b < 0) != (m < 0))) d -= 1.0;\n"
                        "  if (d == 0) return copysign(0.0, a / b);\n"
                        "  double f = floor(d);\n  if (d - f > 0.5) f += 1.0;\n  return f;\n}\n",
    "accel_floordiv_f": "__device__ float accel_floordiv_f(float a, float b)\n"
                        "{\n  if (b == 0) return a / b;\n  float m = fmodf(a, b);\n"
                        "  float d = (a - m) / b;\n"
                        "  if (m != 0 && ((b < 0) != (m < 0))) d -= 1.0f;\n"
                        "  if (d == 0) return copysignf(0.0f, a / b);\n"
                        "  float f = floorf(d);\n  if (d - f > 0.5f) f += 1.0f;\n  return f;\n}\n",
    "accel_mod_d": "__device__ double accel_mod_d(double a, double b)\n"
                   "{\n  double r = fmod(a, b);\n"
                   "  if (r != 0 && ((r < 0) != (b < 0))) r += b;\n  return r;\n}\n",
    "accel_mod_f": "__device__ float accel_mod_f(float a, float b)\n"
                   "{\n  float r = fmodf(a, b);\n"
                   "  if (r != 0 && ((r < 0) != (b < 0))) r += b;\n  return r;\n}\n",
    "accel_ipow_ll": "__device__ long long accel_ipow_ll(long long a, long long b)\n"
                     "{\n  long long r = 1;\n  if (b < 0) return a == 1 ? 1 : a == -1 ? "
                     "(b % 2 ? -1 : 1) : 0;\n  while (b) {\n    if (b & 1) r *= a;\n"
                     "    a *= a;\n    b >>= 1;\n  }\n  return r;\n}\n",
}

# math functions of one argument that the CUDA Math API and the twin's
# prelude both have in float and double forms.
MATH1 = ("sqrt", "exp", "log", "log2", "log10", "log1p", "expm1", "sin", "cos", "tan", "asin",
         "acos", "atan", "sinh", "cosh", "tanh", "fabs", "erf", "erfc", "cbrt", "exp2")
MATH2 = ("pow", "atan2", "hypot", "fmod")
MATHI = ("floor", "ceil", "trunc")  # int64 results, as Python's and Numba's
MATHB = ("isnan", "isinf", "isfinite")
_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.BitAnd: "&", ast.BitOr: "|",
           ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>"}
_CMPOPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_CONSTRUCT = {ast.With: "a with block", ast.Try: "try/except", ast.Raise: "raise",
              ast.FunctionDef: "a nested def", ast.Lambda: "lambda", ast.ListComp:
              "a list comprehension", ast.List: "a list", ast.Dict: "a dict", ast.Set: "a set",
              ast.Global: "global", ast.Nonlocal: "nonlocal", ast.Delete: "del",
              ast.Yield: "yield", ast.Await: "await", ast.Assert: "assert",
              ast.JoinedStr: "an f-string", ast.Starred: "*args", ast.Slice: "a slice",
              ast.ClassDef: "a class", ast.Import: "import", ast.ImportFrom: "import"}


@dataclass
class Kernel:
    """What the translator made: the source, the entry name, the extras
    (``(arg index, "n" | "d" | "t", k)``: size, shape[k], stride[k]) and the
    map from generated lines to Python lines."""
    source: str
    entry: str
    extras: List[Tuple[int, str, int]]
    lines: Dict[int, int] = field(default_factory=dict)


def parse_function(fn: Any) -> Tuple[ast.FunctionDef, str, int]:
    """The FunctionDef of fn, its file and the line its source starts on."""
    try:
        src = inspect.getsource(fn)
        filename = inspect.getsourcefile(fn) or "<unknown>"
    except (OSError, TypeError):
        raise error("ACCEL_ERROR_UNSUPPORTED",
                    f"accel.cuda.jit: the source of {getattr(fn, '__name__', fn)!r} is not "
                    "available (define kernels in a file, not in exec or the REPL)") from None
    tree = ast.parse(textwrap.dedent(src))
    fdef = tree.body[0]
    if not isinstance(fdef, ast.FunctionDef):
        raise error("ACCEL_ERROR_UNSUPPORTED",
                    f"accel.cuda.jit: {filename}: {getattr(fn, '__name__', fn)!r} is not a "
                    "plain def (async functions and lambdas are not kernels)")
    return fdef, filename, fn.__code__.co_firstlineno


# ---------------------------------------------------------------- stubs
# The names a kernel calls (accel.cuda re-exports them). Outside a kernel
# they raise: they have a meaning only in the translated code.

def _outside(what: str) -> AccelError:
    return error("ACCEL_ERROR_UNSUPPORTED",
                 f"accel.cuda.{what} has a meaning only inside a @cuda.jit kernel")


class Dim3:
    """``cuda.threadIdx``, ``blockIdx``, ``blockDim``, ``gridDim``: inside a
    kernel, ``.x``, ``.y``, ``.z`` are the CUDA built-ins (int64 here)."""

    def __init__(self, name: str):
        self._name = name

    def __repr__(self) -> str:
        return f"accel.cuda.{self._name}"

    @property
    def x(self) -> int:
        raise _outside(f"{self._name}.x")

    @property
    def y(self) -> int:
        raise _outside(f"{self._name}.y")

    @property
    def z(self) -> int:
        raise _outside(f"{self._name}.z")


def grid(ndim: int) -> Any:
    """In a kernel: the thread's absolute index, ``blockIdx * blockDim +
    threadIdx`` in x (ndim 1, an int) or x, y (, z) (ndim 2 or 3, a tuple)."""
    raise _outside("grid")


def gridsize(ndim: int) -> Any:
    """In a kernel: the number of threads of the grid, ``blockDim *
    gridDim``, in x (ndim 1) or x, y (, z) (a tuple)."""
    raise _outside("gridsize")


def syncthreads() -> None:
    """In a kernel: wait until every thread of the block reaches this point
    (``__syncthreads()``; the CPU twin runs it with one context per thread)."""
    raise _outside("syncthreads")


class _ArrayMaker:
    """``cuda.shared.array`` / ``cuda.local.array``."""

    def __init__(self, mem: str):
        self._mem = mem

    def array(self, shape: Any, dtype: Any) -> Any:
        """In a kernel: an array of constant `shape` (an int or a tuple of
        up to 3 ints) and `dtype` (float32, float64, int32, int64, uint8),
        shared by the block's threads (``shared``, CUDA's ``__shared__``) or
        private to the thread (``local``)."""
        raise _outside(f"{self._mem}.array")


class _Atomic:
    """``cuda.atomic``: add and sub on an element of an array, returning
    the old value (``atomicAdd``; the CPU twin's are C11 atomics)."""

    def add(self, ary: Any, idx: Any, val: Any) -> Any:
        """In a kernel: ``ary[idx] += val`` as one atomic step; the old value."""
        raise _outside("atomic.add")

    def sub(self, ary: Any, idx: Any, val: Any) -> Any:
        """In a kernel: ``ary[idx] -= val`` as one atomic step; the old value."""
        raise _outside("atomic.sub")


threadIdx, blockIdx = Dim3("threadIdx"), Dim3("blockIdx")
blockDim, gridDim = Dim3("blockDim"), Dim3("gridDim")
shared, local, atomic = _ArrayMaker("shared"), _ArrayMaker("local"), _Atomic()
_GRID_AXES = {"x": "x", "y": "y", "z": "z"}


# ------------------------------------------------------------ translator

def _is_pyobj(t: Type) -> bool:
    return isinstance(t, tuple) and len(t) == 2 and t[0] == "py"


def _is_tuple(t: Type) -> bool:
    return isinstance(t, tuple) and len(t) == 2 and t[0] == "tuple"


class Translator:
    """One specialisation of one kernel: ``Translator(fn, argtypes)
    .translate()`` is a :class:`Kernel`. argtypes: one per parameter, an
    :class:`ArrayType` or a scalar type name."""

    def __init__(self, fn: Any, parsed: Tuple[ast.FunctionDef, str, int], argtypes: List[Type]):
        self.fn, self.name = fn, fn.__name__
        self.fdef, self.filename, self.first = parsed
        self.scope = dict(builtins.__dict__)
        self.scope.update(fn.__globals__)
        if fn.__closure__:
            self.scope.update(inspect.getclosurevars(fn).nonlocals)
        a = self.fdef.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs or a.defaults:
            raise _fail("ACCEL_ERROR_UNSUPPORTED", self, self.fdef,
                        "*args, **kwargs, keyword-only parameters and defaults are not "
                        "supported in a kernel's parameters")
        self.pnames = [p.arg for p in a.args]
        if len(argtypes) != len(self.pnames):
            raise TypeError(f"accel.cuda.jit {self.name}: {len(self.pnames)} parameters, "
                            f"{len(argtypes)} arguments")
        self.params = dict(zip(self.pnames, argtypes))
        self.locals: Dict[str, str] = {}
        self.assigned = {n.id for n in ast.walk(self.fdef) if isinstance(n, ast.Name)
                         and isinstance(n.ctx, ast.Store)}

    def line_of(self, node: Optional[ast.AST]) -> int:
        return self.first + getattr(node, "lineno", 1) - 1

    def unsupported(self, node: ast.AST, what: str) -> AccelError:
        return _fail("ACCEL_ERROR_UNSUPPORTED", self, node, what)

    def mistyped(self, node: ast.AST, what: str) -> AccelError:
        return _fail("ACCEL_ERROR_DTYPE_MISMATCH", self, node, what)

    # ------------------------------------------------------------ driver
    def translate(self) -> Kernel:
        """Translate until the local variables' types settle (a use before
        the assignment that widens a type takes another pass)."""
        for _ in range(6):
            before = dict(self.locals)
            self.out: List[Tuple[int, str, int]] = []
            self.extras: List[Tuple[int, str, int]] = []
            self.helpers: List[str] = []
            self.arrays: Dict[str, ArrayType] = {}
            self.decls: List[Tuple[str, int]] = []
            self.ntmp = 0
            self.block(self.fdef.body, 1)
            if self.locals == before:
                return self.assemble()
        raise self.unsupported(self.fdef, "the types of the local variables do not settle")

    def assemble(self) -> Kernel:
        entry = self.name if self.name.isascii() and self.name.isidentifier() \
            and len(self.name) < 48 else "jit_kernel"
        params = []
        for p in self.pnames:
            t = self.params[p]
            params.append(f"{CTYPE[t.dtype]} *v_{p}" if isinstance(t, ArrayType)
                          else f"{CTYPE[t]} v_{p}")
        params += [f"long long {self.extra_name(e)}" for e in self.extras]
        text = [HELPERS[h] for h in self.helpers]
        text.append(f"__global__ void {entry}({', '.join(params) or 'void'})\n{{")
        text += [f"    {CTYPE[t]} v_{n} = 0;" for n, t in sorted(self.locals.items())
                 if n not in self.params]
        head = "\n".join(text).count("\n") + 2
        lines = {}
        body = [(1, d, py) for d, py in self.decls] + self.out
        for i, (ind, s, py) in enumerate(body):
            text.append("    " * ind + s)
            lines[head + i] = py
        text.append("}\n")
        return Kernel("\n".join(text), entry, list(self.extras), lines)

    def emit(self, ind: int, text: str, node: ast.AST) -> None:
        self.out.append((ind, text, self.line_of(node)))

    def tmp(self) -> str:
        self.ntmp += 1
        return f"y_t{self.ntmp}"

    def helper(self, name: str) -> str:
        if name not in self.helpers:
            self.helpers.append(name)
        return name

    def extra(self, arg: int, kind: str, k: int) -> str:
        e = (arg, kind, k)
        if e not in self.extras:
            self.extras.append(e)
        return self.extra_name(e)

    def extra_name(self, e: Tuple[int, str, int]) -> str:
        arg, kind, k = e
        return f"x_{self.pnames[arg]}_{kind}{k if kind != 'n' else ''}"

    # -------------------------------------------------------- statements
    def block(self, body: List[ast.stmt], ind: int) -> None:
        for s in body:
            m = getattr(self, "s_" + type(s).__name__, None)
            if m is None:
                what = _CONSTRUCT.get(type(s), f"the statement {type(s).__name__}")
                raise self.unsupported(s, f"{what} is not supported in a kernel")
            m(s, ind)

    def s_Pass(self, s: ast.Pass, ind: int) -> None:
        self.emit(ind, ";", s)

    def s_Break(self, s: ast.Break, ind: int) -> None:
        self.emit(ind, "break;", s)

    def s_Continue(self, s: ast.Continue, ind: int) -> None:
        self.emit(ind, "continue;", s)

    def s_Return(self, s: ast.Return, ind: int) -> None:
        if s.value is not None and not (isinstance(s.value, ast.Constant)
                                        and s.value.value is None):
            raise self.unsupported(s, "return with a value: a kernel returns nothing (write "
                                      "results into an array)")
        self.emit(ind, "return;", s)

    def s_Expr(self, s: ast.Expr, ind: int) -> None:
        if isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            return  # a docstring
        if not isinstance(s.value, ast.Call):
            raise self.unsupported(s, "an expression statement that is not a call")
        code, _ = self.expr(s.value)
        self.emit(ind, code + ";", s)

    def s_If(self, s: ast.If, ind: int) -> None:
        self.emit(ind, f"if ({self.cond(s.test)}) {{", s)
        self.block(s.body, ind + 1)
        if s.orelse:
            self.emit(ind, "} else {", s)
            self.block(s.orelse, ind + 1)
        self.emit(ind, "}", s)

    def s_While(self, s: ast.While, ind: int) -> None:
        if s.orelse:
            raise self.unsupported(s, "while ... else is not supported")
        self.emit(ind, f"while ({self.cond(s.test)}) {{", s)
        self.block(s.body, ind + 1)
        self.emit(ind, "}", s)

    def s_For(self, s: ast.For, ind: int) -> None:
        it = s.iter
        if s.orelse:
            raise self.unsupported(s, "for ... else is not supported")
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name)
                and self.lookup(it.func) is range) or it.keywords or not 1 <= len(it.args) <= 3:
            raise self.unsupported(s, "for over anything but range(stop), range(start, stop) "
                                      "or range(start, stop, step) is not supported")
        if not isinstance(s.target, ast.Name):
            raise self.unsupported(s, "the loop variable must be a name")
        vals = [self.int_expr(a, "a range bound") for a in it.args]
        start, stop, step = (("0LL", "int64"), vals[0], ("1LL", "int64")) if len(vals) == 1 \
            else (vals[0], vals[1], vals[2] if len(vals) == 3 else ("1LL", "int64"))
        var = self.assign_name(s.target, "int64")
        cstep = self.const_int(it.args[2]) if len(it.args) == 3 else 1
        if cstep == 0:
            raise _fail("ACCEL_ERROR_INVALID_ARGUMENT", self, s, "range() step must not be zero")
        end, stp, cnt = self.tmp(), self.tmp(), self.tmp()
        self.emit(ind, f"{{ const long long {end} = {stop[0]}; "
                       f"const long long {stp} = {step[0]};", s)
        # A counter of its own, as Python's iterator: the body may assign the
        # loop variable without changing the iterations, and after the loop
        # it holds the last value (unchanged by an empty range). A step that
        # is 0 at run time runs no iterations (Python raises ValueError; a
        # kernel cannot, and the C loop would never end).
        test = (f"{cnt} < {end}" if cstep is not None and cstep > 0 else
                f"{cnt} > {end}" if cstep is not None else
                f"({stp} > 0 ? {cnt} < {end} : {stp} < 0 && {cnt} > {end})")
        self.emit(ind, f"for (long long {cnt} = {start[0]}; {test}; {cnt} += {stp}) {{ "
                       f"{var} = {cnt};", s)
        self.block(s.body, ind + 1)
        self.emit(ind, "} }", s)

    def s_Assign(self, s: ast.Assign, ind: int) -> None:
        for t in s.targets:
            self.assign(t, s.value, s, ind)

    def s_AnnAssign(self, s: ast.AnnAssign, ind: int) -> None:
        if s.value is None:
            raise self.unsupported(s, "a declaration without a value")
        self.assign(s.target, s.value, s, ind)

    def s_AugAssign(self, s: ast.AugAssign, ind: int) -> None:
        load = ast.fix_missing_locations(ast.copy_location(
            _as_load(s.target), s.target))
        value = ast.copy_location(ast.BinOp(left=load, op=s.op, right=s.value), s)
        self.assign(s.target, value, s, ind)

    def assign(self, target: ast.expr, value: ast.expr, s: ast.stmt, ind: int) -> None:
        if isinstance(target, ast.Name):
            if self.array_decl(target, value, s):
                return
            code, t = self.expr(value)
            if not isinstance(t, str) or t == "void":
                raise self.unsupported(s, f"assigning {self.describe(t)} to {target.id!r}: "
                                          "only numbers are kept in local variables")
            var = self.assign_name(target, t)
            dst: Any = self.params.get(target.id, self.locals.get(target.id))
            self.emit(ind, f"{var} = {cast(code, t, dst)};", s)
        elif isinstance(target, ast.Subscript):
            ref, et = self.element(target)
            code, t = self.scalar(value, "the value stored")
            self.emit(ind, f"{ref} = {cast(code, t, et)};", s)
        elif isinstance(target, ast.Tuple):
            self.assign_tuple(target, value, s, ind)
        else:
            raise self.unsupported(s, f"assignment to {type(target).__name__}")

    def assign_tuple(self, target: ast.Tuple, value: ast.expr, s: ast.stmt, ind: int) -> None:
        code, t = self.expr(value)
        if not _is_tuple(t):
            raise self.unsupported(s, f"unpacking {self.describe(t)}")
        items = t[1]
        if len(items) != len(target.elts):
            raise _fail("ACCEL_ERROR_INVALID_ARGUMENT", self, s,
                        f"{len(target.elts)} names for a tuple of {len(items)}")
        temps = []
        for c, ct in items:  # all values first, so that a, b = b, a swaps
            tv = self.tmp()
            temps.append((tv, ct))
            self.decls.append((f"{CTYPE[ct]} {tv};", self.line_of(s)))
            self.emit(ind, f"{tv} = {c};", s)
        for el, (tv, ct) in zip(target.elts, temps):
            self.assign(el, ast.copy_location(ast.Name(id=f"\0{tv}\0{ct}", ctx=ast.Load()), s),
                        s, ind)

    def assign_name(self, target: ast.Name, t: str) -> str:
        n = target.id
        if n in self.params:
            if isinstance(self.params[n], ArrayType):
                raise self.unsupported(target, f"assigning to the array parameter {n!r}")
        elif n in self.arrays:
            raise self.unsupported(target, f"assigning to the array {n!r}")
        else:
            old = self.locals.get(n)
            self.locals[n] = t if old is None else (
                old if old == t else np.promote_types(
                    old if old != "bool" else "?", t if t != "bool" else "?").name)
            if self.locals[n] == "bool" and (old, t) != ("bool", "bool") and old is not None:
                self.locals[n] = "int64"
        return f"v_{n}"

    def array_decl(self, target: ast.Name, value: ast.expr, s: ast.stmt) -> bool:
        if not isinstance(value, ast.Call):
            return False
        fobj: Any = self.lookup(value.func)
        maker = getattr(fobj, "__self__", None)
        if not isinstance(maker, _ArrayMaker) or getattr(fobj, "__name__", "") != "array":
            return False
        mem = maker._mem
        args = list(value.args) + [k.value for k in value.keywords]
        names = [None] * len(value.args) + [k.arg for k in value.keywords]
        if len(args) != 2 or (names[1] not in (None, "dtype")) or (names[0] not in
                                                                  (None, "shape")):
            raise self.unsupported(s, f"cuda.{mem}.array takes (shape, dtype)")
        shape = self.const(args[0])
        shape = (shape,) if isinstance(shape, numbers.Integral) else shape
        if not (isinstance(shape, tuple) and 1 <= len(shape) <= 3 and all(
                isinstance(x, numbers.Integral) and int(x) > 0 for x in shape)):
            raise self.unsupported(s, f"cuda.{mem}.array shape {shape!r}: a constant int or "
                                      "tuple of 1 to 3 positive ints")
        dt = _dtype_name(self.const(args[1]))
        if dt not in ARRAY_DTYPES:
            raise self.mistyped(s, f"cuda.{mem}.array dtype {args[1]!r}: one of "
                                   f"{', '.join(ARRAY_DTYPES)}")
        n = target.id
        if n in self.params or n in self.locals or (n in self.arrays
                                                    and self.arrays[n].shape != shape):
            raise self.unsupported(s, f"{n!r} is already a variable")
        self.arrays[n] = ArrayType(dt, len(shape), "C", mem, tuple(int(x) for x in shape))
        size = math.prod(shape)
        self.decls.append((f"{'__shared__ ' if mem == 'shared' else ''}{CTYPE[dt]} "
                           f"v_{n}[{size}];", self.line_of(s)))
        return True

    # ------------------------------------------------------- expressions
    def describe(self, t: Type) -> str:
        if isinstance(t, ArrayType):
            return f"a {t.ndim}-d {t.dtype} array"
        if _is_tuple(t):
            return f"a tuple of {len(t[1])}"
        if _is_pyobj(t):
            return f"the Python object {t[1]!r}"
        return f"a {t}" if t != "void" else "a call that returns nothing"

    def expr(self, e: ast.expr) -> Tuple[str, Type]:
        m = getattr(self, "e_" + type(e).__name__, None)
        if m is None:
            what = _CONSTRUCT.get(type(e), f"the expression {type(e).__name__}")
            raise self.unsupported(e, f"{what} is not supported in a kernel")
        return m(e)

    def scalar(self, e: ast.expr, what: str) -> Tuple[str, str]:
        code, t = self.expr(e)
        if not isinstance(t, str) or t == "void":
            raise self.mistyped(e, f"{what} is {self.describe(t)}, not a number")
        return code, t

    def int_expr(self, e: ast.expr, what: str) -> Tuple[str, str]:
        code, t = self.scalar(e, what)
        if t not in _INTS:
            raise self.mistyped(e, f"{what} is a {t}; it must be an integer")
        return code, t

    def cond(self, e: ast.expr) -> str:
        code, t = self.scalar(e, "a condition")
        return code

    def e_Constant(self, e: ast.Constant) -> Tuple[str, Type]:
        if scalar_type_of(e.value) is None:
            raise self.unsupported(e, f"the constant {e.value!r} (only numbers)")
        try:
            return literal(e.value)
        except OverflowError:
            raise self.unsupported(e, f"the integer {e.value!r} does not fit in int64") from None

    def lookup(self, e: ast.expr) -> Any:
        """The Python object a dotted name of globals names, or None."""
        if isinstance(e, ast.Name):
            if e.id in self.params or e.id in self.assigned or e.id in self.arrays:
                return None
            return self.scope.get(e.id)
        if isinstance(e, ast.Attribute):
            base = self.lookup(e.value)
            return getattr(base, e.attr, None) if base is not None else None
        return None

    def e_Name(self, e: ast.Name) -> Tuple[str, Type]:
        n = e.id
        if n.startswith("\0"):  # a tuple item's temporary (assign_tuple)
            _, tv, ct = n.split("\0")
            return tv, ct
        if n in self.params:
            return f"v_{n}", self.params[n]
        if n in self.arrays:
            return f"v_{n}", self.arrays[n]
        if n in self.locals:
            return f"v_{n}", self.locals[n]
        if n in self.assigned:
            return "0", "bool"  # assigned further on: typed by the next pass
        if n not in self.scope:
            raise _fail("ACCEL_ERROR_INVALID_ARGUMENT", self, e, f"name {n!r} is not defined")
        return self.pyvalue(self.scope[n], e, f"global {n!r}")

    def pyvalue(self, v: Any, e: ast.expr, what: str) -> Tuple[str, Type]:
        if scalar_type_of(v) is not None:
            try:
                return literal(v)
            except OverflowError:
                raise self.unsupported(e, f"{what} = {v} does not fit in int64") from None
        if inspect.ismodule(v) or callable(v) or isinstance(v, (Dim3, _ArrayMaker, _Atomic)):
            return "", ("py", v)
        raise self.mistyped(e, f"{what} is {type(v).__name__} {_short(v)}, not a number "
                               "constant: a kernel reads only number constants from globals "
                               "(pass arrays as arguments)")

    def e_Attribute(self, e: ast.Attribute) -> Tuple[str, Type]:
        code, t = self.expr(e.value)
        if isinstance(t, ArrayType):
            return self.array_attr(e, code, t)
        if _is_pyobj(t):
            obj = t[1]
            if isinstance(obj, Dim3) and e.attr in _GRID_AXES:
                return f"((long long){obj._name}.{e.attr})", "int64"
            if isinstance(obj, _Atomic) and not hasattr(obj, e.attr):
                raise self.unsupported(e, f"cuda.atomic.{e.attr}: kernels take cuda.atomic.add "
                                          "and cuda.atomic.sub only")
            if not hasattr(obj, e.attr):
                raise self.unsupported(e, f"{_short(obj)}.{e.attr} does not exist")
            return self.pyvalue(getattr(obj, e.attr), e, f"{_short(obj)}.{e.attr}")
        raise self.unsupported(e, f".{e.attr} of {self.describe(t)}")

    def array_attr(self, e: ast.Attribute, code: str, t: ArrayType) -> Tuple[str, Type]:
        if e.attr == "ndim":
            return literal(t.ndim)
        if e.attr == "size":
            if t.mem != "global":
                return literal(math.prod(t.shape))
            return self.extra(self.pnames.index(_param_of(code)), "n", 0), "int64"
        if e.attr == "shape":
            return "", ("tuple", [(self.dim(code, t, k), "int64") for k in range(t.ndim)])
        raise self.unsupported(e, f"the array attribute .{e.attr} (size, shape, ndim are "
                                  "supported)")

    def dim(self, code: str, t: ArrayType, k: int) -> str:
        if t.mem != "global":
            return f"{t.shape[k]}LL"
        return self.extra(self.pnames.index(_param_of(code)), "d", k)

    def e_Subscript(self, e: ast.Subscript) -> Tuple[str, Type]:
        code, t = self.expr(e.value)
        if _is_tuple(t):
            k = self.const_int(e.slice)
            if k is None or not -len(t[1]) <= k < len(t[1]):
                raise self.unsupported(e, "a tuple index must be a constant within the tuple")
            return t[1][k]
        return self.element(e)

    def element(self, e: ast.Subscript) -> Tuple[str, str]:
        """An array element as a C lvalue and its type."""
        code, t = self.expr(e.value)
        if not isinstance(t, ArrayType):
            raise self.unsupported(e, f"indexing {self.describe(t)}")
        return self.address(e, code, t, e.slice)

    def address(self, e: ast.expr, code: str, t: ArrayType, index: ast.expr) -> Tuple[str, str]:
        idx = index.elts if isinstance(index, ast.Tuple) else [index]
        if len(idx) != t.ndim:
            raise self.unsupported(e, f"{len(idx)} indices for a {t.ndim}-d array: index every "
                                      f"dimension (a[i, j]; slices and rows are not supported)")
        parts = []
        for k, ix in enumerate(idx):
            c, it = self.int_expr(ix, f"index {k}")
            ci = self.const_int(ix)
            if ci is not None and ci < 0:
                c = f"({self.dim(code, t, k)} + {c})"
            parts.append(c)
        if t.layout == "A":
            p = self.pnames.index(_param_of(code))
            lin = " + ".join(f"{c} * {self.extra(p, 't', k)}" for k, c in enumerate(parts))
        else:
            lin = parts[0]
            for k in range(1, t.ndim):
                lin = f"({lin}) * {self.dim(code, t, k)} + {parts[k]}"
        return f"{code}[{lin}]", t.dtype

    def e_Tuple(self, e: ast.Tuple) -> Tuple[str, Type]:
        return "", ("tuple", [self.scalar(x, "a tuple item") for x in e.elts])

    def const(self, e: ast.expr) -> Any:
        """The value of a constant expression (a number, a global, a tuple of
        them) for shapes and dtypes."""
        if isinstance(e, ast.Constant):
            return e.value
        if isinstance(e, ast.Tuple):
            return tuple(self.const(x) for x in e.elts)
        if isinstance(e, (ast.Name, ast.Attribute)):
            v = self.lookup(e)
            if v is not None:
                return v
        raise self.unsupported(e, "a value that must be a constant (a number, a global "
                                  "number, a dtype)")

    def const_int(self, e: ast.expr) -> Optional[int]:
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
            v = self.const_int(e.operand)
            return None if v is None else -v
        if isinstance(e, ast.Constant) and isinstance(e.value, int) \
                and not isinstance(e.value, bool):
            return e.value
        if isinstance(e, ast.Name):
            v = self.lookup(e)
            if isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_)):
                return int(v)
        return None

    # --------------------------------------------------------- operators
    def e_BinOp(self, e: ast.BinOp) -> Tuple[str, Type]:
        a, ta = self.scalar(e.left, "the left operand")
        b, tb = self.scalar(e.right, "the right operand")
        t = promote(ta, tb)
        op = type(e.op)
        if op in _BINOPS:
            if _BINOPS[op] in "&|^<<>>" and t not in _INTS:
                raise self.mistyped(e, f"{_BINOPS[op]} of {ta} and {tb}: integers only")
            if _BINOPS[op] in "&|^" and ta == tb == "bool":
                t = "bool"
            return _wrap(f"({cast(a, ta, t)} {_BINOPS[op]} {cast(b, tb, t)})", t), t
        if op is ast.Div:
            t = t if t in ("float32", "float64") else "float64"
            return f"({cast(a, ta, t)} / {cast(b, tb, t)})", t
        if op is ast.FloorDiv:
            if t in _INTS:
                h = self.helper("accel_floordiv_ll")
                return cast(f"{h}({cast(a, ta, 'int64')}, {cast(b, tb, 'int64')})", "int64",
                            t), t
            h = self.helper("accel_floordiv_f" if t == "float32" else "accel_floordiv_d")
            return f"{h}({cast(a, ta, t)}, {cast(b, tb, t)})", t
        if op is ast.Mod:
            if t in _INTS:
                h = self.helper("accel_mod_ll")
                return cast(f"{h}({cast(a, ta, 'int64')}, {cast(b, tb, 'int64')})", "int64",
                            t), t
            h = self.helper("accel_mod_f" if t == "float32" else "accel_mod_d")
            return f"{h}({cast(a, ta, t)}, {cast(b, tb, t)})", t
        if op is ast.Pow:
            if t in _INTS:
                h = self.helper("accel_ipow_ll")
                return cast(f"{h}({cast(a, ta, 'int64')}, {cast(b, tb, 'int64')})", "int64",
                            t), t
            f = "powf" if t == "float32" else "pow"
            return f"{f}({cast(a, ta, t)}, {cast(b, tb, t)})", t
        raise self.unsupported(e, f"the operator {type(e.op).__name__}")

    def e_UnaryOp(self, e: ast.UnaryOp) -> Tuple[str, Type]:
        a, t = self.scalar(e.operand, "the operand")
        if isinstance(e.op, ast.Not):
            return f"(!{a})", "bool"
        if isinstance(e.op, ast.Invert):
            if t not in _INTS:
                raise self.mistyped(e, f"~ of a {t}: integers only")
            if t == "bool":
                return f"(~{cast(a, t, 'int64')})", "int64"
            return _wrap(f"(~{a})", t), t
        t2 = "int64" if t == "bool" else t
        return (_wrap(f"(-{cast(a, t, t2)})", t2) if isinstance(e.op, ast.USub)
                else cast(a, t, t2)), t2

    def e_BoolOp(self, e: ast.BoolOp) -> Tuple[str, Type]:
        vals = [self.scalar(v, "an operand of and/or") for v in e.values]
        if all(t == "bool" for _, t in vals):
            op = " && " if isinstance(e.op, ast.And) else " || "
            return "(" + op.join(self.cond(v) for v in e.values) + ")", "bool"
        # Python's value: `a or b` is a when a is true, else b (`and`: a when
        # false); it was 0 or 1. An operand that calls something would run
        # twice in the C form: refused.
        if any(isinstance(n, ast.Call) for v in e.values[:-1] for n in ast.walk(v)):
            raise self.unsupported(e, "and/or of numbers with a call in an operand (write it "
                                      "as `x if x else y` over a variable)")
        t = vals[0][1]
        for _, tv in vals[1:]:
            t = promote(t, tv) if t != tv else t
        code, _ = vals[-1]
        code = cast(code, vals[-1][1], t)
        for c, tv in reversed(vals[:-1]):
            keep = f"({c}) != 0" if isinstance(e.op, ast.Or) else f"({c}) == 0"
            code = f"({keep} ? {cast(c, tv, t)} : {code})"
        return code, t

    def e_Compare(self, e: ast.Compare) -> Tuple[str, Type]:
        parts = []
        left = e.left
        for op, right in zip(e.ops, e.comparators):
            if type(op) not in _CMPOPS:
                raise self.unsupported(e, f"the comparison {type(op).__name__} (is, in: not "
                                          "supported)")
            a, ta = self.scalar(left, "a compared value")
            b, tb = self.scalar(right, "a compared value")
            t = promote(ta, tb) if (ta, tb) != ("bool", "bool") else "bool"
            parts.append(f"({cast(a, ta, t)} {_CMPOPS[type(op)]} {cast(b, tb, t)})")
            left = right
        return ("(" + " && ".join(parts) + ")" if len(parts) > 1 else parts[0]), "bool"

    def e_IfExp(self, e: ast.IfExp) -> Tuple[str, Type]:
        c = self.cond(e.test)
        a, ta = self.scalar(e.body, "a branch")
        b, tb = self.scalar(e.orelse, "a branch")
        t = ta if ta == tb else promote(ta, tb)
        return f"({c} ? {cast(a, ta, t)} : {cast(b, tb, t)})", t

    # ------------------------------------------------------------- calls
    def e_Call(self, e: ast.Call) -> Tuple[str, Type]:
        _, ft = self.expr(e.func)
        if not _is_pyobj(ft):
            raise self.unsupported(e, f"calling {self.describe(ft)}")
        f = ft[1]
        if e.keywords and f not in (shared.array, local.array):
            raise self.unsupported(e, f"keyword arguments to {_short(f)}")
        if f is grid or f is gridsize:
            return self.call_grid(e, f is grid)
        if f is syncthreads:
            if e.args:
                raise self.unsupported(e, "cuda.syncthreads() takes no arguments")
            return "__syncthreads()", "void"
        if isinstance(getattr(f, "__self__", None), _Atomic):
            return self.call_atomic(e, f.__name__)
        if isinstance(getattr(f, "__self__", None), _ArrayMaker):
            raise self.unsupported(e, f"cuda.{f.__self__._mem}.array outside an assignment "
                                      "to a name (s = cuda.shared.array(...))")
        if getattr(f, "__module__", None) == "math" or f in _MATH_IDS:
            return self.call_math(e, f.__name__)
        if f in (abs, min, max, int, float, bool, len, round):
            return self.call_builtin(e, f)
        if isinstance(f, type) and issubclass(f, np.generic):
            return self.call_cast(e, np.dtype(f).name)
        raise self.unsupported(e, f"the call {_short(f)}(...): kernels call math.*, "
                                  "cuda.*, abs/min/max/int/float/bool/len and NumPy "
                                  "scalar types only")

    def call_grid(self, e: ast.Call, is_grid: bool) -> Tuple[str, Type]:
        n = self.const_int(e.args[0]) if len(e.args) == 1 else None
        what = "grid" if is_grid else "gridsize"
        if n not in (1, 2, 3):
            raise self.unsupported(e, f"cuda.{what}(n) takes a constant n of 1, 2 or 3")
        axes = "xyz"[:n]
        items = [((f"((long long)blockIdx.{a} * blockDim.{a} + threadIdx.{a})" if is_grid
                   else f"((long long)blockDim.{a} * gridDim.{a})"), "int64") for a in axes]
        return (items[0] if n == 1 else ("", ("tuple", items)))

    def call_atomic(self, e: ast.Call, op: str) -> Tuple[str, Type]:
        if len(e.args) != 3:
            raise self.unsupported(e, f"cuda.atomic.{op}(array, index, value)")
        code, t = self.expr(e.args[0])
        if not isinstance(t, ArrayType) or t.mem == "local":
            raise self.mistyped(e, f"cuda.atomic.{op} on {self.describe(t)}: a global or "
                                   "shared array")
        ref, et = self.address(e, code, t, e.args[1])
        v, vt = self.scalar(e.args[2], "the value")
        v = cast(v, vt, et)
        if op == "sub":
            v = f"(-{v})"
        if et in ("float32", "float64", "int32"):
            return f"atomicAdd(&{ref}, {v})", et
        if et == "int64":
            return (f"((long long)atomicAdd((unsigned long long *)&{ref}, "
                    f"(unsigned long long){v}))"), et
        raise self.mistyped(e, f"cuda.atomic.{op} on a {et} array (float32, float64, int32, "
                               "int64)")

    def call_math(self, e: ast.Call, name: str) -> Tuple[str, Type]:
        args = [self.scalar(a, f"the argument of math.{name}") for a in e.args]
        want = 2 if name in MATH2 else (1, 2) if name == "log" else 1
        if len(args) not in ((want,) if isinstance(want, int) else want) or \
                name not in MATH1 + MATH2 + MATHI + MATHB + ("log",):
            raise self.unsupported(e, f"math.{name} with {len(args)} argument(s)")
        t = "float32" if all(t == "float32" for _, t in args) else "float64"
        f = "f" if t == "float32" else ""
        xs = [cast(c, ct, t) for c, ct in args]
        if name in MATHB:
            x = xs[0]
            test = {"isnan": f"({x} != {x})", "isinf": f"({x} - {x} != 0 && {x} == {x})",
                    "isfinite": f"({x} - {x} == 0)"}[name]
            return test, "bool"
        if name in MATHI:
            return f"((long long){name}{f}({xs[0]}))", "int64"
        if name == "log" and len(xs) == 2:
            return f"(log{f}({xs[0]}) / log{f}({xs[1]}))", t
        return f"{name}{f}({', '.join(xs)})", t

    def call_builtin(self, e: ast.Call, f: Any) -> Tuple[str, Type]:
        if f is len:
            code, t = self.expr(e.args[0]) if len(e.args) == 1 else ("", None)
            if not isinstance(t, ArrayType):
                raise self.unsupported(e, "len() of anything but an array")
            return self.dim(code, t, 0), "int64"
        if f is round:
            raise self.unsupported(e, "round() (use math.floor(x + 0.5) or an int cast)")
        args = [self.scalar(a, f"the argument of {f.__name__}") for a in e.args]
        if f in (int, float, bool):
            if len(args) != 1:
                raise self.unsupported(e, f"{f.__name__}() takes one argument here")
            t = {int: "int64", float: "float64", bool: "bool"}[f]
            return cast(args[0][0], args[0][1], t), t
        if f is abs:
            if len(args) != 1:
                raise self.unsupported(e, "abs() takes one argument")
            a, t = args[0]
            if t in ("float32", "float64"):
                return f"fabs{'f' if t == 'float32' else ''}({a})", t
            t2 = "int64" if t == "bool" else t
            a = cast(a, t, t2)
            return f"({a} < 0 ? -{a} : {a})", t2
        if len(args) < 2:
            raise self.unsupported(e, f"{f.__name__}() of fewer than two numbers")
        code, t = args[0]
        for b, tb in args[1:]:
            t2 = promote(t, tb) if (t, tb) != ("bool", "bool") else "bool"
            x, y = cast(code, t, t2), cast(b, tb, t2)
            code = (f"({y} < {x} ? {y} : {x})" if f is min else f"({y} > {x} ? {y} : {x})")
            t = t2
        return code, t

    def call_cast(self, e: ast.Call, name: str) -> Tuple[str, Type]:
        if name not in CTYPE or len(e.args) != 1:
            raise self.unsupported(e, f"the NumPy type {name}(x) (float32, float64, int32, "
                                      "int64, uint8 of one number)")
        a, t = self.scalar(e.args[0], f"the argument of {name}")
        return cast(a, t, name), name


_MATH_IDS = {getattr(math, n) for n in MATH1 + MATH2 + MATHI + MATHB + ("log",)
             if hasattr(math, n)}


def _as_load(e: ast.expr) -> ast.expr:
    if isinstance(e, ast.Name):
        return ast.Name(id=e.id, ctx=ast.Load())
    if isinstance(e, ast.Subscript):
        return ast.Subscript(value=e.value, slice=e.slice, ctx=ast.Load())
    return e


def _param_of(code: str) -> str:
    return code[2:]  # "v_name" -> "name"


def _short(v: Any) -> str:
    if isinstance(v, _Atomic):
        return "cuda.atomic"
    if isinstance(v, _ArrayMaker):
        return f"cuda.{v._mem}"
    name = getattr(v, "__qualname__", None) or getattr(v, "__name__", None)
    mod = getattr(v, "__module__", None)
    if name:
        return f"{mod}.{name}" if mod and mod not in ("builtins",) else name
    r = repr(v)
    return r if len(r) < 40 else r[:37] + "..."


def _dtype_name(v: Any) -> Optional[str]:
    try:
        return np.dtype(v).name
    except TypeError:
        try:
            return np.dtype(str(v)).name
        except TypeError:
            return None
