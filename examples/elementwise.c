/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* elementwise — the tutorial's PyCUDA step (multiply two 400-element random
 * vectors with a hand-written kernel) in accel: random numbers are made on the
 * device (Philox, the same numbers on every backend), then a * b and a few
 * unary ops run there; every result is checked on the host against double
 * precision. multiply, subtract, sqrt, abs and relu are correctly rounded, so
 * they must match exactly; exp, log and tanh may be a few ulp off (docs/checking.md,
 * "Accuracy").
 *
 *   usage: elementwise [--device NAME] [--n 400] [--seed 42]
 */
#include "common.h"

#include <math.h>

#define ULPS_TRANSCENDENTAL 4.0 /* above every backend's documented bound (<= 2.5) */

/* The ops, and the input each reads: a in [0,1), d = a - b in (-1,1). */
static const struct {
    const char *name;
    accel_op_code op;
    int on_d;
    double ulps;
} unary[] = {
    {"sqrt(a)", ACCEL_OP_SQRT, 0, 0},
    {"log(a)", ACCEL_OP_LOG, 0, ULPS_TRANSCENDENTAL},
    {"abs(d)", ACCEL_OP_ABS, 1, 0},
    {"relu(d)", ACCEL_OP_RELU, 1, 0},
    {"exp(d)", ACCEL_OP_EXP, 1, ULPS_TRANSCENDENTAL},
    {"tanh(d)", ACCEL_OP_TANH, 1, ULPS_TRANSCENDENTAL},
};
#define UNARY_COUNT (sizeof unary / sizeof unary[0])

static double host_unary(accel_op_code op, double x)
{
    switch (op) {
    case ACCEL_OP_SQRT:
        return sqrt(x);
    case ACCEL_OP_LOG:
        return log(x);
    case ACCEL_OP_ABS:
        return fabs(x);
    case ACCEL_OP_RELU:
        return x > 0 ? x : 0;
    case ACCEL_OP_EXP:
        return exp(x);
    case ACCEL_OP_TANH:
        return tanh(x);
    default:
        return NAN;
    }
}

/* Largest distance of got from the double-precision reference, in ulps of the
 * float reference (0 when equal; infinities must match exactly). */
static double max_ulps(const float *got, const float *in, accel_op_code op, size_t n)
{
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        double ref = host_unary(op, in[i]);
        float rf = (float)ref;
        if (got[i] == rf)
            continue;
        if (isinf(rf) || isinf(got[i]) || isnan(got[i]))
            return INFINITY;
        double ulp = nextafterf(fabsf(rf), INFINITY) - fabsf(rf);
        double e = fabs(got[i] - ref) / ulp;
        worst = e > worst ? e : worst;
    }
    return worst;
}

