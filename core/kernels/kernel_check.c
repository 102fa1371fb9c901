/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/kernel_check.c — verify mode and fallback for user kernel launches
 * (ACCEL_OP_KERNEL), the kernel-shaped twins of verify.c and fallback.c:
 * a launch has several array arguments of their own dtypes and may write
 * several of them, so the snapshots are per argument.
 *
 * Verify: before the launch every array argument is read to host memory, after
 * it every output; a host function (or, when the reference shares the
 * backend, the queue's next finish) runs the kernel's program for the
 * reference device on the snapshots and compares each output: integer dtypes
 * exactly, floating dtypes within the kernel's tolerance_ulp (NaN meets NaN),
 * complex dtypes part by part within tolerance_ulp ulps of the larger part
 * of the expected value (a normwise bound, as complex arithmetic's error
 * bounds are: Higham, Accuracy and Stability of Numerical Algorithms, 2nd
 * ed., section 3.6), or of the part itself; NaN meets NaN, an infinity the
 * same infinity.
 * A kernel the reference cannot build (a raw kernel whose CPU twin is
 * refused) is counted as skipped, with one log line saying why.
 *
 * Fallback: every array is read, the queue drains, the launch runs on the
 * fallback device and the outputs are written back, in the queue's order
 * (blocking; base/drain.h says why not in a host function). */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/drain.h"
#include "base/objects.h"
#include "base/status.h"
#include "base/struct_size.h"
#include "base/xop.h"
#include "check/hooks.h"
#include "check/policy.h"
#include "kernels/fused_chain.h"
#include "kernels/kernel_twin.h"
#include "kernels/kernels.h"

typedef struct accel__kvjob kjob;
struct accel__kvjob {
    accel_runtime *rt;
    accel_device *dev, *other;
    accel__klaunch L;
    accel_be_program *other_prog;
    void *pre[ACCEL__KMAX_PARAMS];  /* every array before the launch */
    void *post[ACCEL__KMAX_PARAMS]; /* verify: outputs after it on dev */
    bool cancelled, fail;
};

static bool is_output(const kjob *j, uint32_t i)
{
    return j->L.args[i].kind == ACCEL_KARG_ARRAY && j->L.k->params[i].output;
}

static size_t arg_bytes(const accel_kernel_arg_desc *a)
{
    return a->count * accel__kesize(a->dtype);
}

static void kjob_free(kjob *j)
{
    if (!j)
        return;
    accel__kernel_unref(j->L.k);
    for (int i = 0; i < ACCEL__KMAX_PARAMS; i++) {
        free(j->pre[i]);
        free(j->post[i]);
    }
    free(j);
}

static kjob *kjob_new(accel_queue *q, const accel_op_desc *d, accel_device *other, bool want_post)
{
    const accel__klaunch *L = accel__klaunch_of(d);
    kjob *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->rt = q->dev->rt;
    j->dev = q->dev;
    j->other = other;
    j->L = *L;
    j->L.be.args = j->L.args;
    /* The job runs after the launch call: the caller may release k by then. */
    accel__kernel_retain(L->k);
    for (uint32_t i = 0; i < L->be.num_args; i++) {
        if (L->args[i].kind != ACCEL_KARG_ARRAY)
            continue;
        size_t bytes = arg_bytes(&L->args[i]);
        if (!(j->pre[i] = malloc(bytes + 1)) ||
            (want_post && is_output(j, i) && !(j->post[i] = malloc(bytes + 1)))) {
            kjob_free(j);
            return NULL;
        }
    }
    return j;
}

/* Read arrays (outputs only, or all) of j on q into dst[]; q->lock held. */
static int32_t read_arrays(accel_queue *q, kjob *j, void **dst, bool outputs_only)
{
    const accel_backend *vt = q->dev->be->vt;
    for (uint32_t i = 0; i < j->L.be.num_args; i++) {
        const accel_kernel_arg_desc *a = &j->L.args[i];
        if (a->kind != ACCEL_KARG_ARRAY || (outputs_only && !is_output(j, i)) || !a->count)
            continue;
        int32_t rc = vt->queue_read(q->dev->be->ctx, q->be, a->buffer,
                                    a->offset * accel__kesize(a->dtype), dst[i], arg_bytes(a));
        if (rc != ACCEL_SUCCESS)
            return rc;
    }
    return ACCEL_SUCCESS;
}

/* The launch on j->other from j->pre; the outputs land in results[]. */
static accel_status run_other(kjob *j, void **results)
{
    accel_device *to = j->other;
    const accel_backend *vt = to->be->vt;
    void *ctx = to->be->ctx;
    accel__klaunch L = j->L;
    L.be.args = L.args;
    L.be.program = j->other_prog;
    accel_be_buffer *bufs[ACCEL__KMAX_PARAMS] = {NULL};
    int32_t rc = ACCEL_SUCCESS;
    pthread_mutex_lock(&to->staging_lock);
    accel__clear_error();
    for (uint32_t i = 0; i < L.be.num_args && rc == ACCEL_SUCCESS; i++) {
        if (L.args[i].kind != ACCEL_KARG_ARRAY)
            continue;
        size_t bytes = arg_bytes(&L.args[i]);
        rc = vt->buffer_alloc(ctx, to->index, bytes, &bufs[i]);
        if (rc == ACCEL_SUCCESS && bytes)
            rc = vt->queue_write(ctx, to->staging, bufs[i], 0, j->pre[i], bytes);
        L.args[i].buffer = bufs[i];
        L.args[i].offset = 0;
    }
    accel_op_desc d;
    accel__struct_init(&d, sizeof d);
    d.op = ACCEL_OP_KERNEL;
    d.name = j->L.k->label;
    d.kernel = &L.be;
    if (rc == ACCEL_SUCCESS)
        rc = vt->op_execute(ctx, to->staging, &d);
    for (uint32_t i = 0; i < L.be.num_args && rc == ACCEL_SUCCESS; i++)
        if (is_output(j, i) && L.args[i].count)
            rc = vt->queue_read(ctx, to->staging, bufs[i], 0, results[i], arg_bytes(&L.args[i]));
    int32_t frc = vt->queue_finish(ctx, to->staging);
    if (rc == ACCEL_SUCCESS)
        rc = frc;
    for (uint32_t i = 0; i < L.be.num_args; i++)
        if (bufs[i])
            vt->buffer_free(ctx, bufs[i]);
    pthread_mutex_unlock(&to->staging_lock);
    return (accel_status)rc;
}

/* ------------------------------------------------------------ comparing */

/* Element i of p (dtype dt) as a double: integers and bool from their
 * little-endian bytes (sign-extended for the signed kinds), the floats by
 * their formats (binary16 and bfloat16 widened exactly). */
static double as_double(uint32_t dt, const void *p, size_t i)
{
    _Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "element bytes read little-endian");
    size_t es = accel_dtype_size((accel_dtype)dt);
    const char *at = (const char *)p + i * es;
    accel_dtype_kind k = accel_dtype_kind_of((accel_dtype)dt);
    if (dt == ACCEL_F32 || dt == ACCEL_F64) {
        float f;
        double d;
        return dt == ACCEL_F32 ? (memcpy(&f, at, 4), (double)f) : (memcpy(&d, at, 8), d);
    }
    uint64_t u = 0;
    memcpy(&u, at, es < 8 ? es : 8);
    if (k == ACCEL_DTYPE_KIND_INT) {
        unsigned sh = (unsigned)(64 - 8 * es);
        return (double)((int64_t)(u << sh) >> sh);
    }
    if (k != ACCEL_DTYPE_KIND_FLOAT)
        return (double)u; /* bool, unsigned */
    if (dt == ACCEL_BF16) {
        uint32_t w = (uint32_t)u << 16;
        float f;
        memcpy(&f, &w, 4);
        return f;
    }
    int e = (int)(u >> 10) & 0x1f, m = (int)u & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 0x400, e - 25);
    return (u & 0x8000) ? -v : v;
}

