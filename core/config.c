/* core/config.c — finding and parsing plugins.ini (with inih).
 *
 *   [runtime]
 *   order = cuda, cpu   ; load order; the first that loads gives the default device
 *   strict = false      ; true: a backend named in order that fails is an error
 *   [backend.NAME]
 *   library = PATH      ; relative to the file's folder unless absolute
 *   KEY = VALUE         ; passed to the plugin (host->config_get)
 *
 * Which file: the path given to accel_runtime_open, else $ACCEL_CONFIG, else
 * <folder of libaccel.so>/accel/plugins.ini (never the current directory).
 * Malformed input is ACCEL_ERROR_CONFIG with "file:line: what is wrong"
 * (also a folder given as the file, a NUL byte, a line longer than
 * CONFIG_MAX_LINE characters); unknown sections and keys are kept and warned
 * about through the log, at most CONFIG_MAX_WARNINGS times per file. Bytes of
 * the file that reach a message are escaped (\xNN) unless printable, so a
 * binary file cannot send terminal escapes to the log. */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <ini.h>

#include "internal.h"

/* [runtime] keys this version understands; others are kept (for newer
 * runtimes reading the same file) and warned about. */
static const char *const known_runtime_keys[] = {"order", "strict", "allow_insecure",
    /* verify.c, fallback.c, report.c, selftest.c */
    "verify", "verify_sample", "verify_repro_dir", "verify_guard", "on_mismatch", "on_error",
    "fallback", "selftest", "report",
    /* kernel_cache.c */
    "kernel_cache", NULL};

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

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
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

const char *accel__config_runtime_get(const accel__config *cfg, const char *key)
{
    return accel__kvlist_get(&cfg->runtime, key);
}

void accel__config_free(accel__config *cfg)
{
    if (!cfg)
        return;
    free(cfg->path);
    free(cfg->dir);
    kvlist_free(&cfg->runtime);
    for (size_t i = 0; i < cfg->order_count; i++)
        free(cfg->order[i]);
    free(cfg->order);
    for (size_t i = 0; i < cfg->section_count; i++) {
        free(cfg->sections[i].name);
        free(cfg->sections[i].library);
        free(cfg->sections[i].path);
        kvlist_free(&cfg->sections[i].keys);
    }
    free(cfg->sections);
    free(cfg);
}

/* Backend names become device-name prefixes ("cuda:0"), so keep them plain. */
static bool valid_backend_name(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++) {
        char c = *s;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-'))
            return false;
    }
    return true;
}

/* ------------------------------------------------------------------ parse */

/* The longest line accepted (characters, without the newline). inih itself
 * takes lines of INI_MAX_LINE (200) bytes at most; longer lines are split by
 * line_reader below so that long paths still fit. */
#define CONFIG_MAX_LINE 4096
/* Warnings logged per file; the rest are counted ("... and N more"). */
#define CONFIG_MAX_WARNINGS 5
/* What line_reader hands inih in place of a long value (see on_key). */
#define LONG_VALUE_MARK "\x01"

typedef struct parse_state {
    accel__config *cfg;
    FILE *file;
    int line;      /* lines handed to inih so far = inih's current line */
    bool prev_key; /* a key was seen since the last section header (inih's
                      condition for treating an indented line as a value
                      continuation) */
    int err_line;  /* first error found by us, 0 when none */
    accel_status err_status;
    char err_msg[512];
    int warnings;           /* warnings so far, logged or not */
    const char *long_value; /* the value of the current long line, else NULL */
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
    accel__section *sec = find_section(cfg, name);
    if (sec)
        return sec;
    if (cfg->section_count == cfg->section_cap) {
        size_t cap = cfg->section_cap ? cfg->section_cap * 2 : 4;
        accel__section *s = realloc(cfg->sections, cap * sizeof *s);
        if (!s)
            return NULL;
        cfg->sections = s;
        cfg->section_cap = cap;
    }
    sec = &cfg->sections[cfg->section_count];
    memset(sec, 0, sizeof *sec);
    sec->name = dup_str(name);
    if (!sec->name)
        return NULL;
    sec->line = ps->line;
    cfg->section_count++;
    return sec;
}

