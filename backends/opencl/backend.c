/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* backend.c — the OpenCL backend's plugin table and entry symbol: init (bind
 * the ICD loader, list the devices of every platform as opencl:0,
 * opencl:1, ... in platform order), device properties, buffers
 * (clCreateBuffer; device memory the host reaches only by queue_read and
 * queue_write). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opencl.h"

ACCEL_PLUGIN_EXPORT const accel_backend *accel_backend_entry(void);

size_t ocl__dtype_size(uint32_t dtype)
{
    switch (dtype) {
    case ACCEL_F32:
        return 4;
    case ACCEL_F64:
        return 8;
    case ACCEL_F16:
    case ACCEL_BF16:
        return 2;
    default:
        return 0;
    }
}

static void device_string(ocl_ctx *c, cl_device_id id, cl_device_info what, char *out, size_t size)
{
    /* Read whole, then cut to size (a short buffer is CL_INVALID_VALUE). */
    char buf[1024];
    buf[0] = '\0';
    if (c->cl.clGetDeviceInfo(id, what, sizeof buf - 1, buf, NULL) != CL_SUCCESS)
        snprintf(buf, sizeof buf, "?");
    buf[sizeof buf - 1] = '\0';
    snprintf(out, size, "%s", buf);
}

static int has_extension(ocl_ctx *c, cl_device_id id, const char *ext)
{
    size_t n = 0;
    if (c->cl.clGetDeviceInfo(id, CL_DEVICE_EXTENSIONS, 0, NULL, &n) != CL_SUCCESS || n == 0)
        return 0;
    char *s = malloc(n + 1);
    if (!s)
        return 0;
    int found = 0;
    if (c->cl.clGetDeviceInfo(id, CL_DEVICE_EXTENSIONS, n, s, NULL) == CL_SUCCESS) {
        s[n] = '\0';
        size_t len = strlen(ext);
        for (const char *p = strstr(s, ext); p && !found; p = strstr(p + 1, ext))
            found = (p == s || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0');
    }
    free(s);
    return found;
}

/* Fills d from the device's info queries. */
static void describe_device(ocl_ctx *c, ocl_device *d)
{
    cl_uint cu = 0;
    cl_ulong mem = 0, alloc = 0;
    size_t wg = 1;
    cl_device_fp_config fp32 = 0, fp64 = 0;
    device_string(c, d->id, CL_DEVICE_NAME, d->name, sizeof d->name);
    device_string(c, d->id, CL_DRIVER_VERSION, d->driver_version, sizeof d->driver_version);
    device_string(c, d->id, CL_DEVICE_VERSION, d->cl_version, sizeof d->cl_version);
    c->cl.clGetDeviceInfo(d->id, CL_DEVICE_TYPE, sizeof d->type, &d->type, NULL);
    c->cl.clGetDeviceInfo(d->id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL);
    c->cl.clGetDeviceInfo(d->id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL);
    c->cl.clGetDeviceInfo(d->id, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof alloc, &alloc, NULL);
    c->cl.clGetDeviceInfo(d->id, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    c->cl.clGetDeviceInfo(d->id, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp32, &fp32, NULL);
    /* CL_DEVICE_DOUBLE_FP_CONFIG is 0 without double precision (OpenCL 1.2). */
    c->cl.clGetDeviceInfo(d->id, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL);
    d->compute_units = cu;
    d->memory_total = mem;
    d->max_alloc = (size_t)alloc;
    d->fp64 = fp64 != 0 || has_extension(c, d->id, "cl_khr_fp64");
    d->fp16 = has_extension(c, d->id, "cl_khr_fp16");
    d->fp32_correct_div_sqrt = (fp32 & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
    d->wg = 1;
    while (d->wg * 2 <= wg && d->wg < 256)
        d->wg *= 2;
}

/* The devices of one platform, appended to c->dev, with a context for
 * them. A platform that fails is logged and skipped. */
static void add_platform(ocl_ctx *c, cl_platform_id p)
{
    char pname[96] = "?";
    c->cl.clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof pname - 1, pname, NULL);
    pname[sizeof pname - 1] = '\0';
    cl_uint n = 0;
    cl_int err = c->cl.clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, NULL, &n);
    if (err != CL_SUCCESS || n == 0) {
        c->host->log(c->host->host_ctx, ACCEL_LOG_WARN, "platform '%s' has no device (%s)", pname,
                     err == CL_SUCCESS ? "0 devices" : ocl__error_name(err));
        return;
    }
    cl_device_id *ids = calloc(n, sizeof *ids);
    ocl_device *grown = realloc(c->dev, (c->count + n) * sizeof *grown);
    if (!ids || !grown || c->context_count == sizeof c->contexts / sizeof c->contexts[0]) {
        free(ids);
        if (grown)
            c->dev = grown;
        return;
    }
    c->dev = grown;
    c->cl.clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, n, ids, NULL);
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)p, 0};
    cl_context ctx = c->cl.clCreateContext(props, n, ids, NULL, NULL, &err);
    if (!ctx) {
        c->host->log(c->host->host_ctx, ACCEL_LOG_WARN,
                     "platform '%s': clCreateContext failed (%s); its %u devices are skipped",
                     pname, ocl__error_name(err), n);
        free(ids);
        return;
    }
    c->contexts[c->context_count++] = ctx;
    for (cl_uint i = 0; i < n; ++i) {
        ocl_device *d = &c->dev[c->count++];
        memset(d, 0, sizeof *d);
        d->platform = p;
        d->id = ids[i];
        d->context = ctx;
        snprintf(d->platform_name, sizeof d->platform_name, "%s", pname);
        describe_device(c, d);
        pthread_mutex_init(&d->build_lock, NULL);
        pthread_mutex_init(&d->launch_lock, NULL);
        c->host->log(c->host->host_ctx, ACCEL_LOG_INFO, "opencl:%u is %s (%s, %s, driver %s%s)",
                     c->count - 1, d->name, pname, d->cl_version, d->driver_version,
                     d->fp64 ? "" : "; no fp64: f64 ops fall back");
    }
    free(ids);
}

