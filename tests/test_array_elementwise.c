/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_array_elementwise.c — every elementwise function of accel/array.h x
 * every dtype it takes, against a plain C reference computed here (integers
 * in int64/uint64 wrapped to the dtype's width, floats in the compute type
 * or in double rounded, the functions' documented rules), on contiguous,
 * broadcast, transposed, reversed, 0-size, 1-element and odd shapes; dtypes a
 * function does not take are refused with the output untouched. Runs on every
 * device of the default configuration (the CPU here; CUDA where present). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#define _DEFAULT_SOURCE         /* usleep */
#include <criterion/criterion.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "accel/array.h"
#include <stdio.h>

#include "test_array_common.h"
#include "test_util.h"

/* ------------------------------------------------------------ reference */

/* NumPy's npy_divmod (numpy/_core/src/npymath/npy_math_internal.h.src). */
static double np_floordiv(double a, double b)
{
    if (b == 0)
        return a / b;
    double m = fmod(a, b), d = (a - m) / b;
    if (m != 0 && ((b < 0) != (m < 0)))
        d -= 1;
    if (d == 0)
        return copysign(0.0, a / b);
    double f = floor(d);
    return d - f > 0.5 ? f + 1 : f;
}
static double np_remainder(double a, double b)
{
    double m = fmod(a, b);
    if (b == 0)
        return m;
    if (m != 0)
        return (b < 0) != (m < 0) ? m + b : m;
    return copysign(0.0, b);
}
static float np_floordivf(float a, float b)
{
    if (b == 0)
        return a / b;
    float m = fmodf(a, b), d = (a - m) / b;
    if (m != 0 && ((b < 0) != (m < 0)))
        d -= 1;
    if (d == 0)
        return copysignf(0.0f, a / b);
    float f = floorf(d);
    return d - f > 0.5f ? f + 1 : f;
}
static float np_remainderf(float a, float b)
{
    float m = fmodf(a, b);
    if (b == 0)
        return m;
    if (m != 0)
        return (b < 0) != (m < 0) ? m + b : m;
    return copysignf(0.0f, b);
}
static double ieee_max(double a, double b)
{
    if (isnan(a) || isnan(b))
        return NAN;
    if (a == b)
        return signbit(a) ? b : a;
    return a > b ? a : b;
}
static double ieee_min(double a, double b)
{
    if (isnan(a) || isnan(b))
        return NAN;
    if (a == b)
        return signbit(a) ? a : b;
    return a < b ? a : b;
}

/* Float functions; single: computed in float where the kernel does (the
 * result then compares exactly), else in double and rounded (4 ulp rows). */
static double ref_float(accel_array_fn fn, accel_dtype ct, double a, double b, double c)
{
    bool s = ct != ACCEL_F64;
    float fa = (float)a, fb = (float)b;
    switch (fn) {
    case ACCEL_ARRAY_ADD:
        return s ? fa + fb : a + b;
    case ACCEL_ARRAY_SUBTRACT:
        return s ? fa - fb : a - b;
    case ACCEL_ARRAY_MULTIPLY:
        return s ? fa * fb : a * b;
    case ACCEL_ARRAY_DIVIDE:
        return s ? fa / fb : a / b;
    case ACCEL_ARRAY_FLOOR_DIVIDE:
        return s ? np_floordivf(fa, fb) : np_floordiv(a, b);
    case ACCEL_ARRAY_REMAINDER:
        return s ? np_remainderf(fa, fb) : np_remainder(a, b);
    case ACCEL_ARRAY_POW:
        return pow(a, b);
    case ACCEL_ARRAY_NEGATIVE:
        return -a;
    case ACCEL_ARRAY_POSITIVE:
    case ACCEL_ARRAY_CONJ: /* of a real number: itself */
        return a;
    case ACCEL_ARRAY_ABS:
        return fabs(a);
    case ACCEL_ARRAY_SQUARE:
        return s ? fa * fa : a * a;
    case ACCEL_ARRAY_SIGN:
        /* +0 for -0 too (the standard, NumPy) */
        return isnan(a) ? a : a > 0 ? 1.0 : a < 0 ? -1.0 : 0.0;
    case ACCEL_ARRAY_MAXIMUM:
        return ieee_max(a, b);
    case ACCEL_ARRAY_MINIMUM:
        return ieee_min(a, b);
    case ACCEL_ARRAY_COPYSIGN:
        return copysign(a, b);
    case ACCEL_ARRAY_HYPOT:
        return hypot(a, b);
    case ACCEL_ARRAY_LOGADDEXP: {
        if (a == b)
            return a + 0.693147180559945309417232121458176568;
        double m = a > b ? a : b, d = -fabs(a - b);
        return isnan(d) ? a - b : m + log1p(exp(d));
    }
    case ACCEL_ARRAY_LOGADDEXP2: {
        if (a == b)
            return a + 1.0;
        double m = a > b ? a : b, d = -fabs(a - b);
        return isnan(d) ? a - b : m + log1p(exp2(d)) / log(2.0);
    }
    case ACCEL_ARRAY_HEAVISIDE:
        return isnan(a) ? a : a < 0 ? 0.0 : a > 0 ? 1.0 : b;
    case ACCEL_ARRAY_FMOD:
        return s ? fmodf(fa, fb) : fmod(a, b);
    case ACCEL_ARRAY_CBRT:
        return cbrt(a);
    case ACCEL_ARRAY_NEXTAFTER:
        return s ? nextafterf(fa, fb) : nextafter(a, b);
    case ACCEL_ARRAY_ATAN2:
        return atan2(a, b);
    case ACCEL_ARRAY_FLOOR:
        return floor(a);
    case ACCEL_ARRAY_CEIL:
        return ceil(a);
    case ACCEL_ARRAY_TRUNC:
        return trunc(a);
    case ACCEL_ARRAY_ROUND:
        return nearbyint(a);
    case ACCEL_ARRAY_EXP:
        return exp(a);
    case ACCEL_ARRAY_EXPM1:
        return expm1(a);
    case ACCEL_ARRAY_LOG:
        return log(a);
    case ACCEL_ARRAY_LOG1P:
        return log1p(a);
    case ACCEL_ARRAY_LOG2:
        return log2(a);
    case ACCEL_ARRAY_LOG10:
        return log10(a);
    case ACCEL_ARRAY_SQRT:
        return sqrt(a);
    case ACCEL_ARRAY_SIN:
        return sin(a);
    case ACCEL_ARRAY_COS:
        return cos(a);
    case ACCEL_ARRAY_TAN:
        return tan(a);
    case ACCEL_ARRAY_ASIN:
        return asin(a);
    case ACCEL_ARRAY_ACOS:
        return acos(a);
    case ACCEL_ARRAY_ATAN:
        return atan(a);
    case ACCEL_ARRAY_SINH:
        return sinh(a);
    case ACCEL_ARRAY_COSH:
        return cosh(a);
    case ACCEL_ARRAY_TANH:
        return tanh(a);
    case ACCEL_ARRAY_ASINH:
        return asinh(a);
    case ACCEL_ARRAY_ACOSH:
        return acosh(a);
    case ACCEL_ARRAY_ATANH:
        return atanh(a);
    case ACCEL_ARRAY_CLIP:
        return ieee_min(ieee_max(a, b), c);
    default:
        break;
    }
    cr_assert_fail("no float reference for fn %d", (int)fn);
    return 0;
}

/* Integer functions on int64 (signed) or uint64 values of ct's width. */
static val ref_int(accel_array_fn fn, accel_dtype ct, val a, val b, val c)
{
    bool sg = kind(ct) == ACCEL_DTYPE_KIND_INT;
    int w = bits(ct);
    val r = {0};
    switch (fn) {
    case ACCEL_ARRAY_ADD:
        r.u = a.u + b.u;
        break;
    case ACCEL_ARRAY_SUBTRACT:
        r.u = a.u - b.u;
        break;
    case ACCEL_ARRAY_MULTIPLY:
        r.u = a.u * b.u;
        break;
    case ACCEL_ARRAY_FLOOR_DIVIDE:
        if (b.i == 0)
            r.i = 0;
        else if (sg && b.i == -1)
            r.u = 0 - a.u;
        else if (sg)
            r.i = a.i / b.i - ((a.i % b.i != 0) && ((a.i % b.i < 0) != (b.i < 0)));
        else
            r.u = a.u / b.u;
        break;
    case ACCEL_ARRAY_REMAINDER:
        if (b.i == 0 || (sg && b.i == -1))
            r.i = 0;
        else if (sg)
            r.i = a.i % b.i + ((a.i % b.i != 0) && ((a.i % b.i < 0) != (b.i < 0))) * b.i;
        else
            r.u = a.u % b.u;
        break;
    case ACCEL_ARRAY_FMOD: /* C's %: the sign of a; 0 for b == 0 (and -1) */
        if (b.i == 0 || (sg && b.i == -1))
            r.i = 0;
        else if (sg)
            r.i = a.i % b.i;
        else
            r.u = a.u % b.u;
        break;
    case ACCEL_ARRAY_GCD:
    case ACCEL_ARRAY_LCM: {
        uint64_t x = sg && a.i < 0 ? 0 - a.u : a.u, y = sg && b.i < 0 ? 0 - b.u : b.u;
        uint64_t p = x, q = y;
        while (q) { /* Euclid */
            uint64_t t = p % q;
            p = q;
            q = t;
        }
        r.u = fn == ACCEL_ARRAY_GCD ? p : x == 0 || y == 0 ? 0 : x / p * y;
        break;
    }
    case ACCEL_ARRAY_POW:
        if (sg && b.i < 0) {
            r.i = a.i == 1 ? 1 : a.i == -1 ? ((b.i & 1) ? -1 : 1) : 0;
        } else {
            r.u = 1;
            for (uint64_t e = 0; e < b.u && e < 200; e++)
                r.u *= a.u;
        }
        break;
    case ACCEL_ARRAY_NEGATIVE:
        r.u = 0 - a.u;
        break;
    case ACCEL_ARRAY_POSITIVE:
    case ACCEL_ARRAY_CONJ:
        r = a;
        break;
    case ACCEL_ARRAY_ABS:
        r.u = sg && a.i < 0 ? 0 - a.u : a.u;
        break;
    case ACCEL_ARRAY_SQUARE:
        r.u = a.u * a.u;
        break;
    case ACCEL_ARRAY_SIGN:
        r.i = sg ? (a.i > 0) - (a.i < 0) : a.u > 0;
        break;
    case ACCEL_ARRAY_MAXIMUM:
        r = (sg ? a.i > b.i : a.u > b.u) ? a : b;
        break;
    case ACCEL_ARRAY_MINIMUM:
        r = (sg ? a.i < b.i : a.u < b.u) ? a : b;
        break;
    case ACCEL_ARRAY_BITWISE_AND:
        r.u = a.u & b.u;
        break;
    case ACCEL_ARRAY_BITWISE_OR:
        r.u = a.u | b.u;
        break;
    case ACCEL_ARRAY_BITWISE_XOR:
        r.u = a.u ^ b.u;
        break;
    case ACCEL_ARRAY_BITWISE_INVERT:
        r.u = ct == ACCEL_BOOL ? !a.u : ~a.u;
        break;
    case ACCEL_ARRAY_BITWISE_LEFT_SHIFT:
        r.u = (sg && b.i < 0) || b.u >= (uint64_t)w ? 0 : a.u << b.u;
        break;
    case ACCEL_ARRAY_BITWISE_RIGHT_SHIFT:
        if (sg)
            r.i = b.i < 0 || b.i >= w ? (a.i < 0 ? -1 : 0) : a.i >> b.i;
        else
            r.u = b.u >= (uint64_t)w ? 0 : a.u >> b.u;
        break;
    case ACCEL_ARRAY_FLOOR:
    case ACCEL_ARRAY_CEIL:
    case ACCEL_ARRAY_TRUNC:
    case ACCEL_ARRAY_ROUND:
        r = a;
        break;
    case ACCEL_ARRAY_CLIP:
        r = (sg ? a.i < b.i : a.u < b.u) ? b : a; /* NumPy's min(max(a, lo), hi): */
        r = (sg ? r.i > c.i : r.u > c.u) ? c : r; /* hi wins when lo > hi */
        break;
    default:
        cr_assert_fail("no integer reference for fn %d", (int)fn);
    }
    return wrap(ct, r);
}

/* Truth of a value of dt. */
static bool truth(accel_dtype dt, val v)
{
    return is_float(dt) ? v.f != 0 : v.u != 0;
}

/* Compare in ct: -1, 0, 1, or 2 when unordered (NaN). */
static int cmp(accel_dtype ct, val a, val b)
{
    if (is_float(ct))
        return isnan(a.f) || isnan(b.f) ? 2 : (a.f > b.f) - (a.f < b.f);
    if (kind(ct) == ACCEL_DTYPE_KIND_UINT || ct == ACCEL_BOOL)
        return (a.u > b.u) - (a.u < b.u);
    return (a.i > b.i) - (a.i < b.i);
}

/* The result of fn on inputs already converted to ct, as a value of rdt. */
static val ref(accel_array_fn fn, accel_dtype ct, accel_dtype rdt, val a, val b, val c)
{
    val r = {0};
    int o;
    switch (fn) {
    case ACCEL_ARRAY_EQUAL:
        r.i = cmp(ct, a, b) == 0;
        return r;
    case ACCEL_ARRAY_NOT_EQUAL:
        r.i = cmp(ct, a, b) != 0;
        return r;
    case ACCEL_ARRAY_LESS:
        r.i = cmp(ct, a, b) == -1;
        return r;
    case ACCEL_ARRAY_LESS_EQUAL:
        o = cmp(ct, a, b);
        r.i = o == -1 || o == 0;
        return r;
    case ACCEL_ARRAY_GREATER:
        r.i = cmp(ct, a, b) == 1;
        return r;
    case ACCEL_ARRAY_GREATER_EQUAL:
        o = cmp(ct, a, b);
        r.i = o == 1 || o == 0;
        return r;
    case ACCEL_ARRAY_LOGICAL_AND:
        r.i = truth(ct, a) && truth(ct, b);
        return r;
    case ACCEL_ARRAY_LOGICAL_OR:
        r.i = truth(ct, a) || truth(ct, b);
        return r;
    case ACCEL_ARRAY_LOGICAL_XOR:
        r.i = truth(ct, a) != truth(ct, b);
        return r;
    case ACCEL_ARRAY_LOGICAL_NOT:
        r.i = !truth(ct, a);
        return r;
    case ACCEL_ARRAY_ISNAN:
        r.i = is_float(ct) && isnan(a.f);
        return r;
    case ACCEL_ARRAY_ISINF:
        r.i = is_float(ct) && isinf(a.f);
        return r;
    case ACCEL_ARRAY_ISFINITE:
        r.i = !is_float(ct) || isfinite(a.f);
        return r;
    case ACCEL_ARRAY_WHERE:
        return a.u ? b : c;
    case ACCEL_ARRAY_ASTYPE:
        return convert(ct, rdt, a);
    default:
        break;
    }
    if (is_float(ct)) {
        r.f = round_to(ct, ref_float(fn, ct, a.f, b.f, c.f));
        return r;
    }
    return ref_int(fn, ct, a, b, c);
}

/* Element (multi-index idx) of view a in host copy `host` of its buffer. */
static val host_elem(const accel_array *a, const void *host, const int64_t *idx, uint32_t nd)
{
    int64_t e = (int64_t)(a->offset / accel_dtype_size(a->dtype));
    for (uint32_t d = 0; d < a->ndim; d++) {
        int64_t i = idx[nd - a->ndim + d];
        e += (a->shape[d] == 1 ? 0 : i) * a->strides[d];
    }
    return get(host, a->dtype, (size_t)e);
}

/* A case: input views over host arrays, and the output view (contiguous,
 * over a buffer of its own). */
typedef struct kase {
    uint32_t nin;
    accel_array in[3], out;
    void *host[3];
    size_t bytes[3];
} kase;

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    cr_assert(p);
    return p;
}

