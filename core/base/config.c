/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/config.c — the settings pass: plugins.ini (parsed with inih) and the
 * ACCEL_* environment, turned into one typed accel__config and validated
 * before any plugin is opened.
 *
 *   [runtime]
 *   order = cuda, cpu   ; load order; the first that loads gives the default device
 *   strict = false      ; true: a backend named in order that fails is an error
 *   ...                 ; the verify, fallback, selftest and report keys (README)
 *   [backend.NAME]
 *   library = PATH      ; relative to the file's folder unless absolute
 *   KEY = VALUE         ; passed to the plugin (host->config_get)
 *
 * Which file: the path given to accel_runtime_open, else $ACCEL_CONFIG, else
 * <folder of libaccel.so>/accel/plugins.ini (never the current directory).
 * It must be a regular file of at most CONFIG_MAX_BYTES (opened without
 * blocking, so a FIFO or /dev/zero is an error, not a hang). Malformed input
 * is ACCEL_ERROR_CONFIG with "file:line: what is wrong": a NUL byte, a line
 * longer than CONFIG_MAX_LINE characters, a section or key name longer than
 * CONFIG_MAX_NAME, a value that is not one its key takes. Unknown sections
 * and keys are kept and warned about through the log, at most
 * CONFIG_MAX_WARNINGS times per file. Bytes of the file that reach a message
 * are escaped (\xNN) unless printable, so a binary file cannot send terminal
 * escapes to the log.
 *
 * Line syntax is inih's (comments, inline comments, BOM, CRLF), with two
 * differences made here: leading whitespace is dropped before inih sees a
 * line, so an indented line is a line of its own (never the continuation of
 * the previous value), and a line longer than the system inih's buffer is
 * split here into its name and value by the same rule inih applies (the name
 * ends at the first '=' or ':', the value at a ';' after whitespace). */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/config.h"
#include "base/file.h"
#include "base/security.h"
#include "base/status.h"

/* The longest line accepted (characters, without the newline). */
#define CONFIG_MAX_LINE 4096
/* The longest section or key name (characters), on any line. */
#define CONFIG_MAX_NAME 128
/* The longest backend name (characters): the NAME of [backend.NAME], as
 * accel_device_get_by_name accepts it. */
#define CONFIG_MAX_BACKEND_NAME 31
/* The largest file read (bytes). */
#define CONFIG_MAX_BYTES (1u << 20)
/* Warnings logged per file; the rest are counted ("... and N more"). */
#define CONFIG_MAX_WARNINGS 5
/* What the reader hands inih in place of a value too long for its buffer. */
#define LONG_VALUE_MARK "\x01"

static const char *const key_names[ACCEL__KEY_COUNT] = {
#define ACCEL__X_NAME(name, text) text,
    ACCEL__RUNTIME_KEYS(ACCEL__X_NAME)
#undef ACCEL__X_NAME
};

