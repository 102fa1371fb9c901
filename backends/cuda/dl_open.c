/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* dl_open.c — opening a CUDA toolkit library at run time (dl_open.h). */
#include "dl_open.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

void *accel_cuda__dl_open(const char *soname, char *err, size_t cap)
{
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
#ifdef ACCEL_CUDA_TOOLKIT_LIBDIR
    if (!lib) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", ACCEL_CUDA_TOOLKIT_LIBDIR, soname);
        lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    }
#endif
    if (!lib) {
        const char *why = dlerror();
        snprintf(err, cap, "cannot load %s: %s", soname, why ? why : "unknown reason");
    }
    return lib;
}

bool accel_cuda__dl_sym(void *lib, const char *soname, const char *name, void *out, char *err,
                        size_t cap)
{
    void *sym = dlsym(lib, name);
    if (!sym) {
        snprintf(err, cap, "%s: symbol %s missing", soname, name);
        return false;
    }
    /* A function pointer's bytes from an object pointer's (POSIX dlsym). */
    memcpy(out, &sym, sizeof sym);
    return true;
}
