# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Streams (accel queues) and events."""
import threading
import time

import numpy as np
import pytest

import accel


def test_stream_context_sets_the_current_stream():
    dev = accel.get_device()
    default = accel.get_current_stream()
    assert default is dev.null_stream
    s = accel.Stream()
    with s as cur:
        assert cur is s and accel.get_current_stream() is s
        with accel.Stream() as inner:
            assert accel.get_current_stream() is inner
        assert accel.get_current_stream() is s
    assert accel.get_current_stream() is default


def test_ops_run_on_the_current_stream_of_their_own_thread():
    # The per-op path skips the thread-local lookup while no stream is current
    # anywhere; a stream current in one thread must not leak into another.
    x = accel.ones(64)
    dev = x.device
    assert (x + x)._block.stream is dev.null_stream
    s = accel.Stream()
    entered, leave, seen = threading.Event(), threading.Event(), {}

    def other():
        with s:
            seen["in"] = (x * 2.0)._block.stream
            entered.set()
            leave.wait(10)

    t = threading.Thread(target=other)
    t.start()
    assert entered.wait(10)
    y = accel.negative(x)  # this thread: still the default stream
    assert y._block.stream is dev.null_stream
    leave.set()
    t.join()
    assert seen["in"] is s
    with s:
        assert accel.sqrt(x)._block.stream is s
        assert (x - x)._block.stream is s
    assert (x + x)._block.stream is dev.null_stream
    assert np.array_equal(y.get(), -np.ones(64))


def test_work_on_streams_is_ordered_across_streams(rng):
    # An array made on one stream and used on another: accel orders the
    # second stream after the first (an event), so the result is right
    # without a synchronize in between.
    h = rng.random(1 << 18)
    s1, s2 = accel.Stream(), accel.Stream()
    with s1:
        a = accel.asarray(h)
        b = accel.exp(a)
        for _ in range(5):
            b = b + a
    with s2:
        c = b * 2.0
    got = c.get()  # on the default stream: ordered after s2
    want = (np.exp(h) + 5 * h) * 2.0
    assert np.allclose(got, want, rtol=1e-14)
    s1.synchronize()
    s2.synchronize()
    # done records an event and asks whether it passed (without waiting):
    # on an idle stream it turns true as soon as the queue reaches it.
    deadline = time.monotonic() + 5
    while not (s1.done and s2.done):
        assert time.monotonic() < deadline, "an idle stream never reported done"
        time.sleep(0.001)


def test_events_record_synchronize_elapsed_time():
    s = accel.Stream()
    start, end = accel.Event(), accel.Event()
    with s:
        start.record()
        x = accel.ones(1 << 20)
        y = x
        for _ in range(10):
            y = y + x
        end.record()
    end.synchronize()
    assert end.done and end.query()
    ms = accel.get_elapsed_time(start, end)
    assert ms >= 0.0 and ms == start.elapsed_time(end)
    assert float(y.sum()) == 11.0 * (1 << 20)
    ev = s.record()
    ev.synchronize()
    assert ev.done


def test_elapsed_time_of_an_unrecorded_event_is_an_error():
    a, b = accel.Event(), accel.Event()
    with pytest.raises(accel.AccelError) as e:
        accel.get_elapsed_time(a, b)
    assert e.value.status == "ACCEL_ERROR_INVALID_ARGUMENT"


def test_wait_event_orders_two_streams(rng):
    h = rng.random(1000)
    s1, s2 = accel.Stream(), accel.Stream()
    with s1:
        a = accel.asarray(h)
        b = accel.sqrt(a)
        ev = s1.record()
    s2.wait_event(ev)
    with s2:
        got = b.get(stream=s2)
    assert np.array_equal(got, np.sqrt(h))


def test_stream_released_after_use_waits_for_its_work():
    s = accel.Stream()
    with s:
        x = accel.ones(1 << 16) + 1.0
    s.release()
    assert float(x.sum()) == 2.0 * (1 << 16)
    with pytest.raises(accel.AccelError):
        accel.get_device().null_stream.release()


def test_set_with_a_stream_is_staged_so_the_source_may_change_at_once(rng):
    # Array.set(arr, stream=s) copies arr into a page-locked block and returns;
    # the write runs on s later, from the block, not from arr.
    s = accel.Stream()
    a = accel.empty(1 << 16, dtype=np.float32)
    h = rng.random(1 << 16, dtype=np.float32)
    want = h.copy()
    a.set(h, stream=s)
    h[:] = -1.0
    np.testing.assert_array_equal(a.get(stream=s), want)


def test_asarray_inside_a_stream_is_asynchronous_on_it_and_staged(rng):
    s = accel.Stream()
    h = rng.random(3000, dtype=np.float64)
    want = 2 * h
    with s:
        a = accel.asarray(h)
        h[:] = 0.0
        b = a + a
    np.testing.assert_array_equal(b.get(stream=s), want)
    np.testing.assert_array_equal(a.get(), want / 2)  # also from another stream


def test_staging_blocks_are_reused_once_their_writes_have_passed():
    from accel import _staging

    s = accel.Stream()
    st = _staging._for(s.device)

    def blocks():
        return len(st.free) + sum(1 for q in st.held.values() for _, _, nb in q if nb)

    with st.lock:
        st._sweep()  # earlier tests' passed blocks back to the free list
    before = blocks()
    a = accel.empty(5000, dtype=np.float32)
    for i in range(6):
        a.set(np.full(5000, i, np.float32), stream=s)
    s.synchronize()
    np.testing.assert_array_equal(a.get(stream=s), np.full(5000, 5, np.float32))
    a.set(np.full(5000, 7, np.float32), stream=s)  # pops s's six passed writes first
    mine = [o for _, o, nb in st.held[s._h()] if nb]
    assert len(mine) == 1 and blocks() - before <= 6
    np.testing.assert_array_equal(a.get(stream=s), np.full(5000, 7, np.float32))


