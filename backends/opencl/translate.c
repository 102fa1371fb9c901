/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* translate.c — a raw kernel in the CUDA-C dialect (what the core hands a
 * backend as ACCEL_PROGRAM_CUDA: the user's text, or the array layer's
 * generated kernels, inside extern "C" { }) rewritten as OpenCL C 1.2.
 * One pass over the tokens, keeping every line where it was (so the
 * compiler's line numbers are the user's, through the core's #line):
 *
 *   - a pointer type (a type keyword, its qualifiers, then `*`) gains
 *     `__global`: OpenCL 1.2 has no generic address space, and in CUDA code
 *     a pointer nearly always points to global memory (a pointer into
 *     __shared__ memory does not build; docs/writing-a-backend.md);
 *   - each `__global__` function becomes a `__kernel` whose pointer
 *     parameter P is two, `accel_base_P` (the cl_mem) and `ulong
 *     accel_off_P` (its byte offset), with P declared at the top of the
 *     body; `size_t` parameters become `ulong` (OpenCL refuses size_t);
 *   - an `extern __shared__ T s[]` becomes a last kernel parameter
 *     `__local T *s` (clSetKernelArg with the launch's shared bytes);
 *   - `long long` becomes `long`, `unsigned long long` `ulong`, and the
 *     `ll` of integer literals `l` (OpenCL's long is 64 bits; long long is
 *     reserved); `extern "C"` and its braces go; `__launch_bounds__` goes;
 *   - names that are OpenCL C keywords but free in CUDA (local, global,
 *     constant, private, kernel, ...) gain the prefix `accel_cl_`;
 *   - a name that a `typedef` of the source declares (its last word before
 *     the `;` that ends it, `typedef struct { float re, im; } cx;` too) is a
 *     type from there on, so that `cx *` gains `__global` as `float *` does
 *     (at most TYPEDEFS_MAX names of fewer than 64 characters; the array
 *     layer's generated kernels declare their element types so).
 *
 * The rest (threadIdx, __shared__, __syncthreads, atomics, the f-suffixed
 * math) is macros and functions of cuda_prelude.cl. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opencl.h"
#include "strbuf.h"

#define TYPEDEFS_MAX 64

static void puts_(ocl_strbuf *b, const char *s)
{
    ocl_sb_put(b, s, strlen(s));
}

enum { K_NONE, K_HEAD, K_PARAMS, K_BODY };

typedef struct tstate {
    const char *src;
    size_t i;
    ocl_strbuf out, param, decls;
    int prev_type; /* the last token was a type keyword or its qualifier */
    int kstate, paren, brace;
    int drop[16]; /* brace depths of extern "C" { blocks */
    int ndrop;
    char shared_type[96], shared_name[64]; /* the extern __shared__ array */
    const char *bad;                       /* what cannot be translated */
    size_t word, word_len;                 /* the last word taken */
    int in_typedef, typedef_brace;         /* inside `typedef ... ;`, its depth */
    char types[TYPEDEFS_MAX][64];          /* the names typedefs declared */
    int ntypes;
} tstate;

static int is_typedef_name(const tstate *t, const char *w, size_t n)
{
    for (int k = 0; k < t->ntypes; ++k)
        if (strlen(t->types[k]) == n && memcmp(t->types[k], w, n) == 0)
            return 1;
    return 0;
}

/* The `;` at the depth of a typedef: its last word is a type name. */
static void end_typedef(tstate *t)
{
    t->in_typedef = 0;
    if (t->ntypes < TYPEDEFS_MAX && t->word_len > 0 && t->word_len < sizeof t->types[0]) {
        memcpy(t->types[t->ntypes], t->src + t->word, t->word_len);
        t->types[t->ntypes++][t->word_len] = '\0';
    }
}

static int is_ident(char ch)
{
    return isalnum((unsigned char)ch) || ch == '_';
}

static const char *const type_words[] = {
    "void",      "char",     "short",    "int",     "long",    "float",   "double",  "signed",
    "unsigned",  "bool",     "size_t",   "int8_t",  "int16_t", "int32_t", "int64_t", "uint8_t",
    "uint16_t",  "uint32_t", "uint64_t", "uint",    "ulong",   "uchar",   "ushort",  "half",
    "ptrdiff_t", "float2",   "float4",   "double2", "int2",    "int4",    "uint2",   "uint4"};

static int word_in(const char *w, size_t n, const char *const *list, size_t count)
{
    for (size_t k = 0; k < count; ++k)
        if (strlen(list[k]) == n && memcmp(list[k], w, n) == 0)
            return 1;
    return 0;
}

static size_t skip_space(const char *s, size_t i)
{
    while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
        ++i;
    return i;
}

/* 1 when the word at s[i] is w (a whole identifier). */
static int word_at(const char *s, size_t i, const char *w)
{
    size_t n = strlen(w);
    return strncmp(s + i, w, n) == 0 && !is_ident(s[i + n]);
}

static ocl_strbuf *sink(tstate *t)
{
    return t->kstate == K_PARAMS ? &t->param : &t->out;
}

/* The newlines of s[a, b), so that lines stay where they were. */
static void put_newlines(ocl_strbuf *b, const char *s, size_t a, size_t e)
{
    for (size_t k = a; k < e; ++k)
        if (s[k] == '\n')
            ocl_sb_put(b, "\n", 1);
}

/* One kernel parameter, collected in t->param: a pointer becomes base and
 * offset (and its declaration joins t->decls). */
static void flush_param(tstate *t)
{
    ocl_strbuf *p = &t->param;
    const char *s = p->s ? p->s : "";
    size_t e = p->len;
    while (e > 0 && isspace((unsigned char)s[e - 1]))
        --e;
    size_t n0 = e;
    while (n0 > 0 && is_ident(s[n0 - 1]))
        --n0;
    if (!strchr(s, '*') || n0 == e) {
        ocl_sb_put(&t->out, s, p->len);
    } else {
        char name[96];
        snprintf(name, sizeof name, "%.*s", (int)(e - n0), s + n0);
        ocl_sb_put(&t->out, s, n0);
        char more[320];
        snprintf(more, sizeof more, "accel_base_%s, ulong accel_off_%s", name, name);
        puts_(&t->out, more);
        ocl_sb_put(&t->out, s + e, p->len - e);
        char type[256];
        snprintf(type, sizeof type, "%.*s", (int)n0, s);
        char *ty = type + strspn(type, " \t\r\n");
        for (char *q = ty; *q; ++q)
            if (*q == '\n' || *q == '\r')
                *q = ' ';
        char decl[800];
        snprintf(decl, sizeof decl, " %s%s = (%s)((__global char *)accel_base_%s + accel_off_%s);",
                 ty, name, ty, name, name);
        puts_(&t->decls, decl);
    }
    p->len = 0;
    if (p->s)
        p->s[0] = '\0';
}

/* Copies a comment, string or character literal at t->i; 0 if none. */
static int copy_literal(tstate *t)
{
    const char *s = t->src;
    size_t i = t->i, e = i;
    if (s[i] == '/' && s[i + 1] == '/') {
        e = i + strcspn(s + i, "\n");
    } else if (s[i] == '/' && s[i + 1] == '*') {
        const char *end = strstr(s + i + 2, "*/");
        e = end ? (size_t)(end - s) + 2 : strlen(s);
    } else if (s[i] == '"' || s[i] == '\'') {
        for (e = i + 1; s[e] && s[e] != s[i] && s[e] != '\n'; ++e)
            if (s[e] == '\\' && s[e + 1])
                ++e;
        if (s[e] == s[i])
            ++e;
    } else {
        return 0;
    }
    ocl_sb_put(sink(t), s + i, e - i);
    t->prev_type = 0;
    t->i = e;
    return 1;
}

/* A number: the `ll` of its suffix becomes `l`. */
static void copy_number(tstate *t)
{
    const char *s = t->src;
    size_t i = t->i, e = i;
    while (is_ident(s[e]) || s[e] == '.' ||
           ((s[e] == '+' || s[e] == '-') && strchr("eEpP", s[e - 1])))
        ++e;
    size_t len = e - i;
    char num[128];
    snprintf(num, sizeof num, "%.*s", (int)len, s + i);
    char *ll = strstr(num, "ll");
    if (!ll)
        ll = strstr(num, "LL");
    if (ll && !strchr(num, '.'))
        memmove(ll, ll + 1, strlen(ll));
    puts_(sink(t), num);
    t->prev_type = 0;
    t->i = e;
}

/* extern __shared__ T name[] (s[a, e), after `__shared__`): its element
 * type and name, for the kernels' last parameter. -1 for a second name. */
static int note_dynamic_shared(tstate *t, size_t a, size_t e)
{
    const char *s = t->src;
    size_t b = a + strcspn(s + a, "[;");
    if (b > e)
        b = e;
    size_t n1 = b;
    while (n1 > a && isspace((unsigned char)s[n1 - 1]))
        --n1;
    size_t n0 = n1;
    while (n0 > a && is_ident(s[n0 - 1]))
        --n0;
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(n1 - n0), s + n0);
    if (t->shared_name[0] && strcmp(name, t->shared_name) != 0)
        return -1;
    size_t ty = a;
    const char *al = strstr(s + a, "__align__");
    if (al && (size_t)(al - s) < n0)
        ty = (size_t)(al - s) + 9 + strcspn(al + 9, ")") + 1;
    snprintf(t->shared_type, sizeof t->shared_type, "%.*s", (int)(n0 - ty), s + ty);
    snprintf(t->shared_name, sizeof t->shared_name, "%s", name);
    return 0;
}

/* extern "C" (and the brace of its block), or extern __shared__ (gone:
 * it is a kernel parameter now). 0: some other extern. */
static int take_extern(tstate *t)
{
    const char *s = t->src;
    size_t j = skip_space(s, t->i + 6);
    if (strncmp(s + j, "\"C\"", 3) == 0) {
        size_t k = skip_space(s, j + 3);
        put_newlines(sink(t), s, t->i, k);
        if (s[k] == '{' && t->ndrop < 16) {
            t->drop[t->ndrop++] = ++t->brace;
            ++k;
        }
        t->i = k;
        return 1;
    }
    if (word_at(s, j, "__shared__")) {
        size_t k = j + strcspn(s + j, ";");
        if (note_dynamic_shared(t, j + 10, k) < 0)
            t->bad = "more than one extern __shared__ array name";
        put_newlines(sink(t), s, t->i, k);
        t->i = s[k] ? k + 1 : k;
        return 1;
    }
    return 0;
}

/* Past the `int` of `long long int` (from e, the end of `long long`),
 * keeping the newlines from t->i. */
static size_t skip_int(tstate *t, size_t e)
{
    size_t k = skip_space(t->src, e);
    if (word_at(t->src, k, "int"))
        e = k + 3;
    put_newlines(sink(t), t->src, t->i, e);
    return e;
}

/* long long, unsigned long long, and the kernel parameters' size_t. */
static int take_long(tstate *t, const char *w, size_t n)
{
    const char *s = t->src;
    size_t j = skip_space(s, t->i + n);
    if (n == 8 && memcmp(w, "unsigned", 8) == 0 && word_at(s, j, "long")) {
        size_t k = skip_space(s, j + 4);
        if (word_at(s, k, "long")) {
            puts_(sink(t), "ulong");
            t->i = skip_int(t, k + 4);
            return 1;
        }
    }
    if (n == 4 && memcmp(w, "long", 4) == 0 && word_at(s, j, "long")) {
        puts_(sink(t), "long");
        t->i = skip_int(t, j + 4);
        return 1;
    }
    if (n == 6 && memcmp(w, "size_t", 6) == 0 && t->kstate == K_PARAMS) {
        puts_(sink(t), "ulong");
        t->i += 6;
        return 1;
    }
    return 0;
}

static void take_word(tstate *t)
{
    const char *s = t->src, *w = s + t->i;
    size_t n = 0;
    while (is_ident(w[n]))
        ++n;
    t->word = t->i;
    t->word_len = n;
    if (n == 7 && memcmp(w, "typedef", 7) == 0) {
        t->in_typedef = 1;
        t->typedef_brace = t->brace;
    }
    if (n == 6 && memcmp(w, "extern", 6) == 0 && take_extern(t))
        return;
    if (take_long(t, w, n)) {
        t->prev_type = 1;
        return;
    }
    if (n == 17 && memcmp(w, "__launch_bounds__", 17) == 0) {
        size_t j = skip_space(s, t->i + n);
        if (s[j] == '(')
            j += strcspn(s + j, ")") + 1;
        put_newlines(sink(t), s, t->i, j);
        t->i = j;
        return;
    }
    if (n == 10 && memcmp(w, "__global__", 10) == 0)
        t->kstate = K_HEAD;
    /* OpenCL C's keywords that CUDA leaves free ("local" as a name) */
    static const char *const cl_words[] = {"global",  "local",     "constant",   "private",
                                           "kernel",  "read_only", "write_only", "read_write",
                                           "uniform", "pipe"};
    if (word_in(w, n, cl_words, sizeof cl_words / sizeof *cl_words))
        puts_(sink(t), "accel_cl_");
    static const char *const quals[] = {"const", "volatile", "__restrict__", "restrict"};
    if (word_in(w, n, type_words, sizeof type_words / sizeof *type_words) ||
        is_typedef_name(t, w, n))
        t->prev_type = 1;
    else if (!word_in(w, n, quals, 4))
        t->prev_type = 0;
    ocl_sb_put(sink(t), w, n);
    t->i += n;
}

static void take_punct(tstate *t)
{
    char ch = t->src[t->i++];
    int was_type = t->prev_type;
    t->prev_type = 0;
    if (ch == '*' && was_type) {
        puts_(sink(t), " __global *");
        return;
    }
    if (ch == '(' && ++t->paren == 1 && t->kstate == K_HEAD) {
        ocl_sb_put(&t->out, "(", 1);
        t->kstate = K_PARAMS;
        return;
    }
    if (ch == ')' && --t->paren == 0 && t->kstate == K_PARAMS) {
        flush_param(t);
        ocl_sb_put(&t->out, "\001", 1); /* place_shared */
        t->kstate = K_BODY;
    } else if (ch == ',' && t->paren == 1 && t->kstate == K_PARAMS) {
        flush_param(t);
        ocl_sb_put(&t->out, ",", 1);
        return;
    } else if (ch == '{') {
        ++t->brace;
        ocl_sb_put(sink(t), "{", 1);
        if (t->kstate == K_BODY) {
            ocl_sb_put(&t->out, t->decls.s ? t->decls.s : "", t->decls.len);
            t->decls.len = 0;
            t->kstate = K_NONE;
        }
        return;
    } else if (ch == '}') {
        if (t->ndrop > 0 && t->drop[t->ndrop - 1] == t->brace--) {
            --t->ndrop;
            return;
        }
    } else if (ch == ';' && t->in_typedef && t->brace == t->typedef_brace) {
        end_typedef(t);
    } else if (ch == ';' && t->kstate == K_BODY) {
        t->decls.len = 0; /* a prototype */
        t->kstate = K_NONE;
    }
    ocl_sb_put(sink(t), &ch, 1);
}

/* t->out with each kernel's parameter-list end (\001) replaced by the
 * extern __shared__ parameter, or by nothing. */
static char *place_shared(tstate *t)
{
    char extra[200] = "";
    if (t->shared_name[0])
        snprintf(extra, sizeof extra, ", __local %s *%s", t->shared_type, t->shared_name);
    ocl_strbuf b = {NULL, 0, 0, 0};
    const char *s = t->out.s;
    for (const char *m; (m = strchr(s, '\001')); s = m + 1) {
        ocl_sb_put(&b, s, (size_t)(m - s));
        puts_(&b, extra);
    }
    puts_(&b, s);
    free(t->out.s);
    return b.failed ? (free(b.s), NULL) : b.s;
}

char *ocl__translate_cuda(const char *src, int *out_dynamic_shared, char *why, size_t why_size)
{
    tstate t;
    memset(&t, 0, sizeof t);
    t.src = src;
    puts_(&t.out, ocl__cuda_prelude());
    while (src[t.i]) {
        char ch = src[t.i];
        if (copy_literal(&t))
            continue;
        if (isdigit((unsigned char)ch) || (ch == '.' && isdigit((unsigned char)src[t.i + 1])))
            copy_number(&t);
        else if (is_ident(ch))
            take_word(&t);
        else if (isspace((unsigned char)ch))
            ocl_sb_put(sink(&t), &src[t.i++], 1);
        else
            take_punct(&t);
    }
    free(t.param.s);
    free(t.decls.s);
    if (t.out.failed || t.bad) {
        free(t.out.s);
        snprintf(why, why_size, "%s", t.bad ? t.bad : "out of host memory");
        return NULL;
    }
    *out_dynamic_shared = t.shared_name[0] != '\0';
    char *text = place_shared(&t);
    if (!text)
        snprintf(why, why_size, "out of host memory");
    return text;
}
