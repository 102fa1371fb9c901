/* info.c — `accel info`: which configuration was read, what happened to every
 * backend candidate (loaded, or the reason it was not), every device with its
 * properties, and the default device: the answer to "is my code on the GPU?". */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "accel/collective.h"
#include "cli.h"

void cli_info_usage(FILE *out)
{
    fprintf(out, "usage: accel info [--config FILE]\n"
                 "\n"
                 "Loads the backends of the configuration and prints the config file used,\n"
                 "every backend candidate with its resolved library path and ABI version,\n"
                 "loaded or why not, every device with its properties, and the default\n"
                 "device (the one ops run on unless told otherwise).\n"
                 "\n"
                 "options:\n"
                 "  --config FILE  the plugins.ini to read (default: $ACCEL_CONFIG, else the\n"
                 "                 one installed next to libaccel)\n");
}

static double gib(uint64_t bytes)
{
    return (double)bytes / (1024.0 * 1024.0 * 1024.0);
}

static const char *kind_name(uint32_t kind)
{
    switch (kind) {
    case ACCEL_DEVICE_CPU:
        return "CPU";
    case ACCEL_DEVICE_GPU:
        return "GPU";
    default:
        return "other";
    }
}

static void print_dtypes(uint32_t mask)
{
    bool any = false;
    for (int t = 1; t < ACCEL_DTYPE_COUNT_; t++)
        if (mask & (1u << t)) {
            printf("%s%s", any ? " " : "", accel_dtype_name((accel_dtype)t));
            any = true;
        }
    if (!any)
        printf("none");
}

static void print_device(accel_device *dev)
{
    accel_device_properties p;
    accel_device_properties_init(&p);
    accel_status st = accel_device_properties_get(dev, &p);
    printf("  %s\n", accel_device_name(dev));
    if (st != ACCEL_SUCCESS) {
        printf("    properties unavailable: %s (%s)\n", accel_last_error(), accel_status_name(st));
        return;
    }
    printf("    name:                %s\n", p.name);
    printf("    backend:             %s (device %u of it)\n", p.backend, p.index);
    printf("    kind:                %s\n", kind_name(p.kind));
    printf("    memory:              %.2f GiB total, %.2f GiB free\n", gib(p.memory_total),
           gib(p.memory_free));
    printf("    compute units:       %u %s\n", p.compute_units,
           p.kind == ACCEL_DEVICE_GPU ? "multiprocessors" : "threads");
    if (p.kind == ACCEL_DEVICE_GPU)
        printf("    compute capability:  %u.%u\n", p.compute_capability / 10,
               p.compute_capability % 10);
    printf("    dtypes:              ");
    print_dtypes(p.dtypes);
    printf("\n");
    if (p.driver_version[0] || p.runtime_version[0])
        printf("    driver / runtime:    %s / %s\n", p.driver_version[0] ? p.driver_version : "-",
               p.runtime_version[0] ? p.runtime_version : "-");
}

/* Collectives between processes: libaccel_mpi next to libaccel (not loaded:
 * that would start MPI), and NCCL as each GPU's backend finds it. */
static void print_collectives(accel_runtime *rt)
{
    Dl_info di;
    char path[4096] = "";
    const char *(*fn)(void) = accel_version;
    void *addr; /* an address inside libaccel (ISO C has no function-to-object cast) */
    memcpy(&addr, &fn, sizeof addr);
    if (dladdr(addr, &di) && di.dli_fname) {
        const char *slash = strrchr(di.dli_fname, '/');
        int dir = slash ? (int)(slash - di.dli_fname) : 1;
        snprintf(path, sizeof path, "%.*s/libaccel_mpi.so.%d", dir, slash ? di.dli_fname : ".",
                 ACCEL_VERSION_MAJOR);
    }
    bool mpi = path[0] && access(path, R_OK) == 0;
    printf("\ncollectives:\n  MPI:  %s%s\n", mpi ? "libaccel_mpi built, " : "libaccel_mpi not built",
           mpi ? path : " (MPI was not found when accel was configured)");
    bool gpu = false;
    for (uint32_t i = 0; i < accel_device_count(rt); i++) {
        accel_device *dev = NULL;
        accel_device_properties p;
        accel_device_properties_init(&p);
        if (accel_device_get(rt, i, &dev) != ACCEL_SUCCESS ||
            accel_device_properties_get(dev, &p) != ACCEL_SUCCESS || p.host_accessible)
            continue;
        gpu = true;
        accel_status st = accel_device_comm_supported(dev);
        printf("  NCCL: %s: %s\n", accel_device_name(dev),
               st == ACCEL_SUCCESS ? "found (collectives run on the device)"
                                   : accel_last_error());
    }
    if (!gpu)
        printf("  NCCL: no device outside host memory (host buffers use MPI directly)\n");
}

