/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* bench_run.c — the sections `accel bench` measures on one device: its own
 * ceilings (accel_device_measure_ceilings, before and again after the ops;
 * the better figure counts), elementwise ops and reductions over a size
 * sweep, GEMM per dtype, dispatch overhead against a bare launch or call,
 * and host<->device transfers. Nothing here links a vendor library: the
 * ceilings are measured inside the backend plugins. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_graph.h"
#include "bench_plan.h"
#include "bench_row.h"
#include "bench_run.h"
#include "bench_targets.h"
#include "bench_time.h"
#include "bench_types.h"

/* Ceilings are measured before and after the ops: the better of the two
 * counts (the lower for the bare launch), so that a machine slowed down
 * while the ceilings ran does not flatter accel. Fractions are recomputed. */
static void merge_ceilings(bench_device *d, const accel_ceilings *again)
{
    accel_ceilings *c = &d->ceilings;
    c->copy_gbs = fmax(c->copy_gbs, again->copy_gbs);
    c->loop_gbs = fmax(c->loop_gbs, again->loop_gbs);
    c->read_gbs = fmax(c->read_gbs, again->read_gbs);
    for (int i = 0; i < 8; i++)
        c->gemm_tflops[i] = fmax(c->gemm_tflops[i], again->gemm_tflops[i]);
    c->gemm_tf32_tflops = fmax(c->gemm_tf32_tflops, again->gemm_tf32_tflops);
    if (again->launch_us > 0 && (c->launch_us <= 0 || again->launch_us < c->launch_us))
        c->launch_us = again->launch_us;
    d->bare_us = c->launch_us;
    for (size_t i = 0; i < d->row_count; i++) {
        bench_row *r = &d->rows[i];
        r->ceiling = bench_ceiling_value(d, r->ceiling_id);
        r->fraction = r->ceiling > 0 ? r->rate / r->ceiling : 0;
    }
}

/* ------------------------------------------------------------- a device */

/* What every section of one device uses. */
typedef struct section {
    bench *b;
    bench_device *d;
    accel_device *dev;
    accel_queue *q;
    accel_event *e0, *e1;
    const bench_plan *p;
} section;

/* ------------------------------------------------------ elementwise */

typedef struct ew_bufs {
    accel_buffer *a, *b, *c, *r;
    size_t n;
} ew_bufs;

typedef struct ew_call {
    bench_ew_op k;
    const ew_bufs *e;
} ew_call;

static accel_status ew_fn(accel_queue *q, void *user)
{
    const ew_call *call = user;
    const ew_bufs *e = call->e;
    accel_slice a = accel_slice_of(e->a, 0, e->n), b = accel_slice_of(e->b, 0, e->n),
                c = accel_slice_of(e->c, 0, e->n), r = accel_slice_of(e->r, 0, 1);
    switch (call->k) {
    case BENCH_ADD:
        return accel_add(q, ACCEL_F32, a, b, c);
    case BENCH_MUL:
        return accel_mul(q, ACCEL_F32, a, b, c);
    case BENCH_RELU:
        return accel_relu(q, ACCEL_F32, a, c);
    case BENCH_EXP:
        return accel_exp(q, ACCEL_F32, a, c);
    case BENCH_AXPBY:
        return accel_axpby(q, ACCEL_F32, 0.5, a, 0.5, c);
    case BENCH_COPY:
        return accel_copy(q, ACCEL_F32, a, c);
    case BENCH_SUM:
        return accel_sum(q, ACCEL_F32, a, r);
    case BENCH_MAX:
        return accel_reduce_max(q, ACCEL_F32, a, r);
    case BENCH_DOT:
        return accel_dot(q, ACCEL_F32, a, b, r);
    case BENCH_RANDOM_NORMAL:
        return accel_random_normal(q, ACCEL_F32, 7, 0, 0.0, 1.0, c);
    case BENCH_RANDOM:
    case BENCH_EW_COUNT:
        break;
    }
    return accel_random_uniform(q, ACCEL_F32, 7, 0, c);
}

