/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_bad_input_matrix.c — the bad-input matrix: every public
 * function of accel.h and npy.h against every kind of bad input that applies
 * to it: NULL, a released handle, zero size, size/offset overflow
 * (count*elemsize past SIZE_MAX, offset+count past the buffer), a wrong
 * dtype, operands on another device (the mock test plugin is the second
 * device), aliasing where it is not allowed, an unknown device name.
 *
 * Each cell asserts the documented status, a message naming the function,
 * and that nothing outside the call's range changed: every buffer starts as
 * the TU_SENTINEL pattern (guards included) and is read back after the
 * failed calls. No crash is part of the assertion; under the debug-asan
 * preset it also means no invalid access.
 *
 * The bodies are plain functions so that one test can run them all in one
 * process and check that every ACCEL_API function declared in the public
 * headers went through at least one cell (a new function without bad-input
 * coverage fails that test by name). */
#define _XOPEN_SOURCE 700
#include <criterion/criterion.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "accel/collective.h"
#include "accel/dlpack.h"
#include "accel/kernel.h"
#include "accel/npy.h"
#include "accel/verify.h"
#include "test_util.h"

/* Under AddressSanitizer, let a huge malloc return NULL (as libc does) rather
 * than abort: out-of-memory paths are what these tests check. The
 * environment's ASAN_OPTIONS still override this default. */
__attribute__((used, visibility("default"))) const char *__asan_default_options(void);
__attribute__((used, visibility("default"))) const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1";
}

static accel_runtime *rt;
static accel_device *cpu, *mock;
static accel_queue *q, *mq;

static void setup(void)
{
    accel_status s = tu_open_ini(tu_fmt("[runtime]\norder = cpu, mock\n"
                                        "[backend.cpu]\nlibrary = %s\nthreads = 2\n"
                                        "[backend.mock]\nlibrary = %s\n",
                                        TU_CPU_PLUGIN, TU_TEST_PLUGIN("mock")),
                                 &rt, NULL);
    cr_assert(s == ACCEL_SUCCESS, "open: %s", accel_last_error());
    tu_ok(accel_device_get_by_name(rt, "cpu", &cpu));
    tu_ok(accel_device_get_by_name(rt, "mock", &mock));
    tu_ok(accel_queue_create(cpu, &q));
    tu_ok(accel_queue_create(mock, &mq));
}

static void teardown(void)
{
    accel_runtime_close(rt);
}

TestSuite(bad_input_matrix, .init = setup, .fini = teardown);

/* ------------------------------------------------------------ coverage */

static const char *g_covered[512];
static size_t g_ncovered;

static void cover(const char *fn)
{
    for (size_t i = 0; i < g_ncovered; ++i)
        if (strcmp(g_covered[i], fn) == 0)
            return;
    cr_assert(g_ncovered < sizeof g_covered / sizeof *g_covered);
    g_covered[g_ncovered++] = fn;
}

/* The call failed with `expected` and accel_last_error() names fn. */
static size_t g_cells; /* every expect_fail and expect_ok */

