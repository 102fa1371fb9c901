# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Graphs from Python (accel.graph, Stream.begin_capture/end_capture): a
replay gives the eager values, against NumPy; fusion as in C; buffers the
graph uses are not handed to other arrays; bad use raises."""
import numpy as np
import pytest

import accel
from accel import cuda


def chain(x, y):
    return accel.tanh(x * 0.5 + y) - y * y


def chain_ref(x, y):
    return np.tanh(x * 0.5 + y) - y * y


@cuda.jit
def scale_add(a, b, out, f):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i] * f + b[i]


def test_replay_equals_eager_and_numpy_unfused(rng):
    xh, yh = rng.standard_normal(1000), rng.standard_normal(1000)
    x, y = accel.asarray(xh), accel.asarray(yh)
    eager = chain(x, y).get()
    with accel.graph(fuse=False) as g:
        out = chain(x, y)
    g.launch()
    assert np.array_equal(out.get(), eager)
    assert np.allclose(eager, chain_ref(xh, yh), rtol=1e-14, atol=1e-14)
    assert all(n["fused"] is None for n in g.nodes)
    # New data in the same arrays: the next launch computes from it.
    xh2 = rng.standard_normal(1000)
    x.set(xh2)
    g.launch()
    assert np.array_equal(out.get(), chain(x, y).get())
    g.release()


@pytest.mark.parametrize("dtype,tol", [(np.float32, 1e-5), (np.float64, 1e-13)])
def test_fused_replay_matches_numpy(rng, dtype, tol):
    xh = rng.standard_normal(4096).astype(dtype)
    yh = rng.standard_normal(4096).astype(dtype)
    x, y = accel.asarray(xh), accel.asarray(yh)
    with accel.graph() as g:
        out = chain(x, y)
    g.instantiate()
    fused = {n["fused"] for n in g.nodes}
    assert None not in fused and len(fused) == 1, g.nodes
    name = fused.pop()
    assert name.startswith("fused_") and "tanh" in name
    for _ in range(2):
        g.launch()
        ref = chain_ref(xh.astype(np.float64), yh.astype(np.float64))
        assert np.allclose(out.get(), ref, rtol=tol, atol=tol)


def test_cupy_stream_capture_with_a_jit_kernel(rng):
    ah, bh = rng.standard_normal(500), rng.standard_normal(500)
    a, b = accel.asarray(ah), accel.asarray(bh)
    out = accel.empty(500)
    s = accel.Stream()
    with s:
        s.begin_capture()
        scale_add[2, 256](a, b, out, 3.0)
        out2 = out * out
        g = s.end_capture()
    assert isinstance(g, accel.Graph) and len(g.nodes) >= 2
    g.launch(s)
    s.synchronize()
    assert np.array_equal(out.get(), ah * 3.0 + bh)
    assert np.array_equal(out2.get(), (ah * 3.0 + bh) ** 2)


def test_buffers_of_dropped_arrays_stay_with_the_graph(rng):
    xh = rng.standard_normal(2048)
    x = accel.asarray(xh)
    with accel.graph(fuse=False) as g:
        t = x * 2.0
        y = t + 1.0
        del t  # its buffer is the graph's until release
    others = [accel.full(2048, 7.0) for _ in range(8)]  # same size: the pool's blocks
    g.launch()
    assert np.array_equal(y.get(), xh * 2.0 + 1.0)
    for o in others:
        assert np.array_equal(o.get(), np.full(2048, 7.0))
    used = accel.get_default_memory_pool().used_bytes()
    g.release()
    # The dropped array's buffer went back to the pool at release.
    assert accel.get_default_memory_pool().used_bytes() < used


def test_bad_use_raises():
    x = accel.asarray(np.arange(4.0))
    with pytest.raises(accel.InvalidArgumentError):
        with accel.graph():
            y = x + x
            y.get()  # reading results during a capture
    with accel.graph() as g:
        with pytest.raises(accel.InvalidArgumentError, match="already capturing"):
            accel.graph().__enter__()
        z = x * x
    g.launch()
    assert np.array_equal(z.get(), np.arange(4.0) ** 2)
    with pytest.raises(accel.InvalidArgumentError, match="not capturing"):
        accel.Stream().end_capture()
    g.release()
    with pytest.raises(accel.ReleasedError):
        g.launch()
    # After all that, eager work runs again on the default stream.
    assert np.array_equal((x + 1.0).get(), np.arange(4.0) + 1.0)