static accel_status ew_create(const section *s, ew_bufs *e, uint64_t n)
{
    memset(e, 0, sizeof *e);
    e->n = (size_t)n;
    accel_status st = accel_buffer_create(s->dev, n * 4, &e->a);
    if (st == ACCEL_SUCCESS)
        st = accel_buffer_create(s->dev, n * 4, &e->b);
    if (st == ACCEL_SUCCESS)
        st = accel_buffer_create(s->dev, n * 4, &e->c);
    if (st == ACCEL_SUCCESS)
        st = accel_buffer_create(s->dev, 64, &e->r);
    if (st == ACCEL_SUCCESS)
        st = accel_random_uniform(s->q, ACCEL_F32, 1, 0, accel_slice_of(e->a, 0, n));
    if (st == ACCEL_SUCCESS)
        st = accel_random_uniform(s->q, ACCEL_F32, 2, 0, accel_slice_of(e->b, 0, n));
    if (st == ACCEL_SUCCESS)
        st = accel_random_uniform(s->q, ACCEL_F32, 3, 0, accel_slice_of(e->c, 0, n));
    if (st == ACCEL_SUCCESS)
        st = accel_queue_finish(s->q);
    return st;
}

static void ew_release(ew_bufs *e)
{
    accel_buffer_release(e->a);
    accel_buffer_release(e->b);
    accel_buffer_release(e->c);
    accel_buffer_release(e->r);
}

static unsigned inner_for(const bench_plan *p, uint64_t n)
{
    uint64_t k = p->inner_elems / (n ? n : 1);
    return (unsigned)(k < 1 ? 1 : k > 256 ? 256 : k);
}

/* Median and fastest ms of op k on e. */
static accel_status ew_time(const section *s, const ew_bufs *e, bench_ew_op k, double *med,
                            double *mn)
{
    ew_call call = {k, e};
    return bench_time_events(s->q, s->e0, s->e1, s->p->repeats, inner_for(s->p, e->n), ew_fn, &call,
                             med, mn);
}

/* Op k at one size; largest: the last size of the sweep (charted, targeted). */
static accel_status ew_point(const section *s, const ew_bufs *e, bench_ew_op k, bool largest)
{
    const bench_ew_case *c = &bench_ew_cases[k];
    char lbl[64], sz[24];
    snprintf(lbl, sizeof lbl, "%s f32 %s", c->name, bench_pow2_label(e->n, sz, sizeof sz));
    bench_progress(s->b, lbl);
    double med = 0, mn = 0;
    accel_status st = ew_time(s, e, k, &med, &mn);
    if (st != ACCEL_SUCCESS)
        return st;
    bench_row *r = bench_add_row(s->d);
    if (!r)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    const char *ceiling = c->reduction ? "read" : s->d->gpu ? "copy" : "max(memcpy, loop)";
    double n = (double)e->n;
    bench_fill_row(r, s->d, c->name, "f32", e->n, med, mn, c->bytes_per_elem * n,
                   c->flops_per_elem * n, c->reduction ? BENCH_C_READ : BENCH_C_EW, ceiling);
    r->largest = largest;
    r->target = largest ? (s->d->gpu ? c->target_gpu : c->target_cpu) : 0;
    return ACCEL_SUCCESS;
}

static accel_status bench_elementwise(const section *s)
{
    for (size_t i = 0; i < s->p->ew_count; i++) {
        ew_bufs e;
        accel_status st = ew_create(s, &e, s->p->ew_sizes[i]);
        for (int k = 0; k < BENCH_EW_COUNT && st == ACCEL_SUCCESS; k++)
            st = ew_point(s, &e, (bench_ew_op)k, i + 1 == s->p->ew_count);
        accel_status fst = accel_queue_finish(s->q);
        ew_release(&e);
        if (st != ACCEL_SUCCESS)
            return st;
        if (fst != ACCEL_SUCCESS)
            return fst;
    }
    return ACCEL_SUCCESS;
}

/* ------------------------------------------------------------- GEMM */

/* f16/bf16 inputs: accel has no f16 random numbers, so write bit patterns of
 * values in [0.5, 1) from the host. */
