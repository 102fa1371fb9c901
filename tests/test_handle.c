/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_handle.c — handle lifetimes (core/base/handle.c): a released handle stays
 * refused when the allocator hands its memory to the next object, handles
 * of two runtimes never mix in one call, closing a runtime while other
 * threads still call into it is an error status for them (no use after
 * free), and a runtime of the parent refuses calls in a forked child while
 * a runtime opened in the child works. Values are checked against plain
 * loops. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

#define REUSE_ROUNDS 200 /* creations after a release, each a chance to reuse its memory */

/* The CPU backend alone, from one config file per process. Released
 * handles log warnings by design; only errors are shown. */
static const char *cpu_ini;

static accel_runtime *open_cpu(void)
{
    accel_set_log_level(ACCEL_LOG_ERROR);
    if (!cpu_ini)
        cpu_ini = tu_write_file(tu_tmpdir(), "cpu.ini",
                                tu_fmt("[runtime]\norder = cpu\n[backend.cpu]\nlibrary = %s\n"
                                       "threads = 2\n",
                                       TU_CPU_PLUGIN));
    accel_runtime *rt = NULL;
    accel_status st = accel_runtime_open(cpu_ini, &rt);
    cr_assert(st == ACCEL_SUCCESS, "open: %s", accel_last_error());
    return rt;
}

static accel_device *cpu_of(accel_runtime *rt)
{
    accel_device *dev = NULL;
    tu_ok(accel_device_get_by_name(rt, "cpu", &dev));
    return dev;
}

#define expect_status(call, expected)                                                              \
    do {                                                                                           \
        accel_status st_ = (call);                                                                 \
        cr_assert(st_ == (expected), "%s: got %s, expected %s (\"%s\")", #call,                    \
                  accel_status_name(st_), accel_status_name(expected), accel_last_error());        \
    } while (0)

/* A released buffer: every later buffer of the same size is a chance for
 * the allocator to reuse its memory; the old handle is refused each time
 * and never reaches the new buffer. */
Test(handle, released_buffer_stays_released_when_memory_is_reused)
{
    accel_runtime *rt = open_cpu();
    accel_device *dev = cpu_of(rt);
    accel_queue *q;
    tu_ok(accel_queue_create(dev, &q));
    float ones[4] = {1, 1, 1, 1}, got[4];
    for (int round = 0; round < REUSE_ROUNDS; round++) {
        accel_buffer *old, *fresh;
        tu_ok(accel_buffer_create(dev, sizeof ones, &old));
        tu_ok(accel_queue_write_blocking(q, old, 0, ones, sizeof ones));
        accel_buffer_release(old);
        tu_ok(accel_buffer_create(dev, sizeof ones, &fresh));
        cr_assert(fresh != old, "round %d: a new buffer got the released handle's value", round);
        float sevens[4] = {7, 7, 7, 7};
        tu_ok(accel_queue_write_blocking(q, fresh, 0, sevens, sizeof sevens));
        /* Through the released handle: refused, and the new buffer keeps 7. */
        expect_status(accel_queue_write_blocking(q, old, 0, ones, sizeof ones),
                      ACCEL_ERROR_INVALID_HANDLE);
        cr_assert(strstr(accel_last_error(), "not a live buffer"), "%s", accel_last_error());
        expect_status(accel_fill(q, ACCEL_F32, 3.0, accel_slice_of(old, 0, 4)),
                      ACCEL_ERROR_INVALID_HANDLE);
        cr_assert_eq(accel_buffer_size(old), 0);
        cr_assert_null(accel_buffer_device(old));
        accel_buffer_release(old); /* a second release: a warning, not the new buffer */
        tu_ok(accel_queue_read_blocking(q, fresh, 0, got, sizeof got));
        for (int i = 0; i < 4; i++)
            cr_assert(got[i] == 7.0f, "round %d: element %d of the new buffer is %g", round, i,
                      (double)got[i]);
        cr_assert_eq(accel_buffer_size(fresh), sizeof ones);
        accel_buffer_release(fresh);
    }
    accel_queue_release(q);
    accel_runtime_close(rt);
}

