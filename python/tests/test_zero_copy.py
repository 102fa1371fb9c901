# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Zero-copy on the CPU with NumPy: __array_interface__, __dlpack__ and
accel.from_dlpack share memory (pointer equality, writes visible on both
sides), and lifetimes hold on both sides."""
import gc

import numpy as np
import pytest

import accel

cpu = accel.get_device("cpu")


def test_array_interface_views_the_buffer():
    a = accel.asarray(np.arange(12.0).reshape(3, 4), device=cpu)
    v = np.asarray(a)
    assert v.ctypes.data == a.data_ptr
    assert v.shape == (3, 4) and v.dtype == np.float64
    accel.fill(a, 5.0)
    a.get()  # waits for the fill
    assert np.all(v == 5.0)
    v[1, 1] = -1.0
    assert a.get()[1, 1] == -1.0
    # a view at an offset points into the same buffer
    row = a[2]
    assert np.asarray(row).ctypes.data == a.data_ptr + 2 * 4 * 8


def test_export_to_numpy_by_dlpack():
    a = accel.asarray(np.arange(6, dtype=np.float32), device=cpu)
    assert a.__dlpack_device__() == (1, 0)
    n = np.from_dlpack(a)
    assert n.ctypes.data == a.data_ptr and n.dtype == np.float32
    n[0] = 100.0
    assert a.get()[0] == 100.0
    a2 = a * 2.0
    assert np.array_equal(a2.get(), n * 2.0)
    # the consumer keeps the memory alive after the accel array is gone
    ptr = a.data_ptr
    del a, a2
    gc.collect()
    assert n.ctypes.data == ptr and n[0] == 100.0 and n[5] == 5.0


def test_import_from_numpy_by_dlpack():
    h = np.arange(10.0)
    a = accel.from_dlpack(h)
    assert a.device == cpu and a.shape == (10,) and a.dtype == np.float64
    assert a.data_ptr == h.ctypes.data
    a *= 3.0  # in place on the shared memory
    a.get()
    assert np.array_equal(h, np.arange(10.0) * 3.0)
    h[9] = -7.0
    assert a.get()[9] == -7.0
    # accel keeps NumPy's memory alive without the NumPy array
    ptr = h.ctypes.data
    del h
    gc.collect()
    assert a.data_ptr == ptr and a.get()[9] == -7.0
    a.release()
    with pytest.raises(accel.ReleasedError):
        a.get()


def test_import_2d_and_capsule():
    h = np.ones((4, 5), np.float32)
    a = accel.from_dlpack(h.__dlpack__())
    assert a.shape == (4, 5) and a.data_ptr == h.ctypes.data
    with pytest.raises(accel.AccelError):
        accel.from_dlpack(h.__dlpack__() if False else object())


def test_import_refuses_strides():
    h = np.ones((4, 6))[:, ::2]
    with pytest.raises(accel.UnsupportedError) as e:
        accel.from_dlpack(h)
    assert "strided" in e.value.message


@pytest.mark.parametrize("dt", [np.int32, np.uint8, np.bool_, np.complex64])
def test_import_of_integer_bool_and_complex_data(dt):
    h = np.arange(5).astype(dt)
    a = accel.from_dlpack(h)
    assert a.dtype == dt and np.array_equal(a.get(), h)


def test_release_of_an_exported_array_keeps_the_consumers_memory():
    a = accel.asarray(np.full(8, 3.0), device=cpu)
    n = np.asarray(a)
    a.release()
    with pytest.raises(accel.ReleasedError):
        a.get()
    gc.collect()
    assert np.all(n == 3.0)


def test_cuda_array_interface_absent_on_the_cpu():
    a = accel.ones(3, device=cpu)
    assert not hasattr(a, "__cuda_array_interface__")
    assert hasattr(a, "__array_interface__")


class _AsCpu:
    """A producer that asks the array for a capsule on the CPU, (1, 0), as a
    consumer on the host does (np.from_dlpack(x, device="cpu"))."""

    def __init__(self, a, copy=None):
        self.a, self.copy = a, copy

    def __dlpack__(self, **kw):
        kw.pop("dl_device", None)
        kw.pop("copy", None)
        return self.a.__dlpack__(dl_device=(1, 0), copy=self.copy, **kw)

    def __dlpack_device__(self):
        return (1, 0)


def test_dlpack_to_the_cpu_from_any_device():
    # On the CPU device the capsule views the buffer; on a GPU it is a host
    # copy (copy=False refused there); either way NumPy reads the values.
    x = np.arange(12, dtype=np.float32).reshape(3, 4) * 0.5
    a = accel.asarray(x)
    np.testing.assert_array_equal(np.from_dlpack(_AsCpu(a)), x)
    if a.__dlpack_device__() != (1, 0):
        with pytest.raises(BufferError, match="copy=False"):
            a.__dlpack__(dl_device=(1, 0), copy=False)
    with pytest.raises(accel.AccelError, match=r"dl_device \(3, 0\)"):
        a.__dlpack__(dl_device=(3, 0))
    for bad in (5, (1,), "cpu", (None, 0)):
        with pytest.raises(TypeError, match="dl_device"):
            a.__dlpack__(dl_device=bad)


def test_an_output_over_an_alias_of_its_input_gets_numpys_answer():
    # from_dlpack of an accel array is a second buffer over the same memory:
    # an out= partly over an input through it gets NumPy's answer (through a
    # temporary: the C call refuses it, nothing written), exactly over it
    # runs in place. (It computed wrong values; then it raised.)
    cases = (
        (lambda x, y: accel.add(x[:-1], x[:-1], out=y[1:]),
         lambda w: np.add(w[:-1], w[:-1], out=w[1:])),
        (lambda x, y: accel.negative(x[:-1], out=y[1:]),
         lambda w: np.negative(w[:-1], out=w[1:])),
        (lambda x, y: accel.multiply(x[1:], 3, out=y[:-1]),
         lambda w: np.multiply(w[1:], 3, out=w[:-1])),
        (lambda x, y: y[1:].__iadd__(x[:-1]), lambda w: w[1:].__iadd__(w[:-1].copy())),
        (lambda x, y: y.__setitem__(slice(1, None), x[:-1]),
         lambda w: w.__setitem__(slice(1, None), w[:-1].copy())),
        (lambda x, y: accel.copyto(y[2:], x[:-2]), lambda w: np.copyto(w[2:], w[:-2])),
        (lambda x, y: accel.exp(x[::2], out=y[1::2]), lambda w: np.exp(w[::2], out=w[1::2])),
        (lambda x, y: accel.add(x, x, out=y), lambda w: np.add(w, w, out=w)),
    )
    for dt in (np.float32, np.float64, np.int32):
        for k, (f, g) in enumerate(cases):
            if dt == np.int32 and k == 6:
                continue
            h = np.arange(1, 11).astype(dt)
            x = accel.asarray(h)
            y = accel.from_dlpack(x)
            f(x, y)
            want = h.copy()
            g(want)
            np.testing.assert_allclose(x.get(), want, rtol=1e-6, err_msg=f"{dt} case {k}")


def test_kernels_and_fused_graphs_see_an_alias_as_the_same_memory():
    # User kernels refuse an output partly over an input (or another output)
    # through an alias, as they do within one array; a graph does not fuse
    # ops whose arrays alias, so it computes what the eager calls compute.
    h = np.array([3, 1, 10, 11, 12, 8], np.float32)
    inc = accel.ElementwiseKernel("T x", "T y", "y = x + 1", "alias_inc")
    x = accel.asarray(h)
    y = accel.from_dlpack(x)
    with pytest.raises(accel.InvalidArgumentError, match="same memory"):
        inc(x[:-1], y[1:])
    inc(x, y)                                            # exactly over: in place
    np.testing.assert_array_equal(x.get(), h + 1)
    rsum = accel.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "alias_rsum")
    with pytest.raises(accel.InvalidArgumentError, match="same memory"):
        rsum(x.reshape(3, 2), axis=-1, out=y[2:5])
    two = accel.ElementwiseKernel("T x", "T a, T b", "a = x; b = x + 1", "alias_two")
    w = accel.asarray(np.arange(12, dtype=np.float32))
    with pytest.raises(accel.InvalidArgumentError, match="same memory"):
        two(w[:6], w[6:12], accel.from_dlpack(w)[6:12])
    np.testing.assert_array_equal(x.get(), h + 1)
    x = accel.asarray(h)
    y = accel.from_dlpack(x)
    z = accel.zeros(5, dtype=np.float32)
    with accel.graph() as g:
        accel.add(x[:-1], 1.0, out=y[:-1])
        accel.negative(x[1:], out=z)
    g.launch()
    want = h.copy()
    want[:-1] += 1
    np.testing.assert_array_equal(z.get(), -want[1:])
