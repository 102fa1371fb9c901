/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_queue_event.c — queues and events (core/base/queue.c, core/base/event.c and the
 * backends' queue implementations): ordering of two queues through an event,
 * event query/synchronize/elapsed time, blocking transfers, release and
 * close with work pending, one queue fed from several threads, copies and
 * waits across backends, and sticky asynchronous errors (through the mock
 * test backend, whose FILL with TU_MOCK_FAULT_VALUE fails after enqueue). */
#define _XOPEN_SOURCE 700
#include <criterion/criterion.h>
#include <fenv.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_util.h"

/* Long enough that the chain takes milliseconds (tens on a CPU): a missing
 * wait would read a partial result. A GPU needs more steps (an H200 runs 60
 * adds of 2^20 floats in 0.4 ms). */
#define CHAIN_N ((size_t)1 << 20)
static int chain_steps(accel_queue *q)
{
    return tu_device_is_gpu(accel_queue_device(q)) ? 2000 : 60;
}

/* On q: X = 0, then X += 1 chain_steps(q) times (f32, exact). ones must hold 1s. */
static void enqueue_chain(accel_queue *q, accel_buffer *x, accel_buffer *ones)
{
    accel_slice sx = accel_slice_of(x, 0, CHAIN_N), so = accel_slice_of(ones, 0, CHAIN_N);
    tu_ok(accel_fill(q, ACCEL_F32, 0.0, sx));
    for (int i = 0, steps = chain_steps(q); i < steps; ++i)
        tu_ok(accel_add(q, ACCEL_F32, sx, so, sx));
}

typedef struct chain_bufs {
    accel_buffer *x, *ones, *y;
    float *host;
} chain_bufs;

static chain_bufs chain_setup(accel_device *dev, accel_queue *q)
{
    chain_bufs c;
    tu_ok(accel_buffer_create(dev, CHAIN_N * 4, &c.x));
    tu_ok(accel_buffer_create(dev, CHAIN_N * 4, &c.ones));
    tu_ok(accel_buffer_create(dev, CHAIN_N * 4, &c.y));
    tu_ok(accel_fill(q, ACCEL_F32, 1.0, accel_slice_of(c.ones, 0, CHAIN_N)));
    tu_ok(accel_queue_finish(q));
    c.host = malloc(CHAIN_N * 4);
    cr_assert(c.host);
    return c;
}

static void chain_free(chain_bufs *c)
{
    accel_buffer_release(c->x);
    accel_buffer_release(c->ones);
    accel_buffer_release(c->y);
    free(c->host);
}

static void expect_all(const float *v, size_t n, double value, const char *what)
{
    for (size_t i = 0; i < n; ++i)
        cr_assert((double)v[i] == value, "%s: element %zu is %g, expected %g", what, i,
                  (double)v[i], value);
}

/* ---------------------------------------------------------------- ordering */

static void two_queues_body(accel_device *dev, accel_queue *qa, void *user)
{
    (void)user;
    accel_queue *qb;
    tu_ok(accel_queue_create(dev, &qb));
    chain_bufs c = chain_setup(dev, qa);
    accel_event *ev;
    tu_ok(accel_event_create(dev, &ev));
    enqueue_chain(qa, c.x, c.ones);
    tu_ok(accel_event_record(ev, qa));
    tu_ok(accel_queue_wait_event(qb, ev));
    tu_ok(accel_copy(qb, ACCEL_F32, accel_slice_of(c.x, 0, CHAIN_N),
                     accel_slice_of(c.y, 0, CHAIN_N)));
    tu_ok(accel_queue_read_blocking(qb, c.y, 0, c.host, CHAIN_N * 4));
    expect_all(c.host, CHAIN_N, chain_steps(qa),
               tu_fmt("queue B after waiting on A's event (%s)", accel_device_name(dev)));
    tu_ok(accel_queue_finish(qa));
    accel_event_release(ev);
    accel_queue_release(qb);
    chain_free(&c);
}

Test(queue_event, two_queues_ordered_by_an_event)
{
    accel_runtime *rt = tu_open_default();
    tu_for_each_device(rt, two_queues_body, NULL);
    accel_runtime_close(rt);
}

static void query_body(accel_device *dev, accel_queue *qa, void *user)
{
    (void)user;
    chain_bufs c = chain_setup(dev, qa);
    accel_event *start, *end;
    tu_ok(accel_event_create(dev, &start));
    tu_ok(accel_event_create(dev, &end));
    bool done = false;
    /* An event never recorded counts as done. */
    tu_ok(accel_event_query(end, &done));
    cr_assert(done, "an unrecorded event must count as done");
    tu_ok(accel_event_record(start, qa));
    enqueue_chain(qa, c.x, c.ones);
    tu_ok(accel_event_record(end, qa));
    /* Poll until done (at most 60 s), then the chain's result must be
     * visible to another queue without any further wait. */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        tu_ok(accel_event_query(end, &done));
        if (done)
            break;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        cr_assert(t1.tv_sec - t0.tv_sec < 60, "event never completed");
        struct timespec nap = {0, 200000};
        nanosleep(&nap, NULL);
    }
    accel_queue *qb;
    tu_ok(accel_queue_create(dev, &qb));
    tu_ok(accel_queue_read_blocking(qb, c.x, 0, c.host, CHAIN_N * 4));
    expect_all(c.host, CHAIN_N, chain_steps(qa), "data after the event queried done");
    tu_ok(accel_event_synchronize(end));
    tu_ok(accel_event_query(end, &done));
    cr_assert(done);
    double ms = -1;
    tu_ok(accel_event_elapsed_ms(start, end, &ms));
    cr_assert(ms >= 0.0 && isfinite(ms) && ms < 60000.0, "elapsed %g ms", ms);
    cr_log_info("%s: %d adds of %zu f32 took %.3f ms", accel_device_name(dev), chain_steps(qa),
                CHAIN_N, ms);
    accel_queue_release(qb);
    accel_event_release(start);
    accel_event_release(end);
    chain_free(&c);
}