Test(handle, released_queue_and_event_stay_released)
{
    accel_runtime *rt = open_cpu();
    accel_device *dev = cpu_of(rt);
    accel_buffer *b;
    tu_ok(accel_buffer_create(dev, 16, &b));
    for (int round = 0; round < REUSE_ROUNDS; round++) {
        accel_queue *oq, *nq;
        accel_event *oe, *ne;
        tu_ok(accel_queue_create(dev, &oq));
        tu_ok(accel_event_create(dev, &oe));
        accel_queue_release(oq);
        accel_event_release(oe);
        tu_ok(accel_queue_create(dev, &nq));
        tu_ok(accel_event_create(dev, &ne));
        cr_assert(nq != oq && ne != oe, "round %d: a handle value came back", round);
        expect_status(accel_queue_finish(oq), ACCEL_ERROR_INVALID_HANDLE);
        expect_status(accel_fill(oq, ACCEL_F32, 1.0, accel_slice_of(b, 0, 4)),
                      ACCEL_ERROR_INVALID_HANDLE);
        expect_status(accel_event_record(oe, nq), ACCEL_ERROR_INVALID_HANDLE);
        expect_status(accel_event_record(ne, oq), ACCEL_ERROR_INVALID_HANDLE);
        cr_assert_null(accel_queue_device(oq));
        accel_queue_release(oq); /* warnings only: nq and ne stay usable */
        accel_event_release(oe);
        tu_ok(accel_event_record(ne, nq));
        tu_ok(accel_event_synchronize(ne));
        tu_ok(accel_queue_finish(nq));
        accel_queue_release(nq);
        accel_event_release(ne);
    }
    accel_buffer_release(b);
    accel_runtime_close(rt);
}

/* A closed runtime's handles, its devices' included, are refused after a
 * new runtime has been opened (which may get the same memory). */
Test(handle, closed_runtime_and_its_devices_stay_closed)
{
    for (int round = 0; round < 20; round++) {
        accel_runtime *old = open_cpu();
        accel_device *old_dev = cpu_of(old);
        accel_runtime_close(old);
        accel_runtime *rt = open_cpu();
        accel_device *dev = cpu_of(rt);
        cr_assert(rt != old && dev != old_dev);
        cr_assert_eq(accel_device_count(old), 0);
        accel_device *d = (accel_device *)1;
        expect_status(accel_device_get(old, 0, &d), ACCEL_ERROR_INVALID_HANDLE);
        accel_buffer *b = NULL;
        expect_status(accel_buffer_create(old_dev, 16, &b), ACCEL_ERROR_INVALID_HANDLE);
        cr_assert_null(b);
        cr_assert_str_eq(accel_device_name(old_dev), "");
        accel_runtime_close(old); /* a warning; rt stays open */
        cr_assert_eq(accel_device_count(rt), 1);
        accel_queue *q;
        tu_ok(accel_queue_create(dev, &q));
        tu_ok(accel_queue_finish(q));
        accel_runtime_close(rt);
    }
}

/* Handles are not addresses: a pointer to memory, or an arbitrary value, is
 * refused without being read. */
Test(handle, values_that_were_never_handles)
{
    accel_runtime *rt = open_cpu();
    accel_device *dev = cpu_of(rt);
    accel_queue *q;
    tu_ok(accel_queue_create(dev, &q));
    char junk[256];
    memset(junk, 0xff, sizeof junk);
    uintptr_t values[] = {
        (uintptr_t)junk,     (uintptr_t)&rt,   1,
        0xffffffffffffffffu, (uintptr_t)q ^ 1, (uintptr_t)q + ((uintptr_t)1 << 32)};
    for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
        accel_buffer *b = (accel_buffer *)values[i];
        expect_status(accel_fill(q, ACCEL_F32, 1.0, accel_slice_of(b, 0, 1)),
                      ACCEL_ERROR_INVALID_HANDLE);
        expect_status(accel_queue_finish((accel_queue *)values[i]), ACCEL_ERROR_INVALID_HANDLE);
        cr_assert_eq(accel_buffer_size(b), 0);
    }
    accel_queue_release(q);
    accel_runtime_close(rt);
}

/* ------------------------------------------------ two runtimes, one call */

