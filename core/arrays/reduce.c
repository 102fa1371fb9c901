/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/arrays/reduce.c — reductions over any set of axes (accel_array_reduce):
 * one row per reduction (accumulator, identity, fold step, final value), a
 * raw kernel generated per (reduction, dtypes, kept and reduced axes after
 * merging) with one thread per output element, or per chunk of an output
 * (split_plan), folding its elements in an order fixed by the shape alone
 * (include/accel/array.h says which), so every backend computes the same
 * bits. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrays/arrays_internal.h"
#include "base/objects.h"
#include "base/sbuf.h"
#include "base/status.h"
#include "kernels/kernels.h"

static const char *const reduce_names[ACCEL_ARRAY_REDUCE_LIMIT_] = {
#define ACCEL_X_RNAME(E, V, NAME) [V] = NAME,
    ACCEL_ARRAY_REDUCE_LIST(ACCEL_X_RNAME)
#undef ACCEL_X_RNAME
};

const char *accel_array_reduce_name(accel_array_reduce_fn fn)
{
    return (unsigned)fn < ACCEL_ARRAY_REDUCE_LIMIT_ && reduce_names[fn] ? reduce_names[fn]
                                                                        : "unknown";
}

/* One reduction kernel. A plain kernel folds each output element's m
 * elements of x into out. A split reduction (split_plan) runs a chain of
 * kernels over partials, the accumulators of chunks of elements (x's
 * chunks interleaved: inter; partials' consecutive): x into partials,
 * partials into fewer partials, partials into out; in_part and out_part
 * say which end of the chain a kernel is. */
typedef struct rspec {
    accel_array_reduce_fn fn;
    accel_dtype xt, yt;
    uint32_t nk, nr; /* kept and reduced axes after merging (in_part: nr 0) */
    bool in_part, out_part;
    /* x into partials with work items output-fastest (x's kept axes are its
     * inner ones: neighbouring items read neighbouring elements), else
     * chunk-fastest; the same partials either way. */
    bool ofast;
    /* On a CPU device, ofast or inter x into partials of a sum or mean: the
     * tile form (tile_source) or the group form (group_source), the same
     * bits as the one-item-per-thread forms. */
    bool tile;
    /* Chunk-fastest real x into partials, chunks interleaved in groups
     * (inter_range; inter_sum, inter_fold): neighbouring work items (a
     * warp's lanes) read neighbouring runs. Else chunk c is the
     * consecutive elements [c l, (c + 1) l). */
    bool inter;
} rspec;

static bool is_float(accel_dtype dt)
{
    return accel_dtype_kind_of(dt) == ACCEL_DTYPE_KIND_FLOAT;
}

static bool is_complex(accel_dtype dt)
{
    return accel_dtype_kind_of(dt) == ACCEL_DTYPE_KIND_COMPLEX;
}

static bool is_arg(accel_array_reduce_fn fn)
{
    return fn == ACCEL_ARRAY_REDUCE_ARGMIN || fn == ACCEL_ARRAY_REDUCE_ARGMAX;
}

/* The comparison by which an element beats the extreme so far: max and
 * argmax ">", min and argmin "<". */
static const char *extreme_cmp(accel_array_reduce_fn fn)
{
    return fn == ACCEL_ARRAY_REDUCE_ARGMAX || fn == ACCEL_ARRAY_REDUCE_MAX ? ">" : "<";
}

/* The accumulator as an array element, the dtype of a partial: double per
 * part for floats and complex; for integers the 64-bit wrapping type of sum
 * and prod, the input's own type for min/max/arg; int for any and all. */
static accel_dtype part_dtype(const rspec *s)
{
    if (s->fn == ACCEL_ARRAY_REDUCE_ANY || s->fn == ACCEL_ARRAY_REDUCE_ALL)
        return is_complex(s->xt) ? ACCEL_C128 : ACCEL_I32;
    if (is_complex(s->xt))
        return ACCEL_C128;
    if (is_float(s->xt))
        return ACCEL_F64;
    if (s->fn == ACCEL_ARRAY_REDUCE_SUM || s->fn == ACCEL_ARRAY_REDUCE_PROD)
        return ACCEL_U64;
    return s->xt;
}

/* The accumulator's C type (real x). */
static const char *acc_type(const rspec *s)
{
    return accel__array_ctype(part_dtype(s));
}

/* The index of the element at offset accel_e that a fold of argmin or
 * argmax records: its reduced index, or a partial's recorded one. */
static const char *arg_index(const rspec *s)
{
    return s->in_part ? "accel_ix[accel_e]" : "accel_j";
}

/* The cast of an element added or multiplied into a real accumulator:
 * none for floats, to the wrapping 64-bit type for integers. */
static const char *lane_cast(const rspec *s)
{
    return is_float(s->xt) ? "" : "(unsigned long long)";
}

/* The fold of element a into accel_acc (accel_best: arg index). */
static void fold(accel__sbuf *b, const rspec *s)
{
    bool f = is_float(s->xt);
    switch (s->fn) {
    case ACCEL_ARRAY_REDUCE_SUM:
    case ACCEL_ARRAY_REDUCE_MEAN:
        accel__sbuf_put(b, "      accel_acc = accel_acc + %sa;\n", lane_cast(s));
        break;
    case ACCEL_ARRAY_REDUCE_PROD:
        accel__sbuf_put(b, "      accel_acc = accel_acc * %sa;\n", lane_cast(s));
        break;
    case ACCEL_ARRAY_REDUCE_MIN:
    case ACCEL_ARRAY_REDUCE_MAX: {
        bool mx = s->fn == ACCEL_ARRAY_REDUCE_MAX;
        if (f)
            accel__sbuf_put(b, "      accel_acc = accel_%s(accel_acc, a);\n", mx ? "max" : "min");
        else
            accel__sbuf_put(b, "      if (a %s accel_acc) accel_acc = a;\n", extreme_cmp(s->fn));
        break;
    }
    case ACCEL_ARRAY_REDUCE_ANY:
        accel__sbuf_put(b, "      accel_acc = accel_acc || a != 0;\n");
        break;
    case ACCEL_ARRAY_REDUCE_ALL:
        accel__sbuf_put(b, "      accel_acc = accel_acc && a != 0;\n");
        break;
    case ACCEL_ARRAY_REDUCE_ARGMIN:
    case ACCEL_ARRAY_REDUCE_ARGMAX: {
        const char *op = extreme_cmp(s->fn);
        if (s->in_part && f) /* partials of interleaved runs: ties go to the lower index */
            accel__sbuf_put(b,
                            "      if (a != a ? (accel_acc == accel_acc || accel_ix[accel_e] < "
                            "accel_best) : (accel_acc == accel_acc && (a %s accel_acc || (a == "
                            "accel_acc && accel_ix[accel_e] < accel_best)))) { accel_acc = a; "
                            "accel_best = accel_ix[accel_e]; }\n",
                            op);
        else if (s->in_part)
            accel__sbuf_put(b,
                            "      if (a %s accel_acc || (a == accel_acc && accel_ix[accel_e] < "
                            "accel_best)) { accel_acc = a; accel_best = accel_ix[accel_e]; }\n",
                            op);
        else if (f) /* the first NaN wins, then the first extreme */
            accel__sbuf_put(
                b,
                "      if (accel_acc == accel_acc && (a != a || a %s accel_acc)) { accel_acc = a; "
                "accel_best = %s; }\n",
                op, arg_index(s));
        else
            accel__sbuf_put(b, "      if (a %s accel_acc) { accel_acc = a; accel_best = %s; }\n",
                            op, arg_index(s));
        break;
    }
    case ACCEL_ARRAY_REDUCE_INVALID:
    case ACCEL_ARRAY_REDUCE_LIMIT_:
        break;
    }
}

static bool is_sum(accel_array_reduce_fn fn)
{
    return fn == ACCEL_ARRAY_REDUCE_SUM || fn == ACCEL_ARRAY_REDUCE_MEAN;
}

/* Whether the order of the fold changes the result's bits: a float sum,
 * mean or product. The others (min, max, their args with ties to the lower
 * index, any, all, integer sums and products in wrapping 64-bit) give the
 * same result in any order, so a CPU device may fold them in chunks of
 * consecutive elements (its faster walk) where a GPU interleaves them. */
static bool ordered(const rspec *s)
{
    return is_float(s->xt) && (is_sum(s->fn) || s->fn == ACCEL_ARRAY_REDUCE_PROD);
}

static bool from_first(accel_array_reduce_fn fn)
{
    return fn == ACCEL_ARRAY_REDUCE_MIN || fn == ACCEL_ARRAY_REDUCE_MAX || is_arg(fn);
}

/* The element at offset E of the input as the accumulator's value (a
 * partial already is one). */
static void load(accel__sbuf *b, const rspec *s, const char *e)
{
    bool truth = s->fn == ACCEL_ARRAY_REDUCE_ANY || s->fn == ACCEL_ARRAY_REDUCE_ALL;
    const char *cv = s->in_part            ? NULL
                     : s->xt == ACCEL_F16  ? "accel_h2f"
                     : s->xt == ACCEL_BF16 ? "accel_bf2f"
                                           : NULL;
    if (truth)
        accel__sbuf_put(b, "(%s(accel_x[%s]) != 0)", cv ? cv : "", e);
    else if (cv)
        accel__sbuf_put(b, "(double)%s(accel_x[%s])", cv, e);
    else
        accel__sbuf_put(b, "(%s)accel_x[%s]", acc_type(s), e);
}

