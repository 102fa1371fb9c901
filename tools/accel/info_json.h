/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* info_json.h — `accel info --json` (info_json.c). */
#ifndef ACCEL_CLI_INFO_JSON_H
#define ACCEL_CLI_INFO_JSON_H

#include <stdio.h>

#include "info_view.h"

/* The "format_version" of the document: 1. Adding keys keeps it; renaming,
 * removing or changing the meaning or type of a key raises it. */
#define INFO_JSON_FORMAT_VERSION 1

/* Writes the view v as one JSON document to out (versions, config, every
 * candidate backend with path and reason, every device, caches). */
void info_write_json(FILE *out, const info_view *v);

#endif /* ACCEL_CLI_INFO_JSON_H */
