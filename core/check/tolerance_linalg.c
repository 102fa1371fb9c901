/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/check/tolerance_linalg.c — the backward-error checks of the LAPACK
 * ops (kind ACCEL_OP_KIND_LINALG) for the tolerance model (tolerance.c
 * asks for them one at a time). Their results are not unique (the signs of
 * Q's, V's and U's columns, the order of equal eigenvalues' vectors) and
 * not bit-identical across LAPACK and cuSOLVER, so each problem's output is
 * judged by its own residual against the inputs, and only the unique
 * values (eigenvalues, singular values) are compared with the reference.
 * Bounds (eps the dtype's machine epsilon, c the op table's TOL_N, p =
 * max(m, n), Frobenius norms; sources in accel/verify.h and
 * docs/checking.md):
 *   cholesky  ||A - L L^T|| <= c (n+1) eps ||L||^2
 *   solve     ||A X - B|| <= c n eps ||A|| ||X||
 *   slogdet   ||P A - L U|| <= c n eps ||L|| ||U||; sign exactly that of
 *             the factors; |logabs - sum log|u_ii|| <= c n eps (1 + sum
 *             |log|u_ii||); |det - sign prod|u_ii|| <= c n eps prod|u_ii|
 *   qr        ||A - Q R|| <= c p eps ||A||; ||Q^T Q - I|| <= c p eps sqrt(k)
 *   eigh      ||A V - V diag(w)|| <= c n eps ||A||; ||V^T V - I|| <= c n eps
 *             sqrt(n); |w - w_ref| <= c n eps ||A|| each
 *   svd       ||A - U S V^T|| <= c p eps ||A||; ||U^T U - I||, ||V V^T - I||
 *             <= c p eps sqrt(width); |s - s_ref| <= c p eps ||A|| each
 * Complex dtypes (c64, c128): the same bounds with ^H for ^T (A = L L^H,
 * Q^H Q = I, V^H V = I, A = U S V^H; Hermitian A reads its lower triangle,
 * the upper as its conjugate), |.| the modulus; the sign and det of
 * slogdet, complex, are checked by |got - ref| (sign to c n eps, det to c
 * n eps prod|u_ii|); the real results (W, S, log|det|) are the real parts
 * of their complex slots (backend.h). A problem whose A holds a NaN or an
 * infinity is not checked. Everything is computed in double complex
 * without allocating (O(n^3) per problem). */
#include <complex.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "accel/backend.h"
#include "accel/verify.h"

#include "base/optable.h"
#include "base/status.h"
#include "check/tolerance_linalg.h"

/* One problem's matrices: where each region of the block starts for it. */
typedef struct lprob {
    const accel_tolerance_op *d;
    accel_dtype dt;
    size_t m, n, k, t;
    accel_linalg_layout l;
    const void *a, *b, *out;
    double c, eps;
} lprob;

static double complex ld(accel_dtype dt, const void *p, size_t i)
{
    if (dt == ACCEL_F32)
        return (double)((const float *)p)[i];
    if (dt == ACCEL_C64)
        return (double complex)((const float complex *)p)[i];
    if (dt == ACCEL_C128)
        return ((const double complex *)p)[i];
    return ((const double *)p)[i];
}

/* |z|^2 */
static double abs2(double complex z)
{
    return creal(z) * creal(z) + cimag(z) * cimag(z);
}

/* Element (i, j) of problem t's column-major rows x cols matrix in region r. */
static double complex reg(const lprob *p, uint32_t r, size_t rows, size_t i, size_t j)
{
    return ld(p->dt, p->out, p->l.off[r] + p->t * p->l.size[r] + j * rows + i);
}

/* A's element (i, j); symmetric (Hermitian) ops read the lower triangle
 * only, the upper as its (conjugate) transpose, and the real parts of the
 * diagonal (LAPACK's potrf and heevd ignore their imaginary parts). */
