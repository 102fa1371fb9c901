/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_cuda.c — what only a GPU can show about backends/cuda: random
 * uniform fills bit-identical to the CPU backend (and normal fills within
 * the op table's rule) on both store paths, an allocation past the
 * GPU's memory giving ACCEL_ERROR_OUT_OF_DEVICE_MEMORY and the runtime staying
 * usable, pinned and pageable transfers, copies and event waits between the
 * GPU and the CPU, and index arithmetic past 2^31 elements on a buffer larger
 * than 8 GiB. The op suite (test_ops.c) runs on GPUs too. Every test skips with
 * a visible message, naming why the CUDA backend did not load, where there is
 * no CUDA device. */
#define _XOPEN_SOURCE 700
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/array.h"
#include "accel/backend.h"
#include "accel/collective.h"
#include "accel/verify.h"
#include "philox.h"
#include "test_util.h"

static accel_runtime *rt;
static accel_device *gpu, *cpu;

/* Open the default config; skip the test unless it has cuda:0 and cpu:0. */
static void need_gpu(void)
{
    rt = tu_open_default();
    accel_status s = accel_device_get_by_name(rt, "cuda:0", &gpu);
    if (s != ACCEL_SUCCESS) {
        const char *why = "the configuration has no [backend.cuda]";
        for (uint32_t i = 0; i < accel_runtime_backend_count(rt); ++i) {
            accel_backend_info info;
            memset(&info, 0, sizeof info);
            info.struct_size = sizeof info;
            if (accel_runtime_backend_info(rt, i, &info) == ACCEL_SUCCESS &&
                strcmp(info.name, "cuda") == 0)
                why = tu_fmt("%s: %s", info.path,
                             info.reason[0] ? info.reason : accel_status_name(info.status));
        }
        accel_runtime_close(rt);
        rt = NULL;
        /* Also on stderr: ctest marks the suite skipped on this line. */
        fprintf(stderr, "no CUDA device, GPU test skipped (%s)\n", why);
        cr_skip_test("no CUDA device, GPU test skipped (%s)", why);
    }
    tu_ok(accel_device_get_by_name(rt, "cpu", &cpu));
    accel_device_properties p;
    accel_device_properties_init(&p);
    tu_ok(accel_device_properties_get(gpu, &p));
    cr_assert_eq(p.kind, (uint32_t)ACCEL_DEVICE_GPU);
    cr_log_info("GPU %s: %s, cc %u, %u SMs, %.1f GiB", accel_device_name(gpu), p.name,
                p.compute_capability, p.compute_units, (double)p.memory_total / (1u << 30));
}

static void done(void)
{
    accel_runtime_close(rt);
    rt = NULL;
}

Test(cuda, random_uniform_is_bit_identical_to_cpu)
{
    need_gpu();
    const size_t n = ((size_t)1 << 20) + 3;
    accel_queue *qg, *qc;
    tu_ok(accel_queue_create(gpu, &qg));
    tu_ok(accel_queue_create(cpu, &qc));
    for (int d = 0; d < 2; ++d) {
        accel_dtype dt = d ? ACCEL_F64 : ACCEL_F32;
        size_t bytes = n * accel_dtype_size(dt);
        accel_buffer *bg, *bc;
        tu_ok(accel_buffer_create(gpu, bytes, &bg));
        tu_ok(accel_buffer_create(cpu, bytes, &bc));
        unsigned char *hg = malloc(bytes), *hc = malloc(bytes);
        cr_assert(hg && hc);
        uint64_t seeds[] = {0, tu_seed(), 0xffffffffffffffffull};
        for (size_t s = 0; s < 3; ++s) {
            tu_ok(accel_random_uniform(qg, dt, seeds[s], 1001, accel_slice_of(bg, 0, n)));
            tu_ok(accel_random_uniform(qc, dt, seeds[s], 1001, accel_slice_of(bc, 0, n)));
            tu_ok(accel_queue_read_blocking(qg, bg, 0, hg, bytes));
            tu_ok(accel_queue_read_blocking(qc, bc, 0, hc, bytes));
            cr_assert(memcmp(hg, hc, bytes) == 0, "%s seed %llu: GPU and CPU uniform fills differ",
                      accel_dtype_name(dt), (unsigned long long)seeds[s]);
        }
        free(hg), free(hc);
        accel_buffer_release(bg), accel_buffer_release(bc);
    }
    done();
}

/* The kernel's two paths (16-byte stores of whole counters with partial
 * ends, and element by element when out is not aligned with the stream) on
 * several (buffer offset, stream offset, count) shapes: uniform bit for bit,
 * normal (mean 0.75, stddev 1.5, and the standard normal with its own
 * kernel) within the op table's rule |gpu - cpu| <= 4 ulp + 64 eps stddev
 * (docs/checking.md, accuracy), the largest difference logged in eps * stddev. The
 * last two shapes cross Philox counter 2^32 (f32, then f64), where the
 * vector kernel's launches are cut. */
Test(cuda, random_fills_match_cpu_on_every_store_path)
{
    need_gpu();
    accel_queue *qg, *qc;
    tu_ok(accel_queue_create(gpu, &qg));
    tu_ok(accel_queue_create(cpu, &qc));
    const size_t cap = ((size_t)1 << 20) + 16;
    const size_t shapes[][3] = {/* buffer offset, stream offset, count */
                                {0, 0, (size_t)1 << 20},
                                {0, 4, 1001},
                                {1, 3, 65539},
                                {3, 1, 65536},
                                {2, 2, 7},
                                {0, 1, 3},
                                {1, 0, 100000},
                                {0, 2, 1},
                                {5, 9, (size_t)1 << 20},
                                {1, ((size_t)1 << 34) - 4002, 100000},
                                {2, ((size_t)1 << 33) - 2001, 100000}};
    for (int d = 0; d < 2; ++d) {
        accel_dtype dt = d ? ACCEL_F64 : ACCEL_F32;
        size_t es = accel_dtype_size(dt);
        double eps = d ? 0x1p-52 : 0x1p-23;
        accel_buffer *bg, *bc;
        tu_ok(accel_buffer_create(gpu, cap * es, &bg));
        tu_ok(accel_buffer_create(cpu, cap * es, &bc));
        unsigned char *hg = malloc(cap * es), *hc = malloc(cap * es);
        cr_assert(hg && hc);
        double worst = 0;
        for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; ++k) {
            size_t bo = shapes[k][0], n = shapes[k][2];
            uint64_t so = shapes[k][1], seed = tu_seed() + k;
            /* kind 0 uniform, 1 normal (0.75, 1.5), 2 the standard normal,
             * which takes the vector kernel's standard instance */
            for (int kind = 0; kind < 3; ++kind) {
                const bool normal = kind > 0;
                const double mean = kind == 2 ? 0.0 : 0.75, sd = kind == 2 ? 1.0 : 1.5;
                accel_slice sg = accel_slice_of(bg, bo, n), sc = accel_slice_of(bc, bo, n);
                if (normal) {
                    tu_ok(accel_random_normal(qg, dt, seed, so, mean, sd, sg));
                    tu_ok(accel_random_normal(qc, dt, seed, so, mean, sd, sc));
                } else {
                    tu_ok(accel_random_uniform(qg, dt, seed, so, sg));
                    tu_ok(accel_random_uniform(qc, dt, seed, so, sc));
                }
                tu_ok(accel_queue_read_blocking(qg, bg, bo * es, hg, n * es));
                tu_ok(accel_queue_read_blocking(qc, bc, bo * es, hc, n * es));
                if (!normal) {
                    cr_assert(memcmp(hg, hc, n * es) == 0,
                              "%s uniform, buffer offset %zu, stream offset %llu, %zu elements: "
                              "GPU and CPU differ",
                              accel_dtype_name(dt), bo, (unsigned long long)so, n);
                    continue;
                }
                for (size_t i = 0; i < n; ++i) {
                    double g = d ? ((double *)hg)[i] : ((float *)hg)[i];
                    double c = d ? ((double *)hc)[i] : ((float *)hc)[i];
                    double bound = 4.0 * (double)tu_ulp(dt, c) + 64.0 * eps * sd;
                    cr_assert(fabs(g - c) <= bound,
                              "%s normal, buffer offset %zu, stream offset %llu, element %zu: GPU "
                              "%.17g, CPU %.17g",
                              accel_dtype_name(dt), bo, (unsigned long long)so, i, g, c);
                    worst = fmax(worst, fabs(g - c) / (eps * sd));
                }
            }
        }
        cr_log_info("%s normal: largest |gpu - cpu| = %.2f eps * stddev (rule: 4 ulp + 64)",
                    accel_dtype_name(dt), worst);
        printf("%s normal: largest |gpu - cpu| = %.2f eps * stddev (rule: 4 ulp + 64)\n",
               accel_dtype_name(dt), worst);
        free(hg), free(hc);
        accel_buffer_release(bg), accel_buffer_release(bc);
    }
    done();
}

