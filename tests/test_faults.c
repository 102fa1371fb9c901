/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_faults.c — what the runtime does when things go wrong outside the
 * caller's arguments: a plugin that fails in init, one that gives wrong
 * answers (the load-time self-test of core/runtime/selftest.c must refuse it), an op
 * that fails on the device in the middle of a queue (the sticky error names
 * the op; the runtime and other queues keep working), out of device memory
 * mid-run, closing the runtime with work still queued (drained, everything
 * freed: the debug-asan build's LeakSanitizer checks "no leak"), releasing
 * a buffer with work still queued (waits as cudaFree, keeps sticky errors,
 * safe against concurrent queue releases), and zero-length buffers through
 * every call. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

/* Under AddressSanitizer, let a huge malloc return NULL (as libc does) rather
 * than abort: out-of-memory paths are what these tests check. The
 * environment's ASAN_OPTIONS still override this default. */
__attribute__((used, visibility("default"))) const char *__asan_default_options(void);
__attribute__((used, visibility("default"))) const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1";
}

TestSuite(faults);

/* cpu, then the mock (fault injection), then `extra` sections. */
static accel_runtime *open_cpu_mock(const char *extra)
{
    accel_runtime *rt;
    accel_status s = tu_open_ini(tu_fmt("[runtime]\norder = cpu, mock\n"
                                        "[backend.cpu]\nlibrary = %s\nthreads = 2\n"
                                        "[backend.mock]\nlibrary = %s\n%s",
                                        TU_CPU_PLUGIN, TU_TEST_PLUGIN("mock"), extra ? extra : ""),
                                 &rt, NULL);
    cr_assert(s == ACCEL_SUCCESS, "open: %s", accel_last_error());
    return rt;
}

static accel_device *dev_named(accel_runtime *rt, const char *name)
{
    accel_device *d;
    tu_ok(accel_device_get_by_name(rt, name, &d));
    return d;
}

/* ------------------------------------------------------------ load-time */

Test(faults, plugin_failing_in_init_is_recorded_and_others_load)
{
    accel_runtime *rt =
        open_cpu_mock(tu_fmt("[backend.broken]\nlibrary = %s\n", TU_TEST_PLUGIN("init_fail")));
    accel_backend_info bi = tu_backend_info(rt, "broken");
    cr_assert(!bi.loaded);
    cr_assert(bi.status == ACCEL_ERROR_UNAVAILABLE, "%s", accel_status_name(bi.status));
    cr_assert(strstr(bi.reason, "init failed") && strstr(bi.reason, "frobnicator"), "reason: %s",
              bi.reason);
    /* The others loaded and work. */
    cr_assert(tu_backend_info(rt, "cpu").loaded && tu_backend_info(rt, "mock").loaded);
    accel_queue *q;
    tu_ok(accel_queue_create(dev_named(rt, "cpu"), &q));
    tu_dbuf b = tu_upload(q, ACCEL_F32, NULL, 4);
    tu_ok(accel_fill(q, ACCEL_F32, 2.0, tu_slice(&b)));
    double v[4];
    tu_download(q, &b, v);
    cr_assert(v[0] == 2.0 && v[3] == 2.0);
    /* strict = true turns the same failure into an open error naming it. */
    accel_runtime *strict = NULL;
    accel_status s =
        tu_open_ini(tu_fmt("[runtime]\norder = cpu, broken\nstrict = true\n"
                           "[backend.cpu]\nlibrary = %s\n[backend.broken]\nlibrary = %s\n",
                           TU_CPU_PLUGIN, TU_TEST_PLUGIN("init_fail")),
                    &strict, NULL);
    cr_assert(s == ACCEL_ERROR_PLUGIN_LOAD && strict == NULL, "%s", accel_status_name(s));
    cr_assert(strstr(accel_last_error(), "broken") && strstr(accel_last_error(), "frobnicator"),
              "%s", accel_last_error());
    accel_runtime_close(rt);
}

