/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/arrays/loop.c — the generated loop kernels behind creation, indexing
 * and the statistics that are not one fold (create.c, index.c, stats.c):
 * a row (accel__lrow: C snippets before, in and after an element loop) and
 * the arrays of a call with their strides over two index spaces, P (one
 * thread per element, grid-stride) and S (a serial loop inside each thread),
 * become one raw kernel (accel/kernel.h) per (row, dtypes, axes), compiled
 * by NVRTC on CUDA and cc/tcc on the CPU, cached like the elementwise
 * kernels and launched through accel_kernel_launch_grid (fallback, verify,
 * trace). Axes merge where every array steps through two as one (unless a
 * row reads their coordinates); axes beyond a kernel's 32 parameters are
 * looped over on the host, one launch per index. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrays/arrays_internal.h"
#include "base/sbuf.h"
#include "base/status.h"
#include "kernels/kernels.h"

/* The element accessors of array k: accel_ld<k>(o) its value (float for
 * the 16-bit floats), accel_st<k>(o, v) v converted to its dtype; and for
 * the rows that take complex views, accel_re<k>(o) and accel_im<k>(o) its
 * parts (a real value and 0) and accel_stc<k>(o, re, im) (the real part
 * alone into a real dtype). A complex element is a struct of its two parts,
 * so that a row can also move it whole. */
static void accessors(accel__sbuf *b, uint32_t k, accel_dtype dt)
{
    if (accel_dtype_kind_of(dt) == ACCEL_DTYPE_KIND_COMPLEX) {
        const char *p = accel__array_ptr_ctype(dt), *c = dt == ACCEL_C64 ? "f" : "d";
        /* One struct per part type, so that arrays of one dtype assign. */
        accel__sbuf_put(b,
                        "#ifndef accel_LC%s\n#define accel_LC%s\ntypedef struct { %s re, im; } "
                        "accel_lc%s;\n#endif\ntypedef accel_lc%s accel_E%u;\n",
                        c, c, p, c, c, k);
        accel__sbuf_put(b, "#define accel_re%u(o) (accel_A%u[o].re)\n", k, k);
        accel__sbuf_put(b, "#define accel_im%u(o) (accel_A%u[o].im)\n", k, k);
        accel__sbuf_put(b,
                        "#define accel_stc%u(o, r, i) (accel_A%u[o].re = (%s)(r), "
                        "accel_A%u[o].im = (%s)(i))\n",
                        k, k, p, k, p);
        return;
    }
    const char *t = accel__array_ctype(dt);
    accel__sbuf_put(b, "typedef %s accel_E%u;\n", t, k);
    accel__sbuf_put(b, "#define accel_re%u(o) accel_ld%u(o)\n#define accel_im%u(o) 0\n", k, k, k);
    accel__sbuf_put(b, "#define accel_stc%u(o, r, i) accel_st%u(o, r)\n", k, k);
    if (dt == ACCEL_F16 || dt == ACCEL_BF16) {
        const char *h = dt == ACCEL_F16 ? "h2f" : "bf2f", *f = dt == ACCEL_F16 ? "f2h" : "f2bf";
        accel__sbuf_put(b, "#define accel_ld%u(o) accel_%s(accel_A%u[o])\n", k, h, k);
        accel__sbuf_put(b, "#define accel_st%u(o, v) (accel_A%u[o] = accel_%s((float)(v)))\n", k, k,
                        f);
    } else {
        accel__sbuf_put(b, "#define accel_ld%u(o) (accel_A%u[o])\n", k, k);
        if (dt == ACCEL_BOOL)
            accel__sbuf_put(
                b, "#define accel_st%u(o, v) (accel_A%u[o] = (unsigned char)((v) != 0))\n", k, k);
        else
            accel__sbuf_put(b, "#define accel_st%u(o, v) (accel_A%u[o] = (%s)(v))\n", k, k, t);
    }
}

void accel__loop_entry(const accel__lspec *s, char *entry)
{
    int n = snprintf(entry, ACCEL__ANAME_MAX, "array_%s", s->row->name);
    for (uint32_t k = 0; k < s->row->narr && n < ACCEL__ANAME_MAX; k++)
        n += snprintf(entry + n, ACCEL__ANAME_MAX - (size_t)n, "_%s", accel_dtype_name(s->dt[k]));
    if (n < ACCEL__ANAME_MAX)
        snprintf(entry + n, ACCEL__ANAME_MAX - (size_t)n, "_p%us%u", s->np, s->ns);
}

