/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_array_unique.c — accel_array_unique_all and its three narrower
 * forms: every real dtype on a strided 2-D x, empty input, all-equal, many
 * NaNs, -0.0 beside 0.0, outputs shorter and longer than the count,
 * against a reference of the test's own in plain double loops (a group
 * starts at an element no earlier element equals; NaNs equal nothing; the
 * groups ordered by value, NaNs last by position), compared exactly;
 * every device of the runtime; bad input with the outputs untouched. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "test_array_common.h"

/* The same group: equal in the order, and not NaN. */
static bool same_group(accel_dtype dt, val a, val b)
{
    return sort_order(dt, a, b) == 0 && !(is_float(dt) && isnan(a.f));
}

typedef struct ref {
    int64_t u;
    int64_t *rep, *count, *inverse; /* rep: first occurrence of each group */
} ref;

/* The reference of n values xs (logical order) of dt. */
static ref reference(accel_dtype dt, const val *xs, int64_t n)
{
    ref r = {0, malloc((size_t)n * 8 + 8), malloc((size_t)n * 8 + 8), malloc((size_t)n * 8 + 8)};
    for (int64_t i = 0; i < n; i++) {
        bool first = true;
        for (int64_t j = 0; j < i && first; j++)
            first = !same_group(dt, xs[j], xs[i]);
        if (!first)
            continue;
        int64_t at = r.u++; /* insertion by (value, position): stable */
        while (at > 0 && sort_order(dt, xs[r.rep[at - 1]], xs[i]) > 0) {
            r.rep[at] = r.rep[at - 1];
            at--;
        }
        r.rep[at] = i;
    }
    for (int64_t g = 0; g < r.u; g++) {
        r.count[g] = 0;
        for (int64_t i = 0; i < n; i++)
            if (i == r.rep[g] || same_group(dt, xs[i], xs[r.rep[g]])) {
                r.count[g]++;
                r.inverse[i] = g;
            }
    }
    return r;
}

/* Outputs of length len (all four and the count) for x, each prefilled
 * with a sentinel; checks the first min(len, U) against the reference and
 * the rest untouched. */
static void check_unique(env *e, const accel_array *x, const val *xs, int64_t n, int64_t len)
{
    accel_dtype dt = x->dtype;
    size_t es = accel_dtype_size(dt), lb = (size_t)(len ? len : 1);
    ref r = reference(dt, xs, n);
    unsigned char *sent = malloc(lb * 8 + (size_t)n * 8 + 8);
    memset(sent, 0xA5, lb * 8 + (size_t)n * 8 + 8);
    accel_buffer *bv = upload(e, sent, lb * es), *bi = upload(e, sent, lb * 8);
    accel_buffer *bc = upload(e, sent, lb * 8), *bn = upload(e, sent, 8);
    accel_buffer *binv = upload(e, sent, (size_t)n * 8);
    accel_array values, indices, counts, count, inverse;
    tu_ok(accel_array_init(&values, bv, dt, 1, &len));
    tu_ok(accel_array_init(&indices, bi, ACCEL_I64, 1, &len));
    tu_ok(accel_array_init(&counts, bc, ACCEL_I64, 1, &len));
    tu_ok(accel_array_init(&count, bn, ACCEL_I64, 0, NULL));
    tu_ok(accel_array_init(&inverse, binv, ACCEL_I64, x->ndim, x->shape));
    tu_ok(accel_array_unique_all(e->q, x, &values, &indices, &inverse, &counts, &count));
    unsigned char *gv = malloc(lb * es), *gi = malloc(lb * 8), *gc = malloc(lb * 8);
    int64_t *ginv = malloc((size_t)n * 8 + 8), got_u = -1;
    tu_ok(accel_queue_read_blocking(e->q, bv, 0, gv, lb * es));
    tu_ok(accel_queue_read_blocking(e->q, bi, 0, gi, lb * 8));
    tu_ok(accel_queue_read_blocking(e->q, bc, 0, gc, lb * 8));
    tu_ok(accel_queue_read_blocking(e->q, binv, 0, ginv, (size_t)n * 8));
    tu_ok(accel_queue_read_blocking(e->q, bn, 0, &got_u, 8));
    const char *dn = accel_dtype_name(dt);
    cr_assert_eq(got_u, r.u, "%s n=%lld: %lld distinct, want %lld", dn, (long long)n,
                 (long long)got_u, (long long)r.u);
    for (int64_t g = 0; g < len; g++) {
        int64_t ix, c;
        memcpy(&ix, gi + g * 8, 8);
        memcpy(&c, gc + g * 8, 8);
        if (g >= r.u) { /* past the count: untouched */
            cr_assert(!memcmp(gv + (size_t)g * es, sent, es) && !memcmp(&ix, sent, 8) &&
                          !memcmp(&c, sent, 8),
                      "%s: output %lld past the count was written", dn, (long long)g);
            continue;
        }
        val want = xs[r.rep[g]], got = get(gv, dt, (size_t)g);
        cr_assert(same_value(dt, got, want), "%s group %lld: value %g want %g", dn, (long long)g,
                  is_float(dt) ? got.f : (double)got.i, is_float(dt) ? want.f : (double)want.i);
        cr_assert_eq(ix, r.rep[g], "%s group %lld: index %lld want %lld", dn, (long long)g,
                     (long long)ix, (long long)r.rep[g]);
        cr_assert_eq(c, r.count[g], "%s group %lld: count %lld want %lld", dn, (long long)g,
                     (long long)c, (long long)r.count[g]);
    }
    for (int64_t i = 0; i < n; i++)
        cr_assert_eq(ginv[i], r.inverse[i], "%s: inverse[%lld] = %lld want %lld", dn, (long long)i,
                     (long long)ginv[i], (long long)r.inverse[i]);
    accel_buffer *bufs[] = {bv, bi, bc, bn, binv};
    for (int k = 0; k < 5; k++)
        accel_buffer_release(bufs[k]);
    free(r.rep), free(r.count), free(r.inverse);
    free(sent), free(gv), free(gi), free(gc), free(ginv);
}

