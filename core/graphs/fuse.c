/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/fuse.c — a graph's launch plan (accel/graph.h): the recorded list cut
 * into exec entries, each one recorded node or one fused kernel. A maximal
 * run of consecutive elementwise op nodes (FILL, COPY, the binary and unary
 * ops, SCALE, AXPBY) of one dtype (f32 or f64) over one element count, whose
 * written ranges are identical to or disjoint from every other range, becomes one elementwise user
 * kernel generated from the op table's per-element expressions and built by
 * the kernel room (compiled once, cached like any kernel). Inside the kernel
 * every range is a register: it is loaded when first read and stored at the
 * end, except a temporary that is written first and used by no node outside
 * the run (dead: elided). A run that cannot be built stays unfused. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/handle.h"
#include "base/objects.h"
#include "base/optable.h"
#include "base/sbuf.h"
#include "base/status.h"
#include "graphs/fuse.h"
#include "graphs/graph_record.h"
#include "kernels/kernels.h"

struct accel__fused {
    accel__klaunch L; /* the launch: args are the kernel's arguments */
    accel_op_desc d;  /* op ACCEL_OP_KERNEL, kernel = &L.be */
    accel_kernel *khandle;
    accel__fchain chain; /* verify mode's reference */
    char kname[ACCEL__KNAME_MAX];
    char name[600]; /* d.name: the kernel and the ops it fused */
    /* Scalar arguments: the recorded node and scalar index each came from. */
    uint32_t snode[32], sidx[32];
    char *key; /* params and body: reuse across re-plans */
};

/* ------------------------------------------------------------ eligibility */

/* The inputs of an op's expression: the operand index of each value input
 * (names[i], in the expression's variable order) and the scalar names. */
typedef struct finputs {
    uint32_t n, idx[2], ns;
    const char *names[2], *snames[2];
} finputs;

/* The inputs of op (of the table's row p) into *in; false for a kind a
 * fused kernel does not take. */
static bool inputs_of(const accel_op_properties *p, uint32_t op, finputs *in)
{
    memset(in, 0, sizeof *in);
    switch (p->kind) {
    case ACCEL_OP_KIND_BINARY:
        in->n = 2, in->idx[1] = 1, in->names[0] = "a", in->names[1] = "b";
        return true;
    case ACCEL_OP_KIND_UNARY:
    case ACCEL_OP_KIND_COPY:
        in->n = 1, in->names[0] = "x";
        return true;
    case ACCEL_OP_KIND_AXPBY:
        in->snames[0] = "alpha", in->snames[1] = "beta";
        in->n = 1, in->names[0] = "x";
        in->ns = 1;
        if (op != ACCEL_OP_SCALE) {
            in->ns = 2;
            in->n = 2, in->idx[1] = 1, in->names[1] = "y";
        }
        return true;
    case ACCEL_OP_KIND_FILL:
        in->ns = 1, in->snames[0] = "value";
        return true;
    case ACCEL_OP_KIND_REDUCTION:
    case ACCEL_OP_KIND_GEMM:
    case ACCEL_OP_KIND_TRANSPOSE:
    case ACCEL_OP_KIND_RANDOM:
    case ACCEL_OP_KIND_SORT:
    case ACCEL_OP_KIND_LINALG:
    case ACCEL_OP_KIND_FFT:
    case ACCEL_OP_KIND_SCAN:
        break;
    }
    return false;
}

/* Node n may join a fused kernel: an elementwise op of the table on f32 or
 * f64 whose operands all cover the output's count. *count gets it. */
static bool fusable(const accel__gnode *n, size_t *count)
{
    if (n->be.kind != ACCEL_GRAPH_NODE_OP)
        return false;
    const accel_op_desc *d = &n->be.op;
    const accel_op_properties *p = accel__op(d->op);
    finputs in;
    if (!p || (d->dtype != ACCEL_F32 && d->dtype != ACCEL_F64) || d->num_operands == 0 ||
        d->num_operands > 4 || !(d->dtype == ACCEL_F32 ? p->expr_f32 : p->expr_f64) ||
        !inputs_of(p, d->op, &in))
        return false;
    size_t c = d->operands[d->num_operands - 1].count;
    for (uint32_t i = 0; i < d->num_operands; i++)
        if (d->operands[i].count != c || !d->operands[i].buffer)
            return false;
    *count = c;
    return c > 0;
}

/* ------------------------------------------------------------ building one run */

