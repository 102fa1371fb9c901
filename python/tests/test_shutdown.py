# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""accel.shutdown() and interpreter exit while other threads use accel, and
memory exported to NumPy outliving the runtime (issue 31, item 3). Each case
runs in a fresh interpreter, many rounds, so a crash is a failed test and not
a lost suite; NumPy's values are the reference."""
import os
import subprocess
import sys
import textwrap

import pytest


def run(code, *args, timeout=240):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *map(str, args)],
                          env=dict(os.environ), capture_output=True, text=True, timeout=timeout)


def expect_ok(r):
    """The child process ran to its end and printed ok."""
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.strip() == "ok"


def test_shutdown_while_threads_compute_gives_released_error_never_a_crash():
    # Two threads run ops on arrays of the runtime that the main thread
    # closes; every round each thread ends with ReleasedError (or its work
    # done), never a crash, a hang or another error.
    r = run("""
        import sys, threading, time
        import numpy as np, accel
        rounds, released, bad = int(sys.argv[1]), [0], []
        for r in range(rounds):
            a = accel.ones(1000, dtype=accel.float32)
            go = threading.Barrier(3)
            def work(k):
                go.wait()
                try:
                    while True:
                        if k == 0:
                            b = a + a
                            c = accel.exp(b)
                        else:
                            with accel.Stream():
                                v = float((a * 2.0).sum())
                                if v != 2000.0:
                                    bad.append(v)
                except accel.ReleasedError:
                    released[0] += 1
                except Exception as e:
                    bad.append(repr(e))
            ts = [threading.Thread(target=work, args=(k,)) for k in range(2)]
            for t in ts:
                t.start()
            go.wait()
            time.sleep(0.0005 * (r % 7))
            accel.shutdown()
            for t in ts:
                t.join(60)
                assert not t.is_alive(), "a thread hangs after shutdown"
        assert bad == [], bad[:5]
        # The next call opens a new runtime that computes right.
        print(released[0], float(accel.arange(10.0).sum()))
    """, 20)
    assert r.returncode == 0, r.stderr[-3000:]
    released, total = r.stdout.split()
    assert int(released) == 40 and float(total) == 45.0


def test_a_join_that_finds_the_stream_gone_after_shutdown_returns():
    # A join (Stream._join_from) that saw the runtime alive and then found
    # the other stream's handle gone waits for that stream's release; a
    # shutdown meanwhile must end that wait, not leave it forever (the test
    # above hung in 3 of 6 runs of 60 rounds that way). Here the join runs
    # with the runtime seen alive and the handle already gone.
    r = run("""
        import threading, accel
        from accel import _core
        s = accel.Stream()
        rt = s._rt
        accel.shutdown()
        rt.alive = True        # as the joining thread saw it a moment before
        t = threading.Thread(target=accel.Stream._join_from, args=(None, s), daemon=True)
        t.start()
        t.join(20)
        rt.alive = False
        print("ok" if not t.is_alive() else "the join hangs")
    """)
    expect_ok(r)


def test_an_array_of_a_closed_runtime_beside_a_new_one_is_a_released_error():
    # Not "arrays on cpu:0 and cpu:0" (the old and the new runtime's device
    # objects differ): the old array's runtime is gone, and the error says so.
    r = run("""
        import accel
        old = accel.ones(4)
        accel.shutdown()
        new = accel.ones(4)
        for f in (lambda: old + new, lambda: accel.add(old, new, out=new),
                  lambda: accel.multiply(new, old)):
            try:
                f()
                print("no error")
            except accel.ReleasedError as e:
                assert "runtime was closed" in str(e), e
        print("ok" if new.get().tolist() == [1.0] * 4 else new.get())
    """)
    expect_ok(r)


def test_a_release_interrupted_midway_still_ends_later_joins():
    # A release that raises after clearing the handle (a KeyboardInterrupt
    # as queue_release returns) still marks the stream drained.
    r = run("""
        import threading, accel
        from accel import _core
        s, t2 = accel.Stream(), accel.Stream()
        real = _core.L.queue_release
        def interrupted(h):
            real(h)
            raise KeyboardInterrupt
        _core.L.queue_release = interrupted
        try:
            s.release()
        except KeyboardInterrupt:
            pass
        _core.L.queue_release = real
        t = threading.Thread(target=t2._join_from, args=(s,), daemon=True)
        t.start()
        t.join(20)
        print("ok" if not t.is_alive() else "the join hangs")
    """)
    expect_ok(r)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_fork_while_another_thread_holds_a_streams_event_lock_does_not_hang_the_child():
    # Only the forking thread lives in the child: the at-fork hook must not
    # wait on a lock (here the stream's drained Event's) that another
    # parent thread held at the fork.
    r = run("""
        import os, threading, time, accel
        s = accel.Stream()
        held = threading.Event()
        def hold():
            with s._drained._cond:
                held.set()
                time.sleep(3)  # the parent's exit waits for it
        threading.Thread(target=hold, daemon=True).start()
        held.wait()
        pid = os.fork()
        if pid == 0:
            os._exit(0 if float(accel.arange(4.0).sum()) == 6.0 else 3)
        for _ in range(200):
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                print("ok" if os.waitstatus_to_exitcode(status) == 0 else "child failed")
                break
            time.sleep(0.05)
        else:
            os.kill(pid, 9)
            print("the child hangs")
    """)
    expect_ok(r)


