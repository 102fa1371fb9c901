/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* blas.c — the OpenBLAS that the CPU backend calls, bound by the plugin
 * itself: dlopen of a copy next to the plugin (the Python wheel bundles one
 * there), else the library the plugin was built against (its absolute path,
 * then its soname), and every call through dlsym on that handle. A
 * plain link would resolve cblas_sgemm through the process's global scope,
 * where a host program's own CBLAS, linked before accel, comes first
 * (RTLD_LOCAL on the plugin does not isolate its dependencies). RTLD_DEEPBIND
 * would also isolate the library's own internal references, but
 * AddressSanitizer refuses it, and OpenBLAS's GEMM path calls into its own
 * kernel table, not through interposable symbols.
 *
 * Also here: the bound library is opened with the default floating-point
 * environment, since OpenBLAS starts its thread pool while it loads and
 * those threads inherit the loading thread's FTZ/DAZ bits; and the check
 * before a GEMM that the process can still map OpenBLAS's work space (near
 * out of host memory OpenBLAS retries its allocation forever, or exits the
 * process from its threaded driver). */
#include <dlfcn.h>
#include <fenv.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__x86_64__) || (defined(__i386__) && defined(__SSE__))
#include <xmmintrin.h>
#endif

#include "cpu.h"

static accel_cpu_blas g_blas;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

/* From CMake: the library the plugin was built against, and its soname
 * (looked up on the library path when the file has moved). */
#ifndef ACCEL_CPU_OPENBLAS_PATH
#define ACCEL_CPU_OPENBLAS_PATH ""
#endif
#ifndef ACCEL_CPU_OPENBLAS_SONAME
#define ACCEL_CPU_OPENBLAS_SONAME "libopenblas.so.0"
#endif

static void *open_default_env(const char *path)
{
    fenv_t saved;
    fegetenv(&saved);
    accel_cpu__fp_env_default();
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    fesetenv(&saved);
    return h;
}

/* PLUGIN_FOLDER/SONAME when that file is there (the wheel's copy), else "".
 * The core loads plugins as /proc/self/fd/N, which realpath resolves. The
 * copy runs code, so it is trusted only as the plugin is: owned by root or
 * this user and writable by no one else. */
static void bundled_path(char *out, size_t cap)
{
    Dl_info info;
    char real[PATH_MAX];
    out[0] = '\0';
    if (!dladdr((void *)&g_blas, &info) || !info.dli_fname || !realpath(info.dli_fname, real))
        return;
    const char *slash = strrchr(real, '/');
    if (!slash)
        return;
    int n = snprintf(out, cap, "%.*s/%s", (int)(slash - real), real, ACCEL_CPU_OPENBLAS_SONAME);
    struct stat st;
    if (n < 0 || (size_t)n >= cap || stat(out, &st) != 0 || !S_ISREG(st.st_mode) ||
        (st.st_uid != 0 && st.st_uid != geteuid()) || (st.st_mode & (S_IWGRP | S_IWOTH)))
        out[0] = '\0';
}

/* OpenBLAS's threads (its pthread build, Debian's default) spin, calling
 * sched_yield, for 2^28 cycles (about 0.1 s) after they start and after
 * every threaded call before they sleep; on a machine of few cores they
 * hold the cores that the backend's own OpenMP team needs, and the team's
 * barrier then waits for the scheduler's tick. On the 2-core VM every raw
 * launch in the first 0.1 s of a process took 4-8 ms (0.3 ms with the
 * threads asleep; OPENBLAS_NUM_THREADS=1 alike). OpenBLAS reads the spin's
 * length (as a power of two) once, when it loads: 2^20 cycles (about 0.4
 * ms) unless the user set OPENBLAS_THREAD_TIMEOUT or GOTO_THREAD_TIMEOUT
 * (docs/config.md). Once, before the first runtime's CPU backend loads
 * OpenBLAS (setenv races with getenv in other threads only then). */
static void quiet_pool_env(void)
{
    if (!getenv("OPENBLAS_THREAD_TIMEOUT") && !getenv("GOTO_THREAD_TIMEOUT"))
        setenv("OPENBLAS_THREAD_TIMEOUT", "20", 0);
}

