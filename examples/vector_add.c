/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* vector_add — the tutorial's first GPU program (CuPy: x + y on 5 elements), in
 * accel: pick the default device from plugins.ini, copy two vectors in, add them
 * on the device, read the result back, and check it on the host.
 *
 *   usage: vector_add [--device NAME]     e.g. --device cuda, --device cpu
 *          vector_add NAME                (the same)
 */
#include "common.h"

int main(int argc, char **argv)
{
    enum { N = 5 };
    const float x[N] = {1, 2, 3, 4, 5};
    const float y[N] = {10, 20, 30, 40, 50};
    float z[N] = {0};
    int rc = 1;
    accel_runtime *rt = NULL;
    accel_device *dev = NULL;
    accel_queue *q = NULL;
    accel_buffer *bx = NULL, *by = NULL, *bz = NULL;

    int first = ex_parse(argc, argv, "[--device NAME | NAME] [--quick]", NULL, 1);
    if (first < argc)
        ex_device_name = argv[first]; /* vector_add NAME: the short form of --device NAME */
    CHECK(ex_open(&rt, &dev));

    CHECK(accel_queue_create(dev, &q));
    CHECK(accel_buffer_create(dev, sizeof x, &bx));
    CHECK(accel_buffer_create(dev, sizeof y, &by));
    CHECK(accel_buffer_create(dev, sizeof z, &bz));
    CHECK(accel_queue_write(q, bx, 0, x, sizeof x));
    CHECK(accel_queue_write(q, by, 0, y, sizeof y));
    CHECK(accel_add(q, ACCEL_F32, accel_slice_of(bx, 0, N), accel_slice_of(by, 0, N),
                    accel_slice_of(bz, 0, N)));
    CHECK(accel_queue_read_blocking(q, bz, 0, z, sizeof z));

    rc = 0;
    printf("x + y = [");
    for (int i = 0; i < N; ++i) {
        printf("%s%g", i ? ", " : "", (double)z[i]);
        if (z[i] != x[i] + y[i])
            rc = 1;
    }
    printf("]  %s\n", rc == 0 ? "(matches the host)" : "(WRONG: differs from the host)");

done:
    accel_buffer_release(bx);
    accel_buffer_release(by);
    accel_buffer_release(bz);
    accel_queue_release(q);
    accel_runtime_close(rt);
    return rc;
}
