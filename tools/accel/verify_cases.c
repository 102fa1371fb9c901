/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* verify_cases.c — the cases of `accel verify`: every op x dtype x shape (0,
 * 1, primes, sizes just off the tile and vector widths, special values,
 * tall-skinny and k-large GEMM, padded leading dimensions, batches,
 * transposes), each handed to verify_case in a fixed order, so that a seed
 * gives the same inputs to the same case on every run. */
#include <string.h>

#include "accel/backend.h"
#include "verify_suite.h"

static const size_t sizes_full[] = {0,   1,    2,    3,    4,    5,    7,    8,    13,  31,
                                    32,  33,   63,   64,   65,   127,  128,  129,  255, 256,
                                    257, 1023, 1024, 1025, 4095, 4096, 4097, 65537};
static const size_t sizes_quick[] = {0, 1, 3, 4, 5, 31, 127, 128, 129, 4095, 4097};
static const size_t random_sizes[] = {0, 1, 5, 4097};
/* Transposes: rows, cols, padding of both leading dimensions. */
static const size_t transposes[][3] = {{0, 3, 0}, {1, 1, 0},    {3, 5, 0},
                                       {3, 5, 2}, {17, 129, 1}, {128, 129, 0}};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The op table's codes (accel/types.h), for the case lists by kind. */
#define ACCEL_X_CODE(E, ...) ACCEL_OP_##E,
static const accel_op_code table_ops[] = {ACCEL_OP_LIST(ACCEL_X_CODE)};
#undef ACCEL_X_CODE

/* The codes of one kind into out; their number. */
static size_t ops_of_kind(accel_op_kind kind, accel_op_code *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < COUNT(table_ops) && n < cap; i++)
        if (accel_op_info(table_ops[i])->kind == kind)
            out[n++] = table_ops[i];
    return n;
}

typedef struct gemm_shape {
    size_t m, n, k;
    unsigned ta, tb;
    size_t pad, batch;
    double alpha, beta;
    bool quick;
} gemm_shape;

static const gemm_shape gemms[] = {
    {0, 3, 4, 0, 0, 0, 1, 1, 0, true},        {3, 0, 4, 0, 0, 0, 1, 1, 0, false},
    {3, 4, 0, 0, 0, 0, 1, 1, 0.5, true},      {1, 1, 1, 0, 0, 0, 1, 1, 0, true},
    {3, 5, 7, 0, 0, 0, 1, 1, 0, true},        {4, 4, 4, 0, 0, 0, 1, 1, 0, false},
    {7, 5, 6, 1, 0, 0, 1, 1, 0, true},        {7, 5, 6, 0, 1, 0, 1, 1, 0, true},
    {7, 5, 6, 1, 1, 0, 1, 1, 0, true},        {17, 13, 129, 0, 0, 0, 1, 1, 0, true},
    {127, 129, 128, 0, 0, 0, 1, 1, 0, false}, {1025, 3, 17, 0, 0, 0, 1, 1, 0, true},
    {3, 1025, 17, 0, 1, 0, 1, 1, 0, false},   {4, 5, 4097, 0, 0, 0, 1, 1, 0, true},
    {9, 7, 5, 0, 0, 3, 1, 1, 0, true},        {9, 7, 5, 1, 1, 3, 1, -1.5, 0.75, true},
    {6, 5, 4, 0, 0, 1, 3, 1, 0, true},        {6, 5, 4, 1, 0, 2, 4, 0.5, 2, false},
    {33, 31, 65, 0, 0, 0, 2, 1, 1, false},
};

static void desc_base(accel_op_desc *d, accel_op_code op, accel_dtype dt)
{
    memset(d, 0, sizeof *d);
    d->struct_size = sizeof *d;
    d->op = op;
    d->dtype = dt;
    d->name = "accel verify";
    d->batch_count = 1;
}
static void set_counts(accel_op_desc *d, uint32_t nops, size_t n, size_t out_n)
{
    d->num_operands = nops;
    for (uint32_t i = 0; i < nops; i++)
        d->operands[i].count = i == nops - 1 ? out_n : n;
}
static size_t span(size_t rows, size_t cols, size_t ld, size_t batch, size_t stride)
{
    if (!rows || !cols || !batch)
        return 0;
    return (batch - 1) * stride + (rows - 1) * ld + cols;
}
static void gemm_desc(accel_op_desc *d, accel_dtype dt, const gemm_shape *g)
{
    desc_base(d, ACCEL_OP_GEMM, dt);
    d->num_operands = 3;
    d->m = g->m, d->n = g->n, d->k = g->k;
    d->trans_a = g->ta, d->trans_b = g->tb;
    size_t ar = g->ta ? g->k : g->m, ac = g->ta ? g->m : g->k;
    size_t br = g->tb ? g->n : g->k, bc = g->tb ? g->k : g->n;
    d->lda = ac + g->pad, d->ldb = bc + g->pad, d->ldc = g->n + g->pad;
    if (!d->lda)
        d->lda = 1;
    if (!d->ldb)
        d->ldb = 1;
    if (!d->ldc)
        d->ldc = 1;
    d->batch_count = g->batch;
    if (g->batch > 1) {
        d->stride_a = ar * d->lda + 2;
        d->stride_b = br * d->ldb + 1;
        d->stride_c = g->m * d->ldc + 3;
    }
    d->operands[0].count = span(ar, ac, d->lda, g->batch, d->stride_a);
    d->operands[1].count = span(br, bc, d->ldb, g->batch, d->stride_b);
    d->operands[2].count = span(g->m, g->n, d->ldc, g->batch, d->stride_c);
    d->scalars[0] = g->alpha;
    d->scalars[1] = g->beta;
}

