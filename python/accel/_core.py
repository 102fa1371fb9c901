# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""The runtime, devices, streams (accel queues), events, the memory pool,
and what runs where: info(), verify mode, the placement report.

One runtime per process, opened on first use from the default plugins.ini
(or ``$ACCEL_CONFIG``; :func:`init` takes a path) and closed at exit.
"""
from __future__ import annotations

import atexit
import builtins
import ctypes
import itertools
import os
import threading
import weakref
from typing import Any, Dict, List, Optional, Tuple, Union

from . import _lib as L
from ._lib import AccelError, ForkedError, ReleasedError, check, error

_KINDS = {1: "cpu", 2: "gpu", 3: "other"}


class _Runtime:
    """The process's accel runtime (a handle and what hangs on it).

    Closing (shutdown(), interpreter exit) first makes every Python object
    of the runtime unusable (``alive`` False, every stream's handle None:
    later calls raise ReleasedError before any C call), then leaves the rest
    to accel_runtime_close, which kills every handle at once, waits for the
    calls other threads have in flight and frees everything: no queue or
    buffer is released one by one while another thread may be enqueuing on
    it. Memory exported to NumPy or a DLPack consumer (``exports``) must
    outlive the close: while such a block lives, the C close is deferred
    until the last one is garbage."""

    def __init__(self, config: Optional[str]):
        h = ctypes.c_void_p()
        check(L.runtime_open(config.encode() if config else None, ctypes.byref(h)))
        self.handle = h.value
        self.alive = True
        self.pid = os.getpid()
        # Set in a forked child for the parent's runtime (ForkedError).
        self.forked_from = 0
        self.devices: List[Device] = []
        for i in range(L.device_count(self.handle)):
            d = ctypes.c_void_p()
            check(L.device_get(self.handle, i, ctypes.byref(d)))
            self.devices.append(Device._make(self, i, d.value))
        d = ctypes.c_void_p()
        check(L.device_default(self.handle, ctypes.byref(d)))
        self.default_device = next(x for x in self.devices if x._handle == d.value)
        self.pool = MemoryPool()
        for dev in self.devices:
            dev._free = self.pool._lists(dev)
        # Every stream of this runtime: closing it invalidates them all.
        self.streams: "weakref.WeakSet[Stream]" = weakref.WeakSet()
        # Blocks whose memory NumPy or a DLPack consumer may see.
        self.exports: "weakref.WeakSet[_Block]" = weakref.WeakSet()
        self._waits: List[Any] = []  # weak references whose end closes the runtime
        # Called by _kill: what other modules hold for this runtime's devices
        # (the staging blocks and held arrays of _staging.py) let go.
        self.at_kill: List[Any] = []

    def _kill(self) -> None:
        """Make every Python object of the runtime unusable, with no C call:
        ops, streams and events raise ReleasedError from now on."""
        self.alive = False
        for st in list(self.streams):
            st._handle = None
            st._joins = []  # the events die with the runtime
            # no work is left to wait for: a join in another thread that
            # found the handle gone (Stream._join_from) waits on this
            st._drained.set()
        # Cached blocks are dropped (the C close frees their buffers); blocks
        # freed from now on are not cached.
        pool = self.pool
        pool._limit = -1
        pool._fast = False
        pool.free_all_blocks()
        hooks, self.at_kill = self.at_kill, []
        for f in hooks:
            f()

    def close(self, at_exit: bool = False) -> None:
        """Close the runtime now, or when the last exported block is
        garbage. At interpreter exit with exports alive and other threads
        running (daemon threads that may be reading them), the runtime is
        left open for the process's end to reclaim."""
        if not self.alive:
            return
        if any(b.handle is not None for b in list(self.exports)):
            # The C close may be deferred: let the queued work end first, so
            # a non-blocking read into exported (pinned) memory lands before
            # shutdown() returns, as the C close's own wait would make it.
            for st in list(self.streams):
                if st._handle is not None:
                    L.queue_finish(st._handle)  # its error dies with the runtime
        self._kill()  # also drops _staging's blocks (exports) via at_kill
        live = [b for b in list(self.exports) if b.handle is not None]
        if not live:
            _close_handle(self.handle)
            return
        if at_exit:
            if threading.active_count() > 1:
                return
            _close_handle(self.handle)
            return
        # The callbacks hold what they need (no module globals: the last
        # block may go during interpreter teardown).
        left = [len(live)]
        lock = threading.Lock()
        handle = self.handle

        def gone(_ref: Any, left: List[int] = left, lock: Any = lock,
                 close: Any = _close_handle) -> None:
            with lock:
                left[0] -= 1
                last = left[0] == 0
            if last:
                close(handle)

        self._waits = [weakref.ref(b, gone) for b in live]


def _close_handle(handle: int, close: Any = L.runtime_close) -> None:
    # accel_runtime_close through ctypes (the GIL is released while it waits
    # for other threads' calls and the queues' work).
    close(handle)


_rt: Optional[_Runtime] = None
_rt_lock = threading.Lock()


def init(config: Optional[str] = None) -> None:
    """Open the runtime from plugins.ini at `config` (default: $ACCEL_CONFIG,
    else the plugins.ini next to libaccel). Implicit on first use; call it
    first to choose the file. Raises AccelError (ACCEL_ERROR_CONFIG,
    ACCEL_ERROR_NOT_FOUND, ACCEL_ERROR_UNAVAILABLE) when it cannot open, and
    InvalidArgumentError when the runtime is already open."""
    global _rt
    with _rt_lock:
        if _rt is not None and _rt.alive:
            raise L.error("ACCEL_ERROR_INVALID_ARGUMENT",
                          "accel.init: the runtime is already open (call accel.shutdown() first)")
        _rt = _Runtime(config)


