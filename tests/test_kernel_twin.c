/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_kernel_twin.c — the CPU twin runs classic CUDA kernels (the files of
 * tests/kernels/, written as CUDA programmers write them: shared memory,
 * barriers, atomics, warp functions, dynamic shared memory, printf, 3-D
 * grids), each against a plain loop on the host, with the system C compiler
 * and the embedded one; verify mode cross-checks them (the cc twin against
 * the tcc twin); the debug launch catches planted out-of-bounds accesses and
 * a missing __syncthreads, and raises no alarm on any kernel of the suite.
 * On a machine with a CUDA device (kernel_twin_cuda; skipped with a visible
 * message elsewhere) the suite runs on CUDA, cross-checked against the twin
 * by verify mode, and a debug launch on the GPU's queue runs on the twin.
 * Random inputs come from tu_seed() (printed). */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/kernel.h"
#include "accel/verify.h"
#include "test_util.h"

typedef struct env {
    accel_runtime *rt;
    accel_device *dev;
    accel_queue *q;
    bool debug;
} env;

static void setup(void)
{
    setenv("ACCEL_KERNEL_CACHE", tu_fmt("%s/cache", tu_tmpdir()), 1);
}

static env env_open(const char *compiler, bool debug)
{
    env e = {NULL, NULL, NULL, debug};
    const char *ini = tu_fmt("[runtime]\norder = cpu\n[backend.cpu]\nlibrary = %s\n"
                             "kernel_compiler = %s\n",
                             TU_CPU_PLUGIN, compiler);
    cr_assert_eq(tu_open_ini(ini, &e.rt, NULL), ACCEL_SUCCESS, "open: %s", accel_last_error());
    cr_assert_eq(accel_device_get_by_name(e.rt, "cpu:0", &e.dev), ACCEL_SUCCESS);
    cr_assert_eq(accel_queue_create(e.dev, &e.q), ACCEL_SUCCESS);
    return e;
}

/* tests/kernels/NAME.cu, malloc'ed. */
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

static accel_kernel *make(env *e, const char *name)
{
    char *src = kernel_text(name);
    accel_kernel *k;
    cr_assert_eq(accel_kernel_raw_create(e->rt, src, name, NULL, &k), ACCEL_SUCCESS, "%s: %s", name,
                 accel_last_error());
    free(src);
    return k;
}

static accel_buffer *upload(env *e, const void *data, size_t bytes)
{
    accel_buffer *b;
    cr_assert_eq(accel_buffer_create(e->dev, bytes, &b), ACCEL_SUCCESS);
    void *zeros = data ? NULL : calloc(1, bytes);
    cr_assert_eq(accel_queue_write(e->q, b, 0, data ? data : zeros, bytes), ACCEL_SUCCESS);
    cr_assert_eq(accel_queue_finish(e->q), ACCEL_SUCCESS);
    free(zeros);
    return b;
}

static void download(env *e, accel_buffer *b, void *out, size_t bytes)
{
    accel_status st = accel_queue_read_blocking(e->q, b, 0, out, bytes);
    cr_assert_eq(st, ACCEL_SUCCESS, "read: %s: %s", accel_status_name(st), accel_last_error());
}

/* Launch and wait; the status of the launch's work. */
static accel_status launch(env *e, accel_kernel *k, uint32_t gx, uint32_t gy, uint32_t gz,
                           uint32_t bx, uint32_t by, uint32_t bz, size_t shared, size_t n,
                           const accel_kernel_arg *args)
{
    uint32_t g[3] = {gx, gy, gz}, b[3] = {bx, by, bz};
    accel_kernel_launch_options o;
    accel_kernel_launch_options_init(&o);
    o.shared_bytes = shared;
    o.debug = e->debug;
    accel_status st = accel_kernel_launch_grid_ex(e->q, k, g, b, &o, n, args);
    if (st != ACCEL_SUCCESS)
        return st;
    return accel_queue_finish(e->q);
}

#define LAUNCH_OK(...)                                                                             \
    do {                                                                                           \
        accel_status st_ = launch(__VA_ARGS__);                                                    \
        cr_assert_eq(st_, ACCEL_SUCCESS, "%s: %s", accel_status_name(st_), accel_last_error());    \
    } while (0)

static accel_kernel_arg arr(accel_buffer *b, size_t n)
{
    return accel_karg_array(accel_slice_of(b, 0, n));
}

static float *random_floats(size_t n, uint64_t salt, double lo, double hi)
{
    tu_rng r = tu_rng_make(salt);
    float *x = malloc(n * sizeof *x);
    for (size_t i = 0; i < n; i++)
        x[i] = (float)tu_rng_range(&r, lo, hi);
    return x;
}

/* ------------------------------------------------------------ the suite */

/* Block sums of n floats; the twin adds in the kernel's tree order, so the
 * bound is the sum's: 256 terms of [0, 1) in float, 2^-16 relative. */
