/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* nvrtc.c — user kernels on the CUDA backend: NVRTC, opened at run time
 * like cuBLAS (libnvrtc.so.<CUDA major>, first through the plugin's RUNPATH
 * and the loader's search path, then the toolkit it was built against), so
 * it is no load-time dependency and is mapped only once a kernel is built.
 *
 * A program is compiled for the device's own architecture (-arch=sm_XY) to
 * a cubin; when NVRTC is older than the device it compiles PTX for the
 * newest architecture it knows and the driver finishes the job. The image
 * is loaded with cudaLibraryLoadData (context-independent: one load serves
 * every device) and launched on the queue's stream as the built-in ops are:
 * through the driver's cuLaunchKernel with the kernel's function in that
 * device's context looked up once, the runtime's cudaLaunchKernel when that
 * is missing or refuses (so its error is the one reported).
 *
 * Floating point by default: --fmad=false (no contraction, as the CPU twin),
 * IEEE division and square root (--prec-div, --prec-sqrt are NVRTC's
 * defaults), no flush to zero; the kernel's options come after ours and may
 * change that ("--use_fast_math"). */
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h> /* driver types only: the driver is reached through the runtime */
#include <nvrtc.h>

#include "cuda_internal.h"
#include "dl_open.h"

typedef nvrtcResult (*nvrtc_version_fn)(int *, int *);
typedef nvrtcResult (*nvrtc_num_archs_fn)(int *);
typedef nvrtcResult (*nvrtc_archs_fn)(int *);
typedef nvrtcResult (*nvrtc_create_fn)(nvrtcProgram *, const char *, const char *, int,
                                       const char *const *, const char *const *);
typedef nvrtcResult (*nvrtc_destroy_fn)(nvrtcProgram *);
typedef nvrtcResult (*nvrtc_compile_fn)(nvrtcProgram, int, const char *const *);
typedef nvrtcResult (*nvrtc_size_fn)(nvrtcProgram, size_t *);
typedef nvrtcResult (*nvrtc_get_fn)(nvrtcProgram, char *);
typedef const char *(*nvrtc_error_fn)(nvrtcResult);

static struct {
    pthread_mutex_t lock;
    int tried, loaded;
    char error[256];
    int major, minor;
    int archs[64];
    int num_archs;
    nvrtc_create_fn create;
    nvrtc_destroy_fn destroy;
    nvrtc_compile_fn compile;
    nvrtc_size_fn log_size, cubin_size, ptx_size;
    nvrtc_get_fn log, cubin, ptx;
    nvrtc_error_fn error_string;
} nv = {PTHREAD_MUTEX_INITIALIZER,
        0,
        0,
        "",
        0,
        0,
        {0},
        0,
        NULL,
        NULL,
        NULL,
        NULL,
        NULL,
        NULL,
        NULL,
        NULL,
        NULL,
        NULL};

static void *sym(void *lib, const char *name, int *ok)
{
    void *p = dlsym(lib, name);
    if (!p && *ok) {
        *ok = 0;
        snprintf(nv.error, sizeof nv.error, "libnvrtc: symbol %s missing", name);
    }
    return p;
}

#define NV_RESOLVE(field, type, name)                                                              \
    do {                                                                                           \
        void *p_ = sym(lib, name, &ok);                                                            \
        memcpy(&nv.field, &p_, sizeof nv.field);                                                   \
    } while (0)

/* Open NVRTC once per process; 1 when usable. */
static int nvrtc_open(void)
{
    pthread_mutex_lock(&nv.lock);
    if (!nv.tried) {
        nv.tried = 1;
        char soname[64];
        snprintf(soname, sizeof soname, "libnvrtc.so.%d", CUDART_VERSION / 1000);
        void *lib = accel_cuda__dl_open(soname, nv.error, sizeof nv.error);
        if (lib) {
            int ok = 1;
            nvrtc_version_fn version;
            nvrtc_num_archs_fn num_archs;
            nvrtc_archs_fn archs;
            void *p = sym(lib, "nvrtcVersion", &ok);
            memcpy(&version, &p, sizeof version);
            p = sym(lib, "nvrtcGetNumSupportedArchs", &ok);
            memcpy(&num_archs, &p, sizeof num_archs);
            p = sym(lib, "nvrtcGetSupportedArchs", &ok);
            memcpy(&archs, &p, sizeof archs);
            NV_RESOLVE(create, nvrtc_create_fn, "nvrtcCreateProgram");
            NV_RESOLVE(destroy, nvrtc_destroy_fn, "nvrtcDestroyProgram");
            NV_RESOLVE(compile, nvrtc_compile_fn, "nvrtcCompileProgram");
            NV_RESOLVE(log_size, nvrtc_size_fn, "nvrtcGetProgramLogSize");
            NV_RESOLVE(log, nvrtc_get_fn, "nvrtcGetProgramLog");
            NV_RESOLVE(cubin_size, nvrtc_size_fn, "nvrtcGetCUBINSize");
            NV_RESOLVE(cubin, nvrtc_get_fn, "nvrtcGetCUBIN");
            NV_RESOLVE(ptx_size, nvrtc_size_fn, "nvrtcGetPTXSize");
            NV_RESOLVE(ptx, nvrtc_get_fn, "nvrtcGetPTX");
            NV_RESOLVE(error_string, nvrtc_error_fn, "nvrtcGetErrorString");
            int n = 0;
            if (ok &&
                (version(&nv.major, &nv.minor) != NVRTC_SUCCESS || num_archs(&n) != NVRTC_SUCCESS ||
                 n <= 0 || n > 64 || archs(nv.archs) != NVRTC_SUCCESS)) {
                ok = 0;
                snprintf(nv.error, sizeof nv.error, "libnvrtc: cannot query its version");
            }
            nv.num_archs = n;
            /* Kept open for the process, as cuBLAS. */
            if (ok)
                nv.loaded = 1;
            else
                dlclose(lib);
        }
    }
    int loaded = nv.loaded;
    pthread_mutex_unlock(&nv.lock);
    return loaded;
}

/* sm_XY when NVRTC knows it (1: cubin), else the newest arch below (0: PTX). */
static int target_arch(uint32_t cc, int *arch)
{
    int best = 0;
    for (int i = 0; i < nv.num_archs; i++) {
        if (nv.archs[i] == (int)cc) {
            *arch = (int)cc;
            return 1;
        }
        if (nv.archs[i] < (int)cc && nv.archs[i] > best)
            best = nv.archs[i];
    }
    *arch = best ? best : (int)cc;
    return 0;
}

#define PROGRAM_MAX_DEVICES 64

struct accel_be_program {
    cudaLibrary_t lib;
    cudaKernel_t kernel;
    void *binary;
    size_t binary_size;
    /* The kernel's function in each device's primary context (a CUfunction
     * belongs to one context), looked up on the first launch there. */
    _Atomic(CUfunction) fn[PROGRAM_MAX_DEVICES];
};

/* The driver entries a launch uses, found once through the runtime (no link
 * to libcuda); NULL when the driver does not offer them. */
typedef CUresult(CUDAAPI *drv_launch_fn)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                                         unsigned, unsigned, unsigned, CUstream, void **, void **);
typedef CUresult(CUDAAPI *drv_kernel_function_fn)(CUfunction *, CUkernel);
static struct {
    pthread_once_t once;
    drv_launch_fn launch;
    drv_kernel_function_fn kernel_function;
} drv = {PTHREAD_ONCE_INIT, NULL, NULL};

