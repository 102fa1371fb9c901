/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_config.c — plugins.ini (core/base/config.c): a valid file, relative library
 * paths, a missing file, malformed files (ACCEL_ERROR_CONFIG with file:line),
 * bool spellings, unknown-key warnings, backend order, strict mode, and the
 * ACCEL_CONFIG / ACCEL_BACKEND environment overrides. Every config is written
 * to a fresh temp folder by the test itself. */
#define _XOPEN_SOURCE 700
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "accel/kernel.h"
#include "accel/verify.h"
#include "test_util.h"

static const char *cpu_section(void)
{
    return "[backend.cpu]\nlibrary = " TU_CPU_PLUGIN "\n";
}

/* Assert a CONFIG failure whose message names accel_runtime_open and path:line. */
static void expect_config_error(const char *ini, int line, const char *also)
{
    accel_runtime *rt = NULL;
    const char *path = NULL;
    accel_status s = tu_open_ini(ini, &rt, &path);
    tu_assert_status(s, ACCEL_ERROR_CONFIG, "open of:\n%s", ini);
    const char *msg = accel_last_error();
    cr_assert(strstr(msg, "accel_runtime_open") != NULL, "message lacks the function: \"%s\"", msg);
    const char *where = tu_fmt("%s:%d", tu_realpath(path), line);
    const char *where_raw = tu_fmt("%s:%d", path, line);
    cr_assert(strstr(msg, where) != NULL || strstr(msg, where_raw) != NULL,
              "message \"%s\" lacks \"%s\"", msg, where);
    if (also)
        cr_assert(strstr(msg, also) != NULL, "message \"%s\" lacks \"%s\"", msg, also);
}

static const char *device_name_at(accel_runtime *rt, uint32_t i)
{
    accel_device *dev = NULL;
    tu_ok(accel_device_get(rt, i, &dev));
    return accel_device_name(dev);
}

static const char *default_device_name(accel_runtime *rt)
{
    accel_device *dev = NULL;
    tu_ok(accel_device_default(rt, &dev));
    return accel_device_name(dev);
}

Test(config, valid_file_loads_cpu_and_passes_its_keys)
{
    const char *ini = tu_fmt("; comment line\n"
                             "# another comment\n"
                             "[runtime]\n"
                             "order = cpu      ; inline comment\n"
                             "strict = false\n"
                             "%s"
                             "threads = 2\n",
                             cpu_section());
    accel_runtime *rt;
    const char *path;
    tu_ok(tu_open_ini(ini, &rt, &path));
    cr_assert_str_eq(accel_runtime_config_path(rt), tu_realpath(path));
    cr_assert_eq(accel_runtime_backend_count(rt), 1u);
    accel_backend_info info = tu_backend_info(rt, "cpu");
    cr_assert(info.loaded, "cpu not loaded: %s", info.reason);
    cr_assert_eq(info.status, ACCEL_SUCCESS);
    cr_assert_eq(info.abi_version, 2u);
    cr_assert_geq(info.device_count, 1u);
    cr_assert_str_eq(info.path, tu_realpath(TU_CPU_PLUGIN));
    cr_assert_str_eq(device_name_at(rt, 0), "cpu:0");
    cr_assert_str_eq(default_device_name(rt), "cpu:0");

    /* threads = 2 reaches the plugin through config_get. */
    accel_device *dev;
    tu_ok(accel_device_get_by_name(rt, "cpu", &dev));
    accel_device_properties p;
    accel_device_properties_init(&p);
    tu_ok(accel_device_properties_get(dev, &p));
    cr_assert_eq(p.compute_units, 2u, "threads = 2 gave %u compute units", p.compute_units);
    cr_assert_str_eq(p.backend, "cpu");
    cr_assert_eq(p.kind, (uint32_t)ACCEL_DEVICE_CPU);
    accel_runtime_close(rt);
}

Test(config, relative_library_path_is_relative_to_the_ini_folder)
{
    const char *dir = tu_tmpdir();
    cr_assert_eq(mkdir(tu_fmt("%s/sub", dir), 0700), 0);
    cr_assert_eq(symlink(TU_CPU_PLUGIN, tu_fmt("%s/sub/libaccel_cpu.so", dir)), 0);
    const char *path =
        tu_write_file(dir, "plugins.ini",
                      "[runtime]\norder = cpu\n[backend.cpu]\nlibrary = sub/libaccel_cpu.so\n");
    /* The current directory must play no part. */
    cr_assert_eq(chdir("/"), 0);
    accel_runtime *rt = NULL;
    tu_ok(accel_runtime_open(path, &rt));
    accel_backend_info info = tu_backend_info(rt, "cpu");
    cr_assert(info.loaded, "%s", info.reason);
    cr_assert(info.path[0] == '/', "resolved path is not absolute: %s", info.path);
    cr_assert(strstr(info.path, "libaccel_cpu.so") != NULL, "path %s", info.path);
    accel_runtime_close(rt);

    /* The same relative path from a config in another folder does not load. */
    const char *other = tu_tmpdir();
    cr_assert_eq(chdir(dir), 0);
    const char *path2 =
        tu_write_file(other, "plugins.ini",
                      "[runtime]\norder = cpu\n[backend.cpu]\nlibrary = sub/libaccel_cpu.so\n");
    accel_status s = accel_runtime_open(path2, &rt);
    tu_assert_status(s, ACCEL_ERROR_UNAVAILABLE, "relative path must not resolve against the cwd");
}

