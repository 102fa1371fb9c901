/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* linalg.cu — the LAPACK ops (kind ACCEL_OP_KIND_LINALG) through cuSOLVER's
 * dense API: its 64-bit generic routines (Xpotrf, Xgetrf/Xgetrs, Xgeqrf,
 * Xsyevd, Xgesvd) and the typed orgqr. cuSOLVER is opened at run time on the
 * first linalg op (as cuBLAS is by cublas_loader.cu), so a machine without
 * it still loads the plugin and these ops fall back. The matrices are
 * column-major (backend.h), cuSOLVER's layout: per problem of the batch, a
 * device copy of A into the output block and the routine in place (a loop
 * over the batch: cuSOLVER's batched routines cover only some of these ops
 * and sizes). Each op waits for its stream at the end to read LAPACK's info
 * of every problem, so a singular or not positive-definite matrix is
 * ACCEL_ERROR_LINALG from op_execute itself. slogdet's sign, log and det
 * come from a one-thread kernel per problem over the LU factors. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cusolverDn.h>

#include "cuda_internal.h"
#include "dl_open.h"

#define ACCEL_STR2(x) #x
#define ACCEL_STR(x) ACCEL_STR2(x)
#define CUSOLVER_SONAME "libcusolver.so." ACCEL_STR(CUSOLVER_VER_MAJOR)

namespace
{

struct solver_api {
    int loaded;
    char error[256];
    decltype(&cusolverDnCreate) create;
    decltype(&cusolverDnDestroy) destroy;
    decltype(&cusolverDnSetStream) set_stream;
    decltype(&cusolverDnCreateParams) create_params;
    decltype(&cusolverDnDestroyParams) destroy_params;
    decltype(&cusolverDnXpotrf_bufferSize) potrf_size;
    decltype(&cusolverDnXpotrf) potrf;
    decltype(&cusolverDnXgetrf_bufferSize) getrf_size;
    decltype(&cusolverDnXgetrf) getrf;
    decltype(&cusolverDnXgetrs) getrs;
    decltype(&cusolverDnXgeqrf_bufferSize) geqrf_size;
    decltype(&cusolverDnXgeqrf) geqrf;
    decltype(&cusolverDnSorgqr_bufferSize) sorgqr_size;
    decltype(&cusolverDnDorgqr_bufferSize) dorgqr_size;
    decltype(&cusolverDnSorgqr) sorgqr;
    decltype(&cusolverDnDorgqr) dorgqr;
    decltype(&cusolverDnXsyevd_bufferSize) syevd_size;
    decltype(&cusolverDnXsyevd) syevd;
    decltype(&cusolverDnXgesvd_bufferSize) gesvd_size;
    decltype(&cusolverDnXgesvd) gesvd;
};

solver_api g_api;
pthread_once_t g_once = PTHREAD_ONCE_INIT;

template <typename F> bool resolve(void *lib, const char *name, F *out)
{
    return accel_cuda__dl_sym(lib, CUSOLVER_SONAME, name, out, g_api.error, sizeof g_api.error);
}

void load_once(void)
{
    void *lib = accel_cuda__dl_open(CUSOLVER_SONAME, g_api.error, sizeof g_api.error);
    if (!lib)
        return;
#define R(F, N) resolve(lib, #N, &g_api.F)
    if (R(create, cusolverDnCreate) && R(destroy, cusolverDnDestroy) &&
        R(set_stream, cusolverDnSetStream) && R(create_params, cusolverDnCreateParams) &&
        R(destroy_params, cusolverDnDestroyParams) && R(potrf_size, cusolverDnXpotrf_bufferSize) &&
        R(potrf, cusolverDnXpotrf) && R(getrf_size, cusolverDnXgetrf_bufferSize) &&
        R(getrf, cusolverDnXgetrf) && R(getrs, cusolverDnXgetrs) &&
        R(geqrf_size, cusolverDnXgeqrf_bufferSize) && R(geqrf, cusolverDnXgeqrf) &&
        R(sorgqr_size, cusolverDnSorgqr_bufferSize) &&
        R(dorgqr_size, cusolverDnDorgqr_bufferSize) && R(sorgqr, cusolverDnSorgqr) &&
        R(dorgqr, cusolverDnDorgqr) && R(syevd_size, cusolverDnXsyevd_bufferSize) &&
        R(syevd, cusolverDnXsyevd) && R(gesvd_size, cusolverDnXgesvd_bufferSize) &&
        R(gesvd, cusolverDnXgesvd))
        g_api.loaded = 1;
#undef R
}

/* *FLAG = 1 where one of the LEN values of A is NaN (left alone if none). */
template <typename T> __global__ void any_nan_kernel(const T *a, int64_t len, int *flag)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < len;
         i += (int64_t)gridDim.x * blockDim.x)
        if (a[i] != a[i])
            *flag = 1;
}

