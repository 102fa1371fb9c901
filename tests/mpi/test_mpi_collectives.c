/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* tests/mpi/test_mpi_collectives.c — every collective of libaccel_mpi and
 * every dtype it takes (f32, f64, i32, i64, u8) on the CPU device, run under
 * mpirun with 2 and 4 ranks. Each rank fills its inputs with small integers
 * that every dtype holds exactly, so every rank computes the exact expected
 * result alone (a plain double loop over the ranks' formulas) and compares
 * with tolerance 0. Also: zero-length ranges, in-place forms, offsets,
 * ordering with a copy on the same queue, the argument errors, check mode's
 * refusal of counts, roots, dtypes, ops and collectives that differ across
 * ranks, verify mode on random data (floating and integer), and receive
 * count errors. --device NAME --transport T runs it on another device (the
 * test backend "mock", whose memory is not host-accessible, exercises the
 * staged transport: "mpi-staged"). A plain program (Criterion does not run
 * under mpirun): prints "N passed, M failed" on rank 0 and exits non-zero
 * when any rank failed a check. --blocking runs the same in blocking mode. */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/mpi.h"

static int passed, failed, rank, size;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (cond) {                                                                                \
            passed++;                                                                              \
        } else {                                                                                   \
            failed++;                                                                              \
            fprintf(stderr, "rank %d: FAIL %s:%d: ", rank, __FILE__, __LINE__);                    \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, " [%s]\n", accel_last_error());                                        \
        }                                                                                          \
    } while (0)

static accel_runtime *rt;
static accel_device *dev;
static accel_queue *q;

/* Rank r's input element i: small integers of both signs, exact in every
 * dtype (u8 takes them shifted by 6, so that they stay non-negative; a sum
 * over 4 ranks stays below 256). */
static double input(int r, size_t i)
{
    return (double)((r * 31 + (long)i * 17 + 5) % 13) - 6.0;
}

static double val(accel_dtype dt, int r, size_t i)
{
    return input(r, i) + (dt == ACCEL_U8 ? 6.0 : 0.0);
}

static double reduce_ranks(accel_dtype dt, accel_op_code op, size_t i)
{
    double s = val(dt, 0, i);
    for (int r = 1; r < size; ++r) {
        double x = val(dt, r, i);
        s = op == ACCEL_OP_SUM ? s + x : op == ACCEL_OP_REDUCE_MAX ? fmax(s, x) : fmin(s, x);
    }
    return s;
}

/* The value of elements a collective must not touch. */
static double sentinel(accel_dtype dt)
{
    return dt == ACCEL_U8 ? 157.0 : -99.0;
}

static void put(accel_dtype dt, void *p, size_t i, double v)
{
    switch (dt) {
    case ACCEL_F32:
        ((float *)p)[i] = (float)v;
        break;
    case ACCEL_F64:
        ((double *)p)[i] = v;
        break;
    case ACCEL_I32:
        ((int32_t *)p)[i] = (int32_t)v;
        break;
    case ACCEL_I64:
        ((int64_t *)p)[i] = (int64_t)v;
        break;
    case ACCEL_U8:
        ((uint8_t *)p)[i] = (uint8_t)v;
        break;
    case ACCEL_F16:
    case ACCEL_BF16:
    case ACCEL_BOOL:
    case ACCEL_I8:
    case ACCEL_I16:
    case ACCEL_U16:
    case ACCEL_U32:
    case ACCEL_U64:
    case ACCEL_C64:
    case ACCEL_C128:
    case ACCEL_DTYPE_INVALID:
    case ACCEL_DTYPE_COUNT_:
        break;
    }
}

static double get(accel_dtype dt, const void *p, size_t i)
{
    switch (dt) {
    case ACCEL_F32:
        return ((const float *)p)[i];
    case ACCEL_F64:
        return ((const double *)p)[i];
    case ACCEL_I32:
        return ((const int32_t *)p)[i];
    case ACCEL_I64:
        return (double)((const int64_t *)p)[i];
    case ACCEL_U8:
        return ((const uint8_t *)p)[i];
    case ACCEL_F16:
    case ACCEL_BF16:
    case ACCEL_BOOL:
    case ACCEL_I8:
    case ACCEL_I16:
    case ACCEL_U16:
    case ACCEL_U32:
    case ACCEL_U64:
    case ACCEL_C64:
    case ACCEL_C128:
    case ACCEL_DTYPE_INVALID:
    case ACCEL_DTYPE_COUNT_:
        break;
    }
    return NAN;
}

