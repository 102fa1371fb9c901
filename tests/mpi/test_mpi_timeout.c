/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* tests/mpi/test_mpi_timeout.c — a rank that never joins a collective.
 * Rank 1 skips the allreduce and waits (or, with --exit, exits at once
 * without MPI_Finalize); rank 0's allreduce would block forever, so the
 * watchdog must report it (rank, call, seconds) and end the job with
 * MPI_Abort after ACCEL_MPI_TIMEOUT=2 seconds, or mpirun ends the job on the
 * early exit. --blocking runs rank 0's call in blocking mode (on the
 * calling thread). ctest passes when either message appears (the job's exit
 * status is then non-zero). Reaching the end of main is the failure. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "accel/mpi.h"

int main(int argc, char **argv)
{
    int provided = 0, rank = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    setenv("ACCEL_MPI_TIMEOUT", "2", 1);
    accel_runtime *rt = NULL;
    accel_device *dev = NULL;
    accel_queue *q = NULL;
    accel_comm *comm = NULL;
    accel_buffer *b = NULL;
    bool blocking = false, exit_early = false;
    for (int i = 1; i < argc; ++i) {
        blocking = blocking || strcmp(argv[i], "--blocking") == 0;
        exit_early = exit_early || strcmp(argv[i], "--exit") == 0;
    }
    accel_comm_options opt;
    accel_comm_options_init(&opt);
    opt.flags = blocking ? ACCEL_COMM_BLOCKING : 0;
    if (accel_runtime_open(NULL, &rt) != ACCEL_SUCCESS ||
        accel_device_get_by_name(rt, "cpu", &dev) != ACCEL_SUCCESS ||
        accel_queue_create(dev, &q) != ACCEL_SUCCESS ||
        accel_buffer_create(dev, 1024 * sizeof(float), &b) != ACCEL_SUCCESS ||
        accel_comm_create(MPI_COMM_WORLD, dev, &opt, &comm) != ACCEL_SUCCESS) {
        fprintf(stderr, "rank %d: setup failed: %s\n", rank, accel_last_error());
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    accel_fill(q, ACCEL_F32, 1.0, accel_slice_of(b, 0, 1024));
    if (rank == 0) {
        accel_comm_allreduce(comm, q, ACCEL_F32, ACCEL_OP_SUM, accel_slice_of(b, 0, 1024),
                             accel_slice_of(b, 0, 1024));
        accel_queue_finish(q);
    } else if (exit_early) {
        _exit(3); /* gone without MPI_Finalize */
    } else {
        sleep(30); /* alive but absent: the watchdog of rank 0 must end this */
    }
    fprintf(stderr, "rank %d: FAIL: the job was not ended by the watchdog\n", rank);
    accel_comm_release(comm);
    accel_buffer_release(b);
    accel_queue_release(q);
    accel_runtime_close(rt);
    MPI_Finalize();
    return 1;
}
