/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* bench_graph.c — the graph and fusion rows of `accel bench`: 100 dependent
 * 1024-element f32 adds eagerly, as an unfused graph replay and as a fused
 * graph; an 8-op elementwise chain and a*b+c over the largest elementwise
 * size, unfused and fused (the fused rows against the copy ceiling, bytes
 * counted as the fused kernel moves them: inputs read once, outputs written
 * once). Targets: the CPU replay of the 100 adds >= 3x eager; on a GPU the
 * replay <= 110 us and <= 1.05x the vendor's raw graph of the same adds
 * (accel_ceilings.graph_us) in the same rounds, first before any kernel ran
 * on another stream and again after the sweep (the ratio), the fused 8-op
 * chain >= 6x its unfused replay and >= 0.95 of copy (on the CPU its tanh
 * and sigmoid are compute-bound). */
#include <stdio.h>
#include <string.h>

#include "bench_graph.h"
#include "bench_row.h"
#include "bench_targets.h"
#include "bench_time.h"
#include "bench_types.h"

enum { ADDS = 100, ADD_N = 1024 };

typedef struct gcall {
    accel_graph *g;
    accel_slice x, one;
} gcall;

static accel_status eager_fn(accel_queue *q, void *user)
{
    const gcall *c = user;
    accel_status st = ACCEL_SUCCESS;
    for (int i = 0; i < ADDS && st == ACCEL_SUCCESS; i++)
        st = accel_add(q, ACCEL_F32, c->x, c->one, c->x);
    return st;
}

static accel_status launch_fn(accel_queue *q, void *user)
{
    return accel_graph_launch(((const gcall *)user)->g, q);
}

static accel_status instantiate(accel_graph *g, bool fused)
{
    accel_graph_options o;
    accel_graph_options_init(&o);
    o.flags = fused ? 0 : ACCEL_GRAPH_NO_FUSION;
    return accel_graph_instantiate(g, &o);
}

/* One timed row of launches (or eager calls) of c. */
static accel_status row(bench *b, bench_device *d, accel_queue *q, accel_event *e0, accel_event *e1,
                        unsigned reps, const char *op, uint64_t n, double bytes, int ceiling,
                        bench_enqueue_fn fn, gcall *c, double *out_ms)
{
    bench_progress(b, op);
    double med = 0, mn = 0;
    accel_status st = bench_time_events(q, e0, e1, reps, 1, fn, c, &med, &mn);
    if (st != ACCEL_SUCCESS)
        return st;
    bench_row *r = bench_add_row(d);
    if (!r)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    bench_fill_row(r, d, op, "f32", n, med, mn, bytes, 0, ceiling,
                   ceiling == BENCH_C_NONE ? ""
                   : d->gpu                ? "copy"
                                           : "max(memcpy, loop)");
    *out_ms = med;
    return ACCEL_SUCCESS;
}

/* The 100 adds' rounds: each times every way (eager, replay, fused and,
 * where the backend measures it, the vendor's raw graph of the same adds;
 * the order turning by round) `runs` times end to end (enqueue + finish, the
 * host clock, as the target is stated) and keeps the median. */
enum { ADD_ROUNDS = 7, ADD_WAYS = 4, WAY_EAGER = 0, WAY_RAW = 3 };

typedef struct add_rounds {
    double ms[ADD_WAYS][ADD_ROUNDS];                    /* per way, each round's median */
    double med[ADD_WAYS], min[ADD_WAYS], max[ADD_WAYS]; /* over the rounds */
    double raw_ratio, raw_ratio_min, raw_ratio_max;     /* replay / raw per round; 0: no raw */
} add_rounds;

/* The raw graph's median milliseconds over `runs` (accel_ceilings.graph_us),
 * 0 when the backend has no graphs. */
static accel_status raw_graph_ms(accel_device *dev, unsigned runs, double *ms)
{
    accel_ceilings_options o;
    accel_ceilings_options_init(&o);
    o.what = ACCEL_CEILING_GRAPH;
    o.repeats = runs;
    accel_ceilings c;
    memset(&c, 0, sizeof c);
    c.struct_size = sizeof c;
    accel_status st = accel_device_measure_ceilings(dev, &o, &c);
    *ms = st == ACCEL_SUCCESS ? c.graph_us * 1e-3 : 0;
    return st == ACCEL_ERROR_UNSUPPORTED ? ACCEL_SUCCESS : st;
}