/* A buffer of n elements; element off+i holds val(dt, src_rank, i) and the
 * others sentinel(dt) (to see stray writes). */
static accel_buffer *make(accel_dtype dt, size_t n, size_t off, size_t count, int src_rank)
{
    size_t es = accel_dtype_size(dt);
    accel_buffer *b = NULL;
    accel_buffer_create(dev, n * es, &b);
    void *h = malloc(n * es + 1);
    for (size_t i = 0; i < n; ++i)
        put(dt, h, i, sentinel(dt));
    for (size_t i = 0; i < count; ++i)
        put(dt, h, off + i, val(dt, src_rank, i));
    accel_queue_write_blocking(q, b, 0, h, n * es);
    free(h);
    return b;
}

/* Read n elements; the caller frees. */
static void *fetch(accel_dtype dt, accel_buffer *b, size_t n)
{
    void *h = malloc(n * accel_dtype_size(dt) + 1);
    accel_status st = accel_queue_read_blocking(q, b, 0, h, n * accel_dtype_size(dt));
    CHECK(st == ACCEL_SUCCESS, "read back: %s", accel_status_name(st));
    return h;
}

/* Elements [from, to) of h equal sentinel(dt) (untouched). */
static int untouched(accel_dtype dt, const void *h, size_t from, size_t to)
{
    for (size_t i = from; i < to; ++i)
        if (get(dt, h, i) != sentinel(dt))
            return 0;
    return 1;
}

static const accel_op_code ops[3] = {ACCEL_OP_SUM, ACCEL_OP_REDUCE_MAX, ACCEL_OP_REDUCE_MIN};

static void test_allreduce(accel_comm *comm, accel_dtype dt, size_t n, bool in_place)
{
    for (int k = 0; k < 3; ++k) {
        accel_op_code op = ops[k];
        size_t off = 3;
        accel_buffer *s = make(dt, n + 6, off, n, rank);
        accel_buffer *r = in_place ? s : make(dt, n + 6, 0, 0, 0);
        accel_status st = accel_comm_allreduce(comm, q, dt, op, accel_slice_of(s, off, n),
                                               accel_slice_of(r, off, n));
        CHECK(st == ACCEL_SUCCESS, "allreduce enqueue");
        /* Ordered with later ops on the queue: a copy of the result. */
        accel_buffer *cp = make(dt, n + 6, 0, 0, 0);
        size_t es = accel_dtype_size(dt);
        st = accel_queue_copy(q, r, off * es, cp, off * es, n * es);
        CHECK(st == ACCEL_SUCCESS, "copy after allreduce");
        st = accel_queue_finish(q);
        CHECK(st == ACCEL_SUCCESS, "allreduce %s %s n=%zu in_place=%d: %s", accel_dtype_name(dt),
              k == 0   ? "sum"
              : k == 1 ? "max"
                       : "min",
              n, in_place, accel_status_name(st));
        void *h = fetch(dt, r, n + 6), *hc = fetch(dt, cp, n + 6);
        size_t bad = n;
        for (size_t i = 0; i < n; ++i)
            if (get(dt, h, off + i) != reduce_ranks(dt, op, i) ||
                get(dt, hc, off + i) != reduce_ranks(dt, op, i)) {
                bad = i;
                break;
            }
        CHECK(bad == n,
              "allreduce %s op %d n=%zu in_place=%d: element %zu is %g (copy %g), "
              "expected %g",
              accel_dtype_name(dt), (int)op, n, in_place, bad,
              bad < n ? get(dt, h, off + bad) : 0.0, bad < n ? get(dt, hc, off + bad) : 0.0,
              bad < n ? reduce_ranks(dt, op, bad) : 0.0);
        CHECK(untouched(dt, h, 0, off) && untouched(dt, h, off + n, n + 6),
              "allreduce wrote outside its range");
        free(h);
        free(hc);
        accel_buffer_release(cp);
        if (r != s)
            accel_buffer_release(r);
        accel_buffer_release(s);
    }
}

