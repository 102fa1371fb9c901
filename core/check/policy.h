/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/check/policy.h — verify mode's, the fallback's and the placement report's settings and
 * counters (verify.c, fallback.c, report.c). Not installed. */
#ifndef ACCEL_CORE_CHECK_POLICY_H
#define ACCEL_CORE_CHECK_POLICY_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/objects.h"
#include "base/optable.h"

#define ACCEL__OP_SLOTS ACCEL_OP_CODE_LIMIT /* op codes are counted per kind in slots */

/* One op kind on one device in the placement report. */
typedef struct accel__report_cell {
    atomic_uint_fast64_t ops, fallbacks, bytes;
    atomic_int reason_set; /* 0 none, 1 being written, 2 written */
    char reason[192];
    accel_device *fallback_device;
} accel__report_cell;

/* One fused kernel of a graph (core/fuse.c) on one device in the placement
 * report: its launches while reporting is on. A list that only grows (pushed
 * lock-free), freed at close. */
typedef struct accel__rfused {
    struct accel__rfused *next;
    const accel_device *dev;
    atomic_uint_fast64_t launches;
    uint32_t nops;   /* recorded ops it runs */
    char kernel[64]; /* "fused_mul_add" */
    char ops[512];   /* "nodes 0-1 (accel_mul, accel_add)" */
} accel__rfused;

typedef struct accel__policy {
    /* verify mode */
    accel_device *verify_ref; /* NULL: off */
    double verify_sample;
    uint64_t verify_seed;
    bool verify_fail, verify_self;
    uint32_t verify_guard;
    char *verify_repro_dir;
    atomic_uint_fast64_t tick; /* ops seen, for sampling */
    atomic_uint_fast64_t checked, mismatches, skipped, repro_files;
    /* fallback */
    accel_device *fallback; /* NULL: none */
    bool fallback_on_oom;
    atomic_int warned[ACCEL__OP_SLOTS]; /* warn once per op kind */
    /* report */
    bool report, report_at_close;
    accel__report_cell *cells;      /* [ACCEL__OP_SLOTS * device_count] */
    _Atomic(accel__rfused *) fused; /* newest first */
} accel__policy;

/* After the devices are built: read the [runtime] policy keys and the
 * environment (ACCEL_VERIFY, ACCEL_REPORT). Errors carry "fn: file:line". */
accel_status accel__policy_open(accel_runtime *rt, const char *fn);
/* At close, after the queues drained: print the report if asked, free. */
void accel__policy_close(accel_runtime *rt);

/* rt->checked follows the policy: ops take the checked branch of
 * accel__submit while verify mode or per-op counting is on. */
static inline void accel__policy_update_checked(accel_runtime *rt)
{
    const accel__policy *p = rt->policy;
    atomic_store_explicit(&rt->checked, p && (p->verify_ref || p->report), memory_order_relaxed);
}

#endif /* ACCEL_CORE_CHECK_POLICY_H */