/* Ordered integer of a float's bits (adjacent floats differ by 1). */
static double ordered(uint32_t dt, const void *p, size_t i)
{
    int64_t v;
    if (dt == ACCEL_F64) {
        uint64_t b;
        memcpy(&b, (const char *)p + 8 * i, 8);
        v = (b >> 63) ? -(int64_t)(b & ~(1ull << 63)) : (int64_t)b;
    } else if (dt == ACCEL_F32) {
        uint32_t b;
        memcpy(&b, (const char *)p + 4 * i, 4);
        v = (b >> 31) ? -(int64_t)(b & 0x7fffffffu) : (int64_t)b;
    } else {
        uint16_t b;
        memcpy(&b, (const char *)p + 2 * i, 2);
        v = (b >> 15) ? -(int64_t)(b & 0x7fffu) : (int64_t)b;
    }
    return (double)v;
}

/* Spacing of binary32 (single) or binary64 numbers at |x| (the subnormal
 * spacing below the normals). */
static double spacing(bool single, double x)
{
    int e = x != 0 && isfinite(x) ? ilogb(x) : -1022;
    int emin = single ? -126 : -1022;
    return ldexp(1.0, (e < emin ? emin : e) - (single ? 23 : 52));
}

/* Complex element e of got against exp (parts of dtype pt): the ulps of
 * the larger expected part by which a part is off (0 when each part is
 * within tol ulps of itself), INFINITY for a NaN or infinity mismatch. */