Test(config, missing_file_is_not_found)
{
    const char *path = tu_fmt("%s/does-not-exist.ini", tu_tmpdir());
    accel_runtime *rt = NULL;
    tu_assert_status(accel_runtime_open(path, &rt), ACCEL_ERROR_NOT_FOUND, "open %s", path);
    cr_assert_null(rt);
    cr_assert(strstr(accel_last_error(), "accel_runtime_open") != NULL, "%s", accel_last_error());
    cr_assert(strstr(accel_last_error(), "does-not-exist.ini") != NULL, "%s", accel_last_error());
}

Test(config, line_without_equals_is_config_error_with_line)
{
    expect_config_error(
        tu_fmt("[runtime]\norder = cpu\nthis line has no equals sign\n%s", cpu_section()), 3, NULL);
}

/* One message for one mistake: the error, with file and line, and no warning
 * about the keys after it (inih would give them to the section before). */
Test(config, unterminated_section_header_is_config_error_with_line)
{
    tu_log_capture();
    expect_config_error(tu_fmt("[runtime]\norder = cpu\n\n[backend.cpu\nlibrary = x.so\n"), 4,
                        "section header '[backend.cpu' has no closing ']'");
    cr_assert(!tu_log_contains(ACCEL_LOG_WARN, ""), "a warning besides the error:\n%s",
              tu_log_text());
    expect_config_error(tu_fmt("[runtime\norder = cpu\n%s", cpu_section()), 1,
                        "section header '[runtime' has no closing ']'");
    cr_assert(!tu_log_contains(ACCEL_LOG_WARN, ""), "a warning besides the error:\n%s",
              tu_log_text());
}

Test(config, bad_bool_is_config_error_with_line)
{
    expect_config_error(tu_fmt("[runtime]\norder = cpu\nstrict = maybe\n%s", cpu_section()), 3,
                        "maybe");
}

Test(config, order_naming_unknown_section_is_config_error_with_line)
{
    expect_config_error(tu_fmt("[runtime]\norder = cpu, tpu\n%s", cpu_section()), 2, "tpu");
}

Test(config, backend_section_without_library_is_config_error_with_line)
{
    expect_config_error(
        tu_fmt("[runtime]\norder = cpu\n%s\n[backend.foo]\nthreads = 1\n", cpu_section()), 6,
        "library");
}

Test(config, bool_spellings_are_accepted)
{
    const char *spellings[] = {"true", "false", "1",   "0",    "yes",
                               "no",   "on",    "off", "TRUE", "False"};
    for (size_t i = 0; i < sizeof spellings / sizeof *spellings; ++i) {
        accel_runtime *rt;
        const char *ini =
            tu_fmt("[runtime]\norder = cpu\nstrict = %s\n%s", spellings[i], cpu_section());
        tu_assert_status(tu_open_ini(ini, &rt, NULL), ACCEL_SUCCESS, "strict = %s", spellings[i]);
        accel_runtime_close(rt);
    }
}

Test(config, unknown_runtime_key_warns_and_loads)
{
    tu_log_capture();
    accel_runtime *rt;
    tu_ok(
        tu_open_ini(tu_fmt("[runtime]\norder = cpu\ncolour = blue\n%s", cpu_section()), &rt, NULL));
    cr_assert(tu_log_contains(ACCEL_LOG_WARN, "colour"), "no warning naming the key; log:\n%s",
              tu_log_text());
    accel_runtime_close(rt);
}

Test(config, sections_not_in_order_load_after_it_in_file_order)
{
    accel_runtime *rt;
    tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = cpu\n"
                             "[backend.mock]\nlibrary = %s\n"
                             "%s",
                             TU_TEST_PLUGIN("mock"), cpu_section()),
                      &rt, NULL));
    cr_assert_eq(accel_device_count(rt), 2u);
    cr_assert_str_eq(device_name_at(rt, 0), "cpu:0");
    cr_assert_str_eq(device_name_at(rt, 1), "mock:0");
    cr_assert_str_eq(default_device_name(rt), "cpu:0");
    accel_runtime_close(rt);
}