Test(faults, plugin_with_wrong_answers_fails_the_load_time_self_test)
{
    accel_runtime *rt =
        open_cpu_mock(tu_fmt("[backend.wrong]\nlibrary = %s\n", TU_TEST_PLUGIN("wrong_values")));
    accel_backend_info bi = tu_backend_info(rt, "wrong");
    cr_assert(!bi.loaded, "a backend that fills 2.0 as 3.0 and adds to 42 passed the self-test");
    cr_assert(strcasestr(bi.reason, "self-test") || strcasestr(bi.reason, "selftest") ||
                  strcasestr(bi.reason, "self test"),
              "the reason should name the self-test: %s", bi.reason);
    accel_device *d = NULL;
    cr_assert(accel_device_get_by_name(rt, "wrong", &d) == ACCEL_ERROR_NOT_FOUND);
    cr_assert(tu_backend_info(rt, "cpu").loaded);
    accel_runtime_close(rt);
}

/* Positive control for the test above: with the self-test off, the
 * wrong-values plugin does load and does give wrong numbers, so the refusal
 * above is the self-test's doing. */
Test(faults, wrong_values_plugin_really_is_wrong)
{
    accel_runtime *rt;
    accel_status s = tu_open_ini(tu_fmt("[runtime]\norder = cpu, wrong\nselftest = false\n"
                                        "[backend.cpu]\nlibrary = %s\nthreads = 2\n"
                                        "[backend.wrong]\nlibrary = %s\n",
                                        TU_CPU_PLUGIN, TU_TEST_PLUGIN("wrong_values")),
                                 &rt, NULL);
    cr_assert(s == ACCEL_SUCCESS, "open: %s", accel_last_error());
    cr_assert(tu_backend_info(rt, "wrong").loaded, "selftest = false must load the plugin: %s",
              tu_backend_info(rt, "wrong").reason);
    accel_queue *q;
    tu_ok(accel_queue_create(dev_named(rt, "wrong"), &q));
    tu_dbuf b = tu_upload(q, ACCEL_F64, NULL, 2), c = tu_upload(q, ACCEL_F64, NULL, 2);
    tu_ok(accel_fill(q, ACCEL_F64, 2.0, tu_slice(&b)));
    double v[2];
    tu_download(q, &b, v);
    cr_assert(v[0] == 3.0 && v[1] == 3.0, "wrong-values fill of 2.0 gave %g %g, not 3", v[0], v[1]);
    tu_ok(accel_add(q, ACCEL_F64, tu_slice(&b), tu_slice(&b), tu_slice(&c)));
    tu_download(q, &c, v);
    cr_assert(v[0] == 42.0 && v[1] == 42.0, "wrong-values add gave %g %g, not 42", v[0], v[1]);
    accel_runtime_close(rt);
}

/* ------------------------------------------------------------ mid-queue */

