/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_graph.c — graphs (core/graphs/capture.c, core/graphs/graph.c, backends' graph
 * entries): capture and replay of every op kind on every device against the
 * same work run eagerly (bit-identical: the same backend runs the same
 * kernels), both through the backend's entries and the core's replay;
 * repeated launches; rebinding buffers, scalars and host pointers (also while
 * a launch is still queued); temporaries; a backend without graph entries;
 * asynchronous errors inside a replay; capture misuse errors. */
#include <criterion/criterion.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "accel/array.h"
#include "accel/kernel.h"
#include "test_util.h"

#define N 1000 /* elements of the elementwise program */
#define MM 7   /* GEMM and transpose sizes */
#define NN 5
#define KK 6
#define OUTS 40 /* host result slots, N doubles each */

/* The program: every op kind of the op table, on f32 or f64, inputs written
 * from host memory and every result read back into res[slot]. Run eagerly
 * or inside a capture (the same calls). */
typedef struct prog {
    accel_dtype dt;
    size_t es;
    accel_buffer *a, *b, *y, *t, *o[OUTS];
    void *ha, *hb, *res[OUTS];
    size_t nres;
} prog;

static void prog_inputs(prog *p, accel_device *dev, accel_dtype dt)
{
    memset(p, 0, sizeof *p);
    p->dt = dt;
    p->es = dt == ACCEL_F32 ? 4 : 8;
    p->ha = malloc(N * p->es);
    p->hb = malloc(N * p->es);
    cr_assert(p->ha && p->hb);
    tu_rng r = tu_rng_make(dt);
    for (size_t i = 0; i < N; i++) {
        double va = tu_rng_range(&r, 0.1, 2.0), vb = tu_rng_range(&r, -2.0, 2.0);
        if (dt == ACCEL_F32) {
            ((float *)p->ha)[i] = (float)va;
            ((float *)p->hb)[i] = (float)vb;
        } else {
            ((double *)p->ha)[i] = va;
            ((double *)p->hb)[i] = vb;
        }
    }
    tu_ok(accel_buffer_create(dev, N * p->es, &p->a));
    tu_ok(accel_buffer_create(dev, N * p->es, &p->b));
    tu_ok(accel_buffer_create(dev, N * p->es, &p->y));
    for (size_t i = 0; i < OUTS; i++) {
        tu_ok(accel_buffer_create(dev, N * p->es, &p->o[i]));
        p->res[i] = calloc(N, p->es);
        cr_assert(p->res[i]);
    }
}

static void prog_free(prog *p)
{
    accel_buffer_release(p->a);
    accel_buffer_release(p->b);
    accel_buffer_release(p->y);
    for (size_t i = 0; i < OUTS; i++) {
        accel_buffer_release(p->o[i]);
        free(p->res[i]);
    }
    free(p->ha);
    free(p->hb);
}

/* Read o[slot]'s first n elements into res[slot] (asynchronously). */
static void out_read(accel_queue *q, prog *p, size_t slot, size_t n)
{
    tu_ok(accel_queue_read(q, p->o[slot], 0, p->res[slot], n * p->es));
}

static void prog_enqueue(accel_queue *q, prog *p, accel_device *dev, bool with_temp)
{
    accel_dtype dt = p->dt;
    accel_slice a = accel_slice_of(p->a, 0, N), b = accel_slice_of(p->b, 0, N);
    size_t s = 0;
    tu_ok(accel_queue_write(q, p->a, 0, p->ha, N * p->es));
    tu_ok(accel_queue_write(q, p->b, 0, p->hb, N * p->es));
#define OUT(k) accel_slice_of(p->o[k], 0, N)
    tu_ok(accel_fill(q, dt, 0.75, OUT(s)));
    out_read(q, p, s++, N);
    tu_ok(accel_copy(q, dt, a, OUT(s)));
    out_read(q, p, s++, N);
    static const accel_op_code bin[] = {ACCEL_OP_ADD, ACCEL_OP_SUB, ACCEL_OP_MUL,
                                        ACCEL_OP_DIV, ACCEL_OP_MAX, ACCEL_OP_MIN};
    for (size_t i = 0; i < sizeof bin / sizeof bin[0]; i++) {
        tu_ok(accel_binary(q, bin[i], dt, a, b, OUT(s)));
        out_read(q, p, s++, N);
    }
    static const accel_op_code un[] = {ACCEL_OP_NEG, ACCEL_OP_ABS,    ACCEL_OP_SQRT, ACCEL_OP_EXP,
                                       ACCEL_OP_LOG, ACCEL_OP_TANH,   ACCEL_OP_RELU, ACCEL_OP_SIN,
                                       ACCEL_OP_COS, ACCEL_OP_SIGMOID};
    for (size_t i = 0; i < sizeof un / sizeof un[0]; i++) {
        tu_ok(accel_unary(q, un[i], dt, i == 2 || i == 4 ? a : b, OUT(s)));
        out_read(q, p, s++, N);
    }
    tu_ok(accel_scale(q, dt, -1.5, a, OUT(s)));
    out_read(q, p, s++, N);
    tu_ok(accel_copy(q, dt, b, OUT(s)));
    tu_ok(accel_axpby(q, dt, 2.0, a, 0.5, OUT(s)));
    out_read(q, p, s++, N);
    tu_ok(accel_sum(q, dt, a, accel_slice_of(p->o[s], 0, 1)));
    out_read(q, p, s++, 1);
    tu_ok(accel_reduce_max(q, dt, b, accel_slice_of(p->o[s], 0, 1)));
    out_read(q, p, s++, 1);
    tu_ok(accel_reduce_min(q, dt, b, accel_slice_of(p->o[s], 0, 1)));
    out_read(q, p, s++, 1);
    tu_ok(accel_dot(q, dt, a, b, accel_slice_of(p->o[s], 0, 1)));
    out_read(q, p, s++, 1);
    accel_gemm_desc g;
    accel_gemm_desc_init(&g);
    g.dtype = dt;
    g.m = MM;
    g.n = NN;
    g.k = KK;
    g.a = p->a;
    g.lda = KK;
    g.b = p->b;
    g.ldb = NN;
    g.c = p->o[s];
    g.ldc = NN;
    g.alpha = 1.25;
    tu_ok(accel_gemm(q, &g));
    out_read(q, p, s++, MM * NN);
    tu_ok(accel_transpose_2d(q, dt, MM, NN, p->a, 0, NN, p->o[s], 0, MM));
    out_read(q, p, s++, MM * NN);
    tu_ok(accel_random_uniform(q, dt, 42, 7, OUT(s)));
    out_read(q, p, s++, N);
    tu_ok(accel_random_normal(q, dt, 43, 0, 1.0, 2.0, OUT(s)));
    out_read(q, p, s++, N);
    /* A buffer-to-buffer copy, and a chain through a temporary when asked
     * (created on dev during the capture: the graph's). */
    tu_ok(accel_queue_copy(q, p->a, 0, p->o[s], 0, N * p->es));
    out_read(q, p, s++, N);
    accel_buffer *tmp = p->y;
    if (with_temp) {
        tu_ok(accel_buffer_create(dev, N * p->es, &p->t));
        tmp = p->t;
    }
    tu_ok(accel_mul(q, dt, a, b, accel_slice_of(tmp, 0, N)));
    tu_ok(accel_add(q, dt, accel_slice_of(tmp, 0, N), a, OUT(s)));
    out_read(q, p, s++, N);
#undef OUT
    p->nres = s;
    cr_assert(s <= OUTS);
}