static void check_block_sums(const float *x, size_t n, const float *got, size_t blocks, size_t per)
{
    for (size_t b = 0; b < blocks; b++) {
        double ref = 0;
        for (size_t i = b * per; i < (b + 1) * per && i < n; i++)
            ref += x[i];
        cr_assert(fabs(got[b] - ref) <= 1e-5 * (ref > 1 ? ref : 1), "block %zu: %.9g vs %.9g", b,
                  got[b], ref);
    }
}

static void run_reduce_shared(env *e)
{
    const size_t n = 10000, blocks = (n + 255) / 256;
    float *x = random_floats(n, 1, 0, 1), got[64];
    accel_buffer *in = upload(e, x, n * 4), *out = upload(e, NULL, blocks * 4);
    accel_kernel *k = make(e, "reduce_shared");
    accel_kernel_arg a[] = {arr(in, n), arr(out, blocks), accel_karg_i32((int)n)};
    LAUNCH_OK(e, k, (uint32_t)blocks, 1, 1, 256, 1, 1, 0, 3, a);
    download(e, out, got, blocks * 4);
    check_block_sums(x, n, got, blocks, 256);
    accel_kernel_release(k);
    free(x);
}

static void run_reduce_warp(env *e)
{
    const size_t n = 100000, blocks = 8, threads = 512;
    float *x = random_floats(n, 2, 0, 1), got[8];
    accel_buffer *in = upload(e, x, n * 4), *out = upload(e, NULL, blocks * 4);
    accel_kernel *k = make(e, "reduce_warp");
    accel_kernel_arg a[] = {arr(in, n), arr(out, blocks), accel_karg_i32((int)n)};
    LAUNCH_OK(e, k, (uint32_t)blocks, 1, 1, (uint32_t)threads, 1, 1, 0, 3, a);
    download(e, out, got, sizeof got);
    double total = 0, ref = 0;
    for (size_t b = 0; b < blocks; b++)
        total += got[b];
    for (size_t i = 0; i < n; i++)
        ref += x[i];
    cr_assert(fabs(total - ref) <= 1e-5 * ref, "%.9g vs %.9g", total, ref);
    /* Block 0 alone: elements 0, 4096, 8192, ... of every thread's stride. */
    double b0 = 0;
    for (size_t t = 0; t < threads; t++)
        for (size_t i = t; i < n; i += blocks * threads)
            b0 += x[i];
    cr_assert(fabs(got[0] - b0) <= 1e-5 * b0, "block 0: %.9g vs %.9g", got[0], b0);
    accel_kernel_release(k);
    free(x);
}

static void run_matmul(env *e)
{
    const int M = 70, N = 45, K = 53;
    float *A = random_floats((size_t)M * K, 3, -1, 1), *B = random_floats((size_t)K * N, 4, -1, 1);
    float *C = malloc((size_t)M * N * 4);
    accel_buffer *a = upload(e, A, (size_t)M * K * 4), *b = upload(e, B, (size_t)K * N * 4);
    accel_buffer *c = upload(e, NULL, (size_t)M * N * 4);
    accel_kernel *k = make(e, "matmul_tiled");
    accel_kernel_arg args[] = {arr(a, (size_t)M * K), arr(b, (size_t)K * N), arr(c, (size_t)M * N),
                               accel_karg_i32(M),     accel_karg_i32(N),     accel_karg_i32(K)};
    LAUNCH_OK(e, k, (N + 15) / 16, (M + 15) / 16, 1, 16, 16, 1, 0, 6, args);
    download(e, c, C, (size_t)M * N * 4);
    /* The tiles add in k order, with zeros past K: a float loop in k order
     * gives the same bits. */
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float acc = 0;
            for (int kk = 0; kk < K; kk++)
                acc += A[i * K + kk] * B[kk * N + j];
            cr_assert_eq(C[i * N + j], acc, "C[%d][%d] = %.9g, expected %.9g", i, j, C[i * N + j],
                         acc);
        }
    accel_kernel_release(k);
    free(A);
    free(B);
    free(C);
}

static void run_histogram(env *e)
{
    const int n = 50000;
    tu_rng r = tu_rng_make(5);
    unsigned char *x = malloc(n);
    unsigned ref[256] = {0}, got[256];
    for (int i = 0; i < n; i++)
        ref[x[i] = (unsigned char)(tu_rng_next(&r) % 97 * (i % 3 + 1))]++;
    accel_buffer *in = upload(e, x, n), *h = upload(e, NULL, sizeof got);
    accel_kernel *k = make(e, "histogram");
    accel_kernel_arg a[] = {arr(in, n), accel_karg_i32(n), arr(h, 256)};
    LAUNCH_OK(e, k, 13, 1, 1, 192, 1, 1, 0, 3, a);
    download(e, h, got, sizeof got);
    for (int b = 0; b < 256; b++)
        cr_assert_eq(got[b], ref[b], "bin %d: %u, expected %u", b, got[b], ref[b]);
    accel_kernel_release(k);
    free(x);
}

