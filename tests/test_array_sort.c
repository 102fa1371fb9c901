/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_array_sort.c — accel_array_sort and accel_sort_segments (the
 * ACCEL_OP_SORT op): every real dtype x axis x ascending/descending on a
 * contiguous and on a transposed, reversed view, against a reference of the
 * test's own (C's qsort on (value, original index) pairs with the documented
 * order: NaNs last, -0 == +0, ties by index), compared bit for bit, which
 * checks sortedness, the permutation and stability at once; in place;
 * every device of the runtime (the CUDA suite runs the same on the GPU);
 * the paths of cpu:0's radix sort (lengths around its insertion cutoffs,
 * skipped passes, NaN payloads and -0 of every float dtype, strided lines,
 * equal keys); bad input with out untouched; matrix_transpose. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "accel/verify.h"
#include "test_array_common.h"

/* ------------------------------------------------------------ reference */

typedef struct keyed {
    val v;
    int64_t index;
} keyed;

static accel_dtype g_dt; /* qsort's comparator has no context */
static int g_desc;

static int cmp_keyed(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    int c = sort_order(g_dt, a->v, b->v);
    if (g_desc)
        c = -c;
    if (c)
        return c;
    return a->index < b->index ? -1 : a->index > b->index; /* stable */
}

/* ------------------------------------------------------------ one case */

/* A (rows x cols) view of dt, sorted along axis into a contiguous out;
 * transposed: x is the transpose of a (cols x rows) buffer, reversed along
 * its first axis. Returns the elements checked. */
static unsigned run_sort(env *e, tu_rng *r, accel_dtype dt, int64_t rows, int64_t cols, int axis,
                         int desc, bool transposed)
{
    size_t es = accel_dtype_size(dt), n = (size_t)(rows * cols);
    unsigned char *hx = malloc(n * es), *got = malloc(n * es), *want = malloc(n * es);
    fill(r, dt, false, hx, n);
    if (n > 20) { /* repeats, so stability matters */
        memcpy(hx + 12 * es, hx + 3 * es, es);
        memcpy(hx + 13 * es, hx + 3 * es, es);
    }
    accel_buffer *bx = upload(e, hx, n * es), *bo = upload(e, NULL, n * es);
    accel_array x, out;
    const int64_t shape[] = {rows, cols}, tshape[] = {cols, rows};
    if (transposed) {
        accel_array base;
        tu_ok(accel_array_init(&base, bx, dt, 2, tshape));
        const int32_t perm[] = {1, 0};
        tu_ok(accel_array_permute_dims(&base, perm, &x));
        tu_ok(accel_array_flip(&x, 1u, &x));
    } else {
        tu_ok(accel_array_init(&x, bx, dt, 2, shape));
    }
    tu_ok(accel_array_init(&out, bo, dt, 2, shape));
    tu_ok(accel_array_sort(e->q, &x, axis, desc, &out));
    tu_ok(accel_queue_read_blocking(e->q, bo, 0, got, n * es));
    /* argsort of a contiguous x: the reference's indices exactly */
    int64_t *gidx = malloc(n * 8), *widx = malloc(n * 8);
    accel_buffer *bi = upload(e, NULL, n * 8);
    accel_array oidx;
    tu_ok(accel_array_init(&oidx, bi, ACCEL_I64, 2, shape));
    if (!transposed) {
        tu_ok(accel_array_argsort(e->q, &x, axis, desc, &oidx));
        tu_ok(accel_queue_read_blocking(e->q, bi, 0, gidx, n * 8));
    }
    /* The reference: x's logical elements, each line sorted by qsort. */
    int ax = axis < 0 ? axis + 2 : axis;
    int64_t len = ax == 0 ? rows : cols, lines = ax == 0 ? cols : rows;
    keyed *line = malloc((size_t)len * sizeof *line);
    g_dt = dt, g_desc = desc;
    for (int64_t l = 0; l < lines; l++) {
        for (int64_t j = 0; j < len; j++) {
            int64_t i = ax == 0 ? j : l, k = ax == 0 ? l : j; /* x's (i, k) */
            int64_t src = transposed ? k * rows + (rows - 1 - i) : i * cols + k;
            line[j] = (keyed){get(hx, dt, (size_t)src), j};
        }
        qsort(line, (size_t)len, sizeof *line, cmp_keyed);
        unsigned char tmp[8];
        for (int64_t j = 0; j < len; j++) {
            int64_t i = ax == 0 ? j : l, k = ax == 0 ? l : j;
            int64_t src_j = line[j].index;
            int64_t si = ax == 0 ? src_j : l, sk = ax == 0 ? l : src_j;
            int64_t src = transposed ? sk * rows + (rows - 1 - si) : si * cols + sk;
            memcpy(tmp, hx + (size_t)src * es, es);
            memcpy(want + (size_t)(i * cols + k) * es, tmp, es);
            widx[i * cols + k] = src_j;
        }
    }
    for (size_t i = 0; i < n; i++)
        cr_assert(memcmp(got + i * es, want + i * es, es) == 0,
                  "%s %s (%lld, %lld) axis %d%s%s: element %zu is %g, want %g",
                  accel_device_name(accel_buffer_device(bo)), accel_dtype_name(dt), (long long)rows,
                  (long long)cols, axis, desc ? " descending" : "", transposed ? " transposed" : "",
                  i, is_float(dt) ? get(got, dt, i).f : (double)get(got, dt, i).i,
                  is_float(dt) ? get(want, dt, i).f : (double)get(want, dt, i).i);
    for (size_t i = 0; !transposed && i < n; i++)
        cr_assert(gidx[i] == widx[i],
                  "%s argsort (%lld, %lld) axis %d%s: index %zu is %lld, want %lld",
                  accel_dtype_name(dt), (long long)rows, (long long)cols, axis,
                  desc ? " descending" : "", i, (long long)gidx[i], (long long)widx[i]);
    free(gidx);
    free(widx);
    accel_buffer_release(bi);
    free(line);
    free(hx);
    free(got);
    free(want);
    accel_buffer_release(bx);
    accel_buffer_release(bo);
    return (unsigned)n;
}

