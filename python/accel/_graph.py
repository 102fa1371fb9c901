# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Graphs from Python (accel/graph.h): record the work of a stream once and
replay it, as CUDA Graphs' stream capture, torch.cuda.graph and CuPy's
``stream.begin_capture()`` / ``stream.end_capture()``::

    x = accel.asarray(data)
    with accel.graph() as g:          # records the current stream's work
        y = accel.sin(x) * 2.0 + x    # recorded, not run: y is not computed yet
    g.launch()                        # runs it (and again, with x's new data)
    print(y)

Inside the capture, ops, user kernels (@cuda.jit, RawKernel, ...) and
copies are validated and recorded; the arrays they write are the graph's
outputs and hold the results after each launch. Consecutive elementwise
ops of one dtype become one generated kernel (fusion, as in C; ``fuse=False``
runs each op as recorded); fused results may differ from the ops' in the last
bits (graph.h gives the bound verify mode checks).

Memory: the buffers a graph uses stay with it: an array of the capture that
is dropped does not give its buffer back to the memory pool until the
graph is released (``g.release()`` or garbage), so a later array never
shares a buffer the graph writes. Arrays made during the capture are the
memory pool's, not graph temporaries (graph.h), so every array the capture
writes holds its values after a launch, intermediates included (fusion
then saves the launches and the re-reads, not those stores).

