/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* demo_steps.c — the steps of `accel demo`: the tutorial walk-through of
 * examples/ (vector add, elementwise, batched reduction, overlapped copies,
 * matmul) as functions that run on the device under test, time themselves with
 * events and cross-check the result against the CPU device. Tolerances are
 * those of docs/checking.md ("Accuracy"); the examples explain each step at length. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "demo_format.h"
#include "demo_kernel.h"
#include "demo_steps.h"
#include "demo_types.h"
#include "try.h" /* ACCEL__TRY */

#define U32 0x1p-24 /* unit roundoff of f32 */

/* Sizes per step: small (--quick), medium, large (the tutorial's). */
static const size_t VEC_N[] = {1000000, 10000000, 10000000};
static const size_t BATCH_N[] = {4000000, 32000000, 100000000};
static const size_t BATCH_CAP[] = {4u << 20, 32u << 20, 64u << 20};
static const size_t MATMUL_N[] = {512, 2048, 10000};

static const char *human(size_t n, char *buf, size_t cap)
{
    if (n >= 1000000 && n % 1000000 == 0)
        snprintf(buf, cap, "%zuM", n / 1000000);
    else
        snprintf(buf, cap, "%zu", n);
    return buf;
}

/* Buffers of `bytes` on the device under test and on the CPU. */
typedef struct pair {
    accel_buffer *dev, *cpu;
} pair;

static accel_status pair_create(demo_ctx *c, size_t bytes, pair *p)
{
    ACCEL__TRY(accel_buffer_create(c->dev, bytes, &p->dev));
    return accel_buffer_create(c->cpu, bytes, &p->cpu);
}

static void pair_release(pair *p)
{
    accel_buffer_release(p->dev);
    accel_buffer_release(p->cpu);
}

/* The same random numbers on both devices (Philox is bit-identical). */
static accel_status pair_random(demo_ctx *c, pair *p, size_t n, uint64_t rng_offset)
{
    ACCEL__TRY(accel_random_uniform(c->q, ACCEL_F32, 99, rng_offset, accel_slice_of(p->dev, 0, n)));
    return accel_random_uniform(c->qc, ACCEL_F32, 99, rng_offset, accel_slice_of(p->cpu, 0, n));
}

/* Read n floats of p from both devices into fresh host arrays. */
static accel_status pair_read(demo_ctx *c, pair *p, size_t n, float **out_dev, float **out_cpu)
{
    *out_dev = malloc(n * sizeof(float) + 1);
    *out_cpu = malloc(n * sizeof(float) + 1);
    if (!*out_dev || !*out_cpu)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    ACCEL__TRY(accel_queue_read_blocking(c->q, p->dev, 0, *out_dev, n * sizeof(float)));
    return accel_queue_read_blocking(c->qc, p->cpu, 0, *out_cpu, n * sizeof(float));
}

/* Largest |x - y| in ulps of y (0 when all equal, Inf when an Inf or NaN differs). */
static double max_ulps(const float *x, const float *y, size_t n)
{
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        if (x[i] == y[i] || (isnan(x[i]) && isnan(y[i])))
            continue;
        if (!isfinite(x[i]) || !isfinite(y[i]))
            return INFINITY;
        double ulp = nextafterf(fabsf(y[i]), INFINITY) - fabsf(y[i]);
        double e = fabs((double)x[i] - y[i]) / ulp;
        worst = e > worst ? e : worst;
    }
    return worst;
}

/* Device ms since t0 was recorded on c->q, as the backend's events report it
 * (possibly 0: the table then shows n/a, see demo_rate). */
static accel_status timed_ms(demo_ctx *c, double *ms)
{
    ACCEL__TRY(accel_event_record(c->t1, c->q));
    ACCEL__TRY(accel_event_synchronize(c->t1));
    return accel_event_elapsed_ms(c->t0, c->t1, ms);
}

/* ------------------------------------------------------------------ steps */

