/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_array_index.c — take, take_along_axis, scatter, nonzero and
 * boolean-mask gather and scatter against plain host loops, for every
 * dtype of x and every integer dtype of the indices (negative and
 * out-of-range ones included: clamped on gather, dropped on scatter), on
 * contiguous and strided views; bad input with the written array
 * untouched. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "test_array_common.h"

static const accel_dtype idx_dtypes[] = {ACCEL_I8, ACCEL_I16, ACCEL_I32, ACCEL_I64,
                                         ACCEL_U8, ACCEL_U16, ACCEL_U32, ACCEL_U64};

static void expect_bytes(const void *got, const void *want, size_t n, const char *what)
{
    const unsigned char *g = got, *w = want;
    for (size_t k = 0; k < n; k++)
        cr_assert_eq(g[k], w[k], "%s: byte %zu is 0x%02x, want 0x%02x", what, k, g[k], w[k]);
}

/* x (3, 4) of dt over 12 elements (strided: its transpose view of a (4, 3)
 * array), indices (2, 3) of it with negative and out-of-range values. */
typedef struct fixture {
    unsigned char xh[12 * 8], ih[6 * 8];
    accel_buffer *bx, *bi;
    accel_array x, ix;
} fixture;

static void setup(env *e, tu_rng *r, accel_dtype dt, accel_dtype it, bool strided, fixture *f)
{
    fill(r, dt, false, f->xh, 12);
    static const int64_t raw[6] = {0, 2, -1, 3, 9, -7};
    for (int k = 0; k < 6; k++) {
        int64_t v = raw[k];
        if (kind(it) == ACCEL_DTYPE_KIND_UINT && v < 0)
            v = 1; /* unsigned indices are never negative */
        put(f->ih, it, (size_t)k, (val){.i = v});
    }
    f->bx = upload(e, f->xh, 12 * accel_dtype_size(dt));
    f->bi = upload(e, f->ih, 6 * accel_dtype_size(it));
    const int64_t s34[2] = {3, 4}, s23[2] = {2, 3};
    tu_ok(accel_array_init(&f->x, f->bx, dt, 2, s34));
    if (strided)
        f->x.strides[0] = 1, f->x.strides[1] = 3;
    tu_ok(accel_array_init(&f->ix, f->bi, it, 2, s23));
}

static int64_t index_at(const fixture *f, int64_t k, int64_t n, bool clamp)
{
    int64_t v = get(f->ih, f->ix.dtype, (size_t)k).i;
    if (v < 0)
        v += n;
    if (!clamp)
        return v >= 0 && v < n ? v : -1;
    return v < 0 ? 0 : v >= n ? n - 1 : v;
}

