/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* kernel.c — user kernels on OpenCL: the plugin ABI's program_identity,
 * program_build and program_release for ACCEL_PROGRAM_CUDA sources (raw
 * kernels in the CUDA-C dialect, the user's and the array layer's),
 * translated to OpenCL C 1.2 (translate.c), and their launches
 * (ACCEL_OP_KERNEL). The program binary (CL_PROGRAM_BINARIES) goes back to
 * the core, whose kernel cache keeps it on disk keyed by program_identity
 * (device, driver, translator) and the source. The core's generated
 * elementwise and reduction kernels (C++ templates and references) are not
 * translated: ACCEL_ERROR_UNSUPPORTED, and the core falls back. Here too
 * is ocl__launch, the one enqueue of a kernel that every op (ops.c, gemm.c)
 * and raw launch goes through. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/dtype.h"
#include "opencl.h"

int32_t ocl__launch(ocl_ctx *c, accel_be_queue *q, cl_kernel k, const ocl_arg *args, unsigned n,
                    unsigned dims, const size_t *global, const size_t *local, const char *name)
{
    ocl_device *d = &c->dev[q->device];
    cl_event ev = NULL;
    cl_int err = CL_SUCCESS;
    pthread_mutex_lock(&d->launch_lock);
    for (unsigned i = 0; i < n && err == CL_SUCCESS; ++i)
        err = c->cl.clSetKernelArg(k, i, args[i].size, args[i].value);
    if (err == CL_SUCCESS)
        err = c->cl.clEnqueueNDRangeKernel(q->q, k, dims, NULL, global, local, 0, NULL, &ev);
    pthread_mutex_unlock(&d->launch_lock);
    if (err != CL_SUCCESS)
        return ocl__fail(c, ocl__status_of(err), "%s: the OpenCL kernel launch failed (%s)", name,
                         ocl__error_name(err));
    ocl__queue_track(c, q, ev, name);
    return ACCEL_SUCCESS;
}

struct accel_be_program {
    uint32_t device;
    cl_program program;
    cl_kernel *kernels;
    cl_uint *nargs; /* each kernel's parameter count */
    uint32_t count;
    unsigned char *binary;
    size_t binary_size;
};

#define OCL_BUILD_OPTIONS "-cl-std=CL1.2"

/* FNV-1a of the prelude: a changed prelude is another identity. */
static uint32_t prelude_hash(void)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)ocl__cuda_prelude(); *p; ++p)
        h = (h ^ *p) * 16777619u;
    return h;
}

int32_t ocl__user_program_identity(void *vctx, uint32_t device, uint32_t language, char *out,
                                   size_t size)
{
    ocl_ctx *c = vctx;
    const ocl_device *d = &c->dev[device];
    if (language != ACCEL_PROGRAM_CUDA)
        return ACCEL_ERROR_UNSUPPORTED;
    snprintf(out, size, "opencl cuda-c translation %08x; %s; %s; driver %s; %s; %s", prelude_hash(),
             d->platform_name, d->name, d->driver_version, d->cl_version, OCL_BUILD_OPTIONS);
    return ACCEL_SUCCESS;
}

/* Every entry of a raw kernel; the core's elementwise and reduction
 * entries are named accel_ew_ and accel_red_. */
static int generated_entries(const accel_program_desc *pd)
{
    for (uint32_t i = 0; i < pd->entry_count; ++i)
        if (strncmp(pd->entries[i], "accel_ew_", 9) == 0 ||
            strncmp(pd->entries[i], "accel_red_", 10) == 0)
            return 1;
    return 0;
}

/* The logical place of physical line n of text, by its #line directives
 * ("#line L" or "#line L \"FILE\""): FILE (up to fsize bytes) and the line;
 * 0 when no directive comes before line n. */
static unsigned logical_line(const char *text, unsigned n, char *file, size_t fsize)
{
    unsigned phys = 1, found = 0;
    int have = 0;
    for (const char *l = text; *l && phys < n; phys++) {
        unsigned v;
        int used = 0;
        if (sscanf(l, "#line %u%n", &v, &used) == 1) {
            found = v - 1; /* the next physical line is line v */
            have = 1;
            const char *q = l + used;
            while (*q == ' ')
                q++;
            if (*q == '"') {
                size_t k = strcspn(q + 1, "\"\n");
                snprintf(file, fsize, "%.*s", (int)k, q + 1);
            }
        } else if (have) {
            found++;
        }
        const char *nl = strchr(l, '\n');
        if (!nl)
            break;
        l = nl + 1;
    }
    return have ? found + 1 : 0;
}

/* The build log, with "<kernel>:N:" (NVIDIA's compiler, which reports
 * physical lines whatever #line says) rewritten as "FILE:L:" through the
 * core's #line directives, so messages name the user's kernel and line as
 * on PoCL and NVRTC. */
