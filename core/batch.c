/* core/batch.c — accel_batch_plan and accel_batch_run: host data streamed
 * through a device in chunks over several queues, so that one chunk's
 * copy-in, another's compute and a third's copy-out run at once. Built on
 * the public API only (queues, buffers, transfers, events): every transfer
 * and op takes the one validated path like any other call.
 *
 * How the cut is chosen (accel_batch_plan). With B input bytes, link rate r,
 * s pipeline stages (copy-in, compute, and copy-out when the output is
 * proportional to the input; a few bytes per chunk are no stage)
 * and a gap g between two transfers on the device, N chunks take about
 *     (N + s - 1) * (B / N) / r  +  N * g
 * (the pipeline fills and drains over s - 1 chunks; every chunk pays one
 * gap), which is smallest at N = sqrt((s - 1) * B / (r * g)), i.e. a chunk
 * of sqrt(B * r * g / (s - 1)) bytes. r is measured by copying the input's
 * first bytes in (from the caller's own memory, so pageable and pinned input
 * are measured as what they are), g by a tiny transfer between two events,
 * and the host time h of one enqueue keeps chunks long enough (>= 4 h r)
 * that the host stays ahead of the device. Compute is assumed not slower
 * than the link (streaming work); the run measures it and reports it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

#define BATCH_MAX_QUEUES 4
#define BATCH_PROBE_BYTES ((size_t)8 << 20)
#define BATCH_TINY_BYTES ((size_t)4096)
#define BATCH_MIN_CHUNK ((size_t)1 << 20)
#define BATCH_DEFAULT_CAP ((size_t)1 << 30)
#define BATCH_DESC_V1 offsetof(accel_batch_desc, reserved)
#define BATCH_STATS_V1 offsetof(accel_batch_stats, reserved)

void accel_batch_desc_init(accel_batch_desc *d)
{
    if (d) {
        memset(d, 0, sizeof *d);
        d->struct_size = sizeof *d;
    }
}

void accel_batch_stats_init(accel_batch_stats *s)
{
    if (s) {
        memset(s, 0, sizeof *s);
        s->struct_size = sizeof *s;
    }
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The caller's desc, copied into a full-size one (older, smaller structs
 * get zeros for the fields they lack). */
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

/* Output bytes of a chunk of in_bytes input. */
static size_t chunk_out_bytes(const accel_batch_desc *d, size_t in_bytes)
{
    if (d->out_chunk_bytes)
        return d->out_chunk_bytes;
    return in_bytes / d->in_elem_size * d->out_elem_size;
}

/* sizing: accel_batch_plan, where out may still be missing (it is sized
 * from the plan). */
static accel_status desc_check(const accel_batch_desc *d, bool sizing, const char *fn)
{
    if (!d->compute)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: desc->compute is NULL", fn);
    if (!d->in && d->in_bytes)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: desc->in is NULL but in_bytes is %zu",
                           fn, d->in_bytes);
    if (!d->in_elem_size || d->in_bytes % d->in_elem_size)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: in_elem_size %zu must be > 0 and divide in_bytes %zu", fn,
                           d->in_elem_size, d->in_bytes);
    if (d->out_elem_size && d->out_chunk_bytes)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: out_elem_size and out_chunk_bytes are both set; pick one", fn);
    if ((d->out_elem_size || d->out_chunk_bytes) && !d->out && !sizing)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: the desc has output but out is NULL",
                           fn);
    if (d->out_elem_size && d->in_bytes / d->in_elem_size > SIZE_MAX / d->out_elem_size)
        return accel__fail(ACCEL_ERROR_OUT_OF_RANGE, "%s: the output size overflows", fn);
    return ACCEL_SUCCESS;
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

/* Device bytes one slot needs for a chunk of `chunk` input bytes. */
static size_t slot_bytes(const accel_batch_desc *d, size_t chunk)
{
    return chunk + chunk_out_bytes(d, chunk);
}

/* Measured rates for the cut: r in bytes per ms, g and h in ms. */
typedef struct batch_probe {
    double r, g, h;
} batch_probe;

static accel_status time_write(accel_queue *q, accel_event *e0, accel_event *e1, accel_buffer *b,
                               const void *src, size_t bytes, double *out_ms)
{
    accel_status st = accel_event_record(e0, q);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_write(q, b, 0, src, bytes);
    if (st == ACCEL_SUCCESS)
        st = accel_event_record(e1, q);
    if (st == ACCEL_SUCCESS)
        st = accel_event_synchronize(e1);
    if (st == ACCEL_SUCCESS)
        st = accel_event_elapsed_ms(e0, e1, out_ms);
    return st;
}

