/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/runtime/selftest.h — the load-time self-test of every backend (selftest.c). Not installed.
 */
#ifndef ACCEL_CORE_RUNTIME_SELFTEST_H
#define ACCEL_CORE_RUNTIME_SELFTEST_H

#include "base/objects.h"

/* Right after the backends loaded (unless [runtime] selftest = false): on
 * each one's device 0 a write/read round trip, one elementwise op and one
 * small GEMM, compared with plain loops. A backend that fails is shut down
 * and marked not loaded with the reason. */
void accel__selftest_all(accel_runtime *rt);

#endif /* ACCEL_CORE_RUNTIME_SELFTEST_H */
