/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* linalg.c — the LAPACK ops (kind ACCEL_OP_KIND_LINALG: cholesky, solve,
 * slogdet, qr, eigh, svd) through the LAPACK that OpenBLAS carries: its
 * Fortran entries (spotrf_, dgetrf_, cpotrf_, zgetrf_, ...) bound by dlsym
 * on the very library blas.c opened, never through the process's global
 * symbols. Complex dtypes take the c/z routines (ungqr for orgqr, heevd
 * for syevd, gesvd with its real workspace); their real results (W, S,
 * log|det|, PIV) are widened in place to complex values of imaginary part
 * 0, as backend.h's layout says. The
 * matrices arrive column-major (backend.h), LAPACK's own layout, so each
 * problem is a copy of A into the output block and one or two calls; the
 * problems of a batch run one after another, each on OpenBLAS's threads.
 * Character arguments pass their hidden Fortran lengths (gfortran's size_t
 * after the last argument). */
#include <complex.h>
#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

/* re + im i with both parts as given (an infinity or NaN part stays in its
 * place, unlike re + im * I); C11's CMPLX, which glibc defines for GCC only
 * (clang builds left it an undefined symbol of the plugin). */
static double complex cmk(double re, double im)
{
    union {
        double complex z;
        double p[2];
    } u = {.p = {re, im}};
    return u.z;
}

/* Fortran LAPACK; T arrays as void * (float, double or their complex by
 * the dtype), R arrays (heevd's W and rwork, gesvd's S and rwork) of T's
 * real type. */
typedef void (*potrf_fn)(const char *, const int *, void *, const int *, int *, size_t);
typedef void (*getrf_fn)(const int *, const int *, void *, const int *, int *, int *);
typedef void (*getrs_fn)(const char *, const int *, const int *, const void *, const int *,
                         const int *, void *, const int *, int *, size_t);
typedef void (*geqrf_fn)(const int *, const int *, void *, const int *, void *, void *, const int *,
                         int *);
typedef void (*orgqr_fn)(const int *, const int *, const int *, void *, const int *, const void *,
                         void *, const int *, int *);
typedef void (*syevd_fn)(const char *, const char *, const int *, void *, const int *, void *,
                         void *, const int *, int *, const int *, int *, size_t, size_t);
typedef void (*gesvd_fn)(const char *, const char *, const int *, const int *, void *, const int *,
                         void *, void *, const int *, void *, const int *, void *, const int *,
                         int *, size_t, size_t);
typedef void (*heevd_fn)(const char *, const char *, const int *, void *, const int *, void *,
                         void *, const int *, void *, const int *, int *, const int *, int *,
                         size_t, size_t);
typedef void (*cgesvd_fn)(const char *, const char *, const int *, const int *, void *, const int *,
                          void *, void *, const int *, void *, const int *, void *, const int *,
                          void *, int *, size_t, size_t);

typedef struct lapack {
    potrf_fn potrf;
    getrf_fn getrf;
    getrs_fn getrs;
    geqrf_fn geqrf;
    orgqr_fn orgqr;
    syevd_fn syevd;   /* real only */
    gesvd_fn gesvd;   /* real only */
    heevd_fn heevd;   /* complex only */
    cgesvd_fn cgesvd; /* complex only: gesvd with rwork */
} lapack;

/* [0] f32 (s...), [1] f64 (d...), [2] c64 (c...), [3] c128 (z...) */
static lapack g_lapack[4];
static char g_lapack_error[768];
static pthread_once_t g_lapack_once = PTHREAD_ONCE_INIT;

static void bind_one(void *h, const char *name, void *fn, size_t size)
{
    void *p = dlsym(h, name);
    if (!p && !g_lapack_error[0])
        snprintf(g_lapack_error, sizeof g_lapack_error, "%s lacks LAPACK's %s",
                 accel_cpu__blas()->path, name);
    if (p)
        memcpy(fn, &p, size);
}

