/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* core/kernels/kernel_twin.h — the C twin of a raw CUDA kernel
 * (kernel_twin.c): what the source uses, and the program the CPU backend
 * compiles (prelude, the user's text rewritten, the entry). Not installed. */
#ifndef ACCEL_CORE_KERNEL_TWIN_H
#define ACCEL_CORE_KERNEL_TWIN_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/kernels.h"

/* What a raw source uses (accel__twin_uses), bits. */
#define ACCEL__TW_FIBERS 1u  /* barriers or warp collectives: a context per thread */
#define ACCEL__TW_TEAM 2u    /* runs through the backend's run_blocks (printf, shared) */
#define ACCEL__TW_SHARED 4u  /* static __shared__ */
#define ACCEL__TW_DYNAMIC 8u /* extern __shared__ */
#define ACCEL__TW_FADD 16u   /* atomicAdd (results may depend on the order) */

/* Verify mode's default bound for a kernel that calls atomicAdd (its float
 * sums depend on the order): a sum of n >= 0 terms in any order is within
 * (n - 1) u of the exact one (Higham, Accuracy and Stability of Numerical
 * Algorithms, 2nd ed., eq. 4.4), so two orders of up to 2048 terms differ by
 * at most 4096 ulp. */
#define ACCEL__TWIN_FADD_ULP 4096u

/* The bits above for a raw source with comments and strings blanked. */
uint32_t accel__twin_uses(const char *blank);

/* The raw kernel's twin after the C prelude: CUDA's names as C, the user's
 * text with a context handed to every __global__ and __device__ function
 * (same lines), and the entry `entry` (backend.h). debug: every indexing
 * of a pointer parameter or a shared array goes through tw->check.
 * malloc'ed; NULL when out of host memory. */
char *accel__twin_program(const accel_kernel *k, const char *entry, bool debug);

/* The raw scalar mask bit that asks for the debug build (raw kernels have
 * no scalar inputs, so no other bit is ever set). */
#define ACCEL__KMASK_DEBUG 0x80000000u

/* kernel_check.c: a debug launch on a GPU queue: its arrays read to the
 * host, the debug twin run on the runtime's CPU device, the outputs written
 * back, in q's order (as a fallback). */
accel_status accel__kernel_debug_enqueue(accel_queue *q, accel__klaunch *L);

#endif /* ACCEL_CORE_KERNEL_TWIN_H */