static void ocl_shutdown(void *vctx);

static int32_t ocl_init(const accel_host_services *host, void **out_ctx)
{
    ocl_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        host->set_error(host->host_ctx, "opencl: out of host memory at init");
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    c->host = host;
    char why[512];
    if (ocl__api_load(&c->cl, &c->cl_handle, why, sizeof why) != 0) {
        free(c);
        host->set_error(host->host_ctx, "opencl: %s", why);
        return ACCEL_ERROR_UNAVAILABLE;
    }
    cl_uint np = 0;
    cl_int err = c->cl.clGetPlatformIDs(0, NULL, &np);
    if (err != CL_SUCCESS || np == 0) {
        char loader[256];
        ocl__api_where(&c->cl, loader, sizeof loader);
        ocl_shutdown(c);
        host->set_error(host->host_ctx,
                        "opencl: no OpenCL platform (%s): the ICD loader %s found no usable "
                        "vendor library (the .icd files of /etc/OpenCL/vendors or "
                        "$OCL_ICD_VENDORS, and those $OCL_ICD_FILENAMES names; Debian: "
                        "pocl-opencl-icd runs OpenCL on the CPU)",
                        err == CL_SUCCESS ? "0 platforms" : ocl__error_name(err), loader);
        return ACCEL_ERROR_UNAVAILABLE;
    }
    cl_platform_id ps[16];
    if (np > 16)
        np = 16;
    c->cl.clGetPlatformIDs(np, ps, NULL);
    for (cl_uint i = 0; i < np; ++i)
        add_platform(c, ps[i]);
    if (c->count == 0) {
        ocl_shutdown(c);
        host->set_error(host->host_ctx,
                        "opencl: %u OpenCL platform%s but no usable device (raise the log level "
                        "to see each platform's reason)",
                        np, np == 1 ? "" : "s");
        return ACCEL_ERROR_UNAVAILABLE;
    }
    /* fp64 = off: every device as one without double precision (its f64
     * ops fall back), to check that path on a device that has it. */
    const char *fp64 = host->config_get ? host->config_get(host->host_ctx, "fp64") : NULL;
    if (fp64 && strcmp(fp64, "off") != 0 && strcmp(fp64, "auto") != 0) {
        ocl_shutdown(c);
        host->set_error(host->host_ctx, "opencl: fp64 = '%s' is neither auto nor off", fp64);
        return ACCEL_ERROR_CONFIG;
    }
    for (uint32_t i = 0; fp64 && strcmp(fp64, "off") == 0 && i < c->count; ++i)
        c->dev[i].fp64 = 0;
    ocl__blas_load(&c->blas, &c->blas_handle);
    if (c->blas.error[0])
        host->log(host->host_ctx, ACCEL_LOG_WARN, "GEMM falls back: %s", c->blas.error);
    *out_ctx = c;
    return ACCEL_SUCCESS;
}

static void ocl_shutdown(void *vctx)
{
    ocl_ctx *c = vctx;
    if (!c)
        return;
    for (uint32_t i = 0; i < c->count; ++i) {
        ocl_device *d = &c->dev[i];
        ocl__program_release(c, d);
        if (d->aux)
            c->cl.clReleaseCommandQueue(d->aux);
        pthread_mutex_destroy(&d->build_lock);
        pthread_mutex_destroy(&d->launch_lock);
    }
    for (uint32_t i = 0; i < c->context_count; ++i)
        c->cl.clReleaseContext(c->contexts[i]);
    free(c->dev);
    /* CLBlast keeps its program cache in static objects of the library:
     * dlclose would run their destructors against released contexts. It
     * stays loaded, and so does the ICD loader it links. */
    free(c);
}

static uint32_t ocl_device_count(void *vctx)
{
    return ((ocl_ctx *)vctx)->count;
}

