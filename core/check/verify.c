/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/verify.c — verify mode (shadow execution) and the runtime policy keys.
 *
 * When verify is on, an op on a device other than the reference is enqueued
 * as: reads of every operand into host memory (the inputs as the op will see
 * them, and the output's old contents), reads of a few guard elements on each
 * side of the output range, the op, reads of the output and the guards again,
 * then a host function. The host function runs the op on the reference
 * device (through that device's private staging queue, on the inputs read
 * before) and compares the outputs with accel_tolerance_compare (tolerance.c),
 * and the guards bit for bit. The host function may not call into the
 * backend of its own queue (accel/backend.h), so when the reference shares
 * the op's backend (checking the CPU against itself) the comparison is
 * deferred to the queue's next finish. A mismatch is logged, counted, written
 * to a repro file when asked, and with on_mismatch = fail kept on the queue
 * as ACCEL_ERROR_MISMATCH for its next synchronizing call.
 *
 * The policy (verify, fallback, report) comes from the settings of config.c. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "accel/verify.h"

#include "base/config.h"
#include "base/handle.h"
#include "base/objects.h"
#include "base/optable.h"
#include "base/sbuf.h"
#include "base/staging.h"
#include "base/status.h"
#include "base/struct_size.h"
#include "base/xop.h"
#include "check/policy.h"
#include "check/repro.h"
#include "check/tolerance.h"
#include "check/verify_job.h"

/* ------------------------------------------------------------ the policy */

/* The policy from the settings (config.c parsed and validated every value
 * before any plugin was opened); only what needs the loaded devices is
 * checked here. */
accel_status accel__policy_open(accel_runtime *rt, const char *fn)
{
    const accel__config *cfg = rt->cfg;
    accel__policy *p = calloc(1, sizeof *p);
    if (!p)
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    rt->policy = p;
    p->cells = calloc((size_t)ACCEL__OP_SLOTS * (rt->device_count ? rt->device_count : 1),
                      sizeof *p->cells);
    if (!p->cells)
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    p->verify_sample = cfg->verify_sample;
    p->verify_guard = cfg->verify_guard;
    p->verify_seed = 0x5eedu;
    p->verify_fail = cfg->verify_fail;
    p->fallback_on_oom = cfg->fallback_on_oom;
    if (cfg->verify_repro_dir && !(p->verify_repro_dir = accel__str_dup(cfg->verify_repro_dir)))
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    char where[4200];
    if (cfg->verify && accel__device_find(rt, cfg->verify, &p->verify_ref) != ACCEL_SUCCESS) {
        accel__config_where(cfg, ACCEL__KEY_VERIFY, where, sizeof where);
        return accel__fail(ACCEL_ERROR_CONFIG, "%s: %s%s names no loaded device to check against",
                           fn, where, cfg->verify);
    }
    if (cfg->fallback && accel__device_find(rt, cfg->fallback, &p->fallback) != ACCEL_SUCCESS) {
        p->fallback = NULL;
        if (cfg->line[ACCEL__KEY_FALLBACK])
            accel__log(ACCEL_LOG_WARN, "%s%s names no loaded device; ops a backend lacks will fail",
                       accel__config_where(cfg, ACCEL__KEY_FALLBACK, where, sizeof where),
                       cfg->fallback);
    }
    accel__clear_error();
    p->report = p->report_at_close = cfg->report;
    accel__policy_update_checked(rt);
    return ACCEL_SUCCESS;
}

/* ------------------------------------------------------------ public API */

void accel_verify_options_init(accel_verify_options *o)
{
    if (!accel__struct_init(o, sizeof *o))
        return;
    o->sample = 1.0;
    o->guard_elements = 4;
}

accel_status accel_verify_configure(accel_runtime *rt, const accel_verify_options *o)
{
    static const char fn[] = "accel_verify_configure";
    ACCEL__CALL(call);
    ACCEL__TRY(accel__enter_out(&call, fn, rt, ACCEL__T_RUNTIME, "rt", &rt, o, "o"));
    accel_verify_options opts;
    accel_verify_options_init(&opts);
    accel_status st =
        accel__struct_in(fn, "o", o, ACCEL__VERIFY_OPTIONS_SIZE_V1, sizeof opts, &opts);
    if (st != ACCEL_SUCCESS)
        return st;
    o = &opts;
    if (!(o->sample >= 0 && o->sample <= 1))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: sample = %g is not in [0, 1]", fn,
                           o->sample);
    accel_device *ref = NULL;
    if (o->reference && *o->reference) {
        st = accel__device_find(rt, o->reference, &ref);
        if (st != ACCEL_SUCCESS)
            return accel__fail(st, "%s: reference: %s", fn, accel_last_error());
    }
    char *dir = NULL;
    if (o->repro_dir && *o->repro_dir && !(dir = accel__str_dup(o->repro_dir)))
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    accel__policy *p = rt->policy;
    /* The old folder name may still be in use by a job's copy; jobs copy it. */
    free(p->verify_repro_dir);
    p->verify_repro_dir = dir;
    p->verify_ref = ref;
    p->verify_sample = o->sample;
    p->verify_seed = o->seed;
    p->verify_fail = o->fail_on_mismatch;
    p->verify_self = o->check_reference_device;
    p->verify_guard = o->guard_elements;
    accel__policy_update_checked(rt);
    return ACCEL_SUCCESS;
}

