/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* launch_diag.cu — where the host time of a user-kernel launch goes on CUDA
 * (built only with the CUDA backend; a program, not a test). One process
 * times, in interleaved rounds (the order rotating by round), the host time
 * per enqueue of a 1-element z = a*x + b*y launched as:
 *
 *   a   cuLaunchKernel of the NVRTC cubin's function (the source accel
 *       generates, compiled here with accel's options, loaded as accel loads
 *       it: cudaLibraryLoadData + cuKernelGetFunction), kernelParams array
 *   a2  the same cubin through cuModuleLoadData (a context's module)
 *   b   the function of a, one packed argument buffer (`extra`,
 *       CU_LAUNCH_PARAM_BUFFER_POINTER)
 *   c   the built-in axpby kernel's own launch (accel_cuda__launch_axpby,
 *       compiled into this program from backends/cuda/kernels_elementwise.cu)
 *   d   accel_axpby
 *   e   accel_kernel_launch of the same user kernel
 *
 * all on accel's queue's stream and buffers (accel_queue_native_stream,
 * accel_buffer_native_pointer). Each round runs every form as a batch of
 * --reps launches (the stream drained after each batch, outside the timing)
 * and a batch of --small launches (well inside the driver's queue depth, so
 * the host never waits for the GPU). Printed: each form's median over the
 * rounds with min..max, and per-round differences: e - d (the target),
 * a - c and b - c (the driver's share: same launch call, other function and
 * arguments), e - a and d - c (accel's own code above the driver call, core
 * and backend, each against its raw launch: the "stub" cost). Plus the device
 * time per kernel over a batch (CUDA events), to show whether a batch is
 * host-bound.
 *
 *   launch_diag [--device cuda:0] [--rounds 9] [--reps 20000] [--small 200]
 *               [--forms a,a2,b,c,d,e] [--device-rows 1] [--copies 0]
 *
 * --copies K adds K forms a#1..a#K: form a on K further library loads of
 * the same cubin (each its own function object in the driver). */
#include <accel/accel.h>
#include <accel/kernel.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cuda_internal.h"

