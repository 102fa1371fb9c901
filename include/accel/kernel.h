/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* accel/kernel.h — kernels users write, compiled at run time for every
 * device that runs them (NVRTC on CUDA, a C compiler on the CPU), cached in
 * memory and on disk, and launched through the same op path as the built-in
 * ops (validation, fallback, verify mode, trace, placement report).
 *
 * Three kinds:
 * - Elementwise, in CuPy's ElementwiseKernel syntax: parameters
 *   "float32 x, float32 y, float32 a", outputs "float32 z", body
 *   "z = a * x + y". Each input is an array or, when the caller passes a
 *   scalar, a scalar. The body sees each name as one element (a value of
 *   the type's arithmetic type), `i` (size_t, the element index) and `n`
 *   (size_t, the element count). Outputs start as 0 and are stored after
 *   the body.
 * - Reduction, as CuPy's ReductionKernel: a map expression over the inputs
 *   (per element), a reduce expression in `a` and `b`, an identity and a
 *   post-map expression in `a` ("sqrt(a)", or CuPy's "y = sqrt(a)"). Over a
 *   whole range (the output has 1 element) or along the last axis of a
 *   row-major rows x cols range (the output has rows elements and each
 *   input rows*cols). The order is fixed and the same on every backend:
 *   a row is cut into chunks of 16384 columns (ACCEL_KERNEL_REDUCE_CHUNK,
 *   the last one shorter). A chunk is reduced by 256 lanes: lane l folds
 *   the chunk's columns l, l+256, l+512, ... from the identity in
 *   increasing order; then lanes combine pairwise (l with l+128, then
 *   l+64, ..., 1). A row of one chunk ends there; otherwise the chunks'
 *   results are reduced the same way (lane l folds chunk results l, l+256,
 *   ..., then pairwise), so that a whole range runs on many CUDA blocks.
 *   Same bits run to run and on every device.
 * - Raw CUDA C source with __global__ entry points (threadIdx, blockIdx,
 *   blockDim, gridDim), launched with a grid and a block, as PyCUDA's
 *   SourceModule and CuPy's RawKernel. On the CPU the same source runs as
 *   its twin, compiled as C with a prelude, with CUDA's execution model:
 *   1-D to 3-D grids and blocks, static and dynamic (extern) __shared__
 *   memory per block, __syncthreads (and _count, _and, _or), atomics
 *   (atomicAdd, Sub, Exch, Min, Max, Inc, Dec, CAS, And, Or, Xor on int,
 *   unsigned, long long, unsigned long long; atomicAdd and atomicExch on
 *   float, atomicAdd on double), warp functions on warps of 32
 *   (__shfl_sync and its up, down and xor forms, __ballot_sync,
 *   __any_sync, __all_sync, __activemask, __syncwarp, warpSize),
 *   __threadfence and printf (written to stdout when the launch ends, in
 *   block order). Threads of a block that synchronize run as lightweight
 *   contexts switched at each barrier; blocks run in parallel
 *   (docs/kernels-twin.md: the technique, its cost, what is not modelled).
 *   Inline asm, textures and cooperative groups make the twin fail to build
 *   with ACCEL_ERROR_UNSUPPORTED naming the construct; the kernel still
 *   runs on CUDA and verify mode counts it as skipped (not
 *   cross-checkable).
 *
 * dtypes: float32 (float), float64 (double), float16 and bfloat16 (stored as
 * 16 bits; arithmetic in float), int32 (int), int64, uint8.
 *
 * Compiled code is cached per kernel and device, in the runtime's memory,
 * and on disk ([runtime] kernel_cache in plugins.ini; see docs/kernels.md).
 *
 * Ownership: kernels are the caller's (accel_kernel_release); they must not
 * outlive their runtime. Thread safety: every function may be called from
 * any thread; a kernel may be launched from several threads at once. */
#ifndef ACCEL_KERNEL_H
#define ACCEL_KERNEL_H

#include "accel/accel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A user kernel. The caller's; release with accel_kernel_release. */
typedef struct accel_kernel accel_kernel;

/* Options of kernel creation. Zero fields mean "the default". */
typedef struct accel_kernel_options {
    uint32_t struct_size;
    /* Verify mode's bound for floating-point outputs, in units in the last
     * place of the output's dtype (integer outputs must always match
     * exactly). 0: the default, 4 ulp (the CUDA Math API's and glibc's
     * transcendental functions are within 2 ulp each of the exact value). */
    uint32_t tolerance_ulp;
    /* Extra compiler options for NVRTC (space separated), e.g.
     * "--use_fast_math"; part of the cache key. NULL: none. */
    const char *cuda_options;
    /* 1: every raw launch of this kernel is a debug launch (see
     * accel_kernel_launch_options.debug). Added in what was reserved[0]. */
    uint32_t debug;
    uint32_t reserved0;
    uint64_t reserved[7];
} accel_kernel_options;

/* Fill *o with the defaults (struct_size set). NULL: no-op. */
ACCEL_API void accel_kernel_options_init(accel_kernel_options *o);

/* Create an elementwise kernel (see the top of this file).
 * name: a C identifier, used in messages, the trace and the report.
 * in_params: "T name, ..." (may be "" for none); out_params: "T name, ..."
 * (at least one); body: C statements for one element. opt may be NULL.
 * Nothing is compiled yet: each device compiles at its first launch (or at
 * accel_kernel_build).
 * Errors: ACCEL_ERROR_INVALID_HANDLE (rt), ACCEL_ERROR_INVALID_ARGUMENT (a
 * NULL string, a malformed parameter list, an unknown type, a duplicate or
 * reserved name), ACCEL_ERROR_OUT_OF_HOST_MEMORY. */
ACCEL_API accel_status accel_kernel_elementwise_create(accel_runtime *rt, const char *name,
                                                       const char *in_params,
                                                       const char *out_params, const char *body,
                                                       const accel_kernel_options *opt,
                                                       accel_kernel **out);

/* Create a reduction kernel (see the top of this file). out_params has
 * exactly one parameter. map: expression of the inputs and `i`; reduce:
 * expression of `a` and `b` (both of the output's arithmetic type); identity:
 * expression; post: expression of `a` (or "OUT = expr"); NULL or "" means
 * "a". Errors as accel_kernel_elementwise_create. */
ACCEL_API accel_status accel_kernel_reduction_create(accel_runtime *rt, const char *name,
                                                     const char *in_params, const char *out_params,
                                                     const char *map, const char *reduce,
                                                     const char *identity, const char *post,
                                                     const accel_kernel_options *opt,
                                                     accel_kernel **out);

/* Create a raw kernel from CUDA C source and the name of one of its
 * __global__ functions (extern "C" is added around the source, as PyCUDA
 * does). Parameters: pointers (T *, const T *, T *__restrict__) to float,
 * double, int, long long, int64_t, unsigned char, uint8_t, or scalars of
 * those types; other pointer types take an array of any dtype.
 * Errors: ACCEL_ERROR_INVALID_ARGUMENT (no such __global__ function, a
 * parameter type not understood), ACCEL_ERROR_OUT_OF_HOST_MEMORY. */
ACCEL_API accel_status accel_kernel_raw_create(accel_runtime *rt, const char *source,
                                               const char *entry, const accel_kernel_options *opt,
                                               accel_kernel **out);

/* Which compiler builds user kernels on dev, as its backend names it
 * (the plugin ABI's program_identity, also part of the kernel cache key):
 * "nvrtc 13.0 sm_90" on CUDA, "cc /usr/bin/gcc-12 ..." or "tcc /path/accel-tcc
 * ..." on the CPU, followed by the details that make the cache key (size,
 * time, flags, target). Written to out (size bytes, NUL-terminated,
 * truncated to fit). Thread-safe.
 * Errors: ACCEL_ERROR_INVALID_HANDLE (dev), ACCEL_ERROR_INVALID_ARGUMENT
 * (out NULL or size 0), ACCEL_ERROR_UNSUPPORTED (the backend builds no user
 * kernels, or finds no compiler now; the message says which; out is ""). */
ACCEL_API accel_status accel_kernel_compiler_get(accel_device *dev, char *out, size_t size);

/* Release a kernel and its compiled code on every device. Work already
 * enqueued still runs (each device's code is kept until the runtime
 * closes). NULL: no-op. */
ACCEL_API void accel_kernel_release(accel_kernel *k);

/* The kernel's name. */
ACCEL_API const char *accel_kernel_name(const accel_kernel *k);

/* Compile k for dev now, with inputs scalar where bit i of scalar_mask is set
 * (input i in order; raw kernels: 0). Launches compile on demand, so this
 * only moves the cost (and the error) earlier.
 * Errors: ACCEL_ERROR_COMPILE (accel_last_error() holds the compiler's log,
 * lines counted in the user's text), ACCEL_ERROR_UNSUPPORTED (the device's
 * backend has no compiler, or the CPU twin cannot run the construct named),
 * ACCEL_ERROR_INVALID_HANDLE. */
ACCEL_API accel_status accel_kernel_build(accel_kernel *k, accel_device *dev, uint32_t scalar_mask);

/* The program accel generates for k on dev with scalar_mask (as
 * accel_kernel_build): CUDA C++ for a GPU, C11 for the CPU twin, with the
 * user's text behind #line directives. Written NUL-terminated into out
 * (size bytes, truncated to size - 1 characters); *out_length (may be NULL)
 * receives the full length in bytes without the NUL, so out = NULL with
 * size = 0 asks for the length. Nothing is compiled. For reading, debugging
 * and baselines (a raw compiler run on the same text); the text may change
 * between accel versions. Thread-safe.
 * Errors: ACCEL_ERROR_INVALID_HANDLE, ACCEL_ERROR_INVALID_ARGUMENT (out NULL
 * with size > 0, scalar_mask past the inputs), ACCEL_ERROR_OUT_OF_HOST_MEMORY. */
ACCEL_API accel_status accel_kernel_source_get(accel_kernel *k, accel_device *dev,
                                               uint32_t scalar_mask, char *out, size_t size,
                                               size_t *out_length);

/* One launch argument: an array range or a scalar. */
typedef struct accel_kernel_arg {
    uint32_t kind;     /* ACCEL_KARG_ARRAY or ACCEL_KARG_SCALAR (backend.h) */
    accel_dtype dtype; /* scalars: the value's dtype (converted to the parameter's) */
    accel_slice slice; /* arrays: a range of elements of the parameter's dtype */
    double f;          /* scalars of a floating dtype */
    int64_t i;         /* scalars of an integer dtype */
} accel_kernel_arg;

#define ACCEL_KARG_ARRAY 1u
#define ACCEL_KARG_SCALAR 2u

/* Argument helpers. */
static inline accel_kernel_arg accel_karg_array(accel_slice s)
{
    accel_kernel_arg a = {ACCEL_KARG_ARRAY, ACCEL_DTYPE_INVALID, s, 0.0, 0};
    return a;
}
static inline accel_kernel_arg accel_karg_f64(double v)
{
    accel_kernel_arg a = {ACCEL_KARG_SCALAR, ACCEL_F64, {NULL, 0, 0}, v, 0};
    return a;
}
static inline accel_kernel_arg accel_karg_f32(float v)
{
    accel_kernel_arg a = {ACCEL_KARG_SCALAR, ACCEL_F32, {NULL, 0, 0}, (double)v, 0};
    return a;
}
static inline accel_kernel_arg accel_karg_i64(int64_t v)
{
    accel_kernel_arg a = {ACCEL_KARG_SCALAR, ACCEL_I64, {NULL, 0, 0}, 0.0, v};
    return a;
}
static inline accel_kernel_arg accel_karg_i32(int32_t v)
{
    accel_kernel_arg a = {ACCEL_KARG_SCALAR, ACCEL_I32, {NULL, 0, 0}, 0.0, (int64_t)v};
    return a;
}

/* Launch an elementwise or reduction kernel on q. args: the inputs, then the
 * outputs, in declaration order (num_args of them).
 * Elementwise: every array has the same count n (outputs must be arrays);
 * n == 0 is a no-op. An output may be exactly an input's range (in place)
 * or not overlap it; outputs do not overlap each other.
 * Reduction: the output has `rows` elements, every input array rows*cols
 * (cols >= 0; rows = 1 is the whole range); the output overlaps no input.
 * Scalars are converted to the parameter's type (C conversion); a float
 * scalar for an integer parameter is ACCEL_ERROR_DTYPE_MISMATCH, an integer
 * scalar outside the parameter's range (int32, uint8 0..255) is
 * ACCEL_ERROR_OUT_OF_RANGE (never wrapped).
 * Errors (all before anything is enqueued): ACCEL_ERROR_INVALID_HANDLE,
 * ACCEL_ERROR_INVALID_ARGUMENT (argument count, an output passed as a
 * scalar, aliasing), ACCEL_ERROR_OUT_OF_RANGE (a range past its buffer, an
 * integer scalar that does not fit its parameter),
 * ACCEL_ERROR_SHAPE_MISMATCH (counts), ACCEL_ERROR_DEVICE_MISMATCH,
 * ACCEL_ERROR_COMPILE / ACCEL_ERROR_UNSUPPORTED (first launch on the
 * device: as accel_kernel_build; with fallback on, an unsupported kernel
 * runs on the fallback device). Asynchronous like every op.
 * A fault of the kernel's CPU code (an integer division by zero, SIGFPE; a
 * trap the C compiler put where the code has undefined behaviour, SIGILL; a
 * bad address, SIGSEGV or SIGBUS) stops that launch, whose outputs are then
 * incomplete, and the queue's next synchronizing call returns
 * ACCEL_ERROR_KERNEL_FAULT naming the kernel, the signal and the range; the
 * process and the queue go on. (The CPU backend catches these signals only
 * on a thread while it runs user code; elsewhere they reach the handler
 * that was installed before, or their default action.) */
ACCEL_API accel_status accel_kernel_launch(accel_queue *q, accel_kernel *k, size_t num_args,
                                           const accel_kernel_arg *args);

/* Launch a raw kernel with grid x block threads. args: one per parameter of
 * the entry, arrays for pointers (dtype checked when the pointee type is
 * known), scalars for the rest. Limits (CUDA's, on every device): each grid
 * and block dimension >= 1; grid x <= 2^31-1, y and z <= 65535; block x and
 * y <= 1024, z <= 64, x*y*z <= 1024. Errors as accel_kernel_launch, plus
 * ACCEL_ERROR_INVALID_ARGUMENT for a grid or block outside those limits. */
ACCEL_API accel_status accel_kernel_launch_grid(accel_queue *q, accel_kernel *k,
                                                const uint32_t grid[3], const uint32_t block[3],
                                                size_t num_args, const accel_kernel_arg *args);

/* Options of a raw launch (accel_kernel_launch_grid_ex). Zero fields mean
 * "the default". */
typedef struct accel_kernel_launch_options {
    uint32_t struct_size;
    /* 1: a debug launch. The kernel runs on the CPU twin (also when q is a
     * GPU's: its arrays are read to the host, the twin runs, the outputs
     * are written back, in q's order), one block after another, with every
     * indexing p[i] of a pointer parameter and every indexing of a
     * __shared__ array checked: an access outside the argument's range or
     * the shared array stops the launch, and q's next synchronizing call
     * returns ACCEL_ERROR_KERNEL_FAULT with a message naming the kernel,
     * the block and thread index, the source line, the argument or array
     * and the offending element index. A read of a shared element written
     * by another thread of the block with no __syncthreads in between (or
     * a write after such a read, or two such writes) stops it as a race,
     * naming both lines. Also on for every raw launch when the kernel was
     * made with accel_kernel_options.debug, with [runtime] kernel_debug =
     * true, or with ACCEL_KERNEL_DEBUG=1 (the environment over the file).
     * What is and is not checked: docs/kernels-twin.md. */
    uint32_t debug;
    /* Bytes of dynamic shared memory per block, the `extern __shared__`
     * array's size (CUDA's sharedMemBytes), at most 49152 (48 KiB, CUDA's
     * limit without opting in). */
    size_t shared_bytes;
    uint64_t reserved[8];
} accel_kernel_launch_options;

/* Fill *o with the defaults (struct_size set). NULL: no-op. */
ACCEL_API void accel_kernel_launch_options_init(accel_kernel_launch_options *o);

/* accel_kernel_launch_grid with options (opt may be NULL: the defaults).
 * Errors as accel_kernel_launch_grid, plus ACCEL_ERROR_INVALID_ARGUMENT for
 * opt->struct_size smaller than this version's (call
 * accel_kernel_launch_options_init) and shared_bytes above 49152, and, for
 * a debug launch on a GPU queue, ACCEL_ERROR_UNSUPPORTED when the runtime
 * has no CPU device. */
ACCEL_API accel_status accel_kernel_launch_grid_ex(accel_queue *q, accel_kernel *k,
                                                   const uint32_t grid[3], const uint32_t block[3],
                                                   const accel_kernel_launch_options *opt,
                                                   size_t num_args, const accel_kernel_arg *args);

/* The kernel cache's counters, over the runtime's life. */
typedef struct accel_kernel_cache_stats {
    uint32_t struct_size;
    uint32_t disk_enabled;     /* 1: the disk cache is in use */
    uint64_t memory_hits;      /* builds served from this process's memory */
    uint64_t disk_hits;        /* builds loaded from the disk cache */
    uint64_t misses;           /* builds compiled */
    uint64_t rebuilt;          /* disk entries found corrupt or truncated, rebuilt */
    uint64_t failures;         /* builds that failed (compile errors included) */
    double compile_ms;         /* wall time spent compiling (misses) */
    double load_ms;            /* wall time spent loading cached code (hits) */
    char dir[1024];            /* the disk cache's folder, "" when off */
    char disabled_reason[256]; /* why the disk cache is off, "" when on or not asked */
    uint64_t reserved[8];
} accel_kernel_cache_stats;

/* Copy the cache's counters into *out. out->struct_size must be set (the
 * caller's version): at most that many bytes are written, and struct_size is
 * set to what was written. Errors: ACCEL_ERROR_INVALID_HANDLE,
 * ACCEL_ERROR_INVALID_ARGUMENT (out NULL, or struct_size below the first
 * version's). */
ACCEL_API accel_status accel_kernel_cache_stats_get(const accel_runtime *rt,
                                                    accel_kernel_cache_stats *out);

#ifdef __cplusplus
}
#endif
#endif /* ACCEL_KERNEL_H */