static accel_status time_way(accel_queue *q, gcall *c, unsigned w, unsigned runs, double *t,
                             double *ms)
{
    for (unsigned i = 0; i < runs; i++) {
        double t0 = bench_now_us();
        accel_status st = w == WAY_EAGER ? eager_fn(q, c) : launch_fn(q, c);
        if (st == ACCEL_SUCCESS)
            st = accel_queue_finish(q);
        if (st != ACCEL_SUCCESS)
            return st;
        t[i] = (bench_now_us() - t0) * 1e-3;
    }
    *ms = bench_median(t, runs);
    return ACCEL_SUCCESS;
}

static accel_status time_adds(accel_device *dev, accel_queue *q, gcall *const ways[ADD_WAYS],
                              bool raw, unsigned runs, add_rounds *out)
{
    double t[256], ms = 0;
    if (runs > 256)
        runs = 256;
    unsigned nways = raw ? ADD_WAYS : ADD_WAYS - 1;
    for (unsigned r = 0; r <= ADD_ROUNDS; r++) /* round 0 warms up */
        for (unsigned k = 0; k < nways; k++) {
            unsigned w = (k + r) % nways;
            accel_status st =
                w == WAY_RAW ? raw_graph_ms(dev, runs, &ms) : time_way(q, ways[w], w, runs, t, &ms);
            if (st != ACCEL_SUCCESS)
                return st;
            if (r)
                out->ms[w][r - 1] = ms;
        }
    for (unsigned w = 0; w < nways; w++)
        bench_spread(out->ms[w], ADD_ROUNDS, &out->med[w], &out->min[w], &out->max[w]);
    if (raw && out->med[WAY_RAW] > 0) {
        double ratio[ADD_ROUNDS];
        for (unsigned r = 0; r < ADD_ROUNDS; r++)
            ratio[r] = out->ms[WAY_RAW][r] > 0 ? out->ms[1][r] / out->ms[WAY_RAW][r] : 0;
        bench_spread(ratio, ADD_ROUNDS, &out->raw_ratio, &out->raw_ratio_min, &out->raw_ratio_max);
    }
    return ACCEL_SUCCESS;
}

/* The 100 adds' figures as d's rows (first: the rows and the absolute
 * target) and targets. */
static accel_status adds_report(bench_device *d, const add_rounds *ar, bool native, bool first,
                                unsigned runs)
{
    static const char *const ops[3] = {"graph100 eager", "graph100 replay", "graph100 fused"};
    const double bytes = (double)ADDS * 3 * ADD_N * 4;
    char detail[160];
    if (first) {
        for (unsigned w = 0; w < 3; w++) {
            bench_row *r = bench_add_row(d);
            if (!r)
                return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
            bench_fill_row(r, d, ops[w], "f32", ADD_N, ar->med[w], ar->min[w], bytes, 0,
                           BENCH_C_NONE, "");
        }
    }
    if (!d->gpu) {
        double ratio[ADD_ROUNDS], rmed, rmin, rmax;
        for (unsigned r = 0; r < ADD_ROUNDS; r++)
            ratio[r] = ar->ms[WAY_EAGER][r] / ar->ms[1][r];
        bench_spread(ratio, ADD_ROUNDS, &rmed, &rmin, &rmax);
        snprintf(detail, sizeof detail,
                 "median of %d rounds of %u, spread %.2f-%.2f; replay %.1f us, eager %.1f us",
                 ADD_ROUNDS, runs, rmin, rmax, ar->med[1] * 1e3, ar->med[WAY_EAGER] * 1e3);
        bench_add_target(d, "graph replay / eager, 100 small adds", rmed, 3, false, detail);
        return ACCEL_SUCCESS;
    }
    if (first) {
        snprintf(detail, sizeof detail,
                 "%s, median of %d rounds of %u, spread %.1f-%.1f us; raw graph %.1f, eager "
                 "%.1f, fused %.1f us",
                 native ? "backend entries" : "core replay", ADD_ROUNDS, runs, ar->min[1] * 1e3,
                 ar->max[1] * 1e3, ar->med[WAY_RAW] * 1e3, ar->med[WAY_EAGER] * 1e3,
                 ar->med[2] * 1e3);
        bench_add_target(d, "graph replay, 100 dependent adds (us)", ar->med[1] * 1e3, 110, true,
                         detail);
    }
    if (ar->raw_ratio > 0) {
        snprintf(detail, sizeof detail, "spread %.3f-%.3f; replay %.1f us, raw %.1f us%s",
                 ar->raw_ratio_min, ar->raw_ratio_max, ar->med[1] * 1e3, ar->med[WAY_RAW] * 1e3,
                 first ? "" : "; other streams' kernels ran: both slower");
        if (first)
            bench_add_target(d, "graph replay / raw graph, 100 adds", ar->raw_ratio, 1.05, true,
                             detail);
        else
            bench_add_note(d, "graph replay / raw graph, after the sweep", ar->raw_ratio, detail);
    }
    return ACCEL_SUCCESS;
}

