/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* cl_api.c — binds OpenCL (libOpenCL.so.1, the ICD loader) and CLBlast
 * (libclblast.so.1) at run time with dlopen, so the plugin itself links
 * neither: on a machine without an ICD loader it still loads and init
 * explains what is missing. CLBlast links libOpenCL.so.1 itself; it is
 * opened after it, so both share the one loader already in the process. */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "opencl.h"

int ocl__api_load(ocl_api *api, void **out_handle, char *why, size_t why_size)
{
    memset(api, 0, sizeof *api);
    *out_handle = NULL;
    void *h = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(why, why_size,
                 "no OpenCL ICD loader: %s (Debian: apt install ocl-icd-libopencl1 and a "
                 "platform such as pocl-opencl-icd)",
                 e ? e : "libOpenCL.so.1 not found");
        return -1;
    }
    /* dlsym returns void *; ISO C has no conversion to a function pointer,
     * so the address is copied (POSIX guarantees they are the same size). */
#define OCL_X_BIND(name)                                                                           \
    {                                                                                              \
        void *sym = dlsym(h, #name);                                                               \
        if (!sym) {                                                                                \
            snprintf(why, why_size,                                                                \
                     "the OpenCL ICD loader libOpenCL.so.1 lacks %s (OpenCL < 1.2)", #name);       \
            dlclose(h);                                                                            \
            return -1;                                                                             \
        }                                                                                          \
        memcpy(&api->name, &sym, sizeof sym);                                                      \
    }
    OCL_API_LIST(OCL_X_BIND)
#undef OCL_X_BIND
    *out_handle = h;
    return 0;
}

void ocl__api_where(const ocl_api *api, char *out, size_t size)
{
    void *sym;
    memcpy(&sym, &api->clGetPlatformIDs, sizeof sym);
    Dl_info info;
    snprintf(out, size, "%s",
             sym && dladdr(sym, &info) && info.dli_fname ? info.dli_fname : "libOpenCL.so.1");
}

static void bind_opt(void *h, const char *name, void *slot)
{
    void *sym = dlsym(h, name);
    memcpy(slot, &sym, sizeof sym);
}

void ocl__blas_load(ocl_blas *blas, void **out_handle)
{
    memset(blas, 0, sizeof *blas);
    *out_handle = NULL;
    void *h = dlopen("libclblast.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        snprintf(blas->error, sizeof blas->error, "CLBlast not found: %s (Debian: libclblast1)",
                 e ? e : "libclblast.so.1");
        return;
    }
    bind_opt(h, "CLBlastSgemm", &blas->sgemm);
    bind_opt(h, "CLBlastDgemm", &blas->dgemm);
    bind_opt(h, "CLBlastHgemm", &blas->hgemm);
    bind_opt(h, "CLBlastSgemmStridedBatched", &blas->sgemm_batched);
    bind_opt(h, "CLBlastDgemmStridedBatched", &blas->dgemm_batched);
    bind_opt(h, "CLBlastHgemmStridedBatched", &blas->hgemm_batched);
    if (!blas->sgemm || !blas->dgemm) {
        snprintf(blas->error, sizeof blas->error, "libclblast.so.1 lacks CLBlastSgemm/Dgemm");
        memset(blas, 0, offsetof(ocl_blas, error));
        dlclose(h);
        return;
    }
    *out_handle = h;
}

const char *ocl__error_name(cl_int err)
{
    switch (err) {
#define OCL_X_ERR(e)                                                                               \
    case e:                                                                                        \
        return #e;
        OCL_X_ERR(CL_DEVICE_NOT_FOUND)
        OCL_X_ERR(CL_DEVICE_NOT_AVAILABLE)
        OCL_X_ERR(CL_COMPILER_NOT_AVAILABLE)
        OCL_X_ERR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
        OCL_X_ERR(CL_OUT_OF_RESOURCES)
        OCL_X_ERR(CL_OUT_OF_HOST_MEMORY)
        OCL_X_ERR(CL_PROFILING_INFO_NOT_AVAILABLE)
        OCL_X_ERR(CL_MEM_COPY_OVERLAP)
        OCL_X_ERR(CL_BUILD_PROGRAM_FAILURE)
        OCL_X_ERR(CL_MISALIGNED_SUB_BUFFER_OFFSET)
        OCL_X_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        OCL_X_ERR(CL_INVALID_VALUE)
        OCL_X_ERR(CL_INVALID_PLATFORM)
        OCL_X_ERR(CL_INVALID_DEVICE)
        OCL_X_ERR(CL_INVALID_CONTEXT)
        OCL_X_ERR(CL_INVALID_COMMAND_QUEUE)
        OCL_X_ERR(CL_INVALID_MEM_OBJECT)
        OCL_X_ERR(CL_INVALID_BINARY)
        OCL_X_ERR(CL_INVALID_BUILD_OPTIONS)
        OCL_X_ERR(CL_INVALID_PROGRAM)
        OCL_X_ERR(CL_INVALID_KERNEL_NAME)
        OCL_X_ERR(CL_INVALID_KERNEL)
        OCL_X_ERR(CL_INVALID_ARG_INDEX)
        OCL_X_ERR(CL_INVALID_ARG_VALUE)
        OCL_X_ERR(CL_INVALID_ARG_SIZE)
        OCL_X_ERR(CL_INVALID_KERNEL_ARGS)
        OCL_X_ERR(CL_INVALID_WORK_GROUP_SIZE)
        OCL_X_ERR(CL_INVALID_GLOBAL_OFFSET)
        OCL_X_ERR(CL_INVALID_EVENT_WAIT_LIST)
        OCL_X_ERR(CL_INVALID_EVENT)
        OCL_X_ERR(CL_INVALID_BUFFER_SIZE)
        OCL_X_ERR(CL_INVALID_GLOBAL_WORK_SIZE)
#undef OCL_X_ERR
    case -1001:
        return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
        return "CL error";
    }
}

/* Shared by every file of the plugin: the message goes to the core's
 * thread-local error (through the host services). */
int32_t ocl__fail(ocl_ctx *c, int32_t status, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    c->host->set_error(c->host->host_ctx, "%s", msg);
    return status;
}

int32_t ocl__status_of(cl_int err)
{
    switch (err) {
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    case CL_OUT_OF_RESOURCES:
    case CL_INVALID_BUFFER_SIZE:
        return ACCEL_ERROR_OUT_OF_DEVICE_MEMORY;
    case CL_OUT_OF_HOST_MEMORY:
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    default:
        return ACCEL_ERROR_DEVICE;
    }
}
