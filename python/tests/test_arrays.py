# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Arrays: creation, attributes, transfers, views, indexing, lifetimes."""
import numpy as np
import pytest

import accel
from conftest import DTYPES


@pytest.mark.parametrize("dtype", DTYPES + [np.float16])
def test_asarray_get_round_trip_is_exact(rng, dtype):
    h = rng.standard_normal((7, 5)).astype(dtype)
    a = accel.asarray(h)
    assert a.shape == (7, 5) and a.dtype == dtype and a.size == 35
    assert a.nbytes == h.nbytes and a.ndim == 2 and a.itemsize == h.itemsize
    assert a.strides == h.strides
    assert a.device == accel.get_device()
    g = a.get()
    assert g.dtype == dtype and np.array_equal(g, h)
    h[0, 0] = 123  # asarray copied: later host writes do not reach the array
    assert a.get()[0, 0] != 123


def test_asarray_keeps_numpy_dtypes_and_lists_work():
    # As NumPy and CuPy: Python ints become int64, floats float64, bools bool.
    a = accel.asarray([1, 2, 3, 4, 5])
    assert a.dtype == np.int64
    assert np.array_equal(a.get(), [1, 2, 3, 4, 5])
    assert accel.asarray([1.0, 2]).dtype == np.float64
    assert accel.asarray([True, False]).dtype == np.bool_
    b = accel.asarray([[1.5, 2.5]], dtype=np.float32)
    assert b.dtype == np.float32 and b.shape == (1, 2)


def test_asarray_stores_complex_and_rejects_strings():
    h = np.array([1 + 2j, -3j], np.complex64)
    assert np.array_equal(accel.asarray(h).get(), h)
    with pytest.raises(accel.DtypeMismatchError) as e:
        accel.asarray(np.array(["a", "b"]))
    assert e.value.status == "ACCEL_ERROR_DTYPE_MISMATCH"


def test_asarray_on_named_device_and_copy_between_arrays(rng):
    h = rng.random(100)
    a = accel.asarray(h, device="cpu")
    assert a.device.name == "cpu:0"
    b = accel.asarray(a, device="cpu")
    assert b is a
    c = accel.asarray(a, dtype=np.float32)
    assert c.dtype == np.float32 and np.array_equal(c.get(), h.astype(np.float32))


def test_creation_functions():
    assert np.array_equal(accel.zeros((2, 3)).get(), np.zeros((2, 3)))
    assert np.array_equal(accel.ones(4, dtype=np.float32).get(), np.ones(4, np.float32))
    assert np.array_equal(accel.full((3,), 2.5).get(), np.full(3, 2.5))
    assert np.array_equal(accel.arange(10).get(), np.arange(10.0))
    assert np.array_equal(accel.arange(1, 4, 0.5).get(), np.arange(1, 4, 0.5))
    assert accel.empty((0,)).size == 0 and accel.empty((0,)).get().shape == (0,)
    assert np.allclose(accel.linspace(0, 1, 5).get(), np.linspace(0, 1, 5))
    z = accel.zeros_like(accel.ones((2, 2), dtype=np.float32))
    assert z.dtype == np.float32 and not z.get().any()


def test_get_into_out_and_set(rng):
    h = rng.random(16)
    a = accel.asarray(h)
    out = np.empty(16)
    assert a.get(out=out) is out and np.array_equal(out, h)
    with pytest.raises(accel.ShapeMismatchError):
        a.get(out=np.empty(15))
    a.set(h * 2)
    assert np.array_equal(a.get(), h * 2)
    with pytest.raises(accel.ShapeMismatchError):
        a.set(np.ones(3))