static void *drv_entry(const char *name)
{
    void *p = NULL;
    enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess)
        p = NULL;
    (void)cudaGetLastError();
    return p;
}

static void drv_open(void)
{
    void *launch = drv_entry("cuLaunchKernel"), *kfn = drv_entry("cuKernelGetFunction");
    if (launch && kfn) {
        memcpy(&drv.launch, &launch, sizeof launch);
        memcpy(&drv.kernel_function, &kfn, sizeof kfn);
    }
}

/* p's function on device `device` (current), or NULL; the first lookup
 * that fails says so once in the log (launches then take the runtime's
 * slower path). */
static CUfunction program_function(accel_cuda_ctx *ctx, accel_be_program *p, uint32_t device)
{
    if (device >= PROGRAM_MAX_DEVICES)
        return NULL;
    CUfunction f = atomic_load_explicit(&p->fn[device], memory_order_acquire);
    if (f)
        return f;
    pthread_once(&drv.once, drv_open);
    /* The driver call needs the device's primary context current on this
     * thread, which cudaSetDevice makes so at once. */
    CUresult r = CUDA_ERROR_NOT_FOUND;
    if (drv.kernel_function && cudaSetDevice(ctx->devices[device].ordinal) == cudaSuccess)
        r = drv.kernel_function(&f, (CUkernel)p->kernel);
    if (r != CUDA_SUCCESS || !f) {
        /* The runtime's own lookup (a cudaKernel_t stands for its entry). */
        cudaFunction_t rf = NULL;
        const void *sym;
        memcpy(&sym, &p->kernel, sizeof sym);
        if (cudaGetFuncBySymbol(&rf, sym) == cudaSuccess && rf)
            f = (CUfunction)rf;
        else
            f = NULL;
        (void)cudaGetLastError();
    }
    static atomic_int told;
    if (!f && !atomic_exchange(&told, 1))
        ctx->host->log(ctx->host->host_ctx, ACCEL_LOG_INFO,
                       "cuda: user kernels launch through cudaLaunchKernel (no driver function "
                       "for the kernel: %s, cuKernelGetFunction %d)",
                       drv.launch ? "lookup failed" : "driver entry points missing", (int)r);
    if (f)
        atomic_store_explicit(&p->fn[device], f, memory_order_release);
    return f;
}

