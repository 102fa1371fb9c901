/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/kernel_codegen.c — the source each backend compiles for a user
 * kernel: C11 for the CPU twin (ACCEL_PROGRAM_C) and CUDA C++ for NVRTC
 * (ACCEL_PROGRAM_CUDA), with the calling conventions of accel/backend.h.
 *
 * Both languages share one prelude (16-bit float conversions, rounded to
 * nearest even, bit for bit the same on both), so a kernel computes the
 * same thing on every device; the reduction order is the one kernel.h
 * documents, spelled the same way in both. The user's text is preceded by
 * #line directives, so compiler messages count lines in the user's text
 * ("saxpy:1:7: error: ..."). The C twin includes no header: it works with
 * the embedded compiler on a machine without C library headers. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sbuf.h"
#include "base/status.h"
#include "kernels/kernel_twin.h"
#include "kernels/kernels.h"

/* ------------------------------------------------------------ preludes */

/* Shared by C and CUDA; ACCEL_FN is defined first for each language. */
static const char prelude_common[] =
    "typedef union accel_fbits { unsigned u; float f; } accel_fbits;\n"
    "ACCEL_FN float accel_u2f(unsigned u) { accel_fbits v; v.u = u; return v.f; }\n"
    "ACCEL_FN unsigned accel_f2u(float f) { accel_fbits v; v.f = f; return v.u; }\n"
    "ACCEL_FN float accel_bf2f(unsigned short h) { return accel_u2f((unsigned)h << 16); }\n"
    "ACCEL_FN unsigned short accel_f2bf(float f) {\n"
    "  unsigned u = accel_f2u(f);\n"
    "  if ((u & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((u >> 16) | 0x40u);\n"
    "  u += 0x7fffu + ((u >> 16) & 1u);\n"
    "  return (unsigned short)(u >> 16);\n"
    "}\n"
    "ACCEL_FN float accel_h2f(unsigned short h) {\n"
    "  unsigned s = (unsigned)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;\n"
    "  if (e == 0x1fu) return accel_u2f(s | 0x7f800000u | (m << 13));\n"
    "  if (e == 0u) { float v = (float)m * 5.9604644775390625e-8f; return s ? -v : v; }\n"
    "  return accel_u2f(s | ((e + 112u) << 23) | (m << 13));\n"
    "}\n"
    "ACCEL_FN unsigned short accel_f2h(float f) {\n"
    "  unsigned u = accel_f2u(f), s = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;\n"
    "  if (a > 0x7f800000u) {\n" /* NaN: its top payload bits kept, as NumPy's */
    "    unsigned n = 0x7c00u | ((a & 0x7fffffu) >> 13);\n"
    "    return (unsigned short)(s | (n == 0x7c00u ? 0x7c01u : n));\n"
    "  }\n"
    "  if (a >= 0x477ff000u) return (unsigned short)(s | 0x7c00u);\n"
    "  if (a < 0x38800000u) {\n"
    "    float t = accel_u2f(a) * 16777216.0f + 8388608.0f;\n"
    "    return (unsigned short)(s | (unsigned)(t - 8388608.0f));\n"
    "  }\n"
    "  unsigned h = (((a >> 23) - 112u) << 10) | ((a & 0x7fffffu) >> 13), r = a & 0x1fffu;\n"
    "  if (r > 0x1000u || (r == 0x1000u && (h & 1u))) h++;\n"
    "  return (unsigned short)(s | h);\n"
    "}\n";

const char *accel__kernel_prelude_16bit(void)
{
    return prelude_common;
}

