/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* stress_release.c — releases racing calls, per object type, as accel.h
 * promises for every handle: a call that starts after the release gets
 * ACCEL_ERROR_INVALID_HANDLE, one already under way finishes or fails
 * cleanly, and nothing is used after it was freed.
 *   queue:  a thread enqueues ops, copies and finishes while another
 *           releases the queue;
 *   event:  threads record, query, synchronize and wait on an event (the
 *           synchronize waiting for a slow host function) while it is
 *           released: the waits end, nothing hangs;
 *   kernel: a thread launches while another releases the kernel;
 *   graph:  a thread launches a captured graph while another releases it.
 * Each race runs ROUNDS times with the release landing after a varying
 * number of calls. A plain program like stress_concurrency (Criterion does
 * not start under ThreadSanitizer); the tsan and debug-asan presets run it.
 * alarm() turns a hang into a failure. Every value is a small integer, so
 * f32 results are exact. */
#define _XOPEN_SOURCE 700
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "accel/accel.h"
#include "accel/graph.h"
#include "accel/kernel.h"

#define ROUNDS 60
#define LEN 1024

static accel_runtime *rt;
static accel_device *dev;
static char config_path[4096];
static char cache_dir[4096];

#define REQUIRE(cond, ...)                                                                         \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "stress_release: FAILED: " __VA_ARGS__);                               \
            fprintf(stderr, " (%s:%d; last error: %s)\n", __FILE__, __LINE__, accel_last_error()); \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)
#define OK(call) REQUIRE((call) == ACCEL_SUCCESS, "%s", #call)

static void cleanup(void)
{
    unlink(config_path);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "stress_release: could not remove %s\n", cache_dir);
}

static void setup(void)
{
    unsetenv("ACCEL_CONFIG");
    unsetenv("ACCEL_BACKEND");
    const char *tmp = getenv("TMPDIR");
    tmp = tmp && *tmp ? tmp : "/tmp";
    snprintf(cache_dir, sizeof cache_dir, "%s/accel-release-XXXXXX", tmp);
    REQUIRE(mkdtemp(cache_dir) != NULL, "mkdtemp %s", cache_dir);
    setenv("ACCEL_KERNEL_CACHE", cache_dir, 1);
    snprintf(config_path, sizeof config_path, "%s/accel-release-XXXXXX", tmp);
    int fd = mkstemp(config_path);
    REQUIRE(fd >= 0, "mkstemp %s", config_path);
    atexit(cleanup);
    FILE *f = fdopen(fd, "w");
    REQUIRE(f != NULL, "fdopen");
    const char *threads = getenv("ACCEL_TEST_CPU_THREADS");
    fprintf(f, "[runtime]\norder = cpu\n[backend.cpu]\nlibrary = %s\nthreads = %s\n",
            ACCEL_TEST_PLUGIN_CONFIG_DIR "/libaccel_cpu.so", threads && *threads ? threads : "2");
    fclose(f);
    OK(accel_runtime_open(config_path, &rt));
    OK(accel_device_get_by_name(rt, "cpu:0", &dev));
}

/* A refusal must be INVALID_HANDLE and say why. */
static void expect_refused(accel_status st, const char *msg, const char *what, int round)
{
    REQUIRE(st == ACCEL_ERROR_INVALID_HANDLE,
            "%s, round %d: a call racing the release gave %s (%s)", what, round,
            accel_status_name(st), msg);
    REQUIRE(strstr(msg, "not a live") || strstr(msg, "released by another thread"),
            "%s, round %d: message \"%s\"", what, round, msg);
}

typedef struct racer {
    void *obj;      /* the object being released */
    accel_queue *q; /* a queue that lives on (kernel and graph races) */
    accel_buffer *a, *b;
    float *host;
    atomic_int calls;
    atomic_bool finished;
    accel_status st;
    char message[512];
} racer;

static void racer_done(racer *r, accel_status st)
{
    r->st = st;
    snprintf(r->message, sizeof r->message, "%s", accel_last_error());
    atomic_store(&r->finished, true);
}

/* Wait until r made `after` calls (or stopped), then release with fn. */
static void release_after(racer *r, int after)
{
    while (atomic_load(&r->calls) < after && !atomic_load(&r->finished))
        sched_yield();
}

/* ------------------------------------------------------------ queues */

