#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# One run on the GPU machine (lent device, see ../shared/gpu/README.md): every GPU check and
# measurement a release needs (bench/RESULTS.md names the command behind each of its rows). Build here with -DCMAKE_CUDA_ARCHITECTURES=90 into build-gpu, pack the
# libraries into .gpu (pack-libs.sh), then run this there carrying build-gpu and .gpu; logs go to $OUT.
# The whole run takes longer than one call may: give --arrays for the array layer's part alone.
# pack-libs.sh packs what the binaries link; the plugins dlopen OpenBLAS and CLBlast, so add those
# and their dependencies to the tarball by hand (not libstdc++ or libOpenCL: the GPU machine's are
# newer), and delete build-gpu's .o files so that what is carried stays under 64 MiB.
set -u
B=build-gpu
mkdir -p /tmp/libs && tar xJf .gpu/libs.tar.xz -C /tmp/libs && export LD_LIBRARY_PATH=/tmp/libs:${LD_LIBRARY_PATH:-}
rm -f /tmp/libs/libaccel.so* 2>/dev/null
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
PY=python3
date -u > $OUT/date.txt; nvidia-smi -L >> $OUT/date.txt 2>&1
# --arrays: the array layer's checks and rows alone, within one 600 s call: verify --quick, the array
# and CUDA ctests, the Python array suites, python/bench/arrays.py beside CuPy and PyTorch.
if [ "${1:-}" = "--arrays" ]; then
  timeout 120 $B/bin/accel verify --device cuda:0 --quick --seed 5 > $OUT/verify.txt 2>&1; echo "verify exit $?"; tail -3 $OUT/verify.txt
  timeout 170 ctest --test-dir $B -j6 --timeout 160 -R 'array_|^cuda$|verify|fallback_cuda' > $OUT/ctest.log 2>&1
  grep -E "tests passed|Failed|\*\*\*|Not Run" $OUT/ctest.log | head -20
  export PYTHONPATH=$PWD/python ACCEL_LIBRARY=$PWD/$B/lib/libaccel.so
  timeout 90 $PY -m pytest -q -p no:cacheprovider python/tests/test_arrays.py python/tests/test_search_unique.py \
    python/tests/test_sets.py > $OUT/pytest_arrays.txt 2>&1; tail -3 $OUT/pytest_arrays.txt
  timeout 200 $PY python/bench/arrays.py --device cuda:0 --no-first-use --rounds 3 > $OUT/py_arrays.txt 2>&1
  cat $OUT/py_arrays.txt
  exit 0
fi
$B/bin/accel info > $OUT/info.txt 2>&1
# accel info --json's collectives: each GPU's transport (nccl with NCCL's version, or mpi-staged and why).
$B/bin/accel info --json > $OUT/info.json 2>&1; $PY -c "import json,sys; print(json.dumps(json.load(open(sys.argv[1]))['collectives'], indent=1))" $OUT/info.json
sed -i "s|^ACCEL_PYTHON:.*|ACCEL_PYTHON:FILEPATH=$(command -v python3)|" $B/CMakeCache.txt 2>/dev/null
timeout 240 ctest --test-dir $B -E 'install|template_standalone|fuzz|umask|debian|python|cli_man' --output-on-failure -j4 > $OUT/ctest.log 2>&1
tail -30 $OUT/ctest.log
timeout 90 $B/bin/accel verify --device cuda --quick > $OUT/verify.txt 2>&1; tail -3 $OUT/verify.txt
# accel run eval on CUDA: a 10000-character expression against NumPy (max relative error, expect < 1e-12), and NVRTC's positions of "a +" and "a +\nqq" (expect expr(1) and expr(2)).
{ $PY -c "import numpy as np; np.save('/tmp/ev_a.npy', np.linspace(-3, 5, 37))"; E=$($PY -c "print('+'.join('a*%d' % (1 + i % 9) for i in range(2500)))")
  timeout 60 $B/bin/accel run eval "$E" a=/tmp/ev_a.npy -o /tmp/ev_o.npy --device cuda:0 2>&1 | tail -1
  $PY -c "import numpy as np; x = np.load('/tmp/ev_a.npy'); r = sum(x * (1 + i % 9) for i in range(2500)); print('eval 10000 chars on cuda: max rel err', np.max(np.abs(np.load('/tmp/ev_o.npy') - r) / np.abs(r)))"
  for e in "a +" $'a +\nqq'; do timeout 60 $B/bin/accel run eval "$e" a=/tmp/ev_a.npy -o /tmp/ev_o.npy --device cuda:0 2>&1 | grep -E 'expr[(:][0-9]'; done
  # An unknown function and an unknown variable under NVRTC: expect exit 2 and "EXPR names 'foo'" / "'qq'".
  for e in "foo(a) + 1" "a * qq"; do timeout 60 $B/bin/accel run eval "$e" a=/tmp/ev_a.npy -o /tmp/ev_o.npy --device cuda:0 2>&1 | grep -E 'EXPR names'; echo "exit ${PIPESTATUS[0]}"; done; } > $OUT/eval_cuda.txt 2>&1; cat $OUT/eval_cuda.txt