Test(faults, op_failing_mid_queue_is_sticky_named_and_contained)
{
    accel_runtime *rt = open_cpu_mock(NULL);
    accel_device *mock = dev_named(rt, "mock"), *cpu = dev_named(rt, "cpu");
    accel_queue *bad, *good, *cq;
    tu_ok(accel_queue_create(mock, &bad));
    tu_ok(accel_queue_create(mock, &good));
    tu_ok(accel_queue_create(cpu, &cq));
    tu_dbuf a = tu_upload(bad, ACCEL_F32, NULL, 4), b = tu_upload(good, ACCEL_F32, NULL, 4);
    tu_dbuf c = tu_upload(cq, ACCEL_F32, NULL, 4);
    /* Three ops: the second faults on the "device"; the third is skipped. */
    tu_ok(accel_fill(bad, ACCEL_F32, 1.0, accel_slice_of(a.buf, TU_GUARD, 2)));
    tu_ok(accel_fill(bad, ACCEL_F32, TU_MOCK_FAULT_VALUE, accel_slice_of(a.buf, TU_GUARD + 2, 1)));
    tu_ok(accel_copy(bad, ACCEL_F32, accel_slice_of(a.buf, TU_GUARD, 1),
                     accel_slice_of(a.buf, TU_GUARD + 3, 1)));
    /* Other queues, of the same backend and of another, are unaffected. */
    tu_ok(accel_fill(good, ACCEL_F32, 5.0, tu_slice(&b)));
    tu_ok(accel_fill(cq, ACCEL_F32, 6.0, tu_slice(&c)));
    tu_ok(accel_queue_finish(good));
    tu_ok(accel_queue_finish(cq));
    accel_status s = accel_queue_finish(bad);
    cr_assert(s == ACCEL_ERROR_DEVICE, "finish: %s", accel_status_name(s));
    cr_assert(strstr(accel_last_error(), "accel_fill") &&
                  strstr(accel_last_error(), "accel_queue_finish"),
              "the sticky error must name the op and the call that reported it: %s",
              accel_last_error());
    /* Reported once, then cleared: the queue is usable again. */
    tu_ok(accel_queue_finish(bad));
    double v[4];
    tu_download(bad, &a, v);
    cr_assert(v[0] == 1.0 && v[1] == 1.0, "work before the fault ran: %g %g", v[0], v[1]);
    cr_assert(v[2] == TU_SENTINEL && v[3] == TU_SENTINEL,
              "work from the fault on was skipped: %g %g", v[2], v[3]);
    tu_check_guards(bad, &a, "faulted queue's buffer");
    tu_download(good, &b, v);
    cr_assert(v[0] == 5.0 && v[3] == 5.0);
    tu_download(cq, &c, v);
    cr_assert(v[0] == 6.0 && v[3] == 6.0);
    /* The error also reaches an event recorded after it, and a blocking read. */
    accel_event *ev;
    tu_ok(accel_event_create(mock, &ev));
    tu_ok(accel_fill(bad, ACCEL_F32, TU_MOCK_FAULT_VALUE, tu_slice(&a)));
    tu_ok(accel_event_record(ev, bad));
    s = accel_event_synchronize(ev);
    cr_assert(s == ACCEL_ERROR_DEVICE && strstr(accel_last_error(), "accel_fill"), "%s: %s",
              accel_status_name(s), accel_last_error());
    tu_ok(accel_fill(bad, ACCEL_F32, TU_MOCK_FAULT_VALUE, tu_slice(&a)));
    float h[4];
    s = accel_queue_read_blocking(bad, a.buf, 0, h, sizeof h);
    cr_assert(s == ACCEL_ERROR_DEVICE && strstr(accel_last_error(), "accel_fill") &&
                  strstr(accel_last_error(), "accel_queue_read_blocking"),
              "%s: %s", accel_status_name(s), accel_last_error());
    accel_event_release(ev);
    /* An error left unreported when the runtime closes is logged, not lost. */
    tu_log_capture();
    tu_ok(accel_fill(bad, ACCEL_F32, TU_MOCK_FAULT_VALUE, tu_slice(&a)));
    accel_runtime_close(rt);
    cr_assert(tu_log_contains(ACCEL_LOG_WARN, "unreported error"), "log:\n%s", tu_log_text());
}

Test(faults, out_of_device_memory_mid_run_leaves_the_runtime_working)
{
    accel_runtime *rt = open_cpu_mock(NULL);
    accel_device *mock = dev_named(rt, "mock");
    accel_queue *q;
    tu_ok(accel_queue_create(mock, &q));
    tu_dbuf a = tu_upload(q, ACCEL_F64, NULL, 8);
    tu_ok(accel_fill(q, ACCEL_F64, 1.5, tu_slice(&a)));
    accel_buffer *huge = NULL;
    accel_status s = accel_buffer_create(mock, SIZE_MAX / 2, &huge);
    cr_assert(s == ACCEL_ERROR_OUT_OF_DEVICE_MEMORY && huge == NULL, "%s", accel_status_name(s));
    cr_assert(strstr(accel_last_error(), "accel_buffer_create") &&
                  strstr(accel_last_error(), "mock"),
              "%s", accel_last_error());
    /* Earlier work is intact and later work runs. */
    tu_ok(accel_fill(q, ACCEL_F64, 2.5, accel_slice_of(a.buf, TU_GUARD, 4)));
    double v[8];
    tu_download(q, &a, v);
    cr_assert(v[0] == 2.5 && v[3] == 2.5 && v[4] == 1.5 && v[7] == 1.5);
    tu_check_guards(q, &a, "buffer after an OOM");
    accel_runtime_close(rt);
}