static double complex_ulps(uint32_t pt, const void *got, const void *exp, size_t e, unsigned tol)
{
    double g[2], x[2], worst = 0;
    for (int k = 0; k < 2; k++)
        g[k] = as_double(pt, got, 2 * e + (size_t)k), x[k] = as_double(pt, exp, 2 * e + (size_t)k);
    double big = fmax(isfinite(x[0]) ? fabs(x[0]) : 0, isfinite(x[1]) ? fabs(x[1]) : 0);
    for (int k = 0; k < 2; k++) {
        /* beside a NaN part the sign of an infinity is open (C11 G.6) */
        bool open = isnan(x[1 - k]) && isinf(g[k]) && isinf(x[k]);
        if (isnan(g[k]) || isnan(x[k]) || isinf(g[k]) || isinf(x[k])) {
            if (!(isnan(g[k]) && isnan(x[k])) && g[k] != x[k] && !open)
                return INFINITY;
            continue;
        }
        double own =
            fabs(ordered(pt, got, 2 * e + (size_t)k) - ordered(pt, exp, 2 * e + (size_t)k));
        double norm = fabs(g[k] - x[k]) / spacing(pt == ACCEL_F32, big);
        if (own > tol && norm > worst)
            worst = norm;
    }
    return worst;
}

/* The ulps by which element e of a real output is off: 0 or INFINITY
 * for the exact dtypes (integers, bool), both NaN 0, else the distance of
 * the floats' ordered bits. */
static double real_ulps(uint32_t dt, const void *got, const void *exp, size_t e)
{
    double g = as_double(dt, got, e), x = as_double(dt, exp, e);
    if (accel_dtype_kind_of((accel_dtype)dt) != ACCEL_DTYPE_KIND_FLOAT)
        return g == x ? 0 : INFINITY;
    if (isnan(g) || isnan(x))
        return isnan(g) && isnan(x) ? 0 : INFINITY;
    return fabs(ordered(dt, got, e) - ordered(dt, exp, e));
}

/* "" when got matches expected (every element within the kernel's
 * tolerance_ulp: complex_ulps for complex outputs, real_ulps for the
 * floats, exactly for integers and bool), else what differs. */
static void compare(const kjob *j, uint32_t i, const void *got, const void *exp, char *what,
                    size_t cap)
{
    const accel_kernel_arg_desc *a = &j->L.args[i];
    uint32_t dt = a->dtype;
    bool cplx = dt == ACCEL_C64 || dt == ACCEL_C128;
    uint32_t pt = dt == ACCEL_C64 ? ACCEL_F32 : dt == ACCEL_C128 ? ACCEL_F64 : dt;
    bool fp = cplx || accel_dtype_kind_of((accel_dtype)dt) == ACCEL_DTYPE_KIND_FLOAT;
    unsigned tol = fp ? j->L.k->tolerance_ulp : 0;
    size_t bad = 0, first = 0;
    double worst = 0;
    for (size_t e = 0; e < a->count; e++) {
        double u = cplx ? complex_ulps(pt, got, exp, e, tol) : real_ulps(dt, got, exp, e);
        if (u > tol && !bad++)
            first = e, worst = u;
    }
    what[0] = '\0';
    if (!bad)
        return;
    const char *name = j->L.k->params[i].name;
    if (cplx)
        snprintf(what, cap,
                 "output %s element %zu: got (%.17g, %.17g), expected (%.17g, %.17g) (%g ulp of "
                 "the larger part > bound %u); %zu of %zu elements bad",
                 name, first, as_double(pt, got, 2 * first), as_double(pt, got, 2 * first + 1),
                 as_double(pt, exp, 2 * first), as_double(pt, exp, 2 * first + 1), worst, tol, bad,
                 a->count);
    else
        snprintf(what, cap,
                 "output %s element %zu: got %.17g, expected %.17g (%g ulp > bound %u%s); %zu of "
                 "%zu elements bad",
                 name, first, as_double(dt, got, first), as_double(dt, exp, first), worst, tol,
                 fp ? " ulp" : ", exact: integer", bad, a->count);
}

