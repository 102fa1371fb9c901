/* bench.c — `accel bench`: for each device, its own ceilings measured in the
 * same run with the vendor's calls (accel_device_measure_ceilings, before
 * and again after the ops; the better figure counts), then
 * accel's ops over a size sweep, each timed with events (median of repeats
 * after a warm-up), as GB/s or TFLOP/s and as a fraction of the ceiling;
 * dispatch overhead against a bare launch or call; host<->device transfers
 * against cudaMemcpy. Prints a table (and a progress bar on a terminal),
 * checks the targets of issue 6 (PASS/MISS), and writes --json, --csv and
 * --svg (bench_svg.c). Nothing here links a vendor library: the ceilings are
 * measured inside the backend plugins. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "cli.h"

#define MAX_DEVICES 16
#define MAX_SIZES 4

static const char cmd[] = "bench";

void cli_bench_usage(FILE *out)
{
    fprintf(out,
            "usage: accel bench [--device NAME]... [--quick] [--repeats N] [--json FILE]\n"
            "                   [--csv FILE] [--svg FILE] [--no-progress] [--config FILE]\n"
            "\n"
            "For each device (default: every device): its ceilings measured directly in the\n"
            "same run (copy bandwidth with memcpy or cudaMemcpy, a plain loop or kernel,\n"
            "GEMM with OpenBLAS or cuBLAS, a bare call or launch, cudaMemcpy transfers), then\n"
            "accel's ops over a size sweep, timed with events (median of repeats after a\n"
            "warm-up), as GB/s or TFLOP/s and as a fraction of the ceiling, and the targets\n"
            "of issue 6 with PASS or MISS. Bandwidths count bytes read plus written.\n"
            "\n"
            "  --device NAME   a device to measure (\"cpu\", \"cuda:0\"); may be repeated\n"
            "  --quick         small sizes and few repeats (a smoke test, not a measurement)\n"
            "  --repeats N     timed runs per point (default 10 on GPUs, 5 on the CPU)\n"
            "  --json FILE     every number, machine-readable\n"
            "  --csv FILE      one line per op and size, then one per target\n"
            "  --svg FILE      a chart of the fraction of ceiling per op\n"
            "  --no-progress   no progress bar even on a terminal\n"
            "  --config FILE   the plugins.ini to use\n"
            "\n"
            "Results are recorded in bench/RESULTS.md.\n");
}

/* ---------------------------------------------------------------- state */

typedef struct bench {
    accel_runtime *rt;
    bool quick, progress;
    unsigned repeats; /* 0: per device default */
    size_t step, steps;
    const char *label;
    bench_device *devs;
    size_t dev_count;
} bench;

typedef struct plan {
    uint64_t ew_sizes[MAX_SIZES];
    size_t ew_count;
    uint64_t gemm_sizes[MAX_SIZES];
    size_t gemm_count;
    unsigned repeats, gemm_repeats;
    uint64_t inner_elems; /* ops per timed batch: clamp(inner_elems / n, 1, 256) */
    uint64_t transfer_bytes;
    bool transfers;
} plan;

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void progress(bench *b, const char *what)
{
    b->step++;
    if (!b->progress)
        return;
    const int width = 30;
    int filled = b->steps ? (int)((double)b->step * width / (double)b->steps) : width;
    if (filled > width)
        filled = width;
    fprintf(stderr, "\r\033[K[");
    for (int i = 0; i < width; i++)
        fputc(i < filled ? '#' : '.', stderr);
    fprintf(stderr, "] %zu/%zu %s %s", b->step, b->steps, b->label, what);
    fflush(stderr);
}

static void progress_clear(bench *b)
{
    if (b->progress) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
    }
}

static const char *pow2_label(uint64_t n, char *buf, size_t cap)
{
    if (n && (n & (n - 1)) == 0) {
        int e = 0;
        while ((1ull << e) < n)
            e++;
        snprintf(buf, cap, "2^%d", e);
    } else {
        snprintf(buf, cap, "%llu", (unsigned long long)n);
    }
    return buf;
}

static bench_row *add_row(bench_device *d)
{
    if (d->row_count == d->row_cap) {
        size_t cap = d->row_cap ? 2 * d->row_cap : 64;
        bench_row *r = realloc(d->rows, cap * sizeof *r);
        if (!r)
            return NULL;
        d->rows = r;
        d->row_cap = cap;
    }
    bench_row *r = &d->rows[d->row_count++];
    memset(r, 0, sizeof *r);
    return r;
}

/* --------------------------------------------------------------- timing */

typedef enum op_kind {
    K_ADD,
    K_MUL,
    K_RELU,
    K_EXP,
    K_AXPBY,
    K_COPY,
    K_SUM,
    K_MAX,
    K_DOT,
    K_RANDOM,
    K_COUNT
} op_kind;

static const char *const op_names[K_COUNT] = {"add", "mul",        "relu", "exp", "axpby",
                                              "copy", "sum",       "max",  "dot", "random_uniform"};

/* Bytes read plus written per element. */
static const double op_bytes_per_elem[K_COUNT] = {12, 12, 8, 8, 12, 8, 4, 4, 8, 4};
static const double op_flops_per_elem[K_COUNT] = {1, 1, 1, 1, 3, 0, 1, 1, 2, 0};

typedef struct ew_bufs {
    accel_buffer *a, *b, *c, *r;
    size_t n;
} ew_bufs;

static accel_status enqueue_ew(accel_queue *q, op_kind k, const ew_bufs *e)
{
    accel_slice a = accel_slice_of(e->a, 0, e->n), b = accel_slice_of(e->b, 0, e->n),
                c = accel_slice_of(e->c, 0, e->n), r = accel_slice_of(e->r, 0, 1);
    switch (k) {
    case K_ADD:
        return accel_add(q, ACCEL_F32, a, b, c);
    case K_MUL:
        return accel_mul(q, ACCEL_F32, a, b, c);
    case K_RELU:
        return accel_relu(q, ACCEL_F32, a, c);
    case K_EXP:
        return accel_exp(q, ACCEL_F32, a, c);
    case K_AXPBY:
        return accel_axpby(q, ACCEL_F32, 0.5, a, 0.5, c);
    case K_COPY:
        return accel_copy(q, ACCEL_F32, a, c);
    case K_SUM:
        return accel_sum(q, ACCEL_F32, a, r);
    case K_MAX:
        return accel_reduce_max(q, ACCEL_F32, a, r);
    case K_DOT:
        return accel_dot(q, ACCEL_F32, a, b, r);
    default:
        return accel_random_uniform(q, ACCEL_F32, 7, 0, c);
    }
}

