/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* bench_types.h — the data of an `accel bench` run, shared by its parts:
 * rows, targets and notes per device, the plan of a device, the run, and
 * which ceiling a row is compared with. */
#ifndef ACCEL_CLI_BENCH_TYPES_H
#define ACCEL_CLI_BENCH_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

#endif /* ACCEL_CLI_BENCH_TYPES_H */
