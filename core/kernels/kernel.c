/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/kernel.c — the user-kernel object (accel/kernel.h): creation and
 * parsing of the three kinds, its references (the caller's, one per launch
 * recorded in a graph), per-device builds through the cache
 * (kernel_cache.c) and the generated source (kernel_codegen.c). Launches
 * are kernel_launch.c's; this file never calls the op path. */
#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/handle.h"
#include "base/objects.h"
#include "base/sbuf.h"
#include "base/status.h"
#include "base/struct_size.h"
#include "kernels/kernel_cache.h"
#include "kernels/kernel_twin.h"
#include "kernels/kernels.h"

void accel_kernel_options_init(accel_kernel_options *o)
{
    accel__struct_init(o, sizeof *o);
}

/* ------------------------------------------------------------ parsing */

static bool is_ident(const char *s, size_t n)
{
    if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return false;
    for (size_t i = 1; i < n; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
            return false;
    return true;
}

/* CuPy's type names and the C names users also write. */
static accel_dtype dtype_of_name(const char *t, size_t n)
{
    static const struct {
        const char *name;
        accel_dtype dt;
    } names[] = {{"float32", ACCEL_F32},   {"float", ACCEL_F32},   {"float64", ACCEL_F64},
                 {"double", ACCEL_F64},    {"float16", ACCEL_F16}, {"half", ACCEL_F16},
                 {"bfloat16", ACCEL_BF16}, {"int32", ACCEL_I32},   {"int", ACCEL_I32},
                 {"int64", ACCEL_I64},     {"uint8", ACCEL_U8}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i].name) == n && strncmp(names[i].name, t, n) == 0)
            return names[i].dt;
    return ACCEL_DTYPE_INVALID;
}

/* Names a parameter may not take: i and n (the generated loop's), accel_*,
 * the keywords of C (C11) and of C++ (the CUDA side compiles as C++), and
 * the identifiers C reserves for the implementation (__x, _X: _Bool,
 * _Generic, __func__, ...), which would otherwise fail inside the generated
 * code with a line the user never wrote. */
static bool reserved_name(const char *s)
{
    static const char *const words[] = {
        "i", "n",
        /* C11 */
        "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
        "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
        "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
        "union", "unsigned", "void", "volatile", "while",
        /* C++ (the CUDA source) */
        "bool", "true", "false", "class", "new", "delete", "this", "template", "typename",
        "namespace", "operator", "private", "protected", "public", "virtual", "friend", "using",
        "try", "catch", "throw", "explicit", "mutable", "nullptr", "constexpr", "decltype",
        "noexcept", "static_assert", "thread_local", "alignas", "alignof", "char16_t", "char32_t",
        "wchar_t", "asm", NULL};
    if (strncmp(s, "accel_", 6) == 0)
        return true;
    if (s[0] == '_' && (s[1] == '_' || (s[1] >= 'A' && s[1] <= 'Z')))
        return true;
    for (size_t i = 0; words[i]; i++)
        if (strcmp(words[i], s) == 0)
            return true;
    return false;
}

/* "T name, T name" -> k->params (appended); output marks them. */
static accel_status parse_params(const char *fn, accel_kernel *k, const char *list, bool output,
                                 const char *arg)
{
    const char *p = list;
    while (*p) {
        const char *end = strchr(p, ',');
        if (!end)
            end = p + strlen(p);
        const char *a = p, *b = end;
        while (a < b && isspace((unsigned char)*a))
            a++;
        while (b > a && isspace((unsigned char)b[-1]))
            b--;
        if (a == b) {
            if (*end == '\0' && p == list)
                break; /* "" or "  ": no parameters */
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s: an empty parameter in \"%s\"",
                               fn, arg, list);
        }
        const char *t = a;
        while (a < b && !isspace((unsigned char)*a))
            a++;
        size_t tn = (size_t)(a - t);
        while (a < b && isspace((unsigned char)*a))
            a++;
        if (a == b || !is_ident(a, (size_t)(b - a)))
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: %s: \"%.*s\" is not \"TYPE NAME\" (e.g. \"float32 x\")", fn,
                               arg, (int)(b - t), t);
        accel_dtype dt = dtype_of_name(t, tn);
        if (dt == ACCEL_DTYPE_INVALID)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: %s: unknown type \"%.*s\" (float32, float64, float16, "
                               "bfloat16, int32, int64, uint8)",
                               fn, arg, (int)tn, t);
        size_t nn = (size_t)(b - a);
        if (nn >= ACCEL__KNAME_MAX)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: %s: name \"%.*s\" is too long (at most %d characters)", fn, arg,
                               (int)nn, a, ACCEL__KNAME_MAX - 1);
        if (k->nparams == ACCEL__KMAX_PARAMS)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: more than %d parameters", fn,
                               ACCEL__KMAX_PARAMS);
        accel__kparam *pa = &k->params[k->nparams];
        memcpy(pa->name, a, nn);
        pa->name[nn] = '\0';
        if (reserved_name(pa->name))
            return accel__fail(
                ACCEL_ERROR_INVALID_ARGUMENT,
                "%s: %s: \"%s\" is reserved (i, n, C and C++ keywords, __x and _X names, accel_*)",
                fn, arg, pa->name);
        for (uint32_t j = 0; j < k->nparams; j++)
            if (strcmp(k->params[j].name, pa->name) == 0)
                return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                                   "%s: parameter \"%s\" is declared twice", fn, pa->name);
        pa->dtype = dt;
        pa->output = output;
        k->nparams++;
        if (!output)
            k->nin++;
        p = *end ? end + 1 : end;
    }
    return ACCEL_SUCCESS;
}

