/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* stress_hostcopy.c — the CUDA backend's host copy pool (backends/cuda/
 * hostcopy.c) on its own: needs no GPU, only the CUDA build. Ring copies
 * (accel_cuda__ring_copy) of random sizes (0 to 40 MiB) from and to random
 * offsets, with random piece sizes and slot counts, on 1, 4 and 16 threads
 * (more than this machine's cores is the point: a descheduled worker must
 * not lose or hold up a part), through a pretend DMA engine; each checked
 * byte for byte against the source, with the bytes just outside the
 * destination range unchanged, and failing DMA starts returned; and the
 * copy_threads values that the configuration must refuse. A plain program,
 * like stress_concurrency, so that the tsan preset can run it. Exit 0: all
 * passed. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

static char last_error[256];

static void on_log(void *host_ctx, int level, const char *fmt, ...)
{
    (void)host_ctx;
    (void)level;
    (void)fmt;
}

static void on_error(void *host_ctx, const char *fmt, ...)
{
    (void)host_ctx;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
}

/* Ring copies (accel_cuda__ring_copy) with a pretend DMA engine: a slot's
 * DMA is a pending move that happens when done() first finds it due (a
 * random few microseconds after start), so a copy thread that filled a
 * slot before its last DMA was done, or copied a slot out before its DMA
 * was, leaves wrong bytes behind. */
typedef struct fake_dma {
    unsigned char *dev;
    int to_device;
    void *slot[ACCEL_CUDA_STAGING_CHUNKS];
    int pending[ACCEL_CUDA_STAGING_CHUNKS];
    size_t off[ACCEL_CUDA_STAGING_CHUNKS], len[ACCEL_CUDA_STAGING_CHUNKS];
    unsigned polls[ACCEL_CUDA_STAGING_CHUNKS];
    unsigned fail_at; /* start() number that fails (0: none) */
    unsigned starts;
} fake_dma;

static int32_t fake_start(void *user, unsigned slot, size_t off, size_t len)
{
    fake_dma *f = user;
    if (f->pending[slot]) {
        printf("FAIL: a DMA started in slot %u before its last one was done\n", slot);
        return ACCEL_ERROR_INTERNAL;
    }
    if (f->fail_at && ++f->starts == f->fail_at)
        return ACCEL_ERROR_DEVICE;
    f->pending[slot] = 1;
    f->off[slot] = off;
    f->len[slot] = len;
    f->polls[slot] = (unsigned)rand() % 8u;
    return ACCEL_SUCCESS;
}

static int32_t fake_done(void *user, unsigned slot, int *out_done)
{
    fake_dma *f = user;
    if (f->pending[slot] && f->polls[slot]-- == 0) {
        if (f->to_device)
            memcpy(f->dev + f->off[slot], f->slot[slot], f->len[slot]);
        else
            memcpy(f->slot[slot], f->dev + f->off[slot], f->len[slot]);
        f->pending[slot] = 0;
    }
    *out_done = !f->pending[slot];
    return ACCEL_SUCCESS;
}

static void fake_finish(fake_dma *f)
{
    for (unsigned s = 0; s < ACCEL_CUDA_STAGING_CHUNKS; s++) {
        int d = 0;
        while (fake_done(f, s, &d) == ACCEL_SUCCESS && !d)
            ;
    }
}

