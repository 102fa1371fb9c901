/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* kernel_bench — the speed targets of user kernels, measured and printed as
 * ratios (no pass/fail thresholds in the tests; this program says PASS or
 * MISS per target and exits 0 unless a result is wrong):
 *
 *   build, embedded compiler (CPU, tcc)     <= 5 ms per kernel
 *   disk-cache hit in a new runtime          <= 0.1 ms per kernel (the GPU target)
 *   launch host cost                          <= a built-in op's + 0.3 us
 *   elementwise y = a*x + b*y vs accel_axpby  >= 0.8 (CPU, system cc)
 *   GPU: the same kernel, 2^28 f32            >= 0.95 of device copy bandwidth
 *   GPU: cold NVRTC build                     <= raw NVRTC on the source + 2 ms
 *
 *   usage: kernel_bench [--device NAME] [--n N] [--quick]
 */
#include "common.h"

#include <accel/kernel.h>
#include <dlfcn.h>

static int failed;

static void target(const char *what, double value, const char *unit, double goal, int less)
{
    int ok = less ? value <= goal : value >= goal;
    printf("  %-52s %10.3f %-6s target %s %.3g  %s\n", what, value, unit, less ? "<=" : ">=", goal,
           ok ? "PASS" : "MISS");
}

/* A runtime with a private cache folder (or none), and its device. */
static accel_status open_rt(const char *device, const char *cache, const char *compiler,
                            accel_runtime **rt, accel_device **dev)
{
    setenv("ACCEL_KERNEL_CACHE", cache, 1);
    if (compiler)
        setenv("ACCEL_CPU_KERNEL_COMPILER", compiler, 1);
    else
        unsetenv("ACCEL_CPU_KERNEL_COMPILER");
    accel_status st = accel_runtime_open(NULL, rt);
    if (st == ACCEL_SUCCESS)
        st = device ? accel_device_get_by_name(*rt, device, dev) : accel_device_default(*rt, dev);
    return st;
}

/* Mean milliseconds per build of `count` distinct kernels on dev. */
static accel_status build_time(accel_runtime *rt, accel_device *dev, int count, int raw, double *ms)
{
    accel_status st = ACCEL_SUCCESS;
    double t0 = ex_now_ms();
    for (int i = 0; i < count && st == ACCEL_SUCCESS; i++) {
        accel_kernel *k = NULL;
        char body[64], src[256];
        snprintf(body, sizeof body, "z = x * %d.0f + 1.0f", i + 2);
        snprintf(src, sizeof src,
                 "__global__ void scale%d(float *x, int n) {\n"
                 "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "  if (i < n) x[i] *= %d.0f;\n}\n",
                 i, i + 2);
        char name[32];
        snprintf(name, sizeof name, "scale%d", i);
        st = raw ? accel_kernel_raw_create(rt, src, name, NULL, &k)
                 : accel_kernel_elementwise_create(rt, name, "float32 x", "float32 z", body, NULL,
                                                   &k);
        if (st == ACCEL_SUCCESS)
            st = accel_kernel_build(k, dev, 0);
        accel_kernel_release(k);
    }
    *ms = (ex_now_ms() - t0) / count;
    return st;
}

/* Host microseconds per enqueue of op (0: kernel, 1: accel_axpby) on n elements. */
static accel_status launch_us(accel_queue *q, accel_kernel *k, accel_buffer *x, accel_buffer *y,
                              size_t n, int builtin, double *us)
{
    accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(x, 0, n)),
                               accel_karg_array(accel_slice_of(y, 0, n)), accel_karg_f32(2.0f),
                               accel_karg_f32(0.5f), accel_karg_array(accel_slice_of(y, 0, n))};
    accel_status st = ACCEL_SUCCESS;
    const int reps = 20000;
    double best = 1e30;
    for (int round = 0; round < 5 && st == ACCEL_SUCCESS; round++) {
        double t0 = ex_now_ms();
        for (int i = 0; i < reps && st == ACCEL_SUCCESS; i++)
            st = builtin ? accel_axpby(q, ACCEL_F32, 2.0, accel_slice_of(x, 0, n), 0.5,
                                       accel_slice_of(y, 0, n))
                         : accel_kernel_launch(q, k, 5, args);
        double t = (ex_now_ms() - t0) * 1e3 / reps;
        if (st == ACCEL_SUCCESS)
            st = accel_queue_finish(q);
        best = t < best ? t : best;
    }
    *us = best;
    return st;
}

