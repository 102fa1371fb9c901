/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* fuzz_npy.c — libFuzzer harness for the .npy reader (accel_npy_load_memory in
 * core/io/npy.c). Built by fuzz/CMakeLists.txt with ACCEL_FUZZ=ON and clang; the
 * same file, linked with replay_main.c, replays the seed and regression
 * corpora as a ctest in every build. Adopted from tests/cli/fuzz_npy.c. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "accel/npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    accel_npy_array a;
    if (accel_npy_load_memory(data, size, "fuzz", &a) == ACCEL_SUCCESS) {
        /* Touch every byte the reader promised, so a short allocation shows up
         * under ASan, and check the invariants npy.h documents. */
        size_t esize = 0; /* every dtype npy.h says the reader gives */
        switch (a.dtype) {
        case ACCEL_BOOL:
        case ACCEL_I8:
        case ACCEL_U8:
            esize = 1;
            break;
        case ACCEL_I16:
        case ACCEL_U16:
        case ACCEL_F16:
            esize = 2;
            break;
        case ACCEL_I32:
        case ACCEL_U32:
        case ACCEL_F32:
            esize = 4;
            break;
        case ACCEL_I64:
        case ACCEL_U64:
        case ACCEL_F64:
        case ACCEL_C64:
            esize = 8;
            break;
        case ACCEL_C128:
            esize = 16;
            break;
        default:
            break; /* bf16 and unknown dtypes: never read */
        }
        size_t product = 1;
        for (uint32_t i = 0; i < a.ndim; i++)
            product *= a.shape[i];
        if (a.data == NULL || esize == 0 || a.ndim > ACCEL_NPY_MAX_DIMS || product != a.count)
            __builtin_trap();
        volatile unsigned char sink = 0;
        const unsigned char *bytes = a.data;
        for (size_t i = 0; i < a.count * esize; i++)
            sink ^= bytes[i];
        (void)sink;
        accel_npy_free(&a);
    }
    return 0;
}
