/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_array_stats.c — var, std (with correction, any axes, keepdims),
 * cumulative_sum and cumulative_prod (every axis, include_initial, every
 * dtype they take) against plain host loops (two-pass float64 in row-major order, so the bits
 * compare exactly), on contiguous and transposed-reversed views; empty
 * axes; bad input with out untouched. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "test_array_common.h"

static unsigned run_var(env *e, tu_rng *r, accel_dtype dt, bool strided, uint64_t mask,
                        int keepdims, double corr, bool sd)
{
    unsigned char host[60 * 8], got[60 * 8];
    fill(r, dt, false, host, 60);
    if (mask % 3 == 1) /* also rows free of inf and NaN */
        for (size_t i = 0; i < 60; i++)
            if (!isfinite(get(host, dt, i).f))
                put(host, dt, i, (val){.f = (double)(i % 7) - 2.5});
    accel_buffer *bx = upload(e, host, 60 * accel_dtype_size(dt));
    accel_array x = view_345(bx, dt, strided), out;
    int64_t oshape[3];
    uint32_t ond = 0;
    for (uint32_t d = 0; d < 3; d++)
        if (!(mask >> d & 1u) || keepdims)
            oshape[ond++] = mask >> d & 1u ? 1 : x.shape[d];
    memset(got, 0xa5, sizeof got);
    accel_buffer *bo = upload(e, got, sizeof got);
    tu_ok(accel_array_init(&out, bo, dt, ond, oshape));
    tu_ok((sd ? accel_array_std : accel_array_var)(e->q, &x, mask, corr, keepdims, &out));
    tu_ok(accel_queue_read_blocking(e->q, bo, 0, got, sizeof got));
    int64_t n = 1, m = 1;
    for (uint32_t d = 0; d < 3; d++)
        (void)((mask >> d & 1u) ? (m *= x.shape[d]) : (n *= x.shape[d]));
    for (int64_t i = 0; i < n; i++) {
        double v[60], s = 0, q = 0;
        for (int64_t j = 0; j < m; j++) {
            int64_t idx[3], ri = i, rj = j;
            for (uint32_t d = 3; d-- > 0;) {
                int64_t *k = (mask >> d & 1u) ? &rj : &ri;
                idx[d] = *k % x.shape[d];
                *k /= x.shape[d];
            }
            v[j] = elem_at(&x, host, idx).f;
            s += v[j];
        }
        double mu = s / (double)m;
        for (int64_t j = 0; j < m; j++)
            q += (v[j] - mu) * (v[j] - mu);
        double res = (double)m - corr > 0 ? q / ((double)m - corr) : NAN;
        if (sd)
            res = sqrt(res);
        val want = {.f = round_to(dt, dt == ACCEL_F64 ? res : (double)(float)res)};
        val have = get(got, dt, (size_t)i);
        cr_assert(same_value(dt, have, want),
                  "%s %s mask %u corr %g %s: out[%lld] = %.17g, want %.17g", sd ? "std" : "var",
                  accel_dtype_name(dt), (unsigned)mask, corr, strided ? "strided" : "contiguous",
                  (long long)i, have.f, want.f);
    }
    for (size_t b = (size_t)n * accel_dtype_size(dt); b < sizeof got; b++)
        cr_assert_eq(got[b], 0xa5, "byte %zu past out written", b);
    accel_buffer_release(bx);
    accel_buffer_release(bo);
    return (unsigned)n;
}

static void var_std_every_float_dtype_on(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    tu_rng r = tu_rng_make(60);
    static const accel_dtype fl[] = {ACCEL_F16, ACCEL_BF16, ACCEL_F32, ACCEL_F64};
    static const uint64_t masks[] = {0, 1, 2, 4, 5, 6, 7};
    static const double corr[] = {0, 1, 2.5};
    unsigned n = 0;
    for (size_t d = 0; d < 4; d++)
        for (size_t k = 0; k < 7; k++)
            for (int c = 0; c < 3; c++)
                n += run_var(&e, &r, fl[d], k % 2 == 1, masks[k], (int)(k % 3 == 0), corr[c],
                             (k + (size_t)c) % 2 == 0);
    cr_assert_gt(n, 1000u, "elements checked: %u", n);
}

Test(array_stats, var_std_every_float_dtype)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    accel_queue_release(q);
    tu_for_each_device(rt, var_std_every_float_dtype_on, NULL);
    accel_runtime_close(rt);
}

/* The standard's default result dtype of cumulative_sum. */
static accel_dtype cumsum_dtype(accel_dtype dt)
{
    if (is_float(dt))
        return dt;
    return kind(dt) == ACCEL_DTYPE_KIND_UINT ? ACCEL_U64 : ACCEL_I64;
}

