/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_array_manipulate.c — concat, stack, roll, repeat, tile, moveaxis and
 * reshape_copy against plain index loops on the host, for every dtype, on
 * contiguous, transposed and reversed inputs, 0-size and 1-element arrays;
 * bad input refused with out untouched. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "test_array_common.h"

/* A host copy of a device array of 24 elements and its (3, 4) view. */
typedef struct harr {
    unsigned char host[24 * 8];
    accel_buffer *b;
    accel_array v;
} harr;

/* variant 0: contiguous (3, 4); 1: the transpose of a (4, 3) array; 2: the
 * columns reversed. */
static void make(env *e, tu_rng *r, accel_dtype dt, int variant, harr *h)
{
    fill(r, dt, false, h->host, 24);
    h->b = upload(e, h->host, 24 * accel_dtype_size(dt));
    const int64_t s[] = {3, 4};
    tu_ok(accel_array_init(&h->v, h->b, dt, 2, s));
    if (variant == 1)
        h->v.strides[0] = 1, h->v.strides[1] = 3;
    if (variant == 2) {
        h->v.strides[1] = -1;
        h->v.offset = 3 * accel_dtype_size(dt);
    }
}

/* A contiguous out of shape[nd] on the device, filled with 0xa5 bytes. */
static accel_buffer *make_out(env *e, accel_dtype dt, uint32_t nd, const int64_t *shape,
                              accel_array *out)
{
    unsigned char fillb[4096];
    memset(fillb, 0xa5, sizeof fillb);
    accel_buffer *b = upload(e, fillb, sizeof fillb);
    tu_ok(accel_array_init(out, b, dt, nd, shape));
    return b;
}

/* out (contiguous) against want(out's row-major index i) -> value. */
typedef val (*ref_fn)(const int64_t *idx, void *ctx);

static unsigned check_out(env *e, accel_buffer *b, const accel_array *out, ref_fn want, void *ctx,
                          const char *what)
{
    unsigned char got[4096];
    tu_ok(accel_queue_read_blocking(e->q, b, 0, got, sizeof got));
    int64_t n = 1;
    for (uint32_t d = 0; d < out->ndim; d++)
        n *= out->shape[d];
    for (int64_t i = 0; i < n; i++) {
        int64_t idx[ACCEL_ARRAY_MAX_NDIM], r = i;
        for (uint32_t d = out->ndim; d-- > 0;) {
            idx[d] = r % out->shape[d];
            r /= out->shape[d];
        }
        val w = want(idx, ctx), g = get(got, out->dtype, (size_t)i);
        cr_assert(same_value(out->dtype, g, w), "%s %s: out[%lld] = 0x%llx (%g), want 0x%llx (%g)",
                  what, accel_dtype_name(out->dtype), (long long)i, (unsigned long long)g.u, g.f,
                  (unsigned long long)w.u, w.f);
    }
    size_t used = (size_t)n * accel_dtype_size(out->dtype);
    for (size_t k = used; k < sizeof got; k++)
        cr_assert_eq(got[k], 0xa5, "%s: byte %zu past out written", what, k);
    return (unsigned)n;
}

/* ------------------------------------------------------- the references */

typedef struct ctx {
    harr *x, *y;
    int axis; /* -1: flattened */
    int64_t p[4];
    accel_dtype to;
} ctx;

static val conv(const ctx *c, const harr *h, const int64_t *idx)
{
    return convert(h->v.dtype, c->to, elem_at(&h->v, h->host, idx));
}

/* concat of x and y, (3, 4) each, along axis or flattened. */
static val ref_concat(const int64_t *o, void *p)
{
    ctx *c = p;
    int64_t idx[2] = {o[0], c->axis == 1 ? o[1] : c->axis == 0 ? o[1] : 0};
    if (c->axis < 0) {
        int64_t f = o[0] % 12;
        idx[0] = f / 4, idx[1] = f % 4;
        return conv(c, o[0] < 12 ? c->x : c->y, idx);
    }
    bool second = o[c->axis] >= (c->axis == 0 ? 3 : 4);
    if (second)
        idx[c->axis] -= c->axis == 0 ? 3 : 4;
    return conv(c, second ? c->y : c->x, idx);
}

static val ref_stack(const int64_t *o, void *p)
{
    ctx *c = p;
    int64_t idx[2];
    for (int d = 0, k = 0; d < 3; d++)
        if (d != c->axis)
            idx[k++] = o[d];
    return conv(c, o[c->axis] ? c->y : c->x, idx);
}

