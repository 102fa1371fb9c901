/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/tolerance.c — the tolerance model of accel/verify.h: when an op's output
 * on one backend is "the same answer" as a reference's. Used by verify mode
 * (verify.c), `accel verify`, `accel replay` and the tests, so that all of them
 * apply the same bounds. Sources of the bounds: accel/verify.h. */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "accel/verify.h"

#include "base/optable.h"
#include "base/status.h"
#include "base/struct_size.h"
#include "check/tolerance.h"
#include "check/tolerance_linalg.h"

void accel_tolerance_op_init(accel_tolerance_op *t)
{
    if (!accel__struct_init(t, sizeof *t))
        return;
    t->batch_count = 1;
}

/* ------------------------------------------------------------ elements */

static double half_to_double(uint16_t h)
{
    int e = (h >> 10) & 0x1f;
    int m = h & 0x3ff;
    double v;
    if (e == 0)
        v = ldexp(m, -24);
    else if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = ldexp(m | 0x400, e - 25);
    return (h & 0x8000) ? -v : v;
}

/* Element i of p as a double; NaN for the integer dtypes (user kernels,
 * compared exactly in kernel_check.c), complex and unknown ones. */
static double load(accel_dtype dt, const void *p, size_t i)
{
    const char *at = (const char *)p + i * accel_dtype_size(dt);
    if (dt == ACCEL_F32) {
        float f;
        memcpy(&f, at, 4);
        return f;
    }
    if (dt == ACCEL_F64) {
        double f;
        memcpy(&f, at, 8);
        return f;
    }
    uint16_t h;
    if (dt != ACCEL_F16 && dt != ACCEL_BF16)
        return NAN;
    memcpy(&h, at, 2);
    if (dt == ACCEL_F16)
        return half_to_double(h);
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Spacing of dtype's numbers at the magnitude of x (the subnormal spacing
 * below the smallest normal). */
static double ulp_at(accel_dtype dt, double x)
{
    /* precision (bits incl. the implicit one), min normal exponent; bf16
     * and the rest: binary32's exponent with 8 bits */
    int p = 8, emin = -126;
    if (dt == ACCEL_F32)
        p = 24;
    else if (dt == ACCEL_F64)
        p = 53, emin = -1022;
    else if (dt == ACCEL_F16)
        p = 11, emin = -14;
    x = fabs(x);
    int e = x > 0 && isfinite(x) ? ilogb(x) : emin;
    if (e < emin)
        e = emin;
    return ldexp(1.0, e - p + 1);
}

static bool same_bits(const void *a, const void *b, size_t esize, size_t i)
{
    return memcmp((const char *)a + i * esize, (const char *)b + i * esize, esize) == 0;
}

typedef struct cmp_state {
    accel_compare_result r;
    double worst; /* error/bound of r.worst_index (worst_ratio is Inf once one is bad) */
} cmp_state;

/* Element i differs from its reference by err > 0 against bound. */
static void note_worst(cmp_state *s, size_t i, double err, double bound)
{
    double ratio = isfinite(err) && bound > 0 ? err / bound : INFINITY;
    if (s->r.worst_index == SIZE_MAX || ratio > s->worst) {
        s->worst = ratio;
        s->r.worst_index = i;
        s->r.worst_error = err;
        s->r.worst_bound = bound;
    }
}

/* One element: record it and return false when outside its bound. */
static bool check_one(cmp_state *s, size_t i, double got, double exp, double bound)
{
    s->r.checked++;
    double err;
    bool ok;
    if (isnan(exp) || isnan(got)) {
        ok = isnan(exp) && isnan(got);
        err = ok ? 0.0 : INFINITY;
    } else if (isinf(exp) || isinf(got)) {
        ok = got == exp;
        err = ok ? 0.0 : INFINITY;
    } else {
        err = fabs(got - exp);
        ok = err <= bound;
    }
    if (err > 0)
        note_worst(s, i, err, bound);
    if (ok) {
        if (err > 0) {
            double ratio = bound > 0 ? err / bound : INFINITY;
            if (ratio > s->r.worst_ratio)
                s->r.worst_ratio = ratio;
        }
        return true;
    }
    if (s->r.bad++ == 0) {
        s->r.first_bad = i;
        s->r.got = got;
        s->r.expected = exp;
        s->r.error = err;
        s->r.bound = bound;
    }
    s->r.worst_ratio = INFINITY;
    return false;
}

