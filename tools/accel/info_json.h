/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* info_json.h — `accel info --json` (info_json.c). */
#ifndef ACCEL_CLI_INFO_JSON_H
#define ACCEL_CLI_INFO_JSON_H

#include <stdio.h>

#include "info_view.h"

/* Writes the view v as one JSON document to out (versions, config, every
 * candidate backend with path and reason, every device, caches). */
void info_write_json(FILE *out, const info_view *v);

#endif /* ACCEL_CLI_INFO_JSON_H */
