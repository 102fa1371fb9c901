/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_handle_table.c — the handle table of core/handle.c on its own
 * (compiled into this test with ACCEL_HANDLE_TEST_HOOKS): handle values are
 * never given out twice, a slot whose 32-bit generation is spent is retired
 * rather than wrapped, so a released handle stays refused for at least 2^32
 * (in fact all) later creations, and lookups see type and liveness. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

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