accel_status accel_verify_stats_get(const accel_runtime *rt, accel_verify_stats *out)
{
    static const char fn[] = "accel_verify_stats_get";
    ACCEL__CALL(call);
    size_t bytes;
    ACCEL__TRY(accel__enter_struct_out(&call, fn, rt, ACCEL__T_RUNTIME, "rt", &rt, out,
                                       ACCEL__VERIFY_STATS_SIZE_V1, sizeof *out, &bytes));
    const accel__policy *p = rt->policy;
    accel_verify_stats s = {sizeof s, atomic_load(&p->checked), atomic_load(&p->mismatches),
                            atomic_load(&p->skipped), atomic_load(&p->repro_files)};
    accel__struct_out_write(out, &s, bytes);
    return ACCEL_SUCCESS;
}

/* ------------------------------------------------------------ the job */

struct accel__vjob {
    accel_runtime *rt;
    accel_device *dev, *ref;
    accel_op_desc d;
    size_t esize;  /* the output's element size */
    void *pre[4];  /* operands before the op */
    void *post;    /* the output after it */
    size_t lo, hi; /* guard elements before and after the output */
    void *guard_pre, *guard_post;
    bool cancelled, fail;
    char *repro_dir;
    uint64_t seed;
};
typedef accel__vjob vjob;

static void vjob_free(vjob *j)
{
    if (!j)
        return;
    for (int i = 0; i < 4; i++)
        free(j->pre[i]);
    free(j->post);
    free(j->guard_pre);
    free(j->guard_post);
    free(j->repro_dir);
    free(j);
}

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

/* Elements of the buffer that holds be (a scan of the runtime's buffers:
 * verify mode is a debugging mode). 0 when not found. */
static size_t buffer_elements(accel_runtime *rt, const accel_be_buffer *be, size_t esize)
{
    size_t n = 0;
    pthread_mutex_lock(&rt->lock);
    for (accel_buffer *b = rt->buffers; b; b = b->next) {
        if (b->be == be) {
            n = b->bytes / esize;
            break;
        }
    }
    pthread_mutex_unlock(&rt->lock);
    return n;
}

