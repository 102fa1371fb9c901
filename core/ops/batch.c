/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/batch.c — accel_batch_plan and accel_batch_run: host arrays streamed
 * through a device in chunks over several queues, so that one chunk's
 * copy-in, another's compute and a third's copy-out run at once. Built on
 * the public API only (queues, buffers, transfers, events): every transfer
 * and op takes the one validated path like any other call.
 *
 * How the cut is chosen. With B input bytes, copy-in rate r, s pipeline
 * stages (copy-in, compute, and copy-out when an output is proportional to
 * the input; a few bytes per chunk are no stage) and a gap g between two
 * transfers on the device, N chunks take about
 *     (N + s - 1) * (B / N) / r  +  N * g
 * (the pipeline fills and drains over s - 1 chunks; every chunk pays one
 * gap), smallest at N = sqrt((s - 1) * B / (r * g)): a chunk of
 * sqrt(B * r * g / (s - 1)) input bytes. r is measured by copying input 0's
 * first bytes in from the caller's own memory, g by a tiny transfer between
 * two events, and the host time h of one enqueue keeps chunks long enough
 * (>= 4 h r) that the host stays ahead of the device.
 *
 * From pageable memory the host is the slow stage: a write returns once the
 * backend has copied the chunk into its pinned staging (the CUDA backend),
 * so the probe's write takes a good part of its device time on the host
 * (host copy c and link r: r / (r + c) of it, 0.5 for c = r; a write from
 * page-locked memory returns at once: under 0.1). Above 0.3 the input
 * counts as host-bound. Then the host's fixed work per chunk (the write's
 * own calls, and what of the compute's enqueues, events and copy-out the
 * feeder thread below does not hide: taken as 8 enqueues) adds to every
 * chunk instead of hiding behind the device, and g above becomes
 * max(g, 8 h): longer chunks, fewer of them. The pipeline's drain is then
 * the last chunk's DMA at the link's rate, not at the probe's rate of host
 * copy and DMA one after the other, so r there is the link's: the probe's
 * bytes over its write's device time past its host time. (H200, 100M
 * floats, 64 MiB cap: 28 chunks of 14.7 MB moved 0.605 of the pinned rate
 * from pageable memory, 15 chunks of 28 MB 0.690.)
 *
 * What a call costs besides its chunks. A first call on a device makes its
 * queues (and, from pageable memory, the backend's staging on each: on
 * CUDA 64 MiB page-locked per queue, tens of milliseconds) and probes; the
 * whole call took 49-87 ms on the H200 where the chunks took 10-45. So a
 * run leaves its queues, events, page-locked room for fixed outputs and
 * probes on the device for the next (batch_keep below), as CuPy's pools
 * keep memory; a warm call pays buffers from the backend's cache and the
 * chunks. Whether the input is host-bound (the feeder thread below) is not
 * timed per call either: memory accel page-locked (accel_host_register,
 * accel_host_alloc) is not, any other is taken to be. */
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/handle.h"
#include "base/objects.h"
#include "base/status.h"
#include "base/struct_size.h"
#include "ops/batch.h"

#define BATCH_MAX ACCEL_BATCH_MAX_ARRAYS
#define BATCH_MAX_QUEUES 4
#define BATCH_PROBE_BYTES ((size_t)8 << 20)
#define BATCH_TINY_BYTES ((size_t)4096)
#define BATCH_WARM_BYTES ((size_t)1 << 20)
#define BATCH_MIN_CHUNK_BYTES ((double)(1 << 20))
#define BATCH_DEFAULT_CAP ((size_t)1 << 30)
#define BATCH_DESC_V1 offsetof(accel_batch_desc, reserved)
/* The first stats ended after gbs; the phase times came later. */
#define BATCH_STATS_V1 (offsetof(accel_batch_stats, gbs) + sizeof(double))

void accel_batch_desc_init(accel_batch_desc *d)
{
    accel__struct_init(d, sizeof *d);
}

void accel_batch_stats_init(accel_batch_stats *s)
{
    accel__struct_init(s, sizeof *s);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ------------------------------------------------------------ the desc */

/* The caller's desc in a full-size copy (older, smaller structs get zeros
 * for the fields they lack). */
static accel_status desc_read(const accel_batch_desc *in, accel_batch_desc *d, const char *fn)
{
    if (!in)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: desc is NULL", fn);
    if (in->struct_size < BATCH_DESC_V1)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: desc->struct_size is %u, smaller than any version (%zu); call "
                           "accel_batch_desc_init",
                           fn, in->struct_size, (size_t)BATCH_DESC_V1);
    accel_batch_desc_init(d);
    memcpy(d, in, in->struct_size < sizeof *d ? in->struct_size : sizeof *d);
    return ACCEL_SUCCESS;
}

/* Bytes of array a for a chunk of `elems` elements. */
static size_t part_bytes(const accel_batch_array *a, size_t elems)
{
    return a->chunk_bytes ? a->chunk_bytes : elems * a->elem_size;
}

/* Input bytes per element, summed over the inputs; and the device bytes of
 * one chunk of `elems` (every input and output). */
static size_t in_elem_bytes(const accel_batch_desc *d)
{
    size_t b = 0;
    for (uint32_t i = 0; i < d->in_count; i++)
        b += d->in[i].elem_size;
    return b;
}

static size_t set_bytes(const accel_batch_desc *d, size_t elems)
{
    size_t b = elems * in_elem_bytes(d);
    for (uint32_t i = 0; i < d->out_count; i++)
        b += part_bytes(&d->out[i], elems);
    return b;
}