typedef struct frange {
    const accel_be_buffer *be;
    size_t offset;
    accel_buffer *buf;
    int cur;     /* value id held now, -1: not yet read or written */
    int in_slot; /* input argument loading it, -1: none */
    bool written;
} frange;

typedef struct fbuild {
    frange r[ACCEL__FMAX_VALUES];
    uint32_t nr;
    uint32_t nin; /* input slots: arrays and scalars */
    struct {
        bool scalar;
        uint32_t range; /* arrays */
        uint32_t node, sidx;
    } in[32];
    accel__fchain c;
    bool uses_nan_minmax;
    uint32_t nout, out_range[32]; /* the ranges stored, in argument order */
} fbuild;

/* The range of operand o of d in b (added when new); -1 when it partially
 * overlaps a range already there and either is written in the run (reads
 * of overlapping ranges are fine: element i reads what the unfused ops
 * read), or there are too many. */
static int range_of(fbuild *b, const accel__gnode *node, uint32_t o, size_t n, bool write)
{
    const accel_op_operand *op = &node->be.op.operands[o];
    int found = -1;
    int64_t sh;
    for (uint32_t i = 0; i < b->nr; i++) {
        if (b->r[i].be != op->buffer) {
            /* two buffers over one memory (a wrapped buffer): not fused,
             * each op runs alone (their ranges are not compared here) */
            if (b->r[i].buf != node->buf[o] && accel__buffers_alias(b->r[i].buf, node->buf[o], &sh))
                return -1;
            continue;
        }
        if (b->r[i].offset == op->offset) {
            found = (int)i;
            continue;
        }
        size_t lo = b->r[i].offset < op->offset ? b->r[i].offset : op->offset;
        size_t hi = b->r[i].offset < op->offset ? op->offset : b->r[i].offset;
        if (hi - lo < n && (write || b->r[i].written))
            return -1;
    }
    if (found >= 0)
        return found;
    if (b->nr == ACCEL__FMAX_VALUES)
        return -1;
    frange *r = &b->r[b->nr];
    memset(r, 0, sizeof *r);
    r->be = op->buffer;
    r->offset = op->offset;
    r->buf = node->buf[o];
    r->cur = -1;
    r->in_slot = -1;
    return (int)b->nr++;
}

static void add_node(fbuild *b, const accel__gnode *node, size_t ni, size_t n);

/* Whether node can join b (without changing b): its ranges are identical to
 * or disjoint from b's, and the argument, value and step limits hold. */
static bool fits(const fbuild *b, const accel__gnode *node, size_t n)
{
    fbuild *t = malloc(sizeof *t);
    if (!t)
        return false;
    memcpy(t, b, sizeof *t);
    bool ok = t->c.nsteps < ACCEL__FMAX_STEPS && t->c.nvalues + 4 <= ACCEL__FMAX_VALUES &&
              t->nin + 2 <= 32;
    uint32_t nops = node->be.op.num_operands;
    for (uint32_t o = 0; o < nops && ok; o++)
        ok = range_of(t, node, o, n, o == nops - 1) >= 0;
    if (ok) {
        add_node(t, node, 0, n);
        uint32_t args = t->nin;
        for (uint32_t i = 0; i < t->nr; i++)
            args += t->r[i].written;
        ok = args <= 32;
    }
    free(t);
    return ok;
}

static uint32_t new_value(fbuild *b)
{
    return b->c.nvalues++;
}

/* Add node (index ni) to b. */
static void add_node(fbuild *b, const accel__gnode *node, size_t ni, size_t n)
{
    const accel_op_desc *d = &node->be.op;
    const accel_op_properties *p = accel__op(d->op);
    finputs in;
    inputs_of(p, d->op, &in);
    accel__fstep *s = &b->c.steps[b->c.nsteps++];
    memset(s, 0, sizeof *s);
    s->op = d->op;
    s->node = (uint32_t)ni;
    s->nin = in.n;
    for (uint32_t j = 0; j < in.n; j++) {
        frange *r = &b->r[range_of(b, node, in.idx[j], n, false)];
        if (r->cur < 0) {
            uint32_t v = new_value(b);
            if (r->in_slot < 0) {
                r->in_slot = (int)b->nin;
                b->in[b->nin].scalar = false;
                b->in[b->nin].range = (uint32_t)(r - b->r);
                b->nin++;
            }
            b->c.load_arg[v] = (int16_t)r->in_slot;
            r->cur = (int)v;
        }
        s->in[j] = (uint32_t)r->cur;
    }
    s->nscalar = in.ns;
    for (uint32_t j = 0; j < in.ns; j++) {
        s->sarg[j] = b->nin;
        b->in[b->nin].scalar = true;
        b->in[b->nin].node = (uint32_t)ni;
        b->in[b->nin].sidx = j;
        b->nin++;
    }
    frange *out = &b->r[range_of(b, node, d->num_operands - 1, n, true)];
    s->out = new_value(b);
    b->c.load_arg[s->out] = -1;
    out->cur = (int)s->out;
    out->written = true;
    if (d->op == ACCEL_OP_MAX || d->op == ACCEL_OP_MIN)
        b->uses_nan_minmax = true;
}