/* accel_e = offset of reduced element accel_j: row-major over the reduced
 * axes of x, or the j-th partial of the output's row. */
static void reduced_offset(accel__sbuf *b, const rspec *s)
{
    if (s->in_part) {
        accel__sbuf_put(b, "      const long long accel_e = accel_ox + accel_j;\n");
        return;
    }
    accel__sbuf_put(b, "      long long accel_q = accel_j, accel_e = accel_ox;\n");
    for (uint32_t d = s->nr; d-- > 1;)
        accel__sbuf_put(
            b, "      accel_e += (accel_q %% accel_rs%u) * accel_rx%u; accel_q /= accel_rs%u;\n", d,
            d, d);
    if (s->nr)
        accel__sbuf_put(b, "      accel_e += accel_q * accel_rx0;\n");
}

/* The output element (a partial keeps the accumulator; out gets the value
 * converted once, a mean divided by all accel_mt elements). */
static void store(accel__sbuf *b, const rspec *s)
{
    if (s->out_part) {
        accel__sbuf_put(b, "    accel_y[accel_oy] = accel_acc;\n");
        if (is_arg(s->fn))
            accel__sbuf_put(b, "    accel_iy[accel_oy] = accel_best;\n");
        return;
    }
    const char *v = s->fn == ACCEL_ARRAY_REDUCE_MEAN ? "accel_acc / (double)accel_mt"
                    : is_arg(s->fn)                  ? "accel_best"
                                                     : "accel_acc";
    if (s->yt == ACCEL_F16 || s->yt == ACCEL_BF16)
        accel__sbuf_put(b, "    accel_y[accel_oy] = %s((float)(%s));\n",
                        s->yt == ACCEL_F16 ? "accel_f2h" : "accel_f2bf", v);
    else if (s->yt == ACCEL_BOOL)
        accel__sbuf_put(b, "    accel_y[accel_oy] = (unsigned char)((%s) != 0);\n", v);
    else
        accel__sbuf_put(b, "    accel_y[accel_oy] = (%s)(%s);\n", accel__array_ctype(s->yt), v);
}

/* The kernel's name, its cache key: array_<fn>_<x>_<out>_k<nk>r<nr>
 * (plain), array_<fn>_<x>_part[o]_k<nk>r<nr> (x into partials; o:
 * output-fastest),
 * array_<fn>_<x>_pp (partials into partials), array_<fn>_<x>_p_<out>_k<nk>
 * (partials into out). */
static void entry_of(const rspec *s, char *entry)
{
    const char *f = accel_array_reduce_name(s->fn), *x = accel_dtype_name(s->xt);
    if (s->in_part && s->out_part)
        snprintf(entry, ACCEL__ANAME_MAX, "array_%s_%s_pp", f, x);
    else if (s->in_part)
        snprintf(entry, ACCEL__ANAME_MAX, "array_%s_%s_p_%s_k%u", f, x, accel_dtype_name(s->yt),
                 s->nk);
    else
        snprintf(entry, ACCEL__ANAME_MAX, "array_%s_%s_%s_k%ur%u", f, x,
                 !s->out_part ? accel_dtype_name(s->yt)
                 : s->tile    ? (s->inter ? "partg" : "partt")
                 : s->ofast   ? "parto"
                              : "part",
                 s->nk, s->nr);
}

static void signature(accel__sbuf *b, const rspec *s, const char *entry)
{
    bool split = s->in_part || s->out_part;
    accel__sbuf_put(b, "__global__ void %s(const void *accel_p0, void *accel_p1", entry);
    if (is_arg(s->fn) && s->in_part)
        accel__sbuf_put(b, ", const void *accel_p2");
    if (is_arg(s->fn) && s->out_part)
        accel__sbuf_put(b, ", void *accel_p3");
    accel__sbuf_put(b, ", long long accel_b0, long long accel_b1, long long accel_n, "
                       "long long accel_m");
    if (split)
        accel__sbuf_put(b, ", long long accel_p, long long accel_l, long long accel_mt");
    accel__array_params(b, "long long accel_ks", 1, s->nk);
    for (uint32_t d = 0; d < s->nk; d++)
        accel__sbuf_put(b, ", long long accel_kx%u, long long accel_ko%u", d, d);
    accel__array_params(b, "long long accel_rs", 1, s->nr);
    accel__array_params(b, "long long accel_rx", 0, s->nr);
    accel__sbuf_put(b, ") {\n");
}

/* The kept axes' offsets of output element accel_o: accel_ox in x (the
 * input's row when it is partials) and accel_oy in out (chunk accel_c of
 * the output's row when the output is partials). */
static void kept_offsets(accel__sbuf *b, const rspec *s)
{
    bool kx = !s->in_part, ko = !s->out_part;
    accel__sbuf_put(b, "    long long accel_ox = %s, accel_oy = %s;\n",
                    kx ? "0" : "accel_o * accel_m", ko ? "0" : "accel_o * accel_p + accel_c");
    if (s->nk == 0 || (!kx && !ko))
        return;
    accel__sbuf_put(b, "    long long accel_r = accel_o;\n");
    for (uint32_t d = s->nk; d-- > 0;) {
        if (d)
            accel__sbuf_put(b,
                            "    { const long long accel_c = accel_r %% accel_ks%u; "
                            "accel_r /= accel_ks%u;",
                            d, d);
        else
            accel__sbuf_put(b, "    { const long long accel_c = accel_r;");
        if (kx)
            accel__sbuf_put(b, " accel_ox += accel_c * accel_kx%u;", d);
        if (ko)
            accel__sbuf_put(b, " accel_oy += accel_c * accel_ko%u;", d);
        accel__sbuf_put(b, " }\n");
    }
}

/* The interleaved form's groups (rspec.inter): the chunks of an output go
 * in groups of GROUP; the group of chunk C, accel_gc chunks from accel_g0,
 * folds the elements [accel_lo, accel_hi), the group's chunks' consecutive
 * elements, in rounds of accel_ps = 8 accel_gc elements; chunk C takes
 * the run of 8 at accel_s = accel_lo + 8 (C - accel_g0) of each round. A
 * warp's lanes, neighbouring chunks, so read one round's neighbouring runs
 * (whole cache lines), and a CPU thread walking a group's rounds reads x
 * in order; a chunk's elements, 8 at a time, are the same either way. */
enum { GROUP = 32, RUN = 8 };

static void inter_range(accel__sbuf *b, const char *c)
{
    accel__sbuf_put(b,
                    "    const long long accel_g0 = %s / %d * %d;\n"
                    "    const long long accel_gc = accel_p - accel_g0 < %d ? accel_p - accel_g0 : "
                    "%d;\n"
                    "    const long long accel_lo = accel_g0 * accel_l, accel_ps = accel_gc * %d;\n"
                    "    const long long accel_hi = accel_m - accel_lo < accel_gc * accel_l ? "
                    "accel_m : accel_lo + accel_gc * accel_l;\n"
                    "    long long accel_s = accel_lo + (%s - accel_g0) * %d;\n",
                    c, GROUP, GROUP, GROUP, GROUP, RUN, c, RUN);
}

/* The kernel up to the fold: the input and output pointers, the
 * grid-stride loop over work items (an output element, or one chunk
 * [accel_lo, accel_hi) of it for split kernels) and the offsets. */
static void head(accel__sbuf *b, const rspec *s, const char *entry)
{
    accel_dtype it = s->in_part ? part_dtype(s) : s->xt, ot = s->out_part ? part_dtype(s) : s->yt;
    if (it == ACCEL_F16 || it == ACCEL_BF16 || ot == ACCEL_F16 || ot == ACCEL_BF16)
        accel__sbuf_put(b, "%s", accel__kernel_prelude_16bit());
    accel__sbuf_put(b, "%s", accel__array_helpers);
    signature(b, s, entry);
    const char *xc = accel__array_ptr_ctype(it), *yc = accel__array_ptr_ctype(ot);
    accel__sbuf_put(b,
                    "  const %s *const accel_x = (const %s *)accel_p0 + %saccel_b0;\n"
                    "  %s *const accel_y = (%s *)accel_p1 + %saccel_b1;\n",
                    xc, xc, is_complex(it) ? "2 * " : "", yc, yc, is_complex(ot) ? "2 * " : "");
    if (is_arg(s->fn) && s->in_part)
        accel__sbuf_put(b, "  const long long *const accel_ix = (const long long *)accel_p2;\n");
    if (is_arg(s->fn) && s->out_part)
        accel__sbuf_put(b, "  long long *const accel_iy = (long long *)accel_p3;\n");
    if (s->ofast)
        accel__sbuf_put(b, "  const long long accel_no = accel_n / accel_p;\n");
    accel__sbuf_put(b,
                    "  const long long accel_step = (long long)gridDim.x * blockDim.x;\n"
                    "  for (long long accel_i = (long long)blockIdx.x * blockDim.x + threadIdx.x; "
                    "accel_i < accel_n; accel_i += accel_step) {\n");
    if (!s->in_part && !s->out_part) {
        accel__sbuf_put(b,
                        "    const long long accel_o = accel_i, accel_lo = 0, accel_hi = accel_m, "
                        "accel_mt = accel_m;\n");
        kept_offsets(b, s);
        return;
    }
    if (s->ofast)
        accel__sbuf_put(b, "    const long long accel_o = accel_i %% accel_no, accel_c = accel_i / "
                           "accel_no;\n");
    else
        accel__sbuf_put(b, "    const long long accel_o = accel_i / accel_p, accel_c = accel_i - "
                           "accel_o * accel_p;\n");
    if (s->inter)
        inter_range(b, "accel_c");
    else
        accel__sbuf_put(b, "    const long long accel_lo = accel_c * accel_l;\n"
                           "    const long long accel_hi = accel_m - accel_lo < accel_l ? accel_m "
                           ": accel_lo + accel_l;\n");
    kept_offsets(b, s);
}

