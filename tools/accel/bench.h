/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* bench.h — the parts of `accel bench`: the command and its options
 * (bench.c), the plans and op cases per device (bench_plan.c), timing and
 * progress (bench_time.c), the rows (bench_row.c), the measured sections
 * (bench_run.c; graphs and fusion: bench_graph.c), the targets
 * (bench_targets.c) and the writers of the table (bench_table.c), JSON
 * (bench_json.c), CSV (bench_csv.c) and SVG (bench_svg.c). */
#ifndef ACCEL_CLI_BENCH_H
#define ACCEL_CLI_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "accel/accel.h"

/* One op at one size. */
typedef struct bench_row {
    char op[24];   /* "add", "gemm", "write_pinned" */
    char dtype[8]; /* "f32", "tf32", "bytes" */
    uint64_t n;    /* elements; GEMM: n of n x n x n; transfers: bytes */
    double median_ms, min_ms;
    double bytes, flops; /* per op */
    double rate;         /* GB/s or TFLOP/s, from the median */
    const char *unit;    /* "GB/s" or "TFLOP/s" */
    double ceiling;      /* same unit; 0: none */
    const char *ceiling_name;
    double fraction; /* rate / ceiling, 0 without a ceiling */
    double target;   /* fraction to reach, 0: no target for this row */
    int ceiling_id;  /* which ceiling (bench.c), to recompute the fraction */
    bool largest;    /* the largest size of its (op, dtype): the one charted */
    /* Target rounds: the fraction measured again in `rounds` rounds,
     * each against a ceiling measured right before it; 0 rounds: none. */
    unsigned rounds;
    double round_median, round_min, round_max;
} bench_row;

/* One speed target (a fraction of this run's own ceiling, or a dispatch
 * overhead in microseconds), checked against this run's measurements. */
typedef struct bench_target {
    char name[80];   /* "elementwise add f32 2^28 / copy" */
    double measured; /* fraction (or overhead in us when is_overhead) */
    double target;
    bool is_overhead; /* measured must be <= target, else >= */
    bool pass;
    char detail[160];
} bench_target;

#define BENCH_MAX_TARGETS 32

/* A figure printed under the targets that has no target of its own. */
typedef struct bench_note {
    char name[80];
    double measured;
    char detail[160];
} bench_note;

#define BENCH_MAX_NOTES 4

typedef struct bench_device {
    char name[64]; /* "cuda:0" */
    char model[128];
    bool gpu;
    accel_ceilings ceilings;
    double dispatch_us; /* host time of one tiny op through accel */
    double bare_us;     /* bare launch / call, = ceilings.launch_us */
    /* Target rounds: dispatch_us - bare_us per round. */
    unsigned dispatch_rounds;
    double over_median, over_min, over_max;
    bench_row *rows;
    size_t row_count, row_cap;
    bench_target targets[BENCH_MAX_TARGETS];
    size_t target_count;
    bench_note notes[BENCH_MAX_NOTES];
    size_t note_count;
} bench_device;

/* Draw the fraction of ceiling of every charted row, per device, with target
 * marks. Returns 0, or an errno value. */
int bench_write_svg(const char *path, const bench_device *devs, size_t count, const char *title);

#define BENCH_MAX_SIZES 4

/* What one device is measured on: sizes, repeats, batching. */
typedef struct bench_plan {
    uint64_t ew_sizes[BENCH_MAX_SIZES];
    size_t ew_count;
    uint64_t gemm_sizes[BENCH_MAX_SIZES];
    size_t gemm_count;
    unsigned repeats, gemm_repeats;
    uint64_t inner_elems; /* ops per timed batch: clamp(inner_elems / n, 1, 256) */
    uint64_t transfer_bytes;
    bool transfers;
    /* Rounds of target measurements (0: none): each round measures the
     * ceilings of round_groups (ACCEL_CEILING_* bits: LAUNCH for the
     * dispatch, COPY for the elementwise rows, GEMM for the GEMM rows), then
     * the targeted ops right after them; each target takes the median ratio
     * over the rounds, with the spread. */
    unsigned target_rounds;
    uint32_t round_groups;
} bench_plan;

/* The whole run. */
typedef struct bench {
    accel_runtime *rt;
    bool quick, progress;
    unsigned repeats; /* 0: per device default */
    size_t step, steps;
    const char *label;
    bench_device *devs;
    size_t dev_count;
} bench;

/* When and where the run happened, for the outputs. */
typedef struct bench_meta {
    char when[64], host[160], command[512];
} bench_meta;

/* ------------------------------------------------------------ plans */

/* The elementwise and reduction ops accel bench times, in table order. */
typedef enum bench_ew_op {
    BENCH_ADD,
    BENCH_MUL,
    BENCH_RELU,
    BENCH_EXP,
    BENCH_AXPBY,
    BENCH_COPY,
    BENCH_SUM,
    BENCH_MAX,
    BENCH_DOT,
    BENCH_RANDOM,
    BENCH_RANDOM_NORMAL,
    BENCH_EW_COUNT
} bench_ew_op;

