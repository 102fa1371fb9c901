/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/arrays/linalg.c — the Array API's linalg extension on views
 * (accel_array_linalg_*): cholesky, solve, inv, det, slogdet, qr, eigh,
 * eigvalsh, svd, svdvals, batched over the leading axes. Each call:
 *   1. checks every view and shape (nothing enqueued on error);
 *   2. copies the matrices into one scratch buffer on q's device in
 *      column-major order (accel_array_copy into a transposed view: the
 *      layout LAPACK and cuSOLVER take);
 *   3. enqueues one LINALG op (accel_linalg_batched: fallback, verify by
 *      backward error, trace) and finishes q, so a singular or not
 *      positive-definite matrix is returned here, outputs untouched;
 *   4. copies the op's output block into the outputs through transposed
 *      views (tril/triu where a triangle is wanted) and releases the
 *      scratch buffer (which waits for those copies).
 * So these calls return when their work is done (they synchronize q).
 * svd of a wide matrix factors its transpose (cuSOLVER's gesvd takes
 * m >= n only) and swaps U and V^T on the way out (A^T = U' S V'^H gives
 * A = conj(V') S U'^T: U = VT'^T and V^H = U'^T, plain transposes for a
 * complex A too). Complex matrices (complex64, complex128) take the same
 * path; the op's real results (eigenvalues, singular values, log|det|)
 * come as complex values of imaginary part 0 (backend.h), read out through
 * a view of their real parts (real_part). */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/backend.h"

#include "arrays/arrays_internal.h"
#include "base/status.h"
#include "base/struct_size.h"

/* One call: the op, its dtype, the batch shape and the problem's sizes,
 * and the scratch buffer [A | B | the op's output block] (elements). */
typedef struct lplan {
    const char *fn;
    accel_queue *q;
    accel_op_code op;
    accel_dtype dt;
    uint32_t nb;
    int64_t bshape[ACCEL_ARRAY_MAX_NDIM];
    size_t batch, m, n, k;
    uint32_t flags;
    accel_buffer *tmp;
    size_t b_off, o_off;
    accel_linalg_layout l;
} lplan;

/* x: a valid float32/float64/complex64/complex128 view of at least 2
 * dimensions. */
static accel_status check_matrices(const char *fn, const char *name, const accel_array *x)
{
    accel_status st = accel__array_check(fn, name, x, NULL);
    if (st != ACCEL_SUCCESS)
        return st;
    if (x->ndim < 2)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: %s has %u dimensions; it needs matrices in its last two", fn, name,
                           x->ndim);
    if (x->dtype != ACCEL_F32 && x->dtype != ACCEL_F64 && x->dtype != ACCEL_C64 &&
        x->dtype != ACCEL_C128)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH,
                           "%s: %s is %s; linalg takes float32, float64, complex64 and complex128",
                           fn, name, accel_dtype_name(x->dtype));
    return ACCEL_SUCCESS;
}

static bool is_complex(accel_dtype dt)
{
    return dt == ACCEL_C64 || dt == ACCEL_C128;
}

/* The real dtype of dt's precision (float32 for complex64, float64 for
 * complex128; a real dt itself). */
static accel_dtype real_of(accel_dtype dt)
{
    return dt == ACCEL_C64 ? ACCEL_F32 : dt == ACCEL_C128 ? ACCEL_F64 : dt;
}

/* An output: valid, of dtype dt (p's, or its real dtype for eigenvalues,
 * singular values, logabsdet) and of shape batch + tail[nt]. */
