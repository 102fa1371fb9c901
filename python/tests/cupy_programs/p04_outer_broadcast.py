# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Broadcasting: an outer product and a pairwise distance matrix."""
import numpy as np
import accel as cp

a = cp.arange(5, dtype=cp.float64)
b = cp.arange(3, dtype=cp.float64) + 10
outer = a[:, None] * b[None, :]
assert outer.shape == (5, 3)
np.testing.assert_array_equal(cp.asnumpy(outer), np.outer(np.arange(5.0), np.arange(3.0) + 10))
rng = np.random.default_rng(2)
p = rng.random((50, 3))
P = cp.asarray(p)
d = cp.sqrt(((P[:, None, :] - P[None, :, :]) ** 2).sum(axis=-1))
ref = np.sqrt(((p[:, None, :] - p[None, :, :]) ** 2).sum(axis=-1))
np.testing.assert_allclose(cp.asnumpy(d), ref, rtol=1e-12, atol=1e-12)
print("ok")