static void every_dtype(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    tu_rng r = tu_rng_make(40);
    unsigned checked = 0;
    for (size_t d = 0; d < NDT; d++)
        for (int c = 0; c < 8; c++)
            checked +=
                run_sort(&e, &r, all_dtypes[d], 37, 5, c % 2 ? -1 : 0, c / 2 % 2, c / 4 == 1);
    /* one long line (the 1-D case) and odd sizes */
    checked += run_sort(&e, &r, ACCEL_F32, 1, 100003, 1, 0, false);
    checked += run_sort(&e, &r, ACCEL_I64, 3, 4099, -1, 1, true);
    checked += run_sort(&e, &r, ACCEL_U8, 1, 1, 0, 0, false);
    cr_assert_gt(checked, 100000u, "elements checked: %u", checked);
}

Test(array_sort, every_dtype_axis_order_and_view)
{
    accel_runtime *rt = array_runtime(NULL, NULL);
    tu_for_each_device(rt, every_dtype, NULL);
    accel_runtime_close(rt);
}

/* A 3-D sort along the middle axis (lines k apart), in place. */
static void middle_axis_in_place(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    enum { A = 3, B = 50, C = 7 };
    double h[A * B * C], got[A * B * C];
    for (int i = 0; i < A * B * C; i++)
        h[i] = (double)((i * 7919) % 101) - 50.0 + (i % 3 == 0 ? -0.0 : 0.0);
    accel_buffer *b = upload(&e, h, sizeof h);
    accel_array x;
    const int64_t shape[] = {A, B, C};
    tu_ok(accel_array_init(&x, b, ACCEL_F64, 3, shape));
    tu_ok(accel_array_sort(q, &x, 1, 0, &x));
    tu_ok(accel_queue_read_blocking(q, b, 0, got, sizeof got));
    for (int a = 0; a < A; a++)
        for (int c = 0; c < C; c++) {
            double line[B];
            for (int j = 0; j < B; j++)
                line[j] = h[(a * B + j) * C + c];
            /* insertion sort: stable, plain */
            for (int j = 1; j < B; j++)
                for (int k = j; k > 0 && line[k - 1] > line[k]; k--) {
                    double t = line[k];
                    line[k] = line[k - 1], line[k - 1] = t;
                }
            for (int j = 0; j < B; j++)
                cr_assert(got[(a * B + j) * C + c] == line[j] &&
                              signbit(got[(a * B + j) * C + c]) == signbit(line[j]),
                          "(%d, %d, %d): %g want %g", a, j, c, got[(a * B + j) * C + c], line[j]);
        }
    accel_buffer_release(b);
}

Test(array_sort, middle_axis_in_place)
{
    accel_runtime *rt = array_runtime(NULL, NULL);
    tu_for_each_device(rt, middle_axis_in_place, NULL);
    accel_runtime_close(rt);
}

/* One line of float32 or float64 (the CUDA backend sorts it with CUB's
 * own float keys and fixes the NaNs up on the device): -0 and +0, NaNs of
 * both signs and four payloads at random places, a few repeats; both
 * orders, out of place and in place; bit for bit against the reference
 * (every NaN last ascending and first descending, each run in input
 * order). */
