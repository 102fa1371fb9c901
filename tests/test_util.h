/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_util.h — helpers shared by the Criterion suites: paths of the build
 * tree and the test plugins, temporary config files, log capture, the seeded
 * input generator, ulp arithmetic, and moving arrays to and from devices.
 * Everything here is test code: it never relies on the library for the values
 * a test compares against. */
#ifndef ACCEL_TEST_UTIL_H
#define ACCEL_TEST_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "accel/accel.h"
#include "accel/backend.h" /* log levels, ABI version */

/* Compile definitions from tests/CMakeLists.txt. */
#ifndef ACCEL_TEST_BUILD_DIR
#error "ACCEL_TEST_BUILD_DIR must be defined"
#endif
/* The build tree's default configuration (lib/accel/plugins.ini). */
#define TU_DEFAULT_CONFIG ACCEL_TEST_PLUGIN_CONFIG_DIR "/plugins.ini"
/* The CPU backend as built. */
#define TU_CPU_PLUGIN ACCEL_TEST_PLUGIN_CONFIG_DIR "/libaccel_cpu.so"
/* The CUDA backend as built (present only when it was). */
#define TU_CUDA_PLUGIN ACCEL_TEST_PLUGIN_CONFIG_DIR "/libaccel_cuda.so"
/* A test plugin by short name: mock, not_a_plugin, wrong_abi, init_fail, ... */
#define TU_TEST_PLUGIN(short_name) ACCEL_TEST_PLUGIN_DIR "/libaccel_test_" short_name ".so"

/* The fill value that makes the mock backend's enqueued work fail. */
#define TU_MOCK_FAULT_VALUE 13.0

/* ------------------------------------------------------------ files */

/* A fresh directory under $TMPDIR (or /tmp), removed with its contents when
 * the test process exits. Returned string lives until exit. */
const char *tu_tmpdir(void);

/* Write text to dir/name; returns the path (lives until exit). */
const char *tu_write_file(const char *dir, const char *name, const char *text);

/* printf into a string that lives until exit. */
const char *tu_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* realpath() of path into a string that lives until exit (path itself if it
 * cannot be resolved). */
const char *tu_realpath(const char *path);

/* ------------------------------------------------------------ log capture */

/* Route the library's log to an in-memory list and log everything (debug). */
void tu_log_capture(void);
/* True when a captured line of at least min_level contains needle. */
bool tu_log_contains(int min_level, const char *needle);
/* All captured lines, newline-separated (for failure messages). */
const char *tu_log_text(void);

/* ------------------------------------------------------------ runtime */

/* Open the build tree's default plugins.ini; asserts success. */
accel_runtime *tu_open_default(void);

/* Verify mode on rt: every op run again on the CPU and compared, a
 * mismatch failing the op, the CPU checked against itself too; asserts
 * success. */
void tu_verify_against_cpu(accel_runtime *rt);

/* Write ini text to a temp file and open it; returns the status, *out_rt set on
 * success. *out_path (if not NULL) receives the file path. */
accel_status tu_open_ini(const char *ini_text, accel_runtime **out_rt, const char **out_path);

/* A runtime of the CPU backend alone whose kernels the system C compiler
 * builds (kernel_compiler = cc); asserts success. */
accel_runtime *tu_open_cpu_cc(void);

/* Backend record by section name; asserts it exists. */
accel_backend_info tu_backend_info(const accel_runtime *rt, const char *name);

/* Run fn once per device of rt with a fresh queue on it, logging which device
 * runs. Devices whose properties lack dtype are still passed; fn decides. */
typedef void (*tu_device_fn)(accel_device *dev, accel_queue *q, void *user);
void tu_for_each_device(accel_runtime *rt, tu_device_fn fn, void *user);

bool tu_device_is_gpu(const accel_device *dev);
bool tu_device_has_dtype(const accel_device *dev, accel_dtype dt);

/* ------------------------------------------------------------ inputs */

/* The suite's seed: $ACCEL_TEST_SEED or a fixed default; logged once. */
uint64_t tu_seed(void);

/* splitmix64 (Steele, Lea, Flood 2014): independent of the library's Philox. */
typedef struct tu_rng {
    uint64_t state;
} tu_rng;
tu_rng tu_rng_make(uint64_t salt); /* seeded from tu_seed() ^ salt */
uint64_t tu_rng_next(tu_rng *r);
double tu_rng_unit(tu_rng *r);                        /* [0, 1) */
double tu_rng_range(tu_rng *r, double lo, double hi); /* [lo, hi) */
/* Random sign, mantissa and binary exponent in [emin, emax]: exercises
 * rounding across binades. */
double tu_rng_wide(tu_rng *r, int emin, int emax);

/* v rounded to dtype (f32: (float)v), back as double. */
double tu_round(accel_dtype dt, double v);

/* ------------------------------------------------------------ ulp */

/* One ulp of dtype at the magnitude of the exact value x (subnormal spacing
 * below the smallest normal). */
long double tu_ulp(accel_dtype dt, long double x);
/* |got - exact| in ulps of exact; 0 when both are the same Inf or both NaN,
 * +Inf when one is NaN/Inf and the other not. */
double tu_ulp_diff(accel_dtype dt, double got, long double exact);
/* Unit roundoff: 2^-24 (f32), 2^-53 (f64). */
double tu_unit_roundoff(accel_dtype dt);
/* Equal as IEEE values, with NaN equal to NaN. */
bool tu_same(double a, double b);

/* ------------------------------------------------------------ device data */

/* A buffer of `count` elements of dt with `guard` sentinel elements before
 * and after; the payload slice starts at element `guard`. */
typedef struct tu_dbuf {
    accel_buffer *buf;
    accel_dtype dt;
    size_t guard, count;
} tu_dbuf;

#define TU_GUARD 3
#define TU_SENTINEL (-1234.5)

/* Create the buffer, fill the guards with TU_SENTINEL and the payload with
 * vals (or TU_SENTINEL when vals is NULL). Blocking. */
tu_dbuf tu_upload(accel_queue *q, accel_dtype dt, const double *vals, size_t count);
accel_slice tu_slice(const tu_dbuf *b);
/* Read the payload (blocking) into vals[count] as doubles (exact for f32). */
void tu_download(accel_queue *q, const tu_dbuf *b, double *vals);
/* Assert both guards still hold TU_SENTINEL. */
void tu_check_guards(accel_queue *q, const tu_dbuf *b, const char *what);
void tu_release(tu_dbuf *b);

/* Assert status == expected, else fail with both names and accel_last_error(). */
#define tu_assert_status(got, expected, ...)                                                       \
    do {                                                                                           \
        accel_status tu_got_ = (got);                                                              \
        accel_status tu_exp_ = (expected);                                                         \
        cr_assert(tu_got_ == tu_exp_, "%s: got %s, expected %s (last error: \"%s\")",              \
                  tu_fmt(__VA_ARGS__), accel_status_name(tu_got_), accel_status_name(tu_exp_),     \
                  accel_last_error());                                                             \
    } while (0)

#define tu_ok(call) tu_assert_status((call), ACCEL_SUCCESS, "%s", #call)

#endif
