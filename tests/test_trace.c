/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_trace.c — ACCEL_TRACE (core/base/trace.c): the file written at
 * accel_runtime_close is JSON (parsed here by an independent parser), has one
 * named track per queue, and its spans are well formed: "X" events with
 * ts/dur >= 0, on each track nested or disjoint and in enqueue order (queues
 * are in-order), never starting before they were enqueued, with the bytes
 * and FLOPs each op moves and computes (counted here from the shapes). Runs
 * on every device of the default configuration (the CPU here). */
#define _XOPEN_SOURCE 700
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"

/* ------------------------------------------------------- a JSON parser */

typedef enum jkind { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jkind;

typedef struct jval {
    jkind kind;
    double num;
    char *str;
    struct jval *items; /* array items or object values */
    char **keys;        /* object keys */
    size_t count;
} jval;

typedef struct jparser {
    const char *p;
    const char *err;
} jparser;

static void skip_ws(jparser *j)
{
    while (*j->p == ' ' || *j->p == '\n' || *j->p == '\r' || *j->p == '\t')
        j->p++;
}

static bool parse_value(jparser *j, jval *out);

static bool parse_string(jparser *j, char **out)
{
    if (*j->p != '"') {
        j->err = "expected a string";
        return false;
    }
    j->p++;
    size_t cap = 16, n = 0;
    char *s = malloc(cap);
    cr_assert(s, "out of memory in the JSON parser");
    while (*j->p && *j->p != '"') {
        char c = *j->p++;
        if ((unsigned char)c < 0x20) {
            j->err = "control character in a string";
            free(s);
            return false;
        }
        if (c == '\\') {
            char e = *j->p++;
            switch (e) {
            case '"':
                c = '"';
                break;
            case '\\':
                c = '\\';
                break;
            case '/':
                c = '/';
                break;
            case 'n':
                c = '\n';
                break;
            case 't':
                c = '\t';
                break;
            case 'r':
                c = '\r';
                break;
            case 'b':
                c = '\b';
                break;
            case 'f':
                c = '\f';
                break;
            case 'u':
                for (int i = 0; i < 4; i++) {
                    if (!isxdigit((unsigned char)j->p[i])) {
                        j->err = "bad \\u escape";
                        free(s);
                        return false;
                    }
                }
                j->p += 4;
                c = '?';
                break;
            default:
                j->err = "bad escape";
                free(s);
                return false;
            }
        }
        if (n + 2 > cap) {
            char *grown = realloc(s, cap *= 2);
            cr_assert(grown, "out of memory in the JSON parser");
            s = grown;
        }
        s[n++] = c;
    }
    if (*j->p != '"') {
        j->err = "unterminated string";
        free(s);
        return false;
    }
    j->p++;
    s[n] = '\0';
    *out = s;
    return true;
}

static bool parse_number(jparser *j, jval *out)
{
    const char *start = j->p;
    if (*j->p == '-')
        j->p++;
    if (!isdigit((unsigned char)*j->p)) {
        j->err = "bad number";
        return false;
    }
    while (isdigit((unsigned char)*j->p))
        j->p++;
    if (*j->p == '.') {
        j->p++;
        if (!isdigit((unsigned char)*j->p)) {
            j->err = "bad fraction";
            return false;
        }
        while (isdigit((unsigned char)*j->p))
            j->p++;
    }
    if (*j->p == 'e' || *j->p == 'E') {
        j->p++;
        if (*j->p == '+' || *j->p == '-')
            j->p++;
        if (!isdigit((unsigned char)*j->p)) {
            j->err = "bad exponent";
            return false;
        }
        while (isdigit((unsigned char)*j->p))
            j->p++;
    }
    out->kind = J_NUM;
    out->num = strtod(start, NULL);
    return true;
}

/* Frees everything v owns (v itself is the caller's) and leaves it J_NULL. */
static void jfree(jval *v)
{
    if (v->kind == J_ARR || v->kind == J_OBJ) {
        for (size_t i = 0; i < v->count; i++) {
            jfree(&v->items[i]);
            if (v->keys)
                free(v->keys[i]);
        }
        free(v->items);
        free(v->keys);
    } else if (v->kind == J_STR) {
        free(v->str);
    }
    memset(v, 0, sizeof *v);
}

/* On failure, frees what it built and leaves out J_NULL, like every parse_*
 * function here: the caller owns nothing after a false return. */
static bool parse_seq(jparser *j, jval *out, bool object)
{
    j->p++;
    size_t cap = 8;
    out->kind = object ? J_OBJ : J_ARR;
    out->items = calloc(cap, sizeof *out->items);
    out->keys = object ? calloc(cap, sizeof *out->keys) : NULL;
    cr_assert(out->items && (!object || out->keys), "out of memory in the JSON parser");
    skip_ws(j);
    char close = object ? '}' : ']';
    if (*j->p == close) {
        j->p++;
        return true;
    }
    for (;;) {
        if (out->count == cap) {
            cap *= 2;
            jval *items = realloc(out->items, cap * sizeof *out->items);
            cr_assert(items, "out of memory in the JSON parser");
            out->items = items;
            if (object) {
                char **keys = realloc(out->keys, cap * sizeof *out->keys);
                cr_assert(keys, "out of memory in the JSON parser");
                out->keys = keys;
            }
        }
        skip_ws(j);
        if (object) {
            if (!parse_string(j, &out->keys[out->count]))
                goto fail;
            skip_ws(j);
            if (*j->p != ':') {
                j->err = "expected ':'";
                free(out->keys[out->count]);
                goto fail;
            }
            j->p++;
        }
        memset(&out->items[out->count], 0, sizeof *out->items);
        if (!parse_value(j, &out->items[out->count])) {
            if (object)
                free(out->keys[out->count]);
            goto fail;
        }
        out->count++;
        skip_ws(j);
        if (*j->p == ',') {
            j->p++;
            continue;
        }
        if (*j->p == close) {
            j->p++;
            return true;
        }
        j->err = object ? "expected ',' or '}'" : "expected ',' or ']'";
        goto fail;
    }
fail:
    jfree(out); /* the count complete items and their keys */
    return false;
}

static bool parse_value(jparser *j, jval *out)
{
    skip_ws(j);
    memset(out, 0, sizeof *out);
    switch (*j->p) {
    case '{':
        return parse_seq(j, out, true);
    case '[':
        return parse_seq(j, out, false);
    case '"':
        out->kind = J_STR;
        return parse_string(j, &out->str);
    case 't':
    case 'f':
    case 'n': {
        const char *words[] = {"true", "false", "null"};
        for (int i = 0; i < 3; i++) {
            size_t l = strlen(words[i]);
            if (strncmp(j->p, words[i], l) == 0) {
                j->p += l;
                out->kind = i == 2 ? J_NULL : J_BOOL;
                out->num = i == 0;
                return true;
            }
        }
        j->err = "bad literal";
        return false;
    }
    default:
        return parse_number(j, out);
    }
}

static const jval *jget(const jval *obj, const char *key)
{
    if (!obj || obj->kind != J_OBJ)
        return NULL;
    for (size_t i = 0; i < obj->count; i++)
        if (strcmp(obj->keys[i], key) == 0)
            return &obj->items[i];
    return NULL;
}

static double jnum(const jval *obj, const char *key)
{
    const jval *v = jget(obj, key);
    cr_assert(v && v->kind == J_NUM, "field \"%s\" missing or not a number", key);
    return v->num;
}

static const char *jstr(const jval *obj, const char *key)
{
    const jval *v = jget(obj, key);
    cr_assert(v && v->kind == J_STR, "field \"%s\" missing or not a string", key);
    return v->str;
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f, "the trace file %s was not written", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    cr_assert(fread(s, 1, (size_t)n, f) == (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

/* ------------------------------------------------------------- the test */

/* Times in the file are microseconds printed with 3 decimals: two printed
 * values compared may each be off by half a nanosecond (plus double
 * rounding). */
#define TRACE_RES_US 2e-3

#define N_ELEM 5000
#define GEMM_M 33
#define GEMM_N 17
#define GEMM_K 9

typedef struct span {
    const char *name;
    double ts, dur, enqueue, seq;
    int pid, tid;
    const jval *args;
} span;

/* Enqueue a known sequence on two queues of dev. */
static void run_work(accel_device *dev)
{
    accel_queue *q1, *q2;
    accel_buffer *a, *b, *c, *r;
    tu_ok(accel_queue_create(dev, &q1));
    tu_ok(accel_queue_create(dev, &q2));
    tu_ok(accel_buffer_create(dev, N_ELEM * 4, &a));
    tu_ok(accel_buffer_create(dev, N_ELEM * 4, &b));
    tu_ok(accel_buffer_create(dev, N_ELEM * 4, &c));
    tu_ok(accel_buffer_create(dev, 64, &r));
    float *host = calloc(N_ELEM, 4);
    for (int i = 0; i < N_ELEM; i++)
        host[i] = (float)i / N_ELEM;
    accel_slice sa = accel_slice_of(a, 0, N_ELEM), sb = accel_slice_of(b, 0, N_ELEM),
                sc = accel_slice_of(c, 0, N_ELEM);
    tu_ok(accel_queue_write(q1, a, 0, host, N_ELEM * 4));
    tu_ok(accel_fill(q1, ACCEL_F32, 2.0, sb));
    tu_ok(accel_add(q1, ACCEL_F32, sa, sb, sc));
    tu_ok(accel_mul(q1, ACCEL_F32, sa, sb, sc));
    tu_ok(accel_sum(q1, ACCEL_F32, sc, accel_slice_of(r, 0, 1)));
    tu_ok(accel_matmul(q1, ACCEL_F32, GEMM_M, GEMM_N, GEMM_K, a, b, c));
    tu_ok(accel_queue_read(q1, c, 0, host, N_ELEM * 4));
    tu_ok(accel_queue_finish(q1));
    tu_ok(accel_dot(q2, ACCEL_F32, sa, sb, accel_slice_of(r, 1, 1)));
    tu_ok(accel_queue_copy(q2, a, 0, c, 0, N_ELEM * 4));
    tu_ok(accel_queue_finish(q2));
    free(host);
    /* Queues and buffers are left to accel_runtime_close, which must still
     * write every span. */
}

Test(trace, spans_parse_nest_and_order)
{
    const char *path = tu_fmt("%s/trace.json", tu_tmpdir());
    setenv("ACCEL_TRACE", path, 1);
    accel_runtime *rt = tu_open_default();
    unsetenv("ACCEL_TRACE");
    accel_device *dev;
    tu_ok(accel_device_get_by_name(rt, "cpu", &dev));
    int pid = (int)getpid();
    run_work(dev);
    accel_runtime_close(rt);

    char *text = read_all(path);
    jparser j = {text, NULL};
    jval root;
    bool ok = parse_value(&j, &root);
    cr_assert(ok, "trace is not JSON: %s at offset %td", j.err, j.p - text);
    skip_ws(&j);
    cr_assert(*j.p == '\0', "trailing text after the JSON value at offset %td", j.p - text);
    const jval *events = jget(&root, "traceEvents");
    cr_assert(events && events->kind == J_ARR, "no traceEvents array");

    span spans[64];
    size_t n = 0;
    bool named_tid[8] = {false};
    bool named_pid = false;
    char want_pname[64];
    snprintf(want_pname, sizeof want_pname, "accel, pid %d", pid);
    for (size_t i = 0; i < events->count; i++) {
        const jval *e = &events->items[i];
        const char *ph = jstr(e, "ph");
        if (strcmp(ph, "M") == 0) {
            cr_assert_eq((int)jnum(e, "pid"), pid, "%s: pid %g, expected the process id %d",
                         jstr(e, "name"), jnum(e, "pid"), pid);
            const jval *args = jget(e, "args");
            if (strcmp(jstr(e, "name"), "thread_name") == 0 && jnum(e, "tid") < 8) {
                /* The track names its device: "cpu:0 queue N (...)". */
                cr_assert(strncmp(jstr(args, "name"), "cpu:0 queue ", 12) == 0,
                          "thread_name %s does not name the device", jstr(args, "name"));
                named_tid[(int)jnum(e, "tid")] = true;
            }
            if (strcmp(jstr(e, "name"), "process_name") == 0) {
                cr_assert_str_eq(jstr(args, "name"), want_pname);
                named_pid = true;
            }
            continue;
        }
        cr_assert_str_eq(ph, "X", "only complete (X) and metadata (M) events are written");
        cr_assert(n < 64);
        span *s = &spans[n++];
        s->name = jstr(e, "name");
        s->ts = jnum(e, "ts");
        s->dur = jnum(e, "dur");
        s->pid = (int)jnum(e, "pid");
        s->tid = (int)jnum(e, "tid");
        s->args = jget(e, "args");
        cr_assert(s->args && s->args->kind == J_OBJ, "%s: no args", s->name);
        s->enqueue = jnum(s->args, "enqueue_us");
        s->seq = jnum(s->args, "seq");
        cr_assert(s->ts >= 0 && s->dur >= 0, "%s: ts %g, dur %g", s->name, s->ts, s->dur);
        cr_assert_eq(s->pid, pid, "%s: pid %d, expected the process id %d", s->name, s->pid, pid);
        cr_assert(s->tid >= 1 && s->tid < 8, "%s: tid %d", s->name, s->tid);
        /* Causality, not a timing margin: an op cannot start before it was
         * enqueued. The core stamps enqueue_us on the host's monotonic clock
         * before it records the span's start event, and maps device times
         * to host time through an origin event whose completion it saw on
         * the host, which can only make ts later. The CPU device traced
         * here stamps its events with that same host clock, to the
         * nanosecond, so ts >= enqueue_us holds exactly however slow the
         * machine is (ASan, a loaded CI host); TRACE_RES_US only absorbs
         * the printing of both values. Stamping the enqueue after the
         * record instead fails here whenever the queue's worker runs the
         * record first. */
        cr_assert(s->ts + TRACE_RES_US >= s->enqueue,
                  "%s starts at %.3f us, before its enqueue at %.3f", s->name, s->ts, s->enqueue);
        /* Enqueue order: seq numbers the spans as they were enqueued on any
         * queue (under the trace's lock, where enqueue_us is stamped), and
         * the file lists them in that order. */
        if (n > 1) {
            const span *prev = &spans[n - 2];
            cr_assert(s->seq > prev->seq, "%s has seq %g after %s with seq %g", s->name, s->seq,
                      prev->name, prev->seq);
            cr_assert(s->enqueue + TRACE_RES_US >= prev->enqueue,
                      "%s (seq %g) enqueued at %.3f us, before %s (seq %g) at %.3f", s->name,
                      s->seq, s->enqueue, prev->name, prev->seq, prev->enqueue);
        }
    }
    cr_assert(named_pid, "no process_name for the process");
    cr_assert_eq(n, 9, "expected 9 spans (7 on queue 1, 2 on queue 2), found %zu", n);

    /* Per track: every pair nested or disjoint; in-order queues give
     * disjoint spans in enqueue order. */
    int tids[2] = {spans[0].tid, -1};
    for (size_t a = 0; a < n; a++) {
        cr_assert(named_tid[spans[a].tid], "tid %d has no thread_name", spans[a].tid);
        if (spans[a].tid != tids[0])
            tids[1] = spans[a].tid;
        for (size_t b = 0; b < n; b++) {
            const span *x = &spans[a], *y = &spans[b];
            if (a == b || x->tid != y->tid)
                continue;
            double xe = x->ts + x->dur, ye = y->ts + y->dur;
            bool disjoint = xe <= y->ts + 1e-3 || ye <= x->ts + 1e-3;
            bool nested = (x->ts <= y->ts && ye <= xe) || (y->ts <= x->ts && xe <= ye);
            cr_assert(disjoint || nested, "%s [%.3f, %.3f) and %s [%.3f, %.3f) overlap partly",
                      x->name, x->ts, xe, y->name, y->ts, ye);
            if (x->seq < y->seq)
                cr_assert(xe <= y->ts + 1e-3,
                          "%s (enqueued first) ends at %.3f after %s starts at %.3f on one queue",
                          x->name, xe, y->name, y->ts);
        }
    }
    cr_assert(tids[1] > 0 && tids[1] != tids[0], "two queues must give two tracks");

    /* Names in enqueue order and the bytes and flops of each. */
    static const char *const order[] = {"queue_write", "fill",       "add", "mul",       "sum",
                                        "matmul",      "queue_read", "dot", "queue_copy"};
    const double n4 = N_ELEM * 4.0;
    const double expect_bytes[] = {
        n4,     n4,         3 * n4,
        3 * n4, n4 + 4,     4.0 * (GEMM_M * GEMM_K + GEMM_K * GEMM_N + GEMM_M * GEMM_N),
        n4,     2 * n4 + 4, 2 * n4};
    const double expect_flops[] = {
        0, 0, N_ELEM, N_ELEM, N_ELEM, 2.0 * GEMM_M * GEMM_N * GEMM_K, 0, 2 * N_ELEM, 0};
    for (size_t k = 0; k < n; k++) {
        const span *s = &spans[k];
        cr_assert_str_eq(s->name, order[k], "span %zu is %s, expected %s", k, s->name, order[k]);
        cr_assert_eq(jnum(s->args, "bytes"), expect_bytes[k], "%s: bytes %g, expected %g", s->name,
                     jnum(s->args, "bytes"), expect_bytes[k]);
        cr_assert_eq(jnum(s->args, "flops"), expect_flops[k], "%s: flops %g, expected %g", s->name,
                     jnum(s->args, "flops"), expect_flops[k]);
    }
    jfree(&root);
    free(text);
}

/* One fill of 16 f32 elements with v on rt's cpu device, finished; the
 * elements read back into got16 (may be NULL). Queue and buffer are left to
 * accel_runtime_close. */
static void one_fill(accel_runtime *rt, double v, float *got16)
{
    accel_device *dev;
    tu_ok(accel_device_get_by_name(rt, "cpu", &dev));
    accel_queue *q;
    accel_buffer *a;
    tu_ok(accel_queue_create(dev, &q));
    tu_ok(accel_buffer_create(dev, 16 * sizeof(float), &a));
    tu_ok(accel_fill(q, ACCEL_F32, v, accel_slice_of(a, 0, 16)));
    tu_ok(accel_queue_finish(q));
    if (got16)
        tu_ok(accel_queue_read_blocking(q, a, 0, got16, 16 * sizeof(float)));
}

Test(trace, off_writes_nothing)
{
    const char *path = tu_fmt("%s/never.json", tu_tmpdir());
    unsetenv("ACCEL_TRACE");
    accel_runtime *rt = tu_open_default();
    one_fill(rt, 1.0, NULL);
    accel_runtime_close(rt);
    FILE *f = fopen(path, "r");
    cr_assert(f == NULL, "a trace file appeared without ACCEL_TRACE");
}

/* A path that cannot be created: the warning (path and strerror) comes at
 * accel_runtime_open, before any work; the run goes on untraced, and close
 * warns no more. */
Test(trace, unwritable_path_warns_at_open)
{
    const char *path = tu_fmt("%s/no_such_dir/t.json", tu_tmpdir());
    tu_log_capture();
    setenv("ACCEL_TRACE", path, 1);
    accel_runtime *rt = tu_open_default();
    unsetenv("ACCEL_TRACE");
    cr_assert(tu_log_contains(ACCEL_LOG_WARN, path) &&
                  tu_log_contains(ACCEL_LOG_WARN, "No such file or directory"),
              "no warning at open naming %s: %s", path, tu_log_text());
    float got[16];
    one_fill(rt, 2.5, got);
    for (int i = 0; i < 16; i++)
        cr_assert_eq(got[i], 2.5f, "element %d: %g", i, got[i]);
    accel_runtime_close(rt);
    cr_assert(!tu_log_contains(ACCEL_LOG_WARN, "cannot write"), "close warned again: %s",
              tu_log_text());
}

/* Two runtimes with the same ACCEL_TRACE, the one with more spans closed
 * first: the file is the last one's whole trace and parses (a file kept open
 * from accel_runtime_open would keep the first one's longer tail after the
 * second one's shorter text). */
Test(trace, runtimes_sharing_a_path_leave_the_last_whole_trace)
{
    const char *path = tu_fmt("%s/shared.json", tu_tmpdir());
    setenv("ACCEL_TRACE", path, 1);
    accel_runtime *big = tu_open_default(), *small = tu_open_default();
    unsetenv("ACCEL_TRACE");
    accel_device *dev;
    tu_ok(accel_device_get_by_name(big, "cpu", &dev));
    run_work(dev);
    accel_runtime_close(big);
    one_fill(small, 1.0, NULL);
    accel_runtime_close(small);
    char *text = read_all(path);
    jparser j = {text, NULL};
    jval root;
    cr_assert(parse_value(&j, &root), "the shared trace is not JSON: %s at offset %td", j.err,
              j.p - text);
    skip_ws(&j);
    cr_assert(*j.p == '\0', "text after the JSON (a longer trace's tail) at offset %td",
              j.p - text);
    const jval *events = jget(&root, "traceEvents");
    cr_assert(events && events->kind == J_ARR, "no traceEvents array");
    size_t fills = 0, adds = 0;
    for (size_t i = 0; i < events->count; i++) {
        const char *name = jstr(&events->items[i], "name");
        fills += strcmp(name, "fill") == 0;
        adds += strcmp(name, "add") == 0;
    }
    cr_assert_eq(fills, 1, "the last runtime filled once: %zu fill spans", fills);
    cr_assert_eq(adds, 0, "the first runtime's add is in the last one's trace");
    jfree(&root);
    free(text);
}

/* The trace of one process (rank) as parsed: its pid, its process name, the
 * pids of its spans (all equal, else -1) and their count. */
typedef struct rank_trace {
    int pid, span_pid;
    char pname[64];
    size_t spans;
} rank_trace;

static rank_trace read_rank_trace(const char *path)
{
    char *text = read_all(path);
    jparser j = {text, NULL};
    jval root;
    cr_assert(parse_value(&j, &root), "%s is not JSON: %s", path, j.err);
    const jval *events = jget(&root, "traceEvents");
    cr_assert(events && events->kind == J_ARR, "%s: no traceEvents", path);
    rank_trace r = {.pid = -2, .span_pid = -2};
    for (size_t i = 0; i < events->count; i++) {
        const jval *e = &events->items[i];
        int pid = (int)jnum(e, "pid");
        if (strcmp(jstr(e, "ph"), "X") == 0) {
            r.span_pid = r.span_pid == -2 || r.span_pid == pid ? pid : -1;
            r.spans++;
        } else if (strcmp(jstr(e, "name"), "process_name") == 0) {
            r.pid = pid;
            snprintf(r.pname, sizeof r.pname, "%s", jstr(jget(e, "args"), "name"));
        }
    }
    jfree(&root);
    free(text);
    return r;
}

/* Two ranks of an MPI job, as mpirun starts them (two processes, each with
 * OMPI_COMM_WORLD_RANK): their traces carry their own process ids and rank
 * names, so merged into one file (the two traceEvents lists concatenated)
 * their tracks stay apart. */
Test(trace, two_ranks_merge_apart)
{
    pid_t kids[2];
    const char *paths[2];
    for (int r = 0; r < 2; r++) {
        paths[r] = tu_fmt("%s/rank%d.json", tu_tmpdir(), r);
        fflush(NULL);
        kids[r] = fork();
        cr_assert(kids[r] >= 0, "fork failed");
        if (kids[r] == 0) {
            char rank[8];
            snprintf(rank, sizeof rank, "%d", r);
            setenv("OMPI_COMM_WORLD_RANK", rank, 1);
            setenv("ACCEL_TRACE", paths[r], 1);
            /* No Criterion asserts in the child: its exit status says. */
            accel_runtime *rt = NULL;
            accel_device *dev = NULL;
            accel_queue *q = NULL;
            accel_buffer *a = NULL;
            accel_status st = accel_runtime_open(TU_DEFAULT_CONFIG, &rt);
            if (st == ACCEL_SUCCESS)
                st = accel_device_get_by_name(rt, "cpu", &dev);
            if (st == ACCEL_SUCCESS)
                st = accel_queue_create(dev, &q);
            if (st == ACCEL_SUCCESS)
                st = accel_buffer_create(dev, 16 * sizeof(float), &a);
            if (st == ACCEL_SUCCESS)
                st = accel_fill(q, ACCEL_F32, 1.0 + r, accel_slice_of(a, 0, 16));
            if (st == ACCEL_SUCCESS)
                st = accel_queue_finish(q);
            accel_runtime_close(rt);
            _exit(st == ACCEL_SUCCESS ? 0 : 3);
        }
    }
    rank_trace got[2];
    for (int r = 0; r < 2; r++) {
        int status = 0;
        cr_assert_eq(waitpid(kids[r], &status, 0), kids[r]);
        cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "rank %d failed: status %d", r,
                  status);
        got[r] = read_rank_trace(paths[r]);
        char want[64];
        snprintf(want, sizeof want, "accel rank %d, pid %d", r, (int)kids[r]);
        cr_assert_eq(got[r].pid, (int)kids[r], "rank %d: process_name pid %d, expected %d", r,
                     got[r].pid, (int)kids[r]);
        cr_assert_str_eq(got[r].pname, want);
        cr_assert(got[r].spans >= 1, "rank %d: no spans", r);
        cr_assert_eq(got[r].span_pid, (int)kids[r], "rank %d: spans under pid %d, expected %d", r,
                     got[r].span_pid, (int)kids[r]);
    }
    cr_assert_neq(got[0].pid, got[1].pid, "the two ranks' traces share a pid");
}
