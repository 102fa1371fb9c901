/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* stress_concurrency.c — the thread-safety contract of accel.h under load:
 * 8 threads at once create and release buffers, queues and events and
 * enqueue 10^4 ops in total on every device of the runtime (cpu; cuda when a
 * GPU is present), on queues of their own and on one queue shared by all of
 * them, and check every result against a value computed on the host.
 * Then buffers are released (which waits, as cudaFree, for every live
 * queue) while other threads' queues still hold work and while queues are
 * created and released undrained, with the surviving data checked, and
 * calls on a buffer race its release.
 * CI runs it under ThreadSanitizer too (the tsan preset, with
 * OMP_NUM_THREADS=1: see .ci/run). A plain program, not a Criterion suite:
 * Criterion's process arena does not start under TSan (Snaipe/Criterion
 * issue 274), so it reports through its exit status (ctest test
 * "concurrency").
 *
 * Every value is a small integer, so f32 arithmetic on it is exact and the
 * expected results need no tolerance. */
#define _XOPEN_SOURCE 700
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "accel/accel.h"

#define THREADS 8
#define TOTAL_OPS 10000
#define LEN 256

static accel_runtime *rt;
static char config_path[4096];

/* Stop with a message: the test's one way to fail outside the workers. */
#define REQUIRE(cond, ...)                                                                         \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "stress_concurrency: FAILED: " __VA_ARGS__);                           \
            fprintf(stderr, " (%s:%d; last error: %s)\n", __FILE__, __LINE__, accel_last_error()); \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static void remove_config(void)
{
    unlink(config_path);
}

/* cpu with $ACCEL_TEST_CPU_THREADS OpenMP threads (default: all), and the CUDA
 * backend when it was built (it steps aside without a GPU). */
