# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Standardise the columns of a matrix: x - x.mean(axis=0), divided by std(axis=0)."""
import numpy as np
import accel as cp

rng = np.random.default_rng(1)
h = rng.standard_normal((500, 8)) * 3 + 5
x = cp.asarray(h)
z = (x - x.mean(axis=0)) / x.std(axis=0)
ref = (h - h.mean(axis=0)) / h.std(axis=0)
np.testing.assert_allclose(cp.asnumpy(z), ref, rtol=1e-10, atol=1e-12)
np.testing.assert_allclose(cp.asnumpy(z.mean(axis=0)), np.zeros(8), atol=1e-12)
print("ok")
