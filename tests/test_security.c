/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_security.c — core/base/security.c and the loader's path rules: a plugin or
 * config file that someone other than its owner (or root) could write is
 * refused unless allowed, with the reason in the backend record and in
 * `accel info`; plugins are never looked for in the current directory or on
 * the library search path; `accel info` prints every resolved path.
 * Every case works on chmod'ed (or chown'ed, when running as root) temporary
 * copies of the mock plugin and of a config file. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_util.h"

#define NOBODY_UID 65534

static void setup(void)
{
    unsetenv("ACCEL_ALLOW_INSECURE");
}

TestSuite(security, .init = setup);

static void copy_file(const char *src, const char *dst, mode_t mode)
{
    FILE *in = fopen(src, "rb");
    cr_assert(in, "cannot read %s", src);
    FILE *out = fopen(dst, "wb");
    cr_assert(out, "cannot write %s", dst);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        cr_assert_eq(fwrite(buf, 1, n, out), n);
    fclose(in);
    fclose(out);
    cr_assert_eq(chmod(dst, mode), 0, "chmod %s", dst);
}

/* A fresh folder holding a copy of the mock plugin with `mode`. */
static const char *plugin_copy(mode_t mode, const char **out_dir)
{
    const char *dir = tu_tmpdir();
    const char *path = tu_fmt("%s/libaccel_test_mock.so", dir);
    copy_file(TU_TEST_PLUGIN("mock"), path, mode);
    if (out_dir)
        *out_dir = dir;
    return path;
}

/* Open cpu + the plugin at `mock_path` (+ extra [runtime] lines). */
static accel_runtime *open_with(const char *mock_path, const char *runtime_extra)
{
    accel_runtime *rt;
    accel_status s =
        tu_open_ini(tu_fmt("[runtime]\norder = cpu, mock\n%s\n[backend.cpu]\nlibrary = %s\n"
                           "[backend.mock]\nlibrary = %s\n",
                           runtime_extra ? runtime_extra : "", TU_CPU_PLUGIN, mock_path),
                    &rt, NULL);
    cr_assert(s == ACCEL_SUCCESS, "open: %s", accel_last_error());
    return rt;
}

static void expect_refused(const char *mock_path, const char *needle)
{
    accel_runtime *rt = open_with(mock_path, NULL);
    accel_backend_info bi = tu_backend_info(rt, "mock");
    cr_assert(!bi.loaded, "%s was loaded", mock_path);
    cr_assert(bi.status == ACCEL_ERROR_PLUGIN_LOAD, "%s", accel_status_name(bi.status));
    cr_assert(strstr(bi.reason, "insecure") && strstr(bi.reason, needle) &&
                  strstr(bi.reason, "allow_insecure"),
              "reason must say insecure, %s and the way out: %s", needle, bi.reason);
    cr_assert(tu_backend_info(rt, "cpu").loaded, "the refusal must not stop other backends");
    accel_runtime_close(rt);
    /* allow_insecure = true in [runtime]: loaded, with a warning. */
    tu_log_capture();
    rt = open_with(mock_path, "allow_insecure = true");
    cr_assert(tu_backend_info(rt, "mock").loaded, "allow_insecure did not allow %s", mock_path);
    cr_assert(tu_log_contains(ACCEL_LOG_WARN, "insecure plugin loaded"), "log:\n%s", tu_log_text());
    accel_runtime_close(rt);
}

Test(security, secure_plugin_copy_loads)
{
    accel_runtime *rt = open_with(plugin_copy(0755, NULL), NULL);
    cr_assert(tu_backend_info(rt, "mock").loaded, "%s", tu_backend_info(rt, "mock").reason);
    accel_runtime_close(rt);
    rt = open_with(plugin_copy(0700, NULL), "allow_insecure = false");
    cr_assert(tu_backend_info(rt, "mock").loaded);
    accel_runtime_close(rt);
}

Test(security, world_writable_plugin_is_refused)
{
    expect_refused(plugin_copy(0757, NULL), "world-writable");
}

/* Root's group has no members other than root in /etc/passwd and
 * /etc/group, read here directly (the reference for the core's rule). */
static bool root_group_is_private(void)
{
    bool priv = true;
    FILE *f = fopen("/etc/passwd", "r");
    cr_assert(f, "cannot read /etc/passwd");
    struct passwd *pw;
    while ((pw = fgetpwent(f)))
        priv = priv && !(pw->pw_gid == 0 && pw->pw_uid != 0);
    fclose(f);
    f = fopen("/etc/group", "r");
    cr_assert(f, "cannot read /etc/group");
    struct group *gr;
    while ((gr = fgetgrent(f)))
        if (gr->gr_gid == 0)
            for (char **m = gr->gr_mem; *m; m++)
                priv = priv && strcmp(*m, "root") == 0;
    fclose(f);
    return priv;
}