static void compare(const prog *eager, const prog *graph, const char *what)
{
    for (size_t s = 0; s < eager->nres; s++)
        cr_assert(memcmp(eager->res[s], graph->res[s], N * eager->es) == 0,
                  "%s: result slot %zu differs from the eager run (%s)", what, s,
                  accel_dtype_name(eager->dt));
}

typedef struct every_op_case {
    uint32_t flags;
    int backend_expected; /* 1: the backend's entries must run it; -1: either */
} every_op_case;

static void every_op(accel_device *dev, accel_queue *q, void *user)
{
    const every_op_case *c = user;
    for (int d = 0; d < 2; d++) {
        accel_dtype dt = d ? ACCEL_F64 : ACCEL_F32;
        prog e, g;
        prog_inputs(&e, dev, dt);
        prog_enqueue(q, &e, dev, false);
        tu_ok(accel_queue_finish(q));

        prog_inputs(&g, dev, dt);
        accel_graph *gr = NULL;
        tu_ok(accel_queue_begin_capture(q));
        prog_enqueue(q, &g, dev, true);
        tu_ok(accel_queue_end_capture(q, &gr));
        /* Nothing ran during the capture. */
        for (size_t s = 0; s < g.nres; s++)
            for (size_t i = 0; i < g.es; i++)
                cr_assert(((unsigned char *)g.res[s])[i] == 0, "slot %zu was written", s);
        cr_assert_eq(accel_graph_temporary_count(gr), 1);
        /* 2 writes, per result an op (axpby's copy too) and a read, the temp chain. */
        cr_assert_eq(accel_graph_node_count(gr), 2 + 2 * g.nres + 2);
        accel_graph_options opt;
        accel_graph_options_init(&opt);
        opt.flags = c->flags;
        tu_ok(accel_graph_instantiate(gr, &opt));
        bool native = false;
        tu_ok(accel_graph_backend_replay(gr, &native));
        if (c->backend_expected == 0)
            cr_assert(!native, "ACCEL_GRAPH_CORE_REPLAY must replay in the core");
        else if (c->backend_expected == 1 && strcmp(accel_device_name(dev), "cpu") == 0)
            cr_assert(native, "the cpu backend must run the graph through its entries");
        for (int rep = 0; rep < 3; rep++) {
            for (size_t s = 0; s < g.nres; s++)
                memset(g.res[s], 0, N * g.es);
            tu_ok(accel_graph_launch(gr, q));
            tu_ok(accel_queue_finish(q));
            compare(&e, &g,
                    tu_fmt("%s launch %d%s", accel_device_name(dev), rep,
                           native ? " (backend)" : " (core replay)"));
        }
        /* An independent check of one row: add against a double loop. */
        for (size_t i = 0; i < N; i++) {
            double want = dt == ACCEL_F32 ? (double)(((float *)g.ha)[i] + ((float *)g.hb)[i])
                                          : ((double *)g.ha)[i] + ((double *)g.hb)[i];
            double got = dt == ACCEL_F32 ? ((float *)g.res[2])[i] : ((double *)g.res[2])[i];
            cr_assert(got == want, "add[%zu] = %g, expected %g", i, got, want);
        }
        accel_graph_release(gr);
        prog_free(&e);
        prog_free(&g);
    }
}

Test(graph, every_op_kind_backend_replay_matches_eager)
{
    accel_runtime *rt = tu_open_default();
    every_op_case c = {0, 1};
    tu_for_each_device(rt, every_op, &c);
    accel_runtime_close(rt);
}

Test(graph, every_op_kind_core_replay_matches_eager)
{
    accel_runtime *rt = tu_open_default();
    every_op_case c = {ACCEL_GRAPH_CORE_REPLAY, 0};
    tu_for_each_device(rt, every_op, &c);
    accel_runtime_close(rt);
}

/* ------------------------------------------------ launches and rebinding */

typedef struct fx {
    accel_runtime *rt;
    accel_device *dev;
    accel_queue *q;
} fx;

static fx fx_open(void)
{
    fx f;
    f.rt = tu_open_default();
    tu_ok(accel_device_get_by_name(f.rt, "cpu", &f.dev));
    tu_ok(accel_queue_create(f.dev, &f.q));
    return f;
}

static void fx_close(fx *f)
{
    accel_queue_release(f->q);
    accel_runtime_close(f->rt);
}

static float read1(accel_queue *q, accel_buffer *b, size_t i)
{
    float v = -1.0f;
    tu_ok(accel_queue_read_blocking(q, b, i * 4, &v, 4));
    return v;
}

Test(graph, launches_accumulate_and_outputs_read_after)
{
    fx f = fx_open();
    accel_buffer *x, *one;
    tu_ok(accel_buffer_create(f.dev, 64 * 4, &x));
    tu_ok(accel_buffer_create(f.dev, 64 * 4, &one));
    tu_ok(accel_fill(f.q, ACCEL_F32, 0.0, accel_slice_of(x, 0, 64)));
    tu_ok(accel_fill(f.q, ACCEL_F32, 1.0, accel_slice_of(one, 0, 64)));
    accel_graph *g;
    tu_ok(accel_queue_begin_capture(f.q));
    for (int i = 0; i < 10; i++)
        tu_ok(accel_add(f.q, ACCEL_F32, accel_slice_of(x, 0, 64), accel_slice_of(one, 0, 64),
                        accel_slice_of(x, 0, 64)));
    tu_ok(accel_queue_end_capture(f.q, &g));
    cr_assert_eq(accel_graph_node_count(g), 10);
    /* Recorded, not run. */
    cr_assert_eq(read1(f.q, x, 5), 0.0f);
    for (int l = 0; l < 7; l++)
        tu_ok(accel_graph_launch(g, f.q));
    tu_ok(accel_queue_finish(f.q));
    for (size_t i = 0; i < 64; i++)
        cr_assert_eq(read1(f.q, x, i), 70.0f);
    accel_graph_node_info info = {.struct_size = sizeof info};
    tu_ok(accel_graph_node_info_get(g, 3, &info));
    cr_assert_eq(info.kind, ACCEL_GRAPH_NODE_OP);
    cr_assert_eq(info.op, ACCEL_OP_ADD);
    cr_assert_eq(info.dtype, ACCEL_F32);
    cr_assert_str_eq(info.name, "accel_add");
    cr_assert_eq(info.bytes, 64);
    tu_assert_status(accel_graph_node_info_get(g, 10, &info), ACCEL_ERROR_OUT_OF_RANGE, "node 10");
    accel_graph_release(g);
    accel_buffer_release(x);
    accel_buffer_release(one);
    fx_close(&f);
}