Test(config, order_sets_device_order_and_default)
{
    accel_runtime *rt;
    tu_ok(tu_open_ini(
        tu_fmt("[runtime]\norder = mock, cpu\n%s[backend.mock]\nlibrary = %s\ndevices = 2\n",
               cpu_section(), TU_TEST_PLUGIN("mock")),
        &rt, NULL));
    cr_assert_eq(accel_device_count(rt), 3u);
    cr_assert_str_eq(device_name_at(rt, 0), "mock:0");
    cr_assert_str_eq(device_name_at(rt, 1), "mock:1");
    cr_assert_str_eq(device_name_at(rt, 2), "cpu:0");
    cr_assert_str_eq(default_device_name(rt), "mock:0");
    accel_runtime_close(rt);
}

Test(config, strict_true_makes_a_failing_backend_an_error)
{
    const char *fmt =
        "[runtime]\norder = broken, cpu\nstrict = %s\n%s[backend.broken]\nlibrary = %s\n";
    accel_runtime *rt;
    tu_assert_status(
        tu_open_ini(tu_fmt(fmt, "true", cpu_section(), TU_TEST_PLUGIN("init_fail")), &rt, NULL),
        ACCEL_ERROR_PLUGIN_LOAD, "strict with a failing backend");
    cr_assert(strstr(accel_last_error(), "broken") != NULL, "%s", accel_last_error());
    tu_ok(tu_open_ini(tu_fmt(fmt, "false", cpu_section(), TU_TEST_PLUGIN("init_fail")), &rt, NULL));
    cr_assert_str_eq(default_device_name(rt), "cpu:0");
    accel_runtime_close(rt);
}

Test(config, no_backend_loading_is_unavailable)
{
    accel_runtime *rt = NULL;
    accel_status s =
        tu_open_ini(tu_fmt("[runtime]\norder = broken\n[backend.broken]\nlibrary = %s\n",
                           TU_TEST_PLUGIN("zero_devices")),
                    &rt, NULL);
    tu_assert_status(s, ACCEL_ERROR_UNAVAILABLE, "only a zero-device backend");
    cr_assert_null(rt);
}

Test(config, accel_config_env_picks_the_file)
{
    const char *dir = tu_tmpdir();
    const char *path =
        tu_write_file(dir, "mine.ini", tu_fmt("[runtime]\norder = cpu\n%s", cpu_section()));
    setenv("ACCEL_CONFIG", path, 1);
    accel_runtime *rt;
    tu_ok(accel_runtime_open(NULL, &rt));
    cr_assert_str_eq(accel_runtime_config_path(rt), tu_realpath(path));
    accel_runtime_close(rt);

    /* An explicit path wins over the variable. */
    const char *other =
        tu_write_file(dir, "other.ini", tu_fmt("[runtime]\norder = cpu\n%s", cpu_section()));
    tu_ok(accel_runtime_open(other, &rt));
    cr_assert_str_eq(accel_runtime_config_path(rt), tu_realpath(other));
    accel_runtime_close(rt);

    setenv("ACCEL_CONFIG", tu_fmt("%s/missing.ini", dir), 1);
    tu_assert_status(accel_runtime_open(NULL, &rt), ACCEL_ERROR_NOT_FOUND,
                     "ACCEL_CONFIG to a missing file");
}

Test(config, default_file_is_next_to_the_library_never_the_cwd)
{
    /* A plugins.ini in the current directory that would fail if read. */
    const char *dir = tu_tmpdir();
    tu_write_file(dir, "plugins.ini", "this is not an ini file\n");
    cr_assert_eq(chdir(dir), 0);
    accel_runtime *rt;
    tu_ok(accel_runtime_open(NULL, &rt));
    cr_assert_str_eq(accel_runtime_config_path(rt), tu_realpath(TU_DEFAULT_CONFIG));
    accel_runtime_close(rt);
}

static const char *two_backend_ini(void)
{
    return tu_fmt("[runtime]\norder = mock, cpu, broken\n%s[backend.mock]\nlibrary = %s\n"
                  "[backend.broken]\nlibrary = %s\n",
                  cpu_section(), TU_TEST_PLUGIN("mock"), TU_TEST_PLUGIN("init_fail"));
}

Test(config, accel_backend_env_moves_a_backend_first)
{
    accel_runtime *rt;
    tu_ok(tu_open_ini(two_backend_ini(), &rt, NULL));
    cr_assert_str_eq(default_device_name(rt), "mock:0");
    accel_runtime_close(rt);

    setenv("ACCEL_BACKEND", "cpu", 1);
    tu_ok(tu_open_ini(two_backend_ini(), &rt, NULL));
    cr_assert_str_eq(default_device_name(rt), "cpu:0");
    cr_assert_str_eq(device_name_at(rt, 0), "cpu:0");
    cr_assert_str_eq(device_name_at(rt, 1), "mock:0");
    accel_runtime_close(rt);
}