static accel_status fill_half(accel_queue *q, accel_buffer *buf, size_t count, bool bf16)
{
    const size_t chunk = (size_t)1 << 20;
    uint16_t *h = malloc(chunk * sizeof *h);
    if (!h)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    uint32_t x = 12345;
    for (size_t i = 0; i < chunk; i++) {
        x = x * 1664525u + 1013904223u;
        h[i] = bf16 ? (uint16_t)(0x3f00u | ((x >> 16) & 0x7fu))
                    : (uint16_t)(0x3800u | ((x >> 16) & 0x3ffu));
    }
    accel_status st = ACCEL_SUCCESS;
    for (size_t off = 0; off < count && st == ACCEL_SUCCESS; off += chunk) {
        size_t k = count - off < chunk ? count - off : chunk;
        st = accel_queue_write_blocking(q, buf, off * 2, h, k * 2);
    }
    free(h);
    return st;
}

static accel_status gemm_fn(accel_queue *q, void *user)
{
    return accel_gemm(q, (const accel_gemm_desc *)user);
}

/* A, B and C of n x n in g, A and B filled. */
static accel_status gemm_create(const section *s, const bench_gemm_case *c, uint64_t n,
                                accel_gemm_desc *g)
{
    size_t bytes = n * n * accel_dtype_size(c->dt);
    accel_gemm_desc_init(g);
    g->dtype = c->dt;
    g->m = g->n = g->k = n;
    g->lda = g->ldb = g->ldc = n;
    g->allow_tf32 = c->tf32;
    accel_status st = accel_buffer_create(s->dev, bytes, &g->a);
    if (st == ACCEL_SUCCESS)
        st = accel_buffer_create(s->dev, bytes, &g->b);
    if (st == ACCEL_SUCCESS)
        st = accel_buffer_create(s->dev, bytes, &g->c);
    bool half = c->dt == ACCEL_F16 || c->dt == ACCEL_BF16;
    if (st == ACCEL_SUCCESS)
        st = half ? fill_half(s->q, g->a, n * n, c->dt == ACCEL_BF16)
                  : accel_random_uniform(s->q, c->dt, 4, 0, accel_slice_of(g->a, 0, n * n));
    if (st == ACCEL_SUCCESS)
        st = half ? fill_half(s->q, g->b, n * n, c->dt == ACCEL_BF16)
                  : accel_random_uniform(s->q, c->dt, 5, 0, accel_slice_of(g->b, 0, n * n));
    if (st == ACCEL_SUCCESS)
        st = accel_queue_finish(s->q);
    return st;
}

static accel_status gemm_point(const section *s, const bench_gemm_case *c, uint64_t n, bool largest)
{
    char lbl[64], sz[24];
    accel_gemm_desc g;
    accel_status st = gemm_create(s, c, n, &g);
    snprintf(lbl, sizeof lbl, "gemm %s n=%s", c->name, bench_pow2_label(n, sz, sizeof sz));
    bench_progress(s->b, lbl);
    double med = 0, mn = 0;
    if (st == ACCEL_SUCCESS)
        st = bench_time_events(s->q, s->e0, s->e1, largest ? s->p->gemm_repeats : s->p->repeats, 1,
                               gemm_fn, &g, &med, &mn);
    accel_status fst = accel_queue_finish(s->q);
    accel_buffer_release(g.a);
    accel_buffer_release(g.b);
    accel_buffer_release(g.c);
    if (st == ACCEL_ERROR_UNSUPPORTED) {
        fprintf(stderr, "accel bench: %s: gemm %s skipped: %s\n", s->d->name, c->name,
                accel_last_error());
        return ACCEL_SUCCESS;
    }
    if (st != ACCEL_SUCCESS || fst != ACCEL_SUCCESS)
        return st != ACCEL_SUCCESS ? st : fst;
    bench_row *r = bench_add_row(s->d);
    if (!r)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    double nn = (double)n;
    /* Ceilings were measured at one size: smaller sizes are shown as a
     * fraction of that peak. */
    bench_fill_row(r, s->d, "gemm", c->name, n, med, mn,
                   3.0 * nn * nn * (double)accel_dtype_size(c->dt), 2.0 * nn * nn * nn,
                   c->tf32 ? BENCH_C_GEMM_TF32 : BENCH_C_GEMM + (int)c->dt,
                   s->d->gpu ? "cuBLAS direct" : "OpenBLAS direct");
    r->largest = largest;
    if (largest && r->ceiling > 0)
        r->target = s->d->gpu ? 0.98 : 0.97;
    return ACCEL_SUCCESS;
}

