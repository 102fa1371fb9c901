/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* twin.c — the CUDA execution model for the C twins of raw kernels
 * (backend.h's accel_twin): blocks, barriers, warp functions, atomics,
 * printf and the debug build's checks.
 *
 * Technique: a block whose kernel synchronizes (__syncthreads, warp
 * functions) runs each of its threads as a lightweight context (a fiber: its
 * own 64 KiB stack and a hand-written switch of the callee-saved registers
 * on x86-64, ucontext elsewhere), all on the worker thread that owns the
 * block; a thread runs until it reaches a barrier or a warp collective and
 * hands over to the next, so every thread of the block reaches the barrier
 * before any passes it (the one-context-per-thread technique of Numba's CUDA
 * simulator and of AdaptiveCpp's fiber back end, where PoCL instead splits
 * loops at barriers in its compiler). Blocks run in parallel over the
 * backend's OpenMP team, one block per worker at a time, so __shared__ (a
 * static of the worker thread) is the block's. Kernels without barriers run
 * their threads in a plain loop, without contexts.
 *
 * Atomics use the GCC/C11 __atomic builtins (sequentially consistent), the
 * float and double forms a compare-and-swap loop on the bits. */
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "guard.h"
#include "twin.h"

#if defined(__SANITIZE_ADDRESS__)
#define TW_ASAN 1
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#else
#define TW_ASAN 0
#endif

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

/* A suspended context: its saved stack pointer (accel_tw_switch below), or
 * a ucontext where that is not written. */
#if defined(__x86_64__)
typedef void *tw_ctx;
#else
typedef ucontext_t tw_ctx;
#endif

#define TW_STACK (64u * 1024u)
#define TW_GUARD 4096u
#define TW_MAXT 1024u

enum { F_READY = 0, F_BAR = 1, F_WARP = 2, F_DONE = 3 };

typedef struct tw_team tw_team;

typedef struct tw_fiber {
    accel_twin_thread t;
    tw_team *team;
    int state;
    char *stack;
    tw_ctx ctx;
    sigjmp_buf env;
    void *fake; /* ASan's fake stack while switched away */
} tw_fiber;

typedef struct tw_warp {
    uint32_t live, arrived, pmask;
    uint32_t gen;
    uint32_t vote[2], part[2];
    uint64_t slot[2][32];
} tw_warp;

/* The debug build's memory of one shared element (race detection). */
/* One access to a shared element: its thread, the block's barrier and the
 * warp's generations then, and its line (0: none). */
typedef struct tw_access {
    uint32_t tid, bar, wgen;
    int line;
} tw_access;
typedef struct tw_shadow {
    uintptr_t addr;
    uint64_t block; /* the block serial it belongs to; older: empty */
    tw_access w, r; /* the last write and the last read */
} tw_shadow;
#define TW_SHADOW (1u << 16)

/* One worker thread's block machinery, kept for its life. */
struct tw_team {
    tw_fiber *f;
    char *stacks;
    unsigned ready; /* fibers with a stack */
    unsigned nthreads, nwarps, live, arrived, gen, nbar[2];
    int acc[2];
    tw_warp warps[TW_MAXT / 32];
    void (*fn)(accel_twin_thread *, void *const *);
    void *const *args;
    const accel_cpu_twin *T;
    bool fibers, fault;
    bool from_sched; /* the running context was entered from the scheduler */
    tw_ctx sched_ctx;
    const void *sched_bottom;
    size_t sched_size;
    void *dsm;
    size_t dsm_cap;
    uint64_t block, serial, seq; /* the block (linear), its serial here, its prints */
    tw_shadow *shadow;
};

static pthread_key_t team_key;
static pthread_once_t team_once = PTHREAD_ONCE_INIT;
static __thread tw_team *tl_team;
/* Blocks of kernels whose shared memory is a plain static (the embedded
 * compiler has no TLS) run one at a time, process-wide. */
static pthread_mutex_t serial_lock = PTHREAD_MUTEX_INITIALIZER;

static void team_free(void *p)
{
    tw_team *t = p;
    if (!t)
        return;
    if (t->stacks)
        munmap(t->stacks, (size_t)TW_MAXT * (TW_STACK + TW_GUARD));
    free(t->f);
    free(t->dsm);
    free(t->shadow);
    free(t);
}

