/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_util.c — see test_util.h. */
#define _XOPEN_SOURCE 700
#include "test_util.h"

#include "accel/verify.h"

#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <float.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The caller's shell must not change what the suites load; tests that need
 * these variables set them themselves. */
__attribute__((constructor)) static void tu_clean_environment(void)
{
    unsetenv("ACCEL_CONFIG");
    unsetenv("ACCEL_BACKEND");
}

/* ------------------------------------------------------------ strings */

/* Strings handed out by tu_fmt and friends; freed at exit. */
static char **g_strings;
static size_t g_nstrings;
static pthread_mutex_t g_strings_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *keep(char *s)
{
    pthread_mutex_lock(&g_strings_lock);
    char **n = realloc(g_strings, (g_nstrings + 1) * sizeof *n);
    cr_assert(n != NULL, "out of memory in test helper");
    g_strings = n;
    g_strings[g_nstrings++] = s;
    pthread_mutex_unlock(&g_strings_lock);
    return s;
}

const char *tu_fmt(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = malloc((size_t)len + 1);
    cr_assert(s != NULL);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)len + 1, fmt, ap);
    va_end(ap);
    return keep(s);
}

const char *tu_realpath(const char *path)
{
    char *r = realpath(path, NULL);
    return r ? keep(r) : path;
}

/* ------------------------------------------------------------ files */

static char *g_tmpdirs[16];
static int g_ntmpdirs;

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

static void cleanup_at_exit(void)
{
    for (int i = 0; i < g_ntmpdirs; ++i) {
        nftw(g_tmpdirs[i], rm_entry, 16, FTW_DEPTH | FTW_PHYS);
        free(g_tmpdirs[i]);
    }
    g_ntmpdirs = 0;
    for (size_t i = 0; i < g_nstrings; ++i)
        free(g_strings[i]);
    free(g_strings);
    g_strings = NULL;
    g_nstrings = 0;
}

const char *tu_tmpdir(void)
{
    static bool registered;
    if (!registered) {
        atexit(cleanup_at_exit);
        registered = true;
    }
    cr_assert(g_ntmpdirs < 16, "too many temp dirs in one test");
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    char *t = malloc(strlen(base) + 32);
    cr_assert(t != NULL);
    sprintf(t, "%s/accel-test-XXXXXX", base);
    cr_assert(mkdtemp(t) != NULL, "mkdtemp(%s) failed", t);
    g_tmpdirs[g_ntmpdirs++] = t;
    return t;
}

const char *tu_write_file(const char *dir, const char *name, const char *text)
{
    const char *path = tu_fmt("%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert(f != NULL, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
    return path;
}

/* ------------------------------------------------------------ log capture */

typedef struct log_line {
    int level;
    char *text;
} log_line;

static log_line *g_log;
static size_t g_nlog;
static pthread_mutex_t g_log_lock = PTHREAD_MUTEX_INITIALIZER;

static void log_sink(int level, const char *message, void *user)
{
    (void)user;
    pthread_mutex_lock(&g_log_lock);
    log_line *n = realloc(g_log, (g_nlog + 1) * sizeof *n);
    if (n) {
        g_log = n;
        g_log[g_nlog].level = level;
        g_log[g_nlog].text = strdup(message ? message : "(null)");
        if (g_log[g_nlog].text)
            g_nlog++;
    }
    pthread_mutex_unlock(&g_log_lock);
}

void tu_log_capture(void)
{
    accel_set_log_level(0);
    accel_set_log_callback(log_sink, NULL);
}

bool tu_log_contains(int min_level, const char *needle)
{
    bool found = false;
    pthread_mutex_lock(&g_log_lock);
    for (size_t i = 0; i < g_nlog && !found; ++i)
        found = g_log[i].level >= min_level && strstr(g_log[i].text, needle) != NULL;
    pthread_mutex_unlock(&g_log_lock);
    return found;
}

const char *tu_log_text(void)
{
    pthread_mutex_lock(&g_log_lock);
    size_t len = 1;
    for (size_t i = 0; i < g_nlog; ++i)
        len += strlen(g_log[i].text) + 8;
    char *s = malloc(len);
    cr_assert(s != NULL);
    s[0] = '\0';
    for (size_t i = 0; i < g_nlog; ++i)
        sprintf(s + strlen(s), "[%d] %s\n", g_log[i].level, g_log[i].text);
    pthread_mutex_unlock(&g_log_lock);
    return keep(s);
}

/* ------------------------------------------------------------ runtime */

accel_runtime *tu_open_default(void)
{
    accel_runtime *rt = NULL;
    accel_status s = accel_runtime_open(TU_DEFAULT_CONFIG, &rt);
    cr_assert(s == ACCEL_SUCCESS, "accel_runtime_open(%s): %s: %s", TU_DEFAULT_CONFIG,
              accel_status_name(s), accel_last_error());
    cr_assert(rt != NULL);
    return rt;
}

void tu_verify_against_cpu(accel_runtime *rt)
{
    accel_verify_options o;
    accel_verify_options_init(&o);
    o.reference = "cpu";
    o.check_reference_device = true;
    o.fail_on_mismatch = true;
    tu_ok(accel_verify_configure(rt, &o));
}

accel_status tu_open_ini(const char *ini_text, accel_runtime **out_rt, const char **out_path)
{
    const char *dir = tu_tmpdir();
    const char *path = tu_write_file(dir, "plugins.ini", ini_text);
    if (out_path)
        *out_path = path;
    *out_rt = NULL;
    return accel_runtime_open(path, out_rt);
}

accel_runtime *tu_open_cpu_cc(void)
{
    accel_runtime *rt = NULL;
    tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = cpu\n[backend.cpu]\nlibrary = %s\n"
                             "kernel_compiler = cc\n",
                             TU_CPU_PLUGIN),
                      &rt, NULL));
    return rt;
}

