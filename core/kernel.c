/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/kernel.c — user kernels (accel/kernel.h): creation and parsing of the
 * three kinds, per-device builds, and launch validation. A launch checks
 * every argument (count, kind, dtype, range within its buffer, aliasing,
 * shapes, grid limits) before any backend sees it, then goes down the op
 * path of every op (accel__op_dispatch) as an ACCEL_OP_KERNEL desc. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_internal.h"
#include "submit.h"

static char *dup_str(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

void accel_kernel_options_init(accel_kernel_options *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
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

static bool reserved_name(const char *s)
{
    static const char *const words[] = {
        "i",        "n",       "auto",     "break",  "case",     "char",   "const",
        "continue", "default", "do",       "double", "else",     "enum",   "extern",
        "float",    "for",     "goto",     "if",     "int",      "long",   "register",
        "return",   "short",   "signed",   "sizeof", "static",   "struct", "switch",
        "typedef",  "union",   "unsigned", "void",   "volatile", "while",  NULL};
    if (strncmp(s, "accel_", 6) == 0)
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
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s: name \"%.*s\" is too long",
                               fn, arg, (int)nn, a);
        if (k->nparams == ACCEL__KMAX_PARAMS)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: more than %d parameters", fn,
                               ACCEL__KMAX_PARAMS);
        accel__kparam *pa = &k->params[k->nparams];
        memcpy(pa->name, a, nn);
        pa->name[nn] = '\0';
        if (reserved_name(pa->name))
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: %s: \"%s\" is reserved (i, n, C keywords, accel_*)", fn, arg,
                               pa->name);
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
    accel_status st = accel__enter(call, fn, rt, ACCEL__T_RUNTIME, "rt", &rt);
    if (st != ACCEL_SUCCESS)
        return st;
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
    if (opt && opt->cuda_options && !(k->cuda_options = dup_str(opt->cuda_options))) {
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

static accel_status kernel_register(const char *fn, accel_kernel *k, accel_kernel **out)
{
    accel_status st = accel__handle_new(ACCEL__T_KERNEL, k, k->rt->gate, &k->handle);
    if (st == ACCEL_SUCCESS)
        st = accel__kcache_adopt(k->rt, k);
    if (st != ACCEL_SUCCESS) {
        if (k->handle)
            accel__handle_free(k->handle);
        kernel_free(k);
        *out = NULL;
        return accel__fail(st, "%s: out of host memory", fn);
    }
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

void accel__kernel_destroy(accel_kernel *k)
{
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
        st = parse_params(fn, k, in_params, false, "in_params");
    if (st == ACCEL_SUCCESS)
        st = parse_params(fn, k, out_params, true, "out_params");
    if (st == ACCEL_SUCCESS && k->nparams == k->nin)
        st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: out_params declares no output", fn);
    if (st == ACCEL_SUCCESS && !(k->body = dup_str(body)))
        st = accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    if (st != ACCEL_SUCCESS) {
        kernel_free(k);
        *out = NULL;
        return st;
    }
    return kernel_register(fn, k, out);
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
        st = parse_params(fn, k, in_params, false, "in_params");
    if (st == ACCEL_SUCCESS)
        st = parse_params(fn, k, out_params, true, "out_params");
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
        k->map = dup_str(map);
        k->reduce = dup_str(reduce);
        k->identity = dup_str(identity);
        k->post = dup_str(pm);
        if (!k->map || !k->reduce || !k->identity || !k->post)
            st = accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    }
    if (st != ACCEL_SUCCESS) {
        kernel_free(k);
        *out = NULL;
        return st;
    }
    return kernel_register(fn, k, out);
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

static bool word_at(const char *s, size_t i, const char *w, bool prefix)
{
    size_t n = strlen(w);
    if (strncmp(s + i, w, n) != 0)
        return false;
    if (i > 0 && (isalnum((unsigned char)s[i - 1]) || s[i - 1] == '_'))
        return false;
    return prefix || !(isalnum((unsigned char)s[i + n]) || s[i + n] == '_');
}

/* The first construct the CPU twin cannot run, described, or NULL. */
static char *twin_problem(const char *blank)
{
    static const struct {
        const char *word;
        bool prefix;
        const char *why;
    } bad[] = {
        {"__shared__", false, "shared memory needs the threads of a block to run together"},
        {"__syncthreads", true, "a barrier needs the threads of a block to run together"},
        {"__syncwarp", false, "a barrier needs the threads of a warp to run together"},
        {"__shfl", true, "warp shuffles need the threads of a warp to run together"},
        {"__ballot", true, "warp votes need the threads of a warp to run together"},
        {"__any_sync", false, "warp votes need the threads of a warp to run together"},
        {"__all_sync", false, "warp votes need the threads of a warp to run together"},
        {"__activemask", false, "warp intrinsics have no meaning on the CPU"},
        {"__threadfence", true, "memory fences across threads are not modelled on the CPU"},
        {"warpSize", false, "warps have no meaning on the CPU"},
        {"atomic", true, "atomics are not supported by the CPU twin"},
        {"asm", false, "inline PTX cannot run on the CPU"},
        {"cooperative_groups", false, "cooperative groups need concurrent threads"},
        {"tex1Dfetch", false, "textures are not supported by the CPU twin"},
        {"tex2D", false, "textures are not supported by the CPU twin"},
    };
    for (size_t i = 0; blank[i]; i++) {
        for (size_t j = 0; j < sizeof bad / sizeof bad[0]; j++) {
            if (!word_at(blank, i, bad[j].word, bad[j].prefix))
                continue;
            size_t n = 0;
            while (isalnum((unsigned char)blank[i + n]) || blank[i + n] == '_')
                n++;
            char buf[384];
            snprintf(buf, sizeof buf, "%.*s (line %u): %s", (int)(n < 64 ? n : 64), blank + i,
                     line_of(blank, i), bad[j].why);
            return dup_str(buf);
        }
    }
    return NULL;
}

/* One raw parameter "const float *__restrict__ a" -> p. */
static bool parse_raw_param(const char *s, size_t n, accel__kparam *p, char *why, size_t cap)
{
    char text[256];
    if (n >= sizeof text) {
        snprintf(why, cap, "parameter is too long");
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
    /* Base type words, without qualifiers. */
    char base[128] = "";
    bool is_const = false;
    for (char *tok = strtok(text, " \t\r\n*"); tok; tok = strtok(NULL, " \t\r\n*")) {
        if (strcmp(tok, "const") == 0) {
            is_const = true;
            continue;
        }
        if (strcmp(tok, "__restrict__") == 0 || strcmp(tok, "restrict") == 0 ||
            strcmp(tok, "volatile") == 0 || strcmp(tok, "__restrict") == 0)
            continue;
        if (strlen(base) + strlen(tok) + 2 > sizeof base)
            break;
        if (base[0])
            strcat(base, " ");
        strcat(base, tok);
    }
    static const struct {
        const char *c;
        accel_dtype dt;
        accel__kstore st;
        bool sgn;
    } types[] = {
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
    accel_dtype dt = ACCEL_DTYPE_INVALID;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        if (strcmp(types[i].c, base) == 0) {
            dt = types[i].dt;
            p->store = types[i].st;
            p->is_signed = types[i].sgn;
            break;
        }
    }
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

accel_status accel_kernel_raw_create(accel_runtime *rt, const char *source, const char *entry,
                                     const accel_kernel_options *opt, accel_kernel **out)
{
    static const char fn[] = "accel_kernel_raw_create";
    ACCEL__CALL(call);
    accel_kernel *k;
    accel_status st = kernel_new(fn, &call, rt, entry, ACCEL_KERNEL_RAW, opt, out, &k);
    if (st != ACCEL_SUCCESS)
        return st;
    char *blank = NULL;
    if (!source) {
        st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: source is NULL", fn);
        goto fail;
    }
    if (!(k->source = dup_str(source)) || !(blank = dup_str(source))) {
        st = accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
        goto fail;
    }
    accel__kernel_blank_comments(blank);
    /* Find "__global__ ... ENTRY (" outside comments and strings. */
    size_t open = 0;
    for (size_t i = 0; blank[i] && !open; i++) {
        if (!word_at(blank, i, "__global__", false))
            continue;
        size_t j = i + 10;
        size_t paren = j;
        while (blank[paren] && blank[paren] != '(' && blank[paren] != ';' && blank[paren] != '{')
            paren++;
        if (blank[paren] != '(')
            continue;
        size_t e = paren;
        while (e > j && isspace((unsigned char)blank[e - 1]))
            e--;
        size_t b = e;
        while (b > j && (isalnum((unsigned char)blank[b - 1]) || blank[b - 1] == '_'))
            b--;
        if (e - b == strlen(entry) && strncmp(blank + b, entry, e - b) == 0)
            open = paren;
    }
    if (!open) {
        st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                         "%s: source has no __global__ function named %s", fn, entry);
        goto fail;
    }
    size_t depth = 0, close = open;
    for (; blank[close]; close++) {
        if (blank[close] == '(')
            depth++;
        else if (blank[close] == ')' && --depth == 0)
            break;
    }
    if (!blank[close]) {
        st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                         "%s: the parameter list of %s (line %u) does not end", fn, entry,
                         line_of(blank, open));
        goto fail;
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
            st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                             "%s: an empty parameter in the list of %s (line %u)", fn, entry,
                             line_of(blank, open));
            goto fail;
        }
        if (k->nparams == ACCEL__KMAX_PARAMS) {
            st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s has more than %d parameters", fn,
                             entry, ACCEL__KMAX_PARAMS);
            goto fail;
        }
        char why[256];
        if (!parse_raw_param(source + s, e - s, &k->params[k->nparams], why, sizeof why)) {
            st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s (line %u): %s", fn, entry,
                             line_of(blank, s), why);
            goto fail;
        }
        k->nparams++;
    }
    k->nin = k->nparams;
    k->twin_problem = twin_problem(blank);
    free(blank);
    return kernel_register(fn, k, out);
