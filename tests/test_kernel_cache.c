/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_kernel_cache.c — the kernel cache's folder and its loaded programs
 * (core/kernels/kernel_cache.c): the folder checked along its whole path and
 * held open (a folder swapped after the check gets no entries), symbolic
 * links to a trusted folder accepted, blank and over-long settings refused,
 * and one loaded program (one descriptor) per kernel source however many
 * kernel objects are made from it. The CPU backend with cc builds. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "accel/kernel.h"
#include "test_util.h"

static int count_entries(const char *dir, const char *suffix)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    size_t ls = strlen(suffix);
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        n += l > ls && strcmp(e->d_name + l - ls, suffix) == 0;
    }
    closedir(d);
    return n;
}

static int open_fds(void)
{
    return count_entries("/proc/self/fd", "") - 1; /* less the DIR's own */
}

/* Create kernel z = x * m + c (m, c literal), launch it on 8 elements,
 * check the result, release it. */
static void run_kernel(accel_runtime *rt, int m, int c)
{
    accel_device *dev;
    accel_queue *q;
    tu_ok(accel_device_get_by_name(rt, "cpu:0", &dev));
    tu_ok(accel_queue_create(dev, &q));
    accel_kernel *k = NULL;
    tu_ok(accel_kernel_elementwise_create(rt, "lin", "float64 x", "float64 z",
                                          tu_fmt("z = x * %d + %d", m, c), NULL, &k));
    double x[8], z[8];
    for (int i = 0; i < 8; i++)
        x[i] = i - 3;
    accel_buffer *bx, *bz;
    tu_ok(accel_buffer_create(dev, sizeof x, &bx));
    tu_ok(accel_buffer_create(dev, sizeof z, &bz));
    tu_ok(accel_queue_write(q, bx, 0, x, sizeof x));
    accel_kernel_arg args[] = {accel_karg_array(accel_slice_of(bx, 0, 8)),
                               accel_karg_array(accel_slice_of(bz, 0, 8))};
    tu_ok(accel_kernel_launch(q, k, 2, args));
    tu_ok(accel_queue_read_blocking(q, bz, 0, z, sizeof z));
    for (int i = 0; i < 8; i++)
        cr_assert_eq(z[i], x[i] * m + c, "z[%d] = %g", i, z[i]);
    accel_kernel_release(k);
    accel_buffer_release(bx), accel_buffer_release(bz);
    accel_queue_release(q);
}

static accel_kernel_cache_stats stats(accel_runtime *rt)
{
    accel_kernel_cache_stats s;
    memset(&s, 0, sizeof s);
    s.struct_size = sizeof s;
    tu_ok(accel_kernel_cache_stats_get(rt, &s));
    return s;
}

Test(kernel_cache, one_loaded_program_per_source_however_many_kernels)
{
    setenv("ACCEL_KERNEL_CACHE", tu_fmt("%s/cache", tu_tmpdir()), 1);
    accel_runtime *rt = tu_open_cpu_cc();
    run_kernel(rt, 2, 1); /* the first build, the queue's threads */
    int before = open_fds();
    for (int i = 0; i < 150; i++)
        run_kernel(rt, 2, 1);
    int after = open_fds();
    cr_assert(after - before <= 2, "150 kernels of one source took %d descriptors (%d -> %d)",
              after - before, before, after);
    accel_kernel_cache_stats s = stats(rt);
    cr_assert_eq(s.misses, 1);
    cr_assert_eq(s.memory_hits, 150);
    /* Another source is another program. */
    run_kernel(rt, 3, 1);
    cr_assert_eq(stats(rt).misses, 2);
    accel_runtime_close(rt);
}

/* The folder is held from the check: swapped for another one after it,
 * the new folder gets no entry (it is never opened). */
Test(kernel_cache, a_folder_swapped_after_the_check_is_not_used)
{
    const char *dir = tu_fmt("%s/cache", tu_tmpdir());
    const char *moved = tu_fmt("%s/cache.checked", tu_tmpdir());
    setenv("ACCEL_KERNEL_CACHE", dir, 1);
    accel_runtime *rt = tu_open_cpu_cc();
    run_kernel(rt, 5, 1);
    cr_assert_eq(count_entries(dir, ".akc"), 1);
    cr_assert_eq(rename(dir, moved), 0);
    cr_assert_eq(mkdir(dir, 0700), 0); /* the swapped-in folder */
    run_kernel(rt, 5, 2);
    cr_assert_eq(count_entries(dir, ".akc"), 0, "an entry went to the swapped-in folder");
    cr_assert_eq(count_entries(moved, ".akc"), 2);
    accel_runtime_close(rt);
}

