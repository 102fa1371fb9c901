/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* bench_table.c — the text table of `accel bench`: per device its ceilings,
 * every measured row with its fraction of ceiling, dispatch overhead and the
 * targets with PASS or MISS. */
#include <stdio.h>

#include "bench_time.h"
#include "bench_types.h"
#include "bench_write.h"

static void print_ceilings(FILE *f, const bench_device *d)
{
    const accel_ceilings *c = &d->ceilings;
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
}

static void print_rows(FILE *f, const bench_device *d)
{
    fprintf(f, "\n  %-15s %-5s %8s %12s %17s %9s  %s\n", "op", "dtype", "size", "median ms", "rate",
            "fraction", "of ceiling");
    for (size_t i = 0; i < d->row_count; i++) {
        const bench_row *r = &d->rows[i];
        char sz[24], frac[16];
        if (r->ceiling > 0)
            snprintf(frac, sizeof frac, "%.3f", r->fraction);
        else
            snprintf(frac, sizeof frac, "-");
        fprintf(f, "  %-15s %-5s %8s %12.4f %9.3f %-7s %9s  %s\n", r->op, r->dtype,
                bench_pow2_label(r->n, sz, sizeof sz), r->median_ms, r->rate, r->unit, frac,
                r->ceiling > 0 ? r->ceiling_name : "");
    }
}

void bench_print_device(FILE *f, const bench_device *d)
{
    fprintf(f, "\n%s  %s\n", d->name, d->model);
    print_ceilings(f, d);
    print_rows(f, d);
    if (d->dispatch_us > 0)
        fprintf(f, "\n  dispatch: %.3f us per accel enqueue (1-element add), bare %s %.3f us\n",
                d->dispatch_us, d->gpu ? "launch" : "call", d->bare_us);
    fprintf(f, "\n  targets, this run's ratios:\n");
    for (size_t i = 0; i < d->target_count; i++) {
        const bench_target *t = &d->targets[i];
        fprintf(f, "    %-4s %-48s %8.3f %s %-5.3g  %s\n", t->pass ? "PASS" : "MISS", t->name,
                t->measured, t->is_overhead ? "<=" : ">=", t->target, t->detail);
    }
    for (size_t i = 0; i < d->note_count; i++) {
        const bench_note *n = &d->notes[i];
        fprintf(f, "    %-4s %-48s %8.3f %-8s  %s\n", "note", n->name, n->measured, "", n->detail);
    }
}