static void test_reduce(accel_comm *comm, accel_dtype dt, size_t n)
{
    int root = size - 1;
    for (int k = 0; k < 3; ++k) {
        accel_buffer *s = make(dt, n, 0, n, rank);
        accel_buffer *r = make(dt, n + 1, 0, 0, 0);
        /* Off the root, recv may have no buffer (as MPI's recvbuf there). */
        accel_slice rs =
            rank == root || k == 0 ? accel_slice_of(r, 1, n) : (accel_slice){NULL, 0, n};
        accel_status st = accel_comm_reduce(comm, q, dt, ops[k], root, accel_slice_of(s, 0, n), rs);
        CHECK(st == ACCEL_SUCCESS, "reduce enqueue");
        st = accel_queue_finish(q);
        CHECK(st == ACCEL_SUCCESS, "reduce finish: %s", accel_status_name(st));
        void *h = fetch(dt, r, n + 1);
        int ok = untouched(dt, h, 0, 1);
        for (size_t i = 0; i < n; ++i)
            ok = ok &&
                 get(dt, h, 1 + i) == (rank == root ? reduce_ranks(dt, ops[k], i) : sentinel(dt));
        CHECK(ok, "reduce %s op %d n=%zu to root %d: wrong values", accel_dtype_name(dt),
              (int)ops[k], n, root);
        free(h);
        accel_buffer_release(r);
        accel_buffer_release(s);
    }
}

static void test_broadcast(accel_comm *comm, accel_dtype dt, size_t n)
{
    int root = size > 1 ? 1 : 0;
    accel_buffer *b = make(dt, n + 2, 2, n, rank);
    accel_status st = accel_comm_broadcast(comm, q, dt, root, accel_slice_of(b, 2, n));
    CHECK(st == ACCEL_SUCCESS, "broadcast enqueue");
    st = accel_queue_finish(q);
    CHECK(st == ACCEL_SUCCESS, "broadcast finish: %s", accel_status_name(st));
    void *h = fetch(dt, b, n + 2);
    int ok = untouched(dt, h, 0, 2);
    for (size_t i = 0; i < n; ++i)
        ok = ok && get(dt, h, 2 + i) == val(dt, root, i);
    CHECK(ok, "broadcast %s n=%zu from %d: wrong values", accel_dtype_name(dt), n, root);
    free(h);
    accel_buffer_release(b);
}

static void test_allgather(accel_comm *comm, accel_dtype dt, size_t n, bool in_place)
{
    size_t total = n * (size_t)size;
    accel_buffer *r = make(dt, total + 1, 0, 0, 0);
    accel_buffer *s = in_place ? r : make(dt, n, 0, n, rank);
    size_t soff = in_place ? 1 + (size_t)rank * n : 0;
    if (in_place) {
        /* This rank's block already in place inside recv. */
        size_t es = accel_dtype_size(dt);
        void *h = malloc(n * es + 1);
        for (size_t i = 0; i < n; ++i)
            put(dt, h, i, val(dt, rank, i));
        accel_queue_write_blocking(q, r, soff * es, h, n * es);
        free(h);
    }
    accel_status st =
        accel_comm_allgather(comm, q, dt, accel_slice_of(s, soff, n), accel_slice_of(r, 1, total));
    CHECK(st == ACCEL_SUCCESS, "allgather enqueue");
    st = accel_queue_finish(q);
    CHECK(st == ACCEL_SUCCESS, "allgather finish: %s", accel_status_name(st));
    void *h = fetch(dt, r, total + 1);
    int ok = untouched(dt, h, 0, 1);
    for (int p = 0; p < size; ++p)
        for (size_t i = 0; i < n; ++i)
            ok = ok && get(dt, h, 1 + (size_t)p * n + i) == val(dt, p, i);
    CHECK(ok, "allgather %s n=%zu in_place=%d: wrong values", accel_dtype_name(dt), n, in_place);
    free(h);
    if (s != r)
        accel_buffer_release(s);
    accel_buffer_release(r);
}

