/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* guard.c — the CPU backend's fault guard: user code (kernel.c's launches
 * and the C twins of twin.c) runs with a per-thread jump target that
 * SIGFPE, SIGILL, SIGBUS and SIGSEGV return to, so that a fault fails the
 * launch instead of the process. Signals that are not ours go to the
 * handler that was there before. */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"

/* Per thread: where the guarded call on this thread jumps back to (NULL:
 * not in user code), and the fault it saw. initial-exec: the handler must
 * not make the loader allocate this thread's block (not signal-safe). */
typedef struct guard_state {
    sigjmp_buf *jmp;
    int sig, code;
    void *addr;
} guard_state;
static __thread guard_state tl_guard __attribute__((tls_model("initial-exec")));

static const int guard_signals[4] = {SIGFPE, SIGILL, SIGBUS, SIGSEGV};
static struct sigaction guard_old[4];
static atomic_int guard_installed;
static pthread_once_t guard_once = PTHREAD_ONCE_INIT;

static void guard_handler(int sig, siginfo_t *si, void *uc)
{
    guard_state *g = &tl_guard;
    sigjmp_buf *j = g->jmp;
    if (j) {
        g->jmp = NULL;
        g->sig = sig;
        g->code = si ? si->si_code : 0;
        g->addr = si ? si->si_addr : NULL;
        siglongjmp(*j, 1);
    }
    /* Not ours: what was there before us. */
    int i = 0;
    while (i < 3 && guard_signals[i] != sig)
        i++;
    const struct sigaction *o = &guard_old[i];
    if (o->sa_handler == SIG_IGN)
        return;
    if (o->sa_handler == SIG_DFL) {
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        sigaction(sig, &dfl, NULL);
        raise(sig); /* a fault re-executes and faults again into the default */
        return;
    }
    if (o->sa_flags & SA_SIGINFO)
        o->sa_sigaction(sig, si, uc);
    else
        o->sa_handler(sig);
}

sigjmp_buf *accel_cpu__guard_swap(sigjmp_buf *j)
{
    guard_state *g = &tl_guard;
    sigjmp_buf *old = g->jmp;
    g->jmp = j;
    return old;
}

void accel_cpu__guard_seen(int *sig, int *code, void **addr)
{
    const guard_state *g = &tl_guard;
    *sig = g->sig;
    *code = g->code;
    *addr = g->addr;
}

_Noreturn void accel_cpu__guard_stop(void)
{
    guard_state *g = &tl_guard;
    sigjmp_buf *j = g->jmp;
    if (!j)
        abort(); /* internal: the twin stops only under a guard */
    g->jmp = NULL;
    g->sig = ACCEL_CPU_TWIN_FAULT;
    g->code = 0;
    g->addr = NULL;
    siglongjmp(*j, 1);
}

static void guard_install_once(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = guard_handler;
    /* SA_NODEFER: the jump back leaves the signal unblocked, so the next
     * fault on this thread is caught too (sigsetjmp saves no mask, which
     * keeps the guard off the system-call path). */
    sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 4; i++)
        sigaction(guard_signals[i], &sa, &guard_old[i]);
    atomic_store(&guard_installed, 1);
}

void accel_cpu__guard_install(void)
{
    pthread_once(&guard_once, guard_install_once);
}

/* The plugin is unloaded: give the signals back, where they are still ours. */
__attribute__((destructor)) static void guard_uninstall(void)
{
    if (!atomic_load(&guard_installed))
        return;
    for (int i = 0; i < 4; i++) {
        struct sigaction cur;
        if (sigaction(guard_signals[i], NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) &&
            cur.sa_sigaction == guard_handler)
            sigaction(guard_signals[i], &guard_old[i], NULL);
    }
}