static void signature(accel__sbuf *b, const accel__lspec *s, const char *entry)
{
    const accel__lrow *r = s->row;
    accel__sbuf_put(b, "__global__ void %s(", entry);
    for (uint32_t k = 0; k < r->narr; k++)
        accel__sbuf_put(b, "%s%svoid *accel_q%u", k ? ", " : "",
                        (r->written >> k & 1u) ? "" : "const ", k);
    accel__array_params(b, "long long accel_b", 0, r->narr);
    accel__sbuf_put(b, ", long long accel_n, long long accel_m");
    accel__array_params(b, "long long accel_ps", 1, s->np);
    accel__array_params(b, "long long accel_ss", 1, s->ns);
    for (uint32_t k = 0; k < r->narr; k++) {
        for (uint32_t d = 0; d < s->np; d++)
            accel__sbuf_put(b, ", long long accel_t%up%u", k, d);
        for (uint32_t d = 0; d < s->ns; d++)
            accel__sbuf_put(b, ", long long accel_t%us%u", k, d);
    }
    accel__array_params(b, "double accel_f", 0, r->nf);
    accel__array_params(b, "long long accel_k", 0, r->ni);
    accel__sbuf_put(b, ") {\n");
}

/* Split index I over n axes (sizes <X>s<d>, coordinates accel_c<X>[d]) into
 * each array's offset O<k> (strides accel_t<k><X><d>). */
static void split(accel__sbuf *b, const accel__lspec *s, char x, uint32_t n, const char *idx,
                  const char *o)
{
    accel__sbuf_put(b, "    { long long accel_r = %s;\n", idx);
    for (uint32_t d = n; d-- > 0;) {
        if (d)
            accel__sbuf_put(
                b, "      accel_c%c[%u] = accel_r %% accel_%cs%u; accel_r /= accel_%cs%u;\n", x, d,
                x, d, x, d);
        else
            accel__sbuf_put(b, "      accel_c%c[0] = accel_r;\n", x);
        for (uint32_t k = 0; k < s->row->narr; k++)
            accel__sbuf_put(b, "      %s%u += accel_c%c[%u] * accel_t%u%c%u;\n", o, k, x, d, k, x,
                            d);
    }
    accel__sbuf_put(b, "    }\n");
}

static void serial_loop(accel__sbuf *b, const accel__lspec *s, const char *body)
{
    accel__sbuf_put(b, "    for (long long accel_j = 0; accel_j < accel_m; accel_j++) {\n");
    for (uint32_t k = 0; k < s->row->narr; k++)
        accel__sbuf_put(b, "    long long accel_o%u = accel_p%u;\n", k, k);
    split(b, s, 's', s->ns, "accel_j", "accel_o");
    accel__sbuf_put(b, "%s\n    }\n", body);
}

