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
 *   reduction: sum of x*x over the range       GB/s against the device's read (printed)
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

/* Kernel number i of a build series: distinct sources, so each is a miss. */
static accel_status make_kernel(accel_runtime *rt, int i, int raw, accel_kernel **k)
{
    char body[64], src[256], name[32];
    snprintf(body, sizeof body, "z = x * %d.0f + 1.0f", i + 2);
    snprintf(src, sizeof src,
             "__global__ void scale%d(float *x, int n) {\n"
             "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "  if (i < n) x[i] *= %d.0f;\n}\n",
             i, i + 2);
    snprintf(name, sizeof name, "scale%d", i);
    return raw ? accel_kernel_raw_create(rt, src, name, NULL, k)
               : accel_kernel_elementwise_create(rt, name, "float32 x", "float32 z", body, NULL, k);
}

/* Mean milliseconds per build of kernels first..first+count-1 on dev. */
static accel_status build_time(accel_runtime *rt, accel_device *dev, int first, int count, int raw,
                               double *ms)
{
    accel_status st = ACCEL_SUCCESS;
    double t0 = ex_now_ms();
    for (int i = first; i < first + count && st == ACCEL_SUCCESS; i++) {
        accel_kernel *k = NULL;
        st = make_kernel(rt, i, raw, &k);
        if (st == ACCEL_SUCCESS)
            st = accel_kernel_build(k, dev, 0);
        accel_kernel_release(k);
    }
    *ms = (ex_now_ms() - t0) / count;
    return st;
}

/* Host microseconds per enqueue of one batch of `reps` launches of the
 * kernel (builtin 0) or of accel_axpby (builtin 1) on n elements; the queue
 * is drained after the batch, outside the timing. */
static accel_status launch_batch_us(accel_queue *q, accel_kernel *k, accel_buffer *x,
                                    accel_buffer *y, size_t n, int builtin, int reps, double *us)
{
    accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(x, 0, n)),
                               accel_karg_array(accel_slice_of(y, 0, n)), accel_karg_f32(2.0f),
                               accel_karg_f32(0.5f), accel_karg_array(accel_slice_of(y, 0, n))};
    accel_status st = ACCEL_SUCCESS;
    double t0 = ex_now_ms();
    for (int i = 0; i < reps && st == ACCEL_SUCCESS; i++)
        st = builtin ? accel_axpby(q, ACCEL_F32, 2.0, accel_slice_of(x, 0, n), 0.5,
                                   accel_slice_of(y, 0, n))
                     : accel_kernel_launch(q, k, 5, args);
    *us = (ex_now_ms() - t0) * 1e3 / reps;
    if (st == ACCEL_SUCCESS)
        st = accel_queue_finish(q);
    return st;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#define LAUNCH_ROUNDS 9

/* The launch row: LAUNCH_ROUNDS rounds, each a batch of user-kernel
 * launches and a batch of accel_axpby (the order alternating by round), so
 * that a slow phase of the machine lands on both; the median of the
 * per-round differences, with their spread, and the medians of each. */
