/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_batch.c — accel_batch_plan / accel_batch_run (streaming host data
 * through a device in chunks over several queues) and accel_host_register,
 * on every device. References: the same arithmetic in a plain loop on the
 * host (scale by 2 is exact; partial sums against a double sum with the
 * documented bound 2 n u sum|x|). */
#include <criterion/criterion.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

/* compute: out0 = in0 + in1, out1 = 2 * in0 (f32), elementwise. */
static accel_status add_and_scale(accel_queue *q, const accel_batch_chunk *c, void *user)
{
    (void)user;
    accel_slice a = accel_slice_of(c->in[0], 0, c->elems),
                b = accel_slice_of(c->in[1], 0, c->elems);
    accel_status st = accel_add(q, ACCEL_F32, a, b, accel_slice_of(c->out[0], 0, c->elems));
    if (st == ACCEL_SUCCESS)
        st = accel_scale(q, ACCEL_F32, 2.0, a, accel_slice_of(c->out[1], 0, c->elems));
    return st;
}

/* compute: out[0] = sum of the chunk (f32), a fixed 4 bytes per chunk. */
static accel_status chunk_sum(accel_queue *q, const accel_batch_chunk *c, void *user)
{
    int *calls = user;
    (*calls)++;
    return accel_sum(q, ACCEL_F32, accel_slice_of(c->in[0], 0, c->elems),
                     accel_slice_of(c->out[0], 0, 1));
}

static float *make_input(size_t n, uint64_t salt)
{
    float *x = malloc(n * sizeof *x + 1);
    cr_assert(x);
    tu_rng r = tu_rng_make(salt);
    for (size_t i = 0; i < n; i++)
        x[i] = (float)tu_rng_range(&r, -4, 4);
    return x;
}

static accel_batch_array array_of(void *host, size_t n)
{
    accel_batch_array a = {host, n * sizeof(float), sizeof(float), 0};
    return a;
}

/* Two inputs, two proportional outputs, automatic cut, small device budget. */
static void run_elementwise(accel_device *dev, accel_queue *q, void *user)
{
    (void)q;
    (void)user;
    const size_t n = (3u << 20) + 7; /* not a multiple of any chunk */
    float *x = make_input(n, 1), *w = make_input(n, 3);
    float *y = calloc(n, sizeof *y), *z = calloc(n, sizeof *z);
    cr_assert(y && z);
    accel_batch_desc d;
    accel_batch_desc_init(&d);
    d.n = n;
    d.in_count = 2;
    d.in[0] = array_of(x, n);
    d.in[1] = array_of(w, n);
    d.out_count = 2;
    d.out[0] = array_of(y, n);
    d.out[1] = array_of(z, n);
    d.compute = add_and_scale;
    d.device_bytes = 12u << 20;
    accel_batch_stats s;
    accel_batch_stats_init(&s);
    cr_assert_eq(accel_batch_run(dev, &d, &s), ACCEL_SUCCESS, "%s", accel_last_error());
    cr_assert_eq(s.queues, 3u, "proportional output: copy-in, compute, copy-out");
    cr_assert(s.chunk_elems > 0);
    cr_assert(s.queues * 16 * s.chunk_elems <= d.device_bytes, "chunk of %zu over the budget",
              s.chunk_elems);
    cr_assert_eq(s.chunks, (n + s.chunk_elems - 1) / s.chunk_elems);
    cr_assert(s.chunks >= 2, "a 12 MiB budget must cut 48 MiB into several chunks");
    cr_assert(s.ms > 0 && s.gbs > 0);
    for (size_t i = 0; i < n; i++) {
        if (y[i] != x[i] + w[i] || z[i] != 2.0f * x[i])
            cr_assert_fail("%s: [%zu]: %.9g %.9g, want %.9g %.9g", accel_device_name(dev), i, y[i],
                           z[i], x[i] + w[i], 2.0f * x[i]);
    }
    free(x);
    free(w);
    free(y);
    free(z);
}