static unsigned take_case(env *e, tu_rng *r, accel_dtype dt, accel_dtype it, bool strided)
{
    fixture f;
    setup(e, r, dt, it, strided, &f);
    size_t es = accel_dtype_size(dt);
    unsigned n = 0;
    for (int axis = 0; axis < 2; axis++) { /* out (2, 3, 4) or (3, 2, 3) */
        int64_t s[3] = {axis ? 3 : 2, axis ? 2 : 3, axis ? 3 : 4};
        unsigned char got[24 * 8], want[24 * 8];
        accel_buffer *bo = upload(e, NULL, sizeof got);
        accel_array out;
        tu_ok(accel_array_init(&out, bo, dt, 3, s));
        tu_ok(accel_array_take(e->q, &f.x, &f.ix, axis, &out));
        int64_t total = axis ? 18 : 24;
        tu_ok(accel_queue_read_blocking(e->q, bo, 0, got, 24 * es));
        for (int64_t i = 0; i < total; i++) {
            int64_t a = i / 12, b = i / 4 % 3, c = i % 4; /* axis 0 */
            int64_t xi[2];
            if (axis == 0) {
                xi[0] = index_at(&f, a * 3 + b, 3, true), xi[1] = c;
            } else {
                a = i / 6, b = i / 3 % 2, c = i % 3;
                xi[0] = a, xi[1] = index_at(&f, b * 3 + c, 4, true);
            }
            memcpy(want + i * es, f.xh + elem_index(&f.x, xi) * es, es);
        }
        expect_bytes(got, want, (size_t)total * es,
                     tu_fmt("take %s[%s] axis %d%s", accel_dtype_name(dt), accel_dtype_name(it),
                            axis, strided ? " strided" : ""));
        n += (unsigned)total;
        accel_buffer_release(bo);
    }
    /* take_along_axis on axis 1: indices (3, 1) broadcast against x (3, 4) */
    {
        accel_array ia = f.ix;
        const int64_t s31[2] = {3, 2};
        memcpy(ia.shape, s31, sizeof s31);
        ia.strides[0] = 2, ia.strides[1] = 1;
        unsigned char got[6 * 8], want[6 * 8];
        accel_buffer *bo = upload(e, NULL, sizeof got);
        accel_array out;
        tu_ok(accel_array_init(&out, bo, dt, 2, s31));
        tu_ok(accel_array_take_along_axis(e->q, &f.x, &ia, -1, &out));
        tu_ok(accel_queue_read_blocking(e->q, bo, 0, got, 6 * es));
        for (int64_t i = 0; i < 6; i++) {
            int64_t xi[2] = {i / 2, index_at(&f, i, 4, true)};
            memcpy(want + i * es, f.xh + elem_index(&f.x, xi) * es, es);
        }
        expect_bytes(got, want, 6 * es, "take_along_axis");
        n += 6;
        accel_buffer_release(bo);
    }
    /* scatter values (2, 3) into x's rows along axis 1, row by row (axis 0
     * of the values broadcast as one row would repeat indices: use row 0) */
    {
        unsigned char vh[12 * 8], want[12 * 8], got[12 * 8];
        fill(r, dt, false, vh, 12);
        accel_buffer *bv = upload(e, vh, 12 * es);
        accel_array v, irow = f.ix;
        irow.ndim = 1, irow.shape[0] = 3, irow.strides[0] = 1; /* indices {0, 2, -1} */
        const int64_t s33[2] = {3, 3};
        tu_ok(accel_array_init(&v, bv, dt, 2, s33));
        tu_ok(accel_array_scatter(e->q, &f.x, &irow, 1, &v));
        memcpy(want, f.xh, 12 * es);
        for (int64_t row = 0; row < 3; row++)
            for (int64_t k = 0; k < 3; k++) {
                int64_t j = index_at(&f, k, 4, false);
                if (j < 0)
                    continue;
                int64_t xi[2] = {row, j};
                memcpy(want + elem_index(&f.x, xi) * es, vh + (row * 3 + k) * es, es);
            }
        tu_ok(accel_queue_read_blocking(e->q, f.bx, 0, got, 12 * es));
        expect_bytes(got, want, 12 * es, "scatter");
        n += 12;
        /* out-of-range indices {3, 9, -7} (unsigned: {3, 9, 1}) drop or land */
        irow.offset = 3 * accel_dtype_size(it);
        memcpy(f.xh, got, 12 * es);
        tu_ok(accel_array_scatter(e->q, &f.x, &irow, 1, &v));
        for (int64_t row = 0; row < 3; row++)
            for (int64_t k = 0; k < 3; k++) {
                int64_t j = index_at(&f, 3 + k, 4, false);
                if (j < 0)
                    continue;
                int64_t xi[2] = {row, j};
                memcpy(want + elem_index(&f.x, xi) * es, vh + (row * 3 + k) * es, es);
            }
        tu_ok(accel_queue_read_blocking(e->q, f.bx, 0, got, 12 * es));
        expect_bytes(got, want, 12 * es, "scatter out of range");
        n += 12;
        accel_buffer_release(bv);
    }
    accel_buffer_release(f.bx);
    accel_buffer_release(f.bi);
    return n;
}

static void take_and_scatter_every_dtype_on(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    tu_rng r = tu_rng_make(70);
    unsigned n = 0;
    for (size_t d = 0; d < NDT; d++)
        for (size_t i = 0; i < sizeof idx_dtypes / sizeof idx_dtypes[0]; i++)
            n += take_case(&e, &r, all_dtypes[d], idx_dtypes[i], (d + i) % 2 == 1);
    cr_assert_gt(n, 5000u, "elements checked: %u", n);
}

Test(array_index, take_and_scatter_every_dtype)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    accel_queue_release(q);
    tu_for_each_device(rt, take_and_scatter_every_dtype_on, NULL);
    accel_runtime_close(rt);
}

/* nonzero of x (3, 4, 5) and x[mask], x[mask] = values for a mask over the
 * first axis and one over the first two. */
