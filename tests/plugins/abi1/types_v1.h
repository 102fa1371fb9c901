/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* tests/plugins/abi1/types_v1.h — a frozen copy of accel/types.h as it was at
 * plugin ABI 1 (see backend_v1.h). Never edit it. Original text follows. */
/* accel/types.h — plain data types shared by the public API (accel.h) and the
 * plugin ABI (backend.h): status codes, dtypes, op codes, device properties.
 * Standalone: includes only <stddef.h> and <stdint.h>, so a backend plugin can
 * be written without the runtime's headers. Every enum here is append-only with
 * explicit values; numbers never change meaning across ABI versions. */
#ifndef ACCEL_TYPES_H
#define ACCEL_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* X(NAME, VALUE, "one-sentence message"). The one list produces the enum, the
 * names (accel_status_name) and the messages (accel_status_string). */
#define ACCEL_STATUS_LIST(X)                                                              \
    X(ACCEL_SUCCESS, 0, "success")                                                        \
    X(ACCEL_ERROR_INVALID_ARGUMENT, 1, "an argument is invalid")                          \
    X(ACCEL_ERROR_INVALID_HANDLE, 2, "a handle is NULL, released or of the wrong type")   \
    X(ACCEL_ERROR_OUT_OF_RANGE, 3, "a range lies outside its buffer or overflows")        \
    X(ACCEL_ERROR_DTYPE_MISMATCH, 4, "a dtype is unknown or does not match")              \
    X(ACCEL_ERROR_SHAPE_MISMATCH, 5, "element counts or matrix shapes do not agree")      \
    X(ACCEL_ERROR_DEVICE_MISMATCH, 6, "operands live on different devices")               \
    X(ACCEL_ERROR_OUT_OF_HOST_MEMORY, 7, "out of host memory")                            \
    X(ACCEL_ERROR_OUT_OF_DEVICE_MEMORY, 8, "out of device memory")                        \
    X(ACCEL_ERROR_UNSUPPORTED, 9, "the operation or dtype is not supported here")         \
    X(ACCEL_ERROR_NOT_FOUND, 10, "no such device, backend, file or key")                  \
    X(ACCEL_ERROR_PLUGIN_LOAD, 11, "a backend plugin could not be loaded")                \
    X(ACCEL_ERROR_INCOMPATIBLE_ABI, 12, "a backend plugin was built for another ABI")     \
    X(ACCEL_ERROR_CONFIG, 13, "the configuration is malformed or inconsistent")           \
    X(ACCEL_ERROR_DEVICE, 14, "the device or its driver reported an error")               \
    X(ACCEL_ERROR_MISMATCH, 15, "a result disagrees with its reference")                  \
    X(ACCEL_ERROR_UNAVAILABLE, 16, "the backend has no usable device or driver")          \
    X(ACCEL_ERROR_IO, 17, "a file could not be read or written, or is malformed")         \
    X(ACCEL_ERROR_INTERNAL, 18, "internal error (a bug in accel)")

typedef enum accel_status {
#define ACCEL_X_ENUM(name, value, msg) name = value,
    ACCEL_STATUS_LIST(ACCEL_X_ENUM)
#undef ACCEL_X_ENUM
} accel_status;

/* Element types. The value is also the bit index in accel_device_properties.dtypes. */
typedef enum accel_dtype {
    ACCEL_DTYPE_INVALID = 0,
    ACCEL_F32 = 1,  /* IEEE 754 binary32 */
    ACCEL_F64 = 2,  /* IEEE 754 binary64 */
    ACCEL_F16 = 3,  /* IEEE 754 binary16: GEMM, copy and transpose only */
    ACCEL_BF16 = 4, /* bfloat16: GEMM, copy and transpose only */
    ACCEL_DTYPE_COUNT_ = 5
} accel_dtype;

/* Op codes carried by accel_op_desc. Grouped by tens so kinds can grow. */
typedef enum accel_op_code {
    ACCEL_OP_INVALID = 0,
    ACCEL_OP_FILL = 1,   /* out[i] = scalars[0]                             */
    ACCEL_OP_COPY = 2,   /* out[i] = x[i]                                   */
    ACCEL_OP_ADD = 10,   /* out = a + b                                     */
    ACCEL_OP_SUB = 11,   /* out = a - b                                     */
    ACCEL_OP_MUL = 12,   /* out = a * b                                     */
    ACCEL_OP_DIV = 13,   /* out = a / b                                     */
    /* MAX, MIN, REDUCE_MAX, REDUCE_MIN: IEEE 754-2019 maximum/minimum (§9.6):
     * NaN if any operand is NaN, and -0 < +0, so max(-0, +0) = +0 and
     * min(-0, +0) = -0 in either order (NumPy is order-dependent there). */
    ACCEL_OP_MAX = 14,   /* out = maximum(a, b), NaN-propagating, -0 < +0   */
    ACCEL_OP_MIN = 15,   /* out = minimum(a, b), NaN-propagating, -0 < +0   */
    ACCEL_OP_AXPBY = 20, /* y = scalars[0]*x + scalars[1]*y  (operands x, y) */
    ACCEL_OP_SCALE = 21, /* out = scalars[0] * x                            */
    ACCEL_OP_TRANSPOSE = 22, /* out = x^T, 2-D, strided (a pure data move)  */
    ACCEL_OP_NEG = 30,
    ACCEL_OP_ABS = 31,
    ACCEL_OP_SQRT = 32,
    ACCEL_OP_EXP = 33,
    ACCEL_OP_LOG = 34,
    ACCEL_OP_TANH = 35,
    ACCEL_OP_RELU = 36,  /* out = x > 0 ? x : 0, NaN stays NaN              */
    ACCEL_OP_SUM = 50,   /* out[0] = sum x                                  */
    ACCEL_OP_REDUCE_MAX = 51, /* out[0] = max x, NaN-propagating, -0 < +0  */
    ACCEL_OP_REDUCE_MIN = 52, /* out[0] = min x, NaN-propagating, -0 < +0  */
    ACCEL_OP_DOT = 53,   /* out[0] = sum x[i]*y[i]                          */
    ACCEL_OP_GEMM = 60,  /* C = alpha*op(A)*op(B) + beta*C, strided batched */
    ACCEL_OP_RANDOM_UNIFORM = 70, /* Philox4x32-10 uniform [0,1)            */
    ACCEL_OP_RANDOM_NORMAL = 71   /* Philox4x32-10 + Box-Muller, N(mean, std) */
} accel_op_code;

