/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* info.c — `accel info`: which configuration was read, what happened to every
 * backend candidate (loaded, or the reason it was not), every device with its
 * properties, and the default device: the answer to "is my code on the GPU?".
 * The JSON view is info_json.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel/kernel.h"
#include "info_json.h"
#include "info_view.h"

enum { OPT_CONFIG = CLI_LONG, OPT_JSON, OPT_LIST };

static int info_main(int argc, char **argv);

static const cli_option options[] = {
    {"config", OPT_CONFIG, "FILE",
     "the plugins.ini to read (default: $ACCEL_CONFIG, else the one\ninstalled next to libaccel)",
     NULL},
    {"device", 'd', "NAME", "show only this device (cpu, cuda:1, default, ...)", NULL},
    {"json", OPT_JSON, NULL,
     "print everything as one JSON document: versions, config, environment,\n"
     "every backend candidate (path, loaded or why not), every device, the\n"
     "user kernels' cache (\"caches\": its folder or why none, this run's counts),\n"
     "and\n"
     "\"collectives\": \"mpi\" (libaccel_mpi built, its path, the MPI library\n"
     "and standard version) and, per device, the transport accel_comm_create\n"
     "picks (\"mpi\" for host memory, \"nccl\" with NCCL's version, \"mpi-staged\"\n"
     "for a GPU without NCCL, null without libaccel_mpi) and why",
     NULL},
    {"list-devices", OPT_LIST, NULL, "print only the device names, one per line", NULL},
    {NULL, 0, NULL, NULL, NULL},
};

const cli_command cli_info_command = {
    .name = "info",
    .summary = "show the configuration, every backend (loaded or why not) and every device",
    .synopsis = "[--config FILE] [--device NAME] [--json | --list-devices]",
    .description = "Loads the backends of the configuration and prints the config file used,\n"
                   "every backend candidate with its resolved library path and ABI version,\n"
                   "loaded or why not, every device with its properties, and the default\n"
                   "device (the one ops run on unless told otherwise), then the collectives\n"
                   "between processes: whether libaccel_mpi was built and its MPI library's\n"
                   "version, NCCL (with its version) as each GPU finds it, and the transport\n"
                   "each device would use (mpi, nccl, mpi-staged). When no backend loads,\n"
                   "it still prints every candidate with its reason, and exits with 1.",
    .options = options,
    .notes = "exit status:\n"
             "  0  the runtime opened (at least one backend loaded)\n"
             "  1  the config file could not be read (stderr names it and why; the text\n"
             "     view prints nothing else), no backend loaded, or --device names no\n"
             "     device\n"
             "  2  the command line is wrong",
    .main = info_main,
    .operand_words = NULL,
};

static double gib(uint64_t bytes)
{
    return (double)bytes / (1024.0 * 1024.0 * 1024.0);
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
    char dt[128];
    printf("    name:                %s\n", p.name);
    printf("    backend:             %s (device %u of it)\n", p.backend, p.index);
    printf("    kind:                %s\n", cli_kind_name(p.kind));
    printf("    memory:              %.2f GiB total, %.2f GiB free\n", gib(p.memory_total),
           gib(p.memory_free));
    printf("    compute units:       %u %s\n", p.compute_units,
           p.kind == ACCEL_DEVICE_GPU ? "multiprocessors" : "threads");
    if (p.kind == ACCEL_DEVICE_GPU)
        printf("    compute capability:  %u.%u\n", p.compute_capability / 10,
               p.compute_capability % 10);
    printf("    dtypes:              %s\n", info_dtypes(p.dtypes, dt, sizeof dt));
    char kc[640];
    printf("    kernel compiler:     %s\n", info_kernel_compiler(dev, kc, sizeof kc));
    if (p.driver_version[0] || p.runtime_version[0])
        printf("    driver / runtime:    %s / %s\n", p.driver_version[0] ? p.driver_version : "-",
               p.runtime_version[0] ? p.runtime_version : "-");
}

/* Collectives between processes: libaccel_mpi and its MPI, NCCL as each
 * GPU's backend finds it, and each device's transport. */