accel_backend_info tu_backend_info(const accel_runtime *rt, const char *name)
{
    uint32_t n = accel_runtime_backend_count(rt);
    for (uint32_t i = 0; i < n; ++i) {
        accel_backend_info info;
        memset(&info, 0, sizeof info);
        info.struct_size = sizeof info;
        accel_status s = accel_runtime_backend_info(rt, i, &info);
        cr_assert(s == ACCEL_SUCCESS, "accel_runtime_backend_info(%u): %s", i, accel_last_error());
        if (info.name && strcmp(info.name, name) == 0)
            return info;
    }
    cr_assert_fail("no backend record named \"%s\" among %u", name, n);
    accel_backend_info none;
    memset(&none, 0, sizeof none);
    return none;
}

static accel_device_properties props_of(const accel_device *dev)
{
    accel_device_properties p;
    accel_device_properties_init(&p);
    accel_status s = accel_device_properties_get(dev, &p);
    cr_assert(s == ACCEL_SUCCESS, "accel_device_properties_get: %s", accel_last_error());
    return p;
}

bool tu_device_is_gpu(const accel_device *dev)
{
    return props_of(dev).kind == ACCEL_DEVICE_GPU;
}

bool tu_device_has_dtype(const accel_device *dev, accel_dtype dt)
{
    return (props_of(dev).dtypes >> dt) & 1u;
}

void tu_for_each_device(accel_runtime *rt, tu_device_fn fn, void *user)
{
    uint32_t n = accel_device_count(rt);
    cr_assert(n >= 1, "the default configuration has no device");
    for (uint32_t i = 0; i < n; ++i) {
        accel_device *dev = NULL;
        tu_ok(accel_device_get(rt, i, &dev));
        accel_device_properties p = props_of(dev);
        cr_log_info("device %s (%s, backend %s)", accel_device_name(dev), p.name, p.backend);
        accel_queue *q = NULL;
        tu_ok(accel_queue_create(dev, &q));
        fn(dev, q, user);
        tu_ok(accel_queue_finish(q));
        accel_queue_release(q);
    }
}

/* ------------------------------------------------------------ inputs */

uint64_t tu_seed(void)
{
    static bool have;
    static uint64_t seed;
    if (!have) {
        const char *env = getenv("ACCEL_TEST_SEED");
        seed = env && *env ? strtoull(env, NULL, 0) : 20240611ull;
        have = true;
        cr_log_info("random inputs from seed %llu (set ACCEL_TEST_SEED to change it)",
                    (unsigned long long)seed);
    }
    return seed;
}

tu_rng tu_rng_make(uint64_t salt)
{
    tu_rng r = {tu_seed() ^ (salt * 0x9E3779B97F4A7C15ull)};
    return r;
}

