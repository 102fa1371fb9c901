/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_kernel.c — user kernels (accel/kernel.h) on the CPU device, with the
 * system C compiler and with the embedded one (accel-tcc), against plain
 * loops: elementwise over every dtype and sizes 0, 1, primes and 2^20+3,
 * reductions along rows of odd shapes in the documented order, the
 * tutorial's raw kernels verbatim, compile errors with the user's line,
 * launch errors, the disk cache (corrupt entries, racing processes,
 * insecure and read-only folders), verify mode across two CPU backends
 * whose kernels differ on purpose, and fallback from a backend that has no
 * compiler. */
#define _GNU_SOURCE /* setenv, pread, truncate under -std=c11 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "accel/kernel.h"
#include "accel/npy.h"
#include "accel/verify.h"
#include "test_util.h"

static const char *cache_dir;

static void setup(void)
{
    cache_dir = tu_fmt("%s/cache", tu_tmpdir());
    setenv("ACCEL_KERNEL_CACHE", cache_dir, 1);
}

/* A runtime with the CPU backend, kernels built by `compiler` (cc or tcc). */
static accel_runtime *open_cpu(const char *compiler)
{
    accel_runtime *rt = NULL;
    const char *ini = tu_fmt("[runtime]\norder = cpu\n[backend.cpu]\nlibrary = %s\n"
                             "kernel_compiler = %s\n",
                             TU_CPU_PLUGIN, compiler);
    accel_status st = tu_open_ini(ini, &rt, NULL);
    cr_assert_eq(st, ACCEL_SUCCESS, "open: %s", accel_last_error());
    return rt;
}

typedef struct env {
    accel_runtime *rt;
    accel_device *dev;
    accel_queue *q;
} env;

static env env_open(const char *compiler)
{
    env e;
    e.rt = open_cpu(compiler);
    cr_assert_eq(accel_device_get_by_name(e.rt, "cpu:0", &e.dev), ACCEL_SUCCESS);
    cr_assert_eq(accel_queue_create(e.dev, &e.q), ACCEL_SUCCESS);
    return e;
}

static accel_buffer *upload(env *e, const void *data, size_t bytes)
{
    accel_buffer *b;
    cr_assert_eq(accel_buffer_create(e->dev, bytes, &b), ACCEL_SUCCESS);
    if (bytes && data)
        cr_assert_eq(accel_queue_write(e->q, b, 0, data, bytes), ACCEL_SUCCESS);
    return b;
}

static void download(env *e, accel_buffer *b, void *out, size_t bytes)
{
    accel_status st =
        bytes ? accel_queue_read_blocking(e->q, b, 0, out, bytes) : accel_queue_finish(e->q);
    cr_assert_eq(st, ACCEL_SUCCESS, "read: %s", accel_last_error());
}

/* ------------------------------------------------------------ elementwise */

static void saxpy_sizes(const char *compiler)
{
    env e = env_open(compiler);
    accel_kernel *k;
    cr_assert_eq(accel_kernel_elementwise_create(e.rt, "saxpy", "float32 x, float32 y, float32 a",
                                                 "float32 z", "z = a * x + y", NULL, &k),
                 ACCEL_SUCCESS, "%s", accel_last_error());
    static const size_t sizes[] = {0, 1, 2, 7, 13, 1009, 16411, (1u << 20) + 3};
    tu_rng r = tu_rng_make(1);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        float *x = malloc(n * 4 + 4), *y = malloc(n * 4 + 4), *z = malloc(n * 4 + 4);
        for (size_t i = 0; i < n; i++) {
            x[i] = (float)tu_rng_range(&r, -10, 10);
            y[i] = (float)tu_rng_range(&r, -10, 10);
        }
        accel_buffer *bx = upload(&e, x, n * 4), *by = upload(&e, y, n * 4),
                     *bz = upload(&e, NULL, n * 4);
        const float a = 1.75f;
        accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(bx, 0, n)),
                                   accel_karg_array(accel_slice_of(by, 0, n)), accel_karg_f32(a),
                                   accel_karg_array(accel_slice_of(bz, 0, n))};
        cr_assert_eq(accel_kernel_launch(e.q, k, 4, args), ACCEL_SUCCESS, "%s", accel_last_error());
        download(&e, bz, z, n * 4);
        for (size_t i = 0; i < n; i++) {
            float ref = a * x[i] + y[i]; /* ISO C: no contraction, as the kernel */
            cr_assert_eq(z[i], ref, "%s n=%zu i=%zu: %.9g != %.9g", compiler, n, i, z[i], ref);
        }
        accel_buffer_release(bx);
        accel_buffer_release(by);
        accel_buffer_release(bz);
        free(x);
        free(y);
        free(z);
    }
    accel_kernel_release(k);
    accel_runtime_close(e.rt);
}

Test(kernel, saxpy_sizes_cc, .init = setup)
{
    saxpy_sizes("cc");
}
Test(kernel, saxpy_sizes_tcc, .init = setup)
{
    saxpy_sizes("tcc");
}

/* f32 -> binary16 or bfloat16 bits, round to nearest even, by frexp. */
static uint16_t ref_round16(float f, int mant, int emin, int emax, int ebits)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    uint16_t sign = (uint16_t)((u >> 31) << 15);
    if (isnan(f))
        return (uint16_t)(sign | ((((1u << ebits) - 1) << mant) | (1u << (mant - 1))));
    double a = fabs((double)f);
    int e;
    frexp(a, &e); /* a = m 2^e, m in [0.5, 1) */
    int exp = e - 1;
    if (exp < emin)
        exp = emin; /* subnormals share the smallest exponent */
    double q = nearbyint(ldexp(a, mant - exp));
    double v = ldexp(q, exp - mant);
    if (a == 0 || v == 0)
        return sign;
    frexp(v, &e);
    exp = e - 1;
    if (exp > emax)
        return (uint16_t)(sign | (((1u << ebits) - 1) << mant));
    if (exp < emin) /* subnormal */
        return (uint16_t)(sign | (uint16_t)ldexp(v, -emin + mant));
    uint32_t frac = (uint32_t)(ldexp(v, mant - exp)) - (1u << mant);
    return (uint16_t)(sign | ((uint32_t)(exp - emin + 1) << mant) | frac);
}

static float ref_widen16(uint16_t h, int mant, int emin, int ebits)
{
    int e = (h >> mant) & ((1 << ebits) - 1);
    int m = h & ((1 << mant) - 1);
    double v;
    if (e == (1 << ebits) - 1)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp(m, emin - mant);
    else
        v = ldexp(m + (1 << mant), e - 1 + emin - mant);
    return (float)((h >> 15) ? -v : v);
}

static float f16_to_f(uint16_t h)
{
    return ref_widen16(h, 10, -14, 5);
}
static uint16_t f_to_f16(float f)
{
    return ref_round16(f, 10, -14, 15, 5);
}
static float bf16_to_f(uint16_t h)
{
    return ref_widen16(h, 7, -126, 8);
}
static uint16_t f_to_bf16(float f)
{
    return ref_round16(f, 7, -126, 127, 8);
}

static void dtype_kernel(const char *compiler, accel_dtype dt, const char *tname, size_t n)
{
    env e = env_open(compiler);
    accel_kernel *k;
    const char *in = tu_fmt("%s x, %s y", tname, tname);
    const char *out = tu_fmt("%s z", tname);
    cr_assert_eq(
        accel_kernel_elementwise_create(e.rt, "mix", in, out, "z = x * y + x - y", NULL, &k),
        ACCEL_SUCCESS, "%s", accel_last_error());
    size_t es = accel_dtype_size(dt);
    unsigned char *x = malloc(n * es + 8), *y = malloc(n * es + 8), *z = malloc(n * es + 8);
    tu_rng r = tu_rng_make(2 + (uint64_t)dt);
    for (size_t i = 0; i < n; i++) {
        double a = tu_rng_range(&r, -100, 100), b = tu_rng_range(&r, -100, 100);
        switch (dt) {
        case ACCEL_F32:
            ((float *)x)[i] = (float)a, ((float *)y)[i] = (float)b;
            break;
        case ACCEL_F64:
            ((double *)x)[i] = a, ((double *)y)[i] = b;
            break;
        case ACCEL_I32:
            ((int32_t *)x)[i] = (int32_t)a, ((int32_t *)y)[i] = (int32_t)b;
            break;
        case ACCEL_I64:
            ((int64_t *)x)[i] = (int64_t)(a * 1e6), ((int64_t *)y)[i] = (int64_t)(b * 1e6);
            break;
        case ACCEL_U8:
            ((uint8_t *)x)[i] = (uint8_t)tu_rng_next(&r),
                      ((uint8_t *)y)[i] = (uint8_t)tu_rng_next(&r);
            break;
        case ACCEL_F16:
            ((uint16_t *)x)[i] = f_to_f16((float)a),
                       ((uint16_t *)y)[i] = f_to_f16((float)(b * 1e-3));
            break;
        default:
            ((uint16_t *)x)[i] = f_to_bf16((float)a), ((uint16_t *)y)[i] = f_to_bf16((float)b);
            break;
        }
    }
    accel_buffer *bx = upload(&e, x, n * es), *by = upload(&e, y, n * es),
                 *bz = upload(&e, NULL, n * es);
    accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(bx, 0, n)),
                               accel_karg_array(accel_slice_of(by, 0, n)),
                               accel_karg_array(accel_slice_of(bz, 0, n))};
    args[0].dtype = args[1].dtype = args[2].dtype = dt;
    cr_assert_eq(accel_kernel_launch(e.q, k, 3, args), ACCEL_SUCCESS, "%s", accel_last_error());
    download(&e, bz, z, n * es);
    for (size_t i = 0; i < n; i++) {
        switch (dt) {
        case ACCEL_F32: {
            float a = ((float *)x)[i], b = ((float *)y)[i], ref = a * b + a - b;
            cr_assert_eq(((float *)z)[i], ref, "f32 i=%zu", i);
            break;
        }
        case ACCEL_F64: {
            double a = ((double *)x)[i], b = ((double *)y)[i], ref = a * b + a - b;
            cr_assert_eq(((double *)z)[i], ref, "f64 i=%zu", i);
            break;
        }
        case ACCEL_I32: {
            int32_t a = ((int32_t *)x)[i], b = ((int32_t *)y)[i];
            cr_assert_eq(((int32_t *)z)[i], a * b + a - b, "i32 i=%zu", i);
            break;
        }
        case ACCEL_I64: {
            int64_t a = ((int64_t *)x)[i], b = ((int64_t *)y)[i];
            cr_assert_eq(((int64_t *)z)[i], a * b + a - b, "i64 i=%zu", i);
            break;
        }
        case ACCEL_U8: {
            int a = ((uint8_t *)x)[i], b = ((uint8_t *)y)[i];
            cr_assert_eq(((uint8_t *)z)[i], (uint8_t)(a * b + a - b), "u8 i=%zu", i);
            break;
        }
        case ACCEL_F16: {
            float a = f16_to_f(((uint16_t *)x)[i]), b = f16_to_f(((uint16_t *)y)[i]);
            uint16_t ref = f_to_f16(a * b + a - b);
            cr_assert_eq(((uint16_t *)z)[i], ref, "f16 i=%zu: %04x != %04x (%g %g)", i,
                         ((uint16_t *)z)[i], ref, a, b);
            break;
        }
        default: {
            float a = bf16_to_f(((uint16_t *)x)[i]), b = bf16_to_f(((uint16_t *)y)[i]);
            uint16_t ref = f_to_bf16(a * b + a - b);
            cr_assert_eq(((uint16_t *)z)[i], ref, "bf16 i=%zu: %04x != %04x", i, ((uint16_t *)z)[i],
                         ref);
            break;
        }
        }
    }
    free(x);
    free(y);
    free(z);
    accel_kernel_release(k);
    accel_runtime_close(e.rt);
}