/* ------------------------------------------------------------ close */

/* Closing drains: every op and read enqueued before accel_runtime_close has
 * run when it returns (a read's host memory holds its data), and every
 * object the caller left is freed (LeakSanitizer in debug-asan). */
Test(faults, closing_the_runtime_with_work_queued_drains_it)
{
    accel_runtime *rt = open_cpu_mock(NULL);
    accel_device *cpu = dev_named(rt, "cpu"), *mock = dev_named(rt, "mock");
    enum { NQ = 4, LEN = 1 << 16 };
    float *host[NQ];
    accel_event *ev;
    tu_ok(accel_event_create(cpu, &ev));
    for (int i = 0; i < NQ; ++i) {
        accel_queue *q;
        tu_ok(accel_queue_create(cpu, &q));
        accel_buffer *x, *y;
        tu_ok(accel_buffer_create(cpu, LEN * sizeof(float), &x));
        tu_ok(accel_buffer_create(cpu, LEN * sizeof(float), &y));
        host[i] = malloc(LEN * sizeof(float));
        cr_assert(host[i]);
        tu_ok(accel_fill(q, ACCEL_F32, (double)i, accel_slice_of(x, 0, LEN)));
        for (int k = 0; k < 50; ++k)
            tu_ok(accel_axpby(q, ACCEL_F32, 1.0, accel_slice_of(x, 0, LEN), 1.0,
                              accel_slice_of(x, 0, LEN)));
        tu_ok(accel_sqrt(q, ACCEL_F32, accel_slice_of(x, 0, LEN), accel_slice_of(y, 0, LEN)));
        tu_ok(accel_queue_read(q, y, 0, host[i], LEN * sizeof(float)));
        tu_ok(accel_event_record(ev, q));
        /* No finish, no release: the runtime must do both. */
    }
    /* Leftovers of every kind: a mock queue with work, pinned memory, events. */
    accel_queue *mq;
    tu_ok(accel_queue_create(mock, &mq));
    accel_buffer *mb;
    tu_ok(accel_buffer_create(mock, 64, &mb));
    tu_ok(accel_fill(mq, ACCEL_F32, 1.0, accel_slice_of(mb, 0, 16)));
    void *pinned;
    tu_ok(accel_host_alloc(cpu, 4096, &pinned));
    accel_event *unrecorded;
    tu_ok(accel_event_create(mock, &unrecorded));
    accel_runtime_close(rt);
    /* x = i * 2^50 after 50 doublings; sqrt = sqrt(i) * 2^25, exact in f32. */
    for (int i = 0; i < NQ; ++i) {
        double want = (double)sqrtf((float)ldexp((double)i, 50));
        cr_assert((double)host[i][0] == want && (double)host[i][LEN - 1] == want,
                  "queue %d was not drained: %g, expected %g", i, (double)host[i][LEN - 1], want);
        free(host[i]);
    }
    /* Every handle is dead now. */
    cr_assert_eq(accel_device_count(rt), 0u);
    cr_assert(accel_buffer_size(mb) == 0);
}

/* ------------------------------------------------------------ release */

/* The user-trial repro: a buffer released while 20 fills of it are still
 * queued. accel_buffer_release waits for them (as cudaFree), so the CPU
 * worker never writes freed memory (AddressSanitizer in debug-asan), and the
 * queue keeps working afterwards. */