static vjob *vjob_new(accel_queue *q, const accel_op_desc *d)
{
    accel_runtime *rt = q->dev->rt;
    accel__policy *p = rt->policy;
    accel_device *ref = p->verify_ref;
    if (p->verify_sample < 1.0) {
        uint64_t t = atomic_fetch_add(&p->tick, 1);
        double u = (double)(splitmix64(p->verify_seed ^ t) >> 11) * 0x1p-53;
        if (u >= p->verify_sample) {
            atomic_fetch_add(&p->skipped, 1);
            return NULL;
        }
    }
    if (ref->be->vt->op_supported(ref->be->ctx, ref->index, d) != ACCEL_SUCCESS ||
        accel__staging_ensure(ref, d->name) != ACCEL_SUCCESS) {
        accel__clear_error();
        atomic_fetch_add(&p->skipped, 1);
        return NULL;
    }
    vjob *j = calloc(1, sizeof *j);
    if (!j)
        goto oom;
    j->rt = rt;
    j->dev = q->dev;
    j->ref = ref;
    j->d = *d;
    j->esize = accel__operand_esize(d, d->num_operands - 1); /* the output's */
    j->fail = p->verify_fail;
    j->seed = p->verify_seed;
    if (p->verify_repro_dir && !(j->repro_dir = accel__str_dup(p->verify_repro_dir)))
        goto oom;
    for (uint32_t i = 0; i < d->num_operands; i++) {
        j->pre[i] = malloc(d->operands[i].count * accel__operand_esize(d, i) + 1);
        if (!j->pre[i])
            goto oom;
    }
    const accel_op_operand *o = &d->operands[d->num_operands - 1];
    j->post = malloc(o->count * j->esize + 1);
    if (!j->post)
        goto oom;
    if (p->verify_guard) {
        size_t n = buffer_elements(rt, o->buffer, j->esize);
        size_t end = o->offset + o->count;
        j->lo = o->offset < p->verify_guard ? o->offset : p->verify_guard;
        j->hi = n > end ? (n - end < p->verify_guard ? n - end : p->verify_guard) : 0;
        j->guard_pre = malloc((j->lo + j->hi) * j->esize + 1);
        j->guard_post = malloc((j->lo + j->hi) * j->esize + 1);
        if (!j->guard_pre || !j->guard_post)
            goto oom;
    }
    return j;
oom:
    vjob_free(j);
    atomic_fetch_add(&p->skipped, 1);
    accel__log(ACCEL_LOG_WARN, "%s: verify skipped: out of host memory for the snapshots", d->name);
    return NULL;
}

static int32_t read_range(accel_queue *q, accel_be_buffer *buf, size_t offset, size_t count,
                          size_t esize, void *dst)
{
    if (!count)
        return ACCEL_SUCCESS;
    return q->dev->be->vt->queue_read(q->dev->be->ctx, q->be, buf, offset * esize, dst,
                                      count * esize);
}

static int32_t read_guards(accel_queue *q, vjob *j, void *dst)
{
    const accel_op_operand *o = &j->d.operands[j->d.num_operands - 1];
    int32_t rc = read_range(q, o->buffer, o->offset - j->lo, j->lo, j->esize, dst);
    if (rc == ACCEL_SUCCESS)
        rc = read_range(q, o->buffer, o->offset + o->count, j->hi, j->esize,
                        (char *)dst + j->lo * j->esize);
    return rc;
}

/* ------------------------------------------------------------ checking */

static void describe_shape(const accel_op_desc *d, char *out, size_t cap)
{
    const accel_op_properties *p = accel__op(d->op);
    switch (p ? p->kind : ACCEL_OP_KIND_FILL) {
    case ACCEL_OP_KIND_GEMM:
        snprintf(out, cap,
                 "m=%zu n=%zu k=%zu lda=%zu ldb=%zu ldc=%zu trans_a=%u trans_b=%u "
                 "batch=%zu alpha=%g beta=%g",
                 d->m, d->n, d->k, d->lda, d->ldb, d->ldc, d->trans_a, d->trans_b, d->batch_count,
                 d->scalars[0], d->scalars[1]);
        return;
    case ACCEL_OP_KIND_TRANSPOSE:
        snprintf(out, cap, "rows=%zu cols=%zu ldx=%zu ldo=%zu", d->m, d->n, d->lda, d->ldc);
        return;
    case ACCEL_OP_KIND_SORT:
        snprintf(out, cap, "outer=%zu n=%zu inner=%zu%s", d->m, d->n, d->k,
                 d->flags & ACCEL_OP_FLAG_SORT_DESCENDING ? " descending" : "");
        return;
    case ACCEL_OP_KIND_SCAN:
        snprintf(out, cap, "outer=%zu n=%zu inner=%zu%s", d->m, d->n, d->k,
                 d->flags & ACCEL_OP_FLAG_SCAN_WIDE ? " wide" : "");
        return;
    case ACCEL_OP_KIND_LINALG:
        snprintf(out, cap, "batch=%zu m=%zu n=%zu k=%zu%s", d->batch_count, d->m, d->n, d->k,
                 d->flags & ACCEL_OP_FLAG_LINALG_VECTORS ? " vectors" : "");
        return;
    case ACCEL_OP_KIND_FFT:
        snprintf(out, cap, "outer=%zu n=%zu inner=%zu scale=%g%s", d->m, d->n, d->k, d->scalars[0],
                 d->flags & ACCEL_OP_FLAG_FFT_INVERSE ? " inverse" : "");
        return;
    case ACCEL_OP_KIND_FILL:
    case ACCEL_OP_KIND_COPY:
    case ACCEL_OP_KIND_BINARY:
    case ACCEL_OP_KIND_UNARY:
    case ACCEL_OP_KIND_AXPBY:
    case ACCEL_OP_KIND_REDUCTION:
    case ACCEL_OP_KIND_RANDOM:
        break;
    }
    snprintf(out, cap, "n=%zu", d->operands[0].count);
}