@pytest.mark.parametrize("n", [(1 << 20) + 3, (5 << 20) // 4 + 1, 9 << 20])
def test_large_stream_writes_copy_in_parallel_pieces_exactly(n):
    # Writes over 2 MiB are copied into the page-locked block in pieces on
    # several threads (_staging._copy_in): every byte lands, odd tails too,
    # and the source may change at once after the call returns.
    from accel import _staging

    rng = np.random.default_rng(n)
    h = rng.integers(0, 255, size=n, dtype=np.uint8)
    want = h.copy()
    s = accel.Stream()
    a = accel.empty(n, dtype=np.uint8)
    a.set(h, stream=s)
    h[:] = 0  # the call has copied it
    np.testing.assert_array_equal(a.get(stream=s), want)
    dst = np.zeros(n, np.uint8)
    _staging._copy_in(dst, want)
    np.testing.assert_array_equal(dst, want)


def test_pinned_data_is_written_in_place_and_held_until_the_write_passed(rng):
    # Page-locked host data skips the staging block: the stream reads it in
    # place, and accel holds it until an event after the write has passed.
    from accel import _staging

    h = accel.empty_pinned((3, 4000), np.float32)
    h[:] = rng.random((3, 4000), dtype=np.float32)
    want = h.copy()
    assert _staging.is_pinned(h[1]) and not _staging.is_pinned(want)
    s = accel.Stream()
    st = _staging._for(s.device)
    def blocks():
        return len(st.free) + sum(1 for q in st.held.values() for _, _, nb in q if nb)

    made = blocks()
    with s:
        a = accel.asarray(h[1])  # a view of pinned memory: still in place
        b = a * 2.0
    assert blocks() == made  # no staging block made
    held = lambda: [o for q in st.held.values() for _, o, _ in q]  # noqa: E731
    assert any(np.shares_memory(o[0], h[1]) for o in held())  # held, not copied
    np.testing.assert_array_equal(b.get(stream=s), 2 * want[1])
    s.synchronize()
    h2 = accel.empty_pinned(4000, np.float32)
    h2[:] = want[2]
    a2 = accel.empty(4000, dtype=np.float32)
    a2.set(h2, stream=s)  # the stream's next keep drops what has passed
    assert not any(np.shares_memory(o[0], h) for o in held() if isinstance(o[0], np.ndarray))
    assert any(o[0] is h2 for o in held())
    np.testing.assert_array_equal(a2.get(stream=s), want[2])


def test_held_objects_are_dropped_in_order_and_swept_across_streams():
    from accel import _staging

    streams = [accel.Stream() for _ in range(3)]
    st = _staging._for(streams[0].device)
    a = accel.empty(64, dtype=np.float32)
    for i in range(3 * _staging._HELD_SWEEP):
        s = streams[i % 3]
        h = accel.empty_pinned(64, np.float32)
        h[:] = i
        a.set(h, stream=s)
    for s in streams:
        s.synchronize()
    assert st.nheld <= 2 * 3 * _staging._HELD_SWEEP
    assert st.nheld == sum(len(q) for q in st.held.values())
    np.testing.assert_array_equal(a.get(stream=streams[-1]), np.full(64, 3 * 256 - 1, np.float32))


def test_get_without_blocking_fills_out_once_the_stream_has_passed(rng):
    x = rng.random(5000, dtype=np.float64)
    s = accel.Stream()
    out = accel.empty_pinned(5000, np.float64)
    out[:] = -1.0
    with s:
        a = accel.asarray(x)
        r = (a + 1.0).get(stream=s, out=out, blocking=False)
    assert r is out
    s.synchronize()
    np.testing.assert_array_equal(out, x + 1.0)
    # A strided view goes through a contiguous copy, non-blocking as well.
    out2 = np.empty(2500, np.float64)
    a[::2].get(stream=s, out=out2, blocking=False)
    s.synchronize()
    np.testing.assert_array_equal(out2, x[::2])
    # The array may be dropped right after: its buffer is held until the read passed.
    with s:
        big = accel.asarray(x) * 3.0
    out3 = np.empty(5000, np.float64)
    big.get(stream=s, out=out3, blocking=False)
    del big
    s.synchronize()
    np.testing.assert_array_equal(out3, x * 3.0)


def test_set_with_a_stream_checks_the_shape_first():
    a = accel.empty(4, dtype=np.float32)
    with pytest.raises(accel.ShapeMismatchError):
        a.set(np.zeros(5, np.float32), stream=accel.Stream())


def test_get_refuses_each_bad_argument_with_what_is_wrong():
    a = accel.arange(4, dtype=accel.float64)
    with pytest.raises(accel.DtypeMismatchError, match="float32, want float64"):
        a.get(out=np.empty(4, np.float32))
    with pytest.raises(accel.ShapeMismatchError, match=r"shape \(5,\)"):
        a.get(out=np.empty(5))
    with pytest.raises(ValueError, match="not C-contiguous"):
        a.get(out=np.empty(8)[::2])
    ro = np.empty(4)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        a.get(out=ro)
    with pytest.raises(TypeError, match="NumPy array, not bytearray"):
        a.get(out=bytearray(32))
    with pytest.raises(TypeError, match="Stream, not int"):
        a.get(stream=5)
    with pytest.raises(TypeError, match="bool, not str"):
        a.get(blocking="no")
    np.testing.assert_array_equal(a.get(out=np.empty(4)), np.arange(4.0))
