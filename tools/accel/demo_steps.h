/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* demo_steps.h — the steps `accel demo` runs, in order (demo_steps.c). */
#ifndef ACCEL_CLI_DEMO_STEPS_H
#define ACCEL_CLI_DEMO_STEPS_H

#include <stddef.h>

#include "demo_types.h"

extern const demo_step demo_steps[];
extern const size_t demo_step_count;

#endif /* ACCEL_CLI_DEMO_STEPS_H */
