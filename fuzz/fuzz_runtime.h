/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* fuzz_runtime.h — the runtime the whole-core harnesses (fuzz_kernel,
 * fuzz_codegen, fuzz_graph) share the setup of: one CPU runtime from the
 * plugin built alongside (ACCEL_FUZZ_CPU_PLUGIN), one worker thread, no
 * disk cache, opened once per process. Header-only: each harness is one
 * translation unit. */
#ifndef ACCEL_FUZZ_RUNTIME_H
#define ACCEL_FUZZ_RUNTIME_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "accel/accel.h"

/* Opens the runtime with `extra` appended to [backend.cpu] (ini lines,
 * "" for none), and its cpu:0 into *dev (NULL: not wanted). Aborts, naming
 * the harness, when it cannot: a fuzzer without a runtime tests nothing. */
static accel_runtime *fuzz_runtime_open(const char *harness, const char *extra, accel_device **dev)
{
    char dir[] = "/tmp/accel-fuzz-XXXXXX";
    if (!mkdtemp(dir))
        abort();
    char path[sizeof dir + 16];
    snprintf(path, sizeof path, "%s/plugins.ini", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        abort();
    fprintf(f,
            "[runtime]\norder = cpu\nkernel_cache = off\n[backend.cpu]\nlibrary = %s\n"
            "threads = 1\n%s",
            ACCEL_FUZZ_CPU_PLUGIN, extra);
    fclose(f);
    accel_runtime *rt = NULL;
    accel_status st = accel_runtime_open(path, &rt);
    unlink(path);
    rmdir(dir);
    if (st == ACCEL_SUCCESS && dev)
        st = accel_device_get_by_name(rt, "cpu:0", dev);
    if (st != ACCEL_SUCCESS) {
        fprintf(stderr, "%s: %s\n", harness, accel_last_error());
        abort();
    }
    return rt;
}

#endif /* ACCEL_FUZZ_RUNTIME_H */