/* A stored element that must not change (gaps of C, guard elements). */
static void check_kept(cmp_state *s, size_t i, const void *got, const void *old, accel_dtype dt)
{
    size_t es = accel_dtype_size(dt);
    s->r.checked++;
    if (!old || same_bits(got, old, es, i))
        return;
    note_worst(s, i, INFINITY, 0);
    if (s->r.bad++ == 0) {
        s->r.first_bad = i;
        s->r.got = load(dt, got, i);
        s->r.expected = load(dt, old, i);
        s->r.error = INFINITY;
        s->r.bound = 0;
        s->r.worst_ratio = INFINITY;
    }
}

static void compare_gemm(cmp_state *s, const accel_tolerance_op *d, const accel_op_properties *info,
                         const void *const in[4], const void *got, const void *exp)
{
    accel_dtype dt = (accel_dtype)d->dtype;
    double eps = accel_dtype_epsilon(dt);
    if (d->allow_tf32 && dt == ACCEL_F32)
        eps = 0x1p-10;
    double alpha = fabs(d->scalars[0]), beta = fabs(d->scalars[1]), c = info->tolerance_n;
    size_t span = d->counts[2];
    size_t batch = d->batch_count ? d->batch_count : 1;
    /* Which elements of C's span are matrix entries; the rest must keep
     * their old value. */
    for (size_t i = 0; i < span; i++) {
        size_t b = batch > 1 && d->stride_c ? i / d->stride_c : 0;
        size_t r = i - b * (batch > 1 ? d->stride_c : 0);
        size_t row = r / d->ldc, col = r % d->ldc;
        if (b >= batch || row >= d->m || col >= d->n) {
            check_kept(s, i, got, in[2], dt);
            continue;
        }
        double absab = 0;
        if (in[0] && in[1]) {
            const void *A = in[0], *B = in[1];
            size_t ab = b * (batch > 1 ? d->stride_a : 0), bb = b * (batch > 1 ? d->stride_b : 0);
            for (size_t l = 0; l < d->k; l++) {
                size_t ia = d->trans_a ? ab + l * d->lda + row : ab + row * d->lda + l;
                size_t ib = d->trans_b ? bb + col * d->ldb + l : bb + l * d->ldb + col;
                absab += fabs(load(dt, A, ia) * load(dt, B, ib));
            }
        }
        double cold = in[2] && d->scalars[1] != 0 ? fabs(load(dt, in[2], i)) : 0;
        double bound = c * (double)(d->k + 2) * eps * (alpha * absab + beta * cold);
        check_one(s, i, load(dt, got, i), load(dt, exp, i), bound);
    }
    s->r.rule = "c*(k+2)*eps*(|alpha||A||B| + |beta||C|)_ij, c = 2, Higham 2002 3.5";
}

static void compare_transpose(cmp_state *s, const accel_tolerance_op *d, const void *const in[4],
                              const void *got, const void *exp)
{
    accel_dtype dt = (accel_dtype)d->dtype;
    size_t es = accel_dtype_size(dt);
    size_t span = d->counts[1];
    for (size_t i = 0; i < span; i++) {
        size_t row = i / d->ldc, col = i % d->ldc;
        if (row >= d->n || col >= d->m) {
            check_kept(s, i, got, in[1], dt);
            continue;
        }
        s->r.checked++;
        if (same_bits(got, exp, es, i))
            continue;
        double g = load(dt, got, i), e = load(dt, exp, i);
        note_worst(s, i, isnan(g) || isnan(e) ? INFINITY : fabs(g - e), 0);
        if (s->r.bad++ == 0) {
            s->r.first_bad = i;
            s->r.got = g;
            s->r.expected = e;
            s->r.error = fabs(g - e);
            s->r.bound = 0;
            s->r.worst_ratio = INFINITY;
        }
    }
    s->r.rule = "bit-identical";
}

/* ------------------------------------------------------------ shapes */