/* "Is my code on the GPU?": the device, its kind, and a first op that works. */
static accel_status step_device(demo_ctx *c, demo_result *r)
{
    accel_device_properties p;
    accel_device_properties_init(&p);
    ACCEL__TRY(accel_device_properties_get(c->dev, &p));
    snprintf(r->label, sizeof r->label, "device query");
    bool gpu = p.kind == ACCEL_DEVICE_GPU;
    const char *why = "";
    for (uint32_t i = 0; i < accel_runtime_backend_count(c->rt) && !gpu; i++) {
        accel_backend_info b = {.struct_size = sizeof b};
        if (accel_runtime_backend_info(c->rt, i, &b) == ACCEL_SUCCESS && !b.loaded)
            why = b.reason; /* the whole reason: the note is the table's last column */
    }
    snprintf(r->note, sizeof r->note, "%s %s%s%s", cli_kind_name(p.kind), p.name,
             gpu || !why[0] ? "" : "; no GPU: ", why);
    r->pass = true;
    return ACCEL_SUCCESS;
}

/* The tutorial's first program: [1..5] + [10..50]. */
static accel_status step_vector_add(demo_ctx *c, demo_result *r)
{
    const float x[5] = {1, 2, 3, 4, 5}, y[5] = {10, 20, 30, 40, 50};
    float z[5] = {0};
    accel_buffer *b = NULL;
    snprintf(r->label, sizeof r->label, "vector add (5)");
    accel_status st = accel_buffer_create(c->dev, 3 * sizeof x, &b);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_write(c->q, b, 0, x, sizeof x);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_write(c->q, b, sizeof x, y, sizeof y);
    if (st == ACCEL_SUCCESS)
        st = accel_event_record(c->t0, c->q);
    if (st == ACCEL_SUCCESS)
        st = accel_add(c->q, ACCEL_F32, accel_slice_of(b, 0, 5), accel_slice_of(b, 5, 5),
                       accel_slice_of(b, 10, 5));
    if (st == ACCEL_SUCCESS)
        st = timed_ms(c, &r->ms);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_read_blocking(c->q, b, 2 * sizeof x, z, sizeof z);
    accel_buffer_release(b);
    r->pass = st == ACCEL_SUCCESS && memcmp(z, (float[5]){11, 22, 33, 44, 55}, sizeof z) == 0;
    snprintf(r->note, sizeof r->note, "[%g, %g, %g, %g, %g], exact", (double)z[0], (double)z[1],
             (double)z[2], (double)z[3], (double)z[4]);
    return st;
}

/* o = op(a, b) for multiply, else o = op(a). */
static accel_status enqueue_elementwise(accel_queue *q, accel_op_code op, accel_buffer *a,
                                        accel_buffer *b, accel_buffer *o, size_t n)
{
    if (op == ACCEL_OP_MUL)
        return accel_binary(q, op, ACCEL_F32, accel_slice_of(a, 0, n), accel_slice_of(b, 0, n),
                            accel_slice_of(o, 0, n));
    return accel_unary(q, op, ACCEL_F32, accel_slice_of(a, 0, n), accel_slice_of(o, 0, n));
}

/* out = op(a, b) (binary) or op(a) on n random floats, on both devices; exact
 * ops must agree bit for bit, exp within the two backends' ulp bounds. */