/* One op at one size (all operands n elements, the output out_n). */
static void one(verify_run *vr, accel_op_code op, accel_dtype dt, uint32_t nops, size_t n,
                size_t out_n, double s0, double s1, bool special)
{
    accel_op_desc d;
    desc_base(&d, op, dt);
    set_counts(&d, nops, n, out_n);
    d.scalars[0] = s0;
    d.scalars[1] = s1;
    verify_case(vr, &d, special);
}

static void sizes_of(const verify_run *vr, const size_t **out, size_t *count)
{
    *out = vr->quick ? sizes_quick : sizes_full;
    *count = vr->quick ? COUNT(sizes_quick) : COUNT(sizes_full);
}

/* Fill, binary and unary ops at every size, then once on special values. */
static void elementwise(verify_run *vr, accel_dtype dt)
{
    const size_t *sizes;
    size_t ns;
    sizes_of(vr, &sizes, &ns);
    for (size_t s = 0; s < ns; s++)
        one(vr, ACCEL_OP_FILL, dt, 1, sizes[s], sizes[s], -2.75, 0, false);
    /* Every binary, unary and reduction op of the op table; scale and copy run
     * as x -> out ops with the unary ones. */
    accel_op_code binary[64], unary[64];
    size_t nbinary = ops_of_kind(ACCEL_OP_KIND_BINARY, binary, 64);
    size_t nunary = ops_of_kind(ACCEL_OP_KIND_UNARY, unary, 62);
    unary[nunary++] = ACCEL_OP_SCALE;
    unary[nunary++] = ACCEL_OP_COPY;
    for (size_t o = 0; o < nbinary; o++) {
        for (size_t s = 0; s < ns; s++)
            one(vr, binary[o], dt, 3, sizes[s], sizes[s], 0, 0, false);
        one(vr, binary[o], dt, 3, 16, 16, 0, 0, true);
    }
    for (size_t o = 0; o < nunary; o++) {
        bool scale = unary[o] == ACCEL_OP_SCALE;
        for (size_t s = 0; s < ns; s++)
            one(vr, unary[o], dt, 2, sizes[s], sizes[s], scale ? -1.25 : 0.0, 0, false);
        one(vr, unary[o], dt, 2, 16, 16, scale ? 3.0 : 0.0, 0, true);
    }
    for (size_t s = 0; s < ns; s++)
        one(vr, ACCEL_OP_AXPBY, dt, 2, sizes[s], sizes[s], 1.5, -0.75, false);
}

/* Reductions at every size (and 100003 in the full suite); max and min of
 * nothing are argument errors, so they start at 1, and get special values. */
static void reduce(verify_run *vr, accel_dtype dt)
{
    const size_t *sizes;
    size_t ns;
    sizes_of(vr, &sizes, &ns);
    accel_op_code reductions[64];
    size_t nreductions = ops_of_kind(ACCEL_OP_KIND_REDUCTION, reductions, 64);
    for (size_t o = 0; o < nreductions; o++) {
        accel_op_code op = reductions[o];
        bool extremum = op != ACCEL_OP_SUM && op != ACCEL_OP_DOT;
        for (size_t s = 0; s < ns + (vr->quick ? 0 : 1); s++) {
            size_t n = s < ns ? sizes[s] : 100003;
            if (n > 0 || !extremum)
                one(vr, op, dt, op == ACCEL_OP_DOT ? 3 : 2, n, 1, 0, 0, false);
        }
        if (extremum)
            one(vr, op, dt, 2, 16, 1, 0, 0, true);
    }
}

