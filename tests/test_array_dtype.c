/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_array_dtype.c — the dtype table (accel_dtype_size, _name, _kind_of)
 * and promotion (accel_result_type, accel_result_type_scalar) against the
 * Array API standard's promotion table (2023.12), written out here by hand,
 * and NumPy 2's np.result_type for the mixed kinds the standard leaves open. */
#include <criterion/criterion.h>

#include "accel/array.h"
#include "test_util.h"

#define B ACCEL_BOOL
#define I1 ACCEL_I8
#define I2 ACCEL_I16
#define I4 ACCEL_I32
#define I8 ACCEL_I64
#define U1 ACCEL_U8
#define U2 ACCEL_U16
#define U4 ACCEL_U32
#define U8 ACCEL_U64
#define F2 ACCEL_F16
#define BF ACCEL_BF16
#define F4 ACCEL_F32
#define F8 ACCEL_F64
#define C8 ACCEL_C64
#define C16 ACCEL_C128

Test(array_dtype, table_facts)
{
    static const struct {
        accel_dtype dt;
        size_t size;
        const char *name;
        accel_dtype_kind kind;
    } want[] = {
        {F4, 4, "f32", ACCEL_DTYPE_KIND_FLOAT},      {F8, 8, "f64", ACCEL_DTYPE_KIND_FLOAT},
        {F2, 2, "f16", ACCEL_DTYPE_KIND_FLOAT},      {BF, 2, "bf16", ACCEL_DTYPE_KIND_FLOAT},
        {I4, 4, "i32", ACCEL_DTYPE_KIND_INT},        {I8, 8, "i64", ACCEL_DTYPE_KIND_INT},
        {U1, 1, "u8", ACCEL_DTYPE_KIND_UINT},        {B, 1, "bool", ACCEL_DTYPE_KIND_BOOL},
        {I1, 1, "i8", ACCEL_DTYPE_KIND_INT},         {I2, 2, "i16", ACCEL_DTYPE_KIND_INT},
        {U2, 2, "u16", ACCEL_DTYPE_KIND_UINT},       {U4, 4, "u32", ACCEL_DTYPE_KIND_UINT},
        {U8, 8, "u64", ACCEL_DTYPE_KIND_UINT},       {C8, 8, "c64", ACCEL_DTYPE_KIND_COMPLEX},
        {C16, 16, "c128", ACCEL_DTYPE_KIND_COMPLEX},
    };
    /* Today's values keep their meaning (ABI): f32 1 ... u8 7. */
    cr_assert_eq(F4, 1);
    cr_assert_eq(U1, 7);
    cr_assert_eq(B, 8);
    cr_assert_eq(C16, 15);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        cr_assert_eq(accel_dtype_size(want[i].dt), want[i].size, "%s", want[i].name);
        cr_assert_str_eq(accel_dtype_name(want[i].dt), want[i].name);
        cr_assert_eq(accel_dtype_kind_of(want[i].dt), want[i].kind, "%s", want[i].name);
    }
    const accel_dtype bad[] = {ACCEL_DTYPE_INVALID, ACCEL_DTYPE_COUNT_, (accel_dtype)99,
                               (accel_dtype)-1};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_eq(accel_dtype_size(bad[i]), 0u);
        cr_assert_str_eq(accel_dtype_name(bad[i]), "invalid");
        cr_assert_eq(accel_dtype_kind_of(bad[i]), ACCEL_DTYPE_KIND_INVALID);
    }
    /* The device bitmask has room for every dtype. */
    cr_assert_lt((int)ACCEL_DTYPE_COUNT_, 32);
}

typedef struct {
    accel_dtype a, b, want;
} triple;

/* The standard's table (integers, floats, complex) and the NumPy 2 answers
 * for mixed kinds (np.result_type(np.int32, np.float32) is float64, ...). */
static const triple promotions[] = {
    /* signed */
    {I1, I1, I1},
    {I1, I2, I2},
    {I1, I4, I4},
    {I1, I8, I8},
    {I2, I4, I4},
    {I4, I8, I8},
    /* unsigned */
    {U1, U2, U2},
    {U1, U4, U4},
    {U1, U8, U8},
    {U2, U8, U8},
    {U4, U8, U8},
    /* mixed signedness: the standard's table */
    {I1, U1, I2},
    {I1, U2, I4},
    {I1, U4, I8},
    {I2, U1, I2},
    {I2, U2, I4},
    {I2, U4, I8},
    {I4, U1, I4},
    {I4, U2, I4},
    {I4, U4, I8},
    {I8, U1, I8},
    {I8, U2, I8},
    {I8, U4, I8},
    /* beyond the table: NumPy */
    {I8, U8, F8},
    {I1, U8, F8},
    /* floats and complex */
    {F4, F8, F8},
    {F4, C8, C8},
    {F8, C8, C16},
    {F4, C16, C16},
    {C8, C16, C16},
    {F2, F4, F4},
    {F2, BF, F4},
    {BF, F8, F8},
    {F2, C8, C8},
    /* bool with anything: that dtype (NumPy) */
    {B, B, B},
    {B, I1, I1},
    {B, U8, U8},
    {B, F2, F2},
    {B, C16, C16},
    /* integers with floats (NumPy) */
    {I1, F2, F2},
    {U1, F2, F2},
    {I2, F2, F4},
    {U2, F2, F4},
    {I4, F2, F8},
    {I4, F4, F8},
    {I8, F4, F8},
    {U8, F4, F8},
    {I1, F4, F4},
    {I2, F4, F4},
    {I4, C8, C16},
    {I1, C8, C8},
};

