/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_array_scan.c — accel_cumsum_segments (the ACCEL_OP_CUMSUM op) and
 * accel_array_cumulative_sum's route to it: every dtype the op takes x
 * geometry (a line long enough for the CPU's chunked pass, many short
 * lines, lines k apart in more than one block of 256, one element, none)
 * against running sums of the test's own (double, or uint64 wrapped to the
 * dtype) within ACCEL_TOLERANCE_PREFIX's bound, integers exactly; the
 * tolerance rule itself (a sum in another order passes, a perturbed one
 * does not); verify mode over cumulative_sum; bad input with out
 * untouched. Every device of the runtime (the CUDA suite runs the same on
 * the GPU; a backend may refuse a geometry, the CPU backend none). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "accel/verify.h"
#include "test_array_common.h"

static const accel_dtype scan_dtypes[] = {ACCEL_F32, ACCEL_F64, ACCEL_I8,  ACCEL_I16,
                                          ACCEL_I32, ACCEL_I64, ACCEL_U8,  ACCEL_U16,
                                          ACCEL_U32, ACCEL_U64, ACCEL_BOOL};
#define NSCAN (sizeof scan_dtypes / sizeof *scan_dtypes)

/* The 64-bit dtype of dt's kind: float64, uint64, or int64 (signed, bool). */
static accel_dtype wide_of(accel_dtype dt)
{
    return is_float(dt) ? ACCEL_F64 : kind(dt) == ACCEL_DTYPE_KIND_UINT ? ACCEL_U64 : ACCEL_I64;
}

/* ACCEL_TOLERANCE_PREFIX's bound for element j of a line whose elements
 * 0..j have magnitudes summing to mag (accel/verify.h). */
static double prefix_bound(accel_dtype dt, double want, size_t j, double mag)
{
    return ulp_of(dt, want) + 2.0 * (double)(j + 1) * 0x1p-53 * mag;
}

/* The running sums of x's m x n x k block (lines along the middle axis)
 * into want of odt, in double (rounded once by put) or uint64 (wrapped by
 * put; signed x sign-extended by get); mag[at]: the line's sum of |x| up to
 * element at. */
static void reference(accel_dtype dt, accel_dtype odt, const void *x, void *want, double *mag,
                      size_t m, size_t n, size_t k)
{
    for (size_t o = 0; o < m; o++)
        for (size_t i = 0; i < k; i++) {
            double f = 0, a = 0;
            uint64_t u = 0;
            for (size_t j = 0; j < n; j++) {
                size_t at = (o * n + j) * k + i;
                val v = get(x, dt, at);
                if (is_float(dt)) {
                    f += v.f, a += fabs(v.f);
                    put(want, odt, at, (val){.f = f});
                } else {
                    u += v.u;
                    put(want, odt, at, (val){.u = u});
                }
                mag[at] = a;
            }
        }
}

/* Random inputs: floats in [-10, 10) with a wide value now and then (so
 * sums cancel and magnitudes differ), integers over the whole range. */
static void inputs(tu_rng *r, accel_dtype dt, void *x, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        val v = {0};
        if (is_float(dt))
            v.f = i % 97 == 5 ? tu_rng_wide(r, -6, 6) : tu_rng_range(r, -10.0, 10.0);
        else if (dt == ACCEL_BOOL)
            v.u = tu_rng_next(r) & 1u;
        else
            v.u = i % 3 ? tu_rng_next(r) : (uint64_t)((int64_t)(tu_rng_next(r) % 41) - 20);
        put(x, dt, i, v);
    }
}

/* The elements of got that are not want: within the bound for floats,
 * bit for bit for integers; the first one reported. */
