/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* graph_bench.c — what recording a queue once buys: 100 dependent small f32
 * adds run eagerly (100 accel_add calls, then a finish), as one unfused graph
 * (ACCEL_GRAPH_NO_FUSION: the 100 recorded kernels) and as a fused graph
 * (accel_graph_launch, then a finish), end to end, with the host cost of one
 * accel_graph_launch call of the 100-node graph, on the chosen device. Then,
 * with --chain-n > 0, what fusion buys on large arrays: an 8-op f32 chain
 * out = sigmoid(relu(2 tanh(x*x + x) - x) * x) (8 ops, 7 temporaries) and
 * a*b+c, each as an unfused and a fused graph, with the fused time's ratio to
 * the copy-bandwidth bound of its bytes (inputs read once, outputs written
 * once: a device copy of the same bytes timed in the same interleaved
 * rounds) and to the unfused replay.
 *
 *   graph_bench [--device NAME] [--n 1024] [--ops 100] [--reps 200] [--core]
 *               [--chain-n 0] [--chain-reps 20] [--raw-us US]
 *
 * --core replays in the core (ACCEL_GRAPH_CORE_REPLAY) instead of through the
 * backend's graph entries, to show what the entries add. The backend's
 * account of the unfused graph is printed where it gives one (the CUDA
 * backend's info line: recorded nodes, CUDA graph nodes by type), with
 * whether it is one kernel node per add and nothing else. The raw CUDA
 * graph of the same adds, and accel's replay as a ratio of it in
 * interleaved rounds, is bench/graph_raw_cuda --accel. Results are checked
 * against a plain loop (x += 1 per op, exact in f32; the chains against a
 * double loop on a sample, relative 1e-5). */
#include "common.h"

#include <math.h>

/* The backend's account of the unfused graph it captured (the CUDA
 * backend logs "cuda: graph: N recorded nodes captured as M CUDA graph nodes
 * (K kernel, ...)" at info level when it instantiates one). */
static char backend_nodes[256];

static void log_line(int level, const char *message, void *user)
{
    (void)user;
    const char *p = strstr(message, "graph: ");
    if (p && strstr(p, " recorded nodes captured as ")) {
        snprintf(backend_nodes, sizeof backend_nodes, "%s", message);
        return;
    }
    if (level >= ACCEL_LOG_WARN)
        fprintf(stderr, "accel: %s\n", message);
}

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

/* The chains: 8 = the 8-op chain of x, 3 = a*b+c. */
static accel_status record(accel_queue *q, accel_device *dev, int which, size_t n,
                           accel_buffer *const *in, accel_buffer *out, accel_graph **g)
{
    accel_status st = accel_queue_begin_capture(q);
    if (st != ACCEL_SUCCESS)
        return st;
    accel_buffer *t[7] = {NULL};
    accel_slice x = accel_slice_of(in[0], 0, n), o = accel_slice_of(out, 0, n);
    for (int i = 0; i < (which == 8 ? 7 : 1) && st == ACCEL_SUCCESS; i++)
        st = accel_buffer_create(dev, n * 4, &t[i]);
    accel_slice s[7];
    for (int i = 0; i < 7; i++)
        s[i] = accel_slice_of(t[i], 0, n);
    if (st == ACCEL_SUCCESS && which == 8) {
        /* out = sigmoid(relu(2 tanh(x*x + x) - x) * x): 8 ops in order. */
        if (st == ACCEL_SUCCESS)
            st = accel_mul(q, ACCEL_F32, x, x, s[0]);
        if (st == ACCEL_SUCCESS)
            st = accel_add(q, ACCEL_F32, s[0], x, s[1]);
        if (st == ACCEL_SUCCESS)
            st = accel_tanh(q, ACCEL_F32, s[1], s[2]);
        if (st == ACCEL_SUCCESS)
            st = accel_scale(q, ACCEL_F32, 2.0, s[2], s[3]);
        if (st == ACCEL_SUCCESS)
            st = accel_sub(q, ACCEL_F32, s[3], x, s[4]);
        if (st == ACCEL_SUCCESS)
            st = accel_relu(q, ACCEL_F32, s[4], s[5]);
        if (st == ACCEL_SUCCESS)
            st = accel_mul(q, ACCEL_F32, s[5], x, s[6]);
        if (st == ACCEL_SUCCESS)
            st = accel_sigmoid(q, ACCEL_F32, s[6], o);
    } else if (st == ACCEL_SUCCESS) {
        accel_slice b = accel_slice_of(in[1], 0, n), c = accel_slice_of(in[2], 0, n);
        st = accel_mul(q, ACCEL_F32, x, b, s[0]);
        if (st == ACCEL_SUCCESS)
            st = accel_add(q, ACCEL_F32, s[0], c, o);
    }
    accel_status est = accel_queue_end_capture(q, g);
    return st != ACCEL_SUCCESS ? st : est;
}

static double chain_ref(int which, double x, double b, double c)
{
    if (which == 3)
        return x * b + c;
    double v = tanh(x * x + x) * 2 - x;
    v = (v <= 0 ? 0 : v) * x;
    return 1 / (1 + exp(-v));
}

static double time_graph(accel_graph *g, accel_queue *q, size_t reps, double *t)
{
    for (size_t r = 0; r <= reps; r++) {
        double t0 = ex_now_ms();
        if (accel_graph_launch(g, q) != ACCEL_SUCCESS || accel_queue_finish(q) != ACCEL_SUCCESS)
            return -1;
        if (r)
            t[r - 1] = ex_now_ms() - t0;
    }
    return median(t, reps);
}

/* A device copy of n f32 (src to dst), end to end like the graphs. */
static double time_copy(accel_queue *q, accel_buffer *src, accel_buffer *dst, size_t n, size_t reps,
                        double *t)
{
    for (size_t r = 0; r <= reps; r++) {
        double t0 = ex_now_ms();
        if (accel_queue_copy(q, src, 0, dst, 0, n * 4) != ACCEL_SUCCESS ||
            accel_queue_finish(q) != ACCEL_SUCCESS)
            return -1;
        if (r)
            t[r - 1] = ex_now_ms() - t0;
    }
    return median(t, reps);
}

/* "median (min..max)" of v[0, n) into buf. */
static const char *spread(char *buf, size_t size, const double *v, size_t n, const char *fmt)
{
    double s[64], mn = v[0], mx = v[0];
    for (size_t i = 0; i < n; i++) {
        s[i] = v[i];
        mn = v[i] < mn ? v[i] : mn;
        mx = v[i] > mx ? v[i] : mx;
    }
    char f[64];
    snprintf(f, sizeof f, "%s (%s..%s)", fmt, fmt, fmt);
    snprintf(buf, size, f, median(s, n), mn, mx);
    return buf;
}

#define CHAIN_ROUNDS 7

/* The fused chains over n f32 elements, in CHAIN_ROUNDS interleaved rounds
 * after a warm-up one: each round times (each the median of reps runs, end
 * to end) a device copy of n f32 (accel_queue_copy: the bytes of the 8-op
 * chain, one array read and one written) and, per chain, its unfused and its
 * fused graph, the order turning each round. The copy bound of a chain is
 * that round's copy time times its arrays / 2 (a*b+c: 4 arrays); the
 * device's measured copy bandwidth (accel_device_measure_ceilings) is shown
 * beside it. Returns 0 when they ran and agree. */
static int chains(accel_device *dev, accel_queue *q, size_t n, size_t reps)
{
    int rc = 1;
    accel_buffer *in[3] = {NULL}, *out[2] = {NULL}, *copy_dst = NULL;
    accel_graph *gu[2] = {NULL}, *gf[2] = {NULL};
    double *t = malloc((reps + 1) * sizeof *t);
    float *h = malloc(3 * 4096 * sizeof *h), *ho = malloc(4096 * sizeof *ho);
    static const int which[2] = {8, 3};
    double copy_ms[CHAIN_ROUNDS], fused[2][CHAIN_ROUNDS], unfused[2][CHAIN_ROUNDS];
    if (!t || !h || !ho)
        goto done;
    for (int i = 0; i < 3; i++)
        CHECK(accel_buffer_create(dev, n * 4, &in[i]));
    for (int w = 0; w < 2; w++)
        CHECK(accel_buffer_create(dev, n * 4, &out[w]));
    CHECK(accel_buffer_create(dev, n * 4, &copy_dst));
    /* Inputs: a 4096-value pattern in [-1, 1) tiled over n. */
    for (int i = 0; i < 3; i++) {
        for (size_t k = 0; k < 4096; k++)
            h[i * 4096 + k] = (float)((double)((k * (7 + 2 * i) + 3 * i) % 4096) / 2048.0 - 1.0);
        for (size_t off = 0; off < n; off += 4096)
            CHECK(accel_queue_write(q, in[i], off * 4, h + i * 4096,
                                    (n - off < 4096 ? n - off : 4096) * 4));
    }
    CHECK(accel_queue_finish(q));
    accel_ceilings_options co;
    accel_ceilings_options_init(&co);
    co.what = ACCEL_CEILING_COPY;
    accel_ceilings ceil;
    memset(&ceil, 0, sizeof ceil);
    ceil.struct_size = sizeof ceil;
    double copy_gbs =
        accel_device_measure_ceilings(dev, &co, &ceil) == ACCEL_SUCCESS ? ceil.copy_gbs : 0;
    for (int w = 0; w < 2; w++) {
        CHECK(record(q, dev, which[w], n, in, out[w], &gu[w]));
        CHECK(record(q, dev, which[w], n, in, out[w], &gf[w]));
        accel_graph_options opt;
        accel_graph_options_init(&opt);
        opt.flags = ACCEL_GRAPH_NO_FUSION;
        CHECK(accel_graph_instantiate(gu[w], &opt));
        CHECK(accel_graph_instantiate(gf[w], NULL));
    }
    for (int r = 0; r <= CHAIN_ROUNDS; r++) {
        double c = -1, f[2] = {-1, -1}, u[2] = {-1, -1};
        for (int k = 0; k < 5; k++) {
            int item = (k + r) % 5; /* 0 copy, 1-2 chain 8, 3-4 chain 3 */
            if (item == 0)
                c = time_copy(q, in[0], copy_dst, n, reps, t);
            else if (item % 2)
                u[(item - 1) / 2] = time_graph(gu[(item - 1) / 2], q, reps, t);
            else
                f[(item - 1) / 2] = time_graph(gf[(item - 1) / 2], q, reps, t);
        }
        if (c < 0 || f[0] < 0 || f[1] < 0 || u[0] < 0 || u[1] < 0)
            goto done;
        if (r == 0) /* warm-up */
            continue;
        copy_ms[r - 1] = c;
        for (int w = 0; w < 2; w++) {
            fused[w][r - 1] = f[w];
            unfused[w][r - 1] = u[w];
        }
    }
    char s1[96], s2[96], s3[96], s4[96], s5[96];
    printf("fused chains over %zu f32 elements, %d interleaved rounds of %zu runs each, median of "
           "the rounds' medians (min..max), end to end\n",
           n, CHAIN_ROUNDS, reps);
    printf("  device copy of %zu f32 (accel_queue_copy): %s ms, %.0f GB/s; the device's measured "
           "copy bandwidth %.0f GB/s\n",
           n, spread(s1, sizeof s1, copy_ms, CHAIN_ROUNDS, "%.3f"),
           8.0 * (double)n / (median(copy_ms, CHAIN_ROUNDS) * 1e6), copy_gbs);
    for (int w = 0; w < 2; w++) {
        CHECK(accel_graph_launch(gf[w], q));
        CHECK(accel_queue_read_blocking(q, out[w], 0, ho, 4096 * 4));
        for (size_t k = 0; k < 4096 && k < n; k++) {
            double ref = chain_ref(which[w], h[k], h[4096 + k], h[2 * 4096 + k]);
            if (fabs(ho[k] - ref) > 1e-5 * fabs(ref) + 1e-6) {
                fprintf(stderr, "chain %d: out[%zu] = %.9g, expected %.9g\n", which[w], k, ho[k],
                        ref);
                goto done;
            }
        }
        double arrays = which[w] == 8 ? 2 : 4, ratio[CHAIN_ROUNDS], speed[CHAIN_ROUNDS];
        for (int r = 0; r < CHAIN_ROUNDS; r++) {
            ratio[r] = copy_ms[r] * arrays / 2 / fused[w][r];
            speed[r] = unfused[w][r] / fused[w][r];
        }
        double bound_ms = copy_gbs > 0 ? (double)n * 4 * arrays / (copy_gbs * 1e6) : 0;
        printf("  %-22s unfused %s ms  fused %s ms\n",
               which[w] == 8 ? "8-op chain (2 arrays):" : "a*b+c (4 arrays):",
               spread(s2, sizeof s2, unfused[w], CHAIN_ROUNDS, "%.3f"),
               spread(s3, sizeof s3, fused[w], CHAIN_ROUNDS, "%.3f"));
        printf("  %-22s unfused / fused %s x  copy bound / fused %s  (measured copy bandwidth "
               "bound / fused %.3f)\n",
               "", spread(s4, sizeof s4, speed, CHAIN_ROUNDS, "%.2f"),
               spread(s5, sizeof s5, ratio, CHAIN_ROUNDS, "%.3f"),
               bound_ms > 0 ? bound_ms / median(fused[w], CHAIN_ROUNDS) : 0.0);
    }
    printf("chain results agree with a double loop (relative 1e-5)\n");
    rc = 0;
done:
    for (int w = 0; w < 2; w++) {
        accel_graph_release(gu[w]);
        accel_graph_release(gf[w]);
    }
    for (int i = 0; i < 3; i++)
        accel_buffer_release(in[i]);
    for (int w = 0; w < 2; w++)
        accel_buffer_release(out[w]);
    accel_buffer_release(copy_dst);
    free(t);
    free(h);
    free(ho);
    return rc;
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
    ex_opt opts[] = {
        {"n", "N", "elements per add (default 1024)", NULL, NULL},
        {"ops", "N", "dependent adds, 1 to 100000 (default 100)", NULL, NULL},
        {"reps", "N", "timed repeats (default 200)", NULL, "20"},
        {"core", NULL, "replay in the core, not through the backend's entries", NULL, NULL},
        {"chain-n", "N", "elements of the fused chains (default 0: skip them)", NULL, NULL},
        {"chain-reps", "N", "timed runs per round of the chains (default 20)", NULL, NULL},
        {"raw-us", "US",
         "the raw CUDA graph's time of the same adds (graph_raw_cuda), to print "
         "replay / raw",
         NULL, NULL},
        {NULL, NULL, NULL, NULL, NULL}};
    ex_parse(argc, argv,
             "[--device NAME] [--n N] [--ops N] [--reps N] [--quick] [--core] [--chain-n N] "
             "[--chain-reps N] [--raw-us US]",
             opts, 0);
    size_t chain_n = ex_opt_size(opts, "chain-n", 0);
    size_t chain_reps = ex_opt_size(opts, "chain-reps", 20);
    size_t n = ex_opt_count(opts, "n", 1024, 1, (size_t)1 << 30);
    size_t ops = ex_opt_count(opts, "ops", 100, 1, 100000);
    size_t reps = ex_opt_count(opts, "reps", 200, 1, 1000000);
    int core = ex_opt_value(opts, "core") != NULL;
    const char *raw_s = ex_opt_value(opts, "raw-us");
    char *raw_end = NULL;
    double raw_us = raw_s ? strtod(raw_s, &raw_end) : 0;
    if (raw_s && (raw_end == raw_s || *raw_end || !(raw_us > 0))) {
        fprintf(stderr, "--raw-us: bad value '%s' (microseconds > 0)\n", raw_s);
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
    opt.flags = (core ? ACCEL_GRAPH_CORE_REPLAY : 0) | ACCEL_GRAPH_NO_FUSION;
    /* Info-level lines only while the backend builds its graph. */
    bool log_env = getenv("ACCEL_LOG") != NULL;
    accel_set_log_callback(log_line, NULL);
    if (!log_env)
        accel_set_log_level(ACCEL_LOG_INFO);
    accel_status ist = accel_graph_instantiate(g, &opt);
    if (!log_env)
        accel_set_log_level(ACCEL_LOG_WARN);
    accel_set_log_callback(NULL, NULL);
    CHECK(ist);
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

    /* The same graph fused (the default): one kernel of the 100 adds. */
    opt.flags = core ? ACCEL_GRAPH_CORE_REPLAY : 0;
    CHECK(accel_graph_instantiate(g, &opt));
    bool fused_native = false;
    CHECK(accel_graph_backend_replay(g, &fused_native));
    for (size_t r = 0; r <= reps; r++) {
        double t1 = ex_now_ms();
        CHECK(accel_graph_launch(g, q));
        CHECK(accel_queue_finish(q));
        if (r)
            t[r - 1] = ex_now_ms() - t1;
    }
    double fused_us = 1e3 * median(t, reps);

    /* x was incremented once per op of every round. */
    size_t rounds = 3 * (reps + 1) + launches;
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
    printf("  graph replay, unfused (%s): %10.1f us\n",
           native ? "backend entries" : "core replay   ", graph_us);
    printf("  eager / graph:                  %10.2fx\n", eager_us / graph_us);
    if (raw_us > 0)
        printf("  graph replay / raw CUDA graph (%.1f us): %.3f (target <= 1.05; interleaved "
               "rounds: graph_raw_cuda --accel)\n",
               raw_us, graph_us / raw_us);
    printf("  host cost of accel_graph_launch (%zu-node graph): %.2f us\n", ops, launch_us);
    if (backend_nodes[0]) {
        /* One kernel node per recorded add, nothing else. */
        size_t rec = 0, total = 0, kern = 0, cpy = 0, set = 0, ev = 0, other = 0;
        bool one_each =
            sscanf(strstr(backend_nodes, "graph: ") + 7,
                   "%zu recorded nodes captured as %zu CUDA graph nodes (%zu kernel, %zu memcpy, "
                   "%zu memset, %zu event, %zu other)",
                   &rec, &total, &kern, &cpy, &set, &ev, &other) == 7 &&
            rec == ops && total == ops && kern == ops;
        printf("  backend graph (its log line): %s\n  one kernel node per op, no other node: %s\n",
               backend_nodes, one_each ? "yes" : "NO");
    } else {
        printf("  backend graph: %s\n",
               native ? "the backend does not say its node count" : "none (core replay)");
    }
    printf("  graph replay, fused (%s):   %10.1f us (eager / fused %.2fx)\n",
           fused_native ? "backend entries" : "core replay   ", fused_us, eager_us / fused_us);
    printf("results agree with the reference (x = %.0f)\n", want);
    if (chain_n && chains(dev, q, chain_n, chain_reps) != 0)
        goto done;
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