static accel_status bench_gemm(const section *s)
{
    for (size_t i = 0; i < s->p->gemm_count; i++)
        for (size_t k = 0; k < bench_gemm_case_count; k++) {
            if (bench_gemm_cases[k].gpu_only && !s->d->gpu)
                continue;
            accel_status st =
                gemm_point(s, &bench_gemm_cases[k], s->p->gemm_sizes[i], i + 1 == s->p->gemm_count);
            if (st != ACCEL_SUCCESS)
                return st;
        }
    return ACCEL_SUCCESS;
}

/* --------------------------------------------------------- dispatch */

/* Host time per enqueue of a one-element add, batches of 200 enqueues (the
 * queue is drained between batches, outside the timing), as the ceilings'
 * bare launch is measured. */
static accel_status dispatch_time(const section *s, double *out_us)
{
    enum { BATCH = 200, BATCHES = 15 };
    accel_buffer *x = NULL;
    accel_status st = accel_buffer_create(s->dev, 64, &x);
    if (st == ACCEL_SUCCESS)
        st = accel_fill(s->q, ACCEL_F32, 1.0, accel_slice_of(x, 0, 16));
    double t[BATCHES + 1];
    for (int r = 0; r <= BATCHES && st == ACCEL_SUCCESS; r++) {
        accel_slice s0 = accel_slice_of(x, 0, 1), s1 = accel_slice_of(x, 1, 1),
                    s2 = accel_slice_of(x, 2, 1);
        double t0 = bench_now_us();
        for (int i = 0; i < BATCH && st == ACCEL_SUCCESS; i++)
            st = accel_add(s->q, ACCEL_F32, s0, s1, s2);
        double t1 = bench_now_us();
        if (st == ACCEL_SUCCESS)
            st = accel_queue_finish(s->q);
        t[r] = (t1 - t0) / BATCH;
    }
    accel_buffer_release(x);
    if (st == ACCEL_SUCCESS)
        *out_us = bench_median(t + 1, BATCHES);
    return st;
}

static accel_status bench_dispatch(const section *s)
{
    bench_progress(s->b, "dispatch");
    accel_status st = dispatch_time(s, &s->d->dispatch_us);
    s->d->bare_us = s->d->ceilings.launch_us;
    return st;
}

/* -------------------------------------------------------- transfers */

typedef struct xfer_call {
    accel_buffer *buf;
    void *host;
    size_t bytes;
    bool read, pinned;
} xfer_call;

static accel_status xfer_fn(accel_queue *q, void *user)
{
    xfer_call *x = user;
    return x->read ? accel_queue_read(q, x->buf, 0, x->host, x->bytes)
                   : accel_queue_write(q, x->buf, 0, x->host, x->bytes);
}

/* Pageable copies block the host, as cudaMemcpy does: host clock around the
 * blocking call, as the ceiling is measured. */
static accel_status time_blocking(accel_queue *q, const xfer_call *x, unsigned reps,
                                  double *out_med, double *out_min)
{
    double t[64];
    reps = reps > 64 ? 64 : reps;
    for (unsigned r = 0; r <= reps; r++) {
        double t0 = bench_now_us();
        accel_status st = x->read ? accel_queue_read_blocking(q, x->buf, 0, x->host, x->bytes)
                                  : accel_queue_write_blocking(q, x->buf, 0, x->host, x->bytes);
        if (st != ACCEL_SUCCESS)
            return st;
        if (r > 0)
            t[r - 1] = (bench_now_us() - t0) * 1e-3;
    }
    double mx;
    bench_spread(t, reps, out_med, out_min, &mx);
    return ACCEL_SUCCESS;
}