/* user_out: the caller's out argument (checked and cleared here); *out gets
 * the new kernel object. */
static accel_status kernel_new(const char *fn, accel__call *call, accel_runtime *rt,
                               const char *name, uint32_t kind, const accel_kernel_options *opt,
                               accel_kernel **user_out, accel_kernel **out)
{
    *out = NULL;
    if (user_out)
        *user_out = NULL;
    ACCEL__TRY(accel__enter(call, fn, rt, ACCEL__T_RUNTIME, "rt", &rt));
    if (!user_out)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: out is NULL", fn);
    if (!name || !is_ident(name, strlen(name)) || strlen(name) >= ACCEL__KNAME_MAX)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: name \"%s\" is not a C identifier of at most %d characters", fn,
                           name ? name : "(null)", ACCEL__KNAME_MAX - 1);
    if (opt && opt->struct_size < sizeof *opt)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: opt->struct_size is %u, expected %zu (call "
                           "accel_kernel_options_init)",
                           fn, opt->struct_size, sizeof *opt);
    accel_kernel *k = calloc(1, sizeof *k);
    if (!k)
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    k->rt = rt;
    k->kind = kind;
    snprintf(k->name, sizeof k->name, "%s", name);
    snprintf(k->label, sizeof k->label, "kernel %s", name);
    k->tolerance_ulp = opt && opt->tolerance_ulp ? opt->tolerance_ulp : 4;
    k->debug = opt && opt->debug;
    if (opt && opt->cuda_options && !(k->cuda_options = accel__str_dup(opt->cuda_options))) {
        free(k);
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    }
    pthread_mutex_init(&k->lock, NULL);
    atomic_init(&k->refs, 1);
    *out = k;
    return ACCEL_SUCCESS;
}

static void kernel_free(accel_kernel *k)
{
    if (!k)
        return;
    for (accel__kbuild *b = k->builds, *next; b; b = next) {
        next = b->next;
        free(b->message);
        free(b);
    }
    free(k->body);
    free(k->map);
    free(k->reduce);
    free(k->identity);
    free(k->post);
    free(k->source);
    free(k->twin_problem);
    free(k->cuda_options);
    pthread_mutex_destroy(&k->lock);
    free(k);
}

/* The end of a create: k (its fields parsed with status st) freed on a
 * failure, else its argument slots set and its handle made; *out either way. */
static accel_status kernel_finish(const char *fn, accel_status st, accel_kernel *k,
                                  accel_kernel **out)
{
    if (st != ACCEL_SUCCESS) {
        kernel_free(k);
        *out = NULL;
        return st;
    }
    for (uint32_t i = 0; i < k->nparams; i++) {
        const accel__kparam *p = &k->params[i];
        bool array = k->kind == ACCEL_KERNEL_RAW ? p->pointer : true;
        k->slot[i].dtype = (uint8_t)p->dtype;
        k->slot[i].flags =
            (uint8_t)((array ? ACCEL__KSLOT_ARRAY : 0u) | (p->output ? ACCEL__KSLOT_OUTPUT : 0u));
    }
    st = accel__handle_new(ACCEL__T_KERNEL, k, k->rt->gate, &k->handle);
    if (st != ACCEL_SUCCESS) {
        kernel_free(k);
        *out = NULL;
        return accel__fail(st, "%s: out of host memory", fn);
    }
    ACCEL__RT_LIST(PUSH, k->rt, kernels, k);
    *out = k->handle;
    return ACCEL_SUCCESS;
}

