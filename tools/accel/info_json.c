/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* info_json.c — `accel info --json`: the same facts as the text view as one
 * JSON document, for scripts and bug reports: the user kernels' cache goes
 * in "caches"; "compilers" is kept for the kernel compilers. */
#include <stdlib.h>
#include <string.h>

#include "accel/kernel.h"
#include "info_json.h"
#include "json.h"

static void key(FILE *out, const char *indent, const char *name, bool first)
{
    fprintf(out, "%s\n%s\"%s\": ", first ? "" : ",", indent, name);
}

static void key_str(FILE *out, const char *indent, const char *name, const char *v, bool first)
{
    key(out, indent, name, first);
    if (v)
        accel__json_string(out, v);
    else
        fputs("null", out);
}

static void key_u64(FILE *out, const char *indent, const char *name, unsigned long long v)
{
    key(out, indent, name, false);
    fprintf(out, "%llu", v);
}

static void write_environment(FILE *out)
{
    fputs(",\n  \"environment\": {", out);
    for (size_t i = 0; info_env_vars[i]; i++)
        key_str(out, "    ", info_env_vars[i], getenv(info_env_vars[i]), i == 0);
    fputs("\n  }", out);
}

static void write_backend(FILE *out, const accel_backend_info *b)
{
    fputs("\n    {", out);
    key_str(out, "      ", "name", b->name, true);
    key_str(out, "      ", "path", b->path && b->path[0] ? b->path : NULL, false);
    key(out, "      ", "loaded", false);
    fputs(b->loaded ? "true" : "false", out);
    key_u64(out, "      ", "abi_version", b->abi_version);
    key_str(out, "      ", "description", b->description ? b->description : "", false);
    key_u64(out, "      ", "device_count", b->device_count);
    key_str(out, "      ", "status", b->loaded ? NULL : accel_status_name(b->status), false);
    key_str(out, "      ", "reason", b->loaded ? NULL : b->reason, false);
    fputs("\n    }", out);
}

static void write_backends(FILE *out, const info_view *v)
{
    fputs(",\n  \"backends\": [", out);
    if (v->rt) {
        uint32_t n = accel_runtime_backend_count(v->rt);
        for (uint32_t i = 0; i < n; i++) {
            accel_backend_info b;
            memset(&b, 0, sizeof b);
            b.struct_size = sizeof b;
            if (accel_runtime_backend_info(v->rt, i, &b) != ACCEL_SUCCESS)
                continue;
            fputs(i ? "," : "", out);
            write_backend(out, &b);
        }
    } else {
        for (size_t i = 0; i < v->candidate_count; i++) {
            accel_backend_info b = {.struct_size = sizeof b,
                                    .name = v->candidates[i].name,
                                    .loaded = false,
                                    .status = v->open_status,
                                    .reason = v->candidates[i].reason};
            fputs(i ? "," : "", out);
            write_backend(out, &b);
        }
    }
    fputs("\n  ]", out);
}

static void write_device(FILE *out, accel_device *dev)
{
    accel_device_properties p;
    accel_device_properties_init(&p);
    accel_status st = accel_device_properties_get(dev, &p);
    fputs("\n    {", out);
    key_str(out, "      ", "name", accel_device_name(dev), true);
    if (st != ACCEL_SUCCESS) {
        key_str(out, "      ", "error", accel_last_error(), false);
        fputs("\n    }", out);
        return;
    }
    char dt[128];
    key_str(out, "      ", "model", p.name, false);
    key_str(out, "      ", "backend", p.backend, false);
    key_u64(out, "      ", "index", p.index);
    key_str(out, "      ", "kind", cli_kind_name(p.kind), false);
    key_u64(out, "      ", "memory_total_bytes", p.memory_total);
    key_u64(out, "      ", "memory_free_bytes", p.memory_free);
    key_u64(out, "      ", "compute_units", p.compute_units);
    key_u64(out, "      ", "compute_capability", p.compute_capability);
    key(out, "      ", "host_accessible", false);
    fputs(p.host_accessible ? "true" : "false", out);
    key_str(out, "      ", "dtypes", info_dtypes(p.dtypes, dt, sizeof dt), false);
    char kc[640];
    key_str(out, "      ", "kernel_compiler", info_kernel_compiler(dev, kc, sizeof kc), false);
    key_str(out, "      ", "driver_version", p.driver_version, false);
    key_str(out, "      ", "runtime_version", p.runtime_version, false);
    fputs("\n    }", out);
}

static void write_devices(FILE *out, const info_view *v)
{
    fputs(",\n  \"devices\": [", out);
    uint32_t n = v->rt ? accel_device_count(v->rt) : 0;
    bool first = true;
    for (uint32_t i = 0; i < n; i++) {
        accel_device *dev = NULL;
        if (accel_device_get(v->rt, i, &dev) != ACCEL_SUCCESS || (v->only && dev != v->only))
            continue;
        fputs(first ? "" : ",", out);
        write_device(out, dev);
        first = false;
    }
    fputs("\n  ]", out);
    accel_device *def = NULL;
    if (!v->rt || accel_device_default(v->rt, &def) != ACCEL_SUCCESS)
        def = NULL;
    key_str(out, "  ", "default_device", def ? accel_device_name(def) : NULL, false);
}

