/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_array_view.c — the array view (accel/array.h): init, validation,
 * broadcasting and the metadata-only views, each checked against the
 * element addresses a plain loop computes from NumPy's rules. */
#include <criterion/criterion.h>
#include <string.h>

#include "accel/array.h"
#include "test_util.h"

static accel_runtime *rt;
static accel_buffer *buf; /* 1000 bytes */

static void setup(void)
{
    rt = tu_open_default();
    accel_device *dev;
    tu_ok(accel_device_get_by_name(rt, "cpu:0", &dev));
    tu_ok(accel_buffer_create(dev, 1000, &buf));
}

static void teardown(void)
{
    accel_buffer_release(buf);
    accel_runtime_close(rt);
}

TestSuite(array_view, .init = setup, .fini = teardown);

/* Element index (from the buffer's start, in elements) of a view's element
 * at multi-index idx. */
static int64_t elem_at(const accel_array *a, const int64_t *idx)
{
    int64_t e = (int64_t)(a->offset / accel_dtype_size(a->dtype));
    for (uint32_t i = 0; i < a->ndim; i++)
        e += idx[i] * a->strides[i];
    return e;
}

static accel_array make(uint32_t ndim, const int64_t *shape)
{
    accel_array a;
    tu_ok(accel_array_init(&a, buf, ACCEL_F32, ndim, shape));
    return a;
}

Test(array_view, init_is_row_major)
{
    const int64_t shape[] = {2, 3, 4};
    accel_array a = make(3, shape);
    cr_assert_eq(a.strides[0], 12);
    cr_assert_eq(a.strides[1], 4);
    cr_assert_eq(a.strides[2], 1);
    cr_assert_eq(a.offset, 0u);
    tu_ok(accel_array_validate(&a, "a"));
    accel_array s;
    tu_ok(accel_array_init(&s, buf, ACCEL_I64, 0, NULL)); /* 0-d */
    tu_ok(accel_array_validate(&s, "s"));
}

Test(array_view, validate_refuses_with_names)
{
    const int64_t big[] = {300}; /* 1200 bytes of f32 in a 1000-byte buffer */
    accel_array a = make(1, big);
    tu_assert_status(accel_array_validate(&a, "x"), ACCEL_ERROR_OUT_OF_RANGE, "past");
    cr_assert(strstr(accel_last_error(), "accel_array_validate: x:"), "%s", accel_last_error());
    const int64_t ok[] = {250};
    a = make(1, ok);
    tu_ok(accel_array_validate(&a, "x"));
    a.offset = 4; /* now element 250 is past the end */
    tu_assert_status(accel_array_validate(&a, "x"), ACCEL_ERROR_OUT_OF_RANGE, "shifted");
    a.offset = 2;
    tu_assert_status(accel_array_validate(&a, "x"), ACCEL_ERROR_INVALID_ARGUMENT, "unaligned");
    a = make(1, ok);
    a.strides[0] = -1; /* reaches before the buffer */
    tu_assert_status(accel_array_validate(&a, "x"), ACCEL_ERROR_OUT_OF_RANGE, "negative");
    a.offset = 249 * 4; /* last element, walking backwards: fine */
    tu_ok(accel_array_validate(&a, "x"));
    /* shape x stride overflow */
    const int64_t two[] = {3, 3};
    a = make(2, two);
    a.strides[0] = INT64_MAX / 2;
    tu_assert_status(accel_array_validate(&a, "y"), ACCEL_ERROR_OUT_OF_RANGE, "overflow");
    cr_assert(strstr(accel_last_error(), "overflows"), "%s", accel_last_error());
    /* a span that fits int64 but whose end, added to the offset, does not
     * (the check formed offset + end, which wrapped negative: it passed) */
    const int64_t two_rows[] = {2, 4};
    a = make(2, two_rows);
    a.dtype = ACCEL_U8;
    a.strides[0] = INT64_MAX - 5;
    a.strides[1] = 1;
    a.offset = 8;
    tu_assert_status(accel_array_validate(&a, "z"), ACCEL_ERROR_OUT_OF_RANGE,
                     "offset + span wraps");
    a = make(2, two);
    a.ndim = 1000;
    tu_assert_status(accel_array_validate(&a, "y"), ACCEL_ERROR_INVALID_ARGUMENT, "huge ndim");
    a = make(2, two);
    a.shape[1] = -2;
    tu_assert_status(accel_array_validate(&a, "y"), ACCEL_ERROR_INVALID_ARGUMENT, "neg shape");
    a = make(2, two);
    a.dtype = (accel_dtype)77;
    tu_assert_status(accel_array_validate(&a, "y"), ACCEL_ERROR_DTYPE_MISMATCH, "dtype");
    a = make(2, two);
    a.buffer = NULL;
    tu_assert_status(accel_array_validate(&a, "y"), ACCEL_ERROR_INVALID_HANDLE, "buffer");
    a = make(2, two);
    a.struct_size = 0;
    tu_assert_status(accel_array_validate(&a, "y"), ACCEL_ERROR_INVALID_ARGUMENT, "size");
    tu_assert_status(accel_array_validate(NULL, "y"), ACCEL_ERROR_INVALID_ARGUMENT, "NULL");
    /* no elements: strides do not matter */
    const int64_t empty[] = {0, 5};
    a = make(2, empty);
    a.strides[1] = INT64_MAX;
    tu_ok(accel_array_validate(&a, "e"));
    const int64_t neg[] = {-1};
    accel_array untouched = make(2, two);
    tu_assert_status(accel_array_init(&untouched, buf, ACCEL_F32, 1, neg),
                     ACCEL_ERROR_INVALID_ARGUMENT, "init neg");
    cr_assert_eq(untouched.ndim, 2u, "untouched on error");
    tu_assert_status(accel_array_init(&untouched, buf, ACCEL_F32, 33, neg),
                     ACCEL_ERROR_INVALID_ARGUMENT, "init ndim 33");
}

