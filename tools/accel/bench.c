/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* bench.c — `accel bench`: the command, its options, the devices to measure
 * and the outputs to write. What is measured and how is bench_plan.c,
 * bench_run.c and bench_time.c (see bench.h); the table, JSON, CSV and SVG
 * writers are bench_table.c, bench_json.c, bench_csv.c and bench_svg.c. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bench_plan.h"
#include "bench_run.h"
#include "bench_time.h"
#include "bench_types.h"
#include "bench_write.h"
#include "cli.h"

#define MAX_DEVICES 16

static const char cmd[] = "bench";

enum {
    OPT_QUICK = CLI_LONG,
    OPT_REPEATS,
    OPT_JSON,
    OPT_CSV,
    OPT_SVG,
    OPT_NO_PROGRESS,
    OPT_CONFIG,
    OPT_STRICT,
    OPT_PEERS
};

/* --strict: the exit status when every output was written but a target missed. */
enum { BENCH_EXIT_MISS = 3 };

static int bench_main(int argc, char **argv);

static const cli_option options[] = {
    {"device", 'd', "NAME",
     "a device to measure (\"cpu\", \"cuda:0\"); may be repeated, once a device", NULL},
    {"quick", OPT_QUICK, NULL, "small sizes and few repeats (a smoke test, not a measurement)",
     NULL},
    {"repeats", OPT_REPEATS, "N",
     "timed runs per point, 1 to 64 (default 10 on GPUs, 5 on the CPU)", NULL},
    {"json", OPT_JSON, "FILE", "every number, machine-readable", NULL},
    {"csv", OPT_CSV, "FILE", "one line per op and size, then one per target", NULL},
    {"svg", OPT_SVG, "FILE", "a chart: fraction of ceiling per op, rate against size (log-log)",
     NULL},
    {"peers", OPT_PEERS, "FILE",
     "the peers' JSON (peers.py --json, in bench/): the chart draws each row's faster peer", NULL},
    {"no-progress", OPT_NO_PROGRESS, NULL, "no progress bar even on a terminal", NULL},
    {"strict", OPT_STRICT, NULL,
     "exit with 3 when any target is a MISS (after writing every output), for CI", NULL},
    {"config", OPT_CONFIG, "FILE", "the plugins.ini to use", NULL},
    {NULL, 0, NULL, NULL, NULL},
};

const cli_command cli_bench_command = {
    .name = "bench",
    .summary = "measure ops against this device's own ceilings (memcpy, cuBLAS, ...)",
    .synopsis = "[--device NAME]... [--quick] [--repeats N] [--json FILE]\n"
                "    [--csv FILE] [--svg FILE [--peers FILE]] [--no-progress] [--strict]\n"
                "    [--config FILE]",
    .description =
        "For each device (default: every device): its ceilings measured directly in the\n"
        "same run (copy bandwidth with memcpy or cudaMemcpy, a plain loop or kernel,\n"
        "GEMM with OpenBLAS or cuBLAS, a bare call or launch, cudaMemcpy transfers), then\n"
        "accel's ops over a size sweep, timed with events (median of repeats after a\n"
        "warm-up), as GB/s or TFLOP/s and as a fraction of the ceiling. Bandwidths\n"
        "count bytes read plus written.\n"
        "\n"
        "Last, the speed targets with PASS or MISS, each a ratio of this run's own\n"
        "figures: elementwise add and multiply at the largest size reach 95% of the\n"
        "copy bandwidth on a GPU (90% of the better of memcpy and a plain loop on the\n"
        "CPU); GPU sums and maxima 95% and dots 90% of a plain sum's read bandwidth;\n"
        "GEMM 98% of cuBLAS (97% of OpenBLAS); pinned transfers 95% of\n"
        "cudaMemcpyAsync and pageable ones twice cudaMemcpy's pageable rate;\n"
        "accel's dispatch overhead over a bare launch or call at most 0.5 us; 100\n"
        "dependent small adds replayed as a graph at most 110 us and 1.05x the raw\n"
        "CUDA graph of the same adds (on the CPU: 3x faster than eager); on a GPU a\n"
        "fused 8-op chain 95% of copy and 6x its unfused replay. Targeted rows are measured\n"
        "again in rounds, each beside its own ceiling, and take the median with the\n"
        "spread (power draw and host load move between runs): the elementwise,\n"
        "reduction, random and GEMM rows and the dispatch. The 100-add graph rows\n"
        "have rounds of their own; the transfers and the fused chain are one\n"
        "sample of the sweep. Notes are figures without a target.",
    .options = options,
    .notes = "exit status:\n"
             "  0  every measurement ran and every output was written (a MISS is not\n"
             "     an error without --strict)\n"
             "  1  a device or an output file failed\n"
             "  2  the command line is wrong (also a --device that names no device,\n"
             "     or names a device a second time)\n"
             "  3  --strict, and at least one target is a MISS (every output was\n"
             "     written; stderr says how many)",
    .main = bench_main,
    .operand_words = NULL,
};

typedef struct bench_args {
    const char *config, *json, *csv, *svg, *peers_path;
    bench_peers peers;
    bool strict;
    const char *names[MAX_DEVICES];
    size_t name_count;
} bench_args;

