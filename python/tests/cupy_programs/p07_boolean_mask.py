# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Boolean masks: count, select and assign through a mask."""
import numpy as np
import accel as cp

rng = np.random.default_rng(5)
h = rng.random(1000)
x = cp.asarray(h)
mask = x > 0.5
assert int(mask.sum()) == int((h > 0.5).sum())
np.testing.assert_array_equal(cp.asnumpy(x[mask]), h[h > 0.5])
x[x < 0.25] = 0
h[h < 0.25] = 0
np.testing.assert_array_equal(cp.asnumpy(x), h)
print("ok")