Test(array_view, broadcast_shapes)
{
    const int64_t s1[] = {4, 1, 3}, s2[] = {5, 1}, s3[] = {1};
    accel_array a = make(3, s1), b = make(2, s2), c = make(1, s3);
    const accel_array *arr[] = {&a, &b, &c};
    uint32_t nd = 0;
    int64_t shape[ACCEL_ARRAY_MAX_NDIM];
    tu_ok(accel_broadcast_shapes(3, arr, &nd, shape));
    cr_assert_eq(nd, 3u);
    cr_assert(shape[0] == 4 && shape[1] == 5 && shape[2] == 3);
    const int64_t bad[] = {2, 4};
    accel_array d = make(2, bad);
    const accel_array *arr2[] = {&a, &d};
    tu_assert_status(accel_broadcast_shapes(2, arr2, &nd, shape), ACCEL_ERROR_SHAPE_MISMATCH,
                     "4 vs 3");
    cr_assert(strstr(accel_last_error(), "arrays[1]"), "%s", accel_last_error());
    tu_ok(accel_broadcast_shapes(0, NULL, &nd, shape));
    cr_assert_eq(nd, 0u);
}

/* Every element of v maps where the plain rule says: ref(idx) per test. */
typedef int64_t (*ref_fn)(const int64_t *idx);
static void check_map(const accel_array *v, ref_fn ref)
{
    tu_ok(accel_array_validate(v, "view"));
    int64_t n = 1, idx[ACCEL_ARRAY_MAX_NDIM] = {0};
    for (uint32_t i = 0; i < v->ndim; i++)
        n *= v->shape[i];
    for (int64_t k = 0; k < n; k++) {
        int64_t r = k;
        for (uint32_t i = v->ndim; i-- > 0;) {
            idx[i] = r % v->shape[i];
            r /= v->shape[i];
        }
        cr_assert_eq(elem_at(v, idx), ref(idx), "element %lld", (long long)k);
    }
}

/* x of shape (4, 5, 6), element (i, j, k) at 30i + 6j + k. */
static int64_t ref_x(const int64_t *x)
{
    return 30 * x[0] + 6 * x[1] + x[2];
}
static int64_t ref_slice(const int64_t *x) /* x[3:0:-2, 1:, ::4] */
{
    return 30 * (3 - 2 * x[0]) + 6 * (1 + x[1]) + 4 * x[2];
}
static int64_t ref_perm(const int64_t *x) /* permute (2, 0, 1) */
{
    return 30 * x[1] + 6 * x[2] + x[0];
}
static int64_t ref_flip(const int64_t *x) /* flip axes 0 and 2 */
{
    return 30 * (3 - x[0]) + 6 * x[1] + (5 - x[2]);
}
static int64_t ref_bcast(const int64_t *x) /* (5, 6) -> (3, 5, 6) */
{
    return 6 * x[1] + x[2];
}
static int64_t ref_expand(const int64_t *x) /* (4, 5, 6) -> (4, 1, 5, 6) */
{
    return 30 * x[0] + 6 * x[2] + x[3];
}

