/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/kernels/kernel_twin.c — the C twin of a raw CUDA kernel: a prelude
 * that spells CUDA's execution model in C (threadIdx and friends read from a
 * per-thread context; __syncthreads, warp functions, atomics and printf call
 * the CPU backend's twin runtime, backend.h's accel_twin; __shared__ is a
 * block-scope static of the worker thread), the user's text rewritten on
 * the same lines (a context parameter for every __global__ and __device__
 * function and an argument at every call of a __device__ function; extern
 * __shared__ arrays read the block's dynamic shared memory; in a debug
 * build, every indexing of a pointer parameter or shared array checked),
 * and the entry of backend.h. The technique and its costs:
 * docs/kernels-twin.md. */
#include <ctype.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/objects.h"
#include "base/sbuf.h"
#include "base/status.h"
#include "kernels/kernel_twin.h"

/* ------------------------------------------------------------ prelude */

/* CUDA's names as C. accel_kctx is backend.h's accel_twin_thread and
 * struct accel_twin its accel_twin, spelled without headers. Atomics,
 * warp functions and barriers dispatch on the operand's type with
 * _Generic (C11; the embedded compiler has it too). */
static const char prelude_twin[] =
    "typedef struct dim3 { unsigned x, y, z; } dim3;\n"
    "typedef struct uint3 { unsigned x, y, z; } uint3;\n"
    "struct accel_twin;\n"
    "typedef struct accel_kctx { uint3 threadIdx, blockIdx; dim3 blockDim, gridDim;\n"
    "  const struct accel_twin *tw; void *dsm; void *team; unsigned tid, lane; } accel_kctx;\n"
    "struct accel_twin {\n"
    "  unsigned struct_size, flags; size_t shared_bytes;\n"
    "  void (*run_blocks)(const struct accel_twin *, void (*)(accel_kctx *, void *const *),\n"
    "                     void *const *, const unsigned *, const unsigned *, size_t, size_t,\n"
    "                     unsigned);\n"
    "  int (*sync)(accel_kctx *, int, int);\n"
    "  unsigned long long (*warp)(accel_kctx *, int, unsigned, unsigned long long, int, int);\n"
    "  unsigned long long (*atomic_int)(void *, int, int, unsigned long long,\n"
    "                                   unsigned long long);\n"
    "  double (*atomic_fp)(void *, int, int, double);\n"
    "  int (*printf)(accel_kctx *, const char *, ...);\n"
    "  void (*fence)(void);\n"
    "  void *(*check)(accel_kctx *, void *, size_t, const char *, const void *, size_t, int,\n"
    "                 int);\n"
    "  const void *const *arg_base; const size_t *arg_bytes; void *state;\n"
    "};\n"
    "typedef _Bool bool;\n#define true 1\n#define false 0\n"
    "#define ACCEL_TWIN 1\n"
    "#define __inline__ inline\n"
    "#define __global__ static\n"
    "#define __device__ static\n"
    "#define __host__\n"
    "#define __forceinline__ inline\n"
    "#define __noinline__\n"
    "#define __restrict__ restrict\n"
    "#define __constant__\n"
    "#define __launch_bounds__(...)\n"
    "#define __align__(n) __attribute__((aligned(n)))\n"
    /* Shared memory: a static of the worker thread, which runs one block
     * at a time; the embedded compiler has no TLS, so there the blocks of
     * such a kernel run one at a time (ACCEL_TWIN_NEEDS_SERIAL). */
    "#ifdef __TINYC__\n#define __shared__ static\n#define ACCEL_TW_SERIAL 2u\n"
    "#else\n#define __shared__ static _Thread_local\n#define ACCEL_TW_SERIAL 0u\n#endif\n"
    "#define threadIdx (accel_ctx->threadIdx)\n"
    "#define blockIdx (accel_ctx->blockIdx)\n"
    "#define blockDim (accel_ctx->blockDim)\n"
    "#define gridDim (accel_ctx->gridDim)\n"
    "#define warpSize 32\n"
    "#define printf(...) accel_ctx->tw->printf(accel_ctx, __VA_ARGS__)\n"
    "#define __threadfence() accel_ctx->tw->fence()\n"
    "#define __threadfence_block() accel_ctx->tw->fence()\n"
    "#define __threadfence_system() accel_ctx->tw->fence()\n"
    "#define __syncthreads() ((void)accel_ctx->tw->sync(accel_ctx, 0, 0))\n"
    "#define __syncthreads_count(p) accel_ctx->tw->sync(accel_ctx, 1, (p) != 0)\n"
    "#define __syncthreads_and(p) accel_ctx->tw->sync(accel_ctx, 2, (p) != 0)\n"
    "#define __syncthreads_or(p) accel_ctx->tw->sync(accel_ctx, 3, (p) != 0)\n"
    "#define __syncwarp(...) ((void)accel_ctx->tw->warp(accel_ctx, 8, 0xffffffffu, 0, 0, 32))\n"
    "#define __activemask() ((unsigned)accel_ctx->tw->warp(accel_ctx, 7, 0xffffffffu, 0, 0, 32))\n"
    "#define __ballot_sync(m, p) ((unsigned)accel_ctx->tw->warp(accel_ctx, 4, (m), (p) != 0, 0, "
    "32))\n"
    "#define __any_sync(m, p) ((int)accel_ctx->tw->warp(accel_ctx, 5, (m), (p) != 0, 0, 32))\n"
    "#define __all_sync(m, p) ((int)accel_ctx->tw->warp(accel_ctx, 6, (m), (p) != 0, 0, 32))\n";