Test(graph, rebind_buffers_scalars_and_host_pointers)
{
    fx f = fx_open();
    enum { n = 256 };
    accel_buffer *a, *b, *c, *a2, *small;
    tu_ok(accel_buffer_create(f.dev, n * 4, &a));
    tu_ok(accel_buffer_create(f.dev, n * 4, &b));
    tu_ok(accel_buffer_create(f.dev, n * 4, &c));
    tu_ok(accel_buffer_create(f.dev, 2 * n * 4, &a2));
    tu_ok(accel_buffer_create(f.dev, n * 2, &small));
    float *h1 = malloc(n * 4), *h2 = malloc(n * 4), *r1 = malloc(n * 4), *r2 = malloc(n * 4);
    cr_assert(h1 && h2 && r1 && r2);
    for (int i = 0; i < n; i++) {
        h1[i] = (float)i;
        h2[i] = (float)(1000 + 2 * i);
    }
    /* b = h (write); a = 3 (fill); c = 2*b + 1*c... as: c = a + b; c = alpha*c; read c. */
    accel_graph *g;
    tu_ok(accel_queue_begin_capture(f.q));
    tu_ok(accel_queue_write(f.q, b, 0, h1, n * 4));
    tu_ok(accel_fill(f.q, ACCEL_F32, 3.0, accel_slice_of(a, 0, n)));
    tu_ok(accel_add(f.q, ACCEL_F32, accel_slice_of(a, 0, n), accel_slice_of(b, 0, n),
                    accel_slice_of(c, 0, n)));
    tu_ok(accel_scale(f.q, ACCEL_F32, 2.0, accel_slice_of(c, 0, n), accel_slice_of(c, 0, n)));
    tu_ok(accel_queue_read(f.q, c, 0, r1, n * 4));
    tu_ok(accel_queue_end_capture(f.q, &g));

    tu_ok(accel_graph_launch(g, f.q));
    tu_ok(accel_queue_finish(f.q));
    for (int i = 0; i < n; i++)
        cr_assert_eq(r1[i], 2.0f * (3.0f + (float)i), "r1[%d] = %g", i, r1[i]);

    /* Scalars: the fill's value and the scale's alpha. */
    tu_ok(accel_graph_set_scalar(g, 1, 0, -1.0));
    tu_ok(accel_graph_set_scalar(g, 3, 0, 0.5));
    /* Host pointers: the write's source and the read's destination. */
    tu_ok(accel_graph_set_host(g, h1, h2));
    tu_ok(accel_graph_set_host(g, r1, r2));
    memset(r1, 0, n * 4);
    tu_ok(accel_graph_launch(g, f.q));
    tu_ok(accel_queue_finish(f.q));
    for (int i = 0; i < n; i++) {
        cr_assert_eq(r2[i], 0.5f * (-1.0f + (float)(1000 + 2 * i)), "r2[%d] = %g", i, r2[i]);
        cr_assert_eq(r1[i], 0.0f, "the old read destination was written");
    }

    /* Buffers: a -> a2 (larger; the ranges fit), every use of a. */
    tu_ok(accel_graph_set_buffer(g, a, a2));
    tu_ok(accel_fill(f.q, ACCEL_F32, 99.0, accel_slice_of(a, 0, n)));
    tu_ok(accel_graph_launch(g, f.q));
    tu_ok(accel_queue_finish(f.q));
    cr_assert_eq(read1(f.q, a, 0), 99.0f, "a is no longer written by the graph");
    cr_assert_eq(read1(f.q, a2, n - 1), -1.0f);
    cr_assert_eq(r2[7], 0.5f * (-1.0f + 1014.0f));

    /* Refusals leave the graph unchanged. */
    tu_assert_status(accel_graph_set_buffer(g, c, small), ACCEL_ERROR_OUT_OF_RANGE, "small");
    tu_assert_status(accel_graph_set_buffer(g, a, a2), ACCEL_ERROR_NOT_FOUND, "a unused now");
    tu_assert_status(accel_graph_set_scalar(g, 2, 0, 1.0), ACCEL_ERROR_INVALID_ARGUMENT,
                     "add has no scalar");
    tu_assert_status(accel_graph_set_scalar(g, 3, 1, 1.0), ACCEL_ERROR_INVALID_ARGUMENT,
                     "scale has one scalar");
    tu_assert_status(accel_graph_set_scalar(g, 0, 0, 1.0), ACCEL_ERROR_INVALID_ARGUMENT,
                     "a write has none");
    tu_assert_status(accel_graph_set_scalar(g, 5, 0, 1.0), ACCEL_ERROR_OUT_OF_RANGE, "node 5");
    tu_assert_status(accel_graph_set_host(g, h1, h2), ACCEL_ERROR_NOT_FOUND, "h1 unused now");
    tu_assert_status(accel_graph_set_host(g, h2, NULL), ACCEL_ERROR_INVALID_ARGUMENT, "NULL");

    /* A released buffer: the launch refuses until it is rebound. */
    accel_buffer_release(c);
    tu_assert_status(accel_graph_launch(g, f.q), ACCEL_ERROR_INVALID_HANDLE, "c released");
    cr_assert(strstr(accel_last_error(), "accel_graph_set_buffer"), "%s", accel_last_error());
    /* The message names the first node that uses c (the add, node 2). */
    cr_assert(strstr(accel_last_error(), "node 2 (") && strstr(accel_last_error(), "was released"),
              "%s", accel_last_error());
    accel_buffer *c2;
    tu_ok(accel_buffer_create(f.dev, n * 4, &c2));
    tu_ok(accel_graph_set_buffer(g, c, c2));
    tu_ok(accel_graph_launch(g, f.q));
    tu_ok(accel_queue_finish(f.q));
    cr_assert_eq(read1(f.q, c2, 3), 0.5f * (-1.0f + 1006.0f));

    accel_graph_release(g);
    accel_buffer_release(a);
    accel_buffer_release(b);
    accel_buffer_release(c2);
    accel_buffer_release(a2);
    accel_buffer_release(small);
    free(h1);
    free(h2);
    free(r1);
    free(r2);
    fx_close(&f);
}

/* Every buffer of a node released, then each rebound in turn to a new one:
 * the new buffer's object may be a released one's memory again, and the
 * rebinding compared it with the released buffers through their stale
 * objects and refused "an aliasing the recorded op did not have" (a use
 * after free; CI of 2584614 through python/tests/test_fuse.py). */
Test(graph, rebind_one_by_one_after_every_buffer_was_released)
{
    fx f = fx_open();
    enum { n = 64 };
    float hx[n], hy[n], r[n];
    for (int round = 0; round < 3; round++) {
        accel_buffer *x, *y, *o;
        tu_ok(accel_buffer_create(f.dev, sizeof hx, &x));
        tu_ok(accel_buffer_create(f.dev, sizeof hx, &y));
        tu_ok(accel_buffer_create(f.dev, sizeof hx, &o));
        accel_graph *g;
        tu_ok(accel_queue_begin_capture(f.q));
        tu_ok(accel_add(f.q, ACCEL_F32, accel_slice_of(x, 0, n), accel_slice_of(y, 0, n),
                        accel_slice_of(o, 0, n)));
        tu_ok(accel_queue_end_capture(f.q, &g));
        const void *old[3] = {x, y, o};
        /* the last released first again (malloc's LIFO): x's new object is
         * o's old one */
        accel_buffer_release(x);
        accel_buffer_release(y);
        accel_buffer_release(o);
        accel_buffer *nb[3];
        for (int k = 0; k < 3; k++)
            tu_ok(accel_buffer_create(f.dev, sizeof hx, &nb[k]));
        for (int i = 0; i < n; i++) {
            hx[i] = (float)(i + round);
            hy[i] = 0.5f * (float)i;
        }
        tu_ok(accel_queue_write_blocking(f.q, nb[0], 0, hx, sizeof hx));
        tu_ok(accel_queue_write_blocking(f.q, nb[1], 0, hy, sizeof hy));
        for (int k = 0; k < 3; k++) {
            accel_status st = accel_graph_set_buffer(g, old[k], nb[k]);
            /* the last one plans the graph again; earlier ones may say a
             * buffer it still names was released */
            cr_assert(st == ACCEL_SUCCESS || (k < 2 && st == ACCEL_ERROR_INVALID_HANDLE),
                      "round %d, rebind %d: %s", round, k, accel_last_error());
        }
        tu_ok(accel_graph_launch(g, f.q));
        tu_ok(accel_queue_read_blocking(f.q, nb[2], 0, r, sizeof r));
        for (int i = 0; i < n; i++)
            cr_assert_eq(r[i], hx[i] + hy[i], "round %d: r[%d] = %g", round, i, r[i]);
        accel_graph_release(g);
        for (int k = 0; k < 3; k++)
            accel_buffer_release(nb[k]);
    }
    fx_close(&f);
}

