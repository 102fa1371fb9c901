# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""cp.where, cp.clip, cp.linalg.norm and cp.allclose, as CuPy's docs use them."""
import numpy as np
import accel as cp

rng = np.random.default_rng(6)
h = rng.standard_normal(1000)
x = cp.asarray(h)
np.testing.assert_array_equal(cp.asnumpy(cp.where(x > 0, x, 0)), np.where(h > 0, h, 0))
np.testing.assert_array_equal(cp.asnumpy(cp.clip(x, -0.5, 0.5)), np.clip(h, -0.5, 0.5))
assert abs(float(cp.linalg.norm(x)) - np.linalg.norm(h)) < 1e-10
assert bool(cp.allclose(x, cp.asarray(h)))
print("ok")