/* Warp functions: 64 bits of the value travel (backend.h). */
static const char prelude_warp[] =
    "typedef union accel_w64 { unsigned long long u; double d; float f; int i; unsigned ui;\n"
    "  long long ll; long l; unsigned long ul; } accel_w64;\n"
    "#define ACCEL_SHFL_FN(N, T, F) static inline T N(accel_kctx *c, int op, unsigned m, T v, \\\n"
    "  int a, int w) { accel_w64 x, y; x.u = 0; x.F = v; \\\n"
    "  y.u = c->tw->warp(c, op, m, x.u, a, w); return y.F; }\n"
    "ACCEL_SHFL_FN(accel_shfl_f, float, f)\n"
    "ACCEL_SHFL_FN(accel_shfl_d, double, d)\n"
    "ACCEL_SHFL_FN(accel_shfl_i, int, i)\n"
    "ACCEL_SHFL_FN(accel_shfl_u, unsigned, ui)\n"
    "ACCEL_SHFL_FN(accel_shfl_ll, long long, ll)\n"
    "ACCEL_SHFL_FN(accel_shfl_ull, unsigned long long, u)\n"
    "#define ACCEL_SHFL(op, m, v, a, w, ...) _Generic((v), float: accel_shfl_f, \\\n"
    "  double: accel_shfl_d, unsigned: accel_shfl_u, long long: accel_shfl_ll, \\\n"
    "  unsigned long long: accel_shfl_ull, default: accel_shfl_i)(accel_ctx, op, (m), (v), \\\n"
    "  (a), (w))\n"
    "#define __shfl_sync(m, v, ...) ACCEL_SHFL(0, m, v, __VA_ARGS__, 32, 0)\n"
    "#define __shfl_up_sync(m, v, ...) ACCEL_SHFL(1, m, v, __VA_ARGS__, 32, 0)\n"
    "#define __shfl_down_sync(m, v, ...) ACCEL_SHFL(2, m, v, __VA_ARGS__, 32, 0)\n"
    "#define __shfl_xor_sync(m, v, ...) ACCEL_SHFL(3, m, v, __VA_ARGS__, 32, 0)\n"
    "#define __shfl(v, ...) ACCEL_SHFL(0, 0xffffffffu, v, __VA_ARGS__, 32, 0)\n"
    "#define __shfl_up(v, ...) ACCEL_SHFL(1, 0xffffffffu, v, __VA_ARGS__, 32, 0)\n"
    "#define __shfl_down(v, ...) ACCEL_SHFL(2, 0xffffffffu, v, __VA_ARGS__, 32, 0)\n"
    "#define __shfl_xor(v, ...) ACCEL_SHFL(3, 0xffffffffu, v, __VA_ARGS__, 32, 0)\n";

