/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* nccl.c — collectives between processes through NCCL, for the comm_*
 * entries of the plugin table (accel/collective.h, used by libaccel_mpi).
 * NCCL is dlopen'ed (libnccl.so.2) on first use, as cuBLAS is, so it is
 * neither a build nor a load-time dependency: without it comm_id answers
 * ACCEL_ERROR_UNAVAILABLE with dlerror's text and libaccel_mpi stages
 * through host memory and MPI.
 *
 * The few NCCL declarations are written out here rather than taken from
 * nccl.h, which many CUDA installs lack. They follow NCCL's API reference
 * (docs.nvidia.com/deeplearning/nccl/user-guide/docs/api/types.html and
 * .../api/colls.html, .../api/p2p.html, .../api/comms.html): ncclResult_t,
 * ncclDataType_t and ncclRedOp_t are C enums (int-sized) with ncclSuccess 0,
 * ncclFloat32 7, ncclFloat64 8, ncclSum 0, ncclMax 2, ncclMin 3;
 * ncclUniqueId is 128 bytes (NCCL_UNIQUE_ID_BYTES), passed by value. These
 * values have been stable since NCCL 2.0. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "dl_open.h"

#define NCCL_SONAME "libnccl.so.2"

typedef int nccl_result;
typedef struct nccl_comm *nccl_comm_t;
typedef struct nccl_unique_id {
    char internal[128];
} nccl_unique_id;

enum { NCCL_SUCCESS = 0 };
/* ncclDataType_t values (NCCL's nccl.h; stable since NCCL 2.0). */
enum { NCCL_UINT8 = 1, NCCL_INT32 = 2, NCCL_INT64 = 4, NCCL_FLOAT32 = 7, NCCL_FLOAT64 = 8 };
enum { NCCL_SUM = 0, NCCL_MAX = 2, NCCL_MIN = 3 };

typedef struct nccl_api {
    int loaded;
    char error[512];
    int version;
    nccl_result (*get_version)(int *version);
    nccl_result (*get_unique_id)(nccl_unique_id *id);
    nccl_result (*comm_init_rank)(nccl_comm_t *comm, int nranks, nccl_unique_id id, int rank);
    nccl_result (*comm_destroy)(nccl_comm_t comm);
    const char *(*get_error_string)(nccl_result r);
    const char *(*get_last_error)(nccl_comm_t comm); /* NCCL >= 2.13; may be NULL */
    nccl_result (*all_reduce)(const void *send, void *recv, size_t count, int dtype, int op,
                              nccl_comm_t comm, cudaStream_t stream);
    nccl_result (*reduce)(const void *send, void *recv, size_t count, int dtype, int op, int root,
                          nccl_comm_t comm, cudaStream_t stream);
    nccl_result (*broadcast)(const void *send, void *recv, size_t count, int dtype, int root,
                             nccl_comm_t comm, cudaStream_t stream);
    nccl_result (*all_gather)(const void *send, void *recv, size_t send_count, int dtype,
                              nccl_comm_t comm, cudaStream_t stream);
    nccl_result (*reduce_scatter)(const void *send, void *recv, size_t recv_count, int dtype,
                                  int op, nccl_comm_t comm, cudaStream_t stream);
    nccl_result (*send)(const void *send, size_t count, int dtype, int peer, nccl_comm_t comm,
                        cudaStream_t stream);
    nccl_result (*recv)(void *recv, size_t count, int dtype, int peer, nccl_comm_t comm,
                        cudaStream_t stream);
} nccl_api;

static nccl_api api;
static pthread_once_t api_once = PTHREAD_ONCE_INIT;

struct accel_be_comm {
    nccl_comm_t comm;
    uint32_t device;
    int nranks, rank;
};

static int resolve(void *lib, const char *name, void *out)
{
    return accel_cuda__dl_sym(lib, NCCL_SONAME, name, out, api.error, sizeof api.error);
}

