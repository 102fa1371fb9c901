/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/kernel_cache.c — compiled user kernels, cached in memory and on disk.
 *
 * Key: SHA-256 (OpenSSL's libcrypto) of a format tag, the plugin ABI
 * version, the backend's name, the backend's program_identity (compiler,
 * its version, the target architecture and the options it compiles with),
 * the language, the entry and the generated source (which holds the user's
 * text, the scalar layout and every option the core adds).
 *
 * Disk entries: <dir>/<64 hex digits>.akc = a header (magic, format, payload
 * length, the key, SHA-256 of the payload) and the payload (what the
 * backend's program_build gave as its binary: a cubin, a shared object).
 * An entry is loaded only when its size, key and payload hash check out; a
 * bad one is counted as rebuilt and replaced. The payload hash is for
 * integrity only (a torn or bit-flipped file), not authenticity: anyone who
 * can write the folder can write a consistent entry for a key they compute,
 * which is why the folder itself must be trusted (below). Writes go to a temporary file
 * in the same folder, then rename(2): readers see the old entry or the new
 * one, never half of one, and two processes building the same kernel at
 * once both succeed (the last rename wins; both entries are valid).
 * Compiles run outside the cache's lock, so threads build in parallel.
 *
 * The folder: $ACCEL_KERNEL_CACHE, else [runtime] kernel_cache (relative:
 * to the config file's folder), else $XDG_CACHE_HOME/accel/kernels, else
 * ~/.cache/accel/kernels; "off" turns the disk cache off. It holds code
 * that will run, so it is checked as plugins are (security.c: every folder
 * and link on its path, as written and as resolved; the folder itself
 * writable by no other user, sticky bit or not) and then held open: entries
 * are opened relative to that descriptor (openat), so swapping a folder on
 * the path after the check changes nothing. A folder refused, blank, too
 * long, or that cannot be created or written leaves the cache in memory
 * only (one warning; a failed write, a full disk, warns once).
 *
 * Loaded programs are kept per (key, device) until the runtime closes and
 * handed out again on a memory hit, so kernels built from one source share
 * one loaded copy (the CPU backend's loaded copy holds a descriptor). */
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/config.h"
#include "base/objects.h"
#include "base/security.h"
#include "base/status.h"
#include "base/struct_size.h"
#include "kernels/kernel_cache.h"

#define KC_MAGIC "ACCELKC\001"
#define KC_FORMAT 1u

typedef struct kc_header {
    char magic[8];
    uint32_t format;
    uint32_t reserved0;
    uint64_t payload_size;
    unsigned char key[32];
    unsigned char payload_hash[32];
} kc_header;

typedef struct kc_blob {
    struct kc_blob *next;
    unsigned char key[32];
    void *data;
    size_t size;
} kc_blob;

typedef struct kc_prog {
    struct kc_prog *next;
    accel_device *dev;
    accel_be_program *prog;
    bool keyed; /* key is the program's cache key (identity known) */
    unsigned char key[32];
} kc_prog;

typedef struct accel__kcache {
    pthread_mutex_t lock;
    bool resolved, disk, warned, write_warned;
    int dirfd; /* the folder checked, held open; -1 without a disk cache */
    char dir[1024];
    char reason[256];
    kc_blob *blobs;
    kc_prog *progs;
    uint64_t memory_hits, disk_hits, misses, rebuilt, failures, tmp_serial;
    double compile_ms, load_ms;
} accel__kcache;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static accel__kcache *kcache_get(accel_runtime *rt)
{
    pthread_mutex_lock(&rt->lock);
    if (!rt->kcache) {
        accel__kcache *c = calloc(1, sizeof *c);
        if (c) {
            pthread_mutex_init(&c->lock, NULL);
            c->dirfd = -1;
            rt->kcache = c;
        }
    }
    accel__kcache *c = rt->kcache;
    pthread_mutex_unlock(&rt->lock);
    return c;
}

static bool sha256(const void *data, size_t size, unsigned char out[32])
{
    unsigned int n = 0;
    return EVP_Digest(data, size, out, &n, EVP_sha256(), NULL) == 1 && n == 32;
}

/* SHA-256 of the NUL-separated fields. */
static bool make_key(const char *const *fields, size_t count, unsigned char out[32])
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    bool ok = ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) == 1;
    for (size_t i = 0; ok && i < count; i++)
        ok = EVP_DigestUpdate(ctx, fields[i], strlen(fields[i]) + 1) == 1;
    unsigned int n = 0;
    ok = ok && EVP_DigestFinal_ex(ctx, out, &n) == 1 && n == 32;
    EVP_MD_CTX_free(ctx);
    return ok;
}

/* ------------------------------------------------------------ the folder */

/* mkdir -p with mode 0700 for the folders it creates. */
static int make_dirs(const char *path)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

static void disable(accel__kcache *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void disable(accel__kcache *c, const char *fmt, ...)
{
    c->disk = false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->reason, sizeof c->reason, fmt, ap);
    va_end(ap);
    if (!c->warned) {
        c->warned = true;
        accel__log(ACCEL_LOG_WARN, "kernel cache: %s; compiled kernels are kept in memory only",
                   c->reason);
    }
}

/* The folder's absolute path from v (or the default) into path; false,
 * with the cache disabled, when there is none or it does not fit (a path
 * cut short would name another folder). */
static bool cache_path(accel__kcache *c, const char *v, const char *src, char *path, size_t cap)
{
    int n;
    if (v && *v) {
        n = snprintf(path, cap, "%s", v);
    } else {
        const char *xdg = getenv("XDG_CACHE_HOME");
        const char *home = getenv("HOME");
        if (xdg && xdg[0] == '/')
            n = snprintf(path, cap, "%s/accel/kernels", xdg);
        else if (home && home[0] == '/')
            n = snprintf(path, cap, "%s/.cache/accel/kernels", home);
        else {
            disable(c, "no cache folder (neither XDG_CACHE_HOME nor HOME is set)");
            return false;
        }
        src = "the default folder";
    }
    if (n < 0 || (size_t)n >= cap) {
        disable(c, "the cache folder of %s is longer than %zu characters", src, cap - 1);
        return false;
    }
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/')
        path[--len] = '\0';
    if (path[0] != '/') {
        char cwd[1024], rel[1024];
        if (!getcwd(cwd, sizeof cwd)) {
            disable(c, "cannot resolve the relative cache folder %.150s: %s", path,
                    strerror(errno));
            return false;
        }
        snprintf(rel, sizeof rel, "%s", path);
        n = snprintf(path, cap, "%s/%s", cwd, rel);
        if (n < 0 || (size_t)n >= cap) {
            disable(c, "the cache folder of %s is longer than %zu characters", src, cap - 1);
            return false;
        }
    }
    return true;
}

/* c->lock held. */
static void resolve_dir(accel_runtime *rt, accel__kcache *c)
{
    if (c->resolved)
        return;
    c->resolved = true;
    c->disk = false;
    /* ACCEL_KERNEL_CACHE over [runtime] kernel_cache (config.c; relative
     * folders of the file are joined to its folder there). */
    const char *v = rt->cfg ? rt->cfg->kernel_cache : NULL;
    const char *src = rt->cfg && rt->cfg->line[ACCEL__KEY_KERNEL_CACHE] == ACCEL__FROM_ENV
                          ? "ACCEL_KERNEL_CACHE"
                          : "[runtime] kernel_cache";
    if (v &&
        (strcasecmp(v, "off") == 0 || strcasecmp(v, "none") == 0 || strcasecmp(v, "false") == 0)) {
        snprintf(c->reason, sizeof c->reason, "turned off by %s", src);
        return;
    }
    /* Blank is a mistake, not a request for a folder named by spaces. */
    if (v && *v && strspn(v, " \t\r\n") == strlen(v)) {
        disable(c, "%s is blank (use \"off\" to turn the disk cache off)", src);
        return;
    }
    char path[1024];
    if (!cache_path(c, v, src, path, sizeof path))
        return;
    if (make_dirs(path) != 0) {
        disable(c, "cannot create the folder %.150s: %s", path, strerror(errno));
        return;
    }
    char why[512];
    int fd = -1;
    if (accel__security_open_folder(path, &fd, why, sizeof why)) {
        disable(c, "refused the cache folder: %.200s", why);
        return;
    }
    c->dirfd = fd;
    snprintf(c->dir, sizeof c->dir, "%s", path);
    c->disk = true;
    c->reason[0] = '\0';
}

/* The entry's file name in the folder: 64 hex digits and ".akc". */
static void entry_name(const unsigned char key[32], char out[70])
{
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", key[i]);
    memcpy(out + 64, ".akc", 5);
}

/* The payload of a valid entry (malloc'ed), NULL when absent or bad
 * (*bad set when the file exists but fails its checks). */
static void *disk_read(const accel__kcache *c, const unsigned char key[32], size_t *size, bool *bad)
{
    *bad = false;
    char name[70];
    entry_name(key, name);
    int fd = openat(c->dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return NULL;
    struct stat st;
    kc_header h;
    void *data = NULL;
    *bad = true;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size < sizeof h ||
        read(fd, &h, sizeof h) != (ssize_t)sizeof h || memcmp(h.magic, KC_MAGIC, 8) != 0 ||
        h.format != KC_FORMAT || memcmp(h.key, key, 32) != 0 ||
        h.payload_size != (uint64_t)st.st_size - sizeof h || h.payload_size == 0)
        goto out;
    data = malloc(h.payload_size);
    if (!data)
        goto out;
    size_t got = 0;
    while (got < h.payload_size) {
        ssize_t r = read(fd, (char *)data + got, h.payload_size - got);
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    unsigned char hash[32];
    if (got != h.payload_size || !sha256(data, got, hash) || memcmp(hash, h.payload_hash, 32)) {
        free(data);
        data = NULL;
        goto out;
    }
    *size = got;
    *bad = false;
out:
    close(fd);
    return data;
}

static bool write_all(int fd, const void *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w <= 0)
            return false;
        p = (const char *)p + w;
        n -= (size_t)w;
    }
    return true;
}

/* A failed entry write (a full disk): warned about once per runtime, the
 * rest at debug level, so a build loop does not flood the log. */
static void write_failed(accel__kcache *c, const char *name, int err)
{
    int level = c->write_warned ? ACCEL_LOG_DEBUG : ACCEL_LOG_WARN;
    c->write_warned = true;
    accel__log(level, "kernel cache: cannot write %s/%s: %s%s", c->dir, name, strerror(err),
               level == ACCEL_LOG_WARN ? " (further failed writes are logged at debug level)" : "");
}

/* c->lock held. */
static void disk_write(accel__kcache *c, const unsigned char key[32], const void *data, size_t size)
{
    kc_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, KC_MAGIC, 8);
    h.format = KC_FORMAT;
    h.payload_size = size;
    memcpy(h.key, key, 32);
    if (!sha256(data, size, h.payload_hash))
        return;
    char name[70], tmp[128];
    entry_name(key, name);
    snprintf(tmp, sizeof tmp, "%s.%ld.%llu.tmp", name, (long)getpid(),
             (unsigned long long)++c->tmp_serial);
    int fd = openat(c->dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
        if (errno == EACCES || errno == EROFS || errno == EPERM || errno == ENOENT)
            disable(c, "cannot write to the cache folder (%.150s): %s", c->dir, strerror(errno));
        else
            write_failed(c, name, errno);
        return;
    }
    bool ok = write_all(fd, &h, sizeof h) && write_all(fd, data, size);
    int err = errno;
    if (close(fd) != 0) {
        err = ok ? errno : err;
        ok = false;
    }
    if (!ok || renameat(c->dirfd, tmp, c->dirfd, name) != 0) {
        if (ok)
            err = errno;
        unlinkat(c->dirfd, tmp, 0);
        write_failed(c, name, err);
    }
}

