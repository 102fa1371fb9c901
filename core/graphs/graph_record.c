/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/graph_record.c — the recorded graph as data (graph_record.h): a new
 * graph, appending nodes and temporaries while a capture records, the handle
 * that publishes it, and freeing it with the references its nodes hold. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include "base/handle.h"
#include "base/objects.h"
#include "base/status.h"
#include "graphs/graph_record.h"
#include "kernels/kernels.h"

accel_graph *accel__graph_new(accel_device *dev)
{
    accel_graph *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->dev = dev;
    pthread_mutex_init(&g->lock, NULL);
    return g;
}

bool accel__graph_append(accel_graph *g, const accel__gnode *node)
{
    if (g->n == g->cap) {
        size_t ncap = g->cap ? 2 * g->cap : 16;
        accel__gnode *nn = realloc(g->nodes, ncap * sizeof *nn);
        if (!nn)
            return false;
        g->nodes = nn;
        g->cap = ncap;
    }
    g->nodes[g->n++] = *node;
    return true;
}

bool accel__graph_add_temp(accel_graph *g, accel_buffer *buf)
{
    if (g->ntemps == g->tcap) {
        size_t ncap = g->tcap ? 2 * g->tcap : 8;
        accel_buffer **nt = realloc(g->temps, ncap * sizeof *nt);
        if (!nt)
            return false;
        g->temps = nt;
        g->tcap = ncap;
    }
    g->temps[g->ntemps++] = buf;
    return true;
}

void accel__graph_free(accel_graph *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->n; i++) {
        if (g->nodes[i].ev)
            accel__event_unref(g->nodes[i].ev);
        accel__klaunch_free(g->nodes[i].klaunch);
    }
    if (g->tail)
        g->dev->be->vt->event_destroy(g->dev->be->ctx, g->tail);
    free(g->nodes);
    free(g->temps);
    free(g->ubuf);
    free((void *)g->uhandle);
    pthread_mutex_destroy(&g->lock);
    free(g);
}

accel_status accel__graph_publish(accel_graph *g, const char *fn, accel_graph **out)
{
    if (accel__handle_new(ACCEL__T_GRAPH, g, g->dev->rt->gate, &g->handle) != ACCEL_SUCCESS) {
        for (size_t i = 0; i < g->ntemps; i++)
            atomic_store(&g->temps[i]->graph_temp, false);
        accel__graph_free(g);
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    }
    ACCEL__RT_LIST(PUSH, g->dev->rt, graphs, g);
    *out = g->handle;
    return ACCEL_SUCCESS;
}