int cli_info_main(int argc, char **argv)
{
    const char *config = NULL;
    for (int i = 1; i < argc;) {
        int r = cli_option_value(argc, argv, &i, "--config", NULL, &config);
        if (r < 0)
            return cli_usage_error("info", "--config needs a FILE");
        if (r == 0)
            return cli_usage_error("info", "unexpected argument '%s'", argv[i]);
    }

    printf("accel %s (libaccel %s)\n", ACCEL_VERSION_STRING, accel_version());
    const char *env_config = getenv("ACCEL_CONFIG");
    const char *env_backend = getenv("ACCEL_BACKEND");
    if (!config && env_config)
        printf("ACCEL_CONFIG=%s\n", env_config);
    if (env_backend)
        printf("ACCEL_BACKEND=%s\n", env_backend);

    accel_runtime *rt = NULL;
    accel_status st = accel_runtime_open(config, &rt);
    if (st != ACCEL_SUCCESS) {
        cli_runtime_error("info", st, "cannot open the runtime");
        return CLI_EXIT_RUNTIME;
    }
    printf("config: %s\n", accel_runtime_config_path(rt));

    uint32_t nb = accel_runtime_backend_count(rt);
    printf("\nbackends (%u candidates, in configured order):\n", nb);
    for (uint32_t i = 0; i < nb; i++) {
        accel_backend_info bi;
        memset(&bi, 0, sizeof bi);
        bi.struct_size = sizeof bi;
        if (accel_runtime_backend_info(rt, i, &bi) != ACCEL_SUCCESS) {
            printf("  #%u: %s\n", i, accel_last_error());
            continue;
        }
        printf("  %s: %s\n", bi.name ? bi.name : "?", bi.loaded ? "loaded" : "NOT LOADED");
        printf("    library:     %s\n", bi.path && bi.path[0] ? bi.path : "(none)");
        if (bi.abi_version)
            printf("    ABI version: %u\n", bi.abi_version);
        if (bi.loaded) {
            if (bi.description && bi.description[0])
                printf("    description: %s\n", bi.description);
            printf("    devices:     %u\n", bi.device_count);
        } else {
            printf("    status:      %s\n", accel_status_name(bi.status));
            printf("    reason:      %s\n",
                   bi.reason && bi.reason[0] ? bi.reason : accel_status_string(bi.status));
        }
    }

    uint32_t nd = accel_device_count(rt);
    printf("\ndevices (%u):\n", nd);
    for (uint32_t i = 0; i < nd; i++) {
        accel_device *dev = NULL;
        if (accel_device_get(rt, i, &dev) == ACCEL_SUCCESS)
            print_device(dev);
    }

    accel_device *def = NULL;
    if (accel_device_default(rt, &def) == ACCEL_SUCCESS && def) {
        accel_device_properties p;
        accel_device_properties_init(&p);
        if (accel_device_properties_get(def, &p) == ACCEL_SUCCESS)
            printf("\ndefault device: %s (%s, %s)\n", accel_device_name(def), p.name,
                   kind_name(p.kind));
        else
            printf("\ndefault device: %s\n", accel_device_name(def));
    } else {
        printf("\ndefault device: none\n");
    }
    print_collectives(rt);
    accel_runtime_close(rt);
    return CLI_EXIT_OK;
}