static void run_scan(env *e)
{
    const int n = 1000;
    int x[1000], got[1000];
    tu_rng r = tu_rng_make(6);
    for (int i = 0; i < n; i++)
        x[i] = (int)(tu_rng_next(&r) % 2001) - 1000;
    accel_buffer *in = upload(e, x, sizeof x), *out = upload(e, NULL, sizeof got);
    accel_kernel *k = make(e, "scan");
    accel_kernel_arg a[] = {arr(in, n), arr(out, n), accel_karg_i32(n)};
    LAUNCH_OK(e, k, 4, 1, 1, 256, 1, 1, 0, 3, a);
    download(e, out, got, sizeof got);
    int acc = 0;
    for (int i = 0; i < n; i++) {
        acc = (i % 256 ? acc : 0) + x[i];
        cr_assert_eq(got[i], acc, "element %d: %d, expected %d", i, got[i], acc);
    }
    accel_kernel_release(k);
}

static void run_transpose(env *e)
{
    const int w = 100, h = 67;
    float *x = random_floats((size_t)w * h, 7, -5, 5), *y = malloc((size_t)w * h * 4);
    accel_buffer *in = upload(e, x, (size_t)w * h * 4), *out = upload(e, NULL, (size_t)w * h * 4);
    accel_kernel *k = make(e, "transpose");
    accel_kernel_arg a[] = {arr(out, (size_t)w * h), arr(in, (size_t)w * h), accel_karg_i32(w),
                            accel_karg_i32(h)};
    LAUNCH_OK(e, k, (w + 31) / 32, (h + 31) / 32, 1, 32, 8, 1, 0, 4, a);
    download(e, out, y, (size_t)w * h * 4);
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++)
            cr_assert_eq(y[c * h + r], x[r * w + c], "(%d, %d)", r, c);
    accel_kernel_release(k);
    free(x);
    free(y);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void run_bitonic(env *e)
{
    enum { B = 3, T = 512 };
    int x[B * T], got[B * T];
    tu_rng r = tu_rng_make(8);
    for (int i = 0; i < B * T; i++)
        x[i] = (int)(tu_rng_next(&r) % 100000) - 50000;
    accel_buffer *v = upload(e, x, sizeof x);
    accel_kernel *k = make(e, "bitonic");
    accel_kernel_arg a[] = {arr(v, B * T)};
    LAUNCH_OK(e, k, B, 1, 1, T, 1, 1, T * sizeof(int), 1, a);
    download(e, v, got, sizeof got);
    for (int b = 0; b < B; b++)
        qsort(x + b * T, T, sizeof(int), cmp_int);
    for (int i = 0; i < B * T; i++)
        cr_assert_eq(got[i], x[i], "element %d: %d, expected %d", i, got[i], x[i]);
    accel_kernel_release(k);
}

static void run_stencil(env *e)
{
    const int nx = 50, ny = 37;
    float *x = random_floats((size_t)nx * ny, 9, -1, 1), *y = malloc((size_t)nx * ny * 4);
    accel_buffer *in = upload(e, x, (size_t)nx * ny * 4);
    accel_buffer *out = upload(e, NULL, (size_t)nx * ny * 4);
    accel_kernel *k = make(e, "stencil2d");
    accel_kernel_arg a[] = {arr(in, (size_t)nx * ny), arr(out, (size_t)nx * ny), accel_karg_i32(nx),
                            accel_karg_i32(ny)};
    LAUNCH_OK(e, k, (nx + 15) / 16, (ny + 15) / 16, 1, 16, 16, 1, 0, 4, a);
    download(e, out, y, (size_t)nx * ny * 4);
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            float l = i > 0 ? x[j * nx + i - 1] : 0.0f, rr = i + 1 < nx ? x[j * nx + i + 1] : 0.0f;
            float d = j > 0 ? x[(j - 1) * nx + i] : 0.0f;
            float u = j + 1 < ny ? x[(j + 1) * nx + i] : 0.0f;
            float ref = l + rr + d + u - 4.0f * x[j * nx + i];
            cr_assert_eq(y[j * nx + i], ref, "(%d, %d): %.9g vs %.9g", i, j, y[j * nx + i], ref);
        }
    accel_kernel_release(k);
    free(x);
    free(y);
}

static void run_grid3d(env *e)
{
    enum { NX = 11, NY = 7, NZ = 5 };
    int got[NX * NY * NZ];
    accel_buffer *out = upload(e, NULL, sizeof got);
    accel_kernel *k = make(e, "grid3d");
    accel_kernel_arg a[] = {arr(out, NX * NY * NZ), accel_karg_i32(NX), accel_karg_i32(NY),
                            accel_karg_i32(NZ)};
    LAUNCH_OK(e, k, 3, 2, 3, 4, 4, 2, 0, 4, a);
    download(e, out, got, sizeof got);
    for (int z = 0; z < NZ; z++)
        for (int y = 0; y < NY; y++)
            for (int x = 0; x < NX; x++) {
                int block = x / 4 + 3 * (y / 4 + 2 * (z / 2));
                int thread = x % 4 + 4 * (y % 4 + 4 * (z % 2));
                cr_assert_eq(got[(z * NY + y) * NX + x], block * 1000 + thread, "(%d, %d, %d)", x,
                             y, z);
            }
    accel_kernel_release(k);
}

