# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Streams and events: work on a non-default stream, timed with events."""
import numpy as np
import accel as cp

x = cp.arange(1 << 16, dtype=cp.float32)
stream = cp.cuda.Stream(non_blocking=True)
start, end = cp.cuda.Event(), cp.cuda.Event()
with stream:
    start.record()
    y = x * 2 + 1
    end.record()
end.synchronize()
stream.synchronize()
ms = cp.cuda.get_elapsed_time(start, end)
assert ms >= 0, ms
np.testing.assert_array_equal(cp.asnumpy(y), np.arange(1 << 16, dtype=np.float32) * 2 + 1)
print("ok")