static void bind_lapack(void)
{
    const accel_cpu_blas *b = accel_cpu__blas();
    if (!b->ok) {
        snprintf(g_lapack_error, sizeof g_lapack_error, "%s", b->error);
        return;
    }
    static const char prefix[4] = {'s', 'd', 'c', 'z'};
    for (int t = 0; t < 4; t++) {
        lapack *l = &g_lapack[t];
        char name[16];
#define BIND(F, REAL, CPLX)                                                                        \
    snprintf(name, sizeof name, "%c%s_", prefix[t], t < 2 ? REAL : CPLX);                          \
    bind_one(b->handle, name, &l->F, sizeof l->F)
        BIND(potrf, "potrf", "potrf");
        BIND(getrf, "getrf", "getrf");
        BIND(getrs, "getrs", "getrs");
        BIND(geqrf, "geqrf", "geqrf");
        BIND(orgqr, "orgqr", "ungqr");
        if (t < 2) {
            BIND(syevd, "syevd", "");
            BIND(gesvd, "gesvd", "");
        } else {
            BIND(heevd, "", "heevd");
            BIND(cgesvd, "", "gesvd");
        }
#undef BIND
    }
}

/* One op's context: the bound functions, sizes as LAPACK's ints, the
 * element size and that of its real part (rs: es / 2 for a complex dtype),
 * the output block's layout and the message buffer. */
typedef struct lctx {
    const accel_cpu_op *op;
    const lapack *f;
    int m, n, k;
    size_t es, rs;
    bool cplx;
    accel_linalg_layout l;
    char *msg;
    size_t msg_size;
} lctx;

/* Element i of region r of problem t in the output block. */
static void *region(const lctx *c, uint32_t r, size_t t)
{
    return (char *)c->op->ptr[c->op->op == ACCEL_OP_SOLVE ? 2 : 1] +
           (c->l.off[r] + t * c->l.size[r]) * c->es;
}

static const void *input(const lctx *c, uint32_t i, size_t t, size_t size)
{
    return (const char *)c->op->ptr[i] + t * size * c->es;
}

static int32_t fail(const lctx *c, int32_t status, const char *fmt, size_t t, int info)
{
    char what[160];
    snprintf(what, sizeof what, fmt, info);
    snprintf(c->msg, c->msg_size, "%s: problem %zu of the batch: %s", c->op->name, t, what);
    return status;
}

/* A workspace query's answer: a T (or T's real type) in the first bytes
 * of q (its real part for a complex T). LAPACK writes WORK(1) as a whole
 * T, so q must hold one: 16 bytes for complex128 (an 8-byte double here
 * let zgeqrf/zungqr's queries write past it on the stack, and a Debug
 * build's complete c128 QR came out wrong). */
static double queried(const lctx *c, const double *q)
{
    float f;
    memcpy(&f, q, sizeof f);
    return c->rs == 4 ? (double)f : *q;
}

/* The n reals of T's real type at p rewritten in place as n T values of
 * imaginary part 0 (a complex dtype's real results; nothing for a real
 * one). From the last down, so no real is overwritten before it is read. */
static void widen(const lctx *c, void *p, size_t n)
{
    for (size_t i = n; c->cplx && i-- > 0;) {
        if (c->rs == 4) {
            float *f = p, v = f[i];
            f[2 * i] = v, f[2 * i + 1] = 0;
        } else {
            double *d = p, v = d[i];
            d[2 * i] = v, d[2 * i + 1] = 0;
        }
    }
}

/* Element i of a T array as a double complex. */
static double complex elem(const lctx *c, const void *p, size_t i)
{
    if (!c->cplx)
        return c->es == 4 ? (double)((const float *)p)[i] : ((const double *)p)[i];
    return c->rs == 4 ? (double complex)((const float complex *)p)[i]
                      : ((const double complex *)p)[i];
}

/* v stored as element i of a T array (its real part for a real T). */
static void store(const lctx *c, void *p, size_t i, double complex v)
{
    if (!c->cplx && c->es == 4)
        ((float *)p)[i] = (float)creal(v);
    else if (!c->cplx)
        ((double *)p)[i] = creal(v);
    else if (c->rs == 4)
        ((float complex *)p)[i] = (float complex)v;
    else
        ((double complex *)p)[i] = v;
}

