/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_array_linalg_lapack.c — accel_array_linalg_* (cholesky, solve, inv,
 * det, slogdet, qr, eigh, eigvalsh, svd, svdvals) on every device of the
 * runtime, f64 and f32, batched, against plain double loops of the test's
 * own: each result multiplied back (L L^T = A, A X = B, Q R = A, A V = V
 * diag(w), U S Vh = A), orthogonality, triangles, order, and det against
 * the test's own Gaussian elimination; residuals within 64*n*eps times the
 * norms. Random well-conditioned inputs from a printed seed; singular,
 * not positive-definite and bad-shape cases with outputs untouched;
 * accel_tolerance_compare's backward-error rule accepting a true
 * factorization and refusing a perturbed one. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>

#include "accel/backend.h"
#include "accel/verify.h"
#include "test_array_common.h"

enum { B = 3, MAXN = 6 };

/* A host matrix batch in the dtype's storage and as doubles (rounded). */
typedef struct hmat {
    size_t count;
    double v[B * MAXN * MAXN];
} hmat;

static double eps_of(accel_dtype dt)
{
    return dt == ACCEL_F64 ? 0x1p-52 : 0x1p-23;
}

/* count random values in [-1, 1], plus shift on the diagonal of each
 * n x n matrix (shift > 0: well conditioned; spd: M M^T + shift I). */
static void fill_mat(tu_rng *r, accel_dtype dt, hmat *h, size_t rows, size_t cols, double shift,
                     bool spd)
{
    h->count = B * rows * cols;
    for (size_t i = 0; i < h->count; i++)
        h->v[i] = tu_rng_range(r, -1, 1);
    for (size_t t = 0; t < B; t++) {
        double *a = h->v + t * rows * cols;
        if (spd) {
            double m[MAXN * MAXN];
            memcpy(m, a, rows * cols * sizeof *m);
            for (size_t i = 0; i < rows; i++)
                for (size_t j = 0; j < rows; j++) {
                    double s = 0;
                    for (size_t q = 0; q < rows; q++)
                        s += m[i * rows + q] * m[j * rows + q];
                    a[i * rows + j] = s;
                }
        }
        for (size_t i = 0; i < rows && i < cols; i++)
            a[i * cols + i] += shift;
    }
    for (size_t i = 0; i < h->count; i++)
        h->v[i] = round_to(dt, h->v[i]);
}

static accel_buffer *up(env *e, accel_dtype dt, const hmat *h)
{
    unsigned char raw[sizeof h->v];
    for (size_t i = 0; i < h->count; i++)
        put(raw, dt, i, (val){.f = h->v[i]});
    return upload(e, raw, h->count * accel_dtype_size(dt));
}

/* A new buffer viewed as (B, r, c) (c 0: (B, r); r 0 too: (B,)). */
static accel_buffer *out_of(env *e, accel_dtype dt, int64_t r, int64_t c, accel_array *a)
{
    int64_t s[3] = {B, r, c};
    uint32_t nd = c ? 3 : r ? 2 : 1;
    accel_buffer *b = upload(e, NULL, (size_t)(B * (r ? r : 1) * (c ? c : 1)) * 8);
    tu_ok(accel_array_init(a, b, dt, nd, s));
    return b;
}

static void down(env *e, accel_dtype dt, accel_buffer *b, size_t count, double *v)
{
    unsigned char raw[B * MAXN * MAXN * 8];
    tu_ok(accel_queue_read_blocking(e->q, b, 0, raw, count * accel_dtype_size(dt)));
    for (size_t i = 0; i < count; i++)
        v[i] = get(raw, dt, i).f;
}

/* ||X Y - Z||_F of row-major matrices (X r x q, Y q x c; dy: Y's diagonal
 * only, the vector of its q values) against bound times the norms. */
static double prod_resid(const double *x, const double *y, const double *dg, const double *z,
                         size_t r, size_t q, size_t c)
{
    double s2 = 0;
    for (size_t i = 0; i < r; i++)
        for (size_t j = 0; j < c; j++) {
            double s = -z[i * c + j];
            for (size_t k = 0; k < q; k++)
                s += x[i * q + k] * (dg ? dg[k] : 1.0) * y[k * c + j];
            s2 += s * s;
        }
    return sqrt(s2);
}