static accel_status check_out_as(const lplan *p, const char *name, const accel_array *o,
                                 accel_dtype dt, uint32_t nt, int64_t t0, int64_t t1)
{
    accel_status st = accel__array_check(p->fn, name, o, NULL);
    if (st == ACCEL_SUCCESS && o->dtype != dt)
        st = accel__fail(ACCEL_ERROR_DTYPE_MISMATCH,
                         "%s: %s is %s but must be %s (the input is %s)", p->fn, name,
                         accel_dtype_name(o->dtype), accel_dtype_name(dt), accel_dtype_name(p->dt));
    if (st != ACCEL_SUCCESS)
        return st;
    int64_t shape[ACCEL_ARRAY_MAX_NDIM];
    if (p->nb + nt > ACCEL_ARRAY_MAX_NDIM)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s would need %u dimensions", p->fn,
                           name, p->nb + nt);
    memcpy(shape, p->bshape, p->nb * sizeof *shape);
    shape[p->nb] = t0, shape[p->nb + 1] = t1;
    return accel__array_shape_is(p->fn, name, o, p->nb + nt, shape);
}

/* An output of p's dtype. */
static accel_status check_out(const lplan *p, const char *name, const accel_array *o, uint32_t nt,
                              int64_t t0, int64_t t1)
{
    return check_out_as(p, name, o, p->dt, nt, t0, t1);
}

/* An output of p's real dtype (p's dtype itself when real). */
static accel_status check_out_real(const lplan *p, const char *name, const accel_array *o,
                                   uint32_t nt, int64_t t0, int64_t t1)
{
    return check_out_as(p, name, o, real_of(p->dt), nt, t0, t1);
}

/* v's real parts: for a complex v a view of its real dtype at the same
 * bytes, strides doubled (in the real dtype's elements); v itself else. */
static accel_array real_part(accel_array v)
{
    if (!is_complex(v.dtype))
        return v;
    v.dtype = real_of(v.dtype);
    for (uint32_t d = 0; d < v.ndim; d++)
        v.strides[d] *= 2;
    return v;
}

/* A complex v's imaginary parts (its real parts one real element on). */
static accel_array imag_part(accel_array v)
{
    accel_array r = real_part(v);
    r.offset += accel_dtype_size(r.dtype);
    return r;
}

/* The creation functions (eye, full, tril, triu) take real dtypes only: a
 * complex out is filled as its real and imaginary parts. */
static accel_status fill_any(accel_queue *q, const accel_array *o, double value, bool eye)
{
    accel_array re = real_part(*o), im = imag_part(*o);
    accel_status st = eye ? accel_array_eye(q, 0, &re) : accel_array_full(q, &re, value);
    return st == ACCEL_SUCCESS && is_complex(o->dtype) ? accel_array_full(q, &im, 0.0) : st;
}

/* out = the lower (upper) triangle of l, for a complex l part by part. */
static accel_status triangle(accel_queue *q, const accel_array *l, bool upper,
                             const accel_array *out)
{
    accel_array lr = real_part(*l), orr = real_part(*out);
    accel_status st = upper ? accel_array_triu(q, &lr, 0, &orr) : accel_array_tril(q, &lr, 0, &orr);
    if (st != ACCEL_SUCCESS || !is_complex(l->dtype))
        return st;
    accel_array li = imag_part(*l), oi = imag_part(*out);
    return upper ? accel_array_triu(q, &li, 0, &oi) : accel_array_tril(q, &li, 0, &oi);
}

/* Each output (NULL: not asked) on q's device and apart from x, x2 (NULL:
 * none) and the other outputs: array.h's "must not overlap x or each
 * other", checked before anything is enqueued. */
static accel_status check_apart(const lplan *p, const accel_array *x, const accel_array *x2,
                                uint32_t nout, const accel_array *const *outs,
                                const char *const *names)
{
    for (uint32_t k = 0; k < nout; k++) {
        if (!outs[k])
            continue;
        const accel_array *a[6] = {outs[k], x};
        const char *nm[6] = {names[k], x2 ? "x1" : "x"};
        uint32_t n = 2;
        if (x2)
            a[n] = x2, nm[n++] = "x2";
        for (uint32_t j = 0; j < nout && n < 6; j++)
            if (outs[j] && j != k)
                a[n] = outs[j], nm[n++] = names[j];
        accel__extent ext[6];
        accel_runtime *rt;
        accel_status st = accel__array_io_any(p->fn, p->q, n, a, nm, ext, &rt, false);
        if (st != ACCEL_SUCCESS)
            return st;
    }
    return ACCEL_SUCCESS;
}

