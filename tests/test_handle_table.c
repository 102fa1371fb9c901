/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_handle_table.c — the handle table of core/base/handle.c on its own
 * (compiled into this test with ACCEL_HANDLE_TEST_HOOKS): handle values are
 * never given out twice, a slot whose 32-bit generation is spent is retired
 * rather than wrapped, so a released handle stays refused for at least 2^32
 * (in fact all) later creations, lookups see type and liveness, and a
 * buffer's pins hold its release (accel__handle_drain) until the calls that
 * resolved it have left. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/handle.h"

void accel__handle_test_set_generation(const void *handle, uint32_t gen);

static int obj_a, obj_b;

static void *peek(const void *h, accel__type *t)
{
    accel__gate *g;
    return accel__handle_peek(h, t, &g);
}

static int cmp_ptr(const void *x, const void *y)
{
    uintptr_t a = *(const uintptr_t *)x, b = *(const uintptr_t *)y;
    return a < b ? -1 : a > b;
}

Test(handle_table, values_are_never_reused)
{
    enum { N = 200000 };
    uintptr_t *seen = malloc(N * sizeof *seen);
    cr_assert(seen);
    void *live[8] = {0};
    for (size_t i = 0; i < N; i++) {
        void *h;
        /* Up to 8 live at once, so slots are reused in varying order. */
        size_t k = i % 8;
        if (live[k])
            accel__handle_free(live[k]);
        cr_assert_eq(accel__handle_new(ACCEL__T_BUFFER, &obj_a, NULL, &h), ACCEL_SUCCESS);
        live[k] = h;
        seen[i] = (uintptr_t)h;
    }
    qsort(seen, N, sizeof *seen, cmp_ptr);
    for (size_t i = 1; i < N; i++)
        cr_assert_neq(seen[i], seen[i - 1], "handle value %#lx given out twice",
                      (unsigned long)seen[i]);
    for (size_t k = 0; k < 8; k++)
        accel__handle_free(live[k]);
    free(seen);
}

Test(handle_table, released_handles_stay_refused_and_spent_slots_retire)
{
    void *h1, *h2, *h3;
    accel__type t;
    cr_assert_eq(accel__handle_new(ACCEL__T_QUEUE, &obj_a, NULL, &h1), ACCEL_SUCCESS);
    cr_assert_eq(peek(h1, &t), &obj_a);
    cr_assert_eq(t, ACCEL__T_QUEUE);
    accel__handle_free(h1);
    cr_assert_null(peek(h1, &t));
    cr_assert_eq(t, ACCEL__T_NONE);
    /* As if the slot had been reused 2^32 - 2 times since. */
    accel__handle_test_set_generation(h1, 0xfffffffeu);
    cr_assert_eq(accel__handle_new(ACCEL__T_QUEUE, &obj_b, NULL, &h2), ACCEL_SUCCESS);
    cr_assert_eq((uint32_t)((uintptr_t)h2 ^ 0xa5c3000000000000ull),
                 (uint32_t)((uintptr_t)h1 ^ 0xa5c3000000000000ull),
                 "the free list should hand out h1's slot again");
    cr_assert_neq(h2, h1);
    cr_assert_null(peek(h1, &t), "h1 must stay released");
    cr_assert_eq(peek(h2, &t), &obj_b);
    accel__handle_free(h2);
    accel__handle_free(h2); /* a second free of a dead handle changes nothing */
    /* Generation 2^32 - 1 was the last: the slot retires instead of coming
     * back as generation 0 or 1, which would revive h1's first generation. */
    for (int i = 0; i < 64; i++) {
        cr_assert_eq(accel__handle_new(ACCEL__T_QUEUE, &obj_a, NULL, &h3), ACCEL_SUCCESS);
        cr_assert_neq((uint32_t)((uintptr_t)h3 ^ 0xa5c3000000000000ull),
                      (uint32_t)((uintptr_t)h1 ^ 0xa5c3000000000000ull), "a spent slot was reused");
        cr_assert_null(peek(h1, &t));
        cr_assert_null(peek(h2, &t));
        accel__handle_free(h3);
    }
}

Test(handle_table, wrong_type_and_garbage)
{
    void *h;
    accel__type t;
    cr_assert_eq(accel__handle_new(ACCEL__T_EVENT, &obj_a, NULL, &h), ACCEL_SUCCESS);
    cr_assert_eq(peek(h, &t), &obj_a);
    cr_assert_eq(t, ACCEL__T_EVENT);
    const void *junk[] = {NULL, &obj_a, (void *)1, (void *)(uintptr_t)-1,
                          (void *)((uintptr_t)h ^ ((uintptr_t)1 << 40))};
    for (size_t i = 0; i < sizeof junk / sizeof *junk; i++)
        cr_assert_null(peek(junk[i], &t), "junk value %zu resolved", i);
    accel__handle_free(h);
}

