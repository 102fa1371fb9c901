/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_cpu_compiler.c — how the CPU backend picks and runs the C compiler
 * of user kernels (backends/cpu/kernel.c): `cc` of plugins.ini resolved in
 * PATH's absolute folders only (never the current folder) and trust-checked
 * like plugins, the messages under auto, cc and a bad
 * ACCEL_CPU_KERNEL_COMPILER, a compiler that never ends stopped at the
 * time limit with its build folder removed, its stdin never the host's,
 * build folders of killed processes swept, and the instruction set kernels
 * are built for (ACCEL_CPU_KERNEL_ISA). */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "accel/kernel.h"
#include "test_util.h"

/* A compiler that only leaves a mark: it must never run. */
static const char *fake_cc(const char *dir, const char *mark)
{
    const char *path = tu_write_file(dir, "mycc", tu_fmt("#!/bin/sh\ntouch '%s'\nexit 1\n", mark));
    cr_assert_eq(chmod(path, 0755), 0);
    return path;
}

/* Build an elementwise kernel on cpu:0 of a runtime with ini's [backend.cpu]
 * extra lines; returns the build's status (message in accel_last_error). */
static accel_status build_with(const char *extra, char *msg, size_t cap)
{
    accel_runtime *rt = NULL;
    tu_ok(tu_open_ini(
        tu_fmt("[runtime]\norder = cpu\n[backend.cpu]\nlibrary = %s\n%s", TU_CPU_PLUGIN, extra),
        &rt, NULL));
    accel_device *dev;
    tu_ok(accel_device_get_by_name(rt, "cpu:0", &dev));
    accel_kernel *k = NULL;
    tu_ok(accel_kernel_elementwise_create(rt, "twice", "float64 x", "float64 z", "z = 2 * x", NULL,
                                          &k));
    accel_status st = accel_kernel_build(k, dev, 0);
    snprintf(msg, cap, "%s", accel_last_error());
    accel_kernel_release(k);
    accel_runtime_close(rt);
    return st;
}

static void setup(void)
{
    setenv("ACCEL_KERNEL_CACHE", "off", 1);
    unsetenv("ACCEL_CPU_KERNEL_COMPILER");
}

Test(cpu_compiler, a_relative_cc_is_never_taken_from_the_current_folder, .init = setup)
{
    const char *dir = tu_tmpdir();
    const char *bin = tu_fmt("%s/bin", dir), *mark = tu_fmt("%s/ran", dir);
    cr_assert_eq(mkdir(bin, 0700), 0);
    fake_cc(bin, mark);
    char old[4096], msg[2048];
    cr_assert(getcwd(old, sizeof old));
    cr_assert_eq(chdir(dir), 0);
    accel_status st = build_with("kernel_compiler = cc\ncc = bin/mycc\n", msg, sizeof msg);
    cr_assert_eq(chdir(old), 0);
    tu_assert_status(st, ACCEL_ERROR_UNSUPPORTED, "cc = bin/mycc");
    cr_assert(strstr(msg, "kernel_compiler = cc: bin/mycc is a relative path"), "%s", msg);
    cr_assert_neq(access(mark, F_OK), 0, "the compiler in the current folder ran");
}

Test(cpu_compiler, a_cc_others_can_write_is_refused, .init = setup)
{
    const char *dir = tu_fmt("%s/open", tu_tmpdir()), *mark = tu_fmt("%s/ran", tu_tmpdir());
    cr_assert_eq(mkdir(dir, 0700), 0);
    cr_assert_eq(chmod(dir, 0777), 0);
    const char *cc = fake_cc(dir, mark);
    cr_assert_eq(chmod(cc, 0777), 0);
    char msg[2048];
    accel_status st = build_with(tu_fmt("kernel_compiler = cc\ncc = %s\n", cc), msg, sizeof msg);
    tu_assert_status(st, ACCEL_ERROR_UNSUPPORTED, "cc in a 0777 folder");
    cr_assert(strstr(msg, "is refused") && strstr(msg, "writable by other users"), "%s", msg);
    cr_assert_neq(access(mark, F_OK), 0, "the untrusted compiler ran");
}

Test(cpu_compiler, a_missing_cc_under_auto_is_warned_about, .init = setup)
{
    if (access(ACCEL_TEST_PLUGIN_CONFIG_DIR "/accel-tcc", X_OK) != 0)
        cr_skip_test("accel-tcc was not built (no embedded compiler to fall back to)");
    tu_log_capture();
    char msg[2048];
    tu_ok(build_with("kernel_compiler = auto\ncc = no-such-cc-here\n", msg, sizeof msg));
    cr_assert(tu_log_contains(ACCEL_LOG_WARN,
                              "cc = no-such-cc-here: no `no-such-cc-here` in PATH's absolute "
                              "folders; user kernels are built by the embedded compiler"),
              "%s", tu_log_text());
}

