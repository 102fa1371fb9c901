/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* tests/mpi/test_mpi_timeout_env.c — ACCEL_MPI_TIMEOUT values that are no
 * number of seconds >= 0 (nan, inf, -5, a word) are refused with a warning
 * naming the variable and the default used, instead of silently turning the
 * watchdog off; 0 turns it off without a warning. One rank; exit 0 and
 * "PASS" on success. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/mpi.h"

static char seen[4096];

static void on_log(int level, const char *message, void *user)
{
    (void)user;
    if (level >= ACCEL_LOG_WARN)
        snprintf(seen, sizeof seen, "%s", message);
}

int main(int argc, char **argv)
{
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    accel_set_log_callback(on_log, NULL);
    accel_runtime *rt = NULL;
    accel_device *dev = NULL;
    if (accel_runtime_open(NULL, &rt) != ACCEL_SUCCESS ||
        accel_device_get_by_name(rt, "cpu", &dev) != ACCEL_SUCCESS) {
        fprintf(stderr, "FAIL: setup: %s\n", accel_last_error());
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    static const char *const bad[] = {"nan", "inf", "-5", "soon"};
    int failures = 0;
    for (size_t i = 0; i < sizeof bad / sizeof *bad + 1; i++) {
        bool good = i == sizeof bad / sizeof *bad;
        const char *v = good ? "0" : bad[i];
        setenv("ACCEL_MPI_TIMEOUT", v, 1);
        seen[0] = '\0';
        accel_comm *comm = NULL;
        if (accel_comm_create(MPI_COMM_WORLD, dev, NULL, &comm) != ACCEL_SUCCESS) {
            fprintf(stderr, "FAIL: ACCEL_MPI_TIMEOUT=%s: %s\n", v, accel_last_error());
            failures++;
            continue;
        }
        char want[128];
        snprintf(want, sizeof want, "ACCEL_MPI_TIMEOUT=%s is not a number of seconds >= 0", v);
        bool warned = strstr(seen, want) != NULL;
        if (warned == good) {
            fprintf(stderr, "FAIL: ACCEL_MPI_TIMEOUT=%s: %s (log: \"%s\")\n", v,
                    good ? "warned" : "no warning", seen);
            failures++;
        }
        accel_comm_release(comm);
    }
    accel_runtime_close(rt);
    MPI_Finalize();
    if (failures)
        return 1;
    printf("PASS\n");
    return 0;
}
