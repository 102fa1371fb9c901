/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* opencl.h — the OpenCL backend's internal declarations: the OpenCL and
 * CLBlast entry points it binds at run time (cl_api.c), its devices,
 * buffers, queues and events, and the kernels built per device (program.c).
 * Written against accel/backend.h alone; the core knows nothing of OpenCL. */
#ifndef ACCEL_OPENCL_H
#define ACCEL_OPENCL_H

#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <pthread.h>
#include <stdint.h>

#include "accel/backend.h"

/* The OpenCL 1.2 calls this plugin makes, bound from libOpenCL.so.1 (the ICD
 * loader) with dlopen at init, so the plugin loads on a machine without one
 * and says why in `accel info`. X(name). */
#define OCL_API_LIST(X)                                                                            \
    X(clGetPlatformIDs)                                                                            \
    X(clGetPlatformInfo)                                                                           \
    X(clGetDeviceIDs)                                                                              \
    X(clGetDeviceInfo)                                                                             \
    X(clCreateContext)                                                                             \
    X(clReleaseContext)                                                                            \
    X(clCreateCommandQueue)                                                                        \
    X(clReleaseCommandQueue)                                                                       \
    X(clFinish)                                                                                    \
    X(clFlush)                                                                                     \
    X(clCreateBuffer)                                                                              \
    X(clReleaseMemObject)                                                                          \
    X(clEnqueueWriteBuffer)                                                                        \
    X(clEnqueueReadBuffer)                                                                         \
    X(clEnqueueCopyBuffer)                                                                         \
    X(clCreateProgramWithSource)                                                                   \
    X(clCreateProgramWithBinary)                                                                   \
    X(clBuildProgram)                                                                              \
    X(clGetProgramBuildInfo)                                                                       \
    X(clGetProgramInfo)                                                                            \
    X(clReleaseProgram)                                                                            \
    X(clCreateKernel)                                                                              \
    X(clReleaseKernel)                                                                             \
    X(clSetKernelArg)                                                                              \
    X(clGetKernelWorkGroupInfo)                                                                    \
    X(clGetKernelInfo)                                                                             \
    X(clEnqueueNDRangeKernel)                                                                      \
    X(clEnqueueMarkerWithWaitList)                                                                 \
    X(clEnqueueBarrierWithWaitList)                                                                \
    X(clWaitForEvents)                                                                             \
    X(clGetEventInfo)                                                                              \
    X(clGetEventProfilingInfo)                                                                     \
    X(clRetainEvent)                                                                               \
    X(clReleaseEvent)                                                                              \
    X(clCreateUserEvent)                                                                           \
    X(clSetUserEventStatus)                                                                        \
    X(clSetEventCallback)

typedef struct ocl_api {
#define OCL_X_FIELD(name) __typeof__(&name) name;
    OCL_API_LIST(OCL_X_FIELD)
#undef OCL_X_FIELD
} ocl_api;

/* CLBlast's GEMM entries (clblast_c.h), bound from libclblast.so.1 when it
 * is there; NULL fields: GEMM is unsupported (the core falls back). Each
 * takes (layout, trans_a, trans_b, m, n, k, alpha, A, a_off, lda,
 * [a_stride,] B, b_off, ldb, [b_stride,] beta, C, c_off, ldc, [c_stride,
 * batch,] queue *, event *) and returns a CLBlastStatusCode (0: success). */
typedef int (*ocl_sgemm_fn)(int, int, int, size_t, size_t, size_t, float, cl_mem, size_t, size_t,
                            cl_mem, size_t, size_t, float, cl_mem, size_t, size_t,
                            cl_command_queue *, cl_event *);
typedef int (*ocl_dgemm_fn)(int, int, int, size_t, size_t, size_t, double, cl_mem, size_t, size_t,
                            cl_mem, size_t, size_t, double, cl_mem, size_t, size_t,
                            cl_command_queue *, cl_event *);
