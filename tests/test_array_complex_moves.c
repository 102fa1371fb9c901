/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_array_complex_moves.c — the array functions beyond the elementwise
 * table that take complex64 and complex128: cumulative_sum (every axis,
 * include_initial, a real x into a complex out) against a plain double
 * loop per part, and the indexing moves (take, scatter, boolean-mask
 * gather and scatter, a 0-d value scattered) against plain host loops,
 * bit for bit, on contiguous and strided views, on every device. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "accel/array.h"
#include "test_array_common.h"
#include "test_util.h"

/* Part i of element el of a host array of complex dtype dt (or a real
 * float dtype: part 1 is 0). */
static double part(accel_dtype dt, const void *h, int64_t el, int i)
{
    if (dt == ACCEL_C64)
        return ((const float *)h)[2 * el + i];
    if (dt == ACCEL_C128)
        return ((const double *)h)[2 * el + i];
    if (i)
        return 0.0;
    return dt == ACCEL_F32 ? ((const float *)h)[el] : ((const double *)h)[el];
}

static void fill_parts(tu_rng *r, accel_dtype dt, void *h, int64_t n)
{
    int64_t parts = accel_dtype_kind_of(dt) == ACCEL_DTYPE_KIND_COMPLEX ? 2 * n : n;
    for (int64_t i = 0; i < parts; i++) {
        double v = tu_rng_range(r, -4.0, 4.0);
        if (dt == ACCEL_C64 || dt == ACCEL_F32)
            ((float *)h)[i] = (float)v;
        else
            ((double *)h)[i] = v;
    }
}

static unsigned run_cumsum(env *e, tu_rng *r, accel_dtype xdt, accel_dtype odt, bool strided,
                           int axis, int initial)
{
    double host[2 * 60], got[2 * 80];
    fill_parts(r, xdt, host, 60);
    accel_buffer *bx = upload(e, host, 60 * accel_dtype_size(xdt));
    accel_array x = view_345(bx, xdt, strided), out;
    int64_t oshape[3] = {3, 4, 5};
    oshape[axis] += initial;
    memset(got, 0xa5, sizeof got);
    accel_buffer *bo = upload(e, got, sizeof got);
    tu_ok(accel_array_init(&out, bo, odt, 3, oshape));
    tu_ok(accel_array_cumulative_sum(e->q, &x, axis, initial, &out));
    tu_ok(accel_queue_read_blocking(e->q, bo, 0, got, sizeof got));
    unsigned n = 0;
    for (int64_t l = 0; l < 60 / x.shape[axis]; l++) {
        int64_t idx[3], rem = l;
        for (int d = 2; d >= 0; d--)
            if (d != axis) {
                idx[d] = rem % x.shape[d];
                rem /= x.shape[d];
            }
        double acc[2] = {0, 0};
        for (int64_t j = -initial; j < x.shape[axis]; j++) {
            if (j >= 0) {
                idx[axis] = j;
                for (int i = 0; i < 2; i++)
                    acc[i] += part(xdt, host, elem_index(&x, idx), i);
            }
            int64_t oi[3] = {idx[0], idx[1], idx[2]};
            oi[axis] = j + initial;
            int64_t el = (oi[0] * oshape[1] + oi[1]) * oshape[2] + oi[2];
            for (int i = 0; i < 2; i++) {
                double want = odt == ACCEL_C64 ? (double)(float)acc[i] : acc[i];
                double have = part(odt, got, el, i);
                cr_assert(have == want,
                          "cumsum %s -> %s axis %d initial %d strided %d: line %lld [%lld] part "
                          "%d = %.17g, want %.17g",
                          accel_dtype_name(xdt), accel_dtype_name(odt), axis, initial, strided,
                          (long long)l, (long long)j, i, have, want);
            }
            n++;
        }
    }
    accel_buffer_release(bx);
    accel_buffer_release(bo);
    return n;
}

static void cumulative_sum_on(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    tu_rng r = tu_rng_make(73);
    unsigned n = 0;
    static const accel_dtype xs[][2] = {{ACCEL_C64, ACCEL_C64},
                                        {ACCEL_C128, ACCEL_C128},
                                        {ACCEL_C64, ACCEL_C128},
                                        {ACCEL_F32, ACCEL_C64},
                                        {ACCEL_F64, ACCEL_C128}};
    for (size_t k = 0; k < sizeof xs / sizeof xs[0]; k++) {
        if (xs[k][1] == ACCEL_C128 && !tu_device_has_dtype(dev, ACCEL_F64))
            continue;
        for (int axis = 0; axis < 3; axis++)
            for (int init = 0; init < 2; init++)
                n += run_cumsum(&e, &r, xs[k][0], xs[k][1], (axis + init) % 2 == 1, axis, init);
    }
    cr_assert_gt(n, 1000u, "elements checked on %s: %u", accel_device_name(dev), n);
}