Test(cuda, out_of_memory_is_reported_and_the_device_stays_usable)
{
    need_gpu();
    accel_device_properties p;
    accel_device_properties_init(&p);
    tu_ok(accel_device_properties_get(gpu, &p));
    accel_buffer *huge = NULL;
    accel_status s = accel_buffer_create(gpu, (size_t)p.memory_total + ((size_t)1 << 30), &huge);
    cr_assert(s == ACCEL_ERROR_OUT_OF_DEVICE_MEMORY, "allocating past the GPU's memory: %s (%s)",
              accel_status_name(s), accel_last_error());
    cr_assert(strstr(accel_last_error(), "accel_buffer_create") != NULL, "%s", accel_last_error());
    cr_assert_null(huge);
    /* A normal op afterwards. */
    accel_queue *q;
    tu_ok(accel_queue_create(gpu, &q));
    enum { N = 1 << 20 };
    accel_buffer *b;
    tu_ok(accel_buffer_create(gpu, N * sizeof(float), &b));
    tu_ok(accel_fill(q, ACCEL_F32, 3.5, accel_slice_of(b, 0, N)));
    tu_ok(accel_sum(q, ACCEL_F32, accel_slice_of(b, 0, N - 1), accel_slice_of(b, N - 1, 1)));
    float last;
    tu_ok(accel_queue_read_blocking(q, b, (N - 1) * sizeof(float), &last, sizeof last));
    cr_assert(last == 3.5f * (N - 1), "sum after OOM: %g", (double)last);
    done();
}

static void round_trip(accel_queue *q, accel_buffer *b, unsigned char *src, unsigned char *dst,
                       size_t bytes, size_t offset, const char *what)
{
    for (size_t i = 0; i < bytes; ++i)
        src[i] = (unsigned char)(i * 131u + offset);
    memset(dst, 0, bytes);
    tu_ok(accel_queue_write(q, b, offset, src, bytes));
    tu_ok(accel_queue_read(q, b, offset, dst, bytes));
    tu_ok(accel_queue_finish(q));
    cr_assert(memcmp(src, dst, bytes) == 0, "%s: %zu bytes at offset %zu differ after a round trip",
              what, bytes, offset);
}