static accel_status xfer_point(const section *s, xfer_call *x)
{
    static const char *const names[2][2] = {{"write_pageable", "read_pageable"},
                                            {"write_pinned", "read_pinned"}};
    const char *name = names[x->pinned][x->read];
    bench_progress(s->b, name);
    double med = 0, mn = 0;
    accel_status st =
        x->pinned ? bench_time_events(s->q, s->e0, s->e1, s->p->repeats, 1, xfer_fn, x, &med, &mn)
                  : time_blocking(s->q, x, s->p->repeats, &med, &mn);
    if (st != ACCEL_SUCCESS)
        return st;
    bench_row *r = bench_add_row(s->d);
    if (!r)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    int id = x->pinned ? (x->read ? BENCH_C_D2H_PINNED : BENCH_C_H2D_PINNED)
                       : (x->read ? BENCH_C_D2H_PAGEABLE : BENCH_C_H2D_PAGEABLE);
    bench_fill_row(r, s->d, name, "bytes", x->bytes, med, mn, (double)x->bytes, 0, id,
                   x->pinned ? "cudaMemcpyAsync pinned" : "cudaMemcpy pageable");
    r->largest = true;
    r->target = x->pinned ? 0.95 : 2.0;
    return ACCEL_SUCCESS;
}

static accel_status bench_transfers(const section *s)
{
    const size_t bytes = (size_t)s->p->transfer_bytes;
    accel_buffer *buf = NULL;
    void *pinned = NULL;
    char *pageable = malloc(bytes);
    accel_status st = pageable ? ACCEL_SUCCESS : ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    if (st == ACCEL_SUCCESS)
        st = accel_buffer_create(s->dev, bytes, &buf);
    if (st == ACCEL_SUCCESS)
        st = accel_host_alloc(s->dev, bytes, &pinned);
    if (st == ACCEL_SUCCESS) {
        memset(pinned, 1, bytes);
        memset(pageable, 1, bytes);
    }
    /* Order of the table: write, read pinned; write, read pageable. */
    for (int k = 0; k < 4 && st == ACCEL_SUCCESS; k++) {
        xfer_call x = {buf, k < 2 ? pinned : pageable, bytes, k & 1, k < 2};
        st = xfer_point(s, &x);
    }
    accel_status fst = accel_queue_finish(s->q);
    accel_host_free(s->dev, pinned);
    accel_buffer_release(buf);
    free(pageable);
    return st != ACCEL_SUCCESS ? st : fst;
}

/* --------------------------------------------------- target rounds */

/* On a small shared machine (the CPU targets' 2 cores) one ratio is one
 * sample of the machine's load: a ceiling measured a few seconds before the
 * op can differ from it by 2x. So the targeted rows are measured again in
 * rounds, each round timing the ceilings and then, right after them, the
 * op; the target takes the median ratio and reports the spread. */

#define MAX_ROUND_ROWS 24 /* a GPU has 15 targeted rows */
#define MAX_ROUNDS BENCH_MAX_ROUNDS

typedef struct round_row {
    bench_row *row;
    int ew;                   /* bench_ew_op, or -1 for GEMM */
    const bench_gemm_case *g; /* GEMM case */
    ew_bufs e;                /* its buffers, when owner < 0 */
    int owner;                /* else the row whose buffers it shares (same n) */
    accel_gemm_desc gd;
    double ms; /* this round's median time */
    double frac[MAX_ROUNDS];
} round_row;

static const bench_gemm_case *gemm_case_named(const char *name)
{
    for (size_t i = 0; i < bench_gemm_case_count; i++)
        if (strcmp(bench_gemm_cases[i].name, name) == 0)
            return &bench_gemm_cases[i];
    return NULL;
}

/* The targeted rows that rounds re-measure, with their buffers: one set per
 * elementwise size, shared by every op of that size as in the sweep (the ops
 * write only c and r), so that the rounds hold 3 n-element buffers, not 3
 * per row (30 GiB at 2^28 on a GPU). */