/* The repro file of j's mismatch (core/repro.c); path_out gets its path or "". */
static void write_repro(vjob *j, const void *expected, const char *what, char *path_out, size_t cap)
{
    path_out[0] = '\0';
    if (!j->repro_dir)
        return;
    const accel__repro r = {
        .dir = j->repro_dir,
        .device = j->dev->name,
        .reference = j->ref->name,
        .d = &j->d,
        .verify_seed = j->seed,
        .inputs = (const void *const *)j->pre,
        .lo = j->lo,
        .hi = j->hi,
        .guard_before = j->guard_pre,
        .guard_after = j->guard_post,
        .got = j->post,
        .expected = expected,
        .what = what,
    };
    accel__repro_write(&r, atomic_fetch_add(&j->rt->policy->repro_files, 1), path_out, cap);
}

/* Run the op on the reference device on the snapshots; fills expected. */
static accel_status run_reference(vjob *j, void *expected)
{
    return accel__staging_run_op(j->ref, &j->d, j->pre, true, expected);
}

static void vjob_check(accel__xop *x)
{
    vjob *j = x->payload;
    if (!j || j->cancelled)
        return;
    accel__policy *p = j->rt->policy;
    const accel_op_desc *d = &j->d;
    const accel_op_operand *o = &d->operands[d->num_operands - 1];
    void *expected = malloc(o->count * j->esize + 1);
    if (!expected) {
        atomic_fetch_add(&p->skipped, 1);
        return;
    }
    accel_status st = run_reference(j, expected);
    if (st != ACCEL_SUCCESS) {
        accel__log(ACCEL_LOG_WARN, "verify: %s: the reference run on %s failed (%s); not checked",
                   d->name, j->ref->name,
                   *accel_last_error() ? accel_last_error() : accel_status_string(st));
        atomic_fetch_add(&p->skipped, 1);
        free(expected);
        return;
    }
    accel_compare_result r;
    accel__struct_init(&r, sizeof r);
    const void *inputs[4] = {j->pre[0], j->pre[1], j->pre[2], j->pre[3]};
    accel_tolerance_op t;
    accel__tolerance_op_from_desc(d, &t);
    st = accel_tolerance_compare(&t, inputs, j->post, expected, &r);
    atomic_fetch_add(&p->checked, 1);
    char what[1024];
    what[0] = '\0';
    char shape[256];
    describe_shape(d, shape, sizeof shape);
    const char *op = accel_op_name((accel_op_code)d->op);
    const char *dt = accel_dtype_name((accel_dtype)d->dtype);
    if (st != ACCEL_SUCCESS) {
        snprintf(what, sizeof what,
                 "%s (%s %s, %s) on %s disagrees with %s: element %zu: got %.17g, expected "
                 "%.17g, error %.3g > bound %.3g (%s); %zu of %zu elements bad",
                 d->name, op, dt, shape, j->dev->name, j->ref->name, r.first_bad, r.got, r.expected,
                 r.error, r.bound, r.rule, r.bad, r.checked);
    } else if (j->lo + j->hi &&
               memcmp(j->guard_pre, j->guard_post, (j->lo + j->hi) * j->esize) != 0) {
        size_t i = 0;
        while (memcmp((char *)j->guard_pre + i * j->esize, (char *)j->guard_post + i * j->esize,
                      j->esize) == 0)
            i++;
        long rel = i < j->lo ? -(long)(j->lo - i) : (long)(o->count + i - j->lo);
        snprintf(what, sizeof what,
                 "%s (%s %s, %s) on %s wrote outside its output range [%zu, %zu): element %ld "
                 "of the range (buffer element %zu) changed",
                 d->name, op, dt, shape, j->dev->name, o->offset, o->offset + o->count, rel,
                 (size_t)((long)o->offset + rel));
    }
    char repro[4096];
    repro[0] = '\0';
    if (what[0])
        write_repro(j, expected, what, repro, sizeof repro);
    free(expected);
    accel__verify_report(p, x, j->fail, what, repro);
}

