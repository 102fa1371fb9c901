/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* graph.c — the CUDA backend's graph entries: the recorded list is captured
 * (cudaStreamBeginCapture, thread-local mode) on a private queue of the
 * graph's own, through the same op_execute and launchers as eager ops, into
 * a cudaGraph that is instantiated once and launched with cudaGraphLaunch on
 * the caller's stream. The private queue owns what the captured kernels use
 * besides the operands (the reduction scratch), so it lives with the graph.
 *
 * Update: the node list is captured again with the changed node and the new
 * cudaGraph handed to cudaGraphExecUpdate, which changes the parameters of
 * the instantiated graph in place (launches already enqueued keep theirs);
 * a change it refuses (a different topology) is refused here, and the core
 * then instantiates again.
 *
 * At instantiate the captured cudaGraph's nodes are counted by type
 * (cudaGraphGetNodes, cudaGraphNodeGetType) and logged at info level:
 * "graph: 100 recorded nodes captured as 100 CUDA graph nodes (100
 * kernel, 0 memcpy, 0 memset, 0 event, 0 other)". An elementwise op is one
 * kernel node (a random fill whose range has partial end counters two), a
 * transfer or copy one memcpy node; the capture adds no event
 * or memset node of its own (graph_bench prints the line and checks it).
 *
 * Refused (the core replays op by op): GEMM (cuBLAS would need its workspace
 * set for capture), and transfers from or to pageable host memory (a captured
 * copy must not stage through the queue's pinned ring). */
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

struct accel_be_graph {
    uint32_t device;
    accel_be_queue *pq; /* private capture queue */
    accel_graph_node_desc *nodes;
    size_t n;
    cudaGraphExec_t exec;
};

static int host_is_pinned(const void *p)
{
    struct cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return a.type == cudaMemoryTypeHost;
}

static int32_t refuse(accel_cuda_ctx *ctx, size_t i, const char *why)
{
    ctx->host->set_error(ctx->host->host_ctx,
                         "cuda graph: node %zu: %s; the core replays the graph", i, why);
    return ACCEL_ERROR_UNSUPPORTED;
}

static int32_t check_nodes(accel_cuda_ctx *ctx, uint32_t device, const accel_graph_node_desc *nodes,
                           size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const accel_graph_node_desc *d = &nodes[i];
        switch (d->kind) {
        case 1: /* op */
            if (d->op.op == ACCEL_OP_GEMM)
                return refuse(ctx, i, "GEMM is not captured");
            if (accel_cuda__op_supported(ctx, device, &d->op) != ACCEL_SUCCESS)
                return refuse(ctx, i, "op not supported");
            break;
        case 2: /* write */
            if (!host_is_pinned(d->host_src))
                return refuse(ctx, i, "write from pageable host memory");
            break;
        case 3: /* read */
            if (!host_is_pinned(d->host_dst))
                return refuse(ctx, i, "read into pageable host memory");
            break;
        case 4: /* copy */
            break;
        default:
            return refuse(ctx, i, "unknown node kind");
        }
    }
    return ACCEL_SUCCESS;
}

/* Capture nodes on pq's stream into *out (a new cudaGraph). */
static int32_t capture(accel_cuda_ctx *ctx, accel_be_queue *pq, const accel_graph_node_desc *nodes,
                       size_t n, cudaGraph_t *out)
{
    cudaError_t err = cudaStreamBeginCapture(pq->stream, cudaStreamCaptureModeThreadLocal);
    if (err != cudaSuccess)
        return accel_cuda__fail(ctx, err, "cudaStreamBeginCapture");
    int32_t st = ACCEL_SUCCESS;
    for (size_t i = 0; i < n && st == ACCEL_SUCCESS; i++) {
        const accel_graph_node_desc *d = &nodes[i];
        switch (d->kind) {
        case 1:
            st = accel_cuda__op_execute(ctx, pq, &d->op);
            break;
        case 2:
            err = cudaMemcpyAsync((char *)accel_cuda__buffer_ptr(d->dst) + d->dst_offset,
                                  d->host_src, d->bytes, cudaMemcpyHostToDevice, pq->stream);
            if (err != cudaSuccess)
                st = accel_cuda__fail(ctx, err, "cudaMemcpyAsync (captured write)");
            break;
        case 3:
            err = cudaMemcpyAsync(d->host_dst,
                                  (const char *)accel_cuda__buffer_ptr(d->src) + d->src_offset,
                                  d->bytes, cudaMemcpyDeviceToHost, pq->stream);
            if (err != cudaSuccess)
                st = accel_cuda__fail(ctx, err, "cudaMemcpyAsync (captured read)");
            break;
        case 4:
            err = cudaMemcpyAsync((char *)accel_cuda__buffer_ptr(d->dst) + d->dst_offset,
                                  (const char *)accel_cuda__buffer_ptr(d->src) + d->src_offset,
                                  d->bytes, cudaMemcpyDeviceToDevice, pq->stream);
            if (err != cudaSuccess)
                st = accel_cuda__fail(ctx, err, "cudaMemcpyAsync (captured copy)");
            break;
        default:
            st = refuse(ctx, i, "unknown node kind");
        }
    }
    cudaGraph_t graph = NULL;
    err = cudaStreamEndCapture(pq->stream, &graph);
    if (st == ACCEL_SUCCESS && err != cudaSuccess)
        st = accel_cuda__fail(ctx, err, "cudaStreamEndCapture");
    if (st != ACCEL_SUCCESS) {
        if (graph)
            (void)cudaGraphDestroy(graph);
        (void)cudaGetLastError();
        return st;
    }
    *out = graph;
    return ACCEL_SUCCESS;
}

