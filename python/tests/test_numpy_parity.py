# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Where accel must behave as NumPy (and CuPy) do, or refuse clearly: negative
dimensions, 0-d arrays, the integer dtype names, comparisons, NumPy operands
on the left, and integer arrays given to float-only ops."""
import numpy as np
import pytest

import accel


@pytest.mark.parametrize("make", [lambda: accel.random.rand(-3),
                                  lambda: accel.random.rand(2, -3),
                                  lambda: accel.random.randn(-1),
                                  lambda: accel.empty_pinned(-1),
                                  lambda: accel.empty((2, -1))])
def test_negative_dimensions_raise_value_error(make):
    with pytest.raises(ValueError, match="negative dimension"):
        make()
    with pytest.raises(ValueError, match="negative dimension"):   # as NumPy
        np.empty(-1)


def test_random_shapes_from_arguments():
    assert accel.random.rand(2, 3).shape == (2, 3)
    assert accel.random.randn().shape == ()


def test_zero_d_arrays_keep_shape_and_value():
    for v in (3.0, np.float32(2.5), np.array(-1.5), 7):
        a = accel.asarray(v)
        n = np.asarray(v, dtype=float) if not hasattr(v, "dtype") else np.asarray(v)
        assert a.shape == () == n.shape and a.ndim == 0 and a.size == 1
        assert float(a) == float(n)
        assert a.get().shape == ()
    a = accel.asarray(3.0, dtype=np.float32)
    assert a.shape == () and a.dtype == np.float32
    assert float(a + a) == 6.0 and (a + a).shape == ()
    a.set(4.0)
    assert float(a) == 4.0
    one = accel.zeros(1)
    one.set(5.0)                       # a scalar still fills a one-element array
    assert one.get().tolist() == [5.0]
    m = accel.asarray(np.arange(6.0).reshape(2, 3))
    assert m[1, 2].shape == () and float(m[1, 2]) == 5.0


def test_integer_dtype_names():
    # The namespace's dtypes are NumPy dtype objects: equal to NumPy's scalar
    # types, usable as dtype= (the Array API standard's tests key dicts by them).
    assert accel.int32 == np.int32 and accel.int64 == np.int64 and accel.uint8 == np.uint8
    assert np.dtype(accel.int16) is np.dtype(np.int16)
    for dt in (accel.int32, accel.int64, accel.uint8, np.int16, "uint32"):
        a = accel.asarray([1, 2, 3], dtype=dt)
        assert a.dtype == np.dtype(dt) and a.get().tolist() == [1, 2, 3]


@pytest.mark.parametrize("cmp", [lambda x, y: x == y, lambda x, y: x != y, lambda x, y: x < y,
                                 lambda x, y: x <= y, lambda x, y: x > y, lambda x, y: x >= y,
                                 lambda x, y: x == 1.0, lambda x, y: 2 > x])
def test_comparisons_give_bool_arrays_as_numpy(cmp, rng):
    xh = rng.integers(0, 3, (4, 3)).astype(np.float64)
    yh = rng.integers(0, 3, 3).astype(np.float64)   # broadcast along the rows
    r = cmp(accel.asarray(xh), accel.asarray(yh))
    assert r.dtype == np.bool_
    assert np.array_equal(r.get(), cmp(xh, yh))


def test_a_numpy_array_in_a_comparison_is_a_device_mismatch():
    with pytest.raises(accel.DeviceMismatchError):
        accel.ones(3) == np.ones(3)


def test_arrays_stay_hashable_and_compare_to_other_objects_as_unequal():
    x = accel.ones(3)
    assert len({x, x}) == 1
    assert (x == None) is False and (x != "a") is True   # noqa: E711


@pytest.mark.parametrize("op", [lambda n, x: n + x, lambda n, x: n - x, lambda n, x: n * x,
                                lambda n, x: n / x, lambda n, x: x + n])
def test_numpy_array_with_accel_array_raises_device_mismatch(op):
    x = accel.ones(3)
    with pytest.raises(accel.DeviceMismatchError):
        op(np.ones(3), x)


def test_numpy_scalars_still_broadcast():
    x = accel.asarray([1.0, 2.0])
    assert (np.float64(2.0) * x).get().tolist() == [2.0, 4.0]
    assert (np.float32(1.0) + x).get().tolist() == [2.0, 3.0]


@pytest.mark.parametrize("dt", [np.int32, np.int64, np.uint8])
@pytest.mark.parametrize("call", [lambda m, i: i + i, lambda m, i: -i, lambda m, i: i * 3,
                                  lambda m, i: m.sum(i), lambda m, i: m.max(i),
                                  lambda m, i: i @ i, lambda m, i: i // 2, lambda m, i: i % 2])
def test_integer_arrays_compute_as_numpy(dt, call):
    h = np.array([1, 2, 3, 7], dtype=dt)
    r = call(accel, accel.asarray(h))
    ref = call(np, h)
    assert r.dtype == ref.dtype, (r.dtype, ref.dtype)
    assert np.array_equal(r.get(), ref)


@pytest.mark.parametrize("dt", [np.int32, np.int64, np.uint8])
def test_float_functions_of_integers_compute_in_float64(dt):
    # NumPy gives float16/32 for small integers; accel (and CuPy on int32,
    # int64) float64: docs/python.md.
    h = np.array([0, 1, 2, 5], dtype=dt)
    for fn in ("exp", "sqrt", "sin"):
        r = getattr(accel, fn)(accel.asarray(h))
        assert r.dtype == np.float64
        assert np.allclose(r.get(), getattr(np, fn)(h.astype(np.float64)), rtol=1e-14)
    assert np.array_equal((accel.asarray(h) / 2).get(), h / 2)


def test_fill_of_integer_arrays_is_exact():
    a = accel.zeros(3, dtype=np.int64)
    accel.fill(a, (1 << 62) + 1)
    assert a.get().tolist() == [(1 << 62) + 1] * 3


@pytest.mark.parametrize("fn", ["floor_divide", "remainder", "pow", "maximum", "minimum"])
def test_bool_binary_result_dtypes_are_numpys(fn):
    a, b = np.array([True, False, True, False]), np.array([True, True, False, False])
    with np.errstate(all="ignore"):  # bool 0 divisors: NumPy's int8 0
        ref = getattr(np, {"pow": "power"}.get(fn, fn))(a, b)
    got = getattr(accel, fn)(accel.asarray(a), accel.asarray(b))
    assert got.dtype == ref.dtype
    np.testing.assert_array_equal(got.get(), ref)


@pytest.mark.parametrize("fn", ["abs", "floor", "ceil", "trunc", "square"])
def test_bool_unary_result_dtypes_are_numpys(fn):
    a = np.array([True, False, True])
    ref = getattr(np, fn)(a)
    got = getattr(accel, fn)(accel.asarray(a))
    assert got.dtype == ref.dtype
    np.testing.assert_array_equal(got.get(), ref)


@pytest.mark.parametrize("fn", ["positive", "sign"])
def test_bool_positive_and_sign_are_refused_as_numpy_does(fn):
    with pytest.raises(TypeError, match="not defined for bool"):
        getattr(accel, fn)(accel.asarray([True, False]))


@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.float64])
def test_clip_with_lo_above_hi_is_numpys(dtype):
    a = np.arange(0, 10).astype(dtype)
    np.testing.assert_array_equal(accel.clip(accel.asarray(a), 7, 2).get(), np.clip(a, 7, 2))


@pytest.mark.parametrize("dt", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32,
                                np.uint64])
@pytest.mark.parametrize("fn", ["fmod", "gcd", "lcm"])
def test_integer_fmod_gcd_lcm_are_numpys(fn, dt, rng):
    # The table's rows (core/arrays/table.c) against NumPy, extremes and
    # zeros included: fmod takes the sign of x1 and gives 0 for x2 == 0
    # (NumPy warns and gives 0), gcd/lcm wrap as NumPy's do.
    info = np.iinfo(dt)
    a = rng.integers(info.min, info.max, 300, dtype=dt, endpoint=True)
    b = rng.integers(info.min, info.max, 300, dtype=dt, endpoint=True)
    small = rng.integers(max(info.min, -50), 50, 300).astype(dt)
    a[:4] = [info.min, info.max, 0, 0]
    b[:4] = [0, 0, info.min, 0]
    for x, y in ((a, b), (a, small), (small, small)):
        with np.errstate(all="ignore"):
            want = getattr(np, fn)(x, y)
        if fn == "fmod":
            want = np.where(y == 0, 0, want).astype(dt)
            if info.min < 0:
                want = np.where(y == -1, 0, want).astype(dt)
        got = getattr(accel, fn)(accel.asarray(x), accel.asarray(y))
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.get(), want)


@pytest.mark.parametrize("dt", [np.float32, np.float64])  # float16: stored only in Python
def test_float_fmod_heaviside_logaddexp2_cbrt_are_numpys(dt, rng):
    x = (rng.standard_normal(400) * 30).astype(dt)
    y = (rng.standard_normal(400) * 7).astype(dt)
    x[:8] = [0, -0.0, np.inf, -np.inf, np.nan, 5, -5, 1e-3]
    y[:8] = [0.5, 2, 3, 0, 1, np.inf, 0, np.nan]
    dx, dy = accel.asarray(x), accel.asarray(y)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(accel.fmod(dx, dy).get(), np.fmod(x, y))
        np.testing.assert_array_equal(accel.heaviside(dx, dy).get(), np.heaviside(x, y))
        ulp = np.spacing(np.abs(np.logaddexp2(x, y)).astype(dt))
        got = accel.logaddexp2(dx, dy).get()
        want = np.logaddexp2(x, y)
        fin = np.isfinite(want)
        assert np.array_equal(np.isnan(got), np.isnan(want))
        assert np.array_equal(got[~fin & ~np.isnan(want)], want[~fin & ~np.isnan(want)])
        assert np.all(np.abs(got[fin].astype(np.float64) - want[fin]) <= 4 * ulp[fin])
        c = accel.cbrt(dx).get()
        cw = np.cbrt(x)
        cf = np.isfinite(cw)
        assert c.dtype == cw.dtype and np.array_equal(c[~cf], cw[~cf], equal_nan=True)
        assert np.all(np.abs(c[cf].astype(np.float64) - cw[cf])
                      <= 4 * np.spacing(np.abs(cw[cf]).astype(dt)))
    # integers into cbrt compute in float64, as NumPy's (within 4 ulp: glibc's
    # cbrt(27) is 3.0000000000000004)
    r = accel.cbrt(accel.asarray(np.array([8, -27, 1000], np.int32))).get()
    assert r.dtype == np.float64
    np.testing.assert_allclose(r, [2.0, -3.0, 10.0], rtol=4 * np.finfo(np.float64).eps)


def test_empty_pinned_takes_numpys_shapes_and_default_dtype():
    assert accel.empty_pinned(3).dtype == np.float64  # cupyx.empty_pinned's default
    assert accel.empty_pinned(np.int64(5)).shape == (5,)
    assert accel.empty_pinned((np.int32(2), 3), np.int16).shape == (2, 3)
    for bad in (3.5, "x", (2, 1.5)):
        with pytest.raises(TypeError, match="not an int"):
            accel.empty_pinned(bad)
    for huge in (2**62, (2**40, 2**40)):
        with pytest.raises(accel.OutOfRangeError, match="more than any host holds"):
            accel.empty_pinned(huge)


# A bug-hunting pass (2026-12-07) against NumPy 2.4: each of these gave a
# wrong dtype, dropped values or raised where NumPy computes.
@pytest.mark.parametrize("bounds", [(0, 1, np.float32(0.25)), (np.float32(0.5), 3),
                                    (np.array(2.5),), (0, np.float16(3), 1), (np.int8(0), 5),
                                    (0, 5), (True, 4)])
def test_arange_takes_numpy_scalars_and_0d_arrays_as_numpy(bounds):
    got, want = accel.arange(*bounds), np.arange(*bounds)
    assert got.dtype == want.dtype, bounds  # float32 bounds gave int64 [0 0 0 0]
    np.testing.assert_array_equal(got.get(), want)


def test_linspace_keeps_the_imaginary_part_of_numpy_complex_endpoints():
    np.testing.assert_array_equal(accel.linspace(0, np.complex64(1j), 3).get(), [0, 0.5j, 1j])
    np.testing.assert_array_equal(accel.linspace(np.array(1j), 2, 3).get(),
                                  np.linspace(1j, 2, 3))
    assert accel.full(2, accel.asarray(np.float32(1.5))).dtype == np.float32
    assert accel.full(2, np.int8(3)).dtype == np.int8


def test_assignment_from_a_view_of_the_target_or_indexed_by_it():
    h = np.arange(8.0)
    for idx, value in ((np.array([3, 4]), lambda a: a[0]), (np.arange(8)[::-1], lambda a: a),
                       (np.arange(8) % 3 == 1, lambda a: a[5:8])):
        x, g = accel.asarray(h), h.copy()
        x[accel.asarray(idx)] = value(x)
        g[idx] = value(g).copy()
        np.testing.assert_array_equal(x.get(), g)
    x, g = accel.asarray(np.array([2, 0, 1, 3])), np.array([2, 0, 1, 3])
    x[x] = 7  # the index array is the target itself
    g[g.copy()] = 7
    np.testing.assert_array_equal(x.get(), g)


def test_add_at_into_a_transposed_view():
    a, h = accel.zeros((3, 4)), np.zeros((3, 4))
    accel.add.at(a.T, accel.asarray(np.array([0, 0, 3])), 1)
    np.add.at(h.T, [0, 0, 3], 1)
    np.testing.assert_array_equal(a.get(), h)


def test_squeeze_without_axis_and_values_with_leading_ones():
    s = accel.zeros((1, 3, 1))
    assert accel.squeeze(s).shape == accel.squeeze(s, axis=None).shape == (3,)
    assert accel.squeeze(s, axis=0).shape == (3, 1)
    z = accel.zeros(3)
    z[...] = accel.ones((1, 1, 3))  # NumPy drops a value's leading 1s
    z[1:] = accel.full((1, 2), 5.0)
    np.testing.assert_array_equal(z.get(), [1, 5, 5])
    with pytest.raises(ValueError):
        z[...] = accel.ones((2, 3))


@pytest.mark.parametrize("shape", [(3,), (0,), (2, 2)])
def test_truth_value_of_many_or_no_elements_is_a_value_error(shape):
    with pytest.raises(ValueError, match="ambiguous"):
        bool(accel.zeros(shape))
    assert bool(accel.ones((1, 1))) and not bool(accel.zeros(()))


@pytest.mark.parametrize("bounds", [(-3, 3), (0, 300), (5, -3, -1)])
def test_arange_refuses_integer_values_its_dtype_cannot_hold(bounds):
    # NumPy raises for a start out of range but wraps later values
    # ([253 254 255 0 1 2] was accel's answer): a clear error instead
    with pytest.raises(OverflowError, match="do not fit uint8"):
        accel.arange(*bounds, dtype=np.uint8)
    np.testing.assert_array_equal(accel.arange(255, -1, -1, dtype=np.uint8).get(),
                                  np.arange(255, -1, -1, dtype=np.uint8))


def test_python_ints_past_the_dtype_where_the_answer_is_not_in_it():
    # NumPy 2 computes these (uint8 + 300 still raises, NEP 50); accel raised
    # OverflowError for each
    u8, i8 = np.array([2, 4, 250], np.uint8), np.array([2, -100, 127], np.int8)
    for got, want in ((accel.asarray(u8) / -1, u8 / -1), (-1 / accel.asarray(u8), -1 / u8),
                      (accel.asarray(i8) / 200, i8 / 200),
                      (accel.clip(accel.asarray(i8), -1000, 1000), np.clip(i8, -1000, 1000)),
                      (accel.clip(accel.asarray(u8), -5, 3), np.clip(u8, -5, 3))):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.get(), want)
    s = np.sort(u8)
    for v, side in ((300, "left"), (-5, "left"), (250, "right"), (2**64 - 1, "right")):
        assert int(accel.searchsorted(accel.asarray(s), v, side=side)) == \
            np.searchsorted(s, v, side=side)
    with pytest.raises(OverflowError, match="300 does not fit uint8"):
        accel.asarray(u8) + 300


def test_take_without_axis_flattens_and_expand_dims_takes_a_tuple():
    h = np.arange(12.0).reshape(3, 4)
    x = accel.asarray(h)
    for src, hsrc in ((x, h), (x.T, h.T)):
        np.testing.assert_array_equal(accel.take(src, accel.asarray(np.array([0, 5, 11]))).get(),
                                      np.take(hsrc, [0, 5, 11]))
    for axis in ((0, 2), (3, 0), (0, -1), (-1,)):
        assert accel.expand_dims(x, axis).shape == np.expand_dims(h, axis).shape, axis
    with pytest.raises(ValueError, match="repeated"):
        accel.expand_dims(x, (0, 0))
    with pytest.raises(TypeError, match="int or a tuple"):
        accel.expand_dims(x, 1.5)


def test_divmod_complex_to_bool_and_count_nonzero_keepdims():
    h = np.array([7, -7, 5], np.int32)
    x = accel.asarray(h)
    for got, want in ((divmod(x, 3), divmod(h, 3)), (divmod(10, x), divmod(10, h))):
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g.get(), w)
    c = np.array([0, 1j, 0.5 + 0j, -0.0 + 0j], np.complex64)
    np.testing.assert_array_equal(accel.astype(accel.asarray(c), accel.bool).get(), c.astype(bool))
    got = accel.count_nonzero(x, keepdims=True)
    np.testing.assert_array_equal(got.get(), np.count_nonzero(h, keepdims=True))
    assert accel.count_nonzero(x) == 3


def test_linspace_takes_numpys_positional_endpoint_and_retstep():
    # linspace(0, 1, 5, False) had taken False for dtype: [0 .25 .5 .75 1]
    np.testing.assert_array_equal(accel.linspace(0, 1, 5, False).get(),
                                  np.linspace(0, 1, 5, False))
    got, step = accel.linspace(2, 3, 5, retstep=True)
    want, wstep = np.linspace(2, 3, 5, retstep=True)
    np.testing.assert_array_equal(got.get(), want)
    assert step == wstep
    assert accel.linspace(0, 1, num=4, endpoint=False, dtype=accel.float32).dtype == np.float32


def test_diff_prepend_append_and_meshgrid_sparse_and_views():
    h = np.array([[1, 4, 9], [2, 3, 7]])
    x = accel.asarray(h)
    for kw in (dict(prepend=0), dict(append=10), dict(axis=0, prepend=5),
               dict(prepend=0, append=np.array([[1], [2]]))):
        got = accel.diff(x, **{k: accel.asarray(v) if isinstance(v, np.ndarray) else v
                                for k, v in kw.items()})
        np.testing.assert_array_equal(got.get(), np.diff(h, **kw), err_msg=str(kw))
    a, b = np.arange(3.0), np.arange(2.0)
    for kw in (dict(sparse=True), dict(copy=False), dict(indexing="ij", sparse=True)):
        for g, w in zip(accel.meshgrid(accel.asarray(a), accel.asarray(b), **kw),
                        np.meshgrid(a, b, **kw)):
            assert g.shape == w.shape, kw
            np.testing.assert_array_equal(g.get(), w)


def test_numpys_positional_out_keepdims_density_and_rint_out():
    # Arguments NumPy takes by position that accel had in other places:
    # nanmax(a, 0, out) took out as keepdims, histogram(a, 4, r, True) True as
    # weights, rint(x, out) out as decimals
    h = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, np.nan]])
    x = accel.asarray(h)
    for name in ("nanmax", "nanmin", "nansum", "nanmean", "nanprod", "ptp"):
        want = getattr(np, name)(h, 0) if name != "ptp" else np.ptp(np.nan_to_num(h), 0)
        src = x if name != "ptp" else accel.asarray(np.nan_to_num(h))
        out = accel.empty(want.shape, dtype=accel.float64)
        extra = (None,) if name in ("nansum", "nanmean", "nanprod") else ()  # their dtype
        r = getattr(accel, name)(src, 0, *extra, out)
        assert r is out, name
        np.testing.assert_allclose(out.get(), want, err_msg=name)
        kd = getattr(accel, name)(src, 0, *extra, None, True)
        assert kd.shape == (1, 3), name
    v = np.array([0.1, 0.4, 0.45, 0.9, 0.95])
    got, edges = accel.histogram(accel.asarray(v), 4, (0.0, 1.0), True)
    want, wedges = np.histogram(v, 4, (0.0, 1.0), True)
    np.testing.assert_allclose(got.get(), want)
    np.testing.assert_allclose(edges.get(), wedges)
    o = accel.empty(3, dtype=accel.float64)
    assert accel.rint(accel.asarray(np.array([0.5, 1.5, -2.5])), o) is o
    np.testing.assert_array_equal(o.get(), [0.0, 2.0, -2.0])


def test_review_of_the_parity_pass():
    # A reviewer's cases after the pass above: float bounds into an integer
    # dtype wrapped too; a bound past the range on the side clip clips
    # saturated; sparse meshgrid returned views of its inputs; diff(n=0)
    # joined prepend; linspace and full took float64 for float32 scalars.
    for bounds in ((-3.0, 3), (-3, 3, 1.0)):
        with pytest.raises(OverflowError, match="do not fit uint8"):
            accel.arange(*bounds, dtype=accel.uint8)
    with pytest.raises(TypeError, match="complex bounds"):
        accel.arange(0, 5, np.complex64(1))
    u8 = accel.asarray(np.array([2, 4, 250], np.uint8))
    for lo, hi in ((300, None), (None, -1)):
        with pytest.raises(OverflowError, match="does not fit uint8"):
            accel.clip(u8, lo, hi)
    np.testing.assert_array_equal(accel.clip(u8, 3, 1000).get(), [3, 4, 250])
    a, b = accel.asarray(np.arange(3.0)), accel.asarray(np.arange(2.0))
    accel.meshgrid(a, b, sparse=True)[0][...] = 99
    np.testing.assert_array_equal(a.get(), np.arange(3.0))
    assert accel.diff(accel.ones((2, 3)), n=0, prepend=0).shape == (2, 3)
    for args in ((np.float32(0), 1, 3), (0, np.complex64(1j), 3), (0, 1, 3), (0, 1j, 3)):
        assert accel.linspace(*args).dtype == np.linspace(*args).dtype, args
    assert accel.full(2, np.array(1.5, np.float32)).dtype == np.float32
    h = np.array([1e8, 1, -1e8, np.nan], np.float32)
    assert float(accel.nanmean(accel.asarray(h), dtype=accel.float64)) == \
        np.nanmean(h, dtype=np.float64)
    assert accel.expand_dims(accel.ones(3), [0, 1]).shape == (1, 1, 3)


def test_index_array_assignment_drops_a_values_leading_ones():
    x, h = accel.zeros(4), np.zeros(4)
    x[accel.asarray(np.array([0, 1]))] = accel.ones((1, 2))
    h[[0, 1]] = np.ones((1, 2))
    np.testing.assert_array_equal(x.get(), h)
    y, hy = accel.zeros((3, 2)), np.zeros((3, 2))
    y[accel.asarray(np.array([0, 2]))] = accel.full((1, 2, 2), 7.0)
    hy[[0, 2]] = np.full((1, 2, 2), 7.0)
    np.testing.assert_array_equal(y.get(), hy)
    with pytest.raises(ValueError):
        x[accel.asarray(np.array([0, 1]))] = accel.ones((2, 2))


@pytest.mark.parametrize("axis", [(0, 2), (-1, 0), (0, 1, 2), [1]])
@pytest.mark.parametrize("keepdims", [False, True])
def test_median_and_quantile_over_a_tuple_of_axes(axis, keepdims):
    h = np.random.default_rng(1).standard_normal((3, 4, 5))
    x = accel.asarray(h)
    got, want = accel.median(x, axis=axis, keepdims=keepdims), np.median(h, axis, keepdims=keepdims)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.get(), want, rtol=1e-14)
    got = accel.quantile(x, 0.3, axis=axis, keepdims=keepdims)
    np.testing.assert_allclose(got.get(), np.quantile(h, 0.3, axis, keepdims=keepdims), rtol=1e-14)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_argmax_argmin_of_complex_in_numpys_order(dtype):
    # real parts first, then imaginary; the first NaN in either part wins;
    # ties go to the first (accel raised for complex before)
    rng = np.random.default_rng(3)
    for t in range(60):
        shape = tuple(rng.integers(1, 5, rng.integers(1, 4)))
        h = np.empty(shape, dtype)
        h.real = rng.integers(-2, 3, shape)
        h.imag = rng.integers(-2, 3, shape)
        flat = h.reshape(-1)
        if t % 5 == 0:
            flat[rng.integers(0, h.size)] = complex(flat[0].real, -np.inf)
        if t % 7 == 0:
            flat[rng.integers(0, h.size)] = complex(np.nan, 1)
        if t % 11 == 0:
            flat[rng.integers(0, h.size)] = complex(1, np.nan)
        x = accel.asarray(h)
        for fn in ("argmax", "argmin"):
            for axis in [None] + list(range(h.ndim)):
                got = getattr(accel, fn)(x, axis=axis, keepdims=True).get()
                want = getattr(np, fn)(h, axis=axis, keepdims=True)
                np.testing.assert_array_equal(got, want, err_msg=f"{fn} {axis} {h}")


@pytest.mark.parametrize("bounds", [(1e16, 1e16 + 5, 1.0), (1e300, 1e300 + 1e285, 1e284),
                                    (0.1, 1.0, 0.1), (-5.5, 10, 0.3)])
def test_arange_where_start_swallows_part_of_the_step(bounds):
    # NumPy's values are start + i * ((start + step) - start), its count
    # from step: 1e16 four times (accel raised "step 0"), 11 values near
    # 1e300 (accel raised a count mismatch)
    got, want = accel.arange(*bounds), np.arange(*bounds)
    np.testing.assert_array_equal(got.get(), want)
