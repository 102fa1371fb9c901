/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_rng.c — random streams that advance themselves (core/rng.c): each
 * fill through an accel_rng equals accel_random_uniform / _normal at the
 * documented element offset (position * 4 for f32, * 2 for f64), the
 * position advances by whole Philox blocks, successive fills differ, the same
 * seed repeats the sequence, seeking back repeats fills, and bad input gets
 * a clear status. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

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