static int ring_run_all(unsigned threads, int copies, const unsigned char *src, unsigned char *dst,
                        size_t max)
{
    accel_host_services hs;
    memset(&hs, 0, sizeof hs);
    hs.log = on_log;
    hs.set_error = on_error;
    accel_cuda_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.host = &hs;
    pthread_mutex_init(&ctx.copy_pool_lock, NULL);
    char value[16];
    snprintf(value, sizeof value, "%u", threads);
    int fails = 0;
    if (accel_cuda__host_copy_configure(&ctx, value) != ACCEL_SUCCESS ||
        accel_cuda__host_copy_threads(&ctx) != threads) {
        printf("FAIL: copy_threads = %s not taken: %s\n", value, last_error);
        fails++;
    }
    static const accel_cuda_ring_ops ops = {fake_start, fake_done};
    fake_dma f;
    memset(&f, 0, sizeof f);
    f.dev = malloc(max + 128);
    const size_t piece_max = (size_t)1 << 20;
    for (unsigned i = 0; i < ACCEL_CUDA_STAGING_CHUNKS; i++)
        f.slot[i] = malloc(piece_max);
    unsigned first = 0;
    srand(1000 + threads);
    for (int i = 0; i < copies && !fails && f.dev; i++) {
        size_t len = (size_t)rand() % (i % 3 == 0 ? max : ((size_t)3 << 20)) + (size_t)(i % 5);
        size_t piece = ((size_t)64 << 10) << (rand() % 5); /* 64 KiB .. 1 MiB */
        unsigned k = 1 + (unsigned)rand() % ACCEL_CUDA_STAGING_CHUNKS;
        size_t so = (size_t)rand() % 64;
        f.to_device = i % 2;
        f.fail_at = i % 11 == 10 ? 1u + (unsigned)rand() % 4u : 0u;
        f.starts = 0;
        first %= k;
        int32_t st;
        if (f.to_device) {
            memset(f.dev, 0xEE, len + 1);
            st = accel_cuda__ring_copy(&ctx, 1, (void *)(src + so), len, f.slot, k, first, piece,
                                       &ops, &f);
            fake_finish(&f);
            if (st == ACCEL_SUCCESS && (memcmp(f.dev, src + so, len) != 0 || f.dev[len] != 0xEE)) {
                printf("FAIL: %u threads, ring write %d of %zu bytes (pieces %zu, %u slots)\n",
                       threads, i, len, piece, k);
                fails++;
            }
        } else {
            memcpy(f.dev, src + so, len);
            memset(dst, 0xEE, len + 2);
            st = accel_cuda__ring_copy(&ctx, 0, dst + 1, len, f.slot, k, first, piece, &ops, &f);
            fake_finish(&f);
            if (st == ACCEL_SUCCESS &&
                (memcmp(dst + 1, src + so, len) != 0 || dst[0] != 0xEE || dst[len + 1] != 0xEE)) {
                printf("FAIL: %u threads, ring read %d of %zu bytes (pieces %zu, %u slots)\n",
                       threads, i, len, piece, k);
                fails++;
            }
        }
        if (f.fail_at && len && st == ACCEL_SUCCESS && f.starts >= f.fail_at) {
            printf("FAIL: ring copy %d: a failed DMA start was not returned\n", i);
            fails++;
        }
        if (!f.fail_at && st != ACCEL_SUCCESS) {
            printf("FAIL: ring copy %d returned %d\n", i, (int)st);
            fails++;
        }
        first = (unsigned)((first + (len + piece - 1) / piece) % k);
    }
    if (!fails)
        printf("ok: %d ring copies on %u thread%s\n", copies, threads, threads == 1 ? "" : "s");
    for (unsigned i = 0; i < ACCEL_CUDA_STAGING_CHUNKS; i++)
        free(f.slot[i]);
    free(f.dev);
    accel_cuda__host_copy_shutdown(&ctx);
    pthread_mutex_destroy(&ctx.copy_pool_lock);
    return fails;
}

int main(void)
{
    const size_t max = (size_t)40 << 20;
    unsigned char *src = malloc(max + 128), *dst = malloc(max + 128);
    if (!src || !dst)
        return 1;
    for (size_t i = 0; i < max + 128; i++)
        src[i] = (unsigned char)(i * 131u + 7u);
    int fails = 0;
    fails += ring_run_all(1, 100, src, dst, max);
    fails += ring_run_all(4, 400, src, dst, max);
    fails += ring_run_all(16, 200, src, dst, max);
    /* Values the configuration refuses, with the key in the message. */
    static const char *const bad[] = {"17", "-1", "x", "4x", ""};
    accel_host_services hs;
    memset(&hs, 0, sizeof hs);
    hs.log = on_log;
    hs.set_error = on_error;
    accel_cuda_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.host = &hs;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        last_error[0] = '\0';
        if (accel_cuda__host_copy_configure(&ctx, bad[i]) != ACCEL_ERROR_CONFIG ||
            !strstr(last_error, "copy_threads")) {
            printf("FAIL: copy_threads = '%s' accepted or unexplained (%s)\n", bad[i], last_error);
            fails++;
        }
    }
    if (accel_cuda__host_copy_configure(&ctx, NULL) != ACCEL_SUCCESS || ctx.copy_threads != 0) {
        printf("FAIL: no copy_threads key is not automatic\n");
        fails++;
    }
    free(src);
    free(dst);
    printf("%s\n", fails ? "FAILED" : "all passed");
    return fails != 0;
}