static double fro(const double *x, size_t count)
{
    double s = 0;
    for (size_t i = 0; i < count; i++)
        s += x[i] * x[i];
    return sqrt(s);
}

/* ||M^T M - I|| of the r x c row-major M (cols orthonormal). */
static double orth_resid(const double *m, size_t r, size_t c)
{
    double s2 = 0;
    for (size_t i = 0; i < c; i++)
        for (size_t j = 0; j < c; j++) {
            double s = -(double)(i == j);
            for (size_t k = 0; k < r; k++)
                s += m[k * c + i] * m[k * c + j];
            s2 += s * s;
        }
    return sqrt(s2);
}

static void transpose(const double *x, size_t r, size_t c, double *out)
{
    for (size_t i = 0; i < r; i++)
        for (size_t j = 0; j < c; j++)
            out[j * r + i] = x[i * c + j];
}

#define RESID(what, got, n, norm)                                                                  \
    cr_assert((got) <= 64.0 * (double)(n)*eps_of(dt) * (norm) + 1e-300,                            \
              "%s %s problem %zu: residual %.3g vs bound %.3g (seed %u)", accel_dtype_name(dt),    \
              what, t, (got), 64.0 * (double)(n)*eps_of(dt) * (norm), seed)

static const unsigned seed = 27;

static void cholesky_case(env *e, accel_dtype dt, int upper)
{
    enum { N = 5 };
    tu_rng r = tu_rng_make(seed);
    hmat a;
    fill_mat(&r, dt, &a, N, N, 1.0, true);
    accel_buffer *ba = up(e, dt, &a);
    accel_array x, o;
    int64_t s[3] = {B, N, N};
    tu_ok(accel_array_init(&x, ba, dt, 3, s));
    accel_buffer *bo = out_of(e, dt, N, N, &o);
    tu_ok(accel_array_linalg_cholesky(e->q, &x, upper, &o));
    double l[B * N * N], lt[N * N];
    down(e, dt, bo, B * N * N, l);
    for (size_t t = 0; t < B; t++) {
        double *f = l + t * N * N;
        for (size_t i = 0; i < N; i++)
            for (size_t j = 0; j < N; j++)
                if (upper ? i > j : j > i)
                    cr_assert_eq(f[i * N + j], 0.0, "triangle (%zu, %zu)", i, j);
        transpose(f, N, N, lt);
        double res = upper ? prod_resid(lt, f, NULL, a.v + t * N * N, N, N, N)
                           : prod_resid(f, lt, NULL, a.v + t * N * N, N, N, N);
        RESID("cholesky", res, N, fro(a.v + t * N * N, N * N));
    }
    accel_buffer_release(ba), accel_buffer_release(bo);
}

/* solve with x1 viewed transposed (a strided input) and x2 matrices, a
 * vector, and inv. */
static void solve_case(env *e, accel_dtype dt)
{
    enum { N = 4, K = 3 };
    tu_rng r = tu_rng_make(seed + 1);
    hmat a, b;
    fill_mat(&r, dt, &a, N, N, 4.0, false);
    fill_mat(&r, dt, &b, N, K, 0.0, false);
    accel_buffer *ba = up(e, dt, &a), *bb = up(e, dt, &b);
    accel_array x1, x2, v, o, ov, oi;
    int64_t sa[3] = {B, N, N}, sb[3] = {B, N, K}, sv[1] = {N};
    tu_ok(accel_array_init(&x1, ba, dt, 3, sa));
    tu_ok(accel_array_matrix_transpose(&x1, &x1)); /* solves A^T X = B */
    tu_ok(accel_array_init(&x2, bb, dt, 3, sb));
    tu_ok(accel_array_init(&v, bb, dt, 1, sv));
    accel_buffer *bo = out_of(e, dt, N, K, &o), *bv = out_of(e, dt, N, 0, &ov),
                 *bi = out_of(e, dt, N, N, &oi);
    tu_ok(accel_array_linalg_solve(e->q, &x1, &x2, &o));
    tu_ok(accel_array_linalg_solve(e->q, &x1, &v, &ov));
    tu_ok(accel_array_linalg_inv(e->q, &x1, &oi));
    double xs[B * N * K], xv[B * N], xi[B * N * N], at[N * N], eye[N * N] = {0};
    down(e, dt, bo, B * N * K, xs), down(e, dt, bv, B * N, xv), down(e, dt, bi, B * N * N, xi);
    for (size_t i = 0; i < N; i++)
        eye[i * N + i] = 1;
    for (size_t t = 0; t < B; t++) {
        transpose(a.v + t * N * N, N, N, at);
        double na = fro(at, N * N);
        RESID("solve", prod_resid(at, xs + t * N * K, NULL, b.v + t * N * K, N, N, K), N,
              na * fro(xs + t * N * K, N * K));
        RESID("solve vector", prod_resid(at, xv + t * N, NULL, b.v, N, N, 1), N,
              na * fro(xv + t * N, N));
        RESID("inv", prod_resid(at, xi + t * N * N, NULL, eye, N, N, N), N,
              na * fro(xi + t * N * N, N * N));
    }
    accel_buffer_release(ba), accel_buffer_release(bb), accel_buffer_release(bo);
    accel_buffer_release(bv), accel_buffer_release(bi);
}

