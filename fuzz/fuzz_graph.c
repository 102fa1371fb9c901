/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* fuzz_graph.c — libFuzzer harness for graph capture (accel/graph.h) on the
 * CPU backend: the input is decoded into a list of queue ops (fill, binary
 * and unary ops, axpby, sum, copies, host writes and reads, events, a user
 * kernel) over four f32 buffers, which is
 *   1. run eagerly LAUNCHES times on fresh buffer contents, then
 *   2. captured once on the same contents and the graph launched LAUNCHES
 *      times (instantiated with the input's flags: fusion and core replay on
 *      or off),
 * and the buffers and host reads of both must agree: bit for bit without
 * fusion, within 1e-5 relative with it (a fused chain keeps intermediates in
 * registers, graph.h). Every call recorded must return the status its eager
 * call returned. The rest of the input is a tail of calls in odd orders
 * (launch, set_scalar, set_buffer, instantiate, release a buffer the graph
 * uses, a nested capture that launches the graph, release the graph and use
 * the stale handle): each must return a status (a failure with a message),
 * never crash, leak or hang.
 *
 * Input: byte 0: flags (bits 0-1: ACCEL_GRAPH_NO_FUSION, ACCEL_GRAPH_CORE_REPLAY;
 * bits 2-3: LAUNCHES - 1); bytes 1-4: the buffers' element counts (1 + b %
 * 64); byte 5: the number of ops (b % 16), 6 bytes each (fuzz_op); the rest:
 * the tail, 3 bytes a call. One runtime on the CPU backend
 * (ACCEL_FUZZ_CPU_PLUGIN, one thread, no disk cache, fused kernels built by
 * the embedded tcc) serves every input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "accel/accel.h"
#include "accel/graph.h"
#include "accel/kernel.h"
#include "fuzz_runtime.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NBUF 4
#define NEL 64
#define MAXOPS 16
#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "fuzz_graph: %s failed (line %d): %s\n", #c, __LINE__,                 \
                    accel_last_error());                                                           \
            __builtin_trap();                                                                      \
        }                                                                                          \
    } while (0)

static accel_runtime *rt;
static accel_device *dev;
static accel_kernel *kern; /* y = x * s + 1 */
static const float host_src[NEL] = {1, -2, 3, 0.5f, -0.25f, 7, 0, -0.0f, 2, 4, 8, 16, -1, -3, 5, 6,
                                    1, -2, 3, 0.5f, -0.25f, 7, 0, -0.0f, 2, 4, 8, 16, -1, -3, 5, 6,
                                    1, -2, 3, 0.5f, -0.25f, 7, 0, -0.0f, 2, 4, 8, 16, -1, -3, 5, 6,
                                    1, -2, 3, 0.5f, -0.25f, 7, 0, -0.0f, 2, 4, 8, 16, -1, -3, 5, 6};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    rt = fuzz_runtime_open("fuzz_graph", "kernel_compiler = tcc\n", &dev);
    if (accel_kernel_elementwise_create(rt, "fzk", "float32 x, float32 s", "float32 y",
                                        "y = x * s + 1", NULL, &kern) != ACCEL_SUCCESS) {
        fprintf(stderr, "fuzz_graph: %s\n", accel_last_error());
        abort();
    }
    return 0;
}

/* One op: b[0] % 10 the kind, b[0] / 10 its variant; b[1] the buffers (a:
 * bits 0-1, b: 2-3, out: 4-5); b[2..4] the offsets of a, b, out (% NEL);
 * b[5] the count (% (NEL + 1)). */
typedef struct fuzz_op {
    uint8_t b[6];
} fuzz_op;

typedef struct fuzz_run {
    accel_queue *q;
    accel_buffer *buf[NBUF];
    accel_event *ev;
    float host[NEL]; /* what reads wrote */
} fuzz_run;

static const accel_op_code binaries[] = {ACCEL_OP_ADD, ACCEL_OP_SUB, ACCEL_OP_MUL,
                                         ACCEL_OP_DIV, ACCEL_OP_MAX, ACCEL_OP_MIN};
static const accel_op_code unaries[] = {ACCEL_OP_NEG, ACCEL_OP_ABS,  ACCEL_OP_SQRT,
                                        ACCEL_OP_EXP, ACCEL_OP_RELU, ACCEL_OP_TANH,
                                        ACCEL_OP_LOG, ACCEL_OP_SIN,  ACCEL_OP_SIGMOID};
static const accel_op_code reductions[] = {ACCEL_OP_SUM, ACCEL_OP_REDUCE_MAX, ACCEL_OP_REDUCE_MIN};

