#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# H200 figures of user kernels (run from the repository root on the GPU machine, after build-gpu
# is built with CUDA on; B=DIR names another build): the CUDA user-kernel tests (vector and
# element paths, every dtype, against the CPU twin; skipped with --no-tests), kernel_bench with
# the cold-build phases and the elementwise bandwidth against device copy, and CuPy's
# ElementwiseKernel on the same formula, size and in-place layout as kernel_bench's row.
set -u
B=${B:-build-gpu}
PY=${PY:-python3}
if [ "${1:-}" != "--no-tests" ]; then
    echo "== test_kernel_cuda"
    timeout 40 "$B"/bin/test_kernel_cuda --jobs 1 2>&1 | tail -15
fi
echo "== kernel_bench --device cuda:0"
timeout 40 "$B"/bin/kernel_bench --device cuda:0 2>&1
echo "== kernel_bench --device cuda:0 --quick --n 268435459 (odd n: the element tail)"
timeout 40 "$B"/bin/kernel_bench --device cuda:0 --quick --n 268435459 2>&1 | sed -n '/throughput/,$p'
echo "== CuPy ElementwiseKernel z = a*x + b*y, 2^28 f32, z in place on y (median of 5)"
timeout 60 "$PY" - <<'PYEOF' 2>&1
import statistics
try:
    import cupy as cp
except ImportError:
    print("  no CuPy here")
    raise SystemExit(0)
n = 1 << 28
k = cp.ElementwiseKernel("float32 x, float32 y, float32 a, float32 b", "float32 z",
                         "z = a * x + b * y", "kbench_axpby")
x = cp.random.default_rng(1).random(n, dtype=cp.float32)
y = cp.random.default_rng(2).random(n, dtype=cp.float32)
a, b = cp.float32(1.0), cp.float32(0.5)
k(x, y, a, b, y)
s, e = cp.cuda.Event(), cp.cuda.Event()
t = []
for _ in range(5):
    s.record()
    k(x, y, a, b, y)
    e.record()
    e.synchronize()
    t.append(cp.cuda.get_elapsed_time(s, e))
ms = statistics.median(t)
print(f"  cupy {cp.__version__}: {ms:.3f} ms  {12.0 * n / ms / 1e6:.1f} GB/s "
      "(divide kernel_bench's user-kernel GB/s by this for the ratio)")
PYEOF
if [ "${1:-}" != "--no-tests" ]; then
    echo "== elementwise layouts (CuPy RawModule), z = a*x + b*y 2^28 f32 in place"
    timeout 60 "$PY" tools/gpu/kernels2_variants.py 2>&1
fi
