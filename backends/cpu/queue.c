/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* queue.c — in-order asynchronous queues and events of the CPU backend.
 *
 * Each queue owns one worker thread and a FIFO of tasks in a ring that grows
 * by doubling, so an enqueue is a lock, a copy of the task and at most one
 * condition-variable signal (none while the worker is busy or still polling
 * for work after its last task). Ops are copied into the ring by value.
 * A finish that finds a host function at the head while the worker runs
 * nothing runs it itself (help_locked), and a small elementwise op enqueued
 * on an idle queue runs on the caller's thread (accel_cpu__queue_run_inline).
 *
 * Errors: the first failing task sets the queue's sticky error (status, an
 * error serial and the message); later ops and transfers are skipped until a
 * synchronizing call returns and clears it. Event records, event waits and
 * host functions still run while an error is pending: records so that
 * synchronizing callers wake up, waits to keep the queue's order with other
 * queues, and host functions because the core uses them for cross-backend
 * signalling that must not be lost (they receive no status to skip on).
 *
 * Events carry a generation counter: event_record bumps it and enqueues a
 * record task for that generation; the task stamps CLOCK_MONOTONIC and the
 * queue's error state at that point. Waiters wait for gen_done >= the
 * generation current when they were enqueued or called. Queues and events are
 * reference-counted so that an event may outlive its recording queue and a
 * pending record or wait task may outlive the caller's event handle.
 *
 * Workers set the IEEE default floating-point environment when they start
 * and once in their OpenMP team, whatever the creating thread had set. */
#include <fenv.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu.h"

/* Pause iterations a worker polls for new work before sleeping (kept short:
 * a polling worker keeps the core from a thread it shares it with, such as
 * a finish it has just woken; 256 here cost a queued 1-element allreduce
 * about 12 us on two oversubscribed cores). Not sched_yield: a worker that
 * yielded between looks was woken late by Linux 6.18's scheduler (an event
 * recorded on an idle queue and polled by its caller took about 2 ms instead
 * of 20 us). */
#define ACCEL_CPU_SPIN 32

/* Times a finish yields the core (sched_yield, so that the worker it waits
 * for runs at once on a shared core) before it sleeps. */
#define ACCEL_CPU_FINISH_YIELDS 32

typedef enum task_kind {
    TASK_WORK, /* an op, a kernel launch or a whole graph launch (accel_cpu_work) */
    TASK_MEMCPY,
    TASK_HOST_FN,
    TASK_RECORD,
    TASK_WAIT
} task_kind;

typedef struct task {
    task_kind kind;
    uint64_t seq; /* position in the queue, from 0 */
    union {
        accel_cpu_work work;
        struct {
            void *dst;
            const void *src;
            size_t bytes;
        } copy;
        struct {
            accel_host_fn fn;
            void *user;
        } host_fn;
        struct {
            accel_be_event *ev;
            uint64_t gen;
        } event;
    } u;
} task;

struct accel_be_queue {
    accel_cpu_ctx *ctx;
    atomic_int refs; /* the owner's, plus one per event last recorded here */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t work_cv; /* the worker waits here for tasks */
    pthread_cond_t done_cv; /* finish and destroy wait here for completion */
    task *ring;
    size_t cap, head, count; /* cap is a power of two */
    uint64_t submitted, completed;
    uint64_t skip_below; /* ops with seq below this are skipped (error cleared by an event) */
    atomic_uint_fast64_t published; /* copy of submitted the worker can poll unlocked */
    int stop, worker_idle, waiters;
    int helping;          /* a finish runs the head host function (help_locked) */
    uint64_t yielded_seq; /* the host function the worker last yielded for */
    int team_ready;       /* the worker's OpenMP team has the default FP environment */
    int32_t err;          /* sticky error, ACCEL_SUCCESS when none */
    uint64_t err_serial;  /* bumped each time err is set */
    char err_msg[ACCEL_CPU_MSG_SIZE];
};

struct accel_be_event {
    atomic_int refs; /* the owner's, plus one per pending record or wait task */
    pthread_mutex_t lock;
    pthread_cond_t cv;
    uint64_t gen_recorded, gen_done;
    uint64_t stamp_ns;     /* CLOCK_MONOTONIC when the latest record ran */
    accel_be_queue *queue; /* queue of the latest record (a reference), or NULL */
    int32_t err;           /* that queue's sticky error when the record ran */
    uint64_t err_serial;
};

