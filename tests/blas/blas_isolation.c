/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* blas_isolation.c — a host program that links its own CBLAS (fake_cblas,
 * whose GEMMs write 12345) before libaccel. The CPU backend must still call
 * its own OpenBLAS: with selftest = false (nothing catches a wrong GEMM at
 * load) and with the self-test on (the backend must not be lost), a GEMM
 * matches a plain double loop within the GEMM bound 2*(k+2)*eps*(|A||B|)ij,
 * the host's library is never called, and the device properties name the
 * bound BLAS. Exit 0 on success, 1 with a message otherwise. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/accel.h"

extern int fake_cblas_calls;
void cblas_sgemm(int order, int ta, int tb, int m, int n, int k, float alpha, const float *a,
                 int lda, const float *b, int ldb, float beta, float *c, int ldc);

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        fprintf(stderr, "blas_isolation: FAILED: " __VA_ARGS__);                                   \
        fprintf(stderr, " (last error: %s)\n", accel_last_error());                                \
        exit(1);                                                                                   \
    } while (0)

static void one_run(const char *dir, const char *plugin, int selftest)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/blas_isolation_%d.ini", dir, selftest);
    FILE *f = fopen(path, "w");
    if (!f)
        FAIL("cannot write %s", path);
    fprintf(f, "[runtime]\norder = cpu\nselftest = %s\n[backend.cpu]\nlibrary = %s\n",
            selftest ? "true" : "false", plugin);
    fclose(f);
    accel_runtime *rt;
    if (accel_runtime_open(path, &rt) != ACCEL_SUCCESS)
        FAIL("open with selftest = %d", selftest);
    accel_device *dev;
    if (accel_device_get_by_name(rt, "cpu", &dev) != ACCEL_SUCCESS)
        FAIL("no cpu device with selftest = %d (the self-test caught a wrong GEMM?)", selftest);
    accel_device_properties p;
    accel_device_properties_init(&p);
    if (accel_device_properties_get(dev, &p) != ACCEL_SUCCESS)
        FAIL("properties");
    if (strncmp(p.runtime_version, "OpenBLAS ", 9) != 0)
        FAIL("runtime_version is \"%s\", not the bound OpenBLAS", p.runtime_version);
    enum { M = 37, N = 29, K = 41 };
    float a[M * K], b[K * N], c[M * N];
    for (int i = 0; i < M * K; i++)
        a[i] = (float)((i * 37 % 101) - 50) / 16.0f;
    for (int i = 0; i < K * N; i++)
        b[i] = (float)((i * 53 % 89) - 44) / 8.0f;
    accel_queue *q;
    accel_buffer *ba, *bb, *bc;
    if (accel_queue_create(dev, &q) || accel_buffer_create(dev, sizeof a, &ba) ||
        accel_buffer_create(dev, sizeof b, &bb) || accel_buffer_create(dev, sizeof c, &bc))
        FAIL("create");
    for (int i = 0; i < M * N; i++)
        c[i] = -7.0f; /* a GEMM that returned C unchanged would leave -7 */
    if (accel_queue_write(q, ba, 0, a, sizeof a) || accel_queue_write(q, bb, 0, b, sizeof b) ||
        accel_queue_write(q, bc, 0, c, sizeof c))
        FAIL("write");
    if (accel_matmul(q, ACCEL_F32, M, N, K, ba, bb, bc) != ACCEL_SUCCESS)
        FAIL("matmul");
    if (accel_queue_read_blocking(q, bc, 0, c, sizeof c) != ACCEL_SUCCESS)
        FAIL("read");
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double ref = 0, mag = 0;
            for (int l = 0; l < K; l++) {
                ref += (double)a[i * K + l] * (double)b[l * N + j];
                mag += fabs((double)a[i * K + l] * (double)b[l * N + j]);
            }
            double bound = 2.0 * (K + 2) * 0x1p-24 * mag;
            if (fabs((double)c[i * N + j] - ref) > bound)
                FAIL("selftest = %d: C[%d][%d] = %g, reference %g (bound %g)", selftest, i, j,
                     (double)c[i * N + j], ref, bound);
        }
    accel_runtime_close(rt);
    printf("selftest = %s: GEMM matches the reference; BLAS %s / %s\n", selftest ? "true" : "false",
           p.driver_version, p.runtime_version);
}

int main(int argc, char **argv)
{
    if (argc != 3)
        FAIL("usage: blas_isolation TMPDIR CPU_PLUGIN");
    /* The host's own library answers the host's own calls. */
    float x = 1, y = 1, z = 0;
    cblas_sgemm(101, 111, 111, 1, 1, 1, 1.0f, &x, 1, &y, 1, 0.0f, &z, 1);
    if (z != 12345.0f || fake_cblas_calls != 1)
        FAIL("the fake CBLAS is not the host's cblas_sgemm (link order)");
    one_run(argv[1], argv[2], 0);
    one_run(argv[1], argv[2], 1);
    if (fake_cblas_calls != 1)
        FAIL("accel called the host's CBLAS %d times", fake_cblas_calls - 1);
    printf("blas_isolation: passed\n");
    return 0;
}
