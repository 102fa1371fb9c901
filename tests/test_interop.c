/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_interop.c — zero-copy exchange (core/io/interop.c, core/io/dlpack.c): a CPU
 * buffer's host and native addresses, a queue's native stream, memory
 * allocated elsewhere wrapped as a buffer (ops write into it, the owner's
 * release runs exactly once: at release, or at runtime close), backends
 * without the entries saying so, and DLPack tensors made and freed in C. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/array.h"
#include "accel/dlpack.h"
#include "test_util.h"

static int released_count;
static void *released_user;

static void on_release(void *user)
{
    released_count++;
    released_user = user;
}

static accel_runtime *open_cpu(accel_device **dev, accel_queue **q)
{
    accel_runtime *rt = tu_open_default();
    tu_ok(accel_device_get_by_name(rt, "cpu", dev));
    tu_ok(accel_queue_create(*dev, q));
    return rt;
}

Test(interop, host_and_native_pointers_on_the_cpu)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = open_cpu(&dev, &q);
    float h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    accel_buffer *b = NULL;
    tu_ok(accel_buffer_create_from_host(q, h, sizeof h, &b));
    float *p = accel_buffer_host_pointer(b);
    cr_assert_not_null(p);
    cr_assert(memcmp(p, h, sizeof h) == 0, "the host address does not show the buffer");
    void *native = NULL;
    tu_ok(accel_buffer_native_pointer(b, &native));
    cr_assert_eq(native, (void *)p);
    tu_ok(accel_scale(q, ACCEL_F32, 2.0, accel_slice_of(b, 0, 8), accel_slice_of(b, 0, 8)));
    tu_ok(accel_queue_finish(q));
    for (int i = 0; i < 8; ++i)
        cr_assert_eq(p[i], 2 * h[i]);
    void *stream = (void *)1;
    tu_ok(accel_queue_native_stream(q, &stream));
    cr_assert_null(stream, "the CPU has no native stream");
    tu_assert_status(accel_buffer_native_pointer(b, NULL), ACCEL_ERROR_INVALID_ARGUMENT, "NULL");
    accel_buffer_release(b);
    cr_assert_null(accel_buffer_host_pointer(b), "a released buffer has no address");
    tu_assert_status(accel_buffer_native_pointer(b, &native), ACCEL_ERROR_INVALID_HANDLE,
                     "released");
    accel_runtime_close(rt);
}

Test(interop, wrapped_host_memory)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = open_cpu(&dev, &q);
    double *mine = malloc(100 * sizeof *mine);
    for (int i = 0; i < 100; ++i)
        mine[i] = i;
    accel_buffer *w = NULL;
    released_count = 0;
    tu_ok(accel_buffer_wrap(dev, mine, 100 * sizeof *mine, on_release, mine, &w));
    cr_assert_eq(accel_buffer_host_pointer(w), (void *)mine, "wrapping copied the memory");
    accel_slice s = accel_slice_of(w, 10, 50);
    tu_ok(accel_add(q, ACCEL_F64, s, s, s));
    double sum = 0;
    accel_buffer *out = NULL;
    tu_ok(accel_buffer_create(dev, sizeof sum, &out));
    tu_ok(accel_sum(q, ACCEL_F64, accel_slice_of(w, 0, 100), accel_slice_of(out, 0, 1)));
    tu_ok(accel_queue_read_blocking(q, out, 0, &sum, sizeof sum));
    double want = 0;
    for (int i = 0; i < 100; ++i) {
        double v = (i >= 10 && i < 60) ? 2.0 * i : i;
        cr_assert_eq(mine[i], v, "element %d: %g, want %g", i, mine[i], v);
        want += v;
    }
    cr_assert_eq(sum, want, "integers sum exactly");
    cr_assert_eq(released_count, 0);
    accel_buffer_release(w);
    cr_assert_eq(released_count, 1, "release callback ran %d times", released_count);
    cr_assert_eq(released_user, (void *)mine);
    /* one left to the runtime: released at close, once */
    tu_ok(accel_buffer_wrap(dev, mine, 8, on_release, NULL, &w));
    accel_buffer_release(out);
    accel_runtime_close(rt);
    cr_assert_eq(released_count, 2, "close did not release the wrapped buffer");
    free(mine);
}

/* A buffer that wraps memory of another buffer (what from_dlpack of an
 * accel array does) is the same memory to every overlap check: an output
 * partly over an input through the alias is refused, by the built-in ops,
 * the array layer's elementwise functions and its reductions alike, with
 * nothing written; exactly over it is in place. (Before, only one buffer
 * handle counted as the same memory, and these computed wrong values.) */
