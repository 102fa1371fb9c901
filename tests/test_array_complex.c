/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_array_complex.c — every elementwise function that takes complex64
 * and complex128 (accel/array.h), on contiguous and strided/broadcast
 * views, against C99 <complex.h> in long double (glibc's cexpl, clogl,
 * csqrtl, casinhl, ... follow C11 Annex G, as the Array API's special
 * cases do) or a plain long double formula where C has no function
 * (expm1, log1p, the textbook multiply and divide, NumPy's sign). Inputs:
 * the grid of special parts (+-0, +-1, +-inf, NaN, ...) in both parts,
 * then seeded random values. Bound: every part within the row's
 * tolerance_ulp_complex ulps of the larger part of the reference; NaN
 * meets NaN, an infinity the same infinity; the sign of a zero or an
 * infinity is checked except where the standard leaves it open (the
 * other part of the result is NaN, or an input part is NaN). Also: the
 * functions the standard does not define for complex are refused naming
 * the dtype; astype between complex and real dtypes; where. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <complex.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "accel/array.h"
#include "accel/kernel.h"
#include "accel/verify.h"
#include "test_array_common.h"
#include "test_util.h"

/* C11's CMPLXL, which glibc defines for GCC only: parts kept as given. */
static long double complex tu_cmplxl(long double re, long double im)
{
    union {
        long double complex z;
        long double p[2];
    } u = {.p = {re, im}};
    return u.z;
}
#undef CMPLXL
#define CMPLXL(re, im) tu_cmplxl(re, im)

typedef long double complex lcx;

static const double parts[] = {0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 1e-300, INFINITY, -INFINITY, NAN};
#define NPARTS (sizeof parts / sizeof parts[0])

/* ------------------------------------------------------------ reference */

static lcx mk(long double re, long double im)
{
    return CMPLXL(re, im);
}

/* e^z - 1 keeping the digits of a small x: expm1(x) cos y - 2 sin^2(y/2). */
static lcx ref_expm1(lcx z)
{
    long double x = creall(z), y = cimagl(z);
    if (x == 0 && y == 0) /* the Array API's +0 + 0j for -0 too */
        return mk(0, y);
    if (!isfinite(x) || !isfinite(y) || y == 0)
        return y == 0 ? mk(expm1l(x), y) : cexpl(z) - 1;
    long double h = sinl(y / 2);
    return mk(expm1l(x) * cosl(y) - 2 * h * h, expl(x) * sinl(y));
}

/* log(1 + z) keeping the digits of a small z: 0.5 log1p(2x + x^2 + y^2). */
static lcx ref_log1p(lcx z)
{
    long double x = creall(z), y = cimagl(z);
    if (isfinite(x) && isfinite(y) && fabsl(x) < 0.5L && fabsl(y) < 0.5L)
        return mk(0.5L * log1pl(x * (2 + x) + y * y), atan2l(y, 1 + x));
    return clogl(mk(1 + x, y));
}

/* NumPy's and the Array API's sign: z/|z|, 0 for 0, NaN for a NaN part. */
static lcx ref_sign(lcx z)
{
    long double x = creall(z), y = cimagl(z);
    if (isnan(x) || isnan(y))
        return mk(NAN, NAN);
    if (isinf(x) && isinf(y)) /* no direction: NumPy's NaN */
        return mk(NAN, NAN);
    if (isinf(x) || isinf(y)) /* the limit of z / |z|: the infinite part's sign */
        return mk(copysignl(isinf(x) ? 1 : 0, x), copysignl(isinf(y) ? 1 : 0, y));
    if (x == 0 && y == 0)
        return mk(0, 0);
    long double m = hypotl(x, y);
    return mk(x / m, y / m);
}

static lcx ref_unary(accel_array_fn fn, lcx z)
{
    long double x = creall(z), y = cimagl(z);
    switch (fn) {
    case ACCEL_ARRAY_NEGATIVE:
        return mk(-x, -y);
    case ACCEL_ARRAY_POSITIVE:
        return z;
    case ACCEL_ARRAY_CONJ:
        return mk(x, -y);
    case ACCEL_ARRAY_SQUARE:
        return mk(x * x - y * y, x * y + y * x);
    case ACCEL_ARRAY_SIGN:
        return ref_sign(z);
    case ACCEL_ARRAY_ROUND:
        return mk(rintl(x), rintl(y));
    case ACCEL_ARRAY_ABS:
        return mk(cabsl(z), 0);
    case ACCEL_ARRAY_ISNAN:
        return mk(isnan(x) || isnan(y), 0);
    case ACCEL_ARRAY_ISINF:
        return mk(isinf(x) || isinf(y), 0);
    case ACCEL_ARRAY_ISFINITE:
        return mk(isfinite(x) && isfinite(y), 0);
    case ACCEL_ARRAY_EXP:
        return cexpl(z);
    case ACCEL_ARRAY_EXPM1:
        return ref_expm1(z);
    case ACCEL_ARRAY_LOG:
        return clogl(z);
    case ACCEL_ARRAY_LOG1P:
        return ref_log1p(z);
    case ACCEL_ARRAY_LOG2:
        return clogl(z) / logl(2);
    case ACCEL_ARRAY_LOG10:
        return clogl(z) / logl(10);
    case ACCEL_ARRAY_SQRT:
        return csqrtl(z);
    case ACCEL_ARRAY_SIN:
        return csinl(z);
    case ACCEL_ARRAY_COS:
        return ccosl(z);
    case ACCEL_ARRAY_TAN: /* the Array API's tanh(+inf + iy) = 1 + 0j for y > 0 (below) */
        return isinf(y) && isfinite(x) ? mk(copysignl(0, x), copysignl(1, y)) : ctanl(z);
    case ACCEL_ARRAY_ASIN:
        return casinl(z);
    case ACCEL_ARRAY_ACOS:
        return cacosl(z);
    case ACCEL_ARRAY_ATAN:
        return catanl(z);
    case ACCEL_ARRAY_SINH:
        return csinhl(z);
    case ACCEL_ARRAY_COSH:
        return ccoshl(z);
    case ACCEL_ARRAY_TANH: /* Annex G's 0 sin(2y) is the Array API's 0 of y's sign */
        return isinf(x) && isfinite(y) ? mk(copysignl(1, x), copysignl(0, y)) : ctanhl(z);
    case ACCEL_ARRAY_ASINH:
        return casinhl(z);
    case ACCEL_ARRAY_ACOSH:
        return cacoshl(z);
    case ACCEL_ARRAY_ATANH:
        return catanhl(z);
    default:
        cr_assert_fail("no reference for fn %d", (int)fn);
    }
    return 0;
}

/* The textbook formulas in long double (no overflow for the inputs here),
 * independent of the library's Smith division. */
static lcx ref_binary(accel_array_fn fn, lcx a, lcx b)
{
    long double ar = creall(a), ai = cimagl(a), br = creall(b), bi = cimagl(b);
    switch (fn) {
    case ACCEL_ARRAY_ADD:
        return mk(ar + br, ai + bi);
    case ACCEL_ARRAY_SUBTRACT:
        return mk(ar - br, ai - bi);
    case ACCEL_ARRAY_MULTIPLY:
        return mk(ar * br - ai * bi, ar * bi + ai * br);
    case ACCEL_ARRAY_DIVIDE: {
        long double d = br * br + bi * bi;
        return mk((ar * br + ai * bi) / d, (ai * br - ar * bi) / d);
    }
    case ACCEL_ARRAY_POW:
        return br == 0 && bi == 0 ? mk(1, 0) : cexpl(b * clogl(a));
    case ACCEL_ARRAY_EQUAL:
        return mk(ar == br && ai == bi, 0);
    case ACCEL_ARRAY_NOT_EQUAL:
        return mk(!(ar == br && ai == bi), 0);
    default:
        cr_assert_fail("no reference for fn %d", (int)fn);
    }
    return 0;
}

/* ------------------------------------------------------------ comparing */

static accel_dtype part_dtype(accel_dtype dt)
{
    return dt == ACCEL_C64 ? ACCEL_F32 : ACCEL_F64;
}

/* A result part against its reference part (other: the other reference
 * part; nan_in: an input part is NaN), in ulps of dt at big. */
static bool part_ok(accel_dtype dt, double got, long double exact, double other, double big,
                    bool nan_in, unsigned tol)
{
    double want = round_to(dt, (double)exact);
    /* the standard leaves signs open; a zero by underflow has no sign to check */
    bool open = isnan(other) || nan_in || (want == 0 && exact != 0);
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    if (isinf(want) || isinf(got))
        return isinf(want) && isinf(got) && (open || got == want);
    if (want == 0 && got == 0)
        return open || signbit(got) == signbit(want);
    return fabs(got - want) <= tol * ulp_of(dt, big);
}

/* got (two parts) against want rounded to dt's precision. */
static bool cx_ok(accel_dtype pdt, const double got[2], lcx want, bool nan_in, unsigned tol)
{
    double wr = round_to(pdt, (double)creall(want)), wi = round_to(pdt, (double)cimagl(want));
    double big = fmax(fabs(wr), fabs(wi));
    if (!isfinite(big))
        big = isfinite(wr) ? fabs(wr) : fabs(wi);
    return part_ok(pdt, got[0], creall(want), wi, big, nan_in, tol) &&
           part_ok(pdt, got[1], cimagl(want), wr, big, nan_in, tol);
}

static lcx host_cx(accel_dtype dt, const void *host, int64_t el)
{
    if (dt == ACCEL_C64) {
        const float *f = (const float *)host + 2 * el;
        return mk(f[0], f[1]);
    }
    const double *d = (const double *)host + 2 * el;
    return mk(d[0], d[1]);
}

static void put_cx(accel_dtype dt, void *host, int64_t el, double re, double im)
{
    if (dt == ACCEL_C64) {
        float *f = (float *)host + 2 * el;
        f[0] = (float)re, f[1] = (float)im;
    } else {
        double *d = (double *)host + 2 * el;
        d[0] = re, d[1] = im;
    }
}

/* ------------------------------------------------------------ cases */

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    cr_assert(p, "out of memory");
    return p;
}

