/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* kernel.c — user kernels on the CPU backend: the program entries of the
 * plugin ABI (program_identity, program_build, program_release) and the
 * launches (ACCEL_OP_KERNEL) on a queue's worker, in parallel over the
 * backend's OpenMP team.
 *
 * Compilers: the system C compiler (`cc` on PATH, or [backend.cpu] cc =
 * PATH) at -O2, or, where there is none, the embedded Tiny C Compiler
 * (libtcc, linked into the accel-tcc helper next to this plugin; no C
 * library headers needed). [backend.cpu] kernel_compiler = auto | cc | tcc
 * picks one (auto: cc when found, else tcc). Either writes a shared object;
 * its bytes are the program's binary (cached by the core) and it is loaded
 * from an in-memory file (memfd), so a path is never reused while loaded.
 * Floating point: ISO C, no contraction (-ffp-contract=off), no fast-math,
 * the IEEE default environment (no flush to zero).
 *
 * Faults: user code runs under a guard (guard_call), so that an integer
 * division by zero (SIGFPE), a trap the compiler put where the code has
 * undefined behaviour (SIGILL), or a wild pointer (SIGSEGV, SIGBUS) fails
 * the launch with ACCEL_ERROR_KERNEL_FAULT instead of killing the process.
 * The handlers are installed on the first launch and jump back only on a
 * thread that is running user code at that moment; anywhere else they hand
 * the signal to the handler they replaced (or its default action). */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cpu.h"
#include "guard.h"
#include "twin.h"

extern char **environ;

/* Options the system compiler builds kernels with (part of the identity). */
#define CPU_CC_FLAGS                                                                               \
    "-std=c11", "-O2", "-fvect-cost-model=dynamic", "-fno-semantic-interposition", "-fPIC",        \
        "-shared", "-w", "-ffp-contract=off", "-fno-math-errno", "-fwrapv", "-fno-strict-aliasing"
#define CPU_CC_FLAGS_TEXT                                                                          \
    "-std=c11 -O2 -fvect-cost-model=dynamic -fno-semantic-interposition -fPIC -shared -w "         \
    "-ffp-contract=off -fno-math-errno -fwrapv -fno-strict-aliasing"

/* The instruction set generated kernels are built for, as one more cc flag:
 * x86-64's AVX2 generation (-march=haswell: AVX2, FMA, BMI2, ...) where this
 * CPU has AVX2 and FMA, else none (the compiler's default, SSE2 on x86-64).
 * Contraction stays off (-ffp-contract=off), so the bits are those of the
 * SSE2 build; the vectors are twice as wide (argmax of 2^24 float32 on one
 * thread: 5.3 ms with SSE2, 2.8 ms with AVX2). ACCEL_CPU_KERNEL_ISA=baseline
 * keeps the default (auto: the above). "" for the default, NULL with *why
 * set for another value. Part of the program identity, so a kernel cache shared with a CPU
 * without AVX2 never hands it these binaries. */
static const char *cc_isa(char *why, size_t wcap)
{
    const char *e = getenv("ACCEL_CPU_KERNEL_ISA");
    bool base = e && strcmp(e, "baseline") == 0;
    if (e && *e && !base && strcmp(e, "auto") != 0) {
        snprintf(why, wcap, "cpu: ACCEL_CPU_KERNEL_ISA=%s: expected auto or baseline", e);
        return NULL;
    }
#if defined(__x86_64__) && defined(__GNUC__)
    if (!base && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return "-march=haswell";
#endif
    return ""; /* the compiler's default target */
}

struct accel_be_program {
    void *dl;
    int memfd;
    void *entry;
    void *binary;
    size_t binary_size;
};

/* The generated entries (kernel_codegen.c): elementwise (args, lo, hi, n)
 * and reduction (args, row lo, row hi, columns) share one signature. */
typedef void (*ew_fn)(void *const *, size_t, size_t, size_t);
typedef void (*raw_fn)(void *const *, const unsigned *, const unsigned *, size_t, size_t,
                       const accel_twin *);

/* A launch copied for the queue (the desc is the caller's): one 8-byte slot
 * per argument, an array's address or a scalar's bytes (the bits of
 * `scalars`), so that the job has no pointers into itself and can be
 * copied by value into the queue's ring (kernel_enqueue), where it lives in
 * place when it fits; graph nodes keep it on the heap (kernel_prepare). The
 * entry's argument array is made on the stack when it runs. */
typedef struct cpu_kjob {
    uint32_t kind, num_args;
    uint32_t scalars; /* bit i: slot[i] holds the scalar's bytes */
    unsigned grid[3], block[3];
    uint32_t twin_flags; /* raw: ACCEL_TWIN_DEBUG (then bytes[] follows slot[]) */
    void *entry;
    size_t n, rows;
    uint64_t shared_bytes; /* raw: dynamic shared memory per block */
    char name[48];         /* "kernel NAME", for the fault message */
    uint64_t slot[];
} cpu_kjob;

/* The arguments a job held in a queue task can carry. */
#define KJOB_INLINE_ARGS ((sizeof(((accel_cpu_work *)0)->u.kjob) - sizeof(cpu_kjob)) / 8)
_Static_assert(KJOB_INLINE_ARGS >= 8, "a queue task holds a launch of 8 arguments in place");

static const char *config_value(const accel_cpu_ctx *ctx, const char *key)
{
    const accel_host_services *host = ctx->host;
    if (host->struct_size < offsetof(accel_host_services, reserved) || !host->config_get)
        return NULL;
    return host->config_get(host->host_ctx, key);
}

/* ------------------------------------------------------------ compilers */

/* "" when the compiler at path may run: owned by root or this user and
 * writable by no one else, and so is every folder above it (a folder others
 * may write only with the sticky bit), as the core checks plugins; else why
 * not. path is absolute. */
static void compiler_problem(const char *path, char *why, size_t cap)
{
    char real[PATH_MAX];
    why[0] = '\0';
    if (!realpath(path, real)) {
        snprintf(why, cap, "%s: %s", path, strerror(errno));
        return;
    }
    bool file = true; /* the compiler itself, then each folder above it */
    for (char *end = real + strlen(real); end > real; file = false) {
        struct stat st;
        if (stat(real, &st) != 0)
            break;
        bool others = file ? (st.st_mode & (S_IWGRP | S_IWOTH)) != 0
                           : (st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX);
        if (st.st_uid != 0 && st.st_uid != geteuid()) {
            snprintf(why, cap, "%s is owned by uid %u, neither root nor this user", real,
                     (unsigned)st.st_uid);
            return;
        }
        if (others) {
            snprintf(why, cap, "%s is writable by other users (mode %04o)", real,
                     (unsigned)st.st_mode & 07777u);
            return;
        }
        end = strrchr(real, '/');
        if (!end)
            break;
        *end = '\0';
        if (end == real) { /* the root folder */
            real[0] = '/', real[1] = '\0';
            if (stat(real, &st) == 0 && (st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX))
                snprintf(why, cap, "/ is writable by other users");
            return;
        }
    }
}

/* Where `name` would run from: an absolute name as it is, a bare name in
 * PATH's absolute folders only (never the current folder); false for none,
 * and for a relative name with a slash. No trust check. */
static bool path_lookup(const char *name, char *out, size_t cap)
{
    if (name[0] == '/') {
        snprintf(out, cap, "%s", name);
        return access(out, X_OK) == 0;
    }
    if (strchr(name, '/'))
        return false;
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        const char *colon = strchr(path, ':');
        size_t len = colon ? (size_t)(colon - path) : strlen(path);
        if (len > 0 && path[0] == '/') {
            snprintf(out, cap, "%.*s/%s", (int)len, path, name);
            if (access(out, X_OK) == 0)
                return true;
        }
        path += len + (colon ? 1 : 0);
    }
    return false;
}

