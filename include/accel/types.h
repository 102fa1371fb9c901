/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
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
#define ACCEL_STATUS_LIST(X)                                                                       \
    X(ACCEL_SUCCESS, 0, "success")                                                                 \
    X(ACCEL_ERROR_INVALID_ARGUMENT, 1, "an argument is invalid")                                   \
    X(ACCEL_ERROR_INVALID_HANDLE, 2, "a handle is NULL, released or of the wrong type")            \
    X(ACCEL_ERROR_OUT_OF_RANGE, 3, "a range lies outside its buffer or overflows")                 \
    X(ACCEL_ERROR_DTYPE_MISMATCH, 4, "a dtype is unknown or does not match")                       \
    X(ACCEL_ERROR_SHAPE_MISMATCH, 5, "element counts or matrix shapes do not agree")               \
    X(ACCEL_ERROR_DEVICE_MISMATCH, 6, "operands live on different devices")                        \
    X(ACCEL_ERROR_OUT_OF_HOST_MEMORY, 7, "out of host memory")                                     \
    X(ACCEL_ERROR_OUT_OF_DEVICE_MEMORY, 8, "out of device memory")                                 \
    X(ACCEL_ERROR_UNSUPPORTED, 9, "the operation or dtype is not supported here")                  \
    X(ACCEL_ERROR_NOT_FOUND, 10, "no such device, backend, file or key")                           \
    X(ACCEL_ERROR_PLUGIN_LOAD, 11, "a backend plugin could not be loaded")                         \
    X(ACCEL_ERROR_INCOMPATIBLE_ABI, 12, "a backend plugin was built for another ABI")              \
    X(ACCEL_ERROR_CONFIG, 13, "the configuration is malformed or inconsistent")                    \
    X(ACCEL_ERROR_DEVICE, 14, "the device or its driver reported an error")                        \
    X(ACCEL_ERROR_MISMATCH, 15, "a result disagrees with its reference")                           \
    X(ACCEL_ERROR_UNAVAILABLE, 16, "the backend has no usable device or driver")                   \
    X(ACCEL_ERROR_IO, 17, "a file could not be read or written, or is malformed")                  \
    X(ACCEL_ERROR_INTERNAL, 18, "internal error (a bug in accel)")                                 \
    X(ACCEL_ERROR_COMPILE, 19, "a user kernel failed to compile")                                  \
    X(ACCEL_ERROR_COMMUNICATION, 20, "a collective or message between processes failed")           \
    X(ACCEL_ERROR_KERNEL_FAULT, 21,                                                                \
      "a user kernel faulted on the CPU (division by zero, bad address, trap)")                    \
    X(ACCEL_ERROR_LINALG, 22,                                                                      \
      "a linear-algebra routine failed on the values (singular, not positive definite or not "     \
      "converged)")

typedef enum accel_status {
#define ACCEL_X_ENUM(name, value, msg) name = value,
    ACCEL_STATUS_LIST(ACCEL_X_ENUM)
#undef ACCEL_X_ENUM
} accel_status;

/* Element types: the one table of dtype facts. The value is also the bit
 * index in accel_device_properties.dtypes. The core (accel_dtype_size,
 * accel_dtype_name, accel_dtype_kind) and the plugins (which do not link the
 * core) expand this list; nothing keeps its own copy.
 *
 * X(ENUM, VALUE, name, SIZE, KIND)
 * - ENUM, VALUE: ACCEL_<ENUM> = VALUE (append-only; a value keeps its meaning).
 * - name: accel_dtype_name's short name.
 * - SIZE: bytes per element. KIND: ACCEL_DTYPE_KIND_<KIND>.
 * What each dtype is used for: f32, f64 by every op; f16, bf16 by GEMM, copy
 * and transpose, user kernels, and the array functions (arithmetic in
 * float, rounded on store); integers, bool and complex by user kernels and
 * the array functions (accel/array.h). bool is one byte, 0 or 1. Complex
 * values are two floats of the half size, real part first (C99 and NumPy
 * layout). */