/* det by the test's own Gaussian elimination with partial pivoting. */
static double ref_det(const double *a0, size_t n)
{
    double a[MAXN * MAXN], det = 1;
    memcpy(a, a0, n * n * sizeof *a);
    for (size_t c = 0; c < n; c++) {
        size_t p = c;
        for (size_t i = c + 1; i < n; i++)
            if (fabs(a[i * n + c]) > fabs(a[p * n + c]))
                p = i;
        if (p != c) {
            det = -det;
            for (size_t j = 0; j < n; j++) {
                double s = a[c * n + j];
                a[c * n + j] = a[p * n + j], a[p * n + j] = s;
            }
        }
        det *= a[c * n + c];
        for (size_t i = c + 1; i < n && a[c * n + c] != 0; i++) {
            double f = a[i * n + c] / a[c * n + c];
            for (size_t j = c; j < n; j++)
                a[i * n + j] -= f * a[c * n + j];
        }
    }
    return det;
}

static void det_case(env *e, accel_dtype dt)
{
    enum { N = 5 };
    tu_rng r = tu_rng_make(seed + 2);
    hmat a;
    fill_mat(&r, dt, &a, N, N, 0.5, false);
    /* problem 2 singular: its last row a copy of its first */
    memcpy(a.v + 2 * N * N + (N - 1) * N, a.v + 2 * N * N, N * sizeof(double));
    accel_buffer *ba = up(e, dt, &a);
    accel_array x, od, os, ol;
    int64_t s[3] = {B, N, N};
    tu_ok(accel_array_init(&x, ba, dt, 3, s));
    accel_buffer *bd = out_of(e, dt, 0, 0, &od), *bs = out_of(e, dt, 0, 0, &os),
                 *bl = out_of(e, dt, 0, 0, &ol);
    tu_ok(accel_array_linalg_det(e->q, &x, &od));
    tu_ok(accel_array_linalg_slogdet(e->q, &x, &os, &ol));
    double d[B], sg[B], la[B];
    down(e, dt, bd, B, d), down(e, dt, bs, B, sg), down(e, dt, bl, B, la);
    for (size_t t = 0; t < B; t++) {
        double want = ref_det(a.v + t * N * N, N), tol = 64.0 * N * eps_of(dt) * 30.0;
        if (t == 2) {
            cr_assert(fabs(d[t]) <= tol, "singular det %g", d[t]);
            cr_assert(sg[t] == 0 || la[t] < log(tol), "singular slogdet (%g, %g)", sg[t], la[t]);
            continue;
        }
        cr_assert(fabs(d[t] - want) <= tol * fabs(want), "%s det %zu: %.17g want %.17g",
                  accel_dtype_name(dt), t, d[t], want);
        cr_assert_eq(sg[t], want < 0 ? -1.0 : 1.0, "sign %zu", t);
        cr_assert(fabs(la[t] - log(fabs(want))) <= tol, "logabsdet %zu: %.17g want %.17g", t, la[t],
                  log(fabs(want)));
    }
    accel_buffer_release(ba), accel_buffer_release(bd), accel_buffer_release(bs);
    accel_buffer_release(bl);
}

