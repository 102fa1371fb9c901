/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_kernel_cuda.c — user kernels (accel/kernel.h) on a CUDA device:
 * NVRTC builds of every kind against plain loops and against the CPU twin
 * (bit for bit where the contract says so: no contraction on either side),
 * the tutorial's kernels verbatim, NVRTC errors with the user's line, the
 * disk cache in a new runtime, a shared-memory kernel that runs on CUDA and
 * is cross-checked against the CPU twin, and verify mode catching a kernel whose
 * CUDA and C paths differ on purpose (__CUDACC__). Every test skips with a
 * visible message where there is no CUDA device. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/kernel.h"
#include "accel/verify.h"
#include "test_util.h"

static accel_runtime *rt;
static accel_device *gpu, *cpu;
static accel_queue *gq, *cq;

static void need_gpu(void)
{
    setenv("ACCEL_KERNEL_CACHE", tu_fmt("%s/cache", tu_tmpdir()), 1);
    rt = tu_open_default();
    if (accel_device_get_by_name(rt, "cuda:0", &gpu) != ACCEL_SUCCESS) {
        accel_runtime_close(rt);
        rt = NULL;
        fprintf(stderr, "no CUDA device, GPU test skipped\n");
        cr_skip_test("no CUDA device, GPU test skipped");
    }
    cr_assert_eq(accel_device_get_by_name(rt, "cpu", &cpu), ACCEL_SUCCESS);
    cr_assert_eq(accel_queue_create(gpu, &gq), ACCEL_SUCCESS);
    cr_assert_eq(accel_queue_create(cpu, &cq), ACCEL_SUCCESS);
}

static accel_buffer *up(accel_device *dev, accel_queue *q, const void *data, size_t bytes)
{
    accel_buffer *b;
    cr_assert_eq(accel_buffer_create(dev, bytes ? bytes : 1, &b), ACCEL_SUCCESS);
    if (data && bytes)
        cr_assert_eq(accel_queue_write(q, b, 0, data, bytes), ACCEL_SUCCESS);
    return b;
}

static void down(accel_queue *q, accel_buffer *b, void *out, size_t bytes)
{
    accel_status st =
        bytes ? accel_queue_read_blocking(q, b, 0, out, bytes) : accel_queue_finish(q);
    cr_assert_eq(st, ACCEL_SUCCESS, "%s", accel_last_error());
}

Test(kernel_cuda, saxpy_matches_the_cpu_bit_for_bit)
{
    need_gpu();
    accel_kernel *k;
    cr_assert_eq(accel_kernel_elementwise_create(rt, "saxpy", "float32 x, float32 y, float32 a",
                                                 "float32 z", "z = a * x + y", NULL, &k),
                 ACCEL_SUCCESS);
    static const size_t sizes[] = {0, 1, 2, 7, 1009, (1u << 20) + 3};
    tu_rng r = tu_rng_make(11);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        float *x = malloc(n * 4 + 4), *y = malloc(n * 4 + 4), *z = malloc(n * 4 + 4);
        for (size_t i = 0; i < n; i++)
            x[i] = (float)tu_rng_range(&r, -1e3, 1e3), y[i] = (float)tu_rng_range(&r, -1e3, 1e3);
        accel_buffer *bx = up(gpu, gq, x, n * 4), *by = up(gpu, gq, y, n * 4),
                     *bz = up(gpu, gq, NULL, n * 4);
        accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(bx, 0, n)),
                                   accel_karg_array(accel_slice_of(by, 0, n)), accel_karg_f32(0.3f),
                                   accel_karg_array(accel_slice_of(bz, 0, n))};
        cr_assert_eq(accel_kernel_launch(gq, k, 4, args), ACCEL_SUCCESS, "%s", accel_last_error());
        down(gq, bz, z, n * 4);
        for (size_t i = 0; i < n; i++)
            cr_assert_eq(z[i], 0.3f * x[i] + y[i], "n=%zu i=%zu", n, i);
        accel_buffer_release(bx);
        accel_buffer_release(by);
        accel_buffer_release(bz);
        free(x);
        free(y);
        free(z);
    }
    accel_kernel_release(k);
    accel_runtime_close(rt);
}