static void *queue_calls(void *arg)
{
    racer *r = arg;
    accel_queue *q = r->obj;
    accel_status st = ACCEL_SUCCESS;
    accel_slice a = accel_slice_of(r->a, 0, LEN), b = accel_slice_of(r->b, 0, LEN);
    for (unsigned k = 0; st == ACCEL_SUCCESS; ++k) {
        switch (k % 5) {
        case 0:
            st = accel_add(q, ACCEL_F32, a, a, b);
            break;
        case 1:
            st = accel_queue_copy(q, r->b, 0, r->a, 0, LEN * sizeof(float));
            break;
        case 2:
            st = accel_queue_read(q, r->a, 0, r->host, LEN * sizeof(float));
            break;
        case 3:
            st = accel_fill(q, ACCEL_F32, 1.0, a);
            break;
        default:
            st = accel_queue_finish(q);
            break;
        }
        if (st == ACCEL_SUCCESS)
            atomic_fetch_add(&r->calls, 1);
    }
    racer_done(r, st);
    return NULL;
}

static void queues_released_while_used(void)
{
    float host[LEN];
    accel_buffer *a, *b;
    OK(accel_buffer_create(dev, sizeof host, &a));
    OK(accel_buffer_create(dev, sizeof host, &b));
    for (int round = 0; round < ROUNDS; round++) {
        accel_queue *q;
        OK(accel_queue_create(dev, &q));
        racer r = {q, NULL, a, b, host, 0, false, ACCEL_SUCCESS, ""};
        pthread_t t;
        REQUIRE(pthread_create(&t, NULL, queue_calls, &r) == 0, "pthread_create");
        release_after(&r, round % 13);
        accel_queue_release(q);
        pthread_join(t, NULL);
        expect_refused(r.st, r.message, "queue", round);
    }
    accel_buffer_release(a);
    accel_buffer_release(b);
    printf("queue: %d releases raced enqueues and finishes; every call enqueued or refused\n",
           ROUNDS);
}

/* ------------------------------------------------------------ events */

static accel_status slow_fn(void *user, char *message, size_t size)
{
    (void)user, (void)message, (void)size;
    struct timespec ts = {0, 2 * 1000 * 1000};
    nanosleep(&ts, NULL);
    return ACCEL_SUCCESS;
}

static void *event_calls(void *arg)
{
    racer *r = arg;
    accel_event *ev = r->obj;
    accel_status st = ACCEL_SUCCESS;
    for (unsigned k = 0; st == ACCEL_SUCCESS; ++k) {
        bool done = false;
        double ms = 0;
        switch (k % 5) {
        case 0:
            st = accel_queue_host_fn(r->q, "slow", slow_fn, NULL);
            if (st == ACCEL_SUCCESS)
                st = accel_event_record(ev, r->q);
            break;
        case 1:
            st = accel_event_synchronize(ev);
            break;
        case 2:
            st = accel_event_query(ev, &done);
            break;
        case 3:
            st = accel_queue_wait_event(r->q, ev);
            break;
        default:
            /* "not complete" is a fine answer here; a dead handle is not */
            st = accel_event_elapsed_ms(ev, ev, &ms);
            if (st != ACCEL_ERROR_INVALID_HANDLE)
                st = ACCEL_SUCCESS;
            break;
        }
        if (st == ACCEL_SUCCESS)
            atomic_fetch_add(&r->calls, 1);
    }
    racer_done(r, st);
    return NULL;
}

static void events_released_while_waited_on(void)
{
    accel_queue *q;
    OK(accel_queue_create(dev, &q));
    for (int round = 0; round < ROUNDS; round++) {
        accel_event *ev;
        OK(accel_event_create(dev, &ev));
        racer r[2] = {{ev, q, NULL, NULL, NULL, 0, false, ACCEL_SUCCESS, ""},
                      {ev, q, NULL, NULL, NULL, 0, false, ACCEL_SUCCESS, ""}};
        pthread_t t[2];
        for (int i = 0; i < 2; i++)
            REQUIRE(pthread_create(&t[i], NULL, event_calls, &r[i]) == 0, "pthread_create");
        release_after(&r[0], round % 7);
        accel_event_release(ev);
        for (int i = 0; i < 2; i++) {
            pthread_join(t[i], NULL);
            expect_refused(r[i].st, r[i].message, "event", round);
        }
    }
    OK(accel_queue_finish(q));
    accel_queue_release(q);
    printf("event: %d releases raced records, synchronizes and waits; none hung\n", ROUNDS);
}

/* ------------------------------------------------------------ kernels */

static void *kernel_calls(void *arg)
{
    racer *r = arg;
    accel_kernel *k = r->obj;
    accel_status st = ACCEL_SUCCESS;
    accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(r->a, 0, LEN)),
                               accel_karg_array(accel_slice_of(r->a, 0, LEN)),
                               accel_karg_array(accel_slice_of(r->b, 0, LEN))};
    while (st == ACCEL_SUCCESS) {
        st = accel_kernel_launch(r->q, k, 3, args);
        if (st == ACCEL_SUCCESS)
            atomic_fetch_add(&r->calls, 1);
    }
    racer_done(r, st);
    return NULL;
}