Test(cuda, pinned_and_pageable_transfers)
{
    need_gpu();
    accel_queue *q;
    tu_ok(accel_queue_create(gpu, &q));
    const size_t big = ((size_t)64 << 20) + 13;
    accel_buffer *b;
    tu_ok(accel_buffer_create(gpu, big + 64, &b));
    unsigned char *pg_src = malloc(big), *pg_dst = malloc(big), *pn_src, *pn_dst;
    cr_assert(pg_src && pg_dst);
    tu_ok(accel_host_alloc(gpu, big, (void **)&pn_src));
    tu_ok(accel_host_alloc(gpu, big, (void **)&pn_dst));
    const size_t sizes[] = {1, 4097, (size_t)3 << 20, big};
    for (size_t i = 0; i < 4; ++i) {
        round_trip(q, b, pg_src, pg_dst, sizes[i], 7, "pageable");
        round_trip(q, b, pn_src, pn_dst, sizes[i], 5, "pinned");
    }
    accel_host_free(gpu, pn_src);
    accel_host_free(gpu, pn_dst);
    free(pg_src), free(pg_dst);
    done();
}

/* The raw CUDA graph ceiling accel bench compares its 100-add replay with:
 * only what was asked is measured, and 100 dependent kernel nodes take
 * between 0.2 and 20 us each (about 1 us on the H200). The CPU backend has
 * no graphs: its graph_us stays 0 and the call still succeeds. */
Test(cuda, raw_graph_ceiling)
{
    need_gpu();
    accel_ceilings_options o;
    accel_ceilings_options_init(&o);
    o.what = ACCEL_CEILING_GRAPH;
    o.repeats = 9;
    accel_device *devs[2] = {gpu, cpu};
    for (int i = 0; i < 2; ++i) {
        accel_ceilings c;
        memset(&c, 0, sizeof c);
        c.struct_size = sizeof c;
        tu_ok(accel_device_measure_ceilings(devs[i], &o, &c));
        cr_assert_eq(c.copy_gbs, 0.0, "%s: copy measured though only the graph was asked",
                     accel_device_name(devs[i]));
        cr_assert_eq(c.launch_us, 0.0);
        if (devs[i] == cpu) {
            cr_assert_eq(c.graph_us, 0.0, "the CPU has no graphs, got %g us", c.graph_us);
            continue;
        }
        cr_log_info("raw CUDA graph of 100 dependent adds: %.1f us", c.graph_us);
        cr_assert(c.graph_us >= 20.0 && c.graph_us <= 2000.0,
                  "raw graph of 100 dependent adds: %g us, outside [20, 2000]", c.graph_us);
    }
    done();
}

/* The copy ceiling's device buffers come from and go back to the device's
 * caching allocator: a cudaFree of GiB-sized blocks slowed the next 6 ms of
 * DRAM traffic on the H200 (the first op after the ceiling read 0.89 of copy;
 * bench/RESULTS.md, round 6). In a runtime of its own: two copy ceilings and
 * a user buffer of the same size reserve the first ceiling's three blocks
 * and no more, and are served from the cache after that, as the allocator's
 * line at close counts (free device memory would be no measure: other
 * processes share the GPU). */
static char alloc_line[512];

static void keep_alloc_line(int level, const char *message, void *user)
{
    (void)level, (void)user;
    /* One line per CUDA device at close: keep device 0's, the one measured. */
    if (!alloc_line[0] && strstr(message, "cuda device 0 allocator (caching)"))
        snprintf(alloc_line, sizeof alloc_line, "%s", message);
}

Test(cuda, copy_ceiling_keeps_its_buffers_in_the_device_cache)
{
    need_gpu();
    accel_runtime *own;
    accel_device *dev;
    tu_ok(accel_runtime_open(TU_DEFAULT_CONFIG, &own));
    tu_ok(accel_device_get_by_name(own, "cuda:0", &dev));
    const size_t bytes = (size_t)64 << 20;
    accel_ceilings_options o;
    accel_ceilings_options_init(&o);
    o.what = ACCEL_CEILING_COPY;
    o.copy_bytes = bytes;
    o.repeats = 3;
    for (int k = 0; k < 2; ++k) {
        accel_ceilings c;
        memset(&c, 0, sizeof c);
        c.struct_size = sizeof c;
        tu_ok(accel_device_measure_ceilings(dev, &o, &c));
        cr_assert(c.copy_gbs > 10.0, "copy ceiling %d: %g GB/s", k, c.copy_gbs);
    }
    accel_buffer *b;
    tu_ok(accel_buffer_create(dev, bytes, &b));
    accel_buffer_release(b);
    alloc_line[0] = 0;
    accel_set_log_level(ACCEL_LOG_INFO);
    accel_set_log_callback(keep_alloc_line, NULL);
    accel_runtime_close(own);
    accel_set_log_callback(NULL, NULL);
    accel_set_log_level(ACCEL_LOG_WARN);
    unsigned long long hits = 0;
    double reserved = -1;
    const char *r = strstr(alloc_line, "peak reserved "), *h = strstr(alloc_line, "cache hits");
    cr_assert(r && h, "no allocator line at close: '%s'", alloc_line);
    while (h > alloc_line && h[-1] != ',')
        --h;
    cr_assert(sscanf(r, "peak reserved %lf MiB", &reserved) == 1 &&
                  sscanf(h, " %llu cache hits", &hits) == 1,
              "allocator line: '%s'", alloc_line);
    cr_log_info("%s", alloc_line);
    cr_assert_geq(hits, 4, "%llu cache hits (3 of the second ceiling, 1 of the buffer): '%s'", hits,
                  alloc_line);
    cr_assert(reserved < 4.0 * 64.0,
              "peak reserved %.1f MiB: more than the first ceiling's three 64 MiB blocks: '%s'",
              reserved, alloc_line);
    done();
}