/* The C twin: no headers; math functions come from the process's libm. */
static const char prelude_c[] =
    "#define ACCEL_FN static inline\n"
    "typedef unsigned long size_t;\n"
    "typedef signed char int8_t; typedef short int16_t; typedef int int32_t;\n"
    "typedef long int64_t; typedef unsigned char uint8_t; typedef unsigned short uint16_t;\n"
    "typedef unsigned int uint32_t; typedef unsigned long uint64_t;\n"
    "typedef float float32; typedef double float64;\n"
    "double sqrt(double); double exp(double); double log(double); double log2(double);\n"
    "double log10(double); double exp2(double); double expm1(double); double log1p(double);\n"
    "double sin(double); double cos(double); double tan(double); double asin(double);\n"
    "double acos(double); double atan(double); double atan2(double, double);\n"
    "double sinh(double); double cosh(double); double tanh(double);\n"
    "double pow(double, double); double fabs(double); double floor(double);\n"
    "double ceil(double); double round(double); double trunc(double);\n"
    "double fmod(double, double); double fmin(double, double); double fmax(double, double);\n"
    "double hypot(double, double); double cbrt(double); double erf(double); double erfc(double);\n"
    "float sqrtf(float); float expf(float); float logf(float); float log2f(float);\n"
    "float log10f(float); float exp2f(float); float expm1f(float); float log1pf(float);\n"
    "float sinf(float); float cosf(float); float tanf(float); float asinf(float);\n"
    "float acosf(float); float atanf(float); float atan2f(float, float);\n"
    "float sinhf(float); float coshf(float); float tanhf(float);\n"
    "float powf(float, float); float fabsf(float); float floorf(float);\n"
    "float ceilf(float); float roundf(float); float truncf(float);\n"
    "float fmodf(float, float); float fminf(float, float); float fmaxf(float, float);\n"
    "float hypotf(float, float); float cbrtf(float); float erff(float); float erfcf(float);\n"
    "#define min(a, b) ((a) < (b) ? (a) : (b))\n"
    "#define max(a, b) ((a) > (b) ? (a) : (b))\n"
    "#define rsqrtf(x) (1.0f / sqrtf(x))\n"
    "#define rsqrt(x) (1.0 / sqrt(x))\n"
    "#define __fdividef(a, b) ((a) / (b))\n"
    "#define __ldg(p) (*(p))\n";

static const char prelude_cuda[] = "#define ACCEL_FN __device__ __forceinline__\n"
                                   "typedef float float32; typedef double float64;\n";

/* ------------------------------------------------------------ types */

/* Type of a value in the body: float for 16-bit floats. */
static const char *arith_type(accel_dtype dt)
{
    static const char *const type[ACCEL_DTYPE_COUNT_] = {
        [ACCEL_F32] = "float",  [ACCEL_F16] = "float",     [ACCEL_BF16] = "float",
        [ACCEL_F64] = "double", [ACCEL_I64] = "long long", [ACCEL_U8] = "unsigned char"};
    return (unsigned)dt < ACCEL_DTYPE_COUNT_ && type[dt] ? type[dt] : "int";
}

/* The reduction's accumulator: the output's arithmetic type (int for uint8). */
static const char *reduce_type(accel_dtype dt)
{
    return dt == ACCEL_U8 ? "int" : arith_type(dt);
}

static const char *storage_type(accel_dtype dt)
{
    return dt == ACCEL_F16 || dt == ACCEL_BF16 ? "unsigned short" : arith_type(dt);
}

/* An element as the body sees it: "accel_h2f(P[I])" or "P[I]". */
static void load_expr(accel__sbuf *b, accel_dtype dt, const char *ptr, const char *idx)
{
    if (dt == ACCEL_F16)
        accel__sbuf_put(b, "accel_h2f(%s[%s])", ptr, idx);
    else if (dt == ACCEL_BF16)
        accel__sbuf_put(b, "accel_bf2f(%s[%s])", ptr, idx);
    else
        accel__sbuf_put(b, "%s[%s]", ptr, idx);
}

static void store_stmt(accel__sbuf *b, accel_dtype dt, const char *ptr, const char *idx,
                       const char *val)
{
    if (dt == ACCEL_F16)
        accel__sbuf_put(b, "%s[%s] = accel_f2h((float)(%s));\n", ptr, idx, val);
    else if (dt == ACCEL_BF16)
        accel__sbuf_put(b, "%s[%s] = accel_f2bf((float)(%s));\n", ptr, idx, val);
    else
        accel__sbuf_put(b, "%s[%s] = (%s)(%s);\n", ptr, idx, storage_type(dt), val);
}

static bool is_scalar(uint32_t mask, uint32_t i)
{
    return i < 32 && (mask >> i) & 1u;
}

/* Pointer and scalar declarations at the top of an entry, C twin: from
 * args[]; CUDA: the parameters themselves are the pointers/values. */
