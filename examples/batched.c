/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* batched — the tutorial's "split large data sets into batches so the GPU does
 * not run out of memory", with its "streams" section on top: a data set on the
 * host larger than the device memory the program may use (--mem-cap) goes
 * through the device in chunks with accel_batch_run, which cuts the data from
 * measured copy rates, spreads the chunks over several queues and overlaps
 * one chunk's copy-in with another's compute. Each chunk gives its sum and sum
 * of squares (accel_sum, accel_dot: 8 bytes per chunk back to the host),
 * accumulated on the host in double.
 *
 * It runs twice: from the caller's ordinary (pageable) malloc memory, then
 * from the same memory page-locked with accel_host_register, and prints each
 * rate against the pinned host-to-device rate measured in the same run
 * (accel_queue_write from accel_host_alloc memory). From pageable memory a
 * GPU backend first copies each chunk on the host into page-locked memory,
 * so the host's memcpy rate is the other ceiling of that run: the example
 * measures it too, from the data set into page-locked memory on 1, 2, 4, ...
 * threads up to the cores it may use. Each result must equal the
 * one-shot result, the whole array at once on the CPU device, within the
 * documented bound of sum and dot: each is within 2 n u sum|x_i| of the exact
 * value (u = 2^-24; tests/test_ops.c, Higham 2002, 4.2), so two results differ
 * by at most 4 n u sum|x_i|.
 *
 * The figure a user sees is the whole call: each run is a first call (which
 * sets up the queues and page-locked staging that later calls on the device
 * reuse) and --repeat warm calls, printed as their median with min..max and
 * with where each call's time went (setup, warm-up, chunks, teardown).
 *
 *   usage: batched [--device NAME] [--n 50000000] [--mem-cap 64M] [--chunk N]
 *                  [--queues N] [--repeat 5]
 */
#include "common.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

/* The work on one chunk: out[0] = sum, out[1] = sum of squares. */
static accel_status chunk_sums(accel_queue *q, const accel_batch_chunk *c, void *user)
{
    (void)user;
    accel_slice x = accel_slice_of(c->in[0], 0, c->elems);
    accel_status st = accel_sum(q, ACCEL_F32, x, accel_slice_of(c->out[0], 0, 1));
    if (st == ACCEL_SUCCESS)
        st = accel_dot(q, ACCEL_F32, x, x, accel_slice_of(c->out[0], 1, 1));
    return st;
}

#define MAX_REPEAT 64

/* Sum and sum of squares of x[0..n) through dev under a device memory cap:
 * plan (which measures the copy rate from this very memory, unless a
 * previous plan on the same kind of memory did), size the per-chunk
 * results, run 1 + repeat times (the first call sets up what later calls
 * reuse: queues, staging, page-locked room). runs[] gets every run's
 * stats; out the last run's sums. */
static accel_status batched_sums(accel_device *dev, const float *x, size_t n, size_t cap,
                                 const accel_batch_stats *want, unsigned repeat,
                                 accel_batch_stats *plan, accel_batch_stats *runs, double out[2])
{
    accel_batch_desc d;
    accel_batch_desc_init(&d);
    d.n = n;
    d.in_count = 1;
    d.in[0] = (accel_batch_array){(void *)x, n * sizeof *x, sizeof *x, 0};
    d.out_count = 1;
    d.out[0].chunk_bytes = 2 * sizeof(float);
    d.compute = chunk_sums;
    d.device_bytes = cap;
    d.chunk_elems = want->chunk_elems; /* 0: the helper's choice */
    d.queues = want->queues;
    accel_status st = accel_batch_plan(dev, &d, plan);
    if (st != ACCEL_SUCCESS)
        return st;
    d.chunk_elems = plan->chunk_elems; /* the run cuts as planned, without a second probe */
    d.queues = plan->queues;
    float *part = malloc(plan->chunks * 2 * sizeof(float) + 1);
    if (!part)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    d.out[0].host = part;
    d.out[0].bytes = plan->chunks * 2 * sizeof(float);
    for (unsigned r = 0; r <= repeat && st == ACCEL_SUCCESS; r++) {
        accel_batch_stats_init(&runs[r]);
        double t0 = ex_now_ms();
        st = accel_batch_run(dev, &d, &runs[r]);
        runs[r].call_ms = ex_now_ms() - t0; /* as the caller sees it */
        out[0] = out[1] = 0;
        for (uint64_t i = 0; st == ACCEL_SUCCESS && i < plan->chunks; i++) {
            out[0] += part[2 * i];
            out[1] += part[2 * i + 1];
        }
    }
    free(part);
    return st;
}

