#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# The misc3 branch's checks on the GPU machine: `accel info`'s collectives (libaccel_mpi with
# the MPI library's version, NCCL found on each GPU with NCCL's version, each device's
# transport) in both views, the info checks of cli_check.py there, mpi_bench refusing a GPU
# device (it compares with MPI on host memory), and a repro file with bytes appended replayed
# on cuda:0. Run from the repository root after build-gpu is built; under 60 s.
set -u
B=${B:-build-gpu}
if [ -f .gpu/libs.tar.xz ]; then
  mkdir -p /tmp/libs && tar xJf .gpu/libs.tar.xz -C /tmp/libs &&
    export LD_LIBRARY_PATH=/tmp/libs:${LD_LIBRARY_PATH:-}
  rm -f /tmp/libs/libaccel.so* 2>/dev/null
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
echo "== accel info (collectives)"
timeout 20 $B/bin/accel info 2>&1 | sed -n '/^collectives:/,$p'
echo "== accel info --json (collectives)"
timeout 20 $B/bin/accel info --json 2>&1 |
  python3 -c "import json,sys; print(json.dumps(json.load(sys.stdin)['collectives'], indent=1))"
echo "== tests/cli/cli_check.py (cli_options, with the GPU's transport checks), run directly"
# directly with this machine's python3 (build-gpu's ACCEL_PYTHON may name another machine's)
ACCEL_TEST_MPI_BUILT=1 timeout 90 ${PY:-python3} tests/cli/cli_check.py $B/bin/accel . $B/tests/plugins \
  $B/lib/accel/libaccel_cpu.so /tmp/misc3_cli_check 2>&1 |
  grep -E 'collectives|transport|NCCL|FAIL|Error|Traceback|check|passed' | tail -25
echo "== mpi_bench --device cuda:0 (refused: not host memory)"
timeout 20 mpirun -np 1 $B/bin/mpi_bench --device cuda:0 --max-mib 1 --reps 1 --small-reps 10 2>&1 |
  grep -E 'mpi_bench|not host memory' | head -3
echo "== replay with bytes appended, on cuda:0"
f=/tmp/misc3_trailing.npz
cat fuzz/corpus/repro/stored_mul_f32.npz > $f && printf 'appended bytes\n' >> $f
timeout 20 $B/bin/accel replay $f --device cuda:0 > /tmp/misc3_replay.txt 2>&1; echo "exit $?"
tail -4 /tmp/misc3_replay.txt