fail:
    free(blank);
    kernel_free(k);
    *out = NULL;
    return st;
}

void accel_kernel_release(accel_kernel *k)
{
    static const char fn[] = "accel_kernel_release";
    ACCEL__CALL(call);
    if (!k)
        return;
    if (accel__enter(&call, fn, k, ACCEL__T_KERNEL, "k", &k) != ACCEL_SUCCESS) {
        accel__log(ACCEL_LOG_WARN, "%s", accel_last_error());
        return;
    }
    accel__handle_free(k->handle);
    accel__kcache_disown(k->rt, k);
    accel__kernel_unref(k);
}

const char *accel_kernel_name(const accel_kernel *k)
{
    accel__type type;
    accel__gate *gate;
    const accel_kernel *obj = accel__handle_peek(k, &type, &gate);
    return obj && type == ACCEL__T_KERNEL ? obj->name : "(not a kernel)";
}

/* ------------------------------------------------------------ builds */

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
        uint32_t lang = dev->props.kind == ACCEL_DEVICE_GPU ? ACCEL_PROGRAM_CUDA : ACCEL_PROGRAM_C;
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
            b->message = dup_str(accel_last_error());
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

accel_status accel_kernel_build(accel_kernel *k, accel_device *dev, uint32_t scalar_mask)
{
    static const char fn[] = "accel_kernel_build";
    ACCEL__CALL(call);
    accel__arg h[2] = {{k, ACCEL__T_KERNEL, "k", &k, NULL},
                       {dev, ACCEL__T_DEVICE, "dev", &dev, NULL}};
    accel_status st = accel__call_enter(&call, fn, 2, h);
    if (st != ACCEL_SUCCESS)
        return st;
    if (k->kind == ACCEL_KERNEL_RAW)
        scalar_mask = 0;
    if (k->nin < 32 && (scalar_mask >> k->nin) != 0)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: scalar_mask 0x%x names inputs past the %u the kernel has", fn,
                           scalar_mask, k->nin);
    accel_be_program *p;
    return accel__kernel_program(k, dev, scalar_mask, &p);
}

