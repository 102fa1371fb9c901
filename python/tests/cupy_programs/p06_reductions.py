# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Reductions along axes, argmax, and Python scalars from 0-d results."""
import numpy as np
import accel as cp

rng = np.random.default_rng(4)
h = rng.random((64, 33))
x = cp.asarray(h)
np.testing.assert_allclose(cp.asnumpy(x.sum(axis=1)), h.sum(axis=1), rtol=1e-12)
np.testing.assert_allclose(cp.asnumpy(cp.sum(x, axis=0)), h.sum(axis=0), rtol=1e-12)
assert abs(float(x.sum()) - h.sum()) < 1e-9
assert int(cp.argmax(x)) == int(np.argmax(h))
np.testing.assert_array_equal(cp.asnumpy(x.argmax(axis=1)), h.argmax(axis=1))
np.testing.assert_array_equal(cp.asnumpy(x.max(axis=0)), h.max(axis=0))
print("ok")