/* Input k: a buffer of `elems` elements of dt, viewed by v (buffer set here). */
static void add_input(kase *c, tu_rng *r, accel_dtype dt, bool small, int64_t elems, accel_array v)
{
    uint32_t k = c->nin++;
    c->bytes[k] = (size_t)elems * accel_dtype_size(dt);
    c->host[k] = xmalloc(c->bytes[k]);
    fill(r, dt, small, c->host[k], (size_t)elems);
    c->in[k] = v;
    c->in[k].dtype = dt;
}

/* Run fn (binary, unary, clip, where or astype by arity and fn) on the case
 * and compare every output element with the reference. */
static void run_case(env *e, accel_array_fn fn, kase *c, accel_dtype out_dt, const char *what)
{
    accel_buffer *bufs[3];
    for (uint32_t k = 0; k < c->nin; k++) {
        bufs[k] = upload(e, c->host[k], c->bytes[k]);
        c->in[k].buffer = bufs[k];
    }
    int64_t n = 1;
    for (uint32_t d = 0; d < c->out.ndim; d++)
        n *= c->out.shape[d];
    size_t ob = (size_t)n * accel_dtype_size(out_dt);
    unsigned char *got = xmalloc(ob);
    memset(got, 0xa5, ob);
    accel_buffer *bo = upload(e, got, ob);
    accel_array out = c->out;
    out.buffer = bo;
    out.dtype = out_dt;
    accel_status st;
    if (fn == ACCEL_ARRAY_ASTYPE)
        st = accel_array_astype(e->q, &c->in[0], &out);
    else if (fn == ACCEL_ARRAY_WHERE)
        st = accel_array_where(e->q, &c->in[0], &c->in[1], &c->in[2], &out);
    else if (fn == ACCEL_ARRAY_CLIP)
        st = accel_array_clip(e->q, &c->in[0], &c->in[1], &c->in[2], &out);
    else if (c->nin == 2)
        st = accel_array_binary(e->q, fn, &c->in[0], &c->in[1], &out);
    else
        st = accel_array_unary(e->q, fn, &c->in[0], &out);
    tu_assert_status(st, ACCEL_SUCCESS, "%s %s", accel_array_fn_info(fn)->name, what);
    if (ob)
        tu_ok(accel_queue_read_blocking(e->q, bo, 0, got, ob));
    else
        tu_ok(accel_queue_finish(e->q));
    accel_dtype ct = c->in[fn == ACCEL_ARRAY_WHERE ? 1 : 0].dtype;
    for (uint32_t k = fn == ACCEL_ARRAY_WHERE ? 2 : 1; k < c->nin; k++)
        accel_result_type(ct, c->in[k].dtype, &ct);
    unsigned tol = accel_array_fn_info(fn)->tolerance_ulp;
    int64_t idx[ACCEL_ARRAY_MAX_NDIM] = {0};
    for (int64_t i = 0; i < n; i++) {
        int64_t rem = i;
        for (uint32_t d = out.ndim; d-- > 0;) {
            idx[d] = rem % out.shape[d];
            rem /= out.shape[d];
        }
        val v[3] = {{0}, {0}, {0}};
        for (uint32_t k = 0; k < c->nin; k++) {
            v[k] = host_elem(&c->in[k], c->host[k], idx, out.ndim);
            if (!(fn == ACCEL_ARRAY_WHERE && k == 0))
                v[k] = convert(c->in[k].dtype, ct, v[k]);
        }
        val want = ref(fn, ct, out_dt, v[0], v[1], v[2]);
        val have = get(got, out_dt, (size_t)i);
        bool ok = is_float(out_dt) ? close_enough(out_dt, have.f, want.f, tol) : have.u == want.u;
        if (!ok)
            cr_assert_fail("%s %s -> %s, %s, element %lld: got %.17g (0x%llx), want %.17g "
                           "(0x%llx); inputs %.17g %.17g (0x%llx 0x%llx)",
                           accel_array_fn_info(fn)->name, accel_dtype_name(c->in[0].dtype),
                           accel_dtype_name(out_dt), what, (long long)i, have.f,
                           (unsigned long long)have.u, want.f, (unsigned long long)want.u, v[0].f,
                           v[1].f, (unsigned long long)v[0].u, (unsigned long long)v[1].u);
    }
    for (uint32_t k = 0; k < c->nin; k++) {
        accel_buffer_release(bufs[k]);
        free(c->host[k]);
    }
    accel_buffer_release(bo);
    free(got);
}