/* How node uses the range [off, off + n) of temporary t: 0 not at all,
 * 1 an op overwrites the whole range without reading the buffer, 2 any
 * other use. */
static int use_of(const accel__gnode *node, const accel_buffer *t, size_t off, size_t n)
{
    const void *h = t->handle;
    bool uses = false;
    for (uint32_t k = 0; k < node->nbuf; k++) {
        int64_t sh;
        /* another buffer over the temporary's memory (a wrap of it): a
         * read (found by a helper's ASan hunt: the store was dropped and a
         * read through the wrap saw uninitialised memory) */
        if (node->buf_handle[k] != h && node->buf[k] && accel__buffers_alias(node->buf[k], t, &sh))
            return 2;
        uses = uses || node->buf_handle[k] == h;
    }
    if (!uses)
        return 0;
    const accel_graph_node_desc *d = &node->be;
    /* Transfers, copies and kernel launches count as reads (conservative). */
    if (d->kind != ACCEL_GRAPH_NODE_OP || node->klaunch)
        return 2;
    const accel_op_properties *p = accel__op(d->op.op);
    uint32_t out = d->op.num_operands - 1;
    if (!p || p->reads_output || node->buf_handle[out] != h)
        return 2;
    for (uint32_t k = 0; k < out; k++)
        if (node->buf_handle[k] == h)
            return 2;
    const accel_op_operand *o = &d->op.operands[out];
    return o->offset <= off && o->count >= n && o->offset + o->count >= off + n ? 1 : 2;
}

/* Whether the value a run [first, last) leaves in range [off, off + n) of
 * temporary h is never read: the next use after the run (wrapping to the
 * graph's start, for the next launch) overwrites it whole, or there is none. */
static bool temp_dead(const accel_graph *g, const accel_buffer *t, size_t off, size_t n,
                      size_t first, size_t last)
{
    for (size_t s = 0; s + (last - first) < g->n; s++) {
        size_t k = (last + s) % g->n;
        int u = use_of(&g->nodes[k], t, off, n);
        if (u)
            return u == 1;
    }
    return true;
}

static void fused_free(accel__fused *f)
{
    if (!f)
        return;
    accel_kernel_release(f->khandle);
    free(f->key);
    free(f);
}

/* The ranges the run stores (b->out_range): every written range but the
 * dead temporaries; when all are dead, the last result, so that the kernel
 * has an output. */
static void pick_stores(fbuild *b, const accel_graph *g, size_t first, size_t count, size_t n)
{
    b->nout = 0;
    for (uint32_t r = 0; r < b->nr; r++) {
        const frange *fr = &b->r[r];
        if (!fr->written)
            continue;
        bool dead = fr->buf && atomic_load(&fr->buf->graph_temp) &&
                    temp_dead(g, fr->buf, fr->offset, n, first, first + count);
        if (!dead)
            b->out_range[b->nout++] = r;
    }
    if (b->nout == 0)
        for (uint32_t r = b->nr; r-- > 0 && !b->nout;)
            if (b->r[r].written)
                b->out_range[b->nout++] = r;
}

/* The elementwise kernel's source: its parameter lists and body. */
typedef struct fsource {
    accel__sbuf in, out, body;
} fsource;

/* The body's statements: loads, one block per step with the op's table
 * expression, the stores (and the test fault of ACCEL_GRAPH_TEST_FAULT). */
