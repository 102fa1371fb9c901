/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* fuzz_codegen.c — libFuzzer harness for the array layer's kernel generator
 * (core/arrays/codegen.c and reduce.c, from the expression table
 * core/arrays/table.c): the input picks an array call (unary, binary, clip,
 * where, astype, copy, reduce), its function, every view's dtype, a shape
 * of up to 3 axes, per view a layout (contiguous, reversed, broadcast,
 * every other element) and the reduction's axes; the call runs on the CPU
 * backend (the generated source compiled by the configured C compiler, run
 * on buffers of a byte pattern). What the checks accept must compile and
 * run: a call or its queue's drain that returns ACCEL_ERROR_COMPILE,
 * ACCEL_ERROR_INTERNAL or ACCEL_ERROR_KERNEL_FAULT (an integer division by
 * zero the generator did not guard), or a refusal without a message, is a
 * bug. Kernels are compiled by the embedded tcc (fast; ACCEL_CPU_KERNEL_COMPILER=cc
 * in the environment fuzzes with cc) and kept in memory (no disk cache),
 * so each (function, dtypes, layout) is compiled once per process.
 *
 * Input: byte 0: the call (% 7); 1: the function (% ACCEL_ARRAY_FN_LIMIT_;
 * the reduction: % ACCEL_ARRAY_REDUCE_LIMIT_); 2-5: the dtypes of the inputs
 * and of out (% 16); 6: ndim (% 4); 7-9: the sizes (% 5); 10-13: the layouts
 * (% 4); 14: the reduced axes (bits 0-2) and keepdims (bit 3); 15...: the
 * buffers' first bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "accel/accel.h"
#include "accel/array.h"
#include "fuzz_runtime.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NARR 4
#define BUF_BYTES 4096 /* 4^3 elements of 16 bytes, every other one */

static accel_runtime *rt;
static accel_device *dev;
static accel_queue *q;
static accel_buffer *buf[NARR];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    rt = fuzz_runtime_open("fuzz_codegen", "kernel_compiler = tcc\n", &dev);
    accel_status st = accel_queue_create(dev, &q);
    for (int i = 0; i < NARR && st == ACCEL_SUCCESS; i++)
        st = accel_buffer_create(dev, BUF_BYTES, &buf[i]);
    if (st != ACCEL_SUCCESS) {
        fprintf(stderr, "fuzz_codegen: %s\n", accel_last_error());
        abort();
    }
    return 0;
}

/* View i of buffer i: dtype dt, the input's shape, in layout l: 0
 * contiguous, 1 every axis reversed, 2 the first axis broadcast (stride 0),
 * 3 every other element. A view the layout cannot make stays contiguous. */
static void make_view(accel_array *a, int i, accel_dtype dt, uint32_t nd, const int64_t *shape,
                      unsigned l)
{
    memset(a, 0, sizeof *a);
    a->struct_size = sizeof *a;
    if (accel_array_init(a, buf[i], dt, nd, shape) != ACCEL_SUCCESS) {
        a->dtype = dt; /* unknown dtype: the call must refuse it */
        a->buffer = buf[i];
        return;
    }
    if (l == 1) {
        accel_array f;
        if (accel_array_flip(a, ~0ull >> (64 - (nd ? nd : 1)), &f) == ACCEL_SUCCESS)
            *a = f;
    } else if (l == 2 && nd > 0) {
        a->strides[0] = 0;
    } else if (l == 3) {
        for (uint32_t d = 0; d < nd; d++)
            a->strides[d] *= 2;
    }
}

static accel_status call(const uint8_t *b, const accel_array *v)
{
    switch (b[0] % 7) {
    case 0:
        return accel_array_unary(q, (accel_array_fn)(b[1] % ACCEL_ARRAY_FN_LIMIT_), &v[0], &v[3]);
    case 1:
        return accel_array_binary(q, (accel_array_fn)(b[1] % ACCEL_ARRAY_FN_LIMIT_), &v[0], &v[1],
                                  &v[3]);
    case 2:
        return accel_array_clip(q, &v[0], &v[1], &v[2], &v[3]);
    case 3:
        return accel_array_where(q, &v[0], &v[1], &v[2], &v[3]);
    case 4:
        return accel_array_astype(q, &v[0], &v[3]);
    case 5:
        return accel_array_copy(q, &v[0], &v[3]);
    default:
        return accel_array_reduce(q, (accel_array_reduce_fn)(b[1] % ACCEL_ARRAY_REDUCE_LIMIT_),
                                  &v[0], b[14] & 7u, (b[14] >> 3) & 1, &v[3]);
    }
}

static bool is_bug(accel_status st)
{
    return st == ACCEL_ERROR_COMPILE || st == ACCEL_ERROR_INTERNAL ||
           st == ACCEL_ERROR_KERNEL_FAULT || (st != ACCEL_SUCCESS && !accel_last_error()[0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 15)
        return 0;
    static uint8_t fill[BUF_BYTES];
    for (size_t i = 0; i < BUF_BYTES; i++) /* the input's bytes, then a pattern */
        fill[i] = 15 + i < size ? data[15 + i] : (uint8_t)(i * 37u + 11u);
    for (int i = 0; i < NARR; i++)
        if (accel_queue_write_blocking(q, buf[i], 0, fill, BUF_BYTES) != ACCEL_SUCCESS)
            __builtin_trap();
    uint32_t nd = data[6] % 4u;
    int64_t shape[3] = {data[7] % 5, data[8] % 5, data[9] % 5};
    accel_array v[NARR];
    int64_t out_shape[3];
    memcpy(out_shape, shape, sizeof shape);
    uint32_t out_nd = nd;
    if (data[0] % 7 == 6 && !((data[14] >> 3) & 1)) { /* a reduction drops its axes */
        out_nd = 0;
        for (uint32_t d = 0; d < nd; d++)
            if (!((data[14] >> d) & 1))
                out_shape[out_nd++] = shape[d];
    } else if (data[0] % 7 == 6) {
        for (uint32_t d = 0; d < nd; d++)
            if ((data[14] >> d) & 1)
                out_shape[d] = 1;
    }
    for (int i = 0; i < NARR; i++) {
        bool out = i == NARR - 1;
        make_view(&v[i], i, (accel_dtype)(data[2 + i] % 16), out ? out_nd : nd,
                  out ? out_shape : shape, data[10 + i] % 4u);
    }
    accel_status st = call(data, v);
    if (is_bug(st)) {
        fprintf(stderr, "fuzz_codegen: call: %s: %s\n", accel_status_name(st), accel_last_error());
        __builtin_trap();
    }
    st = accel_queue_finish(q);
    if (st != ACCEL_SUCCESS) {
        fprintf(stderr, "fuzz_codegen: finish: %s: %s\n", accel_status_name(st),
                accel_last_error());
        __builtin_trap();
    }
    return 0;
}
