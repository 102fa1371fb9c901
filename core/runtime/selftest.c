/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/check/selftest.c — the load-time self-test: right after a backend has
 * initialized, a write/read round trip, one elementwise op (add, f32) and one
 * small GEMM (f32, 5x3 by k = 4, with a transposed A) on its device 0, each
 * compared with a plain loop here. Ops the backend declares unsupported are
 * not tested. A backend that fails is shut down and recorded as not loaded,
 * with the reason that `accel info` shows. Tiny sizes: it costs a few queue
 * round trips per backend. [runtime] selftest = false skips it. */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/loader.h"
#include "base/objects.h"
#include "base/status.h"
#include "base/struct_size.h"
#include "runtime/selftest.h"

#define ST_N 37
#define ST_M 5
#define ST_K 4
#define ST_P 3

typedef struct st_ctx {
    accel__backend *be;
    accel_be_queue *q;
    char why[512];
} st_ctx;

static int32_t st_fail(st_ctx *c, int32_t rc, const char *what)
{
    if (!c->why[0])
        snprintf(c->why, sizeof c->why, "%s: %s", what,
                 *accel_last_error() ? accel_last_error() : accel_status_string((accel_status)rc));
    return rc;
}

/* Round trip: distinct bytes written at an odd offset and read back. */
static int32_t st_round_trip(st_ctx *c, accel_be_buffer *buf)
{
    const accel_backend *vt = c->be->vt;
    void *ctx = c->be->ctx;
    unsigned char out[101], back[101];
    for (int i = 0; i < 101; i++)
        out[i] = (unsigned char)(i * 7 + 3);
    memset(back, 0, sizeof back);
    int32_t rc = vt->queue_write(ctx, c->q, buf, 3, out, sizeof out);
    if (rc == ACCEL_SUCCESS)
        rc = vt->queue_read(ctx, c->q, buf, 3, back, sizeof back);
    if (rc == ACCEL_SUCCESS)
        rc = vt->queue_finish(ctx, c->q);
    if (rc != ACCEL_SUCCESS)
        return st_fail(c, rc, "write/read round trip");
    if (memcmp(out, back, sizeof out) != 0) {
        size_t i = 0;
        while (out[i] == back[i])
            i++;
        snprintf(c->why, sizeof c->why,
                 "write/read round trip: byte %zu read back as %u, written as %u", i, back[i],
                 out[i]);
        return ACCEL_ERROR_MISMATCH;
    }
    return ACCEL_SUCCESS;
}

/* A descriptor of op on three f32 operands, in the buffers buf. */
static accel_op_desc st_desc(uint32_t op, const char *name, accel_be_buffer *const *buf,
                             const size_t counts[3])
{
    accel_op_desc d;
    accel__struct_init(&d, sizeof d);
    d.op = op;
    d.dtype = ACCEL_F32;
    d.name = name;
    d.num_operands = 3;
    for (int i = 0; i < 3; i++)
        d.operands[i] = (accel_op_operand){buf[i], 0, counts[i]};
    d.batch_count = 1;
    return d;
}

/* The sequence of each op test: in[i] (in_bytes[i]) written to operand i
 * for i < nin, d run, operand 2 read back into out, the queue finished. A
 * failure is recorded with what. */
static int32_t st_op(st_ctx *c, const accel_op_desc *d, unsigned nin, const void *const *in,
                     const size_t *in_bytes, void *out, size_t out_bytes, const char *what)
{
    const accel_backend *vt = c->be->vt;
    void *ctx = c->be->ctx;
    int32_t rc = ACCEL_SUCCESS;
    for (unsigned i = 0; i < nin && rc == ACCEL_SUCCESS; i++)
        rc = vt->queue_write(ctx, c->q, d->operands[i].buffer, 0, in[i], in_bytes[i]);
    if (rc == ACCEL_SUCCESS)
        rc = vt->op_execute(ctx, c->q, d);
    if (rc == ACCEL_SUCCESS)
        rc = vt->queue_read(ctx, c->q, d->operands[2].buffer, 0, out, out_bytes);
    if (rc == ACCEL_SUCCESS)
        rc = vt->queue_finish(ctx, c->q);
    return rc == ACCEL_SUCCESS ? rc : st_fail(c, rc, what);
}

/* add, f32: exact in binary (small multiples of 1/8). */
static int32_t st_add(st_ctx *c, accel_be_buffer *const *buf)
{
    float a[ST_N], b[ST_N], r[ST_N];
    for (int i = 0; i < ST_N; i++) {
        a[i] = (float)(i - 11) * 0.125f;
        b[i] = (float)(3 * i + 1) * 0.5f;
        r[i] = -1.0f;
    }
    const size_t counts[3] = {ST_N, ST_N, ST_N};
    accel_op_desc d = st_desc(ACCEL_OP_ADD, "accel self-test (add)", buf, counts);
    if (c->be->vt->op_supported(c->be->ctx, 0, &d) != ACCEL_SUCCESS)
        return ACCEL_SUCCESS;
    const void *in[2] = {a, b};
    const size_t in_bytes[2] = {sizeof a, sizeof b};
    int32_t rc = st_op(c, &d, 2, in, in_bytes, r, sizeof r, "add (f32, 37 elements)");
    if (rc != ACCEL_SUCCESS)
        return rc;
    for (int i = 0; i < ST_N; i++) {
        if (r[i] != a[i] + b[i]) {
            snprintf(c->why, sizeof c->why,
                     "add (f32, 37 elements): element %d is %.9g, expected %.9g", i, r[i],
                     a[i] + b[i]);
            return ACCEL_ERROR_MISMATCH;
        }
    }
    return ACCEL_SUCCESS;
}