/* The plan of x's matrices (batch = x's leading axes). */
static accel_status plan_of(lplan *p, const char *fn, accel_queue *q, accel_op_code op,
                            const accel_array *x)
{
    memset(p, 0, sizeof *p);
    p->fn = fn, p->q = q, p->op = op;
    accel_status st = check_matrices(fn, "x", x);
    if (st != ACCEL_SUCCESS)
        return st;
    p->dt = x->dtype;
    p->nb = x->ndim - 2;
    memcpy(p->bshape, x->shape, p->nb * sizeof *p->bshape);
    p->batch = 1;
    for (uint32_t d = 0; d < p->nb; d++)
        p->batch *= (size_t)x->shape[d];
    p->m = (size_t)x->shape[x->ndim - 2], p->n = (size_t)x->shape[x->ndim - 1];
    if (op != ACCEL_OP_QR && op != ACCEL_OP_SVD && p->m != p->n)
        return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                           "%s: x's matrices are %zu x %zu; this function takes square ones", fn,
                           p->m, p->n);
    return ACCEL_SUCCESS;
}

/* A view of the scratch buffer: batch axes (problems per elements apart)
 * then the trailing axes nt (shape t, strides s) at element off. */
static accel_array tview(const lplan *p, size_t off, size_t per, uint32_t nt, const int64_t *t,
                         const int64_t *s)
{
    accel_array v;
    accel__struct_init(&v, sizeof v);
    v.dtype = p->dt;
    v.buffer = p->tmp;
    v.offset = off * accel_dtype_size(p->dt);
    v.ndim = p->nb + nt;
    int64_t stride = (int64_t)per;
    for (uint32_t d = p->nb; d-- > 0;) {
        v.shape[d] = p->bshape[d];
        v.strides[d] = stride;
        stride *= p->bshape[d];
    }
    for (uint32_t d = 0; d < nt; d++)
        v.shape[p->nb + d] = t[d], v.strides[p->nb + d] = s[d];
    return v;
}

/* Region r of the output block as rows x cols column-major matrices
 * (transposed: read as their transposes, cols x rows). */
static accel_array region(const lplan *p, uint32_t r, size_t rows, size_t cols, bool transposed)
{
    int64_t t[2] = {(int64_t)rows, (int64_t)cols}, s[2] = {1, (int64_t)rows};
    if (transposed)
        t[0] = (int64_t)cols, t[1] = (int64_t)rows, s[0] = (int64_t)rows, s[1] = 1;
    return tview(p, p->o_off + p->l.off[r], p->l.size[r], 2, t, s);
}

/* The scratch buffer, and x (then x2) copied into it column-major
 * (x_t: x holds the transposes of the matrices to factor). */
static accel_status stage(lplan *p, const accel_array *x, bool x_t, const accel_array *x2)
{
    size_t es = accel_dtype_size(p->dt), a = p->batch * p->m * p->n,
           b = p->op == ACCEL_OP_SOLVE ? p->batch * p->n * p->k : 0;
    p->l = accel_linalg_layout_of(p->op, p->batch, p->m, p->n, p->k);
    p->b_off = a, p->o_off = a + b;
    accel_status st =
        accel_buffer_create(accel_queue_device(p->q), (p->o_off + p->l.total) * es, &p->tmp);
    if (st != ACCEL_SUCCESS)
        return st;
    /* x's (i, j) into A(i, j) at j*m + i; x_t: A(j, i) at i*m + j */
    int64_t t[2] = {x->shape[x->ndim - 2], x->shape[x->ndim - 1]};
    int64_t s[2] = {x_t ? (int64_t)p->m : 1, x_t ? 1 : (int64_t)p->m};
    accel_array va = tview(p, 0, p->m * p->n, 2, t, s);
    st = accel_array_copy(p->q, x, &va);
    if (st == ACCEL_SUCCESS && x2) {
        int64_t t2[2] = {(int64_t)p->n, (int64_t)p->k}, s2[2] = {1, (int64_t)p->n};
        accel_array vb = tview(p, p->b_off, p->n * p->k, 2, t2, s2);
        st = accel_array_copy(p->q, x2, &vb);
    }
    return st;
}