Test(batch, elementwise_output_matches_loop_on_every_device)
{
    accel_runtime *rt = tu_open_default();
    tu_for_each_device(rt, run_elementwise, NULL);
    accel_runtime_close(rt);
}

/* Fixed output per chunk, cut given by the caller, every queue count. */
static void run_partial_sums(accel_device *dev, accel_queue *q, void *user)
{
    (void)q;
    (void)user;
    const size_t n = 1000003; /* prime */
    float *x = make_input(n, 2);
    double ref = 0, abs_sum = 0;
    for (size_t i = 0; i < n; i++) {
        ref += x[i];
        abs_sum += fabs(x[i]);
    }
    for (uint32_t queues = 1; queues <= 5; queues++) {
        accel_batch_desc d;
        accel_batch_desc_init(&d);
        d.n = n;
        d.in_count = 1;
        d.in[0] = array_of(x, n);
        d.out_count = 1;
        d.out[0].chunk_bytes = sizeof(float);
        d.compute = chunk_sum;
        int calls = 0;
        d.user = &calls;
        d.queues = queues;
        d.chunk_elems = 65536;
        accel_batch_stats plan;
        accel_batch_stats_init(&plan);
        cr_assert_eq(accel_batch_plan(dev, &d, &plan), ACCEL_SUCCESS, "%s", accel_last_error());
        cr_assert_eq(plan.chunk_elems, 65536u);
        cr_assert_eq(plan.chunks, (n + 65535) / 65536);
        cr_assert_eq(plan.queues, queues > 4 ? 4u : queues);
        float *part = calloc(plan.chunks, sizeof *part);
        d.out[0].host = part;
        d.out[0].bytes = plan.chunks * sizeof *part;
        cr_assert_eq(accel_batch_run(dev, &d, NULL), ACCEL_SUCCESS, "%s", accel_last_error());
        cr_assert_eq((uint64_t)calls, plan.chunks);
        double got = 0;
        for (uint64_t i = 0; i < plan.chunks; i++)
            got += part[i];
        /* each partial within 2 m u sum|x| of exact, m <= 65536 elements */
        double bound = 2.0 * 65536 * 0x1p-24 * abs_sum + 1e-9;
        cr_assert(fabs(got - ref) <= bound, "%s, %u queues: sum %.9g, want %.9g (bound %.3g)",
                  accel_device_name(dev), queues, got, ref, bound);
        free(part);
    }
    free(x);
}

Test(batch, partial_sums_every_queue_count)
{
    accel_runtime *rt = tu_open_default();
    tu_for_each_device(rt, run_partial_sums, NULL);
    accel_runtime_close(rt);
}

/* Proportional outputs over every queue count, with many small chunks, so
 * that each slot's buffers are reused many times while copies out of
 * earlier chunks are still queued on other queues. */
static void run_elementwise_every_queue_count(accel_device *dev, accel_queue *q, void *user)
{
    (void)q;
    (void)user;
    const size_t n = 300007; /* prime: a short last chunk */
    float *x = make_input(n, 5), *w = make_input(n, 6);
    float *y = malloc(n * sizeof *y), *z = malloc(n * sizeof *z);
    cr_assert(y && z);
    for (uint32_t queues = 1; queues <= 4; queues++) {
        memset(y, 0xff, n * sizeof *y); /* NaN patterns: a chunk not copied back shows */
        memset(z, 0xff, n * sizeof *z);
        accel_batch_desc d;
        accel_batch_desc_init(&d);
        d.n = n;
        d.in_count = 2;
        d.in[0] = array_of(x, n);
        d.in[1] = array_of(w, n);
        d.out_count = 2;
        d.out[0] = array_of(y, n);
        d.out[1] = array_of(z, n);
        d.compute = add_and_scale;
        d.queues = queues;
        d.chunk_elems = 4099;
        accel_batch_stats s;
        accel_batch_stats_init(&s);
        cr_assert_eq(accel_batch_run(dev, &d, &s), ACCEL_SUCCESS, "%s", accel_last_error());
        cr_assert_eq(s.queues, queues);
        cr_assert_eq(s.chunks, (n + 4098) / 4099);
        for (size_t i = 0; i < n; i++) {
            if (y[i] != x[i] + w[i] || z[i] != 2.0f * x[i])
                cr_assert_fail("%s, %u queues: [%zu] (chunk %zu): %.9g %.9g, want %.9g %.9g",
                               accel_device_name(dev), queues, i, i / 4099, y[i], z[i], x[i] + w[i],
                               2.0f * x[i]);
        }
    }
    free(x);
    free(w);
    free(y);
    free(z);
}

