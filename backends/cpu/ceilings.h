/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* ceilings.h — the CPU backend's measure_ceilings entry (ceilings.c), for the
 * plugin table in backend.c. */
#ifndef ACCEL_CPU_CEILINGS_H
#define ACCEL_CPU_CEILINGS_H

#include "accel/backend.h"

int32_t accel_cpu__measure_ceilings(void *ctx, uint32_t device, const accel_ceilings_options *opt,
                                    accel_ceilings *out);

#endif /* ACCEL_CPU_CEILINGS_H */