/* A complex x: sum, prod and mean fold (re, im) in double (prod: the
 * schoolbook product, as NumPy's); any and all test re != 0 || im != 0 (a
 * partial of theirs is (truth, 0)). */
static void complex_body(accel__sbuf *b, const rspec *s)
{
    bool prod = s->fn == ACCEL_ARRAY_REDUCE_PROD, all = s->fn == ACCEL_ARRAY_REDUCE_ALL;
    bool truth = all || s->fn == ACCEL_ARRAY_REDUCE_ANY;
    accel__sbuf_put(b, "    double accel_re = %s, accel_im = 0;\n", prod || all ? "1" : "0");
    accel__sbuf_put(b, "    for (long long accel_j = accel_lo; accel_j < accel_hi; accel_j++) {\n");
    reduced_offset(b, s);
    accel__sbuf_put(b, "      const double ar = (double)accel_x[2 * accel_e], "
                       "ai = (double)accel_x[2 * accel_e + 1];\n");
    if (truth)
        accel__sbuf_put(b, "      accel_re = accel_re %s (ar != 0 || ai != 0);\n",
                        all ? "&&" : "||");
    else if (prod)
        accel__sbuf_put(b, "      { const double t = accel_re * ar - accel_im * ai; "
                           "accel_im = accel_re * ai + accel_im * ar; accel_re = t; }\n");
    else
        accel__sbuf_put(b, "      accel_re += ar; accel_im += ai;\n");
    accel__sbuf_put(b, "    }\n");
    if (s->out_part) {
        accel__sbuf_put(b, "    accel_y[2 * accel_oy] = accel_re; accel_y[2 * accel_oy + 1] = "
                           "accel_im;\n");
        return;
    }
    if (truth) {
        accel__sbuf_put(b, "    accel_y[accel_oy] = (unsigned char)(accel_re != 0);\n");
        return;
    }
    if (s->fn == ACCEL_ARRAY_REDUCE_MEAN)
        accel__sbuf_put(b, "    accel_re /= (double)accel_mt; accel_im /= (double)accel_mt;\n");
    const char *t = accel__array_ptr_ctype(s->yt);
    accel__sbuf_put(b,
                    "    accel_y[2 * accel_oy] = (%s)accel_re; "
                    "accel_y[2 * accel_oy + 1] = (%s)accel_im;\n",
                    t, t);
}

/* A sum (or mean) of real x in REDUCE_LANES interleaved accumulators:
 * element j of a work item's run goes to lane (j - lo) % REDUCE_LANES, the
 * lanes are added in a fixed tree, then the tail in order. The same
 * generated code on every backend, so the same bits everywhere; eight
 * independent adds in flight where one chain of dependent ones waited
 * each add's latency (a 4096-element row: 14.0 ms in one chain, 5.0 ms in
 * eight, for 4096 rows on this machine's cc -O2), and each lane a sum of
 * n/8 terms (no larger error bound). */
enum { REDUCE_LANES = 8 };
_Static_assert((int)RUN == (int)REDUCE_LANES,
               "a run of the interleaved form is one element per lane");

/* The run's tail after the lanes, [accel_j8, accel_hi), folded in order into
 * accel_acc: element accel_e of x, or base + accel_e (base given: x's
 * offsets of the tile's output, accel_e then taken from 0). */
static void tail_fold(accel__sbuf *b, const rspec *s, const char *base)
{
    accel__sbuf_put(b,
                    "      for (long long accel_j = accel_j8; accel_j < accel_hi; accel_j++) {\n");
    if (base)
        accel__sbuf_put(b, "      const long long accel_ox = 0;\n");
    reduced_offset(b, s);
    char at[96];
    snprintf(at, sizeof at, "%s%saccel_e", base ? base : "", base ? " + " : "");
    accel__sbuf_put(b, "      const %s a = ", acc_type(s));
    load(b, s, at);
    accel__sbuf_put(b, ";\n");
    fold(b, s);
    accel__sbuf_put(b, "      }\n");
}

/* Element accel_j of the output's row (reduced_offset) folded in. */
static void fold_element(accel__sbuf *b, const rspec *s)
{
    reduced_offset(b, s);
    accel__sbuf_put(b, "      const %s a = ", acc_type(s));
    load(b, s, "accel_e");
    accel__sbuf_put(b, ";\n");
    fold(b, s);
}

/* The fixed tree that adds the REDUCE_LANES lanes, lane u named by the
 * format k (its %d is u): ((k0 + k1) + (k2 + k3)) + ((k4 + k5) + (k6 + k7)). */
_Static_assert(REDUCE_LANES == 8, "lane_tree writes the tree of 8 lanes");
static void lane_tree(accel__sbuf *b, const char *k)
{
    for (int u = 0; u < REDUCE_LANES; u++) {
        accel__sbuf_put(b, "%s", u % 4 == 0 ? "((" : u % 2 == 0 ? " + (" : " + ");
        accel__sbuf_put(b, k, u);
        accel__sbuf_put(b, "%s", u % 4 == 3 ? "))" : u % 2 == 1 ? ")" : "");
        if (u == 3)
            accel__sbuf_put(b, " + ");
    }
}

/* Whether the CUDA form reads runs of 8 elements of x in 16-byte loads:
 * x itself (not partials) over one merged reduced axis, of a 4- or 8-byte
 * real dtype that loads as a plain cast (not any/all). A work item of a
 * split kernel walks its chunk alone, so a warp's 32 scalar loads hit 32
 * lines; 16-byte loads fetch whole sectors (the axis-1 sum, argmax and
 * int32 sum of issue 27 read at 0.3 of the bound). The values and their
 * order are the scalar loop's: the same bits on every backend. */
static bool runs8(const rspec *s)
{
    size_t es = accel_dtype_size(s->xt);
    return !s->in_part && s->nr == 1 && (es == 4 || es == 8) && !is_complex(s->xt) &&
           s->fn != ACCEL_ARRAY_REDUCE_ANY && s->fn != ACCEL_ARRAY_REDUCE_ALL;
}

/* Under NVRTC only (#ifdef __CUDACC_RTC__): accel_v8.w[0..7], the 8
 * elements of x from accel_ox + J, loaded as 16-byte vectors. (Runs of 32,
 * four times the bytes in flight, measured no faster on the H100: the
 * axis-1 sum 0.666 -> 0.652 ms; removed.) */
static void load8(accel__sbuf *b, const rspec *s, const char *j)
{
    size_t nq = 8 * accel_dtype_size(s->xt) / 16;
    accel__sbuf_put(b,
                    "        union { uint4 u[%zu]; %s w[8]; } accel_v8;\n"
                    "        const uint4 *accel_vp = (const uint4 *)(accel_x + accel_ox + %s);\n",
                    nq, accel__array_ptr_ctype(s->xt), j);
    for (size_t q = 0; q < nq; q++)
        accel__sbuf_put(b, "        accel_v8.u[%zu] = accel_vp[%zu];\n", q, q);
}

/* The test that x + accel_ox + J is on a 16-byte boundary. */
static void aligned16(accel__sbuf *b, const char *j)
{
    accel__sbuf_put(b, "((unsigned long long)(accel_x + accel_ox + %s) & 15) == 0", j);
}

/* A sum's accumulator and its REDUCE_LANES lanes, zero, in a new scope. */
static void lanes_open(accel__sbuf *b, const rspec *s)
{
    const char *t = acc_type(s);
    accel__sbuf_put(b, "    %s accel_acc;\n    {\n      %s accel_k0 = 0", t, t);
    for (int u = 1; u < REDUCE_LANES; u++)
        accel__sbuf_put(b, ", accel_k%d = 0", u);
    accel__sbuf_put(b, ";\n");
}

/* Under NVRTC, where x's reduced axis is contiguous and x + accel_ox + AT
 * is 16-byte aligned: the runs of 8 from J (J += STEP while a whole run is
 * before accel_hi) added to the lanes from 16-byte loads. */
static void vec_lanes(accel__sbuf *b, const rspec *s, const char *at, const char *j,
                      const char *step)
{
    if (!runs8(s))
        return;
    const char *t = acc_type(s), *cast = lane_cast(s);
    accel__sbuf_put(b, "#ifdef __CUDACC_RTC__\n      if (accel_rx0 == 1 && ");
    aligned16(b, at);
    accel__sbuf_put(b, ")\n      for (; %s + 8 <= accel_hi; %s += %s) {\n", j, j, step);
    load8(b, s, j);
    for (int u = 0; u < REDUCE_LANES; u++)
        accel__sbuf_put(b, "        accel_k%d = accel_k%d + %s(%s)accel_v8.w[%d];\n", u, u, cast, t,
                        u);
    accel__sbuf_put(b, "      }\n#endif\n");
}