static accel_array view(uint32_t nd, const int64_t *shape)
{
    accel_array a;
    tu_ok(accel_array_init(&a, NULL, ACCEL_F32, nd, shape));
    return a;
}

/* fn's input k dtype for a case of dtype dt (where: the condition is bool). */
static accel_dtype in_dtype(accel_array_fn fn, uint32_t k, accel_dtype dt)
{
    return fn == ACCEL_ARRAY_WHERE && k == 0 ? ACCEL_BOOL : dt;
}

static bool small_operand(accel_array_fn fn, uint32_t k)
{
    return k == 1 && (fn == ACCEL_ARRAY_BITWISE_LEFT_SHIFT ||
                      fn == ACCEL_ARRAY_BITWISE_RIGHT_SHIFT || fn == ACCEL_ARRAY_POW);
}

/* Contiguous: every array of shape (37,). */
static void case_contiguous(env *e, tu_rng *r, accel_array_fn fn, uint32_t arity, accel_dtype dt,
                            accel_dtype out_dt)
{
    kase c = {0};
    const int64_t shape[] = {37};
    for (uint32_t k = 0; k < arity; k++)
        add_input(&c, r, in_dtype(fn, k, dt), small_operand(fn, k), 37, view(1, shape));
    c.out = view(1, shape);
    run_case(e, fn, &c, out_dt, "contiguous (37,)");
}