/* Atomics and bit casts; the debug build's checked access. */
static const char prelude_atomic[] =
    "#define ACCEL_AI_FN(N, T, K) static inline T N(accel_kctx *c, T *p, int op, T v, T cmp) { \\\n"
    "  return (T)c->tw->atomic_int((void *)p, op, K, (unsigned long long)v, \\\n"
    "                              (unsigned long long)cmp); }\n"
    "ACCEL_AI_FN(accel_at_i, int, 1)\n"
    "ACCEL_AI_FN(accel_at_u, unsigned, 2)\n"
    "ACCEL_AI_FN(accel_at_ull, unsigned long long, 3)\n"
    "ACCEL_AI_FN(accel_at_ll, long long, 4)\n"
    "static inline float accel_at_f(accel_kctx *c, float *p, int op, float v, float cmp) {\n"
    "  (void)cmp; return (float)c->tw->atomic_fp((void *)p, op, 0, v); }\n"
    "static inline double accel_at_d(accel_kctx *c, double *p, int op, double v, double cmp) {\n"
    "  (void)cmp; return c->tw->atomic_fp((void *)p, op, 1, v); }\n"
    "#define ACCEL_ATOMIC(op, p, v, cmp) _Generic((p), int *: accel_at_i, \\\n"
    "  unsigned *: accel_at_u, unsigned long long *: accel_at_ull, long long *: accel_at_ll, \\\n"
    "  float *: accel_at_f, double *: accel_at_d)(accel_ctx, (p), op, (v), (cmp))\n"
    "#define atomicAdd(p, v) ACCEL_ATOMIC(1, p, v, 0)\n"
    "#define atomicSub(p, v) ACCEL_ATOMIC(2, p, v, 0)\n"
    "#define atomicExch(p, v) ACCEL_ATOMIC(3, p, v, 0)\n"
    "#define atomicMin(p, v) ACCEL_ATOMIC(4, p, v, 0)\n"
    "#define atomicMax(p, v) ACCEL_ATOMIC(5, p, v, 0)\n"
    "#define atomicInc(p, v) ACCEL_ATOMIC(6, p, v, 0)\n"
    "#define atomicDec(p, v) ACCEL_ATOMIC(7, p, v, 0)\n"
    "#define atomicCAS(p, c, v) ACCEL_ATOMIC(8, p, v, c)\n"
    "#define atomicAnd(p, v) ACCEL_ATOMIC(9, p, v, 0)\n"
    "#define atomicOr(p, v) ACCEL_ATOMIC(10, p, v, 0)\n"
    "#define atomicXor(p, v) ACCEL_ATOMIC(11, p, v, 0)\n"
    "#define __float_as_int(x) (((accel_w64){.f = (x)}).i)\n"
    "#define __int_as_float(x) (((accel_w64){.i = (x)}).f)\n"
    "#define __float_as_uint(x) (((accel_w64){.f = (x)}).ui)\n"
    "#define __uint_as_float(x) (((accel_w64){.ui = (x)}).f)\n"
    "#define __double_as_longlong(x) (((accel_w64){.d = (x)}).ll)\n"
    "#define __longlong_as_double(x) (((accel_w64){.ll = (x)}).d)\n"
    /* Debug builds: X (an indexing) through the backend's check. */
    "#define ACCEL_CHK(X, N, B, S, RW) (*(__typeof__(&(X)))accel_ctx->tw->check(accel_ctx, \\\n"
    "  (void *)&(X), sizeof(X), N, (const void *)(B), (S), __LINE__, RW))\n";

/* ------------------------------------------------------------ scanning */

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

void accel__kernel_name_before(const char *b, size_t lo, size_t end, size_t *s, size_t *e)
{
    size_t x = end;
    while (x > lo && isspace((unsigned char)b[x - 1]))
        x--;
    *e = x;
    while (x > lo && ident_char(b[x - 1]))
        x--;
    *s = x;
}

bool accel__kernel_word_at(const char *s, size_t i, const char *w, bool prefix)
{
    size_t n = strlen(w);
    if (strncmp(s + i, w, n) != 0)
        return false;
    if (i > 0 && ident_char(s[i - 1]))
        return false;
    return prefix || !ident_char(s[i + n]);
}

static size_t skip_space(const char *s, size_t i)
{
    while (s[i] && isspace((unsigned char)s[i]))
        i++;
    return i;
}