static void qr_case(env *e, accel_dtype dt, size_t m, size_t n, int complete)
{
    tu_rng r = tu_rng_make(seed + 3);
    hmat a;
    fill_mat(&r, dt, &a, m, n, 0.0, false);
    size_t k = complete ? m : m < n ? m : n;
    accel_buffer *ba = up(e, dt, &a);
    accel_array x, oq, orr;
    int64_t s[3] = {B, (int64_t)m, (int64_t)n};
    tu_ok(accel_array_init(&x, ba, dt, 3, s));
    accel_buffer *bq = out_of(e, dt, (int64_t)m, (int64_t)k, &oq),
                 *br = out_of(e, dt, (int64_t)k, (int64_t)n, &orr);
    tu_ok(accel_array_linalg_qr(e->q, &x, complete, &oq, &orr));
    double qv[B * MAXN * MAXN], rv[B * MAXN * MAXN];
    down(e, dt, bq, B * m * k, qv), down(e, dt, br, B * k * n, rv);
    for (size_t t = 0; t < B; t++) {
        for (size_t i = 0; i < k; i++)
            for (size_t j = 0; j < i && j < n; j++)
                cr_assert_eq(rv[t * k * n + i * n + j], 0.0, "R (%zu, %zu)", i, j);
        RESID("qr", prod_resid(qv + t * m * k, rv + t * k * n, NULL, a.v + t * m * n, m, k, n),
              m + n, fro(a.v + t * m * n, m * n));
        RESID("qr orthogonality", orth_resid(qv + t * m * k, m, k), m + n, sqrt((double)k));
    }
    accel_buffer_release(ba), accel_buffer_release(bq), accel_buffer_release(br);
}

static void eigh_case(env *e, accel_dtype dt)
{
    enum { N = 6 };
    tu_rng r = tu_rng_make(seed + 4);
    hmat a;
    fill_mat(&r, dt, &a, N, N, 0.0, false);
    for (size_t t = 0; t < B; t++) /* symmetric: the lower triangle mirrored */
        for (size_t i = 0; i < N; i++)
            for (size_t j = i + 1; j < N; j++)
                a.v[t * N * N + i * N + j] = a.v[t * N * N + j * N + i];
    accel_buffer *ba = up(e, dt, &a);
    accel_array x, ow, ov, ow2;
    int64_t s[3] = {B, N, N};
    tu_ok(accel_array_init(&x, ba, dt, 3, s));
    accel_buffer *bw = out_of(e, dt, N, 0, &ow), *bv = out_of(e, dt, N, N, &ov),
                 *bw2 = out_of(e, dt, N, 0, &ow2);
    tu_ok(accel_array_linalg_eigh(e->q, &x, &ow, &ov));
    tu_ok(accel_array_linalg_eigvalsh(e->q, &x, &ow2));
    double w[B * N], v[B * N * N], w2[B * N], av[N * N];
    down(e, dt, bw, B * N, w), down(e, dt, bv, B * N * N, v), down(e, dt, bw2, B * N, w2);
    for (size_t t = 0; t < B; t++) {
        const double *vt = v + t * N * N;
        double na = fro(a.v + t * N * N, N * N);
        for (size_t i = 0; i < N; i++)
            for (size_t j = 0; j < N; j++)
                av[i * N + j] = vt[i * N + j] * w[t * N + j]; /* V diag(w) */
        RESID("eigh", prod_resid(a.v + t * N * N, vt, NULL, av, N, N, N), N, na);
        RESID("eigh orthogonality", orth_resid(vt, N, N), N, sqrt((double)N));
        for (size_t i = 0; i + 1 < N; i++)
            cr_assert(w[t * N + i] <= w[t * N + i + 1], "ascending at %zu", i);
        RESID("eigvalsh", fabs(w2[t * N] - w[t * N]) + fabs(w2[t * N + N - 1] - w[t * N + N - 1]),
              N, na);
    }
    accel_buffer_release(ba), accel_buffer_release(bw), accel_buffer_release(bv);
    accel_buffer_release(bw2);
}