static void print_collectives(accel_runtime *rt)
{
    static info_collectives c; /* large; one per process */
    info_collectives_gather(rt, &c);
    printf("\ncollectives:\n");
    if (!c.mpi_built && ACCEL_MPI_CONFIGURED)
        printf("  MPI:  libaccel_mpi built but not installed (no %s next to libaccel)\n",
               c.mpi_path[0] ? c.mpi_path : "libaccel_mpi");
    else if (!c.mpi_built)
        printf("  MPI:  libaccel_mpi not built (MPI was not found when accel was configured)\n");
    else if (c.mpi_library[0])
        printf("  MPI:  libaccel_mpi built, %s\n        %s (MPI %s)\n", c.mpi_path, c.mpi_library,
               c.mpi_version);
    else
        printf("  MPI:  libaccel_mpi built, %s (MPI version unknown: %s)\n", c.mpi_path,
               c.mpi_error);
    for (size_t i = 0; i < c.device_count; i++) {
        const info_comm_device *d = &c.devices[i];
        if (!d->gpu)
            continue;
        printf("  NCCL: %s: %s", d->name, d->nccl ? "found" : d->reason);
        if (d->nccl)
            printf(" (NCCL %s; collectives run on the device)",
                   d->nccl_version[0] ? d->nccl_version : "version unknown");
        printf("\n");
    }
    if (!c.gpu_count && rt)
        printf("  NCCL: not used: %s (host buffers use MPI directly)\n", c.nccl_reason);
    for (size_t i = 0; i < c.device_count; i++) {
        const info_comm_device *d = &c.devices[i];
        if (d->transport)
            printf("  %s: transport %s\n", d->name, d->transport);
        else if (c.mpi_built)
            printf("  %s: transport none: %s\n", d->name, d->reason);
        else
            printf("  %s: transport none (no libaccel_mpi)\n", d->name);
    }
}

static void print_backend(const accel_backend_info *bi)
{
    printf("  %s: %s\n", bi->name ? bi->name : "?", bi->loaded ? "loaded" : "NOT LOADED");
    if (bi->path)
        printf("    library:     %s\n", bi->path[0] ? bi->path : "(none)");
    if (bi->abi_version)
        printf("    ABI version: %u\n", bi->abi_version);
    if (bi->loaded) {
        if (bi->description && bi->description[0])
            printf("    description: %s\n", bi->description);
        printf("    devices:     %u\n", bi->device_count);
    } else {
        printf("    status:      %s\n", accel_status_name(bi->status));
        printf("    reason:      %s\n",
               bi->reason && bi->reason[0] ? bi->reason : accel_status_string(bi->status));
    }
}

static void print_backends(const info_view *v)
{
    if (!v->rt) {
        printf("\nbackends (%zu candidates, none loaded):\n", v->candidate_count);
        for (size_t i = 0; i < v->candidate_count; i++) {
            accel_backend_info bi = {.struct_size = sizeof bi,
                                     .name = v->candidates[i].name,
                                     .status = v->open_status,
                                     .reason = v->candidates[i].reason};
            print_backend(&bi);
        }
        return;
    }
    uint32_t nb = accel_runtime_backend_count(v->rt);
    printf("\nbackends (%u candidates, in configured order):\n", nb);
    for (uint32_t i = 0; i < nb; i++) {
        accel_backend_info bi;
        memset(&bi, 0, sizeof bi);
        bi.struct_size = sizeof bi;
        if (accel_runtime_backend_info(v->rt, i, &bi) != ACCEL_SUCCESS)
            printf("  #%u: %s\n", i, accel_last_error());
        else
            print_backend(&bi);
    }
}

static void print_default(accel_runtime *rt)
{
    accel_device *def = NULL;
    accel_device_properties p;
    accel_device_properties_init(&p);
    if (accel_device_default(rt, &def) != ACCEL_SUCCESS || !def)
        printf("\ndefault device: none\n");
    else if (accel_device_properties_get(def, &p) == ACCEL_SUCCESS)
        printf("\ndefault device: %s (%s, %s)\n", accel_device_name(def), p.name,
               cli_kind_name(p.kind));
    else
        printf("\ndefault device: %s\n", accel_device_name(def));
}

/* User kernels: where compiled code is cached (counters are this run's). */
static void print_kernel_cache(accel_runtime *rt)
{
    accel_kernel_cache_stats ks;
    memset(&ks, 0, sizeof ks);
    ks.struct_size = sizeof ks;
    if (accel_kernel_cache_stats_get(rt, &ks) != ACCEL_SUCCESS)
        return;
    if (ks.disk_enabled)
        printf("kernel cache: %s\n", ks.dir);
    else
        printf("kernel cache: memory only (%s)\n",
               ks.disabled_reason[0] ? ks.disabled_reason : "no folder");
    printf("  hits %llu memory, %llu disk; misses %llu (%.1f ms compiling); rebuilt %llu; "
           "failed %llu\n",
           (unsigned long long)ks.memory_hits, (unsigned long long)ks.disk_hits,
           (unsigned long long)ks.misses, ks.compile_ms, (unsigned long long)ks.rebuilt,
           (unsigned long long)ks.failures);
}