static void assert_sums(const char *what, accel_dtype dt, const void *got, const void *want,
                        const double *mag, size_t m, size_t n, size_t k)
{
    for (size_t o = 0; o < m; o++)
        for (size_t j = 0; j < n; j++)
            for (size_t i = 0; i < k; i++) {
                size_t at = (o * n + j) * k + i;
                val h = get(got, dt, at), w = get(want, dt, at);
                bool ok = is_float(dt) ? fabs(h.f - w.f) <= prefix_bound(dt, w.f, j, mag[at])
                                       : same_value(dt, h, w);
                cr_assert(ok,
                          "%s %s %zux%zux%zu: line (%zu, %zu) [%zu] = %.17g (0x%llx), want %.17g",
                          what, accel_dtype_name(dt), m, n, k, o, i, j, h.f,
                          (unsigned long long)h.u, w.f);
            }
}

static bool is_cpu(const accel_device *dev)
{
    return strncmp(accel_device_name(dev), "cpu", 3) == 0;
}

static void segments_on(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    tu_rng r = tu_rng_make(71);
    static const size_t geo[][3] = {
        {1, 100003, 1}, {37, 33, 1}, {3, 65, 300}, {1, 1, 1}, {2, 0, 3}};
    unsigned checked = 0;
    for (size_t d = 0; d < NSCAN; d++)
        for (int wide = 0; wide < 2; wide++)
            for (size_t g = 0; g < sizeof geo / sizeof *geo; g++) {
                accel_dtype dt = scan_dtypes[d], odt = wide ? wide_of(dt) : dt;
                if (dt == ACCEL_BOOL && !wide)
                    continue; /* bool sums are int64 (bad_input below) */
                size_t m = geo[g][0], n = geo[g][1], k = geo[g][2], count = m * n * k,
                       c1 = count ? count : 1, es = accel_dtype_size(dt),
                       oes = accel_dtype_size(odt);
                unsigned char *hx = malloc(c1 * es), *got = malloc(c1 * oes),
                              *want = malloc(c1 * oes);
                double *mag = malloc(c1 * sizeof *mag);
                inputs(&r, dt, hx, count);
                reference(dt, odt, hx, want, mag, m, n, k);
                accel_buffer *bx = upload(&e, hx, c1 * es), *bo = upload(&e, NULL, c1 * oes);
                accel_status st =
                    accel_cumsum_segments(q, dt, odt, m, n, k, accel_slice_of(bx, 0, count),
                                          accel_slice_of(bo, 0, count));
                /* the CPU backend runs every geometry; another may refuse one */
                cr_assert(st == ACCEL_SUCCESS || (st == ACCEL_ERROR_UNSUPPORTED && !is_cpu(dev)),
                          "%s %s -> %s %zux%zux%zu: status %d: %s", accel_device_name(dev),
                          accel_dtype_name(dt), accel_dtype_name(odt), m, n, k, (int)st,
                          accel_last_error());
                if (st == ACCEL_SUCCESS && count) {
                    tu_ok(accel_queue_read_blocking(q, bo, 0, got, c1 * oes));
                    assert_sums(accel_device_name(dev), odt, got, want, mag, m, n, k);
                    checked += (unsigned)count;
                }
                accel_buffer_release(bx);
                accel_buffer_release(bo);
                free(hx), free(got), free(want), free(mag);
            }
    cr_assert_gt(checked, 2000000u, "elements checked on %s: %u", accel_device_name(dev), checked);
}

Test(array_scan, cumsum_segments_every_dtype_and_geometry)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    accel_queue_release(q);
    tu_for_each_device(rt, segments_on, NULL);
    accel_runtime_close(rt);
}

/* accel_array_cumulative_sum of views: a long float32 line with
 * include_initial (the op where the backend has it, its leading 0 stored
 * after), rows of int32 along the last axis into int32 and into int64 (the
 * standard's default), bool into int64, float32 into float64, float64
 * along the first axis (lines k apart: the op on the CPU, the generated
 * walk where a backend takes only k == 1), and a float32 line of every
 * other element (not row-major: the generated walk everywhere, in
 * chunks). */
