/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* backend.c — the CPU backend's plugin table and entry symbol: init (the
 * `threads` key of [backend.cpu]), the one device cpu:0 and its properties,
 * buffers and pinned host memory (64-byte-aligned plain memory). */
#include <errno.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ceilings.h"
#include "cpu.h"

ACCEL_PLUGIN_EXPORT const accel_backend *accel_backend_entry(void);

static const char *config_value(const accel_host_services *host, const char *key)
{
    if (host->struct_size < offsetof(accel_host_services, reserved) || !host->config_get)
        return NULL;
    return host->config_get(host->host_ctx, key);
}

/* "model name" of the first processor in /proc/cpuinfo, or "CPU". */
static void read_cpu_model(char *out, size_t size)
{
    snprintf(out, size, "CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0)
            continue;
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        char *s = colon + 1;
        while (*s == ' ' || *s == '\t')
            ++s;
        size_t len = strcspn(s, "\n");
        while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
            --len;
        if (len > 0)
            snprintf(out, size, "%.*s", (int)len, s);
        break;
    }
    fclose(f);
}

/* MemTotal and MemAvailable of /proc/meminfo in bytes; sysconf as fallback. */
static void read_memory(uint64_t *total, uint64_t *avail)
{
    *total = 0;
    *avail = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
        char line[256];
        unsigned long long kb;
        while (fgets(line, sizeof line, f)) {
            if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
                *total = (uint64_t)kb * 1024u;
            else if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
                *avail = (uint64_t)kb * 1024u;
        }
        fclose(f);
    }
    if (*total == 0) {
        long pages = sysconf(_SC_PHYS_PAGES), avail_pages = sysconf(_SC_AVPHYS_PAGES);
        long page = sysconf(_SC_PAGESIZE);
        if (pages > 0 && page > 0)
            *total = (uint64_t)pages * (uint64_t)page;
        if (avail_pages > 0 && page > 0)
            *avail = (uint64_t)avail_pages * (uint64_t)page;
    }
}

static int32_t cpu_init(const accel_host_services *host, void **out_ctx)
{
    accel_cpu_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) {
        host->set_error(host->host_ctx, "cpu: out of host memory at init");
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    ctx->host = host;
    pthread_mutex_init(&ctx->map_lock, NULL);
    pthread_mutex_init(&ctx->ident_lock, NULL);

    int procs = omp_get_num_procs();
    /* 0 or absent: OpenMP's default team, i.e. $OMP_NUM_THREADS or all cores. */
    int threads = omp_get_max_threads();
    if (threads < 1)
        threads = 1;
    int configured = 0;
    const char *v = config_value(host, "threads");
    if (v) {
        char *end = NULL;
        errno = 0;
        long n = strtol(v, &end, 10);
        while (end && (*end == ' ' || *end == '\t'))
            ++end;
        if (end == v || !end || *end != '\0' || errno != 0 || n < 0 || n > 4096) {
            host->set_error(host->host_ctx,
                            "cpu: threads = '%s' is not an integer in 0..4096 (0: all cores)", v);
            free(ctx);
            return ACCEL_ERROR_CONFIG;
        }
        if (n > 0) {
            threads = (int)n;
            configured = 1;
        }
    }
    ctx->threads = threads;

    /* GEMM calls the OpenBLAS bound here (blas.c), whatever other BLAS the
     * host program linked. */
    const accel_cpu_blas *blas = accel_cpu__blas();
    if (blas->ok) {
        /* Process-wide in OpenBLAS: set only when configured, so that by
         * default $OPENBLAS_NUM_THREADS (or OpenBLAS's own choice) applies. */
        if (configured && blas->set_num_threads)
            blas->set_num_threads(threads);
        snprintf(ctx->blas_version, sizeof ctx->blas_version, "%s", blas->version);
        /* The file's folder tells Debian's variants apart (openblas-pthread,
         * openblas-openmp, openblas64-...). */
        const char *slash = strrchr(blas->path, '/');
        const char *dir = slash ? slash : blas->path;
        while (dir > blas->path && dir[-1] != '/')
            --dir;
        snprintf(ctx->blas_variant, sizeof ctx->blas_variant, "%.*s",
                 slash ? (int)(slash - dir) : (int)strlen(dir), dir);
        host->log(host->host_ctx, ACCEL_LOG_INFO,
                  "GEMM through %s from %s (bound by the plugin itself)", blas->config, blas->path);
    } else {
        snprintf(ctx->blas_version, sizeof ctx->blas_version, "no BLAS");
        host->log(host->host_ctx, ACCEL_LOG_WARN, "GEMM is unavailable: %s", blas->error);
    }

    char model[96];
    read_cpu_model(model, sizeof model);
    snprintf(ctx->device_name, sizeof ctx->device_name, "%s (%d thread%s)", model, threads,
             threads == 1 ? "" : "s");
    host->log(host->host_ctx, ACCEL_LOG_DEBUG, "cpu:0 is %s; %s; %d of %d processors",
              ctx->device_name, ctx->blas_version, threads, procs);
    *out_ctx = ctx;
    return ACCEL_SUCCESS;
}

