/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* device_query — the tutorial's FAQ "how do I check that my program really runs
 * on the GPU?": which plugins.ini was read, every backend it names (loaded, or
 * why not), every device, and the device this program will use. It then runs
 * one small op there and checks the result, so a broken driver shows up here.
 *
 *   usage: device_query [--device NAME]
 */
#include "common.h"

static const char *kind_name(uint32_t kind)
{
    return kind == ACCEL_DEVICE_GPU ? "GPU" : kind == ACCEL_DEVICE_CPU ? "CPU" : "other";
}

int main(int argc, char **argv)
{
    int rc = 1;
    ex_parse(argc, argv, "[--device NAME] [--quick]", NULL, 0);
    accel_runtime *rt = NULL;
    accel_device *use = NULL;
    accel_queue *q = NULL;
    accel_buffer *x = NULL, *s = NULL;

    CHECK(accel_runtime_open(NULL, &rt));
    printf("accel %s, configuration %s\n\n", accel_version(), accel_runtime_config_path(rt));

    printf("backends:\n");
    for (uint32_t i = 0; i < accel_runtime_backend_count(rt); i++) {
        accel_backend_info b = {.struct_size = sizeof b};
        CHECK(accel_runtime_backend_info(rt, i, &b));
        if (b.loaded)
            printf("  %-6s loaded, %u device(s): %s\n", b.name, b.device_count, b.description);
        else
            printf("  %-6s NOT loaded (%s): %s\n", b.name, accel_status_name(b.status), b.reason);
        printf("         %s\n", b.path);
    }

    printf("\ndevices:\n");
    for (uint32_t i = 0; i < accel_device_count(rt); i++) {
        accel_device *d;
        accel_device_properties p;
        accel_device_properties_init(&p);
        CHECK(accel_device_get(rt, i, &d));
        CHECK(accel_device_properties_get(d, &p));
        printf("  %-7s %s %s, %u compute units, %.1f of %.1f GiB free", accel_device_name(d),
               kind_name(p.kind), p.name, p.compute_units, p.memory_free / 1073741824.0,
               p.memory_total / 1073741824.0);
        if (p.compute_capability)
            printf(", sm_%u, driver %s", p.compute_capability, p.driver_version);
        printf("\n");
    }

    /* The answer: this program's device, and whether it is a GPU. */
    const char *name = ex_device_name;
    if (name)
        CHECK(accel_device_get_by_name(rt, name, &use));
    else
        CHECK(accel_device_default(rt, &use));
    accel_device_properties p;
    accel_device_properties_init(&p);
    CHECK(accel_device_properties_get(use, &p));
    printf("\nthis program uses %s (%s%s): %s\n", accel_device_name(use),
           name ? "--device " : "the default of plugins.ini", name ? name : "", p.name);
    printf("on the GPU? %s\n", p.kind == ACCEL_DEVICE_GPU
                                   ? "yes"
                                   : "no: no GPU backend loaded (see its reason above), or a "
                                     "CPU device was asked for");

    /* A real op on that device: sum of 1000 ones must be 1000 exactly. */
    enum { N = 1000 };
    float sum = 0;
    CHECK(accel_queue_create(use, &q));
    CHECK(accel_buffer_create(use, N * sizeof(float), &x));
    CHECK(accel_buffer_create(use, sizeof(float), &s));
    CHECK(accel_fill(q, ACCEL_F32, 1.0, accel_slice_of(x, 0, N)));
    CHECK(accel_sum(q, ACCEL_F32, accel_slice_of(x, 0, N), accel_slice_of(s, 0, 1)));
    CHECK(accel_queue_read_blocking(q, s, 0, &sum, sizeof sum));
    rc = sum == N ? 0 : 1;
    printf("check: sum of %d ones on %s = %g: %s\n", N, accel_device_name(use), (double)sum,
           rc ? "FAIL" : "PASS");

done:
    accel_buffer_release(x);
    accel_buffer_release(s);
    accel_queue_release(q);
    accel_runtime_close(rt);
    return rc;
}