/* ------------------------------------------------------------ launch */

/* The scalar a as parameter p stores it. */
static accel_status scalar_value(const char *fn, const accel_kernel *k, uint32_t i,
                                 const accel_kernel_arg *a, accel_kernel_arg_desc *o)
{
    const accel__kparam *p = &k->params[i];
    bool is_float_arg = a->dtype == ACCEL_F32 || a->dtype == ACCEL_F64 || a->dtype == ACCEL_F16 ||
                        a->dtype == ACCEL_BF16;
    bool is_int_arg = a->dtype == ACCEL_I32 || a->dtype == ACCEL_I64 || a->dtype == ACCEL_U8;
    if (!is_float_arg && !is_int_arg)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: %s: argument %u (%s) has dtype %d", fn,
                           k->label, i, p->name, (int)a->dtype);
    bool float_param = p->dtype == ACCEL_F32 || p->dtype == ACCEL_F64 || p->dtype == ACCEL_F16 ||
                       p->dtype == ACCEL_BF16;
    if (!float_param && is_float_arg)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH,
                           "%s: %s: argument %u (%s) is %s but a floating-point scalar was "
                           "passed (%s)",
                           fn, k->label, i, p->name, accel_dtype_name(p->dtype),
                           accel_dtype_name(a->dtype));
    double f = is_float_arg ? a->f : (double)a->i;
    o->buffer = NULL;
    o->offset = o->count = 0;
    o->kind = ACCEL_KARG_SCALAR;
    o->dtype = (uint32_t)p->dtype;
    memset(&o->value, 0, sizeof o->value);
    switch (p->dtype) {
    case ACCEL_F32:
        o->value.f32 = (float)f;
        break;
    case ACCEL_F64:
        o->value.f64 = f;
        break;
    case ACCEL_F16:
    case ACCEL_BF16:
        /* Passed as float (arithmetic in float); the C prelude and the CUDA
         * source read a float here. */
        o->value.f32 = (float)f;
        break;
    case ACCEL_I32:
        o->value.i32 = (int32_t)a->i;
        break;
    case ACCEL_I64:
        o->value.i64 = a->i;
        break;
    case ACCEL_U8:
        o->value.u8 = (uint8_t)a->i;
        break;
    case ACCEL_DTYPE_INVALID:
    case ACCEL_DTYPE_COUNT_:
        break;
    }
    return ACCEL_SUCCESS;
}