Test(cpu_compiler, messages_name_the_setting_that_was_used, .init = setup)
{
    char msg[2048];
    tu_assert_status(build_with("kernel_compiler = cc\ncc = no-such-cc-here\n", msg, sizeof msg),
                     ACCEL_ERROR_UNSUPPORTED, "missing cc");
    cr_assert(strstr(msg, "(kernel_compiler = cc: no `no-such-cc-here` in PATH"), "%s", msg);
    cr_assert(!strstr(msg, "accel-tcc"), "the tcc half does not apply under cc: %s", msg);
    setenv("ACCEL_CPU_KERNEL_COMPILER", "gcc", 1);
    tu_assert_status(build_with("kernel_compiler = cc\n", msg, sizeof msg), ACCEL_ERROR_UNSUPPORTED,
                     "bad variable");
    cr_assert(strstr(msg, "ACCEL_CPU_KERNEL_COMPILER=gcc: expected auto, cc or tcc"), "%s", msg);
    unsetenv("ACCEL_CPU_KERNEL_COMPILER");
}

/* The compiler identity of cpu:0 under kernel_compiler = cc. */
static void cc_identity(char *out, size_t cap)
{
    accel_runtime *rt = tu_open_cpu_cc();
    accel_device *dev;
    tu_ok(accel_device_get_by_name(rt, "cpu:0", &dev));
    tu_ok(accel_kernel_compiler_get(dev, out, cap));
    accel_runtime_close(rt);
}

/* ACCEL_CPU_KERNEL_ISA: auto builds for AVX2 where the CPU has it (and says
 * so in the identity, which keys the kernel cache), baseline does not, and
 * another value fails the build naming the variable. */
Test(cpu_compiler, the_kernel_instruction_set_is_in_the_identity, .init = setup)
{
    char id[1024], msg[2048];
    bool avx2 = false;
#if defined(__x86_64__)
    avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
    unsetenv("ACCEL_CPU_KERNEL_ISA");
    cc_identity(id, sizeof id);
    cr_assert_eq(strstr(id, "-march=haswell") != NULL, avx2, "auto on this CPU: %s", id);
    setenv("ACCEL_CPU_KERNEL_ISA", "baseline", 1);
    cc_identity(id, sizeof id);
    cr_assert(!strstr(id, "-march="), "baseline: %s", id);
    tu_ok(build_with("kernel_compiler = cc\n", msg, sizeof msg));
    setenv("ACCEL_CPU_KERNEL_ISA", "avx9", 1);
    tu_assert_status(build_with("kernel_compiler = cc\n", msg, sizeof msg), ACCEL_ERROR_CONFIG,
                     "bad variable");
    cr_assert(strstr(msg, "ACCEL_CPU_KERNEL_ISA=avx9: expected auto or baseline"), "%s", msg);
    /* the embedded compiler builds for its own target, but the value is
     * still checked */
    tu_assert_status(build_with("kernel_compiler = tcc\n", msg, sizeof msg), ACCEL_ERROR_CONFIG,
                     "bad variable under tcc");
    unsetenv("ACCEL_CPU_KERNEL_ISA");
}

/* The identity is kept between calls of one runtime (kernel.c's memo) but
 * follows its inputs: the ISA variable and the compiler setting, each
 * changed and put back within the one runtime. */
Test(cpu_compiler, the_kept_identity_follows_its_inputs, .init = setup)
{
    accel_runtime *rt = tu_open_cpu_cc();
    accel_device *dev;
    tu_ok(accel_device_get_by_name(rt, "cpu:0", &dev));
    char a[1024], b[1024], c[1024], d[1024];
    unsetenv("ACCEL_CPU_KERNEL_ISA");
    tu_ok(accel_kernel_compiler_get(dev, a, sizeof a));
    cr_assert(strncmp(a, "cc ", 3) == 0, "%s", a);
    setenv("ACCEL_CPU_KERNEL_ISA", "baseline", 1);
    tu_ok(accel_kernel_compiler_get(dev, b, sizeof b));
    cr_assert(!strstr(b, "-march="), "baseline: %s", b);
    unsetenv("ACCEL_CPU_KERNEL_ISA");
    setenv("ACCEL_CPU_KERNEL_COMPILER", "tcc", 1);
    tu_ok(accel_kernel_compiler_get(dev, c, sizeof c));
    cr_assert(strncmp(c, "tcc ", 4) == 0, "%s", c);
    unsetenv("ACCEL_CPU_KERNEL_COMPILER");
    tu_ok(accel_kernel_compiler_get(dev, d, sizeof d));
    cr_assert_str_eq(d, a);
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        cr_assert(strstr(a, "-march=haswell"), "auto: %s", a);
#endif
    accel_runtime_close(rt);
}

