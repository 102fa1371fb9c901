/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_event_record.c — the rule for an event recorded on two queues (the
 * latest record wins, as CUDA; a re-record on another queue while the
 * earlier one is pending logs a warning) and accel_queue_wait_queues (one
 * event per queue): a queue that waits for several busy queues sees all of
 * their results. Values are checked exactly (fills and copies). */
#include <criterion/criterion.h>
#include <string.h>

#include "test_util.h"

#define BIG ((size_t)48 << 20) /* f32 elements: a fill that takes milliseconds */

static accel_runtime *open_cpu(void)
{
    accel_runtime *rt = NULL;
    accel_status st = tu_open_ini(tu_fmt("[runtime]\norder = cpu\n[backend.cpu]\nlibrary = %s\n"
                                         "threads = 1\n",
                                         TU_CPU_PLUGIN),
                                  &rt, NULL);
    cr_assert(st == ACCEL_SUCCESS, "open: %s", accel_last_error());
    return rt;
}

Test(event_record, second_queue_while_pending_warns_and_latest_wins, .timeout = 120)
{
    tu_log_capture();
    accel_runtime *rt = open_cpu();
    accel_device *dev;
    tu_ok(accel_device_get_by_name(rt, "cpu", &dev));
    accel_queue *q1, *q2;
    accel_buffer *big;
    accel_event *ev;
    tu_ok(accel_queue_create(dev, &q1));
    tu_ok(accel_queue_create(dev, &q2));
    tu_ok(accel_buffer_create(dev, BIG * sizeof(float), &big));
    tu_ok(accel_event_create(dev, &ev));
    /* Same queue twice: nothing is lost, no warning. */
    tu_ok(accel_event_record(ev, q1));
    tu_ok(accel_event_record(ev, q1));
    cr_assert(!tu_log_contains(ACCEL_LOG_WARN, "second queue"), "%s", tu_log_text());
    /* q1 busy for a while, ev recorded there, then on the idle q2. */
    for (int i = 0; i < 4; i++)
        tu_ok(accel_fill(q1, ACCEL_F32, (double)i, accel_slice_of(big, 0, BIG)));
    tu_ok(accel_event_record(ev, q1));
    bool done = true;
    tu_ok(accel_event_query(ev, &done));
    cr_assert(!done, "the fills finished too fast for this test (make BIG larger)");
    tu_ok(accel_event_record(ev, q2));
    cr_assert(tu_log_contains(ACCEL_LOG_WARN, "second queue"),
              "no warning for a re-record while pending: %s", tu_log_text());
    cr_assert(tu_log_contains(ACCEL_LOG_WARN, "accel_queue_wait_queues"), "%s", tu_log_text());
    /* Latest wins: ev now marks q2's (empty) end, done long before q1's. */
    tu_ok(accel_event_synchronize(ev));
    tu_ok(accel_queue_finish(q1));
    accel_event_release(ev);
    accel_buffer_release(big);
    accel_runtime_close(rt);
}

Test(event_record, wait_queues_orders_after_every_listed_queue, .timeout = 120)
{
    accel_runtime *rt = open_cpu();
    accel_device *dev;
    tu_ok(accel_device_get_by_name(rt, "cpu", &dev));
    enum { NQ = 3 };
    accel_queue *qs[NQ], *waiter;
    accel_buffer *big[NQ], *small;
    for (int i = 0; i < NQ; i++) {
        tu_ok(accel_queue_create(dev, &qs[i]));
        tu_ok(accel_buffer_create(dev, BIG * sizeof(float), &big[i]));
    }
    tu_ok(accel_queue_create(dev, &waiter));
    tu_ok(accel_buffer_create(dev, NQ * sizeof(float), &small));
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < NQ; i++) {
            tu_ok(accel_fill(qs[i], ACCEL_F32, -1.0, accel_slice_of(big[i], 0, BIG)));
            tu_ok(accel_fill(qs[i], ACCEL_F32, 10.0 * round + i, accel_slice_of(big[i], 0, BIG)));
        }
        /* waiter is in the list too: a no-op for itself. */
        accel_queue *list[NQ + 1] = {qs[0], qs[1], qs[2], waiter};
        tu_ok(accel_queue_wait_queues(waiter, list, NQ + 1));
        for (int i = 0; i < NQ; i++)
            tu_ok(accel_queue_copy(waiter, big[i], (BIG - 1) * sizeof(float), small,
                                   (size_t)i * sizeof(float), sizeof(float)));
        float got[NQ];
        tu_ok(accel_queue_read_blocking(waiter, small, 0, got, sizeof got));
        for (int i = 0; i < NQ; i++)
            cr_assert(got[i] == (float)(10 * round + i),
                      "round %d: the waiter read %g from queue %d's buffer before it was done",
                      round, (double)got[i], i);
        for (int i = 0; i < NQ; i++)
            tu_ok(accel_queue_finish(qs[i]));
    }
    tu_ok(accel_queue_wait_queues(waiter, NULL, 0));
    accel_runtime_close(rt);
}