Test(config, accel_backend_env_naming_a_failing_backend_is_an_error)
{
    setenv("ACCEL_BACKEND", "broken", 1);
    accel_runtime *rt = NULL;
    tu_assert_status(tu_open_ini(two_backend_ini(), &rt, NULL), ACCEL_ERROR_PLUGIN_LOAD,
                     "ACCEL_BACKEND=broken must not downgrade to another backend");
    cr_assert_null(rt);
    cr_assert(strstr(accel_last_error(), "broken") != NULL, "%s", accel_last_error());
}

Test(config, accel_backend_env_naming_an_unknown_backend_is_an_error)
{
    setenv("ACCEL_BACKEND", "tpu", 1);
    accel_runtime *rt = NULL;
    accel_status s = tu_open_ini(two_backend_ini(), &rt, NULL);
    cr_assert(s != ACCEL_SUCCESS, "ACCEL_BACKEND=tpu opened a runtime");
    cr_assert(strstr(accel_last_error(), "tpu") != NULL, "%s", accel_last_error());
}

/* ---------------------------------------- hostile or unusual config files */

Test(config, directory_as_config_says_so)
{
    const char *dir = tu_tmpdir();
    accel_runtime *rt = NULL;
    tu_assert_status(accel_runtime_open(dir, &rt), ACCEL_ERROR_CONFIG, "config %s", dir);
    cr_assert(strstr(accel_last_error(), "is a directory"), "%s", accel_last_error());
    cr_assert(!strstr(accel_last_error(), "names no backend") &&
                  !strstr(accel_last_error(), "writable"),
              "%s", accel_last_error());
}

/* Write len bytes to a fresh plugins.ini; returns its path. */
static const char *write_bytes(const void *bytes, size_t len)
{
    const char *path = tu_fmt("%s/plugins.ini", tu_tmpdir());
    FILE *f = fopen(path, "wb");
    cr_assert(f != NULL);
    cr_assert_eq(fwrite(bytes, 1, len, f), len);
    fclose(f);
    return path;
}

Test(config, nul_byte_is_reported_as_such)
{
    static const char text[] = "[runtime]\norder = c\0pu\n";
    const char *path = write_bytes(text, sizeof text - 1);
    accel_runtime *rt = NULL;
    tu_assert_status(accel_runtime_open(path, &rt), ACCEL_ERROR_CONFIG, "NUL byte");
    cr_assert(strstr(accel_last_error(), ":2: NUL byte at column 10"), "%s", accel_last_error());
    cr_assert(!strstr(accel_last_error(), "longer than"), "%s", accel_last_error());
}