Test(array_view, slice_permute_flip_broadcast_expand)
{
    const int64_t shape[] = {4, 5, 6};
    accel_array x = make(3, shape), v;
    const int64_t start[] = {3, 1, INT64_MIN}, stop[] = {0, INT64_MAX, INT64_MAX},
                  step[] = {-2, 1, 4};
    tu_ok(accel_array_slice(&x, start, stop, step, &v));
    cr_assert(v.shape[0] == 2 && v.shape[1] == 4 && v.shape[2] == 2, "%lld %lld %lld",
              (long long)v.shape[0], (long long)v.shape[1], (long long)v.shape[2]);
    check_map(&v, ref_slice);
    const int32_t axes[] = {2, 0, -2};
    tu_ok(accel_array_permute_dims(&x, axes, &v));
    cr_assert(v.shape[0] == 6 && v.shape[1] == 4 && v.shape[2] == 5);
    check_map(&v, ref_perm);
    tu_ok(accel_array_flip(&x, 5u, &v));
    check_map(&v, ref_flip);
    const int64_t shape2[] = {5, 6}, to[] = {3, 5, 6};
    accel_array y = make(2, shape2);
    tu_ok(accel_array_broadcast_to(&y, 3, to, &v));
    check_map(&v, ref_bcast);
    tu_ok(accel_array_expand_dims(&x, -3, &v));
    cr_assert(v.ndim == 4 && v.shape[1] == 1);
    check_map(&v, ref_expand);
    tu_ok(accel_array_squeeze(&v, 2u, &v)); /* back, in place */
    cr_assert_eq(v.ndim, 3u);
    check_map(&v, ref_x);
}

/* flip at its edges, against the definition (element i of a flipped axis
 * of size n is element n - 1 - i): an empty array keeps its offset (no
 * element to move to), a size-1 axis flips to itself, a reversed view
 * flips back. */
Test(array_view, flip_empty_single_and_reversed)
{
    const int64_t empty[] = {3, 0, 4};
    accel_array x = make(3, empty), v;
    x.offset = 8;
    tu_ok(accel_array_flip(&x, 7u, &v));
    cr_assert_eq(v.offset, 8u);
    for (uint32_t i = 0; i < 3; i++) {
        cr_assert_eq(v.shape[i], x.shape[i], "axis %u", i);
        cr_assert_eq(v.strides[i], -x.strides[i], "axis %u", i);
    }
    const int64_t row[] = {1, 5};
    accel_array y = make(2, row), r;
    tu_ok(accel_array_flip(&y, 2u, &r));
    tu_ok(accel_array_flip(&r, 3u, &v));
    for (int64_t j = 0; j < 5; j++) {
        const int64_t at[] = {0, j}, mirror[] = {0, 4 - j};
        cr_assert_eq(elem_at(&r, at), elem_at(&y, mirror), "r[0][%lld]", (long long)j);
        cr_assert_eq(elem_at(&v, at), elem_at(&y, at), "v[0][%lld]", (long long)j);
    }
}