Test(queue_event, event_query_synchronize_and_elapsed_time)
{
    accel_runtime *rt = tu_open_default();
    tu_for_each_device(rt, query_body, NULL);
    accel_runtime_close(rt);
}

static void release_pending_body(accel_device *dev, accel_queue *qb, void *user)
{
    (void)user;
    accel_queue *qa;
    tu_ok(accel_queue_create(dev, &qa));
    chain_bufs c = chain_setup(dev, qa);
    enqueue_chain(qa, c.x, c.ones);
    accel_queue_release(qa); /* must wait for the chain */
    tu_ok(accel_queue_read_blocking(qb, c.x, 0, c.host, CHAIN_N * 4));
    expect_all(c.host, CHAIN_N, chain_steps(qb), "after releasing the queue with work pending");
    chain_free(&c);
}

Test(queue_event, queue_release_drains_pending_work)
{
    accel_runtime *rt = tu_open_default();
    tu_for_each_device(rt, release_pending_body, NULL);
    accel_runtime_close(rt);
}

/* ---------------------------------------------------------------- transfers */

static void blocking_body(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    enum { N = 4099 };
    double *src = malloc(N * sizeof *src), *dst = malloc(N * sizeof *dst);
    cr_assert(src && dst);
    for (int i = 0; i < N; ++i)
        src[i] = i * 0.5 - 7;
    accel_buffer *b;
    tu_ok(accel_buffer_create(dev, N * sizeof(double), &b));
    cr_assert_eq(accel_buffer_size(b), N * sizeof(double));
    cr_assert_eq(accel_buffer_device(b), dev);
    cr_assert_eq(accel_queue_device(q), dev);
    /* Blocking write: the host array may change as soon as it returns. */
    tu_ok(accel_queue_write_blocking(q, b, 0, src, N * sizeof(double)));
    for (int i = 0; i < N; ++i)
        src[i] = 1e9;
    tu_ok(accel_queue_read_blocking(q, b, 0, dst, N * sizeof(double)));
    for (int i = 0; i < N; ++i)
        cr_assert(dst[i] == i * 0.5 - 7, "blocking round trip element %d: %g", i, dst[i]);
    /* Asynchronous write and read at byte offsets, ordered by the queue. */
    tu_ok(accel_queue_write(q, b, 8 * 100, src, 8 * 50));
    memset(dst, 0, N * sizeof(double));
    tu_ok(accel_queue_read(q, b, 8 * 99, dst, 8 * 52));
    tu_ok(accel_queue_finish(q));
    cr_assert(dst[0] == 99 * 0.5 - 7 && dst[51] == 150 * 0.5 - 7, "neighbours changed: %g %g",
              dst[0], dst[51]);
    for (int i = 1; i <= 50; ++i)
        cr_assert(dst[i] == 1e9, "async write/read element %d: %g", i, dst[i]);
    /* Pinned host memory works as a transfer endpoint. */
    double *pinned = NULL;
    tu_ok(accel_host_alloc(dev, N * sizeof(double), (void **)&pinned));
    cr_assert(pinned && ((uintptr_t)pinned % 64) == 0, "host_alloc not 64-byte aligned: %p",
              (void *)pinned);
    tu_ok(accel_queue_read(q, b, 0, pinned, N * sizeof(double)));
    tu_ok(accel_queue_finish(q));
    cr_assert(pinned[0] == -7 && pinned[100] == 1e9 && pinned[N - 1] == (N - 1) * 0.5 - 7);
    accel_host_free(dev, pinned);
    accel_host_free(dev, NULL);
    /* Buffer to buffer at offsets. */
    accel_buffer *b2;
    tu_ok(accel_buffer_create(dev, N * sizeof(double), &b2));
    tu_ok(accel_queue_copy(q, b, 8 * 10, b2, 8 * 20, 8 * 5));
    tu_ok(accel_queue_read_blocking(q, b2, 8 * 20, dst, 8 * 5));
    for (int i = 0; i < 5; ++i)
        cr_assert(dst[i] == (10 + i) * 0.5 - 7, "queue_copy element %d: %g", i, dst[i]);
    /* A zero-byte buffer is a valid buffer. */
    accel_buffer *empty;
    tu_ok(accel_buffer_create(dev, 0, &empty));
    cr_assert_eq(accel_buffer_size(empty), 0u);
    tu_ok(accel_fill(q, ACCEL_F32, 1.0, accel_slice_of(empty, 0, 0)));
    tu_ok(accel_queue_finish(q));
    accel_buffer_release(empty);
    accel_buffer_release(b2);
    accel_buffer_release(b);
    free(src), free(dst);
}