/* The runs from J (J += STEP) added to their lanes: each whole run before
 * accel_hi, or (short_run) the last one's elements before accel_hi. */
static void run_lanes(accel__sbuf *b, const rspec *s, const char *j, const char *step,
                      bool short_run)
{
    const char *cast = lane_cast(s);
    if (short_run)
        accel__sbuf_put(b, "      if (%s < accel_hi) {\n", j);
    else
        accel__sbuf_put(b, "      for (; %s + %d <= accel_hi; %s += %s) {\n", j, REDUCE_LANES, j,
                        step);
    for (int u = 0; u < REDUCE_LANES; u++) {
        if (short_run)
            accel__sbuf_put(b, "      if (%s + %d < accel_hi)", j, u);
        accel__sbuf_put(b, "      { const long long accel_j = %s + %d;\n", j, u);
        reduced_offset(b, s);
        accel__sbuf_put(b, "      accel_k%d = accel_k%d + %s", u, u, cast);
        load(b, s, "accel_e");
        accel__sbuf_put(b, "; }\n");
    }
    accel__sbuf_put(b, "      }\n");
}

static void sum_lanes(accel__sbuf *b, const rspec *s)
{
    lanes_open(b, s);
    accel__sbuf_put(b, "      long long accel_j8 = accel_lo;\n");
    vec_lanes(b, s, "accel_j8", "accel_j8", "8");
    run_lanes(b, s, "accel_j8", "8", false);
    accel__sbuf_put(b, "      accel_acc = ");
    lane_tree(b, "accel_k%d");
    accel__sbuf_put(b, ";\n");
    tail_fold(b, s, NULL);
    accel__sbuf_put(b, "    }\n");
    store(b, s);
}

/* The run of 8 elements of x from J, 16-byte loads, each folded in order
 * (accel_j its index). */
static void fold8(accel__sbuf *b, const rspec *s, const char *j)
{
    load8(b, s, j);
    for (int u = 0; u < 8; u++) {
        accel__sbuf_put(b,
                        "        { const long long accel_j = %s + %d; (void)accel_j;\n"
                        "        const %s a = (%s)accel_v8.w[%d];\n  ",
                        j, u, acc_type(s), acc_type(s), u);
        fold(b, s);
        accel__sbuf_put(b, "        }\n");
    }
}

/* real_body's fold from accel_jv under NVRTC, when x's reduced axis is
 * contiguous: one element at a time up to a 16-byte boundary, then runs of
 * 8 from 16-byte loads, each folded in order (accel_jv left at the rest). */
static void fold_runs8(accel__sbuf *b, const rspec *s)
{
    accel__sbuf_put(b, "#ifdef __CUDACC_RTC__\n    if (accel_rx0 == 1) {\n"
                       "      for (; accel_jv < accel_hi && !(");
    aligned16(b, "accel_jv");
    accel__sbuf_put(b,
                    "); accel_jv++) {\n"
                    "        const long long accel_j = accel_jv, accel_e = accel_ox + accel_j;\n"
                    "        const %s a = ",
                    acc_type(s));
    load(b, s, "accel_e");
    accel__sbuf_put(b, ";\n  ");
    fold(b, s);
    accel__sbuf_put(b, "      }\n      for (; accel_jv + 8 <= accel_hi; accel_jv += 8) {\n");
    fold8(b, s, "accel_jv");
    accel__sbuf_put(b, "      }\n    }\n#endif\n");
}

/* The interleaved form's sum or mean (rspec.inter): the runs of chunk
 * accel_c start at accel_s = (accel_c + k accel_p) REDUCE_LANES; element
 * accel_s + u goes to lane u, the lanes are added in lane_tree's order.
 * Under NVRTC a run is two (8-byte dtypes: four) 16-byte loads where x's
 * row is 16-byte aligned; a warp's 32 lanes then read 32 neighbouring runs
 * (whole cache lines) where chunks of consecutive elements had them read
 * 32 lines 4 KiB or more apart. */
static void inter_sum(accel__sbuf *b, const rspec *s)
{
    lanes_open(b, s);
    vec_lanes(b, s, "accel_lo", "accel_s", "accel_ps");
    run_lanes(b, s, "accel_s", "accel_ps", false);
    run_lanes(b, s, "accel_s", "accel_ps", true);
    accel__sbuf_put(b, "      accel_acc = ");
    lane_tree(b, "accel_k%d");
    accel__sbuf_put(b, ";\n    }\n");
    store(b, s);
}

/* The interleaved form's other reductions: the accumulator from the
 * identity (or the chunk's first element, which min, max and the arg
 * reductions then fold again, to no effect), each run's elements folded
 * in order (16-byte loads as inter_sum's). */
static void inter_fold(accel__sbuf *b, const rspec *s)
{
    const char *ident =
        s->fn == ACCEL_ARRAY_REDUCE_PROD || s->fn == ACCEL_ARRAY_REDUCE_ALL ? "1" : "0";
    accel__sbuf_put(
        b, "    %s accel_acc = %s;\n    long long accel_best = 0;\n    (void)accel_best;\n",
        acc_type(s), ident);
    if (from_first(s->fn)) {
        accel__sbuf_put(b, "    { const long long accel_j = accel_s;\n");
        reduced_offset(b, s);
        accel__sbuf_put(b, "      accel_acc = ");
        load(b, s, "accel_e");
        accel__sbuf_put(b, ";\n      accel_best = accel_j;\n    }\n");
    }
    if (runs8(s)) {
        accel__sbuf_put(b, "#ifdef __CUDACC_RTC__\n    if (accel_rx0 == 1 && ");
        aligned16(b, "accel_lo");
        accel__sbuf_put(b, ")\n    for (; accel_s + 8 <= accel_hi; accel_s += accel_ps) {\n");
        fold8(b, s, "accel_s");
        accel__sbuf_put(b, "    }\n#endif\n");
    }
    accel__sbuf_put(
        b,
        "    for (; accel_s < accel_hi; accel_s += accel_ps) {\n"
        "    const long long accel_h = accel_hi - accel_s < %d ? accel_hi : accel_s + %d;\n"
        "    for (long long accel_j = accel_s; accel_j < accel_h; accel_j++) {\n",
        REDUCE_LANES, REDUCE_LANES);
    fold_element(b, s);
    accel__sbuf_put(b, "    }\n    }\n");
    store(b, s);
}

/* In the CPU twin only (#ifdef ACCEL_TWIN), for min, max, argmin and argmax
 * of x along one contiguous reduced axis: blocks of EXT_BLOCK elements from
 * accel_jv, each reduced first to its extreme value and a NaN flag over
 * REDUCE_LANES branch-free lanes (which the C compiler vectorizes: a select
 * per lane, where the one-element fold's branch did not). The result is the
 * fold's, bit for bit:
 * - argmin/argmax scan a block for the index only when it holds a NaN (the
 *   first NaN wins) or its extreme beats the accumulator (a tie keeps the
 *   earlier index);
 * - float min/max fold a block element by element when it holds a NaN or
 *   its extreme is a zero (-0 < +0 then decides), else take its extreme
 *   when it beats the accumulator (equal nonzero values have equal bits);
 * - integer min/max take the block's extreme when it beats the accumulator.
 * 2^24 float32 argmax on one thread of this machine's cc -O2: 22.5 ms as
 * the fold, 5.3 ms blocked (2.8 ms built for AVX2). */
enum { EXT_BLOCK = 256 };

static void twin_lanes(accel__sbuf *b, const rspec *s)
{
    const char *xc = accel__array_ptr_ctype(s->xt);
    const char *op = extreme_cmp(s->fn);
    accel__sbuf_put(b,
                    "        const %s *const accel_q = accel_x + accel_ox + accel_jv;\n"
                    "        %s accel_m[%d], accel_bm; int accel_nn[%d], accel_an = 0;\n"
                    "        for (int accel_u = 0; accel_u < %d; accel_u++) {\n"
                    "          accel_m[accel_u] = accel_q[accel_u];\n"
                    "          accel_nn[accel_u] = accel_q[accel_u] != accel_q[accel_u];\n"
                    "        }\n",
                    xc, xc, REDUCE_LANES, REDUCE_LANES, REDUCE_LANES);
    accel__sbuf_put(
        b,
        "        for (int accel_t = %d; accel_t < %d; accel_t += %d)\n"
        "          for (int accel_u = 0; accel_u < %d; accel_u++) {\n"
        "            const %s a = accel_q[accel_t + accel_u];\n"
        "            accel_m[accel_u] = a %s accel_m[accel_u] ? a : accel_m[accel_u];\n"
        "            accel_nn[accel_u] |= a != a;\n"
        "          }\n"
        "        accel_bm = accel_m[0];\n"
        "        for (int accel_u = 0; accel_u < %d; accel_u++) {\n"
        "          accel_an |= accel_nn[accel_u];\n"
        "          accel_bm = accel_m[accel_u] %s accel_bm ? accel_m[accel_u] : accel_bm;\n"
        "        }\n",
        REDUCE_LANES, EXT_BLOCK, REDUCE_LANES, REDUCE_LANES, xc, op, REDUCE_LANES, op);
}

/* What a block's extreme accel_bm and NaN flag accel_an do to the
 * accumulator (twin_blocks' rules). */