/* One kernel over every dtype, on the GPU and on the CPU twin: identical. */
Test(kernel_cuda, every_dtype_matches_the_cpu_twin)
{
    need_gpu();
    static const struct {
        accel_dtype dt;
        const char *name;
    } t[] = {{ACCEL_F32, "float32"},  {ACCEL_F64, "float64"}, {ACCEL_I32, "int32"},
             {ACCEL_I64, "int64"},    {ACCEL_U8, "uint8"},    {ACCEL_F16, "float16"},
             {ACCEL_BF16, "bfloat16"}};
    size_t n = 100003;
    tu_rng r = tu_rng_make(12);
    for (size_t d = 0; d < sizeof t / sizeof t[0]; d++) {
        accel_kernel *k;
        cr_assert_eq(accel_kernel_elementwise_create(
                         rt, "mix", tu_fmt("%s x, %s y", t[d].name, t[d].name),
                         tu_fmt("%s z", t[d].name), "z = x * y + x - y", NULL, &k),
                     ACCEL_SUCCESS);
        size_t es = accel_dtype_size(t[d].dt);
        unsigned char *x = malloc(n * es), *y = malloc(n * es), *zg = malloc(n * es),
                      *zc = malloc(n * es);
        for (size_t i = 0; i < n * es; i++) {
            x[i] = (unsigned char)tu_rng_next(&r);
            y[i] = (unsigned char)tu_rng_next(&r);
        }
        accel_buffer *b[6] = {up(gpu, gq, x, n * es),    up(gpu, gq, y, n * es),
                              up(gpu, gq, NULL, n * es), up(cpu, cq, x, n * es),
                              up(cpu, cq, y, n * es),    up(cpu, cq, NULL, n * es)};
        for (int dev = 0; dev < 2; dev++) {
            accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(b[3 * dev], 0, n)),
                                       accel_karg_array(accel_slice_of(b[3 * dev + 1], 0, n)),
                                       accel_karg_array(accel_slice_of(b[3 * dev + 2], 0, n))};
            cr_assert_eq(accel_kernel_launch(dev ? cq : gq, k, 3, args), ACCEL_SUCCESS, "%s",
                         accel_last_error());
        }
        down(gq, b[2], zg, n * es);
        down(cq, b[5], zc, n * es);
        for (size_t i = 0; i < n; i++) {
            bool same = memcmp(zg + i * es, zc + i * es, es) == 0;
            if (!same && (t[d].dt == ACCEL_F32 || t[d].dt == ACCEL_F64)) {
                double g = t[d].dt == ACCEL_F32 ? ((float *)zg)[i] : ((double *)zg)[i];
                double c = t[d].dt == ACCEL_F32 ? ((float *)zc)[i] : ((double *)zc)[i];
                same = isnan(g) && isnan(c); /* NaN payloads may differ */
            }
            if (!same && (t[d].dt == ACCEL_F16 || t[d].dt == ACCEL_BF16)) {
                uint16_t g = ((uint16_t *)zg)[i], c = ((uint16_t *)zc)[i];
                uint16_t em = t[d].dt == ACCEL_F16 ? 0x7c00 : 0x7f80;
                same = (g & em) == em && (g & ~em & 0x7fff) && (c & em) == em && (c & ~em & 0x7fff);
            }
            cr_assert(same, "%s element %zu differs between cuda:0 and cpu:0", t[d].name, i);
        }
        for (int i = 0; i < 6; i++)
            accel_buffer_release(b[i]);
        free(x);
        free(y);
        free(zg);
        free(zc);
        accel_kernel_release(k);
    }
    accel_runtime_close(rt);
}

/* The generated kernel takes 16-byte vectors when every array is aligned
 * to its 4-element vector and goes element by element otherwise and for the
 * tail: the same bits either way, in place too. Offsets 0..3 of x and of y
 * (y is also the output) make every mix of aligned and unaligned arrays. */