Test(config, long_lines_up_to_4096_characters_are_read)
{
    /* A library path of ~1000 characters ("/./" repeated) with an inline
     * comment, a long comment line and a long unknown key's value. */
    char lib[1200] = "";
    size_t at = 0;
    const char *plugin = TU_CPU_PLUGIN;
    const char *slash = strrchr(plugin, '/');
    at += (size_t)snprintf(lib, sizeof lib, "%.*s", (int)(slash - plugin), plugin);
    while (at < 1000)
        at += (size_t)snprintf(lib + at, sizeof lib - at, "/.");
    snprintf(lib + at, sizeof lib - at, "%s", slash);
    char comment[3000];
    memset(comment, 'c', sizeof comment - 1);
    comment[0] = ';';
    comment[sizeof comment - 1] = '\0';
    accel_runtime *rt = NULL;
    tu_log_capture();
    tu_ok(tu_open_ini(tu_fmt("%s\n[runtime]\norder = cpu\n[backend.cpu]\nlibrary = %s   ; the cpu\n"
                             "note = %s\n",
                             comment, lib, comment + 1000),
                      &rt, NULL));
    cr_assert_str_eq(default_device_name(rt), "cpu:0");
    accel_runtime_close(rt);

    char longer[4200];
    memset(longer, 'x', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    expect_config_error(tu_fmt("[runtime]\norder = cpu\nnote = %s\n%s", longer, cpu_section()), 3,
                        "longer than 4096 characters");
}

Test(config, binary_garbage_warns_a_few_times_escaped)
{
    /* Many warnings (keys outside any section), with a terminal escape. */
    char text[4000] = "";
    size_t at = 0;
    for (int i = 0; i < 40; i++)
        at += (size_t)snprintf(text + at, sizeof text - at, "\x1b[31mkey%d\x07 = \x9b%d\n", i, i);
    const char *path = write_bytes(text, at);
    tu_log_capture();
    accel_runtime *rt = NULL;
    accel_status s = accel_runtime_open(path, &rt);
    cr_assert(s != ACCEL_SUCCESS);
    const char *log = tu_log_text();
    int warnings = 0;
    for (const char *p = log; (p = strstr(p, "outside any section")); p++)
        warnings++;
    cr_assert_eq(warnings, 5, "%d warnings logged:\n%s", warnings, log);
    cr_assert(strstr(log, "and 35 more"), "no count of the rest:\n%s", log);
    cr_assert(strstr(log, "\\x1B[31mkey0\\x07"), "not escaped:\n%s", log);
    for (const char *p = log; *p; p++)
        cr_assert(*p == '\n' || (unsigned char)*p >= 0x20, "raw control byte 0x%02x in the log",
                  (unsigned char)*p);
}

Test(config, garbage_accel_verify_reads_cleanly)
{
    setenv("ACCEL_VERIFY", "garbage", 1);
    accel_runtime *rt = NULL;
    accel_status s = tu_open_ini(tu_fmt("[runtime]\norder = cpu\n%s", cpu_section()), &rt, NULL);
    unsetenv("ACCEL_VERIFY");
    tu_assert_status(s, ACCEL_ERROR_CONFIG, "ACCEL_VERIFY=garbage");
    const char *msg = accel_last_error();
    cr_assert(strstr(msg, "ACCEL_VERIFY=garbage names no loaded device"), "%s", msg);
    const char *first = strstr(msg, "accel_runtime_open");
    cr_assert(first && !strstr(first + 1, "accel_runtime_open"), "doubled message: %s", msg);
    cr_assert(!strstr(msg, "(:0)"), "garbled message: %s", msg);
}

/* ------------------------------------------------------------ the settings pass */

/* ACCEL_TEST_OPENED_LOG: the mock plugin appends "opened" there when it is
 * loaded (tests/plugins/mock_plugin.c). */
static const char *opened_log(void)
{
    const char *path = tu_fmt("%s/opened.log", tu_tmpdir());
    setenv("ACCEL_TEST_OPENED_LOG", path, 1);
    return path;
}

static bool plugin_was_opened(const char *log)
{
    FILE *f = fopen(log, "r");
    char line[32] = "";
    bool opened = f && fgets(line, sizeof line, f) && strcmp(line, "opened\n") == 0;
    if (f)
        fclose(f);
    return opened;
}

static const char *mock_ini(const char *runtime_extra)
{
    return tu_fmt("[runtime]\norder = mock, cpu\n%s[backend.mock]\nlibrary = %s\n%s", runtime_extra,
                  TU_TEST_PLUGIN("mock"), cpu_section());
}

Test(config, bad_policy_values_fail_before_any_plugin_is_opened)
{
    const char *log = opened_log();
    const char *bad[] = {"on_mismatch = sometimes\n",
                         "verify_sample = 2\n",
                         "selftest = maybe\n",
                         "verify_guard = -1\n",
                         "on_error = retry\n",
                         "report = perhaps\n",
                         "verify = tpu\n",
                         "fallback = gpu:x\n",
                         "strict = \n"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *dir = tu_tmpdir();
        const char *path = tu_write_file(dir, "plugins.ini", mock_ini(bad[i]));
        setenv("ACCEL_CONFIG", path, 1);
        accel_runtime *rt = NULL;
        accel_status s = accel_runtime_open(NULL, &rt);
        unsetenv("ACCEL_CONFIG");
        tu_assert_status(s, ACCEL_ERROR_CONFIG, "%s", bad[i]);
        cr_assert_null(rt);
        const char *key = tu_fmt("%.*s", (int)strcspn(bad[i], " "), bad[i]);
        cr_assert(strstr(accel_last_error(), tu_fmt("%s:3: %s", tu_realpath(path), key)),
                  "%s: the message lacks file:3: %s: %s", bad[i], key, accel_last_error());
        cr_assert(!plugin_was_opened(log), "%s: a plugin was opened before the bad value was found",
                  bad[i]);
    }
    /* The same file with good values opens the mock: the log can tell. */
    accel_runtime *rt = NULL;
    tu_ok(tu_open_ini(mock_ini("on_mismatch = fail\nverify_sample = 0.5\nselftest = no\n"), &rt,
                      NULL));
    accel_runtime_close(rt);
    cr_assert(plugin_was_opened(log), "the mock did not record being opened");
    unsetenv("ACCEL_TEST_OPENED_LOG");
}

Test(config, bad_environment_values_fail_before_any_plugin_is_opened)
{
    const char *log = opened_log();
    const char *vars[][2] = {{"ACCEL_REPORT", "banana"},
                             {"ACCEL_VERIFY", "cpu:zero"},
                             {"ACCEL_ALLOW_INSECURE", "perhaps"},
                             {"ACCEL_VERIFY", "tpu"}};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        setenv(vars[i][0], vars[i][1], 1);
        accel_runtime *rt = NULL;
        accel_status s = tu_open_ini(mock_ini(""), &rt, NULL);
        unsetenv(vars[i][0]);
        tu_assert_status(s, ACCEL_ERROR_CONFIG, "%s=%s", vars[i][0], vars[i][1]);
        cr_assert(strstr(accel_last_error(), tu_fmt("%s=%s", vars[i][0], vars[i][1])), "%s",
                  accel_last_error());
        cr_assert(!plugin_was_opened(log), "%s=%s: a plugin was opened", vars[i][0], vars[i][1]);
    }
    unsetenv("ACCEL_TEST_OPENED_LOG");
}

