/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright 2026 The accel authors */
/* cli_errors.c — the messages every subcommand and the option parser share:
 * usage errors (exit 2), runtime errors with accel's status and message
 * (exit 1), the device-name hint, and device kind names (cli.h). */
#include <stdarg.h>
#include <stdio.h>
#include <strings.h>

#include "accel/verify.h"
#include "cli.h"

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "accel%s%s: error: ", cmd && *cmd ? " " : "", cmd ? cmd : "");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(run 'accel%s%s --help' for usage)\n", cmd && *cmd ? " " : "",
            cmd ? cmd : "");
    va_end(ap);
    return CLI_EXIT_USAGE;
}

int cli_runtime_error(const char *cmd, accel_status st, const char *what)
{
    const char *msg = accel_last_error();
    if (!msg || !msg[0])
        msg = accel_status_string(st);
    fprintf(stderr, "accel %s: %s: %s (%s)\n", cmd, what, msg, accel_status_name(st));
    return CLI_EXIT_RUNTIME;
}

void cli_device_hint(const char *cmd, const char *name)
{
    if (name && strncasecmp(name, "gpu", 3) == 0 && (name[3] == '\0' || name[3] == ':'))
        fprintf(stderr, "accel %s: hint: GPUs are named cuda, cuda:N\n", cmd);
}

int cli_device_lookup(const char *cmd, accel_runtime *rt, const char *name, accel_device **out)
{
    if (!name) {
        accel_status st = accel_device_default(rt, out);
        return st == ACCEL_SUCCESS ? CLI_EXIT_OK : cli_runtime_error(cmd, st, "no default device");
    }
    accel_status st = accel_device_get_by_name(rt, name, out);
    if (st == ACCEL_SUCCESS)
        return CLI_EXIT_OK;
    const char *msg = accel_last_error(); /* lists the known devices */
    fprintf(stderr, "accel %s: error: --device %s: %s (%s)\n", cmd, name,
            msg && msg[0] ? msg : accel_status_string(st), accel_status_name(st));
    cli_device_hint(cmd, name);
    return CLI_EXIT_USAGE;
}

int cli_open_device(const char *cmd, const char *config, const char *device, bool verify,
                    accel_runtime **rt, accel_device **dev)
{
    accel_status st = accel_runtime_open(config, rt);
    if (st != ACCEL_SUCCESS)
        return cli_runtime_error(cmd, st, "cannot open the runtime");
    int rc = cli_device_lookup(cmd, *rt, device, dev);
    if (rc != CLI_EXIT_OK || !verify)
        return rc;
    accel_verify_options o;
    accel_verify_options_init(&o);
    o.reference = "cpu";
    o.fail_on_mismatch = true;
    o.check_reference_device = true;
    if ((st = accel_verify_configure(*rt, &o)) != ACCEL_SUCCESS)
        return cli_runtime_error(cmd, st, "cannot turn verify mode on");
    return CLI_EXIT_OK;
}

const char *cli_kind_name(uint32_t kind)
{
    switch ((accel_device_kind)kind) {
    case ACCEL_DEVICE_CPU:
        return "CPU";
    case ACCEL_DEVICE_GPU:
        return "GPU";
    case ACCEL_DEVICE_OTHER:
        return "other";
    }
    return "other";
}