/* One call: inputs (views and host copies of their buffers), out's view. */
typedef struct ccase {
    accel_array_fn fn;
    uint32_t nin;
    accel_array in[3], out;
    void *host[3];
    size_t bytes[3];
} ccase;

static int64_t count_of(const accel_array *a)
{
    int64_t n = 1;
    for (uint32_t d = 0; d < a->ndim; d++)
        n *= a->shape[d];
    return n;
}

/* out's element idx of input k (broadcast from the right). */
static int64_t in_elem(const accel_array *a, const int64_t *idx, uint32_t nd)
{
    int64_t ai[ACCEL_ARRAY_MAX_NDIM];
    for (uint32_t d = 0; d < a->ndim; d++)
        ai[d] = a->shape[d] == 1 ? 0 : idx[nd - a->ndim + d];
    return elem_index(a, ai);
}

static accel_status call(env *e, ccase *c, const accel_array *out)
{
    switch (c->nin) {
    case 1:
        if (c->fn == ACCEL_ARRAY_ASTYPE)
            return accel_array_astype(e->q, &c->in[0], out);
        return accel_array_unary(e->q, c->fn, &c->in[0], out);
    case 2:
        return accel_array_binary(e->q, c->fn, &c->in[0], &c->in[1], out);
    default:
        return accel_array_where(e->q, &c->in[0], &c->in[1], &c->in[2], out);
    }
}