static void test_reduce_scatter(accel_comm *comm, accel_dtype dt, size_t n)
{
    size_t total = n * (size_t)size;
    for (int k = 0; k < 3; ++k) {
        accel_buffer *s = make(dt, total, 0, total, rank);
        accel_buffer *r = make(dt, n, 0, 0, 0);
        accel_status st = accel_comm_reduce_scatter(
            comm, q, dt, ops[k], accel_slice_of(s, 0, total), accel_slice_of(r, 0, n));
        CHECK(st == ACCEL_SUCCESS, "reduce_scatter enqueue");
        st = accel_queue_finish(q);
        CHECK(st == ACCEL_SUCCESS, "reduce_scatter finish: %s", accel_status_name(st));
        void *h = fetch(dt, r, n);
        int ok = 1;
        for (size_t i = 0; i < n; ++i)
            ok = ok && get(dt, h, i) == reduce_ranks(dt, ops[k], (size_t)rank * n + i);
        CHECK(ok, "reduce_scatter %s op %d n=%zu: wrong values", accel_dtype_name(dt), (int)ops[k],
              n);
        free(h);
        accel_buffer_release(r);
        accel_buffer_release(s);
    }
}

/* A ring: even ranks send first, odd ranks receive first, so that a large
 * blocking MPI_Send always meets its receive. */
static void test_send_recv(accel_comm *comm, accel_dtype dt, size_t n)
{
    if (size < 2)
        return; /* no peer */
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    accel_buffer *s = make(dt, n, 0, n, rank);
    accel_buffer *r = make(dt, n, 0, 0, 0);
    accel_status st1, st2;
    if (rank % 2 == 0) {
        st1 = accel_comm_send(comm, q, dt, to, accel_slice_of(s, 0, n));
        st2 = accel_comm_recv(comm, q, dt, from, accel_slice_of(r, 0, n));
    } else {
        st2 = accel_comm_recv(comm, q, dt, from, accel_slice_of(r, 0, n));
        st1 = accel_comm_send(comm, q, dt, to, accel_slice_of(s, 0, n));
    }
    CHECK(st1 == ACCEL_SUCCESS && st2 == ACCEL_SUCCESS, "send/recv enqueue");
    accel_status st = accel_queue_finish(q);
    CHECK(st == ACCEL_SUCCESS, "send/recv finish: %s", accel_status_name(st));
    void *h = fetch(dt, r, n);
    int ok = 1;
    for (size_t i = 0; i < n; ++i)
        ok = ok && get(dt, h, i) == val(dt, from, i);
    CHECK(ok, "send/recv %s n=%zu: wrong values", accel_dtype_name(dt), n);
    free(h);
    accel_buffer_release(r);
    accel_buffer_release(s);
}

static void expect(accel_status st, accel_status want, const char *needle, const char *what)
{
    CHECK(st == want && strstr(accel_last_error(), needle), "%s: got %s, expected %s with \"%s\"",
          what, accel_status_name(st), accel_status_name(want), needle);
}

