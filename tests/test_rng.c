/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_rng.c — random streams that advance themselves (core/ops/rng.c): each
 * fill through an accel_rng equals accel_random_uniform / _normal at the
 * documented element offset (position * 4 for f32, * 2 for f64), the
 * position advances by whole Philox blocks, successive fills differ, the same
 * seed repeats the sequence, seeking back repeats fills, and bad input gets
 * a clear status. On every device: f32 normal numbers follow accel.h's
 * single-precision formula within its error bound, and the uniform and
 * normal fills pass a Kolmogorov-Smirnov test against their distributions. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "philox.h"
#include "test_util.h"

static accel_runtime *rt;
static accel_queue *q;

static void setup(void)
{
    rt = tu_open_default();
    accel_device *dev = NULL;
    tu_ok(accel_device_get_by_name(rt, "cpu", &dev));
    tu_ok(accel_queue_create(dev, &q));
}

static void teardown(void)
{
    accel_runtime_close(rt);
}

TestSuite(rng, .init = setup, .fini = teardown);

/* n elements of dt drawn from rng (or, with rng NULL, from the stateless
 * call at offset) into host doubles. */
static void draw(accel_rng *rng, accel_dtype dt, uint64_t seed, uint64_t offset, bool normal,
                 size_t n, double *out)
{
    tu_dbuf b = tu_upload(q, dt, NULL, n);
    if (rng)
        tu_ok(normal ? accel_rng_normal(q, rng, dt, 1.0, 2.0, tu_slice(&b))
                     : accel_rng_uniform(q, rng, dt, tu_slice(&b)));
    else
        tu_ok(normal ? accel_random_normal(q, dt, seed, offset, 1.0, 2.0, tu_slice(&b))
                     : accel_random_uniform(q, dt, seed, offset, tu_slice(&b)));
    tu_download(q, &b, out);
    tu_check_guards(q, &b, "rng fill");
    tu_release(&b);
}

Test(rng, fills_follow_the_stream_in_whole_blocks)
{
    enum { N = 10 };
    double got[N], want[N];
    for (int d = 0; d < 2; ++d) {
        accel_dtype dt = d ? ACCEL_F64 : ACCEL_F32;
        uint64_t k = d ? 2 : 4, seed = 77;
        accel_rng *rng = NULL;
        tu_ok(accel_rng_create(seed, &rng));
        uint64_t pos = 0, s = 0;
        for (int fill = 0; fill < 3; ++fill) {
            bool normal = fill == 1;
            draw(rng, dt, 0, 0, normal, N, got);
            draw(NULL, dt, seed, pos * k, normal, N, want);
            for (int i = 0; i < N; ++i)
                cr_assert(tu_same(got[i], want[i]), "%s fill %d [%d]: %g != %g",
                          accel_dtype_name(dt), fill, i, got[i], want[i]);
            pos += (N + k - 1) / k;
            tu_ok(accel_rng_get(rng, &s, NULL));
            uint64_t p = 0;
            tu_ok(accel_rng_get(rng, NULL, &p));
            cr_assert_eq(s, seed);
            cr_assert_eq(p, pos, "%s: position %llu, want %llu", accel_dtype_name(dt),
                         (unsigned long long)p, (unsigned long long)pos);
        }
        accel_rng_release(rng);
    }
}

Test(rng, successive_fills_differ_and_seeds_repeat)
{
    enum { N = 64 };
    double a[N], b[N], c[N], d[N];
    accel_rng *r1 = NULL, *r2 = NULL;
    tu_ok(accel_rng_create(5, &r1));
    tu_ok(accel_rng_create(5, &r2));
    draw(r1, ACCEL_F32, 0, 0, false, N, a);
    draw(r1, ACCEL_F32, 0, 0, false, N, b);
    draw(r2, ACCEL_F32, 0, 0, false, N, c);
    draw(r2, ACCEL_F32, 0, 0, false, N, d);
    cr_assert(memcmp(a, b, sizeof a) != 0, "two fills from one stream repeated each other");
    cr_assert(memcmp(a, c, sizeof a) == 0 && memcmp(b, d, sizeof b) == 0,
              "the same seed gave another sequence");
    /* seeking back to 0 repeats the first fill */
    tu_ok(accel_rng_seek(r1, 0));
    draw(r1, ACCEL_F32, 0, 0, false, N, b);
    cr_assert(memcmp(a, b, sizeof a) == 0);
    accel_rng_release(r1);
    accel_rng_release(r2);
}

