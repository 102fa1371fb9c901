# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""release() of views and of arrays shared by threads, and streams shared by
threads: no data loss, no wrong answers, no event released twice. NumPy (or
the closed-form sum) is the reference; all comparisons are exact."""
import threading
import time

import numpy as np
import pytest

import accel


def test_releasing_a_view_keeps_the_base_and_other_views():
    w = accel.arange(10, dtype=accel.float32)
    v, u = w[1:3], w[5:]
    v.release()
    assert v.released and not w.released and not u.released
    with pytest.raises(accel.ReleasedError):
        v.get()
    np.testing.assert_array_equal(w.get(), np.arange(10, dtype=np.float32))
    np.testing.assert_array_equal(u.get(), np.arange(5, 10, dtype=np.float32))
    np.testing.assert_array_equal((w + w).get(), 2 * np.arange(10, dtype=np.float32))
    w.reshape(2, 5).release()          # a reshape is a view too
    np.testing.assert_array_equal(w.get(), np.arange(10, dtype=np.float32))


def test_releasing_the_base_releases_its_views():
    w = accel.arange(10, dtype=accel.float32)
    v = w[2:4]
    w.release()
    assert w.released and v.released
    with pytest.raises(accel.ReleasedError):
        v.get()


def test_explicit_release_does_not_return_the_buffer_to_the_pool():
    pool = accel.get_default_memory_pool()
    a = accel.ones(1 << 12)
    free, total = pool.free_bytes(), pool.total_bytes()
    a.release()
    assert pool.free_bytes() == free               # not cached for reuse
    assert pool.total_bytes() == total - (1 << 12) * 8   # accel_buffer_release


def test_a_released_buffer_held_by_a_running_op_is_freed_when_the_op_lets_go():
    # An op holds its operands' blocks in locals until its C call returned;
    # release() in another thread then frees the buffer only afterwards.
    pool = accel.get_default_memory_pool()
    a = accel.ones(1 << 12)
    held = a._block                                # what a running op holds
    total = pool.total_bytes()
    a.release()
    assert a.released and held.handle is not None  # not freed under the op
    assert pool.total_bytes() == total
    del held
    assert pool.total_bytes() == total - (1 << 12) * 8


def test_release_while_other_threads_compute_never_gives_a_wrong_sum():
    n = 10000
    want = float(n * (n - 1))                      # sum of a + b, a = b = arange(n)
    arrs = [accel.arange(n, dtype=accel.float32) for _ in range(8)]
    wrong, counts = [], [0, 0]
    lock = threading.Lock()

    def work(k):
        i, ok, gone = k, 0, 0
        end = time.monotonic() + 2.0
        with accel.Stream():
            while time.monotonic() < end:
                a, b = arrs[i % 8], arrs[(i + 3) % 8]
                try:
                    v = float((a + b).sum())
                    if v == want:
                        ok += 1
                    else:
                        wrong.append(v)
                except accel.ReleasedError:
                    gone += 1
                if i % 40 == k:
                    a.release()
                    arrs[i % 8] = accel.arange(n, dtype=accel.float32)
                i += 1
        with lock:
            counts[0] += ok
            counts[1] += gone

    ts = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert wrong == [], f"{len(wrong)} wrong sums, e.g. {wrong[:3]} (want {want})"
    assert counts[0] > 100                         # the loop really ran


def test_threads_sharing_arrays_release_no_event_twice(capfd):
    xs = [accel.arange(1000, dtype=accel.float32) + k for k in range(4)]
    ref = [np.arange(1000, dtype=np.float32) + k for k in range(4)]
    bad, done = [], [0]

    def work(k):
        s = accel.Stream()
        i = k
        end = time.monotonic() + 1.0
        while time.monotonic() < end:
            with s:
                y = xs[i % 4] + xs[(i + 1) % 4]
                z = y * 2
            if i % 8 == 0:
                if not np.array_equal(z.get(), (ref[i % 4] + ref[(i + 1) % 4]) * 2):
                    bad.append(i)
                done[0] += 1
            i += 1
        s.synchronize()

    ts = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    err = capfd.readouterr().err
    assert "not a live event" not in err, err[:500]
    assert bad == [] and done[0] > 10


def test_views_made_while_another_thread_releases_the_owner():
    # Every view is either usable with the right data or raises ReleasedError;
    # none outlives its owner's release.
    stop, bad = time.monotonic() + 1.0, []

    def viewer(box):
        while time.monotonic() < stop:
            w = box[0]
            try:
                v = w[2:6]
                if v.get().tolist() != [2.0, 3.0, 4.0, 5.0]:
                    bad.append(v.get().tolist())
                elif w.released and not v.released:
                    bad.append("a view outlived its owner's release")
            except accel.ReleasedError:
                pass

    box = [accel.arange(8.0)]
    t = threading.Thread(target=viewer, args=(box,))
    t.start()
    while time.monotonic() < stop:
        old = box[0]
        box[0] = accel.arange(8.0)
        old.release()
    t.join()
    assert bad == []