Test(faults, releasing_a_buffer_with_work_queued_waits_for_it)
{
    accel_runtime *rt = open_cpu_mock(NULL);
    accel_device *cpu = dev_named(rt, "cpu");
    accel_queue *q, *q2;
    tu_ok(accel_queue_create(cpu, &q));
    tu_ok(accel_queue_create(cpu, &q2));
    enum { OTHER = 1 << 16 };
    accel_buffer *big, *other;
    tu_ok(accel_buffer_create(cpu, (size_t)400 << 20, &big));
    tu_ok(accel_buffer_create(cpu, OTHER * sizeof(float), &other));
    accel_event *ev;
    tu_ok(accel_event_create(cpu, &ev));
    for (int i = 0; i < 20; i++)
        tu_ok(accel_fill(q, ACCEL_F32, 1.0, accel_slice_of(big, 0, (size_t)100 << 20)));
    tu_ok(accel_event_record(ev, q));
    accel_buffer_release(big);
    /* Everything enqueued before the release is done when it returns. */
    bool done = false;
    tu_ok(accel_event_query(ev, &done));
    cr_assert(done, "accel_buffer_release returned before the queued fills were done");
    cr_assert(accel_buffer_size(big) == 0, "the released handle is dead");
    /* Memory reused right away is not written by the old fills, and work
     * after the release, on both queues, gives the right data. */
    accel_buffer *fresh;
    tu_ok(accel_buffer_create(cpu, (size_t)400 << 20, &fresh));
    tu_ok(accel_fill(q2, ACCEL_F32, 7.0, accel_slice_of(fresh, 0, (size_t)100 << 20)));
    tu_ok(accel_fill(q, ACCEL_F32, 3.0, accel_slice_of(other, 0, OTHER)));
    tu_ok(accel_scale(q, ACCEL_F32, 2.0, accel_slice_of(other, 0, OTHER),
                      accel_slice_of(other, 0, OTHER)));
    tu_ok(accel_queue_finish(q));
    tu_ok(accel_queue_finish(q2));
    float *h = malloc(OTHER * sizeof(float));
    cr_assert(h);
    tu_ok(accel_queue_read_blocking(q, other, 0, h, OTHER * sizeof(float)));
    for (size_t i = 0; i < OTHER; i++)
        cr_assert(h[i] == 6.0f, "other[%zu] = %g after the release, expected 6", i, (double)h[i]);
    float probe[2];
    tu_ok(accel_queue_read_blocking(q2, fresh, 0, &probe[0], sizeof(float)));
    tu_ok(accel_queue_read_blocking(q2, fresh, ((size_t)400 << 20) - sizeof(float), &probe[1],
                                    sizeof(float)));
    cr_assert(probe[0] == 7.0f && probe[1] == 7.0f, "fresh buffer: %g %g, expected 7",
              (double)probe[0], (double)probe[1]);
    free(h);
    accel_buffer_release(fresh);
    accel_buffer_release(other);
    accel_event_release(ev);
    accel_queue_release(q);
    accel_queue_release(q2);
    accel_runtime_close(rt);
}

/* The wait inside accel_buffer_release must not take a queue's sticky error
 * (event_synchronize would): the next finish of the faulted queue still
 * reports it, whether the released buffer was on that queue's device or
 * on another one. */
