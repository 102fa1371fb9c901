/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* json.h — JSON output shared by the runtime's trace writer (core/base/trace.c) and
 * the `accel` program (bench, info): strings that are valid UTF-8 JSON
 * whatever bytes they are given, and numbers that are valid JSON whatever
 * value. Built into libaccel privately and into the program; not public API. */
#ifndef ACCEL_COMMON_JSON_H
#define ACCEL_COMMON_JSON_H

#include <stdio.h>

/* Write s (NUL-terminated; NULL is written as "") to f as a quoted JSON
 * string (RFC 8259). '"' and '\\' are escaped, control bytes U+0000..U+001F
 * become \b \f \n \r \t or \u00XX, and every byte sequence that is not
 * well-formed UTF-8 (stray continuation bytes, truncated sequences, overlong
 * forms, surrogates, values above U+10FFFF) becomes \ufffd, one per maximal
 * subpart as Unicode 15 section 3.9 (U+FFFD substitution) recommends, which
 * is also what Python's bytes.decode("utf-8", "replace") produces. Other
 * characters are copied as they are, so the output is valid UTF-8. */
void accel__json_string(FILE *f, const char *s);

/* Write v as a JSON number ("%.6g"), or null when v is NaN or infinite (JSON
 * has neither). */
void accel__json_number(FILE *f, double v);

#endif /* ACCEL_COMMON_JSON_H */