/* Strided: out (5, 4, 3); input 0 (5, 1, 3) reversed on axis 0 (negative
 * stride) and broadcast on axis 1; input 1 a (3, 4) array transposed to
 * (4, 3); input 2 a (3,) broadcast. */
static void case_strided(env *e, tu_rng *r, accel_array_fn fn, uint32_t arity, accel_dtype dt,
                         accel_dtype out_dt)
{
    kase c = {0};
    const int64_t s0[] = {5, 1, 3}, s1[] = {3, 4}, s2[] = {3}, so[] = {5, 4, 3};
    accel_array v = view(3, s0);
    v.strides[0] = -3;
    v.offset = 12 * accel_dtype_size(in_dtype(fn, 0, dt));
    add_input(&c, r, in_dtype(fn, 0, dt), false, 15, v);
    if (arity > 1) {
        v = view(2, s1);
        v.shape[0] = 4, v.shape[1] = 3, v.strides[0] = 1, v.strides[1] = 4;
        add_input(&c, r, dt, small_operand(fn, 1), 12, v);
    }
    if (arity > 2)
        add_input(&c, r, dt, false, 3, view(1, s2));
    c.out = view(3, so);
    run_case(e, fn, &c, out_dt, "strided (5, 4, 3)");
}

static bool takes(accel_array_fn fn, accel_dtype dt)
{
    const accel_array_fn_properties *p = accel_array_fn_info(fn);
    if (fn == ACCEL_ARRAY_NEXTAFTER && (dt == ACCEL_F16 || dt == ACCEL_BF16))
        return false;
    return (p->kinds >> accel_dtype_kind_of(dt)) & 1u;
}

static accel_dtype result_of(accel_array_fn fn, accel_dtype dt)
{
    return accel_array_fn_info(fn)->result == ACCEL_ARRAY_RESULT_BOOL ? ACCEL_BOOL : dt;
}

/* Every function but astype x every dtype: taken ones match the reference
 * on both shapes; the others are refused with out untouched. */
static void every_function(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    tu_rng r = tu_rng_make(27);
    for (int f = 1; f < ACCEL_ARRAY_FN_LIMIT_; f++) {
        const accel_array_fn_properties *p = accel_array_fn_info((accel_array_fn)f);
        if (!p || f == ACCEL_ARRAY_ASTYPE)
            continue;
        for (size_t d = 0; d < NDT; d++) {
            accel_dtype dt = all_dtypes[d];
            if (!takes((accel_array_fn)f, dt))
                continue;
            case_contiguous(&e, &r, (accel_array_fn)f, p->arity, dt, result_of(f, dt));
            case_strided(&e, &r, (accel_array_fn)f, p->arity, dt, result_of(f, dt));
        }
    }
}

/* The default backends, the CPU's kernels built by tcc (the matrix builds
 * about a thousand kernels: tcc takes milliseconds each, cc a third of a
 * second), with a kernel cache of the test's own. */
static accel_runtime *open_rt(void)
{
    setenv("ACCEL_KERNEL_CACHE", tu_fmt("%s/cache", tu_tmpdir()), 1);
    const char *ini = tu_fmt("[runtime]\norder = cuda, cpu\nstrict = false\n"
                             "[backend.cuda]\nlibrary = %s/libaccel_cuda.so\n"
                             "[backend.cpu]\nlibrary = %s\nkernel_compiler = tcc\n",
                             ACCEL_TEST_PLUGIN_CONFIG_DIR, TU_CPU_PLUGIN);
    accel_runtime *rt = NULL;
    tu_ok(tu_open_ini(ini, &rt, NULL));
    return rt;
}

/* The same kernels built by cc (the CPU backend's default compiler) on one
 * float and one integer dtype, contiguous: the matrix above runs tcc's. */
static void cc_subset(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    tu_rng r = tu_rng_make(32);
    static const accel_dtype dts[] = {ACCEL_F32, ACCEL_I16};
    for (int f = 1; f < ACCEL_ARRAY_FN_LIMIT_; f++) {
        const accel_array_fn_properties *p = accel_array_fn_info((accel_array_fn)f);
        if (!p || f == ACCEL_ARRAY_ASTYPE)
            continue;
        for (size_t d = 0; d < 2; d++)
            if (takes((accel_array_fn)f, dts[d]))
                case_contiguous(&e, &r, (accel_array_fn)f, p->arity, dts[d], result_of(f, dts[d]));
    }
}

Test(array_elementwise, every_function_built_by_cc, .timeout = 280)
{
    setenv("ACCEL_KERNEL_CACHE", tu_fmt("%s/cache_cc", tu_tmpdir()), 1);
    accel_runtime *rt = tu_open_cpu_cc();
    tu_for_each_device(rt, cc_subset, NULL);
    accel_runtime_close(rt);
}

Test(array_elementwise, every_function_every_dtype)
{
    accel_runtime *rt = open_rt();
    tu_for_each_device(rt, every_function, NULL);
    accel_runtime_close(rt);
}

