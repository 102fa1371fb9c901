/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* mpi/host.c — running one collective with MPI on host memory (the "mpi"
 * transport, and the middle step of "mpi-staged"), and verify mode's
 * cross-check of allreduce against rank 0's CPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

MPI_Datatype accel_mpi__datatype(accel_dtype dtype)
{
    switch (dtype) {
    case ACCEL_F32:
        return MPI_FLOAT;
    case ACCEL_F64:
        return MPI_DOUBLE;
    case ACCEL_I32:
        return MPI_INT32_T;
    case ACCEL_I64:
        return MPI_INT64_T;
    case ACCEL_U8:
        return MPI_UINT8_T;
    case ACCEL_F16:
    case ACCEL_BF16:
    case ACCEL_BOOL:
    case ACCEL_I8:
    case ACCEL_I16:
    case ACCEL_U16:
    case ACCEL_U32:
    case ACCEL_U64:
    case ACCEL_C64:
    case ACCEL_C128:
    case ACCEL_DTYPE_INVALID:
    case ACCEL_DTYPE_COUNT_:
        break;
    }
    return MPI_DATATYPE_NULL;
}

MPI_Op accel_mpi__op(accel_op_code op)
{
    if (op == ACCEL_OP_SUM)
        return MPI_SUM;
    if (op == ACCEL_OP_REDUCE_MAX)
        return MPI_MAX;
    if (op == ACCEL_OP_REDUCE_MIN)
        return MPI_MIN;
    return MPI_OP_NULL;
}

void accel_mpi__mpi_message(int rc, const char *call, char *msg, size_t cap)
{
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "MPI error %d", rc);
    snprintf(msg, cap, "%s failed: %s", call, text);
}

/* Element i of a host array of dtype, as double (floating dtypes). */
static double load(const void *p, accel_dtype dtype, size_t i)
{
    return dtype == ACCEL_F32 ? (double)((const float *)p)[i] : ((const double *)p)[i];
}

static bool is_float(accel_dtype dtype)
{
    return dtype == ACCEL_F32 || dtype == ACCEL_F64;
}

/* Element i of a host array of an integer dtype (i32, i64, u8). */
static int64_t load_int(const void *p, accel_dtype dtype, size_t i)
{
    if (dtype == ACCEL_I32)
        return ((const int32_t *)p)[i];
    if (dtype == ACCEL_U8)
        return ((const uint8_t *)p)[i];
    return ((const int64_t *)p)[i];
}

/* v wrapped to the width of an integer dtype, as MPI's sum of that type
 * wraps (two's complement). */
static int64_t wrap_int(uint64_t v, accel_dtype dtype)
{
    if (dtype == ACCEL_I32)
        return (int32_t)(uint32_t)v;
    if (dtype == ACCEL_U8)
        return (uint8_t)v;
    return (int64_t)v;
}

/* The reference of element i over the gathered inputs of every rank, in
 * rank order: floating dtypes in double into ref[i] with the bound in
 * bound[i]; integer dtypes exactly (the sum wraps as the dtype) into iref[i]. */
static void reference(const accel_mpi__call *c, const void *all, size_t n, int ranks, size_t i,
                      double *ref, double *bound, int64_t *iref)
{
    if (!is_float(c->dtype)) {
        int64_t s = load_int(all, c->dtype, i);
        for (int r = 1; r < ranks; ++r) {
            int64_t x = load_int(all, c->dtype, (size_t)r * n + i);
            if (c->op == ACCEL_OP_SUM)
                s = wrap_int((uint64_t)s + (uint64_t)x, c->dtype);
            else if (c->op == ACCEL_OP_REDUCE_MAX)
                s = x > s ? x : s;
            else
                s = x < s ? x : s;
        }
        iref[i] = s;
        return;
    }
    double u = c->dtype == ACCEL_F32 ? 0x1p-24 : 0x1p-53;
    double m = (double)(ranks - 1);
    double gamma = m * u / (1 - m * u);
    double s = load(all, c->dtype, i), a = fabs(s);
    for (int r = 1; r < ranks; ++r) {
        double x = load(all, c->dtype, (size_t)r * n + i);
        if (c->op == ACCEL_OP_SUM)
            s += x;
        else if (c->op == ACCEL_OP_REDUCE_MAX)
            s = x > s || isnan(x) ? x : s;
        else
            s = x < s || isnan(x) ? x : s;
        a += fabs(x);
    }
    ref[i] = s;
    bound[i] = c->op == ACCEL_OP_SUM ? gamma * a + u * fabs(s) : 0.0;
}