static void kernels_released_while_launched(void)
{
    accel_queue *q;
    accel_buffer *a, *b;
    OK(accel_queue_create(dev, &q));
    OK(accel_buffer_create(dev, LEN * sizeof(float), &a));
    OK(accel_buffer_create(dev, LEN * sizeof(float), &b));
    OK(accel_fill(q, ACCEL_F32, 3.0, accel_slice_of(a, 0, LEN)));
    for (int round = 0; round < ROUNDS; round++) {
        accel_kernel *k;
        OK(accel_kernel_elementwise_create(rt, "add2", "float32 x, float32 y", "float32 z",
                                           "z = x + y", NULL, &k));
        racer r = {k, q, a, b, NULL, 0, false, ACCEL_SUCCESS, ""};
        pthread_t t;
        REQUIRE(pthread_create(&t, NULL, kernel_calls, &r) == 0, "pthread_create");
        release_after(&r, round % 9);
        accel_kernel_release(k);
        pthread_join(t, NULL);
        expect_refused(r.st, r.message, "kernel", round);
    }
    float got[LEN];
    OK(accel_queue_read_blocking(q, b, 0, got, sizeof got));
    for (int i = 0; i < LEN; i++)
        REQUIRE(got[i] == 6.0f, "kernel: z[%d] = %g, expected 6", i, (double)got[i]);
    accel_buffer_release(a), accel_buffer_release(b);
    accel_queue_release(q);
    printf("kernel: %d releases raced launches; z = 6 throughout\n", ROUNDS);
}

/* ------------------------------------------------------------ graphs */

static void *graph_calls(void *arg)
{
    racer *r = arg;
    accel_graph *g = r->obj;
    accel_status st = ACCEL_SUCCESS;
    while (st == ACCEL_SUCCESS) {
        st = atomic_load(&r->calls) % 3 == 2 ? accel_queue_finish(r->q)
                                             : accel_graph_launch(g, r->q);
        if (st == ACCEL_SUCCESS)
            atomic_fetch_add(&r->calls, 1);
        if (st == ACCEL_SUCCESS && accel_graph_node_count(g) != 2)
            st = ACCEL_ERROR_INTERNAL;
    }
    racer_done(r, st);
    return NULL;
}

static void graphs_released_while_launched(void)
{
    accel_queue *q;
    accel_buffer *a, *b;
    OK(accel_queue_create(dev, &q));
    OK(accel_buffer_create(dev, LEN * sizeof(float), &a));
    OK(accel_buffer_create(dev, LEN * sizeof(float), &b));
    accel_slice sa = accel_slice_of(a, 0, LEN), sb = accel_slice_of(b, 0, LEN);
    OK(accel_fill(q, ACCEL_F32, 2.0, sa));
    OK(accel_fill(q, ACCEL_F32, 4.0, sb));
    for (int round = 0; round < ROUNDS; round++) {
        accel_graph *g;
        OK(accel_queue_begin_capture(q));
        OK(accel_fill(q, ACCEL_F32, 2.0, sa));
        OK(accel_add(q, ACCEL_F32, sa, sa, sb));
        OK(accel_queue_end_capture(q, &g));
        racer r = {g, q, a, b, NULL, 0, false, ACCEL_SUCCESS, ""};
        pthread_t t;
        REQUIRE(pthread_create(&t, NULL, graph_calls, &r) == 0, "pthread_create");
        release_after(&r, round % 9);
        accel_graph_release(g);
        pthread_join(t, NULL);
        /* node_count of a released graph is 0, which the loop reports as
         * INTERNAL when it lands between the launch and the count. */
        if (r.st == ACCEL_ERROR_INTERNAL)
            continue;
        expect_refused(r.st, r.message, "graph", round);
    }
    OK(accel_queue_finish(q));
    float got[LEN];
    OK(accel_queue_read_blocking(q, b, 0, got, sizeof got));
    for (int i = 0; i < LEN; i++)
        REQUIRE(got[i] == 4.0f, "graph: b[%d] = %g, expected 4", i, (double)got[i]);
    accel_buffer_release(a), accel_buffer_release(b);
    accel_queue_release(q);
    printf("graph: %d releases raced launches; every launch enqueued or refused\n", ROUNDS);
}

int main(void)
{
    alarm(240);
    setup();
    queues_released_while_used();
    events_released_while_waited_on();
    kernels_released_while_launched();
    graphs_released_while_launched();
    accel_runtime_close(rt);
    printf("stress_release: passed\n");
    return 0;
}