void accel__verify_enqueue_locked(accel_queue *q, const char *fn, void *job,
                                  void (*check)(accel__xop *), void (*release)(accel__xop *),
                                  bool deferred, bool cancelled)
{
    accel__policy *p = q->dev->rt->policy;
    if (cancelled)
        atomic_fetch_add(&p->skipped, 1);
    if (accel__queue_enqueue_check_locked(q, fn, job, check, release, deferred) != ACCEL_SUCCESS &&
        !cancelled)
        atomic_fetch_add(&p->skipped, 1);
}

void accel__verify_report(accel__policy *p, accel__xop *x, bool fail, const char *what,
                          const char *repro)
{
    if (!what[0])
        return;
    atomic_fetch_add(&p->mismatches, 1);
    accel__log(ACCEL_LOG_WARN, "verify: %s%s%s", what, repro[0] ? "; repro file " : "", repro);
    if (fail) {
        x->status = ACCEL_ERROR_MISMATCH;
        snprintf(x->message, sizeof x->message, "verify: %.*s", (int)(sizeof x->message - 9), what);
    }
}

static void vjob_release(accel__xop *x)
{
    vjob_free(x->payload);
    x->payload = NULL;
}

/* ------------------------------------------------------------ the hooks */

accel__vjob *accel__verify_prepare(accel_queue *q, const accel_op_desc *d)
{
    accel__policy *p = q->dev->rt->policy;
    if (!p->verify_ref || (q->dev == p->verify_ref && !p->verify_self))
        return NULL;
    return vjob_new(q, d);
}

void accel__verify_before_locked(accel_queue *q, accel__vjob *j)
{
    const accel_op_desc *d = &j->d;
    accel__clear_error();
    int32_t rc = ACCEL_SUCCESS;
    for (uint32_t i = 0; i < d->num_operands && rc == ACCEL_SUCCESS; i++)
        rc = read_range(q, d->operands[i].buffer, d->operands[i].offset, d->operands[i].count,
                        accel__operand_esize(d, i), j->pre[i]);
    if (rc == ACCEL_SUCCESS && j->lo + j->hi)
        rc = read_guards(q, j, j->guard_pre);
    if (rc != ACCEL_SUCCESS) {
        /* Reads may be queued: the queue keeps j until it has passed them. */
        j->cancelled = true;
        accel__log(ACCEL_LOG_WARN, "%s: verify skipped: snapshot failed: %s", d->name,
                   accel_last_error());
        accel__clear_error();
    }
}

void accel__verify_after_locked(accel_queue *q, accel__vjob *j, int32_t rc)
{
    accel_device *dev = q->dev;
    const accel_op_desc *d = &j->d;
    char saved[512];
    if (rc != ACCEL_SUCCESS)
        snprintf(saved, sizeof saved, "%s", accel_last_error());
    const accel_op_operand *o = &d->operands[d->num_operands - 1];
    if (rc != ACCEL_SUCCESS || j->cancelled)
        j->cancelled = true;
    else if (read_range(q, o->buffer, o->offset, o->count, j->esize, j->post) != ACCEL_SUCCESS ||
             (j->lo + j->hi && read_guards(q, j, j->guard_post) != ACCEL_SUCCESS))
        j->cancelled = true;
    accel__verify_enqueue_locked(q, d->name, j, vjob_check, vjob_release, j->ref->be == dev->be,
                                 j->cancelled);
    if (rc != ACCEL_SUCCESS)
        accel__set_error("%s", saved);
    else
        accel__clear_error();
}
