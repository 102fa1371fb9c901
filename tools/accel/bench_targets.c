/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* bench_targets.c — the speed targets `accel bench` checks, each a ratio of
 * this run's own measurements: a row's fraction of its ceiling against the
 * row's target (bench_plan.c), and accel's dispatch overhead over a bare
 * launch or call against half a microsecond. Where the plan has target
 * rounds, each is the median over the rounds, with the spread. */
#include <stdio.h>

#include "bench_targets.h"
#include "bench_time.h"
#include "bench_types.h"

void bench_add_target(bench_device *d, const char *name, double measured, double target,
                      bool overhead, const char *detail)
{
    if (d->target_count >= BENCH_MAX_TARGETS)
        return;
    bench_target *t = &d->targets[d->target_count++];
    snprintf(t->name, sizeof t->name, "%s", name);
    t->measured = measured;
    t->target = target;
    t->is_overhead = overhead;
    t->pass = overhead ? measured <= target : measured >= target;
    snprintf(t->detail, sizeof t->detail, "%s", detail);
}

void bench_add_note(bench_device *d, const char *name, double measured, const char *detail)
{
    if (d->note_count >= BENCH_MAX_NOTES)
        return;
    bench_note *n = &d->notes[d->note_count++];
    snprintf(n->name, sizeof n->name, "%s", name);
    n->measured = measured;
    snprintf(n->detail, sizeof n->detail, "%s", detail);
}

void bench_check_targets(bench_device *d)
{
    for (size_t i = 0; i < d->row_count; i++) {
        const bench_row *r = &d->rows[i];
        if (r->target <= 0 || r->ceiling <= 0)
            continue;
        char name[80], detail[160], sz[24];
        snprintf(name, sizeof name, "%s %s %s / %s", r->op, r->dtype,
                 bench_pow2_label(r->n, sz, sizeof sz), r->ceiling_name);
        if (r->rounds) {
            snprintf(detail, sizeof detail,
                     "median of %u rounds, spread %.3f-%.3f (sweep: %.4g %s of %.4g %s)", r->rounds,
                     r->round_min, r->round_max, r->rate, r->unit, r->ceiling, r->unit);
            bench_add_target(d, name, r->round_median, r->target, false, detail);
            continue;
        }
        snprintf(detail, sizeof detail, "%.4g %s of %.4g %s", r->rate, r->unit, r->ceiling,
                 r->unit);
        bench_add_target(d, name, r->fraction, r->target, false, detail);
    }
    if (d->dispatch_us > 0 && d->dispatch_rounds) {
        char detail[160];
        snprintf(detail, sizeof detail,
                 "median of %u rounds, spread %.3f-%.3f us (sweep: accel enqueue %.3f us, bare "
                 "%s %.3f us)",
                 d->dispatch_rounds, d->over_min, d->over_max, d->dispatch_us,
                 d->gpu ? "launch" : "call", d->bare_us);
        bench_add_target(d,
                         d->gpu ? "dispatch overhead vs bare launch (us)"
                                : "dispatch overhead vs bare call (us)",
                         d->over_median, 0.5, true, detail);
    } else if (d->dispatch_us > 0) {
        char detail[160];
        snprintf(detail, sizeof detail, "accel enqueue %.3f us, bare %s %.3f us", d->dispatch_us,
                 d->gpu ? "launch" : "call", d->bare_us);
        bench_add_target(d,
                         d->gpu ? "dispatch overhead vs bare launch (us)"
                                : "dispatch overhead vs bare call (us)",
                         d->dispatch_us - d->bare_us, 0.5, true, detail);
    }
}