Test(security, group_writable_plugin_is_refused)
{
    if (geteuid() != 0)
        cr_skip_test("needs root to give a file a group with other members");
    /* nogroup: the primary group of nobody (uid 65534), not of root. */
    const char *p = plugin_copy(0775, NULL);
    cr_assert_eq(chown(p, (uid_t)-1, NOBODY_UID), 0);
    expect_refused(p, "group-writable");
}

/* umask 002 with user private groups: a file writable by its owner's own
 * group is writable by no one else, so it is trusted (as Debian's OpenSSH). */
Test(security, group_writable_by_the_owners_private_group_is_trusted)
{
    if (geteuid() != 0)
        cr_skip_test("needs root to know the file's group");
    const char *dir;
    const char *p = plugin_copy(0775, &dir);
    cr_assert_eq(chown(p, 0, 0), 0);
    cr_assert_eq(chmod(dir, 0775), 0);
    cr_assert_eq(chown(dir, 0, 0), 0);
    bool priv = root_group_is_private();
    accel_runtime *rt = open_with(p, NULL);
    accel_backend_info bi = tu_backend_info(rt, "mock");
    cr_assert(bi.loaded == priv, "root's group %s private but the plugin was %s: %s",
              priv ? "is" : "is not", bi.loaded ? "loaded" : "refused", bi.reason);
    accel_runtime_close(rt);
    /* The config file under the same rule. */
    const char *ini =
        tu_write_file(dir, "plugins.ini", tu_fmt("[backend.mock]\nlibrary = %s\n", p));
    cr_assert_eq(chmod(ini, 0664), 0);
    accel_status s = accel_runtime_open(ini, &rt);
    cr_assert((s == ACCEL_SUCCESS) == priv, "%s: %s", accel_status_name(s), accel_last_error());
    accel_runtime_close(rt);
}

Test(security, plugin_owned_by_another_user_is_refused)
{
    if (geteuid() != 0)
        cr_skip_test("needs root to chown a file to another user");
    const char *p = plugin_copy(0755, NULL);
    cr_assert_eq(chown(p, NOBODY_UID, NOBODY_UID), 0);
    expect_refused(p, "owned by uid 65534");
}

Test(security, plugin_in_a_folder_others_can_write_is_refused)
{
    const char *dir;
    const char *p = plugin_copy(0755, &dir);
    cr_assert_eq(chmod(dir, 0777), 0);
    expect_refused(p, "its folder");
    /* The sticky bit (as /tmp has) stops others renaming the file: trusted. */
    cr_assert_eq(chmod(dir, 01777), 0);
    accel_runtime *rt = open_with(p, NULL);
    cr_assert(tu_backend_info(rt, "mock").loaded, "%s", tu_backend_info(rt, "mock").reason);
    accel_runtime_close(rt);
}

Test(security, env_allow_insecure_also_allows)
{
    const char *p = plugin_copy(0666, NULL);
    setenv("ACCEL_ALLOW_INSECURE", "1", 1);
    accel_runtime *rt = open_with(p, NULL);
    cr_assert(tu_backend_info(rt, "mock").loaded);
    accel_runtime_close(rt);
}

/* ------------------------------------------------------------ config file */

static const char *config_text(void)
{
    return tu_fmt("[runtime]\norder = cpu\n[backend.cpu]\nlibrary = %s\n", TU_CPU_PLUGIN);
}

static void expect_config_refused(const char *path, const char *needle)
{
    accel_runtime *rt = NULL;
    accel_status s = accel_runtime_open(path, &rt);
    cr_assert(s == ACCEL_ERROR_CONFIG && rt == NULL, "%s: %s", path, accel_status_name(s));
    const char *m = accel_last_error();
    cr_assert(strstr(m, "accel_runtime_open") && strstr(m, "insecure") && strstr(m, needle) &&
                  strstr(m, "ACCEL_ALLOW_INSECURE"),
              "message: %s", m);
}

