/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* bench_json.c — `accel bench --json`: every number of the run, one object
 * per device with its ceilings, results and targets. Strings go through the
 * shared writer (common/json.h), so any device or host name gives valid
 * JSON; NaN and infinities are written as null. */
#include <errno.h>
#include <stdio.h>

#include "bench_types.h"
#include "bench_write.h"
#include "json.h"

/* ", "key": " before a value. */
static void key(FILE *f, const char *name)
{
    fprintf(f, ", \"%s\": ", name);
}

static void num(FILE *f, const char *name, double v)
{
    key(f, name);
    accel__json_number(f, v);
}

static void str(FILE *f, const char *name, const char *v)
{
    key(f, name);
    accel__json_string(f, v);
}

static void write_ceilings(FILE *f, const accel_ceilings *c)
{
    fprintf(f, "\"copy_gbs\": ");
    accel__json_number(f, c->copy_gbs);
    num(f, "loop_gbs", c->loop_gbs);
    num(f, "read_gbs", c->read_gbs);
    fprintf(f, ", \"gemm_tflops\": {\"f32\": ");
    accel__json_number(f, c->gemm_tflops[ACCEL_F32]);
    num(f, "tf32", c->gemm_tf32_tflops);
    num(f, "f16", c->gemm_tflops[ACCEL_F16]);
    num(f, "bf16", c->gemm_tflops[ACCEL_BF16]);
    num(f, "f64", c->gemm_tflops[ACCEL_F64]);
    fprintf(f, "}");
    num(f, "launch_us", c->launch_us);
    num(f, "h2d_pinned_gbs", c->h2d_pinned_gbs);
    num(f, "d2h_pinned_gbs", c->d2h_pinned_gbs);
    num(f, "h2d_pageable_gbs", c->h2d_pageable_gbs);
    num(f, "d2h_pageable_gbs", c->d2h_pageable_gbs);
    fprintf(f, ", \"copy_bytes\": %llu, \"gemm_n\": %llu, \"transfer_bytes\": %llu",
            (unsigned long long)c->copy_bytes, (unsigned long long)c->gemm_n,
            (unsigned long long)c->transfer_bytes);
    str(f, "copy_method", c->copy_method);
    str(f, "gemm_method", c->gemm_method);
}

static void write_row(FILE *f, const bench_row *r)
{
    fprintf(f, "{\"op\": ");
    accel__json_string(f, r->op);
    str(f, "dtype", r->dtype);
    fprintf(f, ", \"n\": %llu", (unsigned long long)r->n);
    num(f, "median_ms", r->median_ms);
    num(f, "min_ms", r->min_ms);
    num(f, "bytes", r->bytes);
    num(f, "flops", r->flops);
    num(f, "rate", r->rate);
    str(f, "unit", r->unit);
    num(f, "ceiling", r->ceiling);
    str(f, "ceiling_name", r->ceiling_name ? r->ceiling_name : "");
    num(f, "fraction", r->fraction);
    num(f, "target", r->target);
    if (r->rounds) {
        fprintf(f, ", \"rounds\": %u", r->rounds);
        num(f, "round_median", r->round_median);
        num(f, "round_min", r->round_min);
        num(f, "round_max", r->round_max);
    }
    fprintf(f, "}");
}

static void write_target(FILE *f, const bench_target *t)
{
    fprintf(f, "{\"name\": ");
    accel__json_string(f, t->name);
    num(f, "measured", t->measured);
    num(f, "target", t->target);
    fprintf(f, ", \"compare\": \"%s\", \"pass\": %s",
            t->is_overhead ? "<=" : ">=", t->pass ? "true" : "false");
    str(f, "detail", t->detail);
    fprintf(f, "}");
}

static void write_device(FILE *f, const bench_device *d)
{
    fprintf(f, "\n    {\n      \"device\": ");
    accel__json_string(f, d->name);
    fprintf(f, ",\n      \"model\": ");
    accel__json_string(f, d->model);
    fprintf(f, ",\n      \"kind\": \"%s\",\n      \"ceilings\": {", d->gpu ? "gpu" : "cpu");
    write_ceilings(f, &d->ceilings);
    fprintf(f, "},\n      \"dispatch_us\": ");
    accel__json_number(f, d->dispatch_us);
    num(f, "bare_us", d->bare_us);
    fprintf(f, ",\n      \"results\": [");
    for (size_t i = 0; i < d->row_count; i++) {
        fprintf(f, "%s\n        ", i ? "," : "");
        write_row(f, &d->rows[i]);
    }
    fprintf(f, "\n      ],\n      \"targets\": [");
    for (size_t i = 0; i < d->target_count; i++) {
        fprintf(f, "%s\n        ", i ? "," : "");
        write_target(f, &d->targets[i]);
    }
    fprintf(f, "\n      ],\n      \"notes\": [");
    for (size_t i = 0; i < d->note_count; i++) {
        fprintf(f, "%s\n        {\"name\": ", i ? "," : "");
        accel__json_string(f, d->notes[i].name);
        num(f, "measured", d->notes[i].measured);
        str(f, "detail", d->notes[i].detail);
        fprintf(f, "}");
    }
    fprintf(f, "\n      ]\n    }");
}

int bench_write_json(const char *path, const bench *b, const bench_meta *m)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return errno;
    fprintf(f, "{\n  \"tool\": \"accel bench\",\n  \"accel_version\": ");
    accel__json_string(f, accel_version());
    fprintf(f, ",\n  \"date\": ");
    accel__json_string(f, m->when);
    fprintf(f, ",\n  \"host\": ");
    accel__json_string(f, m->host);
    fprintf(f, ",\n  \"command\": ");
    accel__json_string(f, m->command);
    fprintf(f, ",\n  \"quick\": %s,\n  \"devices\": [", b->quick ? "true" : "false");
    for (size_t i = 0; i < b->dev_count; i++) {
        fprintf(f, "%s", i ? "," : "");
        write_device(f, &b->devs[i]);
    }
    fprintf(f, "\n  ]\n}\n");
    int err = ferror(f) ? EIO : 0;
    if (fclose(f) != 0 && !err)
        err = errno;
    return err;
}