static accel_status run_op(fuzz_run *r, const fuzz_op *op)
{
    const uint8_t *b = op->b;
    unsigned v = b[0] / 10u;
    accel_buffer *A = r->buf[b[1] & 3], *B = r->buf[(b[1] >> 2) & 3], *O = r->buf[(b[1] >> 4) & 3];
    size_t oa = b[2] % NEL, ob = b[3] % NEL, oo = b[4] % NEL, n = b[5] % (NEL + 1);
    accel_slice sa = accel_slice_of(A, oa, n), sb = accel_slice_of(B, ob, n),
                so = accel_slice_of(O, oo, n);
    double val = (double)(v % 9) - 4.0;
    switch (b[0] % 10) {
    case 0:
        return accel_fill(r->q, ACCEL_F32, val, so);
    case 1:
        return accel_binary(r->q, binaries[v % 6], ACCEL_F32, sa, sb, so);
    case 2:
        return accel_unary(r->q, unaries[v % 9], ACCEL_F32, sa, so);
    case 3:
        return v & 1 ? accel_scale(r->q, ACCEL_F32, val, sa, so)
                     : accel_axpby(r->q, ACCEL_F32, val, sa, 0.5, so);
    case 4:
        return accel_reduce(r->q, reductions[v % 3], ACCEL_F32, sa, accel_slice_of(O, oo, 1));
    case 5:
        return accel_queue_copy(r->q, A, oa * 4, O, oo * 4, n * 4);
    case 6:
        return accel_queue_write(r->q, O, oo * 4, host_src + oa,
                                 n * 4 <= (NEL - oa) * 4 ? n * 4 : 0);
    case 7:
        return accel_queue_read(r->q, A, oa * 4, r->host + oo, oo + n <= NEL ? n * 4 : 0);
    case 8: {
        accel_status st = accel_event_record(r->ev, r->q);
        return st == ACCEL_SUCCESS ? accel_queue_wait_event(r->q, r->ev) : st;
    }
    default: {
        accel_kernel_arg args[3] = {accel_karg_array(sa), accel_karg_f32((float)val),
                                    accel_karg_array(so)};
        return accel_kernel_launch(r->q, kern, 3, args);
    }
    }
}

/* Fresh buffers of the input's sizes, filled with a pattern. */
static void run_init(fuzz_run *r, const uint8_t *sizes)
{
    memset(r, 0, sizeof *r);
    CHECK(accel_queue_create(dev, &r->q) == ACCEL_SUCCESS);
    CHECK(accel_event_create(dev, &r->ev) == ACCEL_SUCCESS);
    for (int i = 0; i < NBUF; i++) {
        size_t n = 1 + sizes[i] % NEL;
        float init[NEL];
        for (size_t j = 0; j < n; j++)
            init[j] = (float)((int)((j * 7 + (size_t)i) % 11) - 5) * 0.5f;
        CHECK(accel_buffer_create(dev, n * 4, &r->buf[i]) == ACCEL_SUCCESS);
        CHECK(accel_queue_write_blocking(r->q, r->buf[i], 0, init, n * 4) == ACCEL_SUCCESS);
    }
}

/* The buffers' contents after the queue drained, into out[NBUF][NEL]. */
static void run_read(fuzz_run *r, float out[NBUF][NEL])
{
    memset(out, 0, sizeof(float) * NBUF * NEL);
    CHECK(accel_queue_finish(r->q) == ACCEL_SUCCESS);
    for (int i = 0; i < NBUF; i++)
        CHECK(accel_queue_read_blocking(r->q, r->buf[i], 0, out[i], accel_buffer_size(r->buf[i])) ==
              ACCEL_SUCCESS);
}

static void run_free(fuzz_run *r)
{
    for (int i = 0; i < NBUF; i++)
        accel_buffer_release(r->buf[i]);
    accel_event_release(r->ev);
    accel_queue_release(r->q);
}

static bool same(float e, float g, bool exact)
{
    if (exact)
        return memcmp(&e, &g, sizeof e) == 0;
    if (isnan(e) || isnan(g))
        return isnan(e) && isnan(g);
    if (isinf(e) || isinf(g))
        return e == g;
    return fabsf(e - g) <= 1e-5f * fmaxf(1.0f, fabsf(e));
}

static void compare(const float *e, const float *g, size_t n, bool exact, const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (!same(e[i], g[i], exact)) {
            fprintf(stderr, "fuzz_graph: %s[%zu]: eager %a, graph %a\n", what, i, (double)e[i],
                    (double)g[i]);
            __builtin_trap();
        }
}