Test(array_complex_moves, cumulative_sum)
{
    accel_runtime *rt = array_runtime(NULL, NULL);
    tu_for_each_device(rt, cumulative_sum_on, NULL);
    accel_runtime_close(rt);
}

/* A complex out into a real dtype is refused (the standard's dtype rule:
 * x promotes to out), and out stays as it was. */
Test(array_complex_moves, cumulative_sum_complex_to_real_refused)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    env e = {dev, q};
    float host[120] = {1.0f}, got[60];
    memset(got, 0x5a, sizeof got);
    accel_buffer *bx = upload(&e, host, sizeof host), *bo = upload(&e, got, sizeof got);
    accel_array x = view_345(bx, ACCEL_C64, false), out = view_345(bo, ACCEL_F32, false);
    cr_assert_eq(accel_array_cumulative_sum(q, &x, 0, 0, &out), ACCEL_ERROR_DTYPE_MISMATCH);
    float after[60], want[60];
    memset(want, 0x5a, sizeof want);
    tu_ok(accel_queue_read_blocking(q, bo, 0, after, sizeof after));
    cr_assert(!memcmp(after, want, sizeof want), "out was written on error");
    accel_buffer_release(bx);
    accel_buffer_release(bo);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

/* Element el of a host array of element size es equals element ref of r. */
static bool same_elem(const void *a, int64_t ea, const void *b, int64_t eb, size_t es)
{
    return !memcmp((const char *)a + ea * (int64_t)es, (const char *)b + eb * (int64_t)es, es);
}

/* take along axis 1 with negative and out-of-range indices (clamped) and
 * scatter of the same rows back into a fresh array. */
static void take_scatter(env *e, tu_rng *r, accel_dtype dt, bool strided)
{
    size_t es = accel_dtype_size(dt);
    double host[2 * 60], got[2 * 60];
    fill_parts(r, dt, host, 60);
    accel_buffer *bx = upload(e, host, 60 * es);
    accel_array x = view_345(bx, dt, strided), idx, out;
    const int64_t ind[] = {3, -1, 0, 7};
    accel_buffer *bi = upload(e, ind, sizeof ind), *bo = upload(e, NULL, 3 * 4 * 5 * es);
    const int64_t ishape[] = {4}, oshape[] = {3, 4, 5};
    tu_ok(accel_array_init(&idx, bi, ACCEL_I64, 1, ishape));
    tu_ok(accel_array_init(&out, bo, dt, 3, oshape));
    tu_ok(accel_array_take(e->q, &x, &idx, 1, &out));
    tu_ok(accel_queue_read_blocking(e->q, bo, 0, got, 60 * es));
    for (int64_t i = 0; i < 3; i++)
        for (int64_t j = 0; j < 4; j++)
            for (int64_t k = 0; k < 5; k++) {
                int64_t s = ind[j] < 0 ? ind[j] + 4 : ind[j] > 3 ? 3 : ind[j];
                int64_t at[3] = {i, s, k};
                cr_assert(same_elem(got, (i * 4 + j) * 5 + k, host, elem_index(&x, at), es),
                          "take %s strided %d: [%lld, %lld, %lld]", accel_dtype_name(dt), strided,
                          (long long)i, (long long)j, (long long)k);
            }
    /* scatter x's rows 0 and 2 of axis 1 into rows 2 and 0 of a zeroed y */
    const int64_t sind[] = {2, 0};
    const int64_t sshape[] = {2}, vshape[] = {3, 2, 5};
    accel_buffer *bs = upload(e, sind, sizeof sind);
    memset(got, 0, sizeof got);
    accel_buffer *by = upload(e, got, 60 * es), *bv = upload(e, host, 30 * es);
    accel_array si, y, v;
    tu_ok(accel_array_init(&si, bs, ACCEL_I64, 1, sshape));
    tu_ok(accel_array_init(&y, by, dt, 3, oshape));
    tu_ok(accel_array_init(&v, bv, dt, 3, vshape));
    tu_ok(accel_array_scatter(e->q, &y, &si, 1, &v));
    tu_ok(accel_queue_read_blocking(e->q, by, 0, got, 60 * es));
    static const unsigned char zero[16];
    for (int64_t i = 0; i < 3; i++)
        for (int64_t j = 0; j < 4; j++)
            for (int64_t k = 0; k < 5; k++) {
                int64_t yel = (i * 4 + j) * 5 + k;
                bool hit = j == 2 || j == 0;
                int64_t vj = j == 2 ? 0 : 1;
                bool ok = hit ? same_elem(got, yel, host, (i * 2 + vj) * 5 + k, es)
                              : same_elem(got, yel, zero, 0, es);
                cr_assert(ok, "scatter %s: [%lld, %lld, %lld]", accel_dtype_name(dt), (long long)i,
                          (long long)j, (long long)k);
            }
    accel_buffer *bufs[] = {bx, bi, bo, bs, by, bv};
    for (size_t k = 0; k < 6; k++)
        accel_buffer_release(bufs[k]);
}

