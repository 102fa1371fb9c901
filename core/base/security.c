/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/security.c — refusing plugins and configuration files that someone
 * other than their owner could have changed. A plugin is code the process
 * runs and plugins.ini says which code that is, so either one being writable
 * by another user hands that user the process (the same rule as ssh's
 * StrictModes and sudo's plugin checks).
 *
 * A file is trusted when it is owned by root or by the effective user and is
 * writable by no other user: not world-writable, and group-writable only when
 * that group is the owner's private group (its one member, counting both the
 * passwd entries whose primary group it is and the group's member list, is
 * the owner: the rule of Debian's OpenSSH for StrictModes, which is what makes
 * umask 002 with user private groups safe). Its folder must satisfy the same,
 * except that a folder writable by others may still be trusted when it has the
 * sticky bit, like /tmp, since others cannot then rename or delete the file.
 *
 * The whole path counts, as for OpenSSH's StrictModes and sudo: every folder
 * from the root down to the file, both along the path as written and along
 * the path its symbolic links lead to, must satisfy the folder rule, and
 * every symbolic link on the way must be owned by root or this user (a link
 * owned by another user could be pointed elsewhere by them). The file itself
 * is judged by fstat of the descriptor that is then read or loaded, so the
 * file checked is the file used.
 *
 * Overrides: [runtime] allow_insecure = true lets the plugins of that file
 * load anyway (with a warning). It cannot vouch for the file it is written in
 * (whoever could write the file could write the key); an insecure config file
 * is accepted only when the environment says ACCEL_ALLOW_INSECURE=1. */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pthread.h>
#include <pwd.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file.h"
#include "base/security.h"
#include "base/status.h"

static bool trusted_owner(uid_t uid)
{
    return uid == 0 || uid == geteuid();
}

/* The passwd database is walked with getpwent_r, whose position is
 * process-wide state: one walk at a time. */
static pthread_mutex_t pwent_lock = PTHREAD_MUTEX_INITIALIZER;

/* True when gid's only member is owner: every passwd entry whose primary
 * group is gid is owner, the group's member list is empty or just owner,
 * and owner is a member one way or the other. An unknown group or owner, or
 * an out-of-memory lookup, is not private. */
static bool group_is_private(gid_t gid, uid_t owner)
{
    char gbuf[16384], pbuf[16384];
    struct group grp, *gr = NULL;
    struct passwd pwd, *pw = NULL;
    if (getgrgid_r(gid, &grp, gbuf, sizeof gbuf, &gr) != 0 || !gr)
        return false;
    if (getpwuid_r(owner, &pwd, pbuf, sizeof pbuf, &pw) != 0 || !pw)
        return false;
    bool member = pw->pw_gid == gid;
    if (gr->gr_mem && gr->gr_mem[0]) {
        if (strcmp(gr->gr_mem[0], pw->pw_name) != 0 || gr->gr_mem[1])
            return false;
        member = true;
    }
    if (!member)
        return false;
    bool others = false;
    char ebuf[16384];
    struct passwd ent, *e = NULL;
    pthread_mutex_lock(&pwent_lock);
    setpwent();
    while (!others && getpwent_r(&ent, ebuf, sizeof ebuf, &e) == 0 && e)
        others = e->pw_gid == gid && e->pw_uid != owner;
    endpwent();
    pthread_mutex_unlock(&pwent_lock);
    return !others;
}

/* What is wrong with one file or folder by its stat, "" when nothing. what
 * names it in the message ("", "its folder ", "the folder ... on its path"). */
static void describe(const char *what, const char *path, const struct stat *st, char *out,
                     size_t cap)
{
    out[0] = '\0';
    unsigned mode = (unsigned)st->st_mode & 07777u;
    bool is_dir = S_ISDIR(st->st_mode);
    if (!trusted_owner(st->st_uid)) {
        snprintf(out, cap, "%s%s is owned by uid %u, neither root nor this user (uid %u)", what,
                 path, (unsigned)st->st_uid, (unsigned)geteuid());
        return;
    }
    if (is_dir && (st->st_mode & S_ISVTX))
        return;
    if (st->st_mode & S_IWOTH)
        snprintf(out, cap, "%s%s is world-writable (mode %04o)", what, path, mode);
    else if ((st->st_mode & S_IWGRP) && !group_is_private(st->st_gid, st->st_uid))
        snprintf(out, cap,
                 "%s%s is group-writable (mode %04o) and its group (gid %u) has members other "
                 "than its owner",
                 what, path, mode, (unsigned)st->st_gid);
}

/* Every folder above path (absolute) from the root down, and every symbolic
 * link among its components when links is true; the first problem goes to
 * out. Components that cannot be examined are not judged here: the caller's
 * own open reports them. */