static void team_key_make(void)
{
    pthread_key_create(&team_key, team_free);
}

static tw_team *team_get(void)
{
    if (tl_team)
        return tl_team;
    pthread_once(&team_once, team_key_make);
    tw_team *t = calloc(1, sizeof *t);
    if (!t || !(t->f = calloc(TW_MAXT, sizeof *t->f))) {
        free(t);
        return NULL;
    }
    pthread_setspecific(team_key, t);
    tl_team = t;
    return t;
}

/* ------------------------------------------------------------ switching */

#if defined(__x86_64__)
/* Save the callee-saved registers on this stack and its pointer in *save;
 * load `to`'s and return into it. A new context's stack holds
 * accel_tw_start as its return address. MXCSR and the x87 control word are
 * not switched: every context of a worker runs in the worker's floating-
 * point environment (the twin's C has no <fenv.h> to change it). */
void accel_tw_switch(void **save, void *to);
void accel_tw_start(void);
void accel_tw_fiber_main(tw_fiber *f);
__asm__(".text\n"
        ".globl accel_tw_switch\n.hidden accel_tw_switch\n.type accel_tw_switch,@function\n"
        "accel_tw_switch:\n"
        "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
        "  movq %rsp, (%rdi)\n  movq %rsi, %rsp\n"
        "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n"
        "  ret\n"
        ".size accel_tw_switch, .-accel_tw_switch\n"
        ".globl accel_tw_start\n.hidden accel_tw_start\n.type accel_tw_start,@function\n"
        "accel_tw_start:\n  movq %rbx, %rdi\n  call accel_tw_fiber_main\n  ud2\n"
        ".size accel_tw_start, .-accel_tw_start\n");

static void fiber_prepare(tw_fiber *f)
{
    uintptr_t top = ((uintptr_t)f->stack + TW_STACK) & ~(uintptr_t)15;
    uint64_t *sp = (uint64_t *)top;
    void (*start)(void) = accel_tw_start;
    uint64_t entry;
    memcpy(&entry, &start, sizeof entry);
    *--sp = entry;        /* ret */
    *--sp = 0;            /* rbp */
    *--sp = (uintptr_t)f; /* rbx: accel_tw_start's argument */
    for (int r = 0; r < 4; r++)
        *--sp = 0; /* r12..r15 */
    f->ctx = sp;
}
#else
void accel_tw_fiber_main(tw_fiber *f);
static void fiber_trampoline(unsigned hi, unsigned lo)
{
    accel_tw_fiber_main((tw_fiber *)(((uintptr_t)hi << 32) | lo));
}

static void fiber_prepare(tw_fiber *f)
{
    getcontext(&f->ctx);
    f->ctx.uc_stack.ss_sp = f->stack;
    f->ctx.uc_stack.ss_size = TW_STACK;
    f->ctx.uc_link = NULL;
    uintptr_t p = (uintptr_t)f;
    makecontext(&f->ctx, (void (*)(void))fiber_trampoline, 2, (unsigned)(p >> 32), (unsigned)p);
}
#endif

/* Saves the running context into *from and resumes *to, telling ASan of
 * the switch: bottom and size give to's stack, *fake keeps from's fake
 * stack while it is away (fake NULL: from never comes back). */
static void switch_context(tw_ctx *from, tw_ctx *to, void **fake, const void *bottom, size_t size)
{
#if TW_ASAN
    __sanitizer_start_switch_fiber(fake, bottom, size);
#else
    (void)fake;
    (void)bottom;
    (void)size;
#endif
#if defined(__x86_64__)
    accel_tw_switch(from, *to);
#else
    swapcontext(from, to);
#endif
#if TW_ASAN
    __sanitizer_finish_switch_fiber(fake ? *fake : NULL, NULL, NULL);
#endif
}

static void to_fiber(tw_team *T, tw_fiber *f)
{
    void *fake = NULL;
    switch_context(&T->sched_ctx, &f->ctx, &fake, f->stack, TW_STACK);
}

static void to_sched(tw_team *T, tw_fiber *f, bool dying)
{
    switch_context(&f->ctx, &T->sched_ctx, dying ? NULL : &f->fake, T->sched_bottom, T->sched_size);
}

/* The context to run when f waits: the next ready thread of f's warp after
 * it, then from the warp's start (a warp runs until none of its threads can
 * go on), then of the later warps; NULL: back to the scheduler, which
 * starts a new sweep from warp 0. f itself when it may go on. */
