# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""accel in children made by fork (issue 31, item 6): a child of a parent
that used accel gets a fresh runtime on first use, and the parent's arrays,
streams and events raise ForkedError (a ReleasedError) there. multiprocessing's
fork start method makes the children; NumPy and closed forms are the
reference."""
import multiprocessing as mp
import os

import numpy as np
import pytest

import accel

pytestmark = pytest.mark.skipif(not hasattr(os, "register_at_fork"),
                                reason="os.register_at_fork is POSIX-only")


def _child(q, a, s, ev, seed):
    # What a forked child can and cannot do; every outcome goes to the queue.
    out = {}
    uses = (("array", lambda: a + a), ("get", a.get), ("stream", s.synchronize),
            ("event", ev.synchronize), ("device", lambda: accel.ones(2, device=a.device)))
    for name, use in uses:
        try:
            use()
            out[name] = "worked"
        except accel.ForkedError as e:
            out[name] = "ForkedError" if isinstance(e, accel.ReleasedError) else "bad class"
            out[name + "_msg"] = str(e)
        except Exception as e:
            out[name] = repr(e)
    try:
        h = np.random.default_rng(seed).random((32, 48))
        b = accel.asarray(h)
        out["sum"] = float((b * 2.0).sum())
        out["matmul"] = (b @ accel.asarray(h.T)).get()
        out["want_matmul"] = h @ h.T
        out["pid"] = os.getpid()
    except Exception as e:
        out["fresh"] = repr(e)
    q.put(out)


def test_forked_children_get_a_fresh_runtime_and_refuse_the_parents_objects():
    ctx = mp.get_context("fork")
    a = accel.arange(10.0)
    m = a.reshape(2, 5) @ accel.ones((5, 3))      # the parent used BLAS and queues
    s = accel.Stream()
    ev = s.record()
    assert float(m.sum()) == 3 * 45.0
    q = ctx.Queue()
    ps = [ctx.Process(target=_child, args=(q, a, s, ev, k)) for k in range(3)]
    for p in ps:
        p.start()
    outs = [q.get(timeout=240) for _ in ps]
    for p in ps:
        p.join(60)
        assert p.exitcode == 0
    for out in outs:
        assert "fresh" not in out, out["fresh"]
        for name in ("array", "get", "stream", "event", "device"):
            assert out[name] == "ForkedError", (name, out[name])
        assert f"process {os.getpid()}, the parent" in out["array_msg"]
        assert f"forked process ({out['pid']})" in out["array_msg"]
        np.testing.assert_allclose(out["matmul"], out["want_matmul"], rtol=1e-12)
    seeds_sums = sorted(out["sum"] for out in outs)
    want = sorted(float(2.0 * np.random.default_rng(k).random((32, 48)).sum()) for k in range(3))
    np.testing.assert_allclose(seeds_sums, want, rtol=1e-12)
    # The parent's runtime and objects are untouched.
    np.testing.assert_array_equal((a + a).get(), 2 * np.arange(10.0))
    s.synchronize()


def test_a_pool_of_forked_workers_computes():
    # multiprocessing.Pool with fork: the usual way a user meets this.
    accel.ones(4).get()                            # the parent's runtime is open
    with mp.get_context("fork").Pool(2) as pool:
        got = pool.map(_square_sum, range(1, 7))
    assert got == [float(sum(i * i for i in range(n))) for n in range(1, 7)]


def _square_sum(n):
    x = accel.arange(float(n))
    return float((x * x).sum())