static void twin_block_result(accel__sbuf *b, const rspec *s)
{
    const char *op = extreme_cmp(s->fn);
    if (is_arg(s->fn)) {
        accel__sbuf_put(b,
                        "        if (accel_an || accel_bm %s accel_acc)\n"
                        "          for (int accel_t = 0; accel_t < %d; accel_t++)\n"
                        "            if (accel_an ? accel_q[accel_t] != accel_q[accel_t]\n"
                        "                         : accel_q[accel_t] == accel_bm) {\n"
                        "              accel_acc = accel_q[accel_t];\n"
                        "              accel_best = accel_jv + accel_t;\n"
                        "              break;\n"
                        "            }\n",
                        op, EXT_BLOCK);
        return;
    }
    if (is_float(s->xt)) {
        accel__sbuf_put(b,
                        "        if (accel_an || accel_bm == 0)\n"
                        "          for (int accel_t = 0; accel_t < %d; accel_t++) {\n"
                        "            const %s a = (%s)accel_q[accel_t];\n",
                        EXT_BLOCK, acc_type(s), acc_type(s));
        fold(b, s);
        accel__sbuf_put(b, "          }\n        else ");
    }
    accel__sbuf_put(b, "        if (accel_bm %s accel_acc) accel_acc = accel_bm;\n", op);
}

static void twin_blocks(accel__sbuf *b, const rspec *s)
{
    accel__sbuf_put(b,
                    "#ifdef ACCEL_TWIN\n    if (accel_rx0 == 1) {\n"
                    "      accel_jv = accel_lo; /* the first element again: no change */\n"
                    "      for (; accel_jv + %d <= accel_hi && accel_acc == accel_acc; "
                    "accel_jv += %d) {\n",
                    EXT_BLOCK, EXT_BLOCK);
    twin_lanes(b, s);
    twin_block_result(b, s);
    accel__sbuf_put(b, "      }\n"
                       "      if (accel_acc != accel_acc) accel_jv = accel_hi;\n"
                       "    }\n#endif\n");
}

/* A real x: the accumulator from the identity (or the chunk's first
 * element), each element folded in order, stored (sums: sum_lanes; the
 * interleaved form: inter_sum, inter_fold). */
static void real_body(accel__sbuf *b, const rspec *s)
{
    bool sum = is_sum(s->fn);
    if (s->inter) {
        if (sum)
            inter_sum(b, s);
        else
            inter_fold(b, s);
        return;
    }
    if (sum) {
        sum_lanes(b, s);
        return;
    }
    const char *ident =
        s->fn == ACCEL_ARRAY_REDUCE_PROD || s->fn == ACCEL_ARRAY_REDUCE_ALL ? "1" : "0";
    bool first = from_first(s->fn);
    accel__sbuf_put(
        b, "    %s accel_acc = %s;\n    long long accel_best = 0;\n    (void)accel_best;\n",
        acc_type(s), first ? "0" : ident);
    if (first) {
        accel__sbuf_put(b, "    { const long long accel_j = accel_lo;\n");
        reduced_offset(b, s);
        accel__sbuf_put(b, "      accel_acc = ");
        load(b, s, "accel_e");
        accel__sbuf_put(b, ";\n");
        if (is_arg(s->fn))
            accel__sbuf_put(b, "      accel_best = %s;\n", arg_index(s));
        accel__sbuf_put(b, "    }\n");
    }
    accel__sbuf_put(b, "    long long accel_jv = accel_lo + %d;\n", first ? 1 : 0);
    if (runs8(s) && first)
        twin_blocks(b, s);
    if (runs8(s))
        fold_runs8(b, s);
    accel__sbuf_put(b, "    for (long long accel_j = accel_jv; accel_j < accel_hi; accel_j++) {\n");
    fold_element(b, s);
    accel__sbuf_put(b, "    }\n");
    store(b, s);
}

/* The tile form of an output-fastest sum or mean of real x into partials,
 * for a CPU device: a work unit is TILE consecutive outputs of one chunk,
 * walked rows outer and outputs inner, each output's REDUCE_LANES lanes in
 * a small array. A work item of the other form walks one output's column
 * alone, whose elements lie a row apart: rows 16 KiB apart fall in one set
 * of the L1 cache, so the lines the next outputs would reuse are gone (the
 * axis-0 sum of 4096^2 float32 spent its time there). Each output still
 * gets the same lanes, tree and tail as sum_lanes: the same bits. */
enum { TILE = 16, PREFETCH_TILES = 4 };

/* A full tile of outputs adjacent in x, lanes outer: lane u's rows (lo +
 * u, lo + u + 8, ... of the whole groups of 8) summed into TILE
 * accumulators that cc keeps in registers (ACCEL_UNROLL), each row read as
 * one run of TILE elements. The same rows in the same order per lane as the
 * rows-outer loop that follows (it then has no whole group left): the same
 * bits. The axis-0 sum of 4096^2 float32 on one core of the EPYC VM, as a C
 * prototype: 10.0 ms rows outer (64 outputs a tile, lanes in memory), 3.8
 * ms so. Each row's line PREFETCH_TILES tiles on is prefetched: a unit
 * reads one line from each of its chunk's rows, 16 KiB apart there, more
 * streams than the hardware prefetcher follows, and with x out of cache the
 * sum took 8.2-8.5 ms without (NumPy 5.3-5.5), 4.3-5.0 with (NumPy
 * 3.9-4.4), timed in interleaved calls on 2 threads. */
static void tile_full(accel__sbuf *b, const rspec *s)
{
    const char *t = acc_type(s), *cast = lane_cast(s);
    accel__sbuf_put(b,
                    "    if (accel_run && accel_gn == %d) {\n"
                    "      const long long accel_jw = accel_lo + (accel_hi - accel_lo) / %d * %d;\n"
                    "      for (int accel_u = 0; accel_u < %d; accel_u++) {\n"
                    "        %s accel_a[%d];\n"
                    "        ACCEL_UNROLL for (int accel_g = 0; accel_g < %d; accel_g++) "
                    "accel_a[accel_g] = 0;\n"
                    "        for (long long accel_jr = accel_lo + accel_u; accel_jr < accel_jw; "
                    "accel_jr += %d) {\n"
                    "        long long accel_d;\n"
                    "        { const long long accel_j = accel_jr, accel_ox = 0;\n",
                    TILE, REDUCE_LANES, REDUCE_LANES, REDUCE_LANES, t, TILE, TILE, REDUCE_LANES);
    reduced_offset(b, s);
    accel__sbuf_put(b,
                    "        accel_d = accel_e; }\n"
                    "        const long long accel_r0 = accel_xs[0] + accel_d;\n"
                    "        ACCEL_PREFETCH(accel_x + accel_r0 + %d);\n"
                    "        ACCEL_UNROLL for (int accel_g = 0; accel_g < %d; accel_g++)\n"
                    "          accel_a[accel_g] = accel_a[accel_g] + %s",
                    PREFETCH_TILES * TILE, TILE, cast);
    load(b, s, "accel_r0 + accel_g");
    accel__sbuf_put(b,
                    ";\n        }\n"
                    "        ACCEL_UNROLL for (int accel_g = 0; accel_g < %d; accel_g++) "
                    "accel_k[accel_u][accel_g] = accel_a[accel_g];\n"
                    "      }\n      accel_j8 = accel_jw;\n    }\n",
                    TILE);
}

/* A CPU form's kernel up to its loop body: x and the partials it writes,
 * the units' count (units, after the declarations decl) and the
 * grid-stride loop over units accel_t. */
static void unit_head(accel__sbuf *b, const rspec *s, const char *entry, const char *decl,
                      const char *units)
{
    if (s->xt == ACCEL_F16 || s->xt == ACCEL_BF16)
        accel__sbuf_put(b, "%s", accel__kernel_prelude_16bit());
    accel__sbuf_put(b, "%s", accel__array_helpers);
    signature(b, s, entry);
    const char *xc = accel__array_ptr_ctype(s->xt), *yc = accel__array_ptr_ctype(part_dtype(s));
    accel__sbuf_put(b,
                    "  const %s *const accel_x = (const %s *)accel_p0 + accel_b0;\n"
                    "  %s *const accel_y = (%s *)accel_p1 + accel_b1;\n  %s\n"
                    "  const long long accel_step = (long long)gridDim.x * blockDim.x;\n"
                    "  for (long long accel_t = (long long)blockIdx.x * blockDim.x + threadIdx.x; "
                    "accel_t < %s; accel_t += accel_step) {\n",
                    xc, xc, yc, yc, decl, units);
}

