# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""CuPy's ReductionKernel example: the L2 norm of each row."""
import numpy as np
import accel as cp

l2norm_kernel = cp.ReductionKernel(
    "T x",          # input params
    "T y",          # output params
    "x * x",        # map
    "a + b",        # reduce
    "y = sqrt(a)",  # post-reduction map
    "0",            # identity value
    "l2norm")       # kernel name
x = cp.arange(10, dtype=cp.float32).reshape(2, 5)
got = l2norm_kernel(x, axis=1)
ref = np.sqrt((np.arange(10, dtype=np.float64).reshape(2, 5) ** 2).sum(axis=1))
np.testing.assert_allclose(cp.asnumpy(got), ref, rtol=1e-6)
print("ok")
