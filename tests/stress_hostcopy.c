/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* stress_hostcopy.c — the CUDA backend's host copy pool (backends/cuda/
 * hostcopy.c) on its own: needs no GPU, only the CUDA build. Copies of
 * random sizes (0 to 40 MiB) between random offsets through
 * accel_cuda__host_copy on 1, 4 and 16 threads (more than this machine's
 * cores is the point: a descheduled worker must not lose or hold up a part),
 * each checked byte for byte against the source, with the bytes just
 * outside the destination range unchanged; and the copy_threads values that
 * the configuration must refuse. A plain program, like stress_concurrency,
 * so that the tsan preset can run it. Exit 0: all passed. */
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

static int run(unsigned threads, int copies, const unsigned char *src, unsigned char *dst,
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
    srand(threads);
    for (int i = 0; i < copies && !fails; i++) {
        size_t len = (size_t)rand() % (i % 3 == 0 ? max : ((size_t)2 << 20)) + (size_t)(i % 5);
        size_t so = (size_t)rand() % 64, d0 = 1 + (size_t)rand() % 63;
        memset(dst, 0xEE, len + d0 + 1);
        accel_cuda__host_copy(&ctx, dst + d0, src + so, len);
        if (memcmp(dst + d0, src + so, len) != 0 || dst[d0 - 1] != 0xEE || dst[d0 + len] != 0xEE) {
            printf("FAIL: %u threads, copy %d of %zu bytes (source +%zu, destination +%zu)\n",
                   threads, i, len, so, d0);
            fails++;
        }
    }
    if (!fails)
        printf("ok: %d copies on %u thread%s (pool %s)\n", copies, threads, threads == 1 ? "" : "s",
               ctx.copy_pool ? "made" : "none");
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
    fails += run(1, 100, src, dst, max);
    fails += run(4, 600, src, dst, max);
    fails += run(16, 300, src, dst, max);
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
