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


# Arguments NumPy refuses with TypeError (a float size or seed, even 2.0; a
# bool; a string), which int() would round or take silently: (entry, the
# same call on NumPy's random module or None where NumPy has no such call,
# the argument the message must name).
_R = accel.random
_BAD_ARGUMENTS = [
    (lambda: _R.rand(2.5), lambda: np.random.rand(2.5), "shape entry"),
    (lambda: _R.rand(3, 2.0), lambda: np.random.rand(3, 2.0), "shape entry"),
    (lambda: _R.rand(True), lambda: np.random.rand(True), "shape entry"),
    (lambda: _R.randn(1.5), lambda: np.random.randn(1.5), "shape entry"),
    (lambda: _R.random_sample(2.5), lambda: np.random.random_sample(2.5), "size"),
    (lambda: _R.random((2, 2.0)), lambda: np.random.random((2, 2.0)), "size entry"),
    (lambda: _R.uniform(size="3"), lambda: np.random.uniform(size="3"), "size"),
    (lambda: _R.normal(size=True), lambda: np.random.normal(size=True), "size"),
    (lambda: _R.standard_normal(size=[2, None]),
     lambda: np.random.standard_normal(size=[2, None]), "size entry"),
    (lambda: _R.default_rng(7).random(0.5), lambda: np.random.default_rng(7).random(0.5),
     "size"),
    (lambda: _R.seed(1.5), lambda: np.random.seed(1.5), "seed"),
    (lambda: _R.seed("3"), lambda: np.random.seed("3"), "seed"),
    (lambda: _R.default_rng(2.0), lambda: np.random.default_rng(2.0), "seed"),
    (lambda: _R.RandomState(1.5), lambda: np.random.RandomState(1.5), "seed"),
    # NumPy's legacy seed takes a bool as 0 or 1; accel refuses it as a slip.
    (lambda: _R.seed(True), None, "seed"),
    (lambda: _R.RandomState(3).set_state((3, 1.5)), None, "position"),
    (lambda: accel.empty(2.5), lambda: np.empty(2.5), "shape"),
    (lambda: accel.zeros((2, 1.0)), lambda: np.zeros((2, 1.0)), "shape entry"),
]


@pytest.mark.parametrize("call,numpy_call,arg", _BAD_ARGUMENTS,
                         ids=[f"{i}-{a}" for i, (_, _, a) in enumerate(_BAD_ARGUMENTS)])
def test_non_integer_size_and_seed_raise_type_error(call, numpy_call, arg):
    if numpy_call is not None:
        with pytest.raises(TypeError):
            numpy_call()
    with pytest.raises(TypeError, match=rf": {arg} must be an integer"):
        call()


def test_integer_likes_are_taken_and_out_of_range_refused():
    # NumPy integers and 1-d integer arrays are sizes, as in NumPy.
    assert _R.rand(np.int32(3), np.int64(2)).shape == (3, 2)
    assert _R.random_sample(np.array([2, 4])).shape == (2, 4)
    a = _R.RandomState(np.uint64(9)).rand(5).get()
    assert np.array_equal(a, _R.RandomState(9).rand(5).get())
    with pytest.raises(ValueError, match="seed -1 is outside"):
        _R.seed(-1)
    with pytest.raises(ValueError, match="seed 18446744073709551616 is outside"):
        _R.RandomState(1 << 64)
    with pytest.raises(ValueError, match="negative dimension"):
        _R.rand(-1)
    with pytest.raises(ValueError, match="position -2 is outside"):
        _R.RandomState(3).set_state((3, -2))


def test_shuffle_and_permutation_of_strided_views():
    # A stepped view (x[::2], m[:, ::2]) raised UnsupportedError from the
    # gather kernel (a helper's find); shuffle writes the view in place.
    x = accel.arange(20)
    v = x[::2]
    accel.random.shuffle(v)
    np.testing.assert_array_equal(np.sort(v.get()), np.arange(0, 20, 2))
    np.testing.assert_array_equal(x.get()[1::2], np.arange(1, 20, 2))
    m = np.arange(24).reshape(4, 6)
    p = accel.random.permutation(accel.asarray(m)[:, ::2]).get()
    np.testing.assert_array_equal(np.sort(p, axis=0), m[:, ::2])
    assert sorted(map(tuple, p)) == sorted(map(tuple, m[:, ::2]))


def test_uniform_with_a_range_that_is_not_finite_raises_as_numpy():
    # uniform(0, inf) gave inf everywhere; NumPy raises OverflowError.
    for lo, hi in ((0.0, np.inf), (np.nan, 1.0), (-1e308, 1e308)):
        with pytest.raises(OverflowError):
            np.random.uniform(lo, hi, 3)
        with pytest.raises(OverflowError):
            accel.random.uniform(lo, hi, 3)
    v = accel.random.uniform(1.0, 0.0, 1000).get()  # reversed bounds: NumPy's (high, low]
    assert ((v > 0.0) & (v <= 1.0)).all()