/* A graph's fused kernel: against its unfused ops on the host (fused_check.c). */
static void chain_check(kjob *j, char *what, size_t cap)
{
    accel__policy *p = j->rt->policy;
    size_t checked, skipped;
    char one[900];
    if (!accel__fchain_check(j->L.chain, j->L.args, j->pre, j->post, j->L.be.n, one, sizeof one,
                             &checked, &skipped))
        snprintf(what, cap, "%.72s on %.128s disagrees with its unfused ops: %.700s", j->L.k->label,
                 j->dev->name, one);
    atomic_fetch_add(checked || !skipped ? &p->checked : &p->skipped, 1);
}

/* The launch on the reference device, compared output by output. */
static void reference_check(kjob *j, char *what, size_t cap)
{
    accel__policy *p = j->rt->policy;
    void *expected[ACCEL__KMAX_PARAMS] = {NULL};
    bool oom = false;
    for (uint32_t i = 0; i < j->L.be.num_args; i++)
        if (is_output(j, i) && !(expected[i] = malloc(arg_bytes(&j->L.args[i]) + 1)))
            oom = true;
    accel_status st = oom ? ACCEL_ERROR_OUT_OF_HOST_MEMORY : run_other(j, expected);
    if (st != ACCEL_SUCCESS) {
        accel__log(ACCEL_LOG_WARN, "verify: %s: the reference run on %s failed (%s); not checked",
                   j->L.k->label, j->other->name,
                   *accel_last_error() ? accel_last_error() : accel_status_string(st));
        atomic_fetch_add(&p->skipped, 1);
    } else {
        atomic_fetch_add(&p->checked, 1);
        for (uint32_t i = 0; i < j->L.be.num_args && !what[0]; i++) {
            if (!is_output(j, i))
                continue;
            char one[768];
            compare(j, i, j->post[i], expected[i], one, sizeof one);
            if (one[0])
                snprintf(what, cap, "%s on %s disagrees with %s: %s", j->L.k->label, j->dev->name,
                         j->other->name, one);
        }
    }
    for (uint32_t i = 0; i < ACCEL__KMAX_PARAMS; i++)
        free(expected[i]);
}

static void kjob_check(accel__xop *x)
{
    kjob *j = x->payload;
    if (!j || j->cancelled)
        return;
    char what[1024] = "";
    if (j->L.chain)
        chain_check(j, what, sizeof what);
    else
        reference_check(j, what, sizeof what);
    accel__verify_report(j->rt->policy, x, j->fail, what, "");
}

static void kjob_release(accel__xop *x)
{
    kjob_free(x->payload);
    x->payload = NULL;
}

/* ------------------------------------------------------------ verify */

/* The reference's program, or NULL with the launch counted as skipped. */
static accel_be_program *reference_program(accel_queue *q, const accel_op_desc *d,
                                           accel_device *ref)
{
    const accel__klaunch *L = accel__klaunch_of(d);
    accel__policy *p = q->dev->rt->policy;
    accel_be_program *prog = NULL;
    accel_status st = accel__kernel_program(L->k, ref, L->mask, &prog);
    if (st == ACCEL_SUCCESS && accel__staging_ensure(ref, d->name) == ACCEL_SUCCESS)
        return prog;
    accel__log(ACCEL_LOG_INFO, "verify: %s is not cross-checkable on %s: %s", d->name, ref->name,
               accel_last_error());
    accel__clear_error();
    atomic_fetch_add(&p->skipped, 1);
    return NULL;
}

