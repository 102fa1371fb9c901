/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_optable.c — core/base/optable.c and the op table of accel/types.h: every
 * row of ACCEL_OP_LIST reads back through accel_op_info and accel_op_name as
 * written, the columns agree with each other (kinds, operands, expressions,
 * dtypes, rules), every BINARY and UNARY row has its generated public
 * function, and every row runs on the CPU backend as the table says. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "accel/verify.h"
#include "test_util.h"

typedef struct row {
    accel_op_code op;
    int value;
    const char *name;
    accel_op_kind kind;
    uint32_t operands, reads_output, dtypes;
    accel_tolerance_rule tol;
    double tol_n;
    const char *numpy, *f32, *f64;
} row;

#define ROW(E, V, NAME, KIND, OPS, READS, DTYPES, TOL, TOLN, COST, RD, WR, FL, NP, F32, F64)       \
    {ACCEL_OP_##E, V,     #NAME,  ACCEL_OP_KIND_##KIND,                                            \
     OPS,          READS, DTYPES, ACCEL_TOLERANCE_##TOL,                                           \
     TOLN,         NP,    F32,    F64},
static const row ROWS[] = {ACCEL_OP_LIST(ROW)};
#undef ROW
#define NROWS (sizeof ROWS / sizeof *ROWS)

/* Every BINARY and UNARY row with its public function accel_<name> (a row
 * without one in accel.h does not compile here). */
typedef accel_status (*binary_fn)(accel_queue *, accel_dtype, accel_slice, accel_slice,
                                  accel_slice);
typedef accel_status (*unary_fn)(accel_queue *, accel_dtype, accel_slice, accel_slice);
#define NONE_(E, name)
#define B_BINARY(E, name) {ACCEL_OP_##E, accel_##name},
#define B_UNARY NONE_
#define U_UNARY(E, name) {ACCEL_OP_##E, accel_##name},
#define U_BINARY NONE_
#define B_FILL NONE_
#define B_COPY NONE_
#define B_AXPBY NONE_
#define B_REDUCTION NONE_
#define B_GEMM NONE_
#define B_RANDOM NONE_
#define B_TRANSPOSE NONE_
#define B_SORT NONE_
#define B_LINALG NONE_
#define B_FFT NONE_
#define B_SCAN NONE_
#define U_FILL NONE_
#define U_COPY NONE_
#define U_AXPBY NONE_
#define U_REDUCTION NONE_
#define U_GEMM NONE_
#define U_RANDOM NONE_
#define U_TRANSPOSE NONE_
#define U_SORT NONE_
#define U_LINALG NONE_
#define U_FFT NONE_
#define U_SCAN NONE_
#define BWRAP(E, V, NAME, KIND, ...) B_##KIND(E, NAME)
#define UWRAP(E, V, NAME, KIND, ...) U_##KIND(E, NAME)
static const struct {
    accel_op_code op;
    binary_fn fn;
} BINARY_FNS[] = {ACCEL_OP_LIST(BWRAP)};
static const struct {
    accel_op_code op;
    unary_fn fn;
} UNARY_FNS[] = {ACCEL_OP_LIST(UWRAP)};
#define NBIN (sizeof BINARY_FNS / sizeof *BINARY_FNS)
#define NUN (sizeof UNARY_FNS / sizeof *UNARY_FNS)

/* Both NULL, or equal strings (the library's literals are its own copies). */
static bool same_str(const char *x, const char *y)
{
    return (!x && !y) || (x && y && strcmp(x, y) == 0);
}

static bool elementwise(accel_op_kind k)
{
    return k == ACCEL_OP_KIND_FILL || k == ACCEL_OP_KIND_COPY || k == ACCEL_OP_KIND_BINARY ||
           k == ACCEL_OP_KIND_UNARY || k == ACCEL_OP_KIND_AXPBY;
}

Test(optable, every_row_reads_back_through_accel_op_info)
{
    size_t wrappers = 0;
    for (size_t i = 0; i < NROWS; i++) {
        const row *r = &ROWS[i];
        cr_assert_eq((int)r->op, r->value);
        const accel_op_properties *p = accel_op_info(r->op);
        cr_assert_not_null(p, "%s has no row", r->name);
        cr_assert_eq(p->struct_size, sizeof *p);
        cr_assert_eq(p->op, r->op);
        cr_assert_str_eq(p->name, r->name);
        cr_assert_str_eq(accel_op_name(r->op), r->name);
        cr_assert_eq(p->kind, r->kind, "%s", r->name);
        cr_assert_eq(p->num_operands, r->operands, "%s", r->name);
        cr_assert_eq(p->reads_output, r->reads_output, "%s", r->name);
        cr_assert_eq(p->dtypes, r->dtypes, "%s", r->name);
        cr_assert_eq(p->tolerance, r->tol, "%s", r->name);
        cr_assert_eq(p->tolerance_n, r->tol_n, "%s", r->name);
        cr_assert(same_str(p->numpy, r->numpy), "%s numpy", r->name);
        cr_assert(same_str(p->expr_f32, r->f32), "%s f32", r->name);
        cr_assert(same_str(p->expr_f64, r->f64), "%s f64", r->name);
        for (size_t j = 0; j < i; j++) {
            cr_assert_neq(ROWS[j].op, r->op, "op code %d twice", r->value);
            cr_assert_str_neq(ROWS[j].name, r->name, "name %s twice", r->name);
        }
        wrappers += r->kind == ACCEL_OP_KIND_BINARY || r->kind == ACCEL_OP_KIND_UNARY;
    }
    cr_assert_eq(wrappers, NBIN + NUN);
}

