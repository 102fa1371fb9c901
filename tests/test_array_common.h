/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_array_common.h — what the array suites share: values of every dtype
 * on the host (read, written, converted, wrapped, rounded by code of the
 * test's own, never the library's), seeded inputs with each dtype's edge
 * values, and device buffers. Static functions: each suite includes it once. */
#ifndef ACCEL_TEST_ARRAY_COMMON_H
#define ACCEL_TEST_ARRAY_COMMON_H

#include <criterion/criterion.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "accel/array.h"
#include "accel/verify.h"
#include "test_util.h"

/* binary16 by the compiler (GCC >= 12, Clang >= 15 on x86-64): the
 * reference conversion, independent of the library's. */
__extension__ typedef _Float16 half_t;

static const accel_dtype all_dtypes[] = {ACCEL_BOOL, ACCEL_I8,  ACCEL_I16, ACCEL_I32, ACCEL_I64,
                                         ACCEL_U8,   ACCEL_U16, ACCEL_U32, ACCEL_U64, ACCEL_F16,
                                         ACCEL_BF16, ACCEL_F32, ACCEL_F64};
#define NDT (sizeof all_dtypes / sizeof all_dtypes[0])

/* ------------------------------------------------------------ values */

typedef union val {
    int64_t i;
    uint64_t u;
    double f;
} val;

static inline accel_dtype_kind kind(accel_dtype dt)
{
    return accel_dtype_kind_of(dt);
}
static inline bool is_float(accel_dtype dt)
{
    return kind(dt) == ACCEL_DTYPE_KIND_FLOAT;
}
static inline int bits(accel_dtype dt)
{
    return 8 * (int)accel_dtype_size(dt);
}