/* A counter of the cases compared, so a matrix that silently ran nothing fails. */
static void refused_untouched(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    unsigned refused = 0;
    for (int f = 1; f < ACCEL_ARRAY_FN_LIMIT_; f++) {
        const accel_array_fn_properties *p = accel_array_fn_info((accel_array_fn)f);
        if (!p || f == ACCEL_ARRAY_ASTYPE || f == ACCEL_ARRAY_WHERE)
            continue;
        for (size_t d = 0; d < NDT; d++) {
            accel_dtype dt = all_dtypes[d];
            if (takes((accel_array_fn)f, dt))
                continue;
            const int64_t shape[] = {4};
            unsigned char host[32];
            memset(host, 0x5a, sizeof host);
            accel_buffer *bx = upload(&e, host, sizeof host), *bo = upload(&e, host, sizeof host);
            accel_array x, out;
            tu_ok(accel_array_init(&x, bx, dt, 1, shape));
            tu_ok(accel_array_init(&out, bo, result_of(f, dt), 1, shape));
            accel_status st = p->arity == 1 ? accel_array_unary(q, (accel_array_fn)f, &x, &out)
                              : p->arity == 2
                                  ? accel_array_binary(q, (accel_array_fn)f, &x, &x, &out)
                                  : accel_array_clip(q, &x, &x, &x, &out);
            tu_assert_status(st, ACCEL_ERROR_DTYPE_MISMATCH, "%s on %s", p->name,
                             accel_dtype_name(dt));
            cr_assert(strstr(accel_last_error(), p->name), "%s", accel_last_error());
            unsigned char back[32];
            tu_ok(accel_queue_read_blocking(q, bo, 0, back, sizeof back));
            cr_assert(memcmp(back, host, sizeof back) == 0, "%s on %s: out changed", p->name,
                      accel_dtype_name(dt));
            accel_buffer_release(bx);
            accel_buffer_release(bo);
            refused++;
        }
    }
    cr_assert_gt(refused, 150u, "refusals checked: %u", refused);
}

Test(array_elementwise, kinds_not_taken_are_refused)
{
    accel_runtime *rt = open_rt();
    tu_for_each_device(rt, refused_untouched, NULL);
    accel_runtime_close(rt);
}

/* astype: every pair of dtypes, contiguous; and a strided copy. */
static void astype_pairs(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    tu_rng r = tu_rng_make(28);
    for (size_t i = 0; i < NDT; i++)
        for (size_t j = 0; j < NDT; j++)
            case_contiguous(&e, &r, ACCEL_ARRAY_ASTYPE, 1, all_dtypes[i], all_dtypes[j]);
    for (size_t i = 0; i < NDT; i++)
        case_strided(&e, &r, ACCEL_ARRAY_ASTYPE, 1, all_dtypes[i], all_dtypes[i]);
}

Test(array_elementwise, astype_every_pair)
{
    accel_runtime *rt = open_rt();
    tu_for_each_device(rt, astype_pairs, NULL);
    accel_runtime_close(rt);
}

/* Known values from NumPy 2.1 (np.floor_divide, np.remainder, np.round, ...)
 * written out: an independent check of the rules the reference implements. */
static void numpy_values(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    const int64_t shape[] = {6};
    accel_array a, b, o;
    const double fa[] = {-7.0, 7.0, 1.0, -0.0, 2.5, -3.5}, fb[] = {2.0, -2.0, 0.0, 5.0, 1.0, 1.0};
    accel_buffer *ba = upload(&e, fa, sizeof fa), *bb = upload(&e, fb, sizeof fb);
    accel_buffer *bo = upload(&e, NULL, 48);
    tu_ok(accel_array_init(&a, ba, ACCEL_F64, 1, shape));
    tu_ok(accel_array_init(&b, bb, ACCEL_F64, 1, shape));
    tu_ok(accel_array_init(&o, bo, ACCEL_F64, 1, shape));
    double got[6];
    tu_ok(accel_array_binary(q, ACCEL_ARRAY_FLOOR_DIVIDE, &a, &b, &o));
    tu_ok(accel_queue_read_blocking(q, bo, 0, got, sizeof got));
    const double fd[] = {-4.0, -4.0, INFINITY, -0.0, 2.0, -4.0}; /* np.floor_divide */
    for (int i = 0; i < 6; i++)
        cr_assert(tu_same(got[i], fd[i]) && signbit(got[i]) == signbit(fd[i]),
                  "floor_divide[%d] = %g", i, got[i]);
    tu_ok(accel_array_binary(q, ACCEL_ARRAY_REMAINDER, &a, &b, &o));
    tu_ok(accel_queue_read_blocking(q, bo, 0, got, sizeof got));
    const double rm[] = {1.0, -1.0, NAN, 0.0, 0.5, 0.5}; /* np.remainder */
    for (int i = 0; i < 6; i++)
        cr_assert(tu_same(got[i], rm[i]), "remainder[%d] = %g", i, got[i]);
    tu_ok(accel_array_unary(q, ACCEL_ARRAY_ROUND, &a, &o));
    tu_ok(accel_queue_read_blocking(q, bo, 0, got, sizeof got));
    const double rd[] = {-7.0, 7.0, 1.0, -0.0, 2.0, -4.0}; /* np.round: half to even */
    for (int i = 0; i < 6; i++)
        cr_assert(tu_same(got[i], rd[i]), "round[%d] = %g", i, got[i]);
    /* int32: 7 // 0 = 0, -7 // 2 = -4, -7 % 2 = 1, INT_MIN // -1 = INT_MIN */
    const int32_t ia[] = {7, -7, -7, INT32_MIN, 5, -5}, ib[] = {0, 2, 2, -1, -3, 3};
    int32_t ig[6];
    accel_buffer *bia = upload(&e, ia, sizeof ia), *bib = upload(&e, ib, sizeof ib);
    tu_ok(accel_array_init(&a, bia, ACCEL_I32, 1, shape));
    tu_ok(accel_array_init(&b, bib, ACCEL_I32, 1, shape));
    tu_ok(accel_array_init(&o, bo, ACCEL_I32, 1, shape));
    tu_ok(accel_array_binary(q, ACCEL_ARRAY_FLOOR_DIVIDE, &a, &b, &o));
    tu_ok(accel_queue_read_blocking(q, bo, 0, ig, sizeof ig));
    const int32_t ifd[] = {0, -4, -4, INT32_MIN, -2, -2};
    for (int i = 0; i < 6; i++)
        cr_assert_eq(ig[i], ifd[i], "int floor_divide[%d] = %d", i, ig[i]);
    tu_ok(accel_array_binary(q, ACCEL_ARRAY_REMAINDER, &a, &b, &o));
    tu_ok(accel_queue_read_blocking(q, bo, 0, ig, sizeof ig));
    const int32_t irm[] = {0, 1, 1, 0, -1, 1};
    for (int i = 0; i < 6; i++)
        cr_assert_eq(ig[i], irm[i], "int remainder[%d] = %d", i, ig[i]);
    accel_buffer_release(ba);
    accel_buffer_release(bb);
    accel_buffer_release(bia);
    accel_buffer_release(bib);
    accel_buffer_release(bo);
}

Test(array_elementwise, numpy_values)
{
    accel_runtime *rt = open_rt();
    tu_for_each_device(rt, numpy_values, NULL);
    accel_runtime_close(rt);
}

/* Mixed dtypes promote (int8 + uint8 -> int16, int32 + float32 -> float64,
 * bool + int8 -> int8); 0-d and 0-size views; 8 axes that do not coalesce
 * (more than a binary kernel takes: the leading ones loop on the host). */