Test(cuda, copies_and_event_waits_between_gpu_and_cpu)
{
    need_gpu();
    enum { N = 1 << 22 };
    accel_queue *qg, *qc;
    tu_ok(accel_queue_create(gpu, &qg));
    tu_ok(accel_queue_create(cpu, &qc));
    accel_buffer *g, *c, *ones;
    tu_ok(accel_buffer_create(gpu, N * 4, &g));
    tu_ok(accel_buffer_create(gpu, N * 4, &ones));
    tu_ok(accel_buffer_create(cpu, N * 4, &c));
    accel_event *ev;
    tu_ok(accel_event_create(gpu, &ev));
    /* GPU: g = 0, then 500 times g += 1 (a few ms); the CPU queue waits, then copies. */
    tu_ok(accel_fill(qg, ACCEL_F32, 1.0, accel_slice_of(ones, 0, N)));
    tu_ok(accel_fill(qg, ACCEL_F32, 0.0, accel_slice_of(g, 0, N)));
    for (int i = 0; i < 500; ++i)
        tu_ok(accel_add(qg, ACCEL_F32, accel_slice_of(g, 0, N), accel_slice_of(ones, 0, N),
                        accel_slice_of(g, 0, N)));
    tu_ok(accel_event_record(ev, qg));
    tu_ok(accel_queue_wait_event(qc, ev));
    tu_ok(accel_queue_copy(qc, g, 0, c, 0, N * 4));
    float *h = malloc(N * 4);
    cr_assert(h);
    tu_ok(accel_queue_read_blocking(qc, c, 0, h, N * 4));
    for (size_t i = 0; i < N; ++i)
        cr_assert(h[i] == 500.0f, "cpu copy of GPU data element %zu: %g", i, (double)h[i]);
    /* And back: the CPU writes, the GPU queue waits on a CPU event. */
    accel_event *cev;
    tu_ok(accel_event_create(cpu, &cev));
    tu_ok(accel_fill(qc, ACCEL_F32, -2.0, accel_slice_of(c, 0, N)));
    tu_ok(accel_event_record(cev, qc));
    tu_ok(accel_queue_wait_event(qg, cev));
    tu_ok(accel_queue_copy(qg, c, 0, g, 0, N * 4));
    tu_ok(accel_queue_read_blocking(qg, g, 0, h, N * 4));
    for (size_t i = 0; i < N; ++i)
        cr_assert(h[i] == -2.0f, "GPU copy of CPU data element %zu: %g", i, (double)h[i]);
    free(h);
    done();
}

Test(cuda, index_math_past_2_31_elements, .timeout = 300)
{
    need_gpu();
    const size_t n = ((size_t)1 << 31) + 4096; /* f32: 8 GiB + 16 KiB */
    accel_device_properties p;
    accel_device_properties_init(&p);
    tu_ok(accel_device_properties_get(gpu, &p));
    if (p.memory_free < n * 4 + ((size_t)2 << 30)) {
        done();
        cr_skip_test("%s has %.1f GiB free; the 2^31-element test needs 10", accel_device_name(gpu),
                     (double)p.memory_free / (1u << 30));
    }
    accel_queue *q;
    tu_ok(accel_queue_create(gpu, &q));
    accel_buffer *b, *one;
    tu_ok(accel_buffer_create(gpu, n * 4, &b));
    tu_ok(accel_buffer_create(gpu, 16, &one));
    /* Whole-buffer fill and scale: elements past 2^31 must be reached. */
    tu_ok(accel_fill(q, ACCEL_F32, 1.5, accel_slice_of(b, 0, n)));
    tu_ok(accel_scale(q, ACCEL_F32, 2.0, accel_slice_of(b, 0, n), accel_slice_of(b, 0, n)));
    const size_t probe[] = {0, ((size_t)1 << 31) - 1, (size_t)1 << 31, ((size_t)1 << 31) + 1,
                            n - 1};
    for (size_t i = 0; i < 5; ++i) {
        float v;
        tu_ok(accel_queue_read_blocking(q, b, probe[i] * 4, &v, 4));
        cr_assert(v == 3.0f, "element %zu after fill and scale: %g", probe[i], (double)v);
    }
    /* A random fill straddling 2^31 in buffer offset and stream offset. */
    const size_t start = ((size_t)1 << 31) - 1024, cnt = 4096;
    tu_ok(accel_random_uniform(q, ACCEL_F32, 77, start, accel_slice_of(b, start, cnt)));
    float *h = malloc(cnt * 4);
    cr_assert(h);
    tu_ok(accel_queue_read_blocking(q, b, start * 4, h, cnt * 4));
    for (size_t i = 0; i < cnt; ++i) {
        uint64_t e = start + i;
        accel_philox_words w = accel_philox_block(e / 4, 77);
        float ref = (float)(w.w[e % 4] >> 8) * 0x1p-24f;
        cr_assert(h[i] == ref, "uniform element %zu: %g expected %g", (size_t)e, (double)h[i],
                  (double)ref);
    }
    /* A reduction over everything sees a value written past 2^31. */
    float big = 1e6f;
    tu_ok(accel_queue_write_blocking(q, b, (n - 2) * 4, &big, 4));
    tu_ok(accel_reduce_max(q, ACCEL_F32, accel_slice_of(b, 0, n), accel_slice_of(one, 0, 1)));
    float mx;
    tu_ok(accel_queue_read_blocking(q, one, 0, &mx, 4));
    cr_assert(mx == 1e6f, "max over 2^31+ elements: %g", (double)mx);
    free(h);
    done();
}