typedef accel_status (*enqueue_fn)(accel_queue *q, void *user);

/* Median and minimum milliseconds of one enqueue_fn, each timed run being
 * `inner` calls between two events, after one untimed warm-up batch. */
static accel_status time_events(accel_queue *q, accel_event *e0, accel_event *e1, unsigned reps,
                                unsigned inner, enqueue_fn fn, void *user, double *out_median,
                                double *out_min)
{
    double t[64];
    if (reps > 64)
        reps = 64;
    for (unsigned r = 0; r <= reps; r++) {
        accel_status st = accel_event_record(e0, q);
        for (unsigned i = 0; i < inner && st == ACCEL_SUCCESS; i++)
            st = fn(q, user);
        if (st == ACCEL_SUCCESS)
            st = accel_event_record(e1, q);
        if (st == ACCEL_SUCCESS)
            st = accel_event_synchronize(e1);
        double ms = 0;
        if (st == ACCEL_SUCCESS)
            st = accel_event_elapsed_ms(e0, e1, &ms);
        if (st != ACCEL_SUCCESS)
            return st;
        if (r > 0)
            t[r - 1] = ms / inner;
    }
    double mn = t[0];
    for (unsigned r = 1; r < reps; r++)
        mn = t[r] < mn ? t[r] : mn;
    *out_median = median(t, reps);
    *out_min = mn;
    return ACCEL_SUCCESS;
}

typedef struct ew_call {
    op_kind k;
    const ew_bufs *e;
} ew_call;

static accel_status ew_fn(accel_queue *q, void *user)
{
    const ew_call *c = user;
    return enqueue_ew(q, c->k, c->e);
}

typedef struct gemm_call {
    accel_gemm_desc g;
} gemm_call;

static accel_status gemm_fn(accel_queue *q, void *user)
{
    return accel_gemm(q, &((gemm_call *)user)->g);
}

typedef struct xfer_call {
    accel_buffer *buf;
    void *host;
    size_t bytes;
    bool read;
} xfer_call;

static accel_status xfer_fn(accel_queue *q, void *user)
{
    xfer_call *x = user;
    return x->read ? accel_queue_read(q, x->buf, 0, x->host, x->bytes)
                   : accel_queue_write(q, x->buf, 0, x->host, x->bytes);
}

/* ------------------------------------------------------------- ceilings */

/* Which ceiling a row is compared with. */
enum {
    C_NONE,
    C_EW,   /* elementwise: copy (GPU), the better of memcpy and a plain loop (CPU) */
    C_READ, /* plain sum */
    C_GEMM, /* + accel_dtype */
    C_GEMM_TF32 = C_GEMM + 8,
    C_H2D_PINNED,
    C_D2H_PINNED,
    C_H2D_PAGEABLE,
    C_D2H_PAGEABLE
};

static double ceiling_value(const bench_device *d, int id)
{
    const accel_ceilings *c = &d->ceilings;
    switch (id) {
    case C_EW:
        return d->gpu ? c->copy_gbs : fmax(c->copy_gbs, c->loop_gbs);
    case C_READ:
        return c->read_gbs;
    case C_GEMM_TF32:
        return c->gemm_tf32_tflops;
    case C_H2D_PINNED:
        return c->h2d_pinned_gbs;
    case C_D2H_PINNED:
        return c->d2h_pinned_gbs;
    case C_H2D_PAGEABLE:
        return c->h2d_pageable_gbs;
    case C_D2H_PAGEABLE:
        return c->d2h_pageable_gbs;
    default:
        return id > C_GEMM && id < C_GEMM + 8 ? c->gemm_tflops[id - C_GEMM] : 0.0;
    }
}

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
        r->ceiling = ceiling_value(d, r->ceiling_id);
        r->fraction = r->ceiling > 0 ? r->rate / r->ceiling : 0;
    }
}

/* ------------------------------------------------------------- sections */

static void fill_row(bench_row *r, const char *op, const char *dtype, uint64_t n, double med,
                     double mn, double bytes, double flops, bool by_flops, double ceiling,
                     const char *ceiling_name)
{
    snprintf(r->op, sizeof r->op, "%s", op);
    snprintf(r->dtype, sizeof r->dtype, "%s", dtype);
    r->n = n;
    r->median_ms = med;
    r->min_ms = mn;
    r->bytes = bytes;
    r->flops = flops;
    if (by_flops) {
        r->unit = "TFLOP/s";
        r->rate = med > 0 ? flops / (med * 1e-3) * 1e-12 : 0;
    } else {
        r->unit = "GB/s";
        r->rate = med > 0 ? bytes / (med * 1e-3) * 1e-9 : 0;
    }
    r->ceiling = ceiling;
    r->ceiling_name = ceiling_name;
    r->fraction = ceiling > 0 ? r->rate / ceiling : 0;
}

static unsigned inner_for(const plan *p, uint64_t n)
{
    uint64_t k = p->inner_elems / (n ? n : 1);
    return (unsigned)(k < 1 ? 1 : k > 256 ? 256 : k);
}