static void print_text(const info_view *v)
{
    printf("accel %s (libaccel %s)\n", ACCEL_VERSION_STRING, accel_version());
    for (size_t i = 0; info_env_vars[i]; i++)
        if (getenv(info_env_vars[i]) && !(v->config_arg && i == 0))
            printf("%s=%s\n", info_env_vars[i], getenv(info_env_vars[i]));
    printf("config: %s\n", v->config_path[0] ? v->config_path : "(unknown)");
    print_backends(v);
    if (!v->rt) {
        printf("\ndevices: none (%s)\n", v->open_error);
        return;
    }
    uint32_t nd = accel_device_count(v->rt);
    if (v->only)
        printf("\ndevice:\n");
    else
        printf("\ndevices (%u):\n", nd);
    for (uint32_t i = 0; i < nd; i++) {
        accel_device *dev = NULL;
        if (accel_device_get(v->rt, i, &dev) == ACCEL_SUCCESS && (!v->only || dev == v->only))
            print_device(dev);
    }
    print_default(v->rt);
    print_kernel_cache(v->rt);
    print_collectives(v->rt);
}

/* "name: reason" at s, where name is a backend section name. */
static bool starts_candidate(const char *s)
{
    size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-");
    return n > 0 && s[n] == ':' && s[n + 1] == ' ';
}

/* accel_runtime_open gives no runtime when no backend loads; its message,
 * "...: no backend loaded from PATH (name: reason; name: reason)", names the
 * config and every candidate with its reason: recover them for the table. */
static void parse_open_error(info_view *v)
{
    const char *at = strstr(v->open_error, "no backend loaded from ");
    const char *open = at ? strstr(at, " (") : NULL;
    size_t len = strlen(v->open_error);
    if (!open || v->open_error[len - 1] != ')')
        return;
    at += strlen("no backend loaded from ");
    snprintf(v->config_path, sizeof v->config_path, "%.*s", (int)(open - at), at);
    const char *s = open + 2, *end = v->open_error + len - 1;
    while (s < end && starts_candidate(s) && v->candidate_count < INFO_MAX_CANDIDATES) {
        info_candidate *c = &v->candidates[v->candidate_count++];
        size_t n = strcspn(s, ":");
        snprintf(c->name, sizeof c->name, "%.*s", (int)n, s);
        s += n + 2;
        const char *next = s;
        while ((next = strstr(next, "; ")) && next < end && !starts_candidate(next + 2))
            next += 2;
        if (!next || next > end)
            next = end;
        snprintf(c->reason, sizeof c->reason, "%.*s", (int)(next - s), s);
        s = next + 2;
    }
}

static int open_view(info_view *v, const char *device)
{
    v->open_status = accel_runtime_open(v->config_arg, &v->rt);
    if (v->open_status != ACCEL_SUCCESS) {
        const char *msg = accel_last_error();
        snprintf(v->open_error, sizeof v->open_error, "%s",
                 msg && msg[0] ? msg : accel_status_string(v->open_status));
        parse_open_error(v);
        v->rt = NULL;
        return CLI_EXIT_RUNTIME;
    }
    snprintf(v->config_path, sizeof v->config_path, "%s", accel_runtime_config_path(v->rt));
    if (device) {
        int rc = cli_device_lookup("info", v->rt, device, &v->only);
        if (rc != CLI_EXIT_OK)
            return rc;
    }
    return CLI_EXIT_OK;
}

static void list_devices(accel_runtime *rt, accel_device *only)
{
    uint32_t n = rt ? accel_device_count(rt) : 0;
    for (uint32_t i = 0; i < n; i++) {
        accel_device *dev = NULL;
        if (accel_device_get(rt, i, &dev) == ACCEL_SUCCESS && (!only || dev == only))
            printf("%s\n", accel_device_name(dev));
    }
}

static int info_main(int argc, char **argv)
{
    static info_view v; /* large; one per process */
    memset(&v, 0, sizeof v);
    const char *device = NULL;
    bool json = false, list = false;
    cli_parser p;
    cli_parser_init(&p, &cli_info_command, argc, argv);
    for (int key; (key = cli_parser_next(&p)) != CLI_OPT_END;) {
        if (key == CLI_OPT_EXIT)
            return p.exit_code;
        if (key == OPT_CONFIG)
            v.config_arg = p.value;
        else if (key == 'd')
            device = p.value;
        else if (key == OPT_JSON)
            json = true;
        else if (key == OPT_LIST)
            list = true;
    }
    if (p.next < argc)
        return cli_usage_error("info", "unexpected argument '%s'", argv[p.next]);
    if (json && list)
        return cli_usage_error("info", "--json and --list-devices exclude each other");
    int rc = open_view(&v, device);
    if (v.rt && rc != CLI_EXIT_OK) {
        accel_runtime_close(v.rt);
        return rc;
    }
    /* The config could not be read (missing, unreadable, a syntax error):
     * no table of backends to show, only the path and the reason. */
    bool no_config = !v.rt && v.candidate_count == 0 && !v.config_path[0];
    if (list)
        list_devices(v.rt, v.only);
    else if (json)
        info_write_json(stdout, &v);
    else if (!no_config)
        print_text(&v);
    if (!v.rt && !json)
        fprintf(stderr, "accel info: cannot open the runtime: %s (%s)\n", v.open_error,
                accel_status_name(v.open_status));
    accel_runtime_close(v.rt);
    return rc;
}