Test(rng, bad_input)
{
    accel_rng *rng = NULL;
    tu_assert_status(accel_rng_create(1, NULL), ACCEL_ERROR_INVALID_ARGUMENT, "NULL out");
    tu_ok(accel_rng_create(1, &rng));
    tu_dbuf b = tu_upload(q, ACCEL_F32, NULL, 8);
    tu_assert_status(accel_rng_uniform(q, rng, ACCEL_F16, tu_slice(&b)), ACCEL_ERROR_DTYPE_MISMATCH,
                     "f16");
    cr_assert(strstr(accel_last_error(), "accel_rng_uniform") != NULL, "%s", accel_last_error());
    tu_assert_status(accel_rng_uniform(q, NULL, ACCEL_F32, tu_slice(&b)),
                     ACCEL_ERROR_INVALID_HANDLE, "NULL rng");
    /* a failed fill does not move the position */
    accel_slice past = tu_slice(&b);
    past.count += 100;
    tu_assert_status(accel_rng_uniform(q, rng, ACCEL_F32, past), ACCEL_ERROR_OUT_OF_RANGE,
                     "past the buffer");
    uint64_t p = 1;
    tu_ok(accel_rng_get(rng, NULL, &p));
    cr_assert_eq(p, 0);
    /* the end of the stream */
    tu_ok(accel_rng_seek(rng, UINT64_MAX / 4));
    tu_assert_status(accel_rng_uniform(q, rng, ACCEL_F32, tu_slice(&b)), ACCEL_ERROR_OUT_OF_RANGE,
                     "end of stream");
    tu_release(&b);
    accel_rng_release(rng);
    tu_assert_status(accel_rng_seek(rng, 0), ACCEL_ERROR_INVALID_HANDLE, "released rng");
    accel_rng_release(NULL);
}

/* ------------------------------------------------- on every device */

static double *fill_on(accel_queue *dq, accel_dtype dt, bool normal, uint64_t seed, uint64_t off,
                       double mean, double stddev, size_t n)
{
    double *v = malloc(n * sizeof *v);
    cr_assert(v);
    tu_dbuf b = tu_upload(dq, dt, NULL, n);
    tu_ok(normal ? accel_random_normal(dq, dt, seed, off, mean, stddev, tu_slice(&b))
                 : accel_random_uniform(dq, dt, seed, off, tu_slice(&b)));
    tu_download(dq, &b, v);
    tu_check_guards(dq, &b, "random fill");
    tu_release(&b);
    return v;
}

/* accel.h's f32 normal formula with every step exact except the angle,
 * which the formula itself rounds: theta = fl(2pi_f * u2), computed here as
 * that float product. A backend's result may differ from this by its
 * logf, sqrt and sin/cos errors and the two roundings that follow (stddev *
 * r, then the fused multiply-add), each relative to stddev * r at most but
 * the last: CPU (glibc logf, sqrtf, sincosf, < 1 ulp each) about 3e-7 *
 * stddev * r, CUDA (philox.h's -2 ln u1 within 2.19 ulp, sqrt.approx and
 * __sincosf on theta: r within 1.73e-7 relative and cos, sin within 7.1e-7
 * absolute over every draw on the H200) about 9.4e-7 * stddev * r; the bound is
 * 1.2e-6 * stddev * r + 1 ulp of the result. */
static void normal_f32_formula(accel_device *dev, accel_queue *dq, void *user)
{
    (void)user;
    const size_t n = 40001; /* odd: the last element is a lone cosine half */
    const uint64_t off = 5; /* odd: the first is a lone sine half */
    const uint64_t seed = 0x5eed5eedull ^ tu_seed();
    const double mean = -1.5, stddev = 2.5;
    double *got = fill_on(dq, ACCEL_F32, true, seed, off, mean, stddev, n);
    const float mean_f = (float)mean, sd_f = (float)stddev;
    const float two_pi_f = 6.28318530717958647692f;
    double worst = 0;
    for (size_t i = 0; i < n; ++i) {
        uint64_t e = off + i;
        accel_philox_words w = accel_philox_block(e / 4, seed);
        uint32_t j = (uint32_t)(e % 4) & ~1u;
        float u1 = (float)((w.w[j] >> 8) + 1u) * 0x1p-24f;
        float u2 = (float)((w.w[j + 1] >> 8) + 1u) * 0x1p-24f;
        float theta = two_pi_f * u2;
        long double r = sqrtl(-2.0L * logl((long double)u1));
        long double t = (e % 2 == 0) ? cosl((long double)theta) : sinl((long double)theta);
        long double ref = (long double)mean_f + (long double)sd_f * r * t;
        long double tol = 1.2e-6L * sd_f * r + tu_ulp(ACCEL_F32, ref);
        long double d = fabsl((long double)got[i] - ref);
        cr_assert(d <= tol,
                  "%s: element %zu (stream %llu) got %.9g, formula %.12Lg (|diff| %.3Lg > %.3Lg)",
                  accel_device_name(dev), i, (unsigned long long)e, got[i], ref, d, tol);
        if (d / tol > worst)
            worst = (double)(d / tol);
    }
    cr_log_info("%s: f32 normal vs the formula: worst |diff| = %.3g of the bound",
                accel_device_name(dev), worst);
    free(got);
}