/* Elements from a stored matrix's first element to one past its last, over
 * batch matrices stride apart: (batch-1)*stride + (rows-1)*ld + cols; 0 when
 * it is empty. false on overflow or ld < cols. */
static bool matrix_span(size_t rows, size_t cols, size_t ld, size_t batch, size_t stride,
                        size_t *out)
{
    *out = 0;
    if (rows == 0 || cols == 0 || batch == 0)
        return true;
    if (ld < cols)
        return false;
    size_t one, all;
    if (__builtin_mul_overflow(rows - 1, ld, &one) || __builtin_add_overflow(one, cols, &one) ||
        __builtin_mul_overflow(batch - 1, batch > 1 ? stride : 0, &all) ||
        __builtin_add_overflow(all, one, &all))
        return false;
    *out = all;
    return true;
}

static accel_status check_matrix(const char *fn, const char *name, size_t rows, size_t cols,
                                 size_t ld, size_t batch, size_t stride, size_t count)
{
    size_t span;
    if (!matrix_span(rows, cols, ld, batch, stride, &span))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: %s is %zu x %zu with leading dimension %zu over %zu batches "
                           "(stride %zu): the leading dimension is below the row length or the "
                           "extent overflows",
                           fn, name, rows, cols, ld, batch, stride);
    if (span > count)
        return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                           "%s: %s needs %zu elements (%zu x %zu, leading dimension %zu, %zu "
                           "batches, stride %zu) but its operand has %zu",
                           fn, name, span, rows, cols, ld, batch, stride, count);
    return ACCEL_SUCCESS;
}

/* An FFT op's element counts: x and out hold outer x len x inner elements
 * with len n, or n/2 + 1 on the complex side of RFFT and IRFFT. */
static size_t fft_len(const accel_tolerance_op *d, uint32_t operand)
{
    bool half =
        (d->op == ACCEL_OP_RFFT && operand == 1) || (d->op == ACCEL_OP_IRFFT && operand == 0);
    return half ? d->n / 2 + 1 : d->n;
}

static accel_status check_fft_shapes(const char *fn, const accel_tolerance_op *d)
{
    for (uint32_t i = 0; i < 2; i++) {
        size_t all;
        if (__builtin_mul_overflow(d->m, fft_len(d, i), &all) ||
            __builtin_mul_overflow(all, d->k, &all) || all != d->counts[i])
            return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                               "%s: an FFT of %zu x %zu x %zu needs %zu elements in operand %u, "
                               "not %zu",
                               fn, d->m, d->n, d->k, d->m * fft_len(d, i) * d->k, i, d->counts[i]);
    }
    return ACCEL_SUCCESS;
}

/* Every operand count agrees with the shape the op describes, so nothing
 * below reads past a host copy. */