/* Elements out of bound so far (each row reports its own, then the run fails). */
static int64_t total_bad;

/* Run the case, read out back and compare each element (of out_dt) with
 * the reference of its inputs. Returns the elements compared. */
static int64_t run(env *e, ccase *c, accel_dtype out_dt, const char *what)
{
    accel_buffer *bufs[3];
    for (uint32_t k = 0; k < c->nin; k++) {
        bufs[k] = upload(e, c->host[k], c->bytes[k]);
        c->in[k].buffer = bufs[k];
    }
    int64_t n = count_of(&c->out);
    size_t ob = (size_t)n * accel_dtype_size(out_dt);
    unsigned char *got = xmalloc(ob + 1);
    accel_buffer *bo = upload(e, NULL, ob);
    accel_array out = c->out;
    out.buffer = bo, out.dtype = out_dt;
    const accel_array_fn_properties *p = accel_array_fn_info(c->fn);
    tu_assert_status(call(e, c, &out), ACCEL_SUCCESS, "%s %s", p->name, what);
    tu_ok(accel_queue_read_blocking(e->q, bo, 0, got, ob));
    unsigned tol = p->tolerance_ulp_complex;
    int64_t idx[ACCEL_ARRAY_MAX_NDIM] = {0}, bad = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t r = i;
        for (uint32_t d = out.ndim; d-- > 0;)
            idx[d] = r % out.shape[d], r /= out.shape[d];
        lcx v[3];
        bool nan_in = false;
        for (uint32_t k = c->fn == ACCEL_ARRAY_WHERE ? 1 : 0; k < c->nin; k++) {
            v[k] = host_cx(c->in[k].dtype, c->host[k], in_elem(&c->in[k], idx, out.ndim));
            nan_in |= isnan(creall(v[k])) || isnan(cimagl(v[k]));
        }
        lcx want;
        if (c->fn == ACCEL_ARRAY_WHERE)
            want = ((const unsigned char *)c->host[0])[in_elem(&c->in[0], idx, out.ndim)] ? v[1]
                                                                                          : v[2];
        else if (c->fn == ACCEL_ARRAY_ASTYPE)
            want = v[0];
        else
            want = c->nin == 1 ? ref_unary(c->fn, v[0]) : ref_binary(c->fn, v[0], v[1]);
        double g[2] = {0, 0};
        bool ok;
        if (out_dt == ACCEL_BOOL) {
            ok = got[i] == (creall(want) != 0);
            g[0] = got[i];
        } else if (kind(out_dt) == ACCEL_DTYPE_KIND_FLOAT) { /* abs */
            g[0] = out_dt == ACCEL_F32 ? ((const float *)got)[i] : ((const double *)got)[i];
            ok = cx_ok(out_dt, g, want, nan_in, tol);
        } else {
            lcx h = host_cx(out_dt, got, i);
            g[0] = (double)creall(h), g[1] = (double)cimagl(h);
            ok = cx_ok(part_dtype(out_dt), g, want, nan_in, tol);
        }
        if (!ok && bad++ < 8)
            cr_expect(false,
                      "%s %s -> %s, %s, element %lld: got (%.17g, %.17g), want (%.17Lg, "
                      "%.17Lg) (bound %u ulp of the larger part); input (%.17Lg, %.17Lg)",
                      p->name, accel_dtype_name(c->in[c->nin - 1].dtype), accel_dtype_name(out_dt),
                      what, (long long)i, g[0], g[1], creall(want), cimagl(want), tol,
                      creall(v[c->nin == 3 ? 1 : 0]), cimagl(v[c->nin == 3 ? 1 : 0]));
    }
    for (uint32_t k = 0; k < c->nin; k++) {
        accel_buffer_release(bufs[k]);
        free(c->host[k]);
    }
    accel_buffer_release(bo);
    free(got);
    cr_expect_eq(bad, 0, "%s %s: %lld of %lld elements out of bound", p->name, what, (long long)bad,
                 (long long)n);
    total_bad += bad;
    return n;
}

