/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* info_view.c — the facts both views of `accel info` print the same way: the
 * environment variables the program reads, and a device's dtype list. */
#include <stdio.h>
#include <string.h>

#include <accel/kernel.h>

#include "info_view.h"

const char *const info_env_vars[] = {"ACCEL_CONFIG",
                                     "ACCEL_BACKEND",
                                     "ACCEL_LOG",
                                     "ACCEL_TRACE",
                                     "ACCEL_VERIFY",
                                     "ACCEL_REPORT",
                                     "ACCEL_ALLOW_INSECURE",
                                     "ACCEL_KERNEL_CACHE",
                                     "ACCEL_KERNEL_DEBUG",
                                     "ACCEL_CPU_KERNEL_COMPILER",
                                     "ACCEL_CPU_KERNEL_ISA",
                                     "ACCEL_CPU_VMATH",
                                     "ACCEL_ARRAY_WALK",
                                     "ACCEL_MPI_NCCL",
                                     NULL};

const char *info_dtypes(uint32_t mask, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int t = 1; t < ACCEL_DTYPE_COUNT_ && n < cap; t++)
        if (mask & (1u << t)) {
            int w =
                snprintf(buf + n, cap - n, "%s%s", n ? " " : "", accel_dtype_name((accel_dtype)t));
            n += w > 0 ? (size_t)w : 0;
        }
    if (!buf[0])
        snprintf(buf, cap, "none");
    return buf;
}

const char *info_kernel_compiler(accel_device *dev, char *buf, size_t cap)
{
    char id[512];
    if (accel_kernel_compiler_get(dev, id, sizeof id) != ACCEL_SUCCESS) {
        snprintf(buf, cap, "none (%s)", accel_last_error());
        return buf;
    }
    char *cut = strstr(id, " size "); /* cc and tcc: the file's identity follows */
    if (cut)
        *cut = '\0';
    snprintf(buf, cap, "%s", id);
    return buf;
}
