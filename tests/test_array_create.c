/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_array_create.c — full, arange, linspace, eye, tril, triu and meshgrid
 * against plain host loops for every dtype they take, on contiguous,
 * strided and reversed outputs, 0-size and 1-element ones; bad input
 * refused with out untouched. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "test_array_common.h"

#define CAP 512 /* elements of every test buffer */

/* out over a 0xa5-filled buffer: variant 0 contiguous, 1 every other
 * element of the last axis, 2 the last axis reversed. */
static accel_buffer *make_out(env *e, accel_dtype dt, uint32_t nd, const int64_t *shape,
                              int variant, accel_array *out)
{
    unsigned char fillb[CAP * 8];
    memset(fillb, 0xa5, sizeof fillb);
    accel_buffer *b = upload(e, fillb, sizeof fillb);
    tu_ok(accel_array_init(out, b, dt, nd, shape));
    if (variant == 1)
        for (uint32_t d = 0; d < nd; d++)
            out->strides[d] *= 2;
    if (variant == 2 && nd && shape[nd - 1] > 0) {
        out->strides[nd - 1] = -1;
        out->offset = (uint64_t)(shape[nd - 1] - 1) * accel_dtype_size(dt);
    }
    return b;
}

typedef val (*ref_fn)(const int64_t *idx, const void *ctx);

/* Every element of out against want(idx); every other byte still 0xa5. */
static unsigned check(env *e, accel_buffer *b, const accel_array *out, ref_fn want, const void *ctx,
                      const char *what)
{
    unsigned char got[CAP * 8];
    bool touched[CAP * 8] = {false};
    tu_ok(accel_queue_read_blocking(e->q, b, 0, got, sizeof got));
    int64_t n = 1;
    for (uint32_t d = 0; d < out->ndim; d++)
        n *= out->shape[d];
    size_t es = accel_dtype_size(out->dtype);
    for (int64_t i = 0; i < n; i++) {
        int64_t idx[ACCEL_ARRAY_MAX_NDIM], r = i, el = (int64_t)(out->offset / es);
        for (uint32_t d = out->ndim; d-- > 0;) {
            idx[d] = r % out->shape[d];
            r /= out->shape[d];
            el += idx[d] * out->strides[d];
        }
        val w = want(idx, ctx), g = get(got, out->dtype, (size_t)el);
        cr_assert(same_value(out->dtype, g, w),
                  "%s %s: element %lld = 0x%llx (%g), want 0x%llx (%g)", what,
                  accel_dtype_name(out->dtype), (long long)i, (unsigned long long)g.u, g.f,
                  (unsigned long long)w.u, w.f);
        for (size_t k = 0; k < es; k++)
            touched[(size_t)el * es + k] = true;
    }
    for (size_t k = 0; k < sizeof got; k++)
        cr_assert(touched[k] || got[k] == 0xa5, "%s: byte %zu outside out written", what, k);
    return (unsigned)n;
}

typedef struct cctx {
    accel_dtype dt;
    double f[3];
    int64_t k;
    const accel_array *x;
    const unsigned char *xhost;
} cctx;

static val ref_full(const int64_t *idx, const void *p)
{
    (void)idx;
    const cctx *c = p;
    return convert(ACCEL_F64, c->dt, (val){.f = c->f[0]});
}

static val ref_arange(const int64_t *idx, const void *p)
{
    const cctx *c = p;
    if (is_float(c->dt))
        return (val){.f = round_to(c->dt, c->f[0] + (double)idx[0] * c->f[1])};
    return wrap(c->dt, (val){.i = (int64_t)c->f[0] + idx[0] * (int64_t)c->f[1]});
}

static val ref_linspace(const int64_t *idx, const void *p)
{
    const cctx *c = p; /* f: start, step, stop; k: the endpoint's index or -1 */
    double v = idx[0] == c->k ? c->f[2] : c->f[0] + (double)idx[0] * c->f[1];
    return (val){.f = round_to(c->dt, v)};
}

static val ref_eye(const int64_t *idx, const void *p)
{
    const cctx *c = p;
    return convert(ACCEL_I64, c->dt, (val){.i = idx[2] - idx[1] == c->k});
}

static val ref_tri(const int64_t *idx, const void *p)
{
    const cctx *c = p; /* f[0]: 0 tril, 1 triu */
    bool keep = c->f[0] == 0 ? idx[1] - idx[0] <= c->k : idx[1] - idx[0] >= c->k;
    if (!keep)
        return (val){0};
    int64_t el = (int64_t)(c->x->offset / accel_dtype_size(c->dt)) + idx[0] * c->x->strides[0] +
                 idx[1] * c->x->strides[1];
    return get(c->xhost, c->dt, (size_t)el);
}

