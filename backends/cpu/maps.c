/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* maps.c — the CPU backend's large buffers: each in a mapping of its own
 * between guard regions, with transparent huge pages asked for, and the
 * mappings of freed buffers kept a while for the next buffer of their size.
 *
 * Why keep them: a fresh mapping is committed page by page as it is first
 * written, one page fault per 4 KiB, and in a virtual machine a fault costs
 * microseconds. The array layer's scratch buffers (a reduction's partials,
 * a sort's keys) are made and freed by every call: the axis-0 sum of 4096^2
 * float32 on the 2-core EPYC VM faulted 256 times a call (its 1 MiB of
 * partials), about 2 ms of an 8 ms call (perf: clear_page_erms 18% of the
 * samples). glibc's malloc keeps freed heap memory for the same reason. */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cpu.h"

/* The address space a buffer's back guard reserves: as much as the buffer,
 * at least CPU_GUARD_MIN (an index off by a large stride jumps far past a
 * small buffer), at most CPU_GUARD_MAX. */
#define CPU_GUARD_MIN ((size_t)64 << 20)
#define CPU_GUARD_MAX ((size_t)1 << 30)
/* Buffers from this size on ask for transparent huge pages (NumPy's
 * threshold). */
#define CPU_HUGEPAGE_BYTES ((size_t)4 << 20)
/* Kept mappings hold at most this many bytes of buffer in all, and none
 * larger than CPU_KEPT_ONE. */
#define CPU_KEPT_ALL ((size_t)256 << 20)
#define CPU_KEPT_ONE ((size_t)64 << 20)

static size_t page_size(void)
{
    return (size_t)sysconf(_SC_PAGESIZE);
}

/* The mapping's body: bytes rounded up to whole pages. */
static size_t body_of(size_t bytes)
{
    size_t page = page_size();
    return (bytes + page - 1) / page * page;
}

/* The data's address in a mapping of body bytes: it ends where the back
 * guard starts (to 64 bytes). */
static void *data_in(void *map, size_t body, size_t bytes)
{
    size_t used = (bytes + ACCEL_CPU_ALIGN - 1) / ACCEL_CPU_ALIGN * ACCEL_CPU_ALIGN;
    return (char *)map + page_size() + body - used;
}

/* A kept mapping of body bytes taken off the list, or NULL. */
static accel_cpu_map *take_kept(accel_cpu_ctx *ctx, size_t body, accel_cpu_map *out)
{
    accel_cpu_map *got = NULL;
    pthread_mutex_lock(&ctx->map_lock);
    for (uint32_t i = ctx->nmaps; i-- > 0;)
        if (ctx->maps[i].body == body) {
            *out = ctx->maps[i];
            memmove(&ctx->maps[i], &ctx->maps[i + 1], (ctx->nmaps - i - 1) * sizeof *ctx->maps);
            ctx->nmaps--;
            ctx->kept_bytes -= body;
            got = out;
            break;
        }
    pthread_mutex_unlock(&ctx->map_lock);
    return got;
}

/* A large buffer in a mapping of its own, between a one-page guard before
 * and a guard as large as the buffer (64 MiB to 1 GiB) after it, both
 * PROT_NONE (address space only: nothing is committed). The data ends where
 * the back guard starts (to 64 bytes), so a raw kernel that writes past the
 * end faults at once, which the launch reports as ACCEL_ERROR_KERNEL_FAULT
 * (kernel.c's fault guard), instead of overwriting a neighbouring buffer
 * and the heap. */
void *accel_cpu__map_alloc(accel_cpu_ctx *ctx, size_t bytes, void **out_map, size_t *out_map_bytes)
{
    if (bytes > SIZE_MAX / 4)
        return NULL;
    size_t page = page_size(), body = body_of(bytes);
    accel_cpu_map kept;
    if (take_kept(ctx, body, &kept)) {
        *out_map = kept.map;
        *out_map_bytes = kept.map_bytes;
        return data_in(kept.map, body, bytes);
    }
    size_t back = body < CPU_GUARD_MIN   ? CPU_GUARD_MIN
                  : body < CPU_GUARD_MAX ? body
                                         : CPU_GUARD_MAX;
    size_t total = page + body + back;
    char *map = mmap(NULL, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED)
        return NULL;
    /* The body is mapped again without MAP_NORESERVE (mprotect would keep
     * the flag), so the kernel's overcommit check refuses a body larger
     * than memory here, as malloc would, instead of the OOM killer ending
     * the process when the buffer is written. */
    if (mmap(map + page, body, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
             0) == MAP_FAILED) {
        munmap(map, total);
        return NULL;
    }
#ifdef MADV_HUGEPAGE
    /* Transparent huge pages where the system leaves them to madvise (as
     * NumPy asks for arrays of 4 MiB and more). Advice only: its failure
     * changes nothing. */
    if (body >= CPU_HUGEPAGE_BYTES)
        (void)madvise(map + page, body, MADV_HUGEPAGE);
#endif
    *out_map = map;
    *out_map_bytes = total;
    return data_in(map, body, bytes);
}

/* Keeps the mapping of a freed buffer of bytes where it fits the limits
 * (the oldest kept ones unmapped to make room), else unmaps it. A kept
 * body's pages are given up lazily (MADV_FREE): the kernel takes them back
 * only under memory pressure, so kept mappings cost no memory anyone else
 * needs. A buffer's contents are undefined when it is made, kept or not. */
void accel_cpu__map_free(accel_cpu_ctx *ctx, void *map, size_t map_bytes, size_t bytes)
{
    size_t body = body_of(bytes);
    accel_cpu_map drop[ACCEL_CPU_MAPS_KEPT + 1];
    uint32_t nd = 0;
    if (body > CPU_KEPT_ONE) {
        drop[nd++] = (accel_cpu_map){map, map_bytes, body};
    } else {
#ifdef MADV_FREE
        (void)madvise((char *)map + page_size(), body, MADV_FREE);
#endif
        pthread_mutex_lock(&ctx->map_lock);
        while (ctx->nmaps &&
               (ctx->nmaps == ACCEL_CPU_MAPS_KEPT || ctx->kept_bytes + body > CPU_KEPT_ALL)) {
            drop[nd++] = ctx->maps[0]; /* the oldest */
            ctx->kept_bytes -= ctx->maps[0].body;
            memmove(&ctx->maps[0], &ctx->maps[1], --ctx->nmaps * sizeof *ctx->maps);
        }
        ctx->maps[ctx->nmaps++] = (accel_cpu_map){map, map_bytes, body};
        ctx->kept_bytes += body;
        pthread_mutex_unlock(&ctx->map_lock);
    }
    for (uint32_t i = 0; i < nd; i++)
        munmap(drop[i].map, drop[i].map_bytes);
}

void accel_cpu__maps_drop(accel_cpu_ctx *ctx)
{
    pthread_mutex_lock(&ctx->map_lock);
    for (uint32_t i = 0; i < ctx->nmaps; i++)
        munmap(ctx->maps[i].map, ctx->maps[i].map_bytes);
    ctx->nmaps = 0;
    ctx->kept_bytes = 0;
    pthread_mutex_unlock(&ctx->map_lock);
    pthread_mutex_destroy(&ctx->map_lock);
}
