/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/event_life.c — an event object's end: the last reference (the
 * handle's, a pending wait's, a graph node's) frees it. Below event.c's
 * calls and the capture hooks, which both hold references. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "base/handle.h"
#include "base/objects.h"

void accel__event_destroy(accel_event *ev)
{
    accel__handle_free(ev->handle);
    ev->dev->be->vt->event_destroy(ev->dev->be->ctx, ev->be);
    free(ev);
}

void accel__event_unref(accel_event *ev)
{
    if (atomic_fetch_sub(&ev->refs, 1) != 1)
        return;
    ACCEL__RT_LIST(REMOVE, ev->dev->rt, events, ev);
    accel__event_destroy(ev);
}