static void svd_case(env *e, accel_dtype dt, size_t m, size_t n, int full)
{
    tu_rng r = tu_rng_make(seed + 5);
    hmat a;
    fill_mat(&r, dt, &a, m, n, 0.0, false);
    size_t mn = m < n ? m : n, ku = full ? m : mn, kv = full ? n : mn;
    accel_buffer *ba = up(e, dt, &a);
    accel_array x, ou, os, ovh, os2;
    int64_t s[3] = {B, (int64_t)m, (int64_t)n};
    tu_ok(accel_array_init(&x, ba, dt, 3, s));
    accel_buffer *bu = out_of(e, dt, (int64_t)m, (int64_t)ku, &ou),
                 *bs = out_of(e, dt, (int64_t)mn, 0, &os),
                 *bvh = out_of(e, dt, (int64_t)kv, (int64_t)n, &ovh),
                 *bs2 = out_of(e, dt, (int64_t)mn, 0, &os2);
    tu_ok(accel_array_linalg_svd(e->q, &x, full, &ou, &os, &ovh));
    tu_ok(accel_array_linalg_svdvals(e->q, &x, &os2));
    double u[B * MAXN * MAXN], sv[B * MAXN], vh[B * MAXN * MAXN], s2[B * MAXN];
    double uk[MAXN * MAXN], vt[MAXN * MAXN];
    down(e, dt, bu, B * m * ku, u), down(e, dt, bs, B * mn, sv);
    down(e, dt, bvh, B * kv * n, vh), down(e, dt, bs2, B * mn, s2);
    for (size_t t = 0; t < B; t++) {
        double na = fro(a.v + t * m * n, m * n);
        for (size_t i = 0; i < m; i++) /* U's first mn columns */
            for (size_t j = 0; j < mn; j++)
                uk[i * mn + j] = u[t * m * ku + i * ku + j];
        RESID("svd", prod_resid(uk, vh + t * kv * n, sv + t * mn, a.v + t * m * n, m, mn, n), m + n,
              na);
        RESID("svd U", orth_resid(u + t * m * ku, m, ku), m + n, sqrt((double)ku));
        transpose(vh + t * kv * n, kv, n, vt);
        RESID("svd Vh", orth_resid(vt, n, kv), m + n, sqrt((double)kv));
        for (size_t i = 0; i < mn; i++) {
            cr_assert(i == 0 || sv[t * mn + i] <= sv[t * mn + i - 1], "descending at %zu", i);
            RESID("svdvals", fabs(s2[t * mn + i] - sv[t * mn + i]), m + n, na);
        }
    }
    accel_buffer_release(ba), accel_buffer_release(bu), accel_buffer_release(bs);
    accel_buffer_release(bvh), accel_buffer_release(bs2);
}

static void every_case(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    static const accel_dtype dts[] = {ACCEL_F64, ACCEL_F32};
    for (size_t d = 0; d < 2; d++) {
        accel_dtype dt = dts[d];
        cholesky_case(&e, dt, 0), cholesky_case(&e, dt, 1);
        solve_case(&e, dt);
        det_case(&e, dt);
        for (int c = 0; c < 2; c++) {
            qr_case(&e, dt, 5, 3, c), qr_case(&e, dt, 3, 5, c), qr_case(&e, dt, 4, 4, c);
            svd_case(&e, dt, 5, 3, c), svd_case(&e, dt, 3, 5, c), svd_case(&e, dt, 4, 4, c);
        }
        eigh_case(&e, dt);
    }
}

Test(array_linalg_lapack, factorizations_multiply_back_on_every_device)
{
    accel_runtime *rt = array_runtime(NULL, NULL);
    tu_for_each_device(rt, every_case, NULL);
    accel_runtime_close(rt);
}

/* A singular matrix for solve and inv, one not positive definite for
 * cholesky: ACCEL_ERROR_LINALG naming the problem, out untouched; bad
 * shapes and dtypes refused before anything runs. */