Test(interop, an_output_over_an_alias_of_its_input)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = open_cpu(&dev, &q);
    float h[16];
    for (int i = 0; i < 16; ++i)
        h[i] = (float)(i + 1);
    accel_buffer *b = NULL, *w = NULL;
    tu_ok(accel_buffer_create_from_host(q, h, sizeof h, &b));
    float *p = accel_buffer_host_pointer(b);
    tu_ok(accel_buffer_wrap(dev, p, sizeof h, NULL, NULL, &w));
    /* built-in ops: out w[1..16) against b[0..15) */
    tu_assert_status(accel_add(q, ACCEL_F32, accel_slice_of(b, 0, 15), accel_slice_of(b, 0, 15),
                               accel_slice_of(w, 1, 15)),
                     ACCEL_ERROR_INVALID_ARGUMENT, "same memory");
    tu_assert_status(
        accel_scale(q, ACCEL_F32, 2.0, accel_slice_of(b, 0, 15), accel_slice_of(w, 1, 15)),
        ACCEL_ERROR_INVALID_ARGUMENT, "same memory");
    /* the array layer: int32 views of the same bytes (elementwise), a sum */
    accel_array x, o;
    int64_t n = 15;
    tu_ok(accel_array_init(&x, b, ACCEL_I32, 1, &n));
    tu_ok(accel_array_init(&o, w, ACCEL_I32, 1, &n));
    o.offset = 4;
    tu_assert_status(accel_array_binary(q, ACCEL_ARRAY_ADD, &x, &x, &o),
                     ACCEL_ERROR_INVALID_ARGUMENT, "overlaps");
    accel_array xf, of;
    int64_t one = 1;
    tu_ok(accel_array_init(&xf, b, ACCEL_F32, 1, &n));
    tu_ok(accel_array_init(&of, w, ACCEL_F32, 0, &one));
    of.offset = 8;
    tu_assert_status(accel_array_reduce(q, ACCEL_ARRAY_REDUCE_SUM, &xf, 1, 0, &of),
                     ACCEL_ERROR_INVALID_ARGUMENT, "out overlaps x");
    /* byte copies, flat and 2-D, from b into w over the same bytes */
    tu_assert_status(accel_queue_copy(q, b, 0, w, 8, 32), ACCEL_ERROR_INVALID_ARGUMENT, "overlaps");
    tu_assert_status(accel_queue_copy_2d(q, b, 0, 16, w, 8, 24, 8, 2), ACCEL_ERROR_INVALID_ARGUMENT,
                     "overlap");
    tu_ok(accel_queue_finish(q));
    for (int i = 0; i < 16; ++i)
        cr_assert_eq(p[i], h[i], "element %d written by a refused call", i);
    /* exactly over the input: in place, both ways */
    tu_ok(accel_add(q, ACCEL_F32, accel_slice_of(b, 0, 16), accel_slice_of(b, 0, 16),
                    accel_slice_of(w, 0, 16)));
    o.offset = 0;
    tu_ok(accel_array_init(&x, w, ACCEL_F32, 1, &n));
    tu_ok(accel_array_init(&o, b, ACCEL_F32, 1, &n));
    tu_ok(accel_array_binary(q, ACCEL_ARRAY_ADD, &x, &x, &o));
    tu_ok(accel_queue_finish(q));
    for (int i = 0; i < 16; ++i)
        cr_assert_eq(p[i], h[i] * (i < 15 ? 4 : 2), "element %d: %g", i, p[i]);
    accel_buffer_release(w);
    accel_buffer_release(b);
    accel_runtime_close(rt);
}

/* A graph's buffer rebound to a wrapped buffer over memory the node
 * already uses: refused as the op itself would be (accel_graph_set_buffer's
 * "an aliasing the recorded op did not have"), the graph unchanged. */
