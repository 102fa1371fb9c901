/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_ops.c — every op of accel.h, f32 and f64, sizes {0, 1, 7, 1009, 65537},
 * on every device the default configuration loads (cpu:0 always; cuda:N where
 * the CUDA backend found a GPU), against plain loops written here in double
 * or long double precision. Each output slice sits between sentinel guards
 * that must survive the op.
 *
 * Tolerances (what docs/checking.md's accuracy table promises, and why it is fair):
 * - add, sub, mul, div, sqrt, neg, abs, relu, max, min, scale (alpha exactly
 *   representable), fill, copy: correctly rounded, compared for equality.
 *   max/min are IEEE 754-2019 maximum/minimum (-0 < +0); tu_same does not
 *   see the sign of zero, so max_min_signed_zeros_ieee754_2019 checks it.
 *   Reference: the op in double, then rounded to the dtype. For f64 that is
 *   the IEEE result itself; for f32 the double result rounded to float is the
 *   correctly rounded float result, because 53 >= 2*24 + 2 (no harmful double
 *   rounding for + - * / sqrt; Figueroa, "When is double rounding innocuous?",
 *   SIGNUM 1995).
 * - exp, log, tanh: |got - exact| <= B ulp(exact), exact from long double libm
 *   (far more accurate than the dtype). B = 2 on the CPU (docs/checking.md's
 *   bounds: SLEEF 1 ulp, or glibc 2 in a build without SLEEF). On GPUs the
 *   CUDA Programming Guide's tables (expf 2, logf 1, tanhf 2 ulp; exp, log,
 *   tanh 1 ulp) count ulps from the correctly rounded result, which is
 *   itself up to 0.5 ulp from the exact value, so B = 2.5 for f32 and 1.5
 *   for f64 (measured on an H200: tanh f64 reached 1.08).
 * - axpby: each product and the sum rounded once, or fused: |got - exact| <=
 *   2u(|a x| + |b y|), u the unit roundoff (2^-24, 2^-53).
 * - sum and dot: |got - exact| <= 2 n u sum|x_i| (sum|x_i y_i| for dot);
 *   recursive summation is within (n-1)u sum|x_i| + O(u^2) (Higham 2002,
 *   "Accuracy and Stability of Numerical Algorithms", 2nd ed., 4.2 and 3.1);
 *   pairwise or blocked orders are tighter. The reference is compensated
 *   (Neumaier) summation in long double.
 * - reduce max/min: exact (a selection, no rounding), signed zeros included.
 * - transpose: a pure data move, compared for exact equality (NaN, -0 and Inf
 *   included; f16/bf16 as raw 2-byte patterns), ld padding and guards intact.
 * - GEMM: |got_ij - exact_ij| <= 2 (k+2) u (|alpha| (|A||B|)_ij + |beta||C_ij|)
 *   (Higham 2002, 3.5: inner products within gamma_k |a||b|; two more
 *   roundings for alpha and beta).
 * - random uniform: bit-identical to the mapping of accel.h computed here from
 *   the Philox block of backends/common/philox.h (itself checked against the
 *   Random123 known answers in test_philox.c).
 * - random normal: Box-Muller recomputed here from the same draws in long
 *   double; |got - exact| <= 16 u (|mean| + stddev r (1 + 2 pi)), which covers
 *   rounding of the angle 2 pi u2 in the dtype (the absolute error of cos/sin
 *   is then about 2 pi u), and of r; any error in the mapping is O(stddev).
 */
#define _XOPEN_SOURCE 700
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "philox.h"
#include "test_util.h"

static const size_t SIZES[] = {0, 1, 7, 1009, 65537};
#define NSIZES (sizeof SIZES / sizeof *SIZES)
static const accel_dtype DTYPES[] = {ACCEL_F32, ACCEL_F64};

/* ------------------------------------------------------------ common */

typedef struct run {
    accel_device *dev;
    accel_queue *q;
    accel_dtype dt;
    size_t n;
    bool gpu;
    const char *what; /* "accel_add f32 n=7 on cpu:0" */
} run;

static const char *describe(const run *r, const char *op)
{
    return tu_fmt("%s %s n=%zu on %s (seed %llu)", op, accel_dtype_name(r->dt), r->n,
                  accel_device_name(r->dev), (unsigned long long)tu_seed());
}

/* Call body(r, user) for each dtype the device takes and each size. */
typedef void (*run_fn)(run *r, void *user);

typedef struct sweep {
    run_fn body;
    void *user;
    const size_t *sizes;
    size_t nsizes;
} sweep;

static void sweep_device(accel_device *dev, accel_queue *q, void *user)
{
    sweep *s = user;
    for (size_t d = 0; d < 2; ++d) {
        if (!tu_device_has_dtype(dev, DTYPES[d])) {
            cr_log_info("%s does not take %s: skipped", accel_device_name(dev),
                        accel_dtype_name(DTYPES[d]));
            continue;
        }
        for (size_t i = 0; i < s->nsizes; ++i) {
            run r = {dev, q, DTYPES[d], s->sizes[i], tu_device_is_gpu(dev), NULL};
            s->body(&r, s->user);
        }
    }
}

static void on_every_device(run_fn body, void *user)
{
    accel_runtime *rt = tu_open_default();
    sweep s = {body, user, SIZES, NSIZES};
    tu_for_each_device(rt, sweep_device, &s);
    accel_runtime_close(rt);
}

static double *alloc_vals(size_t n)
{
    double *v = calloc(n ? n : 1, sizeof *v);
    cr_assert(v);
    return v;
}

/* ------------------------------------------------------------ gpu presence */

Test(ops, gpu_devices_present)
{
    accel_runtime *rt = tu_open_default();
    uint32_t gpus = 0;
    for (uint32_t i = 0; i < accel_device_count(rt); ++i) {
        accel_device *dev;
        tu_ok(accel_device_get(rt, i, &dev));
        gpus += tu_device_is_gpu(dev);
    }
    accel_runtime_close(rt);
    if (!gpus)
        fprintf(stderr, "ops: no GPU device in %s: the op suite ran on the CPU only\n",
                TU_DEFAULT_CONFIG);
    if (!gpus)
        cr_skip_test("no GPU device in %s: the op suite ran on the CPU only", TU_DEFAULT_CONFIG);
    cr_log_info("%u GPU device(s): the op suite ran on them too", gpus);
}

/* ------------------------------------------------------------ binary */

typedef enum gen { GEN_WIDE, GEN_POSITIVE_WIDE, GEN_EXP, GEN_TANH, GEN_UNIT } gen;

static double gen_value(tu_rng *g, gen kind, accel_dtype dt)
{
    double v;
    switch (kind) {
    case GEN_POSITIVE_WIDE:
        v = fabs(tu_rng_wide(g, -20, 20));
        break;
    case GEN_EXP:
        v = tu_rng_range(g, -20, 20);
        break;
    case GEN_TANH:
        v = (tu_rng_next(g) & 1) ? tu_rng_range(g, -5, 5) : tu_rng_wide(g, -20, 1);
        break;
    case GEN_UNIT:
        v = tu_rng_range(g, -1, 1);
        break;
    default:
        v = tu_rng_wide(g, -8, 8);
        break;
    }
    return tu_round(dt, v);
}