#define ACCEL_DTYPE_LIST(X)                                                                        \
    X(F32, 1, "f32", 4, FLOAT)       /* IEEE 754 binary32 */                                       \
    X(F64, 2, "f64", 8, FLOAT)       /* IEEE 754 binary64 */                                       \
    X(F16, 3, "f16", 2, FLOAT)       /* IEEE 754 binary16 */                                       \
    X(BF16, 4, "bf16", 2, FLOAT)     /* bfloat16: binary32's top half */                           \
    X(I32, 5, "i32", 4, INT)         /* int32_t */                                                 \
    X(I64, 6, "i64", 8, INT)         /* int64_t */                                                 \
    X(U8, 7, "u8", 1, UINT)          /* uint8_t */                                                 \
    X(BOOL, 8, "bool", 1, BOOL)      /* one byte, 0 or 1 */                                        \
    X(I8, 9, "i8", 1, INT)           /* int8_t */                                                  \
    X(I16, 10, "i16", 2, INT)        /* int16_t */                                                 \
    X(U16, 11, "u16", 2, UINT)       /* uint16_t */                                                \
    X(U32, 12, "u32", 4, UINT)       /* uint32_t */                                                \
    X(U64, 13, "u64", 8, UINT)       /* uint64_t */                                                \
    X(C64, 14, "c64", 8, COMPLEX)    /* complex64: two binary32, real first */                     \
    X(C128, 15, "c128", 16, COMPLEX) /* complex128: two binary64, real first */

typedef enum accel_dtype {
    ACCEL_DTYPE_INVALID = 0,
#define ACCEL_X_DTYPE_ENUM(E, V, ...) ACCEL_##E = V,
    ACCEL_DTYPE_LIST(ACCEL_X_DTYPE_ENUM)
#undef ACCEL_X_DTYPE_ENUM
        ACCEL_DTYPE_COUNT_ = 16 /* one past the largest value */
} accel_dtype;

/* What kind of number a dtype holds (the ACCEL_DTYPE_LIST KIND column;
 * accel_dtype_kind). The Array API's promotion works by kind. */
typedef enum accel_dtype_kind {
    ACCEL_DTYPE_KIND_INVALID = 0,
    ACCEL_DTYPE_KIND_BOOL = 1,
    ACCEL_DTYPE_KIND_INT = 2,  /* signed integers */
    ACCEL_DTYPE_KIND_UINT = 3, /* unsigned integers */
    ACCEL_DTYPE_KIND_FLOAT = 4,
    ACCEL_DTYPE_KIND_COMPLEX = 5
} accel_dtype_kind;

/* What an op is, for the op table below. Values are append-only; kinds from
 * 10 on are left for the op families still to come (user kernel launches,
 * graphs and fused ops). */
typedef enum accel_op_kind {
    ACCEL_OP_KIND_FILL = 1,      /* out = a scalar                              */
    ACCEL_OP_KIND_COPY = 2,      /* out = x (a data move)                       */
    ACCEL_OP_KIND_BINARY = 3,    /* out = f(a, b), elementwise                  */
    ACCEL_OP_KIND_UNARY = 4,     /* out = f(x), elementwise                     */
    ACCEL_OP_KIND_AXPBY = 5,     /* axpby and scale: scalar-weighted sums       */
    ACCEL_OP_KIND_REDUCTION = 6, /* out[0] = a reduction of x (or of x*y)       */
    ACCEL_OP_KIND_GEMM = 7,      /* C = alpha*op(A)*op(B) + beta*C              */
    ACCEL_OP_KIND_RANDOM = 8,    /* out = Philox4x32-10 numbers                 */
    ACCEL_OP_KIND_TRANSPOSE = 9, /* out = x^T, 2-D, strided                     */
    ACCEL_OP_KIND_SORT = 10,     /* out = x's segments sorted (stable)          */
    ACCEL_OP_KIND_LINALG = 11,   /* LAPACK factorizations and solvers, batched  */
    ACCEL_OP_KIND_FFT = 12,      /* out = the DFT of x's segments               */
    ACCEL_OP_KIND_SCAN = 13      /* out = the running sums of x's segments      */
} accel_op_kind;

/* How far two backends' results of an op may be apart (accel_tolerance_compare;
 * the bounds and their sources are in accel/verify.h). N is the row's TOL_N. */