/* Verify mode for allreduce: gather the inputs to rank 0, reduce them there
 * in rank order (floating dtypes in double, integers exactly), broadcast the
 * reference (and for floating dtypes its bound), and check this rank's
 * result (accel/mpi.h gives the model). input: this rank's send data as it
 * was before the collective. */
accel_status accel_mpi__verify_allreduce(accel_mpi__call *c, const void *input, char *msg,
                                         size_t cap)
{
    accel_comm *comm = c->comm;
    size_t n = c->send.count;
    int ranks = comm->size;
    MPI_Datatype mt = accel_mpi__datatype(c->dtype);
    void *all = NULL;
    /* reference, then bound (floating) or the exact reference (integers):
     * 2n slots of 8 bytes either way */
    double *ref = malloc(2 * (n ? n : 1) * sizeof *ref);
    int64_t *iref = (int64_t *)ref;
    if (comm->rank == 0)
        all = malloc((size_t)ranks * (n ? n : 1) * c->esize);
    if (!ref || (comm->rank == 0 && !all)) {
        free(ref);
        free(all);
        snprintf(msg, cap, "verify: out of host memory");
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    int rc = MPI_Gather(input, (int)n, mt, all, (int)n, mt, 0, comm->mpi);
    if (rc == MPI_SUCCESS && comm->rank == 0)
        for (size_t i = 0; i < n; ++i)
            reference(c, all, n, ranks, i, ref, ref + n, iref);
    if (rc == MPI_SUCCESS)
        rc = MPI_Bcast(ref, (int)(is_float(c->dtype) ? 2 * n : n),
                       is_float(c->dtype) ? MPI_DOUBLE : MPI_INT64_T, 0, comm->mpi);
    free(all);
    if (rc != MPI_SUCCESS) {
        free(ref);
        accel_mpi__mpi_message(rc, "verify: MPI_Gather/MPI_Bcast", msg, cap);
        return ACCEL_ERROR_COMMUNICATION;
    }
    accel_status st = ACCEL_SUCCESS;
    for (size_t i = 0; i < n && st == ACCEL_SUCCESS; ++i) {
        if (!is_float(c->dtype)) {
            int64_t r = load_int(c->recv_host, c->dtype, i);
            if (r != iref[i]) {
                snprintf(msg, cap,
                         "verify: rank %d: element %zu is %lld, rank 0's CPU gives %lld (%s: "
                         "exact)",
                         comm->rank, i, (long long)r, (long long)iref[i],
                         accel_dtype_name(c->dtype));
                st = ACCEL_ERROR_MISMATCH;
            }
            continue;
        }
        double r = load(c->recv_host, c->dtype, i);
        bool ok = isnan(ref[i]) ? isnan(r) : fabs(r - ref[i]) <= ref[n + i];
        if (!ok) {
            snprintf(msg, cap,
                     "verify: rank %d: element %zu is %.17g, rank 0's CPU gives %.17g "
                     "(bound %.3g: gamma_%d * sum |x| + u * |sum|)",
                     comm->rank, i, r, ref[i], ref[n + i], ranks - 1);
            st = ACCEL_ERROR_MISMATCH;
        }
    }
    free(ref);
    return st;
}

static int run_mpi(accel_mpi__call *c, const char **call)
{
    accel_comm *comm = c->comm;
    MPI_Datatype mt = accel_mpi__datatype(c->dtype);
    MPI_Op mo = accel_mpi__op(c->op);
    const void *sb = c->in_place ? MPI_IN_PLACE : c->send_host;
    int n = (int)c->send.count;
    switch (c->kind) {
    case ACCEL_MPI__ALLREDUCE:
        *call = "MPI_Allreduce";
        return MPI_Allreduce(sb, c->recv_host, n, mt, mo, comm->mpi);
    case ACCEL_MPI__REDUCE:
        *call = "MPI_Reduce";
        /* MPI_IN_PLACE is the root's alone. */
        if (comm->rank != c->root)
            sb = c->send_host;
        return MPI_Reduce(sb, c->recv_host, n, mt, mo, c->root, comm->mpi);
    case ACCEL_MPI__BROADCAST:
        *call = "MPI_Bcast";
        return MPI_Bcast(c->send_host, n, mt, c->root, comm->mpi);
    case ACCEL_MPI__ALLGATHER:
        *call = "MPI_Allgather";
        return MPI_Allgather(sb, n, mt, c->recv_host, n, mt, comm->mpi);
    case ACCEL_MPI__REDUCE_SCATTER:
        *call = "MPI_Reduce_scatter_block";
        return MPI_Reduce_scatter_block(sb, c->recv_host, (int)c->recv.count, mt, mo, comm->mpi);
    case ACCEL_MPI__SEND:
        *call = "MPI_Send";
        return MPI_Send(c->send_host, n, mt, c->root, 0, comm->mpi);
    case ACCEL_MPI__RECV:
        *call = "MPI_Recv";
        break;
    }
    return MPI_SUCCESS;
}

accel_status accel_mpi__run_host(accel_mpi__call *c, char *msg, size_t cap)
{
    accel_comm *comm = c->comm;
    void *input = NULL;
    bool verify = comm->verify && c->kind == ACCEL_MPI__ALLREDUCE;
    if (verify) {
        /* In place overwrites the input the check needs. */
        input = malloc(c->send.count ? c->send.count * c->esize : 1);
        if (!input) {
            snprintf(msg, cap, "verify: out of host memory");
            return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
        }
        if (c->send.count)
            memcpy(input, c->send_host, c->send.count * c->esize);
    }
    const char *call = "";
    accel_status st = ACCEL_SUCCESS;
    pthread_mutex_lock(&comm->lock);
    accel_mpi__watchdog_begin(c);
    int rc;
    if (c->kind == ACCEL_MPI__RECV) {
        call = "MPI_Recv";
        MPI_Status status;
        /* A shorter message is a count mismatch; a longer one is MPI's
         * MPI_ERR_TRUNCATE. */
        MPI_Datatype mt = accel_mpi__datatype(c->dtype);
        rc = MPI_Recv(c->recv_host, (int)c->recv.count, mt, c->root, 0, comm->mpi, &status);
        int got = 0;
        if (rc == MPI_SUCCESS && MPI_Get_count(&status, mt, &got) == MPI_SUCCESS &&
            (size_t)got != c->recv.count) {
            snprintf(msg, cap, "received %d elements of %s from rank %d, expected %zu", got,
                     accel_dtype_name(c->dtype), c->root, c->recv.count);
            st = ACCEL_ERROR_SHAPE_MISMATCH;
        }
    } else {
        rc = run_mpi(c, &call);
    }
    if (rc != MPI_SUCCESS) {
        accel_mpi__mpi_message(rc, call, msg, cap);
        st = ACCEL_ERROR_COMMUNICATION;
    }
    if (verify && rc == MPI_SUCCESS)
        st = accel_mpi__verify_allreduce(c, input, msg, cap);
    accel_mpi__watchdog_end(c);
    pthread_mutex_unlock(&comm->lock);
    free(input);
    return st;
}