static void shapes_and_promotion(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    tu_rng r = tu_rng_make(29);
    const accel_dtype pairs[][3] = {{ACCEL_I8, ACCEL_U8, ACCEL_I16},
                                    {ACCEL_I32, ACCEL_F32, ACCEL_F64},
                                    {ACCEL_BOOL, ACCEL_I8, ACCEL_I8},
                                    {ACCEL_U64, ACCEL_F32, ACCEL_F64},
                                    {ACCEL_I64, ACCEL_U64, ACCEL_F64}};
    const int64_t shape[] = {11};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        static const accel_array_fn fns[] = {ACCEL_ARRAY_ADD, ACCEL_ARRAY_LESS,
                                             ACCEL_ARRAY_MAXIMUM};
        for (size_t f = 0; f < 3; f++) {
            kase c = {0};
            add_input(&c, &r, pairs[i][0], false, 11, view(1, shape));
            add_input(&c, &r, pairs[i][1], false, 11, view(1, shape));
            c.out = view(1, shape);
            run_case(&e, fns[f], &c, result_of(fns[f], pairs[i][2]), "mixed dtypes");
        }
    }
    /* 0-d: one element each */
    kase c = {0};
    add_input(&c, &r, ACCEL_F32, false, 1, view(0, NULL));
    add_input(&c, &r, ACCEL_F32, false, 1, view(0, NULL));
    c.out = view(0, NULL);
    run_case(&e, ACCEL_ARRAY_ATAN2, &c, ACCEL_F32, "0-d");
    /* 0-size: nothing runs, nothing fails */
    const int64_t empty[] = {0, 3};
    c = (kase){0};
    add_input(&c, &r, ACCEL_I16, false, 0, view(2, empty));
    c.out = view(2, empty);
    run_case(&e, ACCEL_ARRAY_NEGATIVE, &c, ACCEL_I16, "0-size");
    /* 8 axes of 2, input 0 with every other element (no two axes merge) */
    int64_t s8[8], elems = 1;
    for (int d = 0; d < 8; d++)
        s8[d] = 2;
    accel_array v = view(8, s8);
    for (int d = 7; d >= 0; d--) {
        v.strides[d] = 2 * elems;
        elems *= 2;
    }
    c = (kase){0};
    add_input(&c, &r, ACCEL_I32, false, 2 * elems, v);
    accel_array w = view(8, s8);
    w.strides[0] = -w.strides[0];
    w.offset = (uint64_t)(128 * 4);
    add_input(&c, &r, ACCEL_I32, false, elems, w);
    c.out = view(8, s8);
    run_case(&e, ACCEL_ARRAY_SUBTRACT, &c, ACCEL_I32, "8 axes");
}

Test(array_elementwise, shapes_and_promotion)
{
    accel_runtime *rt = open_rt();
    tu_for_each_device(rt, shapes_and_promotion, NULL);
    accel_runtime_close(rt);
}

/* int64 against uint64 (either order) compares exactly, as NumPy 2: in
 * their promoted float64, 2^63 - 1 equalled 2^63 (a helper's find). The
 * reference compares the two as __int128. Every pair of the edge values,
 * broadcast (8, 1) against (1, 8). */
__extension__ typedef __int128 i128;

static void int64_uint64_compare(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    enum { n = 8 };
    const int64_t si[n] = {INT64_MIN, -1, 0, 5, INT64_MAX - 1, INT64_MAX, 7, 8};
    const uint64_t ui[n] = {
        0,          1, 5, (uint64_t)INT64_MAX, (uint64_t)INT64_MAX + 1, (uint64_t)INT64_MAX + 2,
        UINT64_MAX, 8};
    accel_buffer *bs, *bu, *bo;
    tu_ok(accel_buffer_create_from_host(q, si, sizeof si, &bs));
    tu_ok(accel_buffer_create_from_host(q, ui, sizeof ui, &bu));
    tu_ok(accel_buffer_create(dev, n * n, &bo));
    const int64_t col[] = {n, 1}, row[] = {1, n}, sq[] = {n, n};
    for (int order = 0; order < 2; order++)
        for (int f = ACCEL_ARRAY_EQUAL; f <= ACCEL_ARRAY_GREATER_EQUAL; f++) {
            accel_array x1, x2, o;
            tu_ok(accel_array_init(&x1, order ? bu : bs, order ? ACCEL_U64 : ACCEL_I64, 2, col));
            tu_ok(accel_array_init(&x2, order ? bs : bu, order ? ACCEL_I64 : ACCEL_U64, 2, row));
            tu_ok(accel_array_init(&o, bo, ACCEL_BOOL, 2, sq));
            tu_ok(accel_array_binary(q, (accel_array_fn)f, &x1, &x2, &o));
            unsigned char got[n * n];
            tu_ok(accel_queue_read_blocking(q, bo, 0, got, sizeof got));
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) {
                    i128 a = order ? (i128)ui[i] : (i128)si[i];
                    i128 b = order ? (i128)si[j] : (i128)ui[j];
                    bool want = f == ACCEL_ARRAY_EQUAL        ? a == b
                                : f == ACCEL_ARRAY_NOT_EQUAL  ? a != b
                                : f == ACCEL_ARRAY_LESS       ? a < b
                                : f == ACCEL_ARRAY_LESS_EQUAL ? a <= b
                                : f == ACCEL_ARRAY_GREATER    ? a > b
                                                              : a >= b;
                    cr_assert_eq(got[i * n + j] != 0, want, "%s: fn %d, order %d, [%d, %d]",
                                 accel_device_name(dev), f, order, i, j);
                }
        }
    accel_buffer_release(bs);
    accel_buffer_release(bu);
    accel_buffer_release(bo);
}

Test(array_elementwise, int64_uint64_compare_exactly)
{
    accel_runtime *rt = open_rt();
    tu_for_each_device(rt, int64_uint64_compare, NULL);
    accel_runtime_close(rt);
}

/* x + y.T and y.T * x over 2-D shapes that are and are not multiples of a
 * tile (32 x 32, y.T staged through shared memory): a GPU walks these in
 * tiles (codegen.c, tile_walk), and so
 * does the CPU under ACCEL_ARRAY_WALK=grid (ctest
 * array_elementwise_grid_walk, one block: grid-stride over the tiles). */
static void transposed_operands(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    tu_rng r = tu_rng_make(77);
    static const int64_t shapes[][2] = {{9, 33}, {8, 32}, {40, 70}, {257, 129}, {3, 300}};
    static const accel_dtype dts[] = {ACCEL_F32, ACCEL_I64, ACCEL_F64, ACCEL_F16};
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++)
        for (size_t di = 0; di < sizeof dts / sizeof dts[0]; di++)
            for (int flip = 0; flip < 2; flip++) {
                int64_t rows = shapes[si][0], cols = shapes[si][1];
                const int64_t shape[] = {rows, cols};
                kase c = {0};
                accel_array xt = view(2, shape);
                xt.strides[0] = 1; /* y.T of a (cols, rows) y */
                xt.strides[1] = rows;
                add_input(&c, &r, dts[di], false, rows * cols, flip ? xt : view(2, shape));
                add_input(&c, &r, dts[di], false, rows * cols, flip ? view(2, shape) : xt);
                c.out = view(2, shape);
                char what[64];
                snprintf(what, sizeof what, "(%lld, %lld), %s transposed", (long long)rows,
                         (long long)cols, flip ? "x1" : "x2");
                run_case(&e, flip ? ACCEL_ARRAY_MULTIPLY : ACCEL_ARRAY_ADD, &c, dts[di], what);
            }
}