Test(batch, elementwise_every_queue_count_matches_loop)
{
    accel_runtime *rt = tu_open_default();
    tu_for_each_device(rt, run_elementwise_every_queue_count, NULL);
    accel_runtime_close(rt);
}

static accel_status fails_on_third(accel_queue *q, const accel_batch_chunk *c, void *user)
{
    (void)q;
    (void)user;
    return c->index == 2 ? ACCEL_ERROR_MISMATCH : ACCEL_SUCCESS;
}

Test(batch, bad_descriptors_are_refused)
{
    accel_runtime *rt = tu_open_default();
    accel_device *dev;
    cr_assert_eq(accel_device_get_by_name(rt, "cpu", &dev), ACCEL_SUCCESS);
    float x[64] = {0}, y[64];
    accel_batch_desc d;
    accel_batch_desc_init(&d);
    d.n = 64;
    d.in_count = 2;
    d.in[0] = array_of(x, 64);
    d.in[1] = array_of(x, 64);
    d.out_count = 2;
    d.out[0] = array_of(y, 64);
    d.out[1] = array_of(y, 64);
    cr_assert_eq(accel_batch_run(dev, &d, NULL), ACCEL_ERROR_INVALID_ARGUMENT, "NULL compute");
    cr_assert(strstr(accel_last_error(), "compute"));
    d.compute = add_and_scale;
    d.in_count = 0;
    cr_assert_eq(accel_batch_run(dev, &d, NULL), ACCEL_ERROR_INVALID_ARGUMENT, "no input");
    d.in_count = 5;
    cr_assert_eq(accel_batch_run(dev, &d, NULL), ACCEL_ERROR_INVALID_ARGUMENT, "5 inputs");
    d.in_count = 2;
    d.in[1].elem_size = 0;
    cr_assert_eq(accel_batch_run(dev, &d, NULL), ACCEL_ERROR_INVALID_ARGUMENT, "elem size 0");
    d.in[1].elem_size = 4;
    d.in[1].chunk_bytes = 4;
    cr_assert_eq(accel_batch_run(dev, &d, NULL), ACCEL_ERROR_INVALID_ARGUMENT, "input chunk_bytes");
    d.in[1].chunk_bytes = 0;
    d.out[1].chunk_bytes = 4;
    cr_assert_eq(accel_batch_run(dev, &d, NULL), ACCEL_ERROR_INVALID_ARGUMENT, "both rules");
    cr_assert(strstr(accel_last_error(), "out[1]"), "%s", accel_last_error());
    d.out[1].chunk_bytes = 0;
    d.out[0].host = NULL;
    cr_assert_eq(accel_batch_run(dev, &d, NULL), ACCEL_ERROR_INVALID_ARGUMENT, "out NULL");
    d.out[0].host = y;
    d.out[1].bytes = sizeof y - 4;
    cr_assert_eq(accel_batch_run(dev, &d, NULL), ACCEL_ERROR_OUT_OF_RANGE, "out too small");
    cr_assert(strstr(accel_last_error(), "out[1].bytes"), "%s", accel_last_error());
    d.out[1].bytes = sizeof y;
    d.in[0].bytes = 8;
    cr_assert_eq(accel_batch_run(dev, &d, NULL), ACCEL_ERROR_OUT_OF_RANGE, "in too small");
    d.in[0].bytes = sizeof x;
    d.struct_size = 8;
    cr_assert_eq(accel_batch_run(dev, &d, NULL), ACCEL_ERROR_INVALID_ARGUMENT, "struct_size");
    d.struct_size = sizeof d;
    accel_batch_stats s;
    accel_batch_stats_init(&s);
    s.struct_size = 4;
    cr_assert_eq(accel_batch_run(dev, &d, &s), ACCEL_ERROR_INVALID_ARGUMENT, "stats size");
    cr_assert_eq(accel_batch_run(NULL, &d, NULL), ACCEL_ERROR_INVALID_HANDLE);
    /* A fixed output too small for the chunks. */
    d.out_count = 1;
    d.out[0].elem_size = 0;
    d.out[0].chunk_bytes = 4;
    d.out[0].bytes = 8;
    d.chunk_elems = 16;
    cr_assert_eq(accel_batch_run(dev, &d, NULL), ACCEL_ERROR_OUT_OF_RANGE, "4 chunks, room for 2");
    cr_assert(strstr(accel_last_error(), "4 chunks"), "%s", accel_last_error());
    /* The compute's own failure comes back as it is, from chunk 2. */
    d.out_count = 0;
    d.compute = fails_on_third;
    cr_assert_eq(accel_batch_run(dev, &d, NULL), ACCEL_ERROR_MISMATCH);
    cr_assert(strstr(accel_last_error(), "compute of chunk 2"), "%s", accel_last_error());
    /* A device budget with no room for an element. */
    d.compute = add_and_scale;
    d.chunk_elems = 0;
    d.device_bytes = 1;
    cr_assert_eq(accel_batch_run(dev, &d, NULL), ACCEL_ERROR_OUT_OF_DEVICE_MEMORY, "%s",
                 accel_last_error());
    accel_runtime_close(rt);
}

