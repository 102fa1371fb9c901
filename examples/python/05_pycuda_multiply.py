# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Tutorial section 5 (PyCUDA): the element-wise product of two
400-element random vectors (the tutorial's `multiply_them`), here accel's
multiply on the device, checked against NumPy and the CPU device."""
import numpy as np

import accel as cp
from _common import check, setup

args, dev = setup(__doc__, n=(400, 400))
rng = np.random.default_rng(5)
a = rng.standard_normal(args.n).astype(np.float32)
b = rng.standard_normal(args.n).astype(np.float32)
with dev:
    dest = cp.multiply(cp.asarray(a), cp.asarray(b)).get()
print(dest - a * b)                 # the tutorial prints the difference: all zeros
check(np.array_equal(dest, a * b), "a*b equals NumPy bit for bit")
