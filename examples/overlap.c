/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* overlap — the tutorial's "asynchronous transfers on streams": c = a + b on
 * 10 million floats, copy in, add, copy out. First serially (one queue, whole
 * arrays), then in chunks spread over several queues so that one chunk's
 * copies overlap another chunk's add. Host arrays are pinned (accel_host_alloc)
 * so copies are truly asynchronous; events order the queues and time both runs
 * on the device. Prints both times and the ratio, and checks c exactly (a
 * float sum is correctly rounded on every backend). It also times the copies
 * alone and the adds alone, with the same chunks and queues, and reports the
 * overlapped time against max(copy time, compute time): 1.00 is perfect
 * overlap (target: <= 1.15). Last, the same job through accel_batch_run,
 * which picks the chunk size and queue count itself.
 *
 *   usage: overlap [--device NAME] [--n 10000000] [--chunks 16] [--queues 4]
 */
#include "common.h"

#define MAX_QUEUES 16

typedef struct ctx {
    accel_device *dev;
    accel_queue *q[MAX_QUEUES];
    accel_event *done[MAX_QUEUES];
    accel_event *start, *end;
    accel_buffer *a, *b, *c;
    float *ha, *hb, *hc; /* pinned */
    size_t n;
} ctx;

enum { DO_COPIES = 1, DO_ADDS = 2, DO_ALL = 3 };

/* One run with `queues` queues and `chunks` chunks, doing the copies, the
 * adds or both (`what`); device ms from start to end.
 *
 * Chunk k goes to queue k % queues: copy a and b in, add. Its copy-out is
 * enqueued one chunk later, on chunk k+1's queue behind chunk k+1's copy-in,
 * after an event that marks chunk k's add. So no copy-in ever waits in its
 * queue behind a copy-out: the host-to-device engine streams the inputs
 * back to back while the device-to-host engine follows one chunk behind,
 * and that holds with 2 queues as with more. (The device arrays are whole,
 * so a chunk never overwrites memory another chunk still needs.) */
static accel_status run(ctx *x, size_t queues, size_t chunks, int what, double *out_ms)
{
    accel_status st;
    accel_queue *q0 = x->q[0];
    size_t per = (x->n + chunks - 1) / chunks;
#define TRY(call)                                                                                  \
    if ((st = (call)) != ACCEL_SUCCESS)                                                            \
    return st
    TRY(accel_event_record(x->start, q0));
    for (size_t i = 1; i < queues; i++)
        TRY(accel_queue_wait_event(x->q[i], x->start));
    size_t prev_off = 0, prev_m = 0, k = 0;
    for (size_t off = 0; off < x->n; k++, off += per) {
        size_t qi = k % queues;
        accel_queue *q = x->q[qi];
        size_t m = x->n - off < per ? x->n - off : per, bytes = m * sizeof(float);
        if (what & DO_COPIES) {
            TRY(accel_queue_write(q, x->a, off * sizeof(float), x->ha + off, bytes));
            TRY(accel_queue_write(q, x->b, off * sizeof(float), x->hb + off, bytes));
        }
        if (what & DO_ADDS)
            TRY(accel_add(q, ACCEL_F32, accel_slice_of(x->a, off, m), accel_slice_of(x->b, off, m),
                          accel_slice_of(x->c, off, m)));
        if (k > 0 && (what & DO_COPIES)) { /* chunk k-1's copy-out, after its add */
            TRY(accel_queue_wait_event(q, x->done[(k - 1) % queues]));
            TRY(accel_queue_read(q, x->c, prev_off * sizeof(float), x->hc + prev_off,
                                 prev_m * sizeof(float)));
        }
        TRY(accel_event_record(x->done[qi], q)); /* after this chunk's add */
        prev_off = off;
        prev_m = m;
    }
    if (k > 0 && (what & DO_COPIES)) /* the last chunk's copy-out, on its own queue */
        TRY(accel_queue_read(x->q[(k - 1) % queues], x->c, prev_off * sizeof(float),
                             x->hc + prev_off, prev_m * sizeof(float)));
    /* Join: queue 0 waits for every other queue, then marks the end. */
    for (size_t i = 1; i < queues; i++) {
        TRY(accel_event_record(x->done[i], x->q[i]));
        TRY(accel_queue_wait_event(q0, x->done[i]));
    }
    TRY(accel_event_record(x->end, q0));
    TRY(accel_event_synchronize(x->end));
    for (size_t i = 0; i < queues; i++)
        TRY(accel_queue_finish(x->q[i]));
#undef TRY
    return accel_event_elapsed_ms(x->start, x->end, out_ms);
}