/* Device communicators are handles: a one-rank NCCL communicator allreduces
 * (sum of one rank: the input), a released one is refused without being
 * read, and one left alive is destroyed by accel_runtime_close, after which
 * its handle is refused too. */
Test(cuda, device_communicator_handles)
{
    need_gpu();
    if (accel_device_comm_supported(gpu) != ACCEL_SUCCESS)
        cr_assert_fail("cuda:0 runs no collectives: %s", accel_last_error());
    unsigned char id[ACCEL_DEVICE_COMM_ID_BYTES];
    tu_ok(accel_device_comm_id(gpu, id, sizeof id));
    accel_device_comm *c1, *c2;
    tu_ok(accel_device_comm_create(gpu, id, sizeof id, 1, 0, &c1));
    accel_queue *q;
    accel_buffer *b;
    tu_ok(accel_queue_create(gpu, &q));
    tu_ok(accel_buffer_create(gpu, 8 * sizeof(float), &b));
    float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, got[8];
    tu_ok(accel_queue_write_blocking(q, b, 0, x, sizeof x));
    accel_collective_desc d;
    accel_collective_desc_init(&d);
    d.kind = ACCEL_COLLECTIVE_ALLREDUCE;
    d.dtype = ACCEL_F32;
    d.op = ACCEL_OP_SUM;
    d.send = accel_slice_of(b, 0, 4);
    d.recv = accel_slice_of(b, 4, 4);
    tu_ok(accel_device_comm_enqueue(c1, q, &d));
    tu_ok(accel_queue_read_blocking(q, b, 0, got, sizeof got));
    for (int i = 0; i < 4; i++)
        cr_assert(got[4 + i] == x[i], "allreduce of one rank: [%d] = %g", i, (double)got[4 + i]);
    accel_device_comm_release(c1);
    tu_assert_status(accel_device_comm_enqueue(c1, q, &d), ACCEL_ERROR_INVALID_HANDLE,
                     "a released communicator");
    accel_device_comm_release(c1); /* a warning, not a double free */
    tu_ok(accel_device_comm_id(gpu, id, sizeof id));
    tu_ok(accel_device_comm_create(gpu, id, sizeof id, 1, 0, &c2));
    done();                        /* closes the runtime with c2 alive */
    accel_device_comm_release(c2); /* refused: its runtime destroyed it */
    cr_assert(strstr(accel_last_error(), "not a live device communicator"), "%s",
              accel_last_error());
}

/* ACCEL_OP_SORT on the GPU (CUB) against the CPU backend (its radix sort),
 * bit for bit: every real dtype with repeats, NaNs of both signs, -0 and +0
 * (order and bits of equal keys: stability), one long line (DeviceRadixSort),
 * many lines and lines k apart (the segmented sort and the gather), both
 * directions, in place and out of place. The reference's own correctness is
 * test_array_sort.c's (against qsort). */
static void sort_both(accel_queue *qg, accel_queue *qc, accel_dtype dt, size_t m, size_t n,
                      size_t k, int desc, bool in_place, tu_rng *r)
{
    size_t total = m * n * k, es = accel_dtype_size(dt), bytes = total * es;
    unsigned char *h = malloc(bytes), *hg = malloc(bytes), *hc = malloc(bytes);
    cr_assert(h && hg && hc);
    for (size_t i = 0; i < bytes; i++) /* random bits: NaNs, +-0, repeats of small values */
        h[i] = (unsigned char)(tu_rng_next(r) % 4 == 0 ? 0 : tu_rng_next(r));
    if (dt == ACCEL_BOOL) /* bool holds 0 or 1 */
        for (size_t i = 0; i < bytes; i++)
            h[i] &= 1u;
    accel_buffer *xg, *og, *xc, *oc;
    tu_ok(accel_buffer_create(gpu, bytes, &xg));
    tu_ok(accel_buffer_create(gpu, bytes, &og));
    tu_ok(accel_buffer_create(cpu, bytes, &xc));
    tu_ok(accel_buffer_create(cpu, bytes, &oc));
    tu_ok(accel_queue_write_blocking(qg, xg, 0, h, bytes));
    tu_ok(accel_queue_write_blocking(qc, xc, 0, h, bytes));
    accel_buffer *tg = in_place ? xg : og, *tc = in_place ? xc : oc;
    tu_ok(accel_sort_segments(qg, dt, m, n, k, desc, accel_slice_of(xg, 0, total),
                              accel_slice_of(tg, 0, total)));
    tu_ok(accel_sort_segments(qc, dt, m, n, k, desc, accel_slice_of(xc, 0, total),
                              accel_slice_of(tc, 0, total)));
    tu_ok(accel_queue_read_blocking(qg, tg, 0, hg, bytes));
    tu_ok(accel_queue_read_blocking(qc, tc, 0, hc, bytes));
    size_t bad = 0;
    while (bad < total && memcmp(hg + bad * es, hc + bad * es, es) == 0)
        bad++;
    cr_assert(bad == total, "%s sort %zu x %zu x %zu%s%s: GPU and CPU differ first at %zu",
              accel_dtype_name(dt), m, n, k, desc ? " descending" : "", in_place ? " in place" : "",
              bad);
    free(h), free(hg), free(hc);
    accel_buffer_release(xg), accel_buffer_release(og);
    accel_buffer_release(xc), accel_buffer_release(oc);
}