/* Chunk-sized accel_queue_write calls from x back to back over the whole
 * data set, in turn over `queues` queues, wall ms of the best of 3: the
 * backend's own rate from this memory, the ceiling of a batch run with
 * nothing around the copies. */
static accel_status writes_alone(accel_device *dev, const float *x, size_t n, size_t chunk,
                                 uint32_t queues, double *best_ms)
{
    accel_queue *q[4] = {NULL, NULL, NULL, NULL};
    accel_buffer *b[4] = {NULL, NULL, NULL, NULL};
    accel_status st = ACCEL_SUCCESS;
    queues = queues < 1 ? 1 : queues > 4 ? 4 : queues;
    *best_ms = 0;
    for (uint32_t i = 0; i < queues && st == ACCEL_SUCCESS; i++) {
        st = accel_queue_create(dev, &q[i]);
        if (st == ACCEL_SUCCESS)
            st = accel_buffer_create(dev, chunk * sizeof *x, &b[i]);
    }
    for (int rep = 0; rep < 4 && st == ACCEL_SUCCESS; rep++) { /* rep 0 sets staging up */
        double t0 = ex_now_ms();
        uint32_t k = 0;
        for (size_t first = 0; first < n && st == ACCEL_SUCCESS; first += chunk, k++) {
            size_t m = n - first < chunk ? n - first : chunk;
            st = accel_queue_write(q[k % queues], b[k % queues], 0, x + first, m * sizeof *x);
        }
        for (uint32_t i = 0; i < queues && st == ACCEL_SUCCESS; i++)
            st = accel_queue_finish(q[i]);
        double ms = ex_now_ms() - t0;
        if (rep > 0 && (*best_ms == 0 || ms < *best_ms))
            *best_ms = ms;
    }
    for (uint32_t i = 0; i < 4; i++) {
        accel_buffer_release(b[i]);
        accel_queue_release(q[i]);
    }
    return st;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median, min and max of the double at byte offset `at` of
 * accel_batch_stats over runs[0..count). */
static void spread(const accel_batch_stats *runs, unsigned count, size_t at, double out[3])
{
    double v[MAX_REPEAT + 1];
    for (unsigned i = 0; i < count; i++)
        memcpy(&v[i], (const char *)&runs[i] + at, sizeof v[i]);
    qsort(v, count, sizeof v[0], cmp_double);
    out[0] = count % 2 ? v[count / 2] : 0.5 * (v[count / 2 - 1] + v[count / 2]);
    out[1] = v[0];
    out[2] = v[count - 1];
}

/* The pinned host-to-device rate on dev, GB/s: the best of 5 event-timed
 * accel_queue_write calls of `bytes` from accel_host_alloc memory. */
static accel_status pinned_h2d(accel_device *dev, size_t bytes, double *gbs)
{
    accel_queue *q = NULL;
    accel_buffer *b = NULL;
    accel_event *e0 = NULL, *e1 = NULL;
    void *h = NULL;
    double best = 0;
    accel_status st = accel_queue_create(dev, &q);
    if (st == ACCEL_SUCCESS)
        st = accel_buffer_create(dev, bytes, &b);
    if (st == ACCEL_SUCCESS)
        st = accel_host_alloc(dev, bytes, &h);
    if (st == ACCEL_SUCCESS)
        st = accel_event_create(dev, &e0);
    if (st == ACCEL_SUCCESS)
        st = accel_event_create(dev, &e1);
    if (st == ACCEL_SUCCESS)
        memset(h, 1, bytes);
    for (int rep = 0; rep < 6 && st == ACCEL_SUCCESS; rep++) { /* rep 0 warms up */
        double ms = 0;
        st = accel_event_record(e0, q);
        if (st == ACCEL_SUCCESS)
            st = accel_queue_write(q, b, 0, h, bytes);
        if (st == ACCEL_SUCCESS)
            st = accel_event_record(e1, q);
        if (st == ACCEL_SUCCESS)
            st = accel_event_synchronize(e1);
        if (st == ACCEL_SUCCESS)
            st = accel_event_elapsed_ms(e0, e1, &ms);
        if (st == ACCEL_SUCCESS && rep > 0 && ex_gbps((double)bytes, ms) > best)
            best = ex_gbps((double)bytes, ms);
    }
    *gbs = best;
    accel_event_release(e0);
    accel_event_release(e1);
    accel_buffer_release(b);
    accel_queue_release(q);
    if (h)
        accel_host_free(dev, h);
    return st;
}

/* One thread of memcpy_rate: copy its share of every window of the source
 * into the same share of dst. */
typedef struct copy_job {
    const char *src;
    char *dst;
    size_t total, window, lo, hi; /* [lo, hi) of each window */
} copy_job;

static void *copy_share(void *arg)
{
    const copy_job *j = arg;
    for (size_t w = 0; w + j->window <= j->total; w += j->window)
        memcpy(j->dst + j->lo, j->src + w + j->lo, j->hi - j->lo);
    return NULL;
}

/* Host memcpy rate, GB/s, from src (total bytes, pageable) into dst (window
 * bytes, page-locked) on `threads` threads: each thread copies its share of
 * every window-sized slice of src, so every source byte is read once. The
 * best of 3. */
static double memcpy_rate(const char *src, size_t total, char *dst, size_t window, unsigned threads)
{
    pthread_t tid[64];
    copy_job job[64];
    double best = 0;
    size_t used = total / window * window;
    for (int rep = 0; rep < 3; rep++) {
        double t0 = ex_now_ms();
        unsigned started = 0;
        for (unsigned t = 0; t < threads; t++) {
            size_t share = (window / threads + 63) & ~(size_t)63;
            size_t lo = t * share < window ? t * share : window;
            size_t hi = lo + share < window && t + 1 < threads ? lo + share : window;
            job[t] = (copy_job){src, dst, used, window, lo, hi};
            if (t == 0 || pthread_create(&tid[t], NULL, copy_share, &job[t]) == 0)
                started = t + 1;
        }
        copy_share(&job[0]);
        for (unsigned t = 1; t < started; t++)
            pthread_join(tid[t], NULL);
        double ms = ex_now_ms() - t0;
        if (started == threads && ex_gbps((double)used, ms) > best)
            best = ex_gbps((double)used, ms);
    }
    return best;
}

/* The memcpy rates on 1, 2, 4, ... threads up to the cores this process may
 * use (at most 64), printed on one line; returns the best. */
static accel_status memcpy_ceiling(accel_device *dev, const float *x, size_t n, double *best)
{
    size_t window = (size_t)16 << 20;
    size_t total = n * sizeof *x;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    double load[3] = {0, 0, 0};
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
            load[0] = load[1] = load[2] = -1;
        fclose(f);
    }
    *best = 0;
    if (total < window)
        window = total & ~(size_t)4095;
    if (window == 0)
        return ACCEL_SUCCESS;
    void *dst = NULL;
    accel_status st = accel_host_alloc(dev, window, &dst);
    if (st != ACCEL_SUCCESS)
        return st;
    memset(dst, 0, window);
    printf("host memcpy, data set -> page-locked, GB/s (%ld cores, load %.2f):", cores, load[0]);
    unsigned most = cores < 1 ? 1u : cores > 64 ? 64u : (unsigned)cores;
    for (unsigned t = 1;; t = t * 2 < most ? t * 2 : most) {
        double r = memcpy_rate((const char *)x, total, dst, window, t);
        printf(" %u: %.1f", t, r);
        *best = r > *best ? r : *best;
        if (t == most)
            break;
    }
    printf("\n");
    accel_host_free(dev, dst);
    return ACCEL_SUCCESS;
}

