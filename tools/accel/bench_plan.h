/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* bench_plan.h — the op cases `accel bench` times and the plan of each device
 * (bench_plan.c). */
#ifndef ACCEL_CLI_BENCH_PLAN_H
#define ACCEL_CLI_BENCH_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "accel/accel.h"
#include "bench_types.h"

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

/* Progress steps of a plan. */
/* The most target rounds that run, whatever --rounds asks. */
#define BENCH_MAX_ROUNDS 15
size_t bench_plan_steps(const bench_plan *p, bool gpu);

#endif /* ACCEL_CLI_BENCH_PLAN_H */