static void one_line_of_nans_and_zeros(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    tu_rng r = tu_rng_make(41);
    /* (length, 4 in `spread` elements a -0, +0, NaN or an infinity, the
     * others small integers; 1: numbers alone, no NaN (the fix-up's early
     * exits); 0: every one a NaN): dense, short and past 256 x the CUDA
     * backend's most blocks (NaNs in many tiles of one chunk); sparse
     * across many chunks; numbers alone; NaNs alone */
    static const struct {
        size_t n;
        uint64_t spread;
    } lines[] = {{4099, 8}, {1 << 20, 8}, {300007, 6000}, {100003, 1}, {1 << 16, 0}};
    const size_t nlines = sizeof lines / sizeof *lines;
    for (size_t c = 0; c < 8 * nlines; c++) {
        bool f64 = c & 1, desc = c & 2, in_place = c & 4;
        const size_t N = lines[c / 8].n;
        const uint64_t spread = lines[c / 8].spread;
        accel_dtype dt = f64 ? ACCEL_F64 : ACCEL_F32;
        size_t es = accel_dtype_size(dt);
        unsigned char *hx = malloc(N * es), *got = malloc(N * es), *want = malloc(N * es);
        for (size_t i = 0; i < N; i++) {
            uint64_t pick = spread == 0   ? 2
                            : spread == 1 ? 4
                                          : tu_rng_next(&r) % spread,
                     sign = tu_rng_next(&r) & 1, payload = tu_rng_next(&r) % 4;
            double d = (double)((int64_t)(tu_rng_next(&r) % 21) - 10);
            if (f64) {
                uint64_t b;
                memcpy(&b, &d, 8);
                b = pick == 0   ? 0x8000000000000000ull
                    : pick == 1 ? 0
                    : pick == 2 ? 0x7ff8000000000000ull | payload | (sign << 63)
                    : pick == 3 ? 0x7ff0000000000000ull | (sign << 63)
                                : b;
                memcpy(hx + i * 8, &b, 8);
            } else {
                float f = (float)d;
                uint32_t b;
                memcpy(&b, &f, 4);
                b = pick == 0   ? 0x80000000u
                    : pick == 1 ? 0
                    : pick == 2 ? 0x7fc00000u | (uint32_t)payload | (uint32_t)(sign << 31)
                    : pick == 3 ? 0x7f800000u | (uint32_t)(sign << 31)
                                : b;
                memcpy(hx + i * 4, &b, 4);
            }
        }
        accel_buffer *bx = upload(&e, hx, N * es), *bo = in_place ? bx : upload(&e, NULL, N * es);
        const int64_t shape[] = {N};
        accel_array x, out;
        tu_ok(accel_array_init(&x, bx, dt, 1, shape));
        tu_ok(accel_array_init(&out, bo, dt, 1, shape));
        tu_ok(accel_array_sort(q, &x, 0, desc, &out));
        tu_ok(accel_queue_read_blocking(q, bo, 0, got, N * es));
        keyed *line = malloc(N * sizeof *line);
        for (size_t j = 0; j < N; j++)
            line[j] = (keyed){get(hx, dt, j), (int64_t)j};
        g_dt = dt, g_desc = desc;
        qsort(line, N, sizeof *line, cmp_keyed);
        for (size_t j = 0; j < N; j++)
            memcpy(want + j * es, hx + (size_t)line[j].index * es, es);
        for (size_t j = 0; j < N; j++) {
            uint64_t gb = 0, wb = 0;
            memcpy(&gb, got + j * es, es);
            memcpy(&wb, want + j * es, es);
            cr_assert(gb == wb, "%s %s%s%s: element %zu has bits %#llx, want %#llx (%g)",
                      accel_device_name(dev), accel_dtype_name(dt), desc ? " descending" : "",
                      in_place ? " in place" : "", j, (unsigned long long)gb,
                      (unsigned long long)wb, get(want, dt, j).f);
        }
        free(line);
        free(hx);
        free(got);
        free(want);
        if (!in_place)
            accel_buffer_release(bo);
        accel_buffer_release(bx);
    }
}

Test(array_sort, one_line_of_nans_and_zeros)
{
    accel_runtime *rt = array_runtime(NULL, NULL);
    tu_for_each_device(rt, one_line_of_nans_and_zeros, NULL);
    accel_runtime_close(rt);
}