static tw_fiber *next_ready(tw_team *T, tw_fiber *f)
{
    unsigned i = f->t.tid, lo = i & ~31u, hi = lo + 32 < T->nthreads ? lo + 32 : T->nthreads;
    for (unsigned j = i + 1; j < hi; j++)
        if (T->f[j].state == F_READY)
            return &T->f[j];
    for (unsigned j = lo; j <= i; j++)
        if (T->f[j].state == F_READY)
            return &T->f[j];
    for (unsigned j = hi; j < T->nthreads; j++)
        if (T->f[j].state == F_READY)
            return &T->f[j];
    return NULL;
}

/* f waits at a barrier or a warp function (or has just released one):
 * switch straight to the next context, without the scheduler between. */
static void yield(tw_team *T, tw_fiber *f)
{
    tw_fiber *g = next_ready(T, f);
    if (g == f)
        return;
    if (!g) {
        accel_cpu__guard_swap(NULL);
        to_sched(T, f, false);
        return;
    }
    accel_cpu__guard_swap(&g->env); /* set by g's start before any user code runs */
    T->from_sched = false;
    switch_context(&f->ctx, &g->ctx, &f->fake, g->stack, TW_STACK);
}

static void release_bar(tw_team *T);
static void release_warp(tw_team *T, tw_warp *W);

static bool warp_complete(const tw_warp *W)
{
    uint32_t need = W->pmask & W->live;
    return W->arrived && (W->arrived & need) == need;
}

/* A thread's life as a context: the kernel, then its exit from barriers. */
void accel_tw_fiber_main(tw_fiber *f)
{
    tw_team *T = f->team;
#if TW_ASAN
    const void *bottom;
    size_t size;
    __sanitizer_finish_switch_fiber(NULL, &bottom, &size);
    if (T->from_sched) { /* the worker's own stack, where the scheduler runs */
        T->sched_bottom = bottom;
        T->sched_size = size;
    }
#endif
    if (sigsetjmp(f->env, 0) == 0)
        T->fn(&f->t, T->args);
    else
        T->fault = true; /* the guard's record says what */
    f->state = F_DONE;
    tw_warp *W = &T->warps[f->t.tid >> 5];
    T->live--;
    W->live &= ~(1u << f->t.lane);
    if (T->arrived && T->arrived == T->live)
        release_bar(T);
    if (warp_complete(W))
        release_warp(T, W);
    to_sched(T, f, true);
    abort(); /* never resumed */
}

/* ------------------------------------------------------------ blocks */

static bool stacks_ready(tw_team *T, unsigned n)
{
    size_t one = TW_STACK + TW_GUARD;
    if (!T->stacks) {
        void *m = mmap(NULL, (size_t)TW_MAXT * one, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED)
            return false;
        T->stacks = m;
    }
    for (; T->ready < n; T->ready++) {
        char *s = T->stacks + (size_t)T->ready * one + TW_GUARD; /* guard page below */
        if (mprotect(s, TW_STACK, PROT_READ | PROT_WRITE) != 0)
            return false;
        T->f[T->ready].stack = s;
    }
    return true;
}

static void release_bar(tw_team *T)
{
    unsigned p = T->gen & 1u;
    T->nbar[p] = T->arrived;
    T->arrived = 0;
    T->gen++;
    T->acc[p ^ 1u] = 0;
    for (unsigned i = 0; i < T->nthreads; i++)
        if (T->f[i].state == F_BAR)
            T->f[i].state = F_READY;
}

static void release_warp(tw_team *T, tw_warp *W)
{
    unsigned p = W->gen & 1u;
    W->part[p] = W->arrived;
    W->arrived = 0;
    W->gen++;
    W->vote[p ^ 1u] = 0;
    unsigned base = (unsigned)(W - T->warps) * 32u;
    for (unsigned l = 0; l < 32 && base + l < T->nthreads; l++)
        if (T->f[base + l].state == F_WARP)
            T->f[base + l].state = F_READY;
}