/* Log what the capture of n recorded nodes made of graph (see the top). */
static void log_nodes(accel_cuda_ctx *ctx, cudaGraph_t graph, size_t n)
{
    size_t total = 0;
    if (cudaGraphGetNodes(graph, NULL, &total) != cudaSuccess) {
        (void)cudaGetLastError();
        return;
    }
    cudaGraphNode_t *nodes = total ? malloc(total * sizeof *nodes) : NULL;
    size_t kernel = 0, memcpy_ = 0, memset_ = 0, event = 0, other = 0;
    if (total && (!nodes || cudaGraphGetNodes(graph, nodes, &total) != cudaSuccess)) {
        (void)cudaGetLastError();
        free(nodes);
        return;
    }
    for (size_t i = 0; i < total; i++) {
        enum cudaGraphNodeType t;
        if (cudaGraphNodeGetType(nodes[i], &t) != cudaSuccess) {
            (void)cudaGetLastError();
            other++;
            continue;
        }
        if (t == cudaGraphNodeTypeKernel)
            kernel++;
        else if (t == cudaGraphNodeTypeMemcpy)
            memcpy_++;
        else if (t == cudaGraphNodeTypeMemset)
            memset_++;
        else if (t == cudaGraphNodeTypeEventRecord || t == cudaGraphNodeTypeWaitEvent)
            event++;
        else
            other++;
    }
    free(nodes);
    ctx->host->log(ctx->host->host_ctx, ACCEL_LOG_INFO,
                   "graph: %zu recorded nodes captured as %zu CUDA graph nodes (%zu kernel, "
                   "%zu memcpy, %zu memset, %zu event, %zu other)",
                   n, total, kernel, memcpy_, memset_, event, other);
}

void accel_cuda__graph_destroy(void *vctx, accel_be_graph *g)
{
    accel_cuda_ctx *ctx = vctx;
    if (!g)
        return;
    if (accel_cuda__set_device(ctx, g->device) == ACCEL_SUCCESS && g->exec)
        (void)cudaGraphExecDestroy(g->exec);
    if (g->pq)
        accel_cuda__queue_destroy(ctx, g->pq);
    free(g->nodes);
    free(g);
}

int32_t accel_cuda__graph_instantiate(void *vctx, uint32_t device,
                                      const accel_graph_node_desc *nodes, size_t n,
                                      accel_be_graph **out)
{
    accel_cuda_ctx *ctx = vctx;
    *out = NULL;
    int32_t st = accel_cuda__set_device(ctx, device);
    if (st == ACCEL_SUCCESS)
        st = check_nodes(ctx, device, nodes, n);
    if (st != ACCEL_SUCCESS)
        return st;
    accel_be_graph *g = calloc(1, sizeof *g);
    if (g)
        g->nodes = malloc(n * sizeof *g->nodes);
    if (!g || !g->nodes) {
        free(g);
        ctx->host->set_error(ctx->host->host_ctx, "cuda graph: out of host memory for %zu nodes",
                             n);
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    memcpy(g->nodes, nodes, n * sizeof *nodes);
    g->n = n;
    g->device = device;
    st = accel_cuda__queue_create(ctx, device, &g->pq);
    cudaGraph_t graph = NULL;
    if (st == ACCEL_SUCCESS)
        st = capture(ctx, g->pq, g->nodes, n, &graph);
    if (st == ACCEL_SUCCESS) {
        log_nodes(ctx, graph, n);
        cudaError_t err = cudaGraphInstantiate(&g->exec, graph, 0);
        (void)cudaGraphDestroy(graph);
        if (err != cudaSuccess) {
            g->exec = NULL;
            st = accel_cuda__fail(ctx, err, "cudaGraphInstantiate");
        }
    }
    if (st != ACCEL_SUCCESS) {
        accel_cuda__graph_destroy(ctx, g);
        return st;
    }
    *out = g;
    return ACCEL_SUCCESS;
}

int32_t accel_cuda__graph_launch(void *vctx, accel_be_queue *q, accel_be_graph *g)
{
    accel_cuda_ctx *ctx = vctx;
    int32_t st = accel_cuda__set_device(ctx, q->device);
    if (st != ACCEL_SUCCESS)
        return st;
    cudaError_t err = cudaGraphLaunch(g->exec, q->stream);
    if (err != cudaSuccess)
        return accel_cuda__fail(ctx, err, "cudaGraphLaunch");
    accel_cuda__set_name(q->last_op, "accel_graph_launch");
    return ACCEL_SUCCESS;
}

int32_t accel_cuda__graph_update(void *vctx, accel_be_graph *g, size_t index,
                                 const accel_graph_node_desc *node)
{
    accel_cuda_ctx *ctx = vctx;
    if (index >= g->n || node->kind != g->nodes[index].kind)
        return refuse(ctx, index, "update of another kind");
    int32_t st = accel_cuda__set_device(ctx, g->device);
    if (st == ACCEL_SUCCESS)
        st = check_nodes(ctx, g->device, node, 1);
    if (st != ACCEL_SUCCESS)
        return st;
    accel_graph_node_desc old = g->nodes[index];
    g->nodes[index] = *node;
    cudaGraph_t graph = NULL;
    st = capture(ctx, g->pq, g->nodes, g->n, &graph);
    if (st == ACCEL_SUCCESS) {
        cudaGraphExecUpdateResultInfo info;
        cudaError_t err = cudaGraphExecUpdate(g->exec, graph, &info);
        (void)cudaGraphDestroy(graph);
        if (err != cudaSuccess) {
            (void)cudaGetLastError();
            st = refuse(ctx, index, "cudaGraphExecUpdate refused the change");
        }
    }
    if (st != ACCEL_SUCCESS)
        g->nodes[index] = old;
    return st;
}