/* A compiler in a folder of this user under a sticky folder others may
 * write (/tmp) is taken, as the core takes plugins there; its identity
 * follows the file: rewritten to another size, the kept identity is
 * dropped. */
Test(cpu_compiler, a_cc_under_a_sticky_folder_is_taken_and_its_file_is_followed, .init = setup)
{
    const char *dir = tu_tmpdir(); /* 0700, under TMPDIR or /tmp */
    const char *v1 = "#!/bin/sh\nexit 1\n", *v2 = "#!/bin/sh\n# a newer one\nexit 1\n";
    const char *cc = tu_write_file(dir, "mycc", v1);
    cr_assert_eq(chmod(cc, 0755), 0);
    accel_runtime *rt = NULL;
    tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = cpu\n[backend.cpu]\nlibrary = %s\n"
                             "kernel_compiler = cc\ncc = %s\n",
                             TU_CPU_PLUGIN, cc),
                      &rt, NULL));
    accel_device *dev;
    tu_ok(accel_device_get_by_name(rt, "cpu:0", &dev));
    char a[1024], b[1024];
    tu_ok(accel_kernel_compiler_get(dev, a, sizeof a));
    cr_assert(strstr(a, tu_fmt("mycc size %zu ", strlen(v1))), "%s", a);
    tu_write_file(dir, "mycc", v2);
    tu_ok(accel_kernel_compiler_get(dev, b, sizeof b));
    cr_assert(strstr(b, tu_fmt("mycc size %zu ", strlen(v2))), "after the rewrite: %s", b);
    accel_runtime_close(rt);
}

/* The kept identity follows where `cc` resolves: a `cc` link retargeted
 * (update-alternatives), and a `cc` that appears in an earlier folder of
 * an unchanged PATH, each give the new compiler's identity, which is the
 * compiler the next build runs. */
Test(cpu_compiler, the_kept_identity_follows_where_cc_resolves, .init = setup)
{
    const char *dir = tu_tmpdir();
    const char *bin = tu_fmt("%s/bin", dir), *bin0 = tu_fmt("%s/bin0", dir);
    cr_assert_eq(mkdir(bin, 0700), 0);
    cr_assert_eq(mkdir(bin0, 0700), 0);
    const char *ga = tu_write_file(bin, "gcc-a", "#!/bin/sh\nexit 1\n");
    const char *gb = tu_write_file(bin, "gcc-b", "#!/bin/sh\n# b\nexit 1\n");
    cr_assert_eq(chmod(ga, 0755), 0);
    cr_assert_eq(chmod(gb, 0755), 0);
    const char *link = tu_fmt("%s/cc", bin);
    cr_assert_eq(symlink(ga, link), 0);
    char *old_path = strdup(getenv("PATH") ? getenv("PATH") : "");
    setenv("PATH", tu_fmt("%s:%s", bin0, bin), 1);
    accel_runtime *rt = NULL;
    tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = cpu\n[backend.cpu]\nlibrary = %s\n"
                             "kernel_compiler = cc\n",
                             TU_CPU_PLUGIN),
                      &rt, NULL));
    accel_device *dev;
    tu_ok(accel_device_get_by_name(rt, "cpu:0", &dev));
    char a[1024], b[1024], c[1024];
    tu_ok(accel_kernel_compiler_get(dev, a, sizeof a));
    cr_assert(strstr(a, "/bin/gcc-a size "), "%s", a);
    cr_assert_eq(unlink(link), 0);
    cr_assert_eq(symlink(gb, link), 0);
    tu_ok(accel_kernel_compiler_get(dev, b, sizeof b));
    cr_assert(strstr(b, "/bin/gcc-b size "), "after the link moved: %s", b);
    const char *first = tu_write_file(bin0, "cc", "#!/bin/sh\n# first in PATH\nexit 1\n");
    cr_assert_eq(chmod(first, 0755), 0);
    tu_ok(accel_kernel_compiler_get(dev, c, sizeof c));
    cr_assert(strstr(c, "/bin0/cc size "), "after a cc earlier in PATH: %s", c);
    accel_runtime_close(rt);
    setenv("PATH", old_path, 1);
    free(old_path);
}

static int build_folders(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strncmp(e->d_name, "accel-kernel-", 13) == 0;
    if (d)
        closedir(d);
    return n;
}