/* Input k: n elements of dt in a fresh host buffer, viewed as v. grid:
 * element i is the special pair (parts[i / NPARTS], parts[i % NPARTS])
 * (for i below NPARTS^2; binary: operand 1 walks the grid the other way);
 * else random parts in [-4, 4] (x 1e-6 or 1e3 now and then). */
static void add_input(ccase *c, tu_rng *r, accel_dtype dt, int64_t n, accel_array v, bool grid,
                      uint32_t k)
{
    size_t es = accel_dtype_size(dt);
    c->bytes[c->nin] = (size_t)n * es;
    c->host[c->nin] = xmalloc(c->bytes[c->nin] + 1);
    for (int64_t i = 0; i < n; i++) {
        double re, im;
        if (grid && i < (int64_t)(NPARTS * NPARTS)) {
            re = parts[k ? i % NPARTS : i / NPARTS];
            im = parts[k ? i / NPARTS : i % NPARTS];
        } else {
            double s = tu_rng_next(r) % 5 == 0 ? 1e-6 : tu_rng_next(r) % 7 == 0 ? 1e3 : 1.0;
            if (c->fn == ACCEL_ARRAY_POW) /* |x2 log x1| small: exp's error grows with it */
                s = 0.5;
            re = s * tu_rng_range(r, -4, 4), im = s * tu_rng_range(r, -4, 4);
        }
        if (dt == ACCEL_BOOL)
            ((unsigned char *)c->host[c->nin])[i] = (unsigned char)(tu_rng_next(r) & 1u);
        else
            put_cx(dt, c->host[c->nin], i, re, im);
    }
    v.dtype = dt;
    c->in[c->nin++] = v;
}

static accel_array view1(int64_t n)
{
    accel_array a;
    tu_ok(accel_array_init(&a, NULL, ACCEL_C64, 1, &n));
    return a;
}