Test(kernel, every_dtype_cc, .init = setup)
{
    static const struct {
        accel_dtype dt;
        const char *name;
    } t[] = {{ACCEL_F32, "float32"},  {ACCEL_F64, "float64"}, {ACCEL_I32, "int32"},
             {ACCEL_I64, "int64"},    {ACCEL_U8, "uint8"},    {ACCEL_F16, "float16"},
             {ACCEL_BF16, "bfloat16"}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        dtype_kernel("cc", t[i].dt, t[i].name, 1009);
        dtype_kernel("cc", t[i].dt, t[i].name, 1);
    }
}

Test(kernel, every_dtype_tcc, .init = setup)
{
    static const struct {
        accel_dtype dt;
        const char *name;
    } t[] = {{ACCEL_F32, "float32"},  {ACCEL_F64, "float64"}, {ACCEL_I32, "int32"},
             {ACCEL_I64, "int64"},    {ACCEL_U8, "uint8"},    {ACCEL_F16, "float16"},
             {ACCEL_BF16, "bfloat16"}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        dtype_kernel("tcc", t[i].dt, t[i].name, 16411);
}

/* ------------------------------------------------------------ reductions */

/* The documented order (kernel.h): a row in chunks of 16384 columns; per
 * chunk 256 lanes, lane l folds the chunk's columns l, l+256, ...; then
 * pairwise l with l+128, l+64, ..., 1; several chunks: their results
 * reduced the same way. */
static float ref_lanes(const float *v, size_t n, bool square)
{
    float lane[256];
    for (int l = 0; l < 256; l++)
        lane[l] = 0;
    for (size_t c = 0; c < n; c++)
        lane[c % 256] = lane[c % 256] + (square ? v[c] * v[c] : v[c]);
    for (int s = 128; s > 0; s >>= 1)
        for (int l = 0; l < s; l++)
            lane[l] = lane[l] + lane[l + s];
    return lane[0];
}

static float ref_row_l2(const float *x, size_t cols)
{
    const size_t ch = 16384;
    if (cols <= ch)
        return (float)sqrt(ref_lanes(x, cols, true));
    size_t np = (cols + ch - 1) / ch;
    float *part = malloc(np * sizeof *part);
    for (size_t q = 0; q < np; q++)
        part[q] = ref_lanes(x + q * ch, cols - q * ch < ch ? cols - q * ch : ch, true);
    float r = ref_lanes(part, np, false);
    free(part);
    return (float)sqrt(r);
}

static void reduction_rows(const char *compiler)
{
    env e = env_open(compiler);
    accel_kernel *k;
    cr_assert_eq(accel_kernel_reduction_create(e.rt, "l2norm", "float32 x", "float32 y", "x * x",
                                               "a + b", "0", "y = sqrt(a)", NULL, &k),
                 ACCEL_SUCCESS, "%s", accel_last_error());
    static const size_t shapes[][2] = {{1, 0},     {1, 1},     {1, 257},   {3, 1000},
                                       {7, 257},   {1000, 3},  {13, 1031}, {1, (1u << 20) + 3},
                                       {1, 16384}, {1, 16385}, {3, 40000}, {2, 256 * 16384 + 300}};
    tu_rng r = tu_rng_make(3);
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        size_t rows = shapes[s][0], cols = shapes[s][1], n = rows * cols;
        float *x = malloc(n * 4 + 4), *y = malloc(rows * 4), *y2 = malloc(rows * 4);
        for (size_t i = 0; i < n; i++)
            x[i] = (float)tu_rng_range(&r, -1, 1);
        accel_buffer *bx = upload(&e, x, n * 4), *by = upload(&e, NULL, rows * 4);
        accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(bx, 0, n)),
                                   accel_karg_array(accel_slice_of(by, 0, rows))};
        cr_assert_eq(accel_kernel_launch(e.q, k, 2, args), ACCEL_SUCCESS, "%s", accel_last_error());
        download(&e, by, y, rows * 4);
        cr_assert_eq(accel_kernel_launch(e.q, k, 2, args), ACCEL_SUCCESS);
        download(&e, by, y2, rows * 4);
        for (size_t i = 0; i < rows; i++) {
            float ref = ref_row_l2(x + i * cols, cols);
            cr_assert_eq(y[i], ref, "%zu x %zu row %zu: %.9g != %.9g", rows, cols, i, y[i], ref);
            cr_assert_eq(memcmp(&y[i], &y2[i], 4), 0, "not the same bits run to run");
            /* And near the exact value: within 2 n eps sum x^2 (Higham). */
            double exact = 0;
            for (size_t c = 0; c < cols; c++)
                exact += (double)x[i * cols + c] * x[i * cols + c];
            double bound = 2.0 * (double)(cols + 2) * 0x1p-23 * exact;
            cr_assert_leq(fabs((double)y[i] * y[i] - exact), bound + 1e-30);
        }
        accel_buffer_release(bx);
        accel_buffer_release(by);
        free(x);
        free(y);
        free(y2);
    }
    accel_kernel_release(k);
    accel_runtime_close(e.rt);
}

Test(kernel, reduction_rows_cc, .init = setup)
{
    reduction_rows("cc");
}
Test(kernel, reduction_rows_tcc, .init = setup)
{
    reduction_rows("tcc");
}

Test(kernel, reduction_int_max, .init = setup)
{
    env e = env_open("cc");
    accel_kernel *k;
    cr_assert_eq(accel_kernel_reduction_create(e.rt, "imax", "int32 x", "int32 y", "x",
                                               "a > b ? a : b", "-2147483647 - 1", NULL, NULL, &k),
                 ACCEL_SUCCESS, "%s", accel_last_error());
    size_t rows = 5, cols = 333;
    int32_t x[5 * 333], y[5];
    tu_rng r = tu_rng_make(4);
    for (size_t i = 0; i < rows * cols; i++)
        x[i] = (int32_t)(tu_rng_next(&r) >> 33) - (1 << 30);
    accel_buffer *bx = upload(&e, x, sizeof x), *by = upload(&e, NULL, sizeof y);
    accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(bx, 0, rows * cols)),
                               accel_karg_array(accel_slice_of(by, 0, rows))};
    cr_assert_eq(accel_kernel_launch(e.q, k, 2, args), ACCEL_SUCCESS, "%s", accel_last_error());
    download(&e, by, y, sizeof y);
    for (size_t i = 0; i < rows; i++) {
        int32_t m = INT32_MIN;
        for (size_t c = 0; c < cols; c++)
            m = x[i * cols + c] > m ? x[i * cols + c] : m;
        cr_assert_eq(y[i], m);
    }
    accel_kernel_release(k);
    accel_runtime_close(e.rt);
}

/* ------------------------------------------------------------ raw kernels */

/* The tutorial's section 4 kernel (Numba's vector_add) as CUDA C. */
static const char vector_add_src[] =
    "__global__ void vector_add(const float *a, const float *b, float *c, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n)\n"
    "        c[i] = a[i] + b[i];\n"
    "}\n";

/* The tutorial's section 5 kernel, PyCUDA's multiply_them, verbatim. */
static const char multiply_them_src[] =
    "__global__ void multiply_them(float *dest, float *a, float *b)\n"
    "{\n"
    "  const int i = threadIdx.x;\n"
    "  dest[i] = a[i] * b[i];\n"
    "}\n";