/* A section header, seen by the line reader because inih does not report
 * sections without keys. */
static void on_section(parse_state *ps, const char *name)
{
    if (strcmp(name, "runtime") == 0)
        return;
    if (strncmp(name, "backend.", 8) == 0) {
        const char *bname = name + 8;
        if (!valid_backend_name(bname)) {
            parse_error(ps, ACCEL_ERROR_CONFIG,
                        "[%s]: backend name '%s' must be non-empty letters, digits, '_' or '-'",
                        name, bname);
            return;
        }
        if (find_section(ps->cfg, bname)) {
            parse_warn(ps, "section [%s] repeated; its keys are merged", name);
            return;
        }
        if (!add_section(ps, bname))
            parse_error(ps, ACCEL_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
        return;
    }
    parse_warn(ps, "unknown section [%s] ignored", name);
}

/* inih's find_chars_or_comment: the first of chars, or a ';' that follows
 * whitespace (an inline comment), or the end. */
static char *find_chars_or_comment(char *s, const char *chars)
{
    bool was_space = false;
    while (*s && (!chars || !strchr(chars, *s)) && !(was_space && *s == ';')) {
        was_space = *s == ' ' || *s == '\t' || *s == '\r' || *s == '\n';
        s++;
    }
    return s;
}

/* A line longer than inih's buffer (num bytes): parse it as inih would and
 * hand inih a short line with the same meaning, its value replaced by
 * LONG_VALUE_MARK; on_key takes the value from ps->long_value. p is the line
 * after its leading whitespace (indented: there was some). */
static char *long_line(parse_state *ps, char *str, int num, char *p, bool indented)
{
    char *v;
    str[0] = '\0';
    if (*p == ';' || *p == '#' || *p == '\0')
        return str; /* a comment or a blank line */
    if (indented && ps->prev_key) {
        v = p; /* a continuation of the previous key's value */
        snprintf(str, (size_t)num, " %s\n", LONG_VALUE_MARK);
    } else if (*p == '[') {
        parse_error(ps, ACCEL_ERROR_CONFIG, "section header longer than %d characters", num - 3);
        return str;
    } else {
        char *end = find_chars_or_comment(p, "=:");
        if (*end != '=' && *end != ':') {
            snprintf(str, (size_t)num, "?\n"); /* inih's syntax error */
            return str;
        }
        *end = '\0';
        char *name = trim(p);
        if (strlen(name) + 8 > (size_t)num) {
            parse_error(ps, ACCEL_ERROR_CONFIG, "key name longer than %d characters", num - 8);
            return str;
        }
        v = end + 1;
        snprintf(str, (size_t)num, "%s = %s\n", name, LONG_VALUE_MARK);
    }
    char *c = find_chars_or_comment(v, NULL);
    *c = '\0';
    ps->long_value = trim(v);
    return str;
}

/* inih's line source: one line of the file into str (num bytes), with our
 * own checks first (NUL bytes, length) and section headers noted. */
static char *line_reader(char *str, int num, void *stream)
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
        if (c == '\n')
            break;
    }
    if (len == 0)
        return NULL;
    ps->line++;
    size_t content = c == '\n' ? len - 1 : len;
    str[0] = '\0';
    if (content > CONFIG_MAX_LINE) {
        parse_error(ps, ACCEL_ERROR_CONFIG, "line longer than %d characters", CONFIG_MAX_LINE);
        return str;
    }
    if (nul_at) {
        parse_error(ps, ACCEL_ERROR_CONFIG,
                    "NUL byte at column %zu (plugins.ini must be a text file)", nul_at);
        return str;
    }
    ps->buf[len] = '\0';
    char *p = ps->buf;
    if (ps->line == 1 && (unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB &&
        (unsigned char)p[2] == 0xBF)
        p += 3;
    bool indented = (*p == ' ' || *p == '\t');
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '[' && !(indented && ps->prev_key)) {
        char *end = strchr(p, ']');
        if (end) {
            char *name = dup_range(p + 1, (size_t)(end - p - 1));
            if (!name) {
                parse_error(ps, ACCEL_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
            } else {
                on_section(ps, trim(name));
                free(name);
            }
            ps->prev_key = false;
        }
    }
    if (len < (size_t)num) {
        memcpy(str, ps->buf, len + 1);
        return str;
    }
    return long_line(ps, str, num, p, indented);
}