/* Stop the launch from the scheduler's stack with the twin's message. */
_Noreturn static void team_stop(tw_team *T, sigjmp_buf *outer, bool serial, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
_Noreturn static void team_stop(tw_team *T, sigjmp_buf *outer, bool serial, const char *fmt, ...)
{
    accel_cpu_twin *L = (accel_cpu_twin *)T->T;
    if (fmt) {
        pthread_mutex_lock(&L->lock);
        if (!atomic_load(&L->faulted)) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(L->fault, sizeof L->fault, fmt, ap);
            va_end(ap);
            atomic_store(&L->faulted, 1);
        }
        pthread_mutex_unlock(&L->lock);
    }
    if (serial)
        pthread_mutex_unlock(&serial_lock);
    accel_cpu__guard_swap(fmt ? outer : NULL);
    if (fmt)
        accel_cpu__guard_stop();
    siglongjmp(*outer, 1); /* the guard's record is the fiber's fault */
}

static void init_threads(tw_team *T, const unsigned grid[3], const unsigned block[3])
{
    unsigned n = T->nthreads;
    for (unsigned i = 0; i < n; i++) {
        tw_fiber *f = &T->f[i];
        accel_twin_thread *t = &f->t;
        t->thread_idx[0] = i % block[0];
        t->thread_idx[1] = (i / block[0]) % block[1];
        t->thread_idx[2] = i / (block[0] * block[1]);
        for (int d = 0; d < 3; d++) {
            t->block_dim[d] = block[d];
            t->grid_dim[d] = grid[d];
        }
        t->tw = &T->T->tw;
        t->dyn_shared = T->dsm;
        t->team = T;
        t->tid = i;
        t->lane = i & 31u;
        f->team = T;
        f->state = F_READY;
    }
    T->nwarps = (n + 31) / 32;
    for (unsigned w = 0; w < T->nwarps; w++) {
        tw_warp *W = &T->warps[w];
        unsigned lanes = n - w * 32 < 32 ? n - w * 32 : 32;
        memset(W, 0, sizeof *W);
        W->live = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1u;
    }
    T->live = n;
    T->arrived = T->gen = 0;
    T->acc[0] = T->acc[1] = 0;
}

static void set_block(tw_team *T, size_t b, const unsigned grid[3])
{
    unsigned bx = (unsigned)(b % grid[0]), by = (unsigned)((b / grid[0]) % grid[1]);
    unsigned bz = (unsigned)(b / ((size_t)grid[0] * grid[1]));
    for (unsigned i = 0; i < T->nthreads; i++) {
        T->f[i].t.block_idx[0] = bx;
        T->f[i].t.block_idx[1] = by;
        T->f[i].t.block_idx[2] = bz;
    }
    T->block = b;
    T->serial++;
    T->seq = 0;
}

/* One block as contexts: sweep the warps in order, each until none of its
 * threads can go on, until every thread has returned. */
static void block_fibers(tw_team *T, sigjmp_buf *outer, bool serial)
{
    for (unsigned i = 0; i < T->nthreads; i++) {
#if TW_ASAN
        __asan_unpoison_memory_region(T->f[i].stack, TW_STACK);
#endif
        fiber_prepare(&T->f[i]);
    }
    while (T->live) {
        bool ran = false;
        for (unsigned w = 0; w < T->nwarps; w++) {
            unsigned lo = w * 32, hi = lo + 32 < T->nthreads ? lo + 32 : T->nthreads;
            for (bool again = true; again;) {
                again = false;
                for (unsigned i = lo; i < hi; i++) {
                    tw_fiber *f = &T->f[i];
                    if (f->state != F_READY)
                        continue;
                    accel_cpu__guard_swap(&f->env);
                    T->from_sched = true;
                    to_fiber(T, f);
                    accel_cpu__guard_swap(NULL);
                    if (T->fault)
                        team_stop(T, outer, serial, NULL);
                    ran = again = true;
                }
            }
        }
        if (!ran && T->live) {
            const accel_twin_thread *t = &T->f[0].t;
            team_stop(T, outer, serial,
                      "%s: deadlock in block (%u, %u, %u): %u threads wait at __syncthreads "
                      "and others at a warp function, or a barrier is not reached by every "
                      "thread of the block",
                      T->T->name, t->block_idx[0], t->block_idx[1], t->block_idx[2], T->arrived);
        }
    }
}

/* One block of a kernel that never waits: its threads one after another. */
static void block_plain(tw_team *T, sigjmp_buf *outer, bool serial)
{
    sigjmp_buf env;
    if (sigsetjmp(env, 0))
        team_stop(T, outer, serial, NULL);
    accel_cpu__guard_swap(&env);
    for (unsigned i = 0; i < T->nthreads; i++)
        T->fn(&T->f[i].t, T->args);
    accel_cpu__guard_swap(outer);
}