def runtime() -> _Runtime:
    """The open runtime, opening it on first use."""
    rt = _rt
    if rt is not None and rt.alive:
        return rt
    with _rt_lock:
        if _rt is None or not _rt.alive:
            globals()["_rt"] = _Runtime(None)
        return _rt  # type: ignore[return-value]


def shutdown() -> None:
    """Close the runtime: drain every queue and free everything. Arrays,
    streams and events made before are unusable afterwards (ReleasedError),
    also in threads still using them (an op in flight finishes first); the
    next accel call opens a new runtime. Memory that NumPy or a DLPack
    consumer still sees (``np.asarray(x)``, ``np.from_dlpack(x)``) stays
    valid: the old runtime is closed when the last such array is garbage."""
    with _rt_lock:
        if _rt is not None:
            _rt.close()


def _shutdown_at_exit() -> None:
    # As shutdown(), but memory exported to NumPy stays valid while daemon
    # threads run (they may read it while the interpreter ends).
    with _rt_lock:
        if _rt is not None:
            _rt.close(at_exit=True)


atexit.register(_shutdown_at_exit)


def _after_fork_in_child() -> None:
    """os.register_at_fork's child hook: the parent's runtime cannot be used
    in a forked child (libaccel refuses its handles there), so its Python
    objects become unusable (ForkedError) without any C call, and the
    child's first accel call opens a fresh runtime. Locks another thread of
    the parent may have held at the fork are made anew."""
    global _rt, _rt_lock, _current_lock
    _rt_lock = threading.Lock()
    _current_lock = threading.Lock()
    for hook in _fork_hooks:
        hook()
    rt = _rt
    _rt = None
    if rt is not None and rt.alive:
        rt.forked_from = rt.pid
        rt.pool._lock = threading.Lock()
        for st in list(rt.streams):  # their locks too (_kill sets _drained)
            st._drained = threading.Event()
            st._jlock = threading.Lock()
        rt._kill()


# Other modules' child hooks (their own locks), run first.
_fork_hooks: List[Any] = []
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def released_error(rt: Optional[_Runtime], message: str) -> ReleasedError:
    """ReleasedError(message), or ForkedError when `rt` is the runtime of
    the parent of this forked process."""
    if rt is not None and rt.forked_from:
        return ForkedError(
            "ACCEL_ERROR_INVALID_HANDLE",
            f"{message.split(':', 1)[0]}: the object belongs to the accel runtime of process "
            f"{rt.forked_from}, the parent of this forked process ({os.getpid()}); a forked child "
            "has a fresh runtime: make the arrays, streams and events again in the child (or "
            "pass NumPy data to it)")
    return ReleasedError("ACCEL_ERROR_INVALID_HANDLE", message)


# ----------------------------------------------------------------- devices

class _ThreadState(threading.local):
    """Per thread: the ``with Device()`` stack and the current stream of each
    device (device handle -> Stream; None until a ``with Stream()``)."""

    devices: Optional[List["Device"]] = None
    streams: Optional[Dict[int, "Stream"]] = None
    # True while this thread captures a graph (_graph.py).
    capturing: bool = False


_tls = _ThreadState()
# Open ``with Stream()`` blocks in all threads, plus one per Stream.use() ever:
# while it is 0 the current stream of every device in every thread is the
# device's default stream, and the per-op path skips the thread-local lookup.
_current_set = [0]
_current_lock = threading.Lock()