/* cumulative_sum (or, with prod, cumulative_prod) of a (3, 4, 5) x along
 * axis into odt, against a double or uint64 running sum or product. */
static unsigned run_cum(env *e, tu_rng *r, bool prod, accel_dtype dt, accel_dtype odt, bool strided,
                        int axis, int initial)
{
    unsigned char host[60 * 8], got[80 * 8];
    fill(r, dt, false, host, 60);
    accel_buffer *bx = upload(e, host, 60 * accel_dtype_size(dt));
    accel_array x = view_345(bx, dt, strided), out;
    int64_t oshape[3] = {3, 4, 5};
    oshape[axis] += initial;
    memset(got, 0xa5, sizeof got);
    accel_buffer *bo = upload(e, got, sizeof got);
    tu_ok(accel_array_init(&out, bo, odt, 3, oshape));
    tu_ok((prod ? accel_array_cumulative_prod : accel_array_cumulative_sum)(e->q, &x, axis - 3,
                                                                            initial, &out));
    tu_ok(accel_queue_read_blocking(e->q, bo, 0, got, sizeof got));
    unsigned n = 0;
    int64_t lines = 60 / x.shape[axis];
    for (int64_t l = 0; l < lines; l++) {
        int64_t idx[3], rem = l;
        for (int d = 2; d >= 0; d--)
            if (d != axis) {
                idx[d] = rem % x.shape[d];
                rem /= x.shape[d];
            }
        double facc = prod ? 1 : 0, mag = 0;
        uint64_t uacc = prod ? 1 : 0;
        for (int64_t j = -initial; j < x.shape[axis]; j++) {
            if (j >= 0) {
                idx[axis] = j;
                val v = convert(dt, is_float(odt) ? ACCEL_F64 : ACCEL_I64, elem_at(&x, host, idx));
                facc = prod ? facc * v.f : facc + v.f;
                uacc = prod ? uacc * v.u : uacc + v.u;
                mag += fabs(v.f);
            }
            val want =
                is_float(odt)
                    ? (val){.f = round_to(odt, odt == ACCEL_F64 ? facc : (double)(float)facc)}
                    : wrap(odt, (val){.u = uacc});
            int64_t oi[3] = {idx[0], idx[1], idx[2]};
            oi[axis] = j + initial;
            val have = get(got, odt, (size_t)((oi[0] * oshape[1] + oi[1]) * oshape[2] + oi[2]));
            /* A float sum may run as the CUMSUM op (its own order: within
             * ACCEL_TOLERANCE_PREFIX); the rest must be the walk's bits. */
            bool near = is_float(odt) && !prod && isfinite(want.f) && isfinite(have.f) &&
                        fabs(have.f - want.f) <=
                            ulp_of(odt, want.f) + 2.0 * (double)(j + 1) * 0x1p-53 * mag;
            cr_assert(near || same_value(odt, have, want),
                      "%s %s -> %s axis %d initial %d: line %lld [%lld] = 0x%llx (%g), want "
                      "0x%llx (%g)",
                      prod ? "cumprod" : "cumsum", accel_dtype_name(dt), accel_dtype_name(odt),
                      axis, initial, (long long)l, (long long)j, (unsigned long long)have.u, have.f,
                      (unsigned long long)want.u, want.f);
            n++;
        }
    }
    accel_buffer_release(bx);
    accel_buffer_release(bo);
    return n;
}

/* user: non-NULL for cumulative_prod. */
static void cumulative_every_dtype_on(accel_device *dev, accel_queue *q, void *user)
{
    bool prod = user != NULL;
    env e = {dev, q};
    tu_rng r = tu_rng_make(prod ? 62 : 61);
    unsigned n = 0;
    for (size_t d = 0; d < NDT; d++) {
        accel_dtype dt = all_dtypes[d];
        for (int axis = 0; axis < 3; axis++)
            for (int init = 0; init < 2; init++)
                n +=
                    run_cum(&e, &r, prod, dt, cumsum_dtype(dt), (axis + init) % 2 == 1, axis, init);
        if (!is_float(dt) && dt != ACCEL_U64 && dt != ACCEL_I64)
            n += run_cum(&e, &r, prod, dt, ACCEL_F64, true, 1, 1); /* dtype=float64 */
        if (dt == ACCEL_I16)
            n += run_cum(&e, &r, prod, dt, ACCEL_I16, false, 2, 0); /* dtype=x's: wraps */
    }
    cr_assert_gt(n, 5000u, "elements checked: %u", n);
}

Test(array_stats, cumulative_sum_every_dtype)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    accel_queue_release(q);
    tu_for_each_device(rt, cumulative_every_dtype_on, NULL);
    accel_runtime_close(rt);
}

