/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* plugin.c — the CUDA backend's entry point: the accel_backend table, probing
 * the driver and devices at init (a machine without driver or GPU gets
 * ACCEL_ERROR_UNAVAILABLE with CUDA's reason, never an abort), configuration
 * keys, device properties and shutdown. */
#define _GNU_SOURCE /* dlinfo, RTLD_NOLOAD */
#include <ctype.h>
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ceilings.h"
#include "cuda_internal.h"

/* ---------------------------------------------------------------- config */

static void format_version(char out[32], int v)
{
    snprintf(out, 32, "%d.%d", v / 1000, (v % 1000) / 10);
}

static int str_ieq(const char *a, const char *b)
{
    for (; *a && *b; ++a, ++b)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

/* 1/0 for a boolean word, -1 for anything else. */
static int parse_bool(const char *v)
{
    static const char *const yes[] = {"true", "yes", "on", "1"};
    static const char *const no[] = {"false", "no", "off", "0"};
    for (size_t i = 0; i < 4; ++i) {
        if (str_ieq(v, yes[i]))
            return 1;
        if (str_ieq(v, no[i]))
            return 0;
    }
    return -1;
}

/* tf32 = true | false | a list of device indices ("0, 2"). Sets dev->tf32. */
static int32_t parse_tf32(accel_cuda_ctx *ctx, const char *v)
{
    int b = parse_bool(v);
    if (b >= 0) {
        for (uint32_t i = 0; i < ctx->device_count; ++i)
            ctx->devices[i].tf32 = b;
        return ACCEL_SUCCESS;
    }
    const char *p = v;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            ++p;
        if (!*p)
            break;
        char *end = NULL;
        unsigned long idx = strtoul(p, &end, 10);
        if (end == p || !isdigit((unsigned char)*p)) {
            ctx->host->set_error(ctx->host->host_ctx,
                                 "[backend.cuda] tf32 = '%s': expected true, false or a list of "
                                 "device indices",
                                 v);
            return ACCEL_ERROR_CONFIG;
        }
        if (idx < ctx->device_count)
            ctx->devices[idx].tf32 = 1;
        else
            ctx->host->log(ctx->host->host_ctx, ACCEL_LOG_WARN,
                           "tf32: there is no device cuda:%lu; ignored", idx);
        p = end;
    }
    return ACCEL_SUCCESS;
}

/* ----------------------------------------------------------------- init */

static void destroy_ctx(accel_cuda_ctx *ctx)
{
    if (!ctx)
        return;
    accel_cuda__host_copy_shutdown(ctx);
    pthread_mutex_destroy(&ctx->copy_pool_lock);
    free(ctx->devices);
    free(ctx);
}

/* The file the driver library (libcuda) was loaded from, when it is loaded:
 * the CUDA runtime dlopens it by name, so the library path decides which
 * one (the toolkit's stub when its folder comes first). "" when none. */
static void loaded_libcuda(char *out, size_t cap)
{
    out[0] = '\0';
    static const char *const names[] = {"libcuda.so.1", "libcuda.so"};
    for (size_t i = 0; i < sizeof names / sizeof *names && !out[0]; ++i) {
        void *h = dlopen(names[i], RTLD_LAZY | RTLD_NOLOAD);
        if (!h)
            continue;
        struct link_map *lm = NULL;
        if (dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name && lm->l_name[0]) {
            char real[PATH_MAX];
            const char *file = realpath(lm->l_name, real) ? real : lm->l_name;
            snprintf(out, cap, "%s", file);
        }
        dlclose(h);
    }
}

/* Explain why CUDA is unusable here, from cudaGetDeviceCount's error. */
static int32_t unavailable(const accel_host_services *host, cudaError_t err)
{
    int driver = 0, runtime = 0;
    (void)cudaDriverGetVersion(&driver);
    (void)cudaRuntimeGetVersion(&runtime);
    const char *hint;
    switch (err) {
    case cudaErrorInsufficientDriver:
        hint = driver == 0 ? "no NVIDIA driver found (libcuda.so.1 missing or not loadable)"
                           : "the NVIDIA driver is older than this CUDA runtime";
        break;
    case cudaErrorNoDevice:
        hint = "no CUDA-capable GPU is visible (check CUDA_VISIBLE_DEVICES)";
        break;
    case cudaErrorStubLibrary:
        hint = "libcuda.so is the toolkit's stub, not a real driver";
        break;
    case cudaErrorSystemDriverMismatch:
    case cudaErrorCompatNotSupportedOnDevice:
        hint = "the driver's kernel module and user library do not match";
        break;
    default:
        hint = "CUDA could not be initialized";
        break;
    }
    char dv[32] = "none";
    char rv[32];
    if (driver)
        format_version(dv, driver);
    format_version(rv, runtime);
    char lib[PATH_MAX];
    loaded_libcuda(lib, sizeof lib);
    char where[PATH_MAX + 96] = "";
    if (lib[0] && err == cudaErrorStubLibrary)
        snprintf(where, sizeof where,
                 "; libcuda was loaded from %s: put the driver's libcuda.so.1 first on the "
                 "library path (drop the toolkit's stubs folder from LD_LIBRARY_PATH)",
                 lib);
    else if (lib[0])
        snprintf(where, sizeof where, "; libcuda loaded from %s", lib);
    host->set_error(host->host_ctx, "%s: cudaGetDeviceCount: %s: %s (driver %s, runtime %s)%s",
                    hint, cudaGetErrorName(err), cudaGetErrorString(err), dv, rv, where);
    (void)cudaGetLastError();
    return ACCEL_ERROR_UNAVAILABLE;
}

/* Let every device pair that can reach each other's memory do so, so that
 * cudaMemcpyPeerAsync goes over NVLink/PCIe directly. Failure only costs speed. */
static void enable_peer_access(accel_cuda_ctx *ctx)
{
    for (uint32_t i = 0; i < ctx->device_count; ++i) {
        for (uint32_t j = 0; j < ctx->device_count; ++j) {
            int can = 0;
            if (i == j ||
                cudaDeviceCanAccessPeer(&can, ctx->devices[i].ordinal, ctx->devices[j].ordinal) !=
                    cudaSuccess ||
                !can) {
                (void)cudaGetLastError();
                continue;
            }
            if (cudaSetDevice(ctx->devices[i].ordinal) != cudaSuccess) {
                (void)cudaGetLastError();
                continue;
            }
            cudaError_t err = cudaDeviceEnablePeerAccess(ctx->devices[j].ordinal, 0);
            if (err != cudaSuccess && err != cudaErrorPeerAccessAlreadyEnabled)
                ctx->host->log(ctx->host->host_ctx, ACCEL_LOG_INFO,
                               "peer access cuda:%u -> cuda:%u: %s", i, j, cudaGetErrorString(err));
            (void)cudaGetLastError();
        }
    }
}

/* Device ordinal ord added to ctx when this build's kernels can run on it;
 * a GPU older than the compiled architectures is skipped with a warning
 * (the error returned), not a failure later. */
static cudaError_t add_device(accel_cuda_ctx *ctx, int ord, int caching)
{
    const accel_host_services *host = ctx->host;
    int major = 0, minor = 0, sms = 0;
    struct cudaDeviceProp prop;
    cudaError_t err;
    if ((err = cudaSetDevice(ord)) != cudaSuccess ||
        (err = cudaGetDeviceProperties(&prop, ord)) != cudaSuccess ||
        (err = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, ord)) !=
            cudaSuccess ||
        (err = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, ord)) !=
            cudaSuccess ||
        (err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, ord)) != cudaSuccess ||
        (err = accel_cuda__probe_kernels()) != cudaSuccess) {
        host->log(host->host_ctx, ACCEL_LOG_WARN, "CUDA device %d (sm_%d%d) is not usable: %s: %s",
                  ord, major, minor, cudaGetErrorName(err), cudaGetErrorString(err));
        (void)cudaGetLastError();
        return err;
    }
    cuda_device *d = &ctx->devices[ctx->device_count++];
    d->ordinal = ord;
    d->sm_count = sms > 0 ? (uint32_t)sms : 1u;
    /* 8 resident blocks of 256 threads per SM fill an SM (2048 threads). */
    d->max_blocks = d->sm_count * 8u;
    d->compute_capability = (uint32_t)(major * 10 + minor);
    const char *nul = memchr(prop.name, '\0', sizeof prop.name);
    size_t len = nul ? (size_t)(nul - prop.name) : sizeof prop.name;
    if (len >= sizeof d->name)
        len = sizeof d->name - 1;
    memcpy(d->name, prop.name, len);
    d->name[len] = '\0';
    accel_cuda__alloc_init(&d->alloc, caching);
    /* The ops' stream-ordered scratch (cudaMallocAsync: sort, linalg, FFT)
     * comes from the device's default pool, which gives its memory back to
     * the driver at every synchronization unless told to keep it: each
     * sort of 2^28 keys then mapped its ~4 GiB afresh. Kept as the caching
     * allocator keeps blocks; an out-of-memory cudaMalloc trims it
     * (accel_cuda__alloc_flush). */
    cudaMemPool_t pool;
    uint64_t keep = UINT64_MAX;
    if (caching && cudaDeviceGetDefaultMemPool(&pool, ord) == cudaSuccess)
        (void)cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
    (void)cudaGetLastError();
    return cudaSuccess;
}

