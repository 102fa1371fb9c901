/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/status.c — status names and messages (from the X-macro list in
 * accel/types.h), the thread-local last-error message, the log callback and
 * level, and the library version. */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/status.h"
#include "value.h"

const char *accel_status_string(accel_status status)
{
    switch (status) {
#define ACCEL_X_STRING(name, value, msg)                                                           \
    case name:                                                                                     \
        return msg;
        ACCEL_STATUS_LIST(ACCEL_X_STRING)
#undef ACCEL_X_STRING
    }
    return "unknown status";
}

const char *accel_status_name(accel_status status)
{
    switch (status) {
#define ACCEL_X_NAME(name, value, msg)                                                             \
    case name:                                                                                     \
        return #name;
        ACCEL_STATUS_LIST(ACCEL_X_NAME)
#undef ACCEL_X_NAME
    }
    return "ACCEL_UNKNOWN_STATUS";
}

const char *accel_version(void)
{
    return ACCEL_VERSION_STRING;
}

/* ------------------------------------------------------------ last error */

static _Thread_local char tls_error[8192]; /* room for a compiler log */

const char *accel_last_error(void)
{
    return tls_error;
}

void accel__set_errorv(const char *fmt, va_list ap)
{
    /* Formatted apart first: an argument may be accel_last_error() itself
     * ("%s: ...: %s" around the previous message), which vsnprintf into the
     * same buffer would overwrite while reading it. */
    char msg[sizeof tls_error];
    vsnprintf(msg, sizeof msg, fmt, ap);
    memcpy(tls_error, msg, sizeof tls_error);
    if (accel__log_level() <= ACCEL_LOG_DEBUG)
        accel__log(ACCEL_LOG_DEBUG, "error: %s", tls_error);
}

accel_status accel_error_set(accel_status status, const char *fmt, ...)
{
    if (!fmt) { /* a plugin's or binding's bug: say so rather than crash */
        accel__set_error("%s", "accel_error_set: fmt is NULL (no message given)");
        return status;
    }
    va_list ap;
    va_start(ap, fmt);
    accel__set_errorv(fmt, ap);
    va_end(ap);
    return status;
}

void accel_log_write(int level, const char *fmt, ...)
{
    if (level < accel__log_level())
        return;
    if (!fmt) {
        accel__log(level, "%s", "accel_log_write: fmt is NULL (no message given)");
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    accel__logv(level, NULL, fmt, ap);
    va_end(ap);
}

void accel__set_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    accel__set_errorv(fmt, ap);
    va_end(ap);
}

accel_status accel__fail(accel_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    accel__set_errorv(fmt, ap);
    va_end(ap);
    return status;
}

accel_status accel__fail_relay(accel_status status, const char *fmt, ...)
{
    char plugin[sizeof tls_error];
    memcpy(plugin, tls_error, sizeof plugin);
    char head[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(head, sizeof head, fmt, ap);
    va_end(ap);
    if (!plugin[0]) {
        accel__set_error("%s: %s", head, accel_status_string(status));
        return status;
    }
    /* "accel_add" + "accel_add: x" gives "accel_add: x", not the name twice. */
    size_t hn = strlen(head);
    if (strncmp(plugin, head, hn) == 0 && plugin[hn] == ':')
        accel__set_error("%s", plugin);
    else
        accel__set_error("%s: %s", head, plugin);
    return status;
}

accel_status accel__fail_as(accel_status status, const char *fn)
{
    if (status == ACCEL_SUCCESS)
        return status;
    const char *m = tls_error;
    for (;;) { /* skip "accel_<name>: " heads, the calls fn made */
        size_t n = strspn(m, "abcdefghijklmnopqrstuvwxyz0123456789_");
        if (n <= 6 || strncmp(m, "accel_", 6) != 0 || m[n] != ':' || m[n + 1] != ' ')
            break;
        m += n + 2;
    }
    char rest[sizeof tls_error];
    snprintf(rest, sizeof rest, "%s", *m ? m : accel_status_string(status));
    accel__set_error("%s: %s", fn, rest);
    return status;
}

void accel__clear_error(void)
{
    tls_error[0] = '\0';
}

/* ------------------------------------------------------------------- log */

static atomic_int log_level = -1; /* -1: not read from $ACCEL_LOG yet */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static accel_log_fn log_fn;
static void *log_user;

static const char *const level_names[] = {"debug", "info", "warn", "error", "off"};

static int level_from_env(void)
{
    const char *env = getenv("ACCEL_LOG");
    int level;
    if (!env || !*env)
        return ACCEL_LOG_WARN;
    if (accel__parse_log_level(env, &level))
        return level;
    fprintf(stderr,
            "accel warn: ACCEL_LOG=%s is not one of debug, info, warn, error, off; "
            "using warn\n",
            env);
    return ACCEL_LOG_WARN;
}

int accel__log_level(void)
{
    int level = atomic_load_explicit(&log_level, memory_order_relaxed);
    if (level >= 0)
        return level;
    int expected = -1;
    atomic_compare_exchange_strong(&log_level, &expected, level_from_env());
    return atomic_load(&log_level);
}

void accel_set_log_level(int level)
{
    if (level < ACCEL_LOG_DEBUG)
        level = ACCEL_LOG_DEBUG;
    if (level > ACCEL_LOG_OFF)
        level = ACCEL_LOG_OFF;
    atomic_store(&log_level, level);
}

void accel_set_log_callback(accel_log_fn fn, void *user)
{
    pthread_mutex_lock(&log_lock);
    log_fn = fn;
    log_user = user;
    pthread_mutex_unlock(&log_lock);
}

void accel__logv(int level, const char *prefix, const char *fmt, va_list ap)
{
    if (level < ACCEL_LOG_DEBUG)
        level = ACCEL_LOG_DEBUG;
    if (level >= ACCEL_LOG_OFF || level < accel__log_level())
        return;
    char msg[1024];
    int n = 0;
    if (prefix && *prefix)
        n = snprintf(msg, sizeof msg, "%s: ", prefix);
    if (n < 0 || (size_t)n >= sizeof msg)
        n = 0;
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);

    pthread_mutex_lock(&log_lock);
    accel_log_fn fn = log_fn;
    void *user = log_user;
    pthread_mutex_unlock(&log_lock);
    if (fn)
        fn(level, msg, user);
    else
        fprintf(stderr, "accel %s: %s\n", level_names[level], msg);
}

void accel__log(int level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    accel__logv(level, NULL, fmt, ap);
    va_end(ap);
}