static double *gen_array(size_t n, gen kind, accel_dtype dt, uint64_t salt)
{
    tu_rng g = tu_rng_make(salt);
    double *v = alloc_vals(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = gen_value(&g, kind, dt);
    return v;
}

typedef accel_status (*binary_fn)(accel_queue *, accel_dtype, accel_slice, accel_slice,
                                  accel_slice);

static double ref_add(double a, double b)
{
    return a + b;
}
static double ref_sub(double a, double b)
{
    return a - b;
}
static double ref_mul(double a, double b)
{
    return a * b;
}
static double ref_div(double a, double b)
{
    return a / b;
}
/* IEEE 754-2019 maximum/minimum (§9.6): NaN-propagating, -0 < +0. */
static double ref_max(double a, double b)
{
    if (isnan(a) || isnan(b))
        return NAN;
    if (a == b) /* equal, or zeros of either sign: +0 wins */
        return signbit(a) ? b : a;
    return a > b ? a : b;
}
static double ref_min(double a, double b)
{
    if (isnan(a) || isnan(b))
        return NAN;
    if (a == b) /* equal, or zeros of either sign: -0 wins */
        return signbit(a) ? a : b;
    return a < b ? a : b;
}

typedef struct binary_case {
    const char *name;
    binary_fn fn;
    accel_op_code code;
    double (*ref)(double, double);
} binary_case;

static const binary_case BINARY[] = {
    {"accel_add", accel_add, ACCEL_OP_ADD, ref_add},
    {"accel_sub", accel_sub, ACCEL_OP_SUB, ref_sub},
    {"accel_mul", accel_mul, ACCEL_OP_MUL, ref_mul},
    {"accel_div", accel_div, ACCEL_OP_DIV, ref_div},
    {"accel_max", accel_max, ACCEL_OP_MAX, ref_max},
    {"accel_min", accel_min, ACCEL_OP_MIN, ref_min},
};

/* out = a op b (also in place: out is a), compared exactly with the rounded
 * double reference; the generic accel_binary must agree. */
static void binary_body(run *r, void *user)
{
    const binary_case *c = user;
    const char *what = describe(r, c->name);
    double *a = gen_array(r->n, GEN_WIDE, r->dt, 11), *b = gen_array(r->n, GEN_WIDE, r->dt, 12);
    double *got = alloc_vals(r->n);
    tu_dbuf da = tu_upload(r->q, r->dt, a, r->n), db = tu_upload(r->q, r->dt, b, r->n);
    tu_dbuf dout = tu_upload(r->q, r->dt, NULL, r->n);
    tu_assert_status(c->fn(r->q, r->dt, tu_slice(&da), tu_slice(&db), tu_slice(&dout)),
                     ACCEL_SUCCESS, "%s", what);
    tu_download(r->q, &dout, got);
    for (size_t i = 0; i < r->n; ++i) {
        double ref = tu_round(r->dt, c->ref(a[i], b[i]));
        cr_assert(tu_same(got[i], ref), "%s: i=%zu a=%.17g b=%.17g: got %.17g expected %.17g", what,
                  i, a[i], b[i], got[i], ref);
    }
    tu_check_guards(r->q, &dout, what);
    /* The generic entry point, in place into a. */
    tu_assert_status(
        accel_binary(r->q, c->code, r->dt, tu_slice(&da), tu_slice(&db), tu_slice(&da)),
        ACCEL_SUCCESS, "%s via accel_binary", what);
    tu_download(r->q, &da, got);
    for (size_t i = 0; i < r->n; ++i) {
        double ref = tu_round(r->dt, c->ref(a[i], b[i]));
        cr_assert(tu_same(got[i], ref),
                  "%s in place via accel_binary: i=%zu got %.17g expected %.17g", what, i, got[i],
                  ref);
    }
    tu_check_guards(r->q, &da, what);
    tu_release(&da), tu_release(&db), tu_release(&dout);
    free(a), free(b), free(got);
}

Test(ops, add)
{
    on_every_device(binary_body, (void *)&BINARY[0]);
}
Test(ops, sub)
{
    on_every_device(binary_body, (void *)&BINARY[1]);
}
Test(ops, mul)
{
    on_every_device(binary_body, (void *)&BINARY[2]);
}
Test(ops, div)
{
    on_every_device(binary_body, (void *)&BINARY[3]);
}

/* Outputs of 8 MiB and more take the CPU backend's streaming-store path (and
 * the GPU's full grid): n = 2^21 + 5 f32 (8 MiB + 20 bytes), so the aligned
 * vector body, the head and the tail all run; exact comparison as above. */
static void binary_large_device(accel_device *dev, accel_queue *q, void *user)
{
    static const size_t LARGE[] = {((size_t)1 << 21) + 5};
    for (size_t c = 0; c < 4; ++c) {
        sweep s = {binary_body, (void *)&BINARY[c], LARGE, 1};
        sweep_device(dev, q, &s);
    }
    (void)user;
}
Test(ops, add_sub_mul_div_large_streaming_path)
{
    accel_runtime *rt = tu_open_default();
    tu_for_each_device(rt, binary_large_device, NULL);
    accel_runtime_close(rt);
}
Test(ops, max)
{
    on_every_device(binary_body, (void *)&BINARY[4]);
}
Test(ops, min)
{
    on_every_device(binary_body, (void *)&BINARY[5]);
}

/* ------------------------------------------------------------ unary */

typedef accel_status (*unary_fn)(accel_queue *, accel_dtype, accel_slice, accel_slice);

static long double ref_neg(long double x)
{
    return -x;
}
static long double ref_abs(long double x)
{
    return fabsl(x);
}
static long double ref_sqrt(long double x)
{
    return sqrtl(x);
}
static long double ref_exp(long double x)
{
    return expl(x);
}
static long double ref_log(long double x)
{
    return logl(x);
}
static long double ref_tanh(long double x)
{
    return tanhl(x);
}
static long double ref_relu(long double x)
{
    return isnan(x) ? x : (x > 0 ? x : 0.0L);
}
static long double ref_sin(long double x)
{
    return sinl(x);
}
static long double ref_cos(long double x)
{
    return cosl(x);
}
static long double ref_sigmoid(long double x)
{
    return 1.0L / (1.0L + expl(-x));
}

typedef struct unary_case {
    const char *name;
    unary_fn fn;
    accel_op_code code;
    long double (*ref)(long double);
    gen inputs;
    bool exact;          /* else within the transcendental ulp bound */
    double gpu_f64_ulps; /* the GPU's f64 bound when not the default 1.5 */
} unary_case;

static const unary_case UNARY[] = {
    {"accel_neg", accel_neg, ACCEL_OP_NEG, ref_neg, GEN_WIDE, true, 0},
    {"accel_abs", accel_abs, ACCEL_OP_ABS, ref_abs, GEN_WIDE, true, 0},
    {"accel_sqrt", accel_sqrt, ACCEL_OP_SQRT, ref_sqrt, GEN_POSITIVE_WIDE, true, 0},
    {"accel_exp", accel_exp, ACCEL_OP_EXP, ref_exp, GEN_EXP, false, 0},
    {"accel_log", accel_log, ACCEL_OP_LOG, ref_log, GEN_POSITIVE_WIDE, false, 0},
    {"accel_tanh", accel_tanh, ACCEL_OP_TANH, ref_tanh, GEN_TANH, false, 0},
    {"accel_relu", accel_relu, ACCEL_OP_RELU, ref_relu, GEN_WIDE, true, 0},
    /* CUDA's sin and cos are 2 ulp in f64; its f64 sigmoid rounds three times. */
    {"accel_sin", accel_sin, ACCEL_OP_SIN, ref_sin, GEN_WIDE, false, 2.5},
    {"accel_cos", accel_cos, ACCEL_OP_COS, ref_cos, GEN_WIDE, false, 2.5},
    {"accel_sigmoid", accel_sigmoid, ACCEL_OP_SIGMOID, ref_sigmoid, GEN_EXP, false, 3.5},
};

static double transcendental_ulps(const run *r)
{
    if (r->gpu)
        return r->dt == ACCEL_F32 ? 2.5 : 1.5;
    return 2.0;
}

/* Correctly rounded reference of an exact op: sqrt in double then rounded
 * (sqrt is correctly rounded in double, and innocuously so for f32). */
static double exact_ref(const unary_case *c, accel_dtype dt, double x)
{
    double v = c->code == ACCEL_OP_SQRT ? sqrt(x) : (double)c->ref(x);
    return tu_round(dt, v);
}

/* The bound of one case on this device and dtype. */
static double case_ulps(const run *r, const unary_case *c)
{
    if (r->gpu && r->dt == ACCEL_F64 && c->gpu_f64_ulps > 0)
        return c->gpu_f64_ulps;
    return transcendental_ulps(r);
}

static void check_unary(const run *r, const unary_case *c, const double *x, const double *got,
                        const char *what)
{
    double bound = case_ulps(r, c), worst = 0;
    for (size_t i = 0; i < r->n; ++i) {
        if (c->exact) {
            double ref = exact_ref(c, r->dt, x[i]);
            cr_assert(tu_same(got[i], ref), "%s: i=%zu x=%.17g: got %.17g expected %.17g", what, i,
                      x[i], got[i], ref);
        } else {
            long double ref = c->ref((long double)x[i]);
            double d = tu_ulp_diff(r->dt, got[i], ref);
            worst = d > worst ? d : worst;
            cr_assert(d <= bound, "%s: i=%zu x=%.17g: got %.17g expected %.20Lg (%.3f ulp > %.1f)",
                      what, i, x[i], got[i], ref, d, bound);
        }
    }
    if (!c->exact && r->n > 1000)
        cr_log_info("%s: worst error %.3f ulp (bound %.1f)", what, worst, bound);
}

static void unary_body(run *r, void *user)
{
    const unary_case *c = user;
    const char *what = describe(r, c->name);
    double *x = gen_array(r->n, c->inputs, r->dt, 21), *got = alloc_vals(r->n);
    tu_dbuf dx = tu_upload(r->q, r->dt, x, r->n), dout = tu_upload(r->q, r->dt, NULL, r->n);
    tu_assert_status(c->fn(r->q, r->dt, tu_slice(&dx), tu_slice(&dout)), ACCEL_SUCCESS, "%s", what);
    tu_download(r->q, &dout, got);
    check_unary(r, c, x, got, what);
    tu_check_guards(r->q, &dout, what);
    /* The generic entry point, in place. */
    tu_assert_status(accel_unary(r->q, c->code, r->dt, tu_slice(&dx), tu_slice(&dx)), ACCEL_SUCCESS,
                     "%s via accel_unary", what);
    tu_download(r->q, &dx, got);
    check_unary(r, c, x, got, tu_fmt("%s in place via accel_unary", what));
    tu_check_guards(r->q, &dx, what);
    tu_release(&dx), tu_release(&dout);
    free(x), free(got);
}

Test(ops, neg)
{
    on_every_device(unary_body, (void *)&UNARY[0]);
}
Test(ops, abs)
{
    on_every_device(unary_body, (void *)&UNARY[1]);
}
Test(ops, sqrt)
{
    on_every_device(unary_body, (void *)&UNARY[2]);
}
Test(ops, exp)
{
    on_every_device(unary_body, (void *)&UNARY[3]);
}
Test(ops, log)
{
    on_every_device(unary_body, (void *)&UNARY[4]);
}
Test(ops, tanh)
{
    on_every_device(unary_body, (void *)&UNARY[5]);
}
Test(ops, relu)
{
    on_every_device(unary_body, (void *)&UNARY[6]);
}
Test(ops, sin)
{
    on_every_device(unary_body, (void *)&UNARY[7]);
}
Test(ops, cos)
{
    on_every_device(unary_body, (void *)&UNARY[8]);
}
Test(ops, sigmoid)
{
    on_every_device(unary_body, (void *)&UNARY[9]);
}

/* sin, cos and sigmoid at their special and saturating points; the CLI's
 * SciPy name for sigmoid is in the op table. */
static void sin_cos_sigmoid_specials_body(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    const double x[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e-30, -40.0, 40.0, -800.0, 800.0};
    enum { N = sizeof x / sizeof *x };
    for (size_t d = 0; d < 2; ++d) {
        accel_dtype dt = DTYPES[d];
        if (!tu_device_has_dtype(dev, dt))
            continue;
        double s[N], c[N], g[N];
        tu_dbuf dx = tu_upload(q, dt, x, N), ds = tu_upload(q, dt, NULL, N);
        tu_dbuf dc = tu_upload(q, dt, NULL, N), dg = tu_upload(q, dt, NULL, N);
        tu_ok(accel_sin(q, dt, tu_slice(&dx), tu_slice(&ds)));
        tu_ok(accel_cos(q, dt, tu_slice(&dx), tu_slice(&dc)));
        tu_ok(accel_sigmoid(q, dt, tu_slice(&dx), tu_slice(&dg)));
        tu_download(q, &ds, s), tu_download(q, &dc, c), tu_download(q, &dg, g);
        const char *dn = accel_dtype_name(dt);
        cr_assert(s[0] == 0.0 && !signbit(s[0]) && s[1] == 0.0 && signbit(s[1]), "%s sin(+-0)", dn);
        cr_assert(c[0] == 1.0 && c[1] == 1.0, "%s cos(+-0) = %g %g", dn, c[0], c[1]);
        for (int i = 2; i < 5; ++i)
            cr_assert(isnan(s[i]) && isnan(c[i]), "%s sin/cos(%g) = %g %g, not NaN", dn, x[i], s[i],
                      c[i]);
        cr_assert(g[0] == 0.5 && g[1] == 0.5, "%s sigmoid(+-0) = %g %g", dn, g[0], g[1]);
        cr_assert(g[2] == 1.0 && g[3] == 0.0 && isnan(g[4]),
                  "%s sigmoid(Inf, -Inf, NaN) = %g %g %g", dn, g[2], g[3], g[4]);
        cr_assert(g[8] == 0.0 && g[9] == 1.0, "%s sigmoid(-800, 800) = %g %g", dn, g[8], g[9]);
        /* sigmoid(-40) = e^-40 / (1 + e^-40): a small normal, not lost to 1 + e^40. */
        long double ref = expl(-40.0L) / (1.0L + expl(-40.0L));
        cr_assert(tu_ulp_diff(dt, g[6], ref) <= 3.5, "%s sigmoid(-40) = %.17g, expected %.20Lg", dn,
                  g[6], ref);
        cr_assert(tu_ulp_diff(dt, s[5], 1e-30L) <= 1.0, "%s sin(1e-30) = %g", dn, s[5]);
        tu_release(&dx), tu_release(&ds), tu_release(&dc), tu_release(&dg);
    }
}
Test(ops, sin_cos_sigmoid_special_values)
{
    accel_runtime *rt = tu_open_default();
    tu_for_each_device(rt, sin_cos_sigmoid_specials_body, NULL);
    accel_runtime_close(rt);
}

/* sin and cos far from zero: past 1e28 (f32) and 1e299 (f64) SLEEF's u10
 * bound no longer holds and the CPU hands those lanes to glibc (vmath.h);
 * the reference is long double libm of the value as stored in the dtype.
 * Bound 2.5 ulp: the CPU's 1 (2 without SLEEF) and CUDA's 2 from the
 * correctly rounded result. */
static void sin_cos_huge_body(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    const double x32[] = {1e28, 1e29, -3e38, 2.5e30, 12345.678, -7e33, 3.4e38, 1e20};
    const double x64[] = {1e299, 1e300, -1.7e308, 4e306, 12345.678, -7e33, 1e29, 1e20};
    enum { N = sizeof x32 / sizeof *x32 };
    for (size_t d = 0; d < 2; ++d) {
        accel_dtype dt = DTYPES[d];
        if (!tu_device_has_dtype(dev, dt))
            continue;
        const double *x = dt == ACCEL_F32 ? x32 : x64;
        double s[N], c[N];
        tu_dbuf dx = tu_upload(q, dt, x, N), ds = tu_upload(q, dt, NULL, N);
        tu_dbuf dc = tu_upload(q, dt, NULL, N);
        tu_ok(accel_sin(q, dt, tu_slice(&dx), tu_slice(&ds)));
        tu_ok(accel_cos(q, dt, tu_slice(&dx), tu_slice(&dc)));
        tu_download(q, &ds, s), tu_download(q, &dc, c);
        for (size_t i = 0; i < N; ++i) {
            long double v = tu_round(dt, x[i]);
            cr_assert(tu_ulp_diff(dt, s[i], sinl(v)) <= 2.5,
                      "%s sin(%.9Lg) = %.17g, expected %.20Lg", accel_dtype_name(dt), v, s[i],
                      sinl(v));
            cr_assert(tu_ulp_diff(dt, c[i], cosl(v)) <= 2.5,
                      "%s cos(%.9Lg) = %.17g, expected %.20Lg", accel_dtype_name(dt), v, c[i],
                      cosl(v));
        }
        tu_release(&dx), tu_release(&ds), tu_release(&dc);
    }
}
Test(ops, sin_cos_of_huge_arguments)
{
    accel_runtime *rt = tu_open_default();
    tu_for_each_device(rt, sin_cos_huge_body, NULL);
    accel_runtime_close(rt);
}

/* The CPU's float32 tanh within the 1.5 ulp docs/checking.md states for it
 * (glibc's libmvec where the build has it: 1.374 ulp at worst over all 2^32
 * inputs on glibc 2.36, vmath_kernels.h): every 509th bit pattern of both
 * signs (8.4 million inputs, every exponent), and the worst inputs of the
 * 16- and 8-float functions. Reference: long double tanhl of the input. Runs
 * under each vector tier (ctest ops_vmath_*). */
static void tanh_f32_sweep_body(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    if (tu_device_is_gpu(dev))
        return; /* the GPU's bound is CUDA's (2 ulp), checked by ops/tanh */
    const size_t step = 509, n = (size_t)(0x100000000ull / step) + 2;
    double *x = malloc(n * sizeof *x), *got = malloc(n * sizeof *got);
    cr_assert(x && got);
    size_t m = 0;
    for (uint64_t b = 0; b < 0x100000000ull; b += step) {
        uint32_t u = (uint32_t)b;
        float f;
        memcpy(&f, &u, sizeof f);
        if (!isnan(f))
            x[m++] = f;
    }
    x[m++] = 0x1.014e06p-1, x[m++] = -0x1.0daba4p+1;
    tu_dbuf dx = tu_upload(q, ACCEL_F32, x, m), dy = tu_upload(q, ACCEL_F32, NULL, m);
    tu_ok(accel_tanh(q, ACCEL_F32, tu_slice(&dx), tu_slice(&dy)));
    tu_download(q, &dy, got);
    double worst = 0;
    for (size_t i = 0; i < m; ++i) {
        double d = tu_ulp_diff(ACCEL_F32, got[i], tanhl((long double)x[i]));
        cr_assert(d <= 1.5, "tanh(%a) = %a: %.3f ulp > 1.5", x[i], got[i], d);
        worst = fmax(worst, d);
    }
    cr_log_info("cpu tanh f32: worst %.3f ulp over %zu inputs", worst, m);
    tu_release(&dx), tu_release(&dy);
    free(x), free(got);
}
Test(ops, cpu_tanh_f32_within_its_stated_bound, .timeout = 120)
{
    accel_runtime *rt = tu_open_default();
    tu_for_each_device(rt, tanh_f32_sweep_body, NULL);
    accel_runtime_close(rt);
}

/* ------------------------------------------------------------ NaN and Inf */

static void special_values_body(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    const double inf = INFINITY, nan = NAN;
    /* Pairs (a[i], b[i]) covering NaN, Inf and zeros on both sides. */
    const double a[] = {nan, 1.0, nan, inf, -inf, inf, -inf, 0.0, -3.0, 2.0, nan, 0.0, inf};
    const double b[] = {1.0, nan, nan, 1.0, 1.0, -inf, inf, 0.0, -inf, 0.0, inf, -2.0, inf};
    enum { N = sizeof a / sizeof *a };
    for (size_t d = 0; d < 2; ++d) {
        accel_dtype dt = DTYPES[d];
        if (!tu_device_has_dtype(dev, dt))
            continue;
        run r = {dev, q, dt, N, tu_device_is_gpu(dev), NULL};
        double got[N];
        tu_dbuf da = tu_upload(q, dt, a, N), db = tu_upload(q, dt, b, N),
                dout = tu_upload(q, dt, NULL, N);
        for (size_t k = 0; k < sizeof BINARY / sizeof *BINARY; ++k) {
            const binary_case *c = &BINARY[k];
            const char *what = describe(&r, tu_fmt("%s (NaN/Inf/0 inputs)", c->name));
            tu_assert_status(c->fn(q, dt, tu_slice(&da), tu_slice(&db), tu_slice(&dout)),
                             ACCEL_SUCCESS, "%s", what);
            tu_download(q, &dout, got);
            for (size_t i = 0; i < N; ++i) {
                double ref = tu_round(dt, c->ref(a[i], b[i]));
                cr_assert(tu_same(got[i], ref), "%s: %g op %g gave %g, expected %g", what, a[i],
                          b[i], got[i], ref);
            }
        }
        for (size_t k = 0; k < sizeof UNARY / sizeof *UNARY; ++k) {
            const unary_case *c = &UNARY[k];
            const char *what = describe(&r, tu_fmt("%s (NaN/Inf/0 inputs)", c->name));
            tu_assert_status(c->fn(q, dt, tu_slice(&da), tu_slice(&dout)), ACCEL_SUCCESS, "%s",
                             what);
            tu_download(q, &dout, got);
            for (size_t i = 0; i < N; ++i) {
                if (c->exact) {
                    double ref = exact_ref(c, dt, a[i]);
                    cr_assert(tu_same(got[i], ref), "%s: f(%g) gave %g, expected %g", what, a[i],
                              got[i], ref);
                } else {
                    /* NaN and Inf must match exactly (tu_ulp_diff gives +Inf otherwise). */
                    long double ref = c->ref((long double)a[i]);
                    double ulps = tu_ulp_diff(dt, got[i], ref);
                    cr_assert(ulps <= case_ulps(&r, c), "%s: f(%g) gave %g, expected %Lg", what,
                              a[i], got[i], ref);
                }
            }
        }
        /* sqrt and log of negatives are NaN; log(0) = -Inf; 1/0 = Inf. */
        const double neg[] = {-1.0, 0.0, -0.0};
        double g3[3];
        tu_dbuf dn = tu_upload(q, dt, neg, 3), dn_out = tu_upload(q, dt, NULL, 3);
        tu_ok(accel_sqrt(q, dt, tu_slice(&dn), tu_slice(&dn_out)));
        tu_download(q, &dn_out, g3);
        cr_assert(isnan(g3[0]) && g3[1] == 0.0 && g3[2] == 0.0 && signbit(g3[2]),
                  "sqrt(-1, 0, -0) gave %g %g %g", g3[0], g3[1], g3[2]);
        tu_ok(accel_log(q, dt, tu_slice(&dn), tu_slice(&dn_out)));
        tu_download(q, &dn_out, g3);
        cr_assert(isnan(g3[0]) && g3[1] == -INFINITY && g3[2] == -INFINITY,
                  "log(-1, 0, -0) gave %g %g %g", g3[0], g3[1], g3[2]);
        /* Reductions: NaN anywhere makes max/min NaN; Inf wins otherwise. */
        const double red[] = {1.0, -inf, 5.0, nan, 2.0};
        double one;
        tu_dbuf dr = tu_upload(q, dt, red, 5), d1 = tu_upload(q, dt, NULL, 1);
        tu_ok(accel_reduce_max(q, dt, tu_slice(&dr), tu_slice(&d1)));
        tu_download(q, &d1, &one);
        cr_assert(isnan(one), "max with a NaN gave %g", one);
        tu_ok(accel_reduce_min(q, dt, tu_slice(&dr), tu_slice(&d1)));
        tu_download(q, &d1, &one);
        cr_assert(isnan(one), "min with a NaN gave %g", one);
        tu_ok(accel_reduce_min(q, dt, accel_slice_of(dr.buf, dr.guard, 3), tu_slice(&d1)));
        tu_download(q, &d1, &one);
        cr_assert(one == -inf, "min of {1, -inf, 5} gave %g", one);
        tu_ok(accel_sum(q, dt, accel_slice_of(dr.buf, dr.guard, 3), tu_slice(&d1)));
        tu_download(q, &d1, &one);
        cr_assert(one == -inf, "sum of {1, -inf, 5} gave %g", one);
        tu_release(&da), tu_release(&db), tu_release(&dout), tu_release(&dn), tu_release(&dn_out);
        tu_release(&dr), tu_release(&d1);
    }
}

/* ------------------------------------------------------------ signed zeros */

/* max/min follow IEEE 754-2019 maximum/minimum (§9.6): -0 < +0, so
 * max(-0, +0) = max(+0, -0) = +0 and min(-0, +0) = min(+0, -0) = -0, in the
 * elementwise ops and in the reductions, whatever the order and position.
 * tu_same treats -0 == +0, so the sign bit is compared here explicitly. */
static void check_signed(const char *what, size_t i, double got, double want)
{
    cr_assert(got == want && signbit(got) == signbit(want),
              "%s: element %zu is %s%g, expected %s%g", what, i, signbit(got) ? "" : "+", got,
              signbit(want) ? "" : "+", want);
}

static void signed_zero_body(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    /* Every ordered pair of zeros, and equal non-zero operands. */
    const double a[] = {-0.0, 0.0, -0.0, 0.0, 1.5, -2.0, 0.0, -0.0};
    const double b[] = {0.0, -0.0, -0.0, 0.0, 1.5, -2.0, -1.0, 1.0};
    const double want_max[] = {0.0, 0.0, -0.0, 0.0, 1.5, -2.0, 0.0, 1.0};
    const double want_min[] = {-0.0, -0.0, -0.0, 0.0, 1.5, -2.0, -1.0, -0.0};
    enum { N = sizeof a / sizeof *a };
    for (size_t d = 0; d < 2; ++d) {
        accel_dtype dt = DTYPES[d];
        if (!tu_device_has_dtype(dev, dt))
            continue;
        run r = {dev, q, dt, N, tu_device_is_gpu(dev), NULL};
        double got[N];
        tu_dbuf da = tu_upload(q, dt, a, N), db = tu_upload(q, dt, b, N),
                dout = tu_upload(q, dt, NULL, N);
        const char *what = describe(&r, "accel_max (signed zeros)");
        tu_ok(accel_max(q, dt, tu_slice(&da), tu_slice(&db), tu_slice(&dout)));
        tu_download(q, &dout, got);
        for (size_t i = 0; i < N; ++i)
            check_signed(what, i, got[i], want_max[i]);
        what = describe(&r, "accel_max (signed zeros, b first)");
        tu_ok(accel_max(q, dt, tu_slice(&db), tu_slice(&da), tu_slice(&dout)));
        tu_download(q, &dout, got);
        for (size_t i = 0; i < N; ++i)
            check_signed(what, i, got[i], want_max[i]);
        what = describe(&r, "accel_min (signed zeros)");
        tu_ok(accel_min(q, dt, tu_slice(&da), tu_slice(&db), tu_slice(&dout)));
        tu_download(q, &dout, got);
        for (size_t i = 0; i < N; ++i)
            check_signed(what, i, got[i], want_min[i]);
        what = describe(&r, "accel_min (signed zeros, b first, in place)");
        tu_ok(accel_binary(q, ACCEL_OP_MIN, dt, tu_slice(&db), tu_slice(&da), tu_slice(&db)));
        tu_download(q, &db, got);
        for (size_t i = 0; i < N; ++i)
            check_signed(what, i, got[i], want_min[i]);
        tu_release(&da), tu_release(&db), tu_release(&dout);

        /* Reductions: [-0, +0] and [+0, -0], then long runs of one zero with
         * the other zero at the start, the middle or the end (lanes, blocks,
         * GPU partials), and runs of a single zero sign. */
        static const size_t LENS[] = {2, 3, 1009, 65537};
        for (size_t li = 0; li < sizeof LENS / sizeof *LENS; ++li) {
            size_t n = LENS[li];
            double *x = alloc_vals(n);
            size_t positions[] = {0, n / 2, n - 1};
            for (size_t pi = 0; pi < 3; ++pi) {
                for (int minus_bulk = 0; minus_bulk < 2; ++minus_bulk) {
                    /* bulk of one sign, one zero of the other at positions[pi] */
                    const double bulk = minus_bulk ? -0.0 : 0.0, odd = minus_bulk ? 0.0 : -0.0;
                    for (size_t i = 0; i < n; ++i)
                        x[i] = bulk;
                    x[positions[pi]] = odd;
                    tu_dbuf dx = tu_upload(q, dt, x, n), d1 = tu_upload(q, dt, NULL, 1);
                    double one;
                    r.n = n;
                    what = describe(&r, tu_fmt("accel_reduce_max (%s bulk, %s at %zu)",
                                               minus_bulk ? "-0" : "+0", minus_bulk ? "+0" : "-0",
                                               positions[pi]));
                    tu_ok(accel_reduce_max(q, dt, tu_slice(&dx), tu_slice(&d1)));
                    tu_download(q, &d1, &one);
                    check_signed(what, 0, one, 0.0);
                    what = describe(&r, tu_fmt("accel_reduce_min (%s bulk, %s at %zu)",
                                               minus_bulk ? "-0" : "+0", minus_bulk ? "+0" : "-0",
                                               positions[pi]));
                    tu_ok(accel_reduce(q, ACCEL_OP_REDUCE_MIN, dt, tu_slice(&dx), tu_slice(&d1)));
                    tu_download(q, &d1, &one);
                    check_signed(what, 0, one, -0.0);
                    tu_check_guards(q, &d1, what);
                    tu_release(&dx), tu_release(&d1);
                }
            }
            /* All one sign: max and min are that zero. */
            for (int minus = 0; minus < 2; ++minus) {
                for (size_t i = 0; i < n; ++i)
                    x[i] = minus ? -0.0 : 0.0;
                tu_dbuf dx = tu_upload(q, dt, x, n), d1 = tu_upload(q, dt, NULL, 1);
                double one;
                what = describe(&r, tu_fmt("accel_reduce_max (all %s)", minus ? "-0" : "+0"));
                tu_ok(accel_reduce_max(q, dt, tu_slice(&dx), tu_slice(&d1)));
                tu_download(q, &d1, &one);
                check_signed(what, 0, one, minus ? -0.0 : 0.0);
                what = describe(&r, tu_fmt("accel_reduce_min (all %s)", minus ? "-0" : "+0"));
                tu_ok(accel_reduce_min(q, dt, tu_slice(&dx), tu_slice(&d1)));
                tu_download(q, &d1, &one);
                check_signed(what, 0, one, minus ? -0.0 : 0.0);
                tu_release(&dx), tu_release(&d1);
            }
            free(x);
        }
    }
}

Test(ops, max_min_signed_zeros_ieee754_2019)
{
    accel_runtime *rt = tu_open_default();
    tu_for_each_device(rt, signed_zero_body, NULL);
    accel_runtime_close(rt);
}

Test(ops, nan_inf_propagation)
{
    accel_runtime *rt = tu_open_default();
    tu_for_each_device(rt, special_values_body, NULL);
    accel_runtime_close(rt);
}

/* ------------------------------------------------------------ fill, copy, scale, axpby */

static void fill_copy_body(run *r, void *user)
{
    (void)user;
    const char *what = describe(r, "accel_fill/accel_copy");
    double *x = gen_array(r->n, GEN_WIDE, r->dt, 31), *got = alloc_vals(r->n);
    tu_dbuf dout = tu_upload(r->q, r->dt, NULL, r->n), dx = tu_upload(r->q, r->dt, x, r->n);
    /* 0.1 is not representable: fill converts it to the dtype. */
    tu_assert_status(accel_fill(r->q, r->dt, 0.1, tu_slice(&dout)), ACCEL_SUCCESS, "%s", what);
    tu_download(r->q, &dout, got);
    for (size_t i = 0; i < r->n; ++i)
        cr_assert(got[i] == tu_round(r->dt, 0.1), "%s: fill i=%zu gave %.17g", what, i, got[i]);
    tu_check_guards(r->q, &dout, what);
    tu_assert_status(accel_copy(r->q, r->dt, tu_slice(&dx), tu_slice(&dout)), ACCEL_SUCCESS, "%s",
                     what);
    tu_download(r->q, &dout, got);
    for (size_t i = 0; i < r->n; ++i)
        cr_assert(got[i] == x[i], "%s: copy i=%zu gave %.17g expected %.17g", what, i, got[i],
                  x[i]);
    tu_check_guards(r->q, &dout, what);
    tu_release(&dout), tu_release(&dx);
    free(x), free(got);
}

Test(ops, fill_and_copy)
{
    on_every_device(fill_copy_body, NULL);
}

static void scale_body(run *r, void *user)
{
    (void)user;
    const char *what = describe(r, "accel_scale");
    const double alpha = -2.5; /* exact in both dtypes */
    double *x = gen_array(r->n, GEN_WIDE, r->dt, 41), *got = alloc_vals(r->n);
    tu_dbuf dx = tu_upload(r->q, r->dt, x, r->n), dout = tu_upload(r->q, r->dt, NULL, r->n);
    tu_assert_status(accel_scale(r->q, r->dt, alpha, tu_slice(&dx), tu_slice(&dout)), ACCEL_SUCCESS,
                     "%s", what);
    tu_download(r->q, &dout, got);
    for (size_t i = 0; i < r->n; ++i) {
        double ref = tu_round(r->dt, alpha * x[i]);
        cr_assert(got[i] == ref, "%s: i=%zu x=%.17g got %.17g expected %.17g", what, i, x[i],
                  got[i], ref);
    }
    tu_check_guards(r->q, &dout, what);
    tu_release(&dx), tu_release(&dout);
    free(x), free(got);
}

Test(ops, scale)
{
    on_every_device(scale_body, NULL);
}

static void axpby_body(run *r, void *user)
{
    (void)user;
    const char *what = describe(r, "accel_axpby");
    const double alpha = 1.5, beta = -0.75;
    double *x = gen_array(r->n, GEN_WIDE, r->dt, 51), *y = gen_array(r->n, GEN_WIDE, r->dt, 52);
    double *got = alloc_vals(r->n);
    tu_dbuf dx = tu_upload(r->q, r->dt, x, r->n), dy = tu_upload(r->q, r->dt, y, r->n);
    tu_assert_status(accel_axpby(r->q, r->dt, alpha, tu_slice(&dx), beta, tu_slice(&dy)),
                     ACCEL_SUCCESS, "%s", what);
    tu_download(r->q, &dy, got);
    double u = tu_unit_roundoff(r->dt);
    for (size_t i = 0; i < r->n; ++i) {
        long double ax = (long double)alpha * x[i], by = (long double)beta * y[i];
        long double exact = ax + by;
        double tol = (double)(2 * u * (fabsl(ax) + fabsl(by)));
        cr_assert(fabsl((long double)got[i] - exact) <= tol,
                  "%s: i=%zu x=%.17g y=%.17g got %.17g expected %.20Lg", what, i, x[i], y[i],
                  got[i], exact);
    }
    tu_check_guards(r->q, &dy, what);
    tu_release(&dx), tu_release(&dy);
    free(x), free(y), free(got);
}

Test(ops, axpby)
{
    on_every_device(axpby_body, NULL);
}

/* ------------------------------------------------------------ reductions */

/* Neumaier's compensated sum in long double: the reference for sum and dot. */
static long double exact_sum(const long double *v, size_t n)
{
    long double s = 0, c = 0;
    for (size_t i = 0; i < n; ++i) {
        long double t = s + v[i];
        if (fabsl(s) >= fabsl(v[i]))
            c += (s - t) + v[i];
        else
            c += (v[i] - t) + s;
        s = t;
    }
    return s + c;
}

static void reduce_body(run *r, void *user)
{
    (void)user;
    double *x = gen_array(r->n, GEN_WIDE, r->dt, 61), *y = gen_array(r->n, GEN_UNIT, r->dt, 62);
    long double *terms = calloc(r->n + 1, sizeof *terms);
    cr_assert(terms);
    tu_dbuf dx = tu_upload(r->q, r->dt, x, r->n), dy = tu_upload(r->q, r->dt, y, r->n);
    tu_dbuf dout = tu_upload(r->q, r->dt, NULL, 1);
    double got, again, u = tu_unit_roundoff(r->dt);

    /* sum */
    const char *what = describe(r, "accel_sum");
    long double abs_sum = 0;
    for (size_t i = 0; i < r->n; ++i) {
        terms[i] = x[i];
        abs_sum += fabsl(terms[i]);
    }
    long double exact = exact_sum(terms, r->n);
    tu_assert_status(accel_sum(r->q, r->dt, tu_slice(&dx), tu_slice(&dout)), ACCEL_SUCCESS, "%s",
                     what);
    tu_download(r->q, &dout, &got);
    long double tol = 2.0L * (long double)r->n * u * abs_sum;
    cr_assert(fabsl(got - exact) <= tol, "%s: got %.17g exact %.20Lg (error %.3Lg > bound %.3Lg)",
              what, got, exact, fabsl(got - exact), tol);
    tu_check_guards(r->q, &dout, what);
    /* Fixed order: the same result on the next run, and through accel_reduce. */
    tu_ok(accel_reduce(r->q, ACCEL_OP_SUM, r->dt, tu_slice(&dx), tu_slice(&dout)));
    tu_download(r->q, &dout, &again);
    cr_assert(again == got, "%s: a second run gave %.17g, first %.17g", what, again, got);

    /* dot */
    what = describe(r, "accel_dot");
    abs_sum = 0;
    for (size_t i = 0; i < r->n; ++i) {
        terms[i] = (long double)x[i] * y[i];
        abs_sum += fabsl(terms[i]);
    }
    exact = exact_sum(terms, r->n);
    tu_assert_status(accel_dot(r->q, r->dt, tu_slice(&dx), tu_slice(&dy), tu_slice(&dout)),
                     ACCEL_SUCCESS, "%s", what);
    tu_download(r->q, &dout, &got);
    tol = 2.0L * (long double)r->n * u * abs_sum;
    cr_assert(fabsl(got - exact) <= tol, "%s: got %.17g exact %.20Lg (error %.3Lg > bound %.3Lg)",
              what, got, exact, fabsl(got - exact), tol);
    tu_check_guards(r->q, &dout, what);

    /* max and min: exact selections (0 elements is an error: test_bad_input.c). */
    if (r->n > 0) {
        double mx = x[0], mn = x[0];
        for (size_t i = 1; i < r->n; ++i) {
            mx = x[i] > mx ? x[i] : mx;
            mn = x[i] < mn ? x[i] : mn;
        }
        what = describe(r, "accel_reduce_max");
        tu_assert_status(accel_reduce_max(r->q, r->dt, tu_slice(&dx), tu_slice(&dout)),
                         ACCEL_SUCCESS, "%s", what);
        tu_download(r->q, &dout, &got);
        cr_assert(got == mx, "%s: got %.17g expected %.17g", what, got, mx);
        tu_ok(accel_reduce(r->q, ACCEL_OP_REDUCE_MAX, r->dt, tu_slice(&dx), tu_slice(&dout)));
        tu_download(r->q, &dout, &got);
        cr_assert(got == mx, "%s via accel_reduce: got %.17g expected %.17g", what, got, mx);
        what = describe(r, "accel_reduce_min");
        tu_assert_status(accel_reduce_min(r->q, r->dt, tu_slice(&dx), tu_slice(&dout)),
                         ACCEL_SUCCESS, "%s", what);
        tu_download(r->q, &dout, &got);
        cr_assert(got == mn, "%s: got %.17g expected %.17g", what, got, mn);
        tu_check_guards(r->q, &dout, what);
    }
    tu_release(&dx), tu_release(&dy), tu_release(&dout);
    free(x), free(y), free(terms);
}

Test(ops, sum_dot_max_min)
{
    on_every_device(reduce_body, NULL);
}

/* ------------------------------------------------------------ GEMM */

typedef struct gemm_shape {
    size_t m, n, k;
} gemm_shape;

typedef struct gemm_params {
    gemm_shape s;
    accel_transpose ta, tb;
    size_t pad;   /* ld = row length + pad */
    size_t batch; /* batch_count */
    double alpha, beta;
    bool nan_c; /* C starts as NaN (with beta == 0 it must not show) */
    bool use_matmul;
} gemm_params;

static void gemm_one(const run *r, const gemm_params *p)
{
    size_t m = p->s.m, n = p->s.n, k = p->s.k;
    size_t ra = p->ta ? k : m, ca = p->ta ? m : k; /* A as stored */
    size_t rb = p->tb ? n : k, cb = p->tb ? k : n;
    size_t lda = ca + p->pad, ldb = cb + p->pad, ldc = n + p->pad;
    /* Batch matrices spaced a few elements apart, so strides are not sizes. */
    size_t sa = ra * lda + 5, sb = rb * ldb + 3, sc = m * ldc + 2;
    if (p->batch == 1)
        sa = ra * lda, sb = rb * ldb, sc = m * ldc;
    size_t na = p->batch * sa, nb = p->batch * sb, nc = p->batch * sc;
    const char *what =
        describe(r, tu_fmt("%s m=%zu n=%zu k=%zu %c%c ld+%zu batch=%zu alpha=%g beta=%g%s",
                           p->use_matmul ? "accel_matmul" : "accel_gemm", m, n, k,
                           p->ta ? 'T' : 'N', p->tb ? 'T' : 'N', p->pad, p->batch, p->alpha,
                           p->beta, p->nan_c ? " NaN-in-C" : ""));
    double *a = gen_array(na, GEN_UNIT, r->dt, 71 + m), *b = gen_array(nb, GEN_UNIT, r->dt, 72 + n);
    double *c0 = gen_array(nc, GEN_UNIT, r->dt, 73 + k), *got = alloc_vals(nc);
    /* Cells outside every C matrix (ld padding, gaps between batches) hold a
     * sentinel that must survive. */
    bool *in_c = calloc(nc ? nc : 1, sizeof *in_c);
    cr_assert(in_c);
    for (size_t t = 0; t < p->batch; ++t)
        for (size_t i = 0; i < m; ++i)
            for (size_t j = 0; j < n; ++j)
                in_c[t * sc + i * ldc + j] = true;
    for (size_t e = 0; e < nc; ++e)
        c0[e] = !in_c[e] ? TU_SENTINEL : (p->nan_c ? NAN : c0[e]);
    tu_dbuf da = tu_upload(r->q, r->dt, a, na), db = tu_upload(r->q, r->dt, b, nb);
    tu_dbuf dc = tu_upload(r->q, r->dt, c0, nc);
    accel_status st;
    if (p->use_matmul) {
        /* matmul reads from offset 0: give it fresh contiguous buffers. */
        accel_buffer *A, *B, *C;
        size_t es = accel_dtype_size(r->dt);
        tu_ok(accel_buffer_create(r->dev, m * k * es, &A));
        tu_ok(accel_buffer_create(r->dev, k * n * es, &B));
        tu_ok(accel_buffer_create(r->dev, m * n * es, &C));
        tu_ok(accel_queue_copy(r->q, da.buf, da.guard * es, A, 0, m * k * es));
        tu_ok(accel_queue_copy(r->q, db.buf, db.guard * es, B, 0, k * n * es));
        st = accel_matmul(r->q, r->dt, m, n, k, A, B, C);
        tu_assert_status(st, ACCEL_SUCCESS, "%s", what);
        tu_ok(accel_queue_copy(r->q, C, 0, dc.buf, dc.guard * es, m * n * es));
        tu_ok(accel_queue_finish(r->q));
        accel_buffer_release(A), accel_buffer_release(B), accel_buffer_release(C);
    } else {
        accel_gemm_desc d;
        accel_gemm_desc_init(&d);
        d.dtype = r->dt;
        d.trans_a = p->ta, d.trans_b = p->tb;
        d.m = m, d.n = n, d.k = k;
        d.alpha = p->alpha, d.beta = p->beta;
        d.a = da.buf, d.a_offset = da.guard, d.lda = lda;
        d.b = db.buf, d.b_offset = db.guard, d.ldb = ldb;
        d.c = dc.buf, d.c_offset = dc.guard, d.ldc = ldc;
        d.batch_count = p->batch;
        d.stride_a = sa, d.stride_b = sb, d.stride_c = sc;
        st = accel_gemm(r->q, &d);
        tu_assert_status(st, ACCEL_SUCCESS, "%s", what);
    }
    tu_download(r->q, &dc, got);
    double u = tu_unit_roundoff(r->dt);
    for (size_t t = 0; t < p->batch; ++t) {
        const double *A = a + t * sa, *B = b + t * sb, *C0 = c0 + t * sc, *G = got + t * sc;
        for (size_t i = 0; i < m; ++i)
            for (size_t j = 0; j < n; ++j) {
                long double acc = 0, mag = 0;
                for (size_t l = 0; l < k; ++l) {
                    long double av = p->ta ? A[l * lda + i] : A[i * lda + l];
                    long double bv = p->tb ? B[j * ldb + l] : B[l * ldb + j];
                    acc += av * bv;
                    mag += fabsl(av * bv);
                }
                long double exact = (long double)p->alpha * acc,
                            scale = fabsl((long double)p->alpha) * mag;
                if (p->beta != 0) {
                    exact += (long double)p->beta * C0[i * ldc + j];
                    scale += fabsl((long double)p->beta * C0[i * ldc + j]);
                }
                long double tol = 2.0L * (long double)(k + 2) * u * scale;
                double g = G[i * ldc + j];
                cr_assert(
                    !isnan(g) && fabsl(g - exact) <= tol,
                    "%s: batch %zu C[%zu][%zu] = %.17g, exact %.20Lg (error %.3Lg > bound %.3Lg)",
                    what, t, i, j, g, exact, fabsl(g - exact), tol);
            }
    }
    for (size_t e = 0; e < nc; ++e)
        if (!in_c[e])
            cr_assert(got[e] == TU_SENTINEL,
                      "%s: element %zu of C's buffer outside every C matrix changed to %g", what, e,
                      got[e]);
    tu_check_guards(r->q, &dc, what);
    tu_release(&da), tu_release(&db), tu_release(&dc);
    free(a), free(b), free(c0), free(got), free(in_c);
}

static const gemm_shape GEMM_SHAPES[] = {
    {1, 1, 1},  {7, 5, 3}, {17, 31, 23}, {64, 48, 80}, {3, 1, 129},
    {1, 65, 2}, {0, 5, 4}, {5, 0, 4},    {5, 4, 0},
};

static void gemm_body(run *r, void *user)
{
    (void)user;
    for (size_t s = 0; s < sizeof GEMM_SHAPES / sizeof *GEMM_SHAPES; ++s)
        for (int ta = 0; ta < 2; ++ta)
            for (int tb = 0; tb < 2; ++tb)
                for (size_t pad = 0; pad <= 3; pad += 3) {
                    gemm_params p = {GEMM_SHAPES[s],
                                     (accel_transpose)ta,
                                     (accel_transpose)tb,
                                     pad,
                                     1,
                                     1.5,
                                     -0.75,
                                     false,
                                     false};
                    gemm_one(r, &p);
                }
}

/* GEMM sweeps shapes itself; run it once per dtype (n is unused). */
static const size_t ONE_SIZE[] = {1};

static void on_every_device_once(run_fn body, void *user)
{
    accel_runtime *rt = tu_open_default();
    sweep s = {body, user, ONE_SIZE, 1};
    tu_for_each_device(rt, sweep_device, &s);
    accel_runtime_close(rt);
}

Test(ops, gemm_shapes_transposes_and_leading_dimensions)
{
    on_every_device_once(gemm_body, NULL);
}

static void gemm_batched_body(run *r, void *user)
{
    (void)user;
    const gemm_shape shapes[] = {{7, 5, 3}, {17, 31, 23}, {1, 1, 1}, {4, 0, 3}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; ++s)
        for (int t = 0; t < 4; ++t) {
            gemm_params p = {shapes[s],
                             (accel_transpose)(t & 1),
                             (accel_transpose)(t >> 1),
                             2,
                             3,
                             -1.25,
                             0.5,
                             false,
                             false};
            gemm_one(r, &p);
        }
}

Test(ops, gemm_strided_batched)
{
    on_every_device_once(gemm_batched_body, NULL);
}

static void gemm_beta_zero_body(run *r, void *user)
{
    (void)user;
    for (int t = 0; t < 4; ++t) {
        gemm_params p = {
            {9, 11, 13}, (accel_transpose)(t & 1), (accel_transpose)(t >> 1), 1, 2, 1.0, 0.0, true,
            false};
        gemm_one(r, &p);
    }
    /* k == 0: C = beta*C, and with beta == 0 a NaN C becomes 0. */
    gemm_params k0 = {{6, 7, 0}, ACCEL_NO_TRANS, ACCEL_NO_TRANS, 0, 1, 1.0, 0.0, true, false};
    gemm_one(r, &k0);
    gemm_params k0b = {{6, 7, 0}, ACCEL_TRANS, ACCEL_NO_TRANS, 0, 1, 2.0, 3.0, false, false};
    gemm_one(r, &k0b);
}

Test(ops, gemm_beta_zero_ignores_nan_and_k_zero)
{
    on_every_device_once(gemm_beta_zero_body, NULL);
}

static void gemm_large_body(run *r, void *user)
{
    (void)user;
    for (int t = 0; t < 4; ++t) {
        gemm_params p = {{130, 257, 300},
                         (accel_transpose)(t & 1),
                         (accel_transpose)(t >> 1),
                         0,
                         1,
                         1.0,
                         1.0,
                         false,
                         false};
        gemm_one(r, &p);
    }
    gemm_params mm = {{33, 65, 129}, ACCEL_NO_TRANS, ACCEL_NO_TRANS, 0, 1, 1.0, 0.0, false, true};
    gemm_one(r, &mm);
}

Test(ops, gemm_larger_and_matmul)
{
    on_every_device_once(gemm_large_body, NULL);
}

/* ------------------------------------------------------------ transpose */

/* rows x cols of x: empty, vectors, around the backends' 32 x 32 tiles, thin,
 * and more tiles than a GPU grid has blocks (grid-stride over tiles). */
static const struct {
    size_t rows, cols;
} TRANSPOSE_SHAPES[] = {
    {0, 5},   {5, 0},   {1, 1},    {1, 100},   {100, 1},   {31, 33},
    {32, 32}, {33, 31}, {1000, 3}, {129, 257}, {66000, 1}, {1100, 2050},
};

/* Which elements of a matrix's extent (from its offset) belong to it: the
 * rest, the ld padding between rows, must keep its sentinel. */
static bool in_matrix(size_t e, size_t ld, size_t row_len)
{
    return e % ld < row_len;
}

/* x (rows x cols, ldx = cols + pad_x) from a guarded offset, into out (cols x
 * rows, ldo = rows + pad_o); both buffers hold exactly the extents, so the
 * guards catch a write one past the end. A pure data move: the result must
 * equal x[i*ldx + j] exactly, NaN, -0 and Inf included. */
static void transpose_one(const run *r, size_t rows, size_t cols, size_t pad_x, size_t pad_o)
{
    size_t ldx = cols + pad_x, ldo = rows + pad_o;
    size_t nx = rows && cols ? (rows - 1) * ldx + cols : 0;
    size_t no = rows && cols ? (cols - 1) * ldo + rows : 0;
    const char *what =
        describe(r, tu_fmt("accel_transpose_2d %zux%zu ldx=%zu ldo=%zu", rows, cols, ldx, ldo));
    double *x = gen_array(nx, GEN_WIDE, r->dt, 81 + rows * 7 + cols), *got = alloc_vals(no);
    if (nx >= 3)
        x[0] = NAN, x[nx / 2] = -0.0, x[nx - 1] = -INFINITY;
    double *out0 = alloc_vals(no);
    for (size_t e = 0; e < no; ++e)
        out0[e] = TU_SENTINEL;
    tu_dbuf dx = tu_upload(r->q, r->dt, x, nx), dout = tu_upload(r->q, r->dt, out0, no);
    tu_assert_status(accel_transpose_2d(r->q, r->dt, rows, cols, dx.buf, dx.guard, ldx, dout.buf,
                                        dout.guard, ldo),
                     ACCEL_SUCCESS, "%s", what);
    tu_download(r->q, &dout, got);
    for (size_t i = 0; i < rows; ++i)
        for (size_t j = 0; j < cols; ++j) {
            double want = x[i * ldx + j], g = got[j * ldo + i];
            cr_assert(tu_same(g, want) && signbit(g) == signbit(want),
                      "%s: out[%zu][%zu] = %.17g, expected x[%zu][%zu] = %.17g", what, j, i, g, i,
                      j, want);
        }
    for (size_t e = 0; e < no; ++e)
        if (!in_matrix(e, ldo, rows))
            cr_assert(got[e] == TU_SENTINEL, "%s: ld padding element %zu of out changed to %g",
                      what, e, got[e]);
    tu_check_guards(r->q, &dout, what);
    /* x is only read. */
    double *x_after = alloc_vals(nx);
    tu_download(r->q, &dx, x_after);
    for (size_t e = 0; e < nx; ++e)
        cr_assert(tu_same(x_after[e], x[e]), "%s: x element %zu changed", what, e);
    tu_check_guards(r->q, &dx, what);
    tu_release(&dx), tu_release(&dout);
    free(x), free(got), free(out0), free(x_after);
}

static void transpose_body(run *r, void *user)
{
    (void)user;
    for (size_t s = 0; s < sizeof TRANSPOSE_SHAPES / sizeof *TRANSPOSE_SHAPES; ++s) {
        size_t rows = TRANSPOSE_SHAPES[s].rows, cols = TRANSPOSE_SHAPES[s].cols;
        transpose_one(r, rows, cols, 0, 0);
        if (rows * cols < 1000000)
            transpose_one(r, rows, cols, 3, 5);
    }
}

Test(ops, transpose_shapes_and_leading_dimensions)
{
    on_every_device_once(transpose_body, NULL);
}

/* f16 and bf16 are moved as 2-byte words: any bit pattern (NaN payloads,
 * signalling NaNs, subnormals) must arrive unchanged. */
static void transpose_half_device(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    static const accel_dtype HALVES[] = {ACCEL_F16, ACCEL_BF16};
    static const struct {
        size_t rows, cols, pad_x, pad_o;
    } shapes[] = {{1, 1, 0, 0}, {33, 31, 2, 1}, {129, 257, 0, 3}, {3, 1000, 1, 0}};
    const uint16_t sentinel = 0xBEEF;
    for (size_t d = 0; d < 2; ++d) {
        accel_dtype dt = HALVES[d];
        if (!tu_device_has_dtype(dev, dt)) {
            cr_log_info("%s does not take %s: skipped", accel_device_name(dev),
                        accel_dtype_name(dt));
            continue;
        }
        for (size_t s = 0; s < sizeof shapes / sizeof *shapes; ++s) {
            size_t rows = shapes[s].rows, cols = shapes[s].cols;
            size_t ldx = cols + shapes[s].pad_x, ldo = rows + shapes[s].pad_o;
            size_t nx = (rows - 1) * ldx + cols + 2 * TU_GUARD,
                   no = (cols - 1) * ldo + rows + 2 * TU_GUARD;
            const char *what =
                tu_fmt("accel_transpose_2d %s %zux%zu ldx=%zu ldo=%zu on %s (seed %llu)",
                       accel_dtype_name(dt), rows, cols, ldx, ldo, accel_device_name(dev),
                       (unsigned long long)tu_seed());
            uint16_t *x = malloc(nx * sizeof *x), *out = malloc(no * sizeof *out);
            cr_assert(x && out);
            tu_rng g = tu_rng_make(91 + s);
            for (size_t e = 0; e < nx; ++e)
                x[e] = (uint16_t)tu_rng_next(&g);
            for (size_t e = 0; e < no; ++e)
                out[e] = sentinel;
            accel_buffer *bx, *bo;
            tu_ok(accel_buffer_create(dev, nx * 2, &bx));
            tu_ok(accel_buffer_create(dev, no * 2, &bo));
            tu_ok(accel_queue_write_blocking(q, bx, 0, x, nx * 2));
            tu_ok(accel_queue_write_blocking(q, bo, 0, out, no * 2));
            tu_assert_status(
                accel_transpose_2d(q, dt, rows, cols, bx, TU_GUARD, ldx, bo, TU_GUARD, ldo),
                ACCEL_SUCCESS, "%s", what);
            tu_ok(accel_queue_read_blocking(q, bo, 0, out, no * 2));
            for (size_t e = 0; e < no; ++e) {
                size_t rel = e - TU_GUARD;
                bool payload = e >= TU_GUARD && e < no - TU_GUARD && in_matrix(rel, ldo, rows);
                uint16_t want = payload ? x[TU_GUARD + (rel % ldo) * ldx + rel / ldo] : sentinel;
                cr_assert(out[e] == want,
                          "%s: element %zu of out's buffer is 0x%04x, expected 0x%04x%s", what, e,
                          out[e], want, payload ? "" : " (sentinel: guard or ld padding)");
            }
            accel_buffer_release(bx), accel_buffer_release(bo);
            free(x), free(out);
        }
    }
}

Test(ops, transpose_f16_bf16_bit_exact)
{
    accel_runtime *rt = tu_open_default();
    tu_for_each_device(rt, transpose_half_device, NULL);
    accel_runtime_close(rt);
}

/* ------------------------------------------------------------ random */

/* accel.h's mapping, from the raw Philox words. */
static double uniform_ref(accel_dtype dt, uint64_t seed, uint64_t e, bool open)
{
    if (dt == ACCEL_F32) {
        accel_philox_words w = accel_philox_block(e / 4, seed);
        uint32_t v = (w.w[e % 4] >> 8) + (open ? 1u : 0u);
        return ldexp((double)v, -24);
    }
    accel_philox_words w = accel_philox_block(e / 2, seed);
    uint64_t j = e % 2;
    uint64_t bits = ((((uint64_t)w.w[2 * j]) << 32) | w.w[2 * j + 1]) >> 11;
    return ldexp((double)(bits + (open ? 1u : 0u)), -53);
}

static void uniform_body(run *r, void *user)
{
    (void)user;
    const char *what = describe(r, "accel_random_uniform");
    uint64_t seed = tu_seed() * 0x9E3779B97F4A7C15ull + 1,
             off = 12345; /* odd offset: not block-aligned */
    double *got = alloc_vals(r->n), *pieces = alloc_vals(r->n);
    tu_dbuf d = tu_upload(r->q, r->dt, NULL, r->n), d2 = tu_upload(r->q, r->dt, NULL, r->n);
    tu_assert_status(accel_random_uniform(r->q, r->dt, seed, off, tu_slice(&d)), ACCEL_SUCCESS,
                     "%s", what);
    tu_download(r->q, &d, got);
    for (size_t i = 0; i < r->n; ++i) {
        double ref = uniform_ref(r->dt, seed, off + i, false);
        cr_assert(got[i] == ref, "%s: element %zu (stream %llu) got %.17g expected %.17g", what, i,
                  (unsigned long long)(off + i), got[i], ref);
        cr_assert(got[i] >= 0.0 && got[i] < 1.0);
    }
    tu_check_guards(r->q, &d, what);
    /* In three pieces of odd sizes: the same numbers. */
    size_t cut1 = r->n / 3, cut2 = r->n / 3 + r->n / 5 + (r->n > 1);
    if (cut2 > r->n)
        cut2 = r->n;
    size_t cuts[4] = {0, cut1, cut2, r->n};
    for (int p = 0; p < 3; ++p)
        tu_ok(accel_random_uniform(
            r->q, r->dt, seed, off + cuts[p],
            accel_slice_of(d2.buf, d2.guard + cuts[p], cuts[p + 1] - cuts[p])));
    tu_download(r->q, &d2, pieces);
    cr_assert(r->n == 0 || memcmp(got, pieces, r->n * sizeof *got) == 0,
              "%s: filling in pieces differs", what);
    tu_check_guards(r->q, &d2, what);
    /* Another seed gives other numbers. */
    if (r->n >= 7) {
        tu_ok(accel_random_uniform(r->q, r->dt, seed + 1, off, tu_slice(&d2)));
        tu_download(r->q, &d2, pieces);
        size_t same = 0;
        for (size_t i = 0; i < r->n; ++i)
            same += pieces[i] == got[i];
        cr_assert(same < r->n / 2 + 1, "%s: seed+1 repeats %zu of %zu numbers", what, same, r->n);
    }
    tu_release(&d), tu_release(&d2);
    free(got), free(pieces);
}

Test(ops, random_uniform_matches_philox_bit_for_bit)
{
    on_every_device(uniform_body, NULL);
}

static void normal_body(run *r, void *user)
{
    (void)user;
    const char *what = describe(r, "accel_random_normal");
    const double mean = 2.0, stddev = 3.0;
    uint64_t seed = tu_seed() + 99, off = 7; /* odd: out[0] is the sine half of a pair */
    double *got = alloc_vals(r->n);
    tu_dbuf d = tu_upload(r->q, r->dt, NULL, r->n);
    tu_assert_status(accel_random_normal(r->q, r->dt, seed, off, mean, stddev, tu_slice(&d)),
                     ACCEL_SUCCESS, "%s", what);
    tu_download(r->q, &d, got);
    double u = tu_unit_roundoff(r->dt);
    const long double two_pi = 6.283185307179586476925286766559L;
    long double s1 = 0, s2 = 0;
    for (size_t i = 0; i < r->n; ++i) {
        uint64_t e = off + i, pair = e / 2;
        long double u1 = uniform_ref(r->dt, seed, 2 * pair, true);
        long double u2 = uniform_ref(r->dt, seed, 2 * pair + 1, true);
        long double rad = sqrtl(-2.0L * logl(u1));
        long double z = (e % 2 == 0) ? cosl(two_pi * u2) : sinl(two_pi * u2);
        long double exact = mean + stddev * rad * z;
        long double tol = 16.0L * u * (fabsl((long double)mean) + stddev * rad * (1.0L + two_pi));
        cr_assert(fabsl(got[i] - exact) <= tol,
                  "%s: element %zu (stream pair %llu) got %.17g expected %.20Lg", what, i,
                  (unsigned long long)pair, got[i], exact);
        s1 += got[i];
        s2 += (long double)got[i] * got[i];
    }
    tu_check_guards(r->q, &d, what);
    if (r->n >= 1000) {
        /* Sample mean and variance within 6 standard errors. */
        long double n = (long double)r->n, m = s1 / n, var = s2 / n - m * m;
        cr_assert(fabsl(m - mean) <= 6.0L * stddev / sqrtl(n), "%s: sample mean %.6Lg", what, m);
        cr_assert(fabsl(var - stddev * stddev) <= 6.0L * stddev * stddev * sqrtl(2.0L / n),
                  "%s: sample variance %.6Lg", what, var);
    }
    tu_release(&d);
    free(got);
}

Test(ops, random_normal_is_box_muller_on_the_stream)
{
    on_every_device(normal_body, NULL);
}
