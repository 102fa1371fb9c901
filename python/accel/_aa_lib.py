# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""The C array layer (accel/array.h) through ctypes: the view struct, the
dtype table (accel/types.h's ACCEL_DTYPE_LIST) and the prototypes that the
namespace (_namespace.py) and the arrays (_array.py) call. Nothing here
computes: it names C entry points."""
from __future__ import annotations

import ctypes

import numpy as np

from . import _lib as L
from ._lib import P, c_i32, c_int, c_u32, c_u64, c_vp

MAX_NDIM = 32  # ACCEL_ARRAY_MAX_NDIM
I64_MAX = (1 << 63) - 1
I64_MIN = -(1 << 63)


class View(ctypes.Structure):
    """accel_array: a strided view of one buffer (accel/array.h)."""
    _fields_ = [("struct_size", c_u32), ("dtype", c_int), ("buffer", c_vp), ("offset", c_u64),
                ("ndim", c_u32), ("reserved0", c_u32),
                ("shape", ctypes.c_int64 * MAX_NDIM), ("strides", ctypes.c_int64 * MAX_NDIM)]


class FnProperties(ctypes.Structure):
    """accel_array_fn_properties: one row of the elementwise table."""
    _fields_ = [("struct_size", c_u32), ("fn", c_int), ("name", ctypes.c_char_p),
                ("arity", c_u32), ("kinds", c_u32), ("result", c_u32),
                ("tolerance_ulp", c_u32), ("tolerance_ulp_complex", c_u32),
                ("reserved", c_u64 * 4)]


RESULT_PROMOTED, RESULT_BOOL, RESULT_OUT, RESULT_REAL = 1, 2, 3, 4
KIND_BOOL, KIND_INT, KIND_UINT, KIND_FLOAT, KIND_COMPLEX = 1, 2, 3, 4, 5

# accel_dtype codes of the dtypes the namespace has (ACCEL_DTYPE_LIST).
# complex64/128 arrays are stored, moved and computed on by the elementwise
# functions (the table's complex column) and the FFTs; the reductions and
# the rest compose from their parts.
CODES = {np.dtype(np.bool_): 8, np.dtype(np.int8): 9, np.dtype(np.int16): 10,
         np.dtype(np.int32): 5, np.dtype(np.int64): 6, np.dtype(np.uint8): 7,
         np.dtype(np.uint16): 11, np.dtype(np.uint32): 12, np.dtype(np.uint64): 13,
         np.dtype(np.float32): 1, np.dtype(np.float64): 2,
         np.dtype(np.complex64): 14, np.dtype(np.complex128): 15}
DTYPES = {v: k for k, v in CODES.items()}

V = P(View)
st = c_int
_p = L._proto
fn_info = _p("accel_array_fn_info", P(FnProperties), c_int)
dtype_kind_of = _p("accel_dtype_kind_of", c_int, c_int)
result_type = _p("accel_result_type", st, c_int, c_int, P(c_int))
result_type_scalar = _p("accel_result_type_scalar", st, c_int, c_int, P(c_int))
array_init = _p("accel_array_init", st, V, c_vp, c_int, c_u32, P(ctypes.c_int64))
array_slice = _p("accel_array_slice", st, V, P(ctypes.c_int64), P(ctypes.c_int64),
                 P(ctypes.c_int64), V)
permute_dims = _p("accel_array_permute_dims", st, V, P(c_i32), V)
expand_dims = _p("accel_array_expand_dims", st, V, c_i32, V)
squeeze = _p("accel_array_squeeze", st, V, c_u64, V)
broadcast_to = _p("accel_array_broadcast_to", st, V, c_u32, P(ctypes.c_int64), V)
flip = _p("accel_array_flip", st, V, c_u64, V)
reshape = _p("accel_array_reshape", st, V, c_u32, P(ctypes.c_int64), V)
broadcast_shapes = _p("accel_broadcast_shapes", st, ctypes.c_size_t, P(V), P(c_u32),
                      P(ctypes.c_int64))
unary = _p("accel_array_unary", st, c_vp, c_int, V, V)
binary = _p("accel_array_binary", st, c_vp, c_int, V, V, V)
clip = _p("accel_array_clip", st, c_vp, V, V, V, V)
where = _p("accel_array_where", st, c_vp, V, V, V, V)
astype = _p("accel_array_astype", st, c_vp, V, V)
copy = _p("accel_array_copy", st, c_vp, V, V)
reduce = _p("accel_array_reduce", st, c_vp, c_int, V, c_u64, c_int, V)
var = _p("accel_array_var", st, c_vp, V, c_u64, ctypes.c_double, c_int, V)
std = _p("accel_array_std", st, c_vp, V, c_u64, ctypes.c_double, c_int, V)
cumulative_sum = _p("accel_array_cumulative_sum", st, c_vp, V, c_i32, c_int, V)
cumulative_prod = _p("accel_array_cumulative_prod", st, c_vp, V, c_i32, c_int, V)
full = _p("accel_array_full", st, c_vp, V, ctypes.c_double)
arange = _p("accel_array_arange", st, c_vp, ctypes.c_double, ctypes.c_double, ctypes.c_double, V)
full_i64 = _p("accel_array_full_i64", st, c_vp, V, ctypes.c_int64)
full_u64 = _p("accel_array_full_u64", st, c_vp, V, ctypes.c_uint64)
tril = _p("accel_array_tril", st, c_vp, V, ctypes.c_int64, V)
triu = _p("accel_array_triu", st, c_vp, V, ctypes.c_int64, V)
take = _p("accel_array_take", st, c_vp, V, V, c_i32, V)
take_along_axis = _p("accel_array_take_along_axis", st, c_vp, V, V, c_i32, V)
scatter = _p("accel_array_scatter", st, c_vp, V, V, c_i32, V)
nonzero = _p("accel_array_nonzero", st, c_vp, V, V)
mask_gather = _p("accel_array_mask_gather", st, c_vp, V, V, V)
mask_scatter = _p("accel_array_mask_scatter", st, c_vp, V, V, V)
sort = _p("accel_array_sort", st, c_vp, V, c_i32, c_int, V)
argsort = _p("accel_array_argsort", st, c_vp, V, c_i32, c_int, V)
matmul = _p("accel_array_matmul", st, c_vp, V, V, V)
searchsorted = _p("accel_array_searchsorted", st, c_vp, V, V, c_int, V, V)
unique_all = _p("accel_array_unique_all", st, c_vp, V, V, V, V, V, V)
i64 = ctypes.c_int64
# The linalg extension (synchronous: LAPACK on the CPU, cuSOLVER on CUDA).
linalg_cholesky = _p("accel_array_linalg_cholesky", st, c_vp, V, c_int, V)
linalg_solve = _p("accel_array_linalg_solve", st, c_vp, V, V, V)
linalg_inv = _p("accel_array_linalg_inv", st, c_vp, V, V)
linalg_det = _p("accel_array_linalg_det", st, c_vp, V, V)
linalg_slogdet = _p("accel_array_linalg_slogdet", st, c_vp, V, V, V)
linalg_qr = _p("accel_array_linalg_qr", st, c_vp, V, c_int, V, V)
linalg_eigh = _p("accel_array_linalg_eigh", st, c_vp, V, V, V)
linalg_eigvalsh = _p("accel_array_linalg_eigvalsh", st, c_vp, V, V)
linalg_svd = _p("accel_array_linalg_svd", st, c_vp, V, c_int, V, V, V)
linalg_svdvals = _p("accel_array_linalg_svdvals", st, c_vp, V, V)
# The fft extension; norm: accel_fft_norm.
FFT_NORMS = {"backward": 0, "ortho": 1, "forward": 2}
fft = _p("accel_array_fft", st, c_vp, V, i64, c_i32, c_int, V)
ifft = _p("accel_array_ifft", st, c_vp, V, i64, c_i32, c_int, V)
rfft = _p("accel_array_rfft", st, c_vp, V, i64, c_i32, c_int, V)
irfft = _p("accel_array_irfft", st, c_vp, V, i64, c_i32, c_int, V)
fftn = _p("accel_array_fftn", st, c_vp, V, c_u32, P(i64), P(c_i32), c_int, V)
ifftn = _p("accel_array_ifftn", st, c_vp, V, c_u32, P(i64), P(c_i32), c_int, V)
fftfreq = _p("accel_array_fftfreq", st, c_vp, i64, ctypes.c_double, V)
rfftfreq = _p("accel_array_rfftfreq", st, c_vp, i64, ctypes.c_double, V)
AXIS_NONE = -(1 << 31)  # ACCEL_ARRAY_AXIS_NONE

# The elementwise functions of the C table: {name: (fn code, arity, result)}.
FUNCTIONS = {}
KINDS = {}  # {name: bit (1 << kind) per dtype kind the function takes}
for _code in range(1, 128):
    _r = fn_info(_code)
    if _r:
        _row = _r.contents
        FUNCTIONS[_row.name.decode()] = (_row.fn, _row.arity, _row.result)
        KINDS[_row.name.decode()] = _row.kinds
REDUCTIONS = {"sum": 1, "prod": 2, "min": 3, "max": 4, "mean": 5, "any": 6, "all": 7,
              "argmin": 8, "argmax": 9}  # ACCEL_ARRAY_REDUCE_LIST