static accel_status rounds_setup(const section *s, round_row *rr, size_t *count)
{
    accel_status st = ACCEL_SUCCESS;
    *count = 0;
    for (size_t i = 0; i < s->d->row_count && st == ACCEL_SUCCESS; i++) {
        bench_row *r = &s->d->rows[i];
        if (r->target <= 0 || r->ceiling <= 0 || *count == MAX_ROUND_ROWS)
            continue;
        round_row *x = &rr[*count];
        memset(x, 0, sizeof *x);
        x->row = r;
        x->ew = -1;
        x->owner = -1;
        for (int k = 0; k < BENCH_EW_COUNT; k++)
            if (strcmp(bench_ew_cases[k].name, r->op) == 0)
                x->ew = k;
        bool ew = x->ew >= 0 && (s->p->round_groups & ACCEL_CEILING_COPY);
        bool gemm = strcmp(r->op, "gemm") == 0 && (s->p->round_groups & ACCEL_CEILING_GEMM) &&
                    (x->g = gemm_case_named(r->dtype)) != NULL;
        for (size_t j = 0; ew && j < *count && x->owner < 0; j++)
            if (rr[j].ew >= 0 && rr[j].owner < 0 && rr[j].e.n == r->n)
                x->owner = (int)j;
        if (ew)
            st = x->owner < 0 ? ew_create(s, &x->e, r->n) : ACCEL_SUCCESS;
        else if (gemm)
            st = gemm_create(s, x->g, r->n, &x->gd);
        else
            continue; /* transfers, the rows of groups not in the plan: not re-measured */
        ++*count;
    }
    return st;
}

static void rounds_release(round_row *rr, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        if (rr[i].ew >= 0) {
            if (rr[i].owner < 0)
                ew_release(&rr[i].e);
        } else {
            accel_buffer_release(rr[i].gd.a);
            accel_buffer_release(rr[i].gd.b);
            accel_buffer_release(rr[i].gd.c);
        }
    }
}

/* This round's ceilings of one group (what), in a copy of the device. */
static accel_status round_ceilings(const section *s, accel_ceilings_options o, uint32_t what,
                                   bench_device *now)
{
    *now = *s->d;
    memset(&now->ceilings, 0, sizeof now->ceilings);
    now->ceilings.struct_size = sizeof now->ceilings;
    o.what = what;
    return accel_device_measure_ceilings(s->dev, &o, &now->ceilings);
}

/* Times the rows of one kind (GEMM or not), each median into x->ms. */
static accel_status round_rows(const section *s, round_row *rr, size_t count, bool gemm)
{
    accel_status st = ACCEL_SUCCESS;
    for (size_t i = 0; i < count && st == ACCEL_SUCCESS; i++) {
        round_row *x = &rr[i];
        if ((x->ew < 0) != gemm)
            continue;
        double mn = 0;
        const ew_bufs *e = x->owner >= 0 ? &rr[x->owner].e : &x->e;
        st = x->ew >= 0 ? ew_time(s, e, (bench_ew_op)x->ew, &x->ms, &mn)
                        : bench_time_events(s->q, s->e0, s->e1, s->p->gemm_repeats, 1, gemm_fn,
                                            &x->gd, &x->ms, &mn);
    }
    return st;
}

/* Each timed row of one kind as a fraction of this round's ceiling. */
static void round_fractions(const bench_device *now, round_row *rr, size_t count, bool gemm,
                            unsigned round)
{
    for (size_t i = 0; i < count; i++) {
        round_row *x = &rr[i];
        const bench_row *r = x->row;
        if ((x->ew < 0) != gemm)
            continue;
        double rate = r->flops > 0 && x->ew < 0 ? r->flops / (x->ms * 1e-3) * 1e-12
                                                : r->bytes / (x->ms * 1e-3) * 1e-9;
        double ceiling = bench_ceiling_value(now, r->ceiling_id);
        x->frac[round] = x->ms > 0 && ceiling > 0 ? rate / ceiling : 0;
    }
}

/* How long a round waits after its GEMMs: OpenBLAS's threads spin for up to
 * 2^28 cycles (about 0.1 s) after a GEMM before they sleep, and on a 2-core
 * machine the spinning thread takes a core from whatever runs next. Measured
 * there: an add timed right after the GEMM ceiling reached 0.70-0.78 of its
 * ceiling in three runs, a mul timed after it 0.98-1.16, and add 1.18-1.66
 * with OPENBLAS_THREAD_TIMEOUT=4. */