Test(interop, a_graph_rebind_onto_an_alias_of_a_used_buffer)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = open_cpu(&dev, &q);
    enum { N = 64 };
    float h[N], z[N];
    for (int i = 0; i < N; ++i)
        h[i] = (float)i;
    accel_buffer *a = NULL, *c = NULL, *w = NULL;
    tu_ok(accel_buffer_create_from_host(q, h, sizeof h, &a));
    tu_ok(accel_buffer_create(dev, sizeof h, &c));
    tu_ok(accel_queue_begin_capture(q));
    tu_ok(accel_add(q, ACCEL_F32, accel_slice_of(a, 0, N - 1), accel_slice_of(a, 0, N - 1),
                    accel_slice_of(c, 1, N - 1)));
    accel_graph *g = NULL;
    tu_ok(accel_queue_end_capture(q, &g));
    tu_ok(accel_buffer_wrap(dev, accel_buffer_host_pointer(a), sizeof h, NULL, NULL, &w));
    tu_assert_status(accel_graph_set_buffer(g, c, w), ACCEL_ERROR_INVALID_ARGUMENT, "did not have");
    tu_ok(accel_graph_launch(g, q)); /* still into c */
    tu_ok(accel_queue_read_blocking(q, a, 0, z, sizeof z));
    for (int i = 0; i < N; ++i)
        cr_assert_eq(z[i], h[i], "a[%d] written", i);
    tu_ok(accel_queue_read_blocking(q, c, 4 * sizeof(float), z, sizeof(float)));
    cr_assert_eq(z[0], 2 * h[3]);
    accel_graph_release(g);
    accel_buffer_release(w);
    accel_buffer_release(c);
    accel_buffer_release(a);
    accel_runtime_close(rt);
}

Test(interop, wrap_bad_input_and_unsupported_backends)
{
    accel_device *dev;
    accel_queue *q;
    accel_runtime *rt = open_cpu(&dev, &q);
    accel_buffer *w = (accel_buffer *)1;
    tu_assert_status(accel_buffer_wrap(dev, NULL, 8, NULL, NULL, &w), ACCEL_ERROR_INVALID_ARGUMENT,
                     "NULL memory");
    cr_assert_null(w);
    tu_assert_status(accel_buffer_wrap(NULL, &w, 8, NULL, NULL, &w), ACCEL_ERROR_INVALID_HANDLE,
                     "NULL device");
    accel_runtime_close(rt);

    /* The mock backend has none of the optional zero-copy entries. */
    accel_runtime *mrt = NULL;
    tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = mock\nselftest = false\n[backend.mock]\n"
                             "library = %s\n",
                             TU_TEST_PLUGIN("mock")),
                      &mrt, NULL));
    accel_device *mock = NULL;
    tu_ok(accel_device_get(mrt, 0, &mock));
    double mem[4];
    released_count = 0;
    tu_assert_status(accel_buffer_wrap(mock, mem, sizeof mem, on_release, NULL, &w),
                     ACCEL_ERROR_UNSUPPORTED, "mock wrap");
    cr_assert(strstr(accel_last_error(), "cannot wrap") != NULL, "%s", accel_last_error());
    cr_assert_eq(released_count, 0, "release ran for a wrap that failed");
    accel_buffer *b = NULL;
    tu_ok(accel_buffer_create(mock, 16, &b));
    void *p = NULL;
    accel_status st = accel_buffer_native_pointer(b, &p);
    cr_assert(st == ACCEL_SUCCESS || st == ACCEL_ERROR_UNSUPPORTED, "%s", accel_status_name(st));
    cr_assert(st != ACCEL_SUCCESS || p == accel_buffer_host_pointer(b) || p != NULL);
    accel_runtime_close(mrt);
}

/* DLPack's DLManagedTensor, laid out as in dlpack.h (independently of
 * core/io/dlpack.c's own copy). */
typedef struct {
    void *data;
    struct {
        int32_t device_type, device_id;
    } device;
    int32_t ndim;
    struct {
        uint8_t code, bits;
        uint16_t lanes;
    } dtype;
    int64_t *shape, *strides;
    uint64_t byte_offset;
    void *manager_ctx;
    void (*deleter)(void *self);
} test_dl_managed;