Test(handle, handles_of_two_runtimes_never_meet_in_one_call)
{
    accel_runtime *r1 = open_cpu(), *r2 = open_cpu();
    accel_device *d1 = cpu_of(r1), *d2 = cpu_of(r2);
    accel_queue *q1, *q2;
    accel_buffer *b1, *b2;
    accel_event *e1, *e2;
    tu_ok(accel_queue_create(d1, &q1));
    tu_ok(accel_queue_create(d2, &q2));
    tu_ok(accel_buffer_create(d1, 64, &b1));
    tu_ok(accel_buffer_create(d2, 64, &b2));
    tu_ok(accel_event_create(d1, &e1));
    tu_ok(accel_event_create(d2, &e2));
    float x[16];
    for (int i = 0; i < 16; i++)
        x[i] = (float)i;
    tu_ok(accel_queue_write_blocking(q1, b1, 0, x, sizeof x));
    tu_ok(accel_queue_write_blocking(q2, b2, 0, x, sizeof x));

    expect_status(accel_queue_copy(q1, b2, 0, b1, 0, 64), ACCEL_ERROR_DEVICE_MISMATCH);
    cr_assert(strstr(accel_last_error(), "runtime #"), "%s", accel_last_error());
    cr_assert(strstr(accel_last_error(), "src"), "%s", accel_last_error());
    expect_status(accel_queue_copy(q1, b1, 0, b2, 0, 64), ACCEL_ERROR_DEVICE_MISMATCH);
    expect_status(accel_queue_write(q1, b2, 0, x, 64), ACCEL_ERROR_DEVICE_MISMATCH);
    expect_status(accel_queue_read(q2, b1, 0, x, 64), ACCEL_ERROR_DEVICE_MISMATCH);
    expect_status(accel_add(q1, ACCEL_F32, accel_slice_of(b1, 0, 16), accel_slice_of(b2, 0, 16),
                            accel_slice_of(b1, 0, 16)),
                  ACCEL_ERROR_DEVICE_MISMATCH);
    cr_assert(strstr(accel_last_error(), "b.buffer belongs to runtime #"), "%s",
              accel_last_error());
    cr_assert(!strstr(accel_last_error(), "is on cpu:0 but q is on cpu:0"), "%s",
              accel_last_error());
    expect_status(accel_event_record(e1, q2), ACCEL_ERROR_DEVICE_MISMATCH);
    expect_status(accel_queue_wait_event(q1, e2), ACCEL_ERROR_DEVICE_MISMATCH);
    tu_ok(accel_event_record(e1, q1));
    tu_ok(accel_event_record(e2, q2));
    tu_ok(accel_event_synchronize(e1));
    tu_ok(accel_event_synchronize(e2));
    double ms;
    expect_status(accel_event_elapsed_ms(e1, e2, &ms), ACCEL_ERROR_DEVICE_MISMATCH);

    /* The refused copy left b1 as it was; closing r2 cannot reach r1's work. */
    accel_runtime_close(r2);
    float got[16];
    tu_ok(accel_queue_read_blocking(q1, b1, 0, got, sizeof got));
    for (int i = 0; i < 16; i++)
        cr_assert(got[i] == (float)i, "b1[%d] = %g", i, (double)got[i]);
    accel_runtime_close(r1);
}

/* ------------------------------------------- close while others enqueue */

typedef struct enqueuer {
    accel_queue *q;
    accel_buffer *b;
    atomic_int *started;
    accel_status last;
    long ops;
} enqueuer;

static void *enqueue_until_refused(void *arg)
{
    enqueuer *e = arg;
    atomic_fetch_add(e->started, 1);
    for (;;) {
        accel_status st = accel_add(e->q, ACCEL_F32, accel_slice_of(e->b, 0, 256),
                                    accel_slice_of(e->b, 256, 256), accel_slice_of(e->b, 0, 256));
        if (st == ACCEL_SUCCESS && (e->ops % 64) == 0)
            st = accel_queue_finish(e->q);
        if (st != ACCEL_SUCCESS) {
            e->last = st;
            return NULL;
        }
        e->ops++;
    }
}

