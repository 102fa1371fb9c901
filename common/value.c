/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* common/value.c — the value parsers of every setting: booleans, fractions,
 * bounded integers, one-of-a-list words and log levels (value.h). The core's
 * config.c uses them for plugins.ini and the ACCEL_* environment, status.c
 * for ACCEL_LOG, libaccel_mpi for ACCEL_MPI_*. They only parse: the caller
 * words the error, since it knows where the text came from (file:line or the
 * variable's name). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "value.h"

#include "accel/types.h" /* ACCEL_LOG_* */

bool accel__parse_bool(const char *text, bool *out)
{
    static const char *const yes[] = {"true", "yes", "on", "1"};
    static const char *const no[] = {"false", "no", "off", "0"};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) {
        if (strcasecmp(text, yes[i]) == 0) {
            *out = true;
            return true;
        }
        if (strcasecmp(text, no[i]) == 0) {
            *out = false;
            return true;
        }
    }
    return false;
}

bool accel__parse_fraction(const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end || errno || !(v >= 0 && v <= 1))
        return false;
    *out = v;
    return true;
}

bool accel__parse_uint(const char *text, uint64_t max, uint64_t *out)
{
    if (!(*text >= '0' && *text <= '9'))
        return false; /* no sign, no space, no empty text */
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end || errno || v > max)
        return false;
    *out = v;
    return true;
}

int accel__parse_word(const char *text, const char *const *words)
{
    for (int i = 0; words[i]; i++)
        if (strcasecmp(text, words[i]) == 0)
            return i;
    return -1;
}

bool accel__parse_off(const char *text)
{
    static const char *const off[] = {"", "off", "none", "false", "no", "0", NULL};
    return accel__parse_word(text, off) >= 0;
}

bool accel__parse_log_level(const char *text, int *out)
{
    static const char *const names[] = {"debug", "info", "warn", "error", "off", NULL};
    int i = accel__parse_word(text, names);
    if (i < 0 && strcasecmp(text, "warning") == 0)
        i = ACCEL_LOG_WARN;
    if (i < 0)
        return false;
    *out = i;
    return true;
}

int accel__env_bool(const char *name, bool *out)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return 0;
    return accel__parse_bool(v, out) ? 1 : -1;
}