/* Contiguous: the special grid and random values, every array (n,). */
static int64_t contiguous(env *e, tu_rng *r, accel_array_fn fn, uint32_t nin, accel_dtype dt,
                          accel_dtype out_dt)
{
    const int64_t n = (int64_t)(NPARTS * NPARTS) + 64;
    ccase c = {.fn = fn};
    for (uint32_t k = 0; k < nin; k++)
        add_input(&c, r, fn == ACCEL_ARRAY_WHERE && k == 0 ? ACCEL_BOOL : dt, n, view1(n), true, k);
    c.out = view1(n);
    return run(e, &c, out_dt, "contiguous");
}

/* Strided: out (5, 4, 3); input 0 (5, 1, 3) reversed on axis 0 and
 * broadcast on axis 1; input 1 a (3, 4) array transposed; input 2 (3,). */
static int64_t strided(env *e, tu_rng *r, accel_array_fn fn, uint32_t nin, accel_dtype dt,
                       accel_dtype out_dt)
{
    ccase c = {.fn = fn};
    const int64_t s0[] = {5, 1, 3}, s1[] = {4, 3}, so[] = {5, 4, 3};
    accel_dtype d0 = fn == ACCEL_ARRAY_WHERE ? ACCEL_BOOL : dt;
    accel_array v;
    tu_ok(accel_array_init(&v, NULL, d0, 3, s0));
    v.strides[0] = -3, v.offset = 12 * accel_dtype_size(d0);
    add_input(&c, r, d0, 15, v, false, 0);
    if (nin > 1) {
        tu_ok(accel_array_init(&v, NULL, dt, 2, s1));
        v.strides[0] = 1, v.strides[1] = 4;
        add_input(&c, r, dt, 12, v, false, 1);
    }
    if (nin > 2)
        add_input(&c, r, dt, 3, view1(3), false, 2);
    tu_ok(accel_array_init(&c.out, NULL, out_dt, 3, so));
    return run(e, &c, out_dt, "strided (5, 4, 3)");
}

static const accel_array_fn unary_fns[] = {
    ACCEL_ARRAY_NEGATIVE, ACCEL_ARRAY_POSITIVE, ACCEL_ARRAY_CONJ,  ACCEL_ARRAY_SQUARE,
    ACCEL_ARRAY_SIGN,     ACCEL_ARRAY_ROUND,    ACCEL_ARRAY_ABS,   ACCEL_ARRAY_ISNAN,
    ACCEL_ARRAY_ISINF,    ACCEL_ARRAY_ISFINITE, ACCEL_ARRAY_EXP,   ACCEL_ARRAY_EXPM1,
    ACCEL_ARRAY_LOG,      ACCEL_ARRAY_LOG1P,    ACCEL_ARRAY_LOG2,  ACCEL_ARRAY_LOG10,
    ACCEL_ARRAY_SQRT,     ACCEL_ARRAY_SIN,      ACCEL_ARRAY_COS,   ACCEL_ARRAY_TAN,
    ACCEL_ARRAY_ASIN,     ACCEL_ARRAY_ACOS,     ACCEL_ARRAY_ATAN,  ACCEL_ARRAY_SINH,
    ACCEL_ARRAY_COSH,     ACCEL_ARRAY_TANH,     ACCEL_ARRAY_ASINH, ACCEL_ARRAY_ACOSH,
    ACCEL_ARRAY_ATANH};
static const accel_array_fn binary_fns[] = {
    ACCEL_ARRAY_ADD, ACCEL_ARRAY_SUBTRACT, ACCEL_ARRAY_MULTIPLY, ACCEL_ARRAY_DIVIDE,
    ACCEL_ARRAY_POW, ACCEL_ARRAY_EQUAL,    ACCEL_ARRAY_NOT_EQUAL};
static const accel_dtype cdts[] = {ACCEL_C64, ACCEL_C128};

static accel_dtype result_of(accel_array_fn fn, accel_dtype dt)
{
    uint32_t res = accel_array_fn_info(fn)->result;
    return res == ACCEL_ARRAY_RESULT_BOOL   ? ACCEL_BOOL
           : res == ACCEL_ARRAY_RESULT_REAL ? part_dtype(dt)
                                            : dt;
}

