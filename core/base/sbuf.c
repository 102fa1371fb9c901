/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/base/sbuf.c — the growable text buffer of sbuf.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sbuf.h"

/* Room for n more bytes and the NUL; false (and oom set) when there is none. */
static bool reserve(accel__sbuf *b, size_t n)
{
    if (b->oom)
        return false;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 8192;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->s, cap);
        if (!p) {
            b->oom = true;
            return false;
        }
        b->s = p;
        b->cap = cap;
    }
    return true;
}

void accel__sbuf_add(accel__sbuf *b, const char *s, size_t n)
{
    if (!reserve(b, n))
        return;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void accel__sbuf_str(accel__sbuf *b, const char *s)
{
    accel__sbuf_add(b, s, strlen(s));
}

void accel__sbuf_put(accel__sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

char *accel__str_dup(const char *s)
{
    return s ? strdup(s) : NULL;
}
