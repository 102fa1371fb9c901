/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_opencl_reduce.c — sum, dot, reduce_max and reduce_min on opencl:0
 * (backends/opencl/reduce.c, reduce.cl) at the edges of their vector split
 * and launch geometry: every misalignment of x (and of y against x for
 * dot), counts around the 4-element vectors and the 256-item work-groups,
 * and counts large enough for many work-groups. Sums and dots against a
 * plain long double loop within the op table's SUM bound, 2 n eps sum|x|,
 * and bit for bit the same in a second run; max and min exactly, with the
 * first NaN's payload and IEEE 754-2019's signed zeros. No fallback is
 * configured, so an op that did not run on OpenCL fails. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "accel/accel.h"
#include "test_util.h"

static accel_runtime *rt;
static accel_queue *q;

static void open_opencl(void)
{
    const char *ini = tu_fmt("[runtime]\norder = opencl\n[backend.opencl]\nlibrary = "
                             "%s/libaccel_opencl.so\n",
                             ACCEL_TEST_PLUGIN_CONFIG_DIR);
    cr_assert_eq(tu_open_ini(ini, &rt, NULL), ACCEL_SUCCESS, "open: %s", accel_last_error());
    accel_device *dev;
    cr_assert_eq(accel_device_get_by_name(rt, "opencl:0", &dev), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    cr_assert_eq(accel_queue_create(dev, &q), ACCEL_SUCCESS, "%s", accel_last_error());
}

static void close_opencl(void)
{
    accel_queue_release(q);
    accel_runtime_close(rt);
}

TestSuite(opencl_reduce, .init = open_opencl, .fini = close_opencl, .timeout = 600);

static const size_t counts[] = {0, 1, 3, 4, 5, 7, 8, 255, 256, 257, 1023, 1025, 4099, 70001};
#define NCOUNTS (sizeof counts / sizeof counts[0])

/* n values of dtype at element offset `off` in a fresh buffer (the slice's
 * start, and so the kernel's alignment, moves with off). */
static accel_slice put(accel_dtype dt, const double *v, size_t off, size_t n)
{
    size_t es = dt == ACCEL_F64 ? 8 : 4;
    accel_buffer *b;
    tu_ok(accel_buffer_create(accel_queue_device(q), (off + n + 1) * es, &b));
    unsigned char *raw = calloc(off + n + 1, es);
    for (size_t i = 0; i < n; ++i) {
        if (dt == ACCEL_F64)
            memcpy(raw + (off + i) * es, &v[i], 8);
        else {
            float f = (float)v[i];
            memcpy(raw + (off + i) * es, &f, 4);
        }
    }
    tu_ok(accel_queue_write(q, b, 0, raw, (off + n + 1) * es));
    tu_ok(accel_queue_finish(q)); /* raw is read until then */
    free(raw);
    return accel_slice_of(b, off, n);
}

/* The one element of out, as double; its bits in *bits. */
static double get1(accel_dtype dt, accel_slice out, uint64_t *bits)
{
    tu_ok(accel_queue_finish(q));
    unsigned char raw[8] = {0};
    size_t es = dt == ACCEL_F64 ? 8 : 4;
    tu_ok(accel_queue_read(q, out.buffer, out.offset * es, raw, es));
    tu_ok(accel_queue_finish(q));
    *bits = 0;
    memcpy(bits, raw, es);
    if (dt == ACCEL_F64) {
        double d;
        memcpy(&d, raw, 8);
        return d;
    }
    float f;
    memcpy(&f, raw, 4);
    return f;
}

/* Random values of mixed sign and magnitude, rounded to dt. */
static double *values(accel_dtype dt, size_t n, uint64_t salt)
{
    tu_rng r = tu_rng_make(salt);
    double *v = malloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; i < n; ++i)
        v[i] = tu_round(dt, tu_rng_wide(&r, -4, 4));
    return v;
}

/* sum (y == NULL) or dot of n values at offsets ox, oy: within the bound of
 * a long double reference and the same bits twice. */
static void check_sum(accel_dtype dt, size_t n, size_t ox, size_t oy, int dot)
{
    double *x = values(dt, n, 1000 + n * 8 + ox), *y = values(dt, n, 2000 + n * 8 + oy);
    long double ref = 0, mag = 0;
    for (size_t i = 0; i < n; ++i) {
        long double t = dot ? (long double)x[i] * y[i] : x[i];
        ref += t;
        mag += fabsl(t);
    }
    accel_slice sx = put(dt, x, ox, n), sy = put(dt, y, oy, n);
    accel_slice out = put(dt, (double[]){-1.0}, 1, 1);
    uint64_t bits[2];
    double got[2];
    for (int run = 0; run < 2; ++run) {
        if (dot)
            tu_ok(accel_dot(q, dt, sx, sy, out));
        else
            tu_ok(accel_sum(q, dt, sx, out));
        got[run] = get1(dt, out, &bits[run]);
    }
    const double eps = 2 * tu_unit_roundoff(dt);
    const double bound = 2.0 * (double)n * eps * (double)mag + tu_ulp(dt, ref);
    cr_expect_leq(fabs(got[0] - (double)ref), bound,
                  "%s %s n=%zu ox=%zu oy=%zu: got %.17g, reference %.17Lg, bound %.3g",
                  dot ? "dot" : "sum", dt == ACCEL_F64 ? "f64" : "f32", n, ox, oy, got[0], ref,
                  bound);
    cr_expect_eq(bits[0], bits[1], "%s n=%zu ox=%zu: %.17g then %.17g", dot ? "dot" : "sum", n, ox,
                 got[0], got[1]);
    accel_buffer_release(sx.buffer);
    accel_buffer_release(sy.buffer);
    accel_buffer_release(out.buffer);
    free(x);
    free(y);
}

