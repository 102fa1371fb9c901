/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* demo_kernel.c — the user-kernel step of `accel demo`: the tutorial's
 * section 4 kernel (Numba's vector_add, one thread per element, 256 threads
 * per block) as CUDA C source, compiled at run time for the device under test
 * and for the CPU (its twin), run on the same random inputs on both; the
 * results must be bit-identical (an add is correctly rounded everywhere). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/kernel.h"
#include "demo_kernel.h"
#include "demo_types.h"

static const char vector_add_src[] =
    "__global__ void vector_add(const float *a, const float *b, float *c, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n)\n"
    "        c[i] = a[i] + b[i];\n"
    "}\n";

/* c = a + b with the kernel on q's device; a, b from Philox (same on both). */
static accel_status run_on(accel_device *dev, accel_queue *q, accel_kernel *k, size_t n,
                           accel_event *t0, accel_event *t1, double *ms, float *out)
{
    accel_buffer *b = NULL;
    accel_status st = accel_buffer_create(dev, 3 * n * sizeof(float), &b);
    if (st == ACCEL_SUCCESS)
        st = accel_random_uniform(q, ACCEL_F32, 99, 0, accel_slice_of(b, 0, 2 * n));
    const uint32_t grid[3] = {(uint32_t)((n + 255) / 256), 1, 1}, block[3] = {256, 1, 1};
    accel_kernel_arg args[] = {
        accel_karg_array(accel_slice_of(b, 0, n)), accel_karg_array(accel_slice_of(b, n, n)),
        accel_karg_array(accel_slice_of(b, 2 * n, n)), accel_karg_i32((int32_t)n)};
    /* The first launch builds (or loads from the cache); the second is timed. */
    if (st == ACCEL_SUCCESS)
        st = accel_kernel_launch_grid(q, k, grid, block, 4, args);
    if (st == ACCEL_SUCCESS && t0)
        st = accel_event_record(t0, q);
    if (st == ACCEL_SUCCESS)
        st = accel_kernel_launch_grid(q, k, grid, block, 4, args);
    if (st == ACCEL_SUCCESS && t1)
        st = accel_event_record(t1, q);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_read_blocking(q, b, 2 * n * sizeof(float), out, n * sizeof(float));
    if (st == ACCEL_SUCCESS && t0 && t1)
        st = accel_event_elapsed_ms(t0, t1, ms);
    accel_buffer_release(b);
    return st;
}

accel_status demo_step_user_kernel(demo_ctx *c, demo_result *r)
{
    const size_t sizes[] = {1000000, 10000000, 10000000};
    size_t n = sizes[c->size];
    snprintf(r->label, sizeof r->label, "user kernel (%zuM)", n / 1000000);
    accel_kernel *k = NULL;
    float *dev = malloc(n * sizeof(float) + 1), *cpu = malloc(n * sizeof(float) + 1);
    accel_status st = dev && cpu ? ACCEL_SUCCESS : ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    if (st == ACCEL_SUCCESS)
        st = accel_kernel_raw_create(c->rt, vector_add_src, "vector_add", NULL, &k);
    if (st == ACCEL_SUCCESS)
        st = run_on(c->dev, c->q, k, n, c->t0, c->t1, &r->ms, dev);
    if (st == ACCEL_SUCCESS)
        st = run_on(c->cpu, c->qc, k, n, NULL, NULL, NULL, cpu);
    if (st == ACCEL_SUCCESS) {
        size_t bad = 0;
        for (size_t i = 0; i < n; i++)
            bad += memcmp(&dev[i], &cpu[i], sizeof(float)) != 0;
        r->pass = bad == 0;
        r->rate = r->ms > 0 ? 12.0 * (double)n / (r->ms * 1e6) : 0;
        r->unit = "GB/s";
        snprintf(r->note, sizeof r->note,
                 "vector_add, 256 threads/block; vs its CPU twin: %zu differ (bit-identical)", bad);
    }
    accel_kernel_release(k);
    free(dev);
    free(cpu);
    return st;
}
