/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_array_linalg_complex.c — accel_array_linalg_* on complex64 and
 * complex128 (LAPACK's c/z routines, CPU backend), batched, against plain
 * double-complex loops of the test's own: each result multiplied back with
 * conjugate transposes (L L^H = A, U^H U = A, A X = B, Q R = A with Q^H Q
 * = I, A V = V diag(w) with V^H V = I, U S Vh = A), triangles, real
 * positive diagonals, the real dtypes of eigenvalues, singular values and
 * logabsdet, and det against the test's own Gaussian elimination in long
 * double complex; residuals within 64*n*eps times the norms. Random
 * well-conditioned inputs from a printed seed; a matrix not Hermitian
 * positive definite, a singular one and mixed dtypes refused; verify mode
 * checking every op by backward error, and its rule refusing a perturbed
 * complex factor. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <complex.h>

#include "accel/backend.h"
#include "accel/verify.h"
#include "test_array_common.h"

/* C11's CMPLX, which glibc defines for GCC only: parts kept as given. */
static double complex tu_cmplx(double re, double im)
{
    union {
        double complex z;
        double p[2];
    } u = {.p = {re, im}};
    return u.z;
}
#undef CMPLX
#define CMPLX(re, im) tu_cmplx(re, im)

enum { B = 3, MAXN = 6 };

typedef double complex cplx;

static double eps_of(accel_dtype dt)
{
    return dt == ACCEL_C128 ? 0x1p-52 : 0x1p-23;
}

static accel_dtype real_of(accel_dtype dt)
{
    return dt == ACCEL_C128 ? ACCEL_F64 : ACCEL_F32;
}

static cplx round_c(accel_dtype dt, cplx z)
{
    return dt == ACCEL_C128 ? z : (cplx)(float complex)z;
}

/* B row-major rows x cols matrices of random values in the unit square,
 * plus shift on each diagonal (hpd: M M^H + shift I, Hermitian), rounded
 * to dt. */
static void fill_c(tu_rng *r, accel_dtype dt, cplx *a, size_t rows, size_t cols, double shift,
                   bool hpd)
{
    for (size_t i = 0; i < B * rows * cols; i++) {
        double re = tu_rng_range(r, -1, 1), im = tu_rng_range(r, -1, 1);
        a[i] = CMPLX(re, im);
    }
    for (size_t t = 0; t < B; t++) {
        cplx *x = a + t * rows * cols, m[MAXN * MAXN];
        if (hpd) {
            memcpy(m, x, rows * cols * sizeof *m);
            for (size_t i = 0; i < rows; i++)
                for (size_t j = 0; j < rows; j++) {
                    cplx s = 0;
                    for (size_t q = 0; q < rows; q++)
                        s += m[i * rows + q] * conj(m[j * rows + q]);
                    x[i * rows + j] = i == j ? creal(s) : s;
                }
        }
        for (size_t i = 0; i < rows && i < cols; i++)
            x[i * cols + i] += shift;
    }
    for (size_t i = 0; i < B * rows * cols; i++)
        a[i] = round_c(dt, a[i]);
}

static accel_buffer *up_c(env *e, accel_dtype dt, const cplx *a, size_t count)
{
    float complex f[B * MAXN * MAXN];
    for (size_t i = 0; i < count && dt == ACCEL_C64; i++)
        f[i] = (float complex)a[i];
    return upload(e, dt == ACCEL_C64 ? (const void *)f : (const void *)a,
                  count * accel_dtype_size(dt));
}

/* A new buffer viewed as (B, r, c) of dt (c 0: (B, r); r 0 too: (B,)). */
static accel_buffer *out_of(env *e, accel_dtype dt, int64_t r, int64_t c, accel_array *a)
{
    int64_t s[3] = {B, r, c};
    uint32_t nd = c ? 3 : r ? 2 : 1;
    accel_buffer *b = upload(e, NULL, (size_t)(B * (r ? r : 1) * (c ? c : 1)) * 16);
    tu_ok(accel_array_init(a, b, dt, nd, s));
    return b;
}

static void down_c(env *e, accel_dtype dt, accel_buffer *b, size_t count, cplx *v)
{
    union {
        double complex d[B * MAXN * MAXN];
        float complex f[B * MAXN * MAXN];
    } raw;
    tu_ok(accel_queue_read_blocking(e->q, b, 0, &raw, count * accel_dtype_size(dt)));
    for (size_t i = 0; i < count; i++)
        v[i] = dt == ACCEL_C128 ? raw.d[i] : (cplx)raw.f[i];
}

/* count reals of the real dtype rdt. */
static void down_r(env *e, accel_dtype rdt, accel_buffer *b, size_t count, double *v)
{
    union {
        double d[B * MAXN];
        float f[B * MAXN];
    } raw;
    tu_ok(accel_queue_read_blocking(e->q, b, 0, &raw, count * accel_dtype_size(rdt)));
    for (size_t i = 0; i < count; i++)
        v[i] = rdt == ACCEL_F64 ? raw.d[i] : (double)raw.f[i];
}

/* op(M)'s element (i, j) for the row-major r x c M: h, its conjugate
 * transpose (then M is c x r as stored). */
static cplx at(const cplx *m, size_t c, size_t i, size_t j, bool h)
{
    return h ? conj(m[j * c + i]) : m[i * c + j];
}

/* ||op(X) diag(dg) op(Y) - Z||_F, op(X) r x q, op(Y) q x c (xh, yh:
 * conjugate transposes of the stored X (q x r), Y (c x q)); dg NULL: I. */
static double resid(const cplx *x, bool xh, const double *dg, const cplx *y, bool yh, const cplx *z,
                    size_t r, size_t q, size_t c)
{
    double s2 = 0;
    for (size_t i = 0; i < r; i++)
        for (size_t j = 0; j < c; j++) {
            cplx s = z ? -z[i * c + j] : -(cplx)(i == j);
            for (size_t k = 0; k < q; k++)
                s += at(x, xh ? r : q, i, k, xh) * (dg ? dg[k] : 1.0) * at(y, yh ? q : c, k, j, yh);
            s2 += creal(s) * creal(s) + cimag(s) * cimag(s);
        }
    return sqrt(s2);
}

static double fro(const cplx *x, size_t count)
{
    double s = 0;
    for (size_t i = 0; i < count; i++)
        s += creal(x[i]) * creal(x[i]) + cimag(x[i]) * cimag(x[i]);
    return sqrt(s);
}

#define RESID(what, got, n, norm)                                                                  \
    cr_assert((got) <= 64.0 * (double)(n)*eps_of(dt) * (norm) + 1e-300,                            \
              "%s %s problem %zu: residual %.3g vs bound %.3g (seed %u)", accel_dtype_name(dt),    \
              what, t, (got), 64.0 * (double)(n)*eps_of(dt) * (norm), seed)

static const unsigned seed = 28;

static void cholesky_case(env *e, accel_dtype dt, int upper)
{
    enum { N = 5 };
    tu_rng r = tu_rng_make(seed);
    cplx a[B * N * N], l[B * N * N];
    fill_c(&r, dt, a, N, N, 1.0, true);
    accel_buffer *ba = up_c(e, dt, a, B * N * N);
    accel_array x, o;
    int64_t s[3] = {B, N, N};
    tu_ok(accel_array_init(&x, ba, dt, 3, s));
    accel_buffer *bo = out_of(e, dt, N, N, &o);
    tu_ok(accel_array_linalg_cholesky(e->q, &x, upper, &o));
    down_c(e, dt, bo, B * N * N, l);
    for (size_t t = 0; t < B; t++) {
        const cplx *f = l + t * N * N;
        for (size_t i = 0; i < N; i++) {
            cr_assert(cimag(f[i * N + i]) == 0 && creal(f[i * N + i]) > 0, "diagonal %zu", i);
            for (size_t j = 0; j < N; j++)
                if (upper ? i > j : j > i)
                    cr_assert(f[i * N + j] == 0, "triangle (%zu, %zu)", i, j);
        }
        /* L L^H = A; upper: U^H U = A */
        double res = resid(f, upper, NULL, f, !upper, a + t * N * N, N, N, N);
        RESID("cholesky", res, N, fro(a + t * N * N, N * N));
    }
    accel_buffer_release(ba), accel_buffer_release(bo);
}

/* solve against matrices and inv (A X = I). */
static void solve_case(env *e, accel_dtype dt)
{
    enum { N = 4, K = 3 };
    tu_rng r = tu_rng_make(seed + 1);
    cplx a[B * N * N], b[B * N * K], xv[B * N * N];
    fill_c(&r, dt, a, N, N, 3.0, false);
    fill_c(&r, dt, b, N, K, 0.0, false);
    accel_buffer *ba = up_c(e, dt, a, B * N * N), *bb = up_c(e, dt, b, B * N * K);
    accel_array x1, x2, o, oi;
    int64_t s1[3] = {B, N, N}, s2[3] = {B, N, K};
    tu_ok(accel_array_init(&x1, ba, dt, 3, s1));
    tu_ok(accel_array_init(&x2, bb, dt, 3, s2));
    accel_buffer *bo = out_of(e, dt, N, K, &o), *bi = out_of(e, dt, N, N, &oi);
    tu_ok(accel_array_linalg_solve(e->q, &x1, &x2, &o));
    down_c(e, dt, bo, B * N * K, xv);
    for (size_t t = 0; t < B; t++) {
        double res =
            resid(a + t * N * N, false, NULL, xv + t * N * K, false, b + t * N * K, N, N, K);
        RESID("solve", res, N, fro(a + t * N * N, N * N) * fro(xv + t * N * K, N * K));
    }
    tu_ok(accel_array_linalg_inv(e->q, &x1, &oi));
    down_c(e, dt, bi, B * N * N, xv);
    for (size_t t = 0; t < B; t++) {
        double res = resid(a + t * N * N, false, NULL, xv + t * N * N, false, NULL, N, N, N);
        RESID("inv", res, N, fro(a + t * N * N, N * N) * fro(xv + t * N * N, N * N));
    }
    accel_buffer_release(ba), accel_buffer_release(bb), accel_buffer_release(bo),
        accel_buffer_release(bi);
}

/* det by Gaussian elimination with partial pivoting in long double complex. */
static long double complex ref_det(const cplx *a0, size_t n)
{
    long double complex a[MAXN * MAXN], det = 1;
    for (size_t i = 0; i < n * n; i++)
        a[i] = a0[i];
    for (size_t c = 0; c < n; c++) {
        size_t p = c;
        for (size_t i = c + 1; i < n; i++)
            if (cabsl(a[i * n + c]) > cabsl(a[p * n + c]))
                p = i;
        if (p != c) {
            for (size_t j = 0; j < n; j++) {
                long double complex tmp = a[c * n + j];
                a[c * n + j] = a[p * n + j], a[p * n + j] = tmp;
            }
            det = -det;
        }
        det *= a[c * n + c];
        for (size_t i = c + 1; i < n; i++) {
            long double complex f = a[i * n + c] / a[c * n + c];
            for (size_t j = c; j < n; j++)
                a[i * n + j] -= f * a[c * n + j];
        }
    }
    return det;
}

/* det (complex), slogdet (sign of modulus 1, logabsdet real). */
static void det_case(env *e, accel_dtype dt)
{
    enum { N = 4 };
    tu_rng r = tu_rng_make(seed + 2);
    cplx a[B * N * N], d[B], sg[B];
    double la[B];
    fill_c(&r, dt, a, N, N, 0.5, false);
    accel_buffer *ba = up_c(e, dt, a, B * N * N);
    accel_array x, od, os, ol;
    int64_t s[3] = {B, N, N};
    tu_ok(accel_array_init(&x, ba, dt, 3, s));
    accel_buffer *bd = out_of(e, dt, 0, 0, &od), *bs = out_of(e, dt, 0, 0, &os),
                 *bl = out_of(e, real_of(dt), 0, 0, &ol);
    tu_ok(accel_array_linalg_det(e->q, &x, &od));
    tu_ok(accel_array_linalg_slogdet(e->q, &x, &os, &ol));
    down_c(e, dt, bd, B, d), down_c(e, dt, bs, B, sg), down_r(e, real_of(dt), bl, B, la);
    for (size_t t = 0; t < B; t++) {
        cplx want = (cplx)ref_det(a + t * N * N, N);
        double tol = 64.0 * N * eps_of(dt) * cabs(want);
        cr_assert(cabs(d[t] - want) <= tol, "%s det problem %zu: %g%+gi vs %g%+gi (seed %u)",
                  accel_dtype_name(dt), t, creal(d[t]), cimag(d[t]), creal(want), cimag(want),
                  seed);
        cr_assert(fabs(cabs(sg[t]) - 1) <= 8 * eps_of(dt), "|sign| %g", cabs(sg[t]));
        cr_assert(cabs(sg[t] * exp(la[t]) - want) <= tol, "%s slogdet problem %zu",
                  accel_dtype_name(dt), t);
    }
    accel_buffer_release(ba), accel_buffer_release(bd), accel_buffer_release(bs),
        accel_buffer_release(bl);
}

static void qr_case(env *e, accel_dtype dt, size_t m, size_t n, int complete)
{
    tu_rng r = tu_rng_make(seed + 3);
    size_t k = complete ? m : (m < n ? m : n);
    cplx a[B * MAXN * MAXN], qv[B * MAXN * MAXN], rv[B * MAXN * MAXN];
    fill_c(&r, dt, a, m, n, 0.0, false);
    accel_buffer *ba = up_c(e, dt, a, B * m * n);
    accel_array x, oq, orr;
    int64_t s[3] = {B, (int64_t)m, (int64_t)n};
    tu_ok(accel_array_init(&x, ba, dt, 3, s));
    accel_buffer *bq = out_of(e, dt, (int64_t)m, (int64_t)k, &oq),
                 *br = out_of(e, dt, (int64_t)k, (int64_t)n, &orr);
    tu_ok(accel_array_linalg_qr(e->q, &x, complete, &oq, &orr));
    down_c(e, dt, bq, B * m * k, qv), down_c(e, dt, br, B * k * n, rv);
    for (size_t t = 0; t < B; t++) {
        const cplx *q = qv + t * m * k, *rr = rv + t * k * n;
        for (size_t i = 0; i < k; i++)
            for (size_t j = 0; j < i && j < n; j++)
                cr_assert(rr[i * n + j] == 0, "R (%zu, %zu)", i, j);
        RESID("qr Q R", resid(q, false, NULL, rr, false, a + t * m * n, m, k, n), m,
              fro(a + t * m * n, m * n));
        RESID("qr Q^H Q", resid(q, true, NULL, q, false, NULL, k, m, k), m, sqrt((double)k));
    }
    accel_buffer_release(ba), accel_buffer_release(bq), accel_buffer_release(br);
}

/* eigh: real ascending values, unitary vectors; eigvalsh the same values. */
static void eigh_case(env *e, accel_dtype dt)
{
    enum { N = 5 };
    tu_rng r = tu_rng_make(seed + 4);
    cplx a[B * N * N], v[B * N * N];
    double w[B * N], w2[B * N];
    fill_c(&r, dt, a, N, N, 0.0, true);
    accel_buffer *ba = up_c(e, dt, a, B * N * N);
    accel_array x, ow, ov, ow2;
    int64_t s[3] = {B, N, N};
    tu_ok(accel_array_init(&x, ba, dt, 3, s));
    accel_buffer *bw = out_of(e, real_of(dt), N, 0, &ow), *bv = out_of(e, dt, N, N, &ov),
                 *bw2 = out_of(e, real_of(dt), N, 0, &ow2);
    tu_ok(accel_array_linalg_eigh(e->q, &x, &ow, &ov));
    tu_ok(accel_array_linalg_eigvalsh(e->q, &x, &ow2));
    down_r(e, real_of(dt), bw, B * N, w), down_r(e, real_of(dt), bw2, B * N, w2);
    down_c(e, dt, bv, B * N * N, v);
    for (size_t t = 0; t < B; t++) {
        const cplx *vt = v + t * N * N, *at_ = a + t * N * N;
        double an = fro(at_, N * N);
        cplx lhs[N * N], eye[N * N];
        for (size_t i = 0; i < N; i++) {
            if (i)
                cr_assert(w[t * N + i - 1] <= w[t * N + i], "ascending");
            cr_assert(fabs(w[t * N + i] - w2[t * N + i]) <= 64.0 * N * eps_of(dt) * an, "eigvalsh");
            for (size_t j = 0; j < N; j++) {
                cplx s2 = 0;
                for (size_t q = 0; q < N; q++)
                    s2 += at_[i * N + q] * vt[q * N + j];
                lhs[i * N + j] = s2, eye[i * N + j] = i == j;
            }
        }
        /* V diag(w) - A V */
        RESID("eigh A V", resid(vt, false, w + t * N, eye, false, lhs, N, N, N), N, an);
        RESID("eigh V^H V", resid(vt, true, NULL, vt, false, NULL, N, N, N), N, sqrt((double)N));
    }
    accel_buffer_release(ba), accel_buffer_release(bw), accel_buffer_release(bv),
        accel_buffer_release(bw2);
}

/* svd: real descending values, U S Vh = A, unitary U and Vh; svdvals the
 * same values (a wide x goes through its transpose). */
static void svd_case(env *e, accel_dtype dt, size_t m, size_t n, int full)
{
    tu_rng r = tu_rng_make(seed + 5);
    size_t k = m < n ? m : n, ku = full ? m : k, kv = full ? n : k;
    cplx a[B * MAXN * MAXN], u[B * MAXN * MAXN], vh[B * MAXN * MAXN];
    double sv[B * MAXN], sv2[B * MAXN];
    fill_c(&r, dt, a, m, n, 0.0, false);
    accel_buffer *ba = up_c(e, dt, a, B * m * n);
    accel_array x, ou, os, ov, os2;
    int64_t s[3] = {B, (int64_t)m, (int64_t)n};
    tu_ok(accel_array_init(&x, ba, dt, 3, s));
    accel_buffer *bu = out_of(e, dt, (int64_t)m, (int64_t)ku, &ou),
                 *bs = out_of(e, real_of(dt), (int64_t)k, 0, &os),
                 *bv = out_of(e, dt, (int64_t)kv, (int64_t)n, &ov),
                 *bs2 = out_of(e, real_of(dt), (int64_t)k, 0, &os2);
    tu_ok(accel_array_linalg_svd(e->q, &x, full, &ou, &os, &ov));
    tu_ok(accel_array_linalg_svdvals(e->q, &x, &os2));
    down_c(e, dt, bu, B * m * ku, u), down_c(e, dt, bv, B * kv * n, vh);
    down_r(e, real_of(dt), bs, B * k, sv), down_r(e, real_of(dt), bs2, B * k, sv2);
    size_t w = m > n ? m : n;
    for (size_t t = 0; t < B; t++) {
        const cplx *ut = u + t * m * ku, *vt = vh + t * kv * n, *at_ = a + t * m * n;
        double an = fro(at_, m * n);
        cplx uk[MAXN * MAXN], vk[MAXN * MAXN];
        for (size_t i = 0; i < k; i++) {
            cr_assert(sv[t * k + i] >= 0 && (!i || sv[t * k + i - 1] >= sv[t * k + i]), "order");
            cr_assert(fabs(sv[t * k + i] - sv2[t * k + i]) <= 64.0 * w * eps_of(dt) * an,
                      "svdvals");
        }
        /* the first k columns of U and rows of Vh */
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < k; j++)
                uk[i * k + j] = ut[i * ku + j];
        memcpy(vk, vt, k * n * sizeof *vk);
        RESID("svd U S Vh", resid(uk, false, sv + t * k, vk, false, at_, m, k, n), w, an);
        RESID("svd U^H U", resid(ut, true, NULL, ut, false, NULL, ku, m, ku), w, sqrt((double)ku));
        RESID("svd Vh Vh^H", resid(vt, false, NULL, vt, true, NULL, kv, n, kv), w,
              sqrt((double)kv));
    }
    accel_buffer_release(ba), accel_buffer_release(bu), accel_buffer_release(bs),
        accel_buffer_release(bv), accel_buffer_release(bs2);
}

