/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* test_npy.c — what accel_npy_save does to what already is at its path
 * (accel/npy.h, "What is at path"): it writes a temporary file and renames it
 * over the destination, so without care it would replace device nodes,
 * FIFOs and symbolic links, drop a file's mode and overwrite read-only files.
 *
 * Cases that depend on permissions (read-only file, read-only folder) run in
 * a child process that has given up root when the suite runs as root, since
 * root may write anything: the check is then made as uid/gid 65534. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "accel/npy.h"
#include "test_util.h"

static const float new_data[3] = {7, 8, 9};
static const size_t new_shape[1] = {3};

static accel_status save_new(const char *path)
{
    return accel_npy_save(path, ACCEL_F32, 1, new_shape, new_data);
}

/* Write a small .npy holding {1, 2} at path (the "old" contents). */
static void save_old(const char *path)
{
    float d[2] = {1, 2};
    size_t shape[1] = {2};
    cr_assert(accel_npy_save(path, ACCEL_F32, 1, shape, d) == ACCEL_SUCCESS, "%s",
              accel_last_error());
}

/* True when path holds exactly the array save_new writes. */
static bool holds_new(const char *path)
{
    accel_npy_array a;
    if (accel_npy_load(path, &a) != ACCEL_SUCCESS)
        return false;
    bool same = a.count == 3 && memcmp(a.data, new_data, sizeof new_data) == 0;
    accel_npy_free(&a);
    return same;
}

static bool holds_old(const char *path)
{
    accel_npy_array a;
    if (accel_npy_load(path, &a) != ACCEL_SUCCESS)
        return false;
    bool same = a.count == 2 && ((float *)a.data)[0] == 1 && ((float *)a.data)[1] == 2;
    accel_npy_free(&a);
    return same;
}

