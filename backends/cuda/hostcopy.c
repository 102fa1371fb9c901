/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* hostcopy.c — host memcpy spread over a few threads, for the pinned
 * staging of pageable transfers (queue.c).
 *
 * One core's memcpy between pageable and pinned memory bounded the staged
 * transfers of the H200 bench at 5.7-7.2 GB/s (a single core's outstanding
 * cache misses limit it, not DRAM), far below the 55 GB/s the DMA engines
 * reach from pinned memory. So a staged transfer splits each chunk's memcpy
 * into parts that the calling thread and a small pool of worker threads
 * owned by the backend (created on the first large staged transfer, joined
 * at shutdown) claim one at a time until none is left.
 *
 * Parts are claimed, not assigned: with one fixed part per thread, one
 * worker descheduled by the rest of the machine's load held the whole copy
 * up (on the H200 machine, at load 6, 12 and 16 threads staged a batched run
 * at 9 GB/s where 12 had reached 33 GB/s minutes before); now the others
 * take its parts, and a late thread costs at most the part it holds. A part
 * is about a quarter of a thread's share (at least 256 KiB, at most 64
 * parts). Each part's claim word holds the generation (job number) of the
 * last job that claimed it: a thread claims part i of job g by moving the
 * word from below g to g, so a thread still holding an older job's number
 * can never claim in a newer one, and the job's fields, written before g is
 * published, stay unchanged until every part of g is copied.
 *
 * Workers spin for up to 2 ms after a job (a transfer hands them a new
 * chunk every few hundred microseconds; a futex wake-up and rescheduling
 * would cost tens of microseconds of each, more under gVisor), then sleep on
 * a condition variable. One copy at a time
 * uses the pool; a thread that finds it busy (another queue's transfer)
 * copies alone. Workers only run memcpy: no CUDA call, no error to report. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda_internal.h"

/* Threads in all (the caller included), the smallest part (a copy under 2
 * parts' worth is done by the caller alone), parts per thread's share, and
 * parts of one copy at most. */
#define MAX_THREADS 16u
#define MIN_PART ((size_t)256 << 10)
#define PARTS_PER_THREAD 4u
#define MAX_PARTS 64u
/* How long an idle worker spins before it sleeps. */
#define SPIN_NS 2000000L

struct accel_cuda_copy_pool;

typedef struct copy_worker {
    struct accel_cuda_copy_pool *pool;
    unsigned first; /* the part this worker tries first (w + 1; the caller 0) */
    pthread_t thread;
} copy_worker;

struct accel_cuda_copy_pool {
    pthread_mutex_t busy; /* held by the one caller using the pool */
    pthread_mutex_t lock; /* sleepers, stop, and a generation bump that wakes */
    pthread_cond_t wake;
    unsigned workers; /* threads besides the caller, fixed before the first job */
    copy_worker worker[MAX_THREADS];
    /* The current job: written by the caller before it bumps gen, read by a
     * thread only after it has claimed a part of it, left alone until every
     * part is copied. */
    char *dst;
    const char *src;
    size_t len, part;
    unsigned long long gen; /* atomic: bumped once per job */
    /* atomic: the job that claimed each part; parts past the job's count are
     * marked claimed when it is posted */
    unsigned long long claimed[MAX_PARTS];
    unsigned done;     /* atomic: parts of the job copied */
    unsigned sleepers; /* under lock */
    int stop;          /* atomic; set under lock */
};

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ __volatile__("pause");
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Part i of the job: [i*part, (i+1)*part) clipped to len. */
static void copy_part(const struct accel_cuda_copy_pool *p, unsigned i)
{
    size_t lo = (size_t)i * p->part, hi = lo + p->part;
    if (lo > p->len)
        lo = p->len;
    if (hi > p->len)
        hi = p->len;
    if (hi > lo)
        memcpy(p->dst + lo, p->src + lo, hi - lo);
}

/* Claim and copy parts of job g, starting at part `first`, until every part
 * of it is claimed. */
static void copy_parts(struct accel_cuda_copy_pool *p, unsigned long long g, unsigned first)
{
    for (unsigned k = 0; k < MAX_PARTS; ++k) {
        unsigned i = (first + k) % MAX_PARTS;
        unsigned long long v = __atomic_load_n(&p->claimed[i], __ATOMIC_RELAXED);
        if (v >= g || !__atomic_compare_exchange_n(&p->claimed[i], &v, g, 0, __ATOMIC_ACQUIRE,
                                                   __ATOMIC_RELAXED))
            continue;
        copy_part(p, i);
        __atomic_fetch_add(&p->done, 1u, __ATOMIC_RELEASE);
    }
}

/* The newest generation, when it is not `seen`, or `seen` itself once the
 * pool stops. A late worker may skip a job that the others finished. */
static unsigned long long wait_job(struct accel_cuda_copy_pool *p, unsigned long long seen)
{
    long long t0 = 0;
    for (unsigned spins = 1;; ++spins) {
        unsigned long long g = __atomic_load_n(&p->gen, __ATOMIC_ACQUIRE);
        if (g != seen)
            return g;
        if (__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE))
            return seen;
        cpu_relax();
        if (spins % 1024u == 0) {
            long long t = now_ns();
            if (!t0)
                t0 = t;
            else if (t - t0 > SPIN_NS)
                break;
        }
    }
    unsigned long long g;
    pthread_mutex_lock(&p->lock);
    while ((g = __atomic_load_n(&p->gen, __ATOMIC_ACQUIRE)) == seen &&
           !__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE)) {
        p->sleepers++;
        pthread_cond_wait(&p->wake, &p->lock);
        p->sleepers--;
    }
    pthread_mutex_unlock(&p->lock);
    return g;
}

