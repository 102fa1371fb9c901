/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/loader.c — loading one backend plugin: dlopen(RTLD_NOW | RTLD_LOCAL),
 * the entry symbol, the ABI check (versions 1 and 2, see accel/backend.h), the
 * host-services table of the plugin's version, init and the device count. Every outcome is recorded
 * in the candidate (path, dlerror() text, reason, status) and a failure never affects other
 * candidates. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/config.h"
#include "base/loader.h"
#include "base/objects.h"
#include "base/security.h"
#include "base/status.h"

/* Sanitizer builds keep plugins mapped after dlclose (RTLD_NODELETE): the
 * one-time allocations of their dependencies' constructors (libgomp,
 * OpenBLAS) would otherwise be reported as leaks from an unknown module, and
 * real leak reports could not be symbolized. */
#if defined(__SANITIZE_ADDRESS__)
#define DLOPEN_FLAGS (RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)
#else
#define DLOPEN_FLAGS (RTLD_NOW | RTLD_LOCAL)
#endif

/* ------------------------------------------------------------ host services
 * ABI 2: every callback gets host_ctx, the backend's accel__backend. */

static void host_log(void *host_ctx, int level, const char *fmt, ...)
{
    const accel__backend *be = host_ctx;
    va_list ap;
    va_start(ap, fmt);
    accel__logv(level, be ? be->name : "plugin", fmt, ap);
    va_end(ap);
}

static void host_set_error(void *host_ctx, const char *fmt, ...)
{
    (void)host_ctx;
    va_list ap;
    va_start(ap, fmt);
    accel__set_errorv(fmt, ap);
    va_end(ap);
}

static const char *host_config_get(void *host_ctx, const char *key)
{
    const accel__backend *be = host_ctx;
    if (!be || !be->section || !key)
        return NULL;
    return accel__kvlist_get(&be->section->keys, key);
}

/* The checks of a cache call fn: the entries' key has 1 to
 * ACCEL_HOST_CACHE_KEY_MAX fields, none NULL (ACCEL_ERROR_INVALID_ARGUMENT,
 * the message set), and there is a cache to ask (hooked;
 * ACCEL_ERROR_NOT_FOUND otherwise). */
static int32_t cache_check(const char *fn, const char *const *key, size_t key_count, bool hooked)
{
    if (!key || key_count == 0 || key_count > ACCEL_HOST_CACHE_KEY_MAX)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "%s: a key needs 1 to %u fields (key %s, key_count %zu)", fn,
                           ACCEL_HOST_CACHE_KEY_MAX, key ? "set" : "NULL", key_count);
    for (size_t i = 0; i < key_count; i++)
        if (!key[i])
            return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT, "%s: key field %zu is NULL", fn, i);
    return hooked ? ACCEL_SUCCESS : ACCEL_ERROR_NOT_FOUND;
}

static int32_t host_cache_get(void *host_ctx, const char *const *key, size_t key_count,
                              void **out_data, size_t *out_size)
{
    const accel__backend *be = host_ctx;
    if (!out_data || !out_size)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "cache_get: out_data and out_size must not be NULL");
    *out_data = NULL;
    *out_size = 0;
    int32_t rc = cache_check("cache_get", key, key_count, be && be->cache.get);
    if (rc != ACCEL_SUCCESS)
        return rc;
    return be->cache.get(be->cache.owner, be->name, key, key_count, out_data, out_size);
}

static void host_cache_free(void *host_ctx, void *data)
{
    (void)host_ctx;
    free(data);
}

static int32_t host_cache_put(void *host_ctx, const char *const *key, size_t key_count,
                              const void *data, size_t size)
{
    const accel__backend *be = host_ctx;
    if (!data || size == 0)
        return accel__fail(ACCEL_ERROR_INVALID_ARGUMENT,
                           "cache_put: no payload (data %s, size %zu)", data ? "set" : "NULL",
                           size);
    int32_t rc = cache_check("cache_put", key, key_count, be && be->cache.put);
    if (rc != ACCEL_SUCCESS)
        return rc;
    return be->cache.put(be->cache.owner, be->name, key, key_count, data, size);
}

