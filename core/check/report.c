/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/report.c — the placement report: per op kind and device, how many ops
 * were enqueued (while reporting is on), how many ran on the fallback device,
 * the bytes that moved for them and why the first one fell back; then per
 * fused kernel of a graph (core/fuse.c) and device, its launches and the
 * recorded ops it runs. Printed at accel_runtime_close with ACCEL_REPORT=1
 * or [runtime] report = true. */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/verify.h"

#include "base/handle.h"
#include "base/objects.h"
#include "base/sbuf.h"
#include "base/status.h"
#include "base/struct_size.h"
#include "check/hooks.h"
#include "check/policy.h"

static accel__report_cell *cell(accel_runtime *rt, const accel_device *dev, uint32_t op)
{
    if (!rt->policy || !rt->policy->cells || op >= ACCEL__OP_SLOTS)
        return NULL;
    return &rt->policy->cells[(size_t)dev->global_index * ACCEL__OP_SLOTS + op];
}

void accel__report_count(accel_runtime *rt, const accel_device *dev, uint32_t op)
{
    accel__report_cell *c = cell(rt, dev, op);
    if (c)
        atomic_fetch_add_explicit(&c->ops, 1, memory_order_relaxed);
}

void accel__report_fallback(accel_runtime *rt, const accel_device *dev, uint32_t op,
                            accel_device *to, uint64_t bytes, const char *reason)
{
    accel__report_cell *c = cell(rt, dev, op);
    if (!c)
        return;
    atomic_fetch_add(&c->fallbacks, 1);
    atomic_fetch_add(&c->bytes, bytes);
    int expected = 0;
    if (atomic_compare_exchange_strong(&c->reason_set, &expected, 1)) {
        snprintf(c->reason, sizeof c->reason, "%s", reason);
        c->fallback_device = to;
        atomic_store(&c->reason_set, 2);
    }
}

void accel__report_fused(accel_runtime *rt, const accel_device *dev, const char *kernel,
                         const char *ops, uint32_t nops)
{
    accel__policy *p = rt->policy;
    if (!p || !p->report)
        return;
    accel__rfused *mine = NULL, *head = atomic_load(&p->fused), *seen = NULL;
    for (;;) {
        /* Entries newer than the last look first; the list only grows. */
        for (accel__rfused *e = head; e && e != seen; e = e->next)
            if (e->dev == dev && strcmp(e->kernel, kernel) == 0 && strcmp(e->ops, ops) == 0) {
                atomic_fetch_add_explicit(&e->launches, 1, memory_order_relaxed);
                free(mine);
                return;
            }
        if (!mine) {
            mine = calloc(1, sizeof *mine);
            if (!mine)
                return; /* the report misses this launch; the op still runs */
            mine->dev = dev;
            mine->nops = nops;
            snprintf(mine->kernel, sizeof mine->kernel, "%s", kernel);
            snprintf(mine->ops, sizeof mine->ops, "%s", ops);
            atomic_init(&mine->launches, 1);
        }
        seen = head;
        mine->next = head;
        if (atomic_compare_exchange_weak(&p->fused, &head, mine))
            return;
    }
}

accel_status accel_report_enable(accel_runtime *rt, bool on)
{
    ACCEL__CALL(call);
    ACCEL__TRY(accel__enter(&call, "accel_report_enable", rt, ACCEL__T_RUNTIME, "rt", &rt));
    rt->policy->report = on;
    accel__policy_update_checked(rt);
    return ACCEL_SUCCESS;
}

/* rows: an array of elements of `stride` bytes (the caller's struct_size),
 * each written up to min(stride, sizeof) bytes. */
static size_t report_rows(const accel_runtime *rt, accel_report_row *rows, size_t cap,
                          size_t stride)
{
    size_t n = 0;
    for (uint32_t op = 0; op < ACCEL__OP_SLOTS; op++) {
        for (uint32_t dv = 0; dv < rt->device_count; dv++) {
            accel__report_cell *c = &rt->policy->cells[(size_t)dv * ACCEL__OP_SLOTS + op];
            uint64_t ops = atomic_load(&c->ops), fb = atomic_load(&c->fallbacks);
            if (!ops && !fb)
                continue;
            if (n < cap) {
                bool why = atomic_load(&c->reason_set) == 2;
                accel_report_row r = {sizeof r,
                                      (accel_op_code)op,
                                      rt->devices[dv].name,
                                      ops > fb ? ops : fb,
                                      fb,
                                      why && c->fallback_device ? c->fallback_device->name : "",
                                      atomic_load(&c->bytes),
                                      why ? c->reason : "",
                                      "",
                                      "",
                                      0};
                size_t bytes = stride < sizeof r ? stride : sizeof r;
                accel__struct_out_write((char *)rows + n * stride, &r, bytes);
            }
            n++;
        }
    }
    /* The fused kernels, oldest first (the list is newest first). */
    size_t nf = 0;
    for (const accel__rfused *e = atomic_load(&rt->policy->fused); e; e = e->next)
        nf++;
    size_t k = nf;
    for (const accel__rfused *e = atomic_load(&rt->policy->fused); e; e = e->next) {
        size_t at = n + --k;
        if (at < cap) {
            uint64_t l = atomic_load(&e->launches);
            accel_report_row r = {sizeof r, ACCEL_OP_KERNEL, e->dev->name, l,      0, "", 0,
                                  "",       e->kernel,       e->ops,       e->nops};
            size_t bytes = stride < sizeof r ? stride : sizeof r;
            accel__struct_out_write((char *)rows + at * stride, &r, bytes);
        }
    }
    return n + nf;
}