/* A workspace of want elements (at least 1) and its length as LAPACK's int. */
static void *work_of(const lctx *c, double want, int *lwork)
{
    *lwork = want < 1 ? 1 : want > INT_MAX ? INT_MAX : (int)want;
    return malloc((size_t)*lwork * c->es);
}

/* Whether problem t's A (n x n, column-major) holds a NaN in either part:
 * anywhere, or (lower) where row >= column, the triangle potrf reads. */
static bool a_has_nan(const lctx *c, size_t t, bool lower)
{
    size_t n = (size_t)c->n;
    const void *a = input(c, 0, t, n * n);
    for (size_t j = 0; j < n; j++)
        for (size_t i = lower ? j : 0; i < n; i++) {
            double complex v = elem(c, a, j * n + i);
            if (isnan(creal(v)) || isnan(cimag(v)))
                return true;
        }
    return false;
}

static int32_t run_cholesky(const lctx *c, size_t t)
{
    int info = 0;
    void *l = region(c, 0, t);
    memcpy(l, input(c, 0, t, c->l.size[0]), c->l.size[0] * c->es);
    /* a NaN is no positive value: refused, as the CUDA backend does, where
     * LAPACK's potrf may carry on and leave some of L finite */
    if (a_has_nan(c, t, true))
        return fail(c, ACCEL_ERROR_LINALG,
                    "the matrix holds NaN in the triangle it is read from (not positive "
                    "definite)",
                    t, 0);
    c->f->potrf("L", &c->n, l, &c->n, &info, 1);
    if (info > 0)
        return fail(c, ACCEL_ERROR_LINALG,
                    "the matrix is not positive definite (its leading minor of order %d is not; "
                    "LAPACK potrf)",
                    t, info);
    return info ? fail(c, ACCEL_ERROR_INTERNAL, "potrf info %d", t, info) : ACCEL_SUCCESS;
}

/* getrf of A's copy into the LU region; *info as LAPACK's. */
static int32_t lu(const lctx *c, size_t t, int *ipiv, int *info)
{
    void *lu = region(c, 1, t);
    memcpy(lu, input(c, 0, t, c->l.size[1]), c->l.size[1] * c->es);
    c->f->getrf(&c->n, &c->n, lu, &c->n, ipiv, info);
    return *info < 0 ? fail(c, ACCEL_ERROR_INTERNAL, "getrf info %d", t, *info) : ACCEL_SUCCESS;
}

/* X of A X = B. A NaN in A makes every x NaN, as each x_i of A^-1 B
 * depends on every value of A; LAPACK leaves some finite (getrs of
 * [[nan, 1], [3, 2]] gives x = [nan, 1]), and cuSOLVER's getrf drops the
 * NaN altogether, so both backends say it here. */
static int32_t run_solve(const lctx *c, size_t t, int *ipiv)
{
    int info = 0;
    int32_t rc = lu(c, t, ipiv, &info);
    if (rc == ACCEL_SUCCESS && info > 0)
        return fail(c, ACCEL_ERROR_LINALG,
                    "the matrix is singular (U(i,i) of its LU factorization is exactly zero "
                    "for i = %d; LAPACK getrf)",
                    t, info);
    if (rc != ACCEL_SUCCESS)
        return rc;
    void *x = region(c, 0, t);
    memcpy(x, input(c, 1, t, c->l.size[0]), c->l.size[0] * c->es);
    c->f->getrs("N", &c->n, &c->k, region(c, 1, t), &c->n, ipiv, x, &c->n, &info, 1);
    if (info)
        return fail(c, ACCEL_ERROR_INTERNAL, "getrs info %d", t, info);
    if (a_has_nan(c, t, false))
        for (size_t i = 0; i < c->l.size[0]; i++)
            store(c, x, i, cmk(NAN, NAN));
    return ACCEL_SUCCESS;
}

/* A pivot's factor of slogdet's sign, as NumPy's: 0 for an exact zero; a
 * real pivot's sign (+1 for NaN, which leaves log|det| NaN; +-1 for an
 * infinity, log|det| inf); u/|u| for a complex one (NaN for a NaN or
 * infinite part, NumPy's too). */