static void write_body(fbuild *b, accel__sbuf *body, uint32_t flags)
{
    uint32_t dt = b->c.dtype;
    const char *T = dt == ACCEL_F64 ? "double" : "float";
    if (b->uses_nan_minmax)
        accel__sbuf_put(body, "\n#undef isnan\n#define isnan(v) ((v) != (v))\n#undef signbit\n"
                              "#define signbit(v) ((v) < 0 || ((v) == 0 && 1 / (v) < 0))\n");
    for (uint32_t v = 0; v < b->c.nvalues; v++)
        if (b->c.load_arg[v] >= 0)
            accel__sbuf_put(body, "%s v%u = p%d;\n", T, v, b->c.load_arg[v]);
    for (uint32_t k = 0; k < b->c.nsteps; k++) {
        const accel__fstep *s = &b->c.steps[k];
        const accel_op_properties *p = accel__op(s->op);
        finputs in;
        inputs_of(p, s->op, &in);
        accel__sbuf_put(body, "%s v%u; {", T, s->out);
        for (uint32_t j = 0; j < in.n; j++)
            accel__sbuf_put(body, " const %s %s = v%u;", T, in.names[j], s->in[j]);
        for (uint32_t j = 0; j < in.ns; j++)
            accel__sbuf_put(body, " const %s %s = p%u;", T, in.snames[j], s->sarg[j]);
        accel__sbuf_put(body, " v%u = (%s); }\n", s->out,
                        dt == ACCEL_F64 ? p->expr_f64 : p->expr_f32);
    }
    for (uint32_t o = 0; o < b->nout; o++) {
        uint32_t v = (uint32_t)b->r[b->out_range[o]].cur;
        accel__sbuf_put(body, "q%u = v%u;\n", o, v);
        b->c.store_arg[o] = b->nin + o;
        b->c.store_value[o] = v;
    }
    if (flags & ACCEL_GRAPH_TEST_FAULT)
        accel__sbuf_put(body, "if (i == n / 2) q%u = q%u + (%s)0.5;\n", b->nout - 1, b->nout - 1,
                        T);
    b->c.nstores = b->nout;
}

/* The parameter lists and the body; false when out of memory. */
static bool write_source(fbuild *b, fsource *src, uint32_t flags)
{
    const char *P = b->c.dtype == ACCEL_F64 ? "float64" : "float32";
    for (uint32_t k = 0; k < b->nin; k++)
        accel__sbuf_put(&src->in, "%s%s p%u", k ? ", " : "", P, k);
    for (uint32_t o = 0; o < b->nout; o++)
        accel__sbuf_put(&src->out, "%s%s q%u", o ? ", " : "", P, o);
    write_body(b, &src->body, flags);
    accel__sbuf_put(&src->body, "%s", "");
    if (!src->in.s)
        accel__sbuf_put(&src->in, "%s", "");
    return !src->in.oom && !src->out.oom && !src->body.oom;
}

/* Names: the kernel's ("fused_add_mul_exp") and the ops', repeats shown once
 * with their count ("accel_add x64"). */
static void name_run(accel__fused *f, fbuild *b, const accel_graph *g, size_t first, size_t count)
{
    size_t kl = (size_t)snprintf(f->kname, sizeof f->kname, "fused");
    for (size_t i = first; i < first + count && kl + 1 < sizeof f->kname; i++) {
        const char *op = accel_op_name((accel_op_code)g->nodes[i].be.op.op);
        int w = snprintf(f->kname + kl, sizeof f->kname - kl, "_%s", op);
        if (w < 0 || kl + (size_t)w >= sizeof f->kname) {
            f->kname[kl] = '\0';
            break;
        }
        kl += (size_t)w;
    }
    size_t ol =
        (size_t)snprintf(b->c.ops, sizeof b->c.ops, "nodes %zu-%zu (", first, first + count - 1);
    for (size_t i = first; i < first + count && ol < sizeof b->c.ops;) {
        size_t r = 1;
        while (i + r < first + count && strcmp(g->nodes[i + r].name, g->nodes[i].name) == 0)
            r++;
        ol += (size_t)snprintf(b->c.ops + ol, sizeof b->c.ops - ol, "%s%s", i > first ? ", " : "",
                               g->nodes[i].name);
        if (r > 1 && ol < sizeof b->c.ops)
            ol += (size_t)snprintf(b->c.ops + ol, sizeof b->c.ops - ol, " x%zu", r);
        i += r;
    }
    if (ol < sizeof b->c.ops)
        snprintf(b->c.ops + ol, sizeof b->c.ops - ol, ")");
    snprintf(f->name, sizeof f->name, "kernel %s: fused %s", f->kname, b->c.ops);
}

/* f's kernel handle for src: the previous plan's with the same text (taken
 * from kernels[0, nk)), else a new one. false: not made (logged). */