Test(faults, releasing_a_buffer_keeps_the_sticky_errors_of_queues)
{
    accel_runtime *rt = open_cpu_mock(NULL);
    accel_device *mock = dev_named(rt, "mock"), *cpu = dev_named(rt, "cpu");
    accel_queue *mq, *cq;
    tu_ok(accel_queue_create(mock, &mq));
    tu_ok(accel_queue_create(cpu, &cq));
    accel_buffer *ma, *mb, *ca;
    tu_ok(accel_buffer_create(mock, 64, &ma));
    tu_ok(accel_buffer_create(mock, 64, &mb));
    tu_ok(accel_buffer_create(cpu, 64, &ca));
    tu_ok(accel_fill(cq, ACCEL_F32, 1.0, accel_slice_of(ca, 0, 16)));
    tu_ok(accel_fill(mq, ACCEL_F32, 2.0, accel_slice_of(mb, 0, 16)));
    tu_ok(accel_fill(mq, ACCEL_F32, TU_MOCK_FAULT_VALUE, accel_slice_of(ma, 0, 16)));
    accel_buffer_release(ca); /* another device's buffer: waits on mq too */
    accel_buffer_release(ma); /* the faulted op's own buffer */
    accel_status s = accel_queue_finish(mq);
    cr_assert(s == ACCEL_ERROR_DEVICE && strstr(accel_last_error(), "accel_fill"),
              "the sticky error was lost by accel_buffer_release: %s: %s", accel_status_name(s),
              accel_last_error());
    tu_ok(accel_queue_finish(mq)); /* reported once */
    tu_ok(accel_queue_finish(cq));
    /* The same with an event recorded after the fault. */
    accel_event *ev;
    tu_ok(accel_event_create(mock, &ev));
    tu_ok(accel_fill(mq, ACCEL_F32, TU_MOCK_FAULT_VALUE, accel_slice_of(mb, 0, 16)));
    tu_ok(accel_event_record(ev, mq));
    accel_buffer_release(mb);
    s = accel_event_synchronize(ev);
    cr_assert(s == ACCEL_ERROR_DEVICE, "event after the fault: %s", accel_status_name(s));
    accel_event_release(ev);
    accel_queue_release(mq);
    accel_queue_release(cq);
    accel_runtime_close(rt);
}

/* Buffers and queues released concurrently from several threads, with work
 * queued: the release's marks never touch a queue being destroyed. */
typedef struct release_race {
    accel_device *dev;
    int failures;
} release_race;

static void *release_race_thread(void *arg)
{
    release_race *r = arg;
    for (int it = 0; it < 40; it++) {
        accel_queue *q = NULL;
        accel_buffer *b = NULL;
        if (accel_queue_create(r->dev, &q) != ACCEL_SUCCESS ||
            accel_buffer_create(r->dev, 4096 * sizeof(float), &b) != ACCEL_SUCCESS) {
            r->failures++;
            break;
        }
        for (int k = 0; k < 4; k++)
            if (accel_fill(q, ACCEL_F32, (double)k, accel_slice_of(b, 0, 4096)) != ACCEL_SUCCESS)
                r->failures++;
        float v = 0;
        if (it % 2) {
            accel_buffer_release(b); /* with the fills queued */
            accel_queue_release(q);
        } else {
            if (accel_queue_read_blocking(q, b, 4095 * sizeof(float), &v, sizeof v) !=
                    ACCEL_SUCCESS ||
                v != 3.0f)
                r->failures++;
            accel_queue_release(q); /* first the queue, then the buffer */
            accel_buffer_release(b);
        }
    }
    return NULL;
}

Test(faults, releasing_buffers_and_queues_concurrently)
{
    accel_runtime *rt = open_cpu_mock(NULL);
    enum { NT = 4 };
    pthread_t t[NT];
    release_race r[NT];
    for (int i = 0; i < NT; i++) {
        r[i].dev = dev_named(rt, i % 2 ? "mock" : "cpu");
        r[i].failures = 0;
        cr_assert_eq(pthread_create(&t[i], NULL, release_race_thread, &r[i]), 0);
    }
    for (int i = 0; i < NT; i++) {
        pthread_join(t[i], NULL);
        cr_assert_eq(r[i].failures, 0, "thread %d", i);
    }
    accel_runtime_close(rt);
}

/* ------------------------------------------------------------ zero length */