static double complex pivot_sign(const lctx *c, double complex u, double a)
{
    if (a == 0)
        return 0.0;
    if (!c->cplx)
        return creal(u) < 0 ? -1.0 : 1.0;
    return u / a;
}

static int32_t run_slogdet(const lctx *c, size_t t, int *ipiv)
{
    int info = 0;
    int32_t rc = lu(c, t, ipiv, &info);
    if (rc != ACCEL_SUCCESS)
        return rc;
    /* det = prod U(i,i) times the permutation's sign (one swap per ipiv[i]
     * != i+1); sign = det / |det| (u / |u| per pivot: of modulus 1 for a
     * complex dtype); an exact zero pivot gives (0, -inf) as NumPy's
     * slogdet. */
    double complex sign = 1.0;
    double logabs = 0.0, det = 1.0;
    const void *lu = region(c, 1, t);
    for (int i = 0; i < c->n; i++) {
        double complex u = elem(c, lu, (size_t)i * (size_t)c->n + (size_t)i);
        double a = cabs(u);
        sign *= pivot_sign(c, u, a) * (ipiv[i] != i + 1 ? -1.0 : 1.0);
        logabs += log(a);
        det *= a;
    }
    if (sign == 0.0)
        logabs = -INFINITY;
    void *sl = region(c, 0, t), *piv = region(c, 2, t);
    for (int i = 0; i < c->n; i++)
        store(c, piv, (size_t)i, ipiv[i]);
    store(c, sl, 0, sign);
    store(c, sl, 1, logabs);
    /* sign * det by parts: a zero part stays 0 when det overflowed */
    store(c, sl, 2,
          cmk(creal(sign) == 0 ? 0 : creal(sign) * det, cimag(sign) == 0 ? 0 : cimag(sign) * det));
    return ACCEL_SUCCESS;
}

static int32_t run_qr(const lctx *c, size_t t)
{
    int info = 0, lwork = -1, mn = c->m < c->n ? c->m : c->n;
    void *q = region(c, 0, t), *h = region(c, 1, t), *tau = region(c, 2, t);
    double q1[2] = {0, 0}, q2[2] = {0, 0}; /* workspace queries: one T, complex too */
    memcpy(h, input(c, 0, t, c->l.size[1]), c->l.size[1] * c->es);
    c->f->geqrf(&c->m, &c->n, h, &c->m, tau, q1, &lwork, &info);
    c->f->orgqr(&c->m, &c->k, &mn, q, &c->m, tau, q2, &lwork, &info);
    void *work = work_of(c, fmax(queried(c, q1), queried(c, q2)), &lwork);
    if (!work)
        return fail(c, ACCEL_ERROR_OUT_OF_HOST_MEMORY, "no host memory for %d work elements", t,
                    lwork);
    c->f->geqrf(&c->m, &c->n, h, &c->m, tau, work, &lwork, &info);
    /* Q starts as H's first min(m,n) columns (the reflectors): contiguous. */
    if (info == 0) {
        memcpy(q, h, (size_t)c->m * (size_t)mn * c->es);
        c->f->orgqr(&c->m, &c->k, &mn, q, &c->m, tau, work, &lwork, &info);
    }
    free(work);
    return info ? fail(c, ACCEL_ERROR_INTERNAL, "geqrf/orgqr info %d", t, info) : ACCEL_SUCCESS;
}

/* eigh's LAPACK info as a status (routine: syevd or heevd). */
static int32_t eigh_info(const lctx *c, size_t t, int info, const char *routine)
{
    char fmt[96];
    if (info > 0) {
        snprintf(fmt, sizeof fmt, "the eigenvalue iteration did not converge (LAPACK %s info %%d)",
                 routine);
        return fail(c, ACCEL_ERROR_LINALG, fmt, t, info);
    }
    snprintf(fmt, sizeof fmt, "%s info %%d", routine);
    return info ? fail(c, ACCEL_ERROR_INTERNAL, fmt, t, info) : ACCEL_SUCCESS;
}