static void tutorial_kernels(const char *compiler)
{
    env e = env_open(compiler);
    accel_kernel *va, *mt;
    cr_assert_eq(accel_kernel_raw_create(e.rt, vector_add_src, "vector_add", NULL, &va),
                 ACCEL_SUCCESS, "%s", accel_last_error());
    cr_assert_eq(accel_kernel_raw_create(e.rt, multiply_them_src, "multiply_them", NULL, &mt),
                 ACCEL_SUCCESS, "%s", accel_last_error());
    size_t n = 1000003;
    float *a = malloc(n * 4), *b = malloc(n * 4), *c = malloc(n * 4);
    tu_rng r = tu_rng_make(5);
    for (size_t i = 0; i < n; i++) {
        a[i] = (float)tu_rng_unit(&r);
        b[i] = (float)tu_rng_unit(&r);
    }
    accel_buffer *ba = upload(&e, a, n * 4), *bb = upload(&e, b, n * 4),
                 *bc = upload(&e, NULL, n * 4);
    uint32_t block[3] = {256, 1, 1}, grid[3] = {(uint32_t)((n + 255) / 256), 1, 1};
    accel_kernel_arg args[] = {
        accel_karg_array(accel_slice_of(ba, 0, n)), accel_karg_array(accel_slice_of(bb, 0, n)),
        accel_karg_array(accel_slice_of(bc, 0, n)), accel_karg_i32((int32_t)n)};
    cr_assert_eq(accel_kernel_launch_grid(e.q, va, grid, block, 4, args), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    download(&e, bc, c, n * 4);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(c[i], a[i] + b[i], "vector_add i=%zu", i);
    /* multiply_them on 400 floats, block (400,1,1), grid (1,1). */
    uint32_t b400[3] = {400, 1, 1}, g1[3] = {1, 1, 1};
    accel_kernel_arg margs[] = {accel_karg_array(accel_slice_of(bc, 0, 400)),
                                accel_karg_array(accel_slice_of(ba, 0, 400)),
                                accel_karg_array(accel_slice_of(bb, 0, 400))};
    cr_assert_eq(accel_kernel_launch_grid(e.q, mt, g1, b400, 3, margs), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    download(&e, bc, c, 401 * 4);
    for (size_t i = 0; i < 400; i++)
        cr_assert_eq(c[i], a[i] * b[i], "multiply_them i=%zu", i);
    cr_assert_eq(c[400], a[400] + b[400], "element 400 must keep vector_add's value");
    free(a);
    free(b);
    free(c);
    accel_kernel_release(va);
    accel_kernel_release(mt);
    accel_runtime_close(e.rt);
}

Test(kernel, tutorial_kernels_cc, .init = setup)
{
    tutorial_kernels("cc");
}
Test(kernel, tutorial_kernels_tcc, .init = setup)
{
    tutorial_kernels("tcc");
}

Test(kernel, raw_2d_grid, .init = setup)
{
    env e = env_open("cc");
    accel_kernel *k;
    const char *src = "// writes its global (x, y) index\n"
                      "__global__ void ids(int *out, int w)\n"
                      "{\n"
                      "    int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
                      "    int y = blockIdx.y * blockDim.y + threadIdx.y;\n"
                      "    out[y * w + x] = y * 1000 + x + gridDim.x * 0 + blockDim.z - 1;\n"
                      "}\n";
    cr_assert_eq(accel_kernel_raw_create(e.rt, src, "ids", NULL, &k), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    uint32_t grid[3] = {3, 5, 1}, block[3] = {4, 2, 1};
    size_t w = 12, h = 10;
    accel_buffer *b = upload(&e, NULL, w * h * 4);
    accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(b, 0, w * h)),
                               accel_karg_i32((int32_t)w)};
    args[0].dtype = ACCEL_I32;
    cr_assert_eq(accel_kernel_launch_grid(e.q, k, grid, block, 2, args), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    int32_t out[120];
    download(&e, b, out, sizeof out);
    for (size_t y = 0; y < h; y++)
        for (size_t x = 0; x < w; x++)
            cr_assert_eq(out[y * w + x], (int32_t)(y * 1000 + x));
    accel_kernel_release(k);
    accel_runtime_close(e.rt);
}

/* ------------------------------------------------------------ errors */

static void compile_errors(const char *compiler)
{
    env e = env_open(compiler);
    accel_kernel *k;
    cr_assert_eq(accel_kernel_elementwise_create(e.rt, "broken", "float32 x", "float32 z",
                                                 "float t = x;\nz = t + * 2;", NULL, &k),
                 ACCEL_SUCCESS);
    accel_status st = accel_kernel_build(k, e.dev, 0);
    cr_assert_eq(st, ACCEL_ERROR_COMPILE, "%s: %s", accel_status_name(st), accel_last_error());
    cr_assert(strstr(accel_last_error(), "broken:2"), "%s: no user line 2 in: %s", compiler,
              accel_last_error());
    /* The launch reports the same error, and nothing runs. */
    accel_buffer *b = upload(&e, NULL, 16);
    accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(b, 0, 4)),
                               accel_karg_array(accel_slice_of(b, 0, 4))};
    cr_assert_eq(accel_kernel_launch(e.q, k, 2, args), ACCEL_ERROR_COMPILE);
    cr_assert(strstr(accel_last_error(), "broken:2"), "%s", accel_last_error());
    accel_kernel_release(k);

    const char *src = "__global__ void bad(float *x)\n"
                      "{\n"
                      "    int i = threadIdx.x;\n"
                      "    x[i] = undefined_name * 2;\n"
                      "}\n";
    cr_assert_eq(accel_kernel_raw_create(e.rt, src, "bad", NULL, &k), ACCEL_SUCCESS);
    st = accel_kernel_build(k, e.dev, 0);
    cr_assert_eq(st, ACCEL_ERROR_COMPILE, "%s", accel_last_error());
    cr_assert(strstr(accel_last_error(), "bad:4"), "%s: no user line 4 in: %s", compiler,
              accel_last_error());
    accel_kernel_release(k);

    /* One-line reduction expressions cut short: the error is found at the
     * wrapper's closing, and still counts as the expression's line 1. */
    static const char *const parts[4][5] = {
        {"x +", "a + b", "0", "a", "rk (map):1:"},
        {"x", "a +", "0", "a", "rk (reduce):1:"},
        {"x", "a + b", "0 *", "a", "rk (identity):1:"},
        {"x", "a + b", "0", "sqrt(a", "rk (post):1:"},
    };
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(accel_kernel_reduction_create(e.rt, "rk", "float32 x", "float32 y",
                                                   parts[i][0], parts[i][1], parts[i][2],
                                                   parts[i][3], NULL, &k),
                     ACCEL_SUCCESS, "%s", accel_last_error());
        st = accel_kernel_build(k, e.dev, 0);
        cr_assert_eq(st, ACCEL_ERROR_COMPILE, "%s", accel_last_error());
        const char *at = strstr(accel_last_error(), parts[i][4]);
        cr_assert(at, "%s: no %s in: %s", compiler, parts[i][4], accel_last_error());
        const char *line2 = tu_fmt("%.*s2:", (int)strlen(parts[i][4]) - 2, parts[i][4]);
        cr_assert(!strstr(accel_last_error(), line2), "%s: %s in: %s", compiler, line2,
                  accel_last_error());
        accel_kernel_release(k);
    }
    accel_runtime_close(e.rt);
}

Test(kernel, compile_error_lines_cc, .init = setup)
{
    compile_errors("cc");
}
Test(kernel, compile_error_lines_tcc, .init = setup)
{
    compile_errors("tcc");
}

/* A __device__ function that reads threadIdx: the twin hands every
 * __device__ function the thread's context, as CUDA does. */
Test(kernel, device_function_reading_thread_index_runs_on_cpu, .init = setup)
{
    env e = env_open("cc");
    const char *src = "__device__ float helper(const float *x)\n"
                      "{\n"
                      "    return x[threadIdx.x];\n"
                      "}\n"
                      "__device__ float scale = 2.0f;\n"
                      "__global__ void uses_helper(float *x)\n"
                      "{\n"
                      "    x[threadIdx.x] = helper(x) * scale;\n"
                      "}\n";
    accel_kernel *k;
    cr_assert_eq(accel_kernel_raw_create(e.rt, src, "uses_helper", NULL, &k), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    float h[8] = {1, -2, 3, -4, 5, -6, 7, -8}, r[8];
    accel_buffer *b = upload(&e, h, sizeof h);
    accel_kernel_arg a[] = {accel_karg_array(accel_slice_of(b, 0, 8))};
    uint32_t g1[3] = {1, 1, 1}, b8[3] = {8, 1, 1};
    cr_assert_eq(accel_kernel_launch_grid(e.q, k, g1, b8, 1, a), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    download(&e, b, r, sizeof r);
    for (int i = 0; i < 8; i++)
        cr_assert_eq(r[i], 2.0f * h[i]);
    accel_buffer_release(b);
    accel_kernel_release(k);
    accel_runtime_close(e.rt);
}

/* Inline PTX cannot run on the CPU: refused with its line, at build and at
 * launch; a comment naming it is not it. */
Test(kernel, inline_asm_refused_on_cpu, .init = setup)
{
    env e = env_open("cc");
    const char *src = "__global__ void fence(float *x)\n"
                      "{\n"
                      "    x[threadIdx.x] = 1.0f;\n"
                      "    asm volatile(\"membar.gl;\");\n"
                      "}\n";
    accel_kernel *k;
    cr_assert_eq(accel_kernel_raw_create(e.rt, src, "fence", NULL, &k), ACCEL_SUCCESS);
    accel_status st = accel_kernel_build(k, e.dev, 0);
    cr_assert_eq(st, ACCEL_ERROR_UNSUPPORTED, "%s", accel_last_error());
    cr_assert(strstr(accel_last_error(), "asm (line 4)"), "%s", accel_last_error());
    cr_assert(strstr(accel_last_error(), "CUDA"), "%s", accel_last_error());
    accel_buffer *b = upload(&e, NULL, 1024);
    uint32_t g[3] = {1, 1, 1}, bl[3] = {256, 1, 1};
    accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(b, 0, 256))};
    st = accel_kernel_launch_grid(e.q, k, g, bl, 1, args);
    cr_assert_eq(st, ACCEL_ERROR_UNSUPPORTED, "%s", accel_last_error());
    cr_assert(strstr(accel_last_error(), "asm"), "%s", accel_last_error());
    accel_kernel_release(k);
    const char *ok = "// no asm here\n__global__ void f(float *x) { x[0] = 1; }\n";
    cr_assert_eq(accel_kernel_raw_create(e.rt, ok, "f", NULL, &k), ACCEL_SUCCESS);
    cr_assert_eq(accel_kernel_build(k, e.dev, 0), ACCEL_SUCCESS, "%s", accel_last_error());
    accel_kernel_release(k);
    accel_runtime_close(e.rt);
}

/* accel_kernel_source_get: the generated program, its length, truncation,
 * and the 16-bit helpers only where a 16-bit dtype is stored. */