static void load_nccl(void)
{
    void *lib = accel_cuda__dl_open(NCCL_SONAME, api.error, sizeof api.error);
    if (!lib)
        return;
    if (resolve(lib, "ncclGetVersion", &api.get_version) &&
        resolve(lib, "ncclGetUniqueId", &api.get_unique_id) &&
        resolve(lib, "ncclCommInitRank", &api.comm_init_rank) &&
        resolve(lib, "ncclCommDestroy", &api.comm_destroy) &&
        resolve(lib, "ncclGetErrorString", &api.get_error_string) &&
        resolve(lib, "ncclAllReduce", &api.all_reduce) && resolve(lib, "ncclReduce", &api.reduce) &&
        resolve(lib, "ncclBroadcast", &api.broadcast) &&
        resolve(lib, "ncclAllGather", &api.all_gather) &&
        resolve(lib, "ncclReduceScatter", &api.reduce_scatter) &&
        resolve(lib, "ncclSend", &api.send) && resolve(lib, "ncclRecv", &api.recv)) {
        (void)resolve(lib, "ncclGetLastError", &api.get_last_error);
        api.error[0] = '\0';
        api.get_version(&api.version);
        api.loaded = 1;
        return; /* stays loaded until the process exits, as cuBLAS */
    }
    dlclose(lib);
}

static int32_t nccl_fail(const accel_cuda_ctx *ctx, nccl_comm_t comm, nccl_result r,
                         const char *name, const char *call)
{
    const char *last = comm && api.get_last_error ? api.get_last_error(comm) : NULL;
    ctx->host->set_error(ctx->host->host_ctx, "%s: %s failed: %s%s%s", name, call,
                         api.get_error_string(r), last && *last ? ": " : "",
                         last && *last ? last : "");
    return ACCEL_ERROR_COMMUNICATION;
}

int32_t accel_cuda__comm_id(void *vctx, uint32_t device, void *out_id, size_t id_bytes)
{
    accel_cuda_ctx *ctx = vctx;
    pthread_once(&api_once, load_nccl);
    if (!api.loaded) {
        ctx->host->set_error(ctx->host->host_ctx, "NCCL unavailable: %s", api.error);
        return ACCEL_ERROR_UNAVAILABLE;
    }
    if (!out_id)
        return ACCEL_SUCCESS;
    if (id_bytes < sizeof(nccl_unique_id)) {
        ctx->host->set_error(ctx->host->host_ctx, "comm_id: %zu bytes given, NCCL's id has %zu",
                             id_bytes, sizeof(nccl_unique_id));
        return ACCEL_ERROR_INVALID_ARGUMENT;
    }
    int32_t st = accel_cuda__set_device(ctx, device);
    if (st != ACCEL_SUCCESS)
        return st;
    nccl_unique_id id;
    nccl_result r = api.get_unique_id(&id);
    if (r != NCCL_SUCCESS)
        return nccl_fail(ctx, NULL, r, "comm_id", "ncclGetUniqueId");
    memcpy(out_id, &id, sizeof id);
    return ACCEL_SUCCESS;
}

