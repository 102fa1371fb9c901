# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Zero-copy with CuPy and PyTorch on a CUDA device: round trips by
__cuda_array_interface__ and DLPack with pointer equality and writes seen
on both sides, and stream ordering. Skips (visibly) where CuPy or PyTorch
or a CUDA device is absent: run it on the GPU machine."""
import numpy as np
import pytest

import accel


def _cuda_device():
    for d in accel.devices():
        if d.backend == "cuda":
            return d
    return None


cuda = _cuda_device()
needs_cuda = pytest.mark.skipif(cuda is None, reason="no accel CUDA device")


@needs_cuda
def test_cupy_round_trips():
    cp = pytest.importorskip("cupy", reason="CuPy is not installed")
    a = accel.asarray(np.arange(1 << 20, dtype=np.float32), device=cuda)
    c = cp.asarray(a)  # __cuda_array_interface__, with accel's stream
    assert c.data.ptr == a.data_ptr
    c *= 2  # CuPy writes; accel sees it after CuPy's stream is done
    cp.cuda.get_current_stream().synchronize()
    assert np.array_equal(a.get(), np.arange(1 << 20, dtype=np.float32) * 2)
    d = cp.from_dlpack(a)
    assert d.data.ptr == a.data_ptr
    x = cp.arange(1000, dtype=cp.float64)
    b = accel.from_dlpack(x)
    assert b.device == cuda and b.data_ptr == x.data.ptr
    b += 1.0
    accel.synchronize()
    assert float(x[999]) == 1000.0
    y = cp.ones(10, dtype=cp.float32)
    z = accel.from_dlpack(y) * 3.0
    assert np.array_equal(z.get(), np.full(10, 3.0, np.float32))


@needs_cuda
def test_cupy_stream_ordering_through_the_interface():
    cp = pytest.importorskip("cupy", reason="CuPy is not installed")
    n = 1 << 24
    with accel.Stream(cuda) as s:
        a = accel.zeros(n, dtype=np.float32, device=cuda)
        for _ in range(50):
            a += 1.0  # long queued work on accel's stream
        iface = a.__cuda_array_interface__
        assert iface["version"] == 3 and iface["stream"] == s.ptr
        c = cp.asarray(a)  # CuPy orders its stream after accel's
        total = float(c.sum())
    assert total == 50.0 * n


@needs_cuda
def test_torch_round_trips():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch has no CUDA")
    a = accel.asarray(np.arange(100, dtype=np.float32), device=cuda)
    t = torch.from_dlpack(a)
    assert t.data_ptr() == a.data_ptr and t.is_cuda
    t.mul_(3)
    torch.cuda.synchronize()
    assert np.array_equal(a.get(), np.arange(100, dtype=np.float32) * 3)
    u = torch.arange(64, dtype=torch.float64, device="cuda")
    b = accel.from_dlpack(u)
    assert b.data_ptr == u.data_ptr()
    b *= 2.0
    accel.synchronize()
    assert float(u[63]) == 126.0
    v = torch.as_tensor(a, device="cuda")  # __cuda_array_interface__
    assert v.data_ptr() == a.data_ptr