static void c_unpack(accel__sbuf *b, const accel_kernel *k, uint32_t mask)
{
    for (uint32_t i = 0; i < k->nparams; i++) {
        const accel__kparam *p = &k->params[i];
        if (is_scalar(mask, i))
            accel__sbuf_put(b, "  const %s %s = *(const %s *)args[%u];\n", arith_type(p->dtype),
                            p->name, arith_type(p->dtype), i);
        else
            accel__sbuf_put(b, "  %s%s *const accel_p%u = (%s *)args[%u];\n",
                            p->output ? "" : "const ", storage_type(p->dtype), i,
                            storage_type(p->dtype), i);
    }
}

static void cuda_params(accel__sbuf *b, const accel_kernel *k, uint32_t mask)
{
    for (uint32_t i = 0; i < k->nparams; i++) {
        const accel__kparam *p = &k->params[i];
        if (is_scalar(mask, i))
            accel__sbuf_put(b, "const %s %s, ", arith_type(p->dtype), p->name);
        else
            accel__sbuf_put(b, "%s%s *const accel_p%u, ", p->output ? "" : "const ",
                            storage_type(p->dtype), i);
    }
}

/* The per-element inputs. */
static void load_inputs(accel__sbuf *b, const accel_kernel *k, uint32_t mask, const char *idx)
{
    char ptr[32];
    for (uint32_t i = 0; i < k->nin; i++) {
        const accel__kparam *p = &k->params[i];
        if (is_scalar(mask, i))
            continue;
        snprintf(ptr, sizeof ptr, "accel_p%u", i);
        accel__sbuf_put(b, "    const %s %s = ", arith_type(p->dtype), p->name);
        load_expr(b, p->dtype, ptr, idx);
        accel__sbuf_str(b, ";\n");
    }
}

/* "#line 1 "NAME (what)"" then text on its own lines, then a #line that
 * gives the next line (the wrapper's closing of the text) the number of the
 * text's last line: an error found only there (an operand missing at the
 * end of "x +") points into the user's text, not past it. Wrapper code
 * after that should call wrapper_lines. */
static void user_text(accel__sbuf *b, const accel_kernel *k, const char *what, const char *text)
{
    unsigned last = 1;
    for (const char *t = text; *t; t++)
        last += *t == '\n';
    if (what)
        accel__sbuf_put(b, "#line 1 \"%s (%s)\"\n%s\n#line %u\n", k->name, what, text, last);
    else
        accel__sbuf_put(b, "#line 1 \"%s\"\n%s\n#line %u\n", k->name, text, last);
}

/* Lines after a user text's closing belong to the generated wrapper. */
static void wrapper_lines(accel__sbuf *b)
{
    accel__sbuf_str(b, "\n#line 1 \"accel wrapper\"\n");
}

/* ------------------------------------------------------------ elementwise */

/* The CUDA elementwise entry's block (backend.h): its threads, and the
 * 4-element vectors each thread does per step. */
#define ACCEL__EW_THREADS 256u
#define ACCEL__EW_STEPS (ACCEL_KERNEL_ELEMENTWISE_BLOCK / (4u * ACCEL__EW_THREADS))
_Static_assert(ACCEL__EW_STEPS >= 1 &&
                   ACCEL__EW_STEPS * 4u * ACCEL__EW_THREADS == ACCEL_KERNEL_ELEMENTWISE_BLOCK,
               "a block's elements are whole vectors of every thread");

static void elementwise_body(accel__sbuf *b, const accel_kernel *k, uint32_t mask)
{
    load_inputs(b, k, mask, "i");
    for (uint32_t o = k->nin; o < k->nparams; o++)
        accel__sbuf_put(b, "    %s %s = 0;\n", arith_type(k->params[o].dtype), k->params[o].name);
    accel__sbuf_str(b, "    {\n");
    user_text(b, k, NULL, k->body);
    accel__sbuf_str(b, ";");
    wrapper_lines(b);
    accel__sbuf_str(b, "    }\n");
    char ptr[32];
    for (uint32_t o = k->nin; o < k->nparams; o++) {
        snprintf(ptr, sizeof ptr, "accel_p%u", o);
        accel__sbuf_str(b, "    ");
        store_stmt(b, k->params[o].dtype, ptr, "i", k->params[o].name);
    }
}

/* One element through accel_elem (see gen_elementwise_cuda): the outputs
 * declared, the call (i, n, then each parameter), the stores. step >= 0:
 * element accel_u of the thread's vector step (arrays read from
 * accel_x%u_STEP.v[accel_u], stored into accel_y%u_STEP.v[accel_u]); step < 0:
 * element accel_i, straight from and to accel_p%u[accel_i]. pad: the
 * indentation of the loop around it. */
