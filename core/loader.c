/* core/loader.c — loading one backend plugin: dlopen(RTLD_NOW | RTLD_LOCAL),
 * the entry symbol, the ABI check, the host-services table, init and the
 * device count. Every outcome is recorded in the candidate (path, dlerror()
 * text, reason, status) and a failure never affects other candidates. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

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
 * The ABI's log function carries no context, so each loaded backend gets
 * its own trampoline that knows its slot, and so its name for the prefix. */

#define LOG_SLOTS 16

static pthread_mutex_t slot_lock = PTHREAD_MUTEX_INITIALIZER;
static bool slot_used[LOG_SLOTS];
static char slot_name[LOG_SLOTS][64];

static void slot_logv(int slot, int level, const char *fmt, va_list ap)
{
    accel__logv(level, slot >= 0 ? slot_name[slot] : "plugin", fmt, ap);
}

#define LOG_TRAMPOLINE(i)                                                                          \
    static void log_##i(int level, const char *fmt, ...)                                           \
    {                                                                                              \
        va_list ap;                                                                                \
        va_start(ap, fmt);                                                                         \
        slot_logv(i, level, fmt, ap);                                                              \
        va_end(ap);                                                                                \
    }
LOG_TRAMPOLINE(0)
LOG_TRAMPOLINE(1)
LOG_TRAMPOLINE(2)
LOG_TRAMPOLINE(3)
LOG_TRAMPOLINE(4)
LOG_TRAMPOLINE(5)
LOG_TRAMPOLINE(6)
LOG_TRAMPOLINE(7)
LOG_TRAMPOLINE(8)
LOG_TRAMPOLINE(9)
LOG_TRAMPOLINE(10)
LOG_TRAMPOLINE(11)
LOG_TRAMPOLINE(12)
LOG_TRAMPOLINE(13)
LOG_TRAMPOLINE(14)
LOG_TRAMPOLINE(15)

static void log_unnamed(int level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    slot_logv(-1, level, fmt, ap);
    va_end(ap);
}

static void (*const log_fns[LOG_SLOTS])(int, const char *, ...) = {
    log_0, log_1, log_2,  log_3,  log_4,  log_5,  log_6,  log_7,
    log_8, log_9, log_10, log_11, log_12, log_13, log_14, log_15};

static int slot_take(const char *name)
{
    int slot = -1;
    pthread_mutex_lock(&slot_lock);
    for (int i = 0; i < LOG_SLOTS && slot < 0; i++) {
        if (!slot_used[i]) {
            slot_used[i] = true;
            snprintf(slot_name[i], sizeof slot_name[i], "%s", name);
            slot = i;
        }
    }
    pthread_mutex_unlock(&slot_lock);
    return slot;
}

static void slot_give(int slot)
{
    if (slot < 0)
        return;
    pthread_mutex_lock(&slot_lock);
    slot_used[slot] = false;
    pthread_mutex_unlock(&slot_lock);
}

static void host_set_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    accel__set_errorv(fmt, ap);
    va_end(ap);
}