static void cpu_shutdown(void *vctx)
{
    accel_cpu_ctx *ctx = vctx;
    accel_cpu__maps_drop(ctx);
    pthread_mutex_destroy(&ctx->ident_lock);
    free(ctx->ident_inputs);
    free(ctx);
}

static uint32_t cpu_device_count(void *ctx)
{
    (void)ctx;
    return 1;
}

static int32_t cpu_device_properties(void *vctx, uint32_t device, accel_device_properties *out)
{
    accel_cpu_ctx *ctx = vctx;
    (void)device;
    accel_device_properties p;
    memset(&p, 0, sizeof p);
    p.struct_size = sizeof p;
    p.kind = ACCEL_DEVICE_CPU;
    snprintf(p.name, sizeof p.name, "%s", ctx->device_name);
    snprintf(p.backend, sizeof p.backend, "cpu");
    p.index = 0;
    p.compute_units = (uint32_t)ctx->threads;
    read_memory(&p.memory_total, &p.memory_free);
    p.dtypes = (1u << ACCEL_F32) | (1u << ACCEL_F64) | (1u << ACCEL_F16) | (1u << ACCEL_BF16);
    p.host_accessible = 1;
    /* driver / runtime: the bound BLAS's folder and version
     * ("openblas-pthread" / "OpenBLAS 0.3.21"). */
    snprintf(p.runtime_version, sizeof p.runtime_version, "%s", ctx->blas_version);
    snprintf(p.driver_version, sizeof p.driver_version, "%s", ctx->blas_variant);
    /* An older core passes a shorter struct: fill only what it has. */
    size_t n = out->struct_size && out->struct_size < sizeof p ? out->struct_size : sizeof p;
    uint32_t caller_size = out->struct_size ? out->struct_size : (uint32_t)sizeof p;
    memcpy(out, &p, n);
    out->struct_size = caller_size < sizeof p ? caller_size : (uint32_t)sizeof p;
    return ACCEL_SUCCESS;
}

static void *aligned_alloc64(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, ACCEL_CPU_ALIGN, bytes ? bytes : 1) != 0)
        return NULL;
    return p;
}

static int32_t cpu_buffer_alloc(void *vctx, uint32_t device, size_t bytes, accel_be_buffer **out)
{
    accel_cpu_ctx *ctx = vctx;
    (void)device;
    accel_be_buffer *buf = malloc(sizeof *buf);
    void *map = NULL;
    size_t map_bytes = 0;
    void *data = NULL;
    if (buf && bytes >= ACCEL_CPU_GUARDED_BYTES)
        data = accel_cpu__map_alloc(ctx, bytes, &map, &map_bytes);
    if (buf && !data)
        data = aligned_alloc64(bytes);
    if (!buf || !data) {
        free(buf);
        free(data);
        ctx->host->set_error(ctx->host->host_ctx, "cpu: cannot allocate a buffer of %zu bytes",
                             bytes);
        return ACCEL_ERROR_OUT_OF_DEVICE_MEMORY;
    }
    buf->data = data;
    buf->bytes = bytes;
    buf->wrapped = 0;
    buf->map = map;
    buf->map_bytes = map_bytes;
    *out = buf;
    return ACCEL_SUCCESS;
}