static void elem_call(accel__sbuf *b, const accel_kernel *k, uint32_t mask, int step,
                      const char *pad)
{
    for (uint32_t o = k->nin; o < k->nparams; o++)
        accel__sbuf_put(b, "%s%s accel_o%u = 0;\n", pad, arith_type(k->params[o].dtype), o);
    if (step >= 0)
        accel__sbuf_put(b, "%saccel_elem(4 * (accel_v + %du) + accel_u, n", pad,
                        step * ACCEL__EW_THREADS);
    else
        accel__sbuf_put(b, "%saccel_elem(accel_i, n", pad);
    char ptr[32], val[32];
    for (uint32_t p = 0; p < k->nparams; p++) {
        accel__sbuf_str(b, ", ");
        if (p >= k->nin) {
            accel__sbuf_put(b, "accel_o%u", p);
        } else if (is_scalar(mask, p)) {
            accel__sbuf_str(b, k->params[p].name);
        } else {
            if (step >= 0)
                snprintf(ptr, sizeof ptr, "accel_x%u_%d.v", p, step);
            else
                snprintf(ptr, sizeof ptr, "accel_p%u", p);
            load_expr(b, k->params[p].dtype, ptr, step >= 0 ? "accel_u" : "accel_i");
        }
    }
    accel__sbuf_str(b, ");\n");
    for (uint32_t o = k->nin; o < k->nparams; o++) {
        if (step >= 0)
            snprintf(ptr, sizeof ptr, "accel_y%u_%d.v", o, step);
        else
            snprintf(ptr, sizeof ptr, "accel_p%u", o);
        snprintf(val, sizeof val, "accel_o%u", o);
        accel__sbuf_str(b, pad);
        store_stmt(b, k->params[o].dtype, ptr, step >= 0 ? "accel_u" : "accel_i", val);
    }
}

/* Vectors accel_v, accel_v + 256, ... (steps of them) of every array: the
 * loads of every input, the elements, then the stores (pad: indentation). */
static void vector_steps(accel__sbuf *b, const accel_kernel *k, uint32_t mask, unsigned steps,
                         const char *pad)
{
    for (uint32_t p = 0; p < k->nparams; p++) {
        const char *st = storage_type(k->params[p].dtype);
        if (is_scalar(mask, p))
            continue;
        accel__sbuf_put(
            b, "%s%saccel_v4<%s> *const accel_a%u = (%saccel_v4<%s> *)accel_p%u + accel_v;\n", pad,
            p < k->nin ? "const " : "", st, p, p < k->nin ? "const " : "", st, p);
        for (unsigned s = 0; s < steps; s++) {
            if (p >= k->nin)
                accel__sbuf_put(b, "%saccel_v4<%s> accel_y%u_%u;\n", pad, st, p, s);
            else
                accel__sbuf_put(b, "%sconst accel_v4<%s> accel_x%u_%u = accel_a%u[%u];\n", pad, st,
                                p, s, p, s * ACCEL__EW_THREADS);
        }
    }
    for (unsigned s = 0; s < steps; s++) {
        accel__sbuf_put(b,
                        "#pragma unroll\n"
                        "%sfor (unsigned accel_u = 0; accel_u < 4; accel_u++) {\n",
                        pad);
        char inner[32];
        snprintf(inner, sizeof inner, "%s  ", pad);
        elem_call(b, k, mask, (int)s, inner);
        accel__sbuf_put(b, "%s}\n", pad);
    }
    for (uint32_t o = k->nin; o < k->nparams; o++)
        for (unsigned s = 0; s < steps; s++)
            accel__sbuf_put(b, "%saccel_a%u[%u] = accel_y%u_%u;\n", pad, o, s * ACCEL__EW_THREADS,
                            o, s);
}