/* A scalar set on a fused node while another node's buffer is released: the
 * backend's update of the fused kernel resolved the freed buffer (ASan:
 * heap-use-after-free in the CPU backend); the value is set, the graph
 * waits for the rebinding, then runs with both. */
Test(graph, set_scalar_of_a_fused_node_after_another_buffer_was_released)
{
    fx f = fx_open();
    enum { n = 64 };
    accel_buffer *a, *c, *out, *t, *c2;
    tu_ok(accel_buffer_create(f.dev, n * 4, &a));
    tu_ok(accel_buffer_create(f.dev, n * 4, &c));
    tu_ok(accel_buffer_create(f.dev, n * 4, &out));
    tu_ok(accel_buffer_create(f.dev, n * 4, &c2));
    tu_ok(accel_fill(f.q, ACCEL_F32, 1, accel_slice_of(a, 0, n)));
    tu_ok(accel_fill(f.q, ACCEL_F32, 10, accel_slice_of(c2, 0, n)));
    accel_graph *g;
    tu_ok(accel_queue_begin_capture(f.q));
    tu_ok(accel_buffer_create(f.dev, n * 4, &t)); /* a temporary */
    tu_ok(accel_scale(f.q, ACCEL_F32, 2.0, accel_slice_of(a, 0, n), accel_slice_of(t, 0, n)));
    tu_ok(accel_add(f.q, ACCEL_F32, accel_slice_of(t, 0, n), accel_slice_of(c, 0, n),
                    accel_slice_of(out, 0, n)));
    tu_ok(accel_queue_end_capture(f.q, &g));
    accel_buffer_release(c);
    tu_assert_status(accel_graph_set_scalar(g, 0, 0, 5.0), ACCEL_ERROR_INVALID_HANDLE,
                     "c released");
    tu_ok(accel_graph_set_buffer(g, c, c2));
    tu_ok(accel_graph_launch(g, f.q));
    for (int i = 0; i < n; i++)
        cr_assert_eq(read1(f.q, out, (size_t)i), 15.0f, "out[%d]", i);
    accel_graph_release(g);
    accel_buffer_release(a);
    accel_buffer_release(c2);
    accel_buffer_release(out);
    fx_close(&f);
}

/* One thread instantiates a graph again and again while another rebinds its
 * input to new buffers and releases them: the plan read a buffer freed
 * meanwhile (ASan: heap-use-after-free in fuse.c's range_of); the
 * instantiation now pins every buffer it reads. */
typedef struct inst_loop {
    accel_graph *g;
    volatile int stop;
} inst_loop;

static void *instantiate_until_stopped(void *arg)
{
    inst_loop *l = arg;
    accel_graph_options o;
    accel_graph_options_init(&o);
    for (unsigned k = 0; !l->stop; k++) {
        o.flags = (k & 1) ? ACCEL_GRAPH_NO_FUSION : 0;
        accel_status st = accel_graph_instantiate(l->g, &o);
        if (st != ACCEL_SUCCESS && st != ACCEL_ERROR_INVALID_HANDLE)
            return (void *)1;
    }
    return NULL;
}

Test(graph, instantiate_while_another_thread_rebinds_and_releases)
{
    fx f = fx_open();
    enum { n = 4096 };
    accel_buffer *a, *o, *t;
    tu_ok(accel_buffer_create(f.dev, n * 4, &a));
    tu_ok(accel_buffer_create(f.dev, n * 4, &o));
    tu_ok(accel_queue_begin_capture(f.q));
    tu_ok(accel_buffer_create(f.dev, n * 4, &t));
    tu_ok(accel_scale(f.q, ACCEL_F32, 2.0, accel_slice_of(a, 0, n), accel_slice_of(t, 0, n)));
    tu_ok(accel_add(f.q, ACCEL_F32, accel_slice_of(t, 0, n), accel_slice_of(a, 0, n),
                    accel_slice_of(o, 0, n)));
    inst_loop l = {NULL, 0};
    tu_ok(accel_queue_end_capture(f.q, &l.g));
    pthread_t th;
    cr_assert_eq(pthread_create(&th, NULL, instantiate_until_stopped, &l), 0);
    const void *old = a;
    for (int i = 0; i < 3000; i++) {
        accel_buffer *x;
        tu_ok(accel_buffer_create(f.dev, n * 4, &x));
        accel_status st = accel_graph_set_buffer(l.g, old, x);
        cr_assert(st == ACCEL_SUCCESS || st == ACCEL_ERROR_INVALID_HANDLE, "%s",
                  accel_last_error());
        accel_buffer_release(x);
        old = x;
    }
    l.stop = 1;
    void *rc;
    pthread_join(th, &rc);
    cr_assert_null(rc, "an instantiation failed otherwise than on a released buffer");
    /* bound to a live buffer again, it runs right */
    float h[n];
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 97);
    tu_ok(accel_queue_write_blocking(f.q, a, 0, h, sizeof h));
    tu_ok(accel_graph_set_buffer(l.g, old, a));
    tu_ok(accel_graph_instantiate(l.g, NULL));
    tu_ok(accel_graph_launch(l.g, f.q));
    for (int i = 0; i < n; i += 511)
        cr_assert_eq(read1(f.q, o, (size_t)i), 3.0f * h[i], "o[%d]", i);
    accel_graph_release(l.g);
    accel_buffer_release(a);
    accel_buffer_release(o);
    fx_close(&f);
}

/* A temporary that a later node reads through a wrap of its memory is not
 * dead: fusion dropped its store and the read through the wrap gave
 * uninitialised memory. */
Test(graph, fusion_keeps_a_temporary_read_through_a_wrap)
{
    fx f = fx_open();
    enum { n = 16 };
    accel_buffer *a, *b, *o, *t, *w;
    tu_ok(accel_buffer_create(f.dev, n * 4, &a));
    tu_ok(accel_buffer_create(f.dev, n * 4, &b));
    tu_ok(accel_buffer_create(f.dev, n * 4, &o));
    tu_ok(accel_fill(f.q, ACCEL_F32, 1, accel_slice_of(a, 0, n)));
    tu_ok(accel_fill(f.q, ACCEL_F32, 3, accel_slice_of(b, 0, n)));
    float host[n];
    for (int i = 0; i < n; i++)
        host[i] = -1.0f;
    accel_graph *g;
    tu_ok(accel_queue_begin_capture(f.q));
    tu_ok(accel_buffer_create(f.dev, n * 4, &t)); /* a temporary */
    tu_ok(accel_buffer_wrap(f.dev, accel_buffer_host_pointer(t), n * 4, NULL, NULL, &w));
    tu_ok(accel_scale(f.q, ACCEL_F32, 2.0, accel_slice_of(a, 0, n), accel_slice_of(t, 0, n)));
    tu_ok(accel_add(f.q, ACCEL_F32, accel_slice_of(t, 0, n), accel_slice_of(b, 0, n),
                    accel_slice_of(o, 0, n)));
    tu_ok(accel_queue_read(f.q, w, 0, host, sizeof host));
    tu_ok(accel_queue_end_capture(f.q, &g));
    tu_ok(accel_graph_launch(g, f.q));
    tu_ok(accel_queue_finish(f.q));
    for (int i = 0; i < n; i++) {
        cr_assert_eq(host[i], 2.0f, "t[%d] read through the wrap: %g", i, host[i]);
        cr_assert_eq(read1(f.q, o, (size_t)i), 5.0f, "o[%d]", i);
    }
    accel_graph_release(g);
    accel_buffer_release(w);
    accel_buffer_release(a);
    accel_buffer_release(b);
    accel_buffer_release(o);
    fx_close(&f);
}