Test(cuda, sort_is_bit_identical_to_cpu, .timeout = 300)
{
    need_gpu();
    accel_queue *qg, *qc;
    tu_ok(accel_queue_create(gpu, &qg));
    tu_ok(accel_queue_create(cpu, &qc));
    tu_rng r = tu_rng_make(77);
    static const accel_dtype dts[] = {ACCEL_BOOL, ACCEL_I8,  ACCEL_U8,  ACCEL_I16, ACCEL_U16,
                                      ACCEL_I32,  ACCEL_U32, ACCEL_I64, ACCEL_U64, ACCEL_F16,
                                      ACCEL_BF16, ACCEL_F32, ACCEL_F64};
    for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
        accel_dtype dt = dts[d];
        for (int desc = 0; desc < 2; desc++) {
            sort_both(qg, qc, dt, 1, ((size_t)1 << 20) + 17, 1, desc, desc == 1, &r);
            sort_both(qg, qc, dt, 300, 1001, 1, desc, false, &r);
            sort_both(qg, qc, dt, 4, 513, 7, desc, desc == 0, &r);
            sort_both(qg, qc, dt, 1, 1, 1, desc, false, &r);
        }
    }
    accel_queue_release(qg), accel_queue_release(qc);
    done();
}

/* The LINALG ops on the GPU (cuSOLVER) against the CPU's (LAPACK) through
 * the tolerance model's backward-error rule: the same diagonally dominant
 * inputs on both, the GPU's block judged against A (and B) and its
 * eigen/singular values against the CPU's (accel_tolerance_compare). */
static void linalg_both(accel_queue *qg, accel_queue *qc, accel_op_code op, accel_dtype dt,
                        size_t b, size_t m, size_t n, size_t k, uint32_t flags, tu_rng *r)
{
    size_t es = accel_dtype_size(dt), na = b * m * n, nb = op == ACCEL_OP_SOLVE ? b * n * k : 0;
    accel_linalg_layout l = accel_linalg_layout_of(op, b, m, n, k);
    double *ha = malloc(na * 8), *hb = malloc((nb + 1) * 8);
    void *ia = malloc(na * es), *ib = malloc((nb + 1) * es), *og = malloc(l.total * es),
         *oc = malloc(l.total * es);
    cr_assert(ha && hb && ia && ib && og && oc);
    for (size_t i = 0; i < na; i++)
        ha[i] = 4.0 * tu_rng_unit(r) - 2.0;
    for (size_t t = 0; t < b; t++) /* diagonally dominant: SPD as its lower triangle */
        for (size_t i = 0; i < (m < n ? m : n); i++)
            ha[t * m * n + i * m + i] += 2.0 * (double)(m > n ? m : n);
    for (size_t i = 0; i < nb; i++)
        hb[i] = 4.0 * tu_rng_unit(r) - 2.0;
    for (size_t i = 0; i < na; i++)
        dt == ACCEL_F32 ? (void)(((float *)ia)[i] = (float)ha[i])
                        : (void)(((double *)ia)[i] = ha[i]);
    for (size_t i = 0; i < nb; i++)
        dt == ACCEL_F32 ? (void)(((float *)ib)[i] = (float)hb[i])
                        : (void)(((double *)ib)[i] = hb[i]);
    accel_queue *qs[2] = {qg, qc};
    void *outs[2] = {og, oc};
    for (int side = 0; side < 2; side++) {
        accel_buffer *ba, *bb, *bo;
        accel_device *dev = side ? cpu : gpu;
        tu_ok(accel_buffer_create(dev, na * es, &ba));
        tu_ok(accel_buffer_create(dev, (nb + 1) * es, &bb));
        tu_ok(accel_buffer_create(dev, l.total * es, &bo));
        tu_ok(accel_queue_write_blocking(qs[side], ba, 0, ia, na * es));
        tu_ok(accel_queue_write_blocking(qs[side], bb, 0, ib, (nb + 1) * es));
        tu_ok(accel_linalg_batched(qs[side], op, dt, b, m, n, k, flags, accel_slice_of(ba, 0, na),
                                   accel_slice_of(bb, 0, nb), accel_slice_of(bo, 0, l.total)));
        tu_ok(accel_queue_read_blocking(qs[side], bo, 0, outs[side], l.total * es));
        accel_buffer_release(ba), accel_buffer_release(bb), accel_buffer_release(bo);
    }
    accel_tolerance_op d;
    accel_tolerance_op_init(&d);
    d.op = op, d.dtype = dt, d.num_operands = op == ACCEL_OP_SOLVE ? 3 : 2;
    d.counts[0] = na, d.counts[1] = op == ACCEL_OP_SOLVE ? nb : l.total, d.counts[2] = l.total;
    d.m = m, d.n = n, d.k = k, d.batch_count = b, d.flags = flags;
    const void *in[4] = {ia, op == ACCEL_OP_SOLVE ? ib : NULL, NULL, NULL};
    accel_compare_result res;
    res.struct_size = sizeof res;
    accel_status st = accel_tolerance_compare(&d, in, og, oc, &res);
    cr_assert(st == ACCEL_SUCCESS && res.checked > 0,
              "%s %s %zu x %zu x %zu (k %zu): %s, %zu checked, first bad %zu: %g vs %g (bound %g)",
              accel_op_name(op), accel_dtype_name(dt), b, m, n, k, accel_status_name(st),
              res.checked, res.first_bad, res.got, res.expected, res.bound);
    free(ha), free(hb), free(ia), free(ib), free(og), free(oc);
}