static unsigned mask_case(env *e, tu_rng *r, accel_dtype dt, bool strided)
{
    size_t es = accel_dtype_size(dt);
    unsigned char xh[60 * 8], mh[60];
    fill(r, dt, false, xh, 60);
    for (int k = 0; k < 60; k++)
        mh[k] = (unsigned char)(tu_rng_next(r) % 3 == 0);
    accel_buffer *bx = upload(e, xh, 60 * es), *bm = upload(e, mh, 60);
    const int64_t s345[3] = {3, 4, 5};
    accel_array x, m;
    tu_ok(accel_array_init(&x, bx, dt, 3, s345));
    if (strided)
        x.strides[0] = 1, x.strides[1] = -3, x.strides[2] = 12, x.offset = 9 * es;
    unsigned n = 0;
    /* nonzero of x */
    {
        int64_t cnt = 0, want[3 * 60];
        for (int64_t i = 0; i < 60; i++) {
            int64_t idx[3] = {i / 20, i / 5 % 4, i % 5};
            val v = get(xh, dt, (size_t)elem_index(&x, idx));
            if (is_float(dt) ? v.f != 0 || isnan(v.f) : v.u != 0) {
                for (int d = 0; d < 3; d++)
                    want[d * 60 + cnt] = idx[d];
                cnt++;
            }
        }
        const int64_t so[2] = {3, cnt};
        accel_buffer *bo = upload(e, NULL, 3 * 60 * 8);
        accel_array out;
        tu_ok(accel_array_init(&out, bo, ACCEL_I64, 2, so));
        out.strides[0] = 60; /* rows 60 apart */
        tu_ok(accel_array_nonzero(e->q, &x, &out));
        int64_t got[3 * 60];
        tu_ok(accel_queue_read_blocking(e->q, bo, 0, got, sizeof got));
        for (int d = 0; d < 3; d++)
            for (int64_t j = 0; j < cnt; j++)
                cr_assert_eq(got[d * 60 + j], want[d * 60 + j], "nonzero %s [%d, %lld]",
                             accel_dtype_name(dt), d, (long long)j);
        n += (unsigned)cnt;
        accel_buffer_release(bo);
    }
    for (uint32_t mnd = 1; mnd <= 3; mnd++) {
        tu_ok(accel_array_init(&m, bm, ACCEL_BOOL, mnd, s345));
        int64_t inner = 1, outer = 1;
        for (uint32_t d = 0; d < 3; d++)
            *(d < mnd ? &outer : &inner) *= s345[d];
        int64_t cnt = 0;
        for (int64_t i = 0; i < outer; i++)
            cnt += mh[i];
        /* gather */
        unsigned char got[60 * 8], want[60 * 8], vh[60 * 8];
        accel_buffer *bo = upload(e, NULL, sizeof got);
        int64_t os[3] = {cnt, 5, 5};
        for (uint32_t d = mnd; d < 3; d++)
            os[1 + d - mnd] = s345[d];
        accel_array out;
        tu_ok(accel_array_init(&out, bo, dt, 1 + 3 - mnd, os));
        tu_ok(accel_array_mask_gather(e->q, &x, &m, &out));
        tu_ok(accel_queue_read_blocking(e->q, bo, 0, got, sizeof got));
        for (int64_t i = 0, k = 0; i < outer; i++) {
            if (!mh[i])
                continue;
            for (int64_t t = 0; t < inner; t++, k++) {
                int64_t f = i * inner + t, idx[3] = {f / 20, f / 5 % 4, f % 5};
                memcpy(want + k * es, xh + elem_index(&x, idx) * es, es);
            }
        }
        expect_bytes(got, want, (size_t)(cnt * inner) * es, "mask_gather");
        n += (unsigned)(cnt * inner);
        /* scatter the gathered values + 1 row back, then a 0-d value */
        fill(r, dt, false, vh, 60);
        accel_buffer *bv = upload(e, vh, 60 * es);
        accel_array v;
        tu_ok(accel_array_init(&v, bv, dt, 1 + 3 - mnd, os));
        tu_ok(accel_array_mask_scatter(e->q, &x, &m, &v));
        memcpy(want, xh, 60 * es);
        for (int64_t i = 0, k = 0; i < outer; i++) {
            if (!mh[i])
                continue;
            for (int64_t t = 0; t < inner; t++, k++) {
                int64_t f = i * inner + t, idx[3] = {f / 20, f / 5 % 4, f % 5};
                memcpy(want + elem_index(&x, idx) * es, vh + k * es, es);
            }
        }
        tu_ok(accel_queue_read_blocking(e->q, bx, 0, got, 60 * es));
        expect_bytes(got, want, 60 * es, "mask_scatter");
        accel_array v0 = v;
        v0.ndim = 0;
        tu_ok(accel_array_mask_scatter(e->q, &x, &m, &v0));
        for (int64_t i = 0; i < outer; i++)
            for (int64_t t = 0; mh[i] && t < inner; t++) {
                int64_t f = i * inner + t, idx[3] = {f / 20, f / 5 % 4, f % 5};
                memcpy(want + elem_index(&x, idx) * es, vh, es);
            }
        tu_ok(accel_queue_read_blocking(e->q, bx, 0, got, 60 * es));
        expect_bytes(got, want, 60 * es, "mask_scatter of a 0-d value");
        memcpy(xh, got, 60 * es);
        n += 120;
        accel_buffer_release(bv);
        accel_buffer_release(bo);
    }
    accel_buffer_release(bx);
    accel_buffer_release(bm);
    return n;
}

