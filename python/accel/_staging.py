# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Asynchronous host -> device writes of NumPy (pageable) data, staged
through page-locked memory, as accel's C batching helper (core/ops/batch.c)
moves pageable input: the data are copied into a page-locked block (so the
caller may change or drop its array at once), and the block is written to
the device with a non-blocking accel_queue_write on the stream, which a
CUDA device runs as a DMA alongside the stream's other work. A block goes
back to the device's free list once an event recorded after its write has
passed; the blocks stay for later writes (as CuPy's pinned memory pool).

Used by Array.set(..., stream=s) and by accel.asarray inside ``with s:``;
on a backend without page-locking (the CPU) the blocks are plain memory and
the write is still asynchronous on the stream, with no gain in speed.

Data already in page-locked memory (accel.empty_pinned) skips the block:
the stream's DMA reads it in place, as cudaMemcpyAsync from pinned memory,
so the caller must leave it unchanged until the stream has passed the write
(the tutorial's overlap pattern; copying it into a block first would halve
the rate). The array is kept alive until then (`keep_until`), as are the
device buffer and host array of a non-blocking Array.get."""
from __future__ import annotations

import collections
import concurrent.futures
import os
import threading
import weakref
from typing import Deque, Dict, List, Optional, Tuple

import numpy as np

from . import _lib as L
from ._core import Device, Event, Stream, _PinnedBlock, empty_pinned

_MIN_BLOCK = 1 << 20
# Busy blocks beyond this many bytes per device: wait for the oldest first.
_MAX_BUSY_BYTES = 1 << 30


# Held objects of all streams beyond which keep_until sweeps every stream's
# queue (then again at twice the count left).
_HELD_SWEEP = 256


class _DeviceStaging:
    """One device's page-locked blocks and what its streams' queued work
    still reads or writes. Every such thing (a staging block under a write,
    a pinned array read in place, the buffer and host array of a
    non-blocking get) waits in its stream's queue behind an event recorded
    after the work; the queues pass in recording order, so the passed ones
    are popped from the front (one event query when none has passed), and a
    passed block goes back to the free list."""

    def __init__(self) -> None:
        self.free: List[np.ndarray] = []
        # stream (its queue handle) -> (event, object, its bytes if a block
        # to free, else 0), in recording order
        self.held: Dict[int, Deque[Tuple[Event, object, int]]] = {}
        self.nheld = 0
        self.busy_bytes = 0  # of the held blocks
        self.sweep_at = _HELD_SWEEP
        self.lock = threading.Lock()

    def clear(self) -> None:
        """Let go of every block and held object (the runtime's close: its
        queues have finished)."""
        with self.lock:
            self.free, self.held, self.nheld, self.busy_bytes = [], {}, 0, 0

    def _pop_passed(self, q: Deque[Tuple[Event, object, int]], wait: bool = False) -> None:
        """Pop q's passed entries from the front (after waiting for the
        first one when `wait`); a passed block goes back to the free list."""
        if wait and q:
            q[0][0].synchronize()
        while q and q[0][0].done:
            _, obj, nb = q.popleft()
            self.nheld -= 1
            if nb:
                self.free.append(obj)
                self.busy_bytes -= nb

    def _sweep(self, wait: bool = False) -> None:
        for k in list(self.held):
            self._pop_passed(self.held[k], wait)
            if not self.held[k]:
                del self.held[k]
        self.sweep_at = max(_HELD_SWEEP, 2 * self.nheld)

    def _best_fit(self, nbytes: int) -> Optional[np.ndarray]:
        best = -1  # the smallest free block that fits (by index: arrays compare elementwise)
        for i, b in enumerate(self.free):
            if b.nbytes >= nbytes and (best < 0 or b.nbytes < self.free[best].nbytes):
                best = i
        return self.free.pop(best) if best >= 0 else None

    def acquire(self, dev: Device, stream: int, nbytes: int) -> np.ndarray:
        """A free block of at least nbytes for a write on `stream`: that
        stream's passed blocks first, all streams' when none fits, each
        stream's oldest waited for while the held blocks pass
        _MAX_BUSY_BYTES; a new block (a power of two) when none is free."""
        with self.lock:
            self._pop_passed(self.held.get(stream, collections.deque()))
            while self.busy_bytes + nbytes > _MAX_BUSY_BYTES and self.busy_bytes:
                self._sweep(wait=True)
            blk = self._best_fit(nbytes)
            if blk is None and self.nheld:
                self._sweep()
                blk = self._best_fit(nbytes)
            if blk is not None:
                return blk
        size = max(_MIN_BLOCK, 1 << (nbytes - 1).bit_length())
        return empty_pinned(size, np.uint8, device=dev)

    def keep_until(self, stream: int, ev: Event, obj: object, block: bool = False) -> None:
        """Hold obj (a staging block to free when `block`) until ev,
        recorded on queue `stream`, has passed; that stream's passed entries
        are dropped first, all streams' once the count passes sweep_at."""
        with self.lock:
            q = self.held.setdefault(stream, collections.deque())
            self._pop_passed(q)
            nb = obj.nbytes if block else 0  # type: ignore[attr-defined]
            q.append((ev, obj, nb))
            self.nheld += 1
            self.busy_bytes += nb
            if self.nheld > self.sweep_at:
                self._sweep()


