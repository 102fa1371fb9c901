# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""accel.fuse: results against NumPy, one capture per signature (a second
call replays), scalars in the signature, the direct-call fallbacks, results
of successive calls independent of each other."""
import numpy as np
import pytest

import accel as cp

SEED = 20261205


def _chain(x, y):
    # 8 elementwise ops; scalars become filled arrays (fused too).
    t = x * y
    t = t + x
    t = t - 0.5
    t = t * t
    t = t / (y + 2.0)
    return cp.sqrt(t) + x


def _chain_np(x, y):
    t = x * y
    t = t + x
    t = t - x.dtype.type(0.5)
    t = t * t
    t = t / (y + x.dtype.type(2.0))
    return np.sqrt(t) + x


def _inputs(dtype, n=1000, seed=SEED):
    print(f"seed {seed}")
    rng = np.random.default_rng(seed)
    return rng.uniform(-1, 1, n).astype(dtype), rng.uniform(0, 1, n).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_chain_matches_numpy_and_is_one_fused_kernel(dtype):
    f = cp.fuse(_chain)
    hx, hy = _inputs(dtype)
    x, y = cp.asarray(hx, dtype=dtype), cp.asarray(hy, dtype=dtype)
    got = f(x, y).get()
    want = _chain_np(hx.astype(np.float64), hy.astype(np.float64))
    eps = np.finfo(dtype).eps
    # 8 ops, each within a few ulp; the values are O(1).
    np.testing.assert_allclose(got, want, rtol=64 * eps, atol=64 * eps)
    assert got.dtype == dtype
    fused = {n["fused"] for n in f.graph_for(x, y).nodes if n["kind"] == "op"}
    assert len(fused) == 1 and None not in fused, fused


def test_second_call_replays_without_capturing_again():
    f = cp.fuse(kernel_name="chain")(_chain)
    assert f.kernel_name == "chain" and "chain" in repr(f)
    hx, hy = _inputs(np.float32)
    x, y = cp.asarray(hx, dtype=np.float32), cp.asarray(hy, dtype=np.float32)
    r1 = f(x, y)
    assert f.stats == {"captures": 1, "replays": 1, "direct": 0}
    hx2, hy2 = _inputs(np.float32, seed=SEED + 1)
    r2 = f(cp.asarray(hx2, dtype=np.float32), cp.asarray(hy2, dtype=np.float32))
    assert f.stats == {"captures": 1, "replays": 2, "direct": 0}
    # The first result is not overwritten by the second call.
    eps = np.finfo(np.float32).eps
    np.testing.assert_allclose(r1.get(), _chain_np(hx, hy), rtol=64 * eps, atol=64 * eps)
    np.testing.assert_allclose(r2.get(), _chain_np(hx2, hy2), rtol=64 * eps, atol=64 * eps)
    # Another shape is another signature.
    f(x[:10], y[:10])
    assert f.stats["captures"] == 2


def test_decorator_forms():
    @cp.fuse
    def a(x):
        return x * 2.0

    @cp.fuse()
    def b(x):
        return x * 3.0

    x = cp.asarray(np.arange(5.0))
    np.testing.assert_array_equal(a(x).get(), np.arange(5.0) * 2)
    np.testing.assert_array_equal(b(x).get(), np.arange(5.0) * 3)
    with pytest.raises(TypeError):
        cp.fuse(1, 2)


def test_scalars_are_part_of_the_signature():
    @cp.fuse()
    def axpy(a, x, y):
        return a * x + y

    h = np.linspace(-1, 1, 64)
    x, y = cp.asarray(h), cp.asarray(h[::-1].copy())
    for a in (2.0, 3.0, 2.0, -0.0, 0.0):
        np.testing.assert_array_equal(axpy(a, x, y).get(), a * h + h[::-1])
    # 2.0, 3.0, -0.0 and 0.0 recorded; the second 2.0 replayed.
    assert axpy.stats == {"captures": 4, "replays": 5, "direct": 0}
    # -0.0 and 0.0 are two signatures: the signs of zero are NumPy's.
    nz = np.full(64, -0.0)
    for a in (-0.0, 0.0):
        z = axpy(a, x, cp.asarray(nz))
        assert np.array_equal(np.signbit(z.get()), np.signbit(a * h + nz)), a


def test_reading_a_value_falls_back_to_direct_calls():
    @cp.fuse()
    def normalized(x):
        m = float(cp.max(x))  # a read to the host: not capturable
        return x / m

    h = np.array([1.0, 2.0, 4.0])
    for _ in range(2):
        np.testing.assert_array_equal(normalized(cp.asarray(h)).get(), h / 4)
    assert normalized.stats == {"captures": 0, "replays": 0, "direct": 2}


def test_no_array_argument_calls_the_function():
    @cp.fuse()
    def f(a, b):
        return a * b + 1

    assert f(3, 4) == 13
    np.testing.assert_array_equal(f(np.arange(3.0), 2.0), np.arange(3.0) * 2 + 1)
    assert f.stats["direct"] == 2


def test_returning_an_argument_is_called_directly():
    @cp.fuse()
    def ident(x):
        return x

    x = cp.asarray(np.arange(4.0))
    assert ident(x) is x
    assert ident.stats["direct"] == 1


def test_returning_an_array_made_before_the_call_is_called_directly():
    # An array the function did not make (a global) must come back as
    # itself, and an op reading it must see its values: replaying would
    # rebind its buffer to a fresh, unwritten output.
    a = np.arange(4.0)
    g_np = np.full(4, 7.0)
    x, g = cp.asarray(a), cp.asarray(g_np)

    @cp.fuse()
    def with_global(v):
        return v + g, g

    @cp.fuse()
    def only_global(v):
        return g

    for _ in range(3):
        s, same = with_global(x)
        np.testing.assert_array_equal(s.get(), a + g_np)
        np.testing.assert_array_equal(same.get(), g_np)
        np.testing.assert_array_equal(only_global(x).get(), g_np)
    np.testing.assert_array_equal(g.get(), g_np)
    np.testing.assert_array_equal(x.get(), a)
    assert with_global.stats["replays"] == 0 and only_global.stats["replays"] == 0


def test_aliased_views_and_previous_results_as_inputs():
    @cp.fuse()
    def sqdiff(x, y):
        return (x - y) * (x - y)

    h = np.arange(10, dtype=np.float32)
    x = cp.asarray(h, dtype=np.float32)
    r = sqdiff(x, x[::-1])  # p15's call
    np.testing.assert_array_equal(r.get(), (h - h[::-1]) ** 2)
    # The same array twice, a view with an offset: called directly (a graph
    # slot is a buffer read in C order from its start); the last result fed
    # back is an array of its own: captured, then replayed.
    np.testing.assert_array_equal(sqdiff(x, x).get(), np.zeros(10, np.float32))
    big = cp.asarray(np.arange(20, dtype=np.float32), dtype=np.float32)
    np.testing.assert_array_equal(sqdiff(big[10:], x).get(), np.full(10, 100, np.float32))
    r2 = sqdiff(r, x)
    np.testing.assert_array_equal(r2.get(), ((h - h[::-1]) ** 2 - h) ** 2)
    r3 = sqdiff(x, r2)
    np.testing.assert_array_equal(r3.get(), (h - r2.get()) ** 2)
    assert sqdiff.stats == {"captures": 1, "replays": 2, "direct": 3}


def test_views_and_shared_buffers_give_numpys_values_and_write_the_callers_array():
    # A strided, transposed, broadcast or Fortran-ordered argument was bound
    # as if C-ordered (wrong values, reads of stale memory); an in-place
    # write to a view or to an argument passed twice went to a copy; a
    # returned view that is not all of its array in C order came back
    # C-ordered (a helper's finds). All now match the unfused function.
    @cp.fuse()
    def f(x, y):
        return x * 2 + y

    a = np.arange(9, dtype=np.float32).reshape(3, 3)
    ones = cp.ones((3, 3), cp.float32)
    for _ in range(2):  # the second call would replay
        np.testing.assert_array_equal(f(cp.asarray(a).T, ones).get(), a.T * 2 + 1)
        x = cp.arange(10, dtype=cp.float32)
        np.testing.assert_array_equal(f(x[::2], cp.ones(5, cp.float32)).get(),
                                      np.arange(10, dtype=np.float32)[::2] * 2 + 1)
        b = cp.broadcast_to(cp.arange(4, dtype=cp.float32), (16, 4))
        np.testing.assert_array_equal(f(b, cp.zeros((16, 4), cp.float32)).get(),
                                      np.broadcast_to(np.arange(4, dtype=np.float32) * 2, (16, 4)))

    @cp.fuse()
    def inc(x, y):
        x += y

    for sl in (slice(None, None, 2), slice(2, 7)):
        for _ in range(2):
            x = cp.zeros(10, dtype=cp.float32)
            inc(x[sl], cp.ones(5, cp.float32))
            want = np.zeros(10, np.float32)
            want[sl] += 1
            np.testing.assert_array_equal(x.get(), want, err_msg=str(sl))

    @cp.fuse()
    def inc2(x, y):
        y += x

    for _ in range(2):
        a1 = cp.ones(4, dtype=cp.float32)
        inc2(a1, a1)
        np.testing.assert_array_equal(a1.get(), np.full(4, 2, np.float32))

    h = np.arange(6, dtype=np.float32).reshape(2, 3)
    for fn, want in ((lambda v: (v * 2).T, (h * 2).T),
                     (lambda v: (v * 2)[::2], (h * 2)[::2]),
                     (lambda v: (v * 2)[:1], (h * 2)[:1]),
                     (lambda v: cp.broadcast_to(v * 2, (3, 2, 3)),
                      np.broadcast_to(h * 2, (3, 2, 3)))):
        g = cp.fuse(fn)
        for _ in range(3):
            np.testing.assert_array_equal(g(cp.asarray(h)).get(), want)


def test_several_outputs_and_in_place_updates():
    @cp.fuse()
    def both(x, y):
        return x + y, x * y

    @cp.fuse()
    def update(acc, x):
        acc += x * 2.0

    hx, hy = _inputs(np.float64, 50)
    x, y = cp.asarray(hx), cp.asarray(hy)
    for _ in range(2):
        s, p = both(x, y)
        np.testing.assert_array_equal(s.get(), hx + hy)
        np.testing.assert_array_equal(p.get(), hx * hy)
    acc = cp.zeros(50)
    for _ in range(3):
        assert update(acc, x) is None
    np.testing.assert_allclose(acc.get(), 6 * hx, rtol=1e-15)
    assert update.stats == {"captures": 1, "replays": 3, "direct": 0}


def test_errors_of_the_function_reach_the_caller():
    @cp.fuse()
    def add(x, y):
        return x + y

    with pytest.raises(ValueError):
        add(cp.zeros(3), cp.zeros(4))


def test_array_api_arrays_are_captured_with_broadcasting():
    # accel.array_api.Array is accel.Array: its arrays are captured like
    # any other, broadcasting included, and a replay sees the new values.
    import accel.array_api as xp
    assert xp.Array is cp.ndarray

    @cp.fuse()
    def f(x, y):
        return x * y + 1.0

    col, row = np.arange(3.0)[:, None], np.arange(4.0)[None, :]
    np.testing.assert_array_equal(np.asarray(f(xp.asarray(col), xp.asarray(row))), col * row + 1)
    np.testing.assert_array_equal(np.asarray(f(xp.asarray(2 * col), xp.asarray(row - 1))),
                                  2 * col * (row - 1) + 1)
    assert f.stats == {"captures": 1, "replays": 2, "direct": 0}


def test_replays_never_write_other_arrays():
    # The graph's intermediates stay its own: arrays made between calls
    # from the memory pool keep their values across later replays.
    f = cp.fuse(_chain)
    hx, hy = _inputs(np.float64, 256)
    x, y = cp.asarray(hx), cp.asarray(hy)
    first = f(x, y).get()
    others = [cp.full(256, float(k)) for k in range(20)]
    for _ in range(3):
        np.testing.assert_array_equal(f(x, y).get(), first)
    for k, o in enumerate(others):
        np.testing.assert_array_equal(o.get(), np.full(256, float(k)))


def test_user_kernels_and_reshaped_results_are_recorded():
    scale_add = cp.ElementwiseKernel("T x, T y", "T z", "z = 2 * x + y", "scale_add")

    @cp.fuse()
    def f(x, y):
        return (scale_add(x, y) * y).reshape(4, 8)

    hx, hy = _inputs(np.float32, 32)
    for seed in (1, 2):
        hx, hy = _inputs(np.float32, 32, seed=seed)
        got = f(cp.asarray(hx, dtype=np.float32), cp.asarray(hy, dtype=np.float32))
        assert got.shape == (4, 8)
        np.testing.assert_allclose(got.get(), ((2 * hx + hy) * hy).reshape(4, 8), rtol=1e-6)
    assert f.stats == {"captures": 1, "replays": 2, "direct": 0}
    kinds = [n["name"] for n in f.graph_for(cp.zeros(32, np.float32),
                                            cp.zeros(32, np.float32)).nodes]
    assert len(kinds) == 2, kinds  # the user kernel and the multiply


def test_a_reduction_result_replays():
    @cp.fuse
    def dot(x, y):
        return cp.sum(x * y)

    for seed in (3, 4):
        hx, hy = _inputs(np.float64, 100, seed=seed)
        r = dot(cp.asarray(hx), cp.asarray(hy))
        assert r.shape == ()
        # A sum of 100 products: 100 ulps of the sum of |terms| (Higham).
        assert abs(float(r) - (hx * hy).sum()) <= 100 * 2.0 ** -52 * np.abs(hx * hy).sum()
    assert dot.stats == {"captures": 1, "replays": 2, "direct": 0}


def test_buffers_released_between_calls_are_bound_afresh():
    # The graph still names the last call's buffers; the pool gives them
    # back to the device (free_all_blocks) and new buffers may take their
    # addresses: the next call binds its own and runs right.
    @cp.fuse()
    def f(x, y):
        return x * y + x

    for seed in range(4):
        hx, hy = _inputs(np.float64, 300, seed=seed)
        r = f(cp.asarray(hx), cp.asarray(hy)).get()
        np.testing.assert_allclose(r, hx * hy + hx, rtol=1e-15)
        cp.get_default_memory_pool().free_all_blocks()
    assert f.stats == {"captures": 1, "replays": 4, "direct": 0}


def test_the_bench_runs(monkeypatch, capsys):
    # python/bench/fuse_chain.py (it checks fused against unfused itself).
    import runpy
    import sys
    from pathlib import Path
    bench = Path(__file__).resolve().parents[1] / "bench" / "fuse_chain.py"
    monkeypatch.setattr(sys, "argv", [str(bench), "--n", "4096", "--reps", "2"])
    runpy.run_path(str(bench), run_name="__main__")
    out = capsys.readouterr().out
    assert "unfused / fused" in out and "'replays': 3" in out


def test_an_exception_of_the_function_is_raised_from_one_run():
    # The function's own exception (not an accel one) is raised from the
    # capture run; it is not run a second time directly, so its side
    # effects happen once (they happened twice).
    calls = []

    @cp.fuse()
    def bad(x):
        calls.append(1)
        raise KeyError("mine")

    with pytest.raises(KeyError, match="mine"):
        bad(cp.zeros(3))
    assert len(calls) == 1