static accel_status check_shapes(const char *fn, const accel_tolerance_op *d,
                                 const accel_op_properties *p)
{
    uint32_t out = d->num_operands - 1;
    switch (p->kind) {
    case ACCEL_OP_KIND_GEMM: {
        size_t b = d->batch_count;
        accel_status st = check_matrix(fn, "A", d->trans_a ? d->k : d->m, d->trans_a ? d->m : d->k,
                                       d->lda, b, d->stride_a, d->counts[0]);
        if (st == ACCEL_SUCCESS)
            st = check_matrix(fn, "B", d->trans_b ? d->n : d->k, d->trans_b ? d->k : d->n, d->ldb,
                              b, d->stride_b, d->counts[1]);
        if (st == ACCEL_SUCCESS)
            st = check_matrix(fn, "C", d->m, d->n, d->ldc, b, d->stride_c, d->counts[2]);
        if (st == ACCEL_SUCCESS && d->counts[2] > 0 && (d->ldc == 0 || (b > 1 && d->stride_c == 0)))
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: C has %zu elements but ldc = %zu and stride_c = %zu place "
                               "none of them",
                               fn, d->counts[2], d->ldc, d->stride_c);
        return st;
    }
    case ACCEL_OP_KIND_TRANSPOSE: {
        accel_status st = check_matrix(fn, "x", d->m, d->n, d->lda, 1, 0, d->counts[0]);
        if (st == ACCEL_SUCCESS)
            st = check_matrix(fn, "out", d->n, d->m, d->ldc, 1, 0, d->counts[1]);
        if (st == ACCEL_SUCCESS && d->counts[1] > 0 && d->ldc == 0)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: out has %zu elements but ldc = 0",
                               fn, d->counts[1]);
        return st;
    }
    case ACCEL_OP_KIND_REDUCTION:
        if (d->counts[out] != 1)
            return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                               "%s: a reduction writes 1 element but the output has %zu", fn,
                               d->counts[out]);
        if (out == 2 && d->counts[0] != d->counts[1])
            return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH, "%s: x has %zu elements but y has %zu",
                               fn, d->counts[0], d->counts[1]);
        return ACCEL_SUCCESS;
    case ACCEL_OP_KIND_FILL:
    case ACCEL_OP_KIND_COPY:
    case ACCEL_OP_KIND_BINARY:
    case ACCEL_OP_KIND_UNARY:
    case ACCEL_OP_KIND_AXPBY:
    case ACCEL_OP_KIND_RANDOM:
        break;
    case ACCEL_OP_KIND_LINALG:
        return accel__linalg_shapes(fn, d);
    case ACCEL_OP_KIND_FFT:
        return check_fft_shapes(fn, d);
    case ACCEL_OP_KIND_SORT:
    case ACCEL_OP_KIND_SCAN: {
        size_t all;
        if (__builtin_mul_overflow(d->m, d->n, &all) || __builtin_mul_overflow(all, d->k, &all) ||
            all != d->counts[out])
            return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                               "%s: lines of %zu x %zu x %zu elements but the output has %zu", fn,
                               d->m, d->n, d->k, d->counts[out]);
        break;
    }
    }
    for (uint32_t i = 0; i < out; i++)
        if (d->counts[i] != d->counts[out])
            return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                               "%s: operand %u has %zu elements but the output has %zu", fn, i,
                               d->counts[i], d->counts[out]);
    return ACCEL_SUCCESS;
}

/* ------------------------------------------------------------ rules */

/* sum and dot: one element against c*n*eps*sum|x_i| (dot: |x_i*y_i|). */
static void compare_sum(cmp_state *s, const accel_tolerance_op *d, const accel_op_properties *p,
                        const void *const in[4], const void *got, const void *exp)
{
    accel_dtype dt = d->dtype;
    bool dot = d->num_operands == 3;
    size_t n = d->counts[0];
    double mag = 0;
    if (in[0] && (!dot || in[1])) {
        for (size_t i = 0; i < n; i++) {
            double v = load(dt, in[0], i);
            if (dot)
                v *= load(dt, in[1], i);
            mag += fabs(v);
        }
    } else {
        mag = INFINITY;
    }
    double bound = p->tolerance_n * (double)n * accel_dtype_epsilon(dt) * mag;
    check_one(s, 0, load(dt, got, 0), load(dt, exp, 0), bound);
    s->r.rule =
        dot ? "c*n*eps*sum|x*y|, c = 2, Higham 2002 3.1" : "c*n*eps*sum|x|, c = 2, Higham 2002 4.2";
}

/* |alpha*x| + |beta*y| of element i (axpby; scale has no y), or NAN when the
 * inputs are missing. */
static double terms(const accel_tolerance_op *d, const void *const in[4], size_t i)
{
    accel_dtype dt = d->dtype;
    if (!in[0])
        return NAN;
    double t = fabs(d->scalars[0] * load(dt, in[0], i));
    if (d->op == ACCEL_OP_AXPBY) {
        if (!in[1])
            return NAN;
        t += fabs(d->scalars[1] * load(dt, in[1], i));
    }
    return t;
}

