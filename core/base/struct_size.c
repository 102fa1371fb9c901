/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/struct_size.c — the struct_size rule of the versioned structs of the
 * public API (options and descriptors passed in, records filled out).
 *
 * A struct only grows at its end. Its first version is the layout it had
 * when it was first published (the V1 sizes in internal.h); a struct_size
 * below that is refused, since such a caller is not one of ours (usually an
 * unset struct_size). In: the caller's first min(struct_size, ours) bytes are
 * read over our defaults, so an older caller's missing fields keep their
 * _init values and a newer caller's extra fields are ignored. Out: at most
 * min(struct_size, ours) bytes are written, never more, and struct_size
 * becomes that size, so a caller built against an older, smaller struct is
 * never overrun. Nothing else of the struct is read before struct_size.
 * A NULL struct is refused (ACCEL_ERROR_INVALID_ARGUMENT). Also the opening
 * of a public call that fills one (accel__enter_struct_out, handle.h). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/handle.h"
#include "base/status.h"
#include "base/struct_size.h"

static accel_status too_small(const char *fn, const char *arg, uint32_t size, size_t v1)
{
    return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                       "%s: %s->struct_size is %u, smaller than %zu, the size of this struct's "
                       "first version (call its _init function, or set struct_size to sizeof)",
                       fn, arg, size, v1);
}

/* Where p is not NULL, *size_out = p's struct_size, refused (with "fn: arg
 * is NULL" or too_small's message) where below v1. */
static accel_status read_size(const char *fn, const char *arg, const void *p, size_t v1,
                              uint32_t *size_out)
{
    if (!p)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, arg);
    memcpy(size_out, p, sizeof *size_out);
    return *size_out < v1 ? too_small(fn, arg, *size_out, v1) : ACCEL_SUCCESS;
}

/* struct_size = size, written with memcpy (s may be unaligned). */
static void stamp(void *s, size_t size)
{
    uint32_t now = (uint32_t)size;
    memcpy(s, &now, sizeof now);
}

/* read_size, then the bytes both sides know: min(struct_size, ours). */
static accel_status known_bytes(const char *fn, const char *arg, const void *p, size_t v1,
                                size_t ours, size_t *bytes)
{
    uint32_t size = 0;
    accel_status st = read_size(fn, arg, p, v1, &size);
    if (st == ACCEL_SUCCESS)
        *bytes = size < ours ? size : ours;
    return st;
}

bool accel__struct_init(void *s, size_t bytes)
{
    if (!s)
        return false;
    memset(s, 0, bytes);
    stamp(s, bytes);
    return true;
}

accel_status accel__struct_in(const char *fn, const char *arg, const void *in, size_t v1,
                              size_t ours, void *local)
{
    size_t bytes = 0;
    accel_status st = known_bytes(fn, arg, in, v1, ours, &bytes);
    if (st != ACCEL_SUCCESS)
        return st;
    memcpy(local, in, bytes);
    stamp(local, ours);
    return ACCEL_SUCCESS;
}

accel_status accel__struct_out_size(const char *fn, const char *arg, const void *out, size_t v1,
                                    size_t ours, size_t *out_bytes)
{
    return known_bytes(fn, arg, out, v1, ours, out_bytes);
}

void accel__struct_out_write(void *out, const void *ours, size_t bytes)
{
    memcpy(out, ours, bytes);
    stamp(out, bytes);
}

accel_status accel__enter_struct_out(accel__call *c, const char *fn, const void *handle,
                                     accel__type type, const char *name, void *out_obj,
                                     const void *out, size_t v1, size_t ours, size_t *out_bytes)
{
    accel_status st = accel__enter(c, fn, handle, type, name, out_obj);
    return st == ACCEL_SUCCESS ? accel__struct_out_size(fn, "out", out, v1, ours, out_bytes) : st;
}