/* A runtime closed between a call's first look at its handle and the
 * recheck after raising the gate's count (the window a concurrent
 * accel_runtime_close lands in): the call is refused as a dead handle and
 * the count it raised is undone on that gate. */
extern void (*accel__handle_test_between_peeks)(const void *handle);

static void kill_handle(const void *h)
{
    accel__handle_free(h);
}

Test(handle_table, handle_killed_between_the_two_peeks_is_refused_and_uncounted)
{
    accel__gate *g = accel__gate_new();
    cr_assert_not_null(g);
    void *h;
    cr_assert_eq(accel__handle_new(ACCEL__T_QUEUE, &obj_a, g, &h), ACCEL_SUCCESS);
    long before = atomic_load(&g->calls);
    accel__handle_test_between_peeks = kill_handle;
    accel__call c = {NULL};
    void *obj = NULL;
    accel_status st = accel__enter(&c, "accel_queue_finish", h, ACCEL__T_QUEUE, "q", &obj);
    accel__handle_test_between_peeks = NULL;
    cr_assert_eq(st, ACCEL_ERROR_INVALID_HANDLE, "got %s", accel_status_name(st));
    cr_assert_null(obj);
    cr_assert_null(c.gate, "a refused call must not stay entered");
    cr_assert(strstr(accel_last_error(), "accel_queue_finish: q") != NULL, "%s",
              accel_last_error());
    cr_assert(strstr(accel_last_error(), "not a live queue") != NULL, "%s", accel_last_error());
    cr_assert_eq(atomic_load(&g->calls), before, "the gate's count was left raised");
    accel__gate_retire(g);
}

/* Pins (accel_buffer_release against other threads' calls). A buffer handle
 * killed between the pin's raise and its recheck: the call is refused and
 * leaves neither its gate count nor the pin raised (the drain returns). */
extern void (*accel__handle_test_between_pin)(const void *handle);

static void kill_only(const void *h)
{
    accel__handle_kill(h);
}

Test(handle_table, buffer_killed_between_pin_and_recheck_is_refused_and_unpinned)
{
    accel__gate *g = accel__gate_new();
    cr_assert_not_null(g);
    void *hq, *hb;
    cr_assert_eq(accel__handle_new(ACCEL__T_QUEUE, &obj_a, g, &hq), ACCEL_SUCCESS);
    cr_assert_eq(accel__handle_new(ACCEL__T_BUFFER, &obj_b, g, &hb), ACCEL_SUCCESS);
    long before = atomic_load(&g->calls);
    void *q = NULL, *b = NULL;
    const accel__arg args[] = {{hq, ACCEL__T_QUEUE, "q", &q, NULL},
                               {hb, ACCEL__T_BUFFER, "x", &b, ".buffer"}};
    accel__call c = {NULL};
    accel__handle_test_between_pin = kill_only;
    accel_status st = accel__call_enter(&c, "accel_copy", 2, args);
    accel__handle_test_between_pin = NULL;
    cr_assert_eq(st, ACCEL_ERROR_INVALID_HANDLE, "got %s", accel_status_name(st));
    cr_assert(strstr(accel_last_error(), "accel_copy: x.buffer") &&
                  strstr(accel_last_error(), "was released by another thread while this call"),
              "%s", accel_last_error());
    cr_assert_null(b);
    cr_assert_null(c.gate, "a refused call must not stay entered");
    cr_assert_eq(c.npins, 0);
    cr_assert_eq(c.nhz, 0);
    cr_assert_eq(atomic_load(&g->calls), before, "the gate's count was left raised");
    accel__handle_drain(hb); /* hangs (ctest timeout) if the pin was left */
    accel__type t;
    cr_assert_null(peek(hb, &t));
    accel__handle_free(hq);
    accel__gate_retire(g);
}

typedef struct pinner {
    const void *hb;
    atomic_int stage; /* 1: pinned, 2: may leave */
    accel_status st;
} pinner;

