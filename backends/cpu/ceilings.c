/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* ceilings.c — the CPU backend's measure_ceilings entry: what this machine
 * can do when called directly, without accel's queues and ops, as the yard
 * stick of `accel bench`:
 * - copy: memcpy, split over the backend's thread count (and one thread;
 *   the faster one counts), bytes read plus written;
 * - loop: a plain OpenMP c[i] = a[i] + b[i] over f32 (team or one thread,
 *   the faster);
 * - read: a plain OpenMP f32 sum (omp simd reduction, bytes read; likewise);
 * - GEMM: cblas_sgemm / cblas_dgemm of OpenBLAS, n x n x n, called directly;
 * - launch: a bare call through a function pointer.
 * Each figure is the median of `repeats` runs after one warm-up. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <omp.h>

#include "ceilings.h"
#include "cpu.h"

#define DEFAULT_COPY_BYTES ((uint64_t)64 << 20)
#define DEFAULT_GEMM_N 1024u
#define DEFAULT_REPEATS 5u
#define MAX_REPEATS 64u

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, unsigned n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void *alloc64(size_t bytes)
{
    void *p = NULL;
    return posix_memalign(&p, 64, bytes ? bytes : 1) == 0 ? p : NULL;
}

/* Three 64-byte aligned buffers of bytes each into p, or none (false). */
static bool alloc3(size_t bytes, void *p[3])
{
    for (int i = 0; i < 3; i++)
        p[i] = alloc64(bytes);
    if (p[0] && p[1] && p[2])
        return true;
    for (int i = 0; i < 3; i++)
        free(p[i]);
    return false;
}

/* First touch from the threads that will use the pages. */
static void fill_f32(float *x, size_t n, int nt, uint32_t salt)
{
#pragma omp parallel for num_threads(nt) schedule(static)
    for (size_t i = 0; i < n; ++i)
        x[i] = (float)((i * 2654435761u + salt) & 0xffffu) * (1.0f / 65536.0f);
}

static void copy_threads(char *dst, const char *src, size_t bytes, int nt)
{
#pragma omp parallel num_threads(nt)
    {
        size_t t = (size_t)omp_get_thread_num(), k = (size_t)omp_get_num_threads();
        size_t chunk = (bytes / k + 63) & ~(size_t)63;
        size_t lo = t * chunk < bytes ? t * chunk : bytes;
        size_t hi = lo + chunk < bytes ? lo + chunk : bytes;
        memcpy(dst + lo, src + lo, hi - lo);
    }
}

static void add_loop(const float *a, const float *b, float *c, size_t n, int nt)
{
#pragma omp parallel for num_threads(nt) schedule(static)
    for (size_t i = 0; i < n; ++i)
        c[i] = a[i] + b[i];
}

static float sum_loop(const float *x, size_t n, int nt)
{
    float s = 0.0f;
#pragma omp parallel for simd num_threads(nt) schedule(static) reduction(+ : s)
    for (size_t i = 0; i < n; ++i)
        s += x[i];
    return s;
}

/* Kept out of line and called through a volatile pointer so that the call is
 * really made: the bare cost of calling a function. */
__attribute__((noinline)) static void bare_fn(void *p)
{
    __asm__ volatile("" : : "r"(p) : "memory");
}

static volatile float sink;

