/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* graph_solver.c — a Jacobi solver of many small ops, run three ways: eagerly
 * (each op an accel call), as a recorded graph replayed unfused
 * (ACCEL_GRAPH_NO_FUSION) and as the same graph fused (the default). Prints
 * the three times and checks that the three solutions agree.
 *
 * The problem: -u'' = f on (0, 1), u(0) = u(1) = 0, on n interior points of
 * spacing h = 1/(n+1), f = pi^2 sin(pi x) (so u = sin(pi x)). One Jacobi
 * sweep is v[i] = (u[i-1] + u[i+1] + h^2 f[i]) / 2 for every interior i:
 *
 *   accel_add(u[0:n], u[2:n+2] -> t)            t: a temporary of the graph
 *   accel_scale(h^2 / 2, f -> v[1:n+1])
 *   accel_axpby(0.5, t, 1, v[1:n+1])
 *
 * and the next sweep goes from v back to u. A recorded graph holds --sweeps
 * sweeps (default 20) and is launched until --iters sweeps ran; fusion makes
 * each sweep one kernel (the three ops read u's two overlapping ranges and
 * write v once; t is never written to memory).
 *
 *   graph_solver [--device NAME] [--n 4096] [--iters 2000] [--sweeps 20]
 *
 * The solutions must agree to 1e-12 (f64; fused kernels keep t in a
 * register and may round differently in the last bit). The eager solution is
 * also checked against the closed form of the iteration: f is the slowest
 * Jacobi mode sin(pi x), whose sweep factor is cos(pi h), so from u = 0 the
 * iterate after K sweeps is exactly A (1 - cos(pi h)^K) sin(pi x_i), with
 * A = (pi h)^2 / (2 - 2 cos(pi h)) the discrete solution's amplitude (Jacobi
 * needs O(n^2) sweeps to converge; the check holds after any number). */
#include "common.h"

#include <math.h>

/* One sweep from a to b (interior ranges of n elements). */
static accel_status sweep(accel_queue *q, accel_buffer *a, accel_buffer *b, accel_buffer *f,
                          accel_buffer *t, size_t n, double h2)
{
    accel_status st = accel_add(q, ACCEL_F64, accel_slice_of(a, 0, n), accel_slice_of(a, 2, n),
                                accel_slice_of(t, 0, n));
    if (st == ACCEL_SUCCESS)
        st = accel_scale(q, ACCEL_F64, h2 / 2, accel_slice_of(f, 0, n), accel_slice_of(b, 1, n));
    if (st == ACCEL_SUCCESS)
        st = accel_axpby(q, ACCEL_F64, 0.5, accel_slice_of(t, 0, n), 1.0, accel_slice_of(b, 1, n));
    return st;
}

/* u = v = 0 (boundaries included). */
static accel_status reset(accel_queue *q, accel_buffer *u, accel_buffer *v, size_t n)
{
    accel_status st = accel_fill(q, ACCEL_F64, 0.0, accel_slice_of(u, 0, n + 2));
    if (st == ACCEL_SUCCESS)
        st = accel_fill(q, ACCEL_F64, 0.0, accel_slice_of(v, 0, n + 2));
    return st;
}