/* The same job through accel_batch_run: chunk size chosen by the helper
 * from the measured copy rate within its default device budget, and the
 * queue count given or (0) chosen too; host wall ms of the chunks
 * (stats.ms) and of the whole call (stats.call_ms). */
static accel_status add_chunk(accel_queue *q, const accel_batch_chunk *c, void *user)
{
    (void)user;
    return accel_add(q, ACCEL_F32, accel_slice_of(c->in[0], 0, c->elems),
                     accel_slice_of(c->in[1], 0, c->elems), accel_slice_of(c->out[0], 0, c->elems));
}

static accel_status run_helper(ctx *x, uint32_t queues, accel_batch_stats *s)
{
    accel_batch_desc d;
    accel_batch_desc_init(&d);
    size_t bytes = x->n * sizeof(float);
    d.n = x->n;
    d.in_count = 2;
    d.in[0] = (accel_batch_array){x->ha, bytes, sizeof(float), 0};
    d.in[1] = (accel_batch_array){x->hb, bytes, sizeof(float), 0};
    d.out_count = 1;
    d.out[0] = (accel_batch_array){x->hc, bytes, sizeof(float), 0};
    d.compute = add_chunk;
    d.queues = queues;                                 /* 0: the helper's choice */
    accel_status st = accel_batch_plan(x->dev, &d, s); /* the probe, outside the timing */
    if (st != ACCEL_SUCCESS)
        return st;
    d.chunk_elems = s->chunk_elems;
    d.queues = s->queues;
    return accel_batch_run(x->dev, &d, s);
}

static int cmp_double(const void *a, const void *b)
{
    double u = *(const double *)a, v = *(const double *)b;
    return (u > v) - (u < v);
}

static size_t count_wrong(const ctx *x)
{
    size_t wrong = 0;
    for (size_t i = 0; i < x->n; i++)
        wrong += x->hc[i] != x->ha[i] + x->hb[i];
    return wrong;
}