static accel_status bench_elementwise(bench *b, bench_device *d, accel_device *dev,
                                      accel_queue *q, accel_event *e0, accel_event *e1,
                                      const plan *p)
{
    const accel_ceilings *c = &d->ceilings;
    /* On the CPU the better of memcpy and a plain loop is the yard stick. */
    double ew_ceiling = d->gpu ? c->copy_gbs : fmax(c->copy_gbs, c->loop_gbs);
    const char *ew_name = d->gpu ? "copy" : "max(memcpy, loop)";
    for (size_t s = 0; s < p->ew_count; s++) {
        uint64_t n = p->ew_sizes[s];
        ew_bufs e = {NULL, NULL, NULL, NULL, (size_t)n};
        accel_status st = accel_buffer_create(dev, n * 4, &e.a);
        if (st == ACCEL_SUCCESS)
            st = accel_buffer_create(dev, n * 4, &e.b);
        if (st == ACCEL_SUCCESS)
            st = accel_buffer_create(dev, n * 4, &e.c);
        if (st == ACCEL_SUCCESS)
            st = accel_buffer_create(dev, 64, &e.r);
        if (st == ACCEL_SUCCESS)
            st = accel_random_uniform(q, ACCEL_F32, 1, 0, accel_slice_of(e.a, 0, n));
        if (st == ACCEL_SUCCESS)
            st = accel_random_uniform(q, ACCEL_F32, 2, 0, accel_slice_of(e.b, 0, n));
        if (st == ACCEL_SUCCESS)
            st = accel_random_uniform(q, ACCEL_F32, 3, 0, accel_slice_of(e.c, 0, n));
        if (st == ACCEL_SUCCESS)
            st = accel_queue_finish(q);
        for (int k = 0; k < K_COUNT && st == ACCEL_SUCCESS; k++) {
            char lbl[64], sz[24];
            snprintf(lbl, sizeof lbl, "%s f32 %s", op_names[k], pow2_label(n, sz, sizeof sz));
            progress(b, lbl);
            ew_call call = {(op_kind)k, &e};
            double med = 0, mn = 0;
            st = time_events(q, e0, e1, p->repeats, inner_for(p, n), ew_fn, &call, &med, &mn);
            if (st != ACCEL_SUCCESS)
                break;
            bench_row *r = add_row(d);
            if (!r)
                return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
            bool red = k == K_SUM || k == K_MAX || k == K_DOT;
            double ceil = red ? c->read_gbs : ew_ceiling;
            fill_row(r, op_names[k], "f32", n, med, mn, op_bytes_per_elem[k] * (double)n,
                     op_flops_per_elem[k] * (double)n, false, ceil, red ? "read" : ew_name);
            r->ceiling_id = red ? C_READ : C_EW;
            r->largest = s + 1 == p->ew_count;
            if (r->largest) {
                if (k == K_ADD || k == K_MUL)
                    r->target = d->gpu ? 0.95 : 0.9;
                else if (d->gpu && (k == K_SUM || k == K_MAX))
                    r->target = 0.95;
                else if (d->gpu && k == K_DOT)
                    r->target = 0.9;
            }
        }
        accel_status fst = accel_queue_finish(q);
        accel_buffer_release(e.a);
        accel_buffer_release(e.b);
        accel_buffer_release(e.c);
        accel_buffer_release(e.r);
        if (st != ACCEL_SUCCESS)
            return st;
        if (fst != ACCEL_SUCCESS)
            return fst;
    }
    return ACCEL_SUCCESS;
}

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
        h[i] = bf16 ? (uint16_t)(0x3f00u | ((x >> 16) & 0x7fu)) : (uint16_t)(0x3800u | ((x >> 16) & 0x3ffu));
    }
    accel_status st = ACCEL_SUCCESS;
    for (size_t off = 0; off < count && st == ACCEL_SUCCESS; off += chunk) {
        size_t k = count - off < chunk ? count - off : chunk;
        st = accel_queue_write_blocking(q, buf, off * 2, h, k * 2);
    }
    free(h);
    return st;
}

static accel_status bench_gemm(bench *b, bench_device *d, accel_device *dev, accel_queue *q,
                               accel_event *e0, accel_event *e1, const plan *p)
{
    const accel_ceilings *c = &d->ceilings;
    struct gcase {
        const char *name;
        accel_dtype dt;
        bool tf32;
        double ceiling;
    } cases[5];
    size_t nc = 0;
    cases[nc++] = (struct gcase){"f32", ACCEL_F32, false, c->gemm_tflops[ACCEL_F32]};
    if (d->gpu) {
        cases[nc++] = (struct gcase){"tf32", ACCEL_F32, true, c->gemm_tf32_tflops};
        cases[nc++] = (struct gcase){"f16", ACCEL_F16, false, c->gemm_tflops[ACCEL_F16]};
        cases[nc++] = (struct gcase){"bf16", ACCEL_BF16, false, c->gemm_tflops[ACCEL_BF16]};
    }
    cases[nc++] = (struct gcase){"f64", ACCEL_F64, false, c->gemm_tflops[ACCEL_F64]};

    for (size_t s = 0; s < p->gemm_count; s++) {
        const uint64_t n = p->gemm_sizes[s];
        const bool largest = s + 1 == p->gemm_count;
        for (size_t i = 0; i < nc; i++) {
            const size_t es = accel_dtype_size(cases[i].dt);
            accel_buffer *A = NULL, *B = NULL, *C = NULL;
            accel_status st = accel_buffer_create(dev, n * n * es, &A);
            if (st == ACCEL_SUCCESS)
                st = accel_buffer_create(dev, n * n * es, &B);
            if (st == ACCEL_SUCCESS)
                st = accel_buffer_create(dev, n * n * es, &C);
            if (st == ACCEL_SUCCESS && (cases[i].dt == ACCEL_F32 || cases[i].dt == ACCEL_F64)) {
                st = accel_random_uniform(q, cases[i].dt, 4, 0, accel_slice_of(A, 0, n * n));
                if (st == ACCEL_SUCCESS)
                    st = accel_random_uniform(q, cases[i].dt, 5, 0, accel_slice_of(B, 0, n * n));
            } else if (st == ACCEL_SUCCESS) {
                st = fill_half(q, A, n * n, cases[i].dt == ACCEL_BF16);
                if (st == ACCEL_SUCCESS)
                    st = fill_half(q, B, n * n, cases[i].dt == ACCEL_BF16);
            }
            if (st == ACCEL_SUCCESS)
                st = accel_queue_finish(q);
            char lbl[64], sz[24];
            snprintf(lbl, sizeof lbl, "gemm %s n=%s", cases[i].name,
                     pow2_label(n, sz, sizeof sz));
            progress(b, lbl);
            gemm_call gc;
            accel_gemm_desc_init(&gc.g);
            gc.g.dtype = cases[i].dt;
            gc.g.m = gc.g.n = gc.g.k = n;
            gc.g.a = A;
            gc.g.b = B;
            gc.g.c = C;
            gc.g.lda = gc.g.ldb = gc.g.ldc = n;
            gc.g.allow_tf32 = cases[i].tf32;
            double med = 0, mn = 0;
            if (st == ACCEL_SUCCESS)
                st = time_events(q, e0, e1, largest ? p->gemm_repeats : p->repeats, 1, gemm_fn,
                                 &gc, &med, &mn);
            accel_status fst = accel_queue_finish(q);
            accel_buffer_release(A);
            accel_buffer_release(B);
            accel_buffer_release(C);
            if (st == ACCEL_ERROR_UNSUPPORTED) {
                fprintf(stderr, "accel bench: %s: gemm %s skipped: %s\n", d->name, cases[i].name,
                        accel_last_error());
                continue;
            }
            if (st != ACCEL_SUCCESS)
                return st;
            if (fst != ACCEL_SUCCESS)
                return fst;
            bench_row *r = add_row(d);
            if (!r)
                return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
            double nn = (double)n;
            /* Ceilings were measured at one size: smaller sizes are shown as a
             * fraction of that peak. */
            fill_row(r, "gemm", cases[i].name, n, med, mn, 3.0 * nn * nn * (double)es,
                     2.0 * nn * nn * nn, true, cases[i].ceiling,
                     d->gpu ? "cuBLAS direct" : "OpenBLAS direct");
            r->ceiling_id = cases[i].tf32 ? C_GEMM_TF32 : C_GEMM + (int)cases[i].dt;
            r->largest = largest;
            if (largest && cases[i].ceiling > 0)
                r->target = d->gpu ? 0.98 : 0.97;
        }
    }
    return ACCEL_SUCCESS;
}