/* roll by p[0] along axis 0 and p[1] along axis 1, or p[0] flattened */
static val ref_roll(const int64_t *o, void *p)
{
    ctx *c = p;
    int64_t idx[2];
    if (c->axis < 0) {
        int64_t f = ((o[0] * 4 + o[1] - c->p[0]) % 12 + 12) % 12;
        idx[0] = f / 4, idx[1] = f % 4;
    } else {
        idx[0] = ((o[0] - c->p[0]) % 3 + 3) % 3;
        idx[1] = ((o[1] - c->p[1]) % 4 + 4) % 4;
    }
    return conv(c, c->x, idx);
}

/* repeat: axis 1 by p[0]; axis 0 by {p[0], p[1], p[2]}; flattened by p[0] */
static val ref_repeat(const int64_t *o, void *p)
{
    ctx *c = p;
    int64_t idx[2] = {o[0], c->axis == 1 ? o[1] / c->p[0] : o[1]};
    if (c->axis < 0) {
        int64_t f = o[0] / c->p[0];
        idx[0] = f / 4, idx[1] = f % 4;
    } else if (c->axis == 0) {
        int64_t i = 0, acc = c->p[0];
        while (o[0] >= acc)
            acc += c->p[++i];
        idx[0] = i;
    }
    return conv(c, c->x, idx);
}

/* tile by (p[0], p[1], p[2]) of x viewed as (1, 3, 4) */
static val ref_tile(const int64_t *o, void *p)
{
    ctx *c = p;
    int64_t idx[2] = {o[1] % 3, o[2] % 4};
    return conv(c, c->x, idx);
}

/* x's row-major elements */
static val ref_flat(const int64_t *o, void *p)
{
    ctx *c = p;
    int64_t f = o[0] * (c->p[0] ? 3 : 1) + (c->p[0] ? o[1] : 0);
    int64_t idx[2] = {f / 4, f % 4};
    return conv(c, c->x, idx);
}

/* ------------------------------------------------------------ the tests */