Test(kernel, source_get, .init = setup)
{
    env e = env_open("tcc");
    accel_kernel *k, *h;
    cr_assert_eq(accel_kernel_elementwise_create(e.rt, "saxpy", "float32 x, float32 y, float32 a",
                                                 "float32 z", "z = a * x + y", NULL, &k),
                 ACCEL_SUCCESS);
    cr_assert_eq(accel_kernel_elementwise_create(e.rt, "halve", "float16 x", "float16 z",
                                                 "z = x * 0.5f", NULL, &h),
                 ACCEL_SUCCESS);
    size_t len = 0;
    cr_assert_eq(accel_kernel_source_get(k, e.dev, 0x4, NULL, 0, &len), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    cr_assert_gt(len, 100);
    char *src = malloc(len + 1);
    size_t len2 = 0;
    cr_assert_eq(accel_kernel_source_get(k, e.dev, 0x4, src, len + 1, &len2), ACCEL_SUCCESS);
    cr_assert_eq(len2, len);
    cr_assert_eq(strlen(src), len);
    cr_assert(strstr(src, "#line 1 \"saxpy\"\nz = a * x + y\n"), "%s", src);
    cr_assert(strstr(src, "accel_ew_saxpy("), "%s", src);
    cr_assert_null(strstr(src, "accel_h2f"), "f32-only kernel carries 16-bit helpers");
    /* Truncated: size - 1 characters and the NUL, full length still reported. */
    char small[16];
    cr_assert_eq(accel_kernel_source_get(k, e.dev, 0x4, small, sizeof small, &len2), ACCEL_SUCCESS);
    cr_assert_eq(len2, len);
    cr_assert_eq(strlen(small), sizeof small - 1);
    cr_assert_eq(memcmp(small, src, sizeof small - 1), 0);
    free(src);
    cr_assert_eq(accel_kernel_source_get(h, e.dev, 0, NULL, 0, &len), ACCEL_SUCCESS);
    src = malloc(len + 1);
    cr_assert_eq(accel_kernel_source_get(h, e.dev, 0, src, len + 1, NULL), ACCEL_SUCCESS);
    cr_assert(strstr(src, "accel_h2f") && strstr(src, "accel_f2h"), "%s", src);
    free(src);
    /* Bad input. */
    cr_assert_eq(accel_kernel_source_get(k, e.dev, 0, NULL, 8, &len), ACCEL_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(accel_last_error(), "out is NULL"), "%s", accel_last_error());
    cr_assert_eq(accel_kernel_source_get(k, e.dev, 0x8, NULL, 0, &len),
                 ACCEL_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(accel_last_error(), "scalar_mask"), "%s", accel_last_error());
    cr_assert_eq(accel_kernel_source_get(NULL, e.dev, 0, NULL, 0, &len),
                 ACCEL_ERROR_INVALID_HANDLE);
    accel_kernel_release(k);
    accel_kernel_release(h);
    accel_runtime_close(e.rt);
}

Test(kernel, launch_errors, .init = setup)
{
    env e = env_open("cc");
    accel_kernel *k, *raw;
    cr_assert_eq(accel_kernel_elementwise_create(e.rt, "saxpy", "float32 x, float32 y, float32 a",
                                                 "float32 z", "z = a * x + y", NULL, &k),
                 ACCEL_SUCCESS);
    cr_assert_eq(accel_kernel_raw_create(e.rt, vector_add_src, "vector_add", NULL, &raw),
                 ACCEL_SUCCESS);
    accel_buffer *b = upload(&e, NULL, 400), *other;
    cr_assert_eq(accel_buffer_create(e.dev, 400, &other), ACCEL_SUCCESS);
    accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(b, 0, 10)),
                               accel_karg_array(accel_slice_of(b, 10, 10)), accel_karg_f32(2),
                               accel_karg_array(accel_slice_of(other, 0, 10))};
    cr_assert_eq(accel_kernel_launch(e.q, k, 3, args), ACCEL_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(accel_last_error(), "takes 4 arguments"), "%s", accel_last_error());
    accel_kernel_arg bad = args[1];
    args[1].slice.offset = 95; /* [95, 105) of 100 floats */
    cr_assert_eq(accel_kernel_launch(e.q, k, 4, args), ACCEL_ERROR_OUT_OF_RANGE);
    cr_assert(strstr(accel_last_error(), "exceeds buffer of 100 f32"), "%s", accel_last_error());
    args[1] = bad;
    args[1].slice.count = 9;
    cr_assert_eq(accel_kernel_launch(e.q, k, 4, args), ACCEL_ERROR_SHAPE_MISMATCH);
    args[1] = bad;
    args[1].dtype = ACCEL_F64;
    cr_assert_eq(accel_kernel_launch(e.q, k, 4, args), ACCEL_ERROR_DTYPE_MISMATCH);
    args[1] = bad;
    accel_kernel_arg out_scalar = args[3];
    args[3] = accel_karg_f32(1);
    cr_assert_eq(accel_kernel_launch(e.q, k, 4, args), ACCEL_ERROR_INVALID_ARGUMENT);
    args[3] = out_scalar;
    args[3].slice = accel_slice_of(b, 5, 10); /* overlaps x partially */
    cr_assert_eq(accel_kernel_launch(e.q, k, 4, args), ACCEL_ERROR_INVALID_ARGUMENT);
    args[3] = out_scalar;
    args[3].slice.buffer = NULL;
    cr_assert_eq(accel_kernel_launch(e.q, k, 4, args), ACCEL_ERROR_INVALID_HANDLE);
    args[3] = out_scalar;
    cr_assert_eq(accel_kernel_launch(e.q, k, 4, args), ACCEL_SUCCESS, "%s", accel_last_error());
    /* Raw: grid and block limits, argument kinds. */
    accel_kernel_arg rargs[] = {accel_karg_array(accel_slice_of(b, 0, 10)),
                                accel_karg_array(accel_slice_of(b, 10, 10)),
                                accel_karg_array(accel_slice_of(other, 0, 10)), accel_karg_i32(10)};
    uint32_t g[3] = {1, 1, 1}, bl[3] = {2048, 1, 1};
    /* A raw kernel's count error names its signature, not an input/output split it has not. */
    uint32_t bl1[3] = {32, 1, 1};
    cr_assert_eq(accel_kernel_launch_grid(e.q, raw, g, bl1, 2, rargs),
                 ACCEL_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(accel_last_error(), "takes 4 arguments (the parameters of its __global__ "
                                         "signature, in order) but 2 were passed"),
              "%s", accel_last_error());
    cr_assert_eq(accel_kernel_launch_grid(e.q, raw, g, bl, 4, rargs), ACCEL_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(accel_last_error(), "block.x = 2048"), "%s", accel_last_error());
    uint32_t bl2[3] = {32, 32, 2};
    cr_assert_eq(accel_kernel_launch_grid(e.q, raw, g, bl2, 4, rargs),
                 ACCEL_ERROR_INVALID_ARGUMENT);
    uint32_t g2[3] = {1, 70000, 1}, bl3[3] = {10, 1, 1};
    cr_assert_eq(accel_kernel_launch_grid(e.q, raw, g2, bl3, 4, rargs),
                 ACCEL_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(accel_last_error(), "grid.y = 70000"), "%s", accel_last_error());
    rargs[3] = accel_karg_array(accel_slice_of(b, 0, 1));
    cr_assert_eq(accel_kernel_launch_grid(e.q, raw, g, bl3, 4, rargs),
                 ACCEL_ERROR_INVALID_ARGUMENT);
    rargs[3] = accel_karg_f32(1.5f);
    cr_assert_eq(accel_kernel_launch_grid(e.q, raw, g, bl3, 4, rargs), ACCEL_ERROR_DTYPE_MISMATCH);
    rargs[3] = accel_karg_i32(10);
    cr_assert_eq(accel_kernel_launch(e.q, raw, 4, rargs), ACCEL_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(accel_kernel_launch_grid(e.q, raw, g, bl3, 4, rargs), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    cr_assert_eq(accel_queue_finish(e.q), ACCEL_SUCCESS);
    /* Creation errors. */
    accel_kernel *x;
    cr_assert_eq(
        accel_kernel_elementwise_create(e.rt, "k", "complex64 x", "float32 z", "z = x", NULL, &x),
        ACCEL_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(accel_last_error(), "unknown type"), "%s", accel_last_error());
    cr_assert_eq(accel_kernel_elementwise_create(e.rt, "k", "float32 x, float32 x", "float32 z",
                                                 "z = x", NULL, &x),
                 ACCEL_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(accel_kernel_raw_create(e.rt, vector_add_src, "nope", NULL, &x),
                 ACCEL_ERROR_INVALID_ARGUMENT);
    cr_assert_null(x);
    accel_kernel_release(k);
    accel_kernel_release(raw);
    accel_runtime_close(e.rt);
}

/* ------------------------------------------------------------ cache */

static size_t count_entries(const char *dir, const char *suffix)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    if (!d)
        return 0;
    for (struct dirent *de; (de = readdir(d));) {
        size_t l = strlen(de->d_name), s = strlen(suffix);
        n += l > s && strcmp(de->d_name + l - s, suffix) == 0;
    }
    closedir(d);
    return n;
}

static const char *first_entry(const char *dir)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    const char *path = NULL;
    for (struct dirent *de; (de = readdir(d));)
        if (strstr(de->d_name, ".akc") && !strstr(de->d_name, ".tmp"))
            path = tu_fmt("%s/%s", dir, de->d_name);
    closedir(d);
    cr_assert_not_null(path);
    return path;
}

/* Build and run saxpy once in a new runtime; returns its cache counters. */
static accel_kernel_cache_stats run_saxpy_once(void)
{
    env e = env_open("cc");
    accel_kernel *k;
    cr_assert_eq(accel_kernel_elementwise_create(e.rt, "saxpy", "float32 x, float32 y, float32 a",
                                                 "float32 z", "z = a * x + y", NULL, &k),
                 ACCEL_SUCCESS);
    float x[5] = {1, 2, 3, 4, 5}, y[5] = {1, 1, 1, 1, 1}, z[5];
    accel_buffer *bx = upload(&e, x, 20), *by = upload(&e, y, 20), *bz = upload(&e, NULL, 20);
    accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(bx, 0, 5)),
                               accel_karg_array(accel_slice_of(by, 0, 5)), accel_karg_f32(3),
                               accel_karg_array(accel_slice_of(bz, 0, 5))};
    cr_assert_eq(accel_kernel_launch(e.q, k, 4, args), ACCEL_SUCCESS, "%s", accel_last_error());
    download(&e, bz, z, 20);
    for (int i = 0; i < 5; i++)
        cr_assert_eq(z[i], 3 * x[i] + 1);
    accel_kernel_cache_stats s;
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    cr_assert_eq(accel_kernel_cache_stats_get(e.rt, &s), ACCEL_SUCCESS);
    accel_kernel_release(k);
    accel_runtime_close(e.rt);
    return s;
}

Test(kernel, cache_hits_and_corrupt_entries, .init = setup)
{
    accel_kernel_cache_stats s = run_saxpy_once();
    cr_assert_eq(s.misses, 1);
    cr_assert_eq(s.disk_enabled, 1, "%s", s.disabled_reason);
    cr_assert_str_eq(s.dir, tu_realpath(cache_dir));
    cr_assert_eq(count_entries(cache_dir, ".akc"), 1);
    s = run_saxpy_once();
    cr_assert_eq(s.disk_hits, 1);
    cr_assert_eq(s.misses, 0);
    /* One flipped byte in the payload: rebuilt, never loaded. */
    const char *path = first_entry(cache_dir);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    int fd = open(path, O_RDWR);
    cr_assert_geq(fd, 0);
    unsigned char c;
    cr_assert_eq(pread(fd, &c, 1, st.st_size - 100), 1);
    c ^= 0x40;
    cr_assert_eq(pwrite(fd, &c, 1, st.st_size - 100), 1);
    close(fd);
    s = run_saxpy_once();
    cr_assert_eq(s.rebuilt, 1);
    cr_assert_eq(s.misses, 1);
    s = run_saxpy_once();
    cr_assert_eq(s.disk_hits, 1, "the rebuilt entry replaced the bad one");
    cr_assert_eq(count_entries(cache_dir, ".loading"), 0, "a load left its marker");
    /* A marker of a load that never finished (the process ended in the
     * driver): the entry is not handed to the backend again but rebuilt,
     * and the marker goes. */
    int mfd = open(tu_fmt("%s.loading", path), O_WRONLY | O_CREAT | O_EXCL, 0600);
    cr_assert_geq(mfd, 0);
    close(mfd);
    s = run_saxpy_once();
    cr_assert_eq(s.rebuilt, 1);
    cr_assert_eq(s.misses, 1);
    cr_assert_eq(s.disk_hits, 0);
    cr_assert_eq(count_entries(cache_dir, ".loading"), 0, "the stale marker stayed");
    s = run_saxpy_once();
    cr_assert_eq(s.disk_hits, 1, "the rebuilt entry is loaded again");
    /* Truncated. */
    cr_assert_eq(truncate(path, st.st_size / 2), 0);
    s = run_saxpy_once();
    cr_assert_eq(s.rebuilt, 1);
    cr_assert_eq(s.misses, 1);
    /* Two kernels with the same text in one process: the second is a memory hit. */
    env e = env_open("cc");
    accel_kernel *a, *b;
    cr_assert_eq(accel_kernel_elementwise_create(e.rt, "dbl", "float32 x", "float32 z", "z = 2 * x",
                                                 NULL, &a),
                 ACCEL_SUCCESS);
    cr_assert_eq(accel_kernel_elementwise_create(e.rt, "dbl", "float32 x", "float32 z", "z = 2 * x",
                                                 NULL, &b),
                 ACCEL_SUCCESS);
    cr_assert_eq(accel_kernel_build(a, e.dev, 0), ACCEL_SUCCESS);
    cr_assert_eq(accel_kernel_build(b, e.dev, 0), ACCEL_SUCCESS);
    cr_assert_eq(accel_kernel_cache_stats_get(e.rt, &s), ACCEL_SUCCESS);
    cr_assert_eq(s.memory_hits, 1);
    accel_kernel_release(a);
    accel_kernel_release(b);
    accel_runtime_close(e.rt);
}