/* A failed call names why. */
static void checked(accel_status st)
{
    if (st != ACCEL_SUCCESS && !accel_last_error()[0])
        __builtin_trap();
}

static void tail_call(fuzz_run *r, accel_graph **g, const uint8_t *c)
{
    accel_status st = ACCEL_SUCCESS;
    switch (c[0] % 8) {
    case 0:
        st = accel_graph_launch(*g, r->q);
        break;
    case 1:
        st = accel_graph_set_scalar(*g, c[1] % (accel_graph_node_count(*g) + 2), c[2] % 3,
                                    (double)c[2] - 128.0);
        break;
    case 2:
        st = accel_graph_set_buffer(*g, r->buf[c[1] & 3], r->buf[c[2] & 3]);
        break;
    case 3: { /* replace a buffer: a released one the graph uses fails its launches */
        accel_buffer_release(r->buf[c[1] & 3]);
        CHECK(accel_buffer_create(dev, 4 * (1 + c[2] % NEL), &r->buf[c[1] & 3]) == ACCEL_SUCCESS);
        break;
    }
    case 4: {
        accel_graph_options o;
        accel_graph_options_init(&o);
        o.flags = c[1] & 3;
        st = accel_graph_instantiate(*g, &o);
        break;
    }
    case 5: { /* a capture that records a launch of g */
        accel_graph *g2 = NULL;
        CHECK(accel_queue_begin_capture(r->q) == ACCEL_SUCCESS);
        checked(accel_graph_launch(*g, r->q));
        if (c[1] & 1)
            checked(accel_queue_begin_capture(r->q)); /* twice: refused */
        st = accel_queue_end_capture(r->q, &g2);
        CHECK((st == ACCEL_SUCCESS) == (g2 != NULL));
        if (g2 && (c[2] & 1))
            checked(accel_graph_launch(g2, r->q));
        accel_graph_release(g2);
        break;
    }
    case 6: /* release early: the stale handle is refused from then on */
        accel_graph_release(*g);
        CHECK(accel_graph_launch(*g, r->q) == ACCEL_ERROR_INVALID_HANDLE);
        *g = NULL;
        break;
    default:
        st = accel_queue_finish(r->q);
        break;
    }
    checked(st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 6)
        return 0;
    unsigned flags = data[0] & 3u, launches = 1 + ((data[0] >> 2) & 3u);
    size_t nops = data[5] % MAXOPS;
    if (size < 6 + nops * sizeof(fuzz_op))
        return 0;
    const fuzz_op *ops = (const fuzz_op *)(data + 6);
    accel_status est[MAXOPS];
    static float eager[NBUF][NEL], replay[NBUF][NEL];
    static fuzz_run r;

    run_init(&r, data + 1);
    for (unsigned l = 0; l < launches; l++)
        for (size_t i = 0; i < nops; i++)
            checked(est[i] = run_op(&r, &ops[i]));
    run_read(&r, eager);
    float eager_host[NEL];
    memcpy(eager_host, r.host, sizeof eager_host);
    run_free(&r);

    run_init(&r, data + 1);
    accel_graph *g = NULL;
    CHECK(accel_queue_begin_capture(r.q) == ACCEL_SUCCESS);
    for (size_t i = 0; i < nops; i++) {
        accel_status st = run_op(&r, &ops[i]);
        if (st != est[i]) {
            fprintf(stderr, "fuzz_graph: op %zu: eager %s, captured %s (%s)\n", i,
                    accel_status_name(est[i]), accel_status_name(st), accel_last_error());
            __builtin_trap();
        }
    }
    CHECK(accel_queue_end_capture(r.q, &g) == ACCEL_SUCCESS && g);
    accel_graph_options o;
    accel_graph_options_init(&o);
    o.flags = flags;
    CHECK(accel_graph_instantiate(g, &o) == ACCEL_SUCCESS);
    for (unsigned l = 0; l < launches; l++)
        CHECK(accel_graph_launch(g, r.q) == ACCEL_SUCCESS);
    run_read(&r, replay);
    bool exact = (flags & ACCEL_GRAPH_NO_FUSION) != 0;
    compare(&eager[0][0], &replay[0][0], NBUF * NEL, exact, "buffers");
    compare(eager_host, r.host, NEL, exact, "host");

    for (size_t at = 6 + nops * sizeof(fuzz_op); at + 3 <= size && g; at += 3)
        tail_call(&r, &g, data + at);
    checked(accel_queue_finish(r.q));
    accel_graph_release(g);
    run_free(&r);
    return 0;
}
