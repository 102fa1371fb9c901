/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* fake_cblas.c — a CBLAS a host program might link before accel: its GEMMs
 * write 12345 into C and compute nothing. blas_isolation links it first, so
 * that any cblas_sgemm/cblas_dgemm looked up in the process's global scope
 * lands here. */
#include <stddef.h>

__attribute__((visibility("default"))) int fake_cblas_calls;

__attribute__((visibility("default"))) void cblas_sgemm(int order, int ta, int tb, int m, int n,
                                                        int k, float alpha, const float *a, int lda,
                                                        const float *b, int ldb, float beta,
                                                        float *c, int ldc)
{
    (void)order, (void)ta, (void)tb, (void)k, (void)alpha, (void)a, (void)lda, (void)b, (void)ldb;
    (void)beta;
    fake_cblas_calls++;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            c[(size_t)i * (size_t)ldc + (size_t)j] = 12345.0f;
}

__attribute__((visibility("default"))) void cblas_dgemm(int order, int ta, int tb, int m, int n,
                                                        int k, double alpha, const double *a,
                                                        int lda, const double *b, int ldb,
                                                        double beta, double *c, int ldc)
{
    (void)order, (void)ta, (void)tb, (void)k, (void)alpha, (void)a, (void)lda, (void)b, (void)ldb;
    (void)beta;
    fake_cblas_calls++;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            c[(size_t)i * (size_t)ldc + (size_t)j] = 12345.0;
}