static bool ranges_overlap(const accel_kernel_arg *x, const accel_kernel_arg *y)
{
    return x->slice.buffer == y->slice.buffer && x->slice.count && y->slice.count &&
           x->slice.offset < y->slice.offset + y->slice.count &&
           y->slice.offset < x->slice.offset + x->slice.count;
}

/* Shared checks of the three launch calls; fills L (not the shape). */
static const char *const arg_names[ACCEL__KMAX_PARAMS] = {
    "args[0]",  "args[1]",  "args[2]",  "args[3]",  "args[4]",  "args[5]",  "args[6]",  "args[7]",
    "args[8]",  "args[9]",  "args[10]", "args[11]", "args[12]", "args[13]", "args[14]", "args[15]",
    "args[16]", "args[17]", "args[18]", "args[19]", "args[20]", "args[21]", "args[22]", "args[23]",
    "args[24]", "args[25]", "args[26]", "args[27]", "args[28]", "args[29]", "args[30]", "args[31]"};

/* Shared checks of the launch calls; fills L (not the shape). Enters the
 * call: *q, *k and the arrays' buffers (objects in bufs[]) resolved at once. */
static accel_status check_args(const char *fn, accel__call *call, accel_queue **q,
                               accel_kernel **kp, size_t num_args, const accel_kernel_arg *args,
                               accel_buffer **bufs, accel__klaunch *L)
{
    accel__arg h[2 + ACCEL__KMAX_PARAMS];
    size_t nh = 2;
    h[0] = (accel__arg){*q, ACCEL__T_QUEUE, "q", q, NULL};
    h[1] = (accel__arg){*kp, ACCEL__T_KERNEL, "k", kp, NULL};
    if (args && num_args <= ACCEL__KMAX_PARAMS)
        for (size_t i = 0; i < num_args; i++)
            if (args[i].kind == ACCEL_KARG_ARRAY)
                h[nh++] = (accel__arg){args[i].slice.buffer, ACCEL__T_BUFFER, arg_names[i],
                                       &bufs[i], ".slice.buffer"};
    accel_status st = accel__call_enter(call, fn, nh, h);
    if (st != ACCEL_SUCCESS)
        return st;
    accel_kernel *k = *kp;
    if (num_args != k->nparams)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: %s takes %u arguments (%u inputs, %u outputs) but %zu were "
                           "passed",
                           fn, k->label, k->nparams,
                           k->kind == ACCEL_KERNEL_RAW ? k->nparams : k->nin,
                           k->kind == ACCEL_KERNEL_RAW ? 0u : k->nparams - k->nin, num_args);
    if (num_args && !args)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: args is NULL", fn);
    memset(&L->be, 0, sizeof L->be);
    L->be.struct_size = sizeof L->be;
    L->be.kind = k->kind;
    L->be.num_args = (uint32_t)num_args;
    L->be.args = L->args;
    L->be.rows = 1;
    L->k = k;
    L->mask = 0;
    L->chain = NULL;
    for (uint32_t i = 0; i < num_args; i++) {
        const accel__kparam *p = &k->params[i];
        const accel_kernel_arg *a = &args[i];
        accel_kernel_arg_desc *o = &L->args[i];
        bool wants_array = k->kind == ACCEL_KERNEL_RAW ? p->pointer : true;
        if (a->kind == ACCEL_KARG_SCALAR) {
            if (wants_array && (k->kind == ACCEL_KERNEL_RAW || p->output))
                return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                                   "%s: %s: argument %u (%s) must be an array, a scalar was "
                                   "passed",
                                   fn, k->label, i, p->name);
            st = scalar_value(fn, k, i, a, o);
            if (st != ACCEL_SUCCESS)
                return st;
            if (k->kind != ACCEL_KERNEL_RAW)
                L->mask |= 1u << i;
            continue;
        }
        if (a->kind != ACCEL_KARG_ARRAY)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: %s: argument %u (%s) has kind %u (ACCEL_KARG_ARRAY or "
                               "ACCEL_KARG_SCALAR)",
                               fn, k->label, i, p->name, a->kind);
        if (!wants_array)
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: %s: argument %u (%s, %s) is a scalar parameter but an array "
                               "was passed",
                               fn, k->label, i, p->name, p->ctype);
        const accel_buffer *buf = bufs[i];
        if (buf->dev != (*q)->dev)
            return accel__fail(ACCEL_ERROR_DEVICE_MISMATCH, "%s: %s: %s is on %s but q is on %s",
                               fn, k->label, p->name, buf->dev->name, (*q)->dev->name);
        accel_dtype dt = p->dtype;
        if (dt == ACCEL_DTYPE_INVALID) /* a raw pointer of a type we do not know */
            dt = a->dtype != ACCEL_DTYPE_INVALID ? a->dtype : ACCEL_U8;
        else if (a->dtype != ACCEL_DTYPE_INVALID && a->dtype != dt)
            return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH,
                               "%s: %s: argument %u (%s) is %s but the array was given as %s", fn,
                               k->label, i, p->name, accel_dtype_name(dt),
                               accel_dtype_name(a->dtype));
        size_t es = accel__kesize(dt);
        if (es == 0)
            return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH,
                               "%s: %s: argument %u (%s): dtype %d is unknown", fn, k->label, i,
                               p->name, (int)dt);
        size_t n = buf->bytes / es;
        accel_slice s = a->slice;
        if (s.offset > n || s.count > n - s.offset)
            return accel__fail(
                ACCEL_ERROR_OUT_OF_RANGE,
                "%s: %s: %s range [%zu, %zu%s) exceeds buffer of %zu %s elements", fn, k->label,
                p->name, s.offset, s.count > SIZE_MAX - s.offset ? SIZE_MAX : s.offset + s.count,
                s.count > SIZE_MAX - s.offset ? " (overflow)" : "", n, accel_dtype_name(dt));
        accel__buffer_mark_enqueued(buf);
        o->value.i64 = 0;
        o->kind = ACCEL_KARG_ARRAY;
        o->dtype = (uint32_t)dt;
        o->buffer = buf->be;
        o->offset = s.offset;
        o->count = s.count;
    }
    return ACCEL_SUCCESS;
}

