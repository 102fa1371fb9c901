# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""cp.fuse: an elementwise Python function of arrays and scalars, captured
once per call signature into an accel graph and replayed (accel/graph.h:
the C core fuses the chain of elementwise ops into one generated kernel at
instantiate, docs/graphs.md).

    @accel.fuse()                       # or @accel.fuse, or kernel_name="sq"
    def squared_diff(x, y):
        return (x - y) * (x - y)

How a call runs: the signature is the shape, dtype and device of every
array argument and the type and value of every other argument. The first
call of a signature calls the function once inside ``accel.graph()`` on
arrays of the fuse's own (its "slots"), so nothing of the caller's is
recorded. Every call then rebinds the slot buffers to the caller's arrays
and to new output arrays (accel_graph_set_buffer; a fused kernel's buffers
are planned again there, its compiled kernel reused) and launches the graph
on the current stream. Results equal the unfused calls' within the bound
docs/graphs.md gives (last bits: intermediates stay in registers).
"""
from __future__ import annotations

import collections
import functools
import numbers
import threading
from typing import Any, Callable, List, Optional, Tuple

import numpy as np

from . import _lib as L
from ._core import block_serial_mark, get_current_stream
from ._graph import Graph
from ._lib import AccelError, check

_set_buffer = L._proto("accel_graph_set_buffer", L.st, L.c_vp, L.c_vp, L.c_vp)
_INVALID_HANDLE = L.STATUS["ACCEL_ERROR_INVALID_HANDLE"]

# Signatures kept per fused function (least recently used dropped first):
# each holds a graph, its slot arrays and its intermediates.
CACHE_SIZE = 32

_DIRECT = object()  # a signature the capture cannot express: called directly


def _block_of(a: Any) -> Any:
    """The pool block of accel.Array `a` when `a` is C-contiguous from its
    block's first byte (an array an op or a creation made, or a leading
    slice of one), else None: a graph binds a buffer to each slot and reads
    it in C order, so a strided, transposed, broadcast or offset view would
    be read as the wrong elements. Arrays of accel.array_api give None:
    graphs do not track the pool blocks they reuse, so they are called
    directly."""
    blk = getattr(a, "_block", None)
    ok = blk is not None and getattr(a, "_offset", 1) == 0 and getattr(a, "_st", 1) is None
    return blk if ok else None


def _bindable(arrays: List[Any]) -> bool:
    """Whether every array argument can be bound to a slot as it is: C
    order from its block's start, no two in one block (a function that
    writes one argument in place must write the caller's array, so neither
    a copy nor a shared buffer will do)."""
    seen = set()
    for a in arrays:
        b = _block_of(a)
        if b is None or b.handle in seen:
            return False
        seen.add(b.handle)
    return True


_ARRAY_TYPES: Tuple[type, ...] = ()


def _is_array(x: Any) -> bool:
    global _ARRAY_TYPES
    if not _ARRAY_TYPES:  # imported on first use: array_api imports this package
        from . import array_api as xp
        from ._array import Array
        _ARRAY_TYPES = (Array, xp.Array)
    return isinstance(x, _ARRAY_TYPES)


def _empty_like(a: Any) -> Any:
    """A new array of a's shape, dtype and device."""
    from ._array import empty
    return empty(a.shape, a.dtype, device=a.device)


def _key_of(x: Any) -> Any:
    """One argument's part of the signature (TypeError when unhashable)."""
    if _is_array(x):
        return (type(x), x.shape, x.dtype, id(x.device))
    if isinstance(x, (numbers.Number, np.generic)):
        return (type(x), repr(x))  # repr: -0.0 is not 0.0, nan is nan
    hash(x)
    return (type(x), x)


class _Capture:
    """One signature's graph: the slot arrays the function was recorded on,
    which slot each array argument and each output is, and the buffers the
    graph uses now in each slot's place (rebound on every call)."""

    def __init__(self, graph: Graph, inputs: List[Any], outputs: List[Any], shape_out: Any):
        self.graph = graph
        self.inputs = inputs    # slot arrays, one per array argument (in order)
        self.outputs = outputs  # slot arrays the function returned
        self.shape_out = shape_out  # None, "one" or the tuple/list type
        self.slots = [_block_of(a).handle for a in inputs + outputs]
        self.bound = list(self.slots)
        self.stale = False

    def _set(self, k: int, new: int) -> None:
        """Bind slot k to buffer `new`. INVALID_HANDLE here means the rebinding
        was made but the graph could not be planned again, because another
        buffer it still names was released (graph.h): planned once all are
        bound (self.stale)."""
        code = _set_buffer(self.graph._handle(), self.bound[k], new)
        if code == _INVALID_HANDLE:
            self.stale = True
        else:
            check(code)
        self.bound[k] = new

    def reset(self) -> None:
        """Bind every slot's own buffer again."""
        for k, own in enumerate(self.slots):
            if self.bound[k] != own:
                self._set(k, own)

    def rebind(self, handles: List[int]) -> None:
        """Make slot k use buffer handles[k] (all distinct, none a slot's).
        A buffer bound now to another slot is first moved back to that
        slot's own, so no node ever sees two of its ranges in one buffer."""
        where = {b: k for k, b in enumerate(self.bound)}
        for k, new in enumerate(handles):
            j = where.get(new)
            if j is not None and j != k:
                self._set(j, self.slots[j])
                del where[new]
        for k, new in enumerate(handles):
            if self.bound[k] != new:
                self._set(k, new)
        if self.stale:
            self.graph.instantiate()
            self.stale = False