/* A folder anywhere on the path that others may write (no sticky bit)
 * could have the cache folder swapped: refused, not only the parent. */
Test(kernel_cache, an_insecure_folder_higher_up_the_path_is_refused)
{
    const char *top = tu_fmt("%s/open", tu_tmpdir());
    cr_assert_eq(mkdir(top, 0700), 0);
    cr_assert_eq(chmod(top, 0777), 0);
    const char *mid = tu_fmt("%s/mine", top);
    cr_assert_eq(mkdir(mid, 0700), 0);
    const char *dir = tu_fmt("%s/cache", mid);
    setenv("ACCEL_KERNEL_CACHE", dir, 1);
    tu_log_capture();
    accel_runtime *rt = tu_open_cpu_cc();
    run_kernel(rt, 6, 1);
    accel_kernel_cache_stats s = stats(rt);
    cr_assert_eq(s.disk_enabled, 0);
    cr_assert(strstr(s.disabled_reason, "world-writable") &&
                  strstr(s.disabled_reason, "a folder on its path"),
              "%s", s.disabled_reason);
    cr_assert_eq(count_entries(dir, ".akc"), 0);
    accel_runtime_close(rt);
}

Test(kernel_cache, a_symbolic_link_to_a_trusted_folder_is_accepted)
{
    const char *real = tu_fmt("%s/real", tu_tmpdir());
    const char *link = tu_fmt("%s/link", tu_tmpdir());
    cr_assert_eq(mkdir(real, 0700), 0);
    cr_assert_eq(symlink(real, link), 0);
    setenv("ACCEL_KERNEL_CACHE", link, 1);
    accel_runtime *rt = tu_open_cpu_cc();
    run_kernel(rt, 7, 1);
    accel_kernel_cache_stats s = stats(rt);
    cr_assert_eq(s.disk_enabled, 1, "%s", s.disabled_reason);
    cr_assert_eq(count_entries(real, ".akc"), 1);
    accel_runtime_close(rt);
}

Test(kernel_cache, a_blank_setting_is_refused)
{
    const char *cwd = tu_tmpdir();
    char old[4096];
    cr_assert(getcwd(old, sizeof old));
    cr_assert_eq(chdir(cwd), 0);
    setenv("ACCEL_KERNEL_CACHE", "   ", 1);
    tu_log_capture();
    accel_runtime *rt = tu_open_cpu_cc();
    run_kernel(rt, 8, 1);
    accel_kernel_cache_stats s = stats(rt);
    cr_assert_eq(s.disk_enabled, 0);
    cr_assert(strstr(s.disabled_reason, "ACCEL_KERNEL_CACHE is blank"), "%s", s.disabled_reason);
    struct stat st;
    cr_assert_neq(stat(tu_fmt("%s/   ", cwd), &st), 0, "a folder named by spaces was made");
    accel_runtime_close(rt);
    cr_assert_eq(chdir(old), 0);
}

/* Over the path limit: refused, not cut short (which named a folder higher
 * up, where the entries then went). */
Test(kernel_cache, a_path_over_the_limit_is_refused_not_truncated)
{
    char path[1400];
    int n = snprintf(path, sizeof path, "%s", tu_tmpdir());
    while (n < 1100)
        n += snprintf(path + n, sizeof path - (size_t)n, "/%s", "d123456789");
    setenv("ACCEL_KERNEL_CACHE", path, 1);
    accel_runtime *rt = tu_open_cpu_cc();
    run_kernel(rt, 9, 1);
    accel_kernel_cache_stats s = stats(rt);
    cr_assert_eq(s.disk_enabled, 0);
    cr_assert(strstr(s.disabled_reason, "longer than 1023 characters"), "%s", s.disabled_reason);
    struct stat st;
    cr_assert_neq(stat(tu_fmt("%s/d123456789", tu_tmpdir()), &st), 0,
                  "folders of the cut path were made");
    accel_runtime_close(rt);
}
