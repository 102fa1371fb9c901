/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_loader.c — core/base/loader.c: every way a candidate can be rejected (file
 * missing, not a shared object, no entry symbol, entry returning NULL, wrong
 * ABI version, struct too small, init failure, no devices) is recorded in
 * accel_runtime_backend_info with its status and a reason, and the CPU
 * backend configured beside them still loads and computes correctly. */
#define _XOPEN_SOURCE 700
#include <criterion/criterion.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_util.h"

/* Must match INIT_FAIL_MESSAGE in plugins/broken_plugins.c. */
#define INIT_FAIL_MESSAGE "broken_init: the frobnicator driver is missing (test plugin)"

static const char *g_dir;

static accel_runtime *open_all(void)
{
    g_dir = tu_tmpdir();
    tu_write_file(g_dir, "garbage.so",
                  "This is a text file with a .so name. The loader must reject it through\n"
                  "dlopen and keep dlerror()'s text as the reason, and go on.\n");
    const char *ini =
        tu_fmt("[runtime]\n"
               "order = missing, garbage, notplugin, nullentry, wrongabi, smallstruct, initfail, "
               "zerodev, cpu\n"
               "[backend.missing]\nlibrary = %s/no-such-plugin.so\n"
               "[backend.garbage]\nlibrary = garbage.so\n"
               "[backend.notplugin]\nlibrary = %s\n"
               "[backend.nullentry]\nlibrary = %s\n"
               "[backend.wrongabi]\nlibrary = %s\n"
               "[backend.smallstruct]\nlibrary = %s\n"
               "[backend.initfail]\nlibrary = %s\n"
               "[backend.zerodev]\nlibrary = %s\n"
               "[backend.cpu]\nlibrary = %s\n",
               g_dir, TU_TEST_PLUGIN("not_a_plugin"), TU_TEST_PLUGIN("null_entry"),
               TU_TEST_PLUGIN("wrong_abi"), TU_TEST_PLUGIN("small_struct"),
               TU_TEST_PLUGIN("init_fail"), TU_TEST_PLUGIN("zero_devices"), TU_CPU_PLUGIN);
    tu_write_file(g_dir, "plugins.ini", ini);
    accel_runtime *rt = NULL;
    accel_status s = accel_runtime_open(tu_fmt("%s/plugins.ini", g_dir), &rt);
    cr_assert(s == ACCEL_SUCCESS, "open with broken candidates beside cpu: %s: %s",
              accel_status_name(s), accel_last_error());
    cr_assert_eq(accel_runtime_backend_count(rt), 9u);
    return rt;
}

static accel_backend_info rejected(accel_runtime *rt, const char *name)
{
    accel_backend_info info = tu_backend_info(rt, name);
    cr_assert(!info.loaded, "%s loaded", name);
    cr_assert(info.status != ACCEL_SUCCESS, "%s: rejected with status SUCCESS", name);
    cr_assert(info.reason && info.reason[0], "%s: empty reason", name);
    cr_assert_eq(info.device_count, 0u, "%s: rejected but has devices", name);
    cr_assert(info.path && info.path[0] == '/', "%s: path not absolute: %s", name, info.path);
    return info;
}

static void expect_reason(const accel_backend_info *info, const char *needle)
{
    cr_assert(strstr(info->reason, needle) != NULL, "%s: reason \"%s\" lacks \"%s\"", info->name,
              info->reason, needle);
}

Test(loader, missing_file_is_recorded_with_its_path)
{
    accel_runtime *rt = open_all();
    accel_backend_info info = rejected(rt, "missing");
    /* accel.h does not fix the status of a missing file; NOT_FOUND is what
     * its list of codes means ("no such ... file"), PLUGIN_LOAD the generic. */
    cr_assert(info.status == ACCEL_ERROR_NOT_FOUND || info.status == ACCEL_ERROR_PLUGIN_LOAD,
              "status %s", accel_status_name(info.status));
    cr_assert(strstr(info.path, "no-such-plugin.so") != NULL, "path %s", info.path);
    expect_reason(&info, "no-such-plugin.so");
    accel_runtime_close(rt);
}

Test(loader, non_elf_file_keeps_dlerror_text)
{
    accel_runtime *rt = open_all();
    accel_backend_info info = rejected(rt, "garbage");
    cr_assert_eq(info.status, ACCEL_ERROR_PLUGIN_LOAD, "status %s", accel_status_name(info.status));
    /* glibc's dlerror(): "NAME: invalid ELF header", NAME the path the
     * plugins.ini entry gave, not the descriptor it was loaded through. */
    expect_reason(&info, "ELF");
    expect_reason(&info, tu_fmt("%s/garbage.so: invalid ELF header", g_dir));
    cr_assert(!strstr(info.reason, "/proc/self/fd"), "reason names the descriptor: %s",
              info.reason);
    cr_assert_str_eq(info.path, tu_fmt("%s/garbage.so", tu_realpath(g_dir)));
    accel_runtime_close(rt);
}