#define ROUND_SETTLE_NS 250000000L

/* One group of a round (what: ACCEL_CEILING_COPY or _GEMM): its ceiling and
 * the rows measured against it. A GEMM group runs its rows first in odd
 * rounds: GEMMs heat the die, so neither side is always the second. */
static accel_status round_group(const section *s, accel_ceilings_options o, round_row *rr,
                                size_t count, uint32_t what, unsigned round)
{
    bool gemm = what == ACCEL_CEILING_GEMM, rows_first = gemm && round % 2;
    bench_device now;
    accel_status st =
        rows_first ? round_rows(s, rr, count, gemm) : round_ceilings(s, o, what, &now);
    if (st == ACCEL_SUCCESS)
        st = rows_first ? round_ceilings(s, o, what, &now) : round_rows(s, rr, count, gemm);
    if (st == ACCEL_SUCCESS)
        round_fractions(&now, rr, count, gemm, round);
    return st;
}

/* One round, in the plan's groups, each timing a ceiling and, beside it,
 * what is measured against it: the bare call and the dispatch; the copy
 * ceilings and the elementwise rows; the GEMM ceilings and the GEMM rows;
 * then a pause, so that no group starts behind another's GEMM. */
static accel_status round_once(const section *s, accel_ceilings_options o, round_row *rr,
                               size_t count, unsigned round, double *over)
{
    const uint32_t groups = s->p->round_groups;
    accel_status st = ACCEL_SUCCESS;
    if (groups & ACCEL_CEILING_LAUNCH) {
        bench_device now;
        double us = 0;
        st = round_ceilings(s, o, ACCEL_CEILING_LAUNCH, &now);
        if (st == ACCEL_SUCCESS)
            st = dispatch_time(s, &us);
        *over = us - now.ceilings.launch_us;
    }
    if (st == ACCEL_SUCCESS && (groups & ACCEL_CEILING_COPY))
        st = round_group(s, o, rr, count, ACCEL_CEILING_COPY, round);
    if (st == ACCEL_SUCCESS && (groups & ACCEL_CEILING_GEMM))
        st = round_group(s, o, rr, count, ACCEL_CEILING_GEMM, round);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_finish(s->q);
    struct timespec settle = {0, ROUND_SETTLE_NS};
    nanosleep(&settle, NULL);
    return st;
}

static accel_status bench_rounds(const section *s, const accel_ceilings_options *o)
{
    unsigned n = s->p->target_rounds > MAX_ROUNDS ? MAX_ROUNDS : s->p->target_rounds;
    round_row rr[MAX_ROUND_ROWS];
    size_t count = 0;
    double over[MAX_ROUNDS];
    accel_status st = rounds_setup(s, rr, &count);
    for (unsigned k = 0; k < n && st == ACCEL_SUCCESS; k++) {
        char lbl[48];
        snprintf(lbl, sizeof lbl, "target round %u of %u", k + 1, n);
        bench_progress(s->b, lbl);
        st = round_once(s, *o, rr, count, k, &over[k]);
    }
    accel_status fst = accel_queue_finish(s->q);
    if (st == ACCEL_SUCCESS && fst == ACCEL_SUCCESS && n > 0) {
        for (size_t i = 0; i < count; i++) {
            bench_row *r = rr[i].row;
            r->rounds = n;
            bench_spread(rr[i].frac, n, &r->round_median, &r->round_min, &r->round_max);
        }
        if (s->p->round_groups & ACCEL_CEILING_LAUNCH) {
            s->d->dispatch_rounds = n;
            bench_spread(over, n, &s->d->over_median, &s->d->over_min, &s->d->over_max);
        }
    }
    rounds_release(rr, count);
    return st != ACCEL_SUCCESS ? st : fst;
}

/* ----------------------------------------------------------- device */