/* Stop the launch: out of host memory for the block machinery. */
_Noreturn static void oom_stop(const accel_twin *tw, sigjmp_buf *outer)
{
    accel_cpu_twin *L = (accel_cpu_twin *)(void *)tw;
    pthread_mutex_lock(&L->lock);
    if (!atomic_load(&L->faulted)) {
        snprintf(L->fault, sizeof L->fault,
                 "%s: out of host memory for the CPU twin's blocks (contexts of 64 KiB per "
                 "thread, shared memory)",
                 L->name);
        atomic_store(&L->faulted, 1);
    }
    pthread_mutex_unlock(&L->lock);
    accel_cpu__guard_swap(outer);
    accel_cpu__guard_stop();
}

static void run_blocks(const accel_twin *tw, void (*fn)(accel_twin_thread *, void *const *),
                       void *const *args, const unsigned grid[3], const unsigned block[3],
                       size_t begin, size_t end, unsigned needs)
{
    const accel_cpu_twin *L = (const accel_cpu_twin *)(const void *)tw;
    sigjmp_buf *outer = accel_cpu__guard_swap(NULL);
    accel_cpu__guard_swap(outer);
    tw_team *T = team_get();
    unsigned n = block[0] * block[1] * block[2];
    bool fibers = (needs & ACCEL_TWIN_NEEDS_FIBERS) != 0;
    if (!T || (fibers && !stacks_ready(T, n)))
        oom_stop(tw, outer);
    if (tw->shared_bytes > T->dsm_cap) {
        void *d = realloc(T->dsm, tw->shared_bytes);
        if (!d)
            oom_stop(tw, outer);
        T->dsm = d;
        T->dsm_cap = tw->shared_bytes;
    }
    if ((tw->flags & ACCEL_TWIN_DEBUG) && !T->shadow &&
        !(T->shadow = calloc(TW_SHADOW, sizeof *T->shadow)))
        oom_stop(tw, outer);
    bool serial = (needs & ACCEL_TWIN_NEEDS_SERIAL) != 0;
    T->fn = fn;
    T->args = args;
    T->T = L;
    T->fibers = fibers;
    T->fault = false;
    T->nthreads = n;
    for (size_t b = begin; b < end; b++) {
        if (atomic_load_explicit(&L->faulted, memory_order_relaxed))
            break;
        if (serial)
            pthread_mutex_lock(&serial_lock);
        init_threads(T, grid, block);
        set_block(T, b, grid);
        if (fibers) {
            block_fibers(T, outer, serial);
        } else {
            block_plain(T, outer, serial);
        }
        if (serial)
            pthread_mutex_unlock(&serial_lock);
    }
}

/* ------------------------------------------------------------ barriers */

static tw_fiber *fiber_of(accel_twin_thread *t)
{
    return (tw_fiber *)(void *)((char *)t - offsetof(tw_fiber, t));
}

static int tw_sync(accel_twin_thread *t, int op, int pred)
{
    tw_team *T = t->team;
    if (!T || !T->fibers)
        return pred; /* a block of one context at a time: nothing to wait for */
    tw_fiber *f = fiber_of(t);
    unsigned p = T->gen & 1u;
    T->acc[p] += pred != 0;
    if (++T->arrived == T->live) {
        release_bar(T);
        f->state = F_READY;
    } else {
        f->state = F_BAR;
    }
    yield(T, f);
    switch (op) {
    case 1:
        return T->acc[p];
    case 2:
        return T->acc[p] == (int)T->nbar[p];
    case 3:
        return T->acc[p] > 0;
    default:
        return 0;
    }
}

/* The lane a shuffle reads (CUDA's rules for width), or the caller's own. */
static unsigned shfl_src(int op, unsigned lane, int arg, int width)
{
    unsigned w = width >= 1 && width <= 32 && !(width & (width - 1)) ? (unsigned)width : 32u;
    unsigned seg = lane & ~(w - 1u);
    int src = (int)lane;
    if (op == 0)
        src = (int)(seg + ((unsigned)arg & (w - 1u)));
    else if (op == 1)
        src = (int)lane - arg < (int)seg ? (int)lane : (int)lane - arg;
    else if (op == 2)
        src = (int)lane + arg >= (int)(seg + w) ? (int)lane : (int)lane + arg;
    else if (op == 3) {
        int x = (int)(lane ^ (unsigned)arg);
        src = x < (int)seg || x >= (int)(seg + w) ? (int)lane : x;
    }
    return (unsigned)src;
}