static void tile_source(accel__sbuf *b, const rspec *s, const char *entry)
{
    const char *t = acc_type(s), *cast = lane_cast(s);
    /* tile_full's unrolled loops and prefetch where cc is GCC or clang
     * (neither under tcc; no prefetch in OpenCL C, where PoCL runs it) */
    accel__sbuf_put(b, "#if defined(__clang__)\n#define ACCEL_UNROLL _Pragma(\"unroll\")\n"
                       "#elif defined(__GNUC__) && !defined(__TINYC__)\n"
                       "#define ACCEL_UNROLL _Pragma(\"GCC unroll 16\")\n"
                       "#else\n#define ACCEL_UNROLL\n#endif\n"
                       "#if defined(__GNUC__) && !defined(__TINYC__) && "
                       "!defined(__OPENCL_VERSION__)\n"
                       "#define ACCEL_PREFETCH(p) __builtin_prefetch(p)\n"
                       "#else\n#define ACCEL_PREFETCH(p)\n#endif\n");
    char decl[128];
    snprintf(decl, sizeof decl,
             "const long long accel_no = accel_n / accel_p, accel_nt = (accel_no + %d) / %d;",
             TILE - 1, TILE);
    unit_head(b, s, entry, decl, "accel_nt * accel_p");
    accel__sbuf_put(b,
                    "    const long long accel_c = accel_t / accel_nt;\n"
                    "    const long long accel_o0 = (accel_t - accel_c * accel_nt) * %d;\n"
                    "    const int accel_gn = accel_no - accel_o0 < %d ? (int)(accel_no - "
                    "accel_o0) : %d;\n"
                    "    const long long accel_lo = accel_c * accel_l;\n"
                    "    const long long accel_hi = accel_m - accel_lo < accel_l ? accel_m : "
                    "accel_lo + accel_l;\n"
                    "    long long accel_xs[%d], accel_ys[%d];\n    %s accel_k[%d][%d];\n"
                    "    for (int accel_g = 0; accel_g < accel_gn; accel_g++) {\n"
                    "      const long long accel_o = accel_o0 + accel_g;\n",
                    TILE, TILE, TILE, TILE, TILE, t, REDUCE_LANES, TILE);
    kept_offsets(b, s);
    accel__sbuf_put(b,
                    "      accel_xs[accel_g] = accel_ox; accel_ys[accel_g] = accel_oy;\n"
                    "      for (int accel_u = 0; accel_u < %d; accel_u++) "
                    "accel_k[accel_u][accel_g] = 0;\n    }\n"
                    "    int accel_run = 1; /* the tile's elements adjacent in x: one load run */\n"
                    "    for (int accel_g = 1; accel_g < accel_gn; accel_g++)\n"
                    "      accel_run &= accel_xs[accel_g] == accel_xs[0] + accel_g;\n"
                    "    long long accel_j8 = accel_lo;\n",
                    REDUCE_LANES);
    tile_full(b, s);
    accel__sbuf_put(b,
                    "    for (; accel_j8 + %d <= accel_hi; accel_j8 += %d)\n"
                    "      for (int accel_u = 0; accel_u < %d; accel_u++) {\n"
                    "        long long accel_d;\n"
                    "        { const long long accel_j = accel_j8 + accel_u, accel_ox = 0;\n",
                    REDUCE_LANES, REDUCE_LANES, REDUCE_LANES);
    reduced_offset(b, s);
    accel__sbuf_put(b,
                    "        accel_d = accel_e; }\n"
                    "        if (accel_run) {\n"
                    "          const long long accel_r0 = accel_xs[0] + accel_d;\n"
                    "          for (int accel_g = 0; accel_g < accel_gn; accel_g++)\n"
                    "            accel_k[accel_u][accel_g] = accel_k[accel_u][accel_g] + %s",
                    cast);
    load(b, s, "accel_r0 + accel_g");
    accel__sbuf_put(b,
                    ";\n        } else {\n"
                    "          for (int accel_g = 0; accel_g < accel_gn; accel_g++)\n"
                    "            accel_k[accel_u][accel_g] = accel_k[accel_u][accel_g] + %s",
                    cast);
    load(b, s, "accel_xs[accel_g] + accel_d");
    accel__sbuf_put(b,
                    ";\n        }\n      }\n"
                    "    for (int accel_g = 0; accel_g < accel_gn; accel_g++) {\n"
                    "      %s accel_acc = ",
                    t);
    lane_tree(b, "accel_k[%d][accel_g]");
    accel__sbuf_put(b, ";\n");
    tail_fold(b, s, "accel_xs[accel_g]");
    accel__sbuf_put(b, "      const long long accel_oy = accel_ys[accel_g];\n");
    store(b, s);
    accel__sbuf_put(b, "    }\n");
}

/* The group form of the interleaved sum or mean (inter_sum) for a CPU
 * device: a work unit is a group of chunks of one output (inter_range),
 * walked round by round, a round's elements in a row, each chunk's lanes
 * in accel_k. One CPU thread walking a chunk's runs alone read 32 bytes in
 * every round (the axis-1 sum of 4096^2 float32: 7.2 ms, against 4.1 ms
 * for chunks of consecutive elements). Each chunk gets the same lanes,
 * order and tree as inter_sum: the same bits. */
static void group_sum(accel__sbuf *b, const rspec *s)
{
    const char *t = acc_type(s), *cast = lane_cast(s);
    /* element accel_s0 + i of a round goes to lane i % 8 of chunk
     * accel_c + i / 8: accel_k[i] */
    accel__sbuf_put(
        b,
        "    %s accel_k[%d];\n    (void)accel_s;\n"
        "    for (int accel_i = 0; accel_i < accel_ps; accel_i++) accel_k[accel_i] = 0;\n"
        "    for (long long accel_s0 = accel_lo; accel_s0 < accel_hi; accel_s0 += "
        "accel_ps) {\n"
        "      const int accel_wr = accel_hi - accel_s0 < accel_ps ? (int)(accel_hi - "
        "accel_s0) : (int)accel_ps;\n",
        t, GROUP * RUN);
    if (s->nr == 1) { /* a contiguous row: a loop cc vectorises */
        accel__sbuf_put(b,
                        "      if (accel_rx0 == 1) {\n"
                        "        for (int accel_i = 0; accel_i < accel_wr; accel_i++)\n"
                        "          accel_k[accel_i] = accel_k[accel_i] + %s",
                        cast);
        load(b, s, "accel_ox + accel_s0 + accel_i");
        accel__sbuf_put(b, ";\n        continue;\n      }\n");
    }
    accel__sbuf_put(b, "      for (int accel_i = 0; accel_i < accel_wr; accel_i++) {\n"
                       "      const long long accel_j = accel_s0 + accel_i;\n");
    reduced_offset(b, s);
    accel__sbuf_put(b, "      accel_k[accel_i] = accel_k[accel_i] + %s", cast);
    load(b, s, "accel_e");
    accel__sbuf_put(b,
                    ";\n      }\n    }\n"
                    "    for (int accel_g = 0; accel_g < accel_gc; accel_g++) {\n"
                    "      const %s accel_acc = ",
                    t);
    lane_tree(b, "accel_k[8 * accel_g + %d]");
    accel__sbuf_put(b, ";\n");
}

/* The group form, ending with each chunk's partial stored. */
static void group_source(accel__sbuf *b, const rspec *s, const char *entry)
{
    char decl[64];
    snprintf(decl, sizeof decl, "const long long accel_ng = (accel_p + %d) / %d;", GROUP - 1,
             GROUP);
    unit_head(b, s, entry, decl, "accel_n / accel_p * accel_ng");
    accel__sbuf_put(b,
                    "    const long long accel_o = accel_t / accel_ng;\n"
                    "    const long long accel_c = (accel_t - accel_o * accel_ng) * %d;\n",
                    GROUP);
    inter_range(b, "accel_c");
    kept_offsets(b, s);
    group_sum(b, s);
    accel__sbuf_put(b, "      const long long accel_oy = accel_o * accel_p + accel_c + accel_g;\n");
    store(b, s);
    accel__sbuf_put(b, "    }\n");
}

static char *reduce_source(const void *ctx)
{
    const rspec *s = ctx;
    char entry[ACCEL__ANAME_MAX];
    entry_of(s, entry);
    accel__sbuf b = {NULL, 0, 0, false};
    if (s->tile && s->inter) {
        group_source(&b, s, entry);
    } else if (s->tile) {
        tile_source(&b, s, entry);
    } else {
        head(&b, s, entry);
        if (is_complex(s->xt))
            complex_body(&b, s);
        else
            real_body(&b, s);
    }
    accel__sbuf_put(&b, "  }\n}\n");
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* The result dtype of fn on x's dtype, or INVALID when fn does not take it. */
static accel_dtype result_dtype(accel_array_reduce_fn fn, accel_dtype xt)
{
    accel_dtype_kind k = accel_dtype_kind_of(xt);
    switch (fn) {
    case ACCEL_ARRAY_REDUCE_SUM:
    case ACCEL_ARRAY_REDUCE_PROD:
        return k == ACCEL_DTYPE_KIND_FLOAT || k == ACCEL_DTYPE_KIND_COMPLEX ? xt
               : k == ACCEL_DTYPE_KIND_UINT                                 ? ACCEL_U64
                                                                            : ACCEL_I64;
    case ACCEL_ARRAY_REDUCE_MEAN:
        return k == ACCEL_DTYPE_KIND_FLOAT || k == ACCEL_DTYPE_KIND_COMPLEX ? xt
                                                                            : ACCEL_DTYPE_INVALID;
    case ACCEL_ARRAY_REDUCE_MIN:
    case ACCEL_ARRAY_REDUCE_MAX: /* complex numbers are not ordered (the standard) */
        return k == ACCEL_DTYPE_KIND_COMPLEX ? ACCEL_DTYPE_INVALID : xt;
    case ACCEL_ARRAY_REDUCE_ANY:
    case ACCEL_ARRAY_REDUCE_ALL:
        return ACCEL_BOOL;
    case ACCEL_ARRAY_REDUCE_ARGMIN:
    case ACCEL_ARRAY_REDUCE_ARGMAX:
        return k == ACCEL_DTYPE_KIND_COMPLEX ? ACCEL_DTYPE_INVALID : ACCEL_I64;
    case ACCEL_ARRAY_REDUCE_INVALID:
    case ACCEL_ARRAY_REDUCE_LIMIT_:
        break;
    }
    return ACCEL_DTYPE_INVALID;
}

accel_status accel_array_reduce_dtype(accel_array_reduce_fn fn, accel_dtype x, accel_dtype *out)
{
    static const char name[] = "accel_array_reduce_dtype";
    if (!out)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: out is NULL", name);
    if ((unsigned)fn >= ACCEL_ARRAY_REDUCE_LIMIT_ || !reduce_names[fn])
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: fn %d is unknown", name, (int)fn);
    accel_dtype rt = accel_dtype_kind_of(x) == ACCEL_DTYPE_KIND_INVALID ? ACCEL_DTYPE_INVALID
                                                                        : result_dtype(fn, x);
    if (rt == ACCEL_DTYPE_INVALID)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: %s does not take %s", name,
                           reduce_names[fn], accel_dtype_name(x));
    *out = rt;
    return ACCEL_SUCCESS;
}