static int32_t cuda_init(const accel_host_services *host, void **out_ctx)
{
    *out_ctx = NULL;
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess)
        return unavailable(host, err);
    if (count <= 0) {
        host->set_error(host->host_ctx,
                        "no CUDA-capable GPU is visible (check CUDA_VISIBLE_DEVICES)");
        return ACCEL_ERROR_UNAVAILABLE;
    }

    int caching = 1;
    const char *v = host->config_get(host->host_ctx, "caching_allocator");
    if (v && (caching = parse_bool(v)) < 0) {
        host->set_error(host->host_ctx,
                        "[backend.cuda] caching_allocator = '%s': expected true or false", v);
        return ACCEL_ERROR_CONFIG;
    }

    accel_cuda_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx || !(ctx->devices = calloc((size_t)count, sizeof *ctx->devices))) {
        free(ctx);
        host->set_error(host->host_ctx, "out of host memory for %d CUDA devices", count);
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    ctx->host = host;
    pthread_mutex_init(&ctx->copy_pool_lock, NULL);
    int driver = 0, runtime = 0;
    (void)cudaDriverGetVersion(&driver);
    (void)cudaRuntimeGetVersion(&runtime);
    format_version(ctx->driver_version, driver);
    format_version(ctx->runtime_version, runtime);

    cudaError_t last_err = cudaSuccess;
    for (int ord = 0; ord < count; ++ord) {
        cudaError_t e = add_device(ctx, ord, caching);
        if (e != cudaSuccess)
            last_err = e;
    }
    if (ctx->device_count == 0) {
        host->set_error(host->host_ctx, "none of the %d CUDA devices is usable: %s: %s", count,
                        cudaGetErrorName(last_err), cudaGetErrorString(last_err));
        destroy_ctx(ctx);
        return ACCEL_ERROR_UNAVAILABLE;
    }

    v = host->config_get(host->host_ctx, "tf32");
    int32_t st = v ? parse_tf32(ctx, v) : ACCEL_SUCCESS;
    if (st == ACCEL_SUCCESS)
        st = accel_cuda__host_copy_configure(ctx, host->config_get(host->host_ctx, "copy_threads"));
    if (st != ACCEL_SUCCESS) {
        for (uint32_t i = 0; i < ctx->device_count; ++i)
            accel_cuda__alloc_destroy(ctx, &ctx->devices[i]);
        destroy_ctx(ctx);
        return st;
    }
    enable_peer_access(ctx);
    accel_cuda__cublas_load(&ctx->blas);
    if (!ctx->blas.loaded)
        host->log(host->host_ctx, ACCEL_LOG_WARN, "GEMM is unavailable on CUDA devices: %s",
                  ctx->blas.error);
    for (uint32_t i = 0; i < ctx->device_count; ++i)
        host->log(host->host_ctx, ACCEL_LOG_DEBUG, "cuda:%u = CUDA device %d, %s, sm_%u, %u SMs%s",
                  i, ctx->devices[i].ordinal, ctx->devices[i].name,
                  ctx->devices[i].compute_capability, ctx->devices[i].sm_count,
                  ctx->devices[i].tf32 ? ", TF32 GEMM allowed" : "");
    *out_ctx = ctx;
    return ACCEL_SUCCESS;
}