static void arrays_on(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    tu_rng r = tu_rng_make(72);
    static const struct {
        accel_dtype dt, odt;
        int64_t rows, cols;
        int axis, initial, step;
    } cases[] = {
        {ACCEL_F32, ACCEL_F32, 1, 70001, 1, 1, 1}, {ACCEL_I32, ACCEL_I32, 40, 513, 1, 0, 1},
        {ACCEL_I32, ACCEL_I64, 40, 513, 1, 0, 1},  {ACCEL_BOOL, ACCEL_I64, 1, 9001, 1, 1, 1},
        {ACCEL_F32, ACCEL_F64, 7, 3001, 1, 0, 1},  {ACCEL_F64, ACCEL_F64, 300, 7, 0, 0, 1},
        {ACCEL_F32, ACCEL_F32, 1, 5000, 1, 0, 2}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        accel_dtype dt = cases[c].dt, odt = cases[c].odt;
        int64_t rows = cases[c].rows, cols = cases[c].cols, count = rows * cols,
                step = cases[c].step;
        int axis = cases[c].axis, init = cases[c].initial;
        size_t es = accel_dtype_size(dt), oes = accel_dtype_size(odt);
        int64_t oshape[2] = {rows, cols};
        oshape[axis] += init;
        size_t obytes = (size_t)(oshape[0] * oshape[1]) * oes, xbytes = (size_t)(count * step) * es;
        unsigned char *hx = malloc(xbytes), *dense = malloc((size_t)count * es),
                      *got = malloc(obytes), *want = malloc((size_t)count * oes);
        double *mag = malloc((size_t)count * sizeof *mag);
        inputs(&r, dt, hx, (size_t)(count * step));
        for (int64_t i = 0; i < count; i++) /* x's elements, row-major */
            memcpy(dense + (size_t)i * es, hx + (size_t)(i * step) * es, es);
        /* as segments: axis 1 is rows lines of cols; axis 0 is cols lines k apart */
        size_t m = axis ? (size_t)rows : 1, n = (size_t)(axis ? cols : rows),
               k = axis ? 1 : (size_t)cols;
        reference(dt, odt, dense, want, mag, m, n, k);
        memset(got, 0x5a, obytes);
        accel_buffer *bx = upload(&e, hx, xbytes), *bo = upload(&e, got, obytes);
        accel_array x, out;
        const int64_t xs[2] = {rows, cols};
        tu_ok(accel_array_init(&x, bx, dt, 2, xs));
        x.strides[0] *= step, x.strides[1] *= step;
        tu_ok(accel_array_init(&out, bo, odt, 2, oshape));
        tu_ok(accel_array_cumulative_sum(q, &x, axis, init, &out));
        tu_ok(accel_queue_read_blocking(q, bo, 0, got, obytes));
        if (init) /* a single line: the leading 0 */
            cr_assert(get(got, odt, 0).u == 0, "leading 0x%llx",
                      (unsigned long long)get(got, odt, 0).u);
        assert_sums("cumulative_sum", odt, got + (init ? oes : 0), want, mag, m, n, k);
        accel_buffer_release(bx);
        accel_buffer_release(bo);
        free(hx), free(dense), free(got), free(want), free(mag);
    }
}

Test(array_scan, cumulative_sum_routes_row_major_views)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    accel_queue_release(q);
    tu_for_each_device(rt, arrays_on, NULL);
    accel_runtime_close(rt);
}

/* The rule: sums in another order (two halves, the second from the first's
 * total) pass, one element off by a millionth fails there, an integer off
 * by one fails. */