static bool proportional_out(const accel_batch_desc *d)
{
    for (uint32_t i = 0; i < d->out_count; i++)
        if (!d->out[i].chunk_bytes)
            return true;
    return false;
}

/* An array: host set (outputs in sizing mode may wait), exactly one size
 * rule, and room for n elements when proportional. */
static accel_status array_check(const accel_batch_array *a, const char *what, uint32_t i, size_t n,
                                bool sizing, const char *fn)
{
    bool output = what[0] == 'o';
    if (!a->host && !(sizing && output))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: %s[%u].host is NULL", fn, what, i);
    if (!a->elem_size == !a->chunk_bytes || (!output && a->chunk_bytes))
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: %s[%u] needs exactly one of elem_size and chunk_bytes "
                           "(chunk_bytes: outputs only)",
                           fn, what, i);
    if (a->elem_size && n > SIZE_MAX / a->elem_size)
        return accel__fail(ACCEL_ERROR_OUT_OF_RANGE, "%s: %s[%u]: %zu elements overflow", fn, what,
                           i, n);
    if (a->elem_size && a->bytes < n * a->elem_size && !(sizing && output))
        return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                           "%s: %s[%u].bytes is %zu but %zu elements need %zu", fn, what, i,
                           a->bytes, n, n * a->elem_size);
    return ACCEL_SUCCESS;
}

/* sizing: accel_batch_plan, where outputs may still be missing. */
static accel_status desc_check(const accel_batch_desc *d, bool sizing, const char *fn)
{
    if (!d->compute)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: desc->compute is NULL", fn);
    if (d->in_count < 1 || d->in_count > BATCH_MAX || d->out_count > BATCH_MAX)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: in_count %u and out_count %u must be 1..%d and 0..%d", fn,
                           d->in_count, d->out_count, BATCH_MAX, BATCH_MAX);
    accel_status st = ACCEL_SUCCESS;
    for (uint32_t i = 0; i < d->in_count && st == ACCEL_SUCCESS; i++)
        st = array_check(&d->in[i], "in", i, d->n, sizing, fn);
    for (uint32_t i = 0; i < d->out_count && st == ACCEL_SUCCESS; i++)
        st = array_check(&d->out[i], "out", i, d->n, sizing, fn);
    return st;
}

/* Device memory the run may take. */
static size_t budget_of(accel_device *dev, const accel_batch_desc *d)
{
    if (d->device_bytes)
        return d->device_bytes;
    accel_device_properties p;
    accel_device_properties_init(&p);
    size_t cap = BATCH_DEFAULT_CAP;
    if (accel_device_properties_get(dev, &p) == ACCEL_SUCCESS && p.memory_free / 4 < cap)
        cap = (size_t)(p.memory_free / 4);
    return cap;
}

/* ----------------------------------------------------------- the probe */

/* Measured for the cut: r in bytes per ms, g and h in ms. */
typedef struct batch_probe {
    double r, g, h;
    double r_link;   /* host-bound: bytes over the write's device time past its host time */
    bool host_bound; /* the write's host time was over 0.3 of its device time */
} batch_probe;

/* ------------------------------------------------------------ the keep */

/* One queue and one set of buffers per slot; with several slots, events
 * that mark the slot's compute done and its outputs copied out (see
 * run_chunks). warmed: the queue has made one transfer from pageable
 * memory (a backend's staging is set up). */
typedef struct batch_slot {
    accel_queue *q;
    accel_buffer *in[BATCH_MAX], *out[BATCH_MAX];
    accel_event *computed, *freed;
    bool warmed;
} batch_slot;

typedef struct batch_slots {
    uint32_t n;
    batch_slot s[BATCH_MAX_QUEUES];
} batch_slots;

/* What a run leaves on its device for the next one, as CuPy's pools keep
 * memory between calls: the queues (with the staging a backend set up on
 * them: on CUDA a 64 MiB page-locked ring per queue, tens of milliseconds
 * to make) and their events, the page-locked room for fixed outputs, and
 * the last probe of page-locked and of other input (the automatic cut of a
 * later run on the same kind of memory takes it without copying again).
 * Buffers are not kept: a backend's allocator caches them. A run takes the
 * keep by an atomic exchange, so two runs on one device at once each get
 * their own (the second makes new objects) and the one that ends last
 * releases its own. Everything in it is the runtime's, released at close. */
struct batch_feeder;
static void feeder_quit(struct batch_feeder *f);

struct accel__batch_keep {
    batch_slots sl;
    struct batch_feeder *feeder; /* its thread, made by the first host-bound run */
    void *bounce;                /* accel_host_alloc memory, bounce_bytes long */
    size_t bounce_bytes;
    bool probed[2]; /* [locked]: probe[locked] holds a measurement */
    batch_probe probe[2];
};
typedef struct accel__batch_keep batch_keep;

static batch_keep *keep_take(accel_device *obj)
{
    batch_keep *k = __atomic_exchange_n(&obj->batch_keep, NULL, __ATOMIC_ACQ_REL);
    return k ? k : calloc(1, sizeof *k);
}

static void keep_release(accel_device *dev, batch_keep *k)
{
    for (uint32_t i = 0; i < BATCH_MAX_QUEUES; i++) {
        batch_slot *slot = &k->sl.s[i];
        accel_queue_release(slot->q);
        accel_event_release(slot->computed);
        accel_event_release(slot->freed);
        for (uint32_t a = 0; a < BATCH_MAX; a++) {
            accel_buffer_release(slot->in[a]);
            accel_buffer_release(slot->out[a]);
        }
    }
    if (k->bounce)
        accel_host_free(dev, k->bounce);
    feeder_quit(k->feeder);
    free(k);
}