typedef int (*ocl_hgemm_fn)(int, int, int, size_t, size_t, size_t, cl_half, cl_mem, size_t, size_t,
                            cl_mem, size_t, size_t, cl_half, cl_mem, size_t, size_t,
                            cl_command_queue *, cl_event *);
typedef int (*ocl_sgemm_batched_fn)(int, int, int, size_t, size_t, size_t, float, cl_mem, size_t,
                                    size_t, size_t, cl_mem, size_t, size_t, size_t, float, cl_mem,
                                    size_t, size_t, size_t, size_t, cl_command_queue *, cl_event *);
typedef int (*ocl_dgemm_batched_fn)(int, int, int, size_t, size_t, size_t, double, cl_mem, size_t,
                                    size_t, size_t, cl_mem, size_t, size_t, size_t, double, cl_mem,
                                    size_t, size_t, size_t, size_t, cl_command_queue *, cl_event *);
typedef int (*ocl_hgemm_batched_fn)(int, int, int, size_t, size_t, size_t, cl_half, cl_mem, size_t,
                                    size_t, size_t, cl_mem, size_t, size_t, size_t, cl_half, cl_mem,
                                    size_t, size_t, size_t, size_t, cl_command_queue *, cl_event *);

typedef struct ocl_blas {
    ocl_sgemm_fn sgemm;
    ocl_dgemm_fn dgemm;
    ocl_hgemm_fn hgemm;
    ocl_sgemm_batched_fn sgemm_batched;
    ocl_dgemm_batched_fn dgemm_batched;
    ocl_hgemm_batched_fn hgemm_batched;
    char error[256]; /* why GEMM is unavailable, or "" */
} ocl_blas;

/* Binds the OpenCL calls into *api. 0 on success; else -1 with the reason
 * (dlerror's text, or the missing symbol) in why. */
int ocl__api_load(ocl_api *api, void **out_handle, char *why, size_t why_size);
/* The file of the ICD loader api was bound from (its path as the dynamic
 * linker found it), for messages. */
void ocl__api_where(const ocl_api *api, char *out, size_t size);
/* Binds CLBlast's GEMM entries into *blas (blas->error says why not). */
void ocl__blas_load(ocl_blas *blas, void **out_handle);
/* The name of an OpenCL error code ("CL_OUT_OF_RESOURCES"), or "CL error". */
const char *ocl__error_name(cl_int err);

/* Kernels that are not generated from the op table (kernels.cl). */
typedef enum ocl_fixed_kernel {
    OCL_K_SUM1_F32,
    OCL_K_SUM1_F64,
    OCL_K_EXT1_F32,
    OCL_K_EXT1_F64,
    OCL_K_EXT2_F32,
    OCL_K_EXT2_F64,
    OCL_K_UNIFORM_F32,
    OCL_K_UNIFORM_F64,
    OCL_K_NORMAL_F32,
    OCL_K_NORMAL_F64,
    OCL_K_TRANSPOSE_U16,
    OCL_K_TRANSPOSE_U32,
    OCL_K_TRANSPOSE_U64,
    OCL_K_SCALE2D_F32,
    OCL_K_SCALE2D_F64,
    OCL_K_SORT_KEYS_U8, /* then _U16, _U32, _U64, in order (sort.c) */
    OCL_K_SORT_KEYS_U16,
    OCL_K_SORT_KEYS_U32,
    OCL_K_SORT_KEYS_U64,
    OCL_K_SORT_OUT_U8, /* then _U16, _U32, _U64, in order */
    OCL_K_SORT_OUT_U16,
    OCL_K_SORT_OUT_U32,
    OCL_K_SORT_OUT_U64,
    OCL_K_SORT_INDEX,
    OCL_K_SORT_STEP,
    OCL_K_FIXED_COUNT_
} ocl_fixed_kernel;