Not allowed during a capture (InvalidArgumentError, never a hang): reading
results to the host (``get()``, ``print``), synchronizing the stream.
Work on other streams is waited for on the host when the capture first uses
their arrays.
"""
from __future__ import annotations

import ctypes
import gc
import threading
from typing import Any, Dict, List, Optional, Set

from . import _lib as L
from ._core import Stream, _join, _set_capture, _tls, get_current_stream
from ._lib import check, error

P = ctypes.POINTER


class _NodeInfo(ctypes.Structure):
    _fields_ = [("struct_size", L.c_u32), ("kind", L.c_u32), ("op", L.c_u32),
                ("dtype", L.c_u32), ("name", L.c_cp), ("bytes", L.c_size), ("fused", L.c_cp),
                ("reserved", L.c_u64 * 3)]


class _Options(ctypes.Structure):
    _fields_ = [("struct_size", L.c_u32), ("flags", L.c_u32), ("reserved", L.c_u64 * 6)]


_begin = L._proto("accel_queue_begin_capture", L.st, L.c_vp)
_end = L._proto("accel_queue_end_capture", L.st, L.c_vp, P(L.c_vp))
_options_init = L._proto("accel_graph_options_init", None, P(_Options))
_instantiate = L._proto("accel_graph_instantiate", L.st, L.c_vp, P(_Options))
_launch = L._proto("accel_graph_launch", L.st, L.c_vp, L.c_vp)
_release = L._proto("accel_graph_release", None, L.c_vp)
_node_count = L._proto("accel_graph_node_count", L.c_size, L.c_vp)
_node_info = L._proto("accel_graph_node_info_get", L.st, L.c_vp, L.c_size, P(_NodeInfo))
_temp_count = L._proto("accel_graph_temporary_count", L.c_size, L.c_vp)
_backend_replay = L._proto("accel_graph_backend_replay", L.st, L.c_vp, P(L.c_bool))

_NO_FUSION = 1 << 1
_KINDS = {1: "op", 2: "write", 3: "read", 4: "copy", 5: "event_record"}


class _CaptureStream(Stream):
    """The current stream while a capture records: the captured queue
    under another Python object, so that every array the capture touches
    passes through :meth:`_join_from` (its block's stream is not this one)
    and is found at the end (its block's stream is this one)."""

    def __init__(self, real: Stream):  # no queue of its own: Stream.__init__ is not called
        self.device, self._rt, self.real = real.device, real._rt, real
        self._handle, self._cq = real._handle, real._cq
        self._joins: List[int] = []
        self._jlock = threading.Lock()
        self._prev: List[Optional[Stream]] = []

    def _join_from(self, other: Stream) -> None:
        # No waiting on events of other queues inside a capture (graph.h):
        # the host waits for that queue's work now instead.
        h = other._handle
        if h is not None and h != self._handle and other._rt.alive:
            check(L.queue_finish(h))

    def _release_now(self) -> None:
        self._handle = None  # the queue is the real stream's

    def release(self) -> None:
        self._release_now()


class Graph:
    """Recorded work of one stream (accel_graph). ``launch(stream=None)``
    replays it on `stream` (default: the current stream of its device),
    asynchronously, ordered after earlier work on the arrays it uses.
    ``instantiate()`` plans it (fusion; compile time falls there instead of
    in the first launch). ``nodes``: one dict per recorded node (kind,
    name, fused: the fused kernel's name or None). ``release()`` frees it
    (also when garbage). Raises AccelError from the C calls
    (ReleasedError after release)."""

    def __init__(self, stream: Optional[Stream] = None, fuse: bool = True):
        self._stream, self.fuse = stream, bool(fuse)
        self._h: Optional[int] = None
        self._cap: Optional[_CaptureStream] = None
        self._blocks: List[Any] = []
        self._orphans: Set[Any] = set()
        self._ready = False

    # -------------------------------------------------- capture
    def __enter__(self) -> "Graph":
        s = self._stream if self._stream is not None else get_current_stream()
        self._begin(s)
        return self

    def __exit__(self, et: Any, ev: Any, tb: Any) -> None:
        try:
            self._end(self._cap.real if self._cap is not None else None)
        except Exception:
            if et is None:
                raise

    def _begin(self, s: Stream) -> None:
        if self._h is not None or self._cap is not None:
            raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                        "accel.graph: this graph was captured already")
        if isinstance(s, _CaptureStream) or _tls.capturing:
            raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                        "accel.graph: this thread is already capturing")
        check(_begin(s._h()))
        cap = self._cap = _CaptureStream(s)
        _tls.capturing = True
        cap.__enter__()
        _capturing[id(s)] = self

    def _end(self, s: Optional[Stream]) -> None:
        cap = self._cap
        if cap is None or s is None:
            raise error("ACCEL_ERROR_INVALID_ARGUMENT", "accel.graph: no capture is open")
        _capturing.pop(id(s), None)
        cap.__exit__(None, None, None)
        _tls.capturing = False
        g = ctypes.c_void_p()
        code = _end(s._h(), ctypes.byref(g))
        self._h = g.value
        self._adopt(cap, s)
        check(code)

    def _adopt(self, cap: _CaptureStream, real: Stream) -> None:
        """Keep every block the capture touched (its stream is the capture
        stream) out of the memory pool while the graph lives."""
        from ._core import _Block
        blocks = [o for o in gc.get_referrers(cap) if isinstance(o, _Block) and o.stream is cap]
        for b in blocks:
            b.stream = real
            if b.home is not None:  # freed during the capture: off its free list
                try:
                    b.home.remove(b)
                    self._orphans.add(b)
                except ValueError:
                    pass
            b.home = None
            b.pin = self._orphans
        self._blocks = blocks

    # -------------------------------------------------- replay
    def _handle(self) -> int:
        if self._h is None:
            raise L.ReleasedError("ACCEL_ERROR_INVALID_HANDLE",
                                  "accel.Graph: not captured yet, or released")
        return self._h

    def instantiate(self) -> None:
        """Plan the graph now (fusion unless fuse=False)."""
        o = _Options()
        _options_init(ctypes.byref(o))
        o.flags = 0 if self.fuse else _NO_FUSION
        check(_instantiate(self._handle(), ctypes.byref(o)))
        self._ready = True

    def launch(self, stream: Optional[Stream] = None) -> None:
        """Enqueue the recorded work on `stream` (default: the current stream
        of the graph's device)."""
        h = self._handle()
        if not self._ready:
            self.instantiate()
        assert self._cap is not None  # set by the capture that made h
        s = stream if stream is not None else get_current_stream(self._cap.device)
        _join(s, *self._blocks)
        check(_launch(h, s._h()))

    upload = instantiate  # CuPy's name

    @property
    def nodes(self) -> List[Dict[str, Any]]:
        """The recorded nodes in order: kind ("op", "write", "read",
        "copy", "event_record"), name (the recorded call's), fused (the
        fused kernel's name once instantiated, else None)."""
        h = self._handle()
        out = []
        for i in range(_node_count(h)):
            n = _NodeInfo()
            n.struct_size = ctypes.sizeof(n)
            check(_node_info(h, i, ctypes.byref(n)))
            out.append({"kind": _KINDS.get(n.kind, str(n.kind)),
                        "name": (n.name or b"").decode(),
                        "fused": n.fused.decode() if n.fused else None})
        return out

    @property
    def temporary_count(self) -> int:
        """The buffers made during the capture, which belong to the graph."""
        return _temp_count(self._handle())

    def release(self) -> None:
        """Free the graph after its launches have run; the buffers it kept go
        back to the memory pool (its temporaries are freed with it)."""
        h, self._h = self._h, None
        if h is None:
            return
        rt = self._cap.device._rt if self._cap is not None else None
        if rt is None or not rt.alive:
            return
        _release(h)
        for b in self._blocks:
            b.pin = None
            if b in self._orphans:
                b.pool.free(b)
        self._blocks, self._orphans = [], set()

    def __del__(self) -> None:
        try:
            self.release()
        except Exception:
            pass

    def __repr__(self) -> str:
        n = _node_count(self._h) if self._h is not None else 0
        return f"<accel.Graph {n} nodes{'' if self._h is not None else ' (released)'}>"


# The open captures by id of their stream (Stream.begin_capture/end_capture).
_capturing: Dict[int, Graph] = {}


def graph(stream: Optional[Stream] = None, fuse: bool = True) -> Graph:
    """``with accel.graph() as g:`` records the work of `stream` (default:
    the current stream of the current device) in the block; ``g.launch()``
    replays it. `fuse`: fuse runs of elementwise ops into one kernel
    (graph.h). See :class:`Graph`."""
    return Graph(stream, fuse)


def begin_capture(s: Stream) -> None:
    """Stream.begin_capture: start recording `s`."""
    if id(s) in _capturing:
        raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                    "accel.Stream.begin_capture: this stream is already capturing")
    Graph(s)._begin(s)


def end_capture(s: Stream) -> Graph:
    """Stream.end_capture: stop recording `s` and return its Graph."""
    g = _capturing.get(id(s))
    if g is None:
        raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                    "accel.Stream.end_capture: this stream is not capturing")
    g._end(s)
    return g


_set_capture(begin_capture, end_capture)