Test(interop, dlpack_tensor_in_c)
{
    float data[6];
    int64_t shape[2] = {2, 3};
    void *m = NULL;
    tu_ok(accel_dlpack_tensor_create(data, ACCEL_DLPACK_CPU, 0, ACCEL_DLPACK_FLOAT, 32, 2, shape, 0,
                                     NULL, &m));
    test_dl_managed *t = m;
    cr_assert_eq(t->data, (void *)data);
    cr_assert_eq(t->device.device_type, 1);
    cr_assert_eq(t->ndim, 2);
    cr_assert_eq(t->dtype.code, 2);
    cr_assert_eq(t->dtype.bits, 32);
    cr_assert_eq(t->dtype.lanes, 1);
    cr_assert(t->shape[0] == 2 && t->shape[1] == 3 && t->shape != shape);
    cr_assert_null(t->strides);
    cr_assert_eq(t->byte_offset, 0);
    cr_assert_not_null(t->deleter);
    accel_dlpack_tensor_free(m); /* no Python owner: frees the tensor only */
    accel_dlpack_tensor_free(NULL);
    tu_assert_status(accel_dlpack_tensor_create(data, 1, 0, 2, 32, 40, shape, 0, NULL, &m),
                     ACCEL_ERROR_INVALID_ARGUMENT, "ndim 40");
    tu_assert_status(accel_dlpack_tensor_create(data, 1, 0, 2, 32, 2, NULL, 0, NULL, &m),
                     ACCEL_ERROR_INVALID_ARGUMENT, "NULL shape");
    tu_assert_status(accel_dlpack_tensor_create(data, 1, 0, 2, 32, 2, shape, 2, NULL, &m),
                     ACCEL_ERROR_UNSUPPORTED, "DLPack 2");
    /* DLPack 1.0: version, then manager_ctx, deleter, flags, then the tensor */
    tu_ok(accel_dlpack_tensor_create(data, ACCEL_DLPACK_CPU, 0, ACCEL_DLPACK_FLOAT, 64, 1, shape, 1,
                                     NULL, &m));
    struct {
        uint32_t major, minor;
        void *ctx;
        void (*deleter)(void *);
        uint64_t flags;
        void *data;
        int32_t device_type, device_id, ndim;
    } *v = m;
    cr_assert(v->major == 1 && v->minor == 0 && v->flags == 0 && v->data == (void *)data);
    cr_assert(v->device_type == 1 && v->ndim == 1);
    accel_dlpack_tensor_versioned_free(m);
}

/* On a CUDA device (skipped visibly without one): the native pointer and
 * stream exist, and device memory wrapped as a second buffer is the same
 * memory (an op through one is seen through the other), released once. */
Test(interop, cuda_native_pointer_stream_and_wrap)
{
    accel_runtime *rt = tu_open_default();
    accel_device *gpu = NULL;
    if (accel_device_get_by_name(rt, "cuda", &gpu) != ACCEL_SUCCESS) {
        fprintf(stderr, "no CUDA device, GPU test skipped (interop)\n");
        accel_runtime_close(rt);
        cr_skip_test("no CUDA device, GPU test skipped (interop)");
    }
    accel_queue *q = NULL;
    tu_ok(accel_queue_create(gpu, &q));
    void *stream = NULL;
    tu_ok(accel_queue_native_stream(q, &stream));
    cr_assert_not_null(stream, "a CUDA queue has a native stream");
    float h[256];
    for (int i = 0; i < 256; ++i)
        h[i] = (float)i;
    accel_buffer *b = NULL;
    tu_ok(accel_buffer_create_from_host(q, h, sizeof h, &b));
    cr_assert_null(accel_buffer_host_pointer(b), "CUDA memory is not host memory");
    void *dptr = NULL;
    tu_ok(accel_buffer_native_pointer(b, &dptr));
    cr_assert_not_null(dptr);
    accel_buffer *w = NULL;
    released_count = 0;
    tu_ok(accel_buffer_wrap(gpu, (char *)dptr + 64 * sizeof(float), 128 * sizeof(float), on_release,
                            dptr, &w));
    void *wptr = NULL;
    tu_ok(accel_buffer_native_pointer(w, &wptr));
    cr_assert_eq(wptr, (void *)((char *)dptr + 64 * sizeof(float)));
    accel_slice s = accel_slice_of(w, 0, 128);
    tu_ok(accel_scale(q, ACCEL_F32, 3.0, s, s));
    float back[256];
    tu_ok(accel_queue_read_blocking(q, b, 0, back, sizeof back));
    for (int i = 0; i < 256; ++i) {
        float want = (i >= 64 && i < 192) ? 3.0f * (float)i : (float)i;
        cr_assert_eq(back[i], want, "element %d: %g, want %g", i, (double)back[i], (double)want);
    }
    /* host memory is not CUDA device memory */
    accel_buffer *bad = NULL;
    tu_assert_status(accel_buffer_wrap(gpu, h, sizeof h, on_release, NULL, &bad),
                     ACCEL_ERROR_INVALID_ARGUMENT, "host memory on CUDA");
    accel_buffer_release(w);
    cr_assert_eq(released_count, 1);
    accel_buffer_release(b);
    accel_runtime_close(rt);
}