static void *kernel_verify_prepare(accel_queue *q, const accel_op_desc *d)
{
    accel__policy *p = q->dev->rt->policy;
    accel_device *ref = p->verify_ref;
    if (!ref || (q->dev == ref && !p->verify_self))
        return NULL;
    /* A graph's fused kernel is checked on the host against its unfused ops
     * (fused_check.c): no reference program. */
    accel_be_program *rp = accel__klaunch_of(d)->chain ? NULL : reference_program(q, d, ref);
    if (!rp && !accel__klaunch_of(d)->chain)
        return NULL;
    kjob *j = kjob_new(q, d, ref, true);
    if (!j) {
        atomic_fetch_add(&p->skipped, 1);
        return NULL;
    }
    j->other_prog = rp;
    j->fail = p->verify_fail;
    return j;
}

static void kernel_verify_before_locked(accel_queue *q, void *job)
{
    kjob *j = job;
    if (read_arrays(q, j, j->pre, false) != ACCEL_SUCCESS) {
        j->cancelled = true;
        accel__clear_error();
    }
}

static void kernel_verify_after_locked(accel_queue *q, void *job, int32_t rc)
{
    kjob *j = job;
    char saved[1024];
    snprintf(saved, sizeof saved, "%s", accel_last_error());
    if (rc != ACCEL_SUCCESS || j->cancelled || read_arrays(q, j, j->post, true) != ACCEL_SUCCESS)
        j->cancelled = true;
    accel__verify_enqueue_locked(q, j->L.k->label, j, kjob_check, kjob_release,
                                 j->other->be == q->dev->be && !j->L.chain, j->cancelled);
    if (rc != ACCEL_SUCCESS)
        accel__set_error("%s", saved);
    else
        accel__clear_error();
}

/* ------------------------------------------------------------ fallback */

/* Write j's outputs (in pre[]) back on q; q->lock held. */
static accel_status fb_write_locked(accel_queue *q, const accel_op_desc *d, kjob *j,
                                    uint64_t *moved)
{
    for (uint32_t i = 0; i < j->L.be.num_args; i++) {
        const accel_kernel_arg_desc *a = &j->L.args[i];
        if (!is_output(j, i) || !a->count)
            continue;
        accel__clear_error();
        int32_t rc = q->dev->be->vt->queue_write(q->dev->be->ctx, q->be, a->buffer,
                                                 a->offset * accel__kesize(a->dtype), j->pre[i],
                                                 arg_bytes(a));
        *moved += arg_bytes(a);
        if (rc != ACCEL_SUCCESS)
            return accel__fail_relay((accel_status)rc, "%s: writing the fallback's result",
                                     d->name);
    }
    return ACCEL_SUCCESS;
}

/* Reads of every array on q, which then drains, the launch on `to`, writes
 * of the outputs back from memory q keeps until its next finish; blocking
 * (base/drain.h says why). *moved gets the bytes through host memory. */
static accel_status fb_enqueue(accel_queue *q, const accel_op_desc *d, accel_device *to,
                               accel_be_program *prog, uint64_t *moved)
{
    kjob *j = kjob_new(q, d, to, false);
    accel__xop *x = accel__xop_owning(d->name, j, kjob_release);
    if (!x)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    j->other_prog = prog;
    pthread_mutex_lock(&q->lock);
    accel__clear_error();
    accel_status st = ACCEL_SUCCESS;
    int32_t rc = read_arrays(q, j, j->pre, false);
    for (uint32_t i = 0; i < j->L.be.num_args; i++)
        if (j->L.args[i].kind == ACCEL_KARG_ARRAY)
            *moved += arg_bytes(&j->L.args[i]);
    if (rc != ACCEL_SUCCESS) {
        st = accel__fail_relay((accel_status)rc, "%s: reading the arguments for the fallback",
                               d->name);
        accel__queue_drain_locked(q, d->name);
    } else if (accel__queue_drain_locked(q, d->name) == ACCEL_SUCCESS) {
        /* (else an earlier item failed: skipped, reported by the next finish) */
        st = run_other(j, j->pre);
        if (st != ACCEL_SUCCESS)
            st = accel__fail_relay(st, "%s: running it on the fallback device %s failed",
                                   j->L.k->label, to->name);
        else {
            st = fb_write_locked(q, d, j, moved);
            accel__queue_hold_locked(q, x); /* the writes may read pre[] later */
            x = NULL;
        }
    }
    pthread_mutex_unlock(&q->lock);
    accel__xop_free(x);
    return st;
}