static uint64_t tw_warp_op(accel_twin_thread *t, int op, uint32_t mask, uint64_t v, int arg,
                           int width)
{
    tw_team *T = t->team;
    tw_warp *W = T ? &T->warps[t->tid >> 5] : NULL;
    if (!W)
        return op == 7 ? 1u : v;
    if (op == 7)
        return W->live;
    if (!T->fibers)
        return op == 4 ? (v ? 1u << t->lane : 0) : v;
    tw_fiber *f = fiber_of(t);
    uint32_t bit = 1u << t->lane;
    unsigned p = W->gen & 1u;
    W->slot[p][t->lane] = v;
    if (v)
        W->vote[p] |= bit;
    if (!W->arrived)
        W->pmask = mask | bit;
    W->arrived |= bit;
    if (warp_complete(W)) {
        release_warp(T, W);
        f->state = F_READY;
    } else {
        f->state = F_WARP;
    }
    yield(T, f);
    uint32_t part = W->part[p], vote = W->vote[p] & mask & part;
    switch (op) {
    case 4:
        return vote;
    case 5:
        return vote != 0;
    case 6:
        return vote == (mask & part);
    case 8:
        return 0;
    default: {
        unsigned src = shfl_src(op, t->lane, arg, width);
        return (part >> src) & 1u ? W->slot[p][src] : v;
    }
    }
}

/* ------------------------------------------------------------ atomics */

#define TW_CAS_LOOP(T, p, old, new_expr)                                                           \
    do {                                                                                           \
        old = __atomic_load_n(p, __ATOMIC_RELAXED);                                                \
        T next_;                                                                                   \
        do                                                                                         \
            next_ = (new_expr);                                                                    \
        while (!__atomic_compare_exchange_n(p, &old, next_, true, __ATOMIC_SEQ_CST,                \
                                            __ATOMIC_RELAXED));                                    \
    } while (0)

#define TW_ATOMIC_INT(NAME, T)                                                                     \
    static T NAME(T *p, int op, T v, T cmp)                                                        \
    {                                                                                              \
        T old = 0;                                                                                 \
        switch (op) {                                                                              \
        case 1:                                                                                    \
            return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);                                     \
        case 2:                                                                                    \
            return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST);                                     \
        case 3:                                                                                    \
            return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);                                    \
        case 4:                                                                                    \
            TW_CAS_LOOP(T, p, old, old < v ? old : v);                                             \
            return old;                                                                            \
        case 5:                                                                                    \
            TW_CAS_LOOP(T, p, old, old > v ? old : v);                                             \
            return old;                                                                            \
        case 6:                                                                                    \
            TW_CAS_LOOP(T, p, old, old >= v ? (T)0 : (T)(old + 1));                                \
            return old;                                                                            \
        case 7:                                                                                    \
            TW_CAS_LOOP(T, p, old, old == 0 || old > v ? v : (T)(old - 1));                        \
            return old;                                                                            \
        case 8:                                                                                    \
            __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);    \
            return cmp;                                                                            \
        case 9:                                                                                    \
            return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);                                     \
        case 10:                                                                                   \
            return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);                                      \
        default:                                                                                   \
            return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);                                     \
        }                                                                                          \
    }
TW_ATOMIC_INT(atomic_i32, int32_t)
TW_ATOMIC_INT(atomic_u32, uint32_t)
TW_ATOMIC_INT(atomic_u64, uint64_t)
TW_ATOMIC_INT(atomic_i64, int64_t)

static uint64_t tw_atomic_int(void *p, int op, int kind, uint64_t v, uint64_t cmp)
{
    switch (kind) {
    case 1:
        return (uint64_t)(int64_t)atomic_i32(p, op, (int32_t)v, (int32_t)cmp);
    case 2:
        return atomic_u32(p, op, (uint32_t)v, (uint32_t)cmp);
    case 3:
        return atomic_u64(p, op, v, cmp);
    default:
        return (uint64_t)atomic_i64(p, op, (int64_t)v, (int64_t)cmp);
    }
}