static void bind_once(void)
{
    accel_cpu_blas *b = &g_blas;
    quiet_pool_env();
    char bundled[PATH_MAX];
    bundled_path(bundled, sizeof bundled);
    const char *tried[3] = {bundled, ACCEL_CPU_OPENBLAS_PATH, ACCEL_CPU_OPENBLAS_SONAME};
    char why[3][200] = {"", "", ""};
    void *h = NULL;
    const char *used = "";
    for (int i = 0; i < 3 && !h; i++) {
        if (!tried[i][0])
            continue;
        h = open_default_env(tried[i]);
        used = tried[i];
        if (!h) {
            const char *e = dlerror();
            snprintf(why[i], sizeof why[i], "%s", e ? e : "dlopen failed");
        }
    }
    if (!h) {
        /* Each reason, "; " between them, cut where the message is full. */
        char msg[sizeof b->error - 40];
        size_t len = 0;
        msg[0] = '\0';
        for (int i = 0; i < 3; i++) {
            if (!why[i][0])
                continue;
            int n = snprintf(msg + len, sizeof msg - len, "%s%s", len ? "; " : "", why[i]);
            if (n < 0 || (size_t)n >= sizeof msg - len)
                break;
            len += (size_t)n;
        }
        snprintf(b->error, sizeof b->error, "OpenBLAS could not be loaded (%s)", msg);
        return;
    }
    /* Object pointers from dlsym through memcpy: ISO C has no cast between
     * object and function pointers. */
    void *s = dlsym(h, "cblas_sgemm"), *d = dlsym(h, "cblas_dgemm");
    /* Optional: another CBLAS (a build without OpenBLAS) lacks these. */
    void *cfg = dlsym(h, "openblas_get_config"), *set = dlsym(h, "openblas_set_num_threads");
    void *get = dlsym(h, "openblas_get_num_threads");
    if (!s || !d) {
        snprintf(b->error, sizeof b->error, "%s lacks cblas_sgemm or cblas_dgemm", used);
        dlclose(h);
        return;
    }
    memcpy(&b->sgemm, &s, sizeof s);
    memcpy(&b->dgemm, &d, sizeof d);
    if (cfg && set && get) {
        memcpy(&b->get_config, &cfg, sizeof cfg);
        memcpy(&b->set_num_threads, &set, sizeof set);
        memcpy(&b->get_num_threads, &get, sizeof get);
    }
    Dl_info info;
    char real[PATH_MAX];
    if (dladdr(s, &info) && info.dli_fname) {
        const char *file = realpath(info.dli_fname, real) ? real : info.dli_fname;
        size_t len = strlen(file);
        if (len >= sizeof b->path)
            len = sizeof b->path - 1;
        memcpy(b->path, file, len);
        b->path[len] = '\0';
    }
    const char *c = b->get_config ? b->get_config() : NULL;
    snprintf(b->config, sizeof b->config, "%s", c ? c : "CBLAS");
    /* "OpenBLAS 0.3.21 DYNAMIC_ARCH ..." -> "OpenBLAS 0.3.21" */
    const char *sp = strchr(b->config, ' ');
    const char *sp2 = sp ? strchr(sp + 1, ' ') : NULL;
    int len = sp2 ? (int)(sp2 - b->config) : (int)strlen(b->config);
    snprintf(b->version, sizeof b->version, "%.*s", len, b->config);
    b->handle = h; /* kept for the life of the process, as the plugin is (-z nodelete) */
    b->ok = 1;
}

const accel_cpu_blas *accel_cpu__blas(void)
{
    pthread_once(&g_once, bind_once);
    return &g_blas;
}

/* OpenBLAS's work space per thread that runs a GEMM: its BUFFER_SIZE (32 MiB
 * on x86-64) plus alignment and the threaded driver's job arrays. */
#define BLAS_SPACE_PER_THREAD ((size_t)40 << 20)

static int limited(void)
{
    struct rlimit r;
    if (getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_cur != RLIM_INFINITY)
        return 1;
    if (getrlimit(RLIMIT_DATA, &r) == 0 && r.rlim_cur != RLIM_INFINITY)
        return 1;
    static int strict = -1; /* vm.overcommit_memory = 2: mmap fails near the commit limit */
    if (strict < 0) {
        int v = 0;
        FILE *f = fopen("/proc/sys/vm/overcommit_memory", "r");
        if (f) {
            if (fscanf(f, "%d", &v) != 1)
                v = 0;
            fclose(f);
        }
        strict = v == 2;
    }
    return strict;
}

int32_t accel_cpu__blas_headroom(const char *name, char *msg, size_t msg_size)
{
    /* Without an address-space, data or commit limit, OpenBLAS's mmap does
     * not fail (the kernel's OOM killer acts instead): nothing to check. */
    if (!limited())
        return ACCEL_SUCCESS;
    const accel_cpu_blas *b = accel_cpu__blas();
    int threads = b->ok && b->get_num_threads ? b->get_num_threads() : 1;
    if (threads < 1)
        threads = 1;
    size_t need = (size_t)(threads + 1) * BLAS_SPACE_PER_THREAD;
    void *p = mmap(NULL, need, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        snprintf(msg, msg_size,
                 "%s: out of host memory: OpenBLAS needs about %zu MiB of work space for %d "
                 "thread%s and the process cannot map it (address-space, data or commit "
                 "limit); refused rather than let OpenBLAS retry its allocation forever",
                 name, need >> 20, threads, threads == 1 ? "" : "s");
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    munmap(p, need);
    return ACCEL_SUCCESS;
}

void accel_cpu__fp_env_default(void)
{
    /* IEEE default: round to nearest, no traps. On AArch64 FE_DFL_ENV also
     * clears FPCR.FZ; on x86 MXCSR is set outright to its power-on value
     * 0x1f80 (all exceptions masked, nearest, FTZ and DAZ clear), which not
     * every libc's FE_DFL_ENV touches. */
    fesetenv(FE_DFL_ENV);
#if defined(__x86_64__) || (defined(__i386__) && defined(__SSE__))
    _mm_setcsr(0x1f80);
#endif
}

void accel_cpu__fp_enter(accel_cpu_fp_saved *s)
{
    s->quick = 0;
#if defined(__x86_64__)
    unsigned short cw, sw;
    s->csr = _mm_getcsr();
    __asm__ volatile("fnstcw %0" : "=m"(cw));
    __asm__ volatile("fnstsw %0" : "=m"(sw));
    s->quick = (s->csr & ~0x3fu) == 0x1f80u && cw == 0x037f && (sw & 0x3f) == 0;
    if (s->quick)
        return;
#endif
    fegetenv(&s->env);
    accel_cpu__fp_env_default();
}

void accel_cpu__fp_leave(const accel_cpu_fp_saved *s)
{
#if defined(__x86_64__)
    if (s->quick) {
        _mm_setcsr(s->csr);
        __asm__ volatile("fnclex");
        return;
    }
#endif
    fesetenv(&s->env);
}