class Fused:
    """A function made elementwise-fused by :func:`fuse`; call it as the
    function. ``stats`` counts captures (graphs recorded), replays (graph
    launches) and direct calls (the function called as is)."""

    def __init__(self, func: Callable[..., Any], kernel_name: Optional[str] = None):
        functools.update_wrapper(self, func)
        self.func = func
        self.kernel_name = kernel_name or getattr(func, "__name__", "fused")
        self.stats = {"captures": 0, "replays": 0, "direct": 0}
        self._cache: "collections.OrderedDict[Any, Any]" = collections.OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if kwargs:
            self.stats["direct"] += 1
            return self.func(*args, **kwargs)
        arrays = [a for a in args if _is_array(a)]
        key = self._key(args) if arrays else None
        if key is None or _capturing() or not _bindable(arrays):
            return self._direct(args)
        with self._lock:
            entry = self._cache.get(key)
            if entry is None:
                entry = self._capture(args)
                self._cache[key] = entry
                while len(self._cache) > CACHE_SIZE:
                    self._cache.popitem(last=False)
            else:
                self._cache.move_to_end(key)
            if entry is _DIRECT:
                return self._direct(args)
            return self._replay(entry, args)

    def _key(self, args: Tuple[Any, ...]) -> Any:
        try:
            return tuple(_key_of(a) for a in args)
        except TypeError:
            return None

    def _direct(self, args: Tuple[Any, ...]) -> Any:
        self.stats["direct"] += 1
        return self.func(*args)

    def _capture(self, args: Tuple[Any, ...]) -> Any:
        """Record the function on slot arrays like the array arguments; a
        function the capture cannot express gives _DIRECT."""
        arrays = [a for a in args if _is_array(a)]
        if len({id(a.device) for a in arrays}) != 1 or any(
                getattr(a, "_block", None) is None for a in arrays):
            return _DIRECT
        inputs = [_empty_like(a) if _is_array(a) else None for a in args]
        call = [s if s is not None else a for s, a in zip(inputs, args)]
        g = Graph(get_current_stream(next(a for a in args if _is_array(a)).device))
        mark = block_serial_mark()
        try:
            with g:
                res = self.func(*call)
        except AccelError:
            # It reads a value to the host, synchronizes, ... (refused while
            # capturing), or an accel call failed: the direct call runs it
            # or raises the same error.
            return _DIRECT
        # Any other exception is the function's own (a TypeError, a failed
        # assert: host reads, the only thing that depends on the values, raise
        # AccelError while capturing): it reaches the caller from this one
        # run, not from a second direct run that would repeat side effects.
        self.stats["captures"] += 1
        slots = [s for s in inputs if s is not None]
        outs, shape_out = _outputs(res, mark)
        if outs is None or not _distinct_buffers(slots + outs) or _host_nodes(g):
            return _DIRECT
        return _Capture(g, slots, outs, shape_out)

    def _replay(self, c: _Capture, args: Tuple[Any, ...]) -> Any:
        arrays = [a for a in args if _is_array(a)]  # all bindable (__call__)
        outs = [_empty_like(o) for o in c.outputs]
        blocks = [_block_of(a) for a in arrays + outs]
        s = get_current_stream(arrays[0].device)
        for b in blocks:  # order the stream after other streams' work on them
            if b.stream is not s:
                s._join_from(b.stream)
                b.stream = s
        handles = [b.handle for b in blocks]
        try:
            c.rebind(handles)
        except AccelError:
            # Two arguments over the same memory through different buffers
            # (from_dlpack), which the recorded ops never saw: the core
            # refuses that rebinding, and the function runs as written.
            c.reset()
            return self._direct(args)
        try:
            c.graph.launch(s)
        except AccelError:
            # A buffer bound before was released (and its address maybe
            # reused), or a rebinding failed to plan: bind afresh, plan again.
            c.reset()
            c.stale = True
            c.rebind(handles)
            c.graph.launch(s)
        self.stats["replays"] += 1
        if c.shape_out is None:
            return None
        if c.shape_out == "one":
            return outs[0]
        return c.shape_out(outs)

    def graph_for(self, *args: Any) -> Optional[Graph]:
        """The graph recorded for the signature of `args` (None: not
        recorded yet, or called directly): its ``nodes`` name the fused
        kernels."""
        key = self._key(args)
        entry = self._cache.get(key) if key is not None else None
        return entry.graph if isinstance(entry, _Capture) else None

    def __repr__(self) -> str:
        return f"<accel.fuse {self.kernel_name} {self.stats}>"