/* A load of a disk entry is bracketed by a marker file (its name and
 * ".loading"), made before the backend gets the binary and removed after:
 * a driver that aborts on a binary (PoCL asserted on one it had written
 * while another process built the same program) then costs one crash, not
 * one per process for good. True when the marker was made (or cannot be,
 * on a read-only folder: the load goes ahead); false when one was there: a
 * load of this entry died, or another process is loading it now. The
 * marker is removed then (the entry is rebuilt and written again). */
static bool loading_mark(const accel__kcache *c, const unsigned char key[32], char mark[80])
{
    entry_name(key, mark);
    memcpy(mark + 68, ".loading", 9);
    int fd = openat(c->dirfd, mark, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd >= 0) {
        close(fd);
        return true;
    }
    if (errno != EEXIST) {
        mark[0] = '\0';
        return true;
    }
    unlinkat(c->dirfd, mark, 0);
    mark[0] = '\0';
    return false;
}

/* ------------------------------------------------------------ builds */

static accel_status load_binary(accel_device *dev, const char *name, uint32_t language,
                                const char *entry, const char *options, const void *data,
                                size_t size, accel_be_program **out)
{
    const accel_backend *vt = dev->be->vt;
    accel_program_desc d;
    accel__struct_init(&d, sizeof d);
    d.language = language;
    d.name = name;
    d.entries = &entry;
    d.entry_count = 1;
    d.options = options;
    d.binary = data;
    d.binary_size = size;
    const void *bin;
    size_t bin_size;
    accel__clear_error();
    return (accel_status)vt->program_build(dev->be->ctx, dev->index, &d, out, &bin, &bin_size);
}

