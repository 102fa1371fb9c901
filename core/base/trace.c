/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/trace.c — ACCEL_TRACE=FILE: a Chrome trace-event JSON file
 * (https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU,
 * loadable in Perfetto and chrome://tracing) written at accel_runtime_close.
 * accel_runtime_open checks that the file can be created (opened to append,
 * so an existing trace is not cut short yet): a path that cannot be is a
 * warning then, and no trace.
 *
 * - pid is the process id (getpid), so the traces of several processes (MPI
 *   ranks) merge into one file without colliding; the process is named
 *   "accel, pid N" ("accel rank R, pid N" under mpirun: OMPI_COMM_WORLD_RANK,
 *   PMI_RANK or PMIX_RANK). One thread per queue (tid, numbered in order of
 *   first use), named "DEVICE queue N" and sorted by device then queue, by
 *   "M" metadata events.
 * - One "X" (complete) span per op and per same-backend transfer, with
 *   device-side start and end: the backend records an event before and after
 *   the plugin call, and ts/dur (microseconds) come from event_elapsed_ms
 *   against a per-device origin event whose completion was seen on the host
 *   clock. args carry bytes moved (read plus written), flops, dtype, n and the
 *   host time of the enqueue.
 * - Events come from a per-device pool; spans are resolved (and their events
 *   recycled) when many are pending and at close, when every queue has drained.
 * The op path (submit.c) and the transfers (queue.c) make the plugin call
 * themselves between accel__trace_begin_locked and accel__trace_end_locked;
 * this file only records events around it. When no runtime traces, they pay
 * one relaxed load and branch (ACCEL__TRACING in internal.h). Cross-backend
 * copies are not traced. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/objects.h"
#include "base/status.h"
#include "base/trace.h"
#include "json.h"

atomic_int accel__tracing;

/* Pending spans beyond which enqueueing resolves the completed ones. */
#define TRACE_RESOLVE_AT 4096

typedef struct span {
    char name[40];
    const char *cat;         /* "op" or "transfer" */
    uint32_t dev, tid;       /* the device's index in the runtime; the queue's track */
    accel_be_event *e0, *e1; /* NULL once resolved */
    double enqueue_us;       /* host clock, relative to the trace's start */
    double ts, dur;          /* microseconds, device side */
    uint64_t bytes, flops, n;
    uint32_t dtype;
    bool open;     /* e1 not recorded yet: the plugin call is running */
    bool resolved; /* times known, events back in the pool */
    bool valid;    /* written to the file */
} span;

typedef struct trace_device {
    accel_be_event *origin; /* recorded and complete; NULL until first use */
    double origin_us;       /* host time its completion was seen */
    accel_be_event **pool;
    size_t pool_count, pool_cap;
} trace_device;

typedef struct accel__trace {
    char *path;
    pthread_mutex_t lock;
    double start_us; /* host clock at open: ts 0 */
    trace_device *devs;
    uint32_t dev_count;
    const accel_queue **queues; /* tid - 1 -> queue */
    uint32_t *queue_dev;
    size_t queue_count, queue_cap;
    span *spans;
    size_t count, cap, pending;
    bool failed; /* out of memory once: stop adding spans */
} accel__trace;

static double host_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

void accel__trace_open(accel_runtime *rt)
{
    const char *path = rt->cfg->trace_path; /* ACCEL_TRACE */
    if (!path)
        return;
    /* Checked now, so that a path that cannot be written is known before the
     * work rather than at close; tracing is optional, so the run goes on. The
     * file is written whole at close ("w" then): runtimes that share a path
     * each leave a complete trace, the last one's. */
    FILE *probe = fopen(path, "ae");
    if (!probe) {
        int err = errno ? errno : EIO;
        accel__log(ACCEL_LOG_WARN, "ACCEL_TRACE=%s: cannot create the file: %s; not tracing", path,
                   strerror(err));
        return;
    }
    fclose(probe);
    accel__trace *t = calloc(1, sizeof *t);
    char *p = t ? malloc(strlen(path) + 1) : NULL;
    trace_device *devs = t ? calloc(rt->device_count ? rt->device_count : 1, sizeof *devs) : NULL;
    if (!t || !p || !devs) {
        free(t);
        free(p);
        free(devs);
        accel__log(ACCEL_LOG_WARN, "ACCEL_TRACE=%s: out of host memory; not tracing", path);
        return;
    }
    strcpy(p, path);
    t->path = p;
    t->devs = devs;
    t->dev_count = rt->device_count;
    t->start_us = host_us();
    pthread_mutex_init(&t->lock, NULL);
    rt->trace = t;
    atomic_fetch_add(&accel__tracing, 1);
    accel__log(ACCEL_LOG_INFO, "tracing to %s (written at accel_runtime_close)", path);
}

/* ------------------------------------------------------------- spans */

static accel_be_event *event_get(accel_device *dev, trace_device *td)
{
    if (td->pool_count > 0)
        return td->pool[--td->pool_count];
    accel_be_event *ev = NULL;
    if (dev->be->vt->event_create(dev->be->ctx, dev->index, &ev) != ACCEL_SUCCESS)
        return NULL;
    return ev;
}

static void event_put(accel_device *dev, trace_device *td, accel_be_event *ev)
{
    if (!ev)
        return;
    if (td->pool_count == td->pool_cap) {
        size_t cap = td->pool_cap ? 2 * td->pool_cap : 64;
        accel_be_event **p = realloc(td->pool, cap * sizeof *p);
        if (!p) {
            dev->be->vt->event_destroy(dev->be->ctx, ev);
            return;
        }
        td->pool = p;
        td->pool_cap = cap;
    }
    td->pool[td->pool_count++] = ev;
}

/* The device's origin: an event recorded on q whose completion is seen on
 * the host clock, so that device times become host times. Polled with
 * event_query, which (unlike event_synchronize) leaves q's sticky error to
 * whoever synchronizes q. */
static bool origin_ensure(accel__trace *t, accel_queue *q, trace_device *td)
{
    if (td->origin)
        return true;
    accel_device *dev = q->dev;
    const accel_backend *vt = dev->be->vt;
    accel_be_event *ev = event_get(dev, td);
    if (!ev)
        return false;
    if (vt->event_record(dev->be->ctx, ev, q->be) != ACCEL_SUCCESS) {
        event_put(dev, td, ev);
        return false;
    }
    for (;;) {
        int done = 0;
        if (vt->event_query(dev->be->ctx, ev, &done) != ACCEL_SUCCESS) {
            event_put(dev, td, ev);
            return false;
        }
        if (done)
            break;
        sched_yield();
    }
    td->origin = ev;
    td->origin_us = host_us() - t->start_us;
    return true;
}

static uint32_t queue_tid(accel__trace *t, const accel_queue *q)
{
    for (size_t i = 0; i < t->queue_count; i++)
        if (t->queues[i] == q)
            return (uint32_t)i + 1;
    if (t->queue_count == t->queue_cap) {
        size_t cap = t->queue_cap ? 2 * t->queue_cap : 16;
        const accel_queue **qs = realloc(t->queues, cap * sizeof *qs);
        if (!qs)
            return 0;
        t->queues = qs;
        uint32_t *pids = realloc(t->queue_dev, cap * sizeof *pids);
        if (!pids)
            return 0;
        t->queue_dev = pids;
        t->queue_cap = cap;
    }
    t->queues[t->queue_count] = q;
    t->queue_dev[t->queue_count] = q->dev->global_index;
    return (uint32_t)++t->queue_count;
}

/* Device times of a completed span; its events go back to the pool. */
static void span_resolve(accel__trace *t, accel_runtime *rt, span *s)
{
    accel_device *dev = &rt->devices[s->dev];
    trace_device *td = &t->devs[s->dev];
    const accel_backend *vt = dev->be->vt;
    double start_ms = 0.0, dur_ms = 0.0;
    s->valid = vt->event_elapsed_ms(dev->be->ctx, td->origin, s->e0, &start_ms) == ACCEL_SUCCESS &&
               vt->event_elapsed_ms(dev->be->ctx, s->e0, s->e1, &dur_ms) == ACCEL_SUCCESS;
    s->ts = td->origin_us + start_ms * 1e3;
    s->dur = dur_ms > 0 ? dur_ms * 1e3 : 0.0;
    event_put(dev, td, s->e0);
    event_put(dev, td, s->e1);
    s->e0 = s->e1 = NULL;
    s->resolved = true;
    t->pending--;
}

/* Resolve every pending span whose end event has completed (all of them at
 * close). */
static void resolve_done(accel__trace *t, accel_runtime *rt, bool all)
{
    for (size_t i = 0; i < t->count && t->pending > 0; i++) {
        span *s = &t->spans[i];
        if (s->resolved || s->open)
            continue;
        if (!all) {
            accel_device *dev = &rt->devices[s->dev];
            int done = 0;
            if (dev->be->vt->event_query(dev->be->ctx, s->e1, &done) != ACCEL_SUCCESS || !done)
                continue;
        }
        span_resolve(t, rt, s);
    }
}

#define NO_SPAN ACCEL__NO_SPAN

/* Start a span: e0 recorded on q, the slot reserved (other queues may add
 * spans, and move the array, before this one ends). Returns its index, or
 * NO_SPAN (the caller just makes the plain call) when anything is missing.
 * t->lock held. */
static size_t span_begin(accel__trace *t, accel_queue *q, const char *name, const char *cat)
{
    if (t->failed)
        return NO_SPAN;
    /* Before e0 is recorded: a CPU queue may run the record at once. */
    double enqueue_us = host_us() - t->start_us;
    accel_device *dev = q->dev;
    trace_device *td = &t->devs[dev->global_index];
    if (t->pending >= TRACE_RESOLVE_AT)
        resolve_done(t, dev->rt, false);
    if (t->count == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        span *p = realloc(t->spans, cap * sizeof *p);
        if (!p) {
            t->failed = true;
            accel__log(ACCEL_LOG_WARN, "ACCEL_TRACE: out of host memory; later ops not traced");
            return NO_SPAN;
        }
        t->spans = p;
        t->cap = cap;
    }
    uint32_t tid = queue_tid(t, q);
    if (tid == 0 || !origin_ensure(t, q, td))
        return NO_SPAN;
    accel_be_event *e0 = event_get(dev, td), *e1 = e0 ? event_get(dev, td) : NULL;
    if (!e1 || dev->be->vt->event_record(dev->be->ctx, e0, q->be) != ACCEL_SUCCESS) {
        event_put(dev, td, e0);
        event_put(dev, td, e1);
        return NO_SPAN;
    }
    span *s = &t->spans[t->count];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name ? name : "op");
    s->cat = cat;
    s->dev = dev->global_index;
    s->tid = tid;
    s->e0 = e0;
    s->e1 = e1;
    s->enqueue_us = enqueue_us;
    s->open = true;
    t->pending++;
    return t->count++;
}

