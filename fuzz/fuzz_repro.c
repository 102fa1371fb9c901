/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* fuzz_repro.c — libFuzzer harness for the repro file reader of `accel
 * replay` (repro_load in tools/accel/repro_file.c: libzip, cJSON and the
 * .npy reader on an untrusted .npz). Built like fuzz_npy.c. repro_load reads
 * a path, so each input is written to one temporary file first (_GNU_SOURCE
 * for pwrite and ftruncate comes from fuzz/CMakeLists.txt). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "repro_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    static int fd = -1;
    if (fd < 0) {
        snprintf(path, sizeof path, "/tmp/accel-fuzz-repro-XXXXXX");
        fd = mkstemp(path);
        if (fd < 0)
            __builtin_trap();
        unlink(path); /* reopened through /proc/self/fd below */
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
        __builtin_trap();
    repro r;
    char why[600];
    if (repro_load(path, &r, why, sizeof why)) {
        /* Touch every byte the reader promised, so a short allocation shows
         * up under ASan. */
        uint32_t out = r.d.num_operands - 1;
        size_t window = r.lo + r.d.operands[out].count + r.hi;
        volatile unsigned char sink = 0;
        for (uint32_t i = 0; i < r.d.num_operands; i++) {
            const unsigned char *b = r.data[i];
            size_t n = (i == out ? window : r.d.operands[i].count) * r.esize;
            for (size_t k = 0; k < n; k++)
                sink ^= b[k];
        }
        for (size_t k = 0; k < window * r.esize; k++)
            sink ^= ((const unsigned char *)r.device_out)[k] ^
                    ((const unsigned char *)r.reference_out)[k];
        (void)sink;
    } else if (!why[0]) {
        __builtin_trap(); /* every refusal says why */
    }
    repro_free(&r);
    return 0;
}