/* The compiler `name` as a path: an absolute name as it is, a bare name
 * looked up in PATH's absolute folders only (never the current folder; a
 * relative name with a slash is refused for the same reason), then trust
 * checked. false with the reason in why when there is none to run. */
static bool find_on_path(const char *name, char *out, size_t cap, char *why, size_t wcap)
{
    why[0] = '\0';
    if (!path_lookup(name, out, cap)) {
        if (name[0] == '/')
            snprintf(why, wcap, "%s: %s", name, strerror(errno));
        else if (strchr(name, '/'))
            snprintf(why, wcap,
                     "%s is a relative path (give an absolute one, or a bare name looked "
                     "up in PATH)",
                     name);
        else
            snprintf(why, wcap, "no `%s` in PATH's absolute folders", name);
        return false;
    }
    char problem[PATH_MAX + 128];
    compiler_problem(out, problem, sizeof problem);
    if (problem[0]) {
        snprintf(why, wcap, "the compiler %s is refused: %s", out, problem);
        return false;
    }
    return true;
}

/* An address inside this plugin, for dladdr. */
static const char plugin_anchor = 0;

/* accel-tcc next to this plugin. The core loads plugins through
 * /proc/self/fd/N (kept open while loaded), which realpath resolves. The
 * helper runs code, so it is trusted only as the plugin is: owned by root
 * or this user and writable by no one else ("" otherwise). */
static void helper_path(char *out, size_t cap)
{
    Dl_info info;
    out[0] = '\0';
    char real[PATH_MAX];
    if (!dladdr(&plugin_anchor, &info) || !info.dli_fname || !realpath(info.dli_fname, real))
        return;
    snprintf(out, cap, "%s", real);
    char *slash = strrchr(out, '/');
    if (!slash) {
        out[0] = '\0';
        return;
    }
    *slash = '\0';
    char dir[PATH_MAX - 64];
    snprintf(dir, sizeof dir, "%.*s", (int)sizeof dir - 1, out);
    struct stat st;
    snprintf(out, cap, "%s/accel-tcc", dir);
#ifdef ACCEL_CPU_TCC_RELDIR
    if (stat(out, &st) != 0) /* the install tree: libexec/accel */
        snprintf(out, cap, "%s/%s/accel-tcc", dir, ACCEL_CPU_TCC_RELDIR);
#endif
    if (stat(out, &st) != 0 || !S_ISREG(st.st_mode) || (st.st_uid != 0 && st.st_uid != geteuid()) ||
        (st.st_mode & (S_IWGRP | S_IWOTH)))
        out[0] = '\0';
}

/* One warning per process when a configured cc gives way to tcc. */
static atomic_bool cc_fallback_warned;

