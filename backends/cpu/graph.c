/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* graph.c — the CPU backend's graph entries: a recorded list resolved once
 * to addresses (ops as accel_cpu_op, transfers as memmoves) and launched as
 * ONE task of the queue's worker, so a launch costs one enqueue and at most
 * one wake-up however many nodes it has.
 *
 * The resolved list is reference-counted: a launch holds a reference until
 * its task has run, and an update of a list some launch still holds copies
 * it first (copy on write), so queued launches keep the values they were
 * launched with, as cudaGraphExecUpdate promises. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

typedef struct cpu_node {
    int is_op;
    accel_cpu_op op;
    void *kjob; /* a user kernel launch (the fused kernels of a graph): owned by the list */
    void *dst;  /* transfers and copies */
    const void *src;
    size_t bytes;
} cpu_node;

typedef struct accel_cpu_graph_nodes {
    atomic_int refs; /* the graph's, plus one per launch not yet run */
    size_t n;
    cpu_node nodes[];
} accel_cpu_graph_nodes;

struct accel_be_graph {
    accel_cpu_ctx *ctx;
    pthread_mutex_t lock; /* cur and its replacement by update */
    accel_cpu_graph_nodes *cur;
};

static accel_cpu_graph_nodes *nodes_alloc(size_t n)
{
    accel_cpu_graph_nodes *v = malloc(sizeof *v + n * sizeof(cpu_node));
    if (v) {
        atomic_init(&v->refs, 1);
        v->n = n;
    }
    return v;
}

static void nodes_free(accel_cpu_graph_nodes *v, size_t upto)
{
    for (size_t i = 0; i < upto; i++)
        accel_cpu__kernel_free(v->nodes[i].kjob);
    free(v);
}

static void nodes_unref(accel_cpu_graph_nodes *nodes)
{
    if (atomic_fetch_sub(&nodes->refs, 1) == 1)
        nodes_free(nodes, nodes->n);
}