/* Element by element against N ulp of the reference (or of the terms). */
static void compare_elements(cmp_state *s, const accel_tolerance_op *d,
                             const accel_op_properties *p, const void *const in[4], const void *got,
                             const void *exp)
{
    accel_dtype dt = d->dtype;
    double eps = accel_dtype_epsilon(dt), ulps = p->tolerance_n;
    size_t n = d->counts[d->num_operands - 1];
    for (size_t i = 0; i < n; i++) {
        double e = load(dt, exp, i);
        double bound = 0;
        switch (p->tolerance) {
        case ACCEL_TOLERANCE_EXACT:
            break;
        case ACCEL_TOLERANCE_ULPS:
            bound = ulps * ulp_at(dt, e);
            break;
        case ACCEL_TOLERANCE_TERMS: {
            double t = terms(d, in, i);
            bound = ulps * ulp_at(dt, isfinite(t) && t > fabs(e) ? t : e);
            break;
        }
        case ACCEL_TOLERANCE_NORMAL:
            bound = ulps * ulp_at(dt, e) + 64.0 * eps * fabs(d->scalars[1]);
            break;
        case ACCEL_TOLERANCE_SUM:
        case ACCEL_TOLERANCE_GEMM:
        case ACCEL_TOLERANCE_BACKWARD:
        case ACCEL_TOLERANCE_FFT:
        case ACCEL_TOLERANCE_PREFIX:
            break; /* not elementwise rules; compare_op never sends them here */
        }
        check_one(s, i, load(dt, got, i), e, bound);
    }
    if (p->tolerance == ACCEL_TOLERANCE_EXACT)
        s->r.rule = "bit-identical";
    else if (p->tolerance == ACCEL_TOLERANCE_NORMAL)
        s->r.rule = "4 ulp + 64*eps*stddev";
    else if (p->tolerance == ACCEL_TOLERANCE_TERMS)
        s->r.rule =
            d->op == ACCEL_OP_AXPBY ? "4 ulp of |alpha*x| + |beta*y|" : "1 ulp of |alpha*x|";
    else
        s->r.rule = ulps == 1 ? "1 ulp: each correctly rounded (the exact IEEE result)" : "4 ulp";
}

/* Every element bit for bit (sort: the order of equal keys and NaNs is
 * fixed, so two correct backends agree exactly). */
static void compare_bits(cmp_state *s, const accel_tolerance_op *d, accel_dtype dt, const void *got,
                         const void *exp)
{
    size_t n = d->counts[d->num_operands - 1];
    /* Each element as one that must not change: the same bits as exp's. */
    for (size_t i = 0; i < n; i++)
        check_kept(s, i, got, exp, dt);
    s->r.rule = "bit-identical";
}

/* CUMSUM (out in accel_scan_out_dtype): element j of each line against 1
 * ulp of the reference plus
 * c*(j+1)*u64*sum|x_0..j| (both sides are float64 running sums, each in its
 * own order, rounded once: Higham 2002 4.2 for the sums' error); integers
 * bit for bit (two's complement sums agree in any order). */
static void compare_scan(cmp_state *s, const accel_tolerance_op *d, const accel_op_properties *p,
                         const void *const in[4], const void *got, const void *exp)
{
    accel_dtype dt = d->dtype, ot = (accel_dtype)accel_scan_out_dtype(dt, d->flags);
    if (accel_dtype_kind_of(ot) != ACCEL_DTYPE_KIND_FLOAT) {
        compare_bits(s, d, ot, got, exp);
        return;
    }
    for (size_t o = 0; o < d->m; o++)
        for (size_t i = 0; i < d->k; i++) {
            double mag = in[0] ? 0.0 : INFINITY;
            for (size_t j = 0; j < d->n; j++) {
                size_t at = (o * d->n + j) * d->k + i;
                if (in[0])
                    mag += fabs(load(dt, in[0], at));
                double e = load(ot, exp, at);
                double bound = ulp_at(ot, e) + p->tolerance_n * (double)(j + 1) * 0x1p-53 * mag;
                check_one(s, at, load(ot, got, at), e, bound);
            }
        }
    s->r.rule = "1 ulp + c*(j+1)*u64*sum|x_0..j|, c = 2 (float64 running sums, Higham 2002 4.2)";
}

/* LINALG: every problem's backward-error checks (tolerance_linalg.c). */
static void compare_linalg(cmp_state *s, const accel_tolerance_op *d, const void *const in[4],
                           const void *got, const void *exp)
{
    accel__linalg_check c;
    for (size_t t = 0; t < d->batch_count; t++)
        for (size_t j = 0; accel__linalg_check_at(d, in, got, exp, t, j, &c); j++)
            check_one(s, c.index, c.got, c.ref, c.bound);
    s->r.rule = "backward error: residual <= c*n*eps*norms (accel/verify.h)";
}

