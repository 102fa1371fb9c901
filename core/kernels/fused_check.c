/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/kernels/fused_check.c — verify mode's check of a fused kernel: the unfused op
 * list run on the host, op by op, each result rounded to the chain's dtype
 * (what the CPU running the recorded ops computes), with a bound composed
 * from each op's rule of the op table by first-order forward error analysis
 * (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., §2-3):
 *
 *   bound(result) = L(op, inputs, input bounds) + (N + 1) ulp(|r| + L)
 *
 * where L is how far the op's exact result can move when its inputs move
 * within their bounds (add, sub: ea + eb; mul: |b| ea + |a| eb + ea eb; div:
 * (ea + |a/b| eb) / (|b| - eb); max, min: max(ea, eb); axpby: |alpha| ex +
 * |beta| ey; the monotone unary ops: the largest move of f over [x - e,
 * x + e]; sin, cos, tanh: e (1-Lipschitz); sigmoid: e / 4), N the op's ulps
 * from the table (for axpby of |alpha x| + |beta y|), and the +1 the host
 * reference's own rounding. Elements whose bound is unbounded (a divisor or
 * log argument within its bound of 0, an infinite result) are skipped. */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/optable.h"
#include "kernels/fused_chain.h"

/* Unit in the last place of dtype dt at magnitude x (long double). */
static long double ulp_of(uint32_t dt, long double x)
{
    int p = dt == ACCEL_F64 ? 53 : 24, emin = dt == ACCEL_F64 ? -1022 : -126;
    x = fabsl(x);
    if (!isfinite(x))
        return INFINITY;
    int e;
    (void)frexpl(x, &e); /* x = m 2^e, m in [0.5, 1) */
    int ex = e - 1;
    if (x == 0 || ex < emin)
        ex = emin;
    return ldexpl(1.0L, ex - (p - 1));
}

static long double round_to(uint32_t dt, long double v)
{
    return dt == ACCEL_F64 ? (long double)(double)v : (long double)(float)v;
}

static long double load(uint32_t dt, const void *p, size_t i)
{
    return dt == ACCEL_F64 ? (long double)((const double *)p)[i]
                           : (long double)((const float *)p)[i];
}

static long double scalar_of(const accel_kernel_arg_desc *a)
{
    return a->dtype == ACCEL_F64 ? (long double)a->value.f64 : (long double)a->value.f32;
}

/* IEEE 754-2019 maximum/minimum, as the op table states them. */
static long double nan_max(long double a, long double b)
{
    return isnan(a) ? a : isnan(b) ? b : a > b ? a : b > a ? b : signbit(a) ? b : a;
}

static long double nan_min(long double a, long double b)
{
    return isnan(a) ? a : isnan(b) ? b : a < b ? a : b < a ? b : signbit(a) ? a : b;
}

static long double sigmoidl(long double x)
{
    return 1.0L / (1.0L + expl(-x));
}

/* Largest move of a monotone f over [x - e, x + e]. */
static long double monotone_move(long double (*f)(long double), long double x, long double e)
{
    long double y = f(x), hi = fabsl(f(x + e) - y), lo = fabsl(y - f(x - e));
    return hi > lo ? hi : lo;
}

/* The exact result v of op on x (each off by at most ex) and scalars s, the
 * bound prop of how far the inputs' errors move it, and the magnitude mag
 * its rounding error scales with (-1: |v|). */
