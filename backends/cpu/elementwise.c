/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* elementwise.c — fill and the elementwise ops (add, sub, mul, div, max,
 * min), axpby, scale and the unary ops on f32 and f64, in parallel over fixed
 * blocks of ACCEL_CPU_EW_BLOCK elements.
 *
 * Numerics (the CPU backend is the cross-checking reference):
 * - add, sub, mul, div, sqrt, neg, abs, relu, scale: one IEEE operation in the
 *   dtype, so correctly rounded. Scalars are converted to the dtype first (as
 *   BLAS sscal/saxpby take float alpha).
 * - max/min are IEEE 754-2019 maximum/minimum (§9.6): NaN if either operand
 *   is NaN (a's NaN when both are), and -0 < +0, so max(-0, +0) = +0 and
 *   min(+0, -0) = -0 in either order (NumPy's np.maximum is order-dependent
 *   there). Equal operands are combined bitwise: AND of the bit patterns for
 *   max, OR for min, which is the operand itself unless they are zeros of
 *   opposite sign. Branch-free, so the loops still vectorize.
 * - exp, log, tanh, sin, cos: through SLEEF's vectorised u10 functions where
 *   the build found SLEEF (vmath.c; within 1.0 ulp, SLEEF's documented
 *   bound), float32 tanh through glibc's libmvec where found (1.5 ulp,
 *   vmath_kernels.h). Without it, and for sigmoid: f64 exp, log, sin and cos through
 *   glibc libm (< 1 ulp, exp measured 0.52), tanh and sigmoid through long
 *   double on x86 (glibc's tanh allows 2 ulp); f32 as (float)f(double x),
 *   correctly rounded except in rare double-rounding ties.
 * - axpby: f32 evaluates alpha*x + beta*y in double (products exact, one
 *   rounding to double, one to float); f64 as alpha*x + beta*y with IEEE
 *   operations (no fused multiply-add). beta == 0 still reads y (0*NaN = NaN).
 * Outputs either equal an input range exactly or do not overlap it, and each
 * element is read before it is written, so `omp simd` is safe in place. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "common/logistic.h"
#include "cpu.h"
#if ACCEL_CPU_HAVE_SLEEF
#include "vmath.h"
#endif

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// clang-format off
/* One block [lo, hi) of an elementwise loop. `omp simd` tells the compiler
 * that an in-place output (out == in, same index) does not prevent
 * vectorization. EW_PLAIN is for bodies that call libm, which cannot be
 * vectorized (clang warns about an unmet `omp simd`). */
#define EW_SIMD(lo, hi, ...)                                                    \
    _Pragma("omp simd")                                                         \
    for (size_t i = (lo); i < (hi); ++i) {                                      \
        __VA_ARGS__;                                                            \
    }
#define EW_PLAIN(lo, hi, ...)                                                   \
    for (size_t i = (lo); i < (hi); ++i) {                                      \
        __VA_ARGS__;                                                            \
    }

/* Runs the statement(s) for i in [0, n) in fixed blocks, over the team of
 * `nt` threads when there is more than one block (see ACCEL_CPU_FOR_BLOCKS). */
#define EW_FOR_WITH(INNER, n, ...)                                              \
    do {                                                                        \
        const size_t ew_n = (n);                                                \
        ACCEL_CPU_FOR_BLOCKS(ew_b, (ew_n + ACCEL_CPU_EW_BLOCK - 1) / ACCEL_CPU_EW_BLOCK, \
            const size_t ew_lo = ew_b * ACCEL_CPU_EW_BLOCK;                     \
            const size_t ew_hi = ew_n - ew_lo < ACCEL_CPU_EW_BLOCK ? ew_n : ew_lo + ACCEL_CPU_EW_BLOCK; \
            INNER(ew_lo, ew_hi, __VA_ARGS__));                                  \
    } while (0)
#define EW_FOR(n, nt, ...) EW_FOR_WITH(EW_SIMD, n, __VA_ARGS__)
#define EW_FOR_CALLS(n, nt, ...) EW_FOR_WITH(EW_PLAIN, n, __VA_ARGS__)
// clang-format on

/* x86-64: the elementwise loops are built twice, for the baseline (SSE2) and
 * for AVX2, and the loader picks one for the CPU it runs on (GCC's function
 * multi-versioning, an ifunc). Without FMA in the AVX2 set, nothing is
 * contracted: every op gives the same bits on either path. It halves the
 * instructions of a small in-cache op (a 1024-element add: 1873 on SSE2),
 * which is what a replayed graph of small ops spends its time on. GCC
 * clones the blocks that OpenMP's team runs (the outlined functions) too. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define EW_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define EW_CLONES
#endif

static inline float exp_f32(float x)
{
    return (float)exp((double)x);
}
static inline float log_f32(float x)
{
    return (float)log((double)x);
}
static inline float tanh_f32(float x)
{
    return (float)tanh((double)x);
}
static inline float sqrt_f32(float x)
{
    return sqrtf(x);
}
static inline float abs_f32(float x)
{
    return fabsf(x);
}
static inline double exp_f64(double x)
{
    return exp(x);
}
static inline double log_f64(double x)
{
    return log(x);
}
/* glibc's tanh is only within 2 ulp; where long double has a 64-bit
 * significand (x87) tanhl rounded once to double is within 0.5 ulp + 2^-11. */
#if LDBL_MANT_DIG == 64
static inline double tanh_f64(double x)
{
    return (double)tanhl((long double)x);
}
#else
static inline double tanh_f64(double x)
{
    return tanh(x);
}
#endif
static inline float sin_f32(float x)
{
    return (float)sin((double)x);
}
static inline float cos_f32(float x)
{
    return (float)cos((double)x);
}
static inline float sigmoid_f32(float x)
{
    return (float)accel_logistic((double)x);
}
static inline double sin_f64(double x)
{
    return sin(x);
}
static inline double cos_f64(double x)
{
    return cos(x);
}
#if LDBL_MANT_DIG == 64
/* In long double (64-bit significand), rounded once to double. */
static inline double sigmoid_f64(double x)
{
    long double l = x;
    if (l < 0) {
        long double e = expl(l);
        return (double)(e / (1.0L + e));
    }
    return (double)(1.0L / (1.0L + expl(-l)));
}
#else
static inline double sigmoid_f64(double x)
{
    return accel_logistic(x);
}
#endif
static inline double sqrt_f64(double x)
{
    return sqrt(x);
}
static inline double abs_f64(double x)
{
    return fabs(x);
}

/* IEEE 754-2019 maximum/minimum (see the file comment). */
static inline float max_f32(float a, float b)
{
    uint32_t ua, ub;
    memcpy(&ua, &a, sizeof ua);
    memcpy(&ub, &b, sizeof ub);
    uint32_t ue = ua & ub;
    float e;
    memcpy(&e, &ue, sizeof e);
    return a == b ? e : (a > b || a != a) ? a : b;
}
static inline float min_f32(float a, float b)
{
    uint32_t ua, ub;
    memcpy(&ua, &a, sizeof ua);
    memcpy(&ub, &b, sizeof ub);
    uint32_t ue = ua | ub;
    float e;
    memcpy(&e, &ue, sizeof e);
    return a == b ? e : (a < b || a != a) ? a : b;
}
static inline double max_f64(double a, double b)
{
    uint64_t ua, ub;
    memcpy(&ua, &a, sizeof ua);
    memcpy(&ub, &b, sizeof ub);
    uint64_t ue = ua & ub;
    double e;
    memcpy(&e, &ue, sizeof e);
    return a == b ? e : (a > b || a != a) ? a : b;
}
static inline double min_f64(double a, double b)
{
    uint64_t ua, ub;
    memcpy(&ua, &a, sizeof ua);
    memcpy(&ub, &b, sizeof ub);
    uint64_t ue = ua | ub;
    double e;
    memcpy(&e, &ue, sizeof e);
    return a == b ? e : (a < b || a != a) ? a : b;
}

static inline float axpby_f32(float a, float x, float b, float y)
{
    return (float)((double)a * (double)x + (double)b * (double)y);
}

static inline double axpby_f64(double a, double x, double b, double y)
{
    return a * x + b * y;
}

/* Outputs of at least this many bytes are written with streaming
 * (non-temporal) stores: past the last-level cache, a normal store first
 * reads the output line (read-for-ownership), so c = a + b moves 16 bytes per
 * f32 element instead of 12. glibc's memcpy streams the same way, which is
 * why it is the bandwidth ceiling `accel bench` compares with. The arithmetic
 * is the same IEEE operation (SSE2 add/sub/mul/div), so results are
 * bit-identical to the plain loop. */
#define ACCEL_CPU_STREAM_MIN_BYTES ((size_t)8 << 20)

#if defined(__SSE2__)
#define DEFINE_STREAM_BINARY(T, SUF, V, W, LOAD, STORE, ADD, SUB, MUL, DIV)                        \
    static void stream_binary_##SUF(uint32_t opc, const T *a, const T *b, T *o, size_t lo,         \
                                    size_t hi)                                                     \
    {                                                                                              \
        size_t i = lo;                                                                             \
        for (; i < hi && ((uintptr_t)(o + i) & 15u) != 0; ++i)                                     \
            o[i] = opc == ACCEL_OP_ADD   ? a[i] + b[i]                                             \
                   : opc == ACCEL_OP_SUB ? a[i] - b[i]                                             \
                   : opc == ACCEL_OP_MUL ? a[i] * b[i]                                             \
                                         : a[i] / b[i];                                            \
        for (; i + W <= hi; i += W) {                                                              \
            V x = LOAD(a + i), y = LOAD(b + i);                                                    \
            V r = opc == ACCEL_OP_ADD   ? ADD(x, y)                                                \
                  : opc == ACCEL_OP_SUB ? SUB(x, y)                                                \
                  : opc == ACCEL_OP_MUL ? MUL(x, y)                                                \
                                        : DIV(x, y);                                               \
            STORE(o + i, r);                                                                       \
        }                                                                                          \
        for (; i < hi; ++i)                                                                        \
            o[i] = opc == ACCEL_OP_ADD   ? a[i] + b[i]                                             \
                   : opc == ACCEL_OP_SUB ? a[i] - b[i]                                             \
                   : opc == ACCEL_OP_MUL ? a[i] * b[i]                                             \
                                         : a[i] / b[i];                                            \
        _mm_sfence(); /* streaming stores are weakly ordered: publish them */                      \
    }