static const char *host_config_get(void *host_ctx, const char *key)
{
    const accel__section *sec = host_ctx;
    if (!sec || !key)
        return NULL;
    return accel__kvlist_get(&sec->keys, key);
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

static void fd_name(int fd, char *out, size_t cap)
{
    snprintf(out, cap, "/proc/self/fd/%d", fd);
}

/* dlopen through fd (which this takes over); path only names the file where
 * /proc is not mounted. NULL with the dlerror() text in err on failure. */
static void *load_fd(int fd, const char *path, char *err, size_t cap)
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
        snprintf(err, cap, "%s", msg ? msg : "(no dlerror text)");
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

static accel_status reject(accel__backend *be, accel_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(be->reason, sizeof be->reason, fmt, ap);
    va_end(ap);
    be->status = st;
    be->loaded = false;
    if (be->dl) {
        unload(be->dl);
        be->dl = NULL;
    }
    be->vt = NULL;
    be->ctx = NULL;
    slot_give(be->log_slot);
    be->log_slot = -1;
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

accel_status accel__loader_open(accel__backend *be)
{
    be->loaded = false;
    be->dl = NULL;
    be->vt = NULL;
    be->ctx = NULL;
    be->log_slot = -1;
    be->reason[0] = '\0';
    be->description[0] = '\0';
    be->abi_version = 0;
    be->device_count = 0;

    if (access(be->path, F_OK) != 0)
        return reject(be, ACCEL_ERROR_PLUGIN_LOAD, "file missing: %s", be->path);
    /* Check the open file, then load that very file through its descriptor,
     * so that nothing can be swapped in between. */
    char insecure[768];
    int fd;
    if (accel__security_open_plugin(be->path, be->allow_insecure, &fd, insecure, sizeof insecure))
        return reject(be, ACCEL_ERROR_PLUGIN_LOAD, "%s", insecure);
    char dl_err[512];
    be->dl = load_fd(fd, be->path, dl_err, sizeof dl_err);
    if (!be->dl)
        return reject(be, ACCEL_ERROR_PLUGIN_LOAD, "dlopen failed: %s", dl_err);

    dlerror();
    void *sym = dlsym(be->dl, ACCEL_BACKEND_ENTRY_SYMBOL);
    if (!sym) {
        const char *err = dlerror();
        return reject(be, ACCEL_ERROR_PLUGIN_LOAD, "not an accel plugin: symbol %s absent (%s)",
                      ACCEL_BACKEND_ENTRY_SYMBOL, err ? err : "symbol is NULL");
    }
    accel_backend_entry_fn entry;
    /* POSIX guarantees that a dlsym result converts to a function pointer;
     * memcpy keeps ISO C's pedantic mode quiet about it. */
    memcpy(&entry, &sym, sizeof entry);
    const accel_backend *vt = entry();
    if (!vt)
        return reject(be, ACCEL_ERROR_PLUGIN_LOAD, "not an accel plugin: %s() returned NULL",
                      ACCEL_BACKEND_ENTRY_SYMBOL);

    be->abi_version = vt->abi_version;
    if (vt->abi_version != ACCEL_BACKEND_ABI_VERSION)
        return reject(be, ACCEL_ERROR_INCOMPATIBLE_ABI,
                      "ABI mismatch: the plugin has ABI version %u, this runtime expects %u",
                      vt->abi_version, ACCEL_BACKEND_ABI_VERSION);
    if (vt->struct_size < sizeof(accel_backend))
        return reject(be, ACCEL_ERROR_INCOMPATIBLE_ABI,
                      "ABI mismatch: the plugin's table has struct_size %u, this runtime "
                      "expects at least %zu",
                      vt->struct_size, sizeof(accel_backend));
    const char *missing = missing_function(vt);
    if (missing)
        return reject(be, ACCEL_ERROR_INCOMPATIBLE_ABI,
                      "the plugin's table lacks the required function %s", missing);
    snprintf(be->description, sizeof be->description, "%s", vt->description ? vt->description : "");
    if (vt->name && strcmp(vt->name, be->name) != 0)
        accel__log(ACCEL_LOG_INFO, "[backend.%s] loads the plugin named '%s'", be->name, vt->name);

    be->log_slot = slot_take(be->name);
    memset(&be->host, 0, sizeof be->host);
    be->host.struct_size = sizeof be->host;
    be->host.abi_version = ACCEL_BACKEND_ABI_VERSION;
    be->host.host_ctx = (void *)be->section;
    be->host.log = be->log_slot >= 0 ? log_fns[be->log_slot] : log_unnamed;
    be->host.set_error = host_set_error;
    be->host.config_get = host_config_get;

    accel__clear_error();
    void *ctx = NULL;
    int32_t st = vt->init(&be->host, &ctx);
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
    if (be->dl)
        unload(be->dl);
    be->dl = NULL;
    be->vt = NULL;
    be->ctx = NULL;
    be->loaded = false;
    slot_give(be->log_slot);
    be->log_slot = -1;
}