/* Entries in dir besides . and .. (no temporary file may be left behind). */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    cr_assert(d != NULL, "opendir %s", dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void expect_refused(accel_status st, const char *needle)
{
    cr_assert(st == ACCEL_ERROR_IO, "status %s (%s)", accel_status_name(st), accel_last_error());
    cr_assert(strstr(accel_last_error(), needle), "message lacks '%s': %s", needle,
              accel_last_error());
}

Test(npy_save, fifo_is_refused_and_stays_a_fifo)
{
    const char *dir = tu_tmpdir();
    const char *path = tu_fmt("%s/out.npy", dir);
    cr_assert(mkfifo(path, 0600) == 0, "mkfifo: %s", strerror(errno));
    expect_refused(save_new(path), "is not a regular file (it is a FIFO)");
    struct stat sb;
    cr_assert(lstat(path, &sb) == 0 && S_ISFIFO(sb.st_mode), "the FIFO was replaced");
    cr_assert_eq(entries(dir), 1, "something was created next to the FIFO");
}

Test(npy_save, directory_is_refused)
{
    const char *dir = tu_tmpdir();
    const char *path = tu_fmt("%s/out.npy", dir);
    cr_assert(mkdir(path, 0700) == 0);
    expect_refused(save_new(path), "is not a regular file (it is a directory)");
    struct stat sb;
    cr_assert(lstat(path, &sb) == 0 && S_ISDIR(sb.st_mode));
    cr_assert_eq(entries(dir), 1);
}

Test(npy_save, symlink_to_a_fifo_is_refused)
{
    const char *dir = tu_tmpdir();
    const char *fifo = tu_fmt("%s/fifo", dir), *link = tu_fmt("%s/out.npy", dir);
    cr_assert(mkfifo(fifo, 0600) == 0);
    cr_assert(symlink("fifo", link) == 0);
    expect_refused(save_new(link), "not a regular file");
    struct stat sb;
    cr_assert(lstat(link, &sb) == 0 && S_ISLNK(sb.st_mode));
    cr_assert(lstat(fifo, &sb) == 0 && S_ISFIFO(sb.st_mode));
    cr_assert_eq(entries(dir), 2);
}

Test(npy_save, symlink_is_written_through)
{
    const char *a = tu_tmpdir(), *b = tu_tmpdir();
    const char *target = tu_fmt("%s/data.npy", b), *link = tu_fmt("%s/out.npy", a);
    save_old(target);
    cr_assert(symlink(target, link) == 0);
    cr_assert(save_new(link) == ACCEL_SUCCESS, "%s", accel_last_error());
    struct stat sb;
    cr_assert(lstat(link, &sb) == 0 && S_ISLNK(sb.st_mode), "the link was replaced by a file");
    cr_assert(holds_new(target), "the link's target was not updated");
    cr_assert(holds_new(link));
    cr_assert_eq(entries(a), 1, "a temporary file was left next to the link");
    cr_assert_eq(entries(b), 1, "a temporary file was left next to the target");
}

Test(npy_save, relative_symlink_is_written_through)
{
    const char *dir = tu_tmpdir();
    cr_assert(mkdir(tu_fmt("%s/sub", dir), 0700) == 0);
    const char *target = tu_fmt("%s/sub/data.npy", dir), *link = tu_fmt("%s/out.npy", dir);
    save_old(target);
    cr_assert(symlink("sub/data.npy", link) == 0);
    cr_assert(save_new(link) == ACCEL_SUCCESS, "%s", accel_last_error());
    struct stat sb;
    cr_assert(lstat(link, &sb) == 0 && S_ISLNK(sb.st_mode));
    cr_assert(holds_new(target));
}

Test(npy_save, dangling_symlink_is_refused)
{
    const char *dir = tu_tmpdir();
    const char *link = tu_fmt("%s/out.npy", dir);
    cr_assert(symlink("missing.npy", link) == 0);
    expect_refused(save_new(link), "does not exist");
    struct stat sb;
    cr_assert(lstat(link, &sb) == 0 && S_ISLNK(sb.st_mode));
    cr_assert_eq(entries(dir), 1, "the link's target (or a temporary) was created");
}

Test(npy_save, existing_mode_is_kept)
{
    const char *dir = tu_tmpdir();
    const char *path = tu_fmt("%s/out.npy", dir);
    save_old(path);
    cr_assert(chmod(path, 0600) == 0);
    cr_assert(save_new(path) == ACCEL_SUCCESS, "%s", accel_last_error());
    struct stat sb;
    cr_assert(stat(path, &sb) == 0);
    cr_assert_eq(sb.st_mode & 07777, 0600, "mode %04o, want 0600", sb.st_mode & 07777);
    cr_assert(chmod(path, 0640) == 0);
    cr_assert(save_new(path) == ACCEL_SUCCESS, "%s", accel_last_error());
    cr_assert(stat(path, &sb) == 0);
    cr_assert_eq(sb.st_mode & 07777, 0640, "mode %04o, want 0640", sb.st_mode & 07777);
    cr_assert(holds_new(path));
}

Test(npy_save, new_file_mode_follows_umask)
{
    const char *dir = tu_tmpdir();
    mode_t old = umask(027);
    accel_status st = save_new(tu_fmt("%s/a.npy", dir));
    umask(022);
    accel_status st2 = save_new(tu_fmt("%s/b.npy", dir));
    umask(old);
    cr_assert(st == ACCEL_SUCCESS && st2 == ACCEL_SUCCESS, "%s", accel_last_error());
    struct stat sb;
    cr_assert(stat(tu_fmt("%s/a.npy", dir), &sb) == 0);
    cr_assert_eq(sb.st_mode & 07777, 0640, "mode %04o under umask 027", sb.st_mode & 07777);
    cr_assert(stat(tu_fmt("%s/b.npy", dir), &sb) == 0);
    cr_assert_eq(sb.st_mode & 07777, 0644, "mode %04o under umask 022", sb.st_mode & 07777);
}

/* Documented (npy.h): like sed -i, the save gives path a new inode, so the
 * file's other hard links keep the old contents. */
Test(npy_save, hard_link_keeps_old_contents_as_documented)
{
    const char *dir = tu_tmpdir();
    const char *path = tu_fmt("%s/out.npy", dir), *other = tu_fmt("%s/other.npy", dir);
    save_old(path);
    cr_assert(link(path, other) == 0);
    cr_assert(save_new(path) == ACCEL_SUCCESS, "%s", accel_last_error());
    cr_assert(holds_new(path));
    cr_assert(holds_old(other));
}

/* ------------------------------------------ cases that need a non-root user */

#define NOBODY 65534

/* Run check(dir) in a child as an unprivileged user (uid/gid 65534 when the
 * suite runs as root, the caller's own otherwise); dir is a fresh folder that
 * user owns. The child's exit status is check's: 0 for pass. */
static void as_unprivileged(const char *what, int (*check)(const char *dir))
{
    const char *base = tu_tmpdir();
    const char *dir = tu_fmt("%s/w", base);
    cr_assert(mkdir(dir, 0755) == 0);
    bool root = geteuid() == 0;
    if (root) {
        cr_assert(chmod(base, 0755) == 0);
        cr_assert(chown(dir, NOBODY, NOBODY) == 0, "chown: %s", strerror(errno));
    }
    fflush(NULL);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        if (root && (setgroups(0, NULL) != 0 || setgid(NOBODY) != 0 || setuid(NOBODY) != 0))
            _exit(99);
        _exit(check(dir));
    }
    int status = 0;
    cr_assert(waitpid(pid, &status, 0) == pid);
    cr_assert(WIFEXITED(status), "%s: the child died", what);
    cr_assert_neq(WEXITSTATUS(status), 99, "%s: cannot drop root privileges", what);
    cr_assert_eq(WEXITSTATUS(status), 0, "%s: failed at check %d (as uid %d)", what,
                 WEXITSTATUS(status), root ? NOBODY : (int)geteuid());
}