/* Facts of one elementwise case. */
typedef struct bench_ew_case {
    const char *name;
    double bytes_per_elem; /* read plus written */
    double flops_per_elem;
    bool reduction;                /* compared with the read ceiling */
    double target_gpu, target_cpu; /* fraction of the ceiling at the largest size; 0: none */
} bench_ew_case;

extern const bench_ew_case bench_ew_cases[BENCH_EW_COUNT];

/* One GEMM case: its dtype and where its ceiling is. */
typedef struct bench_gemm_case {
    const char *name; /* "f32", "tf32" */
    accel_dtype dt;
    bool tf32;
    bool gpu_only;
} bench_gemm_case;

extern const bench_gemm_case bench_gemm_cases[];
extern const size_t bench_gemm_case_count;

/* The plan of device d (its kind and b's --quick and --repeats). */
void bench_make_plan(const bench *b, const bench_device *d, bench_plan *p);

/* The most target rounds that run, whatever --rounds asks. */
#define BENCH_MAX_ROUNDS 15
/* Progress steps of a plan. */
size_t bench_plan_steps(const bench_plan *p, bool gpu);

/* ------------------------------------------------------------ timing */

double bench_now_us(void);

/* Median of v (sorts v). */
double bench_median(double *v, size_t n);

/* Median, min and max of v[0, n), n <= 64 (v is left as it is). */
void bench_spread(const double *v, size_t n, double *med, double *mn, double *mx);

typedef accel_status (*bench_enqueue_fn)(accel_queue *q, void *user);

/* Median and minimum milliseconds of one enqueue_fn, each timed run being
 * `inner` calls between two events, after one untimed warm-up batch. */
accel_status bench_time_events(accel_queue *q, accel_event *e0, accel_event *e1, unsigned reps,
                               unsigned inner, bench_enqueue_fn fn, void *user, double *out_median,
                               double *out_min);

/* One progress step: a bar on stderr when b->progress. */
void bench_progress(bench *b, const char *what);
void bench_progress_clear(bench *b);

/* "2^20" for powers of two, else the number. */
const char *bench_pow2_label(uint64_t n, char *buf, size_t cap);

/* ------------------------------------------------------------ running */

/* Which ceiling a row is compared with. */
enum {
    BENCH_C_NONE,
    BENCH_C_EW,   /* elementwise: copy (GPU), the better of memcpy and a plain loop (CPU) */
    BENCH_C_READ, /* plain sum */
    BENCH_C_GEMM, /* + accel_dtype */
    BENCH_C_GEMM_TF32 = BENCH_C_GEMM + 8,
    BENCH_C_H2D_PINNED,
    BENCH_C_D2H_PINNED,
    BENCH_C_H2D_PAGEABLE,
    BENCH_C_D2H_PAGEABLE
};

/* bench_row.c. The ceiling a BENCH_C_* id names, in the row's unit; 0 when
 * unmeasured. */
double bench_ceiling_value(const bench_device *d, int id);

/* A new zeroed row of d, or NULL when out of host memory. */
bench_row *bench_add_row(bench_device *d);

/* Fill row r of d: rate from the median, fraction of ceiling `id`. */
void bench_fill_row(bench_row *r, const bench_device *d, const char *op, const char *dtype,
                    uint64_t n, double med, double mn, double bytes, double flops, int id,
                    const char *ceiling_name);

/* On a GPU, before anything else of the run: the 100 dependent adds' rows
 * and targets on a queue of their own, in the state before any kernel ran
 * on another stream (bench_graph.c). */
accel_status bench_graph_adds_first(bench *b, bench_device *d, accel_device *dev,
                                    const bench_plan *p);

/* The graph and fusion rows and targets of d (bench_graph.c). */
accel_status bench_graphs(bench *b, bench_device *d, accel_device *dev, accel_queue *q,
                          accel_event *e0, accel_event *e1, const bench_plan *p);

/* Everything for device d on dev by plan p: on a GPU the 100 adds first,
 * ceilings, elementwise ops, GEMM, dispatch, graphs, transfers, ceilings
 * again, target rounds, targets (bench_run.c). */
accel_status bench_one(bench *b, bench_device *d, accel_device *dev, const bench_plan *p);

/* The targets of d from its rows and dispatch time (bench_targets.c). */
void bench_check_targets(bench_device *d);
/* One more target of d (measured >= target, or <= when overhead). */
void bench_add_target(bench_device *d, const char *name, double measured, double target,
                      bool overhead, const char *detail);
/* One more note of d: a measured figure without a target. */
void bench_add_note(bench_device *d, const char *name, double measured, const char *detail);

/* ------------------------------------------------------------ outputs */

/* The text table of d. */
void bench_print_device(FILE *f, const bench_device *d);

/* Returns 0, or an errno value. */
int bench_write_json(const char *path, const bench *b, const bench_meta *m);
int bench_write_csv(const char *path, const bench *b);

#endif /* ACCEL_CLI_BENCH_H */
