/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/base/sbuf.h — the growable text buffer (sbuf.c): generated kernel
 * source (kernels/, arrays/, graphs/fuse.c) and formatted reports. Not
 * installed. */
#ifndef ACCEL_CORE_BASE_SBUF_H
#define ACCEL_CORE_BASE_SBUF_H

#include <stdbool.h>
#include <stddef.h>

#include "base/status.h"

/* Zero-initialise; s is NUL-terminated once anything was put; oom is set
 * (and later puts ignored) when memory ran out. The caller frees s. */
typedef struct accel__sbuf {
    char *s;
    size_t len, cap;
    bool oom;
} accel__sbuf;

/* Append printf-formatted text, doubling the buffer (from 8 KiB) as needed. */
void accel__sbuf_put(accel__sbuf *b, const char *fmt, ...) ACCEL__PRINTF(2, 3);

/* Append the n bytes at s (no NUL among them), as accel__sbuf_put. */
void accel__sbuf_add(accel__sbuf *b, const char *s, size_t n);

/* Append the string s, as accel__sbuf_put. */
void accel__sbuf_str(accel__sbuf *b, const char *s);

/* A malloc'd copy of s; NULL where s is NULL or memory ran out. */
char *accel__str_dup(const char *s);

#endif /* ACCEL_CORE_BASE_SBUF_H */