/* ABI 1: log and set_error without a context. The backend that logs is
 * found from the caller's address: the loaded object that holds it (dladdr)
 * is matched against the ABI 1 backends loaded, by their base address. */

typedef struct abi1_backend {
    const void *base; /* dli_fbase of the plugin */
    char name[64];
    struct abi1_backend *next;
} abi1_backend;

static pthread_mutex_t abi1_lock = PTHREAD_MUTEX_INITIALIZER;
static abi1_backend *abi1_backends;

static void abi1_add(const void *base, const char *name)
{
    abi1_backend *b = malloc(sizeof *b);
    if (!b)
        return; /* it logs as "plugin" */
    b->base = base;
    snprintf(b->name, sizeof b->name, "%s", name);
    pthread_mutex_lock(&abi1_lock);
    b->next = abi1_backends;
    abi1_backends = b;
    pthread_mutex_unlock(&abi1_lock);
}

static void abi1_remove(const void *base, const char *name)
{
    pthread_mutex_lock(&abi1_lock);
    for (abi1_backend **p = &abi1_backends; *p; p = &(*p)->next) {
        if ((*p)->base == base && strcmp((*p)->name, name) == 0) {
            abi1_backend *gone = *p;
            *p = gone->next;
            free(gone);
            break;
        }
    }
    pthread_mutex_unlock(&abi1_lock);
}

static void abi1_log(int level, const char *fmt, ...)
{
    char name[64] = "plugin";
    Dl_info info;
    if (dladdr(__builtin_return_address(0), &info) && info.dli_fbase) {
        pthread_mutex_lock(&abi1_lock);
        for (const abi1_backend *b = abi1_backends; b; b = b->next) {
            if (b->base == info.dli_fbase) {
                memcpy(name, b->name, sizeof name);
                break;
            }
        }
        pthread_mutex_unlock(&abi1_lock);
    }
    va_list ap;
    va_start(ap, fmt);
    accel__logv(level, name, fmt, ap);
    va_end(ap);
}

static void abi1_set_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    accel__set_errorv(fmt, ap);
    va_end(ap);
}

/* The host services of the plugin's ABI version into be->host. */
static void host_services_fill(accel__backend *be, uint32_t abi)
{
    memset(&be->host, 0, sizeof be->host);
    if (abi == 1) {
        accel__host_services_v1 *h = &be->host.v1;
        h->struct_size = sizeof *h;
        h->abi_version = 1;
        h->host_ctx = be;
        h->log = abi1_log;
        h->set_error = abi1_set_error;
        h->config_get = host_config_get;
        return;
    }
    accel_host_services *h = &be->host.v2;
    h->struct_size = sizeof *h;
    h->abi_version = ACCEL_BACKEND_ABI_VERSION;
    h->host_ctx = be;
    h->log = host_log;
    h->set_error = host_set_error;
    h->config_get = host_config_get;
    h->cache_get = host_cache_get;
    h->cache_free = host_cache_free;
    h->cache_put = host_cache_put;
}

/* ------------------------------------------------------------ by descriptor
 * A plugin is loaded as /proc/self/fd/N, N being the descriptor that
 * security.c checked, so the file loaded is the file checked. glibc knows a
 * loaded library by every name it was opened with (a second name of the same
 * file becomes an alias) and returns it for a later dlopen of any of them.
 * So N stays open as long as the library is loaded (a plugin linked -z
 * nodelete stays for the life of the process), and the same file (device and
 * inode of the checked descriptor) is always opened again under its first
 * name: no descriptor number is ever reused while glibc knows it. */

typedef struct loaded_fd {
    dev_t dev;
    ino_t ino;
    int fd;
    void *dl;
    struct loaded_fd *next;
} loaded_fd;

static pthread_mutex_t fd_lock = PTHREAD_MUTEX_INITIALIZER;
static loaded_fd *loaded_fds;