/* After a run: the buffers go (when ok, the run finished every queue they
 * were used on: no wait for the runtime's other queues); the rest stays on
 * the device when ok (the run succeeded, its queues carry no failure) and
 * no other run left its own meanwhile; else everything is released. */
static void keep_put(accel_device *dev, accel_device *obj, batch_keep *k, bool ok)
{
    if (!k)
        return;
    void (*release)(accel_buffer *) = ok ? accel__buffer_release_drained : accel_buffer_release;
    for (uint32_t i = 0; i < BATCH_MAX_QUEUES; i++)
        for (uint32_t a = 0; a < BATCH_MAX; a++) {
            release(k->sl.s[i].in[a]);
            release(k->sl.s[i].out[a]);
            k->sl.s[i].in[a] = k->sl.s[i].out[a] = NULL;
        }
    batch_keep *none = NULL;
    if (!ok || !__atomic_compare_exchange_n(&obj->batch_keep, &none, k, false, __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE))
        keep_release(dev, k);
}

void accel__batch_keep_free(accel_device *dev)
{
    if (dev->batch_keep)
        feeder_quit(dev->batch_keep->feeder);
    free(dev->batch_keep);
    dev->batch_keep = NULL;
}

/* The device time of one write (events), and its host time (the call). */
static accel_status time_write(accel_queue *q, accel_event *const e[2], accel_buffer *b,
                               const void *src, size_t bytes, double *out_ms, double *host_ms)
{
    accel_status st = accel_event_record(e[0], q);
    double t0 = now_ms();
    if (st == ACCEL_SUCCESS)
        st = accel_queue_write(q, b, 0, src, bytes);
    *host_ms = now_ms() - t0;
    if (st == ACCEL_SUCCESS)
        st = accel_event_record(e[1], q);
    if (st == ACCEL_SUCCESS)
        st = accel_event_synchronize(e[1]);
    if (st == ACCEL_SUCCESS)
        st = accel_event_elapsed_ms(e[0], e[1], out_ms);
    return st;
}

/* Copy input 0's first bytes in (at most 8 MiB and at most the run's device
 * budget; twice: the first warms the path), a tiny range between events, and
 * time the host side of a few enqueues. */
static accel_status probe_run(accel_device *dev, accel_queue *q, const accel_batch_desc *d,
                              size_t budget, batch_probe *p)
{
    size_t all = d->n * d->in[0].elem_size;
    size_t bytes = all < BATCH_PROBE_BYTES ? all : BATCH_PROBE_BYTES;
    if (bytes > budget) /* the probe's buffer counts against device_bytes too */
        bytes = budget;
    if (bytes == 0) {
        p->r = INFINITY;
        return ACCEL_SUCCESS;
    }
    size_t tiny = bytes < BATCH_TINY_BYTES ? bytes : BATCH_TINY_BYTES;
    accel_buffer *b = NULL;
    accel_event *e[2] = {NULL, NULL};
    double ms = 0, tiny_ms = 0, host_ms = 0, tiny_host_ms = 0;
    accel_status st = accel_buffer_create(dev, bytes, &b);
    for (int i = 0; i < 2 && st == ACCEL_SUCCESS; i++)
        st = accel_event_create(dev, &e[i]);
    for (int i = 0; i < 2 && st == ACCEL_SUCCESS; i++)
        st = time_write(q, e, b, d->in[0].host, bytes, &ms, &host_ms);
    if (st == ACCEL_SUCCESS)
        st = time_write(q, e, b, d->in[0].host, tiny, &tiny_ms, &tiny_host_ms);
    double t0 = now_ms();
    for (int i = 0; i < 8 && st == ACCEL_SUCCESS; i++)
        st = accel_queue_write(q, b, 0, d->in[0].host, tiny);
    p->h = (now_ms() - t0) / 8;
    if (st == ACCEL_SUCCESS)
        st = accel_queue_finish(q);
    p->r = ms > 0 ? (double)bytes / ms : INFINITY;
    p->g = tiny_ms;
    p->host_bound = ms > 0 && host_ms > 0.3 * ms;
    p->r_link = p->host_bound && ms > host_ms ? (double)bytes / (ms - host_ms) : p->r;
    accel_event_release(e[0]);
    accel_event_release(e[1]);
    accel_buffer_release(b);
    return st;
}

/* The cut from measured rates (see the file comment), in elements. */
static size_t cut_from_probe(const accel_batch_desc *d, const batch_probe *p, uint32_t queues,
                             size_t budget)
{
    const double stages = proportional_out(d) ? 3.0 : 2.0;
    const double per_elem = (double)in_elem_bytes(d);
    const double total = (double)d->n * per_elem;
    double bytes = total;
    if (isfinite(p->r)) {
        double gap = p->host_bound ? fmax(p->g, 8.0 * p->h) : p->g;
        double rate = p->host_bound ? fmax(p->r, p->r_link) : p->r;
        bytes = sqrt(total * rate * fmax(gap, 1e-4) / (stages - 1.0));
        bytes = fmax(bytes, fmax(BATCH_MIN_CHUNK_BYTES, 4.0 * p->h * p->r));
    }
    double elems = fmin(bytes / per_elem, (double)d->n);
    /* Every queue holds one set of buffers; fixed outputs do not scale. */
    size_t fixed = set_bytes(d, 0);
    double room = budget / queues > fixed ? (double)(budget / queues - fixed) : 0.0;
    double per_set = (double)(set_bytes(d, 1) - fixed);
    return (size_t)fmin(elems, floor(room / per_set));
}