/* An array function's kernel takes its element count, offsets and strides
 * as scalars: a graph must not change them (argument 3 set to 48 wrote 32
 * floats past a 16-float output). */
Test(graph, set_scalar_refuses_an_array_functions_kernel)
{
    fx f = fx_open();
    enum { n = 16 };
    accel_buffer *a, *b, *o;
    tu_ok(accel_buffer_create(f.dev, n * 4, &a));
    tu_ok(accel_buffer_create(f.dev, n * 4, &b));
    tu_ok(accel_buffer_create(f.dev, n * 4, &o));
    tu_ok(accel_fill(f.q, ACCEL_F32, 1, accel_slice_of(a, 0, n)));
    tu_ok(accel_fill(f.q, ACCEL_F32, 3, accel_slice_of(b, 0, n)));
    int64_t shape[1] = {n};
    accel_array xa = {.struct_size = sizeof xa}, xb = xa, xo = xa;
    tu_ok(accel_array_init(&xa, a, ACCEL_F32, 1, shape));
    tu_ok(accel_array_init(&xb, b, ACCEL_F32, 1, shape));
    tu_ok(accel_array_init(&xo, o, ACCEL_F32, 1, shape));
    accel_graph *g;
    tu_ok(accel_queue_begin_capture(f.q));
    tu_ok(accel_array_binary(f.q, ACCEL_ARRAY_ADD, &xa, &xb, &xo));
    tu_ok(accel_queue_end_capture(f.q, &g));
    for (uint32_t arg = 0; arg < 8; arg++) {
        tu_assert_status(accel_graph_set_scalar(g, 0, arg, 48.0), ACCEL_ERROR_INVALID_ARGUMENT,
                         "an array kernel's scalar");
        cr_assert(strstr(accel_last_error(), "array function"), "%s", accel_last_error());
    }
    tu_ok(accel_graph_launch(g, f.q));
    for (int i = 0; i < n; i++)
        cr_assert_eq(read1(f.q, o, (size_t)i), 4.0f, "o[%d]", i);
    accel_graph_release(g);
    accel_buffer_release(a);
    accel_buffer_release(b);
    accel_buffer_release(o);
    fx_close(&f);
}

/* A log callback that releases a buffer of the graph while it instantiates
 * (on the fusion's info line): the release is refused, as inside any call
 * that uses the buffer, instead of waiting forever for the pins of its own
 * thread (a review's find: instantiation pins every buffer). */
static accel_buffer *log_victim;
static int log_armed;
static accel_status log_release_status;
static void release_on_fusion_line(int level, const char *msg, void *user)
{
    (void)level;
    (void)user;
    if (log_armed && strstr(msg, "fused")) {
        log_armed = 0;
        accel_buffer_release(log_victim);
        log_release_status = strstr(accel_last_error(), "in use by a call of this thread")
                                 ? ACCEL_SUCCESS
                                 : ACCEL_ERROR_INTERNAL;
    }
}

Test(graph, a_release_from_a_log_callback_inside_instantiate_is_refused, .timeout = 60)
{
    fx f = fx_open();
    enum { n = 64 };
    accel_buffer *a, *b, *o, *t;
    tu_ok(accel_buffer_create(f.dev, n * 4, &a));
    tu_ok(accel_buffer_create(f.dev, n * 4, &b));
    tu_ok(accel_buffer_create(f.dev, n * 4, &o));
    tu_ok(accel_fill(f.q, ACCEL_F32, 2, accel_slice_of(a, 0, n)));
    tu_ok(accel_fill(f.q, ACCEL_F32, 3, accel_slice_of(b, 0, n)));
    accel_graph *g;
    tu_ok(accel_queue_begin_capture(f.q));
    tu_ok(accel_buffer_create(f.dev, n * 4, &t));
    tu_ok(accel_mul(f.q, ACCEL_F32, accel_slice_of(a, 0, n), accel_slice_of(b, 0, n),
                    accel_slice_of(t, 0, n)));
    tu_ok(accel_add(f.q, ACCEL_F32, accel_slice_of(t, 0, n), accel_slice_of(b, 0, n),
                    accel_slice_of(o, 0, n)));
    tu_ok(accel_queue_end_capture(f.q, &g));
    log_victim = a;
    log_armed = 1;
    log_release_status = ACCEL_ERROR_NOT_FOUND;
    accel_set_log_callback(release_on_fusion_line, NULL);
    accel_set_log_level(ACCEL_LOG_DEBUG);
    accel_status st = accel_graph_instantiate(g, NULL);
    accel_set_log_level(ACCEL_LOG_WARN);
    accel_set_log_callback(NULL, NULL);
    tu_ok(st);
    cr_assert_eq(log_armed, 0, "no fusion line was logged");
    cr_assert_eq(log_release_status, ACCEL_SUCCESS, "the release was not refused: %s",
                 accel_last_error());
    tu_ok(accel_graph_launch(g, f.q)); /* a is alive */
    for (int i = 0; i < n; i += 7)
        cr_assert_eq(read1(f.q, o, (size_t)i), 9.0f, "o[%d]", i);
    accel_graph_release(g);
    accel_buffer_release(a);
    accel_buffer_release(b);
    accel_buffer_release(o);
    fx_close(&f);
}

/* After an instantiation refused for a released buffer, rebinding that
 * buffer plans the graph again (it returned success and left the graph
 * unlaunchable: a review's find). */
Test(graph, rebinding_after_a_failed_instantiate_plans_again)
{
    fx f = fx_open();
    enum { n = 64 };
    accel_buffer *a, *a2, *o;
    tu_ok(accel_buffer_create(f.dev, n * 4, &a));
    tu_ok(accel_buffer_create(f.dev, n * 4, &a2));
    tu_ok(accel_buffer_create(f.dev, n * 4, &o));
    tu_ok(accel_fill(f.q, ACCEL_F32, 3, accel_slice_of(a2, 0, n)));
    accel_graph *g;
    tu_ok(accel_queue_begin_capture(f.q));
    tu_ok(accel_add(f.q, ACCEL_F32, accel_slice_of(a, 0, n), accel_slice_of(a, 0, n),
                    accel_slice_of(o, 0, n)));
    tu_ok(accel_queue_end_capture(f.q, &g));
    accel_buffer_release(a);
    tu_assert_status(accel_graph_instantiate(g, NULL), ACCEL_ERROR_INVALID_HANDLE, "released");
    tu_ok(accel_graph_set_buffer(g, a, a2));
    tu_ok(accel_graph_launch(g, f.q));
    for (int i = 0; i < n; i += 7)
        cr_assert_eq(read1(f.q, o, (size_t)i), 6.0f, "o[%d]", i);
    accel_graph_release(g);
    accel_buffer_release(a2);
    accel_buffer_release(o);
    fx_close(&f);
}

/* Instantiating a graph one of whose buffers was released is refused (the
 * plan would read the freed buffer: a use after free found by
 * fuzz/fuzz_graph); rebound, it instantiates and runs again. */