Test(loader, library_without_entry_symbol_is_not_a_plugin)
{
    accel_runtime *rt = open_all();
    accel_backend_info info = rejected(rt, "notplugin");
    cr_assert_eq(info.status, ACCEL_ERROR_PLUGIN_LOAD, "status %s", accel_status_name(info.status));
    expect_reason(&info, "accel_backend_entry");
    cr_assert_eq(info.abi_version, 0u);
    accel_runtime_close(rt);
}

Test(loader, entry_returning_null_is_rejected)
{
    accel_runtime *rt = open_all();
    accel_backend_info info = rejected(rt, "nullentry");
    cr_assert_eq(info.status, ACCEL_ERROR_PLUGIN_LOAD, "status %s", accel_status_name(info.status));
    accel_runtime_close(rt);
}

Test(loader, wrong_abi_version_names_both_numbers)
{
    accel_runtime *rt = open_all();
    accel_backend_info info = rejected(rt, "wrongabi");
    cr_assert_eq(info.status, ACCEL_ERROR_INCOMPATIBLE_ABI, "status %s",
                 accel_status_name(info.status));
    cr_assert_eq(info.abi_version, 999u);
    expect_reason(&info, "999");
    expect_reason(&info, tu_fmt("%u", ACCEL_BACKEND_ABI_VERSION));
    accel_runtime_close(rt);
}

Test(loader, struct_smaller_than_the_abi_is_rejected)
{
    accel_runtime *rt = open_all();
    accel_backend_info info = rejected(rt, "smallstruct");
    cr_assert_eq(info.status, ACCEL_ERROR_INCOMPATIBLE_ABI, "status %s",
                 accel_status_name(info.status));
    accel_runtime_close(rt);
}

Test(loader, init_failure_keeps_the_plugins_message)
{
    accel_runtime *rt = open_all();
    accel_backend_info info = rejected(rt, "initfail");
    cr_assert_eq(info.status, ACCEL_ERROR_UNAVAILABLE, "status %s", accel_status_name(info.status));
    expect_reason(&info, INIT_FAIL_MESSAGE);
    cr_assert_eq(info.abi_version, ACCEL_BACKEND_ABI_VERSION);
    accel_runtime_close(rt);
}

Test(loader, zero_devices_is_recorded_as_unavailable)
{
    accel_runtime *rt = open_all();
    accel_backend_info info = rejected(rt, "zerodev");
    cr_assert_eq(info.status, ACCEL_ERROR_UNAVAILABLE, "status %s", accel_status_name(info.status));
    accel_runtime_close(rt);
}

Test(loader, failures_do_not_leave_devices_or_change_the_default)
{
    accel_runtime *rt = open_all();
    accel_backend_info cpu = tu_backend_info(rt, "cpu");
    cr_assert(cpu.loaded, "cpu: %s", cpu.reason);
    cr_assert_str_eq(cpu.reason, "");
    cr_assert(cpu.description && cpu.description[0]);
    cr_assert_eq(accel_device_count(rt), cpu.device_count);
    accel_device *dev;
    tu_ok(accel_device_default(rt, &dev));
    cr_assert_str_eq(accel_device_name(dev), "cpu:0");
    accel_runtime_close(rt);
}

/* The CPU backend next to eight rejected candidates computes correctly. */
Test(loader, cpu_backend_runs_an_op_beside_rejected_candidates)
{
    accel_runtime *rt = open_all();
    accel_device *dev;
    tu_ok(accel_device_get_by_name(rt, "cpu", &dev));
    accel_queue *q;
    tu_ok(accel_queue_create(dev, &q));
    enum { N = 1009 };
    double a[N], b[N], got[N];
    tu_rng r = tu_rng_make(7);
    for (int i = 0; i < N; ++i) {
        a[i] = tu_round(ACCEL_F32, tu_rng_range(&r, -100, 100));
        b[i] = tu_round(ACCEL_F32, tu_rng_range(&r, -100, 100));
    }
    tu_dbuf da = tu_upload(q, ACCEL_F32, a, N), db = tu_upload(q, ACCEL_F32, b, N);
    tu_dbuf dc = tu_upload(q, ACCEL_F32, NULL, N);
    tu_ok(accel_mul(q, ACCEL_F32, tu_slice(&da), tu_slice(&db), tu_slice(&dc)));
    tu_download(q, &dc, got);
    for (int i = 0; i < N; ++i)
        cr_assert(got[i] == (double)(float)(a[i] * b[i]), "i=%d: %.9g * %.9g gave %.9g", i, a[i],
                  b[i], got[i]);
    tu_check_guards(q, &dc, "accel_mul out");
    tu_release(&da), tu_release(&db), tu_release(&dc);
    accel_queue_release(q);
    accel_runtime_close(rt);
}