/* Complex eigh (heevd 'L'): W written as reals then widened. */
static int32_t heevd(const lctx *c, const char *jobz, void *v, void *w)
{
    int info = 0, lwork = -1, lrwork = -1, liwork = -1, iq = 0;
    double q[2] = {0, 0}, rq = 0; /* WORK(1) is a complex T */
    c->f->heevd(jobz, "L", &c->n, v, &c->n, w, q, &lwork, &rq, &lrwork, &iq, &liwork, &info, 1, 1);
    void *work = work_of(c, queried(c, q), &lwork);
    double rwant = queried(c, &rq);
    lrwork = rwant < 1 ? 1 : rwant > INT_MAX ? INT_MAX : (int)rwant;
    liwork = iq < 1 ? 1 : iq;
    void *rwork = malloc((size_t)lrwork * c->rs);
    int *iwork = malloc((size_t)liwork * sizeof *iwork);
    if (work && rwork && iwork)
        c->f->heevd(jobz, "L", &c->n, v, &c->n, w, work, &lwork, rwork, &lrwork, iwork, &liwork,
                    &info, 1, 1);
    else
        info = INT_MIN;
    free(work);
    free(rwork);
    free(iwork);
    widen(c, w, (size_t)c->n);
    return info;
}

static int32_t run_eigh(const lctx *c, size_t t)
{
    int info = 0, lwork = -1, liwork = -1, iq = 0;
    double q = 0;
    const char *jobz = c->op->flags & ACCEL_OP_FLAG_LINALG_VECTORS ? "V" : "N";
    void *w = region(c, 0, t), *v = region(c, 1, t);
    memcpy(v, input(c, 0, t, c->l.size[1]), c->l.size[1] * c->es);
    if (c->cplx) {
        info = heevd(c, jobz, v, w);
        if (info == INT_MIN)
            return fail(c, ACCEL_ERROR_OUT_OF_HOST_MEMORY,
                        "no host memory for heevd's workspaces (n = %d)", t, c->n);
        return eigh_info(c, t, info, "heevd");
    }
    c->f->syevd(jobz, "L", &c->n, v, &c->n, w, &q, &lwork, &iq, &liwork, &info, 1, 1);
    void *work = work_of(c, queried(c, &q), &lwork);
    liwork = iq < 1 ? 1 : iq;
    int *iwork = malloc((size_t)liwork * sizeof *iwork);
    if (work && iwork)
        c->f->syevd(jobz, "L", &c->n, v, &c->n, w, work, &lwork, iwork, &liwork, &info, 1, 1);
    free(work);
    free(iwork);
    if (!work || !iwork)
        return fail(c, ACCEL_ERROR_OUT_OF_HOST_MEMORY, "no host memory for %d work elements", t,
                    lwork);
    return eigh_info(c, t, info, "syevd");
}

static int32_t run_svd(const lctx *c, size_t t)
{
    int info = 0, lwork = -1;
    double q[2] = {0, 0}; /* WORK(1): a complex T for cgesvd */
    bool vec = (c->op->flags & ACCEL_OP_FLAG_LINALG_VECTORS) != 0;
    const char *jobu = !vec ? "N" : c->k == c->m ? "A" : "S", *jobvt = vec ? "A" : "N";
    void *s = region(c, 0, t), *u = region(c, 1, t), *vt = region(c, 2, t), *a = region(c, 3, t);
    memcpy(a, input(c, 0, t, c->l.size[3]), c->l.size[3] * c->es);
    /* complex: gesvd's rwork of 5 min(m, n) reals (m >= n here) */
    void *rwork = c->cplx ? malloc(5 * (size_t)c->n * c->rs) : NULL;
    if (c->cplx && rwork)
        c->f->cgesvd(jobu, jobvt, &c->m, &c->n, a, &c->m, s, u, &c->m, vt, &c->n, q, &lwork, rwork,
                     &info, 1, 1);
    else if (!c->cplx)
        c->f->gesvd(jobu, jobvt, &c->m, &c->n, a, &c->m, s, u, &c->m, vt, &c->n, q, &lwork, &info,
                    1, 1);
    void *work = c->cplx && !rwork ? NULL : work_of(c, queried(c, q), &lwork);
    if (!work) {
        free(rwork);
        return fail(c, ACCEL_ERROR_OUT_OF_HOST_MEMORY, "no host memory for %d work elements", t,
                    lwork);
    }
    if (c->cplx)
        c->f->cgesvd(jobu, jobvt, &c->m, &c->n, a, &c->m, s, u, &c->m, vt, &c->n, work, &lwork,
                     rwork, &info, 1, 1);
    else
        c->f->gesvd(jobu, jobvt, &c->m, &c->n, a, &c->m, s, u, &c->m, vt, &c->n, work, &lwork,
                    &info, 1, 1);
    free(work);
    free(rwork);
    widen(c, s, (size_t)c->n);
    if (info > 0)
        return fail(c, ACCEL_ERROR_LINALG,
                    "the SVD's QR iteration did not converge (%d superdiagonals; LAPACK gesvd)", t,
                    info);
    return info ? fail(c, ACCEL_ERROR_INTERNAL, "gesvd info %d", t, info) : ACCEL_SUCCESS;
}