static accel_status submit(const char *fn, accel_queue *q, accel__klaunch *L, bool empty)
{
    accel_kernel *k = L->k;
    accel_be_program *prog = NULL;
    accel_status st = accel__kernel_program(k, q->dev, L->mask, &prog);
    (void)fn; /* the build's message names the kernel */
    if (st != ACCEL_SUCCESS && st != ACCEL_ERROR_UNSUPPORTED)
        return st;
    accel__clear_error();
    L->be.program = prog; /* NULL: op_supported says no, and fallback may run it */
    accel_op_desc d;
    memset(&d, 0, sizeof d);
    d.struct_size = sizeof d;
    d.op = ACCEL_OP_KERNEL;
    d.dtype = k->nparams ? (uint32_t)L->args[k->nparams - 1].dtype : 0;
    d.name = k->label;
    d.kernel = &L->be;
    return accel__submit(q, &d, empty ? ACCEL__SUBMIT_EMPTY : 0);
}

accel_status accel_kernel_launch(accel_queue *q, accel_kernel *k, size_t num_args,
                                 const accel_kernel_arg *args)
{
    static const char fn[] = "accel_kernel_launch";
    ACCEL__CALL(call);
    accel__klaunch L;
    accel_buffer *bufs[ACCEL__KMAX_PARAMS];
    accel_status st = check_args(fn, &call, &q, &k, num_args, args, bufs, &L);
    if (st != ACCEL_SUCCESS)
        return st;
    if (k->kind == ACCEL_KERNEL_RAW)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: %s is a raw kernel; launch it with accel_kernel_launch_grid", fn,
                           k->label);
    const accel_kernel_arg_desc *out = &L.args[k->nin];
    if (k->kind == ACCEL_KERNEL_ELEMENTWISE) {
        size_t n = out->count;
        for (uint32_t i = 0; i < k->nparams; i++) {
            if (L.args[i].kind != ACCEL_KARG_ARRAY)
                continue;
            if (L.args[i].count != n)
                return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                                   "%s: %s: %s has %zu elements but %s has %zu", fn, k->label,
                                   k->params[i].name, L.args[i].count, k->params[k->nin].name, n);
        }
        /* Outputs: each exactly an input's range or apart from it, and
         * apart from every other output. */
        for (uint32_t o = k->nin; o < k->nparams; o++) {
            for (uint32_t i = 0; i < k->nparams; i++) {
                if (i == o || L.args[i].kind != ACCEL_KARG_ARRAY ||
                    !ranges_overlap(&args[o], &args[i]))
                    continue;
                if (i < k->nin && args[o].slice.offset == args[i].slice.offset)
                    continue;
                return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                                   "%s: %s: output %s range [%zu, %zu) overlaps %s range [%zu, "
                                   "%zu) of the same buffer (in place needs an input's exact "
                                   "range; outputs may not overlap)",
                                   fn, k->label, k->params[o].name, args[o].slice.offset,
                                   args[o].slice.offset + args[o].slice.count, k->params[i].name,
                                   args[i].slice.offset,
                                   args[i].slice.offset + args[i].slice.count);
            }
        }
        L.be.n = n;
        return submit(fn, q, &L, n == 0);
    }
    /* Reduction: rows = output count, cols = input count / rows. */
    size_t rows = out->count;
    if (rows == 0)
        return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                           "%s: %s: output %s has 0 elements (1 for a whole range, or one per row)",
                           fn, k->label, k->params[k->nin].name);
    size_t cols = 0;
    bool have = false;
    for (uint32_t i = 0; i < k->nin; i++) {
        if (L.args[i].kind != ACCEL_KARG_ARRAY)
            continue;
        size_t c = L.args[i].count;
        if (c % rows != 0 || (have && c / rows != cols))
            return accel__fail(ACCEL_ERROR_SHAPE_MISMATCH,
                               "%s: %s: input %s has %zu elements, which is not %zu rows of %s%zu "
                               "columns (the output has %zu elements, one per row)",
                               fn, k->label, k->params[i].name, c, rows, have ? "" : "equal ",
                               have ? cols : c / rows, rows);
        cols = c / rows;
        have = true;
        if (ranges_overlap(&args[k->nin], &args[i]))
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: %s: output %s overlaps input %s in the same buffer", fn,
                               k->label, k->params[k->nin].name, k->params[i].name);
    }
    L.be.n = cols;
    L.be.rows = rows;
    return submit(fn, q, &L, false);
}

