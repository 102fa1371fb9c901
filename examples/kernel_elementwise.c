/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* kernel_elementwise — a CuPy ElementwiseKernel in accel: typed parameters,
 * a C body for one element, an array or a scalar per input (decided by what
 * the caller passes), compiled at run time for each device that runs it.
 * Here CuPy's documentation example, the squared difference, with a scalar
 * weight: z = w * (x - y) * (x - y). It runs on the chosen device and on the
 * CPU; both must agree bit for bit (no contraction on either backend).
 *
 *   usage: kernel_elementwise [--device NAME] [--n N]
 */
#include "common.h"

#include <accel/kernel.h>

static accel_status run(accel_device *dev, accel_kernel *k, size_t n, float w, float *z)
{
    accel_queue *q = NULL;
    accel_buffer *x = NULL, *y = NULL, *out = NULL;
    accel_status st;
    if ((st = accel_queue_create(dev, &q)) || (st = accel_buffer_create(dev, n * 4, &x)) ||
        (st = accel_buffer_create(dev, n * 4, &y)) ||
        (st = accel_buffer_create(dev, n * 4, &out)) ||
        (st = accel_random_uniform(q, ACCEL_F32, 7, 0, accel_slice_of(x, 0, n))) ||
        (st = accel_random_uniform(q, ACCEL_F32, 8, 0, accel_slice_of(y, 0, n))))
        goto done;
    accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(x, 0, n)),
                               accel_karg_array(accel_slice_of(y, 0, n)), accel_karg_f32(w),
                               accel_karg_array(accel_slice_of(out, 0, n))};
    if ((st = accel_kernel_launch(q, k, 4, args)))
        goto done;
    st = accel_queue_read_blocking(q, out, 0, z, n * 4);
done:
    accel_buffer_release(x);
    accel_buffer_release(y);
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
    float *z = NULL, *zc = NULL;
    ex_opt opts[] = {{"n", "N", "elements (default 1000003)", NULL, "100003"},
                     {NULL, NULL, NULL, NULL, NULL}};
    ex_parse(argc, argv, "[--device NAME] [--quick] [--n N]", opts, 0);
    CHECK(ex_open(&rt, &dev));
    CHECK(accel_device_get_by_name(rt, "cpu", &cpu));
    size_t n = ex_opt_size(opts, "n", 1000003);
    /* cupy.ElementwiseKernel('float32 x, float32 y, float32 w', 'float32 z',
     *                        'z = w * (x - y) * (x - y)', 'weighted_sq_diff') */
    CHECK(accel_kernel_elementwise_create(rt, "weighted_sq_diff", "float32 x, float32 y, float32 w",
                                          "float32 z", "z = w * (x - y) * (x - y)", NULL, &k));
    z = malloc(n * 4 + 4);
    zc = malloc(n * 4 + 4);
    if (!z || !zc)
        goto done;
    double t0 = ex_now_ms();
    CHECK(run(dev, k, n, 0.5f, z));
    double t1 = ex_now_ms();
    CHECK(run(cpu, k, n, 0.5f, zc));
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += memcmp(&z[i], &zc[i], 4) != 0;
    printf("weighted_sq_diff on %s: %zu elements (%.1f ms with the first build); vs %s: %zu "
           "differ%s\n",
           accel_device_name(dev), n, t1 - t0, accel_device_name(cpu), bad,
           bad ? "  (WRONG)" : " (bit-identical)");
    accel_kernel_cache_stats s;
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    CHECK(accel_kernel_cache_stats_get(rt, &s));
    printf("kernel cache: %llu compiled (%.1f ms), %llu from disk, %llu from memory; folder %s\n",
           (unsigned long long)s.misses, s.compile_ms, (unsigned long long)s.disk_hits,
           (unsigned long long)s.memory_hits, s.disk_enabled ? s.dir : s.disabled_reason);
    rc = bad != 0;
done:
    free(z);
    free(zc);
    accel_kernel_release(k);
    accel_runtime_close(rt);
    return rc;
}
