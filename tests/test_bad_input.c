/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_bad_input.c — the core's argument validation (core/ops/ops.c, buffer.c,
 * queue.c, event.c, device.c): every bad input of the API gives its distinct
 * status, a message naming the public function, no crash, and no write to
 * the output (each output starts as a sentinel pattern and is read back).
 * Run it under ASan+UBSan (the debug-asan preset) to prove "no crash" means
 * "no invalid access" too. */
#define _XOPEN_SOURCE 700
#include <criterion/criterion.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "test_util.h"

static accel_runtime *rt;
static accel_device *cpu, *mock;
static accel_queue *q, *mq;

static void setup(void)
{
    /* fallback = none: ops the mock lacks must fail, not run on the CPU. */
    accel_status s =
        tu_open_ini(tu_fmt("[runtime]\norder = cpu, mock\nfallback = none\n"
                           "[backend.cpu]\nlibrary = %s\n[backend.mock]\nlibrary = %s\n",
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

TestSuite(bad_input, .init = setup, .fini = teardown);

/* The call failed with `expected` and accel_last_error() names fn. */
#define expect_fail(call, expected, fn)                                                            \
    do {                                                                                           \
        accel_status st_ = (call);                                                                 \
        cr_assert(st_ == (expected), "%s: got %s, expected %s (\"%s\")", #call,                    \
                  accel_status_name(st_), accel_status_name(expected), accel_last_error());        \
        cr_assert(strstr(accel_last_error(), fn) != NULL, "%s: message \"%s\" does not name %s",   \
                  #call, accel_last_error(), fn);                                                  \
    } while (0)

/* A device buffer of n f32 elements, all TU_SENTINEL (no guards). */
static tu_dbuf sentinel_f32(size_t n)
{
    tu_dbuf b = tu_upload(q, ACCEL_F32, NULL, n);
    return b;
}

/* Whole buffer (guards and payload) still TU_SENTINEL after a failed call. */
static void expect_untouched(const tu_dbuf *b, const char *what)
{
    tu_ok(accel_queue_finish(q));
    size_t n = b->count + 2 * b->guard;
    float *v = malloc(n * sizeof *v);
    cr_assert(v);
    tu_ok(accel_queue_read_blocking(q, b->buf, 0, v, n * sizeof *v));
    for (size_t i = 0; i < n; ++i)
        cr_assert((double)v[i] == TU_SENTINEL, "%s: element %zu changed to %g", what, i,
                  (double)v[i]);
    free(v);
}

/* ---------------------------------------------------------------- handles */

Test(bad_input, null_queue_and_null_buffer)
{
    tu_dbuf a = sentinel_f32(8), out = sentinel_f32(8);
    expect_fail(accel_add(NULL, ACCEL_F32, tu_slice(&a), tu_slice(&a), tu_slice(&out)),
                ACCEL_ERROR_INVALID_HANDLE, "accel_add");
    expect_fail(accel_add(q, ACCEL_F32, accel_slice_of(NULL, 0, 8), tu_slice(&a), tu_slice(&out)),
                ACCEL_ERROR_INVALID_HANDLE, "accel_add");
    expect_fail(accel_add(q, ACCEL_F32, tu_slice(&a), tu_slice(&a), accel_slice_of(NULL, 0, 8)),
                ACCEL_ERROR_INVALID_HANDLE, "accel_add");
    expect_fail(accel_fill(NULL, ACCEL_F32, 1.0, tu_slice(&out)), ACCEL_ERROR_INVALID_HANDLE,
                "accel_fill");
    expect_fail(accel_queue_finish(NULL), ACCEL_ERROR_INVALID_HANDLE, "accel_queue_finish");
    accel_buffer *b = NULL;
    expect_fail(accel_buffer_create(NULL, 16, &b), ACCEL_ERROR_INVALID_HANDLE,
                "accel_buffer_create");
    cr_assert_null(b);
    accel_queue *nq = NULL;
    expect_fail(accel_queue_create(NULL, &nq), ACCEL_ERROR_INVALID_HANDLE, "accel_queue_create");
    accel_event *ev = NULL;
    expect_fail(accel_event_create(NULL, &ev), ACCEL_ERROR_INVALID_HANDLE, "accel_event_create");
    accel_device_properties p;
    accel_device_properties_init(&p);
    expect_fail(accel_device_properties_get(NULL, &p), ACCEL_ERROR_INVALID_HANDLE,
                "accel_device_properties_get");
    cr_assert_eq(accel_buffer_size(NULL), 0u);
    cr_assert_null(accel_buffer_device(NULL));
    expect_untouched(&out, "out after NULL-handle calls");
    /* Releasing NULL is a no-op. */
    accel_buffer_release(NULL);
    accel_queue_release(NULL);
    accel_event_release(NULL);
    accel_runtime_close(NULL);
    tu_release(&a), tu_release(&out);
}

Test(bad_input, released_buffer_is_invalid_handle)
{
    accel_buffer *dead;
    tu_ok(accel_buffer_create(cpu, 64, &dead));
    cr_assert_eq(accel_buffer_size(dead), 64u);
    accel_buffer_release(dead);
    tu_dbuf out = sentinel_f32(16);
    float host[16] = {0};
    expect_fail(accel_fill(q, ACCEL_F32, 1.0, accel_slice_of(dead, 0, 16)),
                ACCEL_ERROR_INVALID_HANDLE, "accel_fill");
    expect_fail(accel_copy(q, ACCEL_F32, accel_slice_of(dead, 0, 16), tu_slice(&out)),
                ACCEL_ERROR_INVALID_HANDLE, "accel_copy");
    expect_fail(accel_queue_write(q, dead, 0, host, 64), ACCEL_ERROR_INVALID_HANDLE,
                "accel_queue_write");
    expect_fail(accel_queue_read_blocking(q, dead, 0, host, 64), ACCEL_ERROR_INVALID_HANDLE,
                "accel_queue_read_blocking");
    expect_fail(accel_queue_copy(q, dead, 0, out.buf, 0, 16), ACCEL_ERROR_INVALID_HANDLE,
                "accel_queue_copy");
    cr_assert_eq(accel_buffer_size(dead), 0u);
    cr_assert_null(accel_buffer_device(dead));
    expect_untouched(&out, "out after released-buffer calls");
    tu_release(&out);
}

Test(bad_input, released_queue_and_event_are_invalid_handles)
{
    accel_queue *dead_q;
    tu_ok(accel_queue_create(cpu, &dead_q));
    accel_queue_release(dead_q);
    accel_event *dead_ev;
    tu_ok(accel_event_create(cpu, &dead_ev));
    accel_event_release(dead_ev);
    tu_dbuf out = sentinel_f32(4);
    expect_fail(accel_fill(dead_q, ACCEL_F32, 1.0, tu_slice(&out)), ACCEL_ERROR_INVALID_HANDLE,
                "accel_fill");
    expect_fail(accel_queue_finish(dead_q), ACCEL_ERROR_INVALID_HANDLE, "accel_queue_finish");
    expect_fail(accel_event_record(dead_ev, q), ACCEL_ERROR_INVALID_HANDLE, "accel_event_record");
    expect_fail(accel_queue_wait_event(q, dead_ev), ACCEL_ERROR_INVALID_HANDLE,
                "accel_queue_wait_event");
    expect_fail(accel_event_synchronize(dead_ev), ACCEL_ERROR_INVALID_HANDLE,
                "accel_event_synchronize");
    bool done;
    expect_fail(accel_event_query(dead_ev, &done), ACCEL_ERROR_INVALID_HANDLE, "accel_event_query");
    expect_untouched(&out, "out after released-queue calls");
    tu_release(&out);
}

Test(bad_input, handle_of_the_wrong_type_is_invalid_handle)
{
    tu_dbuf out = sentinel_f32(4);
    /* A queue passed where a buffer belongs, and a buffer as a queue. */
    expect_fail(accel_fill(q, ACCEL_F32, 1.0, accel_slice_of((accel_buffer *)(void *)q, 0, 4)),
                ACCEL_ERROR_INVALID_HANDLE, "accel_fill");
    expect_fail(accel_fill((accel_queue *)(void *)out.buf, ACCEL_F32, 1.0, tu_slice(&out)),
                ACCEL_ERROR_INVALID_HANDLE, "accel_fill");
    expect_untouched(&out, "out after wrong-type handles");
    tu_release(&out);
}

/* ---------------------------------------------------------------- ranges */

Test(bad_input, slice_past_the_end_is_out_of_range)
{
    tu_dbuf a = sentinel_f32(16), out = sentinel_f32(16);
    size_t total = 16 + 2 * TU_GUARD;
    /* One element past the end, in each operand position. */
    accel_slice ok = accel_slice_of(a.buf, 0, 10), past = accel_slice_of(out.buf, total - 9, 10);
    expect_fail(accel_add(q, ACCEL_F32, ok, ok, past), ACCEL_ERROR_OUT_OF_RANGE, "accel_add");
    expect_fail(accel_add(q, ACCEL_F32, accel_slice_of(a.buf, total - 9, 10), ok,
                          accel_slice_of(out.buf, 0, 10)),
                ACCEL_ERROR_OUT_OF_RANGE, "accel_add");
    expect_fail(accel_fill(q, ACCEL_F32, 1.0, accel_slice_of(out.buf, total, 1)),
                ACCEL_ERROR_OUT_OF_RANGE, "accel_fill");
    /* The same byte size is in range as f32 but past the end as f64. */
    expect_fail(accel_fill(q, ACCEL_F64, 1.0, accel_slice_of(out.buf, 0, total)),
                ACCEL_ERROR_OUT_OF_RANGE, "accel_fill");
    expect_fail(
        accel_sum(q, ACCEL_F32, accel_slice_of(a.buf, 0, total + 1), accel_slice_of(out.buf, 0, 1)),
        ACCEL_ERROR_OUT_OF_RANGE, "accel_sum");
    expect_fail(accel_random_uniform(q, ACCEL_F32, 1, 0, accel_slice_of(out.buf, 1, total)),
                ACCEL_ERROR_OUT_OF_RANGE, "accel_random_uniform");
    expect_untouched(&out, "out after out-of-range calls");
    /* An empty slice at the very end is in range. */
    tu_ok(accel_fill(q, ACCEL_F32, 1.0, accel_slice_of(out.buf, total, 0)));
    expect_untouched(&out, "out after an empty fill at the end");
    tu_release(&a), tu_release(&out);
}

Test(bad_input, offset_plus_count_overflow_is_out_of_range)
{
    tu_dbuf out = sentinel_f32(16);
    expect_fail(accel_fill(q, ACCEL_F32, 1.0, accel_slice_of(out.buf, SIZE_MAX, 2)),
                ACCEL_ERROR_OUT_OF_RANGE, "accel_fill");
    expect_fail(accel_fill(q, ACCEL_F32, 1.0, accel_slice_of(out.buf, 2, SIZE_MAX)),
                ACCEL_ERROR_OUT_OF_RANGE, "accel_fill");
    /* offset + count fits in size_t, but times 4 bytes wraps to a small number. */
    expect_fail(accel_fill(q, ACCEL_F32, 1.0, accel_slice_of(out.buf, 0, SIZE_MAX / 4 + 2)),
                ACCEL_ERROR_OUT_OF_RANGE, "accel_fill");
    expect_fail(accel_fill(q, ACCEL_F32, 1.0, accel_slice_of(out.buf, SIZE_MAX / 4 + 1, 1)),
                ACCEL_ERROR_OUT_OF_RANGE, "accel_fill");
    float host[4] = {0};
    expect_fail(accel_queue_write(q, out.buf, SIZE_MAX, host, 2), ACCEL_ERROR_OUT_OF_RANGE,
                "accel_queue_write");
    expect_fail(accel_queue_write(q, out.buf, 4, host, SIZE_MAX), ACCEL_ERROR_OUT_OF_RANGE,
                "accel_queue_write");
    expect_fail(accel_queue_read(q, out.buf, SIZE_MAX - 1, host, 4), ACCEL_ERROR_OUT_OF_RANGE,
                "accel_queue_read");
    expect_fail(accel_queue_copy(q, out.buf, 0, out.buf, SIZE_MAX, 4), ACCEL_ERROR_OUT_OF_RANGE,
                "accel_queue_copy");
    expect_untouched(&out, "out after overflowing ranges");
    tu_release(&out);
}

Test(bad_input, transfers_past_the_end_and_null_host_pointers)
{
    tu_dbuf out = sentinel_f32(10); /* 16 floats = 64 bytes with guards */
    float host[32] = {0};
    expect_fail(accel_queue_write(q, out.buf, 60, host, 8), ACCEL_ERROR_OUT_OF_RANGE,
                "accel_queue_write");
    expect_fail(accel_queue_write_blocking(q, out.buf, 0, host, 65), ACCEL_ERROR_OUT_OF_RANGE,
                "accel_queue_write_blocking");
    expect_fail(accel_queue_read(q, out.buf, 1, host, 64), ACCEL_ERROR_OUT_OF_RANGE,
                "accel_queue_read");
    expect_fail(accel_queue_write(q, out.buf, 0, NULL, 4), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_queue_write");
    expect_fail(accel_queue_read(q, out.buf, 0, NULL, 4), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_queue_read");
    expect_fail(accel_queue_copy(q, out.buf, 0, out.buf, 60, 8), ACCEL_ERROR_OUT_OF_RANGE,
                "accel_queue_copy");
    /* Overlapping ranges of one buffer. */
    expect_fail(accel_queue_copy(q, out.buf, 0, out.buf, 8, 16), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_queue_copy");
    expect_untouched(&out, "buffer after bad transfers");
    /* Zero bytes with a NULL pointer is fine. */
    tu_ok(accel_queue_write(q, out.buf, 64, NULL, 0));
    tu_release(&out);
}

/* ---------------------------------------------------------------- dtypes */

/* A valid dtype an op does not take is named, with the op and the dtypes its
 * op table row takes; only a value outside the enum is "not a known dtype". */
Test(bad_input, unsupported_dtype_message_names_dtype_and_op)
{
    tu_dbuf a = sentinel_f32(8), out = sentinel_f32(8);
    cr_assert_eq(
        accel_binary(q, ACCEL_OP_ADD, ACCEL_I32, tu_slice(&a), tu_slice(&a), tu_slice(&out)),
        ACCEL_ERROR_DTYPE_MISMATCH);
    cr_assert_str_eq(accel_last_error(),
                     "accel_binary: i32 is not supported by this op (add); supported: f32 f64");
    cr_assert_eq(accel_exp(q, ACCEL_U8, tu_slice(&a), tu_slice(&out)), ACCEL_ERROR_DTYPE_MISMATCH);
    cr_assert(
        strstr(accel_last_error(), "u8 is not supported by this op (exp); supported: f32 f64"),
        "%s", accel_last_error());
    cr_assert_eq(accel_add(q, (accel_dtype)99, tu_slice(&a), tu_slice(&a), tu_slice(&out)),
                 ACCEL_ERROR_DTYPE_MISMATCH);
    cr_assert(strstr(accel_last_error(), "dtype 99 is not a known dtype"), "%s",
              accel_last_error());
    expect_untouched(&out, "output after refused dtypes");
    tu_release(&a);
    tu_release(&out);
}

Test(bad_input, invalid_or_unaccepted_dtype_is_dtype_mismatch)
{
    tu_dbuf a = sentinel_f32(8), out = sentinel_f32(8);
    expect_fail(accel_add(q, ACCEL_DTYPE_INVALID, tu_slice(&a), tu_slice(&a), tu_slice(&out)),
                ACCEL_ERROR_DTYPE_MISMATCH, "accel_add");
    expect_fail(accel_add(q, (accel_dtype)99, tu_slice(&a), tu_slice(&a), tu_slice(&out)),
                ACCEL_ERROR_DTYPE_MISMATCH, "accel_add");
    expect_fail(accel_fill(q, (accel_dtype)-1, 0.0, tu_slice(&out)), ACCEL_ERROR_DTYPE_MISMATCH,
                "accel_fill");
    /* f16/bf16 are for GEMM and copies only. */
    expect_fail(accel_add(q, ACCEL_F16, tu_slice(&a), tu_slice(&a), tu_slice(&out)),
                ACCEL_ERROR_DTYPE_MISMATCH, "accel_add");
    expect_fail(accel_exp(q, ACCEL_BF16, tu_slice(&a), tu_slice(&out)), ACCEL_ERROR_DTYPE_MISMATCH,
                "accel_exp");
    expect_fail(accel_sum(q, ACCEL_F16, tu_slice(&a), accel_slice_of(out.buf, 0, 1)),
                ACCEL_ERROR_DTYPE_MISMATCH, "accel_sum");
    expect_fail(accel_random_uniform(q, ACCEL_F16, 1, 0, tu_slice(&out)),
                ACCEL_ERROR_DTYPE_MISMATCH, "accel_random_uniform");
    expect_fail(accel_random_normal(q, ACCEL_BF16, 1, 0, 0.0, 1.0, tu_slice(&out)),
                ACCEL_ERROR_DTYPE_MISMATCH, "accel_random_normal");
    accel_gemm_desc d;
    accel_gemm_desc_init(&d);
    d.dtype = (accel_dtype)42;
    d.m = d.n = d.k = 2;
    d.lda = d.ldb = d.ldc = 2;
    d.a = d.b = a.buf;
    d.c = out.buf;
    expect_fail(accel_gemm(q, &d), ACCEL_ERROR_DTYPE_MISMATCH, "accel_gemm");
    expect_untouched(&out, "out after dtype errors");
    cr_assert_eq(accel_dtype_size((accel_dtype)99), 0u);
    cr_assert_str_eq(accel_dtype_name((accel_dtype)99), "invalid");
    cr_assert_str_eq(accel_dtype_name(ACCEL_F32), "f32");
    cr_assert_eq(accel_dtype_size(ACCEL_F64), 8u);
    tu_release(&a), tu_release(&out);
}

/* ---------------------------------------------------------------- shapes */

Test(bad_input, count_mismatch_is_shape_mismatch)
{
    tu_dbuf a = sentinel_f32(16), out = sentinel_f32(16);
    accel_slice a10 = accel_slice_of(a.buf, 0, 10), a9 = accel_slice_of(a.buf, 0, 9);
    accel_slice o10 = accel_slice_of(out.buf, 0, 10), o9 = accel_slice_of(out.buf, 0, 9);
    expect_fail(accel_add(q, ACCEL_F32, a10, a9, o10), ACCEL_ERROR_SHAPE_MISMATCH, "accel_add");
    expect_fail(accel_mul(q, ACCEL_F32, a10, a10, o9), ACCEL_ERROR_SHAPE_MISMATCH, "accel_mul");
    expect_fail(accel_copy(q, ACCEL_F32, a10, o9), ACCEL_ERROR_SHAPE_MISMATCH, "accel_copy");
    expect_fail(accel_sqrt(q, ACCEL_F32, a9, o10), ACCEL_ERROR_SHAPE_MISMATCH, "accel_sqrt");
    expect_fail(accel_axpby(q, ACCEL_F32, 1.0, a10, 1.0, o9), ACCEL_ERROR_SHAPE_MISMATCH,
                "accel_axpby");
    expect_fail(accel_scale(q, ACCEL_F32, 2.0, a10, o9), ACCEL_ERROR_SHAPE_MISMATCH, "accel_scale");
    expect_fail(accel_dot(q, ACCEL_F32, a10, a9, accel_slice_of(out.buf, 0, 1)),
                ACCEL_ERROR_SHAPE_MISMATCH, "accel_dot");
    /* Reductions write exactly one element. */
    expect_fail(accel_sum(q, ACCEL_F32, a10, accel_slice_of(out.buf, 0, 2)),
                ACCEL_ERROR_SHAPE_MISMATCH, "accel_sum");
    expect_fail(accel_reduce_max(q, ACCEL_F32, a10, accel_slice_of(out.buf, 0, 0)),
                ACCEL_ERROR_SHAPE_MISMATCH, "accel_reduce_max");
    expect_untouched(&out, "out after shape mismatches");
    tu_release(&a), tu_release(&out);
}

Test(bad_input, partial_aliasing_is_invalid_argument)
{
    tu_dbuf a = sentinel_f32(32);
    accel_slice x = accel_slice_of(a.buf, 0, 10);
    expect_fail(accel_add(q, ACCEL_F32, x, x, accel_slice_of(a.buf, 5, 10)),
                ACCEL_ERROR_INVALID_ARGUMENT, "accel_add");
    expect_fail(accel_neg(q, ACCEL_F32, x, accel_slice_of(a.buf, 9, 10)),
                ACCEL_ERROR_INVALID_ARGUMENT, "accel_neg");
    expect_fail(accel_copy(q, ACCEL_F32, accel_slice_of(a.buf, 1, 10), x),
                ACCEL_ERROR_INVALID_ARGUMENT, "accel_copy");
    expect_fail(accel_axpby(q, ACCEL_F32, 1.0, accel_slice_of(a.buf, 3, 10), 1.0, x),
                ACCEL_ERROR_INVALID_ARGUMENT, "accel_axpby");
    /* A reduction's output must not overlap its input at all. */
    expect_fail(accel_sum(q, ACCEL_F32, x, accel_slice_of(a.buf, 4, 1)),
                ACCEL_ERROR_INVALID_ARGUMENT, "accel_sum");
    expect_fail(
        accel_dot(q, ACCEL_F32, x, accel_slice_of(a.buf, 12, 10), accel_slice_of(a.buf, 15, 1)),
        ACCEL_ERROR_INVALID_ARGUMENT, "accel_dot");
    expect_untouched(&a, "buffer after aliasing errors");
    /* Exact in-place aliasing is allowed (positive control). */
    tu_ok(accel_neg(q, ACCEL_F32, x, x));
    tu_ok(accel_queue_finish(q));
    float v[12];
    tu_ok(accel_queue_read_blocking(q, a.buf, 0, v, sizeof v));
    for (int i = 0; i < 10; ++i)
        cr_assert((double)v[i] == -TU_SENTINEL, "in-place neg element %d: %g", i, (double)v[i]);
    cr_assert((double)v[10] == TU_SENTINEL && (double)v[11] == TU_SENTINEL);
    tu_release(&a);
}

/* ---------------------------------------------------------------- GEMM */

/* A valid 4x5 * 5x3 single GEMM on buffers with room for 3 batches. */
typedef struct gemm_case {
    tu_dbuf a, b, c;
    accel_gemm_desc d;
} gemm_case;

static gemm_case gemm_setup(void)
{
    gemm_case g;
    g.a = sentinel_f32(3 * 20);
    g.b = sentinel_f32(3 * 15);
    g.c = sentinel_f32(3 * 12);
    accel_gemm_desc_init(&g.d);
    cr_assert_eq(g.d.struct_size, (uint32_t)sizeof g.d);
    cr_assert(g.d.alpha == 1.0 && g.d.beta == 0.0 && g.d.batch_count == 1);
    g.d.dtype = ACCEL_F32;
    g.d.m = 4, g.d.n = 3, g.d.k = 5;
    g.d.a = g.a.buf, g.d.lda = 5, g.d.a_offset = TU_GUARD;
    g.d.b = g.b.buf, g.d.ldb = 3, g.d.b_offset = TU_GUARD;
    g.d.c = g.c.buf, g.d.ldc = 3, g.d.c_offset = TU_GUARD;
    g.d.stride_a = 20, g.d.stride_b = 15, g.d.stride_c = 12;
    return g;
}

static void gemm_done(gemm_case *g, const char *what)
{
    expect_untouched(&g->c, what);
    tu_release(&g->a), tu_release(&g->b), tu_release(&g->c);
}

Test(bad_input, gemm_leading_dimension_below_row_length)
{
    gemm_case g = gemm_setup();
    accel_gemm_desc d = g.d;
    d.lda = 4; /* k = 5 columns */
    expect_fail(accel_gemm(q, &d), ACCEL_ERROR_INVALID_ARGUMENT, "accel_gemm");
    cr_assert(strstr(accel_last_error(), "lda") != NULL, "%s", accel_last_error());
    d = g.d, d.trans_a = ACCEL_TRANS, d.lda = 3; /* A stored k x m: rows of m = 4 */
    expect_fail(accel_gemm(q, &d), ACCEL_ERROR_INVALID_ARGUMENT, "accel_gemm");
    d = g.d, d.ldb = 2;
    expect_fail(accel_gemm(q, &d), ACCEL_ERROR_INVALID_ARGUMENT, "accel_gemm");
    cr_assert(strstr(accel_last_error(), "ldb") != NULL, "%s", accel_last_error());
    d = g.d, d.trans_b = ACCEL_TRANS, d.ldb = 4; /* B stored n x k: rows of k = 5 */
    expect_fail(accel_gemm(q, &d), ACCEL_ERROR_INVALID_ARGUMENT, "accel_gemm");
    d = g.d, d.ldc = 2;
    expect_fail(accel_gemm(q, &d), ACCEL_ERROR_INVALID_ARGUMENT, "accel_gemm");
    cr_assert(strstr(accel_last_error(), "ldc") != NULL, "%s", accel_last_error());
    /* Positive control: the unmodified descriptor is accepted. */
    d = g.d;
    tu_ok(accel_gemm(q, &d));
    tu_ok(accel_queue_finish(q));
    tu_release(&g.a), tu_release(&g.b), tu_release(&g.c);
}

Test(bad_input, gemm_k_larger_than_the_buffers_is_out_of_range)
{
    gemm_case g = gemm_setup();
    /* matmul: A is m x k from offset 0; k = 100 needs far more than A holds. */
    expect_fail(accel_matmul(q, ACCEL_F32, 4, 3, 100, g.a.buf, g.b.buf, g.c.buf),
                ACCEL_ERROR_OUT_OF_RANGE, "accel_matmul");
    accel_gemm_desc d = g.d;
    d.k = 16,
    d.lda = 16; /* A needs 3 + 4*16 = 67 elements; its buffer has 66 (B fits: 3 + 48 <= 51) */
    expect_fail(accel_gemm(q, &d), ACCEL_ERROR_OUT_OF_RANGE, "accel_gemm");
    gemm_done(&g, "C after a GEMM with k past A");
}

Test(bad_input, gemm_b_past_the_end_in_a_later_batch)
{
    gemm_case g = gemm_setup();
    accel_gemm_desc d = g.d;
    d.batch_count = 3;
    d.stride_b = 17; /* batch 2 of B ends at 3 + 34 + 15 = 52 > 51 */
    expect_fail(accel_gemm(q, &d), ACCEL_ERROR_OUT_OF_RANGE, "accel_gemm");
    const char *m = accel_last_error();
    cr_assert(strstr(m, "B") != NULL && strstr(m, "batch") != NULL && strstr(m, "2") != NULL,
              "message must name B and batch 2: \"%s\"", m);
    gemm_done(&g, "C after B past the end");
}

Test(bad_input, gemm_c_past_the_end_in_a_later_batch)
{
    gemm_case g = gemm_setup();
    accel_gemm_desc d = g.d;
    d.batch_count = 4; /* C holds 3 batches */
    d.stride_a = 0, d.stride_b = 0;
    expect_fail(accel_gemm(q, &d), ACCEL_ERROR_OUT_OF_RANGE, "accel_gemm");
    const char *m = accel_last_error();
    cr_assert(strstr(m, "C") != NULL && strstr(m, "batch") != NULL && strstr(m, "3") != NULL,
              "message must name C and batch 3: \"%s\"", m);
    gemm_done(&g, "C after C past the end");
}

Test(bad_input, gemm_overlapping_c_batches_and_c_overlapping_inputs)
{
    gemm_case g = gemm_setup();
    accel_gemm_desc d = g.d;
    d.batch_count = 2, d.stride_c = 11; /* C matrices span 12 elements */
    expect_fail(accel_gemm(q, &d), ACCEL_ERROR_INVALID_ARGUMENT, "accel_gemm");
    d.stride_c = 0;
    expect_fail(accel_gemm(q, &d), ACCEL_ERROR_INVALID_ARGUMENT, "accel_gemm");
    /* C overlapping A (same buffer, overlapping ranges). */
    d = g.d;
    d.a = g.c.buf, d.a_offset = TU_GUARD + 6;
    d.c = g.c.buf, d.c_offset = TU_GUARD;
    expect_fail(accel_gemm(q, &d), ACCEL_ERROR_INVALID_ARGUMENT, "accel_gemm");
    d = g.d;
    d.b = g.c.buf, d.b_offset = TU_GUARD;
    expect_fail(accel_gemm(q, &d), ACCEL_ERROR_INVALID_ARGUMENT, "accel_gemm");
    gemm_done(&g, "C after overlap errors");
}

Test(bad_input, gemm_null_descriptor_and_dimension_overflow)
{
    gemm_case g = gemm_setup();
    accel_status s = accel_gemm(q, NULL);
    cr_assert(s == ACCEL_ERROR_INVALID_ARGUMENT, "NULL desc: %s", accel_status_name(s));
    cr_assert(strstr(accel_last_error(), "accel_gemm") != NULL, "%s", accel_last_error());
    accel_gemm_desc d = g.d;
    d.m = SIZE_MAX / 2, d.k = 4, d.lda = 4;
    s = accel_gemm(q, &d);
    cr_assert(s == ACCEL_ERROR_INVALID_ARGUMENT || s == ACCEL_ERROR_OUT_OF_RANGE,
              "m overflow: %s (%s)", accel_status_name(s), accel_last_error());
    d = g.d, d.lda = SIZE_MAX / 2;
    s = accel_gemm(q, &d);
    cr_assert(s == ACCEL_ERROR_INVALID_ARGUMENT || s == ACCEL_ERROR_OUT_OF_RANGE,
              "lda overflow: %s", accel_status_name(s));
    d = g.d, d.batch_count = 2, d.stride_c = SIZE_MAX - 2;
    s = accel_gemm(q, &d);
    cr_assert(s == ACCEL_ERROR_INVALID_ARGUMENT || s == ACCEL_ERROR_OUT_OF_RANGE,
              "stride overflow: %s", accel_status_name(s));
    d = g.d, d.struct_size = 0;
    expect_fail(accel_gemm(q, &d), ACCEL_ERROR_INVALID_ARGUMENT, "accel_gemm");
    gemm_done(&g, "C after overflowing GEMMs");
}

/* ---------------------------------------------------------------- transpose */

/* Mostly a 4 x 5 x (ldx 5) into a 5 x 4 out (ldo 4), each at offset
 * TU_GUARD of a buffer of exactly 20 + 2*TU_GUARD elements. */
#define TR(...) accel_transpose_2d(q, ACCEL_F32, __VA_ARGS__)

Test(bad_input, transpose_leading_dimension_below_row_length)
{
    tu_dbuf x = sentinel_f32(20), out = sentinel_f32(20);
    expect_fail(TR(4, 5, x.buf, TU_GUARD, 4, out.buf, TU_GUARD, 4), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_transpose_2d");
    cr_assert(strstr(accel_last_error(), "ldx") != NULL, "%s", accel_last_error());
    expect_fail(TR(4, 5, x.buf, TU_GUARD, 5, out.buf, TU_GUARD, 3), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_transpose_2d");
    cr_assert(strstr(accel_last_error(), "ldo") != NULL, "%s", accel_last_error());
    /* Checked also when there is nothing to move. */
    expect_fail(TR(0, 5, x.buf, TU_GUARD, 4, out.buf, TU_GUARD, 0), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_transpose_2d");
    expect_fail(TR(4, 0, x.buf, TU_GUARD, 0, out.buf, TU_GUARD, 3), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_transpose_2d");
    expect_untouched(&out, "out after leading-dimension errors");
    /* Positive controls: exact fit, and empty shapes. */
    tu_ok(TR(0, 5, x.buf, TU_GUARD, 5, out.buf, TU_GUARD, 0));
    tu_ok(TR(4, 0, x.buf, TU_GUARD, 0, out.buf, TU_GUARD, 4));
    expect_untouched(&out, "out after empty transposes");
    tu_ok(TR(4, 5, x.buf, TU_GUARD, 5, out.buf, TU_GUARD, 4));
    tu_ok(accel_queue_finish(q));
    tu_release(&x), tu_release(&out);
}

Test(bad_input, transpose_past_the_end_is_out_of_range)
{
    tu_dbuf x = sentinel_f32(20), out = sentinel_f32(20);
    /* x needs [3, 23) of the 26 elements; from 5 with ldx 6 it would need [5, 28). */
    expect_fail(TR(4, 5, x.buf, TU_GUARD + 2, 6, out.buf, TU_GUARD, 4), ACCEL_ERROR_OUT_OF_RANGE,
                "accel_transpose_2d");
    cr_assert(strstr(accel_last_error(), "x") != NULL, "%s", accel_last_error());
    expect_fail(TR(4, 5, x.buf, TU_GUARD + 4, 5, out.buf, TU_GUARD, 4), ACCEL_ERROR_OUT_OF_RANGE,
                "accel_transpose_2d");
    /* out is 5 x 4: (5-1)*ldo + 4 from its offset. */
    expect_fail(TR(4, 5, x.buf, TU_GUARD, 5, out.buf, TU_GUARD + 4, 4), ACCEL_ERROR_OUT_OF_RANGE,
                "accel_transpose_2d");
    cr_assert(strstr(accel_last_error(), "out") != NULL, "%s", accel_last_error());
    expect_fail(TR(4, 5, x.buf, TU_GUARD, 5, out.buf, TU_GUARD, 5), ACCEL_ERROR_OUT_OF_RANGE,
                "accel_transpose_2d");
    /* Overflow of offsets, extents and leading dimensions. */
    expect_fail(TR(4, 5, x.buf, SIZE_MAX, 5, out.buf, TU_GUARD, 4), ACCEL_ERROR_OUT_OF_RANGE,
                "accel_transpose_2d");
    expect_fail(TR(4, 5, x.buf, TU_GUARD, SIZE_MAX / 2, out.buf, TU_GUARD, 4),
                ACCEL_ERROR_OUT_OF_RANGE, "accel_transpose_2d");
    expect_fail(TR(SIZE_MAX, 1, x.buf, TU_GUARD, 1, out.buf, TU_GUARD, SIZE_MAX),
                ACCEL_ERROR_OUT_OF_RANGE, "accel_transpose_2d");
    expect_untouched(&out, "out after out-of-range transposes");
    tu_release(&x), tu_release(&out);
}

Test(bad_input, transpose_output_overlapping_x_is_invalid_argument)
{
    tu_dbuf buf = sentinel_f32(40);
    /* out's extent [13, 33) meets x's [3, 23) in the same buffer. */
    expect_fail(TR(4, 5, buf.buf, TU_GUARD, 5, buf.buf, TU_GUARD + 10, 4),
                ACCEL_ERROR_INVALID_ARGUMENT, "accel_transpose_2d");
    cr_assert(strstr(accel_last_error(), "overlap") != NULL, "%s", accel_last_error());
    /* In place, even square: not supported. */
    expect_fail(TR(4, 4, buf.buf, TU_GUARD, 4, buf.buf, TU_GUARD, 4), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_transpose_2d");
    /* out ending where x starts overlaps by one element. */
    expect_fail(TR(4, 5, buf.buf, TU_GUARD + 19, 5, buf.buf, TU_GUARD, 4),
                ACCEL_ERROR_INVALID_ARGUMENT, "accel_transpose_2d");
    expect_untouched(&buf, "buffer after overlapping transposes");
    /* Adjacent, disjoint ranges of one buffer are fine. */
    tu_ok(TR(4, 5, buf.buf, TU_GUARD, 5, buf.buf, TU_GUARD + 20, 4));
    tu_ok(accel_queue_finish(q));
    tu_release(&buf);
}

Test(bad_input, transpose_handles_dtypes_and_devices)
{
    tu_dbuf x = sentinel_f32(20), out = sentinel_f32(20);
    expect_fail(accel_transpose_2d(NULL, ACCEL_F32, 4, 5, x.buf, TU_GUARD, 5, out.buf, TU_GUARD, 4),
                ACCEL_ERROR_INVALID_HANDLE, "accel_transpose_2d");
    expect_fail(TR(4, 5, NULL, TU_GUARD, 5, out.buf, TU_GUARD, 4), ACCEL_ERROR_INVALID_HANDLE,
                "accel_transpose_2d");
    expect_fail(TR(4, 5, x.buf, TU_GUARD, 5, NULL, TU_GUARD, 4), ACCEL_ERROR_INVALID_HANDLE,
                "accel_transpose_2d");
    expect_fail(
        accel_transpose_2d(q, ACCEL_DTYPE_INVALID, 4, 5, x.buf, TU_GUARD, 5, out.buf, TU_GUARD, 4),
        ACCEL_ERROR_DTYPE_MISMATCH, "accel_transpose_2d");
    expect_fail(
        accel_transpose_2d(q, (accel_dtype)99, 4, 5, x.buf, TU_GUARD, 5, out.buf, TU_GUARD, 4),
        ACCEL_ERROR_DTYPE_MISMATCH, "accel_transpose_2d");
    accel_buffer *mb;
    tu_ok(accel_buffer_create(mock, 26 * sizeof(float), &mb));
    expect_fail(TR(4, 5, x.buf, TU_GUARD, 5, mb, TU_GUARD, 4), ACCEL_ERROR_DEVICE_MISMATCH,
                "accel_transpose_2d");
    /* The mock backend has no transpose. */
    accel_buffer *mb2;
    tu_ok(accel_buffer_create(mock, 26 * sizeof(float), &mb2));
    expect_fail(accel_transpose_2d(mq, ACCEL_F32, 4, 5, mb, TU_GUARD, 5, mb2, TU_GUARD, 4),
                ACCEL_ERROR_UNSUPPORTED, "accel_transpose_2d");
    accel_buffer_release(mb), accel_buffer_release(mb2);
    expect_untouched(&out, "out after bad handles, dtypes and devices");
    tu_release(&x), tu_release(&out);
}

#undef TR

/* ---------------------------------------------------------------- devices */

Test(bad_input, unknown_device_names_are_not_found)
{
    const char *unknown[] = {"tpu", "cpu:1", "cuda:99", "mock:3", "metal"};
    for (size_t i = 0; i < sizeof unknown / sizeof *unknown; ++i) {
        accel_device *dev = NULL;
        expect_fail(accel_device_get_by_name(rt, unknown[i], &dev), ACCEL_ERROR_NOT_FOUND,
                    "accel_device_get_by_name");
        cr_assert(strstr(accel_last_error(), "cpu:0") != NULL,
                  "\"%s\": the message must list known devices: %s", unknown[i],
                  accel_last_error());
        cr_assert_null(dev);
    }
    accel_device *dev = NULL;
    expect_fail(accel_device_get(rt, 2, &dev), ACCEL_ERROR_NOT_FOUND, "accel_device_get");
    expect_fail(accel_device_get(NULL, 0, &dev), ACCEL_ERROR_INVALID_HANDLE, "accel_device_get");
}

Test(bad_input, malformed_device_names_are_invalid_argument)
{
    const char *bad[] = {"", "cpu:", ":0", "cpu:x", "cpu:-1", "cpu:0:1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) {
        accel_device *dev = NULL;
        accel_status s = accel_device_get_by_name(rt, bad[i], &dev);
        cr_assert(s == ACCEL_ERROR_INVALID_ARGUMENT, "\"%s\": %s (%s)", bad[i],
                  accel_status_name(s), accel_last_error());
        cr_assert(strstr(accel_last_error(), "accel_device_get_by_name") != NULL, "%s",
                  accel_last_error());
        cr_assert(strstr(accel_last_error(), "known devices: cpu:0") != NULL,
                  "\"%s\": the message must list known devices: %s", bad[i], accel_last_error());
    }
    accel_device *dev = NULL;
    expect_fail(accel_device_get_by_name(rt, NULL, &dev), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_device_get_by_name");
    /* The valid spellings (positive control). */
    const char *good[] = {"cpu", "cpu:0", "mock", "mock:0", "default"};
    for (size_t i = 0; i < sizeof good / sizeof *good; ++i)
        tu_assert_status(accel_device_get_by_name(rt, good[i], &dev), ACCEL_SUCCESS, "%s", good[i]);
}

Test(bad_input, operands_on_another_device_are_device_mismatch)
{
    tu_dbuf out = sentinel_f32(8);
    accel_buffer *mb;
    tu_ok(accel_buffer_create(mock, 64, &mb));
    expect_fail(accel_fill(q, ACCEL_F32, 1.0, accel_slice_of(mb, 0, 8)),
                ACCEL_ERROR_DEVICE_MISMATCH, "accel_fill");
    expect_fail(accel_copy(q, ACCEL_F32, accel_slice_of(mb, 0, 8), tu_slice(&out)),
                ACCEL_ERROR_DEVICE_MISMATCH, "accel_copy");
    expect_fail(accel_fill(mq, ACCEL_F32, 1.0, tu_slice(&out)), ACCEL_ERROR_DEVICE_MISMATCH,
                "accel_fill");
    float host[16] = {0};
    expect_fail(accel_queue_write(q, mb, 0, host, 16), ACCEL_ERROR_DEVICE_MISMATCH,
                "accel_queue_write");
    expect_fail(accel_queue_read(mq, out.buf, 0, host, 16), ACCEL_ERROR_DEVICE_MISMATCH,
                "accel_queue_read");
    accel_event *ev_cpu, *ev_mock;
    tu_ok(accel_event_create(cpu, &ev_cpu));
    tu_ok(accel_event_create(mock, &ev_mock));
    expect_fail(accel_event_record(ev_cpu, mq), ACCEL_ERROR_DEVICE_MISMATCH, "accel_event_record");
    tu_ok(accel_event_record(ev_cpu, q));
    tu_ok(accel_event_record(ev_mock, mq));
    tu_ok(accel_event_synchronize(ev_cpu));
    double ms;
    expect_fail(accel_event_elapsed_ms(ev_cpu, ev_mock, &ms), ACCEL_ERROR_DEVICE_MISMATCH,
                "accel_event_elapsed_ms");
    expect_untouched(&out, "cpu buffer after device mismatches");
    accel_event_release(ev_cpu);
    accel_event_release(ev_mock);
    accel_buffer_release(mb);
    tu_release(&out);
}

Test(bad_input, op_the_backend_lacks_is_unsupported)
{
    accel_buffer *mb;
    tu_ok(accel_buffer_create(mock, 64, &mb));
    accel_slice s = accel_slice_of(mb, 0, 4);
    expect_fail(accel_add(mq, ACCEL_F32, s, s, s), ACCEL_ERROR_UNSUPPORTED, "accel_add");
    /* What the mock does support goes through (positive control). */
    tu_ok(accel_fill(mq, ACCEL_F32, 2.5, s));
    float v[4];
    tu_ok(accel_queue_read_blocking(mq, mb, 0, v, sizeof v));
    for (int i = 0; i < 4; ++i)
        cr_assert((double)v[i] == 2.5);
    accel_buffer_release(mb);
}

/* ---------------------------------------------------------------- op specifics */

Test(bad_input, max_and_min_of_zero_elements_are_invalid_argument)
{
    tu_dbuf a = sentinel_f32(4), out = sentinel_f32(1);
    expect_fail(accel_reduce_max(q, ACCEL_F32, accel_slice_of(a.buf, 0, 0), tu_slice(&out)),
                ACCEL_ERROR_INVALID_ARGUMENT, "accel_reduce_max");
    expect_fail(
        accel_reduce_min(q, ACCEL_F64, accel_slice_of(a.buf, 0, 0), accel_slice_of(out.buf, 0, 1)),
        ACCEL_ERROR_INVALID_ARGUMENT, "accel_reduce_min");
    expect_fail(accel_reduce(q, ACCEL_OP_REDUCE_MAX, ACCEL_F32, accel_slice_of(a.buf, 0, 0),
                             tu_slice(&out)),
                ACCEL_ERROR_INVALID_ARGUMENT, "accel_reduce");
    expect_untouched(&out, "out after empty max/min");
    /* The sum of nothing is 0 (positive control: the output is written). */
    tu_ok(accel_sum(q, ACCEL_F32, accel_slice_of(a.buf, 0, 0), tu_slice(&out)));
    double v;
    tu_download(q, &out, &v);
    cr_assert(v == 0.0, "empty sum gave %g", v);
    tu_release(&a), tu_release(&out);
}

Test(bad_input, normal_with_negative_or_nonfinite_parameters)
{
    tu_dbuf out = sentinel_f32(8);
    expect_fail(accel_random_normal(q, ACCEL_F32, 1, 0, 0.0, -1.0, tu_slice(&out)),
                ACCEL_ERROR_INVALID_ARGUMENT, "accel_random_normal");
    expect_fail(accel_random_normal(q, ACCEL_F32, 1, 0, NAN, 1.0, tu_slice(&out)),
                ACCEL_ERROR_INVALID_ARGUMENT, "accel_random_normal");
    expect_fail(accel_random_normal(q, ACCEL_F32, 1, 0, 0.0, INFINITY, tu_slice(&out)),
                ACCEL_ERROR_INVALID_ARGUMENT, "accel_random_normal");
    /* Finite in double but past float32's range: a float32 fill refuses them. */
    expect_fail(accel_random_normal(q, ACCEL_F32, 1, 0, 0.0, 1e300, tu_slice(&out)),
                ACCEL_ERROR_INVALID_ARGUMENT, "accel_random_normal");
    expect_fail(accel_random_normal(q, ACCEL_F32, 1, 0, -1e39, 1.0, tu_slice(&out)),
                ACCEL_ERROR_INVALID_ARGUMENT, "accel_random_normal");
    expect_untouched(&out, "out after bad normal parameters");
    /* stddev 0 is allowed and gives the mean. */
    tu_ok(accel_random_normal(q, ACCEL_F32, 1, 0, 3.0, 0.0, tu_slice(&out)));
    double v[8];
    tu_download(q, &out, v);
    for (int i = 0; i < 8; ++i)
        cr_assert(v[i] == 3.0, "stddev 0 element %d: %g", i, v[i]);
    tu_release(&out);
}

Test(bad_input, generic_entry_points_reject_op_codes_of_another_kind)
{
    tu_dbuf a = sentinel_f32(4), out = sentinel_f32(4);
    expect_fail(
        accel_binary(q, ACCEL_OP_NEG, ACCEL_F32, tu_slice(&a), tu_slice(&a), tu_slice(&out)),
        ACCEL_ERROR_INVALID_ARGUMENT, "accel_binary");
    expect_fail(accel_unary(q, ACCEL_OP_ADD, ACCEL_F32, tu_slice(&a), tu_slice(&out)),
                ACCEL_ERROR_INVALID_ARGUMENT, "accel_unary");
    expect_fail(
        accel_reduce(q, ACCEL_OP_DOT, ACCEL_F32, tu_slice(&a), accel_slice_of(out.buf, 0, 1)),
        ACCEL_ERROR_INVALID_ARGUMENT, "accel_reduce");
    expect_fail(accel_unary(q, (accel_op_code)999, ACCEL_F32, tu_slice(&a), tu_slice(&out)),
                ACCEL_ERROR_INVALID_ARGUMENT, "accel_unary");
    expect_untouched(&out, "out after bad op codes");
    tu_release(&a), tu_release(&out);
}

Test(bad_input, events_not_recorded_have_no_elapsed_time)
{
    accel_event *a, *b;
    tu_ok(accel_event_create(cpu, &a));
    tu_ok(accel_event_create(cpu, &b));
    double ms = -1;
    expect_fail(accel_event_elapsed_ms(a, b, &ms), ACCEL_ERROR_INVALID_ARGUMENT,
                "accel_event_elapsed_ms");
    accel_event_release(a);
    accel_event_release(b);
}

/* ---------------------------------------------------------------- status */

static void *fail_in_thread(void *arg)
{
    (void)arg;
    accel_status s = accel_fill(NULL, ACCEL_F32, 0.0, accel_slice_of(NULL, 0, 0));
    return (void *)(intptr_t)(s == ACCEL_ERROR_INVALID_HANDLE &&
                              strstr(accel_last_error(), "accel_fill"));
}

Test(bad_input, last_error_is_per_thread)
{
    accel_device *dev;
    expect_fail(accel_device_get_by_name(rt, "tpu", &dev), ACCEL_ERROR_NOT_FOUND,
                "accel_device_get_by_name");
    pthread_t t;
    void *res;
    cr_assert_eq(pthread_create(&t, NULL, fail_in_thread, NULL), 0);
    pthread_join(t, &res);
    cr_assert(res != NULL, "the other thread did not see its own error");
    cr_assert(strstr(accel_last_error(), "accel_device_get_by_name") != NULL,
              "another thread's failure replaced this thread's message: %s", accel_last_error());
}

Test(bad_input, status_names_and_strings)
{
    cr_assert_str_eq(accel_status_name(ACCEL_SUCCESS), "ACCEL_SUCCESS");
    cr_assert_str_eq(accel_status_name(ACCEL_ERROR_OUT_OF_DEVICE_MEMORY),
                     "ACCEL_ERROR_OUT_OF_DEVICE_MEMORY");
    cr_assert_str_eq(accel_status_string(ACCEL_ERROR_OUT_OF_DEVICE_MEMORY), "out of device memory");
    cr_assert_str_eq(accel_status_string((accel_status)12345), "unknown status");
    cr_assert(accel_status_name((accel_status)12345) != NULL);
    /* Every code has a distinct name. */
    for (int i = 0; i <= ACCEL_ERROR_INTERNAL; ++i)
        for (int j = 0; j < i; ++j)
            cr_assert(strcmp(accel_status_name((accel_status)i),
                             accel_status_name((accel_status)j)) != 0);
    cr_assert_str_eq(accel_version(), ACCEL_VERSION_STRING);
}
