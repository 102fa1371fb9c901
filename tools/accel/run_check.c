/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* run_check.c — `accel run --verify`: the same op on the CPU device, compared
 * with the device's result by the core's tolerance model
 * (accel_tolerance_compare, docs/checking.md), which allows for both
 * results' errors. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/verify.h"
#include "run.h"

/* The verdict line on stderr; the verdict stays last on it (tests parse it). */
static void print_verdict(const accel_compare_result *c, const run_job *j, const char *ref_name,
                          bool self, bool pass)
{
    const char *note = self && pass ? "; but this device IS the CPU reference, so this only "
                                      "shows the CPU agrees with itself (no GPU in use; see "
                                      "accel info)"
                                    : "";
    if (c->worst_index == SIZE_MAX) {
        fprintf(stderr, "accel: verify: %zu element%s identical to %s (%s)%s: PASS\n", j->out_count,
                j->out_count == 1 ? "" : "s", ref_name, c->rule, note);
        return;
    }
    double ratio =
        isfinite(c->worst_error) && c->worst_bound > 0 ? c->worst_error / c->worst_bound : INFINITY;
    fprintf(stderr,
            "accel: verify: largest error %.3g at element %zu vs tolerance %.3g (%.3g of it; "
            "%s) against %s%s: %s\n",
            c->worst_error, c->worst_index, c->worst_bound, ratio, c->rule, ref_name, note,
            pass ? "PASS" : "FAIL");
}

/* Compare result with the CPU's ref; SUCCESS, MISMATCH or another error. */
static accel_status compare(const run_job *j, const void *result, const void *ref,
                            accel_compare_result *c)
{
    accel_tolerance_op d = run_describe(j);
    const void *inputs[4] = {j->in[0].data, j->nin > 1 ? j->in[1].data : NULL, NULL, NULL};
    memset(c, 0, sizeof *c);
    c->struct_size = sizeof *c;
    accel_status st = accel_tolerance_compare(&d, inputs, result, ref, c);
    if (st != ACCEL_SUCCESS && st != ACCEL_ERROR_MISMATCH)
        cli_runtime_error("run", st, "--verify cannot compare the results");
    return st;
}

bool run_verify_on_cpu(accel_runtime *rt, accel_device *dev, const run_job *j, const void *result)
{
    accel_device *cpu = NULL;
    accel_status st = accel_device_get_by_name(rt, "cpu", &cpu);
    if (st != ACCEL_SUCCESS) {
        cli_runtime_error("run", st, "--verify needs the CPU device");
        return false;
    }
    size_t esize = accel_dtype_size(j->dt);
    void *ref = malloc(j->out_count ? j->out_count * esize : 1);
    if (!ref) {
        fprintf(stderr, "accel run: --verify: out of host memory\n");
        return false;
    }
    accel_compare_result c;
    st = run_compute(rt, cpu, j, ref, NULL, NULL); /* prints why it failed */
    if (st == ACCEL_SUCCESS)
        st = compare(j, result, ref, &c);
    free(ref);
    if (st != ACCEL_SUCCESS && st != ACCEL_ERROR_MISMATCH)
        return false;
    bool pass = st == ACCEL_SUCCESS;
    print_verdict(&c, j, accel_device_name(cpu), dev == cpu, pass);
    return pass;
}