void accel__kernel_retain(accel_kernel *k)
{
    atomic_fetch_add_explicit(&k->refs, 1, memory_order_relaxed);
}

void accel__kernel_unref(accel_kernel *k)
{
    if (atomic_fetch_sub_explicit(&k->refs, 1, memory_order_acq_rel) == 1)
        kernel_free(k);
}

void accel__kernels_close(accel_runtime *rt)
{
    /* Kernels the caller left (their handles died with the runtime's); the
     * graphs, closed before, dropped their references. */
    while (rt->kernels) {
        accel_kernel *k = rt->kernels;
        ACCEL__LIST_REMOVE(rt->kernels, k);
        accel__kernel_unref(k);
    }
    accel__kcache_close(rt);
}

/* The in and out parameter lists of an elementwise or reduction kernel. */
static accel_status parse_lists(const char *fn, accel_kernel *k, const char *in_params,
                                const char *out_params)
{
    accel_status st = parse_params(fn, k, in_params, false, "in_params");
    return st == ACCEL_SUCCESS ? parse_params(fn, k, out_params, true, "out_params") : st;
}

accel_status accel_kernel_elementwise_create(accel_runtime *rt, const char *name,
                                             const char *in_params, const char *out_params,
                                             const char *body, const accel_kernel_options *opt,
                                             accel_kernel **out)
{
    static const char fn[] = "accel_kernel_elementwise_create";
    ACCEL__CALL(call);
    accel_kernel *k;
    accel_status st = kernel_new(fn, &call, rt, name, ACCEL_KERNEL_ELEMENTWISE, opt, out, &k);
    if (st != ACCEL_SUCCESS)
        return st;
    if (!in_params || !out_params || !body)
        st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                         !in_params    ? "in_params"
                         : !out_params ? "out_params"
                                       : "body");
    if (st == ACCEL_SUCCESS)
        st = parse_lists(fn, k, in_params, out_params);
    if (st == ACCEL_SUCCESS && k->nparams == k->nin)
        st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: out_params declares no output", fn);
    if (st == ACCEL_SUCCESS && !(k->body = accel__str_dup(body)))
        st = accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    return kernel_finish(fn, st, k, out);
}

accel_status accel_kernel_reduction_create(accel_runtime *rt, const char *name,
                                           const char *in_params, const char *out_params,
                                           const char *map, const char *reduce,
                                           const char *identity, const char *post,
                                           const accel_kernel_options *opt, accel_kernel **out)
{
    static const char fn[] = "accel_kernel_reduction_create";
    ACCEL__CALL(call);
    accel_kernel *k;
    accel_status st = kernel_new(fn, &call, rt, name, ACCEL_KERNEL_REDUCTION, opt, out, &k);
    if (st != ACCEL_SUCCESS)
        return st;
    if (!in_params || !out_params || !map || !reduce || !identity)
        st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                         !in_params    ? "in_params"
                         : !out_params ? "out_params"
                         : !map        ? "map"
                         : !reduce     ? "reduce"
                                       : "identity");
    if (st == ACCEL_SUCCESS)
        st = parse_lists(fn, k, in_params, out_params);
    if (st == ACCEL_SUCCESS && k->nparams != k->nin + 1)
        st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                         "%s: out_params must declare exactly one output (it declares %u)", fn,
                         k->nparams - k->nin);
    for (uint32_t i = 0; st == ACCEL_SUCCESS && i < k->nin; i++)
        if (strcmp(k->params[i].name, "a") == 0 || strcmp(k->params[i].name, "b") == 0)
            st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                             "%s: input \"%s\" clashes with the reduce expression's operands a "
                             "and b",
                             fn, k->params[i].name);
    if (st == ACCEL_SUCCESS) {
        /* CuPy writes the post-map as "y = expr"; keep expr. */
        const char *pm = post && *post ? post : "a";
        const char *outn = k->params[k->nin].name;
        size_t on = strlen(outn);
        const char *s = pm;
        while (isspace((unsigned char)*s))
            s++;
        if (strncmp(s, outn, on) == 0) {
            const char *e = s + on;
            while (isspace((unsigned char)*e))
                e++;
            if (*e == '=' && e[1] != '=')
                pm = e + 1;
        }
        k->map = accel__str_dup(map);
        k->reduce = accel__str_dup(reduce);
        k->identity = accel__str_dup(identity);
        k->post = accel__str_dup(pm);
        if (!k->map || !k->reduce || !k->identity || !k->post)
            st = accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    }
    return kernel_finish(fn, st, k, out);
}