/* Close the span after the plugin call returned rc: e1 recorded, kept on
 * success, dropped on failure. */
static void span_end(accel__trace *t, accel_queue *q, size_t i, int32_t rc)
{
    accel_device *dev = q->dev;
    trace_device *td = &t->devs[dev->global_index];
    span *s = &t->spans[i];
    s->open = false;
    if (rc != ACCEL_SUCCESS ||
        dev->be->vt->event_record(dev->be->ctx, s->e1, q->be) != ACCEL_SUCCESS) {
        event_put(dev, td, s->e0);
        event_put(dev, td, s->e1);
        s->e0 = s->e1 = NULL;
        s->resolved = true;
        t->pending--;
    }
}

size_t accel__trace_begin_locked(accel_queue *q, const char *name, const char *cat, uint32_t dtype,
                                 uint64_t bytes, uint64_t flops, uint64_t n)
{
    accel__trace *t = q->dev->rt->trace;
    if (!t)
        return ACCEL__NO_SPAN;
    pthread_mutex_lock(&t->lock);
    size_t s = span_begin(t, q, name, cat);
    if (s != NO_SPAN) {
        t->spans[s].bytes = bytes;
        t->spans[s].flops = flops;
        t->spans[s].n = n;
        t->spans[s].dtype = dtype;
    }
    pthread_mutex_unlock(&t->lock);
    return s;
}

