/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* mpi/watchdog.c — the timeout path: one thread per process, alive while a
 * communicator with a timeout exists, that looks at the blocking MPI or NCCL
 * calls in flight every 100 ms. A call older than its communicator's
 * timeout means a peer died, exited or never joined; a blocked MPI call
 * cannot be cancelled, so the watchdog reports it on stderr and ends the job
 * with MPI_Abort (documented in accel/mpi.h). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "internal.h"

static pthread_mutex_t wd_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wd_cv = PTHREAD_COND_INITIALIZER;
static int wd_users;
static bool wd_stop;
static pthread_t wd_thread;
static accel_mpi__call *wd_inflight;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *watchdog_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&wd_lock);
    while (!wd_stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 100000000;
        if (until.tv_nsec >= 1000000000) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&wd_cv, &wd_lock, &until);
        uint64_t now = now_ns();
        for (accel_mpi__call *c = wd_inflight; c; c = c->wd_next) {
            double age = (double)(now - c->start_ns) * 1e-9;
            if (c->comm->timeout_s > 0 && age > c->comm->timeout_s) {
                char what[96] = "";
                if (c->dtype != ACCEL_DTYPE_INVALID)
                    snprintf(what, sizeof what, " (%zu elements of %s)",
                             c->kind == ACCEL_MPI__RECV ? c->recv.count : c->send.count,
                             accel_dtype_name(c->dtype));
                fprintf(stderr,
                        "accel_mpi: rank %d of %d: %s%s has not completed after %.1f s "
                        "(ACCEL_MPI_TIMEOUT=%g): a peer has probably failed, exited or skipped "
                        "the call; ending the job with MPI_Abort\n",
                        c->comm->rank, c->comm->size, c->fn, what, age, c->comm->timeout_s);
                fflush(stderr);
                MPI_Abort(c->comm->mpi, 1);
                _Exit(1); /* MPI_Abort does not return; should it, still end */
            }
        }
    }
    pthread_mutex_unlock(&wd_lock);
    return NULL;
}

accel_status accel_mpi__watchdog_acquire(void)
{
    pthread_mutex_lock(&wd_lock);
    if (wd_users == 0) {
        wd_stop = false;
        if (pthread_create(&wd_thread, NULL, watchdog_main, NULL) != 0) {
            pthread_mutex_unlock(&wd_lock);
            return accel_error_set(ACCEL_ERROR_OUT_OF_HOST_MEMORY,
                                   "accel_comm_create: cannot start the watchdog thread");
        }
    }
    wd_users++;
    pthread_mutex_unlock(&wd_lock);
    return ACCEL_SUCCESS;
}

void accel_mpi__watchdog_release(void)
{
    pthread_mutex_lock(&wd_lock);
    bool join = --wd_users == 0;
    if (join) {
        wd_stop = true;
        pthread_cond_signal(&wd_cv);
    }
    pthread_mutex_unlock(&wd_lock);
    if (join)
        pthread_join(wd_thread, NULL);
}

void accel_mpi__watchdog_begin(accel_mpi__call *c)
{
    if (c->comm->timeout_s <= 0)
        return;
    c->start_ns = now_ns();
    pthread_mutex_lock(&wd_lock);
    c->wd_prev = NULL;
    c->wd_next = wd_inflight;
    if (wd_inflight)
        wd_inflight->wd_prev = c;
    wd_inflight = c;
    pthread_mutex_unlock(&wd_lock);
}

void accel_mpi__watchdog_end(accel_mpi__call *c)
{
    if (c->comm->timeout_s <= 0)
        return;
    pthread_mutex_lock(&wd_lock);
    if (c->wd_prev)
        c->wd_prev->wd_next = c->wd_next;
    else
        wd_inflight = c->wd_next;
    if (c->wd_next)
        c->wd_next->wd_prev = c->wd_prev;
    pthread_mutex_unlock(&wd_lock);
}