/* Device milliseconds of one run (median of 5) of the kernel or the built-in. */
static accel_status run_ms(accel_device *dev, accel_queue *q, accel_kernel *k, accel_buffer *x,
                           accel_buffer *y, size_t n, int builtin, double *ms)
{
    accel_event *e0 = NULL, *e1 = NULL;
    accel_status st = accel_event_create(dev, &e0);
    if (st == ACCEL_SUCCESS)
        st = accel_event_create(dev, &e1);
    accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(x, 0, n)),
                               accel_karg_array(accel_slice_of(y, 0, n)), accel_karg_f32(1.0f),
                               accel_karg_f32(0.5f), accel_karg_array(accel_slice_of(y, 0, n))};
    double t[5];
    for (int r = -1; r < 5 && st == ACCEL_SUCCESS; r++) {
        if ((st = accel_event_record(e0, q)))
            break;
        st = builtin ? accel_axpby(q, ACCEL_F32, 1.0, accel_slice_of(x, 0, n), 0.5,
                                   accel_slice_of(y, 0, n))
                     : accel_kernel_launch(q, k, 5, args);
        double v = 0;
        if (st == ACCEL_SUCCESS && (st = accel_event_record(e1, q)) == ACCEL_SUCCESS &&
            (st = accel_event_synchronize(e1)) == ACCEL_SUCCESS &&
            (st = accel_event_elapsed_ms(e0, e1, &v)) == ACCEL_SUCCESS && r >= 0)
            t[r] = v;
    }
    for (int i = 0; i < 5; i++)
        for (int j = i + 1; j < 5; j++)
            if (t[j] < t[i]) {
                double s = t[i];
                t[i] = t[j];
                t[j] = s;
            }
    *ms = t[2];
    accel_event_release(e0);
    accel_event_release(e1);
    return st;
}

typedef int (*nvrtc_create_fn)(void **, const char *, const char *, int, const char *const *,
                               const char *const *);
typedef int (*nvrtc_compile_fn)(void *, int, const char *const *);
typedef int (*nvrtc_destroy_fn)(void **);