static char *loop_source(const void *ctx)
{
    const accel__lspec *s = ctx;
    const accel__lrow *r = s->row;
    char entry[ACCEL__ANAME_MAX];
    accel__loop_entry(s, entry);
    accel__sbuf b = {NULL, 0, 0, false};
    bool half = false;
    for (uint32_t k = 0; k < r->narr; k++)
        half |= s->dt[k] == ACCEL_F16 || s->dt[k] == ACCEL_BF16;
    if (half)
        accel__sbuf_put(&b, "%s", accel__kernel_prelude_16bit());
    accel__sbuf_put(&b, "%s", accel__array_helpers);
    accel_dtype_kind k0 = accel_dtype_kind_of(s->dt[0]);
    accel__sbuf_put(&b, "#define accel_FLOAT0 %d\n#define accel_NP %u\n#define accel_NS %u\n",
                    k0 == ACCEL_DTYPE_KIND_FLOAT, s->np, s->ns);
    accel__sbuf_put(&b, "typedef %s accel_acc_t;\n",
                    k0 == ACCEL_DTYPE_KIND_FLOAT ? "double" : "unsigned long long");
    for (uint32_t k = 0; k < r->narr; k++)
        accessors(&b, k, s->dt[k]);
    signature(&b, s, entry);
    for (uint32_t k = 0; k < r->narr; k++)
        accel__sbuf_put(&b,
                        "  %saccel_E%u *const accel_A%u = (%saccel_E%u *)accel_q%u + accel_b%u;\n",
                        (r->written >> k & 1u) ? "" : "const ", k, k,
                        (r->written >> k & 1u) ? "" : "const ", k, k, k);
    accel__sbuf_put(&b,
                    "  const long long accel_step = (long long)gridDim.x * blockDim.x;\n"
                    "  for (long long accel_i = (long long)blockIdx.x * blockDim.x + threadIdx.x; "
                    "accel_i < accel_n; accel_i += accel_step) {\n"
                    "    long long accel_cp[accel_NP + 1], accel_cs[accel_NS + 1];\n"
                    "    (void)accel_cp; (void)accel_cs;\n");
    for (uint32_t k = 0; k < r->narr; k++)
        accel__sbuf_put(&b, "    long long accel_p%u = 0;\n", k);
    split(&b, s, 'p', s->np, "accel_i", "accel_p");
    accel__sbuf_put(&b, "%s\n", r->pre ? r->pre : "");
    if (r->serial) {
        serial_loop(&b, s, r->body);
        if (r->body2) {
            accel__sbuf_put(&b, "%s\n", r->mid ? r->mid : "");
            serial_loop(&b, s, r->body2);
        }
    } else {
        for (uint32_t k = 0; k < r->narr; k++)
            accel__sbuf_put(&b, "    const long long accel_o%u = accel_p%u;\n", k, k);
        accel__sbuf_put(&b, "%s\n", r->body);
    }
    accel__sbuf_put(&b, "%s\n  }\n}\n", r->post ? r->post : "");
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* ------------------------------------------------------------- launching */

/* Drop size-1 axes and merge neighbours of [from, to) of one space. */
static uint32_t merge(int64_t *size, int64_t (*st)[ACCEL_ARRAY_MAX_NDIM], uint32_t narr, uint32_t n)
{
    uint32_t m = 0;
    for (uint32_t d = 0; d < n; d++) {
        if (size[d] == 1)
            continue;
        bool join = m > 0;
        for (uint32_t k = 0; join && k < narr; k++)
            join = st[k][m - 1] == st[k][d] * size[d];
        if (join) {
            size[m - 1] *= size[d];
            for (uint32_t k = 0; k < narr; k++)
                st[k][m - 1] = st[k][d];
            continue;
        }
        size[m] = size[d];
        for (uint32_t k = 0; k < narr; k++)
            st[k][m] = st[k][d];
        m++;
    }
    return m;
}

/* P's first `keep` axes merged (the rest read as coordinates), S merged
 * unless its coordinates are read. */
static void coalesce(accel__lcall *c)
{
    uint32_t narr = c->row->narr, keep = c->np - c->protect;
    if (!c->row->pcoords) {
        keep = c->np;
    }
    uint32_t m = merge(c->psize, c->pst, narr, keep);
    for (uint32_t d = keep; d < c->np; d++, m++) {
        c->psize[m] = c->psize[d];
        for (uint32_t k = 0; k < narr; k++)
            c->pst[k][m] = c->pst[k][d];
    }
    c->np = m;
    if (!c->row->scoords)
        c->ns = merge(c->ssize, c->sst, narr, c->ns);
}

static uint32_t params(const accel__lrow *r, uint32_t np, uint32_t ns)
{
    return 2 * r->narr + 2 + (np ? np - 1 : 0) + (ns ? ns - 1 : 0) + r->narr * (np + ns) + r->nf +
           r->ni;
}

static accel_status launch(accel__lcall *c, accel_queue *q, accel_kernel *k, uint32_t lead,
                           const int64_t *base, int64_t n, int64_t m)
{
    const accel__lrow *r = c->row;
    uint32_t na = 0, np = c->np - lead;
    accel_kernel_arg args[ACCEL__KMAX_PARAMS];
    for (uint32_t a = 0; a < r->narr; a++) {
        args[na++] = accel__extent_arg(c->a[a]->buffer, c->a[a]->dtype, &c->ext[a]);
    }
    for (uint32_t a = 0; a < r->narr; a++)
        args[na++] = accel_karg_i64(base[a] - c->ext[a].lo);
    args[na++] = accel_karg_i64(n);
    args[na++] = accel_karg_i64(m);
    for (uint32_t d = 1; d < np; d++)
        args[na++] = accel_karg_i64(c->psize[lead + d]);
    for (uint32_t d = 1; d < c->ns; d++)
        args[na++] = accel_karg_i64(c->ssize[d]);
    for (uint32_t a = 0; a < r->narr; a++) {
        for (uint32_t d = 0; d < np; d++)
            args[na++] = accel_karg_i64(c->pst[a][lead + d]);
        for (uint32_t d = 0; d < c->ns; d++)
            args[na++] = accel_karg_i64(c->sst[a][d]);
    }
    for (uint32_t i = 0; i < r->nf; i++)
        args[na++] = accel_karg_f64(c->f[i]);
    for (uint32_t i = 0; i < r->ni; i++)
        args[na++] = accel_karg_i64(c->k[i]);
    uint32_t grid[3] = {accel__array_blocks(n, 65535), 1, 1};
    uint32_t block[3] = {256, 1, 1};
    /* n indices of m elements each */
    int64_t work = m > 0 && n > INT64_MAX / m ? INT64_MAX : n * m;
    return accel__kernel_launch_library(q, k, grid, block, work, na, args);
}

accel_status accel__loop_run(accel_queue *q, accel_runtime *rt, accel__lcall *c)
{
    const accel__lrow *r = c->row;
    for (uint32_t d = 0; d < c->np; d++)
        if (c->psize[d] == 0)
            return ACCEL_SUCCESS;
    coalesce(c);
    uint32_t lead = 0;
    while (lead < c->np - (r->pcoords ? c->protect : 0) &&
           params(r, c->np - lead, c->ns) > ACCEL__KMAX_PARAMS)
        lead++;
    if (params(r, c->np - lead, c->ns) > ACCEL__KMAX_PARAMS)
        return accel__fail(ACCEL_ERROR_UNSUPPORTED,
                           "%s: %u axes that do not merge exceed a kernel's parameters; copy the "
                           "arrays into contiguous ones first",
                           c->fn, c->np + c->ns);
    accel__lspec s = {r, {0}, c->np - lead, c->ns};
    for (uint32_t k = 0; k < r->narr; k++)
        s.dt[k] = c->a[k]->dtype;
    char entry[ACCEL__ANAME_MAX];
    accel__loop_entry(&s, entry);
    accel_kernel *k;
    accel_status st = accel__array_kernel(rt, entry, loop_source, &s, r->tol_ulp, &k);
    int64_t n = 1, m = 1, outer = 1;
    for (uint32_t d = 0; d < c->np; d++)
        *(d < lead ? &outer : &n) *= c->psize[d];
    for (uint32_t d = 0; d < c->ns; d++)
        m *= c->ssize[d];
    for (int64_t it = 0; st == ACCEL_SUCCESS && it < outer; it++) {
        int64_t base[4], rem = it, idx[ACCEL_ARRAY_MAX_NDIM];
        for (uint32_t d = lead; d-- > 0;) {
            idx[d] = rem % c->psize[d];
            rem /= c->psize[d];
        }
        for (uint32_t a = 0; a < r->narr; a++) {
            base[a] = c->ext[a].base;
            for (uint32_t d = 0; d < lead; d++)
                base[a] += idx[d] * c->pst[a][d];
        }
        st = launch(c, q, k, lead, base, n, m);
    }
    return st;
}

/* ---------------------------------------------------------------- checks */

/* accel__array_io after the views' checks (st): a[0] writable and apart. */
static accel_status io_apart(accel_status st, const char *fn, uint32_t n,
                             const accel_array *const *a, const char *const *names,
                             const accel__extent *ext, bool exact_ok)
{
    if (st == ACCEL_SUCCESS)
        st = accel__array_out_check(fn, names[0], a[0]);
    const accel_array *o = a[0];
    size_t eso = st == ACCEL_SUCCESS ? accel_dtype_size(o->dtype) : 0;
    for (uint32_t k = 1; st == ACCEL_SUCCESS && k < n; k++) {
        const accel_array *x = a[k];
        bool same;
        if (!accel__views_meet(x, &ext[k], o, &ext[0], &same))
            continue;
        size_t es = accel_dtype_size(x->dtype);
        bool exact = exact_ok && es == eso && same && x->ndim == o->ndim;
        for (uint32_t d = 0; exact && d < x->ndim; d++)
            exact = x->shape[d] == o->shape[d] && x->strides[d] == o->strides[d];
        if (!exact)
            st = accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s overlaps %s%s", fn, names[k],
                             names[0],
                             exact_ok ? " other than element for element" : " (no in-place form)");
    }
    return st;
}