/* ------------------------------------------------------------ the plan */

/* Fill s with the cut (queues, chunk_elems, chunks) of a checked desc. q is
 * a queue of dev for the probe when one is needed; k's probe of the same
 * kind of memory (locked: input 0 is page-locked by accel) stands in for
 * one, and a new probe is kept there. */
static accel_status plan(accel_device *dev, accel_queue *q, const accel_batch_desc *d, bool sizing,
                         batch_keep *k, bool locked, accel_batch_stats *s, const char *fn)
{
    s->queues = d->queues ? (d->queues > BATCH_MAX_QUEUES ? BATCH_MAX_QUEUES : d->queues)
                          : (proportional_out(d) ? 3 : 2);
    s->chunk_elems = d->chunk_elems;
    if (d->n == 0)
        return ACCEL_SUCCESS;
    size_t budget = budget_of(dev, d);
    if (!s->chunk_elems) {
        batch_probe p = k->probe[locked];
        if (!k->probed[locked]) {
            double t0 = now_ms();
            accel_status st = probe_run(dev, q, d, budget, &p);
            s->probe_ms = now_ms() - t0;
            if (st != ACCEL_SUCCESS)
                return st;
            /* A probe of fewer bytes than the most it copies says too little
             * of the rate to stand for later runs. */
            if (d->n * d->in[0].elem_size >= BATCH_PROBE_BYTES && isfinite(p.r)) {
                k->probe[locked] = p;
                k->probed[locked] = true;
            }
        }
        s->chunk_elems = cut_from_probe(d, &p, s->queues, budget);
        s->h2d_gbs = isfinite(p.r) ? p.r / 1e6 : 0;
    }
    if (s->chunk_elems == 0)
        return accel__fail(ACCEL_ERROR_OUT_OF_DEVICE_MEMORY,
                           "%s: device_bytes %zu leaves no room for one element in each of %u "
                           "queues",
                           fn, budget, s->queues);
    if (s->chunk_elems > d->n)
        s->chunk_elems = d->n;
    s->chunks = (d->n + s->chunk_elems - 1) / s->chunk_elems;
    for (uint32_t i = 0; i < d->out_count && !sizing; i++) {
        const accel_batch_array *a = &d->out[i];
        if (a->chunk_bytes && a->bytes / a->chunk_bytes < s->chunks)
            return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                               "%s: out[%u] needs %llu chunks x %zu bytes but bytes is %zu", fn, i,
                               (unsigned long long)s->chunks, a->chunk_bytes, a->bytes);
    }
    return ACCEL_SUCCESS;
}

/* ------------------------------------------------------------ the run */

static accel_status slots_create(accel_device *dev, const accel_batch_desc *d,
                                 const accel_batch_stats *s, batch_slots *sl)
{
    accel_status st = ACCEL_SUCCESS;
    sl->n = s->queues;
    for (uint32_t i = 0; i < sl->n && st == ACCEL_SUCCESS; i++) {
        batch_slot *slot = &sl->s[i];
        if (!slot->q)
            st = accel_queue_create(dev, &slot->q);
        if (st == ACCEL_SUCCESS && sl->n > 1 && !slot->computed)
            st = accel_event_create(dev, &slot->computed);
        if (st == ACCEL_SUCCESS && sl->n > 1 && !slot->freed)
            st = accel_event_create(dev, &slot->freed);
        for (uint32_t a = 0; a < d->in_count && st == ACCEL_SUCCESS; a++)
            st = accel_buffer_create(dev, part_bytes(&d->in[a], s->chunk_elems), &slot->in[a]);
        for (uint32_t a = 0; a < d->out_count && st == ACCEL_SUCCESS; a++)
            st = accel_buffer_create(dev, part_bytes(&d->out[a], s->chunk_elems), &slot->out[a]);
    }
    return st;
}

/* Make every slot's transfer path ready before the timing: a backend may
 * set a queue's staging up on its first transfer from pageable memory (the
 * CUDA backend page-locks a 64 MiB ring per queue then, tens of
 * milliseconds). On each slot whose queue has made no such transfer yet
 * (queues kept from an earlier run have), one of up to 1 MiB with array
 * `w` (pageable; an input: written from, else an output: read into), whose
 * bytes the run then overwrites. */
static accel_status slots_warm(const accel_batch_desc *d, const accel_batch_stats *s,
                               batch_slots *sl, uint32_t w)
{
    const bool in = w < d->in_count;
    const accel_batch_array *a = in ? &d->in[w] : &d->out[w - d->in_count];
    size_t bytes = part_bytes(a, s->chunk_elems);
    if (bytes > BATCH_WARM_BYTES)
        bytes = BATCH_WARM_BYTES;
    accel_status st = ACCEL_SUCCESS;
    bool sent[BATCH_MAX_QUEUES] = {false};
    for (uint32_t i = 0; i < sl->n && st == ACCEL_SUCCESS; i++) {
        if (sl->s[i].warmed || !bytes)
            continue;
        st = in ? accel_queue_write(sl->s[i].q, sl->s[i].in[w], 0, a->host, bytes)
                : accel_queue_read(sl->s[i].q, sl->s[i].out[w - d->in_count], 0, a->host, bytes);
        sent[i] = st == ACCEL_SUCCESS;
    }
    for (uint32_t i = 0; i < sl->n && st == ACCEL_SUCCESS; i++)
        if (sent[i])
            st = accel_queue_finish(sl->s[i].q);
    for (uint32_t i = 0; i < sl->n && st == ACCEL_SUCCESS; i++)
        sl->s[i].warmed = sl->s[i].warmed || sent[i];
    return st;
}