Test(graph, instantiate_after_a_buffer_was_released)
{
    fx f = fx_open();
    enum { n = 64 };
    accel_buffer *a, *c, *c2;
    tu_ok(accel_buffer_create(f.dev, n * 4, &a));
    tu_ok(accel_buffer_create(f.dev, n * 4, &c));
    tu_ok(accel_buffer_create(f.dev, n * 4, &c2));
    float h[n], r[n];
    for (int i = 0; i < n; i++)
        h[i] = (float)i - 20.0f;
    tu_ok(accel_queue_write_blocking(f.q, a, 0, h, sizeof h));
    accel_graph *g;
    tu_ok(accel_queue_begin_capture(f.q));
    tu_ok(accel_add(f.q, ACCEL_F32, accel_slice_of(a, 0, n), accel_slice_of(a, 0, n),
                    accel_slice_of(c, 0, n)));
    tu_ok(accel_scale(f.q, ACCEL_F32, 3.0, accel_slice_of(c, 0, n), accel_slice_of(c, 0, n)));
    tu_ok(accel_queue_end_capture(f.q, &g));
    accel_buffer_release(c);
    for (uint32_t flags = 0; flags < 4; flags++) {
        accel_graph_options o;
        accel_graph_options_init(&o);
        o.flags = flags;
        tu_assert_status(accel_graph_instantiate(g, &o), ACCEL_ERROR_INVALID_HANDLE, "c released");
        cr_assert(strstr(accel_last_error(), "was released"), "%s", accel_last_error());
        tu_assert_status(accel_graph_launch(g, f.q), ACCEL_ERROR_INVALID_ARGUMENT,
                         "not instantiated");
    }
    tu_ok(accel_graph_set_buffer(g, c, c2));
    tu_ok(accel_graph_instantiate(g, NULL));
    tu_ok(accel_graph_launch(g, f.q));
    tu_ok(accel_queue_read_blocking(f.q, c2, 0, r, sizeof r));
    for (int i = 0; i < n; i++)
        cr_assert_eq(r[i], 3.0f * (h[i] + h[i]), "r[%d] = %g", i, r[i]);
    accel_graph_release(g);
    accel_buffer_release(a);
    accel_buffer_release(c2);
    fx_close(&f);
}

/* A rebinding applies to later launches only, also while one is queued. */
Test(graph, rebind_while_a_launch_is_queued)
{
    fx f = fx_open();
    enum { n = 1 << 16 };
    accel_buffer *x, *y[20];
    tu_ok(accel_buffer_create(f.dev, n * 4, &x));
    for (int i = 0; i < 20; i++)
        tu_ok(accel_buffer_create(f.dev, n * 4, &y[i]));
    accel_graph *g;
    tu_ok(accel_queue_begin_capture(f.q));
    tu_ok(accel_fill(f.q, ACCEL_F32, 0.0, accel_slice_of(x, 0, n)));
    for (int i = 0; i < 8; i++)
        tu_ok(accel_sqrt(f.q, ACCEL_F32, accel_slice_of(x, 0, n), accel_slice_of(x, 0, n)));
    tu_ok(accel_queue_end_capture(f.q, &g));
    for (int i = 0; i < 20; i++) {
        tu_ok(accel_graph_set_scalar(g, 0, 0, (double)i * (double)i));
        tu_ok(accel_graph_launch(g, f.q));
        tu_ok(accel_copy(f.q, ACCEL_F32, accel_slice_of(x, 0, n), accel_slice_of(y[i], 0, n)));
    }
    tu_ok(accel_queue_finish(f.q));
    for (int i = 0; i < 20; i++) {
        float want = (float)(i * i);
        for (int k = 0; k < 8; k++)
            want = sqrtf(want);
        cr_assert_eq(read1(f.q, y[i], n - 1), want, "launch %d", i);
    }
    accel_graph_release(g);
    accel_buffer_release(x);
    for (int i = 0; i < 20; i++)
        accel_buffer_release(y[i]);
    fx_close(&f);
}

Test(graph, temporaries_belong_to_the_graph)
{
    fx f = fx_open();
    enum { n = 128 };
    accel_buffer *a, *out, *t1, *t2;
    tu_ok(accel_buffer_create(f.dev, n * 4, &a));
    tu_ok(accel_buffer_create(f.dev, n * 4, &out));
    tu_ok(accel_fill(f.q, ACCEL_F32, 2.0, accel_slice_of(a, 0, n)));
    accel_graph *g;
    tu_ok(accel_queue_begin_capture(f.q));
    tu_ok(accel_buffer_create(f.dev, n * 4, &t1));
    tu_ok(accel_buffer_create(f.dev, n * 4, &t2));
    tu_ok(accel_mul(f.q, ACCEL_F32, accel_slice_of(a, 0, n), accel_slice_of(a, 0, n),
                    accel_slice_of(t1, 0, n)));
    tu_ok(accel_exp(f.q, ACCEL_F32, accel_slice_of(t1, 0, n), accel_slice_of(t2, 0, n)));
    tu_ok(accel_log(f.q, ACCEL_F32, accel_slice_of(t2, 0, n), accel_slice_of(out, 0, n)));
    tu_ok(accel_queue_end_capture(f.q, &g));
    cr_assert_eq(accel_graph_temporary_count(g), 2);
    /* A user release of a temporary does nothing; the graph still runs. */
    accel_buffer_release(t1);
    cr_assert_eq(accel_buffer_size(t1), n * 4);
    tu_assert_status(accel_graph_set_buffer(g, t2, a), ACCEL_ERROR_INVALID_ARGUMENT, "temp");
    tu_assert_status(accel_graph_set_buffer(g, a, t2), ACCEL_ERROR_INVALID_ARGUMENT, "temp");
    tu_ok(accel_graph_launch(g, f.q));
    tu_ok(accel_queue_finish(f.q));
    /* log(exp(4)) within a few ulps of 4 (exp, log <= 4 ulp each). */
    float v = read1(f.q, out, 9);
    cr_assert(fabsf(v - 4.0f) <= 8 * 4.0f * 1.2e-7f * 8, "log(exp(4)) = %.9g", v);
    accel_graph_release(g);
    /* Released with the graph. */
    cr_assert_eq(accel_buffer_size(t1), 0);
    cr_assert_eq(accel_buffer_size(t2), 0);
    accel_buffer_release(a);
    accel_buffer_release(out);
    fx_close(&f);
}

/* ------------------------------------------------------ misuse errors */