/* Copy the input's first bytes in (twice: the first warms the path) and a
 * tiny range between events; time the host side of a few enqueues. */
static accel_status probe_run(accel_device *dev, accel_queue *q, const accel_batch_desc *d,
                              batch_probe *p)
{
    size_t bytes = d->in_bytes < BATCH_PROBE_BYTES ? d->in_bytes : BATCH_PROBE_BYTES;
    size_t tiny = bytes < BATCH_TINY_BYTES ? bytes : BATCH_TINY_BYTES;
    accel_buffer *b = NULL;
    accel_event *e0 = NULL, *e1 = NULL;
    double ms = 0, tiny_ms = 0;
    accel_status st = accel_buffer_create(dev, bytes, &b);
    if (st == ACCEL_SUCCESS)
        st = accel_event_create(dev, &e0);
    if (st == ACCEL_SUCCESS)
        st = accel_event_create(dev, &e1);
    for (int i = 0; i < 2 && st == ACCEL_SUCCESS; i++)
        st = time_write(q, e0, e1, b, d->in, bytes, &ms);
    if (st == ACCEL_SUCCESS)
        st = time_write(q, e0, e1, b, d->in, tiny, &tiny_ms);
    double t0 = now_ms();
    for (int i = 0; i < 8 && st == ACCEL_SUCCESS; i++)
        st = accel_queue_write(q, b, 0, d->in, tiny);
    p->h = (now_ms() - t0) / 8;
    if (st == ACCEL_SUCCESS)
        st = accel_queue_finish(q);
    p->r = ms > 0 ? (double)bytes / ms : INFINITY;
    p->g = tiny_ms;
    accel_event_release(e0);
    accel_event_release(e1);
    accel_buffer_release(b);
    return st;
}

static size_t round_down(size_t v, size_t m)
{
    return v / m * m;
}

/* The cut from measured rates (see the file comment). */
static void cut_from_probe(const accel_batch_desc *d, const batch_probe *p, size_t budget,
                           accel_batch_stats *s)
{
    const double stages = d->out_elem_size ? 3.0 : 2.0;
    if (!s->queues)
        s->queues = (uint32_t)stages;
    double chunk = isfinite(p->r) ? sqrt((double)d->in_bytes * p->r * fmax(p->g, 1e-4) /
                                         (stages - 1.0))
                                  : (double)d->in_bytes;
    double lo = fmax((double)BATCH_MIN_CHUNK, isfinite(p->r) ? 4.0 * p->h * p->r : 0.0);
    chunk = fmax(chunk, lo);
    /* Every slot holds one chunk in and its output. */
    double per_in = (double)slot_bytes(d, 1 << 20) / (double)(1 << 20);
    double hi = (double)budget / s->queues / fmax(per_in, 1.0);
    chunk = fmin(fmin(chunk, hi), (double)d->in_bytes);
    s->chunk_bytes = round_down((size_t)chunk, d->in_elem_size);
    if (isfinite(p->r))
        s->h2d_gbs = p->r * 1e3 / 1e9;
}

/* Fill s with the cut (queues, chunk_bytes, chunks) of a checked desc. q is
 * a queue of dev for the probe when one is needed. */
static accel_status plan(accel_device *dev, accel_queue *q, const accel_batch_desc *d,
                         bool sizing, accel_batch_stats *s, const char *fn)
{
    accel_status st = ACCEL_SUCCESS;
    s->queues = d->queues > BATCH_MAX_QUEUES ? BATCH_MAX_QUEUES : d->queues;
    s->chunk_bytes = round_down(d->chunk_bytes, d->in_elem_size);
    if (d->in_bytes == 0)
        return ACCEL_SUCCESS;
    size_t budget = budget_of(dev, d);
    if (!s->chunk_bytes) {
        batch_probe p = {0};
        st = probe_run(dev, q, d, &p);
        if (st != ACCEL_SUCCESS)
            return st;
        cut_from_probe(d, &p, budget, s);
    }
    if (!s->queues)
        s->queues = d->out_elem_size ? 3 : 2;
    if (s->chunk_bytes < d->in_elem_size)
        return accel__fail(ACCEL_ERROR_OUT_OF_DEVICE_MEMORY,
                           "%s: device_bytes %zu leaves no room for one element in each of %u "
                           "queues",
                           fn, budget, s->queues);
    s->chunks = (d->in_bytes + s->chunk_bytes - 1) / s->chunk_bytes;
    size_t out_total = d->out_chunk_bytes ? (size_t)s->chunks * d->out_chunk_bytes
                                          : chunk_out_bytes(d, d->in_bytes);
    if (out_total > d->out_bytes && !sizing)
        return accel__fail(ACCEL_ERROR_OUT_OF_RANGE,
                           "%s: the output needs %zu bytes (%llu chunks) but out_bytes is %zu", fn,
                           out_total, (unsigned long long)s->chunks, d->out_bytes);
    return ACCEL_SUCCESS;
}