static inline float bf16_to_f(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint16_t f_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if (isnan(f))
        return (uint16_t)((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

/* An integer value wrapped to dt's width (two's complement). */
static inline val wrap(accel_dtype dt, val v)
{
    int b = bits(dt);
    if (dt == ACCEL_BOOL) {
        v.i = v.i != 0;
        return v;
    }
    if (b < 64) {
        uint64_t m = (1ull << b) - 1, u = v.u & m;
        if (kind(dt) == ACCEL_DTYPE_KIND_INT && (u >> (b - 1)))
            u |= ~m;
        v.u = u;
    }
    return v;
}

/* A float rounded to dt (f16 by the compiler's half_t, bf16 by hand). */
static inline double round_to(accel_dtype dt, double x)
{
    switch (dt) {
    case ACCEL_F16:
        return (double)(half_t)(float)x;
    case ACCEL_BF16:
        return (double)bf16_to_f(f_to_bf16((float)x));
    case ACCEL_F32:
        return (double)(float)x;
    default:
        return x;
    }
}

static inline void put(void *p, accel_dtype dt, size_t i, val v)
{
    char *b = (char *)p + i * accel_dtype_size(dt);
    if (dt == ACCEL_F32) {
        float f = (float)v.f;
        memcpy(b, &f, 4);
    } else if (dt == ACCEL_F64) {
        memcpy(b, &v.f, 8);
    } else if (dt == ACCEL_F16) {
        half_t h = (half_t)(float)v.f;
        memcpy(b, &h, 2);
    } else if (dt == ACCEL_BF16) {
        uint16_t h = f_to_bf16((float)v.f);
        memcpy(b, &h, 2);
    } else {
        v = wrap(dt, v);
        memcpy(b, &v.u, accel_dtype_size(dt)); /* little-endian */
    }
}

static inline val get(const void *p, accel_dtype dt, size_t i)
{
    const char *b = (const char *)p + i * accel_dtype_size(dt);
    val v = {0};
    if (dt == ACCEL_F32) {
        float f;
        memcpy(&f, b, 4);
        v.f = f;
    } else if (dt == ACCEL_F64) {
        memcpy(&v.f, b, 8);
    } else if (dt == ACCEL_F16) {
        half_t h;
        memcpy(&h, b, 2);
        v.f = (double)h;
    } else if (dt == ACCEL_BF16) {
        uint16_t h;
        memcpy(&h, b, 2);
        v.f = bf16_to_f(h);
    } else {
        memcpy(&v.u, b, accel_dtype_size(dt));
        v = wrap(dt, v);
    }
    return v;
}

/* A value of `from` as a value of `to` (the promotion's conversion). */
static inline val convert(accel_dtype from, accel_dtype to, val v)
{
    if (is_float(to)) {
        double f = is_float(from)                        ? v.f
                   : kind(from) == ACCEL_DTYPE_KIND_UINT ? (double)v.u
                                                         : (double)v.i;
        v.f = round_to(to, f);
        return v;
    }
    if (to == ACCEL_BOOL) {
        v.i = is_float(from) ? v.f != 0 : v.u != 0;
        return v;
    }
    if (is_float(from)) { /* truncation saturated at the range, NaN 0 (astype) */
        double f = v.f, hi = ldexp(1.0, kind(to) == ACCEL_DTYPE_KIND_INT ? bits(to) - 1 : bits(to));
        val r = {0};
        if (kind(to) == ACCEL_DTYPE_KIND_INT) {
            int64_t mn = bits(to) == 64 ? INT64_MIN : -(int64_t)(1ull << (bits(to) - 1));
            r.i = isnan(f) ? 0 : f < -hi ? mn : f >= hi ? -(mn + 1) : (int64_t)f;
        } else {
            r.u = isnan(f) || f <= -1.0 ? 0
                  : f >= hi             ? (bits(to) == 64 ? ~0ull : (1ull << bits(to)) - 1)
                                        : (uint64_t)f;
        }
        return r;
    }
    return wrap(to, v);
}

/* ------------------------------------------------------------ inputs */

/* n values of dt: the edge values of the dtype first, then random ones.
 * small: integers in [-3, bits + 3] (shift counts, exponents). */
static inline void fill(tu_rng *r, accel_dtype dt, bool small, void *p, size_t n)
{
    static const double fspecial[] = {0.0,  -0.0, INFINITY, -INFINITY, NAN, 1.0,
                                      -1.0, 0.5,  2.5,      -2.5,      3.0, -7.0};
    static const int64_t ispecial[] = {0, 1, -1, 2, -2, 7, -7, 3};
    for (size_t i = 0; i < n; i++) {
        val v = {0};
        if (dt == ACCEL_BOOL) {
            v.i = (int64_t)(tu_rng_next(r) & 1u);
        } else if (is_float(dt)) {
            uint64_t pick = tu_rng_next(r) % 4;
            v.f = i < sizeof fspecial / sizeof fspecial[0] ? fspecial[i]
                  : pick == 0                              ? tu_rng_wide(r, -8, 8)
                  : pick == 1 ? (double)(int64_t)(tu_rng_next(r) % 21) - 10.0
                              : tu_rng_range(r, -10.0, 10.0);
        } else if (small) {
            v.i = (int64_t)(tu_rng_next(r) % (uint64_t)(bits(dt) + 7)) - 3;
            if (kind(dt) == ACCEL_DTYPE_KIND_UINT && v.i < 0)
                v.i = -v.i;
        } else if (i < sizeof ispecial / sizeof ispecial[0]) {
            v.i = ispecial[i];
        } else if (i == 8 || i == 9) { /* the dtype's max and min (put wraps) */
            int b = bits(dt);
            bool sg = kind(dt) == ACCEL_DTYPE_KIND_INT;
            if (i == 8)
                v.u = sg ? (1ull << (b - 1)) - 1 : (b == 64 ? ~0ull : (1ull << b) - 1);
            else
                v.u = sg ? 1ull << (b - 1) : 0;
        } else {
            uint64_t pick = tu_rng_next(r) % 2;
            v.u = pick ? tu_rng_next(r) : (uint64_t)((int64_t)(tu_rng_next(r) % 41) - 20);
        }
        put(p, dt, i, v);
    }
}

/* One ulp of dt at |x| (subnormal spacing below the normals). */
static inline double ulp_of(accel_dtype dt, double x)
{
    int mant = dt == ACCEL_F16 ? 11 : dt == ACCEL_BF16 ? 8 : dt == ACCEL_F32 ? 24 : 53;
    int emin = dt == ACCEL_F16 ? -14 : dt == ACCEL_F64 ? -1022 : -126;
    int e = x != 0 && isfinite(x) ? ilogb(x) : emin;
    return ldexp(1.0, (e < emin ? emin : e) - mant + 1);
}

static inline bool close_enough(accel_dtype dt, double got, double want, unsigned tol)
{
    if (isnan(got) || isnan(want))
        return isnan(got) && isnan(want);
    if (got == want)
        return tol || signbit(got) == signbit(want) || got != 0;
    if (!tol || isinf(got) || isinf(want))
        return false;
    return fabs(got - want) <= tol * ulp_of(dt, want);
}

/* ------------------------------------------------------------ device */

typedef struct env {
    accel_device *dev;
    accel_queue *q;
} env;

static inline accel_buffer *upload(env *e, const void *data, size_t bytes)
{
    accel_buffer *b;
    tu_ok(accel_buffer_create(e->dev, bytes ? bytes : 1, &b));
    if (bytes && data)
        tu_ok(accel_queue_write_blocking(e->q, b, 0, data, bytes));
    return b;
}

/* A runtime over cuda (when its plugin loads), opencl (only where
 * ACCEL_TEST_ARRAY_OPENCL=1: tests/opencl's opencl_array_* tests set it)
 * and cpu (tcc), the kernel cache in the test's own folder; *dev and *q
 * (both or neither NULL) get cpu:0 and a queue on it. Needs
 * _POSIX_C_SOURCE (setenv). */
static inline accel_runtime *array_runtime(accel_device **dev, accel_queue **q)
{
    setenv("ACCEL_KERNEL_CACHE", tu_fmt("%s/cache", tu_tmpdir()), 1);
    const char *ocl = getenv("ACCEL_TEST_ARRAY_OPENCL");
    bool with_ocl = ocl && !strcmp(ocl, "1");
    /* A [backend.*] section is a candidate whether or not order names it. */
    const char *ocl_section = with_ocl
                                  ? tu_fmt("[backend.opencl]\nlibrary = %s/libaccel_opencl.so\n",
                                           ACCEL_TEST_PLUGIN_CONFIG_DIR)
                                  : "";
    const char *ini = tu_fmt("[runtime]\norder = cuda, %scpu\nstrict = false\n"
                             "[backend.cuda]\nlibrary = %s/libaccel_cuda.so\n%s"
                             "[backend.cpu]\nlibrary = %s\nkernel_compiler = tcc\n",
                             with_ocl ? "opencl, " : "", ACCEL_TEST_PLUGIN_CONFIG_DIR, ocl_section,
                             TU_CPU_PLUGIN);
    accel_runtime *rt = NULL;
    tu_ok(tu_open_ini(ini, &rt, NULL));
    accel_device *o;
    if (with_ocl)
        cr_assert_eq(accel_device_get_by_name(rt, "opencl:0", &o), ACCEL_SUCCESS,
                     "ACCEL_TEST_ARRAY_OPENCL=1 but no opencl:0 loaded");
    if (dev) {
        tu_ok(accel_device_get_by_name(rt, "cpu:0", dev));
        tu_ok(accel_queue_create(*dev, q));
    }
    return rt;
}

/* A host function for accel_queue_host_fn that holds its queue until the
 * atomic_int at user is nonzero (set by the test once the call under test
 * has returned): at most 10 s, then it fails with a message. */
static inline accel_status hold_until_set(void *user, char *message, size_t size)
{
    atomic_int *flag = user;
    const struct timespec tick = {0, 10 * 1000 * 1000};
    for (int i = 0; i < 1000 && !atomic_load(flag); i++)
        nanosleep(&tick, NULL);
    if (!atomic_load(flag))
        snprintf(message, size, "the call under test did not return within 10 s");
    return atomic_load(flag) ? ACCEL_SUCCESS : ACCEL_ERROR_INTERNAL;
}

/* array_runtime in verify mode with the CPU as its own reference (every op
 * run again there and compared; a mismatch fails the op); *dev cpu:0 and
 * *q a queue on it. */
static inline accel_runtime *array_verify_runtime(accel_device **dev, accel_queue **q)
{
    accel_runtime *rt = array_runtime(NULL, NULL);
    tu_verify_against_cpu(rt);
    tu_ok(accel_device_get_by_name(rt, "cpu:0", dev));
    tu_ok(accel_queue_create(*dev, q));
    return rt;
}

/* Verify mode's counts: at least `least` ops checked, none mismatched. */
static inline void assert_all_verified(accel_runtime *rt, unsigned long long least)
{
    accel_verify_stats st;
    st.struct_size = sizeof st;
    tu_ok(accel_verify_stats_get(rt, &st));
    cr_assert(st.checked >= least && st.mismatches == 0, "checked %llu, mismatches %llu",
              (unsigned long long)st.checked, (unsigned long long)st.mismatches);
}

/* x of shape (3, 4, 5) over a buffer of 60 elements of dt: contiguous, or
 * the transpose of a (5, 4, 3) array with its middle axis reversed (the
 * element at (i, j, k) is buffer element 9 + i - 3 j + 12 k). */
static inline accel_array view_345(accel_buffer *b, accel_dtype dt, bool strided)
{
    const int64_t shape[] = {3, 4, 5};
    accel_array x;
    tu_ok(accel_array_init(&x, b, dt, 3, shape));
    if (strided) {
        x.strides[0] = 1, x.strides[1] = -3, x.strides[2] = 12;
        x.offset = 9 * accel_dtype_size(dt);
    }
    return x;
}

/* The buffer element (of a's dtype) of a's element idx. */
static inline int64_t elem_index(const accel_array *a, const int64_t *idx)
{
    int64_t el = (int64_t)(a->offset / accel_dtype_size(a->dtype));
    for (uint32_t d = 0; d < a->ndim; d++)
        el += idx[d] * a->strides[d];
    return el;
}

/* a's element idx in host, a copy of a's buffer. */
static inline val elem_at(const accel_array *a, const void *host, const int64_t *idx)
{
    return get(host, a->dtype, (size_t)elem_index(a, idx));
}

/* The same value: equal bits for integers; floats equal with one sign, or both NaN. */
static inline bool same_value(accel_dtype dt, val a, val b)
{
    if (is_float(dt))
        return (isnan(a.f) && isnan(b.f)) || (a.f == b.f && signbit(a.f) == signbit(b.f));
    return a.u == b.u;
}

/* -1, 0, 1: a against b in accel_array_sort's ascending order (NaNs last
 * and equal to each other, -0 == +0), written here from the documented
 * order, not taken from the library. */
static inline int sort_order(accel_dtype dt, val a, val b)
{
    if (is_float(dt)) {
        bool na = isnan(a.f), nb = isnan(b.f);
        if (na || nb)
            return na == nb ? 0 : na ? 1 : -1;
        return a.f < b.f ? -1 : a.f > b.f ? 1 : 0;
    }
    if (kind(dt) == ACCEL_DTYPE_KIND_INT)
        return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
    return a.u < b.u ? -1 : a.u > b.u ? 1 : 0;
}

#endif