/* A (rows x cols) x of dt viewed transposed from a (cols x rows) buffer:
 * seeded values with repeats, then unique_all into outputs of len. */
static void run_unique(env *e, tu_rng *r, accel_dtype dt, int64_t rows, int64_t cols, int64_t len)
{
    size_t es = accel_dtype_size(dt), n = (size_t)(rows * cols);
    unsigned char *h = malloc(n * es + 1);
    fill(r, dt, false, h, n);
    for (size_t i = 20; i < n; i += 3) /* repeats */
        memcpy(h + i * es, h + (i % 13) * es, es);
    accel_buffer *b = upload(e, h, n * es);
    accel_array base, x;
    const int64_t tshape[] = {cols, rows};
    const int32_t tr[] = {1, 0};
    tu_ok(accel_array_init(&base, b, dt, 2, tshape));
    tu_ok(accel_array_permute_dims(&base, tr, &x));
    val *xs = malloc(n * sizeof *xs + 1);
    for (int64_t i = 0; i < rows; i++) /* x's row-major order */
        for (int64_t j = 0; j < cols; j++)
            xs[i * cols + j] = get(h, dt, (size_t)(j * rows + i));
    check_unique(e, &x, xs, (int64_t)n, len < 0 ? (int64_t)n : len);
    accel_buffer_release(b);
    free(h);
    free(xs);
}

static void every_dtype(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    tu_rng r = tu_rng_make(2027);
    for (size_t d = 0; d < NDT; d++)
        run_unique(&e, &r, all_dtypes[d], 9, 7, -1);
    run_unique(&e, &r, ACCEL_F32, 1, 1, -1); /* one element */
    run_unique(&e, &r, ACCEL_I32, 40, 50, -1);
    run_unique(&e, &r, ACCEL_F64, 9, 7, 3);   /* outputs shorter than the count */
    run_unique(&e, &r, ACCEL_I16, 9, 7, 100); /* longer: the rest untouched */
}

Test(array_unique, every_dtype_against_double_loops)
{
    accel_runtime *rt = array_runtime(NULL, NULL);
    tu_for_each_device(rt, every_dtype, NULL);
    accel_runtime_close(rt);
}

/* Hand-picked inputs: all equal, NaNs (each distinct), -0.0 beside 0.0
 * (one group, the first's bits), empty. */