/* G against 0.5 * A^T * B + 2 * C by a double loop; the first element out
 * of bound is recorded. */
static int32_t st_gemm_check(st_ctx *c, const float *A, const float *B, const float *C,
                             const float *G)
{
    for (int i = 0; i < ST_M; i++) {
        for (int j = 0; j < ST_P; j++) {
            double s = 0, mag = 0;
            for (int l = 0; l < ST_K; l++) {
                s += (double)A[l * ST_M + i] * B[l * ST_P + j];
                mag += fabs((double)A[l * ST_M + i] * B[l * ST_P + j]);
            }
            double ref = 0.5 * s + 2.0 * C[i * ST_P + j];
            /* Higham 3.5, with TF32 precision allowed for: 2(k+2)*2^-10. */
            double bound = 2.0 * (ST_K + 2) * 0x1p-10 * (0.5 * mag + 2.0 * fabs(C[i * ST_P + j]));
            double got = G[i * ST_P + j];
            if (!(fabs(got - ref) <= bound)) {
                snprintf(c->why, sizeof c->why,
                         "GEMM (f32, 5x3, k = 4, A transposed): C[%d][%d] is %.9g, expected "
                         "%.9g (bound %.3g)",
                         i, j, got, ref, bound);
                return ACCEL_ERROR_MISMATCH;
            }
        }
    }
    return ACCEL_SUCCESS;
}

/* GEMM, f32: C (5x3) = 0.5 * A^T * B + 2 * C, A stored k x m, lda = m. */
static int32_t st_gemm(st_ctx *c, accel_be_buffer *const *buf)
{
    float A[ST_K * ST_M], B[ST_K * ST_P], C[ST_M * ST_P], G[ST_M * ST_P];
    for (int i = 0; i < ST_K * ST_M; i++)
        A[i] = (float)((i * 5) % 7 - 3) * 0.25f;
    for (int i = 0; i < ST_K * ST_P; i++)
        B[i] = (float)((i * 3) % 5 - 2);
    for (int i = 0; i < ST_M * ST_P; i++)
        C[i] = (float)(i % 4) - 1.5f;
    const size_t counts[3] = {ST_K * ST_M, ST_K * ST_P, ST_M * ST_P};
    accel_op_desc d = st_desc(ACCEL_OP_GEMM, "accel self-test (gemm)", buf, counts);
    d.scalars[0] = 0.5;
    d.scalars[1] = 2.0;
    d.trans_a = 1;
    d.m = ST_M, d.n = ST_P, d.k = ST_K;
    d.lda = ST_M, d.ldb = ST_P, d.ldc = ST_P;
    if (c->be->vt->op_supported(c->be->ctx, 0, &d) != ACCEL_SUCCESS)
        return ACCEL_SUCCESS;
    const void *in[3] = {A, B, C};
    const size_t in_bytes[3] = {sizeof A, sizeof B, sizeof C};
    int32_t rc = st_op(c, &d, 3, in, in_bytes, G, sizeof G, "GEMM (f32, 5x3, k = 4)");
    return rc != ACCEL_SUCCESS ? rc : st_gemm_check(c, A, B, C, G);
}

static int32_t st_run(st_ctx *c)
{
    const accel_backend *vt = c->be->vt;
    void *ctx = c->be->ctx;
    accel_be_buffer *buf[3] = {NULL, NULL, NULL};
    int32_t rc = ACCEL_SUCCESS;
    for (int i = 0; i < 3 && rc == ACCEL_SUCCESS; i++)
        rc = vt->buffer_alloc(ctx, 0, ST_N * sizeof(float), &buf[i]);
    if (rc != ACCEL_SUCCESS)
        st_fail(c, rc, "allocating 3 buffers of 148 bytes");
    if (rc == ACCEL_SUCCESS)
        rc = st_round_trip(c, buf[0]);
    if (rc == ACCEL_SUCCESS)
        rc = st_add(c, buf);
    if (rc == ACCEL_SUCCESS)
        rc = st_gemm(c, buf);
    vt->queue_finish(ctx, c->q);
    for (int i = 0; i < 3; i++)
        if (buf[i])
            vt->buffer_free(ctx, buf[i]);
    return rc;
}

void accel__selftest_all(accel_runtime *rt)
{
    if (!rt->cfg->selftest)
        return;
    for (uint32_t i = 0; i < rt->backend_count; i++) {
        accel__backend *be = &rt->backends[i];
        if (!be->loaded)
            continue;
        st_ctx c = {be, NULL, ""};
        accel__clear_error();
        int32_t rc = be->vt->queue_create(be->ctx, 0, &c.q);
        if (rc != ACCEL_SUCCESS) {
            st_fail(&c, rc, "creating a queue");
        } else {
            rc = st_run(&c);
            be->vt->queue_destroy(be->ctx, c.q);
        }
        accel__clear_error();
        if (rc == ACCEL_SUCCESS) {
            accel__log(ACCEL_LOG_DEBUG, "backend %s passed the load-time self-test", be->name);
            continue;
        }
        be->vt->shutdown(be->ctx);
        be->loaded = false;
        be->status = rc == ACCEL_ERROR_MISMATCH ? ACCEL_ERROR_MISMATCH : (accel_status)rc;
        snprintf(be->reason, sizeof be->reason, "disabled: load-time self-test failed: %s", c.why);
        accel__log(ACCEL_LOG_WARN, "backend %s (%s) %s", be->name, be->path, be->reason);
    }
}