Test(cuda, linalg_matches_cpu_by_backward_error, .timeout = 300)
{
    need_gpu();
    accel_queue *qg, *qc;
    tu_ok(accel_queue_create(gpu, &qg));
    tu_ok(accel_queue_create(cpu, &qc));
    tu_rng r = tu_rng_make(27);
    const uint32_t V = ACCEL_OP_FLAG_LINALG_VECTORS;
    for (int f = 0; f < 2; f++) {
        accel_dtype dt = f ? ACCEL_F64 : ACCEL_F32;
        linalg_both(qg, qc, ACCEL_OP_CHOLESKY, dt, 3, 40, 40, 0, 0, &r);
        linalg_both(qg, qc, ACCEL_OP_SOLVE, dt, 3, 33, 33, 5, 0, &r);
        linalg_both(qg, qc, ACCEL_OP_SLOGDET, dt, 4, 17, 17, 0, 0, &r);
        linalg_both(qg, qc, ACCEL_OP_QR, dt, 2, 50, 20, 20, 0, &r);
        linalg_both(qg, qc, ACCEL_OP_QR, dt, 2, 50, 20, 50, 0, &r);
        linalg_both(qg, qc, ACCEL_OP_QR, dt, 2, 20, 50, 20, 0, &r);
        linalg_both(qg, qc, ACCEL_OP_EIGH, dt, 2, 64, 64, 0, V, &r);
        linalg_both(qg, qc, ACCEL_OP_EIGH, dt, 2, 30, 30, 0, 0, &r);
        linalg_both(qg, qc, ACCEL_OP_SVD, dt, 2, 40, 24, 24, V, &r);
        linalg_both(qg, qc, ACCEL_OP_SVD, dt, 2, 40, 24, 40, V, &r);
        linalg_both(qg, qc, ACCEL_OP_SVD, dt, 1, 30, 30, 30, 0, &r);
    }
    /* a singular matrix: ACCEL_ERROR_LINALG from the GPU too */
    double z[4] = {1, 2, 2, 4}, one[2] = {1, 1};
    accel_buffer *ba, *bb, *bo;
    tu_ok(accel_buffer_create(gpu, sizeof z, &ba));
    tu_ok(accel_buffer_create(gpu, sizeof one, &bb));
    tu_ok(accel_buffer_create(gpu, 6 * sizeof(double), &bo));
    tu_ok(accel_queue_write_blocking(qg, ba, 0, z, sizeof z));
    tu_ok(accel_queue_write_blocking(qg, bb, 0, one, sizeof one));
    accel_status st =
        accel_linalg_batched(qg, ACCEL_OP_SOLVE, ACCEL_F64, 1, 2, 2, 1, 0, accel_slice_of(ba, 0, 4),
                             accel_slice_of(bb, 0, 2), accel_slice_of(bo, 0, 6));
    if (st == ACCEL_SUCCESS)
        st = accel_queue_finish(qg);
    tu_assert_status(st, ACCEL_ERROR_LINALG, "solve of a singular matrix on the GPU");
    accel_buffer_release(ba), accel_buffer_release(bb), accel_buffer_release(bo);
    accel_queue_release(qg), accel_queue_release(qc);
    done();
}

/* One FFT op (accel_fft_segments) of random lines on the GPU and the CPU,
 * compared under verify mode's FFT rule (accel_tolerance_compare: relative
 * L2 error per line); the CPU side is itself checked against a plain DFT
 * in test_array_fft.c. */
static void fft_both(accel_queue *qg, accel_queue *qc, accel_op_code op, accel_dtype dt, size_t m,
                     size_t n, size_t k, int inverse, double scale, tu_rng *r)
{
    size_t half = n / 2 + 1, real = dt == ACCEL_C128 ? 8 : 4;
    size_t lx = op == ACCEL_OP_IRFFT ? half : n, lo = op == ACCEL_OP_RFFT ? half : n;
    size_t wx = op == ACCEL_OP_RFFT ? 1 : 2, wo = op == ACCEL_OP_IRFFT ? 1 : 2;
    size_t cx = m * lx * k, co = m * lo * k;
    unsigned char *h = malloc(cx * wx * real), *hg = malloc(co * wo * real),
                  *hc = malloc(co * wo * real);
    for (size_t i = 0; i < cx * wx; i++) {
        double v = tu_rng_range(r, -1.0, 1.0);
        float f = (float)v;
        if (real == 8)
            memcpy(h + i * 8, &v, 8);
        else
            memcpy(h + i * 4, &f, 4);
    }
    accel_buffer *xg, *og, *xc, *oc;
    tu_ok(accel_buffer_create(gpu, cx * wx * real, &xg));
    tu_ok(accel_buffer_create(gpu, co * wo * real, &og));
    tu_ok(accel_buffer_create(cpu, cx * wx * real, &xc));
    tu_ok(accel_buffer_create(cpu, co * wo * real, &oc));
    tu_ok(accel_queue_write_blocking(qg, xg, 0, h, cx * wx * real));
    tu_ok(accel_queue_write_blocking(qc, xc, 0, h, cx * wx * real));
    accel_status sg = accel_fft_segments(qg, op, dt, m, n, k, inverse, scale,
                                         accel_slice_of(xg, 0, cx), accel_slice_of(og, 0, co));
    cr_assert_eq(sg, ACCEL_SUCCESS, "%s %s %zu x %zu x %zu%s on the GPU: %s (%s)",
                 accel_op_name(op), accel_dtype_name(dt), m, n, k, inverse ? " inverse" : "",
                 accel_status_string(sg), accel_last_error());
    tu_ok(accel_fft_segments(qc, op, dt, m, n, k, inverse, scale, accel_slice_of(xc, 0, cx),
                             accel_slice_of(oc, 0, co)));
    tu_ok(accel_queue_read_blocking(qg, og, 0, hg, co * wo * real));
    tu_ok(accel_queue_read_blocking(qc, oc, 0, hc, co * wo * real));
    unsigned char *back = malloc(cx * wx * real); /* x unchanged (cuFFT's C2R overwrites) */
    tu_ok(accel_queue_read_blocking(qg, xg, 0, back, cx * wx * real));
    cr_assert(memcmp(back, h, cx * wx * real) == 0, "%s: the GPU changed x", accel_op_name(op));
    accel_tolerance_op t;
    accel_tolerance_op_init(&t);
    t.op = op, t.dtype = dt, t.num_operands = 2;
    t.counts[0] = cx, t.counts[1] = co;
    t.m = m, t.n = n, t.k = k;
    t.scalars[0] = scale;
    accel_compare_result res;
    memset(&res, 0, sizeof res);
    res.struct_size = sizeof res;
    accel_status st = accel_tolerance_compare(&t, NULL, hg, hc, &res);
    cr_log_info("%s %s %zu x %zu x %zu: worst error/bound %.3g", accel_op_name(op),
                accel_dtype_name(dt), m, n, k, res.worst_ratio);
    cr_assert_eq(st, ACCEL_SUCCESS,
                 "%s %s %zu x %zu x %zu%s: GPU vs CPU: element %zu, error %.3g > bound %.3g (%s)",
                 accel_op_name(op), accel_dtype_name(dt), m, n, k, inverse ? " inverse" : "",
                 res.first_bad, res.error, res.bound, accel_last_error());
    free(h), free(hg), free(hc), free(back);
    accel_buffer_release(xg), accel_buffer_release(og);
    accel_buffer_release(xc), accel_buffer_release(oc);
}