static void keep_prog(accel__kcache *c, accel_device *dev, accel_be_program *prog,
                      const unsigned char *key)
{
    kc_prog *p = calloc(1, sizeof *p);
    if (!p) /* leak the program rather than release code that may run */
        return;
    p->dev = dev;
    p->prog = prog;
    if (key) {
        p->keyed = true;
        memcpy(p->key, key, 32);
    }
    p->next = c->progs;
    c->progs = p;
}

static void keep_blob(accel__kcache *c, const unsigned char key[32], const void *data, size_t size)
{
    kc_blob *b = calloc(1, sizeof *b);
    if (!b || !(b->data = malloc(size))) {
        free(b);
        return;
    }
    memcpy(b->key, key, 32);
    memcpy(b->data, data, size);
    b->size = size;
    b->next = c->blobs;
    c->blobs = b;
}

/* The program for key on dev from the caches, c->lock held: one already
 * loaded for dev (*reused set: not to be kept again), else loaded from the
 * memory copy of its binary or from the disk entry. ACCEL_ERROR_NOT_FOUND
 * (or the load's failure) when it has to be compiled. */
static accel_status lookup_locked(accel_runtime *rt, accel__kcache *c, accel_device *dev,
                                  const char *name, uint32_t language, const char *entry,
                                  const char *options, const unsigned char key[32], bool *reused,
                                  accel_be_program **out)
{
    accel_status st = ACCEL_ERROR_NOT_FOUND;
    double t0 = now_ms();
    /* Loaded for this device already: the same program again. */
    for (kc_prog *p = c->progs; p; p = p->next) {
        if (p->keyed && p->dev == dev && memcmp(p->key, key, 32) == 0) {
            *out = p->prog;
            *reused = true;
            c->memory_hits++;
            c->load_ms += now_ms() - t0;
            return ACCEL_SUCCESS;
        }
    }
    for (kc_blob *b = c->blobs; b; b = b->next) {
        if (memcmp(b->key, key, 32) != 0)
            continue;
        st = load_binary(dev, name, language, entry, options, b->data, b->size, out);
        if (st == ACCEL_SUCCESS)
            c->memory_hits++;
        break;
    }
    resolve_dir(rt, c);
    if (st != ACCEL_SUCCESS && c->disk) {
        size_t size = 0;
        bool bad = false;
        void *data = disk_read(c, key, &size, &bad);
        char mark[80] = "";
        if (data && !loading_mark(c, key, mark)) {
            accel__log(ACCEL_LOG_INFO,
                       "kernel cache: %s: a load of its entry did not finish (a process ended "
                       "in the driver, or is loading it now): rebuilt",
                       name);
            free(data);
            data = NULL;
            bad = true;
        }
        if (data) {
            st = load_binary(dev, name, language, entry, options, data, size, out);
            if (mark[0])
                unlinkat(c->dirfd, mark, 0);
            if (st == ACCEL_SUCCESS) {
                c->disk_hits++;
                keep_blob(c, key, data, size);
            } else {
                bad = true;
            }
            free(data);
        }
        if (bad) {
            c->rebuilt++;
            accel__log(ACCEL_LOG_INFO, "kernel cache: %s: a corrupt or stale entry is rebuilt",
                       name);
        }
    }
    if (st == ACCEL_SUCCESS)
        c->load_ms += now_ms() - t0;
    return st;
}