/* ------------------------------------------------------------ raw kernels */

/* Line (from 1) of offset off in s. */
static unsigned line_of(const char *s, size_t off)
{
    unsigned line = 1;
    for (size_t i = 0; i < off && s[i]; i++)
        line += s[i] == '\n';
    return line;
}

/* The first construct the CPU twin cannot run, described, or NULL. */
static char *twin_problem(const char *blank)
{
    static const struct {
        const char *word;
        bool prefix;
        const char *why;
    } bad[] = {
        {"asm", false, "inline PTX cannot run on the CPU"},
        {"cooperative_groups", false, "cooperative groups need concurrent threads"},
        {"tex1Dfetch", false, "textures are not supported by the CPU twin"},
        {"tex2D", false, "textures are not supported by the CPU twin"},
    };
    for (size_t i = 0; blank[i]; i++) {
        for (size_t j = 0; j < sizeof bad / sizeof bad[0]; j++) {
            if (!accel__kernel_word_at(blank, i, bad[j].word, bad[j].prefix))
                continue;
            size_t n = 0;
            while (isalnum((unsigned char)blank[i + n]) || blank[i + n] == '_')
                n++;
            char buf[384];
            snprintf(buf, sizeof buf, "%.*s (line %u): %s", (int)(n < 64 ? n : 64), blank + i,
                     line_of(blank, i), bad[j].why);
            return accel__str_dup(buf);
        }
    }
    return NULL;
}

/* The scalar types a raw parameter may have (pointers: any of them, or
 * another type). */
static const struct {
    const char *c;
    accel_dtype dt;
    accel__kstore st;
    bool sgn;
} raw_types[] = {
    {"float", ACCEL_F32, ACCEL__KS_F32, true},
    {"double", ACCEL_F64, ACCEL__KS_F64, true},
    {"int", ACCEL_I32, ACCEL__KS_I32, true},
    {"signed", ACCEL_I32, ACCEL__KS_I32, true},
    {"signed int", ACCEL_I32, ACCEL__KS_I32, true},
    {"int32_t", ACCEL_I32, ACCEL__KS_I32, true},
    {"unsigned", ACCEL_I32, ACCEL__KS_I32, false},
    {"unsigned int", ACCEL_I32, ACCEL__KS_I32, false},
    {"uint32_t", ACCEL_I32, ACCEL__KS_I32, false},
    {"long", ACCEL_I64, ACCEL__KS_I64, true},
    {"long int", ACCEL_I64, ACCEL__KS_I64, true},
    {"long long", ACCEL_I64, ACCEL__KS_I64, true},
    {"long long int", ACCEL_I64, ACCEL__KS_I64, true},
    {"int64_t", ACCEL_I64, ACCEL__KS_I64, true},
    {"unsigned long", ACCEL_I64, ACCEL__KS_I64, false},
    {"unsigned long long", ACCEL_I64, ACCEL__KS_I64, false},
    {"uint64_t", ACCEL_I64, ACCEL__KS_I64, false},
    {"size_t", ACCEL_I64, ACCEL__KS_I64, false},
    {"unsigned char", ACCEL_U8, ACCEL__KS_U8, false},
    {"uint8_t", ACCEL_U8, ACCEL__KS_U8, false},
};

/* The base type words of text (a parameter without its name) into base,
 * without qualifiers; *is_const when const is among them. */
static void base_type(char *text, char *base, size_t cap, bool *is_const)
{
    base[0] = '\0';
    *is_const = false;
    for (char *tok = strtok(text, " \t\r\n*"); tok; tok = strtok(NULL, " \t\r\n*")) {
        if (strcmp(tok, "const") == 0) {
            *is_const = true;
            continue;
        }
        if (strcmp(tok, "__restrict__") == 0 || strcmp(tok, "restrict") == 0 ||
            strcmp(tok, "volatile") == 0 || strcmp(tok, "__restrict") == 0)
            continue;
        if (strlen(base) + strlen(tok) + 2 > cap)
            break;
        if (base[0])
            strcat(base, " ");
        strcat(base, tok);
    }
}