Test(cuda, fft_agrees_with_cpu, .timeout = 300)
{
    need_gpu();
    accel_queue *qg, *qc;
    tu_ok(accel_queue_create(gpu, &qg));
    tu_ok(accel_queue_create(cpu, &qc));
    tu_rng r = tu_rng_make(99);
    static const accel_op_code ops[] = {ACCEL_OP_FFT, ACCEL_OP_RFFT, ACCEL_OP_IRFFT};
    static const accel_dtype dts[] = {ACCEL_C64, ACCEL_C128};
    static const size_t geo[][3] = {{1, (size_t)1 << 20, 1},
                                    {64, 1000, 1},
                                    {3, 4099, 1},
                                    {5, 97, 7},
                                    {2, 256, 33},
                                    {1, 1, 1},
                                    {4, 2, 3},
                                    {1, 15, 1}};
    for (size_t o = 0; o < 3; o++)
        for (size_t d = 0; d < 2; d++)
            for (size_t g = 0; g < sizeof geo / sizeof geo[0]; g++)
                for (int inv = 0; inv < (ops[o] == ACCEL_OP_FFT ? 2 : 1); inv++)
                    fft_both(qg, qc, ops[o], dts[d], geo[g][0], geo[g][1], geo[g][2],
                             inv || ops[o] == ACCEL_OP_IRFFT, g % 2 ? 1.0 / (double)geo[g][1] : 1.0,
                             &r);
    /* the array function on the GPU: a staged (reversed) view */
    const int64_t shape[2] = {6, 50}, half[2] = {6, 26};
    accel_buffer *bx, *bo, *cxb, *cob;
    tu_ok(accel_buffer_create(gpu, 6 * 50 * 8, &bx));
    tu_ok(accel_buffer_create(gpu, 6 * 26 * 16, &bo));
    tu_ok(accel_buffer_create(cpu, 6 * 50 * 8, &cxb));
    tu_ok(accel_buffer_create(cpu, 6 * 26 * 16, &cob));
    double hx[300], g[312], c[312];
    for (int i = 0; i < 300; i++)
        hx[i] = cos(0.1 * i * i);
    tu_ok(accel_queue_write_blocking(qg, bx, 0, hx, sizeof hx));
    tu_ok(accel_queue_write_blocking(qc, cxb, 0, hx, sizeof hx));
    accel_array x, out, x2, out2;
    tu_ok(accel_array_init(&x, bx, ACCEL_F64, 2, shape));
    tu_ok(accel_array_flip(&x, 1u, &x));
    tu_ok(accel_array_init(&out, bo, ACCEL_C128, 2, half));
    tu_ok(accel_array_init(&x2, cxb, ACCEL_F64, 2, shape));
    tu_ok(accel_array_flip(&x2, 1u, &x2));
    tu_ok(accel_array_init(&out2, cob, ACCEL_C128, 2, half));
    tu_ok(accel_array_rfft(qg, &x, 0, -1, ACCEL_FFT_NORM_ORTHO, &out));
    tu_ok(accel_array_rfft(qc, &x2, 0, -1, ACCEL_FFT_NORM_ORTHO, &out2));
    tu_ok(accel_queue_read_blocking(qg, bo, 0, g, sizeof g));
    tu_ok(accel_queue_read_blocking(qc, cob, 0, c, sizeof c));
    for (int i = 0; i < 312; i++)
        cr_assert(fabs(g[i] - c[i]) < 1e-12, "rfft view [%d]: GPU %.17g CPU %.17g", i, g[i], c[i]);
    accel_buffer_release(bx), accel_buffer_release(bo);
    accel_buffer_release(cxb), accel_buffer_release(cob);
    accel_queue_release(qg), accel_queue_release(qc);
    done();
}
