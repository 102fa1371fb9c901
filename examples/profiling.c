/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* profiling — the tutorial's "profile, then tune" step, answered with events:
 * the walk-through's work (copy in, elementwise ops, reductions, random fill,
 * GEMM, copy out) on one queue with an event between every two ops, printed as
 * a table of op, device milliseconds and achieved GB/s (and GFLOP/s for GEMM).
 * The numbers say where time goes before any tuning; compare GB/s with the
 * device's memory bandwidth. The results are checked on the host.
 *
 *   usage: profiling [--device NAME] [--n 10000000] [--m 2048]
 */
#include "common.h"

#include <math.h>

#define MAX_OPS 16

int main(int argc, char **argv)
{
    int rc = 1;
    ex_opt opts[] = {
        {"n", "N", "elements of the elementwise ops (default 10000000)", NULL, "200003"},
        {"m", "N", "size of the m x m matmul (default 2048)", NULL, "200"},
        {NULL, NULL, NULL, NULL, NULL}};
    ex_parse(argc, argv, "[--device NAME] [--quick] [--n N] [--m N]", opts, 0);
    size_t n = ex_opt_size(opts, "n", 10000000);
    size_t m = ex_opt_size(opts, "m", 2048);
    size_t vb = n * sizeof(float), mb = m * m * sizeof(float);
    accel_runtime *rt = NULL;
    accel_device *dev = NULL;
    accel_queue *q = NULL;
    accel_event *ev[MAX_OPS + 1] = {NULL};
    accel_buffer *a = NULL, *b = NULL, *c = NULL, *r = NULL, *ma = NULL, *mc = NULL;
    float *ha = NULL, *hb = NULL, *hc = NULL, res[2];
    struct {
        const char *name;
        double bytes, flops;
    } op[MAX_OPS];
    int k = 0;

    CHECK(ex_open(&rt, &dev));
    CHECK(accel_queue_create(dev, &q));
    for (int i = 0; i <= MAX_OPS; i++)
        CHECK(accel_event_create(dev, &ev[i]));
    CHECK(accel_buffer_create(dev, vb, &a));
    CHECK(accel_buffer_create(dev, vb, &b));
    CHECK(accel_buffer_create(dev, vb, &c));
    CHECK(accel_buffer_create(dev, 2 * sizeof(float), &r));
    CHECK(accel_buffer_create(dev, mb, &ma));
    CHECK(accel_buffer_create(dev, mb, &mc));
    CHECK(accel_host_alloc(dev, vb, (void **)&ha));
    CHECK(accel_host_alloc(dev, vb, (void **)&hb));
    CHECK(accel_host_alloc(dev, vb, (void **)&hc));
    for (size_t i = 0; i < n; i++) {
        ha[i] = (float)(i % 997) / 997.0f;
        hb[i] = 0.5f - (float)(i % 101) / 202.0f;
    }
    /* Warm-up so start-up costs (cuBLAS handle, first touch) stay out of the table. */
    CHECK(accel_fill(q, ACCEL_F32, 1.0, accel_slice_of(ma, 0, 1)));
    CHECK(accel_matmul(q, ACCEL_F32, 1, 1, 1, ma, ma, mc));
    CHECK(accel_queue_finish(q));

    /* Each op between events ev[k] and ev[k+1]; bytes counted as read + written. */
#define TIMED(label, nbytes, nflops, call)                                                         \
    do {                                                                                           \
        op[k].name = (label);                                                                      \
        op[k].bytes = (nbytes);                                                                    \
        op[k].flops = (nflops);                                                                    \
        CHECK(call);                                                                               \
        CHECK(accel_event_record(ev[++k], q));                                                     \
    } while (0)
    CHECK(accel_event_record(ev[0], q));
    TIMED("write a (host to device)", vb, 0, accel_queue_write(q, a, 0, ha, vb));
    TIMED("write b (host to device)", vb, 0, accel_queue_write(q, b, 0, hb, vb));
    TIMED("add      c = a + b", 3.0 * vb, n,
          accel_add(q, ACCEL_F32, accel_slice_of(a, 0, n), accel_slice_of(b, 0, n),
                    accel_slice_of(c, 0, n)));
    TIMED("multiply c = c * a", 3.0 * vb, n,
          accel_mul(q, ACCEL_F32, accel_slice_of(c, 0, n), accel_slice_of(a, 0, n),
                    accel_slice_of(c, 0, n)));
    TIMED("exp      c = exp(c)", 2.0 * vb, n,
          accel_exp(q, ACCEL_F32, accel_slice_of(c, 0, n), accel_slice_of(c, 0, n)));
    TIMED("sum      r0 = sum(c)", vb, n,
          accel_sum(q, ACCEL_F32, accel_slice_of(c, 0, n), accel_slice_of(r, 0, 1)));
    TIMED("dot      r1 = a . b", 2.0 * vb, 2.0 * n,
          accel_dot(q, ACCEL_F32, accel_slice_of(a, 0, n), accel_slice_of(b, 0, n),
                    accel_slice_of(r, 1, 1)));
    TIMED("random   M = uniform", mb, 0,
          accel_random_uniform(q, ACCEL_F32, 7, 0, accel_slice_of(ma, 0, m * m)));
    TIMED("GEMM     C = M M", 3.0 * mb, 2.0 * m * m * m,
          accel_matmul(q, ACCEL_F32, m, m, m, ma, ma, mc));
    TIMED("read c (device to host)", vb, 0, accel_queue_read(q, c, 0, hc, vb));
#undef TIMED
    CHECK(accel_queue_read_blocking(q, r, 0, res, sizeof res));

    double total = 0;
    printf("%-26s %10s %10s %10s\n", "op", "ms", "GB/s", "GFLOP/s");
    for (int i = 0; i < k; i++) {
        double ms;
        CHECK(accel_event_elapsed_ms(ev[i], ev[i + 1], &ms));
        total += ms;
        printf("%-26s %10.3f %10.2f", op[i].name, ms, ex_gbps(op[i].bytes, ms));
        if (op[i].flops > 0 && ms > 0)
            printf(" %10.1f", op[i].flops / (ms * 1e6));
        printf("\n");
    }
    printf("%-26s %10.3f   (n = %zu, M = %zu)\n", "total", total, n, m);

    /* Checks: c = exp((a + b) * a) within 4 ulp per element; r0 and r1 within
     * 2 n u sum|.| of double sums (docs/checking.md, "Accuracy"). */
    size_t wrong = 0;
    double sum_c = 0, abs_c = 0, dot = 0, abs_dot = 0;
    for (size_t i = 0; i < n; i++) {
        float t = (ha[i] + hb[i]) * ha[i];
        double e = exp((double)t), ulp = nextafterf((float)e, INFINITY) - (float)e;
        wrong += !(fabs(hc[i] - e) <= 4 * ulp);
        sum_c += hc[i];
        abs_c += fabs(hc[i]);
        dot += (double)ha[i] * hb[i];
        abs_dot += fabs((double)ha[i] * hb[i]);
    }
    double u = 0x1p-24;
    int ok = wrong == 0 && fabs(res[0] - sum_c) <= 2 * n * u * abs_c + 1e-30 &&
             fabs(res[1] - dot) <= 2 * n * u * abs_dot + 1e-30;
    printf("check: %zu elements off, sum %.9g (host %.9g), dot %.9g (host %.9g): %s\n", wrong,
           (double)res[0], sum_c, (double)res[1], dot, ok ? "PASS" : "FAIL");
    rc = !ok;

done:
    accel_queue_release(q);
    for (int i = 0; i <= MAX_OPS; i++)
        accel_event_release(ev[i]);
    accel_buffer_release(a);
    accel_buffer_release(b);
    accel_buffer_release(c);
    accel_buffer_release(r);
    accel_buffer_release(ma);
    accel_buffer_release(mc);
    if (dev) {
        accel_host_free(dev, ha);
        accel_host_free(dev, hb);
        accel_host_free(dev, hc);
    }
    accel_runtime_close(rt);
    return rc;
}