/* The dtype of base type name base (p's store and signedness set), or
 * ACCEL_DTYPE_INVALID. */
static accel_dtype raw_scalar_type(const char *base, accel__kparam *p)
{
    for (size_t i = 0; i < sizeof raw_types / sizeof raw_types[0]; i++) {
        if (strcmp(raw_types[i].c, base) == 0) {
            p->store = raw_types[i].st;
            p->is_signed = raw_types[i].sgn;
            return raw_types[i].dt;
        }
    }
    return ACCEL_DTYPE_INVALID;
}

/* One raw parameter "const float *__restrict__ a" -> p. */
static bool parse_raw_param(const char *s, size_t n, accel__kparam *p, char *why, size_t cap)
{
    char text[256];
    if (n >= sizeof text) {
        snprintf(why, cap, "parameter is too long (at most %zu characters)", sizeof text - 1);
        return false;
    }
    memcpy(text, s, n);
    text[n] = '\0';
    /* The name: the last identifier. */
    size_t e = n;
    while (e > 0 && isspace((unsigned char)text[e - 1]))
        e--;
    size_t b = e;
    while (b > 0 && (isalnum((unsigned char)text[b - 1]) || text[b - 1] == '_'))
        b--;
    if (b == e || e - b >= ACCEL__KNAME_MAX || !is_ident(text + b, e - b)) {
        snprintf(why, cap, "\"%.200s\" has no parameter name", text);
        return false;
    }
    memcpy(p->name, text + b, e - b);
    p->name[e - b] = '\0';
    text[b] = '\0';
    snprintf(p->ctype, sizeof p->ctype, "%.95s", text);
    p->pointer = strchr(text, '*') != NULL;
    if (strchr(text, '&') || strchr(text, '[')) {
        snprintf(why, cap, "parameter %s: references and arrays are not supported", p->name);
        return false;
    }
    char base[128];
    bool is_const;
    base_type(text, base, sizeof base, &is_const);
    accel_dtype dt = raw_scalar_type(base, p);
    if (p->pointer) {
        p->dtype = dt; /* INVALID: any dtype */
        p->output = !is_const;
        p->store = ACCEL__KS_NONE;
        return true;
    }
    if (dt == ACCEL_DTYPE_INVALID) {
        snprintf(why, cap,
                 "parameter %s: scalar type \"%s\" is not supported (float, double, "
                 "int, unsigned, long long, size_t, unsigned char and their stdint names)",
                 p->name, base);
        return false;
    }
    p->dtype = dt;
    return true;
}

/* The offset of the "(" of "__global__ ... ENTRY (" in blank (the source
 * with comments and strings blanked), or 0 when there is none. */
static size_t find_entry(const char *blank, const char *entry)
{
    size_t open = 0;
    for (size_t i = 0; blank[i] && !open; i++) {
        if (!accel__kernel_word_at(blank, i, "__global__", false))
            continue;
        size_t j = i + 10;
        size_t paren = j;
        while (blank[paren] && blank[paren] != '(' && blank[paren] != ';' && blank[paren] != '{')
            paren++;
        if (blank[paren] != '(')
            continue;
        size_t b, e;
        accel__kernel_name_before(blank, j, paren, &b, &e);
        if (e - b == strlen(entry) && strncmp(blank + b, entry, e - b) == 0)
            open = paren;
    }
    return open;
}

/* k's parameters from the list that opens at blank[open] (source: the
 * user's text, blank: the same with comments and strings blanked). */