Test(loader, backend_info_out_of_range_and_null_runtime)
{
    accel_runtime *rt = open_all();
    accel_backend_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    tu_assert_status(accel_runtime_backend_info(rt, 9, &info), ACCEL_ERROR_OUT_OF_RANGE,
                     "index 9 of 9");
    tu_assert_status(accel_runtime_backend_info(NULL, 0, &info), ACCEL_ERROR_INVALID_HANDLE,
                     "NULL runtime");
    accel_runtime_close(rt);
}

/* Mock backend keys reach the plugin through host services. */
Test(loader, plugin_reads_its_own_section_keys)
{
    accel_runtime *rt;
    tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = mock\n[backend.mock]\nlibrary = %s\n"
                             "device_name = Configured Mock 7\n",
                             TU_TEST_PLUGIN("mock")),
                      &rt, NULL));
    accel_device *dev;
    tu_ok(accel_device_get_by_name(rt, "mock", &dev));
    accel_device_properties p;
    accel_device_properties_init(&p);
    tu_ok(accel_device_properties_get(dev, &p));
    cr_assert_str_eq(p.name, "Configured Mock 7");
    cr_assert_str_eq(p.backend, "mock");
    accel_runtime_close(rt);
}

/* Unloading a backend whose threads did work (OpenMP/OpenBLAS pools in the
 * CPU backend) must not leave threads running in unmapped code: open, run an
 * op large enough to use every thread, close, and keep the process alive a
 * little, many times over. A crash here is a SIGSEGV in a thread that exits
 * after dlclose unmapped its library. */
Test(loader, close_after_threaded_work_unloads_cleanly)
{
    enum { N = 1 << 17, CYCLES = 30 };
    float *h = malloc(N * sizeof *h);
    cr_assert(h);
    for (int i = 0; i < N; ++i)
        h[i] = (float)(i % 1000) + 1.0f;
    for (int cycle = 0; cycle < CYCLES; ++cycle) {
        accel_runtime *rt = tu_open_default();
        accel_device *dev;
        tu_ok(accel_device_get_by_name(rt, "cpu", &dev));
        accel_queue *q;
        tu_ok(accel_queue_create(dev, &q));
        accel_buffer *a, *o;
        tu_ok(accel_buffer_create(dev, N * sizeof *h, &a));
        tu_ok(accel_buffer_create(dev, N * sizeof *h, &o));
        tu_ok(accel_queue_write_blocking(q, a, 0, h, N * sizeof *h));
        tu_ok(accel_div(q, ACCEL_F32, accel_slice_of(a, 0, N), accel_slice_of(a, 0, N),
                        accel_slice_of(o, 0, N)));
        float first = 0;
        tu_ok(accel_queue_read_blocking(q, o, 0, &first, sizeof first));
        cr_assert(first == 1.0f);
        accel_runtime_close(rt);
        struct timespec nap = {0, 10 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    free(h);
}

/* ------------------------------------------------------------ ABI versions */

/* Fill n elements with v on dev and read them back through a copy. */
static void fill_copy_read(accel_runtime *rt, const char *device, double v, size_t n)
{
    accel_device *dev;
    tu_ok(accel_device_get_by_name(rt, device, &dev));
    accel_queue *q;
    tu_ok(accel_queue_create(dev, &q));
    tu_dbuf a = tu_upload(q, ACCEL_F32, NULL, n), b = tu_upload(q, ACCEL_F32, NULL, n);
    tu_ok(accel_fill(q, ACCEL_F32, v, tu_slice(&a)));
    tu_ok(accel_copy(q, ACCEL_F32, tu_slice(&a), tu_slice(&b)));
    double got[64];
    cr_assert(n <= 64);
    tu_download(q, &b, got);
    for (size_t i = 0; i < n; i++)
        cr_assert(got[i] == v, "%s: element %zu is %g, expected %g", device, i, got[i], v);
    tu_check_guards(q, &b, device);
    tu_release(&a);
    tu_release(&b);
    accel_queue_release(q);
}

Test(loader, abi1_and_abi2_plugins_load_side_by_side)
{
    tu_log_capture();
    accel_runtime *rt;
    tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = old, mock, cpu\nfallback = none\n"
                             "[backend.old]\nlibrary = %s\ndevice_name = Old Mock\n"
                             "[backend.mock]\nlibrary = %s\n[backend.cpu]\nlibrary = %s\n",
                             TU_TEST_PLUGIN("abi1"), TU_TEST_PLUGIN("mock"), TU_CPU_PLUGIN),
                      &rt, NULL));
    accel_backend_info old = tu_backend_info(rt, "old"), mock = tu_backend_info(rt, "mock");
    cr_assert(old.loaded, "the ABI 1 plugin: %s", old.reason);
    cr_assert(mock.loaded, "the ABI 2 plugin: %s", mock.reason);
    cr_assert_eq(old.abi_version, 1u);
    cr_assert_eq(mock.abi_version, 2u);
    /* Both compute; config_get reached the ABI 1 plugin. */
    fill_copy_read(rt, "old", 2.5, 40);
    fill_copy_read(rt, "mock", -7.25, 40);
    accel_device *d;
    tu_ok(accel_device_get_by_name(rt, "old", &d));
    accel_device_properties p;
    accel_device_properties_init(&p);
    tu_ok(accel_device_properties_get(d, &p));
    cr_assert_str_eq(p.name, "Old Mock");
    /* Each one's log lines carry its own name, and set_error reaches the
     * caller from both. */
    cr_assert(tu_log_contains(ACCEL_LOG_INFO, "old: mock ready (ABI 1)"), "%s", tu_log_text());
    cr_assert(tu_log_contains(ACCEL_LOG_INFO, "mock: mock ready (ABI 2)"), "%s", tu_log_text());
    const char *names[] = {"old", "mock"};
    for (int i = 0; i < 2; i++) {
        tu_ok(accel_device_get_by_name(rt, names[i], &d));
        accel_queue *q;
        tu_ok(accel_queue_create(d, &q));
        tu_dbuf a = tu_upload(q, ACCEL_F32, NULL, 4);
        /* the mock's simulated device fault, reported at the next finish */
        tu_ok(accel_fill(q, ACCEL_F32, TU_MOCK_FAULT_VALUE, tu_slice(&a)));
        tu_assert_status(accel_queue_finish(q), ACCEL_ERROR_DEVICE, "finish on %s", names[i]);
        cr_assert(strstr(accel_last_error(), "mock device fault (injected"), "%s: %s", names[i],
                  accel_last_error());
        tu_release(&a);
        accel_queue_release(q);
    }
    accel_runtime_close(rt);
}