/* Every boolean ACCEL_* variable takes the one set of words (any case) and
 * refuses another, naming the variable, its value and the words. */
Test(config, boolean_environment_variables_share_one_reading)
{
    static const char *const vars[] = {"ACCEL_REPORT", "ACCEL_ALLOW_INSECURE"};
    /* The first 8 are booleans, the last 4 are not. */
    static const char *const words[] = {"1",  "TRUE", "Yes",   "on", "0", "False",
                                        "NO", "Off",  "maybe", "2",  "y", "enable"};
    const char *ini = tu_write_file(tu_tmpdir(), "plugins.ini", mock_ini(""));
    for (size_t v = 0; v < 2; v++) {
        for (size_t k = 0; k < 12; k++) {
            bool good = k < 8;
            setenv(vars[v], words[k], 1);
            accel_runtime *rt = NULL;
            accel_status s = accel_runtime_open(ini, &rt);
            unsetenv(vars[v]);
            tu_assert_status(s, good ? ACCEL_SUCCESS : ACCEL_ERROR_CONFIG, "%s=%s", vars[v],
                             words[k]);
            if (good) {
                accel_runtime_close(rt);
                continue;
            }
            const char *want = tu_fmt("%s=%s: expected a boolean: 1, true, yes, on, 0, false, "
                                      "no or off, in any case",
                                      vars[v], words[k]);
            cr_assert(strstr(accel_last_error(), want), "%s\nwanted: %s", accel_last_error(), want);
        }
    }
}

/* Ops checked by verify mode after one fill on the mock (the CPU is the
 * reference when verify is on). */
static uint64_t checked_after_one_fill(accel_runtime *rt)
{
    accel_device *mock;
    tu_ok(accel_device_get_by_name(rt, "mock", &mock));
    accel_queue *q;
    tu_ok(accel_queue_create(mock, &q));
    tu_dbuf b = tu_upload(q, ACCEL_F32, NULL, 16);
    tu_ok(accel_fill(q, ACCEL_F32, 3.0, tu_slice(&b)));
    tu_ok(accel_queue_finish(q));
    tu_release(&b);
    accel_queue_release(q);
    accel_verify_stats st;
    memset(&st, 0, sizeof st);
    st.struct_size = sizeof st;
    tu_ok(accel_verify_stats_get(rt, &st));
    return st.checked;
}

Test(config, argument_over_environment_over_file)
{
    accel_runtime *rt;
    /* the file alone */
    tu_ok(tu_open_ini(mock_ini("verify = cpu\n"), &rt, NULL));
    cr_assert_eq(checked_after_one_fill(rt), 1, "verify = cpu did not check the fill");
    accel_runtime_close(rt);
    /* the environment over the file, both ways */
    setenv("ACCEL_VERIFY", "off", 1);
    tu_ok(tu_open_ini(mock_ini("verify = cpu\n"), &rt, NULL));
    cr_assert_eq(checked_after_one_fill(rt), 0, "ACCEL_VERIFY=off did not win over verify = cpu");
    accel_runtime_close(rt);
    setenv("ACCEL_VERIFY", "cpu", 1);
    tu_ok(tu_open_ini(mock_ini("verify = off\n"), &rt, NULL));
    cr_assert_eq(checked_after_one_fill(rt), 1, "ACCEL_VERIFY=cpu did not win over verify = off");
    /* the argument (accel_verify_configure) over the environment */
    accel_verify_options o;
    accel_verify_options_init(&o);
    o.reference = NULL;
    tu_ok(accel_verify_configure(rt, &o));
    cr_assert_eq(checked_after_one_fill(rt), 1,
                 "verify still on after accel_verify_configure(off)");
    accel_runtime_close(rt);
    unsetenv("ACCEL_VERIFY");
    /* an empty variable counts as unset */
    setenv("ACCEL_VERIFY", "", 1);
    tu_ok(tu_open_ini(mock_ini("verify = cpu\n"), &rt, NULL));
    cr_assert_eq(checked_after_one_fill(rt), 1, "ACCEL_VERIFY= (empty) turned verify off");
    accel_runtime_close(rt);
    unsetenv("ACCEL_VERIFY");
}

Test(config, indented_lines_are_lines_of_their_own)
{
    /* An indented key is a key, not the continuation of the previous value. */
    accel_runtime *rt;
    tu_ok(tu_open_ini(tu_fmt("[runtime]\n  order = mock\n[backend.mock]\n    library = %s\n"
                             "\tdevices = 3\n",
                             TU_TEST_PLUGIN("mock")),
                      &rt, NULL));
    cr_assert_eq(accel_device_count(rt), 3, "devices = 3 (indented) did not reach the plugin");
    accel_runtime_close(rt);
    /* A would-be continuation is an error on its own line that says so. */
    expect_config_error(tu_fmt("[runtime]\norder = mock\n    cpu\n[backend.mock]\nlibrary = %s\n%s",
                               TU_TEST_PLUGIN("mock"), cpu_section()),
                        3, "not the continuation of the previous value");
}

