/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_buffer.c — core/base/buffer.c's release against other threads' calls on
 * the same buffer: a call that resolved the buffer before the release began
 * has its work enqueued before the memory is freed (the release waits for
 * it), and a call that resolves it after gets ACCEL_ERROR_INVALID_HANDLE;
 * never a use of freed memory.
 *
 * The deterministic cases hold an op between its resolve and its enqueue:
 * the faulty test plugin with `log_supported = true` logs from op_supported,
 * which accel__submit calls in that window, and this suite's log callback
 * blocks the op's thread there until the test lets it go. The plugin also
 * overwrites a freed buffer's memory, so work on freed memory shows in the
 * values even without AddressSanitizer. A graph launch is held the same
 * way (its core replay goes through the op path). The stress case races transfers,
 * copies and ops on the CPU backend's asynchronous queues against release. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "accel/accel.h"
#include "accel/graph.h"
#include "accel/kernel.h"
#include "test_util.h"

#define N 64

/* ------------------------------------------------------- the held op */

/* The op thread sets held_here before its call; the log callback then
 * blocks that thread inside op_supported until go. */
static _Thread_local bool held_here;
/* Or, with release_here set, the callback releases that buffer itself. */
static _Thread_local accel_buffer *release_here;
static pthread_mutex_t hold_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hold_cv = PTHREAD_COND_INITIALIZER;
static bool in_window, go;
static atomic_int release_warnings;

static void on_log(int level, const char *message, void *user)
{
    (void)user;
    if (level >= ACCEL_LOG_WARN && strstr(message, "accel_buffer_release"))
        atomic_fetch_add(&release_warnings, 1);
    if (release_here && strstr(message, "faulty: op_supported")) {
        accel_buffer *b = release_here;
        release_here = NULL;
        accel_buffer_release(b);
        return;
    }
    if (!held_here || !strstr(message, "faulty: op_supported"))
        return;
    held_here = false;
    pthread_mutex_lock(&hold_mu);
    in_window = true;
    pthread_cond_broadcast(&hold_cv);
    while (!go)
        pthread_cond_wait(&hold_cv, &hold_mu);
    pthread_mutex_unlock(&hold_mu);
}

static void wait_in_window(void)
{
    pthread_mutex_lock(&hold_mu);
    while (!in_window)
        pthread_cond_wait(&hold_cv, &hold_mu);
    pthread_mutex_unlock(&hold_mu);
}

static void let_go(void)
{
    pthread_mutex_lock(&hold_mu);
    go = true;
    pthread_cond_broadcast(&hold_cv);
    pthread_mutex_unlock(&hold_mu);
}

typedef struct held_add {
    accel_queue *q;
    accel_buffer *a, *b, *out;
    accel_status st;
    char message[512];
} held_add;

static void *held_add_main(void *arg)
{
    held_add *h = arg;
    held_here = true;
    h->st = accel_add(h->q, ACCEL_F32, accel_slice_of(h->a, 0, N), accel_slice_of(h->b, 0, N),
                      accel_slice_of(h->out, 0, N));
    snprintf(h->message, sizeof h->message, "%s", accel_last_error());
    return NULL;
}

typedef struct releaser {
    accel_buffer *buf;
    atomic_bool done;
} releaser;

