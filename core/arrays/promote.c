/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/arrays/promote.c — type promotion: the Array API standard's table
 * (2023.12, "Type Promotion Rules"), and NumPy 2's answers where the
 * standard leaves them open (accel/array.h says which). */
#include <stdbool.h>

#include "arrays/arrays_internal.h"
#include "base/status.h"

/* Integer width in bits (8..64), 0 for other kinds. */
static int int_bits(accel_dtype dt)
{
    accel_dtype_kind k = accel_dtype_kind_of(dt);
    return k == ACCEL_DTYPE_KIND_INT || k == ACCEL_DTYPE_KIND_UINT ? 8 * (int)accel_dtype_size(dt)
                                                                   : 0;
}

static accel_dtype signed_of_bits(int bits)
{
    return bits <= 8 ? ACCEL_I8 : bits <= 16 ? ACCEL_I16 : bits <= 32 ? ACCEL_I32 : ACCEL_I64;
}

static accel_dtype unsigned_of_bits(int bits)
{
    return bits <= 8 ? ACCEL_U8 : bits <= 16 ? ACCEL_U16 : bits <= 32 ? ACCEL_U32 : ACCEL_U64;
}

/* Two integers: the standard's table; (int64, uint64) -> float64 (NumPy). */
static accel_dtype promote_ints(accel_dtype a, accel_dtype b)
{
    bool sa = accel_dtype_kind_of(a) == ACCEL_DTYPE_KIND_INT;
    bool sb = accel_dtype_kind_of(b) == ACCEL_DTYPE_KIND_INT;
    int wa = int_bits(a), wb = int_bits(b);
    if (sa == sb)
        return sa ? signed_of_bits(wa > wb ? wa : wb) : unsigned_of_bits(wa > wb ? wa : wb);
    int ws = sa ? wa : wb, wu = sa ? wb : wa; /* signed and unsigned widths */
    if (wu < ws)
        return signed_of_bits(ws);
    return wu >= 64 ? ACCEL_F64 : signed_of_bits(2 * wu);
}

/* Precision level of a float or complex dtype: 1 half (f16, bf16), 2 single,
 * 3 double. An integer counts as the float that holds it (NumPy). */
static int float_level(accel_dtype dt)
{
    switch (accel_dtype_kind_of(dt)) {
    case ACCEL_DTYPE_KIND_FLOAT:
        return dt == ACCEL_F64 ? 3 : dt == ACCEL_F32 ? 2 : 1;
    case ACCEL_DTYPE_KIND_COMPLEX:
        return dt == ACCEL_C128 ? 3 : 2;
    case ACCEL_DTYPE_KIND_INT:
    case ACCEL_DTYPE_KIND_UINT:
        return int_bits(dt) <= 8 ? 1 : int_bits(dt) <= 16 ? 2 : 3;
    case ACCEL_DTYPE_KIND_BOOL:
    case ACCEL_DTYPE_KIND_INVALID:
        break;
    }
    return 0;
}

/* At least one operand is a float or complex. */
static accel_dtype promote_floats(accel_dtype a, accel_dtype b)
{
    bool cplx = accel_dtype_kind_of(a) == ACCEL_DTYPE_KIND_COMPLEX ||
                accel_dtype_kind_of(b) == ACCEL_DTYPE_KIND_COMPLEX;
    int la = float_level(a), lb = float_level(b), l = la > lb ? la : lb;
    if (cplx)
        return l == 3 ? ACCEL_C128 : ACCEL_C64;
    if (l == 1) {
        /* Halves: the same one stays (an int8 promotes to f16 as NumPy);
         * f16 with bf16 -> f32 (neither holds the other). */
        accel_dtype ha =
            la == 1 && accel_dtype_kind_of(a) == ACCEL_DTYPE_KIND_FLOAT ? a : ACCEL_F16;
        accel_dtype hb =
            lb == 1 && accel_dtype_kind_of(b) == ACCEL_DTYPE_KIND_FLOAT ? b : ACCEL_F16;
        bool fa = accel_dtype_kind_of(a) == ACCEL_DTYPE_KIND_FLOAT;
        bool fb = accel_dtype_kind_of(b) == ACCEL_DTYPE_KIND_FLOAT;
        if (fa && fb)
            return ha == hb ? ha : ACCEL_F32;
        return fa ? ha : hb;
    }
    return l == 3 ? ACCEL_F64 : ACCEL_F32;
}

accel_status accel_result_type(accel_dtype a, accel_dtype b, accel_dtype *out)
{
    static const char fn[] = "accel_result_type";
    if (accel_dtype_kind_of(a) == ACCEL_DTYPE_KIND_INVALID)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: a: dtype %d is unknown", fn, (int)a);
    if (accel_dtype_kind_of(b) == ACCEL_DTYPE_KIND_INVALID)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: b: dtype %d is unknown", fn, (int)b);
    if (!out)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
    accel_dtype_kind ka = accel_dtype_kind_of(a), kb = accel_dtype_kind_of(b);
    if (a == b || kb == ACCEL_DTYPE_KIND_BOOL)
        *out = a;
    else if (ka == ACCEL_DTYPE_KIND_BOOL)
        *out = b;
    else if (int_bits(a) && int_bits(b))
        *out = promote_ints(a, b);
    else
        *out = promote_floats(a, b);
    return ACCEL_SUCCESS;
}

accel_status accel_result_type_scalar(accel_dtype a, accel_dtype_kind scalar_kind, accel_dtype *out)
{
    static const char fn[] = "accel_result_type_scalar";
    accel_dtype_kind ka = accel_dtype_kind_of(a);
    if (ka == ACCEL_DTYPE_KIND_INVALID)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: a: dtype %d is unknown", fn, (int)a);
    if (scalar_kind == ACCEL_DTYPE_KIND_UINT)
        scalar_kind = ACCEL_DTYPE_KIND_INT;
    if (scalar_kind != ACCEL_DTYPE_KIND_BOOL && scalar_kind != ACCEL_DTYPE_KIND_INT &&
        scalar_kind != ACCEL_DTYPE_KIND_FLOAT && scalar_kind != ACCEL_DTYPE_KIND_COMPLEX)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: scalar_kind %d is not ACCEL_DTYPE_KIND_BOOL, _INT, _FLOAT or "
                           "_COMPLEX",
                           fn, (int)scalar_kind);
    if (!out)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
    /* Order of kinds: bool < int < float < complex (an unsigned array is an int one). */
    int ra = ka == ACCEL_DTYPE_KIND_BOOL ? 0 : ka <= ACCEL_DTYPE_KIND_UINT ? 1 : ka - 2;
    int rs = scalar_kind == ACCEL_DTYPE_KIND_BOOL  ? 0
             : scalar_kind == ACCEL_DTYPE_KIND_INT ? 1
                                                   : scalar_kind - 2;
    if (rs <= ra)
        *out = a;
    else if (scalar_kind == ACCEL_DTYPE_KIND_COMPLEX)
        *out = ka == ACCEL_DTYPE_KIND_FLOAT && a != ACCEL_F64 ? ACCEL_C64 : ACCEL_C128;
    else if (scalar_kind == ACCEL_DTYPE_KIND_FLOAT)
        *out = ACCEL_F64;
    else
        *out = ACCEL_I64;
    return ACCEL_SUCCESS;
}