/* CUDA: accel_elem holds the user's body once (inlined everywhere). A block
 * of ACCEL__EW_THREADS threads covers ACCEL_KERNEL_ELEMENTWISE_BLOCK
 * consecutive elements per step: in a full block whose arrays are all
 * aligned to their 4-element vector (16 bytes for 4-byte dtypes), thread t
 * loads vectors t and t + 256 of the block's 512 from every input before it
 * computes any element (two loads in flight per array and thread), then
 * stores them. The block holding the end of the range does what vectors
 * it has one at a time, then the last n % 4 elements one by one; with
 * unaligned arrays every block goes element by element, thread t elements
 * t, t + 256, ... (coalesced). The full block's path is what an element
 * costs: per thread one index, one check, one base address per array with
 * the second vector at a constant offset, and the elements. For sm_90
 * (cuobjdump -sass of NVRTC's options), graph_bench's fused 8-op chain went
 * from 219 instructions per thread for 4 elements (one vector per thread,
 * grid-stride loops, a tail loop) to 368 for 8: 54.8 -> 46.0 per element;
 * the hand-written kernel of the same arithmetic in bench/graph_raw_cuda.cu
 * takes 46.8 with one vector per thread, 44.9 with two. All paths compute
 * each element by the same function from the same values, so the results
 * are the same bits. Arrays may alias only element for element (in place),
 * which the loads-then-bodies-then-stores order keeps right; so no
 * __restrict__. Indices are size_t (addresses are 64-bit anyway). Any grid
 * is correct (the blocks are grid-strided); the backend launches n /
 * ACCEL_KERNEL_ELEMENTWISE_BLOCK blocks (rounded up), one step per block. */
static void gen_elementwise_cuda(accel__sbuf *b, const accel_kernel *k, uint32_t mask,
                                 const char *entry)
{
    const unsigned threads = ACCEL__EW_THREADS, steps = ACCEL__EW_STEPS;
    accel__sbuf_str(b, "template <typename T> struct alignas(4 * sizeof(T)) accel_v4 { T v[4]; };\n"
                       "__device__ __forceinline__ void accel_elem(const size_t i, const size_t n");
    for (uint32_t p = 0; p < k->nparams; p++)
        accel__sbuf_put(b, ", %s%s %s%s", p < k->nin ? "const " : "",
                        arith_type(k->params[p].dtype), p < k->nin ? "" : "&", k->params[p].name);
    accel__sbuf_str(b, ") {\n  (void)i; (void)n;\n  {\n");
    user_text(b, k, NULL, k->body);
    accel__sbuf_str(b, ";");
    wrapper_lines(b);
    accel__sbuf_str(b, "  }\n}\n");

    accel__sbuf_put(b,
                    "#line 1 \"accel elementwise wrapper\"\n"
                    "extern \"C\" __global__ void __launch_bounds__(%u) %s(",
                    threads, entry);
    cuda_params(b, k, mask);
    accel__sbuf_str(b, "const size_t n) {\n"
                       "  const bool accel_al = 0 == (0");
    for (uint32_t p = 0; p < k->nparams; p++)
        if (!is_scalar(mask, p))
            accel__sbuf_put(b, " | ((size_t)accel_p%u & (4 * sizeof(*accel_p%u) - 1))", p, p);
    accel__sbuf_put(b,
                    ");\n"
                    "  const size_t accel_nv = n / 4;\n"
                    "  size_t accel_v0 = (size_t)blockIdx.x * %uu;\n"
                    "  do {\n"
                    "    if (accel_al && accel_v0 + %uu <= accel_nv) {\n"
                    "      const size_t accel_v = accel_v0 + threadIdx.x;\n",
                    threads * steps, threads * steps);
    vector_steps(b, k, mask, steps, "      ");
    accel__sbuf_put(b,
                    "    } else {\n"
                    "      size_t accel_e = 4 * accel_v0;\n"
                    "      if (accel_al) {\n"
                    "#pragma unroll 1\n"
                    "        for (unsigned accel_s = 0; accel_s < %uu; accel_s++) {\n"
                    "          const size_t accel_v = accel_v0 + accel_s * %uu + threadIdx.x;\n"
                    "          if (accel_v < accel_nv) {\n",
                    steps, threads);
    vector_steps(b, k, mask, 1, "            ");
    accel__sbuf_put(b,
                    "          }\n"
                    "        }\n"
                    "        accel_e = 4 * accel_nv;\n"
                    "      }\n"
                    "#pragma unroll 1\n"
                    "      for (unsigned accel_j = 0; accel_j < %uu; accel_j++) {\n"
                    "        const size_t accel_i = 4 * accel_v0 + accel_j * %uu + threadIdx.x;\n"
                    "        if (accel_i >= accel_e && accel_i < n) {\n",
                    4 * steps, threads);
    elem_call(b, k, mask, -1, "          ");
    accel__sbuf_put(b,
                    "        }\n"
                    "      }\n"
                    "    }\n"
                    "    accel_v0 += (size_t)gridDim.x * %uu;\n"
                    "  } while (4 * accel_v0 < n);\n"
                    "}\n",
                    threads * steps);
}