/* *FLAG = 1 where a value of the lower triangle (row >= column) of the
 * N x N column-major A, what potrf reads, is NaN. */
template <typename T> __global__ void nan_lower_kernel(const T *a, int64_t n, int *flag)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n * n;
         i += (int64_t)gridDim.x * blockDim.x)
        if (i % n >= i / n && a[i] != a[i])
            *flag = 1;
}

/* Where *FLAG: the LEN values of X NaN. */
template <typename T> __global__ void nan_result_kernel(T *x, int64_t len, const int *flag)
{
    if (!*flag)
        return;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < len;
         i += (int64_t)gridDim.x * blockDim.x)
        x[i] = (T)NAN;
}

/* sign, log|det|, det from problem t's LU and 1-based pivots; PIV as T.
 * A NaN anywhere in A (*HAS_NAN) makes log|det| and det NaN, as LAPACK's
 * elimination carries it into U; cuSOLVER's getrf need not (issue 26's
 * GPU run: det([[1, nan], [3, 2]]) came back a number). */
template <typename T>
__global__ void slogdet_kernel(const T *lu, const int64_t *ipiv, int64_t n, const int *has_nan,
                               T *sl, T *piv)
{
    double sign = 1, logabs = *has_nan ? NAN : 0, det = *has_nan ? NAN : 1;
    for (int64_t i = 0; i < n; i++) {
        double u = (double)lu[i * n + i];
        /* NumPy's: a NaN pivot keeps the sign (log|det| NaN), an infinite
         * one counts its sign (log|det| inf), only 0 makes it 0 */
        sign *= (u < 0 ? -1.0 : u == 0 ? 0.0 : 1.0) * (ipiv[i] != i + 1 ? -1.0 : 1.0);
        logabs += log(fabs(u));
        det *= fabs(u);
        piv[i] = (T)ipiv[i];
    }
    sl[0] = (T)sign;
    sl[1] = (T)(sign == 0 ? -INFINITY : logabs);
    sl[2] = (T)(sign * det);
}

/* One op in flight: handles, sizes, the block and the scratch. */
struct lop {
    accel_cuda_ctx *ctx;
    accel_be_queue *q;
    const accel_op_desc *d;
    const char *name;
    cusolverDnHandle_t h;
    cusolverDnParams_t params;
    cudaDataType dt;
    size_t es;
    int64_t m, n, k;
    accel_linalg_layout l;
    char *a, *b, *out;
    void *work;       /* device workspace */
    size_t work_size; /* bytes */
    void *hwork;      /* host workspace */
    size_t hwork_size;
    int *info;       /* 3 * batch_count ints on the device: getrf's, getrs's, NaN flags */
    int64_t *ipiv;   /* n on the device */
    int orgqr_lwork; /* elements */
};

char *region(const lop *o, uint32_t r, size_t t)
{
    return o->out + (o->l.off[r] + t * o->l.size[r]) * o->es;
}

int32_t solver_fail(const lop *o, cusolverStatus_t s, const char *what)
{
    o->ctx->host->set_error(o->ctx->host->host_ctx, "%s: cuSOLVER %s failed (status %d)", o->name,
                            what, (int)s);
    return s == CUSOLVER_STATUS_ALLOC_FAILED ? ACCEL_ERROR_OUT_OF_DEVICE_MEMORY
                                             : ACCEL_ERROR_DEVICE;
}

#define SOLVE(call, what)                                                                          \
    do {                                                                                           \
        cusolverStatus_t s_ = (call);                                                              \
        if (s_ != CUSOLVER_STATUS_SUCCESS)                                                         \
            return solver_fail(o, s_, what);                                                       \
    } while (0)

/* The device and host workspaces of problem 0 (every problem has the same
 * sizes), allocated once for the batch. */
