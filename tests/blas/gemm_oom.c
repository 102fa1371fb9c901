/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* gemm_oom.c — run by tests/blas/gemm_oom.sh (a timeout): opens the
 * CPU backend (selftest = false, so nothing warmed OpenBLAS up), takes
 * nearly all the address space that is left with malloc, and enqueues a
 * GEMM. Near out of host memory OpenBLAS would retry its allocation for
 * ever (or exit the process); the GEMM must instead fail with
 * ACCEL_ERROR_OUT_OF_HOST_MEMORY and a message, and after the memory is
 * given back the same GEMM must give the right answer. The script's timeout
 * turns a hang into a failure. The address-space limit is set here, after
 * setup (see below). One thread: libgomp exits the process when it
 * cannot create a team's threads, which no library can catch. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "accel/accel.h"

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        fprintf(stderr, "gemm_oom: FAILED: " __VA_ARGS__);                                         \
        fprintf(stderr, " (last error: %s)\n", accel_last_error());                                \
        exit(1);                                                                                   \
    } while (0)

/* The bytes this process maps now (VmSize of /proc/self/status); 0 when
 * unknown. */
static size_t vm_bytes(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    unsigned long long kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmSize: %llu kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return (size_t)kb << 10;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        FAIL("usage: gemm_oom TMPDIR CPU_PLUGIN");
    char path[4096];
    snprintf(path, sizeof path, "%s/gemm_oom.ini", argv[1]);
    FILE *f = fopen(path, "w");
    if (!f)
        FAIL("cannot write %s", path);
    fprintf(f,
            "[runtime]\norder = cpu\nselftest = false\n[backend.cpu]\nlibrary = %s\n"
            "threads = 1\n",
            argv[2]);
    fclose(f);
    accel_runtime *rt;
    accel_device *dev;
    accel_queue *q;
    accel_buffer *ba, *bb, *bc;
    enum { N = 256 };
    static float a[N * N], b[N * N], c[N * N];
    for (int i = 0; i < N * N; i++) {
        a[i] = (float)(i % 7);
        b[i] = (float)(i % 5) * 0.5f;
    }
    if (accel_runtime_open(path, &rt) || accel_device_get_by_name(rt, "cpu", &dev) ||
        accel_queue_create(dev, &q) || accel_buffer_create(dev, sizeof a, &ba) ||
        accel_buffer_create(dev, sizeof b, &bb) || accel_buffer_create(dev, sizeof c, &bc) ||
        accel_queue_write(q, ba, 0, a, sizeof a) || accel_queue_write(q, bb, 0, b, sizeof b) ||
        accel_queue_finish(q))
        FAIL("setup");
    /* The address-space limit: what the process maps after setup plus 512
     * MiB, set here instead of a fixed `ulimit -v` in the script, since what
     * loading the runtime and OpenBLAS maps differs between machines: under
     * a fixed 1.5 GB the GPU machine (16 cores) had less than OpenBLAS's
     * 80 MiB left even after the memory came back. */
    size_t vm = vm_bytes();
    if (!vm)
        FAIL("cannot read VmSize from /proc/self/status");
    struct rlimit lim = {vm + ((size_t)512 << 20), vm + ((size_t)512 << 20)};
    if (setrlimit(RLIMIT_AS, &lim) != 0)
        FAIL("setrlimit(RLIMIT_AS, %zu MiB)", (size_t)lim.rlim_cur >> 20);
    printf("address space: %zu MiB mapped after setup, limit %zu MiB\n", vm >> 20,
           (size_t)lim.rlim_cur >> 20);
    /* Take what is left in halving chunks down to 4 MiB: less than 8 MiB
     * stays free, room for small allocations but not for OpenBLAS's work
     * space. */
    void **held = NULL;
    size_t nheld = 0, cap = 0, total = 0;
    for (size_t sz = (size_t)1 << 30; sz >= ((size_t)4 << 20);) {
        void *p = malloc(sz);
        if (!p) {
            sz /= 2;
            continue;
        }
        memset(p, 1, 64);
        if (nheld == cap) {
            cap = cap ? 2 * cap : 64;
            void **grown = realloc(held, cap * sizeof *held);
            if (!grown) {
                free(p);
                break;
            }
            held = grown;
        }
        held[nheld++] = p;
        total += sz;
    }
    accel_status st = accel_matmul(q, ACCEL_F32, N, N, N, ba, bb, bc);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_finish(q);
    if (st != ACCEL_ERROR_OUT_OF_HOST_MEMORY)
        FAIL("GEMM near out of memory (%zu MiB taken) gave %s, not out of host memory", total >> 20,
             accel_status_name(st));
    if (!strstr(accel_last_error(), "OpenBLAS"))
        FAIL("the message does not say what was short");
    printf("near out of memory: %s\n", accel_last_error());
    while (nheld)
        free(held[--nheld]);
    free(held);
    if (accel_matmul(q, ACCEL_F32, N, N, N, ba, bb, bc) ||
        accel_queue_read_blocking(q, bc, 0, c, sizeof c))
        FAIL("GEMM after the memory came back");
    for (int i = 0; i < N; i += 17)
        for (int j = 0; j < N; j += 13) {
            double ref = 0;
            for (int l = 0; l < N; l++)
                ref += (double)a[i * N + l] * (double)b[l * N + j];
            if (fabs((double)c[i * N + j] - ref) > 1e-3 * fabs(ref) + 1e-6)
                FAIL("C[%d][%d] = %g, reference %g", i, j, (double)c[i * N + j], ref);
        }
    accel_runtime_close(rt);
    printf("gemm_oom: passed\n");
    return 0;
}