static void gen_elementwise(accel__sbuf *b, const accel_kernel *k, uint32_t lang, uint32_t mask,
                            const char *entry)
{
    if (lang == ACCEL_PROGRAM_C) {
        accel__sbuf_put(b, "void %s(void *const *args, size_t begin, size_t end, size_t n) {\n",
                        entry);
        c_unpack(b, k, mask);
        accel__sbuf_str(b, "  (void)n;\n  for (size_t i = begin; i < end; i++) {\n");
        elementwise_body(b, k, mask);
        accel__sbuf_str(b, "  }\n}\n");
        return;
    }
    gen_elementwise_cuda(b, k, mask, entry);
}

/* ------------------------------------------------------------ reduction */

/* The user's text as an expression closing the "(" already written. */
static void user_expr(accel__sbuf *b, const accel_kernel *k, const char *what, const char *text)
{
    user_text(b, k, what, text);
    accel__sbuf_str(b, "      );");
    wrapper_lines(b);
}

/* "{ RT a = A, b = B; DST = (RT)(REDUCE); }" */
static void reduce_step(accel__sbuf *b, const accel_kernel *k, const char *rt, const char *dst,
                        const char *a, const char *bb)
{
    accel__sbuf_put(b, "      { const %s a = %s, b = %s;\n", rt, a, bb);
    accel__sbuf_put(b, "      %s = (%s)(\n", dst, rt);
    user_expr(b, k, "reduce", k->reduce);
    accel__sbuf_str(b, "      }\n");
}

/* Loads element i's inputs, maps them to accel_v and folds it into acc. */
static void map_step(accel__sbuf *b, const accel_kernel *k, uint32_t mask, const char *rt,
                     const char *acc)
{
    load_inputs(b, k, mask, "i");
    accel__sbuf_put(b, "      const %s accel_v = (%s)(\n", rt, rt);
    user_expr(b, k, "map", k->map);
    reduce_step(b, k, rt, acc, acc, "accel_v");
}

/* The C twin's loops up to the opening of the post expression (which reads
 * a, the row's result, into accel_y). */
static void gen_reduction_c(accel__sbuf *b, const accel_kernel *k, uint32_t mask, const char *entry,
                            const char *rt, accel_dtype odt)
{
    const unsigned ch = ACCEL_KERNEL_REDUCE_CHUNK;
    accel__sbuf_put(b,
                    "void %s(void *const *args, size_t row_begin, size_t row_end, size_t cols) "
                    "{\n",
                    entry);
    c_unpack(b, k, mask);
    accel__sbuf_put(b,
                    "  const size_t accel_np = cols > %uu ? (cols + %uu - 1) / %uu : 1;\n"
                    "  for (size_t accel_r = row_begin; accel_r < row_end; accel_r++) {\n"
                    "    %s accel_lane[256], accel_fin[256];\n"
                    "    const %s accel_id = (%s)(\n",
                    ch, ch, ch, rt, rt, rt);
    user_expr(b, k, "identity", k->identity);
    accel__sbuf_put(
        b,
        "    for (unsigned accel_l = 0; accel_l < 256; accel_l++)\n"
        "      accel_fin[accel_l] = accel_id;\n"
        "    for (size_t accel_q = 0; accel_q < accel_np; accel_q++) {\n"
        "     const size_t accel_k0 = accel_q * %uu;\n"
        "     const size_t accel_ke = cols - accel_k0 < %uu ? cols : accel_k0 + %uu;\n"
        "     for (unsigned accel_l = 0; accel_l < 256; accel_l++)\n"
        "      accel_lane[accel_l] = accel_id;\n"
        "     for (size_t accel_c0 = accel_k0; accel_c0 < accel_ke; accel_c0 += 256) {\n"
        "      const size_t accel_m = accel_ke - accel_c0 < 256 ? accel_ke - accel_c0 : "
        "256;\n"
        "      for (size_t accel_l = 0; accel_l < accel_m; accel_l++) {\n"
        "       const size_t i = accel_r * cols + accel_c0 + accel_l;\n",
        ch, ch, ch);
    map_step(b, k, mask, rt, "accel_lane[accel_l]");
    accel__sbuf_str(b, "      }\n     }\n"
                       "     for (unsigned accel_s = 128; accel_s > 0; accel_s >>= 1)\n"
                       "      for (unsigned accel_l = 0; accel_l < accel_s; accel_l++)\n");
    reduce_step(b, k, rt, "accel_lane[accel_l]", "accel_lane[accel_l]",
                "accel_lane[accel_l + accel_s]");
    /* A row of several chunks: chunk q's partial folds into lane
     * q % 256 of the final pass, as the CUDA code's second phase. */
    accel__sbuf_str(b, "     if (accel_np == 1)\n      break;\n");
    reduce_step(b, k, rt, "accel_fin[accel_q & 255]", "accel_fin[accel_q & 255]", "accel_lane[0]");
    accel__sbuf_str(b, "    }\n"
                       "    if (accel_np > 1) {\n"
                       "     for (unsigned accel_l = 0; accel_l < 256; accel_l++)\n"
                       "      accel_lane[accel_l] = accel_fin[accel_l];\n"
                       "     for (unsigned accel_s = 128; accel_s > 0; accel_s >>= 1)\n"
                       "      for (unsigned accel_l = 0; accel_l < accel_s; accel_l++)\n");
    reduce_step(b, k, rt, "accel_lane[accel_l]", "accel_lane[accel_l]",
                "accel_lane[accel_l + accel_s]");
    accel__sbuf_str(b, "    }\n");
    accel__sbuf_put(b,
                    "    { const %s a = accel_lane[0];\n"
                    "      const %s accel_y = (%s)(\n",
                    rt, arith_type(odt), arith_type(odt));
}

