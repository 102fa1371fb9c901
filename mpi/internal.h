/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* mpi/internal.h — declarations shared by the files of libaccel_mpi: the
 * communicator object, one collective call as plain data, the transports,
 * the watchdog and the message helpers. Not installed. */
#ifndef ACCEL_MPI_INTERNAL_H
#define ACCEL_MPI_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "accel/backend.h" /* accel_log_level */
#include "accel/collective.h"
#include "accel/mpi.h"

#if defined(__GNUC__)
#define ACCEL_MPI__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define ACCEL_MPI__PRINTF(f, a)
#endif

typedef enum accel_mpi__transport {
    ACCEL_MPI__HOST = 1,  /* MPI on the buffers' own host memory */
    ACCEL_MPI__NCCL = 2,  /* the backend's collective entries (NCCL) */
    ACCEL_MPI__STAGED = 3 /* MPI on page-locked copies */
} accel_mpi__transport;

/* A page-locked block of the staged transport's pool. */
typedef struct accel_mpi__block {
    void *ptr;
    size_t bytes;
    struct accel_mpi__block *next;
} accel_mpi__block;

struct accel_comm {
    uint32_t magic;     /* ACCEL_MPI__MAGIC while alive */
    atomic_int pending; /* collectives enqueued and not yet run */
    MPI_Comm mpi;       /* private duplicate for the collectives */
    MPI_Comm check;     /* second duplicate for check mode's agreement */
    int rank, size;
    accel_device *dev;
    accel_mpi__transport transport;
    accel_device_comm *dcomm; /* NCCL transport */
    bool blocking, check_counts, verify;
    double timeout_s;
    /* Collectives of this communicator never call MPI concurrently: MPI
     * forbids concurrent collectives on one communicator. */
    pthread_mutex_t lock;
    pthread_mutex_t pool_lock; /* staged transport's free blocks */
    accel_mpi__block *pool;
};

typedef enum accel_mpi__kind {
    ACCEL_MPI__ALLREDUCE = 1,
    ACCEL_MPI__REDUCE = 2,
    ACCEL_MPI__BROADCAST = 3,
    ACCEL_MPI__ALLGATHER = 4,
    ACCEL_MPI__REDUCE_SCATTER = 5,
    ACCEL_MPI__SEND = 6,
    ACCEL_MPI__RECV = 7
} accel_mpi__kind;

/* One collective call as plain data; the transport reads host addresses
 * send/recv (HOST and STAGED) or the slices (NCCL). */
typedef struct accel_mpi__call {
    accel_mpi__kind kind;
    const char *fn; /* the public function's name */
    accel_comm *comm;
    accel_dtype dtype;
    accel_op_code op;
    int root; /* root of reduce/broadcast, peer of send/recv */
    accel_slice send, recv;
    size_t esize;
    bool in_place;
    void *send_host, *recv_host;
    accel_mpi__block *block; /* STAGED: the bounce memory, back to the pool after */
    /* watchdog */
    uint64_t start_ns;
    struct accel_mpi__call *wd_prev, *wd_next;
} accel_mpi__call;

/* Messages: the calling thread's accel_last_error() is the core's; this
 * library keeps its own thread-local message and status, returned through
 * accel_mpi__fail and shown by accel_last_error via the core's relay. */
accel_status accel_mpi__fail(accel_status st, const char *fmt, ...) ACCEL_MPI__PRINTF(2, 3);

/* "MPI_Allreduce: <MPI_Error_string of rc>" into msg. */
void accel_mpi__mpi_message(int rc, const char *call, char *msg, size_t cap);

/* Run c with MPI on c->send_host/recv_host (HOST and STAGED); verify mode
 * included. ACCEL_SUCCESS or a status with msg written. Takes comm->lock. */
accel_status accel_mpi__run_host(accel_mpi__call *c, char *msg, size_t cap);

/* Verify mode's cross-check of one allreduce (accel/mpi.h): input is this
 * rank's send data before the call, c->recv_host its result. Collective;
 * the caller holds comm->lock and brackets it with the watchdog. */
accel_status accel_mpi__verify_allreduce(accel_mpi__call *c, const void *input, char *msg,
                                         size_t cap);

/* True for a live communicator (a magic number; not a registry). */
bool accel_mpi__comm_valid(const accel_comm *comm);

/* Watchdog (watchdog.c): start/stop with the communicators; begin/end
 * bracket one blocking library call. */
accel_status accel_mpi__watchdog_acquire(void);
void accel_mpi__watchdog_release(void);
void accel_mpi__watchdog_begin(accel_mpi__call *c);
void accel_mpi__watchdog_end(accel_mpi__call *c);

/* MPI datatype and op of an accel dtype / op code (MPI_DATATYPE_NULL,
 * MPI_OP_NULL when there is none). */
MPI_Datatype accel_mpi__datatype(accel_dtype dtype);
MPI_Op accel_mpi__op(accel_op_code op);

#endif /* ACCEL_MPI_INTERNAL_H */