/* Fixed outputs (a few bytes per chunk) land in page-locked memory first:
 * on CUDA a copy of a few bytes to pageable memory is synchronous (the host
 * waits in it for the chunk's compute, and each chunk paid about 40 us of
 * such waits in a 100M-float batched sum), one to page-locked memory is not.
 * The caller's arrays get them after the run. Where the backend cannot
 * page-lock the room, the caller's memory is used as it is. */
typedef struct batch_bounce {
    void *user[BATCH_MAX], *pinned[BATCH_MAX];
    size_t bytes[BATCH_MAX];
} batch_bounce;

static void bounce_setup(accel_device *dev, accel_batch_desc *d, const accel_batch_stats *s,
                         batch_keep *k, batch_bounce *b)
{
    memset(b, 0, sizeof *b);
    size_t need = 0;
    for (uint32_t i = 0; i < d->out_count; i++)
        need += (size_t)s->chunks * d->out[i].chunk_bytes;
    if (!need)
        return;
    if (k->bounce_bytes < need) { /* the kept room is too small: a larger one */
        if (k->bounce)
            accel_host_free(dev, k->bounce);
        k->bounce = NULL;
        k->bounce_bytes = 0;
        if (accel_host_alloc(dev, need, &k->bounce) != ACCEL_SUCCESS) {
            accel__clear_error();
            k->bounce = NULL;
            return;
        }
        k->bounce_bytes = need;
    }
    char *p = k->bounce;
    for (uint32_t i = 0; i < d->out_count; i++) {
        accel_batch_array *a = &d->out[i];
        size_t bytes = (size_t)s->chunks * a->chunk_bytes;
        if (!bytes)
            continue;
        b->user[i] = a->host;
        b->pinned[i] = p;
        b->bytes[i] = bytes;
        a->host = p;
        p += bytes;
    }
}

/* Hand the fixed outputs to the caller's arrays (copy: the run succeeded);
 * the room stays in the keep. */
static void bounce_finish(accel_batch_desc *d, batch_bounce *b, bool copy)
{
    for (uint32_t i = 0; i < BATCH_MAX; i++) {
        if (!b->pinned[i])
            continue;
        if (copy)
            memcpy(b->user[i], b->pinned[i], b->bytes[i]);
        d->out[i].host = b->user[i];
    }
}

/* Host address of chunk c's part of array a. */
static char *host_part(const accel_batch_array *a, const accel_batch_chunk *c)
{
    size_t off = a->chunk_bytes ? (size_t)c->index * a->chunk_bytes : c->first * a->elem_size;
    return (char *)a->host + off;
}

static accel_batch_chunk chunk_make(const accel_batch_desc *d, const accel_batch_stats *s,
                                    const batch_slots *sl, uint64_t index)
{
    accel_batch_chunk c;
    accel__struct_init(&c, sizeof c);
    c.slot = (uint32_t)(index % sl->n);
    c.index = index;
    c.first = (size_t)index * s->chunk_elems;
    c.elems = d->n - c.first < s->chunk_elems ? d->n - c.first : s->chunk_elems;
    for (uint32_t a = 0; a < BATCH_MAX; a++) {
        c.in[a] = sl->s[c.slot].in[a];
        c.out[a] = sl->s[c.slot].out[a];
    }
    return c;
}

/* Copy chunk `index`'s outputs from its slot's buffers back, on q. */
static accel_status chunk_reads(const accel_batch_desc *d, const accel_batch_stats *s,
                                const batch_slots *sl, uint64_t index, accel_queue *q)
{
    accel_batch_chunk c = chunk_make(d, s, sl, index);
    accel_status st = ACCEL_SUCCESS;
    for (uint32_t a = 0; a < d->out_count && st == ACCEL_SUCCESS; a++)
        st = accel_queue_read(q, c.out[a], 0, host_part(&d->out[a], &c),
                              part_bytes(&d->out[a], c.elems));
    return st;
}

/* Copy chunk `index`'s inputs in, on its slot's queue. */
static accel_status chunk_writes(const accel_batch_desc *d, const accel_batch_stats *s,
                                 const batch_slots *sl, uint64_t index)
{
    accel_batch_chunk c = chunk_make(d, s, sl, index);
    accel_status st = ACCEL_SUCCESS;
    for (uint32_t a = 0; a < d->in_count && st == ACCEL_SUCCESS; a++)
        st = accel_queue_write(sl->s[c.slot].q, c.in[a], 0, host_part(&d->in[a], &c),
                               part_bytes(&d->in[a], c.elems));
    return st;
}

/* Enqueue chunk `index` on its slot: copy in (unless the feeder has),
 * compute, and (one slot) copy out. around (NULL, or two events) is
 * recorded before and after the compute. With several slots the copy-out is
 * left to the next chunk (see run_chunks): the compute first waits until
 * the slot's previous chunk's outputs are out, and marks itself done. */