/* Host time per enqueue of a one-element add, batches of 200 enqueues (the
 * queue is drained between batches, outside the timing), as the ceilings'
 * bare launch is measured. */
static accel_status bench_dispatch(bench *b, bench_device *d, accel_device *dev, accel_queue *q)
{
    progress(b, "dispatch");
    enum { BATCH = 200, BATCHES = 15 };
    accel_buffer *x = NULL;
    accel_status st = accel_buffer_create(dev, 64, &x);
    if (st == ACCEL_SUCCESS)
        st = accel_fill(q, ACCEL_F32, 1.0, accel_slice_of(x, 0, 16));
    double t[BATCHES + 1];
    for (int r = 0; r <= BATCHES && st == ACCEL_SUCCESS; r++) {
        accel_slice s0 = accel_slice_of(x, 0, 1), s1 = accel_slice_of(x, 1, 1),
                    s2 = accel_slice_of(x, 2, 1);
        double t0 = now_us();
        for (int i = 0; i < BATCH && st == ACCEL_SUCCESS; i++)
            st = accel_add(q, ACCEL_F32, s0, s1, s2);
        double t1 = now_us();
        if (st == ACCEL_SUCCESS)
            st = accel_queue_finish(q);
        t[r] = (t1 - t0) / BATCH;
    }
    accel_buffer_release(x);
    if (st != ACCEL_SUCCESS)
        return st;
    d->dispatch_us = median(t + 1, BATCHES);
    d->bare_us = d->ceilings.launch_us;
    return ACCEL_SUCCESS;
}

static accel_status bench_transfers(bench *b, bench_device *d, accel_device *dev, accel_queue *q,
                                    accel_event *e0, accel_event *e1, const plan *p)
{
    const size_t bytes = (size_t)p->transfer_bytes;
    const accel_ceilings *c = &d->ceilings;
    accel_buffer *buf = NULL;
    void *pinned = NULL;
    char *pageable = malloc(bytes);
    accel_status st = pageable ? ACCEL_SUCCESS : ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    if (st == ACCEL_SUCCESS)
        st = accel_buffer_create(dev, bytes, &buf);
    if (st == ACCEL_SUCCESS)
        st = accel_host_alloc(dev, bytes, &pinned);
    if (st == ACCEL_SUCCESS) {
        memset(pinned, 1, bytes);
        memset(pageable, 1, bytes);
    }
    for (int k = 0; k < 4 && st == ACCEL_SUCCESS; k++) {
        bool read = k & 1, pin = k < 2;
        const char *name = k == 0   ? "write_pinned"
                           : k == 1 ? "read_pinned"
                           : k == 2 ? "write_pageable"
                                    : "read_pageable";
        progress(b, name);
        double med = 0, mn = 0;
        if (pin) {
            xfer_call x = {buf, pinned, bytes, read};
            st = time_events(q, e0, e1, p->repeats, 1, xfer_fn, &x, &med, &mn);
        } else {
            /* Pageable copies block the host, as cudaMemcpy does: host clock
             * around the blocking call, as the ceiling is measured. */
            double t[64];
            unsigned reps = p->repeats > 64 ? 64 : p->repeats;
            for (unsigned r = 0; r <= reps && st == ACCEL_SUCCESS; r++) {
                double t0 = now_us();
                st = read ? accel_queue_read_blocking(q, buf, 0, pageable, bytes)
                          : accel_queue_write_blocking(q, buf, 0, pageable, bytes);
                if (r > 0)
                    t[r - 1] = (now_us() - t0) * 1e-3;
            }
            if (st == ACCEL_SUCCESS) {
                mn = t[0];
                for (unsigned r = 1; r < reps; r++)
                    mn = t[r] < mn ? t[r] : mn;
                med = median(t, reps);
            }
        }
        if (st != ACCEL_SUCCESS)
            break;
        double ceil = pin ? (read ? c->d2h_pinned_gbs : c->h2d_pinned_gbs)
                          : (read ? c->d2h_pageable_gbs : c->h2d_pageable_gbs);
        bench_row *r = add_row(d);
        if (!r) {
            st = ACCEL_ERROR_OUT_OF_HOST_MEMORY;
            break;
        }
        fill_row(r, name, "bytes", bytes, med, mn, (double)bytes, 0, false, ceil,
                 pin ? "cudaMemcpyAsync pinned" : "cudaMemcpy pageable");
        r->ceiling_id = pin ? (read ? C_D2H_PINNED : C_H2D_PINNED)
                            : (read ? C_D2H_PAGEABLE : C_H2D_PAGEABLE);
        r->largest = true;
        r->target = pin ? 0.95 : 2.0;
    }
    accel_status fst = accel_queue_finish(q);
    accel_host_free(dev, pinned);
    accel_buffer_release(buf);
    free(pageable);
    return st != ACCEL_SUCCESS ? st : fst;
}

