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
 * Overrides: [runtime] allow_insecure = true lets the plugins of that file
 * load anyway (with a warning). It cannot vouch for the file it is written in
 * (whoever could write the file could write the key); an insecure config file
 * is accepted only when the environment says ACCEL_ALLOW_INSECURE=1. */
#include <errno.h>
#include <grp.h>
#include <pthread.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

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

/* What is wrong with one file or folder (is_dir) by its stat, "" when nothing. */
static void describe(const char *path, const struct stat *st, bool is_dir, char *out, size_t cap)
{
    out[0] = '\0';
    unsigned mode = (unsigned)st->st_mode & 07777u;
    const char *what = is_dir ? "its folder " : "";
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

/* Non-zero when path (or its folder) could be changed by another user; the
 * reason goes to out. A file that cannot be examined is not judged here: the
 * caller's own open or dlopen reports it. */
static bool file_problem(const char *path, char *out, size_t cap)
{
    out[0] = '\0';
    struct stat st;
    if (stat(path, &st) != 0)
        return false;
    describe(path, &st, false, out, cap);
    if (out[0])
        return true;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    if (stat(dir, &st) != 0)
        return false;
    describe(dir, &st, true, out, cap);
    return out[0] != '\0';
}

static bool env_allows(void)
{
    const char *v = getenv("ACCEL_ALLOW_INSECURE");
    return v && (strcmp(v, "1") == 0 || strcasecmp(v, "true") == 0 || strcasecmp(v, "yes") == 0);
}

accel_status accel__security_check_config(accel__config *cfg, const char *fn)
{
    bool allow = false;
    const char *v = accel__config_runtime_get(cfg, "allow_insecure");
    if (v) {
        int line = 0;
        for (size_t i = 0; i < cfg->runtime.count; i++) {
            if (strcmp(cfg->runtime.items[i].key, "allow_insecure") == 0)
                line = cfg->runtime.items[i].line;
        }
        if (strcasecmp(v, "true") == 0 || strcasecmp(v, "yes") == 0 || strcasecmp(v, "on") == 0 ||
            strcmp(v, "1") == 0)
            allow = true;
        else if (!(strcasecmp(v, "false") == 0 || strcasecmp(v, "no") == 0 ||
                   strcasecmp(v, "off") == 0 || strcmp(v, "0") == 0))
            return accel__fail(ACCEL_ERROR_CONFIG,
                               "%s: %s:%d: allow_insecure = %s is not a boolean (true or false)",
                               fn, cfg->path, line, v);
    }

    char why[1024];
    if (file_problem(cfg->path, why, sizeof why)) {
        if (!env_allows())
            return accel__fail(ACCEL_ERROR_CONFIG,
                               "%s: insecure config file refused: %s, so another user could "
                               "choose the code this process loads (fix the permissions, or set "
                               "ACCEL_ALLOW_INSECURE=1 in the environment%s)",
                               fn, why,
                               allow ? "; the file's own allow_insecure cannot vouch for itself"
                                     : "");
        accel__log(ACCEL_LOG_WARN, "insecure config file accepted (ACCEL_ALLOW_INSECURE): %s",
                   why);
    }
    for (size_t i = 0; i < cfg->section_count; i++)
        cfg->sections[i].allow_insecure = allow;
    return ACCEL_SUCCESS;
}

bool accel__security_plugin_refused(const char *path, const accel__section *sec, char *reason,
                                    size_t cap)
{
    char why[1024];
    if (!file_problem(path, why, sizeof why))
        return false;
    if ((sec && sec->allow_insecure) || env_allows()) {
        accel__log(ACCEL_LOG_WARN, "insecure plugin loaded (allow_insecure): %s", why);
        return false;
    }
    snprintf(reason, cap,
             "insecure plugin refused: %s, so another user could replace the code it runs (fix "
             "the permissions, or set allow_insecure = true in [runtime])",
             why);
    return true;
}