static void special(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    const double cases[][8] = {{3, 3, 3, 3, 3, 3, 3, 3},
                               {NAN, 1, NAN, -INFINITY, NAN, 1, INFINITY, NAN},
                               {-0.0, 0.0, 0.0, -0.0, 2, -0.0, NAN, 0.0},
                               {0.0, -0.0, 5, 5, -5, 0.0, -0.0, -5}};
    for (size_t c = 0; c < 4; c++) {
        accel_buffer *b = upload(&e, cases[c], sizeof cases[c]);
        accel_array x;
        const int64_t n = 8;
        tu_ok(accel_array_init(&x, b, ACCEL_F64, 1, &n));
        val xs[8];
        for (int i = 0; i < 8; i++)
            xs[i].f = cases[c][i];
        check_unique(&e, &x, xs, 8, 8);
        accel_buffer_release(b);
    }
    /* the hand count of case 1: four NaNs, -inf, 1, inf */
    val xs1[8];
    for (int i = 0; i < 8; i++)
        xs1[i].f = cases[1][i];
    ref r1 = reference(ACCEL_F64, xs1, 8);
    cr_assert_eq(r1.u, 7, "the reference itself: %lld groups", (long long)r1.u);
    free(r1.rep), free(r1.count), free(r1.inverse);
    /* empty x: the count 0, nothing else written */
    accel_buffer *b = upload(&e, NULL, 8);
    accel_array x, values, count;
    const int64_t zero = 0, one = 1;
    tu_ok(accel_array_init(&x, b, ACCEL_F32, 1, &zero));
    int64_t sentinel = 77;
    accel_buffer *bn = upload(&e, &sentinel, 8), *bv = upload(&e, &sentinel, 8);
    tu_ok(accel_array_init(&count, bn, ACCEL_I64, 1, &one));
    tu_ok(accel_array_init(&values, bv, ACCEL_F32, 1, &one));
    tu_ok(accel_array_unique_values(q, &x, &values, &count));
    int64_t got = -1, vgot = -1;
    tu_ok(accel_queue_read_blocking(q, bn, 0, &got, 8));
    tu_ok(accel_queue_read_blocking(q, bv, 0, &vgot, 8));
    cr_assert_eq(got, 0, "empty: count %lld", (long long)got);
    cr_assert_eq(vgot, 77, "empty: values written");
    accel_buffer_release(b);
    accel_buffer_release(bn);
    accel_buffer_release(bv);
}

Test(array_unique, all_equal_nans_signed_zeros_empty)
{
    accel_runtime *rt = array_runtime(NULL, NULL);
    tu_for_each_device(rt, special, NULL);
    accel_runtime_close(rt);
}

/* The narrower forms give what unique_all gives for their outputs. */
Test(array_unique, narrower_forms)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    env e = {dev, q};
    const int32_t h[] = {4, -1, 4, 7, -1, 4, 0, 7, 7, 7};
    const int64_t n = 10, wantv[] = {-1, 0, 4, 7}, wantc[] = {2, 1, 3, 4};
    const int64_t wanti[] = {2, 0, 2, 3, 0, 2, 1, 3, 3, 3};
    accel_buffer *bx = upload(&e, h, sizeof h), *bv = upload(&e, NULL, 40);
    accel_buffer *bc = upload(&e, NULL, 80), *bn = upload(&e, NULL, 8);
    accel_array x, v, c, cnt, inv;
    tu_ok(accel_array_init(&x, bx, ACCEL_I32, 1, &n));
    tu_ok(accel_array_init(&v, bv, ACCEL_I32, 1, &n));
    tu_ok(accel_array_init(&cnt, bn, ACCEL_I64, 0, NULL));
    tu_ok(accel_array_init(&c, bc, ACCEL_I64, 1, &n));
    tu_ok(accel_array_init(&inv, bc, ACCEL_I64, 1, &n));
    int32_t gv[10];
    int64_t gc[10], gn;
    tu_ok(accel_array_unique_counts(q, &x, &v, &c, &cnt));
    tu_ok(accel_queue_read_blocking(q, bv, 0, gv, 40));
    tu_ok(accel_queue_read_blocking(q, bc, 0, gc, 80));
    tu_ok(accel_queue_read_blocking(q, bn, 0, &gn, 8));
    cr_assert_eq(gn, 4);
    for (int g = 0; g < 4; g++)
        cr_assert(gv[g] == wantv[g] && gc[g] == wantc[g], "counts %d: %d x %lld", g, gv[g],
                  (long long)gc[g]);
    tu_ok(accel_array_unique_inverse(q, &x, &v, &inv, NULL));
    tu_ok(accel_queue_read_blocking(q, bc, 0, gc, 80));
    for (int i = 0; i < 10; i++)
        cr_assert_eq(gc[i], wanti[i], "inverse %d: %lld", i, (long long)gc[i]);
    tu_ok(accel_array_unique_values(q, &x, &v, NULL));
    tu_ok(accel_queue_read_blocking(q, bv, 0, gv, 40));
    for (int g = 0; g < 4; g++)
        cr_assert_eq(gv[g], wantv[g]);
    accel_buffer_release(bx), accel_buffer_release(bv), accel_buffer_release(bc);
    accel_buffer_release(bn);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