static accel_status parse_raw_params(const char *fn, accel_kernel *k, const char *source,
                                     const char *blank, const char *entry, size_t open)
{
    size_t depth = 0, close = open;
    for (; blank[close]; close++) {
        if (blank[close] == '(')
            depth++;
        else if (blank[close] == ')' && --depth == 0)
            break;
    }
    if (!blank[close]) {
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: the parameter list of %s (line %u) does not end", fn, entry,
                           line_of(blank, open));
    }
    /* Split at top-level commas; "()" and "(void)" have none. */
    size_t a = open + 1;
    int nest = 0;
    for (size_t i = open + 1; i <= close; i++) {
        char c = blank[i];
        if (c == '(' || c == '<')
            nest++;
        else if ((c == ')' || c == '>') && i != close)
            nest--;
        if (!((c == ',' && nest == 0) || i == close))
            continue;
        size_t s = a, e = i;
        while (s < e && isspace((unsigned char)blank[s]))
            s++;
        while (e > s && isspace((unsigned char)blank[e - 1]))
            e--;
        a = i + 1;
        if (s == e || (e - s == 4 && strncmp(blank + s, "void", 4) == 0)) {
            if (i == close && k->nparams == 0)
                break;
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: an empty parameter in the list of %s (line %u)", fn, entry,
                               line_of(blank, open));
        }
        if (k->nparams == ACCEL__KMAX_PARAMS) {
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s has more than %d parameters",
                               fn, entry, ACCEL__KMAX_PARAMS);
        }
        char why[256];
        if (!parse_raw_param(source + s, e - s, &k->params[k->nparams], why, sizeof why)) {
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s (line %u): %s", fn, entry,
                               line_of(blank, s), why);
        }
        k->nparams++;
    }
    return ACCEL_SUCCESS;
}

static accel_status raw_create(const char *fn, accel_runtime *rt, const char *source,
                               const char *entry, const accel_kernel_options *opt, bool library,
                               accel_kernel **out)
{
    ACCEL__CALL(call);
    accel_kernel *k;
    accel_status st = kernel_new(fn, &call, rt, entry, ACCEL_KERNEL_RAW, opt, out, &k);
    if (st != ACCEL_SUCCESS)
        return st;
    k->library = library;
    char *blank = NULL;
    if (!source) {
        st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: source is NULL", fn);
        goto done;
    }
    if (!(k->source = accel__str_dup(source)) || !(blank = accel__str_dup(source))) {
        st = accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
        goto done;
    }
    accel__kernel_blank_comments(blank);
    size_t open = find_entry(blank, entry);
    if (!open) {
        st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                         "%s: source has no __global__ function named %s", fn, entry);
        goto done;
    }
    st = parse_raw_params(fn, k, source, blank, entry, open);
    if (st != ACCEL_SUCCESS)
        goto done;
    k->nin = k->nparams;
    k->twin_problem = twin_problem(blank);
    /* The order of float atomicAdd changes its sums: a wider default bound
     * (docs/kernels-twin.md). */
    if ((accel__twin_uses(blank) & ACCEL__TW_FADD) && !(opt && opt->tolerance_ulp))
        k->tolerance_ulp = ACCEL__TWIN_FADD_ULP;
done:
    free(blank);
    return kernel_finish(fn, st, k, out);
}

accel_status accel_kernel_raw_create(accel_runtime *rt, const char *source, const char *entry,
                                     const accel_kernel_options *opt, accel_kernel **out)
{
    return raw_create("accel_kernel_raw_create", rt, source, entry, opt, false, out);
}

accel_status accel__kernel_library_create(accel_runtime *rt, const char *source, const char *entry,
                                          const accel_kernel_options *opt, accel_kernel **out)
{
    return raw_create("array kernel", rt, source, entry, opt, true, out);
}

void accel_kernel_release(accel_kernel *k)
{
    /* Launches of other threads that resolved k return first. */
    ACCEL__ENTER_RELEASE("accel_kernel_release", k, ACCEL__T_KERNEL);
    ACCEL__RT_LIST(REMOVE, k->rt, kernels, k);
    accel__kernel_unref(k);
}

accel__klaunch *accel__klaunch_clone(const accel_op_desc *d)
{
    const accel__klaunch *L = accel__klaunch_of(d);
    accel__klaunch *c = malloc(sizeof *c);
    if (!c) {
        accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", d->name);
        return NULL;
    }
    memcpy(c, L, sizeof *c);
    c->be.args = c->args;
    accel__kernel_retain(c->k);
    return c;
}

void accel__klaunch_free(accel__klaunch *L)
{
    if (!L)
        return;
    accel__kernel_unref(L->k);
    free(L);
}

const char *accel_kernel_name(const accel_kernel *k)
{
    accel__type type;
    accel__gate *gate;
    const accel_kernel *obj = accel__handle_peek(k, &type, &gate);
    return obj && type == ACCEL__T_KERNEL ? obj->name : "(not a kernel)";
}