/* --------------------------------------------------------------- targets */

static void add_target(bench_device *d, const char *name, double measured, double target,
                       bool overhead, const char *detail)
{
    if (d->target_count >= BENCH_MAX_TARGETS)
        return;
    bench_target *t = &d->targets[d->target_count++];
    snprintf(t->name, sizeof t->name, "%s", name);
    t->measured = measured;
    t->target = target;
    t->is_overhead = overhead;
    t->pass = overhead ? measured <= target : measured >= target;
    snprintf(t->detail, sizeof t->detail, "%s", detail);
}

static void check_targets(bench_device *d)
{
    for (size_t i = 0; i < d->row_count; i++) {
        const bench_row *r = &d->rows[i];
        if (r->target <= 0 || r->ceiling <= 0)
            continue;
        char name[80], detail[160], sz[24];
        snprintf(name, sizeof name, "%s %s %s / %s", r->op, r->dtype,
                 pow2_label(r->n, sz, sizeof sz), r->ceiling_name);
        snprintf(detail, sizeof detail, "%.4g %s of %.4g %s", r->rate, r->unit, r->ceiling,
                 r->unit);
        add_target(d, name, r->fraction, r->target, false, detail);
    }
    if (d->dispatch_us > 0) {
        char detail[160];
        snprintf(detail, sizeof detail, "accel enqueue %.3f us, bare %s %.3f us", d->dispatch_us,
                 d->gpu ? "launch" : "call", d->bare_us);
        add_target(d, d->gpu ? "dispatch overhead vs bare launch (us)"
                             : "dispatch overhead vs bare call (us)",
                   d->dispatch_us - d->bare_us, 0.5, true, detail);
    }
}

/* ---------------------------------------------------------------- device */

static void make_plan(const bench *b, const bench_device *d, plan *p)
{
    memset(p, 0, sizeof *p);
    if (d->gpu) {
        if (b->quick) {
            p->ew_sizes[p->ew_count++] = 1u << 16;
            p->ew_sizes[p->ew_count++] = 1u << 20;
            p->gemm_sizes[p->gemm_count++] = 512;
            p->transfer_bytes = 16u << 20;
        } else {
            p->ew_sizes[p->ew_count++] = 1u << 20;
            p->ew_sizes[p->ew_count++] = 1u << 24;
            p->ew_sizes[p->ew_count++] = 1u << 28;
            p->gemm_sizes[p->gemm_count++] = 4096;
            p->gemm_sizes[p->gemm_count++] = 10000;
            p->transfer_bytes = 256u << 20;
        }
        p->repeats = b->quick ? 3 : 10;
        p->gemm_repeats = 3; /* the median of 3 drops one outlier */
        p->inner_elems = (uint64_t)1 << 26;
        p->transfers = true;
    } else {
        if (b->quick) {
            p->ew_sizes[p->ew_count++] = 1u << 12;
            p->ew_sizes[p->ew_count++] = 1u << 16;
            p->gemm_sizes[p->gemm_count++] = 128;
        } else {
            p->ew_sizes[p->ew_count++] = 1u << 16;
            p->ew_sizes[p->ew_count++] = 1u << 20;
            p->ew_sizes[p->ew_count++] = 1u << 24;
            p->gemm_sizes[p->gemm_count++] = 256;
            p->gemm_sizes[p->gemm_count++] = 1024;
        }
        p->repeats = b->quick ? 3 : 5;
        p->gemm_repeats = b->quick ? 3 : 5;
        p->inner_elems = (uint64_t)1 << 22;
    }
    if (b->repeats) {
        p->repeats = b->repeats;
        p->gemm_repeats = b->repeats;
    }
}

static size_t plan_steps(const plan *p, bool gpu)
{
    size_t gemm_cases = gpu ? 5 : 2;
    return 2 + p->ew_count * K_COUNT + p->gemm_count * gemm_cases + 1 + (p->transfers ? 4 : 0);
}

static accel_status bench_one(bench *b, bench_device *d, accel_device *dev, const plan *p)
{
    b->label = d->name;
    progress(b, "ceilings");
    accel_ceilings_options o;
    accel_ceilings_options_init(&o);
    o.repeats = b->quick ? 3 : 5;
    o.copy_bytes = p->ew_sizes[p->ew_count - 1] * 4;
    o.gemm_n = p->gemm_sizes[p->gemm_count - 1];
    o.transfer_bytes = p->transfer_bytes;
    d->ceilings.struct_size = sizeof d->ceilings;
    accel_status st = accel_device_measure_ceilings(dev, &o, &d->ceilings);
    if (st == ACCEL_ERROR_UNSUPPORTED) {
        fprintf(stderr, "accel bench: %s: %s; fractions are left out\n", d->name,
                accel_last_error());
        memset(&d->ceilings, 0, sizeof d->ceilings);
    } else if (st != ACCEL_SUCCESS) {
        return st;
    }

    accel_queue *q = NULL;
    accel_event *e0 = NULL, *e1 = NULL;
    st = accel_queue_create(dev, &q);
    if (st == ACCEL_SUCCESS)
        st = accel_event_create(dev, &e0);
    if (st == ACCEL_SUCCESS)
        st = accel_event_create(dev, &e1);
    if (st == ACCEL_SUCCESS)
        st = bench_elementwise(b, d, dev, q, e0, e1, p);
    if (st == ACCEL_SUCCESS)
        st = bench_gemm(b, d, dev, q, e0, e1, p);
    if (st == ACCEL_SUCCESS)
        st = bench_dispatch(b, d, dev, q);
    if (st == ACCEL_SUCCESS && p->transfers)
        st = bench_transfers(b, d, dev, q, e0, e1, p);
    accel_event_release(e0);
    accel_event_release(e1);
    accel_queue_release(q);
    if (st == ACCEL_SUCCESS && d->ceilings.struct_size) {
        progress(b, "ceilings again");
        accel_ceilings again;
        memset(&again, 0, sizeof again);
        again.struct_size = sizeof again;
        o.what = ACCEL_CEILING_COPY | ACCEL_CEILING_GEMM | ACCEL_CEILING_LAUNCH;
        st = accel_device_measure_ceilings(dev, &o, &again);
        if (st == ACCEL_SUCCESS)
            merge_ceilings(d, &again);
    }
    if (st == ACCEL_SUCCESS)
        check_targets(d);
    return st;
}