static void every_row(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    tu_rng r = tu_rng_make(2728);
    int64_t compared = 0;
    for (size_t d = 0; d < 2; d++) {
        for (size_t f = 0; f < sizeof unary_fns / sizeof unary_fns[0]; f++) {
            accel_dtype o = result_of(unary_fns[f], cdts[d]);
            compared += contiguous(&e, &r, unary_fns[f], 1, cdts[d], o);
            compared += strided(&e, &r, unary_fns[f], 1, cdts[d], o);
        }
        for (size_t f = 0; f < sizeof binary_fns / sizeof binary_fns[0]; f++) {
            accel_dtype o = result_of(binary_fns[f], cdts[d]);
            /* the special grid is the unary functions' (the textbook
             * formulas are not Annex G's on infinities) */
            compared += strided(&e, &r, binary_fns[f], 2, cdts[d], o);
            ccase c = {.fn = binary_fns[f]};
            const int64_t n = 97;
            add_input(&c, &r, cdts[d], n, view1(n), false, 0);
            add_input(&c, &r, cdts[d], n, view1(n), false, 1);
            c.out = view1(n);
            compared += run(&e, &c, o, "contiguous");
            /* inputs at an offset (x[5:]: the first element read is not
             * the buffer's first; OpenCL read complex arrays from their
             * buffer's start, 2026-12-07) */
            ccase at = {.fn = binary_fns[f]};
            accel_array v = view1(n);
            v.offset = 5 * accel_dtype_size(cdts[d]);
            add_input(&at, &r, cdts[d], n + 5, v, false, 0);
            add_input(&at, &r, cdts[d], n + 5, v, false, 1);
            at.out = view1(n);
            compared += run(&e, &at, o, "inputs at an offset");
        }
        compared += contiguous(&e, &r, ACCEL_ARRAY_WHERE, 3, cdts[d], cdts[d]);
        compared += strided(&e, &r, ACCEL_ARRAY_WHERE, 3, cdts[d], cdts[d]);
    }
    cr_assert_gt(compared, 15000, "elements compared: %lld", (long long)compared);
    cr_assert_eq(total_bad, 0, "%lld elements out of bound", (long long)total_bad);
}

Test(array_complex, every_row_both_dtypes, .timeout = 280)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    every_row(dev, q, NULL);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

/* The same rows on cpu2:0 (kernels built by tcc) in verify mode against
 * cpu:0 (built by cc): the helpers compile with both compilers and verify
 * mode's complex rule passes every kernel. */
static accel_runtime *open_two_cpus(void)
{
    setenv("ACCEL_KERNEL_CACHE", tu_fmt("%s/cache2", tu_tmpdir()), 1);
    accel_runtime *rt = NULL;
    const char *ini = tu_fmt("[runtime]\norder = cpu, cpu2\n"
                             "[backend.cpu]\nlibrary = %s\nkernel_compiler = cc\n"
                             "[backend.cpu2]\nlibrary = %s\nkernel_compiler = tcc\n",
                             TU_CPU_PLUGIN, TU_CPU_PLUGIN);
    tu_ok(tu_open_ini(ini, &rt, NULL));
    accel_verify_options o;
    accel_verify_options_init(&o);
    o.reference = "cpu:0";
    o.fail_on_mismatch = true;
    tu_ok(accel_verify_configure(rt, &o));
    return rt;
}

static accel_verify_stats stats_of(accel_runtime *rt)
{
    accel_verify_stats vs;
    memset(&vs, 0, sizeof vs);
    vs.struct_size = sizeof vs;
    tu_ok(accel_verify_stats_get(rt, &vs));
    return vs;
}

