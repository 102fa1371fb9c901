/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* bench_plan.c — what `accel bench` measures: the op cases (bytes and FLOPs
 * per element, which ceiling, the target fraction) and the plan per device
 * kind (sizes, repeats, batching). */
#include <string.h>

#include "bench_plan.h"
#include "bench_types.h"

/* Targets: elementwise add and multiply at the largest size reach 95% of the
 * copy bandwidth on a GPU and 90% of max(memcpy, plain loop) on the CPU; on a
 * GPU relu, exp and axpby 95% of copy too, random uniform 90% and normal 85%
 * (their only traffic is the write); GPU reductions 95% (dot 90%) of a plain
 * sum's read bandwidth. */
const bench_ew_case bench_ew_cases[BENCH_EW_COUNT] = {
    [BENCH_ADD] = {"add", 12, 1, false, 0.95, 0.9},
    [BENCH_MUL] = {"mul", 12, 1, false, 0.95, 0.9},
    [BENCH_RELU] = {"relu", 8, 1, false, 0.95, 0},
    [BENCH_EXP] = {"exp", 8, 1, false, 0.95, 0},
    [BENCH_AXPBY] = {"axpby", 12, 3, false, 0.95, 0},
    [BENCH_COPY] = {"copy", 8, 0, false, 0, 0},
    [BENCH_SUM] = {"sum", 4, 1, true, 0.95, 0},
    [BENCH_MAX] = {"max", 4, 1, true, 0.95, 0},
    [BENCH_DOT] = {"dot", 8, 2, true, 0.9, 0},
    [BENCH_RANDOM] = {"random_uniform", 4, 0, false, 0.9, 0},
    [BENCH_RANDOM_NORMAL] = {"random_normal", 4, 0, false, 0.85, 0},
};

const bench_gemm_case bench_gemm_cases[] = {
    {"f32", ACCEL_F32, false, false}, {"tf32", ACCEL_F32, true, true},
    {"f16", ACCEL_F16, false, true},  {"bf16", ACCEL_BF16, false, true},
    {"f64", ACCEL_F64, false, false},
};
const size_t bench_gemm_case_count = sizeof bench_gemm_cases / sizeof bench_gemm_cases[0];

static void plan_gpu(bool quick, bench_plan *p)
{
    if (quick) {
        p->ew_sizes[p->ew_count++] = 1u << 16;
        p->ew_sizes[p->ew_count++] = 1u << 20;
        p->gemm_sizes[p->gemm_count++] = 512;
        p->transfer_bytes = 16u << 20;
    } else {
        p->ew_sizes[p->ew_count++] = 1u << 20;
        p->ew_sizes[p->ew_count++] = 1u << 24;
        /* 2^26 and 2^28: the range issue 29 compares OpenCL with CUDA over */
        p->ew_sizes[p->ew_count++] = 1u << 26;
        p->ew_sizes[p->ew_count++] = 1u << 28;
        p->gemm_sizes[p->gemm_count++] = 4096;
        p->gemm_sizes[p->gemm_count++] = 10000;
        p->transfer_bytes = 256u << 20;
    }
    p->repeats = quick ? 3 : 10;
    p->gemm_repeats = 3; /* the median of 3 drops one outlier */
    p->inner_elems = (uint64_t)1 << 26;
    p->transfers = true;
    /* A GPU's GEMM rate follows its power draw, which moves with the die's
     * temperature: the sweep's GEMM rows run a minute after the ceilings at
     * the start (the H200's f64 row read 0.979-0.984 of a ceiling measured
     * cooler), and the host side moves too (the bare launch read 3.9 and 4.5
     * us in two runs on the same machine). So every targeted row is measured
     * again in rounds, each beside its own ceiling. (The elementwise rows
     * could join only once the copy ceiling stopped freeing its buffers: a
     * cudaFree of 3 GiB slowed the next 6 ms of DRAM traffic, and add, the
     * first row after it, read 0.89 of copy; bench/RESULTS.md, round 6.) */
    p->target_rounds = quick ? 3 : 5; /* odd: the median is one of them */
    p->round_groups = ACCEL_CEILING_LAUNCH | ACCEL_CEILING_COPY | ACCEL_CEILING_GEMM;
}

static void plan_cpu(bool quick, bench_plan *p)
{
    if (quick) {
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
    p->repeats = quick ? 3 : 5;
    p->gemm_repeats = quick ? 3 : 5;
    p->inner_elems = (uint64_t)1 << 22;
    p->target_rounds = quick ? 3 : 7; /* odd: the median is one of them */
    p->round_groups = ACCEL_CEILING_LAUNCH | ACCEL_CEILING_COPY | ACCEL_CEILING_GEMM;
}

void bench_make_plan(const bench *b, const bench_device *d, bench_plan *p)
{
    memset(p, 0, sizeof *p);
    if (d->gpu)
        plan_gpu(b->quick, p);
    else
        plan_cpu(b->quick, p);
    if (b->repeats) {
        p->repeats = b->repeats;
        p->gemm_repeats = b->repeats;
    }
}

size_t bench_plan_steps(const bench_plan *p, bool gpu)
{
    size_t gemm_cases = 0;
    for (size_t i = 0; i < bench_gemm_case_count; i++)
        gemm_cases += gpu || !bench_gemm_cases[i].gpu_only;
    /* ceilings and ceilings again, the GPU's first graph100 rounds, the
     * sweeps, dispatch, graph100 rounds again and the four chain rows
     * (bench_graph.c), transfers, the target rounds (at most
     * BENCH_MAX_ROUNDS run): one step per bench_progress call. */
    unsigned rounds = p->target_rounds > BENCH_MAX_ROUNDS ? BENCH_MAX_ROUNDS : p->target_rounds;
    return 2 + gpu + p->ew_count * BENCH_EW_COUNT + p->gemm_count * gemm_cases + 1 + 1 +
           (p->ew_count ? 4 : 0) + (p->transfers ? 4 : 0) + rounds;
}