Test(security, world_or_group_writable_config_is_refused)
{
    const char *dir = tu_tmpdir();
    const char *path = tu_write_file(dir, "plugins.ini", config_text());
    cr_assert_eq(chmod(path, 0666), 0);
    expect_config_refused(path, "world-writable");
    if (geteuid() == 0) {
        cr_assert_eq(chown(path, (uid_t)-1, NOBODY_UID), 0);
        cr_assert_eq(chmod(path, 0620), 0);
        expect_config_refused(path, "group-writable");
    }
    /* The file's own allow_insecure cannot vouch for itself. */
    const char *self = tu_write_file(
        dir, "self.ini",
        tu_fmt("[runtime]\nallow_insecure = true\norder = cpu\n[backend.cpu]\nlibrary = %s\n",
               TU_CPU_PLUGIN));
    cr_assert_eq(chmod(self, 0646), 0);
    expect_config_refused(self, "cannot vouch for itself");
    /* The environment can. */
    setenv("ACCEL_ALLOW_INSECURE", "1", 1);
    accel_runtime *rt = NULL;
    tu_ok(accel_runtime_open(path, &rt));
    accel_runtime_close(rt);
    unsetenv("ACCEL_ALLOW_INSECURE");
    /* Back to 0644: accepted. */
    cr_assert_eq(chmod(path, 0644), 0);
    tu_ok(accel_runtime_open(path, &rt));
    accel_runtime_close(rt);
}

Test(security, config_owned_by_another_user_is_refused)
{
    if (geteuid() != 0)
        cr_skip_test("needs root to chown a file to another user");
    const char *path = tu_write_file(tu_tmpdir(), "plugins.ini", config_text());
    cr_assert_eq(chown(path, NOBODY_UID, NOBODY_UID), 0);
    expect_config_refused(path, "owned by uid 65534");
}

Test(security, allow_insecure_must_be_a_boolean)
{
    accel_runtime *rt = NULL;
    accel_status s = tu_open_ini(
        tu_fmt("[runtime]\nallow_insecure = perhaps\n[backend.cpu]\nlibrary = %s\n", TU_CPU_PLUGIN),
        &rt, NULL);
    cr_assert(s == ACCEL_ERROR_CONFIG, "%s", accel_status_name(s));
    cr_assert(strstr(accel_last_error(), "allow_insecure = perhaps") &&
                  strstr(accel_last_error(), ":2:"),
              "%s", accel_last_error());
}

/* ------------------------------------------------------------ the whole path */

Test(security, a_folder_higher_up_that_others_can_write_is_refused)
{
    const char *top = tu_tmpdir();
    const char *mid = tu_fmt("%s/shared", top);
    const char *dir = tu_fmt("%s/plugins", mid);
    cr_assert_eq(mkdir(mid, 0755), 0);
    cr_assert_eq(mkdir(dir, 0755), 0);
    const char *p = tu_fmt("%s/libaccel_test_mock.so", dir);
    copy_file(TU_TEST_PLUGIN("mock"), p, 0755);
    cr_assert_eq(chmod(mid, 0777), 0);
    /* two levels above the file: refused, naming that folder */
    expect_refused(p, tu_fmt("the folder %s is world-writable", mid));
    /* a config file under it too */
    const char *ini = tu_write_file(dir, "plugins.ini", config_text());
    expect_config_refused(ini, tu_fmt("the folder %s is world-writable", mid));
    /* the sticky bit makes it a /tmp: trusted */
    cr_assert_eq(chmod(mid, 01777), 0);
    accel_runtime *rt = open_with(p, NULL);
    cr_assert(tu_backend_info(rt, "mock").loaded, "%s", tu_backend_info(rt, "mock").reason);
    accel_runtime_close(rt);
}

Test(security, where_a_symbolic_link_leads_is_checked_too)
{
    /* the link lives in a good folder, the file in one others can write */
    const char *bad_dir;
    const char *target = plugin_copy(0755, &bad_dir);
    cr_assert_eq(chmod(bad_dir, 0777), 0);
    const char *link = tu_fmt("%s/libaccel_test_mock.so", tu_tmpdir());
    cr_assert_eq(symlink(target, link), 0);
    expect_refused(link, tu_fmt("its folder %s is world-writable", bad_dir));
}

