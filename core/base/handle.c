/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/handle.c — the registry of live handles.
 *
 * Object handles (runtime, device, buffer, queue, event) are not addresses:
 * a handle value is a slot index and that slot's generation, as Vulkan's
 * non-dispatchable handles and IREE's resource handles. Releasing an object
 * bumps its slot's generation, so the released handle stays detectably
 * released however the allocator reuses the object's memory; a slot whose
 * 32-bit generation is spent is retired, never reused, so no handle value
 * is ever given out twice. The value is XOR-ed with a constant that makes it
 * a non-canonical address on x86-64 and AArch64: code that dereferences a
 * handle without resolving it faults at once instead of reading garbage.
 * Lookup is lock-free (two levels of arrays, acquire loads and a recheck of
 * the slot word); creation and release take a mutex.
 *
 * Calls (accel__call_enter): the handles of one public call are resolved
 * while the process-wide count of calls being entered is raised, and the
 * call then counts as in flight on its runtime until the call returns
 * (a cleanup attribute), so accel_runtime_close can refuse new calls and
 * wait for those in flight before it frees anything. A fork bumps a
 * generation (pthread_atfork) that makes every runtime of the parent refuse
 * calls in the child.
 *
 * Pins: a call that resolves handles of objects a release frees while other
 * threads may use them (buffers, queues, events, kernels, graphs, device
 * communicators: pinned_type) pins their slots (slots outlive objects)
 * until it leaves, as hazard pointers (Michael, "Hazard Pointers:
 * Safe Memory Reclamation for Lock-Free Objects", IEEE TPDS 2004): each
 * slot is published in the calling thread's hazard record (plain stores),
 * then one seq_cst fence, then every slot's state is rechecked; leaving
 * clears the entries. A release kills the handle, then waits until no
 * hazard record names the slot (accel__handle_retire, accel__handle_drain,
 * which scans them after its own fence) before it frees anything: a call
 * that resolved the object either has finished with it by then (for a
 * buffer: has its work enqueued, which the release's queue wait covers) or
 * sees the handle dead and fails. A call whose
 * thread's record is full (nested calls) raises a count in the slot
 * instead (two atomics), as the graph launch does for its recorded buffers.
 * The slot is reused only after the drain, so what it waits for is its
 * buffer's.
 *
 * Pinned host blocks are real addresses the caller uses as memory; they are
 * kept in a separate open-addressing hash set (linear probing,
 * backward-shift deletion) behind a mutex. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/backoff.h"
#include "base/handle.h"
#include "base/retire.h"
#include "base/status.h"

typedef struct slot {
    uintptr_t key; /* 0: empty */
    uint32_t type;
    void *value;
} slot;

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static slot *reg_slots;
static size_t reg_cap; /* power of two, or 0 */
static size_t reg_count;

static size_t hash_ptr(uintptr_t k)
{
    /* MurmurHash3's 64-bit finalizer: allocation addresses share low and high
     * bits, so mix them all. */
    uint64_t h = (uint64_t)k;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return (size_t)h;
}

static size_t find_slot(uintptr_t key)
{
    size_t mask = reg_cap - 1;
    size_t i = hash_ptr(key) & mask;
    while (reg_slots[i].key != 0 && reg_slots[i].key != key)
        i = (i + 1) & mask;
    return i;
}

static bool grow(void)
{
    size_t new_cap = reg_cap ? reg_cap * 2 : 64;
    slot *old = reg_slots;
    size_t old_cap = reg_cap;
    slot *fresh = calloc(new_cap, sizeof *fresh);
    if (!fresh)
        return false;
    reg_slots = fresh;
    reg_cap = new_cap;
    for (size_t i = 0; i < old_cap; i++) {
        if (old[i].key)
            reg_slots[find_slot(old[i].key)] = old[i];
    }
    free(old);
    return true;
}

accel_status accel__handle_add(const void *p, accel__type type, void *value)
{
    uintptr_t key = (uintptr_t)p;
    if (!key)
        return ACCEL_ERROR_INTERNAL;
    accel_status st = ACCEL_SUCCESS;
    pthread_mutex_lock(&reg_lock);
    /* Keep the load at or below one half so probes stay short. */
    if ((reg_count + 1) * 2 > reg_cap && !grow()) {
        st = ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    } else {
        size_t i = find_slot(key);
        if (!reg_slots[i].key)
            reg_count++;
        reg_slots[i].key = key;
        reg_slots[i].type = (uint32_t)type;
        reg_slots[i].value = value;
    }
    pthread_mutex_unlock(&reg_lock);
    return st;
}

void accel__handle_remove(const void *p)
{
    uintptr_t key = (uintptr_t)p;
    if (!key)
        return;
    pthread_mutex_lock(&reg_lock);
    if (reg_cap) {
        size_t mask = reg_cap - 1;
        size_t i = find_slot(key);
        if (reg_slots[i].key) {
            /* Backward-shift deletion: move later members of the probe run
             * into the hole unless their home lies cyclically in (i, j]. */
            size_t j = i;
            for (;;) {
                j = (j + 1) & mask;
                if (!reg_slots[j].key)
                    break;
                size_t home = hash_ptr(reg_slots[j].key) & mask;
                bool stays = (i <= j) ? (i < home && home <= j) : (i < home || home <= j);
                if (!stays) {
                    reg_slots[i] = reg_slots[j];
                    i = j;
                }
            }
            reg_slots[i].key = 0;
            reg_slots[i].type = 0;
            reg_slots[i].value = NULL;
            if (--reg_count == 0) {
                free(reg_slots);
                reg_slots = NULL;
                reg_cap = 0;
            }
        }
    }
    pthread_mutex_unlock(&reg_lock);
}

accel__type accel__handle_type(const void *p, void **out_value)
{
    uintptr_t key = (uintptr_t)p;
    accel__type type = ACCEL__T_NONE;
    void *value = NULL;
    if (key) {
        pthread_mutex_lock(&reg_lock);
        if (reg_cap) {
            size_t i = find_slot(key);
            if (reg_slots[i].key) {
                type = (accel__type)reg_slots[i].type;
                value = reg_slots[i].value;
            }
        }
        pthread_mutex_unlock(&reg_lock);
    }
    if (out_value)
        *out_value = value;
    return type;
}

const char *accel__type_name(accel__type type)
{
    switch (type) {
    case ACCEL__T_RUNTIME:
        return "runtime";
    case ACCEL__T_DEVICE:
        return "device";
    case ACCEL__T_BUFFER:
        return "buffer";
    case ACCEL__T_QUEUE:
        return "queue";
    case ACCEL__T_EVENT:
        return "event";
    case ACCEL__T_HOST_MEMORY:
        return "pinned host memory block";
    case ACCEL__T_RNG:
        return "random stream";
    case ACCEL__T_KERNEL:
        return "kernel";
    case ACCEL__T_GRAPH:
        return "graph";
    case ACCEL__T_COMM:
        return "device communicator";
    case ACCEL__T_NONE:
        break;
    }
    return "unknown";
}

/* ------------------------------------------------------ object handles */

#if UINTPTR_MAX != 0xffffffffffffffffu
#error "handle values need 64-bit pointers (slot index and generation)"
#endif

/* Handle value = (generation << 32 | slot index) ^ HANDLE_MASK. The mask's top
 * bits make the value a non-canonical address for every generation below
 * 2^31, and it is never 0. */
#define HANDLE_MASK 0xa5c3000000000000ull
#define PAGE_BITS 12u
#define PAGE_SLOTS (1u << PAGE_BITS)
#define DIR_PAGES (1u << 14) /* 2^26 slots: 64 M live handles at most */

typedef struct accel__hslot {
    /* generation << 32 | type (0: not live). The generation is that of the
     * current or last occupant. */
    _Atomic uint64_t state;
    _Atomic(void *) obj;
    _Atomic(accel__gate *) gate;
    uint32_t next_free; /* under h_lock; 0 ends the list */
    /* Calls that pinned this slot's buffer and have not left. Only ever
     * raised and lowered by the same caller, never set: a stale caller
     * between its raise and its recheck undoes its own count. */
    atomic_uint pins;
} hslot;

static _Atomic(hslot *) h_dir[DIR_PAGES];
static pthread_mutex_t h_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t h_next = 1; /* next never-used slot index; 0 is never used */
static uint32_t h_free;     /* head of the free list */
static uint32_t h_free_tail;

static accel__gate *g_free; /* closed gates, for reuse (under h_lock) */
static accel__gate *g_all;  /* every gate ever made, freed at unload */
static uint64_t g_serial;

atomic_uint accel__fork_generation;

/* ------------------------------------------------------------ hazards */

#define HZ_SLOTS 64 /* a thread's pins at once, nested calls included */

/* One thread's hazard record: the slots its calls in flight have pinned.
 * Records are never freed while the library is loaded (releases scan them
 * without a lock), only handed to a new thread once their thread exits. */
typedef struct accel__hzrec {
    _Atomic(hslot *) slot[HZ_SLOTS];
    uint32_t top; /* next free entry; the owner thread's */
    atomic_bool used;
    struct accel__hzrec *next; /* hz_list: pushed, never removed */
    /* Whole cache lines of its own (aligned_alloc): no other thread's data
     * shares the lines the owner writes on every call. */
    char pad[64 - (HZ_SLOTS * sizeof(void *) + 16) % 64];
} hzrec;
_Static_assert(sizeof(hzrec) % 64 == 0, "a hazard record is whole cache lines");

static _Atomic(hzrec *) hz_list;
static _Thread_local hzrec *hz_mine;
static pthread_key_t hz_key; /* its destructor gives a record back at thread exit */
static pthread_once_t hz_once = PTHREAD_ONCE_INIT;
static atomic_bool hz_key_made;

static void hz_thread_exit(void *p)
{
    hzrec *r = p;
    hz_mine = NULL;
    r->top = 0;
    atomic_store_explicit(&r->used, false, memory_order_release);
}

static void hz_key_init(void)
{
    atomic_store(&hz_key_made, pthread_key_create(&hz_key, hz_thread_exit) == 0);
}

/* The calling thread's record, taken or made on its first pin; NULL when
 * out of memory (its calls then pin by counts). */
static hzrec *hz_attach(void)
{
    pthread_once(&hz_once, hz_key_init);
    if (!atomic_load(&hz_key_made))
        return NULL;
    hzrec *r = atomic_load_explicit(&hz_list, memory_order_acquire);
    for (; r; r = r->next) {
        bool free_one = false;
        if (!atomic_load_explicit(&r->used, memory_order_relaxed) &&
            atomic_compare_exchange_strong(&r->used, &free_one, true))
            break;
    }
    if (!r) {
        r = aligned_alloc(64, sizeof *r);
        if (!r)
            return NULL;
        memset(r, 0, sizeof *r);
        atomic_init(&r->used, true);
        hzrec *head = atomic_load_explicit(&hz_list, memory_order_relaxed);
        do
            r->next = head;
        while (!atomic_compare_exchange_weak_explicit(&hz_list, &head, r, memory_order_release,
                                                      memory_order_relaxed));
    }
    if (pthread_setspecific(hz_key, r) != 0) {
        atomic_store(&r->used, false);
        return NULL;
    }
    hz_mine = r;
    return r;
}

/* Whether a thread's call has slot s pinned in its hazard record. */
static bool hz_holds(const hslot *s)
{
    for (hzrec *r = atomic_load_explicit(&hz_list, memory_order_acquire); r; r = r->next)
        for (unsigned i = 0; i < HZ_SLOTS; i++)
            if (atomic_load_explicit(&r->slot[i], memory_order_acquire) == s)
                return true;
    return false;
}

static void on_fork_child(void)
{
    atomic_fetch_add_explicit(&accel__fork_generation, 1, memory_order_relaxed);
    /* The other threads' calls stayed in the parent: so do their pins. */
    for (hzrec *r = atomic_load(&hz_list); r; r = r->next) {
        if (r == hz_mine)
            continue;
        for (unsigned i = 0; i < HZ_SLOTS; i++)
            atomic_store(&r->slot[i], NULL);
        r->top = 0;
        atomic_store(&r->used, false);
    }
}

static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static void fork_hook(void)
{
    pthread_atfork(NULL, NULL, on_fork_child);
}

static unsigned g_open; /* gates in use (runtimes not yet closed), under h_lock */

__attribute__((destructor)) static void handles_unload(void)
{
    /* Process exit or dlclose of libaccel. Freed so that leak checkers see
     * nothing left, but only when every runtime was closed: exit() called
     * by one thread while others are still inside accel must not pull the
     * table from under their lookups. */
    pthread_mutex_lock(&h_lock);
    unsigned open = g_open;
    pthread_mutex_unlock(&h_lock);
    /* No thread exit may call into unloaded code. */
    if (atomic_load(&hz_key_made))
        pthread_key_delete(hz_key);
    if (open)
        return;
    while (atomic_load_explicit(&hz_list, memory_order_relaxed)) {
        hzrec *r = atomic_load_explicit(&hz_list, memory_order_relaxed);
        atomic_store_explicit(&hz_list, r->next, memory_order_relaxed);
        free(r);
    }
    for (uint32_t i = 0; i < DIR_PAGES; i++) {
        hslot *page = atomic_load_explicit(&h_dir[i], memory_order_relaxed);
        if (!page)
            break;
        atomic_store_explicit(&h_dir[i], NULL, memory_order_relaxed);
        free(page);
    }
    while (g_all) {
        accel__gate *g = g_all;
        g_all = g->all_next;
        free(g);
    }
}

accel__gate *accel__gate_new(void)
{
    pthread_once(&fork_once, fork_hook);
    pthread_mutex_lock(&h_lock);
    accel__gate *g = g_free;
    if (g) {
        g_free = g->free_next;
    } else {
        g = calloc(1, sizeof *g);
        if (g) {
            g->all_next = g_all;
            g_all = g;
        }
    }
    if (g) {
        /* A stale caller may still be between its increment and its
         * recheck of a reused gate; it undoes its own count, so calls is
         * only ever added to, never set. */
        atomic_store(&g->closing, false);
        g->fork_generation = atomic_load(&accel__fork_generation);
        g->serial = ++g_serial;
        g->free_next = NULL;
        g_open++;
    }
    pthread_mutex_unlock(&h_lock);
    return g;
}

void accel__gate_retire(accel__gate *g)
{
    if (!g)
        return;
    pthread_mutex_lock(&h_lock);
    g->free_next = g_free;
    g_free = g;
    g_open--;
    pthread_mutex_unlock(&h_lock);
}

static hslot *slot_at(uint32_t idx)
{
    if (idx == 0 || idx >= DIR_PAGES * PAGE_SLOTS)
        return NULL;
    hslot *page = atomic_load_explicit(&h_dir[idx >> PAGE_BITS], memory_order_acquire);
    return page ? &page[idx & (PAGE_SLOTS - 1)] : NULL;
}

accel_status accel__handle_new(accel__type type, void *obj, accel__gate *gate, void *out_handle)
{
    void *h = NULL;
    memcpy(out_handle, &h, sizeof h);
    pthread_mutex_lock(&h_lock);
    uint32_t idx = h_free;
    hslot *s = NULL;
    if (idx) {
        s = slot_at(idx);
        h_free = s->next_free;
        if (!h_free)
            h_free_tail = 0;
    } else if (h_next < DIR_PAGES * PAGE_SLOTS) {
        idx = h_next;
        uint32_t page = idx >> PAGE_BITS;
        if (!atomic_load_explicit(&h_dir[page], memory_order_relaxed)) {
            hslot *fresh = calloc(PAGE_SLOTS, sizeof *fresh);
            if (!fresh) {
                pthread_mutex_unlock(&h_lock);
                return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
            }
            atomic_store_explicit(&h_dir[page], fresh, memory_order_release);
        }
        h_next++;
        s = slot_at(idx);
    } else {
        pthread_mutex_unlock(&h_lock);
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    uint64_t gen = (atomic_load_explicit(&s->state, memory_order_relaxed) >> 32) + 1;
    atomic_store_explicit(&s->obj, obj, memory_order_relaxed);
    atomic_store_explicit(&s->gate, gate, memory_order_relaxed);
    atomic_store_explicit(&s->state, gen << 32 | (uint64_t)type, memory_order_release);
    pthread_mutex_unlock(&h_lock);
    h = (void *)(uintptr_t)((gen << 32 | idx) ^ HANDLE_MASK);
    memcpy(out_handle, &h, sizeof h);
    return ACCEL_SUCCESS;
}

/* Kill handle (h_lock held): true when it was live and is dead now. */
static bool kill_locked(const void *handle)
{
    uint64_t v = (uint64_t)(uintptr_t)handle ^ HANDLE_MASK;
    uint64_t gen = v >> 32;
    hslot *s = slot_at((uint32_t)v);
    uint64_t st = s ? atomic_load_explicit(&s->state, memory_order_relaxed) : 0;
    if (!s || !gen || (st >> 32) != gen || (st & 0xffu) == 0)
        return false;
    /* Seqlock writer: the state changes before the payload does. The store
     * is seq_cst against a pinning call's raise and recheck. */
    atomic_store_explicit(&s->state, gen << 32, memory_order_seq_cst);
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&s->obj, NULL, memory_order_relaxed);
    atomic_store_explicit(&s->gate, NULL, memory_order_relaxed);
    return true;
}

/* Put the dead handle's slot on the free list (h_lock held): FIFO reuse; a
 * slot whose generation is spent is retired. */
static void recycle_locked(const void *handle)
{
    uint64_t v = (uint64_t)(uintptr_t)handle ^ HANDLE_MASK;
    uint32_t idx = (uint32_t)v;
    if ((v >> 32) >= 0xffffffffu)
        return;
    slot_at(idx)->next_free = 0;
    if (h_free_tail)
        slot_at(h_free_tail)->next_free = idx;
    else
        h_free = idx;
    h_free_tail = idx;
}

void accel__handle_free(const void *handle)
{
    pthread_mutex_lock(&h_lock);
    if (kill_locked(handle))
        recycle_locked(handle);
    pthread_mutex_unlock(&h_lock);
}

bool accel__handle_kill(const void *handle)
{
    pthread_mutex_lock(&h_lock);
    bool killed = kill_locked(handle);
    pthread_mutex_unlock(&h_lock);
    return killed;
}

void accel__handle_drain(const void *handle)
{
    uint64_t v = (uint64_t)(uintptr_t)handle ^ HANDLE_MASK;
    hslot *s = slot_at((uint32_t)v);
    if (!s)
        return;
    /* Pinned calls are between their resolve and their enqueue (a few
     * hundred ns): spin briefly before sleeping. The fence pairs with the
     * pinning call's (after its hazard stores). */
    long sleep_ns = 1000;
    for (unsigned spin = 0;; spin++) {
        atomic_thread_fence(memory_order_seq_cst);
        if (atomic_load_explicit(&s->pins, memory_order_seq_cst) == 0 && !hz_holds(s))
            break;
        accel__backoff(spin, &sleep_ns, 1000000);
    }
    pthread_mutex_lock(&h_lock);
    recycle_locked(handle);
    pthread_mutex_unlock(&h_lock);
}

/* accel__handle_peek, also giving the slot and the state word it read. */
static void *peek_slot(const void *handle, accel__type *out_type, accel__gate **out_gate,
                       hslot **out_slot, uint64_t *out_state)
{
    *out_type = ACCEL__T_NONE;
    *out_gate = NULL;
    uint64_t v = (uint64_t)(uintptr_t)handle ^ HANDLE_MASK;
    uint64_t gen = v >> 32;
    hslot *s = handle && gen ? slot_at((uint32_t)v) : NULL;
    if (!s)
        return NULL;
    uint64_t st = atomic_load_explicit(&s->state, memory_order_acquire);
    if ((st >> 32) != gen || (st & 0xffu) == 0)
        return NULL;
    void *obj = atomic_load_explicit(&s->obj, memory_order_relaxed);
    accel__gate *gate = atomic_load_explicit(&s->gate, memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&s->state, memory_order_relaxed) != st)
        return NULL; /* released (and maybe reused) while we read */
    *out_type = (accel__type)(st & 0xffu);
    *out_gate = gate;
    *out_slot = s;
    *out_state = st;
    return obj;
}

void *accel__handle_peek(const void *handle, accel__type *out_type, accel__gate **out_gate)
{
    hslot *s;
    uint64_t st;
    return peek_slot(handle, out_type, out_gate, &s, &st);
}

/* ----------------------------------------------------------------- calls */

#ifdef ACCEL_HANDLE_TEST_HOOKS
/* tests/test_handle_table.c: run between the count's increment and the
 * recheck of the handle, where a concurrent close can land. */
void (*accel__handle_test_between_peeks)(const void *handle);
/* Between a pin's raise and its recheck, where a concurrent release can land. */
void (*accel__handle_test_between_pin)(const void *handle);
/* Call the test's hook, where it set one, with the handle h. */
#define TEST_HOOK(hook, h)                                                                         \
    do {                                                                                           \
        if (hook)                                                                                  \
            hook(h);                                                                               \
    } while (0)
#else
#define TEST_HOOK(hook, h) ((void)0)
#endif
#define BETWEEN_PEEKS(h) TEST_HOOK(accel__handle_test_between_peeks, h)
#define BETWEEN_PIN(h) TEST_HOOK(accel__handle_test_between_pin, h)

void accel__call_unpin(accel__call *c)
{
    for (uint32_t i = 0; i < c->npins; i++)
        accel__handle_unpin(c->pins[i]);
    c->npins = 0;
    if (c->nhz) {
        /* Release: the call's uses of its buffers come before a drain's
         * acquire load sees the entry cleared. */
        for (uint32_t i = 0; i < c->nhz; i++)
            atomic_store_explicit(&c->hz->slot[c->hz_base + i], NULL, memory_order_release);
        c->hz->top = c->hz_base;
        c->nhz = 0;
    }
}

void accel__call_leave(accel__call *c)
{
    accel__call_unpin(c);
    if (c->gate)
        atomic_fetch_sub_explicit(&c->gate->calls, 1, memory_order_release);
    c->gate = NULL;
}

/* Raise slot s's pin count, then recheck that its state is still st (the
 * live handle that was resolved). seq_cst on both, as the release's kill and
 * its read of the count: either the release sees this pin and waits for it,
 * or this sees the handle dead (and undoes its raise). */
static bool raise_pin(hslot *s, uint64_t st, const void *handle)
{
    atomic_fetch_add_explicit(&s->pins, 1, memory_order_seq_cst);
    BETWEEN_PIN(handle);
    (void)handle;
    if (atomic_load_explicit(&s->state, memory_order_seq_cst) == st)
        return true;
    atomic_fetch_sub_explicit(&s->pins, 1, memory_order_release);
    return false;
}

/* Objects whose release waits for the calls that resolved them. */
static bool pinned_type(accel__type t)
{
    return t == ACCEL__T_BUFFER || t == ACCEL__T_QUEUE || t == ACCEL__T_EVENT ||
           t == ACCEL__T_KERNEL || t == ACCEL__T_GRAPH || t == ACCEL__T_COMM;
}

accel__hslot *accel__handle_pin(const void *handle, const void *obj)
{
    accel__type type;
    accel__gate *gate;
    hslot *s;
    uint64_t st;
    if (peek_slot(handle, &type, &gate, &s, &st) != obj || !pinned_type(type))
        return NULL;
    return raise_pin(s, st, handle) ? s : NULL;
}

void accel__handle_unpin(accel__hslot *s)
{
    if (s)
        atomic_fetch_sub_explicit(&s->pins, 1, memory_order_release);
}

/* The pin sets this thread holds, innermost first (accel__pinset_push). */
static _Thread_local accel__pinset *pinsets_mine;

void accel__pinset_push(accel__pinset *p)
{
    p->outer = pinsets_mine;
    pinsets_mine = p;
}

void accel__pinset_pop(accel__pinset *p)
{
    pinsets_mine = p->outer;
}

bool accel__call_pinned_by_outer(const accel__call *c, const void *handle)
{
    hzrec *r = hz_mine;
    uint64_t v = (uint64_t)(uintptr_t)handle ^ HANDLE_MASK;
    hslot *s = slot_at((uint32_t)v);
    if (!s)
        return false;
    for (const accel__pinset *p = pinsets_mine; p; p = p->outer)
        for (size_t i = 0; i < p->n; i++)
            if (p->pins[i] == s)
                return true;
    if (!r)
        return false;
    uint32_t end = c->nhz ? c->hz_base : r->top;
    for (uint32_t i = 0; i < end; i++)
        if (atomic_load_explicit(&r->slot[i], memory_order_relaxed) == s)
            return true;
    return false;
}

static accel_status released_error(const char *fn, const accel__arg *a)
{
    return accel__fail(ACCEL_ERROR_INVALID_HANDLE,
                       "%s: %s%s (%p) was released by another thread while this call resolved it",
                       fn, a->name, a->suffix ? a->suffix : "", a->handle);
}

/* Publish slot s in the calling thread's hazard record for c, above the
 * call's earlier entries; false when that cannot be (no record, full, or a
 * nested call's entries lie above). */
static bool hz_push(accel__call *c, hslot *s)
{
    hzrec *r = c->nhz ? c->hz : hz_mine;
    if (!r && !(r = hz_attach()))
        return false;
    if (!c->nhz) {
        c->hz = r;
        c->hz_base = r->top;
    } else if (r->top != c->hz_base + c->nhz) {
        return false;
    }
    if (r->top == HZ_SLOTS)
        return false;
    atomic_store_explicit(&r->slot[r->top++], s, memory_order_relaxed);
    c->nhz++;
    return true;
}

/* Pins published and not yet rechecked (pin_begin, then pin_end). */
typedef struct pending {
    uint32_t n;
    hslot *s[ACCEL__CALL_PINS];
    uint64_t st[ACCEL__CALL_PINS];
    const accel__arg *a[ACCEL__CALL_PINS];
} pending;

/* Pin the buffer that handle a->handle resolved to (slot s, state st) for c,
 * once per call (an in-place op names one buffer twice): published for
 * pin_end's recheck, or else counted and checked at once. */
static accel_status pin_begin(accel__call *c, const char *fn, const accel__arg *a, hslot *s,
                              uint64_t st, pending *p)
{
    for (uint32_t i = 0; i < c->npins; i++)
        if (c->pins[i] == s)
            return ACCEL_SUCCESS;
    for (uint32_t i = 0; i < c->nhz; i++)
        if (atomic_load_explicit(&c->hz->slot[c->hz_base + i], memory_order_relaxed) == s)
            return ACCEL_SUCCESS;
    if (c->npins + c->nhz == ACCEL__CALL_PINS)
        return accel__fail(ACCEL_ERROR_INTERNAL, "%s: %s%s: more than %d handles in one call", fn,
                           a->name, a->suffix ? a->suffix : "", ACCEL__CALL_PINS);
    if (hz_push(c, s)) {
        p->s[p->n] = s;
        p->st[p->n] = st;
        p->a[p->n++] = a;
        return ACCEL_SUCCESS;
    }
    if (!raise_pin(s, st, a->handle))
        return released_error(fn, a);
    c->pins[c->npins++] = s;
    return ACCEL_SUCCESS;
}

/* One fence for every pin published, then their rechecks: either a release
 * that killed a handle meanwhile sees the entry (its drain scans after its
 * own fence) or this sees the handle dead. */
static accel_status pin_end(const char *fn, const pending *p)
{
    if (!p->n)
        return ACCEL_SUCCESS;
    for (uint32_t i = 0; i < p->n; i++)
        BETWEEN_PIN(p->a[i]->handle);
    atomic_thread_fence(memory_order_seq_cst);
    for (uint32_t i = 0; i < p->n; i++)
        if (atomic_load_explicit(&p->s[i]->state, memory_order_relaxed) != p->st[i])
            return released_error(fn, p->a[i]);
    return ACCEL_SUCCESS;
}

static accel_status handle_error(const char *fn, const accel__arg *a, accel__type actual)
{
    const char *sfx = a->suffix ? a->suffix : "";
    if (!a->handle)
        return accel__fail(ACCEL_ERROR_INVALID_HANDLE, "%s: %s%s is NULL", fn, a->name, sfx);
    if (actual == ACCEL__T_NONE)
        return accel__fail(ACCEL_ERROR_INVALID_HANDLE,
                           "%s: %s%s (%p) is not a live %s (released, closed with its runtime, or "
                           "never created)",
                           fn, a->name, sfx, a->handle, accel__type_name(a->type));
    return accel__fail(ACCEL_ERROR_INVALID_HANDLE, "%s: %s%s is a %s handle, not a %s", fn, a->name,
                       sfx, accel__type_name(actual), accel__type_name(a->type));
}

/* What a handle argument resolved to: its object, and the gate, slot and
 * state word it was read with (peek_slot). */
typedef struct peeked {
    void *obj;
    accel__gate *gate;
    hslot *s;
    uint64_t state;
} peeked;

/* Peek a's handle into *h: INVALID_HANDLE with the message set where it is
 * NULL, not live or not of a's type. */
static accel_status peek_arg(const char *fn, const accel__arg *a, peeked *h)
{
    accel__type type;
    h->obj = peek_slot(a->handle, &type, &h->gate, &h->s, &h->state);
    return h->obj && type == a->type ? ACCEL_SUCCESS : handle_error(fn, a, type);
}

/* Hand the object peeked for a to the caller (a->out), pinned for c first
 * where its type's release waits for calls (the pin left in p for pin_end). */
static accel_status take_arg(accel__call *c, const char *fn, const accel__arg *a, const peeked *h,
                             pending *p)
{
    if (pinned_type(a->type)) {
        accel_status st = pin_begin(c, fn, a, h->s, h->state, p);
        if (st != ACCEL_SUCCESS)
            return st;
    }
    memcpy(a->out, &h->obj, sizeof h->obj);
    return ACCEL_SUCCESS;
}

static accel_status resolve(accel__call *c, const char *fn, const char *first_name,
                            const accel__arg *a, pending *p);

accel_status accel__call_enter(accel__call *c, const char *fn, size_t n, const accel__arg *args)
{
    /* The first handle gives the call's runtime; its count is raised before
     * the handle is looked at a second time, so that accel_runtime_close
     * (which kills the handles, then waits for the count) either sees this
     * call or this call sees the handle dead. */
    accel__call_leave(c); /* a call enters once; never leak an earlier count */
    const accel__arg *a = &args[0];
    peeked h;
    accel_status st = peek_arg(fn, a, &h);
    if (st != ACCEL_SUCCESS)
        return st;
    accel__gate *gate = h.gate;
    atomic_fetch_add_explicit(&gate->calls, 1, memory_order_seq_cst);
    BETWEEN_PEEKS(a->handle);
    /* The recheck gets its own outputs: a handle killed in between gives
     * NULL for them, and the count to undo is the one raised on gate. */
    accel__type type2;
    accel__gate *gate2;
    void *again = accel__handle_peek(a->handle, &type2, &gate2);
    if (again != h.obj || type2 != a->type || gate2 != gate) {
        atomic_fetch_sub_explicit(&gate->calls, 1, memory_order_release);
        return handle_error(fn, a, type2);
    }
    c->gate = gate;
    if (atomic_load_explicit(&gate->closing, memory_order_relaxed)) {
        accel__call_leave(c);
        return accel__fail(ACCEL_ERROR_INVALID_HANDLE,
                           "%s: %s belongs to runtime #%llu, which another thread is closing", fn,
                           a->name, (unsigned long long)gate->serial);
    }
    if (gate->fork_generation !=
        atomic_load_explicit(&accel__fork_generation, memory_order_relaxed)) {
        accel__call_leave(c);
        return accel__fail(ACCEL_ERROR_UNAVAILABLE,
                           "%s: %s belongs to runtime #%llu, opened before this process forked: "
                           "a runtime is unusable after fork (its queue threads and device "
                           "contexts stayed in the parent); open a new one in the child",
                           fn, a->name, (unsigned long long)gate->serial);
    }
    pending p;
    p.n = 0;
    st = take_arg(c, fn, a, &h, &p);
    for (size_t i = 1; i < n && st == ACCEL_SUCCESS; i++)
        st = resolve(c, fn, args[0].name, &args[i], &p);
    if (st != ACCEL_SUCCESS) {
        accel__call_leave(c);
        return st;
    }
    st = pin_end(fn, &p);
    if (st != ACCEL_SUCCESS) {
        accel__call_leave(c);
        for (size_t i = 0; i < n; i++)
            memset(args[i].out, 0, sizeof(void *));
    }
    return st;
}

/* accel__call_resolve, its pin left in p for pin_end. */
static accel_status resolve(accel__call *c, const char *fn, const char *first_name,
                            const accel__arg *a, pending *p)
{
    peeked h;
    accel_status st = peek_arg(fn, a, &h);
    if (st != ACCEL_SUCCESS)
        return st;
    if (h.gate != c->gate)
        return accel__fail(ACCEL_ERROR_DEVICE_MISMATCH,
                           "%s: %s%s belongs to runtime #%llu but %s to runtime #%llu (the "
                           "handles of one call must come from one runtime)",
                           fn, a->name, a->suffix ? a->suffix : "",
                           (unsigned long long)h.gate->serial, first_name,
                           (unsigned long long)c->gate->serial);
    return take_arg(c, fn, a, &h, p);
}

accel_status accel__call_resolve(accel__call *c, const char *fn, const char *first_name,
                                 const accel__arg *a)
{
    pending p;
    p.n = 0;
    accel_status st = resolve(c, fn, first_name, a, &p);
    if (st == ACCEL_SUCCESS)
        st = pin_end(fn, &p);
    if (st != ACCEL_SUCCESS && p.n) {
        /* Refused, yet the call stays entered: drop the entry published. */
        atomic_store_explicit(&c->hz->slot[--c->hz->top], NULL, memory_order_release);
        c->nhz--;
    }
    if (st != ACCEL_SUCCESS)
        memset(a->out, 0, sizeof(void *));
    return st;
}

accel_status accel__enter(accel__call *c, const char *fn, const void *handle, accel__type type,
                          const char *name, void *out_obj)
{
    accel__arg a = {handle, type, name, out_obj, NULL};
    return accel__call_enter(c, fn, 1, &a);
}

accel_status accel__enter_out(accel__call *c, const char *fn, const void *handle, accel__type type,
                              const char *name, void *out_obj, const void *out,
                              const char *out_name)
{
    accel_status st = accel__enter(c, fn, handle, type, name, out_obj);
    if (st == ACCEL_SUCCESS && !out)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, out_name);
    return st;
}