/* Two threads build distinct kernels at once (compiles run outside the
 * cache's lock): every build succeeds, each kernel computes its own
 * formula, and each build is one miss. */
typedef struct build_job {
    env *e;
    int first;
    accel_status st;
    int wrong;
} build_job;

static void *build_four(void *arg)
{
    build_job *j = arg;
    float x[64], z[64];
    for (int i = 0; i < 64; i++)
        x[i] = (float)i - 20.0f;
    for (int t = j->first; t < j->first + 4 && j->st == ACCEL_SUCCESS; t++) {
        accel_kernel *k = NULL;
        char body[64];
        snprintf(body, sizeof body, "z = x * %d.0f - 1.0f", t);
        j->st = accel_kernel_elementwise_create(j->e->rt, tu_fmt("par%d", t), "float32 x",
                                                "float32 z", body, NULL, &k);
        if (j->st == ACCEL_SUCCESS)
            j->st = accel_kernel_build(k, j->e->dev, 0);
        accel_buffer *bx = NULL, *bz = NULL;
        if (j->st == ACCEL_SUCCESS)
            j->st = accel_buffer_create(j->e->dev, sizeof x, &bx);
        if (j->st == ACCEL_SUCCESS)
            j->st = accel_buffer_create(j->e->dev, sizeof z, &bz);
        accel_queue *q = NULL;
        if (j->st == ACCEL_SUCCESS)
            j->st = accel_queue_create(j->e->dev, &q);
        if (j->st == ACCEL_SUCCESS)
            j->st = accel_queue_write(q, bx, 0, x, sizeof x);
        accel_kernel_arg args[2] = {accel_karg_array(accel_slice_of(bx, 0, 64)),
                                    accel_karg_array(accel_slice_of(bz, 0, 64))};
        if (j->st == ACCEL_SUCCESS)
            j->st = accel_kernel_launch(q, k, 2, args);
        if (j->st == ACCEL_SUCCESS)
            j->st = accel_queue_read_blocking(q, bz, 0, z, sizeof z);
        for (int i = 0; j->st == ACCEL_SUCCESS && i < 64; i++)
            j->wrong += z[i] != x[i] * (float)t - 1.0f;
        accel_queue_release(q);
        accel_buffer_release(bx);
        accel_buffer_release(bz);
        accel_kernel_release(k);
    }
    return NULL;
}

