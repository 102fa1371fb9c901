/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_graph_cuda.c — what only a GPU can show about graphs and the small
 * elementwise ops they are made of: the CUDA graph entry captures one kernel
 * node per elementwise op and nothing else (its info line, checked by
 * count and type), and the elementwise kernels give a plain host loop's
 * results on both sides of the small-size path (up to 64Ki elements: one
 * item per thread) and the large one, for aligned and misaligned operands,
 * exactly where the op is correctly rounded and within 4 ulp for exp. Every
 * test skips with a visible message where there is no CUDA device. */
#define _XOPEN_SOURCE 700
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static accel_runtime *rt;
static accel_device *gpu;

static void need_gpu(void)
{
    rt = tu_open_default();
    if (accel_device_get_by_name(rt, "cuda:0", &gpu) != ACCEL_SUCCESS) {
        accel_runtime_close(rt);
        rt = NULL;
        /* Also on stderr: ctest marks the suite skipped on this line. */
        fprintf(stderr, "no CUDA device, GPU test skipped\n");
        cr_skip_test("no CUDA device, GPU test skipped");
    }
}

static void done(void)
{
    accel_runtime_close(rt);
    rt = NULL;
}

TestSuite(graph_cuda, .init = need_gpu, .fini = done, .timeout = 300);

static char node_line[512];

static void capture_line(int level, const char *message, void *user)
{
    (void)level, (void)user;
    /* The backend's lines come prefixed with its name ("cuda: graph: ..."). */
    const char *p = strstr(message, ": graph: ");
    if (p && strstr(p, " recorded nodes captured as "))
        snprintf(node_line, sizeof node_line, "%s", p + 2);
}

static accel_slice sl(accel_buffer *b, size_t off, size_t n)
{
    accel_slice s = {b, off, n};
    return s;
}

/* 12 elementwise ops of four kinds and a device copy: 12 kernel nodes and
 * one memcpy node, no event, memset or empty node. */
Test(graph_cuda, one_kernel_node_per_elementwise_op)
{
    const size_t n = 1024;
    accel_queue *q;
    accel_buffer *x, *y, *z;
    tu_ok(accel_queue_create(gpu, &q));
    tu_ok(accel_buffer_create(gpu, n * 4, &x));
    tu_ok(accel_buffer_create(gpu, n * 4, &y));
    tu_ok(accel_buffer_create(gpu, n * 4, &z));
    tu_ok(accel_fill(q, ACCEL_F32, 1.0, sl(x, 0, n)));
    tu_ok(accel_fill(q, ACCEL_F32, 2.0, sl(y, 0, n)));
    tu_ok(accel_queue_begin_capture(q));
    for (int i = 0; i < 3; i++) {
        tu_ok(accel_add(q, ACCEL_F32, sl(x, 0, n), sl(y, 0, n), sl(z, 0, n)));
        tu_ok(accel_mul(q, ACCEL_F32, sl(z, 0, n), sl(y, 0, n), sl(x, 0, n)));
        tu_ok(accel_scale(q, ACCEL_F32, 0.25, sl(x, 0, n), sl(x, 0, n)));
        tu_ok(accel_relu(q, ACCEL_F32, sl(x, 0, n), sl(x, 0, n)));
    }
    tu_ok(accel_queue_copy(q, x, 0, z, 0, n * 4));
    accel_graph *g;
    tu_ok(accel_queue_end_capture(q, &g));
    accel_graph_options opt;
    accel_graph_options_init(&opt);
    opt.flags = ACCEL_GRAPH_NO_FUSION;
    node_line[0] = '\0';
    accel_set_log_callback(capture_line, NULL);
    accel_set_log_level(ACCEL_LOG_INFO);
    accel_status st = accel_graph_instantiate(g, &opt);
    accel_set_log_level(ACCEL_LOG_WARN);
    accel_set_log_callback(NULL, NULL);
    tu_ok(st);
    bool native = false;
    tu_ok(accel_graph_backend_replay(g, &native));
    cr_assert(native, "the CUDA backend refused the graph: %s", accel_last_error());
    cr_assert_str_eq(node_line, "graph: 13 recorded nodes captured as 13 CUDA graph nodes "
                                "(12 kernel, 1 memcpy, 0 memset, 0 event, 0 other)");
    /* And it computes: x = relu((x + 2) * 2 / 4) three times from 1: 1.5, 1.75, 1.875. */
    tu_ok(accel_graph_launch(g, q));
    float *h = malloc(n * 4);
    cr_assert(h);
    tu_ok(accel_queue_read_blocking(q, z, 0, h, n * 4));
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(h[i], 1.875f, "z[%zu] = %.9g", i, h[i]);
    free(h);
    accel_graph_release(g);
    accel_buffer_release(x);
    accel_buffer_release(y);
    accel_buffer_release(z);
    accel_queue_release(q);
}

/* A value in [-2, 2) with a full mantissa, from i and a salt. */
static float val(size_t i, unsigned salt)
{
    uint64_t h = (i + 1) * 0x9E3779B97F4A7C15ull ^ (uint64_t)salt * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
    return (float)((double)(h >> 11) / 9007199254740992.0 * 4.0 - 2.0);
}

enum {
    OP_ADD,
    OP_MUL,
    OP_DIV,
    OP_MAX,
    OP_SQRT,
    OP_RELU,
    OP_EXP,
    OP_SCALE,
    OP_AXPBY,
    OP_FILL,
    NOPS
};
static const char *const op_names[NOPS] = {"add",  "mul", "div",   "max",   "sqrt",
                                           "relu", "exp", "scale", "axpby", "fill"};

