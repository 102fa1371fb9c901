/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* guard.h — the CPU backend's fault guard (guard.c), as kernel.c's
 * launches and twin.c's C twins use it. */
#ifndef ACCEL_CPU_GUARD_H
#define ACCEL_CPU_GUARD_H

#include <setjmp.h>

/* The pseudo signal a launch stops with when the twin itself found the
 * fault (a debug check, a race, a deadlock); the message is the launch's. */
#define ACCEL_CPU_TWIN_FAULT 1000

/* Install the handlers once per process (thread-safe); they are given back
 * when the plugin is unloaded, where they are still ours. */
void accel_cpu__guard_install(void);
/* Swap this thread's jump target (NULL: not in user code); returns the old
 * one. A fault under a target jumps there (sigsetjmp returns 1) with the
 * target cleared. */
sigjmp_buf *accel_cpu__guard_swap(sigjmp_buf *j);
/* After such a jump: the signal (or ACCEL_CPU_TWIN_FAULT), its si_code and
 * the faulting address this thread's guard saw. */
void accel_cpu__guard_seen(int *sig, int *code, void **addr);
/* Stop the running launch with ACCEL_CPU_TWIN_FAULT (never returns; the
 * guard's jump target must be set). */
_Noreturn void accel_cpu__guard_stop(void);

#endif /* ACCEL_CPU_GUARD_H */