Test(array_view, bad_views_untouched)
{
    const int64_t shape[] = {4, 5, 6};
    accel_array x = make(3, shape), v = make(3, shape);
    v.offset = 8; /* marker */
    const int32_t rep[] = {0, 0, 1}, far[] = {0, 1, 3};
    tu_assert_status(accel_array_permute_dims(&x, rep, &v), ACCEL_ERROR_INVALID_ARGUMENT, "rep");
    cr_assert(strstr(accel_last_error(), "axes[1]"), "%s", accel_last_error());
    tu_assert_status(accel_array_permute_dims(&x, far, &v), ACCEL_ERROR_INVALID_ARGUMENT, "far");
    tu_assert_status(accel_array_expand_dims(&x, 4, &v), ACCEL_ERROR_INVALID_ARGUMENT, "axis 4");
    tu_assert_status(accel_array_squeeze(&x, 1u, &v), ACCEL_ERROR_INVALID_ARGUMENT, "size 4");
    tu_assert_status(accel_array_squeeze(&x, 8u, &v), ACCEL_ERROR_INVALID_ARGUMENT, "axis 3");
    tu_assert_status(accel_array_flip(&x, 8u, &v), ACCEL_ERROR_INVALID_ARGUMENT, "flip 3");
    const int64_t to[] = {4, 7, 6};
    tu_assert_status(accel_array_broadcast_to(&x, 3, to, &v), ACCEL_ERROR_SHAPE_MISMATCH, "7");
    const int64_t z[] = {0, 0, 0}, one[] = {1, 1, 1}, zero_step[] = {1, 0, 1};
    tu_assert_status(accel_array_slice(&x, z, one, zero_step, &v), ACCEL_ERROR_INVALID_ARGUMENT,
                     "step 0");
    cr_assert(strstr(accel_last_error(), "step[1]"), "%s", accel_last_error());
    const int64_t r7[] = {7, -1};
    tu_assert_status(accel_array_reshape(&x, 2, r7, &v), ACCEL_ERROR_SHAPE_MISMATCH, "7 x ?");
    /* a broadcast whose element count passes int64 (it returned success
     * with a view every later call refused), and such a meshgrid */
    const int64_t one1[] = {1}, huge[] = {1ll << 40, 1ll << 40, 1ll << 40};
    accel_array s = make(1, one1);
    tu_assert_status(accel_array_broadcast_to(&s, 3, huge, &v), ACCEL_ERROR_OUT_OF_RANGE, "2^120");
    accel_array hb;
    tu_ok(accel_array_broadcast_to(&s, 1, huge, &hb)); /* 2^40 elements: valid */
    const accel_array *xs[3] = {&hb, &hb, &hb};
    accel_array grid[3];
    grid[0].offset = 8;
    tu_assert_status(accel_array_meshgrid(3, xs, 0, grid), ACCEL_ERROR_OUT_OF_RANGE, "grid");
    cr_assert_eq(grid[0].offset, 8u, "grid untouched");
    cr_assert_eq(v.offset, 8u, "out untouched");
    cr_assert_eq(v.ndim, 3u, "out untouched");
}

Test(array_view, reshape_view_or_copy)
{
    const int64_t shape[] = {4, 5, 6};
    accel_array x = make(3, shape), v;
    const int64_t r[] = {2, -1, 3};
    tu_ok(accel_array_reshape(&x, 3, r, &v));
    cr_assert(v.shape[1] == 20 && v.strides[0] == 60 && v.strides[1] == 3 && v.strides[2] == 1);
    /* a transposed array cannot be flattened without a copy */
    const int32_t axes[] = {1, 0, 2};
    accel_array t;
    tu_ok(accel_array_permute_dims(&x, axes, &t));
    const int64_t flat[] = {120};
    tu_assert_status(accel_array_reshape(&t, 1, flat, &v), ACCEL_ERROR_UNSUPPORTED, "copy");
    cr_assert(strstr(accel_last_error(), "copy"), "%s", accel_last_error());
    /* but its last axis may split, and the middle ones merge when contiguous */
    const int64_t split[] = {5, 4, 2, 3};
    tu_ok(accel_array_reshape(&t, 4, split, &v));
    cr_assert(v.strides[0] == 6 && v.strides[1] == 30 && v.strides[2] == 3 && v.strides[3] == 1);
    const int64_t merge[] = {4, 30};
    tu_ok(accel_array_reshape(&x, 2, merge, &v));
    cr_assert(v.strides[0] == 30 && v.strides[1] == 1);
    /* a slice with a step in the last axis */
    const int64_t st[] = {0, 0, 0}, sp[] = {4, 5, 6}, step[] = {1, 1, 2};
    accel_array s;
    tu_ok(accel_array_slice(&x, st, sp, step, &s));
    const int64_t m2[] = {20, 3};
    tu_ok(accel_array_reshape(&s, 2, m2, &v));
    cr_assert(v.strides[0] == 6 && v.strides[1] == 2);
    const int64_t m1[] = {60}; /* 30i + 6j + 2k = 2(15i + 3j + k): one stride 2 */
    tu_ok(accel_array_reshape(&s, 1, m1, &v));
    cr_assert_eq(v.strides[0], 2);
    const int64_t step2[] = {1, 2, 1}, m3[] = {72};
    tu_ok(accel_array_slice(&x, st, sp, step2, &s)); /* (4, 3, 6), strides (30, 12, 1) */
    tu_assert_status(accel_array_reshape(&s, 1, m3, &v), ACCEL_ERROR_UNSUPPORTED, "strided");
}