/* The thread's message after program_build failed with st on dev: the
 * compile log (else the plugin's message) under the compiler's name, the
 * first two words of the backend's identity. */
static void build_failed(const char *name, const accel_device *dev, const char *identity,
                         accel_status st, const char *log)
{
    char plugin_msg[1024];
    snprintf(plugin_msg, sizeof plugin_msg, "%s", accel_last_error());
    /* "cc /usr/bin/gcc-12 size ..." -> "cc /usr/bin/gcc-12" */
    int idn = 0;
    for (int sp = 0; identity[idn] && !(identity[idn] == ' ' && ++sp == 2); idn++)
        ;
    if (st == ACCEL_ERROR_COMPILE)
        accel__set_error("%s: compile error on %s (%.*s):\n%s", name, dev->name, idn,
                         identity[0] ? identity : dev->be->name, log && log[0] ? log : plugin_msg);
    else
        accel__set_error("%s: building on %s failed: %s", name, dev->name,
                         plugin_msg[0] ? plugin_msg : accel_status_string(st));
}

accel_status accel__kcache_build(accel_runtime *rt, accel_device *dev, const char *name,
                                 uint32_t language, const char *source, const char *entry,
                                 const char *options, accel_be_program **out)
{
    *out = NULL;
    const accel_backend *vt = dev->be->vt;
    if (!vt->program_build || !vt->program_release)
        return accel__fail(ACCEL_ERROR_UNSUPPORTED,
                           "%s: the %s backend cannot build user kernels (its plugin has no "
                           "program_build entry)",
                           name, dev->be->name);
    accel__kcache *c = kcache_get(rt);
    if (!c)
        return accel__fail(ACCEL_ERROR_OUT_OF_HOST_MEMORY, "%s: out of host memory", name);
    char identity[512] = "";
    if (vt->program_identity && vt->program_identity(dev->be->ctx, dev->index, language, identity,
                                                     sizeof identity) != ACCEL_SUCCESS)
        identity[0] = '\0';
    accel__clear_error();
    char abi[32], lang[16];
    snprintf(abi, sizeof abi, "abi %u", ACCEL_BACKEND_ABI_VERSION);
    snprintf(lang, sizeof lang, "lang %u", language);
    const char *fields[] = {"accel kernel cache 1", abi,   dev->be->name, identity, lang, entry,
                            options ? options : "", source};
    unsigned char key[32];
    if (!make_key(fields, sizeof fields / sizeof fields[0], key))
        return accel__fail(ACCEL_ERROR_INTERNAL, "%s: SHA-256 failed (OpenSSL)", name);
    bool cacheable = identity[0] != '\0';

    pthread_mutex_lock(&c->lock);
    accel_status st = ACCEL_ERROR_NOT_FOUND;
    double t0 = now_ms();
    bool reused = false;
    if (cacheable)
        st = lookup_locked(rt, c, dev, name, language, entry, options, key, &reused, out);
    if (reused) {
        pthread_mutex_unlock(&c->lock);
        return ACCEL_SUCCESS;
    }
    if (st != ACCEL_SUCCESS) {
        char *log = calloc(1, ACCEL__KLOG_MAX);
        accel_program_desc d;
        accel__struct_init(&d, sizeof d);
        d.language = language;
        d.name = name;
        d.source = source;
        d.entries = &entry;
        d.entry_count = 1;
        d.log = log;
        d.log_size = log ? ACCEL__KLOG_MAX : 0;
        d.options = options;
        const void *bin = NULL;
        size_t bin_size = 0;
        /* Compile without the lock: other kernels build and load meanwhile
         * (two threads on one key both compile; either program is right). */
        pthread_mutex_unlock(&c->lock);
        t0 = now_ms();
        accel__clear_error();
        st = (accel_status)vt->program_build(dev->be->ctx, dev->index, &d, out, &bin, &bin_size);
        double dt = now_ms() - t0;
        pthread_mutex_lock(&c->lock);
        c->compile_ms += dt;
        c->misses++;
        if (st != ACCEL_SUCCESS) {
            c->failures++;
            build_failed(name, dev, identity, st, log);
            *out = NULL;
        } else if (cacheable && bin && bin_size) {
            keep_blob(c, key, bin, bin_size);
            if (c->disk)
                disk_write(c, key, bin, bin_size);
        }
        free(log);
    }
    if (st == ACCEL_SUCCESS)
        keep_prog(c, dev, *out, cacheable ? key : NULL);
    pthread_mutex_unlock(&c->lock);
    return st;
}

