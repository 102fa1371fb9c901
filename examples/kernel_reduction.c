/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* kernel_reduction — a CuPy ReductionKernel in accel: the L2 norm of each
 * row of a rows x cols row-major matrix (map "x * x", reduce "a + b",
 * identity "0", post "y = sqrt(a)"). The reduction order is fixed and the
 * same on every backend, so the device's norms equal the CPU's bit for bit;
 * both must be within the sum bound of the exact norms (double loop).
 *
 *   usage: kernel_reduction [--device NAME] [--rows R] [--cols C]
 */
#include "common.h"

#include <accel/kernel.h>
#include <math.h>

static accel_status run(accel_device *dev, accel_kernel *k, const float *x, size_t rows,
                        size_t cols, float *y)
{
    accel_queue *q = NULL;
    accel_buffer *bx = NULL, *by = NULL;
    accel_status st;
    size_t n = rows * cols;
    if ((st = accel_queue_create(dev, &q)) || (st = accel_buffer_create(dev, n * 4 + 4, &bx)) ||
        (st = accel_buffer_create(dev, rows * 4, &by)) ||
        (st = accel_queue_write(q, bx, 0, x, n * 4)))
        goto done;
    accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(bx, 0, n)),
                               accel_karg_array(accel_slice_of(by, 0, rows))};
    if ((st = accel_kernel_launch(q, k, 2, args)))
        goto done;
    st = accel_queue_read_blocking(q, by, 0, y, rows * 4);
done:
    accel_buffer_release(bx);
    accel_buffer_release(by);
    accel_queue_release(q);
    return st;
}

int main(int argc, char **argv)
{
    int rc = 1;
    accel_runtime *rt = NULL;
    accel_device *dev = NULL, *cpu = NULL;
    accel_kernel *k = NULL;
    float *x = NULL, *y = NULL, *yc = NULL;
    ex_opt opts[] = {{"rows", "N", "rows (default 1001)", NULL, "37"},
                     {"cols", "N", "columns (default 3001)", NULL, "1001"},
                     {NULL, NULL, NULL, NULL, NULL}};
    ex_parse(argc, argv, "[--device NAME] [--quick] [--rows N] [--cols N]", opts, 0);
    CHECK(ex_open(&rt, &dev));
    CHECK(accel_device_get_by_name(rt, "cpu", &cpu));
    size_t rows = ex_opt_size(opts, "rows", 1001);
    size_t cols = ex_opt_size(opts, "cols", 3001);
    if (rows == 0) {
        fprintf(stderr, "--rows must be at least 1\n");
        goto done;
    }
    /* cupy.ReductionKernel('float32 x', 'float32 y', 'x * x', 'a + b',
     *                      'y = sqrt(a)', '0', 'l2norm') */
    CHECK(accel_kernel_reduction_create(rt, "l2norm", "float32 x", "float32 y", "x * x", "a + b",
                                        "0", "y = sqrt(a)", NULL, &k));
    x = malloc(rows * cols * 4 + 4);
    y = malloc(rows * 4);
    yc = malloc(rows * 4);
    if (!x || !y || !yc)
        goto done;
    uint64_t s = 42;
    for (size_t i = 0; i < rows * cols; i++) {
        s = s * 6364136223846793005u + 1442695040888963407u;
        x[i] = (float)((double)(s >> 11) * 0x1p-53 * 2.0 - 1.0);
    }
    CHECK(run(dev, k, x, rows, cols, y));
    CHECK(run(cpu, k, x, rows, cols, yc));
    size_t differ = 0, out_of_bound = 0;
    for (size_t r = 0; r < rows; r++) {
        double exact = 0;
        for (size_t c = 0; c < cols; c++)
            exact += (double)x[r * cols + c] * x[r * cols + c];
        /* |y^2 - sum x^2| <= 2 (cols + 2) eps sum x^2 (Higham 2002, eq. 3.5) */
        double bound = 2.0 * (double)(cols + 2) * 0x1p-23 * exact;
        differ += memcmp(&y[r], &yc[r], 4) != 0;
        out_of_bound += fabs((double)y[r] * y[r] - exact) > bound;
    }
    printf("l2norm of %zu rows x %zu columns on %s: y[0] = %.7g; vs %s: %zu rows differ; %zu "
           "rows outside the sum bound%s\n",
           rows, cols, accel_device_name(dev), (double)y[0], accel_device_name(cpu), differ,
           out_of_bound, differ || out_of_bound ? "  (WRONG)" : "");
    rc = differ || out_of_bound;
done:
    free(x);
    free(y);
    free(yc);
    accel_kernel_release(k);
    accel_runtime_close(rt);
    return rc;
}