/* ------------------------------------------------------------ builds */

/* What dev compiles: CUDA C++ on a GPU, C (the twin) elsewhere, unless the
 * backend's program_identity refuses that language and takes the other
 * (the OpenCL plugin takes the CUDA dialect on every device, PoCL's CPU
 * devices included, and translates it). A backend's dialect is its own, so
 * the answer is asked once per device and kept (every kernel build and
 * debug launch asks; the identity is the cache key's, asked apart). */
uint32_t accel__kernel_language(const accel_device *dev)
{
    accel_device *d = (accel_device *)dev; /* the kept answer only */
    uint32_t kept = atomic_load_explicit(&d->kernel_language, memory_order_relaxed);
    if (kept)
        return kept;
    uint32_t lang = dev->props.kind == ACCEL_DEVICE_GPU ? ACCEL_PROGRAM_CUDA : ACCEL_PROGRAM_C;
    uint32_t other = lang == ACCEL_PROGRAM_C ? ACCEL_PROGRAM_CUDA : ACCEL_PROGRAM_C;
    const accel_backend *vt = dev->be->vt;
    char id[512];
    if (vt->program_identity &&
        vt->program_identity(dev->be->ctx, dev->index, lang, id, sizeof id) ==
            ACCEL_ERROR_UNSUPPORTED &&
        vt->program_identity(dev->be->ctx, dev->index, other, id, sizeof id) == ACCEL_SUCCESS)
        lang = other;
    atomic_store_explicit(&d->kernel_language, lang, memory_order_relaxed);
    return lang;
}

accel_status accel__kernel_program(accel_kernel *k, accel_device *dev, uint32_t mask,
                                   accel_be_program **out)
{
    /* The launch path: the last successful build, without the lock (builds
     * are never freed before the kernel). */
    accel__kbuild *hot = atomic_load_explicit(&k->hot, memory_order_acquire);
    if (hot && hot->dev == dev && hot->mask == mask) {
        *out = hot->prog;
        return ACCEL_SUCCESS;
    }
    *out = NULL;
    pthread_mutex_lock(&k->lock);
    accel__kbuild *b = k->builds;
    while (b && !(b->dev == dev && b->mask == mask))
        b = b->next;
    if (!b) {
        b = calloc(1, sizeof *b);
        if (!b) {
            pthread_mutex_unlock(&k->lock);
            return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", k->label);
        }
        b->dev = dev;
        b->mask = mask;
        uint32_t lang = accel__kernel_language(dev);
        char entry[ACCEL__KNAME_MAX + 16];
        char *src = NULL;
        if (lang == ACCEL_PROGRAM_C && k->twin_problem) {
            b->status = accel__fail(ACCEL_ERROR_UNSUPPORTED,
                                    "%s: the CPU twin cannot run %s; the kernel runs on CUDA "
                                    "devices only",
                                    k->label, k->twin_problem);
        } else if (!(src = accel__kernel_codegen(k, lang, mask, entry))) {
            b->status =
                accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", k->label);
        } else {
            b->status =
                accel__kcache_build(k->rt, dev, k->label, lang, src, entry,
                                    lang == ACCEL_PROGRAM_CUDA ? k->cuda_options : NULL, &b->prog);
        }
        free(src);
        if (b->status != ACCEL_SUCCESS)
            b->message = accel__str_dup(accel_last_error());
        b->next = k->builds;
        k->builds = b;
    }
    accel_status st = b->status;
    if (st != ACCEL_SUCCESS) {
        accel__set_error("%s", b->message ? b->message : accel_status_string(st));
    } else {
        *out = b->prog;
        atomic_store_explicit(&k->hot, b, memory_order_release);
    }
    pthread_mutex_unlock(&k->lock);
    return st;
}

/* *scalar_mask for k: 0 for a raw kernel (its parameters are as written),
 * refused where it names inputs past k's. */
static accel_status check_scalar_mask(const char *fn, const accel_kernel *k, uint32_t *scalar_mask)
{
    if (k->kind == ACCEL_KERNEL_RAW)
        *scalar_mask = 0;
    if (k->nin < 32 && (*scalar_mask >> k->nin) != 0)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: scalar_mask 0x%x names inputs past the %u the kernel has", fn,
                           *scalar_mask, k->nin);
    return ACCEL_SUCCESS;
}

