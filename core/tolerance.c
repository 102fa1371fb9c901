/* core/tolerance.c — the tolerance model of accel/verify.h: when an op's output
 * on one backend is "the same answer" as a reference's. Used by verify mode
 * (verify.c), `accel verify`, `accel replay` and the tests, so that all of them
 * apply the same bounds. Sources of the bounds: accel/verify.h. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "accel/verify.h"
#include "internal.h"

const char *accel_op_name(accel_op_code op)
{
    switch (op) {
    case ACCEL_OP_FILL: return "fill";
    case ACCEL_OP_COPY: return "copy";
    case ACCEL_OP_ADD: return "add";
    case ACCEL_OP_SUB: return "sub";
    case ACCEL_OP_MUL: return "mul";
    case ACCEL_OP_DIV: return "div";
    case ACCEL_OP_MAX: return "max";
    case ACCEL_OP_MIN: return "min";
    case ACCEL_OP_AXPBY: return "axpby";
    case ACCEL_OP_SCALE: return "scale";
    case ACCEL_OP_TRANSPOSE: return "transpose";
    case ACCEL_OP_NEG: return "neg";
    case ACCEL_OP_ABS: return "abs";
    case ACCEL_OP_SQRT: return "sqrt";
    case ACCEL_OP_EXP: return "exp";
    case ACCEL_OP_LOG: return "log";
    case ACCEL_OP_TANH: return "tanh";
    case ACCEL_OP_RELU: return "relu";
    case ACCEL_OP_SUM: return "sum";
    case ACCEL_OP_REDUCE_MAX: return "reduce_max";
    case ACCEL_OP_REDUCE_MIN: return "reduce_min";
    case ACCEL_OP_DOT: return "dot";
    case ACCEL_OP_GEMM: return "gemm";
    case ACCEL_OP_RANDOM_UNIFORM: return "random_uniform";
    case ACCEL_OP_RANDOM_NORMAL: return "random_normal";
    case ACCEL_OP_KERNEL: return "kernel";
    default: return "unknown";
    }
}

double accel_dtype_epsilon(accel_dtype dtype)
{
    switch (dtype) {
    case ACCEL_F32: return 0x1p-23;
    case ACCEL_F64: return 0x1p-52;
    case ACCEL_F16: return 0x1p-10;
    case ACCEL_BF16: return 0x1p-7;
    default: return 0.0;
    }
}

size_t accel__desc_esize(const accel_op_desc *d)
{
    return accel_dtype_size((accel_dtype)d->dtype);
}

bool accel__desc_reads_output(const accel_op_desc *d)
{
    return d->op == ACCEL_OP_AXPBY || d->op == ACCEL_OP_GEMM || d->op == ACCEL_OP_TRANSPOSE;
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

static double load(accel_dtype dt, const void *p, size_t i)
{
    switch (dt) {
    case ACCEL_F32: {
        float f;
        memcpy(&f, (const char *)p + i * 4, 4);
        return f;
    }
    case ACCEL_F64: {
        double f;
        memcpy(&f, (const char *)p + i * 8, 8);
        return f;
    }
    case ACCEL_F16: {
        uint16_t h;
        memcpy(&h, (const char *)p + i * 2, 2);
        return half_to_double(h);
    }
    case ACCEL_BF16: {
        uint16_t h;
        memcpy(&h, (const char *)p + i * 2, 2);
        uint32_t u = (uint32_t)h << 16;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    default:
        return NAN;
    }
}

/* Spacing of dtype's numbers at the magnitude of x (the subnormal spacing
 * below the smallest normal). */
