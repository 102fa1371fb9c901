# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Matrix products: the @ operator, cp.dot and cp.matmul against NumPy."""
import numpy as np
import accel as cp

rng = np.random.default_rng(3)
a = rng.standard_normal((256, 128)).astype(np.float32)
b = rng.standard_normal((128, 64)).astype(np.float32)
A, B = cp.asarray(a), cp.asarray(b)
ref = a.astype(np.float64) @ b.astype(np.float64)
for got in (A @ B, cp.dot(A, B), cp.matmul(A, B)):
    np.testing.assert_allclose(cp.asnumpy(got), ref, rtol=1e-4, atol=1e-4)
v = rng.standard_normal(128)
np.testing.assert_allclose(cp.asnumpy(cp.asarray(a.astype(np.float64)) @ cp.asarray(v)), a @ v,
                           rtol=1e-10)
print("ok")