/* sum and sum of squares of x[0..n) on dev in one go; no cap (the reference). */
static accel_status one_shot(accel_device *dev, const float *x, size_t n, double out[2])
{
    accel_queue *q = NULL;
    accel_buffer *b = NULL, *r = NULL;
    float res[2] = {0, 0};
    accel_status st = accel_queue_create(dev, &q);
    if (st == ACCEL_SUCCESS)
        st = accel_buffer_create(dev, n * sizeof(float) + 1, &b);
    if (st == ACCEL_SUCCESS)
        st = accel_buffer_create(dev, sizeof res, &r);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_write(q, b, 0, x, n * sizeof(float));
    if (st == ACCEL_SUCCESS)
        st = accel_sum(q, ACCEL_F32, accel_slice_of(b, 0, n), accel_slice_of(r, 0, 1));
    if (st == ACCEL_SUCCESS)
        st = accel_dot(q, ACCEL_F32, accel_slice_of(b, 0, n), accel_slice_of(b, 0, n),
                       accel_slice_of(r, 1, 1));
    if (st == ACCEL_SUCCESS)
        st = accel_queue_read_blocking(q, r, 0, res, sizeof res);
    out[0] = res[0];
    out[1] = res[1];
    accel_queue_release(q);
    accel_buffer_release(b);
    accel_buffer_release(r);
    return st;
}

