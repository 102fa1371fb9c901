# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Tutorial section 2 (CuPy): add two 5-element vectors on the device and
copy the result back to print it. With CuPy this was `import cupy as cp`."""
import numpy as np

import accel as cp
from _common import check, setup

args, dev = setup(__doc__)
with dev:
    x = cp.array([1, 2, 3, 4, 5])
    y = cp.array([6, 7, 8, 9, 10])
    z = x + y
    print(z)                      # [ 7  9 11 13 15]
    result = cp.asnumpy(z)
check(np.array_equal(result, [7, 9, 11, 13, 15]), "x + y == [7, 9, 11, 13, 15] (exact)")