int main(int argc, char **argv)
{
    int rc = 1;
    ex_opt opts[] = {{"n", "N", "elements per vector (default 10000000)", NULL, "1000003"},
                     {"chunks", "N", "pieces the work is cut into (default 16)", NULL, "7"},
                     {"queues", "N", "queues the pieces are spread over (default 4)", NULL, "3"},
                     {NULL, NULL, NULL, NULL, NULL}};
    ex_parse(argc, argv, "[--device NAME] [--quick] [--n N] [--chunks N] [--queues N]", opts, 0);
    ctx x = {.n = ex_opt_size(opts, "n", 10000000)};
    size_t chunks = ex_opt_size(opts, "chunks", 16);
    size_t queues = ex_opt_size(opts, "queues", 4);
    accel_runtime *rt = NULL;
    size_t bytes = x.n * sizeof(float);
    if (queues < 2 || queues > MAX_QUEUES || chunks < 1) {
        fprintf(stderr, "overlap: --queues must be 2..%d and --chunks >= 1\n", MAX_QUEUES);
        return 2;
    }

    CHECK(ex_open(&rt, &x.dev));
    for (size_t i = 0; i < queues; i++) {
        CHECK(accel_queue_create(x.dev, &x.q[i]));
        CHECK(accel_event_create(x.dev, &x.done[i]));
    }
    CHECK(accel_event_create(x.dev, &x.start));
    CHECK(accel_event_create(x.dev, &x.end));
    CHECK(accel_buffer_create(x.dev, bytes, &x.a));
    CHECK(accel_buffer_create(x.dev, bytes, &x.b));
    CHECK(accel_buffer_create(x.dev, bytes, &x.c));
    CHECK(accel_host_alloc(x.dev, bytes, (void **)&x.ha));
    CHECK(accel_host_alloc(x.dev, bytes, (void **)&x.hb));
    CHECK(accel_host_alloc(x.dev, bytes, (void **)&x.hc));
    for (size_t i = 0; i < x.n; i++) {
        x.ha[i] = (float)(i % 1000) * 0.5f;
        x.hb[i] = 1.0f / (float)(1 + i % 7);
    }

    double serial_ms, overlap_ms, warm, copy_ms, add_ms;
    CHECK(run(&x, 1, 1, DO_ALL, &warm)); /* warm-up: first-touch and driver start-up */
    CHECK(run(&x, 1, 1, DO_ALL, &serial_ms));
    size_t wrong = count_wrong(&x);
    memset(x.hc, 0, bytes);
    CHECK(run(&x, queues, chunks, DO_ALL, &overlap_ms));
    wrong += count_wrong(&x);
    /* The two lower bounds of the overlapped run, with the same chunks and
     * queues (copies in both directions may overlap each other, as there). */
    CHECK(run(&x, queues, chunks, DO_COPIES, &copy_ms));
    CHECK(run(&x, queues, chunks, DO_ADDS, &add_ms));
    double bound_ms = copy_ms > add_ms ? copy_ms : add_ms;

    double moved = 3.0 * bytes;
    printf("n = %zu floats, %zu chunks over %zu queues, pinned host memory\n", x.n, chunks, queues);
    printf("  serial     %9.3f ms  %7.2f GB/s\n", serial_ms, ex_gbps(moved, serial_ms));
    printf("  overlapped %9.3f ms  %7.2f GB/s\n", overlap_ms, ex_gbps(moved, overlap_ms));
    printf("  serial / overlapped = %.2fx\n", overlap_ms > 0 ? serial_ms / overlap_ms : 0.0);
    printf("  copies alone %7.3f ms, adds alone %7.3f ms: overlapped / max(copy, compute) = "
           "%.2f (1.00 = perfect overlap)\n",
           copy_ms, add_ms, bound_ms > 0 ? overlap_ms / bound_ms : 0.0);
    /* The helper's choice, then 2 queues, interleaved over 5 rounds after a
     * first call each (which sets up the queues the later calls reuse). */
    enum { ROUNDS = 5 };
    double ms[2][ROUNDS], call[2][ROUNDS];
    accel_batch_stats hs[2];
    for (int r = -1; r < ROUNDS; r++) {
        for (int h = 0; h < 2; h++) {
            memset(x.hc, 0, bytes);
            accel_batch_stats_init(&hs[h]);
            CHECK(run_helper(&x, h ? 2u : 0u, &hs[h]));
            wrong += count_wrong(&x);
            if (r >= 0) {
                ms[h][r] = hs[h].ms;
                call[h][r] = hs[h].call_ms;
            }
        }
    }
    for (int h = 0; h < 2; h++) {
        qsort(ms[h], ROUNDS, sizeof ms[h][0], cmp_double);
        qsort(call[h], ROUNDS, sizeof call[h][0], cmp_double);
        double b = bound_ms > 0 ? bound_ms : 1.0;
        printf("  accel_batch_run (%s): %llu chunks of <= %zu over %u queues, median of %d: "
               "chunks %.3f ms wall / max(copy, compute) = %.2f (%.2f..%.2f); whole call %.3f ms "
               "= %.2f (%.2f..%.2f)\n",
               h ? "2 queues" : "queues chosen", (unsigned long long)hs[h].chunks,
               hs[h].chunk_elems, hs[h].queues, ROUNDS, ms[h][ROUNDS / 2], ms[h][ROUNDS / 2] / b,
               ms[h][0] / b, ms[h][ROUNDS - 1] / b, call[h][ROUNDS / 2], call[h][ROUNDS / 2] / b,
               call[h][0] / b, call[h][ROUNDS - 1] / b);
    }
    printf("check: %zu wrong elements: %s\n", wrong, wrong ? "FAIL" : "PASS");
    rc = wrong != 0;

done:
    for (size_t i = 0; i < MAX_QUEUES; i++) {
        accel_queue_release(x.q[i]);
        accel_event_release(x.done[i]);
    }
    accel_event_release(x.start);
    accel_event_release(x.end);
    accel_buffer_release(x.a);
    accel_buffer_release(x.b);
    accel_buffer_release(x.c);
    if (x.dev) {
        accel_host_free(x.dev, x.ha);
        accel_host_free(x.dev, x.hb);
        accel_host_free(x.dev, x.hc);
    }
    accel_runtime_close(rt);
    return rc;
}
