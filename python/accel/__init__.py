# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""accel from Python: NumPy-like arrays on accel's devices (a GPU when there
is one, the CPU otherwise), with CuPy's names, over libaccel through ctypes.

    import accel as cp           # CuPy code ports by changing the import
    x = cp.asarray([1, 2, 3, 4, 5])
    y = cp.asarray([6, 7, 8, 9, 10])
    print(x + y)                 # [ 7.  9. 11. 13. 15.]
    print(cp.info())             # what runs where

    # Kernels you write run on every device (NVRTC on a GPU, C on the CPU):
    saxpy = cp.ElementwiseKernel("T x, T y, T a", "T z", "z = a * x + y", "saxpy")
    z = saxpy(x, y, 2.0)

Errors are accel.AccelError (``.status``: accel's status name, ``.message``),
in subclasses that are also the matching Python exception (ShapeMismatchError
is a ValueError, DtypeMismatchError a TypeError, ...).
"""
from . import cuda, linalg, random
from ._array import (ELEMENTWISE, Array, amax, amin, arange, array, asarray, asnumpy, axpby, copy,
                     dot, empty, empty_like, fill, float16, float32, float64, full, full_like, inner,
                     int32, int64, linspace, matmul, max, mean, min, ndarray, ones, ones_like,
                     square, sum, transpose, uint8, vdot, zeros, zeros_like)
from ._core import (Device, Event, Info, MemoryPool, Report, Stream, VerifyMode, devices,
                    empty_pinned,
                    get_current_stream, get_default_memory_pool, get_device, get_elapsed_time,
                    info, init, report, report_enable, shutdown, verify, verify_stats)
from ._cupy import allclose, clip, get_array_module, isclose, where
from ._dlpack import from_dlpack
from ._fuse import fuse
from ._graph import Graph, graph
from ._kernel import ElementwiseKernel, RawKernel, RawModule, ReductionKernel
from ._lib import (LIBRARY_PATH, AccelError, CompileError, DeviceMismatchError, DtypeMismatchError,
                   ForkedError, InvalidArgumentError, InvalidHandleError, MismatchError,
                   OutOfMemoryError, OutOfRangeError, ReleasedError, ShapeMismatchError,
                   UnsupportedError)

# The elementwise functions come from libaccel's op table (accel_op_info),
# under their NumPy names: add, subtract, ..., exp, log, sin, cos, expit.
globals().update(ELEMENTWISE)
del ELEMENTWISE

# Written once, in _version.py (CMake, pyproject.toml and this read it; ctest
# version_agree checks that libaccel's accel_version() and the packages agree).
from ._version import __version__


def synchronize() -> None:
    """Wait for the current stream of every device."""
    for d in devices():
        get_current_stream(d).synchronize()


__all__ = [n for n in dir() if not n.startswith("_")]
