/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_opencl_kernels.c — raw kernels in the CUDA-C dialect on opencl:0
 * (whatever device that is: PoCL here, NVIDIA's OpenCL on the GPU machine),
 * translated to OpenCL C by the plugin: shared memory and barriers (a block
 * reduction, a tiled matrix product, dynamic shared memory), atomics (a
 * histogram, a float sum through atomicAdd), each against a plain C loop;
 * and the array layer's generated kernels (accel_array_binary, _reduce) on
 * opencl:0 against the same calls on cpu:0. No fallback is configured, so a
 * kernel that did not run on OpenCL fails the test. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/array.h"
#include "accel/kernel.h"
#include "test_util.h"

typedef struct env {
    accel_runtime *rt;
    accel_device *dev, *cpu;
    accel_queue *q, *cq;
} env;

static env open_env(void)
{
    setenv("ACCEL_KERNEL_CACHE", tu_fmt("%s/cache", tu_tmpdir()), 1);
    env e;
    const char *ini = tu_fmt("[runtime]\norder = cpu, opencl\n[backend.cpu]\nlibrary = %s\n"
                             "[backend.opencl]\nlibrary = %s/libaccel_opencl.so\n",
                             TU_CPU_PLUGIN, ACCEL_TEST_PLUGIN_CONFIG_DIR);
    cr_assert_eq(tu_open_ini(ini, &e.rt, NULL), ACCEL_SUCCESS, "open: %s", accel_last_error());
    cr_assert_eq(accel_device_get_by_name(e.rt, "opencl:0", &e.dev), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    cr_assert_eq(accel_device_get_by_name(e.rt, "cpu:0", &e.cpu), ACCEL_SUCCESS);
    cr_assert_eq(accel_queue_create(e.dev, &e.q), ACCEL_SUCCESS);
    cr_assert_eq(accel_queue_create(e.cpu, &e.cq), ACCEL_SUCCESS);
    char id[512];
    cr_assert_eq(accel_kernel_compiler_get(e.dev, id, sizeof id), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    cr_assert(strncmp(id, "opencl", 6) == 0, "compiler: %s", id);
    return e;
}

static char *kernel_text(const char *name)
{
    const char *path = tu_fmt("%s/tests/kernels/%s.cu", ACCEL_TEST_SOURCE_DIR, name);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    char *s = calloc(1, 1 << 16);
    size_t n = fread(s, 1, (1 << 16) - 1, f);
    fclose(f);
    cr_assert_gt(n, 0);
    return s;
}

static accel_kernel *make(env *e, const char *src, const char *name)
{
    accel_kernel *k;
    cr_assert_eq(accel_kernel_raw_create(e->rt, src, name, NULL, &k), ACCEL_SUCCESS, "%s: %s", name,
                 accel_last_error());
    return k;
}

static accel_buffer *upload(env *e, accel_queue *q, const void *data, size_t bytes)
{
    accel_buffer *b;
    cr_assert_eq(accel_buffer_create(accel_queue_device(q), bytes, &b), ACCEL_SUCCESS);
    void *zeros = data ? NULL : calloc(1, bytes);
    cr_assert_eq(accel_queue_write(q, b, 0, data ? data : zeros, bytes), ACCEL_SUCCESS);
    cr_assert_eq(accel_queue_finish(q), ACCEL_SUCCESS);
    free(zeros);
    (void)e;
    return b;
}

static void download(accel_queue *q, accel_buffer *b, void *out, size_t bytes)
{
    accel_status st = accel_queue_read_blocking(q, b, 0, out, bytes);
    cr_assert_eq(st, ACCEL_SUCCESS, "read: %s: %s", accel_status_name(st), accel_last_error());
}

static void launch(env *e, accel_kernel *k, uint32_t gx, uint32_t gy, uint32_t bx, uint32_t by,
                   size_t shared, size_t n, const accel_kernel_arg *args)
{
    uint32_t g[3] = {gx, gy, 1}, b[3] = {bx, by, 1};
    accel_kernel_launch_options o;
    accel_kernel_launch_options_init(&o);
    o.shared_bytes = shared;
    accel_status st = accel_kernel_launch_grid_ex(e->q, k, g, b, &o, n, args);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_finish(e->q);
    cr_assert_eq(st, ACCEL_SUCCESS, "%s: %s", accel_status_name(st), accel_last_error());
}

static accel_kernel_arg arr(accel_buffer *b, size_t off, size_t n)
{
    return accel_karg_array(accel_slice_of(b, off, n));
}

static float *random_floats(size_t n, uint64_t salt, double lo, double hi)
{
    tu_rng r = tu_rng_make(salt);
    float *x = malloc(n * sizeof *x);
    for (size_t i = 0; i < n; i++)
        x[i] = (float)tu_rng_range(&r, lo, hi);
    return x;
}

/* reduce_shared.cu over elements [off, off + n) of a buffer (the array
 * argument's offset), block sums against a double loop. */
Test(opencl_kernels, block_reduction_shared)
{
    env e = open_env();
    const size_t off = 3, n = 10000, blocks = (n + 255) / 256;
    float *x = random_floats(off + n, 1, 0, 1), got[64];
    accel_buffer *in = upload(&e, e.q, x, (off + n) * 4), *out = upload(&e, e.q, NULL, blocks * 4);
    char *src = kernel_text("reduce_shared");
    accel_kernel *k = make(&e, src, "reduce_shared");
    accel_kernel_arg a[] = {arr(in, off, n), arr(out, 0, blocks), accel_karg_i32((int)n)};
    launch(&e, k, (uint32_t)blocks, 1, 256, 1, 0, 3, a);
    download(e.q, out, got, blocks * 4);
    for (size_t b = 0; b < blocks; b++) {
        double ref = 0;
        for (size_t i = b * 256; i < (b + 1) * 256 && i < n; i++)
            ref += x[off + i];
        cr_assert(fabs(got[b] - ref) <= 1e-5 * (ref > 1 ? ref : 1), "block %zu: %.9g vs %.9g", b,
                  got[b], ref);
    }
    accel_kernel_release(k);
    free(src);
    free(x);
    accel_runtime_close(e.rt);
}

/* __shared__ + __syncthreads + a float atomicAdd (a compare-and-swap loop
 * in OpenCL C): the whole sum in one value. */
static const char atomic_sum_src[] =
    "__global__ void atomic_sum(const float *x, float *total, int n) {\n"
    "  __shared__ float s[128];\n"
    "  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;\n"
    "  s[t] = i < n ? x[i] : 0.0f;\n"
    "  __syncthreads();\n"
    "  for (unsigned h = blockDim.x / 2; h > 0; h >>= 1) {\n"
    "    if (t < h) s[t] += s[t + h];\n"
    "    __syncthreads();\n"
    "  }\n"
    "  if (t == 0) atomicAdd(total, s[0]);\n"
    "}\n";

Test(opencl_kernels, block_reduction_atomic_add)
{
    env e = open_env();
    const int n = 50000, blocks = (n + 127) / 128;
    /* Multiples of 1/64 below 4: every partial and total is exact in
     * float, so any order of the atomics gives the same bits. */
    tu_rng r = tu_rng_make(7);
    float *x = malloc(n * 4), got = 0;
    double ref = 0;
    for (int i = 0; i < n; i++)
        ref += x[i] = (float)(tu_rng_next(&r) % 256) / 64.0f;
    accel_buffer *in = upload(&e, e.q, x, (size_t)n * 4), *out = upload(&e, e.q, NULL, 4);
    accel_kernel *k = make(&e, atomic_sum_src, "atomic_sum");
    accel_kernel_arg a[] = {arr(in, 0, (size_t)n), arr(out, 0, 1), accel_karg_i32(n)};
    launch(&e, k, (uint32_t)blocks, 1, 128, 1, 0, 3, a);
    download(e.q, out, &got, 4);
    cr_assert_eq((double)got, ref, "%.9g vs %.9g", got, ref);
    accel_kernel_release(k);
    free(x);
    accel_runtime_close(e.rt);
}

Test(opencl_kernels, tiled_matmul_shared)
{
    env e = open_env();
    const int M = 70, N = 45, K = 53;
    float *A = random_floats((size_t)M * K, 3, -1, 1), *B = random_floats((size_t)K * N, 4, -1, 1);
    float *C = malloc((size_t)M * N * 4);
    accel_buffer *a = upload(&e, e.q, A, (size_t)M * K * 4);
    accel_buffer *b = upload(&e, e.q, B, (size_t)K * N * 4);
    accel_buffer *c = upload(&e, e.q, NULL, (size_t)M * N * 4);
    char *src = kernel_text("matmul_tiled");
    accel_kernel *k = make(&e, src, "matmul_tiled");
    accel_kernel_arg args[] = {arr(a, 0, (size_t)M * K), arr(b, 0, (size_t)K * N),
                               arr(c, 0, (size_t)M * N), accel_karg_i32(M),
                               accel_karg_i32(N),        accel_karg_i32(K)};
    launch(&e, k, (N + 15) / 16, (M + 15) / 16, 16, 16, 0, 6, args);
    download(e.q, c, C, (size_t)M * N * 4);
    /* k order, float, as the tiles add (a device may fuse multiply-adds:
     * a bound of a few ulps of the sum of |terms|). */
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double acc = 0, mag = 0;
            for (int kk = 0; kk < K; kk++) {
                acc += (double)A[i * K + kk] * B[kk * N + j];
                mag += fabs((double)A[i * K + kk] * B[kk * N + j]);
            }
            cr_assert(fabs(C[i * N + j] - acc) <= 1e-6 * mag + 1e-30, "C[%d][%d] = %.9g vs %.9g", i,
                      j, C[i * N + j], acc);
        }
    accel_kernel_release(k);
    free(src);
    free(A);
    free(B);
    free(C);
    accel_runtime_close(e.rt);
}

Test(opencl_kernels, histogram_atomics)
{
    env e = open_env();
    const int n = 50000;
    tu_rng r = tu_rng_make(5);
    unsigned char *x = malloc(n);
    unsigned ref[256] = {0}, got[256];
    for (int i = 0; i < n; i++)
        ref[x[i] = (unsigned char)(tu_rng_next(&r) % 97 * (i % 3 + 1))]++;
    accel_buffer *in = upload(&e, e.q, x, n), *h = upload(&e, e.q, NULL, sizeof got);
    char *src = kernel_text("histogram");
    accel_kernel *k = make(&e, src, "histogram");
    accel_kernel_arg a[] = {arr(in, 0, n), accel_karg_i32(n), arr(h, 0, 256)};
    launch(&e, k, 13, 1, 192, 1, 0, 3, a);
    download(e.q, h, got, sizeof got);
    for (int b = 0; b < 256; b++)
        cr_assert_eq(got[b], ref[b], "bin %d: %u, expected %u", b, got[b], ref[b]);
    accel_kernel_release(k);
    free(src);
    free(x);
    accel_runtime_close(e.rt);
}

Test(opencl_kernels, dynamic_shared)
{
    env e = open_env();
    const int n = 700, t = 128;
    float *x = random_floats(n, 10, 0, 100), *y = malloc(n * 4);
    accel_buffer *d = upload(&e, e.q, x, n * 4);
    char *src = kernel_text("dynamic_shared");
    accel_kernel *k = make(&e, src, "dynamic_shared");
    accel_kernel_arg a[] = {arr(d, 0, n), accel_karg_i32(n)};
    launch(&e, k, (n + t - 1) / t, 1, t, 1, t * sizeof(float), 2, a);
    download(e.q, d, y, n * 4);
    for (int i = 0; i < n; i++) {
        int base = i / t * t, tr = t - (i - base) - 1;
        float ref = base + tr < n ? x[base + tr] : x[i];
        cr_assert_eq(y[i], ref, "element %d", i);
    }
    accel_kernel_release(k);
    free(src);
    free(x);
    free(y);
    accel_runtime_close(e.rt);
}

/* cas_max.cu: atomicCAS loops on the bits, 32-bit (a float maximum) and
 * 64-bit (a double sum of integers: exact in any order). */
Test(opencl_kernels, cas_loops_32_and_64_bit)
{
    env e = open_env();
    const int n = 3000;
    float *x = random_floats(n, 11, -1000, 1000), mx = -INFINITY, init_max = -INFINITY, got_max;
    double sum = 0, init_sum = 0, got_sum;
    for (int i = 0; i < n; i++) {
        mx = x[i] > mx ? x[i] : mx;
        sum += (double)(int)x[i];
    }
    accel_buffer *in = upload(&e, e.q, x, n * 4), *m = upload(&e, e.q, &init_max, 4);
    accel_buffer *s = upload(&e, e.q, &init_sum, 8);
    char *src = kernel_text("cas_max");
    accel_kernel *k = make(&e, src, "cas_max");
    accel_kernel_arg a[] = {arr(in, 0, n), accel_karg_i32(n), arr(m, 0, 1), arr(s, 0, 1)};
    launch(&e, k, (n + 255) / 256, 1, 256, 1, 0, 4, a);
    download(e.q, m, &got_max, 4);
    download(e.q, s, &got_sum, 8);
    cr_assert_eq(got_max, mx, "max %.9g, expected %.9g", got_max, mx);
    cr_assert_eq(got_sum, sum, "sum %.17g, expected %.17g", got_sum, sum);
    accel_kernel_release(k);
    free(src);
    free(x);
    accel_runtime_close(e.rt);
}

/* One function of two arrays (x1 contiguous, x2 a transposed view: the
 * strided kernel) on both devices; bytes out. */
static void binary_on(env *e, accel_queue *q, accel_array_fn fn, accel_dtype dt, const void *a,
                      const void *b, void *out, size_t es)
{
    const int64_t shape[2] = {37, 29}, tshape[2] = {29, 37};
    const size_t n = 37 * 29;
    accel_buffer *ba = upload(e, q, a, n * es), *bb = upload(e, q, b, n * es);
    accel_buffer *bo = upload(e, q, NULL, n * es);
    accel_array x1, x2t, x2, y;
    cr_assert_eq(accel_array_init(&x1, ba, dt, 2, shape), ACCEL_SUCCESS);
    cr_assert_eq(accel_array_init(&x2t, bb, dt, 2, tshape), ACCEL_SUCCESS);
    const int32_t axes[2] = {1, 0};
    cr_assert_eq(accel_array_permute_dims(&x2t, axes, &x2), ACCEL_SUCCESS);
    cr_assert_eq(accel_array_init(&y, bo, dt, 2, shape), ACCEL_SUCCESS);
    accel_status st = accel_array_binary(q, fn, &x1, &x2, &y);
    cr_assert_eq(st, ACCEL_SUCCESS, "%s: %s", accel_status_name(st), accel_last_error());
    download(q, bo, out, n * es);
    accel_buffer_release(ba);
    accel_buffer_release(bb);
    accel_buffer_release(bo);
}

Test(opencl_kernels, array_binary_against_cpu)
{
    env e = open_env();
    const size_t n = 37 * 29;
    float *a = random_floats(n, 21, -50, 50), *b = random_floats(n, 22, -50, 50);
    float *g = malloc(n * 4), *w = malloc(n * 4);
    const accel_array_fn exact[] = {ACCEL_ARRAY_ADD, ACCEL_ARRAY_MULTIPLY, ACCEL_ARRAY_MAXIMUM,
                                    ACCEL_ARRAY_FLOOR_DIVIDE};
    for (size_t f = 0; f < sizeof exact / sizeof *exact; f++) {
        binary_on(&e, e.q, exact[f], ACCEL_F32, a, b, g, 4);
        binary_on(&e, e.cq, exact[f], ACCEL_F32, a, b, w, 4);
        for (size_t i = 0; i < n; i++)
            cr_assert(memcmp(&g[i], &w[i], 4) == 0, "fn %d [%zu]: %.9g vs cpu %.9g", (int)exact[f],
                      i, g[i], w[i]);
    }
    binary_on(&e, e.q, ACCEL_ARRAY_HYPOT, ACCEL_F32, a, b, g, 4);
    for (size_t r = 0; r < 37; r++)
        for (size_t c = 0; c < 29; c++) {
            double ref = hypot((double)a[r * 29 + c], (double)b[c * 37 + r]);
            cr_assert(fabs(g[r * 29 + c] - ref) <= 4e-7 * ref, "hypot [%zu]: %.9g vs %.9g",
                      r * 29 + c, g[r * 29 + c], ref);
        }
    /* int64: long long in the generated source */
    long long *ia = malloc(n * 8), *ib = malloc(n * 8), *ig = malloc(n * 8), *iw = malloc(n * 8);
    for (size_t i = 0; i < n; i++) {
        ia[i] = (long long)(a[i] * 1e6) * (1LL << 20);
        ib[i] = (long long)(b[i] * 1e3) + 1;
    }
    binary_on(&e, e.q, ACCEL_ARRAY_FLOOR_DIVIDE, ACCEL_I64, ia, ib, ig, 8);
    binary_on(&e, e.cq, ACCEL_ARRAY_FLOOR_DIVIDE, ACCEL_I64, ia, ib, iw, 8);
    cr_assert(memcmp(ig, iw, n * 8) == 0, "int64 floor_divide differs from the cpu's");
    free(a);
    free(b);
    free(g);
    free(w);
    free(ia);
    free(ib);
    free(ig);
    free(iw);
    accel_runtime_close(e.rt);
}

static void sum_rows_on(env *e, accel_queue *q, const float *x, float *out)
{
    const int64_t shape[2] = {40, 513};
    accel_buffer *bx = upload(e, q, x, 40 * 513 * 4), *bo = upload(e, q, NULL, 40 * 4);
    accel_array ax, ao;
    cr_assert_eq(accel_array_init(&ax, bx, ACCEL_F32, 2, shape), ACCEL_SUCCESS);
    cr_assert_eq(accel_array_init(&ao, bo, ACCEL_F32, 1, shape), ACCEL_SUCCESS);
    accel_status st = accel_array_reduce(q, ACCEL_ARRAY_REDUCE_SUM, &ax, 1u << 1, 0, &ao);
    cr_assert_eq(st, ACCEL_SUCCESS, "%s: %s", accel_status_name(st), accel_last_error());
    download(q, bo, out, 40 * 4);
    accel_buffer_release(bx);
    accel_buffer_release(bo);
}

/* Row sums: float64 accumulation in row order on every backend, so the
 * same bits as cpu:0's, and within float rounding of a double loop. */
Test(opencl_kernels, array_reduce_against_cpu)
{
    env e = open_env();
    float *x = random_floats(40 * 513, 31, -1, 1), g[40], w[40];
    sum_rows_on(&e, e.q, x, g);
    sum_rows_on(&e, e.cq, x, w);
    for (int r = 0; r < 40; r++) {
        double ref = 0;
        for (int c = 0; c < 513; c++)
            ref += x[r * 513 + c];
        cr_assert(memcmp(&g[r], &w[r], 4) == 0, "row %d: %.9g vs cpu %.9g", r, g[r], w[r]);
        cr_assert(fabs(g[r] - ref) <= 1e-6 * fabs(ref) + 1e-6, "row %d: %.9g vs %.9g", r, g[r],
                  ref);
    }
    free(x);
    accel_runtime_close(e.rt);
}

/* A kernel that does not build: ACCEL_ERROR_COMPILE, the compiler's
 * message at the user's line (3), through the translation. */
Test(opencl_kernels, compile_error_names_the_users_line)
{
    env e = open_env();
    static const char bad[] = "__global__ void bad(float *x, int n) {\n"
                              "  int i = threadIdx.x;\n"
                              "  if (i < n) x[i] = undefined_name * 2.0f;\n"
                              "}\n";
    accel_kernel *k = make(&e, bad, "bad");
    accel_status st = accel_kernel_build(k, e.dev, 0);
    cr_assert_eq(st, ACCEL_ERROR_COMPILE, "%s: %s", accel_status_name(st), accel_last_error());
    cr_assert_not_null(strstr(accel_last_error(), "bad:3:"), "%s", accel_last_error());
    cr_assert_not_null(strstr(accel_last_error(), "undefined_name"), "%s", accel_last_error());
    accel_kernel_release(k);
    accel_runtime_close(e.rt);
}
