/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/comm/comm.h — device communicators' teardown at runtime close (collective.c). Not installed.
 */
#ifndef ACCEL_CORE_COMM_COMM_H
#define ACCEL_CORE_COMM_COMM_H

#include "base/objects.h"

/* collective.c, for accel_runtime_close: kill the handles of the live
 * device communicators (lock held), then destroy them (before the backends
 * unload). */
void accel__comms_kill_handles(accel_runtime *rt);
void accel__comms_close(accel_runtime *rt);

#endif /* ACCEL_CORE_COMM_COMM_H */