/* Problem t's input holds only finite values. The iterative methods (syevd,
 * gesvd) do not converge on NaN or infinity: LAPACK's scaling step reports
 * an illegal argument on stderr and leaves NaN. Refused as NumPy
 * (LinAlgError) and PyTorch (linalg.svd: "the input matrix contained
 * non-finite values") do. */
static int32_t check_finite(const lctx *c, size_t t, size_t count)
{
    const void *x = input(c, 0, t, count);
    for (size_t i = 0; i < count; i++) {
        double complex v = elem(c, x, i);
        if (!isfinite(creal(v)) || !isfinite(cimag(v)))
            return fail(c, ACCEL_ERROR_LINALG,
                        "x holds NaN or infinity (element %d of the matrix): the iteration "
                        "cannot converge",
                        t, (int)i);
    }
    return ACCEL_SUCCESS;
}

static int32_t run_one(const lctx *c, size_t t, int *ipiv)
{
    if (c->op->op == ACCEL_OP_EIGH || c->op->op == ACCEL_OP_SVD) {
        int32_t rc = check_finite(c, t, c->l.size[c->op->op == ACCEL_OP_EIGH ? 1 : 3]);
        if (rc != ACCEL_SUCCESS)
            return rc;
    }
    switch (c->op->op) {
    case ACCEL_OP_CHOLESKY:
        return run_cholesky(c, t);
    case ACCEL_OP_SOLVE:
        return run_solve(c, t, ipiv);
    case ACCEL_OP_SLOGDET:
        return run_slogdet(c, t, ipiv);
    case ACCEL_OP_QR:
        return run_qr(c, t);
    case ACCEL_OP_EIGH:
        return run_eigh(c, t);
    case ACCEL_OP_SVD:
        return run_svd(c, t);
    default:
        return fail(c, ACCEL_ERROR_INTERNAL, "op %d is not a linalg op", t, (int)c->op->op);
    }
}

int32_t accel_cpu__linalg(const accel_cpu_op *op, int threads, char *msg, size_t msg_size)
{
    (void)threads; /* OpenBLAS's own threads run each problem */
    pthread_once(&g_lapack_once, bind_lapack);
    if (g_lapack_error[0]) {
        snprintf(msg, msg_size, "%s: %s", op->name, g_lapack_error);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    bool cplx = op->dtype == ACCEL_C64 || op->dtype == ACCEL_C128;
    size_t es = accel_backend_dtype_size(op->dtype);
    lctx c = {op,
              &g_lapack[(op->dtype == ACCEL_F64 || op->dtype == ACCEL_C128) + 2 * cplx],
              (int)op->m,
              (int)op->n,
              (int)op->k,
              es,
              cplx ? es / 2 : es,
              cplx,
              accel_linalg_layout_of(op->op, op->batch_count, op->m, op->n, op->k),
              msg,
              msg_size};
    int *ipiv = malloc((op->n ? op->n : 1) * sizeof *ipiv);
    if (!ipiv) {
        snprintf(msg, msg_size, "%s: out of host memory for %zu pivots", op->name, op->n);
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    int32_t rc = ACCEL_SUCCESS;
    for (size_t t = 0; t < op->batch_count && rc == ACCEL_SUCCESS; t++)
        rc = run_one(&c, t, ipiv);
    free(ipiv);
    return rc;
}