static void key_bool(FILE *out, const char *indent, const char *name, bool v)
{
    key(out, indent, name, false);
    fputs(v ? "true" : "false", out);
}

/* "collectives": libaccel_mpi and its MPI, and each device's transport with
 * NCCL's presence and version (info_collectives.c). */
static void write_collectives(FILE *out, const info_view *v)
{
    static info_collectives c; /* large; one per process */
    info_collectives_gather(v->rt, &c);
    fputs(",\n  \"collectives\": {\n    \"mpi\": {", out);
    key(out, "      ", "built", true);
    fputs(c.mpi_built ? "true" : "false", out);
    key_str(out, "      ", "library", c.mpi_built ? c.mpi_path : NULL, false);
    key_str(out, "      ", "mpi_library", c.mpi_library[0] ? c.mpi_library : NULL, false);
    key_str(out, "      ", "mpi_version", c.mpi_version[0] ? c.mpi_version : NULL, false);
    key_str(out, "      ", "error", c.mpi_error[0] ? c.mpi_error : NULL, false);
    fputs("\n    },", out);
    key_str(out, "    ", "nccl_reason", c.gpu_count || !v->rt ? NULL : c.nccl_reason, true);
    fputs(",\n    \"devices\": [", out);
    for (size_t i = 0; i < c.device_count; i++) {
        const info_comm_device *d = &c.devices[i];
        fputs(i ? ",\n      {" : "\n      {", out);
        key_str(out, "        ", "name", d->name, true);
        key_str(out, "        ", "transport", d->transport, false);
        key_bool(out, "        ", "host_memory", !d->gpu);
        key_bool(out, "        ", "nccl", d->nccl);
        key_str(out, "        ", "nccl_version", d->nccl_version[0] ? d->nccl_version : NULL,
                false);
        key_str(out, "        ", "reason", d->reason, false);
        fputs("\n      }", out);
    }
    fputs(c.device_count ? "\n    ]\n  }" : "]\n  }", out);
}

/* "caches": the user kernels' cache (its folder, or why it is memory only,
 * and this run's counters), as the text view's "kernel cache" line. */
static void write_caches(FILE *out, const info_view *v)
{
    accel_kernel_cache_stats ks;
    memset(&ks, 0, sizeof ks);
    ks.struct_size = sizeof ks;
    fputs(",\n  \"caches\": [", out);
    if (v->rt && accel_kernel_cache_stats_get(v->rt, &ks) == ACCEL_SUCCESS) {
        fputs("\n    {", out);
        key_str(out, "      ", "name", "kernels", true);
        key_bool(out, "      ", "disk_enabled", ks.disk_enabled != 0);
        key_str(out, "      ", "dir", ks.disk_enabled ? ks.dir : NULL, false);
        key_str(out, "      ", "disabled_reason",
                ks.disk_enabled         ? NULL
                : ks.disabled_reason[0] ? ks.disabled_reason
                                        : "no folder",
                false);
        key_u64(out, "      ", "memory_hits", ks.memory_hits);
        key_u64(out, "      ", "disk_hits", ks.disk_hits);
        key_u64(out, "      ", "misses", ks.misses);
        key_u64(out, "      ", "rebuilt", ks.rebuilt);
        key_u64(out, "      ", "failures", ks.failures);
        key(out, "      ", "compile_ms", false);
        accel__json_number(out, ks.compile_ms);
        fputs("\n    }\n  ", out);
    }
    fputs("]", out);
}

void info_write_json(FILE *out, const info_view *v)
{
    fputs("{", out);
    key_str(out, "  ", "tool", "accel info", true);
    /* INFO_JSON_FORMAT_VERSION (info_json.h): docs/cli.md says what changes it. */
    fprintf(out, ",\n  \"format_version\": %d", INFO_JSON_FORMAT_VERSION);
    key_str(out, "  ", "accel_version", ACCEL_VERSION_STRING, false);
    key_str(out, "  ", "libaccel_version", accel_version(), false);
    key_str(out, "  ", "config", v->config_path[0] ? v->config_path : NULL, false);
    const char *env_config = getenv("ACCEL_CONFIG"); /* empty counts as unset, as in core */
    key_str(out, "  ", "config_from",
            v->config_arg                 ? "--config"
            : env_config && env_config[0] ? "ACCEL_CONFIG"
                                          : "default",
            false);
    key_str(out, "  ", "error", v->rt ? NULL : v->open_error, false);
    write_environment(out);
    write_backends(out, v);
    write_devices(out, v);
    write_collectives(out, v);
    /* No public call names the kernel compilers yet: "compilers" stays empty. */
    fputs(",\n  \"compilers\": []", out);
    write_caches(out, v);
    fputs("\n}\n", out);
}
