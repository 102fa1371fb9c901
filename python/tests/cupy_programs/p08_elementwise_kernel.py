# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""CuPy's ElementwiseKernel example: squared difference with type placeholders."""
import numpy as np
import accel as cp

squared_diff = cp.ElementwiseKernel(
    "float32 x, float32 y",
    "float32 z",
    "z = (x - y) * (x - y)",
    "squared_diff")
x = cp.arange(10, dtype=cp.float32).reshape(2, 5)
y = cp.arange(5, dtype=cp.float32)
z = squared_diff(x, y)
hx = np.arange(10, dtype=np.float32).reshape(2, 5)
np.testing.assert_array_equal(cp.asnumpy(z), (hx - np.arange(5, dtype=np.float32)) ** 2)
print("ok")
