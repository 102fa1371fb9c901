/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* program.c — the device's one OpenCL program of op kernels, built on first
 * use: a prelude, backends/common/philox.h compiled unchanged (the same
 * Philox code as the CPU and CUDA backends), kernels.cl, and one
 * elementwise kernel per (op, dtype) generated from the op table's
 * per-element C expression (accel/types.h, ACCEL_OP_LIST), as CuPy's
 * ElementwiseKernel does: adding an elementwise row to the table adds its
 * OpenCL kernel with no code here. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl_sources.h"
#include "opencl.h"
#include "strbuf.h"

/* The op table's rows as this file needs them. */
typedef struct ocl_row {
    uint32_t op;
    const char *name;
    accel_op_kind kind;
    int reads_out;
    accel_tolerance_rule tol;
    int tol_n;
    const char *f32, *f64;
} ocl_row;

#define OCL_X_ROW(E, V, NAME, KIND, OPS, READS, DTYPES, TOL, TOLN, COST, RD, WR, FL, NUMPY, F32,   \
                  F64)                                                                             \
    {ACCEL_OP_##E, #NAME, ACCEL_OP_KIND_##KIND, READS, ACCEL_TOLERANCE_##TOL, TOLN, F32, F64},
static const ocl_row rows[] = {ACCEL_OP_LIST(OCL_X_ROW)};
#undef OCL_X_ROW

/* OpenCL C stands-ins for what philox.h and the table's expressions name:
 * the CUDA device path of philox.h maps one to one onto OpenCL built-ins
 * (mul_hi, as_int, as_float), and the f32 libm names onto the overloads. */
static const char prelude[] =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "#ifdef ACCEL_FP64\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#endif\n"
    "typedef uint uint32_t;\ntypedef ulong uint64_t;\ntypedef int int32_t;\n"
    "typedef long int64_t;\n"
    "#define __CUDA_ARCH__ 1\n"
    "#define __umulhi(a, b) mul_hi((uint)(a), (uint)(b))\n"
    "#define __float_as_int(v) as_int(v)\n#define __int_as_float(v) as_float(v)\n"
    "#define fmaf(a, b, c) fma((float)(a), (float)(b), (float)(c))\n";
static const char after_philox[] = "#undef __CUDA_ARCH__\n"
                                   "#define expf(v) exp(v)\n#define logf(v) log(v)\n"
                                   "#define sqrtf(v) sqrt(v)\n#define fabsf(v) fabs(v)\n"
                                   "#define tanhf(v) tanh(v)\n#define sinf(v) sin(v)\n"
                                   "#define cosf(v) cos(v)\n";

static int is_elementwise(const ocl_row *r)
{
    return r->f32 && (r->kind == ACCEL_OP_KIND_FILL || r->kind == ACCEL_OP_KIND_BINARY ||
                      r->kind == ACCEL_OP_KIND_UNARY || r->kind == ACCEL_OP_KIND_AXPBY);
}

/* f32 rows evaluated in double and rounded once (as the CPU backend does):
 * those whose bound is tighter than OpenCL's own f32 built-ins (exp, log 3
 * ulp, tanh 5, sin/cos 4, against the table's 4 ulp of a reference that is
 * itself up to 0.5 ulp off), and division and square root where the device
 * cannot round them correctly in single precision. Needs fp64. */
static int f32_in_double(const ocl_device *d, const ocl_row *r)
{
    if (!d->fp64)
        return 0;
    if (r->tol == ACCEL_TOLERANCE_ULPS && r->tol_n > 1)
        return 1;
    return !d->fp32_correct_div_sqrt && (strchr(r->f32, '/') || strstr(r->f32, "sqrt"));
}

/* One elementwise kernel: ew_NAME_f32 or ew_NAME_f64, one element per
 * work-item (what both GPUs and PoCL's work-group vectorizer do best).
 * Operands as in accel_op_desc; the unused pointers get operand 0's
 * buffer. */
static void gen_elementwise(ocl_strbuf *b, const ocl_device *d, const ocl_row *r, int f64)
{
    const char *T = f64 ? "double" : "float";
    int wide = !f64 && f32_in_double(d, r);
    const char *CT = f64 || wide ? "double" : "float";
    const char *expr = f64 || wide ? r->f64 : r->f32;
    ocl_sb_printf(b,
                  "__kernel void ew_%s_%s(__global %s *p0, ulong o0, __global %s *p1, ulong o1, "
                  "__global %s *p2, ulong o2, ulong n, %s s0, %s s1)\n{\n"
                  "  const ulong i = get_global_id(0);\n  if (i < n) {\n",
                  r->name, f64 ? "f64" : "f32", T, T, T, T, T);
    const char *out = "p1[o1 + i]";
    switch (r->kind) {
    case ACCEL_OP_KIND_FILL:
        ocl_sb_printf(b, "    %s value = s0;\n", CT);
        out = "p0[o0 + i]";
        break;
    case ACCEL_OP_KIND_BINARY:
        ocl_sb_printf(b, "    %s a = p0[o0 + i], b = p1[o1 + i];\n", CT);
        out = "p2[o2 + i]";
        break;
    case ACCEL_OP_KIND_UNARY:
        ocl_sb_printf(b, "    %s x = p0[o0 + i];\n", CT);
        break;
    default: /* AXPBY: x, then y (read only where the row says so), written */
        ocl_sb_printf(b, "    %s x = p0[o0 + i], alpha = s0, beta = s1;\n", CT);
        if (r->reads_out)
            ocl_sb_printf(b, "    %s y = p1[o1 + i];\n", CT);
        break;
    }
    ocl_sb_printf(b, "    %s = (%s)(%s);\n  }\n}\n", out, T, expr);
}

static char *program_source(const ocl_device *d)
{
    ocl_strbuf b = {0};
    ocl_sb_printf(&b, "%s%s%s%s%s%s", prelude, (const char *)ocl_philox_src, after_philox,
                  (const char *)ocl_kernels_src, (const char *)ocl_reduce_src,
                  (const char *)ocl_sort_src);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        if (!is_elementwise(&rows[i]))
            continue;
        gen_elementwise(&b, d, &rows[i], 0);
        if (d->fp64) {
            ocl_sb_printf(&b, "#ifdef ACCEL_FP64\n");
            gen_elementwise(&b, d, &rows[i], 1);
            ocl_sb_printf(&b, "#endif\n");
        }
    }
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

static const char *const fixed_names[OCL_K_FIXED_COUNT_] = {
    [OCL_K_SUM1_F32] = "sum1_f32",           [OCL_K_SUM1_F64] = "sum1_f64",
    [OCL_K_EXT1_F32] = "ext1_f32",           [OCL_K_EXT1_F64] = "ext1_f64",
    [OCL_K_EXT2_F32] = "ext2_f32",           [OCL_K_EXT2_F64] = "ext2_f64",
    [OCL_K_UNIFORM_F32] = "uniform_f32",     [OCL_K_UNIFORM_F64] = "uniform_f64",
    [OCL_K_NORMAL_F32] = "normal_f32",       [OCL_K_NORMAL_F64] = "normal_f64",
    [OCL_K_TRANSPOSE_U16] = "transpose_u16", [OCL_K_TRANSPOSE_U32] = "transpose_u32",
    [OCL_K_TRANSPOSE_U64] = "transpose_u64", [OCL_K_SCALE2D_F32] = "scale2d_f32",
    [OCL_K_SCALE2D_F64] = "scale2d_f64",     [OCL_K_SORT_KEYS_U8] = "sort_keys_u8",
    [OCL_K_SORT_KEYS_U16] = "sort_keys_u16", [OCL_K_SORT_KEYS_U32] = "sort_keys_u32",
    [OCL_K_SORT_KEYS_U64] = "sort_keys_u64", [OCL_K_SORT_OUT_U8] = "sort_out_u8",
    [OCL_K_SORT_OUT_U16] = "sort_out_u16",   [OCL_K_SORT_OUT_U32] = "sort_out_u32",
    [OCL_K_SORT_OUT_U64] = "sort_out_u64",   [OCL_K_SORT_INDEX] = "sort_index",
    [OCL_K_SORT_STEP] = "sort_step",
};

/* The kernels of a built program; 0 or -1 with d->build_error set. */
static int create_kernels(ocl_ctx *c, ocl_device *d)
{
    cl_int err = CL_SUCCESS;
    for (int k = 0; k < OCL_K_FIXED_COUNT_; ++k) {
        if (!d->fp64 && strstr(fixed_names[k], "f64"))
            continue;
        d->fixed[k] = c->cl.clCreateKernel(d->program, fixed_names[k], &err);
        if (!d->fixed[k])
            goto fail;
    }
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        if (!is_elementwise(&rows[i]))
            continue;
        for (int f64 = 0; f64 <= d->fp64; ++f64) {
            char name[64];
            snprintf(name, sizeof name, "ew_%s_%s", rows[i].name, f64 ? "f64" : "f32");
            d->ew[rows[i].op][f64] = c->cl.clCreateKernel(d->program, name, &err);
            if (!d->ew[rows[i].op][f64])
                goto fail;
        }
    }
    return 0;
fail : {
    char msg[128];
    snprintf(msg, sizeof msg, "clCreateKernel failed (%s)", ocl__error_name(err));
    d->build_error = strdup(msg);
    return -1;
}
}