static accel_status launch_row(accel_queue *q, accel_kernel *k, accel_buffer *x, accel_buffer *y)
{
    const int reps = 20000;
    double uk[LAUNCH_ROUNDS], ub[LAUNCH_ROUNDS], diff[LAUNCH_ROUNDS];
    accel_status st = ACCEL_SUCCESS;
    double warm;
    st = launch_batch_us(q, k, x, y, 1, 0, reps / 4, &warm);
    if (st == ACCEL_SUCCESS)
        st = launch_batch_us(q, k, x, y, 1, 1, reps / 4, &warm);
    for (int r = 0; r < LAUNCH_ROUNDS && st == ACCEL_SUCCESS; r++) {
        int first = r & 1;
        double t[2] = {0, 0};
        st = launch_batch_us(q, k, x, y, 1, first, reps, &t[first]);
        if (st == ACCEL_SUCCESS)
            st = launch_batch_us(q, k, x, y, 1, !first, reps, &t[!first]);
        uk[r] = t[0];
        ub[r] = t[1];
        diff[r] = t[0] - t[1];
    }
    if (st != ACCEL_SUCCESS)
        return st;
    qsort(uk, LAUNCH_ROUNDS, sizeof uk[0], cmp_double);
    qsort(ub, LAUNCH_ROUNDS, sizeof ub[0], cmp_double);
    qsort(diff, LAUNCH_ROUNDS, sizeof diff[0], cmp_double);
    const int m = LAUNCH_ROUNDS / 2;
    printf("launches (host time per enqueue, 1 element; median of %d interleaved rounds of %d, "
           "min..max):\n",
           LAUNCH_ROUNDS, reps);
    printf("  %-52s %10.3f us  (%.3f..%.3f)\n", "built-in accel_axpby", ub[m], ub[0],
           ub[LAUNCH_ROUNDS - 1]);
    printf("  %-52s %10.3f us  (%.3f..%.3f)\n", "user kernel z = a*x + b*y", uk[m], uk[0],
           uk[LAUNCH_ROUNDS - 1]);
    target("user kernel launch - built-in op (per-round median)", diff[m], "us", 0.3, 1);
    printf("  %-52s %10s     (%.3f..%.3f)\n", "  ... spread of the per-round differences", "",
           diff[0], diff[LAUNCH_ROUNDS - 1]);
    return ACCEL_SUCCESS;
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

/* Device milliseconds (median of 5) of the whole-range reduction k over x[0, n) into y[0]. */
static accel_status reduce_ms(accel_device *dev, accel_queue *q, accel_kernel *k, accel_buffer *x,
                              accel_buffer *y, size_t n, double *ms)
{
    accel_event *e0 = NULL, *e1 = NULL;
    accel_status st = accel_event_create(dev, &e0);
    if (st == ACCEL_SUCCESS)
        st = accel_event_create(dev, &e1);
    accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(x, 0, n)),
                               accel_karg_array(accel_slice_of(y, 0, 1))};
    double t[5] = {0, 0, 0, 0, 0};
    for (int r = -1; r < 5 && st == ACCEL_SUCCESS; r++) {
        double v = 0;
        if ((st = accel_event_record(e0, q)) == ACCEL_SUCCESS &&
            (st = accel_kernel_launch(q, k, 2, args)) == ACCEL_SUCCESS &&
            (st = accel_event_record(e1, q)) == ACCEL_SUCCESS &&
            (st = accel_event_synchronize(e1)) == ACCEL_SUCCESS &&
            (st = accel_event_elapsed_ms(e0, e1, &v)) == ACCEL_SUCCESS && r >= 0)
            t[r] = v;
    }
    qsort(t, 5, sizeof t[0], cmp_double);
    *ms = t[2];
    accel_event_release(e0);
    accel_event_release(e1);
    return st;
}

typedef int (*nvrtc_create_fn)(void **, const char *, const char *, int, const char *const *,
                               const char *const *);
typedef int (*nvrtc_compile_fn)(void *, int, const char *const *);
typedef int (*nvrtc_size_fn)(void *, size_t *);
typedef int (*nvrtc_get_fn)(void *, char *);
typedef int (*nvrtc_destroy_fn)(void **);

/* Raw NVRTC, opened by this program: the baseline of the cold build. */
typedef struct raw_nvrtc {
    nvrtc_create_fn create;
    nvrtc_compile_fn compile;
    nvrtc_size_fn cubin_size;
    nvrtc_get_fn cubin;
    nvrtc_destroy_fn destroy;
    double open_ms; /* dlopen and symbol lookup */
} raw_nvrtc;

static void *resolve(void *lib, const char *name)
{
    return dlsym(lib, name);
}

static int raw_open(raw_nvrtc *r)
{
    static const char *const names[] = {"libnvrtc.so.13", "libnvrtc.so.12",
                                        "/usr/local/cuda/lib64/libnvrtc.so.13",
                                        "/usr/local/cuda/lib64/libnvrtc.so.12"};
    double t0 = ex_now_ms();
    void *lib = NULL;
    for (size_t i = 0; !lib && i < sizeof names / sizeof names[0]; i++)
        lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return 0;
    void *p = resolve(lib, "nvrtcCreateProgram");
    memcpy(&r->create, &p, sizeof p);
    p = resolve(lib, "nvrtcCompileProgram");
    memcpy(&r->compile, &p, sizeof p);
    p = resolve(lib, "nvrtcGetCUBINSize");
    memcpy(&r->cubin_size, &p, sizeof p);
    p = resolve(lib, "nvrtcGetCUBIN");
    memcpy(&r->cubin, &p, sizeof p);
    p = resolve(lib, "nvrtcDestroyProgram");
    memcpy(&r->destroy, &p, sizeof p);
    r->open_ms = ex_now_ms() - t0;
    return r->create && r->compile && r->cubin_size && r->cubin && r->destroy;
}

/* Milliseconds of raw NVRTC compiling src to a cubin for sm_<cc> with the
 * options the CUDA backend passes (backends/cuda/nvrtc.c); < 0: failed. */
static double raw_compile_ms(const raw_nvrtc *r, const char *src, unsigned cc)
{
    char arch[48];
    snprintf(arch, sizeof arch, "--gpu-architecture=sm_%u", cc);
    const char *opts[] = {arch, "--fmad=false", "--std=c++17"};
    void *prog = NULL;
    double t0 = ex_now_ms();
    if (r->create(&prog, src, "k", 0, NULL, NULL) != 0)
        return -1;
    int ok = r->compile(prog, 3, opts) == 0;
    size_t size = 0;
    char *bin = NULL;
    if (ok && r->cubin_size(prog, &size) == 0 && size && (bin = malloc(size)))
        ok = r->cubin(prog, bin) == 0;
    double t = ex_now_ms() - t0;
    free(bin);
    r->destroy(&prog);
    return ok ? t : -1;
}