static void every_case(env *e, accel_dtype dt)
{
    cholesky_case(e, dt, 0), cholesky_case(e, dt, 1);
    solve_case(e, dt);
    det_case(e, dt);
    for (int c = 0; c < 2; c++) {
        qr_case(e, dt, 5, 3, c), qr_case(e, dt, 3, 5, c), qr_case(e, dt, 4, 4, c);
        svd_case(e, dt, 5, 3, c), svd_case(e, dt, 3, 5, c), svd_case(e, dt, 4, 4, c);
    }
    eigh_case(e, dt);
}

/* every_case on cpu:0 of a runtime of its own. */
static void every_case_on_cpu(accel_dtype dt)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    env e = {dev, q};
    every_case(&e, dt);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

Test(array_linalg_complex, factorizations_multiply_back_c128)
{
    every_case_on_cpu(ACCEL_C128);
}

Test(array_linalg_complex, factorizations_multiply_back_c64)
{
    every_case_on_cpu(ACCEL_C64);
}

/* Problem 1 of 2 Hermitian but indefinite and singular (rank 1, v v^H):
 * cholesky, inv and solve fail with ACCEL_ERROR_LINALG naming it, out
 * untouched; mixed dtypes and complex eigenvalue outputs refused before
 * anything runs; det of the singular one 0, slogdet (0, -inf). */