static unsigned fills(env *e, accel_dtype dt, int variant)
{
    unsigned n = 0;
    accel_array out;
    const int64_t s37[2] = {3, 7};
    static const double values[] = {2.5, -3.75, 1e30, NAN, -1.0, 0.0};
    for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
        accel_buffer *b = make_out(e, dt, 2, s37, variant, &out);
        tu_ok(accel_array_full(e->q, &out, values[v]));
        cctx c = {dt, {values[v]}, 0, NULL, NULL};
        n += check(e, b, &out, ref_full, &c, "full");
        accel_buffer_release(b);
    }
    /* arange: floats with fractional steps, integers with integral ones */
    static const double ar[][3] = {{0, 10, 1}, {5, -7, -3}, {-2.5, 4, 0.75}, {3, 3, 1}};
    for (size_t a = 0; a < 4; a++) {
        if (!is_float(dt) && (ar[a][0] != floor(ar[a][0]) || ar[a][2] != floor(ar[a][2])))
            continue;
        double len = ceil((ar[a][1] - ar[a][0]) / ar[a][2]);
        const int64_t s[1] = {len > 0 ? (int64_t)len : 0};
        accel_buffer *b = make_out(e, dt, 1, s, variant, &out);
        tu_ok(accel_array_arange(e->q, ar[a][0], ar[a][1], ar[a][2], &out));
        cctx c = {dt, {ar[a][0], ar[a][2]}, 0, NULL, NULL};
        n += check(e, b, &out, ref_arange, &c, "arange");
        accel_buffer_release(b);
    }
    if (is_float(dt)) {
        static const int64_t nums[] = {0, 1, 2, 9};
        for (size_t i = 0; i < 4; i++)
            for (int ep = 0; ep < 2; ep++) {
                accel_buffer *b = make_out(e, dt, 1, &nums[i], variant, &out);
                tu_ok(accel_array_linspace(e->q, -1.5, 7.25, ep, &out));
                int64_t div = ep ? nums[i] - 1 : nums[i];
                cctx c = {dt,
                          {-1.5, div > 0 ? 8.75 / (double)div : 0.0, 7.25},
                          ep && nums[i] > 1 ? nums[i] - 1 : -1,
                          NULL,
                          NULL};
                n += check(e, b, &out, ref_linspace, &c, "linspace");
                accel_buffer_release(b);
            }
    }
    const int64_t s245[3] = {2, 4, 5};
    for (int64_t k = -4; k <= 5; k += 3) {
        accel_buffer *b = make_out(e, dt, 3, s245, variant, &out);
        tu_ok(accel_array_eye(e->q, k, &out));
        cctx c = {dt, {0}, k, NULL, NULL};
        n += check(e, b, &out, ref_eye, &c, "eye");
        accel_buffer_release(b);
    }
    return n;
}

static unsigned triangles(env *e, tu_rng *r, accel_dtype dt, int variant)
{
    unsigned char host[CAP * 8];
    fill(r, dt, false, host, 40);
    accel_buffer *bx = upload(e, host, 40 * accel_dtype_size(dt));
    const int64_t s45[2] = {4, 5};
    accel_array x, out;
    tu_ok(accel_array_init(&x, bx, dt, 2, s45));
    if (variant == 1) /* the transpose of a (5, 8) array's first 4 columns */
        x.strides[0] = 1, x.strides[1] = 8;
    if (variant == 2)
        x.strides[0] = -5, x.offset = 15 * accel_dtype_size(dt);
    unsigned n = 0;
    for (int up = 0; up < 2; up++)
        for (int64_t k = -2; k <= 3; k++) {
            accel_buffer *b = make_out(e, dt, 2, s45, variant, &out);
            tu_ok(up ? accel_array_triu(e->q, &x, k, &out) : accel_array_tril(e->q, &x, k, &out));
            cctx c = {dt, {(double)up}, k, &x, host};
            n += check(e, b, &out, ref_tri, &c, up ? "triu" : "tril");
            accel_buffer_release(b);
        }
    accel_buffer_release(bx);
    return n;
}