Test(queue_event, blocking_and_async_transfers)
{
    accel_runtime *rt = tu_open_default();
    tu_for_each_device(rt, blocking_body, NULL);
    accel_runtime_close(rt);
}

/* ---------------------------------------------------------------- threads */

typedef struct adder {
    accel_queue *q;
    accel_buffer *x, *ones;
    int times;
} adder;

static void *add_many(void *arg)
{
    adder *a = arg;
    for (int i = 0; i < a->times; ++i)
        if (accel_add(a->q, ACCEL_F64, accel_slice_of(a->x, 0, 1000),
                      accel_slice_of(a->ones, 0, 1000),
                      accel_slice_of(a->x, 0, 1000)) != ACCEL_SUCCESS)
            return NULL;
    return a;
}

Test(queue_event, one_queue_fed_from_several_threads)
{
    accel_runtime *rt = tu_open_default();
    accel_device *dev;
    tu_ok(accel_device_get_by_name(rt, "cpu", &dev));
    accel_queue *q;
    tu_ok(accel_queue_create(dev, &q));
    adder a = {q, NULL, NULL, 50};
    tu_ok(accel_buffer_create(dev, 8000, &a.x));
    tu_ok(accel_buffer_create(dev, 8000, &a.ones));
    tu_ok(accel_fill(q, ACCEL_F64, 0.0, accel_slice_of(a.x, 0, 1000)));
    tu_ok(accel_fill(q, ACCEL_F64, 1.0, accel_slice_of(a.ones, 0, 1000)));
    pthread_t t[4];
    for (int i = 0; i < 4; ++i)
        cr_assert_eq(pthread_create(&t[i], NULL, add_many, &a), 0);
    for (int i = 0; i < 4; ++i) {
        void *res;
        pthread_join(t[i], &res);
        cr_assert(res != NULL, "a thread's accel_add failed: %s", accel_last_error());
    }
    double v[1000];
    tu_ok(accel_queue_read_blocking(q, a.x, 0, v, sizeof v));
    for (int i = 0; i < 1000; ++i)
        cr_assert(v[i] == 200.0, "element %d: %g after 4 threads x 50 adds", i, v[i]);
    accel_runtime_close(rt); /* releases q and the buffers */
}

/* ---------------------------------------------------------------- close */