Test(array_scan, tolerance_rule_takes_another_order_only)
{
    enum { N = 4000 };
    tu_rng r = tu_rng_make(73);
    static const accel_dtype dts[] = {ACCEL_F32, ACCEL_F64, ACCEL_I16};
    for (size_t d = 0; d < 3; d++) {
        accel_dtype dt = dts[d];
        size_t es = accel_dtype_size(dt);
        unsigned char *x = malloc(N * es), *exp = malloc(N * es), *got = malloc(N * es);
        double mag[N];
        inputs(&r, dt, x, N);
        reference(dt, dt, x, exp, mag, 1, N, 1);
        /* the second half's sums from the first half's total */
        double first = 0, run = 0;
        for (size_t j = 0; j < N / 2; j++)
            first += get(x, dt, j).f;
        for (size_t j = 0; j < N; j++) {
            if (j < N / 2 || !is_float(dt)) {
                memcpy(got + j * es, exp + j * es, es);
                continue;
            }
            run += get(x, dt, j).f;
            put(got, dt, j, (val){.f = first + run});
        }
        accel_tolerance_op t;
        accel_tolerance_op_init(&t);
        t.op = ACCEL_OP_CUMSUM, t.dtype = dt, t.num_operands = 2;
        t.counts[0] = t.counts[1] = N;
        t.m = 1, t.n = N, t.k = 1;
        const void *in[4] = {x, NULL, NULL, NULL};
        accel_compare_result res;
        res.struct_size = sizeof res;
        tu_ok(accel_tolerance_compare(&t, in, got, exp, &res));
        cr_assert_eq(res.checked, (uint64_t)N, "%s checked %llu", accel_dtype_name(dt),
                     (unsigned long long)res.checked);
        val v = get(got, dt, 3000);
        if (is_float(dt))
            v.f += fabs(v.f) * 1e-6 + 1e-6;
        else
            v.u += 1;
        put(got, dt, 3000, v);
        tu_assert_status(accel_tolerance_compare(&t, in, got, exp, &res), ACCEL_ERROR_MISMATCH,
                         "perturbed");
        cr_assert_eq(res.first_bad, (size_t)3000, "%s first bad %zu", accel_dtype_name(dt),
                     res.first_bad);
        free(x), free(exp), free(got);
    }
}

/* Verify mode runs the op again on the reference and compares with the
 * rule: float32, int32 and uint8 rows, int32 into int64 and float32 into
 * float64 (an out of another element size); none may mismatch. */
Test(array_scan, verify_mode_checks_cumsum)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_verify_runtime(&dev, &q);
    env e = {dev, q};
    tu_rng r = tu_rng_make(74);
    static const accel_dtype dts[][2] = {{ACCEL_F32, ACCEL_F32},
                                         {ACCEL_I32, ACCEL_I32},
                                         {ACCEL_U8, ACCEL_U8},
                                         {ACCEL_I32, ACCEL_I64},
                                         {ACCEL_F32, ACCEL_F64}};
    const int64_t shape[] = {3, 3001};
    for (size_t d = 0; d < 5; d++) {
        accel_dtype dt = dts[d][0], odt = dts[d][1];
        size_t es = accel_dtype_size(dt), bytes = 3 * 3001 * es,
               obytes = 3 * 3001 * accel_dtype_size(odt);
        unsigned char *h = malloc(bytes);
        inputs(&r, dt, h, 3 * 3001);
        accel_buffer *bx = upload(&e, h, bytes), *bo = upload(&e, NULL, obytes);
        accel_array x, out;
        tu_ok(accel_array_init(&x, bx, dt, 2, shape));
        tu_ok(accel_array_init(&out, bo, odt, 2, shape));
        tu_ok(accel_array_cumulative_sum(q, &x, 1, 0, &out));
        tu_ok(accel_queue_finish(q));
        accel_buffer_release(bx), accel_buffer_release(bo);
        free(h);
    }
    assert_all_verified(rt, 5);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