static void test_bad_arguments(accel_comm *comm)
{
    accel_buffer *a = make(ACCEL_F32, 16, 0, 16, rank);
    accel_buffer *b = make(ACCEL_F32, 16, 0, 0, 0);
    accel_slice sa = accel_slice_of(a, 0, 8), sb = accel_slice_of(b, 0, 8);
    expect(accel_comm_allreduce(NULL, q, ACCEL_F32, ACCEL_OP_SUM, sa, sb),
           ACCEL_ERROR_INVALID_HANDLE, "comm is NULL", "NULL comm");
    expect(accel_comm_allreduce(comm, NULL, ACCEL_F32, ACCEL_OP_SUM, sa, sb),
           ACCEL_ERROR_INVALID_HANDLE, "q is NULL", "NULL queue");
    expect(accel_comm_allreduce(comm, q, ACCEL_F16, ACCEL_OP_SUM, sa, sb),
           ACCEL_ERROR_DTYPE_MISMATCH, "f16", "f16");
    expect(accel_comm_allreduce(comm, q, ACCEL_F32, ACCEL_OP_ADD, sa, sb),
           ACCEL_ERROR_INVALID_ARGUMENT, "op 10", "op ADD");
    expect(accel_comm_allreduce(comm, q, ACCEL_F32, ACCEL_OP_SUM, sa, accel_slice_of(b, 0, 7)),
           ACCEL_ERROR_SHAPE_MISMATCH, "send.count 8 != recv.count 7", "counts");
    expect(accel_comm_allreduce(comm, q, ACCEL_F32, ACCEL_OP_SUM, accel_slice_of(a, 10, 8), sb),
           ACCEL_ERROR_OUT_OF_RANGE, "past its buffer", "range");
    expect(accel_comm_allreduce(comm, q, ACCEL_F32, ACCEL_OP_SUM, sa, accel_slice_of(a, 4, 8)),
           ACCEL_ERROR_INVALID_ARGUMENT, "overlap", "partial overlap");
    expect(accel_comm_allreduce(comm, q, ACCEL_F32, ACCEL_OP_SUM, (accel_slice){NULL, 0, 8}, sb),
           ACCEL_ERROR_INVALID_HANDLE, "send.buffer is NULL", "NULL buffer");
    expect(accel_comm_broadcast(comm, q, ACCEL_F32, size, sa), ACCEL_ERROR_INVALID_ARGUMENT,
           "is not a rank", "root out of range");
    expect(accel_comm_send(comm, q, ACCEL_F32, rank, sa), ACCEL_ERROR_INVALID_ARGUMENT,
           "other than this rank", "send to self");
    expect(accel_comm_allgather(comm, q, ACCEL_F32, accel_slice_of(a, 0, 3),
                                accel_slice_of(b, 0, 3 * (size_t)size + 1)),
           ACCEL_ERROR_SHAPE_MISMATCH, "ranks * send.count", "allgather counts");
    expect(accel_comm_reduce_scatter(comm, q, ACCEL_F32, ACCEL_OP_SUM,
                                     accel_slice_of(a, 0, 2 * (size_t)size + 1),
                                     accel_slice_of(b, 0, 2)),
           ACCEL_ERROR_SHAPE_MISMATCH, "ranks * recv.count", "reduce_scatter counts");
    CHECK(accel_queue_finish(q) == ACCEL_SUCCESS, "nothing was enqueued by refused calls");
    accel_buffer_release(b);
    accel_buffer_release(a);
}

/* Check mode: rank 0 gives another count; every rank is refused. */
static void test_check_mode(uint32_t base_flags)
{
    accel_comm_options opt;
    accel_comm_options_init(&opt);
    opt.flags = base_flags | ACCEL_COMM_CHECK;
    accel_comm *comm = NULL;
    accel_status st = accel_comm_create(MPI_COMM_WORLD, dev, &opt, &comm);
    CHECK(st == ACCEL_SUCCESS, "create with check");
    accel_buffer *a = make(ACCEL_F64, 8, 0, 8, rank), *b = make(ACCEL_F64, 8, 0, 0, 0);
    if (size > 1) {
        size_t n = rank == 0 ? 5 : 6;
        st = accel_comm_allreduce(comm, q, ACCEL_F64, ACCEL_OP_SUM, accel_slice_of(a, 0, n),
                                  accel_slice_of(a, 0, n));
        expect(st, ACCEL_ERROR_SHAPE_MISMATCH, "disagree on the count", "check mode counts");
        st = accel_comm_broadcast(comm, q, ACCEL_F64, rank == 0 ? 0 : size - 1,
                                  accel_slice_of(a, 0, 4));
        expect(st, ACCEL_ERROR_SHAPE_MISMATCH, "disagree on the root", "check mode root");
        st = accel_comm_allreduce(comm, q, rank == 0 ? ACCEL_F64 : ACCEL_I64, ACCEL_OP_SUM,
                                  accel_slice_of(a, 0, 4), accel_slice_of(a, 0, 4));
        expect(st, ACCEL_ERROR_SHAPE_MISMATCH, "disagree on the dtype", "check mode dtype");
        st = accel_comm_reduce_scatter(comm, q, ACCEL_F64,
                                       rank == 0 ? ACCEL_OP_SUM : ACCEL_OP_REDUCE_MAX,
                                       accel_slice_of(a, 0, (size_t)size), accel_slice_of(b, 0, 1));
        expect(st, ACCEL_ERROR_SHAPE_MISMATCH, "disagree on the op", "check mode op");
        /* A different collective on one rank. */
        st = rank == 0 ? accel_comm_broadcast(comm, q, ACCEL_F64, 0, accel_slice_of(a, 0, 4))
                       : accel_comm_allreduce(comm, q, ACCEL_F64, ACCEL_OP_SUM,
                                              accel_slice_of(a, 0, 4), accel_slice_of(a, 0, 4));
        expect(st, ACCEL_ERROR_SHAPE_MISMATCH, "disagree on the collective", "check mode kind");
    }
    /* Agreeing calls still work afterwards. */
    st = accel_comm_allreduce(comm, q, ACCEL_F64, ACCEL_OP_SUM, accel_slice_of(a, 0, 8),
                              accel_slice_of(a, 0, 8));
    CHECK(st == ACCEL_SUCCESS && accel_queue_finish(q) == ACCEL_SUCCESS, "check mode, agreeing");
    double h[8];
    accel_queue_read_blocking(q, a, 0, h, sizeof h);
    int ok = 1;
    for (size_t i = 0; i < 8; ++i)
        ok = ok && h[i] == reduce_ranks(ACCEL_F64, ACCEL_OP_SUM, i);
    CHECK(ok, "check mode allreduce values");
    accel_buffer_release(b);
    accel_buffer_release(a);
    accel_comm_release(comm);
}