static double complex amat(const lprob *p, size_t i, size_t j)
{
    bool sym = p->d->op == ACCEL_OP_CHOLESKY || p->d->op == ACCEL_OP_EIGH;
    if (sym && j > i)
        return conj(ld(p->dt, p->a, p->t * p->m * p->n + i * p->m + j));
    if (sym && j == i)
        return creal(ld(p->dt, p->a, p->t * p->m * p->n + j * p->m + i));
    return ld(p->dt, p->a, p->t * p->m * p->n + j * p->m + i);
}

static double anorm(const lprob *p)
{
    double s = 0;
    for (size_t j = 0; j < p->n; j++)
        for (size_t i = 0; i < p->m; i++)
            s += abs2(amat(p, i, j));
    return sqrt(s);
}

static bool a_finite(const lprob *p)
{
    for (size_t j = 0; j < p->n; j++)
        for (size_t i = 0; i < p->m; i++)
            if (!isfinite(creal(amat(p, i, j))) || !isfinite(cimag(amat(p, i, j))))
                return false;
    return true;
}

/* ||M^H M - I|| (cols = false: ||M M^H - I||) of region r's rows x cols M. */
static double orth(const lprob *p, uint32_t r, size_t rows, size_t cols, bool cols_orth)
{
    size_t w = cols_orth ? cols : rows, len = cols_orth ? rows : cols;
    double s = 0;
    for (size_t x = 0; x < w; x++)
        for (size_t y = 0; y < w; y++) {
            double complex dot = 0;
            for (size_t z = 0; z < len; z++)
                dot += cols_orth ? conj(reg(p, r, rows, z, x)) * reg(p, r, rows, z, y)
                                 : reg(p, r, rows, x, z) * conj(reg(p, r, rows, y, z));
            dot -= x == y;
            s += abs2(dot);
        }
    return sqrt(s);
}

static void cholesky(const lprob *p, accel__linalg_check *c)
{
    size_t n = p->n;
    double r = 0, l2 = 0;
    for (size_t j = 0; j < n; j++)
        for (size_t i = j; i < n; i++) {
            double complex lij = reg(p, 0, n, i, j), s = 0;
            l2 += abs2(lij);
            for (size_t q = 0; q <= j; q++)
                s += reg(p, 0, n, i, q) * conj(reg(p, 0, n, j, q));
            r += (i == j ? 1 : 2) * abs2(amat(p, i, j) - s);
        }
    c->got = sqrt(r), c->bound = p->c * (double)(n + 1) * p->eps * l2;
}

static void solve(const lprob *p, accel__linalg_check *c)
{
    size_t n = p->n, k = p->k;
    double r = 0, x2 = 0;
    for (size_t j = 0; j < k; j++)
        for (size_t i = 0; i < n; i++) {
            double complex s = -ld(p->dt, p->b, p->t * n * k + j * n + i);
            for (size_t q = 0; q < n; q++)
                s += amat(p, i, q) * reg(p, 0, n, q, j);
            r += abs2(s);
            x2 += abs2(reg(p, 0, n, i, j));
        }
    c->got = sqrt(r), c->bound = p->c * (double)n * p->eps * anorm(p) * sqrt(x2);
}

/* The row of A at position i of P A (LAPACK's ipiv, 1-based, as T values
 * in region 2): the swaps undone from the last. */
static size_t pivot_row(const lprob *p, size_t i)
{
    size_t r = i;
    for (size_t j = p->n; j-- > 0;) {
        size_t pj = (size_t)creal(reg(p, 2, p->n, j, 0)) - 1;
        if (r == j)
            r = pj;
        else if (r == pj)
            r = j;
    }
    return r;
}

