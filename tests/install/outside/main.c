/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* The outside project's program: x + y on the default device of the installed
 * accel, checked on the host. Exit 0 when the sum is right. */
#include <accel/accel.h>
#include <stdio.h>

int main(void)
{
    enum { N = 1000 };
    static float x[N], y[N], z[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 0.5f * (float)i;
    }
    int rc = 1;
    accel_runtime *rt = NULL;
    accel_device *dev = NULL;
    accel_queue *q = NULL;
    accel_buffer *b = NULL;
    accel_status st = accel_runtime_open(NULL, &rt);
    if (st == ACCEL_SUCCESS)
        st = accel_device_default(rt, &dev);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_create(dev, &q);
    if (st == ACCEL_SUCCESS)
        st = accel_buffer_create(dev, 2 * sizeof x, &b);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_write(q, b, 0, x, sizeof x);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_write(q, b, sizeof x, y, sizeof y);
    if (st == ACCEL_SUCCESS)
        st = accel_add(q, ACCEL_F32, accel_slice_of(b, 0, N), accel_slice_of(b, N, N),
                       accel_slice_of(b, 0, N));
    if (st == ACCEL_SUCCESS)
        st = accel_queue_read_blocking(q, b, 0, z, sizeof z);
    if (st != ACCEL_SUCCESS) {
        fprintf(stderr, "outside: %s: %s\n", accel_status_name(st), accel_last_error());
    } else {
        rc = 0;
        for (int i = 0; i < N; i++)
            rc |= z[i] != x[i] + y[i];
        printf("outside: accel %s, config %s, device %s: x + y %s\n", accel_version(),
               accel_runtime_config_path(rt), accel_device_name(dev), rc ? "WRONG" : "correct");
    }
    accel_buffer_release(b);
    accel_queue_release(q);
    accel_runtime_close(rt);
    return rc;
}