/* The cut, then the first call and the warm calls (median, min..max over
 * `repeat`): the whole call's time and rate against pinned copies (the
 * target), its phases, and the chunks' own wall time. */
static void report(const char *what, const accel_batch_stats *plan, const accel_batch_stats *runs,
                   unsigned repeat, size_t n, double pinned_gbs, double *warm_ratio)
{
    const double bytes = n * 4.0;
    const accel_batch_stats *first = &runs[0];
    printf("%s %llu chunks of <= %zu floats over %u queues (plan %.2f ms, probe %.2f ms: %.2f "
           "GB/s in)\n",
           what, (unsigned long long)plan->chunks, plan->chunk_elems, plan->queues, plan->call_ms,
           plan->probe_ms, plan->h2d_gbs);
    printf("  first call %.2f ms = %.3f of pinned (setup %.2f, warm-up %.2f, chunks %.2f, "
           "teardown %.2f ms)\n",
           first->call_ms, pinned_gbs > 0 ? ex_gbps(bytes, first->call_ms) / pinned_gbs : 0.0,
           first->setup_ms, first->warm_ms, first->ms, first->teardown_ms);
    *warm_ratio = 0;
    if (repeat == 0)
        return;
    double call[3], chunks[3], setup[3], warm[3], down[3];
    spread(runs + 1, repeat, offsetof(accel_batch_stats, call_ms), call);
    spread(runs + 1, repeat, offsetof(accel_batch_stats, ms), chunks);
    spread(runs + 1, repeat, offsetof(accel_batch_stats, setup_ms), setup);
    spread(runs + 1, repeat, offsetof(accel_batch_stats, warm_ms), warm);
    spread(runs + 1, repeat, offsetof(accel_batch_stats, teardown_ms), down);
    double gbs = ex_gbps(bytes, call[0]);
    *warm_ratio = pinned_gbs > 0 ? gbs / pinned_gbs : 0.0;
    printf("  warm calls (median of %u, min..max): whole call %.2f ms (%.2f..%.2f), %.2f GB/s = "
           "%.3f of pinned host->device (%.3f..%.3f)\n",
           repeat, call[0], call[1], call[2], gbs, *warm_ratio,
           pinned_gbs > 0 ? ex_gbps(bytes, call[2]) / pinned_gbs : 0.0,
           pinned_gbs > 0 ? ex_gbps(bytes, call[1]) / pinned_gbs : 0.0);
    printf("    phases: setup %.3f, warm-up %.3f, chunks %.2f (%.2f..%.2f; %.3f of pinned), "
           "teardown %.3f ms\n",
           setup[0], warm[0], chunks[0], chunks[1], chunks[2],
           pinned_gbs > 0 ? ex_gbps(bytes, chunks[0]) / pinned_gbs : 0.0, down[0]);
}