uint32_t accel__twin_uses(const char *blank)
{
    static const struct {
        const char *word;
        bool prefix;
        uint32_t bits;
    } uses[] = {
        {"__syncthreads", true, ACCEL__TW_FIBERS | ACCEL__TW_TEAM},
        {"__syncwarp", false, ACCEL__TW_FIBERS | ACCEL__TW_TEAM},
        {"__shfl", true, ACCEL__TW_FIBERS | ACCEL__TW_TEAM},
        {"__ballot_sync", false, ACCEL__TW_FIBERS | ACCEL__TW_TEAM},
        {"__any_sync", false, ACCEL__TW_FIBERS | ACCEL__TW_TEAM},
        {"__all_sync", false, ACCEL__TW_FIBERS | ACCEL__TW_TEAM},
        {"__activemask", false, ACCEL__TW_TEAM},
        {"printf", false, ACCEL__TW_TEAM},
        {"__shared__", false, ACCEL__TW_SHARED | ACCEL__TW_TEAM},
        {"atomicAdd", false, ACCEL__TW_FADD},
    };
    uint32_t bits = 0;
    for (size_t i = 0; blank[i]; i++) {
        if (!(i == 0 || !ident_char(blank[i - 1])) ||
            !(isalpha((unsigned char)blank[i]) || blank[i] == '_'))
            continue;
        if (accel__kernel_word_at(blank, i, "extern", false)) {
            size_t j = skip_space(blank, i + 6);
            if (accel__kernel_word_at(blank, j, "__shared__", false))
                bits |= ACCEL__TW_DYNAMIC | ACCEL__TW_TEAM;
        }
        for (size_t u = 0; u < sizeof uses / sizeof uses[0]; u++)
            if (accel__kernel_word_at(blank, i, uses[u].word, uses[u].prefix))
                bits |= uses[u].bits;
    }
    return bits;
}

/* ------------------------------------------------------------ rewriting */

#define TW_MAX_NAMES 64

/* An array name the debug build checks: a pointer parameter of the entry
 * (arg >= 0, inside the entry's body), a static shared array (arg -1,
 * bounds from sizeof) or the dynamic shared array (arg -2). */
typedef struct tw_array {
    char name[ACCEL__KNAME_MAX];
    int arg;
    int depth_end; /* tracked until the brace depth falls below this */
} tw_array;

typedef struct tw {
    const accel_kernel *k;
    const char *src, *blank;
    bool debug;
    accel__sbuf out;
    size_t from; /* src copied up to here */
    char dev[TW_MAX_NAMES][ACCEL__KNAME_MAX];
    size_t ndev;
    size_t defs[TW_MAX_NAMES * 2]; /* '(' of every __global__ / __device__ definition */
    size_t ndefs;
    tw_array arr[TW_MAX_NAMES];
    size_t narr;
    int depth;
    bool in_entry;   /* inside the entry's body */
    unsigned nest;   /* checked accesses inside checked subscripts */
    size_t entry_at; /* '(' of the entry's definition */
} tw;

static void copy_to(tw *t, size_t upto)
{
    if (upto > t->from)
        accel__sbuf_add(&t->out, t->src + t->from, upto - t->from);
    t->from = upto > t->from ? upto : t->from;
}

static bool ident_eq(const char *s, size_t n, const char *name)
{
    return strlen(name) == n && strncmp(s, name, n) == 0;
}

/* Every __global__ and __device__ function's name and '(' (file scope). */
static void find_functions(tw *t)
{
    const char *b = t->blank;
    int depth = 0;
    for (size_t i = 0; b[i]; i++) {
        if (b[i] == '{' || b[i] == '}') {
            /* extern "C" { ... } is transparent: its source still says so */
            size_t j = i;
            while (j > 0 && isspace((unsigned char)b[j - 1]))
                j--;
            bool ext = b[i] == '{' && j >= 3 && t->src[j - 1] == '"' && t->src[j - 2] == 'C';
            if (!ext)
                depth += b[i] == '{' ? 1 : -1;
            continue;
        }
        bool glob = accel__kernel_word_at(b, i, "__global__", false),
             dev = accel__kernel_word_at(b, i, "__device__", false);
        if (depth != 0 || (!glob && !dev))
            continue;
        size_t p = i + 10;
        while (b[p] && b[p] != '(' && b[p] != ';' && b[p] != '{' && b[p] != '=')
            p++;
        if (b[p] != '(')
            continue;
        size_t s, e;
        accel__kernel_name_before(b, i, p, &s, &e);
        if (s == e || e - s >= ACCEL__KNAME_MAX)
            continue;
        if (t->ndefs < sizeof t->defs / sizeof t->defs[0])
            t->defs[t->ndefs++] = p;
        if (glob && ident_eq(b + s, e - s, t->k->name))
            t->entry_at = p;
        if (dev && t->ndev < TW_MAX_NAMES) {
            bool known = false;
            for (size_t d = 0; d < t->ndev; d++)
                known = known || ident_eq(b + s, e - s, t->dev[d]);
            if (!known) {
                memcpy(t->dev[t->ndev], b + s, e - s);
                t->dev[t->ndev++][e - s] = '\0';
            }
        }
        i = p;
    }
}

