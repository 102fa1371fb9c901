/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* hostcopy.c — host memcpy spread over a few threads, for the page-locked
 * staging of pageable transfers (queue.c), and the staging rings that
 * released queues leave for the next ones.
 *
 * One core's memcpy between pageable and page-locked memory bounded the
 * staged transfers of the H200 bench at 5.7-7.2 GB/s (a single core's
 * outstanding cache misses limit it, not DRAM), far below the 55 GB/s the
 * DMA engines reach from pinned memory. So a pool of worker threads owned
 * by the backend (created on the first large staged transfer, joined at
 * shutdown) copies with the calling thread.
 *
 * A ring copy (accel_cuda__ring_copy) moves a pageable transfer through a
 * queue's ring of page-locked pieces: the threads claim the transfer's
 * parts in order from one word and copy each once its piece may be (its
 * slot's last DMA done, to the device; its DMA landed, to the host), while
 * the calling thread starts each piece's DMA as soon as its parts are in
 * and frees slots as their DMAs end. So the threads never wait for the
 * CUDA calls, and a piece's DMA overlaps the copies of the next ones. (The
 * copy of a whole 16 MiB chunk by the pool, then its DMA, staged a batched
 * 100M-float sum at 17-33 GB/s of the H200's 55; the ring copy at 43-50.)
 *
 * Parts are claimed, not assigned: with one fixed part per thread, one
 * worker descheduled by the rest of the machine's load held the whole copy
 * up (on the H200 machine, at load 6, 12 and 16 threads staged a batched run
 * at 9 GB/s where 12 had reached 33 GB/s minutes before); now the others
 * take its parts, and a late thread costs at most the part it holds. A part
 * is about a quarter of a thread's share of a piece, at least 64 KiB. The
 * claim word holds the job's number in its high half: a thread still
 * holding an older job's number can never claim in a newer one, and a
 * job's fields, written after its claim word and before its number is
 * published, stay unchanged until every part of it is copied.
 *
 * Workers spin for up to 2 ms after a job (a transfer hands them a new
 * piece every few tens of microseconds; a futex wake-up and rescheduling
 * would cost tens of microseconds of each, more under gVisor), then sleep on
 * a condition variable. One copy at a time uses the pool; a thread that
 * finds it busy (another queue's transfer) copies alone. Workers only run
 * memcpy: no CUDA call, no error to report. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda_internal.h"

/* Threads in all (the caller included), the smallest transfer the pool
 * takes (smaller ones the caller copies alone), parts per thread's share
 * of a piece, and the smallest part. */
#define MAX_THREADS 16u
#define POOL_MIN_BYTES ((size_t)512 << 10)
#define PARTS_PER_THREAD 4u
#define MIN_PART ((size_t)64 << 10)
/* How long an idle worker spins before it sleeps. */
#define SPIN_NS 2000000L

struct accel_cuda_copy_pool;

typedef struct copy_worker {
    struct accel_cuda_copy_pool *pool;
    pthread_t thread;
} copy_worker;

struct accel_cuda_copy_pool {
    pthread_mutex_t busy; /* held by the one caller using the pool */
    pthread_mutex_t lock; /* sleepers, stop, and a generation bump that wakes */
    pthread_cond_t wake;
    unsigned workers; /* threads besides the caller, fixed before the first job */
    copy_worker worker[MAX_THREADS];
    unsigned long long gen; /* atomic: bumped once per job */
    unsigned sleepers;      /* under lock */
    int stop;               /* atomic; set under lock */
    /* The current job (a ring copy): written by the caller after the claim
     * word and before it bumps gen, read by a thread only after it has
     * claimed a part of it, left alone until every part is copied. Parts
     * are claimed in order from one word (the job's number in the high 32
     * bits, the next part in the low ones); part i belongs to piece
     * i / ring_ppp, which may be copied once ring_avail > its number. */
    size_t len;
    int ring_to_device, ring_abort /* atomic */;
    char *ring_host;
    void *const *ring_slot;
    unsigned ring_k, ring_first, ring_ppp;
    size_t ring_piece, ring_part, ring_parts;
    unsigned long long ring_claim;               /* atomic */
    unsigned long long ring_avail;               /* atomic: pieces that may be copied */
    unsigned long long ring_over;                /* atomic: parts copied or skipped */
    unsigned ring_in[ACCEL_CUDA_STAGING_CHUNKS]; /* atomic: parts done of each slot's piece */
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

/* Part i of the job: its piece, and [lo, hi) of the transfer. */
static size_t ring_span(const struct accel_cuda_copy_pool *p, size_t i, size_t total, size_t *lo,
                        size_t *hi)
{
    size_t piece = i / p->ring_ppp;
    size_t start = piece * p->ring_piece, end = start + p->ring_piece;
    if (end > total)
        end = total;
    *lo = start + (i % p->ring_ppp) * p->ring_part;
    *hi = *lo + p->ring_part;
    if (*lo > end)
        *lo = end;
    if (*hi > end)
        *hi = end;
    return piece;
}

/* Claim the next part of ring job g (when `upto`, only one of a piece
 * below it: the caller must not wait for pieces it has to make ready
 * itself); SIZE_MAX when there is none to claim. */
static size_t ring_claim(struct accel_cuda_copy_pool *p, unsigned long long g, size_t upto)
/* upto: SIZE_MAX for a worker */
{
    const unsigned long long tag = (g & 0xffffffffull) << 32;
    unsigned long long v = __atomic_load_n(&p->ring_claim, __ATOMIC_RELAXED);
    for (;;) {
        if ((v & ~0xffffffffull) != tag)
            return SIZE_MAX; /* another job's word: job g is over */
        size_t i = (size_t)(v & 0xffffffffull);
        /* Atomic reads: a late worker may read them while the next job is
         * posted; its claim then fails, as that job's word came first. */
        if (i >= __atomic_load_n(&p->ring_parts, __ATOMIC_RELAXED) ||
            i / __atomic_load_n(&p->ring_ppp, __ATOMIC_RELAXED) >= upto)
            return SIZE_MAX;
        if (__atomic_compare_exchange_n(&p->ring_claim, &v, v + 1, 0, __ATOMIC_ACQUIRE,
                                        __ATOMIC_RELAXED))
            return i;
    }
}

/* Copy claimed part i once its piece may be (or skip it when the job was
 * aborted), and count it. */
static void ring_part(struct accel_cuda_copy_pool *p, size_t i)
{
    size_t lo, hi;
    size_t piece = ring_span(p, i, p->len, &lo, &hi);
    for (unsigned spins = 1; __atomic_load_n(&p->ring_avail, __ATOMIC_ACQUIRE) <= piece; ++spins) {
        if (__atomic_load_n(&p->ring_abort, __ATOMIC_ACQUIRE))
            break;
        cpu_relax();
        if (spins % 4096u == 0)
            sched_yield();
    }
    unsigned slot = (unsigned)((p->ring_first + piece) % p->ring_k);
    if (hi > lo && !__atomic_load_n(&p->ring_abort, __ATOMIC_ACQUIRE)) {
        char *ring = (char *)p->ring_slot[slot] + (lo - piece * p->ring_piece);
        if (p->ring_to_device)
            memcpy(ring, p->ring_host + lo, hi - lo);
        else
            memcpy(p->ring_host + lo, ring, hi - lo);
    }
    __atomic_fetch_add(&p->ring_in[slot], 1u, __ATOMIC_RELEASE);
    __atomic_fetch_add(&p->ring_over, 1ull, __ATOMIC_RELEASE);
}

/* A worker's share of ring job g: parts in order until none is left. */
static void ring_parts(struct accel_cuda_copy_pool *p, unsigned long long g)
{
    for (size_t i; (i = ring_claim(p, g, SIZE_MAX)) != SIZE_MAX;)
        ring_part(p, i);
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
        ring_parts(p, g);
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

/* ------------------------------------------------------- ring copies */

/* The caller's side of a ring copy (see cuda_internal.h): make pieces ready
 * for the copy threads, start the DMAs of pieces whose parts are all in
 * (to the device) or whose slots are free again (to the host), and copy a
 * part itself when there is nothing else to do. Pieces p of the transfer
 * use slot (first + p) % k. */
typedef struct ring_run {
    struct accel_cuda_copy_pool *p;
    unsigned long long g;
    const accel_cuda_ring_ops *ops;
    void *user;
    size_t pieces, started, ready, consumed;
} ring_run;

static unsigned slot_of(const struct accel_cuda_copy_pool *p, size_t piece)
{
    return (unsigned)((p->ring_first + piece) % p->ring_k);
}

/* Whether every one of piece's ring_ppp parts (the last piece's tail ones
 * empty) has been copied by the threads; if so its slot's count is reset. */
static bool take_copied(struct accel_cuda_copy_pool *p, size_t piece)
{
    unsigned slot = slot_of(p, piece);
    if (__atomic_load_n(&p->ring_in[slot], __ATOMIC_ACQUIRE) != p->ring_ppp)
        return false;
    __atomic_store_n(&p->ring_in[slot], 0u, __ATOMIC_RELAXED);
    return true;
}

/* Starts the DMA of the next piece (r->started) in its slot. */
static int32_t start_next(ring_run *r)
{
    const struct accel_cuda_copy_pool *p = r->p;
    size_t off = r->started * p->ring_piece;
    size_t len = p->len - off < p->ring_piece ? p->len - off : p->ring_piece;
    int32_t st = r->ops->start(r->user, slot_of(p, r->started), off, len);
    if (st == 0)
        r->started++;
    return st;
}

/* Marks done DMAs ready, in order, up to piece limit; the copy threads see
 * ring_avail. */
static int32_t poll_done(ring_run *r, size_t limit, int *moved)
{
    while (r->ready < limit) {
        int d = 0;
        int32_t st = r->ops->done(r->user, slot_of(r->p, r->ready), &d);
        if (st != 0)
            return st;
        if (!d)
            break;
        __atomic_store_n(&r->p->ring_avail, (unsigned long long)++r->ready, __ATOMIC_RELEASE);
        *moved = 1;
    }
    return 0;
}

/* One round of the caller's work; *moved: something advanced. Returns 0
 * or an error status of ops (its message set). */
static int32_t ring_step(ring_run *r, int *moved)
{
    struct accel_cuda_copy_pool *p = r->p;
    const size_t k = p->ring_k;
    int32_t st;
    *moved = 0;
    if (p->ring_to_device) {
        /* A slot may be filled once its last DMA (an earlier transfer's or
         * piece - k's of this one, started by then) is done. */
        size_t limit = r->started + k < r->pieces ? r->started + k : r->pieces;
        if ((st = poll_done(r, limit, moved)) != 0)
            return st;
        while (r->started < r->ready && take_copied(p, r->started)) {
            if ((st = start_next(r)) != 0)
                return st;
            *moved = 1;
        }
        return 0;
    }
    /* To the host: a slot's DMA may start once its piece - k is copied out
     * (stream order keeps it behind the slot's earlier DMAs); its parts
     * may be copied out once the DMA is done. */
    while (r->consumed < r->ready && take_copied(p, r->consumed)) {
        r->consumed++;
        *moved = 1;
    }
    while (r->started < r->pieces && r->started < r->consumed + k) {
        if ((st = start_next(r)) != 0)
            return st;
        *moved = 1;
    }
    return poll_done(r, r->started, moved);
}

/* The pool for a ring copy: this thread's own when the pool is busy or
 * there is none (it then copies every part itself). */
static struct accel_cuda_copy_pool *solo_pool(void)
{
    static _Thread_local struct accel_cuda_copy_pool solo;
    memset(&solo, 0, sizeof solo);
    return &solo;
}

int32_t accel_cuda__ring_copy(accel_cuda_ctx *ctx, int to_device, void *host, size_t bytes,
                              void *const *slots, unsigned k, unsigned first, size_t piece,
                              const accel_cuda_ring_ops *ops, void *user)
{
    if (bytes == 0)
        return 0;
    struct accel_cuda_copy_pool *p = bytes >= POOL_MIN_BYTES ? get_pool(ctx) : NULL;
    if (p && pthread_mutex_trylock(&p->busy) != 0)
        p = NULL;
    const int shared = p != NULL;
    if (!p)
        p = solo_pool();
    const size_t threads = shared ? (size_t)p->workers + 1u : 1u;
    /* Parts: about a quarter of a thread's share of a piece, at least 64 KiB. */
    size_t part = (piece + threads * PARTS_PER_THREAD - 1u) / (threads * PARTS_PER_THREAD);
    if (part < MIN_PART)
        part = MIN_PART;
    part = (part + 63u) & ~(size_t)63u;
    if (part > piece)
        part = piece;
    const size_t ppp = (piece + part - 1u) / part;
    const size_t pieces = (bytes + piece - 1u) / piece;
    const unsigned long long g = __atomic_load_n(&p->gen, __ATOMIC_RELAXED) + 1ull;
    /* The claim word first: a worker still in the previous job fails its
     * next claim before any field below changes. */
    __atomic_store_n(&p->ring_claim, (g & 0xffffffffull) << 32, __ATOMIC_RELEASE);
    p->ring_to_device = to_device;
    __atomic_store_n(&p->ring_abort, 0, __ATOMIC_RELAXED);
    p->ring_host = host;
    p->ring_slot = slots;
    p->ring_k = k;
    p->ring_first = first;
    __atomic_store_n(&p->ring_ppp, (unsigned)ppp, __ATOMIC_RELAXED);
    p->ring_piece = piece;
    p->ring_part = part;
    __atomic_store_n(&p->ring_parts, pieces * ppp, __ATOMIC_RELAXED);
    p->len = bytes;
    __atomic_store_n(&p->ring_avail, 0ull, __ATOMIC_RELAXED);
    __atomic_store_n(&p->ring_over, 0ull, __ATOMIC_RELAXED);
    for (unsigned i = 0; i < k; ++i)
        __atomic_store_n(&p->ring_in[i], 0u, __ATOMIC_RELAXED);
    ring_run r = {p, g, ops, user, pieces, 0, 0, 0};
    int32_t st = 0;
    const size_t *goal = to_device ? &r.started : &r.consumed;
    /* The copy threads get the job once its first piece is ready: a
     * transfer queued behind long work (a read waits for it) keeps only
     * this thread waiting, as cudaEventSynchronize would. */
    int posted = !shared;
    for (unsigned spins = 1; *goal < pieces; ++spins) {
        int moved = 0;
        st = ring_step(&r, &moved);
        if (st != 0)
            break;
        if (!posted && r.ready > 0) {
            pthread_mutex_lock(&p->lock);
            __atomic_store_n(&p->gen, g, __ATOMIC_RELEASE);
            if (p->sleepers)
                pthread_cond_broadcast(&p->wake);
            pthread_mutex_unlock(&p->lock);
            posted = 1;
        }
        if (moved)
            continue;
        size_t i = ring_claim(p, g, r.ready); /* help with a piece that is ready */
        if (i != SIZE_MAX) {
            ring_part(p, i);
            continue;
        }
        cpu_relax();
        if (spins % 4096u == 0)
            sched_yield();
    }
    if (st != 0) { /* let every claimed part end (skipped), claim the rest */
        __atomic_store_n(&p->ring_abort, 1, __ATOMIC_RELEASE);
        for (size_t i; (i = ring_claim(p, g, SIZE_MAX)) != SIZE_MAX;)
            ring_part(p, i);
        while (__atomic_load_n(&p->ring_over, __ATOMIC_ACQUIRE) != pieces * ppp)
            cpu_relax();
    }
    /* The job's number is used up even when the threads never got it (the
     * next job must have a higher one). Workers see no part left now; the
     * next job's claim word comes first. */
    if (!posted)
        __atomic_store_n(&p->gen, g, __ATOMIC_RELEASE);
    if (shared)
        pthread_mutex_unlock(&p->busy);
    return st;
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