Test(array_linalg_lapack, singular_not_spd_and_bad_input)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    env e = {dev, q};
    /* problem 1 of 2 is singular (rank 1) and not positive definite */
    double h[2 * 9] = {4, 1, 0, 1, 3, 0, 0, 0, 2, 1, 2, 3, 2, 4, 6, 3, 6, 9};
    double sentinel[2 * 9];
    for (int i = 0; i < 18; i++)
        sentinel[i] = -7.0;
    accel_buffer *ba = upload(&e, h, sizeof h), *bo = upload(&e, sentinel, sizeof sentinel);
    accel_array x, o, o2, xi;
    const int64_t s[3] = {2, 3, 3}, s2[2] = {3, 2};
    tu_ok(accel_array_init(&x, ba, ACCEL_F64, 3, s));
    tu_ok(accel_array_init(&o, bo, ACCEL_F64, 3, s));
    accel_status st = accel_array_linalg_inv(q, &x, &o);
    tu_assert_status(st, ACCEL_ERROR_LINALG, "inv of a singular matrix");
    cr_assert(strstr(accel_last_error(), "singular") && strstr(accel_last_error(), "problem 1"),
              "%s", accel_last_error());
    /* named after the public call, not the queue_finish and op inside it */
    cr_assert(strncmp(accel_last_error(), "accel_array_linalg_inv: problem 1", 33) == 0, "%s",
              accel_last_error());
    tu_assert_status(accel_array_linalg_solve(q, &x, &x, &o), ACCEL_ERROR_LINALG, "solve");
    st = accel_array_linalg_cholesky(q, &x, 0, &o);
    tu_assert_status(st, ACCEL_ERROR_LINALG, "cholesky of a non-SPD matrix");
    cr_assert(strstr(accel_last_error(), "positive definite"), "%s", accel_last_error());
    /* bad input: not square, out's shape, int dtype, 1-D, NULL */
    tu_ok(accel_array_init(&o2, bo, ACCEL_F64, 2, s2));
    tu_assert_status(accel_array_linalg_inv(q, &o2, &o2), ACCEL_ERROR_SHAPE_MISMATCH, "3x2");
    tu_assert_status(accel_array_linalg_det(q, &x, &o), ACCEL_ERROR_SHAPE_MISMATCH, "det out");
    tu_ok(accel_array_init(&xi, ba, ACCEL_I32, 3, s));
    tu_assert_status(accel_array_linalg_eigvalsh(q, &xi, &o), ACCEL_ERROR_DTYPE_MISMATCH, "i32");
    accel_array of = o;
    of.dtype = ACCEL_F32;
    tu_assert_status(accel_array_linalg_inv(q, &x, &of), ACCEL_ERROR_DTYPE_MISMATCH, "f32 out");
    accel_array v = x;
    v.ndim = 1;
    tu_assert_status(accel_array_linalg_inv(q, &v, &o), ACCEL_ERROR_INVALID_ARGUMENT, "1-D");
    tu_assert_status(accel_array_linalg_svd(q, &x, 0, NULL, &o, NULL), ACCEL_ERROR_INVALID_ARGUMENT,
                     "NULL u");
    double back[18];
    tu_ok(accel_queue_read_blocking(q, bo, 0, back, sizeof back));
    cr_assert(memcmp(back, sentinel, sizeof back) == 0, "out changed by failed calls");
    accel_buffer_release(ba), accel_buffer_release(bo);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

/* NaN, +inf or -inf in one matrix of a batch of eigh, eigvalsh, svd and
 * svdvals: ACCEL_ERROR_LINALG naming that matrix (problem 1), outputs
 * untouched, on every device (the core checks before the backend: cuSOLVER
 * answered info 0, success, for an infinity on the H100). */
static void non_finite_on(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    const double bad[3] = {NAN, INFINITY, -INFINITY};
    for (int b = 0; b < 3; b++) {
        double h[2 * 9] = {4, 1, 0, 1, 3, 0, 0, 0, 2, 2, 0, 0, 0, 2, 0, 0, 0, 2};
        h[9 + 4] = bad[b]; /* problem 1's diagonal: in both triangles */
        double sentinel[2 * 9];
        for (int i = 0; i < 18; i++)
            sentinel[i] = -7.0;
        accel_buffer *ba = upload(&e, h, sizeof h), *bo = upload(&e, sentinel, sizeof sentinel);
        accel_buffer *bw = upload(&e, sentinel, sizeof sentinel);
        accel_buffer *bv = upload(&e, sentinel, sizeof sentinel);
        accel_array x, vals, vecs, vh;
        const int64_t s[3] = {2, 3, 3}, sv[2] = {2, 3};
        tu_ok(accel_array_init(&x, ba, ACCEL_F64, 3, s));
        tu_ok(accel_array_init(&vecs, bo, ACCEL_F64, 3, s));
        tu_ok(accel_array_init(&vals, bw, ACCEL_F64, 2, sv));
        tu_ok(accel_array_init(&vh, bv, ACCEL_F64, 3, s));
        for (int f = 0; f < 4; f++) {
            accel_status st = f == 0   ? accel_array_linalg_eigh(q, &x, &vals, &vecs)
                              : f == 1 ? accel_array_linalg_eigvalsh(q, &x, &vals)
                              : f == 2 ? accel_array_linalg_svd(q, &x, 0, &vecs, &vals, &vh)
                                       : accel_array_linalg_svdvals(q, &x, &vals);
            cr_assert_eq(st, ACCEL_ERROR_LINALG, "%s: function %d, value %g: %s (%s)",
                         accel_device_name(dev), f, bad[b], accel_status_name(st),
                         accel_last_error());
            cr_assert(strstr(accel_last_error(), "problem 1 of the batch") &&
                          strstr(accel_last_error(), "NaN or infinity"),
                      "%s", accel_last_error());
        }
        double back[18];
        tu_ok(accel_queue_read_blocking(q, bo, 0, back, sizeof back));
        cr_assert(memcmp(back, sentinel, sizeof back) == 0, "vectors written");
        tu_ok(accel_queue_read_blocking(q, bw, 0, back, sizeof back));
        cr_assert(memcmp(back, sentinel, sizeof back) == 0, "values written");
        tu_ok(accel_queue_read_blocking(q, bv, 0, back, sizeof back));
        cr_assert(memcmp(back, sentinel, sizeof back) == 0, "vh written");
        accel_buffer_release(ba), accel_buffer_release(bo), accel_buffer_release(bw);
        accel_buffer_release(bv);
    }
}