/* The host services' cache entries (appended to accel_host_services): a
 * plugin's payload stored by one runtime comes back to the next one through
 * the kernel cache's folder; a key with a NULL field or too many fields
 * is refused; with the disk cache off every get misses and put says so. */
Test(loader, host_cache_entries_keep_a_plugins_payload_across_runtimes)
{
    unsetenv("ACCEL_KERNEL_CACHE"); /* it would override the ini's folder (and its "off") */
    const char *dir = tu_fmt("%s/cache", tu_tmpdir());
    const char *ini = "[runtime]\norder = mock\nselftest = false\nkernel_cache = %s\n"
                      "[backend.mock]\nlibrary = %s\ncache_probe = %s\n";
    const char *expect[] = {"mock: mock cache miss, put 0", "mock: mock cache hit: payload of w1"};
    for (int run = 0; run < 2; run++) {
        tu_log_capture();
        accel_runtime *rt;
        tu_ok(tu_open_ini(tu_fmt(ini, dir, TU_TEST_PLUGIN("mock"), "w1"), &rt, NULL));
        cr_assert(tu_log_contains(ACCEL_LOG_INFO, expect[run]), "run %d:\n%s", run, tu_log_text());
        cr_assert(tu_log_contains(ACCEL_LOG_INFO, tu_fmt("mock cache bad key %d, long key %d",
                                                         ACCEL_ERROR_INVALID_ARGUMENT,
                                                         ACCEL_ERROR_INVALID_ARGUMENT)),
                  "%s", tu_log_text());
        accel_runtime_close(rt);
    }
    /* another key (the probe's word) misses */
    tu_log_capture();
    accel_runtime *rt;
    tu_ok(tu_open_ini(tu_fmt(ini, dir, TU_TEST_PLUGIN("mock"), "w2"), &rt, NULL));
    cr_assert(tu_log_contains(ACCEL_LOG_INFO, "mock: mock cache miss, put 0"), "%s", tu_log_text());
    accel_runtime_close(rt);
    /* off: nothing is kept */
    for (int run = 0; run < 2; run++) {
        tu_log_capture();
        tu_ok(tu_open_ini(tu_fmt(ini, "off", TU_TEST_PLUGIN("mock"), "w3"), &rt, NULL));
        cr_assert(tu_log_contains(ACCEL_LOG_INFO,
                                  tu_fmt("mock: mock cache miss, put %d", ACCEL_ERROR_NOT_FOUND)),
                  "off, run %d:\n%s", run, tu_log_text());
        accel_runtime_close(rt);
    }
}