static bool walk_problem(const char *path, bool links, char *out, size_t cap)
{
    char buf[PATH_MAX];
    size_t n = strlen(path);
    if (path[0] != '/' || n >= sizeof buf)
        return false;
    memcpy(buf, path, n + 1);
    size_t name_at = (size_t)(strrchr(buf, '/') - buf); /* the '/' before the file's name */
    for (size_t i = 0; i <= n; i++) {
        if (i < n && buf[i] != '/')
            continue;
        /* The prefix that ends before buf[i]: "/" for i = 0, the file at n. */
        char keep = buf[i];
        const char *prefix = i == 0 ? "/" : buf;
        if (i > 0)
            buf[i] = '\0';
        struct stat st;
        bool bad = false;
        if (lstat(prefix, &st) == 0) {
            if (S_ISLNK(st.st_mode) && links && !trusted_owner(st.st_uid)) {
                snprintf(out, cap,
                         "the symbolic link %s on its path is owned by uid %u, neither root nor "
                         "this user (uid %u)",
                         prefix, (unsigned)st.st_uid, (unsigned)geteuid());
                bad = true;
            } else if (i < n && S_ISDIR(st.st_mode)) {
                bool parent = i == name_at;
                describe(parent ? "its folder " : "the folder ", prefix, &st, out, cap);
                bad = out[0] != '\0';
                if (bad && !parent) {
                    size_t m = strlen(out);
                    snprintf(out + m, cap - m, " (a folder on its path)");
                }
            }
        }
        buf[i] = keep;
        if (bad)
            return true;
    }
    return false;
}

/* The path as written (its links and folders) and the path it resolves to
 * (its folders). */
static bool path_problem(const char *path, char *out, size_t cap)
{
    out[0] = '\0';
    if (walk_problem(path, true, out, cap))
        return true;
    char resolved[PATH_MAX];
    if (realpath(path, resolved) && strcmp(resolved, path) != 0)
        return walk_problem(resolved, false, out, cap);
    return false;
}

accel_status accel__security_check_config(const char *path, bool env_allow_insecure,
                                          bool file_vouches, int fd, const char *written,
                                          const char *fn)
{
    char why[1024] = "";
    struct stat st;
    if (fstat(fd, &st) == 0)
        describe("", path, &st, why, sizeof why);
    if (!why[0])
        path_problem(written, why, sizeof why);
    if (!why[0] && strcmp(written, path) != 0)
        path_problem(path, why, sizeof why);
    if (!why[0])
        return ACCEL_SUCCESS;
    if (!env_allow_insecure)
        return accel__fail(
            ACCEL_ERROR_CONFIG,
            "%s: insecure config file refused: %s, so another user could choose "
            "the code this process loads (fix the permissions, or set "
            "ACCEL_ALLOW_INSECURE=1 in the environment%s)",
            fn, why, file_vouches ? "; the file's own allow_insecure cannot vouch for itself" : "");
    accel__log(ACCEL_LOG_WARN, "insecure config file accepted (ACCEL_ALLOW_INSECURE): %s", why);
    return ACCEL_SUCCESS;
}

bool accel__security_open_plugin(const char *path, bool allow_insecure, int *out_fd, char *reason,
                                 size_t cap)
{
    *out_fd = -1;
    char why[1024] = "";
    path_problem(path, why, sizeof why);
    char resolved[PATH_MAX];
    if (!realpath(path, resolved))
        snprintf(resolved, sizeof resolved, "%s", path);
    /* The resolved path has no link left; O_NOFOLLOW refuses one put there
     * since. The descriptor is what gets loaded. */
    int fd = -1;
    if (accel__open_regular(resolved, O_RDONLY | O_NOFOLLOW, 0, "open", &fd) != ACCEL_SUCCESS) {
        snprintf(reason, cap, "%s", accel_last_error());
        return true;
    }
    struct stat st;
    if (!why[0] && fstat(fd, &st) == 0)
        describe("", resolved, &st, why, sizeof why);
    if (why[0]) {
        if (!allow_insecure) {
            close(fd);
            snprintf(reason, cap,
                     "insecure plugin refused: %s, so another user could replace the code it "
                     "runs (fix the permissions, or set allow_insecure = true in [runtime])",
                     why);
            return true;
        }
        accel__log(ACCEL_LOG_WARN, "insecure plugin loaded (allow_insecure): %s", why);
    }
    *out_fd = fd;
    return false;
}

bool accel__security_open_folder(const char *path, int *out_fd, char *why, size_t cap)
{
    *out_fd = -1;
    why[0] = '\0';
    if (path_problem(path, why, cap))
        return true;
    char resolved[PATH_MAX];
    if (!realpath(path, resolved)) {
        snprintf(why, cap, "%s: %s", path, strerror(errno));
        return true;
    }
    int fd = open(resolved, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, cap, "%s: %s", resolved, strerror(errno));
        return true;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(why, cap, "%s: %s", resolved, strerror(errno));
    } else if ((st.st_mode & S_ISVTX) && (st.st_mode & (S_IWGRP | S_IWOTH))) {
        snprintf(why, cap, "%s is %s-writable (mode %04o): another user could plant entries",
                 resolved, (st.st_mode & S_IWOTH) ? "world" : "group",
                 (unsigned)st.st_mode & 07777u);
    } else {
        describe("", resolved, &st, why, cap);
    }
    if (why[0]) {
        close(fd);
        return true;
    }
    *out_fd = fd;
    return false;
}