/* The ACCEL_MPI_* booleans take the runtime's words (any case) and refuse
 * anything else with ACCEL_ERROR_CONFIG naming the variable and the value,
 * before any collective call (so every rank is refused alike). */
static void test_environment(uint32_t base_flags)
{
    static const char *const vars[] = {"ACCEL_MPI_CHECK", "ACCEL_MPI_VERIFY", "ACCEL_MPI_NCCL"};
    static const char *const bad[] = {"maybe", "2", "tru", "offf"};
    accel_comm_options opt;
    accel_comm_options_init(&opt);
    opt.flags = base_flags;
    for (size_t v = 0; v < 3; ++v) {
        for (size_t k = 0; k < 4; ++k) {
            char want[64];
            snprintf(want, sizeof want, "%s=%s: expected a boolean", vars[v], bad[k]);
            setenv(vars[v], bad[k], 1);
            accel_comm *comm = (accel_comm *)&opt; /* must come back NULL */
            expect(accel_comm_create(MPI_COMM_WORLD, dev, &opt, &comm), ACCEL_ERROR_CONFIG, want,
                   want);
            CHECK(comm == NULL, "%s: *out_comm not NULL", want);
            unsetenv(vars[v]);
        }
        static const char *const good[] = {"YES", "off", "True", "0"};
        for (size_t k = 0; k < 4; ++k) {
            setenv(vars[v], good[k], 1);
            accel_comm *comm = NULL;
            accel_status st = accel_comm_create(MPI_COMM_WORLD, dev, &opt, &comm);
            CHECK(st == ACCEL_SUCCESS, "%s=%s refused: %s", vars[v], good[k], accel_last_error());
            accel_comm_release(comm);
            unsetenv(vars[v]);
        }
    }
    /* "On" turns check mode on: rank 0 giving another count is refused. */
    setenv("ACCEL_MPI_CHECK", "On", 1);
    accel_comm *comm = NULL;
    accel_status st = accel_comm_create(MPI_COMM_WORLD, dev, &opt, &comm);
    unsetenv("ACCEL_MPI_CHECK");
    CHECK(st == ACCEL_SUCCESS, "ACCEL_MPI_CHECK=On: %s", accel_last_error());
    if (st == ACCEL_SUCCESS && size > 1) {
        accel_buffer *a = make(ACCEL_F64, 8, 0, 8, rank);
        size_t n = rank == 0 ? 5 : 6;
        st = accel_comm_allreduce(comm, q, ACCEL_F64, ACCEL_OP_SUM, accel_slice_of(a, 0, n),
                                  accel_slice_of(a, 0, n));
        expect(st, ACCEL_ERROR_SHAPE_MISMATCH, "disagree on the count", "ACCEL_MPI_CHECK=On");
        accel_buffer_release(a);
    }
    accel_comm_release(comm);
}