static void copy_log(ocl_ctx *c, ocl_device *d, cl_program prog, const accel_program_desc *pd,
                     const char *text)
{
    if (!pd->log || pd->log_size == 0)
        return;
    size_t n = 0;
    pd->log[0] = '\0';
    char *raw = malloc(pd->log_size);
    if (!raw || c->cl.clGetProgramBuildInfo(prog, d->id, CL_PROGRAM_BUILD_LOG, pd->log_size - 1,
                                            raw, &n) != CL_SUCCESS) {
        free(raw);
        return;
    }
    raw[n < pd->log_size ? n : pd->log_size - 1] = '\0';
    static const char tag[] = "<kernel>:";
    size_t o = 0;
    for (const char *r = raw; *r && o + 1 < pd->log_size;) {
        unsigned line;
        int used = 0;
        char file[128] = "kernel";
        unsigned l = 0;
        if (text && strncmp(r, tag, sizeof tag - 1) == 0 &&
            sscanf(r + sizeof tag - 1, "%u:%n", &line, &used) == 1 && used > 0 &&
            (l = logical_line(text, line, file, sizeof file)) > 0) {
            int w = snprintf(pd->log + o, pd->log_size - o, "%s:%u:", file, l);
            o += w > 0 ? (size_t)w : 0;
            if (o >= pd->log_size)
                o = pd->log_size - 1;
            r += sizeof tag - 1 + (size_t)used;
            continue;
        }
        pd->log[o++] = *r++;
    }
    pd->log[o] = '\0';
    free(raw);
}

/* The program from source (translated) or from an earlier binary. */
static int32_t create_program(ocl_ctx *c, ocl_device *d, const accel_program_desc *pd,
                              const char *name, cl_program *out)
{
    cl_int err = CL_SUCCESS, bin_status = CL_SUCCESS;
    char *src = NULL; /* the translation, kept for the build log's lines */
    if (pd->binary) {
        const unsigned char *bin = pd->binary;
        *out = c->cl.clCreateProgramWithBinary(d->context, 1, &d->id, &pd->binary_size, &bin,
                                               &bin_status, &err);
    } else {
        char why[160];
        int dyn = 0;
        char *text = ocl__translate_cuda(pd->source, &dyn, why, sizeof why);
        if (!text)
            return ocl__fail(c, ACCEL_ERROR_COMPILE, "%s: %s", name, why);
        const char *s = text;
        *out = c->cl.clCreateProgramWithSource(d->context, 1, &s, NULL, &err);
        src = text;
    }
    if (!*out) {
        free(src);
        return ocl__fail(c, ACCEL_ERROR_COMPILE, "%s: creating the OpenCL program failed (%s)",
                         name, ocl__error_name(err != CL_SUCCESS ? err : bin_status));
    }
    err = c->cl.clBuildProgram(*out, 1, &d->id, OCL_BUILD_OPTIONS, NULL, NULL);
    if (err != CL_SUCCESS)
        copy_log(c, d, *out, pd, src);
    free(src);
    if (err != CL_SUCCESS) {
        c->cl.clReleaseProgram(*out);
        *out = NULL;
        return ocl__fail(c, ACCEL_ERROR_COMPILE,
                         "%s: the OpenCL C translation did not build on %s (%s); the log has the "
                         "compiler's messages",
                         name, d->name, ocl__error_name(err));
    }
    return ACCEL_SUCCESS;
}

/* CL_PROGRAM_BINARIES of the program's one device, kept in p. */
static void keep_binary(ocl_ctx *c, accel_be_program *p)
{
    p->binary = ocl__program_binary(c, p->program, &p->binary_size);
}