Test(queue_event, runtime_close_with_live_objects_and_pending_work)
{
    accel_runtime *rt = tu_open_default();
    accel_device *dev;
    tu_ok(accel_device_default(rt, &dev));
    accel_queue *qa, *qb;
    tu_ok(accel_queue_create(dev, &qa));
    tu_ok(accel_queue_create(dev, &qb));
    chain_bufs c = chain_setup(dev, qa);
    accel_event *ev;
    tu_ok(accel_event_create(dev, &ev));
    void *pinned;
    tu_ok(accel_host_alloc(dev, 4096, &pinned));
    enqueue_chain(qa, c.x, c.ones);
    tu_ok(accel_event_record(ev, qa));
    tu_ok(accel_queue_wait_event(qb, ev));
    tu_ok(accel_copy(qb, ACCEL_F32, accel_slice_of(c.x, 0, CHAIN_N),
                     accel_slice_of(c.y, 0, CHAIN_N)));
    /* Nothing released by hand: close drains both queues and frees it all
     * (ASan's leak check in the debug-asan build proves the "frees"). */
    accel_runtime_close(rt);
    free(c.host);
}

/* ---------------------------------------------------------------- across backends */

static accel_runtime *open_cpu_and_mock(accel_device **cpu, accel_device **mock)
{
    accel_runtime *rt;
    tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = cpu, mock\n[backend.cpu]\nlibrary = %s\n"
                             "[backend.mock]\nlibrary = %s\n",
                             TU_CPU_PLUGIN, TU_TEST_PLUGIN("mock")),
                      &rt, NULL));
    tu_ok(accel_device_get_by_name(rt, "cpu", cpu));
    tu_ok(accel_device_get_by_name(rt, "mock", mock));
    return rt;
}

Test(queue_event, copy_and_wait_across_backends)
{
    accel_device *cpu, *mock;
    accel_runtime *rt = open_cpu_and_mock(&cpu, &mock);
    accel_queue *qc, *qm;
    tu_ok(accel_queue_create(cpu, &qc));
    tu_ok(accel_queue_create(mock, &qm));
    chain_bufs c = chain_setup(cpu, qc);
    accel_buffer *mb;
    tu_ok(accel_buffer_create(mock, CHAIN_N * 4, &mb));
    accel_event *ev;
    tu_ok(accel_event_create(cpu, &ev));
    /* cpu chain -> event -> mock queue waits -> copies cpu X into the mock buffer. */
    enqueue_chain(qc, c.x, c.ones);
    tu_ok(accel_event_record(ev, qc));
    tu_ok(accel_queue_wait_event(qm, ev));
    tu_ok(accel_queue_copy(qm, c.x, 0, mb, 0, CHAIN_N * 4));
    tu_ok(accel_queue_read_blocking(qm, mb, 0, c.host, CHAIN_N * 4));
    expect_all(c.host, CHAIN_N, chain_steps(qc),
               "mock buffer copied from cpu after a cross-backend wait");
    /* And back: mock -> cpu on the cpu queue, after the mock fills it. */
    tu_ok(accel_fill(qm, ACCEL_F32, 4.5, accel_slice_of(mb, 0, CHAIN_N)));
    accel_event *mev;
    tu_ok(accel_event_create(mock, &mev));
    tu_ok(accel_event_record(mev, qm));
    tu_ok(accel_queue_wait_event(qc, mev));
    tu_ok(accel_queue_copy(qc, mb, 0, c.y, 0, CHAIN_N * 4));
    tu_ok(accel_queue_read_blocking(qc, c.y, 0, c.host, CHAIN_N * 4));
    expect_all(c.host, CHAIN_N, 4.5, "cpu buffer copied from mock");
    accel_event_release(ev);
    accel_event_release(mev);
    accel_buffer_release(mb);
    chain_free(&c);
    accel_runtime_close(rt);
}

/* ---------------------------------------------------------------- sticky errors */

static void expect_sticky(accel_status got, const char *call)
{
    cr_assert(got == ACCEL_ERROR_DEVICE,
              "%s after an asynchronous fault: %s, expected ACCEL_ERROR_DEVICE (\"%s\")", call,
              accel_status_name(got), accel_last_error());
    cr_assert(strstr(accel_last_error(), "accel_fill") != NULL,
              "%s: the sticky error must name the op: \"%s\"", call, accel_last_error());
}

static float read_first(accel_queue *q, accel_buffer *b)
{
    float v = -1;
    tu_ok(accel_queue_read_blocking(q, b, 0, &v, sizeof v));
    return v;
}