accel_status accel_kernel_launch_grid(accel_queue *q, accel_kernel *k, const uint32_t grid[3],
                                      const uint32_t block[3], size_t num_args,
                                      const accel_kernel_arg *args)
{
    static const char fn[] = "accel_kernel_launch_grid";
    ACCEL__CALL(call);
    accel__klaunch L;
    accel_buffer *bufs[ACCEL__KMAX_PARAMS];
    accel_status st = check_args(fn, &call, &q, &k, num_args, args, bufs, &L);
    if (st != ACCEL_SUCCESS)
        return st;
    if (k->kind != ACCEL_KERNEL_RAW)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: %s is not a raw kernel; launch it with accel_kernel_launch", fn,
                           k->label);
    if (!grid || !block)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                           !grid ? "grid" : "block");
    static const uint32_t gmax[3] = {0x7fffffffu, 65535u, 65535u};
    static const uint32_t bmax[3] = {1024u, 1024u, 64u};
    static const char dim[3] = {'x', 'y', 'z'};
    for (int i = 0; i < 3; i++) {
        if (grid[i] == 0 || grid[i] > gmax[i])
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: %s: grid.%c = %u is outside [1, %u]", fn, k->label, dim[i],
                               grid[i], gmax[i]);
        if (block[i] == 0 || block[i] > bmax[i])
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                               "%s: %s: block.%c = %u is outside [1, %u]", fn, k->label, dim[i],
                               block[i], bmax[i]);
    }
    uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
    if (threads > 1024)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: %s: a block of %u x %u x %u = %llu threads exceeds 1024", fn,
                           k->label, block[0], block[1], block[2], (unsigned long long)threads);
    for (int i = 0; i < 3; i++) {
        L.be.grid[i] = grid[i];
        L.be.block[i] = block[i];
    }
    L.be.n = (size_t)grid[0] * grid[1] * grid[2] * threads;
    return submit(fn, q, &L, false);
}