#define expect_fail(call, expected, fn)                                                            \
    do {                                                                                           \
        cover(fn);                                                                                 \
        g_cells++;                                                                                 \
        accel_status st_ = (call);                                                                 \
        cr_assert(st_ == (expected), "%s: got %s, expected %s (\"%s\")", #call,                    \
                  accel_status_name(st_), accel_status_name(expected), accel_last_error());        \
        cr_assert(strstr(accel_last_error(), fn) != NULL, "%s: message \"%s\" does not name %s",   \
                  #call, accel_last_error(), fn);                                                  \
    } while (0)

#define expect_ok(call, fn)                                                                        \
    do {                                                                                           \
        cover(fn);                                                                                 \
        g_cells++;                                                                                 \
        accel_status st_ = (call);                                                                 \
        cr_assert(st_ == ACCEL_SUCCESS, "%s: got %s (\"%s\")", #call, accel_status_name(st_),      \
                  accel_last_error());                                                             \
    } while (0)

/* ------------------------------------------------------------ sentinels */

#define N 16 /* payload elements of every test buffer */

/* An f32 buffer on q's device: N payload elements, TU_GUARD guards each side,
 * everything TU_SENTINEL. */
static tu_dbuf sentinel_on(accel_queue *queue)
{
    return tu_upload(queue, ACCEL_F32, NULL, N);
}

static size_t total_elems(const tu_dbuf *b)
{
    return b->count + 2 * b->guard;
}

/* Every element of the buffer, guards included, is still the sentinel. */
static void expect_untouched_on(accel_queue *queue, const tu_dbuf *b, const char *what)
{
    tu_ok(accel_queue_finish(queue));
    size_t n = total_elems(b);
    float *v = malloc(n * sizeof *v);
    cr_assert(v);
    tu_ok(accel_queue_read_blocking(queue, b->buf, 0, v, n * sizeof *v));
    for (size_t i = 0; i < n; ++i)
        cr_assert((double)v[i] == TU_SENTINEL, "%s: element %zu changed to %g", what, i,
                  (double)v[i]);
    free(v);
}

static void expect_untouched(const tu_dbuf *b, const char *what)
{
    expect_untouched_on(q, b, what);
}

/* A buffer handle that was live and has been released. */
static accel_buffer *released_buffer(void)
{
    accel_buffer *b;
    tu_ok(accel_buffer_create(cpu, 64, &b));
    accel_buffer_release(b);
    return b;
}

/* A runtime, and its device, that were live and have been closed. */
static void closed_runtime(accel_runtime **out_rt, accel_device **out_dev)
{
    accel_runtime *r;
    tu_ok(accel_runtime_open(TU_DEFAULT_CONFIG, &r));
    tu_ok(accel_device_get(r, 0, out_dev));
    accel_runtime_close(r);
    *out_rt = r;
}

/* ------------------------------------------------------------ slice ops */

typedef enum op_kind {
    K_OUT,     /* [0] out                      fill, random_* */
    K_X_OUT,   /* [0] x, [1] out               copy, scale, unary */
    K_A_B_OUT, /* [0] a, [1] b, [2] out        binary */
    K_X_Y,     /* [0] x, [1] y (in and out)    axpby */
    K_RED,     /* [0] x, [1] out (count 1)     reductions */
    K_DOT      /* [0] x, [1] y, [2] out (1)    dot */
} op_kind;

typedef accel_status (*op_call)(accel_queue *q, accel_dtype dt, const accel_slice *s);

typedef struct op_entry {
    const char *name;
    op_kind kind;
    op_call call;
    bool half_ok;   /* f16 is accepted (by validation) */
    bool empty_err; /* zero elements is INVALID_ARGUMENT (max/min: no identity) */
} op_entry;

#define W1(fn, ...)                                                                                \
    static accel_status call_##fn(accel_queue *qq, accel_dtype dt, const accel_slice *s)           \
    {                                                                                              \
        return fn(qq, dt, __VA_ARGS__);                                                            \
    }
W1(accel_fill, 1.0, s[0])
W1(accel_random_uniform, 7, 0, s[0])
W1(accel_random_normal, 7, 0, 0.0, 1.0, s[0])
W1(accel_copy, s[0], s[1])
W1(accel_scale, 2.0, s[0], s[1])
W1(accel_neg, s[0], s[1])
W1(accel_abs, s[0], s[1])
W1(accel_sqrt, s[0], s[1])
W1(accel_exp, s[0], s[1])
W1(accel_log, s[0], s[1])
W1(accel_tanh, s[0], s[1])
W1(accel_relu, s[0], s[1])
W1(accel_sin, s[0], s[1])
W1(accel_cos, s[0], s[1])
W1(accel_sigmoid, s[0], s[1])
W1(accel_add, s[0], s[1], s[2])
W1(accel_sub, s[0], s[1], s[2])
W1(accel_mul, s[0], s[1], s[2])
W1(accel_div, s[0], s[1], s[2])
W1(accel_max, s[0], s[1], s[2])
W1(accel_min, s[0], s[1], s[2])
W1(accel_axpby, 1.0, s[0], 2.0, s[1])
W1(accel_sum, s[0], s[1])
W1(accel_reduce_max, s[0], s[1])
W1(accel_reduce_min, s[0], s[1])
W1(accel_dot, s[0], s[1], s[2])

static accel_status call_accel_binary(accel_queue *qq, accel_dtype dt, const accel_slice *s)
{
    return accel_binary(qq, ACCEL_OP_SUB, dt, s[0], s[1], s[2]);
}
static accel_status call_accel_unary(accel_queue *qq, accel_dtype dt, const accel_slice *s)
{
    return accel_unary(qq, ACCEL_OP_ABS, dt, s[0], s[1]);
}
static accel_status call_accel_reduce(accel_queue *qq, accel_dtype dt, const accel_slice *s)
{
    return accel_reduce(qq, ACCEL_OP_SUM, dt, s[0], s[1]);
}

#define OP(fn, kind, half, empty)                                                                  \
    {                                                                                              \
#fn, kind, call_##fn, half, empty                                                          \
    }
static const op_entry ops[] = {
    OP(accel_fill, K_OUT, false, false),          OP(accel_random_uniform, K_OUT, false, false),
    OP(accel_random_normal, K_OUT, false, false), OP(accel_copy, K_X_OUT, true, false),
    OP(accel_scale, K_X_OUT, false, false),       OP(accel_unary, K_X_OUT, false, false),
    OP(accel_neg, K_X_OUT, false, false),         OP(accel_abs, K_X_OUT, false, false),
    OP(accel_sqrt, K_X_OUT, false, false),        OP(accel_exp, K_X_OUT, false, false),
    OP(accel_log, K_X_OUT, false, false),         OP(accel_tanh, K_X_OUT, false, false),
    OP(accel_relu, K_X_OUT, false, false),        OP(accel_sin, K_X_OUT, false, false),
    OP(accel_cos, K_X_OUT, false, false),         OP(accel_sigmoid, K_X_OUT, false, false),
    OP(accel_binary, K_A_B_OUT, false, false),    OP(accel_add, K_A_B_OUT, false, false),
    OP(accel_sub, K_A_B_OUT, false, false),       OP(accel_mul, K_A_B_OUT, false, false),
    OP(accel_div, K_A_B_OUT, false, false),       OP(accel_max, K_A_B_OUT, false, false),
    OP(accel_min, K_A_B_OUT, false, false),       OP(accel_axpby, K_X_Y, false, false),
    OP(accel_reduce, K_RED, false, false),        OP(accel_sum, K_RED, false, false),
    OP(accel_reduce_max, K_RED, false, true),     OP(accel_reduce_min, K_RED, false, true),
    OP(accel_dot, K_DOT, false, false),
};
#define NOPS (sizeof ops / sizeof *ops)

static unsigned n_operands(op_kind k)
{
    switch (k) {
    case K_OUT:
        return 1;
    case K_X_OUT:
    case K_X_Y:
    case K_RED:
        return 2;
    case K_A_B_OUT:
    case K_DOT:
        return 3;
    }
    return 0;
}

/* Operand i counts: the one-element output of reductions and dot. */
static size_t operand_count(op_kind k, unsigned i)
{
    return ((k == K_RED && i == 1) || (k == K_DOT && i == 2)) ? 1 : N;
}

/* Three sentinel buffers on a queue's device, one per operand position. */
typedef struct op_bufs {
    tu_dbuf b[3];
} op_bufs;

static op_bufs bufs_make(accel_queue *queue)
{
    op_bufs o;
    for (int i = 0; i < 3; ++i)
        o.b[i] = sentinel_on(queue);
    return o;
}

static void bufs_check_and_free(op_bufs *o, const char *what)
{
    for (int i = 0; i < 3; ++i) {
        expect_untouched(&o->b[i], tu_fmt("%s, operand buffer %d", what, i));
        tu_release(&o->b[i]);
    }
}

/* The valid slices of op on o: operand i is the payload of buffer i. */
static void valid_slices(const op_entry *op, const op_bufs *o, accel_slice *s)
{
    for (unsigned i = 0; i < 3; ++i)
        s[i] = accel_slice_of(o->b[i].buf, TU_GUARD,
                              i < n_operands(op->kind) ? operand_count(op->kind, i) : 0);
}

static void body_ops_null_and_released(void)
{
    accel_queue *dead_q;
    tu_ok(accel_queue_create(cpu, &dead_q));
    accel_queue_release(dead_q);
    accel_buffer *dead = released_buffer();
    op_bufs o = bufs_make(q);
    for (size_t k = 0; k < NOPS; ++k) {
        const op_entry *op = &ops[k];
        accel_slice s[3];
        valid_slices(op, &o, s);
        expect_fail(op->call(NULL, ACCEL_F32, s), ACCEL_ERROR_INVALID_HANDLE, op->name);
        expect_fail(op->call(dead_q, ACCEL_F32, s), ACCEL_ERROR_INVALID_HANDLE, op->name);
        /* A buffer handle where the queue belongs. */
        expect_fail(op->call((accel_queue *)(void *)o.b[0].buf, ACCEL_F32, s),
                    ACCEL_ERROR_INVALID_HANDLE, op->name);
        for (unsigned i = 0; i < n_operands(op->kind); ++i) {
            accel_slice t[3];
            memcpy(t, s, sizeof t);
            t[i].buffer = NULL;
            expect_fail(op->call(q, ACCEL_F32, t), ACCEL_ERROR_INVALID_HANDLE, op->name);
            t[i].buffer = dead;
            expect_fail(op->call(q, ACCEL_F32, t), ACCEL_ERROR_INVALID_HANDLE, op->name);
            t[i].buffer = (accel_buffer *)(void *)q;
            expect_fail(op->call(q, ACCEL_F32, t), ACCEL_ERROR_INVALID_HANDLE, op->name);
        }
    }
    bufs_check_and_free(&o, "ops with NULL/released handles");
}

static void body_ops_wrong_dtype(void)
{
    op_bufs o = bufs_make(q);
    const accel_dtype bad[] = {ACCEL_DTYPE_INVALID, (accel_dtype)99, (accel_dtype)-1,
                               ACCEL_DTYPE_COUNT_};
    for (size_t k = 0; k < NOPS; ++k) {
        const op_entry *op = &ops[k];
        accel_slice s[3];
        valid_slices(op, &o, s);
        for (size_t j = 0; j < sizeof bad / sizeof *bad; ++j)
            expect_fail(op->call(q, bad[j], s), ACCEL_ERROR_DTYPE_MISMATCH, op->name);
        if (!op->half_ok) {
            expect_fail(op->call(q, ACCEL_F16, s), ACCEL_ERROR_DTYPE_MISMATCH, op->name);
            expect_fail(op->call(q, ACCEL_BF16, s), ACCEL_ERROR_DTYPE_MISMATCH, op->name);
        }
    }
    bufs_check_and_free(&o, "ops with a wrong dtype");
}

static void body_ops_out_of_range(void)
{
    op_bufs o = bufs_make(q);
    size_t total = N + 2 * TU_GUARD;
    for (size_t k = 0; k < NOPS; ++k) {
        const op_entry *op = &ops[k];
        accel_slice s[3];
        valid_slices(op, &o, s);
        for (unsigned i = 0; i < n_operands(op->kind); ++i) {
            size_t c = s[i].count;
            struct {
                size_t offset, count;
                const char *what;
            } bad[] = {
                {total - c + 1, c, "one element past the end"},
                {total + 1, 0, "an empty range past the end"},
                {SIZE_MAX, c, "offset + count wraps"},
                {SIZE_MAX - c + 1, c, "offset + count == 2^64"},
                /* offset + count fits, (offset + count) * 4 bytes wraps. */
                {SIZE_MAX / 4 + 1, c, "offset * 4 wraps"},
                {0, c == 1 ? 1 : SIZE_MAX / 4 + 2, "count * 4 wraps"},
            };
            for (size_t j = 0; j < sizeof bad / sizeof *bad; ++j) {
                if (c == 1 && j == 5)
                    continue; /* one-element outputs: the count is fixed at 1 */
                accel_slice t[3];
                memcpy(t, s, sizeof t);
                t[i].offset = bad[j].offset;
                t[i].count = bad[j].count;
                accel_status st = op->call(q, ACCEL_F32, t);
                cover(op->name);
                /* An empty range past the end with other operands of N
                 * elements can be reported as either; both are errors. */
                bool ok = st == ACCEL_ERROR_OUT_OF_RANGE ||
                          (bad[j].count != c && st == ACCEL_ERROR_SHAPE_MISMATCH);
                cr_assert(ok, "%s operand %u, %s: got %s (\"%s\")", op->name, i, bad[j].what,
                          accel_status_name(st), accel_last_error());
                cr_assert(strstr(accel_last_error(), op->name), "%s: \"%s\"", op->name,
                          accel_last_error());
            }
        }
    }
    bufs_check_and_free(&o, "ops with ranges past the end");
}

static void body_ops_device_mismatch(void)
{
    op_bufs o = bufs_make(q);
    op_bufs m = bufs_make(mq);
    for (size_t k = 0; k < NOPS; ++k) {
        const op_entry *op = &ops[k];
        accel_slice s[3];
        valid_slices(op, &o, s);
        for (unsigned i = 0; i < n_operands(op->kind); ++i) {
            accel_slice t[3];
            memcpy(t, s, sizeof t);
            t[i].buffer = m.b[i].buf;
            expect_fail(op->call(q, ACCEL_F32, t), ACCEL_ERROR_DEVICE_MISMATCH, op->name);
        }
        /* Every operand on the CPU but the queue on the mock device. */
        expect_fail(op->call(mq, ACCEL_F32, s), ACCEL_ERROR_DEVICE_MISMATCH, op->name);
    }
    for (int i = 0; i < 3; ++i) {
        expect_untouched_on(mq, &m.b[i], "mock buffer after device mismatches");
        tu_release(&m.b[i]);
    }
    bufs_check_and_free(&o, "ops with operands on another device");
}

/* One buffer holds every operand; the output is shifted against an input. */
static void body_ops_aliasing(void)
{
    tu_dbuf one = sentinel_on(q);
    for (size_t k = 0; k < NOPS; ++k) {
        const op_entry *op = &ops[k];
        unsigned n = n_operands(op->kind);
        if (op->kind == K_OUT)
            continue; /* no input to alias */
        accel_slice s[3];
        for (unsigned i = 0; i < 3; ++i)
            s[i] = accel_slice_of(one.buf, TU_GUARD, i < n ? operand_count(op->kind, i) : 0);
        accel_slice t[3];
        memcpy(t, s, sizeof t);
        unsigned out = n - 1;
        if (op->kind == K_RED || op->kind == K_DOT) {
            /* Any overlap of the one-element output with an input. */
            t[out].offset = TU_GUARD + 5;
            expect_fail(op->call(q, ACCEL_F32, t), ACCEL_ERROR_INVALID_ARGUMENT, op->name);
            t[out].offset = TU_GUARD; /* even exactly at its first element */
            expect_fail(op->call(q, ACCEL_F32, t), ACCEL_ERROR_INVALID_ARGUMENT, op->name);
        } else {
            /* Elementwise: partial overlap (a shifted range) with each input. */
            for (unsigned in = 0; in < out; ++in) {
                memcpy(t, s, sizeof t);
                for (unsigned j = 0; j < n; ++j)
                    t[j].count = 8;
                t[out].offset = TU_GUARD + 1;
                t[in].offset = TU_GUARD;
                /* the other input of a binary op stays clear of out: [13, 21) */
                if (n == 3)
                    t[1 - in].offset = TU_GUARD + 10;
                accel_status st = op->call(q, ACCEL_F32, t);
                cover(op->name);
                cr_assert(st == ACCEL_ERROR_INVALID_ARGUMENT,
                          "%s: out overlapping operand %u by 7: %s (%s)", op->name, in,
                          accel_status_name(st), accel_last_error());
                cr_assert(strstr(accel_last_error(), op->name), "%s", accel_last_error());
            }
        }
    }
    expect_untouched(&one, "buffer after partially aliased ops");
    tu_release(&one);

    /* Positive control: exactly in place is allowed for elementwise ops. */
    tu_dbuf x = sentinel_on(q);
    expect_ok(accel_neg(q, ACCEL_F32, tu_slice(&x), tu_slice(&x)), "accel_neg");
    expect_ok(accel_add(q, ACCEL_F32, tu_slice(&x), tu_slice(&x), tu_slice(&x)), "accel_add");
    double v[N];
    tu_download(q, &x, v);
    for (int i = 0; i < N; ++i)
        cr_assert(v[i] == -2 * TU_SENTINEL, "in-place element %d: %g", i, v[i]);
    tu_check_guards(q, &x, "in-place ops");
    tu_release(&x);
}

/* Zero elements: nothing is read or written, and the call succeeds (except
 * max/min: no identity); sum and dot of nothing write their output, 0. */
static void body_ops_zero_size(void)
{
    op_bufs o = bufs_make(q);
    accel_buffer *empty;
    tu_ok(accel_buffer_create(cpu, 0, &empty));
    for (size_t k = 0; k < NOPS; ++k) {
        const op_entry *op = &ops[k];
        bool writes_zero = op->kind == K_DOT || (op->kind == K_RED && !op->empty_err);
        if (writes_zero)
            continue; /* checked below */
        for (int where = 0; where < 2; ++where) {
            accel_slice s[3];
            for (unsigned i = 0; i < 3; ++i)
                s[i] = accel_slice_of(where ? empty : o.b[i].buf, where ? 0 : TU_GUARD,
                                      operand_count(op->kind, i) == 1 ? 1 : 0);
            if (op->kind == K_RED)
                s[1] = accel_slice_of(o.b[1].buf, TU_GUARD, 1);
            accel_status st = op->call(q, ACCEL_F32, s);
            cover(op->name);
            accel_status want = op->empty_err ? ACCEL_ERROR_INVALID_ARGUMENT : ACCEL_SUCCESS;
            cr_assert(st == want, "%s of 0 elements (%s): %s, expected %s (%s)", op->name,
                      where ? "zero-length buffer" : "empty slice", accel_status_name(st),
                      accel_status_name(want), accel_last_error());
        }
    }
    tu_ok(accel_queue_finish(q));
    bufs_check_and_free(&o, "ops on zero elements");
    /* sum/reduce(SUM) and dot of nothing: out = 0, nothing else touched. */
    const char *names[] = {"accel_sum", "accel_reduce", "accel_dot"};
    for (int j = 0; j < 3; ++j) {
        tu_dbuf out = tu_upload(q, ACCEL_F32, NULL, 1);
        accel_slice x = accel_slice_of(empty, 0, 0), r = tu_slice(&out);
        accel_status st = j == 0   ? accel_sum(q, ACCEL_F32, x, r)
                          : j == 1 ? accel_reduce(q, ACCEL_OP_SUM, ACCEL_F32, x, r)
                                   : accel_dot(q, ACCEL_F32, x, x, r);
        cover(names[j]);
        cr_assert(st == ACCEL_SUCCESS, "%s of nothing: %s", names[j], accel_last_error());
        double v;
        tu_download(q, &out, &v);
        cr_assert(v == 0.0, "%s of nothing gave %g", names[j], v);
        tu_check_guards(q, &out, names[j]);
        tu_release(&out);
    }
    accel_buffer_release(empty);
}

/* ------------------------------------------------------------ GEMM, transpose */

/* A valid 4x5 * 5x3 GEMM, each matrix inside a sentinel buffer of N*2 payload. */
typedef struct gemm_bufs {
    tu_dbuf a, b, c;
    accel_gemm_desc d;
} gemm_bufs;

static gemm_bufs gemm_make(void)
{
    gemm_bufs g;
    g.a = tu_upload(q, ACCEL_F32, NULL, 20);
    g.b = tu_upload(q, ACCEL_F32, NULL, 15);
    g.c = tu_upload(q, ACCEL_F32, NULL, 12);
    accel_gemm_desc_init(&g.d);
    g.d.dtype = ACCEL_F32;
    g.d.m = 4, g.d.n = 3, g.d.k = 5;
    g.d.a = g.a.buf, g.d.lda = 5, g.d.a_offset = TU_GUARD;
    g.d.b = g.b.buf, g.d.ldb = 3, g.d.b_offset = TU_GUARD;
    g.d.c = g.c.buf, g.d.ldc = 3, g.d.c_offset = TU_GUARD;
    return g;
}

static void gemm_free(gemm_bufs *g, const char *what)
{
    expect_untouched(&g->a, tu_fmt("%s: A", what));
    expect_untouched(&g->b, tu_fmt("%s: B", what));
    expect_untouched(&g->c, tu_fmt("%s: C", what));
    tu_release(&g->a), tu_release(&g->b), tu_release(&g->c);
}

static void body_gemm_matrix(void)
{
    static const char G[] = "accel_gemm", M[] = "accel_matmul";
    gemm_bufs g = gemm_make();
    accel_buffer *mb;
    tu_ok(accel_buffer_create(mock, 256, &mb));
    /* Released last: a later create could reuse its address. */
    accel_buffer *dead = released_buffer();
    accel_gemm_desc d;
    /* NULL */
    expect_fail(accel_gemm(NULL, &g.d), ACCEL_ERROR_INVALID_HANDLE, G);
    expect_fail(accel_gemm(q, NULL), ACCEL_ERROR_INVALID_ARGUMENT, G);
    expect_fail(accel_matmul(NULL, ACCEL_F32, 1, 1, 1, g.a.buf, g.b.buf, g.c.buf),
                ACCEL_ERROR_INVALID_HANDLE, M);
    accel_buffer **slots[] = {&d.a, &d.b, &d.c};
    for (int i = 0; i < 3; ++i) {
        d = g.d, *slots[i] = NULL;
        expect_fail(accel_gemm(q, &d), ACCEL_ERROR_INVALID_HANDLE, G);
        d = g.d, *slots[i] = dead; /* released */
        expect_fail(accel_gemm(q, &d), ACCEL_ERROR_INVALID_HANDLE, G);
        d = g.d, *slots[i] = mb; /* another device */
        expect_fail(accel_gemm(q, &d), ACCEL_ERROR_DEVICE_MISMATCH, G);
    }
    expect_fail(accel_matmul(q, ACCEL_F32, 1, 1, 1, NULL, g.b.buf, g.c.buf),
                ACCEL_ERROR_INVALID_HANDLE, M);
    expect_fail(accel_matmul(q, ACCEL_F32, 1, 1, 1, g.a.buf, dead, g.c.buf),
                ACCEL_ERROR_INVALID_HANDLE, M);
    expect_fail(accel_matmul(q, ACCEL_F32, 1, 1, 1, g.a.buf, g.b.buf, mb),
                ACCEL_ERROR_DEVICE_MISMATCH, M);
    expect_fail(accel_gemm(mq, &g.d), ACCEL_ERROR_DEVICE_MISMATCH, G);
    /* wrong dtype */
    d = g.d, d.dtype = (accel_dtype)77;
    expect_fail(accel_gemm(q, &d), ACCEL_ERROR_DTYPE_MISMATCH, G);
    expect_fail(accel_matmul(q, ACCEL_DTYPE_INVALID, 1, 1, 1, g.a.buf, g.b.buf, g.c.buf),
                ACCEL_ERROR_DTYPE_MISMATCH, M);
    /* descriptor from an older/newer caller that never called _init */
    d = g.d, d.struct_size = 3;
    expect_fail(accel_gemm(q, &d), ACCEL_ERROR_INVALID_ARGUMENT, G);
    /* overflow: m*lda, k*ldb and batch strides past SIZE_MAX */
    const struct {
        size_t m, n, k, lda, ldb, ldc, batch, sa, sb, sc;
    } over[] = {
        {SIZE_MAX / 2, 3, 5, 5, 3, 3, 1, 0, 0, 0},
        {4, 3, SIZE_MAX / 3, SIZE_MAX / 3, 3, 3, 1, 0, 0, 0},
        {4, SIZE_MAX / 8, 5, 5, SIZE_MAX / 8, SIZE_MAX / 8, 1, 0, 0, 0},
        {4, 3, 5, SIZE_MAX, 3, 3, 1, 0, 0, 0},
        {4, 3, 5, 5, 3, 3, 2, SIZE_MAX / 2, 0, 12},
        {4, 3, 5, 5, 3, 3, SIZE_MAX, 0, 0, 12},
        {4, 3, 5, 5, 3, 3, 3, 20, 15, SIZE_MAX - 5},
    };
    for (size_t j = 0; j < sizeof over / sizeof *over; ++j) {
        d = g.d;
        d.m = over[j].m, d.n = over[j].n, d.k = over[j].k;
        d.lda = over[j].lda, d.ldb = over[j].ldb, d.ldc = over[j].ldc;
        d.batch_count = over[j].batch, d.stride_a = over[j].sa, d.stride_b = over[j].sb,
        d.stride_c = over[j].sc;
        accel_status st = accel_gemm(q, &d);
        cr_assert(st == ACCEL_ERROR_OUT_OF_RANGE || st == ACCEL_ERROR_INVALID_ARGUMENT,
                  "gemm overflow case %zu: %s (%s)", j, accel_status_name(st), accel_last_error());
        cr_assert(strstr(accel_last_error(), G), "%s", accel_last_error());
    }
    expect_fail(accel_matmul(q, ACCEL_F32, SIZE_MAX / 2, 4, 4, g.a.buf, g.b.buf, g.c.buf),
                ACCEL_ERROR_INVALID_ARGUMENT,
                M); /* m*k overflows: documented as INVALID_ARGUMENT */
    expect_fail(accel_matmul(q, ACCEL_F32, 4, 4, 100, g.a.buf, g.b.buf, g.c.buf),
                ACCEL_ERROR_OUT_OF_RANGE, M);
    /* past the end: offsets */
    d = g.d, d.a_offset = SIZE_MAX - 3;
    expect_fail(accel_gemm(q, &d), ACCEL_ERROR_OUT_OF_RANGE, G);
    d = g.d, d.c_offset = TU_GUARD + 1 + 12; /* C of 12 elements from 3+13 = 16 > 18-12 */
    expect_fail(accel_gemm(q, &d), ACCEL_ERROR_OUT_OF_RANGE, G);
    /* aliasing: C over A or B */
    d = g.d, d.c = g.a.buf, d.c_offset = TU_GUARD + 2;
    expect_fail(accel_gemm(q, &d), ACCEL_ERROR_INVALID_ARGUMENT, G);
    expect_fail(accel_matmul(q, ACCEL_F32, 2, 2, 2, g.a.buf, g.b.buf, g.a.buf),
                ACCEL_ERROR_INVALID_ARGUMENT, M);
    /* zero sizes: nothing written */
    d = g.d, d.m = 0;
    expect_ok(accel_gemm(q, &d), G);
    d = g.d, d.n = 0;
    expect_ok(accel_gemm(q, &d), G);
    d = g.d, d.batch_count = 0;
    {
        accel_status st = accel_gemm(q, &d);
        cr_assert(st == ACCEL_SUCCESS || st == ACCEL_ERROR_INVALID_ARGUMENT, "batch_count 0: %s",
                  accel_status_name(st));
    }
    expect_ok(accel_matmul(q, ACCEL_F32, 0, 0, 0, g.a.buf, g.b.buf, g.c.buf), M);
    accel_buffer_release(mb);
    gemm_free(&g, "GEMM bad inputs");
    /* accel_gemm_desc_init(NULL) is a no-op. */
    accel_gemm_desc_init(NULL);
    cover("accel_gemm_desc_init");
}

static void body_transpose_matrix(void)
{
    static const char T[] = "accel_transpose_2d";
    tu_dbuf x = sentinel_on(q), out = sentinel_on(q);
    accel_buffer *mb;
    tu_ok(accel_buffer_create(mock, 256, &mb));
    accel_buffer *dead = released_buffer();
    const size_t g = TU_GUARD;
    /* a valid 4x4 transpose as a positive reference point */
    expect_fail(accel_transpose_2d(NULL, ACCEL_F32, 4, 4, x.buf, g, 4, out.buf, g, 4),
                ACCEL_ERROR_INVALID_HANDLE, T);
    expect_fail(accel_transpose_2d(q, ACCEL_F32, 4, 4, NULL, g, 4, out.buf, g, 4),
                ACCEL_ERROR_INVALID_HANDLE, T);
    expect_fail(accel_transpose_2d(q, ACCEL_F32, 4, 4, x.buf, g, 4, NULL, g, 4),
                ACCEL_ERROR_INVALID_HANDLE, T);
    expect_fail(accel_transpose_2d(q, ACCEL_F32, 4, 4, dead, g, 4, out.buf, g, 4),
                ACCEL_ERROR_INVALID_HANDLE, T);
    expect_fail(accel_transpose_2d(q, ACCEL_F32, 4, 4, x.buf, g, 4, mb, 0, 4),
                ACCEL_ERROR_DEVICE_MISMATCH, T);
    expect_fail(accel_transpose_2d(q, (accel_dtype)9, 4, 4, x.buf, g, 4, out.buf, g, 4),
                ACCEL_ERROR_DTYPE_MISMATCH, T);
    expect_fail(accel_transpose_2d(q, ACCEL_F32, 4, 4, x.buf, g, 3, out.buf, g, 4),
                ACCEL_ERROR_INVALID_ARGUMENT, T);
    expect_fail(accel_transpose_2d(q, ACCEL_F32, 2, 4, x.buf, g, 4, out.buf, g, 1),
                ACCEL_ERROR_INVALID_ARGUMENT, T);
    expect_fail(accel_transpose_2d(q, ACCEL_F32, 5, 4, x.buf, g, 4, out.buf, g, 5),
                ACCEL_ERROR_OUT_OF_RANGE, T);
    expect_fail(accel_transpose_2d(q, ACCEL_F32, 4, 4, x.buf, SIZE_MAX - 2, 4, out.buf, g, 4),
                ACCEL_ERROR_OUT_OF_RANGE, T);
    expect_fail(accel_transpose_2d(q, ACCEL_F32, 4, 4, x.buf, g, 4, out.buf, g + 4, 4),
                ACCEL_ERROR_OUT_OF_RANGE, T);
    {
        accel_status st = accel_transpose_2d(q, ACCEL_F32, SIZE_MAX / 2, 4, x.buf, g, 4, out.buf, g,
                                             SIZE_MAX / 2);
        cr_assert(st == ACCEL_ERROR_OUT_OF_RANGE || st == ACCEL_ERROR_INVALID_ARGUMENT, "%s",
                  accel_last_error());
    }
    /* no in-place transpose */
    expect_fail(accel_transpose_2d(q, ACCEL_F32, 4, 4, x.buf, g, 4, x.buf, g, 4),
                ACCEL_ERROR_INVALID_ARGUMENT, T);
    expect_fail(accel_transpose_2d(q, ACCEL_F32, 2, 2, x.buf, g, 2, x.buf, g + 3, 2),
                ACCEL_ERROR_INVALID_ARGUMENT, T);
    /* zero rows or cols: nothing read or written */
    expect_ok(accel_transpose_2d(q, ACCEL_F32, 0, 4, x.buf, g, 4, out.buf, g, 1), T);
    expect_ok(accel_transpose_2d(q, ACCEL_F32, 4, 0, x.buf, g, 1, out.buf, g, 4), T);
    static const char S[] = "accel_sort_segments", A[] = "accel_argsort_segments";
    accel_slice xs = accel_slice_of(x.buf, g, 4), os = accel_slice_of(out.buf, g, 4);
    expect_fail(accel_sort_segments(NULL, ACCEL_F32, 1, 4, 1, 0, xs, os),
                ACCEL_ERROR_INVALID_HANDLE, S);
    expect_fail(accel_sort_segments(q, ACCEL_F32, 1, 4, 1, 0, accel_slice_of(dead, g, 4), os),
                ACCEL_ERROR_INVALID_HANDLE, S);
    expect_fail(accel_sort_segments(q, ACCEL_F32, 1, 4, 1, 0, xs, accel_slice_of(mb, 0, 4)),
                ACCEL_ERROR_DEVICE_MISMATCH, S);
    expect_fail(accel_sort_segments(q, ACCEL_F32, 2, 4, 1, 0, xs, os), ACCEL_ERROR_SHAPE_MISMATCH,
                S);
    expect_fail(accel_sort_segments(q, ACCEL_C64, 1, 2, 1, 0, accel_slice_of(x.buf, g, 2),
                                    accel_slice_of(out.buf, g, 2)),
                ACCEL_ERROR_DTYPE_MISMATCH, S);
    expect_fail(accel_argsort_segments(NULL, ACCEL_F32, 1, 4, 1, 0, xs, os),
                ACCEL_ERROR_INVALID_HANDLE, A);
    expect_fail(accel_argsort_segments(q, ACCEL_F32, 4, 4, 1, 0, xs, os),
                ACCEL_ERROR_SHAPE_MISMATCH, A);
    expect_fail(accel_argsort_segments(q, ACCEL_F32, 1, 4, 1, 0, xs, accel_slice_of(x.buf, g, 4)),
                ACCEL_ERROR_INVALID_ARGUMENT, A);
    static const char C[] = "accel_cumsum_segments";
    expect_fail(accel_cumsum_segments(NULL, ACCEL_F32, ACCEL_F32, 1, 4, 1, xs, os),
                ACCEL_ERROR_INVALID_HANDLE, C);
    expect_fail(
        accel_cumsum_segments(q, ACCEL_F32, ACCEL_F32, 1, 4, 1, accel_slice_of(dead, g, 4), os),
        ACCEL_ERROR_INVALID_HANDLE, C);
    expect_fail(
        accel_cumsum_segments(q, ACCEL_F32, ACCEL_F32, 1, 4, 1, xs, accel_slice_of(mb, 0, 4)),
        ACCEL_ERROR_DEVICE_MISMATCH, C);
    expect_fail(accel_cumsum_segments(q, ACCEL_F32, ACCEL_F32, 2, 4, 1, xs, os),
                ACCEL_ERROR_SHAPE_MISMATCH, C);
    expect_fail(accel_cumsum_segments(q, ACCEL_BF16, ACCEL_BF16, 1, 4, 1, xs, os),
                ACCEL_ERROR_DTYPE_MISMATCH, C);
    expect_fail(accel_cumsum_segments(q, ACCEL_F32, ACCEL_F32, 1, 4, 1, xs, xs),
                ACCEL_ERROR_INVALID_ARGUMENT, C);
    expect_fail(accel_cumsum_segments(q, ACCEL_I32, ACCEL_I16, 1, 4, 1, xs, os),
                ACCEL_ERROR_DTYPE_MISMATCH, C);
    static const char L[] = "accel_linalg_batched";
    accel_slice none = accel_slice_of(NULL, 0, 0);
    expect_fail(
        accel_linalg_batched(NULL, ACCEL_OP_CHOLESKY, ACCEL_F32, 1, 2, 2, 0, 0, xs, none, os),
        ACCEL_ERROR_INVALID_HANDLE, L);
    expect_fail(accel_linalg_batched(q, ACCEL_OP_CHOLESKY, ACCEL_F32, 1, 2, 2, 0, 0,
                                     accel_slice_of(dead, g, 4), none, os),
                ACCEL_ERROR_INVALID_HANDLE, L);
    expect_fail(accel_linalg_batched(q, ACCEL_OP_CHOLESKY, ACCEL_F32, 1, 2, 2, 0, 0, xs, none,
                                     accel_slice_of(mb, 0, 4)),
                ACCEL_ERROR_DEVICE_MISMATCH, L);
    expect_fail(accel_linalg_batched(q, ACCEL_OP_ADD, ACCEL_F32, 1, 2, 2, 0, 0, xs, none, os),
                ACCEL_ERROR_INVALID_ARGUMENT, L);
    expect_fail(accel_linalg_batched(q, ACCEL_OP_CHOLESKY, ACCEL_F32, 1, 4, 1, 0, 0, xs, none, os),
                ACCEL_ERROR_SHAPE_MISMATCH, L);
    expect_fail(accel_linalg_batched(q, ACCEL_OP_CHOLESKY, ACCEL_F32, 2, 2, 2, 0, 0, xs, none, os),
                ACCEL_ERROR_SHAPE_MISMATCH, L);
    expect_fail(accel_linalg_batched(q, ACCEL_OP_CHOLESKY, ACCEL_I32, 1, 2, 2, 0, 0, xs, none, os),
                ACCEL_ERROR_DTYPE_MISMATCH, L);
    expect_fail(
        accel_linalg_batched(q, ACCEL_OP_CHOLESKY, ACCEL_F32, 1, 2, 2, 0, 1u << 5, xs, none, os),
        ACCEL_ERROR_INVALID_ARGUMENT, L);
    expect_fail(accel_linalg_batched(q, ACCEL_OP_CHOLESKY, ACCEL_F32, 1, 2, 2, 0, 0, xs, none, xs),
                ACCEL_ERROR_INVALID_ARGUMENT, L);
    expect_fail(accel_linalg_batched(q, ACCEL_OP_SVD, ACCEL_F32, 1, 1, 4, 4, 0, xs, none, os),
                ACCEL_ERROR_SHAPE_MISMATCH, L);
    static const char F[] = "accel_fft_segments";
    size_t gc = 2; /* complex64 elements 2..3: floats 4..7 of the f32 payloads */
    accel_slice xc = accel_slice_of(x.buf, gc, 2), oc = accel_slice_of(out.buf, gc, 2);
    expect_fail(accel_fft_segments(NULL, ACCEL_OP_FFT, ACCEL_C64, 1, 2, 1, 0, 1.0, xc, oc),
                ACCEL_ERROR_INVALID_HANDLE, F);
    expect_fail(accel_fft_segments(q, ACCEL_OP_FFT, ACCEL_C64, 1, 2, 1, 0, 1.0,
                                   accel_slice_of(dead, gc, 2), oc),
                ACCEL_ERROR_INVALID_HANDLE, F);
    expect_fail(accel_fft_segments(q, ACCEL_OP_FFT, ACCEL_C64, 1, 2, 1, 0, 1.0, xc,
                                   accel_slice_of(mb, 0, 2)),
                ACCEL_ERROR_DEVICE_MISMATCH, F);
    expect_fail(accel_fft_segments(q, ACCEL_OP_FFT, ACCEL_F32, 1, 2, 1, 0, 1.0, xc, oc),
                ACCEL_ERROR_DTYPE_MISMATCH, F);
    expect_fail(accel_fft_segments(q, ACCEL_OP_FFT, ACCEL_C64, 2, 2, 1, 0, 1.0, xc, oc),
                ACCEL_ERROR_SHAPE_MISMATCH, F);
    expect_fail(accel_fft_segments(q, ACCEL_OP_RFFT, ACCEL_C64, 1, 4, 1, 0, 1.0,
                                   accel_slice_of(x.buf, 2 * gc, 4), oc),
                ACCEL_ERROR_SHAPE_MISMATCH, F); /* rfft of 4 writes 3, not 2 */
    expect_fail(accel_fft_segments(q, ACCEL_OP_FFT, ACCEL_C64, 1, 2, 1, 0, 1.0, xc, xc),
                ACCEL_ERROR_INVALID_ARGUMENT, F);
    expect_fail(accel_fft_segments(q, ACCEL_OP_FFT, ACCEL_C64, 1, 0, 1, 0, 1.0, xc, oc),
                ACCEL_ERROR_INVALID_ARGUMENT, F);
    expect_fail(accel_fft_segments(q, ACCEL_OP_FFT, ACCEL_C64, 1, 2, 1, 0, INFINITY, xc, oc),
                ACCEL_ERROR_INVALID_ARGUMENT, F);
    expect_fail(accel_fft_segments(q, ACCEL_OP_FFT, ACCEL_C64, 1, 2, 1, 0, 1.0, xc,
                                   accel_slice_of(out.buf, SIZE_MAX - 1, 2)),
                ACCEL_ERROR_OUT_OF_RANGE, F);
    accel_buffer_release(mb);
    expect_untouched(&x, "transpose x");
    expect_untouched(&out, "transpose out");
    tu_release(&x), tu_release(&out);
}

/* ------------------------------------------------------------ transfers */

/* write and read with one argument shape, so one loop covers all four. */
static accel_status xfer_write(accel_queue *qq, accel_buffer *b, size_t off, void *h, size_t n)
{
    return accel_queue_write(qq, b, off, h, n);
}
static accel_status xfer_read(accel_queue *qq, accel_buffer *b, size_t off, void *h, size_t n)
{
    return accel_queue_read(qq, b, off, h, n);
}
static accel_status xfer_write_blocking(accel_queue *qq, accel_buffer *b, size_t off, void *h,
                                        size_t n)
{
    return accel_queue_write_blocking(qq, b, off, h, n);
}
static accel_status xfer_read_blocking(accel_queue *qq, accel_buffer *b, size_t off, void *h,
                                       size_t n)
{
    return accel_queue_read_blocking(qq, b, off, h, n);
}

static void body_transfers(void)
{
    static const char W[] = "accel_queue_write", R[] = "accel_queue_read",
                      WB[] = "accel_queue_write_blocking", RB[] = "accel_queue_read_blocking",
                      C[] = "accel_queue_copy";
    tu_dbuf b = sentinel_on(q), b2 = sentinel_on(q);
    size_t bytes = total_elems(&b) * sizeof(float);
    accel_buffer *mb;
    tu_ok(accel_buffer_create(mock, bytes, &mb));
    accel_buffer *dead = released_buffer();
    accel_queue *dead_q;
    tu_ok(accel_queue_create(cpu, &dead_q));
    accel_queue_release(dead_q);
    /* Host memory with guard bytes around the region a read may write. */
    unsigned char host[256 + 64];
    memset(host, 0xA5, sizeof host);
    unsigned char *h = host + 32;
    struct {
        const char *fn;
        accel_status (*call)(accel_queue *, accel_buffer *, size_t, void *, size_t);
    } t[4] = {{W, xfer_write}, {R, xfer_read}, {WB, xfer_write_blocking}, {RB, xfer_read_blocking}};
    for (int i = 0; i < 4; ++i) {
        const char *fn = t[i].fn;
        expect_fail(t[i].call(NULL, b.buf, 0, h, 4), ACCEL_ERROR_INVALID_HANDLE, fn);
        expect_fail(t[i].call(dead_q, b.buf, 0, h, 4), ACCEL_ERROR_INVALID_HANDLE, fn);
        expect_fail(t[i].call(q, NULL, 0, h, 4), ACCEL_ERROR_INVALID_HANDLE, fn);
        expect_fail(t[i].call(q, dead, 0, h, 4), ACCEL_ERROR_INVALID_HANDLE, fn);
        expect_fail(t[i].call(q, (accel_buffer *)(void *)q, 0, h, 4), ACCEL_ERROR_INVALID_HANDLE,
                    fn);
        expect_fail(t[i].call(q, b.buf, 0, NULL, 4), ACCEL_ERROR_INVALID_ARGUMENT, fn);
        expect_fail(t[i].call(q, b.buf, bytes - 3, h, 4), ACCEL_ERROR_OUT_OF_RANGE, fn);
        expect_fail(t[i].call(q, b.buf, bytes + 1, h, 0), ACCEL_ERROR_OUT_OF_RANGE, fn);
        expect_fail(t[i].call(q, b.buf, SIZE_MAX, h, 2), ACCEL_ERROR_OUT_OF_RANGE, fn);
        expect_fail(t[i].call(q, b.buf, 8, h, SIZE_MAX - 4), ACCEL_ERROR_OUT_OF_RANGE, fn);
        expect_fail(t[i].call(q, mb, 0, h, 4), ACCEL_ERROR_DEVICE_MISMATCH, fn);
        expect_fail(t[i].call(mq, b.buf, 0, h, 4), ACCEL_ERROR_DEVICE_MISMATCH, fn);
        /* zero bytes: success, NULL host allowed, even at the very end */
        expect_ok(t[i].call(q, b.buf, bytes, NULL, 0), fn);
        expect_ok(t[i].call(q, b.buf, 0, h, 0), fn);
    }
    /* Nothing was written to host memory by the failed reads. */
    for (size_t i = 0; i < sizeof host; ++i)
        cr_assert(host[i] == 0xA5, "host byte %zu changed by a failed read", i);
    /* copy */
    expect_fail(accel_queue_copy(NULL, b.buf, 0, b2.buf, 0, 4), ACCEL_ERROR_INVALID_HANDLE, C);
    expect_fail(accel_queue_copy(dead_q, b.buf, 0, b2.buf, 0, 4), ACCEL_ERROR_INVALID_HANDLE, C);
    expect_fail(accel_queue_copy(q, NULL, 0, b2.buf, 0, 4), ACCEL_ERROR_INVALID_HANDLE, C);
    expect_fail(accel_queue_copy(q, b.buf, 0, NULL, 0, 4), ACCEL_ERROR_INVALID_HANDLE, C);
    expect_fail(accel_queue_copy(q, dead, 0, b2.buf, 0, 4), ACCEL_ERROR_INVALID_HANDLE, C);
    expect_fail(accel_queue_copy(q, b.buf, 0, dead, 0, 4), ACCEL_ERROR_INVALID_HANDLE, C);
    expect_fail(accel_queue_copy(q, b.buf, bytes - 3, b2.buf, 0, 4), ACCEL_ERROR_OUT_OF_RANGE, C);
    expect_fail(accel_queue_copy(q, b.buf, 0, b2.buf, bytes - 3, 4), ACCEL_ERROR_OUT_OF_RANGE, C);
    expect_fail(accel_queue_copy(q, b.buf, SIZE_MAX, b2.buf, 0, 2), ACCEL_ERROR_OUT_OF_RANGE, C);
    expect_fail(accel_queue_copy(q, b.buf, 4, b2.buf, 0, SIZE_MAX - 2), ACCEL_ERROR_OUT_OF_RANGE,
                C);
    /* q on neither buffer's device */
    expect_fail(accel_queue_copy(mq, b.buf, 0, b2.buf, 0, 4), ACCEL_ERROR_DEVICE_MISMATCH, C);
    /* overlapping ranges of one buffer, in both directions */
    expect_fail(accel_queue_copy(q, b.buf, 0, b.buf, 4, 8), ACCEL_ERROR_INVALID_ARGUMENT, C);
    expect_fail(accel_queue_copy(q, b.buf, 4, b.buf, 0, 8), ACCEL_ERROR_INVALID_ARGUMENT, C);
    expect_fail(accel_queue_copy(q, b.buf, 4, b.buf, 4, 8), ACCEL_ERROR_INVALID_ARGUMENT, C);
    expect_ok(accel_queue_copy(q, b.buf, 0, b.buf, 0, 0), C);
    expect_ok(accel_queue_copy(q, b.buf, bytes, b2.buf, bytes, 0), C);
    expect_untouched(&b, "buffer after bad transfers");
    expect_untouched(&b2, "second buffer after bad transfers");
    accel_buffer_release(mb);
    tu_release(&b), tu_release(&b2);
}

/* ------------------------------------------------------------ objects */

static void body_buffers_and_host_memory(void)
{
    accel_runtime *dead_rt;
    accel_device *dead_dev;
    closed_runtime(&dead_rt, &dead_dev);
    accel_buffer *b = (accel_buffer *)(uintptr_t)1;
    expect_fail(accel_buffer_create(NULL, 16, &b), ACCEL_ERROR_INVALID_HANDLE,
                "accel_buffer_create");
    cr_assert_null(b, "out_buffer must be NULL after a failure");
    expect_fail(accel_buffer_create(dead_dev, 16, &b), ACCEL_ERROR_INVALID_HANDLE,
                "accel_buffer_create");
    expect_fail(accel_buffer_create((accel_device *)(void *)q, 16, &b), ACCEL_ERROR_INVALID_HANDLE,
                "accel_buffer_create");
    expect_fail(accel_buffer_create(cpu, 16, NULL), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_buffer_create");
    accel_status st = accel_buffer_create(cpu, SIZE_MAX, &b);
    cover("accel_buffer_create");
    cr_assert(st == ACCEL_ERROR_OUT_OF_DEVICE_MEMORY || st == ACCEL_ERROR_OUT_OF_HOST_MEMORY,
              "SIZE_MAX bytes: %s", accel_status_name(st));
    cr_assert(strstr(accel_last_error(), "accel_buffer_create"), "%s", accel_last_error());
    st = accel_buffer_create(mock, SIZE_MAX, &b);
    cr_assert(st == ACCEL_ERROR_OUT_OF_DEVICE_MEMORY, "mock SIZE_MAX bytes: %s",
              accel_status_name(st));
    /* zero bytes is a valid, empty buffer */
    expect_ok(accel_buffer_create(cpu, 0, &b), "accel_buffer_create");
    cr_assert_eq(accel_buffer_size(b), 0u);
    cr_assert(accel_buffer_device(b) == cpu);
    accel_buffer_release(b);
    /* released: getters give their documented "invalid" values */
    cr_assert_eq(accel_buffer_size(b), 0u);
    cover("accel_buffer_size");
    cr_assert(strstr(accel_last_error(), "accel_buffer_size"), "%s", accel_last_error());
    cr_assert_null(accel_buffer_device(b));
    cover("accel_buffer_device");
    cr_assert(strstr(accel_last_error(), "accel_buffer_device"), "%s", accel_last_error());
    cr_assert_eq(accel_buffer_size(NULL), 0u);
    cr_assert_null(accel_buffer_device(NULL));
    /* releasing twice or NULL: no crash, the second names the function */
    accel_buffer_release(NULL);
    accel_buffer_release(b);
    cover("accel_buffer_release");
    cr_assert(strstr(accel_last_error(), "accel_buffer_release"), "%s", accel_last_error());

    /* pinned host memory */
    void *p = (void *)(uintptr_t)1;
    expect_fail(accel_host_alloc(NULL, 64, &p), ACCEL_ERROR_INVALID_HANDLE, "accel_host_alloc");
    cr_assert_null(p);
    expect_fail(accel_host_alloc(dead_dev, 64, &p), ACCEL_ERROR_INVALID_HANDLE, "accel_host_alloc");
    expect_fail(accel_host_alloc(cpu, 64, NULL), ACCEL_ERROR_INVALID_ARGUMENT, "accel_host_alloc");
    st = accel_host_alloc(mock, SIZE_MAX, &p);
    cover("accel_host_alloc");
    cr_assert(st == ACCEL_ERROR_OUT_OF_HOST_MEMORY, "SIZE_MAX pinned bytes: %s",
              accel_status_name(st));
    st = accel_host_alloc(cpu, SIZE_MAX - 8, &p);
    cr_assert(st == ACCEL_ERROR_OUT_OF_HOST_MEMORY, "cpu SIZE_MAX pinned bytes: %s",
              accel_status_name(st));
    expect_ok(accel_host_alloc(cpu, 0, &p), "accel_host_alloc");
    cr_assert_not_null(p);
    accel_host_free(cpu, p);
    accel_host_free(cpu, p); /* twice: a warning, no crash */
    cover("accel_host_free");
    cr_assert(strstr(accel_last_error(), "accel_host_free"), "%s", accel_last_error());
    int local;
    accel_host_free(cpu, &local); /* not from accel_host_alloc */
    cr_assert(strstr(accel_last_error(), "accel_host_free"), "%s", accel_last_error());
    accel_host_free(NULL, NULL);
}

static accel_status host_fn_nop(void *user, char *message, size_t message_size)
{
    (void)user;
    (void)message;
    (void)message_size;
    return ACCEL_SUCCESS;
}

static void body_queues_and_events(void)
{
    accel_runtime *dead_rt;
    accel_device *dead_dev;
    closed_runtime(&dead_rt, &dead_dev);
    accel_queue *nq = (accel_queue *)(uintptr_t)1;
    expect_fail(accel_queue_create(NULL, &nq), ACCEL_ERROR_INVALID_HANDLE, "accel_queue_create");
    cr_assert_null(nq);
    expect_fail(accel_queue_create(dead_dev, &nq), ACCEL_ERROR_INVALID_HANDLE,
                "accel_queue_create");
    expect_fail(accel_queue_create(cpu, NULL), ACCEL_ERROR_INVALID_ARGUMENT, "accel_queue_create");
    accel_queue *dead_q;
    tu_ok(accel_queue_create(cpu, &dead_q));
    accel_queue_release(dead_q);
    expect_fail(accel_queue_finish(NULL), ACCEL_ERROR_INVALID_HANDLE, "accel_queue_finish");
    expect_fail(accel_queue_finish(dead_q), ACCEL_ERROR_INVALID_HANDLE, "accel_queue_finish");
    cr_assert_null(accel_queue_device(NULL));
    cr_assert_null(accel_queue_device(dead_q));
    cover("accel_queue_device");
    cr_assert(strstr(accel_last_error(), "accel_queue_device"), "%s", accel_last_error());
    expect_fail(accel_queue_host_fn(NULL, "f", host_fn_nop, NULL), ACCEL_ERROR_INVALID_HANDLE,
                "accel_queue_host_fn");
    expect_fail(accel_queue_host_fn(dead_q, "f", host_fn_nop, NULL), ACCEL_ERROR_INVALID_HANDLE,
                "accel_queue_host_fn");
    accel_queue *live_q;
    tu_ok(accel_queue_create(cpu, &live_q));
    expect_fail(accel_queue_host_fn(live_q, "f", NULL, NULL), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_queue_host_fn");
    expect_fail(accel_queue_host_fn(live_q, NULL, host_fn_nop, NULL), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_queue_host_fn");
    tu_ok(accel_queue_finish(live_q));
    accel_queue_release(live_q);
    accel_queue_release(NULL);
    accel_queue_release(dead_q);
    cover("accel_queue_release");
    cr_assert(strstr(accel_last_error(), "accel_queue_release"), "%s", accel_last_error());

    accel_event *ev = (accel_event *)(uintptr_t)1;
    expect_fail(accel_event_create(NULL, &ev), ACCEL_ERROR_INVALID_HANDLE, "accel_event_create");
    cr_assert_null(ev);
    expect_fail(accel_event_create(dead_dev, &ev), ACCEL_ERROR_INVALID_HANDLE,
                "accel_event_create");
    expect_fail(accel_event_create(cpu, NULL), ACCEL_ERROR_INVALID_ARGUMENT, "accel_event_create");
    accel_event *e1, *e2, *em, *dead_ev;
    tu_ok(accel_event_create(cpu, &e1));
    tu_ok(accel_event_create(cpu, &e2));
    tu_ok(accel_event_create(mock, &em));
    tu_ok(accel_event_create(cpu, &dead_ev));
    accel_event_release(dead_ev);
    bool done;
    double ms = -7;
    expect_fail(accel_event_record(NULL, q), ACCEL_ERROR_INVALID_HANDLE, "accel_event_record");
    expect_fail(accel_event_record(e1, NULL), ACCEL_ERROR_INVALID_HANDLE, "accel_event_record");
    expect_fail(accel_event_record(dead_ev, q), ACCEL_ERROR_INVALID_HANDLE, "accel_event_record");
    expect_fail(accel_event_record(e1, dead_q), ACCEL_ERROR_INVALID_HANDLE, "accel_event_record");
    expect_fail(accel_event_record(e1, mq), ACCEL_ERROR_DEVICE_MISMATCH, "accel_event_record");
    expect_fail(accel_queue_wait_event(NULL, e1), ACCEL_ERROR_INVALID_HANDLE,
                "accel_queue_wait_event");
    expect_fail(accel_queue_wait_event(q, NULL), ACCEL_ERROR_INVALID_HANDLE,
                "accel_queue_wait_event");
    expect_fail(accel_queue_wait_event(q, dead_ev), ACCEL_ERROR_INVALID_HANDLE,
                "accel_queue_wait_event");
    expect_fail(accel_queue_wait_event(dead_q, e1), ACCEL_ERROR_INVALID_HANDLE,
                "accel_queue_wait_event");
    expect_fail(accel_event_synchronize(NULL), ACCEL_ERROR_INVALID_HANDLE,
                "accel_event_synchronize");
    expect_fail(accel_event_synchronize(dead_ev), ACCEL_ERROR_INVALID_HANDLE,
                "accel_event_synchronize");
    expect_fail(accel_event_query(NULL, &done), ACCEL_ERROR_INVALID_HANDLE, "accel_event_query");
    expect_fail(accel_event_query(dead_ev, &done), ACCEL_ERROR_INVALID_HANDLE, "accel_event_query");
    expect_fail(accel_event_query(e1, NULL), ACCEL_ERROR_INVALID_ARGUMENT, "accel_event_query");
    expect_fail(accel_event_elapsed_ms(NULL, e2, &ms), ACCEL_ERROR_INVALID_HANDLE,
                "accel_event_elapsed_ms");
    expect_fail(accel_event_elapsed_ms(e1, dead_ev, &ms), ACCEL_ERROR_INVALID_HANDLE,
                "accel_event_elapsed_ms");
    expect_fail(accel_event_elapsed_ms(e1, e2, NULL), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_event_elapsed_ms");
    expect_fail(accel_event_elapsed_ms(e1, e2, &ms), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_event_elapsed_ms");
    tu_ok(accel_event_record(e1, q));
    tu_ok(accel_event_record(em, mq));
    tu_ok(accel_event_synchronize(e1));
    expect_fail(accel_event_elapsed_ms(e1, em, &ms), ACCEL_ERROR_DEVICE_MISMATCH,
                "accel_event_elapsed_ms");
    cr_assert(ms == -7, "out_ms written by a failed call");
    /* A wait on an event of another backend is allowed (positive control). */
    expect_ok(accel_queue_wait_event(q, em), "accel_queue_wait_event");
    expect_ok(accel_queue_finish(q), "accel_queue_finish");
    accel_event_release(NULL);
    accel_event_release(dead_ev);
    cover("accel_event_release");
    cr_assert(strstr(accel_last_error(), "accel_event_release"), "%s", accel_last_error());
    accel_event_release(e1), accel_event_release(e2), accel_event_release(em);
}

/* ------------------------------------------------------------ runtime, devices */

static void body_runtime_and_devices(void)
{
    accel_runtime *dead_rt;
    accel_device *dead_dev;
    closed_runtime(&dead_rt, &dead_dev);
    accel_runtime *r = (accel_runtime *)(uintptr_t)1;
    expect_fail(accel_runtime_open(TU_DEFAULT_CONFIG, NULL), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_runtime_open");
    expect_fail(accel_runtime_open("", &r), ACCEL_ERROR_INVALID_ARGUMENT, "accel_runtime_open");
    cr_assert_null(r);
    expect_fail(accel_runtime_open("/nonexistent/accel/plugins.ini", &r), ACCEL_ERROR_NOT_FOUND,
                "accel_runtime_open");
    /* a path longer than PATH_MAX is refused, not overflowed */
    char *longp = malloc(10000);
    cr_assert(longp);
    memset(longp, 'a', 9999);
    longp[0] = '/';
    longp[9999] = '\0';
    accel_status st = accel_runtime_open(longp, &r);
    cover("accel_runtime_open");
    cr_assert(st == ACCEL_ERROR_NOT_FOUND || st == ACCEL_ERROR_IO ||
                  st == ACCEL_ERROR_INVALID_ARGUMENT,
              "a 9999-character path: %s", accel_status_name(st));
    free(longp);
    accel_runtime_close(NULL);
    accel_runtime_close(dead_rt); /* closed twice: a warning, no crash */
    cover("accel_runtime_close");
    cr_assert(strstr(accel_last_error(), "accel_runtime_close"), "%s", accel_last_error());

    cr_assert_str_eq(accel_runtime_config_path(NULL), "");
    cr_assert_str_eq(accel_runtime_config_path(dead_rt), "");
    cover("accel_runtime_config_path");
    cr_assert(strstr(accel_last_error(), "accel_runtime_config_path"), "%s", accel_last_error());
    cr_assert_eq(accel_runtime_backend_count(NULL), 0u);
    cr_assert_eq(accel_runtime_backend_count(dead_rt), 0u);
    cover("accel_runtime_backend_count");
    cr_assert(strstr(accel_last_error(), "accel_runtime_backend_count"), "%s", accel_last_error());
    accel_backend_info bi;
    memset(&bi, 0, sizeof bi);
    bi.struct_size = sizeof bi;
    expect_fail(accel_runtime_backend_info(NULL, 0, &bi), ACCEL_ERROR_INVALID_HANDLE,
                "accel_runtime_backend_info");
    expect_fail(accel_runtime_backend_info(dead_rt, 0, &bi), ACCEL_ERROR_INVALID_HANDLE,
                "accel_runtime_backend_info");
    expect_fail(accel_runtime_backend_info(rt, UINT32_MAX, &bi), ACCEL_ERROR_OUT_OF_RANGE,
                "accel_runtime_backend_info");
    expect_fail(accel_runtime_backend_info(rt, 2, &bi), ACCEL_ERROR_OUT_OF_RANGE,
                "accel_runtime_backend_info");
    expect_fail(accel_runtime_backend_info(rt, 0, NULL), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_runtime_backend_info");

    cr_assert_eq(accel_device_count(NULL), 0u);
    cr_assert_eq(accel_device_count(dead_rt), 0u);
    cover("accel_device_count");
    cr_assert(strstr(accel_last_error(), "accel_device_count"), "%s", accel_last_error());
    accel_device *dev = (accel_device *)(uintptr_t)1;
    expect_fail(accel_device_get(NULL, 0, &dev), ACCEL_ERROR_INVALID_HANDLE, "accel_device_get");
    expect_fail(accel_device_get(dead_rt, 0, &dev), ACCEL_ERROR_INVALID_HANDLE, "accel_device_get");
    expect_fail(accel_device_get(rt, UINT32_MAX, &dev), ACCEL_ERROR_NOT_FOUND, "accel_device_get");
    cr_assert_null(dev);
    expect_fail(accel_device_get(rt, 0, NULL), ACCEL_ERROR_INVALID_ARGUMENT, "accel_device_get");
    expect_fail(accel_device_get_by_name(NULL, "cpu", &dev), ACCEL_ERROR_INVALID_HANDLE,
                "accel_device_get_by_name");
    expect_fail(accel_device_get_by_name(dead_rt, "cpu", &dev), ACCEL_ERROR_INVALID_HANDLE,
                "accel_device_get_by_name");
    expect_fail(accel_device_get_by_name(rt, NULL, &dev), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_device_get_by_name");
    expect_fail(accel_device_get_by_name(rt, "cpu", NULL), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_device_get_by_name");
    /* unknown device names */
    const char *unknown[] = {
        "cuda9", "tpu",     "cpu:1", "mock:1", "cpu:4294967295", "cpu:99999999999999999999",
        "CPU",   "defaults"};
    for (size_t i = 0; i < sizeof unknown / sizeof *unknown; ++i) {
        dev = (accel_device *)(uintptr_t)1;
        expect_fail(accel_device_get_by_name(rt, unknown[i], &dev), ACCEL_ERROR_NOT_FOUND,
                    "accel_device_get_by_name");
        cr_assert_null(dev, "%s", unknown[i]);
    }
    /* malformed names, including one far longer than any buffer */
    char huge[5000];
    memset(huge, 'x', sizeof huge - 1);
    huge[sizeof huge - 1] = '\0';
    const char *bad[] = {"",     ":",     "cpu:", "cpu:+1", "cpu: 0",
                         "cp u", "cpu\n", huge,   "../cpu", "cpu:0x1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i)
        expect_fail(accel_device_get_by_name(rt, bad[i], &dev), ACCEL_ERROR_INVALID_ARGUMENT,
                    "accel_device_get_by_name");
    expect_fail(accel_device_default(NULL, &dev), ACCEL_ERROR_INVALID_HANDLE,
                "accel_device_default");
    expect_fail(accel_device_default(dead_rt, &dev), ACCEL_ERROR_INVALID_HANDLE,
                "accel_device_default");
    expect_fail(accel_device_default(rt, NULL), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_device_default");

    accel_device_properties p;
    accel_device_properties_init(&p);
    accel_device_properties_init(NULL);
    cover("accel_device_properties_init");
    expect_fail(accel_device_properties_get(NULL, &p), ACCEL_ERROR_INVALID_HANDLE,
                "accel_device_properties_get");
    expect_fail(accel_device_properties_get(dead_dev, &p), ACCEL_ERROR_INVALID_HANDLE,
                "accel_device_properties_get");
    expect_fail(accel_device_properties_get(cpu, NULL), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_device_properties_get");
    p.struct_size = 0;
    expect_fail(accel_device_properties_get(cpu, &p), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_device_properties_get");
    /* A struct_size below the first version's: refused, nothing written
     * (the struct_size class below tries every versioned struct). */
    unsigned char small[64 + 32];
    memset(small, 0xCC, sizeof small);
    uint32_t sz = 64;
    memcpy(small, &sz, sizeof sz);
    expect_fail(accel_device_properties_get(cpu, (accel_device_properties *)(void *)small),
                ACCEL_ERROR_INVALID_ARGUMENT, "accel_device_properties_get");
    for (size_t i = sizeof sz; i < sizeof small; ++i)
        cr_assert(small[i] == 0xCC, "byte %zu of a refused struct written", i);
    /* accel_kernel_compiler_get: handle, then the output buffer. */
    char comp[256];
    expect_fail(accel_kernel_compiler_get(NULL, comp, sizeof comp), ACCEL_ERROR_INVALID_HANDLE,
                "accel_kernel_compiler_get");
    expect_fail(accel_kernel_compiler_get(dead_dev, comp, sizeof comp), ACCEL_ERROR_INVALID_HANDLE,
                "accel_kernel_compiler_get");
    expect_fail(accel_kernel_compiler_get(cpu, NULL, sizeof comp), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_kernel_compiler_get");
    expect_fail(accel_kernel_compiler_get(cpu, comp, 0), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_kernel_compiler_get");
    cr_assert_str_eq(accel_device_name(NULL), "");
    cr_assert_str_eq(accel_device_name(dead_dev), "");
    cover("accel_device_name");
    cr_assert(strstr(accel_last_error(), "accel_device_name"), "%s", accel_last_error());

    /* ceilings: handles and outputs only (a measurement takes seconds) */
    accel_ceilings_options_init(NULL);
    cover("accel_ceilings_options_init");
    accel_ceilings c;
    memset(&c, 0, sizeof c);
    expect_fail(accel_device_measure_ceilings(NULL, NULL, &c), ACCEL_ERROR_INVALID_HANDLE,
                "accel_device_measure_ceilings");
    expect_fail(accel_device_measure_ceilings(dead_dev, NULL, &c), ACCEL_ERROR_INVALID_HANDLE,
                "accel_device_measure_ceilings");
    expect_fail(accel_device_measure_ceilings(cpu, NULL, NULL), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_device_measure_ceilings");
    expect_fail(accel_device_measure_ceilings(cpu, NULL, &c), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_device_measure_ceilings"); /* struct_size 0 */
    c.struct_size = sizeof c;
    expect_fail(accel_device_measure_ceilings(mock, NULL, &c), ACCEL_ERROR_UNSUPPORTED,
                "accel_device_measure_ceilings");
}

/* ------------------------------------------------------------ values */

static int g_log_calls;
static void count_log(int level, const char *message, void *user)
{
    (void)level, (void)message, (void)user;
    g_log_calls++;
}

static void body_status_and_values(void)
{
    const int odd[] = {-1, 999, INT32_MAX, INT32_MIN};
    for (size_t i = 0; i < sizeof odd / sizeof *odd; ++i) {
        cr_assert_str_eq(accel_status_string((accel_status)odd[i]), "unknown status");
        cr_assert_not_null(accel_status_name((accel_status)odd[i]));
        cr_assert_eq(accel_dtype_size((accel_dtype)odd[i]), 0u);
        cr_assert_str_eq(accel_dtype_name((accel_dtype)odd[i]), "invalid");
        cr_assert_eq(accel_dtype_kind_of((accel_dtype)odd[i]), ACCEL_DTYPE_KIND_INVALID);
    }
    cr_assert_eq(accel_dtype_size(ACCEL_DTYPE_INVALID), 0u);
    cr_assert_eq(accel_dtype_kind_of(ACCEL_DTYPE_COUNT_), ACCEL_DTYPE_KIND_INVALID);
    cover("accel_status_string"), cover("accel_status_name"), cover("accel_dtype_size"),
        cover("accel_dtype_name"), cover("accel_dtype_kind_of");
    /* Codes that are no op: no row, name "unknown" (also between rows and
     * past the last slot). */
    const int no_op[] = {-1, 0, 3, 9, 16, 127, 128, 999, INT32_MAX, INT32_MIN};
    for (size_t i = 0; i < sizeof no_op / sizeof *no_op; ++i) {
        cr_assert_null(accel_op_info((accel_op_code)no_op[i]), "op %d has a row", no_op[i]);
        cr_assert_str_eq(accel_op_name((accel_op_code)no_op[i]), "unknown");
    }
    cr_assert_str_eq(accel_op_info(ACCEL_OP_ADD)->name, "add");
    cover("accel_op_info"), cover("accel_op_name");
    cr_assert_not_null(accel_last_error());
    cover("accel_last_error");
    cr_assert_str_eq(accel_version(), ACCEL_VERSION_STRING);
    cover("accel_version");
    /* Out-of-range log levels clamp rather than crash; NULL restores stderr. */
    accel_set_log_callback(count_log, NULL);
    accel_set_log_level(-5);
    accel_buffer_release((accel_buffer *)(void *)q); /* logs a warning */
    accel_set_log_level(1000);
    accel_set_log_callback(NULL, NULL);
    accel_set_log_level(ACCEL_LOG_WARN);
    cover("accel_set_log_callback"), cover("accel_set_log_level");
    cr_assert(g_log_calls >= 1, "the log callback saw no line at level -5");
}

/* ------------------------------------------------------------ npy */

/* Counted for the per-class summary (every_public_function_is_in_the_matrix). */
static size_t g_cases_files, g_cases_npy_edge;

static void body_npy(void)
{
    accel_npy_array a;
    memset(&a, 0x5A, sizeof a);
    const char *dir = tu_tmpdir();
    expect_fail(accel_npy_load(NULL, &a), ACCEL_ERROR_INVALID_ARGUMENT, "accel_npy_load");
    cr_assert_null(a.data, "*out must be zeroed on failure");
    expect_fail(accel_npy_load(tu_fmt("%s/x.npy", dir), NULL), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_npy_load");
    expect_fail(accel_npy_load(tu_fmt("%s/missing.npy", dir), &a), ACCEL_ERROR_NOT_FOUND,
                "accel_npy_load");
    expect_fail(accel_npy_load(dir, &a), ACCEL_ERROR_IO, "accel_npy_load"); /* a directory */
    expect_fail(accel_npy_load_memory(NULL, 10, "m", &a), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_npy_load_memory");
    expect_fail(accel_npy_load_memory("\x93NUMPY", 6, NULL, NULL), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_npy_load_memory");
    expect_fail(accel_npy_load_memory(NULL, 0, NULL, &a), ACCEL_ERROR_IO, "accel_npy_load_memory");
    /* A header promising SIZE_MAX/2 x 4 elements (count * 4 bytes overflows). */
    char hdr[128];
    const char *dict =
        "{'descr': '<f4', 'fortran_order': False, 'shape': (9223372036854775807, 4), }";
    size_t hl = strlen(dict) + 1;
    memcpy(hdr, "\x93NUMPY\x01\x00", 8);
    hdr[8] = (char)hl, hdr[9] = 0;
    memcpy(hdr + 10, dict, hl - 1);
    hdr[10 + hl - 1] = '\n';
    accel_status st = accel_npy_load_memory(hdr, 10 + hl, "overflow", &a);
    cover("accel_npy_load_memory");
    cr_assert(st == ACCEL_ERROR_IO || st == ACCEL_ERROR_UNSUPPORTED, "overflowing shape: %s (%s)",
              accel_status_name(st), accel_last_error());
    cr_assert(strstr(accel_last_error(), "overflow"), "%s", accel_last_error());
    cr_assert_null(a.data);

    float data[4] = {1, 2, 3, 4};
    size_t shape[ACCEL_NPY_MAX_DIMS + 1] = {2, 2, 1, 1, 1, 1, 1, 1, 1};
    const char *path = tu_fmt("%s/out.npy", dir);
    expect_fail(accel_npy_save(NULL, ACCEL_F32, 1, shape, data), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_npy_save");
    expect_fail(accel_npy_save(path, ACCEL_F32, ACCEL_NPY_MAX_DIMS + 1, shape, data),
                ACCEL_ERROR_INVALID_ARGUMENT, "accel_npy_save");
    expect_fail(accel_npy_save(path, ACCEL_F32, 1, NULL, data), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_npy_save");
    expect_fail(accel_npy_save(path, ACCEL_F32, 1, shape, NULL), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_npy_save");
    size_t huge[2] = {SIZE_MAX / 2, 3};
    expect_fail(accel_npy_save(path, ACCEL_F32, 2, huge, data), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_npy_save");
    expect_fail(accel_npy_save(path, ACCEL_BF16, 1, shape, data), ACCEL_ERROR_UNSUPPORTED,
                "accel_npy_save");
    expect_fail(accel_npy_save(path, (accel_dtype)99, 1, shape, data), ACCEL_ERROR_UNSUPPORTED,
                "accel_npy_save");
    expect_fail(accel_npy_save(tu_fmt("%s/no/such/dir/x.npy", dir), ACCEL_F32, 1, shape, data),
                ACCEL_ERROR_IO, "accel_npy_save");
    /* nothing was left behind by the failed saves */
    FILE *f = fopen(path, "rb");
    cr_assert_null(f, "a failed save left %s", path);
    /* zero elements: data may be NULL, and the file loads back with count 0 */
    size_t zero[2] = {0, 5};
    expect_ok(accel_npy_save(path, ACCEL_F64, 2, zero, NULL), "accel_npy_save");
    expect_ok(accel_npy_load(path, &a), "accel_npy_load");
    cr_assert(a.count == 0 && a.ndim == 2 && a.shape[1] == 5 && a.data != NULL, "count %zu ndim %u",
              a.count, a.ndim);
    accel_npy_free(&a);
    cr_assert_null(a.data);
    accel_npy_free(&a); /* freed twice: zeroed, so a no-op */
    accel_npy_free(NULL);
    cover("accel_npy_free");

    /* Class "files that never end or never open": a FIFO without a writer
     * (open() would block), endless devices, a folder: each refused at once
     * as not a regular file. */
    const char *fifo = tu_fmt("%s/input.fifo", dir);
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    const char *never[] = {fifo, "/dev/zero", "/dev/urandom", "/dev/null", dir};
    for (size_t i = 0; i < sizeof never / sizeof *never; ++i) {
        expect_fail(accel_npy_load(never[i], &a), ACCEL_ERROR_IO, "accel_npy_load");
        cr_assert(strstr(accel_last_error(), "not a .npy file"), "%s: %s", never[i],
                  accel_last_error());
        cr_assert_null(a.data);
        g_cases_files++;
    }
    /* The same files as the configuration of accel_runtime_open, and as a
     * backend's library (that backend is not loaded, the others are). */
    for (size_t i = 0; i < sizeof never / sizeof *never; ++i) {
        accel_runtime *r = NULL;
        expect_fail(accel_runtime_open(never[i], &r), ACCEL_ERROR_CONFIG, "accel_runtime_open");
        cr_assert(strstr(accel_last_error(), "not a regular file") ||
                      strstr(accel_last_error(), "directory"),
                  "%s: %s", never[i], accel_last_error());
        cr_assert_null(r);
        g_cases_files++;
        tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = cpu\n[backend.cpu]\nlibrary = %s\n"
                                 "[backend.odd]\nlibrary = %s\n",
                                 TU_CPU_PLUGIN, never[i]),
                          &r, NULL));
        accel_backend_info bi = tu_backend_info(r, "odd");
        cr_assert(!bi.loaded && strstr(bi.reason, "not a regular file"), "%s: %s", never[i],
                  bi.reason);
        cr_assert(tu_backend_info(r, "cpu").loaded);
        accel_runtime_close(r);
        g_cases_files++;
    }
    /* Class ".npy output edge cases": names of 244..255 bytes (NAME_MAX)
     * save and load back; shapes NumPy cannot hold are not saved. */
    for (size_t len = 244; len <= 255; ++len) {
        char name[256];
        memset(name, 'n', len);
        memcpy(name + len - 4, ".npy", 4);
        name[len] = '\0';
        const char *p = tu_fmt("%s/%s", dir, name);
        expect_ok(accel_npy_save(p, ACCEL_F32, 1, shape, data), "accel_npy_save");
        expect_ok(accel_npy_load(p, &a), "accel_npy_load");
        cr_assert(a.count == 2 && ((float *)a.data)[1] == 2.0f, "name of %zu bytes", len);
        accel_npy_free(&a);
        g_cases_npy_edge++;
    }
    size_t too_big[][2] = {{0, (size_t)1 << 63},
                           {(size_t)1 << 63, 0},
                           {0, SIZE_MAX},
                           {0, (size_t)1 << 61},
                           {(size_t)1 << 61, 0}};
    for (size_t i = 0; i < sizeof too_big / sizeof *too_big; ++i) {
        expect_fail(accel_npy_save(path, ACCEL_F32, 2, too_big[i], NULL),
                    ACCEL_ERROR_INVALID_ARGUMENT, "accel_npy_save");
        g_cases_npy_edge++;
    }
    /* The largest empty f32 shapes NumPy holds: saved, and loaded back. */
    size_t fits[][2] = {{0, ((size_t)1 << 61) - 1}, {((size_t)1 << 61) - 1, 0}};
    for (size_t i = 0; i < 2; ++i) {
        expect_ok(accel_npy_save(path, ACCEL_F32, 2, fits[i], NULL), "accel_npy_save");
        expect_ok(accel_npy_load(path, &a), "accel_npy_load");
        cr_assert(a.count == 0 && a.shape[0] == fits[i][0] && a.shape[1] == fits[i][1]);
        accel_npy_free(&a);
        g_cases_npy_edge++;
    }
}

/* ------------------------------------------- stale and foreign handles */

/* Class "stale handle, memory reused": a released handle whose object's
 * memory the allocator may have handed to a new object of the same type
 * (created right after the release and still alive). Class "handle of
 * another runtime": one handle of a call from a second runtime. Each cell
 * asserts the status, the function's name, and that the live object the
 * stale handle might alias is untouched and still works. */
static size_t g_cases_stale, g_cases_foreign;

#define expect_stale(call, fn)                                                                     \
    do {                                                                                           \
        expect_fail(call, ACCEL_ERROR_INVALID_HANDLE, fn);                                         \
        g_cases_stale++;                                                                           \
    } while (0)

#define expect_foreign(call, fn)                                                                   \
    do {                                                                                           \
        expect_fail(call, ACCEL_ERROR_DEVICE_MISMATCH, fn);                                        \
        cr_assert(strstr(accel_last_error(), "runtime #"), "%s: \"%s\" names no runtime", fn,      \
                  accel_last_error());                                                             \
        g_cases_foreign++;                                                                         \
    } while (0)

static accel_status call_gemm_with(accel_queue *qq, accel_buffer *a, accel_buffer *b,
                                   accel_buffer *c)
{
    accel_gemm_desc d;
    accel_gemm_desc_init(&d);
    d.m = d.n = d.k = 2;
    d.a = a, d.lda = 2, d.a_offset = TU_GUARD;
    d.b = b, d.ldb = 2, d.b_offset = TU_GUARD;
    d.c = c, d.ldc = 2, d.c_offset = TU_GUARD;
    return accel_gemm(qq, &d);
}

static void body_stale_and_foreign_handles(void)
{
    /* Stale handles of every type, each followed by a live object of the
     * same type created at once (the likeliest to reuse its memory). */
    accel_buffer *sb = released_buffer();
    tu_dbuf live = sentinel_on(q);
    accel_queue *sq, *lq;
    tu_ok(accel_queue_create(cpu, &sq));
    accel_queue_release(sq);
    tu_ok(accel_queue_create(cpu, &lq));
    accel_event *se, *le;
    tu_ok(accel_event_create(cpu, &se));
    accel_event_release(se);
    tu_ok(accel_event_create(cpu, &le));
    accel_runtime *srt;
    accel_device *sdev;
    closed_runtime(&srt, &sdev);
    accel_runtime *rt2;
    tu_ok(accel_runtime_open(TU_DEFAULT_CONFIG, &rt2));
    const uint32_t rt2_devices = accel_device_count(rt2);
    accel_device *dev2;
    tu_ok(accel_device_get_by_name(rt2, "cpu", &dev2));
    accel_queue *q2;
    tu_ok(accel_queue_create(dev2, &q2));
    tu_dbuf other = sentinel_on(q2);
    accel_event *e2;
    tu_ok(accel_event_create(dev2, &e2));

    op_bufs o = bufs_make(q);
    float host[N + 2 * TU_GUARD];
    for (size_t k = 0; k < NOPS; ++k) {
        const op_entry *op = &ops[k];
        accel_slice s[3];
        valid_slices(op, &o, s);
        expect_stale(op->call(sq, ACCEL_F32, s), op->name);
        for (unsigned i = 0; i < n_operands(op->kind); ++i) {
            accel_slice t[3];
            memcpy(t, s, sizeof t);
            t[i].buffer = sb;
            expect_stale(op->call(q, ACCEL_F32, t), op->name);
            t[i].buffer = other.buf;
            expect_foreign(op->call(q, ACCEL_F32, t), op->name);
        }
        /* All operands of this runtime but the queue of the other. */
        expect_foreign(op->call(q2, ACCEL_F32, s), op->name);
    }
    static const char G[] = "accel_gemm", M[] = "accel_matmul", T[] = "accel_transpose_2d";
    accel_buffer *gb[3] = {o.b[0].buf, o.b[1].buf, o.b[2].buf};
    expect_stale(call_gemm_with(sq, gb[0], gb[1], gb[2]), G);
    expect_foreign(call_gemm_with(q2, gb[0], gb[1], gb[2]), G);
    expect_stale(accel_matmul(sq, ACCEL_F32, 2, 2, 2, gb[0], gb[1], gb[2]), M);
    expect_foreign(accel_matmul(q2, ACCEL_F32, 2, 2, 2, gb[0], gb[1], gb[2]), M);
    expect_stale(accel_transpose_2d(sq, ACCEL_F32, 2, 2, gb[0], 0, 2, gb[1], 0, 2), T);
    expect_foreign(accel_transpose_2d(q2, ACCEL_F32, 2, 2, gb[0], 0, 2, gb[1], 0, 2), T);
    for (int i = 0; i < 3; ++i) {
        accel_buffer *t[3] = {gb[0], gb[1], gb[2]};
        t[i] = sb;
        expect_stale(call_gemm_with(q, t[0], t[1], t[2]), G);
        expect_stale(accel_matmul(q, ACCEL_F32, 2, 2, 2, t[0], t[1], t[2]), M);
        t[i] = other.buf;
        expect_foreign(call_gemm_with(q, t[0], t[1], t[2]), G);
        expect_foreign(accel_matmul(q, ACCEL_F32, 2, 2, 2, t[0], t[1], t[2]), M);
        if (i < 2) {
            accel_buffer *x = i == 0 ? sb : gb[0], *out = i == 1 ? sb : gb[1];
            expect_stale(accel_transpose_2d(q, ACCEL_F32, 2, 2, x, 0, 2, out, 0, 2), T);
            x = i == 0 ? other.buf : gb[0], out = i == 1 ? other.buf : gb[1];
            expect_foreign(accel_transpose_2d(q, ACCEL_F32, 2, 2, x, 0, 2, out, 0, 2), T);
        }
    }

    /* Transfers and copies. */
    size_t bytes = sizeof host;
    expect_stale(accel_queue_write(sq, live.buf, 0, host, bytes), "accel_queue_write");
    expect_stale(accel_queue_write(q, sb, 0, host, 64), "accel_queue_write");
    expect_foreign(accel_queue_write(q, other.buf, 0, host, bytes), "accel_queue_write");
    expect_stale(accel_queue_read(sq, live.buf, 0, host, bytes), "accel_queue_read");
    expect_stale(accel_queue_read(q, sb, 0, host, 64), "accel_queue_read");
    expect_foreign(accel_queue_read(q, other.buf, 0, host, bytes), "accel_queue_read");
    expect_stale(accel_queue_write_blocking(sq, live.buf, 0, host, bytes),
                 "accel_queue_write_blocking");
    expect_stale(accel_queue_write_blocking(q, sb, 0, host, 64), "accel_queue_write_blocking");
    expect_foreign(accel_queue_write_blocking(q, other.buf, 0, host, bytes),
                   "accel_queue_write_blocking");
    expect_stale(accel_queue_read_blocking(sq, live.buf, 0, host, bytes),
                 "accel_queue_read_blocking");
    expect_stale(accel_queue_read_blocking(q, sb, 0, host, 64), "accel_queue_read_blocking");
    expect_foreign(accel_queue_read_blocking(q, other.buf, 0, host, bytes),
                   "accel_queue_read_blocking");
    expect_stale(accel_queue_copy(sq, live.buf, 0, o.b[0].buf, 0, 64), "accel_queue_copy");
    expect_stale(accel_queue_copy(q, sb, 0, live.buf, 0, 64), "accel_queue_copy");
    expect_stale(accel_queue_copy(q, live.buf, 0, sb, 0, 64), "accel_queue_copy");
    expect_foreign(accel_queue_copy(q, other.buf, 0, live.buf, 0, 64), "accel_queue_copy");
    expect_foreign(accel_queue_copy(q, live.buf, 0, other.buf, 0, 64), "accel_queue_copy");
    expect_foreign(accel_queue_copy(q2, live.buf, 0, other.buf, 0, 64), "accel_queue_copy");
    expect_stale(accel_queue_finish(sq), "accel_queue_finish");
    {
        accel_queue *list[3] = {lq, sq, q};
        expect_stale(accel_queue_wait_queues(lq, list, 3), "accel_queue_wait_queues");
        expect_stale(accel_queue_wait_queues(sq, list, 1), "accel_queue_wait_queues");
        list[1] = q2;
        expect_foreign(accel_queue_wait_queues(lq, list, 3), "accel_queue_wait_queues");
        expect_foreign(accel_queue_wait_queues(q2, list, 1), "accel_queue_wait_queues");
        list[1] = NULL;
        expect_fail(accel_queue_wait_queues(lq, list, 3), ACCEL_ERROR_INVALID_HANDLE,
                    "accel_queue_wait_queues");
        cr_assert(strstr(accel_last_error(), "queues[1]"), "%s", accel_last_error());
        list[1] = (accel_queue *)(void *)live.buf;
        expect_fail(accel_queue_wait_queues(lq, list, 3), ACCEL_ERROR_INVALID_HANDLE,
                    "accel_queue_wait_queues");
        expect_fail(accel_queue_wait_queues(NULL, list, 1), ACCEL_ERROR_INVALID_HANDLE,
                    "accel_queue_wait_queues");
        expect_fail(accel_queue_wait_queues(lq, NULL, 2), ACCEL_ERROR_INVALID_ARGUMENT,
                    "accel_queue_wait_queues");
        list[1] = mq; /* another backend of the same runtime: fine */
        expect_ok(accel_queue_wait_queues(q, list, 3), "accel_queue_wait_queues");
        expect_ok(accel_queue_wait_queues(q, NULL, 0), "accel_queue_wait_queues");
        tu_ok(accel_queue_finish(q));
    }

    /* Functions added with the shorter forms, 2-D transfers, random streams
     * and zero-copy exchange. */
    {
        accel_buffer *nb = NULL;
        expect_stale(accel_buffer_create_from_host(sq, host, 16, &nb),
                     "accel_buffer_create_from_host");
        cr_assert_null(nb);
        accel_matrix ma = accel_matrix_of(o.b[0].buf, TU_GUARD, 2, 2, 2);
        accel_matrix mb = accel_matrix_of(o.b[1].buf, TU_GUARD, 2, 2, 2);
        accel_matrix mc = accel_matrix_of(o.b[2].buf, TU_GUARD, 2, 2, 2);
        static const char MS[] = "accel_matmul_sub";
        expect_stale(accel_matmul_sub(sq, ACCEL_F32, ma, mb, mc), MS);
        expect_foreign(accel_matmul_sub(q2, ACCEL_F32, ma, mb, mc), MS);
        for (int i = 0; i < 3; ++i) {
            accel_matrix m3[3] = {ma, mb, mc};
            m3[i].buffer = sb;
            expect_stale(accel_matmul_sub(q, ACCEL_F32, m3[0], m3[1], m3[2]), MS);
            m3[i].buffer = other.buf;
            expect_foreign(accel_matmul_sub(q, ACCEL_F32, m3[0], m3[1], m3[2]), MS);
        }
        static const char W2[] = "accel_queue_write_2d", R2[] = "accel_queue_read_2d",
                          C2[] = "accel_queue_copy_2d";
        expect_stale(accel_queue_write_2d(sq, live.buf, 0, 8, host, 8, 8, 2), W2);
        expect_stale(accel_queue_write_2d(q, sb, 0, 8, host, 8, 8, 2), W2);
        expect_foreign(accel_queue_write_2d(q, other.buf, 0, 8, host, 8, 8, 2), W2);
        expect_stale(accel_queue_read_2d(sq, live.buf, 0, 8, host, 8, 8, 2), R2);
        expect_stale(accel_queue_read_2d(q, sb, 0, 8, host, 8, 8, 2), R2);
        expect_foreign(accel_queue_read_2d(q, other.buf, 0, 8, host, 8, 8, 2), R2);
        expect_stale(accel_queue_copy_2d(sq, live.buf, 0, 8, o.b[0].buf, 0, 8, 8, 2), C2);
        expect_stale(accel_queue_copy_2d(q, sb, 0, 8, live.buf, 0, 8, 8, 2), C2);
        expect_stale(accel_queue_copy_2d(q, live.buf, 0, 8, sb, 0, 8, 8, 2), C2);
        expect_foreign(accel_queue_copy_2d(q, other.buf, 0, 8, live.buf, 0, 8, 8, 2), C2);
        expect_foreign(accel_queue_copy_2d(q, live.buf, 0, 8, other.buf, 0, 8, 8, 2), C2);
        accel_rng *rng;
        tu_ok(accel_rng_create(7, &rng));
        expect_stale(accel_rng_uniform(sq, rng, ACCEL_F32, accel_slice_of(live.buf, TU_GUARD, 4)),
                     "accel_rng_uniform");
        expect_stale(accel_rng_uniform(q, rng, ACCEL_F32, accel_slice_of(sb, 0, 4)),
                     "accel_rng_uniform");
        expect_foreign(accel_rng_uniform(q, rng, ACCEL_F32, accel_slice_of(other.buf, 0, 4)),
                       "accel_rng_uniform");
        expect_stale(
            accel_rng_normal(sq, rng, ACCEL_F32, 0.0, 1.0, accel_slice_of(live.buf, TU_GUARD, 4)),
            "accel_rng_normal");
        expect_stale(accel_rng_normal(q, rng, ACCEL_F32, 0.0, 1.0, accel_slice_of(sb, 0, 4)),
                     "accel_rng_normal");
        expect_foreign(
            accel_rng_normal(q, rng, ACCEL_F32, 0.0, 1.0, accel_slice_of(other.buf, 0, 4)),
            "accel_rng_normal");
        accel_rng_release(rng);
        void *np = (void *)1;
        expect_stale(accel_buffer_native_pointer(sb, &np), "accel_buffer_native_pointer");
        expect_stale(accel_queue_native_stream(sq, &np), "accel_queue_native_stream");
        cover("accel_buffer_host_pointer");
        cr_assert_null(accel_buffer_host_pointer(sb));
        g_cases_stale++;
        nb = NULL;
        expect_stale(accel_buffer_wrap(sdev, host, 16, NULL, NULL, &nb), "accel_buffer_wrap");
        cr_assert_null(nb);
    }
    /* Verify mode, fallback and the report on a closed runtime. */
    {
        accel_verify_options vo;
        accel_verify_options_init(&vo);
        accel_verify_stats vs;
        vs.struct_size = sizeof vs;
        accel_report_row row;
        row.struct_size = sizeof row;
        size_t cnt;
        char text[64];
        expect_stale(accel_verify_configure(srt, &vo), "accel_verify_configure");
        expect_stale(accel_verify_stats_get(srt, &vs), "accel_verify_stats_get");
        expect_stale(accel_fallback_configure(srt, "cpu", true), "accel_fallback_configure");
        expect_stale(accel_report_enable(srt, true), "accel_report_enable");
        expect_stale(accel_report(srt, &row, 1, &cnt), "accel_report");
        expect_stale(accel_report_format(srt, text, sizeof text, NULL), "accel_report_format");
    }

    /* Events. */
    bool done;
    double ms;
    expect_stale(accel_event_record(se, lq), "accel_event_record");
    expect_stale(accel_event_record(le, sq), "accel_event_record");
    expect_foreign(accel_event_record(le, q2), "accel_event_record");
    expect_foreign(accel_event_record(e2, lq), "accel_event_record");
    expect_stale(accel_queue_wait_event(sq, le), "accel_queue_wait_event");
    expect_stale(accel_queue_wait_event(lq, se), "accel_queue_wait_event");
    expect_foreign(accel_queue_wait_event(lq, e2), "accel_queue_wait_event");
    expect_foreign(accel_queue_wait_event(q2, le), "accel_queue_wait_event");
    expect_stale(accel_event_synchronize(se), "accel_event_synchronize");
    expect_stale(accel_event_query(se, &done), "accel_event_query");
    tu_ok(accel_event_record(le, lq));
    tu_ok(accel_event_record(e2, q2));
    tu_ok(accel_event_synchronize(le));
    tu_ok(accel_event_synchronize(e2));
    expect_stale(accel_event_elapsed_ms(se, le, &ms), "accel_event_elapsed_ms");
    expect_stale(accel_event_elapsed_ms(le, se, &ms), "accel_event_elapsed_ms");
    expect_foreign(accel_event_elapsed_ms(le, e2, &ms), "accel_event_elapsed_ms");

    /* Devices and runtimes (sdev and srt: of a closed runtime; rt2 is open
     * and may have its memory). */
    accel_buffer *nb = NULL;
    accel_queue *nq = NULL;
    accel_event *ne = NULL;
    void *hp = NULL;
    accel_device *nd = NULL;
    accel_device_properties props;
    accel_device_properties_init(&props);
    accel_ceilings ceil;
    memset(&ceil, 0, sizeof ceil);
    ceil.struct_size = sizeof ceil;
    accel_backend_info info;
    expect_stale(accel_buffer_create(sdev, 16, &nb), "accel_buffer_create");
    expect_stale(accel_queue_create(sdev, &nq), "accel_queue_create");
    expect_stale(accel_event_create(sdev, &ne), "accel_event_create");
    expect_stale(accel_host_alloc(sdev, 16, &hp), "accel_host_alloc");
    expect_stale(accel_device_properties_get(sdev, &props), "accel_device_properties_get");
    expect_stale(accel_device_measure_ceilings(sdev, NULL, &ceil), "accel_device_measure_ceilings");
    expect_stale(accel_device_get(srt, 0, &nd), "accel_device_get");
    expect_stale(accel_device_get_by_name(srt, "cpu", &nd), "accel_device_get_by_name");
    expect_stale(accel_device_default(srt, &nd), "accel_device_default");
    expect_stale(accel_runtime_backend_info(srt, 0, &info), "accel_runtime_backend_info");
    cr_assert(!nb && !nq && !ne && !hp && !nd);
    cover("accel_device_name");
    cr_assert_str_eq(accel_device_name(sdev), "");
    cover("accel_device_count");
    cr_assert_eq(accel_device_count(srt), 0);
    cover("accel_runtime_backend_count");
    cr_assert_eq(accel_runtime_backend_count(srt), 0);
    cover("accel_runtime_config_path");
    cr_assert_str_eq(accel_runtime_config_path(srt), "");
    cover("accel_buffer_size");
    cr_assert_eq(accel_buffer_size(sb), 0);
    cover("accel_buffer_device");
    cr_assert_null(accel_buffer_device(sb));
    cover("accel_queue_device");
    cr_assert_null(accel_queue_device(sq));
    g_cases_stale += 7;
    /* Releases of stale handles: warnings; the live objects stay usable. */
    accel_buffer_release(sb);
    accel_queue_release(sq);
    accel_event_release(se);
    accel_runtime_close(srt);
    accel_host_free(dev2, NULL);
    g_cases_stale += 4;
    cr_assert_eq(accel_device_count(rt2), rt2_devices, "rt2 still has its devices");
    tu_ok(accel_event_record(le, lq));
    tu_ok(accel_event_synchronize(le));
    tu_ok(accel_queue_finish(lq));

    expect_untouched(&live, "the live buffer after calls with a stale one");
    expect_untouched_on(q2, &other, "the other runtime's buffer after mixed calls");
    bufs_check_and_free(&o, "stale and foreign handles");
    tu_release(&live);
    accel_queue_release(lq);
    accel_event_release(le);
    accel_runtime_close(rt2);
    cr_log_info("class stale handle (memory reused): %zu cases; class handle of another runtime: "
                "%zu cases",
                g_cases_stale, g_cases_foreign);
}

/* ------------------------------------------------------------ struct_size */

/* Class "struct_size both ways": every versioned struct in or out of the
 * public API (accel_runtime_backend_info has its own cells above). Below
 * the first version's size: refused, nothing read past struct_size (in) or
 * written (out). A newer caller's larger struct: accepted; out, only our
 * bytes are written and struct_size says how many, the tail is untouched;
 * in, the extra tail is ignored. The first versions' sizes are restated
 * here (up to the end of the last field as first published). */
#define SIZE_UPTO(type, last) (offsetof(type, last) + sizeof(((type *)0)->last))
#define TAIL 32

typedef struct out_probe {
    unsigned char bytes[2048 + TAIL];
} out_probe;

static void *probe_with(out_probe *p, uint32_t size)
{
    memset(p->bytes, 0xCC, sizeof p->bytes);
    memcpy(p->bytes, &size, sizeof size);
    return p->bytes;
}

static void probe_untouched_from(const out_probe *p, size_t from, const char *what)
{
    for (size_t i = from; i < sizeof p->bytes; ++i)
        cr_assert(p->bytes[i] == 0xCC, "%s: byte %zu written", what, i);
}

static uint32_t probe_size(const out_probe *p)
{
    uint32_t v;
    memcpy(&v, p->bytes, sizeof v);
    return v;
}

static size_t g_cases_struct;

/* An out struct of current size `ours` and first version `v1`, filled by
 * call(ptr): below v1 refused and untouched; larger accepted, `ours`
 * bytes written. */
#define OUT_CASES(fn, ours, v1, call_with_ptr)                                                     \
    do {                                                                                           \
        out_probe pr;                                                                              \
        cr_assert((ours) + TAIL <= sizeof pr.bytes);                                               \
        const uint32_t bad[] = {0, 4, (uint32_t)(v1)-1};                                           \
        for (size_t j = 0; j < sizeof bad / sizeof *bad; ++j) {                                    \
            void *ptr = probe_with(&pr, bad[j]);                                                   \
            expect_fail((call_with_ptr), ACCEL_ERROR_INVALID_ARGUMENT, fn);                        \
            cr_assert(strstr(accel_last_error(), "struct_size"), "%s", accel_last_error());        \
            probe_untouched_from(&pr, 4, fn);                                                      \
            g_cases_struct++;                                                                      \
        }                                                                                          \
        void *ptr = probe_with(&pr, (uint32_t)((ours) + TAIL));                                    \
        expect_ok((call_with_ptr), fn);                                                            \
        cr_assert_eq(probe_size(&pr), (uint32_t)(ours), "%s: struct_size after", fn);              \
        probe_untouched_from(&pr, (ours), fn);                                                     \
        g_cases_struct++;                                                                          \
    } while (0)

static void body_struct_size(void)
{
    OUT_CASES("accel_device_properties_get", sizeof(accel_device_properties),
              SIZE_UPTO(accel_device_properties, reserved),
              accel_device_properties_get(cpu, (accel_device_properties *)ptr));
    OUT_CASES("accel_verify_stats_get", sizeof(accel_verify_stats),
              SIZE_UPTO(accel_verify_stats, repro_files),
              accel_verify_stats_get(rt, (accel_verify_stats *)ptr));
    /* Report rows: rows[0].struct_size is every element's size (the stride). */
    tu_ok(accel_report_enable(rt, true));
    tu_dbuf one = sentinel_on(q);
    tu_ok(accel_fill(q, ACCEL_F32, TU_SENTINEL, tu_slice(&one)));
    tu_ok(accel_queue_finish(q));
    size_t count = 0;
    OUT_CASES("accel_report", sizeof(accel_report_row), SIZE_UPTO(accel_report_row, reason),
              accel_report(rt, (accel_report_row *)ptr, 1, &count));
    cr_assert(count >= 1);
    tu_ok(accel_report_enable(rt, false));
    /* Ceilings: only the refusals (a measurement takes seconds), on the cpu. */
    {
        out_probe pr;
        const uint32_t bad[] = {0, 4, (uint32_t)SIZE_UPTO(accel_ceilings, reserved) - 1};
        for (size_t j = 0; j < 3; ++j) {
            accel_ceilings *c = probe_with(&pr, bad[j]);
            expect_fail(accel_device_measure_ceilings(cpu, NULL, c), ACCEL_ERROR_INVALID_ARGUMENT,
                        "accel_device_measure_ceilings");
            probe_untouched_from(&pr, 4, "accel_device_measure_ceilings");
            g_cases_struct++;
        }
        accel_ceilings c;
        memset(&c, 0, sizeof c);
        c.struct_size = sizeof c;
        accel_ceilings_options o;
        accel_ceilings_options_init(&o);
        o.struct_size = (uint32_t)SIZE_UPTO(accel_ceilings_options, reserved) - 1;
        expect_fail(accel_device_measure_ceilings(cpu, &o, &c), ACCEL_ERROR_INVALID_ARGUMENT,
                    "accel_device_measure_ceilings");
        cr_assert(strstr(accel_last_error(), "opt->struct_size"), "%s", accel_last_error());
        g_cases_struct++;
        /* Bits that name no ceiling, and GEMM sizes whose matrices a size_t
         * cannot count (2^31: n*n*8 wraps; it used to crash the CPU
         * backend's fill), are refused before anything is measured. */
        const struct {
            uint32_t what;
            uint64_t gemm_n;
            const char *names;
        } opts[] = {{0xffffffe0u, 0, "opt->what"},
                    {ACCEL_CEILING_ALL + 1, 0, "opt->what"},
                    {ACCEL_CEILING_GEMM, (uint64_t)1 << 31, "opt->gemm_n"},
                    {ACCEL_CEILING_GEMM, (uint64_t)1 << 62, "opt->gemm_n"},
                    {ACCEL_CEILING_GEMM, ((uint64_t)1 << 20) + 1, "opt->gemm_n"}};
        for (size_t j = 0; j < sizeof opts / sizeof opts[0]; ++j) {
            accel_ceilings_options_init(&o);
            o.what = opts[j].what;
            o.gemm_n = opts[j].gemm_n;
            memset(&c, 0, sizeof c);
            c.struct_size = sizeof c;
            expect_fail(accel_device_measure_ceilings(cpu, &o, &c), ACCEL_ERROR_INVALID_ARGUMENT,
                        "accel_device_measure_ceilings");
            cr_assert(strstr(accel_last_error(), opts[j].names), "case %zu: %s", j,
                      accel_last_error());
            cr_assert_eq(c.gemm_tflops[ACCEL_F32], 0.0, "case %zu measured anyway", j);
            g_cases_struct++;
        }
    }
    /* In: accel_verify_configure's options. */
    {
        struct {
            accel_verify_options o;
            unsigned char tail[TAIL];
        } big;
        memset(&big, 0xEE, sizeof big);
        accel_verify_options_init(&big.o);
        const uint32_t bad[] = {0, 4,
                                (uint32_t)SIZE_UPTO(accel_verify_options, guard_elements) - 1};
        for (size_t j = 0; j < 3; ++j) {
            big.o.struct_size = bad[j];
            expect_fail(accel_verify_configure(rt, &big.o), ACCEL_ERROR_INVALID_ARGUMENT,
                        "accel_verify_configure");
            g_cases_struct++;
        }
        big.o.struct_size = sizeof big; /* a newer caller: the tail is ignored */
        big.o.reference = NULL;         /* verify mode off, as before */
        expect_ok(accel_verify_configure(rt, &big.o), "accel_verify_configure");
        g_cases_struct++;
    }
    /* In: accel_gemm's descriptor, checked before any other field is read
     * (the buffers are garbage here: a refusal must come from struct_size). */
    {
        gemm_bufs g = gemm_make();
        struct {
            accel_gemm_desc d;
            unsigned char tail[TAIL];
        } big;
        const uint32_t bad[] = {0, 4, (uint32_t)SIZE_UPTO(accel_gemm_desc, allow_tf32) - 1};
        for (size_t j = 0; j < 3; ++j) {
            memset(&big, 0xEE, sizeof big);
            big.d.struct_size = bad[j];
            expect_fail(accel_gemm(q, &big.d), ACCEL_ERROR_INVALID_ARGUMENT, "accel_gemm");
            cr_assert(strstr(accel_last_error(), "d->struct_size"), "%s", accel_last_error());
            g_cases_struct++;
        }
        /* Newer caller: a valid GEMM, the tail ignored; it computes. */
        memset(&big, 0xEE, sizeof big);
        big.d = g.d;
        big.d.struct_size = sizeof big;
        expect_ok(accel_gemm(q, &big.d), "accel_gemm");
        g_cases_struct++;
        tu_ok(accel_queue_finish(q));
        /* A = B = sentinel: C[i][j] = 5 * s^2 (beta 0), exact in f32? s = -1234.5,
         * s^2 = 1524, 990.25 needs 21 bits: exact; times 5 exact too. */
        double c[12];
        tu_download(q, &g.c, c);
        double want = 5.0 * (double)(float)TU_SENTINEL * (double)(float)TU_SENTINEL;
        for (int i = 0; i < 12; ++i)
            cr_assert(c[i] == (double)(float)want, "C[%d] = %g, expected %g", i, c[i], want);
        tu_check_guards(q, &g.c, "gemm from a newer caller");
        expect_untouched(&g.a, "A"), expect_untouched(&g.b, "B");
        tu_release(&g.a), tu_release(&g.b), tu_release(&g.c);
    }
    expect_untouched(&one, "report buffer");
    tu_release(&one);
    cr_log_info("class struct_size both ways: %zu cases", g_cases_struct);
}

/* ------------------------------------------------------------ tests */

typedef struct body {
    const char *name;
    void (*fn)(void);
} body;

/* The shorter C path and zero-copy exchange: one-call buffers, matrix views,
 * 2-D transfers, random streams, native pointers and wrapped memory. */
static void body_shorter_path(void)
{
    static const char CF[] = "accel_buffer_create_from_host", MS[] = "accel_matmul_sub",
                      W2[] = "accel_queue_write_2d", R2[] = "accel_queue_read_2d",
                      C2[] = "accel_queue_copy_2d", RC[] = "accel_rng_create",
                      RG[] = "accel_rng_get", RS[] = "accel_rng_seek", RU[] = "accel_rng_uniform",
                      RN[] = "accel_rng_normal", RR[] = "accel_rng_release",
                      HP[] = "accel_buffer_host_pointer", NP[] = "accel_buffer_native_pointer",
                      NS[] = "accel_queue_native_stream", BW[] = "accel_buffer_wrap";
    tu_dbuf b = sentinel_on(q), b2 = sentinel_on(q);
    size_t bytes = total_elems(&b) * sizeof(float);
    accel_buffer *dead = released_buffer(), *out = NULL;
    float h[64] = {0};
    expect_fail(accel_buffer_create_from_host(NULL, h, 4, &out), ACCEL_ERROR_INVALID_HANDLE, CF);
    expect_fail(accel_buffer_create_from_host(q, NULL, 4, &out), ACCEL_ERROR_INVALID_ARGUMENT, CF);
    expect_fail(accel_buffer_create_from_host(q, h, 4, NULL), ACCEL_ERROR_INVALID_ARGUMENT, CF);
    expect_ok(accel_buffer_create_from_host(q, NULL, 0, &out), CF);
    accel_buffer_release(out);

    accel_matrix a = accel_matrix_of(b.buf, 0, 2, 3, 3), m = accel_matrix_of(b2.buf, 0, 2, 2, 2);
    expect_fail(accel_matmul_sub(q, ACCEL_F32, a, m, m), ACCEL_ERROR_SHAPE_MISMATCH, MS);
    expect_ok(accel_matmul_sub(q, ACCEL_F32, accel_matrix_of(b.buf, 0, 0, 0, 0),
                               accel_matrix_of(b.buf, 0, 0, 0, 0),
                               accel_matrix_of(b2.buf, 0, 0, 0, 0)),
              MS);

    const struct {
        const char *fn;
        int kind; /* 0 write, 1 read, 2 copy */
    } xf[3] = {{W2, 0}, {R2, 1}, {C2, 2}};
    for (int i = 0; i < 3; ++i) {
        const char *fn = xf[i].fn;
#define X2(QQ, BUF, OFF, PITCH, HOSTP, HPITCH, WIDTH, HEIGHT)                                      \
    (xf[i].kind == 0 ? accel_queue_write_2d(QQ, BUF, OFF, PITCH, HOSTP, HPITCH, WIDTH, HEIGHT)     \
     : xf[i].kind == 1                                                                             \
         ? accel_queue_read_2d(QQ, BUF, OFF, PITCH, HOSTP, HPITCH, WIDTH, HEIGHT)                  \
         : accel_queue_copy_2d(QQ, BUF, OFF, PITCH, b2.buf, 0, HPITCH, WIDTH, HEIGHT))
        expect_fail(X2(NULL, b.buf, 0, 8, h, 8, 8, 2), ACCEL_ERROR_INVALID_HANDLE, fn);
        expect_fail(X2(q, dead, 0, 8, h, 8, 8, 2), ACCEL_ERROR_INVALID_HANDLE, fn);
        expect_fail(X2(q, b.buf, 0, 4, h, 8, 8, 2), ACCEL_ERROR_INVALID_ARGUMENT, fn);
        expect_fail(X2(q, b.buf, 0, 8, h, 4, 8, 2), ACCEL_ERROR_INVALID_ARGUMENT, fn);
        expect_fail(X2(q, b.buf, bytes - 8, 8, h, 8, 8, 2), ACCEL_ERROR_OUT_OF_RANGE, fn);
        expect_fail(X2(q, b.buf, 0, SIZE_MAX / 2, h, SIZE_MAX / 2, 1, 4), ACCEL_ERROR_OUT_OF_RANGE,
                    fn);
        expect_ok(X2(q, b.buf, 0, 8, h, 8, 0, 2), fn);
#undef X2
    }
    expect_fail(accel_queue_write_2d(q, b.buf, 0, 8, NULL, 8, 8, 2), ACCEL_ERROR_INVALID_ARGUMENT,
                W2);
    expect_fail(accel_queue_read_2d(q, b.buf, 0, 8, NULL, 8, 8, 2), ACCEL_ERROR_INVALID_ARGUMENT,
                R2);
    expect_fail(accel_queue_copy_2d(q, b.buf, 0, 8, b.buf, 4, 8, 8, 2),
                ACCEL_ERROR_INVALID_ARGUMENT, C2);
    expect_fail(accel_queue_copy_2d(q, b.buf, 0, 8, NULL, 4, 8, 8, 2), ACCEL_ERROR_INVALID_HANDLE,
                C2);

    accel_rng *rng = NULL, *dead_rng = NULL;
    expect_fail(accel_rng_create(1, NULL), ACCEL_ERROR_INVALID_ARGUMENT, RC);
    expect_ok(accel_rng_create(1, &dead_rng), RC);
    cover(RR);
    accel_rng_release(dead_rng);
    accel_rng_release(NULL);
    expect_ok(accel_rng_create(2, &rng), RC);
    uint64_t pos = 0;
    expect_fail(accel_rng_get(NULL, NULL, &pos), ACCEL_ERROR_INVALID_HANDLE, RG);
    expect_fail(accel_rng_get(dead_rng, NULL, &pos), ACCEL_ERROR_INVALID_HANDLE, RG);
    expect_ok(accel_rng_get(rng, NULL, NULL), RG);
    expect_fail(accel_rng_seek(dead_rng, 0), ACCEL_ERROR_INVALID_HANDLE, RS);
    expect_ok(accel_rng_seek(rng, 0), RS);
    expect_fail(accel_rng_uniform(q, dead_rng, ACCEL_F32, tu_slice(&b)), ACCEL_ERROR_INVALID_HANDLE,
                RU);
    expect_fail(accel_rng_uniform(q, rng, ACCEL_BF16, tu_slice(&b)), ACCEL_ERROR_DTYPE_MISMATCH,
                RU);
    expect_fail(accel_rng_normal(q, NULL, ACCEL_F32, 0, 1, tu_slice(&b)),
                ACCEL_ERROR_INVALID_HANDLE, RN);
    expect_fail(accel_rng_normal(q, rng, ACCEL_DTYPE_INVALID, 0, 1, tu_slice(&b)),
                ACCEL_ERROR_DTYPE_MISMATCH, RN);
    expect_ok(accel_rng_uniform(q, rng, ACCEL_F32, accel_slice_of(b.buf, 0, 0)), RU);
    expect_ok(accel_rng_normal(q, rng, ACCEL_F32, 0, 1, accel_slice_of(b.buf, 0, 0)), RN);
    accel_rng_release(rng);

    cover(HP);
    cr_assert_null(accel_buffer_host_pointer(NULL));
    cr_assert_null(accel_buffer_host_pointer(dead));
    cr_assert_not_null(accel_buffer_host_pointer(b.buf));
    void *p = NULL;
    expect_fail(accel_buffer_native_pointer(NULL, &p), ACCEL_ERROR_INVALID_HANDLE, NP);
    expect_fail(accel_buffer_native_pointer(dead, &p), ACCEL_ERROR_INVALID_HANDLE, NP);
    expect_fail(accel_buffer_native_pointer(b.buf, NULL), ACCEL_ERROR_INVALID_ARGUMENT, NP);
    expect_ok(accel_buffer_native_pointer(b.buf, &p), NP);
    expect_fail(accel_queue_native_stream(NULL, &p), ACCEL_ERROR_INVALID_HANDLE, NS);
    expect_fail(accel_queue_native_stream(q, NULL), ACCEL_ERROR_INVALID_ARGUMENT, NS);
    expect_ok(accel_queue_native_stream(q, &p), NS);
    expect_fail(accel_buffer_wrap(NULL, h, 4, NULL, NULL, &out), ACCEL_ERROR_INVALID_HANDLE, BW);
    expect_fail(accel_buffer_wrap(cpu, NULL, 4, NULL, NULL, &out), ACCEL_ERROR_INVALID_ARGUMENT,
                BW);
    expect_fail(accel_buffer_wrap(cpu, h, 4, NULL, NULL, NULL), ACCEL_ERROR_INVALID_ARGUMENT, BW);
    expect_fail(accel_buffer_wrap(mock, h, 4, NULL, NULL, &out), ACCEL_ERROR_UNSUPPORTED, BW);
    expect_ok(accel_buffer_wrap(cpu, h, sizeof h, NULL, NULL, &out), BW);
    accel_buffer_release(out);
    expect_untouched(&b2, "b2 after bad shorter-path calls");
    tu_release(&b);
    tu_release(&b2);
}

/* ------------------------------------------- kernels, graphs, batch ... */

/* The public functions of kernel.h, graph.h, batch.h (host_register too),
 * collective.h, dlpack.h and verify.h: NULL, stale (released or closed with
 * their runtime) and foreign (another runtime's) handles, struct_size too
 * small, and bad sizes. Counted in the classes of the summary. */
static size_t g_cases_ext_null, g_cases_ext_args;

static accel_status make_graph(accel_queue *queue, const tu_dbuf *b, accel_graph **out)
{
    tu_ok(accel_queue_begin_capture(queue));
    tu_ok(accel_fill(queue, ACCEL_F32, 3.0, tu_slice(b)));
    return accel_queue_end_capture(queue, out);
}

static accel_status batch_noop(accel_queue *queue, const accel_batch_chunk *chunk, void *user)
{
    (void)queue, (void)chunk, (void)user;
    return ACCEL_SUCCESS;
}

static void body_extension_apis(void)
{
    static const char EW[] = "accel_kernel_elementwise_create",
                      RED[] = "accel_kernel_reduction_create", RAW[] = "accel_kernel_raw_create",
                      KB[] = "accel_kernel_build", KL[] = "accel_kernel_launch",
                      KG[] = "accel_kernel_launch_grid", KS[] = "accel_kernel_cache_stats_get";
    static const char raw_src[] =
        "extern \"C\" __global__ void twice(float *y, const float *x, int n)\n"
        "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = 2.0f * x[i]; }\n";
    accel_runtime *srt;
    accel_device *sdev;
    closed_runtime(&srt, &sdev);
    accel_runtime *rt2;
    tu_ok(accel_runtime_open(TU_DEFAULT_CONFIG, &rt2));
    accel_device *dev2;
    tu_ok(accel_device_get_by_name(rt2, "cpu", &dev2));
    accel_queue *q2;
    tu_ok(accel_queue_create(dev2, &q2));
    tu_dbuf other = sentinel_on(q2);
    accel_queue *sq;
    tu_ok(accel_queue_create(cpu, &sq));
    accel_queue_release(sq);
    accel_buffer *sb = released_buffer();
    tu_dbuf x = sentinel_on(q), y = sentinel_on(q);

    /* ---- kernels */
    cover("accel_kernel_options_init");
    accel_kernel_options_init(NULL); /* nothing to set, no crash */
    accel_kernel_options ko;
    accel_kernel_options_init(&ko);
    accel_kernel *k = NULL;
    expect_fail(
        accel_kernel_elementwise_create(NULL, "k", "float32 x", "float32 y", "y = x", NULL, &k),
        ACCEL_ERROR_INVALID_HANDLE, EW);
    g_cases_ext_null++;
    expect_fail(
        accel_kernel_elementwise_create(srt, "k", "float32 x", "float32 y", "y = x", NULL, &k),
        ACCEL_ERROR_INVALID_HANDLE, EW);
    g_cases_stale++;
    cr_assert_null(k);
    expect_fail(
        accel_kernel_elementwise_create(rt, NULL, "float32 x", "float32 y", "y = x", NULL, &k),
        ACCEL_ERROR_INVALID_ARGUMENT, EW);
    expect_fail(
        accel_kernel_elementwise_create(rt, "k", "float32 x", "float32 y", "y = x", NULL, NULL),
        ACCEL_ERROR_INVALID_ARGUMENT, EW);
    g_cases_ext_null += 2;
    expect_fail(accel_kernel_reduction_create(NULL, "r", "float32 x", "float32 s", "x", "a + b",
                                              "0", "a", NULL, &k),
                ACCEL_ERROR_INVALID_HANDLE, RED);
    g_cases_ext_null++;
    expect_fail(accel_kernel_reduction_create(srt, "r", "float32 x", "float32 s", "x", "a + b", "0",
                                              "a", NULL, &k),
                ACCEL_ERROR_INVALID_HANDLE, RED);
    g_cases_stale++;
    expect_fail(accel_kernel_raw_create(NULL, raw_src, "twice", NULL, &k),
                ACCEL_ERROR_INVALID_HANDLE, RAW);
    expect_fail(accel_kernel_raw_create(rt, NULL, "twice", NULL, &k), ACCEL_ERROR_INVALID_ARGUMENT,
                RAW);
    g_cases_ext_null += 2;
    expect_fail(accel_kernel_raw_create(srt, raw_src, "twice", NULL, &k),
                ACCEL_ERROR_INVALID_HANDLE, RAW);
    g_cases_stale++;
    /* Options of a struct_size below the first version's, and zero. */
    const uint32_t ko_bad[] = {0, 2, (uint32_t)SIZE_UPTO(accel_kernel_options, tolerance_ulp) - 1};
    for (size_t j = 0; j < 3; ++j) {
        ko.struct_size = ko_bad[j];
        expect_fail(
            accel_kernel_elementwise_create(rt, "k", "float32 x", "float32 y", "y = x", &ko, &k),
            ACCEL_ERROR_INVALID_ARGUMENT, EW);
        expect_fail(accel_kernel_raw_create(rt, raw_src, "twice", &ko, &k),
                    ACCEL_ERROR_INVALID_ARGUMENT, RAW);
        g_cases_struct += 2;
    }
    accel_kernel *ew, *raw, *sk;
    expect_ok(accel_kernel_elementwise_create(rt, "twice_ew", "float32 x", "float32 y", "y = 2 * x",
                                              NULL, &ew),
              EW);
    expect_ok(accel_kernel_raw_create(rt, raw_src, "twice", NULL, &raw), RAW);
    tu_ok(
        accel_kernel_elementwise_create(rt, "gone", "float32 x", "float32 y", "y = x", NULL, &sk));
    cover("accel_kernel_release");
    accel_kernel_release(sk);
    accel_kernel_release(sk); /* stale: a warning */
    accel_kernel_release(NULL);
    g_cases_stale++;
    cover("accel_kernel_name");
    cr_assert_str_eq(accel_kernel_name(ew), "twice_ew");
    cr_assert_str_eq(accel_kernel_name(NULL), "(not a kernel)");
    cr_assert_str_eq(accel_kernel_name(sk), "(not a kernel)");
    g_cases_stale++, g_cases_ext_null++;
    expect_fail(accel_kernel_build(NULL, cpu, 0), ACCEL_ERROR_INVALID_HANDLE, KB);
    expect_fail(accel_kernel_build(ew, NULL, 0), ACCEL_ERROR_INVALID_HANDLE, KB);
    g_cases_ext_null += 2;
    expect_fail(accel_kernel_build(sk, cpu, 0), ACCEL_ERROR_INVALID_HANDLE, KB);
    expect_fail(accel_kernel_build(ew, sdev, 0), ACCEL_ERROR_INVALID_HANDLE, KB);
    g_cases_stale += 2;
    expect_foreign(accel_kernel_build(ew, dev2, 0), KB);
    static const char SG[] = "accel_kernel_source_get";
    char src[64];
    size_t src_len = 0;
    expect_fail(accel_kernel_source_get(NULL, cpu, 0, src, sizeof src, &src_len),
                ACCEL_ERROR_INVALID_HANDLE, SG);
    expect_fail(accel_kernel_source_get(ew, NULL, 0, src, sizeof src, &src_len),
                ACCEL_ERROR_INVALID_HANDLE, SG);
    expect_fail(accel_kernel_source_get(ew, cpu, 0, NULL, sizeof src, &src_len),
                ACCEL_ERROR_INVALID_ARGUMENT, SG);
    g_cases_ext_null += 3;
    expect_stale(accel_kernel_source_get(sk, cpu, 0, src, sizeof src, &src_len), SG);
    expect_stale(accel_kernel_source_get(ew, sdev, 0, src, sizeof src, &src_len), SG);
    expect_foreign(accel_kernel_source_get(ew, dev2, 0, src, sizeof src, &src_len), SG);
    expect_fail(accel_kernel_source_get(ew, cpu, 1u << 5, src, sizeof src, &src_len),
                ACCEL_ERROR_INVALID_ARGUMENT, SG); /* mask past the one input */
    g_cases_ext_args++;
    expect_ok(accel_kernel_source_get(ew, cpu, 0, NULL, 0, &src_len), SG); /* the length */
    cr_assert(src_len > 0);
    accel_kernel_arg ka[2] = {accel_karg_array(tu_slice(&x)), accel_karg_array(tu_slice(&y))};
    expect_fail(accel_kernel_launch(NULL, ew, 2, ka), ACCEL_ERROR_INVALID_HANDLE, KL);
    expect_fail(accel_kernel_launch(q, NULL, 2, ka), ACCEL_ERROR_INVALID_HANDLE, KL);
    expect_fail(accel_kernel_launch(q, ew, 2, NULL), ACCEL_ERROR_INVALID_ARGUMENT, KL);
    g_cases_ext_null += 3;
    expect_stale(accel_kernel_launch(sq, ew, 2, ka), KL);
    expect_stale(accel_kernel_launch(q, sk, 2, ka), KL);
    expect_foreign(accel_kernel_launch(q2, ew, 2, ka), KL);
    const uint32_t grid[3] = {1, 1, 1}, block[3] = {N, 1, 1};
    int nval = N;
    accel_kernel_arg kr[3] = {accel_karg_array(tu_slice(&y)), accel_karg_array(tu_slice(&x)),
                              accel_karg_i32(nval)};
    expect_fail(accel_kernel_launch_grid(NULL, raw, grid, block, 3, kr), ACCEL_ERROR_INVALID_HANDLE,
                KG);
    expect_fail(accel_kernel_launch_grid(q, raw, NULL, block, 3, kr), ACCEL_ERROR_INVALID_ARGUMENT,
                KG);
    g_cases_ext_null += 2;
    expect_stale(accel_kernel_launch_grid(sq, raw, grid, block, 3, kr), KG);
    expect_foreign(accel_kernel_launch_grid(q2, raw, grid, block, 3, kr), KG);
    /* The launch with options: the same checks, and the options' own. */
    static const char KX[] = "accel_kernel_launch_grid_ex";
    cover("accel_kernel_launch_options_init");
    accel_kernel_launch_options_init(NULL); /* nothing to set, no crash */
    accel_kernel_launch_options lo;
    accel_kernel_launch_options_init(&lo);
    expect_fail(accel_kernel_launch_grid_ex(NULL, raw, grid, block, &lo, 3, kr),
                ACCEL_ERROR_INVALID_HANDLE, KX);
    expect_fail(accel_kernel_launch_grid_ex(q, raw, grid, NULL, &lo, 3, kr),
                ACCEL_ERROR_INVALID_ARGUMENT, KX);
    g_cases_ext_null += 2;
    expect_stale(accel_kernel_launch_grid_ex(sq, raw, grid, block, &lo, 3, kr), KX);
    expect_foreign(accel_kernel_launch_grid_ex(q2, raw, grid, block, &lo, 3, kr), KX);
    lo.shared_bytes = (size_t)1 << 40;
    expect_fail(accel_kernel_launch_grid_ex(q, raw, grid, block, &lo, 3, kr),
                ACCEL_ERROR_INVALID_ARGUMENT, KX);
    lo.shared_bytes = 0;
    lo.struct_size = 0;
    expect_fail(accel_kernel_launch_grid_ex(q, raw, grid, block, &lo, 3, kr),
                ACCEL_ERROR_INVALID_ARGUMENT, KX);
    g_cases_ext_args += 2;
    for (int i = 0; i < 2; ++i) {
        accel_kernel_arg t[3];
        memcpy(t, kr, sizeof t);
        t[i].slice.buffer = sb;
        expect_stale(accel_kernel_launch_grid(q, raw, grid, block, 3, t), KG);
        t[i].slice.buffer = other.buf;
        expect_foreign(accel_kernel_launch_grid(q, raw, grid, block, 3, t), KG);
        accel_kernel_arg e[2];
        memcpy(e, ka, sizeof e);
        e[i].slice.buffer = sb;
        expect_stale(accel_kernel_launch(q, ew, 2, e), KL);
        e[i].slice.buffer = other.buf;
        expect_foreign(accel_kernel_launch(q, ew, 2, e), KL);
    }
    accel_kernel_cache_stats ks;
    memset(&ks, 0, sizeof ks);
    ks.struct_size = sizeof ks;
    expect_fail(accel_kernel_cache_stats_get(NULL, &ks), ACCEL_ERROR_INVALID_HANDLE, KS);
    expect_fail(accel_kernel_cache_stats_get(rt, NULL), ACCEL_ERROR_INVALID_ARGUMENT, KS);
    g_cases_ext_null += 2;
    expect_stale(accel_kernel_cache_stats_get(srt, &ks), KS);
    OUT_CASES(KS, sizeof(accel_kernel_cache_stats),
              SIZE_UPTO(accel_kernel_cache_stats, disabled_reason),
              accel_kernel_cache_stats_get(rt, (accel_kernel_cache_stats *)ptr));

    /* ---- graphs */
    static const char BC[] = "accel_queue_begin_capture", EC[] = "accel_queue_end_capture",
                      GI[] = "accel_graph_instantiate", GL[] = "accel_graph_launch",
                      GB[] = "accel_graph_set_buffer", GS[] = "accel_graph_set_scalar",
                      GH[] = "accel_graph_set_host", GN[] = "accel_graph_node_info_get",
                      GR[] = "accel_graph_backend_replay";
    expect_fail(accel_queue_begin_capture(NULL), ACCEL_ERROR_INVALID_HANDLE, BC);
    g_cases_ext_null++;
    expect_stale(accel_queue_begin_capture(sq), BC);
    accel_graph *g = NULL, *sg = NULL;
    expect_fail(accel_queue_end_capture(NULL, &g), ACCEL_ERROR_INVALID_HANDLE, EC);
    g_cases_ext_null++;
    expect_stale(accel_queue_end_capture(sq, &g), EC);
    expect_fail(accel_queue_end_capture(q, &g), ACCEL_ERROR_INVALID_ARGUMENT,
                EC); /* not capturing */
    g_cases_ext_args++;
    expect_ok(make_graph(q, &y, &g), EC);
    tu_ok(make_graph(q, &y, &sg));
    cover("accel_graph_release");
    accel_graph_release(sg);
    accel_graph_release(sg); /* stale: a warning */
    accel_graph_release(NULL);
    g_cases_stale++;
    cover("accel_graph_options_init");
    accel_graph_options_init(NULL);
    accel_graph_options go;
    accel_graph_options_init(&go);
    expect_fail(accel_graph_instantiate(NULL, &go), ACCEL_ERROR_INVALID_HANDLE, GI);
    g_cases_ext_null++;
    expect_stale(accel_graph_instantiate(sg, &go), GI);
    go.struct_size = 0;
    expect_fail(accel_graph_instantiate(g, &go), ACCEL_ERROR_INVALID_ARGUMENT, GI);
    go.struct_size = (uint32_t)SIZE_UPTO(accel_graph_options, flags) - 1;
    expect_fail(accel_graph_instantiate(g, &go), ACCEL_ERROR_INVALID_ARGUMENT, GI);
    g_cases_struct += 2;
    expect_fail(accel_graph_launch(NULL, q), ACCEL_ERROR_INVALID_HANDLE, GL);
    expect_fail(accel_graph_launch(g, NULL), ACCEL_ERROR_INVALID_HANDLE, GL);
    g_cases_ext_null += 2;
    expect_stale(accel_graph_launch(sg, q), GL);
    expect_stale(accel_graph_launch(g, sq), GL);
    expect_foreign(accel_graph_launch(g, q2), GL);
    expect_fail(accel_graph_set_buffer(NULL, y.buf, x.buf), ACCEL_ERROR_INVALID_HANDLE, GB);
    g_cases_ext_null++;
    expect_stale(accel_graph_set_buffer(sg, y.buf, x.buf), GB);
    expect_stale(accel_graph_set_buffer(g, y.buf, sb), GB);
    expect_foreign(accel_graph_set_buffer(g, y.buf, other.buf), GB);
    expect_fail(accel_graph_set_scalar(NULL, 0, 0, 1.0), ACCEL_ERROR_INVALID_HANDLE, GS);
    g_cases_ext_null++;
    expect_stale(accel_graph_set_scalar(sg, 0, 0, 1.0), GS);
    expect_fail(accel_graph_set_scalar(g, 99, 0, 1.0), ACCEL_ERROR_OUT_OF_RANGE, GS);
    g_cases_ext_args++;
    float h1[4], h2[4];
    expect_fail(accel_graph_set_host(NULL, h1, h2), ACCEL_ERROR_INVALID_HANDLE, GH);
    g_cases_ext_null++;
    expect_stale(accel_graph_set_host(sg, h1, h2), GH);
    cover("accel_graph_node_count");
    cover("accel_graph_temporary_count");
    cr_assert_eq(accel_graph_node_count(g), 1u);
    cr_assert_eq(accel_graph_node_count(NULL), 0u);
    cr_assert_eq(accel_graph_node_count(sg), 0u);
    cr_assert_eq(accel_graph_temporary_count(NULL), 0u);
    cr_assert_eq(accel_graph_temporary_count(sg), 0u);
    g_cases_ext_null += 2, g_cases_stale += 2;
    accel_graph_node_info ni;
    memset(&ni, 0, sizeof ni);
    ni.struct_size = sizeof ni;
    expect_fail(accel_graph_node_info_get(NULL, 0, &ni), ACCEL_ERROR_INVALID_HANDLE, GN);
    expect_fail(accel_graph_node_info_get(g, 0, NULL), ACCEL_ERROR_INVALID_ARGUMENT, GN);
    g_cases_ext_null += 2;
    expect_stale(accel_graph_node_info_get(sg, 0, &ni), GN);
    expect_fail(accel_graph_node_info_get(g, 1, &ni), ACCEL_ERROR_OUT_OF_RANGE, GN);
    g_cases_ext_args++;
    OUT_CASES(GN, sizeof(accel_graph_node_info), SIZE_UPTO(accel_graph_node_info, bytes),
              accel_graph_node_info_get(g, 0, (accel_graph_node_info *)ptr));
    bool be_replay;
    expect_fail(accel_graph_backend_replay(NULL, &be_replay), ACCEL_ERROR_INVALID_HANDLE, GR);
    expect_fail(accel_graph_backend_replay(g, NULL), ACCEL_ERROR_INVALID_ARGUMENT, GR);
    g_cases_ext_null += 2;
    expect_stale(accel_graph_backend_replay(sg, &be_replay), GR);

    /* ---- host registration and batches */
    static const char HR[] = "accel_host_register", HU[] = "accel_host_unregister",
                      BP[] = "accel_batch_plan", BR[] = "accel_batch_run";
    static float reg[256];
    expect_fail(accel_host_register(NULL, reg, sizeof reg), ACCEL_ERROR_INVALID_HANDLE, HR);
    expect_fail(accel_host_register(cpu, NULL, sizeof reg), ACCEL_ERROR_INVALID_ARGUMENT, HR);
    g_cases_ext_null += 2;
    expect_stale(accel_host_register(sdev, reg, sizeof reg), HR);
    expect_fail(accel_host_register(cpu, reg, SIZE_MAX), ACCEL_ERROR_INVALID_ARGUMENT, HR);
    g_cases_ext_args++;
    expect_fail(accel_host_unregister(NULL, reg), ACCEL_ERROR_INVALID_HANDLE, HU);
    g_cases_ext_null++;
    expect_stale(accel_host_unregister(sdev, reg), HU);
    expect_fail(accel_host_unregister(cpu, reg), ACCEL_ERROR_NOT_FOUND, HU);
    g_cases_ext_args++;
    cover("accel_batch_desc_init"), cover("accel_batch_stats_init");
    accel_batch_desc_init(NULL);
    accel_batch_stats_init(NULL);
    accel_batch_desc bd;
    accel_batch_desc_init(&bd);
    float bx[64] = {0}, by[64];
    bd.n = 64;
    bd.in_count = 1;
    bd.in[0] = (accel_batch_array){bx, sizeof bx, sizeof(float), 0};
    bd.out_count = 1;
    bd.out[0] = (accel_batch_array){by, sizeof by, sizeof(float), 0};
    bd.compute = batch_noop;
    accel_batch_stats bs;
    accel_batch_stats_init(&bs);
    expect_fail(accel_batch_plan(NULL, &bd, &bs), ACCEL_ERROR_INVALID_HANDLE, BP);
    expect_fail(accel_batch_plan(cpu, NULL, &bs), ACCEL_ERROR_INVALID_ARGUMENT, BP);
    expect_fail(accel_batch_run(NULL, &bd, &bs), ACCEL_ERROR_INVALID_HANDLE, BR);
    expect_fail(accel_batch_run(cpu, NULL, &bs), ACCEL_ERROR_INVALID_ARGUMENT, BR);
    g_cases_ext_null += 4;
    expect_stale(accel_batch_plan(sdev, &bd, &bs), BP);
    expect_stale(accel_batch_run(sdev, &bd, &bs), BR);
    bd.in[0].bytes = sizeof bx - 1; /* smaller than n elements */
    expect_fail(accel_batch_run(cpu, &bd, &bs), ACCEL_ERROR_OUT_OF_RANGE, BR);
    bd.in[0].bytes = sizeof bx;
    g_cases_ext_args++;
    for (uint32_t bad = 0; bad < 2; ++bad) {
        bd.struct_size = bad ? (uint32_t)SIZE_UPTO(accel_batch_desc, chunk_elems) - 1 : 0;
        expect_fail(accel_batch_plan(cpu, &bd, &bs), ACCEL_ERROR_INVALID_ARGUMENT, BP);
        expect_fail(accel_batch_run(cpu, &bd, &bs), ACCEL_ERROR_INVALID_ARGUMENT, BR);
        g_cases_struct += 2;
    }
    accel_batch_desc_init(&bd);
    bd.n = 64;
    bd.in_count = 1;
    bd.in[0] = (accel_batch_array){bx, sizeof bx, sizeof(float), 0};
    bd.out_count = 1;
    bd.out[0] = (accel_batch_array){by, sizeof by, sizeof(float), 0};
    bd.compute = batch_noop;
    OUT_CASES(BP, sizeof(accel_batch_stats), SIZE_UPTO(accel_batch_stats, gbs),
              accel_batch_plan(cpu, &bd, (accel_batch_stats *)ptr));

    /* ---- collectives on a device */
    static const char CS[] = "accel_device_comm_supported", CI[] = "accel_device_comm_id",
                      CC[] = "accel_device_comm_create", CE[] = "accel_device_comm_enqueue";
    cover("accel_collective_desc_init");
    accel_collective_desc_init(NULL);
    unsigned char cid[ACCEL_DEVICE_COMM_ID_BYTES];
    memset(cid, 0, sizeof cid);
    expect_fail(accel_device_comm_supported(NULL), ACCEL_ERROR_INVALID_HANDLE, CS);
    expect_fail(accel_device_comm_id(NULL, cid, sizeof cid), ACCEL_ERROR_INVALID_HANDLE, CI);
    accel_device_comm *comm = NULL;
    expect_fail(accel_device_comm_create(NULL, cid, sizeof cid, 1, 0, &comm),
                ACCEL_ERROR_INVALID_HANDLE, CC);
    g_cases_ext_null += 3;
    expect_stale(accel_device_comm_supported(sdev), CS);
    expect_stale(accel_device_comm_id(sdev, cid, sizeof cid), CI);
    expect_stale(accel_device_comm_create(sdev, cid, sizeof cid, 1, 0, &comm), CC);
    /* The CPU backend runs no collectives itself (MPI does, mpi.h). */
    expect_fail(accel_device_comm_supported(cpu), ACCEL_ERROR_UNSUPPORTED, CS);
    expect_fail(accel_device_comm_create(cpu, cid, sizeof cid, 1, 0, &comm),
                ACCEL_ERROR_UNSUPPORTED, CC);
    g_cases_ext_args += 2;
    cr_assert_null(comm);
    accel_collective_desc cd;
    accel_collective_desc_init(&cd);
    expect_fail(accel_device_comm_enqueue(NULL, q, &cd), ACCEL_ERROR_INVALID_HANDLE, CE);
    expect_fail(accel_device_comm_enqueue(NULL, q, NULL), ACCEL_ERROR_INVALID_HANDLE, CE);
    g_cases_ext_null += 2;
    /* Communicators are handles: a dead or wrong-typed value is refused
     * without being dereferenced (the CPU backend makes none, so a released
     * buffer's handle and a live buffer's stand in). */
    expect_stale(accel_device_comm_enqueue((accel_device_comm *)sb, q, &cd), CE);
    expect_fail(accel_device_comm_enqueue((accel_device_comm *)x.buf, q, &cd),
                ACCEL_ERROR_INVALID_HANDLE, CE);
    cr_assert(strstr(accel_last_error(), "not a device communicator"), "%s", accel_last_error());
    g_cases_ext_args++;
    cover("accel_device_comm_release");
    accel_device_comm_release(NULL);
    accel_device_comm_release((accel_device_comm *)sb);    /* a warning */
    accel_device_comm_release((accel_device_comm *)x.buf); /* a warning; x stays */
    g_cases_ext_null++, g_cases_stale++, g_cases_ext_args++;

    /* ---- DLPack */
    static const char DT[] = "accel_dlpack_tensor_create";
    int64_t shape[2] = {2, 3};
    float data[6];
    void *managed = NULL;
    expect_fail(accel_dlpack_tensor_create(data, ACCEL_DLPACK_CPU, 0, ACCEL_DLPACK_FLOAT, 32, 2,
                                           shape, 0, NULL, NULL),
                ACCEL_ERROR_INVALID_ARGUMENT, DT);
    expect_fail(accel_dlpack_tensor_create(data, ACCEL_DLPACK_CPU, 0, ACCEL_DLPACK_FLOAT, 32, 2,
                                           NULL, 0, NULL, &managed),
                ACCEL_ERROR_INVALID_ARGUMENT, DT);
    g_cases_ext_null += 2;
    expect_fail(accel_dlpack_tensor_create(data, ACCEL_DLPACK_CPU, 0, ACCEL_DLPACK_FLOAT, 32, -1,
                                           shape, 0, NULL, &managed),
                ACCEL_ERROR_INVALID_ARGUMENT, DT);
    expect_fail(accel_dlpack_tensor_create(data, ACCEL_DLPACK_CPU, 0, ACCEL_DLPACK_FLOAT, 32, 33,
                                           shape, 0, NULL, &managed),
                ACCEL_ERROR_INVALID_ARGUMENT, DT);
    expect_fail(accel_dlpack_tensor_create(data, ACCEL_DLPACK_CPU, 0, ACCEL_DLPACK_FLOAT, 32, 2,
                                           shape, 2, NULL, &managed),
                ACCEL_ERROR_UNSUPPORTED, DT);
    g_cases_ext_args += 3;
    cr_assert_null(managed);
    cover("accel_dlpack_tensor_free"), cover("accel_dlpack_tensor_versioned_free");
    cover("accel_dlpack_capsule_destructor"), cover("accel_dlpack_capsule_destructor_versioned");
    cover("accel_dlpack_managed_release"), cover("accel_dlpack_managed_versioned_release");
    accel_dlpack_tensor_free(NULL);
    accel_dlpack_tensor_versioned_free(NULL);
    accel_dlpack_capsule_destructor(NULL);
    accel_dlpack_capsule_destructor_versioned(NULL);
    accel_dlpack_managed_release(NULL);
    accel_dlpack_managed_versioned_release(NULL);
    g_cases_ext_null += 6;
    for (uint32_t v = 0; v < 2; ++v) { /* a real one, freed by its own function */
        expect_ok(accel_dlpack_tensor_create(data, ACCEL_DLPACK_CPU, 0, ACCEL_DLPACK_FLOAT, 32, 2,
                                             shape, v, NULL, &managed),
                  DT);
        if (v)
            accel_dlpack_tensor_versioned_free(managed);
        else
            accel_dlpack_tensor_free(managed);
    }

    /* ---- values, messages, tolerance */
    cover("accel_dtype_epsilon");
    cr_assert(accel_dtype_epsilon(ACCEL_F32) == 0x1p-23);
    cr_assert(accel_dtype_epsilon((accel_dtype)99) == 0.0 ||
              isnan(accel_dtype_epsilon((accel_dtype)99)));
    g_cases_ext_args++;
    cover("accel_error_set");
    cr_assert_eq(accel_error_set(ACCEL_ERROR_DEVICE, "plugin said %d", 7), ACCEL_ERROR_DEVICE);
    cr_assert_str_eq(accel_last_error(), "plugin said 7");
    const char *no_fmt = NULL;
    cr_assert_eq(accel_error_set(ACCEL_ERROR_DEVICE, no_fmt), ACCEL_ERROR_DEVICE);
    cover("accel_log_write");
    accel_log_write(ACCEL_LOG_DEBUG, no_fmt);
    accel_log_write(ACCEL_LOG_DEBUG, "%s", "a message");
    g_cases_ext_null += 2;
    cover("accel_tolerance_op_init"), cover("accel_verify_options_init");
    accel_tolerance_op_init(NULL);
    accel_verify_options_init(NULL);
    g_cases_ext_null += 2;

    accel_kernel_release(ew);
    accel_kernel_release(raw);
    accel_graph_release(g);
    expect_untouched(&x, "x after the extension calls");
    expect_untouched_on(q2, &other, "the other runtime's buffer after the extension calls");
    tu_release(&x);
    tu_release(&y);
    accel_runtime_close(rt2);
}

/* Class "accel_tolerance_compare trusts its descriptor": for every op of the
 * op table, a descriptor whose sizes need more elements than an operand's
 * count is refused before anything is read (the host copies below are
 * exactly the counts given, so a read past them is an AddressSanitizer
 * error under the debug-asan preset). */
static size_t g_cases_tolerance;

static void tolerance_refused(const accel_tolerance_op *d, const char *what)
{
    double *in[4];
    for (int i = 0; i < 4; ++i) {
        in[i] = calloc(d->counts[i] ? d->counts[i] : 1, sizeof(double));
        cr_assert(in[i]);
    }
    uint32_t out = d->num_operands - 1;
    const void *inputs[4] = {in[0], in[1], in[2], in[3]};
    double *exp = calloc(d->counts[out] ? d->counts[out] : 1, sizeof(double));
    cr_assert(exp);
    cover("accel_tolerance_compare");
    accel_status st = accel_tolerance_compare(d, inputs, in[out], exp, NULL);
    cr_assert(st == ACCEL_ERROR_SHAPE_MISMATCH || st == ACCEL_ERROR_INVALID_ARGUMENT,
              "%s: got %s (\"%s\")", what, accel_status_name(st), accel_last_error());
    cr_assert(strstr(accel_last_error(), "accel_tolerance_compare"), "%s: %s", what,
              accel_last_error());
    for (int i = 0; i < 4; ++i)
        free(in[i]);
    free(exp);
    g_cases_tolerance++;
}

static void body_tolerance_descriptors(void)
{
    static const accel_op_code codes[] = {
#define X_CODE(E, ...) ACCEL_OP_##E,
        ACCEL_OP_LIST(X_CODE)
#undef X_CODE
    };
    for (size_t c = 0; c < sizeof codes / sizeof *codes; ++c) {
        const accel_op_properties *p = accel_op_info(codes[c]);
        cr_assert(p, "op %d has no row", (int)codes[c]);
        accel_tolerance_op d;
        accel_tolerance_op_init(&d);
        d.op = codes[c];
        d.dtype = ACCEL_F64;
        d.num_operands = p->num_operands;
        uint32_t out = d.num_operands - 1;
        if (p->kind == ACCEL_OP_KIND_GEMM) {
            d.m = d.n = d.k = d.lda = d.ldb = d.ldc = 4;
            d.batch_count = 1;
            for (uint32_t i = 0; i < 3; ++i) {
                accel_tolerance_op t = d;
                t.counts[0] = t.counts[1] = t.counts[2] = 16;
                t.counts[i] = 15;
                tolerance_refused(&t, "gemm operand one short");
            }
            accel_tolerance_op t = d;
            t.counts[0] = t.counts[1] = t.counts[2] = 16;
            t.k = (size_t)1 << 40; /* sizes far past the counts */
            tolerance_refused(&t, "gemm k past the counts");
            t.k = 4, t.batch_count = 3, t.stride_a = t.stride_b = t.stride_c = 16;
            tolerance_refused(&t, "gemm batches past the counts");
            t.batch_count = 1, t.m = SIZE_MAX / 2;
            tolerance_refused(&t, "gemm m overflowing");
        } else if (p->kind == ACCEL_OP_KIND_TRANSPOSE) {
            d.m = 3, d.n = 5, d.lda = 5, d.ldc = 3;
            for (uint32_t i = 0; i < 2; ++i) {
                accel_tolerance_op t = d;
                t.counts[0] = t.counts[1] = 15;
                t.counts[i] = 14;
                tolerance_refused(&t, "transpose operand one short");
            }
            accel_tolerance_op t = d;
            t.counts[0] = t.counts[1] = 15;
            t.lda = SIZE_MAX;
            tolerance_refused(&t, "transpose lda past the counts");
        } else if (p->kind == ACCEL_OP_KIND_REDUCTION) {
            for (uint32_t i = 0; i < out; ++i)
                d.counts[i] = 8;
            d.counts[out] = 2; /* a reduction writes one element */
            tolerance_refused(&d, "reduction output of 2");
            if (out == 2) {
                d.counts[out] = 1;
                d.counts[1] = 7;
                tolerance_refused(&d, "dot with x and y of different counts");
            }
        } else {
            for (uint32_t i = 0; i < out; ++i) {
                accel_tolerance_op t = d;
                for (uint32_t j = 0; j <= out; ++j)
                    t.counts[j] = 8;
                t.counts[i] = 7;
                tolerance_refused(&t, "elementwise input one short");
            }
        }
        /* The operand count itself, and an unknown dtype. */
        accel_tolerance_op t = d;
        for (uint32_t j = 0; j < 4; ++j)
            t.counts[j] = 1;
        t.num_operands = p->num_operands == 4 ? 3 : p->num_operands + 1;
        tolerance_refused(&t, "wrong operand count");
        t.num_operands = p->num_operands;
        t.dtype = (accel_dtype)99;
        tolerance_refused(&t, "unknown dtype");
    }
    /* NULL descriptor or arrays, and a descriptor of struct_size 0. */
    double v = 0;
    accel_tolerance_op d;
    accel_tolerance_op_init(&d);
    expect_fail(accel_tolerance_compare(NULL, NULL, &v, &v, NULL), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_tolerance_compare");
    expect_fail(accel_tolerance_compare(&d, NULL, NULL, &v, NULL), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_tolerance_compare");
    g_cases_ext_null += 2;
    d.op = ACCEL_OP_ADD, d.dtype = ACCEL_F64, d.num_operands = 3;
    d.struct_size = 0;
    expect_fail(accel_tolerance_compare(&d, NULL, &v, &v, NULL), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_tolerance_compare");
    g_cases_struct++;
}

/* Class "fork": a forked child that uses its parent's runtime gets
 * ACCEL_ERROR_UNAVAILABLE ("... after fork ... open a new one in the
 * child") from every call that takes one of its handles, never a hang
 * (the parent's queue workers do not exist in the child). The child counts
 * the calls it made and reports through a pipe. */
static size_t g_cases_fork;

#define CHILD_EXPECT_FORKED(call, counter)                                                         \
    do {                                                                                           \
        accel_status st_ = (call);                                                                 \
        if (st_ != ACCEL_ERROR_UNAVAILABLE || !strstr(accel_last_error(), "after fork"))           \
            _exit(10);                                                                             \
        (counter)++;                                                                               \
    } while (0)

static void body_fork(void)
{
    op_bufs o = bufs_make(q);
    accel_event *ev;
    tu_ok(accel_event_create(cpu, &ev));
    accel_kernel *k;
    tu_ok(
        accel_kernel_elementwise_create(rt, "forked", "float32 x", "float32 y", "y = x", NULL, &k));
    tu_ok(accel_queue_finish(q));
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        alarm(60); /* a hang ends the child with SIGALRM */
        close(fds[0]);
        uint64_t n = 0;
        for (size_t i = 0; i < NOPS; ++i) {
            accel_slice s[3];
            valid_slices(&ops[i], &o, s);
            CHILD_EXPECT_FORKED(ops[i].call(q, ACCEL_F32, s), n);
        }
        float host[4] = {0};
        accel_buffer *b0 = o.b[0].buf, *b1 = o.b[1].buf;
        accel_buffer *nb;
        accel_queue *nq;
        accel_event *ne;
        accel_device *d;
        accel_kernel *nk;
        CHILD_EXPECT_FORKED(accel_queue_write(q, b0, 0, host, sizeof host), n);
        CHILD_EXPECT_FORKED(accel_queue_read(q, b0, 0, host, sizeof host), n);
        CHILD_EXPECT_FORKED(accel_queue_write_blocking(q, b0, 0, host, sizeof host), n);
        CHILD_EXPECT_FORKED(accel_queue_read_blocking(q, b0, 0, host, sizeof host), n);
        CHILD_EXPECT_FORKED(accel_queue_copy(q, b0, 0, b1, 0, sizeof host), n);
        CHILD_EXPECT_FORKED(accel_queue_finish(q), n);
        CHILD_EXPECT_FORKED(accel_matmul(q, ACCEL_F32, 2, 2, 2, b0, b1, o.b[2].buf), n);
        CHILD_EXPECT_FORKED(accel_transpose_2d(q, ACCEL_F32, 2, 2, b0, 0, 2, b1, 0, 2), n);
        CHILD_EXPECT_FORKED(accel_buffer_create(cpu, 64, &nb), n);
        CHILD_EXPECT_FORKED(accel_queue_create(cpu, &nq), n);
        CHILD_EXPECT_FORKED(accel_event_create(cpu, &ne), n);
        CHILD_EXPECT_FORKED(accel_event_record(ev, q), n);
        CHILD_EXPECT_FORKED(accel_event_synchronize(ev), n);
        CHILD_EXPECT_FORKED(accel_queue_wait_event(q, ev), n);
        CHILD_EXPECT_FORKED(accel_device_get(rt, 0, &d), n);
        CHILD_EXPECT_FORKED(accel_device_get_by_name(rt, "cpu", &d), n);
        CHILD_EXPECT_FORKED(
            accel_kernel_elementwise_create(rt, "c", "float32 x", "float32 y", "y = x", NULL, &nk),
            n);
        CHILD_EXPECT_FORKED(accel_kernel_build(k, cpu, 0), n);
        accel_kernel_arg ka[2] = {accel_karg_array(accel_slice_of(b0, 0, 4)),
                                  accel_karg_array(accel_slice_of(b1, 0, 4))};
        CHILD_EXPECT_FORKED(accel_kernel_launch(q, k, 2, ka), n);
        CHILD_EXPECT_FORKED(accel_queue_begin_capture(q), n);
        CHILD_EXPECT_FORKED(accel_host_register(cpu, host, sizeof host), n);
        /* Releases and close are refused with a warning, without waiting. */
        accel_buffer_release(b0);
        accel_queue_release(q);
        accel_runtime_close(rt);
        n += 3;
        if (write(fds[1], &n, sizeof n) != (ssize_t)sizeof n)
            _exit(11);
        _exit(0);
    }
    close(fds[1]);
    int wst = 0;
    cr_assert_eq(waitpid(pid, &wst, 0), pid);
    cr_assert(WIFEXITED(wst) && WEXITSTATUS(wst) == 0, "child: %s %d",
              WIFEXITED(wst) ? "exit" : "signal",
              WIFEXITED(wst) ? WEXITSTATUS(wst) : WTERMSIG(wst));
    uint64_t n = 0;
    cr_assert_eq(read(fds[0], &n, sizeof n), (ssize_t)sizeof n);
    close(fds[0]);
    g_cases_fork += n;
    cover("accel_device_get_by_name");
    /* The parent's runtime is untouched by the child. */
    bufs_check_and_free(&o, "buffers after the child's calls");
    accel_kernel_release(k);
    accel_event_release(ev);
}

static const body bodies[] = {
    {"ops_null_and_released", body_ops_null_and_released},
    {"ops_wrong_dtype", body_ops_wrong_dtype},
    {"ops_out_of_range", body_ops_out_of_range},
    {"ops_device_mismatch", body_ops_device_mismatch},
    {"ops_aliasing", body_ops_aliasing},
    {"ops_zero_size", body_ops_zero_size},
    {"gemm", body_gemm_matrix},
    {"transpose", body_transpose_matrix},
    {"transfers", body_transfers},
    {"shorter_path", body_shorter_path},
    {"buffers_and_host_memory", body_buffers_and_host_memory},
    {"queues_and_events", body_queues_and_events},
    {"runtime_and_devices", body_runtime_and_devices},
    {"status_and_values", body_status_and_values},
    {"npy", body_npy},
    {"stale_and_foreign_handles", body_stale_and_foreign_handles},
    {"struct_size", body_struct_size},
    {"extension_apis", body_extension_apis},
    {"tolerance_descriptors", body_tolerance_descriptors},
    {"fork", body_fork},
};

Test(bad_input_matrix, ops_null_and_released)
{
    body_ops_null_and_released();
}
Test(bad_input_matrix, ops_wrong_dtype)
{
    body_ops_wrong_dtype();
}
Test(bad_input_matrix, ops_out_of_range_and_overflow)
{
    body_ops_out_of_range();
}
Test(bad_input_matrix, ops_operands_on_another_device)
{
    body_ops_device_mismatch();
}
Test(bad_input_matrix, ops_aliasing)
{
    body_ops_aliasing();
}
Test(bad_input_matrix, ops_zero_size)
{
    body_ops_zero_size();
}
Test(bad_input_matrix, gemm)
{
    body_gemm_matrix();
}
Test(bad_input_matrix, transpose_2d)
{
    body_transpose_matrix();
}
Test(bad_input_matrix, transfers)
{
    body_transfers();
}
Test(bad_input_matrix, shorter_path)
{
    body_shorter_path();
}
Test(bad_input_matrix, buffers_and_host_memory)
{
    body_buffers_and_host_memory();
}
Test(bad_input_matrix, queues_and_events)
{
    body_queues_and_events();
}
Test(bad_input_matrix, runtime_and_devices)
{
    body_runtime_and_devices();
}
Test(bad_input_matrix, status_and_values)
{
    body_status_and_values();
}
Test(bad_input_matrix, npy)
{
    body_npy();
}
Test(bad_input_matrix, stale_and_foreign_handles)
{
    body_stale_and_foreign_handles();
}
Test(bad_input_matrix, struct_size_both_ways)
{
    body_struct_size();
}
Test(bad_input_matrix, kernels_graphs_batch_collectives_dlpack)
{
    body_extension_apis();
}
Test(bad_input_matrix, tolerance_descriptors)
{
    body_tolerance_descriptors();
}
Test(bad_input_matrix, parent_runtime_after_fork, .timeout = 120)
{
    body_fork();
}

/* ------------------------------------------------------- class summary */

/* The classes of misuse of the hardening issue, each with its case count
 * as measured by the bodies above, printed one line per class on stdout by
 * every_public_function_is_in_the_matrix (which runs every body in one
 * process). A class of the matrix with no case fails the test. Classes that
 * are not about the arguments of a public function live in other tests,
 * named in the last column. */
#define MATRIX_CLASSES(X)                                                                          \
    X("1", "handles of another runtime", &g_cases_foreign, NULL)                                   \
    X("2", "released handles that look alive (memory reused, closed runtime)", &g_cases_stale,     \
      NULL)                                                                                        \
    X("3", "files that never end or never open (FIFO, devices, folder)", &g_cases_files, NULL)     \
    X("4", "struct_size smaller or larger than today's, in and out", &g_cases_struct, NULL)        \
    X("5", "plugin file trust (path to the root, symlinks, one open)", NULL, "security")           \
    X("6", "messages that are wrong (CLI)", NULL, "demo_format, cli_options")                      \
    X("7", "replay with guard elements", NULL, "verify, cli_options")                              \
    X("8", ".npy output edge cases", &g_cases_npy_edge, NULL)                                      \
    X("9", "config values (continuations, name limits)", NULL, "config")                           \
    X("10", "accel_tolerance_compare trusts its descriptor", &g_cases_tolerance, NULL)             \
    X("Also", "fork: the parent's runtime in a child", &g_cases_fork, NULL)                        \
    X("Also", "close while other threads enqueue", NULL, "handle, handle_table, concurrency")      \
    X("Also", "umask of the files the build lays down", NULL, "umask_modes")                       \
    X("Also", "CPU floating-point environment", NULL, "cpu_fp_env")                                \
    X("Also", "OpenBLAS near out-of-host-memory", NULL, "gemm_oom")                                \
    X("Also", "two BLAS libraries in one process", NULL, "blas_isolation")                         \
    X("Also", "fused vs unfused arithmetic", NULL, "verify")                                       \
    X("Also", "one event recorded on two queues", NULL, "event_record")                            \
    X("-", "NULL and bad arguments of kernels, graphs, batch, collectives, DLPack, values",        \
      &g_cases_ext_null, NULL)                                                                     \
    X("-", "bad sizes and indices of kernels, graphs, batch, collectives, DLPack",                 \
      &g_cases_ext_args, NULL)

typedef struct matrix_class {
    const char *num, *what;
    const size_t *count; /* NULL: tested outside the matrix */
    const char *elsewhere;
} matrix_class;

static void print_class_summary(void)
{
#define X_ROW(num, what, counter, elsewhere) {num, what, counter, elsewhere},
    static const matrix_class classes[] = {MATRIX_CLASSES(X_ROW)};
#undef X_ROW
    printf("bad-input matrix: %zu cells over %zu public functions\n", g_cells, g_ncovered);
    for (size_t i = 0; i < sizeof classes / sizeof *classes; ++i) {
        const matrix_class *c = &classes[i];
        if (c->count)
            printf("class %-4s %6zu cases  %s\n", c->num, *c->count, c->what);
        else
            printf("class %-4s %6s        %s (ctest: %s)\n", c->num, "-", c->what, c->elsewhere);
    }
    fflush(stdout);
    for (size_t i = 0; i < sizeof classes / sizeof *classes; ++i)
        cr_expect(!classes[i].count || *classes[i].count > 0, "class %s (%s) has no case",
                  classes[i].num, classes[i].what);
}

/* Every ACCEL_API function of the public headers went through the matrix. */
static void header_functions(const char *path, char names[][64], size_t *n, size_t cap)
{
    FILE *f = fopen(path, "r");
    cr_assert(f, "cannot read %s", path);
    char line[512];
    bool pending = false;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "ACCEL_API ", 10) == 0)
            pending = true;
        if (!pending)
            continue;
        char *paren = strchr(line, '(');
        if (!paren)
            continue;
        char *end = paren;
        char *start = end;
        while (start > line && (start[-1] == '_' || (start[-1] >= 'a' && start[-1] <= 'z') ||
                                (start[-1] >= '0' && start[-1] <= '9')))
            start--;
        if (end > start && strncmp(start, "accel_", 6) == 0 && *n < cap) {
            snprintf(names[*n], 64, "%.*s", (int)(end - start), start);
            (*n)++;
        }
        pending = false;
    }
    fclose(f);
}

Test(bad_input_matrix, every_public_function_is_in_the_matrix)
{
    for (size_t i = 0; i < sizeof bodies / sizeof *bodies; ++i)
        bodies[i].fn();
    static char names[256][64];
    size_t n = 0;
    /* Every header of libaccel's public API (mpi.h is libaccel_mpi's, with
     * its own tests; backend.h and types.h declare no ACCEL_API function). */
    static const char *const headers[] = {"accel.h",  "npy.h",   "batch.h",  "collective.h",
                                          "dlpack.h", "graph.h", "kernel.h", "verify.h"};
    for (size_t i = 0; i < sizeof headers / sizeof *headers; ++i)
        header_functions(tu_fmt("%s/include/accel/%s", ACCEL_TEST_SOURCE_DIR, headers[i]), names,
                         &n, 256);
    cr_assert(n > 150, "only %zu ACCEL_API functions found in the headers", n);
    for (size_t i = 0; i < n; ++i) {
        bool found = false;
        for (size_t j = 0; j < g_ncovered && !found; ++j)
            found = strcmp(names[i], g_covered[j]) == 0;
        cr_expect(found, "%s (a public function) has no cell in the bad-input matrix", names[i]);
    }
    cr_log_info("bad-input matrix: %zu public functions, all covered", n);
    print_class_summary();
}