Test(kernel, parallel_builds_from_two_threads, .init = setup)
{
    env e = env_open("tcc");
    build_job jobs[2] = {{&e, 2, ACCEL_SUCCESS, 0}, {&e, 6, ACCEL_SUCCESS, 0}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        cr_assert_eq(pthread_create(&th[i], NULL, build_four, &jobs[i]), 0);
    for (int i = 0; i < 2; i++) {
        pthread_join(th[i], NULL);
        cr_assert_eq(jobs[i].st, ACCEL_SUCCESS, "thread %d: %s", i, accel_status_name(jobs[i].st));
        cr_assert_eq(jobs[i].wrong, 0, "thread %d: %d wrong elements", i, jobs[i].wrong);
    }
    accel_kernel_cache_stats cs;
    memset(&cs, 0, sizeof cs);
    cs.struct_size = sizeof cs;
    cr_assert_eq(accel_kernel_cache_stats_get(e.rt, &cs), ACCEL_SUCCESS);
    cr_assert_eq(cs.misses, 8, "misses %llu", (unsigned long long)cs.misses);
    cr_assert_eq(cs.failures, 0);
    accel_runtime_close(e.rt);
}

Test(kernel, cache_two_processes_race, .init = setup)
{
    enum { N = 4 };
    pid_t pids[N];
    for (int i = 0; i < N; i++) {
        pids[i] = fork();
        cr_assert_geq(pids[i], 0);
        if (pids[i] == 0) {
            accel_kernel_cache_stats s = run_saxpy_once();
            _exit(s.misses + s.disk_hits == 1 ? 0 : 3);
        }
    }
    for (int i = 0; i < N; i++) {
        int status;
        cr_assert_eq(waitpid(pids[i], &status, 0), pids[i]);
        cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child %d failed (%d)", i, status);
    }
    cr_assert_eq(count_entries(cache_dir, ".akc"), 1);
    cr_assert_eq(count_entries(cache_dir, ".tmp"), 0);
    accel_kernel_cache_stats s = run_saxpy_once();
    cr_assert_eq(s.disk_hits, 1);
    cr_assert_eq(s.rebuilt, 0);
}

Test(kernel, cache_insecure_folder_refused, .init = setup)
{
    cr_assert_eq(mkdir(cache_dir, 0700), 0);
    cr_assert_eq(chmod(cache_dir, 0777), 0);
    tu_log_capture();
    accel_kernel_cache_stats s = run_saxpy_once();
    cr_assert_eq(s.disk_enabled, 0);
    cr_assert(strstr(s.disabled_reason, "world-writable"), "%s", s.disabled_reason);
    cr_assert(tu_log_contains(ACCEL_LOG_WARN, "memory only"), "%s", tu_log_text());
    cr_assert_eq(count_entries(cache_dir, ".akc"), 0);
}

Test(kernel, cache_read_only_folder, .init = setup)
{
    /* procfs refuses new files even to root. */
    setenv("ACCEL_KERNEL_CACHE", "/proc/self/fdinfo", 1);
    tu_log_capture();
    accel_kernel_cache_stats s = run_saxpy_once();
    cr_assert_eq(s.disk_enabled, 0);
    cr_assert_eq(s.misses, 1);
    cr_assert(tu_log_contains(ACCEL_LOG_WARN, "memory only"), "%s", tu_log_text());
    setenv("ACCEL_KERNEL_CACHE", "off", 1);
    s = run_saxpy_once();
    cr_assert_eq(s.disk_enabled, 0);
    cr_assert(strstr(s.disabled_reason, "turned off"), "%s", s.disabled_reason);
}

/* ------------------------------------------------------------ verify, fallback */

/* cpu:0 builds with cc, cpu2:0 with the embedded tcc, so a kernel may differ
 * between them on purpose (__TINYC__), as a CUDA kernel may with __CUDACC__. */
static accel_runtime *open_two_cpus(void)
{
    accel_runtime *rt = NULL;
    const char *ini = tu_fmt("[runtime]\norder = cpu, cpu2\n"
                             "[backend.cpu]\nlibrary = %s\nkernel_compiler = cc\n"
                             "[backend.cpu2]\nlibrary = %s\nkernel_compiler = tcc\n",
                             TU_CPU_PLUGIN, TU_CPU_PLUGIN);
    cr_assert_eq(tu_open_ini(ini, &rt, NULL), ACCEL_SUCCESS, "%s", accel_last_error());
    accel_verify_options o;
    accel_verify_options_init(&o);
    o.reference = "cpu:0";
    o.fail_on_mismatch = true;
    cr_assert_eq(accel_verify_configure(rt, &o), ACCEL_SUCCESS, "%s", accel_last_error());
    return rt;
}

Test(kernel, verify_catches_a_twin_that_differs, .init = setup)
{
    accel_runtime *rt = open_two_cpus();
    accel_device *dev;
    accel_queue *q;
    cr_assert_eq(accel_device_get_by_name(rt, "cpu2:0", &dev), ACCEL_SUCCESS);
    cr_assert_eq(accel_queue_create(dev, &q), ACCEL_SUCCESS);
    const char *src = "__global__ void tag(float *x, int n)\n"
                      "{\n"
                      "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                      "#ifdef __TINYC__\n"
                      "    if (i < n) x[i] = 1.0f;\n"
                      "#else\n"
                      "    if (i < n) x[i] = 2.0f;\n"
                      "#endif\n"
                      "}\n";
    accel_kernel *bad, *good;
    cr_assert_eq(accel_kernel_raw_create(rt, src, "tag", NULL, &bad), ACCEL_SUCCESS);
    cr_assert_eq(accel_kernel_raw_create(rt, vector_add_src, "vector_add", NULL, &good),
                 ACCEL_SUCCESS);
    accel_buffer *b;
    cr_assert_eq(accel_buffer_create(dev, 4096, &b), ACCEL_SUCCESS);
    float ones[1024];
    for (int i = 0; i < 1024; i++)
        ones[i] = (float)i;
    cr_assert_eq(accel_queue_write(q, b, 0, ones, sizeof ones), ACCEL_SUCCESS);
    uint32_t g[3] = {4, 1, 1}, bl[3] = {256, 1, 1};
    accel_kernel_arg gargs[] = {accel_karg_array(accel_slice_of(b, 0, 300)),
                                accel_karg_array(accel_slice_of(b, 300, 300)),
                                accel_karg_array(accel_slice_of(b, 600, 300)), accel_karg_i32(300)};
    cr_assert_eq(accel_kernel_launch_grid(q, good, g, bl, 4, gargs), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    cr_assert_eq(accel_queue_finish(q), ACCEL_SUCCESS, "%s", accel_last_error());
    accel_verify_stats vs;
    memset(&vs, 0, sizeof vs);
    vs.struct_size = sizeof vs;
    cr_assert_eq(accel_verify_stats_get(rt, &vs), ACCEL_SUCCESS);
    cr_assert_eq(vs.checked, 1);
    cr_assert_eq(vs.mismatches, 0);
    accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(b, 0, 1000)), accel_karg_i32(1000)};
    cr_assert_eq(accel_kernel_launch_grid(q, bad, g, bl, 2, args), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    accel_status st = accel_queue_finish(q);
    cr_assert_eq(st, ACCEL_ERROR_MISMATCH, "%s: %s", accel_status_name(st), accel_last_error());
    cr_assert(strstr(accel_last_error(), "kernel tag"), "%s", accel_last_error());
    cr_assert(strstr(accel_last_error(), "got 1, expected 2"), "%s", accel_last_error());
    cr_assert_eq(accel_verify_stats_get(rt, &vs), ACCEL_SUCCESS);
    cr_assert_eq(vs.mismatches, 1);
    /* Released right after its launch: the check still runs, on a kernel
     * its job keeps alive (ASan would see a use after free otherwise). */
    cr_assert_eq(accel_kernel_launch_grid(q, bad, g, bl, 2, args), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    accel_kernel_release(bad);
    st = accel_queue_finish(q);
    cr_assert_eq(st, ACCEL_ERROR_MISMATCH, "%s: %s", accel_status_name(st), accel_last_error());
    cr_assert(strstr(accel_last_error(), "kernel tag"), "%s", accel_last_error());
    cr_assert_eq(accel_verify_stats_get(rt, &vs), ACCEL_SUCCESS);
    cr_assert_eq(vs.mismatches, 2);
    accel_kernel_release(good);
    accel_runtime_close(rt);
}

Test(kernel, fallback_from_a_backend_without_a_compiler, .init = setup)
{
    accel_runtime *rt = NULL;
    const char *ini = tu_fmt("[runtime]\norder = template, cpu\nreport = true\n"
                             "[backend.template]\nlibrary = %s\n"
                             "[backend.cpu]\nlibrary = %s\n",
                             TU_TEST_PLUGIN("template"), TU_CPU_PLUGIN);
    cr_assert_eq(tu_open_ini(ini, &rt, NULL), ACCEL_SUCCESS, "%s", accel_last_error());
    accel_device *dev;
    accel_queue *q;
    cr_assert_eq(accel_device_default(rt, &dev), ACCEL_SUCCESS);
    cr_assert_eq(accel_queue_create(dev, &q), ACCEL_SUCCESS);
    accel_kernel *k;
    cr_assert_eq(accel_kernel_elementwise_create(rt, "cube", "float64 x", "float64 z",
                                                 "z = x * x * x", NULL, &k),
                 ACCEL_SUCCESS);
    cr_assert_eq(accel_kernel_build(k, dev, 0), ACCEL_ERROR_UNSUPPORTED);
    cr_assert(strstr(accel_last_error(), "program_build"), "%s", accel_last_error());
    double x[100], z[100];
    for (int i = 0; i < 100; i++)
        x[i] = i - 50.5;
    accel_buffer *bx, *bz;
    cr_assert_eq(accel_buffer_create(dev, sizeof x, &bx), ACCEL_SUCCESS);
    cr_assert_eq(accel_buffer_create(dev, sizeof z, &bz), ACCEL_SUCCESS);
    cr_assert_eq(accel_queue_write(q, bx, 0, x, sizeof x), ACCEL_SUCCESS);
    accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(bx, 0, 100)),
                               accel_karg_array(accel_slice_of(bz, 0, 100))};
    cr_assert_eq(accel_kernel_launch(q, k, 2, args), ACCEL_SUCCESS, "%s", accel_last_error());
    cr_assert_eq(accel_queue_read_blocking(q, bz, 0, z, sizeof z), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    for (int i = 0; i < 100; i++)
        cr_assert_eq(z[i], x[i] * x[i] * x[i]);
    char report[4096];
    cr_assert_eq(accel_report_format(rt, report, sizeof report, NULL), ACCEL_SUCCESS);
    cr_assert(strstr(report, "kernel"), "%s", report);
    /* Without a fallback the launch says why. */
    cr_assert_eq(accel_fallback_configure(rt, NULL, false), ACCEL_SUCCESS);
    cr_assert_eq(accel_kernel_launch(q, k, 2, args), ACCEL_ERROR_UNSUPPORTED);
    cr_assert(strstr(accel_last_error(), "program_build"), "%s", accel_last_error());
    accel_kernel_release(k);
    accel_runtime_close(rt);
}

/* ------------------------------------------------------------ tools, trace */

Test(kernel, accel_run_eval_over_npy_files, .init = setup)
{
    const char *dir = tu_tmpdir();
    double a[3][5], b[3][5];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 5; j++)
            a[i][j] = i * 5 + j - 7.25, b[i][j] = 0.5 * j - i;
    size_t shape[2] = {3, 5};
    const char *pa = tu_fmt("%s/a.npy", dir), *pb = tu_fmt("%s/b.npy", dir),
               *pc = tu_fmt("%s/c.npy", dir);
    cr_assert_eq(accel_npy_save(pa, ACCEL_F64, 2, shape, a), ACCEL_SUCCESS);
    cr_assert_eq(accel_npy_save(pb, ACCEL_F64, 2, shape, b), ACCEL_SUCCESS);
    const char *cmd = tu_fmt("ACCEL_CONFIG= '%s/bin/accel' run eval '2*a + sqrt(b*b) - a/3' "
                             "a='%s' b='%s' -o '%s' --device cpu --verify 2>/dev/null",
                             ACCEL_TEST_BUILD_DIR, pa, pb, pc);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    accel_npy_array c;
    cr_assert_eq(accel_npy_load(pc, &c), ACCEL_SUCCESS, "%s", accel_last_error());
    cr_assert_eq(c.dtype, ACCEL_F64);
    cr_assert_eq(c.ndim, 2);
    cr_assert_eq(c.shape[0], 3);
    cr_assert_eq(c.shape[1], 5);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 5; j++) {
            double ref = 2 * a[i][j] + sqrt(b[i][j] * b[i][j]) - a[i][j] / 3;
            cr_assert_eq(((double *)c.data)[i * 5 + j], ref, "(%d, %d)", i, j);
        }
    accel_npy_free(&c);
    /* A bad expression is a wrong command line: exit status 2, the
     * compiler's message. */
    cmd = tu_fmt("'%s/bin/accel' run eval '2*a +' a='%s' -o '%s' --device cpu 2>/dev/null",
                 ACCEL_TEST_BUILD_DIR, pa, pc);
    int st = system(cmd);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 2, "%s: %d", cmd, st);
    /* Positions in the compiler's message count in the user's expression
     * (zz is at column 5 of "a + zz"; tcc gives the line only), and a
     * trailing // comment does not swallow the wrapper's closing. */
    const char *log = tu_fmt("%s/eval.err", dir);
    cmd = tu_fmt("'%s/bin/accel' run eval 'a + zz' a='%s' -o '%s' --device cpu 2>'%s'",
                 ACCEL_TEST_BUILD_DIR, pa, pc, log);
    st = system(cmd);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 2, "%s: %d", cmd, st);
    char text[8192] = "";
    FILE *f = fopen(log, "r");
    cr_assert(f);
    size_t got = fread(text, 1, sizeof text - 1, f);
    text[got] = '\0';
    fclose(f);
    const char *at = strstr(text, "expr:1:");
    cr_assert(at && strstr(text, "zz"), "%s", text);
    cr_assert(strstr(text, "EXPR names 'zz', which is neither an input (a)"), "%s", text);
    if (at[7] >= '0' && at[7] <= '9') /* a column: cc's */
        cr_assert(strncmp(at, "expr:1:5:", 9) == 0, "%s", text);
    cmd = tu_fmt("'%s/bin/accel' run eval 'a * 2 // twice' a='%s' -o '%s' --device cpu 2>/dev/null",
                 ACCEL_TEST_BUILD_DIR, pa, pc);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
}

Test(kernel, trace_names_the_kernel, .init = setup)
{
    const char *trace = tu_fmt("%s/trace.json", tu_tmpdir());
    setenv("ACCEL_TRACE", trace, 1);
    env e = env_open("cc");
    accel_kernel *k;
    cr_assert_eq(accel_kernel_elementwise_create(e.rt, "halve", "float32 x", "float32 z",
                                                 "z = x / 2", NULL, &k),
                 ACCEL_SUCCESS);
    accel_buffer *b = upload(&e, NULL, 400);
    accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(b, 0, 100)),
                               accel_karg_array(accel_slice_of(b, 0, 100))};
    cr_assert_eq(accel_kernel_launch(e.q, k, 2, args), ACCEL_SUCCESS, "%s", accel_last_error());
    cr_assert_eq(accel_queue_finish(e.q), ACCEL_SUCCESS);
    accel_kernel_release(k);
    accel_runtime_close(e.rt);
    unsetenv("ACCEL_TRACE");
    FILE *f = fopen(trace, "r");
    cr_assert_not_null(f, "no trace file %s", trace);
    char text[65536];
    size_t got = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[got] = '\0';
    cr_assert(strstr(text, "\"kernel halve\""), "%s", text);
}

/* An integer scalar that does not fit its parameter is refused, never
 * wrapped (2^31 + 5 into int32 would add 5 - 2^32; 300 into uint8, 44):
 * the launch checks it, and so does a graph's rebinding of the scalar. The
 * limits themselves pass and give the exact sum. */