typedef struct ocl_device {
    cl_platform_id platform;
    cl_device_id id;
    cl_context context; /* one per platform, shared by its devices */
    char name[128];
    char platform_name[96];
    char driver_version[32];
    char cl_version[32];
    cl_device_type type;
    uint32_t compute_units;
    uint64_t memory_total;
    size_t max_alloc;
    int fp64, fp16;
    int fp32_correct_div_sqrt; /* CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT */
    size_t wg;                 /* reduction work-group size (a power of two <= 256) */
    /* The program of every op kernel, built on first use (build_lock). */
    pthread_mutex_t build_lock;
    int built; /* 1 built, -1 failed (build_error says why) */
    char *build_error;
    cl_program program;
    cl_kernel ew[ACCEL_OP_CODE_LIMIT][2]; /* generated elementwise kernels [op][f64] */
    cl_kernel fixed[OCL_K_FIXED_COUNT_];
    /* clSetKernelArg and the launch are one step per kernel object. */
    pthread_mutex_t launch_lock;
    cl_command_queue aux; /* for copies between contexts (under launch_lock) */
} ocl_device;

typedef struct ocl_ctx {
    const accel_host_services *host;
    ocl_api cl;
    void *cl_handle;
    ocl_blas blas;
    void *blas_handle;
    uint32_t count;
    ocl_device *dev;
    cl_context contexts[16];
    uint32_t context_count;
} ocl_ctx;

struct accel_be_buffer {
    cl_mem mem;
    size_t bytes;
    uint32_t device;
};

struct accel_be_queue {
    cl_command_queue q;
    uint32_t device;
    /* The last command's event and the op that enqueued it: its status tells
     * an execution failure at the next synchronizing call. */
    cl_event last;
    char last_name[64];
    cl_mem scratch; /* reduction partials, grown on demand */
    size_t scratch_bytes;
    cl_mem done; /* sum1's count of finished work-groups (reduce.c) */
};

struct accel_be_event {
    uint32_t device;
    cl_event ev; /* the recorded marker, or NULL */
    char name[64];
};

/* Errors: a message through host->set_error and the status it returns. */
int32_t ocl__fail(ocl_ctx *c, int32_t status, const char *fmt, ...) ACCEL_BACKEND_PRINTF(3, 4);
/* The status for an OpenCL error code (out of memory kinds, else DEVICE). */
int32_t ocl__status_of(cl_int err);

/* program.c: builds the device's op program on first use. */
int32_t ocl__program_ensure(ocl_ctx *c, ocl_device *d);
void ocl__program_release(ocl_ctx *c, ocl_device *d);
/* program_cache.c: the op program's binary in the core's compiled-code
 * cache (host services). load: the program built from a cached binary for
 * (device, src, opts), or NULL (none, no cache, or the driver refused it).
 * store: keeps p's binary under that key (best effort). */
cl_program ocl__program_cache_load(ocl_ctx *c, ocl_device *d, const char *src, const char *opts);
void ocl__program_cache_store(ocl_ctx *c, ocl_device *d, cl_program p, const char *src,
                              const char *opts);
/* p's binary for its one device (CL_PROGRAM_BINARIES), malloc'ed; NULL when
 * the driver gives none. */
unsigned char *ocl__program_binary(ocl_ctx *c, cl_program p, size_t *out_size);

/* queue.c */
int32_t ocl__queue_create(void *ctx, uint32_t device, accel_be_queue **out);
void ocl__queue_destroy(void *ctx, accel_be_queue *q);
int32_t ocl__queue_finish(void *ctx, accel_be_queue *q);
int32_t ocl__queue_write(void *ctx, accel_be_queue *q, accel_be_buffer *dst, size_t off,
                         const void *src, size_t bytes);
int32_t ocl__queue_read(void *ctx, accel_be_queue *q, accel_be_buffer *src, size_t off, void *dst,
                        size_t bytes);
int32_t ocl__queue_copy(void *ctx, accel_be_queue *q, accel_be_buffer *src, size_t src_off,
                        accel_be_buffer *dst, size_t dst_off, size_t bytes);