/* CLI_CONTINUE, or the exit code after --help or a usage error. */
static int parse_options(int argc, char **argv, bench *b, bench_args *a)
{
    cli_parser p;
    cli_parser_init(&p, &cli_bench_command, argc, argv);
    unsigned long long r = 0;
    for (int key; (key = cli_parser_next(&p)) != CLI_OPT_END;) {
        if (key == CLI_OPT_EXIT)
            return p.exit_code;
        if (key == 'd' && a->name_count == MAX_DEVICES)
            return cli_usage_error(cmd, "at most %d --device options", MAX_DEVICES);
        if (key == 'd')
            a->names[a->name_count++] = p.value;
        else if (key == OPT_JSON || key == OPT_CSV || key == OPT_SVG || key == OPT_CONFIG)
            *(key == OPT_JSON  ? &a->json
              : key == OPT_CSV ? &a->csv
              : key == OPT_SVG ? &a->svg
                               : &a->config) = p.value;
        else if (key == OPT_PEERS)
            a->peers_path = p.value;
        else if (key == OPT_QUICK)
            b->quick = true;
        else if (key == OPT_NO_PROGRESS)
            b->progress = false;
        else if (key == OPT_STRICT)
            a->strict = true;
        else if (key == OPT_REPEATS && !cli_parse_u64(p.value, 1, 64, &r))
            return cli_usage_error(cmd, "--repeats needs a number from 1 to 64");
        else if (key == OPT_REPEATS)
            b->repeats = (unsigned)r;
    }
    if (p.next < argc)
        return cli_usage_error(cmd, "unexpected argument '%s'", argv[p.next]);
    if (a->peers_path && !a->svg)
        return cli_usage_error(cmd, "--peers draws on the chart: it needs --svg FILE");
    /* Two outputs to one file: one would silently overwrite the other. */
    const char *outs[3] = {a->json, a->csv, a->svg};
    static const char *const opts[3] = {"--json", "--csv", "--svg"};
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (outs[i] && outs[j] && strcmp(outs[i], outs[j]) == 0)
                return cli_usage_error(cmd, "%s and %s name the same file '%s'", opts[i], opts[j],
                                       outs[i]);
    return CLI_CONTINUE;
}

/* The devices --device names, else every device; *out_count of them.
 * CLI_EXIT_USAGE for a name of no device (unknown or malformed: the core's
 * message lists the known ones) and for a device named twice ("cpu" and "cpu:0"
 * too): each device is measured once. */
static int pick_devices(accel_runtime *rt, const bench_args *a, accel_device **devs,
                        size_t *out_count)
{
    size_t count = 0;
    for (size_t i = 0; i < a->name_count; i++) {
        int rc = cli_device_lookup(cmd, rt, a->names[i], &devs[count]);
        if (rc != CLI_EXIT_OK)
            return rc;
        for (size_t j = 0; j < count; j++)
            if (devs[j] == devs[count])
                return cli_usage_error(cmd,
                                       "--device %s names %s again (each device is measured "
                                       "once; give it one --device)",
                                       a->names[i], accel_device_name(devs[count]));
        count++;
    }
    uint32_t n = a->name_count ? 0 : accel_device_count(rt);
    for (uint32_t i = 0; i < n && count < MAX_DEVICES; i++)
        if (accel_device_get(rt, i, &devs[count]) == ACCEL_SUCCESS)
            count++;
    *out_count = count;
    return CLI_EXIT_OK;
}

/* Names, models and plans of the devices; the progress bar's step count. */
static void describe_devices(bench *b, accel_device *const *devs, bench_plan *plans)
{
    for (size_t i = 0; i < b->dev_count; i++) {
        bench_device *d = &b->devs[i];
        accel_device_properties props;
        accel_device_properties_init(&props);
        accel_device_properties_get(devs[i], &props);
        snprintf(d->name, sizeof d->name, "%s", accel_device_name(devs[i]));
        snprintf(d->model, sizeof d->model, "%s", props.name);
        d->gpu = props.kind == ACCEL_DEVICE_GPU;
        bench_make_plan(b, d, &plans[i]);
        b->steps += bench_plan_steps(&plans[i], d->gpu);
    }
}

static int measure_all(bench *b, accel_device *const *devs, const bench_plan *plans)
{
    for (size_t i = 0; i < b->dev_count; i++) {
        accel_status st = bench_one(b, &b->devs[i], devs[i], &plans[i]);
        if (st != ACCEL_SUCCESS) {
            bench_progress_clear(b);
            char what[96];
            snprintf(what, sizeof what, "benchmarking %s", b->devs[i].name);
            return cli_runtime_error(cmd, st, what);
        }
    }
    bench_progress_clear(b);
    return CLI_EXIT_OK;
}