def test_views_reshape_and_indexing(rng):
    h = rng.random((6, 8))
    a = accel.asarray(h)
    assert np.array_equal(a.reshape(8, 6).get(), h.reshape(8, 6))
    assert np.array_equal(a.reshape(-1).get(), h.ravel())
    assert np.array_equal(a[2].get(), h[2])
    assert np.array_equal(a[-1].get(), h[-1])
    assert np.array_equal(a[1:4].get(), h[1:4])
    assert np.array_equal(a[1:4, 2:7].get(), h[1:4, 2:7])  # a 2-D strided copy
    assert np.array_equal(a[::2].get(), h[::2])  # through host memory
    assert np.array_equal(a[:, 3].get(), h[:, 3])
    with pytest.raises(accel.OutOfRangeError):
        a[6]
    with pytest.raises(accel.ShapeMismatchError):
        a.reshape(5, 5)
    # a view shares the buffer: writing through it shows in the base
    v = a[2]
    accel.fill(v, 7.0)
    assert np.array_equal(a.get()[2], np.full(8, 7.0))
    assert np.array_equal(a.get()[3], h[3])
    # a C-order reshape is a view too (made without the C call): at an
    # offset, of a view, with -1 anywhere; a transposed one is a copy
    r = a[1:5].reshape(2, -1, 4)
    assert r.shape == (2, 4, 4)
    accel.fill(r[1], 3.0)
    want = a.get()
    assert np.array_equal(want[3:5], np.full((2, 8), 3.0))
    assert np.array_equal(r.get(), want[1:5].reshape(2, 4, 4))
    t = a.T.reshape(-1)
    assert np.array_equal(t.get(), want.T.reshape(-1))
    accel.fill(t, 0.0)
    assert np.array_equal(a.get(), want)
    with pytest.raises(accel.ShapeMismatchError):
        a.reshape(-1, 0)
    # what only the C call knows is still refused at the reshape
    with pytest.raises(accel.InvalidArgumentError, match="exceeds 32"):
        a.reshape((1,) * 38 + (6, 8))
    with pytest.raises(accel.OutOfRangeError):
        accel.zeros(0).reshape(2**62, 4, -1)
    assert accel.broadcast_arrays() == []


def test_setitem(rng):
    a = accel.zeros((3, 4))
    a[...] = 2.0
    assert np.array_equal(a.get(), np.full((3, 4), 2.0))
    a[1, 2] = 5.0
    h = np.full((3, 4), 2.0)
    h[1, 2] = 5.0
    assert np.array_equal(a.get(), h)
    a[:] = accel.ones((3, 4))
    assert np.array_equal(a.get(), np.ones((3, 4)))


def test_scalar_conversions_and_printing():
    s = accel.asarray([1.0, 2.0, 3.5]).sum()
    assert s.shape == () and float(s) == 6.5 and s.item() == 6.5
    assert "6.5" in str(s)
    r = repr(accel.asarray([1.0, 2.0]))
    assert r.startswith("array([1., 2.]") and "device=" in r
    for h in (np.ones(2, np.float32), np.arange(3, dtype=np.uint8), np.zeros(0), np.array(True)):
        want = np.array_repr(h)  # NumPy's, dtype named where NumPy names it
        assert repr(accel.asarray(h)) == f"{want[:-1]}, device='{accel.get_device().name}')"
    with pytest.raises(TypeError):   # as NumPy: only one-element arrays convert
        float(accel.ones(2))


def test_released_array_raises_clear_error():
    a = accel.ones(10)
    v = a[2:5]
    a.release()
    assert a.released and v.released
    for use in (lambda: a + a, lambda: a.get(), lambda: v.get(), lambda: accel.exp(a),
                lambda: a.sum(), lambda: a.reshape(5, 2), lambda: a @ a):
        with pytest.raises(accel.ReleasedError) as e:
            use()
        assert e.value.status == "ACCEL_ERROR_INVALID_HANDLE"
        assert "released" in e.value.message
    assert "released" in repr(a)
    a.release()  # twice is harmless


def test_memory_pool_reuses_freed_buffers():
    pool = accel.get_default_memory_pool()
    a = accel.ones(1 << 16)
    used = pool.used_bytes()
    del a
    assert pool.used_bytes() == used - (1 << 16) * 8
    assert pool.free_bytes() >= (1 << 16) * 8
    b = accel.zeros(1 << 16)  # the cached block comes back, zeroed by fill
    assert not b.get().any()
    pool.free_all_blocks()
    assert pool.free_bytes() == 0