/* The axes of a reduction: kept (sizes, x strides, out strides) and reduced
 * (sizes, x strides), size-1 axes dropped, neighbours merged. */
typedef struct raxes {
    uint32_t nk, nr;
    int64_t ks[ACCEL_ARRAY_MAX_NDIM], kx[ACCEL_ARRAY_MAX_NDIM], ko[ACCEL_ARRAY_MAX_NDIM];
    int64_t rs[ACCEL_ARRAY_MAX_NDIM], rx[ACCEL_ARRAY_MAX_NDIM];
    int64_t n, m;
} raxes;

static void split_axes(const accel_array *x, const accel_array *out, uint64_t mask, int keepdims,
                       raxes *a)
{
    memset(a, 0, sizeof *a);
    a->n = a->m = 1;
    uint32_t od = 0;
    for (uint32_t d = 0; d < x->ndim; d++) {
        bool red = mask >> d & 1u;
        int64_t n = x->shape[d], ostride = 0;
        if (!red || keepdims)
            ostride = out->strides[od++];
        if (red)
            a->m *= n;
        else
            a->n *= n;
        if (n == 1)
            continue;
        if (red) {
            if (a->nr && a->rx[a->nr - 1] == x->strides[d] * n) {
                a->rs[a->nr - 1] *= n;
                a->rx[a->nr - 1] = x->strides[d];
                continue;
            }
            a->rs[a->nr] = n;
            a->rx[a->nr++] = x->strides[d];
            continue;
        }
        if (a->nk && a->kx[a->nk - 1] == x->strides[d] * n && a->ko[a->nk - 1] == ostride * n) {
            a->ks[a->nk - 1] *= n;
            a->kx[a->nk - 1] = x->strides[d];
            a->ko[a->nk - 1] = ostride;
            continue;
        }
        a->ks[a->nk] = n;
        a->kx[a->nk] = x->strides[d];
        a->ko[a->nk++] = ostride;
    }
}

accel_status accel__reduce_shape(const char *fn, const accel_array *x, const accel_array *out,
                                 uint64_t mask, int keepdims)
{
    int64_t shape[ACCEL_ARRAY_MAX_NDIM];
    uint32_t nd = 0;
    for (uint32_t d = 0; d < x->ndim; d++) {
        if (!(mask >> d & 1u))
            shape[nd++] = x->shape[d];
        else if (keepdims)
            shape[nd++] = 1;
    }
    return accel__array_shape_is(fn, "out", out, nd, shape);
}

static accel_status check_reduce(const char *fn, accel_array_reduce_fn f, const accel_array *x,
                                 uint64_t mask, int keepdims, const accel_array *out,
                                 const accel__extent *ext)
{
    accel_status st = accel__array_axes_mask(fn, x, mask);
    if (st != ACCEL_SUCCESS)
        return st;
    accel_dtype rt = result_dtype(f, x->dtype);
    if (rt == ACCEL_DTYPE_INVALID)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: %s does not take %s", fn,
                           accel_array_reduce_name(f), accel_dtype_name(x->dtype));
    if (out->dtype != rt)
        return accel__fail(ACCEL_ERROR_DTYPE_MISMATCH, "%s: out is %s but %s of %s gives %s", fn,
                           accel_dtype_name(out->dtype), accel_array_reduce_name(f),
                           accel_dtype_name(x->dtype), accel_dtype_name(rt));
    st = accel__reduce_shape(fn, x, out, mask, keepdims);
    if (st != ACCEL_SUCCESS)
        return st;
    bool same;
    if (accel__views_meet(x, &ext[0], out, &ext[1], &same))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: out overlaps x", fn);
    return ACCEL_SUCCESS;
}

/* ------------------------------------------------------------ launches */

#define SPLIT_ITEMS 131072 /* work items a split level aims at: a GPU's threads */
#define SPLIT_MIN_LEN 64   /* elements a chunk folds at least */
#define SPLIT_LEVELS 12    /* each level divides m by SPLIT_MIN_LEN or more */
/* The same for a CPU device folding in any order (not ordered()): a few
 * chunks per worker, each of whole blocks for its vector loop (twin_blocks;
 * the GPU's 128-element chunks of 2^24 float32 made 131072 work items of
 * one element at a time each). */
#define CPU_SPLIT_ITEMS 1024 /* per CPU worker: four blocks of 256 */
#define CPU_SPLIT_MIN_LEN 1024

/* The chunks per output of a level of n outputs of m elements each: P
 * chunks of *len = L elements (P * L >= m > (P - 1) * L, none empty;
 * consecutive, or interleaved as inter_range says); 1 (one work item folds
 * all m of an output) when the n outputs alone make items / 2 work items or
 * m is under two chunks of min_len. A function of n and m alone for given
 * items and min_len (SPLIT_ITEMS and SPLIT_MIN_LEN wherever the order
 * changes the result), so every backend folds in the same order. */
static int64_t chunks(int64_t n, int64_t m, int64_t items, int64_t min_len, int64_t *len)
{
    *len = m;
    if (n >= items / 2 || m < 2 * min_len)
        return 1;
    int64_t p = (items + n - 1) / n, most = m / min_len;
    if (p > most)
        p = most;
    int64_t l = (m + p - 1) / p;
    *len = l;
    return (m + l - 1) / l;
}

/* One kernel of a reduction: its spec, arguments (the arg reductions'
 * index arrays beside partials), the elements' bases, the work items, the
 * elements per output m (per chunk l, p chunks) and all of them, mt. */
typedef struct rlaunch {
    rspec s;
    accel_kernel_arg in, out, in_idx, out_idx;
    int64_t b0, b1, items, m, p, l, mt;
} rlaunch;

static accel_status launch(accel_queue *q, accel_runtime *rt, const rlaunch *r, const raxes *a)
{
    char entry[ACCEL__ANAME_MAX];
    entry_of(&r->s, entry);
    accel_kernel *k;
    accel_status st = accel__array_kernel(rt, entry, reduce_source, &r->s, 1, &k);
    if (st != ACCEL_SUCCESS)
        return st;
    accel_kernel_arg args[32];
    uint32_t na = 0;
    args[na++] = r->in;
    args[na++] = r->out;
    if (is_arg(r->s.fn) && r->s.in_part)
        args[na++] = r->in_idx;
    if (is_arg(r->s.fn) && r->s.out_part)
        args[na++] = r->out_idx;
    const int64_t scalars[7] = {r->b0, r->b1, r->items, r->m, r->p, r->l, r->mt};
    for (int i = 0; i < (r->s.in_part || r->s.out_part ? 7 : 4); i++)
        args[na++] = accel_karg_i64(scalars[i]);
    for (uint32_t d = 1; d < r->s.nk; d++)
        args[na++] = accel_karg_i64(a->ks[d]);
    for (uint32_t d = 0; d < r->s.nk; d++) {
        args[na++] = accel_karg_i64(a->kx[d]);
        args[na++] = accel_karg_i64(a->ko[d]);
    }
    for (uint32_t d = 1; d < r->s.nr; d++)
        args[na++] = accel_karg_i64(a->rs[d]);
    for (uint32_t d = 0; d < r->s.nr; d++)
        args[na++] = accel_karg_i64(a->rx[d]);
    uint32_t grid[3] = {accel__array_blocks(r->items, 65535), 1, 1}, block[3] = {256, 1, 1};
    if (r->s.tile) { /* a thread per TILE outputs of a chunk or GROUP chunks, 32 to a block */
        int64_t tiles = r->s.inter ? r->items / r->p * ((r->p + GROUP - 1) / GROUP)
                                   : (r->items / r->p + TILE - 1) / TILE * r->p;
        int64_t b = (tiles + 31) / 32;
        grid[0] = (uint32_t)(b < 65535 ? b : 65535);
        block[0] = 32;
    }
    /* items / p outputs of m elements each */
    int64_t outs = r->items / r->p;
    int64_t work = r->m > 0 && outs > INT64_MAX / r->m ? INT64_MAX : outs * r->m;
    return accel__kernel_launch_library(q, k, grid, block, work, na, args);
}