static int32_t measure_copy(accel_cpu_ctx *ctx, const accel_ceilings_options *opt, unsigned reps,
                            accel_ceilings *out)
{
    const int nt = ctx->threads;
    size_t bytes = (size_t)opt->copy_bytes & ~(size_t)63;
    size_t n = bytes / sizeof(float);
    void *p[3];
    if (!alloc3(bytes, p)) {
        ctx->host->set_error(ctx->host->host_ctx,
                             "cpu: out of host memory for 3 x %zu bytes of ceiling buffers", bytes);
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    float *a = p[0], *b = p[1], *c = p[2];
    fill_f32(a, n, nt, 1);
    fill_f32(b, n, nt, 2);
    fill_f32(c, n, nt, 3);
    double t[MAX_REPEATS];

    /* memcpy over the team, and on one thread: the faster one is the ceiling. */
    double best = 0.0;
    int best_threads = 1;
    for (int pass = 0; pass < 2; ++pass) {
        int k = pass == 0 ? nt : 1;
        if (pass == 1 && nt == 1)
            break;
        copy_threads((char *)c, (const char *)a, bytes, k);
        for (unsigned r = 0; r < reps; ++r) {
            double t0 = now_s();
            copy_threads((char *)c, (const char *)a, bytes, k);
            t[r] = now_s() - t0;
        }
        double gbs = 2.0 * (double)bytes / median(t, reps) * 1e-9;
        if (gbs > best) {
            best = gbs;
            best_threads = k;
        }
    }
    out->copy_gbs = best;
    snprintf(out->copy_method, sizeof out->copy_method, "memcpy, %d thread%s", best_threads,
             best_threads == 1 ? "" : "s");

    /* The loops too on the team and on one thread; the faster counts. */
    for (int pass = 0; pass < 2; ++pass) {
        int k = pass == 0 ? nt : 1;
        if (pass == 1 && nt == 1)
            break;
        add_loop(a, b, c, n, k);
        for (unsigned r = 0; r < reps; ++r) {
            double t0 = now_s();
            add_loop(a, b, c, n, k);
            t[r] = now_s() - t0;
        }
        double gbs = 3.0 * (double)bytes / median(t, reps) * 1e-9;
        out->loop_gbs = gbs > out->loop_gbs ? gbs : out->loop_gbs;
        sink = sum_loop(a, n, k);
        for (unsigned r = 0; r < reps; ++r) {
            double t0 = now_s();
            sink = sum_loop(a, n, k);
            t[r] = now_s() - t0;
        }
        gbs = (double)bytes / median(t, reps) * 1e-9;
        out->read_gbs = gbs > out->read_gbs ? gbs : out->read_gbs;
    }
    out->copy_bytes = bytes;
    free(a);
    free(b);
    free(c);
    return ACCEL_SUCCESS;
}

static int32_t measure_gemm(accel_cpu_ctx *ctx, const accel_ceilings_options *opt, unsigned reps,
                            accel_ceilings *out)
{
    const size_t n = (size_t)opt->gemm_n;
    const int nt = ctx->threads;
    const int bn = (int)n;
    const accel_cpu_blas *blas = accel_cpu__blas();
    if (!blas->ok)
        return ACCEL_SUCCESS; /* no BLAS: the GEMM ceiling stays 0 (not measured) */
    void *p[3];
    if (!alloc3(n * n * sizeof(double), p)) {
        ctx->host->set_error(ctx->host->host_ctx,
                             "cpu: out of host memory for GEMM ceiling of n = %zu", n);
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    double *a = p[0], *b = p[1], *c = p[2];
    double t[MAX_REPEATS];
    const double flops = 2.0 * (double)n * (double)n * (double)n;
    for (int pass = 0; pass < 2; ++pass) {
        if (pass == 0) {
            fill_f32((float *)a, n * n, nt, 4);
            fill_f32((float *)b, n * n, nt, 5);
            fill_f32((float *)c, n * n, nt, 6);
        } else {
            for (size_t i = 0; i < n * n; ++i) {
                a[i] = (double)((i * 2654435761u + 7) & 0xffffu) / 65536.0;
                b[i] = (double)((i * 2246822519u + 9) & 0xffffu) / 65536.0;
                c[i] = 0.0;
            }
        }
        for (unsigned r = 0; r <= reps; ++r) {
            double t0 = now_s();
            if (pass == 0)
                blas->sgemm(ACCEL_CPU_CBLAS_ROW_MAJOR, ACCEL_CPU_CBLAS_NO_TRANS,
                            ACCEL_CPU_CBLAS_NO_TRANS, bn, bn, bn, 1.0f, (const float *)a, bn,
                            (const float *)b, bn, 0.0f, (float *)c, bn);
            else
                blas->dgemm(ACCEL_CPU_CBLAS_ROW_MAJOR, ACCEL_CPU_CBLAS_NO_TRANS,
                            ACCEL_CPU_CBLAS_NO_TRANS, bn, bn, bn, 1.0, a, bn, b, bn, 0.0, c, bn);
            if (r > 0)
                t[r - 1] = now_s() - t0;
        }
        out->gemm_tflops[pass == 0 ? ACCEL_F32 : ACCEL_F64] = flops / median(t, reps) * 1e-12;
    }
    out->gemm_n = n;
    snprintf(out->gemm_method, sizeof out->gemm_method, "%.28s cblas_sgemm/dgemm",
             ctx->blas_version);
    free(a);
    free(b);
    free(c);
    return ACCEL_SUCCESS;
}

static void measure_launch(unsigned reps, accel_ceilings *out)
{
    void (*volatile fp)(void *) = bare_fn;
    enum { CALLS = 100000 };
    double t[MAX_REPEATS];
    for (unsigned r = 0; r <= reps; ++r) {
        double t0 = now_s();
        for (int i = 0; i < CALLS; ++i)
            fp(&t0);
        if (r > 0)
            t[r - 1] = (now_s() - t0) / CALLS;
    }
    out->launch_us = median(t, reps) * 1e6;
}

int32_t accel_cpu__measure_ceilings(void *vctx, uint32_t device, const accel_ceilings_options *opt,
                                    accel_ceilings *out)
{
    accel_cpu_ctx *ctx = vctx;
    (void)device;
    accel_ceilings_options o = *opt;
    if (!o.copy_bytes)
        o.copy_bytes = DEFAULT_COPY_BYTES;
    if (o.copy_bytes < 4096)
        o.copy_bytes = 4096;
    if (!o.gemm_n)
        o.gemm_n = DEFAULT_GEMM_N;
    unsigned reps = o.repeats ? o.repeats : DEFAULT_REPEATS;
    if (reps > MAX_REPEATS)
        reps = MAX_REPEATS;
    int32_t st = ACCEL_SUCCESS;
    if (o.what & ACCEL_CEILING_COPY)
        st = measure_copy(ctx, &o, reps, out);
    if (st == ACCEL_SUCCESS && (o.what & ACCEL_CEILING_GEMM))
        st = measure_gemm(ctx, &o, reps, out);
    if (st == ACCEL_SUCCESS && (o.what & ACCEL_CEILING_LAUNCH))
        measure_launch(reps, out);
    /* CPU buffers are host memory: there are no host<->device transfers. */
    return st;
}
