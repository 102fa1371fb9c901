/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* info_collectives.c — what `accel info` says about collectives between
 * processes, gathered once for the text and the JSON view: whether
 * libaccel_mpi was built (next to libaccel) and the MPI library it links,
 * NCCL as each GPU's backend finds it (with NCCL's version), and the
 * transport accel_comm_create would pick on each device ("mpi", "nccl",
 * "mpi-staged", as accel_comm_transport names them; accel/mpi.h). */
#define _GNU_SOURCE /* dladdr, RTLD_NOLOAD */
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "accel/collective.h"
#include "info_view.h"
#include "value.h" /* accel__env_bool: the library's reading of a boolean */

/* accel_mpi_info of accel/mpi.h, which the program cannot include (it needs
 * <mpi.h>); struct_size-versioned, so a library with a longer struct refuses
 * this one instead of writing past it. */
typedef struct mpi_info {
    uint32_t struct_size;
    char mpi_library[128];
    int mpi_version, mpi_subversion;
} mpi_info;

/* libaccel_mpi.so.MAJOR in libaccel's folder, into path; false when there is
 * no such readable file. */
static bool mpi_library_path(char *path, size_t cap)
{
    Dl_info di;
    const char *(*fn)(void) = accel_version;
    void *addr; /* an address inside libaccel (ISO C has no function-to-object cast) */
    memcpy(&addr, &fn, sizeof addr);
    path[0] = '\0';
    if (!dladdr(addr, &di) || !di.dli_fname)
        return false;
    const char *slash = strrchr(di.dli_fname, '/');
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - di.dli_fname) : 1,
             slash ? di.dli_fname : ".");
    char real[PATH_MAX]; /* "build/bin/../lib" as "build/lib" */
    int n = snprintf(path, cap, "%s/libaccel_mpi.so.%d", realpath(dir, real) ? real : dir,
                     ACCEL_VERSION_MAJOR);
    if (n < 0 || (size_t)n >= cap || access(path, R_OK) != 0)
        return false;
    return true;
}

/* The MPI library's version through accel_mpi_info_get, which MPI allows
 * before MPI_Init (MPI_Get_library_version, MPI_Get_version: MPI 3.1
 * section 8.7): loading libaccel_mpi and libmpi starts no MPI. The library
 * stays loaded until the program exits (closing MPI libraries early is not
 * safe with every implementation). */
static void mpi_versions(info_collectives *c)
{
    void *lib = dlopen(c->mpi_path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        snprintf(c->mpi_error, sizeof c->mpi_error, "cannot load it: %s", why ? why : "?");
        return;
    }
    accel_status (*get)(mpi_info *) = NULL;
    void *sym = dlsym(lib, "accel_mpi_info_get");
    memcpy(&get, &sym, sizeof get);
    mpi_info mi;
    memset(&mi, 0, sizeof mi);
    mi.struct_size = sizeof mi;
    if (!get) {
        snprintf(c->mpi_error, sizeof c->mpi_error, "it has no accel_mpi_info_get");
    } else if (get(&mi) != ACCEL_SUCCESS) {
        snprintf(c->mpi_error, sizeof c->mpi_error, "accel_mpi_info_get: %s", accel_last_error());
    } else {
        snprintf(c->mpi_library, sizeof c->mpi_library, "%s", mi.mpi_library);
        snprintf(c->mpi_version, sizeof c->mpi_version, "%d.%d", mi.mpi_version, mi.mpi_subversion);
    }
}

/* NCCL's version as "2.21.5", from the libnccl.so.2 the backend has already
 * loaded (RTLD_NOLOAD: never a second search). ncclGetVersion's code is
 * major*10000 + minor*100 + patch since NCCL 2.9, major*1000 + minor*100 +
 * patch before (NCCL_VERSION_CODE of nccl.h). */
static void nccl_version(char *buf, size_t cap)
{
    buf[0] = '\0';
    void *lib = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (!lib)
        return;
    int (*get)(int *) = NULL;
    void *sym = dlsym(lib, "ncclGetVersion");
    memcpy(&get, &sym, sizeof get);
    int code = 0;
    if (get && get(&code) == 0 && code > 0) {
        int major = code >= 10000 ? code / 10000 : code / 1000;
        int minor = code >= 10000 ? code % 10000 / 100 : code % 1000 / 100;
        snprintf(buf, cap, "%d.%d.%d", major, minor, code % 100);
    }
    dlclose(lib); /* drops only this reference */
}