Test(array_linalg_lapack, non_finite_input_is_refused_on_every_device)
{
    accel_runtime *rt = array_runtime(NULL, NULL);
    tu_for_each_device(rt, non_finite_on, NULL);
    accel_runtime_close(rt);
}

/* Outputs that overlap each other or x are refused (array.h: "must not
 * overlap x or each other"), before any work, every output untouched;
 * before this check eigh with eigenvalues inside eigenvectors' elements,
 * or qr with Q and R in one place, returned success with one output
 * written over the other. */
Test(array_linalg_lapack, overlapping_outputs_are_refused)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    env e = {dev, q};
    double h[9] = {4, 1, 2, 1, 5, 3, 2, 3, 6}, sentinel[32];
    for (int i = 0; i < 32; i++)
        sentinel[i] = -7.0;
    accel_buffer *ba = upload(&e, h, sizeof h), *bo = upload(&e, sentinel, sizeof sentinel);
    accel_array x, m, m2, w, d, d2, xo;
    const int64_t s33[2] = {3, 3}, s3[1] = {3};
    tu_ok(accel_array_init(&x, ba, ACCEL_F64, 2, s33));
    tu_ok(accel_array_init(&m, bo, ACCEL_F64, 2, s33));
    m2 = m;
    m2.offset = 8 * 8; /* elements 8..16: meets m's last element */
    tu_ok(accel_array_init(&w, bo, ACCEL_F64, 1, s3));
    tu_ok(accel_array_init(&d, bo, ACCEL_F64, 0, NULL));
    d2 = d;
    xo = x;
    tu_assert_status(accel_array_linalg_eigh(q, &x, &w, &m), ACCEL_ERROR_INVALID_ARGUMENT,
                     "eigh: eigenvalues inside eigenvectors");
    cr_assert(strstr(accel_last_error(), "overlaps"), "%s", accel_last_error());
    tu_assert_status(accel_array_linalg_qr(q, &x, 0, &m, &m2), ACCEL_ERROR_INVALID_ARGUMENT,
                     "qr: Q and R overlap");
    tu_assert_status(accel_array_linalg_svd(q, &x, 0, &m, &w, &m2), ACCEL_ERROR_INVALID_ARGUMENT,
                     "svd: u, s, vh overlap");
    tu_assert_status(accel_array_linalg_slogdet(q, &x, &d, &d2), ACCEL_ERROR_INVALID_ARGUMENT,
                     "slogdet: sign is logabsdet");
    tu_assert_status(accel_array_linalg_inv(q, &x, &xo), ACCEL_ERROR_INVALID_ARGUMENT,
                     "inv: out is x");
    tu_assert_status(accel_array_linalg_solve(q, &x, &m, &m), ACCEL_ERROR_INVALID_ARGUMENT,
                     "solve: out is x2");
    double back[32], hb[9];
    tu_ok(accel_queue_read_blocking(q, bo, 0, back, sizeof back));
    cr_assert(memcmp(back, sentinel, sizeof back) == 0, "an output changed by a refused call");
    tu_ok(accel_queue_read_blocking(q, ba, 0, hb, sizeof hb));
    cr_assert(memcmp(hb, h, sizeof hb) == 0, "x changed by a refused call");
    /* apart, the same calls run: eigenvalues of x against a plain check */
    accel_array w2 = w;
    w2.offset = 16 * 8;
    tu_ok(accel_array_linalg_eigh(q, &x, &w2, &m));
    double ev[3];
    tu_ok(accel_queue_read_blocking(q, bo, 16 * 8, ev, sizeof ev));
    cr_assert(fabs(ev[0] + ev[1] + ev[2] - 15.0) < 1e-12, "trace: %.17g", ev[0] + ev[1] + ev[2]);
    accel_buffer_release(ba), accel_buffer_release(bo);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