/* ---------------------------------------------------------------- output */

static void print_device(FILE *f, const bench_device *d)
{
    const accel_ceilings *c = &d->ceilings;
    fprintf(f, "\n%s  %s\n", d->name, d->model);
    fprintf(f, "  ceilings, measured directly in this run (best of before and after the ops):\n");
    if (c->copy_gbs > 0)
        fprintf(f, "    copy          %9.1f GB/s      %s, %.0f MiB\n", c->copy_gbs, c->copy_method,
                (double)c->copy_bytes / (1 << 20));
    if (c->loop_gbs > 0)
        fprintf(f, "    add loop      %9.1f GB/s      plain f32 c = a + b %s\n", c->loop_gbs,
                d->gpu ? "float4 kernel" : "OpenMP loop");
    if (c->read_gbs > 0)
        fprintf(f, "    read          %9.1f GB/s      plain f32 sum %s\n", c->read_gbs,
                d->gpu ? "float4 kernel" : "OpenMP loop");
    static const char *const gn[] = {"", "f32", "f64", "f16", "bf16"};
    for (int dt = 1; dt <= 4; dt++)
        if (c->gemm_tflops[dt] > 0)
            fprintf(f, "    gemm %-5s    %9.3f TFLOP/s   %s, n = %llu\n", gn[dt],
                    c->gemm_tflops[dt], c->gemm_method, (unsigned long long)c->gemm_n);
    if (c->gemm_tf32_tflops > 0)
        fprintf(f, "    gemm tf32     %9.3f TFLOP/s   %s, n = %llu\n", c->gemm_tf32_tflops,
                c->gemm_method, (unsigned long long)c->gemm_n);
    if (c->launch_us > 0)
        fprintf(f, "    bare %-8s %9.3f us\n", d->gpu ? "launch" : "call", c->launch_us);
    if (c->h2d_pinned_gbs > 0)
        fprintf(f,
                "    host->device  %9.1f GB/s pinned, %.1f GB/s pageable (cudaMemcpy)\n"
                "    device->host  %9.1f GB/s pinned, %.1f GB/s pageable\n",
                c->h2d_pinned_gbs, c->h2d_pageable_gbs, c->d2h_pinned_gbs, c->d2h_pageable_gbs);

    fprintf(f, "\n  %-15s %-5s %8s %12s %17s %9s  %s\n", "op", "dtype", "size", "median ms",
            "rate", "fraction", "of ceiling");
    for (size_t i = 0; i < d->row_count; i++) {
        const bench_row *r = &d->rows[i];
        char sz[24], frac[16];
        if (r->ceiling > 0)
            snprintf(frac, sizeof frac, "%.3f", r->fraction);
        else
            snprintf(frac, sizeof frac, "-");
        fprintf(f, "  %-15s %-5s %8s %12.4f %9.3f %-7s %9s  %s\n", r->op, r->dtype,
                pow2_label(r->n, sz, sizeof sz), r->median_ms, r->rate, r->unit, frac,
                r->ceiling > 0 ? r->ceiling_name : "");
    }
    if (d->dispatch_us > 0)
        fprintf(f, "\n  dispatch: %.3f us per accel enqueue (1-element add), bare %s %.3f us\n",
                d->dispatch_us, d->gpu ? "launch" : "call", d->bare_us);
    fprintf(f, "\n  targets (issue 6), this run's ratios:\n");
    for (size_t i = 0; i < d->target_count; i++) {
        const bench_target *t = &d->targets[i];
        fprintf(f, "    %-4s %-48s %8.3f %s %-5.3g  %s\n", t->pass ? "PASS" : "MISS", t->name,
                t->measured, t->is_overhead ? "<=" : ">=", t->target, t->detail);
    }
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

/* JSON has no NaN or Inf. */
static void json_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.6g", v);
    else
        fprintf(f, "null");
}