Test(array_complex, verify_mode_cc_reference, .timeout = 280)
{
    accel_runtime *rt = open_two_cpus();
    accel_device *dev;
    accel_queue *q;
    tu_ok(accel_device_get_by_name(rt, "cpu2:0", &dev));
    tu_ok(accel_queue_create(dev, &q));
    every_row(dev, q, NULL);
    tu_ok(accel_queue_finish(q));
    accel_verify_stats vs = stats_of(rt);
    cr_assert_gt(vs.checked, 100, "kernels checked: %llu", (unsigned long long)vs.checked);
    cr_assert_eq(vs.mismatches, 0);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

/* Verify mode's complex rule catches a part off by more than the bound:
 * a kernel whose imaginary parts differ between tcc and cc by 64 ulps of
 * the larger part. */
Test(array_complex, verify_mode_catches_a_complex_difference)
{
    accel_runtime *rt = open_two_cpus();
    accel_device *dev;
    accel_queue *q;
    tu_ok(accel_device_get_by_name(rt, "cpu2:0", &dev));
    tu_ok(accel_queue_create(dev, &q));
    const char *src = "__global__ void cpart(void *zv, int n)\n"
                      "{\n"
                      "    float *z = (float *)zv;\n"
                      "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                      "    if (i >= n) return;\n"
                      "    z[2 * i] = 1.0f;\n"
                      "#ifdef __TINYC__\n"
                      "    z[2 * i + 1] = 0.5f + 64 * 5.9604644775390625e-8f;\n"
                      "#else\n"
                      "    z[2 * i + 1] = 0.5f;\n"
                      "#endif\n"
                      "}\n";
    accel_kernel *k;
    tu_ok(accel_kernel_raw_create(rt, src, "cpart", NULL, &k));
    accel_buffer *b;
    tu_ok(accel_buffer_create(dev, 8 * 16, &b));
    uint32_t g[3] = {1, 1, 1}, bl[3] = {16, 1, 1};
    accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(b, 0, 16)), accel_karg_i32(16)};
    args[0].dtype = ACCEL_C64;
    tu_ok(accel_kernel_launch_grid(q, k, g, bl, 2, args));
    accel_status st = accel_queue_finish(q);
    cr_assert_eq(st, ACCEL_ERROR_MISMATCH, "%s: %s", accel_status_name(st), accel_last_error());
    cr_assert(strstr(accel_last_error(), "ulp of the larger part"), "%s", accel_last_error());
    accel_kernel_release(k);
    accel_buffer_release(b);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

/* The functions the Array API does not define for complex refuse both
 * complex dtypes naming them; out is untouched. */
Test(array_complex, undefined_functions_refused)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    env e = {dev, q};
    unsigned refused = 0;
    for (int f = 1; f < ACCEL_ARRAY_FN_LIMIT_; f++) {
        const accel_array_fn_properties *p = accel_array_fn_info((accel_array_fn)f);
        if (!p || (p->kinds >> ACCEL_DTYPE_KIND_COMPLEX) & 1u)
            continue;
        for (size_t d = 0; d < 2; d++) {
            const int64_t shape[] = {2};
            unsigned char host[64];
            memset(host, 0x5a, sizeof host);
            accel_buffer *bx = upload(&e, host, sizeof host), *bo = upload(&e, host, sizeof host);
            accel_array x, out;
            tu_ok(accel_array_init(&x, bx, cdts[d], 1, shape));
            tu_ok(accel_array_init(&out, bo, cdts[d], 1, shape));
            accel_status st = p->arity == 1 ? accel_array_unary(q, (accel_array_fn)f, &x, &out)
                              : p->arity == 2
                                  ? accel_array_binary(q, (accel_array_fn)f, &x, &x, &out)
                                  : accel_array_clip(q, &x, &x, &x, &out);
            tu_assert_status(st, ACCEL_ERROR_DTYPE_MISMATCH, "%s on %s", p->name,
                             accel_dtype_name(cdts[d]));
            cr_assert(strstr(accel_last_error(), accel_dtype_name(cdts[d])) &&
                          strstr(accel_last_error(), "does not define it for complex"),
                      "%s", accel_last_error());
            unsigned char back[64];
            tu_ok(accel_queue_read_blocking(q, bo, 0, back, sizeof back));
            cr_assert(memcmp(back, host, sizeof back) == 0, "%s: out changed", p->name);
            accel_buffer_release(bx);
            accel_buffer_release(bo);
            refused++;
        }
    }
    cr_assert_gt(refused, 40u, "refusals checked: %u", refused);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

/* astype: every real dtype to complex64 and complex128 (imaginary part 0),
 * complex64 <-> complex128 part by part; complex to a real dtype refused. */
