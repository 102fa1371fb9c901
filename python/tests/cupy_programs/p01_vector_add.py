# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""CuPy's first page: build arrays on the device, add them, bring the result back."""
import numpy as np
import accel as cp

x_gpu = cp.array([1, 2, 3, 4, 5])
y_gpu = cp.array([6, 7, 8, 9, 10])
z_gpu = x_gpu + y_gpu
z = cp.asnumpy(z_gpu)
assert np.array_equal(z, np.array([7, 9, 11, 13, 15])), z
a = cp.arange(10, dtype=cp.float32)
b = cp.ones(10, dtype=cp.float32) * 2
c = a * b + 1
np.testing.assert_allclose(c.get(), np.arange(10, dtype=np.float32) * 2 + 1)
print("ok")