Test(batch, empty_input_runs_no_chunk)
{
    accel_runtime *rt = tu_open_default();
    accel_device *dev;
    cr_assert_eq(accel_device_default(rt, &dev), ACCEL_SUCCESS);
    int calls = 0;
    float x[1];
    accel_batch_desc d;
    accel_batch_desc_init(&d);
    d.in_count = 1;
    d.in[0] = array_of(x, 0);
    d.compute = chunk_sum;
    d.user = &calls;
    accel_batch_stats s;
    accel_batch_stats_init(&s);
    cr_assert_eq(accel_batch_run(dev, &d, &s), ACCEL_SUCCESS, "%s", accel_last_error());
    cr_assert_eq(s.chunks, 0u);
    cr_assert_eq(calls, 0);
    accel_runtime_close(rt);
}

/* Registered memory: odd alignment and size, zero bytes, overlaps, and a
 * round trip through it. */
static void run_register(accel_device *dev, accel_queue *q, void *user)
{
    (void)user;
    char *raw = malloc((1 << 20) + 64);
    cr_assert(raw);
    char *p = raw + 3; /* any alignment */
    size_t bytes = (1 << 20) + 5;
    cr_assert_eq(accel_host_register(dev, p, bytes), ACCEL_SUCCESS, "%s", accel_last_error());
    cr_assert_eq(accel_host_register(dev, p + 100, 10), ACCEL_ERROR_INVALID_ARGUMENT, "overlap");
    cr_assert(strstr(accel_last_error(), "overlaps"), "%s", accel_last_error());
    cr_assert_eq(accel_host_register(dev, NULL, 4), ACCEL_ERROR_INVALID_ARGUMENT);
    cr_assert_eq(accel_host_register(dev, NULL, 0), ACCEL_SUCCESS);
    cr_assert_eq(accel_host_register(dev, (void *)(UINTPTR_MAX - 2), 8),
                 ACCEL_ERROR_INVALID_ARGUMENT, "wraps");
    for (size_t i = 0; i < bytes; i++)
        p[i] = (char)(i * 7);
    accel_buffer *b;
    cr_assert_eq(accel_buffer_create(dev, bytes, &b), ACCEL_SUCCESS);
    cr_assert_eq(accel_queue_write(q, b, 0, p, bytes), ACCEL_SUCCESS);
    char *back = malloc(bytes);
    cr_assert_eq(accel_queue_read_blocking(q, b, 0, back, bytes), ACCEL_SUCCESS);
    cr_assert(memcmp(back, p, bytes) == 0, "%s: round trip through registered memory",
              accel_device_name(dev));
    cr_assert_eq(accel_host_unregister(dev, p + 1), ACCEL_ERROR_NOT_FOUND);
    cr_assert_eq(accel_host_unregister(dev, p), ACCEL_SUCCESS, "%s", accel_last_error());
    cr_assert_eq(accel_host_unregister(dev, p), ACCEL_ERROR_NOT_FOUND, "twice");
    cr_assert_eq(accel_host_unregister(dev, NULL), ACCEL_SUCCESS);
    /* zero bytes: recorded, unregistered like any range */
    cr_assert_eq(accel_host_register(dev, p, 0), ACCEL_SUCCESS);
    cr_assert_eq(accel_host_unregister(dev, p), ACCEL_SUCCESS);
    /* registered again; the caller unregisters it before freeing it */
    cr_assert_eq(accel_host_register(dev, p, bytes), ACCEL_SUCCESS);
    accel_buffer_release(b);
    free(back);
    *(char **)user = raw;
}