static void cuda_shutdown(void *vctx)
{
    accel_cuda_ctx *ctx = vctx;
    if (!ctx)
        return;
    for (uint32_t i = 0; i < ctx->device_count; ++i)
        accel_cuda__alloc_destroy(ctx, &ctx->devices[i]);
    destroy_ctx(ctx);
}

/* -------------------------------------------------------------- devices */

static uint32_t cuda_device_count(void *vctx)
{
    return ((accel_cuda_ctx *)vctx)->device_count;
}

static int32_t cuda_device_properties(void *vctx, uint32_t device, accel_device_properties *out)
{
    accel_cuda_ctx *ctx = vctx;
    cuda_device *d = &ctx->devices[device];
    int32_t st = accel_cuda__set_device(ctx, device);
    if (st != ACCEL_SUCCESS)
        return st;
    size_t free_b = 0, total_b = 0;
    cudaError_t err = cudaMemGetInfo(&free_b, &total_b);
    if (err != cudaSuccess)
        return accel_cuda__fail(ctx, err, "cudaMemGetInfo");
    /* Memory cached by the allocator is free for this runtime's buffers. */
    pthread_mutex_lock(&d->alloc.lock);
    uint64_t cached = d->alloc.cached;
    pthread_mutex_unlock(&d->alloc.lock);

    out->kind = ACCEL_DEVICE_GPU;
    snprintf(out->name, sizeof out->name, "%s", d->name);
    snprintf(out->backend, sizeof out->backend, "cuda");
    out->index = device;
    out->compute_units = d->sm_count;
    out->memory_total = total_b;
    out->memory_free = (uint64_t)free_b + cached;
    out->dtypes = (1u << ACCEL_F32) | (1u << ACCEL_F64) | (1u << ACCEL_F16) | (1u << ACCEL_BF16);
    out->host_accessible = 0;
    out->compute_capability = d->compute_capability;
    snprintf(out->driver_version, sizeof out->driver_version, "%s", ctx->driver_version);
    snprintf(out->runtime_version, sizeof out->runtime_version, "%s", ctx->runtime_version);
    return ACCEL_SUCCESS;
}