static double ulp_at(accel_dtype dt, double x)
{
    int p, emin; /* precision (bits incl. the implicit one), min normal exponent */
    switch (dt) {
    case ACCEL_F32: p = 24, emin = -126; break;
    case ACCEL_F64: p = 53, emin = -1022; break;
    case ACCEL_F16: p = 11, emin = -14; break;
    default: p = 8, emin = -126; break;
    }
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

static double elementwise_ulps(uint32_t op)
{
    switch (op) {
    case ACCEL_OP_FILL:
    case ACCEL_OP_COPY:
    case ACCEL_OP_TRANSPOSE:
    case ACCEL_OP_RANDOM_UNIFORM:
    case ACCEL_OP_REDUCE_MAX:
    case ACCEL_OP_REDUCE_MIN:
        return 0;
    case ACCEL_OP_EXP:
    case ACCEL_OP_LOG:
    case ACCEL_OP_TANH:
    case ACCEL_OP_RANDOM_NORMAL:
        return 4;
    case ACCEL_OP_AXPBY:
        return 2;
    default:
        return 1;
    }
}

static void compare_gemm(cmp_state *s, const accel_op_desc *d, const void *const in[4],
                         const void *got, const void *exp)
{
    accel_dtype dt = (accel_dtype)d->dtype;
    double eps = accel_dtype_epsilon(dt);
    if ((d->flags & ACCEL_OP_FLAG_ALLOW_TF32) && dt == ACCEL_F32)
        eps = 0x1p-10;
    double alpha = fabs(d->scalars[0]), beta = fabs(d->scalars[1]);
    size_t span = d->operands[2].count;
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
        double bound = 2.0 * (double)(d->k + 2) * eps * (alpha * absab + beta * cold);
        check_one(s, i, load(dt, got, i), load(dt, exp, i), bound);
    }
    s->r.rule = "c*(k+2)*eps*(|alpha||A||B| + |beta||C|)_ij, c = 2, Higham 2002 3.5";
}

static void compare_transpose(cmp_state *s, const accel_op_desc *d, const void *const in[4],
                              const void *got, const void *exp)
{
    accel_dtype dt = (accel_dtype)d->dtype;
    size_t es = accel_dtype_size(dt);
    size_t span = d->operands[1].count;
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

accel_status accel_tolerance_compare(const accel_op_desc *d, const void *const inputs[4],
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
    if (!d || !got || !expected || d->num_operands == 0 || d->num_operands > 4)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: op, got or expected is NULL", fn);
    accel_dtype dt = (accel_dtype)d->dtype;
    if (accel_dtype_size(dt) == 0)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: dtype %u is unknown", fn, d->dtype);
    const void *none[4] = {NULL, NULL, NULL, NULL};
    const void *const *in = inputs ? inputs : none;
    const accel_op_operand *o = &d->operands[d->num_operands - 1];
    double eps = accel_dtype_epsilon(dt);

    switch ((accel_op_code)d->op) {
    case ACCEL_OP_GEMM:
        if (d->num_operands != 3)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: GEMM has 3 operands", fn);
        compare_gemm(&s, d, in, got, expected);
        break;
    case ACCEL_OP_TRANSPOSE:
        compare_transpose(&s, d, in, got, expected);
        break;
    case ACCEL_OP_SUM:
    case ACCEL_OP_DOT: {
        const accel_op_operand *x = &d->operands[0];
        double mag = 0;
        if (in[0]) {
            for (size_t i = 0; i < x->count; i++) {
                double v = load(dt, in[0], i);
                if (d->op == ACCEL_OP_DOT)
                    v *= in[1] ? load(dt, in[1], i) : 1.0;
                mag += fabs(v);
            }
        } else {
            mag = INFINITY;
        }
        double bound = 2.0 * (double)x->count * eps * mag;
        check_one(&s, 0, load(dt, got, 0), load(dt, expected, 0), bound);
        s.r.rule = d->op == ACCEL_OP_SUM ? "c*n*eps*sum|x|, c = 2, Higham 2002 4.2"
                                         : "c*n*eps*sum|x*y|, c = 2, Higham 2002 3.1";
        break;
    }
    default: {
        if (accel_op_name((accel_op_code)d->op)[0] == 'u' /* "unknown" */)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: op %u is not covered", fn,
                               d->op);
        double ulps = elementwise_ulps(d->op);
        for (size_t i = 0; i < o->count; i++) {
            double e = load(dt, expected, i);
            double bound = ulps * ulp_at(dt, e);
            if (d->op == ACCEL_OP_RANDOM_NORMAL)
                bound += 64.0 * eps * fabs(d->scalars[1]);
            check_one(&s, i, load(dt, got, i), e, bound);
        }
        s.r.rule = ulps == 0   ? "bit-identical"
                   : ulps == 1 ? "1 ulp: each correctly rounded (the exact IEEE result)"
                   : ulps == 2 ? "2 ulp"
                   : d->op == ACCEL_OP_RANDOM_NORMAL ? "4 ulp + 64*eps*stddev"
                                                      : "4 ulp";
        break;
    }
    }
    if (out) {
        uint32_t size = out->struct_size && out->struct_size < sizeof s.r ? out->struct_size
                                                                          : (uint32_t)sizeof s.r;
        s.r.struct_size = size;
        memcpy(out, &s.r, size);
    }
    return s.r.bad ? ACCEL_ERROR_MISMATCH : ACCEL_SUCCESS;
}