static void setup(void)
{
    unsetenv("ACCEL_CONFIG");
    unsetenv("ACCEL_BACKEND");
    const char *threads = getenv("ACCEL_TEST_CPU_THREADS");
    const char *cuda = ACCEL_TEST_PLUGIN_CONFIG_DIR "/libaccel_cuda.so";
    bool have_cuda = access(cuda, F_OK) == 0;
    const char *tmp = getenv("TMPDIR");
    snprintf(config_path, sizeof config_path, "%s/accel-stress-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(config_path);
    REQUIRE(fd >= 0, "mkstemp %s", config_path);
    atexit(remove_config);
    FILE *f = fdopen(fd, "w");
    REQUIRE(f != NULL, "fdopen");
    fprintf(f, "[runtime]\norder = %scpu\n[backend.cpu]\nlibrary = %s\nthreads = %s\n",
            have_cuda ? "cuda, " : "", ACCEL_TEST_PLUGIN_CONFIG_DIR "/libaccel_cpu.so",
            threads && *threads ? threads : "0");
    if (have_cuda)
        fprintf(f, "[backend.cuda]\nlibrary = %s\n", cuda);
    fclose(f);
    accel_status s = accel_runtime_open(config_path, &rt);
    REQUIRE(s == ACCEL_SUCCESS, "open %s: %s", config_path, accel_status_name(s));
}

typedef struct shared_state {
    accel_device *devs[8];
    uint32_t ndev;
    accel_queue *shared[8]; /* one per device, used by every thread */
    int ops_per_thread_per_device;
    atomic_int ops;
    atomic_int failures;
    char first_failure[512];
    pthread_mutex_t fail_lock;
    pthread_barrier_t start;
} shared_state;

typedef struct worker {
    shared_state *s;
    int id;
} worker;

/* Record a failure (criterion's asserts are not for worker threads). */
static void fail(shared_state *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(shared_state *s, const char *fmt, ...)
{
    pthread_mutex_lock(&s->fail_lock);
    if (atomic_fetch_add(&s->failures, 1) == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(s->first_failure, sizeof s->first_failure, fmt, ap);
        va_end(ap);
    }
    pthread_mutex_unlock(&s->fail_lock);
}

#define CHECK(s, call)                                                                             \
    do {                                                                                           \
        accel_status st_ = (call);                                                                 \
        if (st_ != ACCEL_SUCCESS) {                                                                \
            fail(s, "%s: %s (%s)", #call, accel_status_name(st_), accel_last_error());             \
            goto out;                                                                              \
        }                                                                                          \
    } while (0)

static bool expect_all(shared_state *s, const float *v, size_t n, float want, const char *what,
                       int id, const char *dev)
{
    for (size_t i = 0; i < n; ++i) {
        if (v[i] != want) {
            fail(s, "thread %d on %s, %s: element %zu is %g, expected %g", id, dev, what, i,
                 (double)v[i], (double)want);
            return false;
        }
    }
    return true;
}

/* One round on one device, 8 ops:
 *   own queue:    fill x = a, fill y = b, add z = x + y, scale z *= 2,
 *                 axpby z = z - y  (z = 2a + b), then read z;
 *   shared queue: fill w = a, copy w -> x2 (w's copy), sum(x2) = LEN * a,
 *                 then a blocking read of the sum. */
static int round_on(shared_state *s, worker *w, uint32_t d, int r, accel_queue *own,
                    accel_buffer *const *b, float *host)
{
    accel_device *dev = s->devs[d];
    const char *dn = accel_device_name(dev);
    accel_queue *sh = s->shared[d];
    float a = (float)(w->id * 1000 + r), bb = (float)(r % 7);
    accel_slice x = accel_slice_of(b[0], 0, LEN), y = accel_slice_of(b[1], 0, LEN),
                z = accel_slice_of(b[2], 0, LEN);
    accel_slice wv = accel_slice_of(b[3], 0, LEN), x2 = accel_slice_of(b[4], 0, LEN);
    accel_slice sum = accel_slice_of(b[5], 0, 1);
    float total = 0;
    CHECK(s, accel_fill(own, ACCEL_F32, a, x));
    CHECK(s, accel_fill(own, ACCEL_F32, bb, y));
    CHECK(s, accel_add(own, ACCEL_F32, x, y, z));
    CHECK(s, accel_scale(own, ACCEL_F32, 2.0, z, z));
    CHECK(s, accel_axpby(own, ACCEL_F32, -1.0, y, 1.0, z));
    CHECK(s, accel_queue_read(own, b[2], 0, host, LEN * sizeof(float)));
    CHECK(s, accel_fill(sh, ACCEL_F32, a, wv));
    CHECK(s, accel_copy(sh, ACCEL_F32, wv, x2));
    CHECK(s, accel_sum(sh, ACCEL_F32, x2, sum));
    CHECK(s, accel_queue_read_blocking(sh, b[5], 0, &total, sizeof total));
    CHECK(s, accel_queue_finish(own));
    atomic_fetch_add(&s->ops, 8);
    if (!expect_all(s, host, LEN, 2 * a + bb, "z = 2a + b", w->id, dn))
        return -1;
    if (total != (float)LEN * a) {
        fail(s, "thread %d on %s: shared-queue sum %g, expected %g", w->id, dn, (double)total,
             (double)LEN * a);
        return -1;
    }
    return 0;
out:
    return -1;
}

static void *work(void *arg)
{
    worker *w = arg;
    shared_state *s = w->s;
    float *host = malloc(LEN * sizeof(float));
    pthread_barrier_wait(&s->start);
    if (!host) {
        fail(s, "out of memory");
        return NULL;
    }
    for (uint32_t d = 0; d < s->ndev; ++d) {
        accel_device *dev = s->devs[d];
        int rounds = s->ops_per_thread_per_device / 8;
        accel_queue *own = NULL;
        accel_buffer *b[6] = {0};
        accel_event *ev = NULL;
        for (int r = 0; r < rounds; ++r) {
            /* Every 16 rounds: new queue, buffers and event, made while the
             * other threads enqueue (creation and release race with use). */
            if (r % 16 == 0) {
                accel_queue_release(own);
                for (int i = 0; i < 6; ++i)
                    accel_buffer_release(b[i]);
                accel_event_release(ev);
                own = NULL, ev = NULL;
                memset(b, 0, sizeof b);
                CHECK(s, accel_queue_create(dev, &own));
                for (int i = 0; i < 6; ++i)
                    CHECK(s, accel_buffer_create(dev, LEN * sizeof(float), &b[i]));
                CHECK(s, accel_event_create(dev, &ev));
            }
            if (round_on(s, w, d, r, own, b, host) != 0)
                goto out;
            /* Order the shared queue after this thread's own queue by an event. */
            if (r % 5 == 0) {
                CHECK(s, accel_event_record(ev, own));
                CHECK(s, accel_queue_wait_event(s->shared[d], ev));
                bool done = false;
                CHECK(s, accel_event_query(ev, &done));
            }
        }
    out:
        accel_queue_release(own);
        for (int i = 0; i < 6; ++i)
            accel_buffer_release(b[i]);
        accel_event_release(ev);
        if (atomic_load(&s->failures))
            break;
    }
    free(host);
    return NULL;
}

static void eight_threads_ten_thousand_ops_on_every_device(void)
{
    static shared_state s;
    memset(&s, 0, sizeof s);
    pthread_mutex_init(&s.fail_lock, NULL);
    atomic_init(&s.ops, 0);
    atomic_init(&s.failures, 0);
    s.ndev = accel_device_count(rt);
    REQUIRE(s.ndev >= 1 && s.ndev <= 8, "%u devices", s.ndev);
    for (uint32_t d = 0; d < s.ndev; ++d) {
        REQUIRE(accel_device_get(rt, d, &s.devs[d]) == ACCEL_SUCCESS, "device %u", d);
        REQUIRE(accel_queue_create(s.devs[d], &s.shared[d]) == ACCEL_SUCCESS, "shared queue");
        printf("stress on %s\n", accel_device_name(s.devs[d]));
    }
    /* 10^4 ops in total, split over threads and devices, rounded up to whole
     * rounds of 8 ops. */
    int per = (TOTAL_OPS + THREADS * (int)s.ndev - 1) / (THREADS * (int)s.ndev);
    s.ops_per_thread_per_device = (per + 7) / 8 * 8;
    pthread_barrier_init(&s.start, NULL, THREADS);
    pthread_t t[THREADS];
    worker w[THREADS];
    for (int i = 0; i < THREADS; ++i) {
        w[i] = (worker){&s, i};
        REQUIRE(pthread_create(&t[i], NULL, work, &w[i]) == 0, "pthread_create");
    }
    for (int i = 0; i < THREADS; ++i)
        pthread_join(t[i], NULL);
    for (uint32_t d = 0; d < s.ndev; ++d) {
        REQUIRE(accel_queue_finish(s.shared[d]) == ACCEL_SUCCESS, "finish of a shared queue");
        accel_queue_release(s.shared[d]);
    }
    pthread_barrier_destroy(&s.start);
    REQUIRE(atomic_load(&s.failures) == 0, "%d failure(s); first: %s", atomic_load(&s.failures),
            s.first_failure);
    REQUIRE(atomic_load(&s.ops) >= TOTAL_OPS, "only %d ops ran", atomic_load(&s.ops));
    printf("%d ops from %d threads on %u device(s), results checked\n", atomic_load(&s.ops),
           THREADS, s.ndev);
}

/* accel_buffer_release waits, as cudaFree, for the work queued on every live
 * queue (accel__queues_mark_and_wait, under the runtime's queue_life lock).
 * Per device, 8 threads at once in three roles:
 *   busy (ids 0-2):     keep long chains queued on a queue of their own over
 *                       big buffers that survive, read them back and check;
 *   releasers (3-5):    fill a buffer, queue a copy out of it, and release it
 *                       while the copy is still queued (their own queue and
 *                       the busy ones are not drained), then check the copy;
 *   churners (6-7):     create queues, queue work on them and release them
 *                       undrained, concurrently with the releasers' marks,
 *                       sometimes releasing a used buffer right after. */
#define REL_ROUNDS 40
#define BIG (1 << 14)

static void release_busy(shared_state *s, worker *w, accel_device *dev, float *host)
{
    const char *dn = accel_device_name(dev);
    accel_queue *q = NULL;
    accel_buffer *x = NULL, *y = NULL;
    CHECK(s, accel_queue_create(dev, &q));
    CHECK(s, accel_buffer_create(dev, BIG * sizeof(float), &x));
    CHECK(s, accel_buffer_create(dev, BIG * sizeof(float), &y));
    accel_slice xs = accel_slice_of(x, 0, BIG), ys = accel_slice_of(y, 0, BIG);
    for (int r = 0; r < REL_ROUNDS; ++r) {
        float a = (float)(w->id * 100 + r % 50);
        /* y = a + 8 * 1 after 8 queued adds: nothing drains in between. */
        CHECK(s, accel_fill(q, ACCEL_F32, a, ys));
        CHECK(s, accel_fill(q, ACCEL_F32, 1.0, xs));
        for (int k = 0; k < 8; ++k)
            CHECK(s, accel_add(q, ACCEL_F32, ys, xs, ys));
        CHECK(s, accel_queue_read(q, y, 0, host, BIG * sizeof(float)));
        CHECK(s, accel_queue_finish(q));
        atomic_fetch_add(&s->ops, 11);
        if (!expect_all(s, host, BIG, a + 8, "busy chain y = a + 8", w->id, dn))
            break;
    }
out:
    accel_queue_release(q);
    accel_buffer_release(x);
    accel_buffer_release(y);
}

static void release_while_queued(shared_state *s, worker *w, accel_device *dev, float *host)
{
    const char *dn = accel_device_name(dev);
    accel_queue *q = NULL;
    accel_buffer *keep = NULL, *tmp = NULL;
    CHECK(s, accel_queue_create(dev, &q));
    CHECK(s, accel_buffer_create(dev, BIG * sizeof(float), &keep));
    for (int r = 0; r < REL_ROUNDS; ++r) {
        float a = (float)(w->id * 100 + r % 50);
        CHECK(s, accel_buffer_create(dev, BIG * sizeof(float), &tmp));
        accel_slice ts = accel_slice_of(tmp, 0, BIG), ks = accel_slice_of(keep, 0, BIG);
        CHECK(s, accel_fill(q, ACCEL_F32, a, ts));
        CHECK(s, accel_add(q, ACCEL_F32, ts, ts, ts));
        CHECK(s, accel_copy(q, ACCEL_F32, ts, ks));
        /* Still queued here (on q and on the busy threads' queues): the
         * release must wait for the copy out of tmp before freeing it. */
        accel_buffer_release(tmp);
        tmp = NULL;
        CHECK(s, accel_queue_read_blocking(q, keep, 0, host, BIG * sizeof(float)));
        atomic_fetch_add(&s->ops, 4);
        if (!expect_all(s, host, BIG, 2 * a, "copy out of a released buffer", w->id, dn))
            break;
    }
out:
    accel_buffer_release(tmp);
    accel_queue_release(q);
    accel_buffer_release(keep);
}

static void churn_queues(shared_state *s, worker *w, accel_device *dev, float *host)
{
    const char *dn = accel_device_name(dev);
    accel_buffer *b = NULL;
    CHECK(s, accel_buffer_create(dev, LEN * sizeof(float), &b));
    for (int r = 0; r < REL_ROUNDS * 2; ++r) {
        float a = (float)(w->id * 100 + r % 50);
        accel_queue *q = NULL;
        CHECK(s, accel_queue_create(dev, &q));
        if (r % 3 != 0) {
            accel_status st = accel_fill(q, ACCEL_F32, a, accel_slice_of(b, 0, LEN));
            if (st == ACCEL_SUCCESS)
                st = accel_scale(q, ACCEL_F32, 3.0, accel_slice_of(b, 0, LEN),
                                 accel_slice_of(b, 0, LEN));
            if (st != ACCEL_SUCCESS) {
                fail(s, "thread %d on %s: churned queue: %s (%s)", w->id, dn, accel_status_name(st),
                     accel_last_error());
                accel_queue_release(q);
                goto out;
            }
        }
        /* Released with its work still queued: the release drains it. */
        accel_queue_release(q);
        if (r % 3 != 0) {
            accel_queue *rq = NULL;
            CHECK(s, accel_queue_create(dev, &rq));
            accel_status st = accel_queue_read_blocking(rq, b, 0, host, LEN * sizeof(float));
            accel_queue_release(rq);
            CHECK(s, st);
            atomic_fetch_add(&s->ops, 3);
            if (!expect_all(s, host, LEN, 3 * a, "scale on a released queue", w->id, dn))
                break;
        }
        if (r % 8 == 7) {
            /* A used buffer released, then a fresh one: one more mark. */
            accel_buffer_release(b);
            b = NULL;
            CHECK(s, accel_buffer_create(dev, LEN * sizeof(float), &b));
        }
    }
out:
    accel_buffer_release(b);
}

static void *release_work(void *arg)
{
    worker *w = arg;
    shared_state *s = w->s;
    float *host = malloc(BIG * sizeof(float));
    pthread_barrier_wait(&s->start);
    if (!host) {
        fail(s, "out of memory");
        return NULL;
    }
    for (uint32_t d = 0; d < s->ndev && !atomic_load(&s->failures); ++d) {
        if (w->id < 3)
            release_busy(s, w, s->devs[d], host);
        else if (w->id < 6)
            release_while_queued(s, w, s->devs[d], host);
        else
            churn_queues(s, w, s->devs[d], host);
    }
    free(host);
    return NULL;
}

static void buffers_released_while_other_queues_are_busy(void)
{
    static shared_state s;
    memset(&s, 0, sizeof s);
    pthread_mutex_init(&s.fail_lock, NULL);
    atomic_init(&s.ops, 0);
    atomic_init(&s.failures, 0);
    s.ndev = accel_device_count(rt);
    REQUIRE(s.ndev >= 1 && s.ndev <= 8, "%u devices", s.ndev);
    for (uint32_t d = 0; d < s.ndev; ++d)
        REQUIRE(accel_device_get(rt, d, &s.devs[d]) == ACCEL_SUCCESS, "device %u", d);
    pthread_barrier_init(&s.start, NULL, THREADS);
    pthread_t t[THREADS];
    worker w[THREADS];
    for (int i = 0; i < THREADS; ++i) {
        w[i] = (worker){&s, i};
        REQUIRE(pthread_create(&t[i], NULL, release_work, &w[i]) == 0, "pthread_create");
    }
    for (int i = 0; i < THREADS; ++i)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&s.start);
    REQUIRE(atomic_load(&s.failures) == 0, "%d failure(s); first: %s", atomic_load(&s.failures),
            s.first_failure);
    printf("%d ops with buffers released and queues churned under queued work, %d threads, "
           "results checked\n",
           atomic_load(&s.ops), THREADS);
}

/* Calls racing a release of their buffer: in each round a helper thread
 * enqueues transfers, copies and ops on a fresh buffer until one is refused
 * while its owner releases the buffer after a varying number of them. Every
 * call is either enqueued before the memory is freed or refused with
 * ACCEL_ERROR_INVALID_HANDLE (under TSan and ASan: no race, no use after
 * free). */
#define RACE_ROUNDS 25

typedef struct racer {
    shared_state *s;
    accel_queue *q;
    accel_buffer *buf, *other;
    const float *src;
    float *dst;
    atomic_int calls;
    atomic_bool finished;
    accel_status st;
    char message[512];
} racer;

static void *race_calls(void *arg)
{
    racer *r = arg;
    accel_status st = ACCEL_SUCCESS;
    accel_slice b = accel_slice_of(r->buf, 0, LEN), o = accel_slice_of(r->other, 0, LEN);
    for (unsigned k = 0; st == ACCEL_SUCCESS; ++k) {
        switch (k % 4) {
        case 0:
            st = accel_queue_write(r->q, r->buf, 0, r->src, LEN * sizeof(float));
            break;
        case 1:
            st = accel_add(r->q, ACCEL_F32, b, b, o);
            break;
        case 2:
            st = accel_queue_copy(r->q, r->buf, 0, r->other, 0, LEN * sizeof(float));
            break;
        default:
            st = accel_queue_read(r->q, r->buf, 0, r->dst, LEN * sizeof(float));
            break;
        }
        if (st == ACCEL_SUCCESS)
            atomic_fetch_add(&r->calls, 1);
    }
    r->st = st;
    snprintf(r->message, sizeof r->message, "%s", accel_last_error());
    atomic_store(&r->finished, true);
    return NULL;
}

static void *race_work(void *arg)
{
    worker *w = arg;
    shared_state *s = w->s;
    float src[LEN], dst[LEN];
    for (int i = 0; i < LEN; ++i)
        src[i] = (float)(w->id * 10 + i % 7);
    pthread_barrier_wait(&s->start);
    for (uint32_t d = 0; d < s->ndev && !atomic_load(&s->failures); ++d) {
        accel_queue *q = NULL;
        accel_buffer *other = NULL;
        CHECK(s, accel_queue_create(s->devs[d], &q));
        CHECK(s, accel_buffer_create(s->devs[d], LEN * sizeof(float), &other));
        for (int round = 0; round < RACE_ROUNDS; ++round) {
            racer r = {s, q, NULL, other, src, dst, 0, false, ACCEL_SUCCESS, ""};
            CHECK(s, accel_buffer_create(s->devs[d], LEN * sizeof(float), &r.buf));
            pthread_t t;
            if (pthread_create(&t, NULL, race_calls, &r) != 0) {
                accel_buffer_release(r.buf);
                fail(s, "pthread_create");
                goto out;
            }
            int after = (round + w->id) % 6;
            while (atomic_load(&r.calls) < after && !atomic_load(&r.finished))
                sched_yield();
            accel_buffer_release(r.buf);
            pthread_join(t, NULL);
            atomic_fetch_add(&s->ops, atomic_load(&r.calls) + 1);
            if (r.st != ACCEL_ERROR_INVALID_HANDLE) {
                fail(s, "thread %d: a call racing the release gave %s (%s)", w->id,
                     accel_status_name(r.st), r.message);
                break;
            }
        }
        CHECK(s, accel_queue_finish(q));
    out:
        accel_buffer_release(other);
        accel_queue_release(q);
    }
    return NULL;
}

static void calls_racing_the_release_of_their_buffer(void)
{
    static shared_state s;
    memset(&s, 0, sizeof s);
    pthread_mutex_init(&s.fail_lock, NULL);
    s.ndev = accel_device_count(rt);
    for (uint32_t d = 0; d < s.ndev; ++d)
        REQUIRE(accel_device_get(rt, d, &s.devs[d]) == ACCEL_SUCCESS, "device %u", d);
    pthread_barrier_init(&s.start, NULL, THREADS);
    pthread_t t[THREADS];
    worker w[THREADS];
    for (int i = 0; i < THREADS; ++i) {
        w[i] = (worker){&s, i};
        REQUIRE(pthread_create(&t[i], NULL, race_work, &w[i]) == 0, "pthread_create");
    }
    for (int i = 0; i < THREADS; ++i)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&s.start);
    REQUIRE(atomic_load(&s.failures) == 0, "%d failure(s); first: %s", atomic_load(&s.failures),
            s.first_failure);
    printf("%d calls raced %d buffer releases, %d threads; each enqueued or refused\n",
           atomic_load(&s.ops), THREADS * RACE_ROUNDS * (int)s.ndev, THREADS);
}

/* Runtimes opened and closed concurrently, each thread with its own, while
 * it also uses it: the handle registry and the loader's shared state are
 * process-wide. */
static void *open_use_close(void *arg)
{
    shared_state *s = arg;
    for (int i = 0; i < 4; ++i) {
        accel_runtime *r = NULL;
        accel_queue *q = NULL;
        accel_buffer *b = NULL;
        float v = 0;
        accel_device *d;
        CHECK(s, accel_runtime_open(accel_runtime_config_path(rt), &r));
        CHECK(s, accel_device_get_by_name(r, "cpu", &d));
        CHECK(s, accel_queue_create(d, &q));
        CHECK(s, accel_buffer_create(d, 64, &b));
        CHECK(s, accel_fill(q, ACCEL_F32, 3.0, accel_slice_of(b, 0, 16)));
        CHECK(s, accel_queue_read_blocking(q, b, 60, &v, 4));
        if (v != 3.0f)
            fail(s, "fill in a concurrently opened runtime gave %g", (double)v);
    out:
        accel_runtime_close(r); /* releases q and b too */
        atomic_fetch_add(&s->ops, 1);
    }
    return NULL;
}

static void runtimes_opened_and_closed_concurrently(void)
{
    static shared_state s;
    memset(&s, 0, sizeof s);
    pthread_mutex_init(&s.fail_lock, NULL);
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; ++i)
        REQUIRE(pthread_create(&t[i], NULL, open_use_close, &s) == 0, "pthread_create");
    for (int i = 0; i < THREADS; ++i)
        pthread_join(t[i], NULL);
    REQUIRE(atomic_load(&s.failures) == 0, "%s", s.first_failure);
    REQUIRE(atomic_load(&s.ops) == THREADS * 4, "%d opens", atomic_load(&s.ops));
    printf("%d runtimes opened, used and closed by %d threads at once\n", THREADS * 4, THREADS);
}