static bool is_def(const tw *t, size_t p)
{
    for (size_t d = 0; d < t->ndefs; d++)
        if (t->defs[d] == p)
            return true;
    return false;
}

/* At a definition's '(' (position p): the context parameter first. */
static size_t emit_param(tw *t, size_t p)
{
    const char *b = t->blank;
    copy_to(t, p + 1);
    size_t q = skip_space(b, p + 1);
    if (b[q] == ')') {
        accel__sbuf_str(&t->out, "accel_kctx *accel_ctx");
    } else if (accel__kernel_word_at(b, q, "void", false) && b[skip_space(b, q + 4)] == ')') {
        copy_to(t, q);
        accel__sbuf_str(&t->out, "accel_kctx *accel_ctx");
        t->from = q + 4;
    } else {
        accel__sbuf_str(&t->out, "accel_kctx *accel_ctx, ");
    }
    if (p == t->entry_at)
        t->in_entry = true;
    return p;
}

/* extern __shared__ T name[]; at i (the word extern): in a function, a
 * pointer to the block's dynamic shared memory; at file scope, a macro
 * naming it (a directive on its own line; #line keeps the numbering). */
static size_t emit_dynamic(tw *t, size_t i)
{
    const char *b = t->blank;
    size_t sh = skip_space(b, i + 6);
    size_t semi = sh + 10;
    while (b[semi] && b[semi] != ';')
        semi++;
    size_t br = semi;
    while (br > sh && b[br] != '[')
        br--;
    size_t s, e;
    accel__kernel_name_before(b, sh, br, &s, &e);
    if (!b[semi] || br == sh || s == e || e - s >= ACCEL__KNAME_MAX)
        return i; /* not the form we know: the compiler will say */
    /* The type: the words between __shared__ and the name, without __align__(...). */
    char type[256] = "";
    size_t tl = 0;
    for (size_t j = sh + 10; j < s && tl + 2 < sizeof type; j++) {
        if (accel__kernel_word_at(b, j, "__align__", false)) {
            int d = 0;
            for (j += 9; b[j] && j < s; j++) {
                d += b[j] == '(' ? 1 : b[j] == ')' ? -1 : 0;
                if (d == 0 && b[j] == ')')
                    break;
            }
            continue;
        }
        type[tl++] = isspace((unsigned char)b[j]) ? ' ' : t->src[j];
    }
    type[tl] = '\0';
    char name[ACCEL__KNAME_MAX];
    memcpy(name, b + s, e - s);
    name[e - s] = '\0';
    copy_to(t, i);
    if (t->depth > 0) {
        accel__sbuf_put(&t->out, "%s *const %s = (%s *)accel_ctx->dsm;", type, name, type);
    } else {
        unsigned line = 1;
        for (size_t j = 0; j < semi; j++)
            line += t->src[j] == '\n';
        accel__sbuf_put(&t->out, "\n#define %s ((%s *)accel_ctx->dsm)\n#line %u\n", name, type,
                        line);
    }
    t->from = semi + 1;
    if (t->narr < TW_MAX_NAMES) {
        snprintf(t->arr[t->narr].name, sizeof t->arr[t->narr].name, "%s", name);
        t->arr[t->narr].arg = -2;
        t->arr[t->narr++].depth_end = t->depth;
    }
    return semi;
}

/* __shared__ ... name[...]: remember name (debug builds check it). Returns
 * the end of the declared name (its declarator is not an access), or i. */