static void run_dynamic_shared(env *e)
{
    const int n = 700, t = 128;
    float *x = random_floats(n, 10, 0, 100), *y = malloc(n * 4);
    accel_buffer *d = upload(e, x, n * 4);
    accel_kernel *k = make(e, "dynamic_shared");
    accel_kernel_arg a[] = {arr(d, n), accel_karg_i32(n)};
    LAUNCH_OK(e, k, (n + t - 1) / t, 1, 1, t, 1, 1, t * sizeof(float), 2, a);
    download(e, d, y, n * 4);
    for (int i = 0; i < n; i++) {
        int base = i / t * t, tr = t - (i - base) - 1;
        float ref = base + tr < n ? x[base + tr] : x[i];
        cr_assert_eq(y[i], ref, "element %d", i);
    }
    accel_kernel_release(k);
    free(x);
    free(y);
}

static void run_cas(env *e)
{
    const int n = 3000;
    float *x = random_floats(n, 11, -1000, 1000), mx = -INFINITY;
    double sum = 0, init_sum = 0;
    for (int i = 0; i < n; i++) {
        mx = x[i] > mx ? x[i] : mx;
        sum += (double)(int)x[i];
    }
    float init_max = -INFINITY, got_max;
    double got_sum;
    accel_buffer *in = upload(e, x, n * 4), *m = upload(e, &init_max, 4);
    accel_buffer *s = upload(e, &init_sum, 8);
    accel_kernel *k = make(e, "cas_max");
    accel_kernel_arg a[] = {arr(in, n), accel_karg_i32(n), arr(m, 1), arr(s, 1)};
    LAUNCH_OK(e, k, (n + 255) / 256, 1, 1, 256, 1, 1, 0, 4, a);
    download(e, m, &got_max, 4);
    download(e, s, &got_sum, 8);
    cr_assert_eq(got_max, mx, "max %.9g, expected %.9g", got_max, mx);
    cr_assert_eq(got_sum, sum, "sum %.17g, expected %.17g (integers: exact)", got_sum, sum);
    accel_kernel_release(k);
    free(x);
}

static void run_warp_vote(env *e)
{
    enum { B = 2, T = 96, N = B * T };
    int x[N], xsum[N], up[N], anyall[N / 32], counts[3 * B];
    unsigned ballot[N / 32];
    tu_rng r = tu_rng_make(12);
    for (int i = 0; i < N; i++)
        x[i] = (int)(tu_rng_next(&r) % 201) - (i >= 64 && i < 96 ? 300 : 100);
    for (int i = 0; i < T; i++)
        x[T + i] |= 1; /* block 1: all odd */
    accel_buffer *bx = upload(e, x, sizeof x), *bb = upload(e, NULL, sizeof ballot);
    accel_buffer *ba = upload(e, NULL, sizeof anyall), *bs = upload(e, NULL, sizeof xsum);
    accel_buffer *bu = upload(e, NULL, sizeof up), *bc = upload(e, NULL, sizeof counts);
    accel_kernel *k = make(e, "warp_vote");
    accel_kernel_arg a[] = {arr(bx, N), arr(bb, N / 32), arr(ba, N / 32),
                            arr(bs, N), arr(bu, N),      arr(bc, 3 * B)};
    LAUNCH_OK(e, k, B, 1, 1, T, 1, 1, 0, 6, a);
    download(e, bb, ballot, sizeof ballot);
    download(e, ba, anyall, sizeof anyall);
    download(e, bs, xsum, sizeof xsum);
    download(e, bu, up, sizeof up);
    download(e, bc, counts, sizeof counts);
    for (int w = 0; w < N / 32; w++) {
        unsigned rb = 0;
        int any = 0, all = 1, s = 0;
        for (int l = 0; l < 32; l++) {
            int v = x[w * 32 + l];
            rb |= (unsigned)(v & 1) << l;
            any |= v < 0;
            all &= v < 0;
            s += v;
        }
        cr_assert_eq(ballot[w], rb, "warp %d ballot %08x, expected %08x", w, ballot[w], rb);
        cr_assert_eq(anyall[w], any * 2 + all, "warp %d any/all", w);
        for (int l = 0; l < 32; l++) {
            cr_assert_eq(xsum[w * 32 + l], s, "warp %d lane %d xor sum", w, l);
            cr_assert_eq(up[w * 32 + l], x[w * 32 + (l >= 3 ? l - 3 : l)], "warp %d lane %d up", w,
                         l);
        }
    }
    for (int b = 0; b < B; b++) {
        int c = 0;
        for (int i = 0; i < T; i++)
            c += x[b * T + i] & 1;
        cr_assert_eq(counts[3 * b], c, "block %d count", b);
        cr_assert_eq(counts[3 * b + 1], c == T, "block %d and", b);
        cr_assert_eq(counts[3 * b + 2], c > 0, "block %d or", b);
    }
    accel_kernel_release(k);
}

