/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* mpi/comm.c — communicators: creation from an MPI communicator and a
 * device (duplicates, thread level, options and environment, the ranks'
 * agreement on a transport, NCCL's unique id by MPI_Bcast), release, getters,
 * and what the library was built with. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "value.h" /* accel__env_bool: the runtime's reading of a boolean */

#define ACCEL_MPI__MAGIC 0x61636f6du /* "acom" */
#define ACCEL_MPI__DEFAULT_TIMEOUT 600.0

void accel_comm_options_init(accel_comm_options *opt)
{
    if (!opt)
        return;
    memset(opt, 0, sizeof *opt);
    opt->struct_size = sizeof *opt;
}

/* The ACCEL_MPI_* booleans added to *flags (they only add: an option's flag
 * stays). ACCEL_ERROR_CONFIG naming the variable and its value when one is
 * set to a word that is no boolean, as the runtime refuses ACCEL_REPORT's. */
static accel_status env_flags(const char *fn, uint32_t *flags)
{
    static const struct {
        const char *name;
        uint32_t flag;
        bool when; /* the value that adds flag */
    } vars[] = {{"ACCEL_MPI_CHECK", ACCEL_COMM_CHECK, true},
                {"ACCEL_MPI_VERIFY", ACCEL_COMM_VERIFY, true},
                {"ACCEL_MPI_NCCL", ACCEL_COMM_NO_NCCL, false}};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        bool on = false;
        int r = accel__env_bool(vars[i].name, &on);
        if (r < 0)
            return accel_error_set(ACCEL_ERROR_CONFIG, "%s: %s=%s: expected a boolean: %s", fn,
                                   vars[i].name, getenv(vars[i].name), ACCEL__BOOL_WORDS);
        if (r > 0 && on == vars[i].when)
            *flags |= vars[i].flag;
    }
    return ACCEL_SUCCESS;
}

static void comm_free(accel_comm *comm)
{
    if (comm->dcomm)
        accel_device_comm_release(comm->dcomm);
    while (comm->pool) {
        accel_mpi__block *b = comm->pool;
        comm->pool = b->next;
        accel_host_free(comm->dev, b->ptr);
        free(b);
    }
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (comm->check != MPI_COMM_NULL && !finalized)
        MPI_Comm_free(&comm->check);
    if (comm->mpi != MPI_COMM_NULL && !finalized)
        MPI_Comm_free(&comm->mpi);
    if (comm->timeout_s > 0)
        accel_mpi__watchdog_release();
    pthread_mutex_destroy(&comm->lock);
    pthread_mutex_destroy(&comm->pool_lock);
    comm->magic = 0;
    free(comm);
}

/* An MPI failure during creation: free what was made, set the message. */
static accel_status create_fail_mpi(accel_comm *comm, int rc, const char *call)
{
    char msg[MPI_MAX_ERROR_STRING + 64];
    accel_mpi__mpi_message(rc, call, msg, sizeof msg);
    comm_free(comm);
    return accel_error_set(ACCEL_ERROR_COMMUNICATION, "accel_comm_create: %s", msg);
}

/* Every rank takes part: NCCL (the backend's collective entries) when every
 * rank can use it, else host memory where the device is host memory and
 * staging elsewhere (both are MPI, so they mix). Sets comm->transport and
 * comm->dcomm. */