Test(kernel_cuda, vector_and_element_paths_same_bits)
{
    need_gpu();
    accel_kernel *k;
    cr_assert_eq(accel_kernel_elementwise_create(rt, "axpy_ip", "float32 x, float32 y, float32 a",
                                                 "float32 z", "z = a * x + y", NULL, &k),
                 ACCEL_SUCCESS);
    static const size_t sizes[] = {1, 3, 4, 5, 1023, 1025, (1u << 20) + 3};
    tu_rng r = tu_rng_make(13);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s], cap = n + 8;
        float *x = malloc(cap * 4), *y = malloc(cap * 4), *z = malloc(cap * 4);
        for (size_t i = 0; i < cap; i++)
            x[i] = (float)tu_rng_range(&r, -1e3, 1e3), y[i] = (float)tu_rng_range(&r, -1e3, 1e3);
        accel_buffer *bx = up(gpu, gq, x, cap * 4), *by = up(gpu, gq, NULL, cap * 4);
        for (size_t ox = 0; ox < 4; ox++) {
            for (size_t oy = 0; oy < 4; oy++) {
                cr_assert_eq(accel_queue_write(gq, by, 0, y, cap * 4), ACCEL_SUCCESS);
                accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(bx, ox, n)),
                                           accel_karg_array(accel_slice_of(by, oy, n)),
                                           accel_karg_f32(0.7f),
                                           accel_karg_array(accel_slice_of(by, oy, n))};
                cr_assert_eq(accel_kernel_launch(gq, k, 4, args), ACCEL_SUCCESS, "%s",
                             accel_last_error());
                down(gq, by, z, cap * 4);
                for (size_t i = 0; i < cap; i++) {
                    float want = i >= oy && i < oy + n ? 0.7f * x[ox + i - oy] + y[i] : y[i];
                    cr_assert_eq(z[i], want, "n=%zu x offset %zu, y offset %zu: element %zu", n, ox,
                                 oy, i);
                }
            }
        }
        accel_buffer_release(bx);
        accel_buffer_release(by);
        free(x);
        free(y);
        free(z);
    }
    accel_kernel_release(k);

    /* Mixed element sizes (2, 4, 8, 1 bytes) at offsets 0 and 1, against the CPU twin. */
    cr_assert_eq(accel_kernel_elementwise_create(
                     rt, "mixed", "float16 h, float32 x, float64 d, uint8 u",
                     "float32 z, float64 w", "z = x * h + u; w = d * x - u", NULL, &k),
                 ACCEL_SUCCESS);
    size_t n = 4099, cap = n + 1;
    unsigned char *in[4], *outg[2], *outc[2];
    const size_t es[6] = {2, 4, 8, 1, 4, 8};
    for (int a = 0; a < 4; a++) {
        in[a] = malloc(cap * es[a]);
        for (size_t i = 0; i < cap * es[a]; i++)
            in[a][i] = (unsigned char)tu_rng_next(&r);
    }
    /* Finite inputs: exponent bytes of the floats kept small. */
    for (size_t i = 0; i < cap; i++) {
        in[0][2 * i + 1] &= 0x3b;
        in[1][4 * i + 3] &= 0x3f;
        in[2][8 * i + 7] &= 0x3f;
    }
    for (size_t off = 0; off < 2; off++) {
        accel_buffer *b[12];
        for (int dev = 0; dev < 2; dev++) {
            for (int a = 0; a < 6; a++)
                b[6 * dev + a] =
                    up(dev ? cpu : gpu, dev ? cq : gq, a < 4 ? in[a] : NULL, cap * es[a]);
            accel_kernel_arg args[6];
            for (int a = 0; a < 6; a++)
                args[a] = accel_karg_array(accel_slice_of(b[6 * dev + a], off, n));
            cr_assert_eq(accel_kernel_launch(dev ? cq : gq, k, 6, args), ACCEL_SUCCESS, "%s",
                         accel_last_error());
        }
        for (int o = 0; o < 2; o++) {
            outg[o] = malloc(cap * es[4 + o]);
            outc[o] = malloc(cap * es[4 + o]);
            down(gq, b[4 + o], outg[o], cap * es[4 + o]);
            down(cq, b[10 + o], outc[o], cap * es[4 + o]);
            for (size_t i = off; i < off + n; i++)
                cr_assert(memcmp(outg[o] + i * es[4 + o], outc[o] + i * es[4 + o], es[4 + o]) == 0,
                          "offset %zu: output %d element %zu differs between cuda:0 and cpu:0", off,
                          o, i);
            free(outg[o]);
            free(outc[o]);
        }
        for (int i = 0; i < 12; i++)
            accel_buffer_release(b[i]);
    }
    for (int a = 0; a < 4; a++)
        free(in[a]);
    accel_kernel_release(k);
    accel_runtime_close(rt);
}