Test(array_elementwise, transposed_operands_in_tiles)
{
    accel_runtime *rt = open_rt();
    tu_for_each_device(rt, transposed_operands, NULL);
    accel_runtime_close(rt);
}

/* Broadcasts and strided rows whose inner axis is a multiple of 4: a GPU
 * (and the CPU under ACCEL_ARRAY_WALK=grid, ctest
 * array_elementwise_grid_walk) runs these 4 elements to a work item, one
 * 16-byte move where every run is aligned (codegen.c, element_run), and
 * element by element where a view starts off a multiple of 4 or its rows
 * are not. Each case checks every element against the double loop. */
static void inner_runs(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    tu_rng r = tu_rng_make(91);
    static const accel_dtype dts[] = {ACCEL_F32, ACCEL_F64,  ACCEL_I8,  ACCEL_U16,
                                      ACCEL_I64, ACCEL_BOOL, ACCEL_F16, ACCEL_I32};
    static const int64_t rows_of[] = {1, 3, 17}, cols_of[] = {4, 8, 12, 64};
    for (size_t di = 0; di < sizeof dts / sizeof dts[0]; di++) {
        accel_dtype dt = dts[di];
        size_t es = accel_dtype_size(dt);
        accel_array_fn fn = dt == ACCEL_BOOL ? ACCEL_ARRAY_LOGICAL_XOR : ACCEL_ARRAY_ADD;
        for (size_t ri = 0; ri < 3; ri++)
            for (size_t ci = 0; ci < 4; ci++)
                for (int form = 0; form < 4; form++) {
                    int64_t m = rows_of[ri], n = cols_of[ci];
                    const int64_t col[] = {m, 1}, row[] = {1, n}, full[] = {m, n};
                    kase c = {0};
                    accel_array a = view(2, col), b = view(2, row);
                    int64_t b_elems = n;
                    if (form == 1) { /* x2 starts 1 element in: runs one by one */
                        b.offset = es;
                        b_elems = n + 1;
                    } else if (form == 2) { /* x2 (m, n) rows n + 4 apart */
                        b = view(2, full);
                        b.strides[0] = n + 4;
                        b.offset = 4 * es;
                        b_elems = 4 + m * (n + 4);
                    } else if (form == 3) { /* rows n + 1 apart */
                        b = view(2, full);
                        b.strides[0] = n + 1;
                        b_elems = m * (n + 1);
                    }
                    add_input(&c, &r, dt, false, m, a);
                    add_input(&c, &r, dt, false, b_elems, b);
                    c.out = view(2, full);
                    char what[96];
                    snprintf(what, sizeof what, "(%lld, 1) with (%lld, %lld), form %d",
                             (long long)m, (long long)m, (long long)n, form);
                    run_case(&e, fn, &c, result_of(fn, dt), what);
                }
    }
    /* where(cond (3, 1), x (3, 8), y (1, 8)) and a (2, 3, 8) broadcast */
    kase w = {0};
    const int64_t c31[] = {3, 1}, x38[] = {3, 8}, y18[] = {1, 8};
    add_input(&w, &r, ACCEL_BOOL, false, 3, view(2, c31));
    add_input(&w, &r, ACCEL_F32, false, 24, view(2, x38));
    add_input(&w, &r, ACCEL_F32, false, 8, view(2, y18));
    w.out = view(2, x38);
    run_case(&e, ACCEL_ARRAY_WHERE, &w, ACCEL_F32, "where (3, 1) (3, 8) (1, 8)");
    kase t = {0};
    const int64_t a218[] = {2, 1, 8}, b38[] = {3, 8}, o238[] = {2, 3, 8};
    add_input(&t, &r, ACCEL_I32, false, 16, view(3, a218));
    add_input(&t, &r, ACCEL_I32, false, 24, view(2, b38));
    t.out = view(3, o238);
    run_case(&e, ACCEL_ARRAY_MULTIPLY, &t, ACCEL_I32, "(2, 1, 8) * (3, 8)");
}

Test(array_elementwise, inner_runs_of_four)
{
    accel_runtime *rt = open_rt();
    tu_for_each_device(rt, inner_runs, NULL);
    accel_runtime_close(rt);
}

static atomic_int add_returned;

/* A 1024-element int32 add is ACCEL_LAUNCH_BRIEF (kernel_launch.c), which
 * the CPU backend runs on the caller's thread when its queue is idle. On a
 * queue held up by a host function, with a write of its input queued
 * before it, it must wait for both (the queue's order): it sees the
 * written values. On the idle queue after, it runs at once and is right
 * too; 16385 elements (past ACCEL_LAUNCH_BRIEF_ELEMENTS) go to the
 * queue. */
Test(array_elementwise, brief_launch_keeps_its_queues_order)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    env e = {dev, q};
    enum { N = 16385 };
    int32_t *x = calloc(N, sizeof *x), *y = malloc(N * sizeof *y), *o = malloc(N * sizeof *o);
    cr_assert(x && y && o);
    for (int i = 0; i < N; i++)
        y[i] = 3 * i;
    accel_buffer *bx = upload(&e, x, N * 4), *by = upload(&e, y, N * 4),
                 *bo = upload(&e, NULL, N * 4);
    for (int i = 0; i < N; i++)
        x[i] = i - 7;
    const int64_t sizes[] = {1024, N};
    for (int round = 0; round < 4; round++) {
        const int64_t n = sizes[round % 2];
        const bool held = round < 2;
        accel_array ax, ay, ao;
        tu_ok(accel_array_init(&ax, bx, ACCEL_I32, 1, &n));
        tu_ok(accel_array_init(&ay, by, ACCEL_I32, 1, &n));
        tu_ok(accel_array_init(&ao, bo, ACCEL_I32, 1, &n));
        atomic_store(&add_returned, !held);
        if (held)
            tu_ok(accel_queue_host_fn(q, "hold_until_set", hold_until_set, &add_returned));
        x[0] = -round; /* each round's input differs */
        tu_ok(accel_queue_write(q, bx, 0, x, (size_t)n * 4));
        tu_ok(accel_array_binary(q, ACCEL_ARRAY_ADD, &ax, &ay, &ao));
        atomic_store(&add_returned, 1);
        tu_ok(accel_queue_read_blocking(q, bo, 0, o, (size_t)n * 4));
        for (int64_t i = 0; i < n; i++)
            cr_assert_eq(o[i], x[i] + y[i], "round %d (n %lld, %s queue): o[%lld] = %d, want %d",
                         round, (long long)n, held ? "held-up" : "idle", (long long)i, o[i],
                         x[i] + y[i]);
    }
    accel_buffer_release(bx);
    accel_buffer_release(by);
    accel_buffer_release(bo);
    free(x);
    free(y);
    free(o);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