Test(opencl_reduce, sum_every_offset_and_count)
{
    for (int f = 0; f < 2; ++f)
        for (size_t i = 0; i < NCOUNTS; ++i)
            for (size_t ox = 0; ox < 4; ++ox)
                check_sum(f ? ACCEL_F64 : ACCEL_F32, counts[i], ox, 0, 0);
}

Test(opencl_reduce, dot_same_and_different_misalignment)
{
    for (int f = 0; f < 2; ++f)
        for (size_t i = 0; i < NCOUNTS; ++i)
            for (size_t ox = 0; ox < 4; ox += 1)
                for (size_t oy = 0; oy < 4; oy += 3)
                    check_sum(f ? ACCEL_F64 : ACCEL_F32, counts[i], ox, oy, 1);
}

/* Counts past 2^20: every work-group of pass 1 busy, pass 2 over all of
 * their partials. */
Test(opencl_reduce, sum_large_count_many_groups)
{
    check_sum(ACCEL_F32, (1u << 20) + 3, 1, 0, 0);
    check_sum(ACCEL_F64, (1u << 20) + 1, 1, 0, 0);
    check_sum(ACCEL_F32, (1u << 20) + 5, 2, 2, 1);
}

/* max or min of v (n values at offset off) against a plain loop over the
 * IEEE 754-2019 rules: the first NaN (its payload) wins; -0 < +0. */
static void check_extreme(accel_dtype dt, const double *v, size_t n, size_t off, int is_max)
{
    double want = is_max ? -INFINITY : INFINITY;
    int nan_at = -1;
    for (size_t i = 0; i < n; ++i) {
        if (isnan(v[i])) {
            nan_at = (int)i;
            break;
        }
        if (v[i] == want)
            want = is_max ? (signbit(v[i]) ? want : v[i]) : (signbit(v[i]) ? v[i] : want);
        else if (is_max ? v[i] > want : v[i] < want)
            want = v[i];
    }
    accel_slice sx = put(dt, v, off, n), out = put(dt, (double[]){7.0}, 0, 1);
    tu_ok(is_max ? accel_reduce_max(q, dt, sx, out) : accel_reduce_min(q, dt, sx, out));
    uint64_t bits, want_bits = 0;
    double got = get1(dt, out, &bits);
    if (nan_at >= 0) {
        if (dt == ACCEL_F64)
            memcpy(&want_bits, &v[nan_at], 8);
        else {
            float f = (float)v[nan_at];
            memcpy(&want_bits, &f, 4);
        }
        cr_expect_eq(bits, want_bits, "%s n=%zu off=%zu: NaN at %d: got bits %llx, want %llx",
                     is_max ? "max" : "min", n, off, nan_at, (unsigned long long)bits,
                     (unsigned long long)want_bits);
    } else {
        cr_expect(got == want && signbit(got) == signbit(want), "%s n=%zu off=%zu: got %g, want %g",
                  is_max ? "max" : "min", n, off, got, want);
    }
    accel_buffer_release(sx.buffer);
    accel_buffer_release(out.buffer);
}

static double nan_with(uint64_t payload)
{
    uint64_t b = 0x7ff8000000000000ull | payload;
    double d;
    memcpy(&d, &b, 8);
    return d;
}

Test(opencl_reduce, extremes_offsets_nans_and_zeros)
{
    for (int f = 0; f < 2; ++f) {
        accel_dtype dt = f ? ACCEL_F64 : ACCEL_F32;
        for (size_t i = 1; i < NCOUNTS; ++i) {
            size_t n = counts[i];
            double *v = values(dt, n, 3000 + n);
            for (size_t off = 0; off < 4; ++off)
                for (int mx = 0; mx < 2; ++mx)
                    check_extreme(dt, v, n, off, mx);
            /* Two NaNs with different payloads (f32 keeps the top bits):
             * the first in index order is the answer, in the head, the
             * vector body or the tail. */
            for (size_t at = 0; at < n; at += n / 3 + 1) {
                v[at] = nan_with((uint64_t)0x2000000000000ull | ((uint64_t)at << 30));
                if (at + 1 < n)
                    v[n - 1] = nan_with((uint64_t)0x1000000000000ull);
                check_extreme(dt, v, n, (at + 1) % 4, 1);
                check_extreme(dt, v, n, at % 4, 0);
                free(v);
                v = values(dt, n, 3000 + n);
            }
            free(v);
        }
        double z[] = {0.0, -0.0, -0.0, 0.0, -0.0};
        for (size_t off = 0; off < 4; ++off) {
            check_extreme(dt, z, 5, off, 1);
            check_extreme(dt, z, 5, off, 0);
        }
    }
}