Test(kernel_cuda, reductions_same_bits_as_the_cpu)
{
    need_gpu();
    accel_kernel *k;
    cr_assert_eq(accel_kernel_reduction_create(rt, "l2norm", "float32 x", "float32 y", "x * x",
                                               "a + b", "0", "y = sqrt(a)", NULL, &k),
                 ACCEL_SUCCESS);
    /* Rows of one chunk (one block each) and of several (16384 columns a
     * chunk: many blocks, then a pass over the partials; 257 chunks wrap
     * the final pass's 256 lanes). */
    static const size_t shapes[][2] = {{1, 0},       {1, 1},
                                       {7, 257},     {1000, 3},
                                       {13, 100003}, {1, (1u << 20) + 3},
                                       {1, 16384},   {1, 16385},
                                       {3, 40000},   {2, 256 * 16384 + 300}};
    tu_rng r = tu_rng_make(13);
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        size_t rows = shapes[s][0], cols = shapes[s][1], n = rows * cols;
        float *x = malloc(n * 4 + 4), *yg = malloc(rows * 4), *yc = malloc(rows * 4);
        for (size_t i = 0; i < n; i++)
            x[i] = (float)tu_rng_range(&r, -1, 1);
        accel_buffer *gx = up(gpu, gq, x, n * 4), *gy = up(gpu, gq, NULL, rows * 4);
        accel_buffer *cx = up(cpu, cq, x, n * 4), *cy = up(cpu, cq, NULL, rows * 4);
        accel_kernel_arg ga[] = {accel_karg_array(accel_slice_of(gx, 0, n)),
                                 accel_karg_array(accel_slice_of(gy, 0, rows))};
        accel_kernel_arg ca[] = {accel_karg_array(accel_slice_of(cx, 0, n)),
                                 accel_karg_array(accel_slice_of(cy, 0, rows))};
        cr_assert_eq(accel_kernel_launch(gq, k, 2, ga), ACCEL_SUCCESS, "%s", accel_last_error());
        cr_assert_eq(accel_kernel_launch(cq, k, 2, ca), ACCEL_SUCCESS, "%s", accel_last_error());
        down(gq, gy, yg, rows * 4);
        down(cq, cy, yc, rows * 4);
        cr_assert_eq(memcmp(yg, yc, rows * 4), 0, "%zu x %zu: GPU and CPU differ", rows, cols);
        for (size_t i = 0; i < rows; i++) {
            double exact = 0;
            for (size_t c = 0; c < cols; c++)
                exact += (double)x[i * cols + c] * x[i * cols + c];
            cr_assert_leq(fabs((double)yg[i] * yg[i] - exact),
                          2.0 * (double)(cols + 2) * 0x1p-23 * exact + 1e-30);
        }
        accel_buffer_release(gx);
        accel_buffer_release(gy);
        accel_buffer_release(cx);
        accel_buffer_release(cy);
        free(x);
        free(yg);
        free(yc);
    }
    accel_kernel_release(k);
    accel_runtime_close(rt);
}

/* A whole-range reduction over many blocks: the same bits in every run
 * (the order is fixed, not the blocks' timing), equal to the CPU's, and
 * within the sum's error bound of a double-precision loop. */
Test(kernel_cuda, whole_range_reduction_deterministic)
{
    need_gpu();
    accel_kernel *k;
    cr_assert_eq(accel_kernel_reduction_create(rt, "sumsq", "float32 x", "float32 y", "x * x",
                                               "a + b", "0", "a", NULL, &k),
                 ACCEL_SUCCESS);
    const size_t n = ((size_t)1 << 24) + 77;
    float *x = malloc(n * 4);
    tu_rng r = tu_rng_make(29);
    for (size_t i = 0; i < n; i++)
        x[i] = (float)tu_rng_range(&r, -1, 1);
    accel_buffer *gx = up(gpu, gq, x, n * 4), *gy = up(gpu, gq, NULL, 4);
    accel_buffer *cx = up(cpu, cq, x, n * 4), *cy = up(cpu, cq, NULL, 4);
    accel_kernel_arg ga[] = {accel_karg_array(accel_slice_of(gx, 0, n)),
                             accel_karg_array(accel_slice_of(gy, 0, 1))};
    accel_kernel_arg ca[] = {accel_karg_array(accel_slice_of(cx, 0, n)),
                             accel_karg_array(accel_slice_of(cy, 0, 1))};
    cr_assert_eq(accel_kernel_launch(cq, k, 2, ca), ACCEL_SUCCESS, "%s", accel_last_error());
    float yc, yg[8];
    down(cq, cy, &yc, 4);
    for (int run = 0; run < 8; run++) {
        cr_assert_eq(accel_kernel_launch(gq, k, 2, ga), ACCEL_SUCCESS, "%s", accel_last_error());
        down(gq, gy, &yg[run], 4);
        cr_assert_eq(memcmp(&yg[run], &yc, 4), 0, "run %d: GPU %.9g, CPU %.9g", run, yg[run], yc);
    }
    double exact = 0;
    for (size_t i = 0; i < n; i++)
        exact += (double)x[i] * x[i];
    cr_assert_leq(fabs((double)yg[0] - exact), 2.0 * (double)(n + 2) * 0x1p-23 * exact,
                  "%.9g vs %.17g", yg[0], exact);
    accel_buffer_release(gx);
    accel_buffer_release(gy);
    accel_buffer_release(cx);
    accel_buffer_release(cy);
    free(x);
    accel_kernel_release(k);
    accel_runtime_close(rt);
}