static void nonzero_and_masks_every_dtype_on(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    tu_rng r = tu_rng_make(71);
    unsigned n = 0;
    for (size_t d = 0; d < NDT; d++)
        for (int s = 0; s < 2; s++)
            n += mask_case(&e, &r, all_dtypes[d], s == 1);
    cr_assert_gt(n, 5000u, "elements checked: %u", n);
}

Test(array_index, nonzero_and_masks_every_dtype)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    accel_queue_release(q);
    tu_for_each_device(rt, nonzero_and_masks_every_dtype_on, NULL);
    accel_runtime_close(rt);
}

Test(array_index, bad_input_leaves_arrays_untouched)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    env e = {dev, q};
    tu_rng r = tu_rng_make(72);
    fixture f;
    setup(&e, &r, ACCEL_F32, ACCEL_I64, false, &f);
    unsigned char sentinel[256];
    memset(sentinel, 0xa5, sizeof sentinel);
    accel_buffer *bo = upload(&e, sentinel, sizeof sentinel);
    const int64_t s234[3] = {2, 3, 4}, s3[1] = {3};
    accel_array out, fi = f.ix;
    tu_ok(accel_array_init(&out, bo, ACCEL_F32, 3, s234));
    tu_assert_status(accel_array_take(q, &f.x, &f.ix, 2, &out), ACCEL_ERROR_INVALID_ARGUMENT,
                     "axis");
    tu_assert_status(accel_array_take(q, &f.x, &f.ix, 1, &out), ACCEL_ERROR_SHAPE_MISMATCH,
                     "out shape");
    cr_assert(strstr(accel_last_error(), "out"), "%s", accel_last_error());
    fi.dtype = ACCEL_F32;
    tu_assert_status(accel_array_take(q, &f.x, &fi, 0, &out), ACCEL_ERROR_DTYPE_MISMATCH,
                     "float indices");
    cr_assert(strstr(accel_last_error(), "indices"), "%s", accel_last_error());
    accel_array o3;
    tu_ok(accel_array_init(&o3, bo, ACCEL_F32, 1, s3));
    tu_assert_status(accel_array_take_along_axis(q, &f.x, &f.ix, 0, &o3),
                     ACCEL_ERROR_SHAPE_MISMATCH, "ndim");
    accel_array vals;
    const int64_t s2[1] = {2};
    tu_ok(accel_array_init(&vals, bo, ACCEL_F32, 1, s2));
    tu_assert_status(accel_array_scatter(q, &f.x, &f.ix, 1, &vals), ACCEL_ERROR_SHAPE_MISMATCH,
                     "values shape");
    accel_array mask = f.x;
    tu_assert_status(accel_array_mask_gather(q, &f.x, &mask, &o3), ACCEL_ERROR_DTYPE_MISMATCH,
                     "a float mask");
    cr_assert(strstr(accel_last_error(), "mask"), "%s", accel_last_error());
    accel_array nz;
    const int64_t s2n[2] = {3, 4};
    tu_ok(accel_array_init(&nz, bo, ACCEL_I64, 2, s2n));
    tu_assert_status(accel_array_nonzero(q, &f.x, &nz), ACCEL_ERROR_SHAPE_MISMATCH, "rows != ndim");
    accel_array over = f.x;
    tu_assert_status(accel_array_take(q, &f.x, &f.ix, 0, &over), ACCEL_ERROR_INVALID_ARGUMENT,
                     "out is x");
    unsigned char got[256], xback[12 * 4];
    tu_ok(accel_queue_read_blocking(q, bo, 0, got, sizeof got));
    expect_bytes(got, sentinel, sizeof got, "out after refused calls");
    tu_ok(accel_queue_read_blocking(q, f.bx, 0, xback, sizeof xback));
    expect_bytes(xback, f.xh, sizeof xback, "x after refused calls");
    accel_buffer_release(bo);
    accel_buffer_release(f.bx);
    accel_buffer_release(f.bi);
    accel_queue_release(q);
    accel_runtime_close(rt);
}