static int write_json(const char *path, const bench *b, const char *when, const char *host,
                      const char *command)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return errno;
    fprintf(f, "{\n  \"tool\": \"accel bench\",\n  \"accel_version\": ");
    json_str(f, accel_version());
    fprintf(f, ",\n  \"date\": ");
    json_str(f, when);
    fprintf(f, ",\n  \"host\": ");
    json_str(f, host);
    fprintf(f, ",\n  \"command\": ");
    json_str(f, command);
    fprintf(f, ",\n  \"quick\": %s,\n  \"devices\": [", b->quick ? "true" : "false");
    for (size_t di = 0; di < b->dev_count; di++) {
        const bench_device *d = &b->devs[di];
        const accel_ceilings *c = &d->ceilings;
        fprintf(f, "%s\n    {\n      \"device\": ", di ? "," : "");
        json_str(f, d->name);
        fprintf(f, ",\n      \"model\": ");
        json_str(f, d->model);
        fprintf(f, ",\n      \"kind\": \"%s\",\n      \"ceilings\": {", d->gpu ? "gpu" : "cpu");
        fprintf(f, "\"copy_gbs\": ");
        json_num(f, c->copy_gbs);
        fprintf(f, ", \"loop_gbs\": ");
        json_num(f, c->loop_gbs);
        fprintf(f, ", \"read_gbs\": ");
        json_num(f, c->read_gbs);
        fprintf(f, ", \"gemm_tflops\": {\"f32\": ");
        json_num(f, c->gemm_tflops[ACCEL_F32]);
        fprintf(f, ", \"tf32\": ");
        json_num(f, c->gemm_tf32_tflops);
        fprintf(f, ", \"f16\": ");
        json_num(f, c->gemm_tflops[ACCEL_F16]);
        fprintf(f, ", \"bf16\": ");
        json_num(f, c->gemm_tflops[ACCEL_BF16]);
        fprintf(f, ", \"f64\": ");
        json_num(f, c->gemm_tflops[ACCEL_F64]);
        fprintf(f, "}, \"launch_us\": ");
        json_num(f, c->launch_us);
        fprintf(f, ", \"h2d_pinned_gbs\": ");
        json_num(f, c->h2d_pinned_gbs);
        fprintf(f, ", \"d2h_pinned_gbs\": ");
        json_num(f, c->d2h_pinned_gbs);
        fprintf(f, ", \"h2d_pageable_gbs\": ");
        json_num(f, c->h2d_pageable_gbs);
        fprintf(f, ", \"d2h_pageable_gbs\": ");
        json_num(f, c->d2h_pageable_gbs);
        fprintf(f, ", \"copy_bytes\": %llu, \"gemm_n\": %llu, \"transfer_bytes\": %llu",
                (unsigned long long)c->copy_bytes, (unsigned long long)c->gemm_n,
                (unsigned long long)c->transfer_bytes);
        fprintf(f, ", \"copy_method\": ");
        json_str(f, c->copy_method);
        fprintf(f, ", \"gemm_method\": ");
        json_str(f, c->gemm_method);
        fprintf(f, "},\n      \"dispatch_us\": ");
        json_num(f, d->dispatch_us);
        fprintf(f, ", \"bare_us\": ");
        json_num(f, d->bare_us);
        fprintf(f, ",\n      \"results\": [");
        for (size_t i = 0; i < d->row_count; i++) {
            const bench_row *r = &d->rows[i];
            fprintf(f, "%s\n        {\"op\": ", i ? "," : "");
            json_str(f, r->op);
            fprintf(f, ", \"dtype\": ");
            json_str(f, r->dtype);
            fprintf(f, ", \"n\": %llu, \"median_ms\": ", (unsigned long long)r->n);
            json_num(f, r->median_ms);
            fprintf(f, ", \"min_ms\": ");
            json_num(f, r->min_ms);
            fprintf(f, ", \"bytes\": ");
            json_num(f, r->bytes);
            fprintf(f, ", \"flops\": ");
            json_num(f, r->flops);
            fprintf(f, ", \"rate\": ");
            json_num(f, r->rate);
            fprintf(f, ", \"unit\": ");
            json_str(f, r->unit);
            fprintf(f, ", \"ceiling\": ");
            json_num(f, r->ceiling);
            fprintf(f, ", \"ceiling_name\": ");
            json_str(f, r->ceiling_name ? r->ceiling_name : "");
            fprintf(f, ", \"fraction\": ");
            json_num(f, r->fraction);
            fprintf(f, ", \"target\": ");
            json_num(f, r->target);
            fprintf(f, "}");
        }
        fprintf(f, "\n      ],\n      \"targets\": [");
        for (size_t i = 0; i < d->target_count; i++) {
            const bench_target *t = &d->targets[i];
            fprintf(f, "%s\n        {\"name\": ", i ? "," : "");
            json_str(f, t->name);
            fprintf(f, ", \"measured\": ");
            json_num(f, t->measured);
            fprintf(f, ", \"target\": ");
            json_num(f, t->target);
            fprintf(f, ", \"compare\": \"%s\", \"pass\": %s, \"detail\": ",
                    t->is_overhead ? "<=" : ">=", t->pass ? "true" : "false");
            json_str(f, t->detail);
            fprintf(f, "}");
        }
        fprintf(f, "\n      ]\n    }");
    }
    fprintf(f, "\n  ]\n}\n");
    int err = ferror(f) ? EIO : 0;
    if (fclose(f) != 0 && !err)
        err = errno;
    return err;
}

/* CSV field: quoted when it holds a comma or quote. */
static void csv_str(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static int write_csv(const char *path, const bench *b)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return errno;
    fprintf(f, "device,kind,name,dtype,n,median_ms,min_ms,rate,unit,ceiling,ceiling_name,"
               "fraction,target,pass\n");
    for (size_t di = 0; di < b->dev_count; di++) {
        const bench_device *d = &b->devs[di];
        for (size_t i = 0; i < d->row_count; i++) {
            const bench_row *r = &d->rows[i];
            fprintf(f, "%s,result,%s,%s,%llu,%.6g,%.6g,%.6g,%s,%.6g,", d->name, r->op, r->dtype,
                    (unsigned long long)r->n, r->median_ms, r->min_ms, r->rate, r->unit,
                    r->ceiling);
            csv_str(f, r->ceiling_name ? r->ceiling_name : "");
            fprintf(f, ",%.6g,%.6g,\n", r->fraction, r->target);
        }
        for (size_t i = 0; i < d->target_count; i++) {
            const bench_target *t = &d->targets[i];
            fprintf(f, "%s,target,", d->name);
            csv_str(f, t->name);
            fprintf(f, ",,,,,%.6g,%s,,,,%.6g,%s\n", t->measured, t->is_overhead ? "us" : "fraction",
                    t->target, t->pass ? "PASS" : "MISS");
        }
    }
    int err = ferror(f) ? EIO : 0;
    if (fclose(f) != 0 && !err)
        err = errno;
    return err;
}

/* ------------------------------------------------------------------ main */

