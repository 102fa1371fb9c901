/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_array_search.c — accel_array_searchsorted: every real dtype, both
 * sides, with and without a sorter, a strided 2-D x2, a 0-d x2 and an
 * empty x1, against a reference of the test's own that counts (no binary
 * search): left = how many x1 elements come before v in the sort order
 * (NaNs last, -0 == +0), right = how many do not come after it; every
 * device of the runtime; bad input with out untouched. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "test_array_common.h"

static accel_dtype g_dt;
static const void *g_keys;
static int cmp_index(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    int c = sort_order(g_dt, get(g_keys, g_dt, (size_t)a), get(g_keys, g_dt, (size_t)b));
    return c ? c : (a > b) - (a < b);
}

/* x1: n values of dt (sorted on the host unless a sorter is used, then the
 * sorter is their argsort); x2: a (rows x cols) view transposed from a
 * (cols x rows) buffer, half of its values taken from x1. */
static unsigned run_search(env *e, tu_rng *r, accel_dtype dt, int64_t n, int64_t rows, int64_t cols,
                           int right, bool use_sorter)
{
    size_t es = accel_dtype_size(dt), m = (size_t)(rows * cols);
    unsigned char *h1 = malloc((size_t)n * es + 1), *h2 = malloc(m * es + 1);
    int64_t *perm = malloc((size_t)n * 8 + 8), *got = malloc(m * 8 + 8);
    fill(r, dt, false, h1, (size_t)n);
    fill(r, dt, false, h2, m);
    for (size_t i = 0; n && i < m; i += 2) /* exact hits make the sides differ */
        memcpy(h2 + i * es, h1 + (tu_rng_next(r) % (uint64_t)n) * es, es);
    for (int64_t i = 0; i < n; i++)
        perm[i] = i;
    g_dt = dt, g_keys = h1;
    qsort(perm, (size_t)n, 8, cmp_index);
    if (!use_sorter) { /* x1 itself sorted */
        unsigned char *s = malloc((size_t)n * es + 1);
        for (int64_t i = 0; i < n; i++)
            memcpy(s + i * es, h1 + perm[i] * es, es);
        memcpy(h1, s, (size_t)n * es);
        free(s);
    }
    accel_buffer *b1 = upload(e, h1, (size_t)n * es), *b2 = upload(e, h2, m * es);
    accel_buffer *bs = upload(e, perm, (size_t)n * 8), *bo = upload(e, NULL, m * 8);
    accel_array x1, x2, base, srt, out;
    tu_ok(accel_array_init(&x1, b1, dt, 1, &n));
    tu_ok(accel_array_init(&srt, bs, ACCEL_I64, 1, &n));
    const int64_t tshape[] = {cols, rows}, shape[] = {rows, cols};
    const int32_t tr[] = {1, 0};
    tu_ok(accel_array_init(&base, b2, dt, 2, tshape));
    tu_ok(accel_array_permute_dims(&base, tr, &x2));
    tu_ok(accel_array_init(&out, bo, ACCEL_I64, 2, shape));
    tu_ok(accel_array_searchsorted(e->q, &x1, &x2, right, use_sorter ? &srt : NULL, &out));
    tu_ok(accel_queue_read_blocking(e->q, bo, 0, got, m * 8));
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++) {
            val v = get(h2, dt, (size_t)(j * rows + i));
            int64_t want = 0;
            for (int64_t k = 0; k < n; k++) {
                int c = sort_order(dt, get(h1, dt, (size_t)k), v);
                want += right ? c <= 0 : c < 0;
            }
            cr_assert_eq(got[i * cols + j], want, "%s n=%lld %s%s: x2[%lld, %lld] = %g -> %lld",
                         accel_dtype_name(dt), (long long)n, right ? "right" : "left",
                         use_sorter ? " sorter" : "", (long long)i, (long long)j,
                         is_float(dt) ? v.f : (double)v.i, (long long)got[i * cols + j]);
        }
    accel_buffer_release(b1);
    accel_buffer_release(b2);
    accel_buffer_release(bs);
    accel_buffer_release(bo);
    free(h1);
    free(h2);
    free(perm);
    free(got);
    return (unsigned)m;
}

static void every_dtype(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    tu_rng r = tu_rng_make(27);
    unsigned checked = 0;
    for (size_t d = 0; d < NDT; d++)
        for (int c = 0; c < 4; c++)
            checked += run_search(&e, &r, all_dtypes[d], 61, 7, 9, c % 2, c / 2);
    checked += run_search(&e, &r, ACCEL_F64, 1, 3, 3, 0, false);
    checked += run_search(&e, &r, ACCEL_I64, 0, 2, 5, 1, false); /* empty x1: all 0 */
    checked += run_search(&e, &r, ACCEL_F32, 4097, 33, 31, 1, true);
    cr_assert_gt(checked, 4000u, "elements checked: %u", checked);
}

Test(array_search, every_dtype_side_and_sorter)
{
    accel_runtime *rt = array_runtime(NULL, NULL);
    tu_for_each_device(rt, every_dtype, NULL);
    accel_runtime_close(rt);
}

