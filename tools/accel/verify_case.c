/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* verify_case.c — one case of `accel verify`: inputs from a seed, the op on
 * the device under test and on the CPU reference, guard elements around every
 * operand that must stay untouched, inputs that must stay unchanged, and the
 * outputs compared with accel_tolerance_compare (the same model as verify
 * mode). Ops the device declares unsupported are counted as such, not failed. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/backend.h"
#include "accel/verify.h"
#include "verify_suite.h"

#define GUARD 16         /* guard elements before and after every operand */
#define GUARD_BYTE 0xA5u /* their bytes (and those of an output not yet written) */

uint64_t verify_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t next(rng *r)
{
    return verify_mix(r->s++);
}

static double unit(rng *r)
{
    return (double)(next(r) >> 11) * 0x1p-53;
}

static void store(accel_dtype dt, void *p, size_t i, double v)
{
    if (dt == ACCEL_F32) {
        float f = (float)v;
        memcpy((char *)p + 4 * i, &f, 4);
    } else if (dt == ACCEL_F64) {
        memcpy((char *)p + 8 * i, &v, 8);
    }
}

/* f16/bf16 values: random sign and mantissa, magnitudes 1/8 .. 8. */
static void gen_half(accel_dtype dt, void *p, size_t n, rng *r)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t b = next(r);
        uint16_t h =
            dt == ACCEL_F16
                ? (uint16_t)(((b & 1) << 15) | ((12 + (b >> 1) % 7) << 10) | ((b >> 8) & 0x3ff))
                : (uint16_t)(((b & 1) << 15) | ((124 + (b >> 1) % 7) << 7) | ((b >> 8) & 0x7f));
        memcpy((char *)p + 2 * i, &h, 2);
    }
}

/* Values for an input of op: [-2, 2) by default, in each op's useful range. */
static void gen(accel_op_code op, accel_dtype dt, int which, void *p, size_t n, rng *r,
                bool special)
{
    static const double specials[] = {NAN,   INFINITY, -INFINITY, 0.0,    -0.0,    1.0, -1.0,  0.5,
                                      1e-40, -3e-310,  1e30,      -1e300, 65504.0, 2.5, -7.25, 3.0};
    if (dt == ACCEL_F16 || dt == ACCEL_BF16) {
        gen_half(dt, p, n, r);
        return;
    }
    accel_dtype_kind k = accel_dtype_kind_of(dt);
    if (k == ACCEL_DTYPE_KIND_INT || k == ACCEL_DTYPE_KIND_UINT || k == ACCEL_DTYPE_KIND_BOOL) {
        size_t es = accel_dtype_size(dt); /* random bits; bool 0 or 1 */
        for (size_t i = 0; i < n; i++) {
            uint64_t b = k == ACCEL_DTYPE_KIND_BOOL ? next(r) & 1u : next(r);
            memcpy((char *)p + i * es, &b, es); /* little-endian: the low bytes */
        }
        return;
    }
    if (dt == ACCEL_C64 || dt == ACCEL_C128) { /* pairs of reals */
        dt = dt == ACCEL_C64 ? ACCEL_F32 : ACCEL_F64;
        n *= 2;
    }
    for (size_t i = 0; i < n; i++) {
        double v;
        if (special) {
            v = specials[(i + (size_t)which * 5) % (sizeof specials / sizeof specials[0])];
        } else {
            v = 4.0 * unit(r) - 2.0;
            if (op == ACCEL_OP_LOG || op == ACCEL_OP_SQRT)
                v = fabs(v) * 100.0 + 1e-3;
            else if (op == ACCEL_OP_EXP)
                v *= 10.0;
            else if (op == ACCEL_OP_TANH)
                v *= 5.0;
            else if (op == ACCEL_OP_DIV && which == 1)
                v = (v < 0 ? -0.5 : 0.5) + v / 2;
        }
        store(dt, p, i, v);
    }
}

/* A of a LINALG op (values in [-2, 2)): 2*max(m, n) added to each
 * matrix's diagonal, so every matrix is diagonally dominant: nonsingular,
 * well conditioned, and positive definite as cholesky reads it (its lower
 * triangle mirrored). */