/* Few long lines fold in chunks (stats.c, cumulative_split): lines of
 * 513 (one past the split's threshold), 4099 and 100003 elements, one or
 * three lines along either axis of a 2-D x (the 3-line case transposed, so
 * the line is strided), include_initial or not; float64 and float32 sums
 * within Higham's bound for a recursive sum, m eps sum|x| (Accuracy and
 * Stability of Numerical Algorithms, 2nd ed., 4.2: the chunks change the
 * order, not the bound), integers exactly (int32 into int64, int16's
 * product wrapping in int16). */
static void cumulative_long_lines_on(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    env e = {dev, q};
    tu_rng r = tu_rng_make(63);
    static const int64_t lens[] = {513, 4099, 100003};
    static const accel_dtype xdt[4][2] = {{ACCEL_F64, ACCEL_F64},
                                          {ACCEL_F32, ACCEL_F32},
                                          {ACCEL_I32, ACCEL_I64},
                                          {ACCEL_I16, ACCEL_I16}};
    for (int li = 0; li < 3; li++)
        for (int k = 0; k < 4; k++)
            for (int c = 0; c < 2; c++) { /* c: 3 lines, transposed, include_initial */
                int64_t m = lens[li], lines = c ? 3 : 1, n = m * lines;
                accel_dtype dt = xdt[k][0], odt = xdt[k][1];
                bool prod = dt == ACCEL_I16;
                size_t es = accel_dtype_size(dt), oes = accel_dtype_size(odt);
                unsigned char *hx = malloc((size_t)n * es),
                              *got = malloc((size_t)(n + lines) * oes);
                for (int64_t i = 0; i < n; i++) {
                    double v = tu_rng_range(&r, -10.0, 10.0);
                    val w = is_float(dt) ? (val){.f = v} : (val){.i = (int64_t)v};
                    put(hx, dt, (size_t)i, w);
                }
                accel_buffer *bx = upload(&e, hx, (size_t)n * es);
                accel_buffer *bo = upload(&e, NULL, (size_t)(n + lines) * oes);
                accel_array x, out;
                /* x: (lines, m) rows, or the transpose of an (m, lines) buffer */
                const int64_t shape[2] = {lines, m}, tshape[2] = {m, lines};
                const int64_t oshape[2] = {lines, m + c};
                if (c) {
                    accel_array base;
                    tu_ok(accel_array_init(&base, bx, dt, 2, tshape));
                    const int32_t perm[] = {1, 0};
                    tu_ok(accel_array_permute_dims(&base, perm, &x));
                } else {
                    tu_ok(accel_array_init(&x, bx, dt, 2, shape));
                }
                tu_ok(accel_array_init(&out, bo, odt, 2, oshape));
                tu_ok((prod ? accel_array_cumulative_prod : accel_array_cumulative_sum)(q, &x, 1, c,
                                                                                        &out));
                tu_ok(accel_queue_read_blocking(q, bo, 0, got, (size_t)(n + lines) * oes));
                for (int64_t l = 0; l < lines; l++) {
                    double acc = 0, abs_sum = 0;
                    uint64_t u = prod ? 1 : 0;
                    for (int64_t j = -c; j < m; j++) {
                        if (j >= 0) {
                            int64_t src = c ? j * lines + l : l * m + j;
                            val v = get(hx, dt, (size_t)src);
                            acc += is_float(dt) ? v.f : 0;
                            abs_sum += is_float(dt) ? fabs(v.f) : 0;
                            u = prod ? u * (uint64_t)v.i : u + (uint64_t)v.i;
                        }
                        val have = get(got, odt, (size_t)(l * (m + c) + j + c));
                        if (is_float(odt)) {
                            double eps = odt == ACCEL_F32 ? 0x1p-24 : 0x1p-53;
                            double bound = (double)(j + 2) * eps * abs_sum + eps * fabs(acc);
                            cr_assert(fabs(have.f - acc) <= bound,
                                      "%s cumsum m %lld lines %lld%s: [%lld][%lld] %.17g, want "
                                      "%.17g (bound %.3g)",
                                      accel_device_name(dev), (long long)m, (long long)lines,
                                      c ? " transposed, include_initial" : "", (long long)l,
                                      (long long)j, have.f, acc, bound);
                        } else {
                            val want = wrap(odt, (val){.u = u});
                            cr_assert(same_value(odt, have, want),
                                      "%s %s m %lld lines %lld: [%lld][%lld] %lld, want %lld",
                                      accel_device_name(dev), prod ? "cumprod" : "cumsum",
                                      (long long)m, (long long)lines, (long long)l, (long long)j,
                                      (long long)have.i, (long long)want.i);
                        }
                    }
                }
                free(hx);
                free(got);
                accel_buffer_release(bx);
                accel_buffer_release(bo);
            }
}