/* Verify mode on random f32 (seeded per rank; printed): the cross-check
 * against rank 0's double sum must pass within gamma_{n-1}. */
static void test_verify_mode(uint32_t base_flags)
{
    accel_comm_options opt;
    accel_comm_options_init(&opt);
    opt.flags = base_flags | ACCEL_COMM_VERIFY;
    accel_comm *comm = NULL;
    CHECK(accel_comm_create(MPI_COMM_WORLD, dev, &opt, &comm) == ACCEL_SUCCESS,
          "create with verify");
    size_t n = 100003;
    unsigned seed = 1234u + (unsigned)rank;
    if (rank == 0)
        printf("verify mode: seeds 1234 + rank\n");
    float *h = malloc(n * sizeof *h);
    srand(seed);
    for (size_t i = 0; i < n; ++i)
        h[i] = (float)rand() / (float)RAND_MAX * 2.0f - 1.0f;
    accel_buffer *a = NULL;
    accel_buffer_create(dev, n * sizeof *h, &a);
    accel_queue_write_blocking(q, a, 0, h, n * sizeof *h);
    for (int k = 0; k < 3; ++k) {
        accel_status st = accel_comm_allreduce(comm, q, ACCEL_F32, ops[k], accel_slice_of(a, 0, n),
                                               accel_slice_of(a, 0, n));
        CHECK(st == ACCEL_SUCCESS, "verify allreduce enqueue");
        st = accel_queue_finish(q);
        CHECK(st == ACCEL_SUCCESS, "verify mode allreduce op %d: %s", (int)ops[k],
              accel_status_name(st));
    }
    free(h);
    accel_buffer_release(a);
    /* Integers: checked exactly; i32 sums that wrap included (up to +-2^30
     * per rank). u8 stays below 64 per rank: how a u8 sum overflows is the
     * MPI library's (Open MPI 4.1.4's vectorised sum saturates at 255, where
     * verify mode's reference wraps, and reports it). */
    static const accel_dtype ints[3] = {ACCEL_I32, ACCEL_I64, ACCEL_U8};
    for (int d = 0; d < 3; ++d) {
        accel_dtype dt = ints[d];
        size_t es = accel_dtype_size(dt), m = 10007;
        void *hi = malloc(m * es);
        for (size_t i = 0; i < m; ++i) {
            long v = (long)rand() % (1L << 31) - (1L << 30);
            put(dt, hi, i, dt == ACCEL_U8 ? (double)(v & 63) : (double)v);
        }
        accel_buffer *b = NULL;
        accel_buffer_create(dev, m * es, &b);
        accel_queue_write_blocking(q, b, 0, hi, m * es);
        for (int k = 0; k < 3; ++k) {
            accel_status st = accel_comm_allreduce(comm, q, dt, ops[k], accel_slice_of(b, 0, m),
                                                   accel_slice_of(b, 0, m));
            if (st == ACCEL_SUCCESS)
                st = accel_queue_finish(q);
            CHECK(st == ACCEL_SUCCESS, "verify mode allreduce %s op %d: %s", accel_dtype_name(dt),
                  (int)ops[k], accel_status_name(st));
        }
        free(hi);
        accel_buffer_release(b);
    }
    accel_comm_release(comm);
}

/* A receive of another count: shorter is SHAPE_MISMATCH, longer is MPI's
 * truncation error with its message. */
static void test_recv_counts(accel_comm *comm)
{
    if (size < 2 || rank > 1)
        return;
    accel_buffer *a = make(ACCEL_F32, 8, 0, 8, rank);
    accel_status st;
    if (rank == 0) {
        accel_comm_send(comm, q, ACCEL_F32, 1, accel_slice_of(a, 0, 3));
        accel_comm_send(comm, q, ACCEL_F32, 1, accel_slice_of(a, 0, 8));
        st = accel_queue_finish(q);
        CHECK(st == ACCEL_SUCCESS, "sends of 3 and 8");
    } else {
        /* Queued mode reports at the finish, blocking mode at the call. */
        st = accel_comm_recv(comm, q, ACCEL_F32, 0, accel_slice_of(a, 0, 5));
        if (st == ACCEL_SUCCESS)
            st = accel_queue_finish(q);
        expect(st, ACCEL_ERROR_SHAPE_MISMATCH, "received 3 elements of f32 from rank 0, expected 5",
               "short message");
        st = accel_comm_recv(comm, q, ACCEL_F32, 0, accel_slice_of(a, 0, 4));
        if (st == ACCEL_SUCCESS)
            st = accel_queue_finish(q);
        expect(st, ACCEL_ERROR_COMMUNICATION, "MPI_Recv failed: MPI_ERR_TRUNCATE", "long message");
    }
    accel_buffer_release(a);
}