int32_t workspace(lop *o)
{
    size_t dev = 0, host = 0;
    const int64_t m = o->m, n = o->n;
    char *a0 =
        region(o, o->d->op == ACCEL_OP_QR || o->d->op == ACCEL_OP_SVD ? o->l.count - 1 : 0, 0);
    switch (o->d->op) {
    case ACCEL_OP_CHOLESKY:
        SOLVE(g_api.potrf_size(o->h, o->params, CUBLAS_FILL_MODE_LOWER, n, o->dt, a0, n, o->dt,
                               &dev, &host),
              "Xpotrf_bufferSize");
        break;
    case ACCEL_OP_SOLVE:
    case ACCEL_OP_SLOGDET:
        SOLVE(
            g_api.getrf_size(o->h, o->params, n, n, o->dt, region(o, 1, 0), n, o->dt, &dev, &host),
            "Xgetrf_bufferSize");
        break;
    case ACCEL_OP_QR: {
        int lw = 0;
        char *h = region(o, 1, 0), *tau = region(o, 2, 0), *qq = region(o, 0, 0);
        SOLVE(g_api.geqrf_size(o->h, o->params, m, n, o->dt, h, m, o->dt, tau, o->dt, &dev, &host),
              "Xgeqrf_bufferSize");
        int mn = (int)(m < n ? m : n);
        SOLVE(o->es == 4 ? g_api.sorgqr_size(o->h, (int)m, (int)o->k, mn, (const float *)qq, (int)m,
                                             (const float *)tau, &lw)
                         : g_api.dorgqr_size(o->h, (int)m, (int)o->k, mn, (const double *)qq,
                                             (int)m, (const double *)tau, &lw),
              "orgqr_bufferSize");
        o->orgqr_lwork = lw;
        if ((size_t)lw * o->es > dev)
            dev = (size_t)lw * o->es;
        break;
    }
    case ACCEL_OP_EIGH:
        SOLVE(g_api.syevd_size(o->h, o->params,
                               o->d->flags & ACCEL_OP_FLAG_LINALG_VECTORS
                                   ? CUSOLVER_EIG_MODE_VECTOR
                                   : CUSOLVER_EIG_MODE_NOVECTOR,
                               CUBLAS_FILL_MODE_LOWER, n, o->dt, region(o, 1, 0), n, o->dt,
                               region(o, 0, 0), o->dt, &dev, &host),
              "Xsyevd_bufferSize");
        break;
    case ACCEL_OP_SVD: {
        bool vec = (o->d->flags & ACCEL_OP_FLAG_LINALG_VECTORS) != 0;
        signed char ju = !vec ? 'N' : o->k == m ? 'A' : 'S', jv = vec ? 'A' : 'N';
        SOLVE(g_api.gesvd_size(o->h, o->params, ju, jv, m, n, o->dt, region(o, 3, 0), m, o->dt,
                               region(o, 0, 0), o->dt, region(o, 1, 0), m, o->dt, region(o, 2, 0),
                               n, o->dt, &dev, &host),
              "Xgesvd_bufferSize");
        break;
    }
    default:
        break;
    }
    o->work_size = dev, o->hwork_size = host;
    cudaError_t e = cudaMallocAsync(&o->work, dev ? dev : 1, o->q->stream);
    if (e == cudaSuccess)
        e = cudaMallocAsync((void **)&o->info, 3 * o->d->batch_count * sizeof(int), o->q->stream);
    if (e == cudaSuccess)
        e = cudaMallocAsync((void **)&o->ipiv, (size_t)(n ? n : 1) * sizeof(int64_t), o->q->stream);
    if (e != cudaSuccess)
        return accel_cuda__fail(o->ctx, e, o->name);
    if (host && !(o->hwork = malloc(host))) {
        o->ctx->host->set_error(o->ctx->host->host_ctx, "%s: out of host memory (%zu bytes)",
                                o->name, host);
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    return ACCEL_SUCCESS;
}

int32_t copy_in(const lop *o, void *dst, const char *src, size_t elems)
{
    cudaError_t e =
        cudaMemcpyAsync(dst, src, elems * o->es, cudaMemcpyDeviceToDevice, o->q->stream);
    return e == cudaSuccess ? ACCEL_SUCCESS : accel_cuda__fail(o->ctx, e, o->name);
}

/* Solve and slogdet of problem t: getrf, then getrs or the slogdet kernel. */
int32_t run_lu(lop *o, size_t t)
{
    const int64_t n = o->n;
    int *info = o->info + t;
    const char *at = o->a + t * (size_t)(n * n) * o->es;
    int32_t rc;
    char *lu = region(o, 1, t);
    if ((rc = copy_in(o, lu, at, (size_t)(n * n))) != ACCEL_SUCCESS)
        return rc;
    SOLVE(g_api.getrf(o->h, o->params, n, n, o->dt, lu, n, o->ipiv, o->dt, o->work, o->work_size,
                      o->hwork, o->hwork_size, info),
          "Xgetrf");
    /* cuSOLVER's getrf drops NaN (H100, 2026-12-06: the LU of
     * [[1, nan], [3, 2]] has none), so A's NaN is looked for apart:
     * problem t's flag in the third part of info */
    int *nan_flag = o->info + 2 * o->d->batch_count + t;
    int64_t len = n * n, grid = len / 256 + 1 < 1024 ? len / 256 + 1 : 1024;
    if (o->es == 4)
        any_nan_kernel<float>
            <<<(unsigned)grid, 256, 0, o->q->stream>>>((const float *)at, len, nan_flag);
    else
        any_nan_kernel<double>
            <<<(unsigned)grid, 256, 0, o->q->stream>>>((const double *)at, len, nan_flag);
    if (o->d->op == ACCEL_OP_SLOGDET) {
        if (o->es == 4)
            slogdet_kernel<float><<<1, 1, 0, o->q->stream>>>((const float *)lu, o->ipiv, n,
                                                             nan_flag, (float *)region(o, 0, t),
                                                             (float *)region(o, 2, t));
        else
            slogdet_kernel<double><<<1, 1, 0, o->q->stream>>>((const double *)lu, o->ipiv, n,
                                                              nan_flag, (double *)region(o, 0, t),
                                                              (double *)region(o, 2, t));
        cudaError_t e = cudaGetLastError();
        return e == cudaSuccess ? ACCEL_SUCCESS : accel_cuda__fail(o->ctx, e, o->name);
    }
    char *x = region(o, 0, t);
    if ((rc = copy_in(o, x, o->b + t * (size_t)(n * o->k) * o->es, (size_t)(n * o->k))) !=
        ACCEL_SUCCESS)
        return rc;
    /* getrs's info (argument errors only) in the second part, so it
     * never hides getrf's singular pivot */
    SOLVE(g_api.getrs(o->h, o->params, CUBLAS_OP_N, n, o->k, o->dt, lu, n, o->ipiv, o->dt, x, n,
                      o->info + o->d->batch_count + t),
          "Xgetrs");
    /* A NaN in A: every x NaN, as each x_i of A^-1 b depends on every
     * value of A (OpenBLAS's LAPACK, and so NumPy, leaves some finite:
     * solve([[nan, 1], [3, 2]], [1, 2]) is [nan, 1]). An exactly zero
     * column still raises singular, as there. */
    if (o->es == 4)
        nan_result_kernel<float>
            <<<(unsigned)grid, 256, 0, o->q->stream>>>((float *)x, n * o->k, nan_flag);
    else
        nan_result_kernel<double>
            <<<(unsigned)grid, 256, 0, o->q->stream>>>((double *)x, n * o->k, nan_flag);
    cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? ACCEL_SUCCESS : accel_cuda__fail(o->ctx, e, o->name);
}

/* Problem t's NaN flag (info's third part) from the lower triangle of A
 * at AT: potrf may leave a NaN out of L (as getrf drops one), and a NaN
 * is no positive value, so check_info refuses the matrix. */
int32_t nan_lower(const lop *o, const char *at, size_t t)
{
    int *flag = o->info + 2 * o->d->batch_count + t;
    int64_t n = o->n, grid = n * n / 256 + 1 < 1024 ? n * n / 256 + 1 : 1024;
    if (o->es == 4)
        nan_lower_kernel<float>
            <<<(unsigned)grid, 256, 0, o->q->stream>>>((const float *)at, n, flag);
    else
        nan_lower_kernel<double>
            <<<(unsigned)grid, 256, 0, o->q->stream>>>((const double *)at, n, flag);
    cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? ACCEL_SUCCESS : accel_cuda__fail(o->ctx, e, o->name);
}

/* Problem t: A's copy into the block and the routine(s). */
int32_t run_one(lop *o, size_t t)
{
    const int64_t m = o->m, n = o->n;
    int *info = o->info + t;
    const char *at = o->a + t * (size_t)(m * n) * o->es;
    void *w = o->work, *hw = o->hwork;
    size_t ws = o->work_size, hs = o->hwork_size;
    int32_t rc;
    switch (o->d->op) {
    case ACCEL_OP_CHOLESKY:
        if ((rc = copy_in(o, region(o, 0, t), at, (size_t)(n * n))) != ACCEL_SUCCESS)
            return rc;
        SOLVE(g_api.potrf(o->h, o->params, CUBLAS_FILL_MODE_LOWER, n, o->dt, region(o, 0, t), n,
                          o->dt, w, ws, hw, hs, info),
              "Xpotrf");
        return nan_lower(o, at, t);
    case ACCEL_OP_SOLVE:
    case ACCEL_OP_SLOGDET:
        return run_lu(o, t);
    case ACCEL_OP_QR: {
        char *q = region(o, 0, t), *h = region(o, 1, t), *tau = region(o, 2, t);
        int mn = (int)(m < n ? m : n);
        if ((rc = copy_in(o, h, at, (size_t)(m * n))) != ACCEL_SUCCESS)
            return rc;
        SOLVE(
            g_api.geqrf(o->h, o->params, m, n, o->dt, h, m, o->dt, tau, o->dt, w, ws, hw, hs, info),
            "Xgeqrf");
        if ((rc = copy_in(o, q, h, (size_t)m * (size_t)mn)) != ACCEL_SUCCESS)
            return rc;
        SOLVE(o->es == 4 ? g_api.sorgqr(o->h, (int)m, (int)o->k, mn, (float *)q, (int)m,
                                        (const float *)tau, (float *)w, o->orgqr_lwork, info)
                         : g_api.dorgqr(o->h, (int)m, (int)o->k, mn, (double *)q, (int)m,
                                        (const double *)tau, (double *)w, o->orgqr_lwork, info),
              "orgqr");
        return ACCEL_SUCCESS;
    }
    case ACCEL_OP_EIGH: {
        char *v = region(o, 1, t);
        if ((rc = copy_in(o, v, at, (size_t)(n * n))) != ACCEL_SUCCESS)
            return rc;
        SOLVE(g_api.syevd(o->h, o->params,
                          o->d->flags & ACCEL_OP_FLAG_LINALG_VECTORS ? CUSOLVER_EIG_MODE_VECTOR
                                                                     : CUSOLVER_EIG_MODE_NOVECTOR,
                          CUBLAS_FILL_MODE_LOWER, n, o->dt, v, n, o->dt, region(o, 0, t), o->dt, w,
                          ws, hw, hs, info),
              "Xsyevd");
        return ACCEL_SUCCESS;
    }
    case ACCEL_OP_SVD: {
        bool vec = (o->d->flags & ACCEL_OP_FLAG_LINALG_VECTORS) != 0;
        signed char ju = !vec ? 'N' : o->k == m ? 'A' : 'S', jv = vec ? 'A' : 'N';
        char *wk = region(o, 3, t);
        if ((rc = copy_in(o, wk, at, (size_t)(m * n))) != ACCEL_SUCCESS)
            return rc;
        SOLVE(g_api.gesvd(o->h, o->params, ju, jv, m, n, o->dt, wk, m, o->dt, region(o, 0, t),
                          o->dt, region(o, 1, t), m, o->dt, region(o, 2, t), n, o->dt, w, ws, hw,
                          hs, info),
              "Xgesvd");
        return ACCEL_SUCCESS;
    }
    default:
        o->ctx->host->set_error(o->ctx->host->host_ctx, "%s: op %u is not a linalg op", o->name,
                                (unsigned)o->d->op);
        return ACCEL_ERROR_INTERNAL;
    }
}

/* The first problem whose info says the values defeated the routine. */
int32_t check_info(const lop *o)
{
    size_t b = o->d->batch_count;
    int *host = (int *)malloc(3 * b * sizeof(int));
    if (!host)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    cudaError_t e =
        cudaMemcpyAsync(host, o->info, 3 * b * sizeof(int), cudaMemcpyDeviceToHost, o->q->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(o->q->stream);
    int32_t rc = e == cudaSuccess ? ACCEL_SUCCESS : accel_cuda__fail(o->ctx, e, o->name);
    for (size_t t = 0; t < b && rc == ACCEL_SUCCESS; t++) {
        if (o->d->op == ACCEL_OP_CHOLESKY && host[2 * b + t]) {
            o->ctx->host->set_error(o->ctx->host->host_ctx,
                                    "%s: problem %zu of the batch: the matrix holds NaN in the "
                                    "triangle it is read from (not positive definite)",
                                    o->name, t);
            rc = ACCEL_ERROR_LINALG;
            break;
        }
        if (host[t] == 0 || (host[t] > 0 && o->d->op == ACCEL_OP_SLOGDET))
            continue;
        const char *why = o->d->op == ACCEL_OP_CHOLESKY
                              ? "is not positive definite (a leading minor; cuSOLVER potrf)"
                          : o->d->op == ACCEL_OP_SOLVE
                              ? "is singular (an exactly zero pivot of its LU; cuSOLVER getrf)"
                              : "did not converge (cuSOLVER)";
        o->ctx->host->set_error(o->ctx->host->host_ctx,
                                "%s: problem %zu of the batch: the matrix %s, info %d", o->name, t,
                                why, host[t]);
        rc = host[t] > 0 ? ACCEL_ERROR_LINALG : ACCEL_ERROR_INTERNAL;
    }
    free(host);
    return rc;
}

int32_t run_all(lop *o)
{
    SOLVE(g_api.create(&o->h), "Create");
    SOLVE(g_api.set_stream(o->h, o->q->stream), "SetStream");
    SOLVE(g_api.create_params(&o->params), "CreateParams");
    int32_t rc = workspace(o);
    if (rc == ACCEL_SUCCESS && cudaMemsetAsync(o->info, 0, 3 * o->d->batch_count * sizeof(int),
                                               o->q->stream) != cudaSuccess)
        rc = ACCEL_ERROR_DEVICE;
    for (size_t t = 0; t < o->d->batch_count && rc == ACCEL_SUCCESS; t++)
        rc = run_one(o, t);
    return rc == ACCEL_SUCCESS ? check_info(o) : rc;
}

} // namespace

extern "C" int32_t accel_cuda__linalg_supported(const accel_cuda_ctx *ctx, const accel_op_desc *d)
{
    /* cuSOLVER's C/Z routines are not bound yet: complex problems are
     * refused here, so the core falls back (the CPU's LAPACK) or fails with
     * this message, never a wrong answer. */
    if (d->dtype == ACCEL_C64 || d->dtype == ACCEL_C128) {
        ctx->host->set_error(ctx->host->host_ctx,
                             "%s: complex linalg is not implemented on the cuda backend (use "
                             "fallback to the cpu backend)",
                             d->name ? d->name : "linalg");
        return ACCEL_ERROR_UNSUPPORTED;
    }
    if (d->dtype != ACCEL_F32 && d->dtype != ACCEL_F64)
        return ACCEL_ERROR_UNSUPPORTED;
    pthread_once(&g_once, load_once);
    if (!g_api.loaded) {
        ctx->host->set_error(ctx->host->host_ctx, "%s", g_api.error);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    if (d->m > INT32_MAX / 64 || d->n > INT32_MAX / 64 || d->k > INT32_MAX / 64) {
        ctx->host->set_error(ctx->host->host_ctx, "linalg: sizes past orgqr's 32-bit ints");
        return ACCEL_ERROR_UNSUPPORTED;
    }
    return ACCEL_SUCCESS;
}

extern "C" int32_t accel_cuda__linalg(accel_cuda_ctx *ctx, accel_be_queue *q,
                                      const accel_op_desc *d, const char *name)
{
    lop o;
    memset(&o, 0, sizeof o);
    o.ctx = ctx, o.q = q, o.d = d, o.name = name;
    o.es = accel_backend_dtype_size(d->dtype);
    o.dt = d->dtype == ACCEL_F32 ? CUDA_R_32F : CUDA_R_64F;
    o.m = (int64_t)d->m, o.n = (int64_t)d->n, o.k = (int64_t)d->k;
    o.l = accel_linalg_layout_of(d->op, d->batch_count, d->m, d->n, d->k);
    uint32_t last = d->num_operands - 1;
    o.a = (char *)accel_cuda__buffer_ptr(d->operands[0].buffer) + d->operands[0].offset * o.es;
    if (d->op == ACCEL_OP_SOLVE)
        o.b = (char *)accel_cuda__buffer_ptr(d->operands[1].buffer) + d->operands[1].offset * o.es;
    o.out =
        (char *)accel_cuda__buffer_ptr(d->operands[last].buffer) + d->operands[last].offset * o.es;
    int32_t rc = run_all(&o);
    if (o.work)
        (void)cudaFreeAsync(o.work, q->stream);
    if (o.info)
        (void)cudaFreeAsync(o.info, q->stream);
    if (o.ipiv)
        (void)cudaFreeAsync(o.ipiv, q->stream);
    /* the host workspace and the handle: after the stream has passed them */
    (void)cudaStreamSynchronize(q->stream);
    free(o.hwork);
    if (o.params)
        (void)g_api.destroy_params(o.params);
    if (o.h)
        (void)g_api.destroy(o.h);
    return rc;
}
