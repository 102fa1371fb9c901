/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* strbuf.h — the growing NUL-terminated string in which the plugin writes
 * OpenCL C (program.c's generated kernels, translate.c's translation).
 * failed sticks once an allocation fails, so a writer checks it once at
 * the end; s stays NULL until the first write. */
#ifndef ACCEL_OPENCL_STRBUF_H
#define ACCEL_OPENCL_STRBUF_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/backend.h"

typedef struct ocl_strbuf {
    char *s;
    size_t len, cap;
    int failed;
} ocl_strbuf;

/* Room for n more bytes and the NUL; 0 (failed set, or set before) if not. */
static inline int ocl_sb_reserve(ocl_strbuf *b, size_t n)
{
    if (b->failed)
        return 0;
    if (b->len + n + 1 <= b->cap)
        return 1;
    size_t cap = b->cap ? b->cap : 1024;
    while (cap < b->len + n + 1)
        cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s) {
        b->failed = 1;
        return 0;
    }
    b->s = s;
    b->cap = cap;
    return 1;
}

/* The n bytes at s appended. */
static inline void ocl_sb_put(ocl_strbuf *b, const char *s, size_t n)
{
    if (!ocl_sb_reserve(b, n))
        return;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static inline void ocl_sb_printf(ocl_strbuf *b, const char *fmt, ...) ACCEL_BACKEND_PRINTF(2, 3);
/* fmt's text appended (measured first, then written into the room made). */
static inline void ocl_sb_printf(ocl_strbuf *b, const char *fmt, ...)
{
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (n < 0)
        b->failed = 1;
    else if (ocl_sb_reserve(b, (size_t)n))
        b->len += (size_t)vsnprintf(b->s + b->len, (size_t)n + 1, fmt, again);
    va_end(again);
    va_end(ap);
}

#endif /* ACCEL_OPENCL_STRBUF_H */