static bool parse_bool(const char *v, bool *out)
{
    static const char *const yes[] = {"true", "yes", "on", "1"};
    static const char *const no[] = {"false", "no", "off", "0"};
    for (size_t i = 0; i < 4; i++) {
        if (strcasecmp(v, yes[i]) == 0) {
            *out = true;
            return true;
        }
        if (strcasecmp(v, no[i]) == 0) {
            *out = false;
            return true;
        }
    }
    return false;
}

static void parse_order(parse_state *ps, const char *value)
{
    accel__config *cfg = ps->cfg;
    for (size_t i = 0; i < cfg->order_count; i++)
        free(cfg->order[i]);
    free(cfg->order);
    cfg->order = NULL;
    cfg->order_count = 0;
    cfg->order_set = true;

    char *copy = dup_str(value);
    if (!copy) {
        parse_error(ps, ACCEL_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
        return;
    }
    size_t n = 1;
    for (const char *c = copy; *c; c++)
        n += (*c == ',');
    cfg->order = calloc(n, sizeof *cfg->order);
    if (!cfg->order) {
        free(copy);
        parse_error(ps, ACCEL_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
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
                        "order = %s: '%s' is not a backend name (letters, digits, '_', '-')", value,
                        name);
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
            parse_error(ps, ACCEL_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
            break;
        }
        cfg->order_count++;
        if (!comma)
            break;
        item = comma + 1;
    }
    free(copy);
}

static int on_key(void *user, const char *section, const char *name, const char *value)
{
    parse_state *ps = user;
    accel__config *cfg = ps->cfg;
    int errors_before = ps->err_line;
    ps->prev_key = true;
    if (ps->long_value && strcmp(value, LONG_VALUE_MARK) == 0)
        value = ps->long_value;

    if (!*section) {
        parse_warn(ps, "key '%s' outside any section ignored", name);
        return 1;
    }
    if (strcmp(section, "runtime") == 0) {
        if (accel__kvlist_get(&cfg->runtime, name))
            parse_warn(ps, "[runtime] %s repeated; the later value wins", name);
        if (strcmp(name, "order") == 0) {
            parse_order(ps, value);
        } else if (strcmp(name, "strict") == 0) {
            if (!parse_bool(value, &cfg->strict))
                parse_error(ps, ACCEL_ERROR_CONFIG, "strict = %s is not a boolean (true or false)",
                            value);
        } else {
            bool known = false;
            for (size_t i = 0; known_runtime_keys[i]; i++)
                known = known || strcmp(known_runtime_keys[i], name) == 0;
            if (!known)
                parse_warn(ps, "unknown [runtime] key '%s' ignored", name);
        }
        if (!kvlist_set(&cfg->runtime, name, value, ps->line))
            parse_error(ps, ACCEL_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    } else if (strncmp(section, "backend.", 8) == 0) {
        accel__section *sec = find_section(cfg, section + 8);
        if (!sec) /* its header had an error, reported already */
            return ps->err_line == errors_before;
        if (accel__kvlist_get(&sec->keys, name))
            parse_warn(ps, "[%s] %s repeated; the later value wins", section, name);
        if (strcmp(name, "library") == 0) {
            if (!*value) {
                parse_error(ps, ACCEL_ERROR_CONFIG, "[%s] library is empty", section);
            } else {
                free(sec->library);
                sec->library = dup_str(value);
                if (!sec->library)
                    parse_error(ps, ACCEL_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
            }
        }
        if (!kvlist_set(&sec->keys, name, value, ps->line))
            parse_error(ps, ACCEL_ERROR_OUT_OF_HOST_MEMORY, "out of host memory");
    }
    /* Other sections were warned about at their header. */
    return ps->err_line == errors_before;
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
    int n = snprintf(out, cap,
                     "%s/"
                     "accel"
                     "/plugins.ini",
                     lib);
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

static accel_status validate(parse_state *ps, const char *fn)
{
    accel__config *cfg = ps->cfg;
    for (size_t i = 0; i < cfg->section_count; i++) {
        accel__section *sec = &cfg->sections[i];
        if (!sec->library)
            return accel__fail(ACCEL_ERROR_CONFIG, "%s: %s:%d: [backend.%s] has no library key", fn,
                               cfg->path, sec->line, sec->name);
        char *joined = join_path(cfg->dir, sec->library);
        if (!joined)
            return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
        char resolved[PATH_MAX];
        if (realpath(joined, resolved)) {
            free(joined);
            sec->path = dup_str(resolved);
        } else {
            sec->path = joined;
        }
        if (!sec->path)
            return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    }
    if (cfg->order_set) {
        int line = 0;
        for (size_t i = 0; i < cfg->runtime.count; i++) {
            if (strcmp(cfg->runtime.items[i].key, "order") == 0)
                line = cfg->runtime.items[i].line;
        }
        for (size_t i = 0; i < cfg->order_count; i++) {
            if (!find_section(cfg, cfg->order[i]))
                return accel__fail(ACCEL_ERROR_CONFIG,
                                   "%s: %s:%d: order names '%s' but there is no [backend.%s] "
                                   "section",
                                   fn, cfg->path, line, cfg->order[i], cfg->order[i]);
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
    } else if (getenv("ACCEL_CONFIG") && *getenv("ACCEL_CONFIG")) {
        origin = "ACCEL_CONFIG";
        snprintf(chosen, sizeof chosen, "%s", getenv("ACCEL_CONFIG"));
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

    struct stat sb;
    if (stat(abs_path, &sb) == 0 && S_ISDIR(sb.st_mode))
        return accel__fail(ACCEL_ERROR_CONFIG,
                           "%s: config file %s (%s) is a directory; name the plugins.ini file", fn,
                           chosen, origin);

    accel__config *cfg = calloc(1, sizeof *cfg);
    if (!cfg)
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    cfg->path = dup_str(abs_path);
    char *slash = strrchr(abs_path, '/');
    cfg->dir = slash == abs_path ? dup_str("/") : dup_range(abs_path, (size_t)(slash - abs_path));
    if (!cfg->path || !cfg->dir) {
        accel__config_free(cfg);
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", fn);
    }

    FILE *f = fopen(abs_path, "r");
    if (!f) {
        int err = errno;
        accel__config_free(cfg);
        return accel__fail(ACCEL_ERROR_IO, "%s: cannot open config file %s: %s", fn, abs_path,
                           strerror(err));
    }
    parse_state ps = {.cfg = cfg, .file = f};
    int rc = ini_parse_stream(line_reader, &ps, on_key, &ps);
    fclose(f);
    if (ps.warnings > CONFIG_MAX_WARNINGS)
        accel__log(ACCEL_LOG_WARN, "%s: ... and %d more warnings", cfg->path,
                   ps.warnings - CONFIG_MAX_WARNINGS);

    accel_status st = ACCEL_SUCCESS;
    if (rc == -2 || (ps.err_line && ps.err_status == ACCEL_ERROR_OUT_OF_HOST_MEMORY)) {
        st = accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory reading %s", fn,
                         cfg->path);
    } else if (rc == -1) {
        st = accel__fail(ACCEL_ERROR_IO, "%s: cannot read config file %s", fn, cfg->path);
    } else if (rc > 0 && (!ps.err_line || rc < ps.err_line)) {
        st = accel__fail(ACCEL_ERROR_CONFIG,
                         "%s: %s:%d: syntax error: expected '[section]', 'key = value' or a "
                         "comment",
                         fn, cfg->path, rc);
    } else if (ps.err_line) {
        st = accel__fail(ps.err_status, "%s: %s:%d: %s", fn, cfg->path, ps.err_line, ps.err_msg);
    } else {
        st = validate(&ps, fn);
        if (st == ACCEL_SUCCESS)
            st = accel__security_check_config(cfg, fn);
    }
    if (st != ACCEL_SUCCESS) {
        accel__config_free(cfg);
        return st;
    }
    *out = cfg;
    return ACCEL_SUCCESS;
}