class Device:
    """One accel device ("cuda:0", "cpu:0"). ``with accel.Device("cpu"):``
    makes it the current device: arrays made inside the block are made there.
    Devices belong to the runtime and are never released."""

    _rt: _Runtime
    _handle: int
    index: int
    name: str

    def __new__(cls, device: Union[str, int, "Device", None] = None) -> "Device":
        return get_device(device)

    @classmethod
    def _make(cls, rt: _Runtime, index: int, handle: int) -> "Device":
        self = object.__new__(cls)
        self._rt = rt
        self._handle = handle
        self.index = index
        self.name = L.device_name(handle).decode()
        p = L.DeviceProperties()
        p.struct_size = ctypes.sizeof(p)
        check(L.device_properties_get(handle, ctypes.byref(p)))
        self.kind = _KINDS.get(p.kind, "other")
        self.backend = p.backend.decode()
        self.description = p.name.decode()
        self.host_accessible = bool(p.host_accessible)
        self.memory_total = int(p.memory_total)
        self.compute_capability = int(p.compute_capability)
        self._null: Optional[Stream] = None
        self._null_lock = threading.Lock()
        # The memory pool's free lists of this device (rounded size ->
        # blocks), set when the runtime makes its pool.
        self._free: Dict[int, List[_Block]] = {}
        return self

    def __init__(self, device: Union[str, int, "Device", None] = None) -> None:
        pass

    def __repr__(self) -> str:
        return f"<accel.Device {self.name} ({self.description})>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Device) and other._handle == self._handle

    def __hash__(self) -> int:
        return hash(self._handle)

    def __reduce__(self) -> Tuple[Any, ...]:
        # pickle: by name, the same-named device of the unpickling process.
        return (get_device, (self.name,))

    def __enter__(self) -> "Device":
        stack = getattr(_tls, "devices", None)
        if stack is None:
            stack = _tls.devices = []
        stack.append(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        _tls.devices.pop()

    def synchronize(self) -> None:
        """Wait for the work of this device's default stream."""
        self.null_stream.synchronize()

    @property
    def null_stream(self) -> "Stream":
        """The device's default stream (used when no ``with Stream()`` for
        this device is active)."""
        s = self._null
        if s is None:
            with self._null_lock:
                if self._null is None:
                    self._null = Stream(self)
                s = self._null
        return s


def get_device(device: Union[str, int, Device, None] = None) -> Device:
    """The device named `device` ("cpu", "cuda", "cuda:1", "default"), of
    index `device`, or the current device when None (the innermost
    ``with accel.Device(...)``, else the runtime's default device: the first
    backend of plugins.ini that loaded). Raises AccelError
    ACCEL_ERROR_NOT_FOUND for an unknown name (the message lists the
    devices)."""
    rt = runtime()
    if device is None:
        stack = getattr(_tls, "devices", None)
        if stack:
            return stack[-1]
        return rt.default_device
    if isinstance(device, Device):
        if device._rt is not rt:
            raise released_error(device._rt,
                                 f"accel: device {device.name} belongs to a closed runtime")
        return device
    if isinstance(device, int):
        if not 0 <= device < len(rt.devices):
            raise L.error("ACCEL_ERROR_NOT_FOUND",
                          f"accel: no device {device}; there are {len(rt.devices)}")
        return rt.devices[device]
    h = ctypes.c_void_p()
    check(L.device_get_by_name(rt.handle, str(device).encode(), ctypes.byref(h)))
    return next(d for d in rt.devices if d._handle == h.value)


def devices() -> List[Device]:
    """Every device of every loaded backend, in plugins.ini order."""
    return list(runtime().devices)


# ----------------------------------------------------------------- streams

# Graph capture stands above streams (_graph.py): it hands its begin and end
# here when it loads, so that Stream's capture methods need not import it.
_capture: Dict[str, Any] = {}


def _set_capture(begin: Any, end: Any) -> None:
    _capture["begin"], _capture["end"] = begin, end


class _NullOfCurrentDevice:
    """``Stream.null``: the current device's default stream (CuPy's
    ``cp.cuda.Stream.null.synchronize()``)."""

    def __get__(self, obj: Any, cls: Any) -> "Stream":
        return get_device(None).null_stream


class Stream:
    """An accel queue: in-order, asynchronous (a CUDA stream; a worker thread
    on the CPU), on one device. ``with accel.Stream() as s:`` makes it the
    current stream of its device: ops on arrays of that device are enqueued
    on it. Work on different streams is ordered only by events, except that
    accel orders it for you when an array moves from one stream to another
    (an event is recorded on the old stream and waited for on the new).
    ``release()`` (or garbage collection) waits for the stream's work.
    ``Stream.null`` is the current device's default stream."""

    null = _NullOfCurrentDevice()

    def __init__(self, device: Union[str, int, Device, None] = None, non_blocking: bool = False):
        self.device = get_device(device)
        h = ctypes.c_void_p()
        check(L.queue_create(self.device._handle, ctypes.byref(h)))
        self._handle: Optional[int] = h.value
        self._cq = h  # the handle as a c_void_p, for the calls without argtypes
        self._rt = self.device._rt
        # Events this stream waits on (freed at synchronize). Several threads
        # may order work on one stream (each op joins the stream that last
        # used its buffers), so the list is only touched under _jlock.
        self._joins: List[int] = []
        self._jlock = threading.Lock()
        self._prev: List[Optional[Stream]] = []
        # Set once release has waited for the stream's work: a thread that
        # sees _handle None while another is still in queue_release waits
        # for it (_join_from).
        self._drained = threading.Event()
        self._rt.streams.add(self)

    def _h(self) -> int:
        h = self._handle
        if h is None or not self._rt.alive:
            raise released_error(self._rt, "accel.Stream: the stream was released (or the "
                                 "runtime closed)")
        return h

    def __repr__(self) -> str:
        return f"<accel.Stream on {self.device.name}>"

    def __reduce__(self) -> Any:
        raise TypeError("accel.Stream cannot be pickled: a stream is a queue of this process's "
                        "runtime; make a new accel.Stream() where it is unpickled")

    def __enter__(self) -> "Stream":
        self._h()
        cur = getattr(_tls, "streams", None)
        if cur is None:
            cur = _tls.streams = {}
        with _current_lock:
            _current_set[0] += 1
        self._prev.append(cur.get(self.device._handle))
        cur[self.device._handle] = self
        return self

    def __exit__(self, *exc: Any) -> None:
        prev = self._prev.pop()
        cur = _tls.streams
        if prev is None:
            cur.pop(self.device._handle, None)
        else:
            cur[self.device._handle] = prev
        with _current_lock:
            _current_set[0] -= 1

    def use(self) -> "Stream":
        """Make this the current stream of its device for this thread (until
        another ``use()`` or the end of a ``with`` block); returns self."""
        cur = getattr(_tls, "streams", None)
        if cur is None:
            cur = _tls.streams = {}
        with _current_lock:
            _current_set[0] += 1  # for good: use() has no end
        cur[self.device._handle] = self
        return self

    def synchronize(self) -> None:
        """Block until all work enqueued so far is done. Raises the AccelError
        of enqueued work that failed (the queue's sticky error)."""
        code = L.queue_finish(self._h())
        self._free_joins()
        check(code)

    def begin_capture(self) -> None:
        """Record this stream's work from now on instead of running it (as
        CuPy's Stream.begin_capture; see accel.graph): this stream becomes
        the current stream of its device for this thread until
        :meth:`end_capture`. Raises InvalidArgumentError when a capture is
        already open on this stream or thread."""
        _capture["begin"](self)

    def end_capture(self) -> Any:
        """Stop recording and return the :class:`accel.Graph` of the work
        recorded since :meth:`begin_capture` (``g.launch()`` replays it).
        Raises InvalidArgumentError when this stream is not capturing."""
        return _capture["end"](self)

    def record(self, event: Optional["Event"] = None) -> "Event":
        """Record `event` (a new one when None) at the current end of the
        stream and return it."""
        ev = event if event is not None else Event(self.device)
        ev.record(self)
        return ev

    def wait_event(self, event: "Event") -> None:
        """Work enqueued on this stream from now on starts after `event`'s
        work is done (the event may be of another device)."""
        check(L.queue_wait_event(self._h(), event._h()))

    @property
    def done(self) -> bool:
        """True when all work enqueued so far is done: records an event and
        asks, without waiting, whether the queue has passed it (so it may be
        False for a moment even on an idle stream)."""
        return self.record().done

    @property
    def ptr(self) -> int:
        """The native stream (cudaStream_t as an int) where the backend has
        one, else 0."""
        if L.queue_native_stream is None:
            return 0
        p = ctypes.c_void_p()
        check(L.queue_native_stream(self._h(), ctypes.byref(p)))
        return p.value or 0

    def _join_from(self, other: "Stream") -> None:
        # Order everything enqueued so far on `other` before later work here.
        # A released stream has finished its work (release waits for it; a
        # release still waiting in another thread is waited for here).
        if not other._rt.alive:
            return
        h = other._handle
        if h is None:
            other._drained.wait()
            return
        ev = ctypes.c_void_p()
        check(L.event_create(other.device._handle, ctypes.byref(ev)))
        code = L.event_record(ev.value, h)
        if code and other._handle is None:
            # released by another thread meanwhile (the library refuses the
            # stale handle): its work is done once that release returns
            if other._rt.alive:  # else the event died with the runtime
                L.event_release(ev.value)
            other._drained.wait()
            return
        if code == 0:
            code = L.queue_wait_event(self._h(), ev.value)
        if code:
            if self._rt.alive:
                L.event_release(ev.value)
            check(code)
        with self._jlock:
            self._joins.append(ev.value)
            if len(self._joins) > 256:
                self._prune_joins_locked()

    def _prune_joins_locked(self) -> None:
        # Release the joins whose work is done; the caller holds _jlock.
        keep = []
        done = ctypes.c_bool()
        for ev in self._joins:
            if L.event_query(ev, ctypes.byref(done)) == 0 and done.value:
                L.event_release(ev)
            else:
                keep.append(ev)
        self._joins = keep

    def _free_joins(self) -> None:
        # Take the list under the lock so that no event is released twice
        # (or appended to a list being released) by threads sharing the stream.
        with self._jlock:
            evs, self._joins = self._joins, []
        if evs and self._rt.alive:
            for ev in evs:
                L.event_release(ev)

    def _release_now(self) -> None:
        h, self._handle = self._handle, None
        if h is not None:
            try:
                if self._rt.alive:
                    L.queue_release(h)
                    self._free_joins()
            finally:  # a join waiting in another thread ends even if this raised
                self._drained.set()

    def release(self) -> None:
        """Wait for the stream's work, then free it. Later use raises
        ReleasedError. The default stream of a device cannot be released."""
        if self is self.device._null:
            raise L.error("ACCEL_ERROR_INVALID_ARGUMENT",
                          "accel.Stream.release: the default stream of a device lives as long "
                          "as the runtime")
        self._release_now()

    def __del__(self) -> None:
        try:
            self._release_now()
        except Exception:
            pass


def get_current_stream(device: Union[str, int, Device, None] = None) -> Stream:
    """The current stream of `device` (default: the current device) for this
    thread: the innermost ``with Stream()`` of that device, else its default
    stream."""
    dev = get_device(device)
    cur = getattr(_tls, "streams", None)
    if cur:
        s = cur.get(dev._handle)
        if s is not None:
            return s
    return dev.null_stream


def _stream_for(dev: Device) -> Stream:
    if _current_set[0]:
        cur = _tls.streams
        if cur:
            s = cur.get(dev._handle)
            if s is not None:
                return s
    s = dev._null
    return s if s is not None else dev.null_stream


# ------------------------------------------------------------------ events

def _join(s: Stream, *blocks: Any) -> None:
    # Order s after the earlier work on each block's buffer (another stream's).
    for blk in blocks:
        if blk.stream is not s:
            s._join_from(blk.stream)
            blk.stream = s


class Event:
    """A marker in a stream, for ordering streams and timing device work.
    ``start.record(); ...; end.record(); end.synchronize();
    accel.get_elapsed_time(start, end)`` gives milliseconds of device time."""

    def __init__(self, device: Union[str, int, Device, None] = None):
        self.device = get_device(device)
        h = ctypes.c_void_p()
        check(L.event_create(self.device._handle, ctypes.byref(h)))
        self._handle: Optional[int] = h.value
        self._rt = self.device._rt

    def _h(self) -> int:
        h = self._handle
        if h is None or not self._rt.alive:
            raise released_error(self._rt, "accel.Event: the event was released (or the "
                                 "runtime closed)")
        return h

    def __reduce__(self) -> Any:
        raise TypeError("accel.Event cannot be pickled: an event marks work of this process's "
                        "streams; record a new accel.Event() where it is unpickled")

    def record(self, stream: Optional[Stream] = None) -> None:
        """Mark the current end of `stream` (default: the current stream of
        the event's device). Raises DeviceMismatchError for a stream of
        another device."""
        s = stream if stream is not None else get_current_stream(self.device)
        check(L.event_record(self._h(), s._h()))

    def synchronize(self) -> None:
        """Block until the event's work is done; raises the AccelError of
        enqueued work before it that failed."""
        check(L.event_synchronize(self._h()))

    @property
    def done(self) -> bool:
        """True once the event's work is done (an event never recorded is
        done)."""
        d = ctypes.c_bool()
        check(L.event_query(self._h(), ctypes.byref(d)))
        return bool(d.value)

    def query(self) -> bool:
        """Same as ``done``."""
        return self.done

    def elapsed_time(self, end: "Event") -> float:
        """Milliseconds of device time from this event to `end` (both
        recorded on one device and complete)."""
        return get_elapsed_time(self, end)

    def release(self) -> None:
        """Free the event; later use raises ReleasedError."""
        h, self._handle = self._handle, None
        if h is not None and self._rt.alive:
            L.event_release(h)

    def __del__(self) -> None:
        try:
            self.release()
        except Exception:
            pass


def get_elapsed_time(start: Event, end: Event) -> float:
    """Milliseconds of device time between two completed events recorded on
    the same device (as cupy.cuda.get_elapsed_time). Raises
    InvalidArgumentError when one is not recorded or not complete (call
    ``end.synchronize()`` first), DeviceMismatchError across devices."""
    ms = ctypes.c_double()
    check(L.event_elapsed_ms(start._h(), end._h(), ctypes.byref(ms)))
    return ms.value


# ------------------------------------------------------------- memory pool

# Numbers each hand-out of a block (itertools.count's next is atomic under
# the GIL), so a caller can tell the blocks handed out after a point in time
# (block_serial_mark) from those in use before it: accel.fuse's outputs.
_BLOCK_SERIALS = itertools.count(1)


def block_serial_mark() -> int:
    """A serial every block handed out from now on exceeds."""
    return next(_BLOCK_SERIALS)


class _Block:
    """One accel buffer and the stream whose order covers all work on it so
    far (so it can be reused or released safely)."""

    __slots__ = ("handle", "device", "nbytes", "stream", "origin", "owner", "slice", "slice_n",
                 "rt", "pool", "home", "dead", "pin", "serial", "__weakref__")

    def __init__(self, handle: int, device: Device, nbytes: int, stream: Stream):
        self.handle = handle
        self.device = device
        self.nbytes = nbytes
        self.stream = stream
        self.origin = stream  # the stream the pool last gave it to (_take)
        self.owner: Any = None  # external owner (DLPack producer) kept alive
        self.slice: Any = None  # the last whole-array accel_slice made over it
        self.slice_n = -1  # its count (a Python int: cheaper to compare than the field)
        self.rt = device._rt
        self.pool: MemoryPool = self.rt.pool
        self.home: Any = None  # the pool's free list of its device and size, once found
        # Set by Array.release(): the buffer is released (never cached) when
        # the last reference goes, so that a thread still in an op on it
        # finishes first and no other array can get it.
        self.dead = False
        # Set while a captured graph uses the block (_graph.py): the graph's
        # set of its blocks no array holds any more; home stays None meanwhile.
        self.pin: Any = None
        self.serial = next(_BLOCK_SERIALS)  # renewed each time the pool hands it out

    def __del__(self) -> None:
        if self.dead and self.handle is not None:
            try:  # module globals may be gone at interpreter exit
                self.pool._release(self)
            except Exception:
                pass


def _buffer_create(dev: int, size: int, out: ctypes.c_void_p) -> Any:
    """accel_buffer_create; while this thread captures a graph, on another
    thread, so that the buffer is the pool's and not one of the graph's
    temporaries (graph.h: buffers the capturing thread creates belong to
    the graph, and their contents after a launch are unspecified). Returns
    the status, or the AccelError of the other thread's failure."""
    if not _tls.capturing:
        return L.buffer_create(dev, size, ctypes.byref(out))
    res: List[Any] = []

    def make() -> None:
        code = L.buffer_create(dev, size, ctypes.byref(out))
        res.append(L.failed(code) if code else 0)

    t = threading.Thread(target=make, name="accel-capture-alloc")
    t.start()
    t.join()
    return res[0]


def _take(lst: List[_Block], s: Stream) -> Optional[_Block]:
    """A block of free list `lst` (one device and size) for stream `s`:
    the newest one the pool last gave to `s` (its origin), among the newest
    32; else the newest block of the list if the stream that used it last
    is `s`, or if the list holds 16 blocks or more (the caller then orders
    `s` after that stream's work so far); else None, and the caller makes a
    new block. Giving a busy stream's block to another stream would
    order the taker after all of that stream's work so far: the tutorial's
    chunks on four streams (examples/python/06_transfer_overlap.py) each
    waited for the previous chunk's stream and ran one after another (2.5
    ms, 1.7 apart). A block made for stream A and used last on B goes back
    to A (CuPy files a block under the stream that allocated it), so a
    pipeline from A to B reuses its blocks, and a program that makes a new
    stream per step keeps about 16 cached blocks of a size (and the streams
    they name) before it reuses them. (Asking whether the other stream is
    done would record an event on it, inside a graph capture too.)"""
    try:
        b = lst[-1]
        if b.origin is s:
            return lst.pop()  # atomic under the GIL; another thread's swap is joined by the caller
        n = len(lst)
        for i in range(n - 2, max(n - 33, -1), -1):
            b = lst[i]
            if b.origin is s:
                lst.remove(b)  # by identity (no __eq__); ValueError if taken meanwhile
                return b
        if n >= 16 or lst[-1].stream is s:
            return lst.pop()
    except (IndexError, ValueError):
        pass
    return None


class MemoryPool:
    """Buffers freed by arrays are kept for reuse by arrays of the same
    device and size (as CuPy's memory pool): freeing and allocating
    temporaries then costs no accel_buffer_create/release (a release waits
    for every queue) and no C call at all. A block goes back to the stream
    it was given to; a stream finding none of its own gets a new buffer
    while fewer than 16 of the size are cached, else takes another's
    (_take); and the stream that takes a block waits for the stream that
    last used it (an event; none when it is the same stream, which runs in
    order). At most ``limit`` bytes are kept (default 1 GiB: a block that
    does not fit next to the cached ones makes the pool give those back
    first); ``free_all_blocks()`` returns them to the device.

    The free lists are ``Device._free`` (rounded size -> blocks), used
    directly by the per-op path in _ufunc.py. The pool counts only the bytes
    of all its blocks (``_total``, changed where a buffer is created or
    released); while that is within ``limit`` the cached bytes are too, so
    taking and giving back a block is a list pop and append with no
    bookkeeping (``_fast``). Past the limit, a freed block goes through
    :meth:`free`, which counts the cached bytes."""

    def __init__(self, limit: int = 1 << 30):
        self._free: Dict[int, Dict[int, List[_Block]]] = {}  # device handle -> size -> blocks
        self._total = 0
        self._limit = limit
        self._fast = True
        self._lock = threading.Lock()

    @property
    def limit(self) -> int:
        """The most bytes kept cached (set it to change it; -1 caches none)."""
        return self._limit

    @limit.setter
    def limit(self, value: int) -> None:
        self._limit = int(value)
        self._fast = self._total <= self._limit
        if self.free_bytes() > self._limit:
            self.free_all_blocks()

    def _lists(self, device: Device) -> Dict[int, List[_Block]]:
        """The free lists of `device` (made on first use; kept for the pool's
        life, emptied in place by free_all_blocks)."""
        d = self._free.get(device._handle)
        if d is None:
            d = self._free.setdefault(device._handle, {})
        return d

    @staticmethod
    def _round(nbytes: int) -> int:
        return (nbytes + 255) & -256

    def malloc(self, device: Device, nbytes: int, stream: Stream) -> _Block:
        """A block of at least `nbytes` on `device` for work on `stream`: a
        cached one of that rounded size that `stream` may take without
        waiting for another stream (_take), else a new accel buffer."""
        size = (nbytes + 255) & -256
        lst = device._free.get(size)
        if lst:
            b = _take(lst, stream)
            if b is not None:
                b.serial = next(_BLOCK_SERIALS)
                b.origin = stream
                return b
        return self.fresh(device, size, stream)

    def fresh(self, device: Device, size: int, stream: Stream) -> _Block:
        """A new block of `size` bytes (a multiple of 256) from
        accel_buffer_create; out of memory gives the cached blocks back and
        tries once more. Raises OutOfMemoryError, OutOfRangeError."""
        if not device._rt.alive:
            raise released_error(device._rt, "accel: the runtime was closed (accel.shutdown())")
        if size >= 1 << 64:  # ctypes would pass it modulo 2^64
            raise error("ACCEL_ERROR_OUT_OF_RANGE",
                        f"accel: an array of {size} bytes does not fit in size_t")
        h = ctypes.c_void_p()
        code = _buffer_create(device._handle, size, h)
        if code:
            # Out of memory: give the cached blocks back and try once more.
            if code in (7, 8) and self.free_bytes():
                self.free_all_blocks()
                code = _buffer_create(device._handle, size, h)
            if isinstance(code, AccelError):
                raise code
            check(code)
        self._count(size)
        return _Block(h.value, device, size, stream)

    def _count(self, nbytes: int) -> None:
        # A block of nbytes made (> 0) or released (< 0).
        t = self._total = self._total + nbytes
        self._fast = t <= self._limit

    def free(self, b: _Block) -> None:
        """Take back a block no array uses any more."""
        if not b.rt.alive:
            return
        if b.pin is not None:  # a graph uses it: it gives it back when released
            b.pin.add(b)
            return
        nb = b.nbytes
        if b.owner is not None or b.dead or nb > self._limit:
            self._release(b)
            return
        if self.free_bytes() + nb > self._limit:
            # Make room: the newest free block is the likeliest to be reused.
            self.free_all_blocks()
        lst = b.home
        if lst is None:
            lsts = self._lists(b.device)
            lst = lsts.get(nb)
            if lst is None:
                lst = lsts.setdefault(nb, [])
            b.home = lst
        lst.append(b)

    def _release(self, b: _Block) -> None:
        h, b.handle = b.handle, None
        if h is not None:
            if b.device._rt.alive:
                L.buffer_release(h)
            self._count(-b.nbytes)
        b.owner = None

    def free_all_blocks(self) -> None:
        """Release every cached block (accel_buffer_release each)."""
        with self._lock:
            blocks = []
            for lsts in self._free.values():
                for lst in lsts.values():
                    blocks.extend(lst)
                    lst.clear()
        for b in blocks:
            self._release(b)

    def used_bytes(self) -> int:
        """Bytes held by live arrays."""
        return self._total - self.free_bytes()

    def free_bytes(self) -> int:
        """Bytes cached for reuse."""
        return builtins.sum(size * len(lst) for lsts in list(self._free.values())
                            for size, lst in list(lsts.items()))

    def total_bytes(self) -> int:
        """used_bytes() + free_bytes(): the bytes of every block of the pool."""
        return self._total


def get_default_memory_pool() -> MemoryPool:
    """The process's memory pool (as cupy.get_default_memory_pool())."""
    return runtime().pool


# --------------------------------------------------------------- what runs

class Info:
    """What ``accel info`` prints, as data: ``version``, ``library``,
    ``config`` (the plugins.ini read), ``backends`` (one dict per candidate:
    name, path, loaded, status, reason, description, abi_version,
    device_count), ``devices`` (dicts: name, kind, backend, description,
    memory_total, host_accessible, compute_capability) and
    ``default_device``. ``str(info)`` is a readable report."""

    def __init__(self) -> None:
        rt = runtime()
        self.version = L.version().decode()
        self.library = L.LIBRARY_PATH
        self.config = (L.runtime_config_path(rt.handle) or b"").decode()
        self.backends: List[Dict[str, Any]] = []
        for i in range(L.runtime_backend_count(rt.handle)):
            b = L.BackendInfo()
            b.struct_size = ctypes.sizeof(b)
            check(L.runtime_backend_info(rt.handle, i, ctypes.byref(b)))
            self.backends.append({
                "name": (b.name or b"").decode(), "path": (b.path or b"").decode(),
                "loaded": bool(b.loaded),
                "status": "ACCEL_SUCCESS" if b.loaded else L.status_name(b.status).decode(),
                "reason": (b.reason or b"").decode(errors="replace"),
                "description": (b.description or b"").decode(),
                "abi_version": int(b.abi_version), "device_count": int(b.device_count)})
        self.devices = [{"name": d.name, "kind": d.kind, "backend": d.backend,
                         "description": d.description, "memory_total": d.memory_total,
                         "host_accessible": d.host_accessible,
                         "compute_capability": d.compute_capability} for d in rt.devices]
        self.default_device = rt.default_device.name

    def __repr__(self) -> str:
        return f"<accel.Info default={self.default_device} devices={len(self.devices)}>"

    def __str__(self) -> str:
        out = [f"accel {self.version} ({self.library})", f"config: {self.config}", "backends:"]
        for b in self.backends:
            if b["loaded"]:
                out.append(f"  {b['name']:<8} loaded     {b['device_count']} device(s)  "
                           f"{b['description']}  ({b['path']})")
            else:
                out.append(f"  {b['name']:<8} not loaded {b['status']}: {b['reason']}  "
                           f"({b['path']})")
        out.append("devices:")
        for d in self.devices:
            gib = d["memory_total"] / (1 << 30)
            mark = "  (default)" if d["name"] == self.default_device else ""
            out.append(f"  {d['name']:<8} {d['kind']:<4} {d['description']}, {gib:.1f} GiB{mark}")
        return "\n".join(out)


def info() -> Info:
    """What runs where: libaccel's version and path, the config file, every
    backend that was tried (loaded, or the status and reason it did not
    load, e.g. no CUDA driver), every device and the default device. Print
    it for a report like ``accel info``."""
    return Info()


class VerifyMode:
    """What :func:`verify` set; a context manager that turns verify mode off
    at the end of its block."""

    def __init__(self, reference: Optional[str]):
        self.reference = reference

    def __enter__(self) -> "VerifyMode":
        return self

    def __exit__(self, *exc: Any) -> None:
        verify(None)

    def __repr__(self) -> str:
        return f"<accel verify mode: {self.reference or 'off'}>"


def verify(reference: Union[str, bool, None] = "cpu", *, sample: float = 1.0,
           fail: bool = False, guard: int = 4, seed: int = 0,
           check_reference_device: bool = False,
           repro_dir: Optional[str] = None) -> VerifyMode:
    """Turn verify mode on (every op on another device is also run on the
    `reference` device and compared under accel's tolerance model) or off
    (`reference` None or False). `sample`: fraction of ops checked (0..1);
    `fail`: a mismatch becomes the stream's error (MismatchError at its next
    synchronize) instead of a warning; `guard`: elements next to each output
    that must not change; `check_reference_device`: also check ops running on
    the reference itself (CPU vs CPU); `repro_dir`: one NumPy .npz file per mismatch
    (``np.load`` opens it; ``accel replay`` runs it again). Ops already enqueued keep their mode. Usable as
    ``with accel.verify("cpu", fail=True): ...``. Raises AccelError
    (ACCEL_ERROR_NOT_FOUND for an unknown device, ACCEL_ERROR_INVALID_ARGUMENT
    for sample outside 0..1). See :func:`verify_stats`."""
    rt = runtime()
    if reference is True:
        reference = "cpu"
    o = L.VerifyOptions()
    L.verify_options_init(ctypes.byref(o))
    o.reference = reference.encode() if reference else None
    o.sample = float(sample)
    o.seed = int(seed)
    o.fail_on_mismatch = bool(fail)
    o.check_reference_device = bool(check_reference_device)
    o.repro_dir = repro_dir.encode() if repro_dir else None
    o.guard_elements = int(guard)
    check(L.verify_configure(rt.handle, ctypes.byref(o)))
    return VerifyMode(reference or None)


def verify_stats() -> Dict[str, int]:
    """Verify mode's counters since the runtime opened: ``checked``,
    ``mismatches``, ``skipped``, ``repro_files`` (synchronize first: an op is
    counted once its check ran)."""
    s = L.VerifyStats()
    s.struct_size = ctypes.sizeof(s)
    check(L.verify_stats_get(runtime().handle, ctypes.byref(s)))
    return {"checked": s.checked, "mismatches": s.mismatches, "skipped": s.skipped,
            "repro_files": s.repro_files}


class Report:
    """The placement report: ``rows`` (dicts: op, device, ops, fallbacks,
    fallback_device, bytes_moved, reason) and ``str(report)``, the table that
    ``accel run --report`` prints."""

    def __init__(self, rows: List[Dict[str, Any]], text: str):
        self.rows = rows
        self.text = text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"<accel.Report {len(self.rows)} rows>"


def report_enable(on: bool = True) -> None:
    """Count every op per kind and device from now on (fallbacks are always
    counted), for :func:`report`."""
    check(L.report_enable(runtime().handle, bool(on)))


def report() -> Report:
    """Which device ran each op kind, how many fell back, to where, the
    bytes moved and why. Ops are counted while reporting is on
    (:func:`report_enable`, ``ACCEL_REPORT=1``, or ``report = true`` in
    plugins.ini); fallbacks always."""
    rt = runtime()
    n = ctypes.c_size_t()
    check(L.report_rows(rt.handle, None, 0, ctypes.byref(n)))
    cap = n.value
    arr = (L.ReportRow * max(cap, 1))()
    for r in arr:
        r.struct_size = ctypes.sizeof(L.ReportRow)
    check(L.report_rows(rt.handle, arr, cap, ctypes.byref(n)))
    rows = []
    for r in arr[:min(cap, n.value)]:
        rows.append({"op": L.op_name(r.op).decode(), "device": (r.device or b"").decode(),
                     "ops": r.ops, "fallbacks": r.fallbacks,
                     "fallback_device": (r.fallback_device or b"").decode(),
                     "bytes_moved": r.bytes_moved, "reason": (r.reason or b"").decode()})
    ln = ctypes.c_size_t()
    check(L.report_format(rt.handle, None, 0, ctypes.byref(ln)))
    buf = ctypes.create_string_buffer(ln.value + 1)
    check(L.report_format(rt.handle, buf, ln.value + 1, ctypes.byref(ln)))
    return Report(rows, buf.value.decode(errors="replace"))


# ------------------------------------------------------------ pinned memory

class _PinnedBlock:
    """Page-locked host memory from accel_host_alloc, freed when the NumPy
    array over it (its base) is garbage. It is one of the runtime's exports:
    NumPy sees its memory, so a shutdown() while it lives defers the C
    close (which frees every host allocation) until it is garbage."""

    def __init__(self, device: Device, nbytes: int):
        self.ptr = None  # until allocated: __del__ reads it when that raises
        p = ctypes.c_void_p()
        check(L.host_alloc(device._handle, nbytes, ctypes.byref(p)))
        self.device = device
        self.ptr = p.value
        self.nbytes = nbytes
        device._rt.exports.add(self)

    @property
    def handle(self) -> Optional[int]:
        """Non-None while the memory is held (_Runtime.close's test)."""
        return self.ptr

    @property
    def __array_interface__(self) -> dict:
        return {"shape": (self.nbytes,), "typestr": "|u1", "data": (self.ptr, False),
                "version": 3}

    def __del__(self) -> None:
        if self.ptr and self.device._rt.alive:
            L.host_free(self.device._handle, self.ptr)
        self.ptr = None


# More bytes than any host holds (and than ctypes' size_t and NumPy take).
_PINNED_MAX = 1 << 62


def empty_pinned(shape: Any, dtype: Any = "float64",
                 device: Union[str, int, Device, None] = None) -> Any:
    """A NumPy array of `shape` (an int or a sequence of ints, NumPy's
    integers too) and `dtype` (default float64, as cupyx.empty_pinned) in
    page-locked host memory (accel_host_alloc of `device`'s backend; plain
    aligned memory where it has none): transfers from and to it run at the
    full rate of the bus. Contents undefined; freed when the array is
    garbage (after an accel.shutdown() too: the runtime's close waits for
    it). Raises ValueError (a negative dimension), TypeError (a shape that
    is not integers), OutOfRangeError (more bytes than a host holds),
    OutOfMemoryError."""
    import numpy as np
    import operator
    dt = np.dtype(dtype)
    try:
        shp = ((operator.index(shape),) if not hasattr(shape, "__len__")
               else tuple(operator.index(s) for s in shape))
    except TypeError:
        raise TypeError(f"accel.empty_pinned: shape {shape!r} is not an int or a sequence of "
                        "ints") from None
    if any(s < 0 for s in shp):
        raise error("ACCEL_ERROR_INVALID_ARGUMENT",
                    f"accel.empty_pinned: negative dimension in shape {shp}")
    n = 1
    for x in shp:
        n *= x
    if n * dt.itemsize > _PINNED_MAX:
        raise error("ACCEL_ERROR_OUT_OF_RANGE",
                    f"accel.empty_pinned: shape {shp} of {dt} is {n * dt.itemsize} bytes, more "
                    "than any host holds")
    blk = _PinnedBlock(get_device(device), max(n * dt.itemsize, 1))
    return np.asarray(blk)[:n * dt.itemsize].view(dt).reshape(shp)