@pytest.mark.parametrize("fast", ["1", "0"])
def test_exit_with_a_daemon_thread_doing_ops_ends(fast):
    # The interpreter ends (atexit closes the runtime) while a daemon thread
    # runs ops: each run exits 0 within the time limit.
    code = """
        import threading, time, accel
        a = accel.ones(4096)
        go = threading.Event()
        def work():
            while True:
                b = accel.exp(a + a)
                go.set()
        threading.Thread(target=work, daemon=True).start()
        go.wait()
        time.sleep(0.01)
        print("exit")
    """
    env = dict(os.environ, ACCEL_PYTHON_FAST=fast)
    for i in range(3):
        r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0 and r.stdout.strip() == "exit", (i, r.returncode,
                                                                  r.stderr[-3000:])


def test_numpy_views_outlive_shutdown_and_close_the_runtime_when_dropped():
    # np.asarray and np.from_dlpack views of accel memory stay valid after
    # shutdown(); the old runtime is closed once the last one is dropped
    # (its handle is dead then: accel_runtime_config_path gives "").
    r = run("""
        import gc
        import numpy as np, accel
        from accel import _core, _lib as L
        cpu = accel.get_device("cpu")
        a = accel.asarray(np.arange(100000.0), device=cpu)
        b = accel.asarray(np.arange(50.0, dtype=np.float32), device=cpu) * 3.0
        n = np.asarray(a)
        m = np.from_dlpack(b)
        old = _core._rt
        accel.shutdown()
        assert a.released
        junk = [accel.ones(100000, device="cpu") for _ in range(8)]  # a new runtime's memory
        assert n.sum() == 100000.0 * 99999.0 / 2, n.sum()
        assert np.array_equal(m, np.arange(50.0, dtype=np.float32) * 3.0)
        n[5] = -1.0
        assert n[5] == -1.0
        assert L.runtime_config_path(old.handle) != b""   # still open
        del a, n
        gc.collect()
        assert L.runtime_config_path(old.handle) != b""   # m still sees b
        del b, m
        gc.collect()
        assert L.runtime_config_path(old.handle) == b"", "the old runtime was not closed"
        print("ok")
    """)
    expect_ok(r)


@pytest.mark.parametrize("n", [4, 1024, 1 << 22])
def test_pinned_memory_outlives_shutdown_and_a_pending_read_lands_first(n):
    # accel.empty_pinned memory is an export too: shutdown() defers the C
    # close (which frees host allocations) until it is garbage, and first
    # lets queued work end, so a non-blocking get into it has landed. Before:
    # a segfault, heap corruption or garbage after shutdown().
    r = run("""
        import gc, sys
        import numpy as np, accel
        from accel import _core, _lib as L
        n = int(sys.argv[1])
        o = accel.empty_pinned(n)
        assert o.dtype == np.float64  # cupyx.empty_pinned's default
        o[:] = 1.0
        p = accel.empty_pinned(n, dtype=np.float64)
        s = accel.Stream()
        x = accel.arange(n, dtype=accel.float64)
        x.get(stream=s, out=p, blocking=False)  # no synchronize before shutdown
        old = _core._rt
        accel.shutdown()
        assert o.sum() == float(n), o.sum()
        assert np.array_equal(p, np.arange(n, dtype=np.float64))
        o[:] = 2.0
        assert L.runtime_config_path(old.handle) != b""   # still open
        del o, p
        gc.collect()
        assert L.runtime_config_path(old.handle) == b"", "the old runtime was not closed"
        print("ok")
    """, n)
    expect_ok(r)


def test_exit_with_a_thread_reading_a_numpy_view_of_accel_memory():
    # A daemon thread reads NumPy views of accel memory (with the GIL
    # released inside NumPy) while the interpreter ends: no crash.
    code = """
        import threading
        import numpy as np, accel
        cpu = accel.get_device("cpu")
        a = accel.asarray(np.ones(1 << 20), device=cpu)
        n = np.asarray(a)
        m = np.from_dlpack(accel.asarray(np.ones(1 << 20), device=cpu))
        del a
        go = threading.Event()
        def read():
            while True:
                s = float(n.sum()) + float(m.sum())
                if s != 2.0 * (1 << 20):
                    print("wrong", s, flush=True)
                go.set()
        threading.Thread(target=read, daemon=True).start()
        go.wait()
        print("exit")
    """
    for i in range(3):
        r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=dict(os.environ),
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0 and r.stdout.strip() == "exit", (i, r.returncode,
                                                                  r.stdout, r.stderr[-3000:])


def test_exit_with_exports_and_no_other_thread_closes_the_runtime():
    # Without other threads nothing can read the views after exit, so the
    # runtime closes at exit as before: the trace it writes at close is there.
    trace = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"accel_shutdown_{os.getpid()}.json")
    code = """
        import numpy as np, accel
        a = accel.asarray(np.ones(64), device="cpu") + 1.0
        n = np.asarray(a)
        print(float(n.sum()))
    """
    try:
        r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                           env=dict(os.environ, ACCEL_TRACE=trace), capture_output=True,
                           text=True, timeout=120)
        assert r.returncode == 0 and r.stdout.strip() == "128.0", r.stderr[-3000:]
        with open(trace) as f:
            assert '"name":"binary"' in f.read()
    finally:
        if os.path.exists(trace):
            os.unlink(trace)