static size_t note_shared(tw *t, size_t i)
{
    const char *b = t->blank;
    size_t semi = i;
    while (b[semi] && b[semi] != ';' && b[semi] != '[')
        semi++;
    if (b[semi] != '[')
        return i;
    size_t s, e;
    accel__kernel_name_before(b, i, semi, &s, &e);
    if (s == e || e - s >= ACCEL__KNAME_MAX || t->narr >= TW_MAX_NAMES)
        return i;
    memcpy(t->arr[t->narr].name, b + s, e - s);
    t->arr[t->narr].name[e - s] = '\0';
    t->arr[t->narr].arg = -1;
    t->arr[t->narr++].depth_end = t->depth;
    return e;
}

/* The checked array named by the identifier at [s, e), or NULL. */
static const tw_array *checked(const tw *t, size_t s, size_t e)
{
    for (size_t a = t->narr; a-- > 0;)
        if (ident_eq(t->blank + s, e - s, t->arr[a].name))
            return &t->arr[a];
    return NULL;
}

static size_t rewrite(tw *t, size_t i, size_t end);

/* name[...][...] at [s, e) in debug mode: ACCEL_CHK(name[...], ...), the
 * subscripts rewritten too. Returns the position after the last ']'. */
static size_t emit_checked(tw *t, const tw_array *a, size_t s, size_t e)
{
    const char *b = t->blank;
    size_t j = skip_space(b, e), last = e;
    copy_to(t, s);
    accel__sbuf_str(&t->out, "ACCEL_CHK(");
    t->from = s;
    while (b[j] == '[') {
        int d = 0;
        size_t k = j;
        for (; b[k]; k++) {
            d += b[k] == '[' ? 1 : b[k] == ']' ? -1 : 0;
            if (d == 0)
                break;
        }
        if (!b[k])
            break;
        copy_to(t, j + 1);
        t->nest++;
        rewrite(t, j + 1, k);
        t->nest--;
        copy_to(t, k + 1);
        last = k + 1;
        j = skip_space(b, k + 1);
    }
    /* How the element is used: written, read and written, or read. */
    int rw = 1;
    size_t p = s;
    while (p > 0 && isspace((unsigned char)b[p - 1]))
        p--;
    if (p >= 2 && ((b[p - 1] == '+' && b[p - 2] == '+') || (b[p - 1] == '-' && b[p - 2] == '-')))
        rw = 3;
    else if (p >= 1 && b[p - 1] == '&' && !(p >= 2 && b[p - 2] == '&')) {
        size_t q = p - 1;
        while (q > 0 && isspace((unsigned char)b[q - 1]))
            q--;
        if (q == 0 || !(ident_char(b[q - 1]) || b[q - 1] == ')' || b[q - 1] == ']'))
            rw = 0; /* &a[i]: an address (atomics) */
    }
    const char *n = b + j;
    if (n[0] == '=' && n[1] != '=')
        rw = 2;
    else if ((n[0] == '+' && n[1] == '+') || (n[0] == '-' && n[1] == '-'))
        rw = 3;
    else if ((strchr("+-*/%&|^", n[0]) && n[0] && n[1] == '=') ||
             ((n[0] == '<' || n[0] == '>') && n[1] == n[0] && n[2] == '='))
        rw = 3;
    else if (n[0] == '.' || (n[0] == '-' && n[1] == '>'))
        rw = 0;
    if (a->arg >= 0)
        accel__sbuf_put(&t->out,
                        ", \"%s\", accel_ctx->tw->arg_base[%d], accel_ctx->tw->arg_bytes[%d], %d)",
                        a->name, a->arg, a->arg, rw);
    else if (a->arg == -1)
        accel__sbuf_put(&t->out, ", \"%s\", &%s, sizeof(%s), %d)", a->name, a->name, a->name,
                        rw | 4);
    else
        accel__sbuf_put(&t->out, ", \"%s\", accel_ctx->dsm, accel_ctx->tw->shared_bytes, %d)",
                        a->name, rw | 4);
    return last;
}

