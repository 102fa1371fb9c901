# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""accel.from_dlpack does not trust its input (issue 31, item 3): DLPack
1.0's READ_ONLY flag is honoured (the data is copied, the producer's memory
never written), and a tensor with a negative dimension, a negative or absurd
stride or byte offset, or too many dimensions is refused with a ValueError
naming the field. Hand-made capsules play the hostile producer; NumPy is the
reference for the values."""
import ctypes

import numpy as np
import pytest

import accel
from accel import _dlpack as D

cpu = accel.get_device("cpu")

_api = ctypes.pythonapi
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


# Managed tensors whose memory accel took over (zero-copy imports): kept for
# the whole run, as a producer must keep them until their deleter is called.
_PRODUCED = []


def capsule(host, shape, strides=None, byte_offset=0, ndim=None, flags=0):
    """A "dltensor_versioned" capsule over host's memory with the given
    fields (no deleter: accel must not consume it on refusal); the ctypes
    objects it points into are returned with it to keep them alive."""
    shp = (ctypes.c_int64 * max(len(shape), 1))(*shape)
    st = (ctypes.c_int64 * max(len(strides), 1))(*strides) if strides is not None else None
    m = D.DLManagedTensorVersioned()
    m.version.major, m.version.minor = 1, 0
    m.flags = flags
    t = m.dl_tensor
    t.data = host.ctypes.data
    t.device.device_type, t.device.device_id = D.KDL_CPU, 0
    t.ndim = len(shape) if ndim is None else ndim
    t.dtype.code, t.dtype.bits, t.dtype.lanes = D.KDL_FLOAT, 64, 1
    t.shape = ctypes.cast(shp, ctypes.POINTER(ctypes.c_int64))
    if st is not None:
        t.strides = ctypes.cast(st, ctypes.POINTER(ctypes.c_int64))
    t.byte_offset = byte_offset
    cap = _api.PyCapsule_New(ctypes.addressof(m), b"dltensor_versioned", None)
    return cap, (m, shp, st, host)


@pytest.mark.parametrize("fields, field", [
    (dict(shape=(-1,)), "shape[0]"),
    (dict(shape=(4, -3)), "shape[1]"),
    (dict(shape=(8,), ndim=40), "ndim"),
    (dict(shape=(8,), ndim=-1), "ndim"),
    (dict(shape=(1 << 40, 1 << 40)), "shape"),
    (dict(shape=(8,), strides=(-1,)), "strides[0]"),
    (dict(shape=(2, 4), strides=(4, -1)), "strides[1]"),
    (dict(shape=(8,), strides=(1 << 60,)), "strides[0]"),
    (dict(shape=(8,), byte_offset=1 << 63), "byte_offset"),
    (dict(shape=(8,), byte_offset=(1 << 64) - 8), "byte_offset"),
])
def test_hostile_tensor_fields_are_refused_naming_the_field(fields, field):
    host = np.arange(8.0)
    cap, keep = capsule(host, **fields)
    with pytest.raises(ValueError) as e:
        accel.from_dlpack(cap)
    assert isinstance(e.value, accel.InvalidArgumentError)
    assert f"tensor's {field} is" in str(e.value), str(e.value)
    # Refused before use: the producer's data is untouched and still its own.
    assert np.array_equal(host, np.arange(8.0))


def test_sound_fields_of_a_hand_made_capsule_are_taken():
    # The same helper with sound fields gives a zero-copy array (the checks
    # refuse only what is wrong): shape (2, 4), C strides, offset one row.
    host = np.arange(12.0)
    cap, keep = capsule(host, shape=(2, 4), strides=(4, 1), byte_offset=4 * 8)
    # The producer keeps the managed tensor alive until accel releases it
    # (DLPack's contract): accel reads its deleter field then, which may be
    # after this function's locals are gone.
    _PRODUCED.append(keep)
    a = accel.from_dlpack(cap)
    assert a.shape == (2, 4) and a.data_ptr == host.ctypes.data + 32
    np.testing.assert_array_equal(a.get(), np.arange(4.0, 12.0).reshape(2, 4))


def test_read_only_flag_makes_a_copy_that_never_writes_the_producer():
    host = np.arange(8.0)
    cap, keep = capsule(host, shape=(8,), flags=D.FLAG_READ_ONLY)
    a = accel.from_dlpack(cap)
    assert a.data_ptr != host.ctypes.data
    a += 1.0
    np.testing.assert_array_equal(a.get(), np.arange(8.0) + 1.0)
    np.testing.assert_array_equal(host, np.arange(8.0))


def test_an_array_over_immutable_bytes_is_not_written():
    raw = np.arange(16.0).tobytes()
    before = bytes(raw)
    view = np.frombuffer(raw, dtype=np.float64)   # read-only: NumPy flags it so
    a = accel.from_dlpack(view)
    a *= -2.0
    accel.fill(a[8:], 7.0)
    want = -2.0 * np.arange(16.0)
    want[8:] = 7.0
    np.testing.assert_array_equal(a.get(), want)
    assert raw == before                          # the bytes object is unchanged


def test_a_read_only_memory_map_is_copied_not_written(tmp_path):
    path = tmp_path / "x.npy"
    np.save(path, np.linspace(0.0, 1.0, 1000, dtype=np.float32))
    mm = np.load(path, mmap_mode="r")
    a = accel.from_dlpack(mm)
    a += 1.0                                      # was a segfault in a CPU worker
    np.testing.assert_allclose(a.get(), np.linspace(0.0, 1.0, 1000, dtype=np.float32) + 1.0,
                               rtol=0, atol=1e-6)
    np.testing.assert_array_equal(np.load(path), np.linspace(0.0, 1.0, 1000, dtype=np.float32))
    del mm


def test_a_writable_import_stays_zero_copy():
    h = np.arange(5.0)
    a = accel.from_dlpack(h)
    assert a.data_ptr == h.ctypes.data
    a += 1.0
    a.get()
    np.testing.assert_array_equal(h, np.arange(5.0) + 1.0)


def test_empty_and_size_one_axes_take_any_stride_as_numpy_exports_them():
    # NumPy exports stride 0 for an array of no elements, and any stride for
    # an axis of size 1 (a C-contiguous (1, 3) view of every 5th row): both
    # are C-contiguous and were refused; a truly strided view is refused as
    # unsupported, not as an invalid tensor (a helper's finds).
    for x in (np.zeros(0), np.zeros((0, 3)), np.zeros((2, 0)), np.zeros((3, 0, 2)),
              np.arange(30.0).reshape(10, 3)[::5][:1]):
        y = accel.from_dlpack(x)
        assert y.shape == x.shape
        np.testing.assert_array_equal(y.get(), x)
    with pytest.raises(accel.UnsupportedError):
        accel.from_dlpack(np.arange(12.0).reshape(4, 3)[:, 1])


def test_a_host_array_refuses_a_stream():
    # The standard (and NumPy): memory of the host takes stream=None; a
    # string, a float or an int was accepted (a helper's find).
    x = accel.asarray(np.arange(3.0))
    for st in ("x", 1.5, 2**70, 1):
        with pytest.raises(ValueError, match="stream"):
            x.__dlpack__(stream=st)
    np.testing.assert_array_equal(np.from_dlpack(x), np.arange(3.0))
