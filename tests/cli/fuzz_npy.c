/* fuzz_npy.c — libFuzzer target for the .npy reader (accel_npy_load_memory).
 * Not part of the CMake build; build and run by hand with clang:
 *   clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Icore \
 *     -D_GNU_SOURCE tests/cli/fuzz_npy.c core/npy.c core/status.c -o fuzz_npy
 *   ./fuzz_npy -max_total_time=60 CORPUS_DIR   (seed it with a few .npy files)
 * (link whatever core file defines accel__set_error; it is status.c today). */
#include <stddef.h>
#include <stdint.h>

#include "accel/npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    accel_npy_array a;
    if (accel_npy_load_memory(data, size, "fuzz", &a) == ACCEL_SUCCESS)
        accel_npy_free(&a);
    return 0;
}