/* count partials of dtype dt from byte off of the scratch buffer. */
static accel_kernel_arg part_arg(accel_buffer *tmp, accel_dtype dt, size_t off, int64_t count)
{
    size_t es = accel_dtype_size(dt);
    accel_kernel_arg k = accel_karg_array(accel_slice_of(tmp, off / es, (size_t)count));
    k.dtype = dt;
    return k;
}

/* The reduction r (plain: x into out) as a chain: x into nl levels of
 * partials (level k: p[k] chunks of len[k] per output), each level into
 * the next, the last into out. The partials live in q's scratch
 * (accel__array_scratch_take). */
static accel_status reduce_split(accel_queue *q, accel_runtime *rt, const rlaunch *plain,
                                 const raxes *a, uint32_t nl, const int64_t *p, const int64_t *len,
                                 bool cpu)
{
    accel_dtype pt = part_dtype(&plain->s);
    size_t es = accel_dtype_size(pt), ie = is_arg(plain->s.fn) ? 8 : 0, bytes = 0;
    size_t voff[SPLIT_LEVELS], ioff[SPLIT_LEVELS];
    for (uint32_t k = 0; k < nl; k++) { /* n * p[k] < 2 * SPLIT_ITEMS: no overflow */
        size_t count = (size_t)(a->n * p[k]);
        voff[k] = bytes;
        bytes += (count * es + 15) & ~(size_t)15;
        ioff[k] = bytes;
        bytes += (count * ie + 15) & ~(size_t)15;
    }
    accel_buffer *tmp = NULL;
    accel_queue *owner;
    accel_status st = accel__array_scratch_take(q, bytes, &tmp, &owner);
    rlaunch r = *plain;
    for (uint32_t k = 0; k <= nl && st == ACCEL_SUCCESS; k++) {
        if (k > 0) { /* from level k - 1 */
            r.s.in_part = true;
            r.s.nr = 0;
            r.in = part_arg(tmp, pt, voff[k - 1], a->n * p[k - 1]);
            r.in_idx = part_arg(tmp, ACCEL_I64, ioff[k - 1], ie ? a->n * p[k - 1] : 0);
            r.b0 = 0;
            r.m = p[k - 1];
        }
        r.s.out_part = k < nl;
        r.s.ofast = k == 0 && a->nk && a->nr && llabs(a->kx[a->nk - 1]) < llabs(a->rx[a->nr - 1]);
        r.s.inter =
            k == 0 && !r.s.ofast && !is_complex(plain->s.xt) && (!cpu || ordered(&plain->s));
        r.s.tile = cpu && (r.s.inter || r.s.ofast) && is_sum(plain->s.fn);
        r.s.nk = k > 0 && k < nl ? 0 : a->nk;
        if (k < nl) { /* into level k */
            r.out = part_arg(tmp, pt, voff[k], a->n * p[k]);
            r.out_idx = part_arg(tmp, ACCEL_I64, ioff[k], ie ? a->n * p[k] : 0);
            r.b1 = 0;
            r.p = p[k];
            r.l = len[k];
            r.items = a->n * p[k];
        } else { /* into out */
            r.out = plain->out;
            r.b1 = plain->b1;
            r.p = 1;
            r.l = r.m;
            r.items = a->n;
        }
        st = launch(q, rt, &r, a);
    }
    if (tmp)
        accel__array_scratch_done(q, tmp, owner, st);
    return st;
}

/* The levels of r's split (0: one plain kernel): while a level's chunks
 * per output are more than 1 (cpu_workers > 0: a CPU device of that many
 * workers, for a fold whose order does not change its result: fewer, longer
 * chunks, CPU_SPLIT_ITEMS a worker). Not for kernels whose
 * arguments would pass 32 (3 kept + 2 reduced per axis, 11 others). */
static uint32_t split_plan(const raxes *a, uint32_t cpu_workers, int64_t *p, int64_t *len)
{
    if (3 * a->nk + 2 * a->nr > 24)
        return 0;
    int64_t items = cpu_workers ? CPU_SPLIT_ITEMS * (int64_t)cpu_workers : SPLIT_ITEMS;
    int64_t min_len = cpu_workers ? CPU_SPLIT_MIN_LEN : SPLIT_MIN_LEN;
    uint32_t nl = 0;
    for (int64_t m = a->m; nl < SPLIT_LEVELS; m = p[nl++])
        if ((p[nl] = chunks(a->n, m, items, min_len, &len[nl])) == 1)
            break;
    return nl;
}

/* A whole contiguous float32 or float64 x (one output) summed, or its max
 * or min, by the backend's hand-written reduction (accel_reduce), faster
 * than the generated fold; its mean is that sum scaled by 1/m
 * (accel_scale, in place: a rounding of the sum and one of the product
 * more than the fold's one rounding of sum/m, inside the sum's bound; on
 * the H100 the fold's mean of 2^28 float32 took 1.173 ms and this sum
 * 0.389 ms); false when x is not that. */
static bool builtin_reduce(accel_array_reduce_fn fn, const accel_array *x, const raxes *a,
                           accel_op_code *op)
{
    if (a->n != 1 || a->m == 0 || a->nk != 0 || a->nr != 1 || a->rx[0] != 1 ||
        (x->dtype != ACCEL_F32 && x->dtype != ACCEL_F64))
        return false;
    *op = fn == ACCEL_ARRAY_REDUCE_SUM || fn == ACCEL_ARRAY_REDUCE_MEAN ? ACCEL_OP_SUM
          : fn == ACCEL_ARRAY_REDUCE_MAX                                ? ACCEL_OP_REDUCE_MAX
          : fn == ACCEL_ARRAY_REDUCE_MIN                                ? ACCEL_OP_REDUCE_MIN
                                                                        : ACCEL_OP_INVALID;
    return *op != ACCEL_OP_INVALID;
}

/* Whether a device of cpu_units CPU workers (0: not a CPU) takes the CPU
 * forms of real x into partials (tile_source for an output-fastest sum or
 * mean, group_source for interleaved chunks), unless ACCEL_ARRAY_WALK=grid
 * asks for the GPU's forms everywhere. */
static bool tile_allowed(uint32_t cpu_units, accel_dtype xt)
{
    return cpu_units && !is_complex(xt) && !accel__array_walk_grid();
}

accel_status accel_array_reduce(accel_queue *q, accel_array_reduce_fn fn, const accel_array *x,
                                uint64_t axes_mask, int keepdims, const accel_array *out)
{
    static const char name[] = "accel_array_reduce";
    if ((unsigned)fn >= ACCEL_ARRAY_REDUCE_LIMIT_ || !reduce_names[fn])
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: fn %d is unknown", name, (int)fn);
    const accel_array *arr[2] = {x, out};
    static const char *const names[2] = {"x", "out"};
    accel__extent ext[2];
    accel_runtime *rt;
    uint32_t cpu_units = 0;
    accel_status st = accel__array_views_walk(name, q, 2, arr, names, ext, &rt, &cpu_units);
    if (st == ACCEL_SUCCESS)
        st = accel__array_out_check(name, "out", out);
    if (st == ACCEL_SUCCESS)
        st = check_reduce(name, fn, x, axes_mask, keepdims, out, ext);
    if (st != ACCEL_SUCCESS)
        return st;
    raxes a;
    split_axes(x, out, axes_mask, keepdims, &a);
    if (a.n == 0)
        return ACCEL_SUCCESS;
    if (a.m == 0 && from_first(fn))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: %s of no elements (a reduced axis has size 0) has no identity",
                           name, reduce_names[fn]);
    if (3 * a.nk + 2 * a.nr > 28)
        return accel__fail(ACCEL_ERROR_UNSUPPORTED,
                           "%s: %u kept and %u reduced axes that do not merge exceed a kernel's "
                           "parameters (3k + 2r <= 28); permute x so that the reduced axes come "
                           "last and copy it contiguous (each side then merges into one axis)",
                           name, a.nk, a.nr);
    accel_op_code op;
    if (builtin_reduce(fn, x, &a, &op)) {
        accel_slice o = accel_slice_of(out->buffer, (size_t)ext[1].base, 1);
        st = accel_reduce(q, op, x->dtype,
                          accel_slice_of(x->buffer, (size_t)ext[0].base, (size_t)a.m), o);
        if (st == ACCEL_SUCCESS && fn == ACCEL_ARRAY_REDUCE_MEAN)
            st = accel_scale(q, x->dtype, 1.0 / (double)a.m, o, o);
        return st;
    }
    rlaunch r = {{fn, x->dtype, out->dtype, a.nk, a.nr, false, false, false, false, false},
                 accel__extent_arg(x->buffer, x->dtype, &ext[0]),
                 accel__extent_arg(out->buffer, out->dtype, &ext[1]),
                 accel_karg_i64(0),
                 accel_karg_i64(0),
                 ext[0].base - ext[0].lo,
                 ext[1].base - ext[1].lo,
                 a.n,
                 a.m,
                 1,
                 a.m,
                 a.m};
    int64_t p[SPLIT_LEVELS], len[SPLIT_LEVELS];
    bool cpu = tile_allowed(cpu_units, x->dtype);
    uint32_t nl = split_plan(&a, cpu && !ordered(&r.s) ? cpu_units : 0, p, len);
    return nl ? reduce_split(q, rt, &r, &a, nl, p, len, cpu) : launch(q, rt, &r, &a);
}