/* At unload of libaccel (process exit included): the records go; the
 * descriptors stay open, since glibc may still know the libraries by their
 * /proc/self/fd names until the very end. */
__attribute__((destructor)) static void loaded_fds_free(void)
{
    pthread_mutex_lock(&fd_lock);
    while (loaded_fds) {
        loaded_fd *e = loaded_fds;
        loaded_fds = e->next;
        free(e);
    }
    pthread_mutex_unlock(&fd_lock);
}

static void fd_name(int fd, char *out, size_t cap)
{
    snprintf(out, cap, "/proc/self/fd/%d", fd);
}

/* dlerror()'s text msg into err, each /proc/self/fd/N name the file was
 * opened by (dlerror() names it so: "NAME: invalid ELF header") replaced by
 * shown, the path the user gave, which is what a reader can look at. */
static void dl_error_text(const char *msg, const char *fd_path, const char *shown, char *err,
                          size_t cap)
{
    size_t o = 0, n = strlen(fd_path);
    err[0] = '\0';
    while (*msg && o + 1 < cap) {
        const char *at = strstr(msg, fd_path);
        /* "/proc/self/fd/3" must not match the start of "/proc/self/fd/31" */
        while (at && at[n] >= '0' && at[n] <= '9')
            at = strstr(at + 1, fd_path);
        size_t plain = at ? (size_t)(at - msg) : strlen(msg);
        int w = snprintf(err + o, cap - o, "%.*s%s", (int)plain, msg, at ? shown : "");
        if (w < 0)
            break;
        o += (size_t)w;
        if (o >= cap || !at)
            break;
        msg = at + n;
    }
}

/* dlopen through fd (which this takes over); path only names the file where
 * /proc is not mounted, shown is the path the user gave (the plugins.ini
 * entry joined to its folder), which messages name. NULL with the dlerror()
 * text in err on failure. */
static void *load_fd(int fd, const char *path, const char *shown, char *err, size_t cap)
{
    char name[64];
    fd_name(fd, name, sizeof name);
    struct stat st;
    bool by_fd = access(name, F_OK) == 0 && fstat(fd, &st) == 0;
    pthread_mutex_lock(&fd_lock);
    loaded_fd *e = loaded_fds;
    while (by_fd && e && !(e->dev == st.st_dev && e->ino == st.st_ino))
        e = e->next;
    if (e) { /* the same file, loaded before: its first name */
        close(fd);
        fd = -1;
        fd_name(e->fd, name, sizeof name);
    }
    dlerror();
    void *dl = dlopen(by_fd ? name : path, DLOPEN_FLAGS);
    if (!dl) {
        const char *msg = dlerror();
        dl_error_text(msg ? msg : "(no dlerror text)", by_fd ? name : path, shown, err, cap);
    }
    loaded_fd *keep = dl && by_fd && !e ? malloc(sizeof *keep) : NULL;
    if (keep) {
        *keep = (loaded_fd){st.st_dev, st.st_ino, fd, dl, loaded_fds};
        loaded_fds = keep;
    } else if (fd >= 0) {
        /* not loaded, or loaded by path, or out of memory: glibc may keep
         * this name as an alias of dl, so dl is refused rather than risk
         * the number being reused */
        close(fd);
        if (dl && by_fd) {
            dlclose(dl);
            dl = NULL;
            snprintf(err, cap, "out of host memory");
        }
    }
    pthread_mutex_unlock(&fd_lock);
    return dl;
}

/* dlclose, then close the descriptor of a library that is gone. */
static void unload(void *dl)
{
    pthread_mutex_lock(&fd_lock);
    dlclose(dl);
    for (loaded_fd **p = &loaded_fds; *p; p = &(*p)->next) {
        if ((*p)->dl != dl)
            continue;
        char name[64];
        fd_name((*p)->fd, name, sizeof name);
        void *still = dlopen(name, RTLD_LAZY | RTLD_NOLOAD);
        if (still) {
            dlclose(still);
        } else {
            loaded_fd *gone = *p;
            *p = gone->next;
            close(gone->fd);
            free(gone);
        }
        break;
    }
    pthread_mutex_unlock(&fd_lock);
}