Test(queue_event, sticky_error_is_returned_by_finish_then_cleared)
{
    accel_device *cpu, *mock;
    accel_runtime *rt = open_cpu_and_mock(&cpu, &mock);
    accel_queue *q;
    tu_ok(accel_queue_create(mock, &q));
    accel_buffer *b;
    tu_ok(accel_buffer_create(mock, 64, &b));
    accel_slice s = accel_slice_of(b, 0, 16);
    tu_ok(accel_fill(q, ACCEL_F32, 1.0, s));
    /* Enqueueing the faulting op succeeds; the failure shows later. */
    tu_ok(accel_fill(q, ACCEL_F32, TU_MOCK_FAULT_VALUE, s));
    tu_ok(accel_fill(q, ACCEL_F32, 2.0, s)); /* skipped: after the failure */
    expect_sticky(accel_queue_finish(q), "accel_queue_finish");
    /* Cleared: the queue works again, and the skipped fill never ran. */
    cr_assert(read_first(q, b) == 1.0f, "work enqueued after the fault ran");
    tu_ok(accel_fill(q, ACCEL_F32, 3.0, s));
    tu_ok(accel_queue_finish(q));
    cr_assert(read_first(q, b) == 3.0f);
    accel_runtime_close(rt);
}

Test(queue_event, sticky_error_is_returned_by_blocking_read_and_event_synchronize)
{
    accel_device *cpu, *mock;
    accel_runtime *rt = open_cpu_and_mock(&cpu, &mock);
    accel_queue *q;
    tu_ok(accel_queue_create(mock, &q));
    accel_buffer *b;
    tu_ok(accel_buffer_create(mock, 64, &b));
    accel_slice s = accel_slice_of(b, 0, 16);
    float v[16];
    tu_ok(accel_fill(q, ACCEL_F32, TU_MOCK_FAULT_VALUE, s));
    expect_sticky(accel_queue_read_blocking(q, b, 0, v, sizeof v), "accel_queue_read_blocking");
    tu_ok(accel_queue_finish(q)); /* cleared by the read */

    accel_event *ev;
    tu_ok(accel_event_create(mock, &ev));
    tu_ok(accel_fill(q, ACCEL_F32, TU_MOCK_FAULT_VALUE, s));
    tu_ok(accel_event_record(ev, q));
    expect_sticky(accel_event_synchronize(ev), "accel_event_synchronize");
    tu_ok(accel_fill(q, ACCEL_F32, 5.0, s));
    tu_ok(accel_queue_finish(q));
    cr_assert(read_first(q, b) == 5.0f);
    accel_event_release(ev);
    accel_runtime_close(rt);
}

Test(queue_event, sticky_error_stays_on_its_queue)
{
    accel_device *cpu, *mock;
    accel_runtime *rt = open_cpu_and_mock(&cpu, &mock);
    accel_queue *bad, *good;
    tu_ok(accel_queue_create(mock, &bad));
    tu_ok(accel_queue_create(mock, &good));
    accel_buffer *b;
    tu_ok(accel_buffer_create(mock, 64, &b));
    tu_ok(accel_fill(bad, ACCEL_F32, TU_MOCK_FAULT_VALUE, accel_slice_of(b, 0, 4)));
    tu_ok(accel_fill(good, ACCEL_F32, 6.0, accel_slice_of(b, 4, 4)));
    tu_ok(accel_queue_finish(good));
    expect_sticky(accel_queue_finish(bad), "accel_queue_finish");
    accel_runtime_close(rt);
}

/* ------------------------------------------------------- host functions */

typedef struct host_fn_log {
    int calls[3];
    int order; /* increments at each call */
    accel_buffer *x;
    double seen; /* x[0] when the first ran (host-accessible devices), else -1 */
} host_fn_log;

static accel_status host_fn_first(void *user, char *message, size_t message_size)
{
    (void)message;
    (void)message_size;
    host_fn_log *l = user;
    l->calls[0] = ++l->order;
    const float *p = accel_buffer_host_pointer(l->x);
    l->seen = p ? p[CHAIN_N - 1] : -1.0;
    return ACCEL_SUCCESS;
}

static accel_status host_fn_failing(void *user, char *message, size_t message_size)
{
    host_fn_log *l = user;
    l->calls[1] = ++l->order;
    snprintf(message, message_size, "the host function's own reason");
    return ACCEL_ERROR_IO;
}

static accel_status host_fn_last(void *user, char *message, size_t message_size)
{
    (void)message;
    (void)message_size;
    host_fn_log *l = user;
    l->calls[2] = ++l->order;
    return ACCEL_SUCCESS;
}

/* accel_queue_host_fn: runs after the earlier work (the chain's result is
 * complete inside it on host memory), in order, once each; a failure comes
 * back from the next finish as "name: message" and later work still runs. */
