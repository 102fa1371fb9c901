/* vector_add — the tutorial's first GPU program (CuPy: x + y on 5 elements), in
 * accel: pick the default device from plugins.ini, copy two vectors in, add them
 * on the device, read the result back, and check it on the host.
 *
 *   usage: vector_add [DEVICE]     e.g. vector_add cuda, vector_add cpu
 */
#include <accel/accel.h>
#include <stdio.h>

#define CHECK(call)                                                                     \
    do {                                                                                \
        accel_status st_ = (call);                                                      \
        if (st_ != ACCEL_SUCCESS) {                                                     \
            fprintf(stderr, "vector_add: %s failed: %s (%s)\n", #call,                  \
                    accel_status_name(st_), accel_last_error());                        \
            goto done;                                                                  \
        }                                                                               \
    } while (0)

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

    CHECK(accel_runtime_open(NULL, &rt));
    if (argc > 1)
        CHECK(accel_device_get_by_name(rt, argv[1], &dev));
    else
        CHECK(accel_device_default(rt, &dev));

    accel_device_properties props;
    accel_device_properties_init(&props);
    CHECK(accel_device_properties_get(dev, &props));
    printf("device: %s (%s)\n", accel_device_name(dev), props.name);

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