Test(security, a_symbolic_link_owned_by_another_user_is_refused)
{
    if (geteuid() != 0)
        cr_skip_test("needs root to give a link to another user");
    const char *target = plugin_copy(0755, NULL);
    const char *dir = tu_tmpdir();
    const char *link = tu_fmt("%s/libaccel_test_mock.so", dir);
    cr_assert_eq(symlink(target, link), 0);
    cr_assert_eq(lchown(link, NOBODY_UID, NOBODY_UID), 0);
    expect_refused(link, tu_fmt("the symbolic link %s on its path is owned by uid 65534", link));
    /* a link to a folder on the way counts the same */
    const char *dir_link = tu_fmt("%s/lib", dir);
    char target_dir[4096];
    snprintf(target_dir, sizeof target_dir, "%s", target);
    *strrchr(target_dir, '/') = '\0';
    cr_assert_eq(symlink(target_dir, dir_link), 0);
    cr_assert_eq(lchown(dir_link, NOBODY_UID, NOBODY_UID), 0);
    expect_refused(tu_fmt("%s/libaccel_test_mock.so", dir_link), "the symbolic link");
    /* owned by this user: the link is followed and the plugin loads */
    cr_assert_eq(lchown(link, 0, 0), 0);
    accel_runtime *rt = open_with(link, NULL);
    accel_backend_info bi = tu_backend_info(rt, "mock");
    cr_assert(bi.loaded, "%s", bi.reason);
    cr_assert_str_eq(bi.path, tu_realpath(link), "accel info shows the resolved path");
    accel_runtime_close(rt);
}

Test(security, a_fifo_or_device_as_plugin_is_refused_without_blocking, .timeout = 20)
{
    const char *fifo = tu_fmt("%s/libaccel_test_mock.so", tu_tmpdir());
    cr_assert_eq(mkfifo(fifo, 0644), 0);
    accel_runtime *rt = open_with(fifo, NULL);
    accel_backend_info bi = tu_backend_info(rt, "mock");
    cr_assert(!bi.loaded && bi.status == ACCEL_ERROR_PLUGIN_LOAD, "%s",
              accel_status_name(bi.status));
    cr_assert(strstr(bi.reason, "is a FIFO, not a regular file"), "%s", bi.reason);
    cr_assert(tu_backend_info(rt, "cpu").loaded);
    accel_runtime_close(rt);
    rt = open_with("/dev/zero", NULL);
    bi = tu_backend_info(rt, "mock");
    cr_assert(!bi.loaded && strstr(bi.reason, "character device"), "%s", bi.reason);
    accel_runtime_close(rt);
}

/* Plugins are loaded through the checked descriptor (/proc/self/fd/N);
 * descriptor numbers are reused once closed, and glibc knows a library by
 * the name it was opened as, so several runtimes open at once, with a
 * failing plugin among the loaded ones, must each get the plugin their
 * section names. */
Test(security, each_section_loads_its_own_file_across_runtimes)
{
    accel_runtime *rts[3];
    for (int i = 0; i < 3; i++) {
        cr_assert(
            tu_open_ini(tu_fmt("[runtime]\norder = cpu, broken, mock\n[backend.cpu]\nlibrary = %s\n"
                               "[backend.broken]\nlibrary = %s\n[backend.mock]\nlibrary = %s\n",
                               TU_CPU_PLUGIN, TU_TEST_PLUGIN("init_fail"), TU_TEST_PLUGIN("mock")),
                        &rts[i], NULL) == ACCEL_SUCCESS,
            "%s", accel_last_error());
        accel_backend_info cpu = tu_backend_info(rts[i], "cpu"),
                           mock = tu_backend_info(rts[i], "mock"),
                           broken = tu_backend_info(rts[i], "broken");
        cr_assert(cpu.loaded && mock.loaded && !broken.loaded, "runtime %d: %s / %s", i,
                  mock.reason, broken.reason);
        cr_assert(strstr(broken.reason, "frobnicator"), "runtime %d: broken: %s", i, broken.reason);
        accel_device *d;
        tu_ok(accel_device_get_by_name(rts[i], "mock", &d));
        accel_device_properties props;
        accel_device_properties_init(&props);
        tu_ok(accel_device_properties_get(d, &props));
        cr_assert_str_eq(props.name, "Mock device",
                         "runtime %d: [backend.mock] loaded another plugin", i);
        if (i == 1)
            accel_runtime_close(rts[0]); /* descriptors closed in between */
    }
    accel_runtime_close(rts[1]);
    accel_runtime_close(rts[2]);
}

/* ------------------------------------------------------------ search paths */