static accel_status measure_ceilings(bench *b, bench_device *d, accel_device *dev,
                                     const bench_plan *p, accel_ceilings_options *o)
{
    bench_progress(b, "ceilings");
    accel_ceilings_options_init(o);
    o->what = ACCEL_CEILING_ALL & ~ACCEL_CEILING_GRAPH; /* the graph's: beside the 100 adds */
    o->repeats = b->quick ? 3 : 5;
    o->copy_bytes = p->ew_sizes[p->ew_count - 1] * 4;
    o->gemm_n = p->gemm_sizes[p->gemm_count - 1];
    o->transfer_bytes = p->transfer_bytes;
    d->ceilings.struct_size = sizeof d->ceilings;
    accel_status st = accel_device_measure_ceilings(dev, o, &d->ceilings);
    if (st == ACCEL_ERROR_UNSUPPORTED) {
        fprintf(stderr, "accel bench: %s: %s; fractions are left out\n", d->name,
                accel_last_error());
        memset(&d->ceilings, 0, sizeof d->ceilings);
        return ACCEL_SUCCESS;
    }
    return st;
}

static accel_status measure_again(bench *b, bench_device *d, accel_device *dev,
                                  accel_ceilings_options *o)
{
    bench_progress(b, "ceilings again");
    accel_ceilings again;
    memset(&again, 0, sizeof again);
    again.struct_size = sizeof again;
    o->what = ACCEL_CEILING_COPY | ACCEL_CEILING_GEMM | ACCEL_CEILING_LAUNCH;
    accel_status st = accel_device_measure_ceilings(dev, o, &again);
    if (st == ACCEL_SUCCESS)
        merge_ceilings(d, &again);
    return st;
}

static accel_status run_sections(section *s)
{
    accel_status st = accel_queue_create(s->dev, &s->q);
    if (st == ACCEL_SUCCESS)
        st = accel_event_create(s->dev, &s->e0);
    if (st == ACCEL_SUCCESS)
        st = accel_event_create(s->dev, &s->e1);
    if (st == ACCEL_SUCCESS)
        st = bench_elementwise(s);
    if (st == ACCEL_SUCCESS)
        st = bench_gemm(s);
    if (st == ACCEL_SUCCESS)
        st = bench_dispatch(s);
    if (st == ACCEL_SUCCESS)
        st = bench_graphs(s->b, s->d, s->dev, s->q, s->e0, s->e1, s->p);
    if (st == ACCEL_SUCCESS && s->p->transfers)
        st = bench_transfers(s);
    accel_event_release(s->e0);
    accel_event_release(s->e1);
    accel_queue_release(s->q);
    return st;
}

/* The rounds on their own queue and events (run_sections has released its own). */
static accel_status run_rounds(section *s, const accel_ceilings_options *o)
{
    accel_status st = accel_queue_create(s->dev, &s->q);
    if (st == ACCEL_SUCCESS)
        st = accel_event_create(s->dev, &s->e0);
    if (st == ACCEL_SUCCESS)
        st = accel_event_create(s->dev, &s->e1);
    if (st == ACCEL_SUCCESS)
        st = bench_rounds(s, o);
    accel_event_release(s->e0);
    accel_event_release(s->e1);
    accel_queue_release(s->q);
    s->q = NULL;
    s->e0 = s->e1 = NULL;
    return st;
}

accel_status bench_one(bench *b, bench_device *d, accel_device *dev, const bench_plan *p)
{
    b->label = d->name;
    accel_ceilings_options o;
    accel_status st = d->gpu ? bench_graph_adds_first(b, d, dev, p) : ACCEL_SUCCESS;
    if (st == ACCEL_SUCCESS)
        st = measure_ceilings(b, d, dev, p, &o);
    section s = {b, d, dev, NULL, NULL, NULL, p};
    if (st == ACCEL_SUCCESS)
        st = run_sections(&s);
    if (st == ACCEL_SUCCESS && d->ceilings.struct_size)
        st = measure_again(b, d, dev, &o);
    if (st == ACCEL_SUCCESS && d->ceilings.struct_size && p->target_rounds)
        st = run_rounds(&s, &o);
    if (st == ACCEL_SUCCESS)
        bench_check_targets(d);
    return st;
}
