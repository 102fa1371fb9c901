/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* mpi_bench — allreduce of f32 over the ranks on the CPU device: accel's
 * accel_comm_allreduce (+ accel_queue_finish) against MPI_Allreduce called
 * directly on the same memory in the same run, 1 MiB to 256 MiB. Prints per
 * size the medians and raw/accel in queued and in blocking mode (the target
 * is >= 0.95), then the host overhead of one accel collective over the raw
 * call for a 1-element allreduce: queued mode (a host function on the
 * queue's worker: two thread hand-offs), blocking mode (finish, then MPI on
 * the calling thread), and the time the queued call takes to return
 * (enqueue only). The target is <= 1 us. Timed runs alternate raw and
 * accel; the slowest rank's time counts; rank 0 prints.
 *
 *   usage: mpirun -np 2 mpi_bench [--max-mib 256] [--reps 7] [--small-reps 20000] */
#include "common.h"

#include <accel/mpi.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The slower rank's time counts (a collective ends when all have). */
static double max_over_ranks(double t)
{
    double m = t;
    MPI_Allreduce(&t, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return m;
}

int main(int argc, char **argv)
{
    int provided = 0, rank = 0, size = 1, rc = 1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    size_t max_mib = ex_option_size(argc, argv, "--max-mib", 256);
    int reps = (int)ex_option_size(argc, argv, "--reps", 7);
    int small_reps = (int)ex_option_size(argc, argv, "--small-reps", 20000);
    if (reps < 1 || reps > 1000 || small_reps < 10) {
        fprintf(stderr, "--reps 1..1000, --small-reps >= 10\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    accel_runtime *rt = NULL;
    accel_device *dev = NULL;
    accel_queue *q = NULL;
    accel_comm *comm = NULL, *bcomm = NULL, *ccomm = NULL;
    accel_buffer *s = NULL, *r = NULL;
    double *ta = malloc(sizeof(double) * (size_t)small_reps);
    double *tr = malloc(sizeof(double) * (size_t)small_reps);
    double *tb = malloc(sizeof(double) * (size_t)small_reps);
    double *te = malloc(sizeof(double) * (size_t)small_reps);
    double *tc = malloc(sizeof(double) * (size_t)small_reps);
    if (!ta || !tr || !tb || !te || !tc)
        goto done;

    CHECK(accel_runtime_open(NULL, &rt));
    CHECK(accel_device_get_by_name(rt, "cpu", &dev));
    CHECK(accel_queue_create(dev, &q));
    CHECK(accel_comm_create(MPI_COMM_WORLD, dev, NULL, &comm));
    accel_comm_options bo;
    accel_comm_options_init(&bo);
    bo.flags = ACCEL_COMM_BLOCKING;
    CHECK(accel_comm_create(MPI_COMM_WORLD, dev, &bo, &bcomm));
    bo.flags = ACCEL_COMM_BLOCKING | ACCEL_COMM_CHECK;
    CHECK(accel_comm_create(MPI_COMM_WORLD, dev, &bo, &ccomm));
    size_t max_n = max_mib * 1024 * 1024 / sizeof(float);
    CHECK(accel_buffer_create(dev, max_n * sizeof(float), &s));
    CHECK(accel_buffer_create(dev, max_n * sizeof(float), &r));
    CHECK(accel_fill(q, ACCEL_F32, 1.0 + rank, accel_slice_of(s, 0, max_n)));
    CHECK(accel_fill(q, ACCEL_F32, 0.0, accel_slice_of(r, 0, max_n)));
    CHECK(accel_queue_finish(q));
    float *hs = accel_buffer_host_pointer(s), *hr = accel_buffer_host_pointer(r);
    if (rank == 0)
        printf("allreduce f32 sum, %d ranks, CPU device (queued mode: %s); medians of %d\n", size,
               accel_comm_is_blocking(comm) ? "no, MPI lacks THREAD_MULTIPLE" : "yes", reps);
    if (rank == 0)
        printf("%6s %10s %10s %10s %9s %12s %12s\n", "MiB", "raw ms", "queued ms", "blocking ms",
               "raw GB/s", "raw/queued", "raw/blocking");
    double worst = 1e9, worst_b = 1e9;
    for (size_t mib = 1; mib <= max_mib; mib *= 4) {
        int n = (int)(mib * 1024 * 1024 / sizeof(float));
        /* warm-up of both */
        MPI_Allreduce(hs, hr, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        CHECK(accel_comm_allreduce(comm, q, ACCEL_F32, ACCEL_OP_SUM, accel_slice_of(s, 0, n),
                                   accel_slice_of(r, 0, n)));
        CHECK(accel_queue_finish(q));
        for (int i = 0; i < reps; ++i) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = now_s();
            MPI_Allreduce(hs, hr, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
            tr[i] = max_over_ranks(now_s() - t0);
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = now_s();
            CHECK(accel_comm_allreduce(comm, q, ACCEL_F32, ACCEL_OP_SUM, accel_slice_of(s, 0, n),
                                       accel_slice_of(r, 0, n)));
            CHECK(accel_queue_finish(q));
            ta[i] = max_over_ranks(now_s() - t0);
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = now_s();
            CHECK(accel_comm_allreduce(bcomm, q, ACCEL_F32, ACCEL_OP_SUM, accel_slice_of(s, 0, n),
                                       accel_slice_of(r, 0, n)));
            tb[i] = max_over_ranks(now_s() - t0);
        }
        /* The result, once: sum over ranks of (1 + rank). */
        float want = (float)(size * (size + 1) / 2);
        if (hr[0] != want || hr[n - 1] != want) {
            fprintf(stderr, "rank %d: wrong allreduce result %g, expected %g\n", rank, hr[0], want);
            goto done;
        }
        double mr = median(tr, reps), ma = median(ta, reps), mb = median(tb, reps);
        if (mr / ma < worst)
            worst = mr / ma;
        if (mr / mb < worst_b)
            worst_b = mr / mb;
        if (rank == 0)
            printf("%6zu %10.3f %10.3f %10.3f %9.2f %12.3f %12.3f\n", mib, mr * 1e3, ma * 1e3,
                   mb * 1e3, (double)n * sizeof(float) / mr * 1e-9, mr / ma, mr / mb);
    }
    /* Host overhead on a 1-element allreduce (the library call itself is a
     * few microseconds on loopback): each pair timed back to back. */
    for (int i = 0; i < small_reps; ++i) {
        double t0 = now_s();
        MPI_Allreduce(hs, hr, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        double t1 = now_s();
        CHECK(accel_comm_allreduce(comm, q, ACCEL_F32, ACCEL_OP_SUM, accel_slice_of(s, 0, 1),
                                   accel_slice_of(r, 0, 1)));
        double t2 = now_s();
        CHECK(accel_queue_finish(q));
        double t3 = now_s();
        CHECK(accel_comm_allreduce(bcomm, q, ACCEL_F32, ACCEL_OP_SUM, accel_slice_of(s, 0, 1),
                                   accel_slice_of(r, 0, 1)));
        double t4 = now_s();
        CHECK(accel_comm_allreduce(ccomm, q, ACCEL_F32, ACCEL_OP_SUM, accel_slice_of(s, 0, 1),
                                   accel_slice_of(r, 0, 1)));
        tc[i] = now_s() - t4;
        tr[i] = t1 - t0;
        te[i] = t2 - t1;
        ta[i] = t3 - t1;
        tb[i] = t4 - t3;
    }
    double raw = median(tr, small_reps), enq = median(te, small_reps);
    double queued = median(ta, small_reps), blocking = median(tb, small_reps);
    double checked = median(tc, small_reps), checkedm = max_over_ranks(checked);
    double rawm = max_over_ranks(raw), enqm = max_over_ranks(enq);
    double queuedm = max_over_ranks(queued), blockingm = max_over_ranks(blocking);
    if (rank == 0) {
        printf("1-element allreduce, medians of %d (slowest rank):\n", small_reps);
        printf("  raw MPI_Allreduce            %8.2f us\n", rawm * 1e6);
        printf("  accel queued: call returns   %8.2f us (enqueue only)\n", enqm * 1e6);
        printf("  accel queued: call + finish  %8.2f us, overhead %+.2f us\n", queuedm * 1e6,
               (queuedm - rawm) * 1e6);
        printf("  accel blocking mode          %8.2f us, overhead %+.2f us\n", blockingm * 1e6,
               (blockingm - rawm) * 1e6);
        printf("  accel blocking + check mode  %8.2f us, overhead %+.2f us (the counts' "
               "agreement)\n",
               checkedm * 1e6, (checkedm - rawm) * 1e6);
        printf("worst raw/accel ratio 1..%zu MiB: queued %.3f, blocking %.3f (target >= 0.95)\n",
               max_mib, worst, worst_b);
    }
    rc = 0;

done:
    accel_buffer_release(s);
    accel_buffer_release(r);
    accel_comm_release(ccomm);
    accel_comm_release(bcomm);
    accel_comm_release(comm);
    accel_queue_release(q);
    accel_runtime_close(rt);
    free(ta);
    free(tr);
    free(tb);
    free(te);
    free(tc);
    if (rc != 0 && size > 1)
        MPI_Abort(MPI_COMM_WORLD, rc);
    MPI_Finalize();
    return rc;
}