/* A 0-d x2 and a 0-d out; NaN, -0 and +0 against a sorted x1. */
Test(array_search, zero_d_and_special_values)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    env e = {dev, q};
    const double h1[] = {-INFINITY, -1.0, -0.0, 0.0, 0.0, 2.0, INFINITY, NAN, NAN};
    const double probes[] = {NAN, -0.0, 0.0, INFINITY, -INFINITY, 1.0};
    const int64_t left[] = {7, 2, 2, 6, 0, 5}, right[] = {9, 5, 5, 7, 1, 5};
    const int64_t n = 9;
    accel_buffer *b1 = upload(&e, h1, sizeof h1), *b2 = upload(&e, probes, sizeof probes);
    accel_buffer *bo = upload(&e, NULL, 8);
    accel_array x1, x2, out;
    tu_ok(accel_array_init(&x1, b1, ACCEL_F64, 1, &n));
    tu_ok(accel_array_init(&out, bo, ACCEL_I64, 0, NULL));
    for (size_t p = 0; p < 6; p++)
        for (int side = 0; side < 2; side++) {
            tu_ok(accel_array_init(&x2, b2, ACCEL_F64, 0, NULL));
            x2.offset = p * 8;
            int64_t got = -1;
            tu_ok(accel_array_searchsorted(q, &x1, &x2, side, NULL, &out));
            tu_ok(accel_queue_read_blocking(q, bo, 0, &got, 8));
            /* the reference by counting, as run_search's */
            int64_t want = 0;
            for (int64_t k = 0; k < n; k++) {
                int c = sort_order(ACCEL_F64, (val){.f = h1[k]}, (val){.f = probes[p]});
                want += side ? c <= 0 : c < 0;
            }
            cr_assert_eq(want, side ? right[p] : left[p], "the table itself, probe %zu", p);
            cr_assert_eq(got, want, "probe %g side %d: %lld want %lld", probes[p], side,
                         (long long)got, (long long)want);
        }
    accel_buffer_release(b1);
    accel_buffer_release(b2);
    accel_buffer_release(bo);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

Test(array_search, bad_input_leaves_out_untouched)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    env e = {dev, q};
    int64_t host[12];
    for (int i = 0; i < 12; i++)
        host[i] = 100 + i;
    accel_buffer *bx = upload(&e, host, sizeof host), *bo = upload(&e, host, sizeof host);
    const int64_t n4 = 4, s22[] = {2, 2}, n3 = 3;
    accel_array x1, x2, out, x1_2d, sorter_f, sorter3, out3, x2f;
    tu_ok(accel_array_init(&x1, bx, ACCEL_I64, 1, &n4));
    tu_ok(accel_array_init(&x2, bx, ACCEL_I64, 1, &n4));
    tu_ok(accel_array_init(&out, bo, ACCEL_I64, 1, &n4));
    tu_ok(accel_array_init(&x1_2d, bx, ACCEL_I64, 2, s22));
    tu_ok(accel_array_init(&sorter_f, bx, ACCEL_F64, 1, &n4));
    tu_ok(accel_array_init(&sorter3, bx, ACCEL_I64, 1, &n3));
    tu_ok(accel_array_init(&out3, bo, ACCEL_I64, 1, &n3));
    tu_ok(accel_array_init(&x2f, bx, ACCEL_F64, 1, &n4));
    static const char S[] = "accel_array_searchsorted";
    tu_assert_status(accel_array_searchsorted(q, &x1_2d, &x2, 0, NULL, &out),
                     ACCEL_ERROR_SHAPE_MISMATCH, "x1 2-D");
    cr_assert(strstr(accel_last_error(), S) && strstr(accel_last_error(), "1-D"), "%s",
              accel_last_error());
    tu_assert_status(accel_array_searchsorted(q, &x1, &x2f, 0, NULL, &out),
                     ACCEL_ERROR_DTYPE_MISMATCH, "x1 and x2 dtypes");
    accel_array of = out;
    of.dtype = ACCEL_F64;
    tu_assert_status(accel_array_searchsorted(q, &x1, &x2, 0, NULL, &of),
                     ACCEL_ERROR_DTYPE_MISMATCH, "out f64");
    tu_assert_status(accel_array_searchsorted(q, &x1, &x2, 0, &sorter_f, &out),
                     ACCEL_ERROR_DTYPE_MISMATCH, "sorter f64");
    tu_assert_status(accel_array_searchsorted(q, &x1, &x2, 0, &sorter3, &out),
                     ACCEL_ERROR_SHAPE_MISMATCH, "sorter length");
    tu_assert_status(accel_array_searchsorted(q, &x1, &x2, 0, NULL, &out3),
                     ACCEL_ERROR_SHAPE_MISMATCH, "out shape");
    accel_array ox = out; /* out inside x2 */
    ox.buffer = bx;
    tu_assert_status(accel_array_searchsorted(q, &x1, &x2, 0, NULL, &ox),
                     ACCEL_ERROR_INVALID_ARGUMENT, "overlap");
    tu_assert_status(accel_array_searchsorted(q, NULL, &x2, 0, NULL, &out),
                     ACCEL_ERROR_INVALID_ARGUMENT, "x1 NULL");
    accel_array past = x2;
    past.offset = 80;
    tu_assert_status(accel_array_searchsorted(q, &x1, &past, 0, NULL, &out),
                     ACCEL_ERROR_OUT_OF_RANGE, "x2 past its buffer");
    int64_t after[12];
    tu_ok(accel_queue_read_blocking(q, bo, 0, after, sizeof after));
    cr_assert(memcmp(after, host, sizeof host) == 0, "out was touched");
    accel_buffer_release(bx);
    accel_buffer_release(bo);
    accel_queue_release(q);
    accel_runtime_close(rt);
}