static void every_function_every_dtype_on(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    tu_rng r = tu_rng_make(50);
    unsigned n = 0;
    for (size_t d = 0; d < NDT; d++)
        for (int v = 0; v < 3; v++) {
            n += fills(&e, all_dtypes[d], v);
            n += triangles(&e, &r, all_dtypes[d], v);
        }
    cr_assert_gt(n, 20000u, "elements checked: %u", n);
}

Test(array_create, every_function_every_dtype)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    accel_queue_release(q);
    tu_for_each_device(rt, every_function_every_dtype_on, NULL);
    accel_runtime_close(rt);
}

/* Integers beyond 2^53 exactly; tril in place; a 0-size and a 1-element out. */
Test(array_create, exact_integers_in_place_and_edges)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    env e = {dev, q};
    accel_array out;
    const int64_t s3[1] = {3}, s0[2] = {0, 4}, s11[2] = {1, 1};
    accel_buffer *b = make_out(&e, ACCEL_I64, 1, s3, 0, &out);
    tu_ok(accel_array_full_i64(q, &out, INT64_MAX - 1));
    int64_t gi[3];
    tu_ok(accel_queue_read_blocking(q, b, 0, gi, sizeof gi));
    cr_assert(gi[0] == INT64_MAX - 1 && gi[2] == INT64_MAX - 1, "%lld", (long long)gi[0]);
    out.dtype = ACCEL_U64;
    tu_ok(accel_array_full_u64(q, &out, UINT64_MAX - 2));
    uint64_t gu[3];
    tu_ok(accel_queue_read_blocking(q, b, 0, gu, sizeof gu));
    cr_assert(gu[1] == UINT64_MAX - 2);
    accel_buffer_release(b);
    /* tril in place of a 3x3 of ones */
    const int64_t s33[2] = {3, 3};
    b = make_out(&e, ACCEL_F32, 2, s33, 0, &out);
    tu_ok(accel_array_full(q, &out, 1.0));
    tu_ok(accel_array_tril(q, &out, 0, &out));
    float gf[9];
    tu_ok(accel_queue_read_blocking(q, b, 0, gf, sizeof gf));
    for (int i = 0; i < 9; i++)
        cr_assert_eq(gf[i], i % 3 <= i / 3 ? 1.0f : 0.0f, "tril in place [%d]", i);
    accel_buffer_release(b);
    b = make_out(&e, ACCEL_F32, 2, s0, 0, &out);
    tu_ok(accel_array_eye(q, 0, &out));
    tu_ok(accel_array_full(q, &out, 3.0));
    unsigned char raw[16];
    tu_ok(accel_queue_read_blocking(q, b, 0, raw, sizeof raw));
    for (int i = 0; i < 16; i++)
        cr_assert_eq(raw[i], 0xa5, "0-size out written");
    accel_buffer_release(b);
    b = make_out(&e, ACCEL_F32, 2, s11, 0, &out);
    tu_ok(accel_array_eye(q, 0, &out));
    tu_ok(accel_queue_read_blocking(q, b, 0, gf, 4));
    cr_assert_eq(gf[0], 1.0f);
    accel_buffer_release(b);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

Test(array_create, meshgrid_views)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    accel_buffer *b;
    tu_ok(accel_buffer_create(dev, 64, &b));
    const int64_t n2[1] = {2}, n3[1] = {3}, n4[1] = {4};
    accel_array x, y, z, outs[3];
    tu_ok(accel_array_init(&x, b, ACCEL_F32, 1, n2));
    tu_ok(accel_array_init(&y, b, ACCEL_F32, 1, n3));
    tu_ok(accel_array_init(&z, b, ACCEL_F32, 1, n4));
    y.strides[0] = -1, y.offset = 8;
    const accel_array *xs[3] = {&x, &y, &z};
    tu_ok(accel_array_meshgrid(3, xs, 0, outs));
    for (int i = 0; i < 3; i++)
        for (int d = 0; d < 3; d++) {
            cr_assert_eq(outs[i].shape[d], xs[d]->shape[0], "ij shape");
            cr_assert_eq(outs[i].strides[d], d == i ? xs[i]->strides[0] : 0, "ij stride");
        }
    tu_ok(accel_array_meshgrid(3, xs, 1, outs));
    const int64_t want[3] = {3, 2, 4};
    for (int i = 0; i < 3; i++)
        for (int d = 0; d < 3; d++) {
            int src = d < 2 ? 1 - d : d;
            cr_assert_eq(outs[i].shape[d], want[d], "xy shape");
            cr_assert_eq(outs[i].strides[d], src == i ? xs[i]->strides[0] : 0, "xy stride");
        }
    accel_array keep = outs[0], two = x;
    two.ndim = 2, two.shape[1] = 1, two.strides[1] = 1;
    const accel_array *bad[2] = {&x, &two};
    tu_assert_status(accel_array_meshgrid(2, bad, 0, outs), ACCEL_ERROR_SHAPE_MISMATCH, "2-D");
    cr_assert(strstr(accel_last_error(), "xs[1]"), "%s", accel_last_error());
    cr_assert(memcmp(&keep, &outs[0], sizeof keep) == 0, "outs changed by a refused call");
    accel_buffer_release(b);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