static unsigned every_case(env *e, accel_dtype dt, int variant, tu_rng *r)
{
    harr x, y;
    make(e, r, dt, variant, &x);
    make(e, r, dt, (variant + 1) % 3, &y);
    ctx c = {&x, &y, 0, {0}, dt};
    const accel_array *xs[2] = {&x.v, &y.v};
    accel_array out;
    unsigned n = 0;
    for (int axis = -1; axis < 2; axis++) {
        int64_t s[2] = {axis == 0 ? 6 : axis < 0 ? 24 : 3, axis == 1 ? 8 : 4};
        accel_buffer *b = make_out(e, dt, axis < 0 ? 1 : 2, s, &out);
        if (axis < 0) { /* x or y is transposed or reversed: not viewable flat */
            tu_assert_status(accel_array_concat(e->q, 2, xs, ACCEL_ARRAY_AXIS_NONE, &out),
                             ACCEL_ERROR_UNSUPPORTED, "flat concat of a transpose");
            accel_buffer_release(b);
            continue;
        }
        tu_ok(accel_array_concat(e->q, 2, xs, axis < 0 ? ACCEL_ARRAY_AXIS_NONE : axis, &out));
        c.axis = axis;
        n += check_out(e, b, &out, ref_concat, &c, "concat");
        accel_buffer_release(b);
    }
    for (int axis = 0; axis < 3; axis++) {
        int64_t s[3] = {3, 4, 4};
        s[axis] = 2;
        for (int d = 0, k = 0; d < 3; d++)
            if (d != axis)
                s[d] = k++ ? 4 : 3;
        accel_buffer *b = make_out(e, dt, 3, s, &out);
        tu_ok(accel_array_stack(e->q, 2, xs, axis - 3, &out));
        c.axis = axis;
        n += check_out(e, b, &out, ref_stack, &c, "stack");
        accel_buffer_release(b);
    }
    const int64_t s34[2] = {3, 4};
    {
        accel_buffer *b = make_out(e, dt, 2, s34, &out);
        const int64_t sh[3] = {1, -5, 3};
        const int32_t ax[3] = {0, -1, 0};
        tu_ok(accel_array_roll(e->q, &x.v, 3, sh, ax, &out));
        c.axis = 0, c.p[0] = 4, c.p[1] = -5;
        n += check_out(e, b, &out, ref_roll, &c, "roll");
        const int64_t f[1] = {7};
        if (variant == 0) { /* a transpose or reversal is not viewable flat */
            tu_ok(accel_array_roll(e->q, &x.v, 1, f, NULL, &out));
            c.axis = -1, c.p[0] = 7;
            n += check_out(e, b, &out, ref_roll, &c, "roll flat");
        } else {
            tu_assert_status(accel_array_roll(e->q, &x.v, 1, f, NULL, &out),
                             ACCEL_ERROR_UNSUPPORTED, "flat roll of a transpose");
        }
        accel_buffer_release(b);
    }
    {
        const int64_t s38[2] = {3, 8}, s54[2] = {5, 4}, s24[1] = {24}, two = 2;
        const int64_t each[3] = {0, 3, 2};
        accel_buffer *b = make_out(e, dt, 2, s38, &out);
        tu_ok(accel_array_repeat(e->q, &x.v, 1, &two, 1, &out));
        c.axis = 1, c.p[0] = 2;
        n += check_out(e, b, &out, ref_repeat, &c, "repeat axis 1");
        accel_buffer_release(b);
        b = make_out(e, dt, 2, s54, &out);
        tu_ok(accel_array_repeat(e->q, &x.v, 3, each, -2, &out));
        c.axis = 0, c.p[0] = 0, c.p[1] = 3, c.p[2] = 2;
        n += check_out(e, b, &out, ref_repeat, &c, "repeat each");
        accel_buffer_release(b);
        if (variant == 0) {
            b = make_out(e, dt, 1, s24, &out);
            tu_ok(accel_array_repeat(e->q, &x.v, 1, &two, ACCEL_ARRAY_AXIS_NONE, &out));
            c.axis = -1, c.p[0] = 2;
            n += check_out(e, b, &out, ref_repeat, &c, "repeat flat");
            accel_buffer_release(b);
        }
    }
    {
        const int64_t reps[3] = {2, 1, 3}, st[3] = {2, 3, 12};
        accel_buffer *b = make_out(e, dt, 3, st, &out);
        tu_ok(accel_array_tile(e->q, &x.v, 3, reps, &out));
        n += check_out(e, b, &out, ref_tile, &c, "tile");
        accel_buffer_release(b);
    }
    {
        const int64_t s43[2] = {4, 3}, s12[1] = {12};
        accel_buffer *b = make_out(e, dt, 2, s43, &out);
        tu_ok(accel_array_reshape_copy(e->q, &x.v, &out));
        c.p[0] = 1;
        n += check_out(e, b, &out, ref_flat, &c, "reshape_copy (4, 3)");
        accel_buffer_release(b);
        b = make_out(e, dt, 1, s12, &out);
        tu_ok(accel_array_reshape_copy(e->q, &x.v, &out));
        c.p[0] = 0;
        n += check_out(e, b, &out, ref_flat, &c, "reshape_copy (12,)");
        accel_buffer_release(b);
    }
    accel_buffer_release(x.b);
    accel_buffer_release(y.b);
    return n;
}

static void every_function_every_dtype_on(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    tu_rng r = tu_rng_make(40);
    unsigned n = 0;
    for (size_t d = 0; d < NDT; d++)
        for (int v = 0; v < 3; v++)
            n += every_case(&e, all_dtypes[d], v, &r);
    cr_assert_gt(n, 10000u, "elements checked: %u", n);
}

Test(array_manipulate, every_function_every_dtype)
{
    accel_runtime *rt = array_runtime(NULL, NULL);
    tu_for_each_device(rt, every_function_every_dtype_on, NULL);
    accel_runtime_close(rt);
}