Test(handle, close_while_other_threads_enqueue_is_an_error_for_them, .timeout = 120)
{
    for (int round = 0; round < 5; round++) {
        accel_runtime *rt = open_cpu();
        accel_device *dev = cpu_of(rt);
        enum { T = 4 };
        enqueuer e[T];
        pthread_t th[T];
        atomic_int started = 0;
        for (int i = 0; i < T; i++) {
            memset(&e[i], 0, sizeof e[i]);
            tu_ok(accel_queue_create(dev, &e[i].q));
            tu_ok(accel_buffer_create(dev, 512 * sizeof(float), &e[i].b));
            tu_ok(accel_fill(e[i].q, ACCEL_F32, 0.0, accel_slice_of(e[i].b, 0, 512)));
            e[i].started = &started;
            cr_assert_eq(pthread_create(&th[i], NULL, enqueue_until_refused, &e[i]), 0);
        }
        while (atomic_load(&started) < T)
            sched_yield();
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
        accel_runtime_close(rt); /* waits for the calls in flight; later ones are refused */
        for (int i = 0; i < T; i++) {
            pthread_join(th[i], NULL);
            cr_assert(e[i].last == ACCEL_ERROR_INVALID_HANDLE,
                      "round %d thread %d: after %ld ops got %s", round, i, e[i].ops,
                      accel_status_name(e[i].last));
        }
    }
}

/* ---------------------------------------------------------------- fork */

static void child_check(bool ok, int code)
{
    if (!ok)
        _exit(code);
}

Test(handle, fork_parent_runtime_refused_child_runtime_works, .timeout = 120)
{
    accel_runtime *rt = open_cpu();
    accel_device *dev = cpu_of(rt);
    accel_queue *q;
    accel_buffer *b;
    tu_ok(accel_queue_create(dev, &q));
    tu_ok(accel_buffer_create(dev, 64 * sizeof(float), &b));
    tu_ok(accel_fill(q, ACCEL_F32, 2.0, accel_slice_of(b, 0, 64)));
    tu_ok(accel_queue_finish(q));

    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        alarm(60); /* a hang would end the child with SIGALRM */
        accel_status st = accel_add(q, ACCEL_F32, accel_slice_of(b, 0, 32),
                                    accel_slice_of(b, 32, 32), accel_slice_of(b, 0, 32));
        child_check(st == ACCEL_ERROR_UNAVAILABLE, 10);
        child_check(strstr(accel_last_error(), "after fork") != NULL, 11);
        child_check(strstr(accel_last_error(), "open a new one in the child") != NULL, 12);
        child_check(accel_queue_finish(q) == ACCEL_ERROR_UNAVAILABLE, 13);
        accel_buffer_release(b); /* refused with a warning, never waits for the parent's queues */
        accel_queue_release(q);
        accel_runtime_close(rt);

        accel_runtime *crt = NULL;
        child_check(accel_runtime_open(cpu_ini, &crt) == ACCEL_SUCCESS, 20);
        accel_device *cdev = NULL;
        child_check(accel_device_default(crt, &cdev) == ACCEL_SUCCESS, 21);
        accel_queue *cq;
        accel_buffer *cb;
        child_check(accel_queue_create(cdev, &cq) == ACCEL_SUCCESS, 22);
        child_check(accel_buffer_create(cdev, 1000 * sizeof(float), &cb) == ACCEL_SUCCESS, 23);
        float x[1000], got[500];
        for (int i = 0; i < 1000; i++)
            x[i] = (float)(i % 17) * 0.25f;
        child_check(accel_queue_write_blocking(cq, cb, 0, x, sizeof x) == ACCEL_SUCCESS, 24);
        child_check(accel_add(cq, ACCEL_F32, accel_slice_of(cb, 0, 500),
                              accel_slice_of(cb, 500, 500),
                              accel_slice_of(cb, 0, 500)) == ACCEL_SUCCESS,
                    25);
        child_check(accel_queue_read_blocking(cq, cb, 0, got, sizeof got) == ACCEL_SUCCESS, 26);
        for (int i = 0; i < 500; i++)
            child_check(got[i] == x[i] + x[500 + i], 27); /* exact: quarters */
        accel_buffer_release(cb); /* waits for the child's own queues only */
        accel_queue_release(cq);
        accel_runtime_close(crt);
        _exit(0);
    }
    int status = 0;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status), "the child died (signal %d; SIGALRM=%d means it hung)",
              WIFSIGNALED(status) ? WTERMSIG(status) : 0, SIGALRM);
    cr_assert_eq(WEXITSTATUS(status), 0, "child check %d failed", WEXITSTATUS(status));
    /* The parent's runtime is untouched by the child. */
    float got[64];
    tu_ok(accel_queue_read_blocking(q, b, 0, got, sizeof got));
    for (int i = 0; i < 64; i++)
        cr_assert(got[i] == 2.0f);
    accel_runtime_close(rt);
}