/* Every function that writes a view refuses one with stride 0 on an axis of
 * extent over 1 (it would name one element twice: which write wins is up
 * to the threads), and leaves the buffer as it was. */
Test(array_view, written_views_with_stride_0_are_refused)
{
    accel_queue *q;
    tu_ok(accel_queue_create(accel_buffer_device(buf), &q));
    float init[250];
    for (int i = 0; i < 250; i++)
        init[i] = (float)i;
    tu_ok(accel_queue_write_blocking(q, buf, 0, init, sizeof init));
    int64_t s44[2] = {4, 4}, s4[1] = {4}, s16[1] = {16};
    accel_array x = make(2, s44), x1 = make(1, s4);
    accel_array o = make(2, s44); /* (4, 4) with strides (0, 1) at element 100 */
    o.offset = 400, o.strides[0] = 0;
    accel_array o1 = make(1, s4); /* (4,) with stride 0 at element 200 */
    o1.offset = 800, o1.strides[0] = 0;
    int64_t s48[2] = {4, 8};
    accel_array o48 = make(2, s48);
    o48.offset = 400, o48.strides[0] = 0;
    accel_array o16 = make(1, s16);
    o16.offset = 800, o16.strides[0] = 0;
    accel_array idx;
    tu_ok(accel_array_init(&idx, buf, ACCEL_I64, 1, s4));
    idx.offset = 960, idx.strides[0] = 0; /* index 0 four times: values are read */
    const accel_array *xs[2] = {&x, &x};
    int64_t sh = 1, rep = 2, reps[2] = {1, 1};
    int32_t ax = 0;
    /* Refused for the stride, not for something else. */
#define REFUSED(call)                                                                              \
    do {                                                                                           \
        cr_expect_eq(call, ACCEL_ERROR_INVALID_ARGUMENT, "%s accepted a stride-0 output", #call);  \
        cr_expect(strstr(accel_last_error(), "stride 0") != NULL, "%s: %s", #call,                 \
                  accel_last_error());                                                             \
    } while (0)
    REFUSED(accel_array_unary(q, ACCEL_ARRAY_NEGATIVE, &x, &o));
    REFUSED(accel_array_binary(q, ACCEL_ARRAY_ADD, &x, &x, &o));
    REFUSED(accel_array_clip(q, &x, &x, &x, &o));
    REFUSED(accel_array_astype(q, &x, &o));
    REFUSED(accel_array_copy(q, &x, &o));
    REFUSED(accel_array_reduce(q, ACCEL_ARRAY_REDUCE_SUM, &x, 2, 0, &o1));
    REFUSED(accel_array_var(q, &x, 2, 0.0, 0, &o1));
    REFUSED(accel_array_cumulative_sum(q, &x1, 0, 0, &o1));
    REFUSED(accel_array_concat(q, 2, xs, 1, &o48));
    REFUSED(accel_array_stack(q, 1, xs, 0, &o));
    REFUSED(accel_array_roll(q, &x, 1, &sh, &ax, &o));
    REFUSED(accel_array_repeat(q, &x1, 1, &rep, 0, &o16));
    REFUSED(accel_array_tile(q, &x, 2, reps, &o));
    REFUSED(accel_array_reshape_copy(q, &x, &o16));
    REFUSED(accel_array_full(q, &o, 1.0));
    REFUSED(accel_array_arange(q, 0, 4, 1, &o1));
    REFUSED(accel_array_linspace(q, 0, 1, 1, &o1));
    REFUSED(accel_array_eye(q, 0, &o));
    REFUSED(accel_array_tril(q, &x, 0, &o));
    REFUSED(accel_array_take(q, &x1, &idx, 0, &o1));
    REFUSED(accel_array_scatter(q, &o1, &idx, 0, &x1));
    /* sort names its own rule: out row-major (it sorts in place there) */
    cr_expect_eq(accel_array_sort(q, &x1, 0, 0, &o1), ACCEL_ERROR_INVALID_ARGUMENT);
    REFUSED(accel_array_matmul(q, &x, &x, &o));
    REFUSED(accel_array_linalg_inv(q, &x, &o));
    REFUSED(accel_array_fftfreq(q, 4, 1.0, &o1));
#undef REFUSED
    tu_ok(accel_queue_finish(q));
    float after[250];
    tu_ok(accel_queue_read_blocking(q, buf, 0, after, sizeof after));
    cr_expect(memcmp(init, after, sizeof init) == 0, "a refused call wrote the buffer");
    accel_queue_release(q);
}