Test(kernel, integer_scalars_out_of_range_refused, .init = setup)
{
    env e = env_open("tcc");
    accel_kernel *k32, *k8;
    cr_assert_eq(accel_kernel_elementwise_create(e.rt, "addi", "int32 x, int32 a", "int32 y",
                                                 "y = x + a", NULL, &k32),
                 ACCEL_SUCCESS, "%s", accel_last_error());
    cr_assert_eq(accel_kernel_elementwise_create(e.rt, "addu8", "uint8 x, uint8 a", "uint8 y",
                                                 "y = x + a", NULL, &k8),
                 ACCEL_SUCCESS, "%s", accel_last_error());
    int32_t xi[4] = {0, -1, 7, -7}, yi[4];
    uint8_t xu[4] = {0, 1, 2, 3}, yu[4];
    accel_buffer *bx = upload(&e, xi, sizeof xi), *by = upload(&e, NULL, sizeof yi);
    accel_buffer *ux = upload(&e, xu, sizeof xu), *uy = upload(&e, NULL, sizeof yu);
    accel_kernel_arg a32[] = {accel_karg_array(accel_slice_of(bx, 0, 4)), accel_karg_i64(0),
                              accel_karg_array(accel_slice_of(by, 0, 4))};
    a32[0].dtype = a32[2].dtype = ACCEL_I32;
    const int64_t bad32[] = {(int64_t)INT32_MAX + 1, (int64_t)INT32_MIN - 1, (1LL << 40) + 5};
    for (size_t i = 0; i < 3; i++) {
        a32[1] = accel_karg_i64(bad32[i]);
        cr_assert_eq(accel_kernel_launch(e.q, k32, 3, a32), ACCEL_ERROR_OUT_OF_RANGE, "%lld",
                     (long long)bad32[i]);
        cr_assert(strstr(accel_last_error(), "does not fit"), "%s", accel_last_error());
    }
    a32[1] = accel_karg_i64(3);
    a32[1].dtype = ACCEL_I16; /* a scalar dtype the ABI does not pass: named, not a number */
    cr_assert_eq(accel_kernel_launch(e.q, k32, 3, a32), ACCEL_ERROR_DTYPE_MISMATCH);
    cr_assert(strstr(accel_last_error(), "is a scalar of dtype i16"), "%s", accel_last_error());
    a32[1] = accel_karg_i64(INT32_MIN + 7); /* fits: y = x + a exactly */
    cr_assert_eq(accel_kernel_launch(e.q, k32, 3, a32), ACCEL_SUCCESS, "%s", accel_last_error());
    download(&e, by, yi, sizeof yi);
    for (int i = 0; i < 4; i++)
        cr_assert_eq(yi[i], xi[i] + (INT32_MIN + 7), "y[%d] = %d", i, yi[i]);
    accel_kernel_arg a8[] = {accel_karg_array(accel_slice_of(ux, 0, 4)), accel_karg_i64(0),
                             accel_karg_array(accel_slice_of(uy, 0, 4))};
    a8[0].dtype = a8[2].dtype = ACCEL_U8;
    const int64_t bad8[] = {256, 300, -1};
    for (size_t i = 0; i < 3; i++) {
        a8[1] = accel_karg_i64(bad8[i]);
        cr_assert_eq(accel_kernel_launch(e.q, k8, 3, a8), ACCEL_ERROR_OUT_OF_RANGE, "%lld",
                     (long long)bad8[i]);
    }
    a8[1] = accel_karg_i64(252);
    cr_assert_eq(accel_kernel_launch(e.q, k8, 3, a8), ACCEL_SUCCESS, "%s", accel_last_error());
    download(&e, uy, yu, sizeof yu);
    for (int i = 0; i < 4; i++)
        cr_assert_eq(yu[i], (uint8_t)(xu[i] + 252), "y[%d] = %d", i, yu[i]);
    /* A recorded launch: rebinding the scalar checks the same range. */
    accel_graph *g;
    a32[1] = accel_karg_i64(1);
    cr_assert_eq(accel_queue_begin_capture(e.q), ACCEL_SUCCESS);
    cr_assert_eq(accel_kernel_launch(e.q, k32, 3, a32), ACCEL_SUCCESS, "%s", accel_last_error());
    cr_assert_eq(accel_queue_end_capture(e.q, &g), ACCEL_SUCCESS, "%s", accel_last_error());
    cr_assert_eq(accel_graph_set_scalar(g, 0, 1, 4294967296.0 + 7), ACCEL_ERROR_OUT_OF_RANGE);
    cr_assert_eq(accel_graph_set_scalar(g, 0, 1, -2147483649.0), ACCEL_ERROR_OUT_OF_RANGE);
    cr_assert_eq(accel_graph_set_scalar(g, 0, 1, 2147483640.0), ACCEL_SUCCESS, "%s",
                 accel_last_error()); /* INT32_MAX - 7: x + a stays in range */
    cr_assert_eq(accel_graph_launch(g, e.q), ACCEL_SUCCESS, "%s", accel_last_error());
    download(&e, by, yi, sizeof yi);
    for (int i = 0; i < 4; i++)
        cr_assert_eq((int64_t)yi[i], (int64_t)xi[i] + 2147483640, "y[%d] = %d", i, yi[i]);
    accel_graph_release(g);
    accel_buffer_release(bx);
    accel_buffer_release(by);
    accel_buffer_release(ux);
    accel_buffer_release(uy);
    accel_kernel_release(k32);
    accel_kernel_release(k8);
    accel_runtime_close(e.rt);
}

/* Parameter names that would break the generated C or C++ code are refused
 * at create time with the reason, instead of failing to compile at a line of
 * the generated wrapper: C11 and C++ keywords and the implementation's
 * reserved identifiers. Ordinary names, a leading _ and a lower-case letter
 * included, are accepted. */
Test(kernel, reserved_parameter_names, .init = setup)
{
    env e = env_open("tcc");
    static const char *const bad[] = {"restrict", "inline", "_Bool", "_Generic", "__func__",
                                      "__half",   "new",    "this",  "bool",     "int"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char params[64];
        snprintf(params, sizeof params, "float32 %s", bad[i]);
        accel_kernel *k = NULL;
        cr_assert_eq(
            accel_kernel_elementwise_create(e.rt, "r", params, "float32 y", "y = 1", NULL, &k),
            ACCEL_ERROR_INVALID_ARGUMENT, "%s", bad[i]);
        cr_assert(strstr(accel_last_error(), "is reserved"), "%s", accel_last_error());
    }
    static const char *const good[] = {"x", "_x", "a_b", "x__", "inline2"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        char params[64];
        snprintf(params, sizeof params, "float32 %s", good[i]);
        accel_kernel *k = NULL;
        cr_assert_eq(
            accel_kernel_elementwise_create(e.rt, "g", params, "float32 y", "y = 1", NULL, &k),
            ACCEL_SUCCESS, "%s: %s", good[i], accel_last_error());
        accel_kernel_release(k);
    }
    accel_runtime_close(e.rt);
}

/* ------------------------------------------------------------ faults */

/* A launch whose CPU code faults: the launch is queued, and the queue's next
 * synchronizing call returns ACCEL_ERROR_KERNEL_FAULT naming the kernel and
 * the signal (then cleared); the process goes on. */
static void expect_fault(env *e, const char *kernel, const char *sig)
{
    accel_status st = accel_queue_finish(e->q);
    cr_assert_eq(st, ACCEL_ERROR_KERNEL_FAULT, "%s: %s", accel_status_name(st), accel_last_error());
    cr_assert(strstr(accel_last_error(), kernel) && strstr(accel_last_error(), sig),
              "want %s and %s in: %s", kernel, sig, accel_last_error());
    cr_assert_eq(accel_queue_finish(e->q), ACCEL_SUCCESS, "the error stays: %s",
                 accel_last_error());
}