/* Cold builds on a GPU, in phases. NVRTC costs once per process (mapping the
 * library, starting the compiler): that is printed on its own, paid by this
 * program's raw baseline first, so the accel builds after it and the raw
 * compiles they are held against both run warm, on the same generated
 * sources (accel_kernel_source_get) with the same options. */
static accel_status gpu_cold_phases(const char *device, const char *cache, unsigned cc, int count)
{
    raw_nvrtc r;
    memset(&r, 0, sizeof r);
    if (!raw_open(&r)) {
        printf("  (no libnvrtc for the raw baseline: phases not measured)\n");
        return ACCEL_SUCCESS;
    }
    accel_runtime *rt = NULL;
    accel_device *dev = NULL;
    accel_status st = open_rt(device, cache, NULL, &rt, &dev);
    for (int raw = 1; raw >= 0 && st == ACCEL_SUCCESS; raw--) {
        /* Kernels 100+ (raw) and 200+ (elementwise): not in the cache yet. */
        int first = raw ? 100 : 200;
        double raw_ms = 0, raw_first = 0;
        for (int i = first - 1; i < first + count && st == ACCEL_SUCCESS; i++) {
            accel_kernel *k = NULL;
            char *src = NULL;
            size_t len = 0;
            st = make_kernel(rt, i, raw, &k);
            if (st == ACCEL_SUCCESS)
                st = accel_kernel_source_get(k, dev, 0, NULL, 0, &len);
            if (st == ACCEL_SUCCESS && !(src = malloc(len + 1)))
                st = ACCEL_ERROR_OUT_OF_HOST_MEMORY;
            if (st == ACCEL_SUCCESS)
                st = accel_kernel_source_get(k, dev, 0, src, len + 1, NULL);
            double t = st == ACCEL_SUCCESS ? raw_compile_ms(&r, src, cc) : -1;
            if (t < 0 && st == ACCEL_SUCCESS) {
                printf("  raw NVRTC failed on the generated source of %s\n", accel_kernel_name(k));
                st = ACCEL_ERROR_COMPILE;
            }
            if (i == first - 1)
                raw_first = t;
            else
                raw_ms += t / count;
            free(src);
            accel_kernel_release(k);
        }
        if (st != ACCEL_SUCCESS)
            break;
        accel_kernel_cache_stats c0, c1;
        memset(&c0, 0, sizeof c0);
        c0.struct_size = sizeof c0;
        c1 = c0;
        double first_ms = 0, ms = 0;
        st = build_time(rt, dev, first - 1, 1, raw, &first_ms);
        if (st == ACCEL_SUCCESS)
            st = accel_kernel_cache_stats_get(rt, &c0);
        if (st == ACCEL_SUCCESS)
            st = build_time(rt, dev, first, count, raw, &ms);
        if (st == ACCEL_SUCCESS)
            st = accel_kernel_cache_stats_get(rt, &c1);
        if (st != ACCEL_SUCCESS)
            break;
        double backend = (c1.compile_ms - c0.compile_ms) / count;
        if (raw) {
            printf("  %-52s %10.3f ms\n", "NVRTC first use: dlopen (raw, once per process)",
                   r.open_ms);
            printf("  %-52s %10.3f ms\n", "NVRTC first use: first compile - a warm one (raw)",
                   raw_first - raw_ms);
            printf("  %-52s %10.3f ms\n", "accel's first GPU build here (NVRTC mapped)", first_ms);
        }
        printf("  %s kernels, cold, mean of %d (warm NVRTC):\n", raw ? "raw" : "elementwise",
               count);
        printf("  %-52s %10.3f ms\n", "  raw NVRTC: compile + cubin, same source/options", raw_ms);
        printf("  %-52s %10.3f ms\n", "  accel_kernel_build, whole call", ms);
        printf("  %-52s %10.3f ms\n", "  ... backend program_build (NVRTC, cubin, load)", backend);
        printf("  %-52s %10.3f ms\n", "  ... core (codegen, SHA-256, cache write)", ms - backend);
        printf("  %-52s %10.3f ms\n", "  ... backend - raw (module load, options)",
               backend - raw_ms);
        if (raw)
            target("  cold build - raw NVRTC on the same source", ms - raw_ms, "ms", 2.0, 1);
        else
            printf("  %-52s %10.3f ms\n", "  cold build - raw NVRTC on the same source",
                   ms - raw_ms);
    }
    accel_runtime_close(rt);
    return st;
}

