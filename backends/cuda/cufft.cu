/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* cufft.cu — ACCEL_OP_FFT, ACCEL_OP_RFFT and ACCEL_OP_IRFFT through cuFFT:
 * the library opened at run time on the first FFT (as cuBLAS is, through
 * dl_open.c; the function types checked against cufft.h with decltype),
 * plans kept per queue (a few, keyed by their geometry, so each is used on
 * one stream only), the scale and, for IRFFT, a scratch copy of x (cuFFT's
 * C2R overwrites its input) whose DC and Nyquist imaginary parts are
 * zeroed (NumPy's irfft ignores them; cuFFT's result would depend on them). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <cufft.h>
#include <type_traits>

#include "cuda_internal.h"
#include "dl_open.h"

#define ACCEL_STR2(x) #x
#define ACCEL_STR(x) ACCEL_STR2(x)
#define CUFFT_SONAME "libcufft.so." ACCEL_STR(CUFFT_VER_MAJOR)

namespace
{

struct cufft_api {
    int loaded;
    char error[256];
    decltype(&cufftCreate) create;
    decltype(&cufftDestroy) destroy;
    decltype(&cufftMakePlanMany64) make_plan_many64;
    decltype(&cufftSetStream) set_stream;
    decltype(&cufftExecC2C) exec_c2c;
    decltype(&cufftExecZ2Z) exec_z2z;
    decltype(&cufftExecR2C) exec_r2c;
    decltype(&cufftExecD2Z) exec_d2z;
    decltype(&cufftExecC2R) exec_c2r;
    decltype(&cufftExecZ2D) exec_z2d;
};

cufft_api g_api;
pthread_once_t g_once = PTHREAD_ONCE_INIT;

template <typename F> bool resolve(void *lib, const char *name, F *out)
{
    return accel_cuda__dl_sym(lib, CUFFT_SONAME, name, out, g_api.error, sizeof g_api.error);
}

void load(void)
{
    void *lib = accel_cuda__dl_open(CUFFT_SONAME, g_api.error, sizeof g_api.error);
    if (!lib)
        return;
    g_api.loaded = resolve(lib, "cufftCreate", &g_api.create) &&
                   resolve(lib, "cufftDestroy", &g_api.destroy) &&
                   resolve(lib, "cufftMakePlanMany64", &g_api.make_plan_many64) &&
                   resolve(lib, "cufftSetStream", &g_api.set_stream) &&
                   resolve(lib, "cufftExecC2C", &g_api.exec_c2c) &&
                   resolve(lib, "cufftExecZ2Z", &g_api.exec_z2z) &&
                   resolve(lib, "cufftExecR2C", &g_api.exec_r2c) &&
                   resolve(lib, "cufftExecD2Z", &g_api.exec_d2z) &&
                   resolve(lib, "cufftExecC2R", &g_api.exec_c2r) &&
                   resolve(lib, "cufftExecZ2D", &g_api.exec_z2d);
    /* kept loaded until the process exits, as cuBLAS */
}

/* One plan: its geometry (the key) and handle. */
struct plan_slot {
    int used;
    cufftType type;
    long long n, batch, stride, dist_in, dist_out;
    cufftHandle handle;
};

#define PLANS 8
struct plan_cache {
    plan_slot slot[PLANS];
    unsigned next; /* round-robin victim */
};

template <typename T> __global__ void scale_kernel(T *p, size_t n, T s)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] *= s;
}

/* RFFT and IRFFT of length 1 without cuFFT (which is not asked for real
 * transforms of one point): RFFT's output is (x, 0), IRFFT's the real part
 * of its one input (the imaginary part of the DC term is ignored). */
template <typename T> __global__ void real_dft1(const T *x, T *y, size_t lines, int c2r)
{
    for (size_t l = blockIdx.x * (size_t)blockDim.x + threadIdx.x; l < lines;
         l += (size_t)gridDim.x * blockDim.x) {
        if (c2r) {
            y[l] = x[2 * l];
        } else {
            y[2 * l] = x[l];
            y[2 * l + 1] = 0;
        }
    }
}

/* The imaginary parts of element 0 and (even n) n/2 of each line of an
 * m x half x k block of complex T pairs. */