/* The 100 dependent adds: recorded twice (one replayed unfused, one fused),
 * timed in rounds against eager calls and the raw graph. On a GPU this runs
 * twice: first, before the bench has launched a kernel on any other stream
 * (ceilings.cu's graph note: kernels on a second stream slow every graph's
 * nodes for the rest of the process, the vendor's raw graphs as much as
 * accel's), and again after the sweep. */
static accel_status adds(bench *b, bench_device *d, accel_device *dev, accel_queue *q,
                         unsigned reps, bool first)
{
    accel_buffer *x = NULL, *one = NULL;
    gcall c = {NULL, {NULL, 0, 0}, {NULL, 0, 0}}, cf = c;
    accel_status st = accel_buffer_create(dev, ADD_N * 4, &x);
    if (st == ACCEL_SUCCESS)
        st = accel_buffer_create(dev, ADD_N * 4, &one);
    c.x = accel_slice_of(x, 0, ADD_N);
    c.one = accel_slice_of(one, 0, ADD_N);
    cf.x = c.x;
    cf.one = c.one;
    if (st == ACCEL_SUCCESS)
        st = accel_fill(q, ACCEL_F32, 0.0, c.x);
    if (st == ACCEL_SUCCESS)
        st = accel_fill(q, ACCEL_F32, 1.0, c.one);
    for (int f = 0; f < 2 && st == ACCEL_SUCCESS; f++) {
        gcall *g = f ? &cf : &c;
        st = accel_queue_begin_capture(q);
        if (st == ACCEL_SUCCESS) {
            accel_status rst = eager_fn(q, g);
            st = accel_queue_end_capture(q, &g->g);
            if (rst != ACCEL_SUCCESS)
                st = rst;
        }
        if (st == ACCEL_SUCCESS)
            st = instantiate(g->g, f == 1);
    }
    add_rounds ar;
    memset(&ar, 0, sizeof ar);
    gcall *ways[ADD_WAYS] = {&c, &c, &cf, NULL};
    /* Enough runs per round that its median is steady (the 100 adds take
     * about 0.1 ms on a GPU); the raw graph's runs are capped at 64. */
    unsigned runs = 10 * reps < 50 ? 50 : 10 * reps;
    /* Whether the unfused replay goes through the backend's graph entries
     * (else the core replays it op by op), for the target's detail. */
    bool native = false;
    if (st == ACCEL_SUCCESS)
        st = accel_graph_backend_replay(c.g, &native);
    if (st == ACCEL_SUCCESS) {
        bench_progress(b, first ? "graph100 rounds (first)" : "graph100 rounds");
        st = time_adds(dev, q, ways, d->gpu, runs, &ar);
    }
    accel_status fst = accel_queue_finish(q);
    if (st == ACCEL_SUCCESS)
        st = fst;
    if (st == ACCEL_SUCCESS && ar.med[1] > 0)
        st = adds_report(d, &ar, native, first, runs);
    accel_graph_release(c.g);
    accel_graph_release(cf.g);
    accel_buffer_release(x);
    accel_buffer_release(one);
    return st;
}

accel_status bench_graph_adds_first(bench *b, bench_device *d, accel_device *dev,
                                    const bench_plan *p)
{
    accel_queue *q = NULL;
    accel_status st = accel_queue_create(dev, &q);
    if (st == ACCEL_SUCCESS)
        st = adds(b, d, dev, q, p->repeats ? p->repeats : 5, true);
    accel_queue_release(q);
    return st;
}