int32_t accel_cuda__program_identity(void *vctx, uint32_t device, uint32_t language, char *out,
                                     size_t size)
{
    accel_cuda_ctx *ctx = vctx;
    out[0] = '\0';
    if (language != ACCEL_PROGRAM_CUDA || !nvrtc_open())
        return ACCEL_ERROR_UNSUPPORTED;
    int arch;
    int cubin = target_arch(ctx->devices[device].compute_capability, &arch);
    snprintf(out, size, "nvrtc %d.%d %s_%d --fmad=false driver %s", nv.major, nv.minor,
             cubin ? "sm" : "compute", arch, ctx->driver_version);
    return ACCEL_SUCCESS;
}

/* Split user options at spaces into opts[*n..]; the strings live in buf.
 * False (nothing dropped silently) when s does not fit buf or holds more
 * options than opts has room for. */
static bool split_options(const char *s, char *buf, size_t cap, const char **opts, int *n, int max)
{
    if (!s)
        return true;
    if (strlen(s) >= cap)
        return false;
    snprintf(buf, cap, "%s", s);
    for (char *p = buf; *p;) {
        while (*p == ' ' || *p == '\t')
            *p++ = '\0';
        if (!*p)
            break;
        if (*n == max)
            return false;
        opts[(*n)++] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
    }
    return true;
}

static int32_t load(accel_cuda_ctx *ctx, const char *name, const char *entry, accel_be_program *p)
{
    cudaError_t err = cudaLibraryLoadData(&p->lib, p->binary, NULL, NULL, 0, NULL, NULL, 0);
    if (err != cudaSuccess)
        return accel_cuda__fail(ctx, err, name);
    err = cudaLibraryGetKernel(&p->kernel, p->lib, entry);
    if (err != cudaSuccess) {
        int32_t st = accel_cuda__fail(ctx, err, name);
        (void)cudaLibraryUnload(p->lib);
        return st;
    }
    return ACCEL_SUCCESS;
}