accel_status accel__enter_new(accel__call *c, const char *fn, void *dev_inout, const void *out,
                              const char *out_name, size_t size, void **out_obj)
{
    *out_obj = NULL;
    const void *dev;
    memcpy(&dev, dev_inout, sizeof dev); /* an accel_device *, as the caller holds it */
    ACCEL__TRY(accel__enter_out(c, fn, dev, ACCEL__T_DEVICE, "dev", dev_inout, out, out_name));
    *out_obj = calloc(1, size);
    if (!*out_obj)
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    return ACCEL_SUCCESS;
}

accel_status accel__enter2(accel__call *c, const char *fn, const void *a, accel__type ta,
                           const char *na, void *out_a, const void *b, accel__type tb,
                           const char *nb, void *out_b)
{
    const accel__arg args[] = {{a, ta, na, out_a, NULL}, {b, tb, nb, out_b, NULL}};
    return accel__call_enter(c, fn, 2, args);
}

bool accel__handle_retire(accel__call *c, const char *fn, const char *what, const void *handle)
{
    /* A callback inside a call of this thread that uses the object: the
     * drain below would wait for that call, which waits for us. */
    if (accel__call_pinned_by_outer(c, handle)) {
        accel__set_error("%s: %s (%p) is in use by a call of this thread that is still under "
                         "way (released from a callback inside it); it is not released",
                         fn, what, handle);
        accel__log(ACCEL_LOG_WARN, "%s", accel_last_error());
        return false;
    }
    /* Of two threads releasing it at once, one kills it. */
    if (!accel__handle_kill(handle)) {
        accel__set_error("%s: %s (%p) was released by another thread at the same time", fn, what,
                         handle);
        accel__log(ACCEL_LOG_WARN, "%s", accel_last_error());
        return false;
    }
    /* This call's own pin goes first. */
    accel__call_unpin(c);
    accel__handle_drain(handle);
    return true;
}