static accel_status elementwise(demo_ctx *c, demo_result *r, const char *what, accel_op_code op,
                                double ulps)
{
    size_t n = VEC_N[c->size];
    bool binary = op == ACCEL_OP_MUL;
    char ns[16];
    snprintf(r->label, sizeof r->label, "%s (%s)", what, human(n, ns, sizeof ns));
    pair a = {0}, b = {0}, o = {0};
    float *got = NULL, *ref = NULL;
    accel_status st = pair_create(c, n * sizeof(float), &a);
    if (st == ACCEL_SUCCESS)
        st = pair_create(c, n * sizeof(float), &b);
    if (st == ACCEL_SUCCESS)
        st = pair_create(c, n * sizeof(float), &o);
    if (st == ACCEL_SUCCESS)
        st = pair_random(c, &a, n, 0);
    if (st == ACCEL_SUCCESS)
        st = pair_random(c, &b, n, n);
    /* Twice: the first run pays for start-up (kernel loading), the second is timed. */
    for (int rep = 0; rep < 2 && st == ACCEL_SUCCESS; rep++) {
        st = accel_event_record(c->t0, c->q);
        if (st == ACCEL_SUCCESS)
            st = enqueue_elementwise(c->q, op, a.dev, b.dev, o.dev, n);
        if (st == ACCEL_SUCCESS)
            st = timed_ms(c, &r->ms);
    }
    if (st == ACCEL_SUCCESS)
        st = enqueue_elementwise(c->qc, op, a.cpu, b.cpu, o.cpu, n);
    if (st == ACCEL_SUCCESS)
        st = pair_read(c, &o, n, &got, &ref);
    if (st == ACCEL_SUCCESS) {
        double e = max_ulps(got, ref, n);
        r->pass = e <= ulps;
        r->rate = demo_rate((binary ? 3.0 : 2.0) * n * sizeof(float), r->ms, 1e-9);
        r->unit = "GB/s";
        if (ulps == 0)
            snprintf(r->note, sizeof r->note, "%s vs cpu", e == 0 ? "bit-identical" : "DIFFERS");
        else
            snprintf(r->note, sizeof r->note, "max %.2f ulp vs cpu (bound %.1f)", e, ulps);
    }
    free(got);
    free(ref);
    pair_release(&a);
    pair_release(&b);
    pair_release(&o);
    return st;
}

static accel_status step_multiply(demo_ctx *c, demo_result *r)
{
    return elementwise(c, r, "multiply a*b", ACCEL_OP_MUL, 0);
}

/* The cross-checking model's bound for exp between two backends (4 ulp,
 * include/accel/verify.h): glibc and CUDA are each within 2 ulp of exact. */
static accel_status step_exp(demo_ctx *c, demo_result *r)
{
    return elementwise(c, r, "exp(a)", ACCEL_OP_EXP, 4.0);
}

/* One chunk of the batched sum: its sum and sum of squares (8 bytes back). */
static accel_status batched_chunk(accel_queue *q, const accel_batch_chunk *ch, void *user)
{
    (void)user;
    accel_slice x = accel_slice_of(ch->in[0], 0, ch->elems);
    ACCEL__TRY(accel_sum(q, ACCEL_F32, x, accel_slice_of(ch->out[0], 0, 1)));
    return accel_dot(q, ACCEL_F32, x, x, accel_slice_of(ch->out[0], 1, 1));
}

/* A host data set (ordinary pageable memory) larger than a memory cap, summed
 * and squared-summed through the device with accel_batch_run (chunks cut
 * from the measured copy rate, over several queues, copies overlapped with
 * the reductions); equal to the one-shot sum on the CPU within 4 n u sum|x|.
 * The time is a warm call's whole wall time: the run is made twice, the
 * first setting up what later runs on the device reuse (queues, page-locked
 * staging), as a user's repeated calls would; the first call's time is in
 * the note. The planning probe is a call of its own, excluded. */