/* Milliseconds of raw NVRTC on src for sm_<cc> with accel's options; < 0: no NVRTC. */
static double raw_nvrtc_ms(const char *src, unsigned cc)
{
    void *lib = dlopen("libnvrtc.so.13", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        lib = dlopen("libnvrtc.so.12", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return -1;
    nvrtc_create_fn create;
    nvrtc_compile_fn compile;
    nvrtc_destroy_fn destroy;
    void *p = dlsym(lib, "nvrtcCreateProgram");
    memcpy(&create, &p, sizeof p);
    p = dlsym(lib, "nvrtcCompileProgram");
    memcpy(&compile, &p, sizeof p);
    p = dlsym(lib, "nvrtcDestroyProgram");
    memcpy(&destroy, &p, sizeof p);
    if (!create || !compile || !destroy)
        return -1;
    char arch[48];
    snprintf(arch, sizeof arch, "--gpu-architecture=sm_%u", cc);
    const char *opts[] = {arch, "--fmad=false", "--std=c++17"};
    double best = 1e30;
    for (int i = 0; i < 3; i++) {
        void *prog = NULL;
        double t0 = ex_now_ms();
        if (create(&prog, src, "k", 0, NULL, NULL) != 0 || compile(prog, 3, opts) != 0)
            return -1;
        double t = ex_now_ms() - t0;
        destroy(&prog);
        best = t < best ? t : best;
    }
    return best;
}

int main(int argc, char **argv)
{
    int rc = 1;
    accel_runtime *rt = NULL;
    accel_device *dev = NULL;
    accel_queue *q = NULL;
    accel_kernel *k = NULL;
    accel_buffer *x = NULL, *y = NULL;
    ex_opt opts[] = {{"quick", NULL, "small sizes and few repeats", NULL},
                     {"n", "N", "elements of the bandwidth rows", NULL},
                     {NULL, NULL, NULL, NULL}};
    ex_parse(argc, argv, "[--device NAME] [--quick] [--n N]", opts, 0);
    const char *device = ex_device_name;
    int quick = ex_opt_value(opts, "quick") != NULL;
    char tmpl[] = "/tmp/accel-kbench-XXXXXX";
    if (!mkdtemp(tmpl)) {
        perror("mkdtemp");
        return 1;
    }
    char cache[64];
    snprintf(cache, sizeof cache, "%s/cache", tmpl);
    int count = quick ? 2 : 8;
    double ms;

    CHECK(open_rt(device, "off", NULL, &rt, &dev));
    int gpu = ex_is_gpu(dev);
    accel_device_properties props;
    accel_device_properties_init(&props);
    CHECK(accel_device_properties_get(dev, &props));
    printf("kernel_bench on %s (%s)\n", accel_device_name(dev), props.name);
    accel_runtime_close(rt);
    rt = NULL;

    printf("builds:\n");
    accel_device *cpu = NULL;
    CHECK(open_rt("cpu", "off", "tcc", &rt, &cpu));
    CHECK(build_time(rt, cpu, count, 0, &ms));
    target("CPU build, embedded compiler (tcc), ms/kernel", ms, "ms", 5.0, 1);
    accel_runtime_close(rt);
    rt = NULL;
    if (open_rt("cpu", "off", "cc", &rt, &cpu) == ACCEL_SUCCESS &&
        build_time(rt, cpu, count, 0, &ms) == ACCEL_SUCCESS)
        printf("  %-52s %10.3f ms\n", "CPU build, system cc -O2, ms/kernel", ms);
    accel_runtime_close(rt);
    rt = NULL;

    /* Cold build into the cache, then a new runtime loading from disk. */
    double cold = 0;
    CHECK(open_rt(device, cache, NULL, &rt, &dev));
    CHECK(build_time(rt, dev, count, 1, &cold));
    accel_runtime_close(rt);
    rt = NULL;
    CHECK(open_rt(device, cache, NULL, &rt, &dev));
    CHECK(build_time(rt, dev, count, 1, &ms));
    accel_kernel_cache_stats cs;
    memset(&cs, 0, sizeof cs);
    cs.struct_size = sizeof cs;
    CHECK(accel_kernel_cache_stats_get(rt, &cs));
    printf("  %-52s %10.3f ms\n", "cold build (raw kernel, this device), ms/kernel", cold);
    target("disk-cache hit in a new runtime, ms/kernel (load)",
           cs.disk_hits ? cs.load_ms / (double)cs.disk_hits : -1, "ms", 0.1, 1);
    printf("  %-52s %10.3f ms  (%llu hits)\n", "  ... whole accel_kernel_build call", ms,
           (unsigned long long)cs.disk_hits);
    if (gpu) {
        const char *src = "__global__ void scale0(float *x, int n) {\n"
                          "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                          "  if (i < n) x[i] *= 2.0f;\n}\n";
        char wrapped[512];
        snprintf(wrapped, sizeof wrapped, "extern \"C\" {\n%s}\n", src);
        double raw = raw_nvrtc_ms(wrapped, props.compute_capability);
        if (raw >= 0)
            target("cold build - raw NVRTC on the same source", cold - raw, "ms", 2.0, 1);
    }
    accel_runtime_close(rt);
    rt = NULL;

    /* Launch cost and throughput: y = a*x + b*y in place, against accel_axpby. */
    CHECK(open_rt(device, cache, NULL, &rt, &dev));
    CHECK(accel_queue_create(dev, &q));
    CHECK(accel_kernel_elementwise_create(rt, "axpby", "float32 x, float32 y, float32 a, float32 b",
                                          "float32 z", "z = a * x + b * y", NULL, &k));
    size_t n = ex_opt_size(opts, "n",
                           gpu     ? ((size_t)1 << 28)
                           : quick ? ((size_t)1 << 20)
                                   : ((size_t)1 << 24));
    CHECK(accel_buffer_create(dev, n * 4, &x));
    CHECK(accel_buffer_create(dev, n * 4, &y));
    CHECK(accel_random_uniform(q, ACCEL_F32, 1, 0, accel_slice_of(x, 0, n)));
    CHECK(accel_random_uniform(q, ACCEL_F32, 2, 0, accel_slice_of(y, 0, n)));
    CHECK(accel_kernel_build(k, dev, 0xc)); /* a and b are scalars */
    printf("launches (host time per enqueue, 1 element):\n");
    double us_k, us_b;
    CHECK(launch_us(q, k, x, y, 1, 0, &us_k));
    CHECK(launch_us(q, k, x, y, 1, 1, &us_b));
    printf("  %-52s %10.3f us\n", "built-in accel_axpby", us_b);
    printf("  %-52s %10.3f us\n", "user kernel z = a*x + b*y", us_k);
    target("user kernel launch - built-in op", us_k - us_b, "us", 0.3, 1);

    printf("throughput (%zu f32, in place, device time):\n", n);
    double ms_k, ms_b;
    CHECK(run_ms(dev, q, k, x, y, n, 0, &ms_k));
    CHECK(run_ms(dev, q, k, x, y, n, 1, &ms_b));
    double bytes = 12.0 * (double)n;
    printf("  %-52s %10.3f ms  %8.1f GB/s\n", "built-in accel_axpby", ms_b, ex_gbps(bytes, ms_b));
    printf("  %-52s %10.3f ms  %8.1f GB/s\n", "user kernel", ms_k, ex_gbps(bytes, ms_k));
    if (!gpu)
        target("user kernel / built-in (time ratio, built-in / kernel)", ms_b / ms_k, "x", 0.8, 0);
    if (gpu) {
        accel_ceilings_options o;
        accel_ceilings_options_init(&o);
        o.what = ACCEL_CEILING_COPY;
        accel_ceilings c;
        memset(&c, 0, sizeof c);
        c.struct_size = sizeof c;
        if (accel_device_measure_ceilings(dev, &o, &c) == ACCEL_SUCCESS && c.copy_gbs > 0)
            target("user kernel GB/s / device copy GB/s", ex_gbps(bytes, ms_k) / c.copy_gbs, "x",
                   0.95, 0);
    }
    /* The kernel's result must be right: one more launch, checked on the host. */
    {
        size_t m = n < 4096 ? n : 4096;
        float hx[4096], hy[4096], hz[4096];
        CHECK(accel_queue_read_blocking(q, x, 0, hx, m * 4));
        CHECK(accel_queue_read_blocking(q, y, 0, hy, m * 4));
        accel_kernel_arg args[] = {
            accel_karg_array(accel_slice_of(x, 0, m)), accel_karg_array(accel_slice_of(y, 0, m)),
            accel_karg_f32(3.0f), accel_karg_f32(0.25f), accel_karg_array(accel_slice_of(y, 0, m))};
        CHECK(accel_kernel_launch(q, k, 5, args));
        CHECK(accel_queue_read_blocking(q, y, 0, hz, m * 4));
        for (size_t i = 0; i < m; i++)
            if (hz[i] != 3.0f * hx[i] + 0.25f * hy[i])
                failed = 1;
        printf("result check: %s\n", failed ? "WRONG" : "ok");
    }
    rc = failed;
done:
    accel_buffer_release(x);
    accel_buffer_release(y);
    accel_kernel_release(k);
    accel_queue_release(q);
    accel_runtime_close(rt);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpl);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpl);
    return rc;
}