static accel_status kernel_fallback_try(accel_queue *q, const accel_op_desc *d, bool empty,
                                        accel_status st, accel__fallback_outcome *out)
{
    accel_device *dev = q->dev;
    accel__policy *p = dev->rt->policy;
    const accel__klaunch *L = accel__klaunch_of(d);
    accel_be_program *prog = NULL;
    /* The build's own failure says more than op_supported's "no". */
    if (!L->be.program && st == ACCEL_ERROR_UNSUPPORTED &&
        accel__kernel_program(L->k, dev, L->mask, &prog) != ACCEL_SUCCESS)
        st = ACCEL_ERROR_UNSUPPORTED;
    accel_device *to = p ? p->fallback : NULL;
    bool oom = st == ACCEL_ERROR_OUT_OF_DEVICE_MEMORY && p && p->fallback_on_oom;
    if (!to || to == dev || to->be == dev->be || (st != ACCEL_ERROR_UNSUPPORTED && !oom))
        return st;
    snprintf(out->reason, sizeof out->reason, "%s", accel_last_error());
    out->to = to;
    out->bytes = 0;
    if (accel__kernel_program(L->k, to, L->mask, &prog) != ACCEL_SUCCESS ||
        accel__staging_ensure(to, d->name) != ACCEL_SUCCESS) {
        char why[512];
        snprintf(why, sizeof why, "%s", accel_last_error());
        return accel__fail(st, "%.400s; the fallback device %s cannot run it either: %.400s",
                           out->reason, to->name, why);
    }
    if (!empty) {
        accel_status fst = fb_enqueue(q, d, to, prog, &out->bytes);
        if (fst != ACCEL_SUCCESS) {
            accel__log(ACCEL_LOG_WARN, "%s: the fallback to %s failed too: %s", d->name, to->name,
                       accel_last_error());
            return accel__fail(st, "%s", out->reason);
        }
    }
    if (atomic_exchange(&p->warned[ACCEL_OP_KERNEL], 1) == 0)
        accel__log(ACCEL_LOG_WARN,
                   "%s runs on %s instead of %s: %s (warned once for user "
                   "kernels; see the placement report)",
                   d->name, to->name, dev->name, out->reason);
    return ACCEL_SUCCESS;
}

/* ------------------------------------------------------------ debug */

accel_status accel__kernel_debug_enqueue(accel_queue *q, accel__klaunch *L)
{
    accel_runtime *rt = q->dev->rt;
    accel_device *cpu = NULL;
    for (uint32_t i = 0; i < rt->device_count && !cpu; i++)
        if (rt->devices[i].props.kind == ACCEL_DEVICE_CPU &&
            accel__kernel_language(&rt->devices[i]) == ACCEL_PROGRAM_C)
            cpu = &rt->devices[i];
    if (!cpu)
        return accel__fail(ACCEL_ERROR_UNSUPPORTED,
                           "%s: a debug launch runs on the CPU twin, but this runtime has no CPU "
                           "device (load the cpu backend)",
                           L->k->label);
    accel_be_program *prog = NULL;
    accel_status st = accel__kernel_program(L->k, cpu, L->mask, &prog);
    if (st == ACCEL_SUCCESS)
        st = accel__staging_ensure(cpu, L->k->label);
    if (st != ACCEL_SUCCESS)
        return st;
    L->be.program = prog;
    accel_op_desc d;
    accel__struct_init(&d, sizeof d);
    d.op = ACCEL_OP_KERNEL;
    d.name = L->k->label;
    d.kernel = &L->be;
    uint64_t moved = 0;
    return fb_enqueue(q, &d, cpu, prog, &moved);
}

const accel__op_hooks accel__op_hooks_kernel = {
    .fallback_try = kernel_fallback_try,
    .verify_prepare = kernel_verify_prepare,
    .verify_before_locked = kernel_verify_before_locked,
    .verify_after_locked = kernel_verify_after_locked,
};
