#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
# The mpi2 branch's mid-way figures on the GPU machine (16 cores, no other load): the CPU
# allreduce benchmark of libaccel_mpi across 2 ranks, queued and blocking mode against raw
# MPI_Allreduce, with the ranks bound one per core (Open MPI's default for 2 ranks), unbound on
# all cores, and unbound on 2 cores (as on the 2-core development machine, each rank's queue
# worker included), then the 1-rank NCCL check. Run from the repository root after build-gpu is built.
set -u
B=build-gpu
if [ -f .gpu/libs.tar.xz ]; then
  mkdir -p /tmp/libs && tar xJf .gpu/libs.tar.xz -C /tmp/libs &&
    export LD_LIBRARY_PATH=/tmp/libs:${LD_LIBRARY_PATH:-}
  rm -f /tmp/libs/libaccel.so* 2>/dev/null
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 NCCL_NVLS_ENABLE=0
export OMPI_MCA_btl_vader_single_copy_mechanism=none
echo "cores online: $(nproc)"; mpirun --version | head -1
echo "== 2 ranks, one per core (--bind-to core)"
timeout 25 mpirun -np 2 --bind-to core --report-bindings $B/bin/mpi_bench --max-mib 256 --reps 9 \
  --small-reps 20000 2>&1
echo "== 2 ranks unbound (--bind-to none: each rank's queue worker may run on another core)"
timeout 15 mpirun -np 2 --bind-to none $B/bin/mpi_bench --max-mib 64 --reps 9 \
  --small-reps 20000 2>&1 | tail -12
echo "== 2 ranks unbound on cores 0-1 (--cpu-set 0,1 --bind-to none)"
timeout 15 mpirun -np 2 --cpu-set 0,1 --bind-to none $B/bin/mpi_bench --max-mib 64 --reps 9 \
  --small-reps 20000 2>&1
echo "== 1 rank, NCCL on cuda:0"
timeout 15 mpirun -np 1 $B/bin/test_mpi_collectives --device cuda --transport nccl 2>&1 | tail -3