Test(rng, normal_f32_follows_the_single_precision_formula)
{
    accel_runtime *r = tu_open_default();
    tu_for_each_device(r, normal_f32_formula, NULL);
    accel_runtime_close(r);
}

/* The standard normal (mean 0, stddev 1), which a backend may compute with
 * those constants built in, against the general formula at stddev 2: with
 * mean 0 every step of the f32 formula scales exactly by 2 (fl(2r) = 2r,
 * fma(2r, cos, 0) = 2 fma(r, cos, 0)), so the two fills must agree to the
 * bit, on both store paths (stream offset 8: 16-byte stores; 5: element by
 * element). */
static void standard_normal_scales(accel_device *dev, accel_queue *dq, void *user)
{
    (void)user;
    const size_t n = 100003;
    const uint64_t seed = 0x57a9dull ^ tu_seed(), offs[2] = {8, 5};
    for (int k = 0; k < 2; ++k) {
        double *one = fill_on(dq, ACCEL_F32, true, seed, offs[k], 0.0, 1.0, n);
        double *two = fill_on(dq, ACCEL_F32, true, seed, offs[k], 0.0, 2.0, n);
        for (size_t i = 0; i < n; ++i)
            cr_assert(two[i] == 2.0 * one[i] && signbit(two[i]) == signbit(one[i]),
                      "%s: stream offset %llu, element %zu: stddev 2 gives %.9g, stddev 1 %.9g",
                      accel_device_name(dev), (unsigned long long)offs[k], i, two[i], one[i]);
        free(one);
        free(two);
    }
}

Test(rng, standard_normal_is_the_general_formula_bit_for_bit)
{
    accel_runtime *r = tu_open_default();
    tu_for_each_device(r, standard_normal_scales, NULL);
    accel_runtime_close(r);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Kolmogorov-Smirnov statistic of n sorted samples against cdf. */
static double ks_stat(const double *v, size_t n, double (*cdf)(double))
{
    double d = 0;
    for (size_t i = 0; i < n; ++i) {
        double f = cdf(v[i]);
        double lo = f - (double)i / (double)n, hi = (double)(i + 1) / (double)n - f;
        d = fmax(d, fmax(lo, hi));
    }
    return d;
}

static double cdf_uniform(double x)
{
    return x <= 0 ? 0 : x >= 1 ? 1 : x;
}

static double cdf_normal(double x) /* of N(3, 0.5^2) */
{
    return 0.5 * erfc(-(x - 3.0) / (0.5 * sqrt(2.0)));
}

/* Fixed seeds, so the verdict is the same on every run: at 2^16 samples
 * the 0.1% critical value of D is 1.9495 / sqrt(n) (Massey 1951). */
static void ks_body(accel_device *dev, accel_queue *dq, void *user)
{
    (void)user;
    const size_t n = (size_t)1 << 16;
    const double crit = 1.9495 / sqrt((double)n);
    for (int d = 0; d < 2; ++d) {
        accel_dtype dt = d ? ACCEL_F64 : ACCEL_F32;
        for (int normal = 0; normal < 2; ++normal) {
            double *v =
                fill_on(dq, dt, normal, 20261201u + (uint64_t)(2 * d + normal), 3, 3.0, 0.5, n);
            qsort(v, n, sizeof *v, cmp_double);
            double ks = ks_stat(v, n, normal ? cdf_normal : cdf_uniform);
            cr_log_info("%s %s %s: KS D = %.5f (critical %.5f)", accel_device_name(dev),
                        accel_dtype_name(dt), normal ? "normal" : "uniform", ks, crit);
            cr_assert(ks < crit, "%s %s %s: KS statistic %.5f >= %.5f", accel_device_name(dev),
                      accel_dtype_name(dt), normal ? "normal" : "uniform", ks, crit);
            free(v);
        }
    }
}

Test(rng, fills_pass_kolmogorov_smirnov)
{
    accel_runtime *r = tu_open_default();
    tu_for_each_device(r, ks_body, NULL);
    accel_runtime_close(r);
}