typedef enum accel_tolerance_rule {
    ACCEL_TOLERANCE_EXACT = 1,    /* bit-identical values                         */
    ACCEL_TOLERANCE_ULPS = 2,     /* N ulp of the reference value                 */
    ACCEL_TOLERANCE_TERMS = 3,    /* N ulp of |alpha*x| + |beta*y|, the terms'
                                     magnitude (cancellation-safe)                */
    ACCEL_TOLERANCE_NORMAL = 4,   /* N ulp + 64*eps*stddev (Box-Muller)           */
    ACCEL_TOLERANCE_SUM = 5,      /* N*n*eps*sum|x_i| (dot: sum|x_i*y_i|)         */
    ACCEL_TOLERANCE_GEMM = 6,     /* N*(k+2)*eps*(|alpha||A||B| + |beta||C|)_ij   */
    ACCEL_TOLERANCE_BACKWARD = 7, /* backward error <= N*n*eps (per matrix; the
                                    residual of the factorization or solve)     */
    ACCEL_TOLERANCE_FFT = 8,      /* per transformed line, in the L2 norm:
                                   N*u*(log2(n) + p)*||expected||, p the
                                   largest prime factor of n if in 7..61      */
    ACCEL_TOLERANCE_PREFIX = 9    /* element j of a line (a running sum): 1 ulp
                                   + N*(j+1)*u64*sum_{t<=j}|x_t| (float64 sums
                                   in any order, rounded once); integers exact */
} accel_tolerance_rule;

/* How bytes moved and floating-point operations of one op are counted (the
 * trace's and the benchmark's cost model). RD, WR, FL are the row's columns;
 * es is the element size; n the element count of operand 0. */
typedef enum accel_cost_model {
    ACCEL_COST_ELEMENTWISE = 1, /* bytes (RD + WR)*n*es, flops FL*n            */
    ACCEL_COST_REDUCTION = 2,   /* bytes (RD*n + WR)*es, flops FL*n            */
    ACCEL_COST_GEMM = 3,        /* bytes of A, B, C (C read when beta != 0) and
                                   C written, per batch; flops FL*m*n*k*batch  */
    ACCEL_COST_LINALG = 4       /* bytes of every operand once; flops (the
                                   leading term) FL*m*n*min(m,n)/3*batch       */
} accel_cost_model;

/* Dtype sets of the op table (bit 1u << accel_dtype, as device properties). */
#define ACCEL_DTYPES_FLOAT ((1u << 1) | (1u << 2))                       /* f32, f64 */
#define ACCEL_DTYPES_ANY ((1u << 1) | (1u << 2) | (1u << 3) | (1u << 4)) /* and f16, bf16 */
/* Every real dtype: the floats, the integers and bool (values 1 to 13). */
#define ACCEL_DTYPES_REAL ((1u << 14) - 2u)
/* complex64 and complex128 (the FFT ops' dtype: their precision). */
#define ACCEL_DTYPES_COMPLEX ((1u << 14) | (1u << 15))
/* The LINALG ops' dtypes: f32, f64, c64, c128 (LAPACK's s, d, c, z). */
#define ACCEL_DTYPES_LINALG (ACCEL_DTYPES_FLOAT | ACCEL_DTYPES_COMPLEX)
/* The SCAN ops' dtypes: f32, f64, the integers and bool (bool only with
 * ACCEL_OP_FLAG_SCAN_WIDE, backend.h); not f16, bf16. */
#define ACCEL_DTYPES_SCAN (ACCEL_DTYPES_REAL & ~((1u << 3) | (1u << 4)))

/* The op table: every fact about an op, in one place. The core (validation,
 * names, tolerance, cost, fallback, verify), the tools and the backends read
 * it; accel_op_info (accel.h) returns a row as a struct.
 *
 * X(ENUM, VALUE, name, KIND, OPERANDS, READS_OUT, DTYPES, TOL, TOL_N, COST, RD, WR, FL,
 *   NUMPY, F32, F64)
 * - ENUM, VALUE: ACCEL_OP_<ENUM> = VALUE (append-only, grouped by tens).
 * - name: accel_op_name's short name, and the public function accel_<name>
 *   for BINARY and UNARY ops (generated from this list).
 * - KIND: ACCEL_OP_KIND_<KIND>. OPERANDS: operands of accel_op_desc, the output
 *   last. READS_OUT: 1 when the output's old contents are read (AXPBY's y,
 *   GEMM's C, the gaps of a strided transpose output).
 * - DTYPES: the dtypes the op takes. TOL, TOL_N: ACCEL_TOLERANCE_<TOL> with its
 *   N (ulps, or the constant c of a sum or GEMM bound). COST, RD, WR, FL:
 *   ACCEL_COST_<COST> with reads, writes and flops per element.
 * - NUMPY: the NumPy (or SciPy) names that `accel run` takes, '|'-separated;
 *   NULL: not a command of `accel run`.
 * - F32, F64: for elementwise ops, the C expression of one element (libm
 *   names of <math.h>) in the variables a, b (binary inputs), x (the input),
 *   y (AXPBY's old output), alpha, beta (scalars[0], scalars[1]) and value
 *   (FILL's scalars[0]); NULL otherwise. They state the math; a backend may
 *   evaluate it more accurately (the CPU backend rounds f32 transcendentals
 *   once from double). */