/* ------------------------------------------------------------ plugins' own code */

/* The entry's key for a plugin's own code: a format tag of its own (so it never
 * names a user kernel's entry), the ABI version, the backend and its fields. */
static bool plugin_key(const char *backend, const char *const *key, size_t n, unsigned char out[32])
{
    enum { MAX_FIELDS = ACCEL_HOST_CACHE_KEY_MAX + 3 };
    if (n > ACCEL_HOST_CACHE_KEY_MAX)
        return false;
    char abi[32];
    snprintf(abi, sizeof abi, "abi %u", ACCEL_BACKEND_ABI_VERSION);
    const char *fields[MAX_FIELDS] = {"accel plugin cache 1", abi, backend};
    memcpy(fields + 3, key, n * sizeof *key);
    return make_key(fields, n + 3, out);
}

/* The cache of owner, locked with its directory resolved, and k the key of
 * (backend, key[n]); NULL (nothing locked) where there is none or the key
 * is too long. */
static accel__kcache *plugin_lock(void *owner, const char *backend, const char *const *key,
                                  size_t n, unsigned char k[32])
{
    accel__kcache *c = kcache_get(owner);
    if (!c || !plugin_key(backend, key, n, k))
        return NULL;
    pthread_mutex_lock(&c->lock);
    resolve_dir(owner, c);
    return c;
}

