/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* tests/mpi/test_mpi_verify.c — verify mode catches a wrong collective result
 * and accepts a right one within the tolerance of a sum across ranks. The
 * wrong result is made through MPI's profiling interface: this program's
 * MPI_Allreduce (which libaccel_mpi's calls reach, the program exporting it)
 * calls PMPI_Allreduce and then, on the last rank and while `corrupt` says
 * so, changes one element of the result. Verify mode's reference (rank 0's
 * CPU over the gathered inputs, MPI_Gather and MPI_Bcast, not touched) must
 * then refuse it on that rank alone with ACCEL_ERROR_MISMATCH naming the
 * element, in queued mode at the finish and in blocking mode at the call.
 * Cases: f32 and f64 sums off by far more than the bound, an f32 max off by
 * one ulp (max is exact), an i32 sum off by one, and at the bound's edge an
 * f32 sum of 1 and 2^-24 (the rounded 1 is 2^-24 from the exact sum, inside
 * the bound gamma_1 * (1 + 2^-24) + 2^-24 * (1 + 2^-24), about 2^-23), which
 * passes one ulp above it (1 + 2^-23) and fails four ulps above it. A plain
 * program run under mpirun (2 and 4 ranks): "N passed, M failed" on rank 0. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/mpi.h"

static int passed, failed, rank, size;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (cond) {                                                                                \
            passed++;                                                                              \
        } else {                                                                                   \
            failed++;                                                                              \
            fprintf(stderr, "rank %d: FAIL %s:%d: ", rank, __FILE__, __LINE__);                    \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, " [%s]\n", accel_last_error());                                        \
        }                                                                                          \
    } while (0)

/* The corruption: element `elem` of the next allreduce results on the last
 * rank gets `by` added (f32, f64; 0: f32's next float up) or 1 added (i32);
 * elem < 0: none. */
static int corrupt_elem = -1;
static double corrupt_by;

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm)
{
    int rc = PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
    if (rc != MPI_SUCCESS || corrupt_elem < 0 || corrupt_elem >= count || rank != size - 1)
        return rc;
    float *fp = (float *)recvbuf + corrupt_elem;
    if (datatype == MPI_FLOAT)
        *fp = corrupt_by == 0 ? nextafterf(*fp, INFINITY) : *fp + (float)corrupt_by;
    else if (datatype == MPI_DOUBLE)
        ((double *)recvbuf)[corrupt_elem] += corrupt_by;
    else if (datatype == MPI_INT32_T)
        ((int32_t *)recvbuf)[corrupt_elem] += 1;
    return rc;
}

static accel_device *dev;
static accel_queue *q;

/* accel_last_error() of run's failure (the release after it clears it). */
static char run_msg[1024];

/* One in-place allreduce of n elements of dt from host data h (this rank's)
 * with element elem of the result changed by `by` on the last rank. */
static accel_status run(accel_comm *comm, accel_dtype dt, accel_op_code op, const void *h, size_t n,
                        int elem, double by)
{
    size_t es = accel_dtype_size(dt);
    accel_buffer *b = NULL;
    accel_status st = accel_buffer_create(dev, n * es, &b);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_write_blocking(q, b, 0, h, n * es);
    corrupt_elem = elem;
    corrupt_by = by;
    if (st == ACCEL_SUCCESS)
        st =
            accel_comm_allreduce(comm, q, dt, op, accel_slice_of(b, 0, n), accel_slice_of(b, 0, n));
    if (st == ACCEL_SUCCESS)
        st = accel_queue_finish(q);
    corrupt_elem = -1;
    snprintf(run_msg, sizeof run_msg, "%s", st == ACCEL_SUCCESS ? "" : accel_last_error());
    accel_buffer_release(b);
    return st;
}

/* The last rank refused with the element named; the others succeeded. */
static void expect_caught(accel_status st, int elem, const char *what)
{
    char needle[64];
    snprintf(needle, sizeof needle, "rank %d: element %d is", size - 1, elem);
    if (rank == size - 1)
        CHECK(st == ACCEL_ERROR_MISMATCH && strstr(run_msg, needle) && strstr(run_msg, "verify"),
              "%s: got %s (%s), expected ACCEL_ERROR_MISMATCH naming \"%s\"", what,
              accel_status_name(st), run_msg, needle);
    else
        CHECK(st == ACCEL_SUCCESS, "%s: got %s (%s) on an untouched rank", what,
              accel_status_name(st), run_msg);
}