int32_t ocl__queue_host_fn(void *ctx, accel_be_queue *q, accel_host_fn fn, void *user);
int32_t ocl__event_create(void *ctx, uint32_t device, accel_be_event **out);
void ocl__event_destroy(void *ctx, accel_be_event *ev);
int32_t ocl__event_record(void *ctx, accel_be_event *ev, accel_be_queue *q);
int32_t ocl__queue_wait_event(void *ctx, accel_be_queue *q, accel_be_event *ev);
int32_t ocl__event_synchronize(void *ctx, accel_be_event *ev);
int32_t ocl__event_query(void *ctx, accel_be_event *ev, int *out_done);
int32_t ocl__event_elapsed_ms(void *ctx, accel_be_event *a, accel_be_event *b, double *out_ms);
/* Keeps ev (a command just enqueued on q by op `name`) as q's last command;
 * takes ownership of ev. */
void ocl__queue_track(ocl_ctx *c, accel_be_queue *q, cl_event ev, const char *name);

/* ops.c and gemm.c */
int32_t ocl__op_supported(void *ctx, uint32_t device, const accel_op_desc *desc);
int32_t ocl__op_execute(void *ctx, accel_be_queue *q, const accel_op_desc *desc);
int32_t ocl__gemm_supported(ocl_ctx *c, const ocl_device *d, const accel_op_desc *desc);
int32_t ocl__gemm(ocl_ctx *c, accel_be_queue *q, const accel_op_desc *desc);
/* reduce.c: sum, dot, reduce_max and reduce_min of an f32 or f64 op (the
 * op program built). */
int32_t ocl__reduce(ocl_ctx *c, accel_be_queue *q, const accel_op_desc *o, const char *name);
/* sort.c: sort and argsort (kind SORT) of every real dtype; supported
 * unless the lines' scratch passes one buffer's limit. */
int32_t ocl__sort_supported(const ocl_device *d, const accel_op_desc *o);
int32_t ocl__sort(ocl_ctx *c, accel_be_queue *q, const accel_op_desc *o, const char *name);
/* Launches kernel k on q with its arguments already described by `args`
 * (n pairs of size and pointer), over global[0..dims) with local (or NULL). */
typedef struct ocl_arg {
    size_t size;
    const void *value;
} ocl_arg;
/* The ocl_arg of the lvalue v. */
#define OCL_ARG(v)                                                                                 \
    {                                                                                              \
        sizeof(v), &(v)                                                                            \
    }
int32_t ocl__launch(ocl_ctx *c, accel_be_queue *q, cl_kernel k, const ocl_arg *args, unsigned n,
                    unsigned dims, const size_t *global, const size_t *local, const char *name);

size_t ocl__dtype_size(uint32_t dtype);

/* User kernels (kernel.c): raw kernels in the CUDA-C dialect, translated
 * to OpenCL C (translate.c), as the plugin ABI's program entries. */
int32_t ocl__user_program_identity(void *ctx, uint32_t device, uint32_t language, char *out,
                                   size_t size);
int32_t ocl__user_program_build(void *ctx, uint32_t device, const accel_program_desc *d,
                                accel_be_program **out, const void **out_binary,
                                size_t *out_binary_size);
void ocl__user_program_release(void *ctx, accel_be_program *p);
/* ACCEL_OP_KERNEL: a raw launch of a program built for the device. */
int32_t ocl__kernel_supported(ocl_ctx *c, uint32_t device, const accel_op_desc *o);
int32_t ocl__kernel_launch(ocl_ctx *c, accel_be_queue *q, const accel_op_desc *o);
/* src (a raw kernel in the CUDA-C dialect) as OpenCL C with the prelude
 * before it, malloc'ed; *out_dynamic_shared = 1 when each kernel gained a
 * last __local parameter for an extern __shared__ array. NULL: why says. */
char *ocl__translate_cuda(const char *src, int *out_dynamic_shared, char *why, size_t why_size);
/* cuda_prelude.cl: CUDA's names in OpenCL C. */
const char *ocl__cuda_prelude(void);

#endif /* ACCEL_OPENCL_H */