def _capturing() -> bool:
    from ._core import _tls
    return bool(getattr(_tls, "capturing", False))


def _made_since(a: Any, mark: int) -> bool:
    """Whether `a` is an array whose block was handed out after `mark`: made
    by the captured call. An array that existed before (a global, a
    closure's) cannot be an output: replays rebind each output's buffer to
    a fresh one, so it would come back unwritten and the ops reading it
    would read that fresh buffer instead. Nor can a view of such an array
    that is not all of it in C order (``(x * 2).T``, ``[::2]``, ``[:2]``,
    broadcast_to; a reshape is): a replay returns a new C-ordered array of
    the view's shape, which would hold the wrong elements."""
    b = _block_of(a)
    root = getattr(a, "_base", None)  # the array that owns the block (None: a)
    root = a if root is None else root
    return b is not None and b.serial > mark and a.size == root.size


def _outputs(res: Any, mark: int) -> Tuple[Optional[List[Any]], Any]:
    """The arrays a captured call returned and how to give them back: (None,
    None) for anything but None, an array made by the call or a tuple/list
    of them."""
    if res is None:
        return [], None
    if _made_since(res, mark):
        return [res], "one"
    if isinstance(res, (tuple, list)) and res and all(_made_since(r, mark) for r in res):
        return list(res), type(res)
    return None, None


def _host_nodes(g: Graph) -> bool:
    """Whether g moves data to or from host memory (a NumPy array made into
    an accel one inside the function: its host memory is gone at replay)."""
    return any(n["kind"] in ("write", "read") for n in g.nodes)


def _distinct_buffers(arrays: List[Any]) -> bool:
    handles = [_block_of(a).handle for a in arrays]
    return len(set(handles)) == len(handles)


def fuse(*args: Any, kernel_name: Optional[str] = None) -> Any:
    """Decorator (``@fuse``, ``@fuse()``, ``@fuse(kernel_name="k")``) that
    runs an elementwise function of accel arrays and scalars as one graph.

    The function takes accel arrays (on one device) and scalars, and returns an array, a tuple or list of arrays, or
    None (when it writes its arguments in place); it broadcasts and promotes
    as its ops do. The first call with a new signature (each array's shape,
    dtype and device; each other argument's type and value) records the
    function in an accel graph; later calls with that signature replay it:
    chains of elementwise ops of one float dtype (float32, float64) over one
    element count run as one fused kernel (docs/graphs.md), other recorded
    ops (reductions, user kernels, integer dtypes) run unfused but without
    Python in between. ``kernel_name`` only names the function in ``repr``
    (the C core names fused kernels after their ops). At most CACHE_SIZE (32)
    signatures are kept per function.

    Called directly instead (as the plain function, no graph): when no
    argument is an array; when the arrays are on different devices or one
    is an accel.array_api array (a graph does not track the pool buffers
    those reuse); while a graph is being captured; when the function cannot
    be captured (it reads a value to the host, such as ``float(x)`` or ``if
    (x > 0).any()``, or synchronizes: accel raises InvalidArgumentError
    during a capture); when it returns something else than the forms above,
    or returns one of its arguments or another array it did not make (a
    global) or a view of one it made that is not all of it in C order;
    when an argument is unhashable or given by keyword; when an array
    argument is a view that is not C-ordered from its buffer's start (an
    offset, a step, a transpose, a broadcast) or shares its buffer with
    another argument (so an in-place write reaches the caller's array);
    when two arguments are one memory through different buffers
    (from_dlpack). A global array is recorded as the array it was: rebinding
    the name later does not change what a replay reads.

    Cost per replayed call: the signature, a new array per output, a
    rebinding per buffer that changed and one graph launch (tens of
    microseconds of host time): it pays off on large arrays, while a chain of
    small arrays can run faster unfused (python/bench/fuse_chain.py --n).

    Differs from cupy.fuse: no kernel is generated from the Python source
    (the ops are recorded), so any accel op may appear; a Python scalar is
    part of the signature (a new value records again); results may differ
    from the unfused ops in the last bits. ``.stats`` counts captures,
    replays and direct calls."""
    if len(args) == 1 and callable(args[0]):
        return Fused(args[0], kernel_name)
    if args:
        raise TypeError("accel.fuse: takes the function, or only kernel_name=")
    return lambda f: Fused(f, kernel_name)