/* The iterations of eigh and svd (syevd, gesvd) do not converge on NaN or
 * infinity: LAPACK's scaling step reports an illegal argument and leaves
 * NaN; cuSOLVER answered info 0 (success) on the H100, an unchecked result.
 * So the staged input is checked here, for every backend, and refused as
 * NumPy (LinAlgError) and PyTorch ("the input matrix contained non-finite
 * values") refuse it: the max and min of each problem's values (both parts
 * of a complex matrix), as max propagates NaN, +inf shows in the max and
 * -inf in the min, and finite values give neither. Synchronizes q. */
static accel_status check_finite(const lplan *p)
{
    accel_dtype rdt = is_complex(p->dt) ? real_of(p->dt) : p->dt;
    size_t es = accel_dtype_size(rdt), per = p->m * p->n * (is_complex(p->dt) ? 2 : 1);
    if (p->batch == 0 || per == 0)
        return ACCEL_SUCCESS;
    accel_array x, ext;
    accel__struct_init(&x, sizeof x);
    x.dtype = rdt, x.buffer = p->tmp, x.ndim = 2;
    x.shape[0] = (int64_t)p->batch, x.shape[1] = (int64_t)per;
    x.strides[0] = (int64_t)per, x.strides[1] = 1;
    accel_buffer *hb = NULL;
    double *host = malloc(2 * p->batch * es);
    accel_status st = host ? accel_buffer_create(accel_queue_device(p->q), 2 * p->batch * es, &hb)
                           : ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    accel__struct_init(&ext, sizeof ext);
    ext.dtype = rdt, ext.buffer = hb, ext.ndim = 1;
    ext.shape[0] = (int64_t)p->batch, ext.strides[0] = 1;
    if (st == ACCEL_SUCCESS)
        st = accel_array_reduce(p->q, ACCEL_ARRAY_REDUCE_MAX, &x, 2u, 0, &ext);
    ext.offset = p->batch * es;
    if (st == ACCEL_SUCCESS)
        st = accel_array_reduce(p->q, ACCEL_ARRAY_REDUCE_MIN, &x, 2u, 0, &ext);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_read_blocking(p->q, hb, 0, host, 2 * p->batch * es);
    for (size_t t = 0; st == ACCEL_SUCCESS && t < p->batch; t++) {
        size_t u = t + p->batch; /* its min */
        double hi = es == 8 ? host[t] : (double)((const float *)host)[t];
        double lo = es == 8 ? host[u] : (double)((const float *)host)[u];
        if (!isfinite(hi) || !isfinite(lo))
            st = accel__fail(ACCEL_ERROR_LINALG,
                             "%s: problem %zu of the batch: x holds NaN or infinity, on which "
                             "the iteration cannot converge",
                             p->fn, t);
    }
    free(host);
    if (hb)
        accel__array_temps_done(p->q, &hb, 1, st);
    return st;
}

/* The op on the staged matrices, then q finished: its error (a singular
 * matrix, ...) is this call's (q is finished only after a successful
 * enqueue: finish would clear the backend's message). */
static accel_status linalg_run(const lplan *p)
{
    bool solve = p->op == ACCEL_OP_SOLVE;
    accel_slice a = accel_slice_of(p->tmp, 0, p->batch * p->m * p->n);
    accel_slice b = accel_slice_of(p->tmp, p->b_off, solve ? p->batch * p->n * p->k : 0);
    accel_slice o = accel_slice_of(p->tmp, p->o_off, p->l.total);
    accel_status st =
        p->op == ACCEL_OP_EIGH || p->op == ACCEL_OP_SVD ? check_finite(p) : ACCEL_SUCCESS;
    if (st == ACCEL_SUCCESS)
        st =
            accel_linalg_batched(p->q, p->op, p->dt, p->batch, p->m, p->n, p->k, p->flags, a, b, o);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_finish(p->q);
    return accel__fail_as(st, p->fn);
}