/* The largest prime factor of n (1 for n <= 1). */
static size_t largest_prime_factor(size_t n)
{
    size_t best = 1;
    for (size_t f = 2; f * f <= n; f++)
        while (n % f == 0)
            best = f, n /= f;
    return n > 1 ? n : best;
}

/* FFT ops, one transformed line at a time in the L2 norm:
 * ||got - exp|| <= N*u*(log2(n) + p)*||exp||, p the largest prime factor of
 * n when in 7..61 (else 0). The log2(n) term is the Cooley-Tukey bound
 * (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed.,
 * Theorem 24.2; Schatzman, "Accuracy of the discrete Fourier transform and
 * the fast Fourier transform", SIAM J. Sci. Comput. 17(5), 1996); p covers
 * a radix-p stage done as a direct DFT of p terms (kissfft's generic
 * butterfly, which the CPU backend uses up to 61; larger primes go through
 * Bluestein's algorithm there and in cuFFT, O(u log n) again), whose error
 * grows like a p-term sum. A line whose reference
 * has a NaN or Inf must have one too. */
static void compare_fft(cmp_state *s, const accel_tolerance_op *d, const accel_op_properties *p,
                        const void *got, const void *exp)
{
    accel_dtype rt = d->dtype == ACCEL_C128 ? ACCEL_F64 : ACCEL_F32;
    size_t w = d->op == ACCEL_OP_IRFFT ? 1 : 2, len = fft_len(d, 1);
    size_t pf = largest_prime_factor(d->n);
    double c = p->tolerance_n * (accel_dtype_epsilon(rt) / 2) *
               (log2((double)(d->n > 1 ? d->n : 2)) + (pf > 5 && pf <= 61 ? (double)pf : 0.0));
    for (size_t o = 0; o < d->m; o++)
        for (size_t i = 0; i < d->k; i++) {
            double err = 0, norm = 0;
            bool bad_exp = false, bad_got = false;
            size_t first = (o * len) * d->k + i;
            for (size_t j = 0; j < len; j++)
                for (size_t t = 0; t < w; t++) {
                    size_t at = ((o * len + j) * d->k + i) * w + t;
                    double g = load(rt, got, at), e = load(rt, exp, at);
                    bad_exp |= !isfinite(e), bad_got |= !isfinite(g);
                    err += (g - e) * (g - e), norm += e * e;
                }
            s->r.checked += len;
            err = sqrt(err), norm = sqrt(norm);
            double bound = c * norm;
            bool ok = bad_exp ? bad_got : !bad_got && err <= bound;
            if (err > 0 && !bad_exp)
                note_worst(s, first, bad_got ? INFINITY : err, bound);
            if (ok && err > 0 && !bad_exp && err / (bound > 0 ? bound : 1e-300) > s->r.worst_ratio)
                s->r.worst_ratio = bound > 0 ? err / bound : INFINITY;
            if (ok)
                continue;
            if (s->r.bad++ == 0) {
                s->r.first_bad = first;
                s->r.got = load(rt, got, first * w);
                s->r.expected = load(rt, exp, first * w);
                s->r.error = bad_got ? INFINITY : err;
                s->r.bound = bound;
            }
            s->r.worst_ratio = INFINITY;
        }
    s->r.rule = "FFT: N*u*(log2 n + p)*||line|| in the L2 norm (Higham Thm 24.2)";
}

