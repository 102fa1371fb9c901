/* bench.h — what `accel bench` measures (bench.c) and how its SVG chart is
 * drawn from it (bench_svg.c). */
#ifndef ACCEL_CLI_BENCH_H
#define ACCEL_CLI_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "accel/accel.h"

/* One op at one size. */
typedef struct bench_row {
    char op[24];    /* "add", "gemm", "write_pinned" */
    char dtype[8];  /* "f32", "tf32", "bytes" */
    uint64_t n;     /* elements; GEMM: n of n x n x n; transfers: bytes */
    double median_ms, min_ms;
    double bytes, flops; /* per op */
    double rate;         /* GB/s or TFLOP/s, from the median */
    const char *unit;    /* "GB/s" or "TFLOP/s" */
    double ceiling;      /* same unit; 0: none */
    const char *ceiling_name;
    double fraction;     /* rate / ceiling, 0 without a ceiling */
    double target;       /* fraction to reach, 0: no target for this row */
    int ceiling_id;      /* which ceiling (bench.c), to recompute the fraction */
    bool largest;        /* the largest size of its (op, dtype): the one charted */
} bench_row;

/* One target of issue 6, checked against this run's own ceilings. */
typedef struct bench_target {
    char name[80];       /* "elementwise add f32 2^28 / copy" */
    double measured;     /* fraction (or overhead in us when is_overhead) */
    double target;
    bool is_overhead;    /* measured must be <= target, else >= */
    bool pass;
    char detail[160];
} bench_target;

#define BENCH_MAX_TARGETS 24

typedef struct bench_device {
    char name[64];  /* "cuda:0" */
    char model[128];
    bool gpu;
    accel_ceilings ceilings;
    double dispatch_us; /* host time of one tiny op through accel */
    double bare_us;     /* bare launch / call, = ceilings.launch_us */
    bench_row *rows;
    size_t row_count, row_cap;
    bench_target targets[BENCH_MAX_TARGETS];
    size_t target_count;
} bench_device;

/* Draw the fraction of ceiling of every charted row, per device, with target
 * marks. Returns 0, or an errno value. */
int bench_write_svg(const char *path, const bench_device *devs, size_t count, const char *title);

#endif /* ACCEL_CLI_BENCH_H */