/* Which compiler, by path; 0 none, 1 cc, 2 tcc. why: when none. */
static int pick_compiler(const accel_cpu_ctx *ctx, char *path, size_t cap, char *why, size_t wcap)
{
    /* The environment over the file, as every setting. */
    const char *want = getenv("ACCEL_CPU_KERNEL_COMPILER");
    const char *setting = "ACCEL_CPU_KERNEL_COMPILER=";
    if (!want || !*want) {
        want = config_value(ctx, "kernel_compiler");
        setting = "kernel_compiler = ";
    }
    if (!want || !*want)
        want = "auto", setting = "kernel_compiler = ";
    if (strcmp(want, "auto") != 0 && strcmp(want, "cc") != 0 && strcmp(want, "tcc") != 0) {
        snprintf(why, wcap, "cpu: %s%s: expected auto, cc or tcc", setting, want);
        return 0;
    }
    bool cc_ok = false, tcc_ok = false;
    char cc[PATH_MAX], tcc[PATH_MAX], cc_why[PATH_MAX + 256] = "";
    const char *cc_name = config_value(ctx, "cc");
    if (strcmp(want, "tcc") != 0)
        cc_ok = find_on_path(cc_name && *cc_name ? cc_name : "cc", cc, sizeof cc, cc_why,
                             sizeof cc_why);
    if (strcmp(want, "cc") != 0) {
        helper_path(tcc, sizeof tcc);
        tcc_ok = tcc[0] && access(tcc, X_OK) == 0;
    }
    if (cc_ok) {
        snprintf(path, cap, "%s", cc);
        return 1;
    }
    if (tcc_ok) {
        /* A `cc` the file names but that cannot run is worth a word. */
        if (cc_name && *cc_name && !atomic_exchange(&cc_fallback_warned, true))
            ctx->host->log(ctx->host->host_ctx, ACCEL_LOG_WARN,
                           "cc = %s: %s; user kernels are built by the embedded compiler", cc_name,
                           cc_why);
        snprintf(path, cap, "%s", tcc);
        return 2;
    }
    if (strcmp(want, "cc") == 0)
        snprintf(why, wcap, "cpu: no C compiler for user kernels (%scc: %s)", setting, cc_why);
    else if (strcmp(want, "tcc") == 0)
        snprintf(why, wcap,
                 "cpu: no C compiler for user kernels (%stcc: the embedded compiler's helper "
                 "accel-tcc is missing next to the plugin, or not trusted)",
                 setting);
    else
        snprintf(why, wcap,
                 "cpu: no C compiler for user kernels (%sauto: %s, and the embedded compiler's "
                 "helper accel-tcc is missing next to the plugin)",
                 setting, cc_why);
    return 0;
}

/* ------------------------------------------------- the identity's memo
 *
 * The core asks program_identity two or three times per kernel it looks up
 * (the cache key), and finding the compiler costs about 70 system calls
 * (PATH searched with access(), realpath, a stat per folder for the trust
 * check, the helper's dladdr and stat): most of a cached kernel's first
 * use. The last answer is kept with what it was made from: the settings
 * pick_compiler and cc_isa read (the environment and the file's values) and
 * the compiler file's stat (size, time, mode, owner: an upgrade or a chmod
 * makes it stale), and where `cc` resolves (cc_now). A memo hit costs a
 * stat and the PATH lookup of `cc`, not the trust walk. Not seen: a folder
 * above the compiler made writable by others after the first check in this
 * process. */

/* The settings the identity depends on, as one malloc'd text (NULL: out of
 * memory; then nothing is memoised). */
static char *identity_inputs(const accel_cpu_ctx *ctx)
{
    const char *v[] = {getenv("ACCEL_CPU_KERNEL_COMPILER"), config_value(ctx, "kernel_compiler"),
                       config_value(ctx, "cc"), getenv("PATH"), getenv("ACCEL_CPU_KERNEL_ISA")};
    size_t n = 1;
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        n += (v[i] ? strlen(v[i]) : 1) + 1;
    char *s = malloc(n), *p = s;
    for (size_t i = 0; s && i < sizeof v / sizeof *v; i++)
        p += sprintf(p, "%s\n", v[i] ? v[i] : "\x01"); /* unset differs from "" */
    return s;
}

/* Where the file's `cc` (else "cc") resolves now, "" where it is not found
 * (path_lookup: no trust walk). Kept with the memo, so that a `cc` link
 * retargeted, or one that appears earlier in PATH (or at all, where tcc
 * was taken), drops it: identity and build then name one compiler. */
static void cc_now(const accel_cpu_ctx *ctx, char *real, size_t cap)
{
    const char *name = config_value(ctx, "cc");
    char path[PATH_MAX], buf[PATH_MAX];
    real[0] = '\0';
    if (path_lookup(name && *name ? name : "cc", path, sizeof path) && realpath(path, buf))
        snprintf(real, cap, "%s", buf);
}

static bool same_file(const struct stat *st, const accel_cpu_ctx *ctx)
{
    return st->st_size == ctx->ident_size && (long long)st->st_mtime == ctx->ident_mtime &&
           (long long)st->st_mode == ctx->ident_mode && (long long)st->st_uid == ctx->ident_uid;
}

/* Copies the memo into out when in matches it and the compiler file is as
 * it was; true then. */
static bool identity_memo(accel_cpu_ctx *ctx, const char *in, char *out, size_t size)
{
    bool hit = false;
    pthread_mutex_lock(&ctx->ident_lock);
    struct stat st;
    char cc[PATH_MAX];
    if (in && ctx->ident_inputs && strcmp(in, ctx->ident_inputs) == 0 &&
        stat(ctx->ident_real, &st) == 0 && same_file(&st, ctx) && strlen(ctx->ident) < size &&
        (cc_now(ctx, cc, sizeof cc), strcmp(cc, ctx->ident_cc) == 0)) {
        snprintf(out, size, "%s", ctx->ident);
        hit = true;
    }
    pthread_mutex_unlock(&ctx->ident_lock);
    return hit;
}

