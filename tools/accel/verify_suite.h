/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* verify_suite.h — the parts of `accel verify` (verify.c): the table of cases
 * (verify_cases.c) and the runner of one case on the device under test and
 * on the CPU reference (verify_case.c). */
#ifndef ACCEL_CLI_VERIFY_SUITE_H
#define ACCEL_CLI_VERIFY_SUITE_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"

#define VERIFY_MAX_TALLIES 256

/* Cases passed, failed and unsupported for one op (or array function:
 * name) and dtype. */
typedef struct verify_tally {
    accel_op_code op;
    const char *name; /* an array function's (verify_arrays.c); NULL: op's */
    accel_dtype dt;
    unsigned pass, fail, unsupported;
} verify_tally;

typedef struct verify_run {
    accel_device *dev, *ref;
    accel_queue *q, *rq;
    uint64_t seed;
    bool verbose, quick;
    double worst; /* worst error as a fraction of its bound */
    uint64_t case_no;
    verify_tally tallies[VERIFY_MAX_TALLIES];
    size_t ntally;
} verify_run;

/* Run d on the device and the reference (inputs from the run's seed and the
 * case number; special: NaN, Inf, zeros, subnormals instead of random
 * values), check guards, inputs and tolerance, print a failure, and count
 * the result in vr's tallies (verify_case.c). */
void verify_case(verify_run *vr, accel_op_desc *d, bool special);

/* Every case of the suite, each through verify_case (verify_cases.c). */
void verify_suite(verify_run *vr);
/* The array layer's elementwise functions on complex64 and complex128
 * (verify_arrays.c). */
void verify_arrays(verify_run *vr);
/* The tally of an array function and dtype (NULL when the table is full). */
verify_tally *verify_tally_named(verify_run *vr, const char *name, accel_dtype dt);

/* The 64-bit mixer of the inputs' generator (SplitMix64's finalizer). */
uint64_t verify_mix(uint64_t x);

#endif /* ACCEL_CLI_VERIFY_SUITE_H */