template <typename T>
__global__ void zero_dc_nyquist(T *x, size_t lines, size_t k, size_t half, size_t n)
{
    for (size_t l = blockIdx.x * (size_t)blockDim.x + threadIdx.x; l < lines;
         l += (size_t)gridDim.x * blockDim.x) {
        size_t o = l / k, i = l % k, base = o * half * k + i;
        x[2 * base + 1] = 0;
        if (n % 2 == 0)
            x[2 * (base + (n / 2) * k) + 1] = 0;
    }
}

int32_t fft_fail(const accel_cuda_ctx *ctx, cufftResult r, const char *what, const char *name)
{
    ctx->host->set_error(ctx->host->host_ctx, "%s: %s failed: cufftResult %d", name, what, (int)r);
    return r == CUFFT_ALLOC_FAILED ? ACCEL_ERROR_OUT_OF_DEVICE_MEMORY : ACCEL_ERROR_DEVICE;
}

/* The queue's plan of this geometry, made on first use (a full cache
 * waits for the stream before it destroys its oldest plan). */
int32_t get_plan(const accel_cuda_ctx *ctx, accel_be_queue *q, const plan_slot *key,
                 const char *name, cufftHandle *out)
{
    plan_cache *c = static_cast<plan_cache *>(q->fft);
    if (!c) {
        c = static_cast<plan_cache *>(calloc(1, sizeof *c));
        if (!c)
            return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
        q->fft = c;
    }
    for (unsigned i = 0; i < PLANS; i++) {
        const plan_slot *s = &c->slot[i];
        if (s->used && s->type == key->type && s->n == key->n && s->batch == key->batch &&
            s->stride == key->stride && s->dist_in == key->dist_in &&
            s->dist_out == key->dist_out) {
            *out = s->handle;
            return ACCEL_SUCCESS;
        }
    }
    plan_slot *v = &c->slot[c->next++ % PLANS];
    if (v->used) {
        (void)cudaStreamSynchronize(q->stream);
        (void)g_api.destroy(v->handle);
        v->used = 0;
    }
    *v = *key;
    v->used = 0; /* until the plan is made: a failed one must never match */
    long long n = key->n, nx = key->n, no = key->n;
    size_t work = 0;
    cufftResult r = g_api.create(&v->handle);
    if (r == CUFFT_SUCCESS)
        r = g_api.make_plan_many64(v->handle, 1, &n, &nx, key->stride, key->dist_in, &no,
                                   key->stride, key->dist_out, key->type, key->batch, &work);
    if (r == CUFFT_SUCCESS)
        r = g_api.set_stream(v->handle, q->stream);
    if (r != CUFFT_SUCCESS) {
        (void)g_api.destroy(v->handle);
        return fft_fail(ctx, r, "a cuFFT plan", name);
    }
    v->used = 1;
    *out = v->handle;
    return ACCEL_SUCCESS;
}

cufftResult exec(cufftType t, cufftHandle h, void *x, void *y, int inverse)
{
    int dir = inverse ? CUFFT_INVERSE : CUFFT_FORWARD;
    switch (t) {
    case CUFFT_C2C:
        return g_api.exec_c2c(h, (cufftComplex *)x, (cufftComplex *)y, dir);
    case CUFFT_Z2Z:
        return g_api.exec_z2z(h, (cufftDoubleComplex *)x, (cufftDoubleComplex *)y, dir);
    case CUFFT_R2C:
        return g_api.exec_r2c(h, (cufftReal *)x, (cufftComplex *)y);
    case CUFFT_D2Z:
        return g_api.exec_d2z(h, (cufftDoubleReal *)x, (cufftDoubleComplex *)y);
    case CUFFT_C2R:
        return g_api.exec_c2r(h, (cufftComplex *)x, (cufftReal *)y);
    case CUFFT_Z2D:
        return g_api.exec_z2d(h, (cufftDoubleComplex *)x, (cufftDoubleReal *)y);
    }
    return CUFFT_INVALID_TYPE;
}