Test(graph, capture_misuse_is_an_error_not_a_deadlock)
{
    fx f = fx_open();
    accel_buffer *x;
    tu_ok(accel_buffer_create(f.dev, 64, &x));
    accel_queue *q2;
    tu_ok(accel_queue_create(f.dev, &q2));
    accel_event *outside, *inside;
    tu_ok(accel_event_create(f.dev, &outside));
    tu_ok(accel_event_create(f.dev, &inside));
    tu_ok(accel_event_record(outside, q2));
    accel_graph *g = NULL;
    float h[16] = {0};

    tu_assert_status(accel_queue_end_capture(f.q, &g), ACCEL_ERROR_INVALID_ARGUMENT,
                     "end without begin");
    cr_assert_null(g);
    tu_ok(accel_queue_begin_capture(f.q));
    tu_assert_status(accel_queue_begin_capture(f.q), ACCEL_ERROR_INVALID_ARGUMENT, "nested");
    tu_assert_status(accel_queue_begin_capture(q2), ACCEL_ERROR_INVALID_ARGUMENT,
                     "second queue on one thread");
    tu_assert_status(accel_queue_finish(f.q), ACCEL_ERROR_INVALID_ARGUMENT, "finish");
    cr_assert(strstr(accel_last_error(), "capturing"), "%s", accel_last_error());
    tu_assert_status(accel_queue_write_blocking(f.q, x, 0, h, 64), ACCEL_ERROR_INVALID_ARGUMENT,
                     "blocking write");
    tu_assert_status(accel_queue_read_blocking(f.q, x, 0, h, 64), ACCEL_ERROR_INVALID_ARGUMENT,
                     "blocking read");
    tu_assert_status(accel_queue_wait_event(f.q, outside), ACCEL_ERROR_INVALID_ARGUMENT,
                     "wait on an event outside the capture");
    tu_ok(accel_fill(f.q, ACCEL_F32, 5.0, accel_slice_of(x, 0, 16)));
    tu_ok(accel_event_record(inside, f.q));
    tu_ok(accel_queue_wait_event(f.q, inside)); /* recorded in the capture: ordered */
    tu_assert_status(accel_event_synchronize(inside), ACCEL_ERROR_INVALID_ARGUMENT,
                     "synchronize an event recorded in the capture");
    tu_assert_status(accel_queue_wait_event(q2, inside), ACCEL_ERROR_INVALID_ARGUMENT,
                     "another queue waits on the capture's event");
    /* Validation still runs while capturing. */
    tu_assert_status(accel_fill(f.q, ACCEL_F32, 1.0, accel_slice_of(x, 10, 16)),
                     ACCEL_ERROR_OUT_OF_RANGE, "range checked while capturing");
    tu_ok(accel_queue_end_capture(f.q, &g));
    cr_assert_eq(accel_graph_node_count(g), 2);
    accel_graph *gx = g;
    tu_assert_status(accel_queue_end_capture(f.q, &gx), ACCEL_ERROR_INVALID_ARGUMENT, "end twice");
    cr_assert_null(gx, "a failed end gives NULL");
    tu_ok(accel_queue_begin_capture(f.q));
    accel_graph *g2;
    tu_assert_status(accel_graph_launch(NULL, f.q), ACCEL_ERROR_INVALID_HANDLE, "NULL");
    tu_ok(accel_queue_end_capture(f.q, &g2));
    cr_assert_eq(accel_graph_node_count(g2), 0);
    accel_graph_release(g2);

    /* The event records on launch, and can be waited for then. */
    accel_graph *gl;
    tu_ok(accel_queue_begin_capture(f.q));
    tu_ok(accel_fill(f.q, ACCEL_F32, 5.0, accel_slice_of(x, 0, 16)));
    tu_ok(accel_event_record(inside, f.q));
    tu_ok(accel_queue_end_capture(f.q, &gl));
    tu_ok(accel_graph_launch(gl, q2));
    tu_ok(accel_event_synchronize(inside));
    cr_assert_eq(read1(f.q, x, 15), 5.0f);
    bool native = true;
    tu_ok(accel_graph_backend_replay(gl, &native));
    cr_assert(!native, "a graph with an event record is replayed by the core");
    accel_graph_release(gl);

    /* Launch on a capturing queue. */
    tu_ok(accel_queue_begin_capture(q2));
    tu_assert_status(accel_graph_launch(g, q2), ACCEL_ERROR_INVALID_ARGUMENT, "capturing");
    accel_graph *g3;
    tu_ok(accel_queue_end_capture(q2, &g3));
    accel_graph_release(g3);

    /* Released graph. */
    accel_graph_release(g);
    tu_assert_status(accel_graph_launch(g, f.q), ACCEL_ERROR_INVALID_HANDLE, "released graph");
    cr_assert_eq(accel_graph_node_count(g), 0);
    accel_graph_release(NULL);

    accel_event_release(outside);
    accel_event_release(inside);
    accel_queue_release(q2);
    accel_buffer_release(x);
    fx_close(&f);
}

/* A queue released while capturing drops the capture; the thread may
 * capture again. */
Test(graph, queue_released_while_capturing)
{
    fx f = fx_open();
    accel_queue *q2;
    tu_ok(accel_queue_create(f.dev, &q2));
    accel_buffer *t;
    tu_ok(accel_queue_begin_capture(q2));
    tu_ok(accel_buffer_create(f.dev, 64, &t));
    tu_ok(accel_fill(q2, ACCEL_F32, 1.0, accel_slice_of(t, 0, 16)));
    accel_queue_release(q2);
    /* The temporary is the caller's again. */
    accel_buffer_release(t);
    cr_assert_eq(accel_buffer_size(t), 0);
    accel_graph *g;
    tu_ok(accel_queue_begin_capture(f.q));
    tu_ok(accel_queue_end_capture(f.q, &g));
    accel_graph_release(g);
    fx_close(&f);
}

/* --------------------------------- a backend without graph entries (mock) */

static accel_runtime *open_cpu_mock(accel_device **cpu, accel_device **mock)
{
    accel_runtime *rt = NULL;
    tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = cpu, mock\n[backend.cpu]\nlibrary = %s\n"
                             "[backend.mock]\nlibrary = %s\n",
                             TU_CPU_PLUGIN, TU_TEST_PLUGIN("mock")),
                      &rt, NULL));
    tu_ok(accel_device_get_by_name(rt, "cpu", cpu));
    tu_ok(accel_device_get_by_name(rt, "mock", mock));
    return rt;
}

Test(graph, backend_without_entries_gets_the_core_replay)
{
    accel_device *cpu, *mock;
    accel_runtime *rt = open_cpu_mock(&cpu, &mock);
    accel_queue *qm, *qc;
    tu_ok(accel_queue_create(mock, &qm));
    tu_ok(accel_queue_create(cpu, &qc));
    accel_buffer *x;
    tu_ok(accel_buffer_create(mock, 16 * 4, &x));
    float h[16];
    accel_graph *g;
    tu_ok(accel_queue_begin_capture(qm));
    tu_ok(accel_fill(qm, ACCEL_F32, 2.5, accel_slice_of(x, 0, 16)));
    tu_ok(accel_queue_read(qm, x, 0, h, sizeof h));
    tu_ok(accel_queue_end_capture(qm, &g));
    bool native = true;
    tu_ok(accel_graph_backend_replay(g, &native));
    cr_assert(!native);
    memset(h, 0, sizeof h);
    tu_ok(accel_graph_launch(g, qm));
    tu_ok(accel_queue_finish(qm));
    for (int i = 0; i < 16; i++)
        cr_assert_eq(h[i], 2.5f);
    /* Another device's queue. */
    tu_assert_status(accel_graph_launch(g, qc), ACCEL_ERROR_DEVICE_MISMATCH, "cpu queue");
    cr_assert(strstr(accel_last_error(), "mock"), "%s", accel_last_error());
    /* An asynchronous failure inside a replay is sticky on the queue. */
    tu_ok(accel_graph_set_scalar(g, 0, 0, TU_MOCK_FAULT_VALUE));
    tu_ok(accel_graph_launch(g, qm));
    accel_status st = accel_queue_finish(qm);
    cr_assert(st != ACCEL_SUCCESS, "the planted fault was not reported");
    cr_assert(strstr(accel_last_error(), "accel_fill"), "%s", accel_last_error());
    accel_graph_release(g);
    accel_buffer_release(x);
    accel_queue_release(qm);
    accel_queue_release(qc);
    accel_runtime_close(rt);
}

/* A graph left alive is freed by accel_runtime_close (leak checkers see it). */
Test(graph, close_frees_live_graphs)
{
    fx f = fx_open();
    accel_buffer *t;
    accel_graph *g;
    tu_ok(accel_queue_begin_capture(f.q));
    tu_ok(accel_buffer_create(f.dev, 64, &t));
    tu_ok(accel_fill(f.q, ACCEL_F32, 1.0, accel_slice_of(t, 0, 16)));
    tu_ok(accel_queue_end_capture(f.q, &g));
    tu_ok(accel_graph_launch(g, f.q));
    fx_close(&f);
}

/* A user kernel launch inside a capture is recorded (a deep copy; the kernel
 * is kept by the graph even after accel_kernel_release), replayed through
 * the backend's entries and the core, and its scalar and buffer arguments
 * rebound. Elementwise ops before it fuse; the kernel ends the run. */
