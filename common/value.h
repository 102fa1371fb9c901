/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* value.h — the value parsers of every setting (common/value.c), shared by
 * the runtime (plugins.ini and the ACCEL_* environment), libaccel_mpi (its
 * ACCEL_MPI_* variables) and the `accel` program, so that a boolean or a log
 * level is read one way everywhere. Built into each privately; not public
 * API. Each parser returns false (leaving *out alone) when text is not a
 * valid value; the caller words the error, since it knows where the text
 * came from (file:line or the variable's name). */
#ifndef ACCEL_COMMON_VALUE_H
#define ACCEL_COMMON_VALUE_H

#include <stdbool.h>
#include <stdint.h>

/* The words accel__parse_bool takes, for error messages. */
#define ACCEL__BOOL_WORDS "1, true, yes, on, 0, false, no or off, in any case"

/* true/yes/on/1 and false/no/off/0, any case. */
bool accel__parse_bool(const char *text, bool *out);
/* A decimal number from 0 to 1. */
bool accel__parse_fraction(const char *text, double *out);
/* Decimal digits only, at most max. */
bool accel__parse_uint(const char *text, uint64_t max, uint64_t *out);
/* Index of text in the NULL-terminated words (any case), else -1. */
int accel__parse_word(const char *text, const char *const *words);
/* True when text says "none": empty, off, none, false, no or 0. */
bool accel__parse_off(const char *text);
/* debug, info, warn (warning), error, off -> ACCEL_LOG_*. */
bool accel__parse_log_level(const char *text, int *out);

/* The boolean environment variable `name`: 0 when it is unset or empty
 * (*out untouched), 1 when it holds one of ACCEL__BOOL_WORDS (*out set), -1
 * when it holds anything else (the caller refuses it, naming name and
 * value). */
int accel__env_bool(const char *name, bool *out);

#endif
