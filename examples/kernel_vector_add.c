/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* kernel_vector_add — the tutorial's section 4 (Numba's @cuda.jit vector_add:
 * one thread per element, 256 threads per block, enough blocks to cover the
 * array) as a kernel you write: CUDA C source, compiled at run time for the
 * device (NVRTC on a GPU, the CPU twin on the CPU), launched with a grid and
 * a block. The same source then runs on the CPU device, and the two results
 * must be identical (an add is correctly rounded everywhere).
 *
 *   usage: kernel_vector_add [--device NAME] [--n N]    (default n: 10M on a GPU, 1M on the CPU)
 */
#include "common.h"

#include <accel/kernel.h>

static const char source[] =
    "__global__ void vector_add(const float *a, const float *b, float *c, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;  /* cuda.grid(1) */\n"
    "    if (i < n)\n"
    "        c[i] = a[i] + b[i];\n"
    "}\n";

/* c = a + b on dev with the tutorial's launch shape; a, b from Philox. */
static accel_status run(accel_runtime *rt, accel_device *dev, accel_kernel *k, size_t n, float *c,
                        double *ms)
{
    accel_queue *q = NULL;
    accel_buffer *a = NULL, *b = NULL, *out = NULL;
    accel_event *e0 = NULL, *e1 = NULL;
    accel_status st;
    (void)rt;
    if ((st = accel_queue_create(dev, &q)) || (st = accel_buffer_create(dev, n * 4, &a)) ||
        (st = accel_buffer_create(dev, n * 4, &b)) ||
        (st = accel_buffer_create(dev, n * 4, &out)) || (st = accel_event_create(dev, &e0)) ||
        (st = accel_event_create(dev, &e1)))
        goto done;
    if ((st = accel_random_uniform(q, ACCEL_F32, 1, 0, accel_slice_of(a, 0, n))) ||
        (st = accel_random_uniform(q, ACCEL_F32, 2, 0, accel_slice_of(b, 0, n))))
        goto done;
    const uint32_t threads = 256; /* threads per block, as the tutorial */
    const uint32_t grid[3] = {(uint32_t)((n + threads - 1) / threads), 1, 1};
    const uint32_t block[3] = {threads, 1, 1};
    accel_kernel_arg args[] = {
        accel_karg_array(accel_slice_of(a, 0, n)), accel_karg_array(accel_slice_of(b, 0, n)),
        accel_karg_array(accel_slice_of(out, 0, n)), accel_karg_i32((int32_t)n)};
    /* The first launch compiles (or loads from the cache); time the second. */
    if ((st = accel_kernel_launch_grid(q, k, grid, block, 4, args)) ||
        (st = accel_event_record(e0, q)) ||
        (st = accel_kernel_launch_grid(q, k, grid, block, 4, args)) ||
        (st = accel_event_record(e1, q)) || (st = accel_queue_read_blocking(q, out, 0, c, n * 4)))
        goto done;
    st = accel_event_elapsed_ms(e0, e1, ms);
done:
    accel_event_release(e0);
    accel_event_release(e1);
    accel_buffer_release(a);
    accel_buffer_release(b);
    accel_buffer_release(out);
    accel_queue_release(q);
    return st;
}

int main(int argc, char **argv)
{
    int rc = 1;
    accel_runtime *rt = NULL;
    accel_device *dev = NULL, *cpu = NULL;
    accel_kernel *k = NULL;
    float *c = NULL, *ref = NULL;
    ex_opt opts[] = {
        {"n", "N", "elements (default 10000000 on a GPU, 1000000 on the CPU)", NULL, "100003"},
        {NULL, NULL, NULL, NULL, NULL}};
    ex_parse(argc, argv, "[--device NAME] [--quick] [--n N]", opts, 0);
    CHECK(ex_open(&rt, &dev));
    size_t n = ex_opt_size(opts, "n", ex_is_gpu(dev) ? 10000000 : 1000000);
    if (n > 0x7fffffff) {
        fprintf(stderr, "--n must fit the kernel's int n\n");
        goto done;
    }
    CHECK(accel_device_get_by_name(rt, "cpu", &cpu));
    CHECK(accel_kernel_raw_create(rt, source, "vector_add", NULL, &k));
    c = malloc(n * 4 + 4);
    ref = malloc(n * 4 + 4);
    if (!c || !ref)
        goto done;
    double ms = 0, cpu_ms = 0;
    CHECK(run(rt, dev, k, n, c, &ms));
    printf("vector_add on %s: %zu floats, %u blocks of 256 threads, %.3f ms (%.1f GB/s)\n",
           accel_device_name(dev), n, (unsigned)((n + 255) / 256), ms, ex_gbps(12.0 * n, ms));
    CHECK(run(rt, cpu, k, n, ref, &cpu_ms));
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += memcmp(&c[i], &ref[i], 4) != 0;
    printf("the same source on %s (its CPU twin): %.3f ms; %zu of %zu elements differ%s\n",
           accel_device_name(cpu), cpu_ms, bad, n, bad ? "  (WRONG)" : " (bit-identical)");
    rc = bad != 0;
done:
    free(c);
    free(ref);
    accel_kernel_release(k);
    accel_runtime_close(rt);
    return rc;
}