static double tw_atomic_fp(void *p, int op, int is_double, double v)
{
    if (is_double) {
        uint64_t *q = p, old = __atomic_load_n(q, __ATOMIC_RELAXED), next;
        double o, r;
        do {
            memcpy(&o, &old, 8);
            r = op == 3 ? v : o + v;
            memcpy(&next, &r, 8);
        } while (
            !__atomic_compare_exchange_n(q, &old, next, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
        return o;
    }
    uint32_t *q = p, old = __atomic_load_n(q, __ATOMIC_RELAXED), next;
    float o, r;
    do {
        memcpy(&o, &old, 4);
        r = op == 3 ? (float)v : o + (float)v;
        memcpy(&next, &r, 4);
    } while (!__atomic_compare_exchange_n(q, &old, next, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
    return o;
}

static void tw_fence(void)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* ------------------------------------------------------------ printf */

struct accel_cpu_print {
    uint64_t block, seq;
    char *text;
};

static int tw_printf(accel_twin_thread *t, const char *fmt, ...)
{
    tw_team *T = t->team;
    accel_cpu_twin *L = (accel_cpu_twin *)(void *)t->tw;
    char buf[1024], *text = buf;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0)
        return n;
    if ((size_t)n >= sizeof buf) {
        if (!(text = malloc((size_t)n + 1)))
            return -1;
        va_start(ap, fmt);
        vsnprintf(text, (size_t)n + 1, fmt, ap);
        va_end(ap);
    } else if (!(text = strdup(buf))) {
        return -1;
    }
    pthread_mutex_lock(&L->lock);
    if (L->nprints == L->cap) {
        size_t cap = L->cap ? 2 * L->cap : 64;
        accel_cpu_print *p = realloc(L->prints, cap * sizeof *p);
        if (!p) {
            pthread_mutex_unlock(&L->lock);
            free(text);
            return -1;
        }
        L->prints = p;
        L->cap = cap;
    }
    L->prints[L->nprints++] = (accel_cpu_print){T ? T->block : 0, T ? T->seq++ : 0, text};
    pthread_mutex_unlock(&L->lock);
    return n;
}

static int print_order(const void *a, const void *b)
{
    const accel_cpu_print *x = a, *y = b;
    if (x->block != y->block)
        return x->block < y->block ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* ------------------------------------------------------------ debug */

static const char *rw_word(int rw)
{
    return (rw & 3) == 1   ? "read"
           : (rw & 3) == 2 ? "write"
           : (rw & 3) == 3 ? "read-write"
                           : "access";
}

_Noreturn static void debug_stop(accel_twin_thread *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
_Noreturn static void debug_stop(accel_twin_thread *t, const char *fmt, ...)
{
    accel_cpu_twin *L = (accel_cpu_twin *)(void *)t->tw;
    pthread_mutex_lock(&L->lock);
    if (!atomic_load(&L->faulted)) {
        int n = snprintf(L->fault, sizeof L->fault,
                         "%s: block (%u, %u, %u) thread (%u, %u, %u): ", L->name, t->block_idx[0],
                         t->block_idx[1], t->block_idx[2], t->thread_idx[0], t->thread_idx[1],
                         t->thread_idx[2]);
        va_list ap;
        va_start(ap, fmt);
        if (n > 0 && (size_t)n < sizeof L->fault)
            vsnprintf(L->fault + n, sizeof L->fault - (size_t)n, fmt, ap);
        va_end(ap);
        atomic_store(&L->faulted, 1);
    }
    pthread_mutex_unlock(&L->lock);
    accel_cpu__guard_stop();
}

static tw_shadow *shadow_of(tw_team *T, uintptr_t a)
{
    size_t h = (size_t)((a >> 2) * 0x9e3779b97f4a7c15ull >> 48) & (TW_SHADOW - 1);
    for (size_t k = 0; k < TW_SHADOW; k++) {
        tw_shadow *s = &T->shadow[(h + k) & (TW_SHADOW - 1)];
        if (s->block != T->serial) {
            memset(s, 0, sizeof *s);
            s->addr = a;
            s->block = T->serial;
            return s;
        }
        if (s->addr == a)
            return s;
    }
    return NULL;
}

/* Whether an access of thread `other` at barrier count bar and warp
 * generation wgen is ordered before the calling thread's now. */
static bool ordered(const tw_team *T, uint32_t me, uint32_t other, uint32_t bar, uint32_t wgen)
{
    if (other == me || bar != T->gen)
        return true;
    return (other >> 5) == (me >> 5) && wgen != T->warps[me >> 5].gen;
}

/* Stop t (thread me) where its access at line, described by now, races
 * with the earlier access a of another thread; sep joins the two in the
 * message ("read at line 3, written at line 2 by thread ..."). */
static void race_with(accel_twin_thread *t, uint32_t me, const tw_access *a, const char *name,
                      size_t index, int line, const char *now, const char *sep)
{
    tw_team *T = t->team;
    if (!a->line || ordered(T, me, a->tid, a->bar, a->wgen))
        return;
    const accel_twin_thread *o = &T->f[a->tid].t;
    debug_stop(t,
               "race on shared %s[%zu]: %s at line %d%s at line %d by thread (%u, %u, %u) with no "
               "__syncthreads between",
               name, index, now, line, sep, a->line, o->thread_idx[0], o->thread_idx[1],
               o->thread_idx[2]);
}

static void race_check(accel_twin_thread *t, uintptr_t a, const char *name, size_t index, int line,
                       int rw)
{
    tw_team *T = t->team;
    tw_shadow *s = T && T->shadow ? shadow_of(T, a) : NULL;
    if (!s)
        return;
    uint32_t me = t->tid, wgen = T->warps[me >> 5].gen;
    if (rw & 1)
        race_with(t, me, &s->w, name, index, line, "read", ", written");
    if (rw & 2) {
        race_with(t, me, &s->r, name, index, line, "written", ", read");
        race_with(t, me, &s->w, name, index, line, "written", " and");
    }
    const tw_access now = {me, T->gen, wgen, line};
    if (rw & 2) {
        s->w = now;
        s->r.line = 0;
    } else if (!s->r.line || ordered(T, me, s->r.tid, s->r.bar, s->r.wgen)) {
        s->r = now;
    }
}

static void *tw_check(accel_twin_thread *t, void *addr, size_t size, const char *name,
                      const void *base, size_t bytes, int line, int rw)
{
    uintptr_t a = (uintptr_t)addr, b = (uintptr_t)base;
    size_t es = size ? size : 1;
    if (a < b || a - b > bytes || bytes - (a - b) < size) {
        long long idx = a < b ? -(long long)((b - a + es - 1) / es) : (long long)((a - b) / es);
        debug_stop(t,
                   "out-of-bounds %s of %s%s at line %d: index %lld outside [0, %zu) (elements of "
                   "%zu bytes)",
                   rw_word(rw), rw & 4 ? "shared array " : "argument ", name, line, idx, bytes / es,
                   es);
    }
    if ((rw & 4) && (rw & 3))
        race_check(t, a, name, (a - b) / es, line, rw & 3);
    return addr;
}

/* ------------------------------------------------------------ launches */

void accel_cpu__twin_init(accel_cpu_twin *T, const char *name, uint32_t flags, size_t shared_bytes)
{
    memset(T, 0, sizeof *T);
    T->tw.struct_size = sizeof T->tw;
    T->tw.flags = flags;
    T->tw.shared_bytes = shared_bytes;
    T->tw.run_blocks = run_blocks;
    T->tw.sync = tw_sync;
    T->tw.warp = tw_warp_op;
    T->tw.atomic_int = tw_atomic_int;
    T->tw.atomic_fp = tw_atomic_fp;
    T->tw.printf = tw_printf;
    T->tw.fence = tw_fence;
    T->tw.check = tw_check;
    T->tw.arg_base = T->arg_base;
    T->tw.arg_bytes = T->arg_bytes;
    T->tw.state = T;
    T->name = name;
    pthread_mutex_init(&T->lock, NULL);
    atomic_init(&T->faulted, 0);
}

void accel_cpu__twin_finish(accel_cpu_twin *T)
{
    if (T->nprints) {
        qsort(T->prints, T->nprints, sizeof *T->prints, print_order);
        for (size_t i = 0; i < T->nprints; i++) {
            fputs(T->prints[i].text, stdout);
            free(T->prints[i].text);
        }
        fflush(stdout);
    }
    free(T->prints);
    pthread_mutex_destroy(&T->lock);
}
