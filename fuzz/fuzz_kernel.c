/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* fuzz_kernel.c — libFuzzer harness for user kernel source: the parsers of
 * accel_kernel_elementwise_create, accel_kernel_reduction_create and
 * accel_kernel_raw_create (parameter lists, the __global__ entry search, the
 * CPU-twin construct check on raw CUDA source, core/kernels/kernel.c) and the source
 * generation for both languages (core/kernels/kernel_codegen.c) of every kernel that
 * was accepted. Nothing is compiled: a build would hand arbitrary source to
 * TCC or NVRTC, which are not ours to fuzz.
 *
 * Input: byte 0 picks the kind (raw, elementwise, reduction) and the scalar
 * mask of the generated source; the rest is split at newlines into the
 * kind's fields (raw: entry, then the source; elementwise: in_params,
 * out_params, body; reduction: in_params, out_params, map, reduce,
 * identity, post), the last field taking everything left. One runtime on
 * the CPU backend (ACCEL_FUZZ_CPU_PLUGIN) serves every input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "accel/kernel.h"

#include "fuzz_runtime.h"
#include "kernels/kernels.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static accel_runtime *rt;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    rt = fuzz_runtime_open("fuzz_kernel", "", NULL);
    return 0;
}

/* Splits s at its first n - 1 newlines into fields[0..n-1] (in place). */
static void split(char *s, char **fields, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        fields[i] = s;
        if (i + 1 == n)
            break;
        char *nl = strchr(s, '\n');
        if (nl) {
            *nl = '\0';
            s = nl + 1;
        } else {
            s += strlen(s);
        }
    }
}

static void generate(accel_kernel *handle, uint32_t mask)
{
    accel__type type;
    accel__gate *gate;
    accel_kernel *k = accel__handle_peek(handle, &type, &gate);
    if (!k || type != ACCEL__T_KERNEL)
        __builtin_trap(); /* a created kernel must resolve */
    const uint32_t langs[2] = {ACCEL_PROGRAM_C, ACCEL_PROGRAM_CUDA};
    for (int i = 0; i < 2; i++) {
        char entry[ACCEL__KNAME_MAX + 16];
        char *src = accel__kernel_codegen(k, langs[i], mask, entry);
        if (src && (!entry[0] || !strstr(src, entry)))
            __builtin_trap(); /* the entry named must be defined in the source */
        free(src);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 65536)
        return 0;
    char *s = malloc(size);
    if (!s)
        return 0;
    memcpy(s, data + 1, size - 1);
    s[size - 1] = '\0';
    uint32_t kind = data[0] % 3u;
    uint32_t mask = data[0] & 0x80 ? 0xffffffffu : (data[0] >> 2) & 0x1fu;
    char *f[6];
    accel_kernel *k = NULL;
    accel_status st;
    if (kind == 0) {
        split(s, f, 2);
        st = accel_kernel_raw_create(rt, f[1], f[0], NULL, &k);
    } else if (kind == 1) {
        split(s, f, 3);
        st = accel_kernel_elementwise_create(rt, "fz", f[0], f[1], f[2], NULL, &k);
    } else {
        split(s, f, 6);
        st = accel_kernel_reduction_create(rt, "fz", f[0], f[1], f[2], f[3], f[4], f[5], NULL, &k);
    }
    if (st == ACCEL_SUCCESS) {
        if (!k)
            __builtin_trap();
        generate(k, mask);
        accel_kernel_release(k);
    } else if (k || !accel_last_error()[0]) {
        __builtin_trap(); /* a refusal says why and returns no kernel */
    }
    free(s);
    return 0;
}