Test(config, names_are_limited_to_128_characters_on_every_line)
{
    char name[130];
    memset(name, 'k', sizeof name);
    name[128] = '\0';
    /* 128 characters: a name (an unknown key, warned about), short line or long. */
    tu_log_capture();
    accel_runtime *rt;
    char value[300];
    memset(value, 'v', sizeof value - 1);
    value[sizeof value - 1] = '\0';
    tu_ok(tu_open_ini(tu_fmt("[runtime]\n%s = 1\n%s = %s\n%s", name, name, value, cpu_section()),
                      &rt, NULL));
    cr_assert(tu_log_contains(ACCEL_LOG_WARN, name), "%s", tu_log_text());
    accel_runtime_close(rt);
    /* A backend name of 31 characters keeps its keys and names its device;
     * 32 is an error, since accel_device_get_by_name takes no longer NAME. */
    char backend[50];
    memset(backend, 'b', 49);
    backend[31] = '\0';
    tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = %s\n[backend.%s]\nlibrary = %s\n", backend,
                             backend, TU_CPU_PLUGIN),
                      &rt, NULL));
    cr_assert(tu_backend_info(rt, backend).loaded, "%s", tu_backend_info(rt, backend).reason);
    accel_device *dev;
    tu_ok(accel_device_get_by_name(rt, tu_fmt("%s:0", backend), &dev));
    cr_assert_str_eq(accel_device_name(dev), tu_fmt("%s:0", backend));
    accel_runtime_close(rt);
    backend[31] = 'b';
    backend[32] = '\0';
    expect_config_error(tu_fmt("[backend.%s]\nlibrary = %s\n", backend, TU_CPU_PLUGIN), 1,
                        "must be 1 to 31 letters");
    /* a 120-character section name that is not a backend: warned, kept */
    char other[121];
    memset(other, 'o', 120);
    other[120] = '\0';
    tu_log_capture();
    tu_ok(tu_open_ini(tu_fmt("[%s]\nx = 1\n%s", other, cpu_section()), &rt, NULL));
    cr_assert(tu_log_contains(ACCEL_LOG_WARN, tu_fmt("unknown section [%s]", other)), "%s",
              tu_log_text());
    accel_runtime_close(rt);
    /* 129: an error on a short line and on a long one, for keys and sections. */
    name[128] = 'k';
    name[129] = '\0';
    expect_config_error(tu_fmt("[runtime]\n%s = 1\n%s", name, cpu_section()), 2,
                        "key name longer than 128 characters");
    expect_config_error(tu_fmt("[runtime]\n%s = %s\n%s", name, value, cpu_section()), 2,
                        "key name longer than 128 characters");
    expect_config_error(tu_fmt("%s[%s]\n", cpu_section(), name), 3,
                        "section name longer than 128 characters");
    expect_config_error(tu_fmt("%s[%s]   ; %s\n", cpu_section(), name, value), 3,
                        "section name longer than 128 characters");
}

Test(config, bom_crlf_and_empty_values)
{
    /* A UTF-8 byte-order mark and CRLF line ends are read as plain text;
     * verify = (empty) is off, fallback = (empty) is none. */
    const char *text = tu_fmt("\xEF\xBB\xBF[runtime]\r\norder = mock, cpu\r\nverify =\r\n"
                              "fallback =\r\n[backend.mock]\r\nlibrary = %s\r\n"
                              "[backend.cpu]\r\nlibrary = %s\r\n",
                              TU_TEST_PLUGIN("mock"), TU_CPU_PLUGIN);
    accel_runtime *rt;
    tu_ok(tu_open_ini(text, &rt, NULL));
    cr_assert_str_eq(default_device_name(rt), "mock:0");
    cr_assert_eq(checked_after_one_fill(rt), 0, "verify = (empty) is not off");
    /* fallback none: an op the mock lacks fails instead of running on the CPU */
    accel_device *mock;
    tu_ok(accel_device_get_by_name(rt, "mock", &mock));
    accel_queue *q;
    tu_ok(accel_queue_create(mock, &q));
    tu_dbuf b = tu_upload(q, ACCEL_F32, NULL, 4);
    tu_assert_status(accel_exp(q, ACCEL_F32, tu_slice(&b), tu_slice(&b)), ACCEL_ERROR_UNSUPPORTED,
                     "exp on the mock with fallback = (empty)");
    tu_release(&b);
    accel_queue_release(q);
    accel_runtime_close(rt);
    /* an empty boolean is an error */
    expect_config_error(tu_fmt("[runtime]\nreport =\n%s", cpu_section()), 2, "report");
}