static int32_t cpu_buffer_wrap(void *vctx, uint32_t device, void *ptr, size_t bytes,
                               accel_be_buffer **out)
{
    accel_cpu_ctx *ctx = vctx;
    (void)device;
    accel_be_buffer *buf = malloc(sizeof *buf);
    if (!buf) {
        ctx->host->set_error(ctx->host->host_ctx, "cpu: out of host memory for a buffer record");
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    /* A 0-byte buffer still needs a valid address for the ops' pointers. */
    static char empty_wrapped[64];
    buf->data = ptr ? ptr : empty_wrapped;
    buf->bytes = bytes;
    buf->wrapped = 1;
    buf->map = NULL;
    buf->map_bytes = 0;
    *out = buf;
    return ACCEL_SUCCESS;
}

static void cpu_buffer_free(void *ctx, accel_be_buffer *buf)
{
    if (!buf)
        return;
    if (buf->map)
        accel_cpu__map_free(ctx, buf->map, buf->map_bytes, buf->bytes);
    else if (!buf->wrapped)
        free(buf->data);
    free(buf);
}

static void *cpu_buffer_host_ptr(void *ctx, accel_be_buffer *buf)
{
    (void)ctx;
    return buf->data;
}

static int32_t cpu_host_alloc(void *vctx, size_t bytes, void **out)
{
    accel_cpu_ctx *ctx = vctx;
    void *p = aligned_alloc64(bytes);
    if (!p) {
        ctx->host->set_error(ctx->host->host_ctx, "cpu: cannot allocate %zu bytes of host memory",
                             bytes);
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    *out = p;
    return ACCEL_SUCCESS;
}

static void cpu_host_free(void *ctx, void *ptr)
{
    (void)ctx;
    free(ptr);
}

static const accel_backend cpu_backend = {
    .abi_version = ACCEL_BACKEND_ABI_VERSION,
    .struct_size = sizeof(accel_backend),
    .name = "cpu",
    .description =
        "CPU: OpenBLAS GEMM, OpenMP elementwise ops and reductions, a worker thread per queue",
    .init = cpu_init,
    .shutdown = cpu_shutdown,
    .device_count = cpu_device_count,
    .device_properties = cpu_device_properties,
    .buffer_alloc = cpu_buffer_alloc,
    .buffer_free = cpu_buffer_free,
    .buffer_host_ptr = cpu_buffer_host_ptr,
    .host_alloc = cpu_host_alloc,
    .host_free = cpu_host_free,
    .queue_create = accel_cpu__queue_create,
    .queue_destroy = accel_cpu__queue_destroy,
    .queue_finish = accel_cpu__queue_finish,
    .queue_write = accel_cpu__queue_write,
    .queue_read = accel_cpu__queue_read,
    .queue_copy = accel_cpu__queue_copy,
    .queue_host_fn = accel_cpu__queue_host_fn,
    .event_create = accel_cpu__event_create,
    .event_destroy = accel_cpu__event_destroy,
    .event_record = accel_cpu__event_record,
    .queue_wait_event = accel_cpu__queue_wait_event,
    .event_synchronize = accel_cpu__event_synchronize,
    .event_query = accel_cpu__event_query,
    .event_elapsed_ms = accel_cpu__event_elapsed_ms,
    .op_supported = accel_cpu__op_supported,
    .op_execute = accel_cpu__op_execute,
    .measure_ceilings = accel_cpu__measure_ceilings,
    .buffer_wrap = cpu_buffer_wrap,
    .program_identity = accel_cpu__program_identity,
    .program_build = accel_cpu__program_build,
    .program_release = accel_cpu__program_release,
    .graph_instantiate = accel_cpu__graph_instantiate,
    .graph_launch = accel_cpu__graph_launch,
    .graph_update = accel_cpu__graph_update,
    .graph_destroy = accel_cpu__graph_destroy,
};

ACCEL_PLUGIN_EXPORT const accel_backend *accel_backend_entry(void)
{
    return &cpu_backend;
}
