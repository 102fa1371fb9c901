/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/base/loader.h — backend candidates and loading them with dlopen (loader.c). Not installed.
 */
#ifndef ACCEL_CORE_BASE_LOADER_H
#define ACCEL_CORE_BASE_LOADER_H

#include "base/plugin.h"

/* Try to load be->path; records the outcome in *be. Returns ACCEL_SUCCESS when
 * the backend loaded, else the reason's status (also in be->status). */
accel_status accel__loader_open(accel__backend *be);
/* Shut a loaded backend down and unload it. */
void accel__loader_close(accel__backend *be);

#endif /* ACCEL_CORE_BASE_LOADER_H */