static void host_fn_body(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    chain_bufs c = chain_setup(dev, q);
    host_fn_log l = {{0, 0, 0}, 0, c.x, -2.0};
    enqueue_chain(q, c.x, c.ones);
    tu_ok(accel_queue_host_fn(q, "stage_one", host_fn_first, &l));
    tu_ok(accel_queue_host_fn(q, "stage_two", host_fn_failing, &l));
    tu_ok(accel_queue_host_fn(q, "stage_three", host_fn_last, &l));
    accel_status st = accel_queue_finish(q);
    cr_assert_eq(st, ACCEL_ERROR_IO, "finish after a failing host function: %s",
                 accel_status_name(st));
    cr_assert(strstr(accel_last_error(), "stage_two: the host function's own reason"), "%s",
              accel_last_error());
    cr_assert(l.calls[0] == 1 && l.calls[1] == 2 && l.calls[2] == 3, "order %d %d %d", l.calls[0],
              l.calls[1], l.calls[2]);
    accel_device_properties p;
    accel_device_properties_init(&p);
    tu_ok(accel_device_properties_get(dev, &p));
    if (p.host_accessible)
        cr_assert_eq(l.seen, (double)chain_steps(q), "the chain had not finished: %g", l.seen);
    else
        cr_assert_eq(l.seen, -1.0, "accel_buffer_host_pointer of device memory must be NULL");
    tu_ok(accel_queue_finish(q)); /* the error was cleared */
    chain_free(&c);
}

Test(queue_event, host_functions_run_in_order_and_report_failures)
{
    accel_runtime *rt = tu_open_default();
    tu_for_each_device(rt, host_fn_body, NULL);
    accel_runtime_close(rt);
}

/* One step of the interleaving below: what x[0] held when it ran, and the
 * rounding mode it ran in. */
typedef struct host_fn_step {
    const float *x;
    float seen;
    int round;
    pthread_t thread;
} host_fn_step;

static accel_status host_fn_record(void *user, char *message, size_t message_size)
{
    (void)message;
    (void)message_size;
    host_fn_step *s = user;
    s->seen = s->x[0];
    s->round = fegetround();
    s->thread = pthread_self();
    return ACCEL_SUCCESS;
}

/* CPU queue: host functions between ops, some run by the worker and some by
 * the finish that finds one at the head of an idle queue; each sees the op
 * before it done and none after it, and runs in the default rounding mode
 * whatever the finishing thread set, whose own mode is kept. */
Test(queue_event, cpu_host_functions_between_ops_in_order_on_any_thread)
{
    accel_runtime *rt = tu_open_default();
    accel_device *dev = NULL;
    tu_ok(accel_device_get_by_name(rt, "cpu", &dev));
    accel_queue *q = NULL;
    tu_ok(accel_queue_create(dev, &q));
    accel_buffer *x = NULL;
    tu_ok(accel_buffer_create(dev, sizeof(float), &x));
    enum { STEPS = 300 };
    static host_fn_step steps[STEPS];
    const float *hx = accel_buffer_host_pointer(x);
    cr_assert(hx != NULL);
    int caller_round = fegetround(), on_caller = 0;
    cr_assert_eq(fesetround(FE_UPWARD), 0);
    for (int i = 0; i < STEPS; ++i) {
        steps[i] = (host_fn_step){.x = hx, .seen = -1.0f, .round = -1};
        tu_ok(accel_fill(q, ACCEL_F32, (double)i, accel_slice_of(x, 0, 1)));
        if (i % 2 == 0)
            tu_ok(accel_queue_finish(q)); /* idle: the finish below mostly runs it */
        tu_ok(accel_queue_host_fn(q, "record", host_fn_record, &steps[i]));
        if (i % 4 < 2)
            tu_ok(accel_queue_finish(q));
    }
    tu_ok(accel_queue_finish(q));
    for (int i = 0; i < STEPS; ++i)
        on_caller += pthread_equal(steps[i].thread, pthread_self()) != 0;
    cr_log_info("%d of %d host functions ran on the finishing thread", on_caller, STEPS);
    int after = fegetround();
    fesetround(caller_round);
    cr_assert_eq(after, FE_UPWARD, "the finishing thread's rounding mode was changed");
    for (int i = 0; i < STEPS; ++i) {
        cr_assert_eq(steps[i].seen, (float)i, "step %d saw %g", i, (double)steps[i].seen);
        cr_assert_eq(steps[i].round, FE_TONEAREST, "step %d ran in rounding mode %d", i,
                     steps[i].round);
    }
    accel_buffer_release(x);
    accel_queue_release(q);
    accel_runtime_close(rt);
}