static int32_t resolve(accel_cpu_ctx *ctx, const accel_graph_node_desc *d, cpu_node *out)
{
    memset(out, 0, sizeof *out);
    switch (d->kind) {
    case 1: /* ACCEL_GRAPH_NODE_OP */
        out->is_op = 1;
        if (d->op.op == ACCEL_OP_KERNEL)
            return accel_cpu__kernel_prepare(ctx, &d->op, &out->kjob);
        return accel_cpu__op_resolve(ctx, &d->op, &out->op);
    case 2: /* WRITE */
        out->dst = (char *)d->dst->data + d->dst_offset;
        out->src = d->host_src;
        break;
    case 3: /* READ */
        out->dst = d->host_dst;
        out->src = (const char *)d->src->data + d->src_offset;
        break;
    case 4: /* COPY */
        out->dst = (char *)d->dst->data + d->dst_offset;
        out->src = (const char *)d->src->data + d->src_offset;
        break;
    default:
        ctx->host->set_error(ctx->host->host_ctx, "cpu: graph node kind %u is not supported",
                             (unsigned)d->kind);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    out->bytes = d->bytes;
    return ACCEL_SUCCESS;
}

int32_t accel_cpu__graph_instantiate(void *vctx, uint32_t device,
                                     const accel_graph_node_desc *nodes, size_t n,
                                     accel_be_graph **out)
{
    accel_cpu_ctx *ctx = vctx;
    (void)device;
    accel_be_graph *g = calloc(1, sizeof *g);
    accel_cpu_graph_nodes *v = g ? nodes_alloc(n) : NULL;
    if (!v) {
        free(g);
        ctx->host->set_error(ctx->host->host_ctx,
                             "cpu: out of host memory for a graph of %zu nodes", n);
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    for (size_t i = 0; i < n; i++) {
        int32_t rc = resolve(ctx, &nodes[i], &v->nodes[i]);
        if (rc != ACCEL_SUCCESS) {
            nodes_free(v, i);
            free(g);
            return rc;
        }
    }
    g->ctx = ctx;
    g->cur = v;
    pthread_mutex_init(&g->lock, NULL);
    *out = g;
    return ACCEL_SUCCESS;
}

static int32_t nodes_run(accel_cpu_graph_nodes *v, int threads, char *msg, size_t msg_size);

/* The worker's calls of a graph task (accel_cpu_work): run the list, or
 * drop the launch's reference unrun after an earlier failure. */
static int32_t graph_work(accel_cpu_work *w, int threads, char *msg, size_t msg_size)
{
    return nodes_run(w->u.ptr, threads, msg, msg_size);
}

static void graph_work_discard(accel_cpu_work *w)
{
    nodes_unref(w->u.ptr);
}

int32_t accel_cpu__graph_launch(void *vctx, accel_be_queue *q, accel_be_graph *g)
{
    (void)vctx;
    pthread_mutex_lock(&g->lock);
    accel_cpu_graph_nodes *v = g->cur;
    atomic_fetch_add(&v->refs, 1);
    pthread_mutex_unlock(&g->lock);
    accel_cpu_work w;
    w.run = graph_work;
    w.discard = graph_work_discard;
    w.u.ptr = v;
    int32_t rc = accel_cpu__queue_enqueue_work(q, &w);
    if (rc != ACCEL_SUCCESS)
        nodes_unref(v);
    return rc;
}

int32_t accel_cpu__graph_update(void *vctx, accel_be_graph *g, size_t index,
                                const accel_graph_node_desc *node)
{
    accel_cpu_ctx *ctx = vctx;
    cpu_node resolved;
    int32_t rc = resolve(ctx, node, &resolved);
    if (rc != ACCEL_SUCCESS)
        return rc;
    pthread_mutex_lock(&g->lock);
    accel_cpu_graph_nodes *v = g->cur;
    if (index >= v->n) {
        pthread_mutex_unlock(&g->lock);
        accel_cpu__kernel_free(resolved.kjob);
        ctx->host->set_error(ctx->host->host_ctx, "cpu: graph update of node %zu of %zu", index,
                             v->n);
        return ACCEL_ERROR_INVALID_ARGUMENT;
    }
    if (atomic_load(&v->refs) > 1) {
        /* A queued launch still reads v: change a copy (kernel jobs cloned). */
        accel_cpu_graph_nodes *c = nodes_alloc(v->n);
        size_t k = 0;
        if (c) {
            memcpy(c->nodes, v->nodes, v->n * sizeof(cpu_node));
            for (; k < v->n; k++)
                if (v->nodes[k].kjob &&
                    !(c->nodes[k].kjob = accel_cpu__kernel_clone(v->nodes[k].kjob)))
                    break;
        }
        if (!c || k < v->n) {
            if (c)
                nodes_free(c, k);
            pthread_mutex_unlock(&g->lock);
            accel_cpu__kernel_free(resolved.kjob);
            ctx->host->set_error(ctx->host->host_ctx, "cpu: out of host memory updating a graph");
            return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
        }
        g->cur = c;
        nodes_unref(v);
        v = c;
    }
    accel_cpu__kernel_free(v->nodes[index].kjob);
    v->nodes[index] = resolved;
    pthread_mutex_unlock(&g->lock);
    return ACCEL_SUCCESS;
}

void accel_cpu__graph_destroy(void *vctx, accel_be_graph *g)
{
    (void)vctx;
    if (!g)
        return;
    nodes_unref(g->cur);
    pthread_mutex_destroy(&g->lock);
    free(g);
}

/* On the worker: run every node in order; stop at the first failure (its
 * message in msg). Then drop the task's reference. */
static int32_t nodes_run(accel_cpu_graph_nodes *v, int threads, char *msg, size_t msg_size)
{
    int32_t st = ACCEL_SUCCESS;
    for (size_t i = 0; i < v->n && st == ACCEL_SUCCESS; i++) {
        const cpu_node *n = &v->nodes[i];
        if (n->kjob)
            st = accel_cpu__kernel_exec(n->kjob, threads, msg, msg_size);
        else if (n->is_op)
            st = accel_cpu__op_run(&n->op, threads, msg, msg_size);
        else if (n->bytes && n->dst != n->src)
            memmove(n->dst, n->src, n->bytes);
    }
    nodes_unref(v);
    return st;
}