# Repro files (.npz) replayed on the GPU: the planted CPU-side fault is not reproduced (exit 0), the bf16 transpose with guards is, bit for bit (exit 0).
for f in fuzz/corpus/repro/stored_mul_f32.npz fuzz/corpus/repro/bf16_transpose_guards.npz; do timeout 30 $B/bin/accel replay $f --device cuda:0; echo "exit $?"; done > $OUT/replay_cuda.txt 2>&1; cat $OUT/replay_cuda.txt
# Kernel shapes of relu/exp and the random fills against copy and the write-only ceilings (7 interleaved rounds).
timeout 40 $B/bin/ew_probe --log2n 28 --rounds 7 --check 0 > $OUT/ew_probe.txt 2>&1; tail -50 $OUT/ew_probe.txt
# f32 normal: the probe's forms of the formula (9 interleaved rounds), the exhaustive accuracy of r and cos/sin on this GPU and whole outputs against the formula; the backend against the formula and the CPU (test_rng, test_cuda).
timeout 40 $B/bin/ew_probe --log2n 28 --rounds 9 --only "normal|uniform: new loop, __umulhi (backend)" > $OUT/ew_probe_normal.txt 2>&1; tail -100 $OUT/ew_probe_normal.txt
{ timeout 20 $B/bin/test_rng --verbose 2>&1 | grep -E "KS D|worst|Synthesis"; timeout 30 $B/bin/test_cuda --verbose --filter 'cuda/random*' 2>&1 | grep -E "normal: largest|Synthesis"; } > $OUT/random_checks.txt 2>&1; cat $OUT/random_checks.txt
timeout 180 $B/bin/accel bench --device cuda:0 --no-progress --json $OUT/bench.json --svg $OUT/bench.svg > $OUT/bench.txt 2>&1; tail -40 $OUT/bench.txt
# The bench's random rows, and the library's own fills timed the bench's way (one call per event pair) and batched (4 back to back): a gap between them is host time inside the bench's row.
grep -E "^\s+copy |random" $OUT/bench.txt; timeout 20 $B/bin/ew_probe --accel 1 --log2n 28 --rounds 9 > $OUT/normal_lib.txt 2>&1; cat $OUT/normal_lib.txt
# The 100 adds' graph state: a raw CUDA graph fresh, after kernels on its own stream, after kernels on a second stream, later, re-captured (graph_streams, plain CUDA); the bench's first and after-the-sweep lines beside it.
{ timeout 30 $B/bin/graph_streams; timeout 30 $B/bin/graph_streams --n-second 4; grep -E 'graph replay|graph100' $OUT/bench.txt; } > $OUT/graph_streams.txt 2>&1; cat $OUT/graph_streams.txt
timeout 150 $PY bench/peers.py --accel $B/bin/accel --accel-json $OUT/bench.json --json $OUT/peers.json > $OUT/peers.txt 2>&1; cat $OUT/peers.txt | tail -60
# User kernels: kernel_bench (cold-build phases, cache hit, launch against accel_axpby, z = a*x + b*y
# against device copy; then an odd n for the element tail), and CuPy's ElementwiseKernel on the same
# formula, size and in-place layout as kernel_bench's row (divide kernel_bench's GB/s by it).
{ echo "== kernel_bench --device cuda:0"; timeout 40 $B/bin/kernel_bench --device cuda:0
  echo "== kernel_bench --device cuda:0 --quick --n 268435459 (odd n: the element tail)"
  timeout 40 $B/bin/kernel_bench --device cuda:0 --quick --n 268435459 | sed -n '/throughput/,$p'
  echo "== CuPy ElementwiseKernel z = a*x + b*y, 2^28 f32, z in place on y (median of 5)"
  timeout 60 $PY - <<'PYEOF'
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
print(f"  cupy {cp.__version__}: {ms:.3f} ms  {12.0 * n / ms / 1e6:.1f} GB/s")
PYEOF
} > $OUT/kernel_bench.txt 2>&1; cat $OUT/kernel_bench.txt
# Where a user-kernel launch's host time goes: launch_diag in 3 processes (raw cuLaunchKernel of the NVRTC cubin with kernelParams and packed, the built-in kernel's launch, accel_axpby, accel_kernel_launch; median of 9 interleaved rounds each, per-round differences).
for r in 1 2 3; do timeout 12 $B/bin/launch_diag --device cuda:0 --device-rows 0; done > $OUT/launch_diag.txt 2>&1; grep -E '^launch_diag|^batches|e - d|a - c|b - a|e - a|d - c' $OUT/launch_diag.txt
timeout 90 $B/bin/graph_bench --device cuda:0 --n 1024 --ops 100 --reps 500 --chain-n 268435456 --chain-reps 10 > $OUT/graph_bench.txt 2>&1
timeout 60 $B/bin/graph_bench --device cuda:0 --n 1024 --ops 100 --reps 500 --core >> $OUT/graph_bench.txt 2>&1; cat $OUT/graph_bench.txt
timeout 60 $B/bin/graph_raw_cuda --n 1024 --ops 100 --reps 500 --accel cuda:0 --chain-n 268435456 >> $OUT/graph_bench.txt 2>&1; tail -20 $OUT/graph_bench.txt
# The fused 8-op chain against the raw kernel of the same layout, under ncu (same locked clocks): instructions, occupancy, DRAM.
M=gpu__time_duration.sum,launch__registers_per_thread,launch__grid_size,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__cycles_elapsed.avg.per_second
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
{ timeout 60 $NCU --metrics $M -k regex:accel_ew_fused --launch-count 2 $B/bin/graph_bench --device cuda:0 --n 1024 --ops 2 --reps 2 --chain-n 268435456 --chain-reps 1
  timeout 60 $NCU --metrics $M -k regex:chain_kernel --launch-count 3 $B/bin/graph_raw_cuda --reps 2 --chain-n 268435456; } 2>&1 | grep -v '^==PROF==' | grep -E 'accel_ew|chain_kernel|duration|registers|grid_size|inst_executed|warps_active|dram__|cycles_elapsed' > $OUT/fused_ncu.txt; cat $OUT/fused_ncu.txt