Test(batch, host_register_any_alignment_zero_bytes_overlaps)
{
    accel_runtime *rt = tu_open_default();
    uint32_t n = accel_device_count(rt);
    for (uint32_t i = 0; i < n; i++) {
        accel_device *dev;
        accel_queue *q;
        cr_assert_eq(accel_device_get(rt, i, &dev), ACCEL_SUCCESS);
        cr_assert_eq(accel_queue_create(dev, &q), ACCEL_SUCCESS);
        char *raw = NULL;
        run_register(dev, q, &raw);
        accel_queue_release(q);
        /* unregister before free, as the docs require */
        cr_assert_eq(accel_host_unregister(dev, raw + 3), ACCEL_SUCCESS);
        free(raw);
    }
    cr_assert_eq(accel_host_register(NULL, &n, 4), ACCEL_ERROR_INVALID_HANDLE);
    /* Left registered: accel_runtime_close undoes it (ASan: nothing leaks). */
    static char kept[100];
    accel_device *dev0;
    cr_assert_eq(accel_device_get(rt, 0, &dev0), ACCEL_SUCCESS);
    cr_assert_eq(accel_host_register(dev0, kept, sizeof kept), ACCEL_SUCCESS);
    accel_runtime_close(rt);
}

/* A run keeps its queues, page-locked room and probe on the device for the
 * next: plans and runs one after another, after a failed run, and from two
 * threads at once on one device, each result against the double sum. */
typedef struct kept_job {
    accel_device *dev;
    const float *x;
    size_t n;
    double ref, abs_sum;
    int rounds;
    int bad; /* rounds whose result or status was wrong */
} kept_job;

static int kept_round(kept_job *j, accel_batch_stats *plan)
{
    accel_batch_desc d;
    accel_batch_desc_init(&d);
    d.n = j->n;
    d.in_count = 1;
    d.in[0] = array_of((void *)j->x, j->n);
    d.out_count = 1;
    d.out[0].chunk_bytes = sizeof(float);
    d.compute = chunk_sum;
    int calls = 0;
    d.user = &calls;
    d.device_bytes = 4u << 20;
    accel_batch_stats_init(plan);
    if (accel_batch_plan(j->dev, &d, plan) != ACCEL_SUCCESS)
        return 0;
    d.chunk_elems = plan->chunk_elems;
    d.queues = plan->queues;
    float *part = calloc(plan->chunks, sizeof *part);
    if (!part)
        return 0;
    d.out[0].host = part;
    d.out[0].bytes = plan->chunks * sizeof *part;
    accel_batch_stats s;
    accel_batch_stats_init(&s);
    int ok = accel_batch_run(j->dev, &d, &s) == ACCEL_SUCCESS;
    double got = 0;
    for (uint64_t i = 0; ok && i < plan->chunks; i++)
        got += part[i];
    ok = ok && fabs(got - j->ref) <= 4.0 * j->n * 0x1p-24 * j->abs_sum;
    /* The phases lie within the whole call. */
    ok = ok && s.setup_ms >= 0 && s.warm_ms >= 0 && s.teardown_ms >= 0 && s.ms > 0 &&
         s.call_ms >= s.ms && s.call_ms + 1e-3 >= s.setup_ms + s.warm_ms + s.ms + s.teardown_ms;
    free(part);
    return ok;
}