Test(array_unique, bad_input_leaves_outputs_untouched)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    env e = {dev, q};
    int64_t host[16];
    for (int i = 0; i < 16; i++)
        host[i] = 50 - i;
    accel_buffer *bx = upload(&e, host, sizeof host), *bo = upload(&e, host, sizeof host);
    const int64_t n4 = 4, s22[] = {2, 2}, n3 = 3;
    accel_array x, v, vf, c2d, cnt3, inv, inv_t, vo;
    tu_ok(accel_array_init(&x, bx, ACCEL_I64, 2, s22));
    tu_ok(accel_array_init(&v, bo, ACCEL_I64, 1, &n4));
    tu_ok(accel_array_init(&vf, bo, ACCEL_F64, 1, &n4));
    tu_ok(accel_array_init(&c2d, bo, ACCEL_I64, 2, s22));
    tu_ok(accel_array_init(&cnt3, bo, ACCEL_I64, 1, &n3));
    tu_ok(accel_array_init(&inv, bo, ACCEL_I64, 1, &n4));
    const int32_t tr[] = {1, 0};
    accel_array inv22;
    tu_ok(accel_array_init(&inv22, bo, ACCEL_I64, 2, s22));
    tu_ok(accel_array_permute_dims(&inv22, tr, &inv_t));
    inv_t.offset = 64;
    vo = v;
    vo.offset = 16; /* overlaps v */
    tu_assert_status(accel_array_unique_values(q, &x, &vf, NULL), ACCEL_ERROR_DTYPE_MISMATCH,
                     "values f64 for an i64 x");
    cr_assert(strstr(accel_last_error(), "accel_array_unique_values"), "%s", accel_last_error());
    tu_assert_status(accel_array_unique_counts(q, &x, NULL, &c2d, NULL), ACCEL_ERROR_SHAPE_MISMATCH,
                     "counts 2-D");
    tu_assert_status(accel_array_unique_values(q, &x, NULL, &cnt3), ACCEL_ERROR_SHAPE_MISMATCH,
                     "out_count of three");
    tu_assert_status(accel_array_unique_inverse(q, &x, NULL, &inv, NULL),
                     ACCEL_ERROR_SHAPE_MISMATCH, "inverse not x's shape");
    tu_assert_status(accel_array_unique_inverse(q, &x, NULL, &inv_t, NULL), ACCEL_ERROR_UNSUPPORTED,
                     "inverse not flat");
    tu_assert_status(accel_array_unique_all(q, &x, &v, &vo, NULL, NULL, NULL),
                     ACCEL_ERROR_INVALID_ARGUMENT, "indices overlap values");
    accel_array in_x = v;
    in_x.buffer = bx;
    tu_assert_status(accel_array_unique_values(q, &x, &in_x, NULL), ACCEL_ERROR_INVALID_ARGUMENT,
                     "values overlap x");
    tu_assert_status(accel_array_unique_values(q, NULL, &v, NULL), ACCEL_ERROR_INVALID_ARGUMENT,
                     "x NULL");
    accel_array xc;
    tu_ok(accel_array_init(&xc, bx, ACCEL_C64, 2, s22));
    tu_assert_status(accel_array_unique_values(q, &xc, NULL, NULL), ACCEL_ERROR_UNSUPPORTED,
                     "complex");
    /* 2^61 elements repeating one (stride 0): the int64 temporaries'
     * bytes overflow size_t; a clear OUT_OF_RANGE, not a wrapped size */
    accel_array wide = x;
    wide.ndim = 1, wide.shape[0] = (int64_t)1 << 61, wide.strides[0] = 0;
    tu_assert_status(accel_array_unique_values(q, &wide, &v, NULL), ACCEL_ERROR_OUT_OF_RANGE,
                     "2^61 elements");
    cr_assert(strstr(accel_last_error(), "overflows"), "%s", accel_last_error());
    int64_t after[16];
    tu_ok(accel_queue_read_blocking(q, bo, 0, after, sizeof after));
    cr_assert(memcmp(after, host, sizeof host) == 0, "an output was touched");
    accel_buffer_release(bx);
    accel_buffer_release(bo);
    accel_queue_release(q);
    accel_runtime_close(rt);
}