timeout 60 $B/bin/graph_solver --device cuda:0 > $OUT/graph_solver.txt 2>&1; tail -6 $OUT/graph_solver.txt
# The batched 100M-float sum under a 64 MiB cap, twice (a first call, then 7 warm calls each: the whole call's ratio to pinned is the target).
for r in 1 2; do timeout 60 $B/bin/batched --device cuda:0 --n 100000000 --mem-cap 64M --repeat 7; done > $OUT/batched.txt 2>&1; cat $OUT/batched.txt
timeout 60 $B/bin/overlap --device cuda:0 --queues 2 > $OUT/overlap.txt 2>&1; timeout 60 $B/bin/overlap --device cuda:0 >> $OUT/overlap.txt 2>&1
timeout 60 $B/bin/overlap --device cuda:0 --n 134217728 --chunks 16 --queues 2 >> $OUT/overlap.txt 2>&1; grep -i "^n =\|overlap\|ratio\|max\|check" $OUT/overlap.txt | tail -16
timeout 60 mpirun -np 1 $B/bin/mpi_dot --device cuda:0 > $OUT/mpi.txt 2>&1; tail -5 $OUT/mpi.txt
OMPI_MCA_btl_vader_single_copy_mechanism=none timeout 40 mpirun -np 2 --bind-to core $B/bin/mpi_bench --max-mib 256 --reps 9 > $OUT/mpi_bench.txt 2>&1; tail -14 $OUT/mpi_bench.txt
export PYTHONPATH=$PWD/python ACCEL_LIBRARY=$PWD/$B/lib/libaccel.so
timeout 120 $PY -m pytest -q -x python/tests/test_gpu_interop.py > $OUT/pytest_gpu.txt 2>&1; tail -5 $OUT/pytest_gpu.txt
timeout 120 $PY -m pytest -q python/tests/test_kernels.py > $OUT/pytest_kernels.txt 2>&1; tail -5 $OUT/pytest_kernels.txt
for e in examples/python/[0-9]*.py; do (cd examples/python && timeout 30 $PY $(basename $e) --device cuda:0 2>&1 | grep -E '^check|Error|error' | sed "s|^|$(basename $e): |"); done > $OUT/py_examples.txt; cat $OUT/py_examples.txt
timeout 60 $PY python/bench/overhead.py --device cuda:0 > $OUT/py_overhead.txt 2>&1; ACCEL_PYTHON_FAST=0 timeout 30 $PY python/bench/overhead.py --device cuda:0 --no-transfers >> $OUT/py_overhead.txt 2>&1; timeout 30 $PY python/bench/overhead.py --device cpu --no-transfers >> $OUT/py_overhead.txt 2>&1; cat $OUT/py_overhead.txt
timeout 180 $PY python/bench/arrays.py --device cuda:0 > $OUT/py_arrays.txt 2>&1; cat $OUT/py_arrays.txt
timeout 40 $B/bin/accel demo --size large > $OUT/demo.txt 2>&1; tail -14 $OUT/demo.txt