accel_status accel_report(const accel_runtime *rt, accel_report_row *rows, size_t cap,
                          size_t *out_count)
{
    static const char fn[] = "accel_report";
    ACCEL__CALL(call);
    accel_status st = accel__enter(&call, fn, rt, ACCEL__T_RUNTIME, "rt", &rt);
    if (st != ACCEL_SUCCESS)
        return st;
    if (!out_count || (cap && !rows))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: rows or out_count is NULL", fn);
    /* rows[0].struct_size is the size of every element (the caller's
     * accel_report_row): the array's stride. */
    size_t stride = sizeof *rows;
    if (cap) {
        st = accel__struct_out_size(fn, "rows", rows, ACCEL__REPORT_ROW_SIZE_V1, SIZE_MAX, &stride);
        if (st != ACCEL_SUCCESS)
            return st;
    }
    *out_count = report_rows(rt, rows, cap, stride);
    return ACCEL_SUCCESS;
}

static accel_status format_report(const accel_runtime *rt, char *buf, size_t cap, size_t *out_len)
{
    static const char fn[] = "accel_report_format";
    size_t n = report_rows(rt, NULL, 0, sizeof(accel_report_row));
    if (!buf && cap)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: buf is NULL", fn);
    accel_report_row *rows = calloc(n ? n : 1, sizeof *rows);
    if (!rows)
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    n = report_rows(rt, rows, n, sizeof *rows);
    accel__sbuf s = {NULL, 0, 0, false};
    accel__sbuf_put(&s, "placement report:\n");
    if (!n)
        accel__sbuf_put(
            &s, "  (no ops counted; counting is on with ACCEL_REPORT=1, [runtime] report = true "
                "or accel_report_enable)\n");
    else
        accel__sbuf_put(&s, "  %-16s %-10s %10s %10s %-10s %14s  %s\n", "op", "device", "ops",
                        "fallbacks", "ran on", "bytes moved", "why");
    size_t nfused = 0;
    for (size_t i = 0; i < n; i++) {
        const accel_report_row *r = &rows[i];
        if (r->kernel[0]) {
            nfused++;
            continue;
        }
        accel__sbuf_put(&s, "  %-16s %-10s %10" PRIu64 " %10" PRIu64 " %-10s %14" PRIu64 "  %s\n",
                        accel_op_name(r->op), r->device, r->ops, r->fallbacks,
                        r->fallbacks ? r->fallback_device : r->device, r->bytes_moved,
                        r->fallbacks ? r->reason : "");
    }
    if (nfused)
        accel__sbuf_put(
            &s, "fused kernels of graphs (their launches are among the kernel ops above):\n");
    for (size_t i = 0; i < n; i++) {
        const accel_report_row *r = &rows[i];
        if (r->kernel[0])
            accel__sbuf_put(&s, "  %s on %s: %" PRIu64 " launches, %u ops fused: %s\n", r->kernel,
                            r->device, r->ops, r->fused_count, r->fused_ops);
    }
    free(rows);
    if (s.oom) {
        free(s.s);
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    }
    /* The text cut to cap - 1 characters and terminated, as snprintf. */
    if (cap) {
        size_t n_copy = s.len < cap ? s.len : cap - 1;
        memcpy(buf, s.s, n_copy);
        buf[n_copy] = '\0';
    }
    free(s.s);
    if (out_len)
        *out_len = s.len;
    return ACCEL_SUCCESS;
}

accel_status accel_report_format(const accel_runtime *rt, char *buf, size_t cap, size_t *out_len)
{
    ACCEL__CALL(call);
    ACCEL__TRY(accel__enter(&call, "accel_report_format", rt, ACCEL__T_RUNTIME, "rt", &rt));
    return format_report(rt, buf, cap, out_len);
}

void accel__policy_close(accel_runtime *rt)
{
    accel__policy *p = rt->policy;
    if (!p)
        return;
    if (p->report_at_close) {
        size_t len = 0;
        if (format_report(rt, NULL, 0, &len) == ACCEL_SUCCESS) {
            char *text = malloc(len + 1);
            if (text && format_report(rt, text, len + 1, NULL) == ACCEL_SUCCESS)
                fputs(text, stderr);
            free(text);
        }
        if (p->verify_ref)
            fprintf(stderr,
                    "verify against %s: %" PRIu64 " ops checked, %" PRIu64 " mismatches, %" PRIu64
                    " skipped\n",
                    p->verify_ref->name, (uint64_t)atomic_load(&p->checked),
                    (uint64_t)atomic_load(&p->mismatches), (uint64_t)atomic_load(&p->skipped));
    }
    for (accel__rfused *e = atomic_load(&p->fused), *next; e; e = next) {
        next = e->next;
        free(e);
    }
    free(p->verify_repro_dir);
    free(p->cells);
    free(p);
    rt->policy = NULL;
}