/* ------------------------------------------------------------------ load */

static accel_status reject(accel__backend *be, accel_status st, const char *fmt, ...)
    ACCEL__PRINTF(3, 4);

/* Unloads be's shared object and forgets all that came from it. */
static void drop_plugin(accel__backend *be)
{
    if (be->dl)
        unload(be->dl);
    be->dl = NULL;
    be->vt = NULL;
    be->ctx = NULL;
    be->loaded = false;
    if (be->abi1_base)
        abi1_remove(be->abi1_base, be->name);
    be->abi1_base = NULL;
}

static accel_status reject(accel__backend *be, accel_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(be->reason, sizeof be->reason, fmt, ap);
    va_end(ap);
    be->status = st;
    drop_plugin(be);
    accel__log(ACCEL_LOG_INFO, "backend %s (%s) not loaded: %s", be->name, be->path, be->reason);
    return st;
}

/* The plugin's required entries; optional ones may be NULL (backend.h). */
static const char *missing_function(const accel_backend *vt)
{
#define REQUIRE(f)                                                                                 \
    if (!vt->f)                                                                                    \
        return #f;
    REQUIRE(init)
    REQUIRE(shutdown)
    REQUIRE(device_count)
    REQUIRE(device_properties)
    REQUIRE(buffer_alloc)
    REQUIRE(buffer_free)
    REQUIRE(queue_create)
    REQUIRE(queue_destroy)
    REQUIRE(queue_finish)
    REQUIRE(queue_write)
    REQUIRE(queue_read)
    REQUIRE(queue_copy)
    REQUIRE(queue_host_fn)
    REQUIRE(event_create)
    REQUIRE(event_destroy)
    REQUIRE(event_record)
    REQUIRE(queue_wait_event)
    REQUIRE(event_synchronize)
    REQUIRE(event_query)
    REQUIRE(event_elapsed_ms)
    REQUIRE(op_supported)
    REQUIRE(op_execute)
#undef REQUIRE
    return NULL;
}

/* Opens be's file (checked first, then loaded through the same
 * descriptor) and calls its entry: *out its table, *sym the entry's
 * address. */
static accel_status open_plugin(accel__backend *be, const accel_backend **out, void **sym)
{
    if (access(be->path, F_OK) != 0)
        return reject(be, ACCEL_ERROR_PLUGIN_LOAD, "file missing: %s", be->path);
    /* Check the open file, then load that very file through its descriptor,
     * so that nothing can be swapped in between. */
    char insecure[768];
    int fd;
    const char *written = be->section && be->section->written ? be->section->written : be->path;
    if (accel__security_open_plugin(written, be->allow_insecure, &fd, insecure, sizeof insecure))
        return reject(be, ACCEL_ERROR_PLUGIN_LOAD, "%s", insecure);
    char dl_err[512];
    be->dl = load_fd(fd, be->path, written, dl_err, sizeof dl_err);
    if (!be->dl)
        return reject(be, ACCEL_ERROR_PLUGIN_LOAD, "dlopen failed: %s", dl_err);

    dlerror();
    *sym = dlsym(be->dl, ACCEL_BACKEND_ENTRY_SYMBOL);
    if (!*sym) {
        const char *err = dlerror();
        return reject(be, ACCEL_ERROR_PLUGIN_LOAD, "not an accel plugin: symbol %s absent (%s)",
                      ACCEL_BACKEND_ENTRY_SYMBOL, err ? err : "symbol is NULL");
    }
    accel_backend_entry_fn entry;
    /* POSIX guarantees that a dlsym result converts to a function pointer;
     * memcpy keeps ISO C's pedantic mode quiet about it. */
    memcpy(&entry, sym, sizeof entry);
    *out = entry();
    if (!*out)
        return reject(be, ACCEL_ERROR_PLUGIN_LOAD, "not an accel plugin: %s() returned NULL",
                      ACCEL_BACKEND_ENTRY_SYMBOL);
    return ACCEL_SUCCESS;
}