static void compare_op(cmp_state *s, const accel_tolerance_op *d, const accel_op_properties *p,
                       const void *const in[4], const void *got, const void *exp)
{
    if (p->kind == ACCEL_OP_KIND_LINALG) {
        compare_linalg(s, d, in, got, exp);
        return;
    }
    if (p->kind == ACCEL_OP_KIND_TRANSPOSE) {
        compare_transpose(s, d, in, got, exp);
        return;
    }
    if (p->kind == ACCEL_OP_KIND_SORT) {
        compare_bits(s, d, d->op == ACCEL_OP_ARGSORT ? ACCEL_I64 : (accel_dtype)d->dtype, got, exp);
        return;
    }
    if (p->kind == ACCEL_OP_KIND_FFT) {
        compare_fft(s, d, p, got, exp);
        return;
    }
    if (p->kind == ACCEL_OP_KIND_SCAN) {
        compare_scan(s, d, p, in, got, exp);
        return;
    }
    switch (p->tolerance) {
    case ACCEL_TOLERANCE_GEMM:
        compare_gemm(s, d, p, in, got, exp);
        return;
    case ACCEL_TOLERANCE_SUM:
        compare_sum(s, d, p, in, got, exp);
        return;
    case ACCEL_TOLERANCE_EXACT:
    case ACCEL_TOLERANCE_ULPS:
    case ACCEL_TOLERANCE_TERMS:
    case ACCEL_TOLERANCE_NORMAL:
    case ACCEL_TOLERANCE_FFT: /* FFT ops went to compare_fft */
        compare_elements(s, d, p, in, got, exp);
        return;
    case ACCEL_TOLERANCE_BACKWARD:
    case ACCEL_TOLERANCE_PREFIX:
        return; /* LINALG and SCAN, above */
    }
}

accel_status accel_tolerance_compare(const accel_tolerance_op *d, const void *const inputs[4],
                                     const void *got, const void *expected,
                                     accel_compare_result *out)
{
    static const char fn[] = "accel_tolerance_compare";
    cmp_state s;
    memset(&s, 0, sizeof s);
    s.r.struct_size = sizeof s.r;
    s.r.first_bad = SIZE_MAX;
    s.r.worst_index = SIZE_MAX;
    s.r.rule = "";
    if (!d || !got || !expected)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: op, got or expected is NULL", fn);
    if (d->struct_size < sizeof *d)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: op->struct_size is %u, expected %zu (call accel_tolerance_op_init)",
                           fn, d->struct_size, sizeof *d);
    const accel_op_properties *p = accel__op((uint32_t)d->op);
    if (!p)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: op %u is not covered", fn,
                           (unsigned)d->op);
    if (accel_dtype_size(d->dtype) == 0)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: dtype %u is unknown", fn,
                           (unsigned)d->dtype);
    if (d->num_operands != p->num_operands)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s has %u operands, not %u", fn,
                           p->name, p->num_operands, d->num_operands);
    accel_status st = check_shapes(fn, d, p);
    if (st != ACCEL_SUCCESS)
        return st;
    const void *none[4] = {NULL, NULL, NULL, NULL};
    compare_op(&s, d, p, inputs ? inputs : none, got, expected);
    if (out) {
        uint32_t size = out->struct_size && out->struct_size < sizeof s.r ? out->struct_size
                                                                          : (uint32_t)sizeof s.r;
        s.r.struct_size = size;
        memcpy(out, &s.r, size);
    }
    return s.r.bad ? ACCEL_ERROR_MISMATCH : ACCEL_SUCCESS;
}

accel_status accel__tolerance_op_from_desc(const accel_op_desc *d, accel_tolerance_op *t)
{
    accel_tolerance_op_init(t);
    t->op = (accel_op_code)d->op;
    t->dtype = (accel_dtype)d->dtype;
    t->num_operands = d->num_operands <= 4 ? d->num_operands : 4;
    for (uint32_t i = 0; i < t->num_operands; i++)
        t->counts[i] = d->operands[i].count;
    memcpy(t->scalars, d->scalars, sizeof t->scalars);
    t->allow_tf32 = (d->flags & ACCEL_OP_FLAG_ALLOW_TF32) != 0;
    t->trans_a = d->trans_a ? ACCEL_TRANS : ACCEL_NO_TRANS;
    t->trans_b = d->trans_b ? ACCEL_TRANS : ACCEL_NO_TRANS;
    t->m = d->m, t->n = d->n, t->k = d->k;
    t->lda = d->lda, t->ldb = d->ldb, t->ldc = d->ldc;
    t->batch_count = d->batch_count ? d->batch_count : 1;
    t->stride_a = d->stride_a, t->stride_b = d->stride_b, t->stride_c = d->stride_c;
    t->flags = d->flags;
    return ACCEL_SUCCESS;
}