/* A source the compiler never finishes reading (a FIFO no one writes, as
 * "/dev/zero" without its memory growth): stopped at compile_timeout,
 * whole (cc1 too), and its build folder removed. */
Test(cpu_compiler, a_compiler_that_never_ends_is_stopped_at_the_time_limit, .init = setup)
{
    const char *tmp = tu_fmt("%s/t", tu_tmpdir());
    cr_assert_eq(mkdir(tmp, 0700), 0);
    setenv("TMPDIR", tmp, 1);
    accel_runtime *rt = NULL;
    tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = cpu\n[backend.cpu]\nlibrary = %s\n"
                             "kernel_compiler = cc\ncompile_timeout = 2\n",
                             TU_CPU_PLUGIN),
                      &rt, NULL));
    accel_device *dev;
    tu_ok(accel_device_get_by_name(rt, "cpu:0", &dev));
    const char *fifo = tu_fmt("%s/never", tu_tmpdir());
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    accel_kernel *k = NULL;
    tu_ok(accel_kernel_raw_create(
        rt, tu_fmt("#include \"%s\"\n__global__ void z(float *a) { a[threadIdx.x] = 0; }\n", fifo),
        "z", NULL, &k));
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    accel_status st = accel_kernel_build(k, dev, 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    cr_assert_neq(st, ACCEL_SUCCESS);
    cr_assert(strstr(accel_last_error(), "ran past the time limit of 2 s"), "%s",
              accel_last_error());
    cr_assert(s < 30, "the build took %.1f s", s);
    cr_assert_eq(build_folders(tmp), 0, "a build folder was left in %s", tmp);
    accel_kernel_release(k);
    accel_runtime_close(rt);
    unsetenv("TMPDIR");
}

/* The compiler's stdin is /dev/null, never the host's: a kernel source
 * that includes "/dev/stdin", built by cc while this process's stdin is a
 * pipe holding an #error line, builds (it read nothing); a compiler that
 * inherited the pipe would fail with that line (or wait on an open
 * terminal, as it did before). */
Test(cpu_compiler, the_compiler_does_not_read_the_hosts_stdin, .init = setup)
{
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    static const char line[] = "#error read_the_hosts_stdin\n";
    cr_assert_eq(write(fds[1], line, sizeof line - 1), (ssize_t)(sizeof line - 1));
    close(fds[1]);
    int saved = dup(0);
    cr_assert(saved >= 0);
    cr_assert_eq(dup2(fds[0], 0), 0);
    close(fds[0]);
    accel_runtime *rt = tu_open_cpu_cc();
    accel_device *dev;
    tu_ok(accel_device_get_by_name(rt, "cpu:0", &dev));
    accel_kernel *k = NULL;
    tu_ok(accel_kernel_raw_create(
        rt, "#include \"/dev/stdin\"\n__global__ void z(float *a) { a[threadIdx.x] = 0; }\n", "z",
        NULL, &k));
    accel_status st = accel_kernel_build(k, dev, 0);
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", accel_last_error());
    dup2(saved, 0);
    close(saved);
    cr_assert_eq(st, ACCEL_SUCCESS, "%s: %s", accel_status_name(st), msg);
    accel_kernel_release(k);
    accel_runtime_close(rt);
}

/* Build folders of a process killed mid-build (its PID gone) are removed
 * by the next build; those of a live process are not. */
Test(cpu_compiler, build_folders_of_killed_processes_are_swept, .init = setup)
{
    const char *tmp = tu_fmt("%s/t", tu_tmpdir());
    cr_assert_eq(mkdir(tmp, 0700), 0);
    pid_t dead = fork();
    cr_assert_geq(dead, 0);
    if (dead == 0)
        _exit(0);
    cr_assert_eq(waitpid(dead, NULL, 0), dead);
    const char *gone = tu_fmt("%s/accel-kernel-%ld-AbC123", tmp, (long)dead);
    const char *alive = tu_fmt("%s/accel-kernel-%ld-XyZ789", tmp, (long)getppid());
    const char *dirs[] = {gone, alive};
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(mkdir(dirs[i], 0700), 0);
        tu_write_file(dirs[i], "k.c", "int x;\n");
        tu_write_file(dirs[i], "k.so", "not really\n");
    }
    setenv("TMPDIR", tmp, 1);
    char msg[2048];
    tu_ok(build_with("kernel_compiler = cc\n", msg, sizeof msg));
    unsetenv("TMPDIR");
    struct stat st;
    cr_assert_neq(stat(gone, &st), 0, "the killed build's folder is still there");
    cr_assert_eq(stat(alive, &st), 0, "a live process's build folder was removed");
    cr_assert_eq(build_folders(tmp), 1);
}