#define ACCEL_OP_NAN_MAX "isnan(a) ? a : isnan(b) ? b : a > b ? a : b > a ? b : signbit(a) ? b : a"
#define ACCEL_OP_NAN_MIN "isnan(a) ? a : isnan(b) ? b : a < b ? a : b < a ? b : signbit(a) ? a : b"
#define ACCEL_OP_LIST(X)                                                                           \
    X(FILL, 1, fill, FILL, 1, 0, ACCEL_DTYPES_FLOAT, EXACT, 0, ELEMENTWISE, 0, 1, 0, NULL,         \
      "value", "value")                                                                            \
    X(COPY, 2, copy, COPY, 2, 0, ACCEL_DTYPES_ANY, EXACT, 0, ELEMENTWISE, 1, 1, 0, NULL, "x", "x") \
    X(ADD, 10, add, BINARY, 3, 0, ACCEL_DTYPES_FLOAT, ULPS, 1, ELEMENTWISE, 2, 1, 1, "add",        \
      "a + b", "a + b")                                                                            \
    X(SUB, 11, sub, BINARY, 3, 0, ACCEL_DTYPES_FLOAT, ULPS, 1, ELEMENTWISE, 2, 1, 1, "subtract",   \
      "a - b", "a - b")                                                                            \
    X(MUL, 12, mul, BINARY, 3, 0, ACCEL_DTYPES_FLOAT, ULPS, 1, ELEMENTWISE, 2, 1, 1, "multiply",   \
      "a * b", "a * b")                                                                            \
    X(DIV, 13, div, BINARY, 3, 0, ACCEL_DTYPES_FLOAT, ULPS, 1, ELEMENTWISE, 2, 1, 1, "divide",     \
      "a / b", "a / b")                                                                            \
    /* MAX, MIN, REDUCE_MAX, REDUCE_MIN: IEEE 754-2019 maximum/minimum (§9.6):                    \
     * NaN if any operand is NaN, and -0 < +0, so max(-0, +0) = +0 and                             \
     * min(-0, +0) = -0 in either order (NumPy is order-dependent there). */                       \
    X(MAX, 14, max, BINARY, 3, 0, ACCEL_DTYPES_FLOAT, ULPS, 1, ELEMENTWISE, 2, 1, 1, "maximum",    \
      ACCEL_OP_NAN_MAX, ACCEL_OP_NAN_MAX)                                                          \
    X(MIN, 15, min, BINARY, 3, 0, ACCEL_DTYPES_FLOAT, ULPS, 1, ELEMENTWISE, 2, 1, 1, "minimum",    \
      ACCEL_OP_NAN_MIN, ACCEL_OP_NAN_MIN)                                                          \
    /* AXPBY: operands x, y; y is read and written. */                                             \
    X(AXPBY, 20, axpby, AXPBY, 2, 1, ACCEL_DTYPES_FLOAT, TERMS, 4, ELEMENTWISE, 2, 1, 3, NULL,     \
      "alpha * x + beta * y", "alpha * x + beta * y")                                              \
    X(SCALE, 21, scale, AXPBY, 2, 0, ACCEL_DTYPES_FLOAT, TERMS, 1, ELEMENTWISE, 1, 1, 1, NULL,     \
      "alpha * x", "alpha * x")                                                                    \
    X(TRANSPOSE, 22, transpose, TRANSPOSE, 2, 1, ACCEL_DTYPES_ANY, EXACT, 0, ELEMENTWISE, 1, 1, 0, \
      "transpose", NULL, NULL)                                                                     \
    X(NEG, 30, neg, UNARY, 2, 0, ACCEL_DTYPES_FLOAT, ULPS, 1, ELEMENTWISE, 1, 1, 1, "negative",    \
      "-x", "-x")                                                                                  \
    X(ABS, 31, abs, UNARY, 2, 0, ACCEL_DTYPES_FLOAT, ULPS, 1, ELEMENTWISE, 1, 1, 1, "abs",         \
      "fabsf(x)", "fabs(x)")                                                                       \
    X(SQRT, 32, sqrt, UNARY, 2, 0, ACCEL_DTYPES_FLOAT, ULPS, 1, ELEMENTWISE, 1, 1, 1, "sqrt",      \
      "sqrtf(x)", "sqrt(x)")                                                                       \
    X(EXP, 33, exp, UNARY, 2, 0, ACCEL_DTYPES_FLOAT, ULPS, 4, ELEMENTWISE, 1, 1, 1, "exp",         \
      "expf(x)", "exp(x)")                                                                         \
    X(LOG, 34, log, UNARY, 2, 0, ACCEL_DTYPES_FLOAT, ULPS, 4, ELEMENTWISE, 1, 1, 1, "log",         \
      "logf(x)", "log(x)")                                                                         \
    X(TANH, 35, tanh, UNARY, 2, 0, ACCEL_DTYPES_FLOAT, ULPS, 4, ELEMENTWISE, 1, 1, 1, "tanh",      \
      "tanhf(x)", "tanh(x)")                                                                       \
    /* RELU: NaN stays NaN; -0 gives +0. */                                                        \
    X(RELU, 36, relu, UNARY, 2, 0, ACCEL_DTYPES_FLOAT, ULPS, 1, ELEMENTWISE, 1, 1, 1, "relu",      \
      "x <= 0.0f ? 0.0f : x", "x <= 0.0 ? 0.0 : x")                                                \
    X(SIN, 37, sin, UNARY, 2, 0, ACCEL_DTYPES_FLOAT, ULPS, 4, ELEMENTWISE, 1, 1, 1, "sin",         \
      "sinf(x)", "sin(x)")                                                                         \
    X(COS, 38, cos, UNARY, 2, 0, ACCEL_DTYPES_FLOAT, ULPS, 4, ELEMENTWISE, 1, 1, 1, "cos",         \
      "cosf(x)", "cos(x)")                                                                         \
    /* SIGMOID: the logistic function, SciPy's expit. */                                           \
    X(SIGMOID, 39, sigmoid, UNARY, 2, 0, ACCEL_DTYPES_FLOAT, ULPS, 4, ELEMENTWISE, 1, 1, 3,        \
      "expit|sigmoid", "1.0f / (1.0f + expf(-x))", "1.0 / (1.0 + exp(-x))")                        \
    X(SUM, 50, sum, REDUCTION, 2, 0, ACCEL_DTYPES_FLOAT, SUM, 2, REDUCTION, 1, 1, 1, "sum", NULL,  \
      NULL)                                                                                        \
    X(REDUCE_MAX, 51, reduce_max, REDUCTION, 2, 0, ACCEL_DTYPES_FLOAT, EXACT, 0, REDUCTION, 1, 1,  \
      1, "max", NULL, NULL)                                                                        \
    X(REDUCE_MIN, 52, reduce_min, REDUCTION, 2, 0, ACCEL_DTYPES_FLOAT, EXACT, 0, REDUCTION, 1, 1,  \
      1, "min", NULL, NULL)                                                                        \
    X(DOT, 53, dot, REDUCTION, 3, 0, ACCEL_DTYPES_FLOAT, SUM, 2, REDUCTION, 2, 1, 2, "dot", NULL,  \
      NULL)                                                                                        \
    /* GEMM: operands A, B, C; ranges cover every batch. */                                        \
    X(GEMM, 60, gemm, GEMM, 3, 1, ACCEL_DTYPES_ANY, GEMM, 2, GEMM, 0, 0, 2, "matmul", NULL, NULL)  \
    X(RANDOM_UNIFORM, 70, random_uniform, RANDOM, 1, 0, ACCEL_DTYPES_FLOAT, EXACT, 0, ELEMENTWISE, \
      0, 1, 0, NULL, NULL, NULL)                                                                   \
    X(RANDOM_NORMAL, 71, random_normal, RANDOM, 1, 0, ACCEL_DTYPES_FLOAT, NORMAL, 4, ELEMENTWISE,  \
      0, 1, 0, NULL, NULL, NULL)                                                                   \
    /* SORT: operands x, out (out may be x exactly); segments as accel_op_desc says. */            \
    X(SORT, 90, sort, SORT, 2, 0, ACCEL_DTYPES_REAL, EXACT, 0, ELEMENTWISE, 1, 1, 0, NULL, NULL,   \
      NULL)                                                                                        \
    /* ARGSORT: operands x (of DTYPE), out (int64 whatever DTYPE is). */                           \
    X(ARGSORT, 91, argsort, SORT, 2, 0, ACCEL_DTYPES_REAL, EXACT, 0, ELEMENTWISE, 1, 1, 0, NULL,   \
      NULL, NULL)                                                                                  \
    /* LINALG: LAPACK's routines on batches of column-major matrices; operands and the             \
     * output block's layout as accel_op_desc says (backend.h). TOL_N: the c of c*n*eps. */        \
    X(CHOLESKY, 100, cholesky, LINALG, 2, 0, ACCEL_DTYPES_LINALG, BACKWARD, 4, LINALG, 0, 0, 1,    \
      NULL, NULL, NULL)                                                                            \
    X(SOLVE, 101, solve, LINALG, 3, 0, ACCEL_DTYPES_LINALG, BACKWARD, 8, LINALG, 0, 0, 2, NULL,    \
      NULL, NULL)                                                                                  \
    X(SLOGDET, 102, slogdet, LINALG, 2, 0, ACCEL_DTYPES_LINALG, BACKWARD, 8, LINALG, 0, 0, 2,      \
      NULL, NULL, NULL)                                                                            \
    X(QR, 103, qr, LINALG, 2, 0, ACCEL_DTYPES_LINALG, BACKWARD, 8, LINALG, 0, 0, 4, NULL, NULL,    \
      NULL)                                                                                        \
    X(EIGH, 104, eigh, LINALG, 2, 0, ACCEL_DTYPES_LINALG, BACKWARD, 16, LINALG, 0, 0, 27, NULL,    \
      NULL, NULL)                                                                                  \
    X(SVD, 105, svd, LINALG, 2, 0, ACCEL_DTYPES_LINALG, BACKWARD, 16, LINALG, 0, 0, 36, NULL,      \
      NULL, NULL)                                                                                  \
    /* FFT, RFFT, IRFFT: operands x, out (never overlapping); lines as accel_op_desc says;         \
     * DTYPE is the complex dtype of the precision (RFFT's x, IRFFT's out: its real half). */      \
    X(FFT, 110, fft, FFT, 2, 0, ACCEL_DTYPES_COMPLEX, FFT, 4, ELEMENTWISE, 1, 1, 0, NULL, NULL,    \
      NULL)                                                                                        \
    X(RFFT, 111, rfft, FFT, 2, 0, ACCEL_DTYPES_COMPLEX, FFT, 4, ELEMENTWISE, 1, 1, 0, NULL, NULL,  \
      NULL)                                                                                        \
    X(IRFFT, 112, irfft, FFT, 2, 0, ACCEL_DTYPES_COMPLEX, FFT, 4, ELEMENTWISE, 1, 1, 0, NULL,      \
      NULL, NULL)                                                                                  \
    /* CUMSUM: operands x, out (never overlapping); lines as accel_op_desc says. */                \
    X(CUMSUM, 120, cumsum, SCAN, 2, 0, ACCEL_DTYPES_SCAN, PREFIX, 2, ELEMENTWISE, 1, 1, 1, NULL,   \
      NULL, NULL)