/* Bad input: a clear status naming the argument, the output untouched. */
Test(array_elementwise, bad_input)
{
    accel_runtime *rt = open_rt();
    accel_device *dev;
    accel_queue *q;
    tu_ok(accel_device_get_by_name(rt, "cpu:0", &dev));
    tu_ok(accel_queue_create(dev, &q));
    env e = {dev, q};
    float host[64];
    for (int i = 0; i < 64; i++)
        host[i] = (float)i;
    accel_buffer *bx = upload(&e, host, sizeof host), *bo = upload(&e, host, sizeof host);
    const int64_t s23[] = {2, 3}, s3[] = {3}, s4[] = {4}, s24[] = {2, 4};
    accel_array x, y, o, bad;
    tu_ok(accel_array_init(&x, bx, ACCEL_F32, 2, s23));
    tu_ok(accel_array_init(&y, bx, ACCEL_F32, 1, s4));
    tu_ok(accel_array_init(&o, bo, ACCEL_F32, 2, s23));
#define EXPECT(call, st, needle)                                                                   \
    do {                                                                                           \
        tu_assert_status(call, st, "%s", #call);                                                   \
        cr_assert(strstr(accel_last_error(), needle), "%s: \"%s\" lacks \"%s\"", #call,            \
                  accel_last_error(), needle);                                                     \
    } while (0)
    EXPECT(accel_array_binary(q, ACCEL_ARRAY_ADD, &x, &y, &o), ACCEL_ERROR_SHAPE_MISMATCH, "x2");
    accel_array o24;
    tu_ok(accel_array_init(&o24, bo, ACCEL_F32, 2, s24));
    EXPECT(accel_array_unary(q, ACCEL_ARRAY_EXP, &x, &o24), ACCEL_ERROR_SHAPE_MISMATCH, "out");
    EXPECT(accel_array_binary(q, ACCEL_ARRAY_BITWISE_AND, &x, &x, &o), ACCEL_ERROR_DTYPE_MISMATCH,
           "bitwise_and takes bool");
    accel_array ob = o;
    ob.dtype = ACCEL_F64;
    EXPECT(accel_array_binary(q, ACCEL_ARRAY_ADD, &x, &x, &ob), ACCEL_ERROR_DTYPE_MISMATCH, "out");
    ob.dtype = ACCEL_F32; /* less gives bool */
    EXPECT(accel_array_binary(q, ACCEL_ARRAY_LESS, &x, &x, &ob), ACCEL_ERROR_DTYPE_MISMATCH,
           "gives bool");
    bad = x;
    bad.shape[0] = 100; /* past the buffer */
    EXPECT(accel_array_unary(q, ACCEL_ARRAY_SIN, &bad, &o), ACCEL_ERROR_OUT_OF_RANGE, "x:");
    bad = x;
    bad.strides[1] = INT64_MAX; /* 2 x INT64_MAX overflows */
    EXPECT(accel_array_binary(q, ACCEL_ARRAY_ADD, &x, &bad, &o), ACCEL_ERROR_OUT_OF_RANGE,
           "x2: shape x strides overflows");
    bad = x;
    bad.ndim = 1u << 20;
    EXPECT(accel_array_unary(q, ACCEL_ARRAY_SIN, &bad, &o), ACCEL_ERROR_INVALID_ARGUMENT,
           "ndim 1048576");
    EXPECT(accel_array_unary(q, ACCEL_ARRAY_ADD, &x, &o), ACCEL_ERROR_INVALID_ARGUMENT, "arity");
    EXPECT(accel_array_unary(q, (accel_array_fn)99, &x, &o), ACCEL_ERROR_INVALID_ARGUMENT,
           "unknown");
    EXPECT(accel_array_unary(q, ACCEL_ARRAY_SIN, NULL, &o), ACCEL_ERROR_INVALID_ARGUMENT,
           "x is NULL");
    EXPECT(accel_array_unary(NULL, ACCEL_ARRAY_SIN, &x, &o), ACCEL_ERROR_INVALID_HANDLE, "q");
    /* out overlapping x other than exactly: shifted by one element */
    accel_array sh = x;
    sh.offset = 4;
    EXPECT(accel_array_unary(q, ACCEL_ARRAY_NEGATIVE, &x, &sh), ACCEL_ERROR_INVALID_ARGUMENT,
           "overlaps");
    /* a transposed view of the same elements is not in place either */
    const int64_t s33[] = {3, 3};
    accel_array sq, sqt;
    tu_ok(accel_array_init(&sq, bx, ACCEL_F32, 2, s33));
    const int32_t perm[] = {1, 0};
    tu_ok(accel_array_permute_dims(&sq, perm, &sqt));
    EXPECT(accel_array_unary(q, ACCEL_ARRAY_NEGATIVE, &sq, &sqt), ACCEL_ERROR_INVALID_ARGUMENT,
           "overlaps");
    accel_array cond = x;
    EXPECT(accel_array_where(q, &cond, &x, &x, &o), ACCEL_ERROR_DTYPE_MISMATCH, "bool");
    accel_array xi = x;
    xi.dtype = ACCEL_I32;
    EXPECT(accel_array_copy(q, &xi, &o), ACCEL_ERROR_DTYPE_MISMATCH, "astype");
    accel_array xc = x;
    xc.dtype = ACCEL_C64;
    xc.shape[1] = 1;
    /* a complex x takes a complex out (test_array_complex.c has the rest) */
    EXPECT(accel_array_unary(q, ACCEL_ARRAY_NEGATIVE, &xc, &o), ACCEL_ERROR_DTYPE_MISMATCH, "c64");
    EXPECT(accel_array_unary(q, ACCEL_ARRAY_FLOOR, &xc, &o), ACCEL_ERROR_DTYPE_MISMATCH,
           "c64 (the Array API does not define it for complex)");
    (void)s3;
    float back[64];
    tu_ok(accel_queue_read_blocking(q, bo, 0, back, sizeof back));
    cr_assert(memcmp(back, host, sizeof back) == 0, "out changed by a refused call");
    /* in place, exactly: allowed */
    tu_ok(accel_array_unary(q, ACCEL_ARRAY_NEGATIVE, &o, &o));
    tu_ok(accel_queue_read_blocking(q, bo, 0, back, sizeof back));
    for (int i = 0; i < 6; i++)
        cr_assert_eq(back[i], -(float)i);
    cr_assert_eq(back[6], 6.0f);
    accel_buffer_release(bx);
    accel_buffer_release(bo);
    accel_queue_release(q);
    accel_runtime_close(rt);
}