namespace
{

double now_us()
{
    return std::chrono::duration<double, std::micro>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

const char *opt_str(int argc, char **argv, const char *name, const char *def)
{
    for (int i = 1; i + 1 < argc; i++)
        if (std::strcmp(argv[i], name) == 0)
            return argv[i + 1];
    return def;
}

int fail(const char *what, const char *why)
{
    std::fprintf(stderr, "launch_diag: %s: %s\n", what, why);
    return 1;
}

#define ACC(call)                                                                                  \
    do {                                                                                           \
        if ((call) != ACCEL_SUCCESS)                                                               \
            return fail(#call, accel_last_error());                                                \
    } while (0)
#define CU(call)                                                                                   \
    do {                                                                                           \
        CUresult r_ = (call);                                                                      \
        if (r_ != CUDA_SUCCESS) {                                                                  \
            std::fprintf(stderr, "launch_diag: %s: CUresult %d\n", #call, (int)r_);                \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)
#define RT(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess)                                                                     \
            return fail(#call, cudaGetErrorString(e_));                                            \
    } while (0)

/* The driver entries used here, through the runtime (no link to libcuda, as
 * the CUDA backend does it). */
struct Driver {
    CUresult(CUDAAPI *launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                              unsigned, unsigned, CUstream, void **, void **);
    CUresult(CUDAAPI *kernel_function)(CUfunction *, CUkernel);
    CUresult(CUDAAPI *module_load)(CUmodule *, const void *);
    CUresult(CUDAAPI *module_function)(CUfunction *, CUmodule, const char *);
    CUresult(CUDAAPI *module_unload)(CUmodule);
} drv;

template <typename F> int entry(const char *name, F *fn)
{
    void *p = nullptr;
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess || !p)
        return fail(name, "no driver entry point");
    std::memcpy(fn, &p, sizeof p);
    return 0;
}

struct Stats {
    double med, lo, hi;
};

Stats stats(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v.front(), v.back()};
}

/* How a form launches. */
enum Kind { RAW, PACKED, BUILTIN, ACCEL_AXPBY, ACCEL_KERNEL };

struct FormDef {
    std::string key, name;
    Kind kind;
    CUfunction f; /* RAW, PACKED */
};

/* The per-round differences printed (when both forms run). */
struct Diff {
    const char *x, *y, *name;
};
const Diff diffs[] = {{"e", "d", "e - d  user kernel - accel_axpby (the target, <= 0.3)"},
                      {"a", "c", "a - c  driver: NVRTC function - built-in function"},
                      {"b", "c", "b - c  driver: NVRTC function packed - built-in function"},
                      {"b", "a", "b - a  driver: packed `extra` - kernelParams"},
                      {"e", "a", "e - a  accel's own, user kernel (core + backend above driver)"},
                      {"d", "c", "d - c  accel's own, built-in op (core + backend above driver)"},
                      {"a2", "a", "a2 - a module function - library function"}};
constexpr int NDIFFS = sizeof diffs / sizeof diffs[0];

struct Ctx {
    accel_queue *q;
    accel_kernel *k;
    accel_buffer *x, *y;
    cudaStream_t stream;
    void *px, *py;
    float alpha, beta;
    size_t n;
    unsigned char packed[40];
    size_t packed_size;
};

/* One launch of form f; 0 on success. */
int launch_one(Ctx &c, const FormDef &f)
{
    switch (f.kind) {
    case RAW: {
        void *params[] = {&c.px, &c.py, &c.alpha, &c.beta, &c.py, &c.n};
        return drv.launch(f.f, 1, 1, 1, 256, 1, 1, 0, (CUstream)c.stream, params, nullptr) !=
               CUDA_SUCCESS;
    }
    case PACKED: {
        void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, c.packed, CU_LAUNCH_PARAM_BUFFER_SIZE,
                         &c.packed_size, CU_LAUNCH_PARAM_END};
        return drv.launch(f.f, 1, 1, 1, 256, 1, 1, 0, (CUstream)c.stream, nullptr, extra) !=
               CUDA_SUCCESS;
    }
    case BUILTIN:
        return accel_cuda__launch_axpby(c.stream, 1024, ACCEL_F32, 2.0, c.px, 0.5, c.py, c.n) !=
               cudaSuccess;
    case ACCEL_AXPBY:
        return accel_axpby(c.q, ACCEL_F32, 2.0, accel_slice_of(c.x, 0, c.n), 0.5,
                           accel_slice_of(c.y, 0, c.n)) != ACCEL_SUCCESS;
    case ACCEL_KERNEL: {
        accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(c.x, 0, c.n)),
                                   accel_karg_array(accel_slice_of(c.y, 0, c.n)),
                                   accel_karg_f32(2.0f), accel_karg_f32(0.5f),
                                   accel_karg_array(accel_slice_of(c.y, 0, c.n))};
        return accel_kernel_launch(c.q, c.k, 5, args) != ACCEL_SUCCESS;
    }
    }
    return 1;
}

int launch_fail(const FormDef &f)
{
    return fail(f.name.c_str(), f.kind == ACCEL_AXPBY || f.kind == ACCEL_KERNEL
                                    ? accel_last_error()
                                    : "the launch failed");
}

/* Host us per launch of a batch of reps launches of form f (drained after). */
int batch_us(Ctx &c, const FormDef &f, int reps, double *us)
{
    double t0 = now_us();
    for (int i = 0; i < reps; i++)
        if (launch_one(c, f))
            return launch_fail(f);
    *us = (now_us() - t0) / reps;
    RT(cudaStreamSynchronize(c.stream));
    return 0;
}

/* Device us per kernel over a batch of reps launches of form f. */
int device_us(Ctx &c, const FormDef &f, int reps, double *us)
{
    cudaEvent_t e0, e1;
    RT(cudaEventCreate(&e0));
    RT(cudaEventCreate(&e1));
    RT(cudaEventRecord(e0, c.stream));
    for (int i = 0; i < reps; i++)
        if (launch_one(c, f))
            return launch_fail(f);
    RT(cudaEventRecord(e1, c.stream));
    RT(cudaEventSynchronize(e1));
    float ms = 0;
    RT(cudaEventElapsedTime(&ms, e0, e1));
    *us = ms * 1e3 / reps;
    RT(cudaEventDestroy(e0));
    RT(cudaEventDestroy(e1));
    return 0;
}

/* The generated source of k compiled as the CUDA backend compiles it
 * (backends/cuda/nvrtc.c: -arch=sm_XY, --fmad=false, --std=c++17). */
int compile(const std::string &src, int cc, std::vector<char> *cubin)
{
    nvrtcProgram prog;
    if (nvrtcCreateProgram(&prog, src.c_str(), "k", 0, nullptr, nullptr) != NVRTC_SUCCESS)
        return fail("nvrtcCreateProgram", "failed");
    std::string arch = "--gpu-architecture=sm_" + std::to_string(cc);
    const char *opts[] = {arch.c_str(), "--fmad=false", "--std=c++17"};
    nvrtcResult r = nvrtcCompileProgram(prog, 3, opts);
    size_t size = 0;
    if (r == NVRTC_SUCCESS)
        r = nvrtcGetCUBINSize(prog, &size);
    if (r == NVRTC_SUCCESS) {
        cubin->resize(size);
        r = nvrtcGetCUBIN(prog, cubin->data());
    }
    nvrtcDestroyProgram(&prog);
    return r == NVRTC_SUCCESS ? 0 : fail("nvrtc", nvrtcGetErrorString(r));
}

void row(const char *name, const std::vector<double> &v)
{
    Stats s = stats(v);
    std::printf("  %-62s %7.3f us  (%.3f..%.3f)\n", name, s.med, s.lo, s.hi);
}

} // namespace

