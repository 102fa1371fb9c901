/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* verify.c — `accel verify`: the conformance suite for a device or a backend
 * plugin. The cases are verify_cases.c, one case's run and checks
 * verify_case.c; this file holds the options, the runtime set-up (for
 * --plugin, a temporary configuration with the plugin beside the CPU
 * backend) and the summary table. */
#define _DEFAULT_SOURCE /* mkdtemp, realpath */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "accel/verify.h"
#include "verify_suite.h"

enum { OPT_PLUGIN = CLI_LONG, OPT_SEED, OPT_QUICK, OPT_CONFIG };

static int verify_main(int argc, char **argv);

static const cli_option options[] = {
    {"device", 'd', "NAME", "the device to check (default: the default device)", NULL},
    {"plugin", OPT_PLUGIN, "PATH",
     "load this backend plugin beside the CPU backend and check its\n"
     "device 0 (its load-time self-test runs first)",
     NULL},
    {"seed", OPT_SEED, "N",
     "the inputs' seed, 0 to 2^64-1, decimal or 0x hex (default 1);\nprinted with each failure",
     NULL},
    {"quick", OPT_QUICK, NULL, "fewer, smaller shapes", NULL},
    {"config", OPT_CONFIG, "FILE", "the plugins.ini to read (for the CPU backend's path too)",
     NULL},
    {"verbose", 'v', NULL, "print every case", NULL},
    {NULL, 0, NULL, NULL, NULL},
};

const cli_command cli_verify_command = {
    .name = "verify",
    .summary = "conformance suite: every op, dtype and shape on a device or plugin vs the CPU",
    .synopsis = "[--device NAME | --plugin PATH.so] [--seed N] [--quick]\n"
                "    [--config FILE] [--verbose]",
    .description = "Runs every op, dtype and shape set on the device (or the plugin's first\n"
                   "device) and on the CPU device, on the same random inputs, and compares\n"
                   "the results with accel's tolerance model (see accel/verify.h): elementwise\n"
                   "ops within 1 ulp (exp, log, tanh 4 ulp), sums and dots within\n"
                   "2*n*eps*sum|x|, GEMM within 2*(k+2)*eps*(|A||B|)_ij, NaN meets NaN, Inf\n"
                   "meets Inf. The array layer's elementwise functions on complex64 and\n"
                   "complex128 are compared part by part within the row's bound in ulps of\n"
                   "the larger part. Guard elements around every operand must stay untouched (no\n"
                   "writes out of range) and inputs unchanged. Prints a table. Unsupported\n"
                   "ops are listed, not failed.",
    .options = options,
    .notes = "exit status:\n"
             "  0  every case passed (or is unsupported)\n"
             "  1  a case failed, or the device or plugin could not be used\n"
             "  2  the command line is wrong",
    .main = verify_main,
    .operand_words = NULL,
};

typedef struct verify_args {
    const char *device, *plugin, *config;
    unsigned long long seed;
    bool quick, verbose;
} verify_args;

/* CLI_CONTINUE, or the exit code after --help or a usage error. */
static int parse_options(int argc, char **argv, verify_args *a)
{
    cli_parser p;
    cli_parser_init(&p, &cli_verify_command, argc, argv);
    a->seed = 1;
    for (int key; (key = cli_parser_next(&p)) != CLI_OPT_END;) {
        if (key == CLI_OPT_EXIT)
            return p.exit_code;
        if (key == 'd')
            a->device = p.value;
        else if (key == OPT_PLUGIN)
            a->plugin = p.value;
        else if (key == OPT_CONFIG)
            a->config = p.value;
        else if (key == OPT_QUICK)
            a->quick = true;
        else if (key == 'v')
            a->verbose = true;
        else if (key == OPT_SEED && !cli_parse_u64(p.value, 0, UINT64_MAX, &a->seed))
            return cli_usage_error("verify", "--seed %s is not a number from 0 to 2^64-1", p.value);
    }
    if (p.next < argc)
        return cli_usage_error("verify", "unexpected argument '%s'", argv[p.next]);
    if (a->device && a->plugin)
        return cli_usage_error("verify", "--device and --plugin exclude each other");
    if (a->plugin && access(a->plugin, R_OK) != 0)
        return cli_usage_error("verify", "--plugin %s: no such readable file", a->plugin);
    return CLI_CONTINUE;
}