static void queue_release(accel_be_queue *q)
{
    if (atomic_fetch_sub(&q->refs, 1) != 1)
        return;
    pthread_mutex_destroy(&q->lock);
    pthread_cond_destroy(&q->work_cv);
    pthread_cond_destroy(&q->done_cv);
    free(q->ring);
    free(q);
}

static void event_release(accel_be_event *ev)
{
    if (atomic_fetch_sub(&ev->refs, 1) != 1)
        return;
    if (ev->queue)
        queue_release(ev->queue);
    pthread_mutex_destroy(&ev->lock);
    pthread_cond_destroy(&ev->cv);
    free(ev);
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Runs one task on the worker thread (no lock held). err_now/serial_now: the
 * queue's error state when the task was taken. */
static void run_task(accel_be_queue *q, task *t, int skip, int32_t err_now, uint64_t serial_now)
{
    int32_t st = ACCEL_SUCCESS;
    char msg[ACCEL_CPU_MSG_SIZE];
    msg[0] = '\0';

    switch (t->kind) {
    case TASK_WORK:
        if (!skip && !q->team_ready) {
            /* The team's threads are created from this worker and inherit
             * its FP environment; set it in each of them too, once. */
            const int nt = q->ctx->threads;
            if (nt > 1) {
#pragma omp parallel num_threads(nt)
                accel_cpu__fp_env_default();
            }
            q->team_ready = 1;
        }
        if (!skip)
            st = t->u.work.run(&t->u.work, q->ctx->threads, msg, sizeof msg);
        else if (t->u.work.discard)
            t->u.work.discard(&t->u.work);
        break;
    case TASK_MEMCPY:
        if (!skip && t->u.copy.bytes && t->u.copy.dst != t->u.copy.src)
            memmove(t->u.copy.dst, t->u.copy.src, t->u.copy.bytes);
        break;
    case TASK_HOST_FN:
        t->u.host_fn.fn(t->u.host_fn.user);
        break;
    case TASK_RECORD: {
        accel_be_event *ev = t->u.event.ev;
        uint64_t stamp = now_ns();
        pthread_mutex_lock(&ev->lock);
        if (t->u.event.gen > ev->gen_done) {
            ev->gen_done = t->u.event.gen;
            ev->stamp_ns = stamp;
            ev->err = err_now;
            ev->err_serial = serial_now;
        }
        pthread_cond_broadcast(&ev->cv);
        pthread_mutex_unlock(&ev->lock);
        event_release(ev);
        break;
    }
    case TASK_WAIT: {
        accel_be_event *ev = t->u.event.ev;
        pthread_mutex_lock(&ev->lock);
        while (ev->gen_done < t->u.event.gen)
            pthread_cond_wait(&ev->cv, &ev->lock);
        pthread_mutex_unlock(&ev->lock);
        event_release(ev);
        break;
    }
    }

    if (st != ACCEL_SUCCESS) {
        pthread_mutex_lock(&q->lock);
        if (q->err == ACCEL_SUCCESS) {
            q->err = st;
            q->err_serial++;
            snprintf(q->err_msg, sizeof q->err_msg, "%s", msg);
        }
        pthread_mutex_unlock(&q->lock);
    }
}

/* Polls for new work for a moment before sleeping, so that a caller
 * enqueueing a stream of small ops rarely pays for a futex wake-up. */
static void spin_for_work(accel_be_queue *q, uint64_t seen)
{
    for (int i = 0; i < ACCEL_CPU_SPIN; ++i) {
        if (atomic_load_explicit(&q->published, memory_order_relaxed) != seen)
            return;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
}

static void *worker_main(void *arg)
{
    accel_be_queue *q = arg;
    task t;
    /* The CPU reference computes in the IEEE default environment (round to
     * nearest, subnormals kept) whatever the creating thread had set. */
    accel_cpu__fp_env_default();
    pthread_mutex_lock(&q->lock);
    for (;;) {
        if (q->count == 0 && !q->stop) {
            uint64_t seen = q->submitted;
            pthread_mutex_unlock(&q->lock);
            spin_for_work(q, seen);
            pthread_mutex_lock(&q->lock);
        }
        while ((q->count == 0 || q->helping) && !q->stop) {
            q->worker_idle = 1;
            pthread_cond_wait(&q->work_cv, &q->lock);
            q->worker_idle = 0;
        }
        if (q->count == 0)
            break;
        if (q->ring[q->head].kind == TASK_HOST_FN && !q->waiters &&
            q->ring[q->head].seq != q->yielded_seq) {
            /* Woken for a host function with nobody waiting yet: yield the
             * core once, so that a caller sharing it and about to finish
             * runs it itself (help_locked) instead of waiting for this
             * thread, then take it if it is still there. */
            q->yielded_seq = q->ring[q->head].seq;
            pthread_mutex_unlock(&q->lock);
            sched_yield();
            pthread_mutex_lock(&q->lock);
            continue;
        }
        t = q->ring[q->head];
        q->head = (q->head + 1) & (q->cap - 1);
        q->count--;
        int skip = q->err != ACCEL_SUCCESS || t.seq < q->skip_below;
        int32_t err_now = q->err;
        uint64_t serial_now = q->err_serial;
        pthread_mutex_unlock(&q->lock);

        run_task(q, &t, skip, err_now, serial_now);

        pthread_mutex_lock(&q->lock);
        q->completed++;
        if (q->waiters && q->completed == q->submitted) {
            /* Signalled without the lock, so that the woken finish does
             * not wake only to wait for it (glibc does no wait morphing). */
            pthread_mutex_unlock(&q->lock);
            pthread_cond_broadcast(&q->done_cv);
            pthread_mutex_lock(&q->lock);
        }
    }
    pthread_mutex_unlock(&q->lock);
    return NULL;
}

/* Appends *t (its seq is assigned here). */
static int32_t enqueue(accel_be_queue *q, task *t)
{
    pthread_mutex_lock(&q->lock);
    if (q->count == q->cap) {
        size_t ncap = q->cap * 2;
        task *nring = malloc(ncap * sizeof *nring);
        if (!nring) {
            pthread_mutex_unlock(&q->lock);
            q->ctx->host->set_error(q->ctx->host->host_ctx,
                                    "cpu: out of host memory growing a queue to %zu tasks", ncap);
            return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
        }
        for (size_t i = 0; i < q->count; ++i)
            nring[i] = q->ring[(q->head + i) & (q->cap - 1)];
        free(q->ring);
        q->ring = nring;
        q->cap = ncap;
        q->head = 0;
    }
    t->seq = q->submitted++;
    q->ring[(q->head + q->count) & (q->cap - 1)] = *t;
    q->count++;
    atomic_store_explicit(&q->published, q->submitted, memory_order_relaxed);
    int wake = q->worker_idle;
    pthread_mutex_unlock(&q->lock);
    /* After the unlock: a worker woken inside it would only wait for the
     * lock, one more pair of context switches on a shared core. */
    if (wake)
        pthread_cond_signal(&q->work_cv);
    return ACCEL_SUCCESS;
}

int32_t accel_cpu__queue_enqueue_work(accel_be_queue *q, const accel_cpu_work *w)
{
    task t;
    t.kind = TASK_WORK;
    t.u.work = *w;
    return enqueue(q, &t);
}

/* A task run on a caller's thread (help_locked, run_inline) has ended:
 * count it, and wake the worker for what was queued meanwhile and the
 * waiting finishes. Lock held. */
static void help_done_locked(accel_be_queue *q)
{
    q->helping = 0;
    q->completed++;
    if (q->count && q->worker_idle)
        pthread_cond_signal(&q->work_cv);
    if (q->waiters)
        pthread_cond_broadcast(&q->done_cv);
}

/* Runs w on the calling thread when the queue is idle (nothing queued or
 * running, no error pending), as help_locked runs a host function: a small
 * op then costs its own work and no hand-off, where the worker's futex
 * wake-up and two context switches were most of a 1024-element add from
 * Python. The worker takes no task meanwhile (helping), so the order stays;
 * one thread, in the IEEE default floating-point environment. Returns 1
 * when it ran w (a failure is the queue's sticky error, as on the worker),
 * 0 when the caller must enqueue it. */
int accel_cpu__queue_run_inline(accel_be_queue *q, accel_cpu_work *w)
{
    pthread_mutex_lock(&q->lock);
    if (q->helping || q->count || q->submitted != q->completed || q->err != ACCEL_SUCCESS) {
        pthread_mutex_unlock(&q->lock);
        return 0;
    }
    q->submitted++;
    q->helping = 1;
    pthread_mutex_unlock(&q->lock);
    char msg[ACCEL_CPU_MSG_SIZE];
    msg[0] = '\0';
    accel_cpu_fp_saved env;
    accel_cpu__fp_enter(&env);
    int32_t st = w->run(w, 1, msg, sizeof msg);
    accel_cpu__fp_leave(&env);
    pthread_mutex_lock(&q->lock);
    if (st != ACCEL_SUCCESS && q->err == ACCEL_SUCCESS) {
        q->err = st;
        q->err_serial++;
        snprintf(q->err_msg, sizeof q->err_msg, "%s", msg);
    }
    help_done_locked(q);
    pthread_mutex_unlock(&q->lock);
    return 1;
}

/* A zeroed record of size bytes for a new queue or event (what); NULL with
 * the message set when out of host memory. */
static void *record_new(accel_cpu_ctx *ctx, size_t size, const char *what)
{
    void *r = calloc(1, size);
    if (!r)
        ctx->host->set_error(ctx->host->host_ctx, "cpu: out of host memory creating %s", what);
    return r;
}

int32_t accel_cpu__queue_create(void *vctx, uint32_t device, accel_be_queue **out)
{
    accel_cpu_ctx *ctx = vctx;
    (void)device;
    accel_be_queue *q = record_new(ctx, sizeof *q, "a queue");
    if (!q)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    q->ctx = ctx;
    atomic_init(&q->refs, 1);
    atomic_init(&q->published, 0);
    q->yielded_seq = UINT64_MAX;
    q->cap = 64;
    q->ring = malloc(q->cap * sizeof *q->ring);
    if (!q->ring) {
        free(q);
        ctx->host->set_error(ctx->host->host_ctx, "cpu: out of host memory creating a queue");
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    pthread_mutex_init(&q->lock, NULL);
    pthread_cond_init(&q->work_cv, NULL);
    pthread_cond_init(&q->done_cv, NULL);
    int rc = pthread_create(&q->thread, NULL, worker_main, q);
    if (rc != 0) {
        pthread_mutex_destroy(&q->lock);
        pthread_cond_destroy(&q->work_cv);
        pthread_cond_destroy(&q->done_cv);
        free(q->ring);
        free(q);
        ctx->host->set_error(ctx->host->host_ctx, "cpu: cannot start a queue worker thread: %s",
                             strerror(rc));
        return ACCEL_ERROR_DEVICE;
    }
    *out = q;
    return ACCEL_SUCCESS;
}

/* Runs the task at the head of the ring on the calling thread (a finish
 * waiting for it) when it is a host function and the worker runs nothing:
 * a short collective or signal then ends without two thread hand-offs. The
 * worker takes no task meanwhile (helping), so the order stays; the task runs
 * in the IEEE default floating-point environment, as on the worker. Lock
 * held (released around the task). Returns 1 when it ran one. */
static int help_locked(accel_be_queue *q)
{
    if (q->helping || q->count == 0 || q->submitted - q->count != q->completed ||
        q->ring[q->head].kind != TASK_HOST_FN)
        return 0;
    task t = q->ring[q->head];
    q->head = (q->head + 1) & (q->cap - 1);
    q->count--;
    q->helping = 1;
    pthread_mutex_unlock(&q->lock);
    accel_cpu_fp_saved env;
    accel_cpu__fp_enter(&env);
    t.u.host_fn.fn(t.u.host_fn.user);
    accel_cpu__fp_leave(&env);
    pthread_mutex_lock(&q->lock);
    help_done_locked(q);
    return 1;
}

/* Waits until every task submitted so far has run. Lock held. Runs host
 * functions itself where help_locked can, and yields a few times before
 * sleeping (never a busy spin: on a busy machine that would take the core
 * the worker needs), so that a short task ends without two futex wake-ups. */
static void drain_locked(accel_be_queue *q)
{
    uint64_t target = q->submitted;
    for (int i = 0; q->completed < target;) {
        if (help_locked(q))
            continue;
        if (i++ == ACCEL_CPU_FINISH_YIELDS)
            break;
        pthread_mutex_unlock(&q->lock);
        sched_yield();
        pthread_mutex_lock(&q->lock);
    }
    q->waiters++;
    while (q->completed < target)
        pthread_cond_wait(&q->done_cv, &q->lock);
    q->waiters--;
}

void accel_cpu__queue_destroy(void *ctx, accel_be_queue *q)
{
    (void)ctx;
    if (!q)
        return;
    pthread_mutex_lock(&q->lock);
    drain_locked(q);
    q->stop = 1;
    pthread_cond_signal(&q->work_cv);
    if (q->err != ACCEL_SUCCESS)
        q->ctx->host->log(q->ctx->host->host_ctx, ACCEL_LOG_WARN,
                          "queue destroyed with an unreported error: %s", q->err_msg);
    pthread_mutex_unlock(&q->lock);
    pthread_join(q->thread, NULL);
    queue_release(q);
}

int32_t accel_cpu__queue_finish(void *ctx, accel_be_queue *q)
{
    (void)ctx;
    char msg[ACCEL_CPU_MSG_SIZE];
    pthread_mutex_lock(&q->lock);
    drain_locked(q);
    int32_t err = q->err;
    if (err != ACCEL_SUCCESS) {
        memcpy(msg, q->err_msg, sizeof msg);
        q->err = ACCEL_SUCCESS;
    }
    pthread_mutex_unlock(&q->lock);
    if (err != ACCEL_SUCCESS)
        q->ctx->host->set_error(q->ctx->host->host_ctx, "%s", msg);
    return err;
}

/* A transfer of at most INLINE_COPY_BYTES on an idle queue is copied on the
 * caller's thread (accel_cpu__queue_run_inline), as small ops run: a
 * blocking read of one element from Python (Array.get, float(x)) had spent
 * 75 us in the hand-off to the worker thread and back on the 2-core VM.
 * Larger ones go to the worker, so that a write still overlaps the caller. */
enum { INLINE_COPY_BYTES = 64 * 1024 };

static int32_t copy_work(accel_cpu_work *w, int threads, char *msg, size_t msg_size)
{
    (void)threads;
    (void)msg;
    (void)msg_size;
    memmove(w->u.copy.dst, w->u.copy.src, w->u.copy.bytes); /* as the worker's copy */
    return ACCEL_SUCCESS;
}

static int32_t enqueue_memcpy(accel_be_queue *q, void *dst, const void *src, size_t bytes)
{
    if (bytes <= INLINE_COPY_BYTES) {
        accel_cpu_work w;
        w.run = copy_work;
        w.discard = NULL;
        w.u.copy.dst = dst;
        w.u.copy.src = src;
        w.u.copy.bytes = bytes;
        if (accel_cpu__queue_run_inline(q, &w))
            return ACCEL_SUCCESS;
    }
    task t;
    t.kind = TASK_MEMCPY;
    t.u.copy.dst = dst;
    t.u.copy.src = src;
    t.u.copy.bytes = bytes;
    return enqueue(q, &t);
}

int32_t accel_cpu__queue_write(void *ctx, accel_be_queue *q, accel_be_buffer *dst,
                               size_t dst_offset, const void *src, size_t bytes)
{
    (void)ctx;
    return enqueue_memcpy(q, (char *)dst->data + dst_offset, src, bytes);
}

int32_t accel_cpu__queue_read(void *ctx, accel_be_queue *q, accel_be_buffer *src, size_t src_offset,
                              void *dst, size_t bytes)
{
    (void)ctx;
    return enqueue_memcpy(q, dst, (const char *)src->data + src_offset, bytes);
}

int32_t accel_cpu__queue_copy(void *ctx, accel_be_queue *q, accel_be_buffer *src, size_t src_offset,
                              accel_be_buffer *dst, size_t dst_offset, size_t bytes)
{
    (void)ctx;
    return enqueue_memcpy(q, (char *)dst->data + dst_offset, (const char *)src->data + src_offset,
                          bytes);
}

int32_t accel_cpu__queue_host_fn(void *ctx, accel_be_queue *q, accel_host_fn fn, void *user)
{
    (void)ctx;
    task t;
    t.kind = TASK_HOST_FN;
    t.u.host_fn.fn = fn;
    t.u.host_fn.user = user;
    return enqueue(q, &t);
}

int32_t accel_cpu__event_create(void *vctx, uint32_t device, accel_be_event **out)
{
    accel_cpu_ctx *ctx = vctx;
    (void)device;
    accel_be_event *ev = record_new(ctx, sizeof *ev, "an event");
    if (!ev)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    atomic_init(&ev->refs, 1);
    pthread_mutex_init(&ev->lock, NULL);
    pthread_cond_init(&ev->cv, NULL);
    *out = ev;
    return ACCEL_SUCCESS;
}

void accel_cpu__event_destroy(void *ctx, accel_be_event *ev)
{
    (void)ctx;
    if (ev)
        event_release(ev);
}

int32_t accel_cpu__event_record(void *ctx, accel_be_event *ev, accel_be_queue *q)
{
    (void)ctx;
    accel_be_queue *old = NULL;
    atomic_fetch_add(&ev->refs, 1); /* held by the record task */
    /* The new generation is visible before its task is queued; waiters then
     * simply wait for the task, which follows at once. */
    pthread_mutex_lock(&ev->lock);
    uint64_t gen = ++ev->gen_recorded;
    if (ev->queue != q) {
        old = ev->queue;
        atomic_fetch_add(&q->refs, 1);
        ev->queue = q;
    }
    pthread_mutex_unlock(&ev->lock);
    task t;
    t.kind = TASK_RECORD;
    t.u.event.ev = ev;
    t.u.event.gen = gen;
    int32_t st = enqueue(q, &t);
    if (st != ACCEL_SUCCESS) {
        /* Nothing will complete this generation: mark it done as failed. */
        pthread_mutex_lock(&ev->lock);
        if (gen > ev->gen_done) {
            ev->gen_done = gen;
            ev->stamp_ns = now_ns();
            ev->err = ACCEL_SUCCESS;
        }
        pthread_cond_broadcast(&ev->cv);
        pthread_mutex_unlock(&ev->lock);
        event_release(ev);
    }
    if (old)
        queue_release(old);
    return st;
}

int32_t accel_cpu__queue_wait_event(void *ctx, accel_be_queue *q, accel_be_event *ev)
{
    (void)ctx;
    pthread_mutex_lock(&ev->lock);
    uint64_t gen = ev->gen_recorded;
    int done = ev->gen_done >= gen;
    pthread_mutex_unlock(&ev->lock);
    if (done)
        return ACCEL_SUCCESS; /* never recorded, or already complete */
    atomic_fetch_add(&ev->refs, 1);
    task t;
    t.kind = TASK_WAIT;
    t.u.event.ev = ev;
    t.u.event.gen = gen;
    int32_t st = enqueue(q, &t);
    if (st != ACCEL_SUCCESS)
        event_release(ev);
    return st;
}

int32_t accel_cpu__event_synchronize(void *ctx, accel_be_event *ev)
{
    (void)ctx;
    pthread_mutex_lock(&ev->lock);
    uint64_t gen = ev->gen_recorded;
    while (ev->gen_done < gen)
        pthread_cond_wait(&ev->cv, &ev->lock);
    int32_t err = ev->err;
    uint64_t serial = ev->err_serial;
    accel_be_queue *q = ev->queue;
    if (q)
        atomic_fetch_add(&q->refs, 1);
    pthread_mutex_unlock(&ev->lock);
    if (!q)
        return ACCEL_SUCCESS;

    /* Report the error once: only while it is still the queue's pending one
     * (a finish or an earlier synchronize may have returned it already). Ops
     * enqueued before this call stay skipped. */
    char msg[ACCEL_CPU_MSG_SIZE];
    int32_t ret = ACCEL_SUCCESS;
    if (err != ACCEL_SUCCESS) {
        pthread_mutex_lock(&q->lock);
        if (q->err != ACCEL_SUCCESS && q->err_serial == serial) {
            ret = q->err;
            memcpy(msg, q->err_msg, sizeof msg);
            q->err = ACCEL_SUCCESS;
            q->skip_below = q->submitted;
        }
        pthread_mutex_unlock(&q->lock);
        if (ret != ACCEL_SUCCESS)
            q->ctx->host->set_error(q->ctx->host->host_ctx, "%s", msg);
    }
    queue_release(q);
    return ret;
}

int32_t accel_cpu__event_query(void *ctx, accel_be_event *ev, int *out_done)
{
    (void)ctx;
    pthread_mutex_lock(&ev->lock);
    *out_done = ev->gen_done >= ev->gen_recorded;
    pthread_mutex_unlock(&ev->lock);
    return ACCEL_SUCCESS;
}

int32_t accel_cpu__event_elapsed_ms(void *vctx, accel_be_event *start, accel_be_event *end,
                                    double *out_ms)
{
    accel_cpu_ctx *ctx = vctx;
    uint64_t t[2];
    accel_be_event *evs[2] = {start, end};
    for (int i = 0; i < 2; ++i) {
        pthread_mutex_lock(&evs[i]->lock);
        int ok = evs[i]->gen_recorded > 0 && evs[i]->gen_done >= evs[i]->gen_recorded;
        t[i] = evs[i]->stamp_ns;
        pthread_mutex_unlock(&evs[i]->lock);
        if (!ok) {
            ctx->host->set_error(ctx->host->host_ctx, "cpu: event_elapsed_ms: the %s event is %s",
                                 i ? "end" : "start", "not recorded or not complete");
            return ACCEL_ERROR_INVALID_ARGUMENT;
        }
    }
    *out_ms = ((double)t[1] - (double)t[0]) / 1e6;
    return ACCEL_SUCCESS;
}