/* Release the scratch buffer (waits for the copies out) and pass st on. */
static accel_status done(lplan *p, accel_status st)
{
    accel__array_temps_done(p->q, &p->tmp, 1, st);
    p->tmp = NULL;
    return st;
}

/* x staged (transposed where x_t) and the op run on it. */
static accel_status stage_run(lplan *p, const accel_array *x, bool x_t)
{
    accel_status st = stage(p, x, x_t, NULL);
    return st == ACCEL_SUCCESS ? linalg_run(p) : st;
}

/* The op's first output, n values a matrix (eigenvalues, singular values),
 * copied into vals. */
static accel_status copy_values(const lplan *p, accel_queue *q, const accel_array *vals)
{
    int64_t t[1] = {(int64_t)p->n}, s[1] = {1};
    accel_array v = real_part(tview(p, p->o_off + p->l.off[0], p->n, 1, t, s));
    return accel_array_copy(q, &v, vals);
}

/* Every element of the batch: the identity where both sizes are nonzero
 * (empty factorizations: the full U, V^T, Q of a 0-wide matrix). */
static accel_status eye_if(accel_queue *q, const accel_array *o)
{
    if (!o || o->shape[o->ndim - 1] == 0 || o->shape[o->ndim - 2] == 0)
        return ACCEL_SUCCESS;
    return fill_any(q, o, 0.0, true);
}

accel_status accel_array_linalg_cholesky(accel_queue *q, const accel_array *x, int upper,
                                         const accel_array *out)
{
    lplan p;
    accel_status st = plan_of(&p, "accel_array_linalg_cholesky", q, ACCEL_OP_CHOLESKY, x);
    if (st == ACCEL_SUCCESS)
        st = check_out(&p, "out", out, 2, (int64_t)p.n, (int64_t)p.n);
    if (st == ACCEL_SUCCESS)
        st = check_apart(&p, x, NULL, 1, &out, (const char *const[]){"out"});
    if (st != ACCEL_SUCCESS || p.batch * p.n == 0)
        return st;
    st = stage_run(&p, x, false);
    if (st == ACCEL_SUCCESS) {
        accel_array l = region(&p, 0, p.n, p.n, upper != 0);
        st = triangle(q, &l, upper != 0, out);
    }
    /* complex: U = L^H, the transpose's conjugate */
    if (st == ACCEL_SUCCESS && upper && is_complex(p.dt))
        st = accel_array_unary(q, ACCEL_ARRAY_CONJ, out, out);
    return done(&p, st);
}

/* solve and inv: x1's batch broadcast with x2's (none for inv: B = I). */
static accel_status solve_plan(lplan *p, const accel_array *x1, const accel_array *x2,
                               const accel_array *out, bool *vec)
{
    accel_status st = ACCEL_SUCCESS;
    *vec = x2 && x2->ndim == 1;
    if (x2)
        st = *vec ? accel__array_check(p->fn, "x2", x2, NULL) : check_matrices(p->fn, "x2", x2);
    if (st == ACCEL_SUCCESS && x2 && x2->dtype != p->dt)
        st = accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: x2 is %s but x1 is %s", p->fn,
                         accel_dtype_name(x2->dtype), accel_dtype_name(p->dt));
    if (st == ACCEL_SUCCESS && x2 && x2->shape[*vec ? 0 : x2->ndim - 2] != (int64_t)p->n)
        st = accel__fail(ACCEL_ERROR_SHAPE_MISMATCH, "%s: x1 is %zu x %zu but x2 has %lld rows",
                         p->fn, p->n, p->n, (long long)x2->shape[*vec ? 0 : x2->ndim - 2]);
    if (st != ACCEL_SUCCESS)
        return st;
    p->k = !x2 ? p->n : *vec ? 1 : (size_t)x2->shape[x2->ndim - 1];
    if (x2 && !*vec) { /* the batch: x1's and x2's broadcast */
        accel_array b1 = *x1, b2 = *x2;
        b1.ndim -= 2, b2.ndim -= 2;
        const accel_array *bs[2] = {&b1, &b2};
        static const char *const names[2] = {"x1", "x2"};
        st = accel__broadcast(p->fn, 2, bs, names, &p->nb, p->bshape);
        p->batch = 1;
        for (uint32_t d = 0; d < p->nb; d++)
            p->batch *= (size_t)p->bshape[d];
    }
    if (st == ACCEL_SUCCESS)
        st = *vec ? check_out(p, "out", out, 1, (int64_t)p->n, 0)
                  : check_out(p, "out", out, 2, (int64_t)p->n, (int64_t)p->k);
    if (st == ACCEL_SUCCESS)
        st = check_apart(p, x1, x2, 1, &out, (const char *const[]){"out"});
    return st;
}