/* which 8: out = sigmoid(relu(2 tanh(x*x + x) - x) * x); which 3: a*b+c. */
static accel_status record_chain(accel_queue *q, accel_device *dev, int which, size_t n,
                                 accel_buffer *const *in, accel_buffer *out, accel_graph **g)
{
    accel_status st = accel_queue_begin_capture(q);
    if (st != ACCEL_SUCCESS)
        return st;
    accel_buffer *t[7] = {NULL};
    for (int i = 0; i < (which == 8 ? 7 : 1) && st == ACCEL_SUCCESS; i++)
        st = accel_buffer_create(dev, n * 4, &t[i]);
    accel_slice s[7], x = accel_slice_of(in[0], 0, n), o = accel_slice_of(out, 0, n);
    for (int i = 0; i < 7; i++)
        s[i] = accel_slice_of(t[i], 0, n);
    if (which == 8) {
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
    } else {
        if (st == ACCEL_SUCCESS)
            st = accel_mul(q, ACCEL_F32, x, accel_slice_of(in[1], 0, n), s[0]);
        if (st == ACCEL_SUCCESS)
            st = accel_add(q, ACCEL_F32, s[0], accel_slice_of(in[2], 0, n), o);
    }
    accel_status est = accel_queue_end_capture(q, g);
    return st != ACCEL_SUCCESS ? st : est;
}

static accel_status chains(bench *b, bench_device *d, accel_device *dev, accel_queue *q,
                           accel_event *e0, accel_event *e1, unsigned reps, uint64_t n)
{
    accel_buffer *in[3] = {NULL, NULL, NULL}, *out = NULL;
    accel_status st = ACCEL_SUCCESS;
    for (int i = 0; i < 3 && st == ACCEL_SUCCESS; i++) {
        st = accel_buffer_create(dev, n * 4, &in[i]);
        if (st == ACCEL_SUCCESS)
            st = accel_random_uniform(q, ACCEL_F32, 11 + (uint64_t)i, 0,
                                      accel_slice_of(in[i], 0, n));
    }
    if (st == ACCEL_SUCCESS)
        st = accel_buffer_create(dev, n * 4, &out);
    static const int which[2] = {8, 3};
    static const char *const names[2][2] = {{"chain8 unfused", "chain8 fused"},
                                            {"a*b+c unfused", "a*b+c fused"}};
    for (int w = 0; w < 2 && st == ACCEL_SUCCESS; w++) {
        gcall c = {NULL, {NULL, 0, 0}, {NULL, 0, 0}};
        st = record_chain(q, dev, which[w], (size_t)n, in, out, &c.g);
        double bytes = (double)n * 4 * (which[w] == 8 ? 2 : 4), ms[2] = {0, 0};
        for (int f = 0; f < 2 && st == ACCEL_SUCCESS; f++) {
            st = instantiate(c.g, f == 1);
            if (st == ACCEL_SUCCESS)
                st = row(b, d, q, e0, e1, reps, names[w][f], n, bytes, BENCH_C_EW, launch_fn, &c,
                         &ms[f]);
        }
        /* On the CPU the chain's tanh and sigmoid are compute-bound: no target. */
        if (st == ACCEL_SUCCESS && which[w] == 8 && ms[1] > 0 && d->gpu) {
            char detail[160];
            snprintf(detail, sizeof detail, "unfused %.3f ms, fused %.3f ms", ms[0], ms[1]);
            bench_add_target(d, "fused 8-op chain: unfused / fused", ms[0] / ms[1], 6, false,
                             detail);
            d->rows[d->row_count - 1].target = 0.95;
        }
        accel_status fst = accel_queue_finish(q);
        if (st == ACCEL_SUCCESS)
            st = fst;
        accel_graph_release(c.g);
    }
    for (int i = 0; i < 3; i++)
        accel_buffer_release(in[i]);
    accel_buffer_release(out);
    return st;
}

accel_status bench_graphs(bench *b, bench_device *d, accel_device *dev, accel_queue *q,
                          accel_event *e0, accel_event *e1, const bench_plan *p)
{
    unsigned reps = p->repeats ? p->repeats : 5;
    /* On a GPU the rows came from bench_graph_adds_first; this adds the
     * ratio to the raw graph in the state after the sweep. */
    accel_status st = adds(b, d, dev, q, reps, !d->gpu);
    if (st == ACCEL_SUCCESS && p->ew_count)
        st = chains(b, d, dev, q, e0, e1, reps, p->ew_sizes[p->ew_count - 1]);
    return st;
}