static void run_atomics(env *e)
{
    const int B = 7, T = 100, n = B * T;
    int i0[8] = {0, 0, 1 << 30, -(1 << 30), -1, 0, 0, 0}, gi[8];
    unsigned u0[4] = {0, 0, 0xffffffffu, 0}, gu[4];
    unsigned long long l0[2] = {0, 0}, gl[2];
    float f0[2] = {0, 0}, gf[2];
    double d0[1] = {0}, gd[1];
    accel_buffer *bi = upload(e, i0, sizeof i0), *bu = upload(e, u0, sizeof u0);
    accel_buffer *bl = upload(e, l0, sizeof l0), *bf = upload(e, f0, sizeof f0);
    accel_buffer *bd = upload(e, d0, sizeof d0);
    accel_kernel *k = make(e, "atomics");
    accel_kernel_arg a[] = {arr(bi, 8), arr(bu, 4), arr(bl, 2), arr(bf, 2), arr(bd, 1)};
    LAUNCH_OK(e, k, B, 1, 1, T, 1, 1, 0, 5, a);
    download(e, bi, gi, sizeof gi);
    download(e, bu, gu, sizeof gu);
    download(e, bl, gl, sizeof gl);
    download(e, bf, gf, sizeof gf);
    download(e, bd, gd, sizeof gd);
    int sum = 0, x = 0, orv = 0, andv = -1;
    unsigned long long big = 0;
    for (int t = 0; t < n; t++) {
        sum += t;
        x ^= t;
        orv |= 1 << (t % 31);
        andv &= ~(1 << (t % 31));
        big += (unsigned long long)t << 33;
    }
    cr_assert_eq(gi[0], sum);
    cr_assert_eq(gi[1], -sum);
    cr_assert_eq(gi[2], 1000 - (n - 1));
    cr_assert_eq(gi[3], (n - 1) - 1000);
    cr_assert_eq(gi[4], andv);
    cr_assert_eq(gi[5], orv);
    cr_assert_eq(gi[6], x);
    cr_assert_eq(gi[7], 7);
    /* atomicInc wraps to 0 past 100: n increments from 0 end at n % 101. */
    cr_assert_eq(gu[0], (unsigned)(n % 101), "inc %u", gu[0]);
    /* atomicDec from 0 goes to 100, then down: n steps end at (101 - n % 101) % 101. */
    cr_assert_eq(gu[1], (unsigned)((101 - n % 101) % 101), "dec %u", gu[1]);
    cr_assert_eq(gu[2], 5u);
    cr_assert_eq(gu[3], (unsigned)(n - 1));
    cr_assert_eq(gl[0], big);
    cr_assert_eq(gl[1], (unsigned long long)n, "CAS loop: one count per thread, %llu", gl[1]);
    cr_assert_eq(gf[0], 0.5f * n, "float add of halves is exact: %.9g", gf[0]);
    cr_assert_eq(gf[1], 2.5f);
    cr_assert_eq(gd[0], 0.25 * sum, "double add of quarters is exact: %.17g", gd[0]);
    accel_kernel_release(k);
}

static void run_all(env *e)
{
    run_reduce_shared(e);
    run_reduce_warp(e);
    run_matmul(e);
    run_histogram(e);
    run_scan(e);
    run_transpose(e);
    run_bitonic(e);
    run_stencil(e);
    run_grid3d(e);
    run_dynamic_shared(e);
    run_cas(e);
    run_warp_vote(e);
    run_atomics(e);
}

