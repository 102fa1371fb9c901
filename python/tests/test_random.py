# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""accel.random: CuPy's names, same seed same numbers, successive calls
differ, uniform numbers equal to the documented Philox mapping."""
import numpy as np
import pytest

import accel


def philox_uniform_f32(seed, n, offset=0):
    """The uniform f32 mapping of accel_random_uniform, independently in
    NumPy: Philox4x32-10 (Salmon et al. 2011), element e is
    (w[e % 4] >> 8) * 2^-24 of philox(e // 4, seed)."""
    M0, M1 = 0xD2511F53, 0xCD9E8D57
    W0, W1 = 0x9E3779B9, 0xBB67AE85
    out = np.empty(n, np.float32)
    for e in range(offset, offset + n):
        c = [(e // 4) & 0xFFFFFFFF, (e // 4) >> 32, 0, 0]
        k = [seed & 0xFFFFFFFF, seed >> 32]
        for _ in range(10):
            p0, p1 = M0 * c[0], M1 * c[2]
            c = [((p1 >> 32) ^ c[1] ^ k[0]) & 0xFFFFFFFF, p1 & 0xFFFFFFFF,
                 ((p0 >> 32) ^ c[3] ^ k[1]) & 0xFFFFFFFF, p0 & 0xFFFFFFFF]
            k = [(k[0] + W0) & 0xFFFFFFFF, (k[1] + W1) & 0xFFFFFFFF]
        out[e - offset] = np.float32((c[e % 4] >> 8) * 2.0 ** -24)
    return out


def test_same_seed_same_numbers_successive_calls_differ():
    r1, r2 = accel.random.RandomState(42), accel.random.RandomState(42)
    a1, a2 = r1.rand(1000).get(), r2.rand(1000).get()
    assert np.array_equal(a1, a2)
    b1 = r1.rand(1000).get()
    assert not np.array_equal(a1, b1)
    assert np.array_equal(b1, r2.rand(1000).get())
    assert np.all((a1 >= 0) & (a1 < 1))


def test_uniform_f32_is_the_documented_philox_stream():
    r = accel.random.RandomState(7)
    got = r.rand(10, dtype=np.float32).get()
    assert np.array_equal(got, philox_uniform_f32(7, 10))
    # the next call takes the next Philox blocks: ceil(10 / 4) = 3 used
    assert r.state == (7, 3)
    got2 = r.rand(6, dtype=np.float32).get()
    assert np.array_equal(got2, philox_uniform_f32(7, 6, offset=12))


def test_state_and_set_state_repeat_numbers():
    g = accel.random.default_rng(123)
    st = g.state
    a = g.standard_normal(100).get()
    g.set_state(st)
    assert np.array_equal(g.standard_normal(100).get(), a)


def test_module_functions_and_seed():
    accel.random.seed(5)
    a = accel.random.rand(3, 4)
    assert a.shape == (3, 4) and a.dtype == np.float64
    accel.random.seed(5)
    assert np.array_equal(accel.random.rand(3, 4).get(), a.get())
    assert accel.random.randn(2, 2).shape == (2, 2)
    assert accel.random.random((5,)).shape == (5,)
    assert accel.random.random_sample(5).shape == (5,)
    assert accel.random.standard_normal(7).shape == (7,)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_normal_and_uniform_moments(dtype):
    g = accel.random.default_rng(99)
    n = 200_000
    x = g.normal(3.0, 2.0, size=n, dtype=dtype).get().astype(np.float64)
    # 6 standard errors
    assert abs(x.mean() - 3.0) < 6 * 2.0 / np.sqrt(n)
    assert abs(x.std() - 2.0) < 6 * 2.0 / np.sqrt(2 * n)
    u = g.uniform(-1.0, 5.0, size=n, dtype=dtype).get()
    assert u.min() >= -1.0 and u.max() < 5.0
    assert abs(u.mean() - 2.0) < 6 * 6.0 / np.sqrt(12 * n)


def test_generators_are_independent_of_the_device():
    cpu = accel.get_device("cpu")
    a = accel.random.RandomState(11).rand(64, device=cpu).get()
    b = accel.random.RandomState(11).rand(64).get()
    assert np.array_equal(a, b)