/* Op codes carried by accel_op_desc: the op table's ENUM and VALUE columns. */
typedef enum accel_op_code {
    ACCEL_OP_INVALID = 0,
#define ACCEL_X_OP_ENUM(E, V, ...) ACCEL_OP_##E = V,
    ACCEL_OP_LIST(ACCEL_X_OP_ENUM)
#undef ACCEL_X_OP_ENUM
    /* A user kernel launch (accel/kernel.h): desc->kernel carries it. Not a
     * row of the table: its operands, dtypes and tolerance are per kernel
     * (the core's kernel_check.c verifies and falls back for it). */
    ACCEL_OP_KERNEL = 80
} accel_op_code;

/* Op codes are below this (the core keeps per-op counters in such slots). */
#define ACCEL_OP_CODE_LIMIT 128

/* Collectives between processes, carried by accel_collective_desc
 * (accel/collective.h, backend.h); libaccel_mpi's accel_comm_* calls. */
typedef enum accel_collective_kind {
    ACCEL_COLLECTIVE_ALLREDUCE = 1,
    ACCEL_COLLECTIVE_REDUCE = 2,
    ACCEL_COLLECTIVE_BROADCAST = 3,
    ACCEL_COLLECTIVE_ALLGATHER = 4,
    ACCEL_COLLECTIVE_REDUCE_SCATTER = 5,
    ACCEL_COLLECTIVE_SEND = 6,
    ACCEL_COLLECTIVE_RECV = 7
} accel_collective_kind;

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
    char driver_version[32]; /* e.g. "13.0"; "" when not applicable */
    char runtime_version[32];
    uint64_t reserved[8];
} accel_device_properties;