static void exact_step(uint32_t op, const long double *x, const long double *ex,
                       const long double *s, long double *out_v, long double *out_prop,
                       long double *out_mag)
{
    long double v = 0, prop = 0, mag = -1;
    long double a = x[0], b = x[1], ea = ex[0], eb = ex[1];
    switch ((accel_op_code)op) {
    case ACCEL_OP_FILL:
        v = s[0];
        break;
    case ACCEL_OP_COPY:
        v = a, prop = ea;
        break;
    case ACCEL_OP_ADD:
        v = a + b, prop = ea + eb;
        break;
    case ACCEL_OP_SUB:
        v = a - b, prop = ea + eb;
        break;
    case ACCEL_OP_MUL:
        v = a * b, prop = fabsl(b) * ea + fabsl(a) * eb + ea * eb;
        break;
    case ACCEL_OP_DIV:
        v = a / b;
        prop = fabsl(b) <= eb ? INFINITY : (ea + fabsl(a / b) * eb) / (fabsl(b) - eb);
        break;
    case ACCEL_OP_MAX:
        v = nan_max(a, b), prop = ea > eb ? ea : eb;
        break;
    case ACCEL_OP_MIN:
        v = nan_min(a, b), prop = ea > eb ? ea : eb;
        break;
    case ACCEL_OP_AXPBY:
        v = s[0] * a + s[1] * b;
        prop = fabsl(s[0]) * ea + fabsl(s[1]) * eb;
        mag = fabsl(s[0] * a) + fabsl(s[1] * b);
        break;
    case ACCEL_OP_SCALE:
        v = s[0] * a, prop = fabsl(s[0]) * ea;
        break;
    case ACCEL_OP_NEG:
        v = -a, prop = ea;
        break;
    case ACCEL_OP_ABS:
        v = fabsl(a), prop = ea;
        break;
    case ACCEL_OP_RELU:
        v = a <= 0 ? 0 : a, prop = ea;
        break;
    case ACCEL_OP_SQRT:
        v = sqrtl(a);
        prop = a + ea < 0 ? 0 : a - ea < 0 ? INFINITY : monotone_move(sqrtl, a, ea);
        break;
    case ACCEL_OP_EXP:
        v = expl(a), prop = monotone_move(expl, a, ea);
        break;
    case ACCEL_OP_LOG:
        v = logl(a), prop = a - ea <= 0 ? (a + ea < 0 ? 0 : INFINITY) : monotone_move(logl, a, ea);
        break;
    case ACCEL_OP_TANH:
        v = tanhl(a), prop = ea < 2 ? ea : 2;
        break;
    case ACCEL_OP_SIN:
        v = sinl(a), prop = ea < 2 ? ea : 2;
        break;
    case ACCEL_OP_COS:
        v = cosl(a), prop = ea < 2 ? ea : 2;
        break;
    case ACCEL_OP_SIGMOID:
        v = sigmoidl(a), prop = ea / 4 < 1 ? ea / 4 : 1;
        break;
    case ACCEL_OP_INVALID:
    case ACCEL_OP_TRANSPOSE:
    case ACCEL_OP_SUM:
    case ACCEL_OP_REDUCE_MAX:
    case ACCEL_OP_REDUCE_MIN:
    case ACCEL_OP_DOT:
    case ACCEL_OP_GEMM:
    case ACCEL_OP_RANDOM_UNIFORM:
    case ACCEL_OP_RANDOM_NORMAL:
    case ACCEL_OP_SORT:
    case ACCEL_OP_ARGSORT:
    case ACCEL_OP_CHOLESKY:
    case ACCEL_OP_SOLVE:
    case ACCEL_OP_SLOGDET:
    case ACCEL_OP_QR:
    case ACCEL_OP_EIGH:
    case ACCEL_OP_SVD:
    case ACCEL_OP_FFT:
    case ACCEL_OP_RFFT:
    case ACCEL_OP_IRFFT:
    case ACCEL_OP_CUMSUM:
    case ACCEL_OP_KERNEL:
        v = NAN, prop = INFINITY; /* never fused (fuse.c) */
        break;
    }
    *out_v = v, *out_prop = prop, *out_mag = mag;
}

/* One op: the reference result *r (exact from its inputs, then rounded) and
 * its bound *e. */
static void step(uint32_t dt, uint32_t op, const long double *x, const long double *ex,
                 const long double *s, long double *r, long double *e)
{
    long double v, prop, mag;
    exact_step(op, x, ex, s, &v, &prop, &mag);
    if (isnan(prop))
        prop = INFINITY;
    *r = round_to(dt, v);
    const accel_op_properties *p = accel__op(op);
    long double n = p ? (long double)p->tolerance_n : 4;
    if (mag < 0)
        mag = fabsl(*r);
    *e = prop + (n + 1) * ulp_of(dt, mag + prop);
}

bool accel__fchain_check(const accel__fchain *c, const accel_kernel_arg_desc *args,
                         void *const *pre, void *const *post, size_t n, char *what, size_t cap,
                         size_t *checked, size_t *skipped)
{
    long double val[ACCEL__FMAX_VALUES], err[ACCEL__FMAX_VALUES];
    size_t bad = 0, first = 0, ok = 0, unb = 0;
    uint32_t first_out = 0;
    long double first_got = 0, first_exp = 0, first_bound = 0;
    uint32_t dt = c->dtype;
    for (uint32_t v = 0; v < c->nvalues; v++)
        val[v] = 0, err[v] = 0;
    for (size_t i = 0; i < n; i++) {
        for (uint32_t v = 0; v < c->nvalues; v++)
            if (c->load_arg[v] >= 0) {
                val[v] = load(dt, pre[c->load_arg[v]], i);
                err[v] = 0;
            }
        for (uint32_t k = 0; k < c->nsteps; k++) {
            const accel__fstep *s = &c->steps[k];
            long double x[2] = {0, 0}, ex[2] = {0, 0}, sc[2] = {0, 0};
            for (uint32_t j = 0; j < s->nin; j++)
                x[j] = val[s->in[j]], ex[j] = err[s->in[j]];
            for (uint32_t j = 0; j < s->nscalar; j++)
                sc[j] = scalar_of(&args[s->sarg[j]]);
            step(dt, s->op, x, ex, sc, &val[s->out], &err[s->out]);
        }
        for (uint32_t o = 0; o < c->nstores; o++) {
            long double exp = val[c->store_value[o]], bound = err[c->store_value[o]];
            long double got = load(dt, post[c->store_arg[o]], i);
            bool good;
            if (isnan(exp) && bound == 0) {
                good = isnan(got);
            } else if (!isfinite(bound) || isnan(exp) || !isfinite(exp)) {
                unb++;
                continue;
            } else {
                good = !isnan(got) && fabsl(got - exp) <= bound;
            }
            if (good) {
                ok++;
            } else if (!bad++) {
                first = i, first_out = o, first_got = got, first_exp = exp, first_bound = bound;
            }
        }
    }
    *checked = ok + bad;
    *skipped = unb;
    if (!bad) {
        if (cap)
            what[0] = '\0';
        return true;
    }
    snprintf(what, cap,
             "element %zu of fused output %u: got %.17Lg, the unfused op list gives %.17Lg "
             "(bound %.3Lg, the chain's composed tolerance); %zu of %zu values bad; fused %s",
             first, first_out, first_got, first_exp, first_bound, bad, ok + bad, c->ops);
    return false;
}