Test(optable, columns_agree_with_each_other)
{
    const uint32_t f32f64 = (1u << ACCEL_F32) | (1u << ACCEL_F64);
    for (size_t i = 0; i < NROWS; i++) {
        const row *r = &ROWS[i];
        /* Operand counts by kind: the order of accel_op_desc (backend.h). */
        uint32_t want = r->kind == ACCEL_OP_KIND_FILL || r->kind == ACCEL_OP_KIND_RANDOM   ? 1
                        : r->kind == ACCEL_OP_KIND_BINARY || r->kind == ACCEL_OP_KIND_GEMM ? 3
                        : r->kind == ACCEL_OP_KIND_REDUCTION ? (r->op == ACCEL_OP_DOT ? 3 : 2)
                        : r->kind == ACCEL_OP_KIND_LINALG    ? (r->op == ACCEL_OP_SOLVE ? 3 : 2)
                                                             : 2;
        cr_assert_eq(r->operands, want, "%s has %u operands, its kind %u", r->name, r->operands,
                     want);
        /* Elementwise rows state one element's expression for both dtypes. */
        if (elementwise(r->kind))
            cr_assert(r->f32 && r->f64 && *r->f32 && *r->f64, "%s lacks its expression", r->name);
        else
            cr_assert(!r->f32 && !r->f64, "%s is not elementwise but has an expression", r->name);
        /* FFT rows name the complex dtype of their precision (RFFT and
         * IRFFT read or write its real half). */
        const uint32_t both = r->kind == ACCEL_OP_KIND_FFT ? ACCEL_DTYPES_COMPLEX : f32f64;
        cr_assert_eq(r->dtypes & both, both, "%s takes both precisions", r->name);
        /* Rules with a bound have a positive N; the exact ones none. */
        if (r->tol == ACCEL_TOLERANCE_EXACT)
            cr_assert_eq(r->tol_n, 0.0, "%s", r->name);
        else
            cr_assert(r->tol_n > 0, "%s has rule %d and N %g", r->name, r->tol, r->tol_n);
        cr_assert((r->tol == ACCEL_TOLERANCE_GEMM) == (r->kind == ACCEL_OP_KIND_GEMM), "%s",
                  r->name);
        cr_assert((r->tol == ACCEL_TOLERANCE_TERMS) == (r->kind == ACCEL_OP_KIND_AXPBY), "%s",
                  r->name);
        cr_assert((r->tol == ACCEL_TOLERANCE_FFT) == (r->kind == ACCEL_OP_KIND_FFT), "%s", r->name);
        cr_assert((r->tol == ACCEL_TOLERANCE_PREFIX) == (r->kind == ACCEL_OP_KIND_SCAN), "%s",
                  r->name);
    }
    /* The tolerance's own view: exp-like transcendental rows at 4 ulp. */
    const accel_op_code four[] = {ACCEL_OP_EXP, ACCEL_OP_LOG, ACCEL_OP_TANH,
                                  ACCEL_OP_SIN, ACCEL_OP_COS, ACCEL_OP_SIGMOID};
    for (size_t i = 0; i < sizeof four / sizeof *four; i++)
        cr_assert_eq(accel_op_info(four[i])->tolerance_n, 4.0, "%s", accel_op_name(four[i]));
}

/* Each BINARY and UNARY row on the CPU device: its public function and the
 * kind's generic call (accel_binary, accel_unary) run it (so the CPU backend
 * has a kernel for it), give the same bits, and a finite f32 result for
 * inputs in every op's domain (0.25 and 0.5). */
Test(optable, every_binary_and_unary_row_runs_on_the_cpu)
{
    accel_runtime *rt = tu_open_default();
    accel_device *cpu;
    tu_ok(accel_device_get_by_name(rt, "cpu", &cpu));
    accel_queue *q;
    tu_ok(accel_queue_create(cpu, &q));
    const double a[1] = {0.25}, b[1] = {0.5};
    tu_dbuf da = tu_upload(q, ACCEL_F32, a, 1), db = tu_upload(q, ACCEL_F32, b, 1);
    tu_dbuf d1 = tu_upload(q, ACCEL_F32, NULL, 1), d2 = tu_upload(q, ACCEL_F32, NULL, 1);
    double g1[1], g2[1];
    for (size_t i = 0; i < NBIN + NUN; i++) {
        accel_op_code op = i < NBIN ? BINARY_FNS[i].op : UNARY_FNS[i - NBIN].op;
        if (i < NBIN) {
            tu_ok(BINARY_FNS[i].fn(q, ACCEL_F32, tu_slice(&da), tu_slice(&db), tu_slice(&d1)));
            tu_ok(accel_binary(q, op, ACCEL_F32, tu_slice(&da), tu_slice(&db), tu_slice(&d2)));
        } else {
            tu_ok(UNARY_FNS[i - NBIN].fn(q, ACCEL_F32, tu_slice(&db), tu_slice(&d1)));
            tu_ok(accel_unary(q, op, ACCEL_F32, tu_slice(&db), tu_slice(&d2)));
        }
        tu_download(q, &d1, g1);
        tu_download(q, &d2, g2);
        cr_assert(isfinite(g1[0]), "%s gave %g", accel_op_name(op), g1[0]);
        cr_assert_eq(memcmp(g1, g2, sizeof g1), 0, "%s: %g by its function, %g generic",
                     accel_op_name(op), g1[0], g2[0]);
    }
    tu_release(&da), tu_release(&db), tu_release(&d1), tu_release(&d2);
    accel_runtime_close(rt);
}