/* ---------------------------------------------------------- small helpers */

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static char *dup_range(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static char *trim(char *s)
{
    while (is_space(*s))
        s++;
    size_t n = strlen(s);
    while (n && is_space(s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* Replace *slot by a copy of value (NULL: none); false on out of memory. */
static bool set_str(char **slot, const char *value)
{
    char *v = value ? dup_str(value) : NULL;
    if (value && !v)
        return false;
    free(*slot);
    *slot = v;
    return true;
}

const char *accel__kvlist_get(const accel__kvlist *list, const char *key)
{
    for (size_t i = 0; i < list->count; i++) {
        if (strcmp(list->items[i].key, key) == 0)
            return list->items[i].value;
    }
    return NULL;
}

/* Set key to value (replacing an earlier value); false on out of memory. */
static bool kvlist_set(accel__kvlist *list, const char *key, const char *value, int line)
{
    char *v = dup_str(value);
    if (!v)
        return false;
    for (size_t i = 0; i < list->count; i++) {
        if (strcmp(list->items[i].key, key) == 0) {
            free(list->items[i].value);
            list->items[i].value = v;
            list->items[i].line = line;
            return true;
        }
    }
    if (list->count == list->cap) {
        size_t cap = list->cap ? list->cap * 2 : 8;
        accel__kv *items = realloc(list->items, cap * sizeof *items);
        if (!items) {
            free(v);
            return false;
        }
        list->items = items;
        list->cap = cap;
    }
    char *k = dup_str(key);
    if (!k) {
        free(v);
        return false;
    }
    list->items[list->count++] = (accel__kv){k, v, line};
    return true;
}

static void kvlist_free(accel__kvlist *list)
{
    for (size_t i = 0; i < list->count; i++) {
        free(list->items[i].key);
        free(list->items[i].value);
    }
    free(list->items);
    list->items = NULL;
    list->count = list->cap = 0;
}

static accel__section *find_section(accel__config *cfg, const char *name)
{
    for (size_t i = 0; i < cfg->section_count; i++) {
        if (strcmp(cfg->sections[i].name, name) == 0)
            return &cfg->sections[i];
    }
    return NULL;
}

const accel__section *accel__config_section(const accel__config *cfg, const char *name)
{
    return find_section((accel__config *)cfg, name);
}

static void free_order(accel__config *cfg)
{
    for (size_t i = 0; i < cfg->order_count; i++)
        free(cfg->order[i]);
    free(cfg->order);
    cfg->order = NULL;
    cfg->order_count = 0;
}

void accel__config_free(accel__config *cfg)
{
    if (!cfg)
        return;
    free(cfg->path);
    free(cfg->dir);
    free_order(cfg);
    free(cfg->backend_first);
    free(cfg->verify);
    free(cfg->verify_repro_dir);
    free(cfg->kernel_cache);
    free(cfg->fallback);
    free(cfg->trace_path);
    for (size_t i = 0; i < cfg->section_count; i++) {
        free(cfg->sections[i].name);
        free(cfg->sections[i].library);
        free(cfg->sections[i].path);
        free(cfg->sections[i].written);
        kvlist_free(&cfg->sections[i].keys);
    }
    free(cfg->sections);
    free(cfg);
}

/* Backend names become device-name prefixes ("cuda:0"), so keep them plain
 * and short enough for "NAME:4294967295" to fit a device name (64 bytes). */
static bool valid_backend_name(const char *s)
{
    if (!*s || strlen(s) > CONFIG_MAX_BACKEND_NAME)
        return false;
    for (; *s; s++) {
        char c = *s;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-'))
            return false;
    }
    return true;
}

const char *accel__config_where(const accel__config *cfg, accel__key key, char *buf, size_t cap)
{
    static const char *const env_of[ACCEL__KEY_COUNT] = {
        [ACCEL__KEY_ALLOW_INSECURE] = "ACCEL_ALLOW_INSECURE",
        [ACCEL__KEY_VERIFY] = "ACCEL_VERIFY",
        [ACCEL__KEY_REPORT] = "ACCEL_REPORT",
        [ACCEL__KEY_KERNEL_CACHE] = "ACCEL_KERNEL_CACHE",
        [ACCEL__KEY_KERNEL_DEBUG] = "ACCEL_KERNEL_DEBUG"};
    if (cfg->line[key] == ACCEL__FROM_ENV && env_of[key])
        snprintf(buf, cap, "%s=", env_of[key]);
    else
        snprintf(buf, cap, "%s:%d: %s = ", cfg->path, cfg->line[key], key_names[key]);
    return buf;
}

/* ------------------------------------------------------------------ parse */

typedef struct parse_state {
    accel__config *cfg;
    FILE *file;
    int line;     /* lines handed to inih so far = inih's current line */
    size_t bytes; /* bytes read so far */
    int err_line; /* first error found by us, 0 when none */
    accel_status err_status;
    char err_msg[512];
    int warnings;           /* warnings so far, logged or not */
    int indented_bad;       /* first indented line with no '=' (a would-be continuation) */
    const char *long_value; /* the value of the current long line, else NULL */
    /* The current section, as the reader saw its header: inih itself keeps
     * only the first 49 characters of a section name, so it is handed "[s]"
     * and on_key reads the name from here. */
    char section[CONFIG_MAX_NAME + 1];
    char buf[CONFIG_MAX_LINE + 2];
} parse_state;

/* Copy s to out (cap bytes) with every byte that is not printable ASCII or
 * part of a valid UTF-8 sequence (C1 controls excluded) written as \xNN. */
static void escape_text(const char *s, char *out, size_t cap)
{
    size_t o = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p && o + 5 < cap) {
        unsigned c = *p;
        size_t n = 0; /* bytes of a valid multi-byte sequence at p */
        if (c >= 0xC2 && c <= 0xF4) {
            size_t want = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
            n = want;
            for (size_t k = 1; k < want; k++)
                if ((p[k] & 0xC0) != 0x80)
                    n = 0;
            if (n == 2 && c == 0xC2 && p[1] < 0xA0)
                n = 0; /* U+0080..U+009F: C1 control characters */
        }
        if (n && o + n < cap) {
            memcpy(out + o, p, n);
            o += n;
            p += n;
        } else if (c >= 0x20 && c < 0x7f) {
            out[o++] = (char)c;
            p++;
        } else {
            o += (size_t)snprintf(out + o, cap - o, "\\x%02X", c);
            p++;
        }
    }
    out[o] = '\0';
}

static void parse_error(parse_state *ps, accel_status st, const char *fmt, ...) ACCEL__PRINTF(3, 4);

static void parse_error(parse_state *ps, accel_status st, const char *fmt, ...)
{
    if (ps->err_line)
        return;
    ps->err_line = ps->line;
    ps->err_status = st;
    char raw[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    escape_text(raw, ps->err_msg, sizeof ps->err_msg);
}

#define PARSE_OOM(ps) parse_error(ps, ACCEL_ERROR_OUT_OF_HOST_MEMORY, "out of host memory")

/* A warning about the file (prefixed "path:line: "), escaped; only the first
 * CONFIG_MAX_WARNINGS are logged. */
static void parse_warn(parse_state *ps, const char *fmt, ...) ACCEL__PRINTF(2, 3);

static void parse_warn(parse_state *ps, const char *fmt, ...)
{
    if (++ps->warnings > CONFIG_MAX_WARNINGS)
        return;
    char raw[512], text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    escape_text(raw, text, sizeof text);
    accel__log(ACCEL_LOG_WARN, "%s:%d: %s", ps->cfg->path, ps->line, text);
}

static accel__section *add_section(parse_state *ps, const char *name)
{
    accel__config *cfg = ps->cfg;
    if (cfg->section_count == cfg->section_cap) {
        size_t cap = cfg->section_cap ? cfg->section_cap * 2 : 4;
        accel__section *s = realloc(cfg->sections, cap * sizeof *s);
        if (!s)
            return NULL;
        cfg->sections = s;
        cfg->section_cap = cap;
    }
    accel__section *sec = &cfg->sections[cfg->section_count];
    memset(sec, 0, sizeof *sec);
    sec->name = dup_str(name);
    if (!sec->name)
        return NULL;
    sec->line = ps->line;
    cfg->section_count++;
    return sec;
}

/* A section header, seen by the reader because inih does not report
 * sections without keys. */
static void on_section(parse_state *ps, const char *name)
{
    if (strlen(name) > CONFIG_MAX_NAME) {
        parse_error(ps, ACCEL_ERROR_CONFIG, "section name longer than %d characters",
                    CONFIG_MAX_NAME);
        return;
    }
    if (strcmp(name, "runtime") == 0)
        return;
    if (strncmp(name, "backend.", 8) == 0) {
        const char *bname = name + 8;
        if (!valid_backend_name(bname)) {
            parse_error(ps, ACCEL_ERROR_CONFIG,
                        "[%s]: backend name '%s' must be 1 to %d letters, digits, '_' or '-'", name,
                        bname, CONFIG_MAX_BACKEND_NAME);
            return;
        }
        if (find_section(ps->cfg, bname)) {
            parse_warn(ps, "section [%s] repeated; its keys are merged", name);
            return;
        }
        if (!add_section(ps, bname))
            PARSE_OOM(ps);
        return;
    }
    parse_warn(ps, "unknown section [%s] ignored", name);
}

/* A line too long for inih's buffer (cap bytes): hand inih a short line of
 * the same meaning in str, its value replaced by LONG_VALUE_MARK; on_key
 * takes the value from ps->long_value. p is the line without leading
 * whitespace (and not a comment or section header). */
static char *long_line(parse_state *ps, char *str, int cap, char *p)
{
    char *eq = p + strcspn(p, "=:");
    char *semi = p;
    while ((semi = strchr(semi, ';')) && !(semi > p && (semi[-1] == ' ' || semi[-1] == '\t')))
        semi++;
    if (!*eq || (semi && semi < eq)) {
        snprintf(str, (size_t)cap, "?\n"); /* inih's syntax error */
        return str;
    }
    *eq = '\0';
    char *name = trim(p);
    char *value = eq + 1;
    for (char *c = value; (c = strchr(c, ';')); c++) {
        if (c[-1] == ' ' || c[-1] == '\t') {
            *c = '\0';
            break;
        }
    }
    if (strlen(name) > CONFIG_MAX_NAME) {
        parse_error(ps, ACCEL_ERROR_CONFIG, "key name longer than %d characters", CONFIG_MAX_NAME);
        str[0] = '\0';
        return str;
    }
    ps->long_value = trim(value);
    snprintf(str, (size_t)cap, "%s = %s\n", name, LONG_VALUE_MARK);
    return str;
}

/* inih's line source: one line of the file into str (cap bytes), with our
 * own checks first (size, NUL bytes, length), leading whitespace dropped and
 * section headers noted. */
static char *line_reader(char *str, int cap, void *stream)
{
    parse_state *ps = stream;
    ps->long_value = NULL;
    size_t len = 0, nul_at = 0;
    int c;
    while ((c = fgetc(ps->file)) != EOF) {
        if (len < CONFIG_MAX_LINE + 1)
            ps->buf[len] = (char)c;
        len++;
        if (c == '\0' && !nul_at)
            nul_at = len;
        if (c == '\n' || len > CONFIG_MAX_LINE + 1)
            break;
    }
    if (len == 0 || ps->err_line)
        return NULL;
    ps->bytes += len;
    ps->line++;
    str[0] = '\0';
    if (ps->bytes > CONFIG_MAX_BYTES) {
        parse_error(ps, ACCEL_ERROR_CONFIG, "file longer than %u bytes", CONFIG_MAX_BYTES);
        return NULL;
    }
    size_t content = c == '\n' ? len - 1 : len;
    if (content > CONFIG_MAX_LINE) {
        parse_error(ps, ACCEL_ERROR_CONFIG, "line longer than %d characters", CONFIG_MAX_LINE);
        return NULL;
    }
    if (nul_at) {
        parse_error(ps, ACCEL_ERROR_CONFIG,
                    "NUL byte at column %zu (plugins.ini must be a text file)", nul_at);
        return NULL;
    }
    ps->buf[len] = '\0';
    char *p = ps->buf;
    if (ps->line == 1 && (unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB &&
        (unsigned char)p[2] == 0xBF)
        p += 3; /* a UTF-8 byte-order mark */
    bool indented = *p == ' ' || *p == '\t';
    while (*p == ' ' || *p == '\t')
        p++;
    bool comment = *p == ';' || *p == '#' || *p == '\r' || *p == '\n' || !*p;
    if (*p == '[') {
        char *end = strchr(p, ']');
        if (end) {
            char *name = dup_range(p + 1, (size_t)(end - p - 1));
            if (!name) {
                PARSE_OOM(ps);
                return NULL;
            }
            char *t = trim(name);
            on_section(ps, t);
            snprintf(ps->section, sizeof ps->section, "%s", t);
            free(name);
            snprintf(str, (size_t)cap, "[s]\n");
        } else {
            /* One error for one mistake: read on, inih would give the
             * section's keys to the one before and warn about each. */
            int n = (int)strcspn(p, "\r\n");
            parse_error(ps, ACCEL_ERROR_CONFIG, "section header '%.*s%s' has no closing ']'",
                        n > 80 ? 80 : n, p, n > 80 ? "..." : "");
            return NULL;
        }
    } else if (!comment && indented && !p[strcspn(p, "=:")] && !ps->indented_bad) {
        ps->indented_bad = ps->line;
    }
    if (str[0])
        return str;
    if (strlen(p) < (size_t)cap) {
        memcpy(str, p, strlen(p) + 1);
        return str;
    }
    if (comment)
        return str; /* an empty line */
    return long_line(ps, str, cap, p);
}

static void parse_order(parse_state *ps, const char *value)
{
    accel__config *cfg = ps->cfg;
    free_order(cfg);
    cfg->order_set = true;

    char *copy = dup_str(value);
    if (!copy) {
        PARSE_OOM(ps);
        return;
    }
    size_t n = 1;
    for (const char *c = copy; *c; c++)
        n += (*c == ',');
    cfg->order = calloc(n, sizeof *cfg->order);
    if (!cfg->order) {
        free(copy);
        PARSE_OOM(ps);
        return;
    }
    char *item = copy;
    /* An empty value means "no backend"; empty items between commas are errors. */
    if (*trim(copy) == '\0') {
        free(copy);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        char *comma = strchr(item, ',');
        if (comma)
            *comma = '\0';
        char *name = trim(item);
        if (!*name) {
            parse_error(ps, ACCEL_ERROR_CONFIG, "order = %s: empty backend name", value);
            break;
        }
        if (!valid_backend_name(name)) {
            parse_error(ps, ACCEL_ERROR_CONFIG,
                        "order = %s: '%s' is not a backend name (1 to %d letters, digits, '_', "
                        "'-')",
                        value, name, CONFIG_MAX_BACKEND_NAME);
            break;
        }
        bool twice = false;
        for (size_t j = 0; j < cfg->order_count && !twice; j++)
            twice = strcmp(cfg->order[j], name) == 0;
        if (twice) {
            parse_error(ps, ACCEL_ERROR_CONFIG, "order = %s: '%s' is named twice", value, name);
            break;
        }
        cfg->order[cfg->order_count] = dup_str(name);
        if (!cfg->order[cfg->order_count]) {
            PARSE_OOM(ps);
            break;
        }
        cfg->order_count++;
        if (!comma)
            break;
        item = comma + 1;
    }
    free(copy);
}

/* A device name as a setting's value: "NAME" or "NAME:INDEX"; off words
 * give NULL. False when it is neither. */
static bool parse_device(const char *v, char **out)
{
    if (accel__parse_off(v))
        return set_str(out, NULL), true;
    char name[CONFIG_MAX_NAME + 1];
    size_t n = strcspn(v, ":");
    if (n > CONFIG_MAX_NAME)
        return false;
    memcpy(name, v, n);
    name[n] = '\0';
    uint64_t index;
    if (!valid_backend_name(name) || (v[n] && !accel__parse_uint(v + n + 1, UINT32_MAX, &index)))
        return false;
    return set_str(out, v);
}

/* *slot = v when v is an absolute path, else v joined to the config's
 * folder dir; false when out of memory. */
static bool set_path(char **slot, const char *dir, const char *v)
{
    if (v[0] == '/')
        return set_str(slot, v);
    size_t n = strlen(dir) + strlen(v) + 2;
    char *d = malloc(n);
    if (!d)
        return false;
    snprintf(d, n, "%s/%s", dir, v);
    free(*slot);
    *slot = d;
    return true;
}

/* The field of a [runtime] key that is a boolean; NULL for the others. */
static bool *bool_field(accel__config *cfg, accel__key key)
{
    return key == ACCEL__KEY_STRICT           ? &cfg->strict
           : key == ACCEL__KEY_ALLOW_INSECURE ? &cfg->allow_insecure
           : key == ACCEL__KEY_SELFTEST       ? &cfg->selftest
           : key == ACCEL__KEY_REPORT         ? &cfg->report
           : key == ACCEL__KEY_KERNEL_DEBUG   ? &cfg->kernel_debug
                                              : NULL;
}

/* One of two words (words[0], words[1]) into *field, true for words[yes];
 * false when v is neither. */
static bool parse_choice(const char *v, const char *const *words, int yes, bool *field)
{
    int w = accel__parse_word(v, words);
    if (w >= 0)
        *field = w == yes;
    return w >= 0;
}

/* One [runtime] key into its typed field; false when value is not valid
 * (the error is set). */
static void runtime_key(parse_state *ps, accel__key key, const char *v)
{
    accel__config *cfg = ps->cfg;
    static const char *const mismatch_words[] = {"warn", "fail", NULL};
    static const char *const error_words[] = {"fallback", "fail", NULL};
    const char *why = NULL;
    bool ok = true;
    uint64_t u;
    switch (key) {
    case ACCEL__KEY_ORDER:
        parse_order(ps, v);
        cfg->line[key] = ps->line;
        return;
    case ACCEL__KEY_STRICT:
    case ACCEL__KEY_ALLOW_INSECURE:
    case ACCEL__KEY_SELFTEST:
    case ACCEL__KEY_REPORT:
    case ACCEL__KEY_KERNEL_DEBUG:
        ok = accel__parse_bool(v, bool_field(cfg, key));
        why = "is not a boolean (" ACCEL__BOOL_WORDS ")";
        break;
    case ACCEL__KEY_VERIFY:
        ok = parse_device(v, &cfg->verify);
        why = "expected a device name (cpu, cuda:1) or off";
        break;
    case ACCEL__KEY_FALLBACK:
        ok = parse_device(v, &cfg->fallback);
        why = "expected a device name (cpu, cuda:1) or none";
        break;
    case ACCEL__KEY_VERIFY_SAMPLE:
        ok = accel__parse_fraction(v, &cfg->verify_sample);
        why = "expected a fraction from 0 to 1";
        break;
    case ACCEL__KEY_VERIFY_GUARD:
        ok = accel__parse_uint(v, 4096, &u);
        if (ok)
            cfg->verify_guard = (uint32_t)u;
        why = "expected a number of elements from 0 to 4096";
        break;
    case ACCEL__KEY_VERIFY_REPRO_DIR:
        if (!*v) {
            set_str(&cfg->verify_repro_dir, NULL);
        } else if (!set_path(&cfg->verify_repro_dir, cfg->dir, v)) {
            PARSE_OOM(ps);
            return;
        }
        break;
    case ACCEL__KEY_ON_MISMATCH:
        ok = parse_choice(v, mismatch_words, 1, &cfg->verify_fail);
        why = "expected warn or fail";
        break;
    case ACCEL__KEY_KERNEL_CACHE:
        /* an off word as written, a folder joined to the config's */
        if (!(accel__parse_off(v) ? set_str(&cfg->kernel_cache, v)
                                  : set_path(&cfg->kernel_cache, cfg->dir, v))) {
            PARSE_OOM(ps);
            return;
        }
        break;
    case ACCEL__KEY_ON_ERROR:
        ok = parse_choice(v, error_words, 0, &cfg->fallback_on_oom);
        why = "expected fallback or fail";
        break;
    case ACCEL__KEY_COUNT:
        return;
    }
    if (!ok)
        parse_error(ps, ACCEL_ERROR_CONFIG, "%s = %s: %s", key_names[key], v, why);
    else
        cfg->line[key] = ps->line;
}

static int on_key(void *user, const char *inih_section, const char *name, const char *value)
{
    parse_state *ps = user;
    (void)inih_section; /* "s": the reader keeps the real name */
    const char *section = ps->section;
    accel__config *cfg = ps->cfg;
    int errors_before = ps->err_line;
    if (ps->long_value && strcmp(value, LONG_VALUE_MARK) == 0)
        value = ps->long_value;
    if (strlen(name) > CONFIG_MAX_NAME) {
        parse_error(ps, ACCEL_ERROR_CONFIG, "key name longer than %d characters", CONFIG_MAX_NAME);
        return 0;
    }

    if (!*section) {
        parse_warn(ps, "key '%s' outside any section ignored", name);
        return 1;
    }
    if (strcmp(section, "runtime") == 0) {
        int key = 0;
        while (key < ACCEL__KEY_COUNT && strcmp(key_names[key], name) != 0)
            key++;
        if (key == ACCEL__KEY_COUNT) {
            parse_warn(ps, "unknown [runtime] key '%s' ignored", name);
            return 1;
        }
        if (cfg->line[key] > 0)
            parse_warn(ps, "[runtime] %s repeated; the later value wins", name);
        runtime_key(ps, (accel__key)key, value);
    } else if (strncmp(section, "backend.", 8) == 0) {
        accel__section *sec = find_section(cfg, section + 8);
        if (!sec) /* its header had an error, reported already */
            return ps->err_line == errors_before;
        if (accel__kvlist_get(&sec->keys, name))
            parse_warn(ps, "[%s] %s repeated; the later value wins", section, name);
        if (strcmp(name, "library") == 0) {
            if (!*value)
                parse_error(ps, ACCEL_ERROR_CONFIG, "[%s] library is empty", section);
            else if (!set_str(&sec->library, value))
                PARSE_OOM(ps);
        }
        if (!kvlist_set(&sec->keys, name, value, ps->line))
            PARSE_OOM(ps);
    }
    /* Other sections were warned about at their header. */
    return ps->err_line == errors_before;
}

/* ------------------------------------------------------------ environment */

static const char *env(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

/* A boolean ACCEL_* variable into *out (and line[key] marked as from the
 * environment); ACCEL_ERROR_CONFIG naming it and its value when it holds
 * no boolean word. */
static accel_status env_bool(accel__config *cfg, const char *name, accel__key key, bool *out,
                             const char *fn)
{
    int r = accel__env_bool(name, out);
    if (r < 0)
        return accel__fail(ACCEL_ERROR_CONFIG, "%s: %s=%s: expected a boolean: %s", fn, name,
                           getenv(name), ACCEL__BOOL_WORDS);
    if (r > 0)
        cfg->line[key] = ACCEL__FROM_ENV;
    return ACCEL_SUCCESS;
}

/* The ACCEL_* variables over the file's values. */
static accel_status apply_environment(accel__config *cfg, const char *fn)
{
    const char *v;
    accel_status st;
    if ((v = env("ACCEL_VERIFY"))) {
        if (!parse_device(v, &cfg->verify))
            return accel__fail(ACCEL_ERROR_CONFIG,
                               "%s: ACCEL_VERIFY=%s: expected a device name (cpu, cuda:1) or off",
                               fn, v);
        cfg->line[ACCEL__KEY_VERIFY] = ACCEL__FROM_ENV;
    }
    if ((st = env_bool(cfg, "ACCEL_REPORT", ACCEL__KEY_REPORT, &cfg->report, fn)))
        return st;
    if ((st = env_bool(cfg, "ACCEL_KERNEL_DEBUG", ACCEL__KEY_KERNEL_DEBUG, &cfg->kernel_debug, fn)))
        return st;
    if ((st = env_bool(cfg, "ACCEL_ALLOW_INSECURE", ACCEL__KEY_ALLOW_INSECURE,
                       &cfg->env_allow_insecure, fn)))
        return st;
    if (cfg->line[ACCEL__KEY_ALLOW_INSECURE] == ACCEL__FROM_ENV)
        cfg->allow_insecure = cfg->env_allow_insecure;
    if ((v = env("ACCEL_BACKEND")) && !set_str(&cfg->backend_first, v))
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    if ((v = env("ACCEL_KERNEL_CACHE"))) {
        if (!set_str(&cfg->kernel_cache, v))
            return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
        cfg->line[ACCEL__KEY_KERNEL_CACHE] = ACCEL__FROM_ENV;
    }
    if ((v = env("ACCEL_TRACE")) && !set_str(&cfg->trace_path, v))
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    return ACCEL_SUCCESS;
}

/* ------------------------------------------------------------ find & load */

/* Any object of this library: dladdr() of it names libaccel.so. */
static const char library_anchor = 0;

/* dirname(path of libaccel.so)/accel/plugins.ini. */
static accel_status default_path(const char *fn, char *out, size_t cap)
{
    Dl_info info;
    memset(&info, 0, sizeof info);
    if (!dladdr(&library_anchor, &info) || !info.dli_fname || !*info.dli_fname)
        return accel__fail(ACCEL_ERROR_NOT_FOUND,
                           "%s: no config path given, ACCEL_CONFIG unset, and the folder of "
                           "libaccel could not be found (dladdr failed)",
                           fn);
    char lib[PATH_MAX];
    if (!realpath(info.dli_fname, lib))
        snprintf(lib, sizeof lib, "%s", info.dli_fname);
    char *slash = strrchr(lib, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(lib, sizeof lib, ".");
    int n = snprintf(out, cap, "%s/accel/plugins.ini", lib);
    if (n < 0 || (size_t)n >= cap)
        return accel__fail(ACCEL_ERROR_NOT_FOUND, "%s: default config path too long", fn);
    return ACCEL_SUCCESS;
}

static char *join_path(const char *dir, const char *rel)
{
    if (rel[0] == '/')
        return dup_str(rel);
    size_t n = strlen(dir) + 1 + strlen(rel) + 1;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, rel);
    return p;
}

/* A device setting must name a [backend.NAME] section; whether that device
 * loads is known only later (accel__policy_open). */
static accel_status check_device_key(accel__config *cfg, accel__key key, const char *value,
                                     const char *fn)
{
    if (!value)
        return ACCEL_SUCCESS;
    char name[CONFIG_MAX_NAME + 1];
    size_t n = strcspn(value, ":");
    snprintf(name, sizeof name, "%.*s", (int)n, value);
    if (find_section(cfg, name))
        return ACCEL_SUCCESS;
    char where[PATH_MAX + 64];
    accel__config_where(cfg, key, where, sizeof where);
    return accel__fail(ACCEL_ERROR_CONFIG,
                       "%s: %s%s names no loaded device: there is no [backend.%s] section in %s",
                       fn, where, value, name, cfg->path);
}

static accel_status validate(accel__config *cfg, const char *fn)
{
    for (size_t i = 0; i < cfg->section_count; i++) {
        accel__section *sec = &cfg->sections[i];
        if (!sec->library)
            return accel__fail(ACCEL_ERROR_CONFIG, "%s: %s:%d: [backend.%s] has no library key", fn,
                               cfg->path, sec->line, sec->name);
        sec->written = join_path(cfg->dir, sec->library);
        char resolved[PATH_MAX];
        if (sec->written)
            sec->path = dup_str(realpath(sec->written, resolved) ? resolved : sec->written);
        if (!sec->written || !sec->path)
            return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    }
    if (cfg->order_set) {
        for (size_t i = 0; i < cfg->order_count; i++) {
            if (!find_section(cfg, cfg->order[i]))
                return accel__fail(ACCEL_ERROR_CONFIG,
                                   "%s: %s:%d: order names '%s' but there is no [backend.%s] "
                                   "section",
                                   fn, cfg->path, cfg->line[ACCEL__KEY_ORDER], cfg->order[i],
                                   cfg->order[i]);
        }
    } else {
        /* No order: every backend section, in file order. */
        cfg->order = calloc(cfg->section_count ? cfg->section_count : 1, sizeof *cfg->order);
        if (!cfg->order)
            return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
        for (size_t i = 0; i < cfg->section_count; i++) {
            cfg->order[i] = dup_str(cfg->sections[i].name);
            if (!cfg->order[i])
                return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
            cfg->order_count++;
        }
    }
    if (cfg->backend_first && !find_section(cfg, cfg->backend_first))
        return accel__fail(ACCEL_ERROR_PLUGIN_LOAD,
                           "%s: ACCEL_BACKEND=%s but %s has no [backend.%s] section", fn,
                           cfg->backend_first, cfg->path, cfg->backend_first);
    accel_status st = check_device_key(cfg, ACCEL__KEY_VERIFY, cfg->verify, fn);
    if (st == ACCEL_SUCCESS && cfg->line[ACCEL__KEY_FALLBACK])
        st = check_device_key(cfg, ACCEL__KEY_FALLBACK, cfg->fallback, fn);
    if (st != ACCEL_SUCCESS)
        return st;
    /* The default fallback is the CPU, when there is one; strict = true
     * forbids every fallback. */
    if (cfg->strict || (!cfg->line[ACCEL__KEY_FALLBACK] && !find_section(cfg, "cpu")))
        set_str(&cfg->fallback, NULL);
    return ACCEL_SUCCESS;
}

/* Parse the open file f into cfg. */
static accel_status parse_file(accel__config *cfg, FILE *f, const char *fn)
{
    parse_state ps = {.cfg = cfg, .file = f};
    int rc = ini_parse_stream(line_reader, &ps, on_key, &ps);
    if (ps.warnings > CONFIG_MAX_WARNINGS)
        accel__log(ACCEL_LOG_WARN, "%s: ... and %d more warnings", cfg->path,
                   ps.warnings - CONFIG_MAX_WARNINGS);
    if (rc == -2 || (ps.err_line && ps.err_status == ACCEL_ERROR_OUT_OF_HOST_MEMORY))
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory reading %s", fn,
                           cfg->path);
    if (rc == -1 || ferror(f))
        return accel__fail(ACCEL_ERROR_IO, "%s: cannot read config file %s", fn, cfg->path);
    if (rc > 0 && (!ps.err_line || rc < ps.err_line))
        return accel__fail(ACCEL_ERROR_CONFIG,
                           "%s: %s:%d: syntax error: expected '[section]', 'key = value' or a "
                           "comment%s",
                           fn, cfg->path, rc,
                           rc == ps.indented_bad
                               ? " (an indented line is a line of its own, not the continuation "
                                 "of the previous value: put the value on one line)"
                               : "");
    if (ps.err_line)
        return accel__fail(ps.err_status, "%s: %s:%d: %s", fn, cfg->path, ps.err_line, ps.err_msg);
    return ACCEL_SUCCESS;
}

accel_status accel__config_load(const char *config_path, const char *fn, accel__config **out)
{
    *out = NULL;
    char chosen[PATH_MAX];
    const char *origin;
    if (config_path) {
        origin = "the path given";
        snprintf(chosen, sizeof chosen, "%s", config_path);
    } else if (env("ACCEL_CONFIG")) {
        origin = "ACCEL_CONFIG";
        snprintf(chosen, sizeof chosen, "%s", env("ACCEL_CONFIG"));
    } else {
        origin = "the default next to libaccel";
        accel_status st = default_path(fn, chosen, sizeof chosen);
        if (st != ACCEL_SUCCESS)
            return st;
    }
    if (!*chosen)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: config_path is empty", fn);

    char abs_path[PATH_MAX];
    if (!realpath(chosen, abs_path)) {
        int err = errno;
        return accel__fail(err == ENOENT || err == ENOTDIR ? ACCEL_ERROR_NOT_FOUND : ACCEL_ERROR_IO,
                           "%s: config file %s (%s): %s", fn, chosen, origin, strerror(err));
    }
    int fd;
    accel_status st = accel__open_regular(abs_path, O_RDONLY, CONFIG_MAX_BYTES, fn, &fd);
    if (st != ACCEL_SUCCESS) {
        if (st != ACCEL_ERROR_INVALID_ARGUMENT)
            return st;
        char why[1024];
        snprintf(why, sizeof why, "%s", accel_last_error());
        return accel__fail(ACCEL_ERROR_CONFIG,
                           "%s (config file from %s; name a plugins.ini file of at most %u bytes)",
                           why, origin, CONFIG_MAX_BYTES);
    }

    accel__config *cfg = calloc(1, sizeof *cfg);
    FILE *f = cfg ? fdopen(fd, "r") : NULL;
    if (!f) {
        close(fd);
        free(cfg);
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    }
    cfg->verify_sample = 1.0;
    cfg->verify_guard = 4;
    cfg->fallback_on_oom = true;
    cfg->selftest = true;
    cfg->path = dup_str(abs_path);
    char *slash = strrchr(abs_path, '/');
    cfg->dir = slash == abs_path ? dup_str("/") : dup_range(abs_path, (size_t)(slash - abs_path));
    if (!cfg->path || !cfg->dir || !set_str(&cfg->fallback, "cpu")) {
        fclose(f);
        accel__config_free(cfg);
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    }
    st = parse_file(cfg, f, fn);
    if (st == ACCEL_SUCCESS)
        st = apply_environment(cfg, fn);
    /* The trust check looks at the descriptor that was read, and after the
     * parse, so that it can tell whether the file tried to vouch for itself. */
    if (st == ACCEL_SUCCESS)
        st = accel__security_check_config(
            cfg->path, cfg->env_allow_insecure,
            cfg->line[ACCEL__KEY_ALLOW_INSECURE] > 0 && cfg->allow_insecure, fileno(f), chosen, fn);
    fclose(f);
    if (st == ACCEL_SUCCESS)
        st = validate(cfg, fn);
    if (st != ACCEL_SUCCESS) {
        accel__config_free(cfg);
        return st;
    }
    *out = cfg;
    return ACCEL_SUCCESS;
}