Test(graph, user_kernel_launches_are_recorded_and_rebound)
{
    fx f = fx_open();
    enum { KN = 300 };
    accel_kernel *k;
    tu_ok(accel_kernel_elementwise_create(f.rt, "saxpy", "float32 a, float32 x, float32 y",
                                          "float32 z", "z = a * x + y", NULL, &k));
    accel_buffer *x, *x2, *y, *z;
    tu_ok(accel_buffer_create(f.dev, KN * 4, &x));
    tu_ok(accel_buffer_create(f.dev, KN * 4, &x2));
    tu_ok(accel_buffer_create(f.dev, KN * 4, &y));
    tu_ok(accel_buffer_create(f.dev, KN * 4, &z));
    float hx[KN], hy[KN], hz[KN];
    for (int i = 0; i < KN; i++) {
        hx[i] = (float)i * 0.25f;
        hy[i] = 1.0f - (float)i;
    }
    tu_ok(accel_queue_write(f.q, x, 0, hx, sizeof hx));
    tu_ok(accel_queue_write(f.q, y, 0, hy, sizeof hy));
    tu_ok(accel_queue_finish(f.q));
    accel_graph *g;
    tu_ok(accel_queue_begin_capture(f.q));
    tu_ok(accel_scale(f.q, ACCEL_F32, 2.0, accel_slice_of(y, 0, KN), accel_slice_of(z, 0, KN)));
    tu_ok(accel_add(f.q, ACCEL_F32, accel_slice_of(z, 0, KN), accel_slice_of(y, 0, KN),
                    accel_slice_of(z, 0, KN))); /* z = 3y */
    accel_kernel_arg args[4] = {accel_karg_f32(0.5f), accel_karg_array(accel_slice_of(x, 0, KN)),
                                accel_karg_array(accel_slice_of(z, 0, KN)),
                                accel_karg_array(accel_slice_of(z, 0, KN))};
    tu_ok(accel_kernel_launch(f.q, k, 4, args)); /* z = 0.5 x + 3y */
    tu_ok(accel_queue_read(f.q, z, 0, hz, sizeof hz));
    tu_ok(accel_queue_end_capture(f.q, &g));
    accel_kernel_release(k); /* the graph keeps it */
    cr_assert_eq(accel_graph_node_count(g), 4);
    accel_graph_node_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    tu_ok(accel_graph_node_info_get(g, 2, &info));
    cr_assert_eq(info.op, ACCEL_OP_KERNEL);
    cr_assert_eq(info.bytes, KN);
    cr_assert(strstr(info.name, "saxpy"), "%s", info.name);
    for (int pass = 0; pass < 2; pass++) {
        accel_graph_options opt;
        accel_graph_options_init(&opt);
        opt.flags = pass ? ACCEL_GRAPH_CORE_REPLAY : 0;
        tu_ok(accel_graph_instantiate(g, &opt));
        bool native = !pass;
        tu_ok(accel_graph_backend_replay(g, &native));
        cr_assert_eq(native, !pass);
        tu_ok(accel_graph_node_info_get(g, 0, &info));
        cr_assert(info.fused && strcmp(info.fused, "fused_scale_add") == 0);
        tu_ok(accel_graph_node_info_get(g, 2, &info));
        cr_assert_null(info.fused);
        memset(hz, 0, sizeof hz);
        tu_ok(accel_graph_launch(g, f.q));
        tu_ok(accel_queue_finish(f.q));
        for (int i = 0; i < KN; i++)
            cr_assert_eq(hz[i], 0.5f * hx[i] + 3.0f * hy[i], "pass %d element %d: %g", pass, i,
                         hz[i]);
    }
    /* Rebinding: the scalar a (argument 0) and the array x. */
    tu_ok(accel_graph_set_scalar(g, 2, 0, -1.0));
    tu_assert_status(accel_graph_set_scalar(g, 2, 1, 1.0), ACCEL_ERROR_INVALID_ARGUMENT,
                     "argument 1 is an array");
    for (int i = 0; i < KN; i++)
        hx[i] = (float)(KN - i);
    tu_ok(accel_queue_write(f.q, x2, 0, hx, sizeof hx));
    tu_ok(accel_queue_finish(f.q));
    tu_ok(accel_graph_set_buffer(g, x, x2));
    tu_ok(accel_graph_instantiate(g, NULL));
    tu_ok(accel_graph_launch(g, f.q));
    tu_ok(accel_queue_finish(f.q));
    for (int i = 0; i < KN; i++)
        cr_assert_eq(hz[i], -hx[i] + 3.0f * hy[i], "element %d: %g", i, hz[i]);
    accel_graph_release(g);
    fx_close(&f);
}

/* Rebinding cannot create the aliasing an eager call refuses: after
 * mul(x[0:8], y[0:8] -> z[1:9]), replacing z by x would make the op's
 * output x[1:9] partially overlap its input x[0:8] (eagerly refused; in a
 * replay a silent wrong answer). The rebind is refused, g is unchanged and
 * still computes z; a rebind to a distinct buffer works. Fused and not. */
Test(graph, rebind_refuses_new_aliasing)
{
    for (int fuse = 0; fuse < 2; fuse++) {
        fx f = fx_open();
        accel_buffer *x, *y, *z, *w;
        float hx[9], hy[9];
        for (int i = 0; i < 9; i++) {
            hx[i] = (float)(i + 1);
            hy[i] = 2.0f;
        }
        tu_ok(accel_buffer_create(f.dev, 36, &x));
        tu_ok(accel_buffer_create(f.dev, 36, &y));
        tu_ok(accel_buffer_create(f.dev, 36, &z));
        tu_ok(accel_buffer_create(f.dev, 36, &w));
        tu_ok(accel_queue_write(f.q, x, 0, hx, 36));
        tu_ok(accel_queue_write(f.q, y, 0, hy, 36));
        tu_ok(accel_fill(f.q, ACCEL_F32, 0.0, accel_slice_of(z, 0, 9)));
        tu_ok(accel_fill(f.q, ACCEL_F32, 0.0, accel_slice_of(w, 0, 9)));
        tu_ok(accel_queue_finish(f.q));
        accel_graph *g;
        tu_ok(accel_queue_begin_capture(f.q));
        tu_ok(accel_mul(f.q, ACCEL_F32, accel_slice_of(x, 0, 8), accel_slice_of(y, 0, 8),
                        accel_slice_of(z, 1, 8)));
        tu_ok(accel_add(f.q, ACCEL_F32, accel_slice_of(z, 1, 8), accel_slice_of(y, 0, 8),
                        accel_slice_of(z, 1, 8)));
        tu_ok(accel_queue_end_capture(f.q, &g));
        accel_graph_options opt;
        accel_graph_options_init(&opt);
        opt.flags = fuse ? 0 : ACCEL_GRAPH_NO_FUSION;
        tu_ok(accel_graph_instantiate(g, &opt));
        tu_assert_status(accel_graph_set_buffer(g, z, x), ACCEL_ERROR_INVALID_ARGUMENT, "z -> x");
        cr_assert(strstr(accel_last_error(), "overlap"), "%s", accel_last_error());
        tu_ok(accel_graph_launch(g, f.q));
        for (int i = 0; i < 8; i++) {
            cr_assert_eq(read1(f.q, z, (size_t)i + 1), hx[i] * 2.0f + 2.0f, "z[%d]", i + 1);
            cr_assert_eq(read1(f.q, x, (size_t)i), hx[i], "x[%d] untouched", i);
        }
        tu_ok(accel_graph_set_buffer(g, z, w));
        tu_ok(accel_graph_launch(g, f.q));
        for (int i = 0; i < 8; i++)
            cr_assert_eq(read1(f.q, w, (size_t)i + 1), hx[i] * 2.0f + 2.0f, "w[%d]", i + 1);
        accel_graph_release(g);
        accel_buffer_release(x);
        accel_buffer_release(y);
        accel_buffer_release(z);
        accel_buffer_release(w);
        fx_close(&f);
    }
}