/* Rewrite src[i, end) into t->out (t->from == i on entry). */
static size_t rewrite(tw *t, size_t i, size_t end)
{
    const char *b = t->blank, *src = t->src;
    for (; i < end && b[i]; i++) {
        char c = b[i];
        if (c == '{' || c == '}') {
            size_t j = i;
            while (j > 0 && isspace((unsigned char)b[j - 1]))
                j--;
            if (c == '{' && j >= 3 && src[j - 1] == '"' && src[j - 2] == 'C')
                continue;
            t->depth += c == '{' ? 1 : -1;
            while (t->narr > 0 && t->arr[t->narr - 1].depth_end > t->depth)
                t->narr--;
            if (t->depth == 0)
                t->in_entry = false;
            continue;
        }
        if (c == '(' && t->depth == 0 && is_def(t, i)) {
            i = emit_param(t, i);
            if (t->debug && t->in_entry)
                for (uint32_t p = 0; p < t->k->nparams && t->narr < TW_MAX_NAMES; p++) {
                    if (!t->k->params[p].pointer)
                        continue;
                    snprintf(t->arr[t->narr].name, sizeof t->arr[t->narr].name, "%s",
                             t->k->params[p].name);
                    t->arr[t->narr].arg = (int)p;
                    t->arr[t->narr++].depth_end = 1;
                }
            continue;
        }
        if (!(isalpha((unsigned char)c) || c == '_') || (i > 0 && ident_char(b[i - 1])))
            continue;
        if (strncmp(src + i, "extern \"C\"", 10) == 0) {
            copy_to(t, i);
            accel__sbuf_str(&t->out, "          ");
            t->from = i + 10;
            i += 9;
            continue;
        }
        size_t e = i;
        while (ident_char(b[e]))
            e++;
        if (ident_eq(b + i, e - i, "static") &&
            accel__kernel_word_at(b, skip_space(b, e), "__shared__", false)) {
            copy_to(t, i); /* __shared__ says static already */
            accel__sbuf_str(&t->out, "      ");
            t->from = e;
            i = e - 1;
            continue;
        }
        if (ident_eq(b + i, e - i, "extern") &&
            accel__kernel_word_at(b, skip_space(b, e), "__shared__", false)) {
            i = emit_dynamic(t, i);
            continue;
        }
        if (ident_eq(b + i, e - i, "__shared__")) {
            i = note_shared(t, e) - 1;
            continue;
        }
        size_t after = skip_space(b, e);
        if (t->depth > 0 && b[after] == '(') {
            for (size_t d = 0; d < t->ndev; d++) {
                if (!ident_eq(b + i, e - i, t->dev[d]))
                    continue;
                copy_to(t, after + 1);
                accel__sbuf_str(&t->out,
                                b[skip_space(b, after + 1)] == ')' ? "accel_ctx" : "accel_ctx, ");
                break;
            }
        }
        /* Subscripts nested deeper than 16 checked accesses go unchecked:
         * no source drives the rewriting's recursion further. */
        const tw_array *a =
            t->debug && t->depth > 0 && b[after] == '[' && t->nest < 16 ? checked(t, i, e) : NULL;
        if (a) {
            size_t last = emit_checked(t, a, i, e);
            i = last - 1;
            continue;
        }
        i = e - 1;
    }
    return i;
}

/* How the entry reads argument i of args[] as its parameter's type. */
static void entry_arg(accel__sbuf *b, const accel__kparam *p, uint32_t i)
{
    if (p->pointer)
        accel__sbuf_put(b, ", (%s)args[%u]", p->ctype, i);
    else
        accel__sbuf_put(b, ", (%s)*(const %s *)args[%u]", p->ctype,
                        p->store == ACCEL__KS_F32   ? "float"
                        : p->store == ACCEL__KS_F64 ? "double"
                        : p->store == ACCEL__KS_I32 ? "int"
                        : p->store == ACCEL__KS_U8  ? "unsigned char"
                                                    : "long",
                        i);
}