/* What to measure in accel_device_measure_ceilings (accel_ceilings_options.what). */
#define ACCEL_CEILING_COPY (1u << 0)     /* copy, plain elementwise loop, plain read */
#define ACCEL_CEILING_GEMM (1u << 1)     /* vendor BLAS GEMM, every dtype it has */
#define ACCEL_CEILING_LAUNCH (1u << 2)   /* host time of a bare launch or call */
#define ACCEL_CEILING_TRANSFER (1u << 3) /* host<->device copies (devices not host memory) */
#define ACCEL_CEILING_GRAPH (1u << 4)    /* a vendor graph of 100 dependent small adds */
#define ACCEL_CEILING_ALL 0x1fu

/* How to measure a device's ceilings. Zeroes mean "the backend's default". */
typedef struct accel_ceilings_options {
    uint32_t struct_size;
    uint32_t what;    /* ACCEL_CEILING_* bits; 0: all of them */
    uint32_t repeats; /* timed runs after one warm-up; the median is kept */
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
    double copy_gbs;                       /* device-to-device copy (memcpy, cudaMemcpyAsync D2D) */
    double loop_gbs;                       /* a plain c[i] = a[i] + b[i] f32 loop or kernel */
    double read_gbs;                       /* a plain f32 sum loop or kernel (bytes read only) */
    double gemm_tflops[8];                 /* indexed by accel_dtype ([ACCEL_F32] = [1], ...) */
    double gemm_tf32_tflops;               /* f32 GEMM on TF32 tensor cores */
    double launch_us;                      /* host time of one bare kernel launch / function call */
    double h2d_pinned_gbs, d2h_pinned_gbs; /* async copies from/to page-locked memory */
    double h2d_pageable_gbs, d2h_pageable_gbs;   /* plain blocking copies from/to malloc memory */
    uint64_t copy_bytes, gemm_n, transfer_bytes; /* the sizes actually used */
    char copy_method[48]; /* how copy_gbs was measured, e.g. "memcpy, 2 threads" */
    char gemm_method[48]; /* e.g. "OpenBLAS 0.3.21 cblas_sgemm/dgemm" */
    /* Added after the first version (in what was reserved[0]): host time of
     * launching the vendor's own graph of 100 dependent 1024-element f32 adds
     * (a plain add kernel per node, captured as a CUDA graph) and waiting for
     * it, end to end, the median of `repeats` runs after a warm-up; 0 where
     * the backend does not measure it (the CPU backend: its graph replay is
     * compared with eager calls instead). */
    double graph_us;
    uint64_t reserved[7];
} accel_ceilings;

/* Log levels, lowest first (accel_set_log_level, the log callback, the
 * plugins' host->log). */
typedef enum accel_log_level {
    ACCEL_LOG_DEBUG = 0,
    ACCEL_LOG_INFO = 1,
    ACCEL_LOG_WARN = 2,
    ACCEL_LOG_ERROR = 3,
    ACCEL_LOG_OFF = 4
} accel_log_level;

#ifdef __cplusplus
}
#endif
#endif /* ACCEL_TYPES_H */