Test(array_linalg_complex, not_hpd_singular_and_bad_input)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    env e = {dev, q};
    const cplx v[3] = {1, CMPLX(0, 1), CMPLX(1, -1)};
    cplx h[2 * 9], sentinel[2 * 9];
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 3; j++)
            h[i * 3 + j] = i == j ? 2.0 + (double)i : CMPLX(0.1, i < j ? 0.2 : -0.2),
                      h[9 + i * 3 + j] = v[i] * conj(v[j]);
    for (int i = 0; i < 18; i++)
        sentinel[i] = -7.0;
    accel_buffer *ba = upload(&e, h, sizeof h), *bo = upload(&e, sentinel, sizeof sentinel);
    accel_array x, o, x64, w;
    const int64_t s[3] = {2, 3, 3}, s2[2] = {2, 3};
    tu_ok(accel_array_init(&x, ba, ACCEL_C128, 3, s));
    tu_ok(accel_array_init(&o, bo, ACCEL_C128, 3, s));
    tu_assert_status(accel_array_linalg_cholesky(q, &x, 0, &o), ACCEL_ERROR_LINALG, "cholesky");
    cr_assert(strstr(accel_last_error(), "positive definite") &&
                  strstr(accel_last_error(), "problem 1"),
              "%s", accel_last_error());
    tu_assert_status(accel_array_linalg_inv(q, &x, &o), ACCEL_ERROR_LINALG, "inv");
    cr_assert(strstr(accel_last_error(), "singular") && strstr(accel_last_error(), "problem 1"),
              "%s", accel_last_error());
    tu_assert_status(accel_array_linalg_solve(q, &x, &x, &o), ACCEL_ERROR_LINALG, "solve");
    x64 = x, x64.dtype = ACCEL_C64;
    tu_assert_status(accel_array_linalg_solve(q, &x, &x64, &o), ACCEL_ERROR_DTYPE_MISMATCH,
                     "c128 with c64");
    cr_assert(strstr(accel_last_error(), "x2 is c64"), "%s", accel_last_error());
    tu_ok(accel_array_init(&w, bo, ACCEL_C128, 2, s2)); /* eigenvalues must be float64 */
    tu_assert_status(accel_array_linalg_eigvalsh(q, &x, &w), ACCEL_ERROR_DTYPE_MISMATCH, "w c128");
    cplx back[18];
    tu_ok(accel_queue_read_blocking(q, bo, 0, back, sizeof back));
    cr_assert(memcmp(back, sentinel, sizeof back) == 0, "out changed by failed calls");
    /* det and slogdet of the singular problem: 0 and (0, -inf), no error */
    accel_array od, os, ol;
    accel_buffer *bd = out_of(&e, ACCEL_C128, 0, 0, &od), *bs = out_of(&e, ACCEL_C128, 0, 0, &os),
                 *bl = out_of(&e, ACCEL_F64, 0, 0, &ol);
    od.shape[0] = os.shape[0] = ol.shape[0] = 2;
    tu_ok(accel_array_linalg_det(q, &x, &od));
    tu_ok(accel_array_linalg_slogdet(q, &x, &os, &ol));
    cplx d[2], sg[2];
    double la[2];
    down_c(&e, ACCEL_C128, bd, 2, d), down_c(&e, ACCEL_C128, bs, 2, sg);
    down_r(&e, ACCEL_F64, bl, 2, la);
    cr_assert(cabs(d[1]) <= 1e-14 && cabs(d[0]) > 1, "det %g, %g", cabs(d[0]), cabs(d[1]));
    cr_assert(sg[1] == 0 && isinf(la[1]) && la[1] < 0, "slogdet (%g, %g)", cabs(sg[1]), la[1]);
    accel_buffer_release(ba), accel_buffer_release(bo), accel_buffer_release(bd),
        accel_buffer_release(bs), accel_buffer_release(bl);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

