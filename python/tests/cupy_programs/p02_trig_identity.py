# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Elementwise math on random data: sin^2 + cos^2 == 1, exp(log(x)) == x."""
import numpy as np
import accel as cp

cp.random.seed(0)
x = cp.random.rand(100000).astype(cp.float32)
one = cp.sin(x) ** 2 + cp.cos(x) ** 2
assert float(cp.max(cp.abs(one - 1))) < 1e-6
y = cp.exp(cp.log(x + 1)) - 1
np.testing.assert_allclose(cp.asnumpy(y), cp.asnumpy(x), rtol=1e-5, atol=1e-6)
print("ok")
