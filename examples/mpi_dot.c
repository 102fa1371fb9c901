/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* mpi_dot — a data-parallel job: a dot product of two vectors of n elements
 * split over the ranks, one accel device per rank. Each rank makes its own
 * part of x and y on its device (Philox uniform numbers: filling a piece at
 * its stream offset equals filling everything at once), computes its partial
 * dot product there, and one allreduce sums the partial results, enqueued on
 * the same queue. Rank 0 then computes the single-process answer (the whole
 * vectors, one accel_dot) and a double-precision reference, and checks both
 * against it within the bound of an f32 dot product of n terms,
 * gamma_n * sum |x_i y_i| (Higham 2002, eq. 3.5), with the partial sums' and
 * the allreduce's additions included in the n.
 *
 *   usage: mpirun -np 2 mpi_dot [--n N] [--device cpu|cuda]
 *   (Open MPI: add --oversubscribe for more ranks than cores; as root set
 *    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)
 * With --device cuda each rank takes cuda:(local rank mod GPUs); the
 * communicator uses NCCL when the CUDA plugin finds it. */
#include "common.h"

#include <accel/mpi.h>
#include <math.h>

static const uint64_t seed_x = 11, seed_y = 12;

/* The device for this rank: cpu, or cuda:(local rank mod the CUDA devices). */
static accel_status pick_device(accel_runtime *rt, const char *want, accel_device **out)
{
    if (strcmp(want, "cuda") != 0)
        return accel_device_get_by_name(rt, want, out);
    MPI_Comm local;
    int local_rank = 0, gpus = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
    MPI_Comm_rank(local, &local_rank);
    MPI_Comm_free(&local);
    for (uint32_t i = 0; i < accel_device_count(rt); ++i) {
        accel_device *d = NULL;
        if (accel_device_get(rt, i, &d) == ACCEL_SUCCESS &&
            strncmp(accel_device_name(d), "cuda:", 5) == 0)
            gpus++;
    }
    char name[32];
    snprintf(name, sizeof name, "cuda:%d", gpus ? local_rank % gpus : 0);
    return accel_device_get_by_name(rt, name, out);
}

int main(int argc, char **argv)
{
    int provided = 0, rank = 0, size = 1, rc = 1;
    /* Before MPI_Init: --help and a usage error exit at once, in every rank. */
    ex_opt opts[] = {{"n", "N", "elements of each vector (default 10000000)", NULL, "1000003"},
                     {NULL, NULL, NULL, NULL, NULL}};
    ex_parse(argc, argv, "[--device cpu|cuda|NAME] [--quick] [--n N]", opts, 0);
    size_t n = ex_opt_size(opts, "n", 10000000);
    const char *want = ex_device_name;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    accel_runtime *rt = NULL;
    accel_device *dev = NULL;
    accel_queue *q = NULL;
    accel_comm *comm = NULL;
    accel_buffer *x = NULL, *y = NULL, *part = NULL, *fx = NULL, *fy = NULL, *whole = NULL;
    float *hx = NULL, *hy = NULL;

    CHECK(accel_runtime_open(NULL, &rt));
    if (want && strcmp(want, "cuda") == 0 &&
        accel_device_get_by_name(rt, "cuda", &dev) != ACCEL_SUCCESS) {
        if (rank == 0)
            printf("no CUDA device, GPU test skipped\n");
        rc = 0;
        goto done;
    }
    CHECK(pick_device(rt, want ? want : "cpu", &dev));
    CHECK(accel_queue_create(dev, &q));
    CHECK(accel_comm_create(MPI_COMM_WORLD, dev, NULL, &comm));
    /* This rank's block: [begin, begin + count). */
    size_t begin = n * (size_t)rank / (size_t)size;
    size_t count = n * (size_t)(rank + 1) / (size_t)size - begin;
    printf("rank %d of %d: %s, elements [%zu, %zu), transport %s\n", rank, size,
           accel_device_name(dev), begin, begin + count, accel_comm_transport(comm));

    CHECK(accel_buffer_create(dev, (count ? count : 1) * sizeof(float), &x));
    CHECK(accel_buffer_create(dev, (count ? count : 1) * sizeof(float), &y));
    CHECK(accel_buffer_create(dev, sizeof(float), &part));
    CHECK(accel_random_uniform(q, ACCEL_F32, seed_x, begin, accel_slice_of(x, 0, count)));
    CHECK(accel_random_uniform(q, ACCEL_F32, seed_y, begin, accel_slice_of(y, 0, count)));
    CHECK(accel_dot(q, ACCEL_F32, accel_slice_of(x, 0, count), accel_slice_of(y, 0, count),
                    accel_slice_of(part, 0, 1)));
    CHECK(accel_comm_allreduce(comm, q, ACCEL_F32, ACCEL_OP_SUM, accel_slice_of(part, 0, 1),
                               accel_slice_of(part, 0, 1)));
    float dot = 0;
    CHECK(accel_queue_read_blocking(q, part, 0, &dot, sizeof dot));

    int ok = 1;
    if (rank == 0) {
        /* The single-process answer on the same device, and a double loop. */
        CHECK(accel_buffer_create(dev, n * sizeof(float), &fx));
        CHECK(accel_buffer_create(dev, n * sizeof(float), &fy));
        CHECK(accel_buffer_create(dev, sizeof(float), &whole));
        CHECK(accel_random_uniform(q, ACCEL_F32, seed_x, 0, accel_slice_of(fx, 0, n)));
        CHECK(accel_random_uniform(q, ACCEL_F32, seed_y, 0, accel_slice_of(fy, 0, n)));
        CHECK(accel_dot(q, ACCEL_F32, accel_slice_of(fx, 0, n), accel_slice_of(fy, 0, n),
                        accel_slice_of(whole, 0, 1)));
        float single = 0;
        CHECK(accel_queue_read_blocking(q, whole, 0, &single, sizeof single));
        hx = malloc(n * sizeof *hx + 1);
        hy = malloc(n * sizeof *hy + 1);
        if (!hx || !hy)
            goto done;
        CHECK(accel_queue_read_blocking(q, fx, 0, hx, n * sizeof *hx));
        CHECK(accel_queue_read_blocking(q, fy, 0, hy, n * sizeof *hy));
        double ref = 0, mag = 0;
        for (size_t i = 0; i < n; ++i) {
            ref += (double)hx[i] * hy[i];
            mag += fabs((double)hx[i] * hy[i]);
        }
        double u = 0x1p-24, m = (double)n + (double)size;
        double bound = m * u / (1 - m * u) * mag;
        printf("dot over %d ranks: %.9g, single process: %.9g, double reference: %.12g\n", size,
               dot, single, ref);
        printf("errors: ranks %.3g, single %.3g, bound gamma_%.0f * sum|xy| = %.3g\n",
               fabs(dot - ref), fabs(single - ref), m, bound);
        ok = fabs(dot - ref) <= bound && fabs(single - ref) <= bound;
        printf("%s\n", ok ? "PASSED" : "FAILED");
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    rc = ok ? 0 : 1;

done:
    free(hx);
    free(hy);
    accel_buffer_release(x);
    accel_buffer_release(y);
    accel_buffer_release(part);
    accel_buffer_release(fx);
    accel_buffer_release(fy);
    accel_buffer_release(whole);
    accel_comm_release(comm);
    accel_queue_release(q);
    accel_runtime_close(rt);
    if (rc != 0 && size > 1)
        MPI_Abort(MPI_COMM_WORLD, rc); /* one rank failing ends the job, not a hang */
    MPI_Finalize();
    return rc;
}