/* A runtime closed while THREADS threads still enqueue on it (each on its
 * own queue and buffer, plus one shared queue, which works on the second
 * half of the thread's buffer so that the two queues never race): close refuses the calls
 * that start after it and waits for those in flight, so every thread ends
 * on ACCEL_ERROR_INVALID_HANDLE and nothing touches freed memory. */
typedef struct closer_arg {
    shared_state *s;
    accel_queue *q, *shared;
    accel_buffer *b;
    atomic_int *running;
    accel_status last;
} closer_arg;

static void *enqueue_until_closed(void *arg)
{
    closer_arg *a = arg;
    atomic_fetch_add(a->running, 1);
    for (long i = 0;; ++i) {
        accel_queue *q = (i & 1) ? a->shared : a->q;
        size_t base = (i & 1) ? 2 * LEN : 0;
        accel_status st =
            accel_add(q, ACCEL_F32, accel_slice_of(a->b, base, LEN),
                      accel_slice_of(a->b, base + LEN, LEN), accel_slice_of(a->b, base, LEN));
        if (st == ACCEL_SUCCESS && (i % 32) == 31)
            st = accel_queue_finish(a->q);
        if (st != ACCEL_SUCCESS) {
            a->last = st;
            return NULL;
        }
    }
}

static void runtime_closed_while_threads_enqueue(void)
{
    static shared_state s;
    memset(&s, 0, sizeof s);
    for (int round = 0; round < 3; ++round) {
        accel_runtime *r = NULL;
        accel_device *d;
        REQUIRE(accel_runtime_open(accel_runtime_config_path(rt), &r) == ACCEL_SUCCESS, "open");
        REQUIRE(accel_device_get_by_name(r, "cpu", &d) == ACCEL_SUCCESS, "cpu");
        accel_queue *shared;
        REQUIRE(accel_queue_create(d, &shared) == ACCEL_SUCCESS, "queue");
        closer_arg a[THREADS];
        pthread_t t[THREADS];
        atomic_int running = 0;
        for (int i = 0; i < THREADS; ++i) {
            a[i] = (closer_arg){&s, NULL, shared, NULL, &running, ACCEL_SUCCESS};
            REQUIRE(accel_queue_create(d, &a[i].q) == ACCEL_SUCCESS, "queue");
            REQUIRE(accel_buffer_create(d, 4 * LEN * sizeof(float), &a[i].b) == ACCEL_SUCCESS,
                    "buffer");
            REQUIRE(accel_fill(a[i].q, ACCEL_F32, 0.0, accel_slice_of(a[i].b, 0, 4 * LEN)) ==
                        ACCEL_SUCCESS,
                    "fill");
            REQUIRE(accel_queue_finish(a[i].q) == ACCEL_SUCCESS, "finish");
            REQUIRE(pthread_create(&t[i], NULL, enqueue_until_closed, &a[i]) == 0,
                    "pthread_create");
        }
        while (atomic_load(&running) < THREADS)
            sched_yield();
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
        accel_runtime_close(r);
        for (int i = 0; i < THREADS; ++i) {
            pthread_join(t[i], NULL);
            REQUIRE(a[i].last == ACCEL_ERROR_INVALID_HANDLE, "thread %d ended with %s", i,
                    accel_status_name(a[i].last));
        }
    }
    printf("3 runtimes closed while %d threads enqueued on each: every thread refused cleanly\n",
           THREADS);
}

int main(void)
{
    setup();
    eight_threads_ten_thousand_ops_on_every_device();
    buffers_released_while_other_queues_are_busy();
    calls_racing_the_release_of_their_buffer();
    runtimes_opened_and_closed_concurrently();
    runtime_closed_while_threads_enqueue();
    accel_runtime_close(rt);
    printf("stress_concurrency: passed\n");
    return 0;
}