/* The CPU backend's library path from the usual configuration, or "". */
static bool cpu_backend_path(const char *config, char *out, size_t cap)
{
    accel_runtime *rt = NULL;
    accel_status st = accel_runtime_open(config, &rt);
    if (st != ACCEL_SUCCESS) {
        cli_runtime_error("verify", st, "cannot open the configuration to find the CPU backend");
        return false;
    }
    out[0] = '\0';
    for (uint32_t i = 0; i < accel_runtime_backend_count(rt); i++) {
        accel_backend_info info;
        memset(&info, 0, sizeof info);
        info.struct_size = sizeof info;
        if (accel_runtime_backend_info(rt, i, &info) == ACCEL_SUCCESS &&
            strcmp(info.name, "cpu") == 0)
            snprintf(out, cap, "%s", info.path);
    }
    accel_runtime_close(rt);
    if (!out[0])
        fprintf(stderr, "accel verify: the configuration has no [backend.cpu] for the reference\n");
    return out[0] != '\0';
}

/* A temporary plugins.ini: the plugin first, the CPU backend as reference.
 * The plugin's path is made absolute: the core reads a relative library path
 * relative to the ini's folder, which here is a temporary one. */
static bool write_plugin_ini(const char *plugin, const char *cpu_path, char *ini, size_t cap)
{
    char abs_plugin[PATH_MAX];
    if (!realpath(plugin, abs_plugin)) {
        fprintf(stderr, "accel verify: --plugin %s: %s\n", plugin, strerror(errno));
        return false;
    }
    char dir[] = "/tmp/accel-verify-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("accel verify: mkdtemp");
        return false;
    }
    snprintf(ini, cap, "%s/plugins.ini", dir);
    FILE *f = fopen(ini, "w");
    if (!f) {
        perror("accel verify: writing a temporary plugins.ini");
        rmdir(dir);
        ini[0] = '\0';
        return false;
    }
    fprintf(f,
            "[runtime]\norder = plugin, cpu\nfallback = none\n"
            "[backend.plugin]\nlibrary = %s\n[backend.cpu]\nlibrary = %s\n",
            abs_plugin, cpu_path);
    return fclose(f) == 0;
}

static void remove_plugin_ini(char *ini)
{
    if (!ini[0])
        return;
    unlink(ini);
    char *slash = strrchr(ini, '/');
    if (slash) {
        *slash = '\0';
        rmdir(ini);
    }
}

/* Why the plugin did not load. The configuration is accel verify's own, so a
 * reason that ends in advice about a plugins.ini key is given the advice that
 * applies here instead. */
static void print_plugin_refusal(const char *plugin, const accel_backend_info *info)
{
    const char *reason = info->reason ? info->reason : "";
    const char *advice = strstr(reason, " (fix the permissions, or set allow_insecure");
    int len = advice ? (int)(advice - reason) : (int)strlen(reason);
    fprintf(stderr, "accel verify: the plugin %s did not load: %.*s (%s)\n", plugin, len, reason,
            accel_status_name(info->status));
    if (advice)
        fprintf(stderr, "accel verify: fix the file's permissions, or run with "
                        "ACCEL_ALLOW_INSECURE=1 (--plugin writes its own configuration, so no "
                        "plugins.ini key applies)\n");
}

/* The runtime for --plugin: NULL after a message. */
static accel_runtime *open_for_plugin(const verify_args *a, char *ini, size_t cap)
{
    char cpu_path[4096];
    if (!cpu_backend_path(a->config, cpu_path, sizeof cpu_path) ||
        !write_plugin_ini(a->plugin, cpu_path, ini, cap))
        return NULL;
    accel_runtime *rt = NULL;
    accel_status st = accel_runtime_open(ini, &rt);
    if (st != ACCEL_SUCCESS) {
        cli_runtime_error("verify", st, "cannot open the plugin's configuration");
        return NULL;
    }
    accel_backend_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    if (accel_runtime_backend_info(rt, 0, &info) != ACCEL_SUCCESS || !info.loaded) {
        print_plugin_refusal(a->plugin, &info);
        accel_runtime_close(rt);
        return NULL;
    }
    return rt;
}