int main(int argc, char **argv)
{
    bool blocking = false;
    const char *device = "cpu", *transport = "mpi";
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--blocking") == 0)
            blocking = true;
        else if (strcmp(argv[i], "--device") == 0 && i + 1 < argc)
            device = argv[++i];
        else if (strcmp(argv[i], "--transport") == 0 && i + 1 < argc)
            transport = argv[++i];
    }
    int provided = 0;
    MPI_Init_thread(&argc, &argv, blocking ? MPI_THREAD_SERIALIZED : MPI_THREAD_MULTIPLE,
                    &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (accel_runtime_open(NULL, &rt) == ACCEL_SUCCESS && strncmp(device, "cuda", 4) == 0 &&
        accel_device_get_by_name(rt, device, &dev) != ACCEL_SUCCESS) {
        if (rank == 0)
            printf("no CUDA device, GPU test skipped\n");
        accel_runtime_close(rt);
        MPI_Finalize();
        return 77;
    }
    if (!rt || accel_device_get_by_name(rt, device, &dev) != ACCEL_SUCCESS ||
        accel_queue_create(dev, &q) != ACCEL_SUCCESS) {
        fprintf(stderr, "rank %d: no device %s: %s\n", rank, device, accel_last_error());
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    uint32_t base = blocking ? ACCEL_COMM_BLOCKING : 0;
    accel_comm_options opt;
    accel_comm_options_init(&opt);
    opt.flags = base;
    accel_comm *comm = NULL;
    accel_status st = accel_comm_create(MPI_COMM_WORLD, dev, &opt, &comm);
    CHECK(st == ACCEL_SUCCESS, "accel_comm_create");
    CHECK(accel_comm_rank(comm) == rank && accel_comm_size(comm) == size, "rank and size");
    CHECK(strcmp(accel_comm_transport(comm), transport) == 0, "transport %s, expected %s",
          accel_comm_transport(comm), transport);
    CHECK(accel_comm_is_blocking(comm) == (blocking || provided < MPI_THREAD_MULTIPLE),
          "blocking mode %d", accel_comm_is_blocking(comm));

    static const accel_dtype dtypes[5] = {ACCEL_F32, ACCEL_F64, ACCEL_I32, ACCEL_I64, ACCEL_U8};
    static const size_t sizes[3] = {0, 1, 70001}; /* empty, one, large (rendezvous) */
    for (int d = 0; d < 5; ++d) {
        for (int k = 0; k < 3; ++k) {
            size_t n = sizes[k];
            test_allreduce(comm, dtypes[d], n, false);
            test_allreduce(comm, dtypes[d], n, true);
            test_reduce(comm, dtypes[d], n);
            test_broadcast(comm, dtypes[d], n);
            test_allgather(comm, dtypes[d], n, false);
            test_allgather(comm, dtypes[d], n, true);
            test_reduce_scatter(comm, dtypes[d], n);
            test_send_recv(comm, dtypes[d], n);
        }
    }
    test_bad_arguments(comm);
    test_recv_counts(comm);
    test_check_mode(base);
    test_verify_mode(base);
    test_environment(base);
    accel_comm_release(comm);

    accel_queue_release(q);
    accel_runtime_close(rt);
    int counts[2] = {passed, failed}, total[2] = {0, 0};
    MPI_Reduce(counts, total, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%d ranks on %s (%s, %s mode): %d passed, %d failed\n", size, device, transport,
               blocking ? "blocking" : "queued", total[0], total[1]);
    MPI_Finalize();
    return failed ? 1 : 0;
}