/* ABI 2's host_ctx names the backend: more backends than the 16 log slots
 * of ABI 1's days each log under their own name. */
Test(loader, every_backend_logs_under_its_own_name)
{
    enum { N = 20 };
    char ini[8192] = "[runtime]\nselftest = false\n";
    size_t at = strlen(ini);
    for (int i = 0; i < N; i++)
        at += (size_t)snprintf(ini + at, sizeof ini - at,
                               "[backend.m%d]\nlibrary = %s\ndevices = %d\n", i,
                               TU_TEST_PLUGIN("mock"), i % 3 + 1);
    tu_log_capture();
    accel_runtime *rt;
    tu_ok(tu_open_ini(ini, &rt, NULL));
    for (int i = 0; i < N; i++) {
        cr_assert(tu_backend_info(rt, tu_fmt("m%d", i)).loaded);
        cr_assert(tu_log_contains(ACCEL_LOG_INFO,
                                  tu_fmt("m%d: mock ready (ABI 2), %d device(s)", i, i % 3 + 1)),
                  "no log line of m%d:\n%s", i, tu_log_text());
    }
    cr_assert(!tu_log_contains(ACCEL_LOG_INFO, "plugin: mock ready"), "%s", tu_log_text());
    accel_runtime_close(rt);
}

/* ------------------------------------------------------------ struct_size */

/* accel_runtime_backend_info writes no byte past the caller's struct_size,
 * refuses one smaller than the first version of the struct, and zeroes the
 * fields of a newer, larger struct that this version lacks. */
Test(loader, backend_info_honours_struct_size_both_ways)
{
    accel_runtime *rt = tu_open_default();
    const size_t ours = sizeof(accel_backend_info);
    unsigned char buf[sizeof(accel_backend_info) + 64];
    accel_backend_info *bi = (accel_backend_info *)(void *)buf;
    /* too small: refused, nothing written past the struct_size field */
    uint32_t small[] = {0, 4, 16, (uint32_t)(offsetof(accel_backend_info, device_count))};
    for (size_t k = 0; k < sizeof small / sizeof *small; k++) {
        memset(buf, 0xAB, sizeof buf);
        bi->struct_size = small[k];
        tu_assert_status(accel_runtime_backend_info(rt, 0, bi), ACCEL_ERROR_INVALID_ARGUMENT,
                         "struct_size %u", small[k]);
        cr_assert(strstr(accel_last_error(), "struct_size"), "%s", accel_last_error());
        for (size_t i = sizeof(uint32_t); i < sizeof buf; i++)
            cr_assert_eq(buf[i], 0xAB, "struct_size %u: byte %zu written", small[k], i);
    }
    /* exactly ours: filled */
    memset(buf, 0xAB, sizeof buf);
    bi->struct_size = (uint32_t)ours;
    tu_ok(accel_runtime_backend_info(rt, 0, bi));
    cr_assert_eq(bi->struct_size, ours);
    cr_assert(bi->name && bi->path && bi->reason && (!bi->loaded || bi->device_count >= 1));
    for (size_t i = ours; i < sizeof buf; i++)
        cr_assert_eq(buf[i], 0xAB, "byte %zu past the struct written", i);
    accel_backend_info ref = tu_backend_info(rt, bi->name);
    cr_assert_str_eq(bi->path, ref.path);
    cr_assert_eq(bi->abi_version, ref.abi_version);
    /* larger (a newer caller): our fields, its extra 32 bytes zeroed, the
     * rest of its memory untouched, struct_size = what was filled */
    memset(buf, 0xAB, sizeof buf);
    bi->struct_size = (uint32_t)(ours + 32);
    tu_ok(accel_runtime_backend_info(rt, 0, bi));
    cr_assert_eq(bi->struct_size, ours, "struct_size must say how much was filled");
    cr_assert_str_eq(bi->path, ref.path);
    for (size_t i = ours; i < ours + 32; i++)
        cr_assert_eq(buf[i], 0, "byte %zu of the newer caller's fields not zeroed", i);
    for (size_t i = ours + 32; i < sizeof buf; i++)
        cr_assert_eq(buf[i], 0xAB, "byte %zu past the caller's struct_size written", i);
    accel_runtime_close(rt);
}