DEFINE_STREAM_BINARY(float, f32, __m128, 4, _mm_loadu_ps, _mm_stream_ps, _mm_add_ps, _mm_sub_ps,
                     _mm_mul_ps, _mm_div_ps)
DEFINE_STREAM_BINARY(double, f64, __m128d, 2, _mm_loadu_pd, _mm_stream_pd, _mm_add_pd, _mm_sub_pd,
                     _mm_mul_pd, _mm_div_pd)
#define EW_HAVE_STREAM 1
#else
#define EW_HAVE_STREAM 0
#endif

/* One block [lo, hi) handed to a function of the block's bounds. */
#define EW_RANGE(lo, hi, ...)                                                                      \
    {                                                                                              \
        const size_t ew_rlo = (lo), ew_rhi = (hi);                                                 \
        __VA_ARGS__;                                                                               \
    }

/* exp, log, tanh, sin, cos through SLEEF where it was found (vmath.c). */
#if ACCEL_CPU_HAVE_SLEEF
#define EW_HAVE_VMATH 1
#define EW_VMATH_HANDLES(opc) accel_cpu__vmath_handles(opc)
#define EW_VMATH_f32 accel_cpu__vmath_f32
#define EW_VMATH_f64 accel_cpu__vmath_f64
#else
#define EW_HAVE_VMATH 0
#define EW_VMATH_HANDLES(opc) ((void)(opc), 0)
#define EW_VMATH_f32(opc, a, o, n) ((void)(opc), (void)(a), (void)(o), (void)(n))
#define EW_VMATH_f64(opc, a, o, n) ((void)(opc), (void)(a), (void)(o), (void)(n))
#endif