cufftType type_of(uint32_t op, int dbl)
{
    if (op == ACCEL_OP_RFFT)
        return dbl ? CUFFT_D2Z : CUFFT_R2C;
    if (op == ACCEL_OP_IRFFT)
        return dbl ? CUFFT_Z2D : CUFFT_C2R;
    return dbl ? CUFFT_Z2Z : CUFFT_C2C;
}

/* IRFFT's x copied into scratch (cudaMallocAsync on the stream) with the
 * DC and Nyquist imaginary parts zeroed. */
cudaError_t c2r_input(accel_be_queue *q, const accel_op_desc *d, const void *x, size_t bytes,
                      unsigned mb, void **out)
{
    cudaError_t err = cudaMallocAsync(out, bytes, q->stream);
    if (err == cudaSuccess)
        err = cudaMemcpyAsync(*out, x, bytes, cudaMemcpyDeviceToDevice, q->stream);
    size_t lines = d->m * d->k, half = d->n / 2 + 1;
    unsigned blocks = (unsigned)((lines + 255) / 256 < mb ? (lines + 255) / 256 : mb);
    if (err == cudaSuccess && d->dtype == ACCEL_C128)
        zero_dc_nyquist<double>
            <<<blocks, 256, 0, q->stream>>>((double *)*out, lines, d->k, half, d->n);
    else if (err == cudaSuccess)
        zero_dc_nyquist<float>
            <<<blocks, 256, 0, q->stream>>>((float *)*out, lines, d->k, half, d->n);
    return err == cudaSuccess ? cudaGetLastError() : err;
}

cudaError_t scale_out(accel_be_queue *q, const accel_op_desc *d, void *y, size_t reals, unsigned mb)
{
    if (d->scalars[0] == 1.0 || reals == 0)
        return cudaSuccess;
    unsigned blocks = (unsigned)((reals + 255) / 256 < mb ? (reals + 255) / 256 : mb);
    if (d->dtype == ACCEL_C128)
        scale_kernel<double><<<blocks, 256, 0, q->stream>>>((double *)y, reals, d->scalars[0]);
    else
        scale_kernel<float><<<blocks, 256, 0, q->stream>>>((float *)y, reals, (float)d->scalars[0]);
    return cudaGetLastError();
}

/* One exec whose pointers cuFFT may refuse: it wants each block aligned to
 * its complex type, and a block of real lines k apart starts o * n * k
 * reals in (for odd n * k and odd o, 4 bytes off for R2C's x and C2R's y:
 * cufftExec answers CUFFT_INVALID_VALUE), as does a buffer slice at an odd
 * element. Such a pointer goes through aligned scratch (cudaMallocAsync)
 * of bx or by bytes, copied in or out on the stream. */
cufftResult exec_aligned(accel_be_queue *q, cufftType t, cufftHandle h, const void *x, void *y,
                         size_t bx, size_t by, size_t align, int inverse, cudaError_t *err)
{
    void *sx = const_cast<void *>(x), *sy = y, *tx = NULL, *ty = NULL;
    if ((uintptr_t)x % align && (*err = cudaMallocAsync(&tx, bx, q->stream)) == cudaSuccess) {
        *err = cudaMemcpyAsync(tx, x, bx, cudaMemcpyDeviceToDevice, q->stream);
        sx = tx;
    }
    if (*err == cudaSuccess && (uintptr_t)y % align &&
        (*err = cudaMallocAsync(&ty, by, q->stream)) == cudaSuccess)
        sy = ty;
    cufftResult r = *err == cudaSuccess ? exec(t, h, sx, sy, inverse) : CUFFT_SUCCESS;
    if (*err == cudaSuccess && r == CUFFT_SUCCESS && ty)
        *err = cudaMemcpyAsync(y, ty, by, cudaMemcpyDeviceToDevice, q->stream);
    if (tx)
        (void)cudaFreeAsync(tx, q->stream);
    if (ty)
        (void)cudaFreeAsync(ty, q->stream);
    return r;
}

} // namespace