static accel_status solve_or_inv(const char *fn, accel_queue *q, const accel_array *x1,
                                 const accel_array *x2, const accel_array *out)
{
    lplan p;
    bool vec = false;
    accel_status st = plan_of(&p, fn, q, ACCEL_OP_SOLVE, x1);
    if (st == ACCEL_SUCCESS)
        st = solve_plan(&p, x1, x2, out, &vec);
    if (st != ACCEL_SUCCESS || p.batch * p.n * p.k == 0)
        return st;
    /* x2 as (..., n, k) views broadcast to the batch (a vector: k = 1) */
    accel_array b;
    if (x2) {
        b = *x2;
        if (vec)
            b.ndim = 2, b.shape[1] = 1, b.strides[1] = 0;
    }
    accel_array a1 = *x1;
    st = stage(&p, &a1, false, x2 ? &b : NULL);
    if (st == ACCEL_SUCCESS && !x2) {
        int64_t t[2] = {(int64_t)p.n, (int64_t)p.n}, s[2] = {1, (int64_t)p.n};
        accel_array vb = tview(&p, p.b_off, p.n * p.n, 2, t, s);
        st = fill_any(q, &vb, 0.0, true);
    }
    if (st == ACCEL_SUCCESS)
        st = linalg_run(&p);
    if (st == ACCEL_SUCCESS) {
        accel_array xo = region(&p, 0, p.n, p.k, false);
        if (vec)
            xo.ndim--;
        st = accel_array_copy(q, &xo, out);
    }
    return done(&p, st);
}

accel_status accel_array_linalg_solve(accel_queue *q, const accel_array *x1, const accel_array *x2,
                                      const accel_array *out)
{
    static const char fn[] = "accel_array_linalg_solve";
    if (!x2)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: x2 is NULL", fn);
    return solve_or_inv(fn, q, x1, x2, out);
}

accel_status accel_array_linalg_inv(accel_queue *q, const accel_array *x, const accel_array *out)
{
    return solve_or_inv("accel_array_linalg_inv", q, x, NULL, out);
}

/* slogdet's (sign, logabsdet, det) of every matrix into the views asked
 * for (NULL: not wanted). */
static accel_status determinants(const char *fn, accel_queue *q, const accel_array *x,
                                 const accel_array *sign, const accel_array *logabs,
                                 const accel_array *det)
{
    lplan p;
    const accel_array *outs[3] = {sign, logabs, det};
    static const char *const names[3] = {"sign", "logabsdet", "out"};
    accel_status st = plan_of(&p, fn, q, ACCEL_OP_SLOGDET, x);
    for (int i = 0; i < 3 && st == ACCEL_SUCCESS; i++)
        if (outs[i])
            st = i == 1 ? check_out_real(&p, names[i], outs[i], 0, 0, 0)
                        : check_out(&p, names[i], outs[i], 0, 0, 0);
    if (st == ACCEL_SUCCESS)
        st = check_apart(&p, x, NULL, 3, outs, names);
    if (st != ACCEL_SUCCESS || p.batch == 0)
        return st;
    static const double empty[3] = {1.0, 0.0, 1.0}; /* of a 0 x 0 matrix */
    if (p.n == 0) {
        for (int i = 0; i < 3 && st == ACCEL_SUCCESS; i++)
            if (outs[i])
                st = fill_any(q, outs[i], empty[i], false);
        return st;
    }
    st = stage_run(&p, x, false);
    for (int i = 0; i < 3 && st == ACCEL_SUCCESS; i++) {
        if (!outs[i])
            continue;
        accel_array v = tview(&p, p.o_off + (size_t)i, 3, 0, NULL, NULL);
        if (i == 1)
            v = real_part(v);
        st = accel_array_copy(q, &v, outs[i]);
    }
    return done(&p, st);
}