static accel_status chunk_enqueue(const accel_batch_desc *d, const accel_batch_stats *s,
                                  const batch_slots *sl, uint64_t index, accel_event *const *around,
                                  bool written)
{
    accel_batch_chunk c = chunk_make(d, s, sl, index);
    const batch_slot *slot = &sl->s[c.slot];
    accel_queue *q = slot->q;
    const bool lag = sl->n > 1;
    accel_status st = written ? ACCEL_SUCCESS : chunk_writes(d, s, sl, index);
    if (st == ACCEL_SUCCESS && lag && index >= sl->n)
        st = accel_queue_wait_event(q, slot->freed); /* chunk index - n's outputs are out */
    if (st == ACCEL_SUCCESS && around)
        st = accel_event_record(around[0], q);
    if (st == ACCEL_SUCCESS) {
        accel__clear_error();
        st = d->compute(q, &c, d->user);
        if (st != ACCEL_SUCCESS)
            st = accel__fail_relay(st, "accel_batch_run: compute of chunk %llu",
                                   (unsigned long long)index);
    }
    if (st == ACCEL_SUCCESS && around)
        st = accel_event_record(around[1], q);
    if (!lag)
        return st == ACCEL_SUCCESS ? chunk_reads(d, s, sl, index, q) : st;
    if (st == ACCEL_SUCCESS)
        st = accel_event_record(slot->computed, q);
    if (st == ACCEL_SUCCESS && index > 0) { /* the previous chunk's copy-out, on this queue */
        const batch_slot *prev = &sl->s[(index - 1) % sl->n];
        st = accel_queue_wait_event(q, prev->computed);
        if (st == ACCEL_SUCCESS)
            st = chunk_reads(d, s, sl, index - 1, q);
        if (st == ACCEL_SUCCESS)
            st = accel_event_record(prev->freed, q);
    }
    return st;
}

/* Finish every slot's queue; st stays the first failure, with its message. */
static accel_status slots_finish(const batch_slots *sl, accel_status st)
{
    char msg[768];
    snprintf(msg, sizeof msg, "%s", st == ACCEL_SUCCESS ? "" : accel_last_error());
    for (uint32_t i = 0; i < sl->n; i++) {
        accel_status f = accel_queue_finish(sl->s[i].q);
        if (st == ACCEL_SUCCESS && f != ACCEL_SUCCESS) {
            st = f;
            snprintf(msg, sizeof msg, "%s", accel_last_error());
        }
    }
    if (st != ACCEL_SUCCESS)
        accel__set_error("%s", msg);
    return st;
}

/* ----------------------------------------------------------- the feeder */

/* With several slots and a host-bound input (not page-locked by accel) the copies in are
 * enqueued by a thread of their own, the feeder, while the caller's thread
 * enqueues the computes and copies out. From pageable memory a write
 * returns only once the backend has
 * copied the chunk on the host, so the caller's own work between two writes
 * (the compute's enqueues, events, the copy-out) would otherwise add to
 * every chunk; with the feeder the host copies run back to back. The feeder
 * writes chunk j once the caller has enqueued everything of chunk j - n
 * (n slots): the same queue order as one thread gives, as chunk j's queue
 * is chunk j - n's. The thread stays with the keep between runs (waiting
 * on its condition variable), so a warm call starts none. */
typedef struct batch_feeder {
    pthread_mutex_t lock;
    pthread_cond_t cv;
    pthread_t thread;
    bool quit; /* the keep is released: the thread ends */
    bool busy; /* the fields below are a run's, whose chunks the feeder writes */
    const accel_batch_desc *d;
    const accel_batch_stats *s;
    const batch_slots *sl;
    uint64_t written; /* chunks whose copies in are enqueued */
    uint64_t done;    /* chunks the caller has enqueued in full */
    bool stop;        /* the caller gave up: the feeder ends */
    accel_status st;  /* the feeder's failure, with its message */
    char msg[768];
} batch_feeder;

/* One run's chunks, with f->lock held on entry and on return. */
static void feeder_run(batch_feeder *f)
{
    for (uint64_t j = 0; j < f->s->chunks; j++) {
        while (!f->stop && j >= f->done + f->sl->n)
            pthread_cond_wait(&f->cv, &f->lock);
        if (f->stop)
            break;
        pthread_mutex_unlock(&f->lock);
        accel_status st = chunk_writes(f->d, f->s, f->sl, j);
        pthread_mutex_lock(&f->lock);
        if (st == ACCEL_SUCCESS) {
            f->written = j + 1;
        } else {
            f->st = st;
            snprintf(f->msg, sizeof f->msg, "%s", accel_last_error());
        }
        pthread_cond_broadcast(&f->cv);
        if (st != ACCEL_SUCCESS)
            break;
    }
}

static void *feeder_main(void *arg)
{
    batch_feeder *f = arg;
    pthread_mutex_lock(&f->lock);
    for (;;) {
        while (!f->quit && !f->busy)
            pthread_cond_wait(&f->cv, &f->lock);
        if (f->quit)
            break;
        feeder_run(f);
        f->busy = false;
        pthread_cond_broadcast(&f->cv);
    }
    pthread_mutex_unlock(&f->lock);
    return NULL;
}

/* Hand a run to k's feeder, made first if k has none; false when no thread
 * can be made (the caller's thread then writes too). */
static bool feeder_start(batch_keep *k, const accel_batch_desc *d, const accel_batch_stats *s,
                         const batch_slots *sl)
{
    batch_feeder *f = k->feeder;
    if (!f) {
        f = calloc(1, sizeof *f);
        if (!f)
            return false;
        pthread_mutex_init(&f->lock, NULL);
        pthread_cond_init(&f->cv, NULL);
        if (pthread_create(&f->thread, NULL, feeder_main, f) != 0) {
            pthread_cond_destroy(&f->cv);
            pthread_mutex_destroy(&f->lock);
            free(f);
            return false;
        }
        k->feeder = f;
    }
    pthread_mutex_lock(&f->lock);
    f->d = d;
    f->s = s;
    f->sl = sl;
    f->written = f->done = 0;
    f->stop = false;
    f->st = ACCEL_SUCCESS;
    f->msg[0] = '\0';
    f->busy = true;
    pthread_cond_broadcast(&f->cv);
    pthread_mutex_unlock(&f->lock);
    return true;
}