Test(config, repeated_keys_the_later_wins_with_a_warning)
{
    tu_log_capture();
    accel_runtime *rt;
    tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = cpu\norder = mock\n[backend.mock]\nlibrary = %s\n"
                             "devices = 1\ndevices = 2\n%s",
                             TU_TEST_PLUGIN("mock"), cpu_section()),
                      &rt, NULL));
    cr_assert_str_eq(default_device_name(rt), "mock:0");
    accel_device *d;
    tu_ok(accel_device_get(rt, 1, &d));
    cr_assert_str_eq(accel_device_name(d), "mock:1", "devices = 2 (the later) did not win");
    cr_assert(tu_log_contains(ACCEL_LOG_WARN, "order repeated; the later value wins"), "%s",
              tu_log_text());
    cr_assert(tu_log_contains(ACCEL_LOG_WARN, "devices repeated; the later value wins"), "%s",
              tu_log_text());
    accel_runtime_close(rt);
}

/* Files that never end or never open: refused at once, never read. */
Test(config, devices_fifos_and_huge_files_are_refused_without_blocking, .timeout = 20)
{
    const char *devs[] = {"/dev/zero", "/dev/urandom", "/dev/null"};
    for (size_t i = 0; i < sizeof devs / sizeof *devs; i++) {
        setenv("ACCEL_CONFIG", devs[i], 1);
        accel_runtime *rt = NULL;
        accel_status s = accel_runtime_open(NULL, &rt);
        unsetenv("ACCEL_CONFIG");
        tu_assert_status(s, ACCEL_ERROR_CONFIG, "ACCEL_CONFIG=%s", devs[i]);
        cr_assert(strstr(accel_last_error(), "character device, not a regular file") &&
                      strstr(accel_last_error(), "ACCEL_CONFIG"),
                  "%s", accel_last_error());
    }
    const char *fifo = tu_fmt("%s/plugins.ini", tu_tmpdir());
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    accel_runtime *rt = NULL;
    tu_assert_status(accel_runtime_open(fifo, &rt), ACCEL_ERROR_CONFIG, "a FIFO as the config");
    cr_assert(strstr(accel_last_error(), "is a FIFO, not a regular file"), "%s",
              accel_last_error());
    /* Over 1 MiB: refused by size; a regular file, just too large. */
    const char *big = tu_fmt("%s/plugins.ini", tu_tmpdir());
    FILE *f = fopen(big, "w");
    cr_assert(f);
    for (int i = 0; i < 20000; i++)
        fprintf(f, "; %070d\n", i);
    fclose(f);
    tu_assert_status(accel_runtime_open(big, &rt), ACCEL_ERROR_CONFIG, "a 1.5 MB config");
    cr_assert(strstr(accel_last_error(), "1460000 bytes, more than the 1048576"), "%s",
              accel_last_error());
}

Test(config, every_boolean_key_refuses_a_non_boolean_with_its_line)
{
    const char *keys[] = {"strict", "allow_insecure", "selftest", "report"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; ++i)
        expect_config_error(
            tu_fmt("[runtime]\norder = cpu\n%s = maybe\n%s", keys[i], cpu_section()), 3,
            tu_fmt("%s = maybe: is not a boolean", keys[i]));
}

/* kernel_cache's folder as the runtime reports it (accel_kernel_cache_stats). */
static accel_kernel_cache_stats cache_of(const char *dir, const char *value)
{
    const char *path = tu_write_file(
        dir, "plugins.ini",
        tu_fmt("[runtime]\norder = cpu\nkernel_cache = %s\n%s", value, cpu_section()));
    accel_runtime *rt = NULL;
    tu_ok(accel_runtime_open(path, &rt));
    accel_kernel_cache_stats ks;
    memset(&ks, 0, sizeof ks);
    ks.struct_size = sizeof ks;
    tu_ok(accel_kernel_cache_stats_get(rt, &ks));
    accel_runtime_close(rt);
    return ks;
}

Test(config, kernel_cache_relative_to_the_ini_folder_absolute_or_off)
{
    unsetenv("ACCEL_KERNEL_CACHE");
    const char *dir = tu_realpath(tu_tmpdir()), *other = tu_realpath(tu_tmpdir());
    cr_assert_eq(chdir("/"), 0); /* the current directory plays no part */
    accel_kernel_cache_stats ks = cache_of(dir, "sub/cache");
    cr_assert(ks.disk_enabled, "%s", ks.disabled_reason);
    cr_assert_str_eq(ks.dir, tu_fmt("%s/sub/cache", dir));
    ks = cache_of(dir, tu_fmt("%s/abs", other));
    cr_assert(ks.disk_enabled, "%s", ks.disabled_reason);
    cr_assert_str_eq(ks.dir, tu_fmt("%s/abs", other));
    ks = cache_of(dir, "off");
    cr_assert(!ks.disk_enabled, "kernel_cache = off keeps a disk cache in %s", ks.dir);
}