int main(int argc, char **argv)
{
    int rc = 1;
    accel_runtime *rt = NULL;
    accel_device *dev = NULL;
    accel_queue *q = NULL;
    accel_buffer *u = NULL, *v = NULL, *f = NULL, *t = NULL;
    accel_graph *g = NULL;
    double *hf = NULL, *res[3] = {NULL, NULL, NULL};
    ex_opt opts[] = {{"n", "N", "interior points (default 4096)", NULL, "1000"},
                     {"iters", "N", "Jacobi sweeps in all (default 2000)", NULL, "400"},
                     {"sweeps", "N", "sweeps per recorded graph, even (default 20)", NULL, NULL},
                     {NULL, NULL, NULL, NULL, NULL}};
    ex_parse(argc, argv, "[--device NAME] [--quick] [--n N] [--iters N] [--sweeps N]", opts, 0);
    size_t n = ex_opt_size(opts, "n", 4096);
    size_t iters = ex_opt_size(opts, "iters", 2000);
    size_t per = ex_opt_size(opts, "sweeps", 20);
    if (n == 0 || per == 0 || per % 2 || iters % per) {
        fprintf(stderr, "--n > 0, --sweeps even and > 0, --iters a multiple of --sweeps\n");
        return 2;
    }
    CHECK(ex_open(&rt, &dev));
    CHECK(accel_queue_create(dev, &q));
    CHECK(accel_buffer_create(dev, (n + 2) * 8, &u));
    CHECK(accel_buffer_create(dev, (n + 2) * 8, &v));
    CHECK(accel_buffer_create(dev, n * 8, &f));
    hf = malloc(n * 8);
    for (int k = 0; k < 3; k++)
        res[k] = malloc((n + 2) * 8);
    if (!hf || !res[0] || !res[1] || !res[2]) {
        fprintf(stderr, "out of host memory\n");
        goto done;
    }
    const double pi = 3.14159265358979323846, h = 1.0 / (double)(n + 1), h2 = h * h;
    for (size_t i = 0; i < n; i++)
        hf[i] = pi * pi * sin(pi * (double)(i + 1) * h);
    CHECK(accel_queue_write(q, f, 0, hf, n * 8));

    /* 1. Eager: every op an accel call. */
    CHECK(accel_buffer_create(dev, n * 8, &t));
    CHECK(reset(q, u, v, n));
    CHECK(accel_queue_finish(q));
    double t0 = ex_now_ms();
    for (size_t s = 0; s < iters; s += 2) {
        CHECK(sweep(q, u, v, f, t, n, h2));
        CHECK(sweep(q, v, u, f, t, n, h2));
    }
    CHECK(accel_queue_finish(q));
    double eager_ms = ex_now_ms() - t0;
    CHECK(accel_queue_read_blocking(q, u, 0, res[0], (n + 2) * 8));
    accel_buffer_release(t);
    t = NULL;

    /* 2 and 3. One graph of `per` sweeps; its temporary t is created inside
     * the capture (the graph owns it). */
    CHECK(accel_queue_begin_capture(q));
    CHECK(accel_buffer_create(dev, n * 8, &t));
    for (size_t s = 0; s < per; s += 2) {
        CHECK(sweep(q, u, v, f, t, n, h2));
        CHECK(sweep(q, v, u, f, t, n, h2));
    }
    CHECK(accel_queue_end_capture(q, &g));
    double ms[2];
    for (int k = 0; k < 2; k++) {
        accel_graph_options opt;
        accel_graph_options_init(&opt);
        opt.flags = k == 0 ? ACCEL_GRAPH_NO_FUSION : 0;
        CHECK(accel_graph_instantiate(g, &opt));
        CHECK(reset(q, u, v, n));
        CHECK(accel_graph_launch(g, q)); /* warm-up: builds the fused kernel */
        CHECK(reset(q, u, v, n));
        CHECK(accel_queue_finish(q));
        t0 = ex_now_ms();
        for (size_t s = 0; s < iters; s += per)
            CHECK(accel_graph_launch(g, q));
        CHECK(accel_queue_finish(q));
        ms[k] = ex_now_ms() - t0;
        CHECK(accel_queue_read_blocking(q, u, 0, res[k + 1], (n + 2) * 8));
    }
    accel_graph_node_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    CHECK(accel_graph_node_info_get(g, 0, &info));

    const double amp = pi * pi * h2 / (2.0 - 2.0 * cos(pi * h));
    const double left = amp * (1.0 - pow(cos(pi * h), (double)iters));
    double diff[2] = {0, 0}, err = 0;
    for (size_t i = 0; i < n + 2; i++) {
        for (int k = 0; k < 2; k++) {
            double d = fabs(res[k + 1][i] - res[0][i]);
            if (!(d <= diff[k]))
                diff[k] = d;
        }
        double e = fabs(res[0][i] - left * sin(pi * (double)i * h));
        if (e > err)
            err = e;
    }
    printf("Jacobi, %zu points, %zu sweeps of 3 ops (%zu ops), %zu sweeps per graph\n", n, iters,
           3 * iters, per);
    printf("  eager:          %10.2f ms\n", eager_ms);
    printf("  graph:          %10.2f ms  (eager / graph %.2fx)\n", ms[0], eager_ms / ms[0]);
    printf("  fused graph:    %10.2f ms  (eager / fused %.2fx; node 0 runs in %s)\n", ms[1],
           eager_ms / ms[1], info.fused ? info.fused : "no fused kernel");
    printf("  max |graph - eager| = %.3g, max |fused - eager| = %.3g\n", diff[0], diff[1]);
    printf("  max |eager - A (1 - cos(pi h)^K) sin(pi x)| = %.3g (K = %zu sweeps; the amplitude "
           "reached %.4g of the solution's %.4g)\n",
           err, iters, left, amp);
    if (!(diff[0] <= 1e-12 && diff[1] <= 1e-12)) {
        fprintf(stderr, "the three solutions disagree\n");
        goto done;
    }
    if (!(err <= 1e-9)) {
        fprintf(stderr, "the eager solution is not the closed form of the Jacobi iteration\n");
        goto done;
    }
    printf("the three solutions agree (1e-12) and match the closed form (1e-9)\n");
    rc = 0;
done:
    if (!g)
        accel_buffer_release(t); /* inside the capture t became the graph's */
    accel_graph_release(g);
    accel_buffer_release(u);
    accel_buffer_release(v);
    accel_buffer_release(f);
    accel_queue_release(q);
    accel_runtime_close(rt);
    free(hf);
    for (int k = 0; k < 3; k++)
        free(res[k]);
    return rc;
}