static void random_numbers(verify_run *vr, accel_dtype dt)
{
    for (int normal = 0; normal < 2; normal++) {
        for (size_t s = 0; s < COUNT(random_sizes); s++) {
            accel_op_desc d;
            desc_base(&d, normal ? ACCEL_OP_RANDOM_NORMAL : ACCEL_OP_RANDOM_UNIFORM, dt);
            set_counts(&d, 1, random_sizes[s], random_sizes[s]);
            d.seed = vr->seed;
            d.rng_offset = 3;
            d.scalars[0] = normal ? 1.5 : 0;
            d.scalars[1] = normal ? 2.0 : 0;
            verify_case(vr, &d, false);
        }
    }
}

/* Copies of f16/bf16, GEMM shapes and transposes. */
static void matrices(verify_run *vr, accel_dtype dt)
{
    const size_t *sizes;
    size_t ns;
    sizes_of(vr, &sizes, &ns);
    accel_op_desc d;
    for (size_t s = 0; s < ns && (dt == ACCEL_F16 || dt == ACCEL_BF16); s++)
        one(vr, ACCEL_OP_COPY, dt, 2, sizes[s], sizes[s], 0, 0, false);
    for (size_t g = 0; g < COUNT(gemms); g++) {
        if (vr->quick && !gemms[g].quick)
            continue;
        gemm_desc(&d, dt, &gemms[g]);
        verify_case(vr, &d, false);
    }
    for (size_t s = 0; s < COUNT(transposes); s++) {
        desc_base(&d, ACCEL_OP_TRANSPOSE, dt);
        d.num_operands = 2;
        d.m = transposes[s][0], d.n = transposes[s][1];
        d.lda = d.n + transposes[s][2], d.ldc = d.m + transposes[s][2];
        d.lda = d.lda ? d.lda : 1;
        d.ldc = d.ldc ? d.ldc : 1;
        d.operands[0].count = span(d.m, d.n, d.lda, 1, 0);
        d.operands[1].count = span(d.n, d.m, d.ldc, 1, 0);
        verify_case(vr, &d, false);
    }
}

/* Sorts (m x n x k blocks along the middle axis; both directions): one long
 * line, many short ones, lines k apart, a single element. Argsort, whose
 * output is int64, is checked by verify mode and the test suites instead. */
static void sorts(verify_run *vr, accel_dtype dt)
{
    static const size_t shapes[][3] = {{1, 4099, 1}, {37, 33, 1}, {3, 65, 5}, {1, 1, 1}};
    accel_op_desc d;
    for (size_t s = 0; s < COUNT(shapes); s++)
        for (uint32_t desc = 0; desc < 2; desc++) {
            desc_base(&d, ACCEL_OP_SORT, dt);
            d.m = shapes[s][0], d.n = shapes[s][1], d.k = shapes[s][2];
            d.flags = desc ? ACCEL_OP_FLAG_SORT_DESCENDING : 0;
            set_counts(&d, 2, d.m * d.n * d.k, d.m * d.n * d.k);
            verify_case(vr, &d, false);
        }
}

/* Running sums (m x n x k blocks along the middle axis): a line past the
 * CPU's chunked pass, many short lines, lines k apart, a single element;
 * floats, integers and bool, into x's dtype and into the 64-bit one of its
 * kind (ACCEL_OP_FLAG_SCAN_WIDE); judged by ACCEL_TOLERANCE_PREFIX. A
 * backend may refuse a geometry (CUDA takes k == 1), which counts as
 * unsupported. */
static void scans(verify_run *vr)
{
    static const size_t shapes[][3] = {{1, 100003, 1}, {37, 33, 1}, {3, 65, 5}, {1, 1, 1}};
    static const struct {
        accel_dtype dt;
        uint32_t flags;
    } forms[] = {{ACCEL_F32, 0},
                 {ACCEL_F64, 0},
                 {ACCEL_F32, ACCEL_OP_FLAG_SCAN_WIDE},
                 {ACCEL_I32, 0},
                 {ACCEL_I32, ACCEL_OP_FLAG_SCAN_WIDE},
                 {ACCEL_U8, ACCEL_OP_FLAG_SCAN_WIDE},
                 {ACCEL_I64, 0},
                 {ACCEL_BOOL, ACCEL_OP_FLAG_SCAN_WIDE}};
    accel_op_desc d;
    for (size_t f = 0; f < COUNT(forms); f++)
        for (size_t s = 0; s < COUNT(shapes); s++) {
            if (vr->quick && s == 0 && f > 1)
                continue; /* the long line once per float dtype */
            desc_base(&d, ACCEL_OP_CUMSUM, forms[f].dt);
            d.flags = forms[f].flags;
            d.m = shapes[s][0], d.n = shapes[s][1], d.k = shapes[s][2];
            set_counts(&d, 2, d.m * d.n * d.k, d.m * d.n * d.k);
            verify_case(vr, &d, false);
        }
}

/* The LAPACK ops (batch, m, n, k; eigh and svd with and without
 * vectors): 1 x 1, small batches, tall and wide QR, reduced and full SVD,
 * sizes past a block. Their inputs are made well conditioned (verify_case)
 * and the result is judged by backward error. */