static void *releaser_main(void *arg)
{
    releaser *r = arg;
    accel_buffer_release(r->buf);
    atomic_store(&r->done, true);
    return NULL;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* The faulty backend (no fault) with op_supported logging, and the log
 * routed to on_log. */
static accel_runtime *open_held(accel_device **dev, accel_queue **q)
{
    accel_runtime *rt = NULL;
    accel_status s = tu_open_ini(tu_fmt("[runtime]\norder = faulty, cpu\nselftest = false\n"
                                        "[backend.faulty]\nlibrary = %s\nlog_supported = true\n"
                                        "[backend.cpu]\nlibrary = %s\n",
                                        TU_TEST_PLUGIN("faulty"), TU_CPU_PLUGIN),
                                 &rt, NULL);
    cr_assert(s == ACCEL_SUCCESS, "open: %s", accel_last_error());
    tu_ok(accel_device_get_by_name(rt, "faulty:0", dev));
    tu_ok(accel_queue_create(*dev, q));
    in_window = go = false;
    atomic_store(&release_warnings, 0);
    accel_set_log_level(ACCEL_LOG_DEBUG);
    accel_set_log_callback(on_log, NULL);
    return rt;
}

static accel_buffer *filled(accel_device *dev, accel_queue *q, float scale)
{
    accel_buffer *b = NULL;
    tu_ok(accel_buffer_create(dev, N * sizeof(float), &b));
    float host[N];
    for (int i = 0; i < N; i++)
        host[i] = scale * (float)i;
    tu_ok(accel_queue_write_blocking(q, b, 0, host, sizeof host));
    return b;
}

/* Until buf's handle is dead (the release has begun), at most 10 s. */
static void wait_dead(const accel_buffer *buf)
{
    for (int i = 0; i < 10000 && accel_buffer_size(buf) != 0; i++)
        sleep_ms(1);
    cr_assert_eq(accel_buffer_size(buf), 0, "the release never killed the handle");
}

Test(buffer, release_waits_for_a_call_that_resolved_the_buffer)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = open_held(&dev, &q);
    accel_buffer *a = filled(dev, q, 1.0f), *b = filled(dev, q, 2.0f), *out = filled(dev, q, 0);

    held_add h = {q, a, b, out, ACCEL_ERROR_INTERNAL, ""};
    pthread_t op_thread, rel_thread;
    cr_assert_eq(pthread_create(&op_thread, NULL, held_add_main, &h), 0);
    wait_in_window(); /* accel_add has resolved a and is held before its enqueue */
    releaser r = {a, false};
    cr_assert_eq(pthread_create(&rel_thread, NULL, releaser_main, &r), 0);
    wait_dead(a);

    /* While the release waits, a new call on the buffer is refused. */
    accel_status st = accel_add(q, ACCEL_F32, accel_slice_of(a, 0, N), accel_slice_of(b, 0, N),
                                accel_slice_of(out, 0, N));
    cr_expect_eq(st, ACCEL_ERROR_INVALID_HANDLE, "got %s", accel_status_name(st));
    cr_expect(strstr(accel_last_error(), "accel_add: a.buffer") &&
                  strstr(accel_last_error(), "not a live buffer"),
              "%s", accel_last_error());
    /* The held call still has the buffer: the release must not have freed it. */
    sleep_ms(50);
    cr_expect(!atomic_load(&r.done),
              "accel_buffer_release returned while another thread's accel_add, which had "
              "resolved the buffer, was not yet enqueued");

    let_go();
    pthread_join(op_thread, NULL);
    pthread_join(rel_thread, NULL);
    cr_expect_eq(h.st, ACCEL_SUCCESS, "the held accel_add: %s", h.message);
    float got[N];
    tu_ok(accel_queue_read_blocking(q, out, 0, got, sizeof got));
    for (int i = 0; i < N; i++)
        cr_expect_eq(got[i], 3.0f * (float)i, "out[%d] = %g, expected %g (exact)", i,
                     (double)got[i], 3.0 * i);
    cr_expect_eq(atomic_load(&release_warnings), 0);
    accel_set_log_callback(NULL, NULL);
    accel_buffer_release(b);
    accel_buffer_release(out);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

Test(buffer, two_releases_of_one_buffer_free_it_once)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = open_held(&dev, &q);
    accel_buffer *a = filled(dev, q, 1.0f), *b = filled(dev, q, 2.0f), *out = filled(dev, q, 0);

    held_add h = {q, a, b, out, ACCEL_ERROR_INTERNAL, ""};
    pthread_t op_thread, rel[2];
    cr_assert_eq(pthread_create(&op_thread, NULL, held_add_main, &h), 0);
    wait_in_window();
    releaser r[2] = {{a, false}, {a, false}};
    for (int i = 0; i < 2; i++)
        cr_assert_eq(pthread_create(&rel[i], NULL, releaser_main, &r[i]), 0);
    wait_dead(a);
    sleep_ms(50);
    /* One of them found the handle live and waits for the held call; the
     * other gave up with a warning (dead handle, or killed by the first). */
    cr_expect_eq(atomic_load(&r[0].done) + atomic_load(&r[1].done), 1,
                 "exactly one release should still wait for the held call");
    let_go();
    pthread_join(op_thread, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(rel[i], NULL);
    cr_expect_eq(h.st, ACCEL_SUCCESS, "the held accel_add: %s", h.message);
    cr_expect_eq(atomic_load(&release_warnings), 1, "warnings from accel_buffer_release: %d",
                 atomic_load(&release_warnings));
    float got[N];
    tu_ok(accel_queue_read_blocking(q, out, 0, got, sizeof got));
    for (int i = 0; i < N; i++)
        cr_expect_eq(got[i], 3.0f * (float)i, "out[%d] = %g, expected %g (exact)", i,
                     (double)got[i], 3.0 * i);
    accel_set_log_callback(NULL, NULL);
    accel_buffer_release(b);
    accel_buffer_release(out);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

/* The callback inside accel_add (on the add's thread) releases the add's
 * input: refused with a warning, not a wait for itself; the add completes
 * and the buffer stays usable until released normally. */
Test(buffer, release_from_a_callback_inside_a_call_on_the_buffer_is_refused)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = open_held(&dev, &q);
    accel_buffer *a = filled(dev, q, 1.0f), *b = filled(dev, q, 2.0f), *out = filled(dev, q, 0);
    release_here = a;
    tu_ok(accel_add(q, ACCEL_F32, accel_slice_of(a, 0, N), accel_slice_of(b, 0, N),
                    accel_slice_of(out, 0, N)));
    cr_expect_null(release_here, "the callback did not run");
    cr_expect_eq(atomic_load(&release_warnings), 1);
    cr_expect_eq(accel_buffer_size(a), N * sizeof(float), "a was released after all");
    float got[N];
    tu_ok(accel_queue_read_blocking(q, out, 0, got, sizeof got));
    for (int i = 0; i < N; i++)
        cr_expect_eq(got[i], 3.0f * (float)i, "out[%d] = %g, expected %g (exact)", i,
                     (double)got[i], 3.0 * i);
    accel_set_log_callback(NULL, NULL);
    accel_buffer_release(a);
    cr_expect_eq(accel_buffer_size(a), 0);
    accel_buffer_release(b);
    accel_buffer_release(out);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

typedef struct held_launch {
    accel_graph *g;
    accel_queue *q;
    accel_status st;
    char message[512];
} held_launch;

static void *held_launch_main(void *arg)
{
    held_launch *h = arg;
    held_here = true;
    h->st = accel_graph_launch(h->g, h->q);
    snprintf(h->message, sizeof h->message, "%s", accel_last_error());
    return NULL;
}

/* A graph launch replays its recorded add through the op path: held there,
 * it has the graph's buffers pinned, and a release of one waits for it. */
Test(buffer, release_waits_for_a_graph_launch_that_uses_the_buffer)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = open_held(&dev, &q);
    accel_buffer *a = filled(dev, q, 1.0f), *b = filled(dev, q, 2.0f), *out = filled(dev, q, 0);
    tu_ok(accel_queue_begin_capture(q));
    tu_ok(accel_add(q, ACCEL_F32, accel_slice_of(a, 0, N), accel_slice_of(b, 0, N),
                    accel_slice_of(out, 0, N)));
    accel_graph *g = NULL;
    tu_ok(accel_queue_end_capture(q, &g));

    held_launch h = {g, q, ACCEL_ERROR_INTERNAL, ""};
    pthread_t launch_thread, rel_thread;
    cr_assert_eq(pthread_create(&launch_thread, NULL, held_launch_main, &h), 0);
    wait_in_window();
    releaser r = {a, false};
    cr_assert_eq(pthread_create(&rel_thread, NULL, releaser_main, &r), 0);
    wait_dead(a);
    sleep_ms(50);
    cr_expect(!atomic_load(&r.done),
              "accel_buffer_release returned while a graph launch using the buffer was not yet "
              "enqueued");
    let_go();
    pthread_join(launch_thread, NULL);
    pthread_join(rel_thread, NULL);
    cr_expect_eq(h.st, ACCEL_SUCCESS, "the held launch: %s", h.message);
    float got[N];
    tu_ok(accel_queue_read_blocking(q, out, 0, got, sizeof got));
    for (int i = 0; i < N; i++)
        cr_expect_eq(got[i], 3.0f * (float)i, "out[%d] = %g, expected %g (exact)", i,
                     (double)got[i], 3.0 * i);
    /* The graph now names a released buffer: refused until rebound. */
    accel_status st = accel_graph_launch(g, q);
    cr_expect_eq(st, ACCEL_ERROR_INVALID_HANDLE, "got %s", accel_status_name(st));
    cr_expect(strstr(accel_last_error(), "was released"), "%s", accel_last_error());
    accel_set_log_callback(NULL, NULL);
    accel_graph_release(g);
    accel_buffer_release(b);
    accel_buffer_release(out);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

/* ------------------------------------------------------------ stress */

#define STRESS_LEN 4096
#define ROUNDS 200

typedef struct racer {
    accel_queue *q;
    accel_kernel *k; /* z = x + y */
    accel_buffer *buf, *other;
    atomic_int done_calls;
    atomic_bool finished;
    accel_status st;
    char message[512];
} racer;

static float src_host[STRESS_LEN], dst_host[STRESS_LEN];

/* Transfers, a copy, an op and a user kernel launch on buf until one is
 * refused. */
static void *racer_main(void *arg)
{
    racer *r = arg;
    accel_status st = ACCEL_SUCCESS;
    for (unsigned k = 0; st == ACCEL_SUCCESS; k++) {
        accel_slice s = accel_slice_of(r->buf, 0, STRESS_LEN);
        switch (k % 5) {
        case 0:
            st = accel_queue_write(r->q, r->buf, 0, src_host, sizeof src_host);
            break;
        case 1:
            st = accel_add(r->q, ACCEL_F32, s, s, accel_slice_of(r->other, 0, STRESS_LEN));
            break;
        case 2:
            st = accel_queue_copy(r->q, r->buf, 0, r->other, 0, sizeof src_host);
            break;
        case 3:
            st = accel_queue_read(r->q, r->buf, 0, dst_host, sizeof dst_host);
            break;
        case 4: {
            accel_kernel_arg args[] = {accel_karg_array(s), accel_karg_array(s),
                                       accel_karg_array(accel_slice_of(r->other, 0, STRESS_LEN))};
            st = accel_kernel_launch(r->q, r->k, 3, args);
            break;
        }
        }
        if (st == ACCEL_SUCCESS)
            atomic_fetch_add(&r->done_calls, 1);
    }
    r->st = st;
    snprintf(r->message, sizeof r->message, "%s", accel_last_error());
    atomic_store(&r->finished, true);
    return NULL;
}

Test(buffer, calls_racing_a_release_are_enqueued_or_refused)
{
    accel_runtime *rt = tu_open_default();
    accel_device *dev;
    tu_ok(accel_device_get_by_name(rt, "cpu:0", &dev));
    accel_queue *q;
    tu_ok(accel_queue_create(dev, &q));
    for (int i = 0; i < STRESS_LEN; i++)
        src_host[i] = (float)(i % 97);
    accel_kernel *k = NULL;
    tu_ok(accel_kernel_elementwise_create(rt, "add2", "float32 x, float32 y", "float32 z",
                                          "z = x + y", NULL, &k));
    tu_ok(accel_kernel_build(k, dev, 0));
    accel_buffer *other;
    tu_ok(accel_buffer_create(dev, sizeof src_host, &other));
    tu_ok(accel_queue_write_blocking(q, other, 0, src_host, sizeof src_host));
    for (int round = 0; round < ROUNDS; round++) {
        racer r = {q, k, NULL, other, 0, false, ACCEL_SUCCESS, ""};
        tu_ok(accel_buffer_create(dev, sizeof src_host, &r.buf));
        pthread_t t;
        cr_assert_eq(pthread_create(&t, NULL, racer_main, &r), 0);
        /* Release after a varying number of calls, so that it lands at
         * varying points of a call. */
        int after = round % 11;
        while (atomic_load(&r.done_calls) < after && !atomic_load(&r.finished))
            sched_yield();
        accel_buffer_release(r.buf);
        pthread_join(t, NULL);
        cr_assert_eq(r.st, ACCEL_ERROR_INVALID_HANDLE, "round %d: %s: %s", round,
                     accel_status_name(r.st), r.message);
        cr_assert(strstr(r.message, "not a live buffer") ||
                      strstr(r.message, "was released by another thread while this call"),
                  "round %d: %s", round, r.message);
    }
    tu_ok(accel_queue_finish(q));
    /* The queue still works, and other holds what the copies and adds left:
     * src (as written, or a copy) or 2 * src (an add or the kernel). */
    float got[STRESS_LEN];
    tu_ok(accel_queue_read_blocking(q, other, 0, got, sizeof got));
    for (int i = 0; i < STRESS_LEN; i++)
        cr_assert(got[i] == src_host[i] || got[i] == 2.0f * src_host[i],
                  "other[%d] = %g: neither src nor 2 src (src = %g)", i, (double)got[i],
                  (double)src_host[i]);
    accel_buffer_release(other);
    accel_kernel_release(k);
    accel_queue_release(q);
    accel_runtime_close(rt);
}