int main(int argc, char **argv)
{
    int rc = 1;
    accel_runtime *rt = NULL;
    accel_device *dev = NULL;
    accel_queue *q = NULL;
    accel_kernel *k = NULL;
    accel_buffer *x = NULL, *y = NULL;
    ex_opt opts[] = {{"n", "N", "elements of the bandwidth rows", NULL, NULL},
                     {NULL, NULL, NULL, NULL, NULL}};
    ex_parse(argc, argv, "[--device NAME] [--quick] [--n N]", opts, 0);
    const char *device = ex_device_name;
    int quick = ex_quick; /* small sizes and few repeats */
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
    CHECK(build_time(rt, cpu, 0, count, 0, &ms));
    target("CPU build, embedded compiler (tcc), ms/kernel", ms, "ms", 5.0, 1);
    accel_runtime_close(rt);
    rt = NULL;
    if (open_rt("cpu", "off", "cc", &rt, &cpu) == ACCEL_SUCCESS &&
        build_time(rt, cpu, 0, count, 0, &ms) == ACCEL_SUCCESS)
        printf("  %-52s %10.3f ms\n", "CPU build, system cc -O2, ms/kernel", ms);
    accel_runtime_close(rt);
    rt = NULL;

    /* First (it must pay NVRTC's first use itself): the cold-build phases. */
    if (gpu) {
        printf("cold GPU builds in phases:\n");
        if (gpu_cold_phases(device, cache, props.compute_capability, count) != ACCEL_SUCCESS)
            printf("  phases not measured: %s\n", accel_last_error());
    }
    /* Cold build into the cache, then a new runtime loading from disk. */
    double cold = 0;
    CHECK(open_rt(device, cache, NULL, &rt, &dev));
    CHECK(build_time(rt, dev, 0, count, 1, &cold));
    accel_runtime_close(rt);
    rt = NULL;
    CHECK(open_rt(device, cache, NULL, &rt, &dev));
    CHECK(build_time(rt, dev, 0, count, 1, &ms));
    accel_kernel_cache_stats cs;
    memset(&cs, 0, sizeof cs);
    cs.struct_size = sizeof cs;
    CHECK(accel_kernel_cache_stats_get(rt, &cs));
    printf("  %-52s %10.3f ms\n", "cold build (raw kernel, this device), ms/kernel", cold);
    target("disk-cache hit in a new runtime, ms/kernel (load)",
           cs.disk_hits ? cs.load_ms / (double)cs.disk_hits : -1, "ms", 0.1, 1);
    printf("  %-52s %10.3f ms  (%llu hits)\n", "  ... whole accel_kernel_build call", ms,
           (unsigned long long)cs.disk_hits);
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
    CHECK(launch_row(q, k, x, y));

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
    /* A whole-range reduction: sum of squares over x, against the device's
     * plain read bandwidth (a sum loop or kernel). */
    {
        accel_kernel *kr = NULL;
        accel_buffer *ys = NULL;
        double ms_r = 0;
        CHECK(accel_kernel_reduction_create(rt, "sumsq", "float32 x", "float32 y", "x * x", "a + b",
                                            "0", "a", NULL, &kr));
        accel_status st = accel_buffer_create(dev, 4, &ys);
        if (st == ACCEL_SUCCESS)
            st = reduce_ms(dev, q, kr, x, ys, n, &ms_r);
        float got = 0;
        if (st == ACCEL_SUCCESS)
            st = accel_queue_read_blocking(q, ys, 0, &got, 4);
        accel_kernel_release(kr);
        accel_buffer_release(ys);
        CHECK(st);
        printf("reduction (sum of x*x over %zu f32, one output, device time):\n", n);
        printf("  %-52s %10.3f ms  %8.1f GB/s\n", "user reduction kernel", ms_r,
               ex_gbps(4.0 * (double)n, ms_r));
        accel_ceilings_options o;
        accel_ceilings_options_init(&o);
        o.what = ACCEL_CEILING_COPY;
        accel_ceilings c;
        memset(&c, 0, sizeof c);
        c.struct_size = sizeof c;
        if (accel_device_measure_ceilings(dev, &o, &c) == ACCEL_SUCCESS && c.read_gbs > 0)
            printf("  %-52s %10.3f x     (device read %.1f GB/s)\n",
                   "user reduction GB/s / device read GB/s",
                   ex_gbps(4.0 * (double)n, ms_r) / c.read_gbs, c.read_gbs);
        /* x is uniform in [0, 1): the sum of squares is about n / 3. */
        double want = (double)n / 3.0;
        if (!(got > 0.99 * want && got < 1.01 * want)) {
            printf("  reduction result %.6g, expected about %.6g: WRONG\n", got, want);
            failed = 1;
        }
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
