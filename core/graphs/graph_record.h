/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/graph_record.h — the recorded graph as data (graph_record.c): its
 * nodes, its temporaries, building it while a capture records (capture.c),
 * publishing it as a handle, freeing it. Instantiation, launch and
 * rebinding sit above it (graph.c); the capture hooks below validation
 * (capture.c) fill it. Not installed. */
#ifndef ACCEL_CORE_GRAPH_RECORD_H
#define ACCEL_CORE_GRAPH_RECORD_H

#include "base/objects.h"

/* One recorded node. be holds the plugin's view (op descriptor, byte ranges,
 * host pointers) kept current by rebinding; buf[] the core buffers behind
 * its plugin buffers, checked alive at each launch through their handles. */
#define ACCEL__GNODE_BUFS 32
typedef struct accel__gnode {
    accel_graph_node_desc be;
    /* OP: operands; a user kernel launch: its arguments (NULL for scalars);
     * WRITE/READ: [0]; COPY: [0] src, [1] dst */
    accel_buffer *buf[ACCEL__GNODE_BUFS];
    const void *buf_handle[ACCEL__GNODE_BUFS];
    uint32_t nbuf;
    /* A user kernel launch: the node's deep copy (be.op.kernel points at it). */
    struct accel__klaunch *klaunch;
    accel_event *ev; /* EVENT_RECORD: a reference held by the node */
    const char *name;
} accel__gnode;

struct accel_graph {
    accel_graph *handle;
    accel_device *dev;
    pthread_mutex_t lock; /* launches, rebinding, instantiation */
    accel__gnode *nodes;
    size_t n, cap;
    accel_buffer **temps; /* created during the capture; released with the graph */
    size_t ntemps, tcap;
    bool instantiated;
    uint32_t flags;     /* accel_graph_options.flags of the instantiation */
    accel_be_graph *be; /* the backend's graph, or NULL: core replay */
    bool be_stale;      /* a rebinding the backend refused: rebuild first */
    bool launched;      /* ever launched: release waits for the queues */
    /* A graph with temporaries: the end of its latest launch (recorded on
     * the queue tail_q names) that a launch on another queue waits for, so
     * that two launches never share the temporaries at once. */
    accel_be_event *tail;
    const void *tail_q;
    bool plan_stale;           /* a rebinding touched a fused kernel: plan again first */
    struct accel__gexec *exec; /* the launch plan (fuse.h): what replays and the backend run */
    size_t nexec;
    size_t *exec_of; /* recorded node -> its exec entry */
    /* The distinct buffers the nodes use (rebuilt at instantiate and by
     * rebinding): a launch checks and marks each once, not once per use. */
    accel_buffer **ubuf;
    const void **uhandle;
    size_t nubuf;
    accel_graph *prev, *next;
};

/* A new empty graph of dev (not yet a handle). */
accel_graph *accel__graph_new(accel_device *dev);
/* Append a node (copied); false when out of host memory. */
bool accel__graph_append(accel_graph *g, const accel__gnode *node);
bool accel__graph_add_temp(accel_graph *g, accel_buffer *buf);
/* Free g's memory and node references (not its temporaries' buffers, not
 * its handle); for a capture dropped before it became a graph. */
void accel__graph_free(accel_graph *g);
/* Register g as a live handle on its runtime's list. */
accel_status accel__graph_publish(accel_graph *g, const char *fn, accel_graph **out);

#endif /* ACCEL_CORE_GRAPH_RECORD_H */
