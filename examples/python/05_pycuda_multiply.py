# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""Tutorial section 5 (PyCUDA): CUDA C source compiled from Python, the
element-wise product of two 400-element random vectors with the tutorial's
`multiply_them` kernel, one block of 400 threads. accel.RawModule plays
PyCUDA's SourceModule: the source is compiled at run time for the device
(NVRTC on a GPU, its CPU twin on the CPU). Checked against NumPy and
against the same source on the CPU device."""
import numpy as np

import accel as cp
from _common import check, setup

mod = cp.RawModule(code="""
__global__ void multiply_them(float *dest, float *a, float *b)
{
  const int i = threadIdx.x;
  dest[i] = a[i] * b[i];
}
""")
multiply_them = mod.get_function("multiply_them")

args, dev = setup(__doc__, n=(400, 400))
if not 1 <= args.n <= 1024:
    raise SystemExit("--n: one block of n threads, so 1 to 1024")
rng = np.random.default_rng(5)
a = rng.standard_normal(args.n).astype(np.float32)
b = rng.standard_normal(args.n).astype(np.float32)


def run(device):
    with cp.Device(device):
        dest = cp.zeros_like(cp.asarray(a))
        # multiply_them(drv.Out(dest), drv.In(a), drv.In(b), block=(400,1,1), grid=(1,1))
        multiply_them((1, 1), (args.n, 1, 1), (dest, cp.asarray(a), cp.asarray(b)))
        return dest.get()


dest = run(dev)
print(dest - a * b)                 # the tutorial prints the difference: all zeros
check(np.array_equal(dest, a * b), f"multiply_them on {dev.name} equals NumPy bit for bit")
check(np.array_equal(dest, run("cpu")), f"multiply_them on {dev.name} == on cpu")