/* The compiler's log after a failed build, as d->build_error. */
static void keep_build_log(ocl_ctx *c, ocl_device *d, cl_int err)
{
    size_t n = 0;
    c->cl.clGetProgramBuildInfo(d->program, d->id, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    char *log = malloc(n + 96);
    if (!log)
        return;
    int k = snprintf(log, 96, "the op program did not build (%s): ", ocl__error_name(err));
    log[k] = '\0';
    if (n)
        c->cl.clGetProgramBuildInfo(d->program, d->id, CL_PROGRAM_BUILD_LOG, n, log + k, NULL);
    log[k + n] = '\0';
    d->build_error = log;
}

static int build(ocl_ctx *c, ocl_device *d)
{
    char *src = program_source(d);
    if (!src) {
        d->build_error = strdup("out of host memory for the program source");
        return -1;
    }
    char opts[160];
    snprintf(opts, sizeof opts, "-cl-std=CL1.2 -DACCEL_WG=%zu -DACCEL_CONTIG=%d%s%s", d->wg,
             (d->type & CL_DEVICE_TYPE_CPU) ? 1 : 0, d->fp64 ? " -DACCEL_FP64" : "",
             d->fp32_correct_div_sqrt ? " -cl-fp32-correctly-rounded-divide-sqrt" : "");
    d->program = ocl__program_cache_load(c, d, src, opts);
    if (d->program) {
        free(src);
        return create_kernels(c, d);
    }
    cl_int err = CL_SUCCESS;
    const char *srcs[] = {src};
    d->program = c->cl.clCreateProgramWithSource(d->context, 1, srcs, NULL, &err);
    if (!d->program) {
        free(src);
        d->build_error = strdup("clCreateProgramWithSource failed");
        return -1;
    }
    err = c->cl.clBuildProgram(d->program, 1, &d->id, opts, NULL, NULL);
    if (err == CL_SUCCESS)
        ocl__program_cache_store(c, d, d->program, src, opts);
    free(src);
    if (err != CL_SUCCESS) {
        keep_build_log(c, d, err);
        return -1;
    }
    return create_kernels(c, d);
}

const char *ocl__cuda_prelude(void)
{
    return (const char *)ocl_cuda_prelude_src;
}

int32_t ocl__program_ensure(ocl_ctx *c, ocl_device *d)
{
    pthread_mutex_lock(&d->build_lock);
    if (d->built == 0)
        d->built = build(c, d) == 0 ? 1 : -1;
    int built = d->built;
    pthread_mutex_unlock(&d->build_lock);
    if (built > 0)
        return ACCEL_SUCCESS;
    return ocl__fail(c, ACCEL_ERROR_DEVICE, "opencl: %s: %s", d->name,
                     d->build_error ? d->build_error : "the op program did not build");
}

void ocl__program_release(ocl_ctx *c, ocl_device *d)
{
    for (int k = 0; k < OCL_K_FIXED_COUNT_; ++k)
        if (d->fixed[k])
            c->cl.clReleaseKernel(d->fixed[k]);
    for (int op = 0; op < ACCEL_OP_CODE_LIMIT; ++op)
        for (int f = 0; f < 2; ++f)
            if (d->ew[op][f])
                c->cl.clReleaseKernel(d->ew[op][f]);
    if (d->program)
        c->cl.clReleaseProgram(d->program);
    free(d->build_error);
    memset(d->fixed, 0, sizeof d->fixed);
    memset(d->ew, 0, sizeof d->ew);
    d->program = NULL;
    d->build_error = NULL;
    d->built = 0;
}