void accel__trace_end_locked(accel_queue *q, size_t s, int32_t rc)
{
    accel__trace *t = q->dev->rt->trace;
    if (!t || s == NO_SPAN)
        return;
    pthread_mutex_lock(&t->lock);
    span_end(t, q, s, rc);
    pthread_mutex_unlock(&t->lock);
}

/* -------------------------------------------------------------- output */

/* The MPI rank of this process from the launcher's environment, or -1. */
static long mpi_rank(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        char *end = NULL;
        long r = v && *v ? strtol(v, &end, 10) : -1;
        if (end && *end == '\0' && r >= 0)
            return r;
    }
    return -1;
}

/* The "M" events: the process's name, and per queue its track's name
 * ("cpu:0 queue 1") and place (by device, then queue). */
static void write_names(FILE *f, const accel__trace *t, const accel_runtime *rt, unsigned pid)
{
    char label[96];
    long rank = mpi_rank();
    if (rank >= 0)
        snprintf(label, sizeof label, "accel rank %ld, pid %u", rank, pid);
    else
        snprintf(label, sizeof label, "accel, pid %u", pid);
    fprintf(f, "\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":0,\"args\":{\"name\":",
            pid);
    accel__json_string(f, label);
    fprintf(f, "}}");
    if (rank >= 0)
        fprintf(f,
                ",\n{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":%u,\"tid\":0,"
                "\"args\":{\"sort_index\":%ld}}",
                pid, rank);
    for (size_t i = 0; i < t->queue_count; i++) {
        const accel_device *dev = &rt->devices[t->queue_dev[i]];
        char name[320];
        snprintf(name, sizeof name, "%s queue %zu (%s)", dev->name, i + 1, dev->props.name);
        fprintf(
            f,
            ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":%zu,\"args\":{\"name\":",
            pid, i + 1);
        accel__json_string(f, name);
        fprintf(f,
                "}},\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":%u,\"tid\":%zu,"
                "\"args\":{\"sort_index\":%zu}}",
                pid, i + 1, (size_t)t->queue_dev[i] * 65536 + i + 1);
    }
}