static void well_conditioned(const accel_op_desc *d, void *a)
{
    size_t mn = d->m < d->n ? d->m : d->n, big = d->m > d->n ? d->m : d->n;
    for (size_t t = 0; t < d->batch_count; t++)
        for (size_t i = 0; i < mn; i++) {
            size_t at = t * d->m * d->n + i * d->m + i;
            double v = d->dtype == ACCEL_F32 ? (double)((float *)a)[at] : ((double *)a)[at];
            store((accel_dtype)d->dtype, a, at, v + 2.0 * (double)big);
        }
}

/* ------------------------------------------------------------ one case */

typedef enum { R_PASS, R_FAIL, R_UNSUPPORTED } result;

typedef struct side {
    accel_buffer *buf[4];
    void *host[4]; /* whole buffers, guards included */
} side;

/* One case in flight: its descriptor, inputs and both sides' results. */
typedef struct vcase {
    verify_run *vr;
    accel_op_desc *d;
    bool special;
    size_t es[4]; /* each operand's element size (accel_op_operand_dtype) */
    uint32_t out;
    char shape[256];
    const char *opn, *dtn;
    void *init[4]; /* every operand with its guards, as uploaded */
    side got, ref;
} vcase;

static void side_free(side *s)
{
    for (int i = 0; i < 4; i++) {
        accel_buffer_release(s->buf[i]);
        free(s->host[i]);
    }
}

/* Upload init (guards and payloads), run d, read every buffer back. */
static accel_status run_side(accel_device *dev, accel_queue *q, const accel_op_desc *d,
                             void *const init[4], const size_t es[4], side *s, const char **what)
{
    memset(s, 0, sizeof *s);
    accel_status st = ACCEL_SUCCESS;
    for (uint32_t i = 0; i < d->num_operands && st == ACCEL_SUCCESS; i++) {
        size_t bytes = (d->operands[i].count + 2 * GUARD) * es[i];
        *what = "creating a buffer";
        st = accel_buffer_create(dev, bytes, &s->buf[i]);
        if (st == ACCEL_SUCCESS) {
            *what = "writing an operand";
            st = accel_queue_write(q, s->buf[i], 0, init[i], bytes);
        }
    }
    if (st != ACCEL_SUCCESS)
        return st;
    *what = "enqueueing the op";
    st = cli_op_enqueue(q, d, s->buf);
    for (uint32_t i = 0; i < d->num_operands && st == ACCEL_SUCCESS; i++) {
        size_t bytes = (d->operands[i].count + 2 * GUARD) * es[i];
        s->host[i] = malloc(bytes);
        if (!s->host[i])
            return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
        *what = "reading an operand back";
        st = accel_queue_read(q, s->buf[i], 0, s->host[i], bytes);
    }
    if (st == ACCEL_SUCCESS) {
        *what = "running the op";
        st = accel_queue_finish(q);
    }
    return st;
}

static void describe(const accel_op_desc *d, char *out, size_t cap)
{
    const accel_op_properties *p = accel_op_info((accel_op_code)d->op);
    if (p && p->kind == ACCEL_OP_KIND_GEMM)
        snprintf(out, cap, "m=%zu n=%zu k=%zu trans=%u%u ld=%zu,%zu,%zu batch=%zu alpha=%g beta=%g",
                 d->m, d->n, d->k, d->trans_a, d->trans_b, d->lda, d->ldb, d->ldc, d->batch_count,
                 d->scalars[0], d->scalars[1]);
    else if (p && p->kind == ACCEL_OP_KIND_TRANSPOSE)
        snprintf(out, cap, "rows=%zu cols=%zu ldx=%zu ldo=%zu", d->m, d->n, d->lda, d->ldc);
    else if (p && p->kind == ACCEL_OP_KIND_LINALG)
        snprintf(out, cap, "batch=%zu m=%zu n=%zu k=%zu%s", d->batch_count, d->m, d->n, d->k,
                 d->flags & ACCEL_OP_FLAG_LINALG_VECTORS ? " vectors" : "");
    else if (p && p->kind == ACCEL_OP_KIND_FFT)
        snprintf(out, cap, "outer=%zu n=%zu inner=%zu scale=%g%s", d->m, d->n, d->k, d->scalars[0],
                 d->flags & ACCEL_OP_FLAG_FFT_INVERSE ? " inverse" : "");
    else if (p && p->kind == ACCEL_OP_KIND_SORT)
        snprintf(out, cap, "outer=%zu n=%zu inner=%zu%s", d->m, d->n, d->k,
                 d->flags & ACCEL_OP_FLAG_SORT_DESCENDING ? " descending" : "");
    else if (p && p->kind == ACCEL_OP_KIND_SCAN)
        snprintf(out, cap, "outer=%zu n=%zu inner=%zu%s", d->m, d->n, d->k,
                 d->flags & ACCEL_OP_FLAG_SCAN_WIDE ? " wide" : "");
    else
        snprintf(out, cap, "n=%zu", d->operands[0].count);
}