/* vt's ABI version and size checked, copied into be->table (zero past a
 * smaller table, cut at a larger one) with every required function. */
static accel_status take_table(accel__backend *be, const accel_backend *vt)
{
    be->abi_version = vt->abi_version;
    if (vt->abi_version < ACCEL_BACKEND_ABI_OLDEST || vt->abi_version > ACCEL_BACKEND_ABI_VERSION)
        return reject(be, ACCEL_ERROR_INCOMPATIBLE_ABI,
                      "ABI mismatch: the plugin has ABI version %u, this runtime loads versions "
                      "%u to %u",
                      vt->abi_version, ACCEL_BACKEND_ABI_OLDEST, ACCEL_BACKEND_ABI_VERSION);
    /* The first table's size is the smallest accepted; a smaller table of an
     * older header is copied into a zeroed full-size one (its later entries
     * read as NULL), a larger one of a newer header is cut to ours. */
    if (vt->struct_size < ACCEL_BACKEND_TABLE_MIN_SIZE)
        return reject(be, ACCEL_ERROR_INCOMPATIBLE_ABI,
                      "ABI mismatch: the plugin's table has struct_size %u, this runtime "
                      "expects at least %zu",
                      vt->struct_size, (size_t)ACCEL_BACKEND_TABLE_MIN_SIZE);
    memset(&be->table, 0, sizeof be->table);
    memcpy(&be->table, vt, vt->struct_size < sizeof be->table ? vt->struct_size : sizeof be->table);
    const char *missing = missing_function(&be->table);
    if (missing)
        return reject(be, ACCEL_ERROR_INCOMPATIBLE_ABI,
                      "the plugin's table lacks the required function %s", missing);
    return ACCEL_SUCCESS;
}

accel_status accel__loader_open(accel__backend *be)
{
    be->loaded = false;
    be->dl = NULL;
    be->vt = NULL;
    be->ctx = NULL;
    be->abi1_base = NULL;
    be->reason[0] = '\0';
    be->description[0] = '\0';
    be->abi_version = 0;
    be->device_count = 0;

    const accel_backend *vt;
    void *sym;
    accel_status s = open_plugin(be, &vt, &sym);
    if (s == ACCEL_SUCCESS)
        s = take_table(be, vt);
    if (s != ACCEL_SUCCESS)
        return s;
    vt = &be->table;
    snprintf(be->description, sizeof be->description, "%s", vt->description ? vt->description : "");
    if (vt->name && strcmp(vt->name, be->name) != 0)
        accel__log(ACCEL_LOG_INFO, "[backend.%s] loads the plugin named '%s'", be->name, vt->name);

    host_services_fill(be, vt->abi_version);
    if (vt->abi_version == 1) {
        Dl_info info;
        if (dladdr(sym, &info) && info.dli_fbase) {
            be->abi1_base = info.dli_fbase;
            abi1_add(be->abi1_base, be->name);
        }
    }

    accel__clear_error();
    void *ctx = NULL;
    /* Both layouts begin alike; an ABI 1 plugin reads the v1 callbacks. */
    int32_t st = vt->init(&be->host.v2, &ctx);
    if (st != ACCEL_SUCCESS) {
        const char *msg = accel_last_error();
        return reject(be, (accel_status)st, "init failed: %s",
                      *msg ? msg : accel_status_string((accel_status)st));
    }
    be->vt = vt;
    be->ctx = ctx;
    be->device_count = vt->device_count(ctx);
    if (be->device_count == 0) {
        vt->shutdown(ctx);
        return reject(be, ACCEL_ERROR_UNAVAILABLE, "no devices");
    }
    be->loaded = true;
    be->status = ACCEL_SUCCESS;
    accel__log(ACCEL_LOG_INFO, "backend %s loaded from %s: %u device(s)", be->name, be->path,
               be->device_count);
    return ACCEL_SUCCESS;
}

void accel__loader_close(accel__backend *be)
{
    if (be->loaded && be->vt)
        be->vt->shutdown(be->ctx);
    drop_plugin(be);
}