static accel_status choose_transport(accel_comm *comm, bool host_memory, bool want_nccl)
{
    static const char fn[] = "accel_comm_create";
    char reason[512] = "";
    unsigned char id[ACCEL_DEVICE_COMM_ID_BYTES];
    memset(id, 0, sizeof id);
    int ok = 0;
    if (host_memory) {
        snprintf(reason, sizeof reason, "host memory");
    } else if (!want_nccl) {
        snprintf(reason, sizeof reason, "ACCEL_COMM_NO_NCCL or ACCEL_MPI_NCCL=0 asked for it");
    } else if (accel_device_comm_supported(comm->dev) != ACCEL_SUCCESS) {
        snprintf(reason, sizeof reason, "%s", accel_last_error());
    } else {
        ok = 1;
    }
    int all_ok = 0;
    int rc = MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm->mpi);
    if (rc != MPI_SUCCESS)
        return create_fail_mpi(comm, rc, "MPI_Allreduce");
    if (all_ok && comm->rank == 0 &&
        accel_device_comm_id(comm->dev, id, sizeof id) != ACCEL_SUCCESS) {
        /* Rank 0 tells the others by an all-zero id. */
        snprintf(reason, sizeof reason, "%s", accel_last_error());
        memset(id, 0, sizeof id);
    }
    if (all_ok) {
        rc = MPI_Bcast(id, (int)sizeof id, MPI_BYTE, 0, comm->mpi);
        if (rc != MPI_SUCCESS)
            return create_fail_mpi(comm, rc, "MPI_Bcast of the NCCL unique id");
        bool zero = true;
        for (size_t i = 0; i < sizeof id; ++i)
            zero = zero && id[i] == 0;
        if (zero) {
            all_ok = 0;
            if (!reason[0])
                snprintf(reason, sizeof reason, "rank 0 could not make an NCCL unique id");
        }
    } else if (!reason[0]) {
        snprintf(reason, sizeof reason, "another rank has no NCCL");
    }
    if (all_ok) {
        /* Every rank joins (the watchdog ends a join that never completes);
         * a rank whose join fails tells the others after the fact, and all
         * of them then stage. */
        accel_mpi__call join;
        memset(&join, 0, sizeof join);
        join.fn = "accel_comm_create (ncclCommInitRank)";
        join.comm = comm;
        join.dtype = ACCEL_DTYPE_INVALID;
        accel_mpi__watchdog_begin(&join);
        accel_status st = accel_device_comm_create(comm->dev, id, sizeof id, comm->size, comm->rank,
                                                   &comm->dcomm);
        accel_mpi__watchdog_end(&join);
        int joined = st == ACCEL_SUCCESS, all_joined = 0;
        if (!joined)
            snprintf(reason, sizeof reason, "%s", accel_last_error());
        rc = MPI_Allreduce(&joined, &all_joined, 1, MPI_INT, MPI_MIN, comm->mpi);
        if (rc != MPI_SUCCESS)
            return create_fail_mpi(comm, rc, "MPI_Allreduce");
        if (all_joined) {
            comm->transport = ACCEL_MPI__NCCL;
            return ACCEL_SUCCESS;
        }
        if (joined && !reason[0])
            snprintf(reason, sizeof reason, "another rank could not join NCCL");
        accel_device_comm_release(comm->dcomm);
        comm->dcomm = NULL;
    }
    if (host_memory) {
        comm->transport = ACCEL_MPI__HOST;
        return ACCEL_SUCCESS;
    }
    comm->transport = ACCEL_MPI__STAGED;
    accel_log_write(ACCEL_LOG_WARN,
                    "%s: rank %d: %s is not host memory and NCCL is not used (%s); collectives "
                    "are staged through pinned host memory and MPI",
                    fn, comm->rank, accel_device_name(comm->dev), reason);
    return ACCEL_SUCCESS;
}

