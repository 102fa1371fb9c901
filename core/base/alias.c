/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/base/alias.c — whether two buffers share memory (accel__memory_alias
 * and its forms in objects.h): one buffer, or two of one device of which
 * one wraps memory allocated elsewhere, compared by native address. Every
 * overlap check of an output against its inputs asks this: the built-in
 * ops, the array functions, user kernels, graph fusion and rebinding, byte
 * copies. A leaf: it reads buffer objects, and enters a handle through the
 * handle table (handle.c) before reading its object. */
#include <stdbool.h>
#include <stdint.h>

#include "base/handle.h"
#include "base/objects.h"

static accel__memory memory_of(const accel_buffer *b)
{
    return (accel__memory){b, b->dev, b->base, b->wrapped, b->bytes};
}

bool accel__memory_of_handle(const accel_buffer *buf, accel__memory *out)
{
    *out = (accel__memory){NULL, NULL, 0, false, 0};
    ACCEL__ENTER_GETTER("accel__memory_of_handle", buf, ACCEL__T_BUFFER, false);
    *out = memory_of(buf);
    return true;
}

bool accel__memory_alias(const accel__memory *a, const accel__memory *b, int64_t *shift)
{
    *shift = 0;
    if (!a->id || !b->id)
        return false;
    if (a->id == b->id)
        return true;
    if (a->dev != b->dev || !(a->wrapped || b->wrapped) || !a->base || !b->base)
        return false;
    *shift = (int64_t)(b->base - a->base);
    return true;
}

bool accel__buffers_alias(const accel_buffer *a, const accel_buffer *b, int64_t *shift)
{
    *shift = 0;
    if (!a || !b)
        return false;
    accel__memory ma = memory_of(a), mb = memory_of(b);
    return accel__memory_alias(&ma, &mb, shift);
}

bool accel__memory_meet(const accel__memory *a, uint64_t alo, uint64_t ahi, const accel__memory *b,
                        uint64_t blo, uint64_t bhi, bool *same)
{
    int64_t sh;
    if (same)
        *same = false;
    if (!accel__memory_alias(a, b, &sh))
        return false;
    /* b's range in a's bytes; ranges lie inside buffers, far from 2^63 */
    int64_t lo = (int64_t)blo + sh, hi = (int64_t)bhi + sh;
    bool meet = (int64_t)alo < hi && lo < (int64_t)ahi;
    if (same)
        *same = meet && (int64_t)alo == lo;
    return meet;
}

bool accel__bytes_meet(const accel_buffer *a, uint64_t alo, uint64_t ahi, const accel_buffer *b,
                       uint64_t blo, uint64_t bhi, bool *same)
{
    if (same)
        *same = false;
    if (!a || !b)
        return false;
    accel__memory ma = memory_of(a), mb = memory_of(b);
    return accel__memory_meet(&ma, alo, ahi, &mb, blo, bhi, same);
}