static void faults_then_correct(const char *compiler)
{
    env e = env_open(compiler);
    accel_kernel *div, *wild;
    const char *src_div = "__global__ void divide(int *x, int d, int n)\n"
                          "{\n"
                          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                          "    if (i < n) x[i] = x[i] / d;\n"
                          "}\n";
    const char *src_wild = "__global__ void wild(float *x, long long addr)\n"
                           "{\n"
                           "    float *p = (float *)addr;\n"
                           "    p[threadIdx.x] = x[0];\n"
                           "}\n";
    cr_assert_eq(accel_kernel_raw_create(e.rt, src_div, "divide", NULL, &div), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    cr_assert_eq(accel_kernel_raw_create(e.rt, src_wild, "wild", NULL, &wild), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    enum { N = 1000 };
    int32_t x[N], y[N];
    for (int i = 0; i < N; i++)
        x[i] = 7 * i - 3000;
    accel_buffer *bx = upload(&e, x, sizeof x);
    uint32_t grid[3] = {(N + 127) / 128, 1, 1}, block[3] = {128, 1, 1};
    accel_kernel_arg a[] = {accel_karg_array(accel_slice_of(bx, 0, N)), accel_karg_i32(0),
                            accel_karg_i32(N)};
    a[0].dtype = ACCEL_I32;
    /* An integer division by a zero scalar: SIGFPE at run time. */
    cr_assert_eq(accel_kernel_launch_grid(e.q, div, grid, block, 3, a), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    expect_fault(&e, "kernel divide", "SIGFPE");
    /* A wild pointer (the first page, never mapped): SIGSEGV. */
    accel_buffer *bf = upload(&e, NULL, 64);
    accel_kernel_arg w[] = {accel_karg_array(accel_slice_of(bf, 0, 16)), accel_karg_i64(64)};
    w[0].dtype = ACCEL_F32;
    uint32_t g1[3] = {1, 1, 1}, b4[3] = {4, 1, 1};
    cr_assert_eq(accel_kernel_launch_grid(e.q, wild, g1, b4, 2, w), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    expect_fault(&e, "kernel wild", "SIGSEGV");
    /* Twice more, so a handler left blocked after the first jump would show. */
    cr_assert_eq(accel_kernel_launch_grid(e.q, div, grid, block, 3, a), ACCEL_SUCCESS);
    expect_fault(&e, "kernel divide", "SIGFPE");
    /* The same kernel with a divisor that is not zero runs correctly. */
    cr_assert_eq(accel_queue_write(e.q, bx, 0, x, sizeof x), ACCEL_SUCCESS);
    a[1] = accel_karg_i32(-3);
    cr_assert_eq(accel_kernel_launch_grid(e.q, div, grid, block, 3, a), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    download(&e, bx, y, sizeof y);
    for (int i = 0; i < N; i++)
        cr_assert_eq(y[i], x[i] / -3, "%s: y[%d] = %d, want %d", compiler, i, y[i], x[i] / -3);
    accel_buffer_release(bx);
    accel_buffer_release(bf);
    accel_kernel_release(div);
    accel_kernel_release(wild);
    accel_runtime_close(e.rt);
}

Test(kernel, faults_fail_the_launch_cc, .init = setup)
{
    faults_then_correct("cc");
}

Test(kernel, faults_fail_the_launch_tcc, .init = setup)
{
    faults_then_correct("tcc");
}

/* Outside user code the guard hands a fault on: a crash still crashes. */
Test(kernel, fault_outside_a_kernel_still_kills, .init = setup)
{
    env e = env_open("cc");
    accel_kernel *k;
    cr_assert_eq(
        accel_kernel_elementwise_create(e.rt, "twice", "int32 x", "int32 y", "y = 2 * x", NULL, &k),
        ACCEL_SUCCESS, "%s", accel_last_error());
    int32_t x[3] = {1, -2, 3}, y[3];
    accel_buffer *b = upload(&e, x, sizeof x);
    accel_kernel_arg a[] = {accel_karg_array(accel_slice_of(b, 0, 3)),
                            accel_karg_array(accel_slice_of(b, 0, 3))};
    a[0].dtype = a[1].dtype = ACCEL_I32;
    cr_assert_eq(accel_kernel_launch(e.q, k, 2, a), ACCEL_SUCCESS, "%s", accel_last_error());
    download(&e, b, y, sizeof y); /* the guard's handlers are installed now */
    for (int i = 0; i < 3; i++)
        cr_assert_eq(y[i], 2 * x[i]);
    fflush(NULL);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY); /* a sanitizer's report is expected */
        if (devnull >= 0)
            dup2(devnull, 2);
        raise(SIGSEGV);
        _exit(0);
    }
    int status = 0;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    /* Killed by the default action, or stopped by the handler that was
     * there before (a sanitizer's reports and exits non-zero). */
    cr_assert(!(WIFEXITED(status) && WEXITSTATUS(status) == 0), "the child survived: %d", status);
    if (WIFSIGNALED(status))
        cr_assert_eq(WTERMSIG(status), SIGSEGV, "status %d", status);
    accel_buffer_release(b);
    accel_kernel_release(k);
    accel_runtime_close(e.rt);
}

/* `accel run eval` over int32 files: values as C computes them, and x / 0
 * (which gcc turns into a trap, tcc into a division) an error, exit 1. */
Test(kernel, accel_run_eval_int32_and_division_by_zero, .init = setup)
{
    const char *dir = tu_tmpdir();
    int32_t a[2][3] = {{1, -2, 30}, {-40, 5, 2147483647}};
    size_t shape[2] = {2, 3};
    const char *pa = tu_fmt("%s/ia.npy", dir), *po = tu_fmt("%s/io.npy", dir),
               *log = tu_fmt("%s/ieval.err", dir);
    cr_assert_eq(accel_npy_save(pa, ACCEL_I32, 2, shape, a), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    const char *cmd = tu_fmt("ACCEL_CONFIG= '%s/bin/accel' run eval 'x / 3 - x %% 4' x='%s' -o "
                             "'%s' --device cpu 2>/dev/null",
                             ACCEL_TEST_BUILD_DIR, pa, po);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    accel_npy_array o;
    cr_assert_eq(accel_npy_load(po, &o), ACCEL_SUCCESS, "%s", accel_last_error());
    cr_assert_eq(o.dtype, ACCEL_I32);
    cr_assert_eq(o.count, 6);
    for (int i = 0; i < 6; i++) {
        int32_t v = a[i / 3][i % 3];
        cr_assert_eq(((int32_t *)o.data)[i], v / 3 - v % 4, "element %d", i);
    }
    accel_npy_free(&o);
    const char *compilers[] = {"cc", "tcc"};
    for (int c = 0; c < 2; c++) {
        cmd = tu_fmt("ACCEL_CONFIG= ACCEL_CPU_KERNEL_COMPILER=%s '%s/bin/accel' run eval 'x / 0' "
                     "x='%s' -o '%s' --device cpu 2>'%s'",
                     compilers[c], ACCEL_TEST_BUILD_DIR, pa, po, log);
        int st = system(cmd);
        cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1, "%s: %d", cmd, st);
        char text[4096] = "";
        FILE *f = fopen(log, "r");
        cr_assert(f);
        size_t got = fread(text, 1, sizeof text - 1, f);
        text[got] = '\0';
        fclose(f);
        cr_assert(strstr(text, "ACCEL_ERROR_KERNEL_FAULT") && strstr(text, "kernel expr") &&
                      (strstr(text, "SIGFPE") || strstr(text, "SIGILL")),
                  "%s: %s", compilers[c], text);
    }
}

/* More arguments than a queue task holds in place: the launch goes through
 * the heap, with the same results. */
Test(kernel, many_arguments, .init = setup)
{
    env e = env_open("cc");
    enum { NIN = 24, N = 37 };
    char params[NIN * 16] = "", body[NIN * 16] = "z = 0";
    for (int i = 0; i < NIN; i++) {
        size_t lp = strlen(params), lb = strlen(body);
        snprintf(params + lp, sizeof params - lp, "%sfloat64 a%d", i ? ", " : "", i);
        snprintf(body + lb, sizeof body - lb, " + a%d * %d", i, i + 1);
    }
    accel_kernel *k;
    cr_assert_eq(accel_kernel_elementwise_create(e.rt, "wide", params, "float64 z", body, NULL, &k),
                 ACCEL_SUCCESS, "%s", accel_last_error());
    double in[NIN][N], z[N];
    accel_buffer *b[NIN + 1];
    accel_kernel_arg a[NIN + 1];
    for (int i = 0; i < NIN; i++) {
        for (int j = 0; j < N; j++)
            in[i][j] = 0.25 * (i * N + j) - 17;
        if (i % 3 == 2) { /* every third input a scalar */
            a[i] = accel_karg_f64(in[i][0]);
            b[i] = NULL;
            for (int j = 1; j < N; j++)
                in[i][j] = in[i][0];
            continue;
        }
        b[i] = upload(&e, in[i], sizeof in[i]);
        a[i] = accel_karg_array(accel_slice_of(b[i], 0, N));
    }
    b[NIN] = upload(&e, NULL, sizeof z);
    a[NIN] = accel_karg_array(accel_slice_of(b[NIN], 0, N));
    cr_assert_eq(accel_kernel_launch(e.q, k, NIN + 1, a), ACCEL_SUCCESS, "%s", accel_last_error());
    download(&e, b[NIN], z, sizeof z);
    for (int j = 0; j < N; j++) {
        double ref = 0; /* the body's order: exact in binary for these quarter values */
        for (int i = 0; i < NIN; i++)
            ref = ref + in[i][j] * (i + 1);
        cr_assert_eq(z[j], ref, "z[%d] = %.17g, want %.17g", j, z[j], ref);
    }
    for (int i = 0; i <= NIN; i++)
        accel_buffer_release(b[i]);
    accel_kernel_release(k);
    accel_runtime_close(e.rt);
}

/* Arguments as given or converted: each launch below departs from the
 * plain case (arrays of the parameter's dtype, scalars of its own type) in
 * one way (a float64, int32 or int64 scalar converted to its parameter; an
 * array with an explicit dtype; an output in place of its input) and is
 * checked against a double loop of the body's float arithmetic; outputs
 * that overlap each other (only arrays of one buffer can) are refused. */
Test(kernel, launch_arguments_as_given_or_converted, .init = setup)
{
    env e = env_open("tcc");
    accel_kernel *k;
    cr_assert_eq(accel_kernel_elementwise_create(e.rt, "mixed", "float32 x, float32 a, int32 m",
                                                 "float32 z, float32 w", "z = a * x + m; w = x - a",
                                                 NULL, &k),
                 ACCEL_SUCCESS, "%s", accel_last_error());
    enum { N = 11 };
    float x[N], z[N], w[N];
    for (int i = 0; i < N; i++)
        x[i] = 0.5f * (float)i - 2.0f;
    accel_buffer *bx = upload(&e, x, sizeof x), *bz = upload(&e, NULL, 2 * sizeof z);
    const accel_kernel_arg X = accel_karg_array(accel_slice_of(bx, 0, N));
    const accel_kernel_arg Z = accel_karg_array(accel_slice_of(bz, 0, N));
    const accel_kernel_arg W = accel_karg_array(accel_slice_of(bz, N, N));
    struct {
        accel_kernel_arg a, m;
        double av, mv;
    } cases[] = {
        {accel_karg_f32(1.5f), accel_karg_i32(-3), 1.5, -3},    /* as declared */
        {accel_karg_f64(2.25), accel_karg_i32(4), 2.25, 4},     /* float64 -> float32 */
        {accel_karg_i32(3), accel_karg_i32(1), 3, 1},           /* int32 -> float32 */
        {accel_karg_f32(-0.75f), accel_karg_i64(-7), -0.75, -7} /* int64 -> int32 */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        accel_kernel_arg args[] = {X, cases[c].a, cases[c].m, Z, W};
        if (c == 3)
            args[0].dtype = args[3].dtype = ACCEL_F32; /* explicit dtypes */
        cr_assert_eq(accel_kernel_launch(e.q, k, 5, args), ACCEL_SUCCESS, "case %zu: %s", c,
                     accel_last_error());
        float zw[2 * N];
        download(&e, bz, zw, sizeof zw);
        for (int i = 0; i < N; i++) {
            z[i] = zw[i];
            w[i] = zw[N + i];
            float ref_z = (float)((double)(float)cases[c].av * x[i]);
            ref_z = (float)((double)ref_z + (double)(int32_t)cases[c].mv);
            float ref_w = (float)((double)x[i] - (double)(float)cases[c].av);
            cr_assert_eq(z[i], ref_z, "case %zu: z[%d] = %.9g, want %.9g", c, i, z[i], ref_z);
            cr_assert_eq(w[i], ref_w, "case %zu: w[%d] = %.9g, want %.9g", c, i, w[i], ref_w);
        }
    }
    /* In place: z is x's own range (x is read before z is written, per element). */
    accel_kernel_arg inplace[] = {X, accel_karg_f32(2.0f), accel_karg_i32(1), X, W};
    cr_assert_eq(accel_kernel_launch(e.q, k, 5, inplace), ACCEL_SUCCESS, "%s", accel_last_error());
    download(&e, bx, z, sizeof z);
    for (int i = 0; i < N; i++)
        cr_assert_eq(z[i], 2.0f * x[i] + 1.0f, "in place: x[%d] = %.9g", i, z[i]);
    /* Outputs overlapping each other: refused, the common-case arguments or not. */
    accel_kernel_arg overlap[] = {X, accel_karg_f32(1.0f), accel_karg_i32(0), Z,
                                  accel_karg_array(accel_slice_of(bz, N - 1, N))};
    cr_assert_eq(accel_kernel_launch(e.q, k, 5, overlap), ACCEL_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(accel_last_error(), "outputs may not overlap"), "%s", accel_last_error());
    overlap[1] = accel_karg_f64(1.0);
    cr_assert_eq(accel_kernel_launch(e.q, k, 5, overlap), ACCEL_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(accel_last_error(), "outputs may not overlap"), "%s", accel_last_error());
    /* A count that differs is named. */
    accel_kernel_arg shorter[] = {X, accel_karg_f32(1.0f), accel_karg_i32(0), Z,
                                  accel_karg_array(accel_slice_of(bz, N, N - 1))};
    cr_assert_eq(accel_kernel_launch(e.q, k, 5, shorter), ACCEL_ERROR_SHAPE_MISMATCH);
    cr_assert(strstr(accel_last_error(), "w has 10 elements but z has 11"), "%s",
              accel_last_error());
    shorter[2] = accel_karg_i64(0);
    cr_assert_eq(accel_kernel_launch(e.q, k, 5, shorter), ACCEL_ERROR_SHAPE_MISMATCH);
    cr_assert(strstr(accel_last_error(), "w has 10 elements but z has 11"), "%s",
              accel_last_error());
    accel_buffer_release(bx);
    accel_buffer_release(bz);
    accel_kernel_release(k);
    accel_runtime_close(e.rt);
}