static accel_status step_batched(demo_ctx *c, demo_result *r)
{
    size_t n = BATCH_N[c->size];
    char ns[16];
    snprintf(r->label, sizeof r->label, "batched sum (%.8s, cap %zu MiB)", human(n, ns, sizeof ns),
             BATCH_CAP[c->size] >> 20);
    float *x = malloc(n * sizeof *x), *part = NULL;
    accel_buffer *one = NULL;
    double sum[2] = {0, 0}, ref[2] = {0, 0}, absum[2] = {0, 0};
    if (!x)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    for (size_t i = 0; i < n; i++) {
        x[i] = (float)sin(1e-3 * (double)i) + 0.25f;
        absum[0] += fabs(x[i]);
        absum[1] += (double)x[i] * x[i];
    }
    accel_batch_desc d;
    accel_batch_desc_init(&d);
    d.n = n;
    d.in_count = 1;
    d.in[0] = (accel_batch_array){x, n * sizeof *x, sizeof *x, 0};
    d.out_count = 1;
    d.out[0].chunk_bytes = 2 * sizeof(float);
    d.compute = batched_chunk;
    d.device_bytes = BATCH_CAP[c->size];
    accel_batch_stats plan, first, run;
    accel_batch_stats_init(&plan);
    accel_batch_stats_init(&first);
    accel_batch_stats_init(&run);
    accel_status st = accel_batch_plan(c->dev, &d, &plan);
    if (st == ACCEL_SUCCESS) {
        d.chunk_elems = plan.chunk_elems;
        d.queues = plan.queues;
        part = malloc(plan.chunks * 2 * sizeof(float) + 1);
        st = part ? ACCEL_SUCCESS : ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    if (st == ACCEL_SUCCESS) {
        d.out[0].host = part;
        d.out[0].bytes = plan.chunks * 2 * sizeof(float);
        st = accel_batch_run(c->dev, &d, &first);
    }
    if (st == ACCEL_SUCCESS)
        st = accel_batch_run(c->dev, &d, &run);
    for (uint64_t i = 0; st == ACCEL_SUCCESS && i < plan.chunks; i++) {
        sum[0] += part[2 * i];
        sum[1] += part[2 * i + 1];
    }
    /* The reference: the CPU, all at once. */
    if (st == ACCEL_SUCCESS)
        st = accel_buffer_create(c->cpu, (n + 2) * sizeof(float), &one);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_write(c->qc, one, 0, x, n * sizeof(float));
    if (st == ACCEL_SUCCESS)
        st = accel_sum(c->qc, ACCEL_F32, accel_slice_of(one, 0, n), accel_slice_of(one, n, 1));
    if (st == ACCEL_SUCCESS)
        st = accel_dot(c->qc, ACCEL_F32, accel_slice_of(one, 0, n), accel_slice_of(one, 0, n),
                       accel_slice_of(one, n + 1, 1));
    float res[2] = {0, 0};
    if (st == ACCEL_SUCCESS)
        st = accel_queue_read_blocking(c->qc, one, n * sizeof(float), res, sizeof res);
    ref[0] = res[0];
    ref[1] = res[1];
    if (st == ACCEL_SUCCESS) {
        double e0 = fabs(sum[0] - ref[0]) / (4.0 * n * U32 * absum[0]);
        double e1 = fabs(sum[1] - ref[1]) / (4.0 * n * U32 * absum[1]);
        double e = e0 > e1 ? e0 : e1;
        r->ms = run.call_ms;
        r->pass = e <= 1.0;
        r->rate = demo_rate((double)n * sizeof(float), r->ms, 1e-9);
        r->unit = "GB/s";
        snprintf(r->note, sizeof r->note,
                 "accel_batch_run: %llu chunks over %u queues, pageable input, warm call (first "
                 "%.1f ms); sum, sum sq vs one-shot cpu: %.2g of bound",
                 (unsigned long long)plan.chunks, plan.queues, first.call_ms, e);
    }
    free(x);
    free(part);
    accel_buffer_release(one);
    return st;
}

/* Copy in, add, copy out: serially, then in 16 chunks over 4 queues with
 * pinned memory; device time of each from events. As examples/overlap.c, a
 * chunk's copy-out goes one chunk later on the next queue, behind that
 * chunk's copy-in and after an event marking the add, so no copy-in waits
 * behind a copy-out. */
static accel_status overlap_run(demo_ctx *c, accel_queue **qs, accel_event **ev, size_t nq,
                                size_t chunks, accel_buffer *d, float *h, size_t n, double *ms)
{
    size_t per = (n + chunks - 1) / chunks, fb = sizeof(float), prev_off = 0, prev_m = 0, k = 0;
    ACCEL__TRY(accel_event_record(c->t0, qs[0]));
    for (size_t i = 1; i < nq; i++)
        ACCEL__TRY(accel_queue_wait_event(qs[i], c->t0));
    for (size_t off = 0; off < n; k++, off += per) {
        accel_queue *q = qs[k % nq];
        size_t m = n - off < per ? n - off : per;
        /* d holds a, b, c one after another; so does h. */
        ACCEL__TRY(accel_queue_write(q, d, off * fb, h + off, m * fb));
        ACCEL__TRY(accel_queue_write(q, d, (n + off) * fb, h + n + off, m * fb));
        ACCEL__TRY(accel_add(q, ACCEL_F32, accel_slice_of(d, off, m), accel_slice_of(d, n + off, m),
                             accel_slice_of(d, 2 * n + off, m)));
        if (k > 0) {
            ACCEL__TRY(accel_queue_wait_event(q, ev[(k - 1) % nq]));
            ACCEL__TRY(
                accel_queue_read(q, d, (2 * n + prev_off) * fb, h + 2 * n + prev_off, prev_m * fb));
        }
        ACCEL__TRY(accel_event_record(ev[k % nq], q)); /* after this chunk's add */
        prev_off = off;
        prev_m = m;
    }
    if (k > 0)
        ACCEL__TRY(accel_queue_read(qs[(k - 1) % nq], d, (2 * n + prev_off) * fb,
                                    h + 2 * n + prev_off, prev_m * fb));
    for (size_t i = 1; i < nq; i++) {
        ACCEL__TRY(accel_event_record(ev[i], qs[i]));
        ACCEL__TRY(accel_queue_wait_event(qs[0], ev[i]));
    }
    ACCEL__TRY(accel_event_record(c->t1, qs[0]));
    ACCEL__TRY(accel_event_synchronize(c->t1));
    return accel_event_elapsed_ms(c->t0, c->t1, ms);
}

static accel_status step_overlap(demo_ctx *c, demo_result *r)
{
    enum { NQ = 4, CHUNKS = 16 };
    size_t n = VEC_N[c->size];
    char ns[16];
    snprintf(r->label, sizeof r->label, "overlap copy+add (%s)", human(n, ns, sizeof ns));
    accel_queue *qs[NQ] = {NULL};
    accel_event *ev[NQ] = {NULL};
    accel_buffer *d = NULL;
    float *h = NULL;
    double serial = 0;
    accel_status st = accel_buffer_create(c->dev, 3 * n * sizeof(float), &d);
    if (st == ACCEL_SUCCESS)
        st = accel_host_alloc(c->dev, 3 * n * sizeof(float), (void **)&h);
    for (size_t i = 0; i < NQ && st == ACCEL_SUCCESS; i++) {
        st = i ? accel_queue_create(c->dev, &qs[i]) : ACCEL_SUCCESS;
        if (st == ACCEL_SUCCESS)
            st = accel_event_create(c->dev, &ev[i]);
    }
    qs[0] = c->q;
    if (st == ACCEL_SUCCESS) {
        for (size_t i = 0; i < n; i++) {
            h[i] = (float)(i % 1000) * 0.5f;
            h[n + i] = 1.0f / (float)(1 + i % 7);
        }
        st = overlap_run(c, qs, ev, 1, 1, d, h, n, &serial); /* warm-up */
    }
    if (st == ACCEL_SUCCESS)
        st = overlap_run(c, qs, ev, 1, 1, d, h, n, &serial);
    if (st == ACCEL_SUCCESS) {
        memset(h + 2 * n, 0, n * sizeof(float));
        st = overlap_run(c, qs, ev, NQ, CHUNKS, d, h, n, &r->ms);
    }
    for (size_t i = 1; i < NQ && st == ACCEL_SUCCESS; i++)
        st = accel_queue_finish(qs[i]);
    if (st == ACCEL_SUCCESS) {
        size_t wrong = 0;
        for (size_t i = 0; i < n; i++)
            wrong += h[2 * n + i] != h[i] + h[n + i];
        r->pass = wrong == 0;
        r->rate = demo_rate(3.0 * n * sizeof(float), r->ms, 1e-9);
        r->unit = "GB/s";
        char speed[80];
        demo_format_speed(r->ms, serial, "serial", speed, sizeof speed);
        snprintf(r->note, sizeof r->note, "%d queues: %s; %s", NQ, speed,
                 wrong ? "WRONG sums" : "exact");
    }
    for (size_t i = 1; i < NQ; i++)
        accel_queue_release(qs[i]);
    for (size_t i = 0; i < NQ; i++)
        accel_event_release(ev[i]);
    accel_host_free(c->dev, h);
    accel_buffer_release(d);
    return st;
}

/* C = A B, N x N f32, random on the device; 8 sampled rows recomputed on the
 * CPU, each entry within 4 (k+2) u (|A||B|)_ij = 4 (k+2) u (A B)_ij (A, B >= 0). */
static accel_status step_matmul(demo_ctx *c, demo_result *r)
{
    enum { ROWS = 8 };
    size_t n = MATMUL_N[c->size], nn = n * n;
    snprintf(r->label, sizeof r->label, "matmul f32 (%zu)", n);
    accel_buffer *m = NULL, *ca = NULL, *cb = NULL;
    float *got = malloc(ROWS * n * sizeof *got), *ref = malloc(ROWS * n * sizeof *ref);
    accel_status st = got && ref ? ACCEL_SUCCESS : ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    if (st == ACCEL_SUCCESS)
        st = accel_buffer_create(c->dev, 3 * nn * sizeof(float), &m);
    if (st == ACCEL_SUCCESS)
        st = accel_random_uniform(c->q, ACCEL_F32, 7, 0, accel_slice_of(m, 0, 2 * nn));
    accel_gemm_desc g;
    accel_gemm_desc_init(&g);
    g.dtype = ACCEL_F32;
    g.m = g.n = g.k = g.lda = g.ldb = g.ldc = n;
    g.a = g.b = g.c = m;
    g.b_offset = nn;
    g.c_offset = 2 * nn;
    for (int rep = 0; rep < 2 && st == ACCEL_SUCCESS; rep++) {
        st = accel_event_record(c->t0, c->q);
        if (st == ACCEL_SUCCESS)
            st = accel_gemm(c->q, &g);
        if (st == ACCEL_SUCCESS)
            st = timed_ms(c, &r->ms);
    }
    for (size_t s = 0; s < ROWS && st == ACCEL_SUCCESS; s++)
        st = accel_queue_read(c->q, m, (2 * nn + s * (n - 1) / (ROWS - 1) * n) * sizeof(float),
                              got + s * n, n * sizeof(float));
    if (st == ACCEL_SUCCESS)
        st = accel_buffer_create(c->cpu, ROWS * n * sizeof(float) * 2, &ca);
    if (st == ACCEL_SUCCESS)
        st = accel_buffer_create(c->cpu, nn * sizeof(float), &cb);
    for (size_t s = 0; s < ROWS && st == ACCEL_SUCCESS; s++)
        st = accel_random_uniform(c->qc, ACCEL_F32, 7, s * (n - 1) / (ROWS - 1) * n,
                                  accel_slice_of(ca, s * n, n));
    if (st == ACCEL_SUCCESS)
        st = accel_random_uniform(c->qc, ACCEL_F32, 7, nn, accel_slice_of(cb, 0, nn));
    if (st == ACCEL_SUCCESS) {
        g.m = ROWS;
        g.a = ca;
        g.b = cb;
        g.c = ca;
        g.b_offset = 0;
        g.c_offset = ROWS * n;
        st = accel_gemm(c->qc, &g);
    }
    if (st == ACCEL_SUCCESS)
        st = accel_queue_read_blocking(c->qc, ca, ROWS * n * sizeof(float), ref,
                                       ROWS * n * sizeof(float));
    if (st == ACCEL_SUCCESS)
        st = accel_queue_finish(c->q);
    if (st == ACCEL_SUCCESS) {
        double worst = 0;
        for (size_t e = 0; e < ROWS * n; e++) {
            double ratio = fabs((double)got[e] - ref[e]) / (4.0 * (n + 2) * U32 * ref[e] + 1e-30);
            worst = ratio > worst || isnan(ratio) ? ratio : worst;
        }
        r->pass = worst <= 1.0;
        r->rate = demo_rate(2.0 * n * n * n, r->ms, 1e-12);
        r->unit = "TFLOP/s";
        snprintf(r->note, sizeof r->note, "%d rows vs cpu: max error %.2g of GEMM bound", ROWS,
                 worst);
    }
    free(got);
    free(ref);
    accel_buffer_release(m);
    accel_buffer_release(ca);
    accel_buffer_release(cb);
    return st;
}

const demo_step demo_steps[] = {
    {"device query", step_device}, {"vector add", step_vector_add},
    {"multiply", step_multiply},   {"exp", step_exp},
    {"batched sum", step_batched}, {"overlap", step_overlap},
    {"matmul", step_matmul},       {"user kernel", demo_step_user_kernel},
};
const size_t demo_step_count = sizeof demo_steps / sizeof demo_steps[0];