accel_status accel_kernel_build(accel_kernel *k, accel_device *dev, uint32_t scalar_mask)
{
    static const char fn[] = "accel_kernel_build";
    ACCEL__CALL(call);
    accel__arg h[2] = {{k, ACCEL__T_KERNEL, "k", &k, NULL},
                       {dev, ACCEL__T_DEVICE, "dev", &dev, NULL}};
    ACCEL__TRY(accel__call_enter(&call, fn, 2, h));
    ACCEL__TRY(check_scalar_mask(fn, k, &scalar_mask));
    accel_be_program *p;
    return accel__kernel_program(k, dev, scalar_mask, &p);
}

accel_status accel_kernel_compiler_get(accel_device *dev, char *out, size_t size)
{
    static const char fn[] = "accel_kernel_compiler_get";
    ACCEL__CALL(call);
    accel__arg h[1] = {{dev, ACCEL__T_DEVICE, "dev", &dev, NULL}};
    ACCEL__TRY(accel__call_enter(&call, fn, 1, h));
    if (!out || size == 0)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: out is NULL or size is 0", fn);
    out[0] = '\0';
    const accel_backend *vt = dev->be->vt;
    if (!vt->program_identity || !vt->program_build)
        return accel__fail(ACCEL_ERROR_UNSUPPORTED,
                           "%s: the %s backend builds no user kernels (no program_build entry)", fn,
                           dev->be->name);
    char id[512] = "";
    if (vt->program_identity(dev->be->ctx, dev->index, accel__kernel_language(dev), id,
                             sizeof id) != ACCEL_SUCCESS ||
        id[0] == '\0')
        return accel__fail(ACCEL_ERROR_UNSUPPORTED,
                           "%s: the %s backend finds no compiler for user kernels on %s", fn,
                           dev->be->name, dev->name);
    snprintf(out, size, "%s", id);
    return ACCEL_SUCCESS;
}

accel_status accel_kernel_source_get(accel_kernel *k, accel_device *dev, uint32_t scalar_mask,
                                     char *out, size_t size, size_t *out_length)
{
    static const char fn[] = "accel_kernel_source_get";
    ACCEL__CALL(call);
    accel__arg h[2] = {{k, ACCEL__T_KERNEL, "k", &k, NULL},
                       {dev, ACCEL__T_DEVICE, "dev", &dev, NULL}};
    ACCEL__TRY(accel__call_enter(&call, fn, 2, h));
    if (!out && size)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: out is NULL but size is %zu", fn,
                           size);
    ACCEL__TRY(check_scalar_mask(fn, k, &scalar_mask));
    char entry[ACCEL__KNAME_MAX + 16];
    char *src = accel__kernel_codegen(k, accel__kernel_language(dev), scalar_mask, entry);
    if (!src)
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    size_t len = strlen(src);
    if (size) {
        size_t m = len < size - 1 ? len : size - 1;
        memcpy(out, src, m);
        out[m] = '\0';
    }
    if (out_length)
        *out_length = len;
    free(src);
    return ACCEL_SUCCESS;
}

accel_status accel_kernel_cache_stats_get(const accel_runtime *rt, accel_kernel_cache_stats *out)
{
    static const char fn[] = "accel_kernel_cache_stats_get";
    ACCEL__CALL(call);
    size_t bytes = 0;
    ACCEL__TRY(accel__enter_struct_out(&call, fn, rt, ACCEL__T_RUNTIME, "rt", &rt, out,
                                       ACCEL__SIZE_UPTO(accel_kernel_cache_stats, disabled_reason),
                                       sizeof *out, &bytes));
    accel__kcache_counters c;
    if (accel__kcache_counters_get((accel_runtime *)rt, &c) != ACCEL_SUCCESS)
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    accel_kernel_cache_stats s;
    accel__struct_init(&s, sizeof s);
    s.disk_enabled = c.disk_enabled;
    s.memory_hits = c.memory_hits;
    s.disk_hits = c.disk_hits;
    s.misses = c.misses;
    s.rebuilt = c.rebuilt;
    s.failures = c.failures;
    s.compile_ms = c.compile_ms;
    s.load_ms = c.load_ms;
    snprintf(s.dir, sizeof s.dir, "%s", c.dir);
    snprintf(s.disabled_reason, sizeof s.disabled_reason, "%s", c.disabled_reason);
    accel__struct_out_write(out, &s, bytes);
    return ACCEL_SUCCESS;
}
