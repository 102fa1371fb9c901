/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/capture.h — graphs inside the core: the recorded node list
 * (graph.c) and the capture hook (capture.c). Not installed.
 *
 * The hook sits below validation: accel__submit (submit.c), the transfers and
 * copies (queue.c), event records and waits (event.c) and buffer creation
 * (buffer.c) call it once their arguments are checked; it appends a deep copy
 * to the capturing queue's graph and calls nothing above it. graph.c replays
 * a graph through accel__submit and the public transfer calls. */
#ifndef ACCEL_CORE_CAPTURE_H
#define ACCEL_CORE_CAPTURE_H

#include "fuse.h"
#include "internal.h"

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
    bool plan_stale;    /* a rebinding touched a fused kernel: plan again first */
    accel__gexec *exec; /* the launch plan (fuse.c): what replays and the backend run */
    size_t nexec;
    size_t *exec_of; /* recorded node -> its exec entry */
    /* The distinct buffers the nodes use (rebuilt at instantiate and by
     * rebinding): a launch checks and marks each once, not once per use. */
    accel_buffer **ubuf;
    const void **uhandle;
    size_t nubuf;
    accel_graph *prev, *next;
};

/* graph.c: a new empty graph of dev (not yet a handle) and its teardown. */
accel_graph *accel__graph_new(accel_device *dev);
/* Append a node (copied); false when out of host memory. */
bool accel__graph_append(accel_graph *g, const accel__gnode *node);
bool accel__graph_add_temp(accel_graph *g, accel_buffer *buf);
/* Free g's memory and node references (not its temporaries' buffers, not
 * its handle); for a capture dropped before it became a graph. */
void accel__graph_free(accel_graph *g);
/* Register g as a live handle on its runtime's list. */
accel_status accel__graph_publish(accel_graph *g, const char *fn, accel_graph **out);
/* accel_runtime_close: kill every graph handle (rt->lock held), then, after
 * the queues drained and before the buffers are freed, free every graph. */
void accel__graphs_kill_handles(accel_runtime *rt);
void accel__graphs_close(accel_runtime *rt);

/* True while q records (one relaxed load). */
static inline bool accel__capturing(const accel_queue *q)
{
    return atomic_load_explicit(&((accel_queue *)q)->capture, memory_order_relaxed) != NULL;
}

/* The hooks. Each returns true when q was capturing and the work was
 * recorded or refused (*out_st says which), false when q is not capturing
 * and the caller goes on as usual. Callers hold no lock. */
bool accel__capture_op(accel_queue *q, const accel_op_desc *d, unsigned flags,
                       accel_status *out_st);
bool accel__capture_transfer(accel_queue *q, bool to_device, accel_buffer *buf, size_t offset,
                             const void *src, void *dst, size_t bytes, accel_status *out_st);
bool accel__capture_copy(accel_queue *q, accel_buffer *src, size_t src_offset, accel_buffer *dst,
                         size_t dst_offset, size_t bytes, accel_status *out_st);
bool accel__capture_event_record(accel_queue *q, accel_event *ev, accel_status *out_st);
/* accel_queue_wait_event on a capturing q: an event recorded in the same
 * capture is already ordered (one in-order queue); any other is an error.
 * Also refuses a wait of an uncaptured queue on an event recorded in an open
 * capture (ev->captured). */
bool accel__capture_wait_event(accel_queue *q, accel_event *ev, const char *fn,
                               accel_status *out_st);
/* Synchronizing calls (finish, blocking transfers) on a capturing q: an
 * error naming fn; ACCEL_SUCCESS when q is not capturing. */
accel_status accel__capture_refuse_sync(const accel_queue *q, const char *fn);
/* accel_event_synchronize of an event recorded in an open capture. */
accel_status accel__capture_refuse_event_sync(const accel_event *ev, const char *fn);
/* accel_buffer_create: a buffer made by a capturing thread on its capture's
 * device becomes a temporary of the capture. */
void accel__capture_buffer_created(accel_device *dev, accel_buffer *buf);
/* accel__queue_destroy: drop a capture never ended. */
void accel__capture_queue_destroyed(accel_queue *q);

#endif /* ACCEL_CORE_CAPTURE_H */