int32_t accel_cuda__program_build(void *vctx, uint32_t device, const accel_program_desc *d,
                                  accel_be_program **out, const void **out_binary,
                                  size_t *out_binary_size)
{
    accel_cuda_ctx *ctx = vctx;
    const char *name = d->name ? d->name : "kernel";
    *out = NULL;
    *out_binary = NULL;
    *out_binary_size = 0;
    if (d->language != ACCEL_PROGRAM_CUDA || d->entry_count != 1) {
        ctx->host->set_error(ctx->host->host_ctx,
                             "%s: the CUDA backend compiles CUDA C++ (one entry) only", name);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    if (!nvrtc_open()) {
        ctx->host->set_error(ctx->host->host_ctx, "%s: NVRTC is not available: %s", name, nv.error);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    int32_t st = accel_cuda__set_device(ctx, device);
    if (st != ACCEL_SUCCESS)
        return st;
    accel_be_program *p = calloc(1, sizeof *p);
    if (!p) {
        ctx->host->set_error(ctx->host->host_ctx, "%s: out of host memory", name);
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    if (d->binary) {
        p->binary = malloc(d->binary_size);
        if (!p->binary) {
            free(p);
            ctx->host->set_error(ctx->host->host_ctx, "%s: out of host memory", name);
            return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
        }
        memcpy(p->binary, d->binary, d->binary_size);
        p->binary_size = d->binary_size;
    } else {
        int arch;
        int cubin = target_arch(ctx->devices[device].compute_capability, &arch);
        char archopt[64], user[1024];
        snprintf(archopt, sizeof archopt, "--gpu-architecture=%s_%d", cubin ? "sm" : "compute",
                 arch);
        const char *opts[40] = {archopt, "--fmad=false", "--std=c++17"};
        int nopts = 3;
        if (!split_options(d->options, user, sizeof user, opts, &nopts, 40)) {
            free(p);
            ctx->host->set_error(ctx->host->host_ctx,
                                 "%s: cuda_options: at most %d options and %zu characters", name,
                                 40 - 3, sizeof user - 1);
            return ACCEL_ERROR_INVALID_ARGUMENT;
        }
        nvrtcProgram prog;
        nvrtcResult r = nv.create(&prog, d->source, name, 0, NULL, NULL);
        if (r != NVRTC_SUCCESS) {
            free(p);
            ctx->host->set_error(ctx->host->host_ctx, "%s: nvrtcCreateProgram: %s", name,
                                 nv.error_string(r));
            return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
        }
        r = nv.compile(prog, nopts, opts);
        size_t log_size = 0;
        if (d->log && d->log_size && nv.log_size(prog, &log_size) == NVRTC_SUCCESS &&
            log_size > 1) {
            char *log = malloc(log_size);
            if (log && nv.log(prog, log) == NVRTC_SUCCESS)
                snprintf(d->log, d->log_size, "%s", log);
            free(log);
        }
        if (r != NVRTC_SUCCESS) {
            nv.destroy(&prog);
            free(p);
            ctx->host->set_error(ctx->host->host_ctx, "%s: nvrtcCompileProgram: %s", name,
                                 nv.error_string(r));
            return r == NVRTC_ERROR_COMPILATION ? ACCEL_ERROR_COMPILE
                                                : ACCEL_ERROR_INVALID_ARGUMENT;
        }
        size_t size = 0;
        r = cubin ? nv.cubin_size(prog, &size) : nv.ptx_size(prog, &size);
        if (r == NVRTC_SUCCESS && size && (p->binary = malloc(size)))
            r = cubin ? nv.cubin(prog, p->binary) : nv.ptx(prog, p->binary);
        nv.destroy(&prog);
        if (r != NVRTC_SUCCESS || !p->binary) {
            free(p->binary);
            free(p);
            ctx->host->set_error(ctx->host->host_ctx, "%s: reading NVRTC's output failed", name);
            return ACCEL_ERROR_INTERNAL;
        }
        p->binary_size = size;
    }
    st = load(ctx, name, d->entries[0], p);
    if (st != ACCEL_SUCCESS) {
        free(p->binary);
        free(p);
        return st;
    }
    *out = p;
    *out_binary = p->binary;
    *out_binary_size = p->binary_size;
    return ACCEL_SUCCESS;
}

void accel_cuda__program_release(void *ctx, accel_be_program *p)
{
    (void)ctx;
    if (!p)
        return;
    (void)cudaLibraryUnload(p->lib);
    free(p->binary);
    free(p);
}

/* One launch of p's entry on q's stream (device current). */
static int32_t launch_entry(accel_cuda_ctx *ctx, accel_be_queue *q, accel_be_program *p, dim3 grid,
                            dim3 block, unsigned shared, void **params, const char *name)
{
    CUfunction f = program_function(ctx, p, q->device);
    if (f && drv.launch &&
        drv.launch(f, grid.x, grid.y, grid.z, block.x, block.y, block.z, shared,
                   (CUstream)q->stream, params, NULL) == CUDA_SUCCESS)
        return ACCEL_SUCCESS;
    const void *fn;
    memcpy(&fn, &p->kernel, sizeof fn);
    cudaError_t err = cudaLaunchKernel(fn, grid, block, params, shared, q->stream);
    if (err == cudaSuccess)
        return ACCEL_SUCCESS;
    int32_t st = accel_cuda__fail(ctx, err, name);
    ctx->host->set_error(ctx->host->host_ctx, "%s: %s: %s (previous op enqueued on this queue: %s)",
                         name, cudaGetErrorName(err), cudaGetErrorString(err), q->last_op);
    return st;
}

int32_t accel_cuda__kernel_launch(accel_cuda_ctx *ctx, accel_be_queue *q, const accel_op_desc *d)
{
    const accel_kernel_launch_desc *L = d->kernel;
    const char *name = d->name ? d->name : "kernel";
    if (!L || !L->program || L->num_args > 32) {
        ctx->host->set_error(ctx->host->host_ctx, "%s: no CUDA program for this launch", name);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    int32_t st = accel_cuda__set_device(ctx, q->device);
    if (st != ACCEL_SUCCESS)
        return st;
    void *params[36];
    void *ptrs[32];
    size_t n = L->n, rows = L->rows;
    for (uint32_t i = 0; i < L->num_args; i++) {
        const accel_kernel_arg_desc *a = &L->args[i];
        if (a->kind == ACCEL_KARG_ARRAY) {
            /* every dtype's size (bool, int8/16, uint16/32/64 too) */
            size_t es = accel_backend_dtype_size(a->dtype);
            char *base = accel_cuda__buffer_ptr(a->buffer);
            ptrs[i] = base ? base + a->offset * es : NULL;
            params[i] = &ptrs[i];
        } else {
            params[i] = (void *)&a->value;
        }
    }
    uint32_t np = L->num_args;
    const cuda_device *dev = &ctx->devices[q->device];
    dim3 grid = {1, 1, 1}, block = {256, 1, 1};
    if (L->kind == ACCEL_KERNEL_ELEMENTWISE) {
        /* One step per block (kernel_codegen.c): a grid that covers n at
         * once streams best (a plain float4 kernel's ceiling); the kernel's
         * grid-strided blocks cover what a capped grid leaves. */
        params[np++] = &n;
        size_t blocks = (n + ACCEL_KERNEL_ELEMENTWISE_BLOCK - 1) / ACCEL_KERNEL_ELEMENTWISE_BLOCK;
        grid.x = (unsigned)(blocks < 0x7fffffffu ? (blocks ? blocks : 1) : 0x7fffffffu);
    } else if (L->kind == ACCEL_KERNEL_REDUCTION) {
        /* Rows of several chunks: phase 0 writes a partial per (row,
         * chunk) into stream-ordered scratch, phase 1 folds them per row
         * (the fixed order of kernel_codegen.c; backend.h). */
        const size_t ch = ACCEL_KERNEL_REDUCE_CHUNK;
        size_t chunks = n > ch ? (n + ch - 1) / ch : 1;
        void *part = NULL;
        unsigned phase = 0;
        params[np++] = &rows;
        params[np++] = &n;
        params[np++] = &part;
        params[np++] = &phase;
        size_t cap = (size_t)dev->max_blocks * 4, blocks = rows * chunks;
        grid.x = (unsigned)(blocks < cap ? blocks : cap);
        /* The partials: the queue's own scratch when they fit (stream-
         * ordered like the built-in reductions' use of it: no allocation
         * per launch), else stream-ordered memory of their own. */
        if (chunks > 1 && blocks <= dev->max_blocks) {
            part = q->partials;
        } else if (chunks > 1) {
            cudaError_t err = cudaMallocAsync(&part, blocks * 8, q->stream);
            if (err != cudaSuccess)
                return accel_cuda__fail(ctx, err, name);
        }
        st = launch_entry(ctx, q, L->program, grid, block, 0, params, name);
        if (st == ACCEL_SUCCESS && chunks > 1) {
            phase = 1;
            grid.x = (unsigned)(rows < cap ? rows : cap);
            st = launch_entry(ctx, q, L->program, grid, block, 0, params, name);
        }
        if (part && part != (void *)q->partials)
            (void)cudaFreeAsync(part, q->stream);
        accel_cuda__set_name(q->last_op, name);
        return st;
    } else {
        grid = (dim3){L->grid[0], L->grid[1], L->grid[2]};
        block = (dim3){L->block[0], L->block[1], L->block[2]};
    }
    /* Dynamic shared memory: raw launches only (backend.h; 0 from older cores). */
    unsigned shared = L->kind == ACCEL_KERNEL_RAW ? (unsigned)L->shared_bytes : 0;
    st = launch_entry(ctx, q, L->program, grid, block, shared, params, name);
    accel_cuda__set_name(q->last_op, name);
    return st;
}