/* slogdet: j 0 the LU's residual, 1 the sign, 2 the log, 3 the det. */
static void slogdet(const lprob *p, size_t j, accel__linalg_check *c)
{
    size_t n = p->n;
    if (j == 0) {
        double r = 0, l2 = 0, u2 = 0;
        for (size_t i = 0; i < n; i++)
            for (size_t q = 0; q < n; q++) {
                double complex s = amat(p, pivot_row(p, i), q), lu = reg(p, 1, n, i, q);
                for (size_t z = 0; z < n && z <= i && z <= q; z++)
                    s -= (z == i ? 1.0 : reg(p, 1, n, i, z)) * reg(p, 1, n, z, q);
                r += abs2(s);
                *(i > q ? &l2 : &u2) += abs2(lu);
            }
        c->got = sqrt(r), c->bound = p->c * (double)n * p->eps * sqrt(l2 + (double)n) * sqrt(u2);
        return;
    }
    double complex sign = 1;
    double logs = 0, mag = 1, det = 1;
    for (size_t i = 0; i < n; i++) {
        double complex u = reg(p, 1, n, i, i);
        double a = cabs(u);
        sign *= (a > 0 ? u / a : 0.0) * ((size_t)creal(reg(p, 2, n, i, 0)) != i + 1 ? -1 : 1);
        logs += log(a), mag += fabs(log(a)), det *= a;
    }
    double complex got = reg(p, 0, 3, j - 1, 0), ref = j == 3 ? sign * det : sign;
    bool cplx = p->dt == ACCEL_C64 || p->dt == ACCEL_C128;
    c->index = p->l.off[0] + p->t * 3 + (j - 1);
    c->got = creal(got);
    c->ref = j == 2 ? (sign == 0 ? -INFINITY : logs) : creal(ref);
    c->bound = j == 1 || sign == 0 ? 0
               : j == 3            ? p->c * (double)n * p->eps * det
                                   : p->c * (double)n * p->eps * mag;
    /* complex sign and det: their distance, the sign rounded too */
    if (cplx && j != 2 && sign != 0 && isfinite(det)) {
        c->got = cabs(got - ref), c->ref = 0;
        c->bound = p->c * (double)n * p->eps * (j == 3 ? det : 1.0);
    }
}

static void qr(const lprob *p, size_t j, accel__linalg_check *c)
{
    size_t m = p->m, n = p->n, k = p->k, mn = m < n ? m : n, w = m > n ? m : n;
    if (j == 1) {
        c->got = orth(p, 0, m, k, true), c->bound = p->c * (double)w * p->eps * sqrt((double)k);
        return;
    }
    double r = 0;
    for (size_t q = 0; q < n; q++)
        for (size_t i = 0; i < m; i++) {
            double complex s = amat(p, i, q);
            for (size_t z = 0; z < mn && z <= q; z++)
                s -= reg(p, 0, m, i, z) * reg(p, 1, m, z, q);
            r += abs2(s);
        }
    c->got = sqrt(r), c->bound = p->c * (double)w * p->eps * anorm(p);
}

static void eigh_residual(const lprob *p, accel__linalg_check *c)
{
    size_t n = p->n;
    double r = 0;
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < n; i++) {
            double complex s = -reg(p, 1, n, i, j) * creal(reg(p, 0, n, j, 0));
            for (size_t q = 0; q < n; q++)
                s += amat(p, i, q) * reg(p, 1, n, q, j);
            r += abs2(s);
        }
    c->got = sqrt(r), c->bound = p->c * (double)n * p->eps * anorm(p);
}

static void svd_residual(const lprob *p, accel__linalg_check *c)
{
    size_t m = p->m, n = p->n;
    double r = 0;
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < m; i++) {
            double complex s = amat(p, i, j);
            for (size_t q = 0; q < n; q++)
                s -= reg(p, 1, m, i, q) * creal(reg(p, 0, n, q, 0)) * reg(p, 2, n, q, j);
            r += abs2(s);
        }
    c->got = sqrt(r), c->bound = p->c * (double)m * p->eps * anorm(p);
}

/* eigh and svd: the vector checks (0, 1 and for svd 2) when asked, then
 * one per value against the reference's. */
