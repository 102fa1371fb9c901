/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* bench_write.h — the outputs of `accel bench`: the text table
 * (bench_table.c), JSON (bench_json.c), CSV (bench_csv.c) and the SVG chart
 * (bench_svg.c). */
#ifndef ACCEL_CLI_BENCH_WRITE_H
#define ACCEL_CLI_BENCH_WRITE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench_types.h"

/* The text table of d. */
void bench_print_device(FILE *f, const bench_device *d);

/* Returns 0, or an errno value. */
int bench_write_json(const char *path, const bench *b, const bench_meta *m);
int bench_write_csv(const char *path, const bench *b);

/* One peer's time (bench/peers.py --json): device, op, dtype, n as accel
 * bench names them, the peer ("cupy", "torch") and its median in ms. */
typedef struct bench_peer {
    char device[64], op[24], dtype[8], who[16];
    uint64_t n;
    double peer_ms;
} bench_peer;

typedef struct bench_peers {
    bench_peer *rows;
    size_t count;
} bench_peers;

/* Read bench/peers.py's JSON at path into *out (rows without a peer time
 * left out; bench_peers_free releases it). Returns 0, or an errno value with
 * the reason in err (the file unreadable, not JSON, without its "devices"
 * array, a device without "device" or "rows"). */
int bench_peers_read(const char *path, bench_peers *out, char *err, size_t cap);
void bench_peers_free(bench_peers *p);

/* Draw the fraction of ceiling of every charted row, per device, with target
 * marks, from the figures of the verdicts; the faster peer of a row where
 * peers (may be NULL) has it. title: a line under the heading (the time of
 * the run). Returns 0, or an errno value. */
int bench_write_svg(const char *path, const bench_device *devs, size_t count, const char *title,
                    const bench_peers *peers);

#endif /* ACCEL_CLI_BENCH_WRITE_H */
