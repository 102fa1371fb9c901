/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* refuse_dlopen.c — an LD_PRELOAD shim for the fallback_cuda test: dlopen
 * fails for every library whose name contains one of the comma-separated
 * words in ACCEL_TEST_REFUSE_DLOPEN (for example "libcublas,libnvrtc"), as
 * on a machine where that library is missing; every other dlopen goes to
 * the C library's. The CUDA backend then has no GEMM (cuBLAS) and no
 * run-time compiler (NVRTC), so those ops fall back to the CPU. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

typedef void *(*dlopen_fn)(const char *, int);

static int refused(const char *file)
{
    const char *list = getenv("ACCEL_TEST_REFUSE_DLOPEN");
    if (!file || !list)
        return 0;
    char words[512];
    strncpy(words, list, sizeof words - 1);
    words[sizeof words - 1] = '\0';
    char *save = NULL;
    for (char *w = strtok_r(words, ",", &save); w; w = strtok_r(NULL, ",", &save))
        if (*w && strstr(file, w))
            return 1;
    return 0;
}

__attribute__((visibility("default"))) void *dlopen(const char *file, int mode)
{
    if (refused(file))
        return NULL;
    void *sym = dlsym(RTLD_NEXT, "dlopen");
    dlopen_fn real = NULL;
    /* A function pointer's bytes from an object pointer's (POSIX dlsym). */
    memcpy(&real, &sym, sizeof real);
    return real ? real(file, mode) : NULL;
}
