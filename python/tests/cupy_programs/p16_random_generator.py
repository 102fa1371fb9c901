# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""cp.random: seeded draws are reproducible; default_rng's Generator gives the right moments."""
import numpy as np
import accel as cp

cp.random.seed(42)
a = cp.random.randn(100000)
cp.random.seed(42)
b = cp.random.randn(100000)
np.testing.assert_array_equal(cp.asnumpy(a), cp.asnumpy(b))
assert abs(float(a.mean())) < 0.02 and abs(float(a.std()) - 1) < 0.02
rng = cp.random.default_rng(7)
u = rng.random(100000)
assert 0 <= float(u.min()) and float(u.max()) < 1 and abs(float(u.mean()) - 0.5) < 0.01
r = cp.random.randint(0, 10, size=1000)
assert int(r.min()) >= 0 and int(r.max()) <= 9
print("ok")