static bool reads_output(const accel_op_desc *d)
{
    const accel_op_properties *p = accel_op_info((accel_op_code)d->op);
    return p && p->reads_output;
}

/* Guards and payloads of every operand; false when out of host memory. */
static bool make_inputs(vcase *c, uint64_t case_seed)
{
    accel_op_desc *d = c->d;
    accel_dtype dt = (accel_dtype)d->dtype;
    rng r = {case_seed};
    for (uint32_t i = 0; i < d->num_operands; i++) {
        size_t n = d->operands[i].count, bytes = (n + 2 * GUARD) * c->es[i];
        accel_dtype odt = (accel_dtype)accel_op_operand_dtype(d, i);
        char *p = c->init[i] = malloc(bytes);
        if (!p) {
            fprintf(stderr, "accel verify: out of host memory\n");
            return false;
        }
        memset(p, GUARD_BYTE, bytes);
        d->operands[i].offset = GUARD;
        if (i < c->out || reads_output(d))
            gen((accel_op_code)d->op, odt, (int)i, p + GUARD * c->es[i], n, &r, c->special);
        if (i == 0 && accel_op_info((accel_op_code)d->op)->kind == ACCEL_OP_KIND_LINALG)
            well_conditioned(d, p + GUARD * c->es[i]);
        /* beta == 0: C is not read, so NaN there must not come through. */
        if (d->op == ACCEL_OP_GEMM && i == c->out && d->scalars[1] == 0 && dt != ACCEL_F16 &&
            dt != ACCEL_BF16)
            for (size_t e = 0; e < n; e++)
                store(dt, p + GUARD * c->es[i], e, NAN);
    }
    return true;
}

/* Both sides; R_PASS when both ran (the checks come next). */
static result run_both(vcase *c)
{
    verify_run *vr = c->vr;
    const char *what = "";
    accel_status st = run_side(vr->dev, vr->q, c->d, c->init, c->es, &c->got, &what);
    if (st == ACCEL_ERROR_UNSUPPORTED) {
        if (vr->verbose)
            printf("  %-14s %-4s %-40s unsupported\n", c->opn, c->dtn, c->shape);
        return R_UNSUPPORTED;
    }
    if (st != ACCEL_SUCCESS) {
        printf("FAIL %s %s %s on %s: %s: %s (%s) [seed %" PRIu64 "]\n", c->opn, c->dtn, c->shape,
               accel_device_name(vr->dev), what, accel_last_error(), accel_status_name(st),
               vr->seed);
        return R_FAIL;
    }
    st = run_side(vr->ref, vr->rq, c->d, c->init, c->es, &c->ref, &what);
    if (st == ACCEL_ERROR_UNSUPPORTED)
        return R_UNSUPPORTED; /* the reference lacks it too: nothing to compare with */
    if (st != ACCEL_SUCCESS) {
        printf("FAIL %s %s %s on the reference %s: %s: %s\n", c->opn, c->dtn, c->shape,
               accel_device_name(vr->ref), what, accel_last_error());
        return R_FAIL;
    }
    return R_PASS;
}

/* Guards of every operand untouched, and inputs left as they were. */
static result check_guards(const vcase *c)
{
    for (uint32_t i = 0; i < c->d->num_operands; i++) {
        size_t n = c->d->operands[i].count, es = c->es[i];
        const unsigned char *h = c->got.host[i], *want = c->init[i];
        for (size_t b = 0; b < (n + 2 * GUARD) * es; b++) {
            bool in_guard = b < GUARD * es || b >= (GUARD + n) * es;
            if ((!in_guard && i == c->out) || h[b] == want[b])
                continue;
            printf("FAIL %s %s %s on %s: operand %u element %ld %s was changed (%s) "
                   "[seed %" PRIu64 "]\n",
                   c->opn, c->dtn, c->shape, accel_device_name(c->vr->dev), i,
                   (long)(b / es) - GUARD, in_guard ? "outside its range" : "of an input",
                   in_guard ? "write out of range" : "input modified", c->vr->seed);
            return R_FAIL;
        }
    }
    return R_PASS;
}

