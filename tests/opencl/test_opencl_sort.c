/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_opencl_sort.c — accel_sort_segments and accel_argsort_segments on
 * opencl:0 (backends/opencl/sort.c, sort.cl) against the same calls on
 * cpu:0 (its LSD radix sort), bit for bit: every real dtype, both
 * directions, in place and not, lines of 1 to 5000 elements (powers of two
 * and not) along the middle axis of outer x n x inner blocks, with many
 * equal keys (stability), -0 and +0, infinities and NaNs of distinct
 * payloads. No fallback is configured, so a sort that did not run on
 * OpenCL fails. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "accel/accel.h"
#include "test_util.h"

static accel_runtime *rt;
static accel_queue *qo, *qc;

static void open_both(void)
{
    const char *ini = tu_fmt("[runtime]\norder = cpu, opencl\n[backend.cpu]\nlibrary = %s\n"
                             "[backend.opencl]\nlibrary = %s/libaccel_opencl.so\n",
                             TU_CPU_PLUGIN, ACCEL_TEST_PLUGIN_CONFIG_DIR);
    cr_assert_eq(tu_open_ini(ini, &rt, NULL), ACCEL_SUCCESS, "open: %s", accel_last_error());
    accel_device *o, *c;
    cr_assert_eq(accel_device_get_by_name(rt, "opencl:0", &o), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    cr_assert_eq(accel_device_get_by_name(rt, "cpu:0", &c), ACCEL_SUCCESS);
    cr_assert_eq(accel_queue_create(o, &qo), ACCEL_SUCCESS);
    cr_assert_eq(accel_queue_create(c, &qc), ACCEL_SUCCESS);
}

static void close_both(void)
{
    accel_queue_release(qo);
    accel_queue_release(qc);
    accel_runtime_close(rt);
}

TestSuite(opencl_sort, .init = open_both, .fini = close_both, .timeout = 900);

typedef struct dt_case {
    accel_dtype dt;
    size_t size;
    const char *name;
} dt_case;

static const dt_case dts[] = {
    {ACCEL_F32, 4, "f32"}, {ACCEL_F64, 8, "f64"}, {ACCEL_F16, 2, "f16"}, {ACCEL_BF16, 2, "bf16"},
    {ACCEL_I32, 4, "i32"}, {ACCEL_I64, 8, "i64"}, {ACCEL_U8, 1, "u8"},   {ACCEL_BOOL, 1, "bool"},
    {ACCEL_I8, 1, "i8"},   {ACCEL_I16, 2, "i16"}, {ACCEL_U16, 2, "u16"}, {ACCEL_U32, 4, "u32"},
    {ACCEL_U64, 8, "u64"}};

/* Special bit patterns per float width: +-0, +-inf, NaNs (quiet and
 * signalling, both signs, distinct payloads). */
static uint64_t special(size_t size, int kind_bf16, unsigned r)
{
    static const uint64_t f32[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000,
                                   0x7fc00001, 0xffc00002, 0x7f800003, 0x7fc00004};
    static const uint64_t f64[] = {0,
                                   0x8000000000000000ull,
                                   0x7ff0000000000000ull,
                                   0xfff0000000000000ull,
                                   0x7ff8000000000001ull,
                                   0xfff8000000000002ull,
                                   0x7ff0000000000003ull,
                                   0x7ff8000000000004ull};
    static const uint64_t f16[] = {0, 0x8000, 0x7c00, 0xfc00, 0x7e01, 0xfe02, 0x7c03, 0x7e04};
    static const uint64_t bf16[] = {0, 0x8000, 0x7f80, 0xff80, 0x7fc1, 0xffc2, 0x7f83, 0x7fc4};
    r %= 8;
    return size == 8 ? f64[r] : size == 4 ? f32[r] : kind_bf16 ? bf16[r] : f16[r];
}

/* n bytes-wide random elements with many repeats: a few values (ties),
 * for floats mixed with the special patterns. */
static void fill(const dt_case *c, unsigned char *p, size_t count, uint64_t salt)
{
    tu_rng r = tu_rng_make(salt);
    const int is_float =
        c->dt == ACCEL_F32 || c->dt == ACCEL_F64 || c->dt == ACCEL_F16 || c->dt == ACCEL_BF16;
    for (size_t i = 0; i < count; ++i) {
        uint64_t v = tu_rng_next(&r);
        if (c->dt == ACCEL_BOOL)
            v &= 1;
        else if (is_float && (v & 7) == 0)
            v = special(c->size, c->dt == ACCEL_BF16, (unsigned)(v >> 8));
        else if ((v & 3) != 0) /* a small set of values, positive and negative */
            v = (v >> 8) % 5 ? ((v >> 16) % 9) << (c->size * 8 - 6)
                             : ~(((v >> 16) % 9) << (c->size * 8 - 6));
        memcpy(p + i * c->size, &v, c->size); /* little-endian: the low bytes */
    }
}

static accel_slice upload(accel_queue *q, const void *p, size_t bytes, size_t es)
{
    accel_buffer *b;
    tu_ok(accel_buffer_create(accel_queue_device(q), bytes ? bytes : 1, &b));
    tu_ok(accel_queue_write(q, b, 0, p, bytes));
    tu_ok(accel_queue_finish(q));
    return accel_slice_of(b, 0, bytes / es);
}

static void *download(accel_queue *q, accel_slice s, size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    tu_ok(accel_queue_read(q, s.buffer, 0, p, bytes));
    tu_ok(accel_queue_finish(q));
    return p;
}

/* One sort (argsort = 0; in place or not) or argsort on both devices. */
static void compare(const dt_case *c, size_t m, size_t n, size_t k, int desc, int mode)
{
    const size_t count = m * n * k, bytes = count * c->size;
    unsigned char *x = malloc(bytes ? bytes : 1);
    fill(c, x, count, (uint64_t)(m * 131 + n * 7 + k) ^ c->dt);
    void *res[2];
    accel_queue *qs[2] = {qo, qc};
    for (int d = 0; d < 2; ++d) {
        accel_slice sx = upload(qs[d], x, bytes, c->size), out = sx;
        size_t ob = mode == 2 ? count * 8 : bytes;
        if (mode != 1) {
            void *zero = calloc(1, ob ? ob : 1);
            out = upload(qs[d], zero, ob, mode == 2 ? 8 : c->size);
            free(zero);
        }
        accel_status st = mode == 2 ? accel_argsort_segments(qs[d], c->dt, m, n, k, desc, sx, out)
                                    : accel_sort_segments(qs[d], c->dt, m, n, k, desc, sx, out);
        cr_assert_eq(st, ACCEL_SUCCESS, "%s %zux%zux%zu: %s", c->name, m, n, k, accel_last_error());
        res[d] = download(qs[d], out, ob);
        if (out.buffer != sx.buffer)
            accel_buffer_release(out.buffer);
        accel_buffer_release(sx.buffer);
    }
    size_t ob = mode == 2 ? count * 8 : bytes;
    cr_expect(memcmp(res[0], res[1], ob) == 0,
              "%s %s %zu x %zu x %zu %s%s: opencl differs from cpu", mode == 2 ? "argsort" : "sort",
              c->name, m, n, k, desc ? "descending" : "ascending", mode == 1 ? " in place" : "");
    free(res[0]);
    free(res[1]);
    free(x);
}

static const size_t shapes[][3] = {{1, 1, 1},  {1, 2, 1},   {1, 7, 1}, {3, 100, 1},
                                   {2, 33, 3}, {1, 256, 1}, {4, 5, 7}, {1, 5000, 1}};

Test(opencl_sort, every_dtype_shape_direction_against_cpu)
{
    for (size_t d = 0; d < sizeof dts / sizeof dts[0]; ++d)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
            for (int desc = 0; desc < 2; ++desc)
                for (int mode = 0; mode < 3; ++mode)
                    compare(&dts[d], shapes[s][0], shapes[s][1], shapes[s][2], desc, mode);
}

/* The order itself, not only agreement: f32 ascending puts -inf first and
 * the NaNs last in their original order, -0 and +0 in theirs. */
Test(opencl_sort, f32_order_by_hand)
{
    const float nan1 = __builtin_nanf("1"), nan2 = __builtin_nanf("2");
    float x[] = {nan1, 1.0f, -0.0f, -__builtin_inff(), 0.0f, nan2, -1.0f, 0.0f, -0.0f};
    const float want[] = {-__builtin_inff(), -1.0f, -0.0f, 0.0f, 0.0f, -0.0f, 1.0f, nan1, nan2};
    accel_slice sx = upload(qo, x, sizeof x, 4);
    tu_ok(accel_sort_segments(qo, ACCEL_F32, 1, 9, 1, 0, sx, sx));
    float *got = download(qo, sx, sizeof x);
    cr_expect(memcmp(got, want, sizeof want) == 0, "the sorted f32 line differs from the order");
    free(got);
    accel_buffer_release(sx.buffer);
}