def test_devices_and_device_context():
    devs = accel.devices()
    assert devs and any(d.kind == "cpu" for d in devs)
    cpu = accel.Device("cpu")
    assert cpu.name == "cpu:0" and cpu.host_accessible
    with cpu:
        assert accel.get_device() == cpu
        assert accel.ones(3).device == cpu
    with pytest.raises(accel.AccelError) as e:
        accel.Device("nosuch:7")
    assert e.value.status == "ACCEL_ERROR_NOT_FOUND"


def test_empty_pinned_round_trip_and_lifetime(rng):
    h = accel.empty_pinned((3, 500), np.float32)
    assert h.shape == (3, 500) and h.dtype == np.float32 and h.flags.c_contiguous
    assert h.ctypes.data % 64 == 0      # page-locked or aligned host memory
    want = rng.standard_normal((3, 500)).astype(np.float32)
    h[...] = want
    a = accel.asarray(h)
    h[...] = 0                          # asarray copied: later writes do not reach a
    back = accel.empty_pinned((3, 500), np.float32)
    assert a.get(out=back) is back
    assert np.array_equal(back, want)
    assert np.array_equal(accel.full_like(a, 2.5).get(), np.full((3, 500), 2.5, np.float32))
    v = back[1]                         # a NumPy view keeps the pinned block alive
    del back
    assert np.array_equal(v, want[1])


@pytest.mark.parametrize("fn", ["sum", "prod", "max", "min", "mean", "any", "all", "argmax",
                                "argmin", "sort", "argsort", "cumsum", "cumulative_sum"])
@pytest.mark.parametrize("bad", [np.array([3.0, 1.0, 2.0]), [3.0, 1.0, 2.0]])
def test_reductions_and_sorts_name_a_host_input(fn, bad):
    # a NumPy array or a list: the TypeError of the elementwise functions,
    # not an AttributeError from inside
    with pytest.raises(TypeError, match=f"accel.{fn}: x must be an array, not"):
        getattr(accel, fn)(bad)


def test_sort_methods_take_numpys_kind_and_the_standards_descending():
    h = np.array([3, 1, 2, 1, 3], dtype=np.int32)
    a = accel.asarray(h)
    np.testing.assert_array_equal(a.argsort(kind="stable").get(), np.argsort(h, kind="stable"))
    np.testing.assert_array_equal(a.argsort(0, "mergesort").get(), np.argsort(h, kind="stable"))
    # descending and stable: ties keep their order (indices 0, 4 then 2 then 1, 3)
    np.testing.assert_array_equal(a.argsort(descending=True).get(), [0, 4, 2, 1, 3])
    with pytest.raises(ValueError, match="kind 'bogus'"):
        a.argsort(kind="bogus")
    a.sort(kind="quicksort")
    np.testing.assert_array_equal(a.get(), np.sort(h))
    with pytest.raises(IndexError, match="axis -1 is out of range for 0-d"):
        accel.sort(accel.asarray(np.float64(2.0)))


def test_float16_views_keep_nan_payloads():
    # the generated copy of a strided float16 view goes through float: its
    # NaNs keep their sign and top payload bits (signalling ones too), as
    # NumPy's conversion does
    bits = np.array([0x7E01, 0xFE00, 0x7C01, 0x3C00, 0xFC02, 0x7FFF], np.uint16)
    x = bits.view(np.float16)
    a = accel.asarray(x)
    np.testing.assert_array_equal(accel.asnumpy(a[::-1]).view(np.uint16), bits[::-1])
    np.testing.assert_array_equal(accel.asnumpy(accel.sort(a[::-2])).view(np.uint16),
                                  np.sort(x[::-2], kind="stable").view(np.uint16))
    f = np.array([np.nan, -np.nan, 1.0, np.float32(np.frombuffer(b"\x01\x00\xc0\x7f", np.float32)[0])],
                 np.float32)
    np.testing.assert_array_equal(accel.asnumpy(accel.astype(accel.asarray(f), np.float16))
                                  .view(np.uint16), f.astype(np.float16).view(np.uint16))