/* The run is over for the feeder: wait until it has let go of it. */
static void feeder_end(batch_feeder *f)
{
    pthread_mutex_lock(&f->lock);
    f->stop = true;
    pthread_cond_broadcast(&f->cv);
    while (f->busy)
        pthread_cond_wait(&f->cv, &f->lock);
    pthread_mutex_unlock(&f->lock);
}

static void feeder_quit(batch_feeder *f)
{
    if (!f)
        return;
    pthread_mutex_lock(&f->lock);
    f->quit = true;
    pthread_cond_broadcast(&f->cv);
    pthread_mutex_unlock(&f->lock);
    pthread_join(f->thread, NULL);
    pthread_cond_destroy(&f->cv);
    pthread_mutex_destroy(&f->lock);
    free(f);
}

/* Wait until chunk i's copies in are enqueued; the feeder's failure, with
 * its message set on this thread, if it failed first. */
static accel_status feeder_wait(batch_feeder *f, uint64_t i)
{
    pthread_mutex_lock(&f->lock);
    while (f->written <= i && f->st == ACCEL_SUCCESS)
        pthread_cond_wait(&f->cv, &f->lock);
    accel_status st = f->written > i ? ACCEL_SUCCESS : f->st;
    if (st != ACCEL_SUCCESS)
        accel__set_error("%s", f->msg);
    pthread_mutex_unlock(&f->lock);
    return st;
}

static void feeder_done(batch_feeder *f, uint64_t i, bool stop)
{
    pthread_mutex_lock(&f->lock);
    f->done = i + 1;
    f->stop = f->stop || stop;
    pthread_cond_broadcast(&f->cv);
    pthread_mutex_unlock(&f->lock);
}

/* Every chunk, in turn over the slots; chunk 0's compute between events.
 * With several slots, chunk k's copy-out is enqueued on chunk k+1's queue,
 * behind chunk k+1's copy-in and after chunk k's compute (an event): so no
 * copy-in ever waits in its queue behind a copy-out, and the host-to-device
 * copies stream back to back while the copies out follow one chunk behind
 * (with 2 queues as with 4). The last chunk's copy-out goes on its own
 * queue. */
static accel_status run_chunks(accel_device *dev, const accel_batch_desc *d, accel_batch_stats *s,
                               batch_keep *k, bool host_bound)
{
    const batch_slots *sl = &k->sl;
    accel_event *e[2] = {NULL, NULL};
    accel_status st = accel_event_create(dev, &e[0]);
    if (st == ACCEL_SUCCESS)
        st = accel_event_create(dev, &e[1]);
    /* Without a feeder thread this one writes too, as it does with one slot. */
    bool fed = st == ACCEL_SUCCESS && host_bound && sl->n > 1 && s->chunks > 1 &&
               feeder_start(k, d, s, sl);
    batch_feeder *f = fed ? k->feeder : NULL;
    for (uint64_t i = 0; i < s->chunks && st == ACCEL_SUCCESS; i++) {
        if (fed)
            st = feeder_wait(f, i);
        if (st == ACCEL_SUCCESS)
            st = chunk_enqueue(d, s, sl, i, i == 0 ? e : NULL, fed);
        if (fed)
            feeder_done(f, i, st != ACCEL_SUCCESS);
    }
    if (fed)
        feeder_end(f);
    if (st == ACCEL_SUCCESS && sl->n > 1 && s->chunks > 0) {
        uint64_t last = s->chunks - 1;
        st = chunk_reads(d, s, sl, last, sl->s[last % sl->n].q);
    }
    st = slots_finish(sl, st);
    double ms = 0;
    if (st == ACCEL_SUCCESS && accel_event_elapsed_ms(e[0], e[1], &ms) == ACCEL_SUCCESS && ms > 0)
        s->compute_gbs = (double)(s->chunk_elems * in_elem_bytes(d)) / ms / 1e6;
    accel_event_release(e[0]);
    accel_event_release(e[1]);
    return st;
}

/* Bytes the whole run copies in and out. */
static double run_bytes(const accel_batch_desc *d, const accel_batch_stats *s)
{
    double b = (double)d->n * (double)in_elem_bytes(d);
    for (uint32_t i = 0; i < d->out_count; i++)
        b += d->out[i].chunk_bytes ? (double)s->chunks * (double)d->out[i].chunk_bytes
                                   : (double)d->n * (double)d->out[i].elem_size;
    return b;
}

/* ------------------------------------------------------ public entries */

static void stats_out(const accel_batch_stats *s, accel_batch_stats *out)
{
    if (!out)
        return;
    /* struct_size both ways: at most the caller's size is written, and
     * struct_size says how much was (struct_size.c). */
    uint32_t size = out->struct_size;
    accel__struct_out_write(out, s, size < sizeof *s ? size : sizeof *s);
}

/* The checks both entries start with; d gets the full-size copy, *obj the
 * device object (for its keep). The call stays entered (the runtime cannot
 * close under it); dev stays the caller's handle, since everything below
 * goes through the public API. */
static accel_status entry_check(accel__call *call, accel_device *dev, const accel_batch_desc *desc,
                                const accel_batch_stats *out, bool sizing, accel_batch_desc *d,
                                accel_device **obj, const char *fn)
{
    ACCEL__TRY(accel__enter(call, fn, dev, ACCEL__T_DEVICE, "dev", obj));
    if (out && out->struct_size < BATCH_STATS_V1)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: out_stats->struct_size is %u, smaller than any version (%zu); "
                           "call accel_batch_stats_init",
                           fn, out->struct_size, (size_t)BATCH_STATS_V1);
    accel_status st = desc_read(desc, d, fn);
    return st == ACCEL_SUCCESS ? desc_check(d, sizing, fn) : st;
}