static int32_t create_kernels(ocl_ctx *c, accel_be_program *p, const accel_program_desc *pd,
                              const char *name)
{
    p->kernels = calloc(pd->entry_count, sizeof *p->kernels);
    p->nargs = calloc(pd->entry_count, sizeof *p->nargs);
    if (!p->kernels || !p->nargs)
        return ocl__fail(c, ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", name);
    for (uint32_t i = 0; i < pd->entry_count; ++i) {
        cl_int err = CL_SUCCESS;
        p->kernels[i] = c->cl.clCreateKernel(p->program, pd->entries[i], &err);
        if (!p->kernels[i])
            return ocl__fail(c, ACCEL_ERROR_COMPILE, "%s: no kernel '%s' in the program (%s)", name,
                             pd->entries[i], ocl__error_name(err));
        p->count = i + 1;
        c->cl.clGetKernelInfo(p->kernels[i], CL_KERNEL_NUM_ARGS, sizeof p->nargs[i], &p->nargs[i],
                              NULL);
    }
    return ACCEL_SUCCESS;
}

int32_t ocl__user_program_build(void *vctx, uint32_t device, const accel_program_desc *pd,
                                accel_be_program **out, const void **out_binary,
                                size_t *out_binary_size)
{
    ocl_ctx *c = vctx;
    ocl_device *d = &c->dev[device];
    const char *name = pd->name ? pd->name : "kernel";
    *out = NULL;
    *out_binary = NULL;
    *out_binary_size = 0;
    if (pd->language != ACCEL_PROGRAM_CUDA || generated_entries(pd))
        return ocl__fail(c, ACCEL_ERROR_UNSUPPORTED,
                         "%s: the opencl backend runs raw kernels in the CUDA-C dialect only (not "
                         "the generated elementwise and reduction kernels)",
                         name);
    accel_be_program *p = calloc(1, sizeof *p);
    if (!p)
        return ocl__fail(c, ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", name);
    p->device = device;
    int32_t rc = create_program(c, d, pd, name, &p->program);
    if (rc == ACCEL_SUCCESS)
        rc = create_kernels(c, p, pd, name);
    if (rc != ACCEL_SUCCESS) {
        ocl__user_program_release(c, p);
        return rc;
    }
    keep_binary(c, p);
    *out = p;
    *out_binary = p->binary;
    *out_binary_size = p->binary_size;
    return ACCEL_SUCCESS;
}

void ocl__user_program_release(void *vctx, accel_be_program *p)
{
    ocl_ctx *c = vctx;
    if (!p)
        return;
    for (uint32_t i = 0; i < p->count; ++i)
        c->cl.clReleaseKernel(p->kernels[i]);
    if (p->program)
        c->cl.clReleaseProgram(p->program);
    free(p->kernels);
    free(p->nargs);
    free(p->binary);
    free(p);
}

static size_t scalar_size(uint32_t dtype)
{
    switch (dtype) {
    case ACCEL_BOOL:
    case ACCEL_U8:
    case ACCEL_I8:
        return 1;
    case ACCEL_I16:
    case ACCEL_U16:
    case ACCEL_F16:
    case ACCEL_BF16:
        return 2;
    case ACCEL_I32:
    case ACCEL_U32:
    case ACCEL_F32:
        return 4;
    case ACCEL_I64:
    case ACCEL_U64:
    case ACCEL_F64:
        return 8;
    default:
        return 0;
    }
}

int32_t ocl__kernel_supported(ocl_ctx *c, uint32_t device, const accel_op_desc *o)
{
    const accel_kernel_launch_desc *L = o->kernel;
    (void)c;
    if (!L || L->kind != ACCEL_KERNEL_RAW || !L->program || L->program->device != device ||
        L->entry >= L->program->count)
        return ACCEL_ERROR_UNSUPPORTED;
    return ACCEL_SUCCESS;
}

/* Arguments of a raw launch: an array is its cl_mem and byte offset, a
 * scalar its value; one more __local argument when the kernel has an
 * extern __shared__ array. */
int32_t ocl__kernel_launch(ocl_ctx *c, accel_be_queue *q, const accel_op_desc *o)
{
    const accel_kernel_launch_desc *L = o->kernel;
    const char *name = o->name ? o->name : "kernel";
    if (ocl__kernel_supported(c, q->device, o) != ACCEL_SUCCESS)
        return ocl__fail(c, ACCEL_ERROR_UNSUPPORTED, "%s: not a raw kernel built for opencl:%u",
                         name, q->device);
    accel_be_program *p = L->program;
    cl_uint want = p->nargs[L->entry];
    ocl_arg *args = calloc((size_t)want + 1, sizeof *args);
    cl_ulong *offs = calloc(L->num_args + 1, sizeof *offs);
    if (!args || !offs) {
        free(args);
        free(offs);
        return ocl__fail(c, ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", name);
    }
    unsigned n = 0;
    for (uint32_t i = 0; i < L->num_args && n < want; ++i) {
        const accel_kernel_arg_desc *a = &L->args[i];
        if (a->kind == ACCEL_KARG_ARRAY) {
            offs[i] = (cl_ulong)(a->offset * accel_backend_dtype_size(a->dtype));
            args[n++] = (ocl_arg){sizeof(cl_mem), &a->buffer->mem};
            args[n++] = (ocl_arg){sizeof(cl_ulong), &offs[i]};
        } else {
            args[n++] = (ocl_arg){scalar_size(a->dtype), a->value.bytes};
        }
    }
    if (n + 1 == want) /* extern __shared__: local memory, no value */
        args[n++] = (ocl_arg){L->shared_bytes ? (size_t)L->shared_bytes : 4, NULL};
    int32_t rc;
    if (n != want) {
        rc = ocl__fail(c, ACCEL_ERROR_INVALID_ARGUMENT,
                       "%s: %u arguments make %u OpenCL arguments; the translated kernel takes %u",
                       name, L->num_args, n, (unsigned)want);
    } else {
        size_t global[3], local[3];
        for (int k = 0; k < 3; ++k) {
            local[k] = L->block[k];
            global[k] = (size_t)L->grid[k] * L->block[k];
        }
        rc = ocl__launch(c, q, p->kernels[L->entry], args, n, 3, global, local, name);
    }
    free(args);
    free(offs);
    return rc;
}
