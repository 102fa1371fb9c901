# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""cp.fuse: a Python function of ufuncs compiled into one kernel."""
import numpy as np
import accel as cp


@cp.fuse()
def squared_diff(x, y):
    return (x - y) * (x - y)


x = cp.arange(10, dtype=cp.float32)
y = x[::-1]
np.testing.assert_array_equal(cp.asnumpy(squared_diff(x, y)),
                              (np.arange(10, dtype=np.float32) - np.arange(10, dtype=np.float32)[::-1]) ** 2)
print("ok")