accel_status accel_array_linalg_det(accel_queue *q, const accel_array *x, const accel_array *out)
{
    return determinants("accel_array_linalg_det", q, x, NULL, NULL, out);
}

accel_status accel_array_linalg_slogdet(accel_queue *q, const accel_array *x,
                                        const accel_array *sign, const accel_array *logabsdet)
{
    static const char fn[] = "accel_array_linalg_slogdet";
    if (!sign || !logabsdet)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: sign or logabsdet is NULL", fn);
    return determinants(fn, q, x, sign, logabsdet, NULL);
}

accel_status accel_array_linalg_qr(accel_queue *q, const accel_array *x, int complete,
                                   const accel_array *q_out, const accel_array *r_out)
{
    lplan p;
    accel_status st = plan_of(&p, "accel_array_linalg_qr", q, ACCEL_OP_QR, x);
    if (st != ACCEL_SUCCESS)
        return st;
    p.k = complete ? p.m : (p.m < p.n ? p.m : p.n);
    st = check_out(&p, "q_out", q_out, 2, (int64_t)p.m, (int64_t)p.k);
    if (st == ACCEL_SUCCESS)
        st = check_out(&p, "r_out", r_out, 2, (int64_t)p.k, (int64_t)p.n);
    if (st == ACCEL_SUCCESS)
        st = check_apart(&p, x, NULL, 2, (const accel_array *const[]){q_out, r_out},
                         (const char *const[]){"q_out", "r_out"});
    if (st != ACCEL_SUCCESS || p.batch == 0)
        return st;
    if (p.m == 0 || p.n == 0)
        return eye_if(q, q_out); /* R has no elements */
    st = stage_run(&p, x, false);
    if (st == ACCEL_SUCCESS) {
        accel_array qv = region(&p, 0, p.m, p.k, false);
        st = accel_array_copy(q, &qv, q_out);
    }
    if (st == ACCEL_SUCCESS) { /* R: the first k rows of H's upper triangle */
        accel_array h = region(&p, 1, p.m, p.n, false);
        h.shape[p.nb] = (int64_t)p.k;
        st = triangle(q, &h, true, r_out);
    }
    return done(&p, st);
}

static accel_status eigh_impl(const char *fn, accel_queue *q, const accel_array *x,
                              const accel_array *w, const accel_array *v)
{
    lplan p;
    accel_status st = plan_of(&p, fn, q, ACCEL_OP_EIGH, x);
    if (st == ACCEL_SUCCESS)
        st = check_out_real(&p, "eigenvalues", w, 1, (int64_t)p.n, 0);
    if (st == ACCEL_SUCCESS && v)
        st = check_out(&p, "eigenvectors", v, 2, (int64_t)p.n, (int64_t)p.n);
    if (st == ACCEL_SUCCESS)
        st = check_apart(&p, x, NULL, 2, (const accel_array *const[]){w, v},
                         (const char *const[]){"eigenvalues", "eigenvectors"});
    if (st != ACCEL_SUCCESS || p.batch * p.n == 0)
        return st;
    p.flags = v ? ACCEL_OP_FLAG_LINALG_VECTORS : 0;
    st = stage_run(&p, x, false);
    if (st == ACCEL_SUCCESS)
        st = copy_values(&p, q, w);
    if (st == ACCEL_SUCCESS && v) {
        accel_array vv = region(&p, 1, p.n, p.n, false);
        st = accel_array_copy(q, &vv, v);
    }
    return done(&p, st);
}

