/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* scan.c — ACCEL_OP_CUMSUM on the CPU (backend.h): every line of the
 * m x n x k block replaced by its running sum, floats in double and
 * integers in uint64 (wrapping; stored truncated, the same bits as a sum in
 * the dtype), each sum rounded once on store into x's dtype or, with
 * ACCEL_OP_FLAG_SCAN_WIDE, the 64-bit one of its kind (float64, int64 for
 * signed integers and bool, uint64).
 * - Contiguous lines (k == 1) each run alone, many to a thread; lines k
 *   apart walk row by row in blocks of up to BLOCK neighbouring lines (one
 *   accumulator each), so they read whole rows; both in parallel over the
 *   plugin's OpenMP team.
 * - One long line (m*k == 1, n >= SPLIT) runs in chunks, one per thread, in
 *   two passes: each chunk's total, then each chunk's running sum from the
 *   totals of the chunks before it. That associates differently from a
 *   serial walk; both are float64 sums within ACCEL_TOLERANCE_PREFIX. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cpu.h"

#define BLOCK 256   /* lines walked together by one task */
#define SPLIT 65536 /* a single line at least this long runs in chunks */
#define MAX_CHUNKS 256

/* A running sum's state: double for floats, uint64 for integers. */
typedef union acc {
    double f;
    uint64_t u;
} acc;

/* One dtype's walks: rows (w <= BLOCK lines from line i0 of outer block o),
 * total (chunk [j0, j1) of a single line), run (that chunk's running sum
 * from acc a). */
typedef struct scan_fns {
    void (*rows)(const void *x, void *out, size_t n, size_t k, size_t o, size_t i0, size_t w);
    acc (*total)(const void *x, size_t j0, size_t j1);
    void (*run)(const void *x, void *out, size_t j0, size_t j1, acc a);
    bool real; /* acc.f, else acc.u */
} scan_fns;

/* The walks of element type T into OUT with accumulator ACC in member F
 * of acc. */