static void *pinner_main(void *arg)
{
    pinner *p = arg;
    void *b1 = NULL, *b2 = NULL;
    accel__call c = {NULL};
    /* The same buffer twice in one call (an op's input and output), pinned once. */
    const accel__arg args[] = {{p->hb, ACCEL__T_BUFFER, "x", &b1, NULL},
                               {p->hb, ACCEL__T_BUFFER, "out", &b2, NULL}};
    p->st = accel__call_enter(&c, "accel_copy", 2, args);
    atomic_store(&p->stage, 1);
    while (atomic_load(&p->stage) != 2)
        sched_yield();
    accel__call_leave(&c);
    return NULL;
}

typedef struct drainer {
    const void *hb;
    atomic_bool done;
} drainer;

static void *drainer_main(void *arg)
{
    drainer *d = arg;
    accel__handle_drain(d->hb);
    atomic_store(&d->done, true);
    return NULL;
}

Test(handle_table, drain_waits_for_every_call_that_pinned_the_buffer)
{
    accel__gate *g = accel__gate_new();
    cr_assert_not_null(g);
    void *hb;
    cr_assert_eq(accel__handle_new(ACCEL__T_BUFFER, &obj_a, g, &hb), ACCEL_SUCCESS);
    pinner p = {hb, 0, ACCEL_ERROR_INTERNAL};
    pthread_t pt, dt;
    cr_assert_eq(pthread_create(&pt, NULL, pinner_main, &p), 0);
    while (atomic_load(&p.stage) != 1)
        sched_yield();
    cr_assert_eq(p.st, ACCEL_SUCCESS, "%s", accel_last_error());
    cr_assert(accel__handle_kill(hb), "the first kill of a live handle kills it");
    cr_assert(!accel__handle_kill(hb), "a second kill finds it dead");
    drainer d = {hb, false};
    cr_assert_eq(pthread_create(&dt, NULL, drainer_main, &d), 0);
    struct timespec ts = {0, 50 * 1000 * 1000};
    nanosleep(&ts, NULL);
    cr_assert(!atomic_load(&d.done), "the drain returned while a call still had the buffer pinned");
    atomic_store(&p.stage, 2);
    pthread_join(pt, NULL);
    pthread_join(dt, NULL);
    cr_assert(atomic_load(&d.done));
    accel__gate_retire(g);
}

/* Nested calls past the thread's 64 hazard entries pin by the slots' counts:
 * the drain waits for those too. */
Test(handle_table, pins_past_the_hazard_record_are_counted_and_drained)
{
    enum { PER_CALL = 30, CALLS = 3 };
    accel__gate *g = accel__gate_new();
    cr_assert_not_null(g);
    static int objs[PER_CALL * CALLS];
    void *h[PER_CALL * CALLS], *out[PER_CALL * CALLS];
    accel__arg args[PER_CALL * CALLS];
    for (int i = 0; i < PER_CALL * CALLS; i++) {
        cr_assert_eq(accel__handle_new(ACCEL__T_BUFFER, &objs[i], g, &h[i]), ACCEL_SUCCESS);
        args[i] = (accel__arg){h[i], ACCEL__T_BUFFER, "args[i]", &out[i], NULL};
    }
    accel__call c[CALLS];
    for (int k = 0; k < CALLS; k++) {
        c[k] = (accel__call){NULL};
        cr_assert_eq(accel__call_enter(&c[k], "accel_kernel_launch", PER_CALL, &args[k * PER_CALL]),
                     ACCEL_SUCCESS, "%s", accel_last_error());
        for (int i = k * PER_CALL; i < (k + 1) * PER_CALL; i++)
            cr_assert_eq(out[i], &objs[i]);
    }
    cr_assert_eq(c[0].nhz + c[1].nhz + c[2].nhz, 64, "the record holds 64 entries");
    cr_assert_eq(c[2].npins, CALLS * PER_CALL - 64, "the rest are counted");
    const void *last = h[CALLS * PER_CALL - 1]; /* counted, in c[2] */
    cr_assert(accel__handle_kill(last));
    drainer d = {last, false};
    pthread_t dt;
    cr_assert_eq(pthread_create(&dt, NULL, drainer_main, &d), 0);
    struct timespec ts = {0, 50 * 1000 * 1000};
    nanosleep(&ts, NULL);
    cr_assert(!atomic_load(&d.done), "the drain returned while a call still counted its pin");
    for (int k = CALLS - 1; k >= 0; k--)
        accel__call_leave(&c[k]);
    pthread_join(dt, NULL);
    cr_assert(atomic_load(&d.done));
    for (int i = 0; i < PER_CALL * CALLS - 1; i++)
        accel__handle_free(h[i]);
    accel__gate_retire(g);
}