accel_status accel__kcache_plugin_get(void *owner, const char *backend, const char *const *key,
                                      size_t n, void **out, size_t *out_size)
{
    unsigned char k[32];
    accel__kcache *c = plugin_lock(owner, backend, key, n, k);
    if (!c)
        return ACCEL_ERROR_NOT_FOUND;
    bool bad = false;
    *out = c->disk ? disk_read(c, k, out_size, &bad) : NULL;
    pthread_mutex_unlock(&c->lock);
    if (bad)
        accel__log(ACCEL_LOG_INFO, "kernel cache: %s: a corrupt or stale entry is rebuilt",
                   backend);
    return *out ? ACCEL_SUCCESS : ACCEL_ERROR_NOT_FOUND;
}

accel_status accel__kcache_plugin_put(void *owner, const char *backend, const char *const *key,
                                      size_t n, const void *data, size_t size)
{
    unsigned char k[32];
    accel__kcache *c = plugin_lock(owner, backend, key, n, k);
    if (!c)
        return ACCEL_ERROR_NOT_FOUND;
    bool disk = c->disk;
    if (disk)
        disk_write(c, k, data, size);
    pthread_mutex_unlock(&c->lock);
    return disk ? ACCEL_SUCCESS : ACCEL_ERROR_NOT_FOUND;
}

void accel__kcache_close(accel_runtime *rt)
{
    accel__kcache *c = rt->kcache;
    if (!c)
        return;
    for (kc_prog *p = c->progs, *next; p; p = next) {
        next = p->next;
        p->dev->be->vt->program_release(p->dev->be->ctx, p->prog);
        free(p);
    }
    for (kc_blob *b = c->blobs, *next; b; b = next) {
        next = b->next;
        free(b->data);
        free(b);
    }
    if (c->dirfd >= 0)
        close(c->dirfd);
    pthread_mutex_destroy(&c->lock);
    free(c);
    rt->kcache = NULL;
}

accel_status accel__kcache_counters_get(accel_runtime *rt, accel__kcache_counters *out)
{
    memset(out, 0, sizeof *out);
    accel__kcache *c = kcache_get(rt);
    if (!c)
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    pthread_mutex_lock(&c->lock);
    resolve_dir(rt, c);
    out->disk_enabled = c->disk;
    out->memory_hits = c->memory_hits;
    out->disk_hits = c->disk_hits;
    out->misses = c->misses;
    out->rebuilt = c->rebuilt;
    out->failures = c->failures;
    out->compile_ms = c->compile_ms;
    out->load_ms = c->load_ms;
    snprintf(out->dir, sizeof out->dir, "%s", c->disk ? c->dir : "");
    snprintf(out->disabled_reason, sizeof out->disabled_reason, "%s", c->reason);
    pthread_mutex_unlock(&c->lock);
    return ACCEL_SUCCESS;
}