/* Device under test, CPU reference and a queue on each; CLI_EXIT_OK, else
 * the exit code after a message (a --device of no device is a usage error). */
static int setup_run(accel_runtime *rt, const char *device, verify_run *vr)
{
    /* The suite sees the device as it is: no shadow checks, no fallback. */
    accel_verify_options vo;
    accel_verify_options_init(&vo);
    accel_verify_configure(rt, &vo);
    accel_fallback_configure(rt, NULL, false);
    int rc = cli_device_lookup("verify", rt, device, &vr->dev);
    if (rc != CLI_EXIT_OK)
        return rc;
    accel_status st = accel_device_get_by_name(rt, "cpu", &vr->ref);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_create(vr->dev, &vr->q);
    if (st == ACCEL_SUCCESS)
        st = accel_queue_create(vr->ref, &vr->rq);
    if (st != ACCEL_SUCCESS)
        return cli_runtime_error("verify", st, "cannot set up the device and the CPU reference");
    return CLI_EXIT_OK;
}

/* The table per op and dtype and the totals; the number of failures. */
static unsigned print_summary(const verify_run *vr)
{
    unsigned pass = 0, fail = 0, unsup = 0;
    printf("\n%-16s %-5s %7s %7s %12s\n", "op", "dtype", "passed", "failed", "unsupported");
    for (size_t i = 0; i < vr->ntally; i++) {
        const verify_tally *t = &vr->tallies[i];
        printf("%-16s %-5s %7u %7u %12u%s\n", t->name ? t->name : accel_op_name(t->op),
               accel_dtype_name(t->dt), t->pass, t->fail, t->unsupported,
               t->fail ? "  FAIL" : (t->pass == 0 && t->unsupported ? "  (unsupported)" : ""));
        pass += t->pass, fail += t->fail, unsup += t->unsupported;
    }
    printf("\n%u cases passed, %u failed, %u unsupported on %s (seed %" PRIu64
           "; worst error %.2g of its bound)%s\n",
           pass, fail, unsup, accel_device_name(vr->dev), vr->seed, vr->worst,
           fail || vr->dev != vr->ref
               ? ""
               : ": but this device IS the CPU reference, so the checks only show the CPU "
                 "agrees with itself (no GPU in use; see accel info)");
    return fail;
}

static int verify_main(int argc, char **argv)
{
    verify_args a;
    memset(&a, 0, sizeof a);
    int rc = parse_options(argc, argv, &a);
    if (rc != CLI_CONTINUE)
        return rc;
    char ini[4200] = "";
    accel_runtime *rt = NULL;
    if (a.plugin) {
        rt = open_for_plugin(&a, ini, sizeof ini);
    } else {
        accel_status st = accel_runtime_open(a.config, &rt);
        if (st != ACCEL_SUCCESS)
            cli_runtime_error("verify", st, "cannot open the runtime");
    }
    static verify_run vr; /* large; one per process */
    memset(&vr, 0, sizeof vr);
    vr.seed = a.seed;
    vr.verbose = a.verbose;
    vr.quick = a.quick;
    rc = rt ? setup_run(rt, a.plugin ? "plugin" : a.device, &vr) : CLI_EXIT_RUNTIME;
    if (rc == CLI_EXIT_OK) {
        printf("accel verify: %s against %s, seed %" PRIu64 "%s\n", accel_device_name(vr.dev),
               accel_device_name(vr.ref), vr.seed, a.quick ? ", quick" : "");
        verify_suite(&vr);
        rc = print_summary(&vr) ? CLI_EXIT_RUNTIME : CLI_EXIT_OK;
    }
    accel_queue_release(vr.q);
    accel_queue_release(vr.rq);
    accel_runtime_close(rt);
    remove_plugin_ini(ini);
    return rc;
}