# The copy into a page-locked block: one thread copies pageable memory far
# slower than a DMA engine moves it (the lent H100's host: 10M floats of the
# tutorial's section 6 took 11.6 ms through one np.copyto per chunk, against
# 3.3 ms for the serial run, whose C write copies with the backend's copy
# threads), so a large copy is split over a few threads (np.copyto releases
# the GIL) in pieces of at least _COPY_PIECE bytes.
_COPY_PIECE = 1 << 20
_COPY_THREADS = max(1, min(8, (os.cpu_count() or 1)))
_copy_pool: Optional[concurrent.futures.ThreadPoolExecutor] = None
_copy_pool_lock = threading.Lock()


def _copy_in(dst: np.ndarray, src: np.ndarray) -> None:
    """dst[:] = src (uint8, one length), in parallel pieces when large."""
    n = src.nbytes
    k = min(_COPY_THREADS, n // _COPY_PIECE)
    if k < 2:
        np.copyto(dst, src)
        return
    global _copy_pool
    with _copy_pool_lock:
        if _copy_pool is None:
            _copy_pool = concurrent.futures.ThreadPoolExecutor(
                max_workers=_COPY_THREADS - 1, thread_name_prefix="accel-staging-copy")
        pool = _copy_pool
    step = ((n + k - 1) // k + 4095) // 4096 * 4096  # whole pages
    cuts = list(range(0, n, step)) + [n]
    futs = [pool.submit(np.copyto, dst[a:b], src[a:b]) for a, b in zip(cuts[1:-1], cuts[2:])]
    np.copyto(dst[:cuts[1]], src[:cuts[1]])  # the first piece here
    for f in futs:
        f.result()


def _forget_pool_in_child() -> None:
    """A forked child has none of the pool's threads (a submit would wait
    for ever): it makes its own on first use."""
    global _copy_pool
    _copy_pool = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool_in_child)


# Per Device object, so that a runtime opened after a shutdown (new Device
# objects) never gets blocks or events of the closed one.
_staging: "weakref.WeakKeyDictionary[Device, _DeviceStaging]" = weakref.WeakKeyDictionary()
_staging_lock = threading.Lock()


def _for(dev: Device) -> _DeviceStaging:
    with _staging_lock:
        st = _staging.get(dev)
        if st is None:
            st = _staging[dev] = _DeviceStaging()
            dev._rt.at_kill.append(st.clear)
    return st


def is_pinned(a: np.ndarray) -> bool:
    """Whether a is a view of accel.empty_pinned memory."""
    base = a
    while isinstance(base, np.ndarray):
        base = base.base
    return isinstance(base, _PinnedBlock) and base.ptr is not None


def keep_until_passed(s: Stream, *objs: object) -> None:
    """Hold objs until the work enqueued on s so far is done."""
    _for(s.device).keep_until(s._h(), s.record(), objs)


def write_async(s: Stream, handle: int, offset: int, src: np.ndarray) -> None:
    """Enqueue a write of src's bytes (C-contiguous) into buffer `handle`
    at byte `offset` on stream s: from page-locked memory (is_pinned) in
    place, returning at once, src held until the write has passed; else
    through a page-locked block, returning once the data are in the block.
    Raises the AccelError of the enqueue."""
    nbytes = src.nbytes
    if is_pinned(src):
        L.check(L.queue_write(s._h(), handle, offset, src.ctypes.data, nbytes))
        keep_until_passed(s, src)
        return
    st = _for(s.device)
    blk = st.acquire(s.device, s._h(), nbytes)
    _copy_in(blk[:nbytes], src.reshape(-1).view(np.uint8))
    try:
        L.check(L.queue_write(s._h(), handle, offset, blk.ctypes.data, nbytes))
    except BaseException:
        with st.lock:
            st.free.append(blk)
        raise
    st.keep_until(s._h(), s.record(), blk, block=True)
