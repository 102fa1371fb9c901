/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* bench_row.c — the rows of `accel bench`: adding one, filling it from a
 * measured time (rate and fraction of its ceiling), and the ceiling a row is
 * compared with. The sections (bench_run.c, bench_graph.c) write rows here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_row.h"
#include "bench_types.h"

bench_row *bench_add_row(bench_device *d)
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

double bench_ceiling_value(const bench_device *d, int id)
{
    const accel_ceilings *c = &d->ceilings;
    switch (id) {
    case BENCH_C_EW:
        return d->gpu ? c->copy_gbs : fmax(c->copy_gbs, c->loop_gbs);
    case BENCH_C_READ:
        return c->read_gbs;
    case BENCH_C_GEMM_TF32:
        return c->gemm_tf32_tflops;
    case BENCH_C_H2D_PINNED:
        return c->h2d_pinned_gbs;
    case BENCH_C_D2H_PINNED:
        return c->d2h_pinned_gbs;
    case BENCH_C_H2D_PAGEABLE:
        return c->h2d_pageable_gbs;
    case BENCH_C_D2H_PAGEABLE:
        return c->d2h_pageable_gbs;
    }
    return id > BENCH_C_GEMM && id < BENCH_C_GEMM + 8 ? c->gemm_tflops[id - BENCH_C_GEMM] : 0.0;
}

/* One measured point: rate from the median, fraction of ceiling `id`. */
void bench_fill_row(bench_row *r, const bench_device *d, const char *op, const char *dtype,
                    uint64_t n, double med, double mn, double bytes, double flops, int id,
                    const char *ceiling_name)
{
    snprintf(r->op, sizeof r->op, "%s", op);
    snprintf(r->dtype, sizeof r->dtype, "%s", dtype);
    r->n = n;
    r->median_ms = med;
    r->min_ms = mn;
    r->bytes = bytes;
    r->flops = flops;
    bool by_flops = id >= BENCH_C_GEMM && id <= BENCH_C_GEMM_TF32;
    r->unit = by_flops ? "TFLOP/s" : "GB/s";
    if (by_flops)
        r->rate = med > 0 ? flops / (med * 1e-3) * 1e-12 : 0;
    else
        r->rate = med > 0 ? bytes / (med * 1e-3) * 1e-9 : 0;
    r->ceiling_id = id;
    r->ceiling = bench_ceiling_value(d, id);
    r->ceiling_name = ceiling_name;
    r->fraction = r->ceiling > 0 ? r->rate / r->ceiling : 0;
}
