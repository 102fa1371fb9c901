# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""dtypes and promotion as NumPy does them: astype, int + float, integer division."""
import numpy as np
import accel as cp

i = cp.arange(10, dtype=cp.int32)
f = cp.arange(10, dtype=cp.float32) / 4
s = i + f
assert s.dtype == cp.float64 or s.dtype == np.float64, s.dtype
np.testing.assert_allclose(cp.asnumpy(s), np.arange(10, dtype=np.int32) + np.arange(10, dtype=np.float32) / 4)
q = i // 3
assert q.dtype == cp.int32 or q.dtype == np.int32, q.dtype
np.testing.assert_array_equal(cp.asnumpy(q), np.arange(10, dtype=np.int32) // 3)
h = f.astype(cp.int64)
np.testing.assert_array_equal(cp.asnumpy(h), (np.arange(10, dtype=np.float32) / 4).astype(np.int64))
print("ok")