static int write_json(const accel__trace *t, const accel_runtime *rt)
{
    FILE *f = fopen(t->path, "we");
    if (!f)
        return errno ? errno : EIO;
    fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"accel_version\":");
    accel__json_string(f, accel_version());
    fprintf(f, ",\"clock\":\"device events, microseconds since accel_runtime_open\"},"
               "\n\"traceEvents\":[");
    unsigned pid = (unsigned)getpid();
    write_names(f, t, rt, pid);
    for (size_t i = 0; i < t->count; i++) {
        const span *s = &t->spans[i];
        if (!s->valid)
            continue;
        fprintf(f, ",\n{\"name\":");
        accel__json_string(f, strncmp(s->name, "accel_", 6) == 0 ? s->name + 6 : s->name);
        fprintf(f,
                ",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":%u,\"tid\":%u,"
                "\"args\":{\"bytes\":%llu,\"flops\":%llu,\"dtype\":\"%s\",\"n\":%llu,"
                "\"enqueue_us\":%.3f,\"seq\":%zu}}",
                s->cat, s->ts, s->dur, pid, s->tid, (unsigned long long)s->bytes,
                (unsigned long long)s->flops,
                s->dtype ? accel_dtype_name((accel_dtype)s->dtype) : "bytes",
                (unsigned long long)s->n, s->enqueue_us, i);
    }
    fprintf(f, "\n]}\n");
    int err = ferror(f) ? EIO : 0;
    if (fclose(f) != 0 && !err)
        err = errno ? errno : EIO;
    return err;
}

void accel__trace_close(accel_runtime *rt)
{
    accel__trace *t = rt->trace;
    if (!t)
        return;
    rt->trace = NULL;
    atomic_fetch_sub(&accel__tracing, 1);
    resolve_done(t, rt, true);
    int err = write_json(t, rt);
    if (err)
        accel__log(ACCEL_LOG_WARN, "ACCEL_TRACE: cannot write %s: %s", t->path, strerror(err));
    else
        accel__log(ACCEL_LOG_INFO, "ACCEL_TRACE: wrote %zu spans to %s", t->count, t->path);
    for (uint32_t d = 0; d < t->dev_count; d++) {
        accel_device *dev = &rt->devices[d];
        trace_device *td = &t->devs[d];
        const accel_backend *vt = dev->be->vt;
        if (td->origin)
            vt->event_destroy(dev->be->ctx, td->origin);
        for (size_t i = 0; i < td->pool_count; i++)
            vt->event_destroy(dev->be->ctx, td->pool[i]);
        free(td->pool);
    }
    free(t->devs);
    free(t->queues);
    free(t->queue_dev);
    free(t->spans);
    free(t->path);
    pthread_mutex_destroy(&t->lock);
    free(t);
}