/* Each refusal names its cause and leaves out as it was. */
Test(array_scan, bad_input_leaves_out_untouched)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    env e = {dev, q};
    float hx[24], ho[24], back[24];
    for (int i = 0; i < 24; i++)
        hx[i] = (float)i, ho[i] = -1.0f;
    accel_buffer *bx = upload(&e, hx, sizeof hx), *bo = upload(&e, ho, sizeof ho);
    accel_slice sx = accel_slice_of(bx, 0, 24), so = accel_slice_of(bo, 0, 24);
    tu_assert_status(accel_cumsum_segments(q, ACCEL_F32, ACCEL_F32, 2, 5, 2, sx, so),
                     ACCEL_ERROR_SHAPE_MISMATCH, "2*5*2 != 24");
    tu_assert_status(accel_cumsum_segments(q, ACCEL_F16, ACCEL_F16, 1, 24, 1,
                                           accel_slice_of(bx, 0, 24), accel_slice_of(bo, 0, 24)),
                     ACCEL_ERROR_DTYPE_MISMATCH, "f16");
    cr_assert(strstr(accel_last_error(), "f16"), "%s", accel_last_error());
    tu_assert_status(accel_cumsum_segments(q, ACCEL_F16, ACCEL_F64, 1, 12, 1,
                                           accel_slice_of(bx, 0, 12), accel_slice_of(bo, 0, 12)),
                     ACCEL_ERROR_DTYPE_MISMATCH, "f16 into f64");
    cr_assert(strstr(accel_last_error(), "f16 is not supported"), "%s", accel_last_error());
    tu_assert_status(accel_cumsum_segments(q, ACCEL_BOOL, ACCEL_BOOL, 1, 24, 1, sx, so),
                     ACCEL_ERROR_DTYPE_MISMATCH, "bool into bool");
    tu_assert_status(accel_cumsum_segments(q, ACCEL_I32, ACCEL_I16, 1, 24, 1, sx, so),
                     ACCEL_ERROR_DTYPE_MISMATCH, "int32 into int16");
    cr_assert(strstr(accel_last_error(), "i64"), "%s", accel_last_error());
    tu_assert_status(
        accel_cumsum_segments(q, ACCEL_F32, ACCEL_F64, 1, 24, 1, sx, accel_slice_of(bo, 0, 24)),
        ACCEL_ERROR_OUT_OF_RANGE, "24 float64 do not fit in 96 bytes");
    tu_assert_status(accel_cumsum_segments(q, ACCEL_C64, ACCEL_C64, 1, 12, 1,
                                           accel_slice_of(bx, 0, 12), accel_slice_of(bo, 0, 12)),
                     ACCEL_ERROR_DTYPE_MISMATCH, "complex");
    tu_assert_status(
        accel_cumsum_segments(q, ACCEL_F32, ACCEL_F32, 1, 24, 1, sx, accel_slice_of(bo, 1, 24)),
        ACCEL_ERROR_OUT_OF_RANGE, "out past the buffer");
    tu_assert_status(
        accel_cumsum_segments(q, ACCEL_F32, ACCEL_F32, 1, 24, 1, sx, accel_slice_of(bo, 0, 23)),
        ACCEL_ERROR_SHAPE_MISMATCH, "counts differ");
    tu_assert_status(accel_cumsum_segments(q, ACCEL_F32, ACCEL_F32, 1, 24, 1, sx, sx),
                     ACCEL_ERROR_INVALID_ARGUMENT, "in place");
    tu_assert_status(accel_cumsum_segments(q, ACCEL_F32, ACCEL_F32, 1, 20, 1,
                                           accel_slice_of(bx, 0, 20), accel_slice_of(bx, 2, 20)),
                     ACCEL_ERROR_INVALID_ARGUMENT, "partial overlap");
    cr_assert(strstr(accel_last_error(), "overlap"), "%s", accel_last_error());
    tu_assert_status(accel_cumsum_segments(NULL, ACCEL_F32, ACCEL_F32, 1, 24, 1, sx, so),
                     ACCEL_ERROR_INVALID_HANDLE, "no queue");
    tu_ok(accel_queue_read_blocking(q, bo, 0, back, sizeof back));
    cr_assert(memcmp(back, ho, sizeof ho) == 0, "out changed");
    tu_ok(accel_queue_read_blocking(q, bx, 0, back, sizeof back));
    cr_assert(memcmp(back, hx, sizeof hx) == 0, "x changed");
    accel_buffer_release(bx);
    accel_buffer_release(bo);
    accel_queue_release(q);
    accel_runtime_close(rt);
}