accel_status accel_comm_create(MPI_Comm mpi_comm, accel_device *dev, const accel_comm_options *opt,
                               accel_comm **out_comm)
{
    static const char fn[] = "accel_comm_create";
    if (out_comm)
        *out_comm = NULL;
    accel_device_properties props;
    accel_device_properties_init(&props);
    if (!dev || accel_device_properties_get(dev, &props) != ACCEL_SUCCESS)
        return accel_error_set(ACCEL_ERROR_INVALID_HANDLE, "%s: dev is %s", fn,
                               dev ? "not a live device" : "NULL");
    if (!out_comm)
        return accel_error_set(ACCEL_ERROR_INVALID_ARGUMENT, "%s: out_comm is NULL", fn);
    if (opt && opt->struct_size < sizeof(accel_comm_options))
        return accel_error_set(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: opt->struct_size is %u, expected %zu (accel_comm_options_init)",
                               fn, opt->struct_size, sizeof(accel_comm_options));
    int inited = 0, finalized = 0;
    MPI_Initialized(&inited);
    MPI_Finalized(&finalized);
    if (!inited || finalized)
        return accel_error_set(ACCEL_ERROR_INVALID_ARGUMENT, "%s: MPI is %s", fn,
                               finalized ? "already finalized" : "not initialized (MPI_Init)");
    if (mpi_comm == MPI_COMM_NULL)
        return accel_error_set(ACCEL_ERROR_INVALID_ARGUMENT, "%s: mpi_comm is MPI_COMM_NULL", fn);
    uint32_t flags = opt ? opt->flags : 0;
    accel_status est = env_flags(fn, &flags);
    if (est != ACCEL_SUCCESS)
        return est;

    accel_comm *comm = calloc(1, sizeof *comm);
    if (!comm)
        return accel_error_set(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    comm->magic = ACCEL_MPI__MAGIC;
    comm->mpi = comm->check = MPI_COMM_NULL;
    comm->dev = dev;
    atomic_init(&comm->pending, 0);
    pthread_mutex_init(&comm->lock, NULL);
    pthread_mutex_init(&comm->pool_lock, NULL);
    double timeout = opt ? opt->timeout_s : 0;
    if (timeout == 0) {
        const char *t = getenv("ACCEL_MPI_TIMEOUT");
        char *end = NULL;
        timeout = t && *t ? strtod(t, &end) : ACCEL_MPI__DEFAULT_TIMEOUT;
        /* nan, inf and negatives would turn the watchdog off unasked. */
        if (t && *t && (!end || *end || !isfinite(timeout) || timeout < 0)) {
            accel_log_write(ACCEL_LOG_WARN,
                            "%s: ACCEL_MPI_TIMEOUT=%s is not a number of seconds >= 0 (0 turns "
                            "the watchdog off); using %g s",
                            fn, t, ACCEL_MPI__DEFAULT_TIMEOUT);
            timeout = ACCEL_MPI__DEFAULT_TIMEOUT;
        }
        if (timeout == 0)
            timeout = -1; /* 0 in the environment disables it */
    }
    comm->check_counts = flags & ACCEL_COMM_CHECK;
    comm->verify = flags & ACCEL_COMM_VERIFY;

    int rc = MPI_Comm_dup(mpi_comm, &comm->mpi);
    if (rc != MPI_SUCCESS)
        return create_fail_mpi(comm, rc, "MPI_Comm_dup");
    MPI_Comm_set_errhandler(comm->mpi, MPI_ERRORS_RETURN);
    rc = MPI_Comm_dup(comm->mpi, &comm->check);
    if (rc != MPI_SUCCESS)
        return create_fail_mpi(comm, rc, "MPI_Comm_dup");
    MPI_Comm_set_errhandler(comm->check, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm->mpi, &comm->rank);
    MPI_Comm_size(comm->mpi, &comm->size);
    int provided = MPI_THREAD_SINGLE;
    MPI_Query_thread(&provided);
    comm->blocking = provided < MPI_THREAD_MULTIPLE || (flags & ACCEL_COMM_BLOCKING);

    if (timeout > 0) {
        accel_status st = accel_mpi__watchdog_acquire();
        if (st != ACCEL_SUCCESS) {
            comm_free(comm);
            return st;
        }
        comm->timeout_s = timeout;
    }
    accel_status tst =
        choose_transport(comm, props.host_accessible != 0, !(flags & ACCEL_COMM_NO_NCCL));
    if (tst != ACCEL_SUCCESS)
        return tst; /* comm freed */
    accel_log_write(ACCEL_LOG_INFO, "%s: rank %d of %d on %s, transport %s, %s mode%s%s", fn,
                    comm->rank, comm->size, accel_device_name(dev), accel_comm_transport(comm),
                    comm->blocking ? "blocking" : "queued", comm->check_counts ? ", check" : "",
                    comm->verify ? ", verify" : "");
    *out_comm = comm;
    return ACCEL_SUCCESS;
}

bool accel_mpi__comm_valid(const accel_comm *comm)
{
    return comm && comm->magic == ACCEL_MPI__MAGIC;
}

void accel_comm_release(accel_comm *comm)
{
    if (!accel_mpi__comm_valid(comm))
        return;
    /* Collectives still queued use the communicator: wait until they ran
     * (freeing pinned memory is not allowed inside a CUDA host callback, so
     * the last reference is never dropped there). */
    long sleep_ns = 1000;
    while (atomic_load(&comm->pending) > 0) {
        struct timespec ts = {0, sleep_ns};
        nanosleep(&ts, NULL);
        if (sleep_ns < 1000000)
            sleep_ns *= 2;
    }
    comm_free(comm);
}

int accel_comm_rank(const accel_comm *comm)
{
    return accel_mpi__comm_valid(comm) ? comm->rank : -1;
}

int accel_comm_size(const accel_comm *comm)
{
    return accel_mpi__comm_valid(comm) ? comm->size : 0;
}

accel_device *accel_comm_device(const accel_comm *comm)
{
    return accel_mpi__comm_valid(comm) ? comm->dev : NULL;
}

const char *accel_comm_transport(const accel_comm *comm)
{
    if (!accel_mpi__comm_valid(comm))
        return "invalid";
    switch (comm->transport) {
    case ACCEL_MPI__HOST:
        return "mpi";
    case ACCEL_MPI__NCCL:
        return "nccl";
    case ACCEL_MPI__STAGED:
        return "mpi-staged";
    }
    return "invalid";
}

bool accel_comm_is_blocking(const accel_comm *comm)
{
    return accel_mpi__comm_valid(comm) && comm->blocking;
}

accel_status accel_mpi_info_get(accel_mpi_info *info)
{
    if (!info || info->struct_size < sizeof *info)
        return accel_error_set(ACCEL_ERROR_INVALID_ARGUMENT,
                               "accel_mpi_info_get: info is NULL or its struct_size too small");
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(lib, &len);
    lib[strcspn(lib, "\n")] = '\0';
    size_t keep =
        strlen(lib) < sizeof info->mpi_library ? strlen(lib) : sizeof info->mpi_library - 1;
    memcpy(info->mpi_library, lib, keep);
    info->mpi_library[keep] = '\0';
    MPI_Get_version(&info->mpi_version, &info->mpi_subversion);
    return ACCEL_SUCCESS;
}