static accel_status run_op(accel_queue *q, int op, accel_slice a, accel_slice b, accel_slice o)
{
    switch (op) {
    case OP_ADD:
        return accel_add(q, ACCEL_F32, a, b, o);
    case OP_MUL:
        return accel_mul(q, ACCEL_F32, a, b, o);
    case OP_DIV:
        return accel_div(q, ACCEL_F32, a, b, o);
    case OP_MAX:
        return accel_max(q, ACCEL_F32, a, b, o);
    case OP_SQRT:
        return accel_sqrt(q, ACCEL_F32, a, o);
    case OP_RELU:
        return accel_relu(q, ACCEL_F32, a, o);
    case OP_EXP:
        return accel_exp(q, ACCEL_F32, a, o);
    case OP_SCALE:
        return accel_scale(q, ACCEL_F32, 0.75, a, o);
    case OP_AXPBY:
        return accel_axpby(q, ACCEL_F32, 1.5, a, -0.5, o);
    default:
        return accel_fill(q, ACCEL_F32, -3.25, o);
    }
}

/* The host's value of element i: the op in the precision the backends
 * document (f32 correctly rounded; axpby in double, rounded once); exp in
 * double, compared within 4 ulp. old is the output's value before the op. */
static double ref_op(int op, float a, float b, float old)
{
    switch (op) {
    case OP_ADD:
        return (float)(a + b);
    case OP_MUL:
        return (float)(a * b);
    case OP_DIV:
        return (float)(a / b);
    case OP_MAX:
        return a > b ? a : b;
    case OP_SQRT:
        return sqrtf(a);
    case OP_RELU:
        return a > 0 ? a : 0.0f;
    case OP_EXP:
        return exp((double)a);
    case OP_SCALE:
        return (float)(0.75f * a);
    case OP_AXPBY:
        return (float)(1.5 * (double)a + -0.5 * (double)old);
    default:
        return -3.25f;
    }
}

Test(graph_cuda, small_and_large_elementwise_paths_match_a_host_loop)
{
    static const size_t sizes[] = {1,    3,    4,     5,     255,   1023, 1024,
                                   1027, 4096, 65535, 65536, 65537, 70001};
    static const size_t offs[][3] = {{0, 0, 0}, {1, 1, 1}, {3, 3, 3},
                                     {0, 1, 2}, {2, 0, 0}, {0, 0, 1}};
    const size_t cap = 70001 + 8;
    accel_queue *q;
    accel_buffer *ba, *bb, *bo;
    tu_ok(accel_queue_create(gpu, &q));
    tu_ok(accel_buffer_create(gpu, cap * 4, &ba));
    tu_ok(accel_buffer_create(gpu, cap * 4, &bb));
    tu_ok(accel_buffer_create(gpu, cap * 4, &bo));
    float *ha = malloc(cap * 4), *hb = malloc(cap * 4), *ho = malloc(cap * 4),
          *got = malloc(cap * 4);
    cr_assert(ha && hb && ho && got);
    for (size_t i = 0; i < cap; i++) {
        ha[i] = val(i, 1);
        hb[i] = val(i, 2);
        if (hb[i] == 0)
            hb[i] = 1;
        ho[i] = val(i, 3);
    }
    tu_ok(accel_queue_write(q, ba, 0, ha, cap * 4));
    tu_ok(accel_queue_write(q, bb, 0, hb, cap * 4));
    size_t checked = 0;
    for (int op = 0; op < NOPS; op++)
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
            for (size_t oi = 0; oi < sizeof offs / sizeof *offs; oi++) {
                const size_t n = sizes[si], oa = offs[oi][0], ob = offs[oi][1], oo = offs[oi][2];
                tu_ok(accel_queue_write(q, bo, 0, ho, cap * 4));
                tu_ok(run_op(q, op, sl(ba, oa, n), sl(bb, ob, n), sl(bo, oo, n)));
                tu_ok(accel_queue_read_blocking(q, bo, 0, got, cap * 4));
                for (size_t i = 0; i < cap; i++) {
                    bool in = i >= oo && i < oo + n;
                    if (!in) {
                        cr_assert(memcmp(&got[i], &ho[i], 4) == 0,
                                  "%s n=%zu offsets %zu/%zu/%zu: element %zu outside the range "
                                  "changed",
                                  op_names[op], n, oa, ob, oo, i);
                        continue;
                    }
                    size_t k = i - oo;
                    double want = ref_op(op, ha[oa + k], hb[ob + k], ho[i]);
                    if (op == OP_EXP) {
                        cr_assert(tu_ulp_diff(ACCEL_F32, got[i], want) <= 4,
                                  "exp n=%zu offsets %zu/%zu: element %zu = %.9g, want %.9g", n, oa,
                                  oo, k, got[i], want);
                    } else {
                        float w = (float)want;
                        cr_assert((isnan(w) && isnan(got[i])) || memcmp(&got[i], &w, 4) == 0,
                                  "%s n=%zu offsets %zu/%zu/%zu: element %zu = %.9g, want %.9g",
                                  op_names[op], n, oa, ob, oo, k, got[i], w);
                    }
                    checked++;
                }
            }
    cr_log_info("%zu elements checked", checked);
    free(ha), free(hb), free(ho), free(got);
    accel_buffer_release(ba);
    accel_buffer_release(bb);
    accel_buffer_release(bo);
    accel_queue_release(q);
}