int main(int argc, char **argv)
{
    const char *device = opt_str(argc, argv, "--device", "cuda:0");
    const int rounds = std::atoi(opt_str(argc, argv, "--rounds", "9"));
    const int reps = std::atoi(opt_str(argc, argv, "--reps", "20000"));
    const int small = std::atoi(opt_str(argc, argv, "--small", "200"));
    const char *forms = opt_str(argc, argv, "--forms", "a,a2,b,c,d,e");
    const bool device_rows = std::atoi(opt_str(argc, argv, "--device-rows", "1")) != 0;
    const int copies = std::atoi(opt_str(argc, argv, "--copies", "0"));
    if (rounds < 1 || reps < 1 || small < 1 || copies < 0 || copies > 8)
        return fail("options", "--rounds, --reps and --small must be positive, --copies 0..8");
    setenv("ACCEL_KERNEL_CACHE", "off", 1);
    accel_runtime *rt = nullptr;
    accel_device *dev = nullptr;
    Ctx c;
    std::memset(&c, 0, sizeof c);
    c.alpha = 2.0f;
    c.beta = 0.5f;
    c.n = 1;
    ACC(accel_runtime_open(nullptr, &rt));
    ACC(accel_device_get_by_name(rt, device, &dev));
    accel_device_properties props;
    accel_device_properties_init(&props);
    ACC(accel_device_properties_get(dev, &props));
    ACC(accel_queue_create(dev, &c.q));
    ACC(accel_buffer_create(dev, 4096, &c.x));
    ACC(accel_buffer_create(dev, 4096, &c.y));
    ACC(accel_fill(c.q, ACCEL_F32, 1.0, accel_slice_of(c.x, 0, 1024)));
    ACC(accel_fill(c.q, ACCEL_F32, 1.0, accel_slice_of(c.y, 0, 1024)));
    ACC(accel_queue_finish(c.q));
    void *s = nullptr;
    ACC(accel_queue_native_stream(c.q, &s));
    c.stream = (cudaStream_t)s;
    ACC(accel_buffer_native_pointer(c.x, &c.px));
    ACC(accel_buffer_native_pointer(c.y, &c.py));
    ACC(accel_kernel_elementwise_create(rt, "axpby", "float32 x, float32 y, float32 a, float32 b",
                                        "float32 z", "z = a * x + b * y", nullptr, &c.k));
    const uint32_t mask = 0xc; /* a and b are scalars */
    ACC(accel_kernel_build(c.k, dev, mask));
    size_t len = 0;
    ACC(accel_kernel_source_get(c.k, dev, mask, nullptr, 0, &len));
    std::string src(len + 1, '\0');
    ACC(accel_kernel_source_get(c.k, dev, mask, &src[0], len + 1, nullptr));
    src.resize(len);

    /* The same cubin as accel's, loaded both ways, in the current device's
     * primary context (the one accel's runtime calls use). */
    std::vector<char> cubin;
    if (compile(src, (int)props.compute_capability, &cubin))
        return 1;
    RT(cudaFree(nullptr));
    if (entry("cuLaunchKernel", &drv.launch) ||
        entry("cuKernelGetFunction", &drv.kernel_function) ||
        entry("cuModuleLoadData", &drv.module_load) ||
        entry("cuModuleGetFunction", &drv.module_function) ||
        entry("cuModuleUnload", &drv.module_unload))
        return 1;
    std::vector<cudaLibrary_t> libs((size_t)copies + 1);
    std::vector<CUfunction> fns(libs.size());
    for (size_t i = 0; i < libs.size(); i++) {
        cudaKernel_t kern;
        RT(cudaLibraryLoadData(&libs[i], cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
        RT(cudaLibraryGetKernel(&kern, libs[i], "accel_ew_axpby"));
        CU(drv.kernel_function(&fns[i], (CUkernel)kern));
    }
    CUmodule mod;
    CUfunction f_mod;
    CU(drv.module_load(&mod, cubin.data()));
    CU(drv.module_function(&f_mod, mod, "accel_ew_axpby"));
    std::vector<FormDef> all = {
        {"a", "a  raw cuLaunchKernel, NVRTC cubin (library), kernelParams", RAW, fns[0]},
        {"a2", "a2 raw cuLaunchKernel, NVRTC cubin (module), kernelParams", RAW, f_mod},
        {"b", "b  raw cuLaunchKernel, NVRTC cubin, packed `extra` buffer", PACKED, fns[0]},
        {"c", "c  raw built-in axpby launch (accel_cuda__launch_axpby)", BUILTIN, nullptr},
        {"d", "d  accel_axpby", ACCEL_AXPBY, nullptr},
        {"e", "e  accel_kernel_launch (user kernel)", ACCEL_KERNEL, nullptr}};
    std::vector<FormDef> fl; /* the forms that run */
    for (const char *p = forms; *p;) {
        size_t n = std::strcspn(p, ",");
        size_t f = 0;
        while (f < all.size() && all[f].key != std::string(p, n))
            f++;
        if (f == all.size())
            return fail("--forms", "a comma-separated list of a, a2, b, c, d, e");
        fl.push_back(all[f]);
        p += n + (p[n] == ',');
    }
    /* Further loads of the same cubin: does the driver's cost follow the
     * function object (where it lies) or the process? */
    for (int i = 1; i <= copies; i++)
        fl.push_back({"a#" + std::to_string(i),
                      "a#" + std::to_string(i) + " as a, library copy " + std::to_string(i) +
                          " of the same cubin",
                      RAW, fns[(size_t)i]});
    const size_t nf = fl.size();
    auto index = [&](const char *key) {
        for (size_t f = 0; f < nf; f++)
            if (fl[f].key == key)
                return (int)f;
        return -1;
    };
    /* (x, y, a, b, z, n): pointers and size_t at 8-byte offsets, floats at 4. */
    std::memcpy(c.packed + 0, &c.px, 8);
    std::memcpy(c.packed + 8, &c.py, 8);
    std::memcpy(c.packed + 16, &c.alpha, 4);
    std::memcpy(c.packed + 20, &c.beta, 4);
    std::memcpy(c.packed + 24, &c.py, 8);
    std::memcpy(c.packed + 32, &c.n, 8);
    c.packed_size = 40;

    /* Every form computes y = 2 x + 0.5 y; check each once (x = y = 1
     * gives 2.5, then y = 2 + 0.5 * 2.5 = 3.25, ...: compared with a host
     * double loop of the same recurrence, f32-rounded per step). */
    float want = 1.0f;
    for (const FormDef &f : all) {
        if (launch_one(c, f))
            return launch_fail(f);
        want = 2.0f * 1.0f + 0.5f * want;
        float got = 0;
        RT(cudaStreamSynchronize(c.stream));
        ACC(accel_queue_read_blocking(c.q, c.y, 0, &got, 4));
        if (got != want) {
            std::printf("form %s: y[0] = %.9g, expected %.9g: WRONG\n", f.name.c_str(), got, want);
            return 1;
        }
    }
    for (const FormDef &f : fl) { /* warm-up */
        double t;
        if (batch_us(c, f, reps / 4, &t))
            return 1;
    }

    const int sizes[2] = {reps, small};
    std::vector<std::vector<double>> host[2], dv[2];
    for (int b = 0; b < 2; b++) {
        host[b].resize(nf);
        dv[b].resize(NDIFFS);
    }
    std::vector<double> t(nf);
    for (int r = 0; r < rounds; r++) {
        for (int b = 0; b < 2; b++) {
            for (size_t j = 0; j < nf; j++) {
                size_t f = ((size_t)r + j) % nf;
                if (batch_us(c, fl[f], sizes[b], &t[f]))
                    return 1;
            }
            for (size_t f = 0; f < nf; f++)
                host[b][f].push_back(t[f]);
            for (int i = 0; i < NDIFFS; i++) {
                int x = index(diffs[i].x), y = index(diffs[i].y);
                if (x >= 0 && y >= 0)
                    dv[b][i].push_back(t[(size_t)x] - t[(size_t)y]);
            }
        }
    }
    std::printf("launch_diag on %s (%s): host us per enqueue, 1 element, median of %d "
                "interleaved rounds (min..max)\n",
                accel_device_name(dev), props.name, rounds);
    for (int b = 0; b < 2; b++) {
        std::printf("batches of %d launches:\n", sizes[b]);
        for (size_t f = 0; f < nf; f++)
            row(fl[f].name.c_str(), host[b][f]);
        std::printf(" per-round differences:\n");
        for (int i = 0; i < NDIFFS; i++)
            if (!dv[b][i].empty())
                row(diffs[i].name, dv[b][i]);
    }
    if (device_rows) {
        std::printf("device us per kernel over a batch of %d (CUDA events):\n", reps);
        for (const char *key : {"a", "b", "c", "e"}) {
            int f = index(key);
            double us = 0;
            if (f < 0)
                continue;
            if (device_us(c, fl[(size_t)f], reps, &us))
                return 1;
            std::printf("  %-62s %7.3f us\n", fl[(size_t)f].name.c_str(), us);
        }
    }
    (void)drv.module_unload(mod);
    for (cudaLibrary_t l : libs)
        (void)cudaLibraryUnload(l);
    accel_kernel_release(c.k);
    accel_buffer_release(c.x);
    accel_buffer_release(c.y);
    accel_queue_release(c.q);
    accel_runtime_close(rt);
    return 0;
}