int main(int argc, char **argv)
{
    int rc = 1, bad = 0;
    ex_opt opts[] = {{"n", "N", "elements per vector (default 400)", NULL, "100003"},
                     {"seed", "N", "the random numbers' seed (default 42)", NULL, NULL},
                     {NULL, NULL, NULL, NULL, NULL}};
    ex_parse(argc, argv, "[--device NAME] [--quick] [--n N] [--seed N]", opts, 0);
    size_t n = ex_opt_size(opts, "n", 400);
    uint64_t seed = ex_opt_size(opts, "seed", 42);
    accel_runtime *rt = NULL;
    accel_device *dev = NULL;
    accel_queue *q = NULL;
    accel_event *t0 = NULL, *t1 = NULL;
    accel_buffer *a = NULL, *b = NULL, *c = NULL, *d = NULL, *u[UNARY_COUNT] = {NULL};
    float *ha = malloc(n * sizeof *ha + 1), *hb = malloc(n * sizeof *hb + 1);
    float *hc = malloc(n * sizeof *hc + 1), *hd = malloc(n * sizeof *hd + 1);
    size_t bytes = n * sizeof(float);
    if (!ha || !hb || !hc || !hd) {
        fprintf(stderr, "elementwise: out of host memory\n");
        goto done;
    }

    CHECK(ex_open(&rt, &dev));
    CHECK(accel_queue_create(dev, &q));
    CHECK(accel_event_create(dev, &t0));
    CHECK(accel_event_create(dev, &t1));
    CHECK(accel_buffer_create(dev, bytes, &a));
    CHECK(accel_buffer_create(dev, bytes, &b));
    CHECK(accel_buffer_create(dev, bytes, &c));
    CHECK(accel_buffer_create(dev, bytes, &d));
    for (size_t i = 0; i < UNARY_COUNT; i++)
        CHECK(accel_buffer_create(dev, bytes, &u[i]));

    /* a and b: elements [0, n) and [n, 2n) of one random stream. */
    CHECK(accel_random_uniform(q, ACCEL_F32, seed, 0, accel_slice_of(a, 0, n)));
    CHECK(accel_random_uniform(q, ACCEL_F32, seed, n, accel_slice_of(b, 0, n)));
    CHECK(accel_event_record(t0, q));
    CHECK(accel_mul(q, ACCEL_F32, accel_slice_of(a, 0, n), accel_slice_of(b, 0, n),
                    accel_slice_of(c, 0, n)));
    CHECK(accel_sub(q, ACCEL_F32, accel_slice_of(a, 0, n), accel_slice_of(b, 0, n),
                    accel_slice_of(d, 0, n)));
    for (size_t i = 0; i < UNARY_COUNT; i++)
        CHECK(accel_unary(q, unary[i].op, ACCEL_F32, accel_slice_of(unary[i].on_d ? d : a, 0, n),
                          accel_slice_of(u[i], 0, n)));
    CHECK(accel_event_record(t1, q));
    CHECK(accel_queue_read(q, a, 0, ha, bytes));
    CHECK(accel_queue_read(q, b, 0, hb, bytes));
    CHECK(accel_queue_read(q, c, 0, hc, bytes));
    CHECK(accel_queue_read_blocking(q, d, 0, hd, bytes));
    double ms;
    CHECK(accel_event_elapsed_ms(t0, t1, &ms));
    printf("n = %zu, seed %llu: %zu ops in %.3f ms of device time (%.1f GB/s)\n", n,
           (unsigned long long)seed, UNARY_COUNT + 2, ms,
           ex_gbps((double)bytes * (3 * 2 + 2 * UNARY_COUNT), ms));

    /* A product or difference of two floats is exact in double; rounding it to
     * float is then the correctly rounded result the device must give. */
    size_t wrong_mul = 0, wrong_sub = 0;
    for (size_t i = 0; i < n; i++) {
        wrong_mul += hc[i] != (float)((double)ha[i] * hb[i]);
        wrong_sub += hd[i] != (float)((double)ha[i] - hb[i]);
    }
    if (n)
        printf("  a[0] = %.7g, b[0] = %.7g, (a * b)[0] = %.7g on the device\n", (double)ha[0],
               (double)hb[0], (double)hc[0]);
    printf("  %-8s %s\n", "a * b", wrong_mul ? "FAIL" : "exact, PASS");
    printf("  %-8s %s\n", "a - b", wrong_sub ? "FAIL" : "exact, PASS");
    bad = wrong_mul || wrong_sub;
    for (size_t i = 0; i < UNARY_COUNT; i++) {
        CHECK(accel_queue_read_blocking(q, u[i], 0, hc, bytes));
        double e = max_ulps(hc, unary[i].on_d ? hd : ha, unary[i].op, n);
        int ok = e <= unary[i].ulps;
        bad |= !ok;
        printf("  %-8s max %.2f ulp (bound %.1f) %s\n", unary[i].name, e, unary[i].ulps,
               ok ? "PASS" : "FAIL");
    }
    rc = bad;
    printf("check: %s\n", bad ? "FAIL" : "PASS");

done:
    accel_queue_release(q);
    for (size_t i = 0; i < UNARY_COUNT; i++)
        accel_buffer_release(u[i]);
    accel_buffer_release(a);
    accel_buffer_release(b);
    accel_buffer_release(c);
    accel_buffer_release(d);
    accel_event_release(t0);
    accel_event_release(t1);
    accel_runtime_close(rt);
    free(ha);
    free(hb);
    free(hc);
    free(hd);
    return rc;
}
