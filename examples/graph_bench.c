/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* graph_bench.c — what recording a queue once buys: 100 dependent small f32
 * adds run eagerly (100 accel_add calls, then a finish) and as one graph
 * (accel_graph_launch, then a finish), end to end, with the host cost of one
 * accel_graph_launch call, on the chosen device. Prints the medians and the
 * ratio eager / graph.
 *
 *   graph_bench [--device NAME] [--n 1024] [--ops 100] [--reps 200] [--core]
 *
 * --core replays in the core (ACCEL_GRAPH_CORE_REPLAY) instead of through the
 * backend's graph entries, to show what the entries add. Results are checked
 * against a plain loop (x += 1 per op, exact in f32). */
#include "common.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int main(int argc, char **argv)
{
    int rc = 1;
    accel_runtime *rt = NULL;
    accel_device *dev = NULL;
    accel_queue *q = NULL;
    accel_buffer *x = NULL, *one = NULL;
    accel_graph *g = NULL;
    float *host = NULL;
    double *t = NULL;
    ex_opt opts[] = {{"n", "N", "elements per add (default 1024)", NULL},
                     {"ops", "N", "dependent adds (default 100)", NULL},
                     {"reps", "N", "timed repeats (default 200, 20 with --quick)", NULL},
                     {"quick", NULL, "fewer repeats", NULL},
                     {"core", NULL, "replay in the core, not through the backend's entries", NULL},
                     {NULL, NULL, NULL, NULL}};
    ex_parse(argc, argv, "[--device NAME] [--n N] [--ops N] [--reps N] [--quick] [--core]", opts,
             0);
    size_t n = ex_opt_size(opts, "n", 1024);
    size_t ops = ex_opt_size(opts, "ops", 100);
    size_t reps = ex_opt_size(opts, "reps", ex_opt_value(opts, "quick") ? 20 : 200);
    int core = ex_opt_value(opts, "core") != NULL;
    if (n == 0 || ops == 0 || reps == 0) {
        fprintf(stderr, "--n, --ops and --reps must be > 0\n");
        return 2;
    }
    CHECK(ex_open(&rt, &dev));
    CHECK(accel_queue_create(dev, &q));
    CHECK(accel_buffer_create(dev, n * 4, &x));
    CHECK(accel_buffer_create(dev, n * 4, &one));
    host = malloc(n * 4);
    t = malloc(reps * sizeof *t);
    if (!host || !t) {
        fprintf(stderr, "out of host memory\n");
        goto done;
    }
    accel_slice sx = accel_slice_of(x, 0, n), so = accel_slice_of(one, 0, n);
    CHECK(accel_fill(q, ACCEL_F32, 0.0, sx));
    CHECK(accel_fill(q, ACCEL_F32, 1.0, so));
    CHECK(accel_queue_finish(q));

    /* Eager: ops calls, then a finish. One warm-up round. */
    for (size_t r = 0; r <= reps; r++) {
        double t0 = ex_now_ms();
        for (size_t i = 0; i < ops; i++)
            CHECK(accel_add(q, ACCEL_F32, sx, so, sx));
        CHECK(accel_queue_finish(q));
        if (r)
            t[r - 1] = ex_now_ms() - t0;
    }
    double eager_us = 1e3 * median(t, reps);

    CHECK(accel_queue_begin_capture(q));
    for (size_t i = 0; i < ops; i++)
        CHECK(accel_add(q, ACCEL_F32, sx, so, sx));
    CHECK(accel_queue_end_capture(q, &g));
    accel_graph_options opt;
    accel_graph_options_init(&opt);
    opt.flags = core ? ACCEL_GRAPH_CORE_REPLAY : 0;
    CHECK(accel_graph_instantiate(g, &opt));
    bool native = false;
    CHECK(accel_graph_backend_replay(g, &native));

    for (size_t r = 0; r <= reps; r++) {
        double t0 = ex_now_ms();
        CHECK(accel_graph_launch(g, q));
        CHECK(accel_queue_finish(q));
        if (r)
            t[r - 1] = ex_now_ms() - t0;
    }
    double graph_us = 1e3 * median(t, reps);

    /* Host cost of the launch call alone: launches back to back (the queue
     * runs them meanwhile), then one finish. */
    size_t launches = reps < 100 ? 100 : reps;
    double t0 = ex_now_ms();
    for (size_t r = 0; r < launches; r++)
        CHECK(accel_graph_launch(g, q));
    double launch_us = 1e3 * (ex_now_ms() - t0) / (double)launches;
    CHECK(accel_queue_finish(q));

    /* x was incremented once per op of every round. */
    size_t rounds = 2 * (reps + 1) + launches;
    CHECK(accel_queue_read_blocking(q, x, 0, host, n * 4));
    double want = (double)rounds * (double)ops;
    for (size_t i = 0; i < n; i++)
        if ((double)host[i] != want) {
            fprintf(stderr, "x[%zu] = %.1f, expected %.1f\n", i, host[i], want);
            goto done;
        }

    printf("%zu dependent %zu-element f32 adds, median of %zu runs, end to end (enqueue + "
           "finish)\n",
           ops, n, reps);
    printf("  eager accel_add x%zu:           %10.1f us\n", ops, eager_us);
    printf("  graph replay (%s): %10.1f us\n", native ? "backend entries" : "core replay   ",
           graph_us);
    printf("  eager / graph:                  %10.2fx\n", eager_us / graph_us);
    printf("  host cost of accel_graph_launch (%zu-node graph): %.2f us\n", ops, launch_us);
    printf("results agree with the reference (x = %.0f)\n", want);
    rc = 0;
done:
    accel_graph_release(g);
    accel_buffer_release(x);
    accel_buffer_release(one);
    accel_queue_release(q);
    accel_runtime_close(rt);
    free(host);
    free(t);
    return rc;
}
