/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* mpi_bench — allreduce of f32 over the ranks on the CPU device: accel's
 * accel_comm_allreduce (+ accel_queue_finish) against MPI_Allreduce called
 * directly on the same memory in the same run, 1 MiB to 256 MiB, in queued
 * mode (MPI runs in a host function on the queue's worker thread) and in
 * blocking mode (finish, then MPI on the calling thread).
 *
 * Method: per size, --reps repetitions; each repetition times raw, queued
 * and blocking once each (in an order that rotates per repetition, so that
 * none always runs first after the barrier), each as the slowest rank's time
 * (a collective ends when all ranks have). The ratio raw/accel is taken per
 * repetition (paired, so that a load change on a shared machine moves both),
 * and the median ratio is printed with its interquartile range [p25, p75]
 * and the extremes; the target is a median >= 0.95.
 *
 * Host overhead: a 1-element allreduce (the library call itself is about a
 * microsecond on loopback), --small-reps iterations of raw, queued (call,
 * then call + finish), blocking and blocking with check mode back to back;
 * per rank the medians, then the slowest rank's. The target is <= 1 us over
 * raw. Rank 0 prints; it also prints the cores online and the ranks, since
 * with more threads than cores (each rank has its queue's worker) the
 * figures depend on how the ranks are bound (mpirun --bind-to) and on what
 * else runs. On the CPU a finish that finds the collective at the head of an
 * idle queue runs it itself, a worker woken for it yields once first, and a
 * waiting finish yields before it sleeps (backends/cpu/queue.c), so that
 * threads sharing a core do not spin against each other.
 *
 *   usage: mpirun -np 2 mpi_bench [--device cpu] [--max-mib 256] [--reps 15]
 *                                 [--small-reps 20000] */
#include "common.h"

#include <accel/mpi.h>
#include <unistd.h>

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

/* The q-quantile of v[0..n) (sorts v; linear between order statistics). */
static double quantile(double *v, int n, double q)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    double pos = q * (n - 1);
    int lo = (int)pos;
    if (lo >= n - 1)
        return v[n - 1];
    return v[lo] + (pos - lo) * (v[lo + 1] - v[lo]);
}

static double median(double *v, int n)
{
    return quantile(v, n, 0.5);
}

/* The slower rank's time counts (a collective ends when all have). */
static double max_over_ranks(double t)
{
    double m = t;
    MPI_Allreduce(&t, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return m;
}

/* "median [p25, p75] (min..max)" of v[0..n) into out. */
static void spread(double *v, int n, double scale, char *out, size_t cap)
{
    double lo = quantile(v, n, 0.0), hi = quantile(v, n, 1.0);
    double q1 = quantile(v, n, 0.25), q3 = quantile(v, n, 0.75), m = quantile(v, n, 0.5);
    snprintf(out, cap, "%6.3f [%5.3f, %5.3f] (%5.3f..%5.3f)", m * scale, q1 * scale, q3 * scale,
             lo * scale, hi * scale);
}

enum { RAW, QUEUED, BLOCKING, KINDS };

int main(int argc, char **argv)
{
    int provided = 0, rank = 0, size = 1, rc = 1;
    /* Before MPI_Init: --help and a usage error exit at once, in every rank. */
    ex_opt opts[] = {
        {"max-mib", "N", "largest message in MiB, 1..16384 (default 256)", NULL, "4"},
        {"reps", "N", "repetitions per size, 1..1000 (default 15)", NULL, "3"},
        {"small-reps", "N", "1-element iterations, 10..10^7 (default 20000)", NULL, NULL},
        {NULL, NULL, NULL, NULL, NULL}};
    ex_parse(
        argc, argv,
        "[--device cpu] [--quick] [--max-mib N] [--reps N] [--small-reps N]  (under mpirun; the "
        "device is cpu unless --device names another device of host memory)",
        opts, 0);
    size_t max_mib = ex_opt_size(opts, "max-mib", 256);
    size_t reps_n = ex_opt_size(opts, "reps", 15), small_n = ex_opt_size(opts, "small-reps", 20000);
    const char *bad = max_mib < 1 || max_mib > 16384       ? "--max-mib: 1..16384"
                      : reps_n < 1 || reps_n > 1000        ? "--reps: 1..1000"
                      : small_n < 10 || small_n > 10000000 ? "--small-reps: 10..10000000"
                                                           : NULL;
    if (bad) {
        fprintf(stderr, "mpi_bench: %s; run 'mpi_bench --help'\n", bad);
        return 2;
    }
    int reps = (int)reps_n, small_reps = (int)small_n;
    const char *dev_name = ex_device_name ? ex_device_name : "cpu";
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    accel_runtime *rt = NULL;
    accel_device *dev = NULL;
    accel_queue *q = NULL;
    accel_comm *comm = NULL, *bcomm = NULL, *ccomm = NULL;
    accel_buffer *s = NULL, *r = NULL;
    int nt = reps > small_reps ? reps : small_reps;
    double *t[KINDS], *rq = malloc(sizeof(double) * (size_t)reps);
    double *rb = malloc(sizeof(double) * (size_t)reps);
    double *te = malloc(sizeof(double) * (size_t)nt), *tc = malloc(sizeof(double) * (size_t)nt);
    for (int k = 0; k < KINDS; ++k)
        t[k] = malloc(sizeof(double) * (size_t)nt);
    if (!t[RAW] || !t[QUEUED] || !t[BLOCKING] || !te || !tc || !rq || !rb)
        goto done;

    CHECK(accel_runtime_open(NULL, &rt));
    CHECK(accel_device_get_by_name(rt, dev_name, &dev));
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
    /* Raw MPI runs on the same memory, so the device must be host memory. */
    float *hs = accel_buffer_host_pointer(s), *hr = accel_buffer_host_pointer(r);
    if (!hs || !hr) {
        fprintf(stderr,
                "mpi_bench: %s is not host memory; it compares with MPI on the same "
                "memory (use --device cpu)\n",
                accel_device_name(dev));
        goto done;
    }
    if (rank == 0) {
        printf("allreduce f32 sum, %d ranks on %ld cores online, CPU device (queued mode: %s); "
               "%d repetitions per size\n",
               size, sysconf(_SC_NPROCESSORS_ONLN),
               accel_comm_is_blocking(comm) ? "no, MPI lacks THREAD_MULTIPLE" : "yes", reps);
        printf("raw/accel per repetition: median [p25, p75] (min..max)\n");
        printf("%5s %8s %9s %9s  %-36s %-36s\n", "MiB", "raw ms", "raw GB/s", "queued ms",
               "raw/queued", "raw/blocking");
    }
    double worst = 1e9, worst_b = 1e9;
    for (size_t mib = 1; mib <= max_mib; mib *= 4) {
        int n = (int)(mib * 1024 * 1024 / sizeof(float));
        accel_slice ss = accel_slice_of(s, 0, (size_t)n), rs = accel_slice_of(r, 0, (size_t)n);
        /* warm-up of each */
        MPI_Allreduce(hs, hr, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        CHECK(accel_comm_allreduce(comm, q, ACCEL_F32, ACCEL_OP_SUM, ss, rs));
        CHECK(accel_queue_finish(q));
        CHECK(accel_comm_allreduce(bcomm, q, ACCEL_F32, ACCEL_OP_SUM, ss, rs));
        for (int i = 0; i < reps; ++i) {
            for (int j = 0; j < KINDS; ++j) {
                int k = (i + j) % KINDS;
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = now_s();
                if (k == RAW) {
                    MPI_Allreduce(hs, hr, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
                } else {
                    CHECK(accel_comm_allreduce(k == QUEUED ? comm : bcomm, q, ACCEL_F32,
                                               ACCEL_OP_SUM, ss, rs));
                    if (k == QUEUED)
                        CHECK(accel_queue_finish(q));
                }
                t[k][i] = max_over_ranks(now_s() - t0);
            }
            rq[i] = t[RAW][i] / t[QUEUED][i];
            rb[i] = t[RAW][i] / t[BLOCKING][i];
        }
        /* The result, once: sum over ranks of (1 + rank). */
        float want = (float)(size * (size + 1) / 2);
        if (hr[0] != want || hr[n - 1] != want) {
            fprintf(stderr, "rank %d: wrong allreduce result %g, expected %g\n", rank, hr[0], want);
            goto done;
        }
        double mr = median(t[RAW], reps), ma = median(t[QUEUED], reps);
        double mq = median(rq, reps), mb = median(rb, reps);
        worst = mq < worst ? mq : worst;
        worst_b = mb < worst_b ? mb : worst_b;
        char sq[64], sb[64];
        spread(rq, reps, 1.0, sq, sizeof sq);
        spread(rb, reps, 1.0, sb, sizeof sb);
        if (rank == 0)
            printf("%5zu %8.3f %9.2f %9.3f  %-36s %-36s\n", mib, mr * 1e3,
                   (double)n * sizeof(float) / mr * 1e-9, ma * 1e3, sq, sb);
    }
    /* Host overhead on a 1-element allreduce: each kind timed back to back. */
    accel_slice s1 = accel_slice_of(s, 0, 1), r1 = accel_slice_of(r, 0, 1);
    for (int i = 0; i < small_reps; ++i) {
        double t0 = now_s();
        MPI_Allreduce(hs, hr, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        double t1 = now_s();
        CHECK(accel_comm_allreduce(comm, q, ACCEL_F32, ACCEL_OP_SUM, s1, r1));
        double t2 = now_s();
        CHECK(accel_queue_finish(q));
        double t3 = now_s();
        CHECK(accel_comm_allreduce(bcomm, q, ACCEL_F32, ACCEL_OP_SUM, s1, r1));
        double t4 = now_s();
        CHECK(accel_comm_allreduce(ccomm, q, ACCEL_F32, ACCEL_OP_SUM, s1, r1));
        tc[i] = now_s() - t4;
        t[RAW][i] = t1 - t0;
        te[i] = t2 - t1;
        t[QUEUED][i] = t3 - t1;
        t[BLOCKING][i] = t4 - t3;
    }
    const char *names[5] = {"raw MPI_Allreduce", "accel queued: call returns",
                            "accel queued: call + finish", "accel blocking mode",
                            "accel blocking + check mode"};
    double *series[5] = {t[RAW], te, t[QUEUED], t[BLOCKING], tc};
    double med[5], q1[5], q3[5];
    for (int k = 0; k < 5; ++k) {
        /* per rank, then the slowest rank's */
        q1[k] = max_over_ranks(quantile(series[k], small_reps, 0.25));
        q3[k] = max_over_ranks(quantile(series[k], small_reps, 0.75));
        med[k] = max_over_ranks(quantile(series[k], small_reps, 0.5));
    }
    if (rank == 0) {
        printf("1-element allreduce, %d iterations; per rank median [p25, p75], the slowest "
               "rank's:\n",
               small_reps);
        for (int k = 0; k < 5; ++k) {
            printf("  %-28s %7.2f us [%5.2f, %5.2f]", names[k], med[k] * 1e6, q1[k] * 1e6,
                   q3[k] * 1e6);
            if (k == 1)
                printf("  (enqueue only, host cost on the caller)");
            else if (k > 1)
                printf("  overhead %+.2f us%s", (med[k] - med[RAW]) * 1e6,
                       k == 4 ? " (the counts' agreement)" : "");
            printf("\n");
        }
        printf("worst median raw/accel 1..%zu MiB: queued %.3f, blocking %.3f (target >= 0.95)\n",
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
    for (int k = 0; k < KINDS; ++k)
        free(t[k]);
    free(te);
    free(tc);
    free(rq);
    free(rb);
    if (rc != 0 && size > 1)
        MPI_Abort(MPI_COMM_WORLD, rc);
    MPI_Finalize();
    return rc;
}
