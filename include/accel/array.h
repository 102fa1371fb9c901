/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* accel/array.h — N-d strided arrays on a device: the view (DLPack's DLTensor
 * in spirit), dtype promotion by the Array API standard 2023.12, metadata-only
 * views, and the standard's elementwise functions and reductions on views.
 *
 * - A view (accel_array) describes elements of one buffer: a byte offset to
 *   element (0, ..., 0), a dtype, ndim <= ACCEL_ARRAY_MAX_NDIM, a shape and
 *   strides in elements (0 repeats an element: a broadcast dimension;
 *   negative walks backwards: a reversed one). Row-major means the last
 *   stride is 1. Views are plain structs the caller owns; they hold no
 *   reference on the buffer, which must outlive the work that uses it.
 * - Functions that take views validate them (accel_array_validate) before
 *   anything is enqueued; on any error the output is untouched and
 *   accel_last_error() names the function, the argument and the cause.
 * - Operands broadcast (accel_broadcast_shapes): inputs broadcast to the
 *   output's shape, which must be the broadcast shape of the inputs and the
 *   output (NumPy's out=; an output never broadcasts), and the output's
 *   dtype is the function's result dtype exactly (no implicit cast on
 *   store: use accel_array_astype).
 * - Aliasing: an output may be exactly an input (same memory, byte offset,
 *   dtype, shape and strides after broadcasting), for in-place work; an
 *   output whose elements' byte range meets an input's in any other way is
 *   refused with ACCEL_ERROR_INVALID_ARGUMENT. Two buffers are the same
 *   memory where one wraps memory of the other (accel_buffer_wrap of its
 *   native address, as from_dlpack of an accel array does): their native
 *   addresses decide, not their handles (a bounds test, as NumPy's
 *   may_share_memory: interleaved views that share no element are refused
 *   too, copy one of them first). A view that is written (an output, or x
 *   of the scatters) must not name one element twice: stride 0 on an axis
 *   of extent over 1 is refused with ACCEL_ERROR_INVALID_ARGUMENT (a
 *   broadcast view is read-only, as NumPy's broadcast_to).
 * - The kernels are generated from one table row per function (see
 *   core/arrays/) and compiled through the user-kernel machinery (NVRTC on
 *   CUDA, cc/tcc on the CPU; accel/kernel.h), cached like user kernels, and
 *   submitted through the op path of every op: fallback, verify mode, the
 *   trace and the placement report apply. Asynchronous like every op.
 * - Thread safety: every function may be called from any thread.
 */
#ifndef ACCEL_ARRAY_H
#define ACCEL_ARRAY_H

#include "accel/accel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most dimensions a view has (DLPack allows any; NumPy 2 allows 64). */
#define ACCEL_ARRAY_MAX_NDIM 32

/* A strided view of a buffer. The caller's; holds no reference. */
typedef struct accel_array {
    uint32_t struct_size;
    accel_dtype dtype;
    accel_buffer *buffer;
    uint64_t offset; /* bytes from the buffer's start to element (0, ..., 0);
                        a multiple of the dtype's size */
    uint32_t ndim;   /* 0: a single element (a 0-d array) */
    uint32_t reserved0;
    int64_t shape[ACCEL_ARRAY_MAX_NDIM];   /* elements per dimension, >= 0 */
    int64_t strides[ACCEL_ARRAY_MAX_NDIM]; /* elements; 0 broadcasts, < 0 reverses */
} accel_array;

/* ------------------------------------------------------------------ views */

/* Fill *a as a row-major contiguous view of buf: byte offset 0, dtype,
 * ndim dimensions of shape[ndim] (copied), strides from the last axis (1)
 * outward. buf is not checked here (accel_array_validate does that).
 * Errors: ACCEL_ERROR_INVALID_ARGUMENT (a NULL, ndim > ACCEL_ARRAY_MAX_NDIM,
 * shape NULL with ndim > 0, a negative size), ACCEL_ERROR_DTYPE_MISMATCH
 * (unknown dtype), ACCEL_ERROR_OUT_OF_RANGE (the element count overflows
 * int64). *a is untouched on error. */
ACCEL_API accel_status accel_array_init(accel_array *a, accel_buffer *buf, accel_dtype dtype,
                                        uint32_t ndim, const int64_t *shape);

/* Check a view: struct_size set, a known dtype, ndim <= ACCEL_ARRAY_MAX_NDIM,
 * sizes >= 0, a live buffer, the byte offset a multiple of the element size,
 * no int64 overflow of shape x strides, and every element inside the
 * buffer (a view with no elements needs only its offset inside). name
 * (NULL: "a") names the view in the message ("accel_array_validate: x:
 * elements reach [0, 24] ... but the buffer holds 24"). Every function of
 * this header runs these checks on each view it takes.
 * Errors: ACCEL_ERROR_INVALID_ARGUMENT, ACCEL_ERROR_INVALID_HANDLE (buffer),
 * ACCEL_ERROR_DTYPE_MISMATCH, ACCEL_ERROR_OUT_OF_RANGE. */
ACCEL_API accel_status accel_array_validate(const accel_array *a, const char *name);

/* The broadcast shape of count views (NumPy's and the standard's rule:
 * align trailing axes; sizes must be equal or 1; missing leading axes count
 * as 1) into *out_ndim and out_shape[ACCEL_ARRAY_MAX_NDIM]. count <= 64;
 * count 0 gives ndim 0. Errors: ACCEL_ERROR_SHAPE_MISMATCH (naming the
 * array, both shapes and the axis), the checks of accel_array_validate
 * ("arrays[i]"), ACCEL_ERROR_INVALID_ARGUMENT (NULL pointers). */
ACCEL_API accel_status accel_broadcast_shapes(size_t count, const accel_array *const *arrays,
                                              uint32_t *out_ndim, int64_t *out_shape);

/* Views from views: metadata only, nothing is enqueued, the buffer is
 * shared. Each validates x first; out may be x itself; on error *out is
 * untouched. axes_mask: bit i names axis i. */

/* Python's x[start[0]:stop[0]:step[0], ...]: per axis, start and stop
 * follow slice.indices (negative counts from the end; clamped; INT64_MAX
 * and INT64_MIN stand for an omitted bound), step != 0 (negative walks
 * backwards). Arrays of x->ndim entries. Errors: ACCEL_ERROR_INVALID_ARGUMENT
 * (step 0, NULL), ACCEL_ERROR_OUT_OF_RANGE (stride x step overflows). */
ACCEL_API accel_status accel_array_slice(const accel_array *x, const int64_t *start,
                                         const int64_t *stop, const int64_t *step,
                                         accel_array *out);
/* out axis i = x axis axes[i] (a permutation of 0..ndim-1; negative counts
 * from the end). Errors: ACCEL_ERROR_INVALID_ARGUMENT (out of range, repeated). */
ACCEL_API accel_status accel_array_permute_dims(const accel_array *x, const int32_t *axes,
                                                accel_array *out);
/* A new axis of size 1 at position axis in [-ndim-1, ndim].
 * Errors: ACCEL_ERROR_INVALID_ARGUMENT (axis out of range, ndim full). */
ACCEL_API accel_status accel_array_expand_dims(const accel_array *x, int32_t axis,
                                               accel_array *out);
/* Drop the axes of axes_mask, each of size 1.
 * Errors: ACCEL_ERROR_INVALID_ARGUMENT (an axis past ndim or not of size 1). */
ACCEL_API accel_status accel_array_squeeze(const accel_array *x, uint64_t axes_mask,
                                           accel_array *out);
/* x broadcast to shape[ndim] (new leading axes and size-1 axes get stride 0).
 * Errors: ACCEL_ERROR_SHAPE_MISMATCH (x does not broadcast to it),
 * ACCEL_ERROR_INVALID_ARGUMENT (ndim below x's or too large, a negative size). */
ACCEL_API accel_status accel_array_broadcast_to(const accel_array *x, uint32_t ndim,
                                                const int64_t *shape, accel_array *out);
/* Reverse the axes of axes_mask (the offset moves to their last element,
 * the stride changes sign). Errors: ACCEL_ERROR_INVALID_ARGUMENT. */
ACCEL_API accel_status accel_array_flip(const accel_array *x, uint64_t axes_mask, accel_array *out);
/* x viewed with shape[ndim] in row-major (C) order, one size may be -1
 * (inferred). A view when x's strides allow it (NumPy's
 * _attempt_nocopy_reshape test); otherwise ACCEL_ERROR_UNSUPPORTED with a
 * message saying a copy is needed (accel_array_copy into a contiguous
 * array, then reshape that). Errors: ACCEL_ERROR_SHAPE_MISMATCH (element
 * counts differ, -1 not inferable), ACCEL_ERROR_INVALID_ARGUMENT. */
ACCEL_API accel_status accel_array_reshape(const accel_array *x, uint32_t ndim,
                                           const int64_t *shape, accel_array *out);

/* ------------------------------------------------------------- functions */

/* The elementwise functions: X(ENUM, VALUE, name, ARITY). ACCEL_ARRAY_<ENUM>
 * = VALUE (append-only, grouped by tens); name is the Array API's. Which
 * dtype kinds each takes, its result dtype and its per-element expression
 * per kind are one row each of the core's table (core/arrays/table.c),
 * which accel_array_fn_info reports. */
#define ACCEL_ARRAY_FN_LIST(X)                                                                     \
    X(ADD, 1, "add", 2)                                                                            \
    X(SUBTRACT, 2, "subtract", 2)                                                                  \
    X(MULTIPLY, 3, "multiply", 2)                                                                  \
    X(DIVIDE, 4, "divide", 2)                                                                      \
    X(FLOOR_DIVIDE, 5, "floor_divide", 2)                                                          \
    X(REMAINDER, 6, "remainder", 2)                                                                \
    X(POW, 7, "pow", 2)                                                                            \
    X(NEGATIVE, 8, "negative", 1)                                                                  \
    X(POSITIVE, 9, "positive", 1)                                                                  \
    X(ABS, 10, "abs", 1)                                                                           \
    X(SQUARE, 11, "square", 1)                                                                     \
    X(SIGN, 12, "sign", 1)                                                                         \
    X(MAXIMUM, 13, "maximum", 2)                                                                   \
    X(MINIMUM, 14, "minimum", 2)                                                                   \
    X(COPYSIGN, 15, "copysign", 2)                                                                 \
    X(HYPOT, 16, "hypot", 2)                                                                       \
    X(LOGADDEXP, 17, "logaddexp", 2)                                                               \
    X(NEXTAFTER, 18, "nextafter", 2)                                                               \
    X(ATAN2, 19, "atan2", 2)                                                                       \
    X(EQUAL, 20, "equal", 2)                                                                       \
    X(NOT_EQUAL, 21, "not_equal", 2)                                                               \
    X(LESS, 22, "less", 2)                                                                         \
    X(LESS_EQUAL, 23, "less_equal", 2)                                                             \
    X(GREATER, 24, "greater", 2)                                                                   \
    X(GREATER_EQUAL, 25, "greater_equal", 2)                                                       \
    X(FMOD, 26, "fmod", 2)                                                                         \
    X(GCD, 27, "gcd", 2)                                                                           \
    X(LCM, 28, "lcm", 2)                                                                           \
    X(HEAVISIDE, 29, "heaviside", 2)                                                               \
    X(LOGICAL_AND, 30, "logical_and", 2)                                                           \
    X(LOGICAL_OR, 31, "logical_or", 2)                                                             \
    X(LOGICAL_XOR, 32, "logical_xor", 2)                                                           \
    X(LOGICAL_NOT, 33, "logical_not", 1)                                                           \
    X(BITWISE_AND, 40, "bitwise_and", 2)                                                           \
    X(BITWISE_OR, 41, "bitwise_or", 2)                                                             \
    X(BITWISE_XOR, 42, "bitwise_xor", 2)                                                           \
    X(BITWISE_INVERT, 43, "bitwise_invert", 1)                                                     \
    X(BITWISE_LEFT_SHIFT, 44, "bitwise_left_shift", 2)                                             \
    X(BITWISE_RIGHT_SHIFT, 45, "bitwise_right_shift", 2)                                           \
    X(FLOOR, 50, "floor", 1)                                                                       \
    X(CEIL, 51, "ceil", 1)                                                                         \
    X(TRUNC, 52, "trunc", 1)                                                                       \
    X(ROUND, 53, "round", 1)                                                                       \
    X(EXP, 60, "exp", 1)                                                                           \
    X(EXPM1, 61, "expm1", 1)                                                                       \
    X(LOG, 62, "log", 1)                                                                           \
    X(LOG1P, 63, "log1p", 1)                                                                       \
    X(LOG2, 64, "log2", 1)                                                                         \
    X(LOG10, 65, "log10", 1)                                                                       \
    X(SQRT, 66, "sqrt", 1)                                                                         \
    X(CBRT, 67, "cbrt", 1)                                                                         \
    X(LOGADDEXP2, 68, "logaddexp2", 2)                                                             \
    X(SIN, 70, "sin", 1)                                                                           \
    X(COS, 71, "cos", 1)                                                                           \
    X(TAN, 72, "tan", 1)                                                                           \
    X(ASIN, 73, "asin", 1)                                                                         \
    X(ACOS, 74, "acos", 1)                                                                         \
    X(ATAN, 75, "atan", 1)                                                                         \
    X(SINH, 76, "sinh", 1)                                                                         \
    X(COSH, 77, "cosh", 1)                                                                         \
    X(TANH, 78, "tanh", 1)                                                                         \
    X(ASINH, 79, "asinh", 1)                                                                       \
    X(ACOSH, 80, "acosh", 1)                                                                       \
    X(ATANH, 81, "atanh", 1)                                                                       \
    X(ISNAN, 90, "isnan", 1)                                                                       \
    X(ISINF, 91, "isinf", 1)                                                                       \
    X(ISFINITE, 92, "isfinite", 1)                                                                 \
    X(CLIP, 100, "clip", 3)                                                                        \
    X(WHERE, 101, "where", 3)                                                                      \
    X(ASTYPE, 110, "astype", 1)                                                                    \
    X(CONJ, 120, "conj", 1)

typedef enum accel_array_fn {
    ACCEL_ARRAY_FN_INVALID = 0,
#define ACCEL_X_ARRAY_FN(E, V, NAME, ARITY) ACCEL_ARRAY_##E = V,
    ACCEL_ARRAY_FN_LIST(ACCEL_X_ARRAY_FN)
#undef ACCEL_X_ARRAY_FN
        ACCEL_ARRAY_FN_LIMIT_ = 128 /* every value is below this */
} accel_array_fn;

/* What accel_array_fn_info tells of a function (one row of the table). */
typedef struct accel_array_fn_properties {
    uint32_t struct_size;
    accel_array_fn fn;
    const char *name; /* the Array API's name */
    uint32_t arity;   /* inputs: 1, 2 or 3 */
    uint32_t kinds;   /* bit (1u << accel_dtype_kind) per kind of the promoted inputs it takes */
    uint32_t result;  /* ACCEL_ARRAY_RESULT_* */
    uint32_t tolerance_ulp; /* verify mode's bound for float results; 0: exact */
    /* verify mode's bound for complex results: every part within this many
     * ulps of the larger part of the reference; was reserved0 (a library
     * before complex support reports 0 here) */
    uint32_t tolerance_ulp_complex;
    uint64_t reserved[4];
} accel_array_fn_properties;

#define ACCEL_ARRAY_RESULT_PROMOTED 1u /* the inputs' promoted dtype (accel_result_type) */
#define ACCEL_ARRAY_RESULT_BOOL 2u     /* bool (comparisons, logical, isnan, ...) */
#define ACCEL_ARRAY_RESULT_OUT 3u      /* out's dtype (astype) */
/* the promoted dtype, but a complex one gives its real dtype (abs:
 * complex64 -> float32, complex128 -> float64) */
#define ACCEL_ARRAY_RESULT_REAL 4u

/* The table's row of fn, or NULL for an unknown fn. Thread-safe. */
ACCEL_API const accel_array_fn_properties *accel_array_fn_info(accel_array_fn fn);

/* Elementwise y = fn(x) over broadcast views, through a kernel generated
 * for (fn, dtypes, dimensions after coalescing) and cached.
 * x's dtype must be of a kind fn takes (accel_array_fn_info: e.g. exp and
 * the other transcendental functions take float dtypes only -- cast integers
 * with accel_array_astype first; bitwise functions take bool and integers);
 * out's dtype must be the result dtype exactly and its shape x's.
 * Per-element semantics (one expression per kind, the same on every
 * backend): integers wrap modulo 2^bits (no trap, no undefined behaviour);
 * float16 and bfloat16 compute in float32 and round to nearest even on
 * store; NaN propagates through maximum/minimum and clip (IEEE 754-2019
 * maximum, -0 < +0); round is half to even; sign(+-0) is that zero.
 * Beyond the standard, NumPy's fmod (C's remainder: the sign of x1;
 * integers 0 for x2 == 0 or -1), gcd and lcm (integers; Euclid's algorithm
 * on the magnitudes, lcm wrapped to the dtype, 0 when either is 0),
 * heaviside(x, h0), logaddexp2 and cbrt (floats), as npymath computes them.
 * Complex dtypes (complex64, complex128; a real operand converts with
 * imaginary part 0) compute in a struct of two floats or doubles: add,
 * subtract, multiply ((ac - bd) + (ad + bc)i), divide (Smith's algorithm,
 * as NumPy), negative, positive, square, pow (exp(x2 log x1); x2 = 0 gives
 * 1), abs (the real dtype of the precision: hypot), sign (z/|z|, 0 for 0),
 * round (each part), conj, equal, not_equal, isnan, isinf, isfinite (the
 * Array API's definitions), exp, expm1, log, log1p, log2, log10, sqrt,
 * sin, cos, tan, sinh, cosh, tanh, asin, acos, atan, asinh, acosh, atanh
 * with the branch cuts and special values of C11 Annex G, which the Array
 * API 2023.12 lists (where the two differ, tanh(+-inf + yi) and
 * expm1(-0 + 0i), the Array API's; core/arrays/complex.c names each
 * algorithm's source). A real operand of multiply or divide converts to
 * complex first, so an infinite part of the other meets a 0 (NaN where the
 * standard's table has a * (c + di) = ac + (ad)i). The functions the standard does not define for
 * complex (the orderings, maximum, minimum, floor, ceil, trunc, the bitwise ones, floor_divide,
 * remainder, copysign, hypot, atan2, logaddexp, nextafter, clip, and NumPy's fmod, gcd, lcm,
 * heaviside, logaddexp2, cbrt) refuse them with
 * ACCEL_ERROR_DTYPE_MISMATCH naming the dtype. Errors (all before anything is enqueued, out
 * untouched): ACCEL_ERROR_INVALID_HANDLE (q, a buffer), ACCEL_ERROR_INVALID_ARGUMENT (fn unknown or
 * of another arity, a NULL view, out overlapping x other than exactly), ACCEL_ERROR_DTYPE_MISMATCH
 * (a kind fn does not take, out's dtype not the result dtype), ACCEL_ERROR_SHAPE_MISMATCH (out's
 * shape is not the broadcast shape), ACCEL_ERROR_OUT_OF_RANGE (a view past its buffer or
 * overflowing), ACCEL_ERROR_DEVICE_MISMATCH (a buffer on another device than q's),
 * ACCEL_ERROR_COMPILE / ACCEL_ERROR_UNSUPPORTED (the device cannot build
 * the kernel). Asynchronous. */
ACCEL_API accel_status accel_array_unary(accel_queue *q, accel_array_fn fn, const accel_array *x,
                                         const accel_array *out);

/* Elementwise out = fn(x1, x2), x1 and x2 broadcast together; their dtypes
 * promote by accel_result_type and the function computes in the promoted
 * dtype (comparisons too, except (int64, uint64) in either order: compared
 * exactly on the integers, as NumPy 2, not in their promoted float64, where
 * 2^63 - 1 and 2^63 are equal).
 * Integer floor_divide and remainder by 0 give 0 (NumPy's value, without its
 * warning; no trap); INT_MIN // -1 wraps to INT_MIN. Integer pow with a
 * negative exponent gives the truncated exact value (1 for a base of 1,
 * +-1 for -1, else 0). Shifts by a count < 0 or >= the width give 0 (left,
 * unsigned right) or the sign fill (signed right). nextafter takes float32
 * and float64 only. Errors as accel_array_unary, plus
 * ACCEL_ERROR_SHAPE_MISMATCH for inputs that do not broadcast. */
ACCEL_API accel_status accel_array_binary(accel_queue *q, accel_array_fn fn, const accel_array *x1,
                                          const accel_array *x2, const accel_array *out);

/* out = minimum(maximum(x, lo), hi) elementwise (NumPy's clip; the Array
 * API's with array bounds), the three broadcast and promoted together.
 * Errors as accel_array_binary. */
ACCEL_API accel_status accel_array_clip(accel_queue *q, const accel_array *x, const accel_array *lo,
                                        const accel_array *hi, const accel_array *out);

/* out = cond ? x1 : x2 elementwise; cond is bool; x1 and x2 promote; the
 * three broadcast. Errors as accel_array_binary (a cond that is not bool:
 * ACCEL_ERROR_DTYPE_MISMATCH). */
ACCEL_API accel_status accel_array_where(accel_queue *q, const accel_array *cond,
                                         const accel_array *x1, const accel_array *x2,
                                         const accel_array *out);

/* out = x converted to out's dtype (x broadcast to out's shape): the copy
 * with conversion of the Array API's astype, also the strided-to-contiguous
 * copy. Conversions: to bool, x != 0; between integers, modulo 2^bits (C's
 * and NumPy's wrap); float to integer, truncation toward zero, saturated at
 * the integer's range, NaN to 0 (defined everywhere, as CUDA's cvt.rzi.sat;
 * NumPy leaves these undefined); to float16/bfloat16, round to nearest even;
 * a real or bool to complex, imaginary part 0; between complex64 and
 * complex128, each part. A complex x to a real out is
 * ACCEL_ERROR_UNSUPPORTED (the Array API does not permit it: take real,
 * imag or abs first). Errors as accel_array_unary. */
ACCEL_API accel_status accel_array_astype(accel_queue *q, const accel_array *x,
                                          const accel_array *out);

/* out = x, the same dtype (ACCEL_ERROR_DTYPE_MISMATCH otherwise), x
 * broadcast to out's shape: a strided copy. Two contiguous views are copied
 * as bytes by the backend (accel_queue_copy: a GPU's copy engine, the CPU's
 * memcpy), the rest by a generated kernel. Errors as accel_array_astype. */
ACCEL_API accel_status accel_array_copy(accel_queue *q, const accel_array *x,
                                        const accel_array *out);

/* ------------------------------------------------------------ reductions */

/* The reductions: X(ENUM, VALUE, name). ACCEL_ARRAY_REDUCE_<ENUM> = VALUE. */
#define ACCEL_ARRAY_REDUCE_LIST(X)                                                                 \
    X(SUM, 1, "sum")                                                                               \
    X(PROD, 2, "prod")                                                                             \
    X(MIN, 3, "min")                                                                               \
    X(MAX, 4, "max")                                                                               \
    X(MEAN, 5, "mean")                                                                             \
    X(ANY, 6, "any")                                                                               \
    X(ALL, 7, "all")                                                                               \
    X(ARGMIN, 8, "argmin")                                                                         \
    X(ARGMAX, 9, "argmax")

typedef enum accel_array_reduce_fn {
    ACCEL_ARRAY_REDUCE_INVALID = 0,
#define ACCEL_X_ARRAY_REDUCE(E, V, NAME) ACCEL_ARRAY_REDUCE_##E = V,
    ACCEL_ARRAY_REDUCE_LIST(ACCEL_X_ARRAY_REDUCE)
#undef ACCEL_X_ARRAY_REDUCE
        ACCEL_ARRAY_REDUCE_LIMIT_ = 16
} accel_array_reduce_fn;

/* The reduction's name ("sum"), "unknown" otherwise. */
ACCEL_API const char *accel_array_reduce_name(accel_array_reduce_fn fn);

/* out = fn of x over the axes of axes_mask (bit i: axis i; 0 reduces
 * nothing, each output element then reduces one input element), keeping
 * them as size-1 axes when keepdims is nonzero (the Array API's axis=tuple,
 * keepdims=). out's shape is x's without (or with size 1 at) the reduced
 * axes; out must not overlap x.
 * Dtypes (the Array API's): sum and prod of bool and signed integers give
 * int64, of unsigned integers uint64 (wrapping modulo 2^64), of floats the
 * same float; min and max the input's dtype; mean takes floats and gives
 * the same float; any and all give bool; argmin and argmax give int64, the
 * row-major index within the reduced axes of the first extreme (a
 * flattened index for all axes, NumPy's index for one axis), the first NaN
 * if any. Floats: min and max propagate NaN (NumPy). Complex (complex64,
 * complex128): sum, prod and mean give the same complex dtype (prod the
 * schoolbook product (ac - bd, ad + bc), as NumPy's), any and all test
 * either part nonzero; min, max, argmin and argmax refuse complex (numbers
 * not ordered: ACCEL_ERROR_DTYPE_MISMATCH).
 * Order (the same on every backend, so results are bit-identical across
 * devices): each output element folds its reduced elements in row-major
 * order of the reduced axes (last fastest) from the identity (sum 0, prod 1,
 * any false, all true; min, max, argmin, argmax from the first element),
 * float (and complex) sums, products and means in float64 (per part)
 * rounded once to the output dtype at the end. Few outputs of many elements
 * each (fewer than 65536 outputs, 128 or more elements each) are folded
 * in P chunks per output of L >= 64 elements (about 131072 chunks in all; P
 * and L depend on the shape alone): the chunks go in groups of 32, group g
 * holding the elements [32 g L, 32 (g + 1) L) of the output's row; a
 * group's elements are taken in rounds, runs of 8 to each of its chunks in
 * turn (chunk c of the group: elements 8c to 8c + 7 of each round), so that
 * the neighbouring threads of a GPU read neighbouring memory. Each chunk
 * folds from the identity (or its first element); then the chunks' results
 * fold in order, in as many rounds as needed, in chunks of consecutive
 * partials. Sums and means fold a chunk in 8 lanes (element k of each run
 * into lane k) and an output folded whole in 8 interleaved lanes (element
 * j into lane j % 8, while 8 remain, then the rest in order), the lanes
 * added as ((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7)). A CPU device
 * folds min, max, argmin, argmax, any, all and integer sums and products,
 * whose results do not depend on the order, in chunks of consecutive
 * elements instead (its faster walk): the same results (a NaN of min or
 * max may then carry another of x's NaN payloads). argmin and argmax
 * give the first extreme (the first NaN) either way. The one exception to
 * bit-identical results: the sum of a
 * whole contiguous float32 or float64 x (and its max and min, which are
 * exact) is the backend's hand-written accel_reduce, faster, within the
 * same bound (an OpenCL device without float64 sums float32 in float32:
 * docs/opencl.md); its mean is that sum times 1/n (accel_scale: two
 * roundings more than sum/n rounded once, up to 2 ulp apart). The error
 * of a float sum is within tolerance.c's SUM bound (n*eps*sum|x_i| of
 * float64, Higham, Accuracy and Stability of Numerical Algorithms, 2nd
 * ed., eq. 4.4) before that rounding. A sum or prod of no elements is the
 * identity, a mean of none NaN.
 * Errors (out untouched): as accel_array_unary, plus
 * ACCEL_ERROR_INVALID_ARGUMENT (fn unknown, an axis past x's, min, max,
 * argmin or argmax of no elements: no identity, out overlapping x),
 * ACCEL_ERROR_SHAPE_MISMATCH (out's shape), ACCEL_ERROR_DTYPE_MISMATCH (mean
 * of an integer or bool, an ordering reduction of complex, out's dtype not
 * the result's), ACCEL_ERROR_UNSUPPORTED
 * (more than 8 kept plus reduced axes that do not merge: 3 per kept and 2
 * per reduced axis after merging, at most 28 in all). Asynchronous: a
 * chunked reduction's partials live in a scratch buffer q keeps from call
 * to call (released with q), so the call neither allocates per call nor
 * waits for q (growing the scratch waits once for q's earlier work). While
 * q records a graph, from any thread, the graph keeps a scratch buffer of
 * its own as a temporary. */
ACCEL_API accel_status accel_array_reduce(accel_queue *q, accel_array_reduce_fn fn,
                                          const accel_array *x, uint64_t axes_mask, int keepdims,
                                          const accel_array *out);

/* The dtype accel_array_reduce's out must have for fn of an x of dtype x
 * (the rules above: sum of int32 int64, mean of float32 float32, argmax
 * int64, ...), in *out. Errors: ACCEL_ERROR_INVALID_ARGUMENT (fn unknown,
 * out NULL), ACCEL_ERROR_DTYPE_MISMATCH (fn does not take x: mean of an
 * integer, max of a complex, an unknown dtype). */
ACCEL_API accel_status accel_array_reduce_dtype(accel_array_reduce_fn fn, accel_dtype x,
                                                accel_dtype *out);

/* ------------------------------------------------------------ statistics */

/* The variance (var) or standard deviation (std) of x over the axes of
 * axes_mask with keepdims as accel_array_reduce: sum((x - mean)^2) / (N -
 * correction), N the reduced elements (the Array API's; correction 1 is
 * Bessel's), NaN when N - correction <= 0; std is its square root. Floats
 * only, out of x's dtype. The two-pass algorithm (Chan, Golub and LeVeque,
 * The American Statistician 37(3), 1983; Higham, Accuracy and Stability of
 * Numerical Algorithms, 2nd ed., section 1.9), in float64 in row-major order
 * of the reduced axes, one thread per output element, rounded once to
 * out's dtype: the same bits on every backend.
 * Errors (out untouched): those of accel_array_reduce, plus
 * ACCEL_ERROR_INVALID_ARGUMENT (correction negative or NaN),
 * ACCEL_ERROR_DTYPE_MISMATCH (x not a float, out not x's dtype). */
ACCEL_API accel_status accel_array_var(accel_queue *q, const accel_array *x, uint64_t axes_mask,
                                       double correction, int keepdims, const accel_array *out);
ACCEL_API accel_status accel_array_std(accel_queue *q, const accel_array *x, uint64_t axes_mask,
                                       double correction, int keepdims, const accel_array *out);

/* The running sum of x along axis (negative from the end;
 * ACCEL_ARRAY_AXIS_NONE only for a 1-D x), the Array API 2023.12's
 * cumulative_sum: out has x's shape, with one more element along axis when
 * include_initial is nonzero (the first is then 0). out's dtype is the
 * dtype= of the standard: any numeric dtype x promotes to (accel_result_type
 * (x, out) == out; the standard's default is x's, int64 for smaller signed
 * integers and bool, uint64 for smaller unsigned ones). Floats (and each
 * part of a complex out, complex64 or complex128) accumulate in float64 and
 * each partial sum is rounded once on store; integers wrap
 * modulo 2^bits. Where x and out are row-major, out of x's dtype or the
 * 64-bit one of its kind (int64 for signed integers and bool, uint64,
 * float64; not f16, bf16), and the queue's backend runs ACCEL_OP_CUMSUM
 * for that geometry (CPU: all; CUDA: the last axis, through CUB's single-pass
 * scan; include_initial only for a single line), it runs as that op
 * (accel_cumsum_segments): float64 sums in the backend's order, within
 * verify mode's ACCEL_TOLERANCE_PREFIX of the serial walk, integers the
 * same bits. Otherwise one thread per line along axis, in order, or, for
 * a few long lines, chunks of a line in parallel.
 * Errors (out untouched): ACCEL_ERROR_INVALID_ARGUMENT (axis, out
 * overlapping x), ACCEL_ERROR_DTYPE_MISMATCH (out's dtype),
 * ACCEL_ERROR_SHAPE_MISMATCH (out's shape), those of accel_array_astype. */
ACCEL_API accel_status accel_array_cumulative_sum(accel_queue *q, const accel_array *x,
                                                  int32_t axis, int include_initial,
                                                  const accel_array *out);

/* The running product of x along axis, the Array API 2024.12's
 * cumulative_prod: as accel_array_cumulative_sum in every rule (axis,
 * include_initial, whose first element is then 1, out's dtype), the
 * product accumulated in float64 (each part's complex product
 * (ac - bd) + (ad + bc)i in float64) or, for integers, modulo 2^64 and
 * wrapped to out's width; each partial product rounded once on store. One
 * thread per line along axis, in order. Errors as
 * accel_array_cumulative_sum. */
ACCEL_API accel_status accel_array_cumulative_prod(accel_queue *q, const accel_array *x,
                                                   int32_t axis, int include_initial,
                                                   const accel_array *out);

/* ---------------------------------------------------------- manipulation */

/* The axis argument's "None" (the flattened array) where a function takes it. */
#define ACCEL_ARRAY_AXIS_NONE INT32_MIN

/* Views from views (metadata only, as above): the axes src[i] of x move to
 * positions dst[i] (negative counts from the end), the others keep their
 * order (the Array API's moveaxis). count <= x->ndim.
 * Errors: ACCEL_ERROR_INVALID_ARGUMENT (an axis out of range or repeated in
 * src or in dst, NULL). */
ACCEL_API accel_status accel_array_moveaxis(const accel_array *x, uint32_t count,
                                            const int32_t *src, const int32_t *dst,
                                            accel_array *out);

/* The functions below copy through the generated elementwise kernels
 * (accel_array_astype per piece): they enqueue, are asynchronous, and check
 * everything before they enqueue anything (out untouched on error). No
 * input may overlap out (ACCEL_ERROR_INVALID_ARGUMENT). Errors besides those
 * named: those of accel_array_astype (handles, views, devices). */

/* The count arrays xs[] joined along axis (negative from the end) into out
 * (the Array API's concat): equal shapes but along axis; out's dtype the
 * promoted dtype of all (accel_result_type), each converted on the copy.
 * axis ACCEL_ARRAY_AXIS_NONE joins the flattened arrays (row-major) into a
 * 1-D out. 1 <= count <= 1024.
 * Errors: ACCEL_ERROR_SHAPE_MISMATCH (shapes, out's shape),
 * ACCEL_ERROR_DTYPE_MISMATCH (out's dtype), ACCEL_ERROR_INVALID_ARGUMENT
 * (axis, count, NULL, overlap), ACCEL_ERROR_UNSUPPORTED (axis NONE with an
 * x or out whose strides cannot be viewed flat: copy it first). */
ACCEL_API accel_status accel_array_concat(accel_queue *q, size_t count,
                                          const accel_array *const *xs, int32_t axis,
                                          const accel_array *out);

/* The count arrays xs[] (equal shapes) stacked along a new axis at
 * position axis in [-ndim-1, ndim] of out (the Array API's stack); dtypes
 * as concat. Errors as accel_array_concat. */
ACCEL_API accel_status accel_array_stack(accel_queue *q, size_t count, const accel_array *const *xs,
                                         int32_t axis, const accel_array *out);

/* out = x with its elements shifted by shift[i] places along axes[i]
 * (positive toward higher indices, wrapping; the Array API's roll), count
 * pairs; an axis named twice adds its shifts. axes NULL: the flattened
 * array rolls by shift[0] (count 1) and keeps x's shape. out has x's shape
 * and dtype. Errors: ACCEL_ERROR_INVALID_ARGUMENT (an axis out of range,
 * NULL, overlap), ACCEL_ERROR_SHAPE_MISMATCH, ACCEL_ERROR_DTYPE_MISMATCH,
 * ACCEL_ERROR_UNSUPPORTED (axes NULL and x or out not viewable flat). */
ACCEL_API accel_status accel_array_roll(accel_queue *q, const accel_array *x, uint32_t count,
                                        const int64_t *shift, const int32_t *axes,
                                        const accel_array *out);

/* Each element of x repeated along axis (the Array API's repeat): nrepeats
 * 1 repeats every element repeats[0] times (one launch); nrepeats equal to
 * x's size along axis repeats element i repeats[i] times (one launch per
 * element, host-side counts). axis ACCEL_ARRAY_AXIS_NONE repeats the
 * flattened x into a 1-D out. out's shape: x's with the axis' size the sum
 * of the repeats; dtype x's. Errors: ACCEL_ERROR_INVALID_ARGUMENT (a
 * negative repeat, nrepeats, axis, NULL, overlap), ACCEL_ERROR_SHAPE_MISMATCH,
 * ACCEL_ERROR_DTYPE_MISMATCH, ACCEL_ERROR_UNSUPPORTED (axis NONE with
 * per-element repeats and x not viewable flat). */
ACCEL_API accel_status accel_array_repeat(accel_queue *q, const accel_array *x, size_t nrepeats,
                                          const int64_t *repeats, int32_t axis,
                                          const accel_array *out);

/* x tiled reps[i] times along axis i (the Array API's tile, NumPy's rule:
 * the shorter of x's shape and reps is padded with leading 1s); out's
 * shape the products, dtype x's. One launch. Errors:
 * ACCEL_ERROR_INVALID_ARGUMENT (a negative rep, more than
 * ACCEL_ARRAY_MAX_NDIM reps, NULL, overlap), ACCEL_ERROR_SHAPE_MISMATCH,
 * ACCEL_ERROR_DTYPE_MISMATCH, ACCEL_ERROR_UNSUPPORTED (more than 16 axes
 * that both repeat and have size > 1). */
ACCEL_API accel_status accel_array_tile(accel_queue *q, const accel_array *x, uint32_t nreps,
                                        const int64_t *reps, const accel_array *out);

/* reshape with a copy only when needed: x's elements in row-major order
 * into out's elements in row-major order (equal counts, equal dtypes);
 * out's shape is the new shape. Use accel_array_reshape first: when it
 * gives a view no copy is needed. One launch when x's or out's strides can
 * be viewed in the other's shape (always for a contiguous out).
 * Errors: ACCEL_ERROR_SHAPE_MISMATCH (counts), ACCEL_ERROR_DTYPE_MISMATCH,
 * ACCEL_ERROR_INVALID_ARGUMENT (overlap), ACCEL_ERROR_UNSUPPORTED (neither
 * views as the other: make out contiguous). */
ACCEL_API accel_status accel_array_reshape_copy(accel_queue *q, const accel_array *x,
                                                const accel_array *out);

/* -------------------------------------------------------------- creation */

/* Creation on the device: generated loop kernels (core/arrays/loop.c), one
 * thread per element of out, which may be any view (strided, reversed);
 * asynchronous; checked before anything is enqueued (out untouched on
 * error). empty is accel_array_init on a new buffer (no work). Errors
 * besides those named: those of accel_array_astype (handles, views,
 * devices; ACCEL_ERROR_UNSUPPORTED for complex dtypes). */

/* Every element of out = value converted to out's dtype as
 * accel_array_astype converts a float64 (truncation, saturation, NaN 0 for
 * integers; round to nearest for floats). zeros and ones are full with 0
 * and 1. */
ACCEL_API accel_status accel_array_full(accel_queue *q, const accel_array *out, double value);
/* Every element of out = value exactly for 64-bit integer dtypes, wrapped
 * modulo 2^bits for narrower ones, rounded for floats, value != 0 for bool. */
ACCEL_API accel_status accel_array_full_i64(accel_queue *q, const accel_array *out, int64_t value);
ACCEL_API accel_status accel_array_full_u64(accel_queue *q, const accel_array *out, uint64_t value);

/* out[i] = start + i * step (NumPy's arange), out 1-D of exactly
 * ceil((stop - start) / step) elements (0 when that is negative). Float
 * dtypes compute in float64 and round once; integer dtypes need integral
 * start and step and compute exactly in int64 (wrapping to the dtype).
 * Errors: ACCEL_ERROR_INVALID_ARGUMENT (step 0, a non-finite bound, a
 * fractional start or step for an integer out), ACCEL_ERROR_SHAPE_MISMATCH
 * (out not 1-D of that length). */
ACCEL_API accel_status accel_array_arange(accel_queue *q, double start, double stop, double step,
                                          const accel_array *out);

/* num = out's length evenly spaced floats from start to stop (NumPy's
 * linspace: start + i * step with step = (stop - start) / (num - 1), or /
 * num without the endpoint; the endpoint stored as stop exactly), computed
 * in float64 and rounded once. Errors: ACCEL_ERROR_DTYPE_MISMATCH (out not
 * a float), ACCEL_ERROR_SHAPE_MISMATCH (out not 1-D). */
ACCEL_API accel_status accel_array_linspace(accel_queue *q, double start, double stop, int endpoint,
                                            const accel_array *out);

/* out[..., i, j] = (j - i == k): ones on the k-th diagonal (k > 0 above the
 * main one), zeros elsewhere, for every matrix of the last two axes of out
 * (ndim >= 2; any dtype). Errors: ACCEL_ERROR_INVALID_ARGUMENT (ndim < 2). */
ACCEL_API accel_status accel_array_eye(accel_queue *q, int64_t k, const accel_array *out);

/* out = x on and below (tril) or on and above (triu) the k-th diagonal of
 * the last two axes, zero elsewhere; x and out of one shape (ndim >= 2) and
 * dtype; out may be x itself (in place), no other overlap. Errors:
 * ACCEL_ERROR_SHAPE_MISMATCH, ACCEL_ERROR_DTYPE_MISMATCH,
 * ACCEL_ERROR_INVALID_ARGUMENT (ndim < 2, overlap). */
ACCEL_API accel_status accel_array_tril(accel_queue *q, const accel_array *x, int64_t k,
                                        const accel_array *out);
ACCEL_API accel_status accel_array_triu(accel_queue *q, const accel_array *x, int64_t k,
                                        const accel_array *out);

/* meshgrid as views (no copy, nothing enqueued): outs[i] (count of them) is
 * xs[i] (1-D, one dtype) broadcast over the count-dimensional grid with
 * stride 0 on every other axis; indexing_xy nonzero swaps the first two
 * axes (the Array API's default "xy"), 0 is "ij". count <= 32. Errors:
 * ACCEL_ERROR_INVALID_ARGUMENT (NULL, count), ACCEL_ERROR_SHAPE_MISMATCH (an
 * xs[i] not 1-D), ACCEL_ERROR_DTYPE_MISMATCH (dtypes differ), the checks of
 * accel_array_validate. */
ACCEL_API accel_status accel_array_meshgrid(size_t count, const accel_array *const *xs,
                                            int indexing_xy, accel_array *outs);

/* -------------------------------------------------------------- indexing */

/* Indexing with arrays: generated loop kernels, asynchronous, checked
 * before anything is enqueued (out or x untouched on error). Indices are
 * any integer dtype, read as int64; negative ones count from the end.
 * Out-of-range indices do not trap on any device: a gather clamps them
 * into the axis and a scatter drops them (JAX's documented rule, "JAX - The
 * Sharp Bits": out-of-bounds indexing); check indices first where that
 * matters. Every dtype, complex64 and complex128 included (elements are
 * moved whole). No input may overlap the array written. Errors besides those
 * named: those of accel_array_astype (handles, views, devices,
 * ACCEL_ERROR_OUT_OF_RANGE for a view past its buffer). */

/* out = x's elements at indices along axis (the Array API's take; NumPy's
 * np.take with any indices shape): out's shape is x.shape[:axis] +
 * indices.shape + x.shape[axis+1:], its dtype x's. axis
 * ACCEL_ARRAY_AXIS_NONE takes from the flattened x. Errors:
 * ACCEL_ERROR_INVALID_ARGUMENT (axis, an empty axis with indices to take),
 * ACCEL_ERROR_DTYPE_MISMATCH (indices not integers, out not x's dtype),
 * ACCEL_ERROR_SHAPE_MISMATCH (out's shape), ACCEL_ERROR_UNSUPPORTED (axis
 * NONE and x not viewable flat). */
ACCEL_API accel_status accel_array_take(accel_queue *q, const accel_array *x,
                                        const accel_array *indices, int32_t axis,
                                        const accel_array *out);

/* out[..., i, ...] = x[..., indices[..., i, ...], ...] along axis
 * (take_along_axis): indices and x have one ndim and broadcast on every
 * other axis; out's shape is that broadcast shape with indices' size along
 * axis. Errors as accel_array_take. */
ACCEL_API accel_status accel_array_take_along_axis(accel_queue *q, const accel_array *x,
                                                   const accel_array *indices, int32_t axis,
                                                   const accel_array *out);

/* Integer-array scatter, x[..., indices, ...] = values along axis (NumPy's
 * np.put along an axis): values (x's dtype) broadcast to take's result
 * shape. x is written in place. With repeated indices which value lands is
 * unspecified (one thread per value, as CUDA's and NumPy's put). Errors as
 * accel_array_take (values' shape: ACCEL_ERROR_SHAPE_MISMATCH). */
ACCEL_API accel_status accel_array_scatter(accel_queue *q, const accel_array *x,
                                           const accel_array *indices, int32_t axis,
                                           const accel_array *values);

/* The indices of x's nonzero elements (NaN counts as nonzero) in row-major
 * order, as the rows of out (int64 of shape (x.ndim, count)): out[d, j] is
 * axis d's index of the j-th nonzero (the Array API's nonzero, stacked).
 * count is the caller's: the number of nonzeros (accel_array_astype x to
 * bool, then accel_array_reduce SUM gives it as int64). With fewer columns
 * the first count are written; with more, the rest stay untouched. One
 * thread walks x (correct everywhere, slow on a GPU for large x).
 * Errors: ACCEL_ERROR_INVALID_ARGUMENT (x 0-d), ACCEL_ERROR_DTYPE_MISMATCH
 * (out not int64), ACCEL_ERROR_SHAPE_MISMATCH (out not (x.ndim, n)),
 * ACCEL_ERROR_UNSUPPORTED (x with more than 8 axes). */
ACCEL_API accel_status accel_array_nonzero(accel_queue *q, const accel_array *x,
                                           const accel_array *out);

/* Boolean-mask gather, out = x[mask]: mask (bool) has the shape of x's
 * first mask.ndim >= 1 axes; out's shape is (count,) + x's remaining axes,
 * its dtype x's, the selected elements in row-major order of the mask.
 * count as accel_array_nonzero's (the mask's true elements; fewer: the
 * first count; more: the rest untouched). One thread per element of the
 * remaining axes walks the mask. Errors: ACCEL_ERROR_DTYPE_MISMATCH (mask
 * not bool, out not x's dtype), ACCEL_ERROR_SHAPE_MISMATCH. */
ACCEL_API accel_status accel_array_mask_gather(accel_queue *q, const accel_array *x,
                                               const accel_array *mask, const accel_array *out);

/* Boolean-mask scatter, x[mask] = values in place: the j-th selected
 * element (row-major order of the mask) gets values[j] (values of shape
 * (count,) + x's remaining axes) or, for a 0-d values, values itself.
 * Selected elements past count keep their value. Errors as
 * accel_array_mask_gather. */
ACCEL_API accel_status accel_array_mask_scatter(accel_queue *q, const accel_array *x,
                                                const accel_array *mask, const accel_array *values);
/* ------------------------------------------------------- sorting, linalg */

/* out = x sorted along axis (in [-ndim, ndim-1]; the Array API's sort with
 * stable=True): every line along the axis in ascending order, or
 * descending when descending != 0, equal keys in their original order
 * either way. Floats order as NumPy's sort: -inf < ... < +inf < NaN, -0 and
 * +0 equal; NaNs go last (first when descending). Takes every real dtype
 * (bool, integers, floats). out: x's shape and dtype, row-major contiguous
 * (the sort runs in place in it); x any view (broadcast to out's shape as
 * accel_array_copy does); out may be x exactly (in place). Runs as
 * accel_array_copy(x -> out) then one ACCEL_OP_SORT op over out
 * (accel_sort_segments: an LSD radix sort on the CPU, CUB's
 * segmented radix sort on CUDA), so verify mode checks it bit for bit and
 * a backend without sort falls back where the policy allows.
 * Errors (before anything is enqueued, out untouched): as
 * accel_array_copy, plus ACCEL_ERROR_INVALID_ARGUMENT (axis out of range,
 * a 0-d out, out not row-major contiguous), ACCEL_ERROR_DTYPE_MISMATCH
 * (complex), ACCEL_ERROR_UNSUPPORTED (the device has no sort and no
 * fallback is allowed). Asynchronous. */
ACCEL_API accel_status accel_array_sort(accel_queue *q, const accel_array *x, int32_t axis,
                                        int descending, const accel_array *out);

/* out = the int64 indices that sort x along axis (the Array API's argsort
 * with stable=True): out[..., j, ...] is the index along the axis of the
 * element accel_array_sort puts at position j; equal keys keep ascending
 * index order in both directions (so argsort(descending) is the stable
 * descending order, not the reverse of the ascending one). x and out:
 * row-major contiguous, the same shape (copy a strided x with
 * accel_array_copy first); out int64, not overlapping x. One
 * ACCEL_OP_ARGSORT op (accel_argsort_segments): verify mode compares the
 * indices exactly. Errors (out untouched): ACCEL_ERROR_INVALID_ARGUMENT
 * (axis out of range, 0-d, a view not contiguous, overlap),
 * ACCEL_ERROR_SHAPE_MISMATCH, ACCEL_ERROR_DTYPE_MISMATCH (out not int64,
 * x complex), the view checks of accel_array_validate, and
 * ACCEL_ERROR_UNSUPPORTED as accel_array_sort. Asynchronous. */
ACCEL_API accel_status accel_array_argsort(accel_queue *q, const accel_array *x, int32_t axis,
                                           int descending, const accel_array *out);

/* out = for each element v of x2, the index at which v would be inserted
 * into the sorted 1-D x1 to keep it sorted (the Array API 2023.12's
 * searchsorted): side_right == 0 ("left") gives the first i with
 * x1[i] >= v, side_right != 0 ("right") the first i with x1[i] > v, in
 * accel_array_sort's order (NaNs after +inf and equal to each other, -0
 * == +0), so x1 is expected to be sorted that way (as accel_array_sort
 * leaves it); an unsorted x1 gives unspecified indices, never a fault.
 * sorter (NULL: none) is a 1-D integer array of x1's length with
 * x1[sorter] sorted (accel_array_argsort's output); its out-of-range
 * entries are clamped as accel_array_take clamps. x1 and x2 have one real
 * dtype (any: bool, integers, floats; 64-bit integers compare exactly);
 * x2 any shape (0-d too); out int64 of x2's shape, not overlapping an
 * input. One thread per element of x2 runs a binary search of log2(n + 1)
 * steps (a generated loop kernel: exact, so verify mode compares it
 * exactly). Errors (out untouched): ACCEL_ERROR_SHAPE_MISMATCH (x1 not
 * 1-D, sorter's or out's shape), ACCEL_ERROR_DTYPE_MISMATCH (x1 and x2
 * differ, out not int64, sorter not integers), ACCEL_ERROR_INVALID_ARGUMENT
 * (overlap), ACCEL_ERROR_UNSUPPORTED (complex), the view checks of
 * accel_array_validate. Asynchronous. */
ACCEL_API accel_status accel_array_searchsorted(accel_queue *q, const accel_array *x1,
                                                const accel_array *x2, int side_right,
                                                const accel_array *sorter, const accel_array *out);

/* The Array API 2023.12's set functions on x (any shape, any real dtype,
 * read flattened in row-major order). U, the number of distinct values,
 * depends on the data, so the outputs are 1-D arrays of any length L the
 * caller picks (x's element count always suffices): the first min(L, U)
 * elements are written, the rest stay untouched, and out_count (int64,
 * 0-d or one element; NULL: not wanted) receives U (read it, then view the
 * first U elements). Each output may be NULL:
 * - values (x's dtype): the distinct values in ascending order of
 *   accel_array_sort (NaNs last). Equal values form one group (-0 and +0
 *   too: the group keeps the bits of its first occurrence in x); every NaN
 *   is a group of its own (the standard: NaNs are distinct), as NumPy 2's
 *   unique_values with equal_nan=False.
 * - indices (int64): the flat index in x of each group's first occurrence.
 * - inverse_indices (int64, x's shape, row-major contiguous): each
 *   element's group number, so values[inverse_indices] == x.
 * - counts (int64): each group's number of elements.
 * Composed of array functions (no backend code): a contiguous copy of x,
 * a stable argsort, a take, not_equal of neighbours, cumulative_sum, mask
 * gathers and a scatter; every backend that runs those runs this, and
 * fallback and verify mode apply to each step. Blocking: the call returns
 * once the work is done (it frees its temporary buffers, about 4 + 8
 * bytes per element of x for each output asked). Outputs must not overlap
 * x or each other. Errors (outputs untouched): ACCEL_ERROR_DTYPE_MISMATCH
 * (values not x's dtype, another output not int64),
 * ACCEL_ERROR_SHAPE_MISMATCH (an output not 1-D, out_count not one
 * element, inverse_indices not x's shape), ACCEL_ERROR_INVALID_ARGUMENT
 * (overlap, NULL x), ACCEL_ERROR_UNSUPPORTED (complex x, inverse_indices
 * not viewable flat), the view checks of accel_array_validate,
 * ACCEL_ERROR_OUT_OF_DEVICE_MEMORY (temporaries); the steps' errors. */
ACCEL_API accel_status accel_array_unique_all(accel_queue *q, const accel_array *x,
                                              const accel_array *values, const accel_array *indices,
                                              const accel_array *inverse_indices,
                                              const accel_array *counts,
                                              const accel_array *out_count);
/* accel_array_unique_all with only the outputs the standard's function returns. */
ACCEL_API accel_status accel_array_unique_values(accel_queue *q, const accel_array *x,
                                                 const accel_array *values,
                                                 const accel_array *out_count);
ACCEL_API accel_status accel_array_unique_counts(accel_queue *q, const accel_array *x,
                                                 const accel_array *values,
                                                 const accel_array *counts,
                                                 const accel_array *out_count);
ACCEL_API accel_status accel_array_unique_inverse(accel_queue *q, const accel_array *x,
                                                  const accel_array *values,
                                                  const accel_array *inverse_indices,
                                                  const accel_array *out_count);

/* out = x1 @ x2, the Array API's matmul on matrices: x1 (..., m, k), x2
 * (..., k, n), out (..., m, n), the leading (batch) axes of x1 and x2
 * broadcast to out's. One dtype for all three: f32, f64, f16 or bf16
 * (GEMM's; f16/bf16 accumulate in f32). Each of x1's and x2's matrices must
 * have unit stride along one of its two axes and, along the other, a
 * stride of at least the first axis's length (a row-major or a transposed
 * matrix with a leading dimension: matrix_transpose views go straight to
 * GEMM; a broadcast matrix, stride 0, is refused: copy it); out row-major
 * contiguous. Runs as accel_gemm calls (one strided-batched GEMM per index
 * of all batch axes but the last), so the result, fallback and verify mode
 * (GEMM's bound, Higham 3.5) are GEMM's. 1-D operands are not taken (add an
 * axis with accel_array_expand_dims). Errors (before anything is enqueued
 * for a bad shape, dtype or view): ACCEL_ERROR_INVALID_ARGUMENT (ndim < 2,
 * a matrix without a unit stride, out not contiguous, out overlapping an
 * input), ACCEL_ERROR_SHAPE_MISMATCH (inner sizes, batch shapes, out's
 * shape), ACCEL_ERROR_DTYPE_MISMATCH (mixed dtypes, or one GEMM does not
 * take), the checks of accel_array_validate; accel_gemm's errors.
 * Asynchronous. */
ACCEL_API accel_status accel_array_matmul(accel_queue *q, const accel_array *x1,
                                          const accel_array *x2, const accel_array *out);

/* The Array API's matrix_transpose: x with its last two axes swapped, a
 * view (nothing is enqueued; out may be x). Errors:
 * ACCEL_ERROR_INVALID_ARGUMENT (fewer than 2 dimensions, out NULL) and the
 * checks of accel_array_validate. */
ACCEL_API accel_status accel_array_matrix_transpose(const accel_array *x, accel_array *out);

/* ------------------------------------------------------------------ linalg */

/* The Array API 2023.12 linalg extension's factorizations and solvers.
 * Common to all of them:
 * - x holds matrices in its last two axes (any view: strided, transposed,
 *   broadcast), batched over its leading axes; float32, float64,
 *   complex64 or complex128 (LAPACK's s, d, c, z routines), every output
 *   of x's dtype except the real-valued ones (eigenvalues, singular
 *   values, logabsdet: float32 for complex64, float64 for complex128, as
 *   the Array API says), and of exactly the shape named (batch = x's
 *   leading axes); outputs are any views, which must not overlap x or
 *   each other. For complex x, ^H (conjugate transpose) replaces ^T,
 *   Hermitian replaces symmetric and unitary replaces orthonormal below.
 * - The matrices are copied column-major into a scratch buffer on q's
 *   device, factored by one LINALG op (accel_linalg_batched, accel.h:
 *   LAPACK from OpenBLAS on the CPU, cuSOLVER on CUDA; OpenCL falls back to
 *   the CPU where the policy allows; the CUDA backend has no complex
 *   linalg yet and falls back the same way) and copied out. Verify mode
 *   checks the op by backward error (accel/verify.h, docs/checking.md).
 * - Synchronous: each call finishes q (earlier work included) before it
 *   copies the results out and again when it releases its scratch
 *   buffer, so it returns q's sticky error from earlier work too.
 * - Errors (outputs untouched): ACCEL_ERROR_INVALID_ARGUMENT (a NULL
 *   output, fewer than 2 dimensions, an output overlapping x, x2 or another
 *   output: checked before anything is enqueued), ACCEL_ERROR_DEVICE_MISMATCH
 *   (an output not on q's device), ACCEL_ERROR_SHAPE_MISMATCH (not
 *   square where the function needs it, an output's shape, x1 and x2 of
 *   solve that do not agree or broadcast), ACCEL_ERROR_DTYPE_MISMATCH (not
 *   one of those four dtypes, x1 and x2 of different dtypes, an output of
 *   another dtype than the one named), the checks of
 *   accel_array_validate, ACCEL_ERROR_OUT_OF_DEVICE_MEMORY (the scratch
 *   buffer), and ACCEL_ERROR_LINALG where the values defeat the method:
 *   a singular matrix for solve and inv (an exactly zero pivot of LU with
 *   partial pivoting), a matrix not positive definite for cholesky, no
 *   convergence for eigh and svd; the message names the matrix of the
 *   batch (its flat index) and LAPACK's info.
 * - Empty batches and 0 x 0 matrices succeed: det 1, slogdet (1, 0), the
 *   full Q, U, V^T of a matrix with no columns or rows the identity. */

/* out = L with x = L L^T (upper != 0: out = U = L^T with x = U^T U): the
 * Cholesky factor of symmetric positive-definite matrices (LAPACK potrf;
 * only x's lower triangle is read). Complex: x = L L^H (upper: U = L^H,
 * x = U^H U) of Hermitian positive-definite x, L's diagonal real and
 * positive (cpotrf, zpotrf). out (..., n, n), x's dtype. Errors:
 * ACCEL_ERROR_LINALG (a leading minor not positive definite; the message
 * names the matrix and the minor's order; or a NaN in the lower triangle,
 * which is no positive value). */
ACCEL_API accel_status accel_array_linalg_cholesky(accel_queue *q, const accel_array *x, int upper,
                                                   const accel_array *out);
/* out = X with x1 X = x2 (LU with partial pivoting: getrf, getrs). x1
 * (..., n, n); x2 a vector (n,) (out: x1's batch + (n,)) or matrices
 * (..., n, k) whose batch broadcasts with x1's (out: that batch + (n, k)).
 * A NaN anywhere in a matrix of x1 makes all of its X NaN (each x_i
 * depends on every value of x1; LAPACK would leave some finite). Errors:
 * ACCEL_ERROR_LINALG for a singular x1 (an exactly zero pivot). */
ACCEL_API accel_status accel_array_linalg_solve(accel_queue *q, const accel_array *x1,
                                                const accel_array *x2, const accel_array *out);
/* out = x^{-1} (solve with the identity as x2). out (..., n, n). */
ACCEL_API accel_status accel_array_linalg_inv(accel_queue *q, const accel_array *x,
                                              const accel_array *out);
/* out = det x, batch-shaped, x's dtype: the sign of the permutation times
 * the product of U's diagonal from LU (getrf); may overflow to +-inf as
 * NumPy's; a singular x gives 0 (not an error); a NaN in x gives NaN. */
ACCEL_API accel_status accel_array_linalg_det(accel_queue *q, const accel_array *x,
                                              const accel_array *out);
/* sign and logabsdet (batch-shaped): det x = sign * exp(logabsdet), from the
 * same LU; a singular x gives sign 0 and logabsdet -inf. sign of x's dtype
 * (complex x: det / |det|, of modulus 1), logabsdet of its real dtype. */
ACCEL_API accel_status accel_array_linalg_slogdet(accel_queue *q, const accel_array *x,
                                                  const accel_array *sign,
                                                  const accel_array *logabsdet);
/* x = Q R with orthonormal columns in Q and R upper triangular (Householder:
 * geqrf, orgqr). x (..., m, n), k = min(m, n): complete == 0 (the
 * standard's mode="reduced"): q_out (..., m, k), r_out (..., k, n);
 * complete != 0 (mode="complete"): q_out (..., m, m), r_out (..., m, n).
 * The signs of R's diagonal are LAPACK's (not made positive). */
ACCEL_API accel_status accel_array_linalg_qr(accel_queue *q, const accel_array *x, int complete,
                                             const accel_array *q_out, const accel_array *r_out);
/* Eigenvalues (..., n) in ascending order and orthonormal eigenvectors
 * (..., n, n), in columns, of symmetric matrices (syevd; only x's lower
 * triangle is read). Complex x: Hermitian matrices (cheevd, zheevd),
 * eigenvalues real (float32 for complex64, float64 for complex128),
 * unitary eigenvectors of x's dtype (each up to a unit complex factor).
 * eigvalsh: the values only. NaN or infinity in x: ACCEL_ERROR_LINALG
 * naming the matrix ("problem t of the batch"; the iteration cannot
 * converge: checked by the core before any backend runs, as NumPy's
 * LinAlgError; cuSOLVER itself answered info 0, success), as for svd and
 * svdvals. */
ACCEL_API accel_status accel_array_linalg_eigh(accel_queue *q, const accel_array *x,
                                               const accel_array *eigenvalues,
                                               const accel_array *eigenvectors);
ACCEL_API accel_status accel_array_linalg_eigvalsh(accel_queue *q, const accel_array *x,
                                                   const accel_array *out);
/* x = u diag(s) vh (gesvd; a wide x is factored as its transpose): x (...,
 * m, n), k = min(m, n), s (..., k) descending; full_matrices != 0: u (...,
 * m, m), vh (..., n, n); else u (..., m, k), vh (..., k, n). svdvals: s
 * only. Complex x: x = u diag(s) vh with vh = V^H (cgesvd, zgesvd), u and
 * vh of x's dtype, s real (float32 for complex64, float64 for
 * complex128). */
ACCEL_API accel_status accel_array_linalg_svd(accel_queue *q, const accel_array *x,
                                              int full_matrices, const accel_array *u,
                                              const accel_array *s, const accel_array *vh);
ACCEL_API accel_status accel_array_linalg_svdvals(accel_queue *q, const accel_array *x,
                                                  const accel_array *out);
/* -------------------------------------------------------------------- fft */

/* The normalization of a transform pair (the Array API's norm=): BACKWARD
 * scales the inverse by 1/n, FORWARD the forward transform by 1/n, ORTHO
 * both by 1/sqrt(n). */
typedef enum accel_fft_norm {
    ACCEL_FFT_NORM_BACKWARD = 0,
    ACCEL_FFT_NORM_ORTHO = 1,
    ACCEL_FFT_NORM_FORWARD = 2
} accel_fft_norm;

/* The Array API 2023.12's fft extension along one axis (in [-ndim,
 * ndim-1]) of x, into out (x's shape but along the axis, where it has the
 * transform's output length):
 * - fft, ifft: out_j = s * sum_t x_t exp(-+2 pi i j t / n) (- for fft, +
 *   for ifft), x complex64 or complex128, out of x's dtype, n outputs;
 * - rfft: x float32 or float64, out complex64 or complex128 respectively,
 *   the first n/2 + 1 outputs of the fft of the real line;
 * - irfft: x complex, out float of its precision, n outputs: the inverse
 *   of rfft (x extended by Hermitian symmetry, x_{n-j} = conj(x_j); the
 *   imaginary parts of x_0 and, for even n, x_{n/2} are ignored, as NumPy).
 * n (the transform's length; 0: None, x's length along the axis, for irfft
 * 2*(length - 1)): x's line is cut to, or padded with zeros to, n
 * elements (irfft: n/2 + 1), as NumPy does. s by norm (accel_fft_norm).
 * Runs as one FFT op (accel_fft_segments: kissfft's C++ template on the
 * CPU, in double for complex128 and float for complex64; cuFFT on CUDA;
 * OpenCL has none and falls back where the policy allows); results are
 * within verify mode's ACCEL_TOLERANCE_FFT of each other (accel/verify.h:
 * relative L2 error O(eps log2 n) per line, Higham 2nd ed. Thm 24.2). x and
 * out may be any views; when x is not row-major with n (irfft: n/2 + 1)
 * elements along the axis, or out not row-major, the call stages through
 * contiguous temporaries and then returns only when the work is done (it
 * frees them); otherwise it is asynchronous. out must not overlap x.
 * Errors (before anything is enqueued; out untouched):
 * ACCEL_ERROR_DTYPE_MISMATCH (the dtypes above), ACCEL_ERROR_SHAPE_MISMATCH
 * (out's shape), ACCEL_ERROR_INVALID_ARGUMENT (axis, n < 0, a 0 n with too
 * short an axis, norm, overlap), ACCEL_ERROR_DEVICE_MISMATCH, the checks of
 * accel_array_validate, ACCEL_ERROR_UNSUPPORTED (a staged complex view of
 * 32 axes; no backend with FFT and no fallback allowed). */
ACCEL_API accel_status accel_array_fft(accel_queue *q, const accel_array *x, int64_t n,
                                       int32_t axis, accel_fft_norm norm, const accel_array *out);
ACCEL_API accel_status accel_array_ifft(accel_queue *q, const accel_array *x, int64_t n,
                                        int32_t axis, accel_fft_norm norm, const accel_array *out);
ACCEL_API accel_status accel_array_rfft(accel_queue *q, const accel_array *x, int64_t n,
                                        int32_t axis, accel_fft_norm norm, const accel_array *out);
ACCEL_API accel_status accel_array_irfft(accel_queue *q, const accel_array *x, int64_t n,
                                         int32_t axis, accel_fft_norm norm, const accel_array *out);

/* The n-D transforms (the Array API's fftn, ifftn): accel_array_fft (or
 * _ifft) along axes[0], then axes[1], ... (count of them, distinct, in
 * [-ndim, ndim-1]), with s[i] the transform's length along axes[i] (s
 * NULL: x's lengths), so out's shape is x's with s[i] along axes[i]; the
 * norm applies to the whole (BACKWARD: 1/prod(s) on the inverse). x and
 * out complex64 or complex128, one dtype. Between axes the result lives in
 * contiguous temporaries (blocking: the call returns when the work is
 * done). A repeated axis transforms twice (NumPy refuses it; not checked
 * here). Errors: those of accel_array_fft per step (naming this
 * function), ACCEL_ERROR_INVALID_ARGUMENT (count 0 or above ndim, axes
 * NULL). */
ACCEL_API accel_status accel_array_fftn(accel_queue *q, const accel_array *x, uint32_t count,
                                        const int64_t *s, const int32_t *axes, accel_fft_norm norm,
                                        const accel_array *out);
ACCEL_API accel_status accel_array_ifftn(accel_queue *q, const accel_array *x, uint32_t count,
                                         const int64_t *s, const int32_t *axes, accel_fft_norm norm,
                                         const accel_array *out);

/* The sample frequencies of an n-point transform with sample spacing d
 * (NumPy's fftfreq: [0, 1, ..., (n-1)/2, -(n/2), ..., -1] / (d*n); rfftfreq:
 * [0, 1, ..., n/2] / (d*n)) into out, 1-D float32 or float64 of n (rfftfreq:
 * n/2 + 1) elements: the integers by accel_array_arange, then one multiply
 * by 1/(d*n) rounded to out's dtype (float64: NumPy's values exactly).
 * Blocking (a one-element temporary is freed). Errors:
 * ACCEL_ERROR_INVALID_ARGUMENT (n < 1, d zero or not finite),
 * ACCEL_ERROR_DTYPE_MISMATCH, ACCEL_ERROR_SHAPE_MISMATCH, the view checks. */
ACCEL_API accel_status accel_array_fftfreq(accel_queue *q, int64_t n, double d,
                                           const accel_array *out);
ACCEL_API accel_status accel_array_rfftfreq(accel_queue *q, int64_t n, double d,
                                            const accel_array *out);

/* ------------------------------------------------------------------ dtypes */

/* The result dtype of a binary function of arrays of dtypes a and b.
 * The Array API standard's promotion table (2023.12, "Type Promotion Rules")
 * within a kind: bool; int8 < int16 < int32 < int64; uint8 < ... < uint64;
 * (intN, uintM) -> the smallest signed integer holding both (int16 for
 * (int8, uint8), ...); float32 < float64; complex64 < complex128; float32
 * with complex64 -> complex64, float64 with complex64 -> complex128.
 * Where the standard leaves the result to the implementation, accel follows
 * NumPy 2 (so that the Python namespace agrees with what its users know):
 * - (int64, uint64) -> float64 (no integer holds both; NumPy's answer, which
 *   loses integers above 2^53 -- cast one operand first to avoid that);
 * - bool with any other dtype -> that dtype;
 * - an integer with a float or complex -> the float of at least the
 *   integer's precision (int8, uint8 -> float16; int16, uint16 -> float32;
 *   wider -> float64), then promoted with the other operand;
 * - float16 and bfloat16 (outside the standard) -> float32 together, and
 *   the wider float with float32 or float64.
 * Errors: ACCEL_ERROR_DTYPE_MISMATCH (an unknown dtype),
 * ACCEL_ERROR_INVALID_ARGUMENT (out NULL). *out is untouched on error. */
ACCEL_API accel_status accel_result_type(accel_dtype a, accel_dtype b, accel_dtype *out);

/* The result dtype of a binary function of an array of dtype a and a
 * Python scalar of kind scalar_kind (ACCEL_DTYPE_KIND_BOOL, _INT, _FLOAT or
 * _COMPLEX; _UINT counts as _INT). The standard's rule: a scalar of the
 * array's kind, or a "lower" kind (bool < int < float < complex), takes the
 * array's dtype (float32 + 2.5 -> float32, int8 + 3 -> int8). Beyond the
 * standard, as NumPy 2 (NEP 50): a complex scalar with a float array gives
 * the complex of that precision (float32 -> complex64; float16, bfloat16 ->
 * complex64), with an integer or bool array complex128; a float scalar with
 * an integer or bool array float64; an int scalar with a bool array int64.
 * Whether an integer scalar's value fits the result is checked where the
 * scalar is used, not here.
 * Errors: ACCEL_ERROR_DTYPE_MISMATCH (unknown dtype),
 * ACCEL_ERROR_INVALID_ARGUMENT (an unknown scalar_kind, out NULL). */
ACCEL_API accel_status accel_result_type_scalar(accel_dtype a, accel_dtype_kind scalar_kind,
                                                accel_dtype *out);

#ifdef __cplusplus
}
#endif
#endif /* ACCEL_ARRAY_H */