/* Verify mode with the CPU as its own reference: every linalg op checked
 * by backward error, none mismatched. */
Test(array_linalg_lapack, verify_mode_checks_by_backward_error)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_verify_runtime(&dev, &q);
    env e = {dev, q};
    cholesky_case(&e, ACCEL_F64, 0);
    solve_case(&e, ACCEL_F32);
    det_case(&e, ACCEL_F64);
    qr_case(&e, ACCEL_F64, 5, 3, 1);
    eigh_case(&e, ACCEL_F32);
    svd_case(&e, ACCEL_F64, 3, 5, 1);
    assert_all_verified(rt, 8);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

/* The backward-error rule itself: a true Cholesky factor (column-major,
 * the op's block) passes; one element off by 1e-6 fails. */
Test(array_linalg_lapack, tolerance_rule_accepts_a_factor_and_refuses_a_perturbed_one)
{
    /* A = L L^T with L = [[2, 0], [1, 3]] (column-major L: 2, 1, 0, 3) */
    const double a[4] = {4, 2, 2, 10}, l[4] = {2, 1, 0, 3};
    double bad[4] = {2, 1 + 1e-6, 0, 3};
    accel_tolerance_op d;
    accel_tolerance_op_init(&d);
    d.op = ACCEL_OP_CHOLESKY, d.dtype = ACCEL_F64, d.num_operands = 2;
    d.m = d.n = 2, d.counts[0] = 4, d.counts[1] = 4;
    const void *in[4] = {a, NULL, NULL, NULL};
    accel_compare_result r;
    r.struct_size = sizeof r;
    tu_ok(accel_tolerance_compare(&d, in, l, l, &r));
    cr_assert_eq(r.checked, 1);
    tu_assert_status(accel_tolerance_compare(&d, in, bad, l, &r), ACCEL_ERROR_MISMATCH,
                     "perturbed factor");
    cr_assert(r.error > r.bound && r.error > 1e-7, "error %g bound %g", r.error, r.bound);
    d.counts[1] = 3; /* a block of the wrong size */
    tu_assert_status(accel_tolerance_compare(&d, in, l, l, &r), ACCEL_ERROR_SHAPE_MISMATCH,
                     "short block");
}

/* k is ignored by the ops that take none (cholesky here): a huge k is not
 * counted in the size check (it refused a 2 x 2 problem as overflowing the
 * address space), and the result is the factor of the matrix. */
Test(array_linalg_lapack, an_ignored_k_is_not_counted)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    env e = {dev, q};
    const double a[4] = {4, 2, 2, 5}; /* column-major SPD; L = [[2, 0], [1, 2]] */
    double zero[4] = {0};
    accel_buffer *ba = upload(&e, a, sizeof a), *bo = upload(&e, zero, sizeof zero);
    tu_ok(accel_linalg_batched(q, ACCEL_OP_CHOLESKY, ACCEL_F64, 1, 2, 2, SIZE_MAX / 2, 0,
                               accel_slice_of(ba, 0, 4), accel_slice_of(NULL, 0, 0),
                               accel_slice_of(bo, 0, 4)));
    double l[4];
    tu_ok(accel_queue_read_blocking(q, bo, 0, l, sizeof l));
    cr_assert(l[0] == 2 && l[1] == 1 && l[3] == 2, "L = [%g %g; %g %g] (column-major)", l[0], l[2],
              l[1], l[3]);
    accel_buffer_release(ba), accel_buffer_release(bo);
    accel_queue_release(q);
    accel_runtime_close(rt);
}