static void *kept_thread(void *arg)
{
    kept_job *j = arg;
    for (int r = 0; r < j->rounds; r++) {
        accel_batch_stats plan;
        j->bad += !kept_round(j, &plan);
    }
    return NULL;
}

static void run_kept(accel_device *dev, accel_queue *q, void *user)
{
    (void)q;
    (void)user;
    const size_t n = (3u << 20) + 1; /* 12 MiB: more than the probe copies, so it is kept */
    float *x = make_input(n, 5);
    kept_job j = {dev, x, n, 0, 0, 1, 0};
    for (size_t i = 0; i < n; i++) {
        j.ref += x[i];
        j.abs_sum += fabs(x[i]);
    }
    const char *name = accel_device_name(dev);
    accel_batch_stats p1, p2;
    cr_assert(kept_round(&j, &p1), "%s: first run: %s", name, accel_last_error());
    cr_assert(kept_round(&j, &p2), "%s: second run: %s", name, accel_last_error());
    /* The first plan of the runtime times copies; a later plan on the same
     * kind of memory takes the kept probe and cuts the same way. */
    cr_assert(p1.probe_ms > 0, "%s: the first plan did not probe", name);
    cr_assert_eq(p2.probe_ms, 0.0, "%s: the second plan probed again (%.3f ms)", name, p2.probe_ms);
    cr_assert_eq(p2.chunk_elems, p1.chunk_elems, "%s", name);
    cr_assert_eq(p2.queues, p1.queues, "%s", name);
    /* A failed run releases what it held; the next one makes it anew. */
    accel_batch_desc d;
    accel_batch_desc_init(&d);
    d.n = n;
    d.in_count = 1;
    d.in[0] = array_of(x, n);
    d.compute = fails_on_third;
    d.chunk_elems = 100000;
    d.queues = 2;
    cr_assert_eq(accel_batch_run(dev, &d, NULL), ACCEL_ERROR_MISMATCH, "%s", name);
    cr_assert(strstr(accel_last_error(), "chunk 2"), "%s: %s", name, accel_last_error());
    cr_assert(kept_round(&j, &p2), "%s: run after a failed one: %s", name, accel_last_error());
    /* Page-locked memory is another kind: its first plan probes. */
    cr_assert_eq(accel_host_register(dev, x, n * sizeof *x), ACCEL_SUCCESS, "%s",
                 accel_last_error());
    cr_assert(kept_round(&j, &p2), "%s: registered: %s", name, accel_last_error());
    cr_assert(p2.probe_ms > 0, "%s: registered input took the pageable probe", name);
    cr_assert(kept_round(&j, &p2) && p2.probe_ms == 0.0, "%s: registered, again", name);
    cr_assert_eq(accel_host_unregister(dev, x), ACCEL_SUCCESS, "%s", accel_last_error());
    /* Two threads at once on one device: one takes the kept objects, the
     * other makes its own; both right. */
    kept_job a = j, b = j;
    a.rounds = b.rounds = 3;
    a.bad = b.bad = 0;
    pthread_t ta, tb;
    cr_assert_eq(pthread_create(&ta, NULL, kept_thread, &a), 0);
    cr_assert_eq(pthread_create(&tb, NULL, kept_thread, &b), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    cr_assert(a.bad == 0 && b.bad == 0, "%s: concurrent runs: %d and %d of 3 wrong", name, a.bad,
              b.bad);
    free(x);
}

Test(batch, kept_queues_and_probe_serve_later_runs_and_threads)
{
    accel_runtime *rt = tu_open_default();
    tu_for_each_device(rt, run_kept, NULL);
    accel_runtime_close(rt);
}
