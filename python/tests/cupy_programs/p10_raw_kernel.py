# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""CuPy's RawKernel example: my_add on a 5x5 grid of 5x5 blocks."""
import numpy as np
import accel as cp

add_kernel = cp.RawKernel(r'''
extern "C" __global__
void my_add(const float* x1, const float* x2, float* y) {
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    y[tid] = x1[tid] + x2[tid];
}
''', 'my_add')
x1 = cp.arange(25, dtype=cp.float32).reshape(5, 5)
x2 = cp.arange(25, dtype=cp.float32).reshape(5, 5)
y = cp.zeros((5, 5), dtype=cp.float32)
add_kernel((5,), (5,), (x1, x2, y))
np.testing.assert_array_equal(cp.asnumpy(y), 2 * np.arange(25, dtype=np.float32).reshape(5, 5))
print("ok")
