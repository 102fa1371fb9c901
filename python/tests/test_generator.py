# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""accel.random.default_rng's Generator and accel.random.randint: shapes,
dtypes, ranges, reproducibility for a seed, and the moments of each
distribution within 6 standard errors of the sample size (a false alarm
about once in 10^8 runs per check; no hard-coded outputs)."""
import math

import numpy as np
import pytest

import accel as cp

N = 200_000
Z = 6.0  # standard errors allowed


def _get(a):
    return a.get() if isinstance(a, cp.Array) else np.asarray(a)


def _moments(h, mean, var, fourth):
    """Sample mean and variance against the distribution's mean, variance
    and fourth central moment: SE(mean) = sqrt(var/n), SE(var) = sqrt((mu4 -
    var^2)/n)."""
    h = h.astype(np.float64)
    n = h.size
    assert abs(h.mean() - mean) < Z * math.sqrt(var / n), (h.mean(), mean)
    assert abs(h.var() - var) < Z * math.sqrt((fourth - var * var) / n) + var / n, (h.var(), var)


def test_same_seed_same_numbers_other_seed_other_numbers():
    a = cp.random.default_rng(7)
    b = cp.random.default_rng(7)
    for draw in (lambda g: g.random(100), lambda g: g.standard_normal((3, 4)),
                 lambda g: g.normal(2.0, 3.0, 50), lambda g: g.uniform(-1, 1, 10),
                 lambda g: g.integers(0, 1000, 64)):
        x, y = _get(draw(a)), _get(draw(b))
        assert np.array_equal(x, y)
    first = _get(cp.random.default_rng(7).random(100))
    assert not np.array_equal(first, _get(cp.random.default_rng(8).random(100)))
    g = cp.random.default_rng(7)
    assert not np.array_equal(_get(g.random(100)), _get(g.random(100)))  # successive calls


def test_default_rng_of_a_generator_is_that_generator():
    g = cp.random.default_rng(3)
    assert cp.random.default_rng(g) is g
    assert isinstance(g, cp.random.Generator)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_random_is_uniform_in_0_1(dtype):
    u = _get(cp.random.default_rng(11).random(N, dtype=dtype))
    assert u.dtype == dtype and u.shape == (N,)
    assert u.min() >= 0 and u.max() < 1
    _moments(u, 0.5, 1 / 12, 1 / 80)


def test_uniform_low_high():
    u = _get(cp.random.default_rng(12).uniform(-2.0, 6.0, size=(400, 500)))
    assert u.shape == (400, 500) and u.dtype == np.float64
    assert u.min() >= -2.0 and u.max() < 6.0
    w = 8.0
    _moments(u, 2.0, w * w / 12, w ** 4 / 80)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_standard_normal_and_normal_moments(dtype):
    g = cp.random.default_rng(13)
    z = _get(g.standard_normal(N, dtype=dtype))
    assert z.dtype == dtype
    _moments(z, 0.0, 1.0, 3.0)
    x = _get(g.normal(-3.0, 0.5, size=(N,), dtype=dtype))
    _moments(x, -3.0, 0.25, 3 * 0.5 ** 4)
    # Tails: the share beyond 3 sigma is 0.0027; its binomial standard error.
    p = 2 * 0.5 * math.erfc(3 / math.sqrt(2))
    share = np.mean(np.abs(z) > 3)
    assert abs(share - p) < Z * math.sqrt(p * (1 - p) / N)


def _uniform_integers(h, lo, hi):
    """h takes every value of [lo, hi) and no other, equally often: a
    chi-square statistic within its mean k-1 plus Z of its standard
    deviations sqrt(2(k-1))."""
    k = hi - lo
    assert h.min() == lo and h.max() == hi - 1
    counts = np.bincount(h.astype(np.int64) - lo, minlength=k)
    e = h.size / k
    chi2 = ((counts - e) ** 2 / e).sum()
    assert chi2 < (k - 1) + Z * math.sqrt(2 * (k - 1)), chi2
    _moments(h, (lo + hi - 1) / 2, (k * k - 1) / 12, (k * k - 1) * (3 * k * k - 7) / 240)


def test_integers_default_int64_and_endpoint():
    g = cp.random.default_rng(14)
    h = _get(g.integers(-5, 12, size=N))
    assert h.dtype == np.int64 and h.shape == (N,)
    _uniform_integers(h, -5, 12)
    e = _get(g.integers(3, 9, size=(N // 2,), endpoint=True))
    _uniform_integers(e, 3, 10)
    only = _get(g.integers(6, size=N, endpoint=True))  # high None: [0, 6]
    _uniform_integers(only, 0, 7)


@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.int64])
def test_integers_dtypes(dtype):
    h = _get(cp.random.default_rng(15).integers(0, 200, size=(100, 100), dtype=dtype))
    assert h.dtype == dtype and h.shape == (100, 100)
    _uniform_integers(h.reshape(-1), 0, 200)


def test_randint_module_function():
    cp.random.seed(16)
    a = _get(cp.random.randint(0, 10, size=N))
    assert a.dtype == np.int64
    _uniform_integers(a, 0, 10)
    b = _get(cp.random.randint(4, size=(50, 40)))  # [0, 4)
    assert b.shape == (50, 40) and b.min() >= 0 and b.max() <= 3
    c = cp.random.randint(-3, 3, dtype=int)  # size None: one number, 0-d
    assert c.shape == () and -3 <= int(c) < 3
    cp.random.seed(16)
    assert np.array_equal(_get(cp.random.randint(0, 10, size=N)), a)  # reproducible


@pytest.mark.parametrize("call, exc", [
    (lambda g: g.integers(5, 5), ValueError),
    (lambda g: g.integers(0, 300, dtype=np.uint8), ValueError),
    (lambda g: g.integers(0, 3, dtype=np.float32), TypeError),
    (lambda g: g.integers(0, 3, size=2.5), TypeError),
    (lambda g: g.random(3, dtype=np.int32), TypeError),
    (lambda g: g.normal(0.0, -1.0, 3), ValueError),
])
def test_bad_arguments_raise(call, exc):
    with pytest.raises(exc):
        call(cp.random.default_rng(0))