#define SUITE_TEST(NAME)                                                                           \
    Test(kernel_twin, NAME##_cc, .init = setup)                                                    \
    {                                                                                              \
        env e = env_open("cc", false);                                                             \
        run_##NAME(&e);                                                                            \
        accel_runtime_close(e.rt);                                                                 \
    }                                                                                              \
    Test(kernel_twin, NAME##_tcc, .init = setup)                                                   \
    {                                                                                              \
        env e = env_open("tcc", false);                                                            \
        run_##NAME(&e);                                                                            \
        accel_runtime_close(e.rt);                                                                 \
    }

SUITE_TEST(reduce_shared)
SUITE_TEST(reduce_warp)
SUITE_TEST(matmul)
SUITE_TEST(histogram)
SUITE_TEST(scan)
SUITE_TEST(transpose)
SUITE_TEST(bitonic)
SUITE_TEST(stencil)
SUITE_TEST(grid3d)
SUITE_TEST(dynamic_shared)
SUITE_TEST(cas)
SUITE_TEST(warp_vote)
SUITE_TEST(atomics)

/* printf: every thread's line, in block order then thread order. */
static void run_hello(const char *compiler)
{
    env e = env_open(compiler, false);
    accel_kernel *k = make(&e, "hello");
    accel_kernel_arg a[] = {accel_karg_i32(42)};
    LAUNCH_OK(&e, k, 3, 1, 1, 40, 1, 1, 0, 1, a);
    accel_kernel_release(k);
    accel_runtime_close(e.rt);
    fflush(stdout);
}

static char *expected_hello(void)
{
    char *s = calloc(1, 1 << 14);
    size_t len = 0;
    for (int b = 0; b < 3; b++)
        for (int t = 0; t < 40; t++)
            len += (size_t)sprintf(s + len, "block %d thread %d tag 42\n", b, t);
    return s;
}

Test(kernel_twin, printf_cc, .init = setup)
{
    cr_redirect_stdout();
    run_hello("cc");
    char *exp = expected_hello();
    cr_assert_stdout_eq_str(exp);
    free(exp);
}

Test(kernel_twin, printf_tcc, .init = setup)
{
    cr_redirect_stdout();
    run_hello("tcc");
    char *exp = expected_hello();
    cr_assert_stdout_eq_str(exp);
    free(exp);
}

/* ------------------------------------------------------------ verify */

/* cpu:0 builds with cc, cpu2:0 with tcc: the suite launched on cpu2 is
 * cross-checked against cpu:0's twin, every launch checked, none skipped. */
Test(kernel_twin, verify_cross_checks_the_suite, .init = setup)
{
    env e = {NULL, NULL, NULL, false};
    const char *ini = tu_fmt("[runtime]\norder = cpu, cpu2\n"
                             "[backend.cpu]\nlibrary = %s\nkernel_compiler = cc\n"
                             "[backend.cpu2]\nlibrary = %s\nkernel_compiler = tcc\n",
                             TU_CPU_PLUGIN, TU_CPU_PLUGIN);
    cr_assert_eq(tu_open_ini(ini, &e.rt, NULL), ACCEL_SUCCESS, "%s", accel_last_error());
    accel_verify_options o;
    accel_verify_options_init(&o);
    o.reference = "cpu:0";
    o.fail_on_mismatch = true;
    cr_assert_eq(accel_verify_configure(e.rt, &o), ACCEL_SUCCESS, "%s", accel_last_error());
    cr_assert_eq(accel_device_get_by_name(e.rt, "cpu2:0", &e.dev), ACCEL_SUCCESS);
    cr_assert_eq(accel_queue_create(e.dev, &e.q), ACCEL_SUCCESS);
    run_all(&e);
    accel_verify_stats vs;
    memset(&vs, 0, sizeof vs);
    vs.struct_size = sizeof vs;
    cr_assert_eq(accel_verify_stats_get(e.rt, &vs), ACCEL_SUCCESS);
    cr_assert_eq(vs.skipped, 0, "skipped %llu", (unsigned long long)vs.skipped);
    cr_assert_eq(vs.mismatches, 0);
    cr_assert_eq(vs.checked, 13, "checked %llu", (unsigned long long)vs.checked);
    accel_runtime_close(e.rt);
}

/* ------------------------------------------------------------ debug */

/* No alarm on any kernel of the suite, with the same results. */
Test(kernel_twin_debug, no_false_alarms_cc, .init = setup)
{
    env e = env_open("cc", true);
    run_all(&e);
    accel_runtime_close(e.rt);
}

Test(kernel_twin_debug, no_false_alarms_tcc, .init = setup)
{
    env e = env_open("tcc", true);
    run_all(&e);
    accel_runtime_close(e.rt);
}

/* A planted fault: the launch fails with ACCEL_ERROR_KERNEL_FAULT and a
 * message holding every part of want[]. */
static void expect_fault(const char *compiler, const char *name, const char *src, uint32_t threads,
                         const char *const *want)
{
    env e = env_open(compiler, true);
    accel_kernel *k;
    cr_assert_eq(accel_kernel_raw_create(e.rt, src, name, NULL, &k), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    float h[256];
    for (int i = 0; i < 256; i++)
        h[i] = (float)i;
    accel_buffer *in = upload(&e, h, sizeof h), *out = upload(&e, NULL, sizeof h);
    accel_kernel_arg a[] = {arr(in, 256), arr(out, 256), accel_karg_i32(256)};
    accel_status st = launch(&e, k, 1, 1, 1, threads, 1, 1, 0, 3, a);
    cr_assert_eq(st, ACCEL_ERROR_KERNEL_FAULT, "%s: %s", accel_status_name(st), accel_last_error());
    cr_log_info("%s: %s", compiler, accel_last_error());
    for (int i = 0; want[i]; i++)
        cr_assert(strstr(accel_last_error(), want[i]), "%s: no \"%s\" in: %s", compiler, want[i],
                  accel_last_error());
    accel_kernel_release(k);
    accel_runtime_close(e.rt);
}

static const char off_by_one_read[] = "__global__ void obr(const float *in, float *out, int n)\n"
                                      "{\n"
                                      "    int i = threadIdx.x;\n"
                                      "    out[i] = in[i] + in[i + 1];\n"
                                      "}\n";
static const char off_by_one_write[] = "__global__ void obw(const float *in, float *out, int n)\n"
                                       "{\n"
                                       "    int i = threadIdx.x + 1;\n"
                                       "    if (i <= n)\n"
                                       "        out[i] = in[i - 1];\n"
                                       "}\n";
static const char shared_oob[] = "__global__ void soob(const float *in, float *out, int n)\n"
                                 "{\n"
                                 "    __shared__ float s[256];\n"
                                 "    s[threadIdx.x] = in[threadIdx.x];\n"
                                 "    __syncthreads();\n"
                                 "    out[threadIdx.x] = s[threadIdx.x + 1];\n"
                                 "}\n";
static const char missing_sync[] = "__global__ void race(const float *in, float *out, int n)\n"
                                   "{\n"
                                   "    __shared__ float s[256];\n"
                                   "    s[threadIdx.x] = in[threadIdx.x];\n"
                                   "    out[threadIdx.x] = s[255 - threadIdx.x];\n"
                                   "}\n";

static void planted(const char *compiler)
{
    const char *const r[] = {
        "kernel obr", "line 4", "argument in", "index 256", "block (0, 0, 0) thread (255, 0, 0)",
        "read",       NULL};
    expect_fault(compiler, "obr", off_by_one_read, 256, r);
    const char *const w[] = {
        "kernel obw", "line 5", "argument out", "index 256", "thread (255, 0, 0)", "write", NULL};
    expect_fault(compiler, "obw", off_by_one_write, 256, w);
    const char *const s[] = {"kernel soob",        "line 6", "shared array s", "index 256",
                             "thread (255, 0, 0)", NULL};
    expect_fault(compiler, "soob", shared_oob, 256, s);
    const char *const m[] = {"kernel race", "race on shared s[", "line 5",
                             "line 4",      "no __syncthreads",  NULL};
    expect_fault(compiler, "race", missing_sync, 256, m);
}

Test(kernel_twin_debug, planted_faults_caught_cc, .init = setup)
{
    planted("cc");
}

Test(kernel_twin_debug, planted_faults_caught_tcc, .init = setup)
{
    planted("tcc");
}

/* ACCEL_KERNEL_DEBUG=1 makes every raw launch a debug launch. */
Test(kernel_twin_debug, environment_turns_it_on, .init = setup)
{
    setenv("ACCEL_KERNEL_DEBUG", "1", 1);
    env e = env_open("cc", false);
    accel_kernel *k;
    cr_assert_eq(accel_kernel_raw_create(e.rt, off_by_one_read, "obr", NULL, &k), ACCEL_SUCCESS);
    accel_buffer *in = upload(&e, NULL, 1024), *out = upload(&e, NULL, 1024);
    accel_kernel_arg a[] = {arr(in, 256), arr(out, 256), accel_karg_i32(256)};
    accel_status st = launch(&e, k, 1, 1, 1, 256, 1, 1, 0, 3, a);
    cr_assert_eq(st, ACCEL_ERROR_KERNEL_FAULT, "%s", accel_last_error());
    cr_assert(strstr(accel_last_error(), "out-of-bounds read of argument in"), "%s",
              accel_last_error());
    accel_kernel_release(k);
    accel_runtime_close(e.rt);
    unsetenv("ACCEL_KERNEL_DEBUG");
}

/* Bad launch options: a clear status and message. */
Test(kernel_twin, launch_options_checked, .init = setup)
{
    env e = env_open("cc", false);
    accel_kernel *k = make(&e, "dynamic_shared");
    accel_buffer *d = upload(&e, NULL, 1024);
    accel_kernel_arg a[] = {arr(d, 256), accel_karg_i32(256)};
    uint32_t g[3] = {1, 1, 1}, b[3] = {256, 1, 1};
    accel_kernel_launch_options o;
    accel_kernel_launch_options_init(&o);
    o.shared_bytes = 49153;
    cr_assert_eq(accel_kernel_launch_grid_ex(e.q, k, g, b, &o, 2, a), ACCEL_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(accel_last_error(), "shared_bytes = 49153 exceeds 49152"), "%s",
              accel_last_error());
    o.shared_bytes = 0;
    o.struct_size = 4;
    cr_assert_eq(accel_kernel_launch_grid_ex(e.q, k, g, b, &o, 2, a), ACCEL_ERROR_INVALID_ARGUMENT);
    cr_assert(strstr(accel_last_error(), "struct_size is 4"), "%s", accel_last_error());
    accel_kernel_release(k);
    accel_runtime_close(e.rt);
}

/* ------------------------------------------------------------ on a GPU */

/* The default runtime's CUDA device with verify mode against the CPU twin,
 * or the test skipped (visibly) where there is none. */
static env gpu_env(void)
{
    setup();
    env e = {tu_open_default(), NULL, NULL, false};
    if (accel_device_get_by_name(e.rt, "cuda:0", &e.dev) != ACCEL_SUCCESS) {
        accel_runtime_close(e.rt);
        fprintf(stderr, "no CUDA device, GPU test skipped\n");
        cr_skip_test("no CUDA device, GPU test skipped");
    }
    cr_assert_eq(accel_queue_create(e.dev, &e.q), ACCEL_SUCCESS);
    accel_verify_options o;
    accel_verify_options_init(&o);
    o.reference = "cpu";
    o.fail_on_mismatch = true;
    cr_assert_eq(accel_verify_configure(e.rt, &o), ACCEL_SUCCESS, "%s", accel_last_error());
    return e;
}

Test(kernel_twin_cuda, suite_on_cuda_cross_checked_by_the_twin)
{
    env e = gpu_env();
    run_all(&e);
    accel_verify_stats vs;
    memset(&vs, 0, sizeof vs);
    vs.struct_size = sizeof vs;
    cr_assert_eq(accel_verify_stats_get(e.rt, &vs), ACCEL_SUCCESS);
    cr_assert_eq(vs.skipped, 0, "skipped %llu", (unsigned long long)vs.skipped);
    cr_assert_eq(vs.mismatches, 0);
    cr_assert_eq(vs.checked, 13, "checked %llu", (unsigned long long)vs.checked);
    accel_runtime_close(e.rt);
}

Test(kernel_twin_cuda, debug_launch_on_a_gpu_queue_runs_on_the_twin)
{
    env e = gpu_env();
    e.debug = true;
    accel_kernel *k;
    cr_assert_eq(accel_kernel_raw_create(e.rt, off_by_one_read, "obr", NULL, &k), ACCEL_SUCCESS);
    accel_buffer *in = upload(&e, NULL, 1024), *out = upload(&e, NULL, 1024);
    accel_kernel_arg a[] = {arr(in, 256), arr(out, 256), accel_karg_i32(256)};
    accel_status st = launch(&e, k, 1, 1, 1, 256, 1, 1, 0, 3, a);
    cr_assert_eq(st, ACCEL_ERROR_KERNEL_FAULT, "%s", accel_last_error());
    cr_assert(strstr(accel_last_error(), "out-of-bounds read of argument in at line 4"), "%s",
              accel_last_error());
    accel_kernel_release(k);
    /* The correct suite: no alarm, the GPU's arrays hold the twin's results. */
    run_all(&e);
    accel_runtime_close(e.rt);
}

/* [runtime] kernel_debug = true does the same from the file; a word that is
 * no boolean is a configuration error naming the key. */
Test(kernel_twin_debug, config_key_turns_it_on, .init = setup)
{
    env e = {NULL, NULL, NULL, false};
    const char *ini = tu_fmt("[runtime]\norder = cpu\nkernel_debug = true\n[backend.cpu]\n"
                             "library = %s\nkernel_compiler = cc\n",
                             TU_CPU_PLUGIN);
    cr_assert_eq(tu_open_ini(ini, &e.rt, NULL), ACCEL_SUCCESS, "%s", accel_last_error());
    cr_assert_eq(accel_device_get_by_name(e.rt, "cpu:0", &e.dev), ACCEL_SUCCESS);
    cr_assert_eq(accel_queue_create(e.dev, &e.q), ACCEL_SUCCESS);
    accel_kernel *k;
    cr_assert_eq(accel_kernel_raw_create(e.rt, shared_oob, "soob", NULL, &k), ACCEL_SUCCESS);
    accel_buffer *in = upload(&e, NULL, 1024), *out = upload(&e, NULL, 1024);
    accel_kernel_arg a[] = {arr(in, 256), arr(out, 256), accel_karg_i32(256)};
    accel_status st = launch(&e, k, 1, 1, 1, 256, 1, 1, 0, 3, a);
    cr_assert_eq(st, ACCEL_ERROR_KERNEL_FAULT, "%s", accel_last_error());
    cr_assert(strstr(accel_last_error(), "out-of-bounds read of shared array s at line 6"), "%s",
              accel_last_error());
    accel_kernel_release(k);
    accel_runtime_close(e.rt);
    accel_runtime *rt = NULL;
    ini = tu_fmt("[runtime]\norder = cpu\nkernel_debug = maybe\n[backend.cpu]\nlibrary = %s\n",
                 TU_CPU_PLUGIN);
    cr_assert_eq(tu_open_ini(ini, &rt, NULL), ACCEL_ERROR_CONFIG);
    cr_assert(strstr(accel_last_error(), "kernel_debug"), "%s", accel_last_error());
}