static void make_meta(int argc, char **argv, bench_meta *m)
{
    time_t now = time(NULL);
    struct tm tmv;
    strftime(m->when, sizeof m->when, "%Y-%m-%dT%H:%M:%S%z", localtime_r(&now, &tmv));
    struct utsname un;
    if (uname(&un) == 0)
        snprintf(m->host, sizeof m->host, "%.60s %.40s %.40s", un.nodename, un.sysname, un.machine);
    else
        snprintf(m->host, sizeof m->host, "unknown");
    size_t len = 0;
    m->command[0] = '\0';
    for (int i = -1; i < argc && len < sizeof m->command; i++) {
        int w = snprintf(m->command + len, sizeof m->command - len, "%s%s", i < 0 ? "accel" : " ",
                         i < 0 ? "" : argv[i]);
        if (w < 0)
            break;
        len += (size_t)w;
    }
}

/* CLI_EXIT_OK, or CLI_EXIT_RUNTIME after saying why path was not written. */
static int written(const char *path, int err)
{
    if (!err)
        return CLI_EXIT_OK;
    fprintf(stderr, "accel bench: cannot write %s: %s\n", path, strerror(err));
    return CLI_EXIT_RUNTIME;
}

static int write_outputs(const bench *b, const bench_args *a, const bench_meta *m)
{
    printf("accel bench  %s  %s  accel %s\n", m->when, m->host, accel_version());
    for (size_t i = 0; i < b->dev_count; i++)
        bench_print_device(stdout, &b->devs[i]);
    fflush(stdout);
    int rc = CLI_EXIT_OK;
    if (a->json)
        rc |= written(a->json, bench_write_json(a->json, b, m));
    if (a->csv)
        rc |= written(a->csv, bench_write_csv(a->csv, b));
    if (a->svg)
        rc |= written(a->svg, bench_write_svg(a->svg, b->devs, b->dev_count, m->when, &a->peers));
    return rc;
}

/* --strict: BENCH_EXIT_MISS, with a count on stderr, when a target missed. */
static int strict_verdict(const bench *b)
{
    size_t missed = 0, total = 0;
    for (size_t i = 0; i < b->dev_count; i++)
        for (size_t k = 0; k < b->devs[i].target_count; k++, total++)
            missed += !b->devs[i].targets[k].pass;
    if (!missed)
        return CLI_EXIT_OK;
    fprintf(stderr, "accel bench: --strict: %zu of %zu targets missed\n", missed, total);
    return BENCH_EXIT_MISS;
}

/* CLI_EXIT_OK, or CLI_EXIT_RUNTIME after saying why path cannot be written:
 * checked before the measurements (minutes on a GPU) rather than after
 * them. The folder must exist and be writable, and path must not name a
 * folder; the file itself is written at the end. */
static int writable(const char *path)
{
    if (!path)
        return CLI_EXIT_OK;
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        return written(path, EISDIR);
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else if ((size_t)(slash - path) < sizeof dir)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    else
        return written(path, ENAMETOOLONG);
    if (stat(dir, &sb) != 0)
        return written(path, errno);
    if (!S_ISDIR(sb.st_mode))
        return written(path, ENOTDIR);
    if (access(dir, W_OK | X_OK) != 0)
        return written(path, errno);
    return CLI_EXIT_OK;
}

static int bench_main(int argc, char **argv)
{
    bench b;
    bench_args a;
    memset(&b, 0, sizeof b);
    memset(&a, 0, sizeof a);
    b.progress = isatty(STDERR_FILENO);
    int rc = parse_options(argc, argv, &b, &a);
    if (rc != CLI_CONTINUE)
        return rc;
    rc = writable(a.json);
    rc |= writable(a.csv);
    rc |= writable(a.svg);
    if (rc != CLI_EXIT_OK)
        return rc;
    char why[600];
    if (a.peers_path && bench_peers_read(a.peers_path, &a.peers, why, sizeof why) != 0) {
        fprintf(stderr, "accel %s: --peers %s\n", cmd, why);
        return CLI_EXIT_RUNTIME;
    }
    accel_status st = accel_runtime_open(a.config, &b.rt);
    if (st != ACCEL_SUCCESS) {
        bench_peers_free(&a.peers);
        return cli_runtime_error(cmd, st, "opening the runtime");
    }
    accel_device *devs[MAX_DEVICES];
    bench_plan plans[MAX_DEVICES];
    rc = pick_devices(b.rt, &a, devs, &b.dev_count);
    b.devs = rc == CLI_EXIT_OK ? calloc(b.dev_count ? b.dev_count : 1, sizeof *b.devs) : NULL;
    if (rc == CLI_EXIT_OK && !b.devs)
        rc = cli_runtime_error(cmd, ACCEL_ERROR_OUT_OF_HOST_MEMORY, "allocating");
    if (rc == CLI_EXIT_OK) {
        describe_devices(&b, devs, plans);
        rc = measure_all(&b, devs, plans);
    }
    if (rc == CLI_EXIT_OK) {
        bench_meta m;
        make_meta(argc, argv, &m);
        rc = write_outputs(&b, &a, &m);
    }
    if (rc == CLI_EXIT_OK && a.strict)
        rc = strict_verdict(&b);
    for (size_t i = 0; b.devs && i < b.dev_count; i++)
        free(b.devs[i].rows);
    free(b.devs);
    bench_peers_free(&a.peers);
    accel_runtime_close(b.rt);
    return rc;
}