/* The pageable run's ceilings: the link, the host's copy, and the
 * backend's own pageable writes of the same chunks with nothing around them. */
static void report_pageable(size_t n, double pinned_gbs, double memcpy_gbs, double alone_ms,
                            double warm_ratio)
{
    double ceiling = memcpy_gbs > 0 && memcpy_gbs < pinned_gbs ? memcpy_gbs : pinned_gbs;
    double alone = ex_gbps(n * 4.0, alone_ms);
    printf("pageable ceilings: pinned %.2f, best host memcpy %.2f GB/s; the same chunks' "
           "accel_queue_write alone %.2f ms = %.2f GB/s (%.3f of pinned); the warm call reached "
           "%.3f of min(pinned, memcpy)\n",
           pinned_gbs, memcpy_gbs, alone_ms, alone, pinned_gbs > 0 ? alone / pinned_gbs : 0.0,
           ceiling > 0 ? warm_ratio * pinned_gbs / ceiling : 0.0);
}

int main(int argc, char **argv)
{
    int rc = 1;
    ex_opt opts[] = {
        {"n", "N", "elements of the data set (default 50000000)", NULL, "3000000"},
        {"mem-cap", "BYTES", "device memory the program may use (default 64M)", NULL, "1M"},
        {"chunk", "N", "elements per chunk (default 0: the helper's choice)", NULL, NULL},
        {"queues", "N", "queues (default 0: the helper's choice)", NULL, NULL},
        {"repeat", "N", "warm calls after the first (default 5, at most 64)", NULL, NULL},
        {NULL, NULL, NULL, NULL, NULL}};
    ex_parse(
        argc, argv,
        "[--device NAME] [--quick] [--n N] [--mem-cap BYTES] [--chunk N] [--queues N] [--repeat N]",
        opts, 0);
    size_t n = ex_opt_size(opts, "n", 50000000);
    size_t cap = ex_opt_size(opts, "mem-cap", 64u << 20);
    accel_batch_stats want;
    accel_batch_stats_init(&want);
    want.chunk_elems = ex_opt_size(opts, "chunk", 0);
    want.queues = (uint32_t)ex_opt_size(opts, "queues", 0);
    size_t repeat_opt = ex_opt_size(opts, "repeat", 5);
    unsigned repeat = repeat_opt > MAX_REPEAT ? MAX_REPEAT : (unsigned)repeat_opt;
    static accel_batch_stats runs[MAX_REPEAT + 1];
    accel_runtime *rt = NULL;
    accel_device *dev = NULL, *cpu = NULL;
    int registered = 0;
    double reg_t0 = 0;
    float *x = malloc(n * sizeof *x + 1);
    if (!x) {
        fprintf(stderr, "batched: out of host memory for %zu floats\n", n);
        return 1;
    }
    if (cap < 64) {
        fprintf(stderr, "batched: --mem-cap %zu leaves no room for a batch\n", cap);
        free(x);
        return 2;
    }
    /* The data set: made on the host, as data read from a file would be. */
    double abs_sum = 0, sq_sum = 0;
    for (size_t i = 0; i < n; i++) {
        x[i] = (float)sin(0.001 * (double)i) + 0.25f;
        abs_sum += fabs(x[i]);
        sq_sum += (double)x[i] * x[i];
    }

    CHECK(ex_open(&rt, &dev));
    CHECK(accel_device_get_by_name(rt, "cpu", &cpu));
    printf("data set %zu floats (%.1f MiB), device memory cap %.1f MiB\n", n, n * 4.0 / 1048576,
           cap / 1048576.0);
    /* The yard stick, within the cap too: a buffer of half of it, at most 64 MiB. */
    size_t ref_bytes = cap / 2 < ((size_t)64 << 20) ? cap / 2 : ((size_t)64 << 20);
    double pinned_gbs = 0;
    CHECK(pinned_h2d(dev, ref_bytes, &pinned_gbs));
    printf("pinned host->device: %.2f GB/s (best of 5 copies of %.1f MiB from accel_host_alloc)\n",
           pinned_gbs, ref_bytes / 1048576.0);
    double memcpy_gbs = 0;
    CHECK(memcpy_ceiling(dev, x, n, &memcpy_gbs));

    double ref[2], got[2][2], ratio = 0;
    accel_batch_stats plan;
    accel_batch_stats_init(&plan);
    CHECK(batched_sums(dev, x, n, cap, &want, repeat, &plan, runs, got[0]));
    report("pageable input:", &plan, runs, repeat, n, pinned_gbs, &ratio);
    double alone_ms = 0;
    CHECK(writes_alone(dev, x, n, plan.chunk_elems, plan.queues, &alone_ms));
    report_pageable(n, pinned_gbs, memcpy_gbs, alone_ms, ratio);

    /* The same memory, page-locked where it is: no copy into a pinned buffer. */
    reg_t0 = ex_now_ms();
    accel_status st = accel_host_register(dev, x, n * sizeof *x);
    double reg_ms = ex_now_ms() - reg_t0;
    if (st == ACCEL_SUCCESS) {
        registered = 1;
        printf("accel_host_register of %.1f MiB: %.2f ms (%.2f GB/s of page-locking)\n",
               n * 4.0 / 1048576, reg_ms, ex_gbps(n * 4.0, reg_ms));
        CHECK(batched_sums(dev, x, n, cap, &want, repeat, &plan, runs, got[1]));
        report("registered input:", &plan, runs, repeat, n, pinned_gbs, &ratio);
    } else {
        printf("registered input: skipped, the system refused to page-lock %zu bytes: %s\n",
               n * sizeof *x, accel_last_error());
    }

    CHECK(one_shot(cpu, x, n, ref));
    double tol_sum = 4.0 * n * 0x1p-24 * abs_sum, tol_sq = 4.0 * n * 0x1p-24 * sq_sum;
    int ok = 1;
    printf("one shot on cpu: sum %.9g, sum of squares %.9g\n", ref[0], ref[1]);
    for (int k = 0; k < 1 + registered; k++) {
        int good = fabs(got[k][0] - ref[0]) <= tol_sum && fabs(got[k][1] - ref[1]) <= tol_sq;
        printf("check %s: sum %.9g, sum of squares %.9g: |diff| %.3g (bound %.3g), %.3g "
               "(bound %.3g): %s\n",
               k ? "registered" : "pageable", got[k][0], got[k][1], fabs(got[k][0] - ref[0]),
               tol_sum, fabs(got[k][1] - ref[1]), tol_sq, good ? "PASS" : "FAIL");
        ok &= good;
    }
    rc = !ok;

done:
    reg_t0 = ex_now_ms();
    if (registered && accel_host_unregister(dev, x) != ACCEL_SUCCESS) {
        fprintf(stderr, "batched: accel_host_unregister: %s\n", accel_last_error());
        rc = 1;
    } else if (registered) {
        printf("accel_host_unregister: %.2f ms\n", ex_now_ms() - reg_t0);
    }
    accel_runtime_close(rt);
    free(x);
    return rc;
}