Test(kernel_cuda, tutorial_kernels_verbatim)
{
    need_gpu();
    const char *va_src =
        "__global__ void vector_add(const float *a, const float *b, float *c, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n)\n"
        "        c[i] = a[i] + b[i];\n"
        "}\n";
    const char *mt_src = "__global__ void multiply_them(float *dest, float *a, float *b)\n"
                         "{\n"
                         "  const int i = threadIdx.x;\n"
                         "  dest[i] = a[i] * b[i];\n"
                         "}\n";
    accel_kernel *va, *mt;
    cr_assert_eq(accel_kernel_raw_create(rt, va_src, "vector_add", NULL, &va), ACCEL_SUCCESS);
    cr_assert_eq(accel_kernel_raw_create(rt, mt_src, "multiply_them", NULL, &mt), ACCEL_SUCCESS);
    size_t n = 1000003;
    float *a = malloc(n * 4), *b = malloc(n * 4), *c = malloc(n * 4);
    tu_rng r = tu_rng_make(14);
    for (size_t i = 0; i < n; i++)
        a[i] = (float)tu_rng_unit(&r), b[i] = (float)tu_rng_unit(&r);
    accel_buffer *ba = up(gpu, gq, a, n * 4), *bb = up(gpu, gq, b, n * 4),
                 *bc = up(gpu, gq, NULL, n * 4);
    uint32_t block[3] = {256, 1, 1}, grid[3] = {(uint32_t)((n + 255) / 256), 1, 1};
    accel_kernel_arg args[] = {
        accel_karg_array(accel_slice_of(ba, 0, n)), accel_karg_array(accel_slice_of(bb, 0, n)),
        accel_karg_array(accel_slice_of(bc, 0, n)), accel_karg_i32((int32_t)n)};
    cr_assert_eq(accel_kernel_launch_grid(gq, va, grid, block, 4, args), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    down(gq, bc, c, n * 4);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(c[i], a[i] + b[i]);
    uint32_t b400[3] = {400, 1, 1}, g1[3] = {1, 1, 1};
    accel_kernel_arg margs[] = {accel_karg_array(accel_slice_of(bc, 0, 400)),
                                accel_karg_array(accel_slice_of(ba, 0, 400)),
                                accel_karg_array(accel_slice_of(bb, 0, 400))};
    cr_assert_eq(accel_kernel_launch_grid(gq, mt, g1, b400, 3, margs), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    down(gq, bc, c, 400 * 4);
    for (size_t i = 0; i < 400; i++)
        cr_assert_eq(c[i], a[i] * b[i]);
    free(a);
    free(b);
    free(c);
    accel_kernel_release(va);
    accel_kernel_release(mt);
    accel_runtime_close(rt);
}

Test(kernel_cuda, nvrtc_errors_name_the_user_line)
{
    need_gpu();
    accel_kernel *k;
    cr_assert_eq(accel_kernel_raw_create(rt, "__global__ void f(float *x)\n{\n  x[0] = oops;\n}\n",
                                         "f", NULL, &k),
                 ACCEL_SUCCESS);
    accel_status st = accel_kernel_build(k, gpu, 0);
    cr_assert_eq(st, ACCEL_ERROR_COMPILE, "%s", accel_last_error());
    cr_assert(strstr(accel_last_error(), "f(3)"), "%s", accel_last_error());
    accel_kernel_release(k);
    accel_runtime_close(rt);
}

Test(kernel_cuda, disk_cache_hit_in_a_new_runtime)
{
    need_gpu();
    accel_kernel *k;
    cr_assert_eq(
        accel_kernel_elementwise_create(rt, "sq", "float32 x", "float32 z", "z = x * x", NULL, &k),
        ACCEL_SUCCESS);
    cr_assert_eq(accel_kernel_build(k, gpu, 0), ACCEL_SUCCESS, "%s", accel_last_error());
    accel_kernel_release(k);
    accel_runtime_close(rt);
    rt = tu_open_default();
    cr_assert_eq(accel_device_get_by_name(rt, "cuda:0", &gpu), ACCEL_SUCCESS);
    cr_assert_eq(
        accel_kernel_elementwise_create(rt, "sq", "float32 x", "float32 z", "z = x * x", NULL, &k),
        ACCEL_SUCCESS);
    cr_assert_eq(accel_kernel_build(k, gpu, 0), ACCEL_SUCCESS, "%s", accel_last_error());
    accel_kernel_cache_stats s;
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    cr_assert_eq(accel_kernel_cache_stats_get(rt, &s), ACCEL_SUCCESS);
    cr_assert_eq(s.disk_hits, 1);
    cr_assert_eq(s.misses, 0);
    cr_log_info("disk-cache hit: %.3f ms", s.load_ms);
    accel_kernel_release(k);
    accel_runtime_close(rt);
}

static accel_runtime *verify_rt(void)
{
    accel_verify_options o;
    accel_verify_options_init(&o);
    o.reference = "cpu";
    o.fail_on_mismatch = true;
    cr_assert_eq(accel_verify_configure(rt, &o), ACCEL_SUCCESS, "%s", accel_last_error());
    return rt;
}

Test(kernel_cuda, verify_catches_cuda_and_c_paths_that_differ)
{
    need_gpu();
    verify_rt();
    const char *src = "__global__ void tag(float *x, int n)\n"
                      "{\n"
                      "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                      "#ifdef __CUDACC__\n"
                      "    if (i < n) x[i] = 1.0f;\n"
                      "#else\n"
                      "    if (i < n) x[i] = 2.0f;\n"
                      "#endif\n"
                      "}\n";
    accel_kernel *k;
    cr_assert_eq(accel_kernel_raw_create(rt, src, "tag", NULL, &k), ACCEL_SUCCESS);
    accel_buffer *b = up(gpu, gq, NULL, 4096);
    uint32_t g[3] = {4, 1, 1}, bl[3] = {256, 1, 1};
    accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(b, 0, 1000)), accel_karg_i32(1000)};
    cr_assert_eq(accel_kernel_launch_grid(gq, k, g, bl, 2, args), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    accel_status st = accel_queue_finish(gq);
    cr_assert_eq(st, ACCEL_ERROR_MISMATCH, "%s: %s", accel_status_name(st), accel_last_error());
    cr_assert(strstr(accel_last_error(), "kernel tag"), "%s", accel_last_error());
    accel_kernel_release(k);
    accel_runtime_close(rt);
}

Test(kernel_cuda, shared_memory_kernel_runs_and_is_cross_checked)
{
    need_gpu();
    verify_rt();
    const char *src = "__global__ void rev(float *x)\n"
                      "{\n"
                      "    __shared__ float t[256];\n"
                      "    t[threadIdx.x] = x[threadIdx.x];\n"
                      "    __syncthreads();\n"
                      "    x[threadIdx.x] = t[255 - threadIdx.x];\n"
                      "}\n";
    accel_kernel *k;
    cr_assert_eq(accel_kernel_raw_create(rt, src, "rev", NULL, &k), ACCEL_SUCCESS);
    float h[256];
    for (int i = 0; i < 256; i++)
        h[i] = (float)i;
    accel_buffer *b = up(gpu, gq, h, sizeof h);
    uint32_t g[3] = {1, 1, 1}, bl[3] = {256, 1, 1};
    accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(b, 0, 256))};
    cr_assert_eq(accel_kernel_launch_grid(gq, k, g, bl, 1, args), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    down(gq, b, h, sizeof h);
    for (int i = 0; i < 256; i++)
        cr_assert_eq(h[i], (float)(255 - i));
    accel_verify_stats vs;
    memset(&vs, 0, sizeof vs);
    vs.struct_size = sizeof vs;
    cr_assert_eq(accel_verify_stats_get(rt, &vs), ACCEL_SUCCESS);
    cr_assert_eq(vs.skipped, 0, "the twin runs shared memory and barriers");
    cr_assert_eq(vs.checked, 1);
    cr_assert_eq(vs.mismatches, 0);
    accel_kernel_release(k);
    accel_runtime_close(rt);
}
