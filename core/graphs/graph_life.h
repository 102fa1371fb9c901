/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/graphs/graph_life.h — a graph's life outside its public calls: its
 * instantiation at the end of a capture and the teardown of every graph at
 * runtime close (graph.c). Not installed. */
#ifndef ACCEL_CORE_GRAPHS_GRAPH_LIFE_H
#define ACCEL_CORE_GRAPHS_GRAPH_LIFE_H

#include "accel/graph.h"

#include "base/objects.h"

/* graph.c, for accel_runtime_close: kill every graph handle (rt->lock
 * held), then, after the queues drained and before the buffers are freed,
 * free every graph. */
void accel__graphs_kill_handles(accel_runtime *rt);
void accel__graphs_close(accel_runtime *rt);

/* The end of a capture (capture.c): instantiate the new graph g with the
 * default options, so that its first launch only replays. fn names the
 * public call in messages. Errors: those of accel_graph_instantiate. */
accel_status accel__graph_instantiate_new(accel_graph *g, const char *fn);

#endif /* ACCEL_CORE_GRAPHS_GRAPH_LIFE_H */