bool accel__release_begin(accel__call *c, const char *fn, const void *handle, accel__type type,
                          const char *name, void *out_obj)
{
    if (accel__enter(c, fn, handle, type, name, out_obj) != ACCEL_SUCCESS) {
        accel__log(ACCEL_LOG_WARN, "%s", accel_last_error());
        return false;
    }
    return accel__handle_retire(c, fn, name, handle);
}

void accel__gate_close_wait(accel__gate *g)
{
    long sleep_ns = 1000;
    while (atomic_load_explicit(&g->calls, memory_order_acquire) != 0) {
        struct timespec ts = {0, sleep_ns};
        nanosleep(&ts, NULL);
        if (sleep_ns < 1000000)
            sleep_ns *= 2;
    }
}

#ifdef ACCEL_HANDLE_TEST_HOOKS
/* tests/test_handle_table.c compiles this file itself with this macro:
 * spend a dead handle's slot up to generation gen without 2^32 creations. */
void accel__handle_test_set_generation(const void *handle, uint32_t gen);
void accel__handle_test_set_generation(const void *handle, uint32_t gen)
{
    uint64_t v = (uint64_t)(uintptr_t)handle ^ HANDLE_MASK;
    pthread_mutex_lock(&h_lock);
    hslot *s = slot_at((uint32_t)v);
    if (s && (atomic_load(&s->state) & 0xffu) == 0)
        atomic_store(&s->state, (uint64_t)gen << 32);
    pthread_mutex_unlock(&h_lock);
}
#endif