extern "C" int32_t accel_cuda__fft_supported(const accel_cuda_ctx *ctx, const accel_op_desc *d)
{
    if (d->dtype != ACCEL_C64 && d->dtype != ACCEL_C128)
        return ACCEL_ERROR_UNSUPPORTED;
    pthread_once(&g_once, load);
    if (!g_api.loaded) {
        ctx->host->set_error(ctx->host->host_ctx, "FFT needs cuFFT, which is unavailable: %s",
                             g_api.error);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    return ACCEL_SUCCESS;
}

extern "C" int32_t accel_cuda__fft(const accel_cuda_ctx *ctx, accel_be_queue *q,
                                   const accel_op_desc *d, const void *x, void *y, const char *name)
{
    const unsigned mb = ctx->devices[q->device].max_blocks;
    const int dbl = d->dtype == ACCEL_C128;
    const size_t real = dbl ? 8 : 4, half = d->n / 2 + 1;
    const size_t lx = d->op == ACCEL_OP_IRFFT ? half : d->n,
                 lo = d->op == ACCEL_OP_RFFT ? half : d->n;
    const size_t wx = d->op == ACCEL_OP_RFFT ? 1 : 2, wo = d->op == ACCEL_OP_IRFFT ? 1 : 2;
    if (d->n == 1 && d->op != ACCEL_OP_FFT) {
        size_t lines = d->m * d->k;
        unsigned blocks = (unsigned)((lines + 255) / 256 < mb ? (lines + 255) / 256 : mb);
        int c2r = d->op == ACCEL_OP_IRFFT;
        if (dbl)
            real_dft1<double>
                <<<blocks, 256, 0, q->stream>>>((const double *)x, (double *)y, lines, c2r);
        else
            real_dft1<float>
                <<<blocks, 256, 0, q->stream>>>((const float *)x, (float *)y, lines, c2r);
        cudaError_t e1 = cudaGetLastError();
        if (e1 == cudaSuccess)
            e1 = scale_out(q, d, y, lines * wo, mb);
        return e1 == cudaSuccess ? ACCEL_SUCCESS : accel_cuda__fail(ctx, e1, name);
    }
    /* k == 1: one plan over m contiguous lines; else k lines k apart, once per o. */
    plan_slot key = {1, type_of(d->op, dbl), (long long)d->n, 0, 0, 0, 0, 0};
    key.batch = (long long)(d->k == 1 ? d->m : d->k);
    key.stride = (long long)d->k;
    key.dist_in = d->k == 1 ? (long long)lx : 1;
    key.dist_out = d->k == 1 ? (long long)lo : 1;
    cufftHandle h;
    int32_t st = get_plan(ctx, q, &key, name, &h);
    if (st != ACCEL_SUCCESS)
        return st;
    void *scratch = NULL;
    const void *src = x;
    cudaError_t err = cudaSuccess;
    if (d->op == ACCEL_OP_IRFFT) {
        err = c2r_input(q, d, x, d->m * lx * d->k * wx * real, mb, &scratch);
        src = scratch;
    }
    const int inverse = (d->flags & ACCEL_OP_FLAG_FFT_INVERSE) != 0;
    cufftResult r = CUFFT_SUCCESS;
    size_t reps = d->k == 1 ? 1 : d->m;
    const size_t bx = (d->k == 1 ? d->m : 1) * lx * d->k * wx * real,
                 by = (d->k == 1 ? d->m : 1) * lo * d->k * wo * real;
    for (size_t o = 0; err == cudaSuccess && r == CUFFT_SUCCESS && o < reps; o++)
        r = exec_aligned(q, key.type, h, (const char *)src + o * bx, (char *)y + o * by, bx, by,
                         2 * real, inverse, &err);
    if (err == cudaSuccess && r == CUFFT_SUCCESS)
        err = scale_out(q, d, y, d->m * lo * d->k * wo, mb);
    if (scratch)
        (void)cudaFreeAsync(scratch, q->stream);
    if (r != CUFFT_SUCCESS)
        return fft_fail(ctx, r, "cufftExec", name);
    return err == cudaSuccess ? ACCEL_SUCCESS : accel_cuda__fail(ctx, err, name);
}

extern "C" void accel_cuda__fft_destroy(accel_be_queue *q)
{
    plan_cache *c = static_cast<plan_cache *>(q->fft);
    if (!c)
        return;
    for (unsigned i = 0; i < PLANS; i++)
        if (c->slot[i].used)
            (void)g_api.destroy(c->slot[i].handle);
    free(c);
    q->fft = NULL;
}