/* concat promotes: int8 with float32 gives float32; int16 with uint8 int16. */
Test(array_manipulate, concat_promotes_and_empty_parts)
{
    accel_runtime *rt = array_runtime(NULL, NULL);
    accel_device *dev;
    accel_queue *q;
    tu_ok(accel_device_get_by_name(rt, "cpu:0", &dev));
    tu_ok(accel_queue_create(dev, &q));
    env e = {dev, q};
    tu_rng r = tu_rng_make(41);
    static const accel_dtype pairs[][3] = {{ACCEL_I8, ACCEL_F32, ACCEL_F32},
                                           {ACCEL_I16, ACCEL_U8, ACCEL_I16},
                                           {ACCEL_BOOL, ACCEL_U64, ACCEL_U64}};
    for (size_t k = 0; k < 3; k++) {
        harr x, y;
        make(&e, &r, pairs[k][0], 0, &x);
        make(&e, &r, pairs[k][1], k == 0 ? 0 : 2, &y);
        const accel_array *xs[2] = {&x.v, &y.v};
        accel_array out;
        const int64_t s[2] = {6, 4};
        accel_buffer *b = make_out(&e, pairs[k][2], 2, s, &out);
        tu_ok(accel_array_concat(q, 2, xs, 0, &out));
        ctx c = {&x, &y, 0, {0}, pairs[k][2]};
        check_out(&e, b, &out, ref_concat, &c, "concat promoted");
        accel_buffer_release(b);
        if (k == 0) { /* both contiguous: flattened too */
            const int64_t s24[1] = {24};
            b = make_out(&e, pairs[k][2], 1, s24, &out);
            tu_ok(accel_array_concat(q, 2, xs, ACCEL_ARRAY_AXIS_NONE, &out));
            c.axis = -1;
            check_out(&e, b, &out, ref_concat, &c, "concat flattened");
            accel_buffer_release(b);
        }
        accel_buffer_release(x.b);
        accel_buffer_release(y.b);
    }
    /* a 0-size part and a 1-element array */
    harr x;
    make(&e, &r, ACCEL_F64, 0, &x);
    accel_array empty = x.v, one = x.v, out;
    empty.shape[0] = 0;
    one.shape[0] = 1, one.shape[1] = 1;
    const int64_t s14[2] = {1, 4}, s15[2] = {1, 5};
    accel_buffer *b = make_out(&e, ACCEL_F64, 2, s14, &out);
    accel_array first = x.v;
    first.shape[0] = 1;
    const accel_array *xs[2] = {&empty, &first};
    tu_ok(accel_array_concat(q, 2, xs, 0, &out));
    ctx c = {&x, &x, 0, {0}, ACCEL_F64};
    check_out(&e, b, &out, ref_concat, &c, "concat with an empty part");
    accel_buffer_release(b);
    b = make_out(&e, ACCEL_F64, 2, s15, &out);
    const accel_array *ys[2] = {&first, &one};
    tu_ok(accel_array_concat(q, 2, ys, 1, &out));
    double got[5];
    tu_ok(accel_queue_read_blocking(q, b, 0, got, sizeof got));
    for (int j = 0; j < 5; j++) {
        int64_t idx[2] = {0, j < 4 ? j : 0};
        val w = elem_at(&x.v, x.host, idx);
        cr_assert(same_value(ACCEL_F64, (val){.f = got[j]}, w), "1-element concat [%d]", j);
    }
    accel_buffer_release(b);
    accel_buffer_release(x.b);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

Test(array_manipulate, moveaxis_is_a_view)
{
    const int64_t s[4] = {2, 3, 4, 5};
    accel_array x, y;
    tu_ok(accel_array_init(&x, NULL, ACCEL_F32, 4, s));
    const int32_t src[2] = {0, -1}, dst[2] = {-1, 0};
    accel_runtime *rt = array_runtime(NULL, NULL);
    accel_device *dev;
    tu_ok(accel_device_get_by_name(rt, "cpu:0", &dev));
    tu_ok(accel_buffer_create(dev, 120 * 4, &x.buffer));
    tu_ok(accel_array_moveaxis(&x, 2, src, dst, &y));
    const int64_t want_shape[4] = {5, 3, 4, 2}, want_strides[4] = {1, 20, 5, 60};
    for (int d = 0; d < 4; d++)
        cr_assert(y.shape[d] == want_shape[d] && y.strides[d] == want_strides[d],
                  "axis %d: %lld/%lld", d, (long long)y.shape[d], (long long)y.strides[d]);
    const int32_t one_src = 1, one_dst = 3;
    tu_ok(accel_array_moveaxis(&x, 1, &one_src, &one_dst, &y));
    const int64_t w2[4] = {2, 4, 5, 3};
    for (int d = 0; d < 4; d++)
        cr_assert_eq(y.shape[d], w2[d]);
    const int32_t rep[2] = {0, 0};
    accel_array keep = y;
    tu_assert_status(accel_array_moveaxis(&x, 2, rep, dst, &y), ACCEL_ERROR_INVALID_ARGUMENT,
                     "repeated");
    cr_assert(strstr(accel_last_error(), "src[1]"), "%s", accel_last_error());
    const int32_t far = 4;
    tu_assert_status(accel_array_moveaxis(&x, 1, &far, dst, &y), ACCEL_ERROR_INVALID_ARGUMENT,
                     "out of range");
    cr_assert(memcmp(&keep, &y, sizeof y) == 0, "out changed by a refused call");
    accel_buffer_release(x.buffer);
    accel_runtime_close(rt);
}

Test(array_manipulate, bad_input_leaves_out_untouched)
{
    accel_runtime *rt = array_runtime(NULL, NULL);
    accel_device *dev;
    accel_queue *q;
    tu_ok(accel_device_get_by_name(rt, "cpu:0", &dev));
    tu_ok(accel_queue_create(dev, &q));
    env e = {dev, q};
    tu_rng r = tu_rng_make(42);
    harr x, y;
    make(&e, &r, ACCEL_F32, 0, &x);
    make(&e, &r, ACCEL_F32, 0, &y);
    accel_array out;
    const int64_t s64[2] = {6, 4}, s34[2] = {3, 4};
    accel_buffer *b = make_out(&e, ACCEL_F32, 2, s64, &out);
    const accel_array *xs[2] = {&x.v, &y.v};
    tu_assert_status(accel_array_concat(q, 2, xs, 2, &out), ACCEL_ERROR_INVALID_ARGUMENT, "axis");
    cr_assert(strstr(accel_last_error(), "axis 2"), "%s", accel_last_error());
    tu_assert_status(accel_array_concat(q, 2, xs, 1, &out), ACCEL_ERROR_SHAPE_MISMATCH, "shape");
    tu_assert_status(accel_array_concat(q, 0, xs, 0, &out), ACCEL_ERROR_INVALID_ARGUMENT, "count");
    accel_array oi = out;
    oi.dtype = ACCEL_I32;
    tu_assert_status(accel_array_concat(q, 2, xs, 0, &oi), ACCEL_ERROR_DTYPE_MISMATCH, "dtype");
    accel_array small = y.v;
    small.shape[1] = 3;
    const accel_array *bad[2] = {&x.v, &small};
    tu_assert_status(accel_array_concat(q, 2, bad, 0, &out), ACCEL_ERROR_SHAPE_MISMATCH, "xs[1]");
    cr_assert(strstr(accel_last_error(), "xs[1]"), "%s", accel_last_error());
    tu_assert_status(accel_array_stack(q, 2, xs, 3, &out), ACCEL_ERROR_INVALID_ARGUMENT, "axis 3");
    accel_array over = x.v; /* out inside x's buffer */
    const int64_t one = 1;
    tu_assert_status(accel_array_roll(q, &x.v, 1, &one, NULL, &over), ACCEL_ERROR_INVALID_ARGUMENT,
                     "overlap");
    cr_assert(strstr(accel_last_error(), "overlaps"), "%s", accel_last_error());
    accel_array o34;
    tu_ok(accel_array_init(&o34, b, ACCEL_F32, 2, s34));
    const int32_t ax5 = 5;
    tu_assert_status(accel_array_roll(q, &x.v, 1, &one, &ax5, &o34), ACCEL_ERROR_INVALID_ARGUMENT,
                     "roll axis");
    const int64_t neg = -1, reps2[2] = {1, 1};
    tu_assert_status(accel_array_repeat(q, &x.v, 1, &neg, 0, &o34), ACCEL_ERROR_INVALID_ARGUMENT,
                     "negative repeat");
    tu_assert_status(accel_array_repeat(q, &x.v, 2, reps2, 0, &o34), ACCEL_ERROR_INVALID_ARGUMENT,
                     "nrepeats");
    tu_assert_status(accel_array_tile(q, &x.v, 1, &neg, &o34), ACCEL_ERROR_INVALID_ARGUMENT,
                     "negative rep");
    tu_assert_status(accel_array_tile(q, &x.v, 1, &one, &out), ACCEL_ERROR_SHAPE_MISMATCH,
                     "tile shape");
    tu_assert_status(accel_array_reshape_copy(q, &x.v, &out), ACCEL_ERROR_SHAPE_MISMATCH, "count");
    accel_array past = x.v;
    past.shape[0] = 100;
    tu_assert_status(accel_array_reshape_copy(q, &past, &o34), ACCEL_ERROR_OUT_OF_RANGE, "past");
    unsigned char got[4096];
    tu_ok(accel_queue_read_blocking(q, b, 0, got, sizeof got));
    for (size_t k = 0; k < sizeof got; k++)
        cr_assert_eq(got[k], 0xa5, "byte %zu written by a refused call", k);
    accel_buffer_release(b);
    accel_buffer_release(x.b);
    accel_buffer_release(y.b);
    accel_queue_release(q);
    accel_runtime_close(rt);
}