accel_status accel_array_linalg_eigh(accel_queue *q, const accel_array *x,
                                     const accel_array *eigenvalues,
                                     const accel_array *eigenvectors)
{
    static const char fn[] = "accel_array_linalg_eigh";
    if (!eigenvectors)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: eigenvectors is NULL", fn);
    return eigh_impl(fn, q, x, eigenvalues, eigenvectors);
}

accel_status accel_array_linalg_eigvalsh(accel_queue *q, const accel_array *x,
                                         const accel_array *out)
{
    return eigh_impl("accel_array_linalg_eigvalsh", q, x, out, NULL);
}

/* svd's output shapes: U (m, ku), S (min), Vh (kv, n). */
static accel_status svd_check(const lplan *p, size_t m, size_t n, int full, const accel_array *u,
                              const accel_array *s, const accel_array *vh)
{
    size_t mn = m < n ? m : n;
    accel_status st = check_out_real(p, "s", s, 1, (int64_t)mn, 0);
    if (st == ACCEL_SUCCESS && u)
        st = check_out(p, "u", u, 2, (int64_t)m, (int64_t)(full ? m : mn));
    if (st == ACCEL_SUCCESS && vh)
        st = check_out(p, "vh", vh, 2, (int64_t)(full ? n : mn), (int64_t)n);
    return st;
}

static accel_status svd_impl(const char *fn, accel_queue *q, const accel_array *x, int full,
                             const accel_array *u, const accel_array *s, const accel_array *vh)
{
    lplan p;
    accel_status st = plan_of(&p, fn, q, ACCEL_OP_SVD, x);
    size_t m = p.m, n = p.n;
    if (st == ACCEL_SUCCESS)
        st = svd_check(&p, m, n, full, u, s, vh);
    if (st == ACCEL_SUCCESS)
        st = check_apart(&p, x, NULL, 3, (const accel_array *const[]){u, s, vh},
                         (const char *const[]){"u", "s", "vh"});
    if (st != ACCEL_SUCCESS || p.batch == 0)
        return st;
    if (m == 0 || n == 0) {
        st = eye_if(q, u);
        return st == ACCEL_SUCCESS ? eye_if(q, vh) : st;
    }
    /* a wide A: factor A^T = U' S V'^T, so U = V'^T^T and V^T = U'^T */
    bool wide = m < n;
    p.m = wide ? n : m, p.n = wide ? m : n;
    p.k = full ? p.m : p.n;
    p.flags = u ? ACCEL_OP_FLAG_LINALG_VECTORS : 0;
    st = stage_run(&p, x, wide);
    if (st == ACCEL_SUCCESS)
        st = copy_values(&p, q, s);
    if (st == ACCEL_SUCCESS && u) {
        accel_array uv = wide ? region(&p, 2, p.n, p.n, true) : region(&p, 1, p.m, p.k, false);
        st = accel_array_copy(q, &uv, u);
    }
    if (st == ACCEL_SUCCESS && vh) {
        accel_array vv = wide ? region(&p, 1, p.m, p.k, true) : region(&p, 2, p.n, p.n, false);
        st = accel_array_copy(q, &vv, vh);
    }
    return done(&p, st);
}

accel_status accel_array_linalg_svd(accel_queue *q, const accel_array *x, int full_matrices,
                                    const accel_array *u, const accel_array *s,
                                    const accel_array *vh)
{
    static const char fn[] = "accel_array_linalg_svd";
    if (!u || !vh)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: u or vh is NULL", fn);
    return svd_impl(fn, q, x, full_matrices, u, s, vh);
}

accel_status accel_array_linalg_svdvals(accel_queue *q, const accel_array *x,
                                        const accel_array *out)
{
    return svd_impl("accel_array_linalg_svdvals", q, x, 0, NULL, out, NULL);
}