static void *worker_main(void *arg)
{
    const copy_worker *w = arg;
    struct accel_cuda_copy_pool *p = w->pool;
    unsigned long long seen = 0;
    for (;;) {
        unsigned long long g = wait_job(p, seen);
        if (g == seen)
            return NULL; /* stopped */
        seen = g;
        copy_parts(p, g, w->first);
    }
}

/* Threads in all. [backend.cuda] copy_threads when set; else all cores this
 * process may run on but two (the DMA engines' driver threads and the
 * application keep those), none besides the caller under 4 cores, at most
 * MAX_THREADS. One thread's memcpy from pageable into page-locked memory
 * is about 5 GB/s on the H200 machine and scales with threads (7.6 GB/s
 * on 1, 52 on 8, 79 on 16), the link 55 GB/s: 14 threads there. */
static unsigned thread_budget(const accel_cuda_ctx *ctx)
{
    if (ctx->copy_threads)
        return ctx->copy_threads;
    cpu_set_t set;
    long cores = 0;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        cores = CPU_COUNT(&set);
    long n = cores >= 4 ? cores - 2 : 1;
    return n > (long)MAX_THREADS ? MAX_THREADS : (unsigned)n;
}

int32_t accel_cuda__host_copy_configure(accel_cuda_ctx *ctx, const char *value)
{
    ctx->copy_threads = 0;
    if (!value)
        return ACCEL_SUCCESS;
    char *end = NULL;
    errno = 0;
    unsigned long n = strtoul(value, &end, 10);
    while (end && (*end == ' ' || *end == '\t'))
        ++end;
    if (errno || end == value || !end || *end || value[0] == '-' || n > MAX_THREADS) {
        ctx->host->set_error(ctx->host->host_ctx,
                             "[backend.cuda] copy_threads = '%s': expected 0 (automatic) to %u",
                             value, MAX_THREADS);
        return ACCEL_ERROR_CONFIG;
    }
    ctx->copy_threads = (unsigned)n;
    return ACCEL_SUCCESS;
}

unsigned accel_cuda__host_copy_threads(const accel_cuda_ctx *ctx)
{
    return thread_budget(ctx);
}

static void pool_free(struct accel_cuda_copy_pool *p)
{
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    pthread_mutex_destroy(&p->busy);
    free(p);
}

static void pool_stop(struct accel_cuda_copy_pool *p)
{
    pthread_mutex_lock(&p->lock);
    __atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (unsigned w = 0; w < p->workers; ++w)
        pthread_join(p->worker[w].thread, NULL);
}

/* NULL when one thread is all this machine should use, or on any failure:
 * the caller then copies alone, which is correct, only slower. */