/* x[mask] for a (3, 4) mask over x's first two axes, then x[mask] = 0-d
 * value and x[mask] = the gathered rows reversed. */
static void masks(env *e, tu_rng *r, accel_dtype dt, bool strided)
{
    size_t es = accel_dtype_size(dt);
    double host[2 * 60], got[2 * 60];
    fill_parts(r, dt, host, 60);
    unsigned char m[12];
    int64_t count = 0;
    for (int k = 0; k < 12; k++)
        count += m[k] = (unsigned char)(tu_rng_unit(r) < 0.5);
    accel_buffer *bx = upload(e, host, 60 * es), *bm = upload(e, m, sizeof m);
    accel_buffer *bo = upload(e, NULL, 60 * es);
    accel_array x = view_345(bx, dt, strided), mask, out;
    const int64_t mshape[] = {3, 4}, oshape[] = {count, 5};
    tu_ok(accel_array_init(&mask, bm, ACCEL_BOOL, 2, mshape));
    tu_ok(accel_array_init(&out, bo, dt, 2, oshape));
    if (count)
        tu_ok(accel_array_mask_gather(e->q, &x, &mask, &out));
    tu_ok(accel_queue_read_blocking(e->q, bo, 0, got, (size_t)count * 5 * es));
    for (int64_t k = 0, row = 0; k < 12; k++) {
        if (!m[k])
            continue;
        for (int64_t c = 0; c < 5; c++) {
            int64_t at[3] = {k / 4, k % 4, c};
            cr_assert(same_elem(got, row * 5 + c, host, elem_index(&x, at), es),
                      "mask gather %s strided %d: row %lld [%lld]", accel_dtype_name(dt), strided,
                      (long long)row, (long long)c);
        }
        row++;
    }
    /* x[mask] = value (0-d: 1.5 - 2i) */
    double vald[2] = {1.5, -2.0};
    float valf[2] = {1.5f, -2.0f};
    accel_buffer *bval = upload(e, dt == ACCEL_C64 ? (void *)valf : (void *)vald, es);
    accel_array v0;
    tu_ok(accel_array_init(&v0, bval, dt, 0, NULL));
    tu_ok(accel_array_mask_scatter(e->q, &x, &mask, &v0));
    double after[2 * 60];
    tu_ok(accel_queue_read_blocking(e->q, bx, 0, after, 60 * es));
    for (int64_t k = 0; k < 12; k++)
        for (int64_t c = 0; c < 5; c++) {
            int64_t at[3] = {k / 4, k % 4, c}, el = elem_index(&x, at);
            bool ok = m[k] ? part(dt, after, el, 0) == 1.5 && part(dt, after, el, 1) == -2.0
                           : same_elem(after, el, host, el, es);
            cr_assert(ok, "mask scatter %s strided %d: [%lld, %lld]", accel_dtype_name(dt), strided,
                      (long long)k, (long long)c);
        }
    accel_buffer *bufs[] = {bx, bm, bo, bval};
    for (size_t k = 0; k < 4; k++)
        accel_buffer_release(bufs[k]);
}

static void moves_on(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    tu_rng r = tu_rng_make(79);
    static const accel_dtype cdts[] = {ACCEL_C64, ACCEL_C128};
    for (size_t d = 0; d < 2; d++) {
        if (cdts[d] == ACCEL_C128 && !tu_device_has_dtype(dev, ACCEL_F64))
            continue;
        for (int s = 0; s < 2; s++) {
            take_scatter(&e, &r, cdts[d], s);
            masks(&e, &r, cdts[d], s);
        }
    }
}

Test(array_complex_moves, take_scatter_and_masks)
{
    accel_runtime *rt = array_runtime(NULL, NULL);
    tu_for_each_device(rt, moves_on, NULL);
    accel_runtime_close(rt);
}
