/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* kernel_multiply_them — the tutorial's section 5 (PyCUDA's SourceModule):
 * the multiply_them kernel exactly as PyCUDA's documentation writes it,
 * compiled at run time, on 400 random floats, one block of 400 threads.
 * Checked against a host loop (a product is correctly rounded, so exactly)
 * and against the same source on the CPU device.
 *
 *   usage: kernel_multiply_them [--device NAME]
 */
#include "common.h"

#include <accel/kernel.h>

static const char source[] = "__global__ void multiply_them(float *dest, float *a, float *b)\n"
                             "{\n"
                             "  const int i = threadIdx.x;\n"
                             "  dest[i] = a[i] * b[i];\n"
                             "}\n";

enum { N = 400 };

static accel_status run(accel_device *dev, accel_kernel *k, const float *a, const float *b,
                        float *dest)
{
    accel_queue *q = NULL;
    accel_buffer *ba = NULL, *bb = NULL, *bd = NULL;
    accel_status st;
    if ((st = accel_queue_create(dev, &q)) || (st = accel_buffer_create(dev, N * 4, &ba)) ||
        (st = accel_buffer_create(dev, N * 4, &bb)) ||
        (st = accel_buffer_create(dev, N * 4, &bd)) ||
        (st = accel_queue_write(q, ba, 0, a, N * 4)) ||
        (st = accel_queue_write(q, bb, 0, b, N * 4)))
        goto done;
    /* multiply_them(drv.Out(dest), drv.In(a), drv.In(b), block=(400,1,1), grid=(1,1)) */
    const uint32_t block[3] = {N, 1, 1}, grid[3] = {1, 1, 1};
    accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(bd, 0, N)),
                               accel_karg_array(accel_slice_of(ba, 0, N)),
                               accel_karg_array(accel_slice_of(bb, 0, N))};
    if ((st = accel_kernel_launch_grid(q, k, grid, block, 3, args)))
        goto done;
    st = accel_queue_read_blocking(q, bd, 0, dest, N * 4);
done:
    accel_buffer_release(ba);
    accel_buffer_release(bb);
    accel_buffer_release(bd);
    accel_queue_release(q);
    return st;
}

int main(int argc, char **argv)
{
    int rc = 1;
    accel_runtime *rt = NULL;
    accel_device *dev = NULL, *cpu = NULL;
    accel_kernel *k = NULL;
    accel_queue *cq = NULL;
    accel_buffer *r = NULL;
    float a[N], b[N], dest[N], twin[N], ab[2 * N];
    ex_opt opts[] = {{NULL, NULL, NULL, NULL, NULL}};
    ex_parse(argc, argv, "[--device NAME] [--quick]", opts, 0);
    CHECK(ex_open(&rt, &dev));
    CHECK(accel_device_get_by_name(rt, "cpu", &cpu));
    /* numpy.random.randn(400): normal numbers, here from Philox on the CPU. */
    CHECK(accel_queue_create(cpu, &cq));
    CHECK(accel_buffer_create(cpu, sizeof ab, &r));
    CHECK(accel_random_normal(cq, ACCEL_F32, 5, 0, 0.0, 1.0, accel_slice_of(r, 0, 2 * N)));
    CHECK(accel_queue_read_blocking(cq, r, 0, ab, sizeof ab));
    memcpy(a, ab, sizeof a);
    memcpy(b, ab + N, sizeof b);
    CHECK(accel_kernel_raw_create(rt, source, "multiply_them", NULL, &k));
    CHECK(run(dev, k, a, b, dest));
    CHECK(run(cpu, k, a, b, twin));
    size_t bad = 0, bad_twin = 0;
    for (int i = 0; i < N; i++) {
        bad += dest[i] != a[i] * b[i];
        bad_twin += memcmp(&dest[i], &twin[i], 4) != 0;
    }
    printf("multiply_them on %s: dest - a*b: %zu of %d elements nonzero; vs the CPU twin: %zu "
           "differ%s\n",
           accel_device_name(dev), bad, N, bad_twin, bad || bad_twin ? "  (WRONG)" : "");
    printf("dest[0:4] = %g %g %g %g\n", dest[0], dest[1], dest[2], dest[3]);
    rc = bad || bad_twin;
done:
    accel_buffer_release(r);
    accel_queue_release(cq);
    accel_kernel_release(k);
    accel_runtime_close(rt);
    return rc;
}