Test(security, plugins_are_never_searched_in_the_current_directory)
{
    /* The current directory holds a loadable plugin under the configured
     * name; the config, elsewhere, names it relatively. */
    const char *cwd_dir = tu_tmpdir();
    copy_file(TU_TEST_PLUGIN("mock"), tu_fmt("%s/libaccel_test_mock.so", cwd_dir), 0755);
    const char *cfg_dir = tu_tmpdir();
    const char *cfg = tu_write_file(cfg_dir, "plugins.ini",
                                    tu_fmt("[backend.cpu]\nlibrary = %s\n[backend.mock]\n"
                                           "library = libaccel_test_mock.so\n[backend.dot]\n"
                                           "library = ./libaccel_test_mock.so\n[backend.libc]\n"
                                           "library = libc.so.6\n",
                                           TU_CPU_PLUGIN));
    char old[4096];
    cr_assert(getcwd(old, sizeof old));
    cr_assert_eq(chdir(cwd_dir), 0);
    accel_runtime *rt = NULL;
    accel_status s = accel_runtime_open(cfg, &rt);
    cr_assert_eq(chdir(old), 0);
    cr_assert(s == ACCEL_SUCCESS, "%s", accel_last_error());
    const char *names[] = {"mock", "dot", "libc"};
    for (int i = 0; i < 3; ++i) {
        accel_backend_info bi = tu_backend_info(rt, names[i]);
        cr_assert(!bi.loaded, "%s loaded from %s", names[i], bi.path);
        /* The resolved path is absolute and inside the config's folder. */
        cr_assert(bi.path[0] == '/', "%s: path %s is not absolute", names[i], bi.path);
        cr_assert(strncmp(bi.path, tu_realpath(cfg_dir), strlen(tu_realpath(cfg_dir))) == 0,
                  "%s: %s is not in the config's folder %s", names[i], bi.path, cfg_dir);
        cr_assert(strstr(bi.reason, "file missing"), "%s: %s", names[i], bi.reason);
    }
    accel_runtime_close(rt);
    /* A relative --config path is taken as given, but resolved to an
     * absolute one before anything is loaded from its folder. */
    const char *rel_dir = tu_tmpdir();
    copy_file(TU_TEST_PLUGIN("mock"), tu_fmt("%s/libaccel_test_mock.so", rel_dir), 0755);
    tu_write_file(rel_dir, "plugins.ini", "[backend.mock]\nlibrary = libaccel_test_mock.so\n");
    cr_assert_eq(chdir(rel_dir), 0);
    s = accel_runtime_open("plugins.ini", &rt);
    cr_assert_eq(chdir(old), 0);
    cr_assert(s == ACCEL_SUCCESS, "%s", accel_last_error());
    accel_backend_info bi = tu_backend_info(rt, "mock");
    cr_assert(bi.loaded && bi.path[0] == '/', "%s (%s)", bi.path, bi.reason);
    cr_assert_str_eq(accel_runtime_config_path(rt), tu_fmt("%s/plugins.ini", tu_realpath(rel_dir)));
    accel_runtime_close(rt);
}

/* ------------------------------------------------------------ accel info */

static const char *run_capture(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    cr_assert(p, "popen %s", cmd);
    size_t cap = 1 << 16, n = 0;
    char *out = malloc(cap);
    cr_assert(out);
    size_t r;
    while ((r = fread(out + n, 1, cap - n - 1, p)) > 0)
        n += r;
    out[n] = '\0';
    pclose(p);
    const char *kept = tu_fmt("%s", out);
    free(out);
    return kept;
}

Test(security, accel_info_shows_resolved_paths_and_the_insecure_reason)
{
    const char *cli = ACCEL_TEST_BUILD_DIR "/bin/accel";
    if (access(cli, X_OK) != 0)
        cr_skip_test("the accel program is not built (%s)", cli);
    const char *bad = plugin_copy(0666, NULL);
    const char *cfg;
    accel_runtime *rt;
    tu_ok(tu_open_ini(tu_fmt("[runtime]\norder = cpu, mock\n[backend.cpu]\nlibrary = %s\n"
                             "[backend.mock]\nlibrary = %s\n",
                             TU_CPU_PLUGIN, bad),
                      &rt, &cfg));
    accel_runtime_close(rt);
    const char *out =
        run_capture(tu_fmt("ACCEL_ALLOW_INSECURE= '%s' info --config '%s' 2>&1", cli, cfg));
    cr_assert(strstr(out, tu_fmt("library:     %s", tu_realpath(TU_CPU_PLUGIN))),
              "cpu path missing:\n%s", out);
    cr_assert(strstr(out, tu_fmt("library:     %s", tu_realpath(bad))), "mock path missing:\n%s",
              out);
    cr_assert(strstr(out, "NOT LOADED") && strstr(out, "insecure plugin refused") &&
                  strstr(out, "world-writable"),
              "the reason is not shown:\n%s", out);
}
