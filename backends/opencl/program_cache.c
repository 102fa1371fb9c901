/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* program_cache.c — the device's op program (program.c) kept across runs in
 * the core's compiled-code cache, through the host services' cache entries
 * (accel/backend.h): the binary a build gave (CL_PROGRAM_BINARIES) under a
 * key of the device, its platform, the driver's version, the build options
 * and the whole source (the core hashes the fields with SHA-256). A second
 * process then loads the binary (clCreateProgramWithBinary) instead of
 * compiling the source again. A core without the entries (older than
 * them), a disk cache turned off, or a binary the driver refuses (another
 * driver build under the same version string) all mean: build from source,
 * as without a cache. */
#include <stdlib.h>

#include "opencl.h"

/* The key fields: what the binary depends on. */
#define OCL_KEY_FIELDS(d, src, opts)                                                               \
    {                                                                                              \
        "opencl op program 1", (d)->platform_name, (d)->name, (d)->driver_version,                 \
            (d)->cl_version, (opts), (src)                                                         \
    }

unsigned char *ocl__program_binary(ocl_ctx *c, cl_program p, size_t *out_size)
{
    size_t n = 0;
    *out_size = 0;
    unsigned char *bin = NULL;
    if (c->cl.clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof n, &n, NULL) != CL_SUCCESS ||
        n == 0 || !(bin = malloc(n)))
        return NULL;
    unsigned char *bins[1] = {bin};
    if (c->cl.clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) != CL_SUCCESS) {
        free(bin);
        return NULL;
    }
    *out_size = n;
    return bin;
}

cl_program ocl__program_cache_load(ocl_ctx *c, ocl_device *d, const char *src, const char *opts)
{
    const accel_host_services *h = c->host;
    if (!ACCEL_HOST_HAS(h, cache_get) || !ACCEL_HOST_HAS(h, cache_free))
        return NULL;
    const char *key[] = OCL_KEY_FIELDS(d, src, opts);
    void *data = NULL;
    size_t size = 0;
    if (h->cache_get(h->host_ctx, key, sizeof key / sizeof key[0], &data, &size) != ACCEL_SUCCESS)
        return NULL;
    const unsigned char *bin = data;
    cl_int err = CL_SUCCESS, bin_status = CL_SUCCESS;
    cl_program p =
        c->cl.clCreateProgramWithBinary(d->context, 1, &d->id, &size, &bin, &bin_status, &err);
    h->cache_free(h->host_ctx, data);
    if (!p)
        err = err != CL_SUCCESS ? err : bin_status;
    else if ((err = c->cl.clBuildProgram(p, 1, &d->id, opts, NULL, NULL)) == CL_SUCCESS) {
        h->log(h->host_ctx, ACCEL_LOG_INFO,
               "%s: op program loaded from the kernel cache (%zu bytes)", d->name, size);
        return p;
    }
    h->log(h->host_ctx, ACCEL_LOG_INFO,
           "%s: the cached op program did not load (%s); building it from source", d->name,
           ocl__error_name(err));
    if (p)
        c->cl.clReleaseProgram(p);
    return NULL;
}

void ocl__program_cache_store(ocl_ctx *c, ocl_device *d, cl_program p, const char *src,
                              const char *opts)
{
    const accel_host_services *h = c->host;
    if (!ACCEL_HOST_HAS(h, cache_put))
        return;
    size_t size = 0;
    unsigned char *bin = ocl__program_binary(c, p, &size);
    if (!bin)
        return;
    const char *key[] = OCL_KEY_FIELDS(d, src, opts);
    h->cache_put(h->host_ctx, key, sizeof key / sizeof key[0], bin, size);
    free(bin);
}