/* The CUDA kernel's two phases up to the opening of the post expression.
 * Phase 0: block b reduces chunk b % np of row b / np (a row of one chunk
 * is finished there); phase 1: block r reduces row r's partials in index
 * order (thread l folds partials l, l+256, ...). */
static void gen_reduction_cuda(accel__sbuf *b, const accel_kernel *k, uint32_t mask,
                               const char *entry, const char *rt, accel_dtype odt)
{
    const unsigned ch = ACCEL_KERNEL_REDUCE_CHUNK;
    accel__sbuf_put(b, "extern \"C\" __global__ void __launch_bounds__(256) %s(", entry);
    cuda_params(b, k, mask);
    accel__sbuf_put(b,
                    "size_t rows, size_t cols, void *accel_part_v, unsigned accel_phase) {\n"
                    "  __shared__ %s accel_lane[256];\n"
                    "  %s *const accel_part = (%s *)accel_part_v;\n"
                    "  const unsigned accel_l = threadIdx.x;\n"
                    "  const size_t accel_np = cols > %uu ? (cols + %uu - 1) / %uu : 1;\n"
                    "  const size_t accel_nb = accel_phase ? rows : rows * accel_np;\n"
                    "  const %s accel_id = (%s)(\n",
                    rt, rt, rt, ch, ch, ch, rt, rt);
    user_expr(b, k, "identity", k->identity);
    accel__sbuf_put(b,
                    "  for (size_t accel_b = blockIdx.x; accel_b < accel_nb; accel_b += gridDim.x) "
                    "{\n"
                    "    const size_t accel_r = accel_phase ? accel_b : accel_b / accel_np;\n"
                    "    %s accel_acc = accel_id;\n"
                    "    if (accel_phase) {\n"
                    "     for (size_t accel_q = accel_l; accel_q < accel_np; accel_q += 256)\n",
                    rt);
    reduce_step(b, k, rt, "accel_acc", "accel_acc", "accel_part[accel_r * accel_np + accel_q]");
    accel__sbuf_put(b,
                    "    } else {\n"
                    "     const size_t accel_k0 = (accel_b %% accel_np) * %uu;\n"
                    "     const size_t accel_ke = cols - accel_k0 < %uu ? cols : accel_k0 + %uu;\n"
                    "     for (size_t accel_c = accel_k0 + accel_l; accel_c < accel_ke; accel_c += "
                    "256) {\n"
                    "      const size_t i = accel_r * cols + accel_c;\n",
                    ch, ch, ch);
    map_step(b, k, mask, rt, "accel_acc");
    accel__sbuf_str(b, "     }\n    }\n"
                       "    accel_lane[accel_l] = accel_acc;\n"
                       "    __syncthreads();\n"
                       "    for (unsigned accel_s = 128; accel_s > 0; accel_s >>= 1) {\n"
                       "     if (accel_l < accel_s)\n");
    reduce_step(b, k, rt, "accel_lane[accel_l]", "accel_lane[accel_l]",
                "accel_lane[accel_l + accel_s]");
    accel__sbuf_str(b, "     __syncthreads();\n    }\n"
                       "    if (accel_l == 0 && !accel_phase && accel_np > 1)\n"
                       "      accel_part[accel_b] = accel_lane[0];\n");
    accel__sbuf_put(b,
                    "    else if (accel_l == 0) { const %s a = accel_lane[0];\n"
                    "      const %s accel_y = (%s)(\n",
                    rt, arith_type(odt), arith_type(odt));
}