static void identity_keep(accel_cpu_ctx *ctx, char *in, const char *real, const struct stat *st,
                          const char *ident)
{
    char cc[PATH_MAX];
    cc_now(ctx, cc, sizeof cc);
    if (!in || strlen(real) >= sizeof ctx->ident_real || strlen(ident) >= sizeof ctx->ident ||
        strlen(cc) >= sizeof ctx->ident_cc) {
        free(in);
        return;
    }
    pthread_mutex_lock(&ctx->ident_lock);
    snprintf(ctx->ident_cc, sizeof ctx->ident_cc, "%s", cc);
    free(ctx->ident_inputs);
    ctx->ident_inputs = in;
    snprintf(ctx->ident_real, sizeof ctx->ident_real, "%s", real);
    ctx->ident_size = st->st_size, ctx->ident_mtime = st->st_mtime;
    ctx->ident_mode = st->st_mode, ctx->ident_uid = st->st_uid;
    snprintf(ctx->ident, sizeof ctx->ident, "%s", ident);
    pthread_mutex_unlock(&ctx->ident_lock);
}

int32_t accel_cpu__program_identity(void *vctx, uint32_t device, uint32_t language, char *out,
                                    size_t size)
{
    accel_cpu_ctx *ctx = vctx;
    (void)device;
    out[0] = '\0';
    if (language != ACCEL_PROGRAM_C)
        return ACCEL_ERROR_UNSUPPORTED;
    char *in = identity_inputs(ctx);
    if (identity_memo(ctx, in, out, size)) {
        free(in);
        return ACCEL_SUCCESS;
    }
    char path[PATH_MAX], why[512], real[PATH_MAX];
    int which = pick_compiler(ctx, path, sizeof path, why, sizeof why);
    if (!which) {
        free(in);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    const char *isa = cc_isa(why, sizeof why); /* NULL: program_build says why */
    struct stat st;
    if (!realpath(path, real) || stat(real, &st) != 0) {
        free(in);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    /* The compiler's file identity stands for its version: an upgrade
     * changes size or time, and costs no process start per kernel. */
    int len = snprintf(out, size, "%s %s size %lld mtime %lld %s %s %s", which == 1 ? "cc" : "tcc",
                       real, (long long)st.st_size, (long long)st.st_mtime,
                       which == 1 ? CPU_CC_FLAGS_TEXT : "-nostdlib", which == 1 && isa ? isa : "",
#if defined(__x86_64__)
                       "x86_64"
#elif defined(__aarch64__)
                       "aarch64"
#else
                       "cpu"
#endif
    );
    if (len > 0 && (size_t)len < size)
        identity_keep(ctx, in, real, &st, out); /* whole: kept */
    else
        free(in);
    return ACCEL_SUCCESS;
}

/* Default of [backend.cpu] compile_timeout: seconds a compiler may run. */
#define CPU_COMPILE_TIMEOUT_S 120

/* Run argv, its stdout and stderr into log; returns the exit status (-1 on
 * a spawn failure or when it ran past timeout_s seconds, with the reason in
 * log). Its stdin is /dev/null (a source that includes "/dev/stdin" must
 * not read the host's); it runs in a process group of its own, killed
 * whole at the time limit (cc's cc1 child included). */
static int run_compiler(char *const argv[], char *log, size_t log_size, long timeout_s)
{
    /* Close-on-exec: a compiler started meanwhile by another thread must
     * not inherit this pipe (its read would wait for that one to exit);
     * dup2 onto 1 and 2 clears the flag for this child. */
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0) {
        snprintf(log, log_size, "pipe: %s", strerror(errno));
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
    posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
    posix_spawn_file_actions_addclose(&fa, pipefd[0]);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, &attr, argv, environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    close(pipefd[1]);
    if (rc != 0) {
        close(pipefd[0]);
        snprintf(log, log_size, "cannot start %s: %s", argv[0], strerror(rc));
        return -1;
    }
    size_t used = 0;
    char buf[4096];
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    bool late = false;
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        long left_ms = timeout_s * 1000 -
                       ((now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000);
        struct pollfd pfd = {pipefd[0], POLLIN, 0};
        int pr = left_ms > 0 ? poll(&pfd, 1, (int)(left_ms < 1000000 ? left_ms : 1000000)) : 0;
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr == 0) {
            late = true;
            kill(-pid, SIGKILL);
            break;
        }
        ssize_t r = read(pipefd[0], buf, sizeof buf);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        if (log && used + 1 < log_size) {
            size_t take = (size_t)r < log_size - 1 - used ? (size_t)r : log_size - 1 - used;
            memcpy(log + used, buf, take);
            used += take;
            log[used] = '\0';
        }
    }
    close(pipefd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (late) {
        snprintf(log, log_size,
                 "%s ran past the time limit of %ld s and was stopped ([backend.cpu] "
                 "compile_timeout)",
                 argv[0], timeout_s);
        return -1;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status)
                             : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

static void *read_file(const char *path, size_t *size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    void *data = NULL;
    if (fstat(fd, &st) == 0 && st.st_size > 0 && (data = malloc((size_t)st.st_size))) {
        size_t got = 0;
        while (got < (size_t)st.st_size) {
            ssize_t r = read(fd, (char *)data + got, (size_t)st.st_size - got);
            if (r <= 0)
                break;
            got += (size_t)r;
        }
        if (got != (size_t)st.st_size) {
            free(data);
            data = NULL;
        }
        *size = got;
    }
    close(fd);
    return data;
}

/* Load a shared object image through a memfd; entry resolved. */
static int32_t load_image(accel_cpu_ctx *ctx, const char *name, const void *data, size_t size,
                          const char *entry, accel_be_program *p)
{
    /* Kernels call the C library's math functions; make libm global. */
    if (!dlopen("libm.so.6", RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD))
        dlopen("libm.so.6", RTLD_NOW | RTLD_GLOBAL);
    int fd = memfd_create("accel-kernel", MFD_CLOEXEC);
    if (fd < 0) {
        ctx->host->set_error(ctx->host->host_ctx, "%s: memfd_create: %s", name, strerror(errno));
        return ACCEL_ERROR_IO;
    }
    size_t done = 0;
    while (done < size) {
        ssize_t w = write(fd, (const char *)data + done, size - done);
        if (w <= 0) {
            close(fd);
            ctx->host->set_error(ctx->host->host_ctx, "%s: writing the kernel image: %s", name,
                                 strerror(errno));
            return ACCEL_ERROR_IO;
        }
        done += (size_t)w;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        const char *e = dlerror();
        close(fd);
        ctx->host->set_error(ctx->host->host_ctx, "%s: loading the compiled kernel: %s", name,
                             e ? e : "dlopen failed");
        return ACCEL_ERROR_IO;
    }
    void *sym = dlsym(dl, entry);
    if (!sym) {
        dlclose(dl);
        close(fd);
        ctx->host->set_error(ctx->host->host_ctx, "%s: the compiled kernel lacks its entry %s",
                             name, entry);
        return ACCEL_ERROR_IO;
    }
    p->dl = dl;
    p->memfd = fd;
    p->entry = sym;
    return ACCEL_SUCCESS;
}

/* Build folders of processes that were killed mid-build
 * (accel-kernel-PID-XXXXXX in tmp, ours, PID gone): their k.c and k.so are
 * removed with the folder. A folder holding anything else is left alone, as
 * is one whose PID is alive (or reused). Best effort, silent. */
static void sweep_dead_builds(const char *tmp)
{
    DIR *d = opendir(tmp);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        char *end = NULL;
        if (strncmp(e->d_name, "accel-kernel-", 13) != 0)
            continue;
        long pid = strtol(e->d_name + 13, &end, 10);
        if (pid <= 0 || !end || *end != '-' || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 ||
            errno != ESRCH)
            continue;
        struct stat st;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
            st.st_uid != geteuid())
            continue;
        int fd = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
            continue;
        unlinkat(fd, "k.c", 0);
        unlinkat(fd, "k.so", 0);
        close(fd);
        unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
    }
    closedir(d);
}

/* Compile d->source with the chosen compiler in a fresh build folder; the
 * shared object's bytes land in p->binary. On failure p->binary is NULL and
 * the message is set. */
static int32_t compile_source(accel_cpu_ctx *ctx, const accel_program_desc *d, const char *name,
                              accel_be_program *p)
{
    char cc[PATH_MAX], why[512];
    int which = pick_compiler(ctx, cc, sizeof cc, why, sizeof why);
    const char *isa = which ? cc_isa(why, sizeof why) : NULL; /* checked for tcc too */
    if (!which || !isa) {
        ctx->host->set_error(ctx->host->host_ctx, "%s: %s", name, why);
        return which ? ACCEL_ERROR_CONFIG : ACCEL_ERROR_UNSUPPORTED;
    }
    const char *tmp = getenv("TMPDIR");
    tmp = tmp && tmp[0] == '/' ? tmp : "/tmp";
    sweep_dead_builds(tmp);
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/accel-kernel-%ld-XXXXXX", tmp, (long)getpid());
    if (!mkdtemp(dir)) {
        ctx->host->set_error(ctx->host->host_ctx, "%s: cannot make a build folder: %s", name,
                             strerror(errno));
        return ACCEL_ERROR_IO;
    }
    char src[PATH_MAX + 8], obj[PATH_MAX + 8];
    snprintf(src, sizeof src, "%s/k.c", dir);
    snprintf(obj, sizeof obj, "%s/k.so", dir);
    int32_t rc = ACCEL_SUCCESS;
    FILE *f = fopen(src, "w");
    if (!f || fputs(d->source, f) < 0) {
        rc = ACCEL_ERROR_IO;
        ctx->host->set_error(ctx->host->host_ctx, "%s: cannot write %s: %s", name, src,
                             strerror(errno));
    }
    if (f && fclose(f) != 0 && rc == ACCEL_SUCCESS) {
        rc = ACCEL_ERROR_IO; /* a full TMPDIR shows here: say so */
        ctx->host->set_error(ctx->host->host_ctx, "%s: cannot write %s: %s", name, src,
                             strerror(errno));
    }
    if (rc == ACCEL_SUCCESS) {
        /* the flag last (cc applies it to the whole build): absent, it ends argv */
        char *argv_cc[] = {cc,  CPU_CC_FLAGS, "-o", obj, src, "-lm", isa[0] ? (char *)isa : NULL,
                           NULL};
        char *argv_tcc[] = {cc, obj, src, NULL};
        char local[1024];
        char *log = d->log && d->log_size ? d->log : local;
        size_t log_size = d->log && d->log_size ? d->log_size : sizeof local;
        log[0] = '\0';
        const char *t = config_value(ctx, "compile_timeout");
        long timeout_s = t && atol(t) > 0 ? atol(t) : CPU_COMPILE_TIMEOUT_S;
        int status = run_compiler(which == 1 ? argv_cc : argv_tcc, log, log_size, timeout_s);
        if (status < 0) {
            /* Not the user's source: the compiler could not run (EMFILE,
             * ENOMEM) or ran out of time. The reason is in log. */
            rc = ACCEL_ERROR_UNSUPPORTED;
            ctx->host->set_error(ctx->host->host_ctx, "%s: %s could not build it: %s", name,
                                 which == 1 ? "the C compiler" : "the embedded compiler", log);
        } else if (status != 0) {
            rc = ACCEL_ERROR_COMPILE;
            ctx->host->set_error(ctx->host->host_ctx, "%s: %s failed (exit %d)", name,
                                 which == 1 ? "the C compiler" : "the embedded compiler", status);
        } else if (!(p->binary = read_file(obj, &p->binary_size))) {
            rc = ACCEL_ERROR_IO;
            ctx->host->set_error(ctx->host->host_ctx, "%s: cannot read the compiled kernel %s",
                                 name, obj);
        }
    }
    unlink(src);
    unlink(obj);
    rmdir(dir);
    if (rc != ACCEL_SUCCESS) {
        free(p->binary);
        p->binary = NULL;
    }
    return rc;
}

int32_t accel_cpu__program_build(void *vctx, uint32_t device, const accel_program_desc *d,
                                 accel_be_program **out, const void **out_binary,
                                 size_t *out_binary_size)
{
    accel_cpu_ctx *ctx = vctx;
    (void)device;
    *out = NULL;
    *out_binary = NULL;
    *out_binary_size = 0;
    const char *name = d->name ? d->name : "kernel";
    if (d->language != ACCEL_PROGRAM_C || d->entry_count != 1) {
        ctx->host->set_error(ctx->host->host_ctx, "%s: the cpu backend compiles C (one entry) only",
                             name);
        return ACCEL_ERROR_UNSUPPORTED;
    }
    accel_be_program *p = calloc(1, sizeof *p);
    if (!p) {
        ctx->host->set_error(ctx->host->host_ctx, "%s: out of host memory", name);
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    p->memfd = -1;
    if (d->binary) {
        if (!(p->binary = malloc(d->binary_size))) {
            free(p);
            ctx->host->set_error(ctx->host->host_ctx, "%s: out of host memory", name);
            return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
        }
        memcpy(p->binary, d->binary, d->binary_size);
        p->binary_size = d->binary_size;
    } else {
        int32_t rc = compile_source(ctx, d, name, p);
        if (rc != ACCEL_SUCCESS) {
            free(p);
            return rc;
        }
    }
    int32_t rc = load_image(ctx, name, p->binary, p->binary_size, d->entries[0], p);
    if (rc != ACCEL_SUCCESS) {
        free(p->binary);
        free(p);
        return rc;
    }
    *out = p;
    *out_binary = p->binary;
    *out_binary_size = p->binary_size;
    return ACCEL_SUCCESS;
}

void accel_cpu__program_release(void *ctx, accel_be_program *p)
{
    (void)ctx;
    if (!p)
        return;
    if (p->dl)
        dlclose(p->dl);
    if (p->memfd >= 0)
        close(p->memfd);
    free(p->binary);
    free(p);
}

/* ------------------------------------------------------------ fault guard */

/* The first fault of a launch (any thread of the team). */
typedef struct guard_fault {
    atomic_int sig;
    int code;
    void *addr;
    size_t lo, hi;
} guard_fault;

/* One block of user code, guarded; false (and *f filled if first) on a
 * fault. The jump target is this frame, which lives until the call ends. */
static bool guard_call(const cpu_kjob *j, void *const *args, size_t lo, size_t hi, guard_fault *f,
                       const accel_twin *tw)
{
    if (atomic_load_explicit(&f->sig, memory_order_relaxed))
        return false; /* an earlier block faulted: the launch has failed */
    sigjmp_buf env;
    if (sigsetjmp(env, 0)) {
        int sig, code;
        void *addr;
        accel_cpu__guard_seen(&sig, &code, &addr);
        int expected = 0;
        if (atomic_compare_exchange_strong(&f->sig, &expected, sig)) {
            f->code = code;
            f->addr = addr;
            f->lo = lo;
            f->hi = hi;
        }
        return false;
    }
    accel_cpu__guard_swap(&env);
    atomic_signal_fence(memory_order_seq_cst);
    if (j->kind == ACCEL_KERNEL_RAW) {
        raw_fn fn;
        memcpy(&fn, &j->entry, sizeof fn);
        fn(args, j->grid, j->block, lo, hi, tw);
    } else {
        ew_fn fn;
        memcpy(&fn, &j->entry, sizeof fn);
        fn(args, lo, hi, j->n);
    }
    atomic_signal_fence(memory_order_seq_cst);
    accel_cpu__guard_swap(NULL);
    return true;
}

static const char *fault_what(int sig, int code)
{
    switch (sig) {
    case SIGFPE:
        return code == FPE_INTDIV   ? "integer division by zero"
               : code == FPE_INTOVF ? "integer overflow (such as INT_MIN / -1)"
                                    : "arithmetic exception";
    case SIGILL:
        return "illegal instruction: a trap the C compiler put where the code has undefined "
               "behaviour, such as a division by a constant zero";
    case SIGBUS:
        return "bus error: a misaligned or unmapped access";
    case SIGSEGV:
        return "invalid memory access";
    default:
        return "fault";
    }
}

static const char *sig_name(int sig)
{
    return sig == SIGFPE   ? "SIGFPE"
           : sig == SIGILL ? "SIGILL"
           : sig == SIGBUS ? "SIGBUS"
                           : "SIGSEGV";
}

static int32_t fault_report(const cpu_kjob *j, const guard_fault *f, const accel_cpu_twin *T,
                            char *msg, size_t msg_size)
{
    int sig = atomic_load(&f->sig);
    if (sig == ACCEL_CPU_TWIN_FAULT) {
        if (msg && msg_size)
            snprintf(msg, msg_size, "%s", T && T->fault[0] ? T->fault : j->name);
        return ACCEL_ERROR_KERNEL_FAULT;
    }
    const char *what = fault_what(sig, f->code);
    const char *unit = j->kind == ACCEL_KERNEL_RAW         ? "blocks"
                       : j->kind == ACCEL_KERNEL_REDUCTION ? "rows"
                                                           : "elements";
    char addr[48] = "";
    if (sig == SIGSEGV || sig == SIGBUS)
        snprintf(addr, sizeof addr, " at address %p", f->addr);
    if (msg && msg_size)
        snprintf(msg, msg_size,
                 "%s: the CPU code stopped on %s (%s)%s in %s [%zu, %zu); its outputs are "
                 "incomplete",
                 j->name, sig_name(sig), what, addr, unit, f->lo, f->hi);
    return ACCEL_ERROR_KERNEL_FAULT;
}

/* ------------------------------------------------------------ launches */

static size_t kjob_size(uint32_t num_args, uint32_t twin_flags)
{
    size_t per = (twin_flags & ACCEL_TWIN_DEBUG) ? 2 : 1; /* debug: the arrays' bytes too */
    return sizeof(cpu_kjob) + (size_t)num_args * per * sizeof(uint64_t);
}

/* A launch's flags as the job keeps them (older cores leave 0). */
static uint32_t desc_twin_flags(const accel_kernel_launch_desc *L)
{
    return L->kind == ACCEL_KERNEL_RAW ? L->twin_flags & ACCEL_TWIN_DEBUG : 0;
}

/* Fill j (room for L's arguments) from the launch. */
static void kjob_fill(cpu_kjob *j, const accel_op_desc *d)
{
    const accel_kernel_launch_desc *L = d->kernel;
    const char *name = d->name ? d->name : "kernel";
    j->kind = L->kind;
    j->twin_flags = desc_twin_flags(L);
    j->shared_bytes = L->kind == ACCEL_KERNEL_RAW ? L->shared_bytes : 0;
    j->entry = L->program->entry;
    j->n = L->n;
    j->rows = L->rows;
    for (int i = 0; i < 3; i++) {
        j->grid[i] = L->grid[i];
        j->block[i] = L->block[i];
    }
    size_t c = strnlen(name, sizeof j->name - 1);
    memcpy(j->name, name, c);
    j->name[c] = '\0';
    j->num_args = L->num_args;
    j->scalars = 0;
    for (uint32_t i = 0; i < L->num_args; i++) {
        const accel_kernel_arg_desc *a = &L->args[i];
        if (a->kind == ACCEL_KARG_ARRAY) {
            /* every dtype's size (bool, int8/16, uint16/32/64 too) */
            size_t es = accel_backend_dtype_size(a->dtype);
            uintptr_t addr = (uintptr_t)((char *)a->buffer->data + a->offset * es);
            j->slot[i] = (uint64_t)addr;
            if (j->twin_flags & ACCEL_TWIN_DEBUG)
                j->slot[L->num_args + i] = (uint64_t)(a->count * es);
        } else {
            memcpy(&j->slot[i], a->value.bytes, 8);
            j->scalars |= 1u << i;
        }
    }
}

static int32_t kjob_check(accel_cpu_ctx *ctx, const accel_op_desc *d)
{
    const accel_kernel_launch_desc *L = d->kernel;
    if (!L || !L->program || L->num_args > 32) {
        ctx->host->set_error(ctx->host->host_ctx, "%s: no cpu program for this launch",
                             d->name ? d->name : "kernel");
        return ACCEL_ERROR_UNSUPPORTED;
    }
    return ACCEL_SUCCESS;
}

int32_t accel_cpu__kernel_prepare(accel_cpu_ctx *ctx, const accel_op_desc *d, void **out_job)
{
    int32_t rc = kjob_check(ctx, d);
    if (rc != ACCEL_SUCCESS)
        return rc;
    cpu_kjob *j = malloc(kjob_size(d->kernel->num_args, desc_twin_flags(d->kernel)));
    if (!j) {
        ctx->host->set_error(ctx->host->host_ctx, "%s: out of host memory",
                             d->name ? d->name : "kernel");
        return ACCEL_ERROR_OUT_OF_HOST_MEMORY;
    }
    kjob_fill(j, d);
    *out_job = j;
    return ACCEL_SUCCESS;
}

void *accel_cpu__kernel_clone(const void *job)
{
    const cpu_kjob *j = job;
    cpu_kjob *c = malloc(kjob_size(j->num_args, j->twin_flags));
    if (c)
        memcpy(c, j, kjob_size(j->num_args, j->twin_flags));
    return c;
}

void accel_cpu__kernel_free(void *job)
{
    free(job);
}

/* The worker's calls of a launch task (accel_cpu_work): run it in place or
 * from the heap, or free it unrun after an earlier failure. */
static int32_t kernel_work_inline(accel_cpu_work *w, int threads, char *msg, size_t msg_size)
{
    return accel_cpu__kernel_exec(w->u.kjob, threads, msg, msg_size);
}

static int32_t kernel_work_heap(accel_cpu_work *w, int threads, char *msg, size_t msg_size)
{
    int32_t rc = accel_cpu__kernel_exec(w->u.ptr, threads, msg, msg_size);
    free(w->u.ptr);
    return rc;
}

static void kernel_work_discard(accel_cpu_work *w)
{
    free(w->u.ptr);
}

int32_t accel_cpu__kernel_enqueue(accel_cpu_ctx *ctx, accel_be_queue *q, const accel_op_desc *d)
{
    int32_t rc = kjob_check(ctx, d);
    if (rc != ACCEL_SUCCESS)
        return rc;
    accel_cpu_work w;
    w.discard = NULL;
    /* The core's own small kernels (ACCEL_LAUNCH_BRIEF) run on the caller's
     * thread when the queue is idle, as small built-in ops do (ops.c): the
     * hand-off to the worker was most of a 1024-element array op. */
    const bool brief = (d->kernel->launch_flags & ACCEL_LAUNCH_BRIEF) != 0;
    /* Most launches travel in the task itself: no allocation per launch. */
    if (d->kernel->num_args <= KJOB_INLINE_ARGS && !desc_twin_flags(d->kernel)) {
        w.run = kernel_work_inline;
        kjob_fill((cpu_kjob *)(void *)w.u.kjob, d);
        if (brief && accel_cpu__queue_run_inline(q, &w))
            return ACCEL_SUCCESS;
        return accel_cpu__queue_enqueue_work(q, &w);
    }
    void *j;
    rc = accel_cpu__kernel_prepare(ctx, d, &j);
    if (rc != ACCEL_SUCCESS)
        return rc;
    w.run = kernel_work_heap;
    w.discard = kernel_work_discard;
    w.u.ptr = j;
    if (brief && accel_cpu__queue_run_inline(q, &w))
        return ACCEL_SUCCESS; /* kernel_work_heap freed j */
    rc = accel_cpu__queue_enqueue_work(q, &w);
    if (rc != ACCEL_SUCCESS)
        free(j);
    return rc;
}

/* A raw launch's twin runtime: the arguments' bounds (debug builds). */
static void twin_prepare(accel_cpu_twin *T, const cpu_kjob *j, void *const *argv)
{
    accel_cpu__twin_init(T, j->name, j->twin_flags, (size_t)j->shared_bytes);
    for (uint32_t i = 0; i < j->num_args && (j->twin_flags & ACCEL_TWIN_DEBUG); i++) {
        bool array = !((j->scalars >> i) & 1u);
        T->arg_base[i] = array ? argv[i] : NULL;
        T->arg_bytes[i] = array ? (size_t)j->slot[j->num_args + i] : 0;
    }
}

/* Units of blocks a raw launch is cut into, at least, for each worker
 * (scheduled statically): enough to even out blocks of unequal work. */
enum { UNITS_PER_WORKER = 4 };

int32_t accel_cpu__kernel_exec(const void *job, int threads, char *msg, size_t msg_size)
{
    const cpu_kjob *j = job;
    /* A debug launch runs its blocks in order on one thread: the first
     * fault it reports is the first in block order. */
    const int nt = (j->twin_flags & ACCEL_TWIN_DEBUG) ? 1 : threads;
    accel_cpu__guard_install();
    void *argv[32];
    for (uint32_t i = 0; i < j->num_args; i++)
        argv[i] = (j->scalars >> i) & 1u ? (void *)&j->slot[i] : (void *)(uintptr_t)j->slot[i];
    void *const *args = argv;
    guard_fault f;
    atomic_init(&f.sig, 0);
    f.code = 0;
    f.addr = NULL;
    f.lo = f.hi = 0;
    accel_cpu_twin twin, *T = NULL;
    /* Blocks of work: elements, rows of a reduction, or (block) indices of
     * a raw kernel's grid; each one guarded call. */
    size_t total, per;
    if (j->kind == ACCEL_KERNEL_ELEMENTWISE) {
        total = j->n;
        per = ACCEL_CPU_EW_BLOCK;
    } else if (j->kind == ACCEL_KERNEL_REDUCTION) {
        total = j->rows;
        per = j->n >= ACCEL_CPU_EW_BLOCK ? 1 : ACCEL_CPU_EW_BLOCK / (j->n ? j->n : 1);
    } else {
        total = (size_t)j->grid[0] * j->grid[1] * j->grid[2];
        const size_t threads_per = (size_t)j->block[0] * j->block[1] * j->block[2];
        per = threads_per >= 4096 ? 1 : 4096 / threads_per;
        /* At least UNITS_PER_WORKER units for each worker where the grid has
         * the blocks: the generated reductions' few heavy threads (4096
         * rows of an axis-1 sum, 16 blocks of 256) made one unit, run by
         * one worker while the others waited. */
        size_t want = (size_t)(nt > 0 ? nt : 1) * UNITS_PER_WORKER;
        if (total / per < want)
            per = total / want ? total / want : 1;
        T = &twin;
        twin_prepare(T, j, argv);
    }
    const accel_twin *tw = T ? &T->tw : NULL;
    ACCEL_CPU_FOR_BLOCKS(b, (total + per - 1) / per, {
        size_t lo = b * per, hi = lo + per < total ? lo + per : total;
        (void)guard_call(j, args, lo, hi, &f, tw);
    });
    int32_t rc = atomic_load(&f.sig) ? fault_report(j, &f, T, msg, msg_size) : ACCEL_SUCCESS;
    if (T)
        accel_cpu__twin_finish(T);
    return rc;
}