/* The slots: one queue and an in/out buffer pair each. */
typedef struct batch_slots {
    uint32_t n;
    accel_queue *q[BATCH_MAX_QUEUES];
    accel_buffer *in[BATCH_MAX_QUEUES], *out[BATCH_MAX_QUEUES];
} batch_slots;

static void slots_release(batch_slots *sl)
{
    for (uint32_t i = 0; i < BATCH_MAX_QUEUES; i++) {
        accel_queue_release(sl->q[i]);
        accel_buffer_release(sl->in[i]);
        accel_buffer_release(sl->out[i]);
    }
}

static accel_status slots_create(accel_device *dev, const accel_batch_desc *d,
                                 const accel_batch_stats *s, batch_slots *sl)
{
    accel_status st = ACCEL_SUCCESS;
    size_t ob = chunk_out_bytes(d, s->chunk_bytes);
    sl->n = s->queues;
    for (uint32_t i = 0; i < sl->n && st == ACCEL_SUCCESS; i++) {
        if (!sl->q[i])
            st = accel_queue_create(dev, &sl->q[i]);
        if (st == ACCEL_SUCCESS)
            st = accel_buffer_create(dev, s->chunk_bytes, &sl->in[i]);
        if (st == ACCEL_SUCCESS && ob)
            st = accel_buffer_create(dev, ob, &sl->out[i]);
    }
    return st;
}

/* Enqueue chunk `index` on its slot: copy in, compute, copy out. around
 * (NULL, or two events) is recorded before and after the compute. */
static accel_status chunk_enqueue(const accel_batch_desc *d, const accel_batch_stats *s,
                                  batch_slots *sl, uint64_t index, accel_event *const *around)
{
    accel_batch_chunk c;
    memset(&c, 0, sizeof c);
    c.struct_size = sizeof c;
    c.slot = (uint32_t)(index % sl->n);
    c.index = index;
    c.in_offset = (size_t)index * s->chunk_bytes;
    c.in_bytes = d->in_bytes - c.in_offset < s->chunk_bytes ? d->in_bytes - c.in_offset
                                                            : s->chunk_bytes;
    c.elems = c.in_bytes / d->in_elem_size;
    c.in = sl->in[c.slot];
    c.out = sl->out[c.slot];
    c.out_bytes = chunk_out_bytes(d, c.in_bytes);
    c.out_offset = d->out_chunk_bytes ? (size_t)index * d->out_chunk_bytes
                                      : c.in_offset / d->in_elem_size * d->out_elem_size;
    accel_queue *q = sl->q[c.slot];
    accel_status st = accel_queue_write(q, c.in, 0, (const char *)d->in + c.in_offset, c.in_bytes);
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
    if (st == ACCEL_SUCCESS && c.out_bytes)
        st = accel_queue_read(q, c.out, 0, (char *)d->out + c.out_offset, c.out_bytes);
    return st;
}

static accel_status slots_finish(batch_slots *sl, accel_status st)
{
    for (uint32_t i = 0; i < sl->n; i++) {
        accel_status f = accel_queue_finish(sl->q[i]);
        if (st == ACCEL_SUCCESS)
            st = f;
    }
    return st;
}

/* The compute rate of chunk 0, timed by events around it on slot 0. */
static accel_status run_chunks(accel_device *dev, const accel_batch_desc *d, accel_batch_stats *s,
                               batch_slots *sl)
{
    accel_event *e[2] = {NULL, NULL};
    accel_status st = accel_event_create(dev, &e[0]);
    if (st == ACCEL_SUCCESS)
        st = accel_event_create(dev, &e[1]);
    for (uint64_t i = 0; i < s->chunks && st == ACCEL_SUCCESS; i++)
        st = chunk_enqueue(d, s, sl, i, i == 0 ? e : NULL);
    /* Finishing the other queues may set messages of its own; keep the
     * first failure's. */
    char msg[768];
    snprintf(msg, sizeof msg, "%s", st == ACCEL_SUCCESS ? "" : accel_last_error());
    accel_status first = st;
    st = slots_finish(sl, st);
    if (first != ACCEL_SUCCESS)
        accel__set_error("%s", msg);
    double ms = 0;
    if (st == ACCEL_SUCCESS && accel_event_elapsed_ms(e[0], e[1], &ms) == ACCEL_SUCCESS && ms > 0)
        s->compute_gbs =
            (double)(s->chunk_bytes < d->in_bytes ? s->chunk_bytes : d->in_bytes) / ms / 1e6;
    accel_event_release(e[0]);
    accel_event_release(e[1]);
    return st;
}