accel_status accel__array_io(const char *fn, accel_queue *q, uint32_t n,
                             const accel_array *const *a, const char *const *names,
                             accel__extent *ext, accel_runtime **rt, bool exact_ok)
{
    accel_status st = accel__array_views(fn, q, n, a, names, ext, rt);
    return io_apart(st, fn, n, a, names, ext, exact_ok);
}

accel_status accel__array_io_any(const char *fn, accel_queue *q, uint32_t n,
                                 const accel_array *const *a, const char *const *names,
                                 accel__extent *ext, accel_runtime **rt, bool exact_ok)
{
    accel_status st = accel__array_views_any(fn, q, n, a, names, ext, rt);
    return io_apart(st, fn, n, a, names, ext, exact_ok);
}

accel_status accel__lcall_io(accel__lcall *c, const char *fn, const accel__lrow *row,
                             accel_queue *q, const accel_array *a0, const accel_array *a1,
                             const accel_array *a2, const char *const *names, accel_runtime **rt)
{
    *c = (accel__lcall){.fn = fn, .row = row, .a = {a0, a1, a2}};
    if (row->complex_ok)
        return accel__array_io_any(fn, q, row->narr, c->a, names, c->ext, rt, false);
    return accel__array_io(fn, q, row->narr, c->a, names, c->ext, rt, false);
}