static bool make_kernel(accel__fused *f, const accel_graph *g, const fsource *src,
                        accel__fused **kernels, size_t nk)
{
    accel__sbuf key = {0};
    accel__sbuf_put(&key, "%s\n%s\n%s\n%s", f->kname, src->in.s, src->out.s, src->body.s);
    if (key.oom)
        return false;
    f->key = key.s;
    for (size_t k = 0; k < nk && !f->khandle; k++)
        if (kernels[k] && strcmp(kernels[k]->key, f->key) == 0) {
            f->khandle = kernels[k]->khandle;
            kernels[k]->khandle = NULL;
        }
    if (!f->khandle &&
        accel_kernel_elementwise_create(g->dev->rt->handle, f->kname, src->in.s, src->out.s,
                                        src->body.s, NULL, &f->khandle) != ACCEL_SUCCESS) {
        accel__log(ACCEL_LOG_INFO, "graph fusion: %s not fused: %s", f->name, accel_last_error());
        return false;
    }
    return true;
}

/* Argument s of the launch: a scalar of a node (its value now, and where
 * accel__fused_set_scalar finds it) or an array range of n elements. */
static void set_arg(accel__fused *f, const fbuild *b, const accel_graph *g, uint32_t s, size_t n)
{
    accel_kernel_arg_desc *a = &f->L.args[s];
    uint32_t dt = b->c.dtype;
    memset(a, 0, sizeof *a);
    a->dtype = dt;
    if (s < b->nin && b->in[s].scalar) {
        a->kind = ACCEL_KARG_SCALAR;
        double v = g->nodes[b->in[s].node].be.op.scalars[b->in[s].sidx];
        if (dt == ACCEL_F64)
            a->value.f64 = v;
        else
            a->value.f32 = (float)v;
        f->snode[s] = b->in[s].node;
        f->sidx[s] = b->in[s].sidx;
    } else {
        const frange *r = &b->r[s < b->nin ? b->in[s].range : b->out_range[s - b->nin]];
        a->kind = ACCEL_KARG_ARRAY;
        a->buffer = (accel_be_buffer *)r->be;
        a->offset = r->offset;
        a->count = n;
        f->snode[s] = UINT32_MAX;
    }
}

/* The launch of f's kernel on g's device (its program for the run's scalar
 * mask) and the op descriptor that submits it. false: no program (logged). */
static bool set_launch(accel__fused *f, const fbuild *b, const accel_graph *g, size_t n)
{
    accel__type type;
    accel__gate *gate;
    accel_kernel *k = accel__handle_peek(f->khandle, &type, &gate);
    uint32_t mask = 0, nargs = b->nin + b->nout;
    for (uint32_t s = 0; s < b->nin; s++)
        if (b->in[s].scalar)
            mask |= 1u << s;
    accel_be_program *prog = NULL;
    if (!k || accel__kernel_program(k, g->dev, mask, &prog) != ACCEL_SUCCESS) {
        accel__log(ACCEL_LOG_INFO, "graph fusion: %s not fused: %s", f->name, accel_last_error());
        return false;
    }
    accel__klaunch *L = &f->L;
    memset(&L->be, 0, sizeof L->be);
    L->be.struct_size = sizeof L->be;
    L->be.kind = ACCEL_KERNEL_ELEMENTWISE;
    L->be.program = prog;
    L->be.num_args = nargs;
    L->be.args = L->args;
    L->be.n = n;
    L->be.rows = 1;
    L->k = k;
    L->mask = mask;
    L->chain = &f->chain;
    for (uint32_t s = 0; s < nargs; s++)
        set_arg(f, b, g, s, n);
    f->chain = b->c;
    memset(&f->d, 0, sizeof f->d);
    f->d.struct_size = sizeof f->d;
    f->d.op = ACCEL_OP_KERNEL;
    f->d.dtype = b->c.dtype;
    f->d.name = f->name;
    f->d.kernel = &L->be;
    return true;
}

/* Build the kernel of run [first, first + count) of g, or NULL (not fused:
 * the reason is logged). kernels[0, nk) are the previous plan's, reused
 * when the key matches (taken: the slot is set to NULL). */