static void gen_reduction(accel__sbuf *b, const accel_kernel *k, uint32_t lang, uint32_t mask,
                          const char *entry)
{
    const accel__kparam *out = &k->params[k->nin];
    const char *rt = reduce_type(out->dtype);
    char optr[32];
    snprintf(optr, sizeof optr, "accel_p%u", k->nin);
    if (lang == ACCEL_PROGRAM_C)
        gen_reduction_c(b, k, mask, entry, rt, out->dtype);
    else
        gen_reduction_cuda(b, k, mask, entry, rt, out->dtype);
    user_expr(b, k, "post", k->post);
    accel__sbuf_str(b, "      ");
    store_stmt(b, out->dtype, optr, "accel_r", "accel_y");
    accel__sbuf_str(b, "    }\n");
    if (lang == ACCEL_PROGRAM_CUDA)
        accel__sbuf_str(b, "    __syncthreads();\n");
    accel__sbuf_str(b, "  }\n}\n");
}

/* ------------------------------------------------------------ raw */

static void gen_raw(accel__sbuf *b, const accel_kernel *k, uint32_t lang, uint32_t mask,
                    const char *entry)
{
    if (lang == ACCEL_PROGRAM_CUDA) {
        accel__sbuf_put(b, "extern \"C\" {\n#line 1 \"%s\"\n", k->name);
        accel__sbuf_str(b, k->source);
        accel__sbuf_str(b, "\n}\n");
        return;
    }
    /* The C twin (kernel_twin.c); mask's debug bit asks for checked accesses. */
    char *twin = accel__twin_program(k, entry, (mask & ACCEL__KMASK_DEBUG) != 0);
    if (!twin) {
        b->oom = true;
        return;
    }
    accel__sbuf_str(b, twin);
    free(twin);
}

/* The 16-bit float helpers are emitted only for kernels that store such
 * dtypes: less text for NVRTC and cc to read (raw kernels never use them). */
static bool uses_16bit(const accel_kernel *k)
{
    if (k->kind == ACCEL_KERNEL_RAW)
        return false;
    for (uint32_t i = 0; i < k->nparams; i++)
        if (k->params[i].dtype == ACCEL_F16 || k->params[i].dtype == ACCEL_BF16)
            return true;
    return false;
}

char *accel__kernel_codegen(const accel_kernel *k, uint32_t language, uint32_t mask, char *entry)
{
    accel__sbuf b = {NULL, 0, 0, false};
    if (language == ACCEL_PROGRAM_C) {
        accel__sbuf_str(&b, prelude_c);
    } else {
        accel__sbuf_str(&b, prelude_cuda);
    }
    if (uses_16bit(k))
        accel__sbuf_str(&b, prelude_common);
    switch (k->kind) {
    case ACCEL_KERNEL_ELEMENTWISE:
        snprintf(entry, ACCEL__KNAME_MAX + 16, "accel_ew_%s", k->name);
        gen_elementwise(&b, k, language, mask, entry);
        break;
    case ACCEL_KERNEL_REDUCTION:
        snprintf(entry, ACCEL__KNAME_MAX + 16, "accel_red_%s", k->name);
        gen_reduction(&b, k, language, mask, entry);
        break;
    default:
        snprintf(entry, ACCEL__KNAME_MAX + 16, "%s%s",
                 language == ACCEL_PROGRAM_C ? "accel_raw_" : "", k->name);
        gen_raw(&b, k, language, mask, entry);
        break;
    }
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s;
}