int32_t accel_cuda__comm_create(void *vctx, uint32_t device, const void *id, size_t id_bytes,
                                int32_t nranks, int32_t rank, accel_be_comm **out)
{
    accel_cuda_ctx *ctx = vctx;
    int32_t st = accel_cuda__comm_id(ctx, device, NULL, 0);
    if (st != ACCEL_SUCCESS)
        return st;
    if (id_bytes < sizeof(nccl_unique_id)) {
        ctx->host->set_error(ctx->host->host_ctx, "comm_create: id of %zu bytes, NCCL's has %zu",
                             id_bytes, sizeof(nccl_unique_id));
        return ACCEL_ERROR_INVALID_ARGUMENT;
    }
    st = accel_cuda__set_device(ctx, device);
    if (st != ACCEL_SUCCESS)
        return st;
    accel_be_comm *c = calloc(1, sizeof *c);
    if (!c) {
        ctx->host->set_error(ctx->host->host_ctx, "comm_create: out of host memory");
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    nccl_unique_id uid;
    memcpy(&uid, id, sizeof uid);
    nccl_result r = api.comm_init_rank(&c->comm, nranks, uid, rank);
    if (r != NCCL_SUCCESS) {
        free(c);
        return nccl_fail(ctx, NULL, r, "comm_create", "ncclCommInitRank");
    }
    c->device = device;
    c->nranks = nranks;
    c->rank = rank;
    ctx->host->log(ctx->host->host_ctx, ACCEL_LOG_INFO, "NCCL %d: rank %d of %d on device %u",
                   api.version, rank, nranks, device);
    *out = c;
    return ACCEL_SUCCESS;
}

void accel_cuda__comm_destroy(void *vctx, accel_be_comm *c)
{
    accel_cuda_ctx *ctx = vctx;
    if (!c)
        return;
    if (accel_cuda__set_device(ctx, c->device) == ACCEL_SUCCESS) {
        nccl_result r = api.comm_destroy(c->comm);
        if (r != NCCL_SUCCESS)
            ctx->host->log(ctx->host->host_ctx, ACCEL_LOG_WARN, "ncclCommDestroy failed: %s",
                           api.get_error_string(r));
    }
    free(c);
}

static void *range_ptr(const accel_op_operand *o, size_t esize)
{
    if (!o->buffer)
        return NULL;
    char *p = accel_cuda__buffer_ptr(o->buffer);
    return p ? p + o->offset * esize : NULL;
}

/* NCCL's datatype and the element size of an accel dtype; *dt stays -1 for
 * one that libaccel_mpi does not pass (it takes MPI's set). */
static void nccl_dtype(uint32_t dtype, int *dt, size_t *es)
{
    switch ((accel_dtype)dtype) {
    case ACCEL_F32:
        *dt = NCCL_FLOAT32;
        *es = 4;
        return;
    case ACCEL_F64:
        *dt = NCCL_FLOAT64;
        *es = 8;
        return;
    case ACCEL_I32:
        *dt = NCCL_INT32;
        *es = 4;
        return;
    case ACCEL_I64:
        *dt = NCCL_INT64;
        *es = 8;
        return;
    case ACCEL_U8:
        *dt = NCCL_UINT8;
        *es = 1;
        return;
    case ACCEL_F16:
    case ACCEL_BF16:
    case ACCEL_BOOL:
    case ACCEL_I8:
    case ACCEL_I16:
    case ACCEL_U16:
    case ACCEL_U32:
    case ACCEL_U64:
    case ACCEL_C64:
    case ACCEL_C128:
    case ACCEL_DTYPE_INVALID:
    case ACCEL_DTYPE_COUNT_:
        break;
    }
}

int32_t accel_cuda__comm_execute(void *vctx, accel_be_queue *q, accel_be_comm *c,
                                 const accel_be_collective *d)
{
    accel_cuda_ctx *ctx = vctx;
    int dt = -1;
    size_t es = 0;
    nccl_dtype(d->dtype, &dt, &es);
    int op = d->op == ACCEL_OP_SUM ? NCCL_SUM : d->op == ACCEL_OP_REDUCE_MAX ? NCCL_MAX : NCCL_MIN;
    if (dt < 0) {
        ctx->host->set_error(ctx->host->host_ctx,
                             "%s: NCCL takes f32, f64, i32, i64 and u8 here (dtype %u)", d->name,
                             d->dtype);
        return ACCEL_ERROR_DTYPE_MISMATCH;
    }
    int32_t st = accel_cuda__set_device(ctx, q->device);
    if (st != ACCEL_SUCCESS)
        return st;
    const void *sp = range_ptr(&d->send, es);
    void *rp = range_ptr(&d->recv, es);
    nccl_result r = NCCL_SUCCESS;
    const char *call = NULL;
    switch ((accel_collective_kind)d->kind) {
    case ACCEL_COLLECTIVE_ALLREDUCE:
        call = "ncclAllReduce";
        r = api.all_reduce(sp, rp, d->send.count, dt, op, c->comm, q->stream);
        break;
    case ACCEL_COLLECTIVE_REDUCE:
        call = "ncclReduce";
        r = api.reduce(sp, rp, d->send.count, dt, op, d->root, c->comm, q->stream);
        break;
    case ACCEL_COLLECTIVE_BROADCAST:
        call = "ncclBroadcast";
        r = api.broadcast(sp, rp, d->send.count, dt, d->root, c->comm, q->stream);
        break;
    case ACCEL_COLLECTIVE_ALLGATHER:
        call = "ncclAllGather";
        r = api.all_gather(sp, rp, d->send.count, dt, c->comm, q->stream);
        break;
    case ACCEL_COLLECTIVE_REDUCE_SCATTER:
        call = "ncclReduceScatter";
        r = api.reduce_scatter(sp, rp, d->recv.count, dt, op, c->comm, q->stream);
        break;
    case ACCEL_COLLECTIVE_SEND:
        call = "ncclSend";
        r = api.send(sp, d->send.count, dt, d->root, c->comm, q->stream);
        break;
    case ACCEL_COLLECTIVE_RECV:
        call = "ncclRecv";
        r = api.recv(rp, d->recv.count, dt, d->root, c->comm, q->stream);
        break;
    }
    if (!call) {
        ctx->host->set_error(ctx->host->host_ctx, "%s: unknown collective %u", d->name, d->kind);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    if (r != NCCL_SUCCESS)
        return nccl_fail(ctx, c->comm, r, d->name, call);
    accel_cuda__set_name(q->last_op, d->name);
    return ACCEL_SUCCESS;
}