Test(array_complex, astype_to_and_from_complex)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    env e = {dev, q};
    tu_rng r = tu_rng_make(2729);
    const int64_t n = 40;
    for (size_t s = 0; s < NDT; s++)
        for (size_t d = 0; d < 2; d++) {
            accel_dtype from = all_dtypes[s], to = cdts[d];
            void *host = xmalloc((size_t)n * accel_dtype_size(from));
            fill(&r, from, false, host, (size_t)n);
            accel_buffer *bx = upload(&e, host, (size_t)n * accel_dtype_size(from));
            accel_buffer *bo = upload(&e, NULL, (size_t)n * accel_dtype_size(to));
            accel_array x, out;
            tu_ok(accel_array_init(&x, bx, from, 1, &n));
            tu_ok(accel_array_init(&out, bo, to, 1, &n));
            tu_ok(accel_array_astype(q, &x, &out));
            double got[80];
            float gotf[80];
            tu_ok(accel_queue_read_blocking(q, bo, 0, to == ACCEL_C64 ? (void *)gotf : (void *)got,
                                            (size_t)n * accel_dtype_size(to)));
            for (int64_t i = 0; i < n; i++) {
                val w = convert(from, ACCEL_F64, get(host, from, (size_t)i));
                double re = to == ACCEL_C64 ? gotf[2 * i] : got[2 * i];
                double im = to == ACCEL_C64 ? gotf[2 * i + 1] : got[2 * i + 1];
                double want = to == ACCEL_C64 ? (double)(float)w.f : w.f;
                cr_assert(tu_same(re, want) && im == 0 && !signbit(im),
                          "astype %s -> %s element %lld: got (%g, %g), want %g",
                          accel_dtype_name(from), accel_dtype_name(to), (long long)i, re, im, want);
            }
            accel_buffer_release(bx);
            accel_buffer_release(bo);
            free(host);
        }
    for (size_t d = 0; d < 2; d++) {
        contiguous(&e, &r, ACCEL_ARRAY_ASTYPE, 1, cdts[d], cdts[1 - d]);
        strided(&e, &r, ACCEL_ARRAY_ASTYPE, 1, cdts[d], cdts[1 - d]);
        const int64_t two = 2;
        accel_buffer *b = upload(&e, NULL, 64);
        accel_array x, out;
        tu_ok(accel_array_init(&x, b, cdts[d], 1, &two));
        tu_ok(accel_array_init(&out, b, part_dtype(cdts[d]), 1, &two));
        out.offset = 32;
        tu_assert_status(accel_array_astype(q, &x, &out), ACCEL_ERROR_UNSUPPORTED, "%s",
                         accel_dtype_name(cdts[d]));
        cr_assert(strstr(accel_last_error(), "complex to a real dtype"), "%s", accel_last_error());
        accel_buffer_release(b);
    }
    accel_queue_release(q);
    accel_runtime_close(rt);
}

/* ACCEL_TEST_COMPLEX_DEVICE=NAME (tests/opencl's opencl_array_complex sets
 * opencl:0, PoCL on CI; cuda:0 on a GPU machine): every row on that device, built by its own
 * compiler, in verify mode against cpu:0 as well as against the reference
 * here. Skipped, saying so, where the variable is unset. */
Test(array_complex, named_device, .timeout = 600)
{
    const char *name = getenv("ACCEL_TEST_COMPLEX_DEVICE");
    if (!name || !*name)
        cr_skip_test("ACCEL_TEST_COMPLEX_DEVICE is unset (ctest opencl_array_complex sets it)");
    setenv("ACCEL_KERNEL_CACHE", tu_fmt("%s/cache3", tu_tmpdir()), 1);
    const char *ini =
        tu_fmt("[runtime]\norder = cpu, opencl, cuda\nstrict = false\n"
               "[backend.cpu]\nlibrary = %s\n"
               "[backend.opencl]\nlibrary = %s/libaccel_opencl.so\n"
               "[backend.cuda]\nlibrary = %s/libaccel_cuda.so\n",
               TU_CPU_PLUGIN, ACCEL_TEST_PLUGIN_CONFIG_DIR, ACCEL_TEST_PLUGIN_CONFIG_DIR);
    accel_runtime *rt = NULL;
    tu_ok(tu_open_ini(ini, &rt, NULL));
    accel_verify_options o;
    accel_verify_options_init(&o);
    o.reference = "cpu:0";
    o.fail_on_mismatch = true;
    tu_ok(accel_verify_configure(rt, &o));
    accel_device *dev;
    accel_queue *q;
    tu_ok(accel_device_get_by_name(rt, name, &dev));
    tu_ok(accel_queue_create(dev, &q));
    every_row(dev, q, NULL);
    tu_ok(accel_queue_finish(q));
    accel_verify_stats vs = stats_of(rt);
    cr_assert_gt(vs.checked, 100, "kernels checked on %s: %llu", name,
                 (unsigned long long)vs.checked);
    cr_assert_eq(vs.mismatches, 0);
    accel_queue_release(q);
    accel_runtime_close(rt);
}