static void gen_entry(accel__sbuf *b, const accel_kernel *k, const char *entry, uint32_t uses,
                      bool debug)
{
    const char *sig = "(void *const *args, const unsigned grid[3], const unsigned block[3], "
                      "size_t block_begin, size_t block_end, const struct accel_twin *tw)";
    if ((uses & ACCEL__TW_TEAM) || debug) {
        /* The backend runs the blocks: contexts per thread where the kernel
         * synchronizes, a plain loop elsewhere. */
        accel__sbuf_str(b,
                        "static void accel_thread(accel_kctx *accel_ctx, void *const *args) {\n");
        accel__sbuf_put(b, "  %s(accel_ctx", k->name);
        for (uint32_t i = 0; i < k->nparams; i++)
            entry_arg(b, &k->params[i], i);
        accel__sbuf_put(b, ");\n}\nvoid %s%s {\n", entry, sig);
        accel__sbuf_put(
            b,
            "  tw->run_blocks(tw, accel_thread, args, grid, block, block_begin, block_end, "
            "%uu | %s);\n}\n",
            (uses & ACCEL__TW_FIBERS) ? 1u : 0u,
            (uses & ACCEL__TW_SHARED) ? "ACCEL_TW_SERIAL" : "0u");
        return;
    }
    accel__sbuf_put(b,
                    "void %s%s {\n"
                    "  accel_kctx c;\n"
                    "  accel_kctx *const accel_ctx = &c;\n"
                    "  c.gridDim.x = grid[0]; c.gridDim.y = grid[1]; c.gridDim.z = grid[2];\n"
                    "  c.blockDim.x = block[0]; c.blockDim.y = block[1]; c.blockDim.z = block[2];\n"
                    "  c.tw = tw; c.dsm = 0; c.team = 0; c.tid = 0; c.lane = 0;\n"
                    "  for (size_t accel_b = block_begin; accel_b < block_end; accel_b++) {\n"
                    "    c.blockIdx.x = (unsigned)(accel_b %% grid[0]);\n"
                    "    c.blockIdx.y = (unsigned)((accel_b / grid[0]) %% grid[1]);\n"
                    "    c.blockIdx.z = (unsigned)(accel_b / ((size_t)grid[0] * grid[1]));\n"
                    "    for (unsigned tz = 0; tz < block[2]; tz++)\n"
                    "     for (unsigned ty = 0; ty < block[1]; ty++)\n"
                    "      for (unsigned tx = 0; tx < block[0]; tx++) {\n"
                    "        c.threadIdx.x = tx; c.threadIdx.y = ty; c.threadIdx.z = tz;\n"
                    "        %s(accel_ctx",
                    entry, sig, k->name);
    for (uint32_t i = 0; i < k->nparams; i++)
        entry_arg(b, &k->params[i], i);
    accel__sbuf_str(b, ");\n      }\n  }\n}\n");
}

char *accel__twin_program(const accel_kernel *k, const char *entry, bool debug)
{
    tw *t = calloc(1, sizeof *t);
    char *blank = malloc(strlen(k->source) + 1);
    if (!t || !blank) {
        free(t);
        free(blank);
        return NULL;
    }
    strcpy(blank, k->source);
    accel__kernel_blank_comments(blank);
    t->k = k;
    t->src = k->source;
    t->blank = blank;
    t->debug = debug;
    t->entry_at = (size_t)-1;
    find_functions(t);
    accel__sbuf_str(&t->out, prelude_twin);
    accel__sbuf_str(&t->out, prelude_warp);
    accel__sbuf_str(&t->out, prelude_atomic);
    accel__sbuf_put(&t->out, "#line 1 \"%s\"\n", k->name);
    rewrite(t, 0, strlen(blank));
    copy_to(t, strlen(blank));
    accel__sbuf_str(&t->out, "\n#line 1 \"accel twin wrapper\"\n"
                             "#undef threadIdx\n#undef blockIdx\n#undef blockDim\n#undef gridDim\n"
                             "#undef printf\n");
    gen_entry(&t->out, k, entry, accel__twin_uses(blank), debug);
    free(blank);
    char *s = t->out.oom ? NULL : t->out.s;
    if (!s)
        free(t->out.s);
    free(t);
    return s;
}

void accel__kernel_blank_comments(char *s)
{
    for (size_t i = 0; s[i];) {
        if (s[i] == '/' && s[i + 1] == '/') {
            while (s[i] && s[i] != '\n')
                s[i++] = ' ';
        } else if (s[i] == '/' && s[i + 1] == '*') {
            s[i++] = ' ';
            s[i++] = ' ';
            while (s[i] && !(s[i] == '*' && s[i + 1] == '/')) {
                if (s[i] != '\n')
                    s[i] = ' ';
                i++;
            }
            if (s[i]) {
                s[i++] = ' ';
                s[i++] = ' ';
            }
        } else if (s[i] == '"' || s[i] == '\'') {
            char q = s[i++];
            while (s[i] && s[i] != q && s[i] != '\n') {
                if (s[i] == '\\' && s[i + 1] && s[i + 1] != '\n')
                    s[i++] = ' ';
                s[i++] = ' ';
            }
            if (s[i] == q)
                i++;
        } else {
            i++;
        }
    }
}