uint64_t tu_rng_next(tu_rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double tu_rng_unit(tu_rng *r)
{
    return (double)(tu_rng_next(r) >> 11) * 0x1p-53;
}

double tu_rng_range(tu_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * tu_rng_unit(r);
}

double tu_rng_wide(tu_rng *r, int emin, int emax)
{
    uint64_t bits = tu_rng_next(r);
    double mant = 1.0 + (double)(bits >> 12) * 0x1p-52;
    int e = emin + (int)((bits & 0xff) % (uint64_t)(emax - emin + 1));
    double v = ldexp(mant, e);
    return (bits & 0x100) ? -v : v;
}

double tu_round(accel_dtype dt, double v)
{
    return dt == ACCEL_F32 ? (double)(float)v : v;
}

/* ------------------------------------------------------------ ulp */

long double tu_ulp(accel_dtype dt, long double x)
{
    int mant = dt == ACCEL_F32 ? FLT_MANT_DIG : DBL_MANT_DIG;
    int emin = dt == ACCEL_F32 ? FLT_MIN_EXP : DBL_MIN_EXP;
    x = fabsl(x);
    int e;
    if (x == 0.0L || isinf(x) || isnan(x))
        e = emin;
    else {
        frexpl(x, &e); /* x = f * 2^e, f in [0.5, 1) */
        if (e < emin)
            e = emin;
    }
    return ldexpl(1.0L, e - mant);
}

double tu_ulp_diff(accel_dtype dt, double got, long double exact)
{
    if (isnan(got) || isnan(exact))
        return (isnan(got) && isnan(exact)) ? 0.0 : INFINITY;
    if (isinf(got) || isinf(exact))
        return ((long double)got == exact) ? 0.0 : INFINITY;
    return (double)(fabsl((long double)got - exact) / tu_ulp(dt, exact));
}

double tu_unit_roundoff(accel_dtype dt)
{
    return dt == ACCEL_F32 ? 0x1p-24 : 0x1p-53;
}

bool tu_same(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

/* ------------------------------------------------------------ device data */

static void to_bytes(accel_dtype dt, const double *vals, size_t n, void *out)
{
    if (dt == ACCEL_F32)
        for (size_t i = 0; i < n; ++i)
            ((float *)out)[i] = (float)vals[i];
    else
        memcpy(out, vals, n * sizeof(double));
}

tu_dbuf tu_upload(accel_queue *q, accel_dtype dt, const double *vals, size_t count)
{
    tu_dbuf b = {NULL, dt, TU_GUARD, count};
    size_t total = count + 2 * TU_GUARD;
    size_t es = accel_dtype_size(dt);
    cr_assert(es == (dt == ACCEL_F32 ? 4u : 8u), "accel_dtype_size(%d) = %zu", (int)dt, es);
    double *all = malloc(total * sizeof(double));
    void *bytes = malloc(total * es);
    cr_assert(all && bytes);
    for (size_t i = 0; i < total; ++i)
        all[i] = TU_SENTINEL;
    if (vals)
        memcpy(all + TU_GUARD, vals, count * sizeof(double));
    to_bytes(dt, all, total, bytes);
    tu_ok(accel_buffer_create(accel_queue_device(q), total * es, &b.buf));
    tu_ok(accel_queue_write_blocking(q, b.buf, 0, bytes, total * es));
    free(all);
    free(bytes);
    return b;
}

accel_slice tu_slice(const tu_dbuf *b)
{
    return accel_slice_of(b->buf, b->guard, b->count);
}

static void read_elems(accel_queue *q, const tu_dbuf *b, size_t first, size_t n, double *vals)
{
    size_t es = accel_dtype_size(b->dt);
    void *bytes = malloc(n * es + 1);
    cr_assert(bytes);
    tu_ok(accel_queue_read_blocking(q, b->buf, first * es, bytes, n * es));
    for (size_t i = 0; i < n; ++i)
        vals[i] = b->dt == ACCEL_F32 ? (double)((float *)bytes)[i] : ((double *)bytes)[i];
    free(bytes);
}

void tu_download(accel_queue *q, const tu_dbuf *b, double *vals)
{
    read_elems(q, b, b->guard, b->count, vals);
}

void tu_check_guards(accel_queue *q, const tu_dbuf *b, const char *what)
{
    double g[TU_GUARD];
    read_elems(q, b, 0, TU_GUARD, g);
    for (int i = 0; i < TU_GUARD; ++i)
        cr_assert(g[i] == TU_SENTINEL, "%s: element %d before the slice was overwritten (%g)", what,
                  i, g[i]);
    read_elems(q, b, b->guard + b->count, TU_GUARD, g);
    for (int i = 0; i < TU_GUARD; ++i)
        cr_assert(g[i] == TU_SENTINEL, "%s: element %d after the slice was overwritten (%g)", what,
                  i, g[i]);
}

void tu_release(tu_dbuf *b)
{
    accel_buffer_release(b->buf);
    b->buf = NULL;
}
