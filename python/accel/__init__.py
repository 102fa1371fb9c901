# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""accel from Python: one namespace that is both the Array API standard
2023.12's (``accel.__array_namespace__``, its dtypes and every function the
C array layer has) and CuPy's names, on accel's devices (a GPU when there is
one, the CPU otherwise), over libaccel through ctypes.

    import accel as cp           # CuPy code ports by changing the import
    x = cp.asarray([1, 2, 3, 4, 5])
    y = cp.asarray([[10], [20]])
    print(x + y)                 # broadcast, int64: [[11 12 ...] [21 22 ...]]
    print(cp.info())             # what runs where

    # Kernels you write run on every device (NVRTC on a GPU, C on the CPU):
    saxpy = cp.ElementwiseKernel("T x, T y, T a", "T z", "z = a * x + y", "saxpy")
    z = saxpy(x, y, 2.0)

Errors are accel.AccelError (``.status``: accel's status name, ``.message``),
in subclasses that are also the matching Python exception (ShapeMismatchError
is a ValueError, DtypeMismatchError a TypeError, ...). docs/python.md says
where accel differs from CuPy and from the standard.
"""
import sys as _sys

from . import cuda, random
from ._namespace import *  # noqa: F401,F403 (the standard's functions, dtypes, constants)
from ._namespace import __array_api_version__, __array_namespace_info__
from ._array import Array, asnumpy, axpby, fill, ndarray
from ._sets import (searchsorted, unique, unique_all, unique_counts, unique_inverse,
                    unique_values)
from ._ufunc import ELEMENTWISE, square
from ._core import (Device, Event, Info, MemoryPool, Report, Stream, VerifyMode, devices,
                    empty_pinned,
                    get_current_stream, get_default_memory_pool, get_device, get_elapsed_time,
                    info, init, report, report_enable, shutdown, verify, verify_stats)
from ._cupy import (allclose, angle, arccos, arccosh, arcsin, arcsinh, arctan, arctan2,
                    arctanh, argpartition, argwhere, around, array_equal, array_split,
                    ascontiguousarray, asfortranarray, bincount, bool_, column_stack,
                    concatenate, conjugate, copy, copyto, count_nonzero, cross, diag, diff, dstack,
                    einsum, exp2, flatnonzero, fmax, fmin, get_array_module, histogram, hstack,
                    identity, iscomplexobj, isclose, logspace, median, mod, nan_to_num, nanmax,
                    nanmean, nanmin, nansum, outer, percentile, power, quantile, reciprocal,
                    round_, split, trace, vstack, invert, left_shift, right_shift, rint, dtype,
                    isscalar, fabs, deg2rad, rad2deg, radians, degrees, atleast_1d,
                    atleast_2d, atleast_3d, fliplr, flipud, rot90, ndim, shape, ptp, average,
                    tri, triu_indices, tril_indices, unravel_index, ravel_multi_index, isin)
from ._routines import (compress, convolve, corrcoef, correlate, cov, diagonal, digitize,
                        divmod, extract, fix, hsplit, in1d, intersect1d, kron, lexsort, modf,
                        nancumsum, nanprod, pad, select, setdiff1d, sinc, union1d, vsplit)
from ._dlpack import from_dlpack
from ._fuse import fuse
from ._graph import Graph, graph
from ._kernel import ElementwiseKernel, RawKernel, RawModule, ReductionKernel
from ._lib import (LIBRARY_PATH, AccelError, CompileError, DeviceMismatchError, DtypeMismatchError,
                   ForkedError, InvalidArgumentError, InvalidHandleError, LinAlgError,
                   MismatchError, OutOfMemoryError, OutOfRangeError, ReleasedError,
                   ShapeMismatchError, UnsupportedError)

# The elementwise functions of libaccel's op table (accel_op_info) under their
# NumPy names, with the per-op fast path (_ufunc.py) in front of the
# namespace's function of the same name: add, subtract, ..., exp, expit, relu.
globals().update(ELEMENTWISE)
abs = ELEMENTWISE["absolute"]  # noqa: A001 (the standard's name)
del ELEMENTWISE
from ._routines import add_at as _add_at  # noqa: E402
add.at = _add_at  # type: ignore[attr-defined]  # noqa: F821 (NumPy's and CuPy's add.at)

# Written once, in _version.py (CMake, pyproject.toml and this read it; ctest
# version_agree checks that libaccel's accel_version() and the packages agree).
from ._version import __version__

# accel.array_api is this module (the name the namespace had before).
array_api = _sys.modules[__name__]
_sys.modules[__name__ + ".array_api"] = array_api
# The Array API's extensions (accel.linalg, accel.fft: the namespace's
# linalg and fft attributes), built on the namespace above.
from . import fft, linalg  # noqa: E402


def synchronize() -> None:
    """Wait for the current stream of every device."""
    for d in devices():
        get_current_stream(d).synchronize()


__all__ = [n for n in dir() if not n.startswith("_")]