static struct accel_cuda_copy_pool *pool_create(const accel_cuda_ctx *ctx)
{
    const unsigned total = thread_budget(ctx);
    if (total < 2)
        return NULL;
    struct accel_cuda_copy_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    pthread_mutex_init(&p->busy, NULL);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    /* Workers take no signals: those stay with the application's threads. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    for (unsigned w = 0; w + 1 < total; ++w) {
        p->worker[w].pool = p;
        p->worker[w].first = w + 1;
        if (pthread_create(&p->worker[w].thread, NULL, worker_main, &p->worker[w]) != 0)
            break;
        p->workers++;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (p->workers == 0) {
        pool_free(p);
        return NULL;
    }
    return p;
}

static struct accel_cuda_copy_pool *get_pool(accel_cuda_ctx *ctx)
{
    if (__atomic_load_n(&ctx->copy_pool_tried, __ATOMIC_ACQUIRE))
        return ctx->copy_pool;
    pthread_mutex_lock(&ctx->copy_pool_lock);
    if (!ctx->copy_pool_tried) {
        ctx->copy_pool = pool_create(ctx);
        __atomic_store_n(&ctx->copy_pool_tried, 1, __ATOMIC_RELEASE);
        if (ctx->copy_pool)
            ctx->host->log(ctx->host->host_ctx, ACCEL_LOG_DEBUG,
                           "pageable transfers: host copies on %u threads",
                           ctx->copy_pool->workers + 1u);
    }
    pthread_mutex_unlock(&ctx->copy_pool_lock);
    return ctx->copy_pool;
}

void accel_cuda__host_copy(accel_cuda_ctx *ctx, void *dst, const void *src, size_t len)
{
    struct accel_cuda_copy_pool *p = len >= 2 * MIN_PART ? get_pool(ctx) : NULL;
    if (!p || pthread_mutex_trylock(&p->busy) != 0) {
        memcpy(dst, src, len);
        return;
    }
    const size_t threads = (size_t)p->workers + 1u;
    size_t part = (len + threads * PARTS_PER_THREAD - 1u) / (threads * PARTS_PER_THREAD);
    if (part < MIN_PART)
        part = MIN_PART;
    if (part < (len + MAX_PARTS - 1u) / MAX_PARTS)
        part = (len + MAX_PARTS - 1u) / MAX_PARTS;
    part = (part + 63u) & ~(size_t)63u; /* whole cache lines */
    const unsigned parts = (unsigned)((len + part - 1u) / part);
    const unsigned long long g = __atomic_load_n(&p->gen, __ATOMIC_RELAXED) + 1ull;
    p->dst = dst;
    p->src = src;
    p->len = len;
    p->part = part;
    __atomic_store_n(&p->done, 0u, __ATOMIC_RELAXED);
    for (unsigned i = parts; i < MAX_PARTS; ++i)
        __atomic_store_n(&p->claimed[i], g, __ATOMIC_RELAXED);
    /* The release bump publishes the job; spinning workers see it without a
     * syscall, sleeping ones are woken (they check gen under the lock). */
    pthread_mutex_lock(&p->lock);
    __atomic_store_n(&p->gen, g, __ATOMIC_RELEASE);
    if (p->sleepers)
        pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    copy_parts(p, g, 0);
    /* Every part is claimed; wait for the ones still being copied (yield
     * now and then: their thread may have been descheduled). The acquire
     * load of the count makes their bytes visible here. */
    for (unsigned spins = 1; __atomic_load_n(&p->done, __ATOMIC_ACQUIRE) != parts; ++spins) {
        cpu_relax();
        if (spins % 4096u == 0)
            sched_yield();
    }
    pthread_mutex_unlock(&p->busy);
}

void accel_cuda__host_touch(void *p, size_t bytes)
{
    volatile char *c = p;
    for (size_t off = 0; off < bytes; off += 4096)
        c[off] = 0;
}

/* -------------------------------------------------- spare staging rings */

/* Page-locking a queue's 64 MiB ring costs tens of milliseconds (a batched
 * run's probe queue and slot queues each paid it: 80-100 ms of a 100 ms
 * call whose chunks took 18-22 ms), so a released queue's ring is kept for
 * the next queue of the same device. */
#define SPARE_RINGS 2u

struct accel_cuda_spare_ring {
    uint32_t device;
    void *chunk[ACCEL_CUDA_STAGING_CHUNKS];
    cudaEvent_t done[ACCEL_CUDA_STAGING_CHUNKS];
};

int accel_cuda__ring_keep(accel_cuda_ctx *ctx, const accel_be_queue *q)
{
    int kept = 0;
    pthread_mutex_lock(&ctx->copy_pool_lock);
    if (!ctx->spare_rings)
        ctx->spare_rings = calloc(SPARE_RINGS, sizeof *ctx->spare_rings);
    if (ctx->spare_rings && ctx->spare_count < SPARE_RINGS) {
        struct accel_cuda_spare_ring *r = &ctx->spare_rings[ctx->spare_count++];
        r->device = q->device;
        memcpy(r->chunk, q->chunk, sizeof r->chunk);
        memcpy(r->done, q->chunk_done, sizeof r->done);
        kept = 1;
    }
    pthread_mutex_unlock(&ctx->copy_pool_lock);
    return kept;
}

int accel_cuda__ring_take(accel_cuda_ctx *ctx, accel_be_queue *q)
{
    int got = 0;
    pthread_mutex_lock(&ctx->copy_pool_lock);
    for (unsigned i = 0; i < ctx->spare_count && !got; ++i) {
        struct accel_cuda_spare_ring *r = &ctx->spare_rings[i];
        if (r->device != q->device)
            continue;
        memcpy(q->chunk, r->chunk, sizeof q->chunk);
        memcpy(q->chunk_done, r->done, sizeof q->chunk_done);
        *r = ctx->spare_rings[--ctx->spare_count];
        got = 1;
    }
    pthread_mutex_unlock(&ctx->copy_pool_lock);
    return got;
}

static void rings_free(accel_cuda_ctx *ctx)
{
    for (unsigned i = 0; i < ctx->spare_count; ++i) {
        for (int c = 0; c < ACCEL_CUDA_STAGING_CHUNKS; ++c) {
            (void)cudaEventDestroy(ctx->spare_rings[i].done[c]);
            (void)cudaFreeHost(ctx->spare_rings[i].chunk[c]);
        }
    }
    (void)cudaGetLastError();
    free(ctx->spare_rings);
    ctx->spare_rings = NULL;
    ctx->spare_count = 0;
}

void accel_cuda__host_copy_shutdown(accel_cuda_ctx *ctx)
{
    rings_free(ctx);
    if (ctx->copy_pool) {
        pool_stop(ctx->copy_pool);
        pool_free(ctx->copy_pool);
    }
    ctx->copy_pool = NULL;
    ctx->copy_pool_tried = 0;
}