int cli_bench_main(int argc, char **argv)
{
    const char *config = NULL, *json = NULL, *csv = NULL, *svg = NULL;
    const char *names[MAX_DEVICES];
    size_t name_count = 0;
    bench b;
    memset(&b, 0, sizeof b);
    b.progress = isatty(STDERR_FILENO);
    for (int i = 1; i < argc;) {
        const char *v = NULL;
        int m;
        if ((m = cli_option_value(argc, argv, &i, "--device", "-d", &v)) != 0) {
            if (m < 0)
                return cli_usage_error(cmd, "--device needs a device name");
            if (name_count == MAX_DEVICES)
                return cli_usage_error(cmd, "at most %d --device options", MAX_DEVICES);
            names[name_count++] = v;
        } else if ((m = cli_option_value(argc, argv, &i, "--json", NULL, &v)) != 0) {
            if (m < 0)
                return cli_usage_error(cmd, "--json needs a file name");
            json = v;
        } else if ((m = cli_option_value(argc, argv, &i, "--csv", NULL, &v)) != 0) {
            if (m < 0)
                return cli_usage_error(cmd, "--csv needs a file name");
            csv = v;
        } else if ((m = cli_option_value(argc, argv, &i, "--svg", NULL, &v)) != 0) {
            if (m < 0)
                return cli_usage_error(cmd, "--svg needs a file name");
            svg = v;
        } else if ((m = cli_option_value(argc, argv, &i, "--config", NULL, &v)) != 0) {
            if (m < 0)
                return cli_usage_error(cmd, "--config needs a file name");
            config = v;
        } else if ((m = cli_option_value(argc, argv, &i, "--repeats", NULL, &v)) != 0) {
            char *end = NULL;
            long r = m > 0 ? strtol(v, &end, 10) : 0;
            if (m < 0 || !end || *end || r < 1 || r > 64)
                return cli_usage_error(cmd, "--repeats needs a number from 1 to 64");
            b.repeats = (unsigned)r;
        } else if (strcmp(argv[i], "--quick") == 0) {
            b.quick = true;
            i++;
        } else if (strcmp(argv[i], "--no-progress") == 0) {
            b.progress = false;
            i++;
        } else {
            return cli_usage_error(cmd, "unknown argument '%s'", argv[i]);
        }
    }

    accel_status st = accel_runtime_open(config, &b.rt);
    if (st != ACCEL_SUCCESS)
        return cli_runtime_error(cmd, st, "opening the runtime");
    accel_device *devs[MAX_DEVICES];
    size_t count = 0;
    if (name_count) {
        for (size_t i = 0; i < name_count; i++) {
            st = accel_device_get_by_name(b.rt, names[i], &devs[count]);
            if (st != ACCEL_SUCCESS) {
                int rc = cli_runtime_error(cmd, st, "finding the device");
                accel_runtime_close(b.rt);
                return rc;
            }
            count++;
        }
    } else {
        uint32_t n = accel_device_count(b.rt);
        for (uint32_t i = 0; i < n && count < MAX_DEVICES; i++)
            if (accel_device_get(b.rt, i, &devs[count]) == ACCEL_SUCCESS)
                count++;
    }
    b.devs = calloc(count ? count : 1, sizeof *b.devs);
    if (!b.devs) {
        accel_runtime_close(b.rt);
        return cli_runtime_error(cmd, ACCEL_ERROR_OUT_OF_HOST_MEMORY, "allocating");
    }
    b.dev_count = count;
    plan plans[MAX_DEVICES];
    for (size_t i = 0; i < count; i++) {
        bench_device *d = &b.devs[i];
        accel_device_properties props;
        accel_device_properties_init(&props);
        accel_device_properties_get(devs[i], &props);
        snprintf(d->name, sizeof d->name, "%s", accel_device_name(devs[i]));
        snprintf(d->model, sizeof d->model, "%s", props.name);
        d->gpu = props.kind == ACCEL_DEVICE_GPU;
        make_plan(&b, d, &plans[i]);
        b.steps += plan_steps(&plans[i], d->gpu);
    }

    int rc = CLI_EXIT_OK;
    for (size_t i = 0; i < count; i++) {
        st = bench_one(&b, &b.devs[i], devs[i], &plans[i]);
        if (st != ACCEL_SUCCESS) {
            progress_clear(&b);
            char what[96];
            snprintf(what, sizeof what, "benchmarking %s", b.devs[i].name);
            rc = cli_runtime_error(cmd, st, what);
            break;
        }
    }
    progress_clear(&b);

    char when[64], host[160], command[512];
    time_t now = time(NULL);
    struct tm tmv;
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S%z", localtime_r(&now, &tmv));
    struct utsname un;
    if (uname(&un) == 0)
        snprintf(host, sizeof host, "%.60s %.40s %.40s", un.nodename, un.sysname, un.machine);
    else
        snprintf(host, sizeof host, "unknown");
    size_t len = 0;
    command[0] = '\0';
    for (int i = -1; i < argc && len < sizeof command; i++) {
        int w = snprintf(command + len, sizeof command - len, "%s%s", i < 0 ? "accel" : " ",
                         i < 0 ? "" : argv[i]);
        if (w < 0)
            break;
        len += (size_t)w;
    }

    if (rc == CLI_EXIT_OK) {
        printf("accel bench  %s  %s  accel %s\n", when, host, accel_version());
        for (size_t i = 0; i < count; i++)
            print_device(stdout, &b.devs[i]);
        fflush(stdout);
        int err;
        if (json && (err = write_json(json, &b, when, host, command)) != 0) {
            fprintf(stderr, "accel bench: cannot write %s: %s\n", json, strerror(err));
            rc = CLI_EXIT_RUNTIME;
        }
        if (csv && (err = write_csv(csv, &b)) != 0) {
            fprintf(stderr, "accel bench: cannot write %s: %s\n", csv, strerror(err));
            rc = CLI_EXIT_RUNTIME;
        }
        if (svg && (err = bench_write_svg(svg, b.devs, count, when)) != 0) {
            fprintf(stderr, "accel bench: cannot write %s: %s\n", svg, strerror(err));
            rc = CLI_EXIT_RUNTIME;
        }
    }
    for (size_t i = 0; i < count; i++)
        free(b.devs[i].rows);
    free(b.devs);
    accel_runtime_close(b.rt);
    return rc;
}