static void linalg(verify_run *vr, accel_dtype dt)
{
    static const struct {
        accel_op_code op;
        size_t b, m, n, k;
        uint32_t flags;
    } cases[] = {
        {ACCEL_OP_CHOLESKY, 1, 1, 1, 0, 0},
        {ACCEL_OP_CHOLESKY, 3, 5, 5, 0, 0},
        {ACCEL_OP_CHOLESKY, 2, 33, 33, 0, 0},
        {ACCEL_OP_SOLVE, 1, 1, 1, 1, 0},
        {ACCEL_OP_SOLVE, 3, 5, 5, 2, 0},
        {ACCEL_OP_SOLVE, 2, 17, 17, 1, 0},
        {ACCEL_OP_SLOGDET, 1, 1, 1, 0, 0},
        {ACCEL_OP_SLOGDET, 4, 6, 6, 0, 0},
        {ACCEL_OP_QR, 2, 5, 3, 3, 0},
        {ACCEL_OP_QR, 2, 5, 3, 5, 0},
        {ACCEL_OP_QR, 2, 3, 5, 3, 0},
        {ACCEL_OP_QR, 1, 17, 9, 9, 0},
        {ACCEL_OP_EIGH, 2, 5, 5, 0, ACCEL_OP_FLAG_LINALG_VECTORS},
        {ACCEL_OP_EIGH, 2, 5, 5, 0, 0},
        {ACCEL_OP_EIGH, 1, 17, 17, 0, ACCEL_OP_FLAG_LINALG_VECTORS},
        {ACCEL_OP_SVD, 2, 5, 3, 3, ACCEL_OP_FLAG_LINALG_VECTORS},
        {ACCEL_OP_SVD, 2, 5, 3, 5, ACCEL_OP_FLAG_LINALG_VECTORS},
        {ACCEL_OP_SVD, 1, 9, 9, 9, 0},
    };
    accel_op_desc d;
    for (size_t i = 0; i < COUNT(cases); i++) {
        desc_base(&d, cases[i].op, dt);
        d.batch_count = cases[i].b, d.m = cases[i].m, d.n = cases[i].n, d.k = cases[i].k;
        d.flags = cases[i].flags;
        accel_linalg_layout l = accel_linalg_layout_of(d.op, d.batch_count, d.m, d.n, d.k);
        bool solve = d.op == ACCEL_OP_SOLVE;
        d.num_operands = solve ? 3 : 2;
        d.operands[0].count = d.batch_count * d.m * d.n;
        d.operands[1].count = solve ? d.batch_count * d.n * d.k : l.total;
        d.operands[2].count = solve ? l.total : 0;
        verify_case(vr, &d, false);
    }
}

/* Complex FFTs (lines along the middle axis of m x n x k blocks; both
 * directions, scaled or not): a power of two, a prime cuFFT does by
 * Bluestein, lines k apart, a single point. RFFT and IRFFT, whose real
 * side is another element size than the op's dtype, are checked by verify
 * mode and tests/test_cuda.c instead. */
static void ffts(verify_run *vr, accel_dtype dt)
{
    static const size_t shapes[][3] = {
        {1, 4096, 1}, {8, 1000, 1}, {3, 97, 5}, {1, 4099, 1}, {2, 1, 3}};
    accel_op_desc d;
    for (size_t s = 0; s < COUNT(shapes); s++)
        for (uint32_t inv = 0; inv < 2; inv++) {
            desc_base(&d, ACCEL_OP_FFT, dt);
            d.m = shapes[s][0], d.n = shapes[s][1], d.k = shapes[s][2];
            d.flags = inv ? ACCEL_OP_FLAG_FFT_INVERSE : 0;
            d.scalars[0] = inv ? 1.0 / (double)d.n : 1.0;
            set_counts(&d, 2, d.m * d.n * d.k, d.m * d.n * d.k);
            verify_case(vr, &d, false);
        }
}

void verify_suite(verify_run *vr)
{
    static const accel_dtype fdt[] = {ACCEL_F32, ACCEL_F64};
    static const accel_dtype alldt[] = {ACCEL_F32, ACCEL_F64, ACCEL_F16, ACCEL_BF16};
    for (size_t t = 0; t < COUNT(fdt); t++) {
        elementwise(vr, fdt[t]);
        reduce(vr, fdt[t]);
        random_numbers(vr, fdt[t]);
        linalg(vr, fdt[t]);
    }
    for (size_t t = 0; t < COUNT(alldt); t++) {
        matrices(vr, alldt[t]);
        sorts(vr, alldt[t]);
    }
    ffts(vr, ACCEL_C64);
    ffts(vr, ACCEL_C128);
    scans(vr);
    verify_arrays(vr);
}