#define SCAN_TYPE(SUF, T, OUT, ACC, F)                                                             \
    static void rows_##SUF(const void *xv, void *ov, size_t n, size_t k, size_t o, size_t i0,      \
                           size_t w)                                                               \
    {                                                                                              \
        ACC a[BLOCK];                                                                              \
        for (size_t t = 0; t < w; t++)                                                             \
            a[t] = 0;                                                                              \
        for (size_t j = 0; j < n; j++) {                                                           \
            const T *r = (const T *)xv + (o * n + j) * k + i0;                                     \
            OUT *s = (OUT *)ov + (o * n + j) * k + i0;                                             \
            for (size_t t = 0; t < w; t++) {                                                       \
                a[t] += (ACC)r[t];                                                                 \
                s[t] = (OUT)a[t];                                                                  \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static acc total_##SUF(const void *xv, size_t j0, size_t j1)                                   \
    {                                                                                              \
        ACC a = 0;                                                                                 \
        for (size_t j = j0; j < j1; j++)                                                           \
            a += (ACC)((const T *)xv)[j];                                                          \
        return (acc){.F = a};                                                                      \
    }                                                                                              \
    static void run_##SUF(const void *xv, void *ov, size_t j0, size_t j1, acc start)               \
    {                                                                                              \
        ACC a = start.F;                                                                           \
        for (size_t j = j0; j < j1; j++) {                                                         \
            a += (ACC)((const T *)xv)[j];                                                          \
            ((OUT *)ov)[j] = (OUT)a;                                                               \
        }                                                                                          \
    }

/* The dtypes: (ACCEL_ dtype, suffix, element type, accumulator, acc
 * member, the wide out type of ACCEL_OP_FLAG_SCAN_WIDE). */
#define SCAN_DTYPES(X)                                                                             \
    X(F32, f32, float, double, f, double)                                                          \
    X(F64, f64, double, double, f, double)                                                         \
    X(I8, i8, int8_t, uint64_t, u, int64_t)                                                        \
    X(I16, i16, int16_t, uint64_t, u, int64_t)                                                     \
    X(I32, i32, int32_t, uint64_t, u, int64_t)                                                     \
    X(I64, i64, int64_t, uint64_t, u, int64_t)                                                     \
    X(U8, u8, uint8_t, uint64_t, u, uint64_t)                                                      \
    X(U16, u16, uint16_t, uint64_t, u, uint64_t)                                                   \
    X(U32, u32, uint32_t, uint64_t, u, uint64_t)                                                   \
    X(U64, u64, uint64_t, uint64_t, u, uint64_t)                                                   \
    X(BOOL, b8, uint8_t, uint64_t, u, int64_t)

#define SCAN_DEFINE(E, SUF, T, ACC, F, WIDE)                                                       \
    SCAN_TYPE(SUF, T, T, ACC, F)                                                                   \
    SCAN_TYPE(SUF##_wide, T, WIDE, ACC, F)
SCAN_DTYPES(SCAN_DEFINE)
#undef SCAN_DEFINE

/* A single long line in p chunks: totals, their exclusive running sum (in
 * chunk order), each chunk from there. */
static void split_line(const scan_fns *f, const void *x, void *out, size_t n, int threads)
{
    size_t p = (size_t)threads < MAX_CHUNKS ? (size_t)threads : MAX_CHUNKS;
    size_t len = (n + p - 1) / p;
    acc part[MAX_CHUNKS];
#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (size_t c = 0; c < p; c++)
        part[c] = f->total(x, c * len < n ? c * len : n, (c + 1) * len < n ? (c + 1) * len : n);
    acc before = {0};
    for (size_t c = 0; c < p; c++) {
        acc t = part[c];
        part[c] = before;
        if (f->real)
            before.f += t.f;
        else
            before.u += t.u;
    }
#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (size_t c = 0; c < p; c++)
        f->run(x, out, c * len < n ? c * len : n, (c + 1) * len < n ? (c + 1) * len : n, part[c]);
}

int32_t accel_cpu__scan(const accel_cpu_op *op, int threads, char *msg, size_t msg_size)
{
    scan_fns f;
    bool wide = (op->flags & ACCEL_OP_FLAG_SCAN_WIDE) != 0;
    switch (op->dtype) {
#define SCAN_FNS(E, SUF, T, ACC, F, WIDE)                                                          \
    case ACCEL_##E:                                                                                \
        f = wide ? (scan_fns){rows_##SUF##_wide, total_##SUF##_wide, run_##SUF##_wide,             \
                              (ACC)0.5 != 0}                                                       \
                 : (scan_fns){rows_##SUF, total_##SUF, run_##SUF, (ACC)0.5 != 0};                  \
        break;
        SCAN_DTYPES(SCAN_FNS)
#undef SCAN_FNS
    default:
        snprintf(msg, msg_size, "%s: cumsum of dtype %u is not supported", op->name, op->dtype);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    size_t m = op->m, n = op->n, k = op->k;
    if (m * k == 1 && n >= SPLIT && threads > 1) {
        split_line(&f, op->ptr[0], op->ptr[1], n, threads);
        return ACCEL_SUCCESS;
    }
    if (k == 1) { /* contiguous lines: each a run, many to a thread */
#pragma omp parallel for num_threads(m > 1 ? threads : 1) schedule(static)
        for (size_t o = 0; o < m; o++)
            f.run(op->ptr[0], op->ptr[1], o * n, o * n + n, (acc){0});
        return ACCEL_SUCCESS;
    }
    size_t nb = (k + BLOCK - 1) / BLOCK, tasks = m * nb;
#pragma omp parallel for num_threads(tasks > 1 ? threads : 1) schedule(dynamic, 1)
    for (size_t t = 0; t < tasks; t++) {
        size_t o = t / nb, i0 = (t % nb) * BLOCK;
        f.rows(op->ptr[0], op->ptr[1], n, k, o, i0, k - i0 < BLOCK ? k - i0 : BLOCK);
    }
    return ACCEL_SUCCESS;
}