/* Verify mode with the CPU as its own reference: every complex linalg op
 * checked by backward error (conjugate transposes), none mismatched. */
Test(array_linalg_complex, verify_mode_checks_by_backward_error)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_verify_runtime(&dev, &q);
    env e = {dev, q};
    cholesky_case(&e, ACCEL_C128, 1);
    solve_case(&e, ACCEL_C64);
    det_case(&e, ACCEL_C128);
    det_case(&e, ACCEL_C64);
    qr_case(&e, ACCEL_C128, 5, 3, 1);
    eigh_case(&e, ACCEL_C64);
    eigh_case(&e, ACCEL_C128);
    svd_case(&e, ACCEL_C128, 3, 5, 1);
    svd_case(&e, ACCEL_C64, 5, 3, 0);
    assert_all_verified(rt, 12);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

/* The backward-error rule on complex blocks: a true Hermitian Cholesky
 * factor passes, its conjugate (L L^T != A) and a perturbed one fail; a
 * true eigh block passes, one with an eigenvalue off fails. */
Test(array_linalg_complex, tolerance_rule_uses_conjugate_transposes)
{
    /* A = L L^H with L = [[2, 0], [1+i, 3]]: A = [[4, 2-2i], [2+2i, 11]]
     * (column-major; only the lower triangle and the diagonal's real parts
     * are read: 99 and 5i are ignored, as potrf does) */
    const cplx a[4] = {CMPLX(4, 5), CMPLX(2, 2), 99, 11}, l[4] = {2, CMPLX(1, 1), 0, 3};
    const cplx lc[4] = {2, CMPLX(1, -1), 0, 3}, bad[4] = {2, CMPLX(1, 1 + 1e-6), 0, 3};
    accel_tolerance_op d;
    accel_tolerance_op_init(&d);
    d.op = ACCEL_OP_CHOLESKY, d.dtype = ACCEL_C128, d.num_operands = 2;
    d.m = d.n = 2, d.counts[0] = 4, d.counts[1] = 4;
    const void *in[4] = {a, NULL, NULL, NULL};
    accel_compare_result r;
    r.struct_size = sizeof r;
    tu_ok(accel_tolerance_compare(&d, in, l, l, &r));
    cr_assert_eq(r.checked, 1);
    tu_assert_status(accel_tolerance_compare(&d, in, lc, l, &r), ACCEL_ERROR_MISMATCH, "conj");
    tu_assert_status(accel_tolerance_compare(&d, in, bad, l, &r), ACCEL_ERROR_MISMATCH,
                     "perturbed factor");
    cr_assert(r.error > r.bound && r.error > 1e-7, "error %g bound %g", r.error, r.bound);
    /* A = [[2, i], [-i, 2]]: w = (1, 3), V's columns (1, i)/sqrt2, (1, -i)/sqrt2 */
    const double h = sqrt(0.5);
    const cplx e[4] = {2, CMPLX(0, -1), 99, 2};
    cplx blk[6] = {1, 3, h, CMPLX(0, h), h, CMPLX(0, -h)};
    d.op = ACCEL_OP_EIGH, d.flags = ACCEL_OP_FLAG_LINALG_VECTORS, d.counts[1] = 6;
    in[0] = e;
    tu_ok(accel_tolerance_compare(&d, in, blk, blk, &r));
    cplx off[6];
    memcpy(off, blk, sizeof off);
    off[1] = 3.001;
    tu_assert_status(accel_tolerance_compare(&d, in, off, blk, &r), ACCEL_ERROR_MISMATCH,
                     "eigenvalue off");
}