/* ---------------------------------------------------------------- table */

static const accel_backend cuda_backend = {
    .abi_version = ACCEL_BACKEND_ABI_VERSION,
    .struct_size = sizeof(accel_backend),
    .name = "cuda",
    .description = "NVIDIA GPUs through the CUDA runtime and cuBLAS",
    .init = cuda_init,
    .shutdown = cuda_shutdown,
    .device_count = cuda_device_count,
    .device_properties = cuda_device_properties,
    .buffer_alloc = accel_cuda__buffer_alloc,
    .buffer_free = accel_cuda__buffer_free,
    .buffer_host_ptr = NULL,
    .host_alloc = accel_cuda__host_alloc,
    .host_free = accel_cuda__host_free,
    .queue_create = accel_cuda__queue_create,
    .queue_destroy = accel_cuda__queue_destroy,
    .queue_finish = accel_cuda__queue_finish,
    .queue_write = accel_cuda__queue_write_nvtx,
    .queue_read = accel_cuda__queue_read_nvtx,
    .queue_copy = accel_cuda__queue_copy_nvtx,
    .queue_host_fn = accel_cuda__queue_host_fn,
    .event_create = accel_cuda__event_create,
    .event_destroy = accel_cuda__event_destroy,
    .event_record = accel_cuda__event_record,
    .queue_wait_event = accel_cuda__queue_wait_event,
    .event_synchronize = accel_cuda__event_synchronize,
    .event_query = accel_cuda__event_query,
    .event_elapsed_ms = accel_cuda__event_elapsed_ms,
    .op_supported = accel_cuda__op_supported,
    .op_execute = accel_cuda__op_execute_nvtx,
    .measure_ceilings = accel_cuda__measure_ceilings,
    .buffer_native_ptr = accel_cuda__buffer_native_ptr,
    .queue_native = accel_cuda__queue_native,
    .buffer_wrap = accel_cuda__buffer_wrap,
    .program_identity = accel_cuda__program_identity,
    .program_build = accel_cuda__program_build,
    .program_release = accel_cuda__program_release,
    .host_register = accel_cuda__host_register,
    .host_unregister = accel_cuda__host_unregister,
    .comm_id = accel_cuda__comm_id,
    .comm_create = accel_cuda__comm_create,
    .comm_destroy = accel_cuda__comm_destroy,
    .comm_execute = accel_cuda__comm_execute,
    .graph_instantiate = accel_cuda__graph_instantiate,
    .graph_launch = accel_cuda__graph_launch,
    .graph_update = accel_cuda__graph_update,
    .graph_destroy = accel_cuda__graph_destroy,
};

ACCEL_PLUGIN_EXPORT const accel_backend *accel_backend_entry(void);

ACCEL_PLUGIN_EXPORT const accel_backend *accel_backend_entry(void)
{
    return &cuda_backend;
}