static void stats_out(const accel_batch_stats *s, accel_batch_stats *out)
{
    if (!out)
        return;
    uint32_t size = out->struct_size;
    if (size < BATCH_STATS_V1)
        return; /* checked by the callers before any work */
    memcpy((char *)out + sizeof size, (const char *)s + sizeof size,
           (size < sizeof *s ? size : sizeof *s) - sizeof size);
}

static accel_status stats_check(const accel_batch_stats *out, const char *fn)
{
    if (out && out->struct_size < BATCH_STATS_V1)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: out_stats->struct_size is %u, smaller than any version (%zu); call "
                           "accel_batch_stats_init",
                           fn, out->struct_size, (size_t)BATCH_STATS_V1);
    return ACCEL_SUCCESS;
}

accel_status accel_batch_plan(accel_device *dev, const accel_batch_desc *desc,
                              accel_batch_stats *out_stats)
{
    static const char fn[] = "accel_batch_plan";
    accel_batch_desc d;
    accel_batch_stats s;
    accel_batch_stats_init(&s);
    accel_status st = accel__handle_check(dev, ACCEL__T_DEVICE, fn, "dev");
    if (st == ACCEL_SUCCESS)
        st = stats_check(out_stats, fn);
    if (st == ACCEL_SUCCESS)
        st = desc_read(desc, &d, fn);
    if (st == ACCEL_SUCCESS)
        st = desc_check(&d, true, fn);
    accel_queue *q = NULL;
    if (st == ACCEL_SUCCESS)
        st = accel_queue_create(dev, &q);
    if (st == ACCEL_SUCCESS)
        st = plan(dev, q, &d, true, &s, fn);
    accel_queue_release(q);
    if (st == ACCEL_SUCCESS)
        stats_out(&s, out_stats);
    return st;
}

accel_status accel_batch_run(accel_device *dev, const accel_batch_desc *desc,
                             accel_batch_stats *out_stats)
{
    static const char fn[] = "accel_batch_run";
    accel_batch_desc d;
    accel_batch_stats s;
    batch_slots sl;
    memset(&sl, 0, sizeof sl);
    accel_batch_stats_init(&s);
    accel_status st = accel__handle_check(dev, ACCEL__T_DEVICE, fn, "dev");
    if (st == ACCEL_SUCCESS)
        st = stats_check(out_stats, fn);
    if (st == ACCEL_SUCCESS)
        st = desc_read(desc, &d, fn);
    if (st == ACCEL_SUCCESS)
        st = desc_check(&d, false, fn);
    if (st != ACCEL_SUCCESS)
        return st;
    st = accel_queue_create(dev, &sl.q[0]);
    double t0 = now_ms();
    if (st == ACCEL_SUCCESS)
        st = plan(dev, sl.q[0], &d, false, &s, fn);
    if (st == ACCEL_SUCCESS && s.chunks) {
        t0 = now_ms();
        st = slots_create(dev, &d, &s, &sl);
        if (st == ACCEL_SUCCESS)
            st = run_chunks(dev, &d, &s, &sl);
    }
    s.ms = now_ms() - t0;
    size_t out_total = d.out_chunk_bytes ? (size_t)s.chunks * d.out_chunk_bytes
                                         : (d.out_elem_size ? chunk_out_bytes(&d, d.in_bytes) : 0);
    s.gbs = s.ms > 0 ? (double)(d.in_bytes + out_total) / s.ms / 1e6 : 0;
    /* Releasing waits and may log; the failure's message must survive it. */
    char msg[768];
    snprintf(msg, sizeof msg, "%s", st == ACCEL_SUCCESS ? "" : accel_last_error());
    slots_release(&sl);
    if (st != ACCEL_SUCCESS)
        accel__set_error("%s", msg);
    if (st == ACCEL_SUCCESS)
        stats_out(&s, out_stats);
    return st;
}
