# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Loading libaccel with ctypes, the C prototypes, and accel's errors as
Python exceptions.

libaccel is found, first match wins:

1. ``$ACCEL_LIBRARY``: the path of ``libaccel.so`` (a file that must exist);
2. the package's own ``_lib`` folder (the binary wheel bundles libaccel, its
   plugins and their libraries there: tools/build-wheel.sh);
3. the build tree: ``$ACCEL_BUILD_DIR/lib``, then ``build/lib`` of the
   repository this package's source lives in (an editable install);
4. the install prefix: ``lib`` folders above the installed package, then
   ``sys.prefix/lib``;
5. the system loader (``libaccel.so.0`` on the library search path: the
   Debian package libaccel0).

With the wheel's CUDA plugin, the CUDA libraries it opens at run time
(cuBLAS, NVRTC, NCCL) are first taken from NVIDIA's pip wheels where they
are installed (``nvidia/cu13/lib``, ``nvidia/cublas/lib``, ... on sys.path),
as PyTorch and CuPy do; else the plugin finds them on the system.
"""
from __future__ import annotations

import ctypes
import os
import re
import sys
from pathlib import Path
from typing import Any, List, Optional

import numpy as np

c_size = ctypes.c_size_t
c_u32 = ctypes.c_uint32
c_u64 = ctypes.c_uint64
c_i32 = ctypes.c_int32
c_int = ctypes.c_int
c_dbl = ctypes.c_double
c_vp = ctypes.c_void_p
c_cp = ctypes.c_char_p
c_bool = ctypes.c_bool
P = ctypes.POINTER

_SONAMES = ("libaccel.so", "libaccel.so.0")


# The binary wheel's folder of libraries: libaccel.so.0, _accel_fast and
# accel/ (plugins.ini, the plugins, OpenBLAS, accel-tcc).
BUNDLED = Path(__file__).resolve().parent / "_lib"


def _candidates() -> List[Path]:
    out: List[Path] = [BUNDLED]
    build = os.environ.get("ACCEL_BUILD_DIR")
    if build:
        out.append(Path(build) / "lib")
    here = Path(__file__).resolve()
    # python/accel/_lib.py -> the repository root is two folders up.
    repo = here.parents[2]
    out.append(repo / "build" / "lib")
    # PREFIX/lib/pythonX.Y/site-packages/accel/_lib.py -> PREFIX/lib.
    for up in here.parents[1:6]:
        if up.name == "lib" or up.name == "lib64":
            out.append(up)
    out.append(Path(sys.prefix) / "lib")
    return out


def find_library() -> str:
    """The path (or soname) of the libaccel that ``import accel`` loads."""
    env = os.environ.get("ACCEL_LIBRARY")
    if env:
        if not Path(env).is_file():
            raise ImportError(f"accel: ACCEL_LIBRARY={env!r} is not a file (it takes the path of "
                              "libaccel.so)")
        return env
    for folder in _candidates():
        for name in _SONAMES:
            p = folder / name
            if p.is_file():
                return str(p)
    return "libaccel.so.0"


def _not_found(path: str, why: str) -> ImportError:
    """The error for a libaccel that could not be found: every folder searched
    and the ways to get the library."""
    folders = "".join(f"\n  {f}" for f in _candidates())
    return ImportError(
        f"accel: cannot load libaccel ({path}): {why}.\nSearched (libaccel.so, libaccel.so.0 in "
        f"each):{folders}\n  then the system loader's path (LD_LIBRARY_PATH, ld.so.cache) for "
        "libaccel.so.0.\nThree ways to get it:\n"
        "  1. the binary wheel, which bundles libaccel and its plugins: pip install "
        "accel-runtime (or a wheel built by tools/build-wheel.sh);\n"
        "  2. the Debian package libaccel0 (tools/build-debs.sh), or a build from source "
        "(tools/quickstart.sh, or cmake --install to the prefix this package is in);\n"
        "  3. ACCEL_LIBRARY set to the path of a libaccel.so.")


# soname, the folders under nvidia/ that hold it (CUDA 13's wheels put the
# toolkit's libraries in cu13/, CUDA 12's one folder per library).
_NVIDIA_WHEEL_LIBS = (("libcublasLt.so.13", ("cu13", "cublas")),
                      ("libcublas.so.13", ("cu13", "cublas")),
                      ("libnvrtc.so.13", ("cu13", "cuda_nvrtc")),
                      ("libnccl.so.2", ("nccl",)))


def _preload_nvidia_wheels() -> List[str]:
    """Opens cuBLAS, NVRTC and NCCL from NVIDIA's pip wheels (nvidia-cublas,
    nvidia-cuda-nvrtc, nvidia-nccl-cu13: ``nvidia/<folder>/lib`` on sys.path)
    before the bundled CUDA plugin asks for them by soname: the loader then
    answers with these copies. Only when the package's own CUDA plugin is
    there; a library that does not load is left to the plugin's own search
    (the system's, with its error message). Returns the paths loaded."""
    if not (BUNDLED / "accel" / "libaccel_cuda.so").is_file():
        return []
    loaded = []
    for soname, folders in _NVIDIA_WHEEL_LIBS:
        for entry in sys.path:
            hits = [Path(entry or ".") / "nvidia" / f / "lib" / soname for f in folders]
            hit = next((h for h in hits if h.is_file()), None)
            if hit is None:
                continue
            try:
                _PRELOADED.append(ctypes.CDLL(str(hit)))
                loaded.append(str(hit))
            except OSError:
                pass
            break
    return loaded


_PRELOADED: List[ctypes.CDLL] = []


def _preload_bundled() -> None:
    """Opens the libraries auditwheel bundled for the wheel's plugins
    (``accel_runtime.libs/``: libgomp, libgfortran, ...). The core loads each
    plugin as /proc/self/fd/N (docs/security.md), where the plugin's
    ``$ORIGIN``-relative RPATH names no folder; with these already open, the
    loader matches the plugins' needs by soname instead."""
    libs = BUNDLED.parent.parent / "accel_runtime.libs"
    if not libs.is_dir():
        return
    for f in sorted(libs.iterdir()):
        try:
            _PRELOADED.append(ctypes.CDLL(str(f)))
        except OSError:
            pass  # the plugin that needs it says what is missing


def _load() -> ctypes.CDLL:
    path = find_library()
    if path.startswith(str(BUNDLED) + os.sep):
        _preload_bundled()
        _preload_nvidia_wheels()
    try:
        dll = ctypes.CDLL(path)
    except OSError as e:
        if os.environ.get("ACCEL_LIBRARY"):
            raise ImportError(f"accel: cannot load ACCEL_LIBRARY={path!r}: {e}") from None
        raise _not_found(path, str(e)) from None
    # A library without accel_version is not libaccel at all (ACCEL_LIBRARY
    # naming another library), which the missing-entry message below would
    # call an old libaccel.
    if not hasattr(dll, "accel_version"):
        via = " (ACCEL_LIBRARY)" if os.environ.get("ACCEL_LIBRARY") else ""
        raise ImportError(f"accel: {path}{via} is not libaccel: it has no accel_version entry; "
                          "set ACCEL_LIBRARY to the path of libaccel.so, or unset it")
    return dll


lib = _load()
LIBRARY_PATH: str = find_library()

# ----------------------------------------------------------------- structs


class Slice(ctypes.Structure):
    _fields_ = [("buffer", c_vp), ("offset", c_size), ("count", c_size)]


class Matrix(ctypes.Structure):
    _fields_ = [("buffer", c_vp), ("offset", c_size), ("rows", c_size), ("cols", c_size),
                ("ld", c_size)]


class BackendInfo(ctypes.Structure):
    _fields_ = [("struct_size", c_u32), ("name", c_cp), ("path", c_cp), ("description", c_cp),
                ("loaded", c_bool), ("status", c_int), ("reason", c_cp), ("abi_version", c_u32),
                ("device_count", c_u32)]


class DeviceProperties(ctypes.Structure):
    _fields_ = [("struct_size", c_u32), ("kind", c_u32), ("name", ctypes.c_char * 128),
                ("backend", ctypes.c_char * 32), ("index", c_u32), ("compute_units", c_u32),
                ("memory_total", c_u64), ("memory_free", c_u64), ("dtypes", c_u32),
                ("host_accessible", c_u32), ("compute_capability", c_u32), ("reserved0", c_u32),
                ("driver_version", ctypes.c_char * 32), ("runtime_version", ctypes.c_char * 32),
                ("reserved", c_u64 * 8)]


class GemmDesc(ctypes.Structure):
    _fields_ = [("struct_size", c_u32), ("dtype", c_int), ("trans_a", c_int), ("trans_b", c_int),
                ("m", c_size), ("n", c_size), ("k", c_size), ("alpha", c_dbl), ("beta", c_dbl),
                ("a", c_vp), ("a_offset", c_size), ("lda", c_size),
                ("b", c_vp), ("b_offset", c_size), ("ldb", c_size),
                ("c", c_vp), ("c_offset", c_size), ("ldc", c_size),
                ("batch_count", c_size), ("stride_a", c_size), ("stride_b", c_size),
                ("stride_c", c_size), ("allow_tf32", c_bool)]


class VerifyOptions(ctypes.Structure):
    _fields_ = [("struct_size", c_u32), ("reference", c_cp), ("sample", c_dbl), ("seed", c_u64),
                ("fail_on_mismatch", c_bool), ("check_reference_device", c_bool),
                ("repro_dir", c_cp), ("guard_elements", c_u32)]


class VerifyStats(ctypes.Structure):
    _fields_ = [("struct_size", c_u32), ("checked", c_u64), ("mismatches", c_u64),
                ("skipped", c_u64), ("repro_files", c_u64)]


class KernelOptions(ctypes.Structure):
    _fields_ = [("struct_size", c_u32), ("tolerance_ulp", c_u32), ("cuda_options", c_cp),
                ("debug", c_u32), ("reserved0", c_u32), ("reserved", c_u64 * 7)]


class KernelLaunchOptions(ctypes.Structure):
    _fields_ = [("struct_size", c_u32), ("debug", c_u32), ("shared_bytes", c_size),
                ("reserved", c_u64 * 8)]


class KernelArg(ctypes.Structure):
    _fields_ = [("kind", c_u32), ("dtype", c_int), ("slice", Slice), ("f", c_dbl),
                ("i", ctypes.c_int64)]


class ReportRow(ctypes.Structure):
    _fields_ = [("struct_size", c_u32), ("op", c_int), ("device", c_cp), ("ops", c_u64),
                ("fallbacks", c_u64), ("fallback_device", c_cp), ("bytes_moved", c_u64),
                ("reason", c_cp)]


# -------------------------------------------------------------- prototypes

def _proto(name: str, restype, *argtypes, optional: bool = False):
    try:
        f = getattr(lib, name)
    except AttributeError:
        if optional:
            return None
        raise ImportError(f"accel: {LIBRARY_PATH} has no {name}: libaccel is older than this "
                          "package; rebuild it") from None
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


st = c_int  # accel_status
status_name = _proto("accel_status_name", c_cp, c_int)
status_string = _proto("accel_status_string", c_cp, c_int)
last_error = _proto("accel_last_error", c_cp)
version = _proto("accel_version", c_cp)
set_log_level = _proto("accel_set_log_level", None, c_int)

runtime_open = _proto("accel_runtime_open", st, c_cp, P(c_vp))
runtime_close = _proto("accel_runtime_close", None, c_vp)
runtime_config_path = _proto("accel_runtime_config_path", c_cp, c_vp)
runtime_backend_count = _proto("accel_runtime_backend_count", c_u32, c_vp)
runtime_backend_info = _proto("accel_runtime_backend_info", st, c_vp, c_u32, P(BackendInfo))

device_count = _proto("accel_device_count", c_u32, c_vp)
device_get = _proto("accel_device_get", st, c_vp, c_u32, P(c_vp))
device_get_by_name = _proto("accel_device_get_by_name", st, c_vp, c_cp, P(c_vp))
device_default = _proto("accel_device_default", st, c_vp, P(c_vp))
device_properties_get = _proto("accel_device_properties_get", st, c_vp, P(DeviceProperties))
device_name = _proto("accel_device_name", c_cp, c_vp)

buffer_create = _proto("accel_buffer_create", st, c_vp, c_size, P(c_vp))
buffer_release = _proto("accel_buffer_release", None, c_vp)
buffer_size = _proto("accel_buffer_size", c_size, c_vp)
host_alloc = _proto("accel_host_alloc", st, c_vp, c_size, P(c_vp))
host_free = _proto("accel_host_free", None, c_vp, c_vp)

queue_create = _proto("accel_queue_create", st, c_vp, P(c_vp))
queue_release = _proto("accel_queue_release", None, c_vp)
queue_finish = _proto("accel_queue_finish", st, c_vp)
queue_write = _proto("accel_queue_write", st, c_vp, c_vp, c_size, c_vp, c_size)
queue_read = _proto("accel_queue_read", st, c_vp, c_vp, c_size, c_vp, c_size)
queue_write_blocking = _proto("accel_queue_write_blocking", st, c_vp, c_vp, c_size, c_vp, c_size)
queue_read_blocking = _proto("accel_queue_read_blocking", st, c_vp, c_vp, c_size, c_vp, c_size)
queue_copy = _proto("accel_queue_copy", st, c_vp, c_vp, c_size, c_vp, c_size, c_size)
queue_wait_event = _proto("accel_queue_wait_event", st, c_vp, c_vp)
queue_copy_2d = _proto("accel_queue_copy_2d", st, c_vp, c_vp, c_size, c_size, c_vp, c_size,
                       c_size, c_size, c_size)

event_create = _proto("accel_event_create", st, c_vp, P(c_vp))
event_release = _proto("accel_event_release", None, c_vp)
event_record = _proto("accel_event_record", st, c_vp, c_vp)
event_synchronize = _proto("accel_event_synchronize", st, c_vp)
event_query = _proto("accel_event_query", st, c_vp, P(c_bool))
event_elapsed_ms = _proto("accel_event_elapsed_ms", st, c_vp, c_vp, P(c_dbl))

fill = _proto("accel_fill", st, c_vp, c_int, c_dbl, Slice)
copy = _proto("accel_copy", st, c_vp, c_int, Slice, Slice)
binary = _proto("accel_binary", st, c_vp, c_int, c_int, Slice, Slice, Slice)
unary = _proto("accel_unary", st, c_vp, c_int, c_int, Slice, Slice)
axpby = _proto("accel_axpby", st, c_vp, c_int, c_dbl, Slice, c_dbl, Slice)
scale = _proto("accel_scale", st, c_vp, c_int, c_dbl, Slice, Slice)
reduce = _proto("accel_reduce", st, c_vp, c_int, c_int, Slice, Slice)
dot = _proto("accel_dot", st, c_vp, c_int, Slice, Slice, Slice)
gemm = _proto("accel_gemm", st, c_vp, P(GemmDesc))
gemm_desc_init = _proto("accel_gemm_desc_init", None, P(GemmDesc))
transpose_2d = _proto("accel_transpose_2d", st, c_vp, c_int, c_size, c_size, c_vp, c_size,
                      c_size, c_vp, c_size, c_size)

rng_create = _proto("accel_rng_create", st, c_u64, P(c_vp))
rng_release = _proto("accel_rng_release", None, c_vp)
rng_get = _proto("accel_rng_get", st, c_vp, P(c_u64), P(c_u64))
rng_seek = _proto("accel_rng_seek", st, c_vp, c_u64)
rng_uniform = _proto("accel_rng_uniform", st, c_vp, c_vp, c_int, Slice)
rng_normal = _proto("accel_rng_normal", st, c_vp, c_vp, c_int, c_dbl, c_dbl, Slice)

verify_options_init = _proto("accel_verify_options_init", None, P(VerifyOptions))
verify_configure = _proto("accel_verify_configure", st, c_vp, P(VerifyOptions))
verify_stats_get = _proto("accel_verify_stats_get", st, c_vp, P(VerifyStats))
report_enable = _proto("accel_report_enable", st, c_vp, c_bool)
report_rows = _proto("accel_report", st, c_vp, P(ReportRow), c_size, P(c_size))
report_format = _proto("accel_report_format", st, c_vp, c_cp, c_size, P(c_size))
op_name = _proto("accel_op_name", c_cp, c_int)


class OpProperties(ctypes.Structure):
    """One row of the op table (accel_op_properties, accel.h)."""
    _fields_ = [("struct_size", c_u32), ("op", c_int), ("name", c_cp), ("kind", c_int),
                ("num_operands", c_u32), ("reads_output", c_u32), ("dtypes", c_u32),
                ("tolerance", c_int), ("tolerance_n", c_dbl), ("cost", c_int),
                ("cost_reads", c_u32), ("cost_writes", c_u32), ("cost_flops", c_u32),
                ("numpy", c_cp), ("expr_f32", c_cp), ("expr_f64", c_cp)]


op_info = _proto("accel_op_info", P(OpProperties), c_int)
# accel_op_kind (accel/types.h).
OP_KIND_BINARY, OP_KIND_UNARY, OP_KIND_REDUCTION = 3, 4, 6
# ACCEL_OP_CODE_LIMIT (accel/types.h): op codes lie in [1, OP_CODE_LIMIT).
OP_CODE_LIMIT = 128


def op_table() -> dict:
    """The library's op table as {name: (code, kind, numpy names, f32
    expression)}: the Python package reads its op codes and elementwise
    functions from here, never from a copy (accel_op_info)."""
    rows = {}
    for code in range(1, OP_CODE_LIMIT):
        r = op_info(code)
        if not r:
            continue
        row = r.contents
        numpy = tuple(row.numpy.decode().split("|")) if row.numpy else ()
        expr = row.expr_f32.decode() if row.expr_f32 else ""
        rows[row.name.decode()] = (row.op, row.kind, numpy, expr)
    return rows

# The per-op entries again without argtypes, for the hot path of small ops:
# ctypes then converts each argument by its own type instead of calling a
# converter per argument (about 0.2 us less per call). The caller passes
# exactly the C types: a c_void_p queue, Python ints for the enums (C int),
# Slice structures (by value).
binary_raw = lib["accel_binary"]
binary_raw.restype = c_int
unary_raw = lib["accel_unary"]
unary_raw.restype = c_int


# The words of every boolean setting, as libaccel reads them
# (common/value.h: accel__parse_bool), any case.
_TRUE_WORDS = ("1", "true", "yes", "on")
_FALSE_WORDS = ("0", "false", "no", "off")


def _env_bool(name: str, default: bool) -> bool:
    """The boolean environment variable `name` (unset or empty: `default`);
    ValueError naming it and its value for a word that is no boolean."""
    v = os.environ.get(name, "")
    if not v:
        return default
    if v.lower() in _TRUE_WORDS:
        return True
    if v.lower() in _FALSE_WORDS:
        return False
    raise ValueError(f"accel: {name}={v}: expected a boolean: 1, true, yes, on, 0, false, no "
                     "or off, in any case")


def _load_fast() -> Any:
    """The optional extension _accel_fast (python/accel_fast.c: the same two
    calls without ctypes: python/bench/overhead.py prints both), from
    next to the libaccel loaded (the build tree's lib/, where CMake puts it),
    set up to call that library's entries; None where it is not there or
    ``ACCEL_PYTHON_FAST=0`` (any boolean word: off, false, ...)."""
    if (not _env_bool("ACCEL_PYTHON_FAST", True) or os.sep not in LIBRARY_PATH
            or sys.version_info < (3, 10)):  # its stable ABI is 3.10's
        return None
    import importlib.machinery
    import importlib.util
    path = Path(LIBRARY_PATH).resolve().parent / "_accel_fast.abi3.so"
    if not path.is_file():
        return None
    try:
        loader = importlib.machinery.ExtensionFileLoader("_accel_fast", str(path))
        spec = importlib.util.spec_from_file_location("_accel_fast", str(path), loader=loader)
        mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
        loader.exec_module(mod)
        mod.init(ctypes.cast(binary_raw, c_vp).value, ctypes.cast(unary_raw, c_vp).value)
    except Exception:  # an extension that does not load is as good as none
        return None
    return mod


# The extension's module, or None: the per-op path then calls through ctypes.
fast = _load_fast()
FAST_PATH: Optional[str] = getattr(fast, "__file__", None)

# User kernels (accel/kernel.h).
kernel_options_init = _proto("accel_kernel_options_init", None, P(KernelOptions))
kernel_elementwise_create = _proto("accel_kernel_elementwise_create", st, c_vp, c_cp, c_cp, c_cp,
                                   c_cp, P(KernelOptions), P(c_vp))
kernel_reduction_create = _proto("accel_kernel_reduction_create", st, c_vp, c_cp, c_cp, c_cp,
                                 c_cp, c_cp, c_cp, c_cp, P(KernelOptions), P(c_vp))
kernel_raw_create = _proto("accel_kernel_raw_create", st, c_vp, c_cp, c_cp, P(KernelOptions),
                           P(c_vp))
kernel_release = _proto("accel_kernel_release", None, c_vp)
kernel_build = _proto("accel_kernel_build", st, c_vp, c_vp, c_u32)
kernel_launch = _proto("accel_kernel_launch", st, c_vp, c_vp, c_size, P(KernelArg))
kernel_launch_grid = _proto("accel_kernel_launch_grid", st, c_vp, c_vp, P(c_u32), P(c_u32),
                            c_size, P(KernelArg))
kernel_launch_options_init = _proto("accel_kernel_launch_options_init", None,
                                    P(KernelLaunchOptions), optional=True)
kernel_launch_grid_ex = _proto("accel_kernel_launch_grid_ex", st, c_vp, c_vp, P(c_u32), P(c_u32),
                               P(KernelLaunchOptions), c_size, P(KernelArg), optional=True)

# Zero-copy entries (optional: a libaccel without them still serves arrays).
buffer_host_pointer = _proto("accel_buffer_host_pointer", c_vp, c_vp, optional=True)
buffer_native_pointer = _proto("accel_buffer_native_pointer", st, c_vp, P(c_vp), optional=True)
queue_native_stream = _proto("accel_queue_native_stream", st, c_vp, P(c_vp), optional=True)
buffer_wrap = _proto("accel_buffer_wrap", st, c_vp, c_vp, c_size, c_vp, c_vp, P(c_vp),
                     optional=True)

# ------------------------------------------------------------------- dtypes

F32, F64, F16, BF16, I32, I64, U8 = 1, 2, 3, 4, 5, 6, 7
KARG_ARRAY, KARG_SCALAR = 1, 2

# ------------------------------------------------------------------ errors

SUCCESS = 0
# "file:LINE:COL: error" (gcc, tcc) and "file(LINE): error" (NVRTC), or "line LINE".
_LINE = re.compile(r"(?::(\d+):(?:\d+:)? *(?:fatal )?error)|(?:\((\d+)\): *error)|(?:line (\d+))")
STATUS = {
    "ACCEL_ERROR_INVALID_ARGUMENT": 1, "ACCEL_ERROR_INVALID_HANDLE": 2,
    "ACCEL_ERROR_OUT_OF_RANGE": 3, "ACCEL_ERROR_DTYPE_MISMATCH": 4,
    "ACCEL_ERROR_SHAPE_MISMATCH": 5, "ACCEL_ERROR_DEVICE_MISMATCH": 6,
    "ACCEL_ERROR_OUT_OF_HOST_MEMORY": 7, "ACCEL_ERROR_OUT_OF_DEVICE_MEMORY": 8,
    "ACCEL_ERROR_UNSUPPORTED": 9, "ACCEL_ERROR_NOT_FOUND": 10, "ACCEL_ERROR_PLUGIN_LOAD": 11,
    "ACCEL_ERROR_INCOMPATIBLE_ABI": 12, "ACCEL_ERROR_CONFIG": 13, "ACCEL_ERROR_DEVICE": 14,
    "ACCEL_ERROR_MISMATCH": 15, "ACCEL_ERROR_UNAVAILABLE": 16, "ACCEL_ERROR_IO": 17,
    "ACCEL_ERROR_INTERNAL": 18, "ACCEL_ERROR_COMPILE": 19, "ACCEL_ERROR_COMMUNICATION": 20,
    "ACCEL_ERROR_KERNEL_FAULT": 21, "ACCEL_ERROR_LINALG": 22,
}


class AccelError(Exception):
    """An accel call failed. ``status`` is accel's status name
    (``"ACCEL_ERROR_SHAPE_MISMATCH"``), ``code`` its number, and the message
    names the function, the argument and the cause, as accel_last_error()."""

    def __init__(self, status: str, message: str, code: Optional[int] = None):
        super().__init__(f"{message} [{status}]")
        self.status = status
        self.code = STATUS.get(status, -1) if code is None else code
        self.message = message


class InvalidArgumentError(AccelError, ValueError):
    """ACCEL_ERROR_INVALID_ARGUMENT (also a ValueError)."""


class InvalidHandleError(AccelError):
    """ACCEL_ERROR_INVALID_HANDLE: a released array, stream or event."""


class ReleasedError(InvalidHandleError):
    """The array (or stream, event, generator) was released and cannot be used."""


class ForkedError(ReleasedError):
    """The array (or stream, event) belongs to the runtime of the parent of
    this forked process: a forked child gets a fresh runtime on first use,
    and the parent's objects cannot be used in it."""


class OutOfRangeError(AccelError, IndexError):
    """ACCEL_ERROR_OUT_OF_RANGE (also an IndexError)."""


class DtypeMismatchError(AccelError, TypeError):
    """ACCEL_ERROR_DTYPE_MISMATCH (also a TypeError)."""


class ShapeMismatchError(AccelError, ValueError):
    """ACCEL_ERROR_SHAPE_MISMATCH (also a ValueError)."""


class DeviceMismatchError(AccelError, ValueError):
    """ACCEL_ERROR_DEVICE_MISMATCH (also a ValueError)."""


class OutOfMemoryError(AccelError, MemoryError):
    """ACCEL_ERROR_OUT_OF_DEVICE_MEMORY or ACCEL_ERROR_OUT_OF_HOST_MEMORY."""


class UnsupportedError(AccelError, NotImplementedError):
    """ACCEL_ERROR_UNSUPPORTED (also a NotImplementedError)."""


class LinAlgError(AccelError, np.linalg.LinAlgError):
    """ACCEL_ERROR_LINALG: a factorization failed on the values (a singular
    matrix for solve and inv, one not positive definite for cholesky, no
    convergence for eigh and svd). Also numpy.linalg.LinAlgError (a
    ValueError), so ``except numpy.linalg.LinAlgError`` catches it, as with
    CuPy."""


class MismatchError(AccelError):
    """ACCEL_ERROR_MISMATCH: verify mode found a result outside its tolerance."""


class CompileError(AccelError):
    """ACCEL_ERROR_COMPILE: a user kernel failed to compile. ``log`` is the
    compiler's log (lines counted in the kernel's own text), ``line`` the
    first line number it names (None when it names none)."""

    def __init__(self, status: str, message: str, code: Optional[int] = None):
        super().__init__(status, message, code)
        self.log = message
        m = _LINE.search(message)
        self.line: Optional[int] = (int(next(g for g in m.groups() if g)) if m else None)


_CLASSES = {
    "ACCEL_ERROR_INVALID_ARGUMENT": InvalidArgumentError,
    "ACCEL_ERROR_INVALID_HANDLE": InvalidHandleError,
    "ACCEL_ERROR_OUT_OF_RANGE": OutOfRangeError,
    "ACCEL_ERROR_DTYPE_MISMATCH": DtypeMismatchError,
    "ACCEL_ERROR_SHAPE_MISMATCH": ShapeMismatchError,
    "ACCEL_ERROR_DEVICE_MISMATCH": DeviceMismatchError,
    "ACCEL_ERROR_OUT_OF_HOST_MEMORY": OutOfMemoryError,
    "ACCEL_ERROR_OUT_OF_DEVICE_MEMORY": OutOfMemoryError,
    "ACCEL_ERROR_UNSUPPORTED": UnsupportedError,
    "ACCEL_ERROR_MISMATCH": MismatchError,
    "ACCEL_ERROR_LINALG": LinAlgError,
    "ACCEL_ERROR_COMPILE": CompileError,
}


def error(status: str, message: str) -> AccelError:
    """The exception for status name `status` with `message`."""
    return _CLASSES.get(status, AccelError)(status, message)


def failed(code: int) -> AccelError:
    """The exception for a status a C call returned, with accel_last_error()."""
    name = status_name(code).decode()
    msg = last_error().decode(errors="replace") or status_string(code).decode()
    if name == "ACCEL_ERROR_INVALID_HANDLE":
        # The package only passes handles of its own objects, so a dead one is
        # an array, stream or event released (by another thread) meanwhile.
        return ReleasedError(name, msg)
    return error(name, msg)


def alias_refused(code: int) -> bool:
    """Whether a C call refused an output partly over an input in the same
    memory (through a second buffer over it: from_dlpack of an accel
    array; the core's messages say "same memory"): the callers then get
    NumPy's answer through a temporary."""
    return code == 1 and b"same memory" in (last_error() or b"")


def check(code: int) -> None:
    """Raise the matching AccelError when code is not ACCEL_SUCCESS."""
    if code:
        raise failed(code)