Test(array_stats, cumulative_long_lines_in_chunks)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    accel_queue_release(q);
    tu_for_each_device(rt, cumulative_long_lines_on, NULL);
    accel_runtime_close(rt);
}

Test(array_stats, cumulative_prod_every_dtype)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    accel_queue_release(q);
    static int prod = 1;
    tu_for_each_device(rt, cumulative_every_dtype_on, &prod);
    accel_runtime_close(rt);
}

Test(array_stats, empty_and_bad_input)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = array_runtime(&dev, &q);
    env e = {dev, q};
    double host[16];
    for (int i = 0; i < 16; i++)
        host[i] = 7.0;
    accel_buffer *bx = upload(&e, host, sizeof host), *bo = upload(&e, host, sizeof host);
    const int64_t s03[] = {0, 3}, s13[] = {1, 3}, s3[] = {3}, s23[] = {2, 3}, s2[] = {2};
    accel_array x, out;
    /* var over an empty axis: NaN; cumulative_sum with include_initial: 0 */
    tu_ok(accel_array_init(&x, bx, ACCEL_F64, 2, s03));
    tu_ok(accel_array_init(&out, bo, ACCEL_F64, 1, s3));
    tu_ok(accel_array_var(q, &x, 1u, 0, 0, &out));
    double got[3];
    tu_ok(accel_queue_read_blocking(q, bo, 0, got, sizeof got));
    cr_assert(isnan(got[0]) && isnan(got[2]), "var of nothing: %g", got[0]);
    tu_ok(accel_array_init(&out, bo, ACCEL_F64, 2, s13));
    tu_ok(accel_array_cumulative_sum(q, &x, 0, 1, &out));
    tu_ok(accel_queue_read_blocking(q, bo, 0, got, sizeof got));
    cr_assert(got[0] == 0 && got[1] == 0 && got[2] == 0, "initial of nothing: %g", got[0]);
    tu_ok(accel_queue_write_blocking(q, bo, 0, host, sizeof host));
    tu_ok(accel_array_init(&x, bx, ACCEL_F64, 2, s23));
    tu_ok(accel_array_init(&out, bo, ACCEL_F64, 1, s2));
    tu_assert_status(accel_array_var(q, &x, 8u, 0, 0, &out), ACCEL_ERROR_INVALID_ARGUMENT, "axis");
    cr_assert(strstr(accel_last_error(), "axes_mask"), "%s", accel_last_error());
    tu_assert_status(accel_array_std(q, &x, 2u, -1, 0, &out), ACCEL_ERROR_INVALID_ARGUMENT,
                     "correction");
    tu_assert_status(accel_array_std(q, &x, 1u, 0, 0, &out), ACCEL_ERROR_SHAPE_MISMATCH, "shape");
    accel_array xi = x, oi = out;
    xi.dtype = ACCEL_I32, oi.dtype = ACCEL_I32;
    tu_assert_status(accel_array_var(q, &xi, 2u, 0, 0, &oi), ACCEL_ERROR_DTYPE_MISMATCH, "ints");
    accel_array o23;
    tu_ok(accel_array_init(&o23, bo, ACCEL_F64, 2, s23));
    tu_assert_status(accel_array_cumulative_sum(q, &x, 2, 0, &o23), ACCEL_ERROR_INVALID_ARGUMENT,
                     "axis 2");
    tu_assert_status(accel_array_cumulative_sum(q, &x, ACCEL_ARRAY_AXIS_NONE, 0, &o23),
                     ACCEL_ERROR_INVALID_ARGUMENT, "axis required for 2-D");
    tu_assert_status(accel_array_cumulative_sum(q, &x, 1, 1, &o23), ACCEL_ERROR_SHAPE_MISMATCH,
                     "initial needs (2, 4)");
    accel_array of = o23;
    of.dtype = ACCEL_F32;
    tu_assert_status(accel_array_cumulative_sum(q, &x, 1, 0, &of), ACCEL_ERROR_DTYPE_MISMATCH,
                     "f64 into f32");
    accel_array over = x;
    tu_assert_status(accel_array_cumulative_sum(q, &x, 1, 0, &over), ACCEL_ERROR_INVALID_ARGUMENT,
                     "in place");
    double back[16];
    tu_ok(accel_queue_read_blocking(q, bo, 0, back, sizeof back));
    cr_assert(memcmp(back, host, sizeof back) == 0, "out changed by refused calls");
    accel_buffer_release(bx);
    accel_buffer_release(bo);
    accel_queue_release(q);
    accel_runtime_close(rt);
}
