/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* bench_graph.h — the graph and fusion sections of `accel bench`
 * (bench_graph.c). */
#ifndef ACCEL_CLI_BENCH_GRAPH_H
#define ACCEL_CLI_BENCH_GRAPH_H

#include "accel/accel.h"
#include "bench_types.h"

/* On a GPU, before anything else of the run: the 100 dependent adds' rows
 * and targets on a queue of their own, in the state before any kernel ran
 * on another stream (bench_graph.c). */
accel_status bench_graph_adds_first(bench *b, bench_device *d, accel_device *dev,
                                    const bench_plan *p);

/* The graph and fusion rows and targets of d (bench_graph.c). */
accel_status bench_graphs(bench *b, bench_device *d, accel_device *dev, accel_queue *q,
                          accel_event *e0, accel_event *e1, const bench_plan *p);

#endif /* ACCEL_CLI_BENCH_GRAPH_H */
