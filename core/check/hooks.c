/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/check/hooks.c — the built-in ops' hook table for accel__submit:
 * fallback.c's and verify.c's entries behind one accel__op_hooks, installed
 * for every op code at runtime open (other kinds install theirs over it). */
#include <stddef.h>
#include <stdint.h>

#include "base/objects.h"
#include "check/hooks.h"

static void *verify_prepare(accel_queue *q, const accel_op_desc *d)
{
    return accel__verify_prepare(q, d);
}

static void verify_before_locked(accel_queue *q, void *job)
{
    accel__verify_before_locked(q, job);
}

static void verify_after_locked(accel_queue *q, void *job, int32_t rc)
{
    accel__verify_after_locked(q, job, rc);
}

const accel__op_hooks accel__op_hooks_builtin = {
    .fallback_try = accel__fallback_try,
    .verify_prepare = verify_prepare,
    .verify_before_locked = verify_before_locked,
    .verify_after_locked = verify_after_locked,
};

void accel__op_hooks_init(accel_runtime *rt)
{
    for (size_t i = 0; i < ACCEL_OP_CODE_LIMIT; i++)
        rt->op_hooks[i] = &accel__op_hooks_builtin;
}