/* Why no device uses NCCL when none is a GPU: from the backend that would
 * carry it. */
static void no_gpu_reason(accel_runtime *rt, info_collectives *c)
{
    snprintf(c->nccl_reason, sizeof c->nccl_reason, "no cuda backend is configured");
    for (uint32_t i = 0; i < accel_runtime_backend_count(rt); i++) {
        accel_backend_info bi;
        memset(&bi, 0, sizeof bi);
        bi.struct_size = sizeof bi;
        if (accel_runtime_backend_info(rt, i, &bi) != ACCEL_SUCCESS || !bi.name ||
            strcmp(bi.name, "cuda") != 0)
            continue;
        if (bi.loaded)
            snprintf(c->nccl_reason, sizeof c->nccl_reason,
                     "the cuda backend is loaded but found no GPU");
        else
            snprintf(c->nccl_reason, sizeof c->nccl_reason, "the cuda backend is not loaded: %s",
                     bi.reason && bi.reason[0] ? bi.reason : accel_status_string(bi.status));
    }
}

/* ACCEL_MPI_NCCL read as accel_comm_create reads it (accel__env_bool): 1
 * when it turns NCCL off (staging instead), 0 when unset or on, -1 when it
 * is no boolean word, which accel_comm_create refuses. */
static int nccl_env(void)
{
    bool on = true;
    int r = accel__env_bool("ACCEL_MPI_NCCL", &on);
    return r < 0 ? -1 : !on;
}

static void device_transport(const info_collectives *c, accel_device *dev, info_comm_device *d)
{
    accel_device_properties p;
    accel_device_properties_init(&p);
    snprintf(d->name, sizeof d->name, "%s", accel_device_name(dev));
    if (accel_device_properties_get(dev, &p) != ACCEL_SUCCESS) {
        snprintf(d->reason, sizeof d->reason, "properties unavailable: %s", accel_last_error());
        return;
    }
    d->gpu = !p.host_accessible;
    if (c->mpi_built && nccl_env() < 0) {
        d->transport = NULL;
        snprintf(d->reason, sizeof d->reason,
                 "ACCEL_MPI_NCCL=%s is not a boolean (%s): accel_comm_create refuses it",
                 getenv("ACCEL_MPI_NCCL"), ACCEL__BOOL_WORDS);
        return;
    }
    if (!d->gpu) {
        d->transport = c->mpi_built ? "mpi" : NULL;
        snprintf(d->reason, sizeof d->reason, "host memory: buffers go to MPI as they are");
        return;
    }
    accel_status st = accel_device_comm_supported(dev);
    d->nccl = st == ACCEL_SUCCESS;
    if (d->nccl) {
        nccl_version(d->nccl_version, sizeof d->nccl_version);
        snprintf(d->reason, sizeof d->reason, "NCCL found: collectives run on the device");
    } else {
        snprintf(d->reason, sizeof d->reason, "%s", accel_last_error());
    }
    d->transport = !c->mpi_built ? NULL : d->nccl ? "nccl" : "mpi-staged";
    if (c->mpi_built && d->nccl && nccl_env() > 0) {
        d->transport = "mpi-staged";
        snprintf(d->reason, sizeof d->reason,
                 "NCCL found, but ACCEL_MPI_NCCL=%s asks libaccel_mpi to stage through host "
                 "memory",
                 getenv("ACCEL_MPI_NCCL"));
    }
}

void info_collectives_gather(accel_runtime *rt, info_collectives *c)
{
    memset(c, 0, sizeof *c);
    c->mpi_built = mpi_library_path(c->mpi_path, sizeof c->mpi_path);
    if (c->mpi_built)
        mpi_versions(c);
    uint32_t n = rt ? accel_device_count(rt) : 0;
    for (uint32_t i = 0; i < n && c->device_count < INFO_MAX_DEVICES; i++) {
        accel_device *dev = NULL;
        if (accel_device_get(rt, i, &dev) != ACCEL_SUCCESS)
            continue;
        info_comm_device *d = &c->devices[c->device_count++];
        device_transport(c, dev, d);
        c->gpu_count += d->gpu;
    }
    if (rt && !c->gpu_count)
        no_gpu_reason(rt, c);
}