/* The keep, with slot 0's queue made (the probe's queue), or NULL (host
 * memory: the failure is set). */
static accel_status keep_open(accel_device *dev, accel_device *obj, batch_keep **out,
                              const char *fn)
{
    *out = keep_take(obj);
    if (!*out)
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    return (*out)->sl.s[0].q ? ACCEL_SUCCESS : accel_queue_create(dev, &(*out)->sl.s[0].q);
}

/* Leave the call: keep or release k, and return st with its message (a
 * release may wait and log). */
static accel_status entry_leave(accel_device *dev, accel_device *obj, batch_keep *k,
                                accel_status st)
{
    char msg[768];
    snprintf(msg, sizeof msg, "%s", st == ACCEL_SUCCESS ? "" : accel_last_error());
    keep_put(dev, obj, k, st == ACCEL_SUCCESS);
    if (st != ACCEL_SUCCESS)
        accel__set_error("%s", msg);
    return st;
}

/* accel_batch_run's work between the checks and the leave: plan, make the
 * slots, warm them, run the chunks; *t_end is when the chunks ended. */
static accel_status run_body(accel_device *dev, accel_device *obj, accel_batch_desc *d,
                             accel_batch_stats *s, batch_keep **kp, double *t_end, const char *fn)
{
    accel_status st;
    /* Memory accel page-locked is read at the pinned rate; any other is
     * taken for pageable (host-bound: the feeder thread writes). */
    const bool locked = accel__host_range_locked(obj->rt, d->in[0].host, d->n * d->in[0].elem_size);
    /* The first array a backend may stage (not page-locked by accel; fixed
     * outputs land in page-locked room): only then has the warm-up anything
     * to set up. */
    uint32_t staged = d->in_count + d->out_count;
    for (uint32_t i = 0; i < d->in_count + d->out_count && staged == d->in_count + d->out_count;
         i++) {
        const accel_batch_array *a = i < d->in_count ? &d->in[i] : &d->out[i - d->in_count];
        if (!a->chunk_bytes && !accel__host_range_locked(obj->rt, a->host, d->n * a->elem_size))
            staged = i;
    }
    double t0 = now_ms();
    st = keep_open(dev, obj, kp, fn);
    s->setup_ms = now_ms() - t0;
    if (st == ACCEL_SUCCESS)
        st = plan(dev, (*kp)->sl.s[0].q, d, false, *kp, locked, s, fn);
    batch_bounce bounce;
    memset(&bounce, 0, sizeof bounce);
    if (st == ACCEL_SUCCESS && s->chunks) {
        t0 = now_ms();
        st = slots_create(dev, d, s, &(*kp)->sl);
        double t1 = now_ms();
        s->setup_ms += t1 - t0;
        if (st == ACCEL_SUCCESS && staged < d->in_count + d->out_count)
            st = slots_warm(d, s, &(*kp)->sl, staged);
        if (st == ACCEL_SUCCESS)
            bounce_setup(dev, d, s, *kp, &bounce);
        t0 = now_ms(); /* the chunks only: queues, buffers and staging are made by now */
        s->warm_ms = t0 - t1;
        if (st == ACCEL_SUCCESS)
            st = run_chunks(dev, d, s, *kp, !locked);
    }
    *t_end = now_ms();
    s->ms = *t_end - t0;
    bounce_finish(d, &bounce, st == ACCEL_SUCCESS);
    s->gbs = s->ms > 0 ? run_bytes(d, s) / s->ms / 1e6 : 0;
    return st;
}

/* accel_batch_plan (plan_only) and accel_batch_run: the checks, the body and
 * the leave, timed. */
static accel_status batch_call(accel_device *dev, const accel_batch_desc *desc,
                               accel_batch_stats *out_stats, bool plan_only, const char *fn)
{
    double t_call = now_ms(), t_end = 0;
    accel_batch_desc d;
    accel_batch_stats s;
    accel_batch_stats_init(&s);
    accel_device *obj = NULL;
    batch_keep *k = NULL;
    ACCEL__CALL(call);
    accel_status st = entry_check(&call, dev, desc, out_stats, plan_only, &d, &obj, fn);
    if (st != ACCEL_SUCCESS)
        return st;
    if (plan_only) {
        st = keep_open(dev, obj, &k, fn);
        if (st == ACCEL_SUCCESS)
            st = plan(dev, k->sl.s[0].q, &d, true, k,
                      accel__host_range_locked(obj->rt, d.in[0].host, d.n * d.in[0].elem_size), &s,
                      fn);
    } else {
        st = run_body(dev, obj, &d, &s, &k, &t_end, fn);
    }
    st = entry_leave(dev, obj, k, st);
    s.call_ms = now_ms() - t_call;
    if (!plan_only)
        s.teardown_ms = now_ms() - t_end;
    if (st == ACCEL_SUCCESS)
        stats_out(&s, out_stats);
    return st;
}

accel_status accel_batch_plan(accel_device *dev, const accel_batch_desc *desc,
                              accel_batch_stats *out_stats)
{
    return batch_call(dev, desc, out_stats, true, "accel_batch_plan");
}

accel_status accel_batch_run(accel_device *dev, const accel_batch_desc *desc,
                             accel_batch_stats *out_stats)
{
    return batch_call(dev, desc, out_stats, false, "accel_batch_run");
}