Test(array_dtype, result_type_table_and_symmetry)
{
    for (size_t i = 0; i < sizeof promotions / sizeof promotions[0]; i++) {
        const triple *t = &promotions[i];
        accel_dtype ab = ACCEL_DTYPE_INVALID, ba = ACCEL_DTYPE_INVALID;
        tu_ok(accel_result_type(t->a, t->b, &ab));
        tu_ok(accel_result_type(t->b, t->a, &ba));
        cr_assert_eq(ab, t->want, "(%s, %s) -> %s, expected %s", accel_dtype_name(t->a),
                     accel_dtype_name(t->b), accel_dtype_name(ab), accel_dtype_name(t->want));
        cr_assert_eq(ba, t->want, "(%s, %s) -> %s, expected %s", accel_dtype_name(t->b),
                     accel_dtype_name(t->a), accel_dtype_name(ba), accel_dtype_name(t->want));
    }
    /* Every pair: symmetric, and a dtype with itself is itself. */
    for (int a = 1; a < ACCEL_DTYPE_COUNT_; a++)
        for (int b = 1; b < ACCEL_DTYPE_COUNT_; b++) {
            accel_dtype x, y;
            tu_ok(accel_result_type((accel_dtype)a, (accel_dtype)b, &x));
            tu_ok(accel_result_type((accel_dtype)b, (accel_dtype)a, &y));
            cr_assert_eq(x, y, "%d %d", a, b);
            if (a == b)
                cr_assert_eq(x, (accel_dtype)a);
        }
}

Test(array_dtype, result_type_scalar)
{
    static const struct {
        accel_dtype a;
        accel_dtype_kind k;
        accel_dtype want;
    } rows[] = {
        {F4, ACCEL_DTYPE_KIND_FLOAT, F4},    {F4, ACCEL_DTYPE_KIND_INT, F4},
        {F4, ACCEL_DTYPE_KIND_BOOL, F4},     {I1, ACCEL_DTYPE_KIND_INT, I1},
        {U1, ACCEL_DTYPE_KIND_INT, U1},      {U1, ACCEL_DTYPE_KIND_UINT, U1},
        {I2, ACCEL_DTYPE_KIND_BOOL, I2},     {B, ACCEL_DTYPE_KIND_BOOL, B},
        {B, ACCEL_DTYPE_KIND_INT, I8},       {B, ACCEL_DTYPE_KIND_FLOAT, F8},
        {I4, ACCEL_DTYPE_KIND_FLOAT, F8},    {F4, ACCEL_DTYPE_KIND_COMPLEX, C8},
        {F8, ACCEL_DTYPE_KIND_COMPLEX, C16}, {F2, ACCEL_DTYPE_KIND_COMPLEX, C8},
        {I4, ACCEL_DTYPE_KIND_COMPLEX, C16}, {C8, ACCEL_DTYPE_KIND_FLOAT, C8},
        {C8, ACCEL_DTYPE_KIND_COMPLEX, C8},  {BF, ACCEL_DTYPE_KIND_FLOAT, BF},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        accel_dtype got = ACCEL_DTYPE_INVALID;
        tu_ok(accel_result_type_scalar(rows[i].a, rows[i].k, &got));
        cr_assert_eq(got, rows[i].want, "row %zu: %s with kind %d -> %s", i,
                     accel_dtype_name(rows[i].a), (int)rows[i].k, accel_dtype_name(got));
    }
}

Test(array_dtype, bad_input)
{
    accel_dtype out = ACCEL_F32;
    tu_assert_status(accel_result_type((accel_dtype)99, F4, &out), ACCEL_ERROR_DTYPE_MISMATCH,
                     "dtype 99");
    cr_assert(strstr(accel_last_error(), "accel_result_type: a:"), "%s", accel_last_error());
    tu_assert_status(accel_result_type(F4, ACCEL_DTYPE_INVALID, &out), ACCEL_ERROR_DTYPE_MISMATCH,
                     "invalid");
    cr_assert(strstr(accel_last_error(), "b:"), "%s", accel_last_error());
    tu_assert_status(accel_result_type(F4, F8, NULL), ACCEL_ERROR_INVALID_ARGUMENT, "NULL");
    tu_assert_status(accel_result_type_scalar(F4, (accel_dtype_kind)9, &out),
                     ACCEL_ERROR_INVALID_ARGUMENT, "kind 9");
    cr_assert(strstr(accel_last_error(), "scalar_kind 9"), "%s", accel_last_error());
    tu_assert_status(accel_result_type_scalar(ACCEL_DTYPE_COUNT_, ACCEL_DTYPE_KIND_INT, &out),
                     ACCEL_ERROR_DTYPE_MISMATCH, "count");
    cr_assert_eq(out, ACCEL_F32, "output untouched on error");
}