static int32_t ocl_device_properties(void *vctx, uint32_t device, accel_device_properties *out)
{
    ocl_ctx *c = vctx;
    const ocl_device *d = &c->dev[device];
    accel_device_properties p;
    memset(&p, 0, sizeof p);
    p.struct_size = sizeof p;
    p.kind = (d->type & CL_DEVICE_TYPE_GPU)   ? ACCEL_DEVICE_GPU
             : (d->type & CL_DEVICE_TYPE_CPU) ? ACCEL_DEVICE_CPU
                                              : ACCEL_DEVICE_OTHER;
    snprintf(p.name, sizeof p.name, "%.80s (%.40s)", d->name, d->platform_name);
    snprintf(p.backend, sizeof p.backend, "opencl");
    p.index = device;
    p.compute_units = d->compute_units;
    p.memory_total = d->memory_total;
    p.memory_free = d->memory_total; /* OpenCL has no portable free-memory query */
    p.dtypes = (1u << ACCEL_F32) | (1u << ACCEL_F16) | (1u << ACCEL_BF16);
    if (d->fp64)
        p.dtypes |= 1u << ACCEL_F64;
    snprintf(p.driver_version, sizeof p.driver_version, "%s", d->driver_version);
    snprintf(p.runtime_version, sizeof p.runtime_version, "%s", d->cl_version);
    size_t n = out->struct_size && out->struct_size < sizeof p ? out->struct_size : sizeof p;
    uint32_t caller_size = out->struct_size ? out->struct_size : (uint32_t)sizeof p;
    memcpy(out, &p, n);
    out->struct_size = caller_size < sizeof p ? caller_size : (uint32_t)sizeof p;
    return ACCEL_SUCCESS;
}

static int32_t ocl_buffer_alloc(void *vctx, uint32_t device, size_t bytes, accel_be_buffer **out)
{
    ocl_ctx *c = vctx;
    ocl_device *d = &c->dev[device];
    if (bytes > d->max_alloc)
        return ocl__fail(c, ACCEL_ERROR_OUT_OF_DEVICE_MEMORY,
                         "opencl: a buffer of %zu bytes is larger than %s's largest allocation "
                         "(CL_DEVICE_MAX_MEM_ALLOC_SIZE %zu)",
                         bytes, d->name, d->max_alloc);
    accel_be_buffer *b = calloc(1, sizeof *b);
    if (!b)
        return ocl__fail(c, ACCEL_ERROR_OUT_OF_HOST_MEMORY, "opencl: out of host memory");
    cl_int err = CL_SUCCESS;
    /* OpenCL refuses 0-byte buffers; a 0-byte accel buffer keeps one byte. */
    b->mem = c->cl.clCreateBuffer(d->context, CL_MEM_READ_WRITE, bytes ? bytes : 1, NULL, &err);
    if (!b->mem) {
        free(b);
        return ocl__fail(c, ocl__status_of(err),
                         "opencl: clCreateBuffer of %zu bytes on %s failed (%s)", bytes, d->name,
                         ocl__error_name(err));
    }
    b->bytes = bytes;
    b->device = device;
    *out = b;
    return ACCEL_SUCCESS;
}

static void ocl_buffer_free(void *vctx, accel_be_buffer *b)
{
    ocl_ctx *c = vctx;
    if (!b)
        return;
    c->cl.clReleaseMemObject(b->mem);
    free(b);
}

/* The cl_mem, for other OpenCL libraries (clBLAST, clFFT) in the same
 * context. */
static void *ocl_buffer_native_ptr(void *vctx, accel_be_buffer *b)
{
    (void)vctx;
    return b->mem;
}

static void *ocl_queue_native(void *vctx, accel_be_queue *q)
{
    (void)vctx;
    return q->q;
}

static const accel_backend ocl_backend = {
    .abi_version = ACCEL_BACKEND_ABI_VERSION,
    .struct_size = sizeof(accel_backend),
    .name = "opencl",
    .description = "OpenCL: every platform's devices (ICD loader), generated OpenCL C kernels, "
                   "CLBlast GEMM",
    .init = ocl_init,
    .shutdown = ocl_shutdown,
    .device_count = ocl_device_count,
    .device_properties = ocl_device_properties,
    .buffer_alloc = ocl_buffer_alloc,
    .buffer_free = ocl_buffer_free,
    .queue_create = ocl__queue_create,
    .queue_destroy = ocl__queue_destroy,
    .queue_finish = ocl__queue_finish,
    .queue_write = ocl__queue_write,
    .queue_read = ocl__queue_read,
    .queue_copy = ocl__queue_copy,
    .queue_host_fn = ocl__queue_host_fn,
    .event_create = ocl__event_create,
    .event_destroy = ocl__event_destroy,
    .event_record = ocl__event_record,
    .queue_wait_event = ocl__queue_wait_event,
    .event_synchronize = ocl__event_synchronize,
    .event_query = ocl__event_query,
    .event_elapsed_ms = ocl__event_elapsed_ms,
    .op_supported = ocl__op_supported,
    .op_execute = ocl__op_execute,
    .buffer_native_ptr = ocl_buffer_native_ptr,
    .queue_native = ocl_queue_native,
    .program_identity = ocl__user_program_identity,
    .program_build = ocl__user_program_build,
    .program_release = ocl__user_program_release,
};

ACCEL_PLUGIN_EXPORT const accel_backend *accel_backend_entry(void)
{
    return &ocl_backend;
}