typedef enum accel_device_kind {
    ACCEL_DEVICE_CPU = 1,
    ACCEL_DEVICE_GPU = 2,
    ACCEL_DEVICE_OTHER = 3
} accel_device_kind;

/* What a device is. Memory figures are bytes; memory_free is read when asked. */
typedef struct accel_device_properties {
    uint32_t struct_size;
    uint32_t kind;               /* accel_device_kind */
    char name[128];              /* e.g. "NVIDIA H200", "AMD EPYC 7B13 (2 threads)" */
    char backend[32];            /* the backend's name, e.g. "cuda", "cpu" */
    uint32_t index;              /* index among the backend's devices */
    uint32_t compute_units;      /* CPU threads used, or GPU multiprocessors */
    uint64_t memory_total;       /* bytes */
    uint64_t memory_free;        /* bytes */
    uint32_t dtypes;             /* bit (1u << accel_dtype) set for each dtype ops accept */
    uint32_t host_accessible;    /* 1: buffers are plain host memory */
    uint32_t compute_capability; /* GPUs: major*10 + minor (90 for sm_90); 0 elsewhere */
    uint32_t reserved0;
    char driver_version[32];     /* e.g. "13.0"; "" when not applicable */
    char runtime_version[32];
    uint64_t reserved[8];
} accel_device_properties;

/* What to measure in accel_device_measure_ceilings (accel_ceilings_options.what). */
#define ACCEL_CEILING_COPY (1u << 0)     /* copy, plain elementwise loop, plain read */
#define ACCEL_CEILING_GEMM (1u << 1)     /* vendor BLAS GEMM, every dtype it has */
#define ACCEL_CEILING_LAUNCH (1u << 2)   /* host time of a bare launch or call */
#define ACCEL_CEILING_TRANSFER (1u << 3) /* host<->device copies (devices not host memory) */
#define ACCEL_CEILING_ALL 0xfu

/* How to measure a device's ceilings. Zeroes mean "the backend's default". */
typedef struct accel_ceilings_options {
    uint32_t struct_size;
    uint32_t what;           /* ACCEL_CEILING_* bits */
    uint32_t repeats;        /* timed runs after one warm-up; the median is kept */
    uint32_t reserved0;
    uint64_t copy_bytes;     /* bytes of each array of copy, loop and read */
    uint64_t gemm_n;         /* GEMM of n x n x n */
    uint64_t transfer_bytes; /* bytes of each host<->device copy */
    uint64_t reserved[6];
} accel_ceilings_options;

/* A device's ceilings, measured with the vendor's own calls (memcpy,
 * cudaMemcpy, OpenBLAS, cuBLAS, a plain loop or kernel), never through
 * accel's op path. Rates are medians; 0 means "not measured here".
 * Bandwidths count bytes read plus bytes written, in 1e9 bytes per second. */
typedef struct accel_ceilings {
    uint32_t struct_size;
    uint32_t reserved0;
    double copy_gbs;         /* device-to-device copy (memcpy, cudaMemcpyAsync D2D) */
    double loop_gbs;         /* a plain c[i] = a[i] + b[i] f32 loop or kernel */
    double read_gbs;         /* a plain f32 sum loop or kernel (bytes read only) */
    double gemm_tflops[8];   /* indexed by accel_dtype: f32, f64, f16, bf16 */
    double gemm_tf32_tflops; /* f32 GEMM on TF32 tensor cores */
    double launch_us;        /* host time of one bare kernel launch / function call */
    double h2d_pinned_gbs, d2h_pinned_gbs;     /* async copies from/to page-locked memory */
    double h2d_pageable_gbs, d2h_pageable_gbs; /* plain blocking copies from/to malloc memory */
    uint64_t copy_bytes, gemm_n, transfer_bytes; /* the sizes actually used */
    char copy_method[48]; /* how copy_gbs was measured, e.g. "memcpy, 2 threads" */
    char gemm_method[48]; /* e.g. "OpenBLAS 0.3.21 cblas_sgemm/dgemm" */
    uint64_t reserved[8];
} accel_ceilings;

#ifdef __cplusplus
}
#endif
#endif /* ACCEL_TYPES_H */