#define DEFINE_ELEMENTWISE(T, SUF)                                                                 \
    EW_CLONES static void elementwise_##SUF(const accel_cpu_op *op, int nt)                        \
    {                                                                                              \
        const T *a = op->ptr[0];                                                                   \
        const T *b = op->ptr[1];                                                                   \
        T *o;                                                                                      \
        const size_t n = op->count[0];                                                             \
        if (EW_HAVE_STREAM && n * sizeof(T) >= ACCEL_CPU_STREAM_MIN_BYTES &&                       \
            (op->op == ACCEL_OP_ADD || op->op == ACCEL_OP_SUB || op->op == ACCEL_OP_MUL ||         \
             op->op == ACCEL_OP_DIV)) {                                                            \
            EW_STREAM_##SUF(n, op->op, a, b, (T *)op->ptr[2]);                                     \
            return;                                                                                \
        }                                                                                          \
        if (EW_HAVE_VMATH && EW_VMATH_HANDLES(op->op)) {                                           \
            o = op->ptr[1];                                                                        \
            EW_FOR_WITH(EW_RANGE, n,                                                               \
                        EW_VMATH_##SUF(op->op, a + ew_rlo, o + ew_rlo, ew_rhi - ew_rlo));          \
            return;                                                                                \
        }                                                                                          \
        switch ((accel_op_code)op->op) {                                                           \
        case ACCEL_OP_FILL: {                                                                      \
            const T v = (T)op->scalars[0];                                                         \
            o = op->ptr[0];                                                                        \
            EW_FOR(n, nt, o[i] = v);                                                               \
            break;                                                                                 \
        }                                                                                          \
        case ACCEL_OP_ADD:                                                                         \
            o = op->ptr[2];                                                                        \
            EW_FOR(n, nt, o[i] = a[i] + b[i]);                                                     \
            break;                                                                                 \
        case ACCEL_OP_SUB:                                                                         \
            o = op->ptr[2];                                                                        \
            EW_FOR(n, nt, o[i] = a[i] - b[i]);                                                     \
            break;                                                                                 \
        case ACCEL_OP_MUL:                                                                         \
            o = op->ptr[2];                                                                        \
            EW_FOR(n, nt, o[i] = a[i] * b[i]);                                                     \
            break;                                                                                 \
        case ACCEL_OP_DIV:                                                                         \
            o = op->ptr[2];                                                                        \
            EW_FOR(n, nt, o[i] = a[i] / b[i]);                                                     \
            break;                                                                                 \
        case ACCEL_OP_MAX:                                                                         \
            o = op->ptr[2];                                                                        \
            EW_FOR(n, nt, o[i] = max_##SUF(a[i], b[i]));                                           \
            break;                                                                                 \
        case ACCEL_OP_MIN:                                                                         \
            o = op->ptr[2];                                                                        \
            EW_FOR(n, nt, o[i] = min_##SUF(a[i], b[i]));                                           \
            break;                                                                                 \
        case ACCEL_OP_AXPBY: {                                                                     \
            const T al = (T)op->scalars[0], be = (T)op->scalars[1];                                \
            o = op->ptr[1];                                                                        \
            EW_FOR(n, nt, o[i] = axpby_##SUF(al, a[i], be, o[i]));                                 \
            break;                                                                                 \
        }                                                                                          \
        case ACCEL_OP_SCALE: {                                                                     \
            const T al = (T)op->scalars[0];                                                        \
            o = op->ptr[1];                                                                        \
            EW_FOR(n, nt, o[i] = al * a[i]);                                                       \
            break;                                                                                 \
        }                                                                                          \
        case ACCEL_OP_NEG:                                                                         \
            o = op->ptr[1];                                                                        \
            EW_FOR(n, nt, o[i] = -a[i]);                                                           \
            break;                                                                                 \
        case ACCEL_OP_ABS:                                                                         \
            o = op->ptr[1];                                                                        \
            EW_FOR(n, nt, o[i] = abs_##SUF(a[i]));                                                 \
            break;                                                                                 \
        case ACCEL_OP_SQRT:                                                                        \
            o = op->ptr[1];                                                                        \
            EW_FOR(n, nt, o[i] = sqrt_##SUF(a[i]));                                                \
            break;                                                                                 \
        case ACCEL_OP_EXP:                                                                         \
            o = op->ptr[1];                                                                        \
            EW_FOR_CALLS(n, nt, o[i] = exp_##SUF(a[i]));                                           \
            break;                                                                                 \
        case ACCEL_OP_LOG:                                                                         \
            o = op->ptr[1];                                                                        \
            EW_FOR_CALLS(n, nt, o[i] = log_##SUF(a[i]));                                           \
            break;                                                                                 \
        case ACCEL_OP_TANH:                                                                        \
            o = op->ptr[1];                                                                        \
            EW_FOR_CALLS(n, nt, o[i] = tanh_##SUF(a[i]));                                          \
            break;                                                                                 \
        case ACCEL_OP_SIN:                                                                         \
            o = op->ptr[1];                                                                        \
            EW_FOR_CALLS(n, nt, o[i] = sin_##SUF(a[i]));                                           \
            break;                                                                                 \
        case ACCEL_OP_COS:                                                                         \
            o = op->ptr[1];                                                                        \
            EW_FOR_CALLS(n, nt, o[i] = cos_##SUF(a[i]));                                           \
            break;                                                                                 \
        case ACCEL_OP_SIGMOID:                                                                     \
            o = op->ptr[1];                                                                        \
            EW_FOR_CALLS(n, nt, o[i] = sigmoid_##SUF(a[i]));                                       \
            break;                                                                                 \
        case ACCEL_OP_RELU:                                                                        \
            /* x <= 0 is false for NaN, which therefore passes through. */                         \
            o = op->ptr[1];                                                                        \
            EW_FOR(n, nt, o[i] = a[i] <= (T)0 ? (T)0 : a[i]);                                      \
            break;                                                                                 \
        /* Not elementwise (ops.c sends them elsewhere); no default, so an                         \
         * elementwise op without a kernel here is a compile error. */                             \
        case ACCEL_OP_INVALID:                                                                     \
        case ACCEL_OP_COPY:                                                                        \
        case ACCEL_OP_TRANSPOSE:                                                                   \
        case ACCEL_OP_SUM:                                                                         \
        case ACCEL_OP_REDUCE_MAX:                                                                  \
        case ACCEL_OP_REDUCE_MIN:                                                                  \
        case ACCEL_OP_DOT:                                                                         \
        case ACCEL_OP_GEMM:                                                                        \
        case ACCEL_OP_RANDOM_UNIFORM:                                                              \
        case ACCEL_OP_RANDOM_NORMAL:                                                               \
        case ACCEL_OP_SORT:                                                                        \
        case ACCEL_OP_ARGSORT:                                                                     \
        case ACCEL_OP_CHOLESKY:                                                                    \
        case ACCEL_OP_SOLVE:                                                                       \
        case ACCEL_OP_SLOGDET:                                                                     \
        case ACCEL_OP_QR:                                                                          \
        case ACCEL_OP_EIGH:                                                                        \
        case ACCEL_OP_SVD:                                                                         \
        case ACCEL_OP_FFT:                                                                         \
        case ACCEL_OP_RFFT:                                                                        \
        case ACCEL_OP_IRFFT:                                                                       \
        case ACCEL_OP_CUMSUM:                                                                      \
        case ACCEL_OP_KERNEL:                                                                      \
            break;                                                                                 \
        }                                                                                          \
    }

#if EW_HAVE_STREAM
#define EW_STREAM_f32(n, opc, a, b, o)                                                             \
    EW_FOR_WITH(EW_RANGE, n, stream_binary_f32(opc, a, b, o, ew_rlo, ew_rhi))
#define EW_STREAM_f64(n, opc, a, b, o)                                                             \
    EW_FOR_WITH(EW_RANGE, n, stream_binary_f64(opc, a, b, o, ew_rlo, ew_rhi))
#else
#define EW_STREAM_f32(n, opc, a, b, o) ((void)(n), (void)(opc), (void)(a), (void)(b), (void)(o))
#define EW_STREAM_f64(n, opc, a, b, o) ((void)(n), (void)(opc), (void)(a), (void)(b), (void)(o))
#endif
DEFINE_ELEMENTWISE(float, f32)
DEFINE_ELEMENTWISE(double, f64)

void accel_cpu__elementwise(const accel_cpu_op *op, int threads)
{
    if (op->dtype == ACCEL_F32)
        elementwise_f32(op, threads);
    else
        elementwise_f64(op, threads);
}