/* Child-side checks: return the number of the first failing one, 0 if all hold. */
static int check_read_only_file(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/out.npy", dir);
    float d[2] = {1, 2};
    size_t shape[1] = {2};
    if (accel_npy_save(path, ACCEL_F32, 1, shape, d) != ACCEL_SUCCESS)
        return 1;
    if (chmod(path, 0444) != 0)
        return 2;
    accel_status st = save_new(path);
    if (st != ACCEL_ERROR_IO)
        return 3;
    if (!strstr(accel_last_error(), "not writable") || !strstr(accel_last_error(), "read-only"))
        return 4;
    if (!holds_old(path))
        return 5; /* the existing output is untouched */
    struct stat sb;
    if (stat(path, &sb) != 0 || (sb.st_mode & 07777) != 0444)
        return 6;
    DIR *dd = opendir(dir);
    int n = 0;
    for (struct dirent *e; dd && (e = readdir(dd));)
        n += e->d_name[0] != '.';
    if (dd)
        closedir(dd);
    return n == 1 ? 0 : 7;
}

static int check_read_only_folder(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/out.npy", dir);
    float d[2] = {1, 2};
    size_t shape[1] = {2};
    if (accel_npy_save(path, ACCEL_F32, 1, shape, d) != ACCEL_SUCCESS)
        return 1;
    if (chmod(path, 0644) != 0 || chmod(dir, 0555) != 0)
        return 2;
    accel_status st = save_new(path);
    if (st != ACCEL_ERROR_IO)
        return 3;
    if (!strstr(accel_last_error(), "folder is not writable") ||
        !strstr(accel_last_error(), "temporary file"))
        return 4;
    if (!holds_old(path))
        return 5;
    chmod(dir, 0755);
    return 0;
}

Test(npy_save, read_only_file_is_refused_and_untouched)
{
    as_unprivileged("read-only file", check_read_only_file);
}

Test(npy_save, read_only_folder_says_why)
{
    as_unprivileged("read-only folder", check_read_only_folder);
}
