/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* demo_kernel.h — the user-kernel step of `accel demo` (demo_kernel.c). */
#ifndef ACCEL_CLI_DEMO_KERNEL_H
#define ACCEL_CLI_DEMO_KERNEL_H

#include "accel/accel.h"
#include "demo_types.h"

/* The user-kernel step (demo_kernel.c). */
accel_status demo_step_user_kernel(demo_ctx *c, demo_result *r);

#endif /* ACCEL_CLI_DEMO_KERNEL_H */