static void cases(accel_comm *comm, const char *mode)
{
    enum { N = 1000 };
    float f[N];
    double d[N];
    int32_t k[N];
    srand(99u + (unsigned)rank);
    for (int i = 0; i < N; ++i) {
        f[i] = (float)rand() / (float)RAND_MAX * 2.0f - 1.0f;
        d[i] = (double)rand() / RAND_MAX * 2.0 - 1.0;
        k[i] = rand() % 2001 - 1000;
    }
    char what[96];
    accel_status st = run(comm, ACCEL_F32, ACCEL_OP_SUM, f, N, -1, 0);
    snprintf(what, sizeof what, "%s: f32 sum, right", mode);
    CHECK(st == ACCEL_SUCCESS, "%s: %s", what, accel_status_name(st));
    snprintf(what, sizeof what, "%s: f32 sum + 1e-3", mode);
    expect_caught(run(comm, ACCEL_F32, ACCEL_OP_SUM, f, N, 7, 1e-3), 7, what);
    snprintf(what, sizeof what, "%s: f64 sum + 1e-9", mode);
    expect_caught(run(comm, ACCEL_F64, ACCEL_OP_SUM, d, N, 123, 1e-9), 123, what);
    /* max: one ulp of the result is already wrong */
    snprintf(what, sizeof what, "%s: f32 max + 1 ulp", mode);
    expect_caught(run(comm, ACCEL_F32, ACCEL_OP_REDUCE_MAX, f, N, 0, 0), 0, what);
    snprintf(what, sizeof what, "%s: i32 sum + 1", mode);
    expect_caught(run(comm, ACCEL_I32, ACCEL_OP_SUM, k, N, 999, 0), 999, what);

    /* The bound's edge (2 ranks: rank 0 gives 1, the last 2^-24, others 0). */
    float e[1] = {rank == 0 ? 1.0f : rank == size - 1 ? 0x1p-24f : 0.0f};
    snprintf(what, sizeof what, "%s: f32 1 + 2^-24 rounded", mode);
    st = run(comm, ACCEL_F32, ACCEL_OP_SUM, e, 1, -1, 0);
    CHECK(st == ACCEL_SUCCESS, "%s: %s", what, accel_status_name(st));
    snprintf(what, sizeof what, "%s: f32 1 + 2^-24 one ulp high", mode);
    st = run(comm, ACCEL_F32, ACCEL_OP_SUM, e, 1, 0, 0x1p-23);
    CHECK(st == ACCEL_SUCCESS, "%s: %s", what, accel_status_name(st));
    snprintf(what, sizeof what, "%s: f32 1 + 2^-24 four ulps high", mode);
    expect_caught(run(comm, ACCEL_F32, ACCEL_OP_SUM, e, 1, 0, 0x1p-21), 0, what);
}

int main(int argc, char **argv)
{
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    accel_runtime *rt = NULL;
    if (accel_runtime_open(NULL, &rt) != ACCEL_SUCCESS ||
        accel_device_get_by_name(rt, "cpu", &dev) != ACCEL_SUCCESS ||
        accel_queue_create(dev, &q) != ACCEL_SUCCESS) {
        fprintf(stderr, "rank %d: setup failed: %s\n", rank, accel_last_error());
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int blocking = 0; blocking < 2; ++blocking) {
        accel_comm_options opt;
        accel_comm_options_init(&opt);
        opt.flags = ACCEL_COMM_VERIFY | (blocking ? ACCEL_COMM_BLOCKING : 0);
        accel_comm *comm = NULL;
        accel_status st = accel_comm_create(MPI_COMM_WORLD, dev, &opt, &comm);
        CHECK(st == ACCEL_SUCCESS, "accel_comm_create");
        CHECK(accel_comm_is_blocking(comm) == (blocking || provided < MPI_THREAD_MULTIPLE), "mode");
        if (st == ACCEL_SUCCESS)
            cases(comm, blocking ? "blocking" : "queued");
        accel_comm_release(comm);
    }
    accel_queue_release(q);
    accel_runtime_close(rt);
    int counts[2] = {passed, failed}, total[2] = {0, 0};
    MPI_Reduce(counts, total, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("verify mode, %d ranks: %d passed, %d failed\n", size, total[0], total[1]);
    MPI_Finalize();
    return failed ? 1 : 0;
}