Test(array_create, bad_input_leaves_out_untouched)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    env e = {dev, q};
    accel_array out;
    const int64_t s5[1] = {5}, s23[2] = {2, 3};
    accel_buffer *b = make_out(&e, ACCEL_F32, 1, s5, 0, &out);
    tu_assert_status(accel_array_arange(q, 0, 4, 1, &out), ACCEL_ERROR_SHAPE_MISMATCH, "length");
    cr_assert(strstr(accel_last_error(), "has 4"), "%s", accel_last_error());
    tu_assert_status(accel_array_arange(q, 0, 4, 0, &out), ACCEL_ERROR_INVALID_ARGUMENT, "step 0");
    tu_assert_status(accel_array_arange(q, 0, INFINITY, 1, &out), ACCEL_ERROR_INVALID_ARGUMENT,
                     "inf");
    /* a length past 2^62 (or past a double) is named as such (it read "...
     * has -1") */
    tu_assert_status(accel_array_arange(q, 0, 1e300, 1e-300, &out), ACCEL_ERROR_OUT_OF_RANGE,
                     "huge length");
    cr_assert(strstr(accel_last_error(), "more than 2^62 elements"), "%s", accel_last_error());
    tu_assert_status(accel_array_arange(q, -1e308, 1e308, 1e-308, &out), ACCEL_ERROR_OUT_OF_RANGE,
                     "inf length");
    accel_array oi = out;
    oi.dtype = ACCEL_I32;
    tu_assert_status(accel_array_arange(q, 0, 2.5, 0.5, &oi), ACCEL_ERROR_INVALID_ARGUMENT,
                     "fractional step for ints");
    tu_assert_status(accel_array_linspace(q, 0, 1, 1, &oi), ACCEL_ERROR_DTYPE_MISMATCH,
                     "linspace of ints");
    tu_assert_status(accel_array_eye(q, 0, &out), ACCEL_ERROR_INVALID_ARGUMENT, "1-D eye");
    accel_array m;
    tu_ok(accel_array_init(&m, b, ACCEL_F32, 2, s23));
    accel_array md = m;
    md.dtype = ACCEL_I32;
    tu_assert_status(accel_array_tril(q, &m, 0, &md), ACCEL_ERROR_DTYPE_MISMATCH, "dtype");
    accel_array shifted = m;
    shifted.offset = 4; /* overlaps m other than exactly */
    shifted.shape[1] = 2;
    accel_array m22 = m;
    m22.shape[1] = 2;
    tu_assert_status(accel_array_triu(q, &m22, 0, &shifted), ACCEL_ERROR_INVALID_ARGUMENT,
                     "overlap");
    cr_assert(strstr(accel_last_error(), "overlaps"), "%s", accel_last_error());
    accel_array o22;
    accel_buffer *b2 = make_out(&e, ACCEL_F32, 2, s23, 0, &o22);
    o22.shape[1] = 2;
    tu_assert_status(accel_array_triu(q, &m, 0, &o22), ACCEL_ERROR_SHAPE_MISMATCH, "shape");
    accel_buffer_release(b2);
    accel_array past = out;
    past.shape[0] = 2000;
    tu_assert_status(accel_array_full(q, &past, 1.0), ACCEL_ERROR_OUT_OF_RANGE, "past");
    tu_assert_status(accel_array_full(q, NULL, 1.0), ACCEL_ERROR_INVALID_ARGUMENT, "NULL");
    unsigned char got[CAP * 8];
    tu_ok(accel_queue_read_blocking(q, b, 0, got, sizeof got));
    for (size_t k = 0; k < sizeof got; k++)
        cr_assert_eq(got[k], 0xa5, "byte %zu written by a refused call", k);
    accel_buffer_release(b);
    accel_queue_release(q);
    accel_runtime_close(rt);
}