/* The outputs within the tolerance model. */
static result check_values(vcase *c)
{
    verify_run *vr = c->vr;
    const void *inputs[4];
    for (uint32_t i = 0; i < 4; i++)
        inputs[i] = i < c->d->num_operands ? (const char *)c->init[i] + GUARD * c->es[i] : NULL;
    size_t skip = GUARD * c->es[c->out];
    accel_compare_result r;
    memset(&r, 0, sizeof r);
    r.struct_size = sizeof r;
    accel_tolerance_op t;
    accel_status st = accel_tolerance_compare(cli_tolerance_op(c->d, &t), inputs,
                                              (const char *)c->got.host[c->out] + skip,
                                              (const char *)c->ref.host[c->out] + skip, &r);
    if (r.worst_ratio > vr->worst && isfinite(r.worst_ratio))
        vr->worst = r.worst_ratio;
    if (st != ACCEL_SUCCESS) {
        printf("FAIL %s %s %s%s on %s vs %s: element %zu: got %.17g, expected %.17g, error "
               "%.3g > bound %.3g (%s); %zu of %zu bad [seed %" PRIu64 "]\n",
               c->opn, c->dtn, c->shape, c->special ? " (special values)" : "",
               accel_device_name(vr->dev), accel_device_name(vr->ref), r.first_bad, r.got,
               r.expected, r.error, r.bound, r.rule, r.bad, r.checked, vr->seed);
        return R_FAIL;
    }
    if (vr->verbose)
        printf("  %-14s %-4s %-40s ok (%zu elements, worst %.2g of the bound)\n", c->opn, c->dtn,
               c->shape, r.checked, r.worst_ratio);
    return R_PASS;
}

static result run_case(verify_run *vr, accel_op_desc *d, bool special, uint64_t case_seed)
{
    vcase c;
    memset(&c, 0, sizeof c);
    c.vr = vr;
    c.d = d;
    c.special = special;
    c.out = d->num_operands - 1;
    for (uint32_t i = 0; i < d->num_operands && i < 4; i++)
        c.es[i] = accel_dtype_size((accel_dtype)accel_op_operand_dtype(d, i));
    c.opn = accel_op_name((accel_op_code)d->op);
    c.dtn = accel_dtype_name((accel_dtype)d->dtype);
    describe(d, c.shape, sizeof c.shape);
    result res = make_inputs(&c, case_seed) ? run_both(&c) : R_FAIL;
    if (res == R_PASS)
        res = check_guards(&c);
    if (res == R_PASS)
        res = check_values(&c);
    side_free(&c.got);
    side_free(&c.ref);
    for (int i = 0; i < 4; i++)
        free(c.init[i]);
    return res;
}

static verify_tally *tally_for(verify_run *vr, accel_op_code op, accel_dtype dt)
{
    for (size_t i = 0; i < vr->ntally; i++)
        if (!vr->tallies[i].name && vr->tallies[i].op == op && vr->tallies[i].dt == dt)
            return &vr->tallies[i];
    if (vr->ntally == VERIFY_MAX_TALLIES)
        return NULL;
    vr->tallies[vr->ntally] = (verify_tally){op, NULL, dt, 0, 0, 0};
    return &vr->tallies[vr->ntally++];
}

verify_tally *verify_tally_named(verify_run *vr, const char *name, accel_dtype dt)
{
    for (size_t i = 0; i < vr->ntally; i++)
        if (vr->tallies[i].name && strcmp(vr->tallies[i].name, name) == 0 &&
            vr->tallies[i].dt == dt)
            return &vr->tallies[i];
    if (vr->ntally == VERIFY_MAX_TALLIES)
        return NULL;
    vr->tallies[vr->ntally] = (verify_tally){ACCEL_OP_KERNEL, name, dt, 0, 0, 0};
    return &vr->tallies[vr->ntally++];
}

void verify_case(verify_run *vr, accel_op_desc *d, bool special)
{
    uint64_t case_seed = verify_mix(vr->seed ^ verify_mix(++vr->case_no));
    result r = run_case(vr, d, special, case_seed);
    verify_tally *t = tally_for(vr, (accel_op_code)d->op, (accel_dtype)d->dtype);
    if (!t)
        return;
    if (r == R_PASS)
        t->pass++;
    else if (r == R_FAIL)
        t->fail++;
    else
        t->unsupported++;
}
