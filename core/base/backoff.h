/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/base/backoff.h — the back-off of a wait that polls (handle.c's
 * drain, xop.c's cross-backend event wait). Not installed. */
#ifndef ACCEL_CORE_BASE_BACKOFF_H
#define ACCEL_CORE_BASE_BACKOFF_H

#include <sched.h>
#include <time.h>

/* One step (step 0, 1, ...) of a polling wait: the first 64 steps yield the
 * CPU, later ones sleep *sleep_ns nanoseconds, doubling it while it is
 * below max_ns. */
static inline void accel__backoff(unsigned step, long *sleep_ns, long max_ns)
{
    if (step < 64) {
        sched_yield();
        return;
    }
    struct timespec ts = {0, *sleep_ns};
    nanosleep(&ts, NULL);
    if (*sleep_ns < max_ns)
        *sleep_ns *= 2;
}

#endif /* ACCEL_CORE_BASE_BACKOFF_H */