static accel__fused *build_run(accel_graph *g, size_t first, size_t count, size_t n, uint32_t flags,
                               accel__fused **kernels, size_t nk)
{
    fbuild *b = calloc(1, sizeof *b);
    accel__fused *f = calloc(1, sizeof *f);
    fsource src = {{0}, {0}, {0}};
    bool ok = b && f;
    if (ok) {
        b->c.dtype = g->nodes[first].be.op.dtype;
        for (size_t i = first; i < first + count; i++)
            add_node(b, &g->nodes[i], i, n);
        pick_stores(b, g, first, count, n);
        ok = write_source(b, &src, flags);
    }
    if (ok) {
        name_run(f, b, g, first, count);
        ok = make_kernel(f, g, &src, kernels, nk) && set_launch(f, b, g, n);
    }
    if (ok)
        accel__log(ACCEL_LOG_INFO, "graph fusion: %s (%u arguments, %u of %u results stored)",
                   f->name, b->nin + b->nout, b->nout, b->c.nsteps);
    free(src.in.s);
    free(src.out.s);
    free(src.body.s);
    free(b);
    if (!ok) {
        accel__clear_error();
        fused_free(f);
        return NULL;
    }
    return f;
}

/* ------------------------------------------------------------ the plan */

void accel__fuse_plan_free(accel_graph *g, bool release_kernels)
{
    for (size_t e = 0; e < g->nexec; e++) {
        if (g->exec[e].f && !release_kernels)
            g->exec[e].f->khandle = NULL;
        fused_free(g->exec[e].f);
    }
    free(g->exec);
    free(g->exec_of);
    g->exec = NULL;
    g->exec_of = NULL;
    g->nexec = 0;
}

accel_status accel__fuse_plan(accel_graph *g, uint32_t flags, const char *fn)
{
    accel__gexec *old = g->exec;
    size_t nold = g->nexec;
    accel__fused **kernels = calloc(nold ? nold : 1, sizeof *kernels);
    accel__gexec *ex = malloc((g->n ? g->n : 1) * sizeof *ex);
    size_t *of = malloc((g->n ? g->n : 1) * sizeof *of);
    if (!kernels || !ex || !of) {
        free(kernels);
        free(ex);
        free(of);
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    }
    for (size_t e = 0; e < nold; e++)
        kernels[e] = old[e].f;
    size_t ne = 0;
    bool fuse = !(flags & ACCEL_GRAPH_NO_FUSION);
    fbuild *probe = fuse ? malloc(sizeof *probe) : NULL;
    for (size_t i = 0; i < g->n;) {
        size_t n = 0, count = 1;
        if (probe && fusable(&g->nodes[i], &n)) {
            memset(probe, 0, sizeof *probe);
            probe->c.dtype = g->nodes[i].be.op.dtype;
            if (fits(probe, &g->nodes[i], n)) {
                add_node(probe, &g->nodes[i], i, n);
                size_t c;
                while (i + count < g->n && fusable(&g->nodes[i + count], &c) && c == n &&
                       g->nodes[i + count].be.op.dtype == probe->c.dtype &&
                       fits(probe, &g->nodes[i + count], n)) {
                    add_node(probe, &g->nodes[i + count], i + count, n);
                    count++;
                }
            }
        }
        accel__fused *f = count > 1 ? build_run(g, i, count, n, flags, kernels, nold) : NULL;
        if (f) {
            ex[ne] = (accel__gexec){i, count, f};
            for (size_t k = 0; k < count; k++)
                of[i + k] = ne;
            ne++;
        } else {
            for (size_t k = 0; k < count; k++) {
                ex[ne] = (accel__gexec){i + k, 1, NULL};
                of[i + k] = ne++;
            }
        }
        i += count;
    }
    free(probe);
    for (size_t e = 0; e < nold; e++)
        fused_free(kernels[e]);
    free(kernels);
    free(old);
    free(g->exec_of);
    g->exec = ex;
    g->nexec = ne;
    g->exec_of = of;
    return ACCEL_SUCCESS;
}

const accel_op_desc *accel__fused_desc(const accel__fused *f)
{
    return &f->d;
}

const char *accel__fused_name(const accel__fused *f)
{
    return f->kname;
}

const char *accel__fused_ops(const accel__fused *f)
{
    return f->chain.ops;
}

bool accel__fused_set_scalar(accel__fused *f, size_t node, uint32_t index, double value)
{
    bool found = false;
    for (uint32_t s = 0; s < f->L.be.num_args; s++)
        if (f->snode[s] == node && f->sidx[s] == index) {
            if (f->L.args[s].dtype == ACCEL_F64)
                f->L.args[s].value.f64 = value;
            else
                f->L.args[s].value.f32 = (float)value;
            found = true;
        }
    return found;
}