Test(faults, zero_length_buffers_through_every_call)
{
    accel_runtime *rt = open_cpu_mock(NULL);
    const char *devs[] = {"cpu", "mock"};
    for (int di = 0; di < 2; ++di) {
        accel_device *dev = dev_named(rt, devs[di]);
        bool full = di == 0; /* the mock has only fill and copy */
        accel_queue *q;
        tu_ok(accel_queue_create(dev, &q));
        accel_buffer *z, *z2;
        tu_ok(accel_buffer_create(dev, 0, &z));
        tu_ok(accel_buffer_create(dev, 0, &z2));
        cr_assert_eq(accel_buffer_size(z), 0u);
        cr_assert(accel_buffer_device(z) == dev);
        char host[8] = "sentinel";
        tu_ok(accel_queue_write(q, z, 0, host, 0));
        tu_ok(accel_queue_read(q, z, 0, host, 0));
        tu_ok(accel_queue_write_blocking(q, z, 0, NULL, 0));
        tu_ok(accel_queue_read_blocking(q, z, 0, NULL, 0));
        tu_ok(accel_queue_copy(q, z, 0, z2, 0, 0));
        tu_ok(accel_queue_copy(q, z, 0, z, 0, 0));
        cr_assert(memcmp(host, "sentinel", 8) == 0);
        /* One byte into an empty buffer is out of range. */
        tu_assert_status(accel_queue_write(q, z, 0, host, 1), ACCEL_ERROR_OUT_OF_RANGE, "1 byte");
        tu_assert_status(accel_queue_read(q, z, 1, host, 0), ACCEL_ERROR_OUT_OF_RANGE, "offset 1");
        accel_slice e = accel_slice_of(z, 0, 0);
        for (accel_dtype dt = ACCEL_F32; dt <= ACCEL_F64; dt = (accel_dtype)(dt + 1)) {
            tu_ok(accel_fill(q, dt, 1.0, e));
            tu_ok(accel_copy(q, dt, e, accel_slice_of(z2, 0, 0)));
            if (!full)
                continue;
            tu_ok(accel_add(q, dt, e, e, e));
            tu_ok(accel_binary(q, ACCEL_OP_DIV, dt, e, e, e));
            tu_ok(accel_axpby(q, dt, 1.0, e, 2.0, e));
            tu_ok(accel_scale(q, dt, 3.0, e, e));
            tu_ok(accel_unary(q, ACCEL_OP_LOG, dt, e, e));
            tu_ok(accel_relu(q, dt, e, e));
            tu_ok(accel_random_uniform(q, dt, 1, 0, e));
            tu_ok(accel_random_normal(q, dt, 1, 0, 0.0, 1.0, e));
            /* A reduction needs a one-element output, which z cannot hold. */
            tu_assert_status(accel_sum(q, dt, e, accel_slice_of(z, 0, 1)), ACCEL_ERROR_OUT_OF_RANGE,
                             "sum");
            tu_assert_status(accel_reduce_max(q, dt, e, accel_slice_of(z2, 0, 1)),
                             ACCEL_ERROR_OUT_OF_RANGE, "max");
            tu_ok(accel_matmul(q, dt, 0, 0, 0, z, z2, z2));
            tu_assert_status(accel_matmul(q, dt, 0, 0, 0, z, z2, z), ACCEL_SUCCESS,
                             "0x0 matmul in place");
            accel_gemm_desc d;
            accel_gemm_desc_init(&d);
            d.dtype = dt, d.a = z, d.b = z, d.c = z2, d.lda = 7, d.ldb = d.ldc = 1;
            d.m = 0, d.n = 0, d.k = 7;
            tu_ok(accel_gemm(q, &d));
            tu_ok(accel_transpose_2d(q, dt, 0, 0, z, 0, 0, z2, 0, 0));
        }
        accel_event *ev;
        tu_ok(accel_event_create(dev, &ev));
        tu_ok(accel_event_record(ev, q));
        tu_ok(accel_event_synchronize(ev));
        tu_ok(accel_queue_finish(q));
        void *p;
        tu_ok(accel_host_alloc(dev, 0, &p));
        cr_assert_not_null(p);
        accel_host_free(dev, p);
        accel_event_release(ev);
        accel_buffer_release(z);
        accel_buffer_release(z2);
        accel_queue_release(q);
    }
    accel_runtime_close(rt);
}