Test(array_sort, bad_input_leaves_out_untouched)
{
    accel_runtime *rt = array_runtime(NULL, NULL);
    accel_device *dev;
    accel_queue *q;
    tu_ok(accel_device_get_by_name(rt, "cpu:0", &dev));
    tu_ok(accel_queue_create(dev, &q));
    env e = {dev, q};
    float host[24];
    for (int i = 0; i < 24; i++)
        host[i] = (float)(24 - i);
    accel_buffer *bx = upload(&e, host, sizeof host), *bo = upload(&e, host, sizeof host);
    const int64_t s46[] = {4, 6}, s64[] = {6, 4};
    accel_array x, out;
    tu_ok(accel_array_init(&x, bx, ACCEL_F32, 2, s46));
    tu_ok(accel_array_init(&out, bo, ACCEL_F32, 2, s46));
    tu_assert_status(accel_array_sort(q, &x, 2, 0, &out), ACCEL_ERROR_INVALID_ARGUMENT, "axis 2");
    cr_assert(strstr(accel_last_error(), "axis 2"), "%s", accel_last_error());
    tu_assert_status(accel_array_sort(q, &x, -3, 0, &out), ACCEL_ERROR_INVALID_ARGUMENT, "axis -3");
    accel_array o2;
    tu_ok(accel_array_init(&o2, bo, ACCEL_F32, 2, s64));
    tu_assert_status(accel_array_sort(q, &x, 0, 0, &o2), ACCEL_ERROR_SHAPE_MISMATCH, "shape");
    cr_assert(strncmp(accel_last_error(), "accel_array_sort: ", 18) == 0, "%s",
              accel_last_error()); /* not the copy it makes inside */
    accel_array ot;
    const int32_t perm[] = {1, 0};
    tu_ok(accel_array_permute_dims(&o2, perm, &ot));
    tu_assert_status(accel_array_sort(q, &x, 0, 0, &ot), ACCEL_ERROR_INVALID_ARGUMENT,
                     "out not contiguous");
    cr_assert(strstr(accel_last_error(), "contiguous"), "%s", accel_last_error());
    accel_array oi = out;
    oi.dtype = ACCEL_I32;
    tu_assert_status(accel_array_sort(q, &x, 0, 0, &oi), ACCEL_ERROR_DTYPE_MISMATCH, "dtype");
    accel_array oc;
    const int64_t s43[] = {4, 3};
    tu_ok(accel_array_init(&oc, bo, ACCEL_C64, 2, s43));
    tu_assert_status(accel_array_sort(q, &x, 0, 0, &oc), ACCEL_ERROR_DTYPE_MISMATCH, "complex");
    accel_array part = out; /* out overlapping x other than exactly */
    part.buffer = bx, part.offset = 4;
    part.shape[0] = 3;
    accel_array x3 = x;
    x3.shape[0] = 3;
    tu_assert_status(accel_array_sort(q, &x3, 0, 0, &part), ACCEL_ERROR_INVALID_ARGUMENT,
                     "overlap");
    tu_assert_status(accel_array_sort(q, &x, 0, 0, NULL), ACCEL_ERROR_INVALID_ARGUMENT, "NULL");
    /* the buffer-level op */
    accel_slice sx = accel_slice_of(bx, 0, 24), so = accel_slice_of(bo, 0, 24);
    tu_assert_status(accel_sort_segments(q, ACCEL_F32, 2, 5, 2, 0, sx, so),
                     ACCEL_ERROR_SHAPE_MISMATCH, "2*5*2 != 24");
    tu_assert_status(accel_sort_segments(q, ACCEL_C64, 1, 12, 1, 0, accel_slice_of(bx, 0, 12),
                                         accel_slice_of(bo, 0, 12)),
                     ACCEL_ERROR_DTYPE_MISMATCH, "complex");
    tu_assert_status(accel_sort_segments(q, ACCEL_F32, 1, 24, 1, 0, sx, accel_slice_of(bx, 1, 24)),
                     ACCEL_ERROR_OUT_OF_RANGE, "out past the buffer");
    tu_assert_status(accel_sort_segments(q, ACCEL_F32, 1, 20, 1, 0, accel_slice_of(bx, 0, 20),
                                         accel_slice_of(bx, 2, 20)),
                     ACCEL_ERROR_INVALID_ARGUMENT, "partial overlap");
    /* argsort */
    accel_array oi64 = out;
    oi64.dtype = ACCEL_I64;
    const int64_t s43b[] = {4, 3};
    tu_ok(accel_array_init(&oi64, bo, ACCEL_I64, 2, s43b));
    accel_array x43 = x;
    tu_ok(accel_array_init(&x43, bx, ACCEL_F32, 2, s43b));
    tu_assert_status(accel_array_argsort(q, &x43, 0, 0, &out), ACCEL_ERROR_DTYPE_MISMATCH,
                     "argsort out f32");
    tu_assert_status(accel_array_argsort(q, &x43, 2, 0, &oi64), ACCEL_ERROR_INVALID_ARGUMENT,
                     "argsort axis 2");
    accel_array xt;
    tu_ok(accel_array_permute_dims(&x43, perm, &xt));
    accel_array o34;
    const int64_t s34[] = {3, 4};
    tu_ok(accel_array_init(&o34, bo, ACCEL_I64, 2, s34));
    tu_assert_status(accel_array_argsort(q, &xt, 0, 0, &o34), ACCEL_ERROR_INVALID_ARGUMENT,
                     "argsort of a strided x");
    tu_assert_status(accel_array_argsort(q, &x, 0, 0, &oi64), ACCEL_ERROR_SHAPE_MISMATCH,
                     "argsort shapes");
    accel_array oin = oi64; /* out's bytes inside x's */
    oin.buffer = bx;
    tu_assert_status(accel_array_argsort(q, &x43, 0, 0, &oin), ACCEL_ERROR_INVALID_ARGUMENT,
                     "argsort overlap");
    tu_assert_status(accel_argsort_segments(q, ACCEL_F32, 1, 12, 1, 0, accel_slice_of(bx, 0, 12),
                                            accel_slice_of(bo, 0, 13)),
                     ACCEL_ERROR_OUT_OF_RANGE, "12 int64 fit, 13 do not");
    float back[24];
    tu_ok(accel_queue_read_blocking(q, bo, 0, back, sizeof back));
    cr_assert(memcmp(back, host, sizeof back) == 0, "out changed by refused calls");
    tu_ok(accel_queue_read_blocking(q, bx, 0, back, sizeof back));
    cr_assert(memcmp(back, host, sizeof back) == 0, "x changed by refused calls");
    accel_buffer_release(bx);
    accel_buffer_release(bo);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

Test(array_sort, matrix_transpose_is_a_view)
{
    accel_runtime *rt = array_runtime(NULL, NULL);
    accel_device *dev;
    tu_ok(accel_device_get_by_name(rt, "cpu:0", &dev));
    accel_buffer *b;
    tu_ok(accel_buffer_create(dev, 2 * 3 * 4 * 8, &b));
    accel_array x, t;
    const int64_t s[] = {2, 3, 4};
    tu_ok(accel_array_init(&x, b, ACCEL_F64, 3, s));
    tu_ok(accel_array_matrix_transpose(&x, &t));
    cr_assert(t.shape[0] == 2 && t.shape[1] == 4 && t.shape[2] == 3);
    cr_assert(t.strides[0] == 12 && t.strides[1] == 1 && t.strides[2] == 4);
    cr_assert(t.offset == 0 && t.buffer == b);
    accel_array v;
    tu_ok(accel_array_init(&v, b, ACCEL_F64, 1, s));
    tu_assert_status(accel_array_matrix_transpose(&v, &t), ACCEL_ERROR_INVALID_ARGUMENT, "1-D");
    accel_buffer_release(b);
    accel_runtime_close(rt);
}

/* Verify mode runs sort and argsort again on the reference and compares bit
 * for bit (argsort's int64 output next to f32/u8 keys: the per-operand
 * element sizes of the hooks); none may mismatch, each is counted. */
Test(array_sort, verify_mode_checks_sort_and_argsort)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_verify_runtime(&dev, &q);
    env e = {dev, q};
    tu_rng r = tu_rng_make(41);
    static const accel_dtype dts[] = {ACCEL_F32, ACCEL_U8, ACCEL_I64, ACCEL_F16};
    const int64_t shape[] = {9, 33};
    for (size_t d = 0; d < 4; d++) {
        accel_dtype dt = dts[d];
        size_t es = accel_dtype_size(dt);
        unsigned char h[9 * 33 * 8];
        fill(&r, dt, false, h, 9 * 33);
        accel_buffer *bx = upload(&e, h, 9 * 33 * es), *bo = upload(&e, NULL, 9 * 33 * es),
                     *bi = upload(&e, NULL, 9 * 33 * 8);
        accel_array x, out, idx;
        tu_ok(accel_array_init(&x, bx, dt, 2, shape));
        tu_ok(accel_array_init(&out, bo, dt, 2, shape));
        tu_ok(accel_array_init(&idx, bi, ACCEL_I64, 2, shape));
        tu_ok(accel_array_sort(q, &x, 0, 1, &out));
        tu_ok(accel_array_argsort(q, &x, 1, 0, &idx));
        tu_ok(accel_queue_finish(q));
        accel_buffer_release(bx), accel_buffer_release(bo), accel_buffer_release(bi);
    }
    /* per dtype: the copy into out, the sort, the argsort */
    assert_all_verified(rt, 8);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

/* ------------------------------------------------------------ the CPU's radix sort */

/* The CPU backend sorts with an LSD radix sort on keys made from the bits
 * (backends/cpu/sort.cc): lines under 26 to 96 elements (by key width) by
 * insertion, longer ones in 8-bit passes, a pass skipped where every key
 * has the same digit, float lines with a -0 or a NaN as (key, bits) pairs.
 * These cases aim at each of those paths on cpu:0 (the suites above run
 * every device). */

/* The bits of element i of p (of dt) as an integer, for messages. */
static unsigned long long bits_at(const void *p, accel_dtype dt, size_t i)
{
    uint64_t b = 0;
    memcpy(&b, (const char *)p + i * accel_dtype_size(dt), accel_dtype_size(dt));
    return (unsigned long long)b;
}

/* hx (rows x cols of dt, contiguous) sorted and argsorted along axis on
 * cpu:0 into new buffers; every element checked bit for bit, and every
 * index exactly, against the qsort reference on (value, index) pairs. */
static void check_sorts(env *e, accel_dtype dt, int64_t rows, int64_t cols, int axis, int desc,
                        const void *hx, const char *what)
{
    size_t es = accel_dtype_size(dt), n = (size_t)(rows * cols);
    const int64_t shape[] = {rows, cols};
    unsigned char *got = malloc(n * es + 1), *want = malloc(n * es + 1);
    int64_t *gidx = malloc(n * 8 + 8), *widx = malloc(n * 8 + 8);
    accel_buffer *bx = upload(e, hx, n * es), *bo = upload(e, NULL, n * es),
                 *bi = upload(e, NULL, n * 8);
    accel_array x, out, idx;
    tu_ok(accel_array_init(&x, bx, dt, 2, shape));
    tu_ok(accel_array_init(&out, bo, dt, 2, shape));
    tu_ok(accel_array_init(&idx, bi, ACCEL_I64, 2, shape));
    tu_ok(accel_array_sort(e->q, &x, axis, desc, &out));
    tu_ok(accel_array_argsort(e->q, &x, axis, desc, &idx));
    tu_ok(accel_queue_finish(e->q));
    if (n) {
        tu_ok(accel_queue_read_blocking(e->q, bo, 0, got, n * es));
        tu_ok(accel_queue_read_blocking(e->q, bi, 0, gidx, n * 8));
    }
    /* a line: len elements step apart from start */
    int64_t len = axis == 0 ? rows : cols, lines = axis == 0 ? cols : rows;
    size_t step = axis == 0 ? (size_t)cols : 1;
    keyed *line = malloc((size_t)len * sizeof *line + sizeof *line);
    g_dt = dt, g_desc = desc;
    for (int64_t l = 0; len && l < lines; l++) {
        size_t start = axis == 0 ? (size_t)l : (size_t)l * (size_t)cols;
        for (int64_t j = 0; j < len; j++)
            line[j] = (keyed){get(hx, dt, start + (size_t)j * step), j};
        qsort(line, (size_t)len, sizeof *line, cmp_keyed);
        for (int64_t j = 0; j < len; j++) {
            size_t to = start + (size_t)j * step, from = start + (size_t)line[j].index * step;
            memcpy(want + to * es, (const char *)hx + from * es, es);
            widx[to] = line[j].index;
        }
    }
    for (size_t i = 0; i < n; i++) {
        cr_assert(memcmp(got + i * es, want + i * es, es) == 0,
                  "%s: %s (%lld, %lld) axis %d%s: element %zu has bits %#llx, want %#llx", what,
                  accel_dtype_name(dt), (long long)rows, (long long)cols, axis,
                  desc ? " descending" : "", i, bits_at(got, dt, i), bits_at(want, dt, i));
        cr_assert(gidx[i] == widx[i],
                  "%s: argsort %s (%lld, %lld) axis %d%s: index %zu is %lld, want %lld", what,
                  accel_dtype_name(dt), (long long)rows, (long long)cols, axis,
                  desc ? " descending" : "", i, (long long)gidx[i], (long long)widx[i]);
    }
    free(line);
    free(got), free(want), free(gidx), free(widx);
    accel_buffer_release(bx), accel_buffer_release(bo), accel_buffer_release(bi);
}

/* cpu:0 and a queue on it. */
static accel_runtime *cpu_env(env *e)
{
    return array_runtime(&e->dev, &e->q);
}

static void cpu_env_close(accel_runtime *rt, env *e)
{
    accel_queue_release(e->q);
    accel_runtime_close(rt);
}

/* Every dtype, one line of every length around the insertion/radix
 * boundaries and long ones (several passes, mixed digits; small integers,
 * where the high passes are skipped), both directions. */
Test(array_sort, cpu_radix_every_dtype_and_length)
{
    env e;
    accel_runtime *rt = cpu_env(&e);
    tu_rng r = tu_rng_make(42);
    static const int64_t lens[] = {0,  1,  2,  3,  25, 26, 27,  35,   36,    37,
                                   55, 56, 57, 95, 96, 97, 300, 4097, 70001, 70001};
    enum { NLEN = sizeof lens / sizeof lens[0] };
    unsigned char *h = malloc(70001 * 8);
    for (size_t d = 0; d < NDT; d++)
        for (size_t l = 0; l < NLEN; l++) {
            fill(&r, all_dtypes[d], l % 2 == 1, h, (size_t)lens[l]);
            for (int desc = 0; desc < 2; desc++)
                check_sorts(&e, all_dtypes[d], 1, lens[l], 1, desc, h,
                            l % 2 ? "small values" : "fill's values");
        }
    free(h);
    cpu_env_close(rt, &e);
}

/* One random float from a small set of integers (so values repeat)
 * or a wide range, never -0 or NaN. */
static double plain_float(tu_rng *r)
{
    uint64_t pick = tu_rng_next(r) % 3;
    double v = pick == 0   ? (double)((int64_t)(tu_rng_next(r) % 41) - 20)
               : pick == 1 ? tu_rng_wide(r, -20, 20)
                           : tu_rng_range(r, -1000.0, 1000.0);
    return v == 0 ? 0.0 : v;
}

/* Float lines without -0 and NaN (sorted as keys alone, the values made
 * back from them), with +0 and the infinities; then the same with one -0,
 * and with one NaN, which each switch the line to (key, bits) pairs. */
Test(array_sort, cpu_radix_floats_keys_alone_and_pairs)
{
    env e;
    accel_runtime *rt = cpu_env(&e);
    tu_rng r = tu_rng_make(43);
    static const accel_dtype fdts[] = {ACCEL_F16, ACCEL_BF16, ACCEL_F32, ACCEL_F64};
    static const int64_t lens[] = {30, 50, 100, 70001};
    unsigned char *h = malloc(70001 * 8);
    for (size_t d = 0; d < 4; d++)
        for (size_t l = 0; l < 4; l++)
            for (int c = 0; c < 3; c++) {
                accel_dtype dt = fdts[d];
                size_t n = (size_t)lens[l];
                for (size_t i = 0; i < n; i++)
                    put(h, dt, i, (val){.f = plain_float(&r)});
                put(h, dt, 3, (val){.f = 0.0});
                put(h, dt, n / 2, (val){.f = INFINITY});
                put(h, dt, n - 1, (val){.f = -INFINITY});
                if (c)
                    put(h, dt, (size_t)(tu_rng_next(&r) % n), (val){.f = c == 1 ? -0.0 : NAN});
                for (int desc = 0; desc < 2; desc++)
                    check_sorts(&e, dt, 1, lens[l], 1, desc, h,
                                c == 0   ? "no -0 or NaN"
                                : c == 1 ? "one -0"
                                         : "one NaN");
            }
    free(h);
    cpu_env_close(rt, &e);
}

/* A NaN of float dtype dt: either sign, a random nonzero payload (quiet
 * or signalling). */
static uint64_t nan_bits(tu_rng *r, accel_dtype dt)
{
    int mant = dt == ACCEL_F16 ? 10 : dt == ACCEL_BF16 ? 7 : dt == ACCEL_F32 ? 23 : 52;
    uint64_t sign = 1ull << (bits(dt) - 1), inf = (sign - 1) & ~((1ull << mant) - 1);
    return (tu_rng_next(r) & 1 ? sign : 0) | inf | (1 + tu_rng_next(r) % ((1ull << mant) - 1));
}

/* The bits of a float of dt: +0, -0, a NaN, +-inf or a small integer. */
static uint64_t special_bits(tu_rng *r, accel_dtype dt)
{
    static const double some[] = {0.0, -0.0, INFINITY, -INFINITY, -4, -1, 1, 2, 3};
    uint64_t pick = tu_rng_next(r) % 11;
    if (pick >= 9)
        return nan_bits(r, dt);
    unsigned char one[8] = {0};
    put(one, dt, 0, (val){.f = some[pick]});
    return bits_at(one, dt, 0);
}

/* -0/+0 mixes and NaNs with payloads and both signs among a few repeated
 * values, every float dtype, contiguous and strided lines, both
 * directions: the output's bits exactly (zeros and NaNs each in input
 * order, NaNs last ascending and first descending) and the indices. */
Test(array_sort, cpu_radix_nan_payloads_and_signed_zeros)
{
    env e;
    accel_runtime *rt = cpu_env(&e);
    tu_rng r = tu_rng_make(44);
    static const accel_dtype fdts[] = {ACCEL_F16, ACCEL_BF16, ACCEL_F32, ACCEL_F64};
    static const int64_t shapes[][3] = {{1, 20, 1},    {1, 40, 1}, {1, 200, 1},
                                        {1, 70001, 1}, {40, 3, 0}, {23335, 3, 0}};
    unsigned char *h = malloc(70005 * 8);
    for (size_t d = 0; d < 4; d++)
        for (size_t s = 0; s < 6; s++) {
            size_t n = (size_t)(shapes[s][0] * shapes[s][1]), es = accel_dtype_size(fdts[d]);
            for (size_t i = 0; i < n; i++) {
                uint64_t b = special_bits(&r, fdts[d]);
                memcpy(h + i * es, &b, es);
            }
            for (int desc = 0; desc < 2; desc++)
                check_sorts(&e, fdts[d], shapes[s][0], shapes[s][1], (int)shapes[s][2], desc, h,
                            "NaNs and zeros");
        }
    free(h);
    cpu_env_close(rt, &e);
}

/* Lines k apart (sorting along axis 0 of a 2-D array), every dtype, short
 * and long, both directions. */
Test(array_sort, cpu_radix_strided_lines)
{
    env e;
    accel_runtime *rt = cpu_env(&e);
    tu_rng r = tu_rng_make(45);
    static const int64_t shapes[][2] = {{37, 3}, {130, 2}, {23335, 3}};
    unsigned char *h = malloc(70005 * 8);
    for (size_t d = 0; d < NDT; d++)
        for (size_t s = 0; s < 3; s++) {
            fill(&r, all_dtypes[d], s == 1, h, (size_t)(shapes[s][0] * shapes[s][1]));
            for (int desc = 0; desc < 2; desc++)
                check_sorts(&e, all_dtypes[d], shapes[s][0], shapes[s][1], 0, desc, h, "axis 0");
        }
    free(h);
    cpu_env_close(rt, &e);
}

/* Lines whose keys are all equal (every radix pass skipped): one value
 * repeated, +0 and -0 mixed, NaNs of many payloads and both signs; sort
 * must give x back bit for bit and argsort 0..n-1, in both directions. */
Test(array_sort, cpu_radix_all_equal_keys)
{
    env e;
    accel_runtime *rt = cpu_env(&e);
    tu_rng r = tu_rng_make(46);
    static const int64_t lens[] = {20, 1000};
    unsigned char *h = malloc(1000 * 8), *got = malloc(1000 * 8);
    int64_t *idx = malloc(1000 * 8);
    for (size_t d = 0; d < NDT; d++)
        for (int c = 0; c < (is_float(all_dtypes[d]) ? 3 : 1); c++)
            for (size_t l = 0; l < 2; l++)
                for (int desc = 0; desc < 2; desc++) {
                    accel_dtype dt = all_dtypes[d];
                    size_t n = (size_t)lens[l], es = accel_dtype_size(dt);
                    unsigned char one[3 * 8];
                    fill(&r, dt, false, one, 3); /* element 2: -1, +inf (bool: 0 or 1) */
                    for (size_t i = 0; i < n; i++) {
                        uint64_t b = c == 0   ? bits_at(one, dt, 2)
                                     : c == 1 ? (tu_rng_next(&r) & 1) << (bits(dt) - 1)
                                              : nan_bits(&r, dt);
                        memcpy(h + i * es, &b, es);
                    }
                    const int64_t shape[] = {(int64_t)n};
                    accel_buffer *bx = upload(&e, h, n * es), *bo = upload(&e, NULL, n * es),
                                 *bi = upload(&e, NULL, n * 8);
                    accel_array x, out, oi;
                    tu_ok(accel_array_init(&x, bx, dt, 1, shape));
                    tu_ok(accel_array_init(&out, bo, dt, 1, shape));
                    tu_ok(accel_array_init(&oi, bi, ACCEL_I64, 1, shape));
                    tu_ok(accel_array_sort(e.q, &x, 0, desc, &out));
                    tu_ok(accel_array_argsort(e.q, &x, 0, desc, &oi));
                    tu_ok(accel_queue_read_blocking(e.q, bo, 0, got, n * es));
                    tu_ok(accel_queue_read_blocking(e.q, bi, 0, idx, n * 8));
                    for (size_t i = 0; i < n; i++)
                        cr_assert(memcmp(got + i * es, h + i * es, es) == 0 && idx[i] == (int64_t)i,
                                  "%s case %d n %zu%s: element %zu bits %#llx (want %#llx), "
                                  "index %lld",
                                  accel_dtype_name(dt), c, n, desc ? " descending" : "", i,
                                  bits_at(got, dt, i), bits_at(h, dt, i), (long long)idx[i]);
                    accel_buffer_release(bx), accel_buffer_release(bo), accel_buffer_release(bi);
                }
    free(h), free(got), free(idx);
    cpu_env_close(rt, &e);
}

/* Lines of one value but for a single other one (smaller or larger, a NaN
 * or -0 among floats) at a random place: every pass but those where the
 * odd key's digit differs is skipped, and those must still run. */
Test(array_sort, cpu_radix_one_key_apart)
{
    env e;
    accel_runtime *rt = cpu_env(&e);
    tu_rng r = tu_rng_make(47);
    static const int64_t lens[] = {20, 1000, 70001};
    unsigned char *h = malloc(70001 * 8), two[16];
    for (size_t d = 0; d < NDT; d++)
        for (int c = 0; c < 4; c++)
            for (size_t l = 0; l < 3; l++) {
                accel_dtype dt = all_dtypes[d];
                size_t n = (size_t)lens[l], es = accel_dtype_size(dt);
                /* the common value 2 (bool 1); the odd one -1, 3, or NaN, -0 (bool 0) */
                static const double odd[] = {-1.0, 3.0, NAN, -0.0};
                int64_t odd_i = dt == ACCEL_BOOL ? 0 : c % 2 ? 3 : -1;
                put(two, dt, 0, is_float(dt) ? (val){.f = 2.0} : (val){.i = 2});
                put(two, dt, 1, is_float(dt) ? (val){.f = odd[c]} : (val){.i = odd_i});
                for (size_t i = 0; i < n; i++)
                    memcpy(h + i * es, two, es);
                memcpy(h + (tu_rng_next(&r) % n) * es, two + es, es);
                for (int desc = 0; desc < 2; desc++)
                    check_sorts(&e, dt, 1, lens[l], 1, desc, h, "one key apart");
            }
    free(h);
    cpu_env_close(rt, &e);
}