static bool spectral(const lprob *p, const void *exp, size_t j, accel__linalg_check *c)
{
    bool svd = p->d->op == ACCEL_OP_SVD;
    size_t nvec = !(p->d->flags & ACCEL_OP_FLAG_LINALG_VECTORS) ? 0 : svd ? 3 : 2;
    size_t w = p->m > p->n ? p->m : p->n;
    if (j < nvec) {
        c->index = p->l.off[1] + p->t * p->l.size[1];
        if (j == 0)
            (svd ? svd_residual : eigh_residual)(p, c);
        else if (!svd || j == 1)
            c->got = orth(p, 1, p->m, svd ? p->k : p->n, true),
            c->bound = p->c * (double)w * p->eps * sqrt((double)(svd ? p->k : p->n));
        else
            c->got = orth(p, 2, p->n, p->n, false),
            c->bound = p->c * (double)w * p->eps * sqrt((double)p->n);
        return true;
    }
    if (j - nvec >= p->n)
        return false;
    c->index = p->l.off[0] + p->t * p->n + (j - nvec);
    c->got = creal(ld(p->dt, p->out, c->index));
    c->ref = creal(ld(p->dt, exp, c->index));
    c->bound = p->c * (double)w * p->eps * anorm(p);
    return true;
}

bool accel__linalg_check_at(const accel_tolerance_op *d, const void *const in[4], const void *got,
                            const void *exp, size_t t, size_t j, accel__linalg_check *c)
{
    const accel_op_properties *info = accel__op((uint32_t)d->op);
    lprob p = {d,
               d->dtype,
               d->m,
               d->n,
               d->k,
               t,
               accel_linalg_layout_of(d->op, d->batch_count, d->m, d->n, d->k),
               in[0],
               in[1],
               got,
               info ? info->tolerance_n : 1,
               accel_dtype_epsilon(d->dtype)};
    memset(c, 0, sizeof *c);
    c->index = p.l.off[0] + t * p.l.size[0];
    if (!p.a || (d->op == ACCEL_OP_SOLVE && !p.b) || !a_finite(&p))
        return false;
    switch ((uint32_t)d->op) {
    case ACCEL_OP_CHOLESKY:
        return j == 0 ? (cholesky(&p, c), true) : false;
    case ACCEL_OP_SOLVE:
        return j == 0 ? (solve(&p, c), true) : false;
    case ACCEL_OP_SLOGDET:
        return j < 4 ? (slogdet(&p, j, c), true) : false;
    case ACCEL_OP_QR:
        return j < 2 ? (qr(&p, j, c), true) : false;
    case ACCEL_OP_EIGH:
    case ACCEL_OP_SVD:
        return spectral(&p, exp, j, c);
    default:
        return false;
    }
}

accel_status accel__linalg_shapes(const char *fn, const accel_tolerance_op *d)
{
    size_t m = d->m, n = d->n, k = d->k, b = d->batch_count, s = m > n ? m : n, all;
    s = s > k ? s : k;
    if (s > SIZE_MAX - 2 || __builtin_mul_overflow(s + 2, s + 2, &all) ||
        __builtin_mul_overflow(all, 4 * b, &all))
        return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH, "%s: %zu problems of %zu x %zu overflow", fn,
                           b, m, n);
    accel_linalg_layout l = accel_linalg_layout_of(d->op, b, m, n, k);
    bool solve = d->op == ACCEL_OP_SOLVE;
    if (d->counts[0] != b * m * n || (solve && d->counts[1] != b * n * k) ||
        d->counts[d->num_operands - 1] != l.total)
        return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                           "%s: %s of %zu problems of %zu x %zu (k %zu) needs A of %zu, %sout of "
                           "%zu elements",
                           fn, accel_op_name(d->op), b, m, n, k, b * m * n,
                           solve ? "B of batch*n*k, " : "", l.total);
    return ACCEL_SUCCESS;
}
